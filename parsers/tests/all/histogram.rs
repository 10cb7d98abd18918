//! Class histogram parser against the shared corpus (see `fixtures/PROVENANCE.md`) and captures
//! from the development machine (OpenJDK 17.0.15).

use crate::common;
use crate::common::{all_fixtures, fixture, fixture_path, head, insert_line, XorShift};
use parsers::jvm::histogram::{self, ClassRow, Histogram, HistogramTotal};
use parsers::Sniff;
use std::time::{Duration, Instant};

fn parse_clean(rel: &str) -> Histogram {
    let parsed = histogram::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

fn row(
    line: usize,
    rank: u64,
    instances: u64,
    bytes: u64,
    class: &str,
    module: Option<&str>,
) -> ClassRow {
    ClassRow {
        line,
        rank,
        instances,
        bytes,
        class_name: class.to_string(),
        module: module.map(str::to_string),
    }
}

#[test]
fn corpus_jcmd_jdk21_head() {
    let h = parse_clean("jcmd-histogram/jstall__jcmd-GC.class_histogram-jdk21-head.txt");
    assert_eq!(h.pid, Some(1631));
    assert_eq!(h.header_line, Some(2));
    assert!(h.has_module_column);
    assert_eq!(h.rows.len(), 4);
    assert_eq!(
        h.rows[0],
        row(4, 1, 2_438_780, 332_349_064, "[B", Some("java.base@21.0.9"))
    );
    assert_eq!(h.rows[2].class_name, "[Ljdk.internal.vm.FillerElement;");
    assert_eq!(
        h.rows[3],
        row(
            7,
            4,
            2_187_014,
            69_984_448,
            "java.util.Hashtable$Entry",
            Some("java.base@21.0.9")
        )
    );
    assert_eq!(h.total, None);
    assert_eq!(h.share_of_total(&h.rows[0]), None);
    let top: Vec<u64> = h.top_by_bytes(2).iter().map(|r| r.rank).collect();
    assert_eq!(top, [1, 2]);
}

#[test]
fn captured_jmap_histo_live_with_total() {
    let h = parse_clean("captured-jvm/jmap-histo-live-jdk17.txt");
    assert_eq!(h.pid, None);
    assert_eq!(h.header_line, Some(1));
    assert_eq!(h.rows.len(), 330);
    assert_eq!(
        h.rows[0],
        row(3, 1, 50_044, 20_703_800, "[B", Some("java.base@17.0.15"))
    );
    assert_eq!(h.rows[4], row(7, 5, 18_762, 300_192, "Alloc$Node", None));
    assert_eq!(h.rows[1].class_name, "java.util.HashMap$Node");
    let last = h.rows.last().unwrap();
    assert_eq!(last.line, 332);
    assert_eq!(
        last.class_name,
        "sun.util.resources.cldr.provider.CLDRLocaleDataMetaInfo"
    );
    assert_eq!(last.module.as_deref(), Some("jdk.localedata@17.0.15"));
    assert_eq!(
        h.total,
        Some(HistogramTotal {
            instances: 153_184,
            bytes: 23_707_232,
            line: 333
        })
    );
    let share = h.share_of_total(&h.rows[0]).unwrap();
    assert!((share - 20_703_800.0 / 23_707_232.0).abs() < 1e-12);
    let top = h.top_by_bytes(3);
    assert_eq!(top.len(), 3);
    assert_eq!(top[0].class_name, "[B");
    assert!(top[0].bytes >= top[1].bytes && top[1].bytes >= top[2].bytes);
    assert_eq!(h.top_by_bytes(10_000).len(), 330);
}

#[test]
fn captured_heads_jmap_and_jcmd() {
    let h = parse_clean("captured-jvm/jmap-histo-jdk17-head60.txt");
    assert_eq!(h.rows.len(), 58);
    assert_eq!(h.rows[5], row(8, 6, 32_091, 513_456, "Alloc$Node", None));
    assert_eq!(h.rows[52].class_name, "[Ljava.lang.Byte;");
    let h = parse_clean("captured-jvm/jcmd-GC.class_histogram-jdk17-head60.txt");
    assert_eq!(h.pid, Some(24267));
    assert_eq!(h.header_line, Some(2));
    assert_eq!(h.rows.len(), 57);
    assert_eq!(
        h.rows[0],
        row(4, 1, 42_294, 16_444_200, "[B", Some("java.base@17.0.15"))
    );
    assert_eq!(h.rows[4], row(8, 5, 15_013, 240_208, "Alloc$Node", None));
    assert_eq!(h.rows[56].rank, 57);
    assert_eq!(h.rows[56].line, 60);
}

#[test]
fn jdk8_layout_without_module_column() {
    // Derived from the captured histogram: JDK 8 prints no `(module)` header or suffix.
    let text = fixture("captured-jvm/jmap-histo-live-jdk17.txt")
        .replace(" (module)", "")
        .replace(" (java.base@17.0.15)", "")
        .replace(" (jdk.localedata@17.0.15)", "");
    let p = histogram::parse(&text).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let h = p.value;
    assert!(!h.has_module_column);
    assert_eq!(h.rows.len(), 330);
    assert!(h.rows.iter().all(|r| r.module.is_none()));
    assert_eq!(h.rows[0].class_name, "[B");
    assert_eq!(h.total.unwrap().bytes, 23_707_232);
}

#[test]
fn damaged_inputs() {
    let text = fixture("captured-jvm/jmap-histo-live-jdk17.txt");
    let text = insert_line(&text, 5, "garbage line");
    let text = insert_line(&text, 8, "   9:  12 abc  java.lang.Foo");
    // Cut inside the numbers of the last row, losing the Total line.
    let last_row = text.rfind(" 330:").unwrap();
    let cut = &text[..last_row + 12];
    let p = histogram::parse(cut).unwrap();
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, [5, 8, cut.lines().count()]);
    assert!(p.issues[1].message.contains("byte count"));
    assert!(p.issues[2].message.contains("#instances"));
    assert_eq!(p.value.total, None);
    assert_eq!(p.value.rows.len(), 329);
    assert_eq!(p.value.rows[3].line, 7);
    assert_eq!(p.value.rows[4].line, 9);
    let p = histogram::parse("Total 1\n 1: 2 3 [B\n").unwrap();
    assert_eq!(p.issues[0].line, 1);
    assert_eq!(p.value.rows[0].line, 2);
    assert!(histogram::parse("").is_err());
    assert!(histogram::parse("hello\nworld\n").is_err());
}

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    let own = |rel: &str| {
        rel.starts_with("jcmd-histogram/")
            || rel.starts_with("captured-jvm/jmap-histo")
            || rel.starts_with("captured-jvm/jcmd-GC.class_histogram")
    };
    let mut owned = 0;
    let mut failures = Vec::new();
    for rel in all_fixtures() {
        // GC logs holding histogram blocks: the kind table's order makes them GC logs
        // (`gclog::a_gc_log_with_histograms_is_a_gc_log_whatever_its_name`).
        if rel.starts_with("gc-logs-classhisto/") || rel.starts_with("captured-gc/classhisto/") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(fixture_path(&rel)) else {
            continue;
        };
        let want = if own(&rel) {
            owned += 1;
            Sniff::Yes
        } else {
            Sniff::No
        };
        for sample in [head(&text, common::SNIFF_HEAD_BYTES), text.as_str()] {
            let got = histogram::sniff(sample);
            if got != want {
                failures.push(format!("{rel} ({} bytes): {got:?}", sample.len()));
            }
        }
    }
    assert_eq!(owned, 1 + 3);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hostile_inputs_never_panic() {
    for t in ["", "\n", "  \n\t\n", "\u{feff}"] {
        assert!(histogram::parse(t).is_err());
    }
    let mut rng = XorShift(0x2468_1357_5555_aaaa);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(histogram::parse(&text).is_err());
        assert_eq!(histogram::sniff(&text), Sniff::No);
    }
    let base = fixture("captured-jvm/jcmd-GC.class_histogram-jdk17-head60.txt").into_bytes();
    for _ in 0..200 {
        let mut b = base.clone();
        for _ in 0..4 {
            let i = rng.below(b.len());
            b[i] = rng.next_u64() as u8;
        }
        let _ = histogram::parse(&String::from_utf8_lossy(&b));
    }
    let p =
        histogram::parse(" 1: 1 99999999999999999999999 [B\n 2: 1 1 ( (\n 3: 1 1 é (x)\n").unwrap();
    assert_eq!(p.issues.len(), 1, "a byte count beyond u64");
    assert_eq!(p.value.rows[1].class_name, "é");
    let start = Instant::now();
    let text: String = (1..200_000)
        .map(|i| format!("{i:>6}: {i:>10} {:>12}  java.lang.C{i} (m@1)\n", i * 16))
        .collect();
    let p = histogram::parse(&text).unwrap();
    assert_eq!(p.value.rows.len(), 199_999);
    assert!(start.elapsed() < Duration::from_secs(20));
}
