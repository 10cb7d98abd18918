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
//!   mean `%rrqm`/`%wrqm` (in 11.5.1–11.5.6, which wrote `r`, `w`, `rkB`, `wkB`, they meant
//!   `rrqm/s`/`wrqm/s`); a document cut short by a timeout keeps every complete sample. The
//!   invalid JSON of released versions is repaired, with an issue on each repaired line: numbers
//!   with a decimal comma (11.5.1 under `de_DE` and the like) and the stray `,` after
//!   `"statistics": [` of `iostat -y` (11.5.1–11.6.0, 12.0.4, 12.1.4); see `sysstat::json`.
//! - Basic report (no `-x`): `tps kB_read/s kB_wrtn/s [kB_dscd/s] kB_read kB_wrtn [kB_dscd]`
//!   (`Blk_*` sectors or `MB_*` with `-m`); totals go to [`DeviceStats::extra`].
//! - `--pretty` (device name in the last column), and old sysstat's long device names printed
//!   alone with their values on the next line.
//! - Numbers with a decimal comma (`LC_NUMERIC=de_DE`), dates `01.06.2020`, CRLF line ends.
//!
//! Not handled: `--human` / `-h` values with unit suffixes (`1.2M`, `0.5%`) become issues.
//!
//! Sample input (sysstat 12.x `iostat -x -t 1 2`, C locale):
//! ```text
//! Linux 1.2.3-TEST (SYSSTAT.TEST)    06/01/20    _x86_64_    (9 CPU)
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

use crate::common::{
    excerpt, first_non_blank, head_lines, numbered_lines, parse_sysstat_header, parse_timestamp,
    parse_timestamp_str, read_num, Ceiling, Issues, NumError, ParseError, Parsed, Sniff,
    SysstatHeader, Timestamp,
};
use crate::sysstat::json::{
    finish_walk, repaired, sniff_json, walk_sysstat, Cursor, Fields, HostFields, Scalar,
};
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
    /// `drqm/s`: discard requests merged per second (sysstat 12).
    pub drqm_per_s: Option<f64>,
    /// `%drqm`: % of discard requests merged (sysstat 12).
    pub drqm_pct: Option<f64>,
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
    /// `dareq-sz` in KiB (sysstat 12).
    pub dareq_sz_kb: Option<f64>,
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
///
/// `Yes` on an `avg-cpu:` header, a `Device` header with iostat columns (`r/s`, `tps`,
/// `%util`, …) or a sysstat JSON document with `disk_device` / `avg-cpu` / `disk` members (an
/// empty `"disk": [ ]` when no device matched); `Unsure` on a
/// bare sysstat banner (every sysstat tool prints one); `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    if first_non_blank(head) == Some(b'{') {
        return sniff_json(head, &["\"disk_device\"", "\"avg-cpu\"", "\"disk\": ["]);
    }
    let mut banner = false;
    let mut other = false;
    for (line, complete) in head_lines(head) {
        let mut toks = line.split_ascii_whitespace();
        let Some(first) = toks.next() else { continue };
        if first == "avg-cpu:" && line.contains("%user") {
            return Sniff::Yes;
        }
        if is_device_header(line) {
            return Sniff::Yes;
        }
        if first == "Linux" && parse_sysstat_header(line, 0).is_some_and(|h| h.date.is_some()) {
            banner = true;
        } else if complete {
            other = true;
        }
    }
    if banner && !other {
        Sniff::Unsure
    } else {
        Sniff::No
    }
}

/// Parses `iostat` text or `-o JSON` output (chosen from the first non-blank character).
///
/// Errors: [`ParseError::Unusable`] when no report with a device table or `avg-cpu` block is
/// found. Rows with an unexpected number of columns or unreadable numbers become issues.
pub fn parse(text: &str) -> Result<Parsed<Iostat>, ParseError> {
    match first_non_blank(text) {
        None => Err(ParseError::unusable(None, "input is empty")),
        Some(b'{') => parse_json(text),
        Some(_) => parse_text(text),
    }
}

// ---------------------------------------------------------------------------------------------
// Columns

