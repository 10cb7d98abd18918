//! VMware Tools statistics: `vmware-toolbox-cmd stat balloon`.
//!
//! open-vm-tools prints the memory currently reclaimed by the balloon driver as one line
//! (`toolbox/toolboxcmd-stat.c`, `StatGetBalloon`):
//! ```text
//! 2048 MB
//! ```
//! Errors such as `Could not get balloon size` or `Unable to get ...` come from a guest where
//! the query failed.

use crate::common::{excerpt, numbered_lines, strip_bom, ParseError, Parsed};
use serde::Serialize;

/// Memory held by the VMware balloon driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Balloon {
    /// Ballooned memory, MiB.
    pub mib: u64,
    /// 1-based input line.
    pub line: usize,
}

fn read(line: &str) -> Option<u64> {
    let mut t = line.split_whitespace();
    let n = t.next()?.parse::<u64>().ok()?;
    matches!(t.next(), Some("MB" | "MiB")).then_some(n)?;
    t.next().is_none().then_some(n)
}

/// Parses `vmware-toolbox-cmd stat balloon`. Errors: no `N MB` line.
pub fn parse_balloon(text: &str) -> Result<Parsed<Balloon>, ParseError> {
    let mut first = None;
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        if let Some(mib) = read(line) {
            return Ok(Parsed::clean(Balloon { mib, line: n }));
        }
        first.get_or_insert((n, excerpt(line)));
    }
    Err(match first {
        Some((n, l)) => ParseError::unusable(
            Some(n),
            format!("expected the balloon size as `N MB`, found `{l}`"),
        ),
        None => ParseError::unusable(None, "input is empty"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_failures() {
        assert_eq!(
            parse_balloon("2048 MB\n").unwrap().value,
            Balloon { mib: 2048, line: 1 }
        );
        assert_eq!(parse_balloon("\n0 MB\n").unwrap().value.line, 2);
        assert!(parse_balloon("Could not get balloon size\n").is_err());
        assert!(parse_balloon("").is_err());
    }
}
