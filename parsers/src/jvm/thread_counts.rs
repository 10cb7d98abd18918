//! Thread counts by name of one JVM, as `collector.sh` writes them into
//! `jvm/<pid>/threads.tsv` (kind `jvm-threads`).
//!
//! In: `count<TAB>name` lines, largest count first (`sort -rn`; the order of equal counts is
//! unspecified). The names are the threads' `comm` from `/proc/PID/task/TID/comm`: the JVM sets
//! it from the Java thread name, cut to 15 bytes (`C2 CompilerThre`, `pool-1-thread-4`), so
//! threads of one pool whose names differ only after byte 15 are counted together. The main
//! thread and the launcher's thread both show as `java`.
//!
//! Sample input (OpenJDK 17, a program with a four-thread pool; the tabs of the real output
//! are shown as spaces):
//! ```text
//! 2   java
//! 1   pool-1-thread-4
//! 1   VM Thread
//! 1   GC Thread#0
//! 1   C2 CompilerThre
//! ```
//!
//! Out: a [`JvmThreads`] with one [`ThreadCount`] per line.

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One `count<TAB>name` line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThreadCount {
    /// Number of threads with this name.
    pub count: u64,
    /// The thread name as the kernel holds it (at most 15 bytes; may contain spaces, may be
    /// empty).
    pub name: String,
    /// 1-based input line.
    pub line: usize,
}

/// A parsed `threads.tsv`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct JvmThreads {
    /// One row per distinct name, in input order.
    pub rows: Vec<ThreadCount>,
}

impl JvmThreads {
    /// Total number of threads (saturating: a corrupt count cannot overflow).
    pub fn total(&self) -> u64 {
        self.rows.iter().fold(0, |a, r| a.saturating_add(r.count))
    }

    /// The row of name `name`.
    pub fn get(&self, name: &str) -> Option<&ThreadCount> {
        self.rows.iter().find(|r| r.name == name)
    }

    /// Threads whose name starts with `prefix` (`GC Thread#`, `pool-`), summed.
    pub fn count_prefix(&self, prefix: &str) -> u64 {
        self.rows
            .iter()
            .filter(|r| r.name.starts_with(prefix))
            .fold(0, |a, r| a.saturating_add(r.count))
    }
}

/// `count<TAB>name`.
fn row(line: &str, n: usize) -> Result<ThreadCount, String> {
    let (count, name) = line
        .split_once('\t')
        .ok_or_else(|| format!("expected `count<TAB>name`, found `{}`", excerpt(line)))?;
    let count: u64 = count
        .trim()
        .parse()
        .map_err(|_| format!("expected a thread count, found `{}`", excerpt(count)))?;
    if count == 0 {
        return Err("a thread count of 0".to_string());
    }
    Ok(ThreadCount {
        count,
        name: name.to_string(),
        line: n,
    })
}

/// Thread names every HotSpot JVM has (cut to 15 bytes as in `comm`).
const HOTSPOT_THREADS: &[&str] = &[
    "VM Thread",
    "Reference Handl",
    "Finalizer",
    "Signal Dispatch",
    "C2 CompilerThre",
    "C1 CompilerThre",
    "VM Periodic Tas",
    "Service Thread",
    "Common-Cleaner",
    "GC Thread#0",
];

/// Is this the collector's `threads.tsv`?
///
/// `Yes` when every complete non-blank line of the head is `count<TAB>name` with exactly one
/// TAB, and one name is a thread every HotSpot JVM has (`VM Thread`, `Reference Handl`,
/// `C2 CompilerThre`, …); `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    let mut hotspot = false;
    for (l, complete) in head_lines(head) {
        if l.trim().is_empty() {
            continue;
        }
        match row(l, 0) {
            Ok(r) if !r.name.contains('\t') => {
                hotspot |= complete && HOTSPOT_THREADS.contains(&r.name.as_str());
            }
            _ if complete => return Sniff::No,
            _ => {}
        }
    }
    if hotspot {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses the collector's `threads.tsv`.
///
/// Errors: [`ParseError::Unusable`] when no `count<TAB>name` line is found. Other lines are
/// issues.
pub fn parse(text: &str) -> Result<Parsed<JvmThreads>, ParseError> {
    let mut out = JvmThreads::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        match row(line, n) {
            Ok(r) => out.rows.push(r),
            Err(msg) => issues.push(n, || msg),
        }
    }
    if out.rows.is_empty() {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty".to_string()
            } else {
                "no `count<TAB>name` line found".to_string()
            },
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
