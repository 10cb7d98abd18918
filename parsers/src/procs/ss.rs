//! `ss`: the socket table of iproute2 (`ss -tanp`, `ss -tulpen`, `ss -a`).
//!
//! `ss -tanp` (iproute2 6.1):
//! ```text
//! State  Recv-Q Send-Q      Local Address:Port        Peer Address:Port Process
//! ESTAB  0      0               127.0.0.1:46296          127.0.0.1:18081 users:(("bootstrap",pid=1505,fd=4))
//! ESTAB  0      0      [::ffff:127.0.0.1]:18081 [::ffff:127.0.0.1]:46296 users:(("python3",pid=1461,fd=4))
//! ```
//! The owner is named by its `comm` (`bootstrap`). Under a state filter (`ss -tin state
//! established`) ss prints no `State` column; with `-i` each TCP socket's row is followed by an
//! indented line of its internals ([`TcpInfo`]).

use super::{next_token, ConnView, Endpoint, SocketOwner};
use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, Name, Names, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One socket of `ss`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Socket {
    /// `Netid` (`tcp`, `udp`, `u_str`, `nl`); `None` when the listing has no Netid column
    /// (`ss -t`).
    pub netid: Option<Name>,
    /// `State` (`ESTAB`, `LISTEN`, `TIME-WAIT`, `UNCONN`); empty when the listing was filtered
    /// to one state (`ss -tin state established` prints no State column).
    pub state: Name,
    /// `Recv-Q`: bytes not yet read by the application (listeners: accept queue length).
    pub recv_q: Option<u64>,
    /// `Send-Q`: bytes not yet acknowledged (listeners: accept queue limit).
    pub send_q: Option<u64>,
    /// Local address.
    pub local: Endpoint,
    /// Peer address.
    pub peer: Endpoint,
    /// Owners from `users:((…))`.
    pub users: Vec<SocketOwner>,
    /// `uid:` (`-e`).
    pub uid: Option<u32>,
    /// `ino:` (`-e`).
    pub inode: Option<u64>,
    /// Everything after the addresses other than `users:`, as printed (`ino:25147 sk:2 <->`,
    /// `timer:(keepalive,…)`).
    pub extra: Option<String>,
    /// 1-based input line.
    pub line: usize,
    /// The TCP internals of `ss -i`, from the indented line under the socket's row (boxed:
    /// most sockets have none).
    pub info: Option<Box<TcpInfo>>,
}

/// What `ss -i` prints of a TCP socket's `tcp_info` (iproute2 `tcp_show_info`), on the
/// indented line under its row: `rto:204 … cwnd:1 ssthresh:21 … retrans:1/973 …`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct TcpInfo {
    /// `rto:` retransmission timeout, µs (printed in ms with up to 3 decimals).
    pub rto_us: Option<u64>,
    /// `cwnd:` congestion window, segments.
    pub cwnd: Option<u64>,
    /// `ssthresh:` slow-start threshold, segments.
    pub ssthresh: Option<u64>,
    /// `retrans:a/b`: `a`, the segments retransmitted and not yet acknowledged now
    /// (`tcpi_retrans`).
    pub retrans_now: Option<u64>,
    /// `retrans:a/b`: `b`, the segments retransmitted over the connection's life
    /// (`tcpi_total_retrans`); the field is absent while it is 0.
    pub retrans_total: Option<u64>,
    /// `data_segs_out:` (or, before iproute2 4.6, none): data segments sent.
    pub data_segs_out: Option<u64>,
    /// `lost:` segments presumed lost now.
    pub lost: Option<u64>,
    /// 1-based input line of the info line.
    pub line: usize,
}

/// Reads an `ss -i` info line; `None` unless it holds at least one of `rto:`, `cwnd:`,
/// `retrans:` with a readable value.
fn tcp_info(line: &str, n: usize) -> Option<TcpInfo> {
    let mut i = TcpInfo {
        line: n,
        ..Default::default()
    };
    let mut known = false;
    for tok in line.split_whitespace() {
        let Some((k, v)) = tok.split_once(':') else {
            continue;
        };
        let num = |v: &str| v.parse::<u64>().ok();
        match k {
            "rto" => {
                // A time in µs beyond u64 is no time: refused rather than saturated.
                i.rto_us = crate::common::parse_num(v)
                    .map(|ms| (ms * 1000.0).round())
                    .filter(|us| (0.0..=crate::common::U64_MAX_F64).contains(us))
                    .map(|us| us as u64);
                known |= i.rto_us.is_some();
            }
            "cwnd" => {
                i.cwnd = num(v);
                known |= i.cwnd.is_some();
            }
            "ssthresh" => i.ssthresh = num(v),
            "retrans" => {
                let (a, b) = v.split_once('/')?;
                i.retrans_now = num(a);
                i.retrans_total = num(b);
                known |= i.retrans_total.is_some();
            }
            "data_segs_out" => i.data_segs_out = num(v),
            "lost" => i.lost = num(v),
            _ => {}
        }
    }
    known.then_some(i)
}

