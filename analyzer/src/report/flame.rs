//! Flame graphs of CPU profiles, drawn by inferno as static SVG.
//!
//! In: a [`Profile`]'s folded stacks (`comm;root;…;leaf` → samples). Out: an `<svg>` element to
//! inline in the report. inferno's interactive script (search, zoom) is left out: the report's
//! Content-Security-Policy allows no script, and the script relies on an inline `onload` handler
//! that a hash cannot allow. Each frame keeps its `<title>` tooltip (name, samples, share), which
//! needs no script. inferno escapes frame names, which come from the untrusted bundle.

use crate::facts::profile::Profile;
use inferno::flamegraph::{self, Options, Palette};
use std::collections::HashMap;

/// Frames narrower than this many pixels are left out (inferno's default is 0.1): keeps the SVG
/// of a profile with hundreds of thousands of stacks to a size a browser opens at once.
pub const MIN_WIDTH_PX: f64 = 0.5;
/// Frames holding less than this share of the samples are merged, per parent, into one
/// [`OTHER`] frame before drawing: 0.1 % is 1.2 px of the 1200 px graph, under the width at
/// which inferno prints a name.
pub const MIN_SHARE: f64 = 0.001;
/// Most frames drawn. Each is an SVG group of about 250 bytes (rectangle, name, tooltip), so
/// 4000 frames are about 1 MB; when a profile has more frames over [`MIN_SHARE`], the share
/// is raised (doubled until they fit).
pub const MAX_FRAMES: usize = 4000;
/// Name of the frame that stands for a parent's frames under the share kept.
pub const OTHER: &str = "[other]";

/// The flame graph of `p`, or `None` when it has no stacks (a `perf report` profile) or inferno
/// fails (reported as `Err` text for the page).
pub fn svg(p: &Profile) -> Option<Result<String, String>> {
    if p.folded.is_empty() {
        return None;
    }
    let mut opts = options(
        format!("CPU flame graph: {}", p.artifact),
        format!(
            "{} samples of {}, {} busy; kernel frames end in _[k]; frames under {} % of the samples are merged into {OTHER}",
            p.samples,
            p.event.as_deref().unwrap_or("?"),
            p.busy_samples,
            MIN_SHARE * 100.0
        ),
    );
    opts.hash = true;
    opts.colors = Palette::Basic(flamegraph::color::BasicPalette::Hot);
    let lines = bounded(&p.folded, MIN_SHARE, MAX_FRAMES);
    Some(draw(
        &mut opts,
        lines.iter().map(String::as_str),
        "flame graph",
    ))
}

/// Folded lines (`frame;frame;… samples`) of `folded` with at most `max_frames` frames: under
/// each parent, the frames holding less than `min_share` of all samples are merged into one
/// [`OTHER`] frame (their samples kept, their callees dropped); the share is doubled until the
/// frames left are at most `max_frames` (an [`OTHER`] frame counts as one).
pub fn bounded(folded: &[(String, u64)], min_share: f64, max_frames: usize) -> Vec<String> {
    bound_tree(
        folded.iter().map(|(s, n)| (s.as_str(), *n, 0)),
        min_share,
        max_frames,
        false,
    )
}

/// [`bounded`] for the lines of a differential graph, `stack before after` (inferno
/// `differential`): the frames are kept or merged by the `after` samples (the suspect's, the
/// widths drawn), and each line keeps both counts, an [`OTHER`] frame the sums of the frames
/// it stands for. A line not in that shape is left out.
pub fn bounded_differential(lines: &str, min_share: f64, max_frames: usize) -> Vec<String> {
    let parsed = lines.lines().filter_map(|l| {
        let (rest, after) = l.trim_end().rsplit_once(' ')?;
        let (stack, before) = rest.rsplit_once(' ')?;
        Some((stack, after.parse().ok()?, before.parse().ok()?))
    });
    bound_tree(parsed, min_share, max_frames, true)
}

