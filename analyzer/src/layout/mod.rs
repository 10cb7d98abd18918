//! Bundle layouts: where the tools that write bundles put each artifact kind.
//!
//! In: a path inside a bundle. Out: the kind its place says it is ([`by_path`]), and the process
//! it belongs to when the layout files artifacts per process ([`process_of`]).
//!
//! The path table covers the rca collector's layout (`sysstat/iostat-x.txt`, `proc/softirqs.start`,
//! `jvm/<pid>/…`, `zk/<host>_<port>/…`), sosreport's (`proc/…`, `sos_commands/<plugin>/<command
//! with its arguments>`: `ethtool_-k_ens3`, `ip_-s_-d_link`, `sysctl_-a`) and the names people
//! give loose outputs (`iostat.log`, `mpstat_-P_ALL.txt`). Patterns are matched against the end of
//! the path, so any top folder is allowed; the first matching row wins. What a file holds when
//! its place says nothing is for content sniffing ([`parsers::kind::sniff`]).

use parsers::kind::{self, KindSpec};
use regex::{Regex, RegexSet};
use std::sync::LazyLock;

/// Path patterns (regular expressions over the whole bundle path) and the kind each names, in
/// precedence order.
pub static PATHS: &[(&str, &KindSpec)] = &[
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
    (r"(^|/)proc/vmstat(\.[A-Za-z0-9_-]+)?$", &kind::PROC_VMSTAT),
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
    (r"(^|/)proc/swaps$", &kind::SWAPS),
    (r"(^|/)swapon(_--show)?(\.txt)?$", &kind::SWAPS),
    (r"(^|/)free(_-[a-z]+)?(\.txt)?$", &kind::FREE),
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
    (r"(^|/)ethtool-S(\.txt)?$", &kind::ETHTOOL_S),
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
    (r"(^|/)(kernel|proc)/cmdline$", &kind::CMDLINE),
    (r"(^|/)tainted$", &kind::TAINTED),
    (r"(^|/)modinfo[^/]*(\.txt)?$", &kind::MODINFO),
    (r"(^|/)dmesg(\.txt)?$", &kind::DMESG),
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
    (r"(^|/)lscpu(\.txt)?$", &kind::LSCPU),
    (r"(^|/)system/ps\.txt$", &kind::PS),
    (r"(^|/)ps(_[a-z-]+)?(\.txt)?$", &kind::PS),
    (r"(^|/)top(_-b[^/]*)?(\.txt)?$", &kind::TOP),
    (r"(^|/)ss-[a-z]+(\.[A-Za-z0-9_-]+)?$", &kind::SS),
    (r"(^|/)ss_-[a-zA-Z]+$", &kind::SS),
    (
        r"(^|/)netstat-t[a-z]+(\.[A-Za-z0-9_-]+)?$",
        &kind::NETSTAT_TANP,
    ),
    (r"(^|/)netstat_-[a-z]*t[a-z]*$", &kind::NETSTAT_TANP),
    (r"(^|/)vmware-balloon(\.txt)?$", &kind::BALLOON),
    (r"(^|/)swapon-show(\.txt)?$", &kind::SWAPON),
    (r"(^|/)cgroup\.tsv$", &kind::CGROUP),
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
        r"(^|/)(class-)?histo(gram)?[^/]*(\.txt)?$",
        &kind::CLASS_HISTOGRAM,
    ),
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
pub fn by_path(path: &str) -> Option<&'static KindSpec> {
    PATH_SET.matches(path).iter().next().map(|i| PATHS[i].1)
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
            ("sosreport-h/proc/pressure/cpu", "pressure"),
            ("rca-h/proc/pressure/io.start", "pressure"),
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
