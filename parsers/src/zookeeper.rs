//! Apache ZooKeeper (3.4 to 3.9): the `zoo.cfg` configuration file and the answers to the
//! four-letter-word commands `mntr`, `wchs`, `srvr` (and `stat`, which prints the same lines
//! plus a client list) and `conf`.
//!
//! - `zoo.cfg` ([`parse_cfg`]): Java-properties-like `key=value` lines and `#` comments (the
//!   shipped sample has trailing spaces after some comments). Every key is kept with its line;
//!   `server.N=host:peerPort:electionPort[:role][;[clientAddress:]clientPort]` lines are also
//!   read into [`ServerSpec`]s (3.4 configs have no client part).
//! - `mntr` ([`parse_mntr`]): `zk_key<TAB>value` lines; numbers are typed, unknown keys kept.
//! - `wchs` ([`parse_wchs`]): `2 connections watching 5 paths` and `Total watches:7`.
//! - `srvr` ([`parse_srvr`]): `Zookeeper version:`, `Latency min/avg/max: 0/1.2632/8`,
//!   `Received:`, `Sent:`, `Connections:`, `Outstanding:`, `Zxid: 0x9`, `Mode: standalone`,
//!   `Node count: 12`.
//! - `conf` ([`parse_conf`]): the running configuration as `key=value` lines, with a
//!   `membership:` block of `server.N=…` lines and a `version=` line in quorum mode.
//!
//! Units: `zk_*latency` and `Latency min/avg/max` are milliseconds, `zk_approximate_data_size`
//! bytes, `tickTime` milliseconds, `initLimit`/`syncLimit` ticks.
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

use crate::common::{
    excerpt, head_lines, numbered_lines, parse_num, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One `key=value` line (also `Key: value` for `srvr`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KeyValue {
    /// Key as written, e.g. `tickTime`, `autopurge.purgeInterval`.
    pub key: String,
    /// Value with surrounding whitespace removed.
    pub value: String,
    /// 1-based input line.
    pub line: usize,
}

/// One `server.N=…` line of `zoo.cfg` or of the `conf` membership block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ServerSpec {
    /// `N` of `server.N` (the server id, `myid`).
    pub id: u64,
    /// Host name or address (IPv6 without its brackets) of the first address.
    pub host: String,
    /// Quorum (peer) port, usually 2888.
    pub peer_port: Option<u16>,
    /// Leader-election port, usually 3888.
    pub election_port: Option<u16>,
    /// `participant` or `observer`, when written.
    pub role: Option<String>,
    /// Client address after `;` when written as `address:port`.
    pub client_address: Option<String>,
    /// Client port after `;` (absent in 3.4-style lines).
    pub client_port: Option<u16>,
    /// The value as written.
    pub raw: String,
    /// 1-based input line.
    pub line: usize,
}

/// Keys with a typed getter: the value must be a whole number.
const NUMERIC_KEYS: &[&str] = &[
    "tickTime",
    "initLimit",
    "syncLimit",
    "clientPort",
    "snapCount",
    "maxClientCnxns",
    "autopurge.snapRetainCount",
    "autopurge.purgeInterval",
    "minSessionTimeout",
    "maxSessionTimeout",
];

/// Keys only ZooKeeper uses, for sniffing `zoo.cfg`.
const CFG_KEYS: &[&str] = &[
    "tickTime",
    "initLimit",
    "syncLimit",
    "dataDir",
    "dataLogDir",
    "clientPort",
    "maxClientCnxns",
    "autopurge.snapRetainCount",
    "autopurge.purgeInterval",
    "4lw.commands.whitelist",
];

/// Keys that only the `conf` command prints (never written in a `zoo.cfg`).
const CONF_ONLY_KEYS: &[&str] = &[
    "dataDirSize",
    "dataLogSize",
    "serverId",
    "secureClientPort",
    "clientPortListenBacklog",
];

/// Typed getters shared by [`ZooCfg`] and [`ZkConf`].
macro_rules! typed_getters {
    () => {
        /// The last entry for `key` (ZooKeeper keeps the last of repeated keys).
        pub fn get(&self, key: &str) -> Option<&KeyValue> {
            self.entries.iter().rev().find(|e| e.key == key)
        }
        /// Value of `key` as a whole number.
        pub fn get_u64(&self, key: &str) -> Option<u64> {
            self.get(key).and_then(|e| e.value.parse().ok())
        }
        /// `tickTime`: the basic time unit, milliseconds.
        pub fn tick_time(&self) -> Option<u64> {
            self.get_u64("tickTime")
        }
        /// `initLimit`: ticks a follower may take to connect and sync to the leader.
        pub fn init_limit(&self) -> Option<u64> {
            self.get_u64("initLimit")
        }
        /// `syncLimit`: ticks a follower may lag behind the leader.
        pub fn sync_limit(&self) -> Option<u64> {
            self.get_u64("syncLimit")
        }
        /// `dataDir`: snapshot directory.
        pub fn data_dir(&self) -> Option<&str> {
            self.get("dataDir").map(|e| e.value.as_str())
        }
        /// `dataLogDir`: transaction-log directory (defaults to `dataDir` when absent).
        pub fn data_log_dir(&self) -> Option<&str> {
            self.get("dataLogDir").map(|e| e.value.as_str())
        }
        /// `clientPort`.
        pub fn client_port(&self) -> Option<u64> {
            self.get_u64("clientPort")
        }
        /// `snapCount`: transactions between snapshots.
        pub fn snap_count(&self) -> Option<u64> {
            self.get_u64("snapCount")
        }
        /// `maxClientCnxns`: connections allowed per client IP (0 = unlimited).
        pub fn max_client_cnxns(&self) -> Option<u64> {
            self.get_u64("maxClientCnxns")
        }
        /// `autopurge.snapRetainCount`: snapshots kept by the purge task.
        pub fn autopurge_snap_retain_count(&self) -> Option<u64> {
            self.get_u64("autopurge.snapRetainCount")
        }
        /// `autopurge.purgeInterval`: hours between purges (0 = purge disabled).
        pub fn autopurge_purge_interval(&self) -> Option<u64> {
            self.get_u64("autopurge.purgeInterval")
        }
    };
}

/// A `zoo.cfg` file.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ZooCfg {
    /// Every `key=value` line in input order, `server.N` lines included.
    pub entries: Vec<KeyValue>,
    /// The `server.N` lines that could be read (empty for a standalone server).
    pub servers: Vec<ServerSpec>,
}

