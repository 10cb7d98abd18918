//! `/proc/net/snmp`, `/proc/net/netstat`, `/proc/net/snmp6` and `nstat -az` parsers against the
//! shared corpus (see `fixtures/PROVENANCE.md`) and captures from the development machine.

use crate::common;
use crate::common::{all_fixtures, fixture, fixture_path, head, insert_line, XorShift};
use parsers::proc::snmp::{self, Snmp};
use parsers::Sniff;

fn parse_clean(rel: &str) -> Snmp {
    let parsed = snmp::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

#[test]
fn proc_net_snmp_insights() {
    let s = parse_clean("proc-net-snmp/insights-core__proc-net-snmp.txt");
    let names: Vec<&str> = s.groups.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(names, ["Ip", "Icmp", "IcmpMsg", "Tcp", "Udp", "UdpLite"]);
    for (k, v) in [
        ("DefaultTTL", 64),
        ("InReceives", 2628),
        ("InHdrErrors", 0),
        ("InAddrErrors", 2),
        ("InDiscards", 0),
        ("InDelivers", 2624),
        ("ReasmFails", 10),
        ("OutRequests", 1618),
    ] {
        assert_eq!(s.get("Ip", k), Some(v), "Ip {k}");
    }
    assert_eq!(s.get("Tcp", "RtoMax"), Some(120_000));
    assert_eq!(s.get("Tcp", "MaxConn"), Some(-1), "signed");
    assert_eq!(s.get("Tcp", "ActiveOpens"), Some(25));
    assert_eq!(s.get("Tcp", "OutSegs"), Some(1520));
    assert_eq!(s.get("IcmpMsg", "OutType3"), Some(44));
    assert_eq!(s.get("Udp", "OutDatagrams"), Some(95));
    assert_eq!(s.get("Udp", "RcvbufErrors"), Some(1));
    assert_eq!(s.get("Udp", "NoPorts"), Some(0));
    assert_eq!(s.get_flat("UdpLiteNoPorts"), Some(10));
    let tcp = s.group("Tcp").unwrap();
    assert_eq!((tcp.line, tcp.counters[0].line), (7, 8));
}

#[test]
fn proc_net_snmp6_pairs() {
    let s = parse_clean("proc-net-snmp/insights-core__proc-net-snmp6.txt");
    assert_eq!(s.get("Ip6", "InReceives"), Some(757));
    assert_eq!(s.get_flat("Ip6InReceives"), Some(757));
    assert_eq!(s.get("Icmp6", "OutMLDv2Reports"), Some(34));
    assert_eq!(
        s.group("Icmp6")
            .unwrap()
            .counters
            .iter()
            .find(|c| c.name == "OutMLDv2Reports")
            .unwrap()
            .line,
        67
    );
    assert_eq!(s.groups.iter().map(|g| g.counters.len()).sum::<usize>(), 89);
}

#[test]
fn proc_net_netstat() {
    let s = parse_clean("proc-net-snmp/jc__jc-proc-net-netstat.txt");
    assert!(s.group("TcpExt").unwrap().counters.len() > 80);
    assert_eq!(s.get("IpExt", "InOctets"), Some(57_734_503));
    assert_eq!(s.get("IpExt", "OutOctets"), Some(42_330_709));
    assert_eq!(s.get("IpExt", "InBcastPkts"), Some(366));
    assert_eq!(s.get("TcpExt", "ListenOverflows"), Some(0));
}

#[test]
fn node_exporter_snmp() {
    let s = parse_clean("proc-net-snmp/node_exporter__proc-net-snmp-x86.txt");
    assert_eq!(s.get("Ip", "Forwarding"), Some(1));
    assert_eq!(s.get("Tcp", "ActiveOpens"), Some(3556));
    assert_eq!(s.get("Tcp", "CurrEstab"), Some(0));
    assert_eq!(s.get("Udp", "InDatagrams"), Some(88_542));
    assert_eq!(s.get("Udp", "InErrors"), Some(0));
}

#[test]
fn captured_files_agree_with_nstat() {
    // /proc/net/snmp, /proc/net/netstat, /proc/net/snmp6 and `nstat -az` (iproute2 6.1.0) read
    // within the same second.
    let snmp_file = parse_clean("captured-a/proc-net-snmp-1.txt");
    let netstat_file = parse_clean("captured-a/proc-net-netstat.txt");
    let snmp6 = parse_clean("captured-a/proc-net-snmp6.txt");
    let p = snmp::parse_nstat(&fixture("captured-a/nstat-az.txt")).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let n = p.value;
    assert_eq!(n.get("Ip", "InReceives"), Some(5865));
    assert_eq!(snmp_file.get("Ip", "InReceives"), Some(5865));
    assert_eq!(n.get_flat("TcpExtListenOverflows"), Some(0));
    assert_eq!(netstat_file.get("TcpExt", "ListenOverflows"), Some(0));
    assert_eq!(n.get("TcpExt", "TCPTimeouts"), Some(2));
    assert_eq!(netstat_file.get("TcpExt", "TCPTimeouts"), Some(2));
    let c = &n.group("TcpExt").unwrap().counters;
    assert_eq!(
        c.iter().find(|c| c.name == "ListenOverflows").unwrap().line,
        191
    );
    assert!(c.iter().all(|c| c.rate == Some(0.0)));
    assert!(n.group("MPTcpExt").is_some());
    assert!(n.group("Ip6").is_some() && n.group("Icmp6").is_some());
    assert_eq!(
        n.groups.iter().map(|g| g.counters.len()).sum::<usize>(),
        396
    );
    assert!(
        n.groups.iter().all(|g| !g.name.is_empty()),
        "every prefix is known"
    );
    assert_eq!(snmp6.get_flat("Ip6InReceives"), n.get_flat("Ip6InReceives"));
}

#[test]
fn damaged_inputs() {
    // Garbage between a names line and its values line, then a values line that is too short.
    let text = fixture("proc-net-snmp/insights-core__proc-net-snmp.txt");
    let text = insert_line(&text, 8, "garbage");
    let text = text.replace("Udp: 95 0 0 95 1 4", "Udp: 95 0 0");
    let p = snmp::parse(&text).unwrap();
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, [7, 8, 9, 11], "{:?}", p.issues);
    assert_eq!(p.value.get("Tcp", "ActiveOpens"), None);
    assert_eq!(p.value.get("Udp", "InErrors"), Some(0));
    assert_eq!(p.value.get("Udp", "RcvbufErrors"), None, "cut short");
    // Cut at the end of a names line: the names wait in vain.
    let cut = "Tcp: RtoAlgorithm RtoMin\nTcp: 1 200\nUdp: InDatagrams NoPorts\n";
    let p = snmp::parse(cut).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 3);
    // nstat rows with a bad value.
    let p = snmp::parse_nstat("#kernel\nIpInReceives 1 0.0\nTcpExtX abc 0.0\nWeird\n").unwrap();
    assert_eq!(p.issues.len(), 2);
    assert!(snmp::parse_nstat("#kernel\n").is_err());
    // 100 000 counters on one pair of lines.
    let names: String = (0..100_000).map(|i| format!(" C{i}")).collect();
    let vals: String = " 1".repeat(100_000);
    let p = snmp::parse(&format!("Tcp:{names}\nTcp:{vals}\n")).unwrap();
    assert_eq!(p.value.groups[0].counters.len(), 100_000);
}

