//! Control-group facts: the memory and CPU limits of each target process's cgroup and the
//! counters that show the limits biting — OOM kills, v1 `memory.failcnt`, CFS throttled periods
//! and throttled time — over the window when the collector read them at its start and end.
//!
//! In: the `cgroup` artifacts (`cgroup.tsv.start`, `cgroup.tsv.end`, or one `cgroup.tsv`) of
//! each process folder (`jvm/<pid>/`, `proc/<pid>/`); control files handed over loose
//! (`cgroup-memory-events`, `cgroup-cpu-stat`, `cgroup-oom-control`, `cgroup-memory-max`,
//! `cgroup-memory-failcnt`, `cgroup-cpu-max`, one value set per file) and `/proc/<pid>/cgroup`
//! (`proc-cgroup`); the JVMs and the process list (for a name). Out: one [`CgroupUsage`] per
//! folder. A folder under `sys/fs/cgroup/` names its cgroup path; a folder of loose files is
//! joined to the process whose `/proc/<pid>/cgroup` names that path. Untimed reads of one
//! counter (`cpu.stat.1`, `cpu.stat.2`; `before`, `after`) are ordered by their names, then by
//! the counter, and give a window of unknown length.
//!
//! Counters are cumulative since the cgroup was created (kernel `Documentation/admin-guide/
//! cgroup-v2.rst`, `cgroup-v1/memory.rst`, `scheduler/sched-bwc.rst`): two snapshots give their
//! change over the window; one snapshot gives a total since creation, which dates nothing.

use super::process::Processes;
use super::Jvm;
use crate::artifacts::{Artifact, Collected};
use crate::evidence::{Cited, Evidence};
use parsers::procs::cgroup::{Cgroup, CpuQuota};
use serde::Serialize;
use std::collections::BTreeMap;

/// A cumulative cgroup counter: its value at the last snapshot, and at the first one when the
/// bundle has two timed snapshots of the same folder.
#[derive(Debug, Clone, Serialize)]
pub struct CgroupCounter {
    /// Value at the first snapshot (the window's start); `None` with one snapshot.
    pub start: Option<Cited<u64>>,
    /// Value at the last snapshot (the window's end).
    pub end: Cited<u64>,
    /// Seconds between the snapshots (manifest start times); `None` with one snapshot.
    pub seconds: Option<f64>,
}

impl CgroupCounter {
    /// The increase over the window, else the total since the cgroup was created. A counter
    /// that went backwards (the cgroup was re-created) gives 0.
    pub fn delta(&self) -> u64 {
        match &self.start {
            Some(s) => self.end.value.saturating_sub(s.value),
            None => self.end.value,
        }
    }

    /// Both snapshot lines (or the one), as evidence with `note`.
    pub fn evidence(&self, note: &str) -> Vec<Evidence> {
        let mut ev = Vec::new();
        if let Some(s) = &self.start {
            ev.push(s.evidence(format!("{note} at the window's start")));
            ev.push(self.end.evidence(format!("{note} at the window's end")));
        } else {
            ev.push(
                self.end
                    .evidence(format!("{note}, since the cgroup was created")),
            );
        }
        ev
    }
}

/// The cgroups of one target process.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CgroupUsage {
    /// The folder its artifacts came from (`jvm/4242`, `proc/77`).
    pub dir: String,
    /// Process id, from the folder name.
    pub pid: Option<u32>,
    /// A name for the process: the JVM's label, else its `ps` command name, else `pid N`.
    pub process: String,
    /// The memory controller's cgroup path (`/system.slice/kafka.service`, v1 `/docker/3f1c…`).
    pub memory_path: Option<String>,
    /// The CPU controller's cgroup path.
    pub cpu_path: Option<String>,
    /// The tightest memory limit over the cgroup and its ancestors, bytes.
    pub memory_limit_bytes: Option<Cited<u64>>,
    /// Memory charged to the cgroup at the last snapshot, bytes (v2 `memory.current`, v1
    /// `memory.usage_in_bytes`).
    pub memory_usage_bytes: Option<Cited<u64>>,
    /// Processes killed by the OOM killer in this cgroup (v2 `memory.events` `oom_kill`, v1
    /// `memory.oom_control` `oom_kill`, Linux ≥ 4.13).
    pub oom_kills: Option<CgroupCounter>,
    /// v1 `memory.failcnt`: how often a charge hit the limit (and reclaim ran).
    pub memory_failcnt: Option<CgroupCounter>,
    /// v2 `memory.events` `max`: how often usage was about to exceed `memory.max`.
    pub memory_max_events: Option<CgroupCounter>,
    /// The tightest CFS quota over the cgroup and its ancestors.
    pub cpu_quota: Option<Cited<CpuQuota>>,
    /// `cpu.stat` `nr_periods`: enforcement periods in which the cgroup had runnable tasks.
    pub cpu_periods: Option<CgroupCounter>,
    /// `cpu.stat` `nr_throttled`: periods in which the quota ran out.
    pub cpu_throttled: Option<CgroupCounter>,
    /// Time the cgroup's tasks were throttled, microseconds (v2 `throttled_usec`; v1
    /// `throttled_time` is nanoseconds and converted).
    pub throttled_us: Option<CgroupCounter>,
}

