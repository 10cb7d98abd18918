//! Helpers shared by the integration tests: fixture loading, float comparison, the sniffers of
//! every kind, a deterministic byte generator for robustness tests, and the listing of every
//! fixture's kind and parser for the snapshot tests.

use parsers::proc::softirqs;
use parsers::sysstat::{iostat, mpstat};
use parsers::{hadoop, host, jvm, kernel, net, perf, proc, procs, sysstat, time, zookeeper};
use parsers::{ParseError, Parsed, Sniff};
use serde::Serialize;
use std::path::PathBuf;

/// Path of a fixture under `tests/fixtures/`.
pub fn fixture_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

/// Text of a fixture under `tests/fixtures/`.
pub fn fixture(rel: &str) -> String {
    let path = fixture_path(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every fixture file directly inside a fixture directory, sorted, as `dir/name` (for "no other
/// kind's fixture is claimed" checks).
pub fn all_fixtures() -> Vec<String> {
    let mut out = Vec::new();
    for d in std::fs::read_dir(fixture_path("")).unwrap() {
        let d = d.unwrap();
        if !d.file_type().unwrap().is_dir() {
            continue;
        }
        for f in std::fs::read_dir(d.path()).unwrap() {
            let f = f.unwrap();
            if f.file_type().unwrap().is_file() {
                out.push(format!(
                    "{}/{}",
                    d.file_name().to_string_lossy(),
                    f.file_name().to_string_lossy()
                ));
            }
        }
    }
    out.sort();
    out
}

/// Every file of one fixture directory, sorted, as `dir/name`.
pub fn fixtures_in(dir: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(fixture_path(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| format!("{dir}/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no fixtures in {dir}");
    out
}

/// Asserts that `actual` is `Some(expected)` within rounding of the printed values.
#[track_caller]
pub fn assert_close(actual: Option<f64>, expected: f64) {
    match actual {
        Some(a) if (a - expected).abs() <= 1e-9 * expected.abs().max(1.0) => {}
        other => panic!("expected Some({expected}), got {other:?}"),
    }
}

/// The first `n` bytes of `text`, cut back to a character boundary (what the analyzer hands a
/// sniffer: it may end mid-line).
pub fn head(text: &str, n: usize) -> &str {
    let mut end = n.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The size of the head the analyzer passes to sniffers.
pub const SNIFF_HEAD_BYTES: usize = 4096;

/// Artifact kinds with a sniffer in this crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Iostat,
    Mpstat,
    Softirqs,
    ProcModules,
    Lsmod,
    Uname,
    OsRelease,
}

pub const ALL_KINDS: [Kind; 7] = [
    Kind::Iostat,
    Kind::Mpstat,
    Kind::Softirqs,
    Kind::ProcModules,
    Kind::Lsmod,
    Kind::Uname,
    Kind::OsRelease,
];

impl Kind {
    pub fn sniff(self, head: &str) -> Sniff {
        match self {
            Kind::Iostat => iostat::sniff(head),
            Kind::Mpstat => mpstat::sniff(head),
            Kind::Softirqs => softirqs::sniff(head),
            Kind::ProcModules => kernel::modules::sniff_proc_modules(head),
            Kind::Lsmod => kernel::lsmod::sniff_lsmod(head),
            Kind::Uname => host::uname::sniff_uname(head),
            Kind::OsRelease => host::os_release::sniff_os_release(head),
        }
    }

    /// Runs the parser; returns whether it produced a record and how many issues.
    pub fn parse(self, text: &str) -> Result<usize, parsers::ParseError> {
        match self {
            Kind::Iostat => iostat::parse(text).map(|p| p.issues.len()),
            Kind::Mpstat => mpstat::parse(text).map(|p| p.issues.len()),
            Kind::Softirqs => softirqs::parse(text).map(|p| p.issues.len()),
            Kind::ProcModules => kernel::modules::parse_proc_modules(text).map(|p| p.issues.len()),
            Kind::Lsmod => kernel::lsmod::parse_lsmod(text).map(|p| p.issues.len()),
            Kind::Uname => host::uname::parse_uname(text).map(|p| p.issues.len()),
            Kind::OsRelease => host::os_release::parse_os_release(text).map(|p| p.issues.len()),
        }
    }
}

/// A small deterministic pseudo-random generator (xorshift64*), so that robustness tests are
/// reproducible without extra dependencies.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}

/// Inserts `line` before 1-based line `at` of `text`.
pub fn insert_line(text: &str, at: usize, line: &str) -> String {
    let mut out = String::with_capacity(text.len() + line.len() + 1);
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == at {
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(l);
    }
    out
}

/// Derived decimal-comma variant: every `.` between two digits becomes `,`, except on the
/// sysstat banner (first line), whose kernel release keeps its dots in every locale. This is
/// how sysstat prints numbers under a locale such as `LC_NUMERIC=de_DE.UTF-8`.
pub fn decimal_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i == 0 && line.starts_with("Linux") {
            out.push_str(line);
            continue;
        }
        let b = line.as_bytes();
        for (j, c) in line.char_indices() {
            let between_digits = c == '.'
                && j > 0
                && b[j - 1].is_ascii_digit()
                && b.get(j + 1).is_some_and(|n| n.is_ascii_digit());
            out.push(if between_digits { ',' } else { c });
        }
    }
    out
}

/// One parser run over fixtures for the snapshot tests: which fixtures, the artifact kind's name
/// (as the analyzer's `kinds.rs` writes it; formats it does not analyze yet get a name of the
/// same style), and a function that parses a fixture's text and snapshots the whole record.
///
/// `fixtures` is a directory (every file directly inside it), a file, or a directory and a file
/// name pattern where `*` stands for any characters (`captured-a/sar-*`). The listing is plain
/// data so that it can become a lookup in a registry of kinds (kind name → parser).
pub struct FixtureKind {
    /// Fixture directory, file or `dir/pattern` under `tests/fixtures/`.
    pub fixtures: &'static str,
    /// Artifact kind name (`iostat`, `proc-modules`).
    pub kind: &'static str,
    /// Parses the text and asserts the snapshot named by the first argument.
    pub snapshot: fn(name: &str, text: &str),
}

impl FixtureKind {
    /// The fixture files this entry covers, sorted, as `dir/name`.
    pub fn files(&self) -> Vec<String> {
        let path = fixture_path(self.fixtures);
        if path.is_file() {
            return vec![self.fixtures.to_string()];
        }
        let (dir, pattern) = if path.is_dir() {
            (self.fixtures, "*")
        } else {
            self.fixtures
                .rsplit_once('/')
                .unwrap_or_else(|| panic!("{}: no such fixture", self.fixtures))
        };
        let out: Vec<String> = fixtures_in(dir)
            .into_iter()
            .filter(|rel| fixture_path(rel).is_file())
            .filter(|rel| wildcard_match(pattern, &rel[dir.len() + 1..]))
            .collect();
        assert!(!out.is_empty(), "{}: matches no fixture", self.fixtures);
        out
    }
}

/// `*` matches any run of characters; everything else matches itself.
fn wildcard_match(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, rest)) => {
            let Some(tail) = name.strip_prefix(head) else {
                return false;
            };
            (0..=tail.len())
                .filter(|&i| tail.is_char_boundary(i))
                .any(|i| wildcard_match(rest, &tail[i..]))
        }
    }
}

