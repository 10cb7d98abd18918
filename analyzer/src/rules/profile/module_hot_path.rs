//! `profile.module-hot-path`: a kernel module holds a large share of CPU time.
//!
//! Reads the CPU profiles' per-module heat (`[module]` frames of `perf script`/`perf report`:
//! self and inclusive samples, functions, callers, lock and soft-IRQ shares), joined with the
//! module list and taint facts (`/proc/modules`, `modinfo`).

use crate::evidence::Evidence;
use crate::facts::profile::ProfileSource;
use crate::facts::profile::{ModuleHeat, Profile};
use crate::facts::{Fact, HostFacts};
use crate::rules::common::{enough_samples, profile_not_evaluated};
use crate::rules::kernel::taint::META as TAINT;
use crate::rules::profile::lock_contention::META as LOCKS;
use crate::rules::profile::softirq_cost::META as SOFTIRQ_COST;
use crate::rules::softirq::saturation::META as SATURATION;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// A module on at least this share of busy stacks, %, is in the hot path ...
pub const MODULE_INCLUSIVE_PCT: f64 = 10.0;
/// ... or running itself on at least this share, %.
pub const MODULE_SELF_PCT: f64 = 5.0;

const CASE_AND_FLAME_GRAPHS: &[Source] = &[
    Source::Case(4),
    Source::url(
        "Brendan Gregg, CPU Flame Graphs (a frame's width is its share of CPU time)",
        "https://www.brendangregg.com/FlameGraphs/cpuflamegraphs.html",
    ),
];

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "profile.module-hot-path",
    title: "A kernel module holds a large share of CPU time",
    area: Area::Profile,
    severity: Severity::Warning,
    needs: &[Fact::Profiles],
    reads: &[Fact::Modules, Fact::Kernel],
    thresholds: &[
        Threshold {
            name: "busy samples with the module on the stack (inclusive)",
            value: Limit::Num(MODULE_INCLUSIVE_PCT),
            unit: "%",
            meaning: "at or above: critical for an out-of-tree, unsigned or proprietary module, a \
                      warning for an in-tree one or one of unknown provenance",
            sources: CASE_AND_FLAME_GRAPHS,
        },
        Threshold {
            name: "busy samples running in the module (self)",
            value: Limit::Num(MODULE_SELF_PCT),
            unit: "%",
            meaning: "at or above: as for the inclusive share",
            sources: CASE_AND_FLAME_GRAPHS,
        },
    ],
    groups: &[SymptomGroup::KernelCpu],
    explains: &[SOFTIRQ_COST.id, TAINT.id, LOCKS.id, SATURATION.id],
    fires_when: "a kernel module is on ≥ 10 % of busy CPU stacks (or runs ≥ 5 % itself) in \
                 `perf script`/`perf report`; critical when it is out-of-tree, unsigned or \
                 proprietary",
    checks: "In the CPU profile, every loadable kernel module's frames (`[module]` DSO in `perf \
             script`/`perf report`): samples that run in it (self) and samples with it anywhere \
             on the stack (inclusive); joined with `/proc/modules` taint letters and `modinfo` \
             (out-of-tree `O`, unsigned `E`, proprietary `P`).",
    why: "Code from a third-party module (security agents, traffic filters, storage drivers) on \
          the packet or syscall path runs for every packet or call; when it is slow, or takes a \
          lock, every CPU that passes through it pays (case S4: `resguard_linux` functions above \
          `ip_local_out` with spin-lock slow paths kept the NIC cores at 100 % soft-IRQ).",
    false_positives: "A module that does the host's real work (a filesystem or NIC driver under \
                      heavy I/O) is expected on the stacks; the finding says how wide it is and \
                      whether it is third-party.",
    remedy: "Profile with and without the module (or its feature disabled), ask its vendor for a \
             fixed version, or exclude the hot traffic from it.",
    file: file!(),
};

/// How the module is known: `(third_party, taint letters, where they were read)`.
fn provenance(f: &HostFacts, m: &str) -> (Option<bool>, Option<String>, Option<Evidence>) {
    if let Some(t) = f.kernel.tainting_modules.iter().find(|t| t.value.name == m) {
        return (
            Some(true),
            Some(t.value.taint.clone()),
            Some(t.evidence(format!("{m}: taint flags"))),
        );
    }
    if let Some((list, md)) = f
        .modules
        .get()
        .and_then(|l| l.iter().find(|x| x.name == m).map(|md| (l, md)))
    {
        let taint = md.taint.clone().filter(|t| !t.is_empty());
        let third = taint
            .as_deref()
            .map(|t| t.contains('O') || t.contains('E') || t.contains('P'));
        let ev = Some(Evidence::new(
            &list.artifact,
            vec![md.line],
            format!("{m} in the module list"),
        ));
        return (Some(third.unwrap_or(false)), taint, ev);
    }
    (None, None, None)
}