/// A numeric field of [`DeviceStats`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    RPerS,
    WPerS,
    DPerS,
    FPerS,
    Tps,
    RkbPerS,
    WkbPerS,
    DkbPerS,
    KbPerS,
    RrqmPerS,
    WrqmPerS,
    RrqmPct,
    WrqmPct,
    AwaitCol,
    RAwait,
    WAwait,
    DAwait,
    FAwait,
    AquSz,
    DrqmPerS,
    DrqmPct,
    DareqSz,
    RareqSz,
    WareqSz,
    AreqSz,
    Svctm,
    Util,
}

/// What a header column holds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Col {
    /// The device name.
    Device,
    /// A named field, and the factor that converts the printed unit to the field's unit.
    Value(Field, f64),
    /// A column this parser does not name, kept in [`DeviceStats::extra`].
    Extra,
}

/// KiB per MiB and per GiB, and KiB per 512-byte sector.
const KIB_PER_MIB: f64 = 1024.0;
const KIB_PER_GIB: f64 = 1024.0 * 1024.0;
const KIB_PER_SECTOR: f64 = 0.5;

/// Maps a header column (text header or normalised JSON key) to a field, by name.
fn column(name: &str) -> Col {
    use Field::*;
    let (field, scale) = match name {
        "Device" | "Device:" => return Col::Device,
        "r/s" => (RPerS, 1.0),
        "w/s" => (WPerS, 1.0),
        "d/s" => (DPerS, 1.0),
        "f/s" => (FPerS, 1.0),
        "tps" => (Tps, 1.0),
        "rkB/s" | "kB_read/s" => (RkbPerS, 1.0),
        "rMB/s" | "MB_read/s" => (RkbPerS, KIB_PER_MIB),
        "rGB/s" | "GB_read/s" => (RkbPerS, KIB_PER_GIB),
        "rsec/s" | "Blk_read/s" => (RkbPerS, KIB_PER_SECTOR),
        "wkB/s" | "kB_wrtn/s" => (WkbPerS, 1.0),
        "wMB/s" | "MB_wrtn/s" => (WkbPerS, KIB_PER_MIB),
        "wGB/s" | "GB_wrtn/s" => (WkbPerS, KIB_PER_GIB),
        "wsec/s" | "Blk_wrtn/s" => (WkbPerS, KIB_PER_SECTOR),
        "dkB/s" | "kB_dscd/s" => (DkbPerS, 1.0),
        "dMB/s" | "MB_dscd/s" => (DkbPerS, KIB_PER_MIB),
        "dGB/s" | "GB_dscd/s" => (DkbPerS, KIB_PER_GIB),
        "dsec/s" | "Blk_dscd/s" => (DkbPerS, KIB_PER_SECTOR),
        "kB/s" => (KbPerS, 1.0),
        "MB/s" => (KbPerS, KIB_PER_MIB),
        "GB/s" => (KbPerS, KIB_PER_GIB),
        "sec/s" | "Blk/s" => (KbPerS, KIB_PER_SECTOR),
        "rrqm/s" => (RrqmPerS, 1.0),
        "wrqm/s" => (WrqmPerS, 1.0),
        "%rrqm" => (RrqmPct, 1.0),
        "%wrqm" => (WrqmPct, 1.0),
        "drqm/s" => (DrqmPerS, 1.0),
        "%drqm" => (DrqmPct, 1.0),
        "dareq-sz" => (DareqSz, 1.0),
        "await" => (AwaitCol, 1.0),
        "r_await" => (RAwait, 1.0),
        "w_await" => (WAwait, 1.0),
        "d_await" => (DAwait, 1.0),
        "f_await" => (FAwait, 1.0),
        "aqu-sz" | "avgqu-sz" => (AquSz, 1.0),
        "rareq-sz" => (RareqSz, 1.0),
        "wareq-sz" => (WareqSz, 1.0),
        "areq-sz" => (AreqSz, 1.0),
        // `avgrq-sz` is in 512-byte sectors.
        "avgrq-sz" => (AreqSz, KIB_PER_SECTOR),
        "svctm" => (Svctm, 1.0),
        "%util" => (Util, 1.0),
        _ => return Col::Extra,
    };
    Col::Value(field, scale)
}