/// One folder's snapshots: (artifact, record, manifest start time).
type Snaps<'a> = Vec<(&'a Artifact, &'a Cgroup, Option<f64>)>;

/// The folder of a bundle path (`jvm/4242/cgroup.tsv.end` → `jvm/4242`), `.` for none.
fn folder(path: &str) -> &str {
    path.rsplit_once('/').map_or(".", |(d, _)| d)
}

/// The pid a folder names (`jvm/4242`, `proc/77`).
fn pid_of(dir: &str) -> Option<u32> {
    dir.rsplit('/').next()?.parse().ok()
}

/// Where a file name puts a snapshot among untimed ones: `before`/`start` first,
/// `after`/`end` last, anything else (`cpu.stat`, `cpu.stat.1`) between.
fn name_rank(path: &str) -> u8 {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name.contains("before") || name.ends_with(".start") || name.ends_with("_start") {
        0
    } else if name.contains("after") || name.ends_with(".end") || name.ends_with("_end") {
        2
    } else {
        1
    }
}

/// A counter read from each snapshot by `read`: first and last when two timed snapshots with a
/// positive interval both carry it; else, when several untimed snapshots carry it, the
/// earliest and latest by their names (`before`/`after`, `.start`/`.end`) and then by the
/// counter itself (it only grows), with no window length; else the latest that carries it.
fn counter(snaps: &Snaps, read: impl Fn(&Cgroup) -> Option<(u64, usize)>) -> Option<CgroupCounter> {
    let cite = |a: &Artifact, (v, l): (u64, usize)| Cited::new(v, &a.path, l);
    let timed: Vec<_> = snaps
        .iter()
        .filter_map(|(a, c, t)| Some((*a, read(c)?, (*t)?)))
        .collect();
    if let (Some(first), Some(last)) = (timed.first(), timed.last()) {
        let seconds = last.2 - first.2;
        if seconds > 0.0 {
            return Some(CgroupCounter {
                start: Some(cite(first.0, first.1)),
                end: cite(last.0, last.1),
                seconds: Some(seconds),
            });
        }
    }
    if timed.is_empty() {
        let mut untimed: Vec<_> = snaps
            .iter()
            .filter_map(|(a, c, _)| Some((*a, read(c)?)))
            .collect();
        untimed.sort_by_key(|(a, (v, _))| (name_rank(&a.path), *v));
        if let [first, .., last] = untimed.as_slice() {
            return Some(CgroupCounter {
                start: Some(cite(first.0, first.1)),
                end: cite(last.0, last.1),
                seconds: None,
            });
        }
    }
    let (a, v) = snaps
        .iter()
        .rev()
        .find_map(|(a, c, _)| Some((*a, read(c)?)))?;
    Some(CgroupCounter {
        start: None,
        end: cite(a, v),
        seconds: None,
    })
}

/// The cgroup path a folder names when it lies under a cgroup mount
/// (`…/sys/fs/cgroup/kubepods.slice/pod1` → `/kubepods.slice/pod1`; v1
/// `…/sys/fs/cgroup/memory/app` → `/app`, the controller's folder left out).
fn cgroup_path_of(dir: &str) -> Option<String> {
    let (_, rest) = dir.split_once("sys/fs/cgroup/")?;
    let mut parts: Vec<&str> = rest.split('/').filter(|c| !c.is_empty()).collect();
    let controller = |c: &str| {
        c.split(',').all(|c| {
            matches!(
                c,
                "memory" | "cpu" | "cpuacct" | "cpuset" | "blkio" | "pids" | "unified"
            )
        })
    };
    if parts.first().is_some_and(|c| controller(c)) {
        parts.remove(0);
    }
    Some(format!("/{}", parts.join("/")))
}

