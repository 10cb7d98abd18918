//! Resource limits: the shell's `ulimit -a`, `/proc/<pid>/limits` of examined processes with
//! their open descriptors, and the host's file handles.
//!
//! In: `ulimit`, `proc-limits`, `fd-count` and `file-nr` artifacts (else `fs.file-nr` of
//! `sysctl -a`). Out: [`Limits`], every value keyed by the kernel resource it shows
//! (`RLIMIT_NOFILE`), so bash, BusyBox, dash and `/proc` outputs compare.

use crate::artifacts::Collected;
use crate::evidence::Cited;
use parsers::{
    proc::fd_count::FdCount,
    proc::file_nr::FileNr,
    proc::limits::{LimitValue, ProcLimits, Resource},
    procs::ulimit::Ulimit,
};
use serde::Serialize;
use std::collections::BTreeMap;

/// Resource limits of one host.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Limits {
    /// `ulimit -a` of a login-like shell, by key ([`resource_key`], else the name as printed).
    pub shell: BTreeMap<String, Cited<Limit>>,
    /// `/proc/<pid>/limits` of each examined process, by the folder it was collected in.
    pub processes: Vec<ProcessLimits>,
    /// The host's file handles (`/proc/sys/fs/file-nr`, else `fs.file-nr` in `sysctl -a`): the
    /// latest read. The two are reads at different moments of a count that changes with every
    /// open, so a difference between them is no conflict: the file is taken when present.
    pub file_nr: Option<Cited<FileNr>>,
}

/// One limit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Limit {
    /// Name as printed (`pending signals`, `Max open files`).
    pub name: String,
    /// The soft limit (the one enforced).
    pub soft: LimitValue,
    /// The hard limit, when printed (`/proc/<pid>/limits` only).
    pub hard: Option<LimitValue>,
    /// Unit as printed (`kbytes`, `files`), when printed.
    pub unit: Option<String>,
}

impl Limit {
    /// `unlimited` or the number (with its unit when known).
    pub fn display(&self) -> String {
        let v = |x: LimitValue| match x {
            LimitValue::Unlimited => "unlimited".to_string(),
            LimitValue::Value(n) => n.to_string(),
        };
        let mut s = v(self.soft);
        if let Some(h) = self.hard.filter(|h| *h != self.soft) {
            s.push_str(&format!(" (hard {})", v(h)));
        }
        s
    }
}

/// `/proc/<pid>/limits` of one process.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ProcessLimits {
    /// Process id, from the folder name (`jvm/4242/limits`, `proc/17/limits`).
    pub pid: Option<u32>,
    /// Command name, from `ps` when the PID is listed.
    pub comm: Option<String>,
    /// Limits by key, as in [`Limits::shell`].
    pub limits: BTreeMap<String, Cited<Limit>>,
    /// Open descriptors (the entries of `/proc/<pid>/fd`, counted), when collected.
    pub open_fds: Option<Cited<u64>>,
    /// The folder the process's files were collected in (`jvm/4242`, `proc/17`).
    pub dir: String,
}

/// The kernel's name of a resource (`RLIMIT_NOFILE`).
pub fn resource_key(r: Resource) -> &'static str {
    match r {
        Resource::Cpu => "RLIMIT_CPU",
        Resource::Fsize => "RLIMIT_FSIZE",
        Resource::Data => "RLIMIT_DATA",
        Resource::Stack => "RLIMIT_STACK",
        Resource::Core => "RLIMIT_CORE",
        Resource::Rss => "RLIMIT_RSS",
        Resource::Nproc => "RLIMIT_NPROC",
        Resource::Nofile => "RLIMIT_NOFILE",
        Resource::Memlock => "RLIMIT_MEMLOCK",
        Resource::As => "RLIMIT_AS",
        Resource::Locks => "RLIMIT_LOCKS",
        Resource::Sigpending => "RLIMIT_SIGPENDING",
        Resource::Msgqueue => "RLIMIT_MSGQUEUE",
        Resource::Nice => "RLIMIT_NICE",
        Resource::Rtprio => "RLIMIT_RTPRIO",
        Resource::Rttime => "RLIMIT_RTTIME",
    }
}

