//! Parser throughput and record size, one large artifact kind at a time.
//!
//! For each kind, builds an input of about `--size-mb` MB (default 64) in memory by repeating a
//! real capture from `parsers/tests/fixtures` (its header lines once, its body over and over, its
//! trailer once), parses it `--runs` times (default 5) through the kind's public `parse`
//! function on this one thread, and prints one line per kind:
//!
//! ```text
//! kind           input_MB  MB/s_cpu  MB/s_wall  heap/text  peak/text  issues
//! pidstat           64.0     412.3      398.7       0.93       0.93       0
//! ```
//!
//! - `MB/s_cpu`: input MB (10^6 bytes) over the median CPU time of this thread
//!   (`/proc/thread-self/schedstat`, ns), which other load on the machine disturbs less than
//!   wall time; `MB/s_wall`: the same over the median wall time.
//! - `heap/text`: heap bytes the parsed record holds (counted by this program's allocator,
//!   after the parse, before the record is dropped) over the input's bytes; `peak/text`: the
//!   highest heap in use during the parse, beyond the input, over the input's bytes.
//! - `issues`: line issues of the last run (a sanity check that the repeated input still reads
//!   as its kind).
//!
//! With `--digest`, also prints a hash of the parsed record's JSON serialisation, to check that
//! a change to a parser leaves its results as they were on a large input.
//!
//! ```sh
//! cargo run --release -p rca-parsers --example parser_throughput -- [--size-mb N] [--runs N] [--digest] [KIND…]
//! ```
//! Kinds: run with `--list`. Started from the workspace root or `parsers/`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::any::Any;
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The system allocator, counting the bytes in use and their high-water mark.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let now = IN_USE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; only counters are updated beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// What one parse returns: the record (kept alive to be measured), its issue count, and its
/// JSON serialisation's hash when asked for.
struct Outcome {
    _record: Box<dyn Any>,
    issues: usize,
    digest: Option<u64>,
}

type ParseFn = fn(&str, bool) -> Result<Outcome, String>;

/// One benchmarked kind: its name, the capture it repeats (relative to `parsers/tests/fixtures`),
/// how many of the capture's first and last lines are written only once, and its parser.
struct Kind {
    name: &'static str,
    fixture: &'static str,
    head: usize,
    tail: usize,
    parse: ParseFn,
}

/// A `ParseFn` for a parser `fn(&str) -> Result<Parsed<T>, ParseError>`.
macro_rules! parser {
    ($f:path) => {{
        fn run(text: &str, digest: bool) -> Result<Outcome, String> {
            let parsed = $f(text).map_err(|e| e.to_string())?;
            let digest = digest.then(|| hash_json(&parsed));
            Ok(Outcome {
                issues: parsed.issues.len(),
                _record: Box::new(parsed),
                digest,
            })
        }
        run as ParseFn
    }};
}

