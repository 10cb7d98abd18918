//! This machine's kernel log through the readers: `dmesg -T` and `journalctl -k -o short-iso`
//! (what the collector runs) are read as their kinds and give the kernel log facts.
//!
//! `dmesg` may be root-only (`kernel.dmesg_restrict`) and a container may have no journal: the
//! test reads what the machine gives, and when it gives neither it is skipped with one line,
//! unless `RCA_HOST_TESTS=1` (CI, as root), where `dmesg -T` must answer.

use rca::artifacts::{collect, Outcome};
use rca::bundle::Limits;
use std::process::Command;

fn run(argv: &[&str]) -> Option<String> {
    let o = Command::new(argv[0]).args(&argv[1..]).output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn this_machines_kernel_log_is_read() {
    let dmesg = run(&["dmesg", "-T"]);
    let journal = run(&[
        "journalctl",
        "-k",
        "--no-pager",
        "-o",
        "short-iso",
        "-n",
        "500",
    ]);
    if super::required() {
        assert!(
            dmesg.is_some(),
            "RCA_HOST_TESTS=1 but `dmesg -T` failed (util-linux, root)"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let mut expected = Vec::new();
    if let Some(t) = dmesg.filter(|t| !t.trim().is_empty()) {
        std::fs::write(dir.path().join("dmesg-T.txt"), t).unwrap();
        expected.push(("dmesg-T.txt", "dmesg"));
    }
    if let Some(t) = journal.filter(|t| !t.trim().is_empty()) {
        std::fs::write(dir.path().join("journalctl-k.txt"), t).unwrap();
        expected.push(("journalctl-k.txt", "syslog"));
    }
    if expected.is_empty() {
        super::say(
            "skipped: kernel_log needs `dmesg -T` (util-linux; root where kernel.dmesg_restrict=1) \
             or `journalctl -k` to answer",
        );
        return;
    }
    let c = collect(dir.path(), &Limits::default()).unwrap();
    for (path, kind) in &expected {
        let a = c
            .artifacts
            .iter()
            .find(|a| a.path.ends_with(path))
            .unwrap_or_else(|| panic!("{path} not collected"));
        assert_eq!(a.kind.map(|k| k.name), Some(*kind), "{path}");
        assert!(
            matches!(a.outcome, Outcome::Parsed | Outcome::Partial),
            "{path}: {:?}",
            a.outcome
        );
    }
    let f = rca::facts::HostFacts::from_collected(&c);
    let k = f.klog.get().expect("kernel log facts");
    assert_eq!(k.sources.len(), expected.len());
    // `dmesg -T` lines carry their year: every event is dated.
    assert!(
        k.events.iter().all(|e| e.time.epoch.is_some()),
        "{:#?}",
        k.events
    );
}
