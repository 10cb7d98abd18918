//! Two bundles of the same quiet machine, collected for real one after the other by
//! `collector.sh`, must not differ above the noise threshold: `rca diff` ranks what matters, and
//! run-to-run variation (utilisation, latency, soft-IRQ rates, profile shares, passing commands)
//! is not what matters.
//!
//! Needs root and sysstat (the collector's samplers). Skipped with a note without them, unless
//! `RCA_HOST_TESTS=1` (CI), where a missing tool fails the test.

use super::have;
use std::path::{Path, PathBuf};
use std::process::Command;

fn collect(repo: &Path, out: &Path) -> PathBuf {
    std::fs::create_dir_all(out).unwrap();
    let o = Command::new("sh")
        .arg(repo.join("collector.sh"))
        .args(["--duration", "5", "--interval", "1", "--output"])
        .arg(out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "collector failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read_dir(out)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.to_string_lossy().ends_with(".tar.gz"))
        .expect("a bundle")
}

#[test]
fn two_bundles_of_a_quiet_machine_minutes_apart_differ_only_below_noise() {
    let _machine = crate::exclusive();
    let required = std::env::var("RCA_HOST_TESTS").is_ok_and(|v| v == "1");
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if !root || !have("iostat") {
        assert!(
            !required,
            "RCA_HOST_TESTS=1 but not root or sysstat missing"
        );
        eprintln!("note: twin-bundle test skipped (needs root and sysstat)");
        return;
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let d = tempfile::tempdir().unwrap();
    let a = collect(repo, &d.path().join("a"));
    std::thread::sleep(std::time::Duration::from_secs(2));
    let b = collect(repo, &d.path().join("b"));
    let json = d.path().join("d.json");
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("diff")
        .arg(&a)
        .arg(&b)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let loud: Vec<String> = doc["differences"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["noise"] == false)
        .map(|x| {
            format!(
                "{} [{}] {}: {}",
                x["score"], x["kind"], x["subject"], x["reason"]
            )
        })
        .collect();
    assert!(
        loud.is_empty(),
        "differences above noise:\n{}",
        loud.join("\n")
    );
    assert_eq!(doc["above_noise"], 0);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // The comparison did compare: both sides have facts, and below-noise differences are listed.
    assert!(doc["differences"].as_array().is_some());
}
