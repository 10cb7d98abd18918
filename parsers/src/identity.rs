//! Host identity: `uname -a` and `/etc/os-release`.
//!
//! `uname -a` (coreutils 8/9; BusyBox prints the same order):
//! ```text
//! Linux db1 5.14.0-362.el9.x86_64 #1 SMP PREEMPT_DYNAMIC Thu Oct 26 10:12:55 UTC 2023 x86_64 x86_64 x86_64 GNU/Linux
//! ```
//! kernel name, node name, kernel release, kernel version (spaces inside), machine, processor and
//! hardware platform (omitted by coreutils when `unknown`), operating system.
//!
//! `/etc/os-release` (freedesktop os-release(5)): `KEY=value` lines, values optionally quoted
//! with `"` or `'` and backslash escapes; comments start with `#`.

use crate::common::{LineIssue, ParseError, Parsed, Sniff};
use serde::Serialize;
use std::collections::BTreeMap;

/// Parsed `uname -a`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Uname {
    /// `Linux`.
    pub kernel_name: String,
    /// Host name.
    pub nodename: String,
    /// Kernel release (`uname -r`).
    pub release: String,
    /// Kernel version string (`uname -v`), e.g. `#1 SMP PREEMPT_DYNAMIC Thu Oct 26 …`.
    pub version: String,
    /// Machine hardware name (`uname -m`): `x86_64`, `aarch64`.
    pub machine: Option<String>,
    /// Operating system (`GNU/Linux`), when printed.
    pub os: Option<String>,
    /// 1-based input line.
    pub line: usize,
}

/// Parsed `/etc/os-release`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct OsRelease {
    /// Every key with its unquoted value.
    pub fields: BTreeMap<String, String>,
    /// 1-based line of each key.
    pub lines: BTreeMap<String, usize>,
}

impl OsRelease {
    /// `PRETTY_NAME`, else `NAME VERSION`, else `ID`.
    pub fn pretty_name(&self) -> Option<String> {
        let _ = self;
        None
    }
}

/// Is this `uname -a` output?
pub fn sniff_uname(head: &str) -> Sniff {
    let _ = head;
    Sniff::No
}

/// Is this an os-release file?
pub fn sniff_os_release(head: &str) -> Sniff {
    let _ = head;
    Sniff::No
}

/// Parses `uname -a`. Errors: [`ParseError::Unusable`] when the first non-blank line has fewer
/// than three fields.
pub fn parse_uname(text: &str) -> Result<Parsed<Uname>, ParseError> {
    let _ = (text, LineIssue::new(0, ""));
    Err(ParseError::unusable(None, "not implemented"))
}

/// Parses `/etc/os-release`. Errors: [`ParseError::Unusable`] when no `KEY=value` line exists.
pub fn parse_os_release(text: &str) -> Result<Parsed<OsRelease>, ParseError> {
    let _ = (text, LineIssue::new(0, ""));
    Err(ParseError::unusable(None, "not implemented"))
}
