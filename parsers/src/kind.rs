//! Every artifact kind rca reads, declared once.
//!
//! A kind is *what a file holds* (`iostat`: the output of `iostat -x`), whatever its name or
//! place in a bundle; where bundles put each kind is the analyzer's business (its bundle
//! layouts), not declared here. The table at the end of this file is the only list of kinds:
//!
//! - [`Data`], the parsed record of an artifact: one variant per record type (two kinds may share
//!   one: `sar` text and `sadf -j` both give a [`Sar`](crate::sar::Sar));
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
//! use parsers::mpstat::Mpstat;
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
    /// Content sniffer, if the format can be recognised from its first lines.
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
    let head = &text[..end];
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
        /// A parsed artifact: its record, by type.
        #[derive(Debug, Clone)]
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

use crate as p;

kinds! {
    /// `iostat -x` text or JSON.
    Iostat(p::iostat::Iostat) {
        /// sysstat `iostat -x` (text or `-o JSON`).
        IOSTAT = KindSpec::new("iostat", "sysstat `iostat -x` (text or -o JSON)")
            .collected()
            .sniff(p::iostat::sniff)
            .parse(|t| read(p::iostat::parse(t)));
    }
    /// `mpstat -P ALL` text or JSON.
    Mpstat(p::mpstat::Mpstat) {
        /// sysstat `mpstat -P ALL` (text or `-o JSON`).
        MPSTAT = KindSpec::new("mpstat", "sysstat `mpstat -P ALL` (text or -o JSON)")
            .collected()
            .sniff(p::mpstat::sniff)
            .parse(|t| read(p::mpstat::parse(t)));
    }
    /// One `/proc/softirqs` snapshot.
    Softirqs(p::softirqs::Softirqs) {
        /// `/proc/softirqs`.
        SOFTIRQS = KindSpec::new("softirqs", "`/proc/softirqs`")
            .collected()
            .sniff(p::softirqs::sniff)
            .parse(|t| read(p::softirqs::parse(t)));
    }
    /// Loaded modules: `/proc/modules` (with taint letters) or `lsmod`.
    Modules(Vec<p::modules::Module>) {
        /// `/proc/modules`.
        PROC_MODULES = KindSpec::new("proc-modules", "`/proc/modules`")
            .collected()
            .sniff(p::modules::sniff_proc_modules)
            .parse(|t| read(p::modules::parse_proc_modules(t)));
        /// kmod `lsmod`.
        LSMOD = KindSpec::new("lsmod", "kmod `lsmod`")
            .collected()
            .sniff(p::modules::sniff_lsmod)
            .parse(|t| read(p::modules::parse_lsmod(t)));
    }
    /// `uname -a`.
    Uname(p::identity::Uname) {
        /// `uname -a`.
        UNAME = KindSpec::new("uname", "`uname -a`")
            .collected()
            .sniff(p::identity::sniff_uname)
            .parse(|t| read(p::identity::parse_uname(t)));
    }
    /// `/etc/os-release`.
    OsRelease(p::identity::OsRelease) {
        /// `/etc/os-release`.
        OS_RELEASE = KindSpec::new("os-release", "`/etc/os-release`")
            .collected()
            .sniff(p::identity::sniff_os_release)
            .parse(|t| read(p::identity::parse_os_release(t)));
    }
    /// sysstat `sar` text or `sadf -j`.
    Sar(p::sar::Sar) {
        /// sysstat `sar` (text).
        SAR = KindSpec::new("sar", "sysstat `sar` (text)")
            .collected()
            .sniff(p::sar::sniff)
            .parse(|t| read(p::sar::parse(t)));
        /// sysstat `sadf -j`.
        SADF_JSON = KindSpec::new("sadf-json", "sysstat `sadf -j`")
            .collected()
            .sniff(p::sadf::sniff)
            .parse(|t| read(p::sadf::parse(t)));
    }
    /// `pidstat`.
    Pidstat(p::pidstat::Pidstat) {
        /// sysstat `pidstat`.
        PIDSTAT = KindSpec::new("pidstat", "sysstat `pidstat`")
            .collected()
            .sniff(p::pidstat::sniff)
            .parse(|t| read(p::pidstat::parse(t)));
    }
    /// procps `vmstat`.
    Vmstat(p::vmstat::Vmstat) {
        /// procps `vmstat`.
        VMSTAT = KindSpec::new("vmstat", "procps `vmstat`")
            .collected()
            .sniff(p::vmstat::sniff)
            .parse(|t| read(p::vmstat::parse(t)));
    }
    /// `/proc/interrupts`.
    Interrupts(p::interrupts::Interrupts) {
        /// `/proc/interrupts`.
        INTERRUPTS = KindSpec::new("interrupts", "`/proc/interrupts`")
            .collected()
            .sniff(p::interrupts::sniff)
            .parse(|t| read(p::interrupts::parse(t)));
    }
    /// `/proc/stat`.
    ProcStat(p::procstat::ProcStat) {
        /// `/proc/stat`.
        PROC_STAT = KindSpec::new("proc-stat", "`/proc/stat`")
            .collected()
            .sniff(p::procstat::sniff)
            .parse(|t| read(p::procstat::parse(t)));
    }
    /// `/proc/vmstat`.
    ProcVmstat(p::vmstat_proc::ProcVmstat) {
        /// `/proc/vmstat`.
        PROC_VMSTAT = KindSpec::new("proc-vmstat", "`/proc/vmstat`")
            .collected()
            .sniff(p::vmstat_proc::sniff)
            .parse(|t| read(p::vmstat_proc::parse(t)));
    }
    /// `/proc/meminfo`.
    Meminfo(p::meminfo::Meminfo) {
        /// `/proc/meminfo`.
        MEMINFO = KindSpec::new("meminfo", "`/proc/meminfo`")
            .collected()
            .sniff(p::meminfo::sniff)
            .parse(|t| read(p::meminfo::parse(t)));
    }
    /// `/proc/diskstats`.
    Diskstats(p::diskstats::Diskstats) {
        /// `/proc/diskstats`.
        DISKSTATS = KindSpec::new("diskstats", "`/proc/diskstats`")
            .collected()
            .sniff(p::diskstats::sniff)
            .parse(|t| read(p::diskstats::parse(t)));
    }
    /// `/proc/net/dev`.
    NetDev(p::netdev::NetDev) {
        /// `/proc/net/dev`.
        NET_DEV = KindSpec::new("net-dev", "`/proc/net/dev`")
            .collected()
            .sniff(p::netdev::sniff)
            .parse(|t| read(p::netdev::parse(t)));
    }
    /// SNMP counters: `/proc/net/snmp`, `/proc/net/netstat` or `nstat -az`.
    Snmp(p::snmp::Snmp) {
        /// `/proc/net/snmp` or `/proc/net/netstat`.
        NET_SNMP = KindSpec::new("net-snmp", "`/proc/net/snmp` or `/proc/net/netstat`")
            .collected()
            .sniff(p::snmp::sniff)
            .parse(|t| read(p::snmp::parse(t)));
        /// iproute2 `nstat -az`.
        NSTAT = KindSpec::new("nstat", "iproute2 `nstat -az`")
            .collected()
            .sniff(p::snmp::sniff_nstat)
            .parse(|t| read(p::snmp::parse_nstat(t)));
    }
    /// `netstat -s`.
    NetstatS(p::netstat_s::NetstatS) {
        /// net-tools `netstat -s`.
        NETSTAT_S = KindSpec::new("netstat-s", "net-tools `netstat -s`")
            .collected()
            .sniff(p::netstat_s::sniff)
            .parse(|t| read(p::netstat_s::parse(t)));
    }
    /// Swap areas: `/proc/swaps` or `swapon --show`.
    Swaps(p::swaps::Swaps) {
        /// `/proc/swaps` or `swapon --show`.
        SWAPS = KindSpec::new("swaps", "`/proc/swaps` or `swapon --show`")
            .collected()
            .sniff(p::swaps::sniff)
            .parse(|t| read(p::swaps::parse(t)));
        /// util-linux `swapon --show`, which prints nothing at all when no swap is configured: a
        /// valid answer.
        SWAPON = KindSpec::new("swapon", "util-linux `swapon --show`")
            .collected()
            .parse(|t| {
                if t.trim().is_empty() {
                    let none = p::swaps::Swaps {
                        format: p::swaps::SwapsFormat::SwaponShow,
                        areas: Vec::new(),
                        header_line: 0,
                    };
                    return Ok((none.into_data(), Vec::new()));
                }
                read(p::swaps::parse(t))
            });
    }
    /// procps `free`.
    Free(p::free::Free) {
        /// procps `free` (KiB unless the manifest says `-m`/`-g`).
        FREE = KindSpec::new("free", "procps `free` (KiB unless the manifest says `-m`/`-g`)")
            .collected()
            .sniff(p::free::sniff)
            .parse(|t| read(p::free::parse(t)));
    }
    /// `ethtool -i`.
    EthtoolDriver(p::ethtool::DriverInfo) {
        /// `ethtool -i`.
        ETHTOOL_I = KindSpec::new("ethtool-i", "`ethtool -i`")
            .collected()
            .sniff(p::ethtool::sniff_driver)
            .parse(|t| read(p::ethtool::parse_driver(t)));
    }
    /// `ethtool -l`.
    EthtoolChannels(p::ethtool::Channels) {
        /// `ethtool -l`.
        ETHTOOL_L = KindSpec::new("ethtool-l", "`ethtool -l`")
            .collected()
            .sniff(p::ethtool::sniff_channels)
            .parse(|t| read(p::ethtool::parse_channels(t)));
    }
    /// `ethtool -g`.
    EthtoolRings(p::ethtool::Rings) {
        /// `ethtool -g`.
        ETHTOOL_G = KindSpec::new("ethtool-g", "`ethtool -g`")
            .collected()
            .sniff(p::ethtool::sniff_rings)
            .parse(|t| read(p::ethtool::parse_rings(t)));
    }
    /// `ethtool -k`.
    EthtoolFeatures(p::ethtool::Features) {
        /// `ethtool -k`.
        ETHTOOL_K = KindSpec::new("ethtool-k", "`ethtool -k`")
            .collected()
            .sniff(p::ethtool::sniff_features)
            .parse(|t| read(p::ethtool::parse_features(t)));
    }
    /// `ethtool -c`.
    EthtoolCoalesce(p::ethtool::Coalesce) {
        /// `ethtool -c`.
        ETHTOOL_C = KindSpec::new("ethtool-c", "`ethtool -c`")
            .collected()
            .sniff(p::ethtool::sniff_coalesce)
            .parse(|t| read(p::ethtool::parse_coalesce(t)));
    }
    /// `ethtool -S`.
    EthtoolStats(p::ethtool::Stats) {
        /// `ethtool -S`.
        ETHTOOL_S = KindSpec::new("ethtool-S", "`ethtool -S`")
            .collected()
            .sniff(p::ethtool::sniff_stats)
            .parse(|t| read(p::ethtool::parse_stats(t)));
    }
    /// `lspci -k`.
    Lspci(p::lspci::Lspci) {
        /// `lspci -k`.
        LSPCI = KindSpec::new("lspci", "`lspci -k`")
            .collected()
            .sniff(p::lspci::sniff)
            .parse(|t| read(p::lspci::parse(t)));
    }
    /// `ip -s link`.
    IpLink(p::iplink::Links) {
        /// iproute2 `ip -s link`.
        IP_LINK = KindSpec::new("ip-link", "iproute2 `ip -s link`")
            .collected()
            .sniff(p::iplink::sniff)
            .parse(|t| read(p::iplink::parse(t)));
    }
    /// `/proc/net/bonding/*`.
    Bonding(p::bonding::Bond) {
        /// `/proc/net/bonding/*`.
        BONDING = KindSpec::new("bonding", "`/proc/net/bonding/*`")
            .collected()
            .sniff(p::bonding::sniff)
            .parse(|t| read(p::bonding::parse(t)));
    }
    /// IRQ affinity listing.
    IrqAffinity(p::irq_affinity::IrqAffinity) {
        /// IRQ affinity listing (collector).
        IRQ_AFFINITY = KindSpec::new("irq-affinity", "IRQ affinity listing (collector)")
            .collected()
            .sniff(p::irq_affinity::sniff)
            .parse(|t| read(p::irq_affinity::parse(t)));
    }
    /// `sysctl -a`.
    Sysctl(p::sysctl::Sysctl) {
        /// `sysctl -a`.
        SYSCTL = KindSpec::new("sysctl", "`sysctl -a`")
            .collected()
            .sniff(p::sysctl::sniff)
            .parse(|t| read(p::sysctl::parse(t)));
    }
    /// `ulimit -a`.
    Ulimit(p::limits::Ulimit) {
        /// `ulimit -a`.
        ULIMIT = KindSpec::new("ulimit", "`ulimit -a`")
            .collected()
            .sniff(p::limits::sniff_ulimit)
            .parse(|t| read(p::limits::parse_ulimit(t)));
    }
    /// `/proc/<pid>/limits`.
    ProcLimits(p::limits::ProcLimits) {
        /// `/proc/<pid>/limits`.
        PROC_LIMITS = KindSpec::new("proc-limits", "`/proc/<pid>/limits`")
            .collected()
            .sniff(p::limits::sniff_proc_limits)
            .parse(|t| read(p::limits::parse_proc_limits(t)));
    }
    /// `/proc/cmdline`.
    Cmdline(p::kernel::Cmdline) {
        /// `/proc/cmdline`.
        CMDLINE = KindSpec::new("cmdline", "`/proc/cmdline`")
            .collected()
            .sniff(p::kernel::sniff_cmdline)
            .parse(|t| read(p::kernel::parse_cmdline(t)));
    }
    /// `/proc/sys/kernel/tainted`.
    Taint(p::kernel::Taint) {
        /// `/proc/sys/kernel/tainted`.
        TAINTED = KindSpec::new("tainted", "`/proc/sys/kernel/tainted`")
            .collected()
            .sniff(p::kernel::sniff_tainted)
            .parse(|t| read(p::kernel::parse_tainted(t)));
    }
    /// `modinfo`.
    Modinfo(Vec<p::kernel::ModInfo>) {
        /// kmod `modinfo`.
        MODINFO = KindSpec::new("modinfo", "kmod `modinfo`")
            .collected()
            .sniff(p::kernel::sniff_modinfo)
            .parse(|t| read(p::kernel::parse_modinfo(t)));
    }
    /// `dmesg`.
    Dmesg(p::kernel::Dmesg) {
        /// `dmesg`.
        DMESG = KindSpec::new("dmesg", "`dmesg`")
            .collected()
            .sniff(p::kernel::sniff_dmesg)
            .parse(|t| read(p::kernel::parse_dmesg(t)));
    }
    /// `chronyc tracking`.
    ChronyTracking(p::timesync::Tracking) {
        /// chrony `chronyc tracking`.
        CHRONYC_TRACKING = KindSpec::new("chronyc-tracking", "chrony `chronyc tracking`")
            .collected()
            .sniff(p::timesync::sniff_tracking)
            .parse(|t| read(p::timesync::parse_tracking(t)));
    }
    /// `chronyc sources`.
    ChronySources(p::timesync::Sources) {
        /// chrony `chronyc sources`.
        CHRONYC_SOURCES = KindSpec::new("chronyc-sources", "chrony `chronyc sources`")
            .collected()
            .sniff(p::timesync::sniff_sources)
            .parse(|t| read(p::timesync::parse_sources(t)));
    }
    /// `ntpq -pn`.
    Ntpq(p::timesync::Peers) {
        /// `ntpq -pn`.
        NTPQ = KindSpec::new("ntpq", "`ntpq -pn`")
            .collected()
            .sniff(p::timesync::sniff_ntpq)
            .parse(|t| read(p::timesync::parse_ntpq(t)));
    }
    /// `timedatectl`.
    Timedatectl(p::timesync::Timedatectl) {
        /// systemd `timedatectl`.
        TIMEDATECTL = KindSpec::new("timedatectl", "systemd `timedatectl`")
            .collected()
            .sniff(p::timesync::sniff_timedatectl)
            .parse(|t| read(p::timesync::parse_timedatectl(t)));
    }
    /// `vmware-toolbox-cmd timesync status`.
    VmwareTimesync(p::timesync::VmwareTimesync) {
        /// `vmware-toolbox-cmd timesync status`.
        VMWARE_TIMESYNC = KindSpec::new("vmware-timesync", "`vmware-toolbox-cmd timesync status`")
            .collected()
            .sniff(p::timesync::sniff_vmware_timesync)
            .parse(|t| read(p::timesync::parse_vmware_timesync(t)));
    }
    /// `dmidecode`.
    Dmidecode(p::virt::Dmidecode) {
        /// `dmidecode`.
        DMIDECODE = KindSpec::new("dmidecode", "`dmidecode`")
            .collected()
            .sniff(p::virt::sniff_dmidecode)
            .parse(|t| read(p::virt::parse_dmidecode(t)));
    }
    /// `systemd-detect-virt`.
    DetectVirt(p::virt::DetectVirt) {
        /// `systemd-detect-virt`, which exits 1 after printing `none` on bare metal.
        DETECT_VIRT = KindSpec::new("detect-virt", "`systemd-detect-virt`")
            .collected()
            .sniff(p::virt::sniff_detect_virt)
            .parse(|t| read(p::virt::parse_detect_virt(t)))
            .answers_with_exit(|exit, text| exit == 1 && text.trim() == "none");
    }
    /// `lscpu`.
    Lscpu(p::virt::Lscpu) {
        /// util-linux `lscpu`.
        LSCPU = KindSpec::new("lscpu", "util-linux `lscpu`")
            .collected()
            .sniff(p::virt::sniff_lscpu)
            .parse(|t| read(p::virt::parse_lscpu(t)));
    }
    /// `ps`.
    Ps(p::procs::PsTable) {
        /// procps `ps`.
        PS = KindSpec::new("ps", "procps `ps`")
            .collected()
            .sniff(p::procs::sniff_ps)
            .parse(|t| read(p::procs::parse_ps(t)));
    }
    /// `top -b`.
    Top(p::procs::Top) {
        /// procps `top -b`.
        TOP = KindSpec::new("top", "procps `top -b`")
            .collected()
            .sniff(p::procs::sniff_top)
            .parse(|t| read(p::procs::parse_top(t)));
    }
    /// `ss -tanp`.
    Ss(p::procs::SsTable) {
        /// iproute2 `ss`.
        SS = KindSpec::new("ss", "iproute2 `ss`")
            .collected()
            .sniff(p::procs::sniff_ss)
            .parse(|t| read(p::procs::parse_ss(t)));
    }
    /// `netstat -tanp`.
    NetstatConn(p::procs::Netstat) {
        /// net-tools `netstat -tanp`.
        NETSTAT_TANP = KindSpec::new("netstat-tanp", "net-tools `netstat -tanp`")
            .collected()
            .sniff(p::procs::sniff_netstat)
            .parse(|t| read(p::procs::parse_netstat(t)));
    }
    /// `vmware-toolbox-cmd stat balloon`.
    VmwareBalloon(p::vmware::Balloon) {
        /// `vmware-toolbox-cmd stat balloon`.
        BALLOON = KindSpec::new("balloon", "`vmware-toolbox-cmd stat balloon`")
            .collected()
            .sniff(p::vmware::sniff_balloon)
            .parse(|t| read(p::vmware::parse_balloon(t)));
    }
    /// cgroup membership and limits of one process (the collector's `cgroup.tsv`).
    Cgroup(p::cgroup::Cgroup) {
        /// cgroup membership and limits (collector).
        CGROUP = KindSpec::new("cgroup", "cgroup membership and limits (collector)")
            .collected()
            .scope(Scope::Process)
            .sniff(p::cgroup::sniff)
            .parse(|t| read(p::cgroup::parse(t)));
    }
    /// `/proc/<pid>/status`.
    ProcStatus(p::proc_status::ProcStatus) {
        /// `/proc/<pid>/status`.
        PROC_STATUS = KindSpec::new("proc-status", "`/proc/<pid>/status`")
            .collected()
            .scope(Scope::Process)
            .sniff(p::proc_status::sniff)
            .parse(|t| read(p::proc_status::parse(t)));
    }
    /// `jps -lv` (or `jps`, `-l`, `-lmv`).
    Jps(p::jps::Jps) {
        /// `jps -lv`.
        JPS = KindSpec::new("jps", "`jps -lv`")
            .collected()
            .sniff(p::jps::sniff)
            .parse(|t| read(p::jps::parse(t)));
    }
    /// `java -version`.
    JavaVersion(p::jvm_identity::JavaVersion) {
        /// `java -version`.
        JAVA_VERSION = KindSpec::new("java-version", "`java -version`")
            .collected()
            .scope(Scope::Jvm)
            .sniff(p::jvm_identity::sniff_java_version)
            .parse(|t| read(p::jvm_identity::parse_java_version(t)));
    }
    /// `jcmd VM.version`.
    VmVersion(p::jvm_identity::VmVersion) {
        /// `jcmd VM.version`.
        JCMD_VM_VERSION = KindSpec::new("jcmd-vm-version", "`jcmd VM.version`")
            .collected()
            .scope(Scope::Jvm)
            .sniff(p::jvm_identity::sniff_vm_version)
            .parse(|t| read(p::jvm_identity::parse_vm_version(t)));
    }
    /// `jcmd VM.flags`.
    VmFlags(p::jvm_identity::VmFlags) {
        /// `jcmd VM.flags`.
        JCMD_VM_FLAGS = KindSpec::new("jcmd-vm-flags", "`jcmd VM.flags`")
            .collected()
            .scope(Scope::Jvm)
            .sniff(p::jvm_identity::sniff_vm_flags)
            .parse(|t| read(p::jvm_identity::parse_vm_flags(t)));
    }
    /// `jcmd VM.command_line`.
    VmCommandLine(p::jvm_identity::VmCommandLine) {
        /// `jcmd VM.command_line`.
        JCMD_VM_COMMAND_LINE = KindSpec::new("jcmd-vm-command-line", "`jcmd VM.command_line`")
            .collected()
            .scope(Scope::Jvm)
            .sniff(p::jvm_identity::sniff_vm_command_line)
            .parse(|t| read(p::jvm_identity::parse_vm_command_line(t)));
    }
    /// `jcmd VM.system_properties`.
    SystemProperties(p::jvm_identity::SystemProperties) {
        /// `jcmd VM.system_properties`.
        JCMD_VM_SYSTEM_PROPERTIES =
            KindSpec::new("jcmd-vm-system-properties", "`jcmd VM.system_properties`")
                .collected()
                .scope(Scope::Jvm)
                .sniff(p::jvm_identity::sniff_system_properties)
                .parse(|t| read(p::jvm_identity::parse_system_properties(t)));
    }
    /// `jstat`.
    Jstat(p::jstat::Jstat) {
        /// JDK `jstat`.
        JSTAT_GCUTIL = KindSpec::new("jstat-gcutil", "JDK `jstat`")
            .collected()
            .scope(Scope::Jvm)
            .sniff(p::jstat::sniff)
            .parse(|t| read(p::jstat::parse(t)));
    }
    /// A class histogram.
    Histogram(p::histogram::Histogram) {
        /// `jcmd GC.class_histogram` / `jmap -histo`.
        CLASS_HISTOGRAM =
            KindSpec::new("class-histogram", "`jcmd GC.class_histogram` / `jmap -histo`")
                .collected()
                .scope(Scope::Jvm)
                .sniff(p::histogram::sniff)
                .parse(|t| read(p::histogram::parse(t)));
    }
    /// A thread dump.
    ThreadDump(p::threads::ThreadDump) {
        /// `jcmd Thread.print` / `jstack`.
        THREAD_DUMP = KindSpec::new("thread-dump", "`jcmd Thread.print` / `jstack`")
            .collected()
            .scope(Scope::Jvm)
            .sniff(p::threads::sniff)
            .parse(|t| read(p::threads::parse(t)));
    }
    /// Thread counts by name of one JVM (the collector's `threads.tsv`).
    JvmThreads(p::jvm_threads::JvmThreads) {
        /// thread counts by name (collector).
        JVM_THREADS = KindSpec::new("jvm-threads", "thread counts by name (collector)")
            .collected()
            .scope(Scope::Process)
            .sniff(p::jvm_threads::sniff)
            .parse(|t| read(p::jvm_threads::parse(t)));
    }
    /// A JVM GC log.
    GcLog(p::gclog::GcLog) {
        /// JVM GC log (JDK 8 `-XX:+PrintGCDetails` or `-Xlog:gc*`).
        GC_LOG = KindSpec::new("gc-log", "JVM GC log (JDK 8 `-XX:+PrintGCDetails` or `-Xlog:gc*`)")
            .collected()
            .scope(Scope::Jvm)
            .sniff(p::gclog::sniff)
            .parse(|t| read(p::gclog::parse(t)));
    }
    /// `perf report --stdio` / `perf top` text.
    PerfReport(p::perf_report::PerfReport) {
        /// `perf report --stdio` (perf ≥ 3.x), `perf top --stdio`.
        PERF_REPORT = KindSpec::new("perf-report", "`perf report --stdio` (perf ≥ 3.x), `perf top --stdio`")
            .collected()
            .sniff(p::perf_report::sniff)
            .parse(|t| read(p::perf_report::parse(t)));
    }
    /// `perf script`, folded into a profile (samples are not kept).
    PerfScript(p::perf_profile::Profile) {
        /// `perf script` (perf ≥ 4.8 layout); parsed while read when large.
        PERF_SCRIPT = KindSpec::new("perf-script", "`perf script` (perf ≥ 4.8 layout)")
            .collected()
            .sniff(p::perf_script::sniff)
            .parse(|t| read(p::perf_profile::from_script(t)))
            .stream(|r| match p::perf_profile::from_reader(r) {
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
    ZooCfg(p::zookeeper::ZooCfg) {
        /// ZooKeeper `zoo.cfg`.
        ZOO_CFG = KindSpec::new("zoo-cfg", "ZooKeeper `zoo.cfg`")
            .collected()
            .sniff(p::zookeeper::sniff_cfg)
            .parse(|t| read(p::zookeeper::parse_cfg(t)));
    }
    /// ZooKeeper `mntr`.
    ZkMntr(p::zookeeper::Mntr) {
        /// ZooKeeper `mntr`.
        ZK_MNTR = KindSpec::new("zk-mntr", "ZooKeeper `mntr`")
            .collected()
            .scope(Scope::ZooKeeper)
            .sniff(p::zookeeper::sniff_mntr)
            .parse(|t| read(p::zookeeper::parse_mntr(t)));
    }
    /// ZooKeeper `wchs`.
    ZkWchs(p::zookeeper::Wchs) {
        /// ZooKeeper `wchs`.
        ZK_WCHS = KindSpec::new("zk-wchs", "ZooKeeper `wchs`")
            .collected()
            .scope(Scope::ZooKeeper)
            .sniff(p::zookeeper::sniff_wchs)
            .parse(|t| read(p::zookeeper::parse_wchs(t)));
    }
    /// ZooKeeper `conf`.
    ZkConf(p::zookeeper::ZkConf) {
        /// ZooKeeper `conf`.
        ZK_CONF = KindSpec::new("zk-conf", "ZooKeeper `conf`")
            .collected()
            .scope(Scope::ZooKeeper)
            .sniff(p::zookeeper::sniff_conf)
            .parse(|t| read(p::zookeeper::parse_conf(t)));
    }
    /// ZooKeeper `srvr`.
    ZkSrvr(p::zookeeper::Srvr) {
        /// ZooKeeper `srvr`.
        ZK_SRVR = KindSpec::new("zk-srvr", "ZooKeeper `srvr`")
            .collected()
            .scope(Scope::ZooKeeper)
            .sniff(p::zookeeper::sniff_srvr)
            .parse(|t| read(p::zookeeper::parse_srvr(t)));
    }
    /// Hadoop `*-site.xml` (core, hdfs, yarn, mapred, …).
    HadoopConf(p::hadoop::HadoopConf) {
        /// Hadoop `*-site.xml`.
        HADOOP_SITE_XML = KindSpec::new("hadoop-site-xml", "Hadoop `*-site.xml`")
            .collected()
            .sniff(p::hadoop::sniff)
            .parse(|t| read(p::hadoop::parse(t)));
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
        /// Collected, analyzed by later versions.
        CPUINFO = KindSpec::new("cpuinfo", "`/proc/cpuinfo`").collected();
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
        SOFTNET_STAT = KindSpec::new("softnet-stat", "`/proc/net/softnet_stat`").collected();
        /// Collected, analyzed by later versions.
        THP = KindSpec::new("thp", "transparent huge page settings").collected();
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
