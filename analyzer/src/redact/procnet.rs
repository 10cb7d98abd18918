//! Addresses the kernel writes in hexadecimal: the socket and route tables of `/proc/net`.
//!
//! In: an entry's path and text (any entry: the tables are also found inside other files, such as
//! supportconfig's `network.txt`). Out, for discovery: the IPv4 and IPv6 addresses the tables
//! hold, added to [`Found`] as the same originals as their dotted and colon forms (10.1.2.3 in
//! hex is the map entry of 10.1.2.3 in text); for replacement: the text with each address
//! rewritten as the hex of its pseudonym, in the same width, byte order and case; for the leak
//! scan: every hex form of an address ([`v4_hex_forms`], [`v6_hex_forms`]).
//!
//! The tables and how the kernel prints their addresses (Linux 6.x sources named):
//! - `tcp`, `udp`, `raw` (`net/ipv4/tcp_ipv4.c` `get_tcp4_sock`, `net/ipv4/udp.c`,
//!   `net/ipv4/raw.c`): a header `sl  local_address rem_address   st …`, then rows
//!   `   0: 0100007F:0CEA 00000000:0000 0A …`. The address is the `__be32` printed with `%08X`,
//!   so in host byte order: 127.0.0.1 is `0100007F` on little-endian hosts (x86, arm64,
//!   ppc64le), `7F000001` on big-endian ones (s390x). The port is `%04X`, in network order.
//! - `tcp6`, `udp6`, `raw6` (`net/ipv6/tcp_ipv6.c` `get_tcp6_sock`, `net/ipv6/datagram.c`
//!   `__ip6_dgram_sock_seq_show`): header `sl  local_address                         remote_address …`;
//!   the address is its four 32-bit words each printed `%08X` in host order:
//!   `0000000000000000FFFF00007900000A` is `::ffff:10.0.0.121` on little-endian hosts.
//! - `route` (`net/ipv4/fib_trie.c` `fib_route_seq_show`): header `Iface\tDestination\tGateway
//!   \tFlags…`, then `eth0\t0000000A\t00000000\t0001\t…`: destination and gateway `%08X` in host
//!   order. The mask column is not an address and is left alone.
//! - `if_inet6` (`net/ipv6/addrconf.c` `if6_seq_show`) and `ipv6_route`
//!   (`net/ipv6/route.c` `ipv6_route_native_seq_show`): no header; the address is `%pi6`, 32
//!   lower-case hex digits in network order: `fe8000000000000002163efffe3fd91c 1a 40 20 80  eth0`
//!   and `<dst> <plen> <src> <plen> <next hop> <metric> <refcnt> <use> <flags>  <dev>`.
//!
//! Tables are recognised by their header line, by the path (`proc/net/tcp`,
//! `proc/<pid>/net/tcp`, as sos and the collector store them, with an optional `.start`-style
//! suffix: rows are then read even without their header), and for `if_inet6` and `ipv6_route`
//! by the rows' own shape, which nothing else has. A row that does not have the table's shape ends
//! the table. The byte order of each table is little-endian unless its loopback or link-local
//! rows read as such only in big-endian order. Special addresses (loopback, 0.0.0.0,
//! link-local, multicast, documentation) stay as they are, as in text; an IPv4-mapped IPv6
//! address keeps its `::ffff:` and has its IPv4 part pseudonymised.

use super::map::{v4_special, v6_special, Map};
use super::scan::{Counts, Found};
use super::Class;
use regex::Regex;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::sync::LazyLock;

/// How one address field is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// 8 hex digits: an IPv4 address as a 32-bit word in host order.
    V4,
    /// 32 hex digits: an IPv6 address as four 32-bit words in host order.
    V6Words,
    /// 32 hex digits: an IPv6 address in network order (`%pi6`).
    V6Net,
}

/// One address field: its byte range in the text, its form, and for host-order forms whether
/// its table is big-endian.
#[derive(Debug, Clone, Copy)]
struct Field {
    start: usize,
    end: usize,
    form: Form,
    big: bool,
}

