//! Types and helpers shared by every parser: the parse result, per-line issues, content sniffing,
//! locale-tolerant numbers and the sysstat banner, clock and timestamp formats.

use serde::Serialize;

/// A successfully parsed artifact: the typed record plus every problem met on the way.
///
/// An empty `issues` list means the artifact was parsed completely ("parsed"); a non-empty one
/// means some lines were skipped or some values are missing ("partial"), and each issue says
/// which input line and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Parsed<T> {
    /// The typed record.
    pub value: T,
    /// Problems found in the input, in input order.
    pub issues: Vec<LineIssue>,
}

impl<T> Parsed<T> {
    /// A complete parse with no issues.
    pub fn clean(value: T) -> Self {
        Parsed {
            value,
            issues: Vec::new(),
        }
    }
}

/// One problem in the input: the 1-based input line number and what was wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct LineIssue {
    /// 1-based line number in the artifact (0 when the issue concerns the whole input).
    pub line: usize,
    /// What is wrong, in words a user can act on (e.g. "expected 14 columns, found 9").
    pub message: String,
    /// What kind of problem it is. Not in the serialised form, which is `{line, message}`.
    #[serde(skip)]
    pub kind: IssueKind,
}

/// What kind of problem a [`LineIssue`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IssueKind {
    /// A line or value the parser could not read: skipped, or left unset.
    #[default]
    Input,
    /// More issues were found than are listed; this one counts the rest.
    Capped,
    /// Bytes that are not UTF-8, or NUL bytes, were replaced by U+FFFD.
    Encoding,
    /// The collector reported a problem with the command that wrote the artifact: it timed out,
    /// failed, or its output was cut at a size cap.
    Collection,
    /// What the bundle says the artifact is disagrees with it, or is unknown (a manifest kind).
    Kind,
    /// A record of the collector's manifest itself could not be read as written.
    Manifest,
}

impl LineIssue {
    /// An input problem at `line` (1-based; 0 for the whole input).
    pub fn new(line: usize, message: impl Into<String>) -> Self {
        LineIssue::of(IssueKind::Input, line, message)
    }

    /// A problem of `kind` at `line` (1-based; 0 for the whole input).
    pub fn of(kind: IssueKind, line: usize, message: impl Into<String>) -> Self {
        LineIssue {
            line,
            message: message.into(),
            kind,
        }
    }
}

/// The artifact could not be used at all: nothing in it was recognisable as the expected format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
pub enum ParseError {
    /// No usable record could be built. `line` points at the first offending input line when one
    /// can be named.
    #[error("unusable{}: {reason}", line.map(|l| format!(" (line {l})")).unwrap_or_default())]
    Unusable {
        /// 1-based input line where parsing gave up, if any single line is to blame.
        line: Option<usize>,
        /// Why, e.g. "no `Device` header line found".
        reason: String,
    },
}

impl ParseError {
    /// Shorthand for [`ParseError::Unusable`].
    pub fn unusable(line: Option<usize>, reason: impl Into<String>) -> Self {
        ParseError::Unusable {
            line,
            reason: reason.into(),
        }
    }
}

/// A parser's answer to "is this text mine?", given only the first lines of a file.
///
/// Modelled on inferno's collapse guessing: `Yes` is a confident claim from a line no other format
/// prints, `Unsure` means "plausible, but another parser may know better", `No` rules it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Sniff {
    /// Certainly not this format.
    No,
    /// Could be this format.
    Unsure,
    /// Certainly this format.
    Yes,
}

/// Iterates the lines of `text` with 1-based line numbers, with a trailing `\r` removed.
pub fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
}

/// Parses a number as sysstat and procps print it in any locale: `12.58`, `12,58` (decimal comma,
/// e.g. `de_DE`), `-`, or an empty field. Returns `None` for anything else, including `-` and
/// `nan`, so that "not applicable" never becomes 0, and for a number beyond
/// [`Ceiling::Counter`] (about ±1.8e19), which no supported tool prints.
///
/// A parser that reports the value it drops calls [`read_num`] instead. Never allocates: a
/// decimal comma is replaced in a small stack buffer.
pub fn parse_num(s: &str) -> Option<f64> {
    read_num(s, Ceiling::Counter).ok()
}

