//! `kernel.hung-task`: tasks blocked in uninterruptible sleep past the hung-task timeout.
//!
//! Reads the kernel log events (`INFO: task X:pid blocked for more than N seconds.`,
//! kernel/hung_task.c).

use crate::facts::klog::EventKind;
use crate::facts::{Fact, HostFacts};
use crate::rules::common::finding;
use crate::rules::klog::{at, evidence, relevant, verdict, RECENT, RECENT_S};
use crate::rules::{Area, Check, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "kernel.hung-task",
    title: "Tasks hung in uninterruptible sleep",
    area: Area::Kernel,
    severity: Severity::Warning,
    needs: &[Fact::KernelLog],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "`INFO: task … blocked for more than N seconds`",
            value: Limit::Any,
            unit: "messages",
            meaning: "any: the kernel's hung-task detector saw a task in D state longer than \
                      `kernel.hung_task_timeout_secs` (120 s by default)",
            sources: &[Source::Doc {
                document: "Linux kernel documentation, Documentation/admin-guide/sysctl/kernel.rst",
                section: Some("hung_task_timeout_secs"),
                url: Some(
                    "https://docs.kernel.org/admin-guide/sysctl/kernel.html#hung-task-timeout-secs",
                ),
            }],
        },
        Threshold {
            name: "time before the window",
            value: Limit::Num(RECENT_S),
            unit: "s",
            meaning: "within it (or during the window): a warning; older only: information",
            sources: &[RECENT],
        },
    ],
    groups: &[SymptomGroup::Storage, SymptomGroup::KernelCpu],
    explains: &[],
    fires_when: "the kernel log reports a task blocked for more than the hung-task timeout",
    checks: "The kernel log's hung-task reports (`INFO: task df:1177107 blocked for more than 120 \
             seconds.`): which tasks, how often, and when against the collection window.",
    why: "A task in uninterruptible sleep (D state) for minutes waits on I/O or a kernel lock \
          that does not come back: a dead NFS or FUSE server, a stuck disk or multipath, a \
          deadlock. Its callers hang with it, and the load average climbs without CPU use.",
    false_positives: "Very slow but progressing storage (a saturated array) can keep tasks \
                      blocked past 120 s without anything broken; one report at boot of a slow \
                      device is history, not the incident.",
    remedy: "Read the stack under the report (`Call Trace:`): the function it waits in names the \
             subsystem (`nfs_`, `fuse_`, `blk_`, `jbd2`). Check that device or server first.",
    file: file!(),
};

/// Hung-task reports in the kernel log.
pub fn check(f: &HostFacts) -> Check {
    let Some(log) = f.klog.get() else {
        return Check::NotEvaluated("no kernel log in the bundle".into());
    };
    let all: Vec<_> = log.of("hung-task").collect();
    if all.is_empty() {
        return Check::Clear(format!("no hung-task report in {}", log.sources.join(", ")));
    }
    let v = verdict(&all, META.severity, log);
    let ev = relevant(&all);
    let mut tasks: Vec<String> = Vec::new();
    for e in &ev {
        if let EventKind::HungTask { comm, pid, .. } = &e.kind {
            let t = match pid {
                Some(p) => format!("{comm} ({p})"),
                None => comm.clone(),
            };
            if !tasks.contains(&t) {
                tasks.push(t);
            }
        }
    }
    let last = ev[ev.len() - 1];
    let n = ev.len();
    let reports = if n == 1 { "report" } else { "reports" };
    Check::Found(vec![crate::rules::klog::ranged(
        finding(
            &META,
            v.severity,
            v.confidence,
            format!(
                "{n} hung-task {reports} {}: {}",
                v.when,
                tasks.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
            ),
            format!(
            "The kernel saw {} blocked in uninterruptible sleep past the hung-task timeout; the \
             last report at {}.",
            if tasks.len() == 1 { "a task" } else { "tasks" },
            at(last, log)
        ),
            evidence(&ev, "hung-task reports"),
            n as f64 * 10.0,
        ),
        &ev,
    )])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::klog::testkit::{ev, facts};
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};
    use crate::rules::Confidence;

    fn hung(before: Option<f64>, line: usize) -> crate::facts::klog::KernelEvent {
        ev(
            EventKind::HungTask {
                comm: "df".into(),
                pid: Some(1_177_107),
                seconds: Some(120),
            },
            before,
            line,
            "INFO: task df:1177107 blocked for more than 120 seconds.",
        )
    }

    #[test]
    fn fires_on_a_report_in_the_window() {
        let v = found(check(&facts(vec![hung(Some(-30.0), 12)])));
        assert_eq!(v[0].severity, Severity::Warning);
        assert_eq!(
            v[0].title,
            "1 hung-task report during or within an hour before the collection window: df (1177107)"
        );
        assert_eq!(v[0].evidence[0].lines, vec![12]);
    }

    #[test]
    fn fires_as_information_when_only_old() {
        let v = found(check(&facts(vec![hung(Some(5.0 * 3600.0), 3)])));
        assert_eq!(
            (v[0].severity, v[0].confidence),
            (Severity::Info, Confidence::Medium)
        );
        assert!(
            v[0].title.contains("5.0 h before the collection window"),
            "{}",
            v[0].title
        );
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
