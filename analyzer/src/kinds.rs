//! Artifact kinds: how a file in a bundle is recognised and which parser reads it.
//!
//! Resolution order, first match wins:
//! 1. the kind the collector wrote in `manifest.tsv`;
//! 2. the known path table below (collector layout and sosreport paths), matched against the
//!    end of the entry's path so any top folder is allowed;
//! 3. content sniffing: every parser looks at the first lines and answers yes / no / unsure;
//!    a single "yes" wins, else a single "unsure", else the file is unrecognised.
//!
//! The table is declarative data: adding a kind means adding one [`KindSpec`].

use parsers::host::{os_release::OsRelease, uname::Uname};
use parsers::kernel::modules::Module;
use parsers::proc::softirqs::Softirqs;
use parsers::sysstat::iostat::Iostat;
use parsers::sysstat::mpstat::Mpstat;
use parsers::{LineIssue, ParseError, Parsed, Sniff};
use regex::RegexSet;
use serde::Serialize;
use std::sync::LazyLock;

/// A parsed artifact, by kind.
#[derive(Debug, Clone)]
pub enum Data {
    /// `iostat -x` text or JSON.
    Iostat(Iostat),
    /// `mpstat -P ALL` text or JSON.
    Mpstat(Mpstat),
    /// One `/proc/softirqs` snapshot.
    Softirqs(Softirqs),
    /// `/proc/modules` (with taint letters).
    ProcModules(Vec<Module>),
    /// `lsmod`.
    Lsmod(Vec<Module>),
    /// `uname -a`.
    Uname(Uname),
    /// `/etc/os-release`.
    OsRelease(OsRelease),
    /// sysstat `sar` text or `sadf -j`.
    Sar(parsers::sysstat::sar::Sar),
    /// `pidstat`.
    Pidstat(parsers::sysstat::pidstat::Pidstat),
    /// procps `vmstat`.
    Vmstat(parsers::procs::vmstat::Vmstat),
    /// `/proc/interrupts`.
    Interrupts(parsers::proc::interrupts::Interrupts),
    /// `/proc/stat`.
    ProcStat(parsers::proc::stat::ProcStat),
    /// `/proc/vmstat`.
    ProcVmstat(parsers::proc::vmstat::ProcVmstat),
    /// `/proc/meminfo`.
    Meminfo(parsers::proc::meminfo::Meminfo),
    /// `/proc/diskstats`.
    Diskstats(parsers::proc::diskstats::Diskstats),
    /// `/proc/net/dev`.
    NetDev(parsers::proc::net_dev::NetDev),
    /// `/proc/net/snmp`, `/proc/net/netstat` or `nstat -az`.
    Snmp(parsers::proc::snmp::Snmp),
    /// `netstat -s`.
    NetstatS(parsers::net::netstat_s::NetstatS),
    /// `/proc/swaps` or `swapon --show`.
    Swaps(parsers::proc::swaps::Swaps),
    /// procps `free`.
    Free(parsers::procs::free::Free),
    /// `ethtool -i`.
    EthtoolDriver(parsers::net::ethtool::driver::DriverInfo),
    /// `ethtool -l`.
    EthtoolChannels(parsers::net::ethtool::channels::Channels),
    /// `ethtool -g`.
    EthtoolRings(parsers::net::ethtool::rings::Rings),
    /// `ethtool -k`.
    EthtoolFeatures(parsers::net::ethtool::features::Features),
    /// `ethtool -c`.
    EthtoolCoalesce(parsers::net::ethtool::coalesce::Coalesce),
    /// `ethtool -S`.
    EthtoolStats(parsers::net::ethtool::stats::Stats),
    /// `lspci -k`.
    Lspci(parsers::host::lspci::Lspci),
    /// `ip -s link`.
    IpLink(parsers::net::iplink::Links),
    /// `/proc/net/bonding/*`.
    Bonding(parsers::net::bonding::Bond),
    /// IRQ affinity listing.
    IrqAffinity(parsers::net::irq_affinity::IrqAffinity),
    /// `sysctl -a`.
    Sysctl(parsers::kernel::sysctl::Sysctl),
    /// `ulimit -a`.
    Ulimit(parsers::procs::ulimit::Ulimit),
    /// `/proc/<pid>/limits`.
    ProcLimits(parsers::proc::limits::ProcLimits),
    /// `/proc/cmdline`.
    Cmdline(parsers::kernel::cmdline::Cmdline),
    /// `/proc/sys/kernel/tainted`.
    Tainted(parsers::kernel::taint::Taint),
    /// `modinfo`.
    Modinfo(Vec<parsers::kernel::modinfo::ModInfo>),
    /// `dmesg`.
    Dmesg(parsers::kernel::dmesg::Dmesg),
    /// `chronyc tracking`.
    ChronyTracking(parsers::time::chrony_tracking::Tracking),
    /// `chronyc sources`.
    ChronySources(parsers::time::chrony_sources::Sources),
    /// `ntpq -pn`.
    Ntpq(parsers::time::ntpq::Peers),
    /// `timedatectl`.
    Timedatectl(parsers::time::timedatectl::Timedatectl),
    /// `vmware-toolbox-cmd timesync status`.
    VmwareTimesync(parsers::time::vmware_timesync::VmwareTimesync),
    /// `dmidecode`.
    Dmidecode(parsers::host::dmidecode::Dmidecode),
    /// `systemd-detect-virt`.
    DetectVirt(parsers::host::detect_virt::DetectVirt),
    /// `lscpu`.
    Lscpu(parsers::host::lscpu::Lscpu),
    /// `ps`.
    Ps(parsers::procs::ps::PsTable),
    /// `top -b`.
    Top(parsers::procs::top::Top),
    /// `ss -tanp`.
    Ss(parsers::procs::ss::SsTable),
    /// `netstat -tanp`.
    NetstatConn(parsers::procs::netstat::Netstat),
    /// `vmware-toolbox-cmd stat balloon`.
    VmwareBalloon(parsers::host::vmware_balloon::Balloon),
    /// `jstat`.
    Jstat(parsers::jvm::jstat::Jstat),
    /// class histogram.
    Histogram(parsers::jvm::histogram::Histogram),
    /// `java -version`.
    JavaVersion(parsers::jvm::java_version::JavaVersion),
    /// `jcmd VM.version`.
    VmVersion(parsers::jvm::vm_version::VmVersion),
    /// `jcmd VM.flags`.
    VmFlags(parsers::jvm::vm_flags::VmFlags),
    /// `jcmd VM.command_line`.
    VmCommandLine(parsers::jvm::vm_command_line::VmCommandLine),
    /// `jcmd VM.system_properties`.
    SystemProperties(parsers::jvm::vm_system_properties::SystemProperties),
    /// thread dump.
    ThreadDump(parsers::jvm::thread_dump::ThreadDump),
    /// `zoo.cfg`.
    ZooCfg(parsers::zookeeper::config::ZooCfg),
    /// ZooKeeper `conf`.
    ZkConf(parsers::zookeeper::config::ZkConf),
    /// ZooKeeper `mntr`.
    ZkMntr(parsers::zookeeper::mntr::Mntr),
    /// ZooKeeper `wchs`.
    ZkWchs(parsers::zookeeper::wchs::Wchs),
    /// ZooKeeper `srvr`.
    ZkSrvr(parsers::zookeeper::srvr::Srvr),
    /// JVM GC log.
    GcLog(parsers::jvm::gclog::GcLog),
    /// Hadoop `*-site.xml` (core, hdfs, yarn, mapred, …).
    HadoopConf(parsers::hadoop::site_xml::HadoopConf),
    /// cgroup membership and limits of one process (collector's `cgroup.tsv`).
    Cgroup(parsers::procs::cgroup::Cgroup),
    /// `/proc/<pid>/status`.
    ProcStatus(parsers::proc::status::ProcStatus),
    /// `jps -lv` (or `jps`, `-l`, `-lmv`).
    Jps(parsers::jvm::jps::Jps),
    /// Thread counts by name of one JVM (collector's `threads.tsv`).
    JvmThreads(parsers::jvm::thread_counts::JvmThreads),
    /// `perf script`, read into a profile (samples are not kept).
    PerfScript(Box<crate::facts::profile::Profile>),
    /// `perf report --stdio` / `perf top` text.
    PerfReport(parsers::perf::report::PerfReport),
    /// A text artifact kept as lines (the collector's own log).
    Text,
}

