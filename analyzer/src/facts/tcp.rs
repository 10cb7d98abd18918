//! TCP retransmissions, per-connection TCP internals, the socket summary and connection-tracking
//! statistics.
//!
//! In: `netstat -s`, `nstat`, `/proc/net/snmp` (two snapshots, else one read since boot),
//! `ss -i` listings, `ss -s`, `conntrack -S` and `/proc/net/stat/nf_conntrack`. Out: the parts
//! of [`NetStack`](super::NetStack) named [`TcpRetrans`], [`RetransPeer`], the `ss -s` summary
//! and the conntrack `drop` / `insert_failed` / `early_drop` changes.

use super::CounterChange;
use crate::artifacts::{Artifact, Collected};
use crate::evidence::Cited;
use parsers::kind;
use parsers::net::conntrack_stat::ConntrackStats;
use parsers::net::netstat_s::NetstatS;
use parsers::proc::snmp::Snmp;
use parsers::procs::ss::SsTable;
use parsers::procs::ss_summary::SsSummary;
use serde::Serialize;

/// TCP segments sent and retransmitted, over the window (two snapshots of one source) or since
/// boot (one read).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TcpRetrans {
    /// Seconds between the snapshots, when known.
    pub seconds: Option<f64>,
    /// The source of the two snapshots the counts are between; `None` with `seconds: None`:
    /// the counters since boot.
    pub between: Option<&'static str>,
    /// `Tcp: OutSegs` increase (segments sent, retransmissions included).
    pub out_segs: u64,
    /// `Tcp: RetransSegs` increase (segments retransmitted).
    pub retrans_segs: u64,
    /// `TcpExt: TCPTimeouts` increase (retransmission timer expiries), when printed.
    pub timeouts: Option<u64>,
    /// `TcpExt: TCPLostRetransmit` increase (retransmissions lost again), when printed.
    pub lost_retransmit: Option<u64>,
    /// `TcpExt: TCPSynRetrans` increase (SYN and SYN-ACK retransmissions), when printed.
    pub syn_retrans: Option<u64>,
    /// The first snapshot's `RetransSegs` and `OutSegs` lines, when over the window.
    pub first: Option<Cited<()>>,
}

impl TcpRetrans {
    /// `RetransSegs / OutSegs`; `None` when nothing was sent.
    pub fn ratio(&self) -> Option<f64> {
        (self.out_segs > 0).then(|| self.retrans_segs as f64 / self.out_segs as f64)
    }

    /// As a [`CounterChange`] of `RetransSegs`, for the shared wording of counters.
    pub fn change(&self) -> CounterChange {
        CounterChange {
            delta: self.retrans_segs,
            seconds: self.seconds,
            between: self.between,
        }
    }
}

/// A connection with retransmissions, from `ss -i`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RetransPeer {
    /// Local address:port.
    pub local: String,
    /// Peer address:port.
    pub peer: String,
    /// `retrans:a/b` `b`: segments retransmitted over the connection's life.
    pub retrans_total: u64,
    /// `data_segs_out`, when printed.
    pub data_segs_out: Option<u64>,
    /// `rto`, ms.
    pub rto_ms: Option<f64>,
    /// `cwnd`, segments.
    pub cwnd: Option<u64>,
    /// Owning process, when shown.
    pub process: Option<String>,
}

/// How many connections with retransmissions are kept, most retransmissions first.
pub const RETRANS_PEERS: usize = 5;

/// One source's counters read from one record: `(value, line)` of each of OutSegs,
/// RetransSegs, TCPTimeouts, TCPLostRetransmit, TCPSynRetrans.
type Read = [Option<(u64, usize)>; 5];

const NAMES: [(&str, &str); 5] = [
    ("Tcp", "OutSegs"),
    ("Tcp", "RetransSegs"),
    ("TcpExt", "TCPTimeouts"),
    ("TcpExt", "TCPLostRetransmit"),
    ("TcpExt", "TCPSynRetrans"),
];

fn read_netstat(x: &NetstatS) -> Read {
    NAMES.map(|(sec, key)| {
        x.section(sec)?
            .entries
            .iter()
            .find(|e| e.key.as_deref() == Some(key))
            .map(|e| (e.value, e.line))
    })
}

fn read_snmp(x: &Snmp) -> Read {
    NAMES.map(|(group, key)| {
        x.groups
            .iter()
            .filter(|g| g.name == group)
            .flat_map(|g| g.counters.iter())
            .find(|c| c.name == key)
            .map(|c| (c.value.max(0) as u64, c.line))
    })
}

