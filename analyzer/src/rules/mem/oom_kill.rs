//! `mem.oom-kill`: the kernel's OOM killer killed processes.
//!
//! Reads the `oom_kill` counter of `/proc/vmstat` (its change over the window, else its value
//! since boot) and the time since boot.

use crate::facts::{Fact, HostFacts};
use crate::rules::common::{counter_words, finding};
use crate::rules::{
    Area, Check, Confidence, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "mem.oom-kill",
    title: "Processes killed by the OOM killer",
    area: Area::Memory,
    severity: Severity::Warning,
    needs: &[Fact::Memory],
    reads: &[],
    thresholds: &[Threshold {
        name: "`/proc/vmstat` `oom_kill`",
        value: Limit::Any,
        unit: "kills",
        meaning: "any increase during the window: a warning; counted since boot only (one \
                  snapshot): information, with the rate per hour of uptime",
        sources: &[
            Source::Doc {
                document: "Linux kernel documentation, Documentation/admin-guide/cgroup-v2.rst",
                section: Some("memory.events: oom_kill"),
                url: Some("https://docs.kernel.org/admin-guide/cgroup-v2.html"),
            },
            Source::Doc {
                document: "Linux kernel documentation, Documentation/admin-guide/mm/concepts.rst",
                section: Some("OOM killer"),
                url: Some("https://docs.kernel.org/admin-guide/mm/concepts.html"),
            },
        ],
    }],
    groups: &[SymptomGroup::Memory],
    explains: &[],
    fires_when: "`/proc/vmstat` `oom_kill` grows during the window, or is above zero since boot",
    checks: "The `oom_kill` counter of `/proc/vmstat` (Linux 4.13 and later), which counts every process \
             the OOM killer killed, for the whole host and for memory cgroups alike: its increase \
             between the window's snapshots, else its value since boot with the rate per hour of \
             uptime.",
    why: "When memory cannot be reclaimed the kernel kills a process to free it: a service \
          restarts, a JVM vanishes without a stack trace, work is lost. The kernel log names the \
          victim and whether a cgroup's limit (`CONSTRAINT_MEMCG`) or the whole host ran out.",
    false_positives: "A count since boot dates nothing: a kill months ago counts the same as one \
                      during the incident, hence information only. Kills inside a memory cgroup \
                      are counted even when the host has plenty of free memory.",
    remedy: "Read the kernel log (`dmesg`, `journalctl -k`) for the victim and the constraint; \
             size the cgroup limit or the heap to the workload, or find the leak.",
    file: file!(),
};

/// OOM kills over the window or since boot.
pub fn check(f: &HostFacts) -> Check {
    let Some(k) = &f.memory.oom_kills else {
        return Check::NotEvaluated(
            "no `/proc/vmstat` with an `oom_kill` counter (Linux 4.13 and later) in the bundle"
                .into(),
        );
    };
    if k.value.delta == 0 {
        return Check::Clear(if k.value.seconds.is_some() {
            "no OOM kill during the window".into()
        } else {
            "no OOM kill since boot".into()
        });
    }
    let w = counter_words(&k.value, f.platform.uptime_s.as_ref(), Confidence::High);
    let mut ev = vec![k.evidence("/proc/vmstat oom_kill")];
    ev.extend(w.uptime);
    let kills = if k.value.delta == 1 {
        "process"
    } else {
        "processes"
    };
    Check::Found(vec![finding(
        &META,
        w.severity,
        w.confidence,
        format!("OOM killer killed {} {kills} {}", k.value.delta, w.when),
        format!(
            "The kernel ran out of reclaimable memory (for the host or for a memory cgroup) and \
             killed {} {kills} {}.",
            k.value.delta, w.when
        ),
        ev,
        k.value.delta as f64 * 10.0,
    )])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::CounterChange;
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    #[test]
    fn fires_on_kills_in_the_window() {
        let mut f = HostFacts::default();
        f.memory.oom_kills = Some(c(CounterChange {
            delta: 2,
            seconds: Some(60.0),
        }));
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Warning);
        assert_eq!(
            v[0].title,
            "OOM killer killed 2 processes during the 60 s window"
        );
    }

    #[test]
    fn fires_as_information_since_boot() {
        let mut f = HostFacts::default();
        f.memory.oom_kills = Some(c(CounterChange {
            delta: 1,
            seconds: None,
        }));
        let v = found(check(&f));
        assert_eq!(
            (v[0].severity, v[0].confidence),
            (Severity::Info, Confidence::Low)
        );
        assert_eq!(
            v[0].title,
            "OOM killer killed 1 process since boot (uptime unknown)"
        );
    }

    #[test]
    fn clear_without_kills() {
        let mut f = HostFacts::default();
        f.memory.oom_kills = Some(c(CounterChange {
            delta: 0,
            seconds: Some(60.0),
        }));
        assert!(is_clear(&check(&f)));
    }

    #[test]
    fn not_evaluated_without_proc_vmstat() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
