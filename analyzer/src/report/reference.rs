//! The rule reference, rendered from the registry's metadata: the report page's appendix, the
//! README's rule table and `docs/rules.md`.
//!
//! The page cites sources by name (document and section, `case S1`); it names no URL. The
//! Markdown links each source to its address and each case to its sample bundle. Tests here fail
//! when the README's table or `docs/rules.md` differ from what the registry renders;
//! `RCA_BLESS=1 cargo test -p rca rule_reference` rewrites them.

use crate::facts::Fact;
use crate::rules::{Limit, RuleMeta, Source, Threshold, RULES};
use minijinja::{context, Value};

/// First line of the README's generated rule table.
pub const README_BEGIN: &str = "<!-- rule table: generated from the rule registry by \
                                `RCA_BLESS=1 cargo test -p rca rule_reference` -->";
/// Line after it.
pub const README_END: &str = "<!-- end of the generated rule table -->";

/// Every rule's metadata as the page's templates read it.
pub fn page_docs() -> Vec<Value> {
    RULES.iter().map(|r| page_doc(r.meta)).collect()
}

fn page_doc(m: &RuleMeta) -> Value {
    let facts = |v: &[Fact]| -> Vec<Value> {
        v.iter()
            .map(|f| context! { name => f.name(), what => f.describe() })
            .collect()
    };
    let thresholds: Vec<Value> = m
        .thresholds
        .iter()
        .map(|t| {
            context! {
                name => t.name,
                value => value_text(t),
                meaning => t.meaning,
                sources => t.sources.iter().map(Source::citation).collect::<Vec<_>>(),
            }
        })
        .collect();
    context! {
        id => m.id,
        title => m.title,
        area => m.area.label(),
        severity => m.severity.label(),
        needs => facts(m.needs),
        reads => facts(m.reads),
        thresholds => thresholds,
        groups => m.groups.iter().map(|g| g.label()).collect::<Vec<_>>(),
        explains => m.explains,
        checks => m.checks,
        why => m.why,
        false_positives => m.false_positives,
        remedy => m.remedy,
    }
}

/// `20 ms`, `one of e1000, e1000e`, `any`.
fn value_text(t: &Threshold) -> String {
    match (t.value, t.unit) {
        (_, "") => t.value.to_string(),
        (Limit::Any, _) => "any".to_string(),
        (v, u) if u.starts_with('/') => format!("{v}{u}"),
        (v, u) => format!("{v} {u}"),
    }
}

/// The bundle-relative path of a rule's source file (`analyzer/src/rules/disk/saturation.rs`).
fn source_path(m: &RuleMeta) -> String {
    let file = m.file.replace('\\', "/");
    match file.find("src/rules/").and_then(|i| file.get(i..)) {
        Some(rel) => format!("analyzer/{rel}"),
        None => file,
    }
}

