//! Swap areas: `/proc/swaps` (also printed by `swapon -s`) and `swapon --show` (util-linux).
//!
//! - `/proc/swaps`: `Filename Type Size Used Priority`, sizes in KiB, names with spaces escaped
//!   as `\040`. No swap configured: the header alone.
//! - `swapon --show`: `NAME TYPE SIZE USED PRIO` (plus `UUID LABEL` with
//!   `--show=NAME,TYPE,SIZE,USED,PRIO,UUID,LABEL`), sizes human-readable in binary units
//!   (`64M`, `2G`, `0B`: rounded, see [`SwapArea::exact`]) or, with `--bytes`, in bytes. Empty
//!   trailing columns (no UUID, no label) are simply absent from the row. No swap: no output at
//!   all (an empty file, which is unusable here: the absence must be recorded by whoever ran
//!   the command).
//!
//! Columns are found by header name; all sizes are converted to KiB.
//!
//! Sample input (`/proc/swaps`, then `swapon --show` of the same swap file):
//! ```text
//! Filename                                Type            Size            Used            Priority
//! /var/tmp/swapfile                       file            65532           0               5
//!
//! NAME              TYPE SIZE USED PRIO
//! /var/tmp/swapfile file  64M   0B    5
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, parse_num, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// Which tool printed the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SwapsFormat {
    /// `/proc/swaps` or `swapon -s`: sizes in KiB.
    ProcSwaps,
    /// `swapon --show` with human-readable sizes.
    SwaponShow,
    /// `swapon --show --bytes`.
    SwaponShowBytes,
}

/// The swap areas in use.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Swaps {
    /// Which tool printed the table.
    pub format: SwapsFormat,
    /// 1-based input line of the header.
    pub header_line: usize,
    /// Swap areas in input order (empty: no swap configured).
    pub areas: Vec<SwapArea>,
}

/// One swap area.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SwapArea {
    /// Device or file (`Filename` / `NAME`), with `\040` escapes decoded.
    pub name: String,
    /// 1-based input line.
    pub line: usize,
    /// `Type` / `TYPE`: `partition` or `file`.
    pub kind: Option<String>,
    /// `Size` / `SIZE`, KiB.
    pub size_kib: Option<f64>,
    /// `Used` / `USED`, KiB.
    pub used_kib: Option<f64>,
    /// `Priority` / `PRIO` (negative: assigned by the kernel).
    pub priority: Option<i64>,
    /// `UUID`, when printed and not empty.
    pub uuid: Option<String>,
    /// `LABEL`, when printed and not empty.
    pub label: Option<String>,
    /// Whether the sizes are exact (`false` for the rounded human-readable `swapon --show`).
    pub exact: bool,
}

/// What a header column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    Name,
    Kind,
    Size,
    Used,
    Priority,
    Uuid,
    Label,
    Other,
}

fn column(name: &str) -> Col {
    match name {
        "Filename" | "NAME" => Col::Name,
        "Type" | "TYPE" => Col::Kind,
        "Size" | "SIZE" => Col::Size,
        "Used" | "USED" => Col::Used,
        "Priority" | "PRIO" => Col::Priority,
        "UUID" => Col::Uuid,
        "LABEL" => Col::Label,
        _ => Col::Other,
    }
}

/// The header: `Filename Type …` or `NAME TYPE SIZE USED PRIO …`.
fn header_format(toks: &[&str]) -> Option<SwapsFormat> {
    match toks {
        ["Filename", "Type", "Size", "Used", "Priority"] => Some(SwapsFormat::ProcSwaps),
        ["NAME", rest @ ..]
            if rest.contains(&"SIZE") && (rest.contains(&"USED") || rest.contains(&"PRIO")) =>
        {
            Some(SwapsFormat::SwaponShow)
        }
        _ => None,
    }
}

/// `/proc/swaps` or `swapon --show` output?
///
/// `Yes` when the first line is one of their headers; `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    let Some((line, complete)) = head_lines(head).find(|(l, _)| !l.trim().is_empty()) else {
        return Sniff::No;
    };
    let toks: Vec<&str> = line.split_ascii_whitespace().collect();
    if header_format(&toks).is_some() {
        Sniff::Yes
    } else if !complete && "Filename".starts_with(line.trim()) {
        Sniff::Unsure
    } else {
        Sniff::No
    }
}

/// KiB in a human-readable util-linux size (`64M`, `1.9G`, `0B`, `512K`): binary units.
fn human_kib(s: &str) -> Option<f64> {
    let split = s.find(|c: char| c.is_ascii_alphabetic())?;
    let (num, unit) = s.split_at(split);
    let v = parse_num(num)?;
    let exp = match unit.trim_end_matches("iB").trim_end_matches('B') {
        "" => return Some(v / 1024.0),
        "K" => 0,
        "M" => 1,
        "G" => 2,
        "T" => 3,
        "P" => 4,
        "E" => 5,
        _ => return None,
    };
    Some(v * 1024f64.powi(exp))
}

