//! Drawing [`Charts`] as inline SVG with plotters' SVG backend.
//!
//! In: [`Charts`] (one host's, or a baseline's and a suspect's for the comparison page). Out:
//! [`Drawn`] charts in page order: the `<svg>` element, title, caption, legend and the marks
//! shaded on it. Lines break at missing values and gaps; a CPU × time heatmap replaces per-CPU
//! panels from [`HEATMAP_FROM_CPUS`] CPUs on. With several segments ([`Charts::segments`]),
//! each segment's charts are drawn on their own axis, one after the other.

use super::{peak, Charts, CpuChart, Mark, Series, SoftirqChart, HEATMAP_FROM_CPUS};
use crate::facts::series::{median_step, Clock};
use crate::report::Report;
use serde::Serialize;
use std::collections::BTreeMap;

/// One drawn chart for the page.
#[derive(Debug, Clone, Serialize)]
pub struct Drawn {
    /// Anchor id (`chart-cpu-busy`).
    pub id: String,
    /// Heading.
    pub title: String,
    /// What is drawn and from where (plain text; the template escapes it).
    pub caption: String,
    /// The `<svg>` element (numbers and escaped labels only); empty when every value is 0
    /// (the caption says so).
    pub svg: String,
    /// Colour swatches: `(label, #rrggbb)`.
    pub legend: Vec<(String, String)>,
    /// Findings shaded on it.
    pub marks: Vec<Mark>,
    /// Highest value drawn (0 for fixed scales).
    pub top: f64,
    /// The segment ([`Charts::segments`]) whose axis it is drawn on, when there are several;
    /// `None` with one segment, and for a chart not on the time axis.
    pub segment: Option<usize>,
}

/// Most findings whose time range one chart shades, the highest-ranked first: each band is a
/// few SVG elements and a link in the caption, and thousands of findings (one per saturated
/// device of a large array) would make the chart heavier than the rest of the page.
pub const MAX_MARKS: usize = 24;
/// Chart width, pixels (the SVG scales to the page).
const WIDTH: u32 = 1100;
/// Stands for the text colour; replaced by `currentColor` so axes follow the page's theme.
const INK: plotters::style::RGBColor = plotters::style::RGBColor(1, 2, 3);
/// Categorical colours, readable on light and dark backgrounds (Tableau 10).
pub const PALETTE: [(u8, u8, u8); 10] = [
    (0x4e, 0x79, 0xa7),
    (0xf2, 0x8e, 0x2b),
    (0xe1, 0x57, 0x59),
    (0x76, 0xb7, 0xb2),
    (0x59, 0xa1, 0x4f),
    (0xed, 0xc9, 0x48),
    (0xb0, 0x7a, 0xa1),
    (0xff, 0x9d, 0xa7),
    (0x9c, 0x75, 0x5f),
    (0xba, 0xb0, 0xac),
];
const BUSY: (u8, u8, u8) = (0x4e, 0x79, 0xa7);
const SOFT: (u8, u8, u8) = (0xf2, 0x8e, 0x2b);
const IOWAIT: (u8, u8, u8) = (0xb0, 0x7a, 0xa1);
const MARK: (u8, u8, u8) = (0xe1, 0x57, 0x59);

fn hex(c: (u8, u8, u8)) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

fn rgb(c: (u8, u8, u8)) -> plotters::style::RGBColor {
    plotters::style::RGBColor(c.0, c.1, c.2)
}

/// Draws every chart of the report, in page order.
pub fn draw(report: &Report) -> Vec<Drawn> {
    draw_charts(&report.charts, &BTreeMap::new())
}

/// Draws two hosts' charts (a baseline and a suspect) with the same value scale per chart, so
/// heights compare. Each keeps its own time axis (its own window).
pub fn draw_pair(baseline: &Charts, suspect: &Charts) -> (Vec<Drawn>, Vec<Drawn>) {
    let (b, s) = (
        draw_charts(baseline, &BTreeMap::new()),
        draw_charts(suspect, &BTreeMap::new()),
    );
    let mut tops: BTreeMap<String, f64> = BTreeMap::new();
    for d in b.iter().chain(&s) {
        let t = tops.entry(d.id.clone()).or_insert(0.0);
        *t = t.max(d.top);
    }
    (draw_charts(baseline, &tops), draw_charts(suspect, &tops))
}

/// Draws `ch`; `tops` raises the value scale of the charts it names (by id) to at least the
/// given peak. With several segments, each segment's charts in turn (their ids, from the second
/// segment on, end in `-s2`, `-s3` …), then the charts not on the time axis.
pub fn draw_charts(ch: &Charts, tops: &BTreeMap<String, f64>) -> Vec<Drawn> {
    if ch.segments.len() <= 1 {
        return draw_axis(ch, tops, true);
    }
    let mut out = Vec::new();
    for i in 0..ch.segments.len() {
        let Some(part) = ch.segment(i) else { continue };
        let label = &ch.segments[i].label;
        for mut d in draw_axis(&part, tops, false) {
            if i > 0 {
                d.id = format!("{}-s{}", d.id, i + 1);
            }
            d.segment = Some(i);
            let n = ch.segments.len();
            d.caption = format!("capture {} of {n}, {label} · {}", i + 1, d.caption);
            out.push(d);
        }
    }
    out.extend(softirq(ch, tops));
    out
}

