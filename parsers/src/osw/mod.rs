//! Oracle OSWatcher (OSWatcher Black Box, `oswbb`) archive files: one file per tool and hour,
//! `archive/osw<tool>/<host>_<tool>_YY.MM.DD.HHMM.dat`, each sample preceded by a marker line.
//!
//! Formats: [`vmstat`] (`oswvmstat`), [`iostat`] (`oswiostat`), [`mpstat`] (`oswmpstat`). Each
//! splits its file at the markers and reads every block with the tool's own parser
//! ([`crate::procs::vmstat`], [`crate::sysstat::iostat`], [`crate::sysstat::mpstat`]), giving
//! that parser's record with every line number counted in the whole file and every sample
//! placed in time by its marker.
//!
//! The format is that of OSWatcher v8.0.1's Linux collectors (`OSWatcher.sh`, `vmsub.sh`,
//! `iosub.sh`, `mpsub.sh`, shipped in Oracle's TFA/AHF `ext/oswbb`):
//!
//! - when an hour's file is opened, a banner `Linux OSWbb v8.0.1 <host>` (the host only in the
//!   vmstat file, which also gets `SNAP_INTERVAL`, `CPU_CORES`, `VCPUS` and
//!   `OSWBB_ARCHIVE_DEST` lines); a restart within the hour appends another banner;
//! - before every sample, `echo "zzz ***"\`date '+%a %b %e %T %Z %Y'\``: the host's **local**
//!   time with the zone's abbreviation (`IST`, `CST`, or a numeric `+0545` where the zone has
//!   no abbreviation), English names; the unquoted shell expansion collapses `%e`'s padding, so
//!   a day below 10 reads `Dec 2`, not `Dec  2`. With `oswgCompliance=0` the plain `date` is
//!   written instead, whose form follows the host's locale: markers this module cannot read
//!   become issues and their samples are skipped;
//! - then the tool's output: `vmstat 1 3`, the last third of the lines of `iostat -xk 1 3` (its
//!   third report, without the banner), `mpstat -P ALL 1 2`.
//!
//! Markers seen in published OSWatcher files: `zzz ***Mon Mar 11 18:00:18 JST 2019` (OSWbb
//! v8.1.2, netstat), `zzz ***Sat Apr 15 05:00:09 WIB 2023` (OSWbb v22.1.0AHF, top).
//!
//! Sample input (`oswvmstat`, captured with the collectors' commands, `TZ=Asia/Kolkata`):
//! ```text
//! Linux OSWbb v8.0.1 vm
//! SNAP_INTERVAL 30
//! CPU_CORES 1
//! VCPUS 2
//! OSWBB_ARCHIVE_DEST /opt/oswbb/archive
//! zzz ***Wed Dec 2 09:55:20 IST 2026
//! procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----
//!  r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st
//!  6  0      0 6884548 216184 17226124    0    0  1953 14832  645 1220 63 16 14  5  1
//! ```

pub mod iostat;
pub mod mpstat;
pub mod vmstat;

use crate::common::{parse_time_of_day, Date, LineIssue, ParseError, Timestamp};

/// A sample marker: `zzz ***Wed Dec 2 09:55:20 IST 2026`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    /// 1-based line of the marker.
    pub line: usize,
    /// The host's local date and time the collector wrote.
    pub time: Timestamp,
    /// The zone as `date` printed it (`IST`, `+0545`), when printed.
    pub zone: Option<String>,
}

/// The prefix of every marker line.
const MARKER: &str = "zzz ***";

const WEEKDAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Reads the date of a marker line (`line` without its number): `zzz ***<weekday> <month>
/// <day> <hh:mm:ss> [<zone>] <year>`, English names. `None` for any other text.
pub fn parse_marker(line: &str) -> Option<(Timestamp, Option<String>)> {
    let rest = line.trim_end().strip_prefix(MARKER)?;
    let toks: Vec<&str> = rest.split_ascii_whitespace().collect();
    let (wd, mon, day, hms, zone, year) = match toks.as_slice() {
        [wd, mon, day, hms, zone, year] => (*wd, *mon, *day, *hms, Some(*zone), *year),
        [wd, mon, day, hms, year] => (*wd, *mon, *day, *hms, None, *year),
        _ => return None,
    };
    if !WEEKDAYS.contains(&wd) {
        return None;
    }
    let month = MONTHS.iter().position(|m| *m == mon)? as u32 + 1;
    let day: u32 = day
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| day.parse().ok())
        .flatten()?;
    if !(1..=31).contains(&day) || year.len() != 4 || !year.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let year: i32 = year.parse().ok()?;
    let (seconds_of_day, used) = parse_time_of_day(&[hms])?;
    if used != 1 || zone.is_some_and(|z| z.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    Some((
        Timestamp {
            date: Some(Date { year, month, day }),
            seconds_of_day,
        },
        zone.map(str::to_string),
    ))
}

