//! Runs the collector's own test script (`tests/collector/run.sh`): `shellcheck -s sh`; real runs
//! under dash, bash and BusyBox ash as root and as `nobody` with sysstat, perf, a real JVM and a
//! real ZooKeeper; a hung sampler under each timeout implementation; a missing tool; SIGTERM
//! mid-run; size caps; planted secrets that must not reach the tarball; the collector's own CPU
//! overhead. It runs twice: as the machine is, and with two CPU hogs busy for the whole run (the
//! load at which fixed budgets cut `jstat` short), whose process group is killed at the end.
//!
//! It needs root, shellcheck, dash, busybox and a JDK. Without the tools it is skipped with a
//! note, unless `RCA_HOST_TESTS=1` (set by CI, which installs them), where a missing tool fails
//! the test.

use super::have;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command};

#[test]
fn collector_script_suite() {
    let _machine = crate::exclusive();
    suite(&[]);
}

/// The same suite on a machine kept busy by two CPU hogs for its whole run: the collector's
/// budgets must follow the load, and the suite's checks must not assume an idle machine.
#[test]
fn collector_script_suite_under_two_cpu_hogs() {
    let _machine = crate::exclusive();
    let hogs = Hogs::start(2);
    let stdout = suite(&[("RCA_TEST_LOAD", "two CPU hogs")]);
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
        let script = "i=0; while [ $i -lt $1 ]; do sh -c 'while :; do :; done' & i=$((i + 1)); done; wait";
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

/// Runs `tests/collector/run.sh` with `envs`; fails with its failed checks and their detail
/// lines. Returns its output.
fn suite(envs: &[(&str, &str)]) -> String {
    let required = std::env::var("RCA_HOST_TESTS").is_ok_and(|v| v == "1");
    let missing: Vec<&str> = ["bash", "shellcheck", "dash", "busybox", "javac"]
        .into_iter()
        .filter(|c| !have(c))
        .collect();
    if !missing.is_empty() {
        assert!(
            !required,
            "RCA_HOST_TESTS=1 but {missing:?} are not installed"
        );
        eprintln!("note: collector suite skipped, missing {missing:?} (Debian packages: shellcheck dash busybox; .ci/run installs them)");
        return String::new();
    }
    let mut all = vec![("RCA_BIN", env!("CARGO_BIN_EXE_rca"))];
    all.extend_from_slice(envs);
    // Failed checks, and the indented lines that say why.
    let stdout = crate::run_suite("tests/collector/run.sh", &all, &["FAIL", "not ok", "    "]);
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(summary.ends_with("0 failed"), "{summary}");
    // Budgets, overruns and the suite's time, for whoever reads the test's output.
    for l in stdout.lines().filter(|l| l.starts_with("measure ") || l.starts_with("note ")) {
        eprintln!("{l}");
    }
    stdout
}
