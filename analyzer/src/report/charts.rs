//! The report's charts: the host's time series ([`crate::facts::series`]) fitted to the page,
//! serialised as the report's `charts` part (so also in the JSON document), and drawn as inline
//! SVG with plotters' SVG backend ([`draw()`], [`draw_pair`] for the comparison page).
//!
//! In: [`HostFacts`] (its [`TimeSeries`], soft-IRQ rates, JVM labels) and the ranked findings.
//! Out: [`Charts`] on a [`TimeAxis`] that spans the collection window and every point drawn,
//! with the findings' time ranges ([`Mark`]).
//!
//! Fitting is presentation and stays here: line series are binned (mean of each bin) to at most
//! [`MAX_POINTS`] points, CPU columns to the heatmap's cell budget ([`HEATMAP_CELLS`], from
//! [`HEATMAP_FROM_CPUS`] CPUs on), and the [`MAX_LINES`] busiest devices and interfaces are
//! kept. The facts keep every sample, so a rule sees the sample a bin's mean would hide.

pub use crate::facts::series::{CpuRow, Mark};

use super::Report;
use crate::facts::series::{
    self, median_step, Clock, CpuTimeline, DiskTimeline, GcTimeline, NicTimeline, SwapTimeline,
    TimeSeries,
};
use crate::facts::HostFacts;
use crate::rules::Finding;
use serde::Serialize;
use std::collections::BTreeMap;

/// Most points kept per line series (the chart is about 1100 pixels wide).
pub const MAX_POINTS: usize = 600;
/// From this many CPUs on, utilisation is drawn as CPU × time heatmaps instead of one panel
/// per CPU.
pub const HEATMAP_FROM_CPUS: usize = 9;
/// Most cells of one heatmap (CPUs × time columns); columns are binned to stay below it.
pub const HEATMAP_CELLS: usize = 12_000;
/// Fewest time columns of a heatmap, whatever the CPU count.
pub const HEATMAP_MIN_COLUMNS: usize = 40;
/// Most devices or interfaces drawn in one chart; the busiest are kept.
pub const MAX_LINES: usize = 8;

/// The report's charts. Every time is in seconds on [`TimeAxis`].
#[derive(Debug, Clone, Default, Serialize)]
pub struct Charts {
    /// The shared time axis; `None` when no series has a usable time.
    pub axis: Option<TimeAxis>,
    /// Per-CPU utilisation, `%soft` and `%iowait` (from `mpstat -P ALL`).
    pub cpu: Option<CpuChart>,
    /// Per-device `await`, `aqu-sz` and `%util` (from `iostat -x`).
    pub disk: Option<DiskChart>,
    /// Per-interface throughput and drops (from `sar -n DEV` and `sar -n EDEV`).
    pub nic: Option<NicChart>,
    /// Soft-IRQ rates per CPU and type, averaged over the window (two `/proc/softirqs`
    /// snapshots).
    pub softirq: Option<SoftirqChart>,
    /// Per JVM: old generation and GC time (from `jstat -gcutil`).
    pub gc: Vec<GcChart>,
    /// Swap-in and swap-out (from `vmstat`).
    pub swap: Option<SwapChart>,
    /// Time ranges of findings, to shade on the charts of their area.
    pub marks: Vec<Mark>,
    /// Charts that could not be drawn and why: `{chart, why}`.
    pub missing: Vec<Missing>,
}

/// The time axis shared by every chart: the host's [`Clock`] and the span drawn.
#[derive(Debug, Clone, Serialize)]
pub struct TimeAxis {
    /// UTC epoch seconds of time 0 (the collection window's start), when the manifest gives it.
    pub origin_epoch: Option<f64>,
    /// Host clock minus UTC, seconds (a multiple of 900), when known.
    pub utc_offset_s: Option<i64>,
    /// Host-clock seconds of the day at time 0 (plus days since 1970 when known).
    pub origin_local_s: f64,
    /// First and last second shown: the window, widened to every sample.
    pub start_s: f64,
    /// See `start_s`.
    pub end_s: f64,
    /// The window's length, seconds, when known.
    pub window_s: Option<f64>,
    /// How the axis labels read (`host clock, UTC+01:00`).
    pub clock: String,
}

