//! Two snapshots of one counter file under a customer's names and without times
//! (`tests/fixtures/incidents/snapshot-pair-*`, described in each folder's README.md): `rca
//! analyze FOLDER --json` orders them by their counters and reports the change between them,
//! interval unknown, as a window finding.

use serde_json::Value;

fn analyze(class: &str) -> (Option<i32>, Value) {
    super::common::analyze_json(&super::common::incident(class))
}

fn finding<'a>(doc: &'a Value, id: &str) -> &'a Value {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == id)
        .unwrap_or_else(|| panic!("no {id} finding in {:#}", doc["findings"]))
}

/// The cited lines of a finding, as `artifact:line:text`.
fn cited(f: &Value) -> Vec<String> {
    f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| {
            let a = e["artifact"].as_str().unwrap().to_string();
            e["excerpt"]
                .as_array()
                .into_iter()
                .flatten()
                .map(move |x| format!("{a}:{}:{}", x["line"], x["text"].as_str().unwrap()))
        })
        .collect()
}

fn compaction_between(class: &str, later: &str) {
    let (code, doc) = analyze(class);
    assert_eq!(code, Some(1), "{class}");
    let f = finding(&doc, "mem.compaction-stall");
    assert_eq!(f["severity"], "warning", "{class}");
    assert_eq!(f["confidence"], "medium", "{class}");
    assert!(
        f["title"].as_str().unwrap().starts_with(
            "900 direct compaction stalls between the two `/proc/vmstat` snapshots (interval \
             unknown)"
        ),
        "{class}: {}",
        f["title"]
    );
    let why = f["why"].as_str().unwrap();
    assert!(why.contains("The rate is unknown"), "{why}");
    assert!(!why.contains("since boot"), "{why}");
    let lines = cited(f);
    let want = format!("{later}:139:compact_stall 911");
    assert!(
        lines.iter().any(|l| l.ends_with(&want)),
        "{want} not in {lines:#?}"
    );
    // `oom_kill` 16 → 17 between the same two reads: one kill, not the 16 since boot.
    let oom = finding(&doc, "mem.oom-kill");
    assert_eq!(
        oom["title"],
        "OOM killer killed 1 process between the two `/proc/vmstat` snapshots (interval unknown)"
    );
    assert_eq!(oom["severity"], "warning");
}

#[test]
fn numbered_vmstat_snapshots_are_diffed() {
    compaction_between("snapshot-pair-vmstat", "proc_vmstat.2");
}

#[test]
fn the_later_snapshot_named_first_is_still_the_later() {
    compaction_between("snapshot-pair-vmstat-reversed", "proc_vmstat.1");
}

#[test]
fn a_snapshot_under_after_is_the_later() {
    compaction_between("snapshot-pair-syspaths", "after/proc/vmstat");
}

#[test]
fn retransmit_share_between_two_netstat_outputs_is_a_warning() {
    let (code, doc) = analyze("snapshot-pair-netstat");
    assert_eq!(code, Some(1));
    let top = &doc["findings"][0];
    assert_eq!(top["rule_id"], "net.tcp-retransmits");
    assert_eq!(top["severity"], "warning");
    assert_eq!(
        top["title"],
        "8.0 % of TCP segments retransmitted between the two net-tools `netstat -s` snapshots \
         (interval unknown)"
    );
    let why = top["why"].as_str().unwrap();
    assert!(why.contains("(8000 of 100000)"), "{why}");
    let lines = cited(top);
    for want in [
        "netstat_s_2.txt:37:    2990303 segments send out",
        "netstat_s_2.txt:38:    8428 segments retransmited",
        "netstat_s_1.txt:38:    428 segments retransmited",
    ] {
        assert!(
            lines.iter().any(|l| l.ends_with(want)),
            "{want} not in {lines:#?}"
        );
    }
}

#[test]
fn remote_numa_share_between_two_numastat_outputs_is_a_warning() {
    let (code, doc) = analyze("snapshot-pair-numastat");
    assert_eq!(code, Some(1));
    let f = finding(&doc, "mem.numa-remote");
    assert_eq!(f["severity"], "warning");
    assert_eq!(
        f["title"],
        "30.0 % of memory allocations remote across 2 NUMA nodes between the two numactl \
         `numastat` snapshots (interval unknown)"
    );
    let why = f["why"].as_str().unwrap();
    assert!(why.contains("600000 of the 2000000 pages"), "{why}");
}

#[test]
fn files_of_different_hosts_are_not_paired() {
    let (_, doc) = analyze("snapshot-pair-unrelated");
    let found: Vec<&Value> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == "mem.compaction-stall" || f["rule_id"] == "mem.oom-kill")
        .collect();
    assert!(found.is_empty(), "{found:#?}");
    let text = doc["findings"].to_string();
    assert!(!text.contains("between the two"), "{text}");
    // The report says why, and which file was read alone.
    let c = &doc["conflicts"][0];
    assert_eq!(c["fact"], "counter snapshots");
    assert_eq!(c["taken"]["artifact"], "vmstat_after.txt");
    assert_eq!(c["set_aside"][0]["artifact"], "vmstat_before.txt");
    assert_eq!(
        c["taken"]["value"],
        "read alone, since boot: the `/proc/vmstat` snapshots vmstat_after.txt and \
         vmstat_before.txt are not compared: 46 counters grew and 7 shrank between them (a \
         reboot between the reads, or files of different hosts)"
    );
}
