//! Bundle layouts: which tool wrote a bundle, and where that tool puts each artifact kind.
//!
//! In: the paths of a bundle's entries. Out: the bundle's [`Layout`] ([`detect`], from marker
//! paths only: `manifest.tsv` for the rca collector, `sos_commands/` for sosreport, …) and, for
//! each path, its [`Place`] in that layout: a kind, "sniff the content", or "not read" with the
//! reason ([`place`]); plus the process an artifact belongs to when the layout files artifacts
//! per process ([`process_of`]).
//!
//! The common path table [`PATHS`] covers the rca collector's layout (`sysstat/iostat-x.txt`,
//! `proc/softirqs.start`, `jvm/<pid>/…`, `zk/<host>_<port>/…`), the `proc/` and
//! `sos_commands/<plugin>/<command with its arguments>` names sosreport shares with it
//! (`ethtool_-k_ens3`, `ip_-s_-d_link`, `sysctl_-a`) and the names people give loose outputs
//! (`iostat.log`, `mpstat_-P_ALL.txt`). Patterns are matched against the end of the path, so any
//! top folder is allowed; the first matching row wins. A layout with a table of its own consults
//! it first ([`sosreport::PATHS`]: sos's command names, its `proc/<pid>/net/` copies, and the
//! outputs rca does not read, with the reason). Content sniffing ([`parsers::kind::sniff`]) is
//! the last resort, for paths a layout does not know: in a sosreport only command outputs
//! (`sos_commands/…`) are sniffed, never its copies of the host's files (`etc/`, `proc/<pid>/`,
//! `var/`), whose place says what they are.
//!
//! OSWatcher's hourly files (`archive/oswvmstat/<host>_vmstat_YY.MM.DD.HHMM.dat[.gz]`, and
//! `oswiostat`, `oswmpstat`) are kinds of their own by path. A supportconfig's text files at
//! the top of its tree each hold many entries: [`supportconfig`] splits them, and
//! [`supportconfig_file`] says which files those are.

pub mod sosreport;
pub mod supportconfig;

use parsers::kind::{self, KindSpec};
use regex::{Regex, RegexSet};
use serde::Serialize;
use std::sync::LazyLock;

