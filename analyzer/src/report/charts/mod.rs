//! The report's charts: the host's time series ([`crate::facts::series`]) fitted to the page,
//! serialised as the report's `charts` part (so also in the JSON document), and drawn
//! ([`draw()`], [`draw_pair`] for the comparison page).
//!
//! In: [`HostFacts`] (its [`TimeSeries`], soft-IRQ rates, JVM labels) and the ranked findings.
//! Out: [`Charts`] on a [`TimeAxis`] that spans the collection window and every point drawn,
//! with the findings' time ranges ([`Mark`]).
//!
//! Fitting is presentation and stays here: line series are reduced to at most [`MAX_POINTS`]
//! points by min-max decimation ([`bin`]: each bucket's lowest and highest sample, so spikes
//! stay), CPU columns to the heatmap's cell budget ([`HEATMAP_CELLS`], from
//! [`HEATMAP_FROM_CPUS`] CPUs on), and the [`MAX_LINES`] busiest devices and interfaces are
//! kept. The facts keep every sample, so a rule sees every sample the chart's buckets stand for.
//!
//! Samples far apart in time (captures months apart in one folder) fall in separate
//! [`SegmentInfo`]s ([`crate::facts::series::segment`] says the rule): no bin spans two
//! segments, each segment is drawn on its own axis labelled with its date and time range, and
//! each finding's mark names the segment that holds it. One capture is one segment, drawn as a
//! single axis.

mod draw;

pub use crate::facts::series::CpuRow;
pub use draw::{draw, draw_charts, draw_pair, Drawn, PALETTE};

use crate::facts::series::{
    self, segment, Clock, CpuTimeline, DiskTimeline, GcTimeline, NicTimeline, Segment,
    SwapTimeline, TimeSeries,
};
use crate::facts::HostFacts;
use crate::rules::Finding;
use serde::Serialize;

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
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
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
    /// The runs of samples close together in time, in time order: one for one capture, one per
    /// capture when the bundle holds captures far apart. Each is drawn on its own axis.
    pub segments: Vec<SegmentInfo>,
}

/// One segment of the time axis: a run of samples close together in time.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SegmentInfo {
    /// First time, seconds on [`TimeAxis`].
    pub start_s: f64,
    /// Last time, seconds on [`TimeAxis`] (equal to `start_s` for a lone sample).
    pub end_s: f64,
    /// Start in the host's clock, `YYYY-MM-DDTHH:MM:SS`, when the date is known (a dated
    /// sample or the collection window); `None` when only the time of day is.
    pub start_host: Option<String>,
    /// End, like `start_host`.
    pub end_host: Option<String>,
    /// Start, UTC, RFC 3339, when the collection window is known.
    pub start_utc: Option<String>,
    /// End, like `start_utc`.
    pub end_utc: Option<String>,
    /// `2024-01-15 10:00:00 → 10:05:00` (the end's date only when it differs; no date when
    /// only the time of day is known), in the host's clock.
    pub label: String,
}

/// The time axis shared by every chart: the host's [`Clock`] and the span drawn.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
    /// Whether `origin_local_s` carries the date (else only the time of day is known).
    pub dated: bool,
}

/// One line: `points` are `[t, value]`, `value` null where the sample is missing.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Series {
    /// Device, interface, CPU or quantity name.
    pub label: String,
    /// Points in time order.
    pub points: Vec<(f64, Option<f64>)>,
}

/// Per-CPU utilisation: one row per CPU, all aligned with `times`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SwapChart {
    /// The `vmstat` artifact.
    pub artifact: String,
    /// `si`, KiB/s.
    pub si: Series,
    /// `so`, KiB/s.
    pub so: Series,
}

/// A chart that is not drawn, and why.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Missing {
    /// `cpu`, `disk`, `nic`, `softirq`, `gc`, `swap`, or `all` without a time axis.
    pub chart: &'static str,
    /// Why.
    pub why: String,
}

