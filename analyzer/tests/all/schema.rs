//! The shipped JSON Schemas (`docs/schema/`) against the documents rca writes: every sample
//! bundle's `rca analyze --json`, the two sample pairs' `rca diff --json`, and `rca fleet --json`
//! over the fleet tests' five peers, each run through the `rca` binary as a user runs it and
//! validated with an independent validator (the `jsonschema` crate, draft 2020-12). A document
//! with a renamed field must fail: the schemas are closed.
//!
//! That the schema files are the types' own (regenerated, not hand-edited) is the library test
//! `schema_files`.

use crate::common::{analyze_json, repo};
use crate::fleet::{fleet_of_five, rewrite};
use jsonschema::Validator;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The shipped schema `docs/schema/<name>.schema.json`, checked against the draft 2020-12
/// meta-schema, and its validator.
fn validator(name: &str) -> Validator {
    let path = repo()
        .join("docs/schema")
        .join(format!("{name}.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let schema: Value = serde_json::from_str(&text).unwrap();
    if let Err(e) = jsonschema::draft202012::meta::validate(&schema) {
        panic!(
            "{} is not a valid draft 2020-12 schema: {e}",
            path.display()
        );
    }
    jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every way `doc` breaks the schema, one per line with the JSON path into the document (at
/// most 20); empty when it is valid.
fn violations(v: &Validator, doc: &Value) -> String {
    v.iter_errors(doc)
        .take(20)
        .map(|e| format!("  at {}: {e}\n", e.instance_path()))
        .collect()
}

fn assert_valid(v: &Validator, doc: &Value, what: &str) {
    let errors = violations(v, doc);
    assert!(
        errors.is_empty(),
        "{what} does not match its shipped schema; if the change is intended, run \
         `RCA_BLESS=1 cargo test -p rca schema_files` and commit docs/schema:\n{errors}"
    );
}

/// Runs `rca` with `args` (which write `--json` to `json`) and reads the document.
fn run_json(args: &[&std::ffi::OsStr], json: &Path) -> Value {
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .args(args)
        .arg("--json")
        .arg(json)
        .output()
        .unwrap();
    let text = std::fs::read_to_string(json).unwrap_or_else(|e| {
        panic!(
            "rca {args:?} wrote no JSON ({e}): {}",
            String::from_utf8_lossy(&o.stderr)
        )
    });
    serde_json::from_str(&text).unwrap()
}

/// Every sample bundle: the top-level bundle of each single-host sample, both sides of each
/// pair.
fn sample_bundles() -> Vec<PathBuf> {
    let root = repo().join("sample-bundles");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&root).unwrap() {
        let dir = e.unwrap().path();
        if !dir.join("README.md").is_file() {
            continue; // tools/
        }
        if dir.join("baseline").is_dir() {
            out.extend([dir.join("baseline"), dir.join("suspect")]);
        } else {
            for b in std::fs::read_dir(&dir).unwrap() {
                let b = b.unwrap().path();
                if b.file_name().unwrap().to_string_lossy().starts_with("rca-") {
                    out.push(b);
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_sample_analysis_matches_the_analyze_schema() {
    let v = validator("analyze");
    let bundles = sample_bundles();
    // healthy, S1, S3 and both sides of S2 and S4.
    assert_eq!(bundles.len(), 7, "{bundles:?}");
    let mut findings = 0;
    for b in &bundles {
        let (_, doc) = analyze_json(b);
        findings += doc["findings"].as_array().map_or(0, Vec::len);
        assert_valid(&v, &doc, &format!("rca analyze {}", b.display()));
    }
    // The documents exercise the finding, evidence and excerpt schemas, not only empty lists.
    assert!(findings > 0);
}

#[test]
fn the_sample_pairs_diffs_match_the_diff_schema() {
    let v = validator("diff");
    for pair in ["s2-bank-core", "s4-oceanbase-softirq"] {
        let dir = repo().join("sample-bundles").join(pair);
        let out = tempfile::tempdir().unwrap();
        let json = out.path().join("d.json");
        let doc = run_json(
            &[
                "diff".as_ref(),
                dir.join("baseline").as_os_str(),
                dir.join("suspect").as_os_str(),
                "-q".as_ref(),
            ],
            &json,
        );
        assert!(!doc["differences"].as_array().unwrap().is_empty(), "{pair}");
        assert_valid(&v, &doc, &format!("rca diff of {pair}"));
    }
}

#[test]
fn a_fleet_comparison_matches_the_fleet_schema() {
    let v = validator("fleet");
    let d = tempfile::tempdir().unwrap();
    // The fleet tests' five peers, one with an extra tainting module: numeric and categorical
    // reasons, outliers and deviants all appear.
    let mut args: Vec<std::ffi::OsString> = vec!["fleet".into(), "-q".into()];
    args.extend(
        fleet_of_five(d.path(), |top| {
            rewrite(top, "proc/modules", |t| {
                format!("resguard_linux 364544 2 - Live 0xffffffffc0b00000 (OE)\n{t}")
            });
            rewrite(top, "kernel/tainted", |_| "12288\n".into());
        })
        .into_iter()
        .map(Into::into),
    );
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let doc = run_json(&args, &d.path().join("fleet.json"));
    assert_eq!(doc["hosts"].as_array().unwrap().len(), 5);
    assert!(!doc["hosts"][0]["reasons"].as_array().unwrap().is_empty());
    assert_valid(&v, &doc, "rca fleet over five peers");
}

#[test]
fn a_renamed_or_retyped_field_fails_validation() {
    let v = validator("analyze");
    let (_, doc) = analyze_json(
        &repo().join("sample-bundles/s3-zookeeper-watches/rca-vm-20261130T042816Z.tar.gz"),
    );
    assert_valid(&v, &doc, "the S3 analysis");

    // A field renamed in a finding's evidence, deep in the document.
    let mut renamed = doc.clone();
    let ev = renamed["findings"][0]["evidence"][0]
        .as_object_mut()
        .expect("S3's first finding cites evidence");
    let lines = ev.remove("lines").unwrap();
    ev.insert("line_numbers".into(), lines);
    let errors = violations(&v, &renamed);
    assert!(
        errors.contains("/findings/0/evidence/0") && errors.contains("line_numbers"),
        "a renamed field passed: {errors:?}"
    );

    // A field renamed at the top.
    let mut renamed = doc.clone();
    let top = renamed.as_object_mut().unwrap();
    let outcomes = top.remove("outcome_counts").unwrap();
    top.insert("outcomes".into(), outcomes);
    assert!(!violations(&v, &renamed).is_empty());

    // A closed vocabulary with a value it does not have.
    let mut retyped = doc.clone();
    retyped["findings"][0]["severity"] = "fatal".into();
    assert!(violations(&v, &retyped).contains("/findings/0/severity"));

    // Another version of the document's shape.
    let mut other = doc;
    other["schema_version"] = 2.into();
    assert!(violations(&v, &other).contains("/schema_version"));
}
