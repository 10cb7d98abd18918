//! `/proc/softirqs`: per-CPU counts of softirqs handled since boot, by type.
//!
//! The header names the *possible* CPUs (`CPU0 … CPU127`, hundreds on big hosts, even when few
//! are online); each row is `NAME:` followed by one counter per header column. Type names are
//! kept as printed (`HI`, `TIMER`, `NET_TX`, `NET_RX`, `BLOCK`, `IRQ_POLL`, `TASKLET`, `SCHED`,
//! `HRTIMER`, `RCU`; older kernels: `BLOCK_IOPOLL`), unknown ones are kept as data.
//!
//! Sample input (Linux 5.x, 2 CPUs):
//! ```text
//!                     CPU0       CPU1
//!           HI:          7          1
//!        TIMER:     424191     108342
//!       NET_RX:      43066     104508
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One snapshot of `/proc/softirqs`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Softirqs {
    /// CPU numbers from the header, in column order (`CPU3` → 3).
    pub cpus: Vec<u32>,
    /// One row per softirq type, in input order.
    pub rows: Vec<SoftirqRow>,
}

/// Counters of one softirq type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SoftirqRow {
    /// Type as printed, without the colon (`NET_RX`).
    pub name: String,
    /// 1-based input line.
    pub line: usize,
    /// Count since boot per header column (same order as [`Softirqs::cpus`]).
    pub counts: Vec<u64>,
}

/// Per-CPU rates of one softirq type between two snapshots.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SoftirqRates {
    /// Type (`NET_RX`).
    pub name: String,
    /// `(cpu, events per second)` for every CPU present in both snapshots.
    pub per_cpu: Vec<(u32, f64)>,
}

impl Softirqs {
    /// Row for a type name, e.g. `row("NET_RX")`.
    pub fn row(&self, name: &str) -> Option<&SoftirqRow> {
        self.rows.iter().find(|r| r.name == name)
    }

    /// Count of type `name` on CPU `cpu` (by CPU number, not column), if both are present.
    pub fn count(&self, name: &str, cpu: u32) -> Option<u64> {
        let col = self.cpus.iter().position(|&c| c == cpu)?;
        self.row(name)?.counts.get(col).copied()
    }

    /// Rates per second from `self` (earlier) to `later` over `seconds`. CPUs are matched by
    /// number; a counter that went backwards (CPU hot-plug, wrap) yields no rate for that CPU.
    /// Returns an empty list when `seconds` is not positive.
    ///
    /// Types are matched by name and listed in `self`'s order; a type missing from either
    /// snapshot is left out. CPUs are listed in `self`'s column order.
    pub fn rates_to(&self, later: &Softirqs, seconds: f64) -> Vec<SoftirqRates> {
        if !(seconds > 0.0 && seconds.is_finite()) {
            return Vec::new();
        }
        // Column of each CPU number in `later`. Header CPU numbers are small and ascending in
        // practice, but a map keeps this linear whatever the input claims.
        let later_col: std::collections::HashMap<u32, usize> = later
            .cpus
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i))
            .collect();
        let mut out = Vec::with_capacity(self.rows.len());
        for row in &self.rows {
            let Some(next) = later.row(&row.name) else {
                continue;
            };
            let per_cpu = self
                .cpus
                .iter()
                .zip(&row.counts)
                .filter_map(|(cpu, &before)| {
                    let after = *next.counts.get(*later_col.get(cpu)?)?;
                    let delta = after.checked_sub(before)?;
                    Some((*cpu, delta as f64 / seconds))
                })
                .collect();
            out.push(SoftirqRates {
                name: row.name.clone(),
                per_cpu,
            });
        }
        out
    }
}

/// Softirq type names the kernel has used (`softirq_to_name[]`).
const SOFTIRQ_NAMES: &[&str] = &[
    "HI",
    "TIMER",
    "NET_TX",
    "NET_RX",
    "BLOCK",
    "BLOCK_IOPOLL",
    "IRQ_POLL",
    "TASKLET",
    "SCHED",
    "HRTIMER",
    "RCU",
];

/// CPU number of a header token `CPU12`.
fn header_cpu(tok: &str) -> Option<u32> {
    let n = tok.strip_prefix("CPU")?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse().ok()
}

