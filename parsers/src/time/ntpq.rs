//! `ntpq -p[n]`: the peers of ntpd (ntp 4.2.x, ntpsec).
//!
//! ```text
//!      remote           refid      st t when poll reach   delay   offset  jitter
//! ==============================================================================
//! *192.0.2.10      198.51.100.100   2 u   63   64  377   22.654    0.231   1.964
//!  0.ubuntu.pool.n .POOL.          16 p    -   64    0    0.000    0.000   0.000
//! ```
//! The first character is the tally code (`*` system peer, `+` candidate, `-` outlier, `x`
//! falseticker, `.` excess, `#` backup, `o` PPS peer, space: rejected); `when` may be `-` or
//! carry `m`/`h`/`d`; delay, offset and jitter are milliseconds. A remote too long for its
//! column is printed alone on its line and the numbers follow on the next line.

use super::age_seconds;
use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One peer of `ntpq -p`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Peer {
    /// Tally code (`*`, `+`, `-`, `x`, `.`, `#`, `o`, or `' '` for none).
    pub tally: char,
    /// Remote as printed (IPv6 and names may be cut to the column width).
    pub remote: String,
    /// Reference id (`.POOL.`, `.GPS.`, an address).
    pub refid: String,
    /// Stratum (16 = unsynchronised).
    pub stratum: u32,
    /// Type: `u` unicast, `b` broadcast, `m` multicast, `l` local, `s` symmetric, `p` pool,
    /// `A`/`B`/`M` manycast…
    pub kind: String,
    /// Seconds since the last packet; `None` for `-`.
    pub when_s: Option<u64>,
    /// Poll interval, seconds.
    pub poll_s: Option<u64>,
    /// Reachability register as printed, octal.
    pub reach: String,
    /// Round-trip delay, milliseconds.
    pub delay_ms: Option<f64>,
    /// Offset of the peer's clock, milliseconds.
    pub offset_ms: Option<f64>,
    /// Jitter, milliseconds.
    pub jitter_ms: Option<f64>,
    /// 1-based input line (of the remote when wrapped onto two lines).
    pub line: usize,
}

/// Parsed `ntpq -p`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Peers {
    /// Peers in input order.
    pub peers: Vec<Peer>,
}

impl Peers {
    /// The system peer (`*`).
    pub fn system_peer(&self) -> Option<&Peer> {
        self.peers.iter().find(|p| p.tally == '*')
    }
}

fn is_ntpq_header(line: &str) -> bool {
    let mut t = line.split_ascii_whitespace();
    t.next() == Some("remote") && t.next() == Some("refid") && t.next() == Some("st")
}

const TALLY: &str = "*+-x.#o ";

/// The nine columns after the remote: refid st t when poll reach delay offset jitter.
fn peer_numbers(tally: char, remote: &str, cols: &[&str], n: usize) -> Result<Peer, String> {
    let expected = "expected `remote refid st t when poll reach delay offset jitter`";
    let [refid, st, t, when, poll, reach, delay, offset, jitter] = cols else {
        return Err(format!(
            "{expected}: found {} columns after the remote",
            cols.len()
        ));
    };
    let stratum = st
        .parse()
        .map_err(|_| format!("{expected}: st `{}` is not a number", excerpt(st)))?;
    let when_s = match *when {
        "-" => None,
        w => Some(age_seconds(w).ok_or_else(|| {
            format!(
                "{expected}: when `{}` is not `-`, N, Nm, Nh or Nd",
                excerpt(w)
            )
        })?),
    };
    let num = |s: &str, what: &str| -> Result<Option<f64>, String> {
        match s {
            "-" => Ok(None),
            _ => crate::common::parse_num(s)
                .map(Some)
                .ok_or_else(|| format!("{expected}: {what} `{}` is not a number", excerpt(s))),
        }
    };
    Ok(Peer {
        tally,
        remote: remote.to_string(),
        refid: refid.to_string(),
        stratum,
        kind: t.to_string(),
        when_s,
        poll_s: age_seconds(poll),
        reach: reach.to_string(),
        delay_ms: num(delay, "delay")?,
        offset_ms: num(offset, "offset")?,
        jitter_ms: num(jitter, "jitter")?,
        line: n,
    })
}

/// Is this `ntpq -p` output? `Yes` when the first non-blank line is the `remote refid st t when
/// poll reach …` header; `No` otherwise.
pub fn sniff_ntpq(head: &str) -> Sniff {
    match head_lines(head).find(|(l, _)| !l.trim().is_empty()) {
        Some((l, _)) if is_ntpq_header(l) => Sniff::Yes,
        _ => Sniff::No,
    }
}

/// Parses `ntpq -p` / `ntpq -pn` (also `-w` wrapped remotes).
///
/// Errors: [`ParseError::Unusable`] without the header. A row that cannot be read is an issue.
pub fn parse_ntpq(text: &str) -> Result<Parsed<Peers>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    match lines.next() {
        Some((_, l)) if is_ntpq_header(l) => {}
        Some((n, l)) => {
            return Err(ParseError::unusable(
                Some(n),
                format!(
                    "expected the header `remote refid st t when poll reach delay offset jitter`, found `{}`",
                    excerpt(l)
                ),
            ))
        }
        None => return Err(ParseError::unusable(None, "input is empty")),
    }
    let mut out = Peers::default();
    let mut issues = Issues::default();
    // A remote printed alone on its line, waiting for its numbers.
    let mut wrapped: Option<(char, String, usize)> = None;
    for (n, line) in lines {
        if line.trim().bytes().all(|b| b == b'=') {
            continue;
        }
        let toks: Vec<&str> = line.split_ascii_whitespace().collect();
        if let Some((tally, remote, at)) = wrapped.take() {
            if line.starts_with(' ') && toks.len() == 9 {
                match peer_numbers(tally, &remote, &toks, at) {
                    Ok(p) => out.peers.push(p),
                    Err(msg) => issues.push(n, || msg),
                }
                continue;
            }
            issues.push(at, || {
                format!(
                    "remote `{}` is not followed by its numbers",
                    excerpt(&remote)
                )
            });
        }
        let mut chars = line.chars();
        let tally = chars.next().unwrap_or(' ');
        if !TALLY.contains(tally) {
            issues.push(n, || {
                format!("`{tally}` is not an ntpq tally code (one of `*+-x.#o` or space)")
            });
            continue;
        }
        let rest = chars.as_str();
        let toks: Vec<&str> = rest.split_ascii_whitespace().collect();
        match toks.as_slice() {
            [remote] if !rest.starts_with(' ') => {
                wrapped = Some((tally, remote.to_string(), n));
            }
            [remote, cols @ ..] if !rest.starts_with(' ') => {
                match peer_numbers(tally, remote, cols, n) {
                    Ok(p) => out.peers.push(p),
                    Err(msg) => issues.push(n, || msg),
                }
            }
            _ => issues.push(n, || {
                format!(
                    "expected `remote refid st t when poll reach delay offset jitter`, found `{}`",
                    excerpt(line)
                )
            }),
        }
    }
    if let Some((_, remote, at)) = wrapped {
        issues.push(at, || {
            format!(
                "remote `{}` is not followed by its numbers",
                excerpt(&remote)
            )
        });
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
