//! `netstat`: the connection tables of net-tools (`netstat -tanp`, `-neopa`, `-lnp`).
//!
//! `netstat -tanp` (net-tools 2.10):
//! ```text
//! Proto Recv-Q Send-Q Local Address           Foreign Address         State       PID/Program name
//! tcp        0      0 127.0.0.1:46296         127.0.0.1:18081         ESTABLISHED 1505/python3
//! ```
//! The owner is named by the first word of its command line (`python3`).

use super::{next_token, ConnView, Endpoint, SocketOwner};
use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One row of netstat's Internet table.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct InetConn {
    /// `Proto` (`tcp`, `tcp6`, `udp`, `raw6`).
    pub proto: String,
    /// `Recv-Q`, bytes.
    pub recv_q: Option<u64>,
    /// `Send-Q`, bytes.
    pub send_q: Option<u64>,
    /// `Local Address`.
    pub local: Endpoint,
    /// `Foreign Address`.
    pub foreign: Endpoint,
    /// `State` (`ESTABLISHED`, `LISTEN`, `TIME_WAIT`; a number for raw sockets); `None` when
    /// blank (udp).
    pub state: Option<String>,
    /// `User` (`-e`): name or uid.
    pub user: Option<String>,
    /// `Inode` (`-e`).
    pub inode: Option<u64>,
    /// Owner from `PID/Program name` (`-p`); `None` when printed `-`.
    pub owner: Option<SocketOwner>,
    /// `Timer` (`-o`) as printed (`off (0.00/0/0)`).
    pub timer: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

/// One row of netstat's UNIX domain table.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct UnixSocket {
    /// `RefCnt`.
    pub refcnt: Option<u32>,
    /// `Flags` inside the brackets (`ACC`, empty).
    pub flags: String,
    /// `Type` (`STREAM`, `DGRAM`, `SEQPACKET`).
    pub kind: String,
    /// `State` (`LISTENING`, `CONNECTED`); `None` when blank.
    pub state: Option<String>,
    /// `I-Node`.
    pub inode: Option<u64>,
    /// Owner from `PID/Program name`.
    pub owner: Option<SocketOwner>,
    /// `Path`; `None` when blank.
    pub path: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

/// Parsed `netstat` connection listing.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Netstat {
    /// Internet sockets in input order.
    pub inet: Vec<InetConn>,
    /// UNIX domain sockets in input order.
    pub unix: Vec<UnixSocket>,
}

impl Netstat {
    /// Established TCP connections, for [`established_by_process`](super::established_by_process).
    pub fn established(&self) -> impl Iterator<Item = ConnView<'_>> {
        self.inet
            .iter()
            .filter(|c| c.proto.starts_with("tcp") && c.state.as_deref() == Some("ESTABLISHED"))
            .map(|c| ConnView {
                owners: c.owner.as_slice(),
                peer: &c.foreign,
                line: c.line,
            })
    }
}

/// TCP states as netstat prints them.
const TCP_STATES: &[&str] = &[
    "ESTABLISHED",
    "SYN_SENT",
    "SYN_RECV",
    "FIN_WAIT1",
    "FIN_WAIT2",
    "TIME_WAIT",
    "CLOSE",
    "CLOSE_WAIT",
    "LAST_ACK",
    "LISTEN",
    "CLOSING",
    "UNKNOWN",
];

/// `PID/Program name` or `-`.
fn owner(pid_prog: &str) -> Option<SocketOwner> {
    let (pid, name) = pid_prog.split_once('/')?;
    Some(SocketOwner {
        name: name.trim().into(),
        pid: Some(pid.parse().ok()?),
        fd: None,
    })
}

/// Which netstat table a section header starts.
#[derive(Clone, Copy, PartialEq)]
enum NsTable {
    Inet,
    Unix,
    Other,
}

/// Columns of an Internet table header.
#[derive(Clone, Copy, Default)]
struct InetCols {
    user: bool,
    pid: bool,
    timer: bool,
}