/// Whether `s` reads as a number at all, whatever its size: tells a row of values from a
/// header row, where a value beyond a [`Ceiling`] is still a value.
pub(crate) fn is_number(s: &str) -> bool {
    parse_unbounded(s).is_some()
}

/// Reads a number as [`parse_num`] does and holds it to `ceiling`: `Err(NotANumber)` for what
/// is no number (`-`, `nan`, text), `Err(Beyond)` for a number no measurement of that kind can
/// reach, which the caller drops with a [`LineIssue`] made by [`NumError::message`].
pub fn read_num(s: &str, ceiling: Ceiling) -> Result<f64, NumError> {
    let v = parse_unbounded(s).ok_or(NumError::NotANumber)?;
    ceiling.check(v)
}

/// A finite number in any of the locales [`parse_num`] reads, of any size.
fn parse_unbounded(s: &str) -> Option<f64> {
    let s = s.trim();
    if s.is_empty() || s == "-" {
        return None;
    }
    if let Some(v) = fixed_point(s.as_bytes()) {
        return Some(v);
    }
    let v = if s.contains(',') && !s.contains('.') {
        // A number as sysstat prints it is short; anything longer is not a number.
        let mut buf = [0u8; 64];
        let bytes = s.as_bytes();
        let dst = buf.get_mut(..bytes.len())?;
        dst.copy_from_slice(bytes);
        if let Some(c) = dst.iter_mut().find(|b| **b == b',') {
            *c = b'.';
        }
        std::str::from_utf8(dst).ok()?.parse::<f64>().ok()?
    } else {
        s.parse::<f64>().ok()?
    };
    v.is_finite().then_some(v)
}

/// `u64::MAX` as a float (18 446 744 073 709 551 615 ≈ 1.8e19).
pub const U64_MAX_F64: f64 = u64::MAX as f64;

/// The physical ceiling of a quantity read from a tool's output: a number beyond it cannot be a
/// measurement (a corrupted file, a counter glitch, a hostile bundle) and is dropped at parse
/// time, reported as a [`LineIssue`] on its input line, so that no fact, rule, comparison or
/// chart ever holds it.
///
/// Only ceilings that follow from how the number is made are used; where a tool can print more
/// than its definition suggests, the looser bound applies (see the variants).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ceiling {
    /// Counts, sizes, durations, rates and averages: magnitude at most `u64::MAX` ≈ 1.8e19.
    ///
    /// The kernel keeps its event counters, sizes and times as 64-bit or narrower unsigned
    /// integers (`/proc/diskstats` fields are `unsigned long`, Documentation/admin-guide/
    /// iostats.rst; `/proc/net/dev` and interface statistics are `u64`, `struct
    /// rtnl_link_stats64`, Documentation/networking/statistics.rst; `/proc/stat` times are
    /// `u64` ticks, Documentation/filesystems/proc.rst). sysstat prints a rate as the delta of
    /// such a counter over an interval of at least one second (`interval` is in whole seconds,
    /// sar(1), iostat(1)) and an average (`await`, `areq-sz`, `aqu-sz`) as a delta over a count
    /// of at least one or over that interval, so neither exceeds the counter's range; the JVM's
    /// `jstat` sizes and times are 64-bit too. The bound is applied to the number as printed,
    /// before any unit scaling. Also the bound of every number [`parse_num`] returns.
    Counter,
    /// A share of CPU time in %: from 0 to 100.
    ///
    /// mpstat(1), sar(1) `-u`/`-P`, iostat(1) `avg-cpu` and vmstat(8) `us sy id wa st` print
    /// the time a CPU (or all CPUs, averaged) spent in each state as a percentage of the
    /// interval's ticks of that CPU; sysstat computes each as one state's tick delta over the
    /// sum of all states' deltas (`ll_sp_value`, `get_per_cpu_interval` in sysstat's
    /// `rd_stats.c`/`common.c`), so no column can exceed 100 or fall below 0. Counter glitches
    /// have made `sar` and `mpstat` print values like `%iowait` 107562416.60 (sysstat issue
    /// #14); such values are dropped. Not for device `%util` (iostat(1): time with I/O in flight against the
    /// interval, two clocks; values over 100 are printed on some kernels, sysstat issue #412)
    /// nor a process's `%CPU` (pidstat(1), top(1): up to 100 × the number of CPUs), which are
    /// [`Ceiling::Counter`].
    CpuShare,
}

