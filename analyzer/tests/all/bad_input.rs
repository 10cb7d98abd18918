//! Hostile and broken bundles: each gives a clear message, the rest is still analyzed, nothing
//! panics, nothing is written outside memory, and limits hold.

use rca::artifacts::Outcome;
use rca::bundle::Limits;
use rca::report::Report;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A small, valid `/proc/softirqs` so every bundle has one artifact that parses.
const SOFTIRQS: &str = "                    CPU0       CPU1\n          HI:          7          1\n       TIMER:     424191     108342\n      NET_TX:       2301       2430\n      NET_RX:      43066     104508\n       BLOCK:      23776      24115\n    IRQ_POLL:          0          0\n     TASKLET:        372        116\n       SCHED:     378895     152852\n     HRTIMER:         40         68\n         RCU:     155929     146631\n";

fn analyze(path: &Path, limits: &Limits) -> Report {
    rca::report::Report::analyze(path, limits).expect("the bundle is readable")
}

fn artifact<'a>(r: &'a Report, suffix: &str) -> &'a rca::artifacts::Artifact {
    r.artifacts
        .iter()
        .find(|a| a.path.ends_with(suffix))
        .unwrap_or_else(|| {
            panic!(
                "no artifact ending in {suffix}: {:?}",
                r.artifacts.iter().map(|a| &a.path).collect::<Vec<_>>()
            )
        })
}

fn softirqs_parsed(r: &Report) {
    let a = artifact(r, "proc/softirqs");
    assert_eq!(
        a.outcome,
        Outcome::Parsed,
        "the healthy artifact is still analyzed"
    );
}

fn tar_bytes(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (name, data) in entries {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        b.append_data(&mut h, name, *data).unwrap();
    }
    b.into_inner().unwrap()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn write(dir: &Path, name: &str, data: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, data).unwrap();
    p
}

/// A raw 512-byte tar header with the given name, type flag and size, checksum filled in.
fn raw_header(name: &[u8], flag: u8, size: u64) -> [u8; 512] {
    let mut h = [0u8; 512];
    h[..name.len()].copy_from_slice(name);
    h[100..107].copy_from_slice(b"0000644");
    h[108..115].copy_from_slice(b"0000000");
    h[116..123].copy_from_slice(b"0000000");
    let sz = format!("{size:011o}");
    h[124..124 + sz.len()].copy_from_slice(sz.as_bytes());
    h[136..147].copy_from_slice(b"00000000000");
    h[156] = flag;
    h[257..263].copy_from_slice(b"ustar ");
    h[263..265].copy_from_slice(b" \0");
    h[148..156].copy_from_slice(b"        ");
    let sum: u32 = h.iter().map(|&b| b as u32).sum();
    let ck = format!("{sum:06o}\0 ");
    h[148..156].copy_from_slice(ck.as_bytes());
    h
}

#[test]
fn empty_file_is_unusable_and_exit_2() {
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "empty.txt", b"");
    let r = analyze(&p, &Limits::default());
    assert_eq!(r.artifacts.len(), 1);
    assert!(matches!(
        r.artifacts[0].outcome,
        Outcome::Unrecognised { .. } | Outcome::Unusable { .. }
    ));
    let out = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("could not be analyzed"));
}

#[test]
fn truncated_gzip_keeps_what_was_read() {
    let d = tempfile::tempdir().unwrap();
    let filler: Vec<u8> = (0..400_000u32)
        .flat_map(|i| format!("{i} {}\n", i.wrapping_mul(2654435761)).into_bytes())
        .collect();
    let tgz = gzip(&tar_bytes(&[
        ("b/proc/softirqs", SOFTIRQS.as_bytes()),
        ("b/big.log", &filler),
    ]));
    let p = write(d.path(), "cut.tar.gz", &tgz[..tgz.len() / 2]);
    let r = analyze(&p, &Limits::default());
    let stop = r.bundle.stopped.as_deref().expect("reading stopped early");
    assert!(stop.contains("truncated"), "{stop}");
    softirqs_parsed(&r);
}

