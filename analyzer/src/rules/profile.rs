//! Profile rules: kernel modules in the hot path, spin-lock contention, scheduler thrash and
//! soft-IRQ cost, read from CPU profiles.
//!
//! In: [`HostFacts::profiles`] joined with the module list and taint facts and the
//! context-switch rate. Out: findings citing sample lines of the `perf script` (or `perf
//! report` entries).

use super::{Check, Confidence, Finding, RuleMeta, Severity};
use crate::evidence::Evidence;
use crate::facts::profile::{ModuleHeat, Profile};
use crate::facts::HostFacts;

/// A module on at least this share of busy stacks, %, is in the hot path ...
pub const MODULE_INCLUSIVE_PCT: f64 = 10.0;
/// ... or running itself on at least this share, %.
pub const MODULE_SELF_PCT: f64 = 5.0;
/// Spin-lock slow paths on at least this share of busy samples, %: warning.
pub const LOCK_WARN_PCT: f64 = 5.0;
/// ... critical.
pub const LOCK_CRIT_PCT: f64 = 20.0;
/// Context-switch paths on at least this share of busy samples, %: warning.
pub const SCHED_WARN_PCT: f64 = 10.0;
/// Context switches per CPU per second that corroborate scheduler thrash.
pub const CS_PER_CPU_HIGH: f64 = 5000.0;
/// Stacks under soft-IRQ processing on at least this share of busy samples, %: warning.
pub const SOFTIRQ_WARN_PCT: f64 = 20.0;
/// ... critical.
pub const SOFTIRQ_CRIT_PCT: f64 = 50.0;
/// Fewer busy samples than this and the profile says too little.
pub const MIN_BUSY_SAMPLES: u64 = 100;

pub static MODULE_HOT: RuleMeta = RuleMeta {
    id: "profile.module-hot-path",
    title: "A kernel module holds a large share of CPU time",
    area: "profile",
    checks: "In the CPU profile, every loadable kernel module's frames (`[module]` DSO in `perf \
             script`/`perf report`): samples that run in it (self) and samples with it anywhere \
             on the stack (inclusive); joined with `/proc/modules` taint letters and `modinfo` \
             (out-of-tree `O`, unsigned `E`, proprietary `P`).",
    why: "Code from a third-party module (security agents, traffic filters, storage drivers) on \
          the packet or syscall path runs for every packet or call; when it is slow, or takes a \
          lock, every CPU that passes through it pays (case S4: `resguard_linux` functions above \
          `ip_local_out` with spin-lock slow paths kept the NIC cores at 100 % soft-IRQ).",
    threshold: "Inclusive ≥ 10 % or self ≥ 5 % of busy samples: critical for an out-of-tree, \
                unsigned or proprietary module, warning for an in-tree one or one of unknown \
                provenance. Source: case S4; Brendan Gregg, \"CPU Flame Graphs\" (a frame's width \
                is its share of CPU time).",
    false_positives: "A module that does the host's real work (a filesystem or NIC driver under \
                      heavy I/O) is expected on the stacks; the finding says how wide it is and \
                      whether it is third-party.",
    remedy: "Profile with and without the module (or its feature disabled), ask its vendor for a \
             fixed version, or exclude the hot traffic from it.",
};

pub static LOCKS: RuleMeta = RuleMeta {
    id: "profile.lock-contention",
    title: "Kernel spin-lock contention",
    area: "profile",
    checks: "Samples whose leaf is a spin-lock slow path (`native_queued_spin_lock_slowpath`, \
             `queued_spin_lock_slowpath`, `__pv_queued_spin_lock_slowpath`, `_raw_spin_lock*`, \
             `osq_lock`, rwlock slow paths) and the function that takes the lock (the first \
             frame above the lock functions).",
    why: "An uncontended qspinlock is one inlined compare-and-swap; time in the slow path is CPUs \
          spinning on a lock another CPU holds, and it grows with the number of CPUs fighting \
          for it (case S4).",
    threshold: "≥ 5 % of busy samples: warning; ≥ 20 %: critical. Source: Linux \
                `kernel/locking/qspinlock.c` (slow path entered only under contention), case S4.",
    false_positives: "Paravirtualised guests attribute waiting for a preempted lock holder to \
                      `__pv_queued_spin_lock_slowpath`, which points at vCPU overcommit rather \
                      than code.",
    remedy: "Find the lock from its callers (below) and reduce sharing: per-CPU structures, \
             more queues, or the module or feature that takes it.",
};

