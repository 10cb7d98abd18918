//! Time-aligned series: every sampled quantity of one host on one time axis, so cause and effect
//! line up from series to series.
//!
//! In: the CPU, disk and JVM facts, the collection window, and the parsed `sar -n DEV`/`EDEV`,
//! `vmstat` and `jstat` outputs. Out: [`TimeSeries`] on a [`Clock`] (seconds from the window's
//! start, read from the host's clock): per-CPU busy, `%soft` and `%iowait`; per-device `await`,
//! `aqu-sz` and `%util`; per-interface throughput and drops; per-JVM old generation, GC time
//! and full collections; swap-in and swap-out. Each series says why it is absent when it is.
//! After the rules, the report puts the findings' time ranges on the same [`Clock`].
//!
//! Samples far apart in time (loose outputs captured months apart) fall in separate
//! [`Segment`]s (see [`segment`] for the rule), each drawn on its own axis; one capture is one
//! segment.
//!
//! Series keep every sample; fitting them to a chart's width is the report's business.

mod clock;
mod cpu;
mod disk;
mod gc;
mod nic;
pub mod segment;
mod swap;

pub use clock::Clock;
pub use cpu::{CpuRow, CpuTimeline};
pub use disk::{DeviceTimeline, DiskTimeline};
pub use gc::GcTimeline;
pub use nic::{InterfaceTimeline, NicTimeline};
pub use segment::Segment;
pub use swap::SwapTimeline;

use super::HostFacts;
use crate::artifacts::Collected;
use parsers::common::Timestamp;
use parsers::kind;
use parsers::procs::vmstat::Vmstat;
use parsers::sysstat::sar::Sar;
use serde::Serialize;

/// Points `(t, value)` in time order: `t` in seconds on the [`Clock`], `value` `None` where the
/// sample lacks it.
pub type Points = Vec<(f64, Option<f64>)>;

/// Why a host has no time axis at all.
pub const NO_CLOCK: &str = "no sample carries a time and the bundle has no collection window";

/// Every time-aligned series of one host; `Err` says why a series is absent.
#[derive(Debug, Clone, Serialize)]
pub struct TimeSeries {
    /// The axis every time below is on.
    pub clock: Clock,
    /// Per-CPU utilisation (`mpstat -P ALL`).
    pub cpu: Result<CpuTimeline, String>,
    /// Per-device I/O (`iostat -x`).
    pub disks: Result<DiskTimeline, String>,
    /// Per-interface network rates (`sar -n DEV`, `sar -n EDEV`).
    pub nics: Result<NicTimeline, String>,
    /// Per-JVM GC (`jstat`), for the JVMs whose samples can be placed in time.
    pub gc: Vec<GcTimeline>,
    /// Why JVMs have no [`GcTimeline`]: one entry per JVM that cannot be placed, and one when
    /// none has a timeline.
    pub gc_missing: Vec<String>,
    /// Swap traffic (`vmstat`).
    pub swap: Result<SwapTimeline, String>,
    /// The runs of samples close together in time, in time order (one for one capture), over
    /// every series above and the collection window.
    pub segments: Vec<Segment>,
}

/// Builds the series of a host whose other facts are built. Errors: [`NO_CLOCK`].
pub fn build(f: &HostFacts, c: &Collected) -> Result<TimeSeries, String> {
    let start = f.window.map(|w| w.0);
    let clock = Clock::new(start, first_timestamp(f, c)).ok_or(NO_CLOCK)?;
    let (gc, gc_missing) = gc::build(&f.jvms, c, f.interval_s, &clock);
    let mut ts = TimeSeries {
        cpu: cpu::build(&f.cpus, f.cpus.reason(), &clock),
        disks: disk::build(&f.disks, f.disks.reason(), &clock),
        nics: nic::build(c, &clock),
        gc,
        gc_missing,
        swap: swap::build(c, f.interval_s, &clock),
        clock,
        segments: Vec::new(),
    };
    let window: Vec<f64> = f.window.iter().flat_map(|(s, e)| [0.0, e - s]).collect();
    ts.segments = segment::split(&ts.runs(), &window);
    Ok(ts)
}

impl TimeSeries {
    /// The sample times of every series, one list per series (each in time order).
    fn runs(&self) -> Vec<Vec<f64>> {
        fn times(p: &Points) -> Vec<f64> {
            p.iter().map(|p| p.0).collect()
        }
        let mut out: Vec<Vec<f64>> = Vec::new();
        if let Ok(c) = &self.cpu {
            out.push(c.times.clone());
        }
        if let Ok(d) = &self.disks {
            out.extend(d.devices.iter().map(|d| times(&d.await_ms)));
        }
        if let Ok(n) = &self.nics {
            for i in &n.interfaces {
                out.push(times(&i.rx_kb_per_s));
                out.push(times(&i.drops_per_s));
            }
        }
        for g in &self.gc {
            out.push(times(&g.old_pct));
        }
        if let Ok(s) = &self.swap {
            out.push(times(&s.si));
        }
        out
    }
}

/// The first host-clock sample of the window's samplers, to find the host's offset from UTC:
/// dated `iostat` first, then `mpstat`, `vmstat -t`, `sar`.
fn first_timestamp(f: &HostFacts, c: &Collected) -> Option<Timestamp> {
    let disk = f
        .disks
        .iter()
        .flat_map(|d| d.samples.first())
        .filter_map(|s| s.time)
        .find(|t| t.date.is_some());
    let cpu = f
        .cpus
        .first()
        .and_then(|c| c.samples.first())
        .and_then(|s| s.time);
    let vm = c
        .records::<Vmstat>()
        .find_map(|(_, v)| v.samples.iter().find_map(|s| s.time));
    let sar = c
        .records_of::<Sar>(&kind::SAR)
        .find_map(|(_, s)| s.net_dev.rows.iter().find_map(|r| r.time));
    let any_disk = f
        .disks
        .iter()
        .flat_map(|d| d.samples.first())
        .find_map(|s| s.time);
    disk.or(cpu).or(vm).or(sar).or(any_disk)
}

/// The median gap between consecutive times (1 when there are fewer than two).
pub fn median_step(times: &[f64]) -> f64 {
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