/// Path patterns (regular expressions over the whole bundle path) and the kind each names, in
/// precedence order.
pub static PATHS: &[(&str, &KindSpec)] = &[
    (
        r"(^|/)archive/oswvmstat/[^/]+_vmstat_[0-9]{2}\.[0-9]{2}\.[0-9]{2}\.[0-9]{4}\.dat(\.gz)?$",
        &kind::OSWVMSTAT,
    ),
    (
        r"(^|/)archive/oswiostat/[^/]+_iostat_[0-9]{2}\.[0-9]{2}\.[0-9]{2}\.[0-9]{4}\.dat(\.gz)?$",
        &kind::OSWIOSTAT,
    ),
    (
        r"(^|/)archive/oswmpstat/[^/]+_mpstat_[0-9]{2}\.[0-9]{2}\.[0-9]{2}\.[0-9]{4}\.dat(\.gz)?$",
        &kind::OSWMPSTAT,
    ),
    (r"(^|/)sysstat/iostat[^/]*$", &kind::IOSTAT),
    (
        r"(^|/)iostat(_-[a-zA-Z_0-9-]+)?(\.txt|\.json|\.log)?$",
        &kind::IOSTAT,
    ),
    (r"(^|/)sysstat/mpstat[^/]*$", &kind::MPSTAT),
    (
        r"(^|/)mpstat(_-[a-zA-Z_0-9-]+)?(\.txt|\.json|\.log)?$",
        &kind::MPSTAT,
    ),
    (r"(^|/)proc/softirqs(\.[A-Za-z0-9_-]+)?$", &kind::SOFTIRQS),
    (r"(^|/)proc/modules$", &kind::PROC_MODULES),
    (r"(^|/)lsmod(\.txt)?$", &kind::LSMOD),
    (r"(^|/)uname(_-a)?(\.txt)?$", &kind::UNAME),
    (r"(^|/)os-release$", &kind::OS_RELEASE),
    (r"(^|/)sysstat/sar[^/]*\.txt$", &kind::SAR),
    (r"(^|/)sar(_-[A-Za-z_0-9-]+)?(\.txt|\.log)?$", &kind::SAR),
    (r"(^|/)sa/sar[0-9]+$", &kind::SAR),
    (r"(^|/)sysstat/sa[0-9]*\.json$", &kind::SADF_JSON),
    (r"(^|/)sadf[^/]*\.json$", &kind::SADF_JSON),
    (r"(^|/)sysstat/pidstat[^/]*$", &kind::PIDSTAT),
    (
        r"(^|/)pidstat(_-[A-Za-z_0-9-]+)?(\.txt|\.log)?$",
        &kind::PIDSTAT,
    ),
    // Before the `vmstat` command's rows, whose bare name `vmstat` would take `proc/vmstat`.
    (r"(^|/)proc/vmstat(\.[A-Za-z0-9_-]+)?$", &kind::PROC_VMSTAT),
    (r"(^|/)sysstat/vmstat[^/]*$", &kind::VMSTAT),
    (
        r"(^|/)(mem/)?vmstat(_-[A-Za-z_0-9-]+)?(\.txt|\.log)?$",
        &kind::VMSTAT,
    ),
    (
        r"(^|/)proc/interrupts(\.[A-Za-z0-9_-]+)?$",
        &kind::INTERRUPTS,
    ),
    (r"(^|/)proc/stat(\.[A-Za-z0-9_-]+)?$", &kind::PROC_STAT),
    (r"(^|/)proc/meminfo(\.[A-Za-z0-9_-]+)?$", &kind::MEMINFO),
    (r"(^|/)proc/diskstats(\.[A-Za-z0-9_-]+)?$", &kind::DISKSTATS),
    (r"(^|/)proc/net/dev(\.[A-Za-z0-9_-]+)?$", &kind::NET_DEV),
    (
        r"(^|/)proc/net/(snmp|netstat|snmp6)(\.[A-Za-z0-9_-]+)?$",
        &kind::NET_SNMP,
    ),
    (
        r"(^|/)nstat(_-[A-Za-z]+)?(\.[A-Za-z0-9_-]+)?$",
        &kind::NSTAT,
    ),
    (
        r"(^|/)netstat(_-s|-s)(\.[A-Za-z0-9_-]+)?$",
        &kind::NETSTAT_S,
    ),
    (
        r"(^|/)proc/pressure/(cpu|memory|io)(\.[A-Za-z0-9_-]+)?$",
        &kind::PRESSURE,
    ),
    // Loose copies named after the file: `pressure_cpu.txt`, `proc-pressure-io.txt`.
    (
        r"(^|/)(proc[_-])?pressure[_-](cpu|memory|io)(\.[A-Za-z0-9_-]+)?$",
        &kind::PRESSURE,
    ),
    (
        r"(^|/)proc/net/softnet_stat(\.[A-Za-z0-9_-]+)?$",
        &kind::SOFTNET_STAT,
    ),
    (r"(^|/)proc/loadavg(\.[A-Za-z0-9_-]+)?$", &kind::LOADAVG),
    (
        r"(^|/)(sys/devices/system/cpu/cpu[0-9]+/cpufreq|cpufreq/cpu[0-9]+)/(scaling_governor|scaling_driver|scaling_cur_freq|scaling_max_freq|scaling_min_freq|cpuinfo_max_freq|cpuinfo_min_freq|cpuinfo_cur_freq)$",
        &kind::CPUFREQ,
    ),
    (
        r"(^|/)cpupower[-_](-c_all_)?frequency-info(\.txt)?$",
        &kind::CPUPOWER_FREQUENCY_INFO,
    ),
    (
        r"(^|/)tuned-adm([-_](active|list))?(\.txt)?$",
        &kind::TUNED_ADM,
    ),
    (r"(^|/)proc/uptime(\.[A-Za-z0-9_-]+)?$", &kind::PROC_UPTIME),
    (
        r"(^|/)(sys/kernel/mm/(redhat_)?transparent_hugepage/|(redhat_)?(transparent_hugepage|thp)[_.-])(enabled|defrag)(\.txt)?$",
        &kind::THP_FILE,
    ),
    // Filesystems and block devices. df's header names its form (blocks, `-h`, `-i`), so any
    // option set is read; lsblk only in the forms its reader knows (JSON, the default table,
    // `-l`, `-b -o …`): `-f`, `-t`, `-D`, `-P` print other columns.
    (
        r"(^|/)df([-_]-?[A-Za-z]+(_-x_[a-z]+)?)*(\.txt|\.log|\.out)?$",
        &kind::DF,
    ),
    (r"(^|/)proc/(self/)?mounts$", &kind::MOUNTS),
    (r"(^|/)mount(_-l)?(\.txt)?$", &kind::MOUNTS),
    (
        r"(^|/)lsblk([-_](-?J|-?b|-?l|o[-_A-Z,:]*|-o[-_A-Z,:]*))*(\.txt|\.json)?$",
        &kind::LSBLK,
    ),
    (r"(^|/)block/sys-block-queue\.txt$", &kind::SYS_BLOCK_QUEUE),
    (
        r"(^|/)block/sys-block-slaves\.txt$",
        &kind::SYS_BLOCK_SLAVES,
    ),
    (r"(^|/)block/dmsetup-ls-tree\.txt$", &kind::DMSETUP_TREE),
    (r"(^|/)uptime(\.txt)?$", &kind::UPTIME),
    (r"(^|/)proc/swaps$", &kind::SWAPS),
    (r"(^|/)swapon(_--show)?(\.txt)?$", &kind::SWAPS),
    // KiB forms only: `free -m`, `-g`, `-b`, `-h` print other units, which the name would not say
    // to the parser.
    (r"(^|/)free(_-[kwlt]+)?(\.txt)?$", &kind::FREE),
    (r"(^|/)ethtool-i(\.txt)?$", &kind::ETHTOOL_I),
    (r"(^|/)ethtool_-i_[^/]+$", &kind::ETHTOOL_I),
    (r"(^|/)ethtool-l(\.txt)?$", &kind::ETHTOOL_L),
    (r"(^|/)ethtool_-l_[^/]+$", &kind::ETHTOOL_L),
    (r"(^|/)ethtool-g(\.txt)?$", &kind::ETHTOOL_G),
    (r"(^|/)ethtool_-g_[^/]+$", &kind::ETHTOOL_G),
    (r"(^|/)ethtool-k(\.txt)?$", &kind::ETHTOOL_K),
    (r"(^|/)ethtool_-k_[^/]+$", &kind::ETHTOOL_K),
    (r"(^|/)ethtool-c(\.txt)?$", &kind::ETHTOOL_C),
    (r"(^|/)ethtool_-c_[^/]+$", &kind::ETHTOOL_C),
    // The collector's snapshots at the window's start and end: `ethtool-S.start`, `.end`.
    (r"(^|/)ethtool-S(\.txt|\.start|\.end)?$", &kind::ETHTOOL_S),
    (r"(^|/)ethtool_-S_[^/]+$", &kind::ETHTOOL_S),
    (r"(^|/)lspci(-k|_-k|_-nnvv)?(\.txt)?$", &kind::LSPCI),
    (r"(^|/)ip-s-link(\.txt)?$", &kind::IP_LINK),
    (r"(^|/)ip_-s_-d_link$", &kind::IP_LINK),
    (r"(^|/)ip_-s_link$", &kind::IP_LINK),
    (r"(^|/)(proc/)?net/bonding/[^/]+$", &kind::BONDING),
    (r"(^|/)irq-affinity\.tsv$", &kind::IRQ_AFFINITY),
    (r"(^|/)sysctl(-a|_-a)(\.txt)?$", &kind::SYSCTL),
    (r"(^|/)ulimit(-a|_-a)?(\.txt)?$", &kind::ULIMIT),
    (r"(^|/)limits$", &kind::PROC_LIMITS),
    (r"(^|/)fd-count(\.txt)?$", &kind::FD_COUNT),
    (
        r"(^|/)(proc/sys/fs/)?file-nr(\.[A-Za-z0-9_-]+)?$",
        &kind::FILE_NR,
    ),
    // Before `numastat` alone: the sysfs file of one node, named by its folder.
    (
        r"(^|/)node[0-9]+/numastat(\.[A-Za-z0-9_-]+)?$",
        &kind::NODE_NUMASTAT,
    ),
    (r"(^|/)numastat(\.txt)?$", &kind::NUMASTAT),
    (
        r"(^|/)proc/net/stat/nf_conntrack(\.[A-Za-z0-9_-]+)?$",
        &kind::NF_CONNTRACK_STAT,
    ),
    (
        r"(^|/)conntrack[-_]-?S(\.[A-Za-z0-9_-]+)?$",
        &kind::CONNTRACK_S,
    ),
    (r"(^|/)(kernel|proc)/cmdline$", &kind::CMDLINE),
    (r"(^|/)tainted$", &kind::TAINTED),
    (r"(^|/)modinfo[^/]*(\.txt)?$", &kind::MODINFO),
    (r"(^|/)dmesg(\.txt)?$", &kind::DMESG),
    (r"(^|/)dmesg-T(\.txt)?$", &kind::DMESG),
    (r"(^|/)journalctl-k(\.txt|\.log)?$", &kind::SYSLOG),
    (
        r"(^|/)var/log/(messages|kern\.log|syslog)(-[0-9]{8}|\.[0-9]+)?$",
        &kind::SYSLOG,
    ),
    (r"(^|/)kern\.log(\.[0-9]+)?$", &kind::SYSLOG),
    (
        r"(^|/)chronyc(_-n)?[-_]tracking(\.txt)?$",
        &kind::CHRONYC_TRACKING,
    ),
    (
        r"(^|/)chronyc(_-n)?[-_]sources(_-v)?(\.txt)?$",
        &kind::CHRONYC_SOURCES,
    ),
    (r"(^|/)ntpq([-_]-?pn?)?(\.txt)?$", &kind::NTPQ),
    (r"(^|/)timedatectl(\.txt)?$", &kind::TIMEDATECTL),
    (r"(^|/)vmware-timesync(\.txt)?$", &kind::VMWARE_TIMESYNC),
    (r"(^|/)dmidecode[^/]*$", &kind::DMIDECODE),
    (r"(^|/)(systemd-)?detect-virt(\.txt)?$", &kind::DETECT_VIRT),
    (r"(^|/)systemctl[-_]status[^/]*$", &kind::SYSTEMCTL_STATUS),
    (r"(^|/)lscpu(\.txt)?$", &kind::LSCPU),
    (r"(^|/)system/ps\.txt$", &kind::PS),
    (r"(^|/)ps(_[a-z-]+)?(\.txt)?$", &kind::PS),
    (r"(^|/)top(_-b[^/]*)?(\.txt)?$", &kind::TOP),
    // `ss -s` prints a summary, not the socket table: before the `ss-<options>` row.
    (r"(^|/)ss(-s|_-s)(\.[A-Za-z0-9_-]+)?$", &kind::SS_S),
    (r"(^|/)ss-[a-z]+(\.[A-Za-z0-9_-]+)?$", &kind::SS),
    // Any option letters but `ss -s` alone, which prints a summary, not the socket table.
    (r"(^|/)ss_-([a-rt-zA-Z][a-zA-Z]*|s[a-zA-Z]+)$", &kind::SS),
    (
        r"(^|/)netstat-t[a-z]+(\.[A-Za-z0-9_-]+)?$",
        &kind::NETSTAT_TANP,
    ),
    (r"(^|/)netstat_-[a-z]*t[a-z]*$", &kind::NETSTAT_TANP),
    (r"(^|/)vmware-balloon(\.txt)?$", &kind::BALLOON),
    (r"(^|/)swapon-show(\.txt)?$", &kind::SWAPON),
    (r"(^|/)cgroup\.tsv(\.start|\.end)?$", &kind::CGROUP),
    (
        r"(^|/)(cgroup[_-])?memory\.events([._-](txt|[0-9]+|before|after|start|end))*$",
        &kind::CGROUP_MEMORY_EVENTS,
    ),
    (
        r"(^|/)(cgroup[_-])?cpu\.stat([._-](txt|[0-9]+|before|after|start|end))*$",
        &kind::CGROUP_CPU_STAT,
    ),
    (
        r"(^|/)(cgroup[_-])?memory\.oom_control([._-](txt|[0-9]+|before|after|start|end))*$",
        &kind::CGROUP_OOM_CONTROL,
    ),
    (
        r"(^|/)(cgroup[_-])?memory\.(max|limit_in_bytes)(\.txt)?$",
        &kind::CGROUP_MEMORY_MAX,
    ),
    (
        r"(^|/)(cgroup[_-])?memory\.failcnt([._-](txt|[0-9]+|before|after|start|end))*$",
        &kind::CGROUP_MEMORY_FAILCNT,
    ),
    (
        r"(^|/)(cgroup[_-])?cpu\.max(\.txt)?$",
        &kind::CGROUP_CPU_MAX,
    ),
    (
        r"(^|/)(jvm|proc)/[0-9]+/cgroup(\.txt)?$",
        &kind::PROC_CGROUP,
    ),
    (r"(^|/)(jvm|proc)/[0-9]+/status$", &kind::PROC_STATUS),
    (
        r"(^|/)(jvm|proc)/[0-9]+/cmdline(\.txt)?$",
        &kind::PROC_CMDLINE,
    ),
    (r"(^|/)jps([-_]-?[lmv]+)?(\.txt)?$", &kind::JPS),
    (r"(^|/)java-version(\.txt)?$", &kind::JAVA_VERSION),
    (r"(^|/)vm-version(\.txt)?$", &kind::JCMD_VM_VERSION),
    (r"(^|/)vm-flags(\.txt)?$", &kind::JCMD_VM_FLAGS),
    (
        r"(^|/)vm-command-line(\.txt)?$",
        &kind::JCMD_VM_COMMAND_LINE,
    ),
    (
        r"(^|/)vm-system-properties(\.txt)?$",
        &kind::JCMD_VM_SYSTEM_PROPERTIES,
    ),
    (r"(^|/)jstat[^/]*(\.txt)?$", &kind::JSTAT_GCUTIL),
    (
        r"(^|/)(class-)?histo(gram)?([-_.][^/]*)?$",
        &kind::CLASS_HISTOGRAM,
    ),
    (r"(^|/)gc-heap-info[^/]*(\.txt)?$", &kind::GC_HEAP_INFO),
    (r"(^|/)jmap-heap[^/]*(\.txt)?$", &kind::JMAP_HEAP),
    (r"(^|/)thread-dump[^/]*(\.txt)?$", &kind::THREAD_DUMP),
    (r"(^|/)jstack[^/]*(\.txt)?$", &kind::THREAD_DUMP),
    (r"(^|/)threads\.tsv$", &kind::JVM_THREADS),
    (r"(^|/)gc[^/]*\.log(\.[0-9]+)?(\.current)?$", &kind::GC_LOG),
    (
        r"(^|/)perf[-_]report[^/]*\.(txt|out|log)$",
        &kind::PERF_REPORT,
    ),
    (r"(^|/)perf[-_]top[^/]*\.txt$", &kind::PERF_REPORT),
    (
        r"(^|/)perf[-_]script[^/]*\.(txt|out|log)?$",
        &kind::PERF_SCRIPT,
    ),
    (r"(^|/)out\.perf$", &kind::PERF_SCRIPT),
    (r"(^|/)zoo[^/]*\.cfg$", &kind::ZOO_CFG),
    (r"(^|/)(zk-)?mntr(\.txt)?$", &kind::ZK_MNTR),
    (r"(^|/)(zk-)?wchs(\.txt)?$", &kind::ZK_WCHS),
    (r"(^|/)zk-conf(\.txt)?$", &kind::ZK_CONF),
    (r"(^|/)zk/[^/]+/conf\.txt$", &kind::ZK_CONF),
    (r"(^|/)(zk-)?srvr(\.txt)?$", &kind::ZK_SRVR),
    (r"(^|/)[A-Za-z0-9_.-]+-site\.xml$", &kind::HADOOP_SITE_XML),
    (r"(^|/)collector\.log$", &kind::COLLECTOR_LOG),
];