#[test]
fn nstat_sniffing() {
    assert_eq!(
        snmp::sniff_nstat(&fixture("captured-a/nstat-az.txt")),
        Sniff::Yes
    );
    assert_eq!(snmp::sniff_nstat("#kernel\n"), Sniff::Unsure);
    assert_eq!(snmp::sniff(&fixture("captured-a/nstat-az.txt")), Sniff::No);
    for rel in all_fixtures() {
        let Ok(text) = std::fs::read_to_string(fixture_path(&rel)) else {
            continue;
        };
        if rel != "captured-a/nstat-az.txt" {
            assert_eq!(snmp::sniff_nstat(&text), Sniff::No, "{rel}");
        }
    }
}

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    let own = |rel: &str| {
        rel.starts_with("proc-net-snmp/")
            || (rel.starts_with("captured-a/proc-net-") && !rel.contains("net-dev"))
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
            let got = snmp::sniff(sample);
            if got != want {
                failures.push(format!("{rel} ({} bytes): {got:?}", sample.len()));
            }
        }
    }
    assert_eq!(owned, 4 + 4);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn random_bytes_are_refused() {
    for t in ["", "\n", "  \n\t\n", "\u{feff}"] {
        assert!(snmp::parse(t).is_err());
    }
    let mut rng = XorShift(0x0123_3210_4567_7654);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(snmp::parse(&text).is_err());
        assert_eq!(snmp::sniff(&text), Sniff::No);
    }
}