/// The charts of `ch` on its axis (`axis.start_s` to `axis.end_s`), with the soft-IRQ chart
/// when `with_softirq`.
fn draw_axis(ch: &Charts, tops: &BTreeMap<String, f64>, with_softirq: bool) -> Vec<Drawn> {
    let (Some(axis), Some(clock)) = (&ch.axis, ch.clock()) else {
        return Vec::new();
    };
    let x = (axis.start_s, axis.end_s);
    // The marks of `areas` a chart shades, and how many of them it leaves out.
    let marks = |areas: &[&str]| -> (Vec<Mark>, usize) {
        let all = ch.marks.iter().filter(|m| areas.contains(&m.area.as_str()));
        let shown: Vec<Mark> = all.clone().take(MAX_MARKS).cloned().collect();
        let left = all.count() - shown.len();
        (shown, left)
    };
    let mut out = Vec::new();
    if let Some(c) = &ch.cpu {
        let (m, left) = marks(&["cpu", "network", "disk"]);
        let from = out.len();
        let binned = if c.per_column > 1 {
            format!(", each column the mean of {} samples", c.per_column)
        } else {
            String::new()
        };
        if c.rows.len() < HEATMAP_FROM_CPUS {
            out.push(Drawn {
                id: "chart-cpu".into(),
                title: "CPU utilisation per CPU".into(),
                caption: format!(
                    "{} · % of each CPU's time: %soft at the bottom, the rest of busy (100 − %idle − %iowait) above it, %iowait on top{binned}",
                    c.artifact
                ),
                svg: cpu_panels(c, x, &clock, &m),
                legend: vec![
                    ("%soft".into(), hex(SOFT)),
                    ("busy, other".into(), hex(BUSY)),
                    ("%iowait".into(), hex(IOWAIT)),
                ],
                marks: m,
                top: 0.0,
                segment: None,
            });
        } else {
            for (id, title, color, pick) in [
                ("busy", "busy (100 − %idle − %iowait)", BUSY, 0),
                ("soft", "%soft", SOFT, 1),
                ("iowait", "%iowait", IOWAIT, 2),
            ] {
                let rows: Vec<(u32, &[Option<f64>])> = c
                    .rows
                    .iter()
                    .map(|r| {
                        let v = match pick {
                            0 => &r.busy,
                            1 => &r.soft,
                            _ => &r.iowait,
                        };
                        (r.cpu, v.as_slice())
                    })
                    .collect();
                let top = rows
                    .iter()
                    .flat_map(|r| r.1.iter().flatten())
                    .fold(0.0_f64, |a, b| a.max(*b));
                if pick > 0 && top < 1.0 {
                    continue;
                }
                out.push(Drawn {
                    id: format!("chart-cpu-{id}"),
                    title: format!("CPU × time: {title}"),
                    caption: format!(
                        "{} · {} CPUs, one row each, the first at the bottom; the stronger the colour, the higher the share (full colour = 100 %){binned}",
                        c.artifact,
                        c.rows.len()
                    ),
                    svg: heatmap(&c.times, c.column_s, &rows, color, x, &clock, &m),
                    legend: vec![(format!("{title}, 100 %"), hex(color))],
                    marks: m.clone(),
                    top: 0.0,
                    segment: None,
                });
            }
            if out
                .iter()
                .filter(|d| d.id.starts_with("chart-cpu-"))
                .count()
                < 3
            {
                let quiet: Vec<&str> = ["soft", "iowait"]
                    .into_iter()
                    .filter(|k| !out.iter().any(|d| d.id == format!("chart-cpu-{k}")))
                    .collect();
                if let Some(last) = out.last_mut() {
                    last.caption.push_str(&format!(
                        " · not drawn: %{} (under 1 % on every CPU throughout)",
                        quiet.join(" and %")
                    ));
                }
            }
        }
        left_out(&mut out[from..], left);
    }
    if let Some(d) = &ch.disk {
        let (m, left) = marks(&["disk"]);
        let from = out.len();
        let more = if d.omitted > 0 {
            format!(" · {} quieter device(s) not drawn", d.omitted)
        } else {
            String::new()
        };
        for (id, title, unit, s) in [
            ("await", "Disk await", "ms", &d.await_ms),
            ("aqu", "Disk queue (aqu-sz)", "requests", &d.aqu_sz),
            ("util", "Disk %util", "%", &d.util_pct),
        ] {
            out.push(lines(
                &format!("chart-disk-{id}"),
                title,
                format!("{} · {unit} per device{more}", d.artifact),
                s,
                x,
                &clock,
                &m,
                (id == "util").then_some(100.0),
                tops,
                &[],
            ));
        }
        left_out(&mut out[from..], left);
    }
    if let Some(n) = &ch.nic {
        let (m, left) = marks(&["network"]);
        let from = out.len();
        let more = if n.omitted > 0 {
            format!(" · {} quieter interface(s) not drawn", n.omitted)
        } else {
            String::new()
        };
        let src = n.artifacts.join(", ");
        if !n.rx_kb_per_s.is_empty() {
            out.push(lines(
                "chart-nic-rx",
                "NIC receive",
                format!("{src} · rxkB/s per interface{more}"),
                &n.rx_kb_per_s,
                x,
                &clock,
                &m,
                None,
                tops,
                &[],
            ));
            out.push(lines(
                "chart-nic-tx",
                "NIC transmit",
                format!("{src} · txkB/s per interface{more}"),
                &n.tx_kb_per_s,
                x,
                &clock,
                &m,
                None,
                tops,
                &[],
            ));
        }
        if !n.drops_per_s.is_empty() {
            out.push(lines(
                "chart-nic-drops",
                "NIC drops",
                format!("{src} · rxdrop/s + txdrop/s + rxfifo/s per interface"),
                &n.drops_per_s,
                x,
                &clock,
                &m,
                None,
                tops,
                &[],
            ));
        }
        left_out(&mut out[from..], left);
    }
    if let Some(s) = &ch.swap {
        let (m, left) = marks(&["memory"]);
        let from = out.len();
        out.push(lines(
            "chart-swap",
            "Swap traffic",
            format!("{} · KiB/s swapped in (si) and out (so)", s.artifact),
            &[s.si.clone(), s.so.clone()],
            x,
            &clock,
            &m,
            None,
            tops,
            &[],
        ));
        left_out(&mut out[from..], left);
    }
    for (i, g) in ch.gc.iter().enumerate() {
        let (m, left) = marks(&["jvm", "zookeeper"]);
        let from = out.len();
        let full = if g.full_gcs.is_empty() {
            String::new()
        } else {
            format!(
                " · {} full GC(s) in the window, ticked along the bottom",
                g.full_gcs.len()
            )
        };
        out.push(lines(
            &format!("chart-gc-{}", i + 1),
            &format!("GC: {}", g.jvm),
            format!(
                "{} · old generation (O) % of its capacity and time in GC pauses (YGCT + FGCT) as % of each interval{full}",
                g.artifact
            ),
            &[g.old_pct.clone(), g.gc_time_pct.clone()],
            x,
            &clock,
            &m,
            Some(100.0),
            tops,
            &g.full_gcs,
        ));
        left_out(&mut out[from..], left);
    }
    if with_softirq {
        out.extend(softirq(ch, tops));
    }
    out
}