fn inet_row(line: &str, cols: InetCols, n: usize) -> Result<InetConn, String> {
    let expected = "expected `Proto Recv-Q Send-Q Local Foreign [State] …`";
    let mut rest = line;
    let next = |rest: &mut &str| -> Option<String> {
        let (t, r) = next_token(rest)?;
        *rest = r;
        Some(t.to_string())
    };
    let (Some(proto), Some(rq), Some(sq), Some(local), Some(foreign)) = (
        next(&mut rest),
        next(&mut rest),
        next(&mut rest),
        next(&mut rest),
        next(&mut rest),
    ) else {
        return Err(format!("{expected}, found `{}`", excerpt(line)));
    };
    let num = |v: &str| {
        v.parse::<u64>()
            .map_err(|_| format!("{expected}: queue `{}` is not a number", excerpt(v)))
    };
    let mut c = InetConn {
        recv_q: Some(num(&rq)?),
        send_q: Some(num(&sq)?),
        local: Endpoint::inet(&local),
        foreign: Endpoint::inet(&foreign),
        proto,
        line: n,
        ..Default::default()
    };
    if let Some((tok, r)) = next_token(rest) {
        let raw_state = c.proto.starts_with("raw") && tok.bytes().all(|b| b.is_ascii_digit());
        if TCP_STATES.contains(&tok) || raw_state {
            c.state = Some(tok.to_string());
            rest = r;
        }
    }
    if cols.user {
        let (Some(user), Some(inode)) = (next(&mut rest), next(&mut rest)) else {
            return Err(format!(
                "{expected}: no `User Inode` columns in `{}`",
                excerpt(line)
            ));
        };
        c.user = Some(user);
        c.inode = inode.parse().ok();
    }
    if cols.pid {
        let r = rest.trim();
        // The program name may contain spaces; the timer starts with a word and `(`.
        let (prog, timer) = if cols.timer {
            match r.rsplit_once(" (") {
                Some((before, _)) => {
                    let word_start = before.rfind(' ').map_or(0, |w| w + 1);
                    let (prog, timer) = r.split_at_checked(word_start).unwrap_or(("", r));
                    (prog.trim(), Some(timer.trim()))
                }
                None => (r, None),
            }
        } else {
            (r, None)
        };
        if prog.is_empty() {
            return Err(format!(
                "{expected}: no `PID/Program name` in `{}`",
                excerpt(line)
            ));
        }
        c.owner = owner(prog);
        if c.owner.is_none() && prog != "-" {
            return Err(format!(
                "{expected}: `{}` is not `PID/Program name` or `-`",
                excerpt(prog)
            ));
        }
        c.timer = timer.map(str::to_string);
    } else if cols.timer {
        let r = rest.trim();
        c.timer = (!r.is_empty()).then(|| r.to_string());
    }
    Ok(c)
}

fn unix_row(line: &str, path_at: Option<usize>, n: usize) -> Result<UnixSocket, String> {
    let expected = "expected `unix RefCnt [ Flags ] Type [State] I-Node [PID/Program] [Path]`";
    let mut rest = line;
    let next = |rest: &mut &str| -> Option<String> {
        let (t, r) = next_token(rest)?;
        *rest = r;
        Some(t.to_string())
    };
    let (Some(_proto), Some(refcnt)) = (next(&mut rest), next(&mut rest)) else {
        return Err(format!("{expected}, found `{}`", excerpt(line)));
    };
    let r = rest.trim_start();
    let Some(after_open) = r.strip_prefix('[') else {
        return Err(format!("{expected}: no `[ flags ]` in `{}`", excerpt(line)));
    };
    let Some((flags, after)) = after_open.split_once(']') else {
        return Err(format!("{expected}: unclosed `[` in `{}`", excerpt(line)));
    };
    rest = after;
    let Some(kind) = next(&mut rest) else {
        return Err(format!("{expected}, found `{}`", excerpt(line)));
    };
    let mut u = UnixSocket {
        refcnt: refcnt.parse().ok(),
        flags: flags.trim().to_string(),
        kind,
        line: n,
        ..Default::default()
    };
    let Some(tok) = next(&mut rest) else {
        return Err(format!("{expected}: no I-Node in `{}`", excerpt(line)));
    };
    let inode_tok = if tok.bytes().all(|b| b.is_ascii_digit()) {
        tok
    } else {
        u.state = Some(tok);
        next(&mut rest).ok_or_else(|| format!("{expected}: no I-Node in `{}`", excerpt(line)))?
    };
    u.inode = Some(inode_tok.parse().map_err(|_| {
        format!(
            "{expected}: I-Node `{}` is not a number",
            excerpt(&inode_tok)
        )
    })?);
    // The rest: `PID/Program name` then the path; use the header's Path column when the line
    // reaches it, else the first word is the owner and the others the path.
    let consumed = line.len() - rest.len();
    let at_path = path_at
        .filter(|&p| p > consumed && line.as_bytes().get(p - 1) == Some(&b' '))
        .and_then(|p| {
            Some((
                line.get(consumed..p)?,
                line.get(p..).filter(|r| !r.is_empty())?,
            ))
        });
    let (owner_part, path_part) = match at_path {
        Some(parts) => parts,
        None => {
            let r = rest.trim_start();
            r.find(' ')
                .and_then(|sp| r.split_at_checked(sp))
                .unwrap_or((r, ""))
        }
    };
    let owner_part = owner_part.trim();
    u.owner = owner(owner_part);
    let path = path_part.trim();
    u.path = (!path.is_empty()).then(|| path.to_string());
    Ok(u)
}

