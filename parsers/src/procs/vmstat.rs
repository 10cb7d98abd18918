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

use crate::cells::{block_of, read_u64, u32_of, Cells};
use crate::common::Timestamp;
use crate::common::{
    excerpt, head_lines, numbered_lines, parse_date, parse_time_of_day, strip_bom, Ceiling, Issues,
    NumError, ParseError, Parsed, Sniff,
};
use serde::Serialize;
use std::collections::BTreeMap;

/// A whole `vmstat` output.
///
/// Serialises as `{"samples": [VmstatSample…], "timezone": …}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Vmstat {
    /// Samples in input order; the first one covers the time since boot.
    pub samples: VmstatSamples,
    /// Time zone named in the `-t` column header (`UTC`, `PDT`), when printed.
    pub timezone: Option<String>,
}

/// A column of a vmstat block: a [`VmstatSample`] field (its index in [`FIELDS`]) or another
/// header name (kept in [`VmstatSample::extra`]).
#[derive(Debug, Clone, PartialEq)]
enum Col {
    Field(u8),
    Extra(Box<str>),
}

/// Rows that share one column line.
#[derive(Debug, Clone, PartialEq)]
struct Block {
    /// Index of the block's first row.
    first_row: usize,
    /// Index of its first cell.
    first_cell: usize,
    cols: Box<[Col]>,
}

/// The samples of a [`Vmstat`], stored compactly: the columns once per column line, every
/// value as a 4-byte code ([`crate::cells`]), a sample's time only when printed. Read a
/// sample with [`VmstatSamples::get`] or [`VmstatSamples::iter`], which build a
/// [`VmstatSample`] on the fly. Heap: about 4 bytes per value, 4 per row (its line), 20 per
/// `-t` time, under the ~5 bytes of text each value takes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VmstatSamples {
    blocks: Vec<Block>,
    /// Input line of each row.
    lines: Vec<u32>,
    cells: Cells,
    /// `(row, time)` of the rows with a `-t` time, in row order.
    times: Vec<(u32, Timestamp)>,
}

impl VmstatSamples {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether there is no sample.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Sample `i` (0-based, input order).
    pub fn get(&self, i: usize) -> Option<VmstatSample> {
        let line = *self.lines.get(i)?;
        let b = block_of(&self.blocks, i, |b| b.first_row)?;
        let base = b.first_cell + (i - b.first_row) * b.cols.len();
        let mut s = VmstatSample {
            line: line as usize,
            ..VmstatSample::default()
        };
        for (j, col) in b.cols.iter().enumerate() {
            let Some(v) = self.cells.u64_at(base + j) else {
                continue;
            };
            match col {
                Col::Field(f) => {
                    if let Some(slot) = FIELDS.get(usize::from(*f)).and_then(|n| s.slot(n)) {
                        *slot = Some(v);
                    }
                }
                Col::Extra(name) => {
                    s.extra.insert(name.to_string(), v);
                }
            }
        }
        let i32 = u32_of(i);
        if let Ok(k) = self.times.binary_search_by_key(&i32, |(r, _)| *r) {
            s.time = self.times.get(k).map(|(_, t)| *t);
        }
        Some(s)
    }

    /// The first sample.
    pub fn first(&self) -> Option<VmstatSample> {
        self.get(0)
    }

    /// The last sample.
    pub fn last(&self) -> Option<VmstatSample> {
        self.get(self.len().checked_sub(1)?)
    }

