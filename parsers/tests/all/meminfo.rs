//! `/proc/meminfo` parser against the shared corpus (see `fixtures/PROVENANCE.md`) and a
//! capture from the development machine.

use crate::common;
use crate::common::{all_fixtures, fixture, fixture_path, head, insert_line, XorShift};
use parsers::proc::meminfo::{self, Meminfo};
use parsers::Sniff;

fn parse_clean(rel: &str) -> Meminfo {
    let parsed = meminfo::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

#[test]
fn ubuntu_with_huge_page_counts() {
    let m = parse_clean("proc-meminfo/hotsos__proc-meminfo-ubuntu2004.txt");
    assert_eq!(m.entries.len(), 53);
    assert_eq!(m.mem_total_kib, Some(4_026_036));
    assert_eq!(m.mem_available_kib, Some(2_775_844));
    // HugePages_* lines have no unit: page counts.
    let e = m
        .entries
        .iter()
        .find(|e| e.name == "HugePages_Total")
        .unwrap();
    assert_eq!((e.value, e.kib, e.line), (0, false, 45));
    assert_eq!(m.huge_pages_total, Some(0));
    assert_eq!(m.hugepagesize_kib, Some(2048));
    assert_eq!(m.huge_pages_total_kib(), Some(0));
    assert_eq!(m.get("FileHugePages"), Some(0), "kept although not named");
}

#[test]
fn rhel7_used_and_swap_used() {
    let m = parse_clean("proc-meminfo/insights-core__proc-meminfo-rhel7.txt");
    assert_eq!(m.mem_total_kib, Some(8_009_912));
    assert_eq!(m.mem_free_kib, Some(538_760));
    assert_eq!(m.mem_available_kib, Some(6_820_236));
    // insights-core: used = (MemTotal − MemFree) × 1024 bytes; swap used subtracts SwapCached.
    let used_bytes = (m.mem_total_kib.unwrap() - m.mem_free_kib.unwrap()) * 1024;
    assert_eq!(used_bytes, (8_009_912 - 538_760) * 1024);
    let swap_used =
        m.swap_total_kib.unwrap() - m.swap_free_kib.unwrap() - m.swap_cached_kib.unwrap();
    assert_eq!(swap_used * 1024, (3_145_724 - 3_136_352 - 120) * 1024);
    assert_eq!(m.swap_used_kib(), Some(3_145_724 - 3_136_352));
    assert_eq!(m.active_anon_kib, Some(311_596));
    assert_eq!(
        m.k_reclaimable_kib, None,
        "RHEL 7 kernels predate KReclaimable"
    );
}

#[test]
fn jc_ubuntu() {
    let m = parse_clean("proc-meminfo/jc__jc-proc-meminfo-ubuntu.txt");
    assert_eq!(m.mem_total_kib, Some(3_997_272));
    assert_eq!(m.mem_free_kib, Some(2_760_316));
    assert_eq!(m.mem_available_kib, Some(3_386_876));
    assert_eq!(m.buffers_kib, Some(40_452));
    assert_eq!(m.cached_kib, Some(684_856));
    assert_eq!(m.swap_total_kib, Some(3_996_668));
    assert_eq!(m.slab_kib, Some(288_096));
    assert_eq!(m.vmalloc_total_kib, Some(34_359_738_367));
    assert!(m.k_reclaimable_kib.is_some());
}

#[test]
fn node_exporter_bytes() {
    // node_exporter reports bytes: kB × 1024.
    let m = parse_clean("proc-meminfo/node_exporter__proc-meminfo-x86.txt");
    let bytes = |v: Option<u64>| v.unwrap() * 1024;
    assert_eq!(bytes(m.mem_total_kib), 3_831_959_552);
    assert_eq!(bytes(m.mem_free_kib), 230_883_328);
    assert_eq!(bytes(m.cached_kib), 953_229_312);
    assert_eq!(bytes(m.dirty_kib), 1_077_248);
    assert_eq!(m.mem_available_kib, None, "older kernel: no MemAvailable");
}

#[test]
fn captured() {
    let m = parse_clean("captured-a/proc-meminfo-1.txt");
    assert_eq!(m.mem_total_kib, Some(24_684_092));
    assert_eq!(m.swap_total_kib, Some(0));
    assert!(m
        .entries
        .iter()
        .all(|e| e.kib || e.name.starts_with("HugePages_")));
}

#[test]
fn damaged_inputs() {
    let text = insert_line(
        &fixture("proc-meminfo/jc__jc-proc-meminfo-ubuntu.txt"),
        3,
        "garbage",
    );
    let cut = &text[..text.find("Cached:").unwrap() + 9];
    let p = meminfo::parse(cut).unwrap();
    assert_eq!(p.value.mem_total_kib, Some(3_997_272));
    assert_eq!(p.issues.len(), 2, "{:?}", p.issues);
    assert_eq!(p.issues[0].line, 3);
    assert!(p.issues[1].message.contains("expected `Name: value"));
    // Unknown unit or an extra word.
    let p =
        meminfo::parse("MemTotal: 1 kB\nMemFree: 2 MB\nDirty: 3 kB x\nNewThing: 4 kB\n").unwrap();
    assert_eq!(p.issues.len(), 2);
    assert_eq!(p.value.get("NewThing"), Some(4));
    let big: String = (0..100_000).map(|i| format!("Key{i}: {i} kB\n")).collect();
    assert_eq!(meminfo::parse(&big).unwrap().value.entries.len(), 100_000);
}

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    let own =
        |rel: &str| rel.starts_with("proc-meminfo/") || rel.starts_with("captured-a/proc-meminfo");
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
            let got = meminfo::sniff(sample);
            if got != want {
                failures.push(format!("{rel} ({} bytes): {got:?}", sample.len()));
            }
        }
    }
    assert_eq!(owned, 4 + 2);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn random_bytes_are_refused() {
    for t in ["", "\n", "  \n\t\n", "\u{feff}"] {
        assert!(meminfo::parse(t).is_err());
    }
    let mut rng = XorShift(0x4444_3333_2222_1111);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(meminfo::parse(&text).is_err());
        assert_eq!(meminfo::sniff(&text), Sniff::No);
    }
}
