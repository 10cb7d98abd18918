//! The tests that run host tools for real: the collector suite (`tests/collector/run.sh`), the
//! collector against a temp folder that fills up and a hung `ethtool` past its deadline, a
//! collection of this machine analyzed end to end, a process at its descriptor limit and a
//! listener that never accepts collected and named, two quiet collections compared, ZooKeeper with
//! a million watches, every report page opened in headless Chromium, a `sos report` of this
//! machine analyzed, two loop-mounted filesystems filled to their last block and inode, JVMs with
//! a contended monitor and a deadlock, real memory and CPU cgroups at their limits, this
//! machine's kernel log, `cpupower` and `tuned-adm` answers, and the collector's secrets suite
//! (`tests/collector/secrets.sh`). Each skips with a note when its tools are missing, unless
//! `RCA_HOST_TESTS=1` (set by CI, which installs them).
//!
//! The heavy ones take [`exclusive`] so that they run one at a time, as they would in separate
//! binaries: a collection measures the machine, and another suite running beside it would be
//! part of what it measures.

mod cgroup_limits;
mod collector_incomplete;
mod collector_script;
mod collector_secrets;
mod cpu_tools;
mod end_to_end;
mod fd_exhaustion;
mod fs_full;
mod java_locks;
mod kernel_log;
mod listen_overflow;
mod report_browser;
mod sosreport;
mod twin_bundles;
mod zk_watches;

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::{Mutex, MutexGuard};

/// Whether `cmd` is on the `PATH`.
pub fn have(cmd: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {cmd}"))
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The repository's root folder.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Runs one of the repository's shell test suites (`bash SCRIPT` from the root, with `envs`) and
/// fails with its last line, its lines starting with one of `detail` and its stderr unless it
/// exits 0. Returns its standard output, whose last line is the summary.
pub fn run_suite(script: &str, envs: &[(&str, &str)], detail: &[&str]) -> String {
    let root = repo();
    let out = Command::new("bash")
        .arg(root.join(script))
        .envs(envs.iter().copied())
        .current_dir(&root)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let summary = stdout.lines().last().unwrap_or_default();
    let failures: Vec<&str> = stdout
        .lines()
        .filter(|l| detail.iter().any(|d| l.starts_with(d)))
        .collect();
    assert!(
        out.status.success(),
        "{script} failed ({summary}):\n{}\n{}",
        failures.join("\n"),
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
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
