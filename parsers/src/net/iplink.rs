//! `ip -s link` and `ip -s -s link` (iproute2 4.x–6.x): interfaces with their flags, MTU,
//! queueing discipline, state, bond/bridge master, link address and RX/TX counters.
//!
//! Sample (iproute2 6.1, `ip -s -s link`):
//! ```text
//! 6: veth-b0@veth-b1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue master br-b0 state UP mode DEFAULT group default qlen 1000
//!     link/ether f2:45:22:88:50:d9 brd ff:ff:ff:ff:ff:ff
//!     RX:  bytes packets errors dropped  missed   mcast
//!            516       6      0       0       0       0
//!     RX errors:  length    crc   frame    fifo overrun
//!                      0      0       0       0       0
//!     TX:  bytes packets errors dropped carrier collsns
//!           1220      14      0       0       0       0
//!     TX errors: aborted   fifo  window heartbt transns
//!                      0      0       0       0       0
//! ```
//! Counter blocks are read by their header names, so the older layout (`RX: bytes packets errors
//! dropped overrun mcast`, iproute2 before 5.x) and the newer one (`missed` instead of
//! `overrun`) are both kept as printed. Counters are totals since the interface was created.

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One block of counters (`RX:`, `TX:`, `RX errors:`, `TX errors:`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Counters {
    /// `(name, value)` in header order; names as printed (`bytes`, `packets`, `errors`,
    /// `dropped`, `missed`/`overrun`, `mcast`, `carrier`, `collsns`, `length`, `crc`, …).
    pub values: Vec<(String, u64)>,
    /// 1-based input line of the numbers.
    pub line: usize,
}

impl Counters {
    /// A counter by its header name.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.values.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }
}

/// One interface.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Link {
    /// Interface index.
    pub index: u32,
    /// Name without the `@parent` part (`veth-b0`, `eth0.100`).
    pub name: String,
    /// The part after `@` (`veth-b1` for a veth pair, `eth0` for a VLAN, `NONE` for tunnels
    /// without a lower device).
    pub parent: Option<String>,
    /// Flags between `<…>` (`BROADCAST`, `MULTICAST`, `UP`, `LOWER_UP`, `NO-CARRIER`, `SLAVE`,
    /// `MASTER`).
    pub flags: Vec<String>,
    /// `mtu` in bytes.
    pub mtu: Option<u32>,
    /// `qdisc` (`noqueue`, `pfifo_fast`, `mq`, `fq_codel`).
    pub qdisc: Option<String>,
    /// `master` device (a bond or bridge this interface is enslaved to).
    pub master: Option<String>,
    /// `state` (`UP`, `DOWN`, `UNKNOWN`, `LOWERLAYERDOWN`).
    pub state: Option<String>,
    /// `qlen`: transmit queue length in packets.
    pub qlen: Option<u32>,
    /// Every `key value` pair of the first line, as printed (incl. `mode`, `group`).
    pub attrs: Vec<(String, String)>,
    /// Link type from the `link/…` line (`ether`, `loopback`, `none`, `ipip`).
    pub link_type: Option<String>,
    /// Link-layer address (`02:fc:00:00:00:01`).
    pub address: Option<String>,
    /// Permanent address (`permaddr`, a bond slave's own MAC).
    pub permaddr: Option<String>,
    /// Alternative names (`altname enp0s3`).
    pub altnames: Vec<String>,
    /// `RX:` counters.
    pub rx: Option<Counters>,
    /// `TX:` counters.
    pub tx: Option<Counters>,
    /// `RX errors:` counters (`-s -s`).
    pub rx_errors: Option<Counters>,
    /// `TX errors:` counters (`-s -s`).
    pub tx_errors: Option<Counters>,
    /// 1-based input line of the interface's first line.
    pub line: usize,
}

