//! `/proc/vmstat`: virtual memory counters, one `name value` pair per line.
//!
//! Names are kept as printed (`nr_free_pages`, `pgfault`, `pgmajfault`, `pswpin`, `pswpout`,
//! `pgscan_direct`, `allocstall_normal`, `oom_kill`, …); the set differs between kernels, so
//! nothing is assumed present. `nr_*` values are current page counts (pages are 4 KiB on x86_64
//! and most arm64 kernels); the others are event counts since boot — compare two snapshots with
//! [`ProcVmstat::delta_to`].
//!
//! Sample input (Linux 5.x):
//! ```text
//! nr_free_pages 615337
//! nr_zone_inactive_anon 39
//! pgfault 2320168809
//! pgmajfault 507162
//! pswpin 1476
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;
use std::collections::HashMap;

/// One snapshot of `/proc/vmstat`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ProcVmstat {
    /// Counters in input order.
    pub counters: Vec<VmCounter>,
}

/// One `name value` line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VmCounter {
    /// Counter name as printed (`pgmajfault`).
    pub name: String,
    /// Value (pages for `nr_*`, events otherwise).
    pub value: u64,
    /// 1-based input line.
    pub line: usize,
}

impl ProcVmstat {
    /// Value of counter `name`.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.counters
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.value)
    }

    /// `(name, later − earlier)` for every counter in both snapshots, in `self`'s order; a
    /// counter that went backwards (`nr_*` gauges do) gives a negative delta.
    pub fn delta_to(&self, later: &ProcVmstat) -> Vec<(String, i128)> {
        let after: HashMap<&str, u64> = later
            .counters
            .iter()
            .map(|c| (c.name.as_str(), c.value))
            .collect();
        self.counters
            .iter()
            .filter_map(|c| {
                let b = *after.get(c.name.as_str())?;
                Some((c.name.clone(), i128::from(b) - i128::from(c.value)))
            })
            .collect()
    }
}

/// A counter name: lower-case letters, digits and `_` (snmp6 names are capitalised).
fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.as_bytes()[0].is_ascii_lowercase()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// `nr_` counters every kernel since 2.6 prints near the top of the file, at least one of which
/// is there. (`pgpgin` and `pgfault` are in a cgroup's `memory.stat` too.)
const KNOWN: &[&str] = &[
    "nr_free_pages",
    "nr_alloc_batch",
    "nr_inactive_anon",
    "nr_active_anon",
    "nr_zone_inactive_anon",
    "nr_dirty",
    "nr_mapped",
];

/// Fewest `nr_…` lines in the head of `/proc/vmstat` (it opens with a few dozen).
const MIN_NR_LINES: usize = 3;

/// `/proc/vmstat`?
///
/// `Yes` when every line of the head is `name value` with a lower-case name and a whole number,
/// at least [`MIN_NR_LINES`] names are `nr_…` page counts and one of them is a well-known one
/// (`nr_free_pages`, …); `No` otherwise: a cgroup's `memory.stat` (`cache`, `rss`, `pgfault`,
/// no `nr_` names) has the same layout.
pub fn sniff(head: &str) -> Sniff {
    let mut known = false;
    let mut nr_lines = 0;
    for (line, complete) in head_lines(head) {
        let mut toks = line.split_ascii_whitespace();
        let (Some(name), value, extra) = (toks.next(), toks.next(), toks.next()) else {
            continue;
        };
        if !complete {
            break;
        }
        let ok = is_name(name)
            && value.is_some_and(|v| v.bytes().all(|b| b.is_ascii_digit()))
            && extra.is_none();
        if !ok {
            return Sniff::No;
        }
        nr_lines += usize::from(name.starts_with("nr_"));
        known |= KNOWN.contains(&name);
    }
    if nr_lines >= MIN_NR_LINES && known {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses `/proc/vmstat`.
///
/// Errors: [`ParseError::Unusable`] when no `name value` line is found. Other lines become
/// issues.
pub fn parse(text: &str) -> Result<Parsed<ProcVmstat>, ParseError> {
    let mut out = ProcVmstat::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let mut toks = line.split_ascii_whitespace();
        let Some(name) = toks.next() else {
            continue;
        };
        let value = toks.next().and_then(|v| v.parse::<u64>().ok());
        match (is_name(name), value, toks.next()) {
            (true, Some(value), None) => out.counters.push(VmCounter {
                name: name.to_string(),
                value,
                line: n,
            }),
            _ => issues.push(n, || {
                format!(
                    "expected `name value` (a counter and a whole number), found `{}`",
                    excerpt(line)
                )
            }),
        }
    }
    if out.counters.is_empty() {
        return Err(ParseError::unusable(
            None,
            "no `name value` counter line found",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
