//! `jvm.monitor-contention`: many threads queued for one lock, in one or more thread dumps.
//!
//! Reads each JVM's contended locks ([`crate::facts::jvm::ContendedLock`]): per lock and per
//! dump, the threads waiting to acquire it (`BLOCKED` on a monitor, or parked on a
//! `java.util.concurrent` lock another thread owns), its owner and the owner's frames.

use crate::facts::jvm::{ContendedLock, Jvm};
use crate::facts::{Fact, HostFacts};
use crate::rules::sources::ORACLE_TROUBLESHOOTING;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Threads waiting for one lock in one dump from which the lock is reported.
pub const MIN_WAITERS: usize = 5;
/// Dumps in which the lock must be contended (with the same owner frame) for a warning.
pub const PERSISTENT_DUMPS: usize = 2;

const THREAD_STATE_DOC: Source = Source::Doc {
    document: "Java SE 17 API, java.lang.Thread.State",
    section: Some("BLOCKED: waiting for a monitor lock to enter a synchronized block/method"),
    url: Some(
        "https://docs.oracle.com/en/java/javase/17/docs/api/java.base/java/lang/Thread.State.html",
    ),
};

const HANGS_DOC: Source = Source::Doc {
    document: ORACLE_TROUBLESHOOTING,
    section: Some("Troubleshoot Process Hangs and Loops: thread dumps, several taken in turn"),
    url: Some(
        "https://docs.oracle.com/en/java/javase/17/troubleshoot/troubleshoot-process-hangs-and-loops.html",
    ),
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "jvm.monitor-contention",
    title: "Threads queued for one lock",
    area: Area::Jvm,
    severity: Severity::Warning,
    needs: &[Fact::Jvms],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "threads waiting for one lock in one thread dump",
            value: Limit::Count(MIN_WAITERS as u64),
            unit: "threads",
            meaning: "at or above: the lock is reported",
            sources: &[
                THREAD_STATE_DOC,
                Source::Rca(
                    "one or two waiters are the ordinary hand-over of a busy lock caught at the \
                     instant of the dump; five or more queued behind a single owner mean the \
                     lock, not the CPUs or the pool size, sets how much work runs at once",
                ),
            ],
        },
        Threshold {
            name: "thread dumps in which the lock is contended with the same owner frame",
            value: Limit::Count(PERSISTENT_DUMPS as u64),
            unit: "dumps",
            meaning: "at or above, and in every dump of the JVM: a warning (else information: \
                      one dump is one instant)",
            sources: &[
                HANGS_DOC,
                Source::Rca(
                    "a queue seen in successive dumps taken seconds or minutes apart, behind the \
                     same code, is a steady state; one dump can catch a burst",
                ),
            ],
        },
    ],
    groups: &[SymptomGroup::Threads],
    explains: &[crate::rules::jvm::thread_pool_oversized::META.id],
    fires_when: "≥ 5 threads wait for one lock in a thread dump (warning when contended in \
                 every dump, ≥ 2, behind the same owner frame)",
    checks: "Per JVM and per thread dump: threads `BLOCKED` with `- waiting to lock <0x…>` (or \
             `- waiting to re-lock in wait()`), and threads parked (`- parking to wait for`) on \
             a `java.util.concurrent` lock that another thread lists among its `Locked ownable \
             synchronizers` (`jstack -l`); the owner is the thread with `- locked <0x…>` on the \
             same object. The same lock (address and class) is followed across the JVM's dumps.",
    why: "Threads waiting for a monitor do no work: throughput is capped at what the owner does \
          while it holds the lock, whatever the pool size or CPU count. The owner's frames name \
          the code that holds it (I/O, a sleep, a long computation inside `synchronized`).",
    false_positives: "A lock taken for a short moment by many threads can show a queue in one \
                      dump under a burst; a single dump (information) is a hint. An object moved \
                      by the collector between dumps has a new address: its persistence is then \
                      under-counted. Parked waiters of a lock are counted only with `jstack -l` \
                      (`jcmd Thread.print -l`), which names the owner.",
    remedy: "Shorten the critical section of the owner's frame (move I/O and waits out of \
             `synchronized`), split the lock (per key, striped), or use a concurrent structure; \
             if the owner itself waits for something, fix that first.",
    file: file!(),
};

/// The lock's owner frame in every dump it is contended in, when it is one frame.
fn same_owner_frame(l: &ContendedLock) -> Option<&str> {
    let first = l.dumps.first()?.value.locked_at.as_deref()?;
    l.dumps
        .iter()
        .all(|d| d.value.locked_at.as_deref() == Some(first))
        .then_some(first)
}

