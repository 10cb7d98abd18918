//! `/proc/softirqs`: per-CPU counts of softirqs handled since boot, by type.
//!
//! The header names the *possible* CPUs (`CPU0 … CPU127`, hundreds on big hosts, even when few
//! are online); each row is `NAME:` followed by one counter per header column. Type names are
//! kept as printed (`HI`, `TIMER`, `NET_TX`, `NET_RX`, `BLOCK`, `IRQ_POLL`, `TASKLET`, `SCHED`,
//! `HRTIMER`, `RCU`; older kernels: `BLOCK_IOPOLL`), unknown ones are kept as data.
//!
//! Sample input (Linux 5.x, 2 CPUs):
//! ```text
//!                     CPU0       CPU1
//!           HI:          7          1
//!        TIMER:     424191     108342
//!       NET_RX:      43066     104508
//! ```

use crate::common::{LineIssue, ParseError, Parsed, Sniff};
use serde::Serialize;

/// One snapshot of `/proc/softirqs`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Softirqs {
    /// CPU numbers from the header, in column order (`CPU3` → 3).
    pub cpus: Vec<u32>,
    /// One row per softirq type, in input order.
    pub rows: Vec<SoftirqRow>,
}

/// Counters of one softirq type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SoftirqRow {
    /// Type as printed, without the colon (`NET_RX`).
    pub name: String,
    /// 1-based input line.
    pub line: usize,
    /// Count since boot per header column (same order as [`Softirqs::cpus`]).
    pub counts: Vec<u64>,
}

/// Per-CPU rates of one softirq type between two snapshots.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SoftirqRates {
    /// Type (`NET_RX`).
    pub name: String,
    /// `(cpu, events per second)` for every CPU present in both snapshots.
    pub per_cpu: Vec<(u32, f64)>,
}

impl Softirqs {
    /// Row for a type name, e.g. `row("NET_RX")`.
    pub fn row(&self, name: &str) -> Option<&SoftirqRow> {
        self.rows.iter().find(|r| r.name == name)
    }

    /// Rates per second from `self` (earlier) to `later` over `seconds`. CPUs are matched by
    /// number; a counter that went backwards (CPU hot-plug, wrap) yields no rate for that CPU.
    /// Returns an empty list when `seconds` is not positive.
    pub fn rates_to(&self, later: &Softirqs, seconds: f64) -> Vec<SoftirqRates> {
        let _ = (later, seconds);
        Vec::new()
    }
}

/// Does the text start with a `/proc/softirqs` header and rows?
pub fn sniff(head: &str) -> Sniff {
    let _ = head;
    Sniff::No
}

/// Parses one `/proc/softirqs` snapshot.
///
/// Errors: [`ParseError::Unusable`] when the `CPU0 …` header is missing.
pub fn parse(text: &str) -> Result<Parsed<Softirqs>, ParseError> {
    let _ = (text, LineIssue::new(0, ""));
    Err(ParseError::unusable(None, "not implemented"))
}
