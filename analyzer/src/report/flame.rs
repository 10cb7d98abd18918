//! Flame graphs of CPU profiles, drawn by inferno as static SVG.
//!
//! In: a [`Profile`]'s folded stacks (`comm;root;…;leaf` → samples). Out: an `<svg>` element to
//! inline in the report. inferno's interactive script (search, zoom) is left out: the report's
//! Content-Security-Policy allows no script, and the script relies on an inline `onload` handler
//! that a hash cannot allow. Each frame keeps its `<title>` tooltip (name, samples, share), which
//! needs no script. inferno escapes frame names, which come from the untrusted bundle.

use crate::facts::profile::Profile;
use inferno::flamegraph::{self, Options, Palette};

/// Frames narrower than this many pixels are left out (inferno's default is 0.1): keeps the SVG
/// of a profile with hundreds of thousands of stacks to a size a browser opens at once.
pub const MIN_WIDTH_PX: f64 = 0.5;

/// The flame graph of `p`, or `None` when it has no stacks (a `perf report` profile) or inferno
/// fails (reported as `Err` text for the page).
pub fn svg(p: &Profile) -> Option<Result<String, String>> {
    if p.folded.is_empty() {
        return None;
    }
    let mut opts = options(
        format!("CPU flame graph: {}", p.artifact),
        format!(
            "{} samples of {}, {} busy; kernel frames end in _[k]",
            p.samples,
            p.event.as_deref().unwrap_or("?"),
            p.busy_samples
        ),
    );
    opts.hash = true;
    opts.colors = Palette::Basic(flamegraph::color::BasicPalette::Hot);
    let lines: Vec<String> = p.folded.iter().map(|(s, n)| format!("{s} {n}")).collect();
    Some(draw(
        &mut opts,
        lines.iter().map(String::as_str),
        "flame graph",
    ))
}

/// inferno's options for a graph inlined in the page: no script, deterministic colours, 1200 px,
/// frames under [`MIN_WIDTH_PX`] left out.
fn options(title: String, subtitle: String) -> Options<'static> {
    let mut opts = Options::default();
    opts.no_javascript = true;
    opts.deterministic = true;
    opts.title = title;
    opts.subtitle = Some(subtitle);
    opts.count_name = "samples".into();
    opts.min_width = MIN_WIDTH_PX;
    opts.image_width = Some(1200);
    opts
}

/// Draws folded `lines` and makes the SVG fit for inlining; `what` names the graph in an error.
fn draw<'a>(
    opts: &mut Options<'_>,
    lines: impl IntoIterator<Item = &'a str>,
    what: &str,
) -> Result<String, String> {
    let mut out = Vec::new();
    flamegraph::from_lines(opts, lines, &mut out)
        .map_err(|e| format!("{what} not drawn: {e}"))
        .and_then(|()| String::from_utf8(out).map_err(|e| e.to_string()))
        .map(|s| without_script(strip_prolog(&s)))
}

/// The differential flame graph of two profiles (inferno `differential`, normalised): the
/// suspect's stacks, red where they take a larger share than on the baseline, blue where smaller.
/// `None` when either side has no stacks.
pub fn differential_svg(baseline: &Profile, suspect: &Profile) -> Option<Result<String, String>> {
    if baseline.folded.is_empty() || suspect.folded.is_empty() {
        return None;
    }
    let fold = |p: &Profile| {
        let mut v = Vec::new();
        for (st, n) in &p.folded {
            v.extend_from_slice(format!("{st} {n}\n").as_bytes());
        }
        v
    };
    let (b, s) = (fold(baseline), fold(suspect));
    let mut both = Vec::new();
    let diff_opts = inferno::differential::Options {
        normalize: true,
        strip_hex: true,
    };
    if let Err(e) = inferno::differential::from_readers(diff_opts, &b[..], &s[..], &mut both) {
        return Some(Err(format!("differential flame graph not drawn: {e}")));
    }
    let mut opts = options(
        "Differential CPU flame graph: suspect vs baseline".into(),
        "Suspect's stacks; red: larger share than on the baseline, blue: smaller (normalised)"
            .into(),
    );
    let text = String::from_utf8_lossy(&both).into_owned();
    Some(draw(&mut opts, text.lines(), "differential flame graph"))
}

