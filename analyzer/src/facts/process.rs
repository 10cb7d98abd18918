//! Process facts: what runs on the host, and who owns the established connections.
//!
//! In: `ps -eo ...` (else the last frame of `top -b`), `ss -tanp`/`netstat -tanp`. Out:
//! [`Processes`], with whether the list is complete: only a complete list lets a rule conclude
//! that something does *not* run.

use crate::evidence::Cited;
use serde::Serialize;

/// Processes seen on the host.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Processes {
    /// One entry per process, from `ps`.
    pub list: Vec<Cited<ProcessInfo>>,
    /// Established TCP connections per owning command, descending.
    pub connections: Vec<Cited<ConnectionCount>>,
    /// Whether `list` holds every process of the host.
    pub listing: Listing,
}

/// Whether a process list is complete, so that absence from it means "does not run".
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "state", content = "reason", rename_all = "snake_case")]
pub enum Listing {
    /// Every process: `ps` showing PID 1 (and not far fewer processes than `top` counted), or a
    /// `top` frame listing as many tasks as its `Tasks: N total` line counts.
    Complete,
    /// Some processes only, or none: why absence cannot be concluded.
    Partial(String),
}

impl Default for Listing {
    fn default() -> Self {
        Listing::Partial("no process list (`ps` or `top -b`) in the bundle".into())
    }
}

impl Listing {
    /// `true` for [`Listing::Complete`].
    pub fn is_complete(&self) -> bool {
        matches!(self, Listing::Complete)
    }

    /// Why the list is partial; `None` when complete.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Listing::Complete => None,
            Listing::Partial(r) => Some(r),
        }
    }
}

/// `ps` listing fewer than this share of the tasks `top` counted is a partial listing: processes
/// come and go between the two commands, but not by a tenth of the host.
const PS_SHARE_OF_TOP: f64 = 0.9;

/// One process.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ProcessInfo {
    /// Process id.
    pub pid: u32,
    /// Command name (`comm`).
    pub comm: String,
    /// Full command line, when shown.
    pub args: String,
    /// Time since the process started, seconds (`ps` `etimes`), when shown.
    pub elapsed_s: Option<u64>,
}

/// Established connections of one command.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ConnectionCount {
    /// Command name.
    pub comm: String,
    /// ESTABLISHED connections.
    pub established: usize,
    /// Distinct remote peers (address without port).
    pub peers: usize,
}

impl Processes {
    /// The first process whose command name is one of `names` (exact match), with its evidence.
    pub fn find(&self, names: &[&str]) -> Option<&Cited<ProcessInfo>> {
        self.list
            .iter()
            .find(|p| names.contains(&p.value.comm.as_str()))
    }

    /// Processes that are JVMs (`java` command or a `java` binary in the command line).
    pub fn jvms(&self) -> impl Iterator<Item = &Cited<ProcessInfo>> {
        self.list.iter().filter(|p| {
            p.value.comm == "java"
                || p.value
                    .args
                    .split_whitespace()
                    .next()
                    .is_some_and(|a| a.ends_with("/java") || a == "java")
        })
    }
}

/// Completeness of a `ps` list: PID 1 shown, and not far fewer processes than `top` counted.
fn ps_listing(list: &[Cited<ProcessInfo>], top_total: Option<u32>) -> Listing {
    if !list.iter().any(|p| p.value.pid == 1) {
        return Listing::Partial(
            "`ps` shows no PID 1: a listing of some processes only (one user's, one terminal's, \
             or cut short)"
                .into(),
        );
    }
    match top_total {
        Some(n) if (list.len() as f64) < f64::from(n) * PS_SHARE_OF_TOP => {
            Listing::Partial(format!(
                "`ps` lists {} processes where `top` counted {n} tasks",
                list.len()
            ))
        }
        _ => Listing::Complete,
    }
}

use crate::artifacts::Collected;
use parsers::procs::{netstat::Netstat, ps::PsTable, ss::SsTable, top::Top};

