//! `mem.balloon`: the hypervisor's memory balloon holds guest memory.
//!
//! Reads the VMware balloon driver (`vmw_balloon` in `lsmod`/`/proc/modules`) and the ballooned
//! size (`vmware-toolbox-cmd stat balloon`).

use crate::facts::{Fact, HostFacts};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Ballooned memory above this, MiB, is a warning.
const BALLOON_MIB: u64 = 0;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "mem.balloon",
    title: "Memory balloon active on a virtual machine",
    area: Area::Memory,
    severity: Severity::Warning,
    needs: &[Fact::Memory],
    reads: &[Fact::Modules],
    thresholds: &[Threshold {
        name: "balloon size",
        value: Limit::Count(BALLOON_MIB),
        unit: "MiB",
        meaning: "above it: a warning (memory reservations for latency-sensitive VMs avoid \
                  ballooning)",
        sources: &[
            Source::doc("VMware, Performance Best Practices for vSphere"),
            Source::Case(1),
        ],
    }],
    groups: &[SymptomGroup::Memory],
    explains: &[
        crate::rules::mem::swap::META.id,
        crate::rules::jvm::gc_overhead::META.id,
    ],
    fires_when: "the VMware balloon holds guest memory",
    checks: "The VMware balloon driver (`vmw_balloon` in `lsmod`/`/proc/modules`) and the \
             ballooned size from `vmware-toolbox-cmd stat balloon`.",
    why: "A balloon above zero means the hypervisor is reclaiming guest RAM because the host is \
          overcommitted: the guest swaps or drops page cache it believes it owns, and JVM heaps \
          are the first victims (case S1).",
    false_positives: "None while the balloon is inflated; a loaded driver with a 0 MiB balloon is \
                      not reported.",
    remedy: "Reserve the VM's memory in vSphere (or fix host overcommitment); keep JVM heaps \
             within the reservation.",
    file: file!(),
};

/// The balloon driver and the ballooned size.
pub fn check(f: &HostFacts) -> Check {
    let m = &f.memory;
    match (&m.balloon_driver, &m.balloon_mib) {
        (_, Some(b)) if b.value > BALLOON_MIB => {
            let mut ev = vec![b.evidence("ballooned memory")];
            if let Some(d) = &m.balloon_driver {
                ev.push(d.evidence("balloon driver loaded"));
            }
            Check::Found(vec![Finding {
                rule_id: META.id,
                // The balloon takes RAM the guest then swaps for.
                explains: META.explains.to_vec(),
                area: META.area,
                title: format!("The hypervisor has ballooned {} MiB out of this guest", b.value),
                severity: Severity::Warning,
                confidence: Confidence::High,
                why: "The balloon driver holds guest memory for the hypervisor: the host is overcommitted and this VM's memory is not reserved.".into(),
                details: Vec::new(),
                score: b.value as f64,
                time_range: None,
                evidence: ev,
            }])
        }
        (_, Some(_)) => Check::Clear("balloon at 0 MiB".into()),
        (Some(d), None) => Check::NotEvaluated(format!(
            "{} is loaded but the balloon size was not collected (`vmware-toolbox-cmd stat balloon`)",
            d.value
        )),
        (None, None) if f.modules.get().is_none_or(|m| m.is_empty()) => {
            Check::NotEvaluated("no module list (`lsmod`, `/proc/modules`) to look for a balloon driver".into())
        }
        (None, None) => Check::Clear("no balloon driver loaded".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    #[test]
    fn fires_when_the_balloon_holds_memory() {
        let mut f = HostFacts::default();
        f.memory.balloon_driver = Some(c("vmw_balloon".into()));
        f.memory.balloon_mib = Some(c(2048));
        assert!(found(check(&f))[0].title.contains("2048 MiB"));
    }

    #[test]
    fn clear_at_zero_and_not_evaluated_without_its_size_or_a_module_list() {
        let mut f = HostFacts::default();
        f.memory.balloon_driver = Some(c("vmw_balloon".into()));
        f.memory.balloon_mib = Some(c(0));
        assert!(is_clear(&check(&f)));
        f.memory.balloon_mib = None;
        assert!(is_not_evaluated(&check(&f)));
        f.memory.balloon_driver = None;
        assert!(is_not_evaluated(&check(&f)), "no module list at all");
    }
}
