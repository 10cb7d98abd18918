//! `free` (procps and procps-ng): memory and swap totals.
//!
//! A header names the columns (found by name): `total used free shared buff/cache available`
//! (procps-ng ≥ 3.3.10), `total used free shared buffers cache available` (`-w`), or `total
//! used free shared buffers cached` (procps ≤ 3.3.9, followed by a `-/+ buffers/cache:` row of
//! `used free`). Rows: `Mem:`, `Swap:`, and with options `Low:`/`High:` (`-l`) and `Total:`
//! (`-t`). With `-s`/`-c` (several reports) the last one is kept.
//!
//! Units: the output does not say them. [`parse`] assumes the default, KiB (`free`, `free -k`);
//! [`parse_with_unit`] takes the unit of `-b`, `-m`, `-g`, `--si` … as recorded by whoever ran
//! the command. Values are converted to KiB (with `-m`/`-g` free has already rounded them).
//! Human-readable values (`-h`: `23Gi`, `1.0Gi`, `0B`) are not read: each becomes an issue.
//!
//! Sample input (procps-ng 4.0.2 `free`):
//! ```text
//!                total        used        free      shared  buff/cache   available
//! Mem:        24684092     1049396    20491424        8860     3456404    23634696
//! Swap:              0           0           0
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, parse_num, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// The unit of the numbers `free` printed, chosen by its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum FreeUnit {
    /// `-b`.
    Bytes,
    /// Default and `-k`.
    Kibibytes,
    /// `-m`.
    Mebibytes,
    /// `-g`.
    Gibibytes,
    /// `--tera`.
    Tebibytes,
    /// `--kilo` / `-k --si`.
    Kilobytes,
    /// `--mega` / `-m --si`.
    Megabytes,
    /// `--giga` / `-g --si`.
    Gigabytes,
}

impl FreeUnit {
    /// KiB per unit.
    pub fn kib(self) -> f64 {
        match self {
            FreeUnit::Bytes => 1.0 / 1024.0,
            FreeUnit::Kibibytes => 1.0,
            FreeUnit::Mebibytes => 1024.0,
            FreeUnit::Gibibytes => 1024.0 * 1024.0,
            FreeUnit::Tebibytes => 1024.0 * 1024.0 * 1024.0,
            FreeUnit::Kilobytes => 1000.0 / 1024.0,
            FreeUnit::Megabytes => 1e6 / 1024.0,
            FreeUnit::Gigabytes => 1e9 / 1024.0,
        }
    }
}

/// A whole `free` output.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Free {
    /// Unit the numbers were printed in (assumed or given).
    pub unit: FreeUnit,
    /// 1-based input line of the (last) header.
    pub header_line: usize,
    /// `Mem:`.
    pub mem: Option<FreeRow>,
    /// `Swap:`.
    pub swap: Option<FreeRow>,
    /// `-/+ buffers/cache:` (procps ≤ 3.3.9): `used` and `free` without buffers and cache.
    pub buffers_cache: Option<FreeRow>,
    /// `Low:` (`-l`).
    pub low: Option<FreeRow>,
    /// `High:` (`-l`).
    pub high: Option<FreeRow>,
    /// `Total:` (`-t`): RAM plus swap.
    pub total: Option<FreeRow>,
}

/// One row, in KiB. A field is `None` when its column is not printed for this row.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct FreeRow {
    /// 1-based input line.
    pub line: usize,
    /// `total`.
    pub total_kib: Option<f64>,
    /// `used` (procps-ng ≥ 3.3.10: total − free − buffers − cache).
    pub used_kib: Option<f64>,
    /// `free`.
    pub free_kib: Option<f64>,
    /// `shared` (tmpfs and shared memory).
    pub shared_kib: Option<f64>,
    /// `buffers` (`-w` and old procps).
    pub buffers_kib: Option<f64>,
    /// `cache` (`-w`) or `cached` (old procps).
    pub cache_kib: Option<f64>,
    /// `buff/cache`.
    pub buff_cache_kib: Option<f64>,
    /// `available`: estimate of memory available for new work without swapping.
    pub available_kib: Option<f64>,
}

impl FreeRow {
    fn slot(&mut self, col: &str) -> Option<&mut Option<f64>> {
        Some(match col {
            "total" => &mut self.total_kib,
            "used" => &mut self.used_kib,
            "free" => &mut self.free_kib,
            "shared" => &mut self.shared_kib,
            "buffers" => &mut self.buffers_kib,
            "cache" | "cached" => &mut self.cache_kib,
            "buff/cache" => &mut self.buff_cache_kib,
            "available" => &mut self.available_kib,
            _ => return None,
        })
    }
}

