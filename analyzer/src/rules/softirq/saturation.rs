//! `softirq.saturation`: CPUs that spend most of their time in soft-IRQ context, when that load
//! is concentrated on a subset of CPUs (typically the ones NIC queue interrupts are pinned to).
//!
//! Reads the per-CPU series (`%soft`, `%usr`, `%sys` of `mpstat -P ALL`) and, when two
//! `/proc/softirqs` snapshots were taken, the per-CPU soft-IRQ rates that name the type doing the
//! work and tell slow soft-IRQ runs from a high packet rate.

use crate::evidence::Evidence;
use crate::facts::{CpuSeries, Fact, HostFacts};
use crate::rules::common::{mean, sustained_count, SUSTAINED, SUSTAINED_PCT};
use crate::rules::sources::KERNEL_SCALING;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
    TimeRange,
};

/// `%soft` at or above which a CPU is busy with soft-IRQs more than with anything else.
pub(crate) const SOFT_WARN_PCT: f64 = 50.0;
/// `%soft` at or above which the CPU has no time left for anything else.
const SOFT_CRIT_PCT: f64 = 90.0;
/// Fewest intervals that can show a sustained condition.
const MIN_INTERVALS: usize = 3;
/// `net.core.netdev_budget_usecs` default: the longest one NET_RX processing cycle may run, µs
/// (kernel Documentation/admin-guide/sysctl/net.rst).
const NETDEV_BUDGET_USECS: f64 = 2000.0;
/// A soft-IRQ run averaging half that budget means each run does slow work.
const SLOW_RUN_US: f64 = NETDEV_BUDGET_USECS / 2.0;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "softirq.saturation",
    title: "Soft-IRQ saturation",
    area: Area::Network,
    severity: Severity::Warning,
    needs: &[Fact::Cpus],
    reads: &[Fact::Softirqs],
    thresholds: &[
        Threshold {
            name: "%soft on a CPU",
            value: Limit::Num(SOFT_WARN_PCT),
            unit: "%",
            meaning: "at or above, for at least half of the window: a warning (the CPU spends \
                      more time in soft-IRQs than in everything else together)",
            sources: &[Source::Rca(
                "at 50 % a CPU spends more time in soft-IRQs than in everything else together",
            )],
        },
        Threshold {
            name: "mean %soft of the hot CPUs",
            value: Limit::Num(SOFT_CRIT_PCT),
            unit: "%",
            meaning: "at or above: critical (case S4: NIC IRQ cores at si ≈ 100 % with usr/sys ≈ \
                      0); spreading this work: RSS, RPS, RFS",
            sources: &[Source::Case(4), KERNEL_SCALING],
        },
        Threshold {
            name: "hot intervals",
            value: Limit::Num(SUSTAINED_PCT),
            unit: "% of the window",
            meaning: "at least this share, and at least 3 intervals: a hot CPU",
            sources: &[SUSTAINED],
        },
        Threshold {
            name: "mean time per soft-IRQ run on the hot CPUs",
            value: Limit::Num(SLOW_RUN_US),
            unit: "µs",
            meaning: "at or above (half the default `net.core.netdev_budget_usecs` of 2000 µs, \
                      the longest one NET_RX cycle may run): each run does slow work (locks, \
                      hooks in the network path), not a high packet rate",
            sources: &[Source::Doc {
                document: "Linux kernel documentation, Documentation/admin-guide/sysctl/net.rst",
                section: Some("netdev_budget_usecs"),
                url: Some("https://docs.kernel.org/admin-guide/sysctl/net.html"),
            }],
        },
    ],
    groups: &[
        SymptomGroup::NetworkPath,
        SymptomGroup::KernelCpu,
        SymptomGroup::Softirq,
    ],
    explains: &[],
    fires_when: "CPUs spend ≥ 50 % in `%soft` (critical ≥ 90 %) for most of the window; \
                 `/proc/softirqs` rates name the type (`NET_RX` …) and tell slow soft-IRQ runs \
                 from a high packet rate",
    checks:
        "Per CPU in `mpstat -P ALL`, the intervals where `%soft` is at least 50 %; a CPU is hot \
             when that holds in at least half of the intervals (and at least 3). With two \
             `/proc/softirqs` snapshots, the per-CPU rates name the soft-IRQ type doing the work \
             (`NET_RX`, `NET_TX`, `TIMER`, ...) and how much of it lands on the hot CPUs.",
    why: "Soft-IRQ work runs on the CPU that raised it; with NIC queue interrupts pinned to a few \
          cores those cores saturate while the rest of the machine idles, so throughput stops \
          scaling although total CPU use looks low. When `__do_softirq` cannot keep up the kernel \
          defers to `ksoftirqd`, adding latency (kernel/softirq.c: MAX_SOFTIRQ_TIME 2 ms, \
          MAX_SOFTIRQ_RESTART 10).",
    false_positives: "A host that is deliberately a packet-forwarding appliance with busy-polling \
                      cores; a very short window during a traffic burst.",
    remedy: "Find why each soft-IRQ is slow before adding queues: profile the hot CPUs (`perf top \
             -C <cpu>`, `perf record -a -g`) for spin locks or third-party modules in the network \
             path. Then spread the load: more NIC queues (`ethtool -L`), IRQ affinity over more \
             cores, RPS/RFS for single-queue NICs.",
    file: file!(),
};