/// Reduces consecutive points to at most `max` by min-max decimation: the points fall in
/// `max / 2` buckets of consecutive samples, and each bucket keeps its lowest and its highest
/// sample, at their own times and in time order ([`min_max`]).
///
/// Min-max rather than a bucket's mean, or LTTB's one point per bucket (S. Steinarsson,
/// "Downsampling Time Series for Visual Representation", MSc thesis, University of Iceland,
/// 2013): a one-sample spike (an `await` of 900 ms among 2 ms samples) is what an incident's
/// reader looks for, and a mean flattens it while LTTB may keep a neighbour instead; keeping
/// each bucket's extremes draws the same envelope as every sample would at the chart's width
/// (the min/max part of M4: U. Jugel et al., "M4: A Visualization-Oriented Time Series Data
/// Aggregation", PVLDB 7(10), 2014).
pub(crate) fn bin(points: &[(f64, Option<f64>)], max: usize) -> Vec<(f64, Option<f64>)> {
    if points.len() <= max || max == 0 {
        return points.to_vec();
    }
    let k = points.len().div_ceil((max / 2).max(1));
    points.chunks(k).flat_map(min_max).collect()
}

/// One bucket's points: its lowest and highest samples in time order (one point when they are
/// equal); a bucket without a value is one gap (`None`) at its mean time, so a hole in the data
/// stays a hole in the line.
fn min_max(c: &[(f64, Option<f64>)]) -> Vec<(f64, Option<f64>)> {
    let present = || {
        c.iter()
            .enumerate()
            .filter_map(|(i, p)| p.1.filter(|v| !v.is_nan()).map(|v| (i, v)))
    };
    let lo = present().min_by(|a, b| a.1.total_cmp(&b.1));
    let hi = present().max_by(|a, b| a.1.total_cmp(&b.1));
    match (lo, hi) {
        (Some(lo), Some(hi)) if lo.1 == hi.1 => vec![c[lo.0]],
        (Some(lo), Some(hi)) => {
            let (a, b) = if lo.0 < hi.0 {
                (lo.0, hi.0)
            } else {
                (hi.0, lo.0)
            };
            vec![c[a], c[b]]
        }
        _ => {
            let t = c.iter().map(|p| p.0).sum::<f64>() / c.len().max(1) as f64;
            vec![(t, None)]
        }
    }
}

fn chunked_mean(v: &[Option<f64>], groups: &[std::ops::Range<usize>]) -> Vec<Option<f64>> {
    groups
        .iter()
        .map(|g| &v[g.clone()])
        .map(|c| {
            let vals: Vec<f64> = c.iter().flatten().copied().collect();
            (!vals.is_empty()).then(|| vals.iter().sum::<f64>() / vals.len() as f64)
        })
        .collect()
}

/// The highest finite value of a series (0 when it has none above).
fn peak(s: &Series) -> f64 {
    s.points
        .iter()
        .filter_map(|p| p.1)
        .filter(|v| v.is_finite())
        .fold(0.0_f64, f64::max)
}

/// A series reduced to [`MAX_POINTS`] by [`bin`] (plus at most two per segment), no bucket
/// spanning two `segments`.
fn line(label: &str, points: &[(f64, Option<f64>)], segments: &[Segment]) -> Series {
    let k = points.len().div_ceil(MAX_POINTS / 2).max(1);
    let points = if segments.len() <= 1 || points.len() <= MAX_POINTS {
        bin(points, MAX_POINTS)
    } else {
        let times: Vec<f64> = points.iter().map(|p| p.0).collect();
        groups(&times, k, segments)
            .into_iter()
            .flat_map(|g| min_max(&points[g]))
            .collect()
    };
    Series {
        label: label.to_string(),
        points,
    }
}

