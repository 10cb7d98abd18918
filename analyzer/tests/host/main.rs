//! The tests that run host tools for real: the collector suite (`tests/collector/run.sh`), the
//! collector against a temp folder that fills up and a hung `ethtool` past its deadline, a
//! collection of this machine analyzed end to end, a process at its descriptor limit and a
//! listener that never accepts collected and named, one machine collected twice (the second
//! time under a load of the test's own) and compared, ZooKeeper with a million watches, every
//! report page opened in headless Chromium, a `sos report` of this machine analyzed, two
//! loop-mounted filesystems filled to their last block and inode, JVMs with a contended monitor
//! and a deadlock, real memory and CPU cgroups at their limits, this machine's kernel log,
//! `cpupower` and `tuned-adm` answers, the collector's secrets suite
//! (`tests/collector/secrets.sh`), `rca`'s colours and progress bar on a real terminal (tmux),
//! the release tarball of `cargo xtask dist` unpacked and run, and the sample bundles indexed by
//! the Spark example into a Parquet dataset read back with DuckDB.
//!
//! None installs anything. Each states what it needs ([`Needs`]); when something is missing it
//! prints one line, `skipped: TEST needs WHAT`, and passes, unless `RCA_HOST_TESTS=1` (set by
//! CI, whose `.ci/run` installs the packages and runs as root), where it fails.
//!
//! The heavy ones take [`exclusive`] so that they run one at a time, as they would in separate
//! binaries: a collection measures the machine, and another suite running beside it would be
//! part of what it measures.

mod cgroup_limits;
mod collector_incomplete;
mod collector_script;
mod collector_secrets;
mod cpu_tools;
mod dist;
mod end_to_end;
mod fd_exhaustion;
mod fs_full;
mod java_locks;
mod kernel_log;
mod listen_overflow;
mod report_browser;
mod sosreport;
mod spark_parquet;
mod terminal;
mod twin_bundles;
mod zk_watches;

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::{Mutex, MutexGuard};

/// Whether `RCA_HOST_TESTS=1`: CI sets it after installing every host tool, and then a missing
/// prerequisite fails a test instead of skipping it.
pub fn required() -> bool {
    std::env::var("RCA_HOST_TESTS").is_ok_and(|v| v == "1")
}

