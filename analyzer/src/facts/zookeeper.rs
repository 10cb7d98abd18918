//! ZooKeeper facts: each server the bundle asked with four-letter words, its configuration, and
//! the JVM that runs it.
//!
//! In: `mntr`, `wchs`, `conf`, `srvr` answers (grouped by their folder, the collector's
//! `zk/<host>_<port>/`), `zoo.cfg` files, and the [`Jvm`]s already built. Out: [`ZkServer`]s.

use super::jvm::Jvm;
use crate::artifacts::Collected;
use crate::evidence::Cited;
use parsers::kind::Data;
use parsers::zookeeper::config::ZooCfg;
use serde::Serialize;
use std::collections::BTreeMap;

/// One ZooKeeper server.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct ZkServer {
    /// Where its answers came from: the folder (`zk/127.0.0.1_2181`), or the `zoo.cfg` path when
    /// only the configuration is in the bundle.
    pub endpoint: String,
    /// Client port: from the folder name, `conf`, or `zoo.cfg`.
    pub client_port: Option<u64>,
    /// `zk_version` (`3.8.4-…`).
    pub version: Option<Cited<String>>,
    /// `zk_watch_count` from `mntr`.
    pub watch_count: Option<Cited<u64>>,
    /// `zk_znode_count`.
    pub znode_count: Option<Cited<u64>>,
    /// `zk_num_alive_connections`.
    pub connections: Option<Cited<u64>>,
    /// `zk_uptime`, ms (ZooKeeper ≥ 3.6).
    pub uptime_ms: Option<Cited<u64>>,
    /// `zk_snap_count`: snapshots written since start (ZooKeeper ≥ 3.6).
    pub snapshots: Option<Cited<u64>>,
    /// `zk_max_fsynctime`: longest transaction-log fsync since start, ms.
    pub max_fsync_ms: Option<Cited<f64>>,
    /// `wchs`: `Total watches:`.
    pub wchs_total: Option<Cited<u64>>,
    /// `wchs`: connections watching, and distinct watched paths, from `N connections watching M
    /// paths`.
    pub wchs_summary: Option<Cited<(u64, u64)>>,
    /// `dataDir`.
    pub data_dir: Option<Cited<String>>,
    /// `dataLogDir` (the transaction log; `dataDir` when unset).
    pub data_log_dir: Option<Cited<String>>,
    /// `snapCount`.
    pub snap_count: Option<Cited<u64>>,
    /// Path of the `zoo.cfg` or `conf` answer the settings came from.
    pub config_source: Option<String>,
    /// Index into `HostFacts::jvms` of the JVM running this server.
    pub jvm: Option<usize>,
}

impl ZkServer {
    /// A label for titles: the JVM's (`ZooKeeper (pid 4242)`) when known, else the endpoint.
    pub fn label(&self, jvms: &[Jvm]) -> String {
        match self.jvm.and_then(|i| jvms.get(i)) {
            Some(j) => j.label(),
            None => self.endpoint.clone(),
        }
    }

    /// Watches held by the server: `mntr`'s `zk_watch_count`, else `wchs`'s total.
    pub fn watches(&self) -> Option<&Cited<u64>> {
        self.watch_count.as_ref().or(self.wchs_total.as_ref())
    }
}

/// Watches or znodes beyond this (10¹²) cannot fit in any heap: such a value is corrupt.
pub const MAX_PLAUSIBLE_COUNT: u64 = 1_000_000_000_000;

fn port_of_dir(dir: &str) -> Option<u64> {
    let name = dir.rsplit('/').next()?;
    name.rsplit(['_', ':']).next()?.parse().ok()
}

fn parent(path: &str) -> String {
    path.rsplit_once('/')
        .map(|(d, _)| d.to_string())
        .unwrap_or_else(|| ".".into())
}

