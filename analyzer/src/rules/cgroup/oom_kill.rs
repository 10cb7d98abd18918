//! `cgroup.oom-kill`: a target process's memory cgroup reached its limit and the kernel's OOM
//! killer killed processes in it.
//!
//! Reads the cgroup counters of each target process (v2 `memory.events` `oom_kill`, v1
//! `memory.oom_control` `oom_kill`, v1 `memory.failcnt`) at the window's start and end, the
//! cgroup's memory limit and usage, and the host's `MemAvailable`.

use crate::facts::cgroup::CgroupUsage;
use crate::facts::{Fact, HostFacts};
use crate::rules::common::finding;
use crate::rules::{
    Area, Check, Confidence, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "cgroup.oom-kill",
    title: "Processes killed at a memory cgroup's limit",
    area: Area::Memory,
    severity: Severity::Critical,
    needs: &[Fact::Cgroups],
    reads: &[Fact::Memory],
    thresholds: &[Threshold {
        name: "cgroup `oom_kill` (v2 `memory.events`, v1 `memory.oom_control`)",
        value: Limit::Any,
        unit: "kills",
        meaning: "any increase between the window's start and end snapshots: critical; a total \
                  since the cgroup was created (one snapshot): information",
        sources: &[
            Source::Doc {
                document: "Linux kernel documentation, Documentation/admin-guide/cgroup-v2.rst",
                section: Some("Memory Interface Files: memory.events oom_kill"),
                url: Some(
                    "https://docs.kernel.org/admin-guide/cgroup-v2.html#memory-interface-files",
                ),
            },
            Source::Doc {
                document:
                    "Linux kernel documentation, Documentation/admin-guide/cgroup-v1/memory.rst",
                section: Some("10. OOM Control (memory.oom_control: oom_kill)"),
                url: Some("https://docs.kernel.org/admin-guide/cgroup-v1/memory.html#oom-control"),
            },
        ],
    }],
    groups: &[SymptomGroup::Memory],
    explains: &["mem.oom-kill"],
    fires_when: "the `oom_kill` counter of a target process's memory cgroup grows during the \
                 window, or is above zero since the cgroup was created",
    checks: "For each target process, the `oom_kill` counter of its memory cgroup (v2 \
             `memory.events`, hierarchical: it counts kills in descendants too; v1 \
             `memory.oom_control`, Linux 4.13 and later) read at the window's start and end, with \
             v1 `memory.failcnt` (charges that hit the limit), the cgroup's limit and its usage.",
    why: "A memory cgroup's limit is a ceiling of its own: when the processes in it cannot be \
          reclaimed below it, the kernel OOM-kills one of them even while the host has plenty of \
          free memory. A container restarts, a JVM vanishes without a stack trace, and host-wide \
          memory graphs show nothing wrong. The host-wide `/proc/vmstat` `oom_kill` counts the \
          same kills without naming the cgroup.",
    false_positives: "A total since the cgroup was created dates nothing (information only). \
                      Kills of a batch job's child that is designed to be bounded by its cgroup \
                      are intended.",
    remedy: "Read the kernel log for the victim (`Memory cgroup out of memory: Killed process \
             …`, `oom-kill:constraint=CONSTRAINT_MEMCG,…,oom_memcg=…`); raise the cgroup's \
             limit (`memory.max`, `memory.limit_in_bytes`, a container's memory limit, systemd \
             `MemoryMax=`) to the workload's need, or reduce the workload's footprint (heap \
             size, caches, number of processes in the cgroup).",
    file: file!(),
};

/// Bytes as MiB or GiB.
fn size(b: u64) -> String {
    if b >= 1 << 30 {
        format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64)
    } else {
        format!("{} MiB", b >> 20)
    }
}

/// One finding for a cgroup with kills, else `None`.
fn judge(g: &CgroupUsage, f: &HostFacts) -> Option<crate::rules::Finding> {
    let k = g.oom_kills.as_ref()?;
    let kills = k.delta();
    if kills == 0 {
        return None;
    }
    let cg = g
        .memory_path
        .as_deref()
        .unwrap_or("(path not in the bundle)");
    let name = match &g.memory_path {
        Some(c) => format!("Memory cgroup {c} of {}", g.process),
        None => format!("The memory cgroup of {}", g.process),
    };
    let holder = match &g.memory_path {
        Some(c) => format!("memory cgroup {c}, which holds {},", g.process),
        None => format!("the memory cgroup of {}", g.process),
    };
    let (severity, confidence, when) = match (k.seconds, k.start.is_some()) {
        (Some(s), _) => (
            Severity::Critical,
            Confidence::High,
            format!("during the {s:.0} s window"),
        ),
        (None, true) => (
            Severity::Critical,
            Confidence::High,
            "between the two snapshots (their interval is not recorded)".to_string(),
        ),
        (None, false) => (
            Severity::Info,
            Confidence::Low,
            "since the cgroup was created (one snapshot: not dated)".to_string(),
        ),
    };
    let noun = if kills == 1 { "process" } else { "processes" };
    let limit = g.memory_limit_bytes.as_ref();
    let limit_words = limit.map_or("its memory limit".to_string(), |l| {
        format!("its {} limit", size(l.value))
    });
    let mut ev = k.evidence(&format!("memory cgroup {cg}: oom_kill"));
    if let Some(l) = limit {
        ev.push(l.evidence(format!("memory cgroup {cg}: limit")));
    }
    let mut details = Vec::new();
    if let Some(u) = &g.memory_usage_bytes {
        details.push(format!(
            "Charged to the cgroup at the last snapshot: {}.",
            size(u.value)
        ));
        ev.push(u.evidence(format!("memory cgroup {cg}: usage")));
    }
    if let Some(fc) = &g.memory_failcnt {
        if fc.delta() > 0 {
            details.push(format!(
                "`memory.failcnt` grew by {}: charges hit the limit and reclaim ran.",
                fc.delta()
            ));
            ev.extend(fc.evidence(&format!("memory cgroup {cg}: failcnt")));
        }
    }
    let host = f.memory.mem_available_kib.as_ref().map(|a| {
        ev.push(a.evidence("host MemAvailable"));
        a.value
    });
    let host_words = match host {
        Some(kib) => format!(
            " The host had {} available (MemAvailable): the cgroup's limit ran out, not the \
             host's memory.",
            size(kib.saturating_mul(1024))
        ),
        None => " The cgroup's limit ran out, whatever the host had free.".to_string(),
    };
    let mut out = finding(
        &META,
        severity,
        confidence,
        format!("{name} OOM-killed {kills} {noun} {when}"),
        format!(
            "The processes in {holder} reached {limit_words} and the kernel's OOM killer \
             killed {kills} {noun} in it {when}.{host_words}"
        ),
        ev,
        100.0 + kills as f64 * 10.0,
    );
    out.details = details;
    Some(out)
}

