//! Connection-tracking statistics per CPU: `conntrack -S` (conntrack-tools) and
//! `/proc/net/stat/nf_conntrack`.
//!
//! The kernel counts, per CPU and since the module was loaded, the events of the connection
//! tracker (`struct ip_conntrack_stat`, `include/linux/netfilter/nf_conntrack_common.h`; the
//! names in `Documentation/networking/nf_conntrack-sysctl.rst` and conntrack(8)): `found`,
//! `invalid`, `insert`, `insert_failed` (an entry could not be inserted: a clash or a full
//! chain), `drop` (a packet dropped because no entry could be made: the table was full),
//! `early_drop` (an entry evicted to make room for a new one), `error`, `search_restart`, …
//!
//! - `conntrack -S` (conntrack-tools 1.4.7, over netlink): one line per CPU, `cpu=N` then
//!   `name=value` pairs in decimal (the tab after `cpu=N` shown as spaces):
//!
//! ```text
//! cpu=0       found=0 invalid=0 insert=0 insert_failed=0 drop=60 early_drop=0 error=0 search_restart=0 clash_resolve=0 chaintoolong=0
//! ```
//!
//! - `/proc/net/stat/nf_conntrack` (Linux 6.18): a header naming the columns, then one row per
//!   possible CPU in hexadecimal (`%08x`); the first column, `entries`, is the table's size,
//!   the same on every row, not a per-CPU count. Columns are found by their header names,
//!   which changed between kernels (`searched`, `new`, `delete_list` became `clashres`,
//!   `chainlength`, …); columns the kernel no longer counts print 0.
//!
//! ```text
//! entries  clashres found new invalid ignore delete chainlength insert insert_failed drop early_drop icmp_error  expect_new expect_create expect_delete search_restart
//! 00000020  00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000054 00000000 00000000  00000000 00000000 00000000 00000000
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// Per-CPU connection-tracking statistics.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ConntrackStats {
    /// Table entries (`entries` column of `/proc/net/stat/nf_conntrack`); `None` from
    /// `conntrack -S`, which does not print it.
    pub entries: Option<u64>,
    /// One row per CPU, in input order.
    pub cpus: Vec<CpuStats>,
}

/// One CPU's counters.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct CpuStats {
    /// CPU number: `cpu=N` of `conntrack -S`; the row's position (0-based) in the proc file.
    pub cpu: u32,
    /// Counters by name as printed (`drop`, `insert_failed`), in input order.
    pub counters: Vec<(String, u64)>,
    /// 1-based input line.
    pub line: usize,
}

impl CpuStats {
    /// The counter named `name`.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.counters
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| *v)
    }
}

impl ConntrackStats {
    /// `name` summed over CPUs; `None` when no row has it.
    pub fn total(&self, name: &str) -> Option<u64> {
        let v: Vec<u64> = self.cpus.iter().filter_map(|c| c.get(name)).collect();
        (!v.is_empty()).then(|| v.iter().fold(0u64, |a, b| a.saturating_add(*b)))
    }
}

/// `cpu=N` then `name=value` pairs, at least `found=`/`drop=` among them.
fn cli_row(line: &str) -> Option<(u32, Vec<(String, u64)>)> {
    let mut toks = line.split_whitespace();
    let cpu = toks.next()?.strip_prefix("cpu=")?.parse().ok()?;
    let mut counters = Vec::new();
    for t in toks {
        let (k, v) = t.split_once('=')?;
        counters.push((k.to_string(), v.parse().ok()?));
    }
    counters
        .iter()
        .any(|(k, _)| k == "drop")
        .then_some((cpu, counters))
}

/// The proc file's header: column names, starting with `entries` and naming `drop`.
fn proc_header(line: &str) -> Option<Vec<&str>> {
    let cols: Vec<&str> = line.split_whitespace().collect();
    (cols.first() == Some(&"entries") && cols.contains(&"drop") && cols.contains(&"insert_failed"))
        .then_some(cols)
}

/// Is this `conntrack -S`? `Yes` when the first non-blank line is `cpu=N` followed by
/// `name=number` pairs including `drop=`.
pub fn sniff_cli(head: &str) -> Sniff {
    match head_lines(head).find(|(l, _)| !l.trim().is_empty()) {
        Some((l, _)) if cli_row(l).is_some() => Sniff::Yes,
        _ => Sniff::No,
    }
}

