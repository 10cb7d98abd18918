//! The rule registry on the terminal: `rca rules` (one line per rule) and `rca explain ID` (one
//! rule's whole reference).
//!
//! In: the registry ([`RULES`]) and, for `explain`, a rule id and a width in columns. Out:
//! [`Styled`] text for [`crate::console::out_styled`], or JSON. `explain` shows the rule's section
//! of `docs/rules.md` ([`reference::rule_markdown`], the same generator, links relative to the
//! repository root) lightly rendered: headings and the bold labels kept as tones, paragraphs
//! wrapped to the width, links written `text <address>`, and the thresholds table as one block
//! per threshold (name and value, then its meaning and sources indented), since a four-column
//! table does not fit a terminal.

use super::reference;
use crate::console::{Styled, Tone};
use crate::rules::{RuleMeta, RULES};
use regex::Regex;
use serde::Serialize;
use std::fmt::Write as _;
use std::sync::LazyLock;

/// The rule with this id, compared without regard to case.
pub fn find(id: &str) -> Option<&'static RuleMeta> {
    RULES
        .iter()
        .map(|r| r.meta)
        .find(|m| m.id.eq_ignore_ascii_case(id.trim()))
}

/// Up to `n` rule ids nearest to `id`, nearest first: ids that hold it (`disk` → `disk.*`) come
/// first, then by Jaro–Winkler similarity of the whole id or of its part after the area
/// (`saturaton` → `disk.saturation`), ids under 0.7 left out.
pub fn nearest(id: &str, n: usize) -> Vec<&'static str> {
    let q = id.trim().to_ascii_lowercase();
    let mut scored: Vec<(f64, &'static str)> = RULES
        .iter()
        .map(|r| r.meta.id)
        .map(|cand| {
            let tail = cand.split_once('.').map_or(cand, |(_, t)| t);
            let sim = strsim::jaro_winkler(&q, cand).max(strsim::jaro_winkler(&q, tail));
            let holds = !q.is_empty() && cand.contains(q.as_str());
            (if holds { 1.0 + sim } else { sim }, cand)
        })
        .filter(|(s, _)| *s >= 0.7)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(n).map(|(_, c)| c).collect()
}

/// `rca rules`: a line per rule, in the registry's order, with aligned columns: id, area,
/// default severity (in its colour), title.
pub fn list() -> Styled {
    let metas: Vec<&RuleMeta> = RULES.iter().map(|r| r.meta).collect();
    let w_id = metas.iter().map(|m| m.id.len()).max().unwrap_or(0);
    let w_area = metas
        .iter()
        .map(|m| m.area.label().len())
        .max()
        .unwrap_or(0);
    let w_sev = "severity".len().max(
        metas
            .iter()
            .map(|m| m.severity.label().len())
            .max()
            .unwrap_or(0),
    );
    let mut s = Styled::new();
    s.paint(
        Tone::Strong,
        &format!(
            "{:<w_id$}  {:<w_area$}  {:<w_sev$}  title",
            "id", "area", "severity"
        ),
    );
    s.paint(Tone::Plain, "\n");
    for m in metas {
        let _ = write!(s, "{:<w_id$}  {:<w_area$}  ", m.id, m.area.label());
        let sev = m.severity.label();
        s.paint(Tone::of_severity(sev), sev);
        let _ = writeln!(s, "{:pad$}  {}", "", m.title, pad = w_sev - sev.len());
    }
    let _ = writeln!(
        s,
        "{} rules; `rca explain ID` shows one in full",
        RULES.len()
    );
    s
}

/// One rule in `rca rules --json`.
#[derive(Debug, Serialize)]
pub struct RuleLine {
    /// Stable identifier (`disk.saturation`).
    pub id: &'static str,
    /// Area (`disk`).
    pub area: &'static str,
    /// Default severity (`warning`).
    pub severity: &'static str,
    /// Short title.
    pub title: &'static str,
    /// One line: when it fires.
    pub fires_when: &'static str,
}

/// `rca rules --json`: an array of [`RuleLine`], in the registry's order.
pub fn list_json() -> String {
    let lines: Vec<RuleLine> = RULES
        .iter()
        .map(|r| RuleLine {
            id: r.meta.id,
            area: r.meta.area.label(),
            severity: r.meta.severity.label(),
            title: r.meta.title,
            fires_when: r.meta.fires_when,
        })
        .collect();
    serde_json::to_string_pretty(&lines).expect("the rule list serialises") + "\n"
}

