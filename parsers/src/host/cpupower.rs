//! `cpupower frequency-info` (linux-tools `cpupower`, also sosreport's
//! `sos_commands/processor/cpupower_frequency-info`): the cpufreq driver, governor, limits and
//! current frequency of one CPU (or of every CPU with `cpupower -c all frequency-info`).
//!
//! Format, as `cpupower`'s `cpufreq-info.c` prints it: one block per CPU opened by
//! `analyzing CPU N:`, then two-space-indented `key: value` lines — `driver: NAME` (or `no or
//! unknown cpufreq driver is active on this CPU` when the kernel has none, as in most virtual
//! machines), `hardware limits: MIN - MAX`, `available cpufreq governors: …`, `current policy:
//! frequency should be within MIN and MAX.` continued by `The governor "NAME" may decide which
//! speed to use` (or `Unable to determine current policy`), and `current CPU frequency:` printed
//! twice — first as read from the hardware (`Unable to call hardware` without root or the `msr`
//! module), then as the kernel asserts it —, then `boost state support:` with `Supported:` and
//! `Active:`. Frequencies carry their unit (`800 MHz`, `3.00 GHz`, `kHz`, `Hz`); they are
//! converted to MHz here. `cpupower` does not translate its labels.
//!
//! Seen in: cpupower 6.1 (Debian 12, captured on a KVM guest without a cpufreq driver, with and
//! without the `modprobe: FATAL: Module msr not found` line it writes to stderr); insights-core's
//! test data for an `intel_pstate` host (4 CPUs, governor `performance`).
//!
//! Sample input (insights-core, `intel_pstate`):
//! ```text
//! analyzing CPU 0:
//!   driver: intel_pstate
//!   hardware limits: 800 MHz - 3.00 GHz
//!   available cpufreq governors: performance powersave
//!   current policy: frequency should be within 800 MHz and 3.00 GHz.
//!                   The governor "performance" may decide which speed to use
//!                   within this range.
//!   current CPU frequency: Unable to call hardware
//!   current CPU frequency: 1.22 GHz (asserted by call to kernel)
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// The blocks of one `cpupower frequency-info` output, one per CPU analyzed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CpupowerFrequencyInfo {
    /// One entry per `analyzing CPU N:` block, in input order.
    pub cpus: Vec<CpuFrequencyInfo>,
}

/// What `cpupower` printed for one CPU. Values it could not determine are `None`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct CpuFrequencyInfo {
    /// CPU number (`analyzing CPU N:`).
    pub cpu: u32,
    /// 1-based line of `analyzing CPU N:`.
    pub line: usize,
    /// `driver:` (`intel_pstate`, `intel_cpufreq`, `acpi-cpufreq`, `amd-pstate`, …), `None` when
    /// no driver is active.
    pub driver: Option<String>,
    /// `true` on `no or unknown cpufreq driver is active on this CPU`.
    pub no_driver: bool,
    /// 1-based line of the driver statement (either form).
    pub driver_line: Option<usize>,
    /// `hardware limits:` minimum and maximum, MHz.
    pub hardware_limits_mhz: Option<(f64, f64)>,
    /// `available cpufreq governors:`, in printed order (empty on `Not Available`).
    pub available_governors: Vec<String>,
    /// `current policy: frequency should be within MIN and MAX`, MHz.
    pub policy_limits_mhz: Option<(f64, f64)>,
    /// `The governor "NAME" may decide …`.
    pub governor: Option<String>,
    /// 1-based line of the governor's name.
    pub governor_line: Option<usize>,
    /// `current CPU frequency:`, MHz: the hardware's reading when there is one, else the
    /// kernel's.
    pub current_mhz: Option<f64>,
    /// Who asserted `current_mhz`: `hardware` or `kernel`.
    pub current_asserted_by: Option<String>,
    /// 1-based line of `current_mhz`.
    pub current_line: Option<usize>,
    /// `boost state support:` `Active: yes|no`.
    pub boost_active: Option<bool>,
}