/// The PID in a `…/<pid>/limits` path.
fn pid_of(path: &str) -> Option<u32> {
    let mut parts = path.rsplit('/');
    parts.next()?;
    parts.next()?.parse().ok()
}

/// The folder of a path (`jvm/4242/limits` → `jvm/4242`).
fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(d, _)| d)
}

/// Builds the limits from `ulimit -a` (the first parsed), every `/proc/<pid>/limits` and
/// descriptor count, and the host's file handles; `procs` names the processes, `sysctl` is
/// `sysctl -a` by key.
pub fn build(
    c: &Collected,
    procs: &super::Processes,
    sysctl: &BTreeMap<String, Cited<String>>,
) -> Limits {
    let mut out = Limits::default();
    if let Some((a, u)) = c.records::<Ulimit>().next() {
        for e in &u.entries {
            let key = e
                .resource
                .map(|r| resource_key(r).to_string())
                .unwrap_or_else(|| e.name.clone());
            out.shell.insert(
                key,
                Cited::new(
                    Limit {
                        name: e.name.clone(),
                        soft: e.value,
                        hard: None,
                        unit: e.unit.clone(),
                    },
                    &a.path,
                    e.line,
                ),
            );
        }
    }
    for (a, p) in c.records::<ProcLimits>() {
        let pid = pid_of(&a.path);
        let comm = pid.and_then(|pid| {
            procs
                .list
                .iter()
                .find(|x| x.value.pid == pid)
                .map(|x| x.value.comm.clone())
        });
        let mut limits = BTreeMap::new();
        for l in &p.limits {
            let key = l
                .resource
                .map(|r| resource_key(r).to_string())
                .unwrap_or_else(|| l.name.clone());
            limits.insert(
                key,
                Cited::new(
                    Limit {
                        name: l.name.clone(),
                        soft: l.soft,
                        hard: Some(l.hard),
                        unit: l.units.clone(),
                    },
                    &a.path,
                    l.line,
                ),
            );
        }
        out.processes.push(ProcessLimits {
            pid,
            comm,
            limits,
            open_fds: None,
            dir: dir_of(&a.path).to_string(),
        });
    }
    for (a, n) in c.records::<FdCount>() {
        let dir = dir_of(&a.path);
        let open = Cited::new(n.open, &a.path, n.line);
        match out.processes.iter_mut().find(|p| p.dir == dir) {
            Some(p) => p.open_fds = Some(open),
            None => {
                let pid = pid_of(&a.path);
                out.processes.push(ProcessLimits {
                    pid,
                    comm: pid.and_then(|pid| {
                        procs
                            .list
                            .iter()
                            .find(|x| x.value.pid == pid)
                            .map(|x| x.value.comm.clone())
                    }),
                    limits: BTreeMap::new(),
                    open_fds: Some(open),
                    dir: dir.to_string(),
                });
            }
        }
    }
    out.file_nr = super::snapshots::latest(c, &parsers::kind::FILE_NR, |x: &FileNr| Some(x))
        .map(|(a, x)| Cited::new(*x, &a.path, x.line))
        .or_else(|| {
            let v = sysctl.get("fs.file-nr")?;
            let line = v.lines.first().copied().unwrap_or(1);
            FileNr::from_values(&v.value, line).map(|x| Cited {
                value: x,
                artifact: v.artifact.clone(),
                lines: v.lines.clone(),
            })
        });
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn pid_comes_from_the_folder() {
        assert_eq!(super::pid_of("jvm/4242/limits"), Some(4242));
        assert_eq!(super::pid_of("proc/17/limits"), Some(17));
        assert_eq!(super::pid_of("limits"), None);
    }
}