/// Checks every CPU series.
pub fn check(f: &HostFacts) -> Check {
    if f.cpus.is_empty() {
        return Check::NotEvaluated("no per-CPU statistics".into());
    }
    let n = f.cpus.iter().map(|c| c.samples.len()).max().unwrap_or(0);
    if n < MIN_INTERVALS {
        return Check::NotEvaluated(format!(
            "only {n} mpstat interval(s); at least {MIN_INTERVALS} are needed"
        ));
    }
    if f.cpus
        .iter()
        .all(|c| c.samples.iter().all(|s| s.soft_pct.is_none()))
    {
        return Check::NotEvaluated("mpstat output has no readable %soft values".into());
    }
    let hot: Vec<&CpuSeries> = f
        .cpus
        .iter()
        .filter(|c| {
            let busy = c
                .samples
                .iter()
                .filter(|s| s.soft_pct.is_some_and(|x| x >= SOFT_WARN_PCT))
                .count();
            busy >= sustained_count(c.samples.len(), MIN_INTERVALS)
        })
        .collect();
    if hot.is_empty() {
        let max = f
            .cpus
            .iter()
            .filter_map(|c| mean(c.samples.iter().map(|s| s.soft_pct)))
            .fold(0.0, f64::max);
        return Check::Clear(format!(
            "{} CPU(s) over {n} interval(s); highest mean %soft {max:.1} %",
            f.cpus.len()
        ));
    }
    let hot_ids: Vec<u32> = hot.iter().map(|c| c.cpu).collect();
    let hot_soft = mean(
        hot.iter()
            .map(|c| mean(c.samples.iter().map(|s| s.soft_pct))),
    )
    .unwrap_or(0.0);
    let hot_busy_other = mean(
        hot.iter()
            .map(|c| mean(c.samples.iter().map(|s| sum2(s.user_pct, s.sys_pct)))),
    )
    .unwrap_or(0.0);
    let rest: Vec<&CpuSeries> = f
        .cpus
        .iter()
        .filter(|c| !hot_ids.contains(&c.cpu))
        .collect();
    let rest_soft = mean(
        rest.iter()
            .map(|c| mean(c.samples.iter().map(|s| s.soft_pct))),
    );
    let concentrated = !rest.is_empty();
    let severity = if hot_soft >= SOFT_CRIT_PCT {
        Severity::Critical
    } else {
        Severity::Warning
    };

    let mut details = vec![format!(
        "Hot CPUs: {} of {} — mean %soft {hot_soft:.1} %, %usr+%sys {hot_busy_other:.1} %.",
        hot_ids.len(),
        f.cpus.len()
    )];
    if let Some(r) = rest_soft {
        details.push(format!("Other {} CPU(s): mean %soft {r:.1} %.", rest.len()));
    }
    let mut evidence = Vec::new();
    // The interval where the hot CPUs were busiest, with its header line.
    let peak = (0..n)
        .max_by(|&a, &b| {
            let sa: f64 = hot
                .iter()
                .filter_map(|c| c.samples.get(a).and_then(|s| s.soft_pct))
                .sum();
            let sb: f64 = hot
                .iter()
                .filter_map(|c| c.samples.get(b).and_then(|s| s.soft_pct))
                .sum();
            sa.partial_cmp(&sb).unwrap_or(std::cmp::Ordering::Equal)
        })
        .unwrap_or(0);
    let mut lines: Vec<usize> = hot
        .iter()
        .take(12)
        .filter_map(|c| c.samples.get(peak).map(|s| s.line))
        .collect();
    if let Some(s) = hot[0].samples.get(peak) {
        lines.push(s.header_line);
    }
    if let Some(c) = rest.first().and_then(|c| c.samples.get(peak)) {
        lines.push(c.line);
    }
    evidence.push(Evidence::new(
        &hot[0].artifact,
        lines,
        "mpstat rows of the hot CPUs in their busiest interval",
    ));
    let mut dominant = None;
    let mut cost: Option<f64> = None;
    if let Some(sq) = f.softirqs.get() {
        let on_hot = |name: &str| -> (f64, f64) {
            sq.rates_of(name)
                .map(|r| {
                    let total: f64 = r.per_cpu.iter().map(|x| x.1).sum();
                    let hot: f64 = r
                        .per_cpu
                        .iter()
                        .filter(|x| hot_ids.contains(&x.0))
                        .map(|x| x.1)
                        .sum();
                    (hot, total)
                })
                .unwrap_or((0.0, 0.0))
        };
        dominant = sq
            .rates
            .iter()
            .map(|r| (r.name.as_str(), on_hot(&r.name).0))
            .filter(|(_, v)| *v > 0.0)
            .max_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal))
            .map(|(name, _)| name.to_string());
        let (rx_hot, rx_total) = on_hot("NET_RX");
        if rx_total > 0.0 {
            details.push(format!(
                "NET_RX: {:.0}/s in total over {:.1} s, {:.0} % of it on the hot CPUs.",
                rx_total,
                sq.seconds,
                100.0 * rx_hot / rx_total
            ));
        }
        // Time per soft-IRQ run on the hot CPUs: busy soft-IRQ time over runs of every type.
        let runs_on_hot: f64 = sq
            .rates
            .iter()
            .flat_map(|r| {
                r.per_cpu
                    .iter()
                    .filter(|x| hot_ids.contains(&x.0))
                    .map(|x| x.1)
            })
            .sum();
        if runs_on_hot > 0.0 {
            let busy_s = hot_soft / 100.0 * hot_ids.len() as f64;
            let per_run_us = busy_s / runs_on_hot * 1e6;
            cost = Some(per_run_us);
            details.push(if per_run_us >= SLOW_RUN_US {
                format!(
                    "Each soft-IRQ run on the hot CPUs takes {per_run_us:.0} µs on average — at least half of \
                     the {NETDEV_BUDGET_USECS:.0} µs budget of one NET_RX cycle: the work per packet is slow \
                     (locks, hooks in the network path), not the packet rate."
                )
            } else {
                format!(
                    "Each soft-IRQ run on the hot CPUs takes {per_run_us:.0} µs on average (well under the \
                     {NETDEV_BUDGET_USECS:.0} µs NET_RX budget): the load comes from the rate of packets."
                )
            });
        }
        if let Some((l0, l1)) = sq.net_rx_lines {
            evidence.push(Evidence::new(
                &sq.first,
                vec![1, l0],
                "NET_RX counters at the start of the window",
            ));
            evidence.push(Evidence::new(
                &sq.last,
                vec![1, l1],
                "NET_RX counters at the end of the window",
            ));
        }
    }
    let dom_text = dominant
        .as_deref()
        .map(|d| format!(", mostly {d}"))
        .unwrap_or_default();
    let scope = if concentrated { "" } else { " (all CPUs)" };
    let first = hot[0].samples.first().and_then(|s| s.time);
    let last = hot[0].samples.last().and_then(|s| s.time);
    Check::Found(vec![Finding {
        rule_id: META.id,
        explains: Vec::new(),
        area: META.area,
        title: format!(
            "Soft-IRQ saturation on CPU {}{scope}: %soft {hot_soft:.0} %{dom_text}",
            cpu_list(&hot_ids)
        ),
        severity,
        confidence: if concentrated && n >= 5 { Confidence::High } else { Confidence::Medium },
        why: format!(
            "{} CPU(s) spent ≥ {SOFT_WARN_PCT:.0} % of their time in soft-IRQs for most of the window{}.",
            hot_ids.len(),
            rest_soft.map(|r| format!(" while the other CPUs averaged {r:.1} %")).unwrap_or_default()
        ) + if cost.is_some_and(|c| c >= SLOW_RUN_US) {
            " Each soft-IRQ run is slow: look for locks or hooks in the network path."
        } else {
            ""
        },
        details,
        score: hot_soft * hot_ids.len() as f64 / f.cpus.len() as f64,
        time_range: first.zip(last).map(|(from, to)| TimeRange { from, to }),
        evidence,
    }])
}

