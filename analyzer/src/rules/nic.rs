//! NIC configuration and health: queues, emulated adapters, offloads, rings, MTU, drops.
//!
//! Each rule reads [`Nic`] facts (from `ethtool`, `ip link`, `/proc/net/dev` deltas,
//! `/proc/interrupts` deltas and IRQ affinity) and cites the lines of those tools' outputs.

use super::{Check, Confidence, Finding, RuleMeta, Severity};
use crate::evidence::Evidence;
use crate::facts::{HostFacts, Nic};

/// Drivers of emulated (fully virtualised) NICs; each has a paravirtual alternative.
const EMULATED_DRIVERS: &[&str] = &[
    "e1000", "e1000e", "rtl8139", "8139cp", "8139too", "ne2k-pci", "pcnet32", "tulip",
];
/// Offloads whose absence costs CPU per packet on a host that is a TCP endpoint.
const KEY_OFFLOADS: &[&str] = &[
    "tcp-segmentation-offload",
    "generic-receive-offload",
    "generic-segmentation-offload",
];
/// Receive drops (incl. FIFO overruns and errors) per second that make a warning / critical.
const DROPS_WARN_PER_S: f64 = 1.0;
const DROPS_CRIT_PER_S: f64 = 100.0;
/// An RX ring below this fraction of its maximum is "far below".
const RING_FRACTION: u32 = 4;

pub static QUEUES: RuleMeta = RuleMeta {
    id: "nic.queues",
    title: "NIC runs fewer receive queues than it and the CPUs allow, or its interrupts land on one CPU",
    area: "network",
    checks: "For each NIC with `ethtool -l` output, the current `Combined` (else `RX`) queue count \
             against min(pre-set maximum, online CPUs). With two `/proc/interrupts` snapshots, \
             whether the NIC's interrupts during the window landed on a single CPU of a \
             multi-CPU host.",
    why: "Receive-side scaling spreads packets over queues, one interrupt and one soft-IRQ context \
          per queue. With one queue every packet of the NIC is processed on one CPU: that CPU \
          saturates in soft-IRQ while the others idle, and receive latency and drops grow with \
          load (case S1: `Combined: 1` on a multi-vCPU guest; raising it to 4 cut HDFS write \
          latency 41 %).",
    threshold: "current < min(maximum, CPUs) with a maximum above 1; interrupts: one CPU took at \
                least 90 % of the NIC's interrupts on a host with 4 or more CPUs. Source: kernel \
                Documentation/networking/scaling.rst (RSS: one queue per CPU is the typical \
                configuration) and case S1.",
    false_positives: "Deliberate queue reduction to keep interrupts off latency-critical cores \
                      (CPU isolation); a NIC that carries almost no traffic.",
    remedy: "`ethtool -L <nic> combined <n>` up to min(max, CPUs) (persist it in the interface \
             configuration); on VMware, vmxnet3 with RSS enabled in the guest driver; spread IRQ \
             affinity (irqbalance or explicit `smp_affinity_list`).",
};

pub static EMULATED: RuleMeta = RuleMeta {
    id: "nic.emulated",
    title: "Emulated NIC on a virtual machine",
    area: "network",
    checks: "On a virtual machine (systemd-detect-virt, dmidecode or lscpu), NICs whose driver \
             (`ethtool -i`) is an emulated device: e1000, e1000e, rtl8139/8139cp/8139too, \
             ne2k-pci, pcnet32, tulip.",
    why: "An emulated NIC traps into the hypervisor for every register access: more CPU per \
          packet, one queue, higher latency than the paravirtual adapter (vmxnet3 on VMware, \
          virtio_net on KVM).",
    threshold: "Any emulated driver on a VM. Source: VMware KB 1001805 (choosing a network \
                adapter: VMXNET3 recommended for performance) and the KVM/virtio documentation.",
    false_positives: "A management interface that carries no workload traffic.",
    remedy: "Replace the adapter with vmxnet3 (VMware) or virtio (KVM); keep the MAC address if \
             licences depend on it.",
};

