//! CPU profiles compared: where each host's busy CPU time goes.
//!
//! In: both sides' [`Profile`]s (the first `perf script` profile of each, else `perf report`).
//! Out: differences in the share of busy samples per kernel module (inclusive), per leaf symbol
//! and per DSO, and in the spin-lock slow-path and soft-IRQ shares. A module hot only on the
//! suspect is linked to the suspect's `profile.module-hot-path` finding (case S4).

use super::score::{self, Weight, PROFILE_MODULE, PROFILE_PATH, PROFILE_SYMBOL, SHARE_PCT};
use super::{num, Difference, Out, Pair, Which};
use crate::facts::profile::{Profile, ProfileSource, Share};
use crate::rules::profile::lock_contention;
use crate::rules::{self, SymptomGroup};
use std::collections::BTreeMap;

/// Points of share that make a full-magnitude difference.
const FULL_SCALE_PCT: f64 = 20.0;

/// A share difference must exceed this many standard errors of the difference of two sampled
/// proportions (pooled: `sqrt(p(1−p)(1/n₁ + 1/n₂))`) to count: with a few dozen busy samples a
/// single sample moves a share by several points.
pub const SAMPLING_SIGMAS: f64 = 3.0;

fn magnitude(b: f64, s: f64) -> f64 {
    if score::numeric_magnitude(b, s, SHARE_PCT) == 0.0 {
        0.0
    } else {
        ((b - s).abs() / FULL_SCALE_PCT).min(1.0)
    }
}

/// Whether shares `b` and `s` (%) of `nb` and `ns` busy samples differ beyond sampling error.
fn beyond_sampling_error(b: f64, s: f64, nb: u64, ns: u64) -> bool {
    if nb == 0 || ns == 0 {
        return false;
    }
    let (pb, ps) = (b / 100.0, s / 100.0);
    let (nb, ns) = (nb as f64, ns as f64);
    let p = (pb * nb + ps * ns) / (nb + ns);
    let se = (p * (1.0 - p) * (1.0 / nb + 1.0 / ns)).sqrt();
    (pb - ps).abs() > SAMPLING_SIGMAS * se
}

/// The first `perf script` profile (the one with stacks).
pub fn script(p: &[Profile]) -> Option<&Profile> {
    p.iter()
        .find(|p| p.source_kind == ProfileSource::PerfScript)
}

fn first(p: &[Profile]) -> Option<&Profile> {
    p.iter()
        .find(|p| p.source_kind == ProfileSource::PerfScript)
        .or_else(|| p.first())
}

/// Pushes the profile differences.
pub fn compare(p: &Pair, out: &mut Out) {
    let (b, s) = (
        first(&p.baseline.facts.profiles),
        first(&p.suspect.facts.profiles),
    );
    if !out.both(
        "profile",
        "CPU profile (`perf script`, `perf report`)",
        b.is_some(),
        s.is_some(),
    ) {
        return;
    }
    let (Some(b), Some(s)) = (b, s) else { return };
    let hot_finding = |module: &str| {
        p.suspect
            .hot_module(module)
            .map(|f| format!("the suspect shows {} (`{}`)", f.title, f.rule_id))
    };
    // Modules, inclusive share.
    // Per module: (baseline %, suspect %, baseline lines, suspect lines).
    type Shares = (f64, f64, Vec<usize>, Vec<usize>);
    let mut mods: BTreeMap<&str, Shares> = BTreeMap::new();
    for m in &b.modules {
        let e = mods.entry(m.module.as_str()).or_default();
        e.0 = m.inclusive_pct;
        e.2 = m.lines.clone();
    }
    for m in &s.modules {
        let e = mods.entry(m.module.as_str()).or_default();
        e.1 = m.inclusive_pct;
        e.3 = m.lines.clone();
    }
    for (name, (bp, sp, bl, sl)) in mods {
        push_share(
            out,
            &PROFILE_MODULE,
            format!("module `{name}` on busy stacks"),
            (bp, sp),
            (b.busy_samples, s.busy_samples),
            if sp > bp { hot_finding(name) } else { None },
            (&b.artifact, &bl, &s.artifact, &sl),
        );
    }
    // Leaf symbols and DSOs among either side's top entries.
    for (what, bt, st) in [
        ("function", &b.top_symbols, &s.top_symbols),
        ("DSO", &b.top_dsos, &s.top_dsos),
    ] {
        let find = |v: &Vec<Share>, n: &str| v.iter().find(|x| x.name == n).cloned();
        let mut names: Vec<&str> = bt
            .iter()
            .chain(st.iter())
            .map(|x| x.name.as_str())
            .collect();
        names.sort_unstable();
        names.dedup();
        for n in names {
            let (x, y) = (find(bt, n), find(st, n));
            let bp = x.as_ref().map(|v| v.pct).unwrap_or(0.0);
            let sp = y.as_ref().map(|v| v.pct).unwrap_or(0.0);
            push_share(
                out,
                &PROFILE_SYMBOL,
                format!("{what} `{n}` (self)"),
                (bp, sp),
                (b.busy_samples, s.busy_samples),
                None,
                (
                    &b.artifact,
                    &x.map(|v| v.lines).unwrap_or_default(),
                    &s.artifact,
                    &y.map(|v| v.lines).unwrap_or_default(),
                ),
            );
        }
    }
    let symptom = |of: &dyn Fn(&str) -> bool| {
        p.suspect
            .findings()
            .iter()
            .find(|f| of(f.rule_id))
            .map(|f| format!("the suspect shows {} (`{}`)", f.title, f.rule_id))
    };
    push_share(
        out,
        &PROFILE_PATH,
        "spin-lock slow paths".into(),
        (b.locks.pct, s.locks.pct),
        (b.busy_samples, s.busy_samples),
        symptom(&|id| id == lock_contention::META.id),
        (&b.artifact, &b.locks.lines, &s.artifact, &s.locks.lines),
    );
    push_share(
        out,
        &PROFILE_PATH,
        "stacks under the soft-IRQ handler".into(),
        (b.softirq.pct, s.softirq.pct),
        (b.busy_samples, s.busy_samples),
        symptom(&|id| rules::in_group(id, SymptomGroup::Softirq)),
        (&b.artifact, &b.softirq.lines, &s.artifact, &s.softirq.lines),
    );
}

