//! JVM facts: one [`Jvm`] per Java process whose evidence is in the bundle.
//!
//! In: the per-JVM artifacts (`jstat`, class histogram, `java -version`, `jcmd VM.version`,
//! `VM.flags`, `VM.command_line`, `VM.system_properties`, thread dumps, GC log — with the class
//! histograms printed into it, which count as histograms of the JVM) and `ps` for the
//! command line of JVMs that could not be attached. Out: [`Jvm`]s with identity, heap settings,
//! collector, a GC series over the window, the top classes by bytes and thread counts by pool.
//!
//! Artifacts of the JVM-scoped kinds are grouped by JVM: the process the bundle layout files them
//! under first (the collector's `jvm/<pid>/`), then the PID that `jcmd` prints on its first line,
//! then the folder the file sits in (a folder of loose outputs from one JVM). Process-scoped kinds
//! (cgroup, `/proc/<pid>/status`, thread counts) join the JVM of their process or folder.

use crate::artifacts::{Artifact, Collected};
use crate::evidence::Cited;
use parsers::jvm::jstat::{Jstat, JstatSample};
use parsers::jvm::thread_dump::{JavaThread, ThreadDump};
use parsers::kind::{Data, Scope};
use serde::Serialize;
use std::collections::BTreeMap;

/// Everything known about one JVM.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct Jvm {
    /// Process id, when known.
    pub pid: Option<u32>,
    /// The folder its artifacts came from (`jvm/4242`), or `.` for loose files.
    pub dir: String,
    /// Main class or jar (`org.apache.zookeeper.server.quorum.QuorumPeerMain`).
    pub main: Option<String>,
    /// What the JVM is, from its main class (`ZooKeeper`, `HDFS DataNode`, `Kafka broker`…).
    pub role: Option<String>,
    /// Distribution (`OpenJDK`, `BiSheng`, `Temurin`, …), from `java -version`, else the
    /// `java.vendor.version`/`java.vm.name` properties, else `VM.version`.
    pub vendor: Option<Cited<String>>,
    /// Java version as printed (`1.8.0_372`, `17.0.15`).
    pub version: Option<Cited<String>>,
    /// Feature release (8, 11, 17, …).
    pub feature: Option<u32>,
    /// Full build string (`17.0.15+6-Debian-1deb12u1`), when printed.
    pub build: Option<String>,
    /// VM name (`OpenJDK 64-Bit Server VM`).
    pub vm_name: Option<String>,
    /// Maximum heap, bytes (`MaxHeapSize` flag, else `-Xmx`).
    pub heap_max_bytes: Option<Cited<u64>>,
    /// Initial heap, bytes (`InitialHeapSize`, else `-Xms`).
    pub heap_initial_bytes: Option<Cited<u64>>,
    /// Collector in use: `G1`, `Parallel`, `CMS`, `Serial`, `ZGC`, `Shenandoah`.
    pub collector: Option<Cited<String>>,
    /// `-XX` flags as `VM.flags` printed them (value text), for comparison. Not in the JSON
    /// report (its size).
    #[serde(skip)]
    pub flags: BTreeMap<String, String>,
    /// System properties (`VM.system_properties`, else `-D` arguments of the command line). Not
    /// in the JSON report (its size).
    #[serde(skip)]
    pub properties: BTreeMap<String, Cited<String>>,
    /// Where `properties` came from; `None` when neither source was in the bundle.
    pub properties_source: Option<String>,
    /// Command-line arguments of the JVM (`VM.command_line` jvm_args, else `ps`).
    pub args: Vec<String>,
    /// The artifact lines `args` were read from.
    pub args_source: Option<Cited<()>>,
    /// GC behaviour over the window, from `jstat`.
    pub gc: Option<GcSeries>,
    /// GC log summary.
    pub gc_log: Option<GcLogSummary>,
    /// The classes holding the most bytes, largest first (at most [`TOP_CLASSES`]).
    pub top_classes: Vec<Cited<ClassShare>>,
    /// Histogram total, bytes.
    pub histogram_total_bytes: Option<Cited<u64>>,
    /// Path of the class histogram.
    pub histogram_source: Option<String>,
    /// Threads per pool (trailing number stripped), largest first.
    pub pools: Vec<Cited<PoolCount>>,
    /// Total threads in the thread dump.
    pub threads: Option<usize>,
    /// Path of the thread dump the pools come from.
    pub threads_source: Option<String>,
    /// Thread states are known (pools from a thread dump, not from `/proc` thread names).
    pub pool_states_known: bool,
    /// Resident memory, KiB (`VmRSS` of `/proc/PID/status`).
    pub rss_kib: Option<Cited<u64>>,
    /// Memory of the JVM on swap, KiB (`VmSwap`).
    pub swap_kib: Option<Cited<u64>>,
    /// The tightest cgroup memory limit over the JVM's cgroup and its ancestors, bytes
    /// (v2 `memory.max`, v1 `memory.limit_in_bytes`).
    pub cgroup_memory_limit_bytes: Option<Cited<u64>>,
    /// The tightest cgroup CPU quota, in CPUs (v2 `cpu.max`, v1 `cfs_quota_us / cfs_period_us`).
    pub cgroup_cpu_quota: Option<Cited<f64>>,
    /// OOM kills in the JVM's cgroup (`memory.events` `oom_kill`).
    pub cgroup_oom_kills: Option<Cited<u64>>,
    /// The lines of `VM.flags` that `flags` were read from.
    pub flags_source: Option<Cited<()>>,
    /// `jcmd GC.heap_info` summaries in the order taken (the collector's `.1` at the window
    /// start, `.2` after it).
    pub heap_infos: Vec<Cited<HeapSummary>>,
    /// How the heap's classes changed between the first and the last class histogram, when the
    /// bundle holds two or more.
    pub histogram_growth: Option<HistogramGrowth>,
    /// Bundle paths of the JVM's thread dumps, in the order they were taken (their time stamp
    /// line, else their path: the collector's `thread-dump.1.txt` before `.2`).
    pub dumps: Vec<String>,
    /// Locks that threads queued for in at least one dump, most waiters first.
    pub contended_locks: Vec<ContendedLock>,
    /// Deadlocks the JVM reported in its dumps, each cycle once.
    pub deadlocks: Vec<Cited<Deadlock>>,
}

/// One lock that threads waited to acquire, over the JVM's thread dumps. A lock is its object's
/// address and class: a collection that moves the object between two dumps makes it two locks
/// (persistence is then under-counted, never over-counted).
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct ContendedLock {
    /// Object address as printed (`0x000000069ec1bc00`).
    pub address: String,
    /// Class of the object (`Locks$Inventory`, `java.util.concurrent.locks.ReentrantLock$NonfairSync`),
    /// `?` when the dump does not print it.
    pub class: String,
    /// The dumps where threads waited for it, in dump order.
    pub dumps: Vec<Cited<LockInDump>>,
}

impl ContendedLock {
    /// The largest number of waiters in one dump.
    pub fn max_waiters(&self) -> usize {
        self.dumps
            .iter()
            .map(|d| d.value.waiters)
            .max()
            .unwrap_or(0)
    }
}

