//! `jcmd PID GC.heap_info`: the heap's generations or regions, and metaspace, of a running JVM
//! (JDK 9+; HotSpot prints the same text as the `Heap` block of a GC log at exit).
//!
//! Seen from OpenJDK 17.0.15 with each collector: G1 (`garbage-first heap total …, used …` and a
//! `region size` line), Parallel (`PSYoungGen` and `ParOldGen`, with `eden`/`from`/`to`/`object
//! space` lines), Serial (`def new generation` and `tenured generation`), ZGC (`ZHeap used …,
//! capacity …, max capacity …`) and Shenandoah (`Shenandoah Heap` then `… max, … soft max, …
//! committed, … used`). Every collector ends with `Metaspace used …, committed …, reserved …`
//! and `class space …`; JDK 8–15 print a `capacity` there too, which is read when present.
//!
//! Units: sizes print as `262144K` (KiB), `4M` (MiB) or `1G` (GiB); every field here is KiB.
//!
//! Sample (OpenJDK 17.0.15, `-XX:+UseG1GC -Xmx256m`):
//! ```text
//! 30519:
//!  garbage-first heap   total 262144K, used 1972K [0x00000000f0000000, 0x0000000100000000)
//!   region size 1024K, 1 young (1024K), 0 survivors (0K)
//!  Metaspace       used 262K, committed 448K, reserved 1114112K
//!   class space    used 16K, committed 128K, reserved 1048576K
//! ```

use super::pid_line;
use crate::common::{excerpt, head_lines, numbered_lines, split_last, strip_bom, Issues};
use crate::common::{ParseError, Parsed, Sniff};
use serde::Serialize;

/// One heap part with a total: a generation (`PSYoungGen`, `tenured generation`), the G1 heap,
/// ZGC's `ZHeap` or the Shenandoah heap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeapSpace {
    /// Its name as printed (`garbage-first heap`, `PSYoungGen`, `def new generation`, `ZHeap`,
    /// `Shenandoah Heap`).
    pub name: String,
    /// `total` (committed; ZGC `capacity`, Shenandoah `committed`), KiB.
    pub committed_kib: Option<u64>,
    /// `used`, KiB.
    pub used_kib: Option<u64>,
    /// `max capacity` (ZGC) or `max` (Shenandoah), KiB; the other collectors print none.
    pub max_kib: Option<u64>,
    /// 1-based input line.
    pub line: usize,
}

/// A `Metaspace` or `class space` line, KiB.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct MetaspaceLine {
    /// `used`.
    pub used_kib: Option<u64>,
    /// `capacity` (JDK 8–15 only).
    pub capacity_kib: Option<u64>,
    /// `committed`.
    pub committed_kib: Option<u64>,
    /// `reserved`: address space, not memory.
    pub reserved_kib: Option<u64>,
    /// 1-based input line.
    pub line: usize,
}

/// `jcmd PID GC.heap_info` output.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct HeapInfo {
    /// Target PID from jcmd's first line.
    pub pid: Option<u32>,
    /// Collector, from the heap's first line: `G1`, `Parallel`, `Serial`, `CMS`, `ZGC`,
    /// `Shenandoah`.
    pub collector: Option<String>,
    /// The heap parts with totals, in input order (sub-spaces such as `eden space` are not kept).
    pub spaces: Vec<HeapSpace>,
    /// `Metaspace` line.
    pub metaspace: Option<MetaspaceLine>,
    /// `class space` line (compressed class space, part of metaspace).
    pub class_space: Option<MetaspaceLine>,
    /// `MaxHeapSize`, KiB: printed by the heap summary of `jmap -heap` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_heap_kib: Option<u64>,
    /// `MaxMetaspaceSize`, KiB, when limited: printed by the heap summary of `jmap -heap` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_metaspace_kib: Option<u64>,
}

impl HeapInfo {
    /// Heap committed (sum of the parts' totals), KiB.
    pub fn committed_kib(&self) -> Option<u64> {
        self.spaces
            .iter()
            .map(|s| s.committed_kib)
            .sum::<Option<u64>>()
    }

    /// Heap used (sum of the parts' `used`), KiB.
    pub fn used_kib(&self) -> Option<u64> {
        self.spaces.iter().map(|s| s.used_kib).sum::<Option<u64>>()
    }
}

/// Heap parts that open a collector's block, and the collector.
const HEADS: &[(&str, &str)] = &[
    ("garbage-first heap", "G1"),
    ("PSYoungGen", "Parallel"),
    ("ParOldGen", "Parallel"),
    ("def new generation", "Serial"),
    ("tenured generation", "Serial"),
    ("par new generation", "CMS"),
    ("concurrent mark-sweep generation", "CMS"),
    ("ZHeap", "ZGC"),
    ("Shenandoah Heap", "Shenandoah"),
];

