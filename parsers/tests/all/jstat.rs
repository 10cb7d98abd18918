//! `jstat` parser against the shared corpus (see `fixtures/PROVENANCE.md`) and captures from the
//! development machine (OpenJDK 17.0.15, G1).

use crate::common;
use crate::common::{
    all_fixtures, assert_close, fixture, fixture_path, head, insert_line, XorShift,
};
use parsers::jvm::jstat::{self, Jstat, JstatOption};
use parsers::Sniff;
use std::time::{Duration, Instant};

fn parse_clean(rel: &str) -> Jstat {
    let parsed = jstat::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

#[test]
fn corpus_jdk8_gc_with_elided_rows() {
    // CRLF line ends and two `...` lines the author used to elide rows.
    let p = jstat::parse(&fixture("jstat/java000__jstat-gc-jdk8-elided.txt")).unwrap();
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, [2, 7]);
    let v = p.value;
    assert_eq!(v.option, JstatOption::Gc);
    assert_eq!(v.header_lines, [1]);
    assert_eq!(v.samples.len(), 4);
    let s = &v.samples.get(2).unwrap();
    assert_eq!(s.line, 5);
    assert_close(s.s0c_kib, 19456.0);
    assert_close(s.s1c_kib, 16896.0);
    assert_close(s.s0u_kib, 0.0);
    assert_close(s.s1u_kib, 16878.4);
    assert_close(s.ec_kib, 203264.0);
    assert_close(s.eu_kib, 9028.1);
    assert_close(s.oc_kib, 74752.0);
    assert_close(s.ou_kib, 21034.3);
    assert_close(s.mc_kib, 49664.0);
    assert_close(s.mu_kib, 47024.7);
    assert_close(s.ccsc_kib, 6656.0);
    assert_close(s.ccsu_kib, 6163.1);
    assert_eq!(s.ygc, Some(9));
    assert_close(s.ygct_s, 0.531);
    assert_eq!(s.fgc, Some(2));
    assert_close(s.fgct_s, 0.327);
    assert_close(s.gct_s, 0.857);
    // JDK 8 has no concurrent-cycle columns: absent, not 0.
    assert_eq!((s.cgc, s.cgct_s), (None, None));
    assert_eq!(s.old_pct, None);
    assert!(s.extra.is_empty());
    assert_eq!(v.samples.get(0).unwrap().line, 3);
    assert_close(v.samples.get(0).unwrap().eu_kib, 202256.3);
}

#[test]
fn captured_gcutil_with_timestamps() {
    let v = parse_clean("captured-jvm/jstat-gcutil-t-jdk17.txt");
    assert_eq!(v.option, JstatOption::GcUtil);
    assert_eq!(v.samples.len(), 5);
    let s = &v.samples.get(0).unwrap();
    assert_eq!(s.line, 2);
    assert_close(s.timestamp_s, 8.3);
    assert_close(s.s0_pct, 0.0);
    assert_close(s.s1_pct, 82.42);
    assert_close(s.eden_pct, 88.24);
    assert_close(s.old_pct, 60.68);
    assert_close(s.meta_pct, 53.35);
    assert_close(s.ccs_pct, 5.76);
    assert_eq!((s.ygc, s.fgc, s.cgc), (Some(25), Some(0), Some(0)));
    assert_close(s.ygct_s, 0.062);
    assert_close(s.fgct_s, 0.0);
    assert_close(s.cgct_s, 0.0);
    assert_close(s.gct_s, 0.062);
    assert_eq!(s.perm_pct, None);
    let last = &v.samples.get(4).unwrap();
    assert_eq!(last.line, 6);
    assert_close(last.timestamp_s, 9.3);
    assert_close(last.s1_pct, 93.97);
    assert_eq!(last.ygc, Some(29));
}

#[test]
fn captured_gcutil_with_repeated_headers() {
    let v = parse_clean("captured-jvm/jstat-gcutil-h2-jdk17.txt");
    assert_eq!(v.header_lines, [1, 4, 7]);
    assert_eq!(v.samples.len(), 5);
    let lines: Vec<usize> = v.samples.iter().map(|s| s.line).collect();
    assert_eq!(lines, [2, 3, 5, 6, 8]);
    assert_close(v.samples.get(3).unwrap().eden_pct, 0.0);
    assert_eq!(v.samples.get(3).unwrap().ygc, Some(41));
    assert_close(v.samples.get(4).unwrap().old_pct, 75.34);
    assert_close(v.samples.get(4).unwrap().gct_s, 0.102);
    assert_eq!(v.samples.get(0).unwrap().timestamp_s, None);
}

