//! Snapshots of whole parsed records, one per fixture file: the record and its issues (or the
//! error) as YAML under `snapshots/`, named `KIND__DIR__FILE.snap`. The per-format modules
//! assert the headline values explicitly, so a wrong snapshot cannot be accepted unnoticed.
//!
//! A new or changed record fails the test; `INSTA_UPDATE=always cargo test -p rca-parsers`
//! rewrites the snapshots (review them with `git diff`). With `CI=true` nothing is written.

use crate::common::{all_fixtures, fixture, FIXTURE_KINDS};
use std::collections::BTreeSet;

/// Fixture files that are not the input of a parser.
const NOT_INPUTS: &[&str] = &["PROVENANCE.md"];

#[test]
fn every_fixture_record_matches_its_snapshot() {
    for k in FIXTURE_KINDS {
        for rel in k.files() {
            let name = format!("{}__{}", k.kind, rel.replace('/', "__"));
            (k.snapshot)(&name, &fixture(&rel));
        }
    }
}

#[test]
fn every_fixture_has_a_kind() {
    let listed: BTreeSet<String> = FIXTURE_KINDS.iter().flat_map(|k| k.files()).collect();
    let missing: Vec<String> = all_fixtures()
        .into_iter()
        .filter(|f| !listed.contains(f) && !NOT_INPUTS.iter().any(|n| f.ends_with(n)))
        .collect();
    assert!(missing.is_empty(), "fixtures without a kind: {missing:?}");
}

#[test]
fn no_fixture_has_two_kinds() {
    let mut seen = BTreeSet::new();
    for k in FIXTURE_KINDS {
        for rel in k.files() {
            assert!(seen.insert(rel.clone()), "{rel} is listed twice");
        }
    }
}
