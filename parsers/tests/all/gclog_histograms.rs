//! Class histograms printed into GC logs: JDK 6–8 `-XX:+PrintClassHistogramBeforeFullGC` /
//! `AfterFullGC` blocks (garbagecat test data, `fixtures/gc-logs-classhisto/`), JDK 17 and 25
//! `-Xlog:gc+classhisto=trace` blocks, a `jcmd GC.class_histogram` appended to a log and a
//! `-XX:+PrintClassHistogram` SIGQUIT histogram in a console log (captured on the development
//! machine, `fixtures/captured-gc/classhisto/`). Each histogram is read by the histogram module
//! with the log's line numbers; the GC events around it are read as without it.

use crate::common::{assert_close, fixture, fixture_path, head, XorShift, SNIFF_HEAD_BYTES};
use parsers::jvm::gclog::{self, GcHistogram, GcKind, GcLog, HistogramPhase};
use parsers::jvm::histogram::{ClassRow, HistogramTotal};
use parsers::kind::{self, Sniffed};
use parsers::Sniff;

const JDK8_G1: &str = "gc-logs-classhisto/garbagecat__dataset221-jdk8-g1-before-after-full-gc.txt";
const JDK8_GLUED: &str =
    "gc-logs-classhisto/garbagecat__dataset93-jdk8-g1-before-after-full-gc-glued.txt";
const JDK6_CMS: &str = "gc-logs-classhisto/garbagecat__dataset81-jdk6-cms-before-after.txt";
const JDK6_CMF: &str =
    "gc-logs-classhisto/garbagecat__dataset122-jdk6-cms-parnew-concurrent-mode-failure.txt";
const JDK17_G1: &str = "captured-gc/classhisto/jdk17-unified-g1-gc-classhisto-trace.log";
const JDK25_PAR: &str = "captured-gc/classhisto/jdk25-unified-parallel-classhisto-decorated.log";
const JDK17_JCMD: &str = "captured-gc/classhisto/jdk17-unified-serial-jcmd-histogram-appended.log";
const JDK17_SIGQUIT: &str =
    "captured-gc/classhisto/jdk17-stdout-xlog-gc-printclasshistogram-sigquit.log";

const ALL: [&str; 8] = [
    JDK8_G1,
    JDK8_GLUED,
    JDK6_CMS,
    JDK6_CMF,
    JDK17_G1,
    JDK25_PAR,
    JDK17_JCMD,
    JDK17_SIGQUIT,
];

fn parse_clean(rel: &str) -> GcLog {
    let p = gclog::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(p.issues.is_empty(), "{rel}: {:?}", p.issues);
    p.value
}

fn row(line: usize, rank: u64, instances: u64, bytes: u64, class: &str) -> ClassRow {
    ClassRow {
        line,
        rank,
        instances,
        bytes,
        class_name: class.to_string(),
        module: None,
    }
}

fn total(instances: u64, bytes: u64, line: usize) -> Option<HistogramTotal> {
    Some(HistogramTotal {
        instances,
        bytes,
        line,
    })
}

#[track_caller]
fn stamps(
    h: &GcHistogram,
    line: usize,
    uptime: f64,
    ts: Option<&str>,
    phase: Option<HistogramPhase>,
) {
    assert_eq!(h.line, line);
    assert_close(h.uptime_s, uptime);
    assert_eq!(h.timestamp.as_deref(), ts);
    assert_eq!(h.phase, phase);
}

#[test]
fn jdk8_g1_before_and_after_full_gc_blocks_and_the_full_gc_around_them() {
    let g = parse_clean(JDK8_G1);
    // The histogram rows (`[C`, `[Ljava.lang.Object;`) do not unbalance the event's brackets.
    assert_eq!(g.events.len(), 1);
    let e = &g.events[0];
    assert_eq!((e.line, e.kind), (1, GcKind::Full));
    assert_eq!(e.cause.as_deref(), Some("Heap Dump Initiated GC"));
    assert_close(e.pause_ms, 24572.7654);
    assert_eq!(
        (e.heap_before_kib, e.heap_after_kib, e.heap_total_kib),
        (Some(8185 * 1024), Some(7616 * 1024), Some(31 * 1024 * 1024))
    );
    assert_eq!(g.histograms.len(), 2);
    let (b, a) = (&g.histograms[0], &g.histograms[1]);
    stamps(
        b,
        2,
        69_302.241,
        Some("2021-10-07T10:05:34.135+0100"),
        Some(HistogramPhase::BeforeFullGc),
    );
    stamps(
        a,
        13,
        69_326.814,
        Some("2021-10-07T10:05:58.708+0100"),
        Some(HistogramPhase::AfterFullGc),
    );
    assert_eq!(b.histogram.header_line, Some(2));
    assert!(!b.histogram.has_module_column);
    assert_eq!(b.histogram.rows.len(), 4);
    assert_eq!(
        b.histogram.rows[0],
        row(4, 1, 13_269_691, 2_158_610_984, "[C")
    );
    assert_eq!(
        b.histogram.rows[1],
        row(5, 2, 6_252_568, 579_973_944, "[Ljava.lang.Object;")
    );
    assert_eq!(
        b.histogram.rows[3],
        row(
            7,
            34_129,
            1,
            16,
            "sun.util.resources.LocaleData$LocaleDataResourceBundleControl"
        )
    );
    assert_eq!(b.histogram.total, total(170_072_935, 8_583_124_392, 8));
    // An indented rank (`   32842:`) is a row like the others.
    assert_eq!(
        a.histogram.rows[2],
        row(17, 32_842, 1, 16, "sun.util.resources.LocaleData")
    );
    assert_eq!(a.histogram.total, total(167_906_324, 7_986_275_072, 19));
}

