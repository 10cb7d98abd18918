//! `/proc/net/bonding/bondN`: the Linux bonding driver's status of one bond and its slaves.
//!
//! The layout is the kernel's (`drivers/net/bonding/bond_procfs.c`): the driver version line, the
//! bond's settings (`Bonding Mode`, `MII Status`, delays), for 802.3ad an `802.3ad info` block
//! with `Active Aggregator Info:` (tab-indented), then one block per slave starting with
//! `Slave Interface:`; with CAP_NET_ADMIN, 802.3ad slaves add `details actor lacp pdu:` and
//! `details partner lacp pdu:` blocks indented by four spaces.
//!
//! Sample (active-backup, kernel 5.x+; older kernels print `v3.7.1 (April 27, 2011)` as the
//! version):
//! ```text
//! Ethernet Channel Bonding Driver: v5.15.0
//!
//! Bonding Mode: fault-tolerance (active-backup)
//! Primary Slave: None
//! Currently Active Slave: eth0
//! MII Status: up
//! MII Polling Interval (ms): 100
//! Up Delay (ms): 0
//! Down Delay (ms): 0
//!
//! Slave Interface: eth0
//! MII Status: up
//! Speed: 10000 Mbps
//! Duplex: full
//! Link Failure Count: 0
//! Permanent HW addr: 52:54:00:12:34:56
//! Slave queue ID: 0
//! ```
//! Keys inside an indented block are kept as `Block/Key` (`Active Aggregator Info/Aggregator
//! ID`, `details actor lacp pdu/port state`).

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// A `Key: value` line of the bond or of a slave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BondField {
    /// Key as printed, prefixed with its block (`Active Aggregator Info/Partner Key`) when
    /// indented under one.
    pub key: String,
    /// Value as printed, trimmed.
    pub value: String,
    /// 1-based input line.
    pub line: usize,
}

/// One slave (member) interface.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Slave {
    /// `Slave Interface` name.
    pub interface: String,
    /// `MII Status`: `up`, `down`, `going down`, `going back`.
    pub mii_status: Option<String>,
    /// `Speed` in Mb/s; `None` when `Unknown`.
    pub speed_mbps: Option<u64>,
    /// `Duplex`: `full`, `half`, `Unknown`.
    pub duplex: Option<String>,
    /// `Link Failure Count` since the slave was enslaved.
    pub link_failure_count: Option<u64>,
    /// `Permanent HW addr`.
    pub permanent_hw_addr: Option<String>,
    /// `Slave queue ID`.
    pub queue_id: Option<u32>,
    /// `Aggregator ID` (802.3ad); `None` when `N/A` or absent.
    pub aggregator_id: Option<u32>,
    /// Every line of the slave block.
    pub fields: Vec<BondField>,
    /// 1-based input line of `Slave Interface:`.
    pub line: usize,
}

impl Slave {
    /// A field's value by key.
    pub fn get(&self, key: &str) -> Option<&str> {
        get(&self.fields, key)
    }
}

/// Parsed `/proc/net/bonding/bondN`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Bond {
    /// Driver version after `Ethernet Channel Bonding Driver: `.
    pub version: Option<String>,
    /// `Bonding Mode` as printed (`IEEE 802.3ad Dynamic link aggregation`,
    /// `fault-tolerance (active-backup)`), without a `(fail_over_mac …)` suffix.
    pub mode: Option<String>,
    /// `Transmit Hash Policy` (`layer3+4 (1)`).
    pub transmit_hash_policy: Option<String>,
    /// `Currently Active Slave` (active-backup, tlb, alb); `None` when `None`.
    pub currently_active_slave: Option<String>,
    /// `MII Status` of the bond.
    pub mii_status: Option<String>,
    /// `MII Polling Interval (ms)`.
    pub mii_polling_interval_ms: Option<u64>,
    /// `LACP rate` (`slow`, `fast`), 802.3ad only.
    pub lacp_rate: Option<String>,
    /// Slaves in input order.
    pub slaves: Vec<Slave>,
    /// Every line of the bond part (before the first slave).
    pub fields: Vec<BondField>,
    /// 1-based line of the version line (or of the first line read).
    pub line: usize,
}

impl Bond {
    /// A bond field's value by key.
    pub fn get(&self, key: &str) -> Option<&str> {
        get(&self.fields, key)
    }

    /// The mode's short name as used in `mode=` options: `balance-rr`, `active-backup`,
    /// `balance-xor`, `broadcast`, `802.3ad`, `balance-tlb`, `balance-alb`.
    pub fn mode_short(&self) -> Option<&'static str> {
        let m = self.mode.as_deref()?;
        Some(match m {
            "load balancing (round-robin)" => "balance-rr",
            "fault-tolerance (active-backup)" => "active-backup",
            "load balancing (xor)" => "balance-xor",
            "fault-tolerance (broadcast)" => "broadcast",
            "IEEE 802.3ad Dynamic link aggregation" => "802.3ad",
            "transmit load balancing" => "balance-tlb",
            "adaptive load balancing" => "balance-alb",
            _ => return None,
        })
    }

    /// Slaves whose MII status is not `up`.
    pub fn slaves_not_up(&self) -> impl Iterator<Item = &Slave> {
        self.slaves
            .iter()
            .filter(|s| s.mii_status.as_deref() != Some("up"))
    }

    /// Slave by interface name.
    pub fn slave(&self, name: &str) -> Option<&Slave> {
        self.slaves.iter().find(|s| s.interface == name)
    }
}