static PATH_SET: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new(PATHS.iter().map(|(p, _)| *p))
        .expect("the path patterns are valid regular expressions")
});

/// The kind of the artifact at bundle path `path`, from the path table.
/// A compressed member (`sar15.xz`, `messages-20240101.gz`) is matched by its name without the
/// compression's suffix, since the bundle reader delivers it decompressed.
pub fn by_path(path: &str) -> Option<&'static KindSpec> {
    let first = |p: &str| PATH_SET.matches(p).iter().next().map(|i| PATHS[i].1);
    first(path).or_else(|| {
        [".gz", ".xz", ".bz2", ".zst"]
            .iter()
            .find_map(|sfx| path.strip_suffix(sfx))
            .and_then(first)
    })
}

/// Which tool wrote a bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// rca's own `collector.sh`: a `manifest.tsv` names each artifact's kind, command and exit
    /// status.
    Rca,
    /// `sos report` (sos 4.x) or `sosreport` (3.x): copies of the host's files under their own
    /// paths (`etc/`, `proc/`, `sys/`, `var/log/`) and command outputs under
    /// `sos_commands/<plugin>/<command>`, with `sos_reports/` and `sos_logs/` of its own.
    Sosreport,
    /// SUSE `supportconfig`: text files (`basic-environment.txt`, `network.txt`, …) each holding
    /// many commands' outputs under `#==[ Command ]===#` headers.
    Supportconfig,
    /// Oracle OSWatcher (Black Box): `archive/osw<tool>/<host>_<tool>_YY.MM.DD.HHMM.dat[.gz]`,
    /// one file per tool and hour.
    Oswatcher,
    /// Loose outputs under names people chose.
    Loose,
}