/// One line: `points` are `[t, value]`, `value` null where the sample is missing.
#[derive(Debug, Clone, Serialize)]
pub struct Series {
    /// Device, interface, CPU or quantity name.
    pub label: String,
    /// Points in time order.
    pub points: Vec<(f64, Option<f64>)>,
}

/// Per-CPU utilisation: one row per CPU, all aligned with `times`.
#[derive(Debug, Clone, Serialize)]
pub struct CpuChart {
    /// Artifact the samples come from.
    pub artifact: String,
    /// Column times (bin centres when binned).
    pub times: Vec<f64>,
    /// Samples averaged per column (1 when not binned).
    pub per_column: usize,
    /// Seconds a column spans.
    pub column_s: f64,
    /// One row per CPU, in CPU order.
    pub rows: Vec<CpuRow>,
}

/// Per-device I/O series.
#[derive(Debug, Clone, Serialize)]
pub struct DiskChart {
    /// Artifact the samples come from.
    pub artifact: String,
    /// `await`, ms, per device.
    pub await_ms: Vec<Series>,
    /// `aqu-sz` per device.
    pub aqu_sz: Vec<Series>,
    /// `%util` per device.
    pub util_pct: Vec<Series>,
    /// Devices left out (quieter than the [`MAX_LINES`] drawn).
    pub omitted: usize,
}

/// Per-interface network series.
#[derive(Debug, Clone, Serialize)]
pub struct NicChart {
    /// Artifacts the samples come from.
    pub artifacts: Vec<String>,
    /// `rxkB/s` per interface.
    pub rx_kb_per_s: Vec<Series>,
    /// `txkB/s` per interface.
    pub tx_kb_per_s: Vec<Series>,
    /// `rxdrop/s + txdrop/s + rxfifo/s` per interface (`sar -n EDEV`).
    pub drops_per_s: Vec<Series>,
    /// Interfaces left out.
    pub omitted: usize,
}

/// Soft-IRQ rates per CPU, by type, events per second averaged between the snapshots.
#[derive(Debug, Clone, Serialize)]
pub struct SoftirqChart {
    /// First and last snapshot.
    pub artifacts: (String, String),
    /// Seconds between them.
    pub seconds: f64,
    /// CPU numbers, the bars.
    pub cpus: Vec<u32>,
    /// One entry per type with any event: `{label: NET_RX, points: [[cpu, rate]]}`.
    pub types: Vec<Series>,
}

/// One JVM's GC over the window.
#[derive(Debug, Clone, Serialize)]
pub struct GcChart {
    /// The JVM (`ZooKeeper (pid 4242)`).
    pub jvm: String,
    /// The `jstat` artifact.
    pub artifact: String,
    /// Old generation (`O`), % of its capacity.
    pub old_pct: Series,
    /// Time in GC pauses (`YGCT + FGCT`), % of each interval.
    pub gc_time_pct: Series,
    /// Times at which `FGC` grew.
    pub full_gcs: Vec<f64>,
}

/// Swap traffic.
#[derive(Debug, Clone, Serialize)]
pub struct SwapChart {
    /// The `vmstat` artifact.
    pub artifact: String,
    /// `si`, KiB/s.
    pub si: Series,
    /// `so`, KiB/s.
    pub so: Series,
}

/// A chart that is not drawn, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Missing {
    /// `cpu`, `disk`, `nic`, `softirq`, `gc`, `swap`, or `all` without a time axis.
    pub chart: &'static str,
    /// Why.
    pub why: String,
}

