//! End-to-end bundles of cgroup control files handed over loose, without the collector
//! (`tests/fixtures/incidents/{cgroup-loose-v1,cgroup-loose-v2,cgroup-loose-healthy}`, described
//! in each folder's README.md): `rca analyze DIR --json` as a user runs it, the cgroup rules
//! firing with the control-file lines they rest on.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// Exit status and JSON document of `rca analyze` on an incident folder.
fn analyze(class: &str) -> (Option<i32>, Value) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/incidents")
        .join(class);
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("f.json");
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(&dir)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let doc = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (o.status.code(), doc)
}

fn findings(doc: &Value) -> &Vec<Value> {
    doc["findings"].as_array().unwrap()
}

fn finding<'a>(doc: &'a Value, id: &str) -> &'a Value {
    findings(doc)
        .iter()
        .find(|f| f["rule_id"] == id)
        .unwrap_or_else(|| panic!("no {id} finding"))
}

fn status<'a>(doc: &'a Value, id: &str) -> &'a Value {
    &doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("rule {id} not in the document"))["result"]["status"]
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

fn kind_of<'a>(doc: &'a Value, path: &str) -> &'a Value {
    &doc["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["path"] == path)
        .unwrap_or_else(|| panic!("{path} not listed"))["kind"]
}

#[test]
fn v1_files_before_and_after_show_the_oom_kill_and_the_throttling() {
    let (code, doc) = analyze("cgroup-loose-v1");
    assert_eq!(code, Some(1));
    let top = &findings(&doc)[0];
    assert_eq!(top["rule_id"], "cgroup.oom-kill");
    assert_eq!(top["severity"], "critical");
    assert_eq!(
        top["title"],
        "The memory cgroup of folder app-cg OOM-killed 1 process between the two snapshots \
         (their interval is not recorded)"
    );
    let ev = cited(top);
    assert_eq!(ev[0], "app-cg/memory.oom_control.before:3:oom_kill 0");
    assert_eq!(ev[1], "app-cg/memory.oom_control:3:oom_kill 1");

    let t = finding(&doc, "cgroup.cpu-throttled");
    assert_eq!(t["severity"], "warning");
    assert!(
        t["title"]
            .as_str()
            .unwrap()
            .contains("throttled in 43 of 44 periods (98 %) between the two snapshots"),
        "{}",
        t["title"]
    );
    let ev = cited(t);
    for line in [
        "app-cg/cpu.stat.before:1:nr_periods 0",
        "app-cg/cpu.stat:1:nr_periods 44",
        "app-cg/cpu.stat.before:2:nr_throttled 0",
        "app-cg/cpu.stat:2:nr_throttled 43",
        "app-cg/cpu.stat:3:throttled_time 3027605983",
    ] {
        assert!(ev.iter().any(|e| e == line), "{line} not cited: {ev:?}");
    }
    // The kernel log's OOM kill ranks below the cgroup's own counter.
    let pos = |id: &str| findings(&doc).iter().position(|f| f["rule_id"] == id);
    assert!(pos("mem.oom-kill") > pos("cgroup.oom-kill"));
    // Recognised by path, memory.stat left alone.
    assert_eq!(kind_of(&doc, "app-cg/cpu.stat.before"), "cgroup-cpu-stat");
    assert_eq!(
        kind_of(&doc, "app-cg/memory.oom_control"),
        "cgroup-oom-control"
    );
    assert!(kind_of(&doc, "app-cg/memory.stat").is_null());
}

#[test]
fn v2_files_under_sys_fs_cgroup_name_the_cgroup_and_the_process() {
    let (code, doc) = analyze("cgroup-loose-v2");
    assert_eq!(code, Some(1));
    let top = &findings(&doc)[0];
    assert_eq!(top["rule_id"], "cgroup.cpu-throttled");
    assert_eq!(top["severity"], "warning");
    assert_eq!(
        top["title"],
        "CPU cgroup /kubepods.slice/pod1 of pid 1234 throttled in 99 of 100 periods (99 %) \
         between the two snapshots (their interval is not recorded)"
    );
    let dir = "sys/fs/cgroup/kubepods.slice/pod1";
    let ev = cited(top);
    for line in [
        format!("{dir}/cpu.stat.1:2:nr_periods 26"),
        format!("{dir}/cpu.stat.2:2:nr_periods 126"),
        format!("{dir}/cpu.stat.1:3:nr_throttled 0"),
        format!("{dir}/cpu.stat.2:3:nr_throttled 99"),
        format!("{dir}/cpu.stat.2:4:throttled_usec 4983085"),
    ] {
        assert!(ev.contains(&line), "{line} not cited: {ev:?}");
    }
    // One read of memory.events: a total since creation, information.
    let o = finding(&doc, "cgroup.oom-kill");
    assert_eq!(o["severity"], "info");
    assert_eq!(
        o["title"],
        "Memory cgroup /kubepods.slice/pod1 of pid 1234 OOM-killed 1 process since the cgroup \
         was created (one snapshot: not dated)"
    );
    assert_eq!(
        cited(o),
        [
            format!("{dir}/memory.events:5:oom_kill 1"),
            format!("{dir}/memory.max:1:536870912"),
        ]
    );
    assert_eq!(kind_of(&doc, "proc/1234/cgroup"), "proc-cgroup");
}

#[test]
fn one_read_of_v2_cpu_stat_fires_as_information_with_the_share() {
    // The v2 bundle with its second read only.
    let tmp = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/incidents/cgroup-loose-v2/sys/fs/cgroup/kubepods.slice/pod1");
    std::fs::copy(src.join("cpu.stat.2"), tmp.path().join("cpu.stat")).unwrap();
    let json = tmp.path().join("f.json");
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(tmp.path().join("cpu.stat"))
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let t = finding(&doc, "cgroup.cpu-throttled");
    assert_eq!(t["severity"], "info");
    assert!(
        t["title"]
            .as_str()
            .unwrap()
            .ends_with("throttled in 99 of 126 periods (79 %) since the cgroup was created (one snapshot: not dated)"),
        "{}",
        t["title"]
    );
    // Information only, and one file cannot call a host healthy.
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_healthy_reads_are_judged_and_clear() {
    let (code, doc) = analyze("cgroup-loose-healthy");
    // No finding, but cgroup files and `free` leave disk and network unjudged: too little
    // evidence to call the host healthy.
    assert_eq!(code, Some(2));
    assert_eq!(status(&doc, "cgroup.oom-kill"), "clear");
    assert_eq!(status(&doc, "cgroup.cpu-throttled"), "clear");
    assert!(findings(&doc)
        .iter()
        .all(|f| !f["rule_id"].as_str().unwrap().starts_with("cgroup.")));
}
