//! The artifact viewer: each artifact's text, embedded in the page with line numbers and the
//! lines that findings cite highlighted, so a reader can check a finding against its whole
//! source without leaving the report.
//!
//! Embedding is capped so that a huge bundle still gives a page a browser opens at once: at most
//! [`ARTIFACT_BYTES`] of one artifact and [`TOTAL_BYTES`] in all. Cited artifacts are served
//! first. An artifact over its cap keeps its cited lines with [`CONTEXT_LINES`] around each,
//! then as many of its first lines as fit; what is left out is marked in the text and said in
//! a note. The HTML of the text is built here (escaped), not by the template engine: it is the
//! bulk of the page and a loop per line in the template would dominate render time.

use super::Report;
use minijinja::HtmlEscape;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Most bytes of artifact text embedded in one page.
pub const TOTAL_BYTES: usize = 5 * 1024 * 1024;
/// Most bytes of one artifact's text embedded.
pub const ARTIFACT_BYTES: usize = 1024 * 1024;
/// Most artifacts whose text one page embeds (cited ones first); the coverage table still lists
/// every artifact.
pub const MAX_VIEWS: usize = 2_000;
/// Lines kept before and after each cited line of a capped artifact.
pub const CONTEXT_LINES: usize = 20;

/// One artifact's embedded text.
#[derive(Debug, Clone)]
pub struct View {
    /// Index of the artifact in the report.
    pub index: usize,
    /// Lines in the artifact.
    pub lines: usize,
    /// Lines embedded.
    pub embedded_lines: usize,
    /// Lines cited by findings.
    pub cited: BTreeSet<usize>,
    /// Why some or all of the text is left out.
    pub note: Option<String>,
    /// Line-number column, HTML.
    pub gutter: String,
    /// The text, HTML-escaped, cited lines wrapped in `<mark id="a{index}-L{line}">`.
    pub html: String,
}

/// The viewer of every artifact with text, by artifact index.
#[derive(Debug, Default)]
pub struct Views {
    /// One per artifact with text, in artifact order.
    pub views: Vec<View>,
    /// Bytes of artifact text embedded.
    pub embedded_bytes: usize,
    /// Artifacts whose text was left out or cut because of the caps.
    pub capped: usize,
    /// Artifacts with text but no view, past [`MAX_VIEWS`].
    pub unviewed: usize,
}

/// Lines cited by findings, per artifact path.
pub fn cited_lines(report: &Report) -> BTreeMap<&str, BTreeSet<usize>> {
    let mut m: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
    for f in &report.findings {
        for e in &f.evidence {
            m.entry(e.artifact.as_str())
                .or_default()
                .extend(e.lines.iter().copied().filter(|l| *l > 0));
        }
    }
    m
}

/// Builds the views within [`TOTAL_BYTES`], cited artifacts first.
pub fn build(report: &Report) -> Views {
    build_with(report, TOTAL_BYTES, ARTIFACT_BYTES)
}

/// [`build`] with explicit caps (tests).
pub fn build_with(report: &Report, total: usize, per_artifact: usize) -> Views {
    let cited = cited_lines(report);
    // Order of service: cited artifacts in the order findings cite them, then the rest.
    let index: std::collections::HashMap<&str, usize> = report
        .artifacts
        .iter()
        .enumerate()
        .map(|(i, a)| (a.path.as_str(), i))
        .collect();
    let mut queued = vec![false; report.artifacts.len()];
    let mut order: Vec<usize> = Vec::with_capacity(report.artifacts.len());
    for f in &report.findings {
        for e in &f.evidence {
            if let Some(&i) = index.get(e.artifact.as_str()) {
                if !queued[i] {
                    queued[i] = true;
                    order.push(i);
                }
            }
        }
    }
    order.extend((0..report.artifacts.len()).filter(|i| !queued[*i]));
    let mut out = Views::default();
    let mut left = total;
    let mut made: Vec<View> = Vec::new();
    let empty = BTreeSet::new();
    for i in order {
        let a = &report.artifacts[i];
        // An artifact parsed while read (a large `perf script`) kept only its cited lines: the
        // findings' excerpts show them; there is no whole text to view.
        if a.text.is_empty() || a.kept_lines.is_some() {
            continue;
        }
        if made.len() == MAX_VIEWS {
            out.unviewed += 1;
            continue;
        }
        let c = cited.get(a.path.as_str()).unwrap_or(&empty);
        let cap = per_artifact.min(left);
        let v = view(i, &a.text, c, cap, cap < per_artifact);
        if v.note.is_some() {
            out.capped += 1;
        }
        let used = v.html.len().min(a.text.len());
        left = left.saturating_sub(used);
        out.embedded_bytes += used;
        made.push(v);
    }
    made.sort_by_key(|v| v.index);
    out.views = made;
    out
}

