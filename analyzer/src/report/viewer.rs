//! The artifact viewer: each artifact's text, embedded in the page with line numbers and the
//! lines that findings cite highlighted, so a reader can check a finding against its whole
//! source without leaving the report.
//!
//! Embedding is capped so that a huge bundle still gives a page a browser opens at once: at most
//! [`ARTIFACT_BYTES`] of one artifact's text, [`MAX_VIEWS`] artifacts, and [`TOTAL_BYTES`] of
//! the viewer's HTML in all (less when the page's budget, [`super::page::PAGE_BYTES`], has less
//! left once the findings are placed): the escaped text, the line numbers and the markup around
//! each artifact ([`VIEW_MARKUP`] plus its path twice), so that thousands of small files cost
//! what they weigh on the page. Cited artifacts are served first, then those that parsed, then
//! the others of a known kind. An artifact over its cap keeps its cited lines with
//! [`CONTEXT_LINES`] around each, then as many of its first lines as fit; what is left out is
//! marked in the text and said in a note. The HTML of the text is built here (escaped), not by the template engine: it is the
//! bulk of the page and a loop per line in the template would dominate render time.
//!
//! Only the lines a view may embed are read: cited lines are found through the artifact's line
//! index (built once, shared with the findings' excerpts), so a view costs what it embeds, not
//! the size of the artifact — a gigabyte of empty lines included.

use super::Report;
use crate::artifacts::{Outcome, Text};
use minijinja::HtmlEscape;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