/// Builds one [`CgroupUsage`] per process folder with `cgroup` artifacts, in folder order.
pub fn build(c: &Collected, jvms: &[Jvm], processes: &Processes) -> Vec<CgroupUsage> {
    let mut by_dir: BTreeMap<&str, Snaps> = BTreeMap::new();
    for (a, cg) in c.records::<Cgroup>() {
        let start = a.record.as_ref().and_then(|r| r.start);
        by_dir
            .entry(folder(&a.path))
            .or_default()
            .push((a, cg, start));
    }
    let mut out = Vec::new();
    for (dir, mut snaps) in by_dir {
        // Timed snapshots in time order; untimed ones by name (`.start` before `.end`).
        snaps.sort_by(|x, y| {
            x.2.partial_cmp(&y.2)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then_with(|| x.0.path.ends_with(".end").cmp(&y.0.path.ends_with(".end")))
        });
        if snaps.is_empty() {
            continue;
        }
        let pid = pid_of(dir);
        let process = jvms
            .iter()
            .find(|j| j.dir == dir || (pid.is_some() && j.pid == pid))
            .map(Jvm::label)
            .or_else(|| {
                let p = processes.list.iter().find(|p| Some(p.value.pid) == pid)?;
                Some(format!(
                    "{} (pid {})",
                    super::clip(&p.value.comm),
                    p.value.pid
                ))
            })
            .unwrap_or_else(|| match pid {
                Some(p) => format!("pid {p}"),
                None if dir == "." => "the bundle's top folder".to_string(),
                None => format!("folder {dir}"),
            });
        // The latest snapshot that has a value (loose files give one value per artifact).
        let latest = |read: &dyn Fn(&Cgroup) -> Option<(u64, usize)>| {
            snaps
                .iter()
                .rev()
                .find_map(|(a, c, _)| read(c).map(|(v, l)| Cited::new(v, &a.path, l)))
        };
        let path_of = |controller: &str| {
            snaps
                .iter()
                .rev()
                .find_map(|(_, c, _)| c.path_of(controller).map(|m| m.path.clone()))
                .or_else(|| cgroup_path_of(dir))
        };
        let cpu_stat = |key: &'static str| move |cg: &Cgroup| cg.keyed("cpu.stat", key);
        out.push(CgroupUsage {
            dir: dir.to_string(),
            pid,
            process,
            memory_path: path_of("memory"),
            cpu_path: path_of("cpu"),
            memory_limit_bytes: latest(&Cgroup::memory_limit_bytes),
            memory_usage_bytes: latest(&Cgroup::memory_usage_bytes),
            oom_kills: counter(&snaps, Cgroup::oom_kills),
            memory_failcnt: counter(&snaps, Cgroup::memory_failcnt),
            memory_max_events: counter(&snaps, |cg| cg.keyed("memory.events", "max")),
            cpu_quota: snaps.iter().rev().find_map(|(a, c, _)| {
                let q = c.cpu_quota()?;
                let line = q.line;
                Some(Cited::new(q, &a.path, line))
            }),
            cpu_periods: counter(&snaps, cpu_stat("nr_periods")),
            cpu_throttled: counter(&snaps, cpu_stat("nr_throttled")),
            throttled_us: counter(&snaps, |cg| {
                cg.keyed("cpu.stat", "throttled_usec").or_else(|| {
                    cg.keyed("cpu.stat", "throttled_time")
                        .map(|(ns, l)| (ns / 1000, l))
                })
            }),
        });
    }
    join_memberships(&mut out);
    out
}

/// Does this entry hold any control-file value (not only a process's membership)?
fn has_values(g: &CgroupUsage) -> bool {
    g.memory_limit_bytes.is_some()
        || g.memory_usage_bytes.is_some()
        || g.oom_kills.is_some()
        || g.memory_failcnt.is_some()
        || g.memory_max_events.is_some()
        || g.cpu_quota.is_some()
        || g.cpu_periods.is_some()
}

