//! Time-series charts: the series behind them (the report's `charts` part, so also in the JSON
//! document) and their drawing as inline SVG with plotters' SVG backend.
//!
//! In: [`HostFacts`] (per-CPU and per-device series, soft-IRQ rates, JVM GC series) and the
//! parsed artifacts (`sar -n DEV`/`EDEV` for NIC rates, `vmstat` for swap, `jstat` samples).
//! Out: [`Charts`], every series on one time axis, [`TimeAxis`]: seconds from the collection
//! window's start, so cause and effect line up from chart to chart, plus the time range of each
//! finding that has one ([`Mark`]).
//!
//! sysstat prints the host's local time of day (with a date when it has one); the manifest
//! records the window in UTC. The host's offset from UTC is taken from the first sample against
//! the window's start, rounded to a quarter hour, and the axis is labelled in the host's clock,
//! the time the evidence lines print.
//!
//! Series are binned (mean of each bin) to at most [`MAX_POINTS`] points; a CPU × time heatmap
//! replaces per-CPU panels from [`HEATMAP_FROM_CPUS`] CPUs on, binned to at most
//! [`HEATMAP_CELLS`] cells.

use super::Report;
use crate::artifacts::{Artifact, Collected};
use crate::facts::HostFacts;
use crate::kinds::Data;
use crate::rules::Finding;
use parsers::common::Date;
use parsers::common::Timestamp;
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

/// The time axis shared by every chart.
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

/// One CPU's columns, % of its time (`null` = no sample).
#[derive(Debug, Clone, Serialize)]
pub struct CpuRow {
    /// CPU number.
    pub cpu: u32,
    /// `100 − %idle − %iowait`: running anything, soft-IRQs included.
    pub busy: Vec<Option<f64>>,
    /// `%soft`.
    pub soft: Vec<Option<f64>>,
    /// `%iowait`.
    pub iowait: Vec<Option<f64>>,
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

/// A finding's time range on the axis.
#[derive(Debug, Clone, Serialize)]
pub struct Mark {
    /// 1-based rank of the finding in the report.
    pub finding: usize,
    /// Its rule.
    pub rule_id: String,
    /// Its area (`disk`, `network` …): it is shaded on the charts of that area.
    pub area: String,
    /// Its severity.
    pub severity: String,
    /// Start and end, seconds on the axis.
    pub from_s: f64,
    /// See `from_s`.
    pub to_s: f64,
}

/// A chart that is not drawn, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Missing {
    /// `cpu`, `disk`, `nic`, `softirq`, `gc`, `swap`.
    pub chart: &'static str,
    /// Why.
    pub why: String,
}

/// Maps host-clock timestamps onto the axis.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Clock {
    /// Host-clock seconds (days since 1970 × 86400 + seconds of day) of axis 0.
    origin_local: f64,
    /// UTC epoch of axis 0, when known.
    origin_epoch: Option<f64>,
    /// Host clock minus UTC.
    offset: Option<i64>,
}

impl Clock {
    /// A clock for a window starting at `start` (UTC epoch) whose first host-clock sample is
    /// `first`. Without a window, time 0 is `first`.
    pub(crate) fn new(start: Option<f64>, first: Option<Timestamp>) -> Option<Clock> {
        match (start, first) {
            (Some(s), Some(t)) => {
                let sod_utc = s.rem_euclid(86_400.0);
                let offset = match t.date {
                    Some(_) => local_secs(&t, 0) - s,
                    None => {
                        let d = t.seconds_of_day as f64 - sod_utc;
                        (d + 43_200.0).rem_euclid(86_400.0) - 43_200.0
                    }
                };
                let offset = ((offset / 900.0).round() * 900.0) as i64;
                Some(Clock {
                    origin_local: s + offset as f64,
                    origin_epoch: Some(s),
                    offset: Some(offset),
                })
            }
            (Some(s), None) => Some(Clock {
                origin_local: s,
                origin_epoch: Some(s),
                offset: None,
            }),
            (None, Some(t)) => Some(Clock {
                origin_local: local_secs(&t, 0),
                origin_epoch: None,
                offset: None,
            }),
            (None, None) => None,
        }
    }

