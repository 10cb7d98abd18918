//! The report page's byte budget, and the findings section built within it.
//!
//! In: the [`Report`], the page rendered once without findings and artifact text (its fixed
//! part: header, summary, charts, flame graphs, rules, coverage, appendix), and the finding
//! cards rendered without excerpts. Out: [`Placed`]: which findings get a full card, which
//! excerpt lines each card embeds (HTML, escaped here), which findings only get a one-line
//! entry, and the bytes left for the artifact viewer ([`super::viewer`]).
//!
//! The whole page stays within [`PAGE_BYTES`], whatever the bundle: findings are placed in rank
//! order, so the most important findings' evidence is embedded first; an excerpt past the budget
//! is cut at a line and ends with "N more lines not embedded (see PATH)"; a finding whose card
//! no longer fits in [`CARD_SHARE_PCT`] of the findings' bytes gets a one-line entry (its rank,
//! severity, title and citation), and past those, one sentence counts the findings left for the
//! JSON document. The artifact viewer gets
//! what the findings leave, at least [`VIEWER_RESERVE`] when the fixed part leaves that much.

use super::Report;
use crate::evidence::{Evidence, ExcerptLine};
use minijinja::HtmlEscape;
use std::fmt::Write as _;

/// Most bytes of one report page (HTML, UTF-8). The product's target is a page under 5 MB
/// (5 000 000 bytes) that a browser opens in under 2 s; 10 % is left below it as a margin.
pub const PAGE_BYTES: usize = 4_500_000;
/// Bytes kept for the artifact viewer before findings are placed, when the fixed part of the
/// page leaves that much: a reader can still open the cited artifacts of a bundle with
/// thousands of findings.
pub const VIEWER_RESERVE: usize = 512 * 1024;
/// Share of the findings' bytes (%) that full cards may take; the rest lists the findings past
/// them one line each, so that a bundle with thousands of findings still shows every title it
/// can.
pub const CARD_SHARE_PCT: usize = 65;
/// Bytes counted for each evidence link into the viewer, which is built after the findings are
/// placed (an evidence citing an artifact the page may view gets two links of at most this
/// length together, markup included).
pub const LINK_BYTES: usize = 160;

/// What the findings section embeds.
#[derive(Debug, Default)]
pub struct Placed {
    /// Ranks (0-based) of the findings with a full card, each with one HTML excerpt per
    /// evidence (escaped, possibly cut with its note).
    pub cards: Vec<(usize, Vec<String>)>,
    /// One-line entries of the findings past the cards, HTML, in rank order.
    pub entries: Vec<String>,
    /// Findings on neither (counted in one sentence).
    pub left_out: usize,
    /// Excerpt lines not embedded (cut excerpts and those of findings without a card).
    pub lines_left_out: usize,
    /// Bytes the findings section takes, links into the viewer counted at [`LINK_BYTES`].
    pub bytes: usize,
}

/// Places the findings of `report` within `budget` bytes, in rank order. `card_bytes[i]` is the
/// size of finding `i`'s card without excerpts and viewer links.
pub fn place(report: &Report, card_bytes: &[usize], budget: usize) -> Placed {
    let mut out = Placed::default();
    let mut left = budget;
    // Bytes the cards may leave unspent: the rest of the budget is theirs.
    let for_entries = budget - budget * CARD_SHARE_PCT / 100;
    let mut cards_done = false;
    for (i, f) in report.findings.iter().enumerate() {
        let links = LINK_BYTES * f.evidence.len();
        let base = card_bytes.get(i).copied().unwrap_or(0) + links;
        // Room for each excerpt's "not embedded" note, so that a card always says what it
        // leaves out.
        let notes: Vec<usize> = f.evidence.iter().map(note_bytes).collect();
        let mut reserved: usize = notes.iter().sum();
        if !cards_done && base + reserved + for_entries <= left {
            left -= base;
            let mut ex = Vec::with_capacity(f.evidence.len());
            for (e, note) in f.evidence.iter().zip(notes) {
                reserved -= note;
                let (html, cut) = excerpt_html(e, left - reserved - for_entries);
                left -= html.len();
                out.lines_left_out += cut;
                ex.push(html);
            }
            out.cards.push((i, ex));
            continue;
        }
        // The cards stop at the first that does not fit, so that ranks on the page stay in
        // order.
        cards_done = true;
        out.lines_left_out += f.evidence.iter().map(lines_of).sum::<usize>();
        let entry = entry_html(i + 1, f);
        if entry.len() <= left {
            left -= entry.len();
            out.entries.push(entry);
        } else {
            out.left_out += 1;
        }
    }
    out.bytes = budget - left;
    out
}

/// Excerpt lines of `e` (elision marks aside).
fn lines_of(e: &Evidence) -> usize {
    e.excerpt.iter().filter(|l| l.line != 0).count()
}

/// The longest HTML [`excerpt_html`] gives for `e` when none of its lines fit: the excerpt's
/// element with its note alone.
fn note_bytes(e: &Evidence) -> usize {
    note_html(e, lines_of(e)).len() + EXCERPT_MARKUP
}

/// Bytes of an excerpt's element around its lines.
const EXCERPT_MARKUP: usize = "<pre class=\"excerpt\"></pre>".len();

/// "N more lines not embedded (see PATH)", as the last line of a cut excerpt.
fn note_html(e: &Evidence, n: usize) -> String {
    format!(
        "<span class=\"l gap more\">{n} more line{} not embedded (see <code>{}</code>)</span>",
        if n == 1 { "" } else { "s" },
        HtmlEscape(&e.artifact)
    )
}