#[test]
fn zip_traversal_and_absolute_names_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("evil.zip");
    let mut z = zip::ZipWriter::new(std::fs::File::create(&p).unwrap());
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in [
        ("../../etc/passwd", "root:x:0:0\n"),
        ("/etc/shadow", "root:*:1\n"),
        ("proc/softirqs", SOFTIRQS),
    ] {
        z.start_file(name, opts).unwrap();
        z.write_all(data.as_bytes()).unwrap();
    }
    z.finish().unwrap();
    let r = analyze(&p, &Limits::default());
    let refused: Vec<_> = r
        .bundle
        .refused
        .iter()
        .map(|x| (x.path.as_str(), x.reason.as_str()))
        .collect();
    assert!(
        refused
            .iter()
            .any(|(p, why)| *p == "../../etc/passwd" && why.contains("..")),
        "{refused:?}"
    );
    assert!(
        refused
            .iter()
            .any(|(p, why)| *p == "/etc/shadow" && why.contains("absolute")),
        "{refused:?}"
    );
    assert_eq!(r.artifacts.len(), 1);
    softirqs_parsed(&r);
}

#[test]
fn tar_links_leaving_the_tree_are_refused_not_followed() {
    let d = tempfile::tempdir().unwrap();
    let mut b = tar::Builder::new(Vec::new());
    let mut h = tar::Header::new_gnu();
    h.set_entry_type(tar::EntryType::Symlink);
    h.set_size(0);
    b.append_link(&mut h, "b/etc", "/etc").unwrap();
    let mut h = tar::Header::new_gnu();
    h.set_entry_type(tar::EntryType::Link);
    h.set_size(0);
    b.append_link(&mut h, "b/passwd", "/etc/passwd").unwrap();
    let mut h = tar::Header::new_gnu();
    h.set_size(SOFTIRQS.len() as u64);
    h.set_entry_type(tar::EntryType::Regular);
    b.append_data(&mut h, "b/proc/softirqs", SOFTIRQS.as_bytes())
        .unwrap();
    let p = write(d.path(), "links.tar", &b.into_inner().unwrap());
    let r = analyze(&p, &Limits::default());
    let reasons: Vec<_> = r.bundle.refused.iter().map(|x| x.reason.as_str()).collect();
    assert!(
        reasons
            .iter()
            .any(|w| w.contains("symbolic link to `/etc`")),
        "{reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .any(|w| w.contains("hard link to `/etc/passwd`")),
        "{reasons:?}"
    );
    softirqs_parsed(&r);
}

#[test]
fn gzip_bomb_stops_at_the_entry_cap() {
    let d = tempfile::tempdir().unwrap();
    let zeros = vec![0u8; 64 << 20];
    let tgz = gzip(&tar_bytes(&[
        ("b/proc/softirqs", SOFTIRQS.as_bytes()),
        ("b/bomb.txt", &zeros),
    ]));
    assert!(
        tgz.len() < 1 << 20,
        "the bomb is small: {} bytes",
        tgz.len()
    );
    let p = write(d.path(), "bomb.tar.gz", &tgz);
    let limits = Limits {
        max_entry_bytes: 1 << 20,
        ..Limits::default()
    };
    let r = analyze(&p, &limits);
    assert_eq!(
        artifact(&r, "bomb.txt").outcome,
        Outcome::TooLarge { limit: 1 << 20 }
    );
    assert!(r
        .bundle
        .stopped
        .as_deref()
        .is_some_and(|s| s.contains("oversize entry")));
    softirqs_parsed(&r);
}