#[test]
fn jdk8_title_glued_to_the_event_name_keeps_its_time_stamp() {
    // `[Full GC2016-10-31T14:09:15.030-0700: 49689.217: [Class Histogram (before full gc):`
    let g = parse_clean(JDK8_GLUED);
    assert_eq!(g.events.len(), 1);
    assert_eq!(g.events[0].kind, GcKind::Full);
    // JDK 7 printed no cause; the `(12G)` capacity is not one.
    assert_eq!(g.events[0].cause, None);
    assert_close(g.events[0].pause_ms, 19_818.562);
    let (b, a) = (&g.histograms[0], &g.histograms[1]);
    stamps(
        b,
        2,
        49_689.217,
        Some("2016-10-31T14:09:15.030-0700"),
        Some(HistogramPhase::BeforeFullGc),
    );
    stamps(
        a,
        13,
        49_709.036,
        Some("2016-10-31T14:09:34.848-0700"),
        Some(HistogramPhase::AfterFullGc),
    );
    assert_eq!(
        b.histogram.rows[0],
        row(4, 1, 98_460_990, 7_018_731_456, "[I")
    );
    assert_eq!(
        b.histogram.rows[3].class_name,
        "com.msh.rules.regimensearch.Rule_regimenSearchRule_39_2ec95dec9745424c94a0c1d64d9c3ceeDefaultConsequenceInvoker"
    );
    assert_eq!(a.histogram.total, total(42_041_911, 3_128_779_880, 19));
}

#[test]
fn jdk6_titles_without_qualifier_are_before_with_colon_and_after_without() {
    // `[Full GC 11662.233: [Class Histogram:` … `secs]11747.379: [Class Histogram`
    let g = parse_clean(JDK6_CMS);
    assert_eq!(g.events.len(), 1);
    assert_eq!(
        (g.events[0].kind, g.events[0].cause.as_deref()),
        (GcKind::Full, None)
    );
    assert_close(g.events[0].pause_ms, 94911.6214);
    assert_eq!(g.events[0].heap_after_kib, Some(635_365));
    let (b, a) = (&g.histograms[0], &g.histograms[1]);
    stamps(b, 2, 11_662.233, None, Some(HistogramPhase::BeforeFullGc));
    stamps(a, 15, 11_747.379, None, Some(HistogramPhase::AfterFullGc));
    assert_eq!(b.histogram.rows.len(), 8);
    // JDK 6 permanent-generation pseudo classes are class names like any other.
    assert_eq!(
        b.histogram.rows[2],
        row(6, 3, 1_213_019, 240_458_680, "<constMethodKlass>")
    );
    assert_eq!(b.histogram.total, total(67_354_575, 4_106_800_472, 12));
    assert_eq!(a.histogram.rows.len(), 9);
    assert_eq!(a.histogram.total, total(16_227_637, 1_059_670_840, 26));
}

#[test]
fn jdk6_parnew_escalating_to_a_full_gc_with_a_concurrent_phase_inside() {
    let g = parse_clean(JDK6_CMF);
    assert_eq!(g.collector.as_deref(), Some("CMS/ParNew"));
    assert_eq!(g.events.len(), 1);
    let e = &g.events[0];
    // `[GC 466904.473: [ParNew: …` (no cause, JDK 6) ending in `(concurrent mode failure)`.
    assert_eq!(
        (e.line, e.kind, e.cause.as_deref()),
        (1, GcKind::Full, None)
    );
    assert_close(e.uptime_s, 466_904.470);
    assert_close(e.pause_ms, 123027.7354);
    assert_eq!(
        (e.heap_after_kib, e.heap_total_kib),
        (Some(1_168_095), Some(7_848_704))
    );
    let (b, a) = (&g.histograms[0], &g.histograms[1]);
    stamps(b, 2, 466_904.473, None, Some(HistogramPhase::BeforeFullGc));
    stamps(a, 11, 467_013.017, None, Some(HistogramPhase::AfterFullGc));
    assert_eq!(
        b.histogram.rows[0],
        row(4, 1, 1_636_785, 5_686_872_712, "[Ljava.lang.Object;")
    );
    assert_eq!(b.histogram.total, total(49_660_719, 8_439_007_040, 7));
    assert_eq!(a.histogram.total, total(24_511_814, 1_645_986_648, 17));
}

