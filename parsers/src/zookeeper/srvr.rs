//! `srvr` (and `stat`, which prints the same lines plus a client list): a ZooKeeper server's
//! version, latency, counters and mode (3.4 to 3.9).
//!
//! Units: `Latency min/avg/max` is milliseconds.
//!
//! Sample input (ZooKeeper 3.8.0 `echo srvr | nc 127.0.0.1 2181`):
//! ```text
//! Zookeeper version: 3.8.0-${mvngit.commit.id}, built on 2024-12-29 17:54 UTC
//! Latency min/avg/max: 0/1.2632/8
//! Received: 23
//! Sent: 24
//! Connections: 3
//! Outstanding: 0
//! Zxid: 0x9
//! Mode: standalone
//! Node count: 12
//! ```

use super::config::KeyValue;
use crate::common::{
    excerpt, head_lines, numbered_lines, parse_num, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// The answer to `srvr` (or the server part of `stat`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Srvr {
    /// `Zookeeper version:` text, e.g. `3.8.0-…, built on 2024-12-29 17:54 UTC`.
    pub version: Option<String>,
    /// `Latency min/avg/max` minimum, ms.
    pub latency_min: Option<f64>,
    /// `Latency min/avg/max` average, ms.
    pub latency_avg: Option<f64>,
    /// `Latency min/avg/max` maximum, ms.
    pub latency_max: Option<f64>,
    /// `Received:` packets.
    pub received: Option<u64>,
    /// `Sent:` packets.
    pub sent: Option<u64>,
    /// `Connections:`.
    pub connections: Option<u64>,
    /// `Outstanding:` requests.
    pub outstanding: Option<u64>,
    /// `Zxid:` (hex in the output).
    pub zxid: Option<u64>,
    /// `Mode:` `standalone`, `leader`, `follower`, `observer`, `read-only`.
    pub mode: Option<String>,
    /// `Node count:`.
    pub node_count: Option<u64>,
    /// Every `Key: value` line, with its input line.
    pub entries: Vec<KeyValue>,
}

/// `srvr`/`stat` output?
///
/// `Yes` when a line starts with `Zookeeper version:` or `Latency min/avg/max:`; `No`
/// otherwise.
pub fn sniff_srvr(head: &str) -> Sniff {
    for (l, _) in head_lines(head) {
        if l.starts_with("Zookeeper version:") || l.starts_with("Latency min/avg/max:") {
            return Sniff::Yes;
        }
    }
    Sniff::No
}

/// Parses the answer to `srvr` (also `stat`, whose `Clients:` list is skipped).
///
/// Errors: [`ParseError::Unusable`] when no `Zookeeper version:` / known `Key: value` line is
/// found.
pub fn parse_srvr(text: &str) -> Result<Parsed<Srvr>, ParseError> {
    let mut out = Srvr::default();
    let mut issues = Issues::default();
    let mut known = 0usize;
    let mut in_clients = false;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            in_clients = false;
            continue;
        }
        if t == "Clients:" {
            in_clients = true;
            continue;
        }
        if in_clients && t.starts_with('/') {
            continue;
        }
        let Some((k, v)) = t.split_once(':') else {
            issues.push(n, || {
                format!("expected `Key: value`, found `{}`", excerpt(line))
            });
            continue;
        };
        let (k, v) = (k.trim(), v.trim());
        let mut bad = false;
        let count = |slot: &mut Option<u64>| match v.parse() {
            Ok(x) => {
                *slot = Some(x);
                false
            }
            Err(_) => true,
        };
        match k {
            "Zookeeper version" => out.version = Some(v.to_string()),
            "Latency min/avg/max" => {
                let p: Vec<Option<f64>> = v.split('/').map(parse_num).collect();
                match p.as_slice() {
                    [Some(a), Some(b), Some(c)] => {
                        out.latency_min = Some(*a);
                        out.latency_avg = Some(*b);
                        out.latency_max = Some(*c);
                    }
                    _ => bad = true,
                }
            }
            "Received" => bad = count(&mut out.received),
            "Sent" => bad = count(&mut out.sent),
            "Connections" => bad = count(&mut out.connections),
            "Outstanding" => bad = count(&mut out.outstanding),
            "Node count" => bad = count(&mut out.node_count),
            "Zxid" => match v
                .strip_prefix("0x")
                .and_then(|h| u64::from_str_radix(h, 16).ok())
            {
                Some(z) => out.zxid = Some(z),
                None => bad = true,
            },
            "Mode" => out.mode = Some(v.to_string()),
            _ => {}
        }
        if bad {
            issues.push(n, || {
                format!("unreadable value for `{k}`: `{}`", excerpt(v))
            });
        } else {
            known += 1;
        }
        out.entries.push(KeyValue {
            key: k.to_string(),
            value: v.to_string(),
            line: n,
        });
    }
    if out.version.is_none() && known == 0 {
        return Err(ParseError::unusable(
            None,
            "no `Zookeeper version:` or `Key: value` line found",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
