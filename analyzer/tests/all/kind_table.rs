//! The collector's kind table (the comment block at the top of `collector.sh`, the manifest's
//! contract) and the analyzer's kind table (`parsers::kind::KINDS`) list the same kinds: every
//! kind the collector names is known to rca, and every kind rca declares as collected is in the
//! collector's table.

use std::collections::BTreeSet;
use std::path::Path;

/// Kind names listed in `collector.sh` between `# Kinds of this version` and `# The sampling
/// window`: a name (or a comma-separated list of names) indented by five spaces after `#`, and
/// the `collector.log -> collector-log` line.
fn collector_kinds() -> BTreeSet<String> {
    let script =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../collector.sh"))
            .expect("collector.sh is readable");
    let mut inside = false;
    let mut out = BTreeSet::new();
    for line in script.lines() {
        if line.starts_with("# Kinds of this version") {
            inside = true;
            continue;
        }
        if line.starts_with("# The sampling window") {
            break;
        }
        if !inside {
            continue;
        }
        if let Some((_, kind)) = line.split_once(" -> ") {
            if let Some(k) = kind.split_whitespace().next() {
                out.insert(k.to_string());
            }
            continue;
        }
        let Some(rest) = line.strip_prefix("#     ") else {
            continue;
        };
        if rest.starts_with(' ') {
            continue; // a description's continuation
        }
        let names = rest.split("  ").next().unwrap_or(rest);
        for n in names.split(',') {
            let n = n.trim();
            let is_name = !n.is_empty()
                && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && n.starts_with(|c: char| c.is_ascii_lowercase());
            if is_name {
                out.insert(n.to_string());
            }
        }
    }
    assert!(
        inside,
        "collector.sh has no `# Kinds of this version` table"
    );
    out
}

#[test]
fn the_collector_and_the_kind_table_list_the_same_kinds() {
    let collector = collector_kinds();
    assert!(
        collector.len() > 50,
        "the table was not read: {collector:?}"
    );
    let declared: BTreeSet<String> = parsers::kind::KINDS
        .iter()
        .filter(|k| k.collected)
        .map(|k| k.name.to_string())
        .collect();
    let unknown: Vec<_> = collector.difference(&declared).collect();
    let unlisted: Vec<_> = declared.difference(&collector).collect();
    assert!(
        unknown.is_empty(),
        "kinds in collector.sh that rca does not declare as collected: {unknown:?}"
    );
    assert!(
        unlisted.is_empty(),
        "kinds declared as collected that collector.sh does not list: {unlisted:?}"
    );
}

#[test]
fn kind_names_are_unique() {
    let mut seen = BTreeSet::new();
    for k in parsers::kind::KINDS {
        assert!(seen.insert(k.name), "kind `{}` is declared twice", k.name);
    }
}

/// A pattern may name a kind without a parser: its place then keeps it from being sniffed as
/// something else (`/proc/<pid>/cmdline` looks like a list of JVM flags).
#[test]
fn every_path_pattern_names_a_declared_kind() {
    for (pattern, kind) in rca::layout::PATHS {
        assert!(
            parsers::kind::KINDS.iter().any(|k| std::ptr::eq(*k, *kind)),
            "{pattern} names a kind outside the table"
        );
    }
}