#[test]
fn jdk17_unified_classhisto_trace_blocks_take_their_phase_from_the_closing_line() {
    let g = parse_clean(JDK17_G1);
    assert_eq!(g.collector.as_deref(), Some("G1"));
    // The 2 × 190 rows make no event; the pauses are the same as without them.
    assert_eq!(g.events.len(), 3);
    let full: Vec<_> = g.full_gcs().collect();
    assert_eq!(full.len(), 1);
    assert_eq!((full[0].line, full[0].gc_id), (454, Some(2)));
    assert_close(full[0].pause_ms, 22.645);
    assert_eq!(g.histograms.len(), 2);
    let (b, a) = (&g.histograms[0], &g.histograms[1]);
    stamps(b, 51, 0.116, None, Some(HistogramPhase::BeforeFullGc));
    stamps(a, 260, 0.133, None, Some(HistogramPhase::AfterFullGc));
    assert_eq!((b.gc_id, a.gc_id), (Some(2), Some(2)));
    assert!(b.histogram.has_module_column);
    assert_eq!((b.histogram.rows.len(), a.histogram.rows.len()), (190, 190));
    let first = &b.histogram.rows[0];
    assert_eq!(
        (
            first.line,
            first.rank,
            first.instances,
            first.bytes,
            first.class_name.as_str()
        ),
        (53, 1, 122_181, 7_691_232, "[B")
    );
    assert_eq!(first.module.as_deref(), Some("java.base@17.0.15"));
    assert_eq!(b.histogram.total, total(253_609, 14_027_200, 243));
    assert_eq!(a.histogram.total, total(123_493, 6_753_272, 452));
    let last = a.histogram.rows.last().unwrap();
    assert_eq!(
        (last.line, last.class_name.as_str()),
        (451, "sun.net.www.protocol.jar.Handler")
    );
}

#[test]
fn jdk25_start_line_names_the_phase_and_the_time_stamp_decorator_is_kept() {
    let g = parse_clean(JDK25_PAR);
    assert_eq!(g.collector.as_deref(), Some("Parallel"));
    assert_eq!(g.events.len(), 2);
    let (b, a) = (&g.histograms[0], &g.histograms[1]);
    // `[…][0.085s][trace][gc,classhisto,start] Class Histogram (before full gc)` on line 31.
    stamps(
        b,
        32,
        0.085,
        Some("2026-12-02T16:23:25.545+0000"),
        Some(HistogramPhase::BeforeFullGc),
    );
    stamps(
        a,
        254,
        0.119,
        Some("2026-12-02T16:23:25.580+0000"),
        Some(HistogramPhase::AfterFullGc),
    );
    assert_eq!((b.histogram.rows.len(), a.histogram.rows.len()), (202, 201));
    assert_eq!(
        b.histogram.rows[0].module.as_deref(),
        Some("java.base@25.0.3")
    );
    assert_eq!(b.histogram.total, total(204_030, 11_133_088, 236));
    assert_eq!(a.histogram.total, total(128_142, 6_962_312, 457));
}

#[test]
fn an_appended_jcmd_histogram_is_dated_by_its_heap_inspection_gc() {
    let g = parse_clean(JDK17_JCMD);
    assert_eq!(g.events.len(), 3);
    assert_eq!(g.histograms.len(), 1);
    let h = &g.histograms[0];
    // Line 4: `[3.427s][info][gc] GC(2) Pause Full (Heap Inspection Initiated GC) …`; line 5: `1897:`.
    stamps(h, 5, 3.427, None, None);
    assert_eq!(h.gc_id, Some(2));
    assert_eq!(h.histogram.pid, Some(1897));
    assert_eq!(h.histogram.header_line, Some(6));
    assert_eq!(h.histogram.rows.len(), 181);
    assert_eq!(h.histogram.rows[1].class_name, "Alloc$Node");
    assert_eq!(h.histogram.rows[1].bytes, 2_000_000);
    assert_eq!(h.histogram.total, total(109_489, 6_154_152, 189));
}