/// Is this `/proc/net/stat/nf_conntrack`? `Yes` when the first line is its header (`entries`
/// … `insert_failed drop` …).
pub fn sniff_proc(head: &str) -> Sniff {
    match head_lines(head).find(|(l, _)| !l.trim().is_empty()) {
        Some((l, _)) if proc_header(l).is_some() => Sniff::Yes,
        _ => Sniff::No,
    }
}

/// Parses `conntrack -S`.
///
/// Errors: [`ParseError::Unusable`] when no `cpu=N …` row was read; other lines are issues.
pub fn parse_cli(text: &str) -> Result<Parsed<ConntrackStats>, ParseError> {
    let mut out = ConntrackStats::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty()) {
        match cli_row(line) {
            Some((cpu, counters)) => out.cpus.push(CpuStats {
                cpu,
                counters,
                line: n,
            }),
            None => issues.push(n, || {
                format!("expected `cpu=N name=value …`, found `{}`", excerpt(line))
            }),
        }
    }
    if out.cpus.is_empty() {
        return Err(ParseError::unusable(None, "no `cpu=N name=value …` row"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// Parses `/proc/net/stat/nf_conntrack`.
///
/// Errors: [`ParseError::Unusable`] without the header or without any row. Rows whose column
/// count differs from the header's, or with a non-hexadecimal field, are issues.
pub fn parse_proc(text: &str) -> Result<Parsed<ConntrackStats>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    let (hn, hl) = lines
        .next()
        .ok_or_else(|| ParseError::unusable(None, "input is empty"))?;
    let cols = proc_header(hl).ok_or_else(|| {
        ParseError::unusable(
            Some(hn),
            format!(
                "expected the header `entries … insert_failed drop …`, found `{}`",
                excerpt(hl)
            ),
        )
    })?;
    let mut out = ConntrackStats::default();
    let mut issues = Issues::default();
    for (n, line) in lines {
        let v: Option<Vec<u64>> = line
            .split_whitespace()
            .map(|t| u64::from_str_radix(t, 16).ok())
            .collect();
        match v {
            Some(v) if v.len() == cols.len() => {
                out.entries = out.entries.or(Some(v[0]));
                let cpu = out.cpus.len() as u32;
                out.cpus.push(CpuStats {
                    cpu,
                    counters: cols[1..]
                        .iter()
                        .zip(&v[1..])
                        .map(|(k, v)| (k.to_string(), *v))
                        .collect(),
                    line: n,
                });
            }
            _ => issues.push(n, || {
                format!(
                    "expected {} hexadecimal columns, found `{}`",
                    cols.len(),
                    excerpt(line)
                )
            }),
        }
    }
    if out.cpus.is_empty() {
        return Err(ParseError::unusable(Some(hn), "no rows under the header"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conntrack_s_idle_and_dropping() {
        let idle =
            include_str!("../../tests/fixtures/conntrack-s/captured-conntrack-tools-1.4.7.txt");
        assert_eq!(sniff_cli(idle), Sniff::Yes);
        let p = parse_cli(idle).unwrap().value;
        assert_eq!(p.cpus.len(), 2);
        assert_eq!(p.total("drop"), Some(0));
        let full = include_str!(
            "../../tests/fixtures/conntrack-s/captured-conntrack-tools-1.4.7-drops.txt"
        );
        let p = parse_cli(full).unwrap();
        assert!(p.issues.is_empty());
        assert_eq!(p.value.cpus[1].get("drop"), Some(204));
        assert_eq!(p.value.total("drop"), Some(264));
        assert_eq!(p.value.total("insert_failed"), Some(0));
        assert_eq!(p.value.total("chaintoolong"), Some(0));
        assert_eq!(sniff_proc(full), Sniff::No);
    }

    #[test]
    fn proc_file_idle_and_dropping() {
        let idle = include_str!("../../tests/fixtures/nf-conntrack-stat/captured-linux-6.18.txt");
        assert_eq!(sniff_proc(idle), Sniff::Yes);
        assert_eq!(parse_proc(idle).unwrap().value.total("drop"), Some(0));
        let full =
            include_str!("../../tests/fixtures/nf-conntrack-stat/captured-linux-6.18-drops.txt");
        let p = parse_proc(full).unwrap();
        assert!(p.issues.is_empty());
        assert_eq!(p.value.entries, Some(32));
        assert_eq!(p.value.cpus[1].get("drop"), Some(0xcc));
        assert_eq!(p.value.total("drop"), Some(264));
        assert_eq!(p.value.total("early_drop"), Some(0));
        assert_eq!(sniff_cli(full), Sniff::No);
        assert!(parse_proc("entries drop insert_failed\nzz 1 2\n").is_err());
    }
}
