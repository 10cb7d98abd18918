//! `mem.oom-kill`: the kernel's OOM killer killed processes.
//!
//! Reads the kernel log's OOM kills (victim, memory cgroup or whole host, the cgroup's path),
//! else the `oom_kill` counter of `/proc/vmstat` (its change over the window, else its value
//! since boot) and the time since boot.

use crate::facts::klog::{EventKind, KernelEvent, KernelLog, OomScope};
use crate::facts::{Fact, HostFacts};
use crate::rules::common::{counter_words, finding};
use crate::rules::klog::{at, evidence, relevant, verdict, RECENT, RECENT_S};
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
    reads: &[Fact::KernelLog],
    thresholds: &[
        Threshold {
            name: "kernel log `Killed process` reports",
            value: Limit::Any,
            unit: "kills",
            meaning: "any within an hour before the window or during it: a warning (the victim, \
                      and `CONSTRAINT_MEMCG` or the `Memory cgroup out of memory` prefix for a \
                      cgroup's limit, else the whole host); older only: information",
            sources: &[
                Source::Doc {
                    document: "Linux kernel source, mm/oom_kill.c",
                    section: Some("oom_kill_process(), dump_oom_summary()"),
                    url: Some("https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/mm/oom_kill.c"),
                },
            ],
        },
        Threshold {
            name: "time before the window",
            value: Limit::Num(RECENT_S),
            unit: "s",
            meaning: "kills in the kernel log within it count as the incident's",
            sources: &[RECENT],
        },
        Threshold {
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
    fires_when: "the kernel log reports an OOM kill, or `/proc/vmstat` `oom_kill` grows during the window, or is above zero since boot",
    checks: "The kernel log's OOM killer reports (`oom-kill:constraint=CONSTRAINT_MEMCG,…,\
             oom_memcg=…`, `Memory cgroup out of memory: Killed process 11433 (java)`, `Out of \
             memory: Killed process …`, RHEL 7's `Kill process … or sacrifice child`): the \
             victims, and whether a memory cgroup's limit or the whole host ran out. Without \
             them, the `oom_kill` counter of `/proc/vmstat` (Linux 4.13 and later), which counts every process \
             the OOM killer killed, for the whole host and for memory cgroups alike: its increase \
             between the window's snapshots, else its value since boot with the rate per hour of \
             uptime.",
    why: "When memory cannot be reclaimed the kernel kills a process to free it: a service \
          restarts, a JVM vanishes without a stack trace, work is lost. The kernel log names the \
          victim and whether a cgroup's limit (`CONSTRAINT_MEMCG`) or the whole host ran out.",
    false_positives: "A kill inside a memory cgroup happens while the host has plenty of free \
                      memory: that is no contradiction, the cgroup's limit was reached. A count \
                      since boot dates nothing: a kill months ago counts the same as one \
                      during the incident, hence information only. Kills inside a memory cgroup \
                      are counted even when the host has plenty of free memory.",
    remedy: "Read the kernel log (`dmesg`, `journalctl -k`) for the victim and the constraint; \
             size the cgroup limit or the heap to the workload, or find the leak.",
    file: file!(),
};

/// `java (11433)`.
fn victim(e: &KernelEvent) -> String {
    match &e.kind {
        EventKind::OomKill { pid, comm, .. } => match (comm, pid) {
            (Some(c), Some(p)) => format!("{c} ({p})"),
            (Some(c), None) => c.clone(),
            (None, Some(p)) => format!("pid {p}"),
            (None, None) => "a process".into(),
        },
        _ => String::new(),
    }
}

/// OOM kills named by the kernel log.
fn from_log(kills: &[&KernelEvent], log: &KernelLog, f: &HostFacts) -> Check {
    let ev = relevant(kills);
    let v = verdict(kills, META.severity, log);
    let mut victims: Vec<String> = Vec::new();
    for e in &ev {
        let name = victim(e);
        if !victims.contains(&name) {
            victims.push(name);
        }
    }
    let mut cgroups: Vec<&str> = Vec::new();
    let (mut memcg, mut host, mut nodes) = (0, 0, 0);
    for e in &ev {
        if let EventKind::OomKill {
            scope, memcg: path, ..
        } = &e.kind
        {
            match scope {
                Some(OomScope::MemoryCgroup) => memcg += 1,
                Some(OomScope::Host) => host += 1,
                Some(OomScope::Nodes) => nodes += 1,
                None => {}
            }
            if let Some(p) = path {
                if !cgroups.contains(&p.as_str()) {
                    cgroups.push(p);
                }
            }
        }
    }
    let n = ev.len();
    let scope = if memcg > 0 && host == 0 && nodes == 0 {
        match cgroups.as_slice() {
            [] => " at a memory cgroup's limit".to_string(),
            [c] => format!(" at memory cgroup {c}'s limit"),
            cs => format!(" at the limits of memory cgroups {}", cs.join(", ")),
        }
    } else if host > 0 && memcg == 0 && nodes == 0 {
        " with the whole host out of memory".into()
    } else if nodes > 0 && memcg == 0 && host == 0 {
        " with the allowed memory nodes (cpuset or mempolicy) exhausted".into()
    } else if memcg + host + nodes > 0 {
        format!(" ({memcg} at memory cgroup limits, {host} with the host out of memory)")
    } else {
        String::new()
    };
    let why = if memcg > 0 && host == 0 {
        "A memory cgroup reached its limit (`CONSTRAINT_MEMCG`): the kernel killed a process inside it, however much memory the host had free. Raise the limit or shrink the workload (a JVM heap and its native memory must fit under it)."
    } else if host > 0 {
        "The host ran out of memory and swap it could reclaim (`CONSTRAINT_NONE`): the kernel killed the process with the highest OOM score."
    } else {
        "The kernel ran out of reclaimable memory and killed a process."
    };
    let mut evs = evidence(&ev, "OOM killer reports");
    if let Some(k) = f.memory.oom_kills.as_ref().filter(|k| k.value.delta > 0) {
        evs.push(k.evidence("/proc/vmstat oom_kill"));
    }
    Check::Found(vec![crate::rules::klog::ranged(
        finding(
            &META,
            v.severity,
            v.confidence,
            format!(
                "OOM killer killed {}{scope} {}",
                if n == 1 {
                    victims[0].clone()
                } else {
                    format!(
                        "{n} processes ({})",
                        victims
                            .iter()
                            .take(5)
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                },
                v.when
            ),
            format!("{why} The last kill at {}.", at(ev[n - 1], log)),
            evs,
            n as f64 * 10.0,
        ),
        &ev,
    )])
}

/// OOM kills: from the kernel log, else over the window or since boot from `/proc/vmstat`.
pub fn check(f: &HostFacts) -> Check {
    if let Some(log) = f.klog.get() {
        let kills: Vec<&KernelEvent> = log.of("oom-kill").collect();
        if !kills.is_empty() {
            return from_log(&kills, log, f);
        }
        if f.memory.oom_kills.is_none() {
            return Check::Clear(format!("no OOM kill in {}", log.sources.join(", ")));
        }
    }
    let Some(k) = &f.memory.oom_kills else {
        return Check::NotEvaluated(
            "no kernel log and no `/proc/vmstat` with an `oom_kill` counter (Linux 4.13 and later) \
             in the bundle"
                .into(),
        );
    };
    if k.value.delta == 0 {
        return Check::Clear(match (k.value.seconds, k.value.between) {
            (Some(_), _) => "no OOM kill during the window".into(),
            (None, Some(source)) => format!("no OOM kill between the two {source} snapshots"),
            (None, None) => "no OOM kill since boot".into(),
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
            between: None,
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
            between: None,
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
            between: None,
        }));
        assert!(is_clear(&check(&f)));
    }

    fn memcg_kill(before: f64) -> KernelEvent {
        crate::rules::klog::testkit::ev(
            EventKind::OomKill {
                pid: Some(11433),
                comm: Some("java".into()),
                scope: Some(OomScope::MemoryCgroup),
                constraint: Some("CONSTRAINT_MEMCG".into()),
                memcg: Some("/docker/8580b0e84bfe".into()),
            },
            Some(before),
            21,
            "Memory cgroup out of memory: Killed process 11433 (java)",
        )
    }

    #[test]
    fn fires_from_the_kernel_log_naming_victim_and_cgroup() {
        let f = crate::rules::klog::testkit::facts(vec![memcg_kill(300.0)]);
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Warning);
        assert_eq!(
            v[0].title,
            "OOM killer killed java (11433) at memory cgroup /docker/8580b0e84bfe's limit during \
             or within an hour before the collection window"
        );
        assert!(v[0].why.contains("CONSTRAINT_MEMCG"));
        assert_eq!(v[0].evidence[0].lines, vec![21]);
    }

    #[test]
    fn fires_as_information_for_an_old_kill() {
        let f = crate::rules::klog::testkit::facts(vec![memcg_kill(20.0 * 3600.0)]);
        assert_eq!(found(check(&f))[0].severity, Severity::Info);
    }

    #[test]
    fn clear_with_a_kernel_log_without_kills() {
        assert!(is_clear(&check(&crate::rules::klog::testkit::facts(
            vec![]
        ))));
    }

    #[test]
    fn not_evaluated_without_proc_vmstat() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
