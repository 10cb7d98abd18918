//! Runs the collector's own test script (`tests/collector/run.sh`): `shellcheck -s sh`; real runs
//! under dash, bash and BusyBox ash as root and as `nobody` with sysstat, perf, a real JVM and a
//! real ZooKeeper; a hung sampler under each timeout implementation; a missing tool; SIGTERM
//! mid-run; size caps; planted secrets that must not reach the tarball; the collector's own CPU
//! overhead.
//!
//! It needs root, shellcheck, dash, busybox and a JDK. Without the tools it is skipped with a
//! note, unless `RCA_HOST_TESTS=1` (set by CI, which installs them), where a missing tool fails
//! the test.

use super::have;

#[test]
fn collector_script_suite() {
    let _machine = crate::exclusive();
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
        return;
    }
    let stdout = crate::run_suite(
        "tests/collector/run.sh",
        &[("RCA_BIN", env!("CARGO_BIN_EXE_rca"))],
        &["FAIL", "not ok"],
    );
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(summary.ends_with("0 failed"), "{summary}");
}
