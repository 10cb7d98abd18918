//! `rca redact` over the addresses the kernel writes in hexadecimal: the `/proc/net` socket,
//! route and IPv6 tables of a real sosreport (hotsos's `vault` data root, as sos stores them under
//! `proc/<pid>/net/`; `analyzer/tests/fixtures/sosreport/PROVENANCE.md`), with rows planted in
//! the kernel's own formats (`net/ipv4/tcp_ipv4.c` `get_tcp4_sock`, `net/ipv6/tcp_ipv6.c`
//! `get_tcp6_sock`, `net/ipv4/fib_trie.c` `fib_route_seq_show`, `net/ipv6/addrconf.c`
//! `if6_seq_show`, `net/ipv6/route.c`; rows shaped like the samples of jc's
//! `tests/fixtures/linux-proc/net_*`). None of the planted addresses survives in any form, each
//! table keeps its rows, states, ports and widths, an address in hex is the same map entry as in
//! text, and the leak scan catches each form put back.

use super::redact::{entries, rca, redact, repo, walk};
use std::net::{Ipv4Addr, Ipv6Addr};
use std::path::Path;

/// An IPv4 address as `/proc/net/tcp` prints it on a little-endian host.
fn le4(a: &str) -> String {
    let a: Ipv4Addr = a.parse().unwrap();
    format!("{:08X}", u32::from_le_bytes(a.octets()))
}

/// An IPv6 address as `/proc/net/tcp6` prints it on a little-endian host (four words).
fn words6(a: &str) -> String {
    let a: Ipv6Addr = a.parse().unwrap();
    a.octets()
        .chunks(4)
        .map(|c| format!("{:08X}", u32::from_le_bytes(c.try_into().unwrap())))
        .collect()
}

/// An IPv6 address as `if_inet6` and `ipv6_route` print it (network order, lower case).
fn net6(a: &str) -> String {
    let a: Ipv6Addr = a.parse().unwrap();
    a.octets().iter().map(|b| format!("{b:02x}")).collect()
}

const NET: &str = "proc/282492/net";

/// The planted sosreport tree in `dir`: the fixture's `proc/<pid>/net` tables with planted rows,
/// and an `etc/hosts` naming two of the addresses in text.
fn plant(dir: &Path) {
    let src = repo().join("analyzer/tests/fixtures/sosreport/hotsos-vault");
    let net = dir.join(NET);
    std::fs::create_dir_all(&net).unwrap();
    std::fs::create_dir_all(dir.join("etc")).unwrap();
    let read = |t: &str| std::fs::read_to_string(src.join(NET).join(t)).unwrap();
    let tail = "00000000:00000000 02:00000A6F 00000000  1000        0 149098 2 0000000000000000 20 4 0 10 -1";
    let mut tcp = read("tcp");
    tcp.push_str(&format!(
        " 200: {}:1F54 {}:C822 01 {tail}\n 201: {}:0016 {}:9C40 01 {tail}\n",
        le4("10.77.1.21"),
        le4("172.20.5.9"),
        le4("10.77.1.21"),
        le4("10.77.2.30")
    ));
    let mut tcp6 = read("tcp6");
    tcp6.push_str(&format!(
        "  200: {}:01BB {}:C350 01 {tail}\n  201: {}:1F54 {}:A0F1 06 {tail}\n",
        words6("2a01:4f8:77:1::21"),
        words6("2a01:4f8:99::7"),
        words6("::ffff:172.20.5.10"),
        words6("::ffff:10.77.1.21")
    ));
    let mut udp = read("udp");
    udp.push_str(&format!(
        " 9000: {}:007B 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 82079 2 0000000000000000 0\n",
        le4("192.168.40.7")
    ));
    let mut route = read("route");
    route.push_str(&format!(
        "eth1\t{}\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\neth1\t{}\t{}\t0003\t0\t0\t0\t0000FFFF\t0\t0\t0\n",
        le4("10.77.1.0"),
        le4("172.20.0.0"),
        le4("10.77.1.1")
    ));
    let mut if_inet6 = read("if_inet6");
    if_inet6.push_str(&format!(
        "{} 03 40 00 80     eth1\n",
        net6("2a01:4f8:77:1::21")
    ));
    let zero = "0".repeat(32);
    let mut ipv6_route = read("ipv6_route");
    ipv6_route.push_str(&format!(
        "{} 40 {zero} 00 {zero} 00000100 00000001 00000000 00000001     eth1\n{zero} 00 {zero} 00 {} 00000400 00000003 00000000 00000003     eth1\n",
        net6("2a01:4f8:77:1::"),
        net6("2a01:4f8:77:1::1")
    ));
    for (t, text) in [
        ("tcp", tcp),
        ("tcp6", tcp6),
        ("udp", udp),
        ("route", route),
        ("if_inet6", if_inet6),
        ("ipv6_route", ipv6_route),
    ] {
        std::fs::write(net.join(t), text).unwrap();
    }
    std::fs::write(
        dir.join("etc/hosts"),
        "127.0.0.1 localhost\n10.77.1.21 dbhost.acmebank.corp dbhost\n2a01:4f8:77:1::21 dbhost6.acmebank.corp\n",
    )
    .unwrap();
}