impl Ceiling {
    /// `v` when it is within the ceiling, else [`NumError::Beyond`].
    pub fn check(self, v: f64) -> Result<f64, NumError> {
        let ok = match self {
            Ceiling::Counter => v.abs() <= U64_MAX_F64,
            Ceiling::CpuShare => (0.0..=100.0).contains(&v),
        };
        if ok {
            Ok(v)
        } else {
            Err(NumError::Beyond(self))
        }
    }

    /// The bound in words, for an issue message.
    pub fn describe(self) -> &'static str {
        match self {
            Ceiling::Counter => {
                "beyond ±1.8e19 (u64::MAX), more than any kernel counter, size or rate can hold"
            }
            Ceiling::CpuShare => "outside 0–100, the range of a share of CPU time",
        }
    }
}

/// Why a token was not taken as a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumError {
    /// Not a number at all (`-`, `nan`, a word, an empty field).
    NotANumber,
    /// A number beyond the [`Ceiling`] of its column.
    Beyond(Ceiling),
}

impl NumError {
    /// The issue text for `tok` printed under `column`: for [`NumError::Beyond`], that the value
    /// is dropped and why; for [`NumError::NotANumber`], that a number was expected.
    pub fn message(self, column: &str, tok: &str) -> String {
        match self {
            NumError::NotANumber => {
                format!(
                    "expected a number under `{column}`, found `{}`",
                    excerpt(tok)
                )
            }
            NumError::Beyond(c) => format!(
                "`{column}` value `{}` dropped: {}",
                excerpt(tok),
                c.describe()
            ),
        }
    }
}

/// Fast path for the fixed-point numbers sysstat and procps print (`12.58`, `-3,5`, `1024`):
/// optional sign, at most 15 digits, one `.` or `,`. The digits form an exact integer and the
/// division by a power of ten is correctly rounded, so the result equals `str::parse`'s.
/// `None` for anything else (exponents, `nan`, long digit strings), which the caller parses
/// the slow way.
fn fixed_point(b: &[u8]) -> Option<f64> {
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    let (neg, digits) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() || digits.len() > 16 {
        return None;
    }
    let mut int: u64 = 0;
    let mut n = 0usize;
    let mut frac: Option<usize> = None;
    for &c in digits {
        match c {
            b'0'..=b'9' => {
                int = int * 10 + u64::from(c - b'0');
                n += 1;
            }
            b'.' | b',' if frac.is_none() => frac = Some(n),
            _ => return None,
        }
    }
    if n == 0 || n > 15 {
        return None;
    }
    let scale = n - frac.unwrap_or(n);
    let v = int as f64 / POW10[scale];
    Some(if neg { -v } else { v })
}

/// A calendar date as printed in a sysstat banner or `-t` timestamp line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Date {
    /// Four-digit year (two-digit years are read as 20YY).
    pub year: i32,
    /// 1–12.
    pub month: u32,
    /// 1–31.
    pub day: u32,
}