pub static SCHED: RuleMeta = RuleMeta {
    id: "profile.sched-thrash",
    title: "CPU time goes to context switching",
    area: "profile",
    checks: "Samples whose leaf is a context-switch path (`finish_task_switch`, `__schedule`, \
             `__switch_to`…), and the context-switch rate per CPU (`vmstat` `cs`).",
    why: "Threads that block and wake constantly (oversized pools, lock hand-offs, tiny I/O) spend \
          CPU in the scheduler and lose their caches on every switch.",
    threshold: "≥ 10 % of busy samples in context-switch paths: information, warning when \
                `cs` ≥ 5 000 per CPU per second corroborates it. Source: Brendan Gregg, Systems Performance 2nd \
                ed., 6.6 (scheduler latency and context switches).",
    false_positives: "On `cpu-clock` sampling in VMs, samples that land when interrupts are \
                      re-enabled are attributed to `finish_task_switch`, overstating it.",
    remedy: "Reduce thread counts and hand-offs (pool sizes, batching), and look at which \
             commands switch most (`pidstat -w`).",
};

pub static SOFTIRQ_COST: RuleMeta = RuleMeta {
    id: "profile.softirq-cost",
    title: "Soft-IRQ processing takes a large share of CPU time",
    area: "profile",
    checks: "Samples with `net_rx_action`, `__do_softirq` or `handle_softirqs` on the stack, and \
             what runs under them.",
    why: "Packet processing in soft-IRQ context runs before any task on that CPU; when it is \
          slow per packet the NIC's CPUs saturate at low traffic (case S4: 100 % `%soft` at 30 MB/s).",
    threshold: "≥ 20 % of busy samples: warning; ≥ 50 %: critical. Source: case S4; Linux \
                `Documentation/networking/scaling.rst` (RSS/RPS spread this work).",
    false_positives: "A host whose job is packet forwarding.",
    remedy: "Look at what runs under the soft-IRQ (below): filters, modules, conntrack; spread \
             queues over more CPUs only once the per-packet cost is understood.",
};

fn enough(p: &Profile) -> bool {
    p.busy_samples >= MIN_BUSY_SAMPLES || p.source_kind == "perf report"
}

fn not_evaluated(f: &HostFacts) -> Option<Check> {
    if f.profiles.is_empty() {
        return Some(Check::NotEvaluated(
            "no CPU profile (`perf script` or `perf report`) in the bundle".into(),
        ));
    }
    if !f.profiles.iter().any(enough) {
        return Some(Check::NotEvaluated(format!(
            "the profile has fewer than {MIN_BUSY_SAMPLES} busy samples"
        )));
    }
    None
}

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