/// Every planted address, in text.
const V4: &[&str] = &[
    "10.77.1.21",
    "172.20.5.9",
    "10.77.2.30",
    "172.20.5.10",
    "192.168.40.7",
    "10.77.1.0",
    "172.20.0.0",
    "10.77.1.1",
];
const V6: &[&str] = &[
    "2a01:4f8:77:1::21",
    "2a01:4f8:99::7",
    "2a01:4f8:77:1::",
    "2a01:4f8:77:1::1",
];

/// A table's shape: per row, its tokens with each address replaced by `<width>` (after checking
/// it is hex); what must not change with redaction.
fn shape(table: &str, text: &str) -> Vec<Vec<String>> {
    let addr = |t: &str| {
        assert!(t.bytes().all(|b| b.is_ascii_hexdigit()), "{t} in {table}");
        format!("<{}>", t.len())
    };
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            let mut t: Vec<String> = l.split_whitespace().map(str::to_string).collect();
            let header = i == 0 && matches!(table, "tcp" | "tcp6" | "udp" | "route");
            if header {
                return t;
            }
            let at: &[usize] = match table {
                "tcp" | "tcp6" | "udp" => &[1, 2],
                "route" => &[1, 2],
                "ipv6_route" => &[0, 2, 4],
                _ => &[0],
            };
            for &k in at {
                let (a, port) = match t[k].split_once(':') {
                    Some((a, p)) => (a.to_string(), format!(":{p}")),
                    None => (t[k].clone(), String::new()),
                };
                t[k] = format!("{}{port}", addr(&a));
            }
            t
        })
        .collect()
}

#[test]
fn hex_addresses_of_proc_net_are_pseudonymised_consistently() {
    let tmp = tempfile::tempdir().unwrap();
    let bundle = tmp.path().join("sosreport-vault-2022-02-10");
    plant(&bundle);
    let out = tmp.path().join("clean.tar.gz");
    let map = tmp.path().join("map.json");
    let stdout = redact(&bundle, &out, &map, &["--verify"]);
    assert!(stdout.contains("verified: no original value"), "{stdout}");
    let got = entries(&out);
    let text = |suffix: &str| -> String {
        let (_, b) = got
            .iter()
            .find(|(p, _)| p.ends_with(suffix))
            .unwrap_or_else(|| panic!("{suffix} missing"));
        String::from_utf8(b.clone()).unwrap()
    };

    // No planted address survives, in text or in any hex form.
    let mut forms: Vec<String> = Vec::new();
    for a in V4 {
        forms.extend([a.to_string(), le4(a), words6(&format!("::ffff:{a}"))]);
    }
    for a in V6 {
        forms.extend([a.to_string(), words6(a), net6(a)]);
    }
    let mut survivors = Vec::new();
    for (p, b) in &got {
        let b = b.to_ascii_lowercase();
        for f in &forms {
            if memchr::memmem::find(&b, f.to_ascii_lowercase().as_bytes()).is_some() {
                survivors.push(format!("{f} in {p}"));
            }
        }
    }
    assert!(survivors.is_empty(), "survived:\n{}", survivors.join("\n"));

    // Each table reads as before: same rows, states, ports, queues, widths.
    for t in ["tcp", "tcp6", "udp", "route", "if_inet6", "ipv6_route"] {
        let before = std::fs::read_to_string(bundle.join(NET).join(t)).unwrap();
        let after = text(&format!("net/{t}"));
        assert_eq!(shape(t, &before), shape(t, &after), "{t}");
        assert_ne!(before, after, "{t} unchanged");
    }
    // Special addresses stay: loopback, 0.0.0.0, link-local, masks.
    assert!(text("net/tcp").contains("   0: 0100007F:0CEA 00000000:0000 0A"));
    assert!(text("net/if_inet6").contains("fe8000000000000002163efffe3fd91c 1a 40 20 80     eth0"));
    assert!(text("net/if_inet6").contains("00000000000000000000000000000001 01 80 10 80       lo"));
    assert!(
        text("net/route").contains("\t00FFFFFF\t") && text("net/route").contains("\t0000FFFF\t")
    );

    // The same original is the same pseudonym in hex and in text.
    let m: serde_json::Value = serde_json::from_slice(&std::fs::read(&map).unwrap()).unwrap();
    let p4 = m["ipv4"]["10.77.1.21"].as_str().unwrap();
    let p6 = m["ipv6"]["2a01:4f8:77:1::21"].as_str().unwrap();
    let hosts = text("etc/hosts");
    assert!(
        hosts.contains(&format!("{p4} ")) && hosts.contains(&format!("{p6} ")),
        "{hosts}"
    );
    assert!(text("net/tcp").contains(&format!(" {}:1F54 ", le4(p4))));
    assert!(text("net/tcp6").contains(&format!(" {}:01BB ", words6(p6))));
    assert!(text("net/tcp6").contains(&format!(" {}:A0F1 ", words6(&format!("::ffff:{p4}")))));
    assert!(text("net/if_inet6").contains(&format!("{} 03 40 00 80", net6(p6))));
    // The /24 of the route is the pseudo /24 of the host in it.
    let p_net = m["ipv4"]["10.77.1.0"].as_str().unwrap();
    assert_eq!(
        p_net.rsplit_once('.').unwrap().0,
        p4.rsplit_once('.').unwrap().0
    );
    assert!(text("net/route").contains(&format!("eth1\t{}\t00000000\t0001", le4(p_net))));
    let summary: serde_json::Value = serde_json::from_str(&text("redaction.json")).unwrap();
    assert!(
        !summary["limits"].to_string().contains("not recognised"),
        "{summary}"
    );
}

