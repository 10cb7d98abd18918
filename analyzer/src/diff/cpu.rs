//! CPUs and platform: count, model, topology, virtualization, OS; the utilisation profile over
//! the window (mean `%usr`, `%sys`, `%iowait`, `%soft`, `%steal`, the busiest CPU's `%soft`);
//! soft-IRQ rates per type.
//!
//! In: both sides' identity, [`Platform`](crate::facts::platform::Platform), virtualization,
//! per-CPU series and soft-IRQ rates. Out: one difference per differing value; utilisation
//! differences under [`score::UTIL_PCT`] are noise.

use super::score::{self, CPU_COUNT, CPU_MODEL, CPU_PROFILE, PLATFORM, SOFTIRQ_RATE};
use super::{numeric, Difference, Out, Pair, Which};
use crate::facts::{CpuSample, CpuSeries, HostFacts};
use crate::rules::SymptomGroup;

/// Reads one metric of a sample.
type Get = fn(&CpuSample) -> Option<f64>;

/// Mean of one metric over every CPU and interval, and the sample lines where it peaked.
struct Stat {
    mean: f64,
    peak_lines: Vec<usize>,
    header: Option<usize>,
}

fn stat(series: &[CpuSeries], get: Get) -> Option<Stat> {
    let mut n = 0usize;
    let mut sum = 0.0;
    let mut all: Vec<(f64, usize, usize)> = Vec::new();
    for c in series {
        for s in &c.samples {
            if let Some(v) = get(s) {
                n += 1;
                sum += v;
                all.push((v, s.line, s.header_line));
            }
        }
    }
    if n == 0 {
        return None;
    }
    all.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
    Some(Stat {
        mean: sum / n as f64,
        peak_lines: all.iter().take(3).map(|x| x.1).collect(),
        header: all.first().map(|x| x.2),
    })
}

/// The CPU with the highest mean `%soft`: (cpu, mean, lines of its top samples).
fn busiest_soft(series: &[CpuSeries]) -> Option<(u32, f64, Vec<usize>)> {
    series
        .iter()
        .filter_map(|c| {
            let v: Vec<(f64, usize)> = c
                .samples
                .iter()
                .filter_map(|s| s.soft_pct.map(|x| (x, s.line)))
                .collect();
            if v.is_empty() {
                return None;
            }
            let mean = v.iter().map(|x| x.0).sum::<f64>() / v.len() as f64;
            let mut lines: Vec<usize> = v.iter().map(|x| x.1).take(3).collect();
            if let Some(h) = c.samples.first().map(|s| s.header_line) {
                lines.push(h);
            }
            Some((c.cpu, mean, lines))
        })
        .max_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal))
}

fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

/// Compares CPU, platform, utilisation and soft-IRQ facts.
pub fn compare(p: &Pair, out: &mut Out) {
    let (b, s) = (&p.baseline.facts, &p.suspect.facts);
    platform(b, s, out);
    profile(p, out);
    softirqs(p, out);
}

fn platform(b: &HostFacts, s: &HostFacts, out: &mut Out) {
    if let (Some(x), Some(y)) = (b.identity.cpus, s.identity.cpus) {
        if x != y {
            out.push(
                Difference::new(&CPU_COUNT, "logical CPUs")
                    .values(Some(x.to_string()), Some(y.to_string()))
                    .magnitude(score::relative_change(f64::from(x), f64::from(y)))
                    .reason(format!(
                        "{y} CPUs on the suspect vs {x}: parallelism and every default sized from the core count (GC threads, pools, NIC queues) differ"
                    )),
            );
        }
    }
    if let (Some(x), Some(y)) = (&b.platform.cpu_model, &s.platform.cpu_model) {
        if x.value != y.value {
            out.push(
                Difference::new(&CPU_MODEL, "CPU model")
                    .values(Some(x.value.clone()), Some(y.value.clone()))
                    .reason("another CPU: per-core speed, caches and NUMA distances differ")
                    .cite(Which::Baseline, Some(x))
                    .cite(Which::Suspect, Some(y)),
            );
        }
    }
    for (what, x, y) in [
        ("sockets", &b.platform.sockets, &s.platform.sockets),
        (
            "threads per core",
            &b.platform.threads_per_core,
            &s.platform.threads_per_core,
        ),
        ("NUMA nodes", &b.platform.numa_nodes, &s.platform.numa_nodes),
    ] {
        if let (Some(x), Some(y)) = (x, y) {
            if x.value != y.value {
                out.push(
                    Difference::new(&CPU_MODEL, format!("CPU {what}"))
                        .values(Some(x.value.to_string()), Some(y.value.to_string()))
                        .magnitude(0.6)
                        .reason("another CPU topology: SMT and NUMA placement differ")
                        .cite(Which::Baseline, Some(x))
                        .cite(Which::Suspect, Some(y)),
                );
            }
        }
    }
    if let (Some(x), Some(y)) = (&b.kernel.virt, &s.kernel.virt) {
        if x.value != y.value {
            let show = |v: &str| {
                if v == "none" {
                    "physical".to_string()
                } else {
                    v.to_string()
                }
            };
            out.push(
                Difference::new(&PLATFORM, "virtualization")
                    .values(Some(show(&x.value)), Some(show(&y.value)))
                    .reason("physical vs virtual or another hypervisor: context for many other differences")
                    .cite(Which::Baseline, Some(x))
                    .cite(Which::Suspect, Some(y)),
            );
        }
    }
    if let (Some(x), Some(y)) = (&b.identity.os, &s.identity.os) {
        if x != y {
            out.push(
                Difference::new(&PLATFORM, "operating system")
                    .values(Some(x.clone()), Some(y.clone()))
                    .magnitude(0.6)
                    .reason("another OS release: packages, defaults and tuning profiles differ"),
            );
        }
    }
}