impl ZooCfg {
    typed_getters!();
}

/// The answer to `conf`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ZkConf {
    /// Every `key=value` line in input order, membership lines included.
    pub entries: Vec<KeyValue>,
    /// The `server.N` lines of the `membership:` block.
    pub membership: Vec<ServerSpec>,
}

impl ZkConf {
    typed_getters!();
}

/// Parses the value of a `server.N` line.
fn parse_server(id: u64, value: &str, line: usize) -> Option<ServerSpec> {
    let (addrs, client) = match value.split_once(';') {
        Some((a, c)) => (a.trim(), Some(c.trim())),
        None => (value.trim(), None),
    };
    // 3.6+ may list several addresses separated by `|`; the first one is described.
    let addr = addrs.split('|').next().unwrap_or(addrs);
    let (host, rest) = if let Some(v6) = addr.strip_prefix('[') {
        let (h, r) = v6.split_once(']')?;
        (h, r.strip_prefix(':').unwrap_or(r))
    } else {
        match addr.split_once(':') {
            Some((h, r)) => (h, r),
            None => (addr, ""),
        }
    };
    if host.is_empty() {
        return None;
    }
    let mut parts = rest.split(':').filter(|p| !p.is_empty());
    let peer_port = match parts.next() {
        Some(p) => Some(p.parse().ok()?),
        None => None,
    };
    let election_port = match parts.next() {
        Some(p) => Some(p.parse().ok()?),
        None => None,
    };
    let role = parts.next().map(str::to_string);
    let (client_address, client_port) = match client {
        Some(c) if !c.is_empty() => match c.rsplit_once(':') {
            Some((a, p)) => (
                Some(a.trim_matches(['[', ']']).to_string()),
                Some(p.parse().ok()?),
            ),
            None => (None, Some(c.parse().ok()?)),
        },
        _ => (None, None),
    };
    Some(ServerSpec {
        id,
        host: host.to_string(),
        peer_port,
        election_port,
        role,
        client_address,
        client_port,
        raw: value.trim().to_string(),
        line,
    })
}

