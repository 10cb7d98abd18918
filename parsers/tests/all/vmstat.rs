//! `vmstat` parser against the shared corpus (jc test fixtures, see `fixtures/PROVENANCE.md`)
//! and captures from the development machine (procps-ng 4.0.2).

use crate::common;
use crate::common::{all_fixtures, fixture, fixture_path, head, insert_line, XorShift};
use parsers::common::Date;
use parsers::procs::vmstat::{self, Vmstat};
use parsers::Sniff;
use std::time::{Duration, Instant};

fn parse_clean(rel: &str) -> Vmstat {
    let parsed = vmstat::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

#[test]
fn long_run_with_repeated_headers_and_three_digit_idle() {
    let v = parse_clean("vmstat/jc__vmstat-1-ubuntu1804-37samples.txt");
    assert_eq!(v.samples.len(), 37);
    let s = &v.samples.get(0).unwrap();
    assert_eq!(s.line, 3);
    assert_eq!((s.r, s.b), (Some(0), Some(0)));
    assert_eq!(s.swpd, Some(524));
    assert_eq!(s.free, Some(763_388));
    assert_eq!(s.buff, Some(147_216));
    assert_eq!(s.cache, Some(819_640));
    assert_eq!((s.si, s.so), (Some(0), Some(0)));
    assert_eq!((s.bi, s.bo), (Some(288), Some(108)));
    assert_eq!((s.in_, s.cs), (Some(195), Some(2509)));
    assert_eq!((s.us, s.sy, s.id), (Some(4), Some(3), Some(93)));
    assert_eq!((s.wa, s.st, s.gu), (Some(0), Some(0), None));
    // The 4th sample's idle is 100: one character wider, same columns.
    assert_eq!(v.samples.get(3).unwrap().id, Some(100));
    assert_eq!(v.samples.get(3).unwrap().us, Some(0));
    // Samples after the repeated header (lines 36-37) keep their input lines.
    assert_eq!(v.samples.get(33).unwrap().line, 38);
    assert_eq!(v.samples.get(33).unwrap().r, Some(1));
    assert!(v.timezone.is_none());
}

#[test]
fn active_inactive_wide_with_timestamps() {
    // `vmstat -awt` (procps-ng 3.3.10): inact/active instead of buff/cache, a time zone column.
    let v = parse_clean("vmstat/jc__vmstat-a-w-t-active-wide-timestamp.txt");
    assert_eq!(v.samples.len(), 1);
    assert_eq!(v.timezone.as_deref(), Some("PDT"));
    let s = &v.samples.get(0).unwrap();
    assert_eq!((s.r, s.swpd, s.free), (Some(2), Some(0), Some(2_794_864)));
    assert_eq!((s.inact, s.active), (Some(295_968), Some(312_724)));
    assert_eq!((s.buff, s.cache), (None, None));
    assert_eq!((s.us, s.id), (Some(0), Some(99)));
    let t = s.time.unwrap();
    assert_eq!(
        t.date,
        Some(Date {
            year: 2021,
            month: 9,
            day: 16
        })
    );
    assert_eq!(t.seconds_of_day, 20 * 3600 + 31 * 60 + 30);
}

#[test]
fn single_samples_default_and_extra_wide() {
    let v = parse_clean("vmstat/jc__vmstat-centos7.txt");
    let s = &v.samples.get(0).unwrap();
    assert_eq!((s.r, s.b, s.swpd), (Some(2), Some(0), Some(0)));
    assert_eq!(
        (s.free, s.buff, s.cache),
        (Some(2_794_468), Some(2108), Some(741_208))
    );
    assert_eq!(
        (s.bi, s.bo, s.in_, s.cs),
        (Some(1), Some(3), Some(29), Some(57))
    );
    assert_eq!(
        (s.us, s.sy, s.id, s.wa, s.st),
        (Some(0), Some(0), Some(99), Some(0), Some(0))
    );

    let v = parse_clean("vmstat/jc__vmstat-w-extra-wide.txt");
    let s = &v.samples.get(0).unwrap();
    assert_eq!((s.r, s.b), (Some(0), Some(0)));
    assert_eq!(
        (s.free, s.buff, s.cache),
        (Some(2_430_264), Some(1_011_084), Some(22_658_240))
    );
    assert_eq!((s.bi, s.bo), (Some(4), Some(6)));
    assert_eq!((s.us, s.sy, s.id), (Some(3), Some(1), Some(96)));
}

#[test]
fn captured_procps_4() {
    // procps-ng 4.0.2: `-w` adds the `gu` column; `-t` names the zone UTC.
    let v = parse_clean("captured-a/vmstat-w.txt");
    assert_eq!(v.samples.len(), 3);
    assert_eq!(v.samples.get(1).unwrap().gu, Some(0));
    assert_eq!(v.samples.get(1).unwrap().bi, Some(45_832));
    let v = parse_clean("captured-a/vmstat-t.txt");
    assert_eq!(v.timezone.as_deref(), Some("UTC"));
    assert_eq!(
        v.samples.get(2).unwrap().time.unwrap().seconds_of_day,
        3600 + 48 * 60 + 37
    );
    assert_eq!(v.samples.get(2).unwrap().gu, None, "no gu without -w");
    let v = parse_clean("captured-a/vmstat.txt");
    assert_eq!(v.samples.get(1).unwrap().bo, Some(218_192));
    let v = parse_clean("captured-a/vmstat-a.txt");
    assert_eq!(v.samples.get(0).unwrap().inact, Some(2_102_476));
}

#[test]
fn damaged_inputs() {
    // Garbage in the middle and a line cut short: issues on their lines, the rest kept.
    let text = fixture("vmstat/jc__vmstat-1-ubuntu1804-37samples.txt");
    let text = insert_line(&text, 10, "garbage line");
    let cut = &text[..text.len() - 20];
    let p = vmstat::parse(cut).unwrap();
    assert_eq!(p.value.samples.len(), 36);
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, [10, cut.lines().count()]);
    assert!(p.issues[0].message.contains("expected 17 values"));
    // A column this parser does not know goes to `extra`.
    let text = "procs ---memory---\n r  b   swpd   free new\n 1  0      0    100   7\n";
    let p = vmstat::parse(text).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    assert_eq!(p.value.samples.get(0).unwrap().extra.get("new"), Some(&7));
    // Negative or fractional values are not vmstat's.
    let p = vmstat::parse(" r  b   swpd   free\n 1  -1  0  5\n").unwrap();
    assert_eq!(p.issues.len(), 1);
    assert!(vmstat::parse("1 2 3\n").is_err());
}

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    // OSWatcher's vmstat files are vmstat outputs between marker lines: without their path,
    // the vmstat sniffer rightly claims them.
    let own = |rel: &str| {
        rel.starts_with("vmstat/")
            || rel.starts_with("captured-a/vmstat")
            || (rel.starts_with("oswvmstat/") && rel.ends_with(".dat"))
    };
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
            let got = vmstat::sniff(sample);
            if got != want {
                failures.push(format!("{rel} ({} bytes): {got:?}", sample.len()));
            }
        }
    }
    assert_eq!(owned, 4 + 4 + 2);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hostile_inputs_never_panic() {
    for t in ["", "\n", "  \n\t\n", "\u{feff}"] {
        assert!(vmstat::parse(t).is_err());
    }
    let mut rng = XorShift(0x7777_0000_1111_2222);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(vmstat::parse(&text).is_err());
        assert_eq!(vmstat::sniff(&text), Sniff::No);
    }
    let start = Instant::now();
    let cols: String = (0..100_000).map(|i| format!(" c{i}")).collect();
    let vals: String = " 1".repeat(100_000);
    let text = format!(" r b{cols}\n 1 0{vals}\n");
    let p = vmstat::parse(&text).unwrap();
    assert_eq!(p.value.samples.get(0).unwrap().extra.len(), 100_000);
    let p = vmstat::parse(" r b swpd free\n 1000000 99999999999999999999 0 0\n").unwrap();
    assert_eq!(p.issues.len(), 1, "a count beyond u64");
    assert!(start.elapsed() < Duration::from_secs(20));
}