/// One contended lock in one dump. Cited: the owner's header, its top frame and the line where
/// it locked the object, then the first waiters' headers and lock lines.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct LockInDump {
    /// Threads waiting to acquire it: `BLOCKED` entering the monitor (`- waiting to lock`,
    /// `- waiting to re-lock in wait()`), or parked on a `java.util.concurrent` lock that
    /// another thread owns (`- parking to wait for`, owner known only from `jstack -l`).
    pub waiters: usize,
    /// The first waiters' names (at most [`NAMED_WAITERS`]).
    pub waiter_names: Vec<String>,
    /// The thread that holds it (`- locked <…>` or a `Locked ownable synchronizers` entry).
    pub owner: Option<String>,
    /// The owner's `java.lang.Thread.State` and its detail (`TIMED_WAITING (sleeping)`).
    pub owner_state: Option<String>,
    /// The owner's top frames (at most [`OWNER_FRAMES`]): the code running while it holds the lock.
    pub owner_frames: Vec<String>,
    /// The innermost of the owner's frames that holds the lock (printed just above its
    /// `- locked <…>` line): the `synchronized` method, or the method with the block.
    pub locked_at: Option<String>,
}

/// Two class histograms of one JVM compared (first and last: those printed into a GC log, in log
/// order, then histogram files in path order, `histo_1.txt` before `histo_2.txt`). Histograms
/// printed before a full GC (garbage included) are compared only with each other, the others
/// (the live set after a full GC, `jcmd GC.class_histogram`) likewise.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct HistogramGrowth {
    /// Bundle path of the first histogram (`path:line` of its header for one in a GC log).
    pub first: String,
    /// Bundle path of the last histogram, likewise.
    pub last: String,
    /// `Total` bytes of the first and of the last, each cited on its `Total` line.
    pub total_bytes: (Cited<u64>, Cited<u64>),
    /// The classes whose bytes grew most (at most [`TOP_CLASSES`]), largest growth first,
    /// cited on their row of the last histogram; a class missing from the first (which is
    /// complete: it has its `Total` line) counts from 0.
    pub grown: Vec<Cited<ClassGrowth>>,
}

/// One class in two histograms.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct ClassGrowth {
    /// Class name as printed.
    pub class_name: String,
    /// `#bytes` in the first and the last histogram.
    pub bytes: (u64, u64),
    /// `#instances` in the first and the last histogram.
    pub instances: (u64, u64),
    /// The row's line in the first histogram (0 when the class is new).
    pub first_line: usize,
}

/// One `jcmd GC.heap_info`, KiB. Cited: its heap and `Metaspace` lines.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct HeapSummary {
    /// Collector named by the heap's first line (`G1`, `Parallel`…).
    pub collector: Option<String>,
    /// Heap committed (sum of the generations' `total`), KiB.
    pub heap_committed_kib: Option<u64>,
    /// Heap used, KiB.
    pub heap_used_kib: Option<u64>,
    /// Metaspace `used`, KiB.
    pub metaspace_used_kib: Option<u64>,
    /// Metaspace `committed`, KiB: memory the JVM holds for class metadata.
    pub metaspace_committed_kib: Option<u64>,
    /// Line of the `Metaspace` line.
    pub metaspace_line: Option<usize>,
    /// The old generation's use and size (`ParOldGen`, `tenured generation`, `concurrent
    /// mark-sweep generation`), KiB: `(used, committed)`; `None` for collectors that print the
    /// heap whole (G1, ZGC, Shenandoah).
    pub old_kib: Option<(u64, u64)>,
    /// `MaxMetaspaceSize` when limited, KiB (the heap summary of `jmap -heap` prints it).
    pub max_metaspace_kib: Option<u64>,
}

/// The heap parts that are an old generation.
const OLD_GENERATIONS: [&str; 3] = [
    "ParOldGen",
    "tenured generation",
    "concurrent mark-sweep generation",
];

/// How many waiter names [`LockInDump::waiter_names`] keeps.
pub const NAMED_WAITERS: usize = 5;
/// How many frames [`LockInDump::owner_frames`] keeps.
pub const OWNER_FRAMES: usize = 3;

/// One deadlock cycle the JVM reported (`Found one Java-level deadlock:`). Cited: the report's
/// lines in the last dump that printed it, and each thread's top frame there.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct Deadlock {
    /// The threads of the cycle, in report order.
    pub threads: Vec<DeadlockedThread>,
    /// How many of the JVM's dumps reported this cycle (same threads).
    pub in_dumps: usize,
}

/// One thread of a deadlock cycle.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct DeadlockedThread {
    /// Thread name.
    pub name: String,
    /// The lock it waits for: `0x… (a java.lang.Object)`.
    pub waits_for: String,
    /// `monitor` or `ownable synchronizer`.
    pub lock_kind: Option<String>,
    /// The thread holding that lock.
    pub held_by: Option<String>,
    /// Its top frame (where it waits).
    pub top_frame: Option<String>,
}

/// How many classes [`Jvm::top_classes`] keeps.
pub const TOP_CLASSES: usize = 10;

/// One class of a histogram with its share.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct ClassShare {
    /// Class name as printed (`java.util.HashMap$Node`, `[B`).
    pub class_name: String,
    /// Instances.
    pub instances: u64,
    /// Shallow bytes.
    pub bytes: u64,
    /// Share of the histogram total, % (0–100).
    pub share_pct: f64,
}

/// One thread pool.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct PoolCount {
    /// Pool name, the thread name without its trailing number (`XNIO-1 task-`).
    pub pool: String,
    /// Threads in the pool.
    pub threads: usize,
    /// Threads in state `RUNNABLE`.
    pub runnable: usize,
    /// Threads queued for a lock: `BLOCKED`, or parked on a `java.util.concurrent` lock another
    /// thread owns (0 when states are unknown).
    pub blocked: usize,
}

/// GC behaviour over the collection window, from one `jstat` artifact.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct GcSeries {
    /// Bundle path of the `jstat` output.
    pub artifact: String,
    /// Samples read.
    pub samples: usize,
    /// Seconds between the first and last sample (from `-t` timestamps, else samples × interval).
    pub window_s: Option<f64>,
    /// Young collections during the window.
    pub ygc: Option<u64>,
    /// Full collections during the window.
    pub fgc: Option<u64>,
    /// Time in young plus full collections during the window, seconds (stop-the-world; JDK 11+
    /// concurrent time `CGCT` excluded).
    pub pause_s: Option<f64>,
    /// `pause_s` over `window_s`, % (0–100).
    pub pause_share_pct: Option<f64>,
    /// Old-generation occupancy (`O`, %) at each sample where `FGC` had increased.
    pub old_after_fgc: Vec<Cited<f64>>,
    /// Old-generation occupancy at the last sample, %.
    pub old_last: Option<Cited<f64>>,
    /// Lines of the first and last samples.
    pub span_lines: Vec<usize>,
    /// The output has `-t` timestamps (its header starts with `Timestamp`, else with `S0`).
    pub timestamped: bool,
}

impl GcSeries {
    /// How the column header line starts, for citing it.
    pub fn header_prefix(&self) -> &'static str {
        if self.timestamped {
            "Timestamp"
        } else {
            "S0"
        }
    }
}

/// GC log summary.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct GcLogSummary {
    /// Bundle path of the log.
    pub artifact: String,
    /// Collector named by the log.
    pub collector: Option<String>,
    /// Longest pause, ms, with its line.
    pub max_pause_ms: Option<Cited<f64>>,
    /// Full collections: heap after / heap capacity, % (0–100), with their lines.
    pub full_gc_after_pct: Vec<Cited<f64>>,
    /// Lines printing `to-space exhausted`.
    pub to_space_exhausted: Vec<usize>,
    /// Pauses of at least 1 s: count.
    pub long_pauses: usize,
    /// Seconds between the first and last event with an uptime: how much history the log holds.
    pub span_s: Option<f64>,
}