#[test]
fn a_sigquit_histogram_in_a_console_log_beside_a_thread_dump() {
    let g = parse_clean(JDK17_SIGQUIT);
    assert_eq!(g.events.len(), 3);
    assert_eq!(g.histograms.len(), 1);
    let h = &g.histograms[0];
    stamps(h, 84, 3.798, None, None);
    assert_eq!(h.gc_id, Some(2));
    assert_eq!(h.histogram.rows.len(), 181);
    assert_eq!(h.histogram.total, total(109_482, 6_153_512, 267));
}

#[test]
fn a_log_with_histograms_is_a_gc_log_whatever_its_name() {
    for rel in ALL {
        let text = fixture(rel);
        let head = head(&text, SNIFF_HEAD_BYTES);
        assert_eq!(gclog::sniff(head), Sniff::Yes, "{rel}");
        match kind::sniff(&text) {
            Sniffed::Kind(k) => assert_eq!(k.name, "gc-log", "{rel}"),
            other => panic!("{rel}: {other:?}"),
        }
        // Named as a histogram (`histo.log`), its content decides.
        assert_eq!(
            kind::refine(&kind::CLASS_HISTOGRAM, &text).name,
            "gc-log",
            "{rel}"
        );
        assert_eq!(kind::refine(&kind::GC_LOG, &text).name, "gc-log", "{rel}");
    }
    let jcmd = fixture("captured-jvm/jcmd-GC.class_histogram-jdk17-head60.txt");
    assert_eq!(
        kind::refine(&kind::CLASS_HISTOGRAM, &jcmd).name,
        "class-histogram"
    );
    // A histogram alone in a file named like a GC log (`gc-histo.log`) is still read.
    let g = gclog::parse(&jcmd).unwrap().value;
    assert!(g.events.is_empty());
    assert_eq!(g.histograms.len(), 1);
    assert_eq!(g.histograms[0].histogram.pid, Some(24267));
    assert_eq!(g.histograms[0].histogram.rows.len(), 57);
    assert!(fixture_path(JDK17_G1).is_file());
}

#[test]
fn a_cut_row_is_an_issue_and_the_block_and_event_go_on() {
    let text = fixture(JDK8_G1);
    let cut = text.replacen(
        "   2:       6252568      579973944  [Ljava.lang.Object;",
        "   2:       6252",
        1,
    );
    let p = gclog::parse(&cut).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 5);
    assert_eq!(p.value.histograms[0].histogram.rows.len(), 3);
    assert_eq!(
        p.value.histograms[0].histogram.total,
        total(170_072_935, 8_583_124_392, 8)
    );
    assert_close(p.value.events[0].pause_ms, 24572.7654);
    // Cut before its `Total`: the histogram ends with the text, without one.
    let upto: String = text.lines().take(6).map(|l| format!("{l}\n")).collect();
    let p = gclog::parse(&upto).unwrap();
    assert_eq!(p.value.histograms.len(), 1);
    assert_eq!(p.value.histograms[0].histogram.rows.len(), 3);
    assert_eq!(p.value.histograms[0].histogram.total, None);
    assert_eq!(p.issues.len(), 1, "{:?}", p.issues);
    assert!(
        p.issues[0].message.contains("not terminated"),
        "{:?}",
        p.issues
    );
}

#[test]
fn every_prefix_and_mangled_line_of_the_fixtures_parses_without_panic() {
    let mut rng = XorShift(0x6c6f_6768);
    for rel in [JDK8_G1, JDK6_CMS, JDK6_CMF, JDK8_GLUED] {
        let text = fixture(rel);
        for (i, _) in text.char_indices() {
            let _ = gclog::parse(&text[..i]);
        }
        let lines: Vec<&str> = text.lines().collect();
        for _ in 0..200 {
            let mut v = lines.clone();
            let a = rng.below(v.len());
            let b = rng.below(v.len());
            v.swap(a, b);
            let _ = gclog::parse(&v.join("\n"));
        }
    }
    // Hostile titles: a long run of time-stamp characters before `[Class Histogram`, and a
    // histogram header repeated with nothing else (bounded work, linear in the input).
    let stamp = "2024-01-01T00:00:00.000+0000:".repeat(40_000);
    let p = gclog::parse(&format!("1.0: [Full GC {stamp} 2.0: [Class Histogram:\n num #instances #bytes class name\n   1: 1 16 [B\n, 0.1 secs]\n 1K->1K(2K), 0.2 secs]\n")).unwrap();
    assert_eq!(p.value.histograms.len(), 1);
    assert_close(p.value.histograms[0].uptime_s, 2.0);
    let headers = " num #instances #bytes class name\n".repeat(50_000);
    let p = gclog::parse(&headers).unwrap();
    assert_eq!(p.value.histograms.len(), 50_000);
}