/// Averages consecutive points into at most `max` bins (time: mean of the bin's times; value:
/// mean of its present values, `None` when none is present).
pub(crate) fn bin(points: &[(f64, Option<f64>)], max: usize) -> Vec<(f64, Option<f64>)> {
    if points.len() <= max || max == 0 {
        return points.to_vec();
    }
    let k = points.len().div_ceil(max);
    points
        .chunks(k)
        .map(|c| {
            let t = c.iter().map(|p| p.0).sum::<f64>() / c.len() as f64;
            let vals: Vec<f64> = c.iter().filter_map(|p| p.1).collect();
            let v = (!vals.is_empty()).then(|| vals.iter().sum::<f64>() / vals.len() as f64);
            (t, v)
        })
        .collect()
}

fn chunked_mean(v: &[Option<f64>], k: usize) -> Vec<Option<f64>> {
    v.chunks(k)
        .map(|c| {
            let vals: Vec<f64> = c.iter().flatten().copied().collect();
            (!vals.is_empty()).then(|| vals.iter().sum::<f64>() / vals.len() as f64)
        })
        .collect()
}

/// The highest value of a series (0 when it has none above).
fn peak(s: &Series) -> f64 {
    s.points.iter().filter_map(|p| p.1).fold(0.0_f64, f64::max)
}

/// A series binned to [`MAX_POINTS`].
fn line(label: &str, points: &[(f64, Option<f64>)]) -> Series {
    Series {
        label: label.to_string(),
        points: bin(points, MAX_POINTS),
    }
}

impl Charts {
    /// Fits every series of the facts to the page, with the findings' time ranges.
    pub fn build(facts: &HostFacts, findings: &[Finding]) -> Charts {
        let mut out = Charts::default();
        let Some(ts) = &facts.series else {
            out.missing.push(Missing {
                chart: "all",
                why: facts
                    .series_missing
                    .clone()
                    .unwrap_or_else(|| series::NO_CLOCK.into()),
            });
            return out;
        };
        out.cpu = out.fit("cpu", &ts.cpu, cpu_chart);
        out.disk = out.fit("disk", &ts.disks, disk_chart);
        out.nic = out.fit("nic", &ts.nics, nic_chart);
        out.softirq = softirq_chart(facts, &mut out.missing);
        out.gc = ts.gc.iter().map(|g| gc_chart(g, facts)).collect();
        for why in &ts.gc_missing {
            out.missing.push(Missing {
                chart: "gc",
                why: why.clone(),
            });
        }
        out.swap = out.fit("swap", &ts.swap, swap_chart);
        out.marks = series::marks(&ts.clock, findings);
        out.axis = Some(out.span(ts, facts.window.map(|(s, e)| e - s)));
        out
    }

    /// `fit` of a series, or `None` with why it is missing.
    fn fit<T, C>(
        &mut self,
        chart: &'static str,
        s: &Result<T, String>,
        fit: impl FnOnce(&T) -> C,
    ) -> Option<C> {
        match s {
            Ok(t) => Some(fit(t)),
            Err(why) => {
                self.missing.push(Missing {
                    chart,
                    why: why.clone(),
                });
                None
            }
        }
    }

    /// The axis: the window (`window_s` long) widened to every time drawn.
    fn span(&self, ts: &TimeSeries, window_s: Option<f64>) -> TimeAxis {
        let (mut lo, mut hi) = (0.0_f64, window_s.unwrap_or(0.0));
        let mut widen = |t: f64| {
            lo = lo.min(t);
            hi = hi.max(t);
        };
        self.each_time(&mut widen);
        let clock = &ts.clock;
        TimeAxis {
            origin_epoch: clock.origin_epoch,
            utc_offset_s: clock.utc_offset_s,
            origin_local_s: clock.origin_local_s,
            start_s: lo,
            end_s: if hi > lo { hi } else { lo + 1.0 },
            window_s,
            clock: clock.describe(),
        }
    }