#[test]
fn captured_gc_jdk17() {
    let v = parse_clean("captured-jvm/jstat-gc-jdk17.txt");
    assert_eq!(v.option, JstatOption::Gc);
    assert_eq!(v.samples.len(), 3);
    let s = &v.samples.get(0).unwrap();
    assert_close(s.s0c_kib, 0.0);
    assert_close(s.s1c_kib, 3072.0);
    assert_close(s.s1u_kib, 2886.7);
    assert_close(s.ec_kib, 34816.0);
    assert_close(s.eu_kib, 15360.0);
    assert_close(s.oc_kib, 29696.0);
    assert_close(s.ou_kib, 20404.0);
    assert_close(s.mc_kib, 384.0);
    assert_close(s.mu_kib, 204.9);
    assert_close(s.ccsc_kib, 128.0);
    assert_close(s.ccsu_kib, 7.4);
    assert_eq!((s.ygc, s.fgc, s.cgc), (Some(29), Some(0), Some(0)));
    assert_close(s.ygct_s, 0.069);
    assert_close(s.cgct_s, 0.0);
    assert_close(s.gct_s, 0.069);
    assert_eq!(v.samples.get(2).unwrap().ygc, Some(31));
    assert_close(v.samples.get(2).unwrap().ou_kib, 21675.5);
}

#[test]
fn captured_gccapacity_gcold_gccause() {
    let v = parse_clean("captured-jvm/jstat-gccapacity-jdk17.txt");
    assert_eq!(v.option, JstatOption::GcCapacity);
    let s = &v.samples.get(0).unwrap();
    assert_close(s.ngcmn_kib, 0.0);
    assert_close(s.ngcmx_kib, 262144.0);
    assert_close(s.ngc_kib, 33792.0);
    assert_close(s.s1c_kib, 3072.0);
    assert_close(s.ec_kib, 30720.0);
    assert_close(s.ogcmx_kib, 262144.0);
    assert_close(s.ogc_kib, 33792.0);
    assert_close(s.oc_kib, 33792.0);
    assert_close(s.mcmx_kib, 1114112.0);
    assert_close(s.mc_kib, 384.0);
    assert_close(s.ccsmx_kib, 1048576.0);
    assert_close(s.ccsc_kib, 128.0);
    assert_eq!((s.ygc, s.fgc, s.cgc), (Some(35), Some(0), Some(0)));

    let v = parse_clean("captured-jvm/jstat-gcold-jdk17.txt");
    assert_eq!(v.option, JstatOption::GcOld);
    let s = &v.samples.get(1).unwrap();
    assert_eq!(s.line, 3);
    assert_close(s.mu_kib, 205.4);
    assert_close(s.oc_kib, 32768.0);
    assert_close(s.ou_kib, 24297.0);
    assert_eq!((s.ygc, s.fgc, s.cgc), (Some(34), Some(0), Some(0)));
    assert_close(s.gct_s, 0.082);
    assert_eq!(s.ygct_s, None);

    let v = parse_clean("captured-jvm/jstat-gccause-jdk17.txt");
    assert_eq!(v.option, JstatOption::GcCause);
    assert_eq!(v.samples.len(), 3);
    for s in v.samples.iter() {
        assert_eq!(s.lgcc.as_deref(), Some("G1 Evacuation Pause"));
        assert_eq!(s.gcc.as_deref(), Some("No GC"));
    }
    assert_close(v.samples.get(1).unwrap().s1_pct, 100.0);
    assert_eq!(v.samples.get(2).unwrap().ygc, Some(33));
}