/// `262144K`, `4M`, `1G`, `512B` (with an optional trailing `,`) in KiB.
fn size_kib(s: &str) -> Option<u64> {
    let s = s.trim().trim_end_matches(',');
    let (num, mult) = match split_last(s)? {
        (num, 'K') => (num, 1u64),
        (num, 'M') => (num, 1 << 10),
        (num, 'G') => (num, 1 << 20),
        (num, 'B') => return num.parse::<u64>().ok().map(|b| b / 1024),
        _ => return None,
    };
    num.parse::<u64>().ok()?.checked_mul(mult)
}

/// `used 1972K, committed 448K, max capacity 256M` → pairs of (key, KiB); keys are the words
/// before each size.
fn pairs(text: &str) -> Vec<(String, u64)> {
    let text = text.split(" [").next().unwrap_or(text);
    let mut out = Vec::new();
    let mut words: Vec<&str> = Vec::new();
    for tok in text.split_whitespace() {
        match size_kib(tok) {
            Some(v) if !words.is_empty() => {
                out.push((words.join(" "), v));
                words.clear();
            }
            _ => words.push(tok.trim_end_matches(',')),
        }
    }
    out
}

/// Shenandoah's `256M max, 256M soft max, 256M committed, 2048K used`: size first.
fn pairs_size_first(text: &str) -> Vec<(String, u64)> {
    text.split(',')
        .filter_map(|part| {
            let part = part.trim();
            let (size, key) = part.split_once(' ')?;
            Some((key.trim().to_string(), size_kib(size)?))
        })
        .collect()
}

fn head_of(t: &str) -> Option<(&'static str, &'static str)> {
    HEADS
        .iter()
        .find(|(h, _)| {
            t.strip_prefix(h)
                .is_some_and(|r| r.is_empty() || r.starts_with(' '))
        })
        .copied()
}

fn metaspace(rest: &str, n: usize) -> MetaspaceLine {
    let mut m = MetaspaceLine {
        line: n,
        ..MetaspaceLine::default()
    };
    for (k, v) in pairs(rest) {
        match k.as_str() {
            "used" => m.used_kib = Some(v),
            "capacity" => m.capacity_kib = Some(v),
            "committed" => m.committed_kib = Some(v),
            "reserved" => m.reserved_kib = Some(v),
            _ => {}
        }
    }
    m
}

/// `GC.heap_info` output?
///
/// `Yes` when the first line (after jcmd's `PID:` line) opens a collector's heap block
/// (`garbage-first heap   total …`, `PSYoungGen      total …`, `ZHeap           used …`,
/// `Shenandoah Heap`…). A GC log's `Heap` block at exit follows GC events and is not claimed.
pub fn sniff(head: &str) -> Sniff {
    let mut seen = 0;
    for (l, complete) in head_lines(head) {
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        seen += 1;
        if seen == 1 && pid_line(t).is_some() {
            continue;
        }
        if !complete {
            // Cut short: only a start of a heap line may be one.
            let could = HEADS
                .iter()
                .any(|(h, _)| h.starts_with(t) || t.starts_with(h));
            return if could { Sniff::Unsure } else { Sniff::No };
        }
        return match head_of(t) {
            Some(("Shenandoah Heap", _)) if t == "Shenandoah Heap" => Sniff::Yes,
            Some(_) if !pairs(t).is_empty() => Sniff::Yes,
            _ => Sniff::No,
        };
    }
    Sniff::No
}