static LINK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\[([^\]]*)\]\(([^)\s]*)\)").expect("valid"));
static ITALIC: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\*([^*]+)\*").expect("valid"));

/// Markdown links as `text <address>`.
fn unlink(s: &str) -> String {
    LINK.replace_all(s, "$1 <$2>").into_owned()
}

/// The cells of a Markdown table row (`| a | b \| c |` → `a`, `b | c`).
fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut out = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                chars.next();
                out.last_mut().expect("one cell").push('|');
            }
            '|' => out.push(String::new()),
            c => out.last_mut().expect("one cell").push(c),
        }
    }
    out.into_iter().map(|c| c.trim().to_string()).collect()
}

/// `text` wrapped to `width` with every line indented by `indent` spaces, a newline after each.
fn wrapped(text: &str, indent: usize, width: usize) -> String {
    let pad = " ".repeat(indent);
    // Long words (addresses) are kept whole, on a line of their own, and words are never split
    // at their hyphens (`sample-bundles/s1-hadoop-vmware`, `request-weighted`).
    let opts = textwrap::Options::new(width.max(indent + 20))
        .initial_indent(&pad)
        .subsequent_indent(&pad)
        .break_words(false)
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    let mut out = String::new();
    for line in textwrap::wrap(text, opts) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Appends a paragraph: a leading bold label (`**Remedy.** …`) in [`Tone::Strong`], the rest
/// plain, wrapped to `width`.
fn paragraph(out: &mut Styled, text: &str, width: usize) {
    let (label, rest) = match text.strip_prefix("**").and_then(|t| t.split_once("**")) {
        Some((label, rest)) => (label, rest),
        None => ("", text),
    };
    let text = unlink(&format!("{label}{rest}")).replace("\\|", "|");
    let w = wrapped(&text, 0, width);
    match w.strip_prefix(label).filter(|_| !label.is_empty()) {
        Some(after) => {
            out.paint(Tone::Strong, label);
            out.paint(Tone::Plain, after);
        }
        None => {
            out.paint(Tone::Plain, &w);
        }
    }
}

/// Appends the thresholds table: one block per row.
fn thresholds(out: &mut Styled, rows: &[&str], width: usize) {
    out.paint(Tone::Strong, "Thresholds.");
    out.paint(Tone::Plain, "\n");
    // The header row and the separator row come first.
    for row in rows.iter().skip(2) {
        let c = cells(row);
        let [name, value, meaning, sources] = [0, 1, 2, 3].map(|i| c.get(i).map_or("", |s| s));
        out.paint(Tone::Plain, "  • ");
        out.paint(Tone::Strong, name);
        out.paint(Tone::Plain, &format!(": {value}\n"));
        out.paint(Tone::Plain, &wrapped(meaning, 4, width));
        let sources = ITALIC.replace_all(&unlink(sources), "$1").into_owned();
        out.paint(
            Tone::Dim,
            &wrapped(&format!("sources: {sources}"), 4, width),
        );
    }
}

/// `rca explain`: the rule's reference for a terminal `width` columns wide.
pub fn explain(m: &RuleMeta, width: usize) -> Styled {
    let md = reference::rule_markdown(m, "");
    let mut out = Styled::new();
    for block in md.split("\n\n").filter(|b| !b.trim().is_empty()) {
        if let Some(h) = block.strip_prefix("## ") {
            out.paint(Tone::Strong, &h.replace('`', ""));
            out.paint(Tone::Plain, "\n\n");
            continue;
        }
        let lines: Vec<&str> = block.lines().collect();
        if lines.first().is_some_and(|l| l.starts_with('|')) {
            thresholds(&mut out, &lines, width);
        } else {
            paragraph(&mut out, &lines.join(" "), width);
        }
        out.paint(Tone::Plain, "\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_listed_once_with_aligned_columns() {
        let text = list().to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), RULES.len() + 2, "{text}");
        assert!(lines[0].starts_with("id ") && lines[0].ends_with("title"));
        let title_col = lines[0].find("title").unwrap();
        for (r, line) in RULES.iter().zip(&lines[1..]) {
            let m = r.meta;
            assert!(line.starts_with(&format!("{} ", m.id)), "{line}");
            // Columns line up: the title starts where the header's does.
            assert_eq!(line.get(title_col..), Some(m.title), "{line}");
            assert!(line.contains(&format!(" {} ", m.area.label())), "{line}");
        }
        let disk = lines
            .iter()
            .find(|l| l.starts_with("disk.saturation "))
            .unwrap();
        assert!(
            disk.contains(" disk ") && disk.contains(" warning "),
            "{disk}"
        );
    }

    #[test]
    fn severities_are_painted_in_their_tones() {
        let s = list();
        let tone_of = |word: &str| {
            s.spans()
                .iter()
                .find(|(_, t)| t == word)
                .map(|(tone, _)| *tone)
        };
        assert_eq!(tone_of("critical"), Some(Tone::Critical));
        assert_eq!(tone_of("warning"), Some(Tone::Warning));
        // Without colour, the rendered text is the plain text.
        assert_eq!(s.render(false), s.to_string());
        assert!(
            s.render(true).contains("\u{1b}[31m"),
            "{:?}",
            s.render(true)
        );
    }

    #[test]
    fn the_json_list_names_every_rule() {
        let v: serde_json::Value = serde_json::from_str(&list_json()).unwrap();
        let a = v.as_array().unwrap();
        assert_eq!(a.len(), RULES.len());
        assert_eq!(a[0]["id"], RULES[0].meta.id);
        assert_eq!(a[0]["area"], RULES[0].meta.area.label());
        assert_eq!(a[0]["title"], RULES[0].meta.title);
    }

    #[test]
    fn ids_are_found_without_regard_to_case() {
        assert_eq!(
            find("Disk.Saturation").map(|m| m.id),
            Some("disk.saturation")
        );
        assert!(find("disk.saturaton").is_none());
    }

    #[test]
    fn an_unknown_id_has_its_nearest_ids() {
        assert_eq!(nearest("disk.saturaton", 3)[0], "disk.saturation");
        assert_eq!(nearest("saturation", 3)[0], "disk.saturation");
        let disk = nearest("disk", 10);
        assert!(
            disk.iter().filter(|i| i.starts_with("disk.")).count() >= 2,
            "{disk:?}"
        );
        assert!(nearest("qqqqqqqqqqqqqqqqqqqq", 3).is_empty());
    }

    #[test]
    fn markdown_tables_split_on_unescaped_bars() {
        assert_eq!(cells("| a | b \\| c | d |"), ["a", "b | c", "d"]);
        assert_eq!(
            unlink("see [case S1](sample-bundles/s1/README.md)."),
            "see case S1 <sample-bundles/s1/README.md>."
        );
    }

    #[test]
    fn explain_shows_the_whole_reference_wrapped() {
        let m = find("disk.saturation").unwrap();
        let s = explain(m, 80);
        let text = s.to_string();
        // The text with its line breaks as blanks, to find phrases wrapped over two lines.
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for part in [
            "disk.saturation — ",
            m.title,
            "What it checks.",
            "Why it matters.",
            "Evidence.",
            "Thresholds.",
            "• await: 20 ms",
            "Known false positives.",
            "Remedy.",
            "sources: Brendan Gregg, Systems Performance, 2nd ed., USE method",
            "case S1 <sample-bundles/s1-hadoop-vmware/README.md>",
            "<analyzer/src/rules/disk/saturation.rs>",
        ] {
            assert!(flat.contains(part), "{part:?} missing:\n{text}");
        }
        for line in text.lines() {
            assert!(
                textwrap::core::display_width(line) <= 80 || !line.trim_start().contains(' '),
                "{line}"
            );
        }
        assert!(!text.contains("**") && !text.contains("](") && !text.contains("|---"));
        // Every word of every paragraph of the reference is shown.
        for word in m
            .checks
            .split_whitespace()
            .chain(m.remedy.split_whitespace())
        {
            assert!(flat.contains(word), "{word:?} missing");
        }
        assert!(s
            .spans()
            .iter()
            .any(|(t, x)| *t == Tone::Strong && x == "Remedy."));
    }

    #[test]
    fn every_rule_explains_without_a_table_left_over() {
        for r in RULES {
            let text = explain(r.meta, 100).to_string();
            assert!(text.starts_with(r.meta.id), "{text}");
            assert_eq!(
                text.matches("  • ").count(),
                r.meta.thresholds.len(),
                "{}",
                r.meta.id
            );
            assert!(!text.contains("| threshold |"), "{text}");
        }
    }
}
