//! Loaded kernel modules: `/proc/modules` and `lsmod`.
//!
//! `/proc/modules` (one line per module):
//! ```text
//! zfs 4034560 6 - Live 0xffffffffc0a3f000 (PO)
//! binfmt_misc 24576 1 - Live 0xffffffffc0ab4000
//! ```
//! fields: name, size in bytes, reference count, users (`-` or `a,b,`), state (`Live`,
//! `Loading`, `Unloading`), load address (`0x0000000000000000` without root), and — only on
//! tainting modules — the taint letters in parentheses (`P` proprietary, `O` out-of-tree,
//! `E` unsigned, `F` forced, `C` staging, `X` externally supported).
//!
//! `lsmod` (kmod):
//! ```text
//! Module                  Size  Used by
//! tun                    31881  3
//! llc                    14552  2 stp,bridge
//! ```
//! `lsmod` does not show taint letters; only `/proc/modules` does.

use crate::common::{LineIssue, ParseError, Parsed, Sniff};
use serde::Serialize;

/// One loaded module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Module {
    /// Module name (`nf_conntrack`).
    pub name: String,
    /// Size of the module in memory, bytes.
    pub size_bytes: u64,
    /// Reference count ("Used by" number); `None` when printed as `-`.
    pub refcount: Option<u32>,
    /// Names of modules using this one.
    pub used_by: Vec<String>,
    /// `Live`, `Loading` or `Unloading` (`/proc/modules` only).
    pub state: Option<String>,
    /// Load address (`/proc/modules` only; 0 when hidden from unprivileged readers).
    pub address: Option<u64>,
    /// Taint letters without parentheses, e.g. `PO`, `OE` (`/proc/modules` only).
    pub taint: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

/// Is this `/proc/modules` text?
pub fn sniff_proc_modules(head: &str) -> Sniff {
    let _ = head;
    Sniff::No
}

/// Is this `lsmod` output?
pub fn sniff_lsmod(head: &str) -> Sniff {
    let _ = head;
    Sniff::No
}

/// Parses `/proc/modules`. Errors: [`ParseError::Unusable`] when no line has the module layout.
pub fn parse_proc_modules(text: &str) -> Result<Parsed<Vec<Module>>, ParseError> {
    let _ = (text, LineIssue::new(0, ""));
    Err(ParseError::unusable(None, "not implemented"))
}

/// Parses `lsmod`. Errors: [`ParseError::Unusable`] when the `Module Size Used by` header is
/// missing.
pub fn parse_lsmod(text: &str) -> Result<Parsed<Vec<Module>>, ParseError> {
    let _ = (text, LineIssue::new(0, ""));
    Err(ParseError::unusable(None, "not implemented"))
}
