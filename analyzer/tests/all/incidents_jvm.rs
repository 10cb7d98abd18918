//! JVM lock incidents end to end: `rca analyze --json` on the bundles of
//! `analyzer/tests/fixtures/incidents/java-*` (real `jstack -l` / `jcmd Thread.print` outputs of
//! `tests/java-locks/Locks.java`, see the README there). Each checks the top finding, the lines
//! it cites against the bundle's own files, and the exit status.

use super::common::findings;
use crate::common::repo;
use serde_json::Value;

fn analyze(name: &str) -> (Option<i32>, Value) {
    super::common::analyze_json(&super::common::incident(name))
}

fn rule_status<'a>(doc: &'a Value, id: &str) -> &'a str {
    doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .and_then(|r| r["result"]["status"].as_str())
        .unwrap_or_else(|| panic!("rule {id} not in the report"))
}

/// The text of line `n` (1-based) of a bundle file.
fn line_of(bundle: &str, artifact: &str, n: u64) -> String {
    let path = repo()
        .join("analyzer/tests/fixtures/incidents")
        .join(bundle)
        .join(artifact.rsplit('/').next().unwrap());
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .nth(n as usize - 1)
        .unwrap_or_default()
        .to_string()
}

/// Every cited line of a finding's evidence, as `artifact: text`.
fn cited(bundle: &str, f: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for e in f["evidence"].as_array().unwrap() {
        let a = e["artifact"].as_str().unwrap();
        for l in e["lines"].as_array().unwrap() {
            out.push(format!(
                "{}: {}",
                a.rsplit('/').next().unwrap(),
                line_of(bundle, a, l.as_u64().unwrap()).trim()
            ));
        }
    }
    out
}

#[test]
fn contended_monitor_is_the_top_finding_in_three_of_three_dumps() {
    let (code, doc) = analyze("java-contention");
    assert_eq!(code, Some(1));
    let top = &findings(&doc)[0];
    assert_eq!(top["rule_id"], "jvm.monitor-contention", "{top:#}");
    assert_eq!(top["severity"], "warning");
    let title = top["title"].as_str().unwrap();
    assert!(
        title.contains(
            "120 threads wait for lock 0x000000069ec1bc00 (a Locks$Inventory) held by `holder`"
        ),
        "{title}"
    );
    let why = top["why"].as_str().unwrap();
    assert!(why.contains("3 of 3 thread dumps"), "{why}");
    assert!(why.contains("120, 120, 120 waiters per dump"), "{why}");
    assert!(
        why.contains("`Locks$Inventory.reserve(Locks.java:15)`"),
        "{why}"
    );
    let lines = cited("java-contention", top);
    for want in [
        "jstack.1.txt: - locked <0x000000069ec1bc00> (a Locks$Inventory)",
        "jstack.1.txt: at Locks$Inventory.reserve(Locks.java:15)",
        "jstack.3.txt: - waiting to lock <0x000000069ec1bc00> (a Locks$Inventory)",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want} not in {lines:#?}");
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("jstack.2.txt: \"holder\" #12")),
        "{lines:#?}"
    );
    // The 120 blocked workers are contention, not an oversized idle pool.
    assert_eq!(rule_status(&doc, "jvm.thread-pool-oversized"), "clear");
    assert_eq!(rule_status(&doc, "jvm.deadlock"), "clear");
}

