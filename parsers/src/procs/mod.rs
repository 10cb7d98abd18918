//! Processes, their sockets and their limits: procps-ng (`ps`, `top`, `vmstat`, `free`),
//! iproute2 `ss`, net-tools `netstat`, the shell's `ulimit -a`, and the collector's cgroup
//! table.
//!
//! In: the text of one of those outputs. Out: one record per output; the two socket listings
//! share [`Endpoint`] and [`SocketOwner`], and [`established_by_process`] groups the
//! established connections of either by owning process.
//!
//! ss names the owner by its `comm` (`bootstrap`), netstat by the first word of its command
//! line (`python3`): the same process may carry different names in the two listings.

pub mod cgroup;
pub mod free;
pub mod netstat;
pub mod ps;
pub mod ss;
pub mod ss_summary;
pub mod top;
pub mod ulimit;
pub mod uptime;
pub mod vmstat;

use crate::common::{Name, Names};
use serde::Serialize;

/// A socket address as printed: the text, with its host, port and interface scope read as
/// parts of it (held as byte ranges of the text, so an address costs one shared string).
///
/// Serialises as `{text, host, port, scope}`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Endpoint {
    /// As printed (`[::ffff:10.0.0.1]:8080`, `127.0.0.53%lo:53`, `*:*`, `rtnl:kernel`).
    pub text: Name,
    /// Byte range of the host in `text`.
    host: Span,
    /// Byte range of the port in `text`.
    port: Option<Span>,
    /// Byte range of the scope in `text`.
    scope: Option<Span>,
}

/// A byte range `(start, end)` of an [`Endpoint`]'s text.
type Span = (u32, u32);

/// The range of `part`, a slice of `whole`, within `whole`.
fn span_of(whole: &str, part: &str) -> Span {
    let start = (part.as_ptr() as usize)
        .saturating_sub(whole.as_ptr() as usize)
        .min(whole.len());
    let end = (start + part.len()).min(whole.len());
    (
        u32::try_from(start).unwrap_or(u32::MAX),
        u32::try_from(end).unwrap_or(u32::MAX),
    )
}

impl Endpoint {
    fn part(&self, (a, b): Span) -> &str {
        self.text.get(a as usize..b as usize).unwrap_or("")
    }

    /// Host without brackets and scope (`::ffff:10.0.0.1`, `127.0.0.53`, `*`); the whole
    /// text for non-IP families (netlink, unix).
    pub fn host(&self) -> &str {
        self.part(self.host)
    }

    /// Port or service name (`8080`, `ssh`, `*`); `None` for non-IP families.
    pub fn port(&self) -> Option<&str> {
        self.port.map(|s| self.part(s))
    }

    /// Interface scope after `%` (`lo`, `virbr0`).
    pub fn scope(&self) -> Option<&str> {
        self.scope.map(|s| self.part(s))
    }

    /// The port as a number, when numeric.
    pub fn port_number(&self) -> Option<u16> {
        self.port()?.parse().ok()
    }

    /// The host with an IPv4-mapped IPv6 prefix removed (`::ffff:10.0.0.1` → `10.0.0.1`), so
    /// that the same peer reads the same from an IPv4 and an IPv6 socket.
    pub fn peer_host(&self) -> &str {
        let host = self.host();
        host.strip_prefix("::ffff:")
            .filter(|h| h.contains('.'))
            .unwrap_or(host)
    }

    /// Reads `host:port`, `[v6]:port`, `host%scope:port`, `:::port` (old ss/netstat IPv6).
    fn inet(text: &str) -> Endpoint {
        Endpoint::of_inet(Name::from(text))
    }

    /// [`Endpoint::inet`] with the text shared through `names`.
    fn inet_in(text: &str, names: &mut Names) -> Endpoint {
        Endpoint::of_inet(names.get(text))
    }

    fn of_inet(text: Name) -> Endpoint {
        let t: &str = &text;
        let (host, port) = match t.rsplit_once(':') {
            Some((h, p)) if !h.is_empty() => (h, Some(span_of(t, p))),
            _ => (t, None),
        };
        let (host, scope) = match host.split_once('%') {
            Some((h, s)) => (h, Some(span_of(t, s.trim_end_matches(']')))),
            None => (host, None),
        };
        let host = span_of(t, host.trim_start_matches('[').trim_end_matches(']'));
        Endpoint {
            text,
            host,
            port,
            scope,
        }
    }