#[test]
fn the_leak_scan_catches_every_form_put_back() {
    let tmp = tempfile::tempdir().unwrap();
    let bundle = tmp.path().join("sosreport-vault-2022-02-10");
    plant(&bundle);
    let out = tmp.path().join("clean.tar.gz");
    let map = tmp.path().join("map.json");
    redact(&bundle, &out, &map, &[]);
    let unpacked = tmp.path().join("unpacked");
    tar::Archive::new(flate2::read::GzDecoder::new(
        std::fs::File::open(&out).unwrap(),
    ))
    .unpack(&unpacked)
    .unwrap();
    let verify = || {
        rca(&[
            "redact".as_ref(),
            "--verify-only".as_ref(),
            unpacked.as_os_str(),
            "--map".as_ref(),
            map.as_os_str(),
        ])
    };
    let (code, stdout, stderr) = verify();
    assert_eq!(code, 0, "{stdout}{stderr}");
    let mut files = Vec::new();
    walk(&unpacked, &mut files);
    let tail = "0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0000000000000000 100 0 0 10 0";
    let cases = [
        // Hex IPv4, as tcp prints it.
        (
            format!("{NET}/tcp"),
            format!(" 999: {}:1F54 00000000:0000 {tail}", le4("10.77.1.21")),
            le4("10.77.1.21"),
        ),
        // Hex IPv6, four host-order words, as tcp6 prints it.
        (
            format!("{NET}/tcp6"),
            format!(
                " 999: {}:01BB {}:0000 {tail}",
                words6("2a01:4f8:99::7"),
                "0".repeat(32)
            ),
            words6("2a01:4f8:99::7"),
        ),
        // Hex IPv6 in network order, as if_inet6 prints it.
        (
            format!("{NET}/if_inet6"),
            format!("{} 04 40 00 80     eth2", net6("2a01:4f8:77:1::21")),
            net6("2a01:4f8:77:1::21"),
        ),
        // Expanded, upper-case IPv6.
        (
            "etc/hosts".into(),
            "2A01:04F8:0077:0001:0000:0000:0000:0021 back".into(),
            "2A01:04F8:0077:0001:0000:0000:0000:0021".into(),
        ),
        // Leading zeros kept, zeros compressed.
        (
            "etc/hosts".into(),
            "2a01:04f8:0099::0007 back".into(),
            "2a01:04f8:0099::0007".into(),
        ),
        // Mapped IPv4, in hex groups.
        (
            "etc/hosts".into(),
            "::ffff:ac14:509 back".into(),
            "::ffff:ac14:509".into(),
        ),
        // Mapped IPv4, dotted.
        (
            "etc/hosts".into(),
            "::FFFF:192.168.40.7 back".into(),
            "::FFFF:192.168.40.7".into(),
        ),
    ];
    for (file, line, value) in cases {
        let f = files
            .iter()
            .find(|p| p.ends_with(&file))
            .unwrap_or_else(|| panic!("{file} not in the redacted bundle"));
        let clean = std::fs::read(f).unwrap();
        let mut b = clean.clone();
        b.extend_from_slice(format!("{line}\n").as_bytes());
        std::fs::write(f, &b).unwrap();
        let (code, _, stderr) = verify();
        assert_eq!(code, 1, "{value} put back in {file} not caught:\n{stderr}");
        assert!(
            stderr.contains(&format!("{file}:")) && stderr.contains(&value),
            "{value}:\n{stderr}"
        );
        std::fs::write(f, &clean).unwrap();
    }
}
