//! The HTML pages: the analysis report, and the diff and fleet pages, rendered from
//! `templates/` (embedded at build time) with shared components (`components.html`), one
//! stylesheet and one script.
//!
//! Auto-escaping is forced to HTML for every template whatever its name (minijinja only escapes
//! `.html`/`.htm`/`.xml` by default), and undefined values are errors, so a template typo fails
//! the tests instead of printing nothing. The page loads nothing: a Content-Security-Policy meta
//! tag forbids every network fetch and allows one script, `templates/report.js`, by its sha256
//! hash (computed here from the exact text inlined). The script only enhances: filters, search,
//! unfolding an artifact a link points into; every page reads completely without it.

use super::markup::md;
use super::Report;
use base64::Engine as _;
use minijinja::value::ViaDeserialize;
use minijinja::{context, AutoEscape, Environment, HtmlEscape, UndefinedBehavior, Value};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

const TEMPLATES: &[(&str, &str)] = &[
    (
        "report.html",
        include_str!("../../../templates/report.html"),
    ),
    ("diff.html", include_str!("../../../templates/diff.html")),
    ("fleet.html", include_str!("../../../templates/fleet.html")),
    (
        "history.html",
        include_str!("../../../templates/history.html"),
    ),
    (
        "components.html",
        include_str!("../../../templates/components.html"),
    ),
    ("finding.html", FINDING_CARD),
    ("style.css", include_str!("../../../templates/style.css")),
];

/// The pages' script, inlined in a `<script>` element and allowed by its hash.
pub const SCRIPT: &str = include_str!("../../../templates/report.js");

/// `'sha256-…'`: the CSP source that allows exactly [`SCRIPT`].
pub fn script_hash() -> String {
    let digest = Sha256::digest(SCRIPT.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The Content-Security-Policy of every page: nothing from the network, inline styles, `data:`
/// images, and the one script by hash.
pub fn csp() -> String {
    format!(
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src {}; base-uri 'none'; form-action 'none'",
        script_hash()
    )
}

/// The environment of every page: templates, the `md` filter, and the globals `csp` and
/// `script` (safe strings: the policy and the script text, inlined verbatim).
pub(crate) fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| AutoEscape::Html);
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.add_filter("md", md);
    env.add_function(
        "excerpt_html",
        |lines: ViaDeserialize<Vec<crate::evidence::ExcerptLine>>| {
            Value::from_safe_string(super::page::lines_html(&lines))
        },
    );
    for (name, src) in TEMPLATES {
        env.add_template(name, src)
            .expect("embedded templates are valid");
    }
    assert!(
        !SCRIPT.contains("</"),
        "the inline script must not contain `</`"
    );
    env.add_global("csp", Value::from_safe_string(csp()));
    env.add_global("script", Value::from_safe_string(SCRIPT.to_string()));
    env
}

/// A drawn chart for the templates (`ui.chart`); plotters' SVG holds numbers and labels it
/// escaped itself, so it is marked safe.
pub(crate) fn chart_value(mut d: super::charts::Drawn) -> Value {
    // Screen readers name the chart by its title (which may hold a JVM's name: escaped).
    d.svg = d.svg.replacen(
        "<svg ",
        &format!("<svg aria-label=\"{}\" ", HtmlEscape(&d.title)),
        1,
    );
    context! {
        id => d.id,
        title => d.title,
        caption => d.caption,
        legend => d.legend,
        marks => d.marks,
        segment => d.segment,
        svg => Value::from_safe_string(d.svg),
    }
}

/// One finding's card (`ui.finding`), rendered on its own so that cards render in parallel and
/// the page's budget can be spent card by card ([`super::page`]).
const FINDING_CARD: &str = "{% import \"components.html\" as ui %}{{ ui.finding(f, n, art_index, viewers, capture, excerpts) }}";

