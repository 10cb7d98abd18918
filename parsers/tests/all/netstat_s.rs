//! `netstat -s` parser against the shared corpus (net-tools 2.0 on RHEL, see
//! `fixtures/PROVENANCE.md`) and a capture from the development machine (net-tools 2.10).

use crate::common;
use crate::common::{all_fixtures, fixture, fixture_path, head, insert_line, XorShift};
use parsers::net::netstat_s::{self, NetstatS};
use parsers::Sniff;

fn parse_clean(rel: &str) -> NetstatS {
    let parsed = netstat_s::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

#[test]
fn rhel_net_tools_2_0() {
    let n = parse_clean("netstat/insights-core__netstat-s-rhel.txt");
    let mut names: Vec<String> = n.sections.iter().map(|s| s.name.to_lowercase()).collect();
    names.sort();
    assert_eq!(
        names,
        ["icmp", "icmpmsg", "ip", "ipext", "tcp", "tcpext", "udp", "udplite"]
    );
    assert_eq!(n.text("Ip", "forwarded"), Some(0));
    assert_eq!(n.text("Ip", "requests sent out"), Some(2_886_201));
    assert_eq!(n.get("Ip", "OutRequests"), Some(2_886_201));
    assert_eq!(n.text("Tcp", "bad segments received"), Some(0));
    assert_eq!(n.get("Tcp", "InErrs"), Some(0));
    // Older spellings.
    assert_eq!(
        n.get("Tcp", "OutSegs"),
        Some(2_890_303),
        "segments send out"
    );
    assert_eq!(
        n.get("Tcp", "RetransSegs"),
        Some(428),
        "segments retransmited"
    );
    assert_eq!(
        n.get("Tcp", "ActiveOpens"),
        Some(1648),
        "active connections openings"
    );
    assert_eq!(n.get("Ip", "FragOKs"), Some(4), "fragments received ok");
    // The ICMP output histogram.
    let icmp = n.section("Icmp").unwrap();
    let out_unreach = icmp
        .entries
        .iter()
        .find(|e| {
            e.histogram.as_deref() == Some("ICMP output histogram")
                && e.text == "destination unreachable"
        })
        .unwrap();
    assert_eq!((out_unreach.value, out_unreach.line), (254, 20));
    assert_eq!(out_unreach.key.as_deref(), Some("OutDestUnreachs"));
    assert_eq!(n.get("Icmp", "InDestUnreachs"), Some(107));
    assert_eq!(
        n.get("Icmp", "OutEchos"),
        Some(3),
        "echo request (singular)"
    );
    assert_eq!(n.get("Icmp", "OutMsgs"), Some(261), "after the histogram");
    assert_eq!(n.get("IcmpMsg", "OutType3"), Some(254));
    // TcpExt: sentences, the number inside, `Name: value`.
    assert_eq!(n.get("TcpExt", "DelayedACKLost"), Some(9));
    assert_eq!(
        n.text("TcpExt", "Quick ack mode was activated times"),
        Some(9)
    );
    assert_eq!(n.get("TcpExt", "TCPLossProbes"), Some(12));
    assert_eq!(n.get("TcpExt", "TCPHPHitsToUser"), Some(339_500));
    assert_eq!(n.get("TcpExt", "TCPPrequeued"), Some(999_263));
    assert_eq!(n.get("TcpExt", "TCPDeferAcceptDrop"), Some(537));
    assert_eq!(n.get("IpExt", "InBcastOctets"), Some(46_402_081));
    assert!(n.section("UdpLite").unwrap().entries.is_empty());
    // Every sentence of this file is in the table.
    let unknown: Vec<&str> = n
        .sections
        .iter()
        .flat_map(|s| &s.entries)
        .filter(|e| e.key.is_none())
        .map(|e| e.text.as_str())
        .collect();
    assert!(unknown.is_empty(), "{unknown:?}");
}

#[test]
fn captured_net_tools_2_10_agrees_with_proc() {
    let n = parse_clean("captured-a/netstat-s.txt");
    assert_eq!(n.sections.len(), 9);
    assert_eq!(n.get("Ip", "Forwarding"), Some(2));
    assert_eq!(n.get("Ip", "InReceives"), Some(5865));
    assert_eq!(
        n.get("Tcp", "ActiveOpens"),
        Some(44),
        "active connection openings"
    );
    assert_eq!(n.get("Tcp", "OutSegs"), Some(3293), "segments sent out");
    assert_eq!(
        n.get("Tcp", "RetransSegs"),
        Some(0),
        "segments retransmitted"
    );
    assert_eq!(n.get("TcpExt", "TCPTimeouts"), Some(2));
    assert_eq!(
        n.get("TcpExt", "ListenOverflows"),
        None,
        "zero, so not printed"
    );
    assert!(n.section("MPTcpExt").unwrap().entries.is_empty());
    // The same counters from /proc/net/snmp read in the same second.
    let proc = parsers::proc::snmp::parse(&fixture("captured-a/proc-net-snmp-1.txt"))
        .unwrap()
        .value;
    assert_eq!(proc.get("Ip", "InReceives"), Some(5865));
}

#[test]
fn derived_listen_overflows() {
    // Derived: the captured output with the two accept-queue lines net-tools prints when the
    // counters are not zero (sentences of net-tools' statistics.c).
    let text = insert_line(
        &fixture("captured-a/netstat-s.txt"),
        43,
        "    123 times the listen queue of a socket overflowed\n    130 SYNs to LISTEN sockets dropped",
    );
    let n = netstat_s::parse(&text).unwrap();
    assert!(n.issues.is_empty(), "{:?}", n.issues);
    let n = n.value;
    assert_eq!(n.get("TcpExt", "ListenOverflows"), Some(123));
    assert_eq!(n.get("TcpExt", "ListenDrops"), Some(130));
    let e = n
        .section("TcpExt")
        .unwrap()
        .entries
        .iter()
        .find(|e| e.value == 123)
        .unwrap();
    assert_eq!(
        (e.line, e.text.as_str()),
        (43, "times the listen queue of a socket overflowed")
    );
}

#[test]
fn damaged_inputs() {
    let text = insert_line(
        &fixture("netstat/insights-core__netstat-s-rhel.txt"),
        5,
        "    no number here",
    );
    let cut = &text[..text.find("InOctets").unwrap() + 5];
    let p = netstat_s::parse(cut).unwrap();
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, [5, 86], "{:?}", p.issues);
    assert!(netstat_s::parse("   5 lines without a section\n").is_err());
    let big: String = (0..100_000).map(|i| format!("    K{i}: {i}\n")).collect();
    let p = netstat_s::parse(&format!("TcpExt:\n{big}")).unwrap();
    assert_eq!(p.value.sections[0].entries.len(), 100_000);
}

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    let own = |rel: &str| {
        rel == "netstat/insights-core__netstat-s-rhel.txt" || rel == "captured-a/netstat-s.txt"
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
            let got = netstat_s::sniff(sample);
            if got != want {
                failures.push(format!("{rel} ({} bytes): {got:?}", sample.len()));
            }
        }
    }
    assert_eq!(owned, 2);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn random_bytes_are_refused() {
    for t in ["", "\n", "  \n\t\n", "\u{feff}"] {
        assert!(netstat_s::parse(t).is_err());
    }
    let mut rng = XorShift(0xFEDC_BA98_7654_3210);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(netstat_s::parse(&text).is_err());
        assert_eq!(netstat_s::sniff(&text), Sniff::No);
    }
}
