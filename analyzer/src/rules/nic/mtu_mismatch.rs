//! `nic.mtu-mismatch`: a bond whose slaves do not all have its MTU.
//!
//! Reads the interfaces' MTUs and master/slave relations (`ip link`).

use crate::facts::{Fact, HostFacts, Nic};
use crate::rules::common::finding;
use crate::rules::{
    Area, Check, Confidence, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "nic.mtu-mismatch",
    title: "Bond and slave MTUs differ",
    area: Area::Network,
    severity: Severity::Warning,
    needs: &[Fact::Nics],
    reads: &[],
    thresholds: &[Threshold {
        name: "slave MTU against the bond's",
        value: Limit::Any,
        unit: "",
        meaning: "any difference: a warning (slaves take the bond's MTU; a manual change on a \
                  slave breaks that)",
        sources: &[Source::Doc {
            document: "Linux kernel documentation, Documentation/networking/bonding.rst",
            section: None,
            url: Some("https://docs.kernel.org/networking/bonding.html"),
        }],
    }],
    groups: &[SymptomGroup::NetworkPath],
    explains: &[],
    fires_when: "a bond's slave has another MTU",
    checks: "For each bond (`ip link` master/slave relations), whether every slave has the bond's \
             MTU.",
    why: "Mismatched MTUs fragment or drop large frames on one path only, which shows as \
          intermittent stalls of large transfers.",
    false_positives: "None known for active slaves.",
    remedy: "Set the MTU on the bond, not on the slaves, and make the switch ports agree.",
    file: file!(),
};

/// Every bond's slaves against its MTU.
pub fn check(f: &HostFacts) -> Check {
    let bonds: Vec<&Nic> = f.nics.iter().filter(|n| !n.slaves.is_empty()).collect();
    if bonds.is_empty() {
        return Check::NotEvaluated("no bonded interface in the bundle".into());
    }
    let mut out = Vec::new();
    for b in bonds {
        let Some(bm) = &b.mtu else { continue };
        for s in &b.slaves {
            let Some(sm) = f
                .nics
                .iter()
                .find(|n| &n.name == s)
                .and_then(|n| n.mtu.as_ref())
            else {
                continue;
            };
            if sm.value != bm.value {
                out.push(finding(
                    &META,
                    Severity::Warning,
                    Confidence::High,
                    format!("{} has MTU {} but its slave {s} has {}", b.name, bm.value, sm.value),
                    "A slave with a different MTU than its bond fragments or drops large frames on that path only.".into(),
                    vec![bm.evidence(format!("{} MTU", b.name)), sm.evidence(format!("{s} MTU"))],
                    1.0,
                ));
            }
        }
    }
    if out.is_empty() {
        Check::Clear("bond and slave MTUs agree".into())
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testkit::nic::{host, nic};
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    #[test]
    fn fires_when_a_slave_has_another_mtu() {
        let mut b = nic("bond0");
        b.slaves = vec!["eth0".into(), "eth1".into()];
        b.mtu = Some(c(9000));
        let mut e0 = nic("eth0");
        e0.mtu = Some(c(9000));
        let mut e1 = nic("eth1");
        e1.mtu = Some(c(1500));
        let v = found(check(&host(4, vec![b.clone(), e0.clone(), e1])));
        assert!(v[0].title.contains("eth1"));
    }

    #[test]
    fn clear_when_the_mtus_agree() {
        let mut b = nic("bond0");
        b.slaves = vec!["eth0".into(), "eth1".into()];
        b.mtu = Some(c(9000));
        let mut e0 = nic("eth0");
        e0.mtu = Some(c(9000));
        let mut e1ok = nic("eth1");
        e1ok.mtu = Some(c(9000));
        assert!(is_clear(&check(&host(4, vec![b, e0, e1ok]))));
    }

    #[test]
    fn not_evaluated_without_a_bond() {
        assert!(is_not_evaluated(&check(&host(4, vec![nic("eth0")]))));
    }
}