/// The excerpt of `e` as the page shows it (`<pre class="excerpt">`, one `<span class="l">` per
/// line with its number), within `room` bytes: lines past it are left out and counted in a
/// closing "N more lines not embedded (see PATH)" line. Returns the HTML and the lines left out.
pub fn excerpt_html(e: &Evidence, room: usize) -> (String, usize) {
    const OPEN: &str = "<pre class=\"excerpt\">";
    const CLOSE: &str = "</pre>";
    let total = lines_of(e);
    let mut html = String::from(OPEN);
    let mut shown = 0usize;
    let note = |n: usize| note_html(e, n);
    // Room for the note in its longest form, kept while lines are added.
    let note_room = note(total).len();
    for (k, l) in e.excerpt.iter().enumerate() {
        let line = line_html(l);
        let rest_fits = html.len() + line.len() + CLOSE.len();
        let last = k + 1 == e.excerpt.len();
        // The last line needs no room for a note; the others keep room for one.
        if rest_fits + if last { 0 } else { note_room } > room {
            break;
        }
        html.push_str(&line);
        if l.line != 0 {
            shown += 1;
        }
    }
    let cut = total - shown;
    if cut > 0 {
        html.push_str(&note(cut));
    }
    html.push_str(CLOSE);
    if html.len() > room {
        // Not even the note fits: nothing of this excerpt is embedded.
        return (String::new(), total);
    }
    (html, cut)
}

/// An excerpt as the pages show it, whole: `<pre class="excerpt">` with its lines (the
/// templates' `excerpt_html` function, for excerpts outside the budget: the comparison page's).
pub fn lines_html(lines: &[ExcerptLine]) -> String {
    let mut html = String::from("<pre class=\"excerpt\">");
    for l in lines {
        html.push_str(&line_html(l));
    }
    html.push_str("</pre>");
    html
}

/// One excerpt line; line 0 is an elision.
fn line_html(l: &ExcerptLine) -> String {
    if l.line == 0 {
        let text = if l.text == "…" { "" } else { l.text.as_str() };
        format!(
            "<span class=\"l gap\"><span class=\"n\">⋮</span>{}</span>",
            HtmlEscape(text)
        )
    } else {
        format!(
            "<span class=\"l\"><span class=\"n\">{}</span>{}</span>",
            l.line,
            HtmlEscape(&l.text)
        )
    }
}

/// The one-line entry of finding `n` (1-based rank), for findings past the cards: severity,
/// rank, rule, title and its first citation with the count of lines left out.
fn entry_html(n: usize, f: &crate::rules::Finding) -> String {
    let mut s = format!(
        "<li id=\"finding-{n}\" data-item data-severity=\"{sev}\" data-area=\"{area}\"><span class=\"badge {sev}\">{sev}</span> #{n} <code>{rule}</code> {title}",
        sev = f.severity.label(),
        area = f.area.label(),
        rule = f.rule_id,
        title = super::markup::md(&f.title),
    );
    if let Some(e) = f.evidence.first() {
        let _ = write!(
            s,
            " <code class=\"cite\">--&gt; {}",
            HtmlEscape(&e.artifact)
        );
        if let (Some(a), Some(b)) = (e.lines.first(), e.lines.last()) {
            let _ = write!(s, ":{a}");
            if b != a {
                let _ = write!(s, "-{b}");
            }
        }
        s.push_str("</code>");
        let n: usize = f.evidence.iter().map(lines_of).sum();
        if n > 0 {
            let _ = write!(
                s,
                " <span class=\"muted\">{n} line{} not embedded (see <code>{}</code>",
                if n == 1 { "" } else { "s" },
                HtmlEscape(&e.artifact)
            );
            let others = f
                .evidence
                .iter()
                .map(|x| x.artifact.as_str())
                .filter(|a| *a != e.artifact)
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            if others > 0 {
                let _ = write!(s, " and {others} more artifact(s)");
            }
            s.push_str(")</span>");
        }
    }
    s.push_str("</li>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evidence(lines: usize) -> Evidence {
        let mut e = Evidence::new("sysstat/<io>.txt", (1..=lines).collect(), "n");
        e.excerpt = (1..=lines)
            .map(|l| ExcerptLine {
                line: l,
                text: format!("<dev{l}> & 1"),
            })
            .collect();
        e
    }

    #[test]
    fn an_excerpt_that_fits_is_whole_and_escaped() {
        let (html, cut) = excerpt_html(&evidence(2), 10_000);
        assert_eq!(cut, 0);
        assert_eq!(
            html,
            "<pre class=\"excerpt\"><span class=\"l\"><span class=\"n\">1</span>&lt;dev1&gt; &amp; 1</span><span class=\"l\"><span class=\"n\">2</span>&lt;dev2&gt; &amp; 1</span></pre>"
        );
    }

    #[test]
    fn an_excerpt_past_its_room_is_cut_with_a_note() {
        let e = evidence(100);
        let (html, cut) = excerpt_html(&e, 1000);
        assert!(html.len() <= 1000, "{}", html.len());
        assert!(cut > 0 && cut < 100, "{cut}");
        assert!(html.contains(&format!(
            "{cut} more lines not embedded (see <code>sysstat&#x2f;&lt;io&gt;.txt</code>)"
        )));
        assert!(html.ends_with("</pre>"));
        let (html, cut) = excerpt_html(&e, 20);
        assert_eq!((html.as_str(), cut), ("", 100));
    }
}
