//! `sadf -j` parser against sysstat's expected outputs and a capture from the development
//! machine (sysstat 12.6.1), including documents cut short.

use crate::common;
use crate::common::{all_fixtures, assert_close, fixture, fixture_path, head, XorShift};
use parsers::common::Date;
use parsers::common::Timestamp;
use parsers::sysstat::mpstat::CpuId;
use parsers::sysstat::sadf;
use parsers::sysstat::sar::Sar;
use parsers::Sniff;

fn parse_clean(rel: &str) -> Sar {
    let parsed = sadf::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

const TEST_DATE: Date = Date {
    year: 2019,
    month: 4,
    day: 18,
};

#[test]
fn every_activity_of_the_sysstat_test_file() {
    let s = parse_clean("sar/sysstat-tests__sadf-j-A.txt");
    let h = s.header.as_ref().unwrap();
    assert_eq!(h.nodename, "SYSSTAT.TEST");
    assert_eq!(h.release, "1.2.3-TEST");
    assert_eq!(h.cpus, Some(9));
    assert_eq!(h.date, Some(TEST_DATE), "file-date");
    assert_eq!(s.timezone.as_deref(), Some("GMT"));
    // Samples and their intervals.
    assert_eq!(s.samples.len(), 5);
    assert_eq!(
        s.samples[0].time,
        Some(Timestamp {
            date: Some(TEST_DATE),
            seconds_of_day: 13 * 3600 + 20 * 60 + 19
        })
    );
    assert_eq!(s.samples[0].line, 13);
    let intervals: Vec<Option<f64>> = s.samples.iter().map(|x| x.interval_s).collect();
    assert_eq!(
        intervals,
        [Some(31.0), Some(31.0), Some(39.0), Some(22.0), Some(31.0)]
    );
    // cpu-load: 9, 8 (CPU6 offline), 9, 10, 11 rows.
    assert_eq!(s.cpu.rows.len(), 47);
    assert!(s.cpu.averages.is_empty());
    let all = &s.cpu.rows[0];
    assert_eq!((all.cpu, all.line), (CpuId::All, 16));
    assert_close(all.usr_pct, 2.15);
    assert_close(all.nice_pct, 12.50);
    assert_close(all.idle_pct, 82.88);
    assert_close(s.cpu.rows[4].nice_pct, 99.55);
    assert_eq!(s.cpu.rows[4].cpu, CpuId::Cpu(3));
    // process-and-context-switch.
    assert_eq!(s.tasks.rows.len(), 5);
    assert_close(s.tasks.rows[0].proc_per_s, 3.56);
    assert_close(s.tasks.rows[0].cswch_per_s, 68409.30);
    // interrupts: 44 lines per sample.
    assert_eq!(s.interrupts.rows.len(), 5 * 44);
    let sum = &s.interrupts.rows[0];
    assert_eq!(sum.intr, "sum");
    assert_close(sum.all_per_s, 31915.30);
    assert_eq!(sum.per_cpu.len(), 8);
    assert_eq!(sum.per_cpu[1], (1, 11829.29));
    // disk: both sector and KiB keys; KiB wins.
    assert_eq!(s.disk.rows.len(), 17 + 17 + 17 + 18 + 15);
    assert_eq!(s.disk.rows[0].dev, "sda");
    // network.
    assert_eq!(s.net_dev.rows.len(), 6 + 6 + 6 + 8 + 9);
    assert_eq!(s.net_edev.rows.len(), s.net_dev.rows.len());
    let v = s
        .net_dev
        .rows
        .iter()
        .find(|r| r.iface == "virbr0-1")
        .unwrap();
    assert_close(v.rxmcst_per_s, 320.82);
    let w = s
        .net_edev
        .rows
        .iter()
        .find(|r| r.iface == "wlp5s0")
        .unwrap();
    assert_close(w.rxdrop_per_s, 3.21);
    // memory, queue, paging, swapping: one row per sample.
    assert_eq!(s.memory.rows.len(), 5);
    let m = &s.memory.rows[0];
    assert_close(m.kbmemfree, 1437740.0);
    assert_close(m.kbavail, 4389516.0);
    assert_close(m.memused_pct, 46.11);
    assert_close(m.kbinact, 1772396.0);
    assert_close(m.kbshmem, 87980.0);
    assert_eq!(m.extra.get("swpfree"), Some(&16777212.0));
    assert_close(s.queue.rows[0].runq_sz, 3.0);
    assert_close(s.queue.rows[0].ldavg_15, 3.43);
    assert_close(s.paging.rows[0].pgsteal_per_s, 0.55);
    assert_close(s.paging.rows[0].pgprom_per_s, 179.85);
    assert_eq!(s.swapping.rows.len(), 5);
    // Restarts and comments, after the statistics.
    assert_eq!(s.restarts.len(), 2);
    assert_eq!(s.restarts[1].cpus, Some(10));
    assert_eq!(s.restarts[1].line, 878);
    assert_eq!(s.comments[0].text, "Testing sysstat!");
    // Activities not read: io, hugepages, kernel, serial, power-management, filesystems, psi
    // and 13 other network members, in each sample.
    assert!(s.other_sections > 0);
}

#[test]
fn sensors_only_file_of_sysstat_11_6_5() {
    // Only power-management: a valid document with no activity this parser reads.
    let s = parse_clean("sar/sysstat-tests__sadf-j-sysstat-11.6.5-sensors.txt");
    assert!(!s.has_rows());
    assert_eq!(s.samples.len(), 1);
    assert_eq!(s.other_sections, 1);
    let h = s.header.as_ref().unwrap();
    assert_eq!((h.nodename.as_str(), h.cpus), ("linux.home", Some(8)));
    assert_eq!(s.timezone, None, "empty timezone member");
    assert_eq!(s.restarts.len(), 1);
    assert_eq!(s.restarts[0].cpus, Some(8));
}

#[test]
fn captured_matches_the_text_report_of_the_same_file() {
    // `sadf -j x.sa -- -u -P ALL -n DEV,EDEV -d -q -r -B -W` (sysstat 12.6.1); the text report of
    // the same data file is captured-a/sar-f-datafile-multi.txt.
    let j = parse_clean("captured-a/sadf-j.txt");
    let t = parsers::sysstat::sar::parse(&fixture("captured-a/sar-f-datafile-multi.txt"))
        .unwrap()
        .value;
    assert_eq!(j.timezone.as_deref(), Some("UTC"));
    assert_eq!(j.samples.len(), 2);
    assert_eq!(j.samples[1].interval_s, Some(1.0));
    assert_eq!(j.cpu.rows.len(), t.cpu.rows.len());
    for (a, b) in j.cpu.rows.iter().zip(&t.cpu.rows) {
        assert_eq!((a.cpu, a.time), (b.cpu, b.time));
        assert_eq!(
            (a.user_pct, a.system_pct, a.idle_pct),
            (b.user_pct, b.system_pct, b.idle_pct)
        );
    }
    for (a, b) in j.disk.rows.iter().zip(&t.disk.rows) {
        assert_eq!(a.dev, b.dev);
        assert_eq!(
            (a.tps, a.rkb_per_s, a.areq_sz_kb),
            (b.tps, b.rkb_per_s, b.areq_sz_kb)
        );
        assert_eq!((a.await_ms, a.util_pct), (b.await_ms, b.util_pct));
    }
    assert_eq!(j.net_dev.rows.len(), 8);
    assert_eq!(j.memory.rows[0].kbmemfree, t.memory.rows[0].kbmemfree);
    assert_eq!(j.paging.rows[0].vmeff_pct, Some(0.0));
    assert_eq!(j.queue.rows[1].plist_sz, Some(142.0));
    assert_eq!(j.swapping.rows.len(), 2);
}

#[test]
fn truncated_json_keeps_complete_samples() {
    // Derived: the sysstat document cut inside the 2nd sample, as when a timeout kills sadf.
    let text = fixture("sar/sysstat-tests__sadf-j-A.txt");
    let second = text.match_indices("\"timestamp\"").nth(1).unwrap().0;
    let cut = &text[..second + 300];
    let p = sadf::parse(cut).unwrap();
    assert_eq!(p.value.samples.len(), 1);
    assert_eq!(p.value.cpu.rows.len(), 9, "only the complete sample's rows");
    assert_eq!(p.value.header.as_ref().unwrap().nodename, "SYSSTAT.TEST");
    assert_eq!(p.issues.len(), 1, "{:?}", p.issues);
    assert!(p.issues[0].message.contains("ends early"));
    // Cut at every 211th byte: never a panic, samples kept only grow.
    let mut last = 0;
    for end in (0..text.len()).step_by(211) {
        let n = sadf::parse(head(&text, end)).map_or(0, |p| p.value.samples.len());
        assert!(n >= last, "cut at {end}: {n} < {last}");
        last = n;
    }
    assert_eq!(
        last, 5,
        "the statistics end before the restarts and comments"
    );
    // Cut before the first sample: unusable, with the reason.
    let first = text.find("\"cpu-load\"").unwrap();
    let err = sadf::parse(&text[..first]).unwrap_err();
    assert!(
        err.to_string().contains("before its first complete sample"),
        "{err}"
    );
}

#[test]
fn damaged_documents() {
    // A syntax error inside a sample keeps the samples before it.
    let text = fixture("captured-a/sadf-j.txt");
    let second = text.match_indices("\"timestamp\"").nth(1).unwrap().0;
    let mut broken = text.clone();
    broken.replace_range(second..second + 1, "?");
    let p = sadf::parse(&broken).unwrap();
    assert_eq!(p.value.samples.len(), 1);
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 43);
    assert!(p.issues[0].message.contains("invalid sadf JSON"));
    // A cpu object without its key: an issue on its line, the other rows kept.
    let text2 = text.replacen("{\"cpu\": \"0\", ", "{", 1);
    let p = sadf::parse(&text2).unwrap();
    assert_eq!(p.value.cpu.rows.len(), 5);
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 17);
    // Not sysstat, not JSON.
    assert!(sadf::parse("{\"other\": 1}").is_err());
    assert!(sadf::parse("[1, 2]").is_err());
}

