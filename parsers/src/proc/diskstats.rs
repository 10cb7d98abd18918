//! `/proc/diskstats`: I/O counters per block device since boot.
//!
//! Each line is `major minor name` followed by the fields of the kernel's
//! Documentation/admin-guide/iostats.rst, in order: 11 fields on every kernel since 2.6 (14
//! tokens), 4 more for discards since 4.18 (18 tokens), 2 more for flushes since 5.5 (20
//! tokens); lines of different lengths can be mixed in one file (the kernel prints what each
//! driver accounts). Partitions on kernels before 2.6.25 printed 4 fields (`reads sectors_read
//! writes sectors_written`, 7 tokens); they are read too.
//!
//! Units: sectors are 512 bytes whatever the device's sector size; times are ms. Counters are
//! `unsigned long` and wrap at 2^32 on 32-bit kernels. [`Diskstats::rates_to`] turns two
//! snapshots into iostat-like rates.
//!
//! Sample input (Linux 5.5+):
//! ```text
//!    8       0 sda 14200 3361 892828 5058 18736 13416 715384 12604 0 24940 17663 0 0 0 0 0 0
//!    8       1 sda1 171 0 1368 22 0 0 0 0 0 84 22 0 0 0 0 0 0
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;
use std::collections::HashMap;

/// One snapshot of `/proc/diskstats`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Diskstats {
    /// Devices in input order.
    pub devices: Vec<DiskCounters>,
}

/// Counters of one device since boot. Fields the line does not carry are `None`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct DiskCounters {
    /// Major device number.
    pub major: u32,
    /// Minor device number.
    pub minor: u32,
    /// Device name (`sda`, `sda1`, `nvme0n1`, `dm-0`).
    pub name: String,
    /// 1-based input line.
    pub line: usize,
    /// How many statistics fields the line had (4, 11, 15 or 17).
    pub fields: usize,
    /// Field 1: reads completed successfully.
    pub reads_completed: Option<u64>,
    /// Field 2: reads merged.
    pub reads_merged: Option<u64>,
    /// Field 3: sectors read.
    pub sectors_read: Option<u64>,
    /// Field 4: time spent reading, ms.
    pub read_time_ms: Option<u64>,
    /// Field 5: writes completed.
    pub writes_completed: Option<u64>,
    /// Field 6: writes merged.
    pub writes_merged: Option<u64>,
    /// Field 7: sectors written.
    pub sectors_written: Option<u64>,
    /// Field 8: time spent writing, ms.
    pub write_time_ms: Option<u64>,
    /// Field 9: I/Os currently in progress (the only gauge).
    pub in_flight: Option<u64>,
    /// Field 10: time spent doing I/Os, ms (basis of `%util`).
    pub io_time_ms: Option<u64>,
    /// Field 11: weighted time spent doing I/Os, ms (basis of `aqu-sz`).
    pub weighted_io_time_ms: Option<u64>,
    /// Field 12 (4.18+): discards completed.
    pub discards_completed: Option<u64>,
    /// Field 13 (4.18+): discards merged.
    pub discards_merged: Option<u64>,
    /// Field 14 (4.18+): sectors discarded.
    pub sectors_discarded: Option<u64>,
    /// Field 15 (4.18+): time spent discarding, ms.
    pub discard_time_ms: Option<u64>,
    /// Field 16 (5.5+): flush requests completed.
    pub flushes_completed: Option<u64>,
    /// Field 17 (5.5+): time spent flushing, ms.
    pub flush_time_ms: Option<u64>,
}

/// iostat-like rates of one device over an interval. A value is `None` when a counter it needs
/// is missing from either snapshot or went backwards.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiskRates {
    /// Device name.
    pub name: String,
    /// `r/s`: reads completed per second.
    pub r_per_s: Option<f64>,
    /// `w/s`: writes completed per second.
    pub w_per_s: Option<f64>,
    /// `d/s`: discards completed per second.
    pub d_per_s: Option<f64>,
    /// `f/s`: flushes completed per second.
    pub f_per_s: Option<f64>,
    /// `rkB/s`.
    pub rkb_per_s: Option<f64>,
    /// `wkB/s`.
    pub wkb_per_s: Option<f64>,
    /// `dkB/s`.
    pub dkb_per_s: Option<f64>,
    /// `rrqm/s`: reads merged per second.
    pub rrqm_per_s: Option<f64>,
    /// `wrqm/s`: writes merged per second.
    pub wrqm_per_s: Option<f64>,
    /// `r_await`: mean time per read, ms (0 when no read completed).
    pub r_await_ms: Option<f64>,
    /// `w_await`: mean time per write, ms.
    pub w_await_ms: Option<f64>,
    /// `await`: mean time per read or write, ms (sysstat's pre-11.5.7 `await`).
    pub await_ms: Option<f64>,
    /// `aqu-sz`: mean number of requests in flight (Δ weighted time / elapsed time).
    pub aqu_sz: Option<f64>,
    /// `%util`: % of elapsed time with I/O in flight (Δ io_time / elapsed time), capped at 100.
    pub util_pct: Option<f64>,
    /// `rareq-sz`: mean read size, KiB.
    pub rareq_sz_kb: Option<f64>,
    /// `wareq-sz`: mean write size, KiB.
    pub wareq_sz_kb: Option<f64>,
}

