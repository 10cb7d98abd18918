//! JVM garbage-collection logs: JDK 8 `-XX:+PrintGCDetails` (with or without
//! `-XX:+PrintGCDateStamps`, `-XX:+PrintGCTimeStamps`, `-XX:+PrintGCID`, `-XX:+PrintReferenceGC`)
//! for CMS/ParNew, Parallel, Serial and G1 (including the multi-line G1 pause blocks), and JDK 9+
//! unified logging (`-Xlog:gc*`, `-Xlog:gc`) with any decorators in any order
//! (`[2024-01-01T00:00:00.123+0000][0.123s][info][gc]`, `[233ms][info][gc,start]`…) for G1,
//! Parallel, Serial, ZGC and Shenandoah.
//!
//! One [`GcEvent`] per collection line: JDK 8 `[GC …]`, `[Full GC …]`, `[GC pause …]`,
//! `[GC remark …]`, `[GC cleanup …]` (JDK 6/7 `[GC 12.3: [ParNew: …` without a cause too) and the concurrent-phase lines (`[CMS-concurrent-mark-start]`,
//! `[GC concurrent-mark-end, …]`); unified `Pause …`, ZGC `Garbage Collection (…)` and the G1
//! `Concurrent Cycle` / `Concurrent Mark Cycle` / `Concurrent Undo Cycle` summary lines (the
//! `gc,start` lines without a duration are skipped). A JDK 8 event may span lines: it ends when
//! its outer `[` closes; the G1 `[Eden: … Heap: a(b)->c(d)]` summary that follows a pause fills
//! its heap sizes. ZGC `Allocation Stall` lines are counted. Numbers with a decimal comma
//! (`3,456ms`) are read too.
//!
//! Class histograms printed into the log become [`GcHistogram`]s, their rows read by
//! [`crate::jvm::histogram`] with this log's line numbers (a histogram is also a kind of its own;
//! this record carries those of the log, so one file yields both): JDK 6–8
//! `-XX:+PrintClassHistogramBeforeFullGC` / `-XX:+PrintClassHistogramAfterFullGC` blocks, whose
//! title (`…: 12.345: [Class Histogram (before full gc):`, JDK 6/7 `[Class Histogram:` before and
//! `[Class Histogram` after) opens a bracket inside the full GC's event, the rows (`[B`,
//! `[Ljava.lang.Object;`) following outside any bracket count; JDK 9+ `-Xlog:gc+classhisto=trace`
//! (`-Xlog:gc*,classhisto*=trace`) blocks, one decorated line per row, closed by
//! `Class Histogram (before full gc) 5.615ms` (JDK 25 also opens them with a `gc,classhisto,start`
//! line); and a histogram printed on request — `jcmd PID GC.class_histogram` output appended
//! to the log, or `-XX:+PrintClassHistogram` on SIGQUIT in a console log — dated by the
//! `Heap Inspection Initiated GC` event just above it.
//!
//! The `[…]` decorators of a unified-logging line are split off by a scanner
//! (`split_once(']')` per group) rather than a nom grammar: every line of a unified log goes
//! through it, and a nom grammar of the same decorators (giving the same results on every
//! fixture line) measured 174 MB/s against 254 MB/s for the scanner on the bench input
//! (`bench/parser-throughput.sh`, `gclog-unified`, median of 7 runs).
//!
//! The `[…]` decorators of a unified-logging line are split off by a scanner
//! (`split_once(']')` per group) rather than a nom grammar: every line of a unified log goes
//! through it, and a nom grammar of the same decorators (giving the same results on every
//! fixture line) measured 174 MB/s against 254 MB/s for the scanner on the bench input
//! (`bench/parser-throughput.sh`, `gclog-unified`, median of 7 runs).
//!
//! Units: `uptime_s` seconds since JVM start; `pause_ms` milliseconds of stop-the-world pause
//! (`None` for concurrent work); heap sizes KiB (`K`/`M`/`G`/`B` suffixes converted).
//!
//! Not handled: Shenandoah/ZGC concurrent phase lines and the `gc,phases` breakdowns (not
//! events), CMS concurrent phases nested inside another event's line, JDK 8 `-verbose:gc`
//! lines without brackets, and `-Xlog` `timemillis`/`timenanos` decorators (read as uptime).
//!
//! Sample input (OpenJDK 17.0.15, `-Xlog:gc*:file=gc.log -Xmx64m`):
//! ```text
//! [0.003s][info][gc] Using G1
//! [0.027s][info][gc,start    ] GC(0) Pause Young (Normal) (G1 Evacuation Pause)
//! [0.028s][info][gc          ] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 6M->1M(64M) 1.070ms
//! ```
//! With `-Xlog:gc*,gc+classhisto=trace` (OpenJDK 17.0.15; OpenJDK 25.0.3 prints the same):
//! ```text
//! [0.121s][info][gc,start    ] GC(2) Pause Full (System.gc())
//! [0.125s][trace][gc,classhisto] GC(2)  num     #instances         #bytes  class name (module)
//! [0.125s][trace][gc,classhisto] GC(2) -------------------------------------------------------
//! [0.125s][trace][gc,classhisto] GC(2)    1:        122020        7680928  [B (java.base@17.0.15)
//! [0.126s][trace][gc,classhisto] GC(2) Total        253289       14008392
//! [0.126s][trace][gc,classhisto] GC(2) Class Histogram (before full gc) 5.615ms
//! ```
//! JDK 8 with `-XX:+PrintClassHistogramBeforeFullGC` (garbagecat test data):
//! ```text
//! 2021-10-07T10:05:34.135+0100: 69302.241: [Full GC (Heap Dump Initiated GC) 2021-10-07T10:05:34.135+0100: 69302.241: [Class Histogram (before full gc):
//!  num     #instances         #bytes  class name
//! ----------------------------------------------
//!    1:      13269691     2158610984  [C
//! Total     170072935     8583124392
//! , 4.7148918 secs]
//!  8185M->7616M(31G), 24.5727654 secs]
//! ```
//! JDK 8 (`-XX:+PrintGCDetails -XX:+PrintGCDateStamps -XX:+PrintGCID`):
//! ```text
//! 2022-08-01T17:16:33.170+0000: 0.169: #0: [GC (Allocation Failure) 2022-08-01T17:16:33.171+0000: 0.170: #0: [ParNew: 8678K->1081K(9792K), 0.0088699 secs] 8678K->8064K(31680K), 0.0106548 secs] [Times: user=0.02 sys=0.00, real=0.01 secs]
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, parse_num, split_last, strip_bom, Issues, U64_MAX_F64,
};
use crate::common::{ParseError, Parsed, Sniff};
use crate::jvm::histogram::{Block, Fed, Histogram};
use serde::Serialize;

