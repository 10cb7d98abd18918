//! End-to-end incident bundles of the CPU area (`analyzer/tests/fixtures/incidents/`, see each
//! folder's README.md): steal, a single hot CPU, run-queue saturation, the powersave governor
//! and a tuned profile that is not the governor.

use super::common::findings;

fn analyze(name: &str) -> (Option<i32>, serde_json::Value) {
    super::common::analyze_json(&super::common::incident(name))
}

fn rule_status<'a>(doc: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    &doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("{id} is registered"))["result"]
}

fn lines(f: &serde_json::Value, i: usize) -> Vec<u64> {
    f["evidence"][i]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_u64().unwrap())
        .collect()
}

#[test]
fn steal_is_the_top_finding() {
    let (code, doc) = analyze("cpu-steal");
    assert_eq!(code, Some(1));
    let f = &findings(&doc)[0];
    assert_eq!(f["rule_id"], "cpu.steal");
    // Mean of CPU 0 (29.70 ×3) and CPU 1 (27.58, 28.50, 28.61): 28.97 %.
    assert_eq!(f["title"], "Hypervisor steals 29 % of the vCPUs' time");
    assert!(f["details"][0]
        .as_str()
        .unwrap()
        .contains("CPU 0 29.7 %, CPU 1 28.2 %"));
    assert_eq!(f["evidence"][0]["artifact"], "mpstat.txt");
    // The third interval's header and rows (the highest mean %steal, 29.16 %).
    assert_eq!(lines(f, 0), vec![13, 15, 16]);
    assert_eq!(rule_status(&doc, "cpu.iowait")["status"], "clear");
}

#[test]
fn one_hot_cpu_is_not_steal() {
    let (code, doc) = analyze("single-thread-hot");
    assert_eq!(code, Some(2));
    assert!(findings(&doc).iter().all(|f| f["rule_id"] != "cpu.steal"));
    let s = rule_status(&doc, "cpu.steal");
    assert_eq!(s["status"], "clear");
    assert!(s["checked"]
        .as_str()
        .unwrap()
        .contains("9 CPU(s) and 4 interval(s)"));
}

#[test]
fn run_queue_saturation_ranks_above_cpu_pressure() {
    let (code, doc) = analyze("runq");
    assert_eq!(code, Some(1));
    let f = findings(&doc);
    assert_eq!(f[0]["rule_id"], "cpu.run-queue");
    assert_eq!(f[0]["title"], "Run queue 7.2 on 2 CPU(s): CPU-saturated");
    assert_eq!(f[0]["evidence"][0]["artifact"], "vmstat.txt");
    assert_eq!(lines(&f[0], 0), vec![2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(f[0]["evidence"][1]["artifact"], "proc/loadavg");
    assert_eq!(f[1]["rule_id"], "kernel.pressure");
    assert_eq!(f[1]["title"], "Tasks stall on CPU 75 % of the time (PSI)");
    assert_eq!(rule_status(&doc, "cpu.steal")["status"], "clear");
}

#[test]
fn powersave_governor_fires_and_a_tuned_name_does_not() {
    let (code, doc) = analyze("powersave");
    assert_eq!(code, Some(1));
    let f = &findings(&doc)[0];
    assert_eq!(f["rule_id"], "cpu.frequency");
    assert_eq!(
        f["title"],
        "2 CPU(s) on the powersave governor: lowest clock requested"
    );
    assert_eq!(
        f["evidence"][0]["artifact"],
        "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
    );
    let (code, doc) = analyze("tuned-decoy");
    assert_eq!(code, Some(2));
    assert!(findings(&doc)
        .iter()
        .all(|f| f["rule_id"] != "cpu.frequency"));
    let s = rule_status(&doc, "cpu.frequency");
    assert_eq!(s["status"], "clear");
    assert!(s["checked"]
        .as_str()
        .unwrap()
        .contains("governor performance on 2 CPU(s); tuned profile `powersave`"));
}