/// The view of one text, within `cap` bytes of text; `page_cap` says the cap is the page's
/// remaining budget rather than the per-artifact one (for the note).
fn view(index: usize, text: &str, cited: &BTreeSet<usize>, cap: usize, page_cap: bool) -> View {
    let lines: Vec<&str> = text.lines().collect();
    let n = lines.len();
    let keep = choose(&lines, cited, cap);
    let embedded_lines = keep.len();
    let mut gutter = String::with_capacity(embedded_lines * 6);
    let mut html = String::with_capacity(text.len().min(cap) + cited.len() * 32 + 64);
    let mut prev = 0usize;
    let gap = |gutter: &mut String, html: &mut String, from: usize, to: usize| {
        gutter.push_str("⋮\n");
        let _ = writeln!(
            html,
            "<span class=\"gap\">… line{} {} not embedded …</span>",
            if from == to { "" } else { "s" },
            if from == to {
                from.to_string()
            } else {
                format!("{from}–{to}")
            }
        );
    };
    for &l in &keep {
        if l > prev + 1 {
            gap(&mut gutter, &mut html, prev + 1, l - 1);
        }
        let t = clean(lines[l - 1]);
        if cited.contains(&l) {
            let _ = writeln!(gutter, "<b>{l}</b>");
            let _ = writeln!(html, "<mark id=\"a{index}-L{l}\">{}</mark>", HtmlEscape(&t));
        } else {
            let _ = writeln!(gutter, "{l}");
            let _ = writeln!(html, "{}", HtmlEscape(&t));
        }
        prev = l;
    }
    if prev < n && !keep.is_empty() {
        gap(&mut gutter, &mut html, prev + 1, n);
    }
    let note = if embedded_lines == n {
        None
    } else if embedded_lines == 0 {
        Some(if page_cap {
            format!(
                "Not embedded: the page's {} MiB budget for artifact text is spent (cited artifacts come first).",
                TOTAL_BYTES >> 20
            )
        } else {
            "Not embedded: its first line alone is over the size cap.".into()
        })
    } else {
        Some(format!(
            "Cut to fit the page: {embedded_lines} of {n} lines embedded ({}); lines left out are marked ⋮.",
            if page_cap {
                format!(
                    "the page's {} MiB budget for artifact text is nearly spent",
                    TOTAL_BYTES >> 20
                )
            } else {
                format!(
                    "at most {} KiB of one artifact, cited lines with {CONTEXT_LINES} lines around each first",
                    ARTIFACT_BYTES >> 10
                )
            }
        ))
    };
    View {
        index,
        lines: n,
        embedded_lines,
        cited: cited
            .iter()
            .copied()
            .filter(|l| keep.binary_search(l).is_ok())
            .collect(),
        note,
        gutter,
        html,
    }
}

/// Line numbers (1-based, ascending) to embed within `cap` bytes: all when they fit; else each
/// cited line with its context, then the first lines.
fn choose(lines: &[&str], cited: &BTreeSet<usize>, cap: usize) -> Vec<usize> {
    let n = lines.len();
    let size = |l: usize| lines[l - 1].len() + 1;
    let total: usize = lines.iter().map(|l| l.len() + 1).sum();
    if total <= cap {
        return (1..=n).collect();
    }
    let mut keep: BTreeSet<usize> = BTreeSet::new();
    let mut used = 0usize;
    let mut take = |l: usize, keep: &mut BTreeSet<usize>| -> bool {
        if keep.contains(&l) {
            return true;
        }
        if used + size(l) > cap {
            return false;
        }
        used += size(l);
        keep.insert(l);
        true
    };
    // Cited lines first, then their context, nearest first.
    for &c in cited.iter().filter(|c| **c <= n) {
        take(c, &mut keep);
    }
    'context: for d in 1..=CONTEXT_LINES {
        for &c in cited.iter().filter(|c| **c <= n) {
            for l in [c.checked_sub(d), Some(c + d)].into_iter().flatten() {
                if l >= 1 && l <= n && !take(l, &mut keep) {
                    break 'context;
                }
            }
        }
    }
    for l in 1..=n {
        if !take(l, &mut keep) {
            break;
        }
    }
    keep.into_iter().collect()
}

/// The line without its `\r` and with control characters (but tab) shown as U+FFFD.
fn clean(line: &str) -> std::borrow::Cow<'_, str> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.chars().any(|c| c.is_control() && c != '\t') {
        line.chars()
            .map(|c| {
                if c.is_control() && c != '\t' {
                    '\u{fffd}'
                } else {
                    c
                }
            })
            .collect::<String>()
            .into()
    } else {
        line.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_text_is_embedded_whole_with_cited_lines_marked() {
        let cited = BTreeSet::from([2]);
        let v = view(3, "a\n<b>\nc\n", &cited, 1000, false);
        assert_eq!(v.lines, 3);
        assert_eq!(v.embedded_lines, 3);
        assert!(v.note.is_none());
        assert_eq!(v.gutter, "1\n<b>2</b>\n3\n");
        assert_eq!(v.html, "a\n<mark id=\"a3-L2\">&lt;b&gt;</mark>\nc\n");
    }

    #[test]
    fn capped_text_keeps_cited_lines_and_context_then_the_head() {
        let text: String = (1..=100_000).map(|i| format!("line {i}\n")).collect();
        let cited = BTreeSet::from([50_000]);
        let v = view(0, &text, &cited, 4096, false);
        assert!(v.embedded_lines < 100_000 && v.embedded_lines > 100);
        assert!(v.html.contains("<mark id=\"a0-L50000\">line 50000</mark>"));
        assert!(v.html.contains("line 49980\n") && v.html.contains("line 50020\n"));
        assert!(v.html.starts_with("line 1\n"));
        assert!(v.html.contains("not embedded"));
        assert!(v.note.as_deref().unwrap().contains("of 100000 lines"));
        assert!(v.html.len() < 4096 + 200 + 64 * 3);
    }

    #[test]
    fn nothing_fits_nothing_embedded() {
        let v = view(0, "0123456789\n", &BTreeSet::new(), 4, true);
        assert_eq!(v.embedded_lines, 0);
        assert!(v.html.is_empty());
        assert!(v.note.unwrap().contains("budget"));
    }

    #[test]
    fn control_characters_are_replaced() {
        let v = view(0, "a\u{1b}[31mb\u{0}\tc\r\n", &BTreeSet::new(), 100, false);
        assert_eq!(v.html, "a\u{fffd}[31mb\u{fffd}\tc\n");
    }
}