impl Jvm {
    /// A short label: `ZooKeeper (pid 4242)`, `java (pid 17)`, `jvm/4242`.
    pub fn label(&self) -> String {
        let name = self
            .role
            .clone()
            .or_else(|| self.main.as_deref().map(short_main))
            .unwrap_or_else(|| "JVM".into());
        let name = super::clip(&name);
        match self.pid {
            Some(p) => format!("{name} (pid {p})"),
            None => format!("{name} ({})", super::clip(&self.dir)),
        }
    }

    /// A system property's value.
    pub fn property(&self, key: &str) -> Option<&Cited<String>> {
        self.properties.get(key)
    }
}

/// `org.apache.Foo` → `Foo`; `/opt/app/app.jar` → `app.jar`.
pub fn short_main(m: &str) -> String {
    let m = m.rsplit('/').next().unwrap_or(m);
    if m.ends_with(".jar") {
        return m.to_string();
    }
    m.rsplit('.').next().unwrap_or(m).to_string()
}

/// Well-known main classes and what they are.
const ROLES: &[(&str, &str)] = &[
    (
        "org.apache.zookeeper.server.quorum.QuorumPeerMain",
        "ZooKeeper",
    ),
    (
        "org.apache.zookeeper.server.ZooKeeperServerMain",
        "ZooKeeper",
    ),
    (
        "org.apache.hadoop.hdfs.server.datanode.DataNode",
        "HDFS DataNode",
    ),
    (
        "org.apache.hadoop.hdfs.server.namenode.NameNode",
        "HDFS NameNode",
    ),
    (
        "org.apache.hadoop.hdfs.qjournal.server.JournalNode",
        "HDFS JournalNode",
    ),
    (
        "org.apache.hadoop.yarn.server.nodemanager.NodeManager",
        "YARN NodeManager",
    ),
    (
        "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager",
        "YARN ResourceManager",
    ),
    (
        "org.apache.hadoop.mapred.YarnChild",
        "YARN container (MapReduce task)",
    ),
    ("kafka.Kafka", "Kafka broker"),
    ("org.elasticsearch.bootstrap.Elasticsearch", "Elasticsearch"),
    ("org.apache.cassandra.service.CassandraDaemon", "Cassandra"),
    ("org.apache.catalina.startup.Bootstrap", "Tomcat"),
];

/// The role of a JVM from its main class or arguments.
pub fn role_of(main_and_args: &str) -> Option<&'static str> {
    ROLES
        .iter()
        .find(|(class, _)| {
            main_and_args
                .split_whitespace()
                .any(|tok| tok == *class || tok.ends_with(&format!("/{class}")))
        })
        .map(|(_, role)| *role)
}

/// The PID a JVM artifact's content names (jcmd's `PID:` line, a histogram's leading line).
fn content_pid(d: &Data) -> Option<u32> {
    match d {
        Data::Histogram(h) => h.pid,
        Data::VmVersion(v) => v.pid,
        Data::VmFlags(v) => v.pid,
        Data::VmCommandLine(v) => v.pid,
        Data::SystemProperties(v) => v.pid,
        Data::ThreadDump(t) => t.pid.and_then(|p| u32::try_from(p).ok()),
        Data::HeapInfo(h) => h.pid,
        Data::GcLog(g) => g.histograms.iter().find_map(|h| h.histogram.pid),
        _ => None,
    }
}

fn parent_dir(path: &str) -> String {
    match path.rsplit_once('/') {
        Some((d, _)) => d.to_string(),
        None => ".".to_string(),
    }
}

/// Group key: `(pid, dir)`: the process the bundle layout files it under, else the PID its
/// content names, else the PID its file name names, and its folder.
fn group_of(a: &Artifact, d: &Data) -> (Option<u32>, String) {
    if let Some(owner) = crate::layout::process_of(&a.path) {
        return owner;
    }
    (
        content_pid(d).or_else(|| pid_in_name(&a.path)),
        parent_dir(&a.path),
    )
}

/// The PID a JVM tool's output is named after, as people save them: `jstack_12345.txt`,
/// `jstack-12345-1.out`, `threaddump.12345.log`, `histo_12345.txt`. Three to seven digits
/// (Linux's `pid_max` is at most 4194304): a dump's sequence number (`jstack.1.txt`) is not
/// taken for a PID.
fn pid_in_name(path: &str) -> Option<u32> {
    let name = path.rsplit('/').next()?;
    let lower = name.to_ascii_lowercase();
    const TOOLS: &[&str] = &[
        "jstack",
        "jcmd",
        "jstat",
        "jmap",
        "histo",
        "threaddump",
        "thread-dump",
        "thread_dump",
        "heapinfo",
        "heap_info",
        "gc_heap_info",
    ];
    if !TOOLS.iter().any(|t| lower.starts_with(t)) {
        return None;
    }
    name.split(['_', '-', '.'])
        .skip(1)
        .find(|w| (3..=7).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|w| w.parse().ok())
        .filter(|&p: &u32| p <= 4_194_304)
}

/// Whether `a`'s kind is scoped to `scope` (JVM evidence, or any process's files).
fn scoped(a: &Artifact, scope: Scope) -> bool {
    a.kind.is_some_and(|k| k.scope == scope)
}

/// Builds one [`Jvm`] per JVM found.
pub fn build(c: &Collected, interval_s: Option<f64>, procs: &super::Processes) -> Vec<Jvm> {
    // Group artifacts: key is pid when known, else the folder.
    type Group<'a> = (Option<u32>, String, Vec<(&'a Artifact, &'a Data)>);
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    for a in &c.artifacts {
        let Some(d) = a.data.as_ref().filter(|_| scoped(a, Scope::Jvm)) else {
            continue;
        };
        let (pid, dir) = group_of(a, d);
        let key = match pid {
            Some(p) => format!("pid:{p}"),
            None => format!("dir:{dir}"),
        };
        let g = groups.entry(key).or_insert((pid, dir, Vec::new()));
        g.2.push((a, d));
    }
    // Process-level files join the JVM of their folder.
    for a in &c.artifacts {
        let Some(d) = a.data.as_ref().filter(|_| scoped(a, Scope::Process)) else {
            continue;
        };
        let (pid, dir) = group_of(a, d);
        if let Some(g) = groups
            .values_mut()
            .find(|g| (pid.is_some() && g.0 == pid) || g.1 == dir)
        {
            g.2.push((a, d));
        }
    }
    // A folder group without a PID joins the only PID group from the same folder.
    let dir_keys: Vec<String> = groups
        .keys()
        .filter(|k| k.starts_with("dir:"))
        .cloned()
        .collect();
    for k in dir_keys {
        let dir = k.strip_prefix("dir:").unwrap_or(&k).to_string();
        let same: Vec<String> = groups
            .iter()
            .filter(|(gk, g)| gk.starts_with("pid:") && g.1 == dir)
            .map(|(gk, _)| gk.clone())
            .collect();
        if same.len() == 1 {
            if let Some((_, _, arts)) = groups.remove(&k) {
                if let Some(g) = groups.get_mut(&same[0]) {
                    g.2.extend(arts);
                }
            }
        }
    }
    groups
        .into_values()
        .map(|(pid, dir, arts)| {
            let mut j = Jvm {
                pid,
                dir,
                ..Default::default()
            };
            fill(&mut j, &arts, interval_s);
            if j.args.is_empty() {
                if let Some(p) = procs.list.iter().find(|p| Some(p.value.pid) == pid) {
                    j.args = p
                        .value
                        .args
                        .split_whitespace()
                        .map(str::to_string)
                        .collect();
                    j.args_source = Some(Cited::lines((), &p.artifact, p.lines.clone()));
                }
            }
            if j.main.is_none() {
                j.main = main_from_args(&j.args);
            }
            let joined = format!(
                "{} {}",
                j.main.clone().unwrap_or_default(),
                j.args.join(" ")
            );
            j.role = role_of(&joined).map(str::to_string);
            if j.properties_source.is_none() {
                properties_from_args(&mut j);
            }
            let from_args = |v: u64, j: &Jvm| match &j.args_source {
                Some(c) => Cited::lines(v, &c.artifact, c.lines.clone()),
                None => Cited::lines(v, "", vec![]),
            };
            if j.heap_max_bytes.is_none() {
                j.heap_max_bytes = size_arg(&j.args, "-Xmx").map(|v| from_args(v, &j));
            }
            if j.heap_initial_bytes.is_none() {
                j.heap_initial_bytes = size_arg(&j.args, "-Xms").map(|v| from_args(v, &j));
            }
            j
        })
        .collect()
}

