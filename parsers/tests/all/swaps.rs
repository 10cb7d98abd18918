//! `/proc/swaps` and `swapon --show` parser against the shared corpus (jc fixtures, see
//! `fixtures/PROVENANCE.md`) and captures from the development machine (util-linux 2.38.1).

use crate::common;
use crate::common::{all_fixtures, fixture, fixture_path, head, insert_line, XorShift};
use parsers::proc::swaps::{self, Swaps, SwapsFormat};
use parsers::Sniff;

fn parse_clean(rel: &str) -> Swaps {
    let parsed = swaps::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

#[test]
fn swapon_show_with_uuid() {
    let s = parse_clean("free/jc__swapon-show-v1.txt");
    assert_eq!(s.format, SwapsFormat::SwaponShow);
    let a = &s.areas[0];
    assert_eq!(
        (a.name.as_str(), a.kind.as_deref(), a.line),
        ("/swap.img", Some("file"), 2)
    );
    // 2G = 2147483648 bytes.
    assert_eq!(a.size_kib.map(|k| k * 1024.0), Some(2_147_483_648.0));
    assert_eq!(a.used_kib, Some(2048.0), "2M");
    assert_eq!(a.priority, Some(-2));
    assert_eq!(
        a.uuid.as_deref(),
        Some("0918d27e-3907-471d-abb8-45fa49ae059c")
    );
    assert_eq!(a.label, None);
    assert!(!a.exact);
}

#[test]
fn swapon_show_with_empty_uuid_and_label() {
    let s = parse_clean("free/jc__swapon-show-v2.txt");
    let a = &s.areas[0];
    assert_eq!(
        (a.name.as_str(), a.kind.as_deref()),
        ("/swapfile", Some("file"))
    );
    assert_eq!(a.size_kib, Some(1024.0 * 1024.0), "1024M");
    assert_eq!(a.used_kib, Some(512.0), "512K");
    assert_eq!(a.priority, Some(-2));
    assert_eq!((a.uuid.as_deref(), a.label.as_deref()), (None, None));
}

#[test]
fn captured_proc_swaps_and_swapon_of_the_same_file() {
    // A 64 MiB swap file enabled for the capture: /proc/swaps (KiB), swapon --show (human),
    // swapon --show --bytes.
    let p = parse_clean("captured-a/proc-swaps-with-file.txt");
    assert_eq!(p.format, SwapsFormat::ProcSwaps);
    let a = &p.areas[0];
    assert_eq!(a.name, "/var/tmp/rca-a-swapfile");
    assert_eq!(
        (a.size_kib, a.used_kib, a.priority),
        (Some(65532.0), Some(0.0), Some(5))
    );
    assert!(a.exact);
    let b = parse_clean("captured-a/swapon-show-bytes.txt");
    assert_eq!(b.format, SwapsFormat::SwaponShowBytes);
    assert_eq!(b.areas[0].size_kib, Some(65532.0), "67104768 bytes");
    assert!(b.areas[0].exact);
    let h = parse_clean("captured-a/swapon-show-with-file.txt");
    assert_eq!(h.areas[0].size_kib, Some(65536.0), "64M, rounded");
    assert_eq!(h.areas[0].used_kib, Some(0.0), "0B");
    // No swap: the header alone.
    let none = parse_clean("captured-a/proc-swaps.txt");
    assert!(none.areas.is_empty());
    assert!(swaps::parse("")
        .unwrap_err()
        .to_string()
        .contains("prints nothing"));
}

#[test]
fn escaped_names_and_damage() {
    // Derived: the captured /proc/swaps with a space in the file name (escaped as \040).
    let text =
        fixture("captured-a/proc-swaps-with-file.txt").replace("rca-a-swapfile", "rca\\040swap");
    let p = swaps::parse(&text).unwrap();
    assert_eq!(p.value.areas[0].name, "/var/tmp/rca swap");
    let text = insert_line(
        &fixture("captured-a/proc-swaps-with-file.txt"),
        2,
        "/dev/sdb2 partition big 0 -2",
    );
    let p = swaps::parse(&text).unwrap();
    assert_eq!(p.value.areas.len(), 2);
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 2);
    let text = fixture("free/jc__swapon-show-v1.txt") + "/x file 1G 0B -1 uuid label extra\n";
    let p = swaps::parse(&text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 3);
    let wide = format!(
        "Filename Type Size Used Priority\n/x file 1 0 -1{}\n",
        " z".repeat(100_000)
    );
    assert_eq!(swaps::parse(&wide).unwrap().issues.len(), 1);
}

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    let own = |rel: &str| {
        rel.starts_with("free/jc__swapon")
            || rel.starts_with("captured-a/proc-swaps")
            || rel.starts_with("captured-a/swapon")
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
            let got = swaps::sniff(sample);
            if got != want {
                failures.push(format!("{rel} ({} bytes): {got:?}", sample.len()));
            }
        }
    }
    assert_eq!(owned, 2 + 4);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn random_bytes_are_refused() {
    for t in ["", "\n", "  \n\t\n", "\u{feff}"] {
        assert!(swaps::parse(t).is_err());
    }
    let mut rng = XorShift(0x1357_9BDF_2468_ACE0);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(swaps::parse(&text).is_err());
        assert_eq!(swaps::sniff(&text), Sniff::No);
    }
}