impl Layout {
    /// Its name, as the report and the JSON document give it (`sosreport`).
    pub fn name(self) -> &'static str {
        match self {
            Layout::Rca => "rca-collector",
            Layout::Sosreport => "sosreport",
            Layout::Supportconfig => "supportconfig",
            Layout::Oswatcher => "oswatcher",
            Layout::Loose => "loose",
        }
    }
}

/// A bundle's layout, and what showed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Detected {
    /// The layout.
    pub layout: Layout,
    /// The folder inside the bundle where the layout's tree starts (`sosreport-db1-2024…`), `""`
    /// for the bundle's top.
    pub root: String,
    /// The path whose presence showed the layout; `None` for [`Layout::Loose`].
    pub marker: Option<String>,
}

impl Detected {
    /// Loose files at the bundle's top: what is assumed of a path before the bundle's layout is
    /// known.
    pub fn loose() -> Detected {
        Detected {
            layout: Layout::Loose,
            root: String::new(),
            marker: None,
        }
    }

    /// The bundle path of `inner`, a path relative to the layout's root.
    pub fn join(&self, inner: &str) -> String {
        if self.root.is_empty() {
            inner.to_string()
        } else {
            format!("{}/{inner}", self.root)
        }
    }
}

/// Marker paths, by precedence: `(layout, pattern)`; the pattern's group 1 is the layout's root
/// folder. A marker is a path only that tool writes, never a file's content.
static MARKERS: LazyLock<Vec<(Layout, Regex)>> = LazyLock::new(|| {
    [
        (Layout::Rca, r"^(.*?)/?manifest\.tsv$"),
        (Layout::Sosreport, r"^(.*?)/?sos_(?:commands|reports|logs)/"),
        (
            Layout::Supportconfig,
            r"^(.*?)/?(?:basic-environment|basic-health-check|supportconfig)\.txt$",
        ),
        (Layout::Oswatcher, r"^(.*?)/?archive/osw[a-z0-9]+/"),
    ]
    .into_iter()
    .map(|(l, p)| (l, Regex::new(p).expect("valid marker pattern")))
    .collect()
});

