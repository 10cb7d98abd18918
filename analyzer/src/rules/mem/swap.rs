//! `mem.swap`: swap in use on a host running a JVM or a database.
//!
//! Reads memory facts (`/proc/meminfo` SwapTotal/SwapFree, `vmstat` si/so, `vm.swappiness`), the
//! process list (`ps`) and each JVM's `VmSwap` (`/proc/PID/status`).

use crate::evidence::Evidence;
use crate::facts::{Fact, HostFacts};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// `vm.swappiness` above this on a JVM/database host is a misconfiguration.
const SWAPPINESS_MAX: u64 = 10;
/// Swap traffic (in + out) at or above this many KiB/s is active swapping.
const SWAP_ACTIVE_KIB_PER_S: f64 = 1.0;

/// Process names of databases and JVM-based services that must not be swapped.
const LATENCY_SENSITIVE: &[&str] = &[
    "java",
    "mysqld",
    "mariadbd",
    "postgres",
    "postmaster",
    "mongod",
    "redis-server",
    "observer",
    "oracle",
];

const SWAPPINESS_GUIDES: &[Source] = &[
    Source::section(
        "Apache Kafka and Hadoop/Cloudera deployment guides",
        "`vm.swappiness` = 1",
    ),
    Source::Doc {
        document: "Elasticsearch reference",
        section: Some("Disable swapping"),
        url: Some(
            "https://www.elastic.co/guide/en/elasticsearch/reference/current/setup-configuration-memory.html",
        ),
    },
    Source::Case(1),
];

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "mem.swap",
    title: "Swap in use on a JVM or database host",
    area: Area::Memory,
    severity: Severity::Warning,
    needs: &[Fact::Memory, Fact::Processes],
    reads: &[Fact::Jvms],
    thresholds: &[
        Threshold {
            name: "swap-in + swap-out during the window",
            value: Limit::Num(SWAP_ACTIVE_KIB_PER_S),
            unit: "KiB/s",
            meaning: "at or above: critical",
            sources: SWAPPINESS_GUIDES,
        },
        Threshold {
            name: "vm.swappiness",
            value: Limit::Count(SWAPPINESS_MAX),
            unit: "",
            meaning: "above it with swap in use: a warning; above it alone on such a host: \
                      information",
            sources: SWAPPINESS_GUIDES,
        },
    ],
    groups: &[SymptomGroup::Memory],
    explains: &[crate::rules::jvm::gc_overhead::META.id],
    fires_when:
        "a JVM or database host swaps (si/so), or has swap in use with `vm.swappiness` > 10",
    checks: "On a host running a JVM or a database (from `ps`): swap in use (`/proc/meminfo` \
             SwapTotal − SwapFree), swap-in/out during the window (`vmstat` si/so), and \
             `vm.swappiness`.",
    why: "A JVM's garbage collector touches the whole heap; any heap page on swap turns a \
          millisecond pause into seconds, and YARN/Kubernetes then kill the container as \
          unresponsive (case S1). Databases suffer the same on their buffer pools.",
    false_positives: "Pages of idle daemons swapped out long ago (swap used but no si/so): shown \
                      as a warning only when swappiness is also high.",
    remedy: "Set `vm.swappiness=1` (sysctl.d), size heaps so RAM is not overcommitted, and on VMs \
             reserve the guest's memory; consider `swapoff` on dedicated JVM hosts.",
    file: file!(),
};