/// Renders the report page within [`super::page::PAGE_BYTES`]. Errors: a template error (a
/// defect in rca).
///
/// The parts that do not depend on one another (flame graphs, charts, the coverage table, the
/// rule reference, the report as a template value) are built in parallel. The page is rendered
/// once without findings and artifact text to learn the size of its fixed part; the finding
/// cards are rendered (in parallel) without excerpts to learn theirs; then the findings are
/// placed in rank order ([`super::page::place`]), the artifact viewer gets the bytes left, and
/// the cards and the page are rendered again with both.
pub fn render(report: &Report) -> Result<String, minijinja::Error> {
    use super::page;
    use rayon::prelude::*;
    let env = environment();
    let ((flames, charts), (coverage, (docs, r))) = rayon::join(
        || rayon::join(|| flames(report), || charts(report)),
        || {
            rayon::join(
                || super::coverage::build(report),
                || {
                    rayon::join(super::reference::page_docs, || {
                        Value::from_serialize(report)
                    })
                },
            )
        },
    );
    // Evidence links: artifact path → index.
    let art_index: BTreeMap<&str, usize> = report
        .artifacts
        .iter()
        .enumerate()
        .map(|(i, a)| (a.path.as_str(), i))
        .collect();
    let art_index = Value::from_serialize(&art_index);
    let areas: Vec<&str> = {
        let mut a: Vec<&str> = report.findings.iter().map(|f| f.area.label()).collect();
        a.sort_unstable();
        a.dedup();
        a
    };
    let outcomes: Vec<&str> = report.outcome_counts.keys().copied().collect();
    // With several captures on the page, the capture (1-based) of each finding with a time
    // range, by the finding's rank.
    let captures: BTreeMap<usize, usize> = if report.charts.segments.len() > 1 {
        report
            .charts
            .marks
            .iter()
            .map(|m| (m.finding, m.segment + 1))
            .collect()
    } else {
        BTreeMap::new()
    };
    let coverage = Value::from_serialize(&coverage);
    let rows = report.artifacts.len().min(coverage_rows(&coverage));
    let page_tmpl = env.get_template("report.html")?;
    let render_page = |findings: String, viewers: &Value, viewer_info: Value| {
        page_tmpl.render(context! {
            r => r.clone(),
            rule_docs => docs.clone(),
            flames => flames.clone(),
            charts => charts.clone(),
            viewers => viewers.clone(),
            viewer => viewer_info,
            art_index => art_index.clone(),
            areas => areas.clone(),
            outcomes => outcomes.clone(),
            captures => captures.clone(),
            coverage => coverage.clone(),
            findings_html => Value::from_safe_string(findings),
        })
    };
    let no_viewers = Value::from_serialize(BTreeMap::<usize, Value>::new());
    // The fixed part: the page without findings and artifact text, plus the links to the viewer
    // it may gain (the top candidates' and the coverage rows').
    let fixed = render_page(
        String::new(),
        &no_viewers,
        viewer_info(&Default::default(), 0),
    )?
    .len()
        + page::LINK_BYTES * (5 + rows);
    let card_tmpl = env.get_template("finding.html")?;
    let findings = r.get_attr("findings")?;
    let card = |i: usize, viewers: &Value, excerpts: Value| -> Result<String, minijinja::Error> {
        card_tmpl.render(context! {
            f => findings.get_item(&Value::from(i))?,
            n => i + 1,
            art_index => art_index.clone(),
            viewers => viewers.clone(),
            capture => captures.get(&(i + 1)).copied(),
            excerpts => excerpts,
        })
    };
    let card_bytes: Vec<usize> = (0..report.findings.len())
        .into_par_iter()
        .map(|i| {
            let none = vec![""; report.findings[i].evidence.len()];
            card(i, &no_viewers, Value::from_serialize(&none)).map(|s| s.len())
        })
        .collect::<Result<_, _>>()?;
    let room = page::PAGE_BYTES.saturating_sub(fixed);
    let reserve = page::VIEWER_RESERVE.min(room / 4);
    let placed = page::place(report, &card_bytes, room - reserve);
    // The artifact viewer: escaped in viewer.rs, marked safe here; it gets what the findings
    // leave.
    let viewer_budget = super::viewer::TOTAL_BYTES.min(room - placed.bytes);
    let views = super::viewer::build_with(report, viewer_budget, super::viewer::ARTIFACT_BYTES);
    let mut viewers: BTreeMap<usize, Value> = BTreeMap::new();
    for v in &views.views {
        viewers.insert(
            v.index,
            context! {
                lines => v.lines,
                embedded_lines => v.embedded_lines,
                // A map (line → true), so that the page's evidence links test membership by
                // lookup: thousands of findings on one artifact stay linear.
                cited => v.cited.iter().map(|&l| (l, true)).collect::<BTreeMap<_, _>>(),
                note => v.note.clone(),
                gutter => Value::from_safe_string(v.gutter.clone()),
                html => Value::from_safe_string(v.html.clone()),
            },
        );
    }
    let viewers = Value::from_serialize(&viewers);
    let cards: Vec<String> = placed
        .cards
        .par_iter()
        .map(|(i, ex)| {
            let ex: Vec<Value> = ex
                .iter()
                .map(|h| Value::from_safe_string(h.clone()))
                .collect();
            card(*i, &viewers, Value::from(ex))
        })
        .collect::<Result<_, _>>()?;
    let mut section = cards.join("\n");
    if !placed.entries.is_empty() {
        section.push_str(&format!(
            "<p class=\"muted\" id=\"findings-listed\">{} more finding(s), past the page's budget of {:.1} MB, listed by title; {} evidence line(s) in all are not embedded: the JSON document (<code>rca analyze --json FILE</code>) holds every finding with its evidence.</p>\n<ul class=\"entries\">\n",
            placed.entries.len(),
            page::PAGE_BYTES as f64 / 1e6,
            placed.lines_left_out,
        ));
        for e in &placed.entries {
            section.push_str(e);
        }
        section.push_str("</ul>\n");
    }
    if placed.left_out > 0 {
        section.push_str(&format!(
            "<p class=\"muted\" id=\"findings-left-out\">{} more finding(s) are not on the page: its budget of {:.1} MB is spent. The JSON document (<code>rca analyze --json FILE</code>) lists every finding with its evidence.</p>\n",
            placed.left_out,
            page::PAGE_BYTES as f64 / 1e6,
        ));
    }
    render_page(section, &viewers, viewer_info(&views, viewer_budget))
}

