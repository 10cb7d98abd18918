//! The analyzer's modules form layers: each top-level module imports only modules below it, and
//! no two sibling modules inside one import each other, directly or through others.
//!
//! Checked from the source text: every `crate::<module>` path (also inside `use crate::{…}`
//! groups) and, within a folder module, every `super::<sibling>` path is an edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules of `analyzer/src`, lowest first: the pipeline's order. A module may
/// import those before it, never those after it.
const LAYERS: &[&str] = &[
    "console",
    "memstat",
    "manifest",
    "bundle",
    "layout",
    "redact",
    "artifacts",
    "evidence",
    "facts",
    "rules",
    "analysis",
    "report",
    "diff",
    "fleet",
    "archive",
    "schema",
    "cli",
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Source text without comments (line comments and doc comments), so prose naming a module is
/// not an import.
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Module names that `prefix` (`crate::` or `super::`) is followed by in `text`, including
/// every name in a `prefix{a, b::c}` group.
fn names_after(text: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(i) = rest.find(prefix) {
        let boundary = i == 0
            || !rest.as_bytes()[i - 1].is_ascii_alphanumeric() && rest.as_bytes()[i - 1] != b'_';
        rest = &rest[i + prefix.len()..];
        if !boundary {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// The top-level module a file belongs to (`facts` for `src/facts/jvm.rs`), `None` for the crate
/// root and the binary.
fn top_of(file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src()).unwrap();
    let first = rel
        .components()
        .next()?
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    let name = first.strip_suffix(".rs").unwrap_or(&first).to_string();
    (!matches!(name.as_str(), "lib" | "main")).then_some(name)
}

#[test]
fn every_top_level_module_has_a_layer() {
    let mut tops = BTreeSet::new();
    let mut files = Vec::new();
    rs_files(&src(), &mut files);
    for f in &files {
        if let Some(t) = top_of(f) {
            tops.insert(t);
        }
    }
    let missing: Vec<_> = tops
        .iter()
        .filter(|t| !LAYERS.contains(&t.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "modules without a layer in LAYERS: {missing:?}"
    );
}

#[test]
fn no_module_imports_a_module_above_it() {
    let mut files = Vec::new();
    rs_files(&src(), &mut files);
    let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
    let mut upward = Vec::new();
    for f in &files {
        let Some(top) = top_of(f) else { continue };
        let Some(own) = rank(&top) else { continue };
        let text = code(&std::fs::read_to_string(f).unwrap());
        for used in names_after(&text, "crate::") {
            if let Some(r) = rank(&used) {
                if r > own {
                    upward.push(format!(
                        "{} imports crate::{used}",
                        f.strip_prefix(src()).unwrap().display()
                    ));
                }
            }
        }
    }
    assert!(upward.is_empty(), "upward imports:\n{}", upward.join("\n"));
}

#[test]
fn sibling_modules_form_no_cycle() {
    let mut files = Vec::new();
    rs_files(&src(), &mut files);
    // Per folder: sibling module name → the siblings it imports.
    let mut graphs: BTreeMap<PathBuf, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for f in &files {
        let dir = f.parent().unwrap().to_path_buf();
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        if stem == "mod" || stem == "lib" || stem == "main" {
            continue;
        }
        let siblings: BTreeSet<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter_map(|p| {
                let s = p.file_stem()?.to_string_lossy().into_owned();
                (p.is_dir() || p.extension().is_some_and(|x| x == "rs")).then_some(s)
            })
            .filter(|s| s != "mod" && *s != stem)
            .collect();
        let text = code(&std::fs::read_to_string(f).unwrap());
        let mut used: BTreeSet<String> = names_after(&text, "super::")
            .into_iter()
            .filter(|n| siblings.contains(n))
            .collect();
        if dir != src() {
            let rel = dir
                .strip_prefix(src())
                .unwrap()
                .to_string_lossy()
                .replace('/', "::");
            used.extend(
                names_after(&text, &format!("crate::{rel}::"))
                    .into_iter()
                    .filter(|n| siblings.contains(n)),
            );
        } else {
            used.extend(
                names_after(&text, "crate::")
                    .into_iter()
                    .filter(|n| siblings.contains(n)),
            );
        }
        graphs.entry(dir).or_default().insert(stem, used);
    }
    let mut cycles = Vec::new();
    for (dir, g) in &graphs {
        // Depth-first search for a back edge.
        fn visit(
            n: &str,
            g: &BTreeMap<String, BTreeSet<String>>,
            state: &mut BTreeMap<String, u8>,
            path: &mut Vec<String>,
            found: &mut Vec<String>,
        ) {
            state.insert(n.to_string(), 1);
            path.push(n.to_string());
            for m in g.get(n).into_iter().flatten() {
                match state.get(m.as_str()).copied().unwrap_or(0) {
                    0 => visit(m, g, state, path, found),
                    1 => {
                        let from = path.iter().position(|p| p == m).unwrap_or(0);
                        found.push(format!("{} → {m}", path[from..].join(" → ")));
                    }
                    _ => {}
                }
            }
            path.pop();
            state.insert(n.to_string(), 2);
        }
        let mut state = BTreeMap::new();
        for n in g.keys() {
            if state.get(n.as_str()).copied().unwrap_or(0) == 0 {
                let mut found = Vec::new();
                visit(n, g, &mut state, &mut Vec::new(), &mut found);
                for c in found {
                    cycles.push(format!("{}: {c}", dir.display()));
                }
            }
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_checker_sees_imports_in_every_form() {
    let text = "use crate::{facts::HostFacts, rules};\nuse crate::bundle::Limits;\n// crate::report in prose\nlet x = super::score::f();";
    let c = code(text);
    assert_eq!(
        names_after(&c, "crate::"),
        ["bundle", "facts", "rules"].map(String::from).into()
    );
    assert_eq!(names_after(&c, "super::"), ["score".to_string()].into());
}
