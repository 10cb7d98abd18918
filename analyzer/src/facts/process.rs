//! Process facts: what runs on the host, and who owns the established connections.
//!
//! In: `ps -eo ...` (or `top -b`), `ss -tanp`/`netstat -tanp`. Out: [`Processes`].

use crate::evidence::Cited;
use serde::Serialize;

/// Processes seen on the host.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Processes {
    /// One entry per process, from `ps`.
    pub list: Vec<Cited<ProcessInfo>>,
    /// Established TCP connections per owning command, descending.
    pub connections: Vec<Cited<ConnectionCount>>,
}

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

use crate::artifacts::Collected;
use parsers::procs::{netstat::Netstat, ps::PsTable, ss::SsTable};

/// Builds the process list (`ps`) and established connections per command (`ss` preferred,
/// then `netstat -tanp`, the end-of-window snapshot when there are two).
pub fn build(c: &Collected) -> Processes {
    let mut out = Processes::default();
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