// ---------------------------------------------------------------------------------------------
// Sniffing and robustness.

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    let own = |rel: &str| {
        rel.starts_with("sar/sysstat-tests__sadf")
            || rel.starts_with("captured-json/sadf-j-")
            || rel == "captured-a/sadf-j.txt"
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
            let got = sadf::sniff(sample);
            if got != want {
                failures.push(format!("{rel} ({} bytes): {got:?}", sample.len()));
            }
        }
    }
    assert_eq!(owned, 5);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(
        sadf::sniff("{\"sysstat\": {\n\t\"hosts\": [\n"),
        Sniff::Unsure
    );
}

#[test]
fn hostile_inputs_never_panic() {
    for t in ["", "\n", "  \n\t\n", "\u{feff}"] {
        assert!(sadf::parse(t).is_err());
    }
    let mut rng = XorShift(0x0BAD_CAFE_0000_0001);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(sadf::parse(&text).is_err());
        assert_eq!(sadf::sniff(&text), Sniff::No);
    }
    // Random byte flips and cuts of a real document.
    let doc = fixture("sar/sysstat-tests__sadf-j-A.txt");
    for _ in 0..200 {
        let mut bytes = doc.as_bytes().to_vec();
        for _ in 0..rng.below(4) {
            let i = rng.below(bytes.len());
            bytes[i] = b"{}[],:\"0 x\n"[rng.below(11)];
        }
        bytes.truncate(rng.below(bytes.len() + 1));
        let _ = sadf::parse(&String::from_utf8_lossy(&bytes));
    }
    // Deep nesting is refused, not a stack overflow; a sample of 100 000 members is read.
    let deep = format!(
        "{{\"sysstat\": {{\"hosts\": [{{\"x\": {}",
        "[".repeat(100_000)
    );
    assert!(sadf::parse(&deep).is_err());
    let members: String = (0..100_000).map(|i| format!(", \"k{i}\": 1")).collect();
    let wide = format!(
        "{{\"sysstat\": {{\"hosts\": [{{\"file-date\": \"2024-01-02\", \"statistics\": [{{\"queue\": {{\"runq-sz\": 1{members}}}}}]}}]}}}}"
    );
    let p = sadf::parse(&wide).unwrap();
    assert_eq!(p.value.queue.rows[0].extra.len(), 100_000);
    // A host claiming 10^6 CPUs, and a CPU number as large.
    let big = "{\"sysstat\": {\"hosts\": [{\"number-of-cpus\": 1000000, \"file-date\": \"2024-01-02\", \"statistics\": [{\"cpu-load\": [{\"cpu\": \"999999\", \"idle\": 1.0}]}]}]}}";
    let p = sadf::parse(big).unwrap();
    assert_eq!(p.value.cpu.rows[0].cpu, CpuId::Cpu(999_999));
}