/// Which table a run of rows belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Table {
    /// `tcp`, `udp`, `raw` and their IPv6 twins.
    Sockets,
    /// `route`.
    Route,
}

/// `proc/net/<table>` or `proc/<pid>/net/<table>` (also `proc/self/net/…`), with an optional
/// suffix such as `.start`.
static PATH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(^|/)proc/(([0-9]+|self)/)?net/(tcp6?|udp6?|udplite6?|raw6?|route)(\.[A-Za-z0-9_-]+)?$",
    )
    .unwrap()
});

/// The table a path names, if any.
fn table_of(path: &str) -> Option<Table> {
    let c = PATH.captures(path)?;
    Some(if &c[4] == "route" {
        Table::Route
    } else {
        Table::Sockets
    })
}

/// Whether `s` is all hex digits and `n` long.
fn hex(s: &[u8], n: usize) -> bool {
    s.len() == n && s.iter().all(u8::is_ascii_hexdigit)
}

/// Whitespace-separated tokens of a line, as byte ranges of the line.
fn tokens(line: &[u8]) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    let mut i = 0;
    while i < line.len() {
        while i < line.len() && line[i].is_ascii_whitespace() {
            i += 1;
        }
        let s = i;
        while i < line.len() && !line[i].is_ascii_whitespace() {
            i += 1;
        }
        if i > s {
            v.push((s, i));
        }
    }
    v
}

/// The address fields of a socket row (`  0: 0100007F:0CEA 00000000:0000 0A …`), relative to the
/// line.
fn socket_row(line: &[u8], t: &[(usize, usize)]) -> Option<[(usize, usize, Form); 2]> {
    if t.len() < 4 {
        return None;
    }
    let sl = &line[t[0].0..t[0].1];
    if sl.len() < 2
        || sl.last() != Some(&b':')
        || !sl[..sl.len() - 1].iter().all(u8::is_ascii_digit)
    {
        return None;
    }
    if !hex(&line[t[3].0..t[3].1], 2) {
        return None;
    }
    let addr = |(s, e): (usize, usize)| -> Option<(usize, usize, Form)> {
        let tok = &line[s..e];
        let colon = tok.iter().position(|&b| b == b':')?;
        if !hex(&tok[colon + 1..], 4) {
            return None;
        }
        let form = match colon {
            8 => Form::V4,
            32 => Form::V6Words,
            _ => return None,
        };
        hex(&tok[..colon], colon).then_some((s, s + colon, form))
    };
    let a = addr(t[1])?;
    let b = addr(t[2])?;
    (a.2 == b.2).then_some([a, b])
}

/// The address fields of a route row (`eth0\t0000000A\t00000000\t0001\t…`).
fn route_row(line: &[u8], t: &[(usize, usize)]) -> Option<[(usize, usize); 2]> {
    if t.len() < 8 || !hex(&line[t[3].0..t[3].1], 4) || !hex(&line[t[7].0..t[7].1], 8) {
        return None;
    }
    (hex(&line[t[1].0..t[1].1], 8) && hex(&line[t[2].0..t[2].1], 8)).then_some([t[1], t[2]])
}

/// The address fields of an `if_inet6` row (`<addr> 1a 40 20 80  eth0`) or an `ipv6_route` row.
fn v6_row(line: &[u8], t: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let tok = |i: usize| &line[t[i].0..t[i].1];
    if t.len() == 6 && hex(tok(0), 32) && (1..5).all(|i| hex(tok(i), 2)) {
        return vec![t[0]];
    }
    if t.len() == 10
        && [0, 2, 4].iter().all(|&i| hex(tok(i), 32))
        && [1, 3].iter().all(|&i| hex(tok(i), 2))
        && (5..9).all(|i| hex(tok(i), 8))
    {
        return vec![t[0], t[2], t[4]];
    }
    Vec::new()
}

/// Whether a line is a socket table's header.
fn socket_header(line: &[u8]) -> bool {
    let l = line.trim_ascii_start();
    l.starts_with(b"sl ") && memchr::memmem::find(l, b"local_address").is_some()
}

/// Whether a line is the route table's header.
fn route_header(line: &[u8]) -> bool {
    line.starts_with(b"Iface\tDestination\tGateway")
}

