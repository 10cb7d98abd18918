//! Helpers shared by the integration tests: fixture loading, float comparison, the sniffers of
//! every kind, a deterministic byte generator for robustness tests, and the listing of every
//! fixture's kind and parser for the snapshot tests.

use parsers::kind::{self, KindSpec};
use parsers::{net, perf, time};
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

/// A kind of the registry ([`parsers::kind::KINDS`]), as the tests call it: its sniffer and
/// parser.
#[derive(Clone, Copy)]
pub struct Kind(pub &'static KindSpec);

#[allow(non_upper_case_globals)]
impl Kind {
    pub const Iostat: Kind = Kind(&kind::IOSTAT);
    pub const Mpstat: Kind = Kind(&kind::MPSTAT);
    pub const Softirqs: Kind = Kind(&kind::SOFTIRQS);
    pub const ProcModules: Kind = Kind(&kind::PROC_MODULES);
    pub const Lsmod: Kind = Kind(&kind::LSMOD);
    pub const Uname: Kind = Kind(&kind::UNAME);
    pub const OsRelease: Kind = Kind(&kind::OS_RELEASE);

    /// The kind's sniffer on `head` (`No` for a kind without one).
    pub fn sniff(self, head: &str) -> Sniff {
        self.0.sniff.map_or(Sniff::No, |f| f(head))
    }

    /// Runs the kind's parser; returns how many issues it raised.
    pub fn parse(self, text: &str) -> Result<usize, parsers::ParseError> {
        let parse = self
            .0
            .parse
            .unwrap_or_else(|| panic!("{} has no parser", self.0.name));
        parse(text).map(|(_, issues)| issues.len())
    }
}

impl PartialEq for Kind {
    fn eq(&self, other: &Kind) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl std::fmt::Debug for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name)
    }
}

/// Every kind of the registry with a sniffer and a parser, in precedence order.
pub fn all_kinds() -> Vec<Kind> {
    kind::KINDS
        .iter()
        .filter(|k| k.sniff.is_some() && k.parse.is_some())
        .map(|k| Kind(k))
        .collect()
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
/// (a kind of the table, `parsers::kind`, read by that kind's parser; a format outside the table
/// gets a name of the same style and its parser function), and a function that parses a
/// fixture's text and snapshots the whole record.
///
/// `fixtures` is a directory (every file directly inside it), a file, or a directory and a file
/// name pattern where `*` stands for any characters (`captured-a/sar-*`).
pub struct FixtureKind {
    /// Fixture directory, file or `dir/pattern` under `tests/fixtures/`.
    pub fixtures: &'static str,
    /// Artifact kind name (`iostat`, `proc-modules`).
    pub kind: &'static str,
    /// Parses the text and asserts the snapshot named by the first argument.
    pub snapshot: fn(name: &str, text: &str),
}

/// A fixture directory named after a kind of the table (`tests/fixtures/<kind name>/`) and not
/// in [`FIXTURE_KINDS`]: its files are that kind, read by the kind's parser, without a listing.
pub struct FolderOfKind {
    /// The directory, which is the kind's name.
    pub dir: String,
    /// The kind.
    pub kind: &'static KindSpec,
}

impl FolderOfKind {
    /// The fixture files of the folder (its provenance file aside), sorted, as `dir/name`.
    pub fn files(&self) -> Vec<String> {
        fixtures_in(&self.dir)
            .into_iter()
            .filter(|rel| fixture_path(rel).is_file() && !rel.ends_with("PROVENANCE.md"))
            .collect()
    }
}

/// Every fixture directory named after a kind that has a parser, whose files no entry of
/// [`FIXTURE_KINDS`] lists.
pub fn folders_of_kinds() -> Vec<FolderOfKind> {
    let listed: std::collections::BTreeSet<String> =
        FIXTURE_KINDS.iter().flat_map(|k| k.files()).collect();
    let mut out = Vec::new();
    for k in kind::KINDS.iter().filter(|k| k.parse.is_some()) {
        if !fixture_path(k.name).is_dir() {
            continue;
        }
        let folder = FolderOfKind {
            dir: k.name.to_string(),
            kind: k,
        };
        if folder.files().iter().all(|f| !listed.contains(f)) {
            out.push(folder);
        }
    }
    out
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

/// Snapshots what the kind's parser makes of `text`: the record and its issues, or the error.
pub fn snapshot_kind(name: &str, k: &KindSpec, text: &str) {
    let parse = k
        .parse
        .unwrap_or_else(|| panic!("{} has no parser", k.name));
    snapshot_record(
        name,
        parse(text).map(|(value, issues)| Parsed { value, issues }),
    );
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
                summary: p.value.summary.clone(),
                first_samples: p
                    .value
                    .iter()
                    .take(Self::KEPT)
                    .map(|s| s.to_sample())
                    .collect(),
            },
            issues: p.issues,
        })
    }
}

/// Fixtures of a kind of the registry, read by its parser.
macro_rules! kind {
    ($fixtures:literal, $kind:ident) => {
        FixtureKind {
            fixtures: $fixtures,
            kind: kind::$kind.name,
            snapshot: |name, text| snapshot_kind(name, &kind::$kind, text),
        }
    };
}

