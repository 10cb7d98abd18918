//! Hardware and boot configuration: CPU model and topology, kernel command line.
//!
//! In: `lscpu`, `/proc/cmdline`. Out: [`Platform`].

use crate::artifacts::Collected;
use crate::evidence::Cited;
use parsers::host::lscpu::Lscpu;
use parsers::kernel::cmdline::Cmdline;
use parsers::kind;
use parsers::procs::uptime::Uptime;
use serde::Serialize;

/// CPU model, topology and boot parameters.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Platform {
    /// `lscpu` `Model name` (`Kunpeng-920`, `Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz`).
    pub cpu_model: Option<Cited<String>>,
    /// `lscpu` `Socket(s)`.
    pub sockets: Option<Cited<u32>>,
    /// `lscpu` `Thread(s) per core`.
    pub threads_per_core: Option<Cited<u32>>,
    /// `lscpu` `NUMA node(s)`.
    pub numa_nodes: Option<Cited<u32>>,
    /// Time since boot when the bundle was taken, seconds: `/proc/uptime` (the latest
    /// snapshot), else the `uptime` command (to the minute).
    pub uptime_s: Option<Cited<f64>>,
    /// `/proc/cmdline` parameters in order: `key` or `key=value`.
    pub cmdline: Option<Cited<Vec<String>>>,
}

/// Builds the platform facts.
pub fn build(c: &Collected) -> Platform {
    let mut p = Platform::default();
    if let Some((a, l)) = c.records::<Lscpu>().next() {
        let line = |k: &str| l.line_of(k).unwrap_or(1);
        p.cpu_model = l
            .model_name
            .clone()
            .map(|m| Cited::new(m, &a.path, line("Model name")));
        p.sockets = l.sockets.map(|v| Cited::new(v, &a.path, line("Socket(s)")));
        p.threads_per_core = l
            .threads_per_core
            .map(|v| Cited::new(v, &a.path, line("Thread(s) per core")));
        p.numa_nodes = l
            .numa_nodes
            .map(|v| Cited::new(v, &a.path, line("NUMA node(s)")));
    }
    if let Some((a, k)) = c.records::<Cmdline>().next() {
        let words = k
            .params
            .iter()
            .map(|x| match &x.value {
                Some(v) => format!("{}={v}", x.key),
                None => x.key.clone(),
            })
            .collect();
        p.cmdline = Some(Cited::new(words, &a.path, k.line.max(1)));
    }
    let up = super::snapshots::latest(c, &kind::PROC_UPTIME, |u: &Uptime| Some(u))
        .or_else(|| super::snapshots::latest(c, &kind::UPTIME, |u: &Uptime| Some(u)));
    p.uptime_s = up.map(|(a, u)| Cited::new(u.seconds, &a.path, u.line));
    p
}