/// `t` plus `s` seconds, on the next days when it passes midnight (no zone change is applied:
/// OSWatcher files do not say when daylight saving time starts or ends).
pub fn plus_seconds(t: Timestamp, s: u32) -> Timestamp {
    let total = u64::from(t.seconds_of_day) + u64::from(s);
    let days = (total / 86_400) as i64;
    Timestamp {
        date: t.date.map(|d| d.add_days(days)),
        seconds_of_day: (total % 86_400) as u32,
    }
}

/// One sample of a file: its marker and the lines after it, up to the next marker or banner.
#[derive(Debug)]
pub(crate) struct Block<'a> {
    /// The marker.
    pub marker: Marker,
    /// Number of lines of the file before `text`: add it to a line number within `text`.
    pub offset: usize,
    /// The tool's output.
    pub text: &'a str,
}

/// A file split at its markers, with the issues of the markers that could not be read.
#[derive(Debug)]
pub(crate) struct Split<'a> {
    pub blocks: Vec<Block<'a>>,
    pub issues: Vec<LineIssue>,
}

/// Lines OSWatcher writes itself when it opens an hour's file: the banner (`Linux OSWbb v8.0.1
/// host`) and the vmstat file's settings.
fn is_header(line: &str) -> bool {
    let mut toks = line.split_ascii_whitespace();
    match (toks.next(), toks.next()) {
        (Some(_), Some(second)) if second.starts_with("OSWbb") => true,
        (Some("SNAP_INTERVAL" | "CPU_CORES" | "VCPUS" | "OSWBB_ARCHIVE_DEST"), _) => true,
        _ => false,
    }
}

/// Splits an OSWatcher file at its markers. Lines before the first marker (the banner) and
/// header lines between blocks are not part of any block; a marker that cannot be read is an
/// issue and the lines after it, up to the next marker, are skipped.
///
/// Errors: [`ParseError::Unusable`] when the text has no marker line at all.
pub(crate) fn split(text: &str) -> Result<Split<'_>, ParseError> {
    let mut blocks = Vec::new();
    let mut issues = Vec::new();
    let mut markers = 0usize;
    // The open block: its marker, its first byte and the number of lines before it.
    let mut open: Option<(Marker, usize, usize)> = None;
    let mut pos = 0usize;
    let mut n = 0usize;
    let mut close = |open: &mut Option<(Marker, usize, usize)>, end: usize| {
        if let Some((marker, start, offset)) = open.take() {
            blocks.push(Block {
                marker,
                offset,
                text: text.get(start..end).unwrap_or(""),
            });
        }
    };
    for raw in text.split_inclusive('\n') {
        n += 1;
        let start = pos;
        pos += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        if line.starts_with("zzz") {
            close(&mut open, start);
            markers += 1;
            match parse_marker(line) {
                Some((time, zone)) => {
                    open = Some((Marker { line: n, time, zone }, pos, n));
                }
                None => issues.push(LineIssue::new(
                    n,
                    format!(
                        "unreadable OSWatcher marker `{}` (expected `zzz ***<weekday> <month> <day> <hh:mm:ss> <zone> <year>`, English names); the lines up to the next marker are skipped",
                        crate::common::clip(line)
                    ),
                )),
            }
        } else if is_header(line) {
            close(&mut open, start);
        }
    }
    close(&mut open, pos);
    if markers == 0 {
        return Err(ParseError::unusable(
            None,
            "no OSWatcher `zzz ***<date>` sample marker line",
        ));
    }
    Ok(Split { blocks, issues })
}

/// `issue` of a block, with its line counted in the whole file.
fn shifted(mut issue: LineIssue, offset: usize) -> LineIssue {
    if issue.line > 0 {
        issue.line += offset;
    }
    issue
}