    /// Calls `f` with every time of every time series.
    fn each_time(&self, f: &mut impl FnMut(f64)) {
        if let Some(c) = &self.cpu {
            c.times.iter().for_each(|t| f(*t));
        }
        let mut series = |s: &[Series]| {
            s.iter().flat_map(|s| s.points.iter()).for_each(|p| f(p.0));
        };
        if let Some(d) = &self.disk {
            series(&d.await_ms);
        }
        if let Some(n) = &self.nic {
            series(&n.rx_kb_per_s);
            series(&n.drops_per_s);
        }
        for g in &self.gc {
            series(std::slice::from_ref(&g.old_pct));
        }
        if let Some(s) = &self.swap {
            series(std::slice::from_ref(&s.si));
        }
    }

    /// The axis as a [`Clock`], for labels.
    fn clock(&self) -> Option<Clock> {
        self.axis.as_ref().map(|a| Clock {
            origin_local_s: a.origin_local_s,
            origin_epoch: a.origin_epoch,
            utc_offset_s: a.utc_offset_s,
        })
    }
}

/// CPU columns binned: to [`MAX_POINTS`] for panels, to the cell budget for heatmaps.
fn cpu_chart(t: &CpuTimeline) -> CpuChart {
    let n = t.times.len();
    let max_cols = if t.rows.len() >= HEATMAP_FROM_CPUS {
        (HEATMAP_CELLS / t.rows.len()).max(HEATMAP_MIN_COLUMNS)
    } else {
        MAX_POINTS
    };
    let k = n.div_ceil(max_cols).max(1);
    let times: Vec<f64> = t
        .times
        .chunks(k)
        .map(|c| c.iter().sum::<f64>() / c.len() as f64)
        .collect();
    let mut rows = t.rows.clone();
    if k > 1 {
        for r in &mut rows {
            r.busy = chunked_mean(&r.busy, k);
            r.soft = chunked_mean(&r.soft, k);
            r.iowait = chunked_mean(&r.iowait, k);
        }
    }
    CpuChart {
        artifact: t.artifact.clone(),
        times,
        per_column: k,
        column_s: t.step_s * k as f64,
        rows,
    }
}

/// The [`MAX_LINES`] busiest devices (by peak queue, then peak utilisation), by name.
fn disk_chart(t: &DiskTimeline) -> DiskChart {
    let mut all: Vec<(Series, Series, Series)> = t
        .devices
        .iter()
        .map(|d| {
            (
                line(&d.device, &d.await_ms),
                line(&d.device, &d.aqu_sz),
                line(&d.device, &d.util_pct),
            )
        })
        .collect();
    all.sort_by(|a, b| {
        (peak(&b.1) + peak(&b.2) / 100.0).total_cmp(&(peak(&a.1) + peak(&a.2) / 100.0))
    });
    let omitted = all.len().saturating_sub(MAX_LINES);
    all.truncate(MAX_LINES);
    all.sort_by(|a, b| a.0.label.cmp(&b.0.label));
    let mut chart = DiskChart {
        artifact: t.artifact.clone(),
        await_ms: Vec::new(),
        aqu_sz: Vec::new(),
        util_pct: Vec::new(),
        omitted,
    };
    for (a, q, u) in all {
        chart.await_ms.push(a);
        chart.aqu_sz.push(q);
        chart.util_pct.push(u);
    }
    chart
}

/// The [`MAX_LINES`] busiest interfaces (drops first, then throughput), by name; loopback only
/// when it is all there is.
fn nic_chart(t: &NicTimeline) -> NicChart {
    let shown = |i: &&series::InterfaceTimeline| t.interfaces.len() == 1 || i.iface != "lo";
    let mut all: Vec<(Series, Series, Series)> = t
        .interfaces
        .iter()
        .filter(shown)
        .map(|i| {
            (
                line(&i.iface, &i.rx_kb_per_s),
                line(&i.iface, &i.tx_kb_per_s),
                line(&i.iface, &i.drops_per_s),
            )
        })
        .collect();
    all.sort_by(|a, b| {
        let score = |x: &(Series, Series, Series)| peak(&x.0) + peak(&x.1) + peak(&x.2) * 1e6;
        score(b).total_cmp(&score(a))
    });
    let omitted = all.len().saturating_sub(MAX_LINES);
    all.truncate(MAX_LINES);
    all.sort_by(|a, b| a.0.label.cmp(&b.0.label));
    let mut chart = NicChart {
        artifacts: t.artifacts.clone(),
        rx_kb_per_s: Vec::new(),
        tx_kb_per_s: Vec::new(),
        drops_per_s: Vec::new(),
        omitted,
    };
    for (rx, tx, d) in all {
        if !rx.points.is_empty() {
            chart.rx_kb_per_s.push(rx);
            chart.tx_kb_per_s.push(tx);
        }
        if !d.points.is_empty() {
            chart.drops_per_s.push(d);
        }
    }
    chart
}