const KINDS: &[Kind] = &[
    Kind {
        name: "pidstat",
        fixture: "pidstat/sysstat-tests__pidstat-t-dRrsuvw-threads.txt",
        head: 1,
        tail: 0,
        parse: parser!(parsers::sysstat::pidstat::parse),
    },
    Kind {
        name: "pidstat-u",
        fixture: "pidstat/insights-core__pidstat-insights-12h.txt",
        head: 0,
        tail: 0,
        parse: parser!(parsers::sysstat::pidstat::parse),
    },
    Kind {
        name: "jstat",
        fixture: "captured-jvm/jstat-gc-jdk17.txt",
        head: 1,
        tail: 0,
        parse: parser!(parsers::jvm::jstat::parse),
    },
    Kind {
        name: "mpstat",
        fixture: "mpstat/sysstat-tests__mpstat-A.txt",
        head: 1,
        tail: 0,
        parse: parser!(parsers::sysstat::mpstat::parse),
    },
    Kind {
        name: "iostat",
        fixture: "iostat/jc__iostat-x-sysstat12-ubuntu2010.txt",
        head: 1,
        tail: 0,
        parse: parser!(parsers::sysstat::iostat::parse),
    },
    Kind {
        name: "sar",
        fixture: "sar/sysstat-tests__sar-A-live-all-activities.txt",
        head: 1,
        tail: 0,
        parse: parser!(parsers::sysstat::sar::parse),
    },
    Kind {
        name: "sadf-json",
        fixture: "sar/sysstat-tests__sadf-j-A.txt",
        head: 0,
        tail: 0,
        parse: parser!(parsers::sysstat::sadf::parse),
    },
    Kind {
        name: "vmstat",
        fixture: "vmstat/jc__vmstat-1-ubuntu1804-37samples.txt",
        head: 2,
        tail: 0,
        parse: parser!(parsers::procs::vmstat::parse),
    },
    Kind {
        name: "ss",
        fixture: "ss/jc__ss-a-all-families-centos7.txt",
        head: 1,
        tail: 0,
        parse: parser!(parsers::procs::ss::parse_ss),
    },
    Kind {
        name: "ss-i",
        fixture: "ss/captured-iproute2-6.1-ss-peaonmi.txt",
        head: 1,
        tail: 0,
        parse: parser!(parsers::procs::ss::parse_ss),
    },
    Kind {
        name: "perf-script",
        fixture: "perf/perf6.1-script-loopback-300.txt",
        head: 0,
        tail: 0,
        parse: parser!(parsers::perf::script::parse),
    },
    Kind {
        name: "perf-report",
        fixture: "perf/perf6.1-report-stdio-children.txt",
        head: 0,
        tail: 0,
        parse: parser!(parsers::perf::report::parse),
    },
    Kind {
        name: "thread-dump",
        fixture: "thread-dump/jstack-l-openjdk17-contention.txt",
        // The time stamp and `Full thread dump` lines once, `JNI global refs:` once at the end:
        // one large dump (the collector writes one dump per file), not hundreds of dumps
        // concatenated, whose repeated time stamps the parser reports as stray lines.
        head: 2,
        tail: 2,
        parse: parser!(parsers::jvm::thread_dump::parse),
    },
    Kind {
        name: "histogram",
        fixture: "captured-jvm/jmap-histo-live-jdk17.txt",
        head: 2,
        tail: 1,
        parse: parser!(parsers::jvm::histogram::parse),
    },
    Kind {
        name: "gclog-unified",
        fixture: "gc-logs/gcviewer__jdk17-unified-g1-concurrent-cycle.txt",
        head: 0,
        tail: 0,
        parse: parser!(parsers::jvm::gclog::parse),
    },
    Kind {
        name: "gclog-jdk8",
        fixture: "gc-logs/gcviewer__jdk8-g1-printgcid.txt",
        head: 0,
        tail: 0,
        parse: parser!(parsers::jvm::gclog::parse),
    },
    Kind {
        name: "dmesg",
        fixture: "dmesg/hotsos__dmesg-ubuntu2004-kvm-full.txt",
        head: 0,
        tail: 0,
        parse: parser!(parsers::kernel::dmesg::parse_dmesg),
    },
    Kind {
        name: "kern.log",
        fixture: "syslog/hotsos__kern.log-ubuntu2004",
        head: 0,
        tail: 0,
        parse: parser!(parsers::kernel::syslog::parse),
    },
    Kind {
        name: "proc-stat",
        fixture: "proc-stat/node_exporter__proc-stat-8cpu.txt",
        head: 0,
        tail: 0,
        parse: parser!(parsers::proc::stat::parse),
    },
];

/// A `Write` that feeds a hasher.
struct HashWriter(std::collections::hash_map::DefaultHasher);

impl std::io::Write for HashWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn hash_json<T: serde::Serialize>(v: &T) -> u64 {
    let mut w = HashWriter(Default::default());
    if serde_json::to_writer(&mut w, v).is_err() {
        return 0;
    }
    w.0.finish()
}

/// CPU time of this thread so far, ns (`/proc/thread-self/schedstat`, first field).
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn fixtures_dir() -> Option<PathBuf> {
    ["parsers/tests/fixtures", "tests/fixtures"]
        .iter()
        .map(PathBuf::from)
        .chain(std::iter::once(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
        ))
        .find(|p| p.is_dir())
}

/// `capture`'s first `head` lines, then its middle lines repeated until about `size` bytes, then
/// its last `tail` lines.
fn repeat_text(capture: &str, head: usize, tail: usize, size: usize) -> String {
    let lines: Vec<&str> = capture.split_inclusive('\n').collect();
    let head = head.min(lines.len());
    let tail = tail.min(lines.len() - head);
    let body: String = lines[head..lines.len() - tail].concat();
    let mut out = String::with_capacity(size + capture.len());
    out.push_str(&lines[..head].concat());
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    while out.len() < size && !body.is_empty() {
        out.push_str(&body);
        if !body.ends_with('\n') {
            out.push('\n');
        }
    }
    out.push_str(&lines[lines.len() - tail..].concat());
    out
}

