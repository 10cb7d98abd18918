//! `mpstat -P ALL` from sysstat: per-CPU utilisation, text and `-o JSON`.
//!
//! Only the CPU utilisation table is read (the one whose header has `%usr`/`%user` and
//! `%idle`); the other tables of `mpstat -A` (`intr/s`, per-IRQ, per-softirq, `NODE`) are
//! recognised and skipped without issues. `Average:` rows are kept apart from interval rows.
//!
//! Variants: sysstat 9 (`%user %nice %sys %iowait %irq %soft %steal %guest %idle`), 10+ (`%usr …
//! %gnice %idle`); 24-hour (`12:53:21`) and 12-hour (`03:15:06 PM`) clocks; decimal commas;
//! offline CPUs (rows missing or all-zero); `-o JSON` (`sysstat.hosts[0].statistics[].cpu-load[]`
//! with keys `cpu`, `usr`, `nice`, `sys`, `iowait`, `irq`, `soft`, `steal`, `guest`, `gnice`,
//! `idle`), including a document cut short by a timeout (complete samples kept).
//!
//! Sample input (sysstat 12.x `mpstat -P ALL 1 1`, C locale):
//! ```text
//! Linux 1.2.3-TEST (SYSSTAT.TEST) 	06/01/20 	_x86_64_	(9 CPU)
//!
//! 12:53:21     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle
//! 12:53:21     all    2.15   12.50    1.84    0.12    0.00    0.61    0.00    0.00    0.00   82.88
//! 12:53:21       0    0.96    0.00    0.96    0.00    0.00    0.00    0.00    0.00    0.00   98.08
//! ```

use crate::common::{LineIssue, ParseError, Parsed, Sniff, SysstatHeader};
use crate::iostat::Timestamp;
use serde::Serialize;

/// A whole `mpstat` output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Mpstat {
    /// The sysstat banner (text) or JSON host record.
    pub header: Option<SysstatHeader>,
    /// One entry per sampling interval, in input order.
    pub intervals: Vec<MpstatInterval>,
    /// The `Average:` rows, when printed.
    pub averages: Vec<CpuRow>,
}

/// The CPU rows of one sampling interval.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct MpstatInterval {
    /// End time of the interval as printed on its rows (date from the banner when known).
    pub time: Option<Timestamp>,
    /// 1-based input line of the interval's header line (JSON: the sample's first line).
    pub line: usize,
    /// One row per CPU, `all` first when printed.
    pub rows: Vec<CpuRow>,
}

/// Which CPU a row describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum CpuId {
    /// The `all` row: mean over online CPUs.
    All,
    /// One logical CPU by number.
    Cpu(u32),
}

/// Utilisation of one CPU over one interval, each in % of that CPU's time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CpuRow {
    /// The CPU.
    pub cpu: CpuId,
    /// 1-based input line of the row.
    pub line: usize,
    /// `%usr` (`%user` in sysstat 9).
    pub usr_pct: Option<f64>,
    /// `%nice`.
    pub nice_pct: Option<f64>,
    /// `%sys` (`%system`).
    pub sys_pct: Option<f64>,
    /// `%iowait`.
    pub iowait_pct: Option<f64>,
    /// `%irq`: hardware interrupt handling.
    pub irq_pct: Option<f64>,
    /// `%soft`: software interrupt (softirq) handling, e.g. `NET_RX`.
    pub soft_pct: Option<f64>,
    /// `%steal`: time stolen by the hypervisor.
    pub steal_pct: Option<f64>,
    /// `%guest`.
    pub guest_pct: Option<f64>,
    /// `%gnice`.
    pub gnice_pct: Option<f64>,
    /// `%idle`.
    pub idle_pct: Option<f64>,
}

/// Text or JSON `mpstat` CPU output?
pub fn sniff(head: &str) -> Sniff {
    let _ = head;
    Sniff::No
}

/// Parses `mpstat` text or `-o JSON` output.
///
/// Errors: [`ParseError::Unusable`] when no CPU utilisation table is found.
pub fn parse(text: &str) -> Result<Parsed<Mpstat>, ParseError> {
    let _ = (text, LineIssue::new(0, ""));
    Err(ParseError::unusable(None, "not implemented"))
}