type ParseFn = fn(&str) -> Result<(Data, Vec<LineIssue>), ParseError>;

/// What a streaming parser made of an entry it read without holding it.
#[derive(Debug)]
pub struct Streamed {
    /// Kind name (`perf-script`).
    pub kind: &'static str,
    /// Bytes read.
    pub bytes: u64,
    /// The parse result.
    pub parsed: Result<(Data, Vec<LineIssue>), ParseError>,
    /// The input lines kept for citing, `(1-based line, text)`, ascending.
    pub kept: Vec<(usize, String)>,
}

/// A parser that reads its input as a stream (a `perf script` of a gigabyte).
pub type StreamFn = fn(&mut dyn std::io::BufRead) -> Streamed;

/// Whether a command of `kind` that exited with `exit` still gave its answer in `text`: tools that
/// report a result through a non-zero status. `systemd-detect-virt` exits 1 after printing
/// `none` on bare metal.
pub fn exit_is_answer(kind: Option<&str>, exit: i32, text: &str) -> bool {
    matches!((kind, exit), (Some("detect-virt"), 1)) && text.trim() == "none"
}

/// The streaming parser for an entry at `path`, if its kind has one: `perf-script` paths.
pub fn streamer(path: &str) -> Option<StreamFn> {
    let spec = by_path(path)?;
    (spec.name == "perf-script").then_some(stream_perf_script as StreamFn)
}

fn stream_perf_script(r: &mut dyn std::io::BufRead) -> Streamed {
    let (parsed, kept) = match crate::facts::profile::from_reader(r) {
        Ok((p, kept)) => (Ok((Data::PerfScript(Box::new(p.value)), p.issues)), kept),
        Err(e) => (Err(e), Vec::new()),
    };
    Streamed {
        kind: "perf-script",
        bytes: 0,
        parsed,
        kept,
    }
}

/// One artifact kind.
pub struct KindSpec {
    /// Stable kind name, as written in the manifest (`iostat`).
    pub name: &'static str,
    /// What produces it, for the report (`sysstat iostat -x`).
    pub source: &'static str,
    /// Path patterns (regular expressions matched against the whole bundle path).
    pub paths: &'static [&'static str],
    /// Content sniffer, if the format can be recognised from its first lines.
    pub sniff: Option<fn(&str) -> Sniff>,
    /// Parser; `None` for kinds collected but not analyzed in this version.
    pub parse: Option<ParseFn>,
}

fn wrap<T>(
    r: Result<Parsed<T>, ParseError>,
    f: fn(T) -> Data,
) -> Result<(Data, Vec<LineIssue>), ParseError> {
    r.map(|p| (f(p.value), p.issues))
}