    /// The samples in input order.
    pub fn iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = VmstatSample> + ExactSizeIterator + Clone + '_ {
        (0..self.len()).map(|i| self.get(i).unwrap_or_default())
    }

    /// Appends a sample (its columns become a new block unless they are the last block's).
    pub fn push(&mut self, s: VmstatSample) {
        let mut cols: Vec<Col> = (0..FIELDS.len() as u8).map(Col::Field).collect();
        cols.extend(s.extra.keys().map(|k| Col::Extra(k.as_str().into())));
        let row = self.len();
        if self.blocks.last().is_none_or(|b| *b.cols != *cols) {
            self.blocks.push(Block {
                first_row: row,
                first_cell: self.cells.len(),
                cols: cols.into(),
            });
        }
        let mut probe = s.clone();
        for name in FIELDS {
            self.cells.push_u64(probe.slot(name).and_then(|v| *v));
        }
        for v in s.extra.values() {
            self.cells.push_u64(Some(*v));
        }
        self.lines.push(u32_of(s.line));
        if let Some(t) = s.time {
            self.times.push((u32_of(row), t));
        }
    }

    fn shrink_to_fit(&mut self) {
        self.blocks.shrink_to_fit();
        self.lines.shrink_to_fit();
        self.cells.shrink_to_fit();
        self.times.shrink_to_fit();
    }
}

impl Serialize for VmstatSamples {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.collect_seq(self.iter())
    }
}

/// The column names of the [`VmstatSample`] fields, in field order.
const FIELDS: [&str; 20] = [
    "r", "b", "swpd", "free", "buff", "cache", "inact", "active", "si", "so", "bi", "bo", "in",
    "cs", "us", "sy", "id", "wa", "st", "gu",
];

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
    /// Whether each numeric column is a `cpu` share.
    cpu_share: Vec<bool>,
    /// Whether the samples' block has been opened (at the first row read under it).
    opened: bool,
}

impl Layout<'_> {
    /// The stored columns of the numeric header names.
    fn block_cols(&self, numeric: usize) -> Box<[Col]> {
        self.cols[..numeric]
            .iter()
            .map(|c| match FIELDS.iter().position(|f| f == c) {
                Some(i) => Col::Field(i as u8),
                None => Col::Extra((*c).into()),
            })
            .collect()
    }
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
                    && !FIELDS.contains(&last)
                    && last
                        .bytes()
                        .all(|b| b.is_ascii_alphabetic() || b"+-_/".contains(&b)));
            if timestamp {
                out.timezone = Some(last.to_string());
            }
            layout = Some(Layout {
                cpu_share: toks.iter().map(|c| CPU_SHARES.contains(c)).collect(),
                cols: toks.clone(),
                timestamp,
                line: n,
                opened: false,
            });
            continue;
        }
        let Some(l) = &mut layout else {
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
        let store = &mut out.samples;
        let start = store.cells.len();
        let mut bad = None;
        for ((col, tok), cpu) in l.cols[..numeric].iter().zip(&toks).zip(&l.cpu_share) {
            match read_u64(tok) {
                Some(v) if *cpu && v > 100 => {
                    let e = NumError::Beyond(Ceiling::CpuShare);
                    issues.push(n, || e.message(col, tok));
                    store.cells.push_u64(None);
                }
                Some(v) => store.cells.push_u64(Some(v)),
                None => {
                    bad = Some((*col, *tok));
                    break;
                }
            }
        }
        if let Some((col, tok)) = bad {
            store.cells.truncate(start);
            issues.push(n, || {
                format!(
                    "expected a whole number under `{col}`, found `{}`",
                    excerpt(tok)
                )
            });
            continue;
        }
        let row = store.lines.len();
        if !l.opened {
            l.opened = true;
            store.blocks.push(Block {
                first_row: row,
                first_cell: start,
                cols: l.block_cols(numeric),
            });
        }
        store.lines.push(u32_of(n));
        if l.timestamp {
            let (d, t) = (toks[numeric], toks[numeric + 1]);
            match (parse_date(d), parse_time_of_day(&[t])) {
                (Some(date), Some((secs, _))) => store.times.push((
                    u32_of(row),
                    Timestamp {
                        date: Some(date),
                        seconds_of_day: secs,
                    },
                )),
                _ => {
                    issues.push(n, || {
                        format!("expected a `YYYY-MM-DD HH:MM:SS` timestamp, found `{d} {t}`")
                    });
                }
            }
        }
    }
    if layout.is_none() {
        return Err(ParseError::unusable(
            None,
            "no vmstat column line (`r b swpd free …`) found",
        ));
    }
    // A long listing grows its vectors by doubling: give back what is left over.
    out.samples.shrink_to_fit();
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
