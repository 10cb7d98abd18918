//! A tree laid out like a sosreport, built from real captures (parser fixtures, see their
//! PROVENANCE.md): one snapshot of each counter, the taint both in `proc/sys/kernel/tainted`
//! and in `sysctl -a` (with different values), memory only from `free`, and a PID file whose
//! single integer must not be taken for anything.

use crate::common::{fixture, repo};
use std::path::Path;
use std::process::Command;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

#[test]
fn a_sosreport_shaped_tree_reports_since_boot_counters_canonical_sources_and_conflicts() {
    let d = tempfile::tempdir().unwrap();
    let root = d.path().join("sosreport-vault-2024-01-01-abcdef");
    write(
        &root,
        "sos_commands/host/uptime",
        &fixture("uptime/hotsos__openstack-sos_commands-host-uptime.txt"),
    );
    write(
        &root,
        "proc/net/softnet_stat",
        &fixture("softnet-stat/hotsos__vault-proc-282492-net-softnet_stat.txt"),
    );
    write(
        &root,
        "proc/sys/kernel/tainted",
        &fixture("tainted/hotsos__proc-sys-kernel-tainted-4097.txt"),
    );
    write(
        &root,
        "sos_commands/kernel/sysctl_-a",
        &fixture("sysctl/jc__sysctl-a-ubuntu1804.txt"),
    );
    write(
        &root,
        "sos_commands/memory/free",
        &fixture("free/jc__free-kib-centos7.txt"),
    );
    write(&root, "var/run/sshd.pid", "1234\n");
    let json = d.path().join("r.json");
    let out = Command::new(env!("CARGO_BIN_EXE_rca"))
        .args(["analyze", "-q", "--json"])
        .arg(&json)
        .arg(&root)
        .current_dir(repo())
        .output()
        .unwrap();
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(r["bundle"]["layout"]["layout"], "sosreport");

    // The taint comes from its canonical file; sysctl's different value is listed as set aside.
    assert_eq!(r["platform"]["taint"]["value"][0], 4097);
    assert!(r["platform"]["taint"]["artifact"]
        .as_str()
        .unwrap()
        .ends_with("proc/sys/kernel/tainted"));
    let taint = r["conflicts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["fact"] == "kernel taint")
        .expect("the taint conflict is listed");
    assert_eq!(taint["set_aside"][0]["value"], "0");
    assert!(taint["set_aside"][0]["artifact"]
        .as_str()
        .unwrap()
        .ends_with("sysctl_-a"));

    // Memory from `free` when there is no /proc/meminfo: KiB as printed.
    assert_eq!(r["platform"]["mem_total_kib"]["value"], 3861332);
    assert_eq!(r["platform"]["swap_used_kib"]["value"], 0);
    assert_eq!(
        r["platform"]["uptime_s"]["value"],
        (17 * 3600 + 41 * 60) as f64
    );

    // The softnet squeezes since boot: information, with the rate per hour of uptime, citing
    // the counter and the uptime.
    let squeeze = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule_id"] == "net.softnet-backlog")
        .expect("softnet finding");
    assert_eq!(squeeze["severity"], "info");
    assert_eq!(squeeze["confidence"], "low");
    assert_eq!(
        squeeze["title"],
        "Receive soft-IRQ ran out of budget 125 times since boot (7.1 per hour over 17.7 h of uptime)"
    );
    let notes: Vec<&str> = squeeze["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["note"].as_str().unwrap())
        .collect();
    assert_eq!(
        notes,
        [
            "softnet_stat `time_squeeze` (column 3)",
            "net.core.netdev_budget",
            "time since boot"
        ]
    );

    // The PID file is a copy of a host file: its place says what it is, its integer is nothing.
    let pid = r["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["path"].as_str().unwrap().ends_with("sshd.pid"))
        .unwrap();
    assert_eq!(pid["outcome"]["status"], "unrecognised");
    assert!(pid["kind"].is_null());

    // Nothing at warning, but no rule could judge CPU or disk: no clean bill of health.
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("too little evidence") && err.contains("cpu (") && err.contains("disk"),
        "{err}"
    );
}

#[test]
fn the_taint_of_sysctl_a_is_decoded_when_the_canonical_file_is_missing() {
    // `sysctl -a` run as an unprivileged user (real capture), its `kernel.tainted = 0` edited to
    // 4097 (P + O); no `proc/sys/kernel/tainted`.
    let d = tempfile::tempdir().unwrap();
    let root = d.path().join("sosreport-vault-2024-01-01-abcdef");
    let sysctl = fixture("captured-b/sysctl-a-unprivileged-user.txt").replacen(
        "kernel.tainted = 0\n",
        "kernel.tainted = 4097\n",
        1,
    );
    let line = sysctl
        .lines()
        .position(|l| l == "kernel.tainted = 4097")
        .unwrap()
        + 1;
    write(&root, "sos_commands/kernel/sysctl_-a", &sysctl);
    write(
        &root,
        "sos_commands/host/uptime",
        &fixture("uptime/hotsos__openstack-sos_commands-host-uptime.txt"),
    );
    let json = d.path().join("r.json");
    Command::new(env!("CARGO_BIN_EXE_rca"))
        .args(["analyze", "-q", "--json"])
        .arg(&json)
        .arg(&root)
        .current_dir(repo())
        .output()
        .unwrap();
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let taint = &r["platform"]["taint"];
    assert_eq!(taint["value"][0], 4097);
    assert_eq!(taint["value"][1], "PO");
    assert!(taint["artifact"].as_str().unwrap().ends_with("sysctl_-a"));
    assert_eq!(taint["lines"][0], line);
    assert!(r["conflicts"]
        .as_array()
        .is_none_or(|c| c.iter().all(|c| c["fact"] != "kernel taint")));
}
