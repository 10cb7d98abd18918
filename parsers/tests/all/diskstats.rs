//! `/proc/diskstats` parser against the shared corpus (see `fixtures/PROVENANCE.md`) and two
//! snapshots captured one second apart.

use crate::common;
use crate::common::{
    all_fixtures, assert_close, fixture, fixture_path, head, insert_line, XorShift,
};
use parsers::proc::diskstats::{self, Diskstats};
use parsers::Sniff;

fn parse_clean(rel: &str) -> Diskstats {
    let parsed = diskstats::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

#[test]
fn kernel_5_5_layout() {
    let d = parse_clean("proc-diskstats/jc__jc-proc-diskstats.txt");
    assert_eq!(d.devices.len(), 15);
    let sda = d.device("sda").unwrap();
    assert_eq!((sda.major, sda.minor, sda.line, sda.fields), (8, 0, 9, 17));
    assert_eq!(sda.reads_completed, Some(14_200));
    assert_eq!(sda.reads_merged, Some(3361));
    assert_eq!(sda.sectors_read, Some(892_828));
    assert_eq!(sda.read_time_ms, Some(5058));
    assert_eq!(sda.writes_completed, Some(18_736));
    assert_eq!(sda.sectors_written, Some(715_384));
    assert_eq!(sda.write_time_ms, Some(12_604));
    assert_eq!(sda.io_time_ms, Some(24_940));
    assert_eq!(sda.weighted_io_time_ms, Some(17_663));
    assert_eq!(
        (sda.discards_completed, sda.flushes_completed),
        (Some(0), Some(0))
    );
}

#[test]
fn mixed_field_counts() {
    let d = parse_clean("proc-diskstats/node_exporter__proc-diskstats-mixed.txt");
    assert_eq!(d.devices.len(), 51);
    let counts = |n: usize| d.devices.iter().filter(|x| x.fields == n).count();
    assert_eq!((counts(11), counts(15), counts(17)), (46, 3, 2));
    let sda = d.device("sda").unwrap();
    assert_eq!(sda.reads_completed, Some(25_354_637));
    assert_eq!(sda.read_time_ms, Some(18_492_372));
    assert_eq!(sda.io_time_ms, Some(9_653_880));
    assert_eq!(sda.discards_completed, None, "11-field line");
    let nvme = d.device("nvme0n1").unwrap();
    assert_eq!(nvme.reads_completed, Some(47_114));
    assert_eq!(nvme.read_time_ms, Some(21_650));
    assert_eq!(nvme.io_time_ms, Some(222_766));
    let sdb = d.device("sdb").unwrap();
    assert_eq!(
        (sdb.fields, sdb.sectors_discarded),
        (15, Some(1_925_173_784))
    );
    let sdc = d.device("sdc").unwrap();
    assert_eq!(
        (sdc.fields, sdc.flushes_completed, sdc.flush_time_ms),
        (17, Some(1555), Some(1944))
    );
}

#[test]
fn captured_rates_like_iostat() {
    let a = parse_clean("captured-a/proc-diskstats-1.txt");
    let b = parse_clean("captured-a/proc-diskstats-2.txt");
    let r = a.rates_to(&b, 1.0);
    assert_eq!(r.len(), a.devices.len());
    let vda = r.iter().find(|x| x.name == "vda").unwrap();
    let reads = (263_888 - 262_962) as f64;
    let writes = (43_077 - 42_936) as f64;
    assert_close(vda.r_per_s, reads);
    assert_close(vda.w_per_s, writes);
    assert_close(vda.rkb_per_s, (14_071_114 - 14_032_450) as f64 / 2.0);
    assert_close(vda.r_await_ms, (325_436 - 323_226) as f64 / reads);
    assert_close(
        vda.await_ms,
        ((325_436 - 323_226) + (66_703 - 66_286)) as f64 / (reads + writes),
    );
    assert_close(vda.util_pct, (22_256 - 22_208) as f64 / 10.0);
    assert_close(vda.aqu_sz, (395_270 - 392_642) as f64 / 1000.0);
    assert_close(vda.f_per_s, 0.0);
    let idle = r.iter().find(|x| x.name == "loop0").unwrap();
    assert_eq!(idle.r_await_ms, Some(0.0), "no request: 0, not NaN");
    assert!(a.rates_to(&b, 0.0).is_empty());
    // Counters going backwards (reboot, 32-bit wrap) give no value.
    let back = b.devices[8].rates_to(&a.devices[8], 1.0);
    assert_eq!(back.r_per_s, None);
}

#[test]
fn damaged_inputs() {
    let text = insert_line(
        &fixture("proc-diskstats/jc__jc-proc-diskstats.txt"),
        2,
        "   7 x loopX 1 2",
    );
    let cut = &text[..text.find("sda ").unwrap() + 10];
    let p = diskstats::parse(cut).unwrap();
    assert_eq!(p.value.devices.len(), 8);
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, [2, 10]);
    assert!(p.issues[1]
        .message
        .contains("expected 4, 11, 15 or 17 counters"));
    // Kernel 2.6.0–2.6.24 partition lines: 4 fields.
    let p = diskstats::parse("   3    1 hda1 35486 38030 38030 38030\n").unwrap();
    let d = &p.value.devices[0];
    assert_eq!(
        (
            d.fields,
            d.reads_completed,
            d.sectors_read,
            d.writes_completed
        ),
        (4, Some(35486), Some(38030), Some(38030))
    );
    assert_eq!(d.read_time_ms, None);
    // 100 000 values on a line and 10^6 devices claimed by numbers.
    let wide = format!("8 0 sda{}\n", " 1".repeat(100_000));
    assert!(diskstats::parse(&wide).is_err());
    let p = diskstats::parse("4294967295 1000000 sdz 1 2 3 4 5 6 7 8 9 10 11\n").unwrap();
    assert_eq!(p.value.devices[0].major, 4_294_967_295);
}

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    let own = |rel: &str| {
        rel.starts_with("proc-diskstats/") || rel.starts_with("captured-a/proc-diskstats")
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
            let got = diskstats::sniff(sample);
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
        assert!(diskstats::parse(t).is_err());
    }
    let mut rng = XorShift(0x5555_6666_7777_8888);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(diskstats::parse(&text).is_err());
        assert_eq!(diskstats::sniff(&text), Sniff::No);
    }
}