/// The main class or jar: the first argument after the JVM options (`-jar X` → X).
fn main_from_args(args: &[String]) -> Option<String> {
    let mut it = args.iter().skip(1).peekable();
    while let Some(a) = it.next() {
        if a == "-jar" {
            return it.next().cloned();
        }
        if a == "-cp" || a == "-classpath" || a == "--class-path" || a == "-p" {
            it.next();
            continue;
        }
        if a.starts_with('-') {
            continue;
        }
        return Some(a.clone());
    }
    None
}

/// `-Dkey=value` arguments as properties (without line citations).
fn properties_from_args(j: &mut Jvm) {
    let (artifact, lines) = match &j.args_source {
        Some(c) => (c.artifact.clone(), c.lines.clone()),
        None => return,
    };
    for a in &j.args {
        if let Some(kv) = a.strip_prefix("-D") {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            j.properties.insert(
                k.to_string(),
                Cited::lines(v.to_string(), &artifact, lines.clone()),
            );
        }
    }
    j.properties_source = Some(artifact);
}

/// `-Xmx4g` → 4 GiB in bytes; the last occurrence wins, as in the JVM.
fn size_arg(args: &[String], prefix: &str) -> Option<u64> {
    args.iter()
        .rev()
        .find_map(|a| a.strip_prefix(prefix))
        .and_then(parse_size)
}

/// JVM size syntax: `512m`, `4G`, `1048576`, `2t`.
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let last = s.chars().next_back()?;
    let num = s.strip_suffix(last).unwrap_or(s);
    let (num, mult) = match last {
        'k' | 'K' => (num, 1u64 << 10),
        'm' | 'M' => (num, 1 << 20),
        'g' | 'G' => (num, 1 << 30),
        't' | 'T' => (num, 1 << 40),
        _ => (s, 1),
    };
    num.parse::<u64>().ok()?.checked_mul(mult)
}

