//! One machine collected twice by `collector.sh`, the second time under a load this test
//! applies itself (a busy loop whose command is `rca-twin-load`), compared with `rca diff`.
//!
//! What a collection measures depends on everything else the machine runs, so nothing here
//! compares noise thresholds. It checks what holds whatever runs beside the test: a bundle
//! compared with itself differs in nothing; both bundles hold the same artifact kinds and reach
//! a verdict (findings or clear) on the same rules; `rca diff` sees the test's own load (the
//! busy loop, on the second bundle only); it finds no difference at all in what the machine is
//! (kernel, modules, taint, sysctl, limits, NICs, CPUs, memory size, platform, configuration)
//! and no finding of a configuration rule on one side only; and whatever it ranks above noise
//! is something load moves (processes and their connections, JVMs, utilisation, latency,
//! soft-IRQ rates and spread, swap activity, clock offset, profile shares, findings of activity
//! rules).
//!
//! Both collections name the same idle process of the test with `--pid`, so that the JVMs other
//! work starts and stops are not examined, and run with perf off.
//!
//! Needs root and sysstat (the collector's samplers). Skipped with one line without them,
//! unless `RCA_HOST_TESTS=1` (CI), where they are required.

use super::{Needs, Reaped};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Kinds of difference that describe what the machine is, not what it is doing: two collections
/// of one machine never differ in them, however loaded it is.
const WHAT_THE_MACHINE_IS: &[&str] = &[
    "module-tainting",
    "module-one-side",
    "kernel-taint",
    "kernel-release",
    "kernel-cmdline",
    "sysctl",
    "config-key",
    "ulimit",
    "nic-driver",
    "nic-firmware",
    "nic-queues",
    "nic-rings",
    "nic-offload",
    "nic-mtu",
    "nic-one-side",
    "cpu-count",
    "cpu-model",
    "platform",
    "memory-size",
    "balloon",
];

/// Kinds of difference that load moves.
const WHAT_LOAD_MOVES: &[&str] = &[
    "process-with-connections",
    "process-one-side",
    "connections",
    "process-count",
    "jvm-runtime",
    "jvm-collector",
    "jvm-heap",
    "jvm-gc",
    "jvm-thread-pool",
    "jvm-flag",
    "jvm-property",
    "jvm-one-side",
    "irq-spread",
    "cpu-profile",
    "softirq-rate",
    "disk",
    "swap",
    "time-sync",
    "finding",
    "profile-module",
    "profile-symbol",
    "profile-path",
];

/// Rules that judge configuration: their verdict is the same on both bundles.
const CONFIGURATION_RULES: &[&str] = &[
    "kernel.taint",
    "nic.emulated",
    "nic.mtu-mismatch",
    "nic.offloads",
    "nic.queues",
    "time.two-sources",
];

/// The command name of the test's load.
const LOAD: &str = "rca-twin-load";

/// `collector.sh --no-perf --pid PID` into `out`: the tarball.
fn collect(out: &Path, pid: u32) -> PathBuf {
    std::fs::create_dir_all(out).unwrap();
    let o = Command::new("sh")
        .arg(super::repo().join("collector.sh"))
        .args(["--duration", "5", "--interval", "1", "--no-perf", "--pid"])
        .arg(pid.to_string())
        .arg("--output")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "collector failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let last = String::from_utf8_lossy(&o.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .trim()
        .to_string();
    let p = PathBuf::from(last);
    assert!(p.is_file(), "no tarball: {}", p.display());
    p
}

