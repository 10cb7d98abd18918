//! `kernel.machine-check`: hardware errors the CPU or the memory controller reported.
//!
//! Reads the kernel log events: `mce: [Hardware Error]: …` (arch/x86/kernel/cpu/mce/core.c),
//! `Machine check events logged`, and the EDAC counts `EDAC MC0: 1 CE …` / `1 UE …`
//! (drivers/edac/edac_mc.c).

use crate::facts::klog::{EventKind, KernelEvent};
use crate::facts::{Fact, HostFacts};
use crate::rules::klog::{count_rule, RECENT, RECENT_S};
use crate::rules::{Area, Check, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold};

const EDAC: Source = Source::Doc {
    document: "Linux kernel documentation, Documentation/driver-api/edac.rst",
    section: Some("Memory Controllers: corrected and uncorrected errors"),
    url: Some("https://docs.kernel.org/driver-api/edac.html"),
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "kernel.machine-check",
    title: "Hardware errors (machine checks, EDAC)",
    area: Area::Kernel,
    severity: Severity::Critical,
    needs: &[Fact::KernelLog],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "`[Hardware Error]`, `EDAC MCn: N CE|UE` messages",
            value: Limit::Any,
            unit: "messages",
            meaning: "any uncorrected error (`UE`, `Uncorrected`): critical; corrected or \
                      unspecified ones: a warning (hardware degrading)",
            sources: &[EDAC],
        },
        Threshold {
            name: "time before the window",
            value: Limit::Num(RECENT_S),
            unit: "s",
            meaning: "within it (or during the window): as above; older only: information",
            sources: &[RECENT],
        },
    ],
    groups: &[SymptomGroup::KernelCpu, SymptomGroup::Memory],
    explains: &[],
    fires_when: "the kernel log reports a machine check or an EDAC memory error",
    checks: "The kernel log's machine check (`mce: [Hardware Error]`) and EDAC memory controller \
             (`EDAC MC0: 1 CE …`, `1 UE …`) messages.",
    why: "Corrected errors cost time (the CPU or the memory controller retries, firmware logs) \
          and announce failing DIMMs or CPUs; an uncorrected error kills the process that \
          touched the page, or panics the host.",
    false_positives: "A single corrected error on a large-memory host is within normal rates; \
                      some firmware replays old records at boot.",
    remedy: "Decode the record (`mcelog`, `rasdaemon`'s `ras-mc-ctl --errors`), find the DIMM or \
             CPU by its location, and have the vendor replace it.",
    file: file!(),
};

fn keep(e: &KernelEvent) -> bool {
    matches!(e.kind, EventKind::MachineCheck { .. })
}

fn severity(ev: &[&KernelEvent]) -> Severity {
    if ev.iter().any(|e| {
        matches!(
            e.kind,
            EventKind::MachineCheck {
                corrected: Some(false)
            }
        )
    }) {
        Severity::Critical
    } else {
        Severity::Warning
    }
}

fn what(ev: &[&KernelEvent]) -> String {
    let ue = ev
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::MachineCheck {
                    corrected: Some(false)
                }
            )
        })
        .count();
    if ue > 0 {
        format!(" ({ue} uncorrected)")
    } else {
        String::new()
    }
}

/// Machine check and EDAC messages.
pub fn check(f: &HostFacts) -> Check {
    count_rule(
        &META,
        f,
        keep,
        severity,
        ("hardware error message", "hardware error messages"),
        what,
        "The CPU or the memory controller reported hardware errors.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::klog::testkit::{ev, facts};
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    #[test]
    fn fires_critical_on_an_uncorrected_error() {
        let f = facts(vec![ev(
            EventKind::MachineCheck {
                corrected: Some(false),
            },
            Some(0.0),
            3,
            "EDAC MC0: 1 UE memory read error on CPU_SrcID#0_Ha#0_Chan#1_DIMM#0",
        )]);
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Critical);
        assert_eq!(
            v[0].title,
            "1 hardware error message (1 uncorrected) during or within an hour before the collection window"
        );
    }

    #[test]
    fn fires_as_warning_on_corrected_errors() {
        let f = facts(vec![ev(
            EventKind::MachineCheck {
                corrected: Some(true),
            },
            Some(0.0),
            3,
            "EDAC MC0: 1 CE memory read error",
        )]);
        assert_eq!(found(check(&f))[0].severity, Severity::Warning);
    }

    #[test]
    fn clear_without_messages() {
        assert!(is_clear(&check(&facts(vec![]))));
    }

    #[test]
    fn not_evaluated_without_a_kernel_log() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