/// Index ranges of at most `k` consecutive `times` (in time order), none spanning two
/// `segments`; with one segment, plain chunks of `k`.
fn groups(times: &[f64], k: usize, segments: &[Segment]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < times.len() {
        let seg = segment::locate(segments, times[start]);
        let mut end = start + 1;
        while end < times.len()
            && end - start < k
            && (segments.len() <= 1 || segment::locate(segments, times[end]) == seg)
        {
            end += 1;
        }
        out.push(start..end);
        start = end;
    }
    out
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
        let segs = &ts.segments;
        out.cpu = out.fit("cpu", &ts.cpu, |t| cpu_chart(t, segs));
        out.disk = out.fit("disk", &ts.disks, |t| disk_chart(t, segs));
        out.nic = out.fit("nic", &ts.nics, |t| nic_chart(t, segs));
        out.softirq = softirq_chart(facts, &mut out.missing);
        out.gc = ts.gc.iter().map(|g| gc_chart(g, facts, segs)).collect();
        for why in &ts.gc_missing {
            out.missing.push(Missing {
                chart: "gc",
                why: why.clone(),
            });
        }
        out.swap = out.fit("swap", &ts.swap, |t| swap_chart(t, segs));
        out.marks = marks(&ts.clock, findings);
        for m in &mut out.marks {
            m.segment = segment::locate(segs, (m.from_s + m.to_s) / 2.0).unwrap_or(0);
        }
        out.axis = Some(out.span(ts, facts.window.map(|(s, e)| e - s)));
        out.segments = segs.iter().map(|s| segment_info(s, &ts.clock)).collect();
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
            dated: clock.dated,
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

    /// The part of the charts in segment `i`, on an axis spanning that segment alone: every
    /// series cut to the segment's times, the charts without a sample in it left out, the
    /// marks it holds, no soft-IRQ chart (not on the time axis). `None` for an unknown `i`.
    pub fn segment(&self, i: usize) -> Option<Charts> {
        let seg = self.segments.get(i)?;
        let (a, b) = (seg.start_s, seg.end_s);
        let inside = |t: f64| t >= a && t <= b;
        let cut = |s: &Series| Series {
            label: s.label.clone(),
            points: s.points.iter().filter(|p| inside(p.0)).copied().collect(),
        };
        let cut_all = |v: &[Series]| -> Vec<Series> {
            v.iter().map(cut).filter(|s| !s.points.is_empty()).collect()
        };
        let cpu = self.cpu.as_ref().and_then(|c| {
            let keep: Vec<usize> = (0..c.times.len()).filter(|k| inside(c.times[*k])).collect();
            let pick = |v: &[Option<f64>]| keep.iter().map(|k| v[*k]).collect();
            (!keep.is_empty()).then(|| CpuChart {
                artifact: c.artifact.clone(),
                times: keep.iter().map(|k| c.times[*k]).collect(),
                per_column: c.per_column,
                column_s: c.column_s,
                rows: c
                    .rows
                    .iter()
                    .map(|r| CpuRow {
                        cpu: r.cpu,
                        busy: pick(&r.busy),
                        soft: pick(&r.soft),
                        iowait: pick(&r.iowait),
                    })
                    .collect(),
            })
        });
        let disk = self.disk.as_ref().and_then(|d| {
            let c = DiskChart {
                artifact: d.artifact.clone(),
                await_ms: cut_all(&d.await_ms),
                aqu_sz: cut_all(&d.aqu_sz),
                util_pct: cut_all(&d.util_pct),
                omitted: d.omitted,
            };
            (!c.await_ms.is_empty()).then_some(c)
        });
        let nic = self.nic.as_ref().and_then(|n| {
            let c = NicChart {
                artifacts: n.artifacts.clone(),
                rx_kb_per_s: cut_all(&n.rx_kb_per_s),
                tx_kb_per_s: cut_all(&n.tx_kb_per_s),
                drops_per_s: cut_all(&n.drops_per_s),
                omitted: n.omitted,
            };
            (!c.rx_kb_per_s.is_empty() || !c.drops_per_s.is_empty()).then_some(c)
        });
        let gc = self
            .gc
            .iter()
            .map(|g| GcChart {
                jvm: g.jvm.clone(),
                artifact: g.artifact.clone(),
                old_pct: cut(&g.old_pct),
                gc_time_pct: cut(&g.gc_time_pct),
                full_gcs: g.full_gcs.iter().copied().filter(|t| inside(*t)).collect(),
            })
            .filter(|g| !g.old_pct.points.is_empty() || !g.gc_time_pct.points.is_empty())
            .collect();
        let swap = self.swap.as_ref().and_then(|s| {
            let c = SwapChart {
                artifact: s.artifact.clone(),
                si: cut(&s.si),
                so: cut(&s.so),
            };
            (!c.si.points.is_empty() || !c.so.points.is_empty()).then_some(c)
        });
        let axis = self.axis.as_ref().map(|x| TimeAxis {
            start_s: a,
            end_s: if b > a { b } else { a + 1.0 },
            ..x.clone()
        });
        Some(Charts {
            axis,
            cpu,
            disk,
            nic,
            softirq: None,
            gc,
            swap,
            marks: self
                .marks
                .iter()
                .filter(|m| m.segment == i)
                .cloned()
                .collect(),
            missing: Vec::new(),
            segments: vec![seg.clone()],
        })
    }

    /// The axis as a [`Clock`], for labels.
    fn clock(&self) -> Option<Clock> {
        self.axis.as_ref().map(|a| Clock {
            origin_local_s: a.origin_local_s,
            origin_epoch: a.origin_epoch,
            utc_offset_s: a.utc_offset_s,
            dated: a.dated,
        })
    }
}