/// Says in the captions of `drawn` that `left` findings of their areas are not shaded (beyond
/// [`MAX_MARKS`]); nothing when none was left out.
fn left_out(drawn: &mut [Drawn], left: usize) {
    if left == 0 {
        return;
    }
    for d in drawn {
        d.caption.push_str(&format!(
            " At most {MAX_MARKS} findings' time ranges are shaded, the highest-ranked first: {left} more not shaded."
        ));
    }
}

/// The soft-IRQ bars, when the snapshots show any event.
fn softirq(ch: &Charts, tops: &BTreeMap<String, f64>) -> Option<Drawn> {
    let s = ch.softirq.as_ref().filter(|s| !s.types.is_empty())?;
    Some(Drawn {
        id: "chart-softirq".into(),
        title: "Soft-IRQs per CPU".into(),
        caption: format!(
            "{} → {} · events per second by type, averaged over {:.0} s (not on the time axis)",
            s.artifacts.0, s.artifacts.1, s.seconds
        ),
        svg: softirq_bars(s, tops.get("chart-softirq").copied().unwrap_or(0.0)),
        legend: s
            .types
            .iter()
            .enumerate()
            .map(|(i, t)| (t.label.clone(), hex(PALETTE[i % PALETTE.len()])))
            .collect(),
        marks: Vec::new(),
        top: softirq_peak(s),
        segment: None,
    })
}

/// Finishes plotters' SVG for inlining in the page: no namespace declaration (the HTML parser
/// puts inline SVG in its namespace; the page names no URL), the text colour as `currentColor`,
/// and a class for styling.
fn finish(svg: String) -> String {
    svg.replace(" xmlns=\"http://www.w3.org/2000/svg\"", "")
        .replace("#010203", "currentColor")
        .replacen("<svg ", "<svg class=\"chart\" role=\"img\" ", 1)
}

type Area<'a> =
    plotters::drawing::DrawingArea<plotters::prelude::SVGBackend<'a>, plotters::coord::Shift>;
