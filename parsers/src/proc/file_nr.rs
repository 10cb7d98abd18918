//! `/proc/sys/fs/file-nr`: the host's file handles — allocated, allocated but unused, and the
//! maximum (`fs.file-max`).
//!
//! Format (`Documentation/admin-guide/sysctl/fs.rst`, "file-max & file-nr",
//! <https://docs.kernel.org/admin-guide/sysctl/fs.html>): three numbers separated by tabs, "the
//! number of allocated file handles, the number of allocated but unused file handles, and the
//! maximum number of file handles". Linux 2.6 and later free unused handles at once, so the
//! second number is always 0 there. The kernel logs "VFS: file-max limit <n> reached" when
//! allocation fails at the maximum. Three numbers have no structure of their own, so this kind
//! comes from its path only (no sniffer); `sysctl -a` prints the same three as `fs.file-nr`.
//!
//! Seen on Linux 6.18 (`6.18.44`, Debian 12) and in hotsos's Ubuntu 20.04 test tree.
//!
//! Sample input (Linux 6.18; tabs shown as spaces):
//! ```text
//! 935    0    2466097
//! ```

use crate::common::{excerpt, numbered_lines, strip_bom, ParseError, Parsed};
use serde::Serialize;

/// One read of `/proc/sys/fs/file-nr`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FileNr {
    /// File handles allocated (open files of every process, plus the kernel's own).
    pub allocated: u64,
    /// Allocated but unused handles (0 since Linux 2.6).
    pub unused: u64,
    /// The maximum (`fs.file-max`).
    pub max: u64,
    /// 1-based input line.
    pub line: usize,
}

impl FileNr {
    /// Reads the three numbers of one line (`935\t0\t2466097`, also as `sysctl -a` prints the
    /// value); `None` unless the line is exactly three unsigned integers.
    pub fn from_values(text: &str, line: usize) -> Option<FileNr> {
        let v: Vec<u64> = text
            .split_whitespace()
            .map(|t| t.parse().ok())
            .collect::<Option<Vec<u64>>>()?;
        match v.as_slice() {
            [allocated, unused, max] => Some(FileNr {
                allocated: *allocated,
                unused: *unused,
                max: *max,
                line,
            }),
            _ => None,
        }
    }

    /// Handles in use: allocated minus unused.
    pub fn in_use(&self) -> u64 {
        self.allocated.saturating_sub(self.unused)
    }
}

/// Parses `/proc/sys/fs/file-nr`.
///
/// Errors: [`ParseError::Unusable`] unless the first non-blank line is three unsigned integers.
pub fn parse(text: &str) -> Result<Parsed<FileNr>, ParseError> {
    let Some((n, line)) = numbered_lines(strip_bom(text)).find(|(_, l)| !l.trim().is_empty())
    else {
        return Err(ParseError::unusable(None, "input is empty"));
    };
    FileNr::from_values(line, n)
        .map(Parsed::clean)
        .ok_or_else(|| {
            ParseError::unusable(
                Some(n),
                format!(
                    "expected `allocated unused max` (three integers), found `{}`",
                    excerpt(line)
                ),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captured_on_linux_6_18_and_hotsos_ubuntu() {
        let here = parse(include_str!(
            "../../tests/fixtures/file-nr/captured-linux-6.18-fd-exhausted.txt"
        ))
        .unwrap()
        .value;
        assert_eq!((here.allocated, here.unused, here.max), (935, 0, 2_466_097));
        let hotsos = parse(include_str!(
            "../../tests/fixtures/file-nr/hotsos__kubernetes-file-nr.txt"
        ))
        .unwrap()
        .value;
        assert_eq!(
            (hotsos.allocated, hotsos.unused, hotsos.max),
            (2112, 0, 9_223_372_036_854_775_807)
        );
        assert_eq!(hotsos.in_use(), 2112);
    }

    #[test]
    fn refuses_what_is_not_three_integers() {
        for bad in ["", "935\n", "935 0\n", "935 0 1 2\n", "a b c\n", "-1 0 5\n"] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