fn get<'a>(fields: &'a [BondField], key: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|f| f.key == key)
        .map(|f| f.value.as_str())
}

const VERSION_PREFIX: &str = "Ethernet Channel Bonding Driver:";

/// Is this a `/proc/net/bonding/bondN` file? `Yes` when the first non-blank line is the driver
/// version line (`Ethernet Channel Bonding Driver: …`), or `Bonding Mode:`; `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    match head_lines(head).find(|(l, _)| !l.trim().is_empty()) {
        Some((l, _)) if l.starts_with(VERSION_PREFIX) || l.starts_with("Bonding Mode:") => {
            Sniff::Yes
        }
        _ => Sniff::No,
    }
}

/// Parses `/proc/net/bonding/bondN`.
///
/// Errors: [`ParseError::Unusable`] when neither the version line nor `Bonding Mode:` is found.
/// A line that is not `Key: value` (nor a block heading) is an issue.
pub fn parse(text: &str) -> Result<Parsed<Bond>, ParseError> {
    let mut bond = Bond::default();
    let mut issues = Issues::default();
    let mut seen = false;
    // Heading of the indented block being read (`Active Aggregator Info`).
    let mut block: Option<String> = None;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            block = None;
            continue;
        }
        if let Some(v) = t.strip_prefix(VERSION_PREFIX) {
            bond.version = Some(v.trim().to_string());
            bond.line = n;
            seen = true;
            continue;
        }
        if t == "802.3ad info" {
            block = None;
            continue;
        }
        let indented = line.starts_with([' ', '\t']);
        let Some((key, value)) = t.split_once(':') else {
            if t.starts_with("bond ") && t.ends_with("has no active aggregator") {
                bond.fields.push(BondField {
                    key: "Active Aggregator Info".to_string(),
                    value: t.to_string(),
                    line: n,
                });
            } else {
                issues.push(n, || {
                    format!("expected `Key: value`, found `{}`", excerpt(t))
                });
            }
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        if !indented && value.is_empty() && key != "Slave Interface" {
            // `Active Aggregator Info:`, `details actor lacp pdu:`.
            block = Some(key.to_string());
            continue;
        }
        if !indented {
            block = None;
        }
        let full_key = match (&block, indented) {
            (Some(b), true) => format!("{b}/{key}"),
            _ => key.to_string(),
        };
        if key == "Slave Interface" && !indented {
            bond.slaves.push(Slave {
                interface: value.to_string(),
                line: n,
                ..Default::default()
            });
            continue;
        }
        if key == "Bonding Mode" {
            seen = true;
            if bond.line == 0 {
                bond.line = n;
            }
        }
        if !seen {
            issues.push(n, || {
                format!(
                    "expected `{VERSION_PREFIX} …` or `Bonding Mode:` first, found `{}`",
                    excerpt(t)
                )
            });
            continue;
        }
        let field = BondField {
            key: full_key,
            value: value.to_string(),
            line: n,
        };
        let num = |v: &str| {
            v.split_ascii_whitespace()
                .next()
                .and_then(|x| x.parse().ok())
        };
        if let Some(s) = bond.slaves.last_mut() {
            match field.key.as_str() {
                "MII Status" => s.mii_status = Some(value.to_string()),
                "Speed" => s.speed_mbps = num(value),
                "Duplex" => s.duplex = Some(value.to_string()),
                "Link Failure Count" => s.link_failure_count = num(value),
                "Permanent HW addr" => s.permanent_hw_addr = Some(value.to_string()),
                "Slave queue ID" => s.queue_id = value.parse().ok(),
                "Aggregator ID" => s.aggregator_id = value.parse().ok(),
                _ => {}
            }
            s.fields.push(field);
        } else {
            match field.key.as_str() {
                "Bonding Mode" => {
                    let mode = value.split(" (fail_over_mac").next().unwrap_or(value);
                    bond.mode = Some(mode.to_string());
                }
                "Transmit Hash Policy" => bond.transmit_hash_policy = Some(value.to_string()),
                "Currently Active Slave" => {
                    bond.currently_active_slave = (value != "None").then(|| value.to_string())
                }
                "MII Status" => bond.mii_status = Some(value.to_string()),
                "MII Polling Interval (ms)" => bond.mii_polling_interval_ms = value.parse().ok(),
                "LACP rate" => bond.lacp_rate = Some(value.to_string()),
                _ => {}
            }
            bond.fields.push(field);
        }
    }
    if !seen {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty".to_string()
            } else {
                format!("no `{VERSION_PREFIX}` or `Bonding Mode:` line")
            },
        ));
    }
    Ok(Parsed {
        value: bond,
        issues: issues.into_vec(),
    })
}
