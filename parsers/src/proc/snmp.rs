//! Kernel SNMP/MIB counters: `/proc/net/snmp`, `/proc/net/netstat`, `/proc/net/snmp6` and
//! `nstat -az` (iproute2), all read into one [`Snmp`] record of groups of counters.
//!
//! - `/proc/net/snmp` and `/proc/net/netstat` print each group as two lines, names then values:
//!   `Tcp: RtoAlgorithm RtoMin … ` / `Tcp: 1 200 …` (groups `Ip`, `Icmp`, `IcmpMsg`, `Tcp`,
//!   `Udp`, `UdpLite`; `TcpExt`, `IpExt`, `MPTcpExt`). Values are signed: `Tcp MaxConn` is -1.
//! - `/proc/net/snmp6` prints one `Ip6InReceives   757` pair per line; the group is the name
//!   up to its first `6` (`Ip6`, `Icmp6`, `Udp6`, `UdpLite6`), as net-tools splits it.
//! - `nstat -az` prints a `#kernel` line then `IpInReceives   5865   0.0` rows: the group
//!   prefix glued to the counter name, the absolute value (`-a`) and a rate. Without `-a`
//!   nstat prints increments since its previous run, not totals; the output does not say which.
//!
//! Counters of interest for the cases rca diagnoses: `TcpExt ListenOverflows` and
//! `ListenDrops` (accept queue full), `Tcp RetransSegs`, `Udp RcvbufErrors`, `InErrors`,
//! `IpExt InNoRoutes`.
//!
//! Sample input (`/proc/net/snmp`):
//! ```text
//! Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts
//! Tcp: 1 200 120000 -1 25 4 0 0 1 2529 1520 1 0 9
//! Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors
//! Udp: 95 0 0 95 1 4
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// Counters by group.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Snmp {
    /// Groups in input order.
    pub groups: Vec<SnmpGroup>,
}

/// One group (`Tcp`, `TcpExt`, `Ip6`, …).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SnmpGroup {
    /// Group name as printed (`TcpExt`); empty for nstat names with an unknown prefix.
    pub name: String,
    /// 1-based input line where the group starts (the names line for paired groups).
    pub line: usize,
    /// Counters in input order.
    pub counters: Vec<SnmpCounter>,
}

/// One counter.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SnmpCounter {
    /// Counter name without the group prefix (`ListenOverflows`).
    pub name: String,
    /// Value (counters since boot; a few, like `MaxConn`, are settings and may be -1).
    pub value: i64,
    /// 1-based input line of the value.
    pub line: usize,
    /// `nstat`: the rate column (per second, averaged by nstat's daemon or its last run).
    pub rate: Option<f64>,
}

impl Snmp {
    /// The group named `name`.
    pub fn group(&self, name: &str) -> Option<&SnmpGroup> {
        self.groups.iter().find(|g| g.name == name)
    }

    /// Value of `counter` in `group`, e.g. `get("TcpExt", "ListenOverflows")`.
    pub fn get(&self, group: &str, counter: &str) -> Option<i64> {
        self.groups
            .iter()
            .filter(|g| g.name == group)
            .flat_map(|g| &g.counters)
            .find(|c| c.name == counter)
            .map(|c| c.value)
    }

    /// Value by nstat-style name, the group glued to the counter: `TcpExtListenOverflows`,
    /// `Ip6InReceives`.
    pub fn get_flat(&self, name: &str) -> Option<i64> {
        self.groups.iter().find_map(|g| {
            let counter = name.strip_prefix(g.name.as_str())?;
            g.counters
                .iter()
                .find(|c| c.name == counter)
                .map(|c| c.value)
        })
    }

    /// The group for a new counter: the last group when it has this name, else a new one.
    fn group_mut(&mut self, name: &str, line: usize) -> &mut SnmpGroup {
        let reuse = self.groups.last().is_some_and(|g| g.name == name);
        if !reuse {
            self.groups.push(SnmpGroup {
                name: name.to_string(),
                line,
                counters: Vec::new(),
            });
        }
        let last = self.groups.len() - 1;
        &mut self.groups[last]
    }
}

/// `Name:` at the start of a paired line.
fn group_prefix(line: &str) -> Option<(&str, &str)> {
    let (name, rest) = line.split_once(':')?;
    (!name.is_empty()
        && name.len() <= 32
        && name.bytes().all(|b| b.is_ascii_alphanumeric())
        && name.as_bytes()[0].is_ascii_uppercase())
    .then_some((name, rest))
}

