//! `jmap -heap PID` (JDK 8) and `jhsdb jmap --heap --pid PID` (JDK 9+): the serviceability
//! agent's heap summary (`sun.jvm.hotspot.tools.HeapSummary`, which both commands run), read into
//! the same record as `jcmd GC.heap_info` ([`HeapInfo`]): JDK 8 has no `GC.heap_info`, and JDK 9
//! dropped `jmap -heap`.
//!
//! The text: `Attaching to process ID N, please wait...`, the collector (`Parallel GC with 2
//! thread(s)`, `Garbage-First (G1) GC with …`, `Mark Sweep Compact GC`, `Concurrent Mark-Sweep
//! GC`), `Heap Configuration:` (`MaxHeapSize = 268435456 (256.0MB)`, `MaxMetaspaceSize =
//! 17592186044415 MB` when unlimited), then `Heap Usage:` with one block per space: a header
//! (`PS Young Generation`, `Eden Space:`, `PS Old Generation`, `G1 Heap:`, `New Generation (Eden +
//! 1 Survivor Space):`, `tenured generation:`) and `capacity = BYTES (…MB)`, `used = BYTES`,
//! `free`, `N% used`. Sizes are bytes; the record holds KiB. The heap's parts are kept as
//! `GC.heap_info` names them: G1's whole heap; Parallel's young generation (eden and the
//! `From` survivor, as `PSYoungGen total` counts it) and old; Serial's and CMS's new generation
//! and their old one. The summary prints no metaspace usage.
//!
//! Seen from OpenJDK 17.0.15 (`jhsdb`) with G1, Parallel and Serial; JDK 8's `jmap -heap` prints
//! the same blocks (the same tool), with `JVM version is 25.x`.
//!
//! Sample (OpenJDK 17.0.15, `-XX:+UseParallelGC -Xmx256m`, cut):
//! ```text
//! Attaching to process ID 25607, please wait...
//! Parallel GC with 2 thread(s)
//! Heap Configuration:
//!    MaxHeapSize              = 268435456 (256.0MB)
//!    MaxMetaspaceSize         = 17592186044415 MB
//! Heap Usage:
//! PS Old Generation
//!    capacity = 179306496 (171.0MB)
//!    used     = 52437792 (50.008575439453125MB)
//! ```

use super::heap_info::{HeapInfo, HeapSpace};
use crate::common::{excerpt, head_lines, numbered_lines, strip_bom, Issues};
use crate::common::{ParseError, Parsed, Sniff};

/// One `Heap Usage:` block: header, capacity and used (bytes), header line.
#[derive(Debug, Default)]
struct Block {
    header: String,
    capacity: Option<u64>,
    used: Option<u64>,
    line: usize,
}

/// `= 268435456 (256.0MB)` → 268435456.
fn bytes_after_eq(v: &str) -> Option<u64> {
    v.split_whitespace().next()?.parse().ok()
}

fn collector(line: &str) -> Option<&'static str> {
    let t = line.trim();
    if !t.contains(" GC") && !t.starts_with("Mark Sweep Compact") {
        return None;
    }
    Some(if t.starts_with("Garbage-First") {
        "G1"
    } else if t.starts_with("Parallel GC") {
        "Parallel"
    } else if t.starts_with("Mark Sweep Compact") {
        "Serial"
    } else if t.starts_with("Concurrent Mark-Sweep") {
        "CMS"
    } else if t.starts_with("Shenandoah") {
        "Shenandoah"
    } else if t.starts_with("ZGC") {
        "ZGC"
    } else {
        return None;
    })
}

/// A heap summary of the serviceability agent?
///
/// `Yes` on `Attaching to process ID N, please wait...` followed, within the head, by `Heap
/// Configuration:` (`jmap -heap`, `jhsdb jmap --heap`; the
/// other SA tools, `jinfo` and `jstack -F`, print `Java System Properties:` or threads, never a
/// `Heap Configuration:`); `Unsure` when the head is cut inside those lines.
pub fn sniff(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    let Some((first, complete)) = lines.next() else {
        return Sniff::No;
    };
    let attaching = first.starts_with("Attaching to process ID ")
        && first.trim_end().ends_with("please wait...");
    if !attaching {
        return if !complete && "Attaching to process ID ".starts_with(first) {
            Sniff::Unsure
        } else {
            Sniff::No
        };
    }
    for (l, complete) in lines {
        if !complete {
            return Sniff::Unsure;
        }
        if l.trim() == "Heap Configuration:" {
            return Sniff::Yes;
        }
        if l.starts_with("Java System Properties:") || l.starts_with("Non-default VM flags:") {
            return Sniff::No;
        }
    }
    // The configuration follows the attach within a dozen lines: another SA tool's output
    // (`jstack -F`: `Deadlock Detection:` and threads) never prints it.
    Sniff::No
}

