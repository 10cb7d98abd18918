//! `oswiostat`: OSWatcher's hourly `iostat -xk` files, read as one [`Iostat`].
//!
//! OSWatcher's Linux collector runs `iostat -xk 1 3` and keeps the last third of its lines:
//! the third report (`avg-cpu` and the extended device table), without the banner and without
//! the since-boot first report. Every report of the record therefore covers one interval; it is
//! placed at its marker's time plus 2 s (the third report of `iostat 1 3` ends two seconds
//! after the command starts); a block holding several reports (a collector configured
//! otherwise) has report *k* at the marker plus *k* seconds. Columns and units as in
//! [`crate::sysstat::iostat`] (`-k`: kB are KiB).
//!
//! Sample input (OSWatcher v8.0.1 collectors, sysstat 12.6.1):
//! ```text
//! Linux OSWbb v8.0.1
//! zzz ***Wed Dec 2 09:55:50 IST 2026
//! avg-cpu:  %user   %nice %system %iowait  %steal   %idle
//!           81.41    0.00   16.08    0.50    0.00    2.01
//!
//! Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util
//! vda            223.00   3320.00     0.00   0.00    6.00    14.89    1.00      8.00     0.00   0.00    0.00     8.00    2.00     12.00     0.00   0.00    0.00     6.00    0.00    0.00    1.34   2.00
//! ```

use super::{plus_seconds, read_blocks, Block};
use crate::common::{ParseError, Parsed};
use crate::sysstat::iostat::{self as plain, Iostat};

/// Parses an `oswiostat` file.
///
/// Errors: [`ParseError::Unusable`] without a marker, or when no block holds an iostat report.
/// A block that cannot be read, and a marker that cannot be read, are issues at their lines.
pub fn parse(text: &str) -> Result<Parsed<Iostat>, ParseError> {
    let take = |out: &mut Iostat, v: Iostat, b: &Block<'_>| {
        if out.header.is_none() {
            out.header = v.header.map(|mut h| {
                h.line += b.offset;
                h
            });
        }
        let n = v.reports.len();
        for (k, mut r) in v.reports.into_iter().enumerate() {
            r.line += b.offset;
            for d in &mut r.devices {
                d.line += b.offset;
            }
            if r.time.is_none() {
                let after = if n == 1 { 2 } else { k as u32 };
                r.time = Some(plus_seconds(b.marker.time, after));
            }
            out.reports.push(r);
        }
    };
    read_blocks(
        text,
        plain::parse,
        take,
        |o| o.reports.is_empty(),
        "no iostat report after any OSWatcher marker",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const H09: &str = include_str!("../../tests/fixtures/oswiostat/vm_iostat_26.12.02.0900.dat");
    const H10: &str = include_str!("../../tests/fixtures/oswiostat/vm_iostat_26.12.02.1000.dat");

    #[test]
    fn one_interval_report_per_marker() {
        let p = parse(H09).unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        assert_eq!(p.value.reports.len(), 10);
        let r = &p.value.reports[1];
        assert_eq!(r.time.unwrap().seconds_of_day, 9 * 3600 + 55 * 60 + 52);
        let d = &r.devices[0];
        assert_eq!((d.device.as_str(), d.line), ("vda", 15));
        assert_eq!(
            (d.aqu_sz, d.util_pct, d.r_await_ms),
            (Some(1.34), Some(2.0), Some(6.0))
        );
        let p = parse(H10).unwrap().value;
        assert_eq!(p.reports.len(), 8);
        let d = &p.reports[7].devices[0];
        assert_eq!(
            (d.line, d.util_pct, d.w_await_ms),
            (63, Some(12.28), Some(52.9))
        );
    }
}
