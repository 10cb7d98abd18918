//! End-to-end incident bundles of container limits and memory compaction
//! (`tests/fixtures/incidents/{cgroup-oom,cgroup-throttle,thp-compaction}` and their healthy
//! variants, described in each folder's README.md): `rca analyze BUNDLE --json` as a user runs
//! it, the class's rule first with its cited lines, its decoys below it or silent.

use super::common::findings;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The one tarball of an incident folder.
fn bundle(class: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/incidents")
        .join(class);
    std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.to_string_lossy().ends_with(".tar.gz"))
        .unwrap_or_else(|| panic!("no bundle in {}", dir.display()))
}

fn analyze(class: &str) -> (Option<i32>, Value) {
    super::common::analyze_json(&bundle(class))
}

fn rule<'a>(doc: &'a Value, id: &str) -> &'a Value {
    doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("rule {id} not in the document"))
}

fn rank(doc: &Value, id: &str) -> Option<usize> {
    findings(doc).iter().position(|f| f["rule_id"] == id)
}

/// The cited line texts of a finding, as `artifact-suffix:line:text`.
fn cited(f: &Value) -> Vec<String> {
    f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| {
            let a = e["artifact"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string();
            e["excerpt"]
                .as_array()
                .into_iter()
                .flatten()
                .map(move |x| format!("{a}:{}:{}", x["line"], x["text"].as_str().unwrap()))
        })
        .collect()
}

/// The only warnings a healthy variant of this capture host shows: the other real incidents
/// that ran on the shared capture machine (the README names them), none of this class.
fn only_host_warnings(doc: &Value, host: &[&str]) {
    let loud: Vec<_> = findings(doc)
        .iter()
        .filter(|f| f["severity"] != "info")
        .map(|f| f["rule_id"].as_str().unwrap())
        .collect();
    assert_eq!(loud, host, "{loud:?}");
}

#[test]
fn cgroup_oom_names_the_cgroup_limit_above_the_host_counter() {
    let (code, doc) = analyze("cgroup-oom");
    assert_eq!(code, Some(1));
    let top = &findings(&doc)[0];
    assert_eq!(top["rule_id"], "cgroup.oom-kill");
    assert_eq!(top["severity"], "critical");
    assert_eq!(
        top["title"],
        "Memory cgroup /rca-oom of Idle (pid 14697) OOM-killed 6 processes during the 30 s window"
    );
    let why = top["why"].as_str().unwrap();
    assert!(why.contains("reached its 128 MiB limit"), "{why}");
    assert!(why.contains("22.7 GiB available"), "{why}");
    assert!(
        why.contains("the cgroup's limit ran out, not the host's memory"),
        "{why}"
    );
    let lines = cited(top);
    for want in [
        "cgroup.tsv.start:14:limit\tmemory.oom_control\t/sys/fs/cgroup/memory/rca-oom\toom_kill 1",
        "cgroup.tsv.end:14:limit\tmemory.oom_control\t/sys/fs/cgroup/memory/rca-oom\toom_kill 7",
        "cgroup.tsv.end:7:limit\tmemory.limit_in_bytes\t/sys/fs/cgroup/memory/rca-oom\t134217728",
        "meminfo:3:MemAvailable:   23854228 kB",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want} not in {lines:#?}");
    }
    // The decoy: the host-wide counter saw the same six kills; it ranks below, and nothing
    // about swap or host memory outranks the cgroup.
    let host = rank(&doc, "mem.oom-kill").expect("the host counter fires too");
    assert!(host > 0);
    assert!(findings(&doc)[host]["title"]
        .as_str()
        .unwrap()
        .contains("at memory cgroup /rca-oom's limit"));
    assert!(rank(&doc, "mem.swap").is_none_or(|r| r > 0));
}