type Chart2d<'a, 'b> = plotters::chart::ChartContext<
    'a,
    plotters::prelude::SVGBackend<'b>,
    plotters::coord::cartesian::Cartesian2d<
        plotters::coord::types::RangedCoordf64,
        plotters::coord::types::RangedCoordf64,
    >,
>;

/// Highest value a value axis reaches. The parsers drop any number above `u64::MAX` (about
/// 1.8e19, the largest a kernel counter holds; `parsers::common::Ceiling`), so sums of a few
/// series stay far below it; far below `f64::MAX` too, so padding and plotters' tick arithmetic
/// stay finite.
pub(crate) const AXIS_MAX: f64 = 1e30;
/// Lowest top of a value axis: values print with two decimals at most, and plotters' tick
/// search needs a range whose power of ten is not 0 (it loops on a denormal range).
pub(crate) const AXIS_MIN: f64 = 1e-6;

/// The top of a value axis drawn from 0: `peak` with a tenth of headroom, or `fixed` (a
/// percentage chart's 100) when `peak` does not exceed it; 1 when there is nothing above 0.
/// Always finite and within [`AXIS_MIN`]..=[`AXIS_MAX`] × 1.1, whatever `peak` is: NaN and
/// negatives count as nothing above 0 and infinities as [`AXIS_MAX`], since plotters' search
/// for tick positions never ends on an infinite range and asserts on a NaN one.
pub(crate) fn value_axis(peak: f64, fixed: Option<f64>) -> f64 {
    let peak = if peak.is_nan() || peak <= 0.0 {
        0.0
    } else {
        peak.min(AXIS_MAX)
    };
    match fixed.filter(|m| m.is_finite() && *m > 0.0) {
        Some(m) if peak <= m => m.clamp(AXIS_MIN, AXIS_MAX),
        _ if peak > 0.0 => (peak * 1.1).max(AXIS_MIN),
        _ => 1.0,
    }
}

/// Axes and grid on `area`, with time labels; `None` (nothing drawn) unless both ranges are
/// finite and not empty.
fn frame<'a, 'b>(
    area: &'a Area<'b>,
    x: (f64, f64),
    y: (f64, f64),
    clock: &Clock,
    x_labels: bool,
    y_fmt: &dyn Fn(&f64) -> String,
) -> Option<Chart2d<'a, 'b>> {
    use plotters::prelude::*;
    let sane = |r: (f64, f64)| r.0.is_finite() && r.1.is_finite() && r.1 > r.0;
    if !sane(x) || !sane(y) {
        return None;
    }
    let mut chart = ChartBuilder::on(area)
        .margin_right(16)
        .margin_top(6)
        .x_label_area_size(if x_labels { 22 } else { 0 })
        .y_label_area_size(64)
        .build_cartesian_2d(x.0..x.1, y.0..y.1)
        .ok()?;
    // Over more than a day, the labels say the day too.
    let long = x.1 - x.0 > 86_400.0 && clock.dated;
    let fmt_x = |v: &f64| match clock.date(*v).filter(|_| long) {
        Some(d) => {
            let hm: String = clock.label(*v).chars().take(5).collect();
            format!("{} {hm}", d.get(5..).unwrap_or(&d))
        }
        None => clock.label(*v),
    };
    chart
        .configure_mesh()
        .x_labels(if x_labels { 10 } else { 0 })
        .y_labels(if x_labels { 4 } else { 3 })
        .x_label_formatter(&fmt_x)
        .y_label_formatter(y_fmt)
        .axis_style(INK.mix(0.5))
        .bold_line_style(INK.mix(0.12))
        .light_line_style(TRANSPARENT)
        .label_style(("sans-serif", 13).into_font().color(&INK))
        .draw()
        .ok()?;
    Some(chart)
}

/// Marks each finding's time range: a light band (`fill`, for line charts; a heatmap keeps its
/// cells readable), edges at its start and end, a bar along the top and the finding's number.
fn shade(chart: &mut Chart2d<'_, '_>, marks: &[Mark], y: (f64, f64), min_width: f64, fill: bool) {
    use plotters::prelude::*;
    let bar = (y.1 - y.0) * 0.04;
    for m in marks {
        let (mut a, mut b) = (m.from_s, m.to_s);
        if b - a < min_width {
            a -= min_width / 2.0;
            b += min_width / 2.0;
        }
        if fill {
            let _ = chart.draw_series(std::iter::once(Rectangle::new(
                [(a, y.0), (b, y.1)],
                rgb(MARK).mix(0.08).filled(),
            )));
        }
        let _ = chart.draw_series(std::iter::once(Rectangle::new(
            [(a, y.1 - bar), (b, y.1)],
            rgb(MARK).mix(0.8).filled(),
        )));
        for x in [a, b] {
            let _ = chart.draw_series(std::iter::once(PathElement::new(
                vec![(x, y.0), (x, y.1)],
                rgb(MARK).mix(0.8).stroke_width(1),
            )));
        }
        let _ = chart.draw_series(std::iter::once(Text::new(
            format!("#{}", m.finding),
            (a, y.1 - bar),
            ("sans-serif", 12).into_font().color(&rgb(MARK)),
        )));
    }
}

