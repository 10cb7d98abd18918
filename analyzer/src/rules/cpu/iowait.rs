//! `cpu.iowait`: CPUs idle with I/O outstanding for a large share of the window.
//!
//! Reads the per-CPU series of `mpstat -P ALL` (else `sar -P ALL`, `/proc/stat`): `%iowait` per
//! CPU and interval.

use crate::evidence::Evidence;
use crate::facts::{Fact, HostFacts};
use crate::rules::common::mean;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Mean `%iowait` over all CPUs and the window for a warning, %.
const IOWAIT_WARN_PCT: f64 = 20.0;
/// Fewest intervals to judge.
const MIN_INTERVALS: usize = 3;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "cpu.iowait",
    title: "High I/O wait",
    area: Area::Cpu,
    severity: Severity::Warning,
    needs: &[Fact::Cpus],
    reads: &[],
    thresholds: &[Threshold {
        name: "mean %iowait over all CPUs and the window",
        value: Limit::Num(IOWAIT_WARN_PCT),
        unit: "%",
        meaning: "at or above: a warning (case S1: 37.9 % in the VM against 4.2 % on physical \
                  hosts). iowait is not a reliable measure on its own (it depends on idle \
                  CPUs): the disk rule gives the device-level evidence",
        sources: &[
            Source::Case(1),
            Source::Doc {
                document: "Linux kernel documentation, Documentation/filesystems/proc.rst",
                section: Some("iowait"),
                url: Some("https://docs.kernel.org/filesystems/proc.html"),
            },
        ],
    }],
    groups: &[SymptomGroup::Storage, SymptomGroup::KernelCpu],
    explains: &[],
    fires_when: "mean `%iowait` over all CPUs ≥ 20 %",
    checks: "Mean `%iowait` over every CPU and interval of `mpstat -P ALL`.",
    why: "iowait is idle time with I/O outstanding: threads are blocked on storage. High iowait \
          with low CPU use is the signature of a storage bottleneck (case S1: 37.9 % in the VM \
          against 4.2 % on physical hosts).",
    false_positives: "A mostly idle host with one thread doing synchronous I/O shows high iowait \
                      on one CPU without harm; the all-CPU mean dampens that.",
    remedy: "See `disk.saturation` for the device; then reduce or spread the I/O.",
    file: file!(),
};

/// Mean `%iowait` over every CPU and interval.
pub fn check(f: &HostFacts) -> Check {
    let n = f.cpus.iter().map(|c| c.samples.len()).max().unwrap_or(0);
    if n < MIN_INTERVALS {
        return Check::NotEvaluated(format!("only {n} mpstat interval(s)"));
    }
    let Some(m) = mean(
        f.cpus
            .iter()
            .flat_map(|c| c.samples.iter().map(|s| s.iowait_pct)),
    ) else {
        return Check::NotEvaluated("mpstat output has no readable %iowait values".into());
    };
    if m < IOWAIT_WARN_PCT {
        return Check::Clear(format!(
            "mean %iowait {m:.1} % over {} CPU(s)",
            f.cpus.len()
        ));
    }
    let worst = f.cpus.iter().flat_map(|c| c.samples.iter()).max_by(|a, b| {
        a.iowait_pct
            .partial_cmp(&b.iowait_pct)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let ev = worst
        .map(|s| {
            vec![Evidence::new(
                &f.cpus[0].artifact,
                vec![s.header_line, s.line],
                "interval with the highest %iowait",
            )]
        })
        .unwrap_or_default();
    Check::Found(vec![Finding {
        rule_id: META.id,
        explains: Vec::new(),
        area: META.area,
        title: format!("CPUs wait on I/O {m:.0} % of the time"),
        severity: Severity::Warning,
        confidence: Confidence::Medium,
        why: format!(
            "Mean %iowait over {} CPU(s) and {n} intervals is {m:.1} %.",
            f.cpus.len()
        ),
        details: Vec::new(),
        score: m,
        time_range: None,
        evidence: ev,
    }])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{CpuSample, CpuSeries};
    use crate::rules::testkit::{found, is_clear};

    fn host(iowait: f64) -> HostFacts {
        let s = |i: usize| CpuSample {
            time: None,
            line: 10 + i,
            header_line: 9,
            user_pct: Some(20.0),
            sys_pct: Some(5.0),
            iowait_pct: Some(iowait),
            irq_pct: Some(0.0),
            soft_pct: Some(1.0),
            steal_pct: Some(0.0),
            idle_pct: Some(74.0 - iowait),
        };
        HostFacts {
            cpus: (0..4)
                .map(|n| CpuSeries {
                    cpu: n,
                    artifact: "m.txt".into(),
                    samples: (0..5).map(s).collect(),
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn fires_at_and_above_the_threshold() {
        assert!(found(check(&host(37.9)))[0].title.contains("38 %"));
        assert!(!found(check(&host(IOWAIT_WARN_PCT))).is_empty());
    }

    #[test]
    fn clear_at_physical_host_levels() {
        assert!(is_clear(&check(&host(4.2))));
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
}