/// Parsed `ss`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct SsTable {
    /// Sockets in input order.
    pub sockets: Vec<Socket>,
}

impl SsTable {
    /// Established TCP sockets, for [`established_by_process`](super::established_by_process).
    pub fn established(&self) -> impl Iterator<Item = ConnView<'_>> {
        self.sockets
            .iter()
            .filter(|s| s.state == "ESTAB" && s.netid.as_deref().is_none_or(|n| n == "tcp"))
            .map(|s| ConnView {
                owners: &s.users,
                peer: &s.peer,
                line: s.line,
            })
    }

    /// Sockets owned by a process name.
    pub fn owned_by<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Socket> + 'a {
        self.sockets
            .iter()
            .filter(move |s| s.users.iter().any(|u| u.name == name))
    }
}

/// `users:(("a",pid=1,fd=2),("b",pid=3,fd=4))` starting at `s`; returns the owners and the
/// byte length consumed.
fn parse_users(s: &str, names: &mut Names) -> Result<(Vec<SocketOwner>, usize), String> {
    let body = s
        .strip_prefix("users:(")
        .ok_or_else(|| "expected `users:((…))`".to_string())?;
    let bytes = body.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    loop {
        match bytes.get(i) {
            Some(b')') => return Ok((out, "users:(".len() + i + 1)),
            Some(b',') => i += 1,
            Some(b'(') => {
                // ("name",pid=N,fd=M)
                i += 1;
                if bytes.get(i) != Some(&b'"') {
                    return Err("expected `(\"name\",…)` in users".to_string());
                }
                let name_start = i + 1;
                let unclosed = || "unclosed process name in users".to_string();
                let quoted = body.get(name_start..).ok_or_else(unclosed)?;
                let name_len = quoted
                    .find("\",")
                    .or_else(|| quoted.find("\")"))
                    .ok_or_else(unclosed)?;
                let name = names.get(quoted.get(..name_len).ok_or_else(unclosed)?);
                i = name_start + name_len + 1;
                let unclosed = || "unclosed `(` in users".to_string();
                let after = body.get(i..).ok_or_else(unclosed)?;
                let close = after.find(')').ok_or_else(unclosed)?;
                let attrs = after.get(..close).ok_or_else(unclosed)?;
                let mut pid = None;
                let mut fd = None;
                for kv in attrs.split(',') {
                    match kv.split_once('=') {
                        Some(("pid", v)) => pid = v.parse().ok(),
                        Some(("fd", v)) => fd = v.parse().ok(),
                        _ => {}
                    }
                }
                out.push(SocketOwner { name, pid, fd });
                i += close + 1;
            }
            _ => return Err("malformed `users:((…))`".to_string()),
        }
    }
}

/// Which columns an ss listing has before `Recv-Q`.
#[derive(Debug, Clone, Copy)]
struct Columns {
    /// `Netid` (several families listed).
    netid: bool,
    /// `State`; absent when the listing was filtered to one state (`ss -tin state
    /// established`).
    state: bool,
}

/// The ss header: `Netid State Recv-Q Send-Q Local Address:Port Peer Address:Port [Process]`
/// (the last two may be glued: `Address:PortProcess`); `Netid` appears with several families,
/// `State` is left out under a state filter.
fn ss_header(line: &str) -> Option<Columns> {
    let mut t = line.split_ascii_whitespace().peekable();
    let netid = t.next_if_eq(&"Netid").is_some();
    let state = t.next_if_eq(&"State").is_some();
    (t.next()? == "Recv-Q" && t.next()? == "Send-Q" && line.contains("Local Address"))
        .then_some(Columns { netid, state })
}