pub static OFFLOADS: RuleMeta = RuleMeta {
    id: "nic.offloads",
    title: "Segmentation or receive offloads are off",
    area: "network",
    checks: "For each NIC with `ethtool -k` output, whether TSO, GSO or GRO is off without being \
             `[fixed]` (i.e. someone turned it off).",
    why: "Without segmentation offload the kernel cuts every TCP send into MTU-sized packets in \
          software; without GRO every received packet climbs the stack separately. Both multiply \
          per-packet CPU cost and soft-IRQ time.",
    threshold: "Any of tcp-segmentation-offload, generic-segmentation-offload, \
                generic-receive-offload off and not fixed. Source: kernel \
                Documentation/networking/segmentation-offloads.rst.",
    false_positives: "Offloads disabled on purpose to work around a driver bug, or on a host that \
                      forwards packets (routers disable GRO/LRO).",
    remedy: "`ethtool -K <nic> tso on gso on gro on`, after checking why they were turned off.",
};

pub static RX_RING: RuleMeta = RuleMeta {
    id: "nic.rx-ring",
    title: "RX ring far below its maximum",
    area: "network",
    checks: "For each NIC with `ethtool -g` output, the current RX ring size against the pre-set \
             maximum; a warning when the NIC also drops packets, information otherwise.",
    why: "The RX ring absorbs bursts while the CPU is busy; a small ring overflows into drops \
          (`rx_missed`, `fifo`) long before the CPU is saturated.",
    threshold: "current RX ring < ¼ of its maximum (case S1: 256 against 1024–4096). Source: Red \
                Hat network performance tuning guidance (raise the ring when drops occur).",
    false_positives: "Latency-sensitive setups that keep rings small to bound queueing delay.",
    remedy: "`ethtool -G <nic> rx <max>` (persist it in the interface configuration).",
};

pub static MTU: RuleMeta = RuleMeta {
    id: "nic.mtu-mismatch",
    title: "Bond and slave MTUs differ",
    area: "network",
    checks: "For each bond (`ip link` master/slave relations), whether every slave has the bond's \
             MTU.",
    why: "Mismatched MTUs fragment or drop large frames on one path only, which shows as \
          intermittent stalls of large transfers.",
    threshold: "Any difference. Source: kernel Documentation/networking/bonding.rst (slaves take \
                the bond's MTU; a manual change on a slave breaks that).",
    false_positives: "None known for active slaves.",
    remedy: "Set the MTU on the bond, not on the slaves, and make the switch ports agree.",
};

pub static DROPS: RuleMeta = RuleMeta {
    id: "net.rx-drops",
    title: "Packets dropped on receive",
    area: "network",
    checks: "Per interface, receive drops + FIFO overruns + errors per second between the two \
             `/proc/net/dev` snapshots of the window.",
    why: "Every dropped TCP segment costs a retransmission timeout or a fast-retransmit round \
          trip; sustained drops cap throughput and add latency spikes (case S1: 124–318 drops/s on \
          the guest NIC, none on physical).",
    threshold: "≥ 1 per second on average over the window is a warning, ≥ 100 per second critical \
                (case S1). Source: Red Hat network performance tuning guidance (any steadily \
                growing drop counter needs attention) and case S1.",
    false_positives: "Drops of traffic nobody wants (multicast floods, unknown VLANs) counted by \
                      some drivers.",
    remedy: "Find the layer: ring overflow (`ethtool -S` rx_missed/rx_no_buffer → larger rings, \
             more queues), backlog (`netdev_max_backlog`, `/proc/net/softnet_stat` column 2), or \
             CPU (soft-IRQ saturation).",
};

fn physical(n: &Nic) -> bool {
    n.name != "lo" && n.slaves.is_empty()
}

fn cpus(f: &HostFacts) -> Option<u32> {
    f.identity
        .cpus
        .or_else(|| (!f.cpus.is_empty()).then_some(f.cpus.len() as u32))
}

/// What a NIC configuration finding accounts for when those findings are present too: too few
/// queues (or one CPU taking the interrupts), a small RX ring or an emulated NIC make the host
/// drop packets and pile soft-IRQ work on few CPUs.
fn explained_by(id: &str) -> Vec<&'static str> {
    match id {
        "nic.queues" => vec![DROPS.id, super::softirq::META.id],
        "nic.rx-ring" | "nic.emulated" => vec![DROPS.id],
        _ => Vec::new(),
    }
}

fn finding(
    meta: &'static RuleMeta,
    severity: Severity,
    confidence: Confidence,
    title: String,
    why: String,
    evidence: Vec<Evidence>,
    score: f64,
) -> Finding {
    Finding {
        rule_id: meta.id,
        explains: explained_by(meta.id),
        area: meta.area,
        title,
        severity,
        confidence,
        why,
        details: Vec::new(),
        score,
        time_range: None,
        evidence,
    }
}

