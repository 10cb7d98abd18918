//! One cpufreq sysfs attribute of one CPU: `/sys/devices/system/cpu/cpuN/cpufreq/ATTR`
//! (`scaling_governor`, `scaling_driver`, `scaling_cur_freq`, `scaling_max_freq`,
//! `scaling_min_freq`, `cpuinfo_max_freq`, `cpuinfo_min_freq`, `cpuinfo_cur_freq`).
//!
//! Format (`Documentation/admin-guide/pm/cpufreq.rst`, "Policy Interface in sysfs",
//! <https://docs.kernel.org/admin-guide/pm/cpufreq.html>): one value and a newline — a name for
//! `scaling_governor` and `scaling_driver`, a frequency in kHz for the `*_freq` attributes.
//! Neither the CPU nor the attribute is in the text: both come from the file's path, so this
//! kind has no sniffer (one word or one number says nothing by itself).
//!
//! Seen in: prometheus/node_exporter's sysfs test fixtures (`scaling_cur_freq`,
//! `scaling_max_freq`), and as the kernel document describes.
//!
//! Sample input (`scaling_cur_freq`, kHz):
//! ```text
//! 1699981
//! ```

use crate::common::{excerpt, numbered_lines, strip_bom, ParseError, Parsed};
use serde::Serialize;

/// The value of one cpufreq attribute file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CpufreqValue {
    /// 1-based input line.
    pub line: usize,
    /// The value as printed (`performance`, `intel_pstate`, `1699981`).
    pub value: String,
}

impl CpufreqValue {
    /// The value as a frequency in kHz, when it is one (the `*_freq` attributes).
    pub fn khz(&self) -> Option<u64> {
        (self.value.bytes().all(|b| b.is_ascii_digit()))
            .then(|| self.value.parse().ok())
            .flatten()
    }
}

/// Parses one cpufreq attribute file.
///
/// Errors: [`ParseError::Unusable`] when the first non-blank line is not exactly one token of
/// letters, digits, `_` or `-` (a `<unsupported>` or an error message included).
pub fn parse(text: &str) -> Result<Parsed<CpufreqValue>, ParseError> {
    let Some((n, line)) = numbered_lines(strip_bom(text)).find(|(_, l)| !l.trim().is_empty())
    else {
        return Err(ParseError::unusable(None, "empty"));
    };
    let v = line.trim();
    let token = !v.is_empty()
        && v.len() <= 64
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !token {
        return Err(ParseError::unusable(
            Some(n),
            format!("expected one name or number, found `{}`", excerpt(line)),
        ));
    }
    Ok(Parsed::clean(CpufreqValue {
        line: n,
        value: v.to_string(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CUR: &str =
        include_str!("../../tests/fixtures/cpufreq/node_exporter__cpu0-scaling_cur_freq");
    const MAX: &str =
        include_str!("../../tests/fixtures/cpufreq/node_exporter__cpu1-scaling_max_freq");

    #[test]
    fn reads_frequencies_and_names() {
        let c = parse(CUR).unwrap().value;
        assert_eq!((c.line, c.khz()), (1, Some(1_699_981)));
        assert_eq!(parse(MAX).unwrap().value.khz(), Some(3_700_000));
        let g = parse("performance\n").unwrap().value;
        assert_eq!((g.value.as_str(), g.khz()), ("performance", None));
    }

    #[test]
    fn refuses_other_text() {
        assert!(parse("").is_err());
        assert!(parse("<unsupported>\n").is_err());
        assert!(parse("cat: scaling_governor: No such file or directory\n").is_err());
    }
}