/// Snapshots a whole parse result: the record and its issues, or the error.
pub fn snapshot_record<T: Serialize>(name: &str, parsed: Result<Parsed<T>, ParseError>) {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_yaml_snapshot!(name, parsed));
}

/// A `perf script` record holds every sample (tens of thousands of frames for the larger
/// fixtures), too big to review as a snapshot: its snapshot keeps the counts over the input and
/// the first samples.
#[derive(Serialize)]
pub struct PerfScriptDigest {
    /// Counts over the input.
    pub summary: perf::script::Summary,
    /// The first [`PerfScriptDigest::KEPT`] samples.
    pub first_samples: Vec<perf::script::Sample>,
}

impl PerfScriptDigest {
    /// How many samples are kept.
    pub const KEPT: usize = 3;

    fn parse(text: &str) -> Result<Parsed<PerfScriptDigest>, ParseError> {
        perf::script::parse(text).map(|p| Parsed {
            value: PerfScriptDigest {
                summary: p.value.summary,
                first_samples: p.value.samples.into_iter().take(Self::KEPT).collect(),
            },
            issues: p.issues,
        })
    }
}

macro_rules! kind {
    ($fixtures:literal, $kind:literal, $parse:path) => {
        FixtureKind {
            fixtures: $fixtures,
            kind: $kind,
            snapshot: |name, text| snapshot_record(name, $parse(text)),
        }
    };
}

