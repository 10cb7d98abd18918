//! `cpu.thermal-throttle`: CPUs slowed down for temperature or power limits.
//!
//! Reads the kernel log events `CPU0: Core temperature above threshold, cpu clock throttled`,
//! `Package temperature above threshold` and `Core|Package power limit notification`
//! (arch/x86/kernel/cpu/mce/therm_throt.c).

use crate::facts::klog::{EventKind, KernelEvent};
use crate::facts::{Fact, HostFacts};
use crate::rules::klog::{count_rule, on_cpus, RECENT, RECENT_S};
use crate::rules::{Area, Check, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "cpu.thermal-throttle",
    title: "CPU clock throttled for temperature or power",
    area: Area::Cpu,
    severity: Severity::Warning,
    needs: &[Fact::KernelLog],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "`temperature above threshold, cpu clock throttled`, `power limit notification`",
            value: Limit::Any,
            unit: "messages",
            meaning: "any: the processor lowered its clock (PROCHOT or a power limit) — a warning",
            sources: &[Source::Doc {
                document: "Linux kernel source, arch/x86/kernel/cpu/mce/therm_throt.c",
                section: Some("therm_throt_process(): \"%s temperature above threshold, cpu clock throttled\""),
                url: Some("https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/arch/x86/kernel/cpu/mce/therm_throt.c"),
            }],
        },
        Threshold {
            name: "time before the window",
            value: Limit::Num(RECENT_S),
            unit: "s",
            meaning: "within it (or during the window): a warning; older only: information",
            sources: &[RECENT],
        },
    ],
    groups: &[SymptomGroup::KernelCpu],
    explains: &[],
    fires_when: "the kernel log reports thermal or power-limit throttling",
    checks: "The x86 thermal-throttling messages of the kernel log, per CPU: core and package \
             temperature above the threshold, and power-limit notifications (older kernels).",
    why: "A throttled CPU runs below its nominal clock: the same work takes longer, which reads \
          as high utilisation and latency without more load. Causes are cooling (fans, airflow, \
          dust), power capping in the firmware, or a power supply at its limit.",
    false_positives: "Brief spikes at full turbo on a well-cooled host log a few events and \
                      cost little; laptops and edge devices throttle by design.",
    remedy: "Check the BMC's sensors and fan status, the BIOS power profile (power capping, \
             `Performance` profile), and the data-centre inlet temperature.",
    file: file!(),
};

fn keep(e: &KernelEvent) -> bool {
    matches!(e.kind, EventKind::Throttle { .. })
}

fn what(ev: &[&KernelEvent]) -> String {
    let cpus = ev.iter().filter_map(|e| match e.kind {
        EventKind::Throttle { cpu, .. } => cpu,
        _ => None,
    });
    on_cpus(cpus)
}

/// Throttling messages.
pub fn check(f: &HostFacts) -> Check {
    count_rule(
        &META,
        f,
        keep,
        |_| Severity::Warning,
        ("throttling message", "throttling messages"),
        what,
        "The processor lowered its clock for temperature or power.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::klog::testkit::{ev, facts};
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    #[test]
    fn fires_on_core_temperature() {
        let f = facts(vec![ev(
            EventKind::Throttle {
                cpu: Some(0),
                what: "core temperature",
            },
            Some(60.0),
            11,
            "CPU0: Core temperature above threshold, cpu clock throttled (total events = 1)",
        )]);
        assert_eq!(
            found(check(&f))[0].title,
            "1 throttling message on CPU 0 during or within an hour before the collection window"
        );
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
