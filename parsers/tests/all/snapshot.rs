//! Snapshots of whole parsed records, one per fixture file: the record and its issues (or the
//! error) as YAML under `snapshots/`, named `KIND__DIR__FILE.snap`. The per-format modules
//! assert the headline values explicitly, so a wrong snapshot cannot be accepted unnoticed.
//!
//! Which parser reads a fixture: its entry in `FIXTURE_KINDS`, else its folder's name when that
//! is a kind's (`tests/fixtures/<kind name>/`, which needs no entry).
//!
//! A new or changed record fails the test; `INSTA_UPDATE=always cargo test -p rca-parsers`
//! rewrites the snapshots (review them with `git diff`). With `CI=true` nothing is written.

use crate::common::{all_fixtures, fixture, folders_of_kinds, snapshot_kind, FIXTURE_KINDS};
use std::collections::BTreeSet;

/// Fixture files that are not the input of a parser.
const NOT_INPUTS: &[&str] = &["PROVENANCE.md"];

/// Fixture folders of files that are no kind (content sniffing must claim none of them).
const NO_KIND_DIRS: &[&str] = &["not-sniffed/"];

#[test]
fn every_fixture_record_matches_its_snapshot() {
    for k in FIXTURE_KINDS {
        for rel in k.files() {
            let name = format!("{}__{}", k.kind, rel.replace('/', "__"));
            (k.snapshot)(&name, &fixture(&rel));
        }
    }
    for folder in folders_of_kinds() {
        for rel in folder.files() {
            let name = format!("{}__{}", folder.kind.name, rel.replace('/', "__"));
            snapshot_kind(&name, folder.kind, &fixture(&rel));
        }
    }
}

#[test]
fn every_fixture_has_a_kind() {
    let listed: BTreeSet<String> = FIXTURE_KINDS
        .iter()
        .flat_map(|k| k.files())
        .chain(folders_of_kinds().iter().flat_map(|f| f.files()))
        .collect();
    let missing: Vec<String> = all_fixtures()
        .into_iter()
        .filter(|f| !listed.contains(f) && !NOT_INPUTS.iter().any(|n| f.ends_with(n)))
        .filter(|f| !NO_KIND_DIRS.iter().any(|d| f.starts_with(d)))
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