impl Link {
    /// Whether `UP` is among the flags (administratively up).
    pub fn is_up(&self) -> bool {
        self.flags.iter().any(|f| f == "UP")
    }
}

/// Parsed `ip -s link`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Links {
    /// Interfaces in input order.
    pub links: Vec<Link>,
}

impl Links {
    /// Interface by name (without `@parent`).
    pub fn get(&self, name: &str) -> Option<&Link> {
        self.links.iter().find(|l| l.name == name)
    }

    /// Interfaces enslaved to `master` (bond or bridge members).
    pub fn members<'a>(&'a self, master: &'a str) -> impl Iterator<Item = &'a Link> + 'a {
        self.links
            .iter()
            .filter(move |l| l.master.as_deref() == Some(master))
    }
}

/// `N: name[@parent]: <FLAGS> key value …`.
fn link_header(line: &str, n: usize) -> Option<Result<Link, String>> {
    let (idx, rest) = line.split_once(": ")?;
    let index: u32 = idx.trim().parse().ok()?;
    if line.starts_with([' ', '\t']) {
        return None;
    }
    let (name_part, rest) = match rest.split_once(": ") {
        Some(x) => x,
        None => {
            return Some(Err(format!(
                "expected `N: NAME: <FLAGS> …`, found `{}`",
                excerpt(line)
            )))
        }
    };
    let rest = rest.trim();
    let Some(flags_part) = rest.strip_prefix('<') else {
        return Some(Err(format!(
            "expected `<FLAGS>` after the name, found `{}`",
            excerpt(rest)
        )));
    };
    let Some((flags, attrs)) = flags_part.split_once('>') else {
        return Some(Err(format!("unclosed `<` in `{}`", excerpt(line))));
    };
    let (name, parent) = match name_part.split_once('@') {
        Some((a, b)) => (a.to_string(), Some(b.to_string())),
        None => (name_part.to_string(), None),
    };
    let mut link = Link {
        index,
        name,
        parent,
        flags: flags
            .split(',')
            .filter(|f| !f.is_empty())
            .map(str::to_string)
            .collect(),
        line: n,
        ..Default::default()
    };
    let toks: Vec<&str> = attrs.split_ascii_whitespace().collect();
    for pair in toks.chunks(2) {
        let [k, v] = pair else {
            return Some(Err(format!("`{}` has no value", excerpt(pair[0]))));
        };
        match *k {
            "mtu" => link.mtu = v.parse().ok(),
            "qdisc" => link.qdisc = Some(v.to_string()),
            "master" => link.master = Some(v.to_string()),
            "state" => link.state = Some(v.to_string()),
            "qlen" => link.qlen = v.parse().ok(),
            _ => {}
        }
        link.attrs.push((k.to_string(), v.to_string()));
    }
    Some(Ok(link))
}

/// Is this `ip link` / `ip -s link` output?
///
/// `Yes` when the first non-blank line is `1: lo: <…> mtu …` (an interface line with flags and
/// `mtu`), the next line is indented `link/…` and no indented `inet`/`inet6` address line
/// follows in the head; `No` otherwise: `ip address` prints the same interface lines with the
/// addresses under them, and is another kind (`ip-addr`).
pub fn sniff(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    let Some((first, true)) = lines.next() else {
        return Sniff::No;
    };
    match link_header(first, 0) {
        Some(Ok(l)) if l.mtu.is_some() => {}
        _ => return Sniff::No,
    }
    match lines.next() {
        Some((l, _)) if l.starts_with([' ', '\t']) && l.trim_start().starts_with("link/") => {}
        Some(_) => return Sniff::No,
        None => return Sniff::Unsure,
    }
    let address = lines.any(|(l, _)| {
        l.starts_with([' ', '\t']) && {
            let t = l.trim_start();
            t.starts_with("inet ") || t.starts_with("inet6 ")
        }
    });
    if address {
        Sniff::No
    } else {
        Sniff::Yes
    }
}

