//! Runs the collector's own test script (`tests/collector/run.sh`): `shellcheck -s sh`; real runs
//! under dash, bash and BusyBox ash as root and as `nobody` with sysstat, perf, a real JVM and a
//! real ZooKeeper; a hung sampler under each timeout implementation; a missing tool; SIGTERM
//! mid-run; size caps; planted secrets that must not reach the tarball; the collector's own CPU
//! overhead. It runs twice: as the machine is, and with two CPU hogs busy for the whole run (the
//! load at which fixed budgets cut `jstat` short), whose process group is killed at the end.
//!
//! It needs root, shellcheck, dash, busybox, sysstat and a JDK (the real runs also start
//! ZooKeeper, perf and ethtool, which the suite itself requires under `RCA_HOST_TESTS=1`).
//! Without them it is skipped with one line, unless `RCA_HOST_TESTS=1` (set by CI, which
//! installs them), where it fails. A failed run shows every failed check with its detail lines.

use super::Needs;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command};

#[test]
fn collector_script_suite() {
    let _machine = crate::exclusive();
    suite("collector_script", &[]);
}

/// The same suite on a machine kept busy by two CPU hogs for its whole run: the collector's
/// budgets must follow the load, and the suite's checks must not assume an idle machine.
#[test]
fn collector_script_suite_under_two_cpu_hogs() {
    let _machine = crate::exclusive();
    let hogs = Hogs::start(2);
    let Some(stdout) = suite(
        "collector_script_under_two_cpu_hogs",
        &[("RCA_TEST_LOAD", "two CPU hogs")],
    ) else {
        return;
    };
    assert!(
        hogs.alive(),
        "the CPU hogs ended before the suite did (pgid {}):\n{stdout}",
        hogs.pgid
    );
    let pgid = hogs.pgid;
    drop(hogs);
    let left = group_members(pgid);
    assert!(left.is_empty(), "CPU hogs outlived the test: {left:?}");
}

/// Busy loops in one process group of their own; the group is killed when this is dropped.
struct Hogs {
    leader: Child,
    pgid: u32,
}

impl Hogs {
    fn start(n: usize) -> Hogs {
        let script =
            "i=0; while [ $i -lt $1 ]; do sh -c 'while :; do :; done' & i=$((i + 1)); done; wait";
        let leader = Command::new("sh")
            .args(["-c", script, "sh", &n.to_string()])
            .process_group(0)
            .spawn()
            .unwrap();
        let pgid = leader.id();
        Hogs { leader, pgid }
    }

    /// Whether every hog still runs (the leader and its `n` loops).
    fn alive(&self) -> bool {
        group_members(self.pgid).len() > 2
    }
}

impl Drop for Hogs {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.pgid)])
            .status();
        let _ = self.leader.wait();
        // The loops were the leader's children: once killed, init reaps them.
        for _ in 0..100 {
            if group_members(self.pgid).is_empty() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}

/// The pids whose process group is `pgid` (field 5 of `/proc/PID/stat`).
fn group_members(pgid: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
                s.rsplit_once(") ")
                    .and_then(|(_, rest)| rest.split(' ').nth(2)?.parse::<u32>().ok())
                    == Some(pgid)
            })
        })
        .collect()
}

/// Runs `tests/collector/run.sh` with `envs` for `test`; fails with its failed checks and their
/// detail lines. Returns its output, or `None` when the test is skipped for want of a tool.
fn suite(test: &'static str, envs: &[(&str, &str)]) -> Option<String> {
    let ready = Needs::new(test)
        .root()
        .commands("shellcheck", &["shellcheck"])
        .commands("dash", &["dash"])
        .commands("busybox", &["busybox"])
        .commands("sysstat", &["iostat", "mpstat"])
        .commands("default-jdk-headless", &["javac"])
        .met();
    if !ready {
        return None;
    }
    let mut all = vec![("RCA_BIN", env!("CARGO_BIN_EXE_rca"))];
    all.extend_from_slice(envs);
    let stdout = crate::run_suite(test, "tests/collector/run.sh", &[], &all)?;
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(summary.ends_with(" 0 failed"), "{summary}");
    // Budgets, overruns and the suite's time, for whoever reads the test's output.
    for l in stdout
        .lines()
        .filter(|l| l.starts_with("measure ") || l.starts_with("note "))
    {
        eprintln!("{l}");
    }
    Some(stdout)
}