fn ss_row<'l>(line: &'l str, cols: Columns, n: usize, names: &mut Names) -> Result<Socket, String> {
    let has_netid = cols.netid;
    let expected = "expected `[Netid] State Recv-Q Send-Q Local Peer [Process]`";
    let short = || format!("{expected}, found `{}`", excerpt(line));
    let mut rest = line;
    fn next<'a>(rest: &mut &'a str) -> Option<&'a str> {
        let (t, r) = next_token(rest)?;
        *rest = r;
        Some(t)
    }
    let take = |rest: &mut &'l str| next(rest).ok_or_else(short);
    let netid = if has_netid {
        Some(take(&mut rest)?)
    } else {
        None
    };
    let state = if cols.state {
        names.get(take(&mut rest)?)
    } else {
        names.get("")
    };
    let rq = take(&mut rest)?;
    let sq = take(&mut rest)?;
    let q = |v: &str| {
        v.parse::<u64>()
            .map(Some)
            .map_err(|_| format!("{expected}: queue `{}` is not a number", excerpt(v)))
    };
    let unix = netid.is_some_and(|id| id.starts_with("u_"));
    let (local, peer) = if unix {
        let a = take(&mut rest)?;
        let b = take(&mut rest)?;
        let c = take(&mut rest)?;
        let d = take(&mut rest)?;
        (
            Endpoint::raw_in(&format!("{a} {b}"), names),
            Endpoint::raw_in(&format!("{c} {d}"), names),
        )
    } else {
        let a = take(&mut rest)?;
        let b = take(&mut rest)?;
        let ip = netid.is_none_or(|id| {
            matches!(
                id,
                "tcp" | "udp" | "raw" | "sctp" | "mptcp" | "dccp" | "udplite" | "tcp6" | "udp6"
            )
        });
        if ip {
            (Endpoint::inet_in(a, names), Endpoint::inet_in(b, names))
        } else {
            (Endpoint::raw_in(a, names), Endpoint::raw_in(b, names))
        }
    };
    let (recv_q, send_q) = (q(rq)?, q(sq)?);
    let mut s = Socket {
        netid: netid.map(|id| names.get(id)),
        state,
        recv_q,
        send_q,
        local,
        peer,
        line: n,
        ..Default::default()
    };
    let rest = rest.trim();
    if rest.is_empty() {
        return Ok(s);
    }
    let mut extra = String::new();
    let mut r = rest;
    while !r.is_empty() {
        if r.starts_with("users:(") {
            let (users, used) =
                parse_users(r, names).map_err(|m| format!("{m} in `{}`", excerpt(r)))?;
            s.users = users;
            r = r.get(used..).unwrap_or("").trim_start();
            continue;
        }
        let (tok, after) = next_token(r).unwrap_or((r, ""));
        if let Some(v) = tok.strip_prefix("uid:") {
            s.uid = v.parse().ok();
        } else if let Some(v) = tok.strip_prefix("ino:") {
            s.inode = v.parse().ok();
        }
        if !extra.is_empty() {
            extra.push(' ');
        }
        extra.push_str(tok);
        r = after.trim_start();
    }
    s.extra = (!extra.is_empty()).then_some(extra);
    Ok(s)
}

/// Is this `ss` output? `Yes` when the first non-blank line is the ss header (`Netid State
/// Recv-Q Send-Q Local Address:Port …` or `State Recv-Q …`); `No` otherwise.
pub fn sniff_ss(head: &str) -> Sniff {
    match head_lines(head).find(|(l, _)| !l.trim().is_empty()) {
        Some((l, _)) if ss_header(l).is_some() => Sniff::Yes,
        _ => Sniff::No,
    }
}