#[test]
fn deadlock_is_the_top_finding_with_threads_locks_and_frames() {
    let (code, doc) = analyze("java-deadlock");
    assert_eq!(code, Some(1));
    let top = &findings(&doc)[0];
    assert_eq!(top["rule_id"], "jvm.deadlock", "{top:#}");
    assert_eq!(top["severity"], "critical");
    assert!(top["title"]
        .as_str()
        .unwrap()
        .contains("(pid 21820): deadlock between 2 threads: `left`, `right`"));
    assert!(top["why"].as_str().unwrap().contains("3 of 3 thread dumps"));
    let details: Vec<&str> = top["details"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d.as_str())
        .collect();
    assert!(details.contains(&"`left` waits for monitor 0x000000069ec1b1c0 (a java.lang.Object), held by `right`, at `Locks.takeBoth(Locks.java:67)`."), "{details:?}");
    let lines = cited("java-deadlock", top);
    for want in [
        "threaddump-3.log: Found one Java-level deadlock:",
        "threaddump-3.log: waiting to lock monitor 0x00007f4bbc066000 (object 0x000000069ec1b1c0, a java.lang.Object),",
        "threaddump-3.log: which is held by \"left\"",
        "threaddump-3.log: at Locks.takeBoth(Locks.java:67)",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want} not in {lines:#?}");
    }
    assert_eq!(rule_status(&doc, "jvm.monitor-contention"), "clear");
}

#[test]
fn an_idle_pool_on_a_queue_is_no_contention() {
    let (code, doc) = analyze("java-idle-pool");
    // No process list, but CPU, disk, memory (no swapping) and network are judged: healthy.
    assert_eq!(code, Some(0));
    assert_eq!(rule_status(&doc, "jvm.monitor-contention"), "clear");
    assert_eq!(rule_status(&doc, "jvm.deadlock"), "clear");
    let ids: Vec<&str> = findings(&doc)
        .iter()
        .filter_map(|f| f["rule_id"].as_str())
        .collect();
    assert_eq!(ids, vec!["jvm.thread-pool-oversized"]);
    assert!(findings(&doc)[0]["title"]
        .as_str()
        .unwrap()
        .contains("pool `idle-` has 150 threads on 2 CPUs, 0 runnable"));
}

#[test]
fn a_healthy_jvm_dump_fires_nothing() {
    let (code, doc) = analyze("java-healthy");
    assert_eq!(code, Some(0));
    assert!(findings(&doc).is_empty(), "{:#?}", findings(&doc));
    for id in [
        "jvm.monitor-contention",
        "jvm.deadlock",
        "jvm.thread-pool-oversized",
    ] {
        assert_eq!(rule_status(&doc, id), "clear", "{id}");
    }
}

#[test]
fn two_histograms_name_the_classes_that_grew() {
    let (code, doc) = analyze("java-heap-growth");
    // No process list, but CPU, disk, memory (no swapping) and network are judged: healthy.
    assert_eq!(code, Some(0));
    let top = &findings(&doc)[0];
    assert_eq!(top["rule_id"], "jvm.heap-growth", "{top:#}");
    assert_eq!(top["severity"], "info");
    let title = top["title"].as_str().unwrap();
    assert!(
        title.contains(
            "(pid 951): heap objects grew 387 % between two class histograms (2 → 14 MiB)"
        ),
        "{title}"
    );
    assert!(top["why"].as_str().unwrap().contains("not proof of a leak"));
    let details: Vec<&str> = top["details"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d.as_str())
        .collect();
    assert!(
        details
            .contains(&"`Leak$Session`: 40800 → 291600 bytes (+244 KiB), 1700 → 12150 instances."),
        "{details:?}"
    );
    let lines = cited("java-heap-growth", top);
    for want in [
        "histo_1.txt: Total         31689        3039264",
        "histo_2.txt: Total         73487       14791992",
        "histo_2.txt: 3:         12150         291600  Leak$Session",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want} not in {lines:#?}");
    }
    // The heap summaries are recognised by their content under neutral names.
    let kinds: Vec<(&str, &str)> = doc["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["path"].as_str().unwrap(),
                a["kind"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert!(
        kinds.contains(&("heapinfo-before.txt", "gc-heap-info")),
        "{kinds:?}"
    );
    assert!(
        kinds.contains(&("heapinfo-after.txt", "gc-heap-info")),
        "{kinds:?}"
    );
}