#[test]
fn cgroup_oom_healthy_does_not_fire() {
    let (code, doc) = analyze("cgroup-oom-healthy");
    assert_eq!(code, Some(1), "the capture host's own warnings");
    only_host_warnings(&doc, &["jvm.heap-vs-cgroup", "mem.oom-kill"]);
    // Eight kills since the cgroup was created, none in the window.
    assert_eq!(
        rule(&doc, "cgroup.oom-kill")["result"]["checked"],
        "no OOM kill in 1 target cgroup during the window"
    );
    // The kernel log's kills of the earlier run, within the hour before the window: the host
    // rule reports them as such, not as kills in the window.
    let host = &findings(&doc)[rank(&doc, "mem.oom-kill").unwrap()];
    assert!(host["title"]
        .as_str()
        .unwrap()
        .ends_with("within an hour before the collection window"));
}

#[test]
fn cgroup_throttle_ranks_the_throttled_quota_first() {
    let (code, doc) = analyze("cgroup-throttle");
    assert_eq!(code, Some(1));
    let top = &findings(&doc)[0];
    assert_eq!(top["rule_id"], "cgroup.cpu-throttled");
    assert_eq!(
        top["title"],
        "CPU cgroup /rca-throttle of Spin (pid 16263) throttled in 300 of 300 periods (100 %) \
         during the 30 s window"
    );
    assert!(top["why"]
        .as_str()
        .unwrap()
        .contains("(0.20 CPU: 20000 µs per 100000 µs period)"));
    assert_eq!(
        top["details"][0],
        "Throttled time (summed over CPUs): 24.6 s in the 30 s window."
    );
    let lines = cited(top);
    for want in [
        "cgroup.tsv.start:80:limit\tcpu.stat\t/sys/fs/cgroup/cpu/rca-throttle\tnr_throttled 85",
        "cgroup.tsv.end:80:limit\tcpu.stat\t/sys/fs/cgroup/cpu/rca-throttle\tnr_throttled 385",
        "cgroup.tsv.end:76:limit\tcpu.cfs_quota_us\t/sys/fs/cgroup/cpu/rca-throttle\t20000",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want} not in {lines:#?}");
    }
}

#[test]
fn cgroup_throttle_healthy_is_judged_on_the_window_not_the_past() {
    // The decoy: since the cgroup was created it was throttled in 505 of 535 periods (the quota
    // was raised before the window); in the window, in none of 201.
    let (code, doc) = analyze("cgroup-throttle-healthy");
    assert_eq!(code, Some(1), "the capture host's own warnings");
    only_host_warnings(&doc, &["mem.oom-kill", "cpu.run-queue"]);
    assert_eq!(
        rule(&doc, "cgroup.cpu-throttled")["result"]["checked"],
        "Spin (pid 16263): throttled in 0 % of 201 periods"
    );
}

#[test]
fn thp_compaction_reports_stalls_per_second_of_the_window() {
    let (code, doc) = analyze("thp-compaction");
    assert_eq!(code, Some(1));
    let top = &findings(&doc)[0];
    assert_eq!(top["rule_id"], "mem.compaction-stall");
    assert_eq!(top["confidence"], "high");
    assert_eq!(
        top["title"],
        "900 direct compaction stalls during the 20 s window (45.0/s; THP enabled [always], \
         defrag [always])"
    );
    assert_eq!(
        top["details"][0],
        "Compaction passes that failed: 712 of 900 (79 %); succeeded: 188."
    );
    assert_eq!(
        top["details"][1],
        "Huge-page faults: 210 got a huge page, 690 fell back to small pages (77 %)."
    );
    let lines = cited(top);
    for want in [
        "vmstat.end:139:compact_stall 1938",
        "thp.txt:2:/sys/kernel/mm/transparent_hugepage/defrag:[always] defer defer+madvise madvise never",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want} not in {lines:#?}");
    }
}

#[test]
fn thp_always_without_stalls_does_not_fire() {
    let (code, doc) = analyze("thp-compaction-healthy");
    assert_eq!(code, Some(0), "nothing wrong");
    only_host_warnings(&doc, &[]);
    assert_eq!(
        rule(&doc, "mem.compaction-stall")["result"]["checked"],
        "no direct compaction stall in the 20 s window (THP enabled [always], defrag [always])"
    );
}