/// Rows the coverage table lists (an upper bound on its links into the viewer).
fn coverage_rows(coverage: &Value) -> usize {
    coverage
        .get_attr("rows")
        .ok()
        .and_then(|v| v.len())
        .unwrap_or(0)
}

/// What the viewer section says about its caps.
fn viewer_info(views: &super::viewer::Views, budget: usize) -> Value {
    context! {
        embedded_bytes => views.embedded_bytes,
        capped => views.capped,
        unviewed => views.unviewed,
        max_views => super::viewer::MAX_VIEWS,
        total_cap_mib => ((budget as f64 / 1048576.0) * 100.0).round() / 100.0,
        artifact_cap_kib => super::viewer::ARTIFACT_BYTES >> 10,
    }
}

/// One entry per profile: the inline SVG (inferno's escaped output, marked safe), or why there
/// is none.
fn flames(report: &Report) -> Vec<Value> {
    use rayon::prelude::*;
    report
        .profiles
        .par_iter()
        .map(|p| match super::flame::svg(p) {
            Some(Ok(svg)) => context! { svg => Value::from_safe_string(svg) },
            Some(Err(e)) => context! { error => e },
            None => context! { error => "no stacks in this profile (perf report only)" },
        })
        .collect()
}

/// The drawn charts, for `ui.chart`.
fn charts(report: &Report) -> Vec<Value> {
    super::charts::draw(report)
        .into_iter()
        .map(chart_value)
        .collect()
}