#[test]
fn gzip_bomb_trips_the_ratio_alarm() {
    let d = tempfile::tempdir().unwrap();
    let zeros = vec![0u8; 32 << 20];
    let tgz = gzip(&tar_bytes(&[
        ("b/proc/softirqs", SOFTIRQS.as_bytes()),
        ("b/bomb.txt", &zeros),
    ]));
    let p = write(d.path(), "bomb.tgz", &tgz);
    let limits = Limits {
        max_ratio: 100,
        ratio_floor_bytes: 1 << 20,
        ..Limits::default()
    };
    let r = analyze(&p, &limits);
    match &artifact(&r, "bomb.txt").outcome {
        Outcome::Unusable { reason } => {
            assert!(reason.contains("compression ratio alarm"), "{reason}")
        }
        other => panic!("expected the ratio alarm, got {other:?}"),
    }
    assert!(r
        .bundle
        .stopped
        .as_deref()
        .is_some_and(|s| s.contains("--max-ratio")));
    softirqs_parsed(&r);
}

#[test]
fn gnu_long_name_claiming_hundreds_of_mb_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let mut data = tar_bytes(&[("b/proc/softirqs", SOFTIRQS.as_bytes())]);
    data.truncate(data.len() - 1024); // drop the end-of-archive blocks
    data.extend_from_slice(&raw_header(b"././@LongLink", b'L', 300 << 20));
    data.extend_from_slice(&[b'a'; 4096]);
    let p = write(d.path(), "longname.tar", &data);
    let r = analyze(&p, &Limits::default());
    let reasons: Vec<_> = r.bundle.refused.iter().map(|x| x.reason.as_str()).collect();
    assert!(
        reasons
            .iter()
            .any(|w| w.contains("long-name header claims 300.0 MiB")),
        "{reasons:?} {:?}",
        r.bundle.stopped
    );
    softirqs_parsed(&r);
}

#[test]
fn sparse_entry_claiming_gigabytes_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let mut data = tar_bytes(&[("b/proc/softirqs", SOFTIRQS.as_bytes())]);
    data.truncate(data.len() - 1024);
    let mut h = raw_header(b"b/sparse.img", b'S', 512);
    // GNU sparse: one map entry (offset 8 GiB, 512 bytes) and a real size of 8 GiB + 512.
    h[386..398].copy_from_slice(format!("{:012o}", 8u64 << 30).as_bytes());
    h[398..410].copy_from_slice(b"000000001000");
    h[483..495].copy_from_slice(format!("{:012o}", (8u64 << 30) + 512).as_bytes());
    h[148..156].copy_from_slice(b"        ");
    let sum: u32 = h.iter().map(|&b| b as u32).sum();
    h[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
    data.extend_from_slice(&h);
    data.extend_from_slice(&[7u8; 512]);
    data.extend_from_slice(&[0u8; 1024]);
    let p = write(d.path(), "sparse.tar", &data);
    let r = analyze(&p, &Limits::default());
    assert!(
        r.bundle
            .refused
            .iter()
            .any(|x| x.path == "b/sparse.img" && x.reason.contains("sparse")),
        "{:?}",
        r.bundle.refused
    );
    softirqs_parsed(&r);
}

#[test]
fn random_bytes_named_iostat_are_unusable() {
    let d = tempfile::tempdir().unwrap();
    let mut x: u64 = 0x9e3779b97f4a7c15;
    let noise: Vec<u8> = (0..64 * 1024)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    write(d.path(), "iostat.txt", &noise);
    std::fs::create_dir(d.path().join("proc")).unwrap();
    write(&d.path().join("proc"), "softirqs", SOFTIRQS.as_bytes());
    let r = analyze(d.path(), &Limits::default());
    let a = artifact(&r, "iostat.txt");
    assert_eq!(a.kind_name(), Some("iostat"));
    match &a.outcome {
        Outcome::Unusable { reason } => assert!(!reason.is_empty()),
        other => panic!("expected unusable, got {other:?}"),
    }
    softirqs_parsed(&r);
}

#[test]
fn non_utf8_bytes_are_an_issue_not_a_failure() {
    let d = tempfile::tempdir().unwrap();
    let mut bytes = SOFTIRQS.as_bytes().to_vec();
    let at = SOFTIRQS.find("NET_RX").unwrap();
    bytes.splice(at..at, [0xff, 0xfe, b' ']);
    std::fs::create_dir(d.path().join("proc")).unwrap();
    write(&d.path().join("proc"), "softirqs", &bytes);
    let r = analyze(d.path(), &Limits::default());
    let a = artifact(&r, "proc/softirqs");
    assert!(
        a.issues
            .iter()
            .any(|i| i.line == 5 && i.message.contains("UTF-8")),
        "{:?}",
        a.issues
    );
    assert!(matches!(a.outcome, Outcome::Partial));
}

