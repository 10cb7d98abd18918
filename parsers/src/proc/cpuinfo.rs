//! `/proc/cpuinfo` (or its first lines, as the collector keeps them): one block per logical
//! CPU, each a list of `key<TAB>: value` lines, blocks separated by a blank line.
//!
//! Format: `Documentation/filesystems/proc.rst` ("cpuinfo") and each architecture's
//! `show_cpuinfo`. The keys depend on the architecture: x86 prints `model name` (Intel names end
//! in the nominal clock, `@ 2.60GHz`) and `cpu MHz` (the clock the kernel last measured for that
//! CPU); ARM (`arch/arm64/kernel/cpuinfo.c`, `arch/arm/kernel/setup.c`) prints `BogoMIPS` and
//! `CPU implementer`/`CPU part` and no clock at all — `mhz` is then `None`, never 0. The
//! separator is a tab then `: ` (text copied through some tools has spaces instead); only the
//! first ` : ` splits a line. A `head` of the file may end inside a block.
//!
//! Seen in: Linux 6.18 x86_64 (KVM guest, AMD EPYC, captured); arm64 in a container (cpu-core-counter's test data); insights-core's test data for a
//! 2-socket Intel Xeon E5-2670 and a 4-CPU ARMv7 (`armv7l`) board (arm64 prints the same keys, without a clock).
//!
//! Sample input (insights-core, x86_64, abridged; the kernel's tabs shown as spaces):
//! ```text
//! processor   : 0
//! model name  : Intel(R) Xeon(R) CPU E5-2670 0 @ 2.60GHz
//! cpu MHz     : 2359.484
//! ```

use crate::common::{head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff};
use serde::Serialize;

/// The processors listed.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Cpuinfo {
    /// One entry per `processor : N` block, in input order.
    pub processors: Vec<Processor>,
}

/// One `processor` block.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Processor {
    /// `processor`: the logical CPU number.
    pub processor: u32,
    /// 1-based line of `processor`.
    pub line: usize,
    /// `model name`, when printed.
    pub model_name: Option<String>,
    /// `cpu MHz` and its 1-based line (x86; absent on ARM).
    pub mhz: Option<(f64, usize)>,
}

impl Processor {
    /// The nominal clock an Intel model name ends with (`… @ 2.60GHz` → 2600 MHz), if any.
    pub fn nominal_mhz(&self) -> Option<f64> {
        let name = self.model_name.as_deref()?;
        let (_, at) = name.rsplit_once(" @ ")?;
        let ghz = crate::common::parse_num(at.trim().strip_suffix("GHz")?)?;
        (ghz.is_finite() && ghz > 0.0).then_some(ghz * 1000.0)
    }
}

/// `key : value` with the key trimmed, or `None`.
fn key_value(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(':')?;
    Some((k.trim(), v.trim()))
}

/// `/proc/cpuinfo`? `Yes` when the first non-blank line is `processor<TAB or spaces>: N` and
/// the next is another `key : value` line; `Unsure` when the head ends after the first; `No`
/// otherwise.
pub fn sniff(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    let Some((first, complete)) = lines.next() else {
        return Sniff::No;
    };
    let is_first = matches!(key_value(first), Some(("processor", n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        && first.starts_with("processor");
    if !is_first || !complete {
        return Sniff::No;
    }
    match lines.next() {
        None => Sniff::Unsure,
        Some((l, _)) if key_value(l).is_some_and(|(k, _)| !k.is_empty()) => Sniff::Yes,
        Some(_) => Sniff::No,
    }
}

/// Parses `/proc/cpuinfo` (whole or cut).
///
/// Errors: [`ParseError::Unusable`] when there is no `processor : N` line. A `cpu MHz` that is
/// not a number becomes an issue; keys before the first `processor` line (s390's header lines)
/// and other keys are skipped.
pub fn parse(text: &str) -> Result<Parsed<Cpuinfo>, ParseError> {
    let mut issues = Issues::default();
    let mut out = Cpuinfo::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let Some((k, v)) = key_value(line) else {
            continue;
        };
        if k == "processor" {
            if let Ok(p) = v.parse() {
                out.processors.push(Processor {
                    processor: p,
                    line: n,
                    ..Default::default()
                });
            }
            continue;
        }
        let Some(cur) = out.processors.last_mut() else {
            continue;
        };
        match k {
            "model name" => cur.model_name = Some(v.to_string()),
            "cpu MHz" => match crate::common::parse_num(v) {
                Some(m) => cur.mhz = Some((m, n)),
                _ => issues.push(n, || format!("`cpu MHz`: expected a number, found `{v}`")),
            },
            _ => {}
        }
    }
    if out.processors.is_empty() {
        return Err(ParseError::unusable(None, "no `processor : N` line"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const XEON: &str =
        include_str!("../../tests/fixtures/cpuinfo/insights-core__x86-e5-2670-2cpu.txt");
    const ARM: &str = include_str!("../../tests/fixtures/cpuinfo/insights-core__armv7-4cpu.txt");
    const ARM64: &str =
        include_str!("../../tests/fixtures/cpuinfo/cpu-core-counter__aarch64-docker-3cpu.txt");
    const EPYC: &str = include_str!("../../tests/fixtures/cpuinfo/captured-amd-epyc-kvm-head.txt");

    #[test]
    fn reads_x86_clocks_and_nominal() {
        let p = parse(XEON).unwrap();
        assert!(p.issues.is_empty());
        let c = &p.value.processors;
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].mhz, Some((2359.484, 8)));
        assert_eq!(c[0].nominal_mhz(), Some(2600.0));
        assert_eq!(c[1].mhz.map(|m| m.0), Some(3221.7));
        let e = parse(EPYC).unwrap().value;
        assert_eq!(e.processors[0].model_name.as_deref(), Some("AMD EPYC"));
        assert_eq!(e.processors[0].nominal_mhz(), None);
        assert_eq!(e.processors[0].mhz.map(|m| m.0), Some(2596.134));
    }

    #[test]
    fn arm_has_no_clock() {
        let a = parse(ARM).unwrap().value;
        assert_eq!(a.processors.len(), 4);
        assert!(a.processors.iter().all(|p| p.mhz.is_none()));
        assert_eq!(
            a.processors[3].model_name.as_deref(),
            Some("ARMv7 Processor rev 5 (v7l)")
        );
    }

    #[test]
    fn sniffs_cpuinfo_only() {
        for t in [XEON, ARM, ARM64, EPYC] {
            assert_eq!(sniff(t), Sniff::Yes);
        }
        assert_eq!(sniff("processor\t: 0\n"), Sniff::Unsure);
        assert_eq!(sniff("Architecture: x86_64\nCPU(s): 2\n"), Sniff::No);
        assert!(parse("Architecture: x86_64\n").is_err());
    }
}