/// The text header name of a JSON disk key. sysstat ≥ 11.5.7 writes `%rrqm` as `rrqm` (and
/// `util` for `%util`); 11.5.1–11.5.6 wrote `r`, `w`, `rkB`, `wkB` and used `rrqm`/`wrqm` for
/// `rrqm/s`/`wrqm/s` (`old_layout`).
fn json_column(key: &str, old_layout: bool) -> &str {
    match (key, old_layout) {
        ("util", _) => "%util",
        ("rrqm", false) => "%rrqm",
        ("wrqm", false) => "%wrqm",
        ("drqm", false) => "%drqm",
        ("rrqm", true) => "rrqm/s",
        ("wrqm", true) => "wrqm/s",
        ("r", true) => "r/s",
        ("w", true) => "w/s",
        ("rkB", true) => "rkB/s",
        ("wkB", true) => "wkB/s",
        _ => key,
    }
}

impl DeviceStats {
    fn slot(&mut self, f: Field) -> &mut Option<f64> {
        use Field::*;
        match f {
            RPerS => &mut self.r_per_s,
            WPerS => &mut self.w_per_s,
            DPerS => &mut self.d_per_s,
            FPerS => &mut self.f_per_s,
            Tps => &mut self.tps,
            RkbPerS => &mut self.rkb_per_s,
            WkbPerS => &mut self.wkb_per_s,
            DkbPerS => &mut self.dkb_per_s,
            KbPerS => &mut self.kb_per_s,
            RrqmPerS => &mut self.rrqm_per_s,
            WrqmPerS => &mut self.wrqm_per_s,
            RrqmPct => &mut self.rrqm_pct,
            WrqmPct => &mut self.wrqm_pct,
            AwaitCol => &mut self.await_col_ms,
            RAwait => &mut self.r_await_ms,
            WAwait => &mut self.w_await_ms,
            DAwait => &mut self.d_await_ms,
            FAwait => &mut self.f_await_ms,
            AquSz => &mut self.aqu_sz,
            DrqmPerS => &mut self.drqm_per_s,
            DrqmPct => &mut self.drqm_pct,
            DareqSz => &mut self.dareq_sz_kb,
            RareqSz => &mut self.rareq_sz_kb,
            WareqSz => &mut self.wareq_sz_kb,
            AreqSz => &mut self.areq_sz_kb,
            Svctm => &mut self.svctm_ms,
            Util => &mut self.util_pct,
        }
    }

    /// Stores `value` printed under column `name` (classified as `col`).
    fn set(&mut self, col: Col, name: &str, value: f64) {
        match col {
            Col::Value(f, scale) => *self.slot(f) = Some(value * scale),
            Col::Extra => {
                self.extra.insert(name.to_string(), value);
            }
            Col::Device => {}
        }
    }
}

impl AvgCpu {
    /// The field for an `avg-cpu` column, `%user` in text or `user` in JSON.
    fn slot(&mut self, name: &str) -> Option<&mut Option<f64>> {
        Some(match name.strip_prefix('%').unwrap_or(name) {
            "user" => &mut self.user_pct,
            "nice" => &mut self.nice_pct,
            "system" => &mut self.system_pct,
            "iowait" => &mut self.iowait_pct,
            "steal" => &mut self.steal_pct,
            "idle" => &mut self.idle_pct,
            _ => return None,
        })
    }
}

/// Columns that only an iostat device header has (sar -d says `DEV`, not `Device`).
const DEVICE_HEADER_MARKERS: &[&str] = &[
    "%util",
    "r/s",
    "w/s",
    "tps",
    "rkB/s",
    "rrqm/s",
    "kB_read/s",
    "Blk_read/s",
    "MB_read/s",
    "kB/s",
];

/// `Device` (or `Device:`) first, or last with `--pretty`, plus at least one iostat column.
fn is_device_header(line: &str) -> bool {
    let t = line.trim();
    let device_first = t.starts_with("Device ") || t.starts_with("Device:");
    let device_last = t.ends_with(" Device");
    (device_first || device_last)
        && t.split_ascii_whitespace()
            .any(|w| DEVICE_HEADER_MARKERS.contains(&w))
}

// ---------------------------------------------------------------------------------------------
// Text