/// Which logging system wrote the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum GcLogFormat {
    /// JDK 8 and earlier `-XX:+PrintGCDetails` output.
    #[default]
    Jdk8,
    /// JDK 9+ unified logging (`-Xlog:gc*`).
    Unified,
}

/// What kind of collection an event is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum GcKind {
    /// Young-generation pause (`ParNew`, `PSYoungGen`, `Pause Young`, G1 `(young)`, incl. initial mark).
    Young,
    /// G1 mixed pause.
    Mixed,
    /// Full (compacting) collection, including a CMS `concurrent mode failure`.
    Full,
    /// Remark pause (G1 `Pause Remark`, CMS `Final Remark`).
    Remark,
    /// G1 cleanup pause.
    Cleanup,
    /// Concurrent work: a cycle summary, a ZGC `Garbage Collection` or a CMS/G1 concurrent phase.
    Concurrent,
    /// Any other pause (CMS initial mark, ZGC/Shenandoah phase pauses…).
    Other,
}

/// One collection event.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GcEvent {
    /// 1-based input line of the event (its first line).
    pub line: usize,
    /// Seconds since JVM start.
    pub uptime_s: Option<f64>,
    /// Wall-clock time stamp as printed.
    pub timestamp: Option<String>,
    /// GC id (`GC(12)`, `#12:`).
    pub gc_id: Option<u64>,
    /// Kind of collection.
    pub kind: GcKind,
    /// Cause as printed (`Allocation Failure`, `G1 Evacuation Pause`, `System.gc()`…).
    pub cause: Option<String>,
    /// Stop-the-world pause, milliseconds; `None` for concurrent work.
    pub pause_ms: Option<f64>,
    /// Heap used before the collection, KiB.
    pub heap_before_kib: Option<u64>,
    /// Heap used after the collection, KiB.
    pub heap_after_kib: Option<u64>,
    /// Heap capacity after the collection, KiB.
    pub heap_total_kib: Option<u64>,
    /// G1 `(to-space exhausted)` / `to-space overflow` was printed.
    pub to_space_exhausted: bool,
}

/// When the JVM printed a class histogram into its GC log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum HistogramPhase {
    /// Before a full collection: JDK 8 `[Class Histogram (before full gc):`, JDK 6/7
    /// `[Class Histogram:`, unified `Class Histogram (before full gc)`. Counts include garbage.
    BeforeFullGc,
    /// After a full collection: JDK 8 `[Class Histogram (after full gc):`, JDK 6/7
    /// `[Class Histogram` (no colon), unified `Class Histogram (after full gc)`. The live set.
    AfterFullGc,
}

/// A class histogram found in a GC log: a JDK 6–8 `-XX:+PrintClassHistogramBeforeFullGC` /
/// `-XX:+PrintClassHistogramAfterFullGC` block, a JDK 9+ `-Xlog:gc+classhisto=trace` block, or
/// a `jcmd PID GC.class_histogram` (or `jmap -histo`) output appended to the log. Its rows are
/// read by [`crate::jvm::histogram`], with this log's input line numbers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GcHistogram {
    /// 1-based input line of the histogram's column header (of jcmd's PID line before it, when
    /// printed).
    pub line: usize,
    /// Seconds since JVM start, from its title (JDK 8) or its lines' decorators (unified).
    pub uptime_s: Option<f64>,
    /// Wall-clock time stamp as printed, likewise.
    pub timestamp: Option<String>,
    /// GC id of the collection it belongs to (unified `GC(12)`).
    pub gc_id: Option<u64>,
    /// Before or after a full collection, when its title says; `None` for a histogram taken on
    /// request (appended `jcmd` output).
    pub phase: Option<HistogramPhase>,
    /// The histogram.
    pub histogram: Histogram,
}

