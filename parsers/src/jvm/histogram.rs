//! Java heap class histograms: `jmap -histo[:live] PID` and `jcmd PID GC.class_histogram`, from
//! JDK 8 (`class name` column only) and JDK 9+ (a trailing `(module)` such as
//! `(java.base@11.0.20)` on classes loaded by a named module).
//!
//! jcmd prints the target's PID alone on the first line (`24267:`); the column header and a
//! `-----` rule follow, then one row per class, ranked by bytes, and a `Total` line (absent when
//! the output was cut, e.g. by `| head`). Class names are JVM names: arrays `[B`,
//! `[Ljava.lang.Object;`, inner classes `java.util.HashMap$Node`, hidden classes
//! `…$$Lambda$14/0x0000000800c0c400`.
//!
//! The same rows printed into a GC log (JDK 8 `-XX:+PrintClassHistogramBeforeFullGC`, JDK 9+
//! `-Xlog:gc+classhisto=trace`) are read line by line by this module's `Block` on behalf of
//! [`crate::jvm::gclog`], which carries them in its record.
//!
//! Units: `instances` objects; `bytes` bytes of shallow size (the objects themselves, not what
//! they reference).
//!
//! Sample input (OpenJDK 17.0.15, `jmap -histo PID`):
//! ```text
//!  num     #instances         #bytes  class name (module)
//! -------------------------------------------------------
//!    1:         77006       34650704  [B (java.base@17.0.15)
//!    6:         32091         513456  Alloc$Node
//! Total        134097       19281520
//! ```

use crate::common::{excerpt, head_lines, numbered_lines, strip_bom, Issues};
use crate::common::{ParseError, Parsed, Sniff};
use serde::Serialize;

/// A whole class histogram.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Histogram {
    /// PID from jcmd's first line (`24267:`), when printed.
    pub pid: Option<u32>,
    /// 1-based input line of the ` num #instances #bytes class name` header, when present.
    pub header_line: Option<usize>,
    /// Whether the header names a `(module)` column (JDK 9+).
    pub has_module_column: bool,
    /// Rows in input order (rank order as printed).
    pub rows: Vec<ClassRow>,
    /// The `Total` line, when present.
    pub total: Option<HistogramTotal>,
}

/// One histogram row.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ClassRow {
    /// 1-based input line.
    pub line: usize,
    /// `num`: rank as printed (1 = most bytes).
    pub rank: u64,
    /// `#instances`: live (or, without `:live`, not yet collected) objects of the class.
    pub instances: u64,
    /// `#bytes`: their total shallow size, bytes.
    pub bytes: u64,
    /// JVM class name, e.g. `[B`, `java.util.HashMap$Node`.
    pub class_name: String,
    /// Module and version without the parentheses, e.g. `java.base@17.0.15` (JDK 9+, classes in
    /// named modules only).
    pub module: Option<String>,
}

/// The `Total` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct HistogramTotal {
    /// Total objects.
    pub instances: u64,
    /// Total shallow size, bytes.
    pub bytes: u64,
    /// 1-based input line.
    pub line: usize,
}

impl Histogram {
    /// The `n` rows with the most bytes, largest first (ties in input order).
    pub fn top_by_bytes(&self, n: usize) -> Vec<&ClassRow> {
        let mut v: Vec<&ClassRow> = self.rows.iter().collect();
        v.sort_by_key(|r| std::cmp::Reverse(r.bytes));
        v.truncate(n);
        v
    }

    /// The fraction (0.0–1.0) of the `Total` bytes that `row` holds; `None` without a `Total`
    /// line or when it is 0.
    pub fn share_of_total(&self, row: &ClassRow) -> Option<f64> {
        let t = self.total?;
        (t.bytes > 0).then(|| row.bytes as f64 / t.bytes as f64)
    }
}

/// The column header line: ` num     #instances         #bytes  class name[ (module)]`.
fn is_header(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("num") && t.contains("#instances") && t.contains("#bytes")
}