#[test]
fn a_single_huge_line_is_too_large() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "one-line.log", &vec![b'x'; 8 << 20]);
    std::fs::create_dir(d.path().join("proc")).unwrap();
    write(&d.path().join("proc"), "softirqs", SOFTIRQS.as_bytes());
    let limits = Limits {
        max_entry_bytes: 1 << 20,
        ..Limits::default()
    };
    let r = analyze(d.path(), &limits);
    assert_eq!(
        artifact(&r, "one-line.log").outcome,
        Outcome::TooLarge { limit: 1 << 20 }
    );
    softirqs_parsed(&r);
}

#[test]
fn markup_in_the_bundle_is_escaped_in_the_report() {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "<script>alert(1)<\\script>.txt",
        b"<script>alert(1)</script>\n",
    );
    std::fs::create_dir(d.path().join("proc")).unwrap();
    write(&d.path().join("proc"), "softirqs", SOFTIRQS.as_bytes());
    let out = d.path().join("r.html");
    let status = Command::new(env!("CARGO_BIN_EXE_rca"))
        .args(["analyze", "-q", "-o"])
        .arg(&out)
        .arg(d.path())
        .status()
        .unwrap();
    assert!(status.code().is_some(), "no crash");
    let html = std::fs::read_to_string(&out).unwrap();
    // The page's one script element is its own (allowed by hash in the CSP); none may come
    // from the bundle.
    assert_eq!(
        html.matches("<script").count(),
        1,
        "no script element may come from the bundle"
    );
    assert!(!html.contains("<script>alert(1)"));
    assert!(html.contains("&lt;script&gt;alert(1)"));
}

#[test]
fn a_fifo_is_refused_without_blocking() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("bundle.fifo");
    let ok = Command::new("mkfifo")
        .arg(&p)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "mkfifo works");
    let err = rca::report::Report::analyze(&p, &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("neither a regular file nor a directory"),
        "{err}"
    );
}

#[test]
fn duplicate_tar_names_keep_the_first_and_list_the_rest() {
    let d = tempfile::tempdir().unwrap();
    let second = SOFTIRQS.replace("43066", "99999");
    let p = write(
        d.path(),
        "dup.tar",
        &tar_bytes(&[
            ("b/proc/softirqs", SOFTIRQS.as_bytes()),
            ("b/proc/softirqs", second.as_bytes()),
        ]),
    );
    let r = analyze(&p, &Limits::default());
    assert_eq!(
        r.artifacts
            .iter()
            .filter(|a| a.path == "b/proc/softirqs")
            .count(),
        1
    );
    assert!(
        artifact(&r, "proc/softirqs")
            .text
            .contents()
            .contains("43066"),
        "the first copy is the one analyzed"
    );
    assert!(r
        .bundle
        .refused
        .iter()
        .any(|x| x.path == "b/proc/softirqs" && x.reason.contains("duplicate")));
}