/// A parsed GC log.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct GcLog {
    /// Logging system.
    pub format: GcLogFormat,
    /// Collector: `G1`, `CMS/ParNew`, `Parallel`, `Serial`, `ZGC`, `Shenandoah`.
    pub collector: Option<String>,
    /// Events in input order.
    pub events: Vec<GcEvent>,
    /// Number of ZGC `Allocation Stall` lines.
    pub allocation_stalls: usize,
    /// Class histograms printed into the log, in input order.
    pub histograms: Vec<GcHistogram>,
}

impl GcLog {
    /// The full collections.
    pub fn full_gcs(&self) -> impl Iterator<Item = &GcEvent> {
        self.events.iter().filter(|e| e.kind == GcKind::Full)
    }

    /// Sum of all pauses, milliseconds.
    pub fn total_pause_ms(&self) -> f64 {
        self.events.iter().filter_map(|e| e.pause_ms).sum()
    }

    /// Fraction (0..=1) of the last `window_s` seconds of the log (by uptime) spent in pauses;
    /// `None` without uptimes or with a non-positive window.
    pub fn pause_share(&self, window_s: f64) -> Option<f64> {
        if window_s.is_nan() || window_s <= 0.0 {
            return None;
        }
        let end = self
            .events
            .iter()
            .filter_map(|e| e.uptime_s)
            .fold(None, |m: Option<f64>, u| Some(m.map_or(u, |m| m.max(u))))?;
        let start = end - window_s;
        let ms: f64 = self
            .events
            .iter()
            .filter(|e| e.uptime_s.is_some_and(|u| u >= start))
            .filter_map(|e| e.pause_ms)
            .sum();
        Some((ms / 1000.0 / window_s).min(1.0))
    }
}

/// Answers whether `head` is a GC log.
pub fn sniff(head: &str) -> Sniff {
    for (line, _) in head_lines(strip_bom(head)) {
        if let Some(d) = unified(line) {
            if d.tags.is_some_and(|t| t.starts_with("gc")) {
                return Sniff::Yes;
            }
        } else if jdk8_header(line).is_some()
            || (line.starts_with("CommandLine flags:") && line.contains("PrintGC"))
        {
            return Sniff::Yes;
        }
    }
    Sniff::No
}

/// Parses a GC log.
pub fn parse(text: &str) -> Result<Parsed<GcLog>, ParseError> {
    let mut issues = Issues::default();
    let mut log = GcLog::default();
    let mut format: Option<GcLogFormat> = None;
    let mut pending: Option<Pending> = None;
    // Index of a G1 JDK 8 pause still waiting for its `Heap:` summary line.
    let mut awaiting_heap: Option<usize> = None;
    let mut gc_lines = 0usize;
    // GC id of a unified `To-space exhausted` line, whose pause summary follows.
    let mut to_space_gc: Option<u64> = None;
    let mut histos = Histos::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if let Some(d) = unified(line) {
            if !d.tags.is_none_or(|t| t.starts_with("gc")) {
                continue;
            }
            gc_lines += 1;
            format.get_or_insert(GcLogFormat::Unified);
            if histos.unified(n, &d, &mut issues) {
                continue;
            }
            unified_line(n, line, d, &mut log, &mut issues, &mut to_space_gc);
            continue;
        }
        if histos.raw(n, line, &mut issues) {
            continue;
        }
        if let Some(p) = pending.as_mut() {
            if jdk8_header(line).is_none() {
                if p.feed(line) {
                    let p = pending.take().unwrap_or_default();
                    finish(p, &mut log, &mut issues, &mut awaiting_heap);
                }
                continue;
            }
            let p = pending.take().unwrap_or_default();
            issues.push(p.line, || {
                format!(
                    "GC event not terminated (expected `, N secs]`): `{}`",
                    excerpt(&p.first)
                )
            });
        }
        if let Some((pre, body)) = jdk8_header(line) {
            gc_lines += 1;
            format.get_or_insert(GcLogFormat::Jdk8);
            awaiting_heap = None;
            let mut p = Pending {
                line: n,
                first: line.to_string(),
                uptime_s: pre.uptime_s,
                timestamp: pre.timestamp.map(str::to_string),
                gc_id: pre.gc_id,
                ..Pending::default()
            };
            if p.feed(body) {
                finish(p, &mut log, &mut issues, &mut awaiting_heap);
            } else {
                pending = Some(p);
            }
            continue;
        }
        if let Some(i) = awaiting_heap {
            if let Some((_, heap)) = line.split_once("Heap: ") {
                if let Some(e) = log.events.get_mut(i) {
                    if let Some((b, a, t)) = transition(heap) {
                        e.heap_before_kib = e.heap_before_kib.or(b);
                        e.heap_after_kib = e.heap_after_kib.or(Some(a));
                        e.heap_total_kib = e.heap_total_kib.or(t);
                    } else {
                        issues.push(n, || {
                            format!("expected `Heap: A(B)->C(D)`, found `{}`", excerpt(line))
                        });
                    }
                }
                awaiting_heap = None;
            }
        }
        if log.collector.is_none() {
            if line.contains("+UseG1GC") {
                log.collector = Some("G1".into());
            } else if line.contains("+UseConcMarkSweepGC") {
                log.collector = Some("CMS/ParNew".into());
            } else if line.contains("+UseParallelGC") || line.contains("+UseParallelOldGC") {
                log.collector = Some("Parallel".into());
            } else if line.contains("+UseSerialGC") {
                log.collector = Some("Serial".into());
            }
        }
    }
    if let Some(p) = pending {
        issues.push(p.line, || {
            format!(
                "GC event not terminated (expected `, N secs]`): `{}`",
                excerpt(&p.first)
            )
        });
    }
    log.format = format.unwrap_or_default();
    log.histograms = histos.finish();
    date_on_request(&mut log);
    if log.events.is_empty()
        && log.allocation_stalls == 0
        && gc_lines == 0
        && log.histograms.is_empty()
    {
        return Err(ParseError::unusable(None, "no GC log lines"));
    }
    if log.collector.is_none() {
        log.collector = infer_collector(&log);
    }
    Ok(Parsed {
        value: log,
        issues: issues.into_vec(),
    })
}

