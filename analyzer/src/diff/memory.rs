//! Memory: RAM, swap (configured, in use, activity) and the VMware balloon.
//!
//! In: both sides' [`Memory`](crate::facts::Memory). Out: differences in RAM size (over 5 %),
//! swap configured on one side only or used differently, swap-in/out activity, and the balloon
//! driver or balloon size. `vm.swappiness` is compared with the other sysctl keys.

use super::score::{self, BALLOON, MEMORY_SIZE, SWAP};
use super::{numeric, Difference, Out, Pair, Which};
use crate::rules::SymptomGroup;

fn mib(kib: u64) -> f64 {
    (kib as f64 / 1024.0).round()
}

/// Compares memory and swap.
pub fn compare(p: &Pair, out: &mut Out) {
    let (b, s) = (&p.baseline.facts.memory, &p.suspect.facts.memory);
    let link = p.symptoms.any(SymptomGroup::Memory);
    if let (Some(x), Some(y)) = (&b.mem_total_kib, &s.mem_total_kib) {
        numeric(
            out,
            &MEMORY_SIZE,
            "RAM (MemTotal)".into(),
            mib(x.value),
            mib(y.value),
            score::SETTING,
            "MiB",
            link.clone(),
            |d| {
                d.cite(Which::Baseline, Some(x))
                    .cite(Which::Suspect, Some(y))
            },
        );
    }
    if let (Some(x), Some(y)) = (&b.swap_total_kib, &s.swap_total_kib) {
        if (x.value == 0) != (y.value == 0) {
            let on_s = y.value > 0;
            out.push(
                Difference::new(&SWAP, "swap configured")
                    .values(
                        Some(format!("{} MiB", mib(x.value))),
                        Some(format!("{} MiB", mib(y.value))),
                    )
                    .reason(format!(
                        "swap is configured on the {} only: a JVM whose pages go to swap stalls in GC",
                        if on_s { "suspect" } else { "baseline" }
                    ))
                    .link(if on_s { link.clone() } else { None })
                    .cite(Which::Baseline, Some(x))
                    .cite(Which::Suspect, Some(y)),
            );
        }
    }
    if let (Some(x), Some(y)) = (&b.swap_used_kib, &s.swap_used_kib) {
        numeric(
            out,
            &SWAP,
            "swap in use".into(),
            mib(x.value),
            mib(y.value),
            score::MEMORY_MIB,
            "MiB",
            link.clone(),
            |d| {
                d.cite(Which::Baseline, Some(x))
                    .cite(Which::Suspect, Some(y))
            },
        );
    }
    for (what, x, y) in [
        ("swap-in", &b.swap_in_kib_per_s, &s.swap_in_kib_per_s),
        ("swap-out", &b.swap_out_kib_per_s, &s.swap_out_kib_per_s),
    ] {
        if let (Some(x), Some(y)) = (x, y) {
            numeric(
                out,
                &SWAP,
                format!("{what} rate"),
                (x.value * 10.0).round() / 10.0,
                (y.value * 10.0).round() / 10.0,
                score::SWAP_RATE,
                "KiB/s",
                link.clone(),
                |d| {
                    d.cite(Which::Baseline, Some(x))
                        .cite(Which::Suspect, Some(y))
                },
            );
        }
    }
    if b.balloon_driver.is_some() != s.balloon_driver.is_some() {
        let on_s = s.balloon_driver.is_some();
        out.push(
            Difference::new(&BALLOON, "balloon driver (`vmw_balloon`)")
                .values(
                    Some(if on_s { "not loaded" } else { "loaded" }.into()),
                    Some(if on_s { "loaded" } else { "not loaded" }.into()),
                )
                .magnitude(0.5)
                .reason("the hypervisor can reclaim this guest's memory on one side only")
                .link(if on_s { link.clone() } else { None })
                .cite(Which::Baseline, b.balloon_driver.as_ref())
                .cite(Which::Suspect, s.balloon_driver.as_ref()),
        );
    }
    if let (Some(x), Some(y)) = (&b.balloon_mib, &s.balloon_mib) {
        numeric(
            out,
            &BALLOON,
            "balloon size".into(),
            x.value as f64,
            y.value as f64,
            score::MEMORY_MIB,
            "MiB",
            link,
            |d| {
                d.cite(Which::Baseline, Some(x))
                    .cite(Which::Suspect, Some(y))
            },
        );
    }
}