/// Swap use and traffic, and `vm.swappiness`, on a host running a JVM or a database.
pub fn check(f: &HostFacts) -> Check {
    let m = &f.memory;
    if m.swap_total_kib.is_none() && m.swap_in_kib_per_s.is_none() && m.swappiness.is_none() {
        return Check::NotEvaluated(
            "no `/proc/meminfo`, `vmstat` or `vm.swappiness` in the bundle".into(),
        );
    }
    // The JVM with the most memory on swap when `/proc/PID/status` says, else the first
    // latency-sensitive process.
    let swapped_pid = f
        .jvms
        .iter()
        .filter_map(|j| Some((j.pid?, j.swap_kib.as_ref()?.value)))
        .filter(|&(_, kib)| kib > 0)
        .max_by_key(|&(_, kib)| kib)
        .map(|(pid, _)| pid);
    let sensitive = swapped_pid
        .and_then(|pid| f.processes.list.iter().find(|p| p.value.pid == pid))
        .or_else(|| {
            f.processes
                .list
                .iter()
                .find(|p| LATENCY_SENSITIVE.contains(&p.value.comm.as_str()))
        });
    let Some(proc_) = sensitive else {
        // No swap traffic in the window and none in use (or none configured): nothing to judge,
        // whichever processes run.
        let quiet = m.swap_in_kib_per_s.as_ref().is_some_and(|c| c.value == 0.0)
            && m.swap_out_kib_per_s
                .as_ref()
                .is_some_and(|c| c.value == 0.0);
        let none_used = m.swap_used_kib.as_ref().is_some_and(|c| c.value == 0)
            || m.swap_total_kib.as_ref().is_some_and(|c| c.value == 0);
        if quiet && none_used && f.processes.listing.reason().is_some() {
            return Check::Clear(
                "no swap-in or swap-out during the window and no swap in use".into(),
            );
        }
        return match f.processes.listing.reason() {
            Some(why) => Check::NotEvaluated(format!(
                "no complete process list to tell whether a JVM or database runs here: {why}"
            )),
            None => Check::Clear("no JVM or database process on this host".into()),
        };
    };
    let si = m.swap_in_kib_per_s.as_ref().map(|c| c.value).unwrap_or(0.0);
    let so = m
        .swap_out_kib_per_s
        .as_ref()
        .map(|c| c.value)
        .unwrap_or(0.0);
    let used = m.swap_used_kib.as_ref().map(|c| c.value).unwrap_or(0);
    let swappiness = m.swappiness.as_ref().map(|c| c.value);
    let high_swappiness = swappiness.is_some_and(|s| s > SWAPPINESS_MAX);
    let mut ev: Vec<Evidence> =
        vec![proc_.evidence(format!("{} (pid {})", proc_.value.comm, proc_.value.pid))];
    // si and so come from the same vmstat lines: cite them once.
    match (
        m.swap_in_kib_per_s.as_ref().filter(|c| c.value > 0.0),
        m.swap_out_kib_per_s.as_ref().filter(|c| c.value > 0.0),
    ) {
        (Some(i), Some(o)) if i.artifact == o.artifact && i.lines == o.lines => {
            ev.push(i.evidence("swap-in and swap-out during the window"))
        }
        (i, o) => {
            if let Some(c) = i {
                ev.push(c.evidence("swap-in during the window"));
            }
            if let Some(c) = o {
                ev.push(c.evidence("swap-out during the window"));
            }
        }
    }
    if let Some(c) = &m.swap_used_kib {
        ev.push(c.evidence("swap in use"));
    }
    if let Some(c) = &m.swappiness {
        ev.push(c.evidence("vm.swappiness"));
    }
    // No swap configured: swappiness has nothing to act on.
    if m.swap_total_kib.as_ref().is_some_and(|t| t.value == 0) && si + so == 0.0 {
        return Check::Clear("no swap configured (`SwapTotal: 0 kB`)".into());
    }
    let (sev, title) = if si + so >= SWAP_ACTIVE_KIB_PER_S {
        (
            Severity::Critical,
            format!(
                "Active swapping on a {} host: si {si:.0} KiB/s, so {so:.0} KiB/s",
                proc_.value.comm
            ),
        )
    } else if used > 0 && high_swappiness {
        (
            Severity::Warning,
            format!(
                "{} MiB of swap in use on a {} host with vm.swappiness {}",
                used / 1024,
                proc_.value.comm,
                swappiness.unwrap_or(0)
            ),
        )
    } else if high_swappiness {
        (
            Severity::Info,
            format!(
                "vm.swappiness {} on a {} host",
                swappiness.unwrap_or(0),
                proc_.value.comm
            ),
        )
    } else {
        return Check::Clear(format!(
            "swap idle, vm.swappiness {}",
            swappiness
                .map(|s| s.to_string())
                .unwrap_or_else(|| "unknown".into())
        ));
    };
    Check::Found(vec![Finding {
        rule_id: META.id,
        // Heap pages on swap lengthen every collection that touches them.
        explains: if sev >= Severity::Warning {
            META.explains.to_vec()
        } else {
            Vec::new()
        },
        area: META.area,
        title,
        severity: sev,
        confidence: if m.swap_in_kib_per_s.is_some() { Confidence::High } else { Confidence::Medium },
        why: format!(
            "A {} process runs here; swap used {} MiB, swap traffic {:.1} KiB/s, vm.swappiness {} (≤ {SWAPPINESS_MAX} recommended).",
            proc_.value.comm,
            used / 1024,
            si + so,
            swappiness.map(|s| s.to_string()).unwrap_or_else(|| "unknown".into())
        ),
        details: Vec::new(),
        score: si + so + used as f64 / 1024.0,
        time_range: None,
        evidence: ev,
    }])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testkit::{
        c, found, is_clear, is_not_evaluated, with_complete_list, with_process,
    };

    fn mem(si: f64, so: f64, used: u64, swappiness: u64) -> HostFacts {
        let mut f = HostFacts::default();
        f.memory.swap_total_kib = Some(c(4 << 20));
        f.memory.swap_used_kib = Some(c(used));
        f.memory.swap_in_kib_per_s = Some(c(si));
        f.memory.swap_out_kib_per_s = Some(c(so));
        f.memory.swappiness = Some(c(swappiness));
        f
    }

    #[test]
    fn fires_critical_on_active_swapping_on_a_jvm_host() {
        let v = found(check(&with_process(mem(120.0, 40.0, 900_000, 60), "java")));
        assert_eq!(v[0].severity, Severity::Critical);
    }

    #[test]
    fn clear_without_swap_traffic_or_use_whatever_the_process_list() {
        // No process list at all: no swap traffic and none in use is still a verdict.
        let Check::Clear(why) = check(&mem(0.0, 0.0, 0, 60)) else {
            panic!("no swapping at all is clear")
        };
        assert!(why.contains("no swap-in or swap-out"), "{why}");
        // Swap in use without a process list: whether a JVM suffers is unknown.
        assert!(is_not_evaluated(&check(&mem(0.0, 0.0, 1, 60))));
    }

    #[test]
    fn fires_a_warning_on_idle_swap_with_default_swappiness() {
        let v = found(check(&with_process(mem(0.0, 0.0, 200_000, 60), "java")));
        assert_eq!(v[0].severity, Severity::Warning);
        assert!(v[0].title.contains("swappiness 60"));
    }

    #[test]
    fn clear_at_the_swappiness_boundary_and_on_other_hosts() {
        assert!(is_clear(&check(&with_process(
            mem(0.0, 0.0, 200_000, SWAPPINESS_MAX),
            "java"
        ))));
        assert_eq!(
            found(check(&with_process(mem(0.0, 0.0, 0, 11), "postgres")))[0].severity,
            Severity::Info
        );
        assert!(is_clear(&check(&with_complete_list(
            mem(50.0, 0.0, 1, 60),
            "nginx"
        ))));
        // The same process in a partial list (a top-N listing): a JVM may run unseen.
        let mut partial = with_process(mem(50.0, 0.0, 1, 60), "nginx");
        partial.processes.listing =
            crate::facts::process::Listing::Partial("`top` lists 20 of 312 tasks".into());
        let Check::NotEvaluated(why) = check(&partial) else {
            panic!("a partial list cannot clear the rule")
        };
        assert!(why.contains("20 of 312"), "{why}");
        assert!(
            is_not_evaluated(&check(&mem(50.0, 0.0, 1, 60))),
            "no process list"
        );
    }

    #[test]
    fn not_evaluated_without_memory_facts() {
        assert!(is_not_evaluated(&check(&with_process(
            HostFacts::default(),
            "java"
        ))));
    }
}