/// The device table being read: one classification per header column.
struct DeviceTable<'a> {
    cols: Vec<Col>,
    names: Vec<&'a str>,
    /// Index of the `Device` column (0, or the last one with `--pretty`).
    device_col: usize,
    /// Line of the header.
    line: usize,
}

enum State<'a> {
    /// Between blocks.
    Idle,
    /// After an `avg-cpu:` header: the values line comes next.
    CpuValues { names: Vec<&'a str>, line: usize },
    /// Inside a device table.
    Devices(DeviceTable<'a>),
}

/// A report being assembled.
struct Pending {
    report: IostatReport,
    /// A `Device` header was seen (a table with no rows is still a report).
    has_table: bool,
}

struct TextParser<'a> {
    header: Option<SysstatHeader>,
    reports: Vec<IostatReport>,
    current: Option<Pending>,
    issues: Issues,
    /// A device name printed alone on its line (long names in old sysstat), with its line.
    wrapped_name: Option<(&'a str, usize)>,
    /// Scratch buffer for the (column, token) pairs of a row.
    values: Vec<(usize, &'a str)>,
}

impl<'a> TextParser<'a> {
    /// Closes the current report.
    fn finish(&mut self) {
        self.flush_wrapped_name();
        if let Some(p) = self.current.take() {
            if p.report.avg_cpu.is_some() || p.has_table {
                self.reports.push(p.report);
            } else {
                let line = p.report.line;
                self.issues.push(line, || {
                    "report has no `avg-cpu:` block or `Device` table (output cut short?)"
                        .to_string()
                });
            }
        }
    }

    fn flush_wrapped_name(&mut self) {
        if let Some((name, line)) = self.wrapped_name.take() {
            self.issues.push(line, || {
                format!("device name `{name}` alone on its line is not followed by its values")
            });
        }
    }

    /// The report an `avg-cpu:` block (`for_cpu`) or a device table starts or continues.
    fn report_for(&mut self, line: usize, for_cpu: bool) -> &mut Pending {
        let reuse = match &self.current {
            Some(p) if for_cpu => p.report.avg_cpu.is_none() && !p.has_table,
            Some(p) => !p.has_table,
            None => false,
        };
        if !reuse {
            self.finish();
            self.current = Some(Pending {
                report: IostatReport {
                    line,
                    ..IostatReport::default()
                },
                has_table: false,
            });
        }
        self.current.get_or_insert_with(|| Pending {
            report: IostatReport::default(),
            has_table: false,
        })
    }

    fn device_row(&mut self, table: &DeviceTable<'a>, toks: &[&'a str], line_no: usize) {
        let ncols = table.cols.len();
        if toks.len() == 1 && ncols > 1 {
            self.flush_wrapped_name();
            self.wrapped_name = Some((toks[0], line_no));
            return;
        }
        // (column index, token) of every value, in a buffer reused across rows.
        let mut values = std::mem::take(&mut self.values);
        values.clear();
        let (name, row_line) = if toks.len() == ncols {
            values.extend(
                toks.iter()
                    .enumerate()
                    .filter(|(i, _)| *i != table.device_col)
                    .map(|(i, t)| (i, *t)),
            );
            (toks[table.device_col], line_no)
        } else if let (Some((name, name_line)), true) = (self.wrapped_name, toks.len() + 1 == ncols)
        {
            self.wrapped_name = None;
            let cols = (0..ncols).filter(|i| *i != table.device_col);
            values.extend(cols.zip(toks.iter().copied()));
            (name, name_line)
        } else {
            self.values = values;
            self.flush_wrapped_name();
            let (header_line, found) = (table.line, toks.len());
            self.issues.push(line_no, || {
                format!(
                    "expected {ncols} columns as in the `Device` header on line \
                     {header_line}, found {found}: `{}`",
                    excerpt(&toks.join(" "))
                )
            });
            return;
        };
        self.flush_wrapped_name();
        let mut dev = DeviceStats {
            device: name.to_string(),
            line: row_line,
            ..DeviceStats::default()
        };
        let mut bad: Option<(usize, &str)> = None;
        let mut bad_count = 0;
        for &(i, tok) in &values {
            match read_num(tok, Ceiling::Counter) {
                Ok(v) => dev.set(table.cols[i], table.names[i], v),
                Err(NumError::NotANumber) => {
                    bad_count += 1;
                    bad.get_or_insert((i, tok));
                }
                Err(e) => {
                    let col = table.names[i];
                    self.issues.push(line_no, || {
                        format!("device `{name}`: {}", e.message(col, tok))
                    });
                }
            }
        }
        if let Some((i, tok)) = bad {
            let total = values.len();
            let col = table.names[i];
            if bad_count == total {
                self.values = values;
                self.issues.push(line_no, || {
                    format!(
                        "expected a device row of {total} numbers after the name, found `{}`",
                        excerpt(&toks.join(" "))
                    )
                });
                return;
            }
            self.issues.push(line_no, || {
                format!(
                    "device `{name}`: expected a number under `{col}`, found `{tok}`{}",
                    if bad_count > 1 {
                        format!(" ({bad_count} unreadable values in this row)")
                    } else {
                        String::new()
                    }
                )
            });
        }
        if let Some(p) = self.current.as_mut() {
            p.report.devices.push(dev);
        }
        self.values = values;
    }
}

fn parse_text(text: &str) -> Result<Parsed<Iostat>, ParseError> {
    let mut p = TextParser {
        header: None,
        reports: Vec::new(),
        current: None,
        issues: Issues::default(),
        wrapped_name: None,
        values: Vec::with_capacity(32),
    };
    let mut state = State::Idle;
    let mut toks: Vec<&str> = Vec::with_capacity(32);
    for (n, line) in numbered_lines(crate::common::strip_bom(text)) {
        toks.clear();
        toks.extend(line.split_ascii_whitespace());
        let Some(&first) = toks.first() else {
            if let State::Devices(_) = state {
                p.flush_wrapped_name();
                state = State::Idle;
            }
            continue;
        };
        if first == "Linux" {
            if let Some(h) = parse_sysstat_header(line, n) {
                if p.header.is_none() {
                    p.header = Some(h);
                }
                state = State::Idle;
                continue;
            }
        }
        if let Some(ts) = parse_timestamp(&toks) {
            p.finish();
            p.current = Some(Pending {
                report: IostatReport {
                    time: Some(ts),
                    line: n,
                    ..IostatReport::default()
                },
                has_table: false,
            });
            state = State::Idle;
            continue;
        }
        if first == "avg-cpu:" {
            p.flush_wrapped_name();
            p.report_for(n, true);
            state = State::CpuValues {
                names: toks[1..].to_vec(),
                line: n,
            };
            continue;
        }
        if is_device_header(line) {
            p.flush_wrapped_name();
            let names: Vec<&str> = toks.clone();
            let cols: Vec<Col> = names.iter().map(|c| column(c)).collect();
            let device_col = cols.iter().position(|c| *c == Col::Device).unwrap_or(0);
            p.report_for(n, false).has_table = true;
            state = State::Devices(DeviceTable {
                cols,
                names,
                device_col,
                line: n,
            });
            continue;
        }
        match &state {
            State::CpuValues { names, line: hl } => {
                let hl = *hl;
                let mut avg = AvgCpu::default();
                let values: Vec<Result<f64, NumError>> = toks
                    .iter()
                    .map(|t| read_num(t, Ceiling::CpuShare))
                    .collect();
                if values.len() != names.len() || values.contains(&Err(NumError::NotANumber)) {
                    let expected = names.len();
                    p.issues.push(n, || {
                        format!(
                            "expected {expected} numbers under the `avg-cpu:` header on line \
                             {hl}, found `{}`",
                            excerpt(line)
                        )
                    });
                } else {
                    for ((name, v), tok) in names.iter().zip(values).zip(&toks) {
                        if let Err(e) = v {
                            p.issues.push(n, || e.message(name, tok));
                        }
                        if let Some(slot) = avg.slot(name) {
                            *slot = v.ok();
                        }
                    }
                    if let Some(cur) = p.current.as_mut() {
                        cur.report.avg_cpu = Some(avg);
                    }
                }
                state = State::Idle;
            }
            State::Devices(table) => p.device_row(table, &toks, n),
            State::Idle => {
                p.issues.push(n, || {
                    format!(
                        "expected a timestamp, an `avg-cpu:` header or a `Device` header, \
                         found `{}`",
                        excerpt(line)
                    )
                });
            }
        }
    }
    p.finish();
    if p.reports.is_empty() {
        return Err(ParseError::unusable(
            None,
            "no iostat report found: no `avg-cpu:` block and no `Device` header line",
        ));
    }
    Ok(Parsed {
        value: Iostat {
            header: p.header,
            reports: p.reports,
        },
        issues: p.issues.into_vec(),
    })
}

// ---------------------------------------------------------------------------------------------
// JSON

/// The device of a `disk` object; values beyond their ceiling are left out with an issue.
fn device_from_json(f: &Fields<'_>, line: usize, issues: &mut Issues) -> Option<DeviceStats> {
    let name = f.get("disk_device")?.as_str()?;
    let old_layout = f.has("r") && !f.has("r/s");
    let mut dev = DeviceStats {
        device: name.to_string(),
        line,
        ..DeviceStats::default()
    };
    for (key, value) in &f.0 {
        if key == "disk_device" {
            continue;
        }
        let col = json_column(key, old_layout);
        match value.read(Ceiling::Counter) {
            Ok(v) => dev.set(column(col), col, v),
            Err(e @ NumError::Beyond(_)) => {
                issues.push(line, || {
                    format!("device `{name}`: {}", e.message(key, &value.text()))
                });
            }
            Err(NumError::NotANumber) => {}
        }
    }
    Some(dev)
}

fn parse_json(text: &str) -> Result<Parsed<Iostat>, ParseError> {
    let mut issues = Issues::default();
    let text = repaired(crate::common::strip_bom(text), &mut issues);
    let mut cur = Cursor::new(&text);
    let mut host = HostFields::default();
    let mut reports: Vec<IostatReport> = Vec::new();
    let walked = walk_sysstat(&mut cur, &mut host, |cur, host| {
        let date = host.date;
        cur.array(|cur, _| {
            let mut report = IostatReport {
                line: cur.line(),
                ..IostatReport::default()
            };
            let mut has_data = false;
            cur.object(|cur, key| match key {
                "timestamp" => {
                    let line = cur.line();
                    if let Some(Scalar::Str(s)) = cur.value::<Scalar>()? {
                        report.time = parse_timestamp_str(&s, date);
                        if report.time.is_none() {
                            issues.push(line, || format!("unreadable timestamp `{}`", excerpt(&s)));
                        }
                    }
                    Ok(())
                }
                "avg-cpu" => {
                    let line = cur.line();
                    if let Some(f) = cur.value::<Fields>()? {
                        let mut avg = AvgCpu::default();
                        for (k, v) in &f.0 {
                            if let Some(slot) = avg.slot(k) {
                                let read = v.read(Ceiling::CpuShare);
                                if let Err(e @ NumError::Beyond(_)) = read {
                                    issues.push(line, || e.message(k, &v.text()));
                                }
                                *slot = read.ok();
                            }
                        }
                        report.avg_cpu = Some(avg);
                        has_data = true;
                    }
                    Ok(())
                }
                "disk" => {
                    has_data = true;
                    cur.array(|cur, _| {
                        let line = cur.line();
                        match cur
                            .value::<Fields>()?
                            .and_then(|f| device_from_json(&f, line, &mut issues))
                        {
                            Some(d) => report.devices.push(d),
                            None => issues.push(line, || {
                                "expected a disk object with a `disk_device` name".to_string()
                            }),
                        }
                        Ok(())
                    })
                }
                _ => cur.skip(),
            })?;
            if has_data {
                reports.push(report);
            }
            Ok(())
        })
    });
    finish_walk(
        walked.err(),
        reports.len(),
        "iostat",
        "sysstat",
        "sample with `disk` or `avg-cpu`",
        &mut issues,
    )?;
    Ok(Parsed {
        value: Iostat {
            header: host.into_header(),
            reports,
        },
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::Date;

    #[test]
    fn timestamps_in_every_form() {
        let d = Some(Date {
            year: 2020,
            month: 6,
            day: 1,
        });
        let t = |s: &str| parse_timestamp(&s.split_whitespace().collect::<Vec<_>>());
        assert_eq!(
            t("06/01/20 12:53:20"),
            Some(Timestamp {
                date: d,
                seconds_of_day: 46400
            })
        );
        assert_eq!(
            t("2020-06-01T12:53:20+0000"),
            Some(Timestamp {
                date: d,
                seconds_of_day: 46400
            })
        );
        assert_eq!(
            t("06/01/2020 12:53:20 PM"),
            Some(Timestamp {
                date: d,
                seconds_of_day: 46400
            })
        );
        assert_eq!(t("sda 1.0 2.0"), None);
        assert_eq!(t("06/01/20 12:53:20 extra"), None);
    }

    #[test]
    fn columns_convert_units() {
        assert_eq!(column("rMB/s"), Col::Value(Field::RkbPerS, 1024.0));
        assert_eq!(column("rsec/s"), Col::Value(Field::RkbPerS, 0.5));
        assert_eq!(column("avgrq-sz"), Col::Value(Field::AreqSz, 0.5));
        assert_eq!(column("avgqu-sz"), column("aqu-sz"));
        assert_eq!(column("Device:"), Col::Device);
        assert_eq!(column("%drqm"), Col::Value(Field::DrqmPct, 1.0));
        assert_eq!(column("qu-sz?"), Col::Extra);
    }

    #[test]
    fn sysstat9_sectors_and_wrapped_long_names() {
        // sysstat 9.0 layout (no r_await/w_await), without -k: sectors. A long device-mapper
        // name is printed alone, its values on the next line.
        let text = "Linux 2.6.32-431.el6.x86_64 (db1) \t01/15/2014 \t_x86_64_\t(4 CPU)\n\n\
Device:         rrqm/s   wrqm/s     r/s     w/s   rsec/s   wsec/s avgrq-sz avgqu-sz   await  svctm  %util\n\
sda               0.50     3.00    2.00    4.00   100.00   300.00    66.67     0.05    8.00   2.00   1.20\n\
VolGroup-lv_root\n\
                  0.00     0.00    1.00    2.00    16.00    32.00    16.00     0.01    3.00   1.00   0.30\n";
        let p = parse(text).unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let devs = &p.value.reports[0].devices;
        assert_eq!(devs.len(), 2);
        assert_eq!(devs[0].rkb_per_s, Some(50.0));
        assert_eq!(devs[0].wkb_per_s, Some(150.0));
        assert_eq!(devs[0].areq_sz_kb, Some(66.67 * 0.5));
        assert_eq!(devs[0].await_ms(), Some(8.0));
        assert_eq!(devs[1].device, "VolGroup-lv_root");
        assert_eq!(devs[1].line, 5);
        assert_eq!(devs[1].rkb_per_s, Some(8.0));
    }

    #[test]
    fn pretty_puts_the_device_last() {
        let text = "     r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz  %util Device\n\
                       1.00      8.00     0.00   0.00    2.00     8.00   0.10 sda\n";
        let p = parse(text).unwrap();
        let d = &p.value.reports[0].devices[0];
        assert_eq!(d.device, "sda");
        assert_eq!(d.util_pct, Some(0.1));
        assert_eq!(d.rareq_sz_kb, Some(8.0));
    }

    #[test]
    fn old_json_layout() {
        // sysstat 11.5.1–11.5.6 wrote `rrqm` for rrqm/s and `r` for r/s.
        let text = r#"{"sysstat": {"hosts": [{"nodename": "h", "statistics": [{"disk": [
{"disk_device": "sda", "rrqm": 1.5, "wrqm": 2.5, "r": 3.0, "w": 4.0, "rkB": 5.0, "wkB": 6.0,
 "avgrq-sz": 8.0, "avgqu-sz": 0.1, "await": 1.0, "r_await": 1.0, "w_await": 1.0, "svctm": 0.5, "util": 7.0}
]}]}]}}"#;
        let p = parse(text).unwrap();
        let d = &p.value.reports[0].devices[0];
        assert_eq!(d.line, 2);
        assert_eq!(
            (d.rrqm_per_s, d.r_per_s, d.rkb_per_s, d.rrqm_pct),
            (Some(1.5), Some(3.0), Some(5.0), None)
        );
        assert_eq!(d.areq_sz_kb, Some(4.0));
        assert_eq!(d.util_pct, Some(7.0));
    }
}
