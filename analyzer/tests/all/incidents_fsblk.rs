//! End-to-end incident bundles of full filesystems and of saturated stacked block devices
//! (`analyzer/tests/fixtures/incidents/{fs-full,fs-healthy,lvm-saturated,lvm-healthy}`, see
//! the README in each): `rca analyze FOLDER --json` as a user runs it, the ranking, the cited
//! lines and the exit status.

use serde_json::Value;

fn analyze(class: &str) -> (Option<i32>, Value) {
    super::common::analyze_json(&super::common::incident(class))
}

fn findings<'a>(doc: &'a Value, rule: &str) -> Vec<&'a Value> {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == rule)
        .collect()
}

fn status<'a>(doc: &'a Value, rule: &str) -> &'a Value {
    &doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == rule)
        .unwrap_or_else(|| panic!("{rule} in the rules"))["result"]["status"]
}

/// The cited lines of `artifact` in a finding, with their text.
fn cited<'a>(f: &'a Value, artifact: &str) -> Vec<(u64, &'a str)> {
    f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["artifact"] == artifact)
        .flat_map(|e| e["excerpt"].as_array().unwrap())
        .filter(|x| x["line"].as_u64() != Some(0))
        .map(|x| (x["line"].as_u64().unwrap(), x["text"].as_str().unwrap()))
        .collect()
}

#[test]
fn fs_full_names_the_mounts_their_devices_and_writers() {
    let (code, doc) = analyze("fs-full");
    assert_eq!(code, Some(1), "critical findings: exit 1");
    let top = &doc["findings"][0];
    assert_eq!(top["rule_id"], "fs.full", "{top}");
    let full = findings(&doc, "fs.full");
    assert_eq!(full.len(), 2, "data (blocks) and spool (inodes): {full:?}");
    let by_mount = |m: &str| {
        full.iter()
            .find(|f| {
                f["title"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("Filesystem {m} "))
            })
            .unwrap_or_else(|| panic!("a finding for {m}: {full:?}"))
    };
    let data = by_mount("/srv/fsblk/data");
    assert_eq!(
        data["title"],
        "Filesystem /srv/fsblk/data (/dev/loop0) full: blocks 100 % (0 B available); written by \
         pid 10936 java (-Dlog.dir=/srv/fsblk/data/logs)"
    );
    assert_eq!(data["severity"], "critical");
    let df = cited(data, "df-P.txt");
    assert_eq!(df[0].0, 1, "the header");
    assert_eq!(df[1].0, 6);
    assert!(
        df[1].1.starts_with("/dev/loop0") && df[1].1.ends_with("100% /srv/fsblk/data"),
        "{df:?}"
    );
    assert_eq!(
        cited(data, "proc_mounts.txt"),
        [(20, "/dev/loop0 /srv/fsblk/data ext4 rw,relatime 0 0")]
    );
    let ps = cited(data, "ps.txt");
    assert!(
        ps.len() == 1 && ps[0].1.contains("-Dlog.dir=/srv/fsblk/data/logs"),
        "{ps:?}"
    );
    let spool = by_mount("/srv/fsblk/spool");
    let t = spool["title"].as_str().unwrap();
    assert!(t.contains("(/dev/loop1) full: inodes 100 %"), "{t}");
    assert!(
        t.contains("pid 831 sh (--spool-dir=/srv/fsblk/spool/queue)"),
        "{t}"
    );
    let di = cited(spool, "df-i.txt");
    assert!(
        di.iter().any(|(n, l)| *n == 7
            && l.starts_with("/dev/loop1")
            && l.ends_with("64        0  100% /srv/fsblk/spool")),
        "{di:?}"
    );
    assert!(
        cited(spool, "df-P.txt")
            .iter()
            .any(|(_, l)| l.contains("1% /srv/fsblk/spool")),
        "the block row shows space left: the inodes ran out"
    );
    // The decoys at 100 %: a read-only ext4, a tmpfs and a squashfs image.
    for decoy in ["/srv/fsblk/archive", "/srv/fsblk/tmp", "/srv/fsblk/snap"] {
        assert!(
            !full
                .iter()
                .any(|f| f["title"].as_str().unwrap().contains(&format!("{decoy} "))),
            "{decoy} must not fire"
        );
    }
}

#[test]
fn fs_healthy_clears_with_its_decoys_still_full() {
    let (code, doc) = analyze("fs-healthy");
    assert!(findings(&doc, "fs.full").is_empty());
    assert_eq!(status(&doc, "fs.full"), "clear");
    // Only df, the mount table and ps: too little to call the whole host healthy.
    assert_eq!(code, Some(2));
}

#[test]
fn a_sosreport_with_full_snap_images_is_clear() {
    let (code, doc) = analyze("fs-sosreport-snaps");
    assert!(findings(&doc, "fs.full").is_empty());
    let r = doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "fs.full")
        .unwrap();
    assert_eq!(r["result"]["status"], "clear");
    assert_eq!(
        r["result"]["checked"],
        "2 filesystem(s) below 95 % (14 read-only, image or memory filesystem(s) skipped)"
    );
    assert_eq!(code, Some(2));
}

#[test]
fn lvm_saturated_is_one_finding_naming_the_lv_the_disk_and_the_mount() {
    let (code, doc) = analyze("lvm-saturated");
    assert_eq!(code, Some(1));
    let sat = findings(&doc, "disk.saturation");
    assert_eq!(sat.len(), 1, "dm-0 and sda are one stack: {sat:?}");
    let f = sat[0];
    assert_eq!(doc["findings"][0]["rule_id"], "disk.saturation");
    assert_eq!(
        f["title"],
        "Disk sda under dm-0 (centos-root), mounted on /, /boot saturated: await 81 ms, aqu-sz \
         15.6, %util 100"
    );
    assert_eq!(f["severity"], "critical");
    let rows = cited(f, "iostat-x.txt");
    assert!(rows.iter().any(|(_, l)| l.starts_with("sda ")), "{rows:?}");
    assert!(rows.iter().any(|(_, l)| l.starts_with("dm-0 ")), "{rows:?}");
    assert!(
        !rows.iter().any(|(_, l)| l.starts_with("dm-1 ")),
        "{rows:?}"
    );
    let stack = cited(f, "lsblk.txt");
    assert!(
        stack.iter().any(|(_, l)| l.contains("centos-root 253:0")),
        "{stack:?}"
    );
    assert!(
        stack.iter().any(|(_, l)| l.starts_with("sda ")),
        "{stack:?}"
    );
}

#[test]
fn lvm_healthy_is_clear_at_high_util_with_low_latency() {
    let (code, doc) = analyze("lvm-healthy");
    assert!(findings(&doc, "disk.saturation").is_empty());
    assert_eq!(status(&doc, "disk.saturation"), "clear");
    assert_eq!(code, Some(2), "no CPU, memory or network evidence");
}