#[test]
fn zip_entries_sharing_data_are_refused_and_ratio_is_checked_while_inflating() {
    // One deflated entry of 32 MiB of zeros, then its central-directory record repeated under
    // other names pointing at the same local header: the overlapping-entry bomb.
    let d = tempfile::tempdir().unwrap();
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        z.start_file("b/proc/softirqs", opts).unwrap();
        z.write_all(SOFTIRQS.as_bytes()).unwrap();
        z.start_file("b/zeros.txt", opts).unwrap();
        z.write_all(&vec![0u8; 32 << 20]).unwrap();
        z.finish().unwrap();
    }
    let mut bytes = buf.into_inner();
    let eocd = bytes.windows(4).rposition(|w| w == b"PK\x05\x06").unwrap();
    let cd_off = u32::from_le_bytes(bytes[eocd + 16..eocd + 20].try_into().unwrap()) as usize;
    let cd = bytes[cd_off..eocd].to_vec();
    let second = cd.windows(4).rposition(|w| w == b"PK\x01\x02").unwrap();
    let record = cd[second..].to_vec(); // the zeros entry's record
    let mut copies = Vec::new();
    for i in 0..20u8 {
        let mut r = record.clone();
        let name_len = u16::from_le_bytes([r[28], r[29]]) as usize;
        r[46 + name_len - 5] = b'a' + i; // rename: b/zeros.txt → b/zeroa.txt, b/zerob.txt, ...
        copies.extend_from_slice(&r);
    }
    let mut eocd_rec = bytes[eocd..].to_vec();
    let n = 2 + 20u16;
    eocd_rec[8..10].copy_from_slice(&n.to_le_bytes());
    eocd_rec[10..12].copy_from_slice(&n.to_le_bytes());
    let cd_len = (cd.len() + copies.len()) as u32;
    eocd_rec[12..16].copy_from_slice(&cd_len.to_le_bytes());
    bytes.truncate(eocd);
    bytes.extend_from_slice(&copies);
    bytes.extend_from_slice(&eocd_rec);
    let p = write(d.path(), "overlap.zip", &bytes);
    let started = std::time::Instant::now();
    let limits = Limits {
        ratio_floor_bytes: 1 << 20,
        ..Limits::default()
    };
    let r = analyze(&p, &limits);
    let overlapping = r
        .bundle
        .refused
        .iter()
        .filter(|x| x.reason.contains("overlapping"))
        .count();
    let alarm = r
        .bundle
        .stopped
        .as_deref()
        .is_some_and(|s| s.contains("ratio alarm"));
    assert!(
        overlapping >= 1 || alarm,
        "refused: {:?}, stopped: {:?}",
        r.bundle.refused,
        r.bundle.stopped
    );
    assert!(started.elapsed().as_secs() < 20, "bounded work");
    softirqs_parsed(&r);
}

#[test]
fn oversize_files_in_a_directory_are_not_read() {
    let d = tempfile::tempdir().unwrap();
    let big = std::fs::File::create(d.path().join("huge.log")).unwrap();
    big.set_len(8 << 30).unwrap(); // sparse: 8 GiB claimed, nothing on disk
    std::fs::create_dir(d.path().join("proc")).unwrap();
    write(&d.path().join("proc"), "softirqs", SOFTIRQS.as_bytes());
    let started = std::time::Instant::now();
    let r = analyze(d.path(), &Limits::default());
    assert!(
        started.elapsed().as_secs() < 5,
        "refused from its size, not read"
    );
    assert_eq!(
        artifact(&r, "huge.log").outcome,
        Outcome::TooLarge {
            limit: Limits::default().max_entry_bytes
        }
    );
    softirqs_parsed(&r);
}

#[test]
fn a_manifest_kind_that_contradicts_the_content_is_reported() {
    let d = tempfile::tempdir().unwrap();
    let b = d.path().join("rca-x");
    std::fs::create_dir_all(b.join("proc")).unwrap();
    write(&b.join("proc"), "softirqs", SOFTIRQS.as_bytes());
    write(&b, "manifest.tsv", b"# rca-manifest 1\nartifact\tproc/softirqs\tcollector-log\t0\t0\t1\t2\t400\t0\t\tcat /proc/softirqs\n");
    let r = analyze(d.path(), &Limits::default());
    let a = artifact(&r, "proc/softirqs");
    assert!(
        a.issues
            .iter()
            .any(|i| i.message.contains("manifest says kind `collector-log`")),
        "{:?}",
        a.issues
    );
    assert!(r
        .artifacts
        .iter()
        .any(|a| a.path.ends_with("manifest.tsv") && a.kind_name() == Some("manifest")));
}

#[test]
fn nothing_to_evaluate_exits_2() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "uname.txt", b"Linux db1 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) x86_64 GNU/Linux\n");
    let out = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(d.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no rule could be evaluated"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("not evaluated [disk.saturation]"));
}