/// A segment with its absolute times and its label.
fn segment_info(s: &Segment, clock: &Clock) -> SegmentInfo {
    let host = |x: f64| clock.date(x).map(|d| format!("{d}T{}", clock.label(x)));
    let utc = |x: f64| clock.epoch(x).map(super::utc);
    let (d0, d1) = (clock.date(s.start_s), clock.date(s.end_s));
    let (t0, t1) = (clock.label(s.start_s), clock.label(s.end_s));
    let label = match (d0, d1) {
        (Some(a), Some(b)) if a != b => format!("{a} {t0} → {b} {t1}"),
        (Some(a), _) => format!("{a} {t0} → {t1}"),
        _ => format!("{t0} → {t1}"),
    };
    SegmentInfo {
        start_s: s.start_s,
        end_s: s.end_s,
        start_host: host(s.start_s),
        end_host: host(s.end_s),
        start_utc: utc(s.start_s),
        end_utc: utc(s.end_s),
        label,
    }
}

/// CPU columns binned: to [`MAX_POINTS`] for panels, to the cell budget for heatmaps (plus at
/// most one per segment), no column spanning two segments.
fn cpu_chart(t: &CpuTimeline, segments: &[Segment]) -> CpuChart {
    let n = t.times.len();
    let max_cols = if t.rows.len() >= HEATMAP_FROM_CPUS {
        (HEATMAP_CELLS / t.rows.len()).max(HEATMAP_MIN_COLUMNS)
    } else {
        MAX_POINTS
    };
    let k = n.div_ceil(max_cols).max(1);
    let groups = groups(&t.times, k, segments);
    let times: Vec<f64> = groups
        .iter()
        .map(|g| t.times[g.clone()].iter().sum::<f64>() / g.len() as f64)
        .collect();
    let mut rows = t.rows.clone();
    if times.len() < n {
        for r in &mut rows {
            r.busy = chunked_mean(&r.busy, &groups);
            r.soft = chunked_mean(&r.soft, &groups);
            r.iowait = chunked_mean(&r.iowait, &groups);
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
fn disk_chart(t: &DiskTimeline, segs: &[Segment]) -> DiskChart {
    let mut all: Vec<(Series, Series, Series)> = t
        .devices
        .iter()
        .map(|d| {
            (
                line(&d.device, &d.await_ms, segs),
                line(&d.device, &d.aqu_sz, segs),
                line(&d.device, &d.util_pct, segs),
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
fn nic_chart(t: &NicTimeline, segs: &[Segment]) -> NicChart {
    let shown = |i: &&series::InterfaceTimeline| t.interfaces.len() == 1 || i.iface != "lo";
    let mut all: Vec<(Series, Series, Series)> = t
        .interfaces
        .iter()
        .filter(shown)
        .map(|i| {
            (
                line(&i.iface, &i.rx_kb_per_s, segs),
                line(&i.iface, &i.tx_kb_per_s, segs),
                line(&i.iface, &i.drops_per_s, segs),
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
    let Some(s) = facts.softirqs.get() else {
        missing.push(Missing {
            chart: "softirq",
            why: facts
                .softirqs
                .reason()
                .map_or_else(|| "no soft-IRQ snapshots".into(), str::to_string),
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

fn gc_chart(g: &GcTimeline, facts: &HostFacts, segs: &[Segment]) -> GcChart {
    GcChart {
        jvm: facts.jvms[g.jvm].label(),
        artifact: g.artifact.clone(),
        old_pct: line("Old gen (O) %", &g.old_pct, segs),
        gc_time_pct: line("GC time, % of interval", &g.gc_time_pct, segs),
        full_gcs: g.full_gcs.clone(),
    }
}

fn swap_chart(t: &SwapTimeline, segs: &[Segment]) -> SwapChart {
    SwapChart {
        artifact: t.artifact.clone(),
        si: line("si (swap-in)", &t.si, segs),
        so: line("so (swap-out)", &t.so, segs),
    }
}

/// A finding's time range on the axis.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Mark {
    /// 1-based rank of the finding.
    pub finding: usize,
    /// Its rule.
    pub rule_id: String,
    /// Its area (`disk`, `network` …).
    pub area: String,
    /// Its severity.
    pub severity: String,
    /// Start and end, seconds on the axis.
    pub from_s: f64,
    /// See `from_s`.
    pub to_s: f64,
    /// Index in [`Charts::segments`] of the segment that holds it (the nearest one when it
    /// falls between two).
    pub segment: usize,
}

/// The time ranges of the ranked `findings` that have one, on `clock`.
pub fn marks(clock: &Clock, findings: &[Finding]) -> Vec<Mark> {
    let mut out = Vec::new();
    for (i, f) in findings.iter().enumerate() {
        let Some(r) = &f.time_range else {
            continue;
        };
        let (x, y) = (clock.at(&r.from), clock.at(&r.to));
        out.push(Mark {
            finding: i + 1,
            rule_id: f.rule_id.to_string(),
            area: f.area.to_string(),
            severity: format!("{:?}", f.severity).to_lowercase(),
            from_s: x.min(y),
            to_s: x.max(y),
            segment: 0,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifacts::Collected;
    use crate::facts::Available;
    use crate::facts::{CpuSample, CpuSeries, DiskSample, DiskSeries};
    use crate::report::Report;
    use parsers::common::Timestamp;
    use std::path::Path;

    fn ts(h: u32, m: u32, s: u32) -> Option<Timestamp> {
        Some(Timestamp {
            date: None,
            seconds_of_day: h * 3600 + m * 60 + s,
        })
    }

    fn empty() -> Collected {
        crate::report::testkit::collected(Vec::new())
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
    fn binning_keeps_spikes_and_gaps() {
        let pts = [
            (0.0, Some(1.0)),
            (1.0, Some(9.0)),
            (2.0, Some(1.0)),
            (3.0, Some(0.5)),
            (4.0, None),
            (5.0, None),
            (6.0, None),
            (7.0, None),
            (8.0, Some(2.0)),
            (9.0, Some(2.0)),
        ];
        // Three buckets of four: the spike (9 at t = 1) and the low (0.5 at t = 3) are kept in
        // time order, the empty bucket stays a gap, the flat one is one point.
        let b = bin(&pts, 6);
        assert_eq!(
            b,
            vec![
                (1.0, Some(9.0)),
                (3.0, Some(0.5)),
                (5.5, None),
                (8.0, Some(2.0))
            ]
        );
        // A long series keeps its one-sample spike whatever its length.
        let long: Vec<(f64, Option<f64>)> = (0..100_000)
            .map(|i| (f64::from(i), Some(if i == 77_777 { 900.0 } else { 2.0 })))
            .collect();
        let b = bin(&long, MAX_POINTS);
        assert!(b.len() <= MAX_POINTS, "{}", b.len());
        assert!(b.contains(&(77_777.0, Some(900.0))));
    }

    #[test]
    fn a_device_with_a_missing_sample_keeps_the_hole() {
        let f = HostFacts {
            disks: Available::from(vec![DiskSeries {
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
            }]),
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
            cpus: Available::from(vec![cpu(0, 30, 4.0)]),
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
            disks: Available::from(vec![DiskSeries {
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
            }]),
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

    fn dated(month: u32, day: u32, h: u32, m: u32, s: u32) -> Option<Timestamp> {
        Some(Timestamp {
            date: Some(parsers::common::Date {
                year: 2024,
                month,
                day,
            }),
            seconds_of_day: h * 3600 + m * 60 + s,
        })
    }

    #[test]
    fn captures_months_apart_get_their_own_axes() {
        // A saturated disk on 15 January, CPUs sampled on 20 June.
        let f = HostFacts {
            disks: Available::from(vec![DiskSeries {
                device: "sdb".into(),
                artifact: "iostat.txt".into(),
                samples: (0..20)
                    .map(|i| DiskSample {
                        time: dated(1, 15, 10, 0, i),
                        line: 10 + i as usize,
                        await_ms: Some(if i >= 5 { 90.0 } else { 1.0 }),
                        aqu_sz: Some(if i >= 5 { 12.0 } else { 0.1 }),
                        util_pct: Some(99.0),
                        iops: Some(100.0),
                    })
                    .collect(),
            }]),
            cpus: Available::from(vec![CpuSeries {
                samples: cpu(0, 30, 4.0)
                    .samples
                    .into_iter()
                    .enumerate()
                    .map(|(i, s)| CpuSample {
                        time: dated(6, 20, 14, 30, i as u32),
                        ..s
                    })
                    .collect(),
                ..cpu(0, 0, 0.0)
            }]),
            ..Default::default()
        };
        let r = report(f);
        let segs = &r.charts.segments;
        assert_eq!(segs.len(), 2, "{segs:?}");
        assert_eq!(segs[0].label, "2024-01-15 10:00:00 → 10:00:19");
        assert_eq!(segs[1].label, "2024-06-20 14:30:00 → 14:30:29");
        assert_eq!(segs[0].start_host.as_deref(), Some("2024-01-15T10:00:00"));
        assert_eq!(segs[1].end_host.as_deref(), Some("2024-06-20T14:30:29"));
        assert_eq!(segs[0].start_utc, None, "no collection window: UTC unknown");
        assert_eq!((segs[0].start_s, segs[0].end_s), (0.0, 19.0));
        let m = &r.charts.marks;
        assert_eq!((m.len(), m[0].area.as_str(), m[0].segment), (1, "disk", 0));
        let drawn = draw(&r);
        let ids: Vec<(&str, Option<usize>)> =
            drawn.iter().map(|d| (d.id.as_str(), d.segment)).collect();
        assert_eq!(
            ids,
            vec![
                ("chart-disk-await", Some(0)),
                ("chart-disk-aqu", Some(0)),
                ("chart-disk-util", Some(0)),
                ("chart-cpu-s2", Some(1)),
            ]
        );
        // Each axis is labelled with its own times, and the finding is shaded on its own.
        let aw = &drawn[0];
        assert!(aw.svg.contains(">\n10:00:") && !aw.svg.contains("14:30"));
        assert!(aw.svg.contains(">\n#1\n<"), "the band is numbered");
        let cpu = &drawn[3];
        assert!(cpu.svg.contains(">\n14:30:") && !cpu.svg.contains(">\n10:00:"));
        assert!(cpu.marks.is_empty());
    }

    #[test]
    fn no_bin_spans_two_segments() {
        let mut pts: Vec<(f64, Option<f64>)> =
            (0..1001).map(|i| (f64::from(i), Some(1.0))).collect();
        pts.extend((0..1000).map(|i| (1e7 + f64::from(i), Some(2.0))));
        let segs = series::segment::split(&[pts.iter().map(|p| p.0).collect()], &[]);
        assert_eq!(segs.len(), 2);
        let binned = line("x", &pts, &segs).points;
        assert!(
            binned.len() <= MAX_POINTS + 2 * segs.len(),
            "{}",
            binned.len()
        );
        for (t, v) in &binned {
            let first = *t <= 1000.0;
            assert!(first || *t >= 1e7, "bin at {t} spans the gap");
            assert_eq!(*v, Some(if first { 1.0 } else { 2.0 }));
        }
        // One segment: plain binning, as before.
        assert_eq!(
            line("x", &pts[..1001], &segs[..1]).points,
            bin(&pts[..1001], MAX_POINTS)
        );
    }

    #[test]
    fn labels_from_the_bundle_are_escaped_in_the_svg() {
        let f = HostFacts {
            disks: Available::from(vec![DiskSeries {
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
            }]),
            ..Default::default()
        };
        let r = report(f);
        for d in draw(&r) {
            assert!(!d.svg.contains("<script"), "{}", d.id);
        }
    }
}
