//! Incident bundles of the kernel log (`analyzer/tests/fixtures/incidents/`, README.md there):
//! each class's rule ranks first with its evidence lines, a decoy ranks below, and a healthy
//! kernel log fires nothing.

use crate::common::repo;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// `rca analyze BUNDLE --json`: exit code and the JSON document.
fn analyze(bundle: &Path) -> (Option<i32>, Value) {
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("f.json");
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(bundle)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let doc = std::fs::read_to_string(&json)
        .map(|t| serde_json::from_str(&t).unwrap())
        .unwrap_or_else(|e| panic!("no JSON ({e}): {}", String::from_utf8_lossy(&o.stdout)));
    (o.status.code(), doc)
}

fn incident(name: &str) -> std::path::PathBuf {
    repo().join("analyzer/tests/fixtures/incidents").join(name)
}

fn findings(doc: &Value) -> &Vec<Value> {
    doc["findings"].as_array().unwrap()
}

/// The cited lines of `artifact` (a path ending) in finding `f`.
fn cited(f: &Value, artifact: &str) -> Vec<u64> {
    f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["artifact"].as_str().unwrap().ends_with(artifact))
        .flat_map(|e| {
            e["lines"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_u64().unwrap())
        })
        .collect()
}

/// 1-based line numbers of `file` in `bundle` that contain `needle`.
fn lines_with(bundle: &Path, file: &str, needle: &str) -> Vec<u64> {
    std::fs::read_to_string(bundle.join(file))
        .unwrap()
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .map(|(i, _)| i as u64 + 1)
        .collect()
}

#[test]
fn hung_task_ranks_first_and_the_old_link_flap_below() {
    let b = incident("hung-task");
    let (code, doc) = analyze(&b);
    let f = findings(&doc);
    assert_eq!(f[0]["rule_id"], "kernel.hung-task", "{f:#?}");
    assert_eq!(f[0]["severity"], "warning");
    assert_eq!(
        f[0]["title"],
        "1 hung-task report during or within an hour before the end of the log: df (1177107)"
    );
    assert_eq!(
        cited(&f[0], "journalctl-k.log"),
        lines_with(&b, "journalctl-k.log", "blocked for more than")
    );
    let flap = f
        .iter()
        .position(|x| x["rule_id"] == "nic.link-flap")
        .expect("the decoy");
    assert!(flap > 0);
    assert_eq!(f[flap]["severity"], "info");
    assert!(
        f[flap]["title"]
            .as_str()
            .unwrap()
            .contains("21.9 h before the end of the log"),
        "{}",
        f[flap]["title"]
    );
    assert_eq!(
        cited(&f[flap], "journalctl-k.log"),
        lines_with(&b, "journalctl-k.log", "NIC Link is")
    );
    assert_eq!(code, Some(1));
}

#[test]
fn memcg_oom_names_the_cgroup_and_the_victims_with_free_host_memory() {
    let b = incident("memcg-oom");
    let (code, doc) = analyze(&b);
    let f = findings(&doc);
    assert_eq!(f[0]["rule_id"], "mem.oom-kill", "{f:#?}");
    assert_eq!(f[0]["severity"], "warning");
    let title = f[0]["title"].as_str().unwrap();
    assert!(
        title.starts_with("OOM killer killed 9 processes (java (14818), java (14974)"),
        "{title}"
    );
    assert!(
        title.contains("at the limits of memory cgroups /rca-oom, /rca-oom-demo"),
        "{title}"
    );
    assert!(f[0]["why"].as_str().unwrap().contains("CONSTRAINT_MEMCG"));
    // Every kill's `oom-kill:` and `Killed process` lines (and the `invoked oom-killer` ones).
    let cited = cited(&f[0], "dmesg-T.txt");
    for l in lines_with(
        &b,
        "dmesg-T.txt",
        "Memory cgroup out of memory: Killed process",
    )
    .into_iter()
    .chain(lines_with(
        &b,
        "dmesg-T.txt",
        "oom-kill:constraint=CONSTRAINT_MEMCG",
    )) {
        assert!(cited.contains(&l), "line {l} not cited: {cited:?}");
    }
    assert_eq!(code, Some(1));
}

#[test]
fn a_healthy_kernel_log_fires_nothing() {
    let (code, doc) = analyze(&incident("healthy-klog"));
    let loud: Vec<_> = findings(&doc)
        .iter()
        .filter(|f| f["severity"] != "info")
        .collect();
    assert!(loud.is_empty(), "{loud:#?}");
    let clear: Vec<&str> = doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["result"]["status"] == "clear")
        .filter_map(|r| r["id"].as_str())
        .collect();
    for id in [
        "kernel.hung-task",
        "disk.io-errors",
        "nic.link-flap",
        "mem.oom-kill",
    ] {
        assert!(clear.contains(&id), "{id} not clear: {clear:?}");
    }
    assert_eq!(code, Some(0));
}
