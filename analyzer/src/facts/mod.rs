//! Facts about one host, combined from its parsed artifacts. Rules read facts, never artifacts.
//!
//! In: [`Collected`] artifacts. Out: [`HostFacts`]: identity, the collection window, per-device
//! I/O series, per-CPU utilisation series, soft-IRQ rates per CPU, loaded modules, network,
//! memory, time sync, kernel, processes, JVMs and ZooKeeper servers, and the sampled quantities
//! on one time axis ([`series`]). Every sample keeps the artifact path and input line it came
//! from, so findings can cite it.

mod available;
pub mod cgroup;
pub mod config;
pub mod conflicts;
mod cpu;
mod disk;
pub mod gaps;
pub mod hadoop;
mod identity;
pub mod jvm;
pub mod kernel;
pub mod klog;
pub mod limits;
pub mod memory;
pub mod net;
pub mod numa;
pub mod platform;
pub mod process;
pub mod profile;
pub mod sched;
pub mod series;
pub mod services;
pub mod snapshots;
mod softirq;
pub mod storage;
pub mod tcp;
pub mod thp;
pub mod timesync;
pub mod zookeeper;

pub use available::{Available, Missing, ModuleList};
pub use cpu::{CpuSample, CpuSeries};
pub use disk::{DiskSample, DiskSeries};
pub use identity::Identity;
pub use jvm::Jvm;
pub use kernel::{Kernel, ModuleInfo};
pub use memory::Memory;
pub use net::stats_windows;
pub use net::{
    Channels, CounterChange, ListenQueue, NetStack, Nic, NicIrq, NicRates, NicStats, NicTotals,
    Rings, StatsWindow,
};
pub use process::{ConnectionCount, ProcessInfo, Processes};
pub use softirq::SoftirqFacts;
pub use timesync::TimeSync;
pub use zookeeper::ZkServer;

use crate::artifacts::Collected;
use parsers::host::lscpu::Lscpu;
use parsers::kernel::modules::Module;
use parsers::kind;
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
    /// Per-device I/O series from `iostat -x`, else `sar -d` (since-boot report dropped).
    pub disks: Available<Vec<DiskSeries>>,
    /// Per-CPU utilisation series from `mpstat -P ALL`, else `sar -P ALL` or `/proc/stat`
    /// snapshots (the `all` row excluded).
    pub cpus: Available<Vec<CpuSeries>>,
    /// Soft-IRQ counters and rates from two `/proc/softirqs` snapshots.
    pub softirqs: Available<SoftirqFacts>,
    /// Loaded modules (from `/proc/modules` when present, which carries taint letters; else
    /// `lsmod`), with the artifact they came from.
    pub modules: Available<ModuleList>,
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
    /// Filesystems (`df`, `df -i`, the mount table) and the block-device stack (`lsblk`,
    /// `/sys/block`).
    pub storage: storage::Storage,
    /// CPU profiles (`perf script`, else `perf report`).
    pub profiles: Vec<profile::Profile>,
    /// Service configuration files (`zoo.cfg`, Hadoop `*-site.xml`) as key/value maps.
    pub configs: Vec<config::ConfigFile>,
    /// Resource limits (`ulimit -a`, `/proc/<pid>/limits`).
    pub limits: limits::Limits,
    /// CPU model and topology (`lscpu`), kernel command line.
    pub platform: platform::Platform,
    /// Run queue, load averages, all-CPU steal, pressure stall information, CPU frequency.
    pub sched: sched::Sched,
    /// The sampled quantities (CPU, disk, network, GC, swap) on one time axis.
    pub series: Option<series::TimeSeries>,
    /// Why `series` is `None`, when it is.
    pub series_missing: Option<String>,
    /// Host facts that two artifacts state differently: the canonical source's value was taken.
    pub conflicts: Vec<conflicts::Conflict>,
    /// Kernel log events (`journalctl -k`, `/var/log/messages`, `kern.log`, `dmesg`).
    pub klog: Available<klog::KernelLog>,
    /// The cgroups of the target processes: limits, OOM kills, CPU throttling.
    pub cgroups: Vec<cgroup::CgroupUsage>,
    /// Transparent huge page settings and compaction counters.
    pub thp: thp::Thp,
    /// Evidence the collection tool says it left missing or cut (sos plugins and commands
    /// stopped at their time budget).
    pub gaps: Vec<gaps::CollectionGap>,
    /// systemd units as `systemctl status` showed them.
    pub services: Available<Vec<crate::evidence::Cited<services::Service>>>,
}

