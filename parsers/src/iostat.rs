//! `iostat -x` (extended device statistics) from sysstat, text and `-o JSON`.
//!
//! Variants handled (columns are found by header name, never by position):
//! - sysstat 9.x–10.x: `Device:` with a colon; `rrqm/s wrqm/s r/s w/s rkB/s wkB/s avgrq-sz
//!   avgqu-sz await r_await w_await svctm %util` (9.0 lacks r_await/w_await; `rsec/s wsec/s`
//!   without `-k`, `rMB/s wMB/s` with `-m`; `avgrq-sz` is in 512-byte sectors).
//! - sysstat 11.5.7+: `Device` without colon, `r/s w/s rkB/s wkB/s rrqm/s wrqm/s %rrqm %wrqm
//!   r_await w_await aqu-sz rareq-sz wareq-sz svctm %util` (no combined `await`).
//! - sysstat 12.x: adds `d/s dkB/s drqm/s %drqm d_await dareq-sz f/s f_await`, drops `svctm`.
//! - `-xs` short form: `tps kB/s rqm/s await areq-sz aqu-sz %util`.
//! - `-t`: a timestamp line before each report (`06/01/20 12:53:20`, `03/11/2022 03:15:06 PM`,
//!   or ISO `2020-06-01T12:53:20+0000` with `S_TIME_FORMAT=ISO`).
//! - `-o JSON` (sysstat ≥ 11.5.1): `sysstat.hosts[0].statistics[]`, where the keys `rrqm`/`wrqm`
//!   mean `%rrqm`/`%wrqm`; a document cut short by a timeout keeps every complete sample.
//!
//! Sample input (sysstat 12.x `iostat -x -t 1 2`, C locale):
//! ```text
//! Linux 1.2.3-TEST (SYSSTAT.TEST) 	06/01/20 	_x86_64_	(9 CPU)
//!
//! 06/01/20 12:53:20
//! avg-cpu:  %user   %nice %system %iowait  %steal   %idle
//!            1.49   39.91    1.67    0.94    0.00   56.00
//!
//! Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util
//! sda              6.90    222.14     0.39   5.38   12.58    32.21    1.69     57.08     1.36  44.55    9.61    33.71    0.00      0.00     0.00   0.00    0.00     0.00    0.00    0.00    0.10   0.46
//! ```
//!
//! Note: the first report of `iostat` without `-y` covers the time since boot, not an interval;
//! this parser keeps it and leaves the decision to the caller.

use crate::common::{Date, LineIssue, ParseError, Parsed, Sniff, SysstatHeader};
use serde::Serialize;
use std::collections::BTreeMap;

/// A whole `iostat` output: the banner and one entry per report.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Iostat {
    /// The sysstat banner (text) or the JSON host record, when present.
    pub header: Option<SysstatHeader>,
    /// Reports in input order. Without `-y` the first covers the time since boot.
    pub reports: Vec<IostatReport>,
}

/// One report: an optional timestamp, the `avg-cpu` block and the device rows.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct IostatReport {
    /// Timestamp from `-t`, when printed.
    pub time: Option<Timestamp>,
    /// 1-based line of the report's first line (timestamp, `avg-cpu:` or `Device` header); for
    /// JSON, the line where the sample object starts.
    pub line: usize,
    /// The `avg-cpu` block, when printed (`-x` without `-d`).
    pub avg_cpu: Option<AvgCpu>,
    /// One row per device, in input order.
    pub devices: Vec<DeviceStats>,
}

/// A sysstat timestamp: optional date plus time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Timestamp {
    /// Calendar date, when printed.
    pub date: Option<Date>,
    /// Seconds since local midnight, 0–86400.
    pub seconds_of_day: u32,
}

/// The `avg-cpu` block, in % of CPU time over the interval.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct AvgCpu {
    /// `%user`.
    pub user_pct: Option<f64>,
    /// `%nice`.
    pub nice_pct: Option<f64>,
    /// `%system`.
    pub system_pct: Option<f64>,
    /// `%iowait`.
    pub iowait_pct: Option<f64>,
    /// `%steal`.
    pub steal_pct: Option<f64>,
    /// `%idle`.
    pub idle_pct: Option<f64>,
}