/// `nic.queues`.
pub fn check_queues(f: &HostFacts) -> Check {
    let with_channels: Vec<&Nic> = f
        .nics
        .iter()
        .filter(|n| physical(n) && n.channels.is_some())
        .collect();
    if with_channels.is_empty() && f.nics.iter().all(|n| n.irqs.is_empty()) {
        return Check::NotEvaluated(
            "no `ethtool -l` output or NIC interrupt counts in the bundle".into(),
        );
    }
    let Some(ncpu) = cpus(f) else {
        return Check::NotEvaluated("the CPU count is unknown".into());
    };
    let mut out = Vec::new();
    for n in f.nics.iter().filter(|n| physical(n)) {
        if let Some(ch) = &n.channels {
            let (cur, max) = match (ch.value.combined, ch.value.combined_max) {
                (Some(c), Some(m)) if m > 0 => (c, m),
                _ => (ch.value.rx.unwrap_or(0), ch.value.rx_max.unwrap_or(0)),
            };
            let target = max.min(ncpu);
            if max > 1 && cur >= 1 && cur < target {
                let sev = if cur == 1 && ncpu >= 4 {
                    Severity::Critical
                } else {
                    Severity::Warning
                };
                out.push(finding(
                    &QUEUES,
                    sev,
                    Confidence::High,
                    format!("{} runs {cur} receive queue(s) of {max} possible on {ncpu} CPUs", n.name),
                    format!(
                        "`ethtool -l {}` shows {cur} current against a maximum of {max}; with {ncpu} CPUs, {target} queues would spread receive work over {target} CPUs.",
                        n.name
                    ),
                    vec![ch.evidence(format!("{} channel parameters", n.name))],
                    f64::from(target - cur) / f64::from(target),
                ));
                continue;
            }
        }
        let busy = n.busy_irq_cpus();
        let total: u64 = n
            .irqs
            .iter()
            .flat_map(|i| i.per_cpu.iter().map(|x| x.1))
            .sum();
        if ncpu >= 4 && busy.len() == 1 && total >= 1000 {
            let on: u64 = n
                .irqs
                .iter()
                .flat_map(|i| i.per_cpu.iter().filter(|x| x.0 == busy[0]).map(|x| x.1))
                .sum();
            if on * 10 >= total * 9 {
                let ev = n
                    .irqs
                    .iter()
                    .flat_map(|i| {
                        i.evidence
                            .iter()
                            .map(|c| c.evidence(format!("IRQ {} ({})", i.irq, i.name)))
                    })
                    .take(6)
                    .collect();
                out.push(finding(
                    &QUEUES,
                    Severity::Warning,
                    Confidence::Medium,
                    format!("{}: {} % of its interrupts land on CPU {}", n.name, on * 100 / total, busy[0]),
                    format!("During the window CPU {} took {on} of the {total} interrupts of {}'s queues.", busy[0], n.name),
                    ev,
                    0.5,
                ));
            }
        }
    }
    if out.is_empty() {
        Check::Clear(format!(
            "{} NIC(s) with queue information, {ncpu} CPUs",
            with_channels.len()
        ))
    } else {
        Check::Found(out)
    }
}