/// Joins a folder of loose control files that names no process (`sys/fs/cgroup/<path>/`) to
/// the process whose `/proc/PID/cgroup` names the same cgroup path, and drops that process's
/// entry when it held nothing but the membership.
fn join_memberships(out: &mut Vec<CgroupUsage>) {
    let mut joined = Vec::new();
    for i in 0..out.len() {
        if out[i].pid.is_some() || !has_values(&out[i]) {
            continue;
        }
        let paths = [out[i].memory_path.clone(), out[i].cpu_path.clone()];
        let owner = out.iter().position(|p| {
            p.pid.is_some()
                && !has_values(p)
                && paths
                    .iter()
                    .flatten()
                    .any(|c| p.memory_path.as_ref() == Some(c) || p.cpu_path.as_ref() == Some(c))
        });
        if let Some(j) = owner {
            out[i].pid = out[j].pid;
            out[i].process = out[j].process.clone();
            joined.push(j);
        }
    }
    let mut k = 0;
    out.retain(|_| {
        k += 1;
        !joined.contains(&(k - 1))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_and_pids() {
        assert_eq!(folder("jvm/4242/cgroup.tsv.end"), "jvm/4242");
        assert_eq!(folder("cgroup.tsv"), ".");
        assert_eq!(pid_of("rca-h/proc/77"), Some(77));
        assert_eq!(pid_of("."), None);
    }

    #[test]
    fn cgroup_paths_and_snapshot_order_from_names() {
        assert_eq!(
            cgroup_path_of("b/sys/fs/cgroup/kubepods.slice/pod1").as_deref(),
            Some("/kubepods.slice/pod1")
        );
        assert_eq!(
            cgroup_path_of("sys/fs/cgroup/cpu,cpuacct/app").as_deref(),
            Some("/app")
        );
        assert_eq!(cgroup_path_of("app-cg"), None);
        assert!(name_rank("a/cpu.stat.before") < name_rank("a/cpu.stat"));
        assert!(name_rank("a/cpu.stat") < name_rank("a/cpu.stat_after"));
        assert_eq!(name_rank("a/cpu.stat.1"), name_rank("a/cpu.stat.2"));
    }

    #[test]
    fn untimed_reads_are_ordered_by_name_then_by_the_counter() {
        let art = |p: &str| Artifact {
            path: p.to_string(),
            kind: None,
            kind_source: None,
            bytes: 0,
            outcome: crate::artifacts::Outcome::Parsed,
            issues: Vec::new(),
            record: None,
            text: "".into(),
            kept_lines: None,
            data: None,
            origin: None,
        };
        let read = |t: &str| {
            parsers::procs::cgroup::parse_file("cpu.stat", t)
                .unwrap()
                .value
        };
        let (a2, a1) = (art("x/cpu.stat.2"), art("x/cpu.stat.1"));
        let (c2, c1) = (read("nr_periods 126\n"), read("nr_periods 26\n"));
        // Listed in the wrong order: the counter puts 26 first.
        let snaps: Snaps = vec![(&a2, &c2, None), (&a1, &c1, None)];
        let k = counter(&snaps, |c| c.keyed("cpu.stat", "nr_periods")).unwrap();
        assert_eq!(k.start.as_ref().unwrap().value, 26);
        assert_eq!((k.end.value, k.delta(), k.seconds), (126, 100, None));
        // Names win: `before` is the start even when its counter is larger (re-created).
        let (b, e) = (art("x/cpu.stat.before"), art("x/cpu.stat"));
        let snaps: Snaps = vec![(&e, &c1, None), (&b, &c2, None)];
        let k = counter(&snaps, |c| c.keyed("cpu.stat", "nr_periods")).unwrap();
        assert_eq!(k.delta(), 0);
    }

    #[test]
    fn a_counter_without_a_start_is_its_total() {
        let k = CgroupCounter {
            start: None,
            end: Cited::new(8, "a", 3),
            seconds: None,
        };
        assert_eq!(k.delta(), 8);
        let k = CgroupCounter {
            start: Some(Cited::new(9, "a", 3)),
            end: Cited::new(8, "b", 3),
            seconds: Some(30.0),
        };
        assert_eq!(k.delta(), 0, "a re-created cgroup's counter went backwards");
    }
}