#[cfg(test)]
mod page_tests {
    use super::*;
    use crate::facts::HostFacts;
    use std::path::Path;

    fn page() -> String {
        let facts = HostFacts::default();
        let eval = crate::rules::evaluate(&facts);
        let c = crate::report::testkit::collected(Vec::new());
        render(&Report::new(Path::new("b"), c, facts, eval)).unwrap()
    }

    #[test]
    fn the_csp_allows_exactly_the_inline_script_by_its_hash() {
        let html = page();
        assert_eq!(html.matches("<script").count(), 1, "one script element");
        let start = html.find("<script>").unwrap() + "<script>".len();
        let end = start + html[start..].find("</script>").unwrap();
        let inline = &html[start..end];
        assert_eq!(inline, SCRIPT);
        let digest = Sha256::digest(inline.as_bytes());
        let hash = base64::engine::general_purpose::STANDARD.encode(digest);
        let csp_start = html
            .find("http-equiv=\"Content-Security-Policy\" content=\"")
            .unwrap();
        let csp = &html[csp_start..];
        let csp = &csp[csp.find("content=\"").unwrap() + 9..];
        let csp = &csp[..csp.find('"').unwrap()];
        assert!(
            csp.contains(&format!("script-src 'sha256-{hash}';")),
            "{csp}"
        );
        assert_eq!(csp.matches("sha256-").count(), 1, "one hash only");
        assert!(csp.starts_with("default-src 'none';"));
        assert!(!csp.contains("unsafe-inline'; script") && !csp.contains("'unsafe-eval'"));
        assert!(!html.contains(" onclick=") && !html.contains(" onload="));
    }

    #[test]
    fn the_page_names_no_url() {
        let html = page();
        assert!(!html.contains("http://") && !html.contains("https://"));
    }
}

/// The whole page of a report far past the page budget.
#[cfg(test)]
mod budget_tests {
    use crate::evidence::Evidence;

    /// The elements of an HTML fragment of the page open and close in order (void elements
    /// aside, which the fragments below do not use); panics at the first that does not.
    fn assert_balanced(fragment: &str) {
        use quick_xml::events::Event;
        let mut r = quick_xml::Reader::from_str(fragment);
        r.config_mut().check_end_names = true;
        let mut depth = 0usize;
        loop {
            match r.read_event() {
                Ok(Event::Start(_)) => depth += 1,
                Ok(Event::End(_)) => depth -= 1,
                Ok(Event::Eof) => break,
                Ok(_) => {}
                Err(e) => panic!("not well-formed at {}: {e}", r.buffer_position()),
            }
        }
        assert_eq!(depth, 0, "unclosed elements");
    }