/// A counter name: letters, digits, `_`, starting with a letter.
fn is_counter_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 96
        && s.as_bytes()[0].is_ascii_alphabetic()
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// `Ip6InReceives` → (`Ip6`, `InReceives`): up to and including the first `6`.
fn split6(name: &str) -> Option<(&str, &str)> {
    let i = name.find('6')?;
    let (g, c) = name.split_at(i + 1);
    (!c.is_empty()).then_some((g, c))
}

/// `/proc/net/snmp`, `/proc/net/netstat` or `/proc/net/snmp6`?
///
/// `Yes` when the head starts with the first section of either file, `Ip: Name Name …`
/// (`/proc/net/snmp`) or `TcpExt: Name Name …` (`/proc/net/netstat`), followed by the same
/// group's `Group: 1 2 …` line, or with `Ip6…`/`Icmp6…`/`Udp6…` name-value lines; `Unsure`
/// when the head ends inside that first line; `No` otherwise: one `Word: words` line (`Status:
/// active`, `Mitigation: PTI`) is no counter table (`nstat` output is [`sniff_nstat`]'s).
pub fn sniff(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    let Some((first, first_complete)) = lines.next() else {
        return Sniff::No;
    };
    if let Some((group, names)) = group_prefix(first) {
        if !matches!(group, "Ip" | "TcpExt")
            || names.split_ascii_whitespace().count() < 2
            || !names.split_ascii_whitespace().all(is_counter_name)
        {
            return Sniff::No;
        }
        return match lines.next() {
            Some((second, _)) => match group_prefix(second) {
                Some((g2, vals))
                    if g2 == group
                        && vals
                            .split_ascii_whitespace()
                            .all(|v| v.parse::<i64>().is_ok()) =>
                {
                    Sniff::Yes
                }
                _ => Sniff::No,
            },
            None if !first_complete => Sniff::Unsure,
            None => Sniff::No,
        };
    }
    let mut toks = first.split_ascii_whitespace();
    match (toks.next(), toks.next(), toks.next()) {
        (Some(name), Some(v), None)
            if split6(name)
                .is_some_and(|(g, _)| matches!(g, "Ip6" | "Icmp6" | "Udp6" | "UdpLite6"))
                && v.parse::<i64>().is_ok() =>
        {
            Sniff::Yes
        }
        _ => Sniff::No,
    }
}

/// Parses `/proc/net/snmp`, `/proc/net/netstat` or `/proc/net/snmp6` (use [`parse_nstat`] for
/// `nstat` output).
///
/// Errors: [`ParseError::Unusable`] when no counter is found. A values line whose group or
/// length does not match its names line becomes an issue (the counters it has are kept).
pub fn parse(text: &str) -> Result<Parsed<Snmp>, ParseError> {
    let mut out = Snmp::default();
    let mut issues = Issues::default();
    // The names line waiting for its values line.
    let mut pending: Option<(usize, &str, Vec<&str>)> = None;
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        if let Some((group, rest)) = group_prefix(line) {
            let toks: Vec<&str> = rest.split_ascii_whitespace().collect();
            let is_values = !toks.is_empty() && toks.iter().all(|t| t.parse::<i64>().is_ok());
            match pending.take() {
                Some((hl, g, names)) if is_values && g == group => {
                    if names.len() != toks.len() {
                        let (nn, nv) = (names.len(), toks.len());
                        issues.push(n, || {
                            format!(
                                "`{group}`: expected {nn} values as named on line {hl}, found \
                                 {nv}; kept the first {}",
                                nn.min(nv)
                            )
                        });
                    }
                    let grp = out.group_mut(group, hl);
                    for (name, v) in names.iter().zip(&toks) {
                        grp.counters.push(SnmpCounter {
                            name: name.to_string(),
                            value: v.parse().unwrap_or_default(),
                            line: n,
                            rate: None,
                        });
                    }
                }
                other => {
                    if let Some((hl, g, _)) = other {
                        issues.push(hl, || {
                            format!("`{g}`: names line is not followed by its values line")
                        });
                    }
                    if is_values {
                        issues.push(n, || {
                            format!(
                                "`{group}`: values line without a names line before it: `{}`",
                                excerpt(line)
                            )
                        });
                    } else if toks.iter().all(|t| is_counter_name(t)) {
                        pending = Some((n, group, toks));
                    } else {
                        issues.push(n, || {
                            format!(
                                "`{group}`: expected counter names or values, found `{}`",
                                excerpt(line)
                            )
                        });
                    }
                }
            }
            continue;
        }
        if let Some((hl, g, _)) = pending.take() {
            issues.push(hl, || {
                format!("`{g}`: names line is not followed by its values line")
            });
        }
        // snmp6: `Name value`.
        let mut toks = line.split_ascii_whitespace();
        match (toks.next(), toks.next().map(str::parse::<i64>), toks.next()) {
            (Some(name), Some(Ok(value)), None) if is_counter_name(name) => {
                let (group, counter) = split6(name).unwrap_or(("", name));
                out.group_mut(group, n).counters.push(SnmpCounter {
                    name: counter.to_string(),
                    value,
                    line: n,
                    rate: None,
                });
            }
            _ => issues.push(n, || {
                format!(
                    "expected `Group: names…` / `Group: values…` or `Name value`, found `{}`",
                    excerpt(line)
                )
            }),
        }
    }
    if let Some((hl, g, _)) = pending.take() {
        issues.push(hl, || {
            format!("`{g}`: names line is not followed by its values line (input cut short?)")
        });
    }
    finish(out, issues, "no SNMP counter found")
}