/// KiB per 512-byte sector.
const KIB_PER_SECTOR: f64 = 0.5;

impl Diskstats {
    /// Counters of device `name`.
    pub fn device(&self, name: &str) -> Option<&DiskCounters> {
        self.devices.iter().find(|d| d.name == name)
    }

    /// Rates from `self` (earlier) to `later` over `seconds`, for every device present in both
    /// (matched by name), in `self`'s order; empty when `seconds` is not positive.
    pub fn rates_to(&self, later: &Diskstats, seconds: f64) -> Vec<DiskRates> {
        if !(seconds > 0.0 && seconds.is_finite()) {
            return Vec::new();
        }
        let after: HashMap<&str, &DiskCounters> =
            later.devices.iter().map(|d| (d.name.as_str(), d)).collect();
        self.devices
            .iter()
            .filter_map(|a| {
                let b = after.get(a.name.as_str())?;
                Some(a.rates_to(b, seconds))
            })
            .collect()
    }
}

impl DiskCounters {
    /// Rates from `self` to `later` (same device) over `seconds` (> 0).
    pub fn rates_to(&self, later: &DiskCounters, seconds: f64) -> DiskRates {
        let d =
            |a: Option<u64>, b: Option<u64>| -> Option<f64> { Some(b?.checked_sub(a?)? as f64) };
        let per_s = |v: Option<f64>| v.map(|v| v / seconds);
        let ms = seconds * 1000.0;
        let reads = d(self.reads_completed, later.reads_completed);
        let writes = d(self.writes_completed, later.writes_completed);
        let rd_ms = d(self.read_time_ms, later.read_time_ms);
        let wr_ms = d(self.write_time_ms, later.write_time_ms);
        let rsec = d(self.sectors_read, later.sectors_read);
        let wsec = d(self.sectors_written, later.sectors_written);
        let ratio = |num: Option<f64>, den: Option<f64>| -> Option<f64> {
            let (num, den) = (num?, den?);
            Some(if den > 0.0 { num / den } else { 0.0 })
        };
        let sum = |a: Option<f64>, b: Option<f64>| Some(a? + b?);
        DiskRates {
            name: self.name.clone(),
            r_per_s: per_s(reads),
            w_per_s: per_s(writes),
            d_per_s: per_s(d(self.discards_completed, later.discards_completed)),
            f_per_s: per_s(d(self.flushes_completed, later.flushes_completed)),
            rkb_per_s: per_s(rsec.map(|s| s * KIB_PER_SECTOR)),
            wkb_per_s: per_s(wsec.map(|s| s * KIB_PER_SECTOR)),
            dkb_per_s: per_s(
                d(self.sectors_discarded, later.sectors_discarded).map(|s| s * KIB_PER_SECTOR),
            ),
            rrqm_per_s: per_s(d(self.reads_merged, later.reads_merged)),
            wrqm_per_s: per_s(d(self.writes_merged, later.writes_merged)),
            r_await_ms: ratio(rd_ms, reads),
            w_await_ms: ratio(wr_ms, writes),
            await_ms: ratio(sum(rd_ms, wr_ms), sum(reads, writes)),
            aqu_sz: d(self.weighted_io_time_ms, later.weighted_io_time_ms).map(|w| w / ms),
            util_pct: d(self.io_time_ms, later.io_time_ms).map(|t| (t * 100.0 / ms).min(100.0)),
            rareq_sz_kb: ratio(rsec.map(|s| s * KIB_PER_SECTOR), reads),
            wareq_sz_kb: ratio(wsec.map(|s| s * KIB_PER_SECTOR), writes),
        }
    }
}