/// `rca ARGS --json F`: the exit status and the document.
fn rca(args: &[&std::ffi::OsStr], json: &Path) -> (Option<i32>, Value, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .args(args)
        .arg("--json")
        .arg(json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let text = std::fs::read_to_string(json).unwrap_or_else(|e| {
        panic!(
            "no JSON from rca {args:?} ({e}): {stdout}{}",
            String::from_utf8_lossy(&o.stderr)
        )
    });
    (
        o.status.code(),
        serde_json::from_str(&text).unwrap(),
        stdout,
    )
}

/// The kinds of a bundle's artifacts.
fn kinds(doc: &Value) -> BTreeSet<String> {
    doc["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a["kind"].as_str().map(str::to_string))
        .collect()
}

/// The rules that reached a verdict (findings or clear).
fn judged(doc: &Value) -> BTreeSet<String> {
    doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["result"]["status"] != "not-evaluated")
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect()
}

fn line(d: &Value) -> String {
    format!(
        "{} [{}] {}: {} -> {} ({})",
        d["score"], d["kind"], d["subject"], d["baseline"], d["suspect"], d["reason"]
    )
}

#[test]
fn a_machine_collected_twice_differs_only_in_what_load_moves() {
    let _machine = crate::exclusive();
    let ready = Needs::new("twin_bundles")
        .root()
        .commands("sysstat", &["iostat", "mpstat"])
        .met();
    if !ready {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    // The process both collections examine, and the load of the second one: `sh` started
    // through a link named `rca-twin-load`, so that `ps` shows that command.
    let target = Reaped(
        Command::new("sleep")
            .arg("600")
            .stdin(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let link = d.path().join(LOAD);
    std::os::unix::fs::symlink("/bin/sh", &link).unwrap();

    let a = collect(&d.path().join("a"), target.0.id());
    let load = Reaped(
        Command::new(&link)
            .args(["-c", "while :; do :; done"])
            .stdin(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let b = collect(&d.path().join("b"), target.0.id());
    drop(load);

    let mut problems = Vec::new();

    // Each bundle on its own: the same kinds, verdicts on the same rules.
    let (_, doc_a, _) = rca(
        &["analyze".as_ref(), a.as_os_str()],
        &d.path().join("a.json"),
    );
    let (_, doc_b, _) = rca(
        &["analyze".as_ref(), b.as_os_str()],
        &d.path().join("b.json"),
    );
    let (ka, kb) = (kinds(&doc_a), kinds(&doc_b));
    assert!(ka.len() >= 20, "few kinds in the bundle: {ka:?}");
    if ka != kb {
        problems.push(format!(
            "artifact kinds differ: first only {:?}, second only {:?}",
            ka.difference(&kb).collect::<Vec<_>>(),
            kb.difference(&ka).collect::<Vec<_>>()
        ));
    }
    let (ja, jb) = (judged(&doc_a), judged(&doc_b));
    if ja != jb {
        problems.push(format!(
            "rules judged differ: first only {:?}, second only {:?}",
            ja.difference(&jb).collect::<Vec<_>>(),
            jb.difference(&ja).collect::<Vec<_>>()
        ));
    }

    // A bundle compared with itself differs in nothing.
    let (code, same, stdout) = rca(
        &["diff".as_ref(), a.as_os_str(), a.as_os_str()],
        &d.path().join("same.json"),
    );
    assert_eq!(code, Some(0), "{stdout}");
    let listed: Vec<String> = same["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(line)
        .collect();
    if !listed.is_empty() {
        problems.push(format!(
            "a bundle compared with itself differs:\n{}",
            listed.join("\n")
        ));
    }

    // The first against the second.
    let (code, doc, stdout) = rca(
        &["diff".as_ref(), a.as_os_str(), b.as_os_str()],
        &d.path().join("diff.json"),
    );
    assert!(
        matches!(code, Some(0 | 1)),
        "rca diff exited {code:?}: {stdout}"
    );
    let diffs = doc["differences"].as_array().unwrap();
    for x in diffs {
        let kind = x["kind"].as_str().unwrap_or_default();
        if WHAT_THE_MACHINE_IS.contains(&kind) {
            problems.push(format!("the machine itself differs: {}", line(x)));
        } else if !WHAT_LOAD_MOVES.contains(&kind) && x["noise"] == false {
            problems.push(format!("above noise, not moved by load: {}", line(x)));
        }
        let subject = x["subject"].as_str().unwrap_or_default();
        if CONFIGURATION_RULES
            .iter()
            .any(|r| subject == format!("finding `{r}`"))
        {
            problems.push(format!("a configuration rule differs: {}", line(x)));
        }
    }
    // The test's own load is seen, on the second bundle only.
    let seen = diffs.iter().any(|x| {
        x["area"] == "process"
            && x["subject"].as_str().is_some_and(|s| s.contains(LOAD))
            && x["baseline"].is_null()
            && !x["suspect"].is_null()
    });
    if !seen {
        problems.push(format!(
            "the load `{LOAD}` of the second collection is not among the differences:\n{}",
            diffs.iter().map(line).collect::<Vec<_>>().join("\n")
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
