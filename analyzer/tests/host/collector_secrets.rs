//! Runs `tests/collector/secrets.sh`: secrets planted in a configuration folder (every syntax
//! the masker knows, key stores, keytabs, PEM keys, credential stores, binaries, symbolic links
//! to `/` and out of the folder) and on the command lines of running processes and a JVM must
//! not reach the bundle, with the masker under gawk, mawk and BusyBox awk and the collector
//! under dash, bash and a BusyBox-only userland; key names and non-secret values must survive.
//!
//! It needs busybox, gawk, mawk, dash and a JDK. Without them it is skipped with one
//! line, unless `RCA_HOST_TESTS=1` (set by CI, which installs them), where it fails. A failed
//! run shows every failed check with its detail lines (the leaked secrets, the collector's
//! stderr).

use super::Needs;

#[test]
fn collector_keeps_planted_secrets_out_of_the_bundle() {
    let _machine = crate::exclusive();
    let ready = Needs::new("collector_secrets")
        .commands("busybox", &["busybox"])
        .commands("gawk", &["gawk"])
        .commands("mawk", &["mawk"])
        .commands("dash", &["dash"])
        .commands("default-jdk-headless", &["java", "javac", "jcmd"])
        .met();
    if !ready {
        return;
    }
    let Some(stdout) =
        crate::run_suite("collector_secrets", "tests/collector/secrets.sh", &[], &[])
    else {
        return;
    };
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
