//! `kernel.lockup`: CPUs stuck in the kernel (soft lockups) or with interrupts off (hard
//! lockups).
//!
//! Reads the kernel log events (`watchdog: BUG: soft lockup - CPU#N stuck for 22s!`, `NMI
//! watchdog: Watchdog detected hard LOCKUP on cpu N`, kernel/watchdog.c).

use crate::facts::klog::EventKind;
use crate::facts::{Fact, HostFacts};
use crate::rules::common::finding;
use crate::rules::klog::{at, evidence, relevant, verdict, RECENT, RECENT_S};
use crate::rules::{Area, Check, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold};

const LOCKUP_WATCHDOGS: Source = Source::Doc {
    document: "Linux kernel documentation, Documentation/admin-guide/lockup-watchdogs.rst",
    section: Some("Softlockup detector and hardlockup detector (aka nmi_watchdog)"),
    url: Some("https://docs.kernel.org/admin-guide/lockup-watchdogs.html"),
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "kernel.lockup",
    title: "CPU soft or hard lockups",
    area: Area::Kernel,
    severity: Severity::Critical,
    needs: &[Fact::KernelLog],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "`BUG: soft lockup - CPU#N stuck for Ns!`",
            value: Limit::Any,
            unit: "messages",
            meaning: "any: a CPU ran kernel code without scheduling for more than 2 × \
                      `watchdog_thresh` (20 s by default): a warning",
            sources: &[LOCKUP_WATCHDOGS],
        },
        Threshold {
            name: "`Watchdog detected hard LOCKUP`",
            value: Limit::Any,
            unit: "messages",
            meaning: "any: a CPU did not take interrupts for more than `watchdog_thresh` (10 s): \
                      critical",
            sources: &[LOCKUP_WATCHDOGS],
        },
        Threshold {
            name: "time before the window",
            value: Limit::Num(RECENT_S),
            unit: "s",
            meaning: "within it (or during the window): as above; older only: information",
            sources: &[RECENT],
        },
    ],
    groups: &[SymptomGroup::KernelCpu],
    explains: &[],
    fires_when: "the kernel log reports a soft or hard lockup",
    checks: "The kernel log's lockup detector reports: soft lockups (`watchdog: BUG: soft lockup \
             - CPU#3 stuck for 23s! [kworker/3:0:17896]`) and hard lockups (`Watchdog detected \
             hard LOCKUP on cpu 5`), with the CPU and the task on it.",
    why: "A locked-up CPU runs nothing else for tens of seconds: latency spikes for everything \
          scheduled there, RCU stalls, network timeouts; a hard lockup usually ends in a panic \
          (`hardlockup_panic`). Causes are kernel bugs, spinlock contention, or a hypervisor \
          that did not run the vCPU (steal).",
    false_positives: "On virtual machines a host that deschedules the guest for long makes soft \
                      lockups appear with nothing wrong in the guest (check `%steal`).",
    remedy: "Read the stack under the report (`RIP:` and `Call Trace:`): the function names the \
             subsystem; on VMs compare with the hypervisor's load; update the kernel or the \
             driver the stack names.",
    file: file!(),
};

/// Lockup reports in the kernel log.
pub fn check(f: &HostFacts) -> Check {
    let Some(log) = f.klog.get() else {
        return Check::NotEvaluated("no kernel log in the bundle".into());
    };
    let all: Vec<_> = log
        .events
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::SoftLockup { .. } | EventKind::HardLockup { .. }
            )
        })
        .collect();
    if all.is_empty() {
        return Check::Clear(format!("no lockup report in {}", log.sources.join(", ")));
    }
    let ev = relevant(&all);
    let hard = ev
        .iter()
        .any(|e| matches!(e.kind, EventKind::HardLockup { .. }));
    let sev = if hard {
        Severity::Critical
    } else {
        Severity::Warning
    };
    let v = verdict(&all, sev, log);
    let mut cpus: Vec<u32> = ev
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::SoftLockup { cpu, .. } | EventKind::HardLockup { cpu } => cpu,
            _ => None,
        })
        .collect();
    cpus.sort_unstable();
    cpus.dedup();
    let longest = ev
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::SoftLockup { seconds, .. } => seconds,
            _ => None,
        })
        .max();
    let what = if hard { "hard lockup" } else { "soft lockup" };
    let n = ev.len();
    let cpu_words = match cpus.as_slice() {
        [] => String::new(),
        [c] => format!(" on CPU {c}"),
        cs => format!(
            " on CPUs {}",
            cs.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Check::Found(vec![crate::rules::klog::ranged(
        finding(
            &META,
            v.severity,
            v.confidence,
            format!(
                "{n} {what} {}{cpu_words} {}",
                if n == 1 { "report" } else { "reports" },
                v.when
            ),
            format!(
                "The kernel's lockup detector found a CPU not scheduling{}; the last report at {}.",
                longest.map_or(String::new(), |s| format!(" for up to {s} s")),
                at(ev[n - 1], log)
            ),
            evidence(&ev, "lockup reports"),
            n as f64 * 20.0,
        ),
        &ev,
    )])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::klog::testkit::{ev, facts};
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    #[test]
    fn fires_on_a_soft_lockup() {
        let f = facts(vec![ev(
            EventKind::SoftLockup {
                cpu: Some(3),
                seconds: Some(23),
                task: Some("kworker/3:0:17896".into()),
            },
            Some(100.0),
            40,
            "watchdog: BUG: soft lockup - CPU#3 stuck for 23s! [kworker/3:0:17896]",
        )]);
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Warning);
        assert_eq!(
            v[0].title,
            "1 soft lockup report on CPU 3 during or within an hour before the collection window"
        );
        assert!(v[0].why.contains("up to 23 s"));
    }

    #[test]
    fn fires_critical_on_a_hard_lockup() {
        let f = facts(vec![ev(
            EventKind::HardLockup { cpu: Some(5) },
            Some(0.0),
            9,
            "NMI watchdog: Watchdog detected hard LOCKUP on cpu 5",
        )]);
        assert_eq!(found(check(&f))[0].severity, Severity::Critical);
    }

    #[test]
    fn clear_without_reports() {
        assert!(is_clear(&check(&facts(vec![]))));
    }

    #[test]
    fn not_evaluated_without_a_kernel_log() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