/// One device row. Every field is `None` when the column is absent in this sysstat version.
/// Sizes are normalised to KiB and rates to per second whatever the unit options (`-k`, `-m`,
/// sectors).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct DeviceStats {
    /// Device name as printed (`sda`, `nvme0n1`, `dm-0`, `sda1`).
    pub device: String,
    /// 1-based input line of the row (for JSON, the line holding the device object).
    pub line: usize,
    /// `r/s`: read requests completed per second.
    pub r_per_s: Option<f64>,
    /// `w/s`: write requests completed per second.
    pub w_per_s: Option<f64>,
    /// `d/s`: discard requests per second (sysstat 12).
    pub d_per_s: Option<f64>,
    /// `f/s`: flush requests per second (sysstat 12).
    pub f_per_s: Option<f64>,
    /// `tps` (`-xs`): transfers per second.
    pub tps: Option<f64>,
    /// `rkB/s` (KiB read per second; from `rMB/s` or `rsec/s` when those are printed).
    pub rkb_per_s: Option<f64>,
    /// `wkB/s` (KiB written per second; from `wMB/s` or `wsec/s`).
    pub wkb_per_s: Option<f64>,
    /// `dkB/s` (KiB discarded per second).
    pub dkb_per_s: Option<f64>,
    /// `kB/s` (`-xs`): KiB transferred per second.
    pub kb_per_s: Option<f64>,
    /// `rrqm/s`: read requests merged per second.
    pub rrqm_per_s: Option<f64>,
    /// `wrqm/s`: write requests merged per second.
    pub wrqm_per_s: Option<f64>,
    /// `%rrqm`: % of read requests merged.
    pub rrqm_pct: Option<f64>,
    /// `%wrqm`: % of write requests merged.
    pub wrqm_pct: Option<f64>,
    /// `await` in ms (sysstat ≤ 11.5.6 and `-xs`). See [`DeviceStats::await_ms`] for a value on
    /// every version.
    pub await_col_ms: Option<f64>,
    /// `r_await` in ms.
    pub r_await_ms: Option<f64>,
    /// `w_await` in ms.
    pub w_await_ms: Option<f64>,
    /// `d_await` in ms.
    pub d_await_ms: Option<f64>,
    /// `f_await` in ms.
    pub f_await_ms: Option<f64>,
    /// `aqu-sz` (`avgqu-sz` before sysstat 11.5.7): average queue length, requests.
    pub aqu_sz: Option<f64>,
    /// `rareq-sz` in KiB.
    pub rareq_sz_kb: Option<f64>,
    /// `wareq-sz` in KiB.
    pub wareq_sz_kb: Option<f64>,
    /// `areq-sz` (`-xs`) in KiB, or `avgrq-sz` (sectors) converted to KiB.
    pub areq_sz_kb: Option<f64>,
    /// `svctm` in ms (deprecated, absent from sysstat 12).
    pub svctm_ms: Option<f64>,
    /// `%util`: % of elapsed time the device had I/O in flight.
    pub util_pct: Option<f64>,
    /// Columns this parser does not name, by header text.
    pub extra: BTreeMap<String, f64>,
}

impl DeviceStats {
    /// Average time per request in ms: the `await` column when printed, else the
    /// request-weighted mean of `r_await`, `w_await` and `d_await` (sysstat ≥ 11.5.7 no longer
    /// prints `await`). `None` when neither is available; 0 requests gives `Some(0.0)`.
    pub fn await_ms(&self) -> Option<f64> {
        if let Some(a) = self.await_col_ms {
            return Some(a);
        }
        let parts = [
            (self.r_per_s, self.r_await_ms),
            (self.w_per_s, self.w_await_ms),
            (self.d_per_s, self.d_await_ms),
        ];
        let mut n = 0.0;
        let mut total = 0.0;
        let mut any = false;
        for (rate, wait) in parts {
            if let (Some(r), Some(w)) = (rate, wait) {
                any = true;
                n += r;
                total += r * w;
            }
        }
        if !any {
            return None;
        }
        Some(if n > 0.0 { total / n } else { 0.0 })
    }
}

/// Text or JSON `iostat` output? See the module doc for the formats.
pub fn sniff(head: &str) -> Sniff {
    todo_sniff(head)
}

/// Parses `iostat` text or `-o JSON` output (chosen from the first non-blank character).
///
/// Errors: [`ParseError::Unusable`] when no report with a device table or `avg-cpu` block is
/// found. Rows with an unexpected number of columns or unreadable numbers become issues.
pub fn parse(text: &str) -> Result<Parsed<Iostat>, ParseError> {
    let _ = (text, LineIssue::new(0, ""));
    Err(ParseError::unusable(None, "not implemented"))
}

fn todo_sniff(_head: &str) -> Sniff {
    Sniff::No
}
