//! `profile.sched-thrash`: CPU time goes to context switching.
//!
//! Reads the CPU profiles' samples whose leaf is a context-switch path, and the context-switch
//! rate per CPU (`vmstat` `cs` over the CPU count).

use crate::evidence::Cited;
use crate::evidence::Evidence;
use crate::facts::{Fact, HostFacts};
use crate::rules::common::{enough_samples, profile_not_evaluated};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Context-switch paths on at least this share of busy samples, %: a finding.
pub const SCHED_WARN_PCT: f64 = 10.0;
/// Context switches per CPU per second that corroborate scheduler thrash.
pub const CS_PER_CPU_HIGH: f64 = 5000.0;

const GREGG_SCHEDULER: Source = Source::section(
    crate::rules::sources::GREGG_SYSTEMS_PERFORMANCE,
    "6.6 (scheduler latency and context switches)",
);

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "profile.sched-thrash",
    title: "CPU time goes to context switching",
    area: Area::Profile,
    severity: Severity::Info,
    needs: &[Fact::Profiles],
    reads: &[Fact::Memory, Fact::Identity],
    thresholds: &[
        Threshold {
            name: "busy samples in context-switch paths",
            value: Limit::Num(SCHED_WARN_PCT),
            unit: "%",
            meaning: "at or above: information",
            sources: &[GREGG_SCHEDULER],
        },
        Threshold {
            name: "context switches (`vmstat` `cs`) per CPU",
            value: Limit::Num(CS_PER_CPU_HIGH),
            unit: "/s",
            meaning: "at or above, corroborating the samples: a warning",
            sources: &[GREGG_SCHEDULER],
        },
    ],
    groups: &[SymptomGroup::KernelCpu, SymptomGroup::Threads],
    explains: &[],
    fires_when: "context-switch paths on ≥ 10 % of busy samples (warning when `vmstat` `cs` ≥ \
                 5000 per CPU per second)",
    checks: "Samples whose leaf is a context-switch path (`finish_task_switch`, `__schedule`, \
             `__switch_to`…), and the context-switch rate per CPU (`vmstat` `cs`).",
    why:
        "Threads that block and wake constantly (oversized pools, lock hand-offs, tiny I/O) spend \
          CPU in the scheduler and lose their caches on every switch.",
    false_positives: "On `cpu-clock` sampling in VMs, samples that land when interrupts are \
                      re-enabled are attributed to `finish_task_switch`, overstating it.",
    remedy: "Reduce thread counts and hand-offs (pool sizes, batching), and look at which \
             commands switch most (`pidstat -w`).",
    file: file!(),
};

/// Mean context switches per second per CPU from `vmstat`, with its citation.
fn cs_per_cpu(f: &HostFacts) -> Option<(f64, Cited<()>)> {
    let cs = f.memory.context_switches_per_s.as_ref()?;
    let cpus = f.identity.cpus.filter(|&c| c > 0)? as f64;
    Some((
        cs.value / cpus,
        Cited::lines((), &cs.artifact, cs.lines.clone()),
    ))
}

/// The share of busy samples in context-switch paths, with the switch rate.
pub fn check(f: &HostFacts) -> Check {
    if let Some(c) = profile_not_evaluated(f) {
        return c;
    }
    let mut out = Vec::new();
    let mut worst = 0.0f64;
    for p in f.profiles.iter().filter(|p| enough_samples(p)) {
        worst = worst.max(p.sched.pct);
        if p.sched.pct < SCHED_WARN_PCT {
            continue;
        }
        let cs = cs_per_cpu(f);
        let high_cs = cs.as_ref().is_some_and(|(r, _)| *r >= CS_PER_CPU_HIGH);
        let mut ev = vec![Evidence::new(
            &p.artifact,
            p.sched.lines.clone(),
            "samples in context-switch paths",
        )];
        let mut details = Vec::new();
        if let Some((rate, c)) = &cs {
            ev.push(
                c.evidence("context switches per second (`cs`)")
                    .with_header("r  b"),
            );
            details.push(format!("{rate:.0} context switches per CPU per second."));
        }
        out.push(Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: format!(
                "{:.0} % of busy CPU samples in context-switch paths",
                p.sched.pct
            ),
            // Without a high switch rate the samples alone may be the cpu-clock artefact
            // (see false positives): information only.
            severity: if high_cs {
                Severity::Warning
            } else {
                Severity::Info
            },
            confidence: if high_cs {
                Confidence::High
            } else {
                Confidence::Low
            },
            why: format!(
                "{} of {} busy samples end in the scheduler's switch path.",
                p.sched.samples, p.busy_samples
            ),
            details,
            score: p.sched.pct,
            time_range: None,
            evidence: ev,
        });
    }
    if out.is_empty() {
        Check::Clear(format!(
            "context-switch paths on {worst:.1} % of busy samples"
        ))
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;

    use crate::facts::profile::Category;
    use crate::rules::testkit::profile::profile;
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    #[test]
    fn fires_as_information_without_a_high_switch_rate() {
        let mut f = profile(0.0, 0.0);
        f.profiles[0].sched = Category {
            samples: 150,
            pct: 15.0,
            lines: vec![60],
            by: Vec::new(),
        };
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Info);
        assert_eq!(v[0].confidence, Confidence::Low);
    }

    #[test]
    fn fires_a_warning_with_a_high_switch_rate() {
        let mut f = profile(0.0, 0.0);
        f.profiles[0].sched = Category {
            samples: 150,
            pct: 15.0,
            lines: vec![60],
            by: Vec::new(),
        };
        f.identity.cpus = Some(4);
        f.memory.context_switches_per_s = Some(Cited::new(40_000.0, "sysstat/vmstat.txt", 5));
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Warning);
        assert!(
            v[0].details[0].contains("10000 context switches"),
            "{:?}",
            v[0].details
        );
    }

    #[test]
    fn clear_below_10_percent_and_not_evaluated_without_a_profile() {
        assert!(is_clear(&check(&profile(0.0, 0.0))));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
