//! `nic.emulated`: a virtual machine's NIC uses an emulated device's driver.
//!
//! Reads the virtualization platform (`systemd-detect-virt`, `dmidecode`, `lscpu`) and each NIC's
//! driver (`ethtool -i`).

use crate::facts::{Fact, HostFacts, Nic};
use crate::rules::common::finding;
use crate::rules::{
    Area, Check, Confidence, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Drivers of emulated (fully virtualised) NICs; each has a paravirtual alternative.
const EMULATED_DRIVERS: &[&str] = &[
    "e1000", "e1000e", "rtl8139", "8139cp", "8139too", "ne2k-pci", "pcnet32", "tulip",
];

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "nic.emulated",
    title: "Emulated NIC on a virtual machine",
    area: Area::Network,
    severity: Severity::Warning,
    needs: &[Fact::Kernel, Fact::Nics],
    reads: &[],
    thresholds: &[Threshold {
        name: "NIC driver on a virtual machine",
        value: Limit::OneOf(EMULATED_DRIVERS),
        unit: "",
        meaning: "any of these: a warning",
        sources: &[
            Source::section(
                "VMware KB 1001805",
                "choosing a network adapter: VMXNET3 recommended for performance",
            ),
            Source::doc("KVM/virtio documentation"),
        ],
    }],
    groups: &[SymptomGroup::NetworkPath],
    explains: &[crate::rules::net::rx_drops::META.id],
    fires_when: "a VM's NIC uses an emulated driver (`e1000`, `e1000e`, `rtl8139` …)",
    checks: "On a virtual machine (systemd-detect-virt, dmidecode or lscpu), NICs whose driver \
             (`ethtool -i`) is an emulated device: e1000, e1000e, rtl8139/8139cp/8139too, \
             ne2k-pci, pcnet32, tulip.",
    why: "An emulated NIC traps into the hypervisor for every register access: more CPU per \
          packet, one queue, higher latency than the paravirtual adapter (vmxnet3 on VMware, \
          virtio_net on KVM).",
    false_positives: "A management interface that carries no workload traffic.",
    remedy: "Replace the adapter with vmxnet3 (VMware) or virtio (KVM); keep the MAC address if \
             licences depend on it.",
    file: file!(),
};

/// Drivers of the NICs of a virtual machine.
pub fn check(f: &HostFacts) -> Check {
    let Some(virt) = &f.kernel.virt else {
        return Check::NotEvaluated(
            "the virtualization platform is unknown (no systemd-detect-virt, dmidecode or lscpu)"
                .into(),
        );
    };
    if virt.value == "none" {
        return Check::Clear("physical host".into());
    }
    let with_driver: Vec<&Nic> = f.nics.iter().filter(|n| n.driver.is_some()).collect();
    if with_driver.is_empty() {
        return Check::NotEvaluated("no `ethtool -i` output in the bundle".into());
    }
    let mut out = Vec::new();
    for n in with_driver {
        let d = n.driver.as_ref().expect("filtered");
        if EMULATED_DRIVERS.contains(&d.value.as_str()) {
            let better = if virt.value == "vmware" {
                "vmxnet3"
            } else {
                "virtio_net"
            };
            out.push(finding(
                &META,
                Severity::Warning,
                Confidence::High,
                format!("{} uses the emulated {} driver on a {} guest", n.name, d.value, virt.value),
                format!("An emulated {} adapter costs a hypervisor exit per register access; the paravirtual {better} adapter avoids it.", d.value),
                vec![d.evidence(format!("{} driver", n.name)), virt.evidence("virtualization platform")],
                1.0,
            ));
        }
    }
    if out.is_empty() {
        Check::Clear(format!(
            "paravirtual or passthrough drivers on a {} guest",
            virt.value
        ))
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
    fn fires_on_an_emulated_driver_of_a_vm() {
        let mut n = nic("eth0");
        n.driver = Some(c("e1000".to_string()));
        let mut f = host(4, vec![n]);
        f.kernel.virt = Some(c("vmware".into()));
        let v = found(check(&f));
        assert!(v[0].title.contains("e1000") && v[0].why.contains("vmxnet3"));
    }

    #[test]
    fn clear_on_a_physical_host_or_a_paravirtual_driver() {
        let mut n = nic("eth0");
        n.driver = Some(c("e1000".to_string()));
        let mut f = host(4, vec![n]);
        f.kernel.virt = Some(c("none".into()));
        assert!(is_clear(&check(&f)));
        f.kernel.virt = None;
        assert!(is_not_evaluated(&check(&f)));
        let mut pv = nic("eth0");
        pv.driver = Some(c("vmxnet3".to_string()));
        let mut g = host(4, vec![pv]);
        g.kernel.virt = Some(c("vmware".into()));
        assert!(is_clear(&check(&g)));
    }
}