/// A Markdown table cell: no line breaks, `|` escaped.
fn cell(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// The README's rule table, markers included.
pub fn readme_table() -> String {
    let mut out = format!("{README_BEGIN}\n| rule | fires when |\n|---|---|\n");
    for r in RULES {
        out.push_str(&format!(
            "| `{}` | {} |\n",
            r.meta.id,
            cell(r.meta.fires_when)
        ));
    }
    out.push_str(README_END);
    out.push('\n');
    out
}

/// A source in Markdown, linked when it has an address (`prefix` leads from the document's
/// folder to the repository root).
fn source_markdown(s: &Source, prefix: &str) -> String {
    let text = cell(&s.citation());
    match (s, s.address()) {
        (Source::Rca(_), _) => format!("*{text}*"),
        (Source::Case(_), Some(a)) => format!("[{text}]({prefix}{a})"),
        (_, Some(a)) => format!("[{text}]({a})"),
        (_, None) => text,
    }
}

/// `docs/rules.md`: every rule's full reference.
pub fn markdown() -> String {
    let mut out = String::from(
        "# Rule reference\n\n\
         Generated from the rule registry (`analyzer/src/rules/`) by \
         `RCA_BLESS=1 cargo test -p rca rule_reference`; a test fails when this file is out of \
         date. The report's appendix shows the same.\n\n",
    );
    for r in RULES {
        out.push_str(&rule_markdown(r.meta, "../"));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// One rule's section of `docs/rules.md`, ending with a blank line: the heading (id and title),
/// area, default severity, symptom groups and source file, when it fires, what it checks, why it
/// matters, its evidence, the thresholds table with their sources, the rules it may explain,
/// known false positives and the remedy. `prefix` leads from the reader's folder to the
/// repository root (`../` from `docs/`, empty from the root); it prefixes the source file's and
/// the sample bundles' links. `rca explain` shows the same text.
pub fn rule_markdown(m: &RuleMeta, prefix: &str) -> String {
    let mut out = format!("## `{}` — {}\n\n", m.id, m.title);
    out.push_str(&format!(
        "Area `{}` · default severity {} · symptom groups: {} · [source]({prefix}{})\n\n",
        m.area,
        m.severity.label(),
        m.groups
            .iter()
            .map(|g| g.label())
            .collect::<Vec<_>>()
            .join(", "),
        source_path(m)
    ));
    out.push_str(&format!("**Fires when** {}.\n\n", cell(m.fires_when)));
    out.push_str(&format!("**What it checks.** {}\n\n", cell(m.checks)));
    out.push_str(&format!("**Why it matters.** {}\n\n", cell(m.why)));
    let facts = |v: &[Fact]| {
        v.iter()
            .map(|f| format!("`{}`: {}", f.name(), f.describe()))
            .collect::<Vec<_>>()
            .join("; ")
    };
    out.push_str(&format!("**Evidence.** Needs {}", facts(m.needs)));
    if !m.reads.is_empty() {
        out.push_str(&format!("; also reads {}", facts(m.reads)));
    }
    out.push_str(".\n\n");
    out.push_str("| threshold | value | meaning | sources |\n|---|---|---|---|\n");
    for t in m.thresholds {
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            cell(t.name),
            cell(&value_text(t)),
            cell(t.meaning),
            t.sources
                .iter()
                .map(|s| source_markdown(s, prefix))
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    out.push('\n');
    if !m.explains.is_empty() {
        out.push_str(&format!(
            "**May explain** {}.\n\n",
            m.explains
                .iter()
                .map(|e| format!("`{e}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    out.push_str(&format!(
        "**Known false positives.** {}\n\n",
        cell(m.false_positives)
    ));
    out.push_str(&format!("**Remedy.** {}\n\n", cell(m.remedy)));
    out
}

#[cfg(test)]
mod rule_reference {
    use super::*;
    use std::path::PathBuf;

    fn repo() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap()
            .to_path_buf()
    }

    fn bless() -> bool {
        std::env::var("RCA_BLESS").is_ok_and(|v| v == "1")
    }

    #[test]
    fn the_readme_table_is_the_registry() {
        let path = repo().join("README.md");
        let text = std::fs::read_to_string(&path).unwrap();
        let (Some(a), Some(b)) = (text.find(README_BEGIN), text.find(README_END)) else {
            panic!(
                "README.md has no generated rule table (markers `{README_BEGIN}` … `{README_END}`)"
            );
        };
        let b = b + README_END.len() + usize::from(text[b + README_END.len()..].starts_with('\n'));
        let want = readme_table();
        if text[a..b] != want {
            if bless() {
                std::fs::write(&path, format!("{}{want}{}", &text[..a], &text[b..])).unwrap();
            } else {
                panic!(
                    "README.md's rule table differs from the registry; run \
                     `RCA_BLESS=1 cargo test -p rca rule_reference` and commit the result"
                );
            }
        }
    }

    #[test]
    fn docs_rules_md_is_the_registry() {
        let path = repo().join("docs/rules.md");
        let want = markdown();
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        if have != want {
            if bless() {
                std::fs::write(&path, want).unwrap();
            } else {
                panic!(
                    "docs/rules.md differs from the registry; run \
                     `RCA_BLESS=1 cargo test -p rca rule_reference` and commit the result"
                );
            }
        }
    }

    #[test]
    fn values_read_with_their_units() {
        let t = |value, unit| Threshold {
            name: "x",
            value,
            unit,
            meaning: "",
            sources: &[],
        };
        assert_eq!(value_text(&t(Limit::Num(20.0), "ms")), "20 ms");
        assert_eq!(value_text(&t(Limit::Num(1.0), "/s")), "1/s");
        assert_eq!(value_text(&t(Limit::Num(50.0), "%")), "50 %");
        assert_eq!(
            value_text(&t(Limit::Num(0.25), "× its maximum")),
            "0.25 × its maximum"
        );
        assert_eq!(value_text(&t(Limit::Any, "")), "any");
        assert_eq!(value_text(&t(Limit::Num(0.8), "")), "0.8");
    }
}