/// Class histogram?
///
/// `Yes` on the column header (`num #instances #bytes class name`); `No` otherwise (rows alone
/// look like `/proc/interrupts` lines).
pub fn sniff(head: &str) -> Sniff {
    for (line, complete) in head_lines(head) {
        if complete && is_header(line) {
            return Sniff::Yes;
        }
    }
    Sniff::No
}

/// Splits off the first whitespace-delimited token of `s`; returns it and the rest.
fn token(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start();
    if s.is_empty() {
        return None;
    }
    let end = s.find(|c: char| c.is_ascii_whitespace()).unwrap_or(s.len());
    s.split_at_checked(end)
}

fn whole(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Reads `   1:         77006       34650704  [B (java.base@17.0.15)`.
fn parse_row(line: &str, n: usize) -> Result<ClassRow, String> {
    let (rank, rest) = token(line).ok_or("expected a row")?;
    let rank = rank
        .strip_suffix(':')
        .and_then(whole)
        .ok_or_else(|| format!("expected a rank like `1:`, found `{}`", excerpt(rank)))?;
    let (inst, rest) = token(rest).ok_or("expected `#instances` after the rank")?;
    let instances =
        whole(inst).ok_or_else(|| format!("expected a count of instances, found `{inst}`"))?;
    let (bytes, rest) = token(rest).ok_or("expected `#bytes` after the instances")?;
    let bytes = whole(bytes).ok_or_else(|| format!("expected a byte count, found `{bytes}`"))?;
    let name = rest.trim();
    if name.is_empty() {
        return Err("expected a class name after the byte count".into());
    }
    let (class_name, module) = match name.rsplit_once(" (") {
        Some((c, m)) if m.ends_with(')') && !c.trim().is_empty() => (
            c.trim().to_string(),
            Some(m.trim_end_matches(')').to_string()),
        ),
        _ => (name.to_string(), None),
    };
    Ok(ClassRow {
        line: n,
        rank,
        instances,
        bytes,
        class_name,
        module,
    })
}

/// Parses a class histogram.
///
/// Errors: [`ParseError::Unusable`] when neither a header nor any row is found. Lines that are
/// neither rows, the rule, the PID line nor the `Total` line become issues.
pub fn parse(text: &str) -> Result<Parsed<Histogram>, ParseError> {
    let mut out = Histogram::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if is_header(line) {
            out.header_line = Some(n);
            out.has_module_column = t.contains("(module)");
            continue;
        }
        if out.header_line.is_none() && out.rows.is_empty() && out.pid.is_none() {
            if let Some(pid) = pid_line(t) {
                out.pid = Some(pid);
                continue;
            }
        }
        match part(line, n) {
            Some(Part::Rule) => {}
            Some(Part::Total(Ok(total))) => out.total = Some(total),
            Some(Part::Row(Ok(r))) => out.rows.push(r),
            Some(Part::Total(Err(e)) | Part::Row(Err(e))) => issues.push(n, || e),
            None => {
                let e = parse_row(line, n).err().unwrap_or_default();
                issues.push(n, || format!("{e}: `{}`", excerpt(line)));
            }
        }
    }
    if out.header_line.is_none() && out.rows.is_empty() {
        return Err(ParseError::unusable(
            None,
            "no class histogram header (`num #instances #bytes class name`) or row found",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// jcmd's first line: the target's PID alone, `24267:`.
fn pid_line(t: &str) -> Option<u32> {
    t.strip_suffix(':').and_then(|p| p.parse::<u32>().ok())
}

/// A line of a histogram after its header.
enum Part {
    /// The `-----` rule under the header.
    Rule,
    /// The `Total` line, or why it could not be read.
    Total(Result<HistogramTotal, String>),
    /// A class row, or why a line shaped like one (`  12:` first) could not be read.
    Row(Result<ClassRow, String>),
}

/// What `line` (input line `n`) is in a histogram; `None` when it is no part of one.
fn part(line: &str, n: usize) -> Option<Part> {
    let t = line.trim();
    if !t.is_empty() && t.bytes().all(|b| b == b'-') {
        return Some(Part::Rule);
    }
    if let Some(rest) = t.strip_prefix("Total") {
        let mut it = rest.split_ascii_whitespace();
        return Some(Part::Total(
            match (
                it.next().and_then(whole),
                it.next().and_then(whole),
                it.next(),
            ) {
                (Some(instances), Some(bytes), None) => Ok(HistogramTotal {
                    instances,
                    bytes,
                    line: n,
                }),
                _ => Err(format!(
                    "expected `Total <instances> <bytes>`, found `{}`",
                    excerpt(line)
                )),
            },
        ));
    }
    match parse_row(line, n) {
        Ok(r) => Some(Part::Row(Ok(r))),
        Err(e) => {
            let rank = token(t)
                .and_then(|(r, _)| r.strip_suffix(':'))
                .and_then(whole);
            rank.map(|_| Part::Row(Err(format!("{e}: `{}`", excerpt(line)))))
        }
    }
}

/// A histogram read line by line, for one embedded in another artifact: a JDK 8 GC log's
/// `-XX:+PrintClassHistogramBeforeFullGC` block, a JDK 9+ `-Xlog:gc+classhisto=trace` block
/// (given the message text after the decorators), or a `jcmd GC.class_histogram` output
/// appended to a log.
///
/// The block starts at its column header ([`Block::starts`]) or at jcmd's PID line just before
/// it, and ends after its `Total` line or before the first line that is no part of a histogram
/// (the caller reads that line itself). Row numbers are the host artifact's input lines.
#[derive(Debug, Default)]
pub(crate) struct Block {
    value: Histogram,
}

/// What [`Block::feed`] did with a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fed {
    /// The line belongs to the histogram; more may follow.
    Taken,
    /// The line was the `Total` line: the histogram is complete.
    Complete,
    /// The line is no part of the histogram: it ended before it.
    Foreign,
}

impl Block {
    /// Whether `line` is a histogram's column header (` num #instances #bytes class name`).
    pub(crate) fn starts(line: &str) -> bool {
        is_header(line)
    }

    /// Whether `line` is jcmd's PID line (`24267:`), which precedes its histogram's header.
    pub(crate) fn pid(line: &str) -> Option<u32> {
        pid_line(line.trim())
    }

    /// A block whose header is preceded by jcmd's PID line.
    pub(crate) fn with_pid(pid: Option<u32>) -> Block {
        Block {
            value: Histogram {
                pid,
                ..Histogram::default()
            },
        }
    }

    /// Reads input line `n`; a line shaped like a row that does not read (a cut line) is an
    /// issue and still belongs to the histogram.
    pub(crate) fn feed(&mut self, n: usize, line: &str, issues: &mut Issues) -> Fed {
        let h = &mut self.value;
        if is_header(line) {
            if h.header_line.is_some() || !h.rows.is_empty() {
                return Fed::Foreign;
            }
            h.header_line = Some(n);
            h.has_module_column = line.contains("(module)");
            return Fed::Taken;
        }
        match part(line, n) {
            Some(Part::Rule) => Fed::Taken,
            Some(Part::Row(Ok(r))) => {
                h.rows.push(r);
                Fed::Taken
            }
            Some(Part::Row(Err(e))) => {
                issues.push(n, || e);
                Fed::Taken
            }
            Some(Part::Total(t)) => {
                match t {
                    Ok(t) => h.total = Some(t),
                    Err(e) => issues.push(n, || e),
                }
                Fed::Complete
            }
            None => Fed::Foreign,
        }
    }

    /// The histogram read so far.
    pub(crate) fn finish(self) -> Histogram {
        self.value
    }
}