/// The layout of a bundle whose entries are at `paths`: the first layout (by the precedence
/// rca-collector, sosreport, supportconfig, OSWatcher) one of whose marker paths is present,
/// with the shallowest root among its markers; else [`Layout::Loose`].
pub fn detect<'a>(paths: impl IntoIterator<Item = &'a str>) -> Detected {
    let mut best: Vec<Option<(String, String)>> = vec![None; MARKERS.len()];
    for path in paths {
        for (i, (_, re)) in MARKERS.iter().enumerate() {
            let Some(c) = re.captures(path) else { continue };
            let root = c.get(1).map_or("", |m| m.as_str()).to_string();
            let shallower = best[i].as_ref().is_none_or(|(r, _)| {
                depth(&root) < depth(r) || (depth(&root) == depth(r) && root < *r)
            });
            if shallower {
                best[i] = Some((root, path.to_string()));
            }
        }
    }
    MARKERS
        .iter()
        .zip(best)
        .find_map(|((layout, _), found)| {
            found.map(|(root, marker)| Detected {
                layout: *layout,
                root,
                marker: Some(marker),
            })
        })
        .unwrap_or_else(Detected::loose)
}

fn depth(folder: &str) -> usize {
    if folder.is_empty() {
        0
    } else {
        folder.matches('/').count() + 1
    }
}

