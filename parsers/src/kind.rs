//! Every artifact kind rca reads, declared once.
//!
//! A kind is *what a file holds* (`iostat`: the output of `iostat -x`), whatever its name or
//! place in a bundle; where bundles put each kind is the analyzer's business (its bundle
//! layouts), not declared here. The table at the end of this file is the only list of kinds:
//!
//! - [`Data`], the parsed record of an artifact: one variant per record type (two kinds may share
//!   one: `sar` text and `sadf -j` both give a [`Sar`](crate::sysstat::sar::Sar));
//! - [`Record`], implemented for every record type, so readers ask for a type, not a kind name:
//!   `Iostat::of(&data)`;
//! - one `static` [`KindSpec`] per kind (`IOSTAT`) and [`KINDS`], every kind in sniffing
//!   precedence order: its stable name (as the collector's manifest writes it), what produces it,
//!   its [`Scope`], whether the collector writes it, its sniffer, its parser, its streaming parser
//!   and the non-zero exit statuses that still carry its answer.
//!
//! Adding a kind: write its module (a `sniff` and a `parse`), then add one entry below — under
//! the variant of its record type, or with a new variant.
//!
//! ```
//! use parsers::kind::{self, Record};
//! use parsers::sysstat::mpstat::Mpstat;
//! let text = "Linux 6.1.0 (db1) \t2024-05-01 \t_x86_64_\t(2 CPU)\n\n\
//! 12:00:01     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n\
//! 12:00:02     all    1.00    0.00    1.00    0.00    0.00   48.00    0.00    0.00    0.00   50.00\n";
//! let spec = match kind::sniff(text) {
//!     kind::Sniffed::Kind(k) => k,
//!     _ => unreachable!("mpstat output is recognised"),
//! };
//! assert_eq!(spec.name, "mpstat");
//! let (data, issues) = (spec.parse.unwrap())(text).unwrap();
//! assert!(issues.is_empty());
//! assert_eq!(Mpstat::of(&data).unwrap().intervals.len(), 1);
//! ```

use crate::common::{LineIssue, ParseError, Parsed, Sniff};

/// What an artifact's facts belong to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The whole host (most kinds).
    Host,
    /// One JVM: artifacts of these kinds make a JVM, grouped by the process their bundle layout
    /// or their content names (else by folder).
    Jvm,
    /// One process: joins the JVM of the same process or folder, never makes one (cgroup
    /// membership, `/proc/<pid>/status`, thread counts).
    Process,
    /// One ZooKeeper server: the answers of one endpoint, grouped by the endpoint their bundle
    /// layout names (else by folder).
    ZooKeeper,
}

/// A parser over the whole text: the record and the issues of the lines it could not read.
pub type ParseFn = fn(&str) -> Result<(Data, Vec<LineIssue>), ParseError>;

/// A parser that reads its input as a stream, for inputs too large to hold (a `perf script` of a
/// gigabyte).
pub type StreamFn = fn(&mut dyn std::io::BufRead) -> Streamed;

/// What a streaming parser made of its input.
#[derive(Debug)]
pub struct Streamed {
    /// The record and its issues, or why nothing could be read.
    pub parsed: Result<(Data, Vec<LineIssue>), ParseError>,
    /// The input lines kept for citing, `(1-based line, text)`, ascending.
    pub kept: Vec<(usize, String)>,
}

/// One artifact kind. Built with the `const` methods below, in the table at the end of this
/// module.
#[derive(Debug)]
pub struct KindSpec {
    /// Stable kind name, as the collector's manifest writes it (`iostat`).
    pub name: &'static str,
    /// What produces it, for the report (`sysstat iostat -x`).
    pub source: &'static str,
    /// What its facts belong to.
    pub scope: Scope,
    /// Written by the collector (`collector.sh` lists it in its kind table).
    pub collected: bool,
    /// Holds evidence about the host (false for the bundle's own bookkeeping: the manifest, the
    /// collector's log), so that a bundle of only these has nothing to analyze.
    pub evidence: bool,
    /// Content sniffer, if the format can be recognised from its first lines by positive
    /// structure (a header, several lines of the expected shape, one line of an exact shape);
    /// `None` for kinds whose content is one number or one word, known by their place only.
    pub sniff: Option<fn(&str) -> Sniff>,
    /// Parser; `None` for kinds collected but not analyzed in this version.
    pub parse: Option<ParseFn>,
    /// Streaming parser, for kinds whose inputs can be too large to hold.
    pub stream: Option<StreamFn>,
    /// Whether a non-zero exit status with this output still gave the answer: tools that report
    /// a result through their status (`systemd-detect-virt` exits 1 after printing `none`).
    pub answers_with_exit: Option<fn(i32, &str) -> bool>,
}

impl KindSpec {
    /// A host-scoped kind without a parser, not written by the collector.
    pub const fn new(name: &'static str, source: &'static str) -> KindSpec {
        KindSpec {
            name,
            source,
            scope: Scope::Host,
            collected: false,
            evidence: true,
            sniff: None,
            parse: None,
            stream: None,
            answers_with_exit: None,
        }
    }

    /// Written by the collector.
    pub const fn collected(mut self) -> KindSpec {
        self.collected = true;
        self
    }

    /// Its facts belong to `scope`.
    pub const fn scope(mut self, scope: Scope) -> KindSpec {
        self.scope = scope;
        self
    }

    /// The bundle's own bookkeeping, not evidence about the host.
    pub const fn bookkeeping(mut self) -> KindSpec {
        self.evidence = false;
        self
    }

    /// Recognised from its first lines by `f`.
    pub const fn sniff(mut self, f: fn(&str) -> Sniff) -> KindSpec {
        self.sniff = Some(f);
        self
    }

    /// Parsed by `f`.
    pub const fn parse(mut self, f: ParseFn) -> KindSpec {
        self.parse = Some(f);
        self
    }

    /// Parsed while read by `f` when its input is large.
    pub const fn stream(mut self, f: StreamFn) -> KindSpec {
        self.stream = Some(f);
        self
    }

    /// `f(exit, text)` says whether a non-zero exit still gave the answer.
    pub const fn answers_with_exit(mut self, f: fn(i32, &str) -> bool) -> KindSpec {
        self.answers_with_exit = Some(f);
        self
    }
}

/// A record type of the table: reading it out of [`Data`], and wrapping it in.
pub trait Record: Sized + 'static {
    /// The record, if `d` holds this type.
    fn of(d: &Data) -> Option<&Self>;
    /// `self` as [`Data`].
    fn into_data(self) -> Data;
}

/// A parser's result as the table's [`ParseFn`] returns it.
pub fn read<T: Record>(
    r: Result<Parsed<T>, ParseError>,
) -> Result<(Data, Vec<LineIssue>), ParseError> {
    r.map(|p| (p.value.into_data(), p.issues))
}

/// The kind of a manifest kind name.
pub fn by_name(name: &str) -> Option<&'static KindSpec> {
    KINDS.iter().copied().find(|k| k.name == name)
}

