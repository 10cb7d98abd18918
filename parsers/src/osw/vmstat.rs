//! `oswvmstat`: OSWatcher's hourly `vmstat 1 3` files, read as one [`Vmstat`].
//!
//! Each block after a marker is `vmstat 1 3` (procps): the group and column lines, then three
//! samples, the first of which averages the time since boot. The record keeps the first
//! block's since-boot sample as its first sample (as a plain `vmstat` output has it) and the
//! interval samples of every block; the since-boot samples of later blocks are left out. Sample
//! *k* of a block (0 for the since-boot one) is placed at the marker's time plus *k* seconds,
//! the interval OSWatcher's Linux collector passes (`VMSTAT='vmstat 1 3'`); the zone is the
//! first marker's ([`Vmstat::timezone`]). Units as in [`crate::procs::vmstat`].
//!
//! Sample input: see [`crate::osw`].

use super::{plus_seconds, read_blocks, Block};
use crate::common::{ParseError, Parsed};
use crate::procs::vmstat::{self as plain, Vmstat};

/// Parses an `oswvmstat` file.
///
/// Errors: [`ParseError::Unusable`] without a marker, or when no block holds a vmstat sample.
/// A block that cannot be read, and a marker that cannot be read, are issues at their lines.
pub fn parse(text: &str) -> Result<Parsed<Vmstat>, ParseError> {
    let take = |out: &mut Vmstat, v: Vmstat, b: &Block<'_>| {
        if out.timezone.is_none() {
            out.timezone = b.marker.zone.clone();
        }
        for (k, mut sample) in v.samples.iter().enumerate() {
            if k == 0 && !out.samples.is_empty() {
                continue;
            }
            sample.line += b.offset;
            if sample.time.is_none() {
                sample.time = Some(plus_seconds(b.marker.time, k as u32));
            }
            out.samples.push(sample);
        }
    };
    read_blocks(
        text,
        plain::parse,
        take,
        |o| o.samples.is_empty(),
        "no vmstat sample after any OSWatcher marker",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::Date;

    const H09: &str = include_str!("../../tests/fixtures/oswvmstat/vm_vmstat_26.12.02.0900.dat");
    const H10: &str = include_str!("../../tests/fixtures/oswvmstat/vm_vmstat_26.12.02.1000.dat");

    #[test]
    fn samples_carry_their_file_lines_and_marker_times() {
        let p = parse(H09).unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let v = p.value;
        // The first block's since-boot sample, then two interval samples per block.
        assert_eq!(v.samples.len(), 1 + 10 * 2);
        assert_eq!(v.timezone.as_deref(), Some("IST"));
        let s = v.samples.get(1).unwrap();
        assert_eq!((s.line, s.r, s.cs), (10, Some(2), Some(10554)));
        let t = s.time.unwrap();
        assert_eq!(
            t.date,
            Some(Date {
                year: 2026,
                month: 12,
                day: 2
            })
        );
        assert_eq!(t.seconds_of_day, 9 * 3600 + 55 * 60 + 21);
        assert_eq!(
            v.samples.first().unwrap().time.unwrap().seconds_of_day,
            9 * 3600 + 55 * 60 + 20
        );
        let last = parse(H10).unwrap().value.samples.last().unwrap();
        assert_eq!((last.line, last.cs), (53, Some(2675)));
        assert_eq!(last.time.unwrap().seconds_of_day, 10 * 3600 + 3 * 60 + 53);
    }

    #[test]
    fn a_bad_marker_skips_its_block_only() {
        let text = H09.replacen(
            "zzz ***Wed Dec 2 09:55:50 IST 2026",
            "zzz ***Mi 2. Dez 09:55:50 IST 2026",
            1,
        );
        let p = parse(&text).unwrap();
        assert_eq!(p.value.samples.len(), 1 + 9 * 2);
        assert_eq!(p.issues.len(), 1);
        assert_eq!(p.issues[0].line, 12);
        assert!(parse("procs\n r b\n").is_err());
    }
}