impl Date {
    /// Days since 1970-01-01 (proleptic Gregorian), for computing intervals across midnight.
    pub fn days_since_epoch(self) -> i64 {
        let (y, m, d) = (self.year as i64, self.month as i64, self.day as i64);
        let y = if m <= 2 { y - 1 } else { y };
        let era = if y >= 0 { y } else { y - 399 } / 400;
        let yoe = y - era * 400;
        let mp = (m + 9) % 12;
        let doy = (153 * mp + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// The date `days` days after 1970-01-01 (inverse of [`Date::days_since_epoch`]).
    pub fn from_days_since_epoch(days: i64) -> Date {
        // Clamp to ±1 million years so that the arithmetic below cannot overflow.
        let z = days.clamp(-365_000_000, 365_000_000) + 719_468;
        let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        Date {
            year: year as i32,
            month: month as u32,
            day: day as u32,
        }
    }

    /// The date `n` days later (earlier when negative).
    pub fn add_days(self, n: i64) -> Date {
        Date::from_days_since_epoch(self.days_since_epoch().saturating_add(n))
    }
}

/// Parses the date forms sysstat prints: `06/01/20` and `03/11/2022` (C and en_US locales,
/// month first), `2020-06-01` (`S_TIME_FORMAT=ISO`, and sysstat ≥ 11 JSON), and `01.06.2020`
/// (day first, as `%x` prints it in de_DE and most European locales). Returns `None` otherwise.
pub fn parse_date(s: &str) -> Option<Date> {
    let s = s.trim();
    let (year, month, day) = if let Some((y, rest)) = s.split_once('-') {
        let (m, d) = rest.split_once('-')?;
        let d = d.get(..2).unwrap_or(d);
        (
            y.parse::<i32>().ok()?,
            m.parse::<u32>().ok()?,
            d.parse::<u32>().ok()?,
        )
    } else {
        let (sep, day_first) = if s.contains('.') {
            ('.', true)
        } else {
            ('/', false)
        };
        let mut it = s.split(sep);
        let a = it.next()?.parse::<u32>().ok()?;
        let b = it.next()?.parse::<u32>().ok()?;
        let y = it.next()?;
        if it.next().is_some() || !(y.len() == 2 || y.len() == 4) {
            return None;
        }
        let mut y = y.parse::<i32>().ok()?;
        if (0..100).contains(&y) {
            y += 2000;
        }
        if day_first {
            (y, b, a)
        } else {
            (y, a, b)
        }
    };
    ((1..=12).contains(&month) && (1..=31).contains(&day) && year > 1900 && year < 10_000)
        .then_some(Date { year, month, day })
}

/// Parses a time of day at the start of `tokens`: `12:53:21` (24-hour) or `03:15:06 PM`
/// (12-hour, as printed under an en_US locale). Returns seconds since midnight and how many
/// tokens were used (1 or 2).
pub fn parse_time_of_day(tokens: &[&str]) -> Option<(u32, usize)> {
    let t = *tokens.first()?;
    let mut parts = t.split(':');
    let h = parse_clock_field(parts.next()?)?;
    let m = parse_clock_field(parts.next()?)?;
    let s = match parts.next() {
        Some(s) => parse_clock_field(s.split(['.', ',']).next().unwrap_or(s))?,
        None => 0,
    };
    if parts.next().is_some() || h > 23 || m > 59 || s > 60 {
        return None;
    }
    let ap = tokens.get(1).copied().unwrap_or("");
    let pm = ap.eq_ignore_ascii_case("PM");
    if pm || ap.eq_ignore_ascii_case("AM") {
        if !(1..=12).contains(&h) {
            return None;
        }
        let h24 = (h % 12) + if pm { 12 } else { 0 };
        Some((h24 * 3600 + m * 60 + s, 2))
    } else {
        Some((h * 3600 + m * 60 + s, 1))
    }
}

/// A sysstat timestamp: optional date plus time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Timestamp {
    /// Calendar date, when printed.
    pub date: Option<Date>,
    /// Seconds since local midnight, 0–86400.
    pub seconds_of_day: u32,
}

/// Parses a `-t` timestamp line: `06/01/20 12:53:20`, `03/11/2022 03:15:06 PM`,
/// `01.06.2020 12:53:20`, or ISO `2020-06-01T12:53:20+0000` (one token). All tokens must be
/// used.
pub(crate) fn parse_timestamp(toks: &[&str]) -> Option<Timestamp> {
    match toks {
        [iso] => {
            let (d, t) = iso.split_once('T')?;
            if d.len() != 10 {
                return None;
            }
            let date = parse_date(d)?;
            let t = t.split(['+', '-', 'Z']).next().unwrap_or(t);
            let (seconds_of_day, _) = parse_time_of_day(&[t])?;
            Some(Timestamp {
                date: Some(date),
                seconds_of_day,
            })
        }
        [d, rest @ ..] if rest.len() <= 2 => {
            let date = parse_date(d)?;
            let (seconds_of_day, used) = parse_time_of_day(rest)?;
            (used == rest.len()).then_some(Timestamp {
                date: Some(date),
                seconds_of_day,
            })
        }
        _ => None,
    }
}

/// A JSON `timestamp` string: a full timestamp, or a time of day only (mpstat), in which case
/// `date` is used.
pub(crate) fn parse_timestamp_str(s: &str, date: Option<Date>) -> Option<Timestamp> {
    let mut toks = [""; 4];
    let mut n = 0;
    for t in s.split_ascii_whitespace() {
        *toks.get_mut(n)? = t;
        n += 1;
    }
    let toks = &toks[..n];
    if let Some(ts) = parse_timestamp(toks) {
        return Some(ts);
    }
    let (seconds_of_day, used) = parse_time_of_day(toks)?;
    (used == toks.len()).then_some(Timestamp {
        date,
        seconds_of_day,
    })
}

/// One or two ASCII digits of a clock (`7`, `07`).
fn parse_clock_field(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 2 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// The banner line every sysstat tool prints first (fields separated by tabs):
/// `Linux 5.15.0-91-generic (host1)    06/01/20    _x86_64_    (9 CPU)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SysstatHeader {
    /// Kernel name, `Linux`.
    pub sysname: String,
    /// Kernel release, e.g. `5.15.0-91-generic`.
    pub release: String,
    /// Host name from the parentheses.
    pub nodename: String,
    /// Date of the report, when it could be read.
    pub date: Option<Date>,
    /// Architecture without underscores, e.g. `x86_64`, `aarch64`.
    pub machine: Option<String>,
    /// Number of CPUs the tool saw (`(9 CPU)`).
    pub cpus: Option<u32>,
    /// 1-based line number of the banner.
    pub line: usize,
}

/// Parses a sysstat banner line (see [`SysstatHeader`]); `None` if `line` is not one.
pub fn parse_sysstat_header(line: &str, line_no: usize) -> Option<SysstatHeader> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    if toks.len() < 3 || toks[0] != "Linux" {
        return None;
    }
    let open = toks.iter().position(|t| t.starts_with('('))?;
    if open < 2 {
        return None;
    }
    let close = (open..toks.len()).find(|&i| toks[i].ends_with(')'))?;
    let nodename = toks[open..=close].join(" ");
    let nodename = nodename
        .trim_start_matches('(')
        .trim_end_matches(')')
        .to_string();
    let rest = &toks[close + 1..];
    let date = rest.iter().find_map(|t| parse_date(t));
    let machine = rest
        .iter()
        .find(|t| t.starts_with('_') && t.ends_with('_') && t.len() > 2)
        .map(|t| t.trim_matches('_').to_string());
    let cpus = rest
        .windows(2)
        .find(|w| w[0].starts_with('(') && w[1].starts_with("CPU"))
        .and_then(|w| w[0].trim_start_matches('(').parse().ok());
    Some(SysstatHeader {
        sysname: toks[0].to_string(),
        release: toks[1..open].join(" "),
        nodename,
        date,
        machine,
        cpus,
        line: line_no,
    })
}