/// Parses `ss` listings (`-tanp`, `-tulpen`, `-a` with every family).
///
/// Errors: [`ParseError::Unusable`] without the header. Rows that cannot be read are issues.
pub fn parse_ss(text: &str) -> Result<Parsed<SsTable>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    let cols = match lines.next() {
        Some((n, l)) => ss_header(l).ok_or_else(|| {
            ParseError::unusable(
                Some(n),
                format!(
                    "expected the ss header `[Netid] State Recv-Q Send-Q Local Address:Port …`, found `{}`",
                    excerpt(l)
                ),
            )
        })?,
        None => return Err(ParseError::unusable(None, "input is empty")),
    };
    let mut out = SsTable::default();
    let mut issues = Issues::default();
    let mut names = Names::default();
    for (n, line) in lines {
        // `ss -i`: the socket's internals on an indented line under its row.
        if line.starts_with([' ', '\t']) {
            if let Some(info) = tcp_info(line, n) {
                if let Some(last) = out.sockets.last_mut().filter(|s| s.info.is_none()) {
                    last.info = Some(Box::new(info));
                    continue;
                }
            }
        }
        match ss_row(line, cols, n, &mut names) {
            Ok(s) => out.sockets.push(s),
            Err(msg) => issues.push(n, || msg),
        }
    }
    // A long listing grows its vector by doubling: give back what is left over.
    out.sockets.shrink_to_fit();
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tcp_internals_of_ss_tin() {
        let t = include_str!("../../tests/fixtures/ss/captured-iproute2-6.1-ss-tin-loss.txt");
        let p = parse_ss(t).unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        assert_eq!(p.value.sockets.len(), 8);
        let client = &p.value.sockets[1];
        assert_eq!(
            (client.local.text.as_str(), client.send_q),
            ("127.0.0.1:56396", Some(4_190_965))
        );
        let i = *client.info.as_deref().unwrap();
        assert_eq!(
            (i.retrans_now, i.retrans_total, i.line),
            (Some(1), Some(973), 5)
        );
        assert_eq!(
            (i.rto_us, i.cwnd, i.ssthresh, i.lost),
            (Some(204_000), Some(1), Some(21), Some(1))
        );
        assert_eq!(i.data_segs_out, Some(18_955));
        let server = *p.value.sockets[0].info.as_deref().unwrap();
        assert_eq!(
            (server.retrans_total, server.rto_us, server.cwnd),
            (None, Some(200_000), Some(10))
        );
        let total: u64 = p
            .value
            .sockets
            .iter()
            .filter_map(|s| s.info.as_deref().and_then(|i| i.retrans_total))
            .sum();
        assert_eq!(total, 973 + 1488 + 1010 + 1347);
        let clean = include_str!("../../tests/fixtures/ss/captured-iproute2-6.1-ss-tin-clean.txt");
        let p = parse_ss(clean).unwrap();
        assert!(p.issues.is_empty());
        assert!(p.value.sockets.iter().all(|s| s.info.is_some()));
    }

    #[test]
    fn state_filter_leaves_out_the_state_column() {
        let t = include_str!(
            "../../tests/fixtures/ss/captured-iproute2-6.1-ss-tin-state-established.txt"
        );
        assert_eq!(sniff_ss(t), Sniff::Yes);
        let p = parse_ss(t).unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        assert_eq!(p.value.sockets.len(), 8);
        let first = &p.value.sockets[0];
        assert_eq!(first.state, "");
        assert_eq!(
            (first.local.text.as_str(), first.peer.text.as_str()),
            ("127.0.0.1:48570", "127.0.0.1:5599")
        );
        let i = *first.info.as_deref().unwrap();
        assert_eq!(
            (i.cwnd, i.retrans_now, i.retrans_total, i.line),
            (Some(16), Some(0), Some(31), 3)
        );
    }

    #[test]
    fn sosreport_options_with_internals() {
        // `ss -peaonmi`, as sosreport runs it: every family, owners, socket memory, timers.
        let t = include_str!("../../tests/fixtures/ss/captured-iproute2-6.1-ss-peaonmi.txt");
        let p = parse_ss(t).unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let s = p
            .value
            .sockets
            .iter()
            .find(|s| s.local.text == "127.0.0.1:58360")
            .unwrap();
        assert_eq!(
            (s.netid.as_deref(), s.state.as_str(), s.line),
            (Some("tcp"), "ESTAB", 27)
        );
        assert_eq!(s.users[0].name, "python3");
        let i = *s.info.as_deref().unwrap();
        assert_eq!(
            (i.rto_us, i.cwnd, i.retrans_now, i.retrans_total, i.line),
            (Some(204_000), Some(52), Some(0), Some(5), 28)
        );
        // `bytes_retrans:` is not `retrans:`.
        assert!(p
            .value
            .sockets
            .iter()
            .filter_map(|s| s.info.as_deref())
            .all(|i| i.retrans_total.is_none_or(|n| n < 1000)));
    }

    #[test]
    fn users_field() {
        let (u, used) = parse_users(
            "users:((\"rpcbind\",pid=1139,fd=5),(\"systemd\",pid=1,fd=41)) ino:1",
            &mut Names::default(),
        )
        .unwrap();
        assert_eq!(
            used,
            "users:((\"rpcbind\",pid=1139,fd=5),(\"systemd\",pid=1,fd=41))".len()
        );
        assert_eq!(u.len(), 2);
        assert_eq!(
            (u[1].name.as_str(), u[1].pid, u[1].fd),
            ("systemd", Some(1), Some(41))
        );
        let (u, _) = parse_users(
            "users:((\"Web Content\",pid=9,fd=3))",
            &mut Names::default(),
        )
        .unwrap();
        assert_eq!(u[0].name, "Web Content");
        assert!(parse_users("users:((\"x", &mut Names::default()).is_err());
        assert!(parse_users("users:(x)", &mut Names::default()).is_err());
    }
}