fn infer_collector(log: &GcLog) -> Option<String> {
    let any = |f: &dyn Fn(&GcEvent) -> bool| log.events.iter().any(f);
    if any(&|e| e.kind == GcKind::Mixed || e.cause.as_deref().is_some_and(|c| c.starts_with("G1 ")))
    {
        return Some("G1".into());
    }
    None
}

/// Decorations of a unified-logging line.
#[derive(Debug, Default)]
struct Deco<'a> {
    uptime_s: Option<f64>,
    timestamp: Option<&'a str>,
    tags: Option<&'a str>,
    msg: &'a str,
}

/// Splits the `[..][..]` decorators off a unified-logging line.
fn unified(line: &str) -> Option<Deco<'_>> {
    let mut d = Deco::default();
    let mut rest = line;
    let mut known = false;
    let mut groups = 0;
    while let Some(r) = rest.strip_prefix('[') {
        let (c, after) = r.split_once(']')?;
        let c = c.trim();
        if c.contains('[') || c.len() > 64 {
            return None;
        }
        if matches!(
            c,
            "info" | "debug" | "trace" | "warning" | "error" | "develop"
        ) {
            known = true;
        } else if let Some(u) = uptime(c) {
            d.uptime_s.get_or_insert(u);
            known = true;
        } else if c.len() >= 19 && c.as_bytes().get(4) == Some(&b'-') && c.contains('T') {
            d.timestamp = Some(c);
        } else if !c.is_empty()
            && c.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"+,_".contains(&b))
            && c.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        {
            d.tags = Some(c);
            known = true;
        } else if !c.is_empty() && c.trim_end_matches('t').bytes().all(|b| b.is_ascii_digit()) {
            // pid / tid decorator
        } else {
            return None;
        }
        groups += 1;
        rest = after;
    }
    if groups == 0 || !known {
        return None;
    }
    d.msg = rest.trim();
    Some(d)
}

/// `0.123s`, `233ms`, `123456ns` → seconds.
fn uptime(c: &str) -> Option<f64> {
    let (num, scale) = if let Some(x) = c.strip_suffix("ms") {
        (x, 1e-3)
    } else if let Some(x) = c.strip_suffix("ns") {
        (x, 1e-9)
    } else {
        (c.strip_suffix('s')?, 1.0)
    };
    if num.is_empty()
        || !num
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
    {
        return None;
    }
    Some(parse_num(num)? * scale)
}