impl HostFacts {
    /// Builds the facts for one bundle.
    ///
    /// The facts that read only the artifacts (disk, CPU and soft-IRQ series, profiles,
    /// configuration files, platform, scheduler, THP, services, collection gaps) are built in
    /// parallel with those that build on other facts, which are built in order (conflicts are
    /// noted in that order); the result does not depend on the number of threads.
    pub fn from_collected(c: &Collected) -> HostFacts {
        let (mut f, ((disks, cpus, softirqs), (profiles, configs, platform, rest))) = rayon::join(
            || HostFacts::linked(c),
            || {
                rayon::join(
                    || {
                        (
                            Available::from_result(disk::build(c)),
                            Available::from_result(cpu::build(c)),
                            Available::from_result(softirq::build(c)),
                        )
                    },
                    || {
                        (
                            profile::build(c),
                            config::build(c),
                            platform::build(c),
                            (
                                sched::build(c),
                                thp::build(c),
                                Available::from_result(services::build(c)),
                                gaps::build(c),
                            ),
                        )
                    },
                )
            },
        );
        (f.disks, f.cpus, f.softirqs) = (disks, cpus, softirqs);
        (f.profiles, f.configs, f.platform) = (profiles, configs, platform);
        (f.sched, f.thp, f.services, f.gaps) = rest;
        if f.identity.cpus.is_none() {
            f.identity.cpus = c.records::<Lscpu>().find_map(|(_, l)| l.cpus);
        }
        match series::build(&f, c) {
            Ok(s) => f.series = Some(s),
            Err(why) => f.series_missing = Some(why),
        }
        let offset = f.series.as_ref().and_then(|s| s.clock.utc_offset_s);
        let uptime = f.platform.uptime_s.as_ref().map(|u| u.value);
        f.klog = match klog::build(c, f.window, uptime, offset) {
            Some(k) => Available::Present(k),
            None => Available::missing(
                "no kernel log (`journalctl -k`, `/var/log/messages`, `kern.log`, `dmesg`) was parsed",
            ),
        };
        f
    }

    /// The facts that build on other facts, in order: identity, modules, processes, kernel,
    /// memory, network, time sync, JVMs, ZooKeeper, Hadoop, storage, limits and cgroups.
    fn linked(c: &Collected) -> HostFacts {
        let mut f = HostFacts::default();
        f.identity = identity::build(c, &mut f.conflicts);
        if let Some(m) = &c.manifest {
            if let (Some(s), Some(e)) = (m.meta.started, m.meta.ended) {
                f.window = Some((s, e));
            }
            f.interval_s = m.meta.interval;
        }
        let proc_modules = c.records_of::<Vec<Module>>(&kind::PROC_MODULES).next();
        let lsmod = c.records_of::<Vec<Module>>(&kind::LSMOD).next();
        f.modules = match proc_modules.or(lsmod) {
            Some((a, m)) => Available::Present(ModuleList {
                artifact: a.path.clone(),
                modules: m.clone(),
            }),
            None => Available::missing("no `/proc/modules` or `lsmod` output was parsed"),
        };
        f.processes = process::build(c);
        f.kernel = kernel::build(c, f.modules.get(), &mut f.conflicts);
        f.memory = memory::build(c, &f.kernel.sysctl, f.modules.get(), &mut f.conflicts);
        (f.nics, f.net) = net::build(c, &f.kernel.sysctl);
        snapshots::unpaired(c, &mut f.conflicts);
        f.timesync = timesync::build(c, &f.processes);
        f.jvms = jvm::build(c, f.interval_s, &f.processes);
        f.zookeeper = zookeeper::build(c, &f.jvms);
        f.hadoop = hadoop::build(c);
        f.storage = storage::build(c, &f.processes, &f.zookeeper, &f.hadoop);
        f.limits = limits::build(c, &f.processes, &f.kernel.sysctl);
        f.cgroups = cgroup::build(c, &f.jvms, &f.processes);
        f
    }
}