/// Builds the servers and links each to its JVM.
pub fn build(c: &Collected, jvms: &[Jvm]) -> Vec<ZkServer> {
    let mut by_dir: BTreeMap<String, ZkServer> = BTreeMap::new();
    for a in &c.artifacts {
        let Some(d) = a.data.as_ref() else { continue };
        let dir = parent(&a.path);
        let new = || ZkServer {
            endpoint: dir.clone(),
            client_port: port_of_dir(&dir),
            ..Default::default()
        };
        match d {
            Data::ZkMntr(m) => {
                let s = by_dir.entry(dir.clone()).or_insert_with(new);
                let cite = |key: &str| m.get(key).map(|e| e.line).unwrap_or(0);
                s.version = m
                    .version()
                    .map(|v| Cited::new(super::clip(v), &a.path, cite("zk_version")));
                // A count no server could hold (memory) is a corrupt value, not a measurement.
                s.watch_count = m
                    .watch_count()
                    .filter(|&v| v < MAX_PLAUSIBLE_COUNT)
                    .map(|v| Cited::new(v, &a.path, cite("zk_watch_count")));
                s.znode_count = m
                    .znode_count()
                    .map(|v| Cited::new(v, &a.path, cite("zk_znode_count")));
                s.connections = m
                    .num_alive_connections()
                    .map(|v| Cited::new(v, &a.path, cite("zk_num_alive_connections")));
                let whole = |key: &str| {
                    m.num(key)
                        .filter(|v| *v >= 0.0 && v.fract() == 0.0)
                        .map(|v| Cited::new(v as u64, &a.path, cite(key)))
                };
                s.uptime_ms = whole("zk_uptime");
                s.snapshots = whole("zk_snap_count");
                s.max_fsync_ms = m
                    .num("zk_max_fsynctime")
                    .map(|v| Cited::new(v, &a.path, cite("zk_max_fsynctime")));
            }
            Data::ZkWchs(w) => {
                let s = by_dir.entry(dir.clone()).or_insert_with(new);
                if let (Some(t), Some(l)) = (
                    w.total_watches.filter(|&t| t < MAX_PLAUSIBLE_COUNT),
                    w.total_line,
                ) {
                    s.wchs_total = Some(Cited::new(t, &a.path, l));
                }
                if let (Some(cn), Some(p), Some(l)) = (w.connections, w.paths, w.summary_line) {
                    s.wchs_summary = Some(Cited::new((cn, p), &a.path, l));
                }
            }
            Data::ZkConf(conf) => {
                let s = by_dir.entry(dir.clone()).or_insert_with(new);
                settings(s, &a.path, |k| {
                    conf.get(k).map(|e| (e.value.clone(), e.line))
                });
                if s.client_port.is_none() {
                    s.client_port = conf.client_port();
                }
            }
            Data::ZkSrvr(_) => {
                by_dir.entry(dir.clone()).or_insert_with(new);
            }
            _ => {}
        }
    }
    let mut servers: Vec<ZkServer> = by_dir.into_values().collect();

    // zoo.cfg files: settings for the server on the same client port, else a server of their own.
    let cfgs: Vec<(&str, &parsers::zookeeper::config::ZooCfg)> = c
        .records::<ZooCfg>()
        .map(|(a, z)| (a.path.as_str(), z))
        .collect();
    for (path, cfg) in &cfgs {
        let port = cfg.client_port();
        let target = servers
            .iter()
            .position(|s| port.is_some() && s.client_port == port)
            .or_else(|| (servers.len() == 1 && cfgs.len() == 1).then_some(0));
        let idx = match target {
            Some(i) => i,
            None => {
                servers.push(ZkServer {
                    endpoint: path.to_string(),
                    client_port: port,
                    ..Default::default()
                });
                servers.len() - 1
            }
        };
        let s = &mut servers[idx];
        // `conf` (what the server runs with) wins over the file.
        if s.config_source.is_none() {
            settings(s, path, |k| cfg.get(k).map(|e| (e.value.clone(), e.line)));
        }
    }

    // Link servers to JVMs: the JVM whose arguments name the server's zoo.cfg, else the only
    // ZooKeeper JVM when there is one server.
    let zk_jvms: Vec<usize> = jvms
        .iter()
        .enumerate()
        .filter(|(_, j)| j.role.as_deref() == Some("ZooKeeper"))
        .map(|(i, _)| i)
        .collect();
    let n = servers.len();
    for s in &mut servers {
        let by_cfg = s.config_source.as_deref().and_then(|cfg| {
            // The collector copies a file to `configs/<its absolute path>`.
            let abs = match cfg.find("configs/") {
                Some(i) if i == 0 || cfg.get(..i).is_some_and(|h| h.ends_with('/')) => {
                    cfg.get(i + "configs".len()..).unwrap_or(cfg)
                }
                _ => cfg,
            };
            zk_jvms
                .iter()
                .copied()
                .find(|&i| jvms[i].args.iter().any(|a| a == abs))
        });
        s.jvm = by_cfg.or_else(|| (zk_jvms.len() == 1 && n == 1).then(|| zk_jvms[0]));
    }
    // A ZooKeeper JVM with no four-letter words and no zoo.cfg is still a server.
    for &i in &zk_jvms {
        if !servers.iter().any(|s| s.jvm == Some(i)) {
            servers.push(ZkServer {
                endpoint: jvms[i].dir.clone(),
                jvm: Some(i),
                ..Default::default()
            });
        }
    }
    servers
}

/// Reads `dataDir`, `dataLogDir` and `snapCount` through `get`.
fn settings(s: &mut ZkServer, path: &str, get: impl Fn(&str) -> Option<(String, usize)>) {
    s.config_source = Some(path.to_string());
    s.data_dir = get("dataDir").map(|(v, l)| Cited::new(v, path, l));
    s.data_log_dir = get("dataLogDir").map(|(v, l)| Cited::new(v, path, l));
    s.snap_count = get("snapCount").and_then(|(v, l)| Some(Cited::new(v.parse().ok()?, path, l)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_come_from_the_collector_folder_name() {
        assert_eq!(port_of_dir("zk/127.0.0.1_2181"), Some(2181));
        assert_eq!(port_of_dir("zk/zk1.example_12181"), Some(12181));
        assert_eq!(port_of_dir("zk/[::1]_2181"), Some(2181));
        assert_eq!(port_of_dir("zk"), None);
    }
}
