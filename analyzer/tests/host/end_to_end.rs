//! End to end on real input: `collector.sh` runs on this machine for a few seconds, `rca analyze`
//! reads the tarball, and the result is checked against the machine itself.
//!
//! Needs sysstat (the collector's samplers, whose devices are checked against the machine's);
//! without it the test is skipped with one line, unless `RCA_HOST_TESTS=1` (set by CI, which
//! installs it), where it fails.

use super::{repo, Needs};
use parsers::kind::Record;
use parsers::sysstat::iostat::Iostat;
use rca::artifacts::Outcome;
use rca::bundle::Limits;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs the collector once and returns the tarball path (inside `out`).
fn collect(out: &Path) -> PathBuf {
    let o = Command::new("sh")
        .arg(repo().join("collector.sh"))
        .args(["--duration", "3", "--interval", "1", "--output"])
        .arg(out)
        .output()
        .expect("sh runs");
    assert!(
        o.status.success(),
        "collector failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    let last = stdout
        .lines()
        .last()
        .expect("the collector prints the tarball path")
        .trim()
        .to_string();
    let p = PathBuf::from(last);
    assert!(p.exists(), "{} exists", p.display());
    let name = p.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("rca-") && name.ends_with(".tar.gz"),
        "{name}"
    );
    p
}

#[test]
fn collect_then_analyze_this_machine() {
    let _machine = crate::exclusive();
    if !Needs::new("end_to_end")
        .commands("sysstat", &["iostat", "mpstat"])
        .met()
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let tarball = collect(dir.path());

    // The command line: HTML, JSON and a terminal summary; exit 0 or 1 (findings), never 2.
    let html = dir.path().join("report.html");
    let json = dir.path().join("findings.json");
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(&tarball)
        .arg("-o")
        .arg(&html)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "exit {:?}: {stdout}{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout.contains("artifacts:"), "terminal summary: {stdout}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "the report references no network resource"
    );
    assert!(page.contains("Content-Security-Policy"));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["schema_version"], 1);

    // Every manifest record appears in coverage with an outcome.
    let report = rca::report::Report::analyze(&tarball, &Limits::default()).unwrap();
    let prefix = report
        .bundle
        .manifest
        .as_deref()
        .expect("the bundle has a manifest")
        .trim_end_matches("manifest.tsv")
        .to_string();
    let records: Vec<_> = doc["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| !a["record"].is_null())
        .map(|a| {
            (
                a["path"].as_str().unwrap().to_string(),
                a["outcome"]["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let manifest_text = std::process::Command::new("tar")
        .arg("-xzOf")
        .arg(&tarball)
        .arg(format!("{prefix}manifest.tsv"))
        .output()
        .unwrap();
    let manifest = String::from_utf8_lossy(&manifest_text.stdout);
    let planned: Vec<&str> = manifest
        .lines()
        .filter(|l| l.starts_with("artifact\t"))
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert!(
        planned.len() >= 8,
        "manifest lists the planned artifacts: {planned:?}"
    );
    for p in &planned {
        let full = format!("{prefix}{p}");
        assert!(
            records
                .iter()
                .any(|(path, status)| *path == full && !status.is_empty()),
            "{full} is in coverage with an outcome"
        );
    }

    // The kernel release in the report is this machine's.
    let uname_r =
        String::from_utf8(Command::new("uname").arg("-r").output().unwrap().stdout).unwrap();
    assert_eq!(report.host.kernel_release.as_deref(), Some(uname_r.trim()));
    assert_eq!(doc["host"]["kernel_release"], uname_r.trim());

    // iostat's devices are the block devices of /proc/diskstats at collection time: whole devices
    // (listed in /sys/block) with any I/O since boot, as sysstat selects them.
    let diskstats = report
        .artifacts
        .iter()
        .find(|a| a.path.ends_with("proc/diskstats"))
        .expect("diskstats collected");
    let expected: BTreeSet<String> = diskstats
        .text
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let name = f.get(2)?;
            let n = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
            let active = n(3) + n(7) + n(14) > 0;
            (active && Path::new("/sys/block").join(name).exists()).then(|| name.to_string())
        })
        .collect();
    // The report's artifacts keep no records: the iostat record is read from the bundle.
    let collected = rca::artifacts::collect(&tarball, &Limits::default()).unwrap();
    let iostat = collected
        .artifacts
        .iter()
        .find(|a| a.path.ends_with("sysstat/iostat-x.txt"))
        .expect("iostat text collected");
    assert!(
        matches!(iostat.outcome, Outcome::Parsed | Outcome::Partial),
        "{:?} {:?}",
        iostat.outcome,
        iostat.issues
    );
    let Some(io) = iostat.data.as_ref().and_then(Iostat::of) else {
        panic!("iostat parsed")
    };
    let seen: BTreeSet<String> = io.reports[0]
        .devices
        .iter()
        .map(|d| d.device.clone())
        .collect();
    assert_eq!(seen, expected);
}

#[test]
fn a_closed_stdout_pipe_ends_the_summary_quietly() {
    // `rca analyze … | head -1`: the reader goes away; rca must not panic, and its exit status
    // still says what it found.
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap();
    let bundle = repo.join("sample-bundles/s1-hadoop-vmware");
    let dir = std::fs::read_dir(&bundle)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.is_dir() && p.file_name().unwrap().to_string_lossy().starts_with("rca-"))
        .expect("the S1 sample");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(1), "{err}");
}
