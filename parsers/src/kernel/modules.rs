//! `/proc/modules`: the loaded kernel modules, with their taint letters.
//!
//! One line per module:
//! ```text
//! zfs 4034560 6 - Live 0xffffffffc0a3f000 (PO)
//! binfmt_misc 24576 1 - Live 0xffffffffc0ab4000
//! ```
//! fields: name, size in bytes, reference count, users (`-` or `a,b,`), state (`Live`,
//! `Loading`, `Unloading`), load address (`0x0000000000000000` without root), and — only on
//! tainting modules — the taint letters in parentheses (`P` proprietary, `O` out-of-tree,
//! `E` unsigned, `F` forced, `C` staging, `X` externally supported).
//!
//! The [`Module`] record is shared with [`lsmod`](super::lsmod), which reads the same list
//! without states, addresses and taint letters.

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
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
    /// Names of modules using this one (the kernel's `[permanent]` marker, for a module that
    /// cannot be unloaded, is not a name and is left out).
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

/// Module states printed in `/proc/modules`.
const STATES: &[&str] = &["Live", "Loading", "Unloading"];

/// A module name as the kernel allows it (no spaces, no `/`).
pub(super) fn is_module_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// The `Used by` list: `a,b,` or `-` (none). `[permanent]` is dropped.
pub(super) fn users(list: &str) -> Vec<String> {
    if list == "-" {
        return Vec::new();
    }
    list.split(',')
        .filter(|u| !u.is_empty() && *u != "[permanent]" && *u != "-")
        .map(str::to_string)
        .collect()
}

/// A reference count, `-` when the kernel has no module unloading.
pub(super) fn refcount(s: &str) -> Option<Option<u32>> {
    if s == "-" {
        Some(None)
    } else {
        s.parse().ok().map(Some)
    }
}

/// One `/proc/modules` line: `name size refcount users state address [(taint)]`.
fn proc_modules_line(line: &str, line_no: usize) -> Result<Module, String> {
    let toks: Vec<&str> = line.split_ascii_whitespace().take(8).collect();
    let expected = "expected `name size refcount users state address [(taint)]`";
    let [name, size, refs, used, state, rest @ ..] = toks.as_slice() else {
        return Err(format!("{expected}, found `{}`", excerpt(line)));
    };
    if !is_module_name(name) {
        return Err(format!(
            "{expected}: `{}` is not a module name",
            excerpt(name)
        ));
    }
    let size_bytes = size
        .parse()
        .map_err(|_| format!("{expected}: size `{}` is not a number", excerpt(size)))?;
    let refcount = refcount(refs).ok_or_else(|| {
        format!(
            "{expected}: reference count `{}` is not a number",
            excerpt(refs)
        )
    })?;
    if !STATES.contains(state) {
        return Err(format!(
            "{expected}: state `{}` is not Live, Loading or Unloading",
            excerpt(state)
        ));
    }
    let mut address = None;
    let mut taint = None;
    for tok in rest {
        if let Some(hex) = tok.strip_prefix("0x") {
            address = Some(u64::from_str_radix(hex, 16).map_err(|_| {
                format!("{expected}: address `{}` is not hexadecimal", excerpt(tok))
            })?);
        } else if let Some(t) = tok.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
            taint = Some(t.to_string());
        } else {
            return Err(format!(
                "{expected}: unexpected `{}` at the end",
                excerpt(tok)
            ));
        }
    }
    if rest.len() > 2 {
        return Err(format!("{expected}, found `{}`", excerpt(line)));
    }
    Ok(Module {
        name: name.to_string(),
        size_bytes,
        refcount,
        used_by: users(used),
        state: Some(state.to_string()),
        address,
        taint,
        line: line_no,
    })
}

/// Is this `/proc/modules` text?
///
/// `Yes` when the complete lines of the head all have the module layout (`… Live 0x…`); the last
/// line may be cut. `Unsure` when most do; `No` otherwise (lsmod has a header and no state).
pub fn sniff_proc_modules(head: &str) -> Sniff {
    let (mut good, mut bad) = (0, 0);
    for (line, complete) in head_lines(head) {
        if line.trim().is_empty() {
            continue;
        }
        match proc_modules_line(line, 0) {
            Ok(_) => good += 1,
            Err(_) if complete => bad += 1,
            Err(_) => {}
        }
    }
    match (good, bad) {
        (0, _) => Sniff::No,
        (_, 0) => Sniff::Yes,
        (g, b) if g > 2 * b => Sniff::Unsure,
        _ => Sniff::No,
    }
}

/// Parses `/proc/modules`. Errors: [`ParseError::Unusable`] when no line has the module layout.
pub fn parse_proc_modules(text: &str) -> Result<Parsed<Vec<Module>>, ParseError> {
    let mut modules = Vec::new();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        match proc_modules_line(line, n) {
            Ok(m) => modules.push(m),
            Err(msg) => issues.push(n, || msg),
        }
    }
    if modules.is_empty() {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty".to_string()
            } else {
                "no line has the /proc/modules layout `name size refcount users state address`"
                    .to_string()
            },
        ));
    }
    Ok(Parsed {
        value: modules,
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permanent_and_no_unload_support() {
        // CONFIG_MODULE_UNLOAD=n prints `- -`; a module without an exit function is
        // `[permanent]`.
        let text = "ext4 7340032 - - Live 0x0000000000000000\n\
                    crc16 16384 1 ext4,[permanent], Live 0x0000000000000000 (E)\n";
        let p = parse_proc_modules(text).unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        assert_eq!(p.value[0].refcount, None);
        assert_eq!(p.value[1].used_by, vec!["ext4".to_string()]);
        assert_eq!(p.value[1].address, Some(0));
        assert_eq!(p.value[1].taint.as_deref(), Some("E"));
    }
}