/// `analyzing CPU N:` → `N`.
fn block_start(line: &str) -> Option<u32> {
    let n = line
        .trim_end()
        .strip_prefix("analyzing CPU ")?
        .strip_suffix(':')?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .then(|| n.parse().ok())
        .flatten()
}

/// `800 MHz`, `3.00 GHz`, `1200000 kHz`, `12 Hz` → MHz.
fn speed(s: &str) -> Option<f64> {
    let mut t = s.split_whitespace();
    let v: f64 = t.next()?.parse().ok().filter(|v: &f64| v.is_finite())?;
    let scale = match t.next()? {
        "GHz" => 1000.0,
        "MHz" => 1.0,
        "kHz" => 0.001,
        "Hz" => 0.000_001,
        _ => return None,
    };
    Some(v * scale)
}

/// `MIN - MAX` or `MIN and MAX` → MHz pair.
fn range(s: &str, sep: &str) -> Option<(f64, f64)> {
    let (a, b) = s.split_once(sep)?;
    Some((speed(a)?, speed(b.trim_end_matches('.'))?))
}

/// `cpupower frequency-info` output? `Yes` when a line `analyzing CPU N:` is followed by a
/// two-space-indented `driver: ` or `no or unknown cpufreq driver` line (lines before it, such
/// as `modprobe`'s complaint on stderr, are allowed); `Unsure` when the head ends right after
/// the `analyzing CPU N:` line; `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    let mut opened = false;
    for (line, complete) in head_lines(head) {
        if opened {
            if !complete {
                return Sniff::Unsure;
            }
            return if line.starts_with("  driver: ")
                || line.starts_with("  no or unknown cpufreq driver")
            {
                Sniff::Yes
            } else {
                Sniff::No
            };
        }
        if complete && block_start(line).is_some() {
            opened = true;
        }
    }
    if opened {
        Sniff::Unsure
    } else {
        Sniff::No
    }
}

