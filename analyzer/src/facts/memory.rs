//! Memory facts: RAM and swap use, swap-in/out rates, swappiness, memory ballooning.
//!
//! In: `/proc/meminfo`, `free`, `/proc/swaps`, `vmstat` (si/so), `/proc/vmstat` (two snapshots:
//! pswpin/pswpout), `sysctl -a` (`vm.swappiness`), `lsmod`/`/proc/modules` (`vmw_balloon`),
//! `vmware-toolbox-cmd stat balloon`, NUMA counters (`numastat`, `node<N>/numastat`). Out:
//! [`Memory`].

use crate::evidence::Cited;
use serde::Serialize;

/// Memory state of the host.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Memory {
    /// `MemTotal`, KiB.
    pub mem_total_kib: Option<Cited<u64>>,
    /// `MemAvailable`, KiB.
    pub mem_available_kib: Option<Cited<u64>>,
    /// `SwapTotal`, KiB.
    pub swap_total_kib: Option<Cited<u64>>,
    /// Swap in use (`SwapTotal − SwapFree`), KiB.
    pub swap_used_kib: Option<Cited<u64>>,
    /// Pages swapped in per second over the window (`vmstat si` is KiB/s; converted to KiB/s).
    pub swap_in_kib_per_s: Option<Cited<f64>>,
    /// KiB swapped out per second over the window.
    pub swap_out_kib_per_s: Option<Cited<f64>>,
    /// Context switches per second over the window, all CPUs (`vmstat` `cs`, first report
    /// excluded). Kept here because it comes from the same `vmstat` samples.
    pub context_switches_per_s: Option<Cited<f64>>,
    /// Processes killed by the OOM killer (`/proc/vmstat` `oom_kill`, absent on older kernels; global and
    /// memory-cgroup kills alike): over the window, else since boot.
    pub oom_kills: Option<Cited<super::CounterChange>>,
    /// `vm.swappiness`.
    pub swappiness: Option<Cited<u64>>,
    /// The VMware balloon driver (`vmw_balloon`) is loaded.
    pub balloon_driver: Option<Cited<String>>,
    /// Memory currently reclaimed by the balloon, MiB (`vmware-toolbox-cmd stat balloon`).
    pub balloon_mib: Option<Cited<u64>>,
    /// NUMA allocation counters per node ([`numa`](super::numa)): over the window, else since
    /// boot.
    pub numa_nodes: Vec<Cited<super::numa::NumaNode>>,
}

use crate::artifacts::Collected;
use parsers::host::vmware_balloon::Balloon;
use parsers::kind;
use parsers::proc::meminfo::Meminfo;
use parsers::proc::vmstat::ProcVmstat;
use parsers::procs::free::{Free, FreeRow};
use parsers::procs::vmstat::Vmstat;
use std::collections::BTreeMap;

/// KiB per unit of a `free` output, from its command line: `free` prints no unit, so the
/// numbers are KiB (procps' default, `-k`) only when the command says so — the collector's
/// manifest, or a file name that carries the command (`free`, `free_-m`, `free-g.txt`,
/// `memory.txt#free -k`). `None` for a human-readable output (`-h`) or a name that does not say
/// (`mem.txt` sniffed as `free`): such a file gives no sizes.
fn free_unit_kib(a: &crate::artifacts::Artifact) -> Option<f64> {
    let words: Vec<String> = match a.record.as_ref().filter(|r| !r.argv.is_empty()) {
        Some(r) => r
            .argv
            .iter()
            .skip(1)
            .map(|w| w.trim_start_matches('-').to_string())
            .collect(),
        None => {
            let name = a
                .path
                .rsplit('/')
                .next()
                .unwrap_or(&a.path)
                .to_ascii_lowercase();
            let (_, rest) = name.split_once("free")?;
            rest.split(|ch: char| !ch.is_ascii_alphanumeric())
                .filter(|w| !w.is_empty() && !matches!(*w, "txt" | "out" | "log"))
                .map(str::to_string)
                .collect()
        }
    };
    let mut unit = 1.0;
    for w in &words {
        match w.as_str() {
            "m" | "mega" | "mebi" => unit = 1024.0,
            "g" | "giga" | "gibi" => unit = 1024.0 * 1024.0,
            "b" | "bytes" => unit = 1.0 / 1024.0,
            "k" | "kilo" | "kibi" | "w" | "wide" | "t" | "total" | "l" | "lohi" => {}
            _ => return None,
        }
    }
    Some(unit)
}