/// Parses `jcmd PID GC.heap_info`.
///
/// Errors: [`ParseError::Unusable`] when no heap part and no `Metaspace` line is found. Lines
/// of the known shapes that carry no size are issues; detail lines (`eden space`, `region
/// size`, Shenandoah's `Status`, regions and collection set) are skipped.
pub fn parse(text: &str) -> Result<Parsed<HeapInfo>, ParseError> {
    let mut out = HeapInfo::default();
    let mut issues = Issues::default();
    let mut first = true;
    let mut shenandoah: Option<usize> = None;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if std::mem::take(&mut first) {
            if let Some(p) = pid_line(t) {
                out.pid = Some(p);
                continue;
            }
        }
        if let Some(rest) = t.strip_prefix("Metaspace ") {
            out.metaspace = Some(metaspace(rest, n));
            continue;
        }
        if let Some(rest) = t.strip_prefix("class space ") {
            out.class_space = Some(metaspace(rest, n));
            continue;
        }
        if let Some((name, gc)) = head_of(t) {
            out.collector.get_or_insert_with(|| gc.to_string());
            if name == "Shenandoah Heap" {
                shenandoah = Some(out.spaces.len());
                out.spaces.push(HeapSpace {
                    name: name.to_string(),
                    committed_kib: None,
                    used_kib: None,
                    max_kib: None,
                    line: n,
                });
                continue;
            }
            let p = pairs(t.strip_prefix(name).unwrap_or(t));
            if p.is_empty() {
                issues.push(n, || {
                    format!("heap line without sizes: `{}`", excerpt(line))
                });
                continue;
            }
            let get = |k: &str| p.iter().find(|(key, _)| key == k).map(|(_, v)| *v);
            out.spaces.push(HeapSpace {
                name: name.to_string(),
                committed_kib: get("total").or_else(|| get("capacity")),
                used_kib: get("used"),
                max_kib: get("max capacity"),
                line: n,
            });
            continue;
        }
        if let Some(i) = shenandoah {
            let p = pairs_size_first(t);
            if p.iter().any(|(k, _)| k == "committed") {
                let get = |k: &str| p.iter().find(|(key, _)| key == k).map(|(_, v)| *v);
                if let Some(s) = out.spaces.get_mut(i) {
                    s.committed_kib = get("committed");
                    s.used_kib = get("used");
                    s.max_kib = get("max");
                    s.line = n;
                }
                shenandoah = None;
            }
            continue;
        }
        // Sub-spaces and details: `eden space`, `from space`, `to   space`, `object space`,
        // `the space`, `region size`, Shenandoah's region list and collection set.
    }
    if out.spaces.is_empty() && out.metaspace.is_none() {
        return Err(ParseError::unusable(
            None,
            "no heap line (`garbage-first heap`, `PSYoungGen`, `ZHeap`…) and no `Metaspace` line",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const G1: &str =
        include_str!("../../tests/fixtures/gc-heap-info/jcmd-GC.heap_info-jdk17-g1.txt");
    const PAR: &str =
        include_str!("../../tests/fixtures/gc-heap-info/jcmd-GC.heap_info-jdk17-parallel.txt");
    const SER: &str =
        include_str!("../../tests/fixtures/gc-heap-info/jcmd-GC.heap_info-jdk17-serial.txt");
    const ZGC: &str =
        include_str!("../../tests/fixtures/gc-heap-info/jcmd-GC.heap_info-jdk17-zgc.txt");
    const SHEN: &str =
        include_str!("../../tests/fixtures/gc-heap-info/jcmd-GC.heap_info-jdk17-shenandoah.txt");

    fn clean(t: &str) -> HeapInfo {
        let p = parse(t).expect("parses");
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        p.value
    }

    #[test]
    fn g1() {
        let h = clean(G1);
        assert_eq!(h.pid, Some(30519));
        assert_eq!(h.collector.as_deref(), Some("G1"));
        assert_eq!(h.committed_kib(), Some(262_144));
        assert_eq!(h.used_kib(), Some(1972));
        let m = h.metaspace.expect("metaspace");
        assert_eq!(
            (m.used_kib, m.committed_kib, m.reserved_kib),
            (Some(262), Some(448), Some(1_114_112))
        );
        assert_eq!(m.line, 4);
        assert_eq!(h.class_space.and_then(|c| c.committed_kib), Some(128));
    }

    #[test]
    fn parallel_and_serial_sum_their_generations() {
        let p = clean(PAR);
        assert_eq!(p.collector.as_deref(), Some("Parallel"));
        assert_eq!(p.spaces.len(), 2);
        assert_eq!(p.committed_kib(), Some(76_288 + 175_104));
        assert_eq!(p.used_kib(), Some(7864));
        let s = clean(SER);
        assert_eq!(s.collector.as_deref(), Some("Serial"));
        assert_eq!(s.committed_kib(), Some(78_656 + 174_784));
        assert_eq!(s.metaspace.and_then(|m| m.used_kib), Some(315));
    }

    #[test]
    fn zgc_and_shenandoah_print_megabytes_and_a_maximum() {
        let z = clean(ZGC);
        assert_eq!(z.collector.as_deref(), Some("ZGC"));
        assert_eq!(z.spaces[0].used_kib, Some(4 << 10));
        assert_eq!(z.spaces[0].committed_kib, Some(256 << 10));
        assert_eq!(z.spaces[0].max_kib, Some(256 << 10));
        let s = clean(SHEN);
        assert_eq!(s.collector.as_deref(), Some("Shenandoah"));
        assert_eq!(s.spaces[0].committed_kib, Some(256 << 10));
        assert_eq!(s.spaces[0].used_kib, Some(2048));
        assert_eq!(s.spaces[0].line, 3);
        assert_eq!(s.metaspace.and_then(|m| m.committed_kib), Some(512));
    }

    #[test]
    fn sniffs_its_outputs_only() {
        for t in [G1, PAR, SER, ZGC, SHEN] {
            assert_eq!(sniff(t), Sniff::Yes);
        }
        assert_eq!(
            sniff("Heap\n def new generation   total 1K, used 1K\n"),
            Sniff::No
        );
        assert_eq!(sniff("12:\nGC.heap_info\n"), Sniff::No);
        // A lone number without a newline (a pid file) is no cut heap line.
        assert_eq!(sniff("2"), Sniff::No);
        assert_eq!(sniff("30519:\n garbage-first he"), Sniff::Unsure);
        assert!(parse("nothing here\n").is_err());
    }
}