/// The counters of the first source that has OutSegs and RetransSegs: the change between two
/// snapshots, else (with `since_boot`) the latest read.
fn retrans_from<R: parsers::kind::Record + super::snapshots::Counters>(
    c: &Collected,
    of: &'static parsers::kind::KindSpec,
    pick: fn(&R) -> Option<&R>,
    read: fn(&R) -> Read,
    since_boot: bool,
) -> Option<Cited<TcpRetrans>> {
    let build = |a: Read,
                 b: Read,
                 seconds: Option<f64>,
                 between: Option<&'static str>,
                 last: &Artifact,
                 first: Option<&Artifact>| {
        let (Some(o1), Some(r1)) = (b[0], b[1]) else {
            return None;
        };
        let paired = seconds.is_some() || between.is_some();
        let (o0, r0) = if paired { (a[0]?.0, a[1]?.0) } else { (0, 0) };
        let d = |i: usize| -> Option<u64> {
            let now = b[i]?.0;
            if paired {
                Some(now.saturating_sub(a[i].map_or(0, |x| x.0)))
            } else {
                Some(now)
            }
        };
        let lines: Vec<usize> = b.iter().flatten().map(|x| x.1).collect();
        Some(Cited::lines(
            TcpRetrans {
                seconds,
                between,
                out_segs: o1.0.saturating_sub(o0),
                retrans_segs: r1.0.saturating_sub(r0),
                timeouts: d(2),
                lost_retransmit: d(3),
                syn_retrans: d(4),
                first: first.map(|f| {
                    Cited::lines(
                        (),
                        &f.path,
                        a.iter().take(2).flatten().map(|x| x.1).collect(),
                    )
                }),
            },
            &last.path,
            lines,
        ))
    };
    if let Ok(p) = super::snapshots::ordered(c, of, pick) {
        if let Some(r) = build(
            read(p.first.1),
            read(p.last.1),
            p.seconds,
            Some(of.source),
            p.last.0,
            Some(p.first.0),
        ) {
            return Some(r);
        }
    }
    if !since_boot {
        return None;
    }
    let (a, x) = super::snapshots::latest(c, of, pick)?;
    build([None; 5], read(x), None, None, a, None)
}

/// TCP retransmissions: over the window from `netstat -s`, else `nstat`, else `/proc/net/snmp`
/// snapshots; else since boot from the latest read of the same order.
pub fn retrans(c: &Collected) -> Option<Cited<TcpRetrans>> {
    for since_boot in [false, true] {
        let found = retrans_from(
            c,
            &kind::NETSTAT_S,
            |x: &NetstatS| Some(x),
            read_netstat,
            since_boot,
        )
        .or_else(|| retrans_from(c, &kind::NSTAT, |x: &Snmp| Some(x), read_snmp, since_boot))
        .or_else(|| {
            // `/proc/net/snmp` and `/proc/net/netstat` share a kind: the files with a `Tcp`
            // group.
            retrans_from(
                c,
                &kind::NET_SNMP,
                |x: &Snmp| x.groups.iter().any(|g| g.name == "Tcp").then_some(x),
                read_snmp,
                since_boot,
            )
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The connections with the most retransmissions in the latest `ss` listing with `-i` lines.
pub fn retrans_peers(c: &Collected) -> Vec<Cited<RetransPeer>> {
    let Some((a, t)) = c
        .records::<SsTable>()
        .filter(|(_, t)| t.sockets.iter().any(|s| s.info.is_some()))
        .last()
    else {
        return Vec::new();
    };
    let mut peers: Vec<Cited<RetransPeer>> = t
        .sockets
        .iter()
        .filter_map(|s| {
            let i = *s.info.as_deref()?;
            let total = i.retrans_total.filter(|&n| n > 0)?;
            Some(Cited::lines(
                RetransPeer {
                    local: s.local.text.to_string(),
                    peer: s.peer.text.to_string(),
                    retrans_total: total,
                    data_segs_out: i.data_segs_out,
                    rto_ms: i.rto_us.map(|us| us as f64 / 1000.0),
                    cwnd: i.cwnd,
                    process: s.users.first().map(|u| u.name.to_string()),
                },
                &a.path,
                vec![s.line, i.line],
            ))
        })
        .collect();
    peers.sort_by_key(|p| std::cmp::Reverse(p.value.retrans_total));
    peers.truncate(RETRANS_PEERS);
    peers
}

/// The latest `ss -s`.
pub fn summary(c: &Collected) -> Option<Cited<SsSummary>> {
    let (a, s) = super::snapshots::latest(c, &kind::SS_S, |x: &SsSummary| Some(x))?;
    Some(Cited::lines(*s, &a.path, vec![s.total_line, s.tcp_line]))
}

/// A conntrack statistic summed over CPUs: its change over the window, else since the module
/// was loaded; from `conntrack -S`, else `/proc/net/stat/nf_conntrack`.
pub fn conntrack_counter(c: &Collected, name: &'static str) -> Option<Cited<CounterChange>> {
    fn read(name: &str) -> impl Fn(&ConntrackStats) -> Option<(u64, usize)> + '_ {
        move |s| {
            let line = s
                .cpus
                .iter()
                .find(|c| c.get(name).is_some_and(|v| v > 0))
                .or(s.cpus.first())?
                .line;
            Some((s.total(name)?, line))
        }
    }
    // `counter_change` takes plain functions: one per counter name.
    macro_rules! counter {
        ($n:literal) => {
            [&kind::CONNTRACK_S, &kind::NF_CONNTRACK_STAT]
                .into_iter()
                .find_map(|of| {
                    super::snapshots::counter_change(c, of, |s: &ConntrackStats| read($n)(s))
                })
        };
    }
    match name {
        "drop" => counter!("drop"),
        "insert_failed" => counter!("insert_failed"),
        "early_drop" => counter!("early_drop"),
        _ => None,
    }
}