/// Every fixture with the kind it is and the parser that reads it.
pub const FIXTURE_KINDS: &[FixtureKind] = &[
    // sysstat
    kind!("iostat", "iostat", sysstat::iostat::parse),
    kind!("captured/iostat-*", "iostat", sysstat::iostat::parse),
    kind!("mpstat", "mpstat", sysstat::mpstat::parse),
    kind!("captured/mpstat-*", "mpstat", sysstat::mpstat::parse),
    kind!("sar/sysstat-tests__sar-*", "sar", sysstat::sar::parse),
    kind!("captured-a/sar-*", "sar", sysstat::sar::parse),
    kind!(
        "sar/sysstat-tests__sadf-j-*",
        "sadf-json",
        sysstat::sadf::parse
    ),
    kind!("captured-a/sadf-j.txt", "sadf-json", sysstat::sadf::parse),
    kind!("pidstat", "pidstat", sysstat::pidstat::parse),
    kind!("captured-a/pidstat-*", "pidstat", sysstat::pidstat::parse),
    // /proc
    kind!("proc-softirqs", "softirqs", proc::softirqs::parse),
    kind!("captured/softirqs-*", "softirqs", proc::softirqs::parse),
    kind!("proc-interrupts", "interrupts", proc::interrupts::parse),
    kind!(
        "captured-a/proc-interrupts-*",
        "interrupts",
        proc::interrupts::parse
    ),
    kind!("proc-stat", "proc-stat", proc::stat::parse),
    kind!("captured-a/proc-stat-*", "proc-stat", proc::stat::parse),
    kind!("proc-vmstat", "proc-vmstat", proc::vmstat::parse),
    kind!(
        "captured-a/proc-vmstat-*",
        "proc-vmstat",
        proc::vmstat::parse
    ),
    kind!("proc-meminfo", "meminfo", proc::meminfo::parse),
    kind!("captured-a/proc-meminfo-*", "meminfo", proc::meminfo::parse),
    kind!("proc-diskstats", "diskstats", proc::diskstats::parse),
    kind!(
        "captured-a/proc-diskstats-*",
        "diskstats",
        proc::diskstats::parse
    ),
    kind!("proc-net-dev", "net-dev", proc::net_dev::parse),
    kind!("captured-a/proc-net-dev-*", "net-dev", proc::net_dev::parse),
    kind!("proc-net-snmp", "net-snmp", proc::snmp::parse),
    kind!("captured-a/proc-net-snmp*", "net-snmp", proc::snmp::parse),
    kind!(
        "captured-a/proc-net-netstat.txt",
        "net-snmp",
        proc::snmp::parse
    ),
    kind!("captured-a/nstat-az.txt", "nstat", proc::snmp::parse_nstat),
    kind!("captured-a/proc-swaps*", "swaps", proc::swaps::parse),
    kind!("captured-a/swapon-show-*", "swapon", proc::swaps::parse),
    kind!("free/jc__swapon-show-*", "swapon", proc::swaps::parse),
    kind!(
        "captured-proc/collector-status-*",
        "proc-status",
        proc::status::parse
    ),
    kind!(
        "captured-proc/proc-*-status-*",
        "proc-status",
        proc::status::parse
    ),
    kind!("ulimit", "proc-limits", proc::limits::parse_proc_limits),
    kind!(
        "captured-b/proc-self-limits.txt",
        "proc-limits",
        proc::limits::parse_proc_limits
    ),
    // kernel
    kind!(
        "captured-b/proc-cmdline.txt",
        "cmdline",
        kernel::cmdline::parse_cmdline
    ),
    kind!("tainted", "tainted", kernel::taint::parse_tainted),
    kind!(
        "captured-b/proc-sys-kernel-tainted.txt",
        "tainted",
        kernel::taint::parse_tainted
    ),
    kind!(
        "captured-b/modinfo-*",
        "modinfo",
        kernel::modinfo::parse_modinfo
    ),
    kind!("dmesg", "dmesg", kernel::dmesg::parse_dmesg),
    kind!("captured-b/dmesg*", "dmesg", kernel::dmesg::parse_dmesg),
    kind!(
        "proc-modules",
        "proc-modules",
        kernel::modules::parse_proc_modules
    ),
    kind!("lsmod", "lsmod", kernel::lsmod::parse_lsmod),
    kind!("sysctl", "sysctl", kernel::sysctl::parse),
    kind!("captured-b/sysctl-*", "sysctl", kernel::sysctl::parse),
    // network
    kind!(
        "ethtool/*ethtool-i-*",
        "ethtool-i",
        net::ethtool::driver::parse_driver
    ),
    kind!(
        "captured-b/ethtool-i-*",
        "ethtool-i",
        net::ethtool::driver::parse_driver
    ),
    kind!(
        "ethtool/*ethtool-l-*",
        "ethtool-l",
        net::ethtool::channels::parse_channels
    ),
    kind!(
        "captured-b/ethtool-l-*",
        "ethtool-l",
        net::ethtool::channels::parse_channels
    ),
    kind!(
        "ethtool/*ethtool-g-*",
        "ethtool-g",
        net::ethtool::rings::parse_rings
    ),
    kind!(
        "captured-b/ethtool-g-*",
        "ethtool-g",
        net::ethtool::rings::parse_rings
    ),
    kind!(
        "ethtool/*ethtool-k-*",
        "ethtool-k",
        net::ethtool::features::parse_features
    ),
    kind!(
        "captured-b/ethtool-k-*",
        "ethtool-k",
        net::ethtool::features::parse_features
    ),
    kind!(
        "ethtool/*ethtool-c-*",
        "ethtool-c",
        net::ethtool::coalesce::parse_coalesce
    ),
    kind!(
        "captured-b/ethtool-c-*",
        "ethtool-c",
        net::ethtool::coalesce::parse_coalesce
    ),
    kind!(
        "ethtool/*ethtool-S-*",
        "ethtool-S",
        net::ethtool::stats::parse_stats
    ),
    kind!(
        "captured-b/ethtool-S-*",
        "ethtool-S",
        net::ethtool::stats::parse_stats
    ),
    kind!(
        "ethtool/*ethtool-T-*",
        "ethtool-T",
        net::ethtool::timestamping::parse_timestamping
    ),
    kind!(
        "captured-b/ethtool-T-*",
        "ethtool-T",
        net::ethtool::timestamping::parse_timestamping
    ),
    kind!(
        "ethtool/*ethtool-settings-*",
        "ethtool-settings",
        net::ethtool::settings::parse_settings
    ),
    kind!(
        "captured-b/ethtool-settings-*",
        "ethtool-settings",
        net::ethtool::settings::parse_settings
    ),
    kind!("captured-b/ip-s-*", "ip-link", net::iplink::parse),
    kind!(
        "captured-b/irq-affinity.txt",
        "irq-affinity",
        net::irq_affinity::parse
    ),
    kind!(
        "captured-a/netstat-s.txt",
        "netstat-s",
        net::netstat_s::parse
    ),
    kind!("netstat/*netstat-s-*", "netstat-s", net::netstat_s::parse),
    // processes
    kind!("ps", "ps", procs::ps::parse_ps),
    kind!("captured-b/ps-*", "ps", procs::ps::parse_ps),
    kind!("top", "top", procs::top::parse_top),
    kind!("captured-b/top-*", "top", procs::top::parse_top),
    kind!("ss", "ss", procs::ss::parse_ss),
    kind!("captured-b/ss-*", "ss", procs::ss::parse_ss),
    kind!(
        "netstat/*netstat-neopa-*",
        "netstat-tanp",
        procs::netstat::parse_netstat
    ),
    kind!(
        "netstat/*netstat-aeep-*",
        "netstat-tanp",
        procs::netstat::parse_netstat
    ),
    kind!(
        "netstat/*netstat-lnp-*",
        "netstat-tanp",
        procs::netstat::parse_netstat
    ),
    kind!(
        "captured-b/netstat-tanp.txt",
        "netstat-tanp",
        procs::netstat::parse_netstat
    ),
    kind!("vmstat", "vmstat", procs::vmstat::parse),
    kind!("captured-a/vmstat*", "vmstat", procs::vmstat::parse),
    kind!("free/*free-*", "free", procs::free::parse),
    kind!("captured-a/free*", "free", procs::free::parse),
    kind!("captured-b/ulimit-*", "ulimit", procs::ulimit::parse_ulimit),
    kind!(
        "captured-proc/collector-cgroup-*",
        "cgroup",
        procs::cgroup::parse
    ),
    // JVM
    kind!("jstat", "jstat-gcutil", jvm::jstat::parse),
    kind!("captured-jvm/jstat-*", "jstat-gcutil", jvm::jstat::parse),
    kind!("jcmd-histogram", "class-histogram", jvm::histogram::parse),
    kind!(
        "captured-jvm/jcmd-GC.class_histogram-*",
        "class-histogram",
        jvm::histogram::parse
    ),
    kind!(
        "captured-jvm/jmap-histo-*",
        "class-histogram",
        jvm::histogram::parse
    ),
    kind!(
        "java-version",
        "java-version",
        jvm::java_version::parse_java_version
    ),
    kind!(
        "captured-jvm/java-version-*",
        "java-version",
        jvm::java_version::parse_java_version
    ),
    kind!(
        "captured-jvm/jcmd-VM.version-*",
        "jcmd-vm-version",
        jvm::vm_version::parse_vm_version
    ),
    kind!(
        "captured-jvm/jcmd-VM.flags-*",
        "jcmd-vm-flags",
        jvm::vm_flags::parse_vm_flags
    ),
    kind!(
        "captured-jvm/jcmd-VM.command_line-*",
        "jcmd-vm-command-line",
        jvm::vm_command_line::parse_vm_command_line
    ),
    kind!(
        "captured-jvm/key-value/jcmd-VM.system_properties-*",
        "jcmd-vm-system-properties",
        jvm::vm_system_properties::parse_system_properties
    ),
    kind!("jstack", "thread-dump", jvm::thread_dump::parse),
    kind!(
        "captured-zk/jcmd-thread-print-*",
        "thread-dump",
        jvm::thread_dump::parse
    ),
    kind!(
        "captured-zk/jstack-*",
        "thread-dump",
        jvm::thread_dump::parse
    ),
    kind!(
        "captured-proc/collector-threads-*",
        "jvm-threads",
        jvm::thread_counts::parse
    ),
    kind!(
        "captured-proc/threads-*",
        "jvm-threads",
        jvm::thread_counts::parse
    ),
    kind!("gc-logs", "gc-log", jvm::gclog::parse),
    kind!("captured-gc", "gc-log", jvm::gclog::parse),
    kind!("captured-proc/jps-*", "jps", jvm::jps::parse),
    kind!("captured-proc/collector-jps-*", "jps", jvm::jps::parse),
    // time
    kind!(
        "chronyc/*sources*",
        "chronyc-sources",
        time::chrony_sources::parse_sources
    ),
    kind!(
        "captured-b/chronyc-*sources*",
        "chronyc-sources",
        time::chrony_sources::parse_sources
    ),
    kind!(
        "chronyc/*tracking*",
        "chronyc-tracking",
        time::chrony_tracking::parse_tracking
    ),
    kind!(
        "captured-b/chronyc-tracking-*",
        "chronyc-tracking",
        time::chrony_tracking::parse_tracking
    ),
    kind!("ntpq", "ntpq", time::ntpq::parse_ntpq),
    kind!(
        "timedatectl/hotsos__*",
        "timedatectl",
        time::timedatectl::parse_timedatectl
    ),
    kind!(
        "timedatectl/insights-core__*",
        "timedatectl",
        time::timedatectl::parse_timedatectl
    ),
    kind!(
        "timedatectl/jc__timedatectl-centos7-*",
        "timedatectl",
        time::timedatectl::parse_timedatectl
    ),
    kind!(
        "timedatectl/jc__timedatectl-ubuntu1804-*",
        "timedatectl",
        time::timedatectl::parse_timedatectl
    ),
    kind!(
        "captured-b/timedatectl-*",
        "timedatectl",
        time::timedatectl::parse_timedatectl
    ),
    kind!(
        "timedatectl/jc__timedatectl-timesync-status.txt",
        "timedatectl-timesync-status",
        time::timedatectl::parse_timesync_status
    ),
    // host
    kind!("captured/uname-a.txt", "uname", host::uname::parse_uname),
    kind!(
        "captured/os-release.txt",
        "os-release",
        host::os_release::parse_os_release
    ),
    kind!("dmidecode", "dmidecode", host::dmidecode::parse_dmidecode),
    kind!(
        "captured-b/dmidecode-*",
        "dmidecode",
        host::dmidecode::parse_dmidecode
    ),
    kind!(
        "captured-b/systemd-detect-virt*",
        "detect-virt",
        host::detect_virt::parse_detect_virt
    ),
    kind!("captured-b/lscpu.txt", "lscpu", host::lscpu::parse_lscpu),
    kind!("lspci", "lspci", host::lspci::parse),
    kind!("captured-b/lspci-*", "lspci", host::lspci::parse),
    // perf
    kind!("perf/perf6.1-report-*", "perf-report", perf::report::parse),
    kind!("perf/perf6.1-top-*", "perf-report", perf::report::parse),
    kind!("perf/*script*", "perf-script", PerfScriptDigest::parse),
    // ZooKeeper, Hadoop
    kind!("zookeeper", "zoo-cfg", zookeeper::config::parse_cfg),
    kind!(
        "captured-zk/zk-*-conf.txt",
        "zk-conf",
        zookeeper::config::parse_conf
    ),
    kind!(
        "captured-zk/zk-*-mntr.txt",
        "zk-mntr",
        zookeeper::mntr::parse_mntr
    ),
    kind!(
        "captured-zk/zk-*-srvr.txt",
        "zk-srvr",
        zookeeper::srvr::parse_srvr
    ),
    kind!(
        "captured-zk/zk-*-wchs.txt",
        "zk-wchs",
        zookeeper::wchs::parse_wchs
    ),
    kind!("hadoop-conf", "hadoop-site-xml", hadoop::site_xml::parse),
];