fn unified_line(
    n: usize,
    line: &str,
    d: Deco<'_>,
    log: &mut GcLog,
    issues: &mut Issues,
    to_space_gc: &mut Option<u64>,
) {
    let mut msg = d.msg;
    let mut gc_id = None;
    if let Some(r) = msg.strip_prefix("GC(") {
        if let Some((id, after)) = r.split_once(')') {
            gc_id = id.parse::<u64>().ok();
            msg = after.trim();
        }
    }
    if msg.eq_ignore_ascii_case("To-space exhausted") {
        *to_space_gc = gc_id;
        return;
    }
    if msg.starts_with("Allocation Stall") {
        log.allocation_stalls += 1;
        return;
    }
    if gc_id.is_none() {
        if let Some(c) = msg.strip_prefix("Using ") {
            let name = match c.trim() {
                "G1" => Some("G1"),
                "Parallel" => Some("Parallel"),
                "Serial" => Some("Serial"),
                "Shenandoah" => Some("Shenandoah"),
                "Concurrent Mark Sweep" => Some("CMS/ParNew"),
                x if x.contains("Z Garbage Collector") || x == "ZGC" => Some("ZGC"),
                _ => None,
            };
            if let Some(name) = name {
                log.collector = Some(name.into());
            }
            return;
        }
    }
    let (kind, name_len) = if let Some(r) = msg.strip_prefix("Pause ") {
        let k = if r.starts_with("Young") || r.starts_with("Initial Mark") {
            GcKind::Young
        } else if r.starts_with("Mixed") {
            GcKind::Mixed
        } else if r.starts_with("Full") {
            GcKind::Full
        } else if r.starts_with("Remark") {
            GcKind::Remark
        } else if r.starts_with("Cleanup") {
            GcKind::Cleanup
        } else {
            GcKind::Other
        };
        (k, 6)
    } else if msg.starts_with("Garbage Collection") {
        if log.collector.is_none() {
            log.collector = Some("ZGC".into());
        }
        (GcKind::Concurrent, 18)
    } else if [
        "Concurrent Cycle",
        "Concurrent Mark Cycle",
        "Concurrent Undo Cycle",
    ]
    .iter()
    .any(|p| msg.starts_with(p))
    {
        (GcKind::Concurrent, 10)
    } else {
        return;
    };
    let last = msg.rsplit(' ').next().unwrap_or("");
    let dur = duration_ms(last);
    let heap_tok = msg.split_ascii_whitespace().find(|t| t.contains("->"));
    let heap = heap_tok.and_then(transition);
    let dur = match dur {
        Some(Ok(v)) => Some(v),
        Some(Err(())) => {
            issues.push(n, || {
                format!(
                    "expected a duration like `3.456ms`, found `{}`",
                    excerpt(line)
                )
            });
            return;
        }
        None if heap.is_some() => None,
        // A `gc,start` line, or a cycle start.
        None => return,
    };
    // The name and its `(…)` qualifiers end where the heap sizes or the duration begin.
    let end = match heap_tok {
        Some(t) => msg.find(t).unwrap_or(msg.len()),
        None => msg.len() - last.len(),
    };
    let groups = paren_groups(msg.get(name_len..end).unwrap_or(""));
    let mut kind = kind;
    if groups.contains(&"Mixed") && kind == GcKind::Young {
        kind = GcKind::Mixed;
    }
    const QUALIFIERS: [&str; 11] = [
        "Normal",
        "Mixed",
        "Prepare Mixed",
        "Concurrent Start",
        "Initial Mark",
        "unload classes",
        "process weakrefs",
        "update refs",
        "Young",
        "Evacuation Failure",
        "To-space Exhausted",
    ];
    let cause = groups
        .iter()
        .rev()
        .find(|g| !QUALIFIERS.contains(g) && !g.ends_with('%'))
        .map(|g| g.to_string());
    if cause.as_deref().is_some_and(|c| c.starts_with("G1 ")) && log.collector.is_none() {
        log.collector = Some("G1".into());
    }
    if kind == GcKind::Other && log.collector.is_none() {
        if msg.starts_with("Pause Init Mark") || msg.starts_with("Pause Final Mark") {
            log.collector = Some("Shenandoah".into());
        } else if msg.starts_with("Pause Mark Start") || msg.starts_with("Pause Relocate Start") {
            log.collector = Some("ZGC".into());
        }
    }
    let (before, after, total) = match heap {
        Some((b, a, t)) => (b, Some(a), t),
        None => (None, None, None),
    };
    log.events.push(GcEvent {
        line: n,
        uptime_s: d.uptime_s,
        timestamp: d.timestamp.map(str::to_string),
        gc_id,
        kind,
        cause,
        pause_ms: if kind == GcKind::Concurrent {
            None
        } else {
            dur
        },
        heap_before_kib: before,
        heap_after_kib: after,
        heap_total_kib: total,
        to_space_exhausted: groups
            .iter()
            .any(|g| *g == "To-space Exhausted" || *g == "Evacuation Failure")
            || (gc_id.is_some() && gc_id == *to_space_gc),
    });
}

/// `3.456ms` / `0.1s` → `Some(Ok(ms))`; a token shaped like a duration that does not parse →
/// `Some(Err)`; anything else `None`.
fn duration_ms(t: &str) -> Option<Result<f64, ()>> {
    // A pause is finite and not negative: `-5.0ms`, `NaNs`, `1e400s` are corrupt values.
    let valid = |v: f64| {
        if v.is_finite() && v >= 0.0 {
            Ok(v)
        } else {
            Err(())
        }
    };
    if let Some(x) = t.strip_suffix("ms") {
        return Some(parse_num(x).ok_or(()).and_then(valid));
    }
    let (num, scale) = if let Some(x) = t.strip_suffix("us") {
        (x, 1e-3)
    } else if let Some(x) = t.strip_suffix('s') {
        let word = x.trim_start_matches('-');
        if word.eq_ignore_ascii_case("nan") || word.eq_ignore_ascii_case("inf") {
            return Some(Err(()));
        }
        if !x.bytes().last().is_some_and(|b| b.is_ascii_digit()) {
            return None;
        }
        (x, 1000.0)
    } else {
        return None;
    };
    let digits = num.strip_prefix('-').unwrap_or(num);
    if !digits.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(parse_num(num).map(|v| v * scale).ok_or(()).and_then(valid))
}

/// Top-level `(…)` groups of `s`, nested parentheses kept inside (`System.gc()`).
fn paren_groups(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' => {
                if depth == 0 {
                    start = i + 1;
                }
                depth += 1;
            }
            ')' if depth > 0 => {
                depth -= 1;
                if let Some(group) = s.get(start..i).filter(|_| depth == 0) {
                    out.push(group);
                }
            }
            _ => {}
        }
    }
    out
}

/// A size with a unit suffix (`8678K`, `7168.0K`, `0.0B`, `1.5G`) → KiB.
fn size_kib(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mul) = match split_last(s)? {
        (n, 'B') => (n, 1.0 / 1024.0),
        (n, 'K') => (n, 1.0),
        (n, 'M') => (n, 1024.0),
        (n, 'G') => (n, 1024.0 * 1024.0),
        (n, 'T') => (n, 1024.0 * 1024.0 * 1024.0),
        _ => return None,
    };
    let v = parse_num(num.trim_end())?;
    let kib = (v * mul).round();
    // Beyond u64 the cast would saturate: such a size is no size.
    ((0.0..=U64_MAX_F64).contains(&kib)).then_some(kib as u64)
}