/// Most bytes of the viewer's HTML in one page: escaped artifact text, line numbers and the
/// markup around each artifact.
pub const TOTAL_BYTES: usize = 4 * 1024 * 1024;
/// Bytes of the page's markup around one artifact's text, besides its path (written twice):
/// the fold, its summary line, the two columns.
pub const VIEW_MARKUP: usize = 320;
/// Most bytes of one artifact's text embedded.
pub const ARTIFACT_BYTES: usize = 1024 * 1024;
/// Most artifacts whose text one page embeds (cited ones first). Each is a fold the browser
/// builds at load, whatever its size: a thousand keep a page of small files opening in well under
/// a second (`bench/report-scale.sh`).
pub const MAX_VIEWS: usize = 1_000;
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
    /// Bytes of the viewer's HTML: embedded text (escaped), line numbers, and [`VIEW_MARKUP`]
    /// plus the path twice per artifact.
    pub embedded_bytes: usize,
    /// Artifacts whose text was left out or cut because of the caps.
    pub capped: usize,
    /// Artifacts with text but no view: past [`MAX_VIEWS`], or once [`TOTAL_BYTES`] is spent.
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
    // Order of service: cited artifacts in the order findings cite them, ...
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
    // Then the artifacts that parsed (the evidence), then the others of a known kind, then the
    // rest.
    let rank = |a: &crate::artifacts::Artifact| match (&a.outcome, a.kind) {
        (Outcome::Parsed | Outcome::Partial, _) => 0,
        (_, Some(_)) => 1,
        _ => 2,
    };
    let mut rest: Vec<usize> = (0..report.artifacts.len())
        .filter(|i| !queued[*i])
        .collect();
    rest.sort_by_key(|i| rank(&report.artifacts[*i]));
    order.extend(rest);
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
        let markup = VIEW_MARKUP + 2 * a.path.len();
        if made.len() == MAX_VIEWS || left <= markup {
            out.unviewed += 1;
            continue;
        }
        let c = cited.get(a.path.as_str()).unwrap_or(&empty);
        let room = left - markup;
        let mut cap = per_artifact.min(room);
        let mut v = view(i, &a.text, c, cap, cap < per_artifact);
        // Escaping and line numbers make the HTML larger than the text it holds: cut further
        // until it fits the room left.
        while v.html.len() + v.gutter.len() > room {
            let size = v.html.len() + v.gutter.len();
            cap = cap.min(room * cap / size * 9 / 10);
            v = view(i, &a.text, c, cap, true);
        }
        if v.note.is_some() {
            out.capped += 1;
        }
        let used = v.html.len() + v.gutter.len() + markup;
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
fn view(index: usize, text: &Text, cited: &BTreeSet<usize>, cap: usize, page_cap: bool) -> View {
    let n = text.line_count();
    let keep = choose(text, cited, cap);
    let kept = text.lines_at(keep.iter().copied());
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
    for (&l, t) in keep.iter().zip(kept) {
        if l > prev + 1 {
            gap(&mut gutter, &mut html, prev + 1, l - 1);
        }
        let t = clean(t.as_deref().unwrap_or(""));
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
                "{n} line{} not embedded: the page's budget for artifact text is spent (cited artifacts come first).",
                if n == 1 { "" } else { "s" }
            )
        } else {
            "Not embedded: its first line alone is over the size cap.".into()
        })
    } else {
        Some(format!(
            "Cut to fit the page: {embedded_lines} of {n} lines embedded ({}); lines left out are marked ⋮.",
            if page_cap {
                "the page's budget for artifact text is nearly spent".to_string()
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

/// Line numbers (1-based, ascending) to embed within `cap` bytes (each line's text and its
/// newline): all when they fit; else each cited line with its context, then the first lines.
/// Only the lines it may embed are read: the text's line index finds the cited ones.
fn choose(text: &Text, cited: &BTreeSet<usize>, cap: usize) -> Vec<usize> {
    let n = text.line_count();
    if whole_fits(text, cap) {
        return (1..=n).collect();
    }
    let cited: Vec<usize> = cited
        .iter()
        .copied()
        .filter(|c| (1..=n).contains(c))
        .collect();
    // The sizes of the cited lines and of their context, read in one pass.
    let near: BTreeSet<usize> = cited
        .iter()
        .flat_map(|&c| c.saturating_sub(CONTEXT_LINES).max(1)..=(c + CONTEXT_LINES).min(n))
        .collect();
    let size: HashMap<usize, usize> = near
        .iter()
        .copied()
        .zip(text.lines_at(near.iter().copied()))
        .map(|(l, t)| (l, t.map_or(1, |t| t.len() + 1)))
        .collect();
    let size = |l: usize| size.get(&l).copied().unwrap_or(1);
    let mut keep: BTreeSet<usize> = BTreeSet::new();
    let mut used = 0usize;
    let mut take = |l: usize, bytes: usize, keep: &mut BTreeSet<usize>| -> bool {
        if keep.contains(&l) {
            return true;
        }
        if used + bytes > cap {
            return false;
        }
        used += bytes;
        keep.insert(l);
        true
    };
    // Cited lines first, then their context, nearest first.
    for &c in &cited {
        take(c, size(c), &mut keep);
    }
    'context: for d in 1..=CONTEXT_LINES {
        for &c in &cited {
            for l in [c.checked_sub(d), Some(c + d)].into_iter().flatten() {
                if l >= 1 && l <= n && !take(l, size(l), &mut keep) {
                    break 'context;
                }
            }
        }
    }
    // Then the first lines, up to the first that does not fit: lines 1 to `head`, and the
    // cited ones further down.
    let near: Vec<usize> = keep.into_iter().collect();
    let (mut head, mut j) = (0usize, 0usize);
    for (i, line) in text.lines().enumerate() {
        let l = i + 1;
        while near.get(j).is_some_and(|&k| k < l) {
            j += 1;
        }
        if near.get(j) != Some(&l) {
            if used + line.len() + 1 > cap {
                break;
            }
            used += line.len() + 1;
        }
        head = l;
    }
    (1..=head)
        .chain(near.into_iter().filter(|&l| l > head))
        .collect()
}

/// Whether every line of `text` fits in `cap` bytes, each line's text (without its `\r\n`)
/// and a newline: at most the text's length plus one, at least half of it.
fn whole_fits(text: &Text, cap: usize) -> bool {
    if text.len() < cap {
        return true;
    }
    if text.len() > 2 * cap + 1 {
        return false;
    }
    text.lines().map(|l| l.len() + 1).sum::<usize>() <= cap
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
        let v = view(3, &"a\n<b>\nc\n".into(), &cited, 1000, false);
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
        let v = view(0, &text.as_str().into(), &cited, 4096, false);
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
        let v = view(0, &"0123456789\n".into(), &BTreeSet::new(), 4, true);
        assert_eq!(v.embedded_lines, 0);
        assert!(v.html.is_empty());
        assert!(v.note.unwrap().contains("budget"));
    }

    /// A report of `n` unrecognised artifacts, each of `lines` lines of text to escape.
    fn report_of(n: usize, lines: usize) -> Report {
        use crate::report::testkit;
        let text: String = (0..lines).map(|i| format!("<{i}> & \"x\"\n")).collect();
        let text: Text = text.into();
        testkit::report(
            (0..n)
                .map(|i| testkit::unrecognised(&format!("sos_commands/x/file_{i:06}"), &text))
                .collect(),
        )
    }

    #[test]
    fn the_budget_counts_escaping_line_numbers_and_markup() {
        // 3000 files of 2 KiB of text that escaping doubles: the budget, not the view count,
        // is what stops the embedding, and the HTML stays within it.
        let r = report_of(3000, 100);
        let total = 1 << 20;
        let v = build_with(&r, total, ARTIFACT_BYTES);
        let html: usize = v
            .views
            .iter()
            .map(|v| {
                v.html.len() + v.gutter.len() + VIEW_MARKUP + 2 * "sos_commands/x/file_000000".len()
            })
            .sum();
        assert_eq!(html, v.embedded_bytes);
        assert!(v.embedded_bytes <= total, "{}", v.embedded_bytes);
        assert!(v.embedded_bytes > total * 9 / 10, "{}", v.embedded_bytes);
        assert!(v.views.len() < MAX_VIEWS, "{}", v.views.len());
        assert_eq!(v.views.len() + v.unviewed, 3000);
        // The last view was cut to fit; the others are whole.
        assert_eq!(v.capped, 1);
        assert!(v.views[..v.views.len() - 1]
            .iter()
            .all(|v| v.embedded_lines == 100));
        // Past MAX_VIEWS, small files are not viewed whatever the budget.
        let v = build_with(&report_of(MAX_VIEWS + 5, 1), TOTAL_BYTES, ARTIFACT_BYTES);
        assert_eq!((v.views.len(), v.unviewed), (MAX_VIEWS, 5));
    }

    #[test]
    fn control_characters_are_replaced() {
        let v = view(
            0,
            &"a\u{1b}[31mb\u{0}\tc\r\n".into(),
            &BTreeSet::new(),
            100,
            false,
        );
        assert_eq!(v.html, "a\u{fffd}[31mb\u{fffd}\tc\n");
    }
}
