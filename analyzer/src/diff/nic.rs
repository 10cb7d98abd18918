//! Network interfaces and their interrupts: driver, firmware, queues, rings, offloads, MTU and
//! how many CPUs take the NIC's interrupts.
//!
//! In: both sides' [`Nic`]s, paired by name, then — physical interfaces left on both sides, in
//! name order — with each other (hosts name their NICs differently). Out: one difference per
//! differing property; physical NICs left unpaired are differences of their own.

use super::score::{self, IRQ_SPREAD, NIC_DRIVER, NIC_FIRMWARE, NIC_MTU, NIC_OFFLOAD};
use super::score::{NIC_ONE_SIDE, NIC_QUEUES, NIC_RINGS};
use super::{numeric, Difference, Out, Pair, Which};
use crate::facts::Nic;
use crate::rules::SymptomGroup;
use std::collections::BTreeSet;

/// Interrupts a NIC must have taken on each side (over the window, or since boot with one
/// snapshot) before the number of CPUs taking them is compared.
pub const MIN_IRQS_FOR_SPREAD: u64 = 1000;

/// A NIC with hardware facts (a driver or queue counts) and no slaves: not a bond, bridge or
/// loopback.
fn physical(n: &Nic) -> bool {
    n.slaves.is_empty() && (n.driver.is_some() || n.channels.is_some())
}

fn pairs<'a>(b: &'a [Nic], s: &'a [Nic]) -> (Vec<(&'a Nic, &'a Nic)>, Vec<&'a Nic>, Vec<&'a Nic>) {
    let mut out = Vec::new();
    let mut left_b = Vec::new();
    for n in b {
        match s.iter().find(|x| x.name == n.name) {
            Some(x) => out.push((n, x)),
            None => left_b.push(n),
        }
    }
    let mut left_s: Vec<&Nic> = s
        .iter()
        .filter(|x| !b.iter().any(|n| n.name == x.name))
        .collect();
    let pb: Vec<&Nic> = left_b.iter().copied().filter(|n| physical(n)).collect();
    let ps: Vec<&Nic> = left_s.iter().copied().filter(|n| physical(n)).collect();
    for (x, y) in pb.iter().zip(ps.iter()) {
        out.push((x, y));
    }
    let paired = pb.len().min(ps.len());
    left_b.retain(|n| !pb[..paired].iter().any(|x| x.name == n.name));
    left_s.retain(|n| !ps[..paired].iter().any(|x| x.name == n.name));
    (out, left_b, left_s)
}

