//! Where CPU time goes beyond the per-CPU series: the run queue (`vmstat` `r`/`b`, `sar -q`),
//! load averages (`/proc/loadavg`, `uptime`, `top`, `sar -q`), the all-CPU `%steal` of tools
//! that print no per-CPU rows (`vmstat` `st`, `top`'s `%Cpu(s): … st`), the since-boot steal share
//! of one `/proc/stat` read, pressure stall information (`/proc/pressure/*`), and CPU frequency
//! scaling (cpufreq sysfs files, `cpupower frequency-info`, `tuned-adm`).

use crate::artifacts::{Artifact, Collected};
use crate::evidence::Cited;
use parsers::common::Timestamp;
use parsers::host::cpufreq::CpufreqValue;
use parsers::host::cpupower::CpupowerFrequencyInfo;
use parsers::host::tuned::Tuned;
use parsers::kind;
use parsers::proc::cpuinfo::Cpuinfo;
use parsers::proc::loadavg::Loadavg;
use parsers::proc::pressure::{Pressure, Stall};
use parsers::proc::stat::ProcStat;
use parsers::procs::top::Top;
use parsers::procs::uptime::Uptime;
use parsers::procs::vmstat::Vmstat;
use parsers::sysstat::mpstat::{CpuId, Mpstat};
use parsers::sysstat::sar::Sar;
use serde::Serialize;

/// Scheduler-level facts of one host.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Sched {
    /// Run-queue samples over the window (`vmstat` `r`, else `sar -q` `runq-sz`).
    pub run_queue: Option<RunQueue>,
    /// Load averages over 1, 5 and 15 minutes (`/proc/loadavg`, else `sar -q`, `uptime`,
    /// `top`). On Linux they count tasks in uninterruptible sleep too.
    pub load_average: Option<Cited<[f64; 3]>>,
    /// All-CPU `%steal` per interval from a tool without per-CPU rows (`vmstat` `st`, `top`).
    pub steal: Option<StealSeries>,
    /// Share of CPU time stolen since boot (%), from one `/proc/stat` read (its `cpu` line).
    pub steal_since_boot_pct: Option<Cited<f64>>,
    /// Pressure stall information, one entry per resource file read.
    pub pressure: Vec<Psi>,
    /// CPU frequency scaling.
    pub freq: CpuFreq,
}

/// Tasks runnable (and blocked) per interval.
#[derive(Debug, Clone, Serialize)]
pub struct RunQueue {
    /// Artifact read.
    pub artifact: String,
    /// The column read, in the tool's words (`vmstat r`, `sar -q runq-sz`).
    pub column: &'static str,
    /// 1-based line of the column header, cited with the samples.
    pub header_line: usize,
    /// One sample per interval, in time order.
    pub samples: Vec<RunQueueSample>,
}

/// One run-queue sample.
#[derive(Debug, Clone, Serialize)]
pub struct RunQueueSample {
    /// 1-based input line.
    pub line: usize,
    /// Time of the sample, when printed.
    pub time: Option<Timestamp>,
    /// Tasks running or waiting for a CPU (`r`, `runq-sz`).
    pub runnable: f64,
    /// Tasks in uninterruptible sleep, mostly blocked on I/O (`b`, `blocked`), when printed.
    pub blocked: Option<f64>,
}

/// All-CPU `%steal` per interval.
#[derive(Debug, Clone, Serialize)]
pub struct StealSeries {
    /// Artifact read.
    pub artifact: String,
    /// The column read (`vmstat st`, `top %Cpu(s) st`).
    pub column: &'static str,
    /// 1-based line of the column header (0 when there is none, as in `top`).
    pub header_line: usize,
    /// `(1-based line, %steal)` per interval, the since-boot first `vmstat` report excluded.
    pub samples: Vec<(usize, f64)>,
}

/// One pressure file (`/proc/pressure/{cpu,memory,io}`).
#[derive(Debug, Clone, Serialize)]
pub struct Psi {
    /// `cpu`, `memory` or `io` (from the path).
    pub resource: String,
    /// Artifact read (the latest snapshot when there are several).
    pub artifact: String,
    /// The `some` line.
    pub some: Option<Stall>,
    /// The `full` line (zero at the system level for `cpu`).
    pub full: Option<Stall>,
    /// `some` stall share over the collection window, %: the `total` delta of the first and
    /// last snapshot over the seconds between them, when two timed snapshots exist.
    pub some_window_pct: Option<f64>,
    /// Seconds between the two snapshots `some_window_pct` comes from.
    pub window_s: Option<f64>,
}

