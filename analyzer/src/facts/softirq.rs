//! Soft-IRQ rates per CPU from two `/proc/softirqs` snapshots.
//!
//! The snapshots' times come from the manifest (each record's start time); without them only
//! the counters are known, and rates are not computed.

use crate::artifacts::{Artifact, Collected};
use crate::kinds::Data;
use parsers::softirqs::{SoftirqRates, Softirqs};
use serde::Serialize;

/// Soft-IRQ evidence for one host.
#[derive(Debug, Clone, Serialize)]
pub struct SoftirqFacts {
    /// Artifact of the first snapshot.
    pub first: String,
    /// Artifact of the last snapshot.
    pub last: String,
    /// Seconds between the snapshots.
    pub seconds: f64,
    /// Rates per type and CPU, events per second.
    pub rates: Vec<SoftirqRates>,
    /// 1-based line of the `NET_RX` row in each snapshot (first, last), when present.
    pub net_rx_lines: Option<(usize, usize)>,
}

impl SoftirqFacts {
    /// Per-CPU rates of one type (`NET_RX`).
    pub fn rates_of(&self, name: &str) -> Option<&SoftirqRates> {
        self.rates.iter().find(|r| r.name == name)
    }
}

/// Pairs the earliest and latest timed snapshots.
pub fn build(c: &Collected) -> Result<SoftirqFacts, String> {
    let mut snaps: Vec<(&Artifact, &Softirqs, Option<f64>)> = c
        .parsed("softirqs")
        .filter_map(|(a, d)| match d {
            Data::Softirqs(s) => Some((a, s, a.record.as_ref().and_then(|r| r.start))),
            _ => None,
        })
        .collect();
    match snaps.len() {
        0 => return Err("no `/proc/softirqs` snapshot was parsed".into()),
        1 => {
            return Err(format!(
                "only one `/proc/softirqs` snapshot ({}): rates need two",
                snaps[0].0.path
            ))
        }
        _ => {}
    }
    if snaps.iter().any(|s| s.2.is_none()) {
        return Err("the `/proc/softirqs` snapshots carry no collection times (no manifest): rates need the interval".into());
    }
    snaps.sort_by(|a, b| a.2.partial_cmp(&b.2).unwrap_or(std::cmp::Ordering::Equal));
    let (a, s0, t0) = snaps[0];
    let (b, s1, t1) = snaps[snaps.len() - 1];
    let seconds = t1.unwrap_or(0.0) - t0.unwrap_or(0.0);
    if seconds <= 0.0 {
        return Err("the `/proc/softirqs` snapshots were taken at the same time".into());
    }
    let net_rx_lines = s0
        .row("NET_RX")
        .zip(s1.row("NET_RX"))
        .map(|(x, y)| (x.line, y.line));
    Ok(SoftirqFacts {
        first: a.path.clone(),
        last: b.path.clone(),
        seconds,
        rates: s0.rates_to(s1, seconds),
        net_rx_lines,
    })
}