/// Fixtures of a format outside the registry (an `ethtool` option rca does not read yet, the
/// raw `perf script` samples), read by its parser function; `$name` names the snapshots.
macro_rules! outside {
    ($fixtures:literal, $name:literal, $parse:path) => {
        FixtureKind {
            fixtures: $fixtures,
            kind: $name,
            snapshot: |name, text| snapshot_record(name, $parse(text)),
        }
    };
}

/// Every fixture with the kind it is and the parser that reads it.
pub const FIXTURE_KINDS: &[FixtureKind] = &[
    // sysstat
    kind!("iostat", IOSTAT),
    kind!("captured/iostat-*", IOSTAT),
    kind!("mpstat", MPSTAT),
    kind!("captured/mpstat-*", MPSTAT),
    kind!("sar/sysstat-tests__sar-*", SAR),
    kind!("captured-a/sar-*", SAR),
    kind!("sar/sysstat-tests__sadf-j-*", SADF_JSON),
    kind!("captured-a/sadf-j.txt", SADF_JSON),
    kind!("pidstat", PIDSTAT),
    kind!("captured-a/pidstat-*", PIDSTAT),
    kind!("captured-json/iostat-*", IOSTAT),
    kind!("captured-json/mpstat-*", MPSTAT),
    kind!("captured-json/sadf-j-*", SADF_JSON),
    // /proc
    kind!("proc-softirqs", SOFTIRQS),
    kind!("captured/softirqs-*", SOFTIRQS),
    kind!("proc-interrupts", INTERRUPTS),
    kind!("captured-a/proc-interrupts-*", INTERRUPTS),
    kind!("proc-stat", PROC_STAT),
    kind!("captured-a/proc-stat-*", PROC_STAT),
    kind!("proc-vmstat", PROC_VMSTAT),
    kind!("captured-a/proc-vmstat-*", PROC_VMSTAT),
    kind!("proc-meminfo", MEMINFO),
    kind!("captured-a/proc-meminfo-*", MEMINFO),
    kind!("proc-diskstats", DISKSTATS),
    kind!("captured-a/proc-diskstats-*", DISKSTATS),
    kind!("proc-net-dev", NET_DEV),
    kind!("captured-a/proc-net-dev-*", NET_DEV),
    kind!("proc-net-snmp", NET_SNMP),
    kind!("captured-a/proc-net-snmp*", NET_SNMP),
    kind!("captured-a/proc-net-netstat.txt", NET_SNMP),
    kind!("captured-a/nstat-az.txt", NSTAT),
    kind!("captured-a/proc-swaps*", SWAPS),
    kind!("captured-a/swapon-show-*", SWAPON),
    kind!("free/jc__swapon-show-*", SWAPON),
    kind!("captured-proc/collector-status-*", PROC_STATUS),
    kind!("captured-proc/proc-*-status-*", PROC_STATUS),
    kind!("ulimit", PROC_LIMITS),
    kind!("captured-b/proc-self-limits.txt", PROC_LIMITS),
    // kernel
    kind!("captured-b/proc-cmdline.txt", CMDLINE),
    kind!("tainted", TAINTED),
    kind!("captured-b/proc-sys-kernel-tainted.txt", TAINTED),
    kind!("captured-b/modinfo-*", MODINFO),
    kind!("dmesg", DMESG),
    kind!("captured-b/dmesg*", DMESG),
    kind!("proc-modules", PROC_MODULES),
    kind!("lsmod", LSMOD),
    kind!("sysctl", SYSCTL),
    kind!("captured-b/sysctl-*", SYSCTL),
    // network
    kind!("ethtool/*ethtool-i-*", ETHTOOL_I),
    kind!("captured-b/ethtool-i-*", ETHTOOL_I),
    kind!("ethtool/*ethtool-l-*", ETHTOOL_L),
    kind!("captured-b/ethtool-l-*", ETHTOOL_L),
    kind!("ethtool/*ethtool-g-*", ETHTOOL_G),
    kind!("captured-b/ethtool-g-*", ETHTOOL_G),
    kind!("ethtool/*ethtool-k-*", ETHTOOL_K),
    kind!("captured-b/ethtool-k-*", ETHTOOL_K),
    kind!("ethtool/*ethtool-c-*", ETHTOOL_C),
    kind!("captured-b/ethtool-c-*", ETHTOOL_C),
    kind!("ethtool/*ethtool-S-*", ETHTOOL_S),
    kind!("captured-b/ethtool-S-*", ETHTOOL_S),
    outside!(
        "ethtool/*ethtool-T-*",
        "ethtool-T",
        net::ethtool::timestamping::parse_timestamping
    ),
    outside!(
        "captured-b/ethtool-T-*",
        "ethtool-T",
        net::ethtool::timestamping::parse_timestamping
    ),
    outside!(
        "ethtool/*ethtool-settings-*",
        "ethtool-settings",
        net::ethtool::settings::parse_settings
    ),
    outside!(
        "captured-b/ethtool-settings-*",
        "ethtool-settings",
        net::ethtool::settings::parse_settings
    ),
    kind!("captured-b/ip-s-*", IP_LINK),
    kind!("captured-b/irq-affinity.txt", IRQ_AFFINITY),
    kind!("captured-a/netstat-s.txt", NETSTAT_S),
    kind!("netstat/*netstat-s-*", NETSTAT_S),
    // processes
    kind!("ps", PS),
    kind!("captured-b/ps-*", PS),
    kind!("top", TOP),
    kind!("captured-b/top-*", TOP),
    kind!("ss", SS),
    kind!("captured-b/ss-*", SS),
    kind!("netstat/*netstat-neopa-*", NETSTAT_TANP),
    kind!("netstat/*netstat-aeep-*", NETSTAT_TANP),
    kind!("netstat/*netstat-lnp-*", NETSTAT_TANP),
    kind!("captured-b/netstat-tanp.txt", NETSTAT_TANP),
    kind!("vmstat", VMSTAT),
    kind!("captured-a/vmstat*", VMSTAT),
    kind!("free/*free-*", FREE),
    kind!("captured-a/free*", FREE),
    kind!("captured-b/ulimit-*", ULIMIT),
    kind!("captured-proc/collector-cgroup-*", CGROUP),
    // JVM
    kind!("jstat", JSTAT_GCUTIL),
    kind!("captured-jvm/jstat-*", JSTAT_GCUTIL),
    kind!("jcmd-histogram", CLASS_HISTOGRAM),
    kind!("captured-jvm/jcmd-GC.class_histogram-*", CLASS_HISTOGRAM),
    kind!("captured-jvm/jmap-histo-*", CLASS_HISTOGRAM),
    kind!("java-version", JAVA_VERSION),
    kind!("captured-jvm/java-version-*", JAVA_VERSION),
    kind!("captured-jvm/jcmd-VM.version-*", JCMD_VM_VERSION),
    kind!("captured-jvm/jcmd-VM.flags-*", JCMD_VM_FLAGS),
    kind!("captured-jvm/jcmd-VM.command_line-*", JCMD_VM_COMMAND_LINE),
    kind!(
        "captured-jvm/key-value/jcmd-VM.system_properties-*",
        JCMD_VM_SYSTEM_PROPERTIES
    ),
    kind!("jstack", THREAD_DUMP),
    kind!("captured-zk/jcmd-thread-print-*", THREAD_DUMP),
    kind!("captured-zk/jstack-*", THREAD_DUMP),
    kind!("captured-proc/collector-threads-*", JVM_THREADS),
    kind!("captured-proc/threads-*", JVM_THREADS),
    kind!("gc-logs", GC_LOG),
    kind!("captured-gc", GC_LOG),
    kind!("gc-logs-classhisto", GC_LOG),
    kind!("captured-proc/jps-*", JPS),
    kind!("captured-proc/collector-jps-*", JPS),
    // time
    kind!("chronyc/*sources*", CHRONYC_SOURCES),
    kind!("captured-b/chronyc-*sources*", CHRONYC_SOURCES),
    kind!("chronyc/*tracking*", CHRONYC_TRACKING),
    kind!("captured-b/chronyc-tracking-*", CHRONYC_TRACKING),
    kind!("ntpq", NTPQ),
    kind!("timedatectl/hotsos__*", TIMEDATECTL),
    kind!("timedatectl/insights-core__*", TIMEDATECTL),
    kind!("timedatectl/jc__timedatectl-centos7-*", TIMEDATECTL),
    kind!("timedatectl/jc__timedatectl-ubuntu1804-*", TIMEDATECTL),
    kind!("captured-b/timedatectl-*", TIMEDATECTL),
    outside!(
        "timedatectl/jc__timedatectl-timesync-status.txt",
        "timedatectl-timesync-status",
        time::timedatectl::parse_timesync_status
    ),
    // host
    kind!("captured/uname-a.txt", UNAME),
    kind!("captured/os-release.txt", OS_RELEASE),
    kind!("dmidecode", DMIDECODE),
    kind!("captured-b/dmidecode-*", DMIDECODE),
    kind!("captured-b/systemd-detect-virt*", DETECT_VIRT),
    kind!("captured-b/lscpu.txt", LSCPU),
    kind!("lspci", LSPCI),
    kind!("captured-b/lspci-*", LSPCI),
    // perf
    kind!("perf/perf6.1-report-*", PERF_REPORT),
    kind!("perf/perf6.1-top-*", PERF_REPORT),
    outside!("perf/*script*", "perf-script", PerfScriptDigest::parse),
    // ZooKeeper, Hadoop
    kind!("zookeeper", ZOO_CFG),
    kind!("captured-zk/zk-*-conf.txt", ZK_CONF),
    kind!("captured-zk/zk-*-mntr.txt", ZK_MNTR),
    kind!("captured-zk/zk-*-srvr.txt", ZK_SRVR),
    kind!("captured-zk/zk-*-wchs.txt", ZK_WCHS),
    kind!("hadoop-conf", HADOOP_SITE_XML),
];