/// Compares the NICs of both sides.
pub fn compare(p: &Pair, out: &mut Out) {
    let (b, s) = (&p.baseline.facts.nics, &p.suspect.facts.nics);
    if !out.both(
        "nic",
        "network interfaces (`ethtool`, `ip link`)",
        !b.is_empty(),
        !s.is_empty(),
    ) {
        return;
    }
    let link = p.symptoms.any(SymptomGroup::NetworkPath);
    let (matched, only_b, only_s) = pairs(b, s);
    for (side, list) in [(Which::Baseline, only_b), (Which::Suspect, only_s)] {
        for n in list.into_iter().filter(|n| physical(n)) {
            let shown = format!(
                "{} ({})",
                n.name,
                n.driver
                    .as_ref()
                    .map(|d| d.value.as_str())
                    .unwrap_or("driver ?")
            );
            let (bv, sv) = match side {
                Which::Baseline => (Some(shown), None),
                Which::Suspect => (None, Some(shown)),
            };
            out.push(
                Difference::new(&NIC_ONE_SIDE, format!("interface {}", n.name))
                    .values(bv, sv)
                    .reason(format!("a physical interface on the {} only", side.label()))
                    .cite(side, n.driver.as_ref()),
            );
        }
    }
    for (x, y) in matched {
        let who = if x.name == y.name {
            x.name.clone()
        } else {
            format!("{} / {}", x.name, y.name)
        };
        // Driver and firmware.
        for (w, what, fx, fy) in [
            (&NIC_DRIVER, "driver", &x.driver, &y.driver),
            (&NIC_FIRMWARE, "firmware", &x.firmware, &y.firmware),
        ] {
            if let (Some(a), Some(c)) = (fx, fy) {
                if a.value.trim() != c.value.trim() {
                    let shown = |v: &str| {
                        if v.trim().is_empty() {
                            "(none)".to_string()
                        } else {
                            v.trim().to_string()
                        }
                    };
                    out.push(
                        Difference::new(w, format!("{who}: {what}"))
                            .values(Some(shown(&a.value)), Some(shown(&c.value)))
                            .reason(if what == "driver" {
                                "another driver: another interrupt and offload model (ruled out in case S4)"
                            } else {
                                "other firmware: offloads and interrupt moderation may differ (ruled out in case S4)"
                            })
                            .link(link.clone())
                            .cite(Which::Baseline, Some(a))
                            .cite(Which::Suspect, Some(c)),
                    );
                }
            }
        }
        // Queues.
        if let (Some(a), Some(c)) = (&x.channels, &y.channels) {
            let q = |ch: &crate::facts::Channels| ch.combined.or(ch.rx);
            if let (Some(qa), Some(qc)) = (q(&a.value), q(&c.value)) {
                numeric(
                    out,
                    &NIC_QUEUES,
                    format!("{who}: queues (ethtool -l)"),
                    f64::from(qa),
                    f64::from(qc),
                    score::SETTING,
                    "",
                    link.clone(),
                    |d| {
                        d.cite(Which::Baseline, Some(a))
                            .cite(Which::Suspect, Some(c))
                    },
                );
            }
        }
        // RX ring.
        if let (Some(a), Some(c)) = (&x.rings, &y.rings) {
            if let (Some(ra), Some(rc)) = (a.value.rx, c.value.rx) {
                numeric(
                    out,
                    &NIC_RINGS,
                    format!("{who}: RX ring (ethtool -g)"),
                    f64::from(ra),
                    f64::from(rc),
                    score::SETTING,
                    "",
                    link.clone(),
                    |d| {
                        d.cite(Which::Baseline, Some(a))
                            .cite(Which::Suspect, Some(c))
                    },
                );
            }
        }
        // Offloads off (not fixed) on one side only.
        let off = |n: &Nic| -> BTreeSet<String> {
            n.offloads_off
                .iter()
                .filter(|o| !o.value.1)
                .map(|o| o.value.0.clone())
                .collect()
        };
        let both_k = !x.offloads_off.is_empty() || !y.offloads_off.is_empty();
        if both_k {
            let (oa, oc) = (off(x), off(y));
            for f in oa.symmetric_difference(&oc) {
                let on_b = oa.contains(f);
                // Turned off on one side and listed as on by the other: a feature the other
                // side lacks, or cannot change (`[fixed]`), is not a setting that differs.
                let other_on = if on_b { &y.offloads_on } else { &x.offloads_on };
                if !other_on.iter().any(|o| o == f) {
                    continue;
                }
                let cite_b = x.offloads_off.iter().find(|o| &o.value.0 == f);
                let cite_s = y.offloads_off.iter().find(|o| &o.value.0 == f);
                out.push(
                    Difference::new(&NIC_OFFLOAD, format!("{who}: offload {f}"))
                        .values(
                            Some(if on_b { "off" } else { "on" }.into()),
                            Some(if on_b { "on" } else { "off" }.into()),
                        )
                        .reason(format!(
                            "off on the {} only: per-packet work moves to the CPU",
                            if on_b { "baseline" } else { "suspect" }
                        ))
                        .link(if on_b { None } else { link.clone() })
                        .cite(Which::Baseline, cite_b)
                        .cite(Which::Suspect, cite_s),
                );
            }
        }
        // MTU.
        if let (Some(a), Some(c)) = (&x.mtu, &y.mtu) {
            if a.value != c.value {
                out.push(
                    Difference::new(&NIC_MTU, format!("{who}: MTU"))
                        .values(Some(a.value.to_string()), Some(c.value.to_string()))
                        .reason("another MTU: packets per byte differ; a mismatched path fragments or drops")
                        .link(link.clone())
                        .cite(Which::Baseline, Some(a))
                        .cite(Which::Suspect, Some(c)),
                );
            }
        }
        // Interrupt spread: the effective number of CPUs sharing the NIC's interrupts.
        if let (Some(ea), Some(ec)) = (x.irq_effective_cpus(), y.irq_effective_cpus()) {
            // Where a near-idle NIC's few interrupts landed says nothing about its spread.
            let counted = x.irq_total().min(y.irq_total()) >= MIN_IRQS_FOR_SPREAD;
            let m = if counted {
                score::numeric_magnitude(ea, ec, score::SETTING)
            } else {
                0.0
            };
            if (ea - ec).abs() >= 0.5 {
                let mut d = Difference::new(&IRQ_SPREAD, format!("{who}: CPUs taking its interrupts"))
                    .values(
                        Some(format!("{} effective CPU(s)", super::num((ea * 10.0).round() / 10.0))),
                        Some(format!("{} effective CPU(s)", super::num((ec * 10.0).round() / 10.0))),
                    )
                    .magnitude(m)
                    .reason(if !counted {
                        format!(
                            "from {} and {} interrupts: too few to tell a spread (at least {MIN_IRQS_FOR_SPREAD} on each side)",
                            x.irq_total(),
                            y.irq_total()
                        )
                    } else if ec < ea {
                        format!(
                            "the NIC's interrupts are shared by fewer CPUs on the suspect ({:.1} vs {:.1}, effective count): concentration makes those CPUs' soft-IRQ the bottleneck",
                            ec, ea
                        )
                    } else {
                        format!(
                            "the NIC's interrupts are shared by more CPUs on the suspect ({:.1} vs {:.1}, effective count)",
                            ec, ea
                        )
                    })
                    .link(if ec < ea { link.clone() } else { None });
                for (side, n) in [(Which::Baseline, x), (Which::Suspect, y)] {
                    for irq in n.irqs.iter().take(4) {
                        for e in &irq.evidence {
                            d = d.cite_lines(side, &e.artifact, &e.lines);
                        }
                    }
                }
                out.push(d);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interrupt_spread_is_an_effective_cpu_count() {
        use crate::facts::NicIrq;
        let nic = |per_cpu: Vec<(u32, u64)>| Nic {
            irqs: vec![NicIrq {
                per_cpu,
                ..Default::default()
            }],
            ..Default::default()
        };
        let one = nic(vec![(0, 10_000)]);
        assert_eq!(one.irq_effective_cpus(), Some(1.0));
        let four = nic(vec![(0, 500), (1, 500), (2, 500), (3, 500)]);
        assert!((four.irq_effective_cpus().unwrap() - 4.0).abs() < 1e-9);
        // Sixteen CPUs with 6 % each: sixteen, where a "≥ 10 % each" count said none.
        let sixteen = nic((0..16).map(|c| (c, 625)).collect());
        assert!((sixteen.irq_effective_cpus().unwrap() - 16.0).abs() < 1e-9);
        assert_eq!(nic(vec![]).irq_effective_cpus(), None);
    }
}
