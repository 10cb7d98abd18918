//! The number of open file descriptors of one process: `ls /proc/PID/fd | wc -l`, as the rca
//! collector writes it beside the process's `/proc/PID/limits`.
//!
//! `/proc/PID/fd/` holds one symbolic link per open descriptor (proc(5), "/proc/pid/fd/",
//! <https://man7.org/linux/man-pages/man5/proc.5.html>); counting its entries gives the
//! descriptors the process holds, to compare with its `Max open files` soft limit
//! (`RLIMIT_NOFILE`, getrlimit(2)). The count is read in the collector's shell, so the
//! descriptor `ls` itself opens is not among them. One number has no structure of its own: this
//! kind comes from its path only (`proc/<pid>/fd-count`, `jvm/<pid>/fd-count`), which names the
//! process.
//!
//! Sample input (coreutils 9.1 `ls` and `wc`, Linux 6.18, a process at its limit of 256):
//! ```text
//! 256
//! ```

use crate::common::{excerpt, numbered_lines, strip_bom, ParseError, Parsed};
use serde::Serialize;

/// Open descriptors of one process.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FdCount {
    /// Entries of `/proc/PID/fd`.
    pub open: u64,
    /// 1-based input line.
    pub line: usize,
}

/// Parses the count (`wc -l` output: one unsigned integer, possibly padded with blanks as
/// BusyBox and BSD `wc` print it).
///
/// Errors: [`ParseError::Unusable`] unless the first non-blank line is one unsigned integer.
pub fn parse(text: &str) -> Result<Parsed<FdCount>, ParseError> {
    let Some((n, line)) = numbered_lines(strip_bom(text)).find(|(_, l)| !l.trim().is_empty())
    else {
        return Err(ParseError::unusable(None, "input is empty"));
    };
    line.trim()
        .parse()
        .map(|open| Parsed::clean(FdCount { open, line: n }))
        .map_err(|_| {
            ParseError::unusable(
                Some(n),
                format!(
                    "expected one count of descriptors, found `{}`",
                    excerpt(line)
                ),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captured_counts() {
        let at_limit = parse(include_str!(
            "../../tests/fixtures/fd-count/captured-linux-6.18-emfile.txt"
        ))
        .unwrap()
        .value;
        assert_eq!((at_limit.open, at_limit.line), (256, 1));
        let small = parse(include_str!(
            "../../tests/fixtures/fd-count/captured-linux-6.18-ls-self.txt"
        ))
        .unwrap()
        .value;
        assert_eq!(small.open, 6);
        assert_eq!(parse("      12\n").unwrap().value.open, 12);
        for bad in ["", "twelve\n", "12 13\n", "-3\n"] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