/// The issue of a block whose tool output could not be read at all.
fn unreadable_block(m: &Marker, e: &ParseError) -> LineIssue {
    LineIssue::new(
        m.line,
        format!("the sample after this marker could not be read, skipped: {e}"),
    )
}

/// Reads every block of an OSWatcher file with its tool's parser `read`: each block's record is
/// merged into one by `take` (given the block, for its marker and its line offset), and the
/// block's issues are counted in the whole file's lines. `empty` tells whether anything was
/// merged.
///
/// Errors: [`ParseError::Unusable`] without a marker, or with `nothing` when no block gave
/// anything. A block that cannot be read and a marker that cannot be read are issues at their
/// lines.
pub(crate) fn read_blocks<T: Default>(
    text: &str,
    read: fn(&str) -> Result<crate::common::Parsed<T>, ParseError>,
    mut take: impl FnMut(&mut T, T, &Block<'_>),
    empty: fn(&T) -> bool,
    nothing: &str,
) -> Result<crate::common::Parsed<T>, ParseError> {
    let s = split(text)?;
    let mut issues = s.issues;
    let mut out = T::default();
    for b in &s.blocks {
        match read(b.text) {
            Ok(p) => {
                issues.extend(p.issues.into_iter().map(|i| shifted(i, b.offset)));
                take(&mut out, p.value, b);
            }
            Err(e) => issues.push(unreadable_block(&b.marker, &e)),
        }
    }
    issues.sort_by_key(|i| i.line);
    if empty(&out) {
        return Err(ParseError::unusable(None, nothing));
    }
    Ok(crate::common::Parsed { value: out, issues })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_as_oswatcher_writes_them() {
        let (t, z) = parse_marker("zzz ***Mon Mar 11 18:00:18 JST 2019").unwrap();
        assert_eq!(
            t.date,
            Some(Date {
                year: 2019,
                month: 3,
                day: 11
            })
        );
        assert_eq!(t.seconds_of_day, 18 * 3600 + 18);
        assert_eq!(z.as_deref(), Some("JST"));
        // The collapsed and the padded day, a numeric zone, no zone.
        assert!(parse_marker("zzz ***Wed Dec 2 09:55:20 IST 2026").is_some());
        assert!(parse_marker("zzz ***Wed Dec  2 09:55:20 IST 2026").is_some());
        let (_, z) = parse_marker("zzz ***Wed Dec 2 10:10:20 +0545 2026").unwrap();
        assert_eq!(z.as_deref(), Some("+0545"));
        assert!(parse_marker("zzz ***Wed Dec 2 09:55:20 2026").is_some());
        // A localised `date`, a warning line, a cut marker.
        assert!(parse_marker("zzz ***Mi 2. Dez 09:55:20 IST 2026").is_none());
        assert!(parse_marker(
            "zzz ***Warning. Traceroute response is spanning snapshot intervals."
        )
        .is_none());
        assert!(parse_marker("zzz ***Wed Dec 2 09:55").is_none());
        assert!(parse_marker("zzz ***Wed Dec 32 09:55:20 IST 2026").is_none());
    }

    #[test]
    fn split_keeps_file_line_numbers_and_reports_bad_markers() {
        let text = "Linux OSWbb v8.0.1 h\nzzz ***Wed Dec 2 09:55:20 IST 2026\na\nb\nzzz ***garbage\nc\nLinux OSWbb v8.0.1 h\nzzz ***Wed Dec 2 09:56:20 IST 2026\nd\n";
        let s = split(text).unwrap();
        assert_eq!(s.blocks.len(), 2);
        assert_eq!((s.blocks[0].marker.line, s.blocks[0].offset), (2, 2));
        assert_eq!(s.blocks[0].text, "a\nb\n");
        assert_eq!((s.blocks[1].marker.line, s.blocks[1].text), (8, "d\n"));
        assert_eq!(s.issues.len(), 1);
        assert_eq!(s.issues[0].line, 5);
        assert!(split("Linux OSWbb v8.0.1\n").is_err());
        assert!(split("").is_err());
    }

    #[test]
    fn seconds_pass_midnight_onto_the_next_day() {
        let (t, _) = parse_marker("zzz ***Thu Dec 31 23:59:59 UTC 2026").unwrap();
        let t = plus_seconds(t, 2);
        assert_eq!(t.seconds_of_day, 1);
        assert_eq!(
            t.date,
            Some(Date {
                year: 2027,
                month: 1,
                day: 1
            })
        );
    }
}