/// What a path is in a layout.
#[derive(Debug, Clone, Copy)]
pub enum Place {
    /// The layout's path table names its kind.
    Kind(&'static KindSpec),
    /// The layout says nothing of it: the content decides, if it shows positive structure.
    Sniff,
    /// The layout says what it is, and rca does not read that: the reason.
    NotRead(&'static str),
}

/// A sosreport's copies of the host's files (its tree outside `sos_commands/`): their path is
/// what they are, so content is never sniffed there.
const SOS_COPY: &str =
    "a sosreport copy of a host file that this version of rca does not read (its path, not its content, says what it is)";

/// sosreport's own files: its reports, logs and version.
const SOS_OWN: &str = "sosreport's own record of the collection, not evidence about the host";

/// A supportconfig text file, read entry by entry.
const SCC_FILE: &str =
    "a supportconfig file: its entries are read one by one, as `<file>#<command or file>`";

/// `path` relative to the layout's root folder (`path` itself when it is outside it).
fn inner<'a>(d: &Detected, path: &'a str) -> &'a str {
    if d.root.is_empty() {
        path
    } else {
        path.strip_prefix(d.root.as_str())
            .and_then(|p| p.strip_prefix('/'))
            .unwrap_or(path)
    }
}

/// Whether `path` is one of a supportconfig's text files of entries: a `*.txt` at the top of
/// its tree (`scc_db1_240101_1200/network.txt`).
pub fn supportconfig_file(d: &Detected, path: &str) -> bool {
    let inside = d.root.is_empty()
        || path
            .strip_prefix(d.root.as_str())
            .is_some_and(|p| p.starts_with('/'));
    let inner = inner(d, path);
    d.layout == Layout::Supportconfig && inside && !inner.contains('/') && inner.ends_with(".txt")
}

/// What the file at bundle path `path` is in the layout `d`: the layout's own table first
/// ([`sosreport::place`]), then the common table [`PATHS`], then the layout's default.
pub fn place(d: &Detected, path: &str) -> Place {
    let inner = inner(d, path);
    if let Some(p) = (d.layout == Layout::Sosreport)
        .then(|| sosreport::place(inner))
        .flatten()
    {
        return p;
    }
    if let Some(k) = by_path(path) {
        return Place::Kind(k);
    }
    if supportconfig_file(d, path) {
        return Place::NotRead(SCC_FILE);
    }
    match d.layout {
        Layout::Sosreport if inner.starts_with("sos_commands/") => Place::Sniff,
        Layout::Sosreport
            if inner.starts_with("sos_reports/")
                || inner.starts_with("sos_logs/")
                || inner == "version.txt" =>
        {
            Place::NotRead(SOS_OWN)
        }
        Layout::Sosreport => Place::NotRead(SOS_COPY),
        _ => Place::Sniff,
    }
}

/// The collector files each JVM's artifacts under `jvm/<pid>/`.
static JVM_DIR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|/)jvm/(\d+)/").expect("valid regular expression"));

