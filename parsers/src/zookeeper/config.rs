//! ZooKeeper's configuration: the `zoo.cfg` file and the `conf` four-letter word.
//!
//! - `zoo.cfg` ([`parse_cfg`]): Java-properties-like `key=value` lines and `#` comments (the
//!   shipped sample has trailing spaces after some comments). Every key is kept with its line;
//!   `server.N=host:peerPort:electionPort[:role][;[clientAddress:]clientPort]` lines are also
//!   read into [`ServerSpec`]s (3.4 configs have no client part).
//! - `conf` ([`parse_conf`]): the running configuration as `key=value` lines, with a
//!   `membership:` block of `server.N=…` lines and a `version=` line in quorum mode.
//!
//! Units: `tickTime` milliseconds, `initLimit`/`syncLimit` ticks.
//!
//! Sample input (ZooKeeper 3.8.0 `echo conf | nc 127.0.0.1 2181`, standalone):
//! ```text
//! clientPort=43303
//! secureClientPort=-1
//! dataDir=/tmp/zkb/data/version-2
//! dataDirSize=67109337
//! tickTime=2000
//! maxClientCnxns=60
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
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