/// Every address field in `text`, in order.
fn fields(path: &str, text: &[u8]) -> Vec<Field> {
    let mut out = Vec::new();
    let mut state = table_of(path);
    // Fields of the current table, pending its byte-order decision.
    let mut table: Vec<Field> = Vec::new();
    let mut start = 0;
    let flush = |table: &mut Vec<Field>, out: &mut Vec<Field>, text: &[u8]| {
        let big = big_endian(text, table);
        out.extend(table.drain(..).map(|f| Field { big, ..f }));
    };
    while start < text.len() {
        let end = memchr::memchr(b'\n', &text[start..]).map_or(text.len(), |i| start + i);
        let line = &text[start..end];
        let base = start;
        start = end + 1;
        // Outside a table, only a header or an `if_inet6`/`ipv6_route` row (32 hex digits, then a
        // space) can start one: other lines are passed over without being split.
        if state.is_none() {
            let l = line.trim_ascii_start();
            let may = l.starts_with(b"sl ")
                || l.starts_with(b"Iface\t")
                || (line.get(32) == Some(&b' ') && hex(&line[..32], 32));
            if !may {
                continue;
            }
        }
        let t = tokens(line);
        if t.is_empty() {
            continue;
        }
        let row = match state {
            Some(Table::Sockets) => socket_row(line, &t).map(|fs| {
                for (s, e, form) in fs {
                    table.push(Field {
                        start: base + s,
                        end: base + e,
                        form,
                        big: false,
                    });
                }
            }),
            Some(Table::Route) => route_row(line, &t).map(|fs| {
                for (s, e) in fs {
                    table.push(Field {
                        start: base + s,
                        end: base + e,
                        form: Form::V4,
                        big: false,
                    });
                }
            }),
            None => None,
        };
        if row.is_some() {
            continue;
        }
        if state.is_some() {
            flush(&mut table, &mut out, text);
            state = None;
        }
        if socket_header(line) {
            state = Some(Table::Sockets);
        } else if route_header(line) {
            state = Some(Table::Route);
        } else {
            for (s, e) in v6_row(line, &t) {
                out.push(Field {
                    start: base + s,
                    end: base + e,
                    form: Form::V6Net,
                    big: true,
                });
            }
        }
    }
    flush(&mut table, &mut out, text);
    out
}

/// Whether a table's host-order fields read as big-endian: some loopback, link-local or mapped
/// address reads so only in that order, more often than any reads so in little-endian order.
fn big_endian(text: &[u8], table: &[Field]) -> bool {
    let (mut le, mut be) = (0, 0);
    for f in table {
        let h = &text[f.start..f.end];
        let tell = |big: bool| match decode(h, f.form, big) {
            Some(Addr::V4(a)) => a.is_loopback(),
            Some(Addr::V6(a)) => {
                let s = a.segments();
                a.is_loopback()
                    || (s[0] & 0xffc0) == 0xfe80
                    || a.to_ipv4_mapped().is_some_and(|v| v.is_loopback())
                    || (s[..5].iter().all(|&g| g == 0) && s[5] == 0xffff)
            }
            None => false,
        };
        le += usize::from(tell(false));
        be += usize::from(tell(true));
    }
    be > le
}

/// A decoded address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Addr {
    V4(Ipv4Addr),
    V6(Ipv6Addr),
}

/// The 32-bit words of `h` (8 hex digits each).
fn words(h: &[u8]) -> Option<Vec<u32>> {
    h.chunks(8)
        .map(|c| u32::from_str_radix(std::str::from_utf8(c).ok()?, 16).ok())
        .collect()
}