/// The process an artifact belongs to by its place, `(pid, folder)`: the collector's
/// `jvm/<pid>/` folders (`rca-h/jvm/4242/jstat-gcutil.txt` → `(4242, "jvm/4242")`).
pub fn process_of(path: &str) -> Option<(Option<u32>, String)> {
    let c = JVM_DIR.captures(path)?;
    let pid = c[1].parse().ok();
    let dir = c.get(0).map(|m| m.as_str().trim_matches('/')).unwrap_or("");
    Some((pid, dir.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsers::kind::{by_name, sniff, Sniffed};

    #[test]
    fn layouts_are_detected_by_their_marker_paths_only() {
        let d = detect(["rca-h-1/sysstat/iostat-x.txt", "rca-h-1/manifest.tsv"]);
        assert_eq!((d.layout, d.root.as_str()), (Layout::Rca, "rca-h-1"));
        let d = detect([
            "sosreport-db1-2024-01-01-abcdef/etc/os-release",
            "sosreport-db1-2024-01-01-abcdef/sos_commands/kernel/uname_-a",
        ]);
        assert_eq!(
            (d.layout, d.root.as_str()),
            (Layout::Sosreport, "sosreport-db1-2024-01-01-abcdef")
        );
        assert_eq!(
            d.marker.as_deref(),
            Some("sosreport-db1-2024-01-01-abcdef/sos_commands/kernel/uname_-a")
        );
        let d = detect(["sos_reports/manifest.json", "free"]);
        assert_eq!((d.layout, d.root.as_str()), (Layout::Sosreport, ""));
        let d = detect(["scc_db1_240101_1200/basic-environment.txt"]);
        assert_eq!(
            (d.layout, d.root.as_str()),
            (Layout::Supportconfig, "scc_db1_240101_1200")
        );
        let d = detect(["oswbb/archive/oswvmstat/db1_vmstat_24.01.15.1300.dat.gz"]);
        assert_eq!((d.layout, d.root.as_str()), (Layout::Oswatcher, "oswbb"));
        // Names alone are not markers: a folder called `sosreport` with loose outputs is loose,
        // and a file that mentions sos_commands in its name is no folder of that name.
        let d = detect(["sosreport/iostat.txt", "notes/sos_commands.txt"]);
        assert_eq!(d.layout, Layout::Loose);
        assert_eq!(detect(std::iter::empty()).layout, Layout::Loose);
    }

    #[test]
    fn a_sosreport_sniffs_command_outputs_only() {
        let d = detect(["s/sos_commands/kernel/lsmod", "s/etc/hosts"]);
        assert!(matches!(place(&d, "s/etc/hosts"), Place::NotRead(_)));
        assert!(matches!(place(&d, "s/proc/1/oom_adj"), Place::NotRead(_)));
        assert!(matches!(
            place(&d, "s/sos_reports/sos.json"),
            Place::NotRead(_)
        ));
        assert!(matches!(
            place(&d, "s/sos_reports/manifest.json"),
            Place::Kind(k) if k.name == "manifest"
        ));
        assert!(matches!(
            place(&d, "s/sos_commands/foo/some_command"),
            Place::Sniff
        ));
        assert!(matches!(place(&d, "s/proc/modules"), Place::Kind(k) if k.name == "proc-modules"));
        // Elsewhere an unknown path is sniffed.
        assert!(matches!(
            place(&Detected::loose(), "etc/hosts"),
            Place::Sniff
        ));
    }

    #[test]
    fn loose_cgroup_control_files_are_known_by_their_names() {
        for (path, kind) in [
            (
                "sys/fs/cgroup/kubepods.slice/pod1/memory.events",
                "cgroup-memory-events",
            ),
            ("memory.events.txt", "cgroup-memory-events"),
            ("pod/cpu.stat", "cgroup-cpu-stat"),
            ("cpu.stat.1", "cgroup-cpu-stat"),
            ("cpu.stat_before", "cgroup-cpu-stat"),
            ("cgroup_cpu.stat", "cgroup-cpu-stat"),
            ("app-cg/memory.oom_control.after", "cgroup-oom-control"),
            (
                "sys/fs/cgroup/memory/app/memory.limit_in_bytes",
                "cgroup-memory-max",
            ),
            ("memory.max", "cgroup-memory-max"),
            ("memory.failcnt", "cgroup-memory-failcnt"),
            ("cpu.max", "cgroup-cpu-max"),
            ("proc/1234/cgroup", "proc-cgroup"),
        ] {
            assert_eq!(by_path(path).map(|k| k.name), Some(kind), "{path}");
        }
        for path in [
            "memory.stat",
            "memory.swap.max",
            "cpu.max.burst",
            "memory.events.local",
        ] {
            assert!(by_path(path).is_none(), "{path}");
        }
    }

    #[test]
    fn supportconfig_files_are_the_top_level_text_files_of_its_tree() {
        let d = detect(["scc_db1_240101_1200/basic-environment.txt"]);
        assert!(supportconfig_file(&d, "scc_db1_240101_1200/network.txt"));
        assert!(matches!(
            place(&d, "scc_db1_240101_1200/memory.txt"),
            Place::NotRead(_)
        ));
        assert!(!supportconfig_file(
            &d,
            "scc_db1_240101_1200/sar/sar20240101"
        ));
        assert!(!supportconfig_file(&d, "scc_db1_240101_1200/docker/c1.txt"));
        assert!(!supportconfig_file(&d, "other/network.txt"));
        assert!(!supportconfig_file(&Detected::loose(), "network.txt"));
        // An OSWatcher name only in its tool's folder.
        assert!(by_path("archive/oswvmstat/db1_iostat_24.01.15.1300.dat").is_none());
        assert!(by_path("notes/db1_vmstat_24.01.15.1300.dat").is_none());
    }

    #[test]
    fn path_table_matches_collector_and_loose_names() {
        assert_eq!(
            by_path("rca-db1-20240101T000000Z/sysstat/iostat-x.txt")
                .unwrap()
                .name,
            "iostat"
        );
        assert_eq!(by_path("x/proc/softirqs.end").unwrap().name, "softirqs");
        for snap in ["start", "end", "txt"] {
            let path = format!("rca-h/net/ethtool/eth0/ethtool-S.{snap}");
            assert_eq!(by_path(&path).unwrap().name, "ethtool-S", "{path}");
        }
        assert_eq!(
            by_path("sosreport-h/proc/modules").unwrap().name,
            "proc-modules"
        );
        assert_eq!(by_path("sos_commands/kernel/lsmod").unwrap().name, "lsmod");
        assert!(by_path("notes/iostat_node3.log.bak").is_none());
        for (path, kind) in [
            ("rca-h/kernel/journalctl-k.txt", "syslog"),
            ("rca-h/kernel/dmesg-T.txt", "dmesg"),
            ("rca-h/system/systemctl-status.txt", "systemctl-status"),
            ("systemctl_status_--all", "systemctl-status"),
            ("host/var/log/messages-20261129", "syslog"),
            ("host/var/log/kern.log.1", "syslog"),
            ("kern.log", "syslog"),
        ] {
            assert_eq!(by_path(path).unwrap().name, kind, "{path}");
        }
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
            by_path("rca-h/jvm/4242/gc-heap-info.2.txt").unwrap().name,
            "gc-heap-info"
        );
        assert_eq!(
            by_path("rca-h/jvm/4242/jmap-heap.2.txt").unwrap().name,
            "jmap-heap"
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
            ("rca-h/jvm/4242/cgroup.tsv.start", "cgroup"),
            ("rca-h/proc/77/cgroup.tsv.end", "cgroup"),
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
            ("sosreport-h/proc/pressure/cpu", "pressure"),
            ("rca-h/proc/77/fd-count", "fd-count"),
            ("rca-h/jvm/4242/fd-count", "fd-count"),
            ("rca-h/proc/sys/fs/file-nr.start", "file-nr"),
            ("sosreport-h/proc/sys/fs/file-nr", "file-nr"),
            ("rca-h/net/ss-s.end", "ss-s"),
            ("sosreport-h/sos_commands/networking/ss_-s", "ss-s"),
            ("rca-h/net/ss-tin.end", "ss"),
            ("rca-h/sys/node/node1/numastat.end", "node-numastat"),
            (
                "sosreport-h/sys/devices/system/node/node0/numastat",
                "node-numastat",
            ),
            ("notes/numastat.txt", "numastat"),
            (
                "rca-h/proc/net/stat/nf_conntrack.start",
                "nf-conntrack-stat",
            ),
            ("rca-h/net/conntrack-S.end", "conntrack-s"),
            (
                "oswbb/archive/oswvmstat/db1_vmstat_24.01.15.1300.dat.gz",
                "oswvmstat",
            ),
            (
                "archive/oswiostat/db1_iostat_24.01.15.1300.dat",
                "oswiostat",
            ),
            (
                "x/archive/oswmpstat/db1.example.com_mpstat_24.01.15.1300.dat",
                "oswmpstat",
            ),
            ("rca-h/proc/pressure/io.start", "pressure"),
            ("rca-h/fs/df-P.txt", "df"),
            ("rca-h/fs/df-i.txt", "df"),
            ("sosreport-h/sos_commands/filesys/df_-al_-x_autofs", "df"),
            ("sosreport-h/sos_commands/filesys/df_-ali_-x_autofs", "df"),
            ("notes/df-h.txt", "df"),
            ("rca-h/proc/mounts", "mounts"),
            ("sosreport-h/proc/mounts", "mounts"),
            ("sosreport-h/sos_commands/filesys/mount_-l", "mounts"),
            ("rca-h/block/lsblk-J-b.json", "lsblk"),
            ("rca-h/block/lsblk.txt", "lsblk"),
            ("sosreport-h/sos_commands/block/lsblk", "lsblk"),
            ("notes/lsblk_-l", "lsblk"),
            ("rca-h/block/sys-block-queue.txt", "sys-block-queue"),
            ("rca-h/block/sys-block-slaves.txt", "sys-block-slaves"),
            ("rca-h/proc/loadavg.end", "loadavg"),
            (
                "sosreport-h/sys/kernel/mm/transparent_hugepage/defrag",
                "thp-file",
            ),
            ("notes/thp_enabled.txt", "thp-file"),
            ("notes/pressure_cpu.txt", "pressure"),
            ("sosreport-h/proc/loadavg", "loadavg"),
            (
                "sosreport-h/sys/devices/system/cpu/cpu7/cpufreq/scaling_governor",
                "cpufreq",
            ),
            ("rca-h/cpu/cpufreq/cpu0/cpuinfo_max_freq", "cpufreq"),
            (
                "sosreport-h/sos_commands/processor/cpupower_frequency-info",
                "cpupower-frequency-info",
            ),
            (
                "rca-h/cpu/cpupower-frequency-info.txt",
                "cpupower-frequency-info",
            ),
            (
                "sosreport-h/sos_commands/tuned/tuned-adm_active",
                "tuned-adm",
            ),
            ("rca-h/cpu/tuned-adm-active.txt", "tuned-adm"),
        ] {
            assert_eq!(by_path(path).map(|k| k.name), Some(kind), "{path}");
        }
        assert!(by_path("rca-h/proc/stat.start").is_some_and(|k| k.name == "proc-stat"));
        assert!(by_path("rca-h/time/status").is_none());
        // Names of other things that the rows once took.
        for (path, kind) in [
            ("sosreport-h/proc/vmstat", Some("proc-vmstat")),
            ("rca-h/mem/vmstat.txt", Some("vmstat")),
            ("sosreport-h/var/log/apt/history.log", None),
            (
                "rca-h/jvm/4242/class-histogram.txt",
                Some("class-histogram"),
            ),
            ("notes/histo_1.txt", Some("class-histogram")),
            ("sosreport-h/sos_commands/memory/free_-m", None),
            ("notes/free_-w.txt", Some("free")),
            ("sosreport-h/sos_commands/networking/ss_-s", Some("ss-s")),
            (
                "sosreport-h/sos_commands/networking/ss_-peaonmi",
                Some("ss"),
            ),
            ("notes/ss_-st", Some("ss")),
            ("sosreport-h/sos_commands/block/lsblk_-f_-a_-l", None),
            ("sosreport-h/sos_commands/block/lsblk_-t", None),
            ("sosreport-h/sos_commands/block/lsblk_-O_-P", None),
            ("notes/dfs-report.txt", None),
        ] {
            assert_eq!(by_path(path).map(|k| k.name), kind, "{path}");
        }
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