/// The header: starts with `total used free`.
fn is_header(toks: &[&str]) -> bool {
    toks.starts_with(&["total", "used", "free"])
}

/// `free` output?
///
/// `Yes` when a `total used free …` header is followed by a `Mem:` row; `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    let Some((line, _)) = lines.next() else {
        return Sniff::No;
    };
    let toks: Vec<&str> = line.split_ascii_whitespace().collect();
    if !is_header(&toks) {
        return Sniff::No;
    }
    match lines.next() {
        Some((row, _)) if row.trim_start().starts_with("Mem:") => Sniff::Yes,
        None => Sniff::Unsure,
        Some(_) => Sniff::No,
    }
}

/// Parses `free` output printed in KiB (the default, `-k`). See [`parse_with_unit`].
///
/// Errors: [`ParseError::Unusable`] when no header or no row is found.
pub fn parse(text: &str) -> Result<Parsed<Free>, ParseError> {
    parse_with_unit(text, FreeUnit::Kibibytes)
}

/// Parses `free` output printed in `unit` (`free -m` → [`FreeUnit::Mebibytes`]).
///
/// Errors: [`ParseError::Unusable`] when no header or no row is found. Values that are not
/// numbers (`free -h`'s `23Gi`) and rows of unknown names become issues.
pub fn parse_with_unit(text: &str, unit: FreeUnit) -> Result<Parsed<Free>, ParseError> {
    let mut out = Free {
        unit,
        header_line: 0,
        mem: None,
        swap: None,
        buffers_cache: None,
        low: None,
        high: None,
        total: None,
    };
    let mut issues = Issues::default();
    let mut header: Option<Vec<&str>> = None;
    let mut rows = 0usize;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let toks: Vec<&str> = line.split_ascii_whitespace().collect();
        if toks.is_empty() {
            continue;
        }
        if is_header(&toks) {
            out.header_line = n;
            header = Some(toks);
            continue;
        }
        let Some(cols) = &header else {
            issues.push(n, || {
                format!(
                    "expected the `total used free …` header before `{}`",
                    excerpt(line)
                )
            });
            continue;
        };
        let (label, vals, cols): (&str, &[&str], &[&str]) =
            if toks.len() >= 2 && toks[0] == "-/+" && toks[1] == "buffers/cache:" {
                // `used free` only.
                (
                    "-/+ buffers/cache:",
                    &toks[2..],
                    &cols[1..cols.len().min(3)],
                )
            } else {
                (toks[0], &toks[1..], &cols[..])
            };
        let slot = match label {
            "Mem:" => &mut out.mem,
            "Swap:" => &mut out.swap,
            "Low:" => &mut out.low,
            "High:" => &mut out.high,
            "Total:" => &mut out.total,
            "-/+ buffers/cache:" => &mut out.buffers_cache,
            _ => {
                issues.push(n, || {
                    format!(
                        "expected a `Mem:`, `Swap:`, `Total:`, `Low:`, `High:` or `-/+ \
                         buffers/cache:` row, found `{}`",
                        excerpt(line)
                    )
                });
                continue;
            }
        };
        if vals.len() > cols.len() {
            let (want, found) = (cols.len(), vals.len());
            issues.push(n, || {
                format!("`{label}`: expected at most {want} values as in the header, found {found}")
            });
            continue;
        }
        let mut row = FreeRow {
            line: n,
            ..FreeRow::default()
        };
        for (col, tok) in cols.iter().zip(vals) {
            let v = if tok.bytes().any(|b| b.is_ascii_alphabetic()) {
                None
            } else {
                parse_num(tok)
            };
            match v {
                Some(v) => {
                    if let Some(s) = row.slot(col) {
                        *s = Some(v * unit.kib());
                    }
                }
                None => issues.push(n, || {
                    format!(
                        "`{label}` `{col}`: expected a number, found `{}`{}",
                        excerpt(tok),
                        if tok.bytes().any(|b| b.is_ascii_alphabetic()) {
                            " (human-readable `free -h` output is not read: run `free` without \
                             `-h`)"
                        } else {
                            ""
                        }
                    )
                }),
            }
        }
        *slot = Some(row);
        rows += 1;
    }
    if header.is_none() || rows == 0 {
        return Err(ParseError::unusable(
            None,
            "no `total used free …` header followed by a `Mem:` or `Swap:` row",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