fn finish(out: Snmp, issues: Issues, reason: &str) -> Result<Parsed<Snmp>, ParseError> {
    if out.groups.iter().all(|g| g.counters.is_empty()) {
        return Err(ParseError::unusable(None, reason));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// Group prefixes of nstat names, longest first so that `TcpExt` wins over `Tcp`.
const NSTAT_GROUPS: &[&str] = &[
    "MPTcpExt", "UdpLite6", "UdpLite", "IcmpMsg", "TcpExt", "IpExt", "Icmp6", "Udp6", "Icmp",
    "Sctp", "Ip6", "Tcp", "Udp", "Ip",
];

/// `nstat` output?
///
/// `Yes` when the first line is `#kernel` and the next is `Name value rate`; `Unsure` when the
/// head stops after `#kernel`; `No` otherwise.
pub fn sniff_nstat(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    match lines.next() {
        Some((l, true)) if l.trim() == "#kernel" => {}
        _ => return Sniff::No,
    }
    match lines.next() {
        None => Sniff::Unsure,
        Some((l, complete)) => {
            let toks: Vec<&str> = l.split_ascii_whitespace().collect();
            let ok = toks.len() == 3 && is_counter_name(toks[0]) && toks[1].parse::<i64>().is_ok();
            if ok || !complete {
                Sniff::Yes
            } else {
                Sniff::No
            }
        }
    }
}

/// Parses `nstat` output (`nstat -az`; also `nstat` without `-a`, whose values are increments).
///
/// Errors: [`ParseError::Unusable`] when no `Name value rate` row is found.
pub fn parse_nstat(text: &str) -> Result<Parsed<Snmp>, ParseError> {
    let mut out = Snmp::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let toks: Vec<&str> = t.split_ascii_whitespace().collect();
        let parsed = match toks.as_slice() {
            [name, value, rest @ ..] if rest.len() <= 1 && is_counter_name(name) => {
                value.parse::<i64>().ok().map(|v| {
                    (
                        *name,
                        v,
                        rest.first().and_then(|r| crate::common::parse_num(r)),
                    )
                })
            }
            _ => None,
        };
        let Some((name, value, rate)) = parsed else {
            issues.push(n, || {
                format!("expected `Name value rate`, found `{}`", excerpt(line))
            });
            continue;
        };
        let (group, counter) = NSTAT_GROUPS
            .iter()
            .find_map(|g| {
                name.strip_prefix(g)
                    .filter(|c| {
                        c.as_bytes()
                            .first()
                            .is_some_and(|b| !b.is_ascii_lowercase())
                    })
                    .map(|c| (*g, c))
            })
            .unwrap_or(("", name));
        out.group_mut(group, n).counters.push(SnmpCounter {
            name: counter.to_string(),
            value,
            line: n,
            rate,
        });
    }
    finish(
        out,
        issues,
        "no `Name value rate` row found after `#kernel`",
    )
}