fn netstat_section(line: &str) -> Option<NsTable> {
    let t = line.trim();
    if t.starts_with("Active Internet connections") {
        Some(NsTable::Inet)
    } else if t.starts_with("Active UNIX domain sockets") {
        Some(NsTable::Unix)
    } else if t.starts_with("Active ") {
        Some(NsTable::Other)
    } else {
        None
    }
}

fn is_inet_header(line: &str) -> bool {
    let mut t = line.split_ascii_whitespace();
    t.next() == Some("Proto") && t.next() == Some("Recv-Q") && line.contains("Local Address")
}

/// Is this a netstat connection listing? `Yes` when the first non-blank line is `Active
/// Internet connections …` or `Active UNIX domain sockets …`, or the Internet table header
/// `Proto Recv-Q Send-Q Local Address …`; `No` otherwise (`netstat -i`, `-s`, `-r` differ).
pub fn sniff_netstat(head: &str) -> Sniff {
    match head_lines(head).find(|(l, _)| !l.trim().is_empty()) {
        Some((l, _))
            if matches!(netstat_section(l), Some(NsTable::Inet | NsTable::Unix))
                || is_inet_header(l) =>
        {
            Sniff::Yes
        }
        _ => Sniff::No,
    }
}

/// Parses netstat connection listings (`-tanp`, `-neopa`, `-lnp`, `-aeep`).
///
/// Errors: [`ParseError::Unusable`] when neither table header is found.
pub fn parse_netstat(text: &str) -> Result<Parsed<Netstat>, ParseError> {
    let mut out = Netstat::default();
    let mut issues = Issues::default();
    let mut table: Option<NsTable> = None;
    let mut inet_cols: Option<InetCols> = None;
    let mut unix_path_at: Option<Option<usize>> = None;
    let mut headers = 0;
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        if let Some(s) = netstat_section(line) {
            table = Some(s);
            inet_cols = None;
            unix_path_at = None;
            continue;
        }
        if is_inet_header(line) {
            table = Some(NsTable::Inet);
            inet_cols = Some(InetCols {
                user: line.contains(" User "),
                pid: line.contains("PID/Program name"),
                timer: line.contains("Timer"),
            });
            headers += 1;
            continue;
        }
        if line
            .split_ascii_whitespace()
            .take(2)
            .eq(["Proto", "RefCnt"])
        {
            table = Some(NsTable::Unix);
            unix_path_at = Some(line.find("Path"));
            headers += 1;
            continue;
        }
        match (table, inet_cols, unix_path_at) {
            (Some(NsTable::Inet), Some(cols), _) => match inet_row(line, cols, n) {
                Ok(c) => out.inet.push(c),
                Err(msg) => issues.push(n, || msg),
            },
            (Some(NsTable::Unix), _, Some(path_at)) => match unix_row(line, path_at, n) {
                Ok(u) => out.unix.push(u),
                Err(msg) => issues.push(n, || msg),
            },
            (Some(NsTable::Other), _, _) => {}
            _ => issues.push(n, || {
                format!(
                    "line outside a table (no header above it): `{}`",
                    excerpt(line)
                )
            }),
        }
    }
    if headers == 0 {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty"
            } else {
                "no `Proto Recv-Q Send-Q Local Address …` or `Proto RefCnt Flags …` header"
            },
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