fn fill(j: &mut Jvm, arts: &[(&Artifact, &Data)], interval_s: Option<f64>) {
    let mut jstats: Vec<(&Artifact, &Jstat)> = Vec::new();
    let mut dumps: Vec<(&Artifact, &parsers::jvm::thread_dump::ThreadDump)> = Vec::new();
    let mut heap_infos: Vec<(&Artifact, &parsers::jvm::heap_info::HeapInfo)> = Vec::new();
    let mut histograms: Vec<Histo> = Vec::new();
    let mut thread_counts: Option<(&Artifact, &parsers::jvm::thread_counts::JvmThreads)> = None;
    for (a, d) in arts {
        match d {
            Data::JavaVersion(v) => {
                let line = v.lines.version;
                j.version = Some(Cited::new(v.version.clone(), &a.path, line));
                let vline = v.lines.runtime.unwrap_or(line);
                j.vendor = Some(Cited::new(vendor_name(&v.vendor), &a.path, vline));
                j.feature = v.feature;
                j.build = v.build.clone();
                j.vm_name = v.vm_name.clone();
            }
            Data::VmVersion(v) => {
                if j.version.is_none() {
                    if let (Some(jdk), Some(l)) = (&v.jdk_version, v.jdk_line) {
                        j.version = Some(Cited::new(jdk.clone(), &a.path, l));
                        j.feature = v.feature;
                    }
                }
                if j.vm_name.is_none() {
                    j.vm_name = Some(v.vm_name.clone());
                }
                if j.build.is_none() {
                    j.build = Some(v.vm_version.clone());
                }
            }
            Data::VmFlags(f) => {
                for (name, flag) in &f.flags {
                    let text = match &flag.value {
                        parsers::jvm::vm_flags::FlagValue::Bool(b) => b.to_string(),
                        parsers::jvm::vm_flags::FlagValue::Number(n) => n.to_string(),
                        parsers::jvm::vm_flags::FlagValue::Text(t) => t.clone(),
                    };
                    j.flags.insert(name.clone(), text);
                }
                let cite = |name: &str| f.flags.get(name).map(|fl| fl.line).unwrap_or(0);
                let mut lines: Vec<usize> = f.flags.values().map(|fl| fl.line).collect();
                lines.sort_unstable();
                lines.dedup();
                j.flags_source = Some(Cited::lines((), &a.path, lines));
                if let Some(v) = f.number("MaxHeapSize") {
                    j.heap_max_bytes = Some(Cited::new(v, &a.path, cite("MaxHeapSize")));
                }
                if let Some(v) = f.number("InitialHeapSize") {
                    j.heap_initial_bytes = Some(Cited::new(v, &a.path, cite("InitialHeapSize")));
                }
                for (flag, name) in [
                    ("UseG1GC", "G1"),
                    ("UseParallelGC", "Parallel"),
                    ("UseConcMarkSweepGC", "CMS"),
                    ("UseSerialGC", "Serial"),
                    ("UseZGC", "ZGC"),
                    ("UseShenandoahGC", "Shenandoah"),
                ] {
                    if f.enabled(flag) == Some(true) {
                        j.collector = Some(Cited::new(name.to_string(), &a.path, cite(flag)));
                        break;
                    }
                }
            }
            Data::VmCommandLine(cl) => {
                let lines: Vec<usize> = cl
                    .entries
                    .iter()
                    .filter(|(k, _, _)| k == "jvm_args" || k == "java_command")
                    .map(|(_, _, l)| *l)
                    .collect();
                j.args_source = Some(Cited::lines((), &a.path, lines));
                j.args = cl
                    .jvm_args
                    .iter()
                    .flat_map(|s| s.split_whitespace())
                    .map(str::to_string)
                    .collect();
                if let Some(cmd) = &cl.java_command {
                    j.main = cmd.split_whitespace().next().map(str::to_string);
                    // The rest of java_command are the program's own arguments.
                    let prog: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
                    j.args.extend(prog);
                }
            }
            Data::SystemProperties(p) => {
                for (k, (v, line)) in &p.properties {
                    j.properties
                        .insert(k.clone(), Cited::new(v.clone(), &a.path, *line));
                }
                j.properties_source = Some(a.path.clone());
            }
            Data::Histogram(h) => histograms.push(Histo {
                name: a.path.clone(),
                artifact: a,
                histogram: h,
                in_gc_log: false,
                before_full_gc: false,
            }),
            Data::Jstat(s) => jstats.push((a, s)),
            Data::ThreadDump(t) => dumps.push((a, t)),
            Data::HeapInfo(h) => heap_infos.push((a, h)),
            Data::GcLog(g) => {
                fill_gc_log(j, a, g);
                histograms.extend(g.histograms.iter().map(|h| Histo {
                    name: format!("{}:{}", a.path, h.line),
                    artifact: a,
                    histogram: &h.histogram,
                    in_gc_log: true,
                    before_full_gc: h.phase
                        == Some(parsers::jvm::gclog::HistogramPhase::BeforeFullGc),
                }));
            }
            Data::ProcStatus(st) => {
                let line = |k: &str| st.get(k).map(|f| f.line).unwrap_or(0);
                j.rss_kib = st
                    .vm_rss_kib()
                    .map(|v| Cited::new(v, &a.path, line("VmRSS")));
                j.swap_kib = st
                    .vm_swap_kib()
                    .map(|v| Cited::new(v, &a.path, line("VmSwap")));
            }
            Data::Cgroup(cg) => {
                // Below 16 MiB no JVM could even start: a corrupt or unrelated value.
                j.cgroup_memory_limit_bytes = cg
                    .memory_limit_bytes()
                    .filter(|&(v, _)| v >= 16 << 20)
                    .map(|(v, l)| Cited::new(v, &a.path, l));
                j.cgroup_cpu_quota = cg.cpu_quota().map(|q| Cited::new(q.cores, &a.path, q.line));
                j.cgroup_oom_kills = cg.oom_kills().map(|(v, l)| Cited::new(v, &a.path, l));
            }
            Data::JvmThreads(t) => thread_counts = Some((*a, t)),
            _ => {}
        }
    }
    if j.vendor.is_none() {
        j.vendor = vendor_from_properties(j);
    }
    if j.collector.is_none() {
        if let Some(g) = &j.gc_log {
            j.collector = g
                .collector
                .clone()
                .map(|c| Cited::lines(c, &g.artifact, vec![]));
        }
    }
    // Prefer the jstat option that carries old-gen occupancy and counts: gcutil, then gc.
    jstats.sort_by_key(|(_, s)| match s.option {
        parsers::jvm::jstat::JstatOption::GcUtil => 0,
        parsers::jvm::jstat::JstatOption::Gc => 1,
        parsers::jvm::jstat::JstatOption::GcCause => 2,
        _ => 3,
    });
    j.gc = jstats
        .first()
        .and_then(|(a, s)| gc_series(&a.path, s, interval_s));
    // Those of GC logs first (a histogram file the collector took is the newest), each log's in
    // its order (the sort is stable), then by path.
    histograms
        .sort_by(|x, y| (!x.in_gc_log, &x.artifact.path).cmp(&(!y.in_gc_log, &y.artifact.path)));
    if let Some(h) = histograms.last() {
        fill_histogram(j, h.artifact, h.histogram);
        let alike: Vec<&Histo> = histograms
            .iter()
            .filter(|o| o.before_full_gc == h.before_full_gc)
            .collect();
        if let (Some(first), [_, .., last]) = (alike.first(), alike.as_slice()) {
            j.histogram_growth = histogram_growth(first, last);
        }
    }
    heap_infos.sort_by(|x, y| x.0.path.cmp(&y.0.path));
    j.heap_infos = heap_infos
        .iter()
        .map(|(a, h)| {
            let mut lines: Vec<usize> = h.spaces.iter().map(|s| s.line).collect();
            lines.extend(h.metaspace.as_ref().map(|m| m.line));
            Cited::lines(
                HeapSummary {
                    collector: h.collector.clone(),
                    heap_committed_kib: h.committed_kib(),
                    heap_used_kib: h.used_kib(),
                    metaspace_used_kib: h.metaspace.as_ref().and_then(|m| m.used_kib),
                    metaspace_committed_kib: h.metaspace.as_ref().and_then(|m| m.committed_kib),
                    metaspace_line: h.metaspace.as_ref().map(|m| m.line),
                    old_kib: h
                        .spaces
                        .iter()
                        .find(|s| OLD_GENERATIONS.contains(&s.name.as_str()))
                        .and_then(|s| Some((s.used_kib?, s.committed_kib?))),
                    max_metaspace_kib: h.max_metaspace_kib,
                },
                &a.path,
                lines,
            )
        })
        .collect();
    if j.collector.is_none() {
        j.collector = j.heap_infos.last().and_then(|h| {
            h.value
                .collector
                .clone()
                .map(|c| Cited::lines(c, &h.artifact, h.lines.iter().take(1).copied().collect()))
        });
    }
    // In the order taken: the time stamp line, else the path (the collector takes `.1` at the
    // start and `.2` after the window).
    dumps.sort_by(|x, y| {
        x.1.timestamp
            .cmp(&y.1.timestamp)
            .then_with(|| x.0.path.cmp(&y.0.path))
    });
    j.dumps = dumps.iter().map(|(a, _)| a.path.clone()).collect();
    j.contended_locks = contended_locks(&dumps);
    j.deadlocks = deadlocks(&dumps);
    // Pools from the last thread dump.
    if let Some((a, t)) = dumps.last() {
        fill_threads(j, a, t);
    } else if let Some((a, t)) = thread_counts {
        fill_thread_counts(j, a, t);
    }
}

/// Pools from `/proc/PID/task/*/comm` counts when there is no thread dump. Linux truncates a
/// thread name to 15 bytes (`XNIO-1 task-12` fits, `http-nio-8080-exec-1` becomes
/// `http-nio-8080-e`), and states are unknown, so every thread counts as not runnable.
fn fill_thread_counts(j: &mut Jvm, a: &Artifact, t: &parsers::jvm::thread_counts::JvmThreads) {
    let mut pools: BTreeMap<String, (usize, Vec<usize>)> = BTreeMap::new();
    for r in &t.rows {
        let e = pools
            .entry(parsers::jvm::thread_dump::pool_name(&r.name).to_string())
            .or_default();
        e.0 =
            e.0.saturating_add(usize::try_from(r.count).unwrap_or(usize::MAX));
        if e.1.len() < 3 {
            e.1.push(r.line);
        }
    }
    let mut v: Vec<Cited<PoolCount>> = pools
        .into_iter()
        .map(|(pool, (n, lines))| {
            Cited::lines(
                PoolCount {
                    pool,
                    threads: n,
                    runnable: 0,
                    blocked: 0,
                },
                &a.path,
                lines,
            )
        })
        .collect();
    // Largest first; the sort is stable, so ties keep the map's name order.
    v.sort_by_key(|p| std::cmp::Reverse(p.value.threads));
    j.threads = Some(v.iter().map(|p| p.value.threads).sum());
    j.threads_source = Some(a.path.clone());
    j.pools = v;
}

