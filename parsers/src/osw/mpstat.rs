//! `oswmpstat`: OSWatcher's hourly `mpstat -P ALL 1 2` files, read as one [`Mpstat`].
//!
//! Each block is a whole `mpstat -P ALL 1 2` output: the sysstat banner, two one-second
//! intervals and their `Average:` rows. The record keeps the first block's banner and every
//! interval; the `Average:` rows (means over two seconds) are left out. mpstat prints each
//! interval's time of day in the host's local time, as the marker does: the interval keeps that
//! time on the marker's date (the next day when the time is more than 12 hours before the
//! marker's: a block that crosses midnight); an interval without a time is placed at the marker
//! plus its 1-based index in seconds. Columns and units as in [`crate::sysstat::mpstat`].
//!
//! Sample input (OSWatcher v8.0.1 collectors, sysstat 12.6.1; the banner's tabs shown as
//! spaces):
//! ```text
//! Linux OSWbb v8.0.1
//! zzz ***Wed Dec 2 09:55:20 IST 2026
//! Linux 6.18.44-fc-v669 (vm)    12/02/26    _x86_64_    (2 CPU)
//!
//! 09:55:20     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle
//! 09:55:21     all    6.74    0.00   41.45    0.00    0.00    0.00    0.00    0.00    0.00   51.81
//! 09:55:21       0    2.02    0.00    8.08    0.00    0.00    0.00    0.00    0.00    0.00   89.90
//! ```

use super::{plus_seconds, read_blocks, Block};
use crate::common::{ParseError, Parsed, Timestamp};
use crate::sysstat::mpstat::{self as plain, Mpstat};

/// Parses an `oswmpstat` file.
///
/// Errors: [`ParseError::Unusable`] without a marker, or when no block holds an mpstat
/// interval. A block that cannot be read, and a marker that cannot be read, are issues at their
/// lines.
pub fn parse(text: &str) -> Result<Parsed<Mpstat>, ParseError> {
    let take = |out: &mut Mpstat, v: Mpstat, b: &Block<'_>| {
        if out.header.is_none() {
            out.header = v.header.map(|mut h| {
                h.line += b.offset;
                h
            });
        }
        let m = b.marker.time;
        for (k, mut iv) in v.intervals.into_iter().enumerate() {
            iv.line += b.offset;
            for r in &mut iv.rows {
                r.line += b.offset;
            }
            iv.time = Some(match iv.time {
                Some(t) => on_marker_day(m, t.seconds_of_day),
                None => plus_seconds(m, k as u32 + 1),
            });
            out.intervals.push(iv);
        }
    };
    read_blocks(
        text,
        plain::parse,
        take,
        |o| o.intervals.is_empty(),
        "no mpstat interval after any OSWatcher marker",
    )
}

/// The time of day `sod` on the marker's date, or on the next day when it is more than 12 hours
/// before the marker's time.
fn on_marker_day(marker: Timestamp, sod: u32) -> Timestamp {
    let next = sod + 43_200 < marker.seconds_of_day;
    Timestamp {
        date: marker.date.map(|d| d.add_days(i64::from(next))),
        seconds_of_day: sod,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::Date;
    use crate::sysstat::mpstat::CpuId;

    const H09: &str = include_str!("../../tests/fixtures/oswmpstat/vm_mpstat_26.12.02.0900.dat");

    #[test]
    fn intervals_on_the_marker_date_averages_left_out() {
        let p = parse(H09).unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let m = p.value;
        assert_eq!(m.intervals.len(), 10 * 2);
        assert!(m.averages.is_empty());
        assert_eq!(
            m.header.as_ref().map(|h| (h.nodename.as_str(), h.line)),
            Some(("vm", 3))
        );
        let iv = &m.intervals[0];
        let t = iv.time.unwrap();
        assert_eq!(
            t.date,
            Some(Date {
                year: 2026,
                month: 12,
                day: 2
            })
        );
        assert_eq!(t.seconds_of_day, 9 * 3600 + 55 * 60 + 21);
        let cpu0 = iv.rows.iter().find(|r| r.cpu == CpuId::Cpu(0)).unwrap();
        assert_eq!(
            (cpu0.line, cpu0.usr_pct, cpu0.idle_pct),
            (7, Some(2.02), Some(89.9))
        );
    }

    #[test]
    fn an_interval_after_midnight_is_on_the_next_day() {
        let (m, _) = super::super::parse_marker("zzz ***Thu Dec 31 23:59:59 UTC 2026").unwrap();
        let t = on_marker_day(m, 1);
        assert_eq!(t.date.map(|d| d.year), Some(2027));
        assert_eq!(on_marker_day(m, 86_399).date.map(|d| d.day), Some(31));
    }
}
