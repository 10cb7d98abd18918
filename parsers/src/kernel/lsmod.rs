//! `lsmod` (kmod, BusyBox): the loaded kernel modules, as a table.
//!
//! ```text
//! Module                  Size  Used by
//! tun                    31881  3
//! llc                    14552  2 stp,bridge
//! ```
//! `lsmod` does not show taint letters; only [`/proc/modules`](super::modules) does. Rows are
//! read into the same [`Module`] record, with the `/proc/modules`-only fields left `None`.

use super::modules::{is_module_name, refcount, users, Module};
use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};

/// The `lsmod` header: `Module  Size  Used by` (BusyBox adds `Tainted: P`).
fn is_lsmod_header(line: &str) -> bool {
    let mut t = line.split_ascii_whitespace();
    t.next() == Some("Module")
        && t.next() == Some("Size")
        && t.next() == Some("Used")
        && t.next() == Some("by")
}

/// One `lsmod` row: `name size refcount [a,b]`.
fn lsmod_line(line: &str, line_no: usize) -> Result<Module, String> {
    let expected = "expected `name size used-count [users]`";
    let mut toks = line.split_ascii_whitespace();
    let (Some(name), Some(size), Some(refs)) = (toks.next(), toks.next(), toks.next()) else {
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
    let refcount = refcount(refs)
        .ok_or_else(|| format!("{expected}: used count `{}` is not a number", excerpt(refs)))?;
    let used_by = match (toks.next(), toks.next()) {
        (None, _) => Vec::new(),
        (Some(list), None) => users(list),
        (Some(_), Some(_)) => {
            return Err(format!("{expected}, found `{}`", excerpt(line)));
        }
    };
    Ok(Module {
        name: name.to_string(),
        size_bytes,
        refcount,
        used_by,
        state: None,
        address: None,
        taint: None,
        line: line_no,
    })
}

/// Is this `lsmod` output?
///
/// `Yes` when the first non-blank line is the `Module Size Used by` header; `No` otherwise.
pub fn sniff_lsmod(head: &str) -> Sniff {
    match head_lines(head).find(|(l, _)| !l.trim().is_empty()) {
        Some((line, _)) if is_lsmod_header(line) => Sniff::Yes,
        _ => Sniff::No,
    }
}

/// Parses `lsmod`. Errors: [`ParseError::Unusable`] when the `Module Size Used by` header is
/// missing.
pub fn parse_lsmod(text: &str) -> Result<Parsed<Vec<Module>>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    match lines.next() {
        Some((_, l)) if is_lsmod_header(l) => {}
        Some((n, l)) => {
            return Err(ParseError::unusable(
                Some(n),
                format!(
                    "expected the lsmod header `Module Size Used by` as the first line, found `{}`",
                    excerpt(l)
                ),
            ))
        }
        None => return Err(ParseError::unusable(None, "input is empty")),
    }
    let mut modules = Vec::new();
    let mut issues = Issues::default();
    for (n, line) in lines {
        match lsmod_line(line, n) {
            Ok(m) => modules.push(m),
            Err(msg) => issues.push(n, || msg),
        }
    }
    Ok(Parsed {
        value: modules,
        issues: issues.into_vec(),
    })
}