fn vendor_name(v: &parsers::jvm::java_version::JavaVendor) -> String {
    use parsers::jvm::java_version::JavaVendor as V;
    match v {
        V::Oracle => "Oracle".into(),
        V::Temurin => "Temurin".into(),
        V::AdoptOpenJdk => "AdoptOpenJDK".into(),
        V::AzulZulu => "Azul Zulu".into(),
        V::AmazonCorretto => "Amazon Corretto".into(),
        V::AlibabaDragonwell => "Alibaba Dragonwell".into(),
        V::TencentKona => "Tencent Kona".into(),
        V::BiSheng => "BiSheng".into(),
        V::OpenJ9 => "OpenJ9".into(),
        V::OpenJdk => "OpenJDK".into(),
        V::Other(s) => s.clone(),
    }
}

/// Vendor from `java.runtime.name`, `java.vendor.version`, `java.vm.name`.
fn vendor_from_properties(j: &Jvm) -> Option<Cited<String>> {
    let runtime = j
        .property("java.runtime.name")
        .or_else(|| j.property("java.vendor.version"))
        .or_else(|| j.property("java.vendor"))?;
    let vm = j
        .property("java.vm.name")
        .map(|c| c.value.as_str())
        .unwrap_or("");
    let vendor = parsers::jvm::java_version::vendor_of(
        &format!(
            "{} {}",
            runtime.value,
            j.property("java.vendor.version")
                .map(|c| c.value.as_str())
                .unwrap_or("")
        ),
        vm,
    );
    Some(Cited::lines(
        vendor_name(&vendor),
        &runtime.artifact,
        runtime.lines.clone(),
    ))
}

/// A class histogram of a JVM: a histogram file, or one printed into its GC log.
struct Histo<'a> {
    /// The file's path; for one in a GC log, `path:line` of its header.
    name: String,
    artifact: &'a Artifact,
    histogram: &'a parsers::jvm::histogram::Histogram,
    in_gc_log: bool,
    /// Printed before a full GC: its counts include garbage.
    before_full_gc: bool,
}

/// Compares two histograms; `None` when either lacks its `Total` line (a cut output: the totals
/// cannot be compared).
fn histogram_growth(first: &Histo, last: &Histo) -> Option<HistogramGrowth> {
    let (fa, fh, la, lh) = (
        first.artifact,
        first.histogram,
        last.artifact,
        last.histogram,
    );
    let (ft, lt) = (fh.total?, lh.total?);
    let before: BTreeMap<&str, &parsers::jvm::histogram::ClassRow> =
        fh.rows.iter().map(|r| (r.class_name.as_str(), r)).collect();
    let mut grown: Vec<Cited<ClassGrowth>> = lh
        .rows
        .iter()
        .filter_map(|r| {
            let b = before.get(r.class_name.as_str());
            let (bb, bi, bl) = b.map_or((0, 0, 0), |b| (b.bytes, b.instances, b.line));
            (r.bytes > bb).then(|| {
                Cited::new(
                    ClassGrowth {
                        class_name: super::clip(&r.class_name),
                        bytes: (bb, r.bytes),
                        instances: (bi, r.instances),
                        first_line: bl,
                    },
                    &la.path,
                    r.line,
                )
            })
        })
        .collect();
    grown.sort_by_key(|g| std::cmp::Reverse(g.value.bytes.1 - g.value.bytes.0));
    grown.truncate(TOP_CLASSES);
    Some(HistogramGrowth {
        first: first.name.clone(),
        last: last.name.clone(),
        total_bytes: (
            Cited::new(ft.bytes, &fa.path, ft.line),
            Cited::new(lt.bytes, &la.path, lt.line),
        ),
        grown,
    })
}

fn fill_histogram(j: &mut Jvm, a: &Artifact, h: &parsers::jvm::histogram::Histogram) {
    let total = h.total.map(|t| (t.bytes, t.line)).unwrap_or_else(|| {
        (
            h.rows.iter().fold(0u64, |a, r| a.saturating_add(r.bytes)),
            0,
        )
    });
    if total.1 > 0 {
        j.histogram_total_bytes = Some(Cited::new(total.0, &a.path, total.1));
    } else {
        j.histogram_total_bytes = Some(Cited::lines(total.0, &a.path, vec![]));
    }
    j.histogram_source = Some(a.path.clone());
    j.top_classes = h
        .top_by_bytes(TOP_CLASSES)
        .into_iter()
        .map(|r| {
            Cited::new(
                ClassShare {
                    class_name: super::clip(&r.class_name),
                    instances: r.instances,
                    bytes: r.bytes,
                    share_pct: if total.0 > 0 {
                        r.bytes as f64 * 100.0 / total.0 as f64
                    } else {
                        0.0
                    },
                },
                &a.path,
                r.line,
            )
        })
        .collect();
}

fn fill_threads(j: &mut Jvm, a: &Artifact, t: &parsers::jvm::thread_dump::ThreadDump) {
    let owned: std::collections::BTreeSet<&str> = t
        .threads
        .iter()
        .flat_map(|th| th.held.iter().chain(&th.owned_synchronizers))
        .map(|h| h.address.as_str())
        .collect();
    let mut pools: BTreeMap<&str, (usize, usize, usize, Vec<usize>)> = BTreeMap::new();
    for th in &t.threads {
        let e = pools
            .entry(parsers::jvm::thread_dump::pool_name(&th.name))
            .or_default();
        e.0 += 1;
        if th.state.as_deref() == Some("RUNNABLE") {
            e.1 += 1;
        }
        let parked_on_owned = th.wait.as_ref().is_some_and(|w| {
            w.verb == parsers::jvm::thread_dump::WaitVerb::Park
                && owned.contains(w.lock.address.as_str())
                && !th
                    .owned_synchronizers
                    .iter()
                    .any(|h| h.address == w.lock.address)
        });
        if th.state.as_deref() == Some("BLOCKED") || parked_on_owned {
            e.2 += 1;
        }
        if e.3.len() < 3 {
            e.3.push(th.line);
        }
    }
    let mut v: Vec<Cited<PoolCount>> = pools
        .into_iter()
        .map(|(pool, (n, r, b, lines))| {
            Cited::lines(
                PoolCount {
                    pool: super::clip(pool),
                    threads: n,
                    runnable: r,
                    blocked: b,
                },
                &a.path,
                lines,
            )
        })
        .collect();
    // Largest first; the sort is stable, so ties keep the map's name order.
    v.sort_by_key(|p| std::cmp::Reverse(p.value.threads));
    j.threads = Some(t.threads.len());
    j.threads_source = Some(a.path.clone());
    j.pool_states_known = true;
    j.pools = v;
}

/// `0x… (a Class)`.
fn lock_text(l: &parsers::jvm::thread_dump::LockRef) -> String {
    match &l.class {
        Some(c) => format!("{} (a {c})", l.address),
        None => l.address.clone(),
    }
}