/// A part of [`HostFacts`], as a rule names what it reads (its `needs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Fact {
    /// [`HostFacts::identity`].
    Identity,
    /// [`HostFacts::disks`].
    Disks,
    /// [`HostFacts::cpus`].
    Cpus,
    /// [`HostFacts::softirqs`].
    Softirqs,
    /// [`HostFacts::modules`].
    Modules,
    /// [`HostFacts::nics`].
    Nics,
    /// [`HostFacts::net`].
    Net,
    /// [`HostFacts::memory`].
    Memory,
    /// [`HostFacts::timesync`].
    Timesync,
    /// [`HostFacts::kernel`].
    Kernel,
    /// [`HostFacts::processes`].
    Processes,
    /// [`HostFacts::jvms`].
    Jvms,
    /// [`HostFacts::zookeeper`].
    Zookeeper,
    /// [`HostFacts::hadoop`].
    Hadoop,
    /// [`HostFacts::profiles`].
    Profiles,
    /// [`HostFacts::klog`].
    KernelLog,
    /// [`HostFacts::storage`].
    Storage,
    /// [`HostFacts::sched`].
    Sched,
    /// [`HostFacts::cgroups`].
    Cgroups,
    /// [`HostFacts::thp`].
    Thp,
    /// [`HostFacts::limits`].
    Limits,
    /// [`HostFacts::services`].
    Services,
}