/// Makes inferno's SVG fit for inlining under the report's CSP: removes its `<script>` elements
/// (with `no_javascript` it still writes one holding its settings) and the root's `onload`
/// handler, which the CSP would block with an error in the browser console, plus namespace
/// declarations and comments. Frame names cannot contain `<script` or `<!--`: inferno escapes
/// `<` in them.
fn without_script(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some((before, from)) = rest.find("<script").and_then(|i| rest.split_at_checked(i)) {
        out.push_str(before);
        rest = from.split_once("</script>").map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    // Inline SVG in HTML needs no namespace declarations (the HTML parser assigns the SVG
    // namespace), and inferno's comments only carry links: drop both, so the page names no URL.
    let mut out = out.replace(" onload=\"init(evt)\"", "");
    for attr in [
        " xmlns=\"http://www.w3.org/2000/svg\"",
        " xmlns:xlink=\"http://www.w3.org/1999/xlink\"",
        " xmlns:fg=\"http://github.com/jonhoo/inferno\"",
    ] {
        out = out.replace(attr, "");
    }
    let mut clean = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some((before, from)) = rest.find("<!--").and_then(|i| rest.split_at_checked(i)) {
        clean.push_str(before);
        rest = from.split_once("-->").map_or("", |(_, after)| after);
    }
    clean.push_str(rest);
    clean
}

/// The `<svg …>…</svg>` element without the XML declaration and DOCTYPE, for inlining in HTML.
fn strip_prolog(s: &str) -> &str {
    s.find("<svg").and_then(|i| s.get(i..)).unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(stacks: &[(&str, u64)]) -> Profile {
        Profile {
            artifact: "perf/perf-script.txt".into(),
            data: parsers::perf::profile::Profile {
                samples: stacks.iter().map(|s| s.1).sum(),
                folded: stacks.iter().map(|(s, n)| (s.to_string(), *n)).collect(),
                ..Default::default()
            },
        }
    }

    #[test]
    fn hostile_frame_names_are_escaped_and_no_script_is_emitted() {
        let p = profile(&[
            ("nc;<script>alert(1)</script>;ip_output_[k]", 5),
            ("nc;\"onload=x\";tcp_sendmsg_[k]", 3),
        ]);
        let s = svg(&p).expect("stacks").expect("drawn");
        assert!(s.starts_with("<svg"), "{}", &s[..40]);
        assert!(!s.contains(" onload=\""), "inline handler left in the SVG");
        assert!(!s.contains("<script"), "script element in the SVG");
        assert!(s.contains("&lt;script&gt;"), "frame name not escaped");
        assert!(!s.contains("\"onload=x\""));
        assert!(s.contains("ip_output"));
        assert!(!s.contains("http://") && !s.contains("https://") && !s.contains("<!--"));
    }

    #[test]
    fn differential_graph_of_two_profiles() {
        let b = profile(&[("nc;ip_output_[k]", 10), ("nc;tcp_sendmsg_[k]", 10)]);
        let s = profile(&[
            ("nc;ip_output_[k];secmodel_check_[k]", 15),
            ("nc;tcp_sendmsg_[k]", 5),
        ]);
        let svg = differential_svg(&b, &s).expect("stacks").expect("drawn");
        assert!(svg.starts_with("<svg") && !svg.contains("<script"));
        assert!(svg.contains("secmodel_check"));
        assert!(differential_svg(&b, &profile(&[])).is_none());
    }

    #[test]
    fn no_stacks_no_graph() {
        assert!(svg(&profile(&[])).is_none());
    }
}