/// Outcome of content sniffing.
#[derive(Debug)]
pub enum Sniffed {
    /// One kind claims the text.
    Kind(&'static KindSpec),
    /// Nothing claims it.
    Nothing,
    /// Several kinds are unsure and none is sure: their names.
    Ambiguous(Vec<&'static str>),
}

/// Most bytes of a text a sniffer is given.
pub const SNIFF_HEAD_BYTES: usize = 4096;

/// Sniffs the first lines of `text` (up to [`SNIFF_HEAD_BYTES`]) against every kind, in
/// [`KINDS`] order: the first sure answer wins, else a single unsure one.
pub fn sniff(text: &str) -> Sniffed {
    let mut end = text.len().min(SNIFF_HEAD_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = text.get(..end).unwrap_or("");
    let mut unsure = Vec::new();
    for k in KINDS {
        let Some(f) = k.sniff else { continue };
        match f(head) {
            Sniff::Yes => return Sniffed::Kind(k),
            Sniff::Unsure => unsure.push(*k),
            Sniff::No => {}
        }
    }
    match unsure.len() {
        0 => Sniffed::Nothing,
        1 => Sniffed::Kind(unsure[0]),
        _ => Sniffed::Ambiguous(unsure.iter().map(|k| k.name).collect()),
    }
}

/// Kinds one file can hold together, `(inner, holder)`: a file its place names `inner` whose
/// content the `holder` kind's sniffer claims is read as `holder`, whose record carries the
/// `inner` records too. A GC log holds class histograms (JDK 6–8
/// `-XX:+PrintClassHistogramBeforeFullGC`/`AfterFullGC`, JDK 9+ `-Xlog:gc+classhisto=trace`, a
/// `jcmd GC.class_histogram` appended to it): `histo.log` holding such a log is a GC log, its
/// histograms in [`GcLog::histograms`](crate::jvm::gclog::GcLog::histograms).
pub static HOLDERS: &[(&KindSpec, &KindSpec)] = &[(&CLASS_HISTOGRAM, &GC_LOG)];

/// The kind to read `text` as when its place (the manifest, the layout's path table) names it
/// `named`: the holder of `named` in [`HOLDERS`] whose sniffer claims the first
/// [`SNIFF_HEAD_BYTES`] of `text`, else `named`.
pub fn refine(named: &'static KindSpec, text: &str) -> &'static KindSpec {
    let mut end = text.len().min(SNIFF_HEAD_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = text.get(..end).unwrap_or("");
    HOLDERS
        .iter()
        .filter(|(inner, _)| std::ptr::eq(*inner, named))
        .find(|(_, holder)| holder.sniff.is_some_and(|f| f(head) == Sniff::Yes))
        .map_or(named, |(_, holder)| *holder)
}

/// Declares the record types and kinds: generates [`Data`], the [`Record`] impls, one `static`
/// per kind and [`KINDS`] in declaration order.
macro_rules! kinds {
    (
        $(
            $(#[$vdoc:meta])*
            $variant:ident($ty:ty) {
                $( $(#[$kdoc:meta])* $kname:ident = $spec:expr; )+
            }
        )+
        @other {
            $( $(#[$odoc:meta])* $oname:ident = $ospec:expr; )*
        }
    ) => {
        /// A parsed artifact: its record, by type. Serialised as the record itself.
        #[derive(Debug, Clone, serde::Serialize)]
        #[serde(untagged)]
        pub enum Data {
            $( $(#[$vdoc])* $variant(Box<$ty>), )+
            /// A text artifact kept as lines only (the collector's own log).
            Text,
        }

        $(
            impl Record for $ty {
                fn of(d: &Data) -> Option<&Self> {
                    match d {
                        Data::$variant(x) => Some(x),
                        _ => None,
                    }
                }
                fn into_data(self) -> Data {
                    Data::$variant(Box::new(self))
                }
            }
            $( $(#[$kdoc])* pub static $kname: KindSpec = $spec; )+
        )+
        $( $(#[$odoc])* pub static $oname: KindSpec = $ospec; )*

        /// Every kind, in sniffing precedence order.
        pub static KINDS: &[&KindSpec] = &[ $( $( &$kname, )+ )+ $( &$oname, )* ];
    };
}

kinds! {
    /// `iostat -x` text or JSON.
    Iostat(crate::sysstat::iostat::Iostat) {
        /// sysstat `iostat -x` (text or `-o JSON`).
        IOSTAT = KindSpec::new("iostat", "sysstat `iostat -x` (text or -o JSON)")
            .collected()
            .sniff(crate::sysstat::iostat::sniff)
            .parse(|t| read(crate::sysstat::iostat::parse(t)));
        /// OSWatcher `archive/oswiostat/*.dat` (`iostat -xk 1 3`, third report, per marker).
        OSWIOSTAT = KindSpec::new("oswiostat", "OSWatcher `oswiostat` (`iostat -xk`, hourly files)")
            .parse(|t| read(crate::osw::iostat::parse(t)));
    }
    /// `mpstat -P ALL` text or JSON.
    Mpstat(crate::sysstat::mpstat::Mpstat) {
        /// sysstat `mpstat -P ALL` (text or `-o JSON`).
        MPSTAT = KindSpec::new("mpstat", "sysstat `mpstat -P ALL` (text or -o JSON)")
            .collected()
            .sniff(crate::sysstat::mpstat::sniff)
            .parse(|t| read(crate::sysstat::mpstat::parse(t)));
        /// OSWatcher `archive/oswmpstat/*.dat` (`mpstat -P ALL 1 2` per marker).
        OSWMPSTAT = KindSpec::new("oswmpstat", "OSWatcher `oswmpstat` (`mpstat -P ALL`, hourly files)")
            .parse(|t| read(crate::osw::mpstat::parse(t)));
    }
    /// One `/proc/softirqs` snapshot.
    Softirqs(crate::proc::softirqs::Softirqs) {
        /// `/proc/softirqs`.
        SOFTIRQS = KindSpec::new("softirqs", "`/proc/softirqs`")
            .collected()
            .sniff(crate::proc::softirqs::sniff)
            .parse(|t| read(crate::proc::softirqs::parse(t)));
    }
    /// Loaded modules: `/proc/modules` (with taint letters) or `lsmod`.
    Modules(Vec<crate::kernel::modules::Module>) {
        /// `/proc/modules`.
        PROC_MODULES = KindSpec::new("proc-modules", "`/proc/modules`")
            .collected()
            .sniff(crate::kernel::modules::sniff_proc_modules)
            .parse(|t| read(crate::kernel::modules::parse_proc_modules(t)));
        /// kmod `lsmod`.
        LSMOD = KindSpec::new("lsmod", "kmod `lsmod`")
            .collected()
            .sniff(crate::kernel::lsmod::sniff_lsmod)
            .parse(|t| read(crate::kernel::lsmod::parse_lsmod(t)));
    }
    /// `uname -a`.
    Uname(crate::host::uname::Uname) {
        /// `uname -a`.
        UNAME = KindSpec::new("uname", "`uname -a`")
            .collected()
            .sniff(crate::host::uname::sniff_uname)
            .parse(|t| read(crate::host::uname::parse_uname(t)));
    }
    /// `/etc/os-release`.
    OsRelease(crate::host::os_release::OsRelease) {
        /// `/etc/os-release`.
        OS_RELEASE = KindSpec::new("os-release", "`/etc/os-release`")
            .collected()
            .sniff(crate::host::os_release::sniff_os_release)
            .parse(|t| read(crate::host::os_release::parse_os_release(t)));
    }
    /// Transparent huge page settings.
    Thp(crate::host::thp::Thp) {
        /// `grep -H . /sys/kernel/mm/transparent_hugepage/{enabled,defrag}`.
        THP = KindSpec::new("thp", "transparent huge page settings")
            .collected()
            .sniff(crate::host::thp::sniff)
            .parse(|t| read(crate::host::thp::parse(t)));
    }
    /// One transparent huge page settings file read alone.
    ThpFile(crate::host::thp::ThpChoice) {
        /// `/sys/kernel/mm/transparent_hugepage/{enabled,defrag}` copied as a file (sosreport,
        /// loose copies). Known by its place only: one line of words.
        THP_FILE = KindSpec::new("thp-file", "`/sys/kernel/mm/transparent_hugepage/{enabled,defrag}` (one file)")
            .parse(|t| read(crate::host::thp::parse_bare(t)));
    }
    /// sysstat `sar` text or `sadf -j`.
    Sar(crate::sysstat::sar::Sar) {
        /// sysstat `sar` (text).
        SAR = KindSpec::new("sar", "sysstat `sar` (text)")
            .collected()
            .sniff(crate::sysstat::sar::sniff)
            .parse(|t| read(crate::sysstat::sar::parse(t)));
        /// sysstat `sadf -j`.
        SADF_JSON = KindSpec::new("sadf-json", "sysstat `sadf -j`")
            .collected()
            .sniff(crate::sysstat::sadf::sniff)
            .parse(|t| read(crate::sysstat::sadf::parse(t)));
    }
    /// `pidstat`.
    Pidstat(crate::sysstat::pidstat::Pidstat) {
        /// sysstat `pidstat`.
        PIDSTAT = KindSpec::new("pidstat", "sysstat `pidstat`")
            .collected()
            .sniff(crate::sysstat::pidstat::sniff)
            .parse(|t| read(crate::sysstat::pidstat::parse(t)));
    }
    /// procps `vmstat`.
    Vmstat(crate::procs::vmstat::Vmstat) {
        /// procps `vmstat`.
        VMSTAT = KindSpec::new("vmstat", "procps `vmstat`")
            .collected()
            .sniff(crate::procs::vmstat::sniff)
            .parse(|t| read(crate::procs::vmstat::parse(t)));
        /// OSWatcher `archive/oswvmstat/*.dat` (`vmstat 1 3` per marker).
        OSWVMSTAT = KindSpec::new("oswvmstat", "OSWatcher `oswvmstat` (`vmstat 1 3`, hourly files)")
            .parse(|t| read(crate::osw::vmstat::parse(t)));
    }
    /// `/proc/interrupts`.
    Interrupts(crate::proc::interrupts::Interrupts) {
        /// `/proc/interrupts`.
        INTERRUPTS = KindSpec::new("interrupts", "`/proc/interrupts`")
            .collected()
            .sniff(crate::proc::interrupts::sniff)
            .parse(|t| read(crate::proc::interrupts::parse(t)));
    }
    /// `/proc/stat`.
    ProcStat(crate::proc::stat::ProcStat) {
        /// `/proc/stat`.
        PROC_STAT = KindSpec::new("proc-stat", "`/proc/stat`")
            .collected()
            .sniff(crate::proc::stat::sniff)
            .parse(|t| read(crate::proc::stat::parse(t)));
    }
    /// `/proc/vmstat`.
    ProcVmstat(crate::proc::vmstat::ProcVmstat) {
        /// `/proc/vmstat`.
        PROC_VMSTAT = KindSpec::new("proc-vmstat", "`/proc/vmstat`")
            .collected()
            .sniff(crate::proc::vmstat::sniff)
            .parse(|t| read(crate::proc::vmstat::parse(t)));
    }
    /// `/proc/meminfo`.
    Meminfo(crate::proc::meminfo::Meminfo) {
        /// `/proc/meminfo`.
        MEMINFO = KindSpec::new("meminfo", "`/proc/meminfo`")
            .collected()
            .sniff(crate::proc::meminfo::sniff)
            .parse(|t| read(crate::proc::meminfo::parse(t)));
    }
    /// `/proc/diskstats`.
    Diskstats(crate::proc::diskstats::Diskstats) {
        /// `/proc/diskstats`.
        DISKSTATS = KindSpec::new("diskstats", "`/proc/diskstats`")
            .collected()
            .sniff(crate::proc::diskstats::sniff)
            .parse(|t| read(crate::proc::diskstats::parse(t)));
    }
    /// `/proc/net/dev`.
    NetDev(crate::proc::net_dev::NetDev) {
        /// `/proc/net/dev`.
        NET_DEV = KindSpec::new("net-dev", "`/proc/net/dev`")
            .collected()
            .sniff(crate::proc::net_dev::sniff)
            .parse(|t| read(crate::proc::net_dev::parse(t)));
    }
    /// SNMP counters: `/proc/net/snmp`, `/proc/net/netstat` or `nstat -az`.
    Snmp(crate::proc::snmp::Snmp) {
        /// `/proc/net/snmp` or `/proc/net/netstat`.
        NET_SNMP = KindSpec::new("net-snmp", "`/proc/net/snmp` or `/proc/net/netstat`")
            .collected()
            .sniff(crate::proc::snmp::sniff)
            .parse(|t| read(crate::proc::snmp::parse(t)));
        /// iproute2 `nstat -az`.
        NSTAT = KindSpec::new("nstat", "iproute2 `nstat -az`")
            .collected()
            .sniff(crate::proc::snmp::sniff_nstat)
            .parse(|t| read(crate::proc::snmp::parse_nstat(t)));
    }
    /// `/proc/pressure/{cpu,memory,io}`.
    Pressure(crate::proc::pressure::Pressure) {
        /// `/proc/pressure/*` (Linux ≥ 4.20). Known by its place only: every cgroup v2 folder
        /// holds the same text for the cgroup (`cpu.pressure`, `memory.pressure`, `io.pressure`).
        PRESSURE = KindSpec::new("pressure", "`/proc/pressure/*`")
            .collected()
            .parse(|t| read(crate::proc::pressure::parse(t)));
    }
    /// `/proc/net/softnet_stat`.
    SoftnetStat(crate::proc::softnet_stat::SoftnetStat) {
        /// `/proc/net/softnet_stat`: per-CPU receive-path counters since boot.
        SOFTNET_STAT = KindSpec::new("softnet-stat", "`/proc/net/softnet_stat`")
            .collected()
            .sniff(crate::proc::softnet_stat::sniff)
            .parse(|t| read(crate::proc::softnet_stat::parse(t)));
    }
    /// Time since boot: the `uptime` command or `/proc/uptime`.
    Uptime(crate::procs::uptime::Uptime) {
        /// procps-ng or BusyBox `uptime`.
        UPTIME = KindSpec::new("uptime", "procps-ng `uptime`")
            .sniff(crate::procs::uptime::sniff)
            .parse(|t| read(crate::procs::uptime::parse(t)));
        /// `/proc/uptime` (two numbers: known by its path only).
        PROC_UPTIME = KindSpec::new("proc-uptime", "`/proc/uptime`")
            .collected()
            .parse(|t| read(crate::proc::uptime::parse(t)));
    }
    /// `netstat -s`.
    NetstatS(crate::net::netstat_s::NetstatS) {
        /// net-tools `netstat -s`.
        NETSTAT_S = KindSpec::new("netstat-s", "net-tools `netstat -s`")
            .collected()
            .sniff(crate::net::netstat_s::sniff)
            .parse(|t| read(crate::net::netstat_s::parse(t)));
    }
    /// Swap areas: `/proc/swaps` or `swapon --show`.
    Swaps(crate::proc::swaps::Swaps) {
        /// `/proc/swaps` or `swapon --show`.
        SWAPS = KindSpec::new("swaps", "`/proc/swaps` or `swapon --show`")
            .collected()
            .sniff(crate::proc::swaps::sniff)
            .parse(|t| read(crate::proc::swaps::parse(t)));
        /// util-linux `swapon --show`, which prints nothing at all when no swap is configured: a
        /// valid answer.
        SWAPON = KindSpec::new("swapon", "util-linux `swapon --show`")
            .collected()
            .parse(|t| {
                if t.trim().is_empty() {
                    let none = crate::proc::swaps::Swaps {
                        format: crate::proc::swaps::SwapsFormat::SwaponShow,
                        areas: Vec::new(),
                        header_line: 0,
                    };
                    return Ok((none.into_data(), Vec::new()));
                }
                read(crate::proc::swaps::parse(t))
            });
    }
    /// procps `free`.
    Free(crate::procs::free::Free) {
        /// procps `free` (KiB unless the manifest says `-m`/`-g`).
        FREE = KindSpec::new("free", "procps `free` (KiB unless the manifest says `-m`/`-g`)")
            .collected()
            .sniff(crate::procs::free::sniff)
            .parse(|t| read(crate::procs::free::parse(t)));
    }
    /// `ethtool -i`.
    EthtoolDriver(crate::net::ethtool::driver::DriverInfo) {
        /// `ethtool -i`.
        ETHTOOL_I = KindSpec::new("ethtool-i", "`ethtool -i`")
            .collected()
            .sniff(crate::net::ethtool::driver::sniff_driver)
            .parse(|t| read(crate::net::ethtool::driver::parse_driver(t)));
    }
    /// `ethtool -l`.
    EthtoolChannels(crate::net::ethtool::channels::Channels) {
        /// `ethtool -l`.
        ETHTOOL_L = KindSpec::new("ethtool-l", "`ethtool -l`")
            .collected()
            .sniff(crate::net::ethtool::channels::sniff_channels)
            .parse(|t| read(crate::net::ethtool::channels::parse_channels(t)));
    }
    /// `ethtool -g`.
    EthtoolRings(crate::net::ethtool::rings::Rings) {
        /// `ethtool -g`.
        ETHTOOL_G = KindSpec::new("ethtool-g", "`ethtool -g`")
            .collected()
            .sniff(crate::net::ethtool::rings::sniff_rings)
            .parse(|t| read(crate::net::ethtool::rings::parse_rings(t)));
    }
    /// `ethtool -k`.
    EthtoolFeatures(crate::net::ethtool::features::Features) {
        /// `ethtool -k`.
        ETHTOOL_K = KindSpec::new("ethtool-k", "`ethtool -k`")
            .collected()
            .sniff(crate::net::ethtool::features::sniff_features)
            .parse(|t| read(crate::net::ethtool::features::parse_features(t)));
    }
    /// `ethtool -c`.
    EthtoolCoalesce(crate::net::ethtool::coalesce::Coalesce) {
        /// `ethtool -c`.
        ETHTOOL_C = KindSpec::new("ethtool-c", "`ethtool -c`")
            .collected()
            .sniff(crate::net::ethtool::coalesce::sniff_coalesce)
            .parse(|t| read(crate::net::ethtool::coalesce::parse_coalesce(t)));
    }
    /// `ethtool -S`.
    EthtoolStats(crate::net::ethtool::stats::Stats) {
        /// `ethtool -S`.
        ETHTOOL_S = KindSpec::new("ethtool-S", "`ethtool -S`")
            .collected()
            .sniff(crate::net::ethtool::stats::sniff_stats)
            .parse(|t| read(crate::net::ethtool::stats::parse_stats(t)));
    }
    /// `lspci -k`.
    Lspci(crate::host::lspci::Lspci) {
        /// `lspci -k`.
        LSPCI = KindSpec::new("lspci", "`lspci -k`")
            .collected()
            .sniff(crate::host::lspci::sniff)
            .parse(|t| read(crate::host::lspci::parse(t)));
    }
    /// `ip -s link`.
    IpLink(crate::net::iplink::Links) {
        /// iproute2 `ip -s link`.
        IP_LINK = KindSpec::new("ip-link", "iproute2 `ip -s link`")
            .collected()
            .sniff(crate::net::iplink::sniff)
            .parse(|t| read(crate::net::iplink::parse(t)));
    }
    /// `/proc/net/bonding/*`.
    Bonding(crate::net::bonding::Bond) {
        /// `/proc/net/bonding/*`.
        BONDING = KindSpec::new("bonding", "`/proc/net/bonding/*`")
            .collected()
            .sniff(crate::net::bonding::sniff)
            .parse(|t| read(crate::net::bonding::parse(t)));
    }
    /// IRQ affinity listing.
    IrqAffinity(crate::net::irq_affinity::IrqAffinity) {
        /// IRQ affinity listing (collector).
        IRQ_AFFINITY = KindSpec::new("irq-affinity", "IRQ affinity listing (collector)")
            .collected()
            .sniff(crate::net::irq_affinity::sniff)
            .parse(|t| read(crate::net::irq_affinity::parse(t)));
    }
    /// `sysctl -a`.
    Sysctl(crate::kernel::sysctl::Sysctl) {
        /// `sysctl -a`.
        SYSCTL = KindSpec::new("sysctl", "`sysctl -a`")
            .collected()
            .sniff(crate::kernel::sysctl::sniff)
            .parse(|t| read(crate::kernel::sysctl::parse(t)));
    }
    /// `ulimit -a`.
    Ulimit(crate::procs::ulimit::Ulimit) {
        /// `ulimit -a`.
        ULIMIT = KindSpec::new("ulimit", "`ulimit -a`")
            .collected()
            .sniff(crate::procs::ulimit::sniff_ulimit)
            .parse(|t| read(crate::procs::ulimit::parse_ulimit(t)));
    }
    /// `/proc/<pid>/limits`.
    ProcLimits(crate::proc::limits::ProcLimits) {
        /// `/proc/<pid>/limits`.
        PROC_LIMITS = KindSpec::new("proc-limits", "`/proc/<pid>/limits`")
            .collected()
            .sniff(crate::proc::limits::sniff_proc_limits)
            .parse(|t| read(crate::proc::limits::parse_proc_limits(t)));
    }
    /// `/proc/cmdline`.
    Cmdline(crate::kernel::cmdline::Cmdline) {
        /// `/proc/cmdline`.
        CMDLINE = KindSpec::new("cmdline", "`/proc/cmdline`")
            .collected()
            .sniff(crate::kernel::cmdline::sniff_cmdline)
            .parse(|t| read(crate::kernel::cmdline::parse_cmdline(t)));
    }
    /// `/proc/sys/kernel/tainted`.
    Taint(crate::kernel::taint::Taint) {
        /// `/proc/sys/kernel/tainted`. Known by its place only: its content is one integer.
        TAINTED = KindSpec::new("tainted", "`/proc/sys/kernel/tainted`")
            .collected()
            .parse(|t| read(crate::kernel::taint::parse_tainted(t)));
    }
    /// `modinfo`.
    Modinfo(Vec<crate::kernel::modinfo::ModInfo>) {
        /// kmod `modinfo`.
        MODINFO = KindSpec::new("modinfo", "kmod `modinfo`")
            .collected()
            .sniff(crate::kernel::modinfo::sniff_modinfo)
            .parse(|t| read(crate::kernel::modinfo::parse_modinfo(t)));
    }
    /// A syslog-format log: `journalctl`, `/var/log/messages`, `kern.log`.
    Syslog(crate::kernel::syslog::Syslog) {
        /// `journalctl` (`-o short`, `short-precise`, `short-iso`, `short-monotonic`; with or
        /// without `-k`) and rsyslog files (`/var/log/messages`, `kern.log`, `syslog`; RFC 3164
        /// or RFC 3339 stamps): one kind, since every form prints the same line (time, host,
        /// program, message); the kernel's lines are those of the program `kernel`. Sniffed
        /// before `dmesg`, whose lines have no host and no program.
        SYSLOG = KindSpec::new("syslog", "`journalctl`, `/var/log/messages`, `kern.log`")
            .collected()
            .sniff(crate::kernel::syslog::sniff)
            .parse(|t| read(crate::kernel::syslog::parse(t)));
    }
    /// `dmesg`.
    Dmesg(crate::kernel::dmesg::Dmesg) {
        /// `dmesg`.
        DMESG = KindSpec::new("dmesg", "`dmesg`")
            .collected()
            .sniff(crate::kernel::dmesg::sniff_dmesg)
            .parse(|t| read(crate::kernel::dmesg::parse_dmesg(t)));
    }
    /// `chronyc tracking`.
    ChronyTracking(crate::time::chrony_tracking::Tracking) {
        /// chrony `chronyc tracking`.
        CHRONYC_TRACKING = KindSpec::new("chronyc-tracking", "chrony `chronyc tracking`")
            .collected()
            .sniff(crate::time::chrony_tracking::sniff_tracking)
            .parse(|t| read(crate::time::chrony_tracking::parse_tracking(t)));
    }
    /// `chronyc sources`.
    ChronySources(crate::time::chrony_sources::Sources) {
        /// chrony `chronyc sources`.
        CHRONYC_SOURCES = KindSpec::new("chronyc-sources", "chrony `chronyc sources`")
            .collected()
            .sniff(crate::time::chrony_sources::sniff_sources)
            .parse(|t| read(crate::time::chrony_sources::parse_sources(t)));
    }
    /// `ntpq -pn`.
    Ntpq(crate::time::ntpq::Peers) {
        /// `ntpq -pn`.
        NTPQ = KindSpec::new("ntpq", "`ntpq -pn`")
            .collected()
            .sniff(crate::time::ntpq::sniff_ntpq)
            .parse(|t| read(crate::time::ntpq::parse_ntpq(t)));
    }
    /// `timedatectl`.
    Timedatectl(crate::time::timedatectl::Timedatectl) {
        /// systemd `timedatectl`.
        TIMEDATECTL = KindSpec::new("timedatectl", "systemd `timedatectl`")
            .collected()
            .sniff(crate::time::timedatectl::sniff_timedatectl)
            .parse(|t| read(crate::time::timedatectl::parse_timedatectl(t)));
    }
    /// `vmware-toolbox-cmd timesync status`.
    VmwareTimesync(crate::time::vmware_timesync::VmwareTimesync) {
        /// `vmware-toolbox-cmd timesync status`. Known by its place only: its content is one
        /// word.
        VMWARE_TIMESYNC = KindSpec::new("vmware-timesync", "`vmware-toolbox-cmd timesync status`")
            .collected()
            .parse(|t| read(crate::time::vmware_timesync::parse_vmware_timesync(t)));
    }
    /// `dmidecode`.
    Dmidecode(crate::host::dmidecode::Dmidecode) {
        /// `dmidecode`.
        DMIDECODE = KindSpec::new("dmidecode", "`dmidecode`")
            .collected()
            .sniff(crate::host::dmidecode::sniff_dmidecode)
            .parse(|t| read(crate::host::dmidecode::parse_dmidecode(t)));
    }
    /// `systemd-detect-virt`.
    DetectVirt(crate::host::detect_virt::DetectVirt) {
        /// `systemd-detect-virt`, which exits 1 after printing `none` on bare metal. Known by its
        /// place only: its content is one word.
        DETECT_VIRT = KindSpec::new("detect-virt", "`systemd-detect-virt`")
            .collected()
            .parse(|t| read(crate::host::detect_virt::parse_detect_virt(t)))
            .answers_with_exit(|exit, text| exit == 1 && text.trim() == "none");
    }
    /// `systemctl status`.
    SystemctlStatus(crate::host::systemctl_status::SystemctlStatus) {
        /// systemd `systemctl status UNIT…` or `systemctl status --all`, which exits 3 when a
        /// unit shown is not active and 4 when one is not found, its answer printed all the same.
        SYSTEMCTL_STATUS = KindSpec::new("systemctl-status", "systemd `systemctl status`")
            .collected()
            .sniff(crate::host::systemctl_status::sniff)
            .parse(|t| read(crate::host::systemctl_status::parse(t)))
            .answers_with_exit(|e, t| (1..=4).contains(&e) && !t.trim().is_empty());
    }
    /// `lscpu`.
    Lscpu(crate::host::lscpu::Lscpu) {
        /// util-linux `lscpu`.
        LSCPU = KindSpec::new("lscpu", "util-linux `lscpu`")
            .collected()
            .sniff(crate::host::lscpu::sniff_lscpu)
            .parse(|t| read(crate::host::lscpu::parse_lscpu(t)));
    }
    /// `cpupower frequency-info`.
    CpupowerFrequencyInfo(crate::host::cpupower::CpupowerFrequencyInfo) {
        /// linux-tools `cpupower frequency-info` (sosreport's `cpupower_frequency-info`).
        CPUPOWER_FREQUENCY_INFO = KindSpec::new("cpupower-frequency-info", "`cpupower frequency-info`")
            .collected()
            .sniff(crate::host::cpupower::sniff)
            .parse(|t| read(crate::host::cpupower::parse(t)));
    }
    /// One cpufreq sysfs attribute of one CPU.
    CpufreqValue(crate::host::cpufreq::CpufreqValue) {
        /// `/sys/devices/system/cpu/cpuN/cpufreq/*`. Known by its place only: one word or one
        /// number, the CPU and the attribute named by the path.
        CPUFREQ = KindSpec::new("cpufreq", "`/sys/devices/system/cpu/cpu*/cpufreq/*`")
            .collected()
            .parse(|t| read(crate::host::cpufreq::parse(t)));
    }
    /// `tuned-adm active` or `tuned-adm list`.
    Tuned(crate::host::tuned::Tuned) {
        /// TuneD `tuned-adm active` (or `list`).
        TUNED_ADM = KindSpec::new("tuned-adm", "TuneD `tuned-adm active`")
            .collected()
            .sniff(crate::host::tuned::sniff)
            .parse(|t| read(crate::host::tuned::parse(t)))
            // Exits 1 when no profile is active (the daemon stopped), after saying so.
            .answers_with_exit(|exit, text| {
                exit == 1 && text.contains("No current active profile.")
            });
    }
    /// `/proc/cpuinfo`.
    Cpuinfo(crate::proc::cpuinfo::Cpuinfo) {
        /// `/proc/cpuinfo` (the collector keeps its first 64 lines).
        CPUINFO = KindSpec::new("cpuinfo", "`/proc/cpuinfo`")
            .collected()
            .sniff(crate::proc::cpuinfo::sniff)
            .parse(|t| read(crate::proc::cpuinfo::parse(t)));
    }
    /// `/proc/loadavg`.
    Loadavg(crate::proc::loadavg::Loadavg) {
        /// `/proc/loadavg` (one line of numbers: known by its path only).
        LOADAVG = KindSpec::new("loadavg", "`/proc/loadavg`")
            .collected()
            .parse(|t| read(crate::proc::loadavg::parse(t)));
    }
    /// `ps`.
    Ps(crate::procs::ps::PsTable) {
        /// procps `ps`.
        PS = KindSpec::new("ps", "procps `ps`")
            .collected()
            .sniff(crate::procs::ps::sniff_ps)
            .parse(|t| read(crate::procs::ps::parse_ps(t)));
    }
    /// `top -b`.
    Top(crate::procs::top::Top) {
        /// procps `top -b`.
        TOP = KindSpec::new("top", "procps `top -b`")
            .collected()
            .sniff(crate::procs::top::sniff_top)
            .parse(|t| read(crate::procs::top::parse_top(t)));
    }
    /// `ss -tanp`.
    Ss(crate::procs::ss::SsTable) {
        /// iproute2 `ss`.
        SS = KindSpec::new("ss", "iproute2 `ss`")
            .collected()
            .sniff(crate::procs::ss::sniff_ss)
            .parse(|t| read(crate::procs::ss::parse_ss(t)));
    }
    /// `netstat -tanp`.
    NetstatConn(crate::procs::netstat::Netstat) {
        /// net-tools `netstat -tanp`.
        NETSTAT_TANP = KindSpec::new("netstat-tanp", "net-tools `netstat -tanp`")
            .collected()
            .sniff(crate::procs::netstat::sniff_netstat)
            .parse(|t| read(crate::procs::netstat::parse_netstat(t)));
    }
    /// `vmware-toolbox-cmd stat balloon`.
    VmwareBalloon(crate::host::vmware_balloon::Balloon) {
        /// `vmware-toolbox-cmd stat balloon`. Known by its place only: its content is one
        /// number.
        BALLOON = KindSpec::new("balloon", "`vmware-toolbox-cmd stat balloon`")
            .collected()
            .parse(|t| read(crate::host::vmware_balloon::parse_balloon(t)));
    }
    /// cgroup membership and limits of one process (the collector's `cgroup.tsv`).
    Cgroup(crate::procs::cgroup::Cgroup) {
        /// cgroup membership and limits (collector).
        CGROUP = KindSpec::new("cgroup", "cgroup membership and limits (collector)")
            .collected()
            .scope(Scope::Process)
            .sniff(crate::procs::cgroup::sniff)
            .parse(|t| read(crate::procs::cgroup::parse(t)));
        /// A cgroup v2 `memory.events` file handed over as it is.
        CGROUP_MEMORY_EVENTS = KindSpec::new("cgroup-memory-events", "cgroup v2 `memory.events`")
            .scope(Scope::Process)
            .sniff(crate::procs::cgroup::sniff_memory_events)
            .parse(|t| read(crate::procs::cgroup::parse_file("memory.events", t)));
        /// A `cpu.stat` file of the CPU controller (v2, or v1 with CFS bandwidth).
        CGROUP_CPU_STAT = KindSpec::new("cgroup-cpu-stat", "cgroup `cpu.stat`")
            .scope(Scope::Process)
            .sniff(crate::procs::cgroup::sniff_cpu_stat)
            .parse(|t| read(crate::procs::cgroup::parse_file("cpu.stat", t)));
        /// A cgroup v1 `memory.oom_control` file.
        CGROUP_OOM_CONTROL = KindSpec::new("cgroup-oom-control", "cgroup v1 `memory.oom_control`")
            .scope(Scope::Process)
            .sniff(crate::procs::cgroup::sniff_oom_control)
            .parse(|t| read(crate::procs::cgroup::parse_file("memory.oom_control", t)));
        /// A cgroup's memory limit, v2 `memory.max` or v1 `memory.limit_in_bytes`. Known by its
        /// place only: its content is one number.
        CGROUP_MEMORY_MAX = KindSpec::new("cgroup-memory-max", "cgroup `memory.max` / `memory.limit_in_bytes`")
            .scope(Scope::Process)
            .parse(|t| read(crate::procs::cgroup::parse_file("memory.max", t)));
        /// A cgroup v1 `memory.failcnt`. Known by its place only: its content is one number.
        CGROUP_MEMORY_FAILCNT = KindSpec::new("cgroup-memory-failcnt", "cgroup v1 `memory.failcnt`")
            .scope(Scope::Process)
            .parse(|t| read(crate::procs::cgroup::parse_file("memory.failcnt", t)));
        /// A cgroup v2 `cpu.max` (`quota period`). Known by its place only: two numbers.
        CGROUP_CPU_MAX = KindSpec::new("cgroup-cpu-max", "cgroup v2 `cpu.max`")
            .scope(Scope::Process)
            .parse(|t| read(crate::procs::cgroup::parse_file("cpu.max", t)));
        /// `/proc/<pid>/cgroup`: the process's cgroup in each hierarchy. Known by its place
        /// only.
        PROC_CGROUP = KindSpec::new("proc-cgroup", "`/proc/<pid>/cgroup`")
            .scope(Scope::Process)
            .parse(|t| read(crate::procs::cgroup::parse_proc_cgroup(t)));
    }
    /// `/proc/<pid>/status`.
    ProcStatus(crate::proc::status::ProcStatus) {
        /// `/proc/<pid>/status`.
        PROC_STATUS = KindSpec::new("proc-status", "`/proc/<pid>/status`")
            .collected()
            .scope(Scope::Process)
            .sniff(crate::proc::status::sniff)
            .parse(|t| read(crate::proc::status::parse(t)));
    }
    /// `jps -lv` (or `jps`, `-l`, `-lmv`).
    Jps(crate::jvm::jps::Jps) {
        /// `jps -lv`.
        JPS = KindSpec::new("jps", "`jps -lv`")
            .collected()
            .sniff(crate::jvm::jps::sniff)
            .parse(|t| read(crate::jvm::jps::parse(t)));
    }
    /// `java -version`.
    JavaVersion(crate::jvm::java_version::JavaVersion) {
        /// `java -version`.
        JAVA_VERSION = KindSpec::new("java-version", "`java -version`")
            .collected()
            .scope(Scope::Jvm)
            .sniff(crate::jvm::java_version::sniff_java_version)
            .parse(|t| read(crate::jvm::java_version::parse_java_version(t)));
    }
    /// `jcmd VM.version`.
    VmVersion(crate::jvm::vm_version::VmVersion) {
        /// `jcmd VM.version`.
        JCMD_VM_VERSION = KindSpec::new("jcmd-vm-version", "`jcmd VM.version`")
            .collected()
            .scope(Scope::Jvm)
            .sniff(crate::jvm::vm_version::sniff_vm_version)
            .parse(|t| read(crate::jvm::vm_version::parse_vm_version(t)));
    }
    /// `jcmd VM.flags`.
    VmFlags(crate::jvm::vm_flags::VmFlags) {
        /// `jcmd VM.flags`.
        JCMD_VM_FLAGS = KindSpec::new("jcmd-vm-flags", "`jcmd VM.flags`")
            .collected()
            .scope(Scope::Jvm)
            .sniff(crate::jvm::vm_flags::sniff_vm_flags)
            .parse(|t| read(crate::jvm::vm_flags::parse_vm_flags(t)));
    }
    /// `jcmd VM.command_line`.
    VmCommandLine(crate::jvm::vm_command_line::VmCommandLine) {
        /// `jcmd VM.command_line`.
        JCMD_VM_COMMAND_LINE = KindSpec::new("jcmd-vm-command-line", "`jcmd VM.command_line`")
            .collected()
            .scope(Scope::Jvm)
            .sniff(crate::jvm::vm_command_line::sniff_vm_command_line)
            .parse(|t| read(crate::jvm::vm_command_line::parse_vm_command_line(t)));
    }
    /// `jcmd VM.system_properties`.
    SystemProperties(crate::jvm::vm_system_properties::SystemProperties) {
        /// `jcmd VM.system_properties`.
        JCMD_VM_SYSTEM_PROPERTIES =
            KindSpec::new("jcmd-vm-system-properties", "`jcmd VM.system_properties`")
                .collected()
                .scope(Scope::Jvm)
                .sniff(crate::jvm::vm_system_properties::sniff_system_properties)
                .parse(|t| read(crate::jvm::vm_system_properties::parse_system_properties(t)));
    }
    /// `jstat`.
    Jstat(crate::jvm::jstat::Jstat) {
        /// JDK `jstat`.
        JSTAT_GCUTIL = KindSpec::new("jstat-gcutil", "JDK `jstat`")
            .collected()
            .scope(Scope::Jvm)
            .sniff(crate::jvm::jstat::sniff)
            .parse(|t| read(crate::jvm::jstat::parse(t)));
    }
    /// A JVM GC log, with the class histograms printed into it. Sniffed before the class
    /// histogram: a JDK 8 log's `-XX:+PrintClassHistogramBeforeFullGC` block has its header.
    GcLog(crate::jvm::gclog::GcLog) {
        /// JVM GC log (JDK 8 `-XX:+PrintGCDetails` or `-Xlog:gc*`).
        GC_LOG = KindSpec::new("gc-log", "JVM GC log (JDK 8 `-XX:+PrintGCDetails` or `-Xlog:gc*`)")
            .collected()
            .scope(Scope::Jvm)
            .sniff(crate::jvm::gclog::sniff)
            .parse(|t| read(crate::jvm::gclog::parse(t)));
    }
    /// A class histogram.
    Histogram(crate::jvm::histogram::Histogram) {
        /// `jcmd GC.class_histogram` / `jmap -histo`.
        CLASS_HISTOGRAM =
            KindSpec::new("class-histogram", "`jcmd GC.class_histogram` / `jmap -histo`")
                .collected()
                .scope(Scope::Jvm)
                .sniff(crate::jvm::histogram::sniff)
                .parse(|t| read(crate::jvm::histogram::parse(t)));
    }
    /// `jcmd GC.heap_info`.
    HeapInfo(crate::jvm::heap_info::HeapInfo) {
        /// `jcmd GC.heap_info` (JDK 9+).
        GC_HEAP_INFO = KindSpec::new("gc-heap-info", "`jcmd GC.heap_info`")
            .collected()
            .scope(Scope::Jvm)
            .sniff(crate::jvm::heap_info::sniff)
            .parse(|t| read(crate::jvm::heap_info::parse(t)));
        /// `jmap -heap` (JDK 8) or `jhsdb jmap --heap` (JDK 9+): the serviceability agent's heap
        /// summary, read into the same record.
        JMAP_HEAP = KindSpec::new("jmap-heap", "`jmap -heap` (JDK 8) / `jhsdb jmap --heap`")
            .collected()
            .scope(Scope::Jvm)
            .sniff(crate::jvm::heap_summary::sniff)
            .parse(|t| read(crate::jvm::heap_summary::parse(t)));
    }
    /// A thread dump.
    ThreadDump(crate::jvm::thread_dump::ThreadDump) {
        /// `jcmd Thread.print` / `jstack`.
        THREAD_DUMP = KindSpec::new("thread-dump", "`jcmd Thread.print` / `jstack`")
            .collected()
            .scope(Scope::Jvm)
            .sniff(crate::jvm::thread_dump::sniff)
            .parse(|t| read(crate::jvm::thread_dump::parse(t)));
    }
    /// Thread counts by name of one JVM (the collector's `threads.tsv`).
    JvmThreads(crate::jvm::thread_counts::JvmThreads) {
        /// thread counts by name (collector).
        JVM_THREADS = KindSpec::new("jvm-threads", "thread counts by name (collector)")
            .collected()
            .scope(Scope::Process)
            .sniff(crate::jvm::thread_counts::sniff)
            .parse(|t| read(crate::jvm::thread_counts::parse(t)));
    }
    /// `perf report --stdio` / `perf top` text.
    PerfReport(crate::perf::report::PerfReport) {
        /// `perf report --stdio` (perf ≥ 3.x), `perf top --stdio`.
        PERF_REPORT = KindSpec::new("perf-report", "`perf report --stdio` (perf ≥ 3.x), `perf top --stdio`")
            .collected()
            .sniff(crate::perf::report::sniff)
            .parse(|t| read(crate::perf::report::parse(t)));
    }
    /// `perf script`, folded into a profile (samples are not kept).
    PerfScript(crate::perf::profile::Profile) {
        /// `perf script` (perf ≥ 4.8 layout); parsed while read when large.
        PERF_SCRIPT = KindSpec::new("perf-script", "`perf script` (perf ≥ 4.8 layout)")
            .collected()
            .sniff(crate::perf::script::sniff)
            .parse(|t| read(crate::perf::profile::from_script(t)))
            .stream(|r| match crate::perf::profile::from_reader(r) {
                Ok((parsed, kept)) => Streamed {
                    parsed: Ok((parsed.value.into_data(), parsed.issues)),
                    kept,
                },
                Err(e) => Streamed {
                    parsed: Err(e),
                    kept: Vec::new(),
                },
            });
    }
    /// ZooKeeper `zoo.cfg`.
    ZooCfg(crate::zookeeper::config::ZooCfg) {
        /// ZooKeeper `zoo.cfg`.
        ZOO_CFG = KindSpec::new("zoo-cfg", "ZooKeeper `zoo.cfg`")
            .collected()
            .sniff(crate::zookeeper::config::sniff_cfg)
            .parse(|t| read(crate::zookeeper::config::parse_cfg(t)));
    }
    /// ZooKeeper `mntr`.
    ZkMntr(crate::zookeeper::mntr::Mntr) {
        /// ZooKeeper `mntr`.
        ZK_MNTR = KindSpec::new("zk-mntr", "ZooKeeper `mntr`")
            .collected()
            .scope(Scope::ZooKeeper)
            .sniff(crate::zookeeper::mntr::sniff_mntr)
            .parse(|t| read(crate::zookeeper::mntr::parse_mntr(t)));
    }
    /// ZooKeeper `wchs`.
    ZkWchs(crate::zookeeper::wchs::Wchs) {
        /// ZooKeeper `wchs`.
        ZK_WCHS = KindSpec::new("zk-wchs", "ZooKeeper `wchs`")
            .collected()
            .scope(Scope::ZooKeeper)
            .sniff(crate::zookeeper::wchs::sniff_wchs)
            .parse(|t| read(crate::zookeeper::wchs::parse_wchs(t)));
    }
    /// ZooKeeper `conf`.
    ZkConf(crate::zookeeper::config::ZkConf) {
        /// ZooKeeper `conf`.
        ZK_CONF = KindSpec::new("zk-conf", "ZooKeeper `conf`")
            .collected()
            .scope(Scope::ZooKeeper)
            .sniff(crate::zookeeper::config::sniff_conf)
            .parse(|t| read(crate::zookeeper::config::parse_conf(t)));
    }
    /// ZooKeeper `srvr`.
    ZkSrvr(crate::zookeeper::srvr::Srvr) {
        /// ZooKeeper `srvr`.
        ZK_SRVR = KindSpec::new("zk-srvr", "ZooKeeper `srvr`")
            .collected()
            .scope(Scope::ZooKeeper)
            .sniff(crate::zookeeper::srvr::sniff_srvr)
            .parse(|t| read(crate::zookeeper::srvr::parse_srvr(t)));
    }
    /// Hadoop `*-site.xml` (core, hdfs, yarn, mapred, …).
    HadoopConf(crate::hadoop::site_xml::HadoopConf) {
        /// Hadoop `*-site.xml`.
        HADOOP_SITE_XML = KindSpec::new("hadoop-site-xml", "Hadoop `*-site.xml`")
            .collected()
            .sniff(crate::hadoop::site_xml::sniff)
            .parse(|t| read(crate::hadoop::site_xml::parse(t)));
    }
    /// coreutils `df`: blocks or inodes.
    Df(crate::storage::df::Df) {
        /// coreutils `df -P`, `df -k`, `df -T`, `df -h`, `df -i` (any of them: the header says).
        DF = KindSpec::new("df", "coreutils `df` (blocks, `-h` or `-i`)")
            .collected()
            .sniff(crate::storage::df::sniff)
            .parse(|t| read(crate::storage::df::parse(t)));
    }
    /// The mount table: `/proc/mounts` or `mount`.
    Mounts(crate::storage::mounts::Mounts) {
        /// `/proc/mounts` (or util-linux `mount` output).
        MOUNTS = KindSpec::new("mounts", "`/proc/mounts` or util-linux `mount`")
            .collected()
            .sniff(crate::storage::mounts::sniff)
            .parse(|t| read(crate::storage::mounts::parse(t)));
    }
    /// util-linux `lsblk`: JSON or text.
    Lsblk(crate::storage::lsblk::Lsblk) {
        /// util-linux `lsblk -J -b` (JSON), or `lsblk` / `lsblk -l` text where `-J` is missing.
        LSBLK = KindSpec::new("lsblk", "util-linux `lsblk` (`-J -b`, tree or list)")
            .collected()
            .sniff(crate::storage::lsblk::sniff)
            .parse(|t| read(crate::storage::lsblk::parse(t)));
    }
    /// The collector's `/sys/block` listings.
    SysBlock(crate::storage::sysblock::SysBlock) {
        /// `grep -H . /sys/block/*/queue/{rotational,scheduler,nr_requests}` (collector).
        SYS_BLOCK_QUEUE = KindSpec::new("sys-block-queue", "`/sys/block/*/queue/*` attributes (`grep -H`)")
            .collected()
            .sniff(crate::storage::sysblock::sniff_queue)
            .parse(|t| read(crate::storage::sysblock::parse_queue(t)));
        /// `ls -1 /sys/block/*/slaves` (collector).
        SYS_BLOCK_SLAVES = KindSpec::new("sys-block-slaves", "`/sys/block/*/slaves` listing (`ls -1`)")
            .collected()
            .sniff(crate::storage::sysblock::sniff_slaves)
            .parse(|t| read(crate::storage::sysblock::parse_slaves(t)));
    }
    /// `/proc/sys/fs/file-nr`.
    FileNr(crate::proc::file_nr::FileNr) {
        /// `/proc/sys/fs/file-nr` (three numbers: known by its path only).
        FILE_NR = KindSpec::new("file-nr", "`/proc/sys/fs/file-nr`")
            .collected()
            .parse(|t| read(crate::proc::file_nr::parse(t)));
    }
    /// A process's open descriptors.
    FdCount(crate::proc::fd_count::FdCount) {
        /// `ls /proc/<pid>/fd | wc -l` (one number: known by its path, which names the process).
        FD_COUNT = KindSpec::new("fd-count", "`ls /proc/<pid>/fd | wc -l`")
            .collected()
            .scope(Scope::Process)
            .parse(|t| read(crate::proc::fd_count::parse(t)));
    }
    /// `ss -s`.
    SsSummary(crate::procs::ss_summary::SsSummary) {
        /// iproute2 `ss -s`.
        SS_S = KindSpec::new("ss-s", "iproute2 `ss -s`")
            .collected()
            .sniff(crate::procs::ss_summary::sniff)
            .parse(|t| read(crate::procs::ss_summary::parse(t)));
    }
    /// NUMA allocation counters per node.
    Numastat(crate::proc::numastat::Numastat) {
        /// numactl `numastat` (no options).
        NUMASTAT = KindSpec::new("numastat", "numactl `numastat`")
            .sniff(crate::proc::numastat::sniff)
            .parse(|t| read(crate::proc::numastat::parse(t)));
        /// `/sys/devices/system/node/node<N>/numastat` (its path names the node; `/proc/vmstat`
        /// prints the same names: known by its path only).
        NODE_NUMASTAT = KindSpec::new("node-numastat", "`/sys/devices/system/node/node<N>/numastat`")
            .collected()
            .parse(|t| read(crate::proc::numastat::parse_node(t)));
    }
    /// Connection-tracking statistics per CPU.
    ConntrackStats(crate::net::conntrack_stat::ConntrackStats) {
        /// conntrack-tools `conntrack -S`.
        CONNTRACK_S = KindSpec::new("conntrack-s", "conntrack-tools `conntrack -S`")
            .collected()
            .sniff(crate::net::conntrack_stat::sniff_cli)
            .parse(|t| read(crate::net::conntrack_stat::parse_cli(t)));
        /// `/proc/net/stat/nf_conntrack` (hexadecimal, one row per CPU).
        NF_CONNTRACK_STAT = KindSpec::new("nf-conntrack-stat", "`/proc/net/stat/nf_conntrack`")
            .collected()
            .sniff(crate::net::conntrack_stat::sniff_proc)
            .parse(|t| read(crate::net::conntrack_stat::parse_proc(t)));
    }
    /// sosreport's own log.
    SosLog(crate::collection::sos_log::SosLog) {
        /// `sos_logs/sos.log` or `sos_logs/ui.log`: the plugins and commands sos stopped at their
        /// time budget or skipped. Known by its place only: about the collection, not the host.
        SOS_LOG = KindSpec::new("sos-log", "sosreport's `sos_logs/sos.log`, `ui.log`")
            .bookkeeping()
            .parse(|t| read(crate::collection::sos_log::parse(t)));
    }
    // Kinds without a record type: kept as text, or collected and not read by this version.
    @other {
        /// collector.sh's own log, kept as lines.
        COLLECTOR_LOG = KindSpec::new("collector-log", "collector.sh's own log")
            .collected()
            .bookkeeping()
            .parse(|_| Ok((Data::Text, Vec::new())));
        /// The collector's manifest, read by the analyzer itself.
        MANIFEST = KindSpec::new("manifest", "the collector's manifest").bookkeeping();
        /// Collected for the reader (device-mapper names and their tables), not analyzed: the
        /// stack itself is read from `lsblk` and `/sys/block/*/slaves`.
        DMSETUP_TREE = KindSpec::new("dmsetup-tree", "LVM2 `dmsetup ls --tree`").collected();
        /// Collected, analyzed by later versions.
        NUMACTL = KindSpec::new("numactl", "`numactl -H`").collected();
        /// Collected, analyzed by later versions.
        PROC_CMDLINE = KindSpec::new("proc-cmdline", "`/proc/<pid>/cmdline`")
            .collected()
            .scope(Scope::Process);
        /// Collected, analyzed by later versions.
        PERF_RECORD = KindSpec::new("perf-record", "`perf record` log").collected();
        /// Kept only with `--keep-perf-data`; binary, not analyzed.
        PERF_DATA = KindSpec::new("perf-data", "`perf.data`").collected();
        /// Collected, analyzed by later versions.
        IP_ADDR = KindSpec::new("ip-addr", "`ip addr`").collected();
        /// A configuration file given to the collector (secrets masked), read by kind when it
        /// has one.
        CONFIG = KindSpec::new("config", "configuration file").collected();
        /// The collector's list of masked keys.
        REDACTION_LOG = KindSpec::new("redaction-log", "the collector's redaction log")
            .collected()
            .bookkeeping();
    }
}
