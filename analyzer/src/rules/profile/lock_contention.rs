//! `profile.lock-contention`: kernel spin-lock contention.
//!
//! Reads the CPU profiles' samples whose leaf is a spin-lock slow path and the functions that
//! take the lock (the first frame above the lock functions).

use crate::evidence::Evidence;
use crate::facts::profile::ProfileSource;
use crate::facts::{Fact, HostFacts};
use crate::rules::common::{enough_samples, profile_not_evaluated};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Spin-lock slow paths on at least this share of busy samples, %: warning.
pub const LOCK_WARN_PCT: f64 = 5.0;
/// ... critical.
pub const LOCK_CRIT_PCT: f64 = 20.0;

const QSPINLOCK_AND_CASE: &[Source] = &[
    Source::url(
        "Linux kernel/locking/qspinlock.c (slow path entered only under contention)",
        "https://github.com/torvalds/linux/blob/master/kernel/locking/qspinlock.c",
    ),
    Source::Case(4),
];

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "profile.lock-contention",
    title: "Kernel spin-lock contention",
    area: Area::Profile,
    severity: Severity::Warning,
    needs: &[Fact::Profiles],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "busy samples in spin-lock slow paths",
            value: Limit::Num(LOCK_WARN_PCT),
            unit: "%",
            meaning: "at or above: a warning",
            sources: QSPINLOCK_AND_CASE,
        },
        Threshold {
            name: "busy samples in spin-lock slow paths",
            value: Limit::Num(LOCK_CRIT_PCT),
            unit: "%",
            meaning: "at or above: critical",
            sources: QSPINLOCK_AND_CASE,
        },
    ],
    groups: &[SymptomGroup::KernelCpu],
    explains: &[],
    fires_when: "spin-lock slow paths on ≥ 5 % of busy samples (critical ≥ 20 %), naming the \
                 functions that take the lock",
    checks: "Samples whose leaf is a spin-lock slow path (`native_queued_spin_lock_slowpath`, \
             `queued_spin_lock_slowpath`, `__pv_queued_spin_lock_slowpath`, `_raw_spin_lock*`, \
             `osq_lock`, rwlock slow paths) and the function that takes the lock (the first \
             frame above the lock functions).",
    why: "An uncontended qspinlock is one inlined compare-and-swap; time in the slow path is CPUs \
          spinning on a lock another CPU holds, and it grows with the number of CPUs fighting \
          for it (case S4).",
    false_positives: "Paravirtualised guests attribute waiting for a preempted lock holder to \
                      `__pv_queued_spin_lock_slowpath`, which points at vCPU overcommit rather \
                      than code.",
    remedy: "Find the lock from its callers (below) and reduce sharing: per-CPU structures, \
             more queues, or the module or feature that takes it.",
    file: file!(),
};

/// The share of busy samples in spin-lock slow paths, and who takes the lock.
pub fn check(f: &HostFacts) -> Check {
    if let Some(c) = profile_not_evaluated(f) {
        return c;
    }
    let mut out = Vec::new();
    let mut worst = 0.0f64;
    for p in f.profiles.iter().filter(|p| enough_samples(p)) {
        worst = worst.max(p.locks.pct);
        if p.locks.pct < LOCK_WARN_PCT {
            continue;
        }
        let callers: Vec<String> = p
            .locks
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
                "{:.0} % of busy CPU samples spin in kernel lock slow paths",
                p.locks.pct
            ),
            severity: if p.locks.pct >= LOCK_CRIT_PCT {
                Severity::Critical
            } else {
                Severity::Warning
            },
            confidence: if p.source_kind == ProfileSource::PerfScript {
                Confidence::High
            } else {
                Confidence::Medium
            },
            why: if callers.is_empty() {
                format!("{} samples end in a spin-lock slow path.", p.locks.samples)
            } else {
                format!(
                    "{} samples end in a spin-lock slow path; the lock is taken by {}.",
                    p.locks.samples,
                    callers.join(", ")
                )
            },
            details: Vec::new(),
            score: p.locks.pct,
            time_range: None,
            evidence: vec![Evidence::new(
                &p.artifact,
                p.locks.lines.clone(),
                "samples in spin-lock slow paths",
            )],
        });
    }
    if out.is_empty() {
        Check::Clear(format!(
            "spin-lock slow paths on {worst:.1} % of busy samples"
        ))
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rules::testkit::profile::profile;
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    #[test]
    fn fires_naming_the_caller() {
        let v = found(check(&profile(0.0, 6.0)));
        assert_eq!(v[0].severity, Severity::Warning);
        assert!(v[0]
            .why
            .contains("net_asp_logic_access_check [resguard_linux]"));
        assert_eq!(
            found(check(&profile(0.0, 30.0)))[0].severity,
            Severity::Critical
        );
    }

    #[test]
    fn clear_below_5_percent() {
        assert!(is_clear(&check(&profile(0.0, 4.9))));
    }
    #[test]
    fn not_evaluated_on_a_small_profile() {
        let mut f = profile(50.0, 50.0);
        f.profiles[0].busy_samples = 40;
        assert!(is_not_evaluated(&check(&f)));
    }
}
