//! `gclog` parser against the shared corpus (see `fixtures/PROVENANCE.md`, values from
//! `INDEX.md`) and unified logs captured on the development machine (OpenJDK 17.0.15).

use crate::common::{assert_close, fixture, fixture_path, head, XorShift, SNIFF_HEAD_BYTES};
use parsers::jvm::gclog::{self, GcKind, GcLog, GcLogFormat};
use parsers::Sniff;
use std::collections::BTreeSet;

fn parse_clean(rel: &str) -> GcLog {
    let parsed = gclog::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

fn count(log: &GcLog, kind: GcKind) -> usize {
    log.events.iter().filter(|e| e.kind == kind).count()
}

fn pauses(log: &GcLog) -> usize {
    log.events.iter().filter(|e| e.pause_ms.is_some()).count()
}

fn gc_ids(log: &GcLog) -> usize {
    log.events
        .iter()
        .filter_map(|e| e.gc_id)
        .collect::<BTreeSet<_>>()
        .len()
}

#[test]
fn jdk8_cms_parnew_printgcid() {
    // INDEX: 18 GC events; event 0 'GC (Allocation Failure); ParNew' pause=0.0106548 s, heap
    // before=8678 KB.
    let v = parse_clean("gc-logs/gcviewer__jdk8-cms-parnew-printgcid.txt");
    assert_eq!(v.format, GcLogFormat::Jdk8);
    assert_eq!(v.collector.as_deref(), Some("CMS/ParNew"));
    assert_eq!(v.events.len(), 18);
    let e = &v.events[0];
    assert_eq!(e.line, 4);
    assert_eq!(e.kind, GcKind::Young);
    assert_eq!(e.cause.as_deref(), Some("Allocation Failure"));
    assert_eq!(e.timestamp.as_deref(), Some("2022-08-01T17:16:33.170+0000"));
    assert_close(e.uptime_s, 0.169);
    assert_eq!(e.gc_id, Some(0));
    assert_close(e.pause_ms, 10.6548);
    assert_eq!(e.heap_before_kib, Some(8678));
    assert_eq!(e.heap_after_kib, Some(8064));
    assert_eq!(e.heap_total_kib, Some(31680));
    assert_eq!(count(&v, GcKind::Young), 8);
    assert_eq!(count(&v, GcKind::Concurrent), 8);
    assert_eq!(count(&v, GcKind::Remark), 1);
    assert_eq!(count(&v, GcKind::Other), 1); // CMS Initial Mark
    assert_eq!(v.full_gcs().count(), 0);
    let remark = v.events.iter().find(|e| e.kind == GcKind::Remark).unwrap();
    assert_eq!(remark.line, 14);
    assert_close(remark.pause_ms, 3.9463);
}

#[test]
fn jdk8_g1_printgcid() {
    // INDEX: 11 GC events; event 0 'GC pause (G1 Evacuation Pause) (young)' pause=0.0087570 s,
    // heap before=7168 KB.
    let v = parse_clean("gc-logs/gcviewer__jdk8-g1-printgcid.txt");
    assert_eq!(v.format, GcLogFormat::Jdk8);
    assert_eq!(v.collector.as_deref(), Some("G1"));
    assert_eq!(v.events.len(), 11);
    let e = &v.events[0];
    assert_eq!((e.line, e.kind, e.gc_id), (4, GcKind::Young, Some(0)));
    assert_eq!(e.cause.as_deref(), Some("G1 Evacuation Pause"));
    assert_close(e.pause_ms, 8.757);
    assert_eq!(e.heap_before_kib, Some(7168));
    assert_eq!(e.heap_after_kib, Some(6665)); // 6664.5K
    assert_eq!(e.heap_total_kib, Some(32768));
    // `Heap: 36352.5K(65536.0K)->36320.5K(128.0M)`
    let e5 = v.events.iter().find(|e| e.gc_id == Some(5)).unwrap();
    assert_eq!(e5.heap_total_kib, Some(131072));
    let cleanup = v.events.iter().find(|e| e.kind == GcKind::Cleanup).unwrap();
    assert_eq!(cleanup.line, 145);
    assert_eq!(cleanup.heap_before_kib, Some(41408));
    assert_eq!(cleanup.heap_total_kib, Some(131072));
    assert_close(cleanup.pause_ms, 1.4223);
    assert_eq!(count(&v, GcKind::Young), 5);
    assert_eq!(count(&v, GcKind::Concurrent), 4);
    assert_eq!(v.full_gcs().count(), 0);
}

#[test]
fn jdk8_parallel_printgcid() {
    // INDEX: 5 GC events, 0 errors.
    let v = parse_clean("gc-logs/gcviewer__jdk8-parallel-printgcid.txt");
    assert_eq!(v.collector.as_deref(), Some("Parallel"));
    assert_eq!(v.events.len(), 5);
    assert_eq!(v.full_gcs().count(), 2);
    let f = v.full_gcs().next().unwrap();
    assert_eq!((f.line, f.gc_id), (6, Some(2)));
    assert_eq!(f.cause.as_deref(), Some("System.gc()"));
    assert_close(f.pause_ms, 649.2397);
    assert_eq!(f.heap_before_kib, Some(98321));
    assert_eq!(f.heap_after_kib, Some(98112));
    assert_eq!(f.heap_total_kib, Some(9306112));
    assert_eq!(v.events[1].kind, GcKind::Young);
    assert_eq!(v.events[1].cause.as_deref(), Some("System.gc()"));
}

#[test]
fn jdk8_cms_details_concurrent_mode_failure() {
    let v = parse_clean("gc-logs/jifa__jdk8-cms-details.txt");
    assert_eq!(v.collector.as_deref(), Some("CMS/ParNew"));
    assert_eq!(v.events.len(), 29);
    let full: Vec<_> = v.full_gcs().collect();
    assert_eq!(full.len(), 2);
    assert_eq!(full[0].cause.as_deref(), Some("Heap Dump Initiated GC"));
    assert_close(full[0].pause_ms, 1027.7002);
    assert_eq!(full[0].heap_before_kib, Some(1537414));
    // The ParNew promotion failing into `(concurrent mode failure)` over two lines.
    assert_eq!(full[1].line, 32);
    assert_close(full[1].uptime_s, 796.991);
    assert_close(full[1].pause_ms, 4616.5192);
    assert_eq!(full[1].heap_before_kib, Some(3956586));
    assert_eq!(full[1].heap_after_kib, Some(1051300));
    assert_eq!(full[1].heap_total_kib, Some(4019584));
    // Reference-processing timings inline in the ParNew line.
    let last = v.events.last().unwrap();
    assert_eq!((last.line, last.kind), (34, GcKind::Young));
    assert_close(last.pause_ms, 10.5137);
    assert_eq!(last.heap_after_kib, Some(11354));
    assert_eq!(count(&v, GcKind::Remark), 2);
}

#[test]
fn jdk8_g1_details_refproc() {
    // INDEX: 4 GC events (young, concurrent cycle, full, mixed); first young GC duration
    // 56.3085 ms cause 'G1 Evacuation Pause'; heap before 184 MB / after 19.3 MB (3800 MB).
    let v = parse_clean("gc-logs/jifa__jdk8-g1-details-refproc.txt");
    assert_eq!(v.collector.as_deref(), Some("G1"));
    let e = &v.events[0];
    assert_eq!((e.line, e.kind), (1, GcKind::Young));
    assert_close(e.uptime_s, 3.96);
    assert_eq!(e.cause.as_deref(), Some("G1 Evacuation Pause"));
    assert_close(e.pause_ms, 56.3085);
    assert_eq!(e.heap_before_kib, Some(184 * 1024));
    assert_eq!(e.heap_after_kib, Some(19763)); // 19.3M
    assert_eq!(e.heap_total_kib, Some(3800 * 1024));
    let cycles = v
        .events
        .iter()
        .filter(|e| e.kind == GcKind::Concurrent && e.line == 28)
        .count();
    let collections = count(&v, GcKind::Young) + count(&v, GcKind::Mixed) + count(&v, GcKind::Full);
    assert_eq!(cycles + collections, 4);
    let full = v.full_gcs().next().unwrap();
    assert_eq!(full.line, 39);
    assert_eq!(full.cause.as_deref(), Some("Metadata GC Threshold"));
    assert_close(full.pause_ms, 1924.2692);
    assert_eq!(full.heap_before_kib, Some(7521 * 1024));
    let mixed = v.events.iter().find(|e| e.kind == GcKind::Mixed).unwrap();
    assert_eq!(mixed.line, 42);
    assert!(mixed.to_space_exhausted);
    assert_close(mixed.pause_ms, 26.4971);
    assert_eq!(mixed.heap_before_kib, Some(15 * 1024 * 1024));
    assert_eq!(
        mixed.heap_total_kib,
        Some((19.8f64 * 1024.0 * 1024.0).round() as u64)
    );
    let cleanup = v.events.iter().find(|e| e.kind == GcKind::Cleanup).unwrap();
    assert_eq!(cleanup.heap_before_kib, Some(11 * 1024 * 1024));
    assert_eq!(cleanup.heap_after_kib, Some(9863 * 1024));
}

#[test]
fn unified_jdk11_g1_safepoint() {
    // INDEX: 13 STW GC pauses; 0 full GC; first event young heap before = 14 MB.
    let v = parse_clean("gc-logs/gcviewer__jdk11-unified-g1-gc-all-safepoint.txt");
    assert_eq!(v.format, GcLogFormat::Unified);
    assert_eq!(v.collector.as_deref(), Some("G1"));
    assert_eq!(pauses(&v), 13);
    assert_eq!(v.full_gcs().count(), 0);
    let e = &v.events[0];
    assert_eq!((e.line, e.kind, e.gc_id), (18, GcKind::Young, Some(0)));
    assert_close(e.uptime_s, 0.207);
    assert_eq!(e.heap_before_kib, Some(14 * 1024));
    assert_eq!(e.heap_after_kib, Some(12 * 1024));
    assert_eq!(e.heap_total_kib, Some(128 * 1024));
    assert_close(e.pause_ms, 7.033);
    let cleanup = v.events.iter().find(|e| e.kind == GcKind::Cleanup).unwrap();
    assert_eq!((cleanup.line, cleanup.gc_id), (191, Some(6)));
    assert_eq!(count(&v, GcKind::Concurrent), 1);
}

#[test]
fn unified_jdk17_g1_concurrent_cycle() {
    // INDEX: concurrent cycle `GC(5)` lasting 77.704 ms (a concurrent event: no pause).
    let v = parse_clean("gc-logs/gcviewer__jdk17-unified-g1-concurrent-cycle.txt");
    assert_eq!(v.collector.as_deref(), Some("G1"));
    assert_eq!(v.events.len(), 10);
    let c: Vec<_> = v
        .events
        .iter()
        .filter(|e| e.kind == GcKind::Concurrent)
        .collect();
    assert_eq!(c.len(), 1);
    assert_eq!((c[0].line, c[0].gc_id, c[0].pause_ms), (137, Some(5), None));
    let e = &v.events[0];
    assert_eq!(e.timestamp.as_deref(), Some("2022-01-29T16:34:51.654+0000"));
    assert_close(e.uptime_s, 0.245); // `[245ms]`
    assert_close(e.pause_ms, 9.772);
    let remark = v.events.iter().find(|e| e.kind == GcKind::Remark).unwrap();
    assert_eq!((remark.line, remark.gc_id), (77, Some(5)));
    assert_close(remark.pause_ms, 1.314);
}

#[test]
fn unified_jdk17_g1_jifa() {
    // INDEX: 4 GC events; GC(0) young duration 20.955 ms cause 'G1 Evacuation Pause';
    // heap 51 MB->26 MB (100 MB).
    let v = parse_clean("gc-logs/jifa__jdk17-unified-g1.txt");
    assert_eq!(v.collector.as_deref(), Some("G1"));
    assert_eq!(gc_ids(&v), 4);
    let e = &v.events[0];
    assert_eq!((e.line, e.gc_id, e.kind), (33, Some(0), GcKind::Young));
    assert_eq!(e.cause.as_deref(), Some("G1 Evacuation Pause"));
    assert_close(e.pause_ms, 20.955);
    assert_eq!(e.heap_before_kib, Some(51 * 1024));
    assert_eq!(e.heap_after_kib, Some(26 * 1024));
    assert_eq!(e.heap_total_kib, Some(100 * 1024));
    let full: Vec<_> = v.full_gcs().collect();
    assert_eq!(full.len(), 1);
    assert_eq!(full[0].cause.as_deref(), Some("G1 Compaction Pause"));
    assert_close(full[0].pause_ms, 22.935);
    assert_eq!(count(&v, GcKind::Concurrent), 2); // Mark Cycle, Undo Cycle
}

#[test]
fn unified_zgc_allocation_stall() {
    // INDEX: 0 full GC; GC(25) `Garbage Collection (Allocation Rate)`.
    let v = parse_clean("gc-logs/gcviewer__jdk-unified-zgc-allocation-stall.txt");
    assert_eq!(v.collector.as_deref(), Some("ZGC"));
    assert_eq!(v.allocation_stalls, 7);
    assert_eq!(v.full_gcs().count(), 0);
    assert_eq!(pauses(&v), 3);
    assert_close(Some(v.total_pause_ms()), 0.025);
    let gc = v
        .events
        .iter()
        .find(|e| e.kind == GcKind::Concurrent)
        .unwrap();
    assert_eq!((gc.line, gc.gc_id), (37, Some(25)));
    assert_eq!(gc.cause.as_deref(), Some("Allocation Rate"));
    assert_eq!(gc.heap_before_kib, Some(3334 * 1024));
    assert_eq!(gc.heap_after_kib, Some(2230 * 1024));
    assert_eq!(gc.heap_total_kib, None);
}

#[test]
fn unified_shenandoah() {
    let v = parse_clean("gc-logs/gcviewer__jdk17-unified-shenandoah.txt");
    assert_eq!(v.collector.as_deref(), Some("Shenandoah"));
    assert_eq!(v.events.len(), 4);
    assert_eq!(count(&v, GcKind::Other), 4);
    let e = &v.events[0];
    assert_eq!((e.line, e.gc_id), (35, Some(0)));
    assert_close(e.pause_ms, 1.313);
    assert_close(e.uptime_s, 1.493);
    assert_eq!(e.timestamp.as_deref(), Some("2022-08-17T00:34:05.142+0800"));
    assert_eq!(e.cause, None); // `(unload classes)` is a qualifier
}

#[test]
fn captured_jdk17_g1() {
    let v = parse_clean("captured-gc/jdk17-unified-g1.log");
    assert_eq!(v.collector.as_deref(), Some("G1"));
    assert_eq!(v.events.len(), 55);
    assert_eq!(pauses(&v), 54);
    assert_eq!(v.full_gcs().count(), 0);
    let e = &v.events[0];
    assert_eq!((e.line, e.gc_id), (33, Some(0)));
    assert_close(e.pause_ms, 1.07);
    assert_eq!(
        (e.heap_before_kib, e.heap_after_kib),
        (Some(6144), Some(1024))
    );
    assert_eq!(e.heap_total_kib, Some(65536));
}

#[test]
fn captured_jdk17_parallel() {
    let v = parse_clean("captured-gc/jdk17-unified-parallel.log");
    assert_eq!(v.collector.as_deref(), Some("Parallel"));
    assert_eq!(v.events.len(), 94);
    assert_eq!(count(&v, GcKind::Young), 94);
    let e = &v.events[0];
    assert_eq!((e.line, e.gc_id), (21, Some(0)));
    assert_eq!(e.cause.as_deref(), Some("Allocation Failure"));
    assert_close(e.pause_ms, 1.284);
    assert_eq!(e.heap_before_kib, Some(16 * 1024));
    assert_eq!(e.heap_after_kib, Some(0));
    assert_eq!(e.heap_total_kib, Some(61 * 1024));
}

#[test]
fn captured_jdk17_system_gc() {
    let v = parse_clean("captured-gc/jdk17-unified-g1-systemgc.log");
    assert_eq!(v.collector.as_deref(), Some("G1"));
    assert_eq!(v.events.len(), 58);
    let full: Vec<_> = v.full_gcs().collect();
    assert_eq!(full.len(), 1);
    assert_eq!(full[0].gc_id, Some(55));
    assert_eq!(full[0].cause.as_deref(), Some("System.gc()"));
    assert_close(full[0].pause_ms, 3.811);
    assert_eq!(full[0].heap_before_kib, Some(28 * 1024));
    assert_eq!(full[0].heap_after_kib, Some(16 * 1024));
    assert_eq!(full[0].heap_total_kib, Some(64 * 1024));
}

#[test]
fn decorators_any_order_and_decimal_comma() {
    let text = "[info][gc][2024-01-01T00:00:00.123+0000][1,5s] GC(12) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 3,456ms\n\
                [2,000s][gc,start][info] GC(13) Pause Full (Allocation Failure)\n\
                [gc][2,100s] GC(13) Pause Full (Allocation Failure) 200M->100M(256M) 0,1s\n\
                [gc][2,200s] GC(14) Pause Young (Mixed) (G1 Evacuation Pause) (To-space Exhausted) 1G->900M(1G) 12ms\n";
    let v = gclog::parse(text).unwrap();
    assert!(v.issues.is_empty(), "{:?}", v.issues);
    let v = v.value;
    assert_eq!(v.events.len(), 3);
    let e = &v.events[0];
    assert_eq!(e.gc_id, Some(12));
    assert_close(e.uptime_s, 1.5);
    assert_close(e.pause_ms, 3.456);
    assert_eq!(e.timestamp.as_deref(), Some("2024-01-01T00:00:00.123+0000"));
    assert_eq!(
        (e.heap_before_kib, e.heap_after_kib),
        (Some(24576), Some(4096))
    );
    assert_eq!(e.heap_total_kib, Some(262144));
    assert_eq!(v.events[1].kind, GcKind::Full);
    assert_eq!(v.events[1].line, 3);
    assert_close(v.events[1].pause_ms, 100.0);
    assert_eq!(v.events[2].kind, GcKind::Mixed);
    assert!(v.events[2].to_space_exhausted);
    assert_eq!(v.events[2].heap_total_kib, Some(1024 * 1024));
    assert_close(Some(v.total_pause_ms()), 115.456);
    // Window [1.7, 2.2] s holds 100 + 12 ms of pauses.
    assert_close(v.pause_share(0.5), 0.224);
    assert_eq!(v.pause_share(0.0), None);
}

#[test]
fn to_space_exhausted_unified_forms() {
    // JDK 11-17 print a separate `To-space exhausted` line before the pause summary; JDK 20+
    // an `(Evacuation Failure)` qualifier.
    let text = "[1.0s][info][gc] GC(7) To-space exhausted\n\
                [1.1s][info][gc] GC(7) Pause Young (Normal) (G1 Evacuation Pause) 60M->62M(64M) 9.5ms\n\
                [2.0s][info][gc] GC(8) Pause Young (Normal) (G1 Humongous Allocation) (Evacuation Failure) 60M->62M(64M) 8ms\n\
                [3.0s][info][gc] GC(9) Pause Young (Normal) (G1 Evacuation Pause) 10M->2M(64M) 1ms\n";
    let v = gclog::parse(text).unwrap().value;
    let flags: Vec<bool> = v.events.iter().map(|e| e.to_space_exhausted).collect();
    assert_eq!(flags, [true, true, false]);
    assert_eq!(
        v.events[1].cause.as_deref(),
        Some("G1 Humongous Allocation")
    );
    assert_eq!(v.events[1].line, 3);
    // JDK 7 G1 header without a cause.
    let v = gclog::parse("1.0: [GC pause (young) 10M->2M(64M), 0.0010000 secs]\n")
        .unwrap()
        .value;
    assert_eq!(v.events[0].cause, None);
    assert_close(v.events[0].pause_ms, 1.0);
}

#[test]
fn sniff_own_fixtures_yes_others_no() {
    let root = fixture_path("");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let mut checked = 0;
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let own = name == "gc-logs" || name == "captured-gc" || name == "gc-logs-classhisto";
        for f in std::fs::read_dir(&dir).unwrap() {
            let p = f.unwrap().path();
            if !p.is_file() {
                continue;
            }
            let bytes = std::fs::read(&p).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            let got = gclog::sniff(head(&text, SNIFF_HEAD_BYTES));
            let want = if own { Sniff::Yes } else { Sniff::No };
            assert_eq!(got, want, "{}", p.display());
            checked += 1;
        }
    }
    assert!(checked > 20);
}