#[test]
fn dashes_jdk7_perm_and_unknown_columns() {
    // JDK 7 `-gcutil` (P column) and a Parallel GC JDK 11 `-gccause` with `-` for CGC/CGCT;
    // derived from the captured layouts.
    let t = "  S0     S1     E      O      P     YGC     YGCT    FGC    FGCT     GCT   \n\
             \x20 0.00  99.87  45.61  12.03  59.91     12    0.250     1    0.120    0.370\n";
    let v = jstat::parse(t).unwrap();
    assert!(v.issues.is_empty(), "{:?}", v.issues);
    assert_close(v.value.samples.get(0).unwrap().perm_pct, 59.91);
    assert_eq!(v.value.samples.get(0).unwrap().meta_pct, None);
    assert_eq!(v.value.option, JstatOption::GcUtil);

    let t = "  S0     S1     E      O      M     CCS    YGC     YGCT    FGC    FGCT     CGC    CGCT     GCT    LGCC                 GCC                 \n\
             \x20 0.00   0.00  12.50  40.20  95.10  90.01      5    0.100     2    0.300     -        -    0.400 Allocation Failure   No GC               \n";
    let v = jstat::parse(t).unwrap();
    assert!(v.issues.is_empty(), "{:?}", v.issues);
    let s = &v.value.samples.get(0).unwrap();
    assert_eq!((s.cgc, s.cgct_s), (None, None));
    assert_close(s.gct_s, 0.4);
    assert_eq!(s.lgcc.as_deref(), Some("Allocation Failure"));
    assert_eq!(s.gcc.as_deref(), Some("No GC"));

    // -gcnew: TT/MTT/DSS go to `extra`; decimal commas are read.
    let t = " S0C    S1C    S0U    S1U   TT MTT  DSS      EC       EU     YGC     YGCT  \n\
             1024,0 1024,0    0,0  512,0 15  15  512,0   8192,0   4096,5      3    0,012\n";
    let v = jstat::parse(t).unwrap();
    assert!(v.issues.is_empty(), "{:?}", v.issues);
    assert_eq!(v.value.option, JstatOption::GcNew);
    let s = &v.value.samples.get(0).unwrap();
    assert_eq!(s.extra.get("TT"), Some(&15.0));
    assert_eq!(s.extra.get("DSS"), Some(&512.0));
    assert_close(s.eu_kib, 4096.5);
    assert_close(s.ygct_s, 0.012);
}

#[test]
fn damaged_inputs() {
    let text = fixture("captured-jvm/jstat-gcutil-t-jdk17.txt");
    let text = insert_line(&text, 3, "garbage line");
    let cut = &text[..text.len() - 30];
    let p = jstat::parse(cut).unwrap();
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, [3, 7]);
    assert!(p.issues[1].message.contains("expected 14 values"));
    let kept: Vec<usize> = p.value.samples.iter().map(|s| s.line).collect();
    assert_eq!(kept, [2, 4, 5, 6]);
    // A non-number and a fractional count.
    let p = jstat::parse(" S0  YGC\n x 1\n 1.0 2.5\n 1.0 3\n").unwrap();
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, [2, 3]);
    assert_eq!(p.value.samples.len(), 1);
    // Rows before any header.
    let p = jstat::parse(" 1 2 3\n  S0 YGC\n 1 2\n").unwrap();
    assert_eq!(p.issues[0].line, 1);
    assert!(jstat::parse("").is_err());
    assert!(jstat::parse("0.00 1.00 2\n").is_err());
}

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    let own = |rel: &str| rel.starts_with("jstat/") || rel.starts_with("captured-jvm/jstat-");
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
            let got = jstat::sniff(sample);
            if got != want {
                failures.push(format!("{rel} ({} bytes): {got:?}", sample.len()));
            }
        }
    }
    assert_eq!(owned, 1 + 6);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hostile_inputs_never_panic() {
    for t in ["", "\n", "  \n\t\n", "\u{feff}"] {
        assert!(jstat::parse(t).is_err());
    }
    let mut rng = XorShift(0x1357_2468_aaaa_5555);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(jstat::parse(&text).is_err());
        assert_eq!(jstat::sniff(&text), Sniff::No);
    }
    // Byte flips in a real capture: no panic.
    let base = fixture("captured-jvm/jstat-gccause-jdk17.txt").into_bytes();
    for _ in 0..200 {
        let mut b = base.clone();
        for _ in 0..4 {
            let i = rng.below(b.len());
            b[i] = rng.next_u64() as u8;
        }
        let _ = jstat::parse(&String::from_utf8_lossy(&b));
    }
    let _ = jstat::parse("LGCC YGC\n a b c\n");
    let _ = jstat::parse("YGC LGCC GCC\n 1 é  x\n");
    let start = Instant::now();
    let cols: String = (0..100_000).map(|i| format!(" C{i}")).collect();
    let vals: String = " 1".repeat(100_000);
    let text = format!(" YGC{cols}\n 1{vals}\n");
    let p = jstat::parse(&text).unwrap();
    assert_eq!(p.value.samples.get(0).unwrap().extra.len(), 100_000);
    assert!(start.elapsed() < Duration::from_secs(20));
}