/// Builds memory facts. `sysctl` supplies `vm.swappiness`, `modules` the balloon driver.
///
/// Sizes come from `/proc/meminfo`, else from `free` (its `Mem:` and `Swap:` rows); when both
/// are present and their totals differ, the meminfo value is taken and the difference goes to
/// `conflicts`.
pub fn build(
    c: &Collected,
    sysctl: &BTreeMap<String, Cited<String>>,
    modules: Option<&super::ModuleList>,
    conflicts: &mut Vec<super::conflicts::Conflict>,
) -> Memory {
    let mut m = Memory {
        numa_nodes: super::numa::build(c),
        ..Default::default()
    };
    let free = c
        .records::<Free>()
        .find_map(|(a, f)| free_unit_kib(a).map(|k| (a, f, k)));
    if let Some((a, f, unit)) = free {
        let kib = |row: &Option<FreeRow>, pick: fn(&FreeRow) -> Option<f64>| {
            row.as_ref()
                .and_then(|r| pick(r).map(|v| ((v * unit).round() as u64, r.line)))
        };
        m.mem_total_kib = kib(&f.mem, |r| r.total_kib).map(|(v, l)| Cited::new(v, &a.path, l));
        m.mem_available_kib =
            kib(&f.mem, |r| r.available_kib).map(|(v, l)| Cited::new(v, &a.path, l));
        m.swap_total_kib = kib(&f.swap, |r| r.total_kib).map(|(v, l)| Cited::new(v, &a.path, l));
        m.swap_used_kib = kib(&f.swap, |r| r.used_kib).map(|(v, l)| Cited::new(v, &a.path, l));
    }
    let from_free = m.mem_total_kib.clone();
    if let Some((a, mi)) = c.records::<Meminfo>().next() {
        let line = |name: &str| {
            mi.entries
                .iter()
                .find(|e| e.name == name)
                .map(|e| e.line)
                .unwrap_or(1)
        };
        m.mem_total_kib = mi
            .mem_total_kib
            .map(|v| Cited::new(v, &a.path, line("MemTotal")));
        m.mem_available_kib = mi
            .mem_available_kib
            .map(|v| Cited::new(v, &a.path, line("MemAvailable")))
            .or(m.mem_available_kib.take());
        m.swap_total_kib = mi
            .swap_total_kib
            .map(|v| Cited::new(v, &a.path, line("SwapTotal")))
            .or(m.swap_total_kib.take());
        m.swap_used_kib = mi
            .swap_used_kib()
            .map(|v| Cited::lines(v, &a.path, vec![line("SwapTotal"), line("SwapFree")]))
            .or(m.swap_used_kib.take());
        // free prints sizes rounded to its unit: a difference beyond 1 MiB is a disagreement.
        let total = mi
            .mem_total_kib
            .map(|v| Cited::new(v, &a.path, line("MemTotal")));
        m.mem_total_kib = super::conflicts::choose(
            "MemTotal (KiB)",
            total.into_iter().chain(from_free).collect(),
            |a, b| a.abs_diff(*b) <= 1024,
            conflicts,
        );
    }
    // vmstat si/so (KiB/s), the first sample (averages since boot) excluded.
    if let Some((a, v)) = c.records::<Vmstat>().max_by_key(|(_, v)| v.samples.len()) {
        let samples = || v.samples.iter().skip(usize::from(v.samples.len() > 1));
        if samples().len() > 0 {
            let n = samples().len() as f64;
            // Sums of counters read from the bundle: as floats, which cannot overflow.
            let si: f64 = samples()
                .filter_map(|s| s.si)
                .map(|v| v as f64)
                .sum::<f64>()
                / n;
            let so: f64 = samples()
                .filter_map(|s| s.so)
                .map(|v| v as f64)
                .sum::<f64>()
                / n;
            let traffic = |s: &parsers::procs::vmstat::VmstatSample| {
                s.si.unwrap_or(0).saturating_add(s.so.unwrap_or(0))
            };
            // (traffic, line) of the samples with swap traffic, the heaviest first.
            let mut worst: Vec<(u64, usize)> = samples()
                .map(|s| (traffic(&s), s.line))
                .filter(|(t, _)| *t > 0)
                .collect();
            worst.sort_by_key(|(t, _)| std::cmp::Reverse(*t));
            let mut lines: Vec<usize> = worst.iter().take(4).map(|(_, l)| *l).collect();
            if lines.is_empty() {
                lines = samples().take(2).map(|s| s.line).collect();
            }
            let (mut cs_sum, mut cs_n) = (0.0, 0usize);
            for c in samples().filter_map(|s| s.cs) {
                cs_sum += c as f64;
                cs_n += 1;
            }
            if cs_n > 0 {
                let mean = cs_sum / cs_n as f64;
                let cite: Vec<usize> = samples().take(3).map(|s| s.line).collect();
                m.context_switches_per_s = Some(Cited::lines(mean, &a.path, cite));
            }
            m.swap_in_kib_per_s = Some(Cited::lines(si, &a.path, lines.clone()));
            m.swap_out_kib_per_s = Some(Cited::lines(so, &a.path, lines));
        }
    }
    m.oom_kills = super::snapshots::counter_change(c, &kind::PROC_VMSTAT, |v: &ProcVmstat| {
        let e = v.counters.iter().find(|e| e.name == "oom_kill")?;
        Some((e.value, e.line))
    });
    if let Some(s) = sysctl.get("vm.swappiness") {
        if let Ok(v) = s.value.trim().parse() {
            m.swappiness = Some(Cited {
                value: v,
                artifact: s.artifact.clone(),
                lines: s.lines.clone(),
            });
        }
    }
    if let Some(list) = modules {
        if let Some(b) = list.iter().find(|x| x.name == "vmw_balloon") {
            m.balloon_driver = Some(Cited::new(b.name.clone(), &list.artifact, b.line));
        }
    }
    if let Some((a, b)) = c.records::<Balloon>().next() {
        m.balloon_mib = Some(Cited::new(b.mib, &a.path, b.line));
    }
    m
}
