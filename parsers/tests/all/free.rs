//! `free` parser against the shared corpus (procps-ng 3.3.10–3.3.16, see
//! `fixtures/PROVENANCE.md`) and captures from the development machine (procps-ng 4.0.2).

use crate::common;
use crate::common::{all_fixtures, fixture, fixture_path, head, insert_line, XorShift};
use parsers::procs::free::{self, Free, FreeUnit};
use parsers::Sniff;

fn parse_clean(rel: &str, unit: FreeUnit) -> Free {
    let parsed =
        free::parse_with_unit(&fixture(rel), unit).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

#[test]
fn free_m_in_mebibytes() {
    let f = parse_clean("free/hotsos__free-m-ubuntu2004.txt", FreeUnit::Mebibytes);
    assert_eq!(f.unit, FreeUnit::Mebibytes);
    let m = f.mem.as_ref().unwrap();
    let mib = |v: Option<f64>| v.map(|k| k / 1024.0);
    assert_eq!(mib(m.total_kib), Some(3931.0));
    assert_eq!(mib(m.used_kib), Some(945.0));
    assert_eq!(mib(m.free_kib), Some(119.0));
    assert_eq!(mib(m.shared_kib), Some(1.0));
    assert_eq!(mib(m.buff_cache_kib), Some(2866.0));
    assert_eq!(mib(m.available_kib), Some(2705.0));
    let s = f.swap.as_ref().unwrap();
    assert_eq!(
        (s.total_kib, s.used_kib, s.free_kib),
        (Some(0.0), Some(0.0), Some(0.0))
    );
    assert_eq!(s.line, 3);
}

#[test]
fn default_kibibytes() {
    let f = free::parse(&fixture("free/jc__free-kib-centos7.txt"))
        .unwrap()
        .value;
    assert_eq!(f.unit, FreeUnit::Kibibytes);
    let m = f.mem.as_ref().unwrap();
    assert_eq!(m.total_kib, Some(3_861_332.0));
    assert_eq!(m.used_kib, Some(222_820.0));
    assert_eq!(m.free_kib, Some(3_364_176.0));
    assert_eq!(m.shared_kib, Some(11_832.0));
    assert_eq!(m.buff_cache_kib, Some(274_336.0));
    assert_eq!(m.available_kib, Some(3_389_588.0));
    let s = f.swap.as_ref().unwrap();
    assert_eq!((s.total_kib, s.used_kib), (Some(2_097_148.0), Some(0.0)));

    let f = parse_clean("free/jc__free-kib-ubuntu1804.txt", FreeUnit::Kibibytes);
    let m = f.mem.as_ref().unwrap();
    assert_eq!(m.total_kib, Some(2_017_300.0));
    assert_eq!(m.used_kib, Some(242_740.0));
    assert_eq!(m.free_kib, Some(478_228.0));
    assert_eq!(m.shared_kib, Some(1196.0));
    assert_eq!(m.buff_cache_kib, Some(1_296_332.0));
    assert_eq!(m.available_kib, Some(1_585_920.0));
    assert_eq!(f.swap.as_ref().unwrap().used_kib, Some(268.0));
}

#[test]
fn captured_units_wide_and_human() {
    let k = parse_clean("captured-a/free.txt", FreeUnit::Kibibytes);
    let m = parse_clean("captured-a/free-m.txt", FreeUnit::Mebibytes);
    let g = parse_clean("captured-a/free-g.txt", FreeUnit::Gibibytes);
    let total = |f: &Free| f.mem.as_ref().unwrap().total_kib.unwrap();
    assert_eq!(total(&k), 24_684_092.0);
    assert_eq!(total(&m), 24_105.0 * 1024.0, "free -m rounds");
    assert_eq!(total(&g), 23.0 * 1024.0 * 1024.0);
    let w = parse_clean("captured-a/free-w.txt", FreeUnit::Kibibytes);
    let wm = w.mem.as_ref().unwrap();
    assert_eq!(
        (wm.buffers_kib, wm.cache_kib, wm.buff_cache_kib),
        (Some(20_844.0), Some(3_436_884.0), None)
    );
    let s = parse_clean("captured-a/free-with-swap.txt", FreeUnit::Kibibytes);
    assert_eq!(s.swap.as_ref().unwrap().total_kib, Some(65_532.0));
    // free -h: one issue per value, the rows kept without numbers.
    let h = free::parse(&fixture("captured-a/free-h.txt")).unwrap();
    assert_eq!(h.issues.len(), 6 + 3);
    assert!(h.issues.iter().all(|i| i.message.contains("free -h")));
    assert_eq!(h.issues[0].line, 2);
    assert_eq!(h.value.mem.as_ref().unwrap().total_kib, None);
}

#[test]
fn procps_3_2_with_buffers_cache_line() {
    // procps ≤ 3.3.9 layout, `free -m` on a CentOS 6 host (kernel 2.6.32-642.el6) as quoted in a
    // public write-up (see PROVENANCE.md, "free -m, CentOS 6").
    let text = "             total       used       free     shared    buffers     cached\n\
Mem:          1877        859       1017          0         70        557\n\
-/+ buffers/cache:        231       1645\n\
Swap:         4031          0       4031\n";
    assert_eq!(free::sniff(text), Sniff::Yes);
    let f = free::parse_with_unit(text, FreeUnit::Mebibytes).unwrap();
    assert!(f.issues.is_empty(), "{:?}", f.issues);
    let f = f.value;
    let m = f.mem.as_ref().unwrap();
    assert_eq!(
        (m.buffers_kib, m.cache_kib),
        (Some(70.0 * 1024.0), Some(557.0 * 1024.0))
    );
    assert_eq!(m.available_kib, None);
    let bc = f.buffers_cache.as_ref().unwrap();
    assert_eq!(
        (bc.line, bc.used_kib, bc.free_kib),
        (3, Some(231.0 * 1024.0), Some(1645.0 * 1024.0))
    );
    assert_eq!(bc.total_kib, None);
}

#[test]
fn damaged_inputs() {
    let text = insert_line(&fixture("free/jc__free-kib-centos7.txt"), 3, "garbage row");
    let cut = &text[..text.len() - 10];
    let p = free::parse(cut).unwrap();
    assert_eq!(p.issues.len(), 1, "{:?}", p.issues);
    assert_eq!(p.issues[0].line, 3);
    let swap = p.value.swap.as_ref().unwrap();
    assert_eq!(
        (swap.used_kib, swap.free_kib),
        (Some(0.0), None),
        "cut before `free`"
    );
    let p = free::parse("total used free\nMem: 1 2 3 4\nSwap: 1 0 1\n").unwrap();
    assert_eq!(p.issues.len(), 1);
    assert!(free::parse("total used free\n").is_err());
    let wide = format!(
        "total used free{}\nMem: 1 2 3{}\n",
        " x".repeat(100_000),
        " 1".repeat(100_000)
    );
    assert!(free::parse(&wide).unwrap().issues.is_empty());
}

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    let own = |rel: &str| {
        (rel.starts_with("free/") && !rel.contains("swapon")) || rel.starts_with("captured-a/free")
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
            let got = free::sniff(sample);
            if got != want {
                failures.push(format!("{rel} ({} bytes): {got:?}", sample.len()));
            }
        }
    }
    assert_eq!(owned, 3 + 6);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn random_bytes_are_refused() {
    for t in ["", "\n", "  \n\t\n", "\u{feff}"] {
        assert!(free::parse(t).is_err());
    }
    let mut rng = XorShift(0x0F0F_F0F0_1234_4321);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(free::parse(&text).is_err());
        assert_eq!(free::sniff(&text), Sniff::No);
    }
}
