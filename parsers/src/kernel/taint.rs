//! `/proc/sys/kernel/tainted`: why the kernel is tainted.
//!
//! One decimal number whose bits are decoded with the table of
//! `Documentation/admin-guide/tainted-kernels.rst` (`4097` = `P` proprietary module + `O`
//! out-of-tree module):
//! ```text
//! 4097
//! ```

use crate::common::{excerpt, numbered_lines, strip_bom, Issues, ParseError, Parsed};
use serde::Serialize;

/// One taint bit that is set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TaintFlag {
    /// Bit number (0–63).
    pub bit: u8,
    /// The letter the kernel prints for it (`P`, `O`, `E`); `?` for a bit the table does not
    /// know.
    pub letter: char,
    /// The table's reason (`proprietary module was loaded`).
    pub reason: &'static str,
}

/// Decoded `/proc/sys/kernel/tainted`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Taint {
    /// The value as read.
    pub value: u64,
    /// The bits that are set, lowest first.
    pub flags: Vec<TaintFlag>,
    /// 1-based input line.
    pub line: usize,
}

impl Taint {
    /// The letters of the set bits, in bit order (`PO` for 4097).
    pub fn letters(&self) -> String {
        self.flags.iter().map(|f| f.letter).collect()
    }
}

/// Bit → (letter, reason), from `Documentation/admin-guide/tainted-kernels.rst`.
pub const TAINT_BITS: [(char, &str); 20] = [
    ('P', "proprietary module was loaded"),
    ('F', "module was force loaded"),
    ('S', "kernel running on an out of specification system"),
    ('R', "module was force unloaded"),
    ('M', "processor reported a Machine Check Exception (MCE)"),
    ('B', "bad page referenced or some unexpected page flags"),
    ('U', "taint requested by userspace application"),
    ('D', "kernel died recently, i.e. there was an OOPS or BUG"),
    ('A', "ACPI table overridden by user"),
    ('W', "kernel issued warning"),
    ('C', "staging driver was loaded"),
    ('I', "workaround for bug in platform firmware applied"),
    ('O', "externally-built (\"out-of-tree\") module was loaded"),
    ('E', "unsigned module was loaded"),
    ('L', "soft lockup occurred"),
    ('K', "kernel has been live patched"),
    ('X', "auxiliary taint, defined for and used by distros"),
    ('T', "kernel was built with the struct randomization plugin"),
    ('N', "an in-kernel test has been run"),
    ('J', "userspace used a mutating debug operation in fwctl"),
];

/// Decodes a taint value into its set bits.
pub fn decode_taint(value: u64) -> Vec<TaintFlag> {
    (0..64u8)
        .filter(|b| value >> b & 1 == 1)
        .map(|bit| {
            let (letter, reason) = TAINT_BITS
                .get(usize::from(bit))
                .copied()
                .unwrap_or(('?', "bit not in the kernel's taint table"));
            TaintFlag {
                bit,
                letter,
                reason,
            }
        })
        .collect()
}

/// Parses `/proc/sys/kernel/tainted`. Errors: [`ParseError::Unusable`] unless the first
/// non-blank line is an unsigned integer.
pub fn parse_tainted(text: &str) -> Result<Parsed<Taint>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    let Some((n, line)) = lines.next() else {
        return Err(ParseError::unusable(None, "input is empty"));
    };
    let value: u64 = line.trim().parse().map_err(|_| {
        ParseError::unusable(
            Some(n),
            format!("expected one unsigned integer, found `{}`", excerpt(line)),
        )
    })?;
    let mut issues = Issues::default();
    for (m, extra) in lines {
        issues.push(m, || {
            format!("expected one line; ignored `{}`", excerpt(extra))
        });
    }
    Ok(Parsed {
        value: Taint {
            value,
            flags: decode_taint(value),
            line: n,
        },
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taint_letters() {
        let t = decode_taint(4097);
        assert_eq!(
            t.iter().map(|f| f.letter).collect::<String>(),
            "PO".to_string()
        );
        assert_eq!(decode_taint(0), vec![]);
        assert_eq!(decode_taint(1 << 40)[0].letter, '?');
        assert_eq!(decode_taint(u64::MAX).len(), 64);
    }
}