/// Bars per CPU for the soft-IRQ types with any event.
fn softirq_chart(facts: &HostFacts, missing: &mut Vec<Missing>) -> Option<SoftirqChart> {
    let Some(s) = &facts.softirqs else {
        missing.push(Missing {
            chart: "softirq",
            why: facts
                .softirqs_missing
                .clone()
                .unwrap_or_else(|| "no soft-IRQ snapshots".into()),
        });
        return None;
    };
    let mut cpus: Vec<u32> = s
        .rates
        .iter()
        .flat_map(|r| r.per_cpu.iter().map(|p| p.0))
        .collect();
    cpus.sort_unstable();
    cpus.dedup();
    let types: Vec<Series> = s
        .rates
        .iter()
        .filter(|r| r.per_cpu.iter().any(|p| p.1 > 0.0))
        .map(|r| Series {
            label: r.name.clone(),
            points: r.per_cpu.iter().map(|p| (p.0 as f64, Some(p.1))).collect(),
        })
        .collect();
    Some(SoftirqChart {
        artifacts: (s.first.clone(), s.last.clone()),
        seconds: s.seconds,
        cpus,
        types,
    })
}

fn gc_chart(g: &GcTimeline, facts: &HostFacts) -> GcChart {
    GcChart {
        jvm: facts.jvms[g.jvm].label(),
        artifact: g.artifact.clone(),
        old_pct: line("Old gen (O) %", &g.old_pct),
        gc_time_pct: line("GC time, % of interval", &g.gc_time_pct),
        full_gcs: g.full_gcs.clone(),
    }
}

fn swap_chart(t: &SwapTimeline) -> SwapChart {
    SwapChart {
        artifact: t.artifact.clone(),
        si: line("si (swap-in)", &t.si),
        so: line("so (swap-out)", &t.so),
    }
}

