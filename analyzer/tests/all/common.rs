//! Paths and inputs shared by the tests: the repository, the parser fixtures, the shipped
//! healthy sample.

use std::path::{Path, PathBuf};

/// The repository's root folder.
pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// Text of a parser fixture (`parsers/tests/fixtures/<rel>`, see its `PROVENANCE.md`).
pub fn fixture(rel: &str) -> String {
    let p = repo().join("parsers/tests/fixtures").join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The shipped healthy sample (`sample-bundles/healthy/*.tar.gz`), a real collection.
pub fn healthy_sample() -> PathBuf {
    std::fs::read_dir(repo().join("sample-bundles/healthy"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.to_string_lossy().ends_with(".tar.gz"))
        .expect("the healthy sample is shipped")
}

/// Unpacks the `.tar.gz` sample `sample` into `root/name`; returns the bundle's top folder.
pub fn unpack_sample(sample: &Path, root: &Path, name: &str) -> PathBuf {
    let dir = root.join(name);
    let f = std::fs::File::open(sample).unwrap();
    tar::Archive::new(flate2::read::GzDecoder::new(f))
        .unpack(&dir)
        .unwrap();
    std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
}

/// An incident bundle folder (`analyzer/tests/fixtures/incidents/<rel>`, see its README).
pub fn incident(rel: &str) -> PathBuf {
    repo().join("analyzer/tests/fixtures/incidents").join(rel)
}

/// `rca analyze PATH --json F` as a user runs it: the exit status and the JSON document.
/// Panics with rca's stderr when no document was written.
pub fn analyze_json(path: &Path) -> (Option<i32>, serde_json::Value) {
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("f.json");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("analyze")
        .arg(path)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let doc = std::fs::read_to_string(&json)
        .map(|t| serde_json::from_str(&t).unwrap())
        .unwrap_or_else(|e| {
            panic!(
                "no JSON for {} ({e}): {}",
                path.display(),
                String::from_utf8_lossy(&o.stderr)
            )
        });
    (o.status.code(), doc)
}

/// The `result` of rule `id` in an analysis document's `rules` list; panics if it is not listed.
pub fn rule_status<'a>(doc: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    &doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("rule {id} is listed"))["result"]
}

/// The `(artifact path, line, text)` of each evidence line of finding `f`.
pub fn cited_lines(f: &serde_json::Value) -> Vec<(String, u64, String)> {
    f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| {
            let path = e["artifact"].as_str().unwrap().to_string();
            e["excerpt"].as_array().unwrap().iter().map(move |x| {
                (
                    path.clone(),
                    x["line"].as_u64().unwrap(),
                    x["text"].as_str().unwrap().to_string(),
                )
            })
        })
        .collect()
}

/// The ranked findings of an analysis document.
pub fn findings(doc: &serde_json::Value) -> &Vec<serde_json::Value> {
    doc["findings"].as_array().unwrap()
}

/// A small, valid `/proc/softirqs` (a real capture's shape), so a bundle has one artifact that
/// parses.
pub const SOFTIRQS: &str = "                    CPU0       CPU1\n          HI:          7          1\n       TIMER:     424191     108342\n      NET_TX:       2301       2430\n      NET_RX:      43066     104508\n       BLOCK:      23776      24115\n    IRQ_POLL:          0          0\n     TASKLET:        372        116\n       SCHED:     378895     152852\n     HRTIMER:         40         68\n         RCU:     155929     146631\n";

/// A tar (GNU headers) of regular files.
pub fn tar_bytes(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (name, data) in entries {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        b.append_data(&mut h, name, *data).unwrap();
    }
    b.into_inner().unwrap()
}

/// What the bundle reader delivers for `path`: its summary and every entry, in order.
pub fn raw_entries(
    path: &Path,
    limits: &rca::bundle::Limits,
) -> (rca::bundle::ReadSummary, Vec<rca::bundle::RawEntry>) {
    let mut v = Vec::new();
    let s = rca::bundle::read(path, limits, &|_| None, |e| v.push(e)).unwrap();
    (s, v)
}