/// Which counter block a header starts.
#[derive(Clone, Copy)]
enum Block {
    Rx,
    Tx,
    RxErrors,
    TxErrors,
}

/// Parses `ip link`, `ip -s link` and `ip -s -s link`.
///
/// Errors: [`ParseError::Unusable`] when no interface line is found. A counter line whose
/// count of numbers differs from its header is kept as far as it goes, with an issue.
pub fn parse(text: &str) -> Result<Parsed<Links>, ParseError> {
    let mut out = Links::default();
    let mut issues = Issues::default();
    // Header names of the counter block whose numbers come next.
    let mut pending: Option<(Block, Vec<String>, usize)> = None;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(res) = link_header(line, n) {
            pending = None;
            match res {
                Ok(l) => out.links.push(l),
                Err(msg) => issues.push(n, || msg),
            }
            continue;
        }
        let Some(link) = out.links.last_mut() else {
            issues.push(n, || {
                format!(
                    "expected an interface line `N: NAME: <FLAGS> …`, found `{}`",
                    excerpt(line)
                )
            });
            continue;
        };
        if let Some((block, names, header_line)) = pending.take() {
            let mut values = Vec::with_capacity(names.len());
            let mut bad = None;
            for (name, tok) in names.iter().zip(t.split_ascii_whitespace()) {
                match tok.parse::<u64>() {
                    Ok(v) => values.push((name.clone(), v)),
                    Err(_) => {
                        bad = Some(tok);
                        break;
                    }
                }
            }
            if let Some(tok) = bad {
                issues.push(n, || {
                    format!(
                        "expected the counters named on line {header_line}, found `{}`",
                        excerpt(tok)
                    )
                });
                if values.is_empty() {
                    continue;
                }
            } else if values.len() != names.len()
                || t.split_ascii_whitespace().count() != names.len()
            {
                let found = t.split_ascii_whitespace().count();
                issues.push(n, || {
                    format!(
                        "expected {} counters (as named on line {header_line}), found {found}",
                        names.len()
                    )
                });
            }
            let c = Some(Counters { values, line: n });
            match block {
                Block::Rx => link.rx = c,
                Block::Tx => link.tx = c,
                Block::RxErrors => link.rx_errors = c,
                Block::TxErrors => link.tx_errors = c,
            }
            continue;
        }
        let block = [
            ("RX errors:", Block::RxErrors),
            ("TX errors:", Block::TxErrors),
            ("RX:", Block::Rx),
            ("TX:", Block::Tx),
        ]
        .into_iter()
        .find_map(|(prefix, b)| t.strip_prefix(prefix).map(|r| (b, r)));
        if let Some((block, names)) = block {
            let names: Vec<String> = names.split_ascii_whitespace().map(str::to_string).collect();
            if names.is_empty() {
                issues.push(n, || {
                    format!("counter header without names: `{}`", excerpt(t))
                });
            } else {
                pending = Some((block, names, n));
            }
            continue;
        }
        let mut toks = t.split_ascii_whitespace();
        match toks.next() {
            Some(l) if l.starts_with("link/") => {
                link.link_type = l.strip_prefix("link/").map(str::to_string);
                let rest: Vec<&str> = toks.collect();
                if let Some(addr) = rest.first().filter(|a| !matches!(**a, "brd" | "permaddr")) {
                    link.address = Some(addr.to_string());
                }
                if let Some(i) = rest.iter().position(|t| *t == "permaddr") {
                    link.permaddr = rest.get(i + 1).map(|s| s.to_string());
                }
            }
            Some("altname") => link.altnames.extend(toks.map(str::to_string)),
            // `alias`, `vf N …`, `ip -d` details: not needed, not an error.
            Some(_) => {}
            None => {}
        }
    }
    if out.links.is_empty() {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty".to_string()
            } else {
                "no interface line `N: NAME: <FLAGS> mtu …`".to_string()
            },
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