// ---------------------------------------------------------------------------------------------
// Drawing

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
}

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
/// given peak.
pub fn draw_charts(ch: &Charts, tops: &BTreeMap<String, f64>) -> Vec<Drawn> {
    let (Some(axis), Some(clock)) = (&ch.axis, ch.clock()) else {
        return Vec::new();
    };
    let x = (axis.start_s, axis.end_s);
    let marks = |areas: &[&str]| -> Vec<Mark> {
        ch.marks
            .iter()
            .filter(|m| areas.contains(&m.area.as_str()))
            .cloned()
            .collect()
    };
    let mut out = Vec::new();
    if let Some(c) = &ch.cpu {
        let m = marks(&["cpu", "network", "disk"]);
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
    }
    if let Some(d) = &ch.disk {
        let m = marks(&["disk"]);
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
    }
    if let Some(n) = &ch.nic {
        let m = marks(&["network"]);
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
    }
    if let Some(s) = &ch.swap {
        let m = marks(&["memory"]);
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
    }
    for (i, g) in ch.gc.iter().enumerate() {
        let m = marks(&["jvm", "zookeeper"]);
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
    }
    if let Some(s) = &ch.softirq {
        if !s.types.is_empty() {
            out.push(Drawn {
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
            });
        }
    }
    out
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

/// Axes and grid on `area`, with time labels.
fn frame<'a, 'b>(
    area: &'a Area<'b>,
    x: (f64, f64),
    y: (f64, f64),
    clock: &Clock,
    x_labels: bool,
    y_fmt: &dyn Fn(&f64) -> String,
) -> Option<Chart2d<'a, 'b>> {
    use plotters::prelude::*;
    let mut chart = ChartBuilder::on(area)
        .margin_right(16)
        .margin_top(6)
        .x_label_area_size(if x_labels { 22 } else { 0 })
        .y_label_area_size(64)
        .build_cartesian_2d(x.0..x.1, y.0..y.1)
        .ok()?;
    let fmt_x = |v: &f64| clock.label(*v);
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
    if a >= 1e6 {
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
        };
    }
    let y1 = match y_max {
        Some(m) if top <= m => m,
        _ if top > 0.0 => top * 1.1,
        _ => 1.0,
    };
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
    let top = softirq_peak(s).max(top).max(1.0) * 1.1;
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
    use crate::artifacts::Collected;
    use crate::facts::{CpuSample, CpuSeries, DiskSample, DiskSeries};
    use parsers::iostat::Timestamp;
    use std::path::Path;

    fn ts(h: u32, m: u32, s: u32) -> Option<Timestamp> {
        Some(Timestamp {
            date: None,
            seconds_of_day: h * 3600 + m * 60 + s,
        })
    }

    fn empty() -> Collected {
        Collected {
            artifacts: Vec::new(),
            manifest: None,
            manifest_path: None,
            summary: Default::default(),
        }
    }

    fn cpu(n: u32, steps: u32, soft: f64) -> CpuSeries {
        CpuSeries {
            cpu: n,
            artifact: "sysstat/mpstat.txt".into(),
            samples: (0..steps)
                .map(|i| CpuSample {
                    time: ts(10, 0, i),
                    line: 3 + i as usize,
                    header_line: 2,
                    user_pct: Some(10.0),
                    sys_pct: Some(5.0),
                    iowait_pct: Some(2.0),
                    irq_pct: Some(0.0),
                    soft_pct: Some(soft),
                    steal_pct: Some(0.0),
                    idle_pct: Some(83.0 - soft),
                })
                .collect(),
        }
    }

    fn report(mut facts: HostFacts) -> Report {
        facts.series = series::build(&facts, &empty()).ok();
        let eval = crate::rules::evaluate(&facts);
        Report::new(Path::new("bundle"), empty(), facts, eval)
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

    #[test]
    fn binning_keeps_gaps_as_gaps_and_averages_the_rest() {
        let b = bin(
            &[(0.0, Some(1.0)), (1.0, Some(3.0)), (2.0, None), (3.0, None)],
            2,
        );
        assert_eq!(b, vec![(0.5, Some(2.0)), (2.5, None)]);
    }

    #[test]
    fn a_device_with_a_missing_sample_keeps_the_hole() {
        let f = HostFacts {
            disks: vec![DiskSeries {
                device: "sda".into(),
                artifact: "sysstat/iostat.txt".into(),
                samples: (0..6)
                    .map(|i| DiskSample {
                        time: ts(10, 0, i),
                        line: 10 + i as usize,
                        await_ms: (i != 3).then_some(5.0 + f64::from(i)),
                        aqu_sz: Some(0.5),
                        util_pct: Some(40.0),
                        iops: Some(100.0),
                    })
                    .collect(),
            }],
            ..Default::default()
        };
        let r = report(f);
        let d = r.charts.disk.as_ref().unwrap();
        assert_eq!(d.await_ms[0].points[3], (3.0, None));
        let drawn = draw(&r);
        let aw = drawn.iter().find(|d| d.id == "chart-disk-await").unwrap();
        assert_eq!(
            aw.svg.matches("stroke=\"#4E79A7\"").count(),
            2,
            "two segments"
        );
        assert!(!aw.svg.contains("http://"), "no namespace URL");
    }

    #[test]
    fn one_cpu_is_one_panel() {
        let f = HostFacts {
            cpus: vec![cpu(0, 30, 4.0)],
            ..Default::default()
        };
        let r = report(f);
        let c = r.charts.cpu.as_ref().unwrap();
        assert_eq!(c.rows.len(), 1);
        assert_eq!(c.times.len(), 30);
        assert_eq!(c.rows[0].busy[0], Some(19.0), "100 − %idle − %iowait");
        let drawn = draw(&r);
        let p = drawn.iter().find(|d| d.id == "chart-cpu").expect("panels");
        assert_eq!(p.svg.matches(">\nCPU 0\n<").count(), 1, "{}", p.svg);
        assert!(p.svg.contains("currentColor"));
        assert!(!drawn.iter().any(|d| d.id.starts_with("chart-cpu-")));
    }

    #[test]
    fn many_cpus_become_heatmaps_within_the_cell_budget() {
        let f = HostFacts {
            cpus: (0..256)
                .map(|n| cpu(n, 600, if n < 4 { 95.0 } else { 0.0 }))
                .collect(),
            ..Default::default()
        };
        let r = report(f);
        let c = r.charts.cpu.as_ref().unwrap();
        assert!(c.rows.len() * c.times.len() <= HEATMAP_CELLS.max(256 * HEATMAP_MIN_COLUMNS));
        assert!(c.per_column > 1);
        let drawn = draw(&r);
        let ids: Vec<&str> = drawn.iter().map(|d| d.id.as_str()).collect();
        assert!(
            ids.contains(&"chart-cpu-busy") && ids.contains(&"chart-cpu-soft"),
            "{ids:?}"
        );
        assert!(
            ids.contains(&"chart-cpu-iowait"),
            "2 % iowait everywhere is drawn: {ids:?}"
        );
        let soft = drawn.iter().find(|d| d.id == "chart-cpu-soft").unwrap();
        // Four hot rows, each merged into one rectangle; quiet cells are not drawn.
        let cells: Vec<&str> = soft
            .svg
            .split("<rect")
            .filter(|r| r.contains("fill=\"#F28E2B\""))
            .collect();
        assert_eq!(cells.len(), 4, "{cells:?}");
        assert!(soft.svg.len() < 200_000);
    }

    #[test]
    fn a_finding_time_range_is_shaded_on_its_charts() {
        let f = HostFacts {
            disks: vec![DiskSeries {
                device: "sdb".into(),
                artifact: "sysstat/iostat.txt".into(),
                samples: (0..20)
                    .map(|i| DiskSample {
                        time: ts(10, 0, i),
                        line: 10 + i as usize,
                        await_ms: Some(if i >= 5 { 90.0 } else { 1.0 }),
                        aqu_sz: Some(if i >= 5 { 12.0 } else { 0.1 }),
                        util_pct: Some(99.0),
                        iops: Some(100.0),
                    })
                    .collect(),
            }],
            ..Default::default()
        };
        let r = report(f);
        let m = &r.charts.marks;
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(
            (m[0].area.as_str(), m[0].from_s, m[0].to_s),
            ("disk", 5.0, 19.0)
        );
        let drawn = draw(&r);
        let aw = drawn.iter().find(|d| d.id == "chart-disk-await").unwrap();
        assert_eq!(aw.marks.len(), 1);
        assert!(aw.svg.contains(">\n#1\n<"), "the band is numbered");
    }

    #[test]
    fn labels_from_the_bundle_are_escaped_in_the_svg() {
        let f = HostFacts {
            disks: vec![DiskSeries {
                device: "<script>x</script>".into(),
                artifact: "a".into(),
                samples: (0..3)
                    .map(|i| DiskSample {
                        time: ts(10, 0, i),
                        line: 1,
                        await_ms: Some(1.0),
                        aqu_sz: Some(1.0),
                        util_pct: Some(1.0),
                        iops: None,
                    })
                    .collect(),
            }],
            ..Default::default()
        };
        let r = report(f);
        for d in draw(&r) {
            assert!(!d.svg.contains("<script"), "{}", d.id);
        }
    }
}
