//! Incident bundles of the kernel log (`analyzer/tests/fixtures/incidents/`, README.md there):
//! each class's rule ranks first with its evidence lines, a decoy ranks below, and a healthy
//! kernel log fires nothing.

use super::common::findings;
use crate::common::repo;
use serde_json::Value;
use std::path::Path;

fn analyze(bundle: &Path) -> (Option<i32>, Value) {
    super::common::analyze_json(bundle)
}

fn incident(name: &str) -> std::path::PathBuf {
    repo().join("analyzer/tests/fixtures/incidents").join(name)
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

/// The facts of a folder holding these files.
fn klog_facts(files: &[(&str, &str)]) -> rca::facts::klog::KernelLog {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let c = rca::artifacts::collect(dir.path(), &rca::bundle::Limits::default()).unwrap();
    let f = rca::facts::HostFacts::from_collected(&c);
    f.klog.get().expect("a kernel log").clone()
}

#[test]
fn one_event_in_two_logs_counts_once_and_dates_the_ring_buffer() {
    // hotsos's Ubuntu kern.log, and the same boot's line as `dmesg` prints it.
    let kern = crate::common::fixture("syslog/hotsos__kern.log-ubuntu2004");
    let io = "blk_update_request: I/O error, dev loop11, sector 0 op 0x1:(WRITE) flags 0x800 phys_seg 0 prio class 0";
    let dmesg = format!("[    0.000000] Linux version 5.4.0-99-generic\n[ 1530.811848] {io}\n");
    // A journalctl header gives the year (2022) of the year-less lines.
    let journal = "-- Logs begin at Fri 2022-02-04 09:34:04 UTC, end at Fri 2022-02-11 19:30:00 UTC. --\nFeb 11 19:00:00 juju-110cc2-k8stest-4 systemd[1]: Started Session 1 of user ubuntu.\nFeb 11 19:00:01 juju-110cc2-k8stest-4 systemd[1]: Started Daily apt download activities.\n";
    let k = klog_facts(&[
        ("kern.log", &kern),
        ("dmesg", &dmesg),
        ("journal.txt", journal),
    ]);
    assert_eq!(k.sources.len(), 3, "{:?}", k.sources);
    let ios: Vec<_> = k.of("io-error").collect();
    assert_eq!(ios.len(), 1, "{ios:#?}");
    // Feb 11 2022 19:23:37 UTC (no zone printed, none known: read as UTC).
    assert_eq!(ios[0].time.epoch, Some(1_644_607_417.0));
    assert_eq!(ios[0].time.since_boot_s, Some(1530.811848));
    assert!(!k.year_assumed);
    // Boot: the kern.log line's date minus its stamp.
    assert!((k.boot_epoch.unwrap() - (1_644_607_417.0 - 1530.811848)).abs() < 1e-6);
    assert_eq!(k.reference, "the end of the log");
}

#[test]
fn a_year_less_log_alone_keeps_intervals_in_an_assumed_year() {
    let k = klog_facts(&[(
        "journalctl-k.log",
        "Dec 31 23:59:00 h kernel: INFO: task df:1 blocked for more than 120 seconds.\nJan 01 00:01:00 h kernel: e1000e 0000:00:19.0 eth0: NIC Link is Down\n",
    )]);
    assert!(k.year_assumed);
    let hung = k.of("hung-task").next().unwrap();
    // Two minutes before the log's last line, across the New Year.
    assert_eq!(hung.time.before_reference_s, Some(120.0));
    assert_eq!(hung.time.host_time, None);
}

#[test]
fn the_collectors_two_ring_buffer_copies_count_each_event_once() {
    // A real collection of this machine: `dmesg` (seconds since boot, dated by the uptime at
    // the window's end) and `dmesg -T` (wall clock) hold the same 8 OOM kills and 20
    // `table full` lines.
    let b = incident("collector-kernel-logs");
    let c = rca::artifacts::collect(&b, &rca::bundle::Limits::default()).unwrap();
    let f = rca::facts::HostFacts::from_collected(&c);
    let k = f.klog.get().unwrap();
    assert_eq!(k.sources.len(), 3, "{:?}", k.sources);
    assert_eq!(k.of("oom-kill").count(), 8);
    assert_eq!(k.of("conntrack-full").count(), 20);
    assert_eq!(k.reference, "the collection window");
    // The boot: the window's end (1796205495.8) minus the uptime (1208.08 s).
    assert!((k.boot_epoch.unwrap() - (1_796_205_495.798_565 - 1208.08)).abs() < 1e-3);
    // The first kill, `[Wed Dec  2 09:45:40 2026]` in `dmesg -T` (the host clock is UTC), 739 s
    // before the window starts (1796205479.44).
    let first = k.of("oom-kill").next().unwrap();
    assert_eq!(first.time.epoch, Some(1_796_204_740.0));
    assert_eq!(
        first.time.before_reference_s.map(|b| b.round()),
        Some(739.0)
    );
}