/// Splits a series at missing values and at gaps wider than 2.5 sampling steps.
pub(crate) fn segments(points: &[(f64, Option<f64>)]) -> Vec<Vec<(f64, f64)>> {
    let times: Vec<f64> = points.iter().map(|p| p.0).collect();
    let step = median_step(&times);
    let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    for p in points {
        match p.1 {
            Some(v) if v.is_finite() => {
                if let Some(last) = cur.last() {
                    if p.0 - last.0 > step * 2.5 {
                        out.push(std::mem::take(&mut cur));
                    }
                }
                cur.push((p.0, v));
            }
            _ => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn fmt_num(v: f64) -> String {
    let a = v.abs();
    if a >= 1e12 {
        format!("{v:.1e}")
    } else if a >= 1e9 {
        format!("{:.1}G", v / 1e9)
    } else if a >= 1e6 {
        format!("{:.1}M", v / 1e6)
    } else if a >= 1e4 {
        format!("{:.0}k", v / 1e3)
    } else if a >= 100.0 || v == v.trunc() {
        format!("{v:.0}")
    } else if a >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// A line chart: one line per series (points joined within a segment, a dot for a lone point).
#[allow(clippy::too_many_arguments)]
fn lines(
    id: &str,
    title: &str,
    caption: String,
    series: &[Series],
    x: (f64, f64),
    clock: &Clock,
    marks: &[Mark],
    y_max: Option<f64>,
    tops: &BTreeMap<String, f64>,
    ticks: &[f64],
) -> Drawn {
    use plotters::prelude::*;
    let peak_here = series.iter().map(peak).fold(0.0_f64, f64::max);
    let top = peak_here.max(tops.get(id).copied().unwrap_or(0.0));
    let mut legend: Vec<(String, String)> = series
        .iter()
        .enumerate()
        .map(|(i, s)| (s.label.clone(), hex(PALETTE[i % PALETTE.len()])))
        .collect();
    if !ticks.is_empty() {
        legend.push(("full GC".into(), hex(IOWAIT)));
    }
    if top == 0.0 && marks.is_empty() && ticks.is_empty() {
        // Nothing but zeros: one line of text says so, instead of a flat chart.
        return Drawn {
            id: id.to_string(),
            title: title.to_string(),
            caption: format!("0 throughout the window · {caption}"),
            svg: String::new(),
            legend,
            marks: Vec::new(),
            top: 0.0,
            segment: None,
        };
    }
    let y1 = value_axis(top, y_max);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 170)).into_drawing_area();
        if let Some(mut chart) = frame(&root, x, (0.0, y1), clock, true, &|v| fmt_num(*v)) {
            shade(&mut chart, marks, (0.0, y1), (x.1 - x.0) / 200.0, true);
            // Events (full GCs): short ticks up from the bottom.
            let tick = rgb(IOWAIT);
            for t in ticks {
                let _ = chart.draw_series(std::iter::once(PathElement::new(
                    vec![(*t, 0.0), (*t, y1 * 0.12)],
                    tick.stroke_width(3),
                )));
            }
            for (i, s) in series.iter().enumerate() {
                let color = rgb(PALETTE[i % PALETTE.len()]);
                for seg in segments(&s.points) {
                    if seg.len() == 1 {
                        let _ = chart.draw_series(std::iter::once(Circle::new(
                            seg[0],
                            2,
                            color.filled(),
                        )));
                    } else {
                        let _ = chart.draw_series(std::iter::once(PathElement::new(
                            seg,
                            color.stroke_width(2),
                        )));
                    }
                }
            }
        }
        let _ = root.present();
    }
    Drawn {
        id: id.to_string(),
        title: title.to_string(),
        caption,
        svg: finish(svg),
        legend,
        marks: marks.to_vec(),
        top: peak_here,
        segment: None,
    }
}

/// One panel per CPU: stacked bands of %soft, the rest of busy, and %iowait.
fn cpu_panels(c: &CpuChart, x: (f64, f64), clock: &Clock, marks: &[Mark]) -> String {
    use plotters::prelude::*;
    const PANEL: u32 = 84;
    let n = c.rows.len().max(1);
    let height = PANEL * n as u32 + 24;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        let mut rest = root.clone();
        for (i, row) in c.rows.iter().enumerate() {
            let last = i + 1 == c.rows.len();
            let (panel, below) = if last {
                (rest.clone(), rest.clone())
            } else {
                rest.split_vertically(PANEL)
            };
            rest = below;
            // Only the last panel labels 0: the panels touch.
            let fmt_y = |v: &f64| {
                if *v < 1.0 && !last {
                    String::new()
                } else {
                    format!("{v:.0} %")
                }
            };
            let Some(mut chart) = frame(&panel, x, (0.0, 100.0), clock, last, &fmt_y) else {
                continue;
            };
            // The CPU's name at the top right, clear of the findings' numbers at the left.
            let _ = chart.draw_series(std::iter::once(Text::new(
                format!("CPU {}", row.cpu),
                (x.1 - (x.1 - x.0) * 0.005, 93.0),
                ("sans-serif", 13).into_font().color(&INK).pos(
                    plotters::style::text_anchor::Pos::new(
                        plotters::style::text_anchor::HPos::Right,
                        plotters::style::text_anchor::VPos::Top,
                    ),
                ),
            )));
            shade(&mut chart, marks, (0.0, 100.0), (x.1 - x.0) / 200.0, false);
            let cols = c.times.len();
            // Band edges per column: 0 → %soft → busy → busy + %iowait.
            let edge = |k: usize, level: usize| -> Option<f64> {
                let busy = row.busy[k]?;
                let soft = row.soft[k].unwrap_or(0.0).min(busy);
                Some(match level {
                    0 => 0.0,
                    1 => soft,
                    2 => busy,
                    _ => (busy + row.iowait[k].unwrap_or(0.0)).min(100.0),
                })
            };
            for (level, color) in [(0, SOFT), (1, BUSY), (2, IOWAIT)] {
                let mut k = 0;
                while k < cols {
                    if edge(k, level).is_none() {
                        k += 1;
                        continue;
                    }
                    let mut e = k + 1;
                    while e < cols
                        && edge(e, level).is_some()
                        && c.times[e] - c.times[e - 1] <= c.column_s * 2.5
                    {
                        e += 1;
                    }
                    let w = if e - k == 1 { c.column_s / 2.0 } else { 0.0 };
                    let mut poly: Vec<(f64, f64)> = Vec::with_capacity(2 * (e - k) + 2);
                    for j in k..e {
                        let hi = edge(j, level + 1).unwrap_or(0.0);
                        if j == k {
                            poly.push((c.times[j] - w, hi));
                        }
                        poly.push((c.times[j] + if j + 1 == e { w } else { 0.0 }, hi));
                    }
                    for j in (k..e).rev() {
                        let lo = edge(j, level).unwrap_or(0.0);
                        poly.push((c.times[j] + if j + 1 == e { w } else { 0.0 }, lo));
                        if j == k {
                            poly.push((c.times[j] - w, lo));
                        }
                    }
                    let _ = chart.draw_series(std::iter::once(Polygon::new(
                        poly,
                        rgb(color).mix(0.85).filled(),
                    )));
                    k = e;
                }
            }
        }
        let _ = root.present();
    }
    finish(svg)
}

