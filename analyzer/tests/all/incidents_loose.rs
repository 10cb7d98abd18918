//! Incident evidence in the shapes customers hand over without the collector: `sar -u` and
//! `mpstat` without per-CPU rows, a plain `df` without types
//! (`analyzer/tests/fixtures/incidents/{steal-sar-u,steal-mpstat-all,fs-plain-df}/`, each with
//! a README saying where its file came from).

use super::common::findings;
use serde_json::Value;

fn analyze(rel: &str) -> (Option<i32>, Value) {
    super::common::analyze_json(&super::common::incident(rel))
}

#[test]
fn steal_in_the_all_rows_of_sar_u_is_found() {
    let (code, doc) = analyze("steal-sar-u");
    assert_eq!(code, Some(1));
    let f = &findings(&doc)[0];
    assert_eq!(f["rule_id"], "cpu.steal");
    assert_eq!(f["title"], "Hypervisor steals 18 % of the vCPUs' time");
    let ev = &f["evidence"][0];
    assert!(ev["artifact"].as_str().unwrap().ends_with("sar_u_1_3.txt"));
    // The header and the three `all` rows, not the `Average:` row.
    assert_eq!(ev["lines"], serde_json::json!([3, 4, 5, 6]));
}

#[test]
fn steal_in_the_all_rows_of_a_german_mpstat_is_found() {
    let (code, doc) = analyze("steal-mpstat-all");
    assert_eq!(code, Some(1));
    let f = &findings(&doc)[0];
    assert_eq!(f["rule_id"], "cpu.steal");
    assert_eq!(f["title"], "Hypervisor steals 20 % of the vCPUs' time");
}

#[test]
fn a_plain_df_names_the_full_root_and_skips_tmpfs_and_the_optical_disc() {
    let (code, doc) = analyze("fs-plain-df");
    assert_eq!(code, Some(1));
    let full: Vec<&Value> = findings(&doc)
        .iter()
        .filter(|f| f["rule_id"] == "fs.full")
        .collect();
    assert_eq!(full.len(), 1, "{full:#?}");
    assert!(full[0]["title"]
        .as_str()
        .unwrap()
        .starts_with("Filesystem / (/dev/mapper/centos-root) full: blocks 97 %"));
    assert_eq!(findings(&doc)[0]["rule_id"], "fs.full");
}

#[test]
fn thp_settings_copied_as_files_are_read_by_their_place() {
    let (_, doc) = analyze("thp-sos-files");
    let kinds: Vec<(String, Value)> = doc["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["path"].as_str().unwrap().to_string(), a["kind"].clone()))
        .collect();
    for f in [
        "transparent_hugepage/enabled",
        "transparent_hugepage/defrag",
    ] {
        assert!(
            kinds.iter().any(|(p, k)| p.ends_with(f) && k == "thp-file"),
            "{f}: {kinds:?}"
        );
    }
    assert!(
        kinds
            .iter()
            .any(|(p, k)| p.ends_with("memory.stat") && k != "proc-vmstat"),
        "{kinds:?}"
    );
    let f = findings(&doc)
        .iter()
        .find(|f| f["rule_id"] == "mem.compaction-stall")
        .expect("the compaction counters since boot");
    assert!(f["title"]
        .as_str()
        .unwrap()
        .ends_with("(THP enabled [always], defrag [always])"));
}
