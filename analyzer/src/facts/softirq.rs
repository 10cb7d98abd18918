//! Soft-IRQ rates per CPU from two `/proc/softirqs` snapshots.
//!
//! The snapshots' times come from the manifest (each record's start time); without them only
//! the counters are known, and rates are not computed.

use crate::artifacts::Collected;
use parsers::kind;
use parsers::proc::softirqs::SoftirqRates;
use parsers::proc::softirqs::Softirqs;
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
    let p = super::snapshots::pair(c, &kind::SOFTIRQS, |s: &Softirqs| Some(s))?;
    let ((a, s0), (b, s1)) = (p.first, p.last);
    let net_rx_lines = s0
        .row("NET_RX")
        .zip(s1.row("NET_RX"))
        .map(|(x, y)| (x.line, y.line));
    Ok(SoftirqFacts {
        first: a.path.clone(),
        last: b.path.clone(),
        seconds: p.seconds,
        rates: s0.rates_to(s1, p.seconds),
        net_rx_lines,
    })
}