/// Every module's share of the busy stacks, with its provenance.
pub fn check(f: &HostFacts) -> Check {
    if let Some(c) = profile_not_evaluated(f) {
        return c;
    }
    let mut out = Vec::new();
    let mut seen = 0;
    for p in f.profiles.iter().filter(|p| enough_samples(p)) {
        for m in &p.modules {
            seen += 1;
            if m.inclusive_pct < MODULE_INCLUSIVE_PCT && m.self_pct < MODULE_SELF_PCT {
                continue;
            }
            out.push(module_finding(f, p, m));
        }
    }
    if out.is_empty() {
        Check::Clear(format!(
            "{seen} module(s) on the stacks, none on ≥ {MODULE_INCLUSIVE_PCT:.0} % of busy samples"
        ))
    } else {
        Check::Found(out)
    }
}

fn module_finding(f: &HostFacts, p: &Profile, m: &ModuleHeat) -> Finding {
    let (third, taint, prov_ev) = provenance(f, &m.module);
    let mut ev = vec![Evidence::new(
        &p.artifact,
        m.lines.clone(),
        format!("samples with `{}` frames", m.module),
    )];
    ev.extend(prov_ev);
    let mut explains = vec![SOFTIRQ_COST.id, TAINT.id];
    // A module that takes a contended lock, or runs under the soft-IRQ, explains those.
    let lock_pct: f64 = p
        .locks
        .by
        .iter()
        .filter(|c| c.name.ends_with(&format!("[{}]", m.module)))
        .map(|c| c.pct)
        .sum();
    let in_locks = lock_pct > 0.0;
    if in_locks {
        explains.push(LOCKS.id);
    }
    let in_softirq = p
        .softirq
        .by
        .iter()
        .any(|c| c.name.ends_with(&format!("[{}]", m.module)))
        || m.called_from
            .iter()
            .any(|c| c.contains("ip_") || c.contains("netif"))
        || m.functions
            .iter()
            .any(|c| c.contains("ip_") || c.contains("nf_"));
    if in_softirq {
        explains.push(SATURATION.id);
    }
    let mut details = vec![format!(
        "Its functions: {}.",
        m.functions
            .iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )];
    if !m.called_from.is_empty() {
        details.push(format!(
            "Called from: {}.",
            m.called_from
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if in_locks {
        details.push(format!(
            "{lock_pct:.1} % of busy samples spin in a spin-lock slow path entered from its \
             functions."
        ));
    }
    if let Some(info) = f
        .kernel
        .tainting_modules
        .iter()
        .find(|t| t.value.name == m.module)
    {
        let i = &info.value;
        let parts: Vec<String> = [
            i.description.as_ref().map(|d| format!("description: {d}")),
            i.author.as_ref().map(|a| format!("author: {a}")),
            i.license.as_ref().map(|l| format!("license: {l}")),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !parts.is_empty() {
            details.push(format!("`modinfo`: {}.", parts.join("; ")));
        }
    }
    let who = match (third, &taint) {
        (Some(true), Some(t)) => format!("third-party module (taint `{t}`)"),
        (Some(true), None) => "third-party module".to_string(),
        (Some(false), _) => "in-tree module".to_string(),
        (None, _) => {
            details.push(
                "The module list (`/proc/modules`, `lsmod`) is not in the bundle: whether it is \
                 third-party is unknown."
                    .into(),
            );
            "module".to_string()
        }
    };
    Finding {
        rule_id: META.id,
        explains,
        area: META.area,
        title: format!(
            "{who} `{}` on {:.0} % of busy CPU samples",
            m.module, m.inclusive_pct
        ),
        severity: if third == Some(true) {
            Severity::Critical
        } else {
            Severity::Warning
        },
        confidence: if third.is_some() && p.source_kind == ProfileSource::PerfScript {
            Confidence::High
        } else {
            Confidence::Medium
        },
        why: format!(
            "`{}` is on {} of {} busy stacks ({:.1} %) and runs itself in {} ({:.1} %).",
            m.module,
            m.inclusive_samples,
            p.busy_samples,
            m.inclusive_pct,
            m.self_samples,
            m.self_pct
        ),
        details,
        score: m.inclusive_pct,
        time_range: None,
        evidence: ev,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;
    use crate::facts::kernel::ModuleInfo;

    use crate::rules::testkit::profile::profile;
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    #[test]
    fn fires_at_10_percent_and_critical_for_a_third_party_module() {
        let v = found(check(&profile(10.0, 0.0)));
        assert_eq!(v[0].severity, Severity::Warning);
        let mut f = profile(30.0, 25.0);
        f.kernel.tainting_modules.push(Cited::new(
            ModuleInfo {
                name: "resguard_linux".into(),
                taint: "OE".into(),
                ..Default::default()
            },
            "kernel/proc-modules.txt",
            40,
        ));
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Critical);
        assert!(v[0].title.contains("taint `OE`"), "{}", v[0].title);
        // It takes the contended lock and sits on the IP output path: explains both.
        assert!(v[0].explains.contains(&LOCKS.id));
        assert!(v[0]
            .explains
            .contains(&crate::rules::softirq::saturation::META.id));
    }

    #[test]
    fn clear_below_10_percent_and_not_evaluated_without_a_profile() {
        assert!(is_clear(&check(&profile(9.9, 0.0))));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