fn sum2(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (None, None) => None,
        _ => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
    }
}

/// `0-3,8,10-11` from a sorted CPU list.
pub fn cpu_list(cpus: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < cpus.len() {
        let start = cpus[i];
        let mut end = start;
        while i + 1 < cpus.len() && cpus[i + 1] == end + 1 {
            i += 1;
            end = cpus[i];
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    out.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::CpuSample;

    fn cpu(n: u32, soft: f64, k: usize) -> CpuSeries {
        CpuSeries {
            cpu: n,
            artifact: "sysstat/mpstat-P-ALL.txt".into(),
            samples: (0..k)
                .map(|i| CpuSample {
                    time: None,
                    line: 100 + i * 10 + n as usize,
                    header_line: 100 + i * 10,
                    user_pct: Some(1.0),
                    sys_pct: Some(1.0),
                    iowait_pct: Some(0.0),
                    irq_pct: Some(0.0),
                    soft_pct: Some(soft),
                    steal_pct: Some(0.0),
                    idle_pct: Some(100.0 - soft - 2.0),
                })
                .collect(),
        }
    }

    #[test]
    fn fires_critical_when_concentrated_on_a_few_cpus() {
        let mut cpus: Vec<_> = (0..4).map(|n| cpu(n, 98.0, 6)).collect();
        cpus.extend((4..16).map(|n| cpu(n, 0.5, 6)));
        let f = HostFacts {
            cpus: cpus.into(),
            ..Default::default()
        };
        let Check::Found(v) = check(&f) else {
            panic!("expected a finding")
        };
        assert_eq!(v[0].severity, Severity::Critical);
        assert!(v[0].title.contains("CPU 0-3"), "{}", v[0].title);
    }

    #[test]
    fn clear_when_evenly_low() {
        let f = HostFacts {
            cpus: (0..8).map(|n| cpu(n, 3.0, 6)).collect(),
            ..Default::default()
        };
        assert!(matches!(check(&f), Check::Clear(_)));
    }

    #[test]
    fn fires_telling_slow_runs_from_a_high_rate() {
        use crate::facts::SoftirqFacts;
        use parsers::proc::softirqs::SoftirqRates;
        let mut cpus: Vec<_> = (0..4).map(|n| cpu(n, 98.0, 6)).collect();
        cpus.extend((4..8).map(|n| cpu(n, 0.5, 6)));
        let sq = |rate: f64| SoftirqFacts {
            first: "proc/softirqs.start".into(),
            last: "proc/softirqs.end".into(),
            seconds: 60.0,
            rates: vec![SoftirqRates {
                name: "NET_RX".into(),
                per_cpu: (0..8)
                    .map(|c| (c, if c < 4 { rate } else { 10.0 }))
                    .collect(),
            }],
            net_rx_lines: Some((5, 5)),
        };
        // 0.98 s of soft-IRQ per second over 300 runs/s: ~3.3 ms per run.
        let slow = HostFacts {
            cpus: cpus.clone().into(),
            softirqs: sq(300.0).into(),
            ..Default::default()
        };
        let Check::Found(v) = check(&slow) else {
            panic!()
        };
        assert!(v[0].why.contains("slow"), "{}", v[0].why);
        assert!(v[0].title.contains("NET_RX"));
        // 50 000 runs/s: ~20 µs per run, a rate problem.
        let fast = HostFacts {
            cpus: cpus.into(),
            softirqs: sq(50_000.0).into(),
            ..Default::default()
        };
        let Check::Found(v) = check(&fast) else {
            panic!()
        };
        assert!(!v[0].why.contains("slow"));
        assert!(v[0].details.iter().any(|d| d.contains("rate of packets")));
    }

    #[test]
    fn not_evaluated_without_cpu_series() {
        let f = HostFacts {
            cpus: crate::facts::Available::missing("no `mpstat -P ALL` output was parsed"),
            ..Default::default()
        };
        let r = crate::rules::testkit::run(&META, check, &f);
        assert!(matches!(r, Check::NotEvaluated(w) if w.contains("mpstat")));
    }

    #[test]
    fn cpu_ranges() {
        assert_eq!(cpu_list(&[0, 1, 2, 3, 8, 10, 11]), "0-3,8,10-11");
    }
}