/// The bounded tree of `(stack, samples, carried)` lines: kept and merged by `samples`;
/// `carried` (the baseline's samples of a differential line) is summed alongside and printed
/// before `samples` when `two_counts`.
fn bound_tree<'a>(
    folded: impl Iterator<Item = (&'a str, u64, u64)>,
    min_share: f64,
    max_frames: usize,
    two_counts: bool,
) -> Vec<String> {
    // The call tree: node 0 is the root; `total` counts the samples of the node and its callees,
    // `carried` the same of the carried count.
    struct Node<'a> {
        name: &'a str,
        total: u64,
        carried: u64,
        children: Vec<usize>,
    }
    let mut nodes = vec![Node {
        name: "",
        total: 0,
        carried: 0,
        children: Vec::new(),
    }];
    let mut child: HashMap<(usize, &str), usize> = HashMap::new();
    for (stack, n, c) in folded {
        let mut at = 0;
        nodes[0].total += n;
        nodes[0].carried += c;
        for frame in stack.split(';') {
            let next = *child.entry((at, frame)).or_insert_with(|| {
                nodes.push(Node {
                    name: frame,
                    total: 0,
                    carried: 0,
                    children: Vec::new(),
                });
                let id = nodes.len() - 1;
                nodes[at].children.push(id);
                id
            });
            nodes[next].total += n;
            nodes[next].carried += c;
            at = next;
        }
    }
    let all = nodes[0].total;
    // Frames kept at threshold `t`: those at or over it under kept parents, plus one OTHER per
    // parent that loses some.
    let count = |t: u64| -> usize {
        let mut kept = 0usize;
        let mut stack = vec![0usize];
        while let Some(i) = stack.pop() {
            let mut lost = false;
            for &c in &nodes[i].children {
                if nodes[c].total >= t {
                    kept += 1;
                    stack.push(c);
                } else {
                    lost = true;
                }
            }
            kept += usize::from(lost);
        }
        kept
    };
    let mut t = ((all as f64 * min_share).ceil() as u64).max(1);
    while count(t) > max_frames && t < all {
        t = t.saturating_mul(2);
    }
    // The folded lines of the kept tree: each kept node's own samples (its total less its
    // callees'), and per parent the samples of the frames it lost, as OTHER.
    let counts = |n: u64, c: u64| {
        if two_counts {
            format!("{c} {n}")
        } else {
            n.to_string()
        }
    };
    let mut out = Vec::new();
    let mut stack: Vec<(usize, String)> = vec![(0, String::new())];
    while let Some((i, path)) = stack.pop() {
        let (mut own, mut own_c) = (nodes[i].total, nodes[i].carried);
        let (mut lost, mut lost_c) = (0u64, 0u64);
        for &c in &nodes[i].children {
            own -= nodes[c].total;
            own_c = own_c.saturating_sub(nodes[c].carried);
            if nodes[c].total >= t {
                let p = if path.is_empty() {
                    nodes[c].name.to_string()
                } else {
                    format!("{path};{}", nodes[c].name)
                };
                stack.push((c, p));
            } else {
                lost += nodes[c].total;
                lost_c += nodes[c].carried;
            }
        }
        if i != 0 && (own > 0 || own_c > 0) {
            out.push(format!("{path} {}", counts(own, own_c)));
        }
        if lost > 0 || lost_c > 0 {
            out.push(if path.is_empty() {
                format!("{OTHER} {}", counts(lost, lost_c))
            } else {
                format!("{path};{OTHER} {}", counts(lost, lost_c))
            });
        }
    }
    out.sort_unstable();
    out
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
/// suspect's stacks, red where they take a larger share than on the baseline, blue where smaller;
/// bounded as [`svg`] is ([`MIN_SHARE`] of the suspect's samples, at most [`MAX_FRAMES`]
/// frames, see [`bounded_differential`]). `None` when either side has no stacks.
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
        format!(
            "Suspect's stacks; red: larger share than on the baseline, blue: smaller (normalised); frames under {} % of the suspect's samples are merged into {OTHER}",
            MIN_SHARE * 100.0
        ),
    );
    let text = String::from_utf8_lossy(&both);
    let lines = bounded_differential(&text, MIN_SHARE, MAX_FRAMES);
    Some(draw(
        &mut opts,
        lines.iter().map(String::as_str),
        "differential flame graph",
    ))
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
    fn small_frames_merge_into_other_and_frames_are_capped() {
        let folded: Vec<(String, u64)> = vec![
            ("java;main;work".into(), 900),
            ("java;main;tiny_a".into(), 1),
            ("java;main;tiny_b".into(), 2),
            ("java;gc".into(), 97),
        ];
        // 1 % of 1000 samples: the two tiny frames become one OTHER under `main`.
        let lines = bounded(&folded, 0.01, 100);
        assert_eq!(
            lines,
            ["java;gc 97", "java;main;[other] 3", "java;main;work 900"]
        );
        // Every sample is kept, whatever the cap.
        let total = |v: &[String]| -> u64 {
            v.iter()
                .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
                .sum()
        };
        assert_eq!(total(&lines), 1000);
        // Thousands of distinct leaves of equal weight: the cap holds, samples are kept.
        let wide: Vec<(String, u64)> = (0..10_000)
            .map(|i| (format!("app;loop;leaf_{i}"), 1 + (i % 3) as u64))
            .collect();
        let lines = bounded(&wide, 0.0, 500);
        let frames: std::collections::BTreeSet<String> = lines
            .iter()
            .flat_map(|l| {
                let stack = l.rsplit_once(' ').unwrap().0;
                let parts: Vec<&str> = stack.split(';').collect();
                (1..=parts.len()).map(move |k| parts[..k].join(";"))
            })
            .collect();
        assert!(frames.len() <= 500, "{}", frames.len());
        assert_eq!(total(&lines), wide.iter().map(|w| w.1).sum::<u64>());
        assert!(lines.iter().any(|l| l.starts_with("app;loop;[other] ")));
    }

    #[test]
    fn the_differential_graph_is_bounded_like_the_report_graph() {
        // Two profiles of 20 000 distinct leaves each: unbounded, 40 000 frames.
        let wide = |tag: &str| -> Profile {
            let stacks: Vec<(String, u64)> = (0..20_000)
                .map(|i| (format!("app;loop;{tag}_{i}"), 1 + (i % 3) as u64))
                .chain(std::iter::once(("app;gc".to_string(), 20_000)))
                .collect();
            Profile {
                artifact: "perf/perf-script.txt".into(),
                data: parsers::perf::profile::Profile {
                    samples: stacks.iter().map(|s| s.1).sum(),
                    folded: stacks,
                    ..Default::default()
                },
            }
        };
        let (b, s) = (wide("old"), wide("new"));
        let svg = differential_svg(&b, &s).expect("stacks").expect("drawn");
        let frames = svg.matches("<g>").count();
        assert!(frames <= MAX_FRAMES, "{frames} frames drawn");
        assert!(svg.contains(OTHER), "no [other] frame");
        assert!(svg.len() < 2_000_000, "{} bytes", svg.len());
        // The lines keep both counts: the kept frames' and OTHER's sums are the inputs'.
        let lines = bounded_differential(
            "app;loop;a 10 40\napp;loop;b 1 2\napp;loop;c 3 0\napp;gc 6 58\nnot a line\n",
            0.05,
            100,
        );
        assert_eq!(
            lines,
            ["app;gc 6 58", "app;loop;[other] 4 2", "app;loop;a 10 40"]
        );
    }

    #[test]
    fn no_stacks_no_graph() {
        assert!(svg(&profile(&[])).is_none());
    }
}
