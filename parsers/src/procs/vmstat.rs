//! `vmstat` (procps-ng 3.3 and 4.x) in its default "virtual memory" mode.
//!
//! A group line (`procs -----memory---- ---swap-- -----io---- -system-- ------cpu-----`) and a
//! column line (`r b swpd free buff cache si so bi bo in cs us sy id wa st`) head the samples,
//! and are repeated every screenful (`vmstat 1` prints them again every 20 or so lines).
//! Columns are found by name: `-a` prints `inact active` instead of `buff cache`, procps 4 adds
//! `gu` (guest time) in wide mode, `-w` only widens the columns, and `-t` adds a
//! `-----timestamp-----` group whose column header is the time zone (`UTC`, `PDT`) with a
//! `2021-09-16 20:31:30` date and time on each row. Numbers are split on whitespace, so a
//! 3-digit `id` (100) that shifts the alignment is read like any other.
//!
//! Units: memory columns are KiB (unless vmstat ran with `-S`, which the output does not
//! show); `si`/`so` KiB swapped per second, `bi`/`bo` blocks per second; `in`, `cs` per
//! second; `us`…`gu` % of total CPU time. The first sample covers the time since boot, the
//! following ones the interval.
//!
//! Not handled: `-d`, `-p`, `-D`, `-s`, `-m` (other reports).
//!
//! Sample input (procps-ng 4.0.2 `vmstat -t 1 2`):
//! ```text
//! procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----
//!  r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC
//!  3  0      0 20548932  20164 3504900    0    0  1504  1808  419 1120 30 13 57  0  0 2026-11-30 01:48:35
//! ```

use crate::common::Timestamp;
use crate::common::{
    excerpt, head_lines, numbered_lines, parse_date, parse_time_of_day, strip_bom, Ceiling, Issues,
    NumError, ParseError, Parsed, Sniff,
};
use serde::Serialize;
use std::collections::BTreeMap;

/// A whole `vmstat` output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Vmstat {
    /// Samples in input order; the first one covers the time since boot.
    pub samples: Vec<VmstatSample>,
    /// Time zone named in the `-t` column header (`UTC`, `PDT`), when printed.
    pub timezone: Option<String>,
}

/// One vmstat line. A field is `None` when its column is not printed.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct VmstatSample {
    /// 1-based input line.
    pub line: usize,
    /// `-t`: local date and time of the sample (zone in [`Vmstat::timezone`]).
    pub time: Option<Timestamp>,
    /// `r`: runnable tasks (running or waiting for a CPU).
    pub r: Option<u64>,
    /// `b`: tasks blocked in uninterruptible sleep (usually I/O).
    pub b: Option<u64>,
    /// `swpd`: swap used, KiB.
    pub swpd: Option<u64>,
    /// `free`: idle memory, KiB.
    pub free: Option<u64>,
    /// `buff`: buffers, KiB.
    pub buff: Option<u64>,
    /// `cache`: page cache (and reclaimable slab), KiB.
    pub cache: Option<u64>,
    /// `inact` (`-a`): inactive memory, KiB.
    pub inact: Option<u64>,
    /// `active` (`-a`): active memory, KiB.
    pub active: Option<u64>,
    /// `si`: KiB swapped in from disk per second.
    pub si: Option<u64>,
    /// `so`: KiB swapped out to disk per second.
    pub so: Option<u64>,
    /// `bi`: blocks received from block devices per second.
    pub bi: Option<u64>,
    /// `bo`: blocks sent to block devices per second.
    pub bo: Option<u64>,
    /// `in`: interrupts per second (a Rust keyword, hence the underscore).
    pub in_: Option<u64>,
    /// `cs`: context switches per second.
    pub cs: Option<u64>,
    /// `us`: user time (including guest time before procps 4), %.
    pub us: Option<u64>,
    /// `sy`: kernel time, %.
    pub sy: Option<u64>,
    /// `id`: idle time, %.
    pub id: Option<u64>,
    /// `wa`: I/O wait, %.
    pub wa: Option<u64>,
    /// `st`: time stolen by the hypervisor, %.
    pub st: Option<u64>,
    /// `gu` (procps ≥ 4, wide mode): guest time, %.
    pub gu: Option<u64>,
    /// Numeric columns this parser does not name, by header text.
    pub extra: BTreeMap<String, u64>,
}

impl VmstatSample {
    fn slot(&mut self, col: &str) -> Option<&mut Option<u64>> {
        Some(match col {
            "r" => &mut self.r,
            "b" => &mut self.b,
            "swpd" => &mut self.swpd,
            "free" => &mut self.free,
            "buff" => &mut self.buff,
            "cache" => &mut self.cache,
            "inact" => &mut self.inact,
            "active" => &mut self.active,
            "si" => &mut self.si,
            "so" => &mut self.so,
            "bi" => &mut self.bi,
            "bo" => &mut self.bo,
            "in" => &mut self.in_,
            "cs" => &mut self.cs,
            "us" => &mut self.us,
            "sy" => &mut self.sy,
            "id" => &mut self.id,
            "wa" => &mut self.wa,
            "st" => &mut self.st,
            "gu" => &mut self.gu,
            _ => return None,
        })
    }
}

