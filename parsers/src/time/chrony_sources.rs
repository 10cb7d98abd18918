//! `chronyc sources`: the time sources chrony polls.
//!
//! chrony 2.x–4.x, optionally after the `-v` legend; chrony 2/3 print `210 Number of sources
//! = N` first:
//! ```text
//! MS Name/IP address         Stratum Poll Reach LastRx Last sample
//! ===============================================================================
//! ^* 10.64.108.95                  2  10   377   371    -91us[ -128us] +/-   30ms
//! ```
//! `Last sample` is the adjusted offset, the measured offset in brackets and the estimated
//! error; offsets carry `ns`, `us`, `ms` or `s`, and are stored in seconds.

use super::{age_seconds, duration_seconds};
use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One row of `chronyc sources`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Source {
    /// Mode: `^` server, `=` peer, `#` local reference clock.
    pub mode: char,
    /// State: `*` selected, `+` combined, `-` not combined, `?` unusable, `x` may be in error,
    /// `~` too variable.
    pub state: char,
    /// Name or address (`10.64.108.95`, `GPS0`).
    pub name: String,
    /// Stratum.
    pub stratum: u32,
    /// Polling interval as log2 seconds (may be negative).
    pub poll: i32,
    /// Reachability register as printed, octal (`377`).
    pub reach: String,
    /// `LastRx` as printed (`371`, `35m`, `-`).
    pub last_rx: String,
    /// `LastRx` in seconds; `None` for `-`.
    pub last_rx_s: Option<u64>,
    /// Adjusted offset (before the brackets), seconds.
    pub offset_s: Option<f64>,
    /// Measured offset (in the brackets), seconds.
    pub measured_offset_s: Option<f64>,
    /// Estimated error (after `+/-`), seconds.
    pub error_s: Option<f64>,
    /// 1-based input line.
    pub line: usize,
}

/// Parsed `chronyc sources`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Sources {
    /// `210 Number of sources = N` (chrony 2/3), when printed.
    pub declared: Option<u32>,
    /// Rows in input order.
    pub sources: Vec<Source>,
}

impl Sources {
    /// The selected source (`*`).
    pub fn selected(&self) -> Option<&Source> {
        self.sources.iter().find(|s| s.state == '*')
    }
}

fn is_sources_header(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("MS Name/IP address") && t.contains("Stratum")
}

/// One chronyc sources row.
fn source_row(line: &str, n: usize) -> Result<Source, String> {
    let expected = "expected `MS Name Stratum Poll Reach LastRx Last sample`";
    let mut chars = line.chars();
    let (Some(mode), Some(state)) = (chars.next(), chars.next()) else {
        return Err(format!("{expected}, found `{}`", excerpt(line)));
    };
    if !"^=#".contains(mode) || !"*+-?x~ ".contains(state) {
        return Err(format!(
            "{expected}: `{}` is not a mode and state",
            excerpt(&line[..mode.len_utf8() + state.len_utf8()])
        ));
    }
    let rest = &line[mode.len_utf8() + state.len_utf8()..];
    let mut toks = rest.split_ascii_whitespace();
    let (Some(name), Some(stratum), Some(poll), Some(reach), Some(last_rx)) = (
        toks.next(),
        toks.next(),
        toks.next(),
        toks.next(),
        toks.next(),
    ) else {
        return Err(format!("{expected}, found `{}`", excerpt(line)));
    };
    let stratum = stratum
        .parse()
        .map_err(|_| format!("{expected}: stratum `{}` is not a number", excerpt(stratum)))?;
    let poll = poll
        .parse()
        .map_err(|_| format!("{expected}: poll `{}` is not a number", excerpt(poll)))?;
    if reach.is_empty() || !reach.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        return Err(format!(
            "{expected}: reach `{}` is not octal",
            excerpt(reach)
        ));
    }
    // The sample: `-91us[ -128us] +/-   30ms` (spaces inside the brackets vary).
    let sample: String = toks.collect::<Vec<_>>().join(" ");
    let (offset, after) = sample
        .split_once('[')
        .ok_or_else(|| format!("{expected}: no `[measured]` in `{}`", excerpt(&sample)))?;
    let (measured, after) = after
        .split_once(']')
        .ok_or_else(|| format!("{expected}: unclosed `[` in `{}`", excerpt(&sample)))?;
    let error = after.trim().strip_prefix("+/-").map(str::trim);
    let dur = |s: &str, what: &str| {
        duration_seconds(s).ok_or_else(|| {
            format!(
                "{expected}: {what} `{}` is not a duration with ns/us/ms/s",
                excerpt(s)
            )
        })
    };
    Ok(Source {
        mode,
        state,
        name: name.to_string(),
        stratum,
        poll,
        reach: reach.to_string(),
        last_rx: last_rx.to_string(),
        last_rx_s: age_seconds(last_rx),
        offset_s: Some(dur(offset, "offset")?),
        measured_offset_s: Some(dur(measured, "measured offset")?),
        error_s: match error {
            Some(e) => Some(dur(e, "error")?),
            None => None,
        },
        line: n,
    })
}

/// Is this `chronyc sources`? `Yes` when the head has the `MS Name/IP address … Stratum`
/// header (after an optional `210 Number of sources` line and `-v` legend); `No` otherwise.
pub fn sniff_sources(head: &str) -> Sniff {
    for (line, _) in head_lines(head) {
        let t = line.trim();
        if t.is_empty() || t.starts_with("210 Number of sources") || is_legend(line) {
            continue;
        }
        return if is_sources_header(line) {
            Sniff::Yes
        } else {
            Sniff::No
        };
    }
    Sniff::No
}

/// Lines of the `-v` legend: they start with `.`, `/`, `|` or `||` drawings.
fn is_legend(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with(".--") || t.starts_with("/ .-") || t.starts_with('|')
}

/// Parses `chronyc sources` with or without `-v`.
///
/// Errors: [`ParseError::Unusable`] without the `MS Name/IP address` header. A row that cannot
/// be read is an issue; an empty table (no sources configured) is not an error.
pub fn parse_sources(text: &str) -> Result<Parsed<Sources>, ParseError> {
    let mut out = Sources::default();
    let mut issues = Issues::default();
    let mut header = false;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(rest) = t.strip_prefix("210 Number of sources") {
            out.declared = rest.trim_start_matches([' ', '=']).trim().parse().ok();
            continue;
        }
        if !header {
            if is_sources_header(line) {
                header = true;
            } else if !is_legend(line) {
                return Err(ParseError::unusable(
                    Some(n),
                    format!(
                        "expected the `MS Name/IP address Stratum Poll …` header, found `{}`",
                        excerpt(line)
                    ),
                ));
            }
            continue;
        }
        if t.bytes().all(|b| b == b'=') {
            continue;
        }
        match source_row(line, n) {
            Ok(s) => out.sources.push(s),
            Err(msg) => issues.push(n, || msg),
        }
    }
    if !header {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty"
            } else {
                "no `MS Name/IP address` header"
            },
        ));
    }
    if let Some(d) = out.declared {
        if d as usize != out.sources.len() {
            let found = out.sources.len();
            issues.push(0, || {
                format!("`210 Number of sources = {d}` but {found} rows were read")
            });
        }
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