/// A CPU × time heatmap: rows are CPUs (the first at the bottom), colour opacity is the value (%),
/// quantised to tenths; equal neighbouring cells are merged into one rectangle.
fn heatmap(
    times: &[f64],
    column_s: f64,
    rows: &[(u32, &[Option<f64>])],
    color: (u8, u8, u8),
    x: (f64, f64),
    clock: &Clock,
    marks: &[Mark],
) -> String {
    use plotters::prelude::*;
    let n = rows.len();
    let row_px = if n <= 32 {
        10
    } else if n <= 96 {
        4
    } else {
        2
    };
    let height = (n as u32 * row_px + 30).max(120);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        let ny = n as f64;
        let labels: Vec<u32> = rows.iter().map(|r| r.0).collect();
        let fmt_y = |v: &f64| {
            labels
                .get(v.floor() as usize)
                .map(|c| format!("CPU {c}"))
                .unwrap_or_default()
        };
        if let Some(mut chart) = frame(&root, x, (0.0, ny), clock, true, &fmt_y) {
            let half = column_s / 2.0;
            let level = |v: Option<f64>| {
                v.map(|v| (v.clamp(0.0, 100.0) / 10.0).round() as u8)
                    .unwrap_or(0)
            };
            let mut cells = Vec::new();
            for (r, (_, vals)) in rows.iter().enumerate() {
                let y0 = r as f64;
                let mut k = 0;
                while k < vals.len() {
                    let lv = level(vals[k]);
                    let mut e = k + 1;
                    while e < vals.len()
                        && level(vals[e]) == lv
                        && (times[e] - times[e - 1]) <= column_s * 1.5
                    {
                        e += 1;
                    }
                    if lv > 0 {
                        cells.push(Rectangle::new(
                            [(times[k] - half, y0), (times[e - 1] + half, y0 + 1.0)],
                            rgb(color).mix(f64::from(lv) / 10.0).filled(),
                        ));
                    }
                    k = e;
                }
            }
            let _ = chart.draw_series(cells);
            shade(&mut chart, marks, (0.0, ny), (x.1 - x.0) / 200.0, false);
        }
        let _ = root.present();
    }
    finish(svg)
}