/// `sadf -j`: the capture's `statistics` array repeated until about `size` bytes.
fn repeat_sadf(capture: &str, size: usize) -> Result<String, String> {
    let mut doc: serde_json::Value = serde_json::from_str(capture).map_err(|e| e.to_string())?;
    let stats = doc
        .pointer_mut("/sysstat/hosts/0/statistics")
        .and_then(|s| s.as_array_mut())
        .ok_or("no /sysstat/hosts/0/statistics array")?;
    let one = stats.clone();
    let one_len = serde_json::to_string_pretty(&one)
        .map_err(|e| e.to_string())?
        .len()
        .max(1);
    let copies = size / one_len;
    for _ in 1..copies.max(1) {
        stats.extend(one.iter().cloned());
    }
    serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() {
    let mut size_mb = 64.0;
    let mut runs = 5usize;
    let mut digest = false;
    let mut wanted: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--size-mb" => size_mb = args.next().and_then(|v| v.parse().ok()).unwrap_or(size_mb),
            "--runs" => runs = args.next().and_then(|v| v.parse().ok()).unwrap_or(runs),
            "--digest" => digest = true,
            "--list" => {
                for k in KINDS {
                    println!("{:<16} {}", k.name, k.fixture);
                }
                return;
            }
            "-h" | "--help" => {
                eprintln!(
                    "usage: parser_throughput [--size-mb N] [--runs N] [--digest] [--list] [KIND…]"
                );
                return;
            }
            _ => wanted.push(a),
        }
    }
    let runs = runs.max(1);
    let Some(dir) = fixtures_dir() else {
        eprintln!("parsers/tests/fixtures not found: run from the workspace root");
        std::process::exit(2);
    };
    let size = (size_mb * 1e6) as usize;
    println!(
        "{:<16} {:>8} {:>9} {:>10} {:>10} {:>10} {:>7}{}",
        "kind",
        "input_MB",
        "MB/s_cpu",
        "MB/s_wall",
        "heap/text",
        "peak/text",
        "issues",
        if digest { "  digest" } else { "" }
    );
    for kind in KINDS
        .iter()
        .filter(|k| wanted.is_empty() || wanted.iter().any(|w| w == k.name))
    {
        let capture = match std::fs::read_to_string(dir.join(kind.fixture)) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{}: {}: {e}", kind.name, kind.fixture);
                continue;
            }
        };
        let text = if kind.name == "sadf-json" {
            match repeat_sadf(&capture, size) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("{}: {e}", kind.name);
                    continue;
                }
            }
        } else {
            repeat_text(&capture, kind.head, kind.tail, size)
        };
        let mb = text.len() as f64 / 1e6;
        let mut cpu = Vec::with_capacity(runs);
        let mut wall = Vec::with_capacity(runs);
        let (mut held, mut peak, mut issues, mut hash) = (0usize, 0usize, 0usize, None);
        for run in 0..runs {
            let before = IN_USE.load(Ordering::Relaxed);
            PEAK.store(before, Ordering::Relaxed);
            let c0 = thread_cpu_ns();
            let t0 = Instant::now();
            let out = (kind.parse)(&text, false);
            let t = t0.elapsed().as_secs_f64();
            let c1 = thread_cpu_ns();
            wall.push(t);
            if let (Some(a), Some(b)) = (c0, c1) {
                cpu.push((b - a) as f64 / 1e9);
            }
            match out {
                Ok(o) => {
                    held = IN_USE.load(Ordering::Relaxed).saturating_sub(before);
                    peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
                    issues = o.issues;
                    drop(o);
                    if digest && run == 0 {
                        hash = (kind.parse)(&text, true).ok().and_then(|o| o.digest);
                    }
                }
                Err(e) => {
                    eprintln!("{}: {e}", kind.name);
                    break;
                }
            }
        }
        let rate = |v: &mut Vec<f64>| {
            if v.is_empty() {
                f64::NAN
            } else {
                mb / median(v)
            }
        };
        println!(
            "{:<16} {:>8.1} {:>9.1} {:>10.1} {:>10.2} {:>10.2} {:>7}{}",
            kind.name,
            mb,
            rate(&mut cpu),
            rate(&mut wall),
            held as f64 / text.len() as f64,
            peak as f64 / text.len() as f64,
            issues,
            hash.map(|h| format!("  {h:016x}")).unwrap_or_default()
        );
    }
}
