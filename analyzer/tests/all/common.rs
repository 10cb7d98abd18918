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
