//! `mntr`: ZooKeeper's monitoring counters (3.4 to 3.9).
//!
//! `zk_key<TAB>value` lines; numbers are typed, unknown keys kept. Units: `zk_*latency` are
//! milliseconds, `zk_approximate_data_size` bytes.
//!
//! (In the sample, the tabs of the real output are shown as spaces.)
//!
//! Sample input (ZooKeeper 3.8.0 `echo mntr | nc 127.0.0.1 2181`):
//! ```text
//! zk_version  3.8.0-${mvngit.commit.id}, built on 2024-12-29 17:54 UTC
//! zk_server_state standalone
//! zk_ephemerals_count 1
//! zk_num_alive_connections    3
//! zk_avg_latency  1.3529
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, parse_num, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

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
