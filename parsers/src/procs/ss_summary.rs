//! `ss -s`: iproute2's socket summary.
//!
//! iproute2 6.1 (Debian 12), Linux 6.18 (tabs shown as spaces):
//! ```text
//! Total: 269
//! TCP:   255 (estab 250, closed 3, orphaned 0, timewait 3)
//!
//! Transport Total     IP        IPv6
//! RAW      0         0         0
//! UDP      0         0         0
//! TCP      252       252       0
//! INET      252       252       0
//! FRAG      0         0         0
//! ```
//! Older iproute2 (4.x, as in RHEL 7 and Ubuntu 18.04) prints `Total: N (kernel M)`, a
//! `synrecv` count and `timewait N/M` (TIME-WAIT sockets / those the kernel's timewait table
//! holds), and `, ports N` after the parenthesis; both are read. `Total` counts sockets of every
//! family (from `/proc/net/sockstat`); the `TCP:` line counts TCP sockets by state: `closed`
//! includes the TIME-WAIT ones, `orphaned` are sockets no process holds any more (closed by the
//! application, still sending or waiting for FIN; `net.ipv4.tcp_max_orphans` caps them).

use crate::common::{excerpt, head_lines, numbered_lines, strip_bom, ParseError, Parsed, Sniff};
use serde::Serialize;

/// The summary's TCP line and total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct SsSummary {
    /// `Total:` sockets of every family.
    pub total: u64,
    /// `TCP:` sockets.
    pub tcp: u64,
    /// `estab`.
    pub estab: Option<u64>,
    /// `closed` (including TIME-WAIT).
    pub closed: Option<u64>,
    /// `orphaned`: TCP sockets no longer attached to a file descriptor.
    pub orphaned: Option<u64>,
    /// `synrecv` (iproute2 before 5.x).
    pub synrecv: Option<u64>,
    /// `timewait` (the first number of `timewait N/M`).
    pub timewait: Option<u64>,
    /// 1-based line of `Total:`.
    pub total_line: usize,
    /// 1-based line of `TCP:`.
    pub tcp_line: usize,
}

/// `Total: N` or `Total: N (kernel M)`.
fn total(line: &str) -> Option<u64> {
    let rest = line.trim().strip_prefix("Total:")?.trim();
    let (n, tail) = rest.split_once(' ').unwrap_or((rest, ""));
    let tail = tail.trim();
    let ok = tail.is_empty() || (tail.starts_with("(kernel ") && tail.ends_with(')'));
    ok.then(|| n.parse().ok()).flatten()
}

/// `TCP:   N (estab a, closed b, …)`: the count and the `name value` pairs.
fn tcp(line: &str) -> Option<(u64, Vec<(&str, u64)>)> {
    let rest = line.trim().strip_prefix("TCP:")?.trim();
    let (n, rest) = rest.split_once(" (")?;
    let (inner, _) = rest.split_once(')')?;
    let mut pairs = Vec::new();
    for p in inner.split(',') {
        let (k, v) = p.trim().split_once(' ')?;
        let v = v.split('/').next()?.parse().ok()?;
        pairs.push((k, v));
    }
    pairs
        .iter()
        .any(|(k, _)| *k == "estab")
        .then(|| Some((n.trim().parse().ok()?, pairs)))
        .flatten()
}

/// Is this `ss -s`? `Yes` when the first non-blank line is `Total: N` and the next is `TCP:   N
/// (estab …)`.
pub fn sniff(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    match (lines.next(), lines.next()) {
        (Some((a, _)), Some((b, _))) if total(a).is_some() && tcp(b).is_some() => Sniff::Yes,
        (Some((a, true)), None) if total(a).is_some() => Sniff::Unsure,
        _ => Sniff::No,
    }
}

/// Parses `ss -s`.
///
/// Errors: [`ParseError::Unusable`] without the `Total:` line followed by the `TCP:` line. The
/// transport table after them is not read.
pub fn parse(text: &str) -> Result<Parsed<SsSummary>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    let (tn, tl) = lines
        .next()
        .ok_or_else(|| ParseError::unusable(None, "input is empty"))?;
    let total = total(tl).ok_or_else(|| {
        ParseError::unusable(
            Some(tn),
            format!("expected `Total: N`, found `{}`", excerpt(tl)),
        )
    })?;
    let (cn, cl) = lines
        .next()
        .ok_or_else(|| ParseError::unusable(Some(tn), "no `TCP:` line after `Total:`"))?;
    let (count, pairs) = tcp(cl).ok_or_else(|| {
        ParseError::unusable(
            Some(cn),
            format!("expected `TCP: N (estab …)`, found `{}`", excerpt(cl)),
        )
    })?;
    let get = |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| *v);
    Ok(Parsed::clean(SsSummary {
        total,
        tcp: count,
        estab: get("estab"),
        closed: get("closed"),
        orphaned: get("orphaned"),
        synrecv: get("synrecv"),
        timewait: get("timewait"),
        total_line: tn,
        tcp_line: cn,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captured_iproute2_6_1() {
        let t = include_str!("../../tests/fixtures/ss-s/captured-iproute2-6.1-fd-exhausted.txt");
        assert_eq!(sniff(t), Sniff::Yes);
        let s = parse(t).unwrap().value;
        assert_eq!(
            (s.total, s.tcp, s.estab, s.closed),
            (269, 255, Some(250), Some(3))
        );
        assert_eq!(
            (s.orphaned, s.timewait, s.synrecv),
            (Some(0), Some(3), None)
        );
        assert_eq!((s.total_line, s.tcp_line), (1, 2));
        let t = include_str!("../../tests/fixtures/ss-s/captured-iproute2-6.1-timewait.txt");
        let s = parse(t).unwrap().value;
        assert_eq!((s.tcp, s.estab, s.timewait), (135, Some(8), Some(125)));
    }

    #[test]
    fn older_iproute2_layout() {
        let t = "Total: 120 (kernel 300)\nTCP:   40 (estab 3, closed 30, orphaned 2, synrecv 0, timewait 29/0), ports 0\n";
        assert_eq!(sniff(t), Sniff::Yes);
        let s = parse(t).unwrap().value;
        assert_eq!(
            (s.total, s.tcp, s.orphaned, s.synrecv, s.timewait),
            (120, 40, Some(2), Some(0), Some(29))
        );
        assert!(parse("Total: 5\nUDP: 3\n").is_err());
        assert!(parse("Total: x\nTCP: 1 (estab 1)\n").is_err());
    }
}
