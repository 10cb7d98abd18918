//! `nic.queues`: a NIC that runs fewer receive queues than it and the CPUs allow, or whose
//! interrupts all land on one CPU.
//!
//! Reads each NIC's channel parameters (`ethtool -l`) and its interrupts per CPU over the window
//! (two `/proc/interrupts` snapshots), against the CPU count.

use crate::facts::{Fact, HostFacts, Nic};
use crate::rules::common::finding;
use crate::rules::sources::KERNEL_SCALING;
use crate::rules::{
    Area, Check, Confidence, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Hosts with at least this many CPUs are multi-CPU: one receive queue there is critical, and
/// interrupts on one CPU are a finding.
const MULTI_CPU: u32 = 4;
/// One CPU taking at least this share of a NIC's interrupts during the window, %.
const ONE_CPU_IRQ_PCT: u64 = 90;
/// Fewest interrupts of a NIC during the window to judge where they land.
const MIN_INTERRUPTS: u64 = 1000;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "nic.queues",
    title: "NIC runs fewer receive queues than it and the CPUs allow, or its interrupts land on one CPU",
    area: Area::Network,
    severity: Severity::Warning,
    needs: &[Fact::Nics],
    reads: &[Fact::Identity, Fact::Cpus],
    thresholds: &[
        Threshold {
            name: "current `Combined` (else `RX`) queues",
            value: Limit::Expr("min(maximum, CPUs)"),
            unit: "queues",
            meaning: "below it, with a maximum above 1: a warning; a single queue on a host with 4 \
                      or more CPUs: critical (RSS: one queue per CPU is the typical \
                      configuration; case S1: `Combined: 1` on a multi-vCPU guest)",
            sources: &[KERNEL_SCALING, Source::Case(1)],
        },
        Threshold {
            name: "share of a NIC's interrupts on one CPU",
            value: Limit::Count(ONE_CPU_IRQ_PCT),
            unit: "%",
            meaning: "at or above, on a host with 4 or more CPUs and at least 1000 interrupts in \
                      the window: a warning",
            sources: &[KERNEL_SCALING, Source::Case(1)],
        },
    ],
    groups: &[SymptomGroup::NetworkPath],
    explains: &[
        crate::rules::net::rx_drops::META.id,
        crate::rules::softirq::saturation::META.id,
    ],
    fires_when: "a NIC runs fewer `Combined` queues than min(maximum, CPUs), or one CPU takes ≥ 90 % of its interrupts",
    checks: "For each NIC with `ethtool -l` output, the current `Combined` (else `RX`) queue count \
             against min(pre-set maximum, online CPUs). With two `/proc/interrupts` snapshots, \
             whether the NIC's interrupts during the window landed on a single CPU of a \
             multi-CPU host.",
    why: "Receive-side scaling spreads packets over queues, one interrupt and one soft-IRQ context \
          per queue. With one queue every packet of the NIC is processed on one CPU: that CPU \
          saturates in soft-IRQ while the others idle, and receive latency and drops grow with \
          load (case S1: `Combined: 1` on a multi-vCPU guest; raising it to 4 cut HDFS write \
          latency 41 %).",
    false_positives: "Deliberate queue reduction to keep interrupts off latency-critical cores \
                      (CPU isolation); a NIC that carries almost no traffic.",
    remedy: "`ethtool -L <nic> combined <n>` up to min(max, CPUs) (persist it in the interface \
             configuration); on VMware, vmxnet3 with RSS enabled in the guest driver; spread IRQ \
             affinity (irqbalance or explicit `smp_affinity_list`).",
    file: file!(),
};

fn physical(n: &Nic) -> bool {
    n.name != "lo" && n.slaves.is_empty()
}

fn cpus(f: &HostFacts) -> Option<u32> {
    f.identity
        .cpus
        .or_else(|| (!f.cpus.is_empty()).then_some(f.cpus.len() as u32))
}

/// Queue counts against the CPUs, and where the interrupts of each NIC landed.
pub fn check(f: &HostFacts) -> Check {
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
                let sev = if cur == 1 && ncpu >= MULTI_CPU {
                    Severity::Critical
                } else {
                    Severity::Warning
                };
                out.push(finding(
                    &META,
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
            .fold(0, u64::saturating_add);
        if ncpu >= MULTI_CPU && busy.len() == 1 && total >= MIN_INTERRUPTS {
            let on: u64 = n
                .irqs
                .iter()
                .flat_map(|i| i.per_cpu.iter().filter(|x| x.0 == busy[0]).map(|x| x.1))
                .fold(0, u64::saturating_add);
            if u128::from(on) * 100 >= u128::from(total) * u128::from(ONE_CPU_IRQ_PCT) {
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
                    &META,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;
    use crate::facts::Channels;
    use crate::rules::testkit::nic::{host, nic};
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    #[test]
    fn fires_critical_on_a_single_queue_of_a_multi_cpu_guest() {
        let mut n = nic("eth0");
        n.channels = Some(c(Channels {
            combined: Some(1),
            combined_max: Some(8),
            ..Default::default()
        }));
        let v = found(check(&host(8, vec![n])));
        assert_eq!(v[0].severity, Severity::Critical);
        assert!(v[0].title.contains("1 receive queue(s) of 8"));
    }

    #[test]
    fn clear_at_the_cpu_count_or_the_maximum() {
        let mut n = nic("eth0");
        n.channels = Some(c(Channels {
            combined: Some(4),
            combined_max: Some(63),
            ..Default::default()
        }));
        assert!(is_clear(&check(&host(4, vec![n]))));
        let mut single = nic("ens3");
        single.channels = Some(c(Channels {
            combined: Some(1),
            combined_max: Some(1),
            ..Default::default()
        }));
        assert!(
            is_clear(&check(&host(8, vec![single]))),
            "max 1: nothing to raise"
        );
        assert!(is_not_evaluated(&check(&host(8, vec![nic("eth0")]))));
    }

    #[test]
    fn fires_when_interrupts_land_on_one_cpu() {
        let mut n = nic("eth0");
        n.irqs = vec![crate::facts::NicIrq {
            irq: 30,
            name: "eth0-rx-0".into(),
            affinity: vec![0],
            per_cpu: vec![(0, 50_000), (1, 10), (2, 0), (3, 0)],
            evidence: vec![Cited::new((), "proc/interrupts.end", 40)],
        }];
        let v = found(check(&host(4, vec![n])));
        assert!(v[0].title.contains("CPU 0"), "{}", v[0].title);
    }
}