/// Reads one line; `Err` says what is wrong.
fn parse_line(line: &str, n: usize) -> Result<DiskCounters, String> {
    let mut toks = line.split_ascii_whitespace();
    let (Some(major), Some(minor), Some(name)) = (toks.next(), toks.next(), toks.next()) else {
        return Err("expected `major minor name` then counters".to_string());
    };
    let (Ok(major), Ok(minor)) = (major.parse::<u32>(), minor.parse::<u32>()) else {
        return Err(format!(
            "expected major and minor device numbers, found `{major} {minor}`"
        ));
    };
    if !name.bytes().any(|b| b.is_ascii_alphabetic()) {
        return Err(format!("expected a device name, found `{}`", excerpt(name)));
    }
    let mut v = [0u64; 17];
    let mut count = 0;
    for tok in toks {
        if count == v.len() {
            return Err(format!(
                "`{name}`: expected 4, 11, 15 or 17 counters, found more than 17"
            ));
        }
        v[count] = tok
            .parse()
            .map_err(|_| format!("`{name}`: expected a counter, found `{}`", excerpt(tok)))?;
        count += 1;
    }
    let mut d = DiskCounters {
        major,
        minor,
        name: name.to_string(),
        line: n,
        fields: count,
        ..DiskCounters::default()
    };
    let g = |i: usize| (i < count).then_some(v[i]);
    match count {
        4 => {
            // 2.6.0–2.6.24 partitions: reads, sectors read, writes, sectors written.
            d.reads_completed = g(0);
            d.sectors_read = g(1);
            d.writes_completed = g(2);
            d.sectors_written = g(3);
        }
        11 | 15 | 17 => {
            d.reads_completed = g(0);
            d.reads_merged = g(1);
            d.sectors_read = g(2);
            d.read_time_ms = g(3);
            d.writes_completed = g(4);
            d.writes_merged = g(5);
            d.sectors_written = g(6);
            d.write_time_ms = g(7);
            d.in_flight = g(8);
            d.io_time_ms = g(9);
            d.weighted_io_time_ms = g(10);
            d.discards_completed = g(11);
            d.discards_merged = g(12);
            d.sectors_discarded = g(13);
            d.discard_time_ms = g(14);
            d.flushes_completed = g(15);
            d.flush_time_ms = g(16);
        }
        _ => {
            return Err(format!(
                "`{name}`: expected 4, 11, 15 or 17 counters after the name, found {count}"
            ))
        }
    }
    Ok(d)
}

/// How the kernel prints a device number in `/proc/diskstats` (`%4d %7d`): decimal, without
/// leading zeros.
fn plain_decimal(tok: &str) -> bool {
    tok == "0"
        || (tok
            .as_bytes()
            .first()
            .is_some_and(|b| (b'1'..=b'9').contains(b))
            && tok.bytes().all(|b| b.is_ascii_digit()))
}

/// `/proc/diskstats`?
///
/// `Yes` when the lines of the head are `major minor name` (decimal device numbers, a name
/// starting with a letter) followed by 4, 11, 15 or 17 counters; `No` otherwise (the hex
/// words of `/proc/net/rt6_stats`, `0008 0006 001e …`, are no device line).
pub fn sniff(head: &str) -> Sniff {
    let mut any = false;
    for (line, complete) in head_lines(head) {
        if line.trim().is_empty() {
            continue;
        }
        if !complete {
            break;
        }
        let mut toks = line.split_ascii_whitespace();
        let shaped = matches!(
            (toks.next(), toks.next(), toks.next()),
            (Some(major), Some(minor), Some(name))
                if plain_decimal(major)
                    && plain_decimal(minor)
                    && name.as_bytes()[0].is_ascii_alphabetic()
        );
        if !shaped || parse_line(line, 0).is_err() {
            return Sniff::No;
        }
        any = true;
    }
    if any {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses `/proc/diskstats`.
///
/// Errors: [`ParseError::Unusable`] when no device line is found. Lines of another shape
/// become issues.
pub fn parse(text: &str) -> Result<Parsed<Diskstats>, ParseError> {
    let mut out = Diskstats::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        match parse_line(line, n) {
            Ok(d) => out.devices.push(d),
            Err(msg) => issues.push(n, || format!("{msg}: `{}`", excerpt(line))),
        }
    }
    if out.devices.is_empty() {
        return Err(ParseError::unusable(
            None,
            "no `major minor name counters…` device line found",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
