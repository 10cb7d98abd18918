//! `dmesg`: the kernel ring buffer.
//!
//! `dmesg` (util-linux 2.3x) prints one message per line, with a `[seconds.micros]` timestamp
//! (`dmesg`), a `[Mon Nov 30 01:09:57 2026]` one (`dmesg -T`), a `<level>` prefix (`dmesg
//! -r`), or none (old captures, `/var/log/dmesg`):
//! ```text
//! [    0.000000] tsc: Fast TSC calibration using PIT
//! [    0.000000] tsc: Detected 2693.827 MHz processor
//! [    0.000028] pid_max: default: 32768 minimum: 301
//! ```

use crate::common::{head_lines, numbered_lines, strip_bom, ParseError, Parsed, Sniff};
use serde::Serialize;

/// One kernel log line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DmesgLine {
    /// Seconds since boot from `[    8.687252]`; `None` without one.
    pub timestamp: Option<f64>,
    /// Wall-clock time as printed by `dmesg -T` (`Mon Nov 30 01:09:57 2026`).
    pub time: Option<String>,
    /// Log level from a `<6>` prefix (`dmesg -r`): 0 emergency … 7 debug; facility bits
    /// removed.
    pub level: Option<u8>,
    /// The message after the prefixes.
    pub message: String,
    /// 1-based input line.
    pub line: usize,
}

/// Parsed `dmesg`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Dmesg {
    /// Messages in input order.
    pub lines: Vec<DmesgLine>,
}

impl Dmesg {
    /// Messages containing `needle`.
    pub fn find<'a>(&'a self, needle: &'a str) -> impl Iterator<Item = &'a DmesgLine> + 'a {
        self.lines
            .iter()
            .filter(move |l| l.message.contains(needle))
    }
}

/// `[    8.687252]` → seconds.
fn monotonic_stamp(s: &str) -> Option<(f64, &str)> {
    let rest = s.strip_prefix('[')?;
    let (inner, after) = rest.split_once(']')?;
    let t = inner.trim_start();
    let (secs, micros) = t.split_once('.')?;
    if secs.is_empty()
        || micros.is_empty()
        || !secs.bytes().all(|b| b.is_ascii_digit())
        || !micros.bytes().all(|b| b.is_ascii_digit())
        || secs.len() > 12
    {
        return None;
    }
    Some((t.parse().ok()?, after))
}

/// `[Mon Nov 30 01:09:57 2026]` (dmesg -T).
fn wall_stamp(s: &str) -> Option<(&str, &str)> {
    let rest = s.strip_prefix('[')?;
    let (inner, after) = rest.split_once(']')?;
    let toks: Vec<&str> = inner.split_ascii_whitespace().collect();
    const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    (toks.len() == 5 && DAYS.contains(&toks[0]) && toks[3].matches(':').count() == 2)
        .then_some((inner, after))
}

/// `<6>` level prefix.
fn level_prefix(s: &str) -> Option<(u8, &str)> {
    let rest = s.strip_prefix('<')?;
    let (num, after) = rest.split_once('>')?;
    if num.is_empty() || num.len() > 4 || !num.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(((num.parse::<u16>().ok()? & 7) as u8, after))
}

fn dmesg_line(line: &str, n: usize) -> DmesgLine {
    let (level, rest) = match level_prefix(line) {
        Some((l, r)) => (Some(l), r),
        None => (None, line),
    };
    let (timestamp, time, rest) = if let Some((t, r)) = monotonic_stamp(rest) {
        (Some(t), None, r)
    } else if let Some((t, r)) = wall_stamp(rest) {
        (None, Some(t.to_string()), r)
    } else {
        (None, None, rest)
    };
    // One space separates a prefix from the message; unprefixed lines keep their indentation.
    let message = if timestamp.is_some() || time.is_some() || level.is_some() {
        rest.strip_prefix(' ').unwrap_or(rest)
    } else {
        rest
    };
    DmesgLine {
        timestamp,
        time,
        level,
        message: message.to_string(),
        line: n,
    }
}

/// Longest uptime a `dmesg` stamp can show, seconds: 10⁹ s is 31 years. A bracketed number of
/// ten digits is a wall-clock time (`ping -D` prints `[1580000000.123456] 64 bytes from …`).
const MAX_UPTIME_S: f64 = 1e9;

/// The line starts with a dmesg timestamp and a space (after a `<6>` level, if any).
fn stamped(line: &str) -> bool {
    let rest = level_prefix(line).map_or(line, |(_, r)| r);
    monotonic_stamp(rest).is_some_and(|(s, after)| s < MAX_UPTIME_S && after.starts_with(' '))
        || wall_stamp(rest).is_some_and(|(_, after)| after.starts_with(' '))
}

/// Is this `dmesg` output? `Yes` when the first line of the head starts with a dmesg timestamp
/// (`[    0.000000] `, `[Mon Nov 30 01:09:57 2026] `, optionally after `<6>`; an uptime under
/// [`MAX_UPTIME_S`]) and so do at least half of its complete lines; `No` otherwise: a log with
/// a stamped line here and there, or `ping -D`'s epoch stamps, is not the kernel's ring buffer.
pub fn sniff_dmesg(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    let Some((first, _)) = lines.next() else {
        return Sniff::No;
    };
    if !stamped(first) {
        return Sniff::No;
    }
    let (mut with, mut without) = (1usize, 0usize);
    for (l, complete) in lines {
        match (complete, stamped(l)) {
            (false, _) => {}
            (true, true) => with += 1,
            (true, false) => without += 1,
        }
    }
    if with >= without {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses `dmesg` output. Every non-blank line is a message; lines without a timestamp are
/// kept with `timestamp: None`.
///
/// Errors: [`ParseError::Unusable`] when the input is empty.
pub fn parse_dmesg(text: &str) -> Result<Parsed<Dmesg>, ParseError> {
    let lines: Vec<DmesgLine> = numbered_lines(strip_bom(text))
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| dmesg_line(l, n))
        .collect();
    if lines.is_empty() {
        return Err(ParseError::unusable(None, "input is empty"));
    }
    Ok(Parsed::clean(Dmesg { lines }))
}