/// Builds the process list (`ps`) and established connections per command (`ss` preferred,
/// then `netstat -tanp`, the end-of-window snapshot when there are two).
pub fn build(c: &Collected) -> Processes {
    let mut out = Processes::default();
    // `Tasks: N total` of the last `top` frame with one, and that frame.
    let top = c.records::<Top>().find_map(|(a, t)| {
        let f = t.frames.iter().rev().find(|f| f.tasks.is_some())?;
        Some((a, f, f.tasks?.total?))
    });
    if let Some((a, t)) = c.records::<PsTable>().next() {
        for p in &t.processes {
            if p.thread_of.is_some() {
                continue;
            }
            let (Some(pid), Some(name)) = (p.pid, p.name()) else {
                continue;
            };
            out.list.push(Cited::new(
                ProcessInfo {
                    pid,
                    comm: name.to_string(),
                    args: p.args.clone().unwrap_or_default(),
                    elapsed_s: p.elapsed_s,
                },
                &a.path,
                p.line,
            ));
        }
    }
    if !out.list.is_empty() {
        out.listing = ps_listing(&out.list, top.as_ref().map(|&(_, _, n)| n));
    } else if let Some((a, frame, total)) = top {
        for p in &frame.processes {
            let command = p.command.clone().unwrap_or_default();
            let comm = command
                .split_whitespace()
                .next()
                .map(|w| w.rsplit('/').next().unwrap_or(w).to_string())
                .unwrap_or_default();
            out.list.push(Cited::new(
                ProcessInfo {
                    pid: p.pid,
                    comm,
                    args: command,
                    elapsed_s: None,
                },
                &a.path,
                p.line,
            ));
        }
        let shown = frame.processes.len();
        out.listing = if shown as u64 >= u64::from(total) {
            Listing::Complete
        } else {
            Listing::Partial(format!(
                "`top` lists {shown} of the {total} tasks its `Tasks:` line counts (a top-N listing)"
            ))
        };
    }
    let conns = c
        .records::<SsTable>()
        .filter(|(a, _)| !a.path.contains("tulpn"))
        .map(|(a, t)| (a, parsers::procs::established_by_process(t.established())))
        .last()
        .or_else(|| {
            c.records::<Netstat>()
                .map(|(a, t)| (a, parsers::procs::established_by_process(t.established())))
                .last()
        });
    if let Some((a, list)) = conns {
        for pc in list {
            let mut lines = pc.lines.clone();
            lines.truncate(6);
            lines.insert(0, 1);
            out.connections.push(Cited::lines(
                ConnectionCount {
                    comm: pc.process.clone(),
                    established: pc.established,
                    peers: pc.peers.len(),
                },
                &a.path,
                lines,
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::Limits;

    fn facts(files: &[(&str, &str)]) -> Processes {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            std::fs::write(dir.path().join(path), text).unwrap();
        }
        let c = crate::artifacts::collect(dir.path(), &Limits::default()).unwrap();
        for (path, _) in files {
            let a = c.artifacts.iter().find(|a| a.path.ends_with(path)).unwrap();
            assert!(a.data.is_some(), "{path}: {:?}", a.outcome);
        }
        build(&c)
    }

    const PS_ALL: &str = "    PID COMMAND         COMMAND\n      1 systemd         /sbin/init\n      2 kthreadd        [kthreadd]\n    812 sshd            sshd: /usr/sbin/sshd -D\n";
    const TOP_HEAD: &str = "top - 11:24:50 up 2 min,  2 users,  load average: 0.23, 0.22, 0.09\nTasks: 112 total,   1 running, 111 sleeping,   0 stopped,   0 zombie\n%Cpu(s):  5.9 us,  5.9 sy,  0.0 ni, 88.2 id,  0.0 wa,  0.0 hi,  0.0 si,  0.0 st\nMiB Mem :   3770.8 total,   3365.7 free,    211.9 used,    193.3 buff/cache\nMiB Swap:   2048.0 total,   2048.0 free,      0.0 used.   3338.4 avail Mem\n\n    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND\n   1935 testusr   20   0  161888   2108   1520 R   6.2   0.1   0:00.01 top\n      1 root      20   0  125644   4008   2600 S   0.0   0.1   0:01.10 systemd\n";

    #[test]
    fn a_ps_with_pid_1_is_complete_and_one_without_is_not() {
        assert_eq!(facts(&[("ps.txt", PS_ALL)]).listing, Listing::Complete);
        let partial = PS_ALL.replace("      1 systemd         /sbin/init\n", "");
        let l = facts(&[("ps.txt", &partial)]).listing;
        assert!(l.reason().is_some_and(|r| r.contains("no PID 1")), "{l:?}");
    }

    #[test]
    fn a_top_n_listing_is_partial_and_makes_ps_beside_it_partial_too() {
        // `top` alone: 2 rows of the 112 tasks it counted.
        let p = facts(&[("top.txt", TOP_HEAD)]);
        assert_eq!(p.list.len(), 2);
        assert_eq!(p.list[1].value.comm, "systemd");
        assert!(
            p.listing
                .reason()
                .is_some_and(|r| r.contains("2 of the 112")),
            "{:?}",
            p.listing
        );
        // `ps` with PID 1 but 3 processes where `top` counted 112: partial.
        let p = facts(&[("ps.txt", PS_ALL), ("top.txt", TOP_HEAD)]);
        assert_eq!(p.list.len(), 3, "ps is the list when there is one");
        assert!(p
            .listing
            .reason()
            .is_some_and(|r| r.contains("3 processes")));
    }

    #[test]
    fn a_top_frame_listing_every_task_is_complete() {
        let full = TOP_HEAD.replace("Tasks: 112 total", "Tasks:   2 total");
        assert_eq!(facts(&[("top.txt", &full)]).listing, Listing::Complete);
    }

    #[test]
    fn no_list_is_partial() {
        assert!(facts(&[]).listing.reason().is_some());
    }
}