fn finding(j: &Jvm, l: &ContendedLock) -> Finding {
    let total = j.dumps.len().max(l.dumps.len());
    let seen = l.dumps.len();
    let owner_frame = same_owner_frame(l);
    let persistent = seen >= PERSISTENT_DUMPS && seen == total && owner_frame.is_some();
    let per_dump: Vec<String> = l
        .dumps
        .iter()
        .map(|d| d.value.waiters.to_string())
        .collect();
    let last = l.dumps.last().map(|d| &d.value);
    let owner = last
        .and_then(|d| d.owner.clone())
        .unwrap_or_else(|| "not in the dump".into());
    let mut details = Vec::new();
    if let Some(d) = last {
        if let Some(st) = &d.owner_state {
            details.push(format!("Owner `{owner}` is {st}."));
        }
        if let Some(at) = &d.locked_at {
            details.push(format!("The owner holds the lock in `{at}`."));
        }
        if !d.owner_frames.is_empty() {
            details.push(format!(
                "Owner's top frames: {}.",
                d.owner_frames
                    .iter()
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(" ← ")
            ));
        }
        let more = d.waiters.saturating_sub(d.waiter_names.len());
        details.push(format!(
            "Waiters: {}{}.",
            d.waiter_names.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ));
    }
    let max = l.max_waiters();
    let why = if seen >= 2 {
        format!(
            "{seen} of {total} thread dumps show threads queued for this lock ({} waiters per \
             dump){}: a steady queue, not one instant.",
            per_dump.join(", "),
            match owner_frame {
                Some(f) => format!(", each time behind the owner's `{f}`"),
                None => ", behind different owner frames".into(),
            }
        )
    } else {
        format!(
            "{max} threads were queued for this lock in {} thread dump{}; one dump is one \
             instant: take several, seconds apart, to see whether the queue stays.",
            if total > 1 {
                format!("1 of {total}")
            } else {
                "the only".into()
            },
            if total > 1 { "s" } else { "" }
        )
    };
    Finding {
        rule_id: META.id,
        explains: vec![crate::rules::jvm::thread_pool_oversized::META.id],
        area: META.area,
        title: format!(
            "{}: {max} threads wait for lock {} (a {}) held by `{owner}`",
            j.label(),
            l.address,
            l.class
        ),
        severity: if persistent {
            Severity::Warning
        } else {
            Severity::Info
        },
        confidence: if persistent {
            Confidence::High
        } else {
            Confidence::Medium
        },
        why,
        details,
        score: (max * seen) as f64,
        time_range: None,
        evidence: l
            .dumps
            .iter()
            .map(|d| {
                d.evidence(format!(
                    "{} threads wait for {}; owner `{}`",
                    d.value.waiters,
                    l.address,
                    d.value.owner.as_deref().unwrap_or("?")
                ))
            })
            .collect(),
    }
}

/// Every contended lock of every JVM with a thread dump.
pub fn check(f: &HostFacts) -> Check {
    let with_dumps: Vec<&Jvm> = f.jvms.iter().filter(|j| !j.dumps.is_empty()).collect();
    if with_dumps.is_empty() {
        return Check::NotEvaluated("no thread dump in the bundle".into());
    }
    let out: Vec<Finding> = with_dumps
        .iter()
        .flat_map(|j| {
            j.contended_locks
                .iter()
                .filter(|l| l.max_waiters() >= MIN_WAITERS)
                .map(|l| finding(j, l))
        })
        .collect();
    if out.is_empty() {
        let dumps: usize = with_dumps.iter().map(|j| j.dumps.len()).sum();
        Check::Clear(format!(
            "{dumps} thread dump(s) of {} JVM(s): no lock with {MIN_WAITERS} or more waiters",
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
    use crate::facts::jvm::LockInDump;
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    fn dump(path: &str, waiters: usize, at: &str) -> Cited<LockInDump> {
        Cited::lines(
            LockInDump {
                waiters,
                waiter_names: vec!["worker-1".into(), "worker-2".into()],
                owner: Some("holder".into()),
                owner_state: Some("TIMED_WAITING (sleeping)".into()),
                owner_frames: vec!["java.lang.Thread.sleep(Native Method)".into()],
                locked_at: Some(at.into()),
            },
            path,
            vec![128, 132],
        )
    }

    fn facts(dumps: Vec<Cited<LockInDump>>, total: usize) -> HostFacts {
        let j = Jvm {
            pid: Some(9),
            dumps: (1..=total)
                .map(|i| format!("jvm/9/thread-dump.{i}.txt"))
                .collect(),
            contended_locks: vec![ContendedLock {
                address: "0x000000069ec1bc00".into(),
                class: "Locks$Inventory".into(),
                dumps,
            }],
            ..Default::default()
        };
        HostFacts {
            jvms: vec![j],
            ..Default::default()
        }
    }

    #[test]
    fn fires_as_a_warning_when_every_dump_shows_the_same_queue() {
        let at = "Locks$Inventory.reserve(Locks.java:15)";
        let f = facts(
            (1..=3)
                .map(|i| dump(&format!("jvm/9/thread-dump.{i}.txt"), 120, at))
                .collect(),
            3,
        );
        let v = found(check(&f));
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].severity, Severity::Warning);
        assert_eq!(v[0].confidence, Confidence::High);
        assert!(
            v[0].title.contains(
                "120 threads wait for lock 0x000000069ec1bc00 (a Locks$Inventory) held by `holder`"
            ),
            "{}",
            v[0].title
        );
        assert!(v[0].why.contains("3 of 3 thread dumps"), "{}", v[0].why);
        assert!(v[0].why.contains("120, 120, 120"), "{}", v[0].why);
        assert!(v[0].details.iter().any(|d| d.contains(at)));
        assert_eq!(v[0].evidence.len(), 3);
    }

    #[test]
    fn fires_as_information_on_one_dump_of_two() {
        let f = facts(vec![dump("jvm/9/thread-dump.2.txt", 7, "A.b(A.java:1)")], 2);
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Info);
        assert!(
            v[0].why
                .contains("7 threads were queued for this lock in 1 of 2 thread dumps"),
            "{}",
            v[0].why
        );
        // Different owner frames in two dumps: not one steady queue.
        let f = facts(
            vec![
                dump("jvm/9/thread-dump.1.txt", 7, "A.b(A.java:1)"),
                dump("jvm/9/thread-dump.2.txt", 7, "C.d(C.java:2)"),
            ],
            2,
        );
        assert_eq!(found(check(&f))[0].severity, Severity::Info);
    }

    #[test]
    fn clear_below_the_threshold_and_not_evaluated_without_dumps() {
        let f = facts(
            vec![dump(
                "jvm/9/thread-dump.1.txt",
                MIN_WAITERS - 1,
                "A.b(A.java:1)",
            )],
            1,
        );
        assert!(is_clear(&check(&f)));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