/// Decodes a field written in `form` (`big`: the table's host order is big-endian).
fn decode(h: &[u8], form: Form, big: bool) -> Option<Addr> {
    let w = words(h)?;
    let bytes = |w: u32| {
        if big {
            w.to_be_bytes()
        } else {
            w.to_le_bytes()
        }
    };
    match form {
        Form::V4 => Some(Addr::V4(Ipv4Addr::from(bytes(*w.first()?)))),
        Form::V6Words => {
            let mut b = [0u8; 16];
            for (i, x) in w.iter().enumerate().take(4) {
                b[i * 4..i * 4 + 4].copy_from_slice(&bytes(*x));
            }
            Some(Addr::V6(Ipv6Addr::from(b)))
        }
        Form::V6Net => {
            let mut b = [0u8; 16];
            for (i, x) in w.iter().enumerate().take(4) {
                b[i * 4..i * 4 + 4].copy_from_slice(&x.to_be_bytes());
            }
            Some(Addr::V6(Ipv6Addr::from(b)))
        }
    }
}

/// Encodes an address in `form`, upper-case or not.
fn encode(a: Addr, form: Form, big: bool, upper: bool) -> String {
    let word = |b: &[u8]| {
        let b: [u8; 4] = b.try_into().expect("4 bytes");
        let w = if big || form == Form::V6Net {
            u32::from_be_bytes(b)
        } else {
            u32::from_le_bytes(b)
        };
        if upper {
            format!("{w:08X}")
        } else {
            format!("{w:08x}")
        }
    };
    match a {
        Addr::V4(a) => word(&a.octets()),
        Addr::V6(a) => a.octets().chunks(4).map(word).collect(),
    }
}

/// The IPv4 address embedded in an IPv4-mapped (`::ffff:a.b.c.d`) or -compatible (`::a.b.c.d`)
/// IPv6 address, if it is one (and not `::` or `::1`).
fn embedded_v4(a: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = a.segments();
    if !s[..5].iter().all(|&g| g == 0) || !(s[5] == 0 || s[5] == 0xffff) {
        return None;
    }
    let o = a.octets();
    let v4 = Ipv4Addr::new(o[12], o[13], o[14], o[15]);
    (s[5] == 0xffff || u32::from(v4) > 1).then_some(v4)
}

/// Discovery: the addresses of every /proc/net table in `text`, added to `f` (special ones
/// left out, mapped IPv6 addresses as their IPv4 part).
pub fn discover(path: &str, text: &[u8], f: &mut Found) {
    for fl in fields(path, text) {
        match decode(&text[fl.start..fl.end], fl.form, fl.big) {
            Some(Addr::V4(a)) if !v4_special(a) => {
                f.ipv4.insert(a);
            }
            Some(Addr::V6(a)) => match embedded_v4(a) {
                Some(v4) if !v4_special(v4) => {
                    f.ipv4.insert(v4);
                }
                Some(_) => {}
                None if !v6_special(a) => {
                    f.ipv6.insert(a.to_string(), a);
                }
                None => {}
            },
            _ => {}
        }
    }
}

/// The pseudonym of a decoded address, `None` when it stays as it is.
fn pseudonym(a: Addr, map: &mut Map, counts: &mut Counts) -> Option<Addr> {
    let mut v4 = |a: Ipv4Addr, counts: &mut Counts| -> Option<Ipv4Addr> {
        if v4_special(a) {
            return None;
        }
        let p: Ipv4Addr = map.ipv4(a).parse().ok()?;
        *counts.entry(Class::Ipv4).or_default() += 1;
        Some(p)
    };
    match a {
        Addr::V4(a) => v4(a, counts).map(Addr::V4),
        Addr::V6(a) => match embedded_v4(a) {
            Some(e) => {
                let p = v4(e, counts)?;
                let mut o = a.octets();
                o[12..].copy_from_slice(&p.octets());
                Some(Addr::V6(Ipv6Addr::from(o)))
            }
            None if !v6_special(a) => {
                let p: Ipv6Addr = map.ipv6(a).parse().ok()?;
                *counts.entry(Class::Ipv6).or_default() += 1;
                Some(Addr::V6(p))
            }
            None => None,
        },
    }
}

