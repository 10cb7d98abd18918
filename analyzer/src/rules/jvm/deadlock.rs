//! `jvm.deadlock`: a Java-level deadlock the JVM itself reported in a thread dump.
//!
//! Reads each JVM's deadlock cycles ([`crate::facts::jvm::Deadlock`]): the `Found one
//! Java-level deadlock:` reports of its thread dumps, with each thread's lock, its holder and
//! the thread's top frame.

use crate::facts::jvm::Jvm;
use crate::facts::{Fact, HostFacts};
use crate::rules::sources::ORACLE_TROUBLESHOOTING;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Deadlock cycles reported by the JVM from which the rule fires.
pub const MIN_DEADLOCKS: u64 = 1;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "jvm.deadlock",
    title: "Java-level deadlock reported by the JVM",
    area: Area::Jvm,
    severity: Severity::Critical,
    needs: &[Fact::Jvms],
    reads: &[],
    thresholds: &[Threshold {
        name: "deadlock cycles the JVM reported (`Found one Java-level deadlock:`)",
        value: Limit::Count(MIN_DEADLOCKS),
        unit: "",
        meaning: "at or above: critical (the threads of the cycle never run again)",
        sources: &[Source::Doc {
            document: ORACLE_TROUBLESHOOTING,
            section: Some("Troubleshoot Process Hangs and Loops: Deadlock Detected"),
            url: Some(
                "https://docs.oracle.com/en/java/javase/17/troubleshoot/troubleshoot-process-hangs-and-loops.html",
            ),
        }],
    }],
    groups: &[SymptomGroup::Threads],
    explains: &[crate::rules::jvm::monitor_contention::META.id],
    fires_when: "a thread dump holds `Found one Java-level deadlock:`",
    checks: "Per JVM, the deadlock reports HotSpot prints after a thread dump (its own cycle \
             detection over monitors and, with `jstack -l`/`Thread.print -l`, ownable \
             synchronizers): the threads of each cycle, the lock each waits for, who holds it, \
             and the thread's top frame; how many of the JVM's dumps report the same cycle.",
    why: "Threads of a deadlock cycle wait for each other forever: the work they hold up never \
          completes, and every other thread that needs one of their locks queues behind them \
          (often seen as a hang or a growing pool of BLOCKED threads).",
    false_positives: "None for the cycle itself: the JVM reports only cycles it found. HotSpot \
                      does not see cycles through other waits (a lock and a queue, a lock and a \
                      remote call), so no finding is no proof of no deadlock.",
    remedy: "Take the locks in one global order in every code path (the frames name where each \
             is taken), or use `tryLock` with a timeout; restart the JVM to release the threads.",
    file: file!(),
};

fn finding(j: &Jvm, d: &crate::evidence::Cited<crate::facts::jvm::Deadlock>) -> Finding {
    let names: Vec<String> = d
        .value
        .threads
        .iter()
        .map(|t| format!("`{}`", t.name))
        .collect();
    let details = d
        .value
        .threads
        .iter()
        .map(|t| {
            format!(
                "`{}` waits for {} {}{}{}.",
                t.name,
                t.lock_kind.as_deref().unwrap_or("lock"),
                t.waits_for,
                t.held_by
                    .as_ref()
                    .map(|h| format!(", held by `{h}`"))
                    .unwrap_or_default(),
                t.top_frame
                    .as_ref()
                    .map(|f| format!(", at `{f}`"))
                    .unwrap_or_default()
            )
        })
        .collect();
    let total = j.dumps.len().max(d.value.in_dumps);
    Finding {
        rule_id: META.id,
        explains: vec![crate::rules::jvm::monitor_contention::META.id],
        area: META.area,
        title: format!(
            "{}: deadlock between {} threads: {}",
            j.label(),
            d.value.threads.len(),
            names.join(", ")
        ),
        severity: Severity::Critical,
        confidence: Confidence::High,
        why: format!(
            "The JVM found a cycle of threads each waiting for a lock the next one holds, \
             reported in {} of {total} thread dump{}: these threads never run again.",
            d.value.in_dumps,
            if total == 1 { "" } else { "s" }
        ),
        details,
        score: d.value.threads.len() as f64 * d.value.in_dumps as f64,
        time_range: None,
        evidence: vec![d.evidence("the JVM's deadlock report and each thread's top frame")],
    }
}

/// Every deadlock of every JVM with a thread dump.
pub fn check(f: &HostFacts) -> Check {
    let with_dumps: Vec<&Jvm> = f.jvms.iter().filter(|j| !j.dumps.is_empty()).collect();
    if with_dumps.is_empty() {
        return Check::NotEvaluated("no thread dump in the bundle".into());
    }
    let out: Vec<Finding> = with_dumps
        .iter()
        .flat_map(|j| j.deadlocks.iter().map(move |d| finding(j, d)))
        .collect();
    if out.is_empty() {
        let dumps: usize = with_dumps.iter().map(|j| j.dumps.len()).sum();
        Check::Clear(format!(
            "{dumps} thread dump(s) of {} JVM(s): no deadlock reported",
            with_dumps.len()
        ))
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;
    use crate::facts::jvm::{Deadlock, DeadlockedThread};
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    fn jvm(deadlocks: Vec<Cited<Deadlock>>) -> HostFacts {
        HostFacts {
            jvms: vec![Jvm {
                pid: Some(5),
                dumps: vec!["jstack.1.txt".into(), "jstack.2.txt".into()],
                deadlocks,
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    fn thread(name: &str, lock: &str, by: &str) -> DeadlockedThread {
        DeadlockedThread {
            name: name.into(),
            waits_for: format!("{lock} (a java.lang.Object)"),
            lock_kind: Some("monitor".into()),
            held_by: Some(by.into()),
            top_frame: Some("Locks.takeBoth(Locks.java:67)".into()),
        }
    }

    #[test]
    fn fires_critical_naming_threads_locks_and_frames() {
        let d = Cited::lines(
            Deadlock {
                threads: vec![
                    thread("left", "0x000000069ec1b1c0", "right"),
                    thread("right", "0x000000069ec1b1b0", "left"),
                ],
                in_dumps: 2,
            },
            "jstack.2.txt",
            vec![146, 148, 149, 150],
        );
        let v = found(check(&jvm(vec![d])));
        assert_eq!(v[0].severity, Severity::Critical);
        assert!(
            v[0].title
                .contains("deadlock between 2 threads: `left`, `right`"),
            "{}",
            v[0].title
        );
        assert!(v[0].why.contains("2 of 2 thread dumps"), "{}", v[0].why);
        assert_eq!(
            v[0].details[0],
            "`left` waits for monitor 0x000000069ec1b1c0 (a java.lang.Object), held by `right`, at `Locks.takeBoth(Locks.java:67)`."
        );
        assert_eq!(v[0].evidence[0].lines, vec![146, 148, 149, 150]);
    }

    #[test]
    fn clear_without_a_report_and_not_evaluated_without_dumps() {
        assert!(is_clear(&check(&jvm(vec![]))));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