/// CPU frequency scaling of the host.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CpuFreq {
    /// Per CPU: the cpufreq attributes read from sysfs.
    pub cpus: Vec<CpuFreqFiles>,
    /// `cpupower frequency-info`, when collected: its artifact and record.
    pub cpupower: Option<(String, CpupowerFrequencyInfo)>,
    /// `tuned-adm`'s active (or preset) profile name. A profile's name is not the governor.
    pub tuned_profile: Option<Cited<String>>,
    /// `tuned-adm` said no profile is active.
    pub tuned_none: Option<Cited<()>>,
    /// Per processor of `/proc/cpuinfo` with a `cpu MHz` line (x86): the clock the kernel last
    /// measured, MHz, and the nominal clock its model name states (`@ 2.60GHz`), when it does.
    pub cpuinfo: Vec<(u32, Cited<f64>, Option<f64>)>,
}

/// The cpufreq sysfs attributes of one CPU.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CpuFreqFiles {
    /// CPU number.
    pub cpu: u32,
    /// `scaling_governor`.
    pub governor: Option<Cited<String>>,
    /// `scaling_driver`.
    pub driver: Option<Cited<String>>,
    /// `scaling_cur_freq`, kHz.
    pub cur_khz: Option<Cited<u64>>,
    /// `scaling_max_freq`, kHz.
    pub scaling_max_khz: Option<Cited<u64>>,
    /// `cpuinfo_max_freq`, kHz (the hardware's maximum).
    pub cpuinfo_max_khz: Option<Cited<u64>>,
}

/// Builds the scheduler facts.
pub fn build(c: &Collected) -> Sched {
    Sched {
        run_queue: run_queue(c),
        load_average: load_average(c),
        steal: steal(c),
        steal_since_boot_pct: steal_since_boot(c),
        pressure: pressure(c),
        freq: freq(c),
    }
}

fn run_queue(c: &Collected) -> Option<RunQueue> {
    if let Some((a, v)) = c
        .records::<Vmstat>()
        .filter(|(_, v)| v.samples.iter().any(|s| s.r.is_some()))
        .max_by_key(|(_, v)| v.samples.len())
    {
        let samples: Vec<RunQueueSample> = v
            .samples
            .iter()
            .filter_map(|s| {
                Some(RunQueueSample {
                    line: s.line,
                    time: s.time,
                    runnable: s.r? as f64,
                    blocked: s.b.map(|b| b as f64),
                })
            })
            .collect();
        let header_line = v.samples.first().map_or(0, |s| s.line.saturating_sub(1));
        return Some(RunQueue {
            artifact: a.path.clone(),
            column: "vmstat r",
            header_line,
            samples,
        });
    }
    let (a, s) = c
        .records::<Sar>()
        .filter(|(_, s)| s.queue.rows.iter().any(|r| r.runq_sz.is_some()))
        .max_by_key(|(_, s)| s.queue.rows.len())?;
    let samples: Vec<RunQueueSample> = s
        .queue
        .rows
        .iter()
        .filter_map(|r| {
            Some(RunQueueSample {
                line: r.line,
                time: r.time,
                runnable: r.runq_sz?,
                blocked: r.blocked,
            })
        })
        .collect();
    let header_line = samples.first().map_or(0, |r| r.line.saturating_sub(1));
    Some(RunQueue {
        artifact: a.path.clone(),
        column: "sar -q runq-sz",
        header_line,
        samples,
    })
}

fn load_average(c: &Collected) -> Option<Cited<[f64; 3]>> {
    if let Some((a, l)) = latest(c.records::<Loadavg>()) {
        return Some(Cited::new(l.load_average, &a.path, l.line));
    }
    if let Some((a, r)) = c.records::<Sar>().find_map(|(a, s)| {
        s.queue
            .rows
            .iter()
            .rev()
            .find(|r| r.ldavg_1.is_some())
            .map(|r| (a, r))
    }) {
        if let (Some(l1), Some(l5), Some(l15)) = (r.ldavg_1, r.ldavg_5, r.ldavg_15) {
            return Some(Cited::new([l1, l5, l15], &a.path, r.line));
        }
    }
    if let Some((a, u)) = c
        .records::<Uptime>()
        .find(|(_, u)| u.load_average.is_some())
    {
        return u.load_average.map(|l| Cited::new(l, &a.path, u.line));
    }
    c.records::<Top>().find_map(|(a, t)| {
        let f = t.frames.last()?;
        f.load.map(|l| Cited::new(l, &a.path, f.line))
    })
}

/// The artifact named `*.end`, else the last in path order.
fn latest<'a, T>(it: impl Iterator<Item = (&'a Artifact, &'a T)>) -> Option<(&'a Artifact, &'a T)> {
    it.max_by_key(|(a, _)| (a.path.ends_with(".end"), a.path.clone()))
}