fn profile(p: &Pair, out: &mut Out) {
    let (b, s) = (&p.baseline.facts, &p.suspect.facts);
    if !out.both(
        "cpu",
        "per-CPU utilisation (`mpstat -P ALL`, `sar -P ALL`, `/proc/stat`)",
        !b.cpus.is_empty(),
        !s.cpus.is_empty(),
    ) {
        return;
    }
    let soft_link = p.symptoms.any(SymptomGroup::Softirq);
    let metrics: [(&str, Get, Option<String>); 5] = [
        ("%usr", |x| x.user_pct, None),
        ("%sys", |x| x.sys_pct, None),
        (
            "%iowait",
            |x| x.iowait_pct,
            p.symptoms.any(SymptomGroup::Storage),
        ),
        ("%soft", |x| x.soft_pct, soft_link.clone()),
        ("%steal", |x| x.steal_pct, None),
    ];
    let (ab, as_) = (b.cpus[0].artifact.clone(), s.cpus[0].artifact.clone());
    for (name, get, link) in metrics {
        let (Some(x), Some(y)) = (stat(&b.cpus, get), stat(&s.cpus, get)) else {
            continue;
        };
        numeric(
            out,
            &CPU_PROFILE,
            format!("mean {name} over all CPUs"),
            round1(x.mean),
            round1(y.mean),
            score::UTIL_PCT,
            "%",
            link,
            |d| {
                d.cite_lines(
                    Which::Baseline,
                    &ab,
                    &[x.peak_lines.clone(), x.header.into_iter().collect()].concat(),
                )
                .cite_lines(
                    Which::Suspect,
                    &as_,
                    &[y.peak_lines.clone(), y.header.into_iter().collect()].concat(),
                )
            },
        );
    }
    if let (Some(x), Some(y)) = (busiest_soft(&b.cpus), busiest_soft(&s.cpus)) {
        numeric(
            out,
            &CPU_PROFILE,
            "busiest CPU's mean %soft".to_string(),
            round1(x.1),
            round1(y.1),
            score::UTIL_PCT,
            "%",
            soft_link,
            |d| {
                d.values(
                    Some(format!("{} % (CPU {})", round1(x.1), x.0)),
                    Some(format!("{} % (CPU {})", round1(y.1), y.0)),
                )
                .cite_lines(Which::Baseline, &ab, &x.2)
                .cite_lines(Which::Suspect, &as_, &y.2)
            },
        );
    }
}

fn softirqs(p: &Pair, out: &mut Out) {
    let (b, s) = (
        p.baseline.facts.softirqs.get(),
        p.suspect.facts.softirqs.get(),
    );
    if !out.both(
        "cpu",
        "soft-IRQ rates (two `/proc/softirqs` snapshots)",
        b.is_some(),
        s.is_some(),
    ) {
        return;
    }
    let (Some(b), Some(s)) = (b, s) else { return };
    let link = p.symptoms.any(SymptomGroup::Softirq);
    for rb in &b.rates {
        let Some(rs) = s.rates_of(&rb.name) else {
            continue;
        };
        let total =
            |r: &parsers::proc::softirqs::SoftirqRates| r.per_cpu.iter().map(|x| x.1).sum::<f64>();
        let (x, y) = (total(rb), total(rs));
        let lines = |f: &crate::facts::SoftirqFacts, first: bool| -> Vec<usize> {
            match (rb.name.as_str(), f.net_rx_lines) {
                ("NET_RX", Some((a, c))) => vec![1, if first { a } else { c }],
                _ => vec![1],
            }
        };
        numeric(
            out,
            &SOFTIRQ_RATE,
            format!("{} soft-IRQs per second", rb.name),
            x.round(),
            y.round(),
            score::RATE_PER_S,
            "/s",
            if rb.name.starts_with("NET_") {
                link.clone()
            } else {
                None
            },
            |d| {
                d.cite_lines(Which::Baseline, &b.first, &lines(b, true))
                    .cite_lines(Which::Baseline, &b.last, &lines(b, false))
                    .cite_lines(Which::Suspect, &s.first, &lines(s, true))
                    .cite_lines(Which::Suspect, &s.last, &lines(s, false))
            },
        );
    }
}
