//! `ss`: the socket table of iproute2 (`ss -tanp`, `ss -tulpen`, `ss -a`).
//!
//! `ss -tanp` (iproute2 6.1):
//! ```text
//! State  Recv-Q Send-Q      Local Address:Port        Peer Address:Port Process
//! ESTAB  0      0               127.0.0.1:46296          127.0.0.1:18081 users:(("bootstrap",pid=1505,fd=4))
//! ESTAB  0      0      [::ffff:127.0.0.1]:18081 [::ffff:127.0.0.1]:46296 users:(("python3",pid=1461,fd=4))
//! ```
//! The owner is named by its `comm` (`bootstrap`).

use super::{next_token, ConnView, Endpoint, SocketOwner};
use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One socket of `ss`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Socket {
    /// `Netid` (`tcp`, `udp`, `u_str`, `nl`); `None` when the listing has no Netid column
    /// (`ss -t`).
    pub netid: Option<String>,
    /// `State` (`ESTAB`, `LISTEN`, `TIME-WAIT`, `UNCONN`).
    pub state: String,
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
fn parse_users(s: &str) -> Result<(Vec<SocketOwner>, usize), String> {
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
                let name_len = body[name_start..]
                    .find("\",")
                    .or_else(|| body[name_start..].find("\")"))
                    .ok_or_else(|| "unclosed process name in users".to_string())?;
                let name = body[name_start..name_start + name_len].to_string();
                i = name_start + name_len + 1;
                let close = body[i..]
                    .find(')')
                    .ok_or_else(|| "unclosed `(` in users".to_string())?;
                let attrs = &body[i..i + close];
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

/// The ss header: `Netid State Recv-Q Send-Q Local Address:Port Peer Address:Port [Process]`
/// (the last two may be glued: `Address:PortProcess`).
fn ss_header(line: &str) -> Option<bool> {
    let mut t = line.split_ascii_whitespace();
    let first = t.next()?;
    let has_netid = match first {
        "Netid" => {
            if t.next()? != "State" {
                return None;
            }
            true
        }
        "State" => false,
        _ => return None,
    };
    (t.next()? == "Recv-Q" && t.next()? == "Send-Q" && line.contains("Local Address"))
        .then_some(has_netid)
}

fn ss_row(line: &str, has_netid: bool, n: usize) -> Result<Socket, String> {
    let expected = "expected `[Netid] State Recv-Q Send-Q Local Peer [Process]`";
    let short = || format!("{expected}, found `{}`", excerpt(line));
    let mut rest = line;
    let take = |rest: &mut &str| -> Result<String, String> {
        let (t, r) = next_token(rest).ok_or_else(short)?;
        *rest = r;
        Ok(t.to_string())
    };
    let netid = if has_netid {
        Some(take(&mut rest)?)
    } else {
        None
    };
    let state = take(&mut rest)?;
    let rq = take(&mut rest)?;
    let sq = take(&mut rest)?;
    let q = |v: &str| {
        v.parse::<u64>()
            .map(Some)
            .map_err(|_| format!("{expected}: queue `{}` is not a number", excerpt(v)))
    };
    let unix = netid.as_deref().is_some_and(|id| id.starts_with("u_"));
    let (local, peer) = if unix {
        let a = take(&mut rest)?;
        let b = take(&mut rest)?;
        let c = take(&mut rest)?;
        let d = take(&mut rest)?;
        (
            Endpoint::raw(&format!("{a} {b}")),
            Endpoint::raw(&format!("{c} {d}")),
        )
    } else {
        let a = take(&mut rest)?;
        let b = take(&mut rest)?;
        let ip = netid.as_deref().is_none_or(|id| {
            matches!(
                id,
                "tcp" | "udp" | "raw" | "sctp" | "mptcp" | "dccp" | "udplite" | "tcp6" | "udp6"
            )
        });
        if ip {
            (Endpoint::inet(&a), Endpoint::inet(&b))
        } else {
            (Endpoint::raw(&a), Endpoint::raw(&b))
        }
    };
    let mut s = Socket {
        netid,
        state,
        recv_q: q(&rq)?,
        send_q: q(&sq)?,
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
            let (users, used) = parse_users(r).map_err(|m| format!("{m} in `{}`", excerpt(r)))?;
            s.users = users;
            r = r[used..].trim_start();
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
    let has_netid = match lines.next() {
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
    for (n, line) in lines {
        match ss_row(line, has_netid, n) {
            Ok(s) => out.sockets.push(s),
            Err(msg) => issues.push(n, || msg),
        }
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_field() {
        let (u, used) =
            parse_users("users:((\"rpcbind\",pid=1139,fd=5),(\"systemd\",pid=1,fd=41)) ino:1")
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
        let (u, _) = parse_users("users:((\"Web Content\",pid=9,fd=3))").unwrap();
        assert_eq!(u[0].name, "Web Content");
        assert!(parse_users("users:((\"x").is_err());
        assert!(parse_users("users:(x)").is_err());
    }
}