/// Reads one `key=value` line; checks numeric keys and `server.N` lines. Returns the entry and
/// the server spec when it is a readable `server.N` line.
fn read_kv(n: usize, line: &str, issues: &mut Issues) -> Option<(KeyValue, Option<ServerSpec>)> {
    let Some((k, v)) = line.split_once('=') else {
        issues.push(n, || {
            format!("expected `key=value`, found `{}`", excerpt(line))
        });
        return None;
    };
    let (key, value) = (k.trim(), v.trim());
    if key.is_empty() || key.contains(char::is_whitespace) {
        issues.push(n, || {
            format!("expected a key before `=`, found `{}`", excerpt(line))
        });
        return None;
    }
    if NUMERIC_KEYS.contains(&key) && value.parse::<u64>().is_err() {
        issues.push(n, || {
            format!(
                "expected a whole number for `{key}`, found `{}`",
                excerpt(value)
            )
        });
    }
    let mut server = None;
    if let Some(id) = key.strip_prefix("server.") {
        match id.parse::<u64>().ok().and_then(|id| parse_server(id, value, n)) {
            Some(s) => server = Some(s),
            None => issues.push(n, || {
                format!(
                    "expected `server.N=host:peerPort:electionPort[:role][;clientPort]`, found `{}`",
                    excerpt(line)
                )
            }),
        }
    }
    Some((
        KeyValue {
            key: key.to_string(),
            value: value.to_string(),
            line: n,
        },
        server,
    ))
}

/// Does a head contain a key only `conf` prints, or the `membership:` line?
fn has_conf_only(head: &str) -> bool {
    head_lines(head).any(|(l, _)| {
        let t = l.trim();
        t == "membership:"
            || t.split_once('=')
                .is_some_and(|(k, _)| CONF_ONLY_KEYS.contains(&k.trim()))
    })
}

/// Is every non-comment line of the head a `key=value` line, and is one a ZooKeeper key?
fn zk_properties(head: &str, allow_comments: bool) -> bool {
    let mut known = false;
    for (l, complete) in head_lines(head) {
        let t = l.trim();
        if t.is_empty() || (allow_comments && (t.starts_with('#') || t.starts_with('!'))) {
            continue;
        }
        if t == "membership:" && !allow_comments {
            continue;
        }
        match t.split_once('=') {
            Some((k, _)) => {
                let k = k.trim();
                if CFG_KEYS.contains(&k)
                    || k.strip_prefix("server.")
                        .is_some_and(|id| id.parse::<u64>().is_ok())
                {
                    known = true;
                }
            }
            None if !complete => {}
            None => return false,
        }
    }
    known
}