/// Replacement: `text` with every table address rewritten as its pseudonym's hex (same width,
/// byte order and case), or `None` when nothing changed; replacements counted per class.
pub fn replace(path: &str, text: &[u8], map: &mut Map, counts: &mut Counts) -> Option<Vec<u8>> {
    let mut out: Option<Vec<u8>> = None;
    let mut last = 0;
    for fl in fields(path, text) {
        let h = &text[fl.start..fl.end];
        let Some(p) = decode(h, fl.form, fl.big).and_then(|a| pseudonym(a, map, counts)) else {
            continue;
        };
        let upper = if h.iter().any(u8::is_ascii_lowercase) {
            false
        } else {
            h.iter().any(u8::is_ascii_uppercase) || fl.form != Form::V6Net
        };
        let o = out.get_or_insert_with(|| Vec::with_capacity(text.len()));
        o.extend_from_slice(&text[last..fl.start]);
        o.extend_from_slice(encode(p, fl.form, fl.big, upper).as_bytes());
        last = fl.end;
    }
    let mut o = out?;
    o.extend_from_slice(&text[last..]);
    Some(o)
}

/// Every hex form of an IPv4 address in /proc/net tables, upper-case (the leak scan matches
/// without regard to case): 8 digits in little- and big-endian order, and its IPv4-mapped IPv6
/// address as four host-order words (`tcp6`) in both orders and in network order.
///
/// An 8-digit form starting `0000` (in little-endian order, a `/16` network such as 10.1.0.0)
/// is left out: it reads like the small counters printed in 8 hex digits elsewhere
/// (`/proc/net/softnet_stat`), which the scan would take for leaks. Such addresses are still
/// replaced inside the tables.
pub fn v4_hex_forms(a: Ipv4Addr) -> Vec<String> {
    let mut v: Vec<String> = [
        encode(Addr::V4(a), Form::V4, false, true),
        encode(Addr::V4(a), Form::V4, true, true),
    ]
    .into_iter()
    .filter(|f| !f.starts_with("0000"))
    .collect();
    v.extend(v6_hex_forms(a.to_ipv6_mapped()));
    v.sort();
    v.dedup();
    v
}

