//! `profile.softirq-cost`: soft-IRQ processing takes a large share of CPU time.
//!
//! Reads the `perf script` stacks under `net_rx_action`/`__do_softirq`/`handle_softirqs` and what
//! runs below them, and the CPUs whose `%soft` (mpstat) those stacks account for.

use crate::evidence::Evidence;
use crate::facts::profile::Profile;
use crate::facts::profile::ProfileSource;
use crate::facts::{Fact, HostFacts};
use crate::rules::common::{enough_samples, mean, profile_not_evaluated};
use crate::rules::softirq::saturation::SOFT_WARN_PCT;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Stacks under soft-IRQ processing on at least this share of busy samples, %: warning.
pub const SOFTIRQ_WARN_PCT: f64 = 20.0;
/// ... critical.
pub const SOFTIRQ_CRIT_PCT: f64 = 50.0;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "profile.softirq-cost",
    title: "Soft-IRQ processing takes a large share of CPU time",
    area: Area::Profile,
    severity: Severity::Warning,
    needs: &[Fact::Profiles],
    reads: &[Fact::Cpus],
    thresholds: &[
        Threshold {
            name: "busy samples under the soft-IRQ handler",
            value: Limit::Num(SOFTIRQ_WARN_PCT),
            unit: "%",
            meaning: "at or above: a warning",
            sources: &[Source::Case(4), crate::rules::sources::KERNEL_SCALING],
        },
        Threshold {
            name: "busy samples under the soft-IRQ handler",
            value: Limit::Num(SOFTIRQ_CRIT_PCT),
            unit: "%",
            meaning: "at or above: critical",
            sources: &[
                Source::Rca(
                    "half of the busy CPU time under the network receive handler leaves the \
                     rest of the host the other half",
                ),
                Source::Case(4),
            ],
        },
    ],
    groups: &[
        SymptomGroup::Softirq,
        SymptomGroup::NetworkPath,
        SymptomGroup::KernelCpu,
    ],
    explains: &[],
    fires_when: "stacks under `net_rx_action`/`__do_softirq` on ≥ 20 % of busy samples \
                 (critical ≥ 50 %), naming what runs below",
    checks: "Samples with `net_rx_action`, `__do_softirq` or `handle_softirqs` on the stack, and \
             what runs under them.",
    why: "Packet processing in soft-IRQ context runs before any task on that CPU; when it is \
          slow per packet the NIC's CPUs saturate at low traffic (case S4: 100 % `%soft` at 30 MB/s).",
    false_positives: "A host whose job is packet forwarding.",
    remedy: "Look at what runs under the soft-IRQ (below): filters, modules, conntrack; spread \
             queues over more CPUs only once the per-packet cost is understood.",
    file: file!(),
};

/// The CPUs whose mean `%soft` (mpstat) reaches the soft-IRQ saturation threshold, as one line
/// joining the profile to the utilisation it explains; empty when none does.
fn soft_cpus(f: &HostFacts) -> Vec<String> {
    let mut hot: Vec<(u32, f64)> = f
        .cpus
        .iter()
        .filter_map(|c| mean(c.samples.iter().map(|s| s.soft_pct)).map(|m| (c.cpu, m)))
        .filter(|&(_, m)| m >= SOFT_WARN_PCT)
        .collect();
    if hot.is_empty() {
        return Vec::new();
    }
    hot.sort_by_key(|h| h.0);
    let mean = hot.iter().map(|h| h.1).sum::<f64>() / hot.len() as f64;
    vec![format!(
        "{} CPU(s) at a mean {mean:.0} % `%soft` in `mpstat` (CPU {}): the soft-IRQ time these \
         stacks account for.",
        hot.len(),
        hot.iter()
            .take(8)
            .map(|h| h.0.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )]
}

/// The share of busy samples under the soft-IRQ handler, and what runs below it.
pub fn check(f: &HostFacts) -> Check {
    if let Some(c) = profile_not_evaluated(f) {
        return c;
    }
    let scripts: Vec<&Profile> = f
        .profiles
        .iter()
        .filter(|p| enough_samples(p) && p.source_kind == ProfileSource::PerfScript)
        .collect();
    if scripts.is_empty() {
        return Check::NotEvaluated(
            "stacks are needed (`perf script`); only `perf report` is here".into(),
        );
    }
    let mut out = Vec::new();
    let mut worst = 0.0f64;
    for p in scripts {
        worst = worst.max(p.softirq.pct);
        if p.softirq.pct < SOFTIRQ_WARN_PCT {
            continue;
        }
        let work: Vec<String> = p
            .softirq
            .by
            .iter()
            .take(5)
            .map(|c| format!("`{}` ({:.1} %)", c.name, c.pct))
            .collect();
        out.push(Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: format!(
                "{:.0} % of busy CPU samples in soft-IRQ processing",
                p.softirq.pct
            ),
            severity: if p.softirq.pct >= SOFTIRQ_CRIT_PCT {
                Severity::Critical
            } else {
                Severity::Warning
            },
            confidence: Confidence::High,
            why: format!(
                "{} of {} busy stacks run under the soft-IRQ handler{}.",
                p.softirq.samples,
                p.busy_samples,
                if work.is_empty() {
                    String::new()
                } else {
                    format!("; below it: {}", work.join(", "))
                }
            ),
            details: soft_cpus(f),
            score: p.softirq.pct,
            time_range: None,
            evidence: vec![Evidence::new(
                &p.artifact,
                p.softirq.lines.clone(),
                "samples under the soft-IRQ handler",
            )],
        });
    }
    if out.is_empty() {
        Check::Clear(format!("soft-IRQ stacks on {worst:.1} % of busy samples"))
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::profile::Category;
    use crate::rules::testkit::profile::profile;
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    #[test]
    fn fires_naming_the_saturated_cpus() {
        use crate::facts::{CpuSample, CpuSeries};
        let mut f = profile(0.0, 0.0);
        f.profiles[0].softirq = Category {
            samples: 600,
            pct: 60.0,
            lines: vec![9],
            by: Vec::new(),
        };
        let series = |cpu: u32, soft: f64| CpuSeries {
            cpu,
            artifact: "sysstat/mpstat-P-ALL.txt".into(),
            samples: vec![CpuSample {
                time: None,
                line: 5,
                header_line: 3,
                user_pct: Some(0.2),
                sys_pct: Some(0.5),
                iowait_pct: None,
                irq_pct: None,
                soft_pct: Some(soft),
                steal_pct: None,
                idle_pct: Some(100.0 - soft),
            }],
        };
        f.cpus = vec![series(0, 99.0), series(1, 98.0), series(2, 3.0)].into();
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Critical);
        assert!(
            v[0].details[0].starts_with("2 CPU(s)"),
            "{:?}",
            v[0].details
        );
        assert!(v[0].details[0].contains("CPU 0, 1"), "{:?}", v[0].details);
    }

    #[test]
    fn clear_below_20_percent_and_not_evaluated_without_stacks() {
        assert!(is_clear(&check(&profile(0.0, 0.0))));
        let mut f = profile(0.0, 0.0);
        f.profiles[0].source_kind = ProfileSource::PerfReport;
        assert!(is_not_evaluated(&check(&f)));
    }
}