/// Contended locks over the dumps (each in the order taken).
fn contended_locks(dumps: &[(&Artifact, &ThreadDump)]) -> Vec<ContendedLock> {
    use parsers::jvm::thread_dump::WaitVerb;
    let mut locks: BTreeMap<(String, String), ContendedLock> = BTreeMap::new();
    for (a, d) in dumps {
        // Owner of each held object in this dump.
        let mut owners: BTreeMap<&str, (&JavaThread, &parsers::jvm::thread_dump::LockRef)> =
            BTreeMap::new();
        for t in &d.threads {
            for h in t.held.iter().chain(&t.owned_synchronizers) {
                owners.entry(h.address.as_str()).or_insert((t, h));
            }
        }
        let mut here: BTreeMap<&str, Vec<&JavaThread>> = BTreeMap::new();
        for t in &d.threads {
            let Some(w) = &t.wait else { continue };
            let owner = owners
                .get(w.lock.address.as_str())
                .filter(|(o, _)| o.line != t.line);
            let queued = match w.verb {
                WaitVerb::Enter | WaitVerb::Relock => true,
                // A park is a queue for a lock only when another thread owns the object; a
                // park on a condition (an idle pool's queue) has no owner.
                WaitVerb::Park => owner.is_some(),
                WaitVerb::WaitOn => false,
            };
            if queued {
                here.entry(w.lock.address.as_str()).or_default().push(t);
            }
        }
        for (addr, waiters) in here {
            let first = waiters[0].wait.as_ref().map(|w| &w.lock);
            let class = first
                .and_then(|l| l.class.clone())
                .unwrap_or_else(|| "?".into());
            let owner = owners
                .get(addr)
                .filter(|(o, _)| !waiters.iter().any(|w| w.line == o.line));
            let mut lines = Vec::new();
            let mut v = LockInDump {
                waiters: waiters.len(),
                waiter_names: waiters
                    .iter()
                    .take(NAMED_WAITERS)
                    .map(|t| super::clip(&t.name))
                    .collect(),
                ..LockInDump::default()
            };
            if let Some((o, _)) = owner {
                v.owner = Some(super::clip(&o.name));
                v.owner_state = o.state.as_ref().map(|s| match &o.state_detail {
                    Some(d) => format!("{s} ({d})"),
                    None => s.clone(),
                });
                v.owner_frames = o
                    .frames
                    .iter()
                    .take(OWNER_FRAMES)
                    .map(|f| super::clip(&f.text))
                    .collect();
                lines.push(o.line);
                lines.extend(o.frames.first().map(|f| f.line));
                // The frame printed just above the `- locked` line: the innermost frame holding
                // the lock (a `synchronized` method, or the method with the `synchronized` block).
                // An ownable synchronizer (`jstack -l`'s list after the stack) names no frame.
                if let Some(h) = o.owned_synchronizers.iter().find(|h| h.address == addr) {
                    lines.push(h.line);
                }
                if let Some(h) = o.held.iter().find(|h| h.address == addr) {
                    lines.push(h.line);
                    let took = o.frames.iter().rev().find(|f| f.line < h.line);
                    v.locked_at = took.map(|f| super::clip(&f.text));
                    lines.extend(took.map(|f| f.line));
                }
            }
            for w in waiters.iter().take(2) {
                lines.push(w.line);
                lines.extend(w.wait.as_ref().map(|x| x.lock.line));
            }
            lines.sort_unstable();
            lines.dedup();
            let e = locks
                .entry((addr.to_string(), class.clone()))
                .or_insert_with(|| ContendedLock {
                    address: addr.to_string(),
                    class,
                    dumps: Vec::new(),
                });
            e.dumps.push(Cited::lines(v, &a.path, lines));
        }
    }
    let mut v: Vec<ContendedLock> = locks.into_values().collect();
    v.sort_by_key(|l| std::cmp::Reverse((l.dumps.len(), l.max_waiters())));
    v
}

/// Deadlock cycles over the dumps: each set of threads once, cited in the last dump reporting it.
fn deadlocks(dumps: &[(&Artifact, &ThreadDump)]) -> Vec<Cited<Deadlock>> {
    let mut out: Vec<(Vec<String>, Cited<Deadlock>)> = Vec::new();
    for (a, d) in dumps {
        for r in &d.deadlock_reports {
            let mut key: Vec<String> = r.edges.iter().map(|e| e.thread.clone()).collect();
            key.sort();
            let mut lines = vec![r.line];
            let threads = r
                .edges
                .iter()
                .map(|e| {
                    lines.extend(&e.lines);
                    let t = d.threads.iter().find(|t| t.name == e.thread);
                    let top = t.and_then(|t| t.frames.first());
                    lines.extend(top.map(|f| f.line));
                    DeadlockedThread {
                        name: super::clip(&e.thread),
                        waits_for: e
                            .waits_for
                            .as_ref()
                            .map(lock_text)
                            .unwrap_or_else(|| "?".into()),
                        lock_kind: e.lock_kind.clone(),
                        held_by: e.held_by.as_deref().map(super::clip),
                        top_frame: top.map(|f| super::clip(&f.text)),
                    }
                })
                .collect();
            lines.sort_unstable();
            lines.dedup();
            let seen = out
                .iter()
                .position(|(k, _)| *k == key)
                .map(|i| out[i].1.value.in_dumps);
            let c = Cited::lines(
                Deadlock {
                    threads,
                    in_dumps: seen.unwrap_or(0) + 1,
                },
                &a.path,
                lines,
            );
            match out.iter_mut().find(|(k, _)| *k == key) {
                Some(slot) => slot.1 = c,
                None => out.push((key, c)),
            }
        }
    }
    out.into_iter().map(|(_, c)| c).collect()
}

fn fill_gc_log(j: &mut Jvm, a: &Artifact, g: &parsers::jvm::gclog::GcLog) {
    let mut s = GcLogSummary {
        artifact: a.path.clone(),
        collector: g.collector.clone(),
        ..Default::default()
    };
    let ups: Vec<f64> = g.events.iter().filter_map(|e| e.uptime_s).collect();
    if let (Some(a), Some(b)) = (ups.first(), ups.last()) {
        s.span_s = (b > a).then(|| b - a);
    }
    for e in &g.events {
        if let Some(p) = e.pause_ms {
            if s.max_pause_ms.as_ref().is_none_or(|m| p > m.value) {
                s.max_pause_ms = Some(Cited::new(p, &a.path, e.line));
            }
            if p >= 1000.0 {
                s.long_pauses += 1;
            }
        }
        if e.to_space_exhausted {
            s.to_space_exhausted.push(e.line);
        }
        if e.kind == parsers::jvm::gclog::GcKind::Full {
            if let (Some(after), Some(total)) = (e.heap_after_kib, e.heap_total_kib) {
                if total > 0 {
                    s.full_gc_after_pct.push(Cited::new(
                        after as f64 * 100.0 / total as f64,
                        &a.path,
                        e.line,
                    ));
                }
            }
        }
    }
    j.gc_log = Some(s);
}

/// Old-generation occupancy of a sample as printed, %: `O` (`-gcutil`), else `OU / OC` (`-gc`).
pub fn old_occupancy_pct(s: &JstatSample) -> Option<f64> {
    s.old_pct.or_else(|| match (s.ou_kib, s.oc_kib) {
        (Some(u), Some(c)) if c > 0.0 => Some(u * 100.0 / c),
        _ => None,
    })
}

/// [`old_occupancy_pct`], `None` outside 0–100 % (a corrupt value).
fn old_pct(s: &JstatSample) -> Option<f64> {
    old_occupancy_pct(s).filter(|o| (0.0..=100.5).contains(o))
}

/// Seconds spent in stop-the-world pauses since the JVM started: `YGCT + FGCT` (either alone
/// when the other is not printed).
pub fn pause_total_s(s: &JstatSample) -> Option<f64> {
    match (s.ygct_s, s.fgct_s) {
        (None, None) => None,
        (y, f) => Some(y.unwrap_or(0.0) + f.unwrap_or(0.0)),
    }
}