/// The highest per-CPU total of soft-IRQ rates.
fn softirq_peak(s: &SoftirqChart) -> f64 {
    let mut totals = vec![0.0_f64; s.cpus.len()];
    for t in &s.types {
        for p in &t.points {
            if let Some(i) = s.cpus.iter().position(|c| f64::from(*c) == p.0) {
                totals[i] += p.1.unwrap_or(0.0);
            }
        }
    }
    totals.iter().copied().fold(0.0_f64, f64::max)
}

/// Stacked bars: one per CPU, one colour per soft-IRQ type; the scale reaches at least `top`.
fn softirq_bars(s: &SoftirqChart, top: f64) -> String {
    use plotters::prelude::*;
    let n = s.cpus.len().max(1);
    let top = value_axis(softirq_peak(s).max(top).max(1.0), None);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 220)).into_drawing_area();
        let chart = ChartBuilder::on(&root)
            .margin_right(16)
            .margin_top(6)
            .x_label_area_size(22)
            .y_label_area_size(64)
            .build_cartesian_2d(0.0..n as f64, 0.0..top);
        if let Ok(mut chart) = chart {
            let _ = chart
                .configure_mesh()
                .x_labels(0)
                .y_labels(4)
                .y_label_formatter(&|v| format!("{}/s", fmt_num(*v)))
                .axis_style(INK.mix(0.5))
                .bold_line_style(INK.mix(0.12))
                .light_line_style(TRANSPARENT)
                .label_style(("sans-serif", 13).into_font().color(&INK))
                .disable_x_mesh()
                .draw();
            let mut base = vec![0.0_f64; n];
            for (k, t) in s.types.iter().enumerate() {
                let color = rgb(PALETTE[k % PALETTE.len()]);
                let bars: Vec<_> = t
                    .points
                    .iter()
                    .filter_map(|p| {
                        let i = s.cpus.iter().position(|c| f64::from(*c) == p.0)?;
                        let v = p.1.unwrap_or(0.0);
                        let b = base[i];
                        base[i] += v;
                        (v > 0.0).then(|| {
                            Rectangle::new(
                                [(i as f64 + 0.1, b), (i as f64 + 0.9, b + v)],
                                color.filled(),
                            )
                        })
                    })
                    .collect();
                let _ = chart.draw_series(bars);
            }
            // CPU names under their bars (every k-th when there are many).
            let every = n.div_ceil(32).max(1);
            let names: Vec<_> = s
                .cpus
                .iter()
                .enumerate()
                .filter(|(i, _)| i % every == 0)
                .map(|(i, c)| {
                    Text::new(
                        if n <= 16 {
                            format!("CPU {c}")
                        } else {
                            c.to_string()
                        },
                        (i as f64 + 0.5, 0.0),
                        ("sans-serif", 12).into_font().color(&INK).pos(
                            plotters::style::text_anchor::Pos::new(
                                plotters::style::text_anchor::HPos::Center,
                                plotters::style::text_anchor::VPos::Top,
                            ),
                        ),
                    )
                })
                .collect();
            let _ = chart.draw_series(names);
        }
        let _ = root.present();
    }
    finish(svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::coord::ranged1d::Ranged;
    use plotters::coord::types::RangedCoordf64;

    /// Plotters' tick search over `0..top`, as a drawn chart runs it: must end with few ticks.
    fn ticks_end(top: f64) {
        let coord: RangedCoordf64 = (0.0..top).into();
        for hint in [3, 4, 10] {
            let n = coord.key_points(hint).len();
            assert!(n <= hint, "{n} ticks for a hint of {hint} on 0..{top}");
        }
    }

    #[test]
    fn value_axes_are_finite_whatever_the_values() {
        let cases = [
            // (peak, fixed scale) → top
            (f64::INFINITY, None, AXIS_MAX * 1.1),
            (f64::MAX, None, AXIS_MAX * 1.1),
            (1.7e308, Some(100.0), AXIS_MAX * 1.1),
            (f64::NAN, None, 1.0),
            (f64::NAN, Some(100.0), 100.0),
            (f64::NEG_INFINITY, None, 1.0),
            (-5.0, None, 1.0),
            (0.0, None, 1.0),
            (0.0, Some(100.0), 100.0),
            (5e-324, None, AXIS_MIN),
            (f64::MIN_POSITIVE, None, AXIS_MIN),
            (42.0, None, 42.0 * 1.1),
            (42.0, Some(100.0), 100.0),
            (100.0, Some(100.0), 100.0),
            (250.0, Some(100.0), 250.0 * 1.1),
            (1.8e19, None, 1.8e19 * 1.1),
            (3.0, Some(f64::NAN), 3.0 * 1.1),
            (3.0, Some(f64::INFINITY), 3.0 * 1.1),
        ];
        for (peak, fixed, want) in cases {
            let top = value_axis(peak, fixed);
            assert_eq!(top, want, "value_axis({peak}, {fixed:?})");
            assert!(top.is_finite() && top > 0.0);
            ticks_end(top);
        }
        // Every power of ten an axis can span, and a few mantissas in each.
        for e in -7..=31 {
            for m in [1.0, 1.7, 2.5, 9.99] {
                let top = value_axis(m * 10f64.powi(e), None);
                assert!((AXIS_MIN..=AXIS_MAX * 1.1).contains(&top), "{top}");
                ticks_end(top);
            }
        }
    }

    #[test]
    fn a_chart_of_hostile_values_is_drawn_on_a_finite_axis() {
        let clock = Clock {
            origin_local_s: 0.0,
            origin_epoch: None,
            utc_offset_s: None,
            dated: false,
        };
        let series = |v: Vec<Option<f64>>| Series {
            label: "vda".into(),
            points: v
                .into_iter()
                .enumerate()
                .map(|(i, v)| (i as f64, v))
                .collect(),
        };
        let hostile = [
            vec![Some(1.0), Some(f64::INFINITY), Some(2.0)],
            vec![Some(1.7e308), Some(1.7e308), Some(1.0)],
            vec![Some(f64::NAN), Some(-1.0), None],
            vec![Some(7.0), Some(7.0), Some(7.0)],
            vec![Some(-3.0), Some(-3.0), Some(-3.0)],
        ];
        for (k, values) in hostile.into_iter().enumerate() {
            for x in [
                (0.0, 2.0),
                (1.0, 1.0),
                (0.0, f64::INFINITY),
                (f64::NAN, 2.0),
            ] {
                for fixed in [None, Some(100.0)] {
                    let d = lines(
                        "chart-test",
                        "test",
                        String::new(),
                        &[series(values.clone())],
                        x,
                        &clock,
                        &[],
                        fixed,
                        &BTreeMap::new(),
                        &[],
                    );
                    assert!(d.top.is_finite(), "case {k}: top {}", d.top);
                    assert!(!d.svg.contains("NaN") && !d.svg.contains("inf"), "case {k}");
                }
            }
        }
    }

    #[test]
    fn the_band_limit_is_named_only_when_findings_were_left_out() {
        let series = |label: &str| Series {
            label: label.into(),
            points: (0..10).map(|i| (i as f64, Some(i as f64))).collect(),
        };
        let mark = |i: usize, area: &str| Mark {
            finding: i + 1,
            rule_id: "memory.swap-storm".into(),
            area: area.into(),
            severity: "warning".into(),
            from_s: 1.0,
            to_s: 2.0,
            segment: 0,
        };
        let charts = |n: usize| Charts {
            axis: Some(super::super::TimeAxis {
                origin_epoch: None,
                utc_offset_s: None,
                origin_local_s: 0.0,
                start_s: 0.0,
                end_s: 9.0,
                window_s: Some(9.0),
                clock: "host clock".into(),
                dated: false,
            }),
            swap: Some(super::super::SwapChart {
                artifact: "sysstat/vmstat.txt".into(),
                si: series("si"),
                so: series("so"),
            }),
            // `n` memory findings, and findings of another area that the swap chart ignores.
            marks: (0..n)
                .map(|i| mark(i, "memory"))
                .chain((0..5).map(|i| mark(n + i, "disk")))
                .collect(),
            ..Charts::default()
        };
        let swap = |n: usize| {
            draw_charts(&charts(n), &BTreeMap::new())
                .into_iter()
                .find(|d| d.id == "chart-swap")
                .expect("swap chart")
        };
        for n in [0, 1, MAX_MARKS] {
            let d = swap(n);
            assert_eq!(d.marks.len(), n);
            assert!(!d.caption.contains("At most"), "{n}: {}", d.caption);
        }
        let d = swap(MAX_MARKS + 3);
        assert_eq!(d.marks.len(), MAX_MARKS);
        assert!(
            d.caption.ends_with(&format!(
                "At most {MAX_MARKS} findings' time ranges are shaded, the highest-ranked first: 3 more not shaded."
            )),
            "{}",
            d.caption
        );
    }

    #[test]
    fn a_series_with_gaps_is_drawn_in_segments() {
        let pts = vec![
            (0.0, Some(1.0)),
            (1.0, Some(2.0)),
            (2.0, None),
            (3.0, Some(4.0)),
            (4.0, Some(5.0)),
            (20.0, Some(6.0)),
        ];
        let segs = segments(&pts);
        assert_eq!(segs.len(), 3, "{segs:?}");
        assert_eq!(segs[0], vec![(0.0, 1.0), (1.0, 2.0)]);
        assert_eq!(segs[2], vec![(20.0, 6.0)]);
    }
}
