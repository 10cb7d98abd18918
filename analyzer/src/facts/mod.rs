//! Facts about one host, combined from its parsed artifacts. Rules read facts, never artifacts.
//!
//! In: [`Collected`] artifacts. Out: [`HostFacts`]: identity, the collection window, per-device
//! I/O series, per-CPU utilisation series, soft-IRQ rates per CPU, loaded modules, network,
//! memory, time sync, kernel, processes, JVMs and ZooKeeper servers. Every sample
//! keeps the artifact path and input line it came from, so findings can cite it.

mod cited;
pub mod config;
mod cpu;
mod disk;
pub mod hadoop;
mod identity;
pub mod jvm;
pub mod kernel;
pub mod limits;
pub mod memory;
pub mod net;
pub mod platform;
pub mod process;
pub mod profile;
pub mod snapshots;
mod softirq;
pub mod timesync;
pub mod zookeeper;

pub use cited::Cited;
pub use cpu::{CpuSample, CpuSeries};
pub use disk::{DiskSample, DiskSeries};
pub use identity::Identity;
pub use jvm::Jvm;
pub use kernel::{Kernel, ModuleInfo};
pub use memory::Memory;
pub use net::{Channels, CounterChange, ListenQueue, NetStack, Nic, NicIrq, NicRates, Rings};
pub use process::{ConnectionCount, ProcessInfo, Processes};
pub use softirq::SoftirqFacts;
pub use timesync::TimeSync;
pub use zookeeper::ZkServer;

use crate::artifacts::Collected;
use crate::kinds::Data;
use parsers::kernel::modules::Module;
use serde::Serialize;

/// Everything rules know about one host.
#[derive(Debug, Clone, Default, Serialize)]
pub struct HostFacts {
    /// Host name, kernel, OS, architecture, CPU count.
    pub identity: Identity,
    /// Collection window from the manifest: start and end, UTC epoch seconds.
    pub window: Option<(f64, f64)>,
    /// Sampling interval in seconds, from the manifest.
    pub interval_s: Option<f64>,
    /// Per-device I/O series from `iostat -x` (since-boot report dropped).
    pub disks: Vec<DiskSeries>,
    /// Why `disks` is empty, when it is.
    pub disks_missing: Option<String>,
    /// Per-CPU utilisation series from `mpstat -P ALL` (the `all` row excluded).
    pub cpus: Vec<CpuSeries>,
    /// Why `cpus` is empty, when it is.
    pub cpus_missing: Option<String>,
    /// Soft-IRQ counters and rates from two `/proc/softirqs` snapshots.
    pub softirqs: Option<SoftirqFacts>,
    /// Why `softirqs` is `None`, when it is.
    pub softirqs_missing: Option<String>,
    /// Loaded modules (from `/proc/modules` when present, which carries taint letters; else
    /// `lsmod`), with the artifact they came from.
    pub modules: Vec<Module>,
    /// Path of the artifact `modules` came from.
    pub modules_source: Option<String>,
    /// Network interfaces.
    pub nics: Vec<Nic>,
    /// TCP stack and connection tracking.
    pub net: NetStack,
    /// Memory and swap.
    pub memory: Memory,
    /// Clock discipline.
    pub timesync: TimeSync,
    /// Taint, third-party modules, virtualization, sysctl.
    pub kernel: Kernel,
    /// Processes and their connections.
    pub processes: Processes,
    /// Java virtual machines with evidence in the bundle.
    pub jvms: Vec<Jvm>,
    /// ZooKeeper servers (four-letter words, `zoo.cfg`, or a ZooKeeper JVM).
    pub zookeeper: Vec<ZkServer>,
    /// Hadoop and YARN settings (`*-site.xml`).
    pub hadoop: hadoop::Hadoop,
    /// CPU profiles (`perf script`, else `perf report`).
    pub profiles: Vec<profile::Profile>,
    /// Service configuration files (`zoo.cfg`, Hadoop `*-site.xml`) as key/value maps.
    pub configs: Vec<config::ConfigFile>,
    /// Resource limits (`ulimit -a`, `/proc/<pid>/limits`).
    pub limits: limits::Limits,
    /// CPU model and topology (`lscpu`), kernel command line.
    pub platform: platform::Platform,
}

impl HostFacts {
    /// Builds the facts for one bundle.
    pub fn from_collected(c: &Collected) -> HostFacts {
        let mut f = HostFacts {
            identity: identity::build(c),
            ..Default::default()
        };
        if let Some(m) = &c.manifest {
            if let (Some(s), Some(e)) = (m.meta_f64("started"), m.meta_f64("ended")) {
                f.window = Some((s, e));
            }
            f.interval_s = m.meta_f64("interval");
        }
        match disk::build(c) {
            Ok(d) => f.disks = d,
            Err(why) => f.disks_missing = Some(why),
        }
        match cpu::build(c) {
            Ok(s) => f.cpus = s,
            Err(why) => f.cpus_missing = Some(why),
        }
        match softirq::build(c) {
            Ok(s) => f.softirqs = Some(s),
            Err(why) => f.softirqs_missing = Some(why),
        }
        let proc_modules = c.parsed("proc-modules").find_map(|(a, d)| match d {
            Data::ProcModules(m) => Some((a, m)),
            _ => None,
        });
        let lsmod = c.parsed("lsmod").find_map(|(a, d)| match d {
            Data::Lsmod(m) => Some((a, m)),
            _ => None,
        });
        if let Some((a, m)) = proc_modules.or(lsmod) {
            f.modules = m.clone();
            f.modules_source = Some(a.path.clone());
        }
        f.processes = process::build(c);
        f.kernel = kernel::build(c, &f.modules, f.modules_source.as_deref());
        f.memory = memory::build(c, &f.kernel.sysctl, &f.modules, f.modules_source.as_deref());
        (f.nics, f.net) = net::build(c, &f.kernel.sysctl);
        f.timesync = timesync::build(c, &f.processes);
        f.jvms = jvm::build(c, f.interval_s, &f.processes);
        f.zookeeper = zookeeper::build(c, &f.jvms);
        f.hadoop = hadoop::build(c);
        f.profiles = profile::build(c);
        f.configs = config::build(c);
        f.limits = limits::build(c, &f.processes);
        f.platform = platform::build(c);
        if f.identity.cpus.is_none() {
            f.identity.cpus = c.parsed("lscpu").find_map(|(_, d)| match d {
                Data::Lscpu(l) => l.cpus,
                _ => None,
            });
        }
        f
    }
}

/// Longest name or value copied from the bundle into facts, in characters.
pub const CLIP_CHARS: usize = 256;

/// `s` cut to [`CLIP_CHARS`] characters (with `…`): a single value from an untrusted bundle (a
/// symbol, a version string, a class name) must not carry megabytes into the report.
pub fn clip(s: &str) -> String {
    if s.len() <= CLIP_CHARS {
        return s.to_string();
    }
    let mut out: String = s.chars().take(CLIP_CHARS).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// A display label for a sysstat timestamp: `2024-05-01 12:00:01` or `12:00:01`.
pub fn time_label(t: &parsers::common::Timestamp) -> String {
    let s = t.seconds_of_day;
    let hms = format!("{:02}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
    match t.date {
        Some(d) => format!("{:04}-{:02}-{:02} {hms}", d.year, d.month, d.day),
        None => hms,
    }
}