/// Every hex form of an IPv6 address in /proc/net tables, upper-case: four host-order words in
/// little-endian order (`tcp6` on x86), and network order (`if_inet6`, `ipv6_route`, and `tcp6`
/// on big-endian hosts).
pub fn v6_hex_forms(a: Ipv6Addr) -> Vec<String> {
    let mut v = vec![
        encode(Addr::V6(a), Form::V6Words, false, true),
        encode(Addr::V6(a), Form::V6Net, true, true),
    ];
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    // Rows as printed by Linux (sosreport of hotsos's `vault` data root, and the header of
    // `/proc/net/route` on Linux 6.18).
    const TCP: &str = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   0: 0100007F:0CEA 00000000:0000 0A 00000000:00000000 00:00000000 00000000   997        0 337245 1 0000000000000000 100 0 0 10 0\n   1: 7900000A:2009 7000000A:CBC2 01 00000000:00000000 02:00000136 00000000     0        0 363654 2 0000000000000000 20 4 18 5 4\n";
    const TCP6: &str = "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   3: 0000000000000000FFFF00007900000A:2009 0000000000000000FFFF00007000000A:CBC2 01 00000000:00000000 02:00000136 00000000     0        0 363654 2 0000000000000000 20 4 18 5 4\n   4: F804012A00007700000000000A000000:0050 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0000000000000000 100 0 0 10 0\n";
    const ROUTE: &str = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT   \neth0\t00000000\t0200000A\t0003\t0\t0\t0\t00000000\t0\t0\t0      \neth0\t0000000A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0      \n";
    const IF_INET6: &str = "2a0104f8007700000000000000000010 02 40 00 80     eth0\n00000000000000000000000000000001 01 80 10 80       lo\n";

    fn v4(s: &str) -> Ipv4Addr {
        s.parse().unwrap()
    }

    #[test]
    fn decodes_each_table() {
        let mut f = Found::default();
        discover("proc/282492/net/tcp", TCP.as_bytes(), &mut f);
        discover("x/tcp6", TCP6.as_bytes(), &mut f);
        discover("net.txt", ROUTE.as_bytes(), &mut f);
        discover("if_inet6", IF_INET6.as_bytes(), &mut f);
        let got: Vec<String> = f.ipv4.iter().map(ToString::to_string).collect();
        assert_eq!(got, ["10.0.0.0", "10.0.0.2", "10.0.0.112", "10.0.0.121"]);
        let got: Vec<&String> = f.ipv6.keys().collect();
        assert_eq!(got, ["2a01:4f8:77::10", "2a01:4f8:77::a"]);
    }

    #[test]
    fn replaces_in_the_same_width_order_and_case() {
        let mut map = Map::default();
        let mut c = Counts::new();
        let out = replace("proc/net/tcp", TCP.as_bytes(), &mut map, &mut c).unwrap();
        let out = String::from_utf8(out).unwrap();
        let p = map.ipv4(v4("10.0.0.121"));
        let hexp = encode(Addr::V4(v4(&p)), Form::V4, false, true);
        assert!(out.contains(&format!(" {hexp}:2009 ")), "{out}");
        assert!(out.contains("0100007F:0CEA 00000000:0000"), "{out}");
        assert!(!out.contains("7900000A") && !out.contains("7000000A"));
        assert_eq!(out.lines().count(), TCP.lines().count());
        assert_eq!(c[&Class::Ipv4], 2);
        // The mapped IPv4 of tcp6 is the same map entry as the IPv4 of tcp.
        let out6 = replace("tcp6", TCP6.as_bytes(), &mut map, &mut c).unwrap();
        let out6 = String::from_utf8(out6).unwrap();
        assert!(
            out6.contains(&format!("0000000000000000FFFF0000{hexp}:2009")),
            "{out6}"
        );
        // Network order, lower case, in if_inet6; loopback kept.
        let outi = replace("if_inet6", IF_INET6.as_bytes(), &mut map, &mut c).unwrap();
        let outi = String::from_utf8(outi).unwrap();
        let p6: Ipv6Addr = map
            .ipv6("2a01:4f8:77::10".parse().unwrap())
            .parse()
            .unwrap();
        assert!(
            outi.starts_with(&encode(Addr::V6(p6), Form::V6Net, true, false)),
            "{outi}"
        );
        assert!(outi.contains("00000000000000000000000000000001 01 80 10 80       lo"));
        // The route's mask is no address.
        let outr = replace("route", ROUTE.as_bytes(), &mut map, &mut c).unwrap();
        assert!(String::from_utf8(outr).unwrap().contains("\t00FFFFFF\t"));
    }

    #[test]
    fn big_endian_tables_are_told_by_their_loopback() {
        let be = "  sl  local_address rem_address   st tx_queue\n   0: 7F000001:0CEA 00000000:0000 0A 00000000:00000000\n   1: 0A000079:2009 0A000070:CBC2 01 00000000:00000000\n";
        let mut f = Found::default();
        discover("tcp", be.as_bytes(), &mut f);
        assert!(f.ipv4.contains(&v4("10.0.0.121")), "{:?}", f.ipv4);
    }

    #[test]
    fn other_text_is_left_alone() {
        let mut f = Found::default();
        let t = b"0100007F:0CEA 0A000079:2009 is not a table\nsl is a word\n   0: deadbeef\n";
        discover("log", t, &mut f);
        assert!(f.ipv4.is_empty() && f.ipv6.is_empty());
        let mut map = Map::default();
        assert!(replace("log", t, &mut map, &mut Counts::new()).is_none());
    }

    #[test]
    fn hex_forms() {
        let f = v4_hex_forms(v4("10.0.0.121"));
        for x in [
            "7900000A",
            "0A000079",
            "0000000000000000FFFF00007900000A",
            "00000000000000000000FFFF0A000079",
        ] {
            assert!(f.contains(&x.to_string()), "{x} not in {f:?}");
        }
        let f = v4_hex_forms(v4("10.1.0.0"));
        assert!(!f.contains(&"0000010A".to_string()), "{f:?}");
        assert!(f.contains(&"0A010000".to_string()), "{f:?}");
        let f = v6_hex_forms("2a01:4f8:77::10".parse().unwrap());
        assert_eq!(
            f,
            [
                "F804012A000077000000000010000000",
                "2A0104F8007700000000000000000010"
            ]
        );
    }
}
