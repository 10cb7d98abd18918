//! `ip -s link` parser against captured outputs (see `fixtures/PROVENANCE.md`).

use crate::common::{fixture, insert_line};
use parsers::{net::iplink, Sniff};

#[test]
fn ip_s_link_iproute2_6() {
    let rel = "captured-b/ip-s-link.txt";
    let p = iplink::parse(&fixture(rel)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let l = p.value;
    assert_eq!(l.links.len(), 7);
    let lo = l.get("lo").unwrap();
    assert_eq!((lo.index, lo.line), (1, 1));
    assert_eq!(lo.link_type.as_deref(), Some("loopback"));
    assert_eq!(lo.mtu, Some(65536));
    assert_eq!(lo.state.as_deref(), Some("UNKNOWN"));
    let eth0 = l.get("eth0").unwrap();
    assert_eq!(eth0.flags, ["BROADCAST", "MULTICAST", "UP", "LOWER_UP"]);
    assert!(eth0.is_up());
    assert_eq!(eth0.mtu, Some(1400));
    assert_eq!(eth0.qdisc.as_deref(), Some("pfifo_fast"));
    assert_eq!(eth0.qlen, Some(1000));
    assert_eq!(eth0.address.as_deref(), Some("02:fc:00:00:00:01"));
    let rx = eth0.rx.as_ref().unwrap();
    assert_eq!(rx.get("bytes"), Some(233_939_533));
    assert_eq!(rx.get("packets"), Some(5766));
    assert_eq!(rx.get("dropped"), Some(0));
    assert_eq!(rx.get("missed"), Some(0));
    assert_eq!(rx.line, 22);
    let tx = eth0.tx.as_ref().unwrap();
    assert_eq!(tx.get("packets"), Some(3534));
    assert_eq!(tx.get("collsns"), Some(0));
    assert!(eth0.rx_errors.is_none());
    let veth = l.get("veth-b0").unwrap();
    assert_eq!(veth.parent.as_deref(), Some("veth-b1"));
    assert_eq!(veth.master.as_deref(), Some("br-b0"));
    assert_eq!(veth.qdisc.as_deref(), Some("noqueue"));
    assert_eq!(
        l.members("br-b0")
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>(),
        ["veth-b0"]
    );
    let br = l.get("br-b0").unwrap();
    assert_eq!(br.rx.as_ref().unwrap().get("mcast"), Some(6));
    assert!(!l.get("ifb0").unwrap().is_up());
}

#[test]
fn ip_s_s_link_error_blocks() {
    let rel = "captured-b/ip-s-s-link.txt";
    let p = iplink::parse(&fixture(rel)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let eth0 = p.value.get("eth0").unwrap();
    let rxe = eth0.rx_errors.as_ref().unwrap();
    assert_eq!(rxe.get("crc"), Some(0));
    assert_eq!(rxe.get("overrun"), Some(0));
    let txe = eth0.tx_errors.as_ref().unwrap();
    assert_eq!(txe.get("transns"), Some(2));
    assert_eq!(eth0.tx.as_ref().unwrap().get("bytes"), Some(334_987));
}

#[test]
fn older_header_names_are_kept_as_printed() {
    // Derived: the captured file with the iproute2 < 5 RX header wording (`overrun` where 6.x
    // prints `missed`), to show that counters are read by header name.
    let text = fixture("captured-b/ip-s-link.txt").replace(
        "RX:  bytes packets errors dropped  missed   mcast",
        "RX: bytes  packets  errors  dropped overrun mcast",
    );
    let p = iplink::parse(&text).unwrap();
    assert!(p.issues.is_empty());
    let rx = p.value.get("eth0").unwrap().rx.clone().unwrap();
    assert_eq!(rx.get("overrun"), Some(0));
    assert_eq!(rx.get("missed"), None);
    assert_eq!(rx.get("bytes"), Some(233_939_533));
}

#[test]
fn malformed_counter_lines() {
    let clean = fixture("captured-b/ip-s-link.txt");
    // Numbers cut short (truncated capture).
    let text = clean.replace(
        "     233939533    5766      0       0       0       0 ",
        "     233939533    5766",
    );
    let p = iplink::parse(&text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 22);
    assert!(p.issues[0].message.contains("expected 6 counters"));
    let rx = p.value.get("eth0").unwrap().rx.clone().unwrap();
    assert_eq!(rx.get("packets"), Some(5766));
    assert_eq!(rx.get("dropped"), None);
    // A garbage counter.
    let text = clean.replace("     233939533    5766", "     lots    5766");
    let p = iplink::parse(&text).unwrap();
    assert_eq!(p.issues[0].line, 22);
    assert!(p.value.get("eth0").unwrap().rx.is_none());
    // A garbage line before any interface, and a broken interface line.
    let text = insert_line(&clean, 1, "hello");
    let p = iplink::parse(&text).unwrap();
    assert_eq!(p.issues[0].line, 1);
    assert_eq!(p.value.links.len(), 7);
    let p = iplink::parse("3: eth1: BROADCAST mtu 1500\n").unwrap_err();
    assert!(p.to_string().contains("interface line"), "{p}");
    assert!(iplink::parse("").is_err());
    // Cut in the middle: the last interface keeps what it has.
    let cut = &clean[..clean.len() / 2];
    let p = iplink::parse(cut).unwrap();
    assert!(p.value.links.len() >= 3);
}

#[test]
fn sniff() {
    assert_eq!(
        iplink::sniff(&fixture("captured-b/ip-s-link.txt")),
        Sniff::Yes
    );
    assert_eq!(
        iplink::sniff(&fixture("captured-b/ip-s-s-link.txt")),
        Sniff::Yes
    );
    assert_eq!(
        iplink::sniff("1: lo: <LOOPBACK,UP> mtu 65536 qdisc noqueue\n"),
        Sniff::Unsure
    );
    // `ip addr` starts the same way but its second line is also `link/…`; `ip -o` is one line.
    assert_eq!(iplink::sniff("garbage\n"), Sniff::No);
}