/// `A->B(C)`, `A(X)->B(C)` (G1 `Heap:`), `A(84%)->B(56%)` (ZGC) at the start of `s` (the text
/// may continue after the closing parenthesis) → (before, after, total), KiB.
fn transition(s: &str) -> Option<(Option<u64>, u64, Option<u64>)> {
    let (left, right) = s.split_once("->")?;
    let left = left.trim();
    let left = left.rsplit([' ', ':', '[']).next().unwrap_or(left);
    let left = left.split('(').next().unwrap_or(left);
    // Only the token after `->`: keeps the scan of a long line linear.
    let right = right.get(..floor_char_boundary(right, 64)).unwrap_or("");
    let right = right.split([' ', ',', ']']).next().unwrap_or("");
    let (after, total) = match right.split_once('(') {
        Some((after, rest)) => {
            let (total, _) = rest.split_once(')')?;
            (size_kib(after)?, size_kib(total))
        }
        None => (size_kib(right)?, None),
    };
    Some((size_kib(left), after, total))
}

/// The largest char boundary of `s` at or below `i`.
fn floor_char_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Prefixes of a JDK 8 line: `2022-08-01T17:16:33.170+0000: 0.169: #0: `.
#[derive(Debug, Default)]
struct Prefix<'a> {
    timestamp: Option<&'a str>,
    uptime_s: Option<f64>,
    gc_id: Option<u64>,
}

/// Splits a JDK 8 event header line into its prefixes and the text from the `[` on.
fn jdk8_header(line: &str) -> Option<(Prefix<'_>, &str)> {
    let mut p = Prefix::default();
    let mut rest = line;
    let b = rest.as_bytes();
    if b.len() > 19 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-' && b[10] == b'T' {
        let (timestamp, r) = rest.split_once(": ")?;
        p.timestamp = Some(timestamp);
        rest = r;
    }
    if rest.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
        let (uptime, r) = rest.split_once(": ")?;
        p.uptime_s = Some(parse_num(uptime)?);
        rest = r;
    }
    if let Some(r) = rest.strip_prefix('#') {
        let (id, r) = r.split_once(": ")?;
        p.gc_id = Some(id.parse().ok()?);
        rest = r;
    }
    let body = rest.strip_prefix('[')?;
    let ok = [
        "GC (",
        // JDK 6/7 print no cause: `[GC 466904.473: [ParNew: …`.
        "GC [",
        "GC pause",
        "GC remark",
        "GC cleanup",
        "GC concurrent-",
        "Full GC",
    ]
    .iter()
    .any(|k| body.starts_with(k))
        || body
            .strip_prefix("GC ")
            .is_some_and(|r| r.bytes().next().is_some_and(|b| b.is_ascii_digit()))
        || body.starts_with("CMS-concurrent-")
        || body.starts_with("GC--");
    ok.then_some((p, rest))
}

/// A JDK 8 event being read, possibly over several lines.
#[derive(Debug, Default)]
struct Pending {
    line: usize,
    first: String,
    uptime_s: Option<f64>,
    timestamp: Option<String>,
    gc_id: Option<u64>,
    depth: usize,
    /// Text at bracket depth 1 (inside the event, outside nested `[…]`).
    outer: String,
    to_space: bool,
    cmf: bool,
}

impl Pending {
    /// Feeds one line (or the header's text from `[`); true when the event's outer `]` closed.
    fn feed(&mut self, s: &str) -> bool {
        if s.contains("to-space exhausted") || s.contains("to-space overflow") {
            self.to_space = true;
        }
        if s.contains("concurrent mode failure") {
            self.cmf = true;
        }
        for c in s.chars() {
            match c {
                '[' => self.depth += 1,
                ']' if self.depth > 0 => {
                    self.depth -= 1;
                    if self.depth == 0 {
                        return true;
                    }
                }
                _ if self.depth == 1 => self.outer.push(c),
                _ => {}
            }
        }
        if self.depth == 1 {
            self.outer.push(' ');
        }
        false
    }
}