/// Whether `cmd` is on the `PATH`.
pub fn have(cmd: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {cmd}"))
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether the tests run as root.
pub fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Writes one line to standard error past the test harness's output capture (through
/// `rca::console`, as everything rca prints), so that a test that passes without checking
/// anything says so in a plain `cargo test` run.
pub fn say(line: &str) {
    rca::console::error_text(&format!("{line}\n"));
}

/// What one host test needs from this machine, gathered before it starts: root, commands of
/// Debian packages, anything else. [`Needs::met`] then runs the test, skips it with one line, or
/// fails it under `RCA_HOST_TESTS=1`.
pub struct Needs {
    test: &'static str,
    missing: Vec<String>,
}

impl Needs {
    /// The prerequisites of `test` (its name in the skip line), none yet.
    pub fn new(test: &'static str) -> Needs {
        Needs {
            test,
            missing: Vec::new(),
        }
    }

    /// Root: the test mounts, creates cgroups or reads what only root may.
    pub fn root(self) -> Needs {
        let ok = is_root();
        self.that(ok, "root")
    }

    /// Commands on the `PATH`, from the Debian package `package`.
    pub fn commands(mut self, package: &str, cmds: &[&str]) -> Needs {
        let absent: Vec<&str> = cmds.iter().copied().filter(|c| !have(c)).collect();
        if !absent.is_empty() {
            self.missing
                .push(format!("{} (Debian package {package})", absent.join(", ")));
        }
        self
    }

    /// Anything else, named `what`, present when `ok`.
    pub fn that(mut self, ok: bool, what: &str) -> Needs {
        if !ok {
            self.missing.push(what.to_string());
        }
        self
    }

    /// Whether everything is there. When something is missing: under `RCA_HOST_TESTS=1` the test
    /// fails naming it; otherwise one line `skipped: TEST needs WHAT` goes to the terminal and
    /// the test returns without checking anything.
    pub fn met(self) -> bool {
        if self.missing.is_empty() {
            return true;
        }
        let what = self.missing.join("; ");
        assert!(
            !required(),
            "RCA_HOST_TESTS=1 but {} needs {what} (.ci/run installs the packages; run as root)",
            self.test
        );
        say(&format!("skipped: {} needs {what}", self.test));
        false
    }
}

/// The repository's root folder.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The lines of a suite's output that say why it failed: each `FAILED` (or `not ok`) line with
/// the indented detail lines that follow it.
pub fn failed_checks(stdout: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut in_failure = false;
    for l in stdout.lines() {
        if l.starts_with("FAILED") || l.starts_with("not ok") {
            in_failure = true;
            out.push(l);
        } else if in_failure && (l.starts_with(' ') || l.starts_with('\t')) {
            out.push(l);
        } else {
            in_failure = false;
        }
    }
    out
}

/// Runs one of the repository's shell test suites (`bash SCRIPT ARGS` from the root, with
/// `envs`) for `test`, and returns its standard output, which holds its `N passed, N failed`
/// summary. A suite that exits 77 skipped itself for want of a prerequisite: outside
/// `RCA_HOST_TESTS=1` that is one `skipped:` line and `None`. Any other non-zero exit fails the
/// test with the summary, every failed check with its detail lines (the whole output's tail
/// when no check failed) and the end of stderr.
pub fn run_suite(
    test: &str,
    script: &str,
    args: &[&std::ffi::OsStr],
    envs: &[(&str, &str)],
) -> Option<String> {
    let root = repo();
    let out = Command::new("bash")
        .arg(root.join(script))
        .args(args)
        .envs(envs.iter().copied())
        .current_dir(&root)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(77) && !required() {
        let why = stdout
            .lines()
            .rfind(|l| l.starts_with("skip"))
            .map_or("a prerequisite", |l| l.trim_start_matches("skip").trim());
        say(&format!("skipped: {test} ({script}): {why}"));
        return None;
    }
    if !out.status.success() {
        let summary = stdout
            .lines()
            .rfind(|l| l.contains(" passed, "))
            .unwrap_or_default();
        let mut why = failed_checks(&stdout);
        if why.is_empty() {
            let lines: Vec<&str> = stdout.lines().collect();
            why = lines[lines.len().saturating_sub(40)..].to_vec();
        }
        let err: Vec<&str> = stderr.lines().collect();
        let err_tail = match &err[err.len().saturating_sub(20)..] {
            [] => String::new(),
            tail => format!(
                "\n--- stderr, last {} lines ---\n{}",
                tail.len(),
                tail.join("\n")
            ),
        };
        panic!(
            "{script} exited {:?} ({summary}):\n{}{err_tail}",
            out.status.code(),
            why.join("\n")
        );
    }
    Some(stdout)
}

/// `rca analyze PATH --json F`: the exit status, the JSON document and rca's terminal summary.
pub fn analyze(path: &Path) -> (Option<i32>, serde_json::Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("f.json");
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(path)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let doc = std::fs::read_to_string(&json)
        .map(|t| serde_json::from_str(&t).unwrap())
        .unwrap_or_else(|e| panic!("no JSON for {} ({e}): {stdout}", path.display()));
    (o.status.code(), doc, stdout)
}

/// Kills the process when the test ends, whatever happens.
pub struct Reaped(pub Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Holds the machine for one heavy test; a test that failed while holding it does not stop the
/// others.
pub fn exclusive() -> MutexGuard<'static, ()> {
    static MACHINE: Mutex<()> = Mutex::new(());
    MACHINE.lock().unwrap_or_else(|e| e.into_inner())
}

#[test]
fn a_failed_suite_check_keeps_its_detail_lines() {
    let out = "ok      one\nFAILED  two: a tarball\n    stderr line 1\n    stderr line 2\n\
               ok      three\n    not a detail of a failure\nnot ok  four\n\tdetail\n\
               measure x\n1 passed, 2 failed";
    assert_eq!(
        failed_checks(out),
        [
            "FAILED  two: a tarball",
            "    stderr line 1",
            "    stderr line 2",
            "not ok  four",
            "\tdetail"
        ]
    );
}