/// At most this many issues are kept per parse; the rest are counted in one final issue, so that
/// a huge garbage input cannot turn into millions of messages.
pub(crate) const MAX_ISSUES: usize = 1000;

/// Collects [`LineIssue`]s, keeping the first [`MAX_ISSUES`].
#[derive(Debug, Default)]
pub(crate) struct Issues {
    list: Vec<LineIssue>,
    dropped: usize,
}

impl Issues {
    /// Records an issue; the message is only built when it is kept.
    pub(crate) fn push(&mut self, line: usize, message: impl FnOnce() -> String) {
        if self.list.len() < MAX_ISSUES {
            self.list.push(LineIssue::new(line, message()));
        } else {
            self.dropped += 1;
        }
    }

    /// The kept issues, plus one summary issue (line 0) when some were dropped.
    pub(crate) fn into_vec(mut self) -> Vec<LineIssue> {
        if self.dropped > 0 {
            self.list.push(LineIssue::of(
                IssueKind::Capped,
                0,
                format!(
                    "{} more issues not listed (only the first {MAX_ISSUES} are kept)",
                    self.dropped
                ),
            ));
        }
        self.list
    }
}

/// The start of an input line for an issue message: at most 60 characters, cut on a character
/// boundary, with `…` when cut.
pub(crate) fn excerpt(line: &str) -> String {
    const MAX: usize = 60;
    let line = line.trim();
    match line
        .char_indices()
        .nth(MAX)
        .and_then(|(i, _)| line.get(..i))
    {
        Some(head) => format!("{head}…"),
        None => line.to_string(),
    }
}