/// Decodes the octal escapes of `/proc/swaps` names (`\040` for a space).
fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.len() >= i + 4 {
            let oct = &b[i + 1..i + 4];
            if oct.iter().all(|c| (b'0'..=b'7').contains(c)) {
                let v = oct.iter().fold(0u32, |a, c| a * 8 + u32::from(c - b'0'));
                if let Ok(byte) = u8::try_from(v) {
                    out.push(byte);
                    i += 4;
                    continue;
                }
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Byte offset of `tok` (a subslice of `line`) in `line`.
fn offset_in(line: &str, tok: &str) -> usize {
    (tok.as_ptr() as usize).saturating_sub(line.as_ptr() as usize)
}

/// Parses `/proc/swaps` or `swapon --show` output.
///
/// Errors: [`ParseError::Unusable`] when the header is missing (an empty file included). Rows
/// with unreadable sizes become issues.
pub fn parse(text: &str) -> Result<Parsed<Swaps>, ParseError> {
    let mut issues = Issues::default();
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    let Some((header_line, header)) = lines.next() else {
        return Err(ParseError::unusable(
            None,
            "input is empty (`swapon --show` prints nothing when no swap is configured)",
        ));
    };
    let names: Vec<&str> = header.split_ascii_whitespace().collect();
    let Some(mut format) = header_format(&names) else {
        return Err(ParseError::unusable(
            Some(header_line),
            format!(
                "expected a `Filename Type Size Used Priority` or `NAME TYPE SIZE USED PRIO` \
                 header, found `{}`",
                excerpt(header)
            ),
        ));
    };
    let cols: Vec<Col> = names.iter().map(|c| column(c)).collect();
    let starts: Vec<usize> = names.iter().map(|c| offset_in(header, c)).collect();
    let mut areas = Vec::new();
    let mut bytes_decided = false;
    for (n, line) in lines {
        let toks: Vec<&str> = line.split_ascii_whitespace().collect();
        if toks.len() > cols.len() || toks.is_empty() {
            let (want, found) = (cols.len(), toks.len());
            issues.push(n, || {
                format!(
                    "expected at most {want} columns as in the header, found {found}: `{}`",
                    excerpt(line)
                )
            });
            continue;
        }
        // Tokens past the first missing column go to the header column they start under.
        let mut assigned: Vec<(Col, &str)> = Vec::with_capacity(toks.len());
        for (i, tok) in toks.iter().enumerate() {
            let col = if toks.len() == cols.len() || i < 5.min(cols.len()) {
                cols[i]
            } else {
                let at = offset_in(line, tok);
                let j = starts.iter().rposition(|s| *s <= at).unwrap_or(i).max(i);
                cols[j.min(cols.len() - 1)]
            };
            assigned.push((col, tok));
        }
        let mut area = SwapArea {
            name: String::new(),
            line: n,
            kind: None,
            size_kib: None,
            used_kib: None,
            priority: None,
            uuid: None,
            label: None,
            exact: true,
        };
        let mut bad = None;
        for (col, tok) in assigned {
            match col {
                Col::Name => area.name = unescape(tok),
                Col::Kind => area.kind = Some(tok.to_string()),
                Col::Uuid => area.uuid = Some(tok.to_string()),
                Col::Label => area.label = Some(tok.to_string()),
                Col::Priority => match tok.parse::<i64>() {
                    Ok(v) => area.priority = Some(v),
                    Err(_) => bad = bad.or(Some(("priority", tok))),
                },
                Col::Size | Col::Used => {
                    let digits = tok.bytes().all(|b| b.is_ascii_digit());
                    if format != SwapsFormat::ProcSwaps && !bytes_decided {
                        format = if digits {
                            SwapsFormat::SwaponShowBytes
                        } else {
                            SwapsFormat::SwaponShow
                        };
                        bytes_decided = true;
                    }
                    let kib = match format {
                        SwapsFormat::ProcSwaps => tok.parse::<u64>().ok().map(|v| v as f64),
                        SwapsFormat::SwaponShowBytes => {
                            tok.parse::<u64>().ok().map(|v| v as f64 / 1024.0)
                        }
                        SwapsFormat::SwaponShow => {
                            area.exact = false;
                            human_kib(tok)
                        }
                    };
                    match kib {
                        Some(v) if col == Col::Size => area.size_kib = Some(v),
                        Some(v) => area.used_kib = Some(v),
                        None => bad = bad.or(Some(("size", tok))),
                    }
                }
                Col::Other => {}
            }
        }
        if let Some((what, tok)) = bad {
            issues.push(n, || {
                format!(
                    "`{}`: expected a {what}, found `{}`",
                    area.name,
                    excerpt(tok)
                )
            });
        }
        areas.push(area);
    }
    Ok(Parsed {
        value: Swaps {
            format,
            header_line,
            areas,
        },
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_sizes_are_binary() {
        assert_eq!(human_kib("64M"), Some(65536.0));
        assert_eq!(human_kib("2G"), Some(2.0 * 1024.0 * 1024.0));
        assert_eq!(human_kib("512K"), Some(512.0));
        assert_eq!(human_kib("0B"), Some(0.0));
        assert_eq!(human_kib("1.5G"), Some(1.5 * 1024.0 * 1024.0));
        assert_eq!(human_kib("12"), None);
        assert_eq!(human_kib("3X"), None);
    }

    #[test]
    fn escapes() {
        assert_eq!(unescape("/swap\\040file"), "/swap file");
        assert_eq!(unescape("/a\\"), "/a\\");
        assert_eq!(unescape("/a\\04"), "/a\\04");
    }
}