    /// The element `<div id="ID">…</div>` of `html`, whole (its nested divs included).
    fn div<'a>(html: &'a str, id: &str) -> &'a str {
        let start = html.find(&format!("<div id=\"{id}\">")).expect(id);
        let mut depth = 0usize;
        let mut at = start;
        loop {
            let open = html[at..].find("<div").map(|p| at + p);
            let close = html[at..].find("</div>").map(|p| at + p).expect("closed");
            match open {
                Some(o) if o < close => {
                    depth += 1;
                    at = o + 4;
                }
                _ => {
                    depth -= 1;
                    at = close + 6;
                    if depth == 0 {
                        return &html[start..at];
                    }
                }
            }
        }
    }

    #[test]
    fn ten_thousand_findings_and_long_series_fit_the_page_budget() {
        use crate::artifacts::{Outcome, Text};
        use crate::facts::{Available, DiskSample, DiskSeries, HostFacts};
        use crate::rules::{Area, Confidence, Finding, Severity};
        use parsers::common::Timestamp;
        const PATH: &str = "sysstat/<iostat>.txt";
        // An artifact of 200 000 lines of text that must be escaped.
        let text: String = (1..=200_000)
            .map(|i| format!("sd{i} <script>alert({i})</script> & \"q\" 12.5 80.1\n"))
            .collect();
        let text: Text = text.into();
        let art = crate::report::testkit::artifact(PATH, None, Outcome::Parsed, &text);
        let c = crate::report::testkit::collected(vec![art]);
        // Eight devices of 20 000 samples each: long series for the charts.
        let mut facts = HostFacts {
            disks: Available::from(
                (0..8)
                    .map(|d| DiskSeries {
                        device: format!("sd{d}"),
                        artifact: PATH.into(),
                        samples: (0..20_000u32)
                            .map(|i| DiskSample {
                                time: Some(Timestamp {
                                    date: None,
                                    seconds_of_day: 4 * i,
                                }),
                                line: 1 + i as usize,
                                await_ms: Some(if i % 997 == 0 { 900.0 } else { 2.0 }),
                                aqu_sz: Some(0.5),
                                util_pct: Some(40.0),
                                iops: Some(100.0),
                            })
                            .collect(),
                    })
                    .collect::<Vec<_>>(),
            ),
            ..Default::default()
        };
        facts.series = crate::facts::series::build(&facts, &c).ok();
        let mut eval = crate::rules::evaluate(&facts);
        // 12 000 findings of three evidence items each, every item citing five lines.
        for n in 0..12_000usize {
            let evidence = (0..3)
                .map(|k| {
                    let first = 1 + (n * 15 + k * 5) % 199_990;
                    Evidence::new(PATH, (first..first + 5).collect(), "<b>note</b>")
                })
                .collect();
            eval.findings.push(Finding {
                rule_id: "disk.saturation",
                explains: Vec::new(),
                area: Area::Disk,
                title: format!("Disk <sd{n}> saturated"),
                severity: if n < 100 {
                    Severity::Critical
                } else {
                    Severity::Warning
                },
                confidence: Confidence::High,
                why: "`await` over 20 ms & `aqu-sz` over 1".into(),
                details: vec!["detail <i>one</i>".into()],
                score: 1.0,
                time_range: None,
                evidence,
            });
        }
        crate::analysis::cite(&mut eval.findings, &c);
        let items: usize = eval.findings.iter().map(|f| f.evidence.len()).sum();
        assert!(items >= 36_000, "{items}");
        let report = crate::report::Report::new(std::path::Path::new("b"), c, facts, eval);
        assert!(report
            .charts
            .disk
            .as_ref()
            .is_some_and(|d| !d.await_ms.is_empty()));
        let html = super::render(&report).unwrap();
        assert!(
            html.len() <= super::super::page::PAGE_BYTES,
            "{} bytes",
            html.len()
        );
        // The first findings have their cards with their excerpts; the budget ends them, and
        // what is left out says so, naming the artifact.
        assert!(html.contains("<article class=\"card finding critical\" id=\"finding-1\""));
        assert!(html.contains("<span class=\"n\">1</span>sd1 &lt;script&gt;alert(1)"));
        assert!(html.contains("not embedded (see <code>sysstat&#x2f;&lt;iostat&gt;.txt</code>)"));
        assert!(html.contains("<li id=\"finding-"));
        assert!(
            html.contains("id=\"findings-listed\"") || html.contains("id=\"findings-left-out\"")
        );
        // Every piece of bundle text is escaped.
        assert!(!html.contains("<script>alert") && !html.contains("<sd1>"));
        assert!(!html.contains("<b>note</b>") && !html.contains("<i>one</i>"));
        // The parts cut to fit are well-formed.
        assert_balanced(div(&html, "finding-list"));
        assert_balanced(div(&html, "artifact-list"));
        // The charts keep the spikes the long series have.
        assert!(report.charts.disk.as_ref().unwrap().await_ms[0]
            .points
            .iter()
            .any(|p| p.1 == Some(900.0)));
    }
}