fn finish(p: Pending, log: &mut GcLog, issues: &mut Issues, awaiting: &mut Option<usize>) {
    let o = p.outer.trim_start();
    let concurrent = o.starts_with("CMS-concurrent") || o.starts_with("GC concurrent");
    let (mut kind, cause) = if concurrent {
        (GcKind::Concurrent, None)
    } else if let Some(r) = o.strip_prefix("Full GC") {
        // JDK 6/7 print no cause: `[Full GC 11G->2270M(12G), …]` has only the capacity.
        let cause = paren_groups(r).into_iter().find(|g| size_kib(g).is_none());
        (GcKind::Full, cause.map(str::to_string))
    } else if let Some(r) = o.strip_prefix("GC pause") {
        let g = paren_groups(r.split(',').next().unwrap_or(r));
        let kind = if g.contains(&"mixed") {
            GcKind::Mixed
        } else {
            GcKind::Young
        };
        let cause = g.iter().find(|c| {
            !matches!(
                **c,
                "young" | "mixed" | "initial-mark" | "to-space exhausted" | "to-space overflow"
            ) && size_kib(c).is_none()
        });
        (kind, cause.map(|s| s.to_string()))
    } else if o.starts_with("GC remark") {
        (GcKind::Remark, None)
    } else if o.starts_with("GC cleanup") {
        (GcKind::Cleanup, None)
    } else {
        let r = o
            .strip_prefix("GC--")
            .or_else(|| o.strip_prefix("GC"))
            .unwrap_or(o);
        let cause = paren_groups(r.split(" [").next().unwrap_or(r))
            .into_iter()
            .find(|g| size_kib(g).is_none())
            .map(str::to_string);
        let kind = match cause.as_deref() {
            Some("CMS Final Remark") => GcKind::Remark,
            Some("CMS Initial Mark") => GcKind::Other,
            _ => GcKind::Young,
        };
        (kind, cause)
    };
    if p.cmf {
        kind = GcKind::Full;
    }
    let mut pause = None;
    if !concurrent {
        // The last `N secs` at the outer level.
        let secs = o
            .rsplit_once(" secs")
            .and_then(|(head, _)| parse_num(head.rsplit([' ', ',']).next().unwrap_or(head)));
        match secs {
            Some(s) => pause = Some(s * 1000.0),
            None => {
                issues.push(p.line, || {
                    format!("expected `, N secs]` in GC event `{}`", excerpt(&p.first))
                });
                return;
            }
        }
    }
    let mut heap = None;
    let mut scan = o;
    while let Some((before, after)) = scan.split_once("->") {
        let start = before.rfind([' ', ']', ':']).map_or(0, |i| i + 1);
        if let Some(t) = scan.get(start..).and_then(transition) {
            heap = Some(t);
        }
        scan = after;
    }
    if matches!(kind, GcKind::Young | GcKind::Mixed | GcKind::Full) && log.collector.is_none() {
        log.collector = if p.first.contains("ParNew") || p.first.contains("CMS") {
            Some("CMS/ParNew".into())
        } else if p.first.contains("PSYoungGen") || p.first.contains("ParOldGen") {
            Some("Parallel".into())
        } else if o.starts_with("GC pause") {
            Some("G1".into())
        } else if p.first.contains("DefNew") || p.first.contains("Tenured") {
            Some("Serial".into())
        } else {
            None
        };
    }
    if o.starts_with("GC pause") && heap.is_none() {
        *awaiting = Some(log.events.len());
    } else if kind == GcKind::Full && log.collector.as_deref() == Some("G1") {
        *awaiting = None;
    }
    let (before, after, total) = match heap {
        Some((b, a, t)) => (b, Some(a), t),
        None => (None, None, None),
    };
    log.events.push(GcEvent {
        line: p.line,
        uptime_s: p.uptime_s,
        timestamp: p.timestamp,
        gc_id: p.gc_id,
        kind,
        cause,
        pause_ms: pause,
        heap_before_kib: before,
        heap_after_kib: after,
        heap_total_kib: total,
        to_space_exhausted: p.to_space,
    });
}

/// Dates a histogram taken on request (`jcmd GC.class_histogram`, `-XX:+PrintClassHistogram` on
/// SIGQUIT) by the `Heap Inspection Initiated GC` the JVM runs just before printing it, when that
/// event is the line right above (above jcmd's PID line).
fn date_on_request(log: &mut GcLog) {
    for h in log
        .histograms
        .iter_mut()
        .filter(|h| h.phase.is_none() && h.uptime_s.is_none())
    {
        let Some(above) = h.line.checked_sub(1) else {
            continue;
        };
        if let Some(e) = log
            .events
            .iter()
            .rev()
            .find(|e| e.line == above)
            .filter(|e| e.cause.as_deref() == Some("Heap Inspection Initiated GC"))
        {
            h.uptime_s = e.uptime_s;
            h.timestamp = e.timestamp.clone();
            h.gc_id = h.gc_id.or(e.gc_id);
        }
    }
}

/// The class histograms of a GC log, read as its lines go by.
#[derive(Debug, Default)]
struct Histos {
    /// The histogram being read and what is known of it.
    open: Option<(GcHistogram, Block)>,
    /// A title seen before its histogram's header: JDK 8 `…: 12.345: [Class Histogram (before
    /// full gc):`, JDK 9+ `[gc,classhisto,start] Class Histogram (before full gc)`.
    title: Option<Title>,
    /// jcmd's `PID:` line just read, with its input line.
    pid: Option<(usize, u32)>,
    done: Vec<GcHistogram>,
}

/// A histogram's title: when it was printed and whether before or after a full collection.
#[derive(Debug, Default)]
struct Title {
    phase: Option<HistogramPhase>,
    uptime_s: Option<f64>,
    timestamp: Option<String>,
}

impl Histos {
    /// Reads a unified-logging line; true when it belongs to a histogram (its title, header,
    /// rows, `Total` or the closing `Class Histogram (…) 3.6ms` line).
    fn unified(&mut self, n: usize, d: &Deco<'_>, issues: &mut Issues) -> bool {
        let (gc_id, msg) = split_gc_id(d.msg);
        if let Some(rest) = msg.strip_prefix("Class Histogram") {
            let phase = phase_of(rest);
            if duration_ms(rest.rsplit(' ').next().unwrap_or("")).is_some() {
                // The closing line, after the `Total`: names the phase of the one just read.
                self.close();
                if let Some(h) = self.done.last_mut().filter(|h| h.gc_id == gc_id) {
                    h.phase = h.phase.or(phase);
                }
            } else {
                self.close();
                self.title = Some(Title {
                    phase,
                    uptime_s: d.uptime_s,
                    timestamp: d.timestamp.map(str::to_string),
                });
            }
            return true;
        }
        if self.feed(n, msg, issues) {
            return true;
        }
        if !Block::starts(msg) {
            return false;
        }
        let title = self.title.take().unwrap_or(Title {
            phase: None,
            uptime_s: d.uptime_s,
            timestamp: d.timestamp.map(str::to_string),
        });
        self.open(n, msg, title, gc_id, issues);
        true
    }