impl Fact {
    /// The field of [`HostFacts`] (`disks`).
    pub fn name(self) -> &'static str {
        match self {
            Fact::Identity => "identity",
            Fact::Disks => "disks",
            Fact::Cpus => "cpus",
            Fact::Softirqs => "softirqs",
            Fact::Modules => "modules",
            Fact::Nics => "nics",
            Fact::Net => "net",
            Fact::Memory => "memory",
            Fact::Timesync => "timesync",
            Fact::Kernel => "kernel",
            Fact::Processes => "processes",
            Fact::Jvms => "jvms",
            Fact::Zookeeper => "zookeeper",
            Fact::Hadoop => "hadoop",
            Fact::Profiles => "profiles",
            Fact::KernelLog => "klog",
            Fact::Storage => "storage",
            Fact::Sched => "sched",
            Fact::Cgroups => "cgroups",
            Fact::Thp => "thp",
            Fact::Limits => "limits",
            Fact::Services => "services",
        }
    }

    /// What the part holds and which artifacts it comes from, for the rule reference.
    pub fn describe(self) -> &'static str {
        match self {
            Fact::Identity => "host identity and CPU count (`uname`, `lscpu`, `nproc`)",
            Fact::Disks => "per-device I/O series (`iostat -x`, else `sar -d`)",
            Fact::Cpus => "per-CPU utilisation series (`mpstat -P ALL`, else `sar -P ALL`, `/proc/stat`)",
            Fact::Softirqs => "soft-IRQ rates per CPU (two `/proc/softirqs` snapshots)",
            Fact::Modules => "loaded modules (`/proc/modules`, else `lsmod`)",
            Fact::Nics => "network interfaces (`ethtool`, `ip link`, `/proc/net/dev`, `/proc/interrupts`)",
            Fact::Net => "TCP stack and connection tracking (`netstat -s`/`nstat`, `ss -ltn`, `sysctl -a`)",
            Fact::Memory => "memory, swap and balloon (`/proc/meminfo`, `vmstat`, `sysctl -a`, `vmware-toolbox-cmd`)",
            Fact::Timesync => "clock discipline (`chronyc`, `ntpq`, `timedatectl`, `vmware-toolbox-cmd`)",
            Fact::Kernel => "taint, third-party modules, virtualization, sysctl (`/proc/sys/kernel/tainted`, `modinfo`, `systemd-detect-virt`)",
            Fact::Processes => "processes and their connections (`ps`, `ss`)",
            Fact::Jvms => "JVMs: GC series, GC log, heap, histogram, threads (`jstat`, `jcmd`, GC logs)",
            Fact::Zookeeper => "ZooKeeper servers (four-letter words, `zoo.cfg`)",
            Fact::Hadoop => "Hadoop and YARN settings (`*-site.xml`)",
            Fact::Profiles => "CPU profiles (`perf script`, else `perf report`)",
            Fact::KernelLog => "kernel log events (`journalctl -k`, `/var/log/messages`, `kern.log`, `dmesg`)",
            Fact::Storage => "filesystems and the block-device stack (`df`, `df -i`, `/proc/mounts`, `lsblk`, `/sys/block`)",
            Fact::Cgroups => "the target processes' cgroups: limits, OOM kills, CPU throttling (the collector's `cgroup.tsv` at the window's start and end)",
            Fact::Thp => "transparent huge page settings and compaction counters (`transparent_hugepage/{enabled,defrag}`, `/proc/vmstat`)",
            Fact::Limits => "resource limits and open descriptors (`ulimit -a`, `/proc/<pid>/limits`, `/proc/<pid>/fd` counts, `/proc/sys/fs/file-nr`)",
            Fact::Services => "systemd units: state, last exit, restarts (`systemctl status`)",
            Fact::Sched => "run queue, load, all-CPU steal, pressure, CPU frequency (`vmstat`, `sar -q`, `/proc/loadavg`, `/proc/pressure/*`, cpufreq sysfs, `cpupower`, `tuned-adm`, `/proc/cpuinfo`)",
        }
    }

    /// The artifact kinds (their names) this part is read from: a gap in one of them is a gap
    /// in the part.
    pub fn kinds(self) -> &'static [&'static str] {
        match self {
            Fact::Identity => &["uname", "os-release", "lscpu", "cpuinfo"],
            Fact::Disks => &["iostat", "sar", "sadf-json", "diskstats", "oswiostat"],
            Fact::Cpus => &["mpstat", "sar", "sadf-json", "proc-stat", "oswmpstat"],
            Fact::Softirqs => &["softirqs"],
            Fact::Modules => &["proc-modules", "lsmod"],
            Fact::Nics => &[
                "ethtool-i",
                "ethtool-l",
                "ethtool-g",
                "ethtool-k",
                "ethtool-c",
                "ethtool-S",
                "ip-link",
                "net-dev",
                "interrupts",
                "bonding",
                "irq-affinity",
            ],
            Fact::Net => &[
                "netstat-s",
                "nstat",
                "net-snmp",
                "ss",
                "ss-s",
                "sysctl",
                "conntrack-s",
                "nf-conntrack-stat",
                "softnet-stat",
            ],
            Fact::Memory => &[
                "meminfo",
                "vmstat",
                "proc-vmstat",
                "free",
                "swaps",
                "swapon",
                "sysctl",
                "balloon",
            ],
            Fact::Timesync => &[
                "chronyc-tracking",
                "chronyc-sources",
                "ntpq",
                "timedatectl",
                "vmware-timesync",
            ],
            Fact::Kernel => &[
                "tainted",
                "modinfo",
                "detect-virt",
                "sysctl",
                "proc-modules",
                "lsmod",
            ],
            Fact::Processes => &["ps", "top", "ss", "netstat-tanp", "pidstat"],
            Fact::Jvms => &[
                "jstat-gcutil",
                "class-histogram",
                "gc-heap-info",
                "thread-dump",
                "gc-log",
                "java-version",
                "jcmd-vm-version",
                "jcmd-vm-flags",
                "jcmd-vm-command-line",
                "jcmd-vm-system-properties",
                "jps",
            ],
            Fact::Zookeeper => &["zk-mntr", "zk-wchs", "zk-conf", "zk-srvr", "zoo-cfg"],
            Fact::Hadoop => &["hadoop-site-xml"],
            Fact::Profiles => &["perf-script", "perf-report"],
            Fact::KernelLog => &["syslog", "dmesg"],
            Fact::Storage => &[
                "df",
                "mounts",
                "lsblk",
                "sys-block-queue",
                "sys-block-slaves",
            ],
            Fact::Sched => &[
                "vmstat",
                "sar",
                "loadavg",
                "pressure",
                "cpufreq",
                "cpupower-frequency-info",
                "tuned-adm",
                "cpuinfo",
            ],
            Fact::Cgroups => &["cgroup"],
            Fact::Thp => &["thp", "thp-file", "proc-vmstat"],
            Fact::Limits => &["ulimit", "proc-limits", "fd-count", "file-nr"],
            Fact::Services => &["systemctl-status"],
        }
    }

    /// Why this part is missing from `f`, for the parts that say so ([`Available`]); `None` when
    /// it is present or carries no availability.
    pub fn missing(self, f: &HostFacts) -> Option<&str> {
        match self {
            Fact::Disks => f.disks.reason(),
            Fact::Cpus => f.cpus.reason(),
            Fact::Softirqs => f.softirqs.reason(),
            Fact::Modules => f.modules.reason(),
            Fact::KernelLog => f.klog.reason(),
            Fact::Services => f.services.reason(),
            _ => None,
        }
    }
}

pub use parsers::common::{clip, CLIP_CHARS};

/// A display label for a sysstat timestamp: `2024-05-01 12:00:01` or `12:00:01`.
pub fn time_label(t: &parsers::common::Timestamp) -> String {
    let s = t.seconds_of_day;
    let hms = format!("{:02}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
    match t.date {
        Some(d) => format!("{:04}-{:02}-{:02} {hms}", d.year, d.month, d.day),
        None => hms,
    }
}