fn steal(c: &Collected) -> Option<StealSeries> {
    // `mpstat` or `sar -u` without `-P ALL`: the `all` row of each interval.
    let from_mpstat = c.records::<Mpstat>().filter_map(|(a, m)| {
        let rows: Vec<(usize, f64)> = m
            .intervals
            .iter()
            .flat_map(|i| i.rows.iter())
            .filter(|r| r.cpu == CpuId::All)
            .filter_map(|r| Some((r.line, r.steal_pct?)))
            .collect();
        Some((a, "mpstat all %steal", rows)).filter(|(_, _, r)| !r.is_empty())
    });
    let from_sar = c.records::<Sar>().filter_map(|(a, s)| {
        let rows: Vec<(usize, f64)> = s
            .cpu
            .rows
            .iter()
            .filter(|r| r.cpu == CpuId::All)
            .filter_map(|r| Some((r.line, r.steal_pct?)))
            .collect();
        Some((a, "sar -u all %steal", rows)).filter(|(_, _, r)| !r.is_empty())
    });
    if let Some((a, column, samples)) = from_mpstat.chain(from_sar).max_by_key(|(_, _, r)| r.len())
    {
        return Some(StealSeries {
            artifact: a.path.clone(),
            column,
            header_line: samples.first().map_or(0, |s| s.0.saturating_sub(1)),
            samples,
        });
    }
    if let Some((a, v)) = c
        .records::<Vmstat>()
        .filter(|(_, v)| v.samples.iter().any(|s| s.st.is_some()))
        .max_by_key(|(_, v)| v.samples.len())
    {
        // The first report averages since boot.
        let samples: Vec<(usize, f64)> = v
            .samples
            .iter()
            .skip(usize::from(v.samples.len() > 1))
            .filter_map(|s| Some((s.line, s.st? as f64)))
            .collect();
        if !samples.is_empty() {
            let header_line = v.samples.first().map_or(0, |s| s.line.saturating_sub(1));
            return Some(StealSeries {
                artifact: a.path.clone(),
                column: "vmstat st",
                header_line,
                samples,
            });
        }
    }
    let (a, t) = c
        .records::<Top>()
        .filter(|(_, t)| {
            t.frames
                .iter()
                .any(|f| f.cpu.as_ref().is_some_and(|c| c.st.is_some()))
        })
        .max_by_key(|(_, t)| t.frames.len())?;
    // `top -b`'s first frame also averages since boot when later frames follow.
    let samples: Vec<(usize, f64)> = t
        .frames
        .iter()
        .skip(usize::from(t.frames.len() > 1))
        .filter_map(|f| {
            let cpu = f.cpu.as_ref()?;
            Some((cpu.line, cpu.st?))
        })
        .collect();
    (!samples.is_empty()).then(|| StealSeries {
        artifact: a.path.clone(),
        column: "top %Cpu(s) st",
        header_line: 0,
        samples,
    })
}

fn steal_since_boot(c: &Collected) -> Option<Cited<f64>> {
    let (a, s) = super::snapshots::latest(c, &kind::PROC_STAT, |s: &ProcStat| s.snapshots.last())?;
    let t = s.total.as_ref()?;
    let steal = t.steal? as f64;
    let sum = [
        t.user,
        t.nice,
        t.system,
        t.idle,
        t.iowait.unwrap_or(0),
        t.irq.unwrap_or(0),
        t.softirq.unwrap_or(0),
        t.steal.unwrap_or(0),
    ]
    .iter()
    .map(|v| *v as f64)
    .sum::<f64>();
    (sum > 0.0).then(|| Cited::new(steal * 100.0 / sum, &a.path, t.line))
}

/// `cpu`, `memory` or `io` from a path `…/pressure/cpu[.suffix]`.
fn resource(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next()?;
    let base = name.split('.').next()?;
    // `proc/pressure/cpu`, or a loose copy's name `pressure_cpu`, `proc-pressure-io`.
    let base = base.rsplit(['_', '-']).next().unwrap_or(base);
    ["cpu", "memory", "io"].into_iter().find(|r| *r == base)
}

