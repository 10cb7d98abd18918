//! `/proc/net/dev`: traffic counters per network interface since it came up.
//!
//! Two header lines name the columns of the `Receive` and `Transmit` groups (split by `|`); the
//! columns are read from them, never assumed. Each row is `iface:` then the counters; the name
//! is right-aligned and, with a large first counter, glued to it (`eth0:123456789012 …`).
//! Interface names cannot contain `:` (the kernel refuses them), so the row splits at the first
//! colon.
//!
//! Sample input (Linux 5.x):
//! ```text
//! Inter-|   Receive                                                |  Transmit
//!  face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
//!     lo:   13222     152    0    0    0     0          0         0    13222     152    0    0    0     0       0          0
//!  ens33: 60600053  109378    0    0    0     0          0         0 44256546  121425    0    0    0     0       0          0
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// One snapshot of `/proc/net/dev`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct NetDev {
    /// Interfaces in input order.
    pub interfaces: Vec<IfaceCounters>,
}

/// Counters of one interface. Fields are `None` when the header has no such column.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct IfaceCounters {
    /// Interface name (`lo`, `eth0`, `bond0.100`).
    pub name: String,
    /// 1-based input line.
    pub line: usize,
    /// Receive `bytes`.
    pub rx_bytes: Option<u64>,
    /// Receive `packets`.
    pub rx_packets: Option<u64>,
    /// Receive `errs`: errors detected by the driver.
    pub rx_errs: Option<u64>,
    /// Receive `drop`: packets dropped (no buffer, e.g. a full RX ring or backlog).
    pub rx_drop: Option<u64>,
    /// Receive `fifo`: FIFO overruns.
    pub rx_fifo: Option<u64>,
    /// Receive `frame`: framing errors.
    pub rx_frame: Option<u64>,
    /// Receive `compressed`.
    pub rx_compressed: Option<u64>,
    /// Receive `multicast`.
    pub rx_multicast: Option<u64>,
    /// Transmit `bytes`.
    pub tx_bytes: Option<u64>,
    /// Transmit `packets`.
    pub tx_packets: Option<u64>,
    /// Transmit `errs`.
    pub tx_errs: Option<u64>,
    /// Transmit `drop`.
    pub tx_drop: Option<u64>,
    /// Transmit `fifo`.
    pub tx_fifo: Option<u64>,
    /// Transmit `colls`: collisions.
    pub tx_colls: Option<u64>,
    /// Transmit `carrier`: carrier losses.
    pub tx_carrier: Option<u64>,
    /// Transmit `compressed`.
    pub tx_compressed: Option<u64>,
    /// Columns this parser does not name, as `rx_NAME` / `tx_NAME`.
    pub extra: BTreeMap<String, u64>,
}

/// Rates of one interface between two snapshots, per second (`None` when a counter is missing
/// or went backwards).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IfaceRates {
    /// Interface name.
    pub name: String,
    /// KiB received per second (sar's `rxkB/s`).
    pub rxkb_per_s: Option<f64>,
    /// KiB transmitted per second.
    pub txkb_per_s: Option<f64>,
    /// Packets received per second.
    pub rxpck_per_s: Option<f64>,
    /// Packets transmitted per second.
    pub txpck_per_s: Option<f64>,
    /// Receive errors per second.
    pub rxerr_per_s: Option<f64>,
    /// Transmit errors per second.
    pub txerr_per_s: Option<f64>,
    /// Received packets dropped per second.
    pub rxdrop_per_s: Option<f64>,
    /// Transmitted packets dropped per second.
    pub txdrop_per_s: Option<f64>,
    /// Receive FIFO overruns per second.
    pub rxfifo_per_s: Option<f64>,
}

impl IfaceCounters {
    fn slot(&mut self, col: &str) -> Option<&mut Option<u64>> {
        Some(match col {
            "rx_bytes" => &mut self.rx_bytes,
            "rx_packets" => &mut self.rx_packets,
            "rx_errs" => &mut self.rx_errs,
            "rx_drop" => &mut self.rx_drop,
            "rx_fifo" => &mut self.rx_fifo,
            "rx_frame" => &mut self.rx_frame,
            "rx_compressed" => &mut self.rx_compressed,
            "rx_multicast" => &mut self.rx_multicast,
            "tx_bytes" => &mut self.tx_bytes,
            "tx_packets" => &mut self.tx_packets,
            "tx_errs" => &mut self.tx_errs,
            "tx_drop" => &mut self.tx_drop,
            "tx_fifo" => &mut self.tx_fifo,
            "tx_colls" => &mut self.tx_colls,
            "tx_carrier" => &mut self.tx_carrier,
            "tx_compressed" => &mut self.tx_compressed,
            _ => return None,
        })
    }

    /// Rates from `self` to `later` (same interface) over `seconds` (> 0).
    pub fn rates_to(&self, later: &IfaceCounters, seconds: f64) -> IfaceRates {
        let r = |a: Option<u64>, b: Option<u64>| -> Option<f64> {
            Some(b?.checked_sub(a?)? as f64 / seconds)
        };
        IfaceRates {
            name: self.name.clone(),
            rxkb_per_s: r(self.rx_bytes, later.rx_bytes).map(|v| v / 1024.0),
            txkb_per_s: r(self.tx_bytes, later.tx_bytes).map(|v| v / 1024.0),
            rxpck_per_s: r(self.rx_packets, later.rx_packets),
            txpck_per_s: r(self.tx_packets, later.tx_packets),
            rxerr_per_s: r(self.rx_errs, later.rx_errs),
            txerr_per_s: r(self.tx_errs, later.tx_errs),
            rxdrop_per_s: r(self.rx_drop, later.rx_drop),
            txdrop_per_s: r(self.tx_drop, later.tx_drop),
            rxfifo_per_s: r(self.rx_fifo, later.rx_fifo),
        }
    }
}