/// OOM kills in the target processes' memory cgroups.
pub fn check(f: &HostFacts) -> Check {
    let with: Vec<&CgroupUsage> = f.cgroups.iter().filter(|g| g.oom_kills.is_some()).collect();
    if with.is_empty() {
        return Check::NotEvaluated(
            "no memory cgroup `oom_kill` counter of a target process in the bundle (the \
             collector's `cgroup.tsv`, or the files themselves: v2 `memory.events`, v1 \
             `memory.oom_control` on Linux 4.13 and later)"
                .into(),
        );
    }
    let found: Vec<_> = with.iter().filter_map(|g| judge(g, f)).collect();
    if found.is_empty() {
        let windowed = with
            .iter()
            .all(|g| g.oom_kills.as_ref().is_some_and(|k| k.start.is_some()));
        return Check::Clear(format!(
            "no OOM kill in {} target cgroup{} {}",
            with.len(),
            if with.len() == 1 { "" } else { "s" },
            if windowed {
                "during the window"
            } else {
                "since they were created"
            }
        ));
    }
    Check::Found(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;
    use crate::facts::cgroup::CgroupCounter;
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    fn group(start: Option<u64>, end: u64) -> CgroupUsage {
        CgroupUsage {
            dir: "jvm/14697".into(),
            pid: Some(14697),
            process: "Idle (pid 14697)".into(),
            memory_path: Some("/rca-oom".into()),
            memory_limit_bytes: Some(Cited::new(128 << 20, "jvm/14697/cgroup.tsv.end", 7)),
            oom_kills: Some(CgroupCounter {
                start: start.map(|s| Cited::new(s, "jvm/14697/cgroup.tsv.start", 14)),
                end: Cited::new(end, "jvm/14697/cgroup.tsv.end", 14),
                seconds: start.map(|_| 30.0),
            }),
            ..CgroupUsage::default()
        }
    }

    fn with(cgroups: Vec<CgroupUsage>) -> HostFacts {
        HostFacts {
            cgroups,
            ..HostFacts::default()
        }
    }

    #[test]
    fn fires_on_kills_in_the_window_with_free_host_memory() {
        let mut f = with(vec![group(Some(1), 7)]);
        f.memory.mem_available_kib = Some(Cited::new(23_000_000, "mem/meminfo", 3));
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Critical);
        assert_eq!(
            v[0].title,
            "Memory cgroup /rca-oom of Idle (pid 14697) OOM-killed 6 processes during the 30 s window"
        );
        assert!(
            v[0].why.contains("reached its 128 MiB limit"),
            "{}",
            v[0].why
        );
        assert!(v[0].why.contains("21.9 GiB available"), "{}", v[0].why);
        assert!(v[0].why.contains("not the host's memory"), "{}", v[0].why);
        assert_eq!(v[0].explains, ["mem.oom-kill"]);
        // Both snapshots' lines are cited.
        assert_eq!(v[0].evidence[0].artifact, "jvm/14697/cgroup.tsv.start");
        assert_eq!(v[0].evidence[1].artifact, "jvm/14697/cgroup.tsv.end");
    }

    #[test]
    fn fires_as_information_since_creation() {
        let f = with(vec![group(None, 8)]);
        let v = found(check(&f));
        assert_eq!(
            (v[0].severity, v[0].confidence),
            (Severity::Info, Confidence::Low)
        );
        assert!(v[0]
            .title
            .ends_with("8 processes since the cgroup was created (one snapshot: not dated)"));
    }

    #[test]
    fn clear_when_the_counter_did_not_move() {
        let f = with(vec![group(Some(8), 8)]);
        let c = check(&f);
        assert!(is_clear(&c));
        let Check::Clear(s) = c else { unreachable!() };
        assert_eq!(s, "no OOM kill in 1 target cgroup during the window");
    }

    #[test]
    fn not_evaluated_without_cgroup_counters() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
        let f = with(vec![CgroupUsage::default()]);
        assert!(is_not_evaluated(&check(&f)));
    }
}