/// Share of an interval of `dt` seconds spent in GC pauses between samples `a` and `b`, %
/// (capped at 100); `None` when the interval is empty or the pause time went backwards.
pub fn gc_time_pct(a: &JstatSample, b: &JstatSample, dt: f64) -> Option<f64> {
    match (pause_total_s(a), pause_total_s(b)) {
        (Some(a), Some(b)) if dt > 0.0 && b >= a => Some(((b - a) / dt * 100.0).min(100.0)),
        _ => None,
    }
}

/// A full collection ran between consecutive samples `a` and `b`: `FGC` grew.
pub fn full_gc_between(a: &JstatSample, b: &JstatSample) -> bool {
    matches!((a.fgc, b.fgc), (Some(x), Some(y)) if y > x)
}

/// Builds the GC series of one `jstat` output. `None` when it has fewer than two samples.
pub fn gc_series(path: &str, s: &Jstat, interval_s: Option<f64>) -> Option<GcSeries> {
    let first = s.samples.first()?;
    let last = s.samples.last()?;
    if s.samples.len() < 2 {
        return None;
    }
    // Timestamps that go backwards mean a corrupt or spliced output: no window, no share.
    let monotonic = s
        .samples
        .iter()
        .filter_map(|x| x.timestamp_s)
        .try_fold(f64::NEG_INFINITY, |prev, t| (t >= prev).then_some(t))
        .is_some();
    let window_s = match (first.timestamp_s, last.timestamp_s) {
        (Some(a), Some(b)) if b > a && monotonic => Some(b - a),
        (Some(_), Some(_)) => None,
        _ => interval_s.map(|i| i * (s.samples.len() - 1) as f64),
    };
    let delta_u = |f: fn(&JstatSample) -> Option<u64>| match (f(&first), f(&last)) {
        (Some(a), Some(b)) if b >= a => Some(b - a),
        _ => None,
    };
    let delta_f = |f: fn(&JstatSample) -> Option<f64>| match (f(&first), f(&last)) {
        (Some(a), Some(b)) if b >= a && a >= 0.0 => Some(b - a),
        _ => None,
    };
    let ygct = delta_f(|x| x.ygct_s);
    let fgct = delta_f(|x| x.fgct_s);
    let pause_s = match (ygct, fgct) {
        (Some(y), Some(f)) => Some(y + f),
        (Some(y), None) => Some(y),
        (None, Some(f)) => Some(f),
        (None, None) => None,
    };
    let pause_share_pct = match (pause_s, window_s) {
        (Some(p), Some(w)) if w > 0.0 => Some((p * 100.0 / w).min(100.0)),
        _ => None,
    };
    let mut old_after_fgc = Vec::new();
    for (a, b) in s.samples.pairs() {
        if full_gc_between(&a, &b) {
            if let Some(o) = old_pct(&b) {
                old_after_fgc.push(Cited::new(o, path, b.line));
            }
        }
    }
    Some(GcSeries {
        artifact: path.to_string(),
        samples: s.samples.len(),
        window_s,
        ygc: delta_u(|x| x.ygc),
        fgc: delta_u(|x| x.fgc),
        pause_s,
        pause_share_pct,
        old_after_fgc,
        old_last: old_pct(&last).map(|o| Cited::new(o, path, last.line)),
        span_lines: vec![first.line, last.line],
        timestamped: first.timestamp_s.is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrupt_jstat_values_give_no_share_and_no_old_gen() {
        // Time going backwards, a negative FGCT, an O of 150 %.
        let text = "Timestamp         S0     S1     E      O      M     CCS    YGC     YGCT    FGC    FGCT     GCT   \n\
                    \x20        11.7   0.00   0.00  50.00  97.10  90.00  85.00     10    0.500     3   -3.000   -2.500\n\
                    \x20         5.0   0.00   0.00  10.00 150.00  90.00  85.00     10    0.500     4    2.900    3.400\n";
        let p = parsers::jvm::jstat::parse(text).expect("parses");
        let g = gc_series("j.txt", &p.value, Some(1.0)).expect("series");
        assert_eq!(g.window_s, None);
        assert_eq!(g.pause_share_pct, None);
        assert!(g.old_after_fgc.is_empty());
    }

    #[test]
    fn sizes_use_the_jvm_suffixes() {
        assert_eq!(parse_size("512m"), Some(512 << 20));
        assert_eq!(parse_size("4G"), Some(4 << 30));
        assert_eq!(parse_size("1048576"), Some(1 << 20));
        assert_eq!(parse_size("x"), None);
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size("99999999999999999999t"), None);
    }

    #[test]
    fn roles_come_from_the_main_class() {
        assert_eq!(
            role_of("org.apache.zookeeper.server.quorum.QuorumPeerMain /etc/zookeeper/zoo.cfg"),
            Some("ZooKeeper")
        );
        assert_eq!(
            role_of("-Xmx1g kafka.Kafka server.properties"),
            Some("Kafka broker")
        );
        assert_eq!(role_of("com.example.Main"), None);
    }

    #[test]
    fn main_class_skips_options_and_classpath() {
        let args: Vec<String> = ["java", "-Xmx1g", "-cp", "a.jar:b.jar", "com.x.Main", "arg"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(main_from_args(&args).as_deref(), Some("com.x.Main"));
        let jar: Vec<String> = ["java", "-jar", "app.jar"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(main_from_args(&jar).as_deref(), Some("app.jar"));
    }

    #[test]
    fn gc_series_records_old_gen_after_each_full_gc() {
        let text = "Timestamp         S0     S1     E      O      M     CCS    YGC     YGCT    FGC    FGCT     GCT   \n\
                    \x20        10.0   0.00   0.00  50.00  97.10  90.00  85.00     10    0.500     3    2.000    2.500\n\
                    \x20        11.0   0.00   0.00  10.00  98.50  90.00  85.00     10    0.500     4    2.900    3.400\n\
                    \x20        12.0   0.00   0.00  60.00  98.90  90.00  85.00     11    0.550     4    2.900    3.450\n\
                    \x20        13.0   0.00   0.00  20.00  99.20  90.00  85.00     11    0.550     5    3.800    4.350\n";
        let p = parsers::jvm::jstat::parse(text).expect("parses");
        let g = gc_series("jvm/1/jstat-gcutil.txt", &p.value, None).expect("series");
        assert_eq!(g.samples, 4);
        assert_eq!(g.window_s, Some(3.0));
        assert_eq!(g.fgc, Some(2));
        assert_eq!(g.ygc, Some(1));
        let after: Vec<f64> = g.old_after_fgc.iter().map(|c| c.value).collect();
        assert_eq!(after, vec![98.5, 99.2]);
        assert_eq!(g.old_after_fgc[0].lines, vec![3]);
        let share = g.pause_share_pct.expect("share");
        assert!((share - (0.05 + 1.8) * 100.0 / 3.0).abs() < 1e-6, "{share}");
    }

    #[test]
    fn a_pid_in_a_dump_file_name_groups_it_and_a_sequence_number_does_not() {
        assert_eq!(pid_in_name("case/jstack_12345.txt"), Some(12345));
        assert_eq!(pid_in_name("jstack-21820-2.out"), Some(21820));
        assert_eq!(pid_in_name("threaddump.4242.log"), Some(4242));
        assert_eq!(pid_in_name("jstack.1.txt"), None);
        assert_eq!(pid_in_name("threaddump-3.log"), None);
        assert_eq!(pid_in_name("jstack-l-jdk8u191-windows.txt"), None);
        assert_eq!(pid_in_name("gc_20261202.log"), None);
        assert_eq!(pid_in_name("app_12345.log"), None);
    }
}
