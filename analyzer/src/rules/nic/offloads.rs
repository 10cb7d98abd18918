//! `nic.offloads`: segmentation or receive offloads turned off.
//!
//! Reads each NIC's offload features (`ethtool -k`): which are off, and whether `[fixed]`.

use crate::facts::{Fact, HostFacts, Nic};
use crate::rules::common::finding;
use crate::rules::{
    Area, Check, Confidence, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Offloads whose absence costs CPU per packet on a host that is a TCP endpoint.
const KEY_OFFLOADS: &[&str] = &[
    "tcp-segmentation-offload",
    "generic-receive-offload",
    "generic-segmentation-offload",
];

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "nic.offloads",
    title: "Segmentation or receive offloads are off",
    area: Area::Network,
    severity: Severity::Warning,
    needs: &[Fact::Nics],
    reads: &[],
    thresholds: &[Threshold {
        name: "offload off and not `[fixed]`",
        value: Limit::OneOf(KEY_OFFLOADS),
        unit: "",
        meaning: "any of these: a warning",
        sources: &[Source::Doc {
            document:
                "Linux kernel documentation, Documentation/networking/segmentation-offloads.rst",
            section: None,
            url: Some("https://docs.kernel.org/networking/segmentation-offloads.html"),
        }],
    }],
    groups: &[SymptomGroup::NetworkPath],
    explains: &[],
    fires_when: "TSO, GSO or GRO turned off (not `[fixed]`)",
    checks: "For each NIC with `ethtool -k` output, whether TSO, GSO or GRO is off without being \
             `[fixed]` (i.e. someone turned it off).",
    why: "Without segmentation offload the kernel cuts every TCP send into MTU-sized packets in \
          software; without GRO every received packet climbs the stack separately. Both multiply \
          per-packet CPU cost and soft-IRQ time.",
    false_positives: "Offloads disabled on purpose to work around a driver bug, or on a host that \
                      forwards packets (routers disable GRO/LRO).",
    remedy: "`ethtool -K <nic> tso on gso on gro on`, after checking why they were turned off.",
    file: file!(),
};

/// Key offloads of each NIC.
pub fn check(f: &HostFacts) -> Check {
    let nics: Vec<&Nic> = f.nics.iter().filter(|n| n.name != "lo").collect();
    if nics.iter().all(|n| n.offloads_off.is_empty()) {
        return if f.nics.is_empty() {
            Check::NotEvaluated("no `ethtool -k` output in the bundle".into())
        } else {
            Check::Clear("no key offload turned off".into())
        };
    }
    let mut out = Vec::new();
    for n in nics {
        let off: Vec<_> = n
            .offloads_off
            .iter()
            .filter(|o| !o.value.1 && KEY_OFFLOADS.contains(&o.value.0.as_str()))
            .collect();
        if off.is_empty() {
            continue;
        }
        let names: Vec<&str> = off.iter().map(|o| o.value.0.as_str()).collect();
        out.push(finding(
            &META,
            Severity::Warning,
            Confidence::High,
            format!("{}: {} off", n.name, names.join(", ")),
            "These offloads are supported (not `[fixed]`) but turned off, so the kernel segments or coalesces every packet in software.".into(),
            off.iter().map(|o| o.evidence(format!("{} {}", n.name, o.value.0))).collect(),
            names.len() as f64 / KEY_OFFLOADS.len() as f64,
        ));
    }
    if out.is_empty() {
        Check::Clear("only fixed or non-key offloads are off".into())
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testkit::nic::{host, nic};
    use crate::rules::testkit::{c, found, is_clear};

    #[test]
    fn fires_when_a_key_offload_is_turned_off() {
        let mut n = nic("eth0");
        n.offloads_off = vec![
            c(("tcp-segmentation-offload".to_string(), false)),
            c(("rx-checksumming".to_string(), false)),
        ];
        let v = found(check(&host(4, vec![n])));
        assert!(
            v[0].title.contains("tcp-segmentation-offload")
                && !v[0].title.contains("rx-checksumming")
        );
    }

    #[test]
    fn clear_when_only_fixed_offloads_are_off() {
        let mut fixed = nic("eth0");
        fixed.offloads_off = vec![c(("generic-receive-offload".to_string(), true))];
        assert!(is_clear(&check(&host(4, vec![fixed]))));
    }
}