/// The group line above the column names.
fn is_group_line(line: &str) -> bool {
    let t = line.trim_start();
    (t.starts_with("procs") || t.starts_with("--procs")) && line.contains("memory")
}

/// The column line: starts with `r b`.
fn is_column_line(toks: &[&str]) -> bool {
    toks.len() >= 4 && toks[0] == "r" && toks[1] == "b"
}

/// `vmstat` output?
///
/// `Yes` on the group line (`procs ---memory---` / `--procs-- ---memory---`) or the column line
/// (`r b swpd free …`); `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    for (line, complete) in head_lines(head) {
        if is_group_line(line) {
            return Sniff::Yes;
        }
        let toks: Vec<&str> = line.split_ascii_whitespace().take(4).collect();
        if complete && is_column_line(&toks) && toks[2] == "swpd" {
            return Sniff::Yes;
        }
    }
    Sniff::No
}

/// The current column layout.
struct Layout<'a> {
    cols: Vec<&'a str>,
    /// The last column header is the `-t` time zone: rows end with a date and a time.
    timestamp: bool,
    line: usize,
}

/// The `cpu` columns: shares of all CPUs' time in whole %, at most 100 ([`Ceiling::CpuShare`];
/// vmstat(8): "These are percentages of total CPU time").
const CPU_SHARES: &[&str] = &["us", "sy", "id", "wa", "st", "gu"];

/// Parses `vmstat` output.
///
/// Errors: [`ParseError::Unusable`] when no `r b swpd …` column line is found. Rows with the
/// wrong number of values or non-numbers become issues; a `cpu` share above 100 is left out
/// with an issue.
pub fn parse(text: &str) -> Result<Parsed<Vmstat>, ParseError> {
    let mut out = Vmstat::default();
    let mut issues = Issues::default();
    let mut layout: Option<Layout> = None;
    let mut group_seen = false;
    let mut group_has_timestamp = false;
    let mut toks: Vec<&str> = Vec::with_capacity(24);
    for (n, line) in numbered_lines(strip_bom(text)) {
        toks.clear();
        toks.extend(line.split_ascii_whitespace());
        if toks.is_empty() {
            continue;
        }
        if is_group_line(line) {
            group_seen = true;
            group_has_timestamp = line.contains("timestamp");
            continue;
        }
        if is_column_line(&toks) {
            let last = *toks.last().unwrap_or(&"");
            // Without the group line (a cut file), an unknown alphabetic last column is the
            // time zone of `-t`.
            let timestamp = group_has_timestamp
                || (!group_seen
                    && VmstatSample::default().slot(last).is_none()
                    && last
                        .bytes()
                        .all(|b| b.is_ascii_alphabetic() || b"+-_/".contains(&b)));
            if timestamp {
                out.timezone = Some(last.to_string());
            }
            layout = Some(Layout {
                cols: toks.clone(),
                timestamp,
                line: n,
            });
            continue;
        }
        let Some(l) = &layout else {
            issues.push(n, || {
                format!(
                    "expected the vmstat column line (`r b swpd free …`) before this row: `{}`",
                    excerpt(line)
                )
            });
            continue;
        };
        let numeric = if l.timestamp {
            l.cols.len() - 1
        } else {
            l.cols.len()
        };
        let expected = if l.timestamp { numeric + 2 } else { numeric };
        if toks.len() != expected {
            let (found, header_line) = (toks.len(), l.line);
            issues.push(n, || {
                format!(
                    "expected {expected} values as in the column line on line {header_line}, \
                     found {found}: `{}`",
                    excerpt(line)
                )
            });
            continue;
        }
        let mut s = VmstatSample {
            line: n,
            ..VmstatSample::default()
        };
        let mut bad = None;
        for (col, tok) in l.cols[..numeric].iter().zip(&toks) {
            match tok.parse::<u64>() {
                Ok(v) if CPU_SHARES.contains(col) && v > 100 => {
                    let e = NumError::Beyond(Ceiling::CpuShare);
                    issues.push(n, || e.message(col, tok));
                }
                Ok(v) => match s.slot(col) {
                    Some(slot) => *slot = Some(v),
                    None => {
                        s.extra.insert(col.to_string(), v);
                    }
                },
                Err(_) => {
                    bad = Some((*col, *tok));
                    break;
                }
            }
        }
        if let Some((col, tok)) = bad {
            issues.push(n, || {
                format!(
                    "expected a whole number under `{col}`, found `{}`",
                    excerpt(tok)
                )
            });
            continue;
        }
        if l.timestamp {
            let (d, t) = (toks[numeric], toks[numeric + 1]);
            match (parse_date(d), parse_time_of_day(&[t])) {
                (Some(date), Some((secs, _))) => {
                    s.time = Some(Timestamp {
                        date: Some(date),
                        seconds_of_day: secs,
                    })
                }
                _ => {
                    issues.push(n, || {
                        format!("expected a `YYYY-MM-DD HH:MM:SS` timestamp, found `{d} {t}`")
                    });
                }
            }
        }
        out.samples.push(s);
    }
    if layout.is_none() {
        return Err(ParseError::unusable(
            None,
            "no vmstat column line (`r b swpd free …`) found",
        ));
    }
    // A long listing grows its vector by doubling: give back what is left over.
    out.samples.shrink_to_fit();
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
