//! Runs `tests/collector/secrets.sh`: secrets planted in a configuration folder (every syntax
//! the masker knows, key stores, keytabs, PEM keys, credential stores, binaries, symbolic links
//! to `/` and out of the folder) and on the command lines of running processes and a JVM must
//! not reach the bundle, with the masker under gawk, mawk and BusyBox awk and the collector
//! under dash, bash and a BusyBox-only userland; key names and non-secret values must survive.
//!
//! It needs busybox, gawk, mawk, dash and a JDK. Without them it is skipped with a note, unless
//! `RCA_HOST_TESTS=1` (set by CI, which installs them), where a missing tool fails the test.

use super::have;

#[test]
fn collector_keeps_planted_secrets_out_of_the_bundle() {
    let _machine = crate::exclusive();
    let required = std::env::var("RCA_HOST_TESTS").is_ok_and(|v| v == "1");
    let missing: Vec<&str> = [
        "bash", "busybox", "gawk", "mawk", "dash", "java", "javac", "jcmd",
    ]
    .into_iter()
    .filter(|c| !have(c))
    .collect();
    if !missing.is_empty() {
        assert!(
            !required,
            "RCA_HOST_TESTS=1 but {missing:?} are not installed"
        );
        eprintln!("note: collector secrets suite skipped, missing {missing:?} (Debian packages: busybox gawk mawk; .ci/run installs them)");
        return;
    }
    let stdout = crate::run_suite("tests/collector/secrets.sh", &[], &["FAIL", "    "]);
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(summary.ends_with(" passed, 0 failed"), "{summary}");
    // Every run reported its count, and each is zero.
    let leaks: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("measure leaks: "))
        .collect();
    assert_eq!(leaks.len(), 7, "{stdout}");
    assert!(
        leaks.iter().all(|l| l.contains(": 0 of ")),
        "{}",
        leaks.join("\n")
    );
}