    /// Seconds on the axis of a host-clock timestamp; a time without a date is taken on the
    /// day that puts it nearest to time 0.
    pub(crate) fn at(&self, t: &Timestamp) -> f64 {
        match t.date {
            Some(_) => local_secs(t, 0) - self.origin_local,
            None => {
                let day = (self.origin_local / 86_400.0).floor() as i64;
                let x = local_secs(t, day) - self.origin_local;
                (x + 43_200.0).rem_euclid(86_400.0) - 43_200.0
            }
        }
    }

    /// Seconds on the axis of a UTC epoch time (manifest records).
    fn at_epoch(&self, e: f64) -> Option<f64> {
        self.origin_epoch.map(|o| e - o)
    }

    /// `HH:MM:SS` in the host's clock of an axis time.
    pub(crate) fn label(&self, x: f64) -> String {
        let s = (self.origin_local + x).round() as i64;
        let s = s.rem_euclid(86_400);
        format!("{:02}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    }

    fn describe(&self) -> String {
        match self.offset {
            Some(0) => "UTC (host clock)".into(),
            Some(o) => {
                let sign = if o < 0 { '−' } else { '+' };
                let a = o.abs();
                format!("host clock, UTC{sign}{:02}:{:02}", a / 3600, (a / 60) % 60)
            }
            None if self.origin_epoch.is_some() => "UTC".into(),
            None => "host clock (no collection window recorded)".into(),
        }
    }
}

/// Host-clock seconds of a timestamp: its date (else `day`, days since 1970) × 86400 + time.
fn local_secs(t: &Timestamp, day: i64) -> f64 {
    let d = t.date.map(Date::days_since_epoch).unwrap_or(day);
    (d * 86_400) as f64 + t.seconds_of_day as f64
}

/// Maps a series' times onto the axis, keeping them increasing across midnight when the
/// timestamps carry no date.
fn map_times(clock: &Clock, times: impl Iterator<Item = Option<Timestamp>>) -> Vec<Option<f64>> {
    let mut out = Vec::new();
    let mut prev: Option<f64> = None;
    let mut shift = 0.0;
    for t in times {
        let Some(t) = t else {
            out.push(None);
            continue;
        };
        let mut x = clock.at(&t) + shift;
        if t.date.is_none() {
            if let Some(p) = prev {
                if x < p - 43_200.0 {
                    shift += 86_400.0;
                    x += 86_400.0;
                }
            }
        }
        prev = Some(x);
        out.push(Some(x));
    }
    out
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

fn peak(s: &Series) -> f64 {
    s.points.iter().filter_map(|p| p.1).fold(0.0_f64, f64::max)
}

impl Charts {
    /// Builds every chart the facts allow, with the findings' time ranges.
    pub fn build(facts: &HostFacts, c: &Collected, findings: &[Finding]) -> Charts {
        let mut out = Charts::default();
        let first = first_timestamp(facts, c);
        let start = facts.window.map(|w| w.0);
        let Some(clock) = Clock::new(start, first) else {
            out.missing.push(Missing {
                chart: "all",
                why: "no sample carries a time and the bundle has no collection window".into(),
            });
            return out;
        };
        out.cpu = cpu_chart(facts, &clock, &mut out.missing);
        out.disk = disk_chart(facts, &clock, &mut out.missing);
        out.nic = nic_chart(c, &clock, &mut out.missing);
        out.softirq = softirq_chart(facts, &mut out.missing);
        out.gc = gc_charts(facts, c, &clock, &mut out.missing);
        out.swap = swap_chart(c, facts.interval_s, &clock, &mut out.missing);
        for (i, f) in findings.iter().enumerate() {
            let Some(r) = &f.time_range else {
                continue;
            };
            let (x, y) = (clock.at(&r.from), clock.at(&r.to));
            out.marks.push(Mark {
                finding: i + 1,
                rule_id: f.rule_id.to_string(),
                area: f.area.to_string(),
                severity: format!("{:?}", f.severity).to_lowercase(),
                from_s: x.min(y),
                to_s: x.max(y),
            });
        }
        let window_s = facts.window.map(|(s, e)| e - s);
        let (mut lo, mut hi) = (0.0_f64, window_s.unwrap_or(0.0));
        let mut widen = |t: f64| {
            lo = lo.min(t);
            hi = hi.max(t);
        };
        out.each_time(&mut widen);
        out.axis = Some(TimeAxis {
            origin_epoch: clock.origin_epoch,
            utc_offset_s: clock.offset,
            origin_local_s: clock.origin_local,
            start_s: lo,
            end_s: if hi > lo { hi } else { lo + 1.0 },
            window_s,
            clock: clock.describe(),
        });
        out
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
            origin_local: a.origin_local_s,
            origin_epoch: a.origin_epoch,
            offset: a.utc_offset_s,
        })
    }
}

/// The first host-clock sample of the window's samplers, to find the host's offset from UTC:
/// dated `iostat` first, then `mpstat`, `vmstat -t`, `sar`.
fn first_timestamp(facts: &HostFacts, c: &Collected) -> Option<Timestamp> {
    let disk = facts
        .disks
        .iter()
        .flat_map(|d| d.samples.first())
        .filter_map(|s| s.time)
        .find(|t| t.date.is_some());
    let cpu = facts
        .cpus
        .first()
        .and_then(|c| c.samples.first())
        .and_then(|s| s.time);
    let vm = c.parsed("vmstat").find_map(|(_, d)| match d {
        Data::Vmstat(v) => v.samples.iter().find_map(|s| s.time),
        _ => None,
    });
    let sar = c.parsed("sar").find_map(|(_, d)| match d {
        Data::Sar(s) => s.net_dev.rows.iter().find_map(|r| r.time),
        _ => None,
    });
    let any_disk = facts
        .disks
        .iter()
        .flat_map(|d| d.samples.first())
        .find_map(|s| s.time);
    disk.or(cpu).or(vm).or(sar).or(any_disk)
}

fn cpu_chart(facts: &HostFacts, clock: &Clock, missing: &mut Vec<Missing>) -> Option<CpuChart> {
    if facts.cpus.is_empty() {
        missing.push(Missing {
            chart: "cpu",
            why: facts
                .cpus_missing
                .clone()
                .unwrap_or_else(|| "no per-CPU samples".into()),
        });
        return None;
    }
    // Columns: every distinct sample time (to the millisecond), in order.
    let mut columns: BTreeMap<i64, usize> = BTreeMap::new();
    let mapped: Vec<Vec<Option<f64>>> = facts
        .cpus
        .iter()
        .map(|c| map_times(clock, c.samples.iter().map(|s| s.time)))
        .collect();
    for t in mapped.iter().flatten().flatten() {
        columns.insert((t * 1000.0).round() as i64, 0);
    }
    if columns.is_empty() {
        missing.push(Missing {
            chart: "cpu",
            why: format!("the samples of {} carry no time", facts.cpus[0].artifact),
        });
        return None;
    }
    for (i, v) in columns.values_mut().enumerate() {
        *v = i;
    }
    let n = columns.len();
    let mut rows: Vec<CpuRow> = facts
        .cpus
        .iter()
        .zip(&mapped)
        .map(|(c, times)| {
            let mut row = CpuRow {
                cpu: c.cpu,
                busy: vec![None; n],
                soft: vec![None; n],
                iowait: vec![None; n],
            };
            for (s, t) in c.samples.iter().zip(times) {
                let Some(t) = t else { continue };
                let i = columns[&((t * 1000.0).round() as i64)];
                row.busy[i] = s
                    .idle_pct
                    .map(|idle| (100.0 - idle - s.iowait_pct.unwrap_or(0.0)).clamp(0.0, 100.0));
                row.soft[i] = s.soft_pct;
                row.iowait[i] = s.iowait_pct;
            }
            row
        })
        .collect();
    let times: Vec<f64> = columns.keys().map(|k| *k as f64 / 1000.0).collect();
    let step = median_step(&times);
    let max_cols = if rows.len() >= HEATMAP_FROM_CPUS {
        (HEATMAP_CELLS / rows.len()).max(HEATMAP_MIN_COLUMNS)
    } else {
        MAX_POINTS
    };
    let k = n.div_ceil(max_cols).max(1);
    let times: Vec<f64> = times
        .chunks(k)
        .map(|c| c.iter().sum::<f64>() / c.len() as f64)
        .collect();
    if k > 1 {
        for r in &mut rows {
            r.busy = chunked_mean(&r.busy, k);
            r.soft = chunked_mean(&r.soft, k);
            r.iowait = chunked_mean(&r.iowait, k);
        }
    }
    Some(CpuChart {
        artifact: facts.cpus[0].artifact.clone(),
        times,
        per_column: k,
        column_s: step * k as f64,
        rows,
    })
}

/// The median gap between consecutive times (1 when there are fewer than two).
fn median_step(times: &[f64]) -> f64 {
    let mut d: Vec<f64> = times
        .windows(2)
        .map(|w| w[1] - w[0])
        .filter(|d| *d > 0.0)
        .collect();
    if d.is_empty() {
        return 1.0;
    }
    d.sort_by(f64::total_cmp);
    d[d.len() / 2]
}

fn disk_chart(facts: &HostFacts, clock: &Clock, missing: &mut Vec<Missing>) -> Option<DiskChart> {
    if facts.disks.is_empty() {
        missing.push(Missing {
            chart: "disk",
            why: facts
                .disks_missing
                .clone()
                .unwrap_or_else(|| "no device samples".into()),
        });
        return None;
    }
    let mut all: Vec<(Series, Series, Series)> = Vec::new();
    for d in &facts.disks {
        let times = map_times(clock, d.samples.iter().map(|s| s.time));
        if times.iter().all(Option::is_none) {
            continue;
        }
        let pts = |f: fn(&crate::facts::DiskSample) -> Option<f64>| -> Vec<(f64, Option<f64>)> {
            let p: Vec<_> = d
                .samples
                .iter()
                .zip(&times)
                .filter_map(|(s, t)| t.map(|t| (t, f(s))))
                .collect();
            bin(&p, MAX_POINTS)
        };
        let series = |points| Series {
            label: d.device.clone(),
            points,
        };
        all.push((
            series(pts(|s| s.await_ms)),
            series(pts(|s| s.aqu_sz)),
            series(pts(|s| s.util_pct)),
        ));
    }
    if all.is_empty() {
        missing.push(Missing {
            chart: "disk",
            why: format!(
                "the samples of {} carry no time (iostat without -t)",
                facts.disks[0].artifact
            ),
        });
        return None;
    }
    // The busiest devices: by peak queue, then peak utilisation.
    all.sort_by(|a, b| {
        (peak(&b.1) + peak(&b.2) / 100.0).total_cmp(&(peak(&a.1) + peak(&a.2) / 100.0))
    });
    let omitted = all.len().saturating_sub(MAX_LINES);
    all.truncate(MAX_LINES);
    all.sort_by(|a, b| a.0.label.cmp(&b.0.label));
    let mut chart = DiskChart {
        artifact: facts.disks[0].artifact.clone(),
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
    Some(chart)
}

fn nic_chart(c: &Collected, clock: &Clock, missing: &mut Vec<Missing>) -> Option<NicChart> {
    let sars: Vec<(&Artifact, &parsers::sysstat::sar::Sar)> = ["sar", "sadf-json"]
        .into_iter()
        .flat_map(|k| c.parsed(k))
        .filter_map(|(a, d)| match d {
            Data::Sar(s) => Some((a, s)),
            _ => None,
        })
        .collect();
    let dev = sars
        .iter()
        .filter(|(_, s)| !s.net_dev.rows.is_empty())
        .max_by_key(|(_, s)| s.net_dev.rows.len());
    let edev = sars
        .iter()
        .filter(|(_, s)| !s.net_edev.rows.is_empty())
        .max_by_key(|(_, s)| s.net_edev.rows.len());
    if dev.is_none() && edev.is_none() {
        missing.push(Missing {
            chart: "nic",
            why:
                "no `sar -n DEV` output was parsed (the /proc/net/dev snapshots give averages only)"
                    .into(),
        });
        return None;
    }
    // Group rows by interface, mapping times per interface.
    fn by_iface<R>(rows: &[R], iface: fn(&R) -> &str) -> BTreeMap<String, Vec<&R>> {
        let mut m: BTreeMap<String, Vec<&R>> = BTreeMap::new();
        for r in rows {
            m.entry(iface(r).to_string()).or_default().push(r);
        }
        m
    }
    let mut artifacts = Vec::new();
    let mut per: BTreeMap<String, (Series, Series, Series)> = BTreeMap::new();
    let empty = |label: &str| {
        (
            Series {
                label: label.into(),
                points: Vec::new(),
            },
            Series {
                label: label.into(),
                points: Vec::new(),
            },
            Series {
                label: label.into(),
                points: Vec::new(),
            },
        )
    };
    if let Some((a, s)) = dev {
        artifacts.push(a.path.clone());
        for (name, rows) in by_iface(&s.net_dev.rows, |r| &r.iface) {
            let times = map_times(clock, rows.iter().map(|r| r.time));
            let e = per.entry(name.clone()).or_insert_with(|| empty(&name));
            let rx: Vec<_> = rows
                .iter()
                .zip(&times)
                .filter_map(|(r, t)| t.map(|t| (t, r.rxkb_per_s)))
                .collect();
            let tx: Vec<_> = rows
                .iter()
                .zip(&times)
                .filter_map(|(r, t)| t.map(|t| (t, r.txkb_per_s)))
                .collect();
            e.0.points = bin(&rx, MAX_POINTS);
            e.1.points = bin(&tx, MAX_POINTS);
        }
    }
    if let Some((a, s)) = edev {
        if !artifacts.contains(&a.path) {
            artifacts.push(a.path.clone());
        }
        for (name, rows) in by_iface(&s.net_edev.rows, |r| &r.iface) {
            let times = map_times(clock, rows.iter().map(|r| r.time));
            let e = per.entry(name.clone()).or_insert_with(|| empty(&name));
            let d: Vec<_> = rows
                .iter()
                .zip(&times)
                .filter_map(|(r, t)| {
                    let parts = [r.rxdrop_per_s, r.txdrop_per_s, r.rxfifo_per_s];
                    let v = parts
                        .iter()
                        .any(Option::is_some)
                        .then(|| parts.iter().flatten().sum::<f64>());
                    t.map(|t| (t, v))
                })
                .collect();
            e.2.points = bin(&d, MAX_POINTS);
        }
    }
    // Loopback only when it is all there is.
    if per.len() > 1 {
        per.remove("lo");
    }
    let mut all: Vec<(Series, Series, Series)> = per.into_values().collect();
    all.sort_by(|a, b| {
        let score = |x: &(Series, Series, Series)| peak(&x.0) + peak(&x.1) + peak(&x.2) * 1e6;
        score(b).total_cmp(&score(a))
    });
    let omitted = all.len().saturating_sub(MAX_LINES);
    all.truncate(MAX_LINES);
    all.sort_by(|a, b| a.0.label.cmp(&b.0.label));
    let mut chart = NicChart {
        artifacts,
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
    Some(chart)
}

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

fn gc_charts(
    facts: &HostFacts,
    c: &Collected,
    clock: &Clock,
    missing: &mut Vec<Missing>,
) -> Vec<GcChart> {
    let mut out = Vec::new();
    for j in &facts.jvms {
        let Some(g) = &j.gc else { continue };
        let Some((art, Data::Jstat(js))) = c
            .artifacts
            .iter()
            .find(|a| a.path == g.artifact)
            .and_then(|a| a.data.as_ref().map(|d| (a, d)))
        else {
            continue;
        };
        let start = art.record.as_ref().and_then(|r| r.start);
        let Some(t0) = start.and_then(|s| clock.at_epoch(s)) else {
            missing.push(Missing {
                chart: "gc",
                why: format!(
                    "{}: the jstat samples cannot be placed in time (no collection time in the manifest)",
                    j.label()
                ),
            });
            continue;
        };
        let first_ts = js.samples.first().and_then(|s| s.timestamp_s);
        let step = facts.interval_s.unwrap_or(1.0);
        let times: Vec<f64> = js
            .samples
            .iter()
            .enumerate()
            .map(|(i, s)| match (s.timestamp_s, first_ts) {
                (Some(t), Some(f)) => t0 + (t - f),
                _ => t0 + i as f64 * step,
            })
            .collect();
        let old: Vec<_> = js
            .samples
            .iter()
            .zip(&times)
            .map(|(s, t)| {
                let o = s.old_pct.or_else(|| match (s.ou_kib, s.oc_kib) {
                    (Some(u), Some(c)) if c > 0.0 => Some(u * 100.0 / c),
                    _ => None,
                });
                (*t, o)
            })
            .collect();
        let pause = |s: &parsers::jvm::jstat::JstatSample| match (s.ygct_s, s.fgct_s) {
            (None, None) => None,
            (y, f) => Some(y.unwrap_or(0.0) + f.unwrap_or(0.0)),
        };
        let mut gc_time = Vec::new();
        let mut full_gcs = Vec::new();
        for (w, t) in js.samples.windows(2).zip(times.windows(2)) {
            let dt = t[1] - t[0];
            let v = match (pause(&w[0]), pause(&w[1])) {
                (Some(a), Some(b)) if dt > 0.0 && b >= a => Some(((b - a) / dt * 100.0).min(100.0)),
                _ => None,
            };
            gc_time.push((t[1], v));
            if let (Some(a), Some(b)) = (w[0].fgc, w[1].fgc) {
                if b > a {
                    full_gcs.push(t[1]);
                }
            }
        }
        out.push(GcChart {
            jvm: j.label(),
            artifact: g.artifact.clone(),
            old_pct: Series {
                label: "Old gen (O) %".into(),
                points: bin(&old, MAX_POINTS),
            },
            gc_time_pct: Series {
                label: "GC time, % of interval".into(),
                points: bin(&gc_time, MAX_POINTS),
            },
            full_gcs,
        });
    }
    if out.is_empty() && facts.jvms.is_empty() {
        missing.push(Missing {
            chart: "gc",
            why: "no JVM in the bundle".into(),
        });
    } else if out.is_empty() {
        missing.push(Missing {
            chart: "gc",
            why: "no `jstat -gcutil` series with two samples or more".into(),
        });
    }
    out
}

fn swap_chart(
    c: &Collected,
    interval_s: Option<f64>,
    clock: &Clock,
    missing: &mut Vec<Missing>,
) -> Option<SwapChart> {
    let best = c
        .parsed("vmstat")
        .filter_map(|(a, d)| match d {
            Data::Vmstat(v) => Some((a, v)),
            _ => None,
        })
        .max_by_key(|(_, v)| v.samples.len());
    let Some((art, vm)) = best else {
        missing.push(Missing {
            chart: "swap",
            why: "no `vmstat` output was parsed".into(),
        });
        return None;
    };
    // The first report covers the time since boot.
    let samples = if vm.samples.len() > 1 {
        &vm.samples[1..]
    } else {
        &vm.samples[..]
    };
    let timed = samples.iter().any(|s| s.time.is_some());
    let times: Vec<Option<f64>> = if timed {
        map_times(clock, samples.iter().map(|s| s.time))
    } else {
        let start = art
            .record
            .as_ref()
            .and_then(|r| r.start)
            .and_then(|s| clock.at_epoch(s));
        match (start, interval_s) {
            (Some(s), Some(i)) => (0..samples.len())
                .map(|k| Some(s + (k + 1) as f64 * i))
                .collect(),
            _ => {
                missing.push(Missing {
                    chart: "swap",
                    why: format!(
                        "{}: no timestamps (vmstat without -t) and no collection time",
                        art.path
                    ),
                });
                return None;
            }
        }
    };
    let pts = |f: fn(&parsers::procs::vmstat::VmstatSample) -> Option<u64>| {
        let p: Vec<_> = samples
            .iter()
            .zip(&times)
            .filter_map(|(s, t)| t.map(|t| (t, f(s).map(|v| v as f64))))
            .collect();
        bin(&p, MAX_POINTS)
    };
    Some(SwapChart {
        artifact: art.path.clone(),
        si: Series {
            label: "si (swap-in)".into(),
            points: pts(|s| s.si),
        },
        so: Series {
            label: "so (swap-out)".into(),
            points: pts(|s| s.so),
        },
    })
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

    fn report(facts: HostFacts) -> Report {
        let eval = crate::rules::evaluate(&facts);
        Report::new(Path::new("bundle"), empty(), facts, eval)
    }

    #[test]
    fn host_offset_comes_from_the_first_sample_against_the_window() {
        // Window starts 10:00:00 UTC; the host prints 12:00:01 (UTC+2).
        let start = 20_000.0 * 86_400.0 + 36_000.0;
        let c = Clock::new(Some(start), ts(12, 0, 1)).unwrap();
        assert_eq!(c.offset, Some(7200));
        assert_eq!(c.at(&ts(12, 0, 30).unwrap()), 30.0);
        assert_eq!(c.label(30.0), "12:00:30");
        assert_eq!(c.describe(), "host clock, UTC+02:00");
        // Across midnight without dates, times keep increasing.
        let c = Clock::new(None, ts(23, 59, 58)).unwrap();
        let t = map_times(
            &c,
            [ts(23, 59, 58), ts(23, 59, 59), ts(0, 0, 0), ts(0, 0, 1)].into_iter(),
        );
        assert_eq!(t, vec![Some(0.0), Some(1.0), Some(2.0), Some(3.0)]);
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
        // Binning keeps gaps as gaps and averages the rest.
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