    /// Reads a line that is not unified logging; true when it belongs to a histogram (header,
    /// rule, rows, `Total`). A title line is noted and left to the event it sits in.
    fn raw(&mut self, n: usize, line: &str, issues: &mut Issues) -> bool {
        if self.feed(n, line, issues) {
            return true;
        }
        let pid = self.pid.take();
        if Block::starts(line) {
            let title = self.title.take().unwrap_or_default();
            match pid {
                Some((pid_line, pid)) => {
                    let mut block = Block::with_pid(Some(pid));
                    block.feed(n, line, issues);
                    let h = histogram_of(pid_line, title, None);
                    self.open = Some((h, block));
                }
                None => self.open(n, line, title, None, issues),
            }
            return true;
        }
        if let Some((before, after)) = line.split_once("[Class Histogram") {
            let (timestamp, uptime_s) = trailing_stamps(before);
            self.title = Some(Title {
                phase: phase_of(after).or_else(|| {
                    // JDK 6/7: `Class Histogram: ` before, `Class Histogram` after.
                    Some(if after.trim_start().starts_with(':') {
                        HistogramPhase::BeforeFullGc
                    } else {
                        HistogramPhase::AfterFullGc
                    })
                }),
                uptime_s,
                timestamp: timestamp.map(str::to_string),
            });
        } else if let Some(pid) = Block::pid(line) {
            self.pid = Some((n, pid));
        }
        false
    }

    /// Feeds the open histogram; true when `text` belonged to it.
    fn feed(&mut self, n: usize, text: &str, issues: &mut Issues) -> bool {
        let Some((_, block)) = self.open.as_mut() else {
            return false;
        };
        match block.feed(n, text, issues) {
            Fed::Taken => true,
            Fed::Complete => {
                self.close();
                true
            }
            Fed::Foreign => {
                self.close();
                false
            }
        }
    }

    fn open(
        &mut self,
        n: usize,
        header: &str,
        title: Title,
        gc_id: Option<u64>,
        issues: &mut Issues,
    ) {
        let mut block = Block::default();
        block.feed(n, header, issues);
        self.open = Some((histogram_of(n, title, gc_id), block));
    }

    fn close(&mut self) {
        if let Some((mut h, block)) = self.open.take() {
            h.histogram = block.finish();
            self.done.push(h);
        }
    }

    fn finish(mut self) -> Vec<GcHistogram> {
        self.close();
        self.done
    }
}

fn histogram_of(line: usize, t: Title, gc_id: Option<u64>) -> GcHistogram {
    GcHistogram {
        line,
        uptime_s: t.uptime_s,
        timestamp: t.timestamp,
        gc_id,
        phase: t.phase,
        histogram: Histogram::default(),
    }
}

/// `GC(12) rest` → (`Some(12)`, `rest`).
fn split_gc_id(msg: &str) -> (Option<u64>, &str) {
    if let Some(r) = msg.strip_prefix("GC(") {
        if let Some((id, after)) = r.split_once(')') {
            if let Ok(id) = id.parse::<u64>() {
                return (Some(id), after.trim());
            }
        }
    }
    (None, msg)
}

/// ` (before full gc)…` / ` (after full gc)…` → the phase.
fn phase_of(rest: &str) -> Option<HistogramPhase> {
    let r = rest.trim_start();
    if r.starts_with("(before full gc)") {
        Some(HistogramPhase::BeforeFullGc)
    } else if r.starts_with("(after full gc)") {
        Some(HistogramPhase::AfterFullGc)
    } else {
        None
    }
}

/// The JDK 8 stamps that end `before` (the text before a `[Class Histogram` title):
/// `…secs]2017-05-03T15:08:41.855-0400: 3086.514: ` → (time stamp, uptime).
fn trailing_stamps(before: &str) -> (Option<&str>, Option<f64>) {
    let Some(s) = before.trim_end().strip_suffix(':') else {
        return (None, None);
    };
    let (head, up) = s.rsplit_once([' ', ']', '[']).unwrap_or(("", s));
    let Some(uptime) = parse_num(up).filter(|_| {
        up.bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
    }) else {
        // No uptime: `…: [Class Histogram` with only a time stamp.
        return (date_stamp(s), None);
    };
    (
        head.trim_end().strip_suffix(':').and_then(date_stamp),
        Some(uptime),
    )
}

/// The `yyyy-mm-ddThh:mm:ss.mmm+zzzz` time stamp that ends `s` (glued to what precedes it, as
/// in `[Full GC2016-10-31T14:09:15.030-0700`).
fn date_stamp(s: &str) -> Option<&str> {
    // Only the characters a time stamp is made of, and at most 40 of them: keeps a long line's
    // scan linear.
    let b = s.as_bytes();
    let tail = b
        .iter()
        .rev()
        .take(40)
        .take_while(|c| c.is_ascii_digit() || b"-+:.T".contains(c))
        .count();
    let from = b.len() - tail;
    let start = (from..b.len()).find(|&i| {
        b.len() - i >= 19
            && b[i..i + 4].iter().all(u8::is_ascii_digit)
            && b[i + 4] == b'-'
            && b[i + 10] == b'T'
    })?;
    s.get(start..)
}