    /// An address that is not `host:port` (netlink, unix), shared through `names`.
    fn raw_in(text: &str, names: &mut Names) -> Endpoint {
        Endpoint {
            text: names.get(text),
            host: (0, u32::try_from(text.len()).unwrap_or(u32::MAX)),
            port: None,
            scope: None,
        }
    }
}

impl Serialize for Endpoint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Endpoint", 4)?;
        st.serialize_field("text", &self.text)?;
        st.serialize_field("host", self.host())?;
        st.serialize_field("port", &self.port())?;
        st.serialize_field("scope", &self.scope())?;
        st.end()
    }
}

/// A process owning a socket (`("java",pid=123,fd=45)`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SocketOwner {
    /// Process name (ss: the `comm`; netstat: first word of the command line, cut to 15
    /// characters or so).
    pub name: Name,
    /// PID.
    pub pid: Option<u32>,
    /// File descriptor (ss only).
    pub fd: Option<u32>,
}

/// Established connections of one process name, from [`established_by_process`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProcessConnections {
    /// Process name as the listing printed it (`-` for sockets without an owner).
    pub process: String,
    /// Distinct PIDs seen with that name, sorted.
    pub pids: Vec<u32>,
    /// Number of established TCP sockets it owns.
    pub established: usize,
    /// Distinct peer hosts (IPv4-mapped addresses shown as IPv4), sorted.
    pub peers: Vec<String>,
    /// 1-based input lines of those sockets.
    pub lines: Vec<usize>,
}

/// One established TCP socket, as either listing shows it.
#[derive(Debug, Clone, Copy)]
pub struct ConnView<'a> {
    /// Owners (may be empty).
    pub owners: &'a [SocketOwner],
    /// Peer address.
    pub peer: &'a Endpoint,
    /// 1-based input line.
    pub line: usize,
}

/// Counts established TCP connections per process name with their distinct peers, most
/// connections first (ties by name). A socket shared by several processes counts for each;
/// a socket without an owner counts for `-`. Feed it [`SsTable::established`](ss::SsTable::established) or
/// [`Netstat::established`](netstat::Netstat::established).
pub fn established_by_process<'a>(
    conns: impl IntoIterator<Item = ConnView<'a>>,
) -> Vec<ProcessConnections> {
    use std::collections::{BTreeMap, BTreeSet};
    #[derive(Default)]
    struct Acc {
        pids: BTreeSet<u32>,
        count: usize,
        peers: BTreeSet<String>,
        lines: Vec<usize>,
    }
    let mut by: BTreeMap<String, Acc> = BTreeMap::new();
    for c in conns {
        let mut add = |name: &str, pid: Option<u32>| {
            let a = by.entry(name.to_string()).or_default();
            a.count += 1;
            a.pids.extend(pid);
            a.peers.insert(c.peer.peer_host().to_string());
            a.lines.push(c.line);
        };
        if c.owners.is_empty() {
            add("-", None);
        }
        for o in c.owners {
            add(&o.name, o.pid);
        }
    }
    let mut out: Vec<ProcessConnections> = by
        .into_iter()
        .map(|(process, a)| ProcessConnections {
            process,
            pids: a.pids.into_iter().collect(),
            established: a.count,
            peers: a.peers.into_iter().collect(),
            lines: a.lines,
        })
        .collect();
    out.sort_by(|a, b| {
        b.established
            .cmp(&a.established)
            .then(a.process.cmp(&b.process))
    });
    out
}

/// Splits off the next whitespace-separated token.
fn next_token(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start();
    if s.is_empty() {
        return None;
    }
    let end = s.find([' ', '\t']).unwrap_or(s.len());
    s.split_at_checked(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints() {
        let e = Endpoint::inet("[::ffff:10.0.0.1]:8080");
        assert_eq!(e.host(), "::ffff:10.0.0.1");
        assert_eq!(e.peer_host(), "10.0.0.1");
        assert_eq!(e.port_number(), Some(8080));
        let e = Endpoint::inet("127.0.0.53%lo:53");
        assert_eq!((e.host(), e.scope()), ("127.0.0.53", Some("lo")));
        let e = Endpoint::inet(":::37968");
        assert_eq!((e.host(), e.port()), ("::", Some("37968")));
        let e = Endpoint::inet("*:*");
        assert_eq!((e.host(), e.port()), ("*", Some("*")));
        let e = Endpoint::inet("[fe80::1%eth0]:22");
        assert_eq!((e.host(), e.scope()), ("fe80::1", Some("eth0")));
    }
}