fn pressure(c: &Collected) -> Vec<Psi> {
    let mut out = Vec::new();
    for r in ["cpu", "memory", "io"] {
        let mut snaps: Vec<(&Artifact, &Pressure)> = c
            .records_of::<Pressure>(&kind::PRESSURE)
            .filter(|(a, _)| resource(&a.path) == Some(r))
            .collect();
        if snaps.is_empty() {
            continue;
        }
        let start = |a: &Artifact| a.record.as_ref().and_then(|m| m.start);
        snaps.sort_by(|x, y| {
            (start(x.0), x.0.path.ends_with(".end"), &x.0.path)
                .partial_cmp(&(start(y.0), y.0.path.ends_with(".end"), &y.0.path))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let (la, lp) = snaps[snaps.len() - 1];
        let (fa, fp) = snaps[0];
        let (mut some_window_pct, mut window_s) = (None, None);
        if let (Some(t0), Some(t1), Some(s0), Some(s1)) = (start(fa), start(la), fp.some, lp.some) {
            let secs = t1 - t0;
            if secs > 0.0 && s1.total_us >= s0.total_us {
                let pct = (s1.total_us - s0.total_us) as f64 / (secs * 1e6) * 100.0;
                some_window_pct = Some(pct.min(100.0));
                window_s = Some(secs);
            }
        }
        out.push(Psi {
            resource: r.to_string(),
            artifact: la.path.clone(),
            some: lp.some,
            full: lp.full,
            some_window_pct,
            window_s,
        });
    }
    out
}

/// `(cpu, attribute)` from `…/cpuN/cpufreq/ATTR` or `…/cpufreq/cpuN/ATTR`.
fn cpufreq_place(path: &str) -> Option<(u32, &str)> {
    let parts: Vec<&str> = path.rsplit('/').take(3).collect();
    let [attr, b, a] = parts.as_slice() else {
        return None;
    };
    let cpu_dir = if *b == "cpufreq" { *a } else { *b };
    let n = cpu_dir.strip_prefix("cpu")?;
    if n.is_empty() || !n.bytes().all(|x| x.is_ascii_digit()) {
        return None;
    }
    Some((n.parse().ok()?, attr))
}

fn freq(c: &Collected) -> CpuFreq {
    let mut f = CpuFreq::default();
    for (a, v) in c.records::<CpufreqValue>() {
        let Some((cpu, attr)) = cpufreq_place(&a.path) else {
            continue;
        };
        let i = match f.cpus.iter().position(|x| x.cpu == cpu) {
            Some(i) => i,
            None => {
                f.cpus.push(CpuFreqFiles {
                    cpu,
                    ..Default::default()
                });
                f.cpus.len() - 1
            }
        };
        let e = &mut f.cpus[i];
        let name = || Some(Cited::new(v.value.clone(), &a.path, v.line));
        let khz = || v.khz().map(|k| Cited::new(k, &a.path, v.line));
        match attr {
            "scaling_governor" => e.governor = name(),
            "scaling_driver" => e.driver = name(),
            "scaling_cur_freq" => e.cur_khz = khz(),
            "scaling_max_freq" => e.scaling_max_khz = khz(),
            "cpuinfo_max_freq" => e.cpuinfo_max_khz = khz(),
            _ => {}
        }
    }
    f.cpus.sort_by_key(|x| x.cpu);
    f.cpupower = c
        .records::<CpupowerFrequencyInfo>()
        .max_by_key(|(_, p)| p.cpus.len())
        .map(|(a, p)| (a.path.clone(), p.clone()));
    if let Some((a, ci)) = c
        .records::<Cpuinfo>()
        .max_by_key(|(_, ci)| ci.processors.len())
    {
        f.cpuinfo = ci
            .processors
            .iter()
            .filter_map(|p| {
                let (mhz, line) = p.mhz?;
                Some((p.processor, Cited::new(mhz, &a.path, line), p.nominal_mhz()))
            })
            .collect();
    }
    if let Some((a, t)) = c.records::<Tuned>().next() {
        f.tuned_profile = t
            .active
            .as_ref()
            .or(t.preset.as_ref())
            .map(|(p, l)| Cited::new(p.clone(), &a.path, *l));
        f.tuned_none = t.none_active_line.map(|l| Cited::new((), &a.path, l));
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_cpufreq_files_by_path() {
        assert_eq!(
            cpufreq_place("sys/devices/system/cpu/cpu12/cpufreq/scaling_governor"),
            Some((12, "scaling_governor"))
        );
        assert_eq!(
            cpufreq_place("rca-h/cpu/cpufreq/cpu3/cpuinfo_max_freq"),
            Some((3, "cpuinfo_max_freq"))
        );
        assert_eq!(cpufreq_place("cpu/cpufreq/policy0/scaling_governor"), None);
        assert_eq!(resource("rca-h/proc/pressure/io.start"), Some("io"));
        assert_eq!(resource("proc/pressure/irq"), None);
        assert_eq!(resource("pressure_memory.txt"), Some("memory"));
    }
}