/// `zoo.cfg`?
///
/// `Yes` when every non-comment line is `key=value` and one of them is a ZooKeeper key
/// (`tickTime`, `dataDir`, `clientPort`, `server.N`, …), unless a key that only the `conf`
/// command prints is present; `No` otherwise.
pub fn sniff_cfg(head: &str) -> Sniff {
    if !has_conf_only(head) && zk_properties(head, true) {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses a `zoo.cfg` file.
///
/// Errors: [`ParseError::Unusable`] when no `key=value` line is found. Other lines, non-numeric
/// values of numeric keys and unreadable `server.N` values become issues.
pub fn parse_cfg(text: &str) -> Result<Parsed<ZooCfg>, ParseError> {
    let mut out = ZooCfg::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with('!') {
            continue;
        }
        if let Some((kv, server)) = read_kv(n, t, &mut issues) {
            out.entries.push(kv);
            out.servers.extend(server);
        }
    }
    if out.entries.is_empty() {
        return Err(ParseError::unusable(None, "no `key=value` line found"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// `conf` output?
///
/// `Yes` when a key that only `conf` prints (`dataDirSize`, `serverId`, `secureClientPort`,
/// …) or the `membership:` line is present and every other line is `key=value`; `No`
/// otherwise.
pub fn sniff_conf(head: &str) -> Sniff {
    if has_conf_only(head) && zk_properties(head, false) {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses the answer to `conf`.
///
/// Errors: [`ParseError::Unusable`] when no `key=value` line is found.
pub fn parse_conf(text: &str) -> Result<Parsed<ZkConf>, ParseError> {
    let mut out = ZkConf::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() || t == "membership:" {
            continue;
        }
        if let Some((kv, server)) = read_kv(n, t, &mut issues) {
            out.entries.push(kv);
            out.membership.extend(server);
        }
    }
    if out.entries.is_empty() {
        return Err(ParseError::unusable(None, "no `key=value` line found"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// One `mntr` line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MntrEntry {
    /// Key as printed, e.g. `zk_avg_latency`.
    pub key: String,
    /// Value as printed.
    pub value: String,
    /// The value as a number, when it is one.
    pub num: Option<f64>,
    /// 1-based input line.
    pub line: usize,
}

/// The answer to `mntr`: every line, in input order.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Mntr {
    /// Every `key<TAB>value` line.
    pub entries: Vec<MntrEntry>,
}

impl Mntr {
    /// The entry for `key` (e.g. `zk_watch_count`).
    pub fn get(&self, key: &str) -> Option<&MntrEntry> {
        self.entries.iter().find(|e| e.key == key)
    }
    /// Numeric value of `key`.
    pub fn num(&self, key: &str) -> Option<f64> {
        self.get(key).and_then(|e| e.num)
    }
    /// Numeric value of `key` as a whole number.
    fn count(&self, key: &str) -> Option<u64> {
        self.num(key)
            .filter(|v| *v >= 0.0 && v.fract() == 0.0)
            .map(|v| v as u64)
    }
    /// `zk_version`, e.g. `3.8.0-…, built on …`.
    pub fn version(&self) -> Option<&str> {
        self.get("zk_version").map(|e| e.value.as_str())
    }
    /// `zk_server_state`: `standalone`, `leader`, `follower`, `observer`.
    pub fn server_state(&self) -> Option<&str> {
        self.get("zk_server_state").map(|e| e.value.as_str())
    }
    /// `zk_avg_latency`, ms.
    pub fn avg_latency(&self) -> Option<f64> {
        self.num("zk_avg_latency")
    }
    /// `zk_max_latency`, ms.
    pub fn max_latency(&self) -> Option<f64> {
        self.num("zk_max_latency")
    }
    /// `zk_min_latency`, ms.
    pub fn min_latency(&self) -> Option<f64> {
        self.num("zk_min_latency")
    }
    /// `zk_num_alive_connections`.
    pub fn num_alive_connections(&self) -> Option<u64> {
        self.count("zk_num_alive_connections")
    }
    /// `zk_outstanding_requests`: requests queued, not yet processed.
    pub fn outstanding_requests(&self) -> Option<u64> {
        self.count("zk_outstanding_requests")
    }
    /// `zk_znode_count`.
    pub fn znode_count(&self) -> Option<u64> {
        self.count("zk_znode_count")
    }
    /// `zk_watch_count`.
    pub fn watch_count(&self) -> Option<u64> {
        self.count("zk_watch_count")
    }
    /// `zk_ephemerals_count`.
    pub fn ephemerals_count(&self) -> Option<u64> {
        self.count("zk_ephemerals_count")
    }
    /// `zk_approximate_data_size`, bytes.
    pub fn approximate_data_size(&self) -> Option<u64> {
        self.count("zk_approximate_data_size")
    }
    /// `zk_open_file_descriptor_count`.
    pub fn open_file_descriptor_count(&self) -> Option<u64> {
        self.count("zk_open_file_descriptor_count")
    }
    /// `zk_max_file_descriptor_count`.
    pub fn max_file_descriptor_count(&self) -> Option<u64> {
        self.count("zk_max_file_descriptor_count")
    }
    /// `zk_followers` (leader only).
    pub fn followers(&self) -> Option<u64> {
        self.count("zk_followers")
    }
    /// `zk_synced_followers` (leader only).
    pub fn synced_followers(&self) -> Option<u64> {
        self.count("zk_synced_followers")
    }
    /// `zk_pending_syncs` (leader only).
    pub fn pending_syncs(&self) -> Option<u64> {
        self.count("zk_pending_syncs")
    }
}

/// `mntr` output?
///
/// `Yes` when a complete line is `zk_<key><TAB>value`; `No` otherwise.
pub fn sniff_mntr(head: &str) -> Sniff {
    for (l, complete) in head_lines(head) {
        if let Some((k, _)) = l.split_once('\t') {
            if k.starts_with("zk_")
                && k.len() > 3
                && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && (complete || k == "zk_version")
            {
                return Sniff::Yes;
            }
        }
    }
    Sniff::No
}

/// Parses the answer to `mntr`.
///
/// Errors: [`ParseError::Unusable`] when no `zk_…<TAB>value` line is found.
pub fn parse_mntr(text: &str) -> Result<Parsed<Mntr>, ParseError> {
    let mut out = Mntr::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        let kv = line
            .split_once('\t')
            .or_else(|| line.trim().split_once(char::is_whitespace));
        match kv {
            Some((k, v)) if k.starts_with("zk_") => {
                let v = v.trim();
                out.entries.push(MntrEntry {
                    key: k.to_string(),
                    value: v.to_string(),
                    num: if k == "zk_version" {
                        None
                    } else {
                        parse_num(v)
                    },
                    line: n,
                });
            }
            _ => issues.push(n, || {
                format!("expected `zk_<key><TAB>value`, found `{}`", excerpt(line))
            }),
        }
    }
    if out.entries.is_empty() {
        return Err(ParseError::unusable(
            None,
            "no `zk_<key><TAB>value` line found",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// The answer to `wchs`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Wchs {
    /// Connections with at least one watch.
    pub connections: Option<u64>,
    /// Distinct watched paths.
    pub paths: Option<u64>,
    /// 1-based line of `N connections watching M paths`.
    pub summary_line: Option<usize>,
    /// `Total watches:K`.
    pub total_watches: Option<u64>,
    /// 1-based line of `Total watches:`.
    pub total_line: Option<usize>,
}

/// `(connections, paths)` of `N connections watching M paths`.
fn wchs_summary(line: &str) -> Option<(u64, u64)> {
    let t: Vec<&str> = line.split_whitespace().collect();
    match t.as_slice() {
        [c, "connections", "watching", p, "paths"] => Some((c.parse().ok()?, p.parse().ok()?)),
        _ => None,
    }
}

/// `wchs` output?
///
/// `Yes` on `N connections watching M paths` or `Total watches:K`; `No` otherwise.
pub fn sniff_wchs(head: &str) -> Sniff {
    for (l, _) in head_lines(head) {
        if wchs_summary(l).is_some() || l.trim_start().starts_with("Total watches:") {
            return Sniff::Yes;
        }
    }
    Sniff::No
}

/// Parses the answer to `wchs`.
///
/// Errors: [`ParseError::Unusable`] when neither line is found.
pub fn parse_wchs(text: &str) -> Result<Parsed<Wchs>, ParseError> {
    let mut out = Wchs::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some((c, p)) = wchs_summary(t) {
            out.connections = Some(c);
            out.paths = Some(p);
            out.summary_line = Some(n);
        } else if let Some(v) = t.strip_prefix("Total watches:") {
            match v.trim().parse() {
                Ok(v) => {
                    out.total_watches = Some(v);
                    out.total_line = Some(n);
                }
                Err(_) => issues.push(n, || {
                    format!(
                        "expected a whole number after `Total watches:`, found `{}`",
                        excerpt(v)
                    )
                }),
            }
        } else {
            issues.push(n, || {
                format!(
                    "expected `N connections watching M paths` or `Total watches:K`, found `{}`",
                    excerpt(line)
                )
            });
        }
    }
    if out.summary_line.is_none() && out.total_line.is_none() {
        return Err(ParseError::unusable(
            None,
            "no `N connections watching M paths` or `Total watches:` line found",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

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
