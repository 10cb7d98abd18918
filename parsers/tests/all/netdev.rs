//! `/proc/net/dev` parser against the shared corpus (see `fixtures/PROVENANCE.md`) and two
//! snapshots captured one second apart.

use crate::common;
use crate::common::{
    all_fixtures, assert_close, fixture, fixture_path, head, insert_line, XorShift,
};
use parsers::proc::{self, net_dev::NetDev};
use parsers::Sniff;

fn parse_clean(rel: &str) -> NetDev {
    let parsed = proc::net_dev::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

#[test]
fn jc_two_interfaces() {
    let n = parse_clean("proc-net-dev/jc__jc-proc-net-dev.txt");
    assert_eq!(n.interfaces.len(), 2);
    let lo = n.iface("lo").unwrap();
    assert_eq!(
        (lo.line, lo.rx_bytes, lo.rx_packets),
        (3, Some(13_222), Some(152))
    );
    let e = n.iface("ens33").unwrap();
    assert_eq!(e.rx_bytes, Some(60_600_053));
    assert_eq!(e.rx_packets, Some(109_378));
    assert_eq!(e.tx_bytes, Some(44_256_546));
    assert_eq!(e.tx_packets, Some(121_425));
    assert_eq!(
        (e.rx_drop, e.tx_colls, e.tx_carrier),
        (Some(0), Some(0), Some(0))
    );
}

#[test]
fn captured_rates() {
    let a = parse_clean("captured-a/proc-net-dev-1.txt");
    let b = parse_clean("captured-a/proc-net-dev-2.txt");
    assert_eq!(a.iface("eth0").unwrap().rx_bytes, Some(233_939_533));
    let r = a.rates_to(&b, 1.0);
    assert_eq!(r.len(), 4);
    let eth0 = r.iter().find(|x| x.name == "eth0").unwrap();
    let rx = b.iface("eth0").unwrap().rx_bytes.unwrap() - 233_939_533;
    assert_close(eth0.rxkb_per_s, rx as f64 / 1024.0);
    assert_close(eth0.rxdrop_per_s, 0.0);
}

#[test]
fn glued_names_missing_header_and_damage() {
    // Derived: a counter wide enough to touch the colon, as the kernel prints it.
    let text = fixture("proc-net-dev/jc__jc-proc-net-dev.txt")
        .replace("ens33: 60600053", "ens33:60600053123");
    let p = proc::net_dev::parse(&text).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    assert_eq!(
        p.value.iface("ens33").unwrap().rx_bytes,
        Some(60_600_053_123)
    );
    // Without the two header lines: the usual columns, one issue.
    let body: String = fixture("proc-net-dev/jc__jc-proc-net-dev.txt")
        .lines()
        .skip(2)
        .map(|l| format!("{l}\n"))
        .collect();
    let p = proc::net_dev::parse(&body).unwrap();
    assert_eq!(p.value.interfaces.len(), 2);
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.value.iface("ens33").unwrap().tx_packets, Some(121_425));
    // Garbage, a short row and an unknown column.
    let text = insert_line(
        &fixture("proc-net-dev/jc__jc-proc-net-dev.txt"),
        4,
        "garbage",
    );
    let cut = &text[..text.len() - 30];
    let p = proc::net_dev::parse(cut).unwrap();
    assert_eq!(p.value.interfaces.len(), 1);
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, [4, 5]);
    let text = "Inter-|   Receive |  Transmit\n face |bytes newcol|bytes\n  eth0: 1 2 3\n";
    let p = proc::net_dev::parse(text).unwrap();
    assert_eq!(p.value.interfaces[0].extra.get("rx_newcol"), Some(&2));
    // 100 000 columns.
    let cols: String = (0..100_000).map(|i| format!(" c{i}")).collect();
    let text = format!("Inter-|\n face |{cols}|\n  eth0:{}\n", " 1".repeat(100_000));
    assert_eq!(
        proc::net_dev::parse(&text).unwrap().value.interfaces[0]
            .extra
            .len(),
        100_000
    );
}

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    let own =
        |rel: &str| rel.starts_with("proc-net-dev/") || rel.starts_with("captured-a/proc-net-dev");
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
            let got = proc::net_dev::sniff(sample);
            if got != want {
                failures.push(format!("{rel} ({} bytes): {got:?}", sample.len()));
            }
        }
    }
    assert_eq!(owned, 1 + 2);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn random_bytes_are_refused() {
    for t in ["", "\n", "  \n\t\n", "\u{feff}"] {
        assert!(proc::net_dev::parse(t).is_err());
    }
    let mut rng = XorShift(0x9999_AAAA_BBBB_CCCC);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(proc::net_dev::parse(&text).is_err());
        assert_eq!(proc::net_dev::sniff(&text), Sniff::No);
    }
}