/// `profile.module-hot-path`.
pub fn check_module_hot(f: &HostFacts) -> Check {
    if let Some(c) = not_evaluated(f) {
        return c;
    }
    let mut out = Vec::new();
    let mut seen = 0;
    for p in f.profiles.iter().filter(|p| enough(p)) {
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
    let mut explains = vec![SOFTIRQ_COST.id, super::kernel::TAINT.id];
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
        explains.push(super::softirq::META.id);
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
        rule_id: MODULE_HOT.id,
        explains,
        area: MODULE_HOT.area,
        title: format!(
            "{who} `{}` on {:.0} % of busy CPU samples",
            m.module, m.inclusive_pct
        ),
        severity: if third == Some(true) {
            Severity::Critical
        } else {
            Severity::Warning
        },
        confidence: if third.is_some() && p.source_kind == "perf script" {
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

/// `profile.lock-contention`.
pub fn check_locks(f: &HostFacts) -> Check {
    if let Some(c) = not_evaluated(f) {
        return c;
    }
    let mut out = Vec::new();
    let mut worst = 0.0f64;
    for p in f.profiles.iter().filter(|p| enough(p)) {
        worst = worst.max(p.locks.pct);
        if p.locks.pct < LOCK_WARN_PCT {
            continue;
        }
        let callers: Vec<String> = p
            .locks
            .by
            .iter()
            .take(5)
            .map(|c| format!("`{}` ({:.1} %)", c.name, c.pct))
            .collect();
        out.push(Finding {
            rule_id: LOCKS.id,
            explains: Vec::new(),
            area: LOCKS.area,
            title: format!(
                "{:.0} % of busy CPU samples spin in kernel lock slow paths",
                p.locks.pct
            ),
            severity: if p.locks.pct >= LOCK_CRIT_PCT {
                Severity::Critical
            } else {
                Severity::Warning
            },
            confidence: if p.source_kind == "perf script" {
                Confidence::High
            } else {
                Confidence::Medium
            },
            why: if callers.is_empty() {
                format!("{} samples end in a spin-lock slow path.", p.locks.samples)
            } else {
                format!(
                    "{} samples end in a spin-lock slow path; the lock is taken by {}.",
                    p.locks.samples,
                    callers.join(", ")
                )
            },
            details: Vec::new(),
            score: p.locks.pct,
            time_range: None,
            evidence: vec![Evidence::new(
                &p.artifact,
                p.locks.lines.clone(),
                "samples in spin-lock slow paths",
            )],
        });
    }
    if out.is_empty() {
        Check::Clear(format!(
            "spin-lock slow paths on {worst:.1} % of busy samples"
        ))
    } else {
        Check::Found(out)
    }
}

/// Mean context switches per second per CPU from `vmstat`, with its citation.
fn cs_per_cpu(f: &HostFacts) -> Option<(f64, crate::evidence::Cited<()>)> {
    let cs = f.memory.context_switches_per_s.as_ref()?;
    let cpus = f.identity.cpus.filter(|&c| c > 0)? as f64;
    Some((
        cs.value / cpus,
        crate::evidence::Cited::lines((), &cs.artifact, cs.lines.clone()),
    ))
}

/// `profile.sched-thrash`.
pub fn check_sched(f: &HostFacts) -> Check {
    if let Some(c) = not_evaluated(f) {
        return c;
    }
    let mut out = Vec::new();
    let mut worst = 0.0f64;
    for p in f.profiles.iter().filter(|p| enough(p)) {
        worst = worst.max(p.sched.pct);
        if p.sched.pct < SCHED_WARN_PCT {
            continue;
        }
        let cs = cs_per_cpu(f);
        let high_cs = cs.as_ref().is_some_and(|(r, _)| *r >= CS_PER_CPU_HIGH);
        let mut ev = vec![Evidence::new(
            &p.artifact,
            p.sched.lines.clone(),
            "samples in context-switch paths",
        )];
        let mut details = Vec::new();
        if let Some((rate, c)) = &cs {
            ev.push(
                c.evidence("context switches per second (`cs`)")
                    .with_header("r  b"),
            );
            details.push(format!("{rate:.0} context switches per CPU per second."));
        }
        out.push(Finding {
            rule_id: SCHED.id,
            explains: Vec::new(),
            area: SCHED.area,
            title: format!(
                "{:.0} % of busy CPU samples in context-switch paths",
                p.sched.pct
            ),
            // Without a high switch rate the samples alone may be the cpu-clock artefact
            // (see false positives): information only.
            severity: if high_cs {
                Severity::Warning
            } else {
                Severity::Info
            },
            confidence: if high_cs {
                Confidence::High
            } else {
                Confidence::Low
            },
            why: format!(
                "{} of {} busy samples end in the scheduler's switch path.",
                p.sched.samples, p.busy_samples
            ),
            details,
            score: p.sched.pct,
            time_range: None,
            evidence: ev,
        });
    }
    if out.is_empty() {
        Check::Clear(format!(
            "context-switch paths on {worst:.1} % of busy samples"
        ))
    } else {
        Check::Found(out)
    }
}

/// The CPUs whose mean `%soft` (mpstat) reaches the soft-IRQ saturation threshold, as one line
/// joining the profile to the utilisation it explains; empty when none does.
fn soft_cpus(f: &HostFacts) -> Vec<String> {
    let mut hot: Vec<(u32, f64)> = f
        .cpus
        .iter()
        .filter_map(|c| super::mean(c.samples.iter().map(|s| s.soft_pct)).map(|m| (c.cpu, m)))
        .filter(|&(_, m)| m >= super::softirq::SOFT_WARN_PCT)
        .collect();
    if hot.is_empty() {
        return Vec::new();
    }
    hot.sort_by_key(|h| h.0);
    let mean = hot.iter().map(|h| h.1).sum::<f64>() / hot.len() as f64;
    vec![format!(
        "{} CPU(s) at a mean {mean:.0} % `%soft` in `mpstat` (CPU {}): the soft-IRQ time these \
         stacks account for.",
        hot.len(),
        hot.iter()
            .take(8)
            .map(|h| h.0.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )]
}

/// `profile.softirq-cost`.
pub fn check_softirq(f: &HostFacts) -> Check {
    if let Some(c) = not_evaluated(f) {
        return c;
    }
    let scripts: Vec<&Profile> = f
        .profiles
        .iter()
        .filter(|p| enough(p) && p.source_kind == "perf script")
        .collect();
    if scripts.is_empty() {
        return Check::NotEvaluated(
            "stacks are needed (`perf script`); only `perf report` is here".into(),
        );
    }
    let mut out = Vec::new();
    let mut worst = 0.0f64;
    for p in scripts {
        worst = worst.max(p.softirq.pct);
        if p.softirq.pct < SOFTIRQ_WARN_PCT {
            continue;
        }
        let work: Vec<String> = p
            .softirq
            .by
            .iter()
            .take(5)
            .map(|c| format!("`{}` ({:.1} %)", c.name, c.pct))
            .collect();
        out.push(Finding {
            rule_id: SOFTIRQ_COST.id,
            explains: Vec::new(),
            area: SOFTIRQ_COST.area,
            title: format!(
                "{:.0} % of busy CPU samples in soft-IRQ processing",
                p.softirq.pct
            ),
            severity: if p.softirq.pct >= SOFTIRQ_CRIT_PCT {
                Severity::Critical
            } else {
                Severity::Warning
            },
            confidence: Confidence::High,
            why: format!(
                "{} of {} busy stacks run under the soft-IRQ handler{}.",
                p.softirq.samples,
                p.busy_samples,
                if work.is_empty() {
                    String::new()
                } else {
                    format!("; below it: {}", work.join(", "))
                }
            ),
            details: soft_cpus(f),
            score: p.softirq.pct,
            time_range: None,
            evidence: vec![Evidence::new(
                &p.artifact,
                p.softirq.lines.clone(),
                "samples under the soft-IRQ handler",
            )],
        });
    }
    if out.is_empty() {
        Check::Clear(format!("soft-IRQ stacks on {worst:.1} % of busy samples"))
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;
    use crate::facts::kernel::ModuleInfo;
    use crate::facts::profile::{Category, Share};
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    fn profile(module_pct: f64, lock_pct: f64) -> HostFacts {
        let busy = 1000u64;
        let n = |pct: f64| (pct * busy as f64 / 100.0) as u64;
        let p = Profile {
            artifact: "perf/perf-script.txt".into(),
            source_kind: "perf script",
            samples: busy,
            busy_samples: busy,
            modules: vec![ModuleHeat {
                module: "resguard_linux".into(),
                self_samples: n(module_pct / 4.0),
                inclusive_samples: n(module_pct),
                self_pct: module_pct / 4.0,
                inclusive_pct: module_pct,
                functions: vec!["net_asp_logic_access_check".into()],
                called_from: vec!["ip_local_out".into()],
                lines: vec![31, 33, 40],
            }],
            locks: Category {
                samples: n(lock_pct),
                pct: lock_pct,
                lines: vec![50, 51],
                by: vec![Share {
                    name: "net_asp_logic_access_check [resguard_linux]".into(),
                    samples: n(lock_pct),
                    pct: lock_pct,
                    ..Default::default()
                }],
            },
            ..Default::default()
        };
        HostFacts {
            profiles: vec![p],
            ..Default::default()
        }
    }

    #[test]
    fn module_share_thresholds_and_provenance() {
        assert!(is_clear(&check_module_hot(&profile(9.9, 0.0))));
        let v = found(check_module_hot(&profile(10.0, 0.0)));
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
        let v = found(check_module_hot(&f));
        assert_eq!(v[0].severity, Severity::Critical);
        assert!(v[0].title.contains("taint `OE`"), "{}", v[0].title);
        // It takes the contended lock and sits on the IP output path: explains both.
        assert!(v[0].explains.contains(&LOCKS.id));
        assert!(v[0].explains.contains(&crate::rules::softirq::META.id));
        assert!(is_not_evaluated(&check_module_hot(&HostFacts::default())));
    }

    #[test]
    fn lock_contention_names_the_caller() {
        assert!(is_clear(&check_locks(&profile(0.0, 4.9))));
        let v = found(check_locks(&profile(0.0, 6.0)));
        assert_eq!(v[0].severity, Severity::Warning);
        assert!(v[0]
            .why
            .contains("net_asp_logic_access_check [resguard_linux]"));
        assert_eq!(
            found(check_locks(&profile(0.0, 30.0)))[0].severity,
            Severity::Critical
        );
    }

    #[test]
    fn softirq_cost_names_the_saturated_cpus() {
        use crate::facts::{CpuSample, CpuSeries};
        let mut f = profile(0.0, 0.0);
        f.profiles[0].softirq = Category {
            samples: 600,
            pct: 60.0,
            lines: vec![9],
            by: Vec::new(),
        };
        let series = |cpu: u32, soft: f64| CpuSeries {
            cpu,
            artifact: "sysstat/mpstat-P-ALL.txt".into(),
            samples: vec![CpuSample {
                time: None,
                line: 5,
                header_line: 3,
                user_pct: Some(0.2),
                sys_pct: Some(0.5),
                iowait_pct: None,
                irq_pct: None,
                soft_pct: Some(soft),
                steal_pct: None,
                idle_pct: Some(100.0 - soft),
            }],
        };
        f.cpus = vec![series(0, 99.0), series(1, 98.0), series(2, 3.0)].into();
        let v = found(check_softirq(&f));
        assert_eq!(v[0].severity, Severity::Critical);
        assert!(
            v[0].details[0].starts_with("2 CPU(s)"),
            "{:?}",
            v[0].details
        );
        assert!(v[0].details[0].contains("CPU 0, 1"), "{:?}", v[0].details);
    }

    #[test]
    fn small_profiles_are_not_judged() {
        let mut f = profile(50.0, 50.0);
        f.profiles[0].busy_samples = 40;
        assert!(is_not_evaluated(&check_locks(&f)));
    }
}