/// Every kind rca knows, in sniffing precedence order.
pub static KINDS: &[KindSpec] = &[
    KindSpec {
        name: "iostat",
        source: "sysstat `iostat -x` (text or -o JSON)",
        paths: &[
            r"(^|/)sysstat/iostat[^/]*$",
            r"(^|/)iostat(_-[a-zA-Z_0-9-]+)?(\.txt|\.json|\.log)?$",
        ],
        sniff: Some(parsers::sysstat::iostat::sniff),
        parse: Some(|t| wrap(parsers::sysstat::iostat::parse(t), Data::Iostat)),
    },
    KindSpec {
        name: "mpstat",
        source: "sysstat `mpstat -P ALL` (text or -o JSON)",
        paths: &[
            r"(^|/)sysstat/mpstat[^/]*$",
            r"(^|/)mpstat(_-[a-zA-Z_0-9-]+)?(\.txt|\.json|\.log)?$",
        ],
        sniff: Some(parsers::sysstat::mpstat::sniff),
        parse: Some(|t| wrap(parsers::sysstat::mpstat::parse(t), Data::Mpstat)),
    },
    KindSpec {
        name: "softirqs",
        source: "`/proc/softirqs`",
        paths: &[r"(^|/)proc/softirqs(\.[A-Za-z0-9_-]+)?$"],
        sniff: Some(parsers::proc::softirqs::sniff),
        parse: Some(|t| wrap(parsers::proc::softirqs::parse(t), Data::Softirqs)),
    },
    KindSpec {
        name: "proc-modules",
        source: "`/proc/modules`",
        paths: &[r"(^|/)proc/modules$"],
        sniff: Some(parsers::kernel::modules::sniff_proc_modules),
        parse: Some(|t| {
            wrap(
                parsers::kernel::modules::parse_proc_modules(t),
                Data::ProcModules,
            )
        }),
    },
    KindSpec {
        name: "lsmod",
        source: "kmod `lsmod`",
        paths: &[r"(^|/)lsmod(\.txt)?$"],
        sniff: Some(parsers::kernel::lsmod::sniff_lsmod),
        parse: Some(|t| wrap(parsers::kernel::lsmod::parse_lsmod(t), Data::Lsmod)),
    },
    KindSpec {
        name: "uname",
        source: "`uname -a`",
        paths: &[r"(^|/)uname(_-a)?(\.txt)?$"],
        sniff: Some(parsers::host::uname::sniff_uname),
        parse: Some(|t| wrap(parsers::host::uname::parse_uname(t), Data::Uname)),
    },
    KindSpec {
        name: "os-release",
        source: "`/etc/os-release`",
        paths: &[r"(^|/)os-release$"],
        sniff: Some(parsers::host::os_release::sniff_os_release),
        parse: Some(|t| {
            wrap(
                parsers::host::os_release::parse_os_release(t),
                Data::OsRelease,
            )
        }),
    },
    KindSpec {
        name: "sar",
        source: "sysstat `sar` (text)",
        paths: &[
            r"(^|/)sysstat/sar[^/]*\.txt$",
            r"(^|/)sar(_-[A-Za-z_0-9-]+)?(\.txt|\.log)?$",
            r"(^|/)sa/sar[0-9]+$",
        ],
        sniff: Some(parsers::sysstat::sar::sniff),
        parse: Some(|t| wrap(parsers::sysstat::sar::parse(t), Data::Sar)),
    },
    KindSpec {
        name: "sadf-json",
        source: "sysstat `sadf -j`",
        paths: &[r"(^|/)sysstat/sa[0-9]*\.json$", r"(^|/)sadf[^/]*\.json$"],
        sniff: Some(parsers::sysstat::sadf::sniff),
        parse: Some(|t| wrap(parsers::sysstat::sadf::parse(t), Data::Sar)),
    },
    KindSpec {
        name: "pidstat",
        source: "sysstat `pidstat`",
        paths: &[
            r"(^|/)sysstat/pidstat[^/]*$",
            r"(^|/)pidstat(_-[A-Za-z_0-9-]+)?(\.txt|\.log)?$",
        ],
        sniff: Some(parsers::sysstat::pidstat::sniff),
        parse: Some(|t| wrap(parsers::sysstat::pidstat::parse(t), Data::Pidstat)),
    },
    KindSpec {
        name: "vmstat",
        source: "procps `vmstat`",
        paths: &[
            r"(^|/)sysstat/vmstat[^/]*$",
            r"(^|/)(mem/)?vmstat(_-[A-Za-z_0-9-]+)?(\.txt|\.log)?$",
        ],
        sniff: Some(parsers::procs::vmstat::sniff),
        parse: Some(|t| wrap(parsers::procs::vmstat::parse(t), Data::Vmstat)),
    },
    KindSpec {
        name: "interrupts",
        source: "`/proc/interrupts`",
        paths: &[r"(^|/)proc/interrupts(\.[A-Za-z0-9_-]+)?$"],
        sniff: Some(parsers::proc::interrupts::sniff),
        parse: Some(|t| wrap(parsers::proc::interrupts::parse(t), Data::Interrupts)),
    },
    KindSpec {
        name: "proc-stat",
        source: "`/proc/stat`",
        paths: &[r"(^|/)proc/stat(\.[A-Za-z0-9_-]+)?$"],
        sniff: Some(parsers::proc::stat::sniff),
        parse: Some(|t| wrap(parsers::proc::stat::parse(t), Data::ProcStat)),
    },
    KindSpec {
        name: "proc-vmstat",
        source: "`/proc/vmstat`",
        paths: &[r"(^|/)proc/vmstat(\.[A-Za-z0-9_-]+)?$"],
        sniff: Some(parsers::proc::vmstat::sniff),
        parse: Some(|t| wrap(parsers::proc::vmstat::parse(t), Data::ProcVmstat)),
    },
    KindSpec {
        name: "meminfo",
        source: "`/proc/meminfo`",
        paths: &[r"(^|/)proc/meminfo(\.[A-Za-z0-9_-]+)?$"],
        sniff: Some(parsers::proc::meminfo::sniff),
        parse: Some(|t| wrap(parsers::proc::meminfo::parse(t), Data::Meminfo)),
    },
    KindSpec {
        name: "diskstats",
        source: "`/proc/diskstats`",
        paths: &[r"(^|/)proc/diskstats(\.[A-Za-z0-9_-]+)?$"],
        sniff: Some(parsers::proc::diskstats::sniff),
        parse: Some(|t| wrap(parsers::proc::diskstats::parse(t), Data::Diskstats)),
    },
    KindSpec {
        name: "net-dev",
        source: "`/proc/net/dev`",
        paths: &[r"(^|/)proc/net/dev(\.[A-Za-z0-9_-]+)?$"],
        sniff: Some(parsers::proc::net_dev::sniff),
        parse: Some(|t| wrap(parsers::proc::net_dev::parse(t), Data::NetDev)),
    },
    KindSpec {
        name: "net-snmp",
        source: "`/proc/net/snmp` or `/proc/net/netstat`",
        paths: &[r"(^|/)proc/net/(snmp|netstat|snmp6)(\.[A-Za-z0-9_-]+)?$"],
        sniff: Some(parsers::proc::snmp::sniff),
        parse: Some(|t| wrap(parsers::proc::snmp::parse(t), Data::Snmp)),
    },
    KindSpec {
        name: "nstat",
        source: "iproute2 `nstat -az`",
        paths: &[r"(^|/)nstat(_-[A-Za-z]+)?(\.[A-Za-z0-9_-]+)?$"],
        sniff: Some(parsers::proc::snmp::sniff_nstat),
        parse: Some(|t| wrap(parsers::proc::snmp::parse_nstat(t), Data::Snmp)),
    },
    KindSpec {
        name: "netstat-s",
        source: "net-tools `netstat -s`",
        paths: &[r"(^|/)netstat(_-s|-s)(\.[A-Za-z0-9_-]+)?$"],
        sniff: Some(parsers::net::netstat_s::sniff),
        parse: Some(|t| wrap(parsers::net::netstat_s::parse(t), Data::NetstatS)),
    },
    KindSpec {
        name: "swaps",
        source: "`/proc/swaps` or `swapon --show`",
        paths: &[r"(^|/)proc/swaps$", r"(^|/)swapon(_--show)?(\.txt)?$"],
        sniff: Some(parsers::proc::swaps::sniff),
        parse: Some(|t| wrap(parsers::proc::swaps::parse(t), Data::Swaps)),
    },
    KindSpec {
        name: "free",
        source: "procps `free` (KiB unless the manifest says `-m`/`-g`)",
        paths: &[r"(^|/)free(_-[a-z]+)?(\.txt)?$"],
        sniff: Some(parsers::procs::free::sniff),
        parse: Some(|t| wrap(parsers::procs::free::parse(t), Data::Free)),
    },
    KindSpec {
        name: "ethtool-i",
        source: "`ethtool -i`",
        paths: &[r"(^|/)ethtool-i(\.txt)?$", r"(^|/)ethtool_-i_[^/]+$"],
        sniff: Some(parsers::net::ethtool::driver::sniff_driver),
        parse: Some(|t| {
            wrap(
                parsers::net::ethtool::driver::parse_driver(t),
                Data::EthtoolDriver,
            )
        }),
    },
    KindSpec {
        name: "ethtool-l",
        source: "`ethtool -l`",
        paths: &[r"(^|/)ethtool-l(\.txt)?$", r"(^|/)ethtool_-l_[^/]+$"],
        sniff: Some(parsers::net::ethtool::channels::sniff_channels),
        parse: Some(|t| {
            wrap(
                parsers::net::ethtool::channels::parse_channels(t),
                Data::EthtoolChannels,
            )
        }),
    },
    KindSpec {
        name: "ethtool-g",
        source: "`ethtool -g`",
        paths: &[r"(^|/)ethtool-g(\.txt)?$", r"(^|/)ethtool_-g_[^/]+$"],
        sniff: Some(parsers::net::ethtool::rings::sniff_rings),
        parse: Some(|t| {
            wrap(
                parsers::net::ethtool::rings::parse_rings(t),
                Data::EthtoolRings,
            )
        }),
    },
    KindSpec {
        name: "ethtool-k",
        source: "`ethtool -k`",
        paths: &[r"(^|/)ethtool-k(\.txt)?$", r"(^|/)ethtool_-k_[^/]+$"],
        sniff: Some(parsers::net::ethtool::features::sniff_features),
        parse: Some(|t| {
            wrap(
                parsers::net::ethtool::features::parse_features(t),
                Data::EthtoolFeatures,
            )
        }),
    },
    KindSpec {
        name: "ethtool-c",
        source: "`ethtool -c`",
        paths: &[r"(^|/)ethtool-c(\.txt)?$", r"(^|/)ethtool_-c_[^/]+$"],
        sniff: Some(parsers::net::ethtool::coalesce::sniff_coalesce),
        parse: Some(|t| {
            wrap(
                parsers::net::ethtool::coalesce::parse_coalesce(t),
                Data::EthtoolCoalesce,
            )
        }),
    },
    KindSpec {
        name: "ethtool-S",
        source: "`ethtool -S`",
        paths: &[r"(^|/)ethtool-S(\.txt)?$", r"(^|/)ethtool_-S_[^/]+$"],
        sniff: Some(parsers::net::ethtool::stats::sniff_stats),
        parse: Some(|t| {
            wrap(
                parsers::net::ethtool::stats::parse_stats(t),
                Data::EthtoolStats,
            )
        }),
    },
    KindSpec {
        name: "lspci",
        source: "`lspci -k`",
        paths: &[r"(^|/)lspci(-k|_-k|_-nnvv)?(\.txt)?$"],
        sniff: Some(parsers::host::lspci::sniff),
        parse: Some(|t| wrap(parsers::host::lspci::parse(t), Data::Lspci)),
    },
    KindSpec {
        name: "ip-link",
        source: "iproute2 `ip -s link`",
        paths: &[
            r"(^|/)ip-s-link(\.txt)?$",
            r"(^|/)ip_-s_-d_link$",
            r"(^|/)ip_-s_link$",
        ],
        sniff: Some(parsers::net::iplink::sniff),
        parse: Some(|t| wrap(parsers::net::iplink::parse(t), Data::IpLink)),
    },
    KindSpec {
        name: "bonding",
        source: "`/proc/net/bonding/*`",
        paths: &[r"(^|/)(proc/)?net/bonding/[^/]+$"],
        sniff: Some(parsers::net::bonding::sniff),
        parse: Some(|t| wrap(parsers::net::bonding::parse(t), Data::Bonding)),
    },
    KindSpec {
        name: "irq-affinity",
        source: "IRQ affinity listing (collector)",
        paths: &[r"(^|/)irq-affinity\.tsv$"],
        sniff: Some(parsers::net::irq_affinity::sniff),
        parse: Some(|t| wrap(parsers::net::irq_affinity::parse(t), Data::IrqAffinity)),
    },
    KindSpec {
        name: "sysctl",
        source: "`sysctl -a`",
        paths: &[r"(^|/)sysctl(-a|_-a)(\.txt)?$"],
        sniff: Some(parsers::kernel::sysctl::sniff),
        parse: Some(|t| wrap(parsers::kernel::sysctl::parse(t), Data::Sysctl)),
    },
    KindSpec {
        name: "ulimit",
        source: "`ulimit -a`",
        paths: &[r"(^|/)ulimit(-a|_-a)?(\.txt)?$"],
        sniff: Some(parsers::procs::ulimit::sniff_ulimit),
        parse: Some(|t| wrap(parsers::procs::ulimit::parse_ulimit(t), Data::Ulimit)),
    },
    KindSpec {
        name: "proc-limits",
        source: "`/proc/<pid>/limits`",
        paths: &[r"(^|/)limits$"],
        sniff: Some(parsers::proc::limits::sniff_proc_limits),
        parse: Some(|t| {
            wrap(
                parsers::proc::limits::parse_proc_limits(t),
                Data::ProcLimits,
            )
        }),
    },
    KindSpec {
        name: "cmdline",
        source: "`/proc/cmdline`",
        paths: &[r"(^|/)(kernel|proc)/cmdline$"],
        sniff: Some(parsers::kernel::cmdline::sniff_cmdline),
        parse: Some(|t| wrap(parsers::kernel::cmdline::parse_cmdline(t), Data::Cmdline)),
    },
    KindSpec {
        name: "tainted",
        source: "`/proc/sys/kernel/tainted`",
        paths: &[r"(^|/)tainted$"],
        sniff: Some(parsers::kernel::taint::sniff_tainted),
        parse: Some(|t| wrap(parsers::kernel::taint::parse_tainted(t), Data::Tainted)),
    },
    KindSpec {
        name: "modinfo",
        source: "kmod `modinfo`",
        paths: &[r"(^|/)modinfo[^/]*(\.txt)?$"],
        sniff: Some(parsers::kernel::modinfo::sniff_modinfo),
        parse: Some(|t| wrap(parsers::kernel::modinfo::parse_modinfo(t), Data::Modinfo)),
    },
    KindSpec {
        name: "dmesg",
        source: "`dmesg`",
        paths: &[r"(^|/)dmesg(\.txt)?$"],
        sniff: Some(parsers::kernel::dmesg::sniff_dmesg),
        parse: Some(|t| wrap(parsers::kernel::dmesg::parse_dmesg(t), Data::Dmesg)),
    },
    KindSpec {
        name: "chronyc-tracking",
        source: "chrony `chronyc tracking`",
        paths: &[r"(^|/)chronyc(_-n)?[-_]tracking(\.txt)?$"],
        sniff: Some(parsers::time::chrony_tracking::sniff_tracking),
        parse: Some(|t| {
            wrap(
                parsers::time::chrony_tracking::parse_tracking(t),
                Data::ChronyTracking,
            )
        }),
    },
    KindSpec {
        name: "chronyc-sources",
        source: "chrony `chronyc sources`",
        paths: &[r"(^|/)chronyc(_-n)?[-_]sources(_-v)?(\.txt)?$"],
        sniff: Some(parsers::time::chrony_sources::sniff_sources),
        parse: Some(|t| {
            wrap(
                parsers::time::chrony_sources::parse_sources(t),
                Data::ChronySources,
            )
        }),
    },
    KindSpec {
        name: "ntpq",
        source: "`ntpq -pn`",
        paths: &[r"(^|/)ntpq([-_]-?pn?)?(\.txt)?$"],
        sniff: Some(parsers::time::ntpq::sniff_ntpq),
        parse: Some(|t| wrap(parsers::time::ntpq::parse_ntpq(t), Data::Ntpq)),
    },
    KindSpec {
        name: "timedatectl",
        source: "systemd `timedatectl`",
        paths: &[r"(^|/)timedatectl(\.txt)?$"],
        sniff: Some(parsers::time::timedatectl::sniff_timedatectl),
        parse: Some(|t| {
            wrap(
                parsers::time::timedatectl::parse_timedatectl(t),
                Data::Timedatectl,
            )
        }),
    },
    KindSpec {
        name: "vmware-timesync",
        source: "`vmware-toolbox-cmd timesync status`",
        paths: &[r"(^|/)vmware-timesync(\.txt)?$"],
        sniff: Some(parsers::time::vmware_timesync::sniff_vmware_timesync),
        parse: Some(|t| {
            wrap(
                parsers::time::vmware_timesync::parse_vmware_timesync(t),
                Data::VmwareTimesync,
            )
        }),
    },
    KindSpec {
        name: "dmidecode",
        source: "`dmidecode`",
        paths: &[r"(^|/)dmidecode[^/]*$"],
        sniff: Some(parsers::host::dmidecode::sniff_dmidecode),
        parse: Some(|t| {
            wrap(
                parsers::host::dmidecode::parse_dmidecode(t),
                Data::Dmidecode,
            )
        }),
    },
    KindSpec {
        name: "detect-virt",
        source: "`systemd-detect-virt`",
        paths: &[r"(^|/)(systemd-)?detect-virt(\.txt)?$"],
        sniff: Some(parsers::host::detect_virt::sniff_detect_virt),
        parse: Some(|t| {
            wrap(
                parsers::host::detect_virt::parse_detect_virt(t),
                Data::DetectVirt,
            )
        }),
    },
    KindSpec {
        name: "lscpu",
        source: "util-linux `lscpu`",
        paths: &[r"(^|/)lscpu(\.txt)?$"],
        sniff: Some(parsers::host::lscpu::sniff_lscpu),
        parse: Some(|t| wrap(parsers::host::lscpu::parse_lscpu(t), Data::Lscpu)),
    },
    KindSpec {
        name: "ps",
        source: "procps `ps`",
        paths: &[r"(^|/)system/ps\.txt$", r"(^|/)ps(_[a-z-]+)?(\.txt)?$"],
        sniff: Some(parsers::procs::ps::sniff_ps),
        parse: Some(|t| wrap(parsers::procs::ps::parse_ps(t), Data::Ps)),
    },
    KindSpec {
        name: "top",
        source: "procps `top -b`",
        paths: &[r"(^|/)top(_-b[^/]*)?(\.txt)?$"],
        sniff: Some(parsers::procs::top::sniff_top),
        parse: Some(|t| wrap(parsers::procs::top::parse_top(t), Data::Top)),
    },
    KindSpec {
        name: "ss",
        source: "iproute2 `ss`",
        paths: &[
            r"(^|/)ss-[a-z]+(\.[A-Za-z0-9_-]+)?$",
            r"(^|/)ss_-[a-zA-Z]+$",
        ],
        sniff: Some(parsers::procs::ss::sniff_ss),
        parse: Some(|t| wrap(parsers::procs::ss::parse_ss(t), Data::Ss)),
    },
    KindSpec {
        name: "netstat-tanp",
        source: "net-tools `netstat -tanp`",
        paths: &[
            r"(^|/)netstat-t[a-z]+(\.[A-Za-z0-9_-]+)?$",
            r"(^|/)netstat_-[a-z]*t[a-z]*$",
        ],
        sniff: Some(parsers::procs::netstat::sniff_netstat),
        parse: Some(|t| wrap(parsers::procs::netstat::parse_netstat(t), Data::NetstatConn)),
    },
    KindSpec {
        name: "balloon",
        source: "`vmware-toolbox-cmd stat balloon`",
        paths: &[r"(^|/)vmware-balloon(\.txt)?$"],
        sniff: Some(parsers::host::vmware_balloon::sniff_balloon),
        parse: Some(|t| {
            wrap(
                parsers::host::vmware_balloon::parse_balloon(t),
                Data::VmwareBalloon,
            )
        }),
    },
    KindSpec {
        name: "swapon",
        source: "util-linux `swapon --show`",
        paths: &[r"(^|/)swapon-show(\.txt)?$"],
        sniff: None,
        // `swapon --show` prints nothing at all when no swap is configured: a valid answer.
        parse: Some(|t| {
            if t.trim().is_empty() {
                let none = parsers::proc::swaps::Swaps {
                    format: parsers::proc::swaps::SwapsFormat::SwaponShow,
                    areas: Vec::new(),
                    header_line: 0,
                };
                return Ok((Data::Swaps(none), Vec::new()));
            }
            wrap(parsers::proc::swaps::parse(t), Data::Swaps)
        }),
    },
    // Kinds with `parse: None` are collected but analyzed by later versions.
    KindSpec {
        name: "cpuinfo",
        source: "`/proc/cpuinfo`",
        paths: &[],
        sniff: None,
        parse: None,
    },
    KindSpec {
        name: "numactl",
        source: "`numactl -H`",
        paths: &[],
        sniff: None,
        parse: None,
    },
    KindSpec {
        name: "cgroup",
        source: "cgroup membership and limits (collector)",
        paths: &[r"(^|/)cgroup\.tsv$"],
        sniff: Some(parsers::procs::cgroup::sniff),
        parse: Some(|t| wrap(parsers::procs::cgroup::parse(t), Data::Cgroup)),
    },
    KindSpec {
        name: "proc-status",
        source: "`/proc/<pid>/status`",
        paths: &[r"(^|/)(jvm|proc)/[0-9]+/status$"],
        sniff: Some(parsers::proc::status::sniff),
        parse: Some(|t| wrap(parsers::proc::status::parse(t), Data::ProcStatus)),
    },
    KindSpec {
        name: "proc-cmdline",
        source: "`/proc/<pid>/cmdline`",
        paths: &[r"(^|/)(jvm|proc)/[0-9]+/cmdline(\.txt)?$"],
        sniff: None,
        parse: None,
    },
    KindSpec {
        name: "jps",
        source: "`jps -lv`",
        paths: &[r"(^|/)jps([-_]-?[lmv]+)?(\.txt)?$"],
        sniff: Some(parsers::jvm::jps::sniff),
        parse: Some(|t| wrap(parsers::jvm::jps::parse(t), Data::Jps)),
    },
    KindSpec {
        name: "java-version",
        source: "`java -version`",
        paths: &[r"(^|/)java-version(\.txt)?$"],
        sniff: Some(parsers::jvm::java_version::sniff_java_version),
        parse: Some(|t| {
            wrap(
                parsers::jvm::java_version::parse_java_version(t),
                Data::JavaVersion,
            )
        }),
    },
    KindSpec {
        name: "jcmd-vm-version",
        source: "`jcmd VM.version`",
        paths: &[r"(^|/)vm-version(\.txt)?$"],
        sniff: Some(parsers::jvm::vm_version::sniff_vm_version),
        parse: Some(|t| {
            wrap(
                parsers::jvm::vm_version::parse_vm_version(t),
                Data::VmVersion,
            )
        }),
    },
    KindSpec {
        name: "jcmd-vm-flags",
        source: "`jcmd VM.flags`",
        paths: &[r"(^|/)vm-flags(\.txt)?$"],
        sniff: Some(parsers::jvm::vm_flags::sniff_vm_flags),
        parse: Some(|t| wrap(parsers::jvm::vm_flags::parse_vm_flags(t), Data::VmFlags)),
    },
    KindSpec {
        name: "jcmd-vm-command-line",
        source: "`jcmd VM.command_line`",
        paths: &[r"(^|/)vm-command-line(\.txt)?$"],
        sniff: Some(parsers::jvm::vm_command_line::sniff_vm_command_line),
        parse: Some(|t| {
            wrap(
                parsers::jvm::vm_command_line::parse_vm_command_line(t),
                Data::VmCommandLine,
            )
        }),
    },
    KindSpec {
        name: "jcmd-vm-system-properties",
        source: "`jcmd VM.system_properties`",
        paths: &[r"(^|/)vm-system-properties(\.txt)?$"],
        sniff: Some(parsers::jvm::vm_system_properties::sniff_system_properties),
        parse: Some(|t| {
            wrap(
                parsers::jvm::vm_system_properties::parse_system_properties(t),
                Data::SystemProperties,
            )
        }),
    },
    KindSpec {
        name: "jstat-gcutil",
        source: "JDK `jstat`",
        paths: &[r"(^|/)jstat[^/]*(\.txt)?$"],
        sniff: Some(parsers::jvm::jstat::sniff),
        parse: Some(|t| wrap(parsers::jvm::jstat::parse(t), Data::Jstat)),
    },
    KindSpec {
        name: "class-histogram",
        source: "`jcmd GC.class_histogram` / `jmap -histo`",
        paths: &[r"(^|/)(class-)?histo(gram)?[^/]*(\.txt)?$"],
        sniff: Some(parsers::jvm::histogram::sniff),
        parse: Some(|t| wrap(parsers::jvm::histogram::parse(t), Data::Histogram)),
    },
    KindSpec {
        name: "thread-dump",
        source: "`jcmd Thread.print` / `jstack`",
        paths: &[
            r"(^|/)thread-dump[^/]*(\.txt)?$",
            r"(^|/)jstack[^/]*(\.txt)?$",
        ],
        sniff: Some(parsers::jvm::thread_dump::sniff),
        parse: Some(|t| wrap(parsers::jvm::thread_dump::parse(t), Data::ThreadDump)),
    },
    KindSpec {
        name: "jvm-threads",
        source: "thread counts by name (collector)",
        paths: &[r"(^|/)threads\.tsv$"],
        sniff: Some(parsers::jvm::thread_counts::sniff),
        parse: Some(|t| wrap(parsers::jvm::thread_counts::parse(t), Data::JvmThreads)),
    },
    KindSpec {
        name: "gc-log",
        source: "JVM GC log (JDK 8 `-XX:+PrintGCDetails` or `-Xlog:gc*`)",
        paths: &[r"(^|/)gc[^/]*\.log(\.[0-9]+)?(\.current)?$"],
        sniff: Some(parsers::jvm::gclog::sniff),
        parse: Some(|t| wrap(parsers::jvm::gclog::parse(t), Data::GcLog)),
    },
    KindSpec {
        name: "perf-record",
        source: "`perf record` log",
        paths: &[],
        sniff: None,
        parse: None,
    },
    KindSpec {
        name: "perf-report",
        source: "`perf report --stdio` (perf ≥ 3.x), `perf top --stdio`",
        paths: &[
            r"(^|/)perf[-_]report[^/]*\.(txt|out|log)$",
            r"(^|/)perf[-_]top[^/]*\.txt$",
        ],
        sniff: Some(parsers::perf::report::sniff),
        parse: Some(|t| wrap(parsers::perf::report::parse(t), Data::PerfReport)),
    },
    KindSpec {
        name: "perf-script",
        source: "`perf script` (perf ≥ 4.8 layout)",
        paths: &[
            r"(^|/)perf[-_]script[^/]*\.(txt|out|log)?$",
            r"(^|/)out\.perf$",
        ],
        sniff: Some(parsers::perf::script::sniff),
        parse: Some(|t| {
            wrap(crate::facts::profile::from_script(t), |p| {
                Data::PerfScript(Box::new(p))
            })
        }),
    },
    KindSpec {
        name: "softnet-stat",
        source: "`/proc/net/softnet_stat`",
        paths: &[],
        sniff: None,
        parse: None,
    },
    KindSpec {
        name: "thp",
        source: "transparent huge page settings",
        paths: &[],
        sniff: None,
        parse: None,
    },
    KindSpec {
        name: "ip-addr",
        source: "`ip addr`",
        paths: &[],
        sniff: None,
        parse: None,
    },
    KindSpec {
        name: "config",
        source: "configuration file",
        paths: &[],
        sniff: None,
        parse: None,
    },
    KindSpec {
        name: "redaction-log",
        source: "the collector's redaction log",
        paths: &[],
        sniff: None,
        parse: None,
    },
    KindSpec {
        name: "zoo-cfg",
        source: "ZooKeeper `zoo.cfg`",
        paths: &[r"(^|/)zoo[^/]*\.cfg$"],
        sniff: Some(parsers::zookeeper::config::sniff_cfg),
        parse: Some(|t| wrap(parsers::zookeeper::config::parse_cfg(t), Data::ZooCfg)),
    },
    KindSpec {
        name: "zk-mntr",
        source: "ZooKeeper `mntr`",
        paths: &[r"(^|/)(zk-)?mntr(\.txt)?$"],
        sniff: Some(parsers::zookeeper::mntr::sniff_mntr),
        parse: Some(|t| wrap(parsers::zookeeper::mntr::parse_mntr(t), Data::ZkMntr)),
    },
    KindSpec {
        name: "zk-wchs",
        source: "ZooKeeper `wchs`",
        paths: &[r"(^|/)(zk-)?wchs(\.txt)?$"],
        sniff: Some(parsers::zookeeper::wchs::sniff_wchs),
        parse: Some(|t| wrap(parsers::zookeeper::wchs::parse_wchs(t), Data::ZkWchs)),
    },
    KindSpec {
        name: "zk-conf",
        source: "ZooKeeper `conf`",
        paths: &[r"(^|/)zk-conf(\.txt)?$", r"(^|/)zk/[^/]+/conf\.txt$"],
        sniff: Some(parsers::zookeeper::config::sniff_conf),
        parse: Some(|t| wrap(parsers::zookeeper::config::parse_conf(t), Data::ZkConf)),
    },
    KindSpec {
        name: "zk-srvr",
        source: "ZooKeeper `srvr`",
        paths: &[r"(^|/)(zk-)?srvr(\.txt)?$"],
        sniff: Some(parsers::zookeeper::srvr::sniff_srvr),
        parse: Some(|t| wrap(parsers::zookeeper::srvr::parse_srvr(t), Data::ZkSrvr)),
    },
    KindSpec {
        name: "hadoop-site-xml",
        source: "Hadoop `*-site.xml`",
        paths: &[r"(^|/)[A-Za-z0-9_.-]+-site\.xml$"],
        sniff: Some(parsers::hadoop::site_xml::sniff),
        parse: Some(|t| wrap(parsers::hadoop::site_xml::parse(t), Data::HadoopConf)),
    },
    KindSpec {
        name: "collector-log",
        source: "collector.sh's own log",
        paths: &[r"(^|/)collector\.log$"],
        sniff: None,
        parse: Some(|_| Ok((Data::Text, Vec::new()))),
    },
];