/// `s` without its last character, and that character: `"12G"` → `("12", 'G')` (a unit
/// suffix split off without byte arithmetic).
pub(crate) fn split_last(s: &str) -> Option<(&str, char)> {
    let c = s.chars().next_back()?;
    Some((s.strip_suffix(c)?, c))
}

/// How many lines of a sniff head are looked at.
pub(crate) const SNIFF_LINES: usize = 30;

/// The first [`SNIFF_LINES`] lines of a sniff head, each with whether it is complete: the head is
/// a prefix of the file and its last line may be cut anywhere. A leading byte-order mark and
/// trailing `\r` are removed.
pub(crate) fn head_lines(head: &str) -> impl Iterator<Item = (&str, bool)> {
    let head = strip_bom(head);
    head.split_inclusive('\n')
        .take(SNIFF_LINES)
        .map(|l| match l.strip_suffix('\n') {
            Some(l) => (l.strip_suffix('\r').unwrap_or(l), true),
            None => (l, false),
        })
}

/// `text` without a leading UTF-8 byte-order mark.
pub(crate) fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The first non-whitespace byte of `text` (after a byte-order mark), if any.
pub(crate) fn first_non_blank(text: &str) -> Option<u8> {
    strip_bom(text).bytes().find(|b| !b.is_ascii_whitespace())
}

/// A short text value that repeats across the rows of one artifact (a command name, a socket
/// state, a process name): shared, so a million rows naming `java` hold one copy of `java`.
///
/// Reads as a `&str` (`Deref`, `as_str`, comparisons with `&str` and `String`) and serialises
/// as a plain string. Made by a [`Names`] table during one parse.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name(std::sync::Arc<str>);

impl Name {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&*self.0, f)
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Self {
        Name(s.into())
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        **self == *other.0
    }
}