/// Parses `cpupower frequency-info` (one CPU or `-c all`).
///
/// Errors: [`ParseError::Unusable`] when there is no `analyzing CPU N:` block. Lines before the
/// first block (a tool's complaint on stderr) and values that cannot be read become issues;
/// labels this parser does not know are skipped silently (later versions add some).
pub fn parse(text: &str) -> Result<Parsed<CpupowerFrequencyInfo>, ParseError> {
    let mut issues = Issues::default();
    let mut cpus: Vec<CpuFrequencyInfo> = Vec::new();
    let mut in_boost = false;
    for (n, raw) in numbered_lines(strip_bom(text)) {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(cpu) = block_start(raw) {
            cpus.push(CpuFrequencyInfo {
                cpu,
                line: n,
                ..Default::default()
            });
            in_boost = false;
            continue;
        }
        let Some(cur) = cpus.last_mut() else {
            issues.push(n, || {
                format!(
                    "before the first `analyzing CPU N:` line: `{}`",
                    excerpt(raw)
                )
            });
            continue;
        };
        if line == "no or unknown cpufreq driver is active on this CPU" {
            cur.no_driver = true;
            cur.driver_line = Some(n);
            continue;
        }
        if let Some(rest) = line.strip_prefix("The governor \"") {
            match rest.split_once('"') {
                Some((g, _)) if !g.is_empty() => {
                    cur.governor = Some(g.to_string());
                    cur.governor_line = Some(n);
                }
                _ => issues.push(n, || format!("unreadable governor: `{}`", excerpt(raw))),
            }
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match key {
            "driver" => {
                cur.driver = Some(value.to_string());
                cur.driver_line = Some(n);
            }
            "hardware limits" => {
                cur.hardware_limits_mhz = range(value, " - ");
                if cur.hardware_limits_mhz.is_none() {
                    issues.push(n, || {
                        format!("unreadable hardware limits: `{}`", excerpt(value))
                    });
                }
            }
            "available cpufreq governors" if value != "Not Available" => {
                cur.available_governors = value.split_whitespace().map(str::to_string).collect();
            }
            "current policy" => {
                let inner = value.strip_prefix("frequency should be within ");
                cur.policy_limits_mhz = inner.and_then(|v| range(v, " and "));
                if cur.policy_limits_mhz.is_none() {
                    issues.push(n, || {
                        format!("unreadable policy limits: `{}`", excerpt(value))
                    });
                }
            }
            "current CPU frequency" => {
                // Printed twice: the hardware's reading first, then the kernel's; failures
                // (`Unable to call hardware`, `Unable to call to kernel`) carry no number.
                let Some(mhz) = speed(value) else { continue };
                let by = value
                    .split_once("(asserted by call to ")
                    .map(|(_, b)| b.trim_end_matches(')').to_string());
                if cur.current_asserted_by.as_deref() != Some("hardware") {
                    cur.current_mhz = Some(mhz);
                    cur.current_asserted_by = by;
                    cur.current_line = Some(n);
                }
            }
            "boost state support" => in_boost = true,
            "Active" if in_boost => cur.boost_active = Some(value == "yes"),
            _ => {}
        }
    }
    if cpus.is_empty() {
        return Err(ParseError::unusable(None, "no `analyzing CPU N:` line"));
    }
    Ok(Parsed {
        value: CpupowerFrequencyInfo { cpus },
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PSTATE: &str = include_str!(
        "../../tests/fixtures/cpupower-frequency-info/insights-core__intel-pstate-4cpu.txt"
    );
    const VM: &str =
        include_str!("../../tests/fixtures/cpupower-frequency-info/captured-vm-no-driver.txt");
    const VM_STDERR: &str = include_str!(
        "../../tests/fixtures/cpupower-frequency-info/captured-vm-no-driver-with-stderr.txt"
    );
    const VM_ALL: &str = include_str!(
        "../../tests/fixtures/cpupower-frequency-info/captured-vm-c-all-with-stderr.txt"
    );

    #[test]
    fn reads_intel_pstate_blocks() {
        let p = parse(PSTATE).unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let c = &p.value.cpus;
        assert_eq!(c.len(), 4);
        assert_eq!(c[0].driver.as_deref(), Some("intel_pstate"));
        assert_eq!(c[0].hardware_limits_mhz, Some((800.0, 3000.0)));
        assert_eq!(c[0].policy_limits_mhz, Some((800.0, 3000.0)));
        assert_eq!(c[0].governor.as_deref(), Some("performance"));
        assert_eq!(c[0].governor_line, Some(9));
        assert_eq!(c[0].available_governors, ["performance", "powersave"]);
        assert_eq!(c[0].current_mhz, Some(1220.0));
        assert_eq!(c[0].current_asserted_by.as_deref(), Some("kernel"));
        assert_eq!(c[0].boost_active, Some(true));
        assert_eq!((c[3].cpu, c[3].current_mhz), (3, Some(868.0)));
    }

    #[test]
    fn reads_a_vm_without_driver() {
        for (text, blocks, issues) in [(VM, 1, 0), (VM_STDERR, 1, 1), (VM_ALL, 2, 1)] {
            let p = parse(text).unwrap();
            assert_eq!(p.issues.len(), issues, "{:?}", p.issues);
            assert_eq!(p.value.cpus.len(), blocks);
            let c = &p.value.cpus[0];
            assert!(c.no_driver);
            assert_eq!((c.driver.as_deref(), c.governor.as_deref()), (None, None));
            assert_eq!((c.current_mhz, c.boost_active), (None, Some(false)));
            assert!(c.available_governors.is_empty());
        }
    }

    #[test]
    fn sniffs_its_outputs_only() {
        for t in [PSTATE, VM, VM_STDERR, VM_ALL] {
            assert_eq!(sniff(t), Sniff::Yes);
        }
        assert_eq!(sniff("analyzing CPU 0:\n"), Sniff::Unsure);
        assert_eq!(sniff("analyzing CPU 0:\nsomething else\n"), Sniff::No);
        assert_eq!(sniff("cpu MHz : 1200\n"), Sniff::No);
        assert!(parse("").is_err());
    }
}