/// Parses `jmap -heap` / `jhsdb jmap --heap` output into a [`HeapInfo`].
///
/// Errors: [`ParseError::Unusable`] when no `Heap Usage:` block with a capacity is found (an
/// attach that failed prints its exception instead). A block whose `capacity` or `used` line
/// holds no number is an issue at that line.
pub fn parse(text: &str) -> Result<Parsed<HeapInfo>, ParseError> {
    let mut out = HeapInfo::default();
    let mut issues = Issues::default();
    let mut blocks: Vec<Block> = Vec::new();
    let mut usage = false;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(rest) = t.strip_prefix("Attaching to process ID ") {
            out.pid = rest.split(',').next().and_then(|p| p.trim().parse().ok());
            continue;
        }
        if !usage {
            if let Some(gc) = collector(t) {
                out.collector.get_or_insert_with(|| gc.to_string());
            } else if let Some((k, v)) = t.split_once('=') {
                match k.trim() {
                    "MaxHeapSize" => out.max_heap_kib = bytes_after_eq(v).map(|b| b / 1024),
                    "MaxMetaspaceSize" => {
                        // `17592186044415 MB` (2^64 - 1 bytes): unlimited.
                        let v = v.trim();
                        if !v.ends_with(" MB") {
                            out.max_metaspace_kib = bytes_after_eq(v).map(|b| b / 1024);
                        }
                    }
                    _ => {}
                }
            } else if t == "Heap Usage:" {
                usage = true;
            }
            continue;
        }
        if !line.starts_with(' ') {
            blocks.push(Block {
                header: t.trim_end_matches(':').to_string(),
                line: n,
                ..Block::default()
            });
            continue;
        }
        let Some(b) = blocks.last_mut() else { continue };
        if let Some((k, v)) = t.split_once('=') {
            let slot = match k.trim() {
                "capacity" => &mut b.capacity,
                "used" => &mut b.used,
                _ => continue,
            };
            match bytes_after_eq(v) {
                Some(x) => *slot = Some(x),
                None => issues.push(n, || format!("no byte count: `{}`", excerpt(line))),
            }
        }
    }
    let find = |h: &str| blocks.iter().find(|b| b.header == h);
    let space = |name: &str, parts: &[&Block]| HeapSpace {
        name: name.to_string(),
        committed_kib: parts
            .iter()
            .map(|b| b.capacity)
            .sum::<Option<u64>>()
            .map(|b| b / 1024),
        used_kib: parts
            .iter()
            .map(|b| b.used)
            .sum::<Option<u64>>()
            .map(|b| b / 1024),
        max_kib: None,
        line: parts.first().map_or(0, |b| b.line),
    };
    if let Some(g1) = find("G1 Heap") {
        out.spaces.push(space("garbage-first heap", &[g1]));
    } else if let Some(young) = find("PS Young Generation") {
        let parts: Vec<&Block> = ["Eden Space", "From Space"]
            .iter()
            .filter_map(|h| find(h))
            .collect();
        let mut s = space("PSYoungGen", &parts);
        s.line = young.line;
        out.spaces.push(s);
        if let Some(old) = find("PS Old Generation") {
            out.spaces.push(space("ParOldGen", &[old]));
        }
    } else if let Some(new) = find("New Generation (Eden + 1 Survivor Space)") {
        let cms = out.collector.as_deref() == Some("CMS");
        out.spaces.push(space(
            if cms {
                "par new generation"
            } else {
                "def new generation"
            },
            &[new],
        ));
        for (h, name) in [
            ("tenured generation", "tenured generation"),
            (
                "concurrent mark-sweep generation",
                "concurrent mark-sweep generation",
            ),
        ] {
            if let Some(old) = find(h) {
                out.spaces.push(space(name, &[old]));
            }
        }
    }
    if out.spaces.iter().all(|s| s.committed_kib.is_none()) {
        return Err(ParseError::unusable(
            None,
            "no `Heap Usage:` block with a capacity (`G1 Heap:`, `PS Young Generation`, `New Generation …`)",
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

    const PAR: &str =
        include_str!("../../tests/fixtures/jmap-heap/jhsdb-jmap-heap-jdk17-parallel.txt");
    const G1: &str = include_str!("../../tests/fixtures/jmap-heap/jhsdb-jmap-heap-jdk17-g1.txt");
    const SER: &str =
        include_str!("../../tests/fixtures/jmap-heap/jhsdb-jmap-heap-jdk17-serial.txt");

    fn clean(t: &str) -> HeapInfo {
        let p = parse(t).expect("parses");
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        p.value
    }

    #[test]
    fn parallel_young_counts_eden_and_one_survivor() {
        let h = clean(PAR);
        assert_eq!(h.pid, Some(25607));
        assert_eq!(h.collector.as_deref(), Some("Parallel"));
        assert_eq!(h.max_heap_kib, Some(262_144));
        assert_eq!(h.max_metaspace_kib, None);
        assert_eq!(
            h.spaces[0].committed_kib,
            Some((67_108_864 + 11_010_048) / 1024)
        );
        assert_eq!(h.spaces[1].name, "ParOldGen");
        assert_eq!(h.spaces[1].committed_kib, Some(179_306_496 / 1024));
        assert_eq!(h.spaces[1].used_kib, Some(52_437_792 / 1024));
        assert_eq!(h.spaces[1].line, 39);
        assert!(h.metaspace.is_none());
    }

    #[test]
    fn g1_and_serial() {
        let g = clean(G1);
        assert_eq!(g.collector.as_deref(), Some("G1"));
        assert_eq!(g.spaces.len(), 1);
        assert_eq!(g.committed_kib(), Some(262_144));
        assert_eq!(g.used_kib(), Some(135_295_024 / 1024));
        let s = clean(SER);
        assert_eq!(s.collector.as_deref(), Some("Serial"));
        assert_eq!(s.spaces[0].name, "def new generation");
        assert_eq!(s.spaces[1].committed_kib, Some(178_978_816 / 1024));
    }

    #[test]
    fn sniffs_its_outputs_only() {
        for t in [PAR, G1, SER] {
            assert_eq!(sniff(t), Sniff::Yes);
        }
        assert_eq!(
            sniff("Attaching to process ID 28, please wait...\nDebugger attached successfully.\nServer compiler detected.\nJVM version is 25.91-b14\nNon-default VM flags: -XX:+UseG1GC\n"),
            Sniff::No
        );
        assert_eq!(sniff("Attaching to pro"), Sniff::Unsure);
        assert!(
            parse("Attaching to process ID 1, please wait...\nError attaching to process\n")
                .is_err()
        );
    }
}
