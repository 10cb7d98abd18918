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