#[test]
fn malformed_inputs() {
    assert!(gclog::parse("").is_err());
    assert!(gclog::parse("hello\nworld\n").is_err());
    // Truncated mid-block: the G1 pause never closes before the next event.
    let text = "OpenJDK 64-Bit Server VM (25.342-b07)\n\
                0.163: [GC pause (G1 Evacuation Pause) (young) 0.164: [G1Ergonomics (CSet Construction) start choosing CSet]\n\
                   [Parallel Time: 5.2 ms, GC Workers: 2]\n\
                0.200: [Full GC (Allocation Failure)  7M->6M(32M), 0.0100000 secs]\n\
                0.300: [GC (Allocation Failure) [PSYoungGen: garbage] 1K->\n";
    let p = gclog::parse(text).unwrap();
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, [2, 5]);
    assert_eq!(p.value.events.len(), 1);
    assert_eq!(p.value.events[0].line, 4);
    assert_eq!(p.value.events[0].kind, GcKind::Full);
    // A garbage duration on a unified pause line, and a closed JDK 8 event without `secs`.
    let text = "[0.1s][info][gc] Using G1\n\
                [0.2s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 6M->1M(64M) x.yms\n\
                [0.3s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 6M->1M(64M) 1.5ms\n";
    let p = gclog::parse(text).unwrap();
    assert_eq!(p.issues.iter().map(|i| i.line).collect::<Vec<_>>(), [2]);
    assert_eq!(p.value.events.len(), 1);
    assert_eq!(p.value.events[0].line, 3);
    let p = gclog::parse("1.0: [GC (Allocation Failure) junk]\n").unwrap();
    assert_eq!(p.issues.iter().map(|i| i.line).collect::<Vec<_>>(), [1]);
    // Truncated file: the CMS file cut in the middle of a pause block.
    let full = fixture("gc-logs/jifa__jdk8-cms-details.txt");
    let cut: String = full.lines().take(32).map(|l| format!("{l}\n")).collect();
    let p = gclog::parse(&cut).unwrap();
    assert_eq!(p.issues.iter().map(|i| i.line).collect::<Vec<_>>(), [32]);
}

