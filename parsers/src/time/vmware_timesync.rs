//! `vmware-toolbox-cmd timesync status`: whether VMware Tools sets the guest clock from the
//! host.
//!
//! One word (open-vm-tools 10.x–12.x):
//! ```text
//! Disabled
//! ```

use crate::common::{excerpt, numbered_lines, strip_bom, Issues, ParseError, Parsed};
use serde::Serialize;

/// Parsed `vmware-toolbox-cmd timesync status`: whether VMware Tools periodically sets the
/// guest clock from the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct VmwareTimesync {
    /// `Enabled` (true) or `Disabled` (false).
    pub enabled: bool,
    /// 1-based input line.
    pub line: usize,
}

fn vmware_word(t: &str) -> Option<bool> {
    match t.trim() {
        "Enabled" => Some(true),
        "Disabled" => Some(false),
        _ => None,
    }
}

/// Parses `vmware-toolbox-cmd timesync status`. Errors: [`ParseError::Unusable`] unless the
/// first non-blank line is `Enabled` or `Disabled`.
pub fn parse_vmware_timesync(text: &str) -> Result<Parsed<VmwareTimesync>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    let Some((n, line)) = lines.next() else {
        return Err(ParseError::unusable(None, "input is empty"));
    };
    let enabled = vmware_word(line).ok_or_else(|| {
        ParseError::unusable(
            Some(n),
            format!(
                "expected `Enabled` or `Disabled`, found `{}`",
                excerpt(line)
            ),
        )
    })?;
    let mut issues = Issues::default();
    for (m, extra) in lines {
        issues.push(m, || {
            format!("expected one line; ignored `{}`", excerpt(extra))
        });
    }
    Ok(Parsed {
        value: VmwareTimesync { enabled, line: n },
        issues: issues.into_vec(),
    })
}