/// `NAME:` and the rest of a row (`NAME:123` without a space is accepted).
fn split_row(line: &str) -> Option<(&str, &str)> {
    let (name, rest) = line.trim_start().split_once(':')?;
    let name = name.trim_end();
    (!name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        .then_some((name, rest))
}

/// Does the text start with a `/proc/softirqs` header and rows?
///
/// `Yes` when the first line is a `CPU0 CPU1 …` header and a following row is a known softirq
/// type (`NET_RX:` …) with counters only; `/proc/interrupts` shares the header but not the row
/// names. `Unsure` when the head stops after the header; `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    let Some((header, header_complete)) = lines.next() else {
        return Sniff::No;
    };
    let mut toks = header.split_ascii_whitespace();
    let header_ok = toks.next().and_then(header_cpu) == Some(0)
        && toks.all(|t| header_cpu(t).is_some() || (!header_complete && "CPU".starts_with(t)));
    if !header_ok {
        return Sniff::No;
    }
    for (line, complete) in lines {
        let Some((name, rest)) = split_row(line) else {
            return if complete { Sniff::No } else { Sniff::Unsure };
        };
        let counters = rest
            .split_ascii_whitespace()
            .all(|t| t.bytes().all(|b| b.is_ascii_digit()));
        if !counters {
            return Sniff::No;
        }
        if SOFTIRQ_NAMES.contains(&name) {
            return Sniff::Yes;
        }
    }
    // Only the header, or rows of unknown types: /proc/interrupts starts the same way.
    Sniff::Unsure
}

/// Parses one `/proc/softirqs` snapshot.
///
/// Errors: [`ParseError::Unusable`] when the `CPU0 …` header is missing.
///
/// A row with fewer counters than header columns (a line cut short) is kept with the counters
/// it has, and an issue; extra counters are dropped with an issue.
pub fn parse(text: &str) -> Result<Parsed<Softirqs>, ParseError> {
    let mut out = Softirqs::default();
    let mut issues = Issues::default();
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    let Some((header_line, header)) = lines.next() else {
        return Err(ParseError::unusable(None, "input is empty"));
    };
    for tok in header.split_ascii_whitespace() {
        match header_cpu(tok) {
            Some(c) => out.cpus.push(c),
            None => {
                return Err(ParseError::unusable(
                    Some(header_line),
                    format!(
                        "expected a `CPU0 CPU1 …` header as the first line, found `{}`",
                        excerpt(header)
                    ),
                ))
            }
        }
    }
    let ncpus = out.cpus.len();
    for (n, line) in lines {
        let Some((name, rest)) = split_row(line) else {
            issues.push(n, || {
                format!("expected `NAME: count count …`, found `{}`", excerpt(line))
            });
            continue;
        };
        let mut counts = Vec::with_capacity(ncpus);
        let mut extra = 0usize;
        let mut bad = None;
        for tok in rest.split_ascii_whitespace() {
            match tok.parse::<u64>() {
                Ok(_) if counts.len() == ncpus => extra += 1,
                Ok(v) => counts.push(v),
                Err(_) => {
                    bad = Some(tok);
                    break;
                }
            }
        }
        if let Some(tok) = bad {
            issues.push(n, || {
                format!("`{name}`: expected a counter, found `{}`", excerpt(tok))
            });
            continue;
        }
        if counts.len() < ncpus {
            let found = counts.len();
            issues.push(n, || {
                format!(
                    "`{name}`: expected {ncpus} counters (one per header column), found \
                     {found}; kept those"
                )
            });
        } else if extra > 0 {
            issues.push(n, || {
                format!(
                    "`{name}`: expected {ncpus} counters (one per header column), found {}; \
                     ignored the extra ones",
                    ncpus + extra
                )
            });
        }
        out.rows.push(SoftirqRow {
            name: name.to_string(),
            line: n,
            counts,
        });
    }
    if out.rows.is_empty() {
        return Err(ParseError::unusable(
            Some(header_line),
            "no `NAME: count …` row after the CPU header",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(cpus: &[u32], rows: &[(&str, &[u64])]) -> Softirqs {
        Softirqs {
            cpus: cpus.to_vec(),
            rows: rows
                .iter()
                .map(|(name, counts)| SoftirqRow {
                    name: name.to_string(),
                    line: 0,
                    counts: counts.to_vec(),
                })
                .collect(),
        }
    }

    #[test]
    fn rates_match_cpus_by_number_and_skip_wraps() {
        let before = snapshot(
            &[0, 1, 2],
            &[("NET_RX", &[100, 200, 300]), ("HI", &[1, 1, 1])],
        );
        // CPU1 went offline, counters on CPU2 went backwards.
        let after = snapshot(&[0, 2], &[("NET_RX", &[300, 100])]);
        let rates = before.rates_to(&after, 2.0);
        assert_eq!(rates.len(), 1);
        assert_eq!(rates[0].name, "NET_RX");
        assert_eq!(rates[0].per_cpu, vec![(0, 100.0)]);
        assert!(before.rates_to(&after, 0.0).is_empty());
        assert!(before.rates_to(&after, f64::NAN).is_empty());
    }
}