impl NetDev {
    /// Counters of interface `name`.
    pub fn iface(&self, name: &str) -> Option<&IfaceCounters> {
        self.interfaces.iter().find(|i| i.name == name)
    }

    /// Rates from `self` (earlier) to `later` over `seconds` for every interface in both
    /// (matched by name), in `self`'s order; empty when `seconds` is not positive.
    pub fn rates_to(&self, later: &NetDev, seconds: f64) -> Vec<IfaceRates> {
        if !(seconds > 0.0 && seconds.is_finite()) {
            return Vec::new();
        }
        let after: HashMap<&str, &IfaceCounters> = later
            .interfaces
            .iter()
            .map(|i| (i.name.as_str(), i))
            .collect();
        self.interfaces
            .iter()
            .filter_map(|a| Some(a.rates_to(after.get(a.name.as_str())?, seconds)))
            .collect()
    }
}

/// The layout every kernel since 2.6 prints, used when the header lines are missing.
const DEFAULT_COLUMNS: [&str; 16] = [
    "rx_bytes",
    "rx_packets",
    "rx_errs",
    "rx_drop",
    "rx_fifo",
    "rx_frame",
    "rx_compressed",
    "rx_multicast",
    "tx_bytes",
    "tx_packets",
    "tx_errs",
    "tx_drop",
    "tx_fifo",
    "tx_colls",
    "tx_carrier",
    "tx_compressed",
];

/// Column names from the second header line (` face |bytes packets …|bytes packets …`).
fn columns(header: &str) -> Option<Vec<String>> {
    let mut parts = header.split('|');
    let face = parts.next()?;
    if !face.trim().eq_ignore_ascii_case("face") {
        return None;
    }
    let rx = parts.next()?;
    let tx = parts.next()?;
    let mut cols: Vec<String> = rx
        .split_ascii_whitespace()
        .map(|c| format!("rx_{c}"))
        .collect();
    cols.extend(tx.split_ascii_whitespace().map(|c| format!("tx_{c}")));
    (!cols.is_empty()).then_some(cols)
}

/// `/proc/net/dev`?
///
/// `Yes` on the `Inter-|   Receive …|  Transmit` header line or the `face |bytes …` one; `No`
/// otherwise.
pub fn sniff(head: &str) -> Sniff {
    for (line, complete) in head_lines(head) {
        let t = line.trim_start();
        if t.starts_with("Inter-|") && line.contains("Receive") {
            return Sniff::Yes;
        }
        if complete && columns(line).is_some() {
            return Sniff::Yes;
        }
        if !t.is_empty() {
            return Sniff::No;
        }
    }
    Sniff::No
}

/// Parses `/proc/net/dev`.
///
/// Errors: [`ParseError::Unusable`] when no `iface: counters…` row is found. Without the header
/// lines the kernel's usual 16 columns are assumed (with an issue).
pub fn parse(text: &str) -> Result<Parsed<NetDev>, ParseError> {
    let mut out = NetDev::default();
    let mut issues = Issues::default();
    let mut cols: Option<Vec<String>> = None;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() || (t.starts_with("Inter-") && t.contains('|')) {
            continue;
        }
        if let Some(c) = columns(line) {
            cols = Some(c);
            continue;
        }
        let Some((name, rest)) = line.split_once(':') else {
            issues.push(n, || {
                format!("expected `iface: counters…`, found `{}`", excerpt(line))
            });
            continue;
        };
        let name = name.trim();
        if name.is_empty() || name.len() > 64 || name.contains(char::is_whitespace) {
            issues.push(n, || {
                format!(
                    "expected an interface name before `:`, found `{}`",
                    excerpt(line)
                )
            });
            continue;
        }
        let cols = cols.get_or_insert_with(|| {
            issues.push(n, || {
                "no `face |bytes packets …` header line before the first row; assumed the \
                 kernel's usual 16 columns"
                    .to_string()
            });
            DEFAULT_COLUMNS.iter().map(|c| c.to_string()).collect()
        });
        let vals: Vec<&str> = rest.split_ascii_whitespace().collect();
        if vals.len() != cols.len() {
            let (want, found) = (cols.len(), vals.len());
            issues.push(n, || {
                format!("`{name}`: expected {want} counters as in the header, found {found}")
            });
            continue;
        }
        let mut iface = IfaceCounters {
            name: name.to_string(),
            line: n,
            ..IfaceCounters::default()
        };
        let mut bad = None;
        for (col, tok) in cols.iter().zip(&vals) {
            match tok.parse::<u64>() {
                Ok(v) => match iface.slot(col) {
                    Some(s) => *s = Some(v),
                    None => {
                        iface.extra.insert(col.clone(), v);
                    }
                },
                Err(_) => {
                    bad = Some((col.clone(), *tok));
                    break;
                }
            }
        }
        if let Some((col, tok)) = bad {
            issues.push(n, || {
                format!(
                    "`{name}`: expected a counter under `{col}`, found `{}`",
                    excerpt(tok)
                )
            });
            continue;
        }
        out.interfaces.push(iface);
    }
    if out.interfaces.is_empty() {
        return Err(ParseError::unusable(
            None,
            "no `iface: counters…` row found",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
