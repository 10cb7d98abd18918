//! `/proc/vmstat` parser against the shared corpus (see `fixtures/PROVENANCE.md`) and two
//! snapshots captured one second apart.

use crate::common;
use crate::common::{all_fixtures, fixture, fixture_path, head, insert_line, XorShift};
use parsers::proc::{self, vmstat::ProcVmstat};
use parsers::Sniff;

fn parse_clean(rel: &str) -> ProcVmstat {
    let parsed = proc::vmstat::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

#[test]
fn jc_counters() {
    let v = parse_clean("proc-vmstat/jc__jc-proc-vmstat.txt");
    assert_eq!(v.counters.len(), 147);
    assert_eq!(v.get("nr_free_pages"), Some(615_337));
    assert_eq!(v.get("nr_zone_inactive_anon"), Some(39));
    assert_eq!(v.get("nr_zone_active_anon"), Some(34_838));
    assert_eq!(v.counters[2].line, 3);
}

#[test]
fn node_exporter_counters() {
    let v = parse_clean("proc-vmstat/node_exporter__proc-vmstat.txt");
    assert_eq!(v.counters.len(), 120);
    assert_eq!(v.get("pgfault"), Some(2_320_168_809));
    assert_eq!(v.get("pgmajfault"), Some(507_162));
    assert_eq!(v.get("pswpin"), Some(1476));
    assert_eq!(v.get("oom_kill"), Some(0));
    assert_eq!(v.get("no_such_counter"), None);
}

#[test]
fn captured_delta() {
    let a = parse_clean("captured-a/proc-vmstat-1.txt");
    let b = parse_clean("captured-a/proc-vmstat-2.txt");
    let d = a.delta_to(&b);
    assert_eq!(d.len(), a.counters.len());
    let get = |n: &str| d.iter().find(|(k, _)| k == n).unwrap().1;
    assert_eq!(get("pgmajfault"), 10_977 - 10_960);
    assert_eq!(
        get("nr_free_pages"),
        909_232 - 923_924,
        "a gauge can go down"
    );
}

#[test]
fn damaged_inputs() {
    let text = insert_line(
        &fixture("proc-vmstat/jc__jc-proc-vmstat.txt"),
        4,
        "Garbage Line here",
    );
    let cut = &text[..text.find("nr_zone_active_file").unwrap() + 5];
    let p = proc::vmstat::parse(cut).unwrap();
    assert_eq!(p.value.counters.len(), 4);
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, [4, 6]);
    // An extra column and a negative value are not /proc/vmstat lines.
    let p = proc::vmstat::parse("pgfault 1 2\nnr_dirty -5\npgmajfault 3\n").unwrap();
    assert_eq!(p.value.counters.len(), 1);
    assert_eq!(p.issues.len(), 2);
    // 100 000 counters in one pass.
    let big: String = (0..100_000).map(|i| format!("counter_{i} {i}\n")).collect();
    assert_eq!(
        proc::vmstat::parse(&big).unwrap().value.counters.len(),
        100_000
    );
    let wide = format!("pgfault{}\n", " 1".repeat(100_000));
    assert!(proc::vmstat::parse(&wide).is_err());
}

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    let own =
        |rel: &str| rel.starts_with("proc-vmstat/") || rel.starts_with("captured-a/proc-vmstat");
    let mut owned = 0;
    let mut failures = Vec::new();
    for rel in all_fixtures() {
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
            let got = proc::vmstat::sniff(sample);
            if got != want {
                failures.push(format!("{rel} ({} bytes): {got:?}", sample.len()));
            }
        }
    }
    assert_eq!(owned, 2 + 2);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn random_bytes_are_refused() {
    for t in ["", "\n", "  \n\t\n", "\u{feff}"] {
        assert!(proc::vmstat::parse(t).is_err());
    }
    let mut rng = XorShift(0x1111_2222_3333_4444);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(proc::vmstat::parse(&text).is_err());
        assert_eq!(proc::vmstat::sniff(&text), Sniff::No);
    }
}
