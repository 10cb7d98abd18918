//! Process facts: what runs on the host, and who owns the established connections.
//!
//! In: `ps -eo ...` (or `top -b`), `ss -tanp`/`netstat -tanp`. Out: [`Processes`].

use super::Cited;
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