static PATH_SET: LazyLock<(RegexSet, Vec<usize>)> = LazyLock::new(|| {
    let mut pats = Vec::new();
    let mut owners = Vec::new();
    for (i, k) in KINDS.iter().enumerate() {
        for p in k.paths {
            pats.push(*p);
            owners.push(i);
        }
    }
    (
        RegexSet::new(pats).expect("kind path patterns are valid"),
        owners,
    )
});

/// How an artifact's kind was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum KindSource {
    /// From the collector's manifest.
    Manifest,
    /// From the known path table.
    Path,
    /// From the content.
    Content,
}

/// The kind spec for a manifest kind name.
pub fn by_name(name: &str) -> Option<&'static KindSpec> {
    KINDS.iter().find(|k| k.name == name)
}

/// The kind for a bundle path from the known path table.
pub fn by_path(path: &str) -> Option<&'static KindSpec> {
    let (set, owners) = &*PATH_SET;
    set.matches(path).iter().next().map(|i| &KINDS[owners[i]])
}

/// Outcome of content sniffing.
pub enum Sniffed {
    /// One kind claims the text.
    Kind(&'static KindSpec),
    /// Nothing claims it.
    Nothing,
    /// Several kinds are unsure and none is sure.
    Ambiguous(Vec<&'static str>),
}

/// Sniffs the first lines of `text` (up to 4 KiB) against every kind.
pub fn sniff(text: &str) -> Sniffed {
    let mut end = text.len().min(4096);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    let mut unsure = Vec::new();
    for k in KINDS {
        let Some(f) = k.sniff else { continue };
        match f(head) {
            Sniff::Yes => return Sniffed::Kind(k),
            Sniff::Unsure => unsure.push(k),
            Sniff::No => {}
        }
    }
    match unsure.len() {
        0 => Sniffed::Nothing,
        1 => Sniffed::Kind(unsure[0]),
        _ => Sniffed::Ambiguous(unsure.iter().map(|k| k.name).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_table_matches_collector_and_loose_names() {
        assert_eq!(
            by_path("rca-db1-20240101T000000Z/sysstat/iostat-x.txt")
                .unwrap()
                .name,
            "iostat"
        );
        assert_eq!(by_path("x/proc/softirqs.end").unwrap().name, "softirqs");
        assert_eq!(
            by_path("sosreport-h/proc/modules").unwrap().name,
            "proc-modules"
        );
        assert_eq!(by_path("sos_commands/kernel/lsmod").unwrap().name, "lsmod");
        assert!(by_path("notes/iostat_node3.log.bak").is_none());
        assert_eq!(
            by_path("rca-h/zk/127.0.0.1_2181/conf.txt").unwrap().name,
            "zk-conf"
        );
        assert_eq!(
            by_path("rca-h/zk/127.0.0.1_2181/mntr.txt").unwrap().name,
            "zk-mntr"
        );
        assert_eq!(
            by_path("rca-h/jvm/4242/thread-dump.2.txt").unwrap().name,
            "thread-dump"
        );
        assert_eq!(
            by_path("rca-h/jvm/4242/jstat-gcutil.txt").unwrap().name,
            "jstat-gcutil"
        );
        assert_eq!(
            by_path("rca-h/net/ethtool/eth0/ethtool-l.txt")
                .unwrap()
                .name,
            "ethtool-l"
        );
        assert_eq!(
            by_path("sosreport-h/sos_commands/networking/ethtool_-k_ens3")
                .unwrap()
                .name,
            "ethtool-k"
        );
        for (path, kind) in [
            ("rca-h/jvm/4242/cgroup.tsv", "cgroup"),
            ("rca-h/proc/77/cgroup.tsv", "cgroup"),
            ("rca-h/jvm/4242/status", "proc-status"),
            ("rca-h/proc/77/status", "proc-status"),
            ("rca-h/jvm/jps-lv.txt", "jps"),
            ("notes/jps_-lv", "jps"),
            ("rca-h/jvm/4242/threads.tsv", "jvm-threads"),
            (
                "rca-h/configs/etc/hadoop/conf/yarn-site.xml",
                "hadoop-site-xml",
            ),
            ("conf/core-site.xml", "hadoop-site-xml"),
        ] {
            assert_eq!(by_path(path).map(|k| k.name), Some(kind), "{path}");
        }
        assert!(by_path("rca-h/proc/stat.start").is_some_and(|k| k.name == "proc-stat"));
        assert!(by_path("rca-h/time/status").is_none());
    }

    #[test]
    fn loose_files_of_the_process_and_hadoop_kinds_are_sniffed() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../parsers/tests/fixtures");
        for (rel, kind) in [
            ("captured-proc/collector-cgroup-v1-hybrid.tsv", "cgroup"),
            (
                "captured-proc/collector-status-java-jdk17.txt",
                "proc-status",
            ),
            ("captured-proc/proc-2-status-kthreadd.txt", "proc-status"),
            ("captured-proc/collector-jps-lv-jdk17.txt", "jps"),
            ("captured-proc/jps-jdk17.txt", "jps"),
            ("captured-proc/jps-lv-unavailable-jdk17.txt", "jps"),
            ("captured-proc/collector-threads-jdk17.tsv", "jvm-threads"),
            (
                "captured-proc/threads-zookeeper-3.8.0-jdk17.tsv",
                "jvm-threads",
            ),
            (
                "hadoop-conf/docker-yarn-cluster__yarn-site.xml",
                "hadoop-site-xml",
            ),
            (
                "hadoop-conf/written__yarn-site-nodemanager.xml",
                "hadoop-site-xml",
            ),
        ] {
            let text = std::fs::read_to_string(dir.join(rel)).unwrap();
            match sniff(&text) {
                Sniffed::Kind(k) => assert_eq!(k.name, kind, "{rel}"),
                Sniffed::Nothing => panic!("{rel}: not recognised"),
                Sniffed::Ambiguous(v) => panic!("{rel}: ambiguous {v:?}"),
            }
            let parse = by_name(kind).unwrap().parse.unwrap();
            let (_, issues) = parse(&text).unwrap();
            assert!(issues.is_empty(), "{rel}: {issues:?}");
        }
    }
}