#[test]
fn random_bytes_no_panic() {
    let mut rng = XorShift(0x9c1a_5700_dead_beef);
    for _ in 0..300 {
        let len = rng.below(600);
        let b: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        let s = String::from_utf8_lossy(&b);
        let _ = gclog::parse(&s);
        let _ = gclog::sniff(&s);
    }
    for rel in [
        "gc-logs/jifa__jdk8-cms-details.txt",
        "gc-logs/gcviewer__jdk8-g1-printgcid.txt",
        "gc-logs/gcviewer__jdk17-unified-shenandoah.txt",
    ] {
        let base = fixture(rel).into_bytes();
        for _ in 0..200 {
            let mut b = base.clone();
            for _ in 0..6 {
                let i = rng.below(b.len());
                b[i] = b"[]()->:#,sKMG0 \n"[rng.below(16)];
            }
            let _ = gclog::parse(&String::from_utf8_lossy(&b));
        }
    }
    // Linear time on long lines and long files.
    let start = std::time::Instant::now();
    let _ = gclog::parse(&format!(
        "0.1: [GC (x) {}, 1 secs]\n",
        "1K->".repeat(100_000)
    ));
    let _ = gclog::parse(&format!(
        "[0.1s][gc] GC(1) Pause Full {} 1ms\n",
        "1K->(".repeat(100_000)
    ));
    let line =
        "[0.1s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 6M->1M(64M) 1.0ms\n";
    let p = gclog::parse(&line.repeat(100_000)).unwrap();
    assert_eq!(p.value.events.len(), 100_000);
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
    let _ = gclog::parse(&"[".repeat(100_000));
    let _ = gclog::parse(&format!("0.1: [GC (x) {}", "[".repeat(100_000)));
}

#[test]
fn negative_nan_and_infinite_pauses_are_issues_not_silence() {
    for bad in ["-5.000ms", "NaNms", "1e400ms"] {
        let t = format!(
            "[0.100s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 3.000ms\n\
             [0.200s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) {bad}\n"
        );
        let p = parsers::jvm::gclog::parse(&t).expect("parses");
        assert!(
            p.issues.iter().any(|i| i.line == 2),
            "{bad}: no issue on line 2: {:?}",
            p.issues
        );
        assert!(p
            .value
            .events
            .iter()
            .all(|e| e.pause_ms.is_none_or(|m| m >= 0.0 && m.is_finite())));
    }
}
