//! Runs the collector's own test script (`tests/collector/run.sh`): `shellcheck -s sh`; real runs
//! under dash, bash and BusyBox ash as root and as `nobody` with sysstat, perf, a real JVM and a
//! real ZooKeeper; a hung sampler under each timeout implementation; a missing tool; SIGTERM
//! mid-run; size caps; planted secrets that must not reach the tarball; the collector's own CPU
//! overhead.
//!
//! It needs root, shellcheck, dash, busybox, sysstat and a JDK (the real runs also start
//! ZooKeeper, perf and ethtool, which the suite itself requires under `RCA_HOST_TESTS=1`).
//! Without them it is skipped with one line, unless `RCA_HOST_TESTS=1` (set by CI, which
//! installs them), where it fails. A failed run shows every failed check with its detail lines.

use super::Needs;

#[test]
fn collector_script_suite() {
    let _machine = crate::exclusive();
    let ready = Needs::new("collector_script")
        .root()
        .commands("shellcheck", &["shellcheck"])
        .commands("dash", &["dash"])
        .commands("busybox", &["busybox"])
        .commands("sysstat", &["iostat", "mpstat"])
        .commands("default-jdk-headless", &["javac"])
        .met();
    if !ready {
        return;
    }
    let Some(stdout) = crate::run_suite(
        "collector_script",
        "tests/collector/run.sh",
        &[],
        &[("RCA_BIN", env!("CARGO_BIN_EXE_rca"))],
    ) else {
        return;
    };
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(summary.ends_with(" 0 failed"), "{summary}");
}