impl Serialize for Name {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

/// The [`Name`]s of one parse: the same text gives the same shared value. Hashed with aHash
/// (randomly keyed per table, several times faster than SipHash on short names).
#[derive(Debug, Default)]
pub(crate) struct Names {
    table: std::collections::HashSet<Name, ahash::RandomState>,
}

impl Names {
    /// The shared value for `s`.
    pub(crate) fn get(&mut self, s: &str) -> Name {
        if let Some(n) = self.table.get(s) {
            return n.clone();
        }
        let n = Name::from(s);
        self.table.insert(n.clone());
        n
    }
}

/// Longest name or value a parser copies out of an input into a summary, in characters.
pub const CLIP_CHARS: usize = 256;

/// `s` cut to [`CLIP_CHARS`] characters (with `…`): a single value from an untrusted input (a
/// symbol, a version string, a class name) must not carry megabytes into a report.
pub fn clip(s: &str) -> String {
    if s.len() <= CLIP_CHARS {
        return s.to_string();
    }
    let mut out: String = s.chars().take(CLIP_CHARS).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_point_matches_the_standard_parser() {
        for s in [
            "12.58",
            "0.00",
            "100.00",
            "-3.25",
            "1024",
            "99999.99",
            "0.1",
            "123456789.123456",
            "7.",
        ] {
            assert_eq!(fixed_point(s.as_bytes()), s.parse::<f64>().ok(), "{s}");
        }
        assert_eq!(fixed_point(b"1,5"), Some(1.5));
        assert_eq!(fixed_point(b"1.2.3"), None);
        assert_eq!(fixed_point(b"1e5"), None);
        assert_eq!(fixed_point(b"."), None);
        assert_eq!(fixed_point(b"12345678901234567"), None);
    }

    #[test]
    fn numbers_in_any_locale() {
        assert_eq!(parse_num("12.58"), Some(12.58));
        assert_eq!(parse_num("12,58"), Some(12.58));
        assert_eq!(parse_num("-"), None);
        assert_eq!(parse_num("nan"), None);
        assert_eq!(parse_num("abc"), None);
        assert_eq!(parse_num("1,234,5"), None);
        assert_eq!(parse_num(&"1".repeat(100).replace('1', "1,")), None);
        assert_eq!(parse_num("inf"), None);
        assert_eq!(parse_num("1e400"), None);
    }

    #[test]
    fn numbers_beyond_their_ceiling_are_refused() {
        assert_eq!(parse_num("18446744073709551615"), Some(U64_MAX_F64));
        assert_eq!(parse_num("-9223372036854775808"), Some(i64::MIN as f64));
        for huge in ["1.7e308", "1e20", "-1e20", "36893488147419103232"] {
            assert_eq!(parse_num(huge), None, "{huge}");
            assert_eq!(
                read_num(huge, Ceiling::Counter),
                Err(NumError::Beyond(Ceiling::Counter))
            );
            assert!(is_number(huge));
        }
        assert_eq!(read_num("100.00", Ceiling::CpuShare), Ok(100.0));
        assert_eq!(read_num("-0.00", Ceiling::CpuShare), Ok(-0.0));
        assert_eq!(read_num("0,00", Ceiling::CpuShare), Ok(0.0));
        for bad in ["100.01", "107562416.60", "-0.01", "1.7e308"] {
            assert_eq!(
                read_num(bad, Ceiling::CpuShare),
                Err(NumError::Beyond(Ceiling::CpuShare)),
                "{bad}"
            );
        }
        assert_eq!(read_num("-", Ceiling::CpuShare), Err(NumError::NotANumber));
        assert_eq!(read_num("nan", Ceiling::Counter), Err(NumError::NotANumber));
        assert!(!is_number("%util"));
        let m = NumError::Beyond(Ceiling::Counter).message("aqu-sz", "1.7e308");
        assert!(
            m.contains("`aqu-sz`") && m.contains("1.7e308") && m.contains("dropped"),
            "{m}"
        );
    }

    #[test]
    fn clocks_12_and_24_hour() {
        assert_eq!(parse_time_of_day(&["12:53:21"]), Some((46401, 1)));
        assert_eq!(
            parse_time_of_day(&["03:15:06", "PM", "all"]),
            Some((15 * 3600 + 15 * 60 + 6, 2))
        );
        assert_eq!(parse_time_of_day(&["12:00:00", "AM"]), Some((0, 2)));
        assert_eq!(parse_time_of_day(&["Average:"]), None);
    }

    #[test]
    fn dates() {
        assert_eq!(
            parse_date("06/01/20"),
            Some(Date {
                year: 2020,
                month: 6,
                day: 1
            })
        );
        assert_eq!(
            parse_date("2022-03-11"),
            Some(Date {
                year: 2022,
                month: 3,
                day: 11
            })
        );
        // Day first with dots, as `%x` prints it in de_DE.
        assert_eq!(
            parse_date("01.06.2020"),
            Some(Date {
                year: 2020,
                month: 6,
                day: 1
            })
        );
        assert_eq!(parse_date("1.2.3"), None, "a version number is not a date");
        assert_eq!(parse_date("13/01/20"), None);
        assert_eq!(
            Date {
                year: 1970,
                month: 1,
                day: 2
            }
            .days_since_epoch(),
            1
        );
        for days in [-800_000, -1, 0, 59, 11_016, 11_017, 18_414, 2_932_896] {
            assert_eq!(Date::from_days_since_epoch(days).days_since_epoch(), days);
        }
        assert_eq!(
            Date {
                year: 2000,
                month: 3,
                day: 1
            }
            .days_since_epoch(),
            11017
        );
    }

    #[test]
    fn sysstat_banner() {
        let h = parse_sysstat_header(
            "Linux 1.2.3-TEST (SYSSTAT.TEST) \t06/01/20 \t_x86_64_\t(9 CPU)",
            1,
        )
        .unwrap();
        assert_eq!(h.release, "1.2.3-TEST");
        assert_eq!(h.nodename, "SYSSTAT.TEST");
        assert_eq!(h.machine.as_deref(), Some("x86_64"));
        assert_eq!(h.cpus, Some(9));
        assert_eq!(
            h.date,
            Some(Date {
                year: 2020,
                month: 6,
                day: 1
            })
        );
    }
}