#[allow(clippy::too_many_arguments)]
fn push_share(
    out: &mut Out,
    w: &'static Weight,
    subject: String,
    (bp, sp): (f64, f64),
    (nb, ns): (u64, u64),
    link: Option<String>,
    (ba, bl, sa, sl): (&str, &[usize], &str, &[usize]),
) {
    if (bp - sp).abs() < 0.05 {
        return;
    }
    let sampled = beyond_sampling_error(bp, sp, nb, ns);
    let m = if sampled { magnitude(bp, sp) } else { 0.0 };
    let reason = if !sampled {
        format!(
            "{} % vs {} % of {} and {} busy samples: within sampling error ({SAMPLING_SIGMAS} standard errors)",
            num(bp),
            num(sp),
            nb,
            ns
        )
    } else if m == 0.0 {
        format!(
            "{} % vs {} % of busy samples: below the noise floor ({} points and {:.0} %)",
            num(bp),
            num(sp),
            num(SHARE_PCT.abs),
            SHARE_PCT.rel * 100.0
        )
    } else {
        format!(
            "{} on the suspect: {} % vs {} % of busy samples",
            if sp > bp { "more" } else { "less" },
            num(sp),
            num(bp)
        )
    };
    out.push(
        Difference::new(w, subject)
            .values(
                Some(format!("{} %", num(bp))),
                Some(format!("{} %", num(sp))),
            )
            .magnitude(m)
            .reason(reason)
            .link(if m > 0.0 { link } else { None })
            .cite_lines(Which::Baseline, ba, bl)
            .cite_lines(Which::Suspect, sa, sl),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_samples_leave_shares_within_sampling_error() {
        // 40 % vs 60 % of 20 samples each: 1.3 standard errors.
        assert!(!beyond_sampling_error(40.0, 60.0, 20, 20));
        // The same shares over 2000 samples each: 12.9 standard errors.
        assert!(beyond_sampling_error(40.0, 60.0, 2000, 2000));
        // S4: 17 % of 300 vs 0 % of 300.
        assert!(beyond_sampling_error(0.0, 17.0, 300, 300));
        assert!(!beyond_sampling_error(1.0, 2.0, 0, 300));
    }

    #[test]
    fn share_magnitude_has_a_floor_and_a_scale() {
        assert_eq!(magnitude(10.0, 13.0), 0.0);
        assert_eq!(magnitude(0.0, 4.9), 0.0);
        assert!((magnitude(0.0, 10.0) - 0.5).abs() < 1e-9);
        assert_eq!(magnitude(0.0, 30.0), 1.0);
    }
}
