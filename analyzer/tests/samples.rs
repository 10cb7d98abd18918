//! The shipped sample bundles, analyzed through the command line as a user would.

use std::path::Path;
use std::process::Command;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

#[test]
fn healthy_sample_has_no_warning_and_exits_0() {
    let dir = repo().join("sample-bundles/healthy");
    let bundle = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.to_string_lossy().ends_with(".tar.gz"))
        .expect("the healthy sample is shipped");
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("f.json");
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(&bundle)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let loud: Vec<_> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] != "info")
        .collect();
    assert!(loud.is_empty(), "{loud:?}");
    let clear = doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["result"]["status"] == "clear")
        .count();
    assert!(
        clear >= 12,
        "a real collection evaluates most rules: {clear} clear"
    );
    let parsed = doc["outcome_counts"]["parsed"].as_u64().unwrap();
    assert!(parsed >= 40, "{parsed} parsed artifacts");
    assert!(doc["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .all(|a| a["outcome"]["status"] != "parser-bug"));
}