/// `nic.emulated`.
pub fn check_emulated(f: &HostFacts) -> Check {
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
                &EMULATED,
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

/// `nic.offloads`.
pub fn check_offloads(f: &HostFacts) -> Check {
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
            &OFFLOADS,
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

/// `nic.rx-ring`.
pub fn check_rx_ring(f: &HostFacts) -> Check {
    let with_rings: Vec<&Nic> = f.nics.iter().filter(|n| n.rings.is_some()).collect();
    if with_rings.is_empty() {
        return Check::NotEvaluated("no `ethtool -g` output in the bundle".into());
    }
    let mut out = Vec::new();
    for n in with_rings {
        let r = n.rings.as_ref().expect("filtered");
        let (Some(cur), Some(max)) = (r.value.rx, r.value.rx_max) else {
            continue;
        };
        if max == 0 || cur * RING_FRACTION >= max {
            continue;
        }
        let drops = n
            .rates
            .as_ref()
            .map(|x| x.rx_drop_per_s + x.rx_fifo_per_s)
            .unwrap_or(0.0);
        let sev = if drops > 0.0 {
            Severity::Warning
        } else {
            Severity::Info
        };
        out.push(finding(
            &RX_RING,
            sev,
            Confidence::High,
            format!("{}: RX ring {cur} of a possible {max}", n.name),
            if drops > 0.0 {
                format!("The ring is under a quarter of its maximum and the NIC drops {drops:.1} packets/s.")
            } else {
                "The ring is under a quarter of its maximum; no drops were measured in this window.".to_string()
            },
            vec![r.evidence(format!("{} ring parameters", n.name))],
            1.0 - f64::from(cur) / f64::from(max),
        ));
    }
    if out.is_empty() {
        Check::Clear("RX rings at or near their maximum".into())
    } else {
        Check::Found(out)
    }
}

/// `nic.mtu-mismatch`.
pub fn check_mtu(f: &HostFacts) -> Check {
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
                    &MTU,
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

/// `net.rx-drops`.
pub fn check_drops(f: &HostFacts) -> Check {
    let measured: Vec<&Nic> = f
        .nics
        .iter()
        .filter(|n| n.rates.is_some() && n.name != "lo")
        .collect();
    if measured.is_empty() {
        return Check::NotEvaluated(
            "no two `/proc/net/dev` snapshots to measure drops over the window".into(),
        );
    }
    let mut out = Vec::new();
    for n in &measured {
        let r = n.rates.as_ref().expect("filtered");
        let bad = r.rx_drop_per_s + r.rx_fifo_per_s + r.rx_err_per_s;
        if bad < DROPS_WARN_PER_S {
            continue;
        }
        let sev = if bad >= DROPS_CRIT_PER_S {
            Severity::Critical
        } else {
            Severity::Warning
        };
        let share = if r.rx_packets_per_s > 0.0 {
            format!(
                " ({:.2} % of received packets)",
                100.0 * bad / (r.rx_packets_per_s + bad)
            )
        } else {
            String::new()
        };
        let mut ev: Vec<Evidence> = r
            .evidence
            .iter()
            .map(|c| c.evidence(format!("{} counters", n.name)))
            .collect();
        ev.truncate(4);
        out.push(Finding {
            details: vec![format!(
                "drop {:.1}/s, fifo {:.1}/s, errors {:.1}/s over {:.0} s; received {:.0} packets/s.",
                r.rx_drop_per_s, r.rx_fifo_per_s, r.rx_err_per_s, r.seconds, r.rx_packets_per_s
            )],
            ..finding(
                &DROPS,
                sev,
                Confidence::High,
                format!("{} drops {bad:.0} received packets per second", n.name),
                format!("Between the two `/proc/net/dev` snapshots {} lost {bad:.1} packets/s on receive{share}.", n.name),
                ev,
                bad.min(10_000.0),
            )
        });
    }
    if out.is_empty() {
        Check::Clear(format!(
            "{} interface(s) measured over the window",
            measured.len()
        ))
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;
    use crate::facts::{Channels, NicRates, Rings};
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    fn host(cpus: u32, nics: Vec<Nic>) -> HostFacts {
        let mut f = HostFacts {
            nics,
            ..Default::default()
        };
        f.identity.cpus = Some(cpus);
        f
    }

    fn nic(name: &str) -> Nic {
        Nic {
            name: name.into(),
            ..Default::default()
        }
    }

    #[test]
    fn single_queue_on_a_multi_cpu_guest_is_critical() {
        let mut n = nic("eth0");
        n.channels = Some(c(Channels {
            combined: Some(1),
            combined_max: Some(8),
            ..Default::default()
        }));
        let v = found(check_queues(&host(8, vec![n])));
        assert_eq!(v[0].severity, Severity::Critical);
        assert!(v[0].title.contains("1 receive queue(s) of 8"));
    }

    #[test]
    fn queues_at_the_cpu_count_are_clear() {
        let mut n = nic("eth0");
        n.channels = Some(c(Channels {
            combined: Some(4),
            combined_max: Some(63),
            ..Default::default()
        }));
        assert!(is_clear(&check_queues(&host(4, vec![n]))));
        let mut single = nic("ens3");
        single.channels = Some(c(Channels {
            combined: Some(1),
            combined_max: Some(1),
            ..Default::default()
        }));
        assert!(
            is_clear(&check_queues(&host(8, vec![single]))),
            "max 1: nothing to raise"
        );
        assert!(is_not_evaluated(&check_queues(&host(8, vec![nic("eth0")]))));
    }

    #[test]
    fn interrupts_on_one_cpu_are_flagged() {
        let mut n = nic("eth0");
        n.irqs = vec![crate::facts::NicIrq {
            irq: 30,
            name: "eth0-rx-0".into(),
            affinity: vec![0],
            per_cpu: vec![(0, 50_000), (1, 10), (2, 0), (3, 0)],
            evidence: vec![Cited::new((), "proc/interrupts.end", 40)],
        }];
        let v = found(check_queues(&host(4, vec![n])));
        assert!(v[0].title.contains("CPU 0"), "{}", v[0].title);
    }

    #[test]
    fn emulated_driver_only_matters_on_a_vm() {
        let mut n = nic("eth0");
        n.driver = Some(c("e1000".to_string()));
        let mut f = host(4, vec![n]);
        f.kernel.virt = Some(c("vmware".into()));
        let v = found(check_emulated(&f));
        assert!(v[0].title.contains("e1000") && v[0].why.contains("vmxnet3"));
        f.kernel.virt = Some(c("none".into()));
        assert!(is_clear(&check_emulated(&f)));
        f.kernel.virt = None;
        assert!(is_not_evaluated(&check_emulated(&f)));
        let mut pv = nic("eth0");
        pv.driver = Some(c("vmxnet3".to_string()));
        let mut g = host(4, vec![pv]);
        g.kernel.virt = Some(c("vmware".into()));
        assert!(is_clear(&check_emulated(&g)));
    }

    #[test]
    fn offloads_off_unless_fixed() {
        let mut n = nic("eth0");
        n.offloads_off = vec![
            c(("tcp-segmentation-offload".to_string(), false)),
            c(("rx-checksumming".to_string(), false)),
        ];
        let v = found(check_offloads(&host(4, vec![n])));
        assert!(
            v[0].title.contains("tcp-segmentation-offload")
                && !v[0].title.contains("rx-checksumming")
        );
        let mut fixed = nic("eth0");
        fixed.offloads_off = vec![c(("generic-receive-offload".to_string(), true))];
        assert!(is_clear(&check_offloads(&host(4, vec![fixed]))));
    }

    #[test]
    fn small_ring_is_a_warning_only_with_drops() {
        let mut n = nic("eth0");
        n.rings = Some(c(Rings {
            rx: Some(256),
            rx_max: Some(4096),
            ..Default::default()
        }));
        assert_eq!(
            found(check_rx_ring(&host(4, vec![n.clone()])))[0].severity,
            Severity::Info
        );
        n.rates = Some(NicRates {
            seconds: 60.0,
            rx_drop_per_s: 5.0,
            ..Default::default()
        });
        assert_eq!(
            found(check_rx_ring(&host(4, vec![n.clone()])))[0].severity,
            Severity::Warning
        );
        // Boundary: exactly a quarter is not "far below".
        n.rings = Some(c(Rings {
            rx: Some(1024),
            rx_max: Some(4096),
            ..Default::default()
        }));
        assert!(is_clear(&check_rx_ring(&host(4, vec![n]))));
    }

    #[test]
    fn bond_mtu_mismatch() {
        let mut b = nic("bond0");
        b.slaves = vec!["eth0".into(), "eth1".into()];
        b.mtu = Some(c(9000));
        let mut e0 = nic("eth0");
        e0.mtu = Some(c(9000));
        let mut e1 = nic("eth1");
        e1.mtu = Some(c(1500));
        let v = found(check_mtu(&host(4, vec![b.clone(), e0.clone(), e1])));
        assert!(v[0].title.contains("eth1"));
        let mut e1ok = nic("eth1");
        e1ok.mtu = Some(c(9000));
        assert!(is_clear(&check_mtu(&host(4, vec![b, e0, e1ok]))));
    }

    #[test]
    fn drop_thresholds() {
        let rate = |d: f64| {
            let mut n = nic("eth0");
            n.rates = Some(NicRates {
                seconds: 60.0,
                rx_packets_per_s: 50_000.0,
                rx_drop_per_s: d,
                ..Default::default()
            });
            host(4, vec![n])
        };
        assert_eq!(
            found(check_drops(&rate(150.0)))[0].severity,
            Severity::Critical
        );
        assert_eq!(
            found(check_drops(&rate(DROPS_CRIT_PER_S)))[0].severity,
            Severity::Critical
        );
        assert_eq!(
            found(check_drops(&rate(1.0)))[0].severity,
            Severity::Warning
        );
        assert!(is_clear(&check_drops(&rate(0.5))));
        assert!(is_not_evaluated(&check_drops(&host(4, vec![nic("eth0")]))));
    }
}
