//! `mem.compaction-stall`: allocations stalled in direct memory compaction, typically page
//! faults that wanted a transparent huge page.
//!
//! Reads the `/proc/vmstat` compaction and THP counters (`compact_stall`, `compact_fail`,
//! `compact_success`, `thp_fault_alloc`, `thp_fault_fallback`, `thp_collapse_alloc`) over the
//! window, the THP settings (`enabled`, `defrag`), `%sys` from the CPU series, and the share of
//! the CPU profile spent in compaction when a profile exists.

use crate::facts::{Fact, HostFacts};
use crate::rules::common::{counter_words, finding, mean};
use crate::rules::{
    Area, Check, Confidence, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Direct compaction stalls per second over the window at or above which they are reported.
pub const STALLS_PER_S: f64 = 1.0;

/// Kernel functions of direct compaction and the allocation slow path that enters it.
pub const COMPACTION_FUNCTIONS: &[&str] = &[
    "__alloc_pages_direct_compact",
    "try_to_compact_pages",
    "compact_zone_order",
    "compact_zone",
    "isolate_migratepages_block",
    "isolate_migratepages",
    "isolate_freepages_block",
    "compaction_alloc",
    "migrate_pages",
    "__alloc_pages_slowpath",
];

/// Share of busy profile samples in compaction at or above which the profile corroborates, %.
pub const PROFILE_PCT: f64 = 1.0;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "mem.compaction-stall",
    title: "Allocations stalled in direct memory compaction",
    area: Area::Memory,
    severity: Severity::Warning,
    needs: &[Fact::Thp],
    reads: &[Fact::Cpus, Fact::Profiles],
    thresholds: &[
        Threshold {
            name: "`/proc/vmstat` `compact_stall` rate",
            value: Limit::Num(STALLS_PER_S),
            unit: "stalls/s over the window",
            meaning: "at or above: a warning; counted between two snapshots whose interval \
                      is not known (loose files without times): the count is reported as a \
                      warning of medium confidence with the rate unknown, since any stall in \
                      the window reaches the rate when the snapshots were at most that many \
                      seconds apart and no interval is invented; counted since boot only (one \
                      snapshot): information with the rate per hour of uptime; none in the \
                      window: clear whatever the THP settings",
            sources: &[
                Source::Doc {
                    document:
                        "Linux kernel documentation, Documentation/admin-guide/mm/transhuge.rst",
                    section: Some("Monitoring usage: compact_stall; Global THP controls: defrag"),
                    url: Some("https://docs.kernel.org/admin-guide/mm/transhuge.html"),
                },
                Source::Rca(
                    "each stall is a synchronous compaction pass run by the faulting task in its \
                     page fault, costing from microseconds to milliseconds; one a second on the \
                     same service is a latency an operator can see, fewer is background",
                ),
            ],
        },
        Threshold {
            name: "profile samples in compaction functions",
            value: Limit::Num(PROFILE_PCT),
            unit: "% of busy samples",
            meaning: "at or above: the profile corroborates the stalls (higher confidence)",
            sources: &[Source::Rca(
                "direct compaction runs in the faulting task's context; a percent of all busy \
                 CPU time in `isolate_migratepages_block`, `compaction_alloc` and their callers \
                 is work no healthy host does",
            )],
        },
    ],
    groups: &[SymptomGroup::Memory, SymptomGroup::KernelCpu],
    explains: &[],
    fires_when: "`compact_stall` grows by at least 1 per second over the window, or grows \
                 between two snapshots of unknown interval (rate unknown, medium confidence), \
                 or is above zero since boot (information)",
    checks: "The increase of `/proc/vmstat` `compact_stall` between the window's snapshots (with \
             `compact_fail`, `compact_success`, `thp_fault_alloc`, `thp_fault_fallback`, \
             `thp_collapse_alloc`), the THP `enabled` and `defrag` settings in force, the mean \
             `%sys` of the CPU series, and the share of CPU-profile samples in direct compaction \
             (`__alloc_pages_direct_compact`, `isolate_migratepages_block`, `compaction_alloc`, \
             `__alloc_pages_slowpath`, …).",
    why: "When a page fault wants a huge page and no free 2 MiB block exists, `defrag` decides \
          whether the faulting task stops to compact memory itself (`always`, and `madvise` for \
          regions that asked). The task stalls in the kernel: `%sys` rises, latency spikes, and \
          under fragmentation most passes fail (`compact_fail`) and the fault falls back to small \
          pages anyway (`thp_fault_fallback`). Database and JVM vendors (Oracle, MongoDB before \
          8.0, Redis) advise against `always` for this reason.",
    false_positives: "A count since boot dates nothing (information only). `[always]` with no \
                      stall in the window is not a finding: the setting costs nothing while \
                      free huge blocks exist. Stalls from hugetlbfs or high-order kernel \
                      allocations are counted too.",
    remedy: "Set `defrag` to `defer+madvise` or `madvise` (`echo defer+madvise > \
             /sys/kernel/mm/transparent_hugepage/defrag`), or `enabled` to `madvise`/`never` for \
             databases that advise it; keep free memory above the watermarks \
             (`vm.min_free_kbytes`, `vm.watermark_scale_factor`); let the JVM use explicit large \
             pages (`-XX:+UseLargePages` with hugetlbfs) instead of THP faults.",
    file: file!(),
};

/// Share of the profile's busy samples in compaction, %, and where it was read; `None` without
/// a profile.
fn profile_share(f: &HostFacts) -> Option<(f64, String)> {
    let p = f.profiles.first()?;
    let busy = p.busy_samples;
    let is_compaction =
        |frame: &str| COMPACTION_FUNCTIONS.contains(&crate::facts::profile::base_symbol(frame));
    if !p.folded.is_empty() && busy > 0 {
        let n: u64 = p
            .folded
            .iter()
            .filter(|(stack, _)| stack.split(';').any(is_compaction))
            .map(|(_, n)| n)
            .sum();
        return Some((n as f64 * 100.0 / busy as f64, p.artifact.clone()));
    }
    let pct: f64 = p
        .top_symbols
        .iter()
        .filter(|s| is_compaction(&s.name))
        .map(|s| s.pct)
        .sum();
    Some((pct, p.artifact.clone()))
}

/// Direct compaction stalls over the window or since boot.
pub fn check(f: &HostFacts) -> Check {
    let t = &f.thp;
    let Some(stall) = &t.compact_stall else {
        return Check::NotEvaluated(
            "no `/proc/vmstat` with a `compact_stall` counter in the bundle".into(),
        );
    };
    let settings = match (&t.enabled, &t.defrag) {
        (Some(e), Some(d)) => format!("THP enabled [{}], defrag [{}]", e.value, d.value),
        (Some(e), None) => format!("THP enabled [{}]", e.value),
        _ => "THP settings not in the bundle".to_string(),
    };
    let n = stall.value.delta;
    let rate = stall.value.seconds.map(|s| n as f64 / s);
    if n == 0 {
        return Check::Clear(match (stall.value.seconds, stall.value.between) {
            (Some(s), _) => {
                format!("no direct compaction stall in the {s:.0} s window ({settings})")
            }
            (None, Some(source)) => format!(
                "no direct compaction stall between the two {source} snapshots ({settings})"
            ),
            (None, None) => format!("no direct compaction stall since boot ({settings})"),
        });
    }
    if let Some(r) = rate.filter(|&r| r < STALLS_PER_S) {
        return Check::Clear(format!(
            "{n} direct compaction stalls in the window, {r:.2}/s (below {STALLS_PER_S}/s; \
             {settings})"
        ));
    }
    let w = counter_words(
        &stall.value,
        f.platform.uptime_s.as_ref(),
        Confidence::Medium,
    );
    let mut ev = vec![stall.evidence("/proc/vmstat compact_stall")];
    ev.extend(w.uptime);
    let mut details = Vec::new();
    let rate_unknown = stall.value.interval_unknown();
    let mut confidence = w.confidence;
    if let (Some(fail), Some(ok)) = (&t.compact_fail, &t.compact_success) {
        let ended = fail.value.delta.saturating_add(ok.value.delta);
        if ended > 0 {
            details.push(format!(
                "Compaction passes that failed: {} of {ended} ({:.0} %); succeeded: {}.",
                fail.value.delta,
                fail.value.delta as f64 * 100.0 / ended as f64,
                ok.value.delta
            ));
            ev.push(fail.evidence("/proc/vmstat compact_fail"));
        }
    }
    if let (Some(a), Some(fb)) = (&t.thp_fault_alloc, &t.thp_fault_fallback) {
        let wanted = a.value.delta.saturating_add(fb.value.delta);
        if wanted > 0 {
            details.push(format!(
                "Huge-page faults: {} got a huge page, {} fell back to small pages ({:.0} %).",
                a.value.delta,
                fb.value.delta,
                fb.value.delta as f64 * 100.0 / wanted as f64
            ));
            ev.push(fb.evidence("/proc/vmstat thp_fault_fallback"));
        }
    }
    if let Some(c) = &t.thp_collapse_alloc {
        details.push(format!(
            "Huge pages built by khugepaged (thp_collapse_alloc): {}.",
            c.value.delta
        ));
    }
    if let Some(d) = &t.defrag {
        ev.push(d.evidence("THP defrag in force"));
        if d.value == "always" && w.severity == Severity::Warning && !rate_unknown {
            confidence = Confidence::High;
        }
    }
    if let Some(e) = &t.enabled {
        ev.push(e.evidence("THP enabled in force"));
    }
    if let Some(cpus) = f.cpus.get() {
        let sys = mean(
            cpus.iter()
                .flat_map(|c| c.samples.iter().map(|s| s.sys_pct)),
        );
        if let Some(sys) = sys {
            details.push(format!("Mean %sys over the CPU series: {sys:.1} %."));
        }
    }
    if let Some((pct, artifact)) = profile_share(f) {
        details.push(format!(
            "CPU profile ({artifact}): {pct:.1} % of busy samples in direct compaction \
             functions."
        ));
        if pct >= PROFILE_PCT && w.severity == Severity::Warning && !rate_unknown {
            confidence = Confidence::High;
        }
    }
    let (title, why) = match (rate, stall.value.seconds) {
        (Some(r), Some(s)) => (
            format!(
                "{n} direct compaction stalls during the {s:.0} s window ({r:.1}/s; {settings})"
            ),
            format!(
                "Allocations stalled {n} times in direct compaction during the {s:.0} s window, \
                 {r:.1} per second (at least {STALLS_PER_S}/s is reported): tasks compacted \
                 memory in their own page faults, typically to get a transparent huge page \
                 ({settings})."
            ),
        ),
        (None, None) if rate_unknown => (
            format!("{n} direct compaction stalls {} ({settings})", w.when),
            format!(
                "Allocations stalled {n} times in direct compaction {}: tasks compacted memory \
                 in their own page faults, typically to get a transparent huge page \
                 ({settings}). The rate is unknown: it reaches {STALLS_PER_S}/s if the \
                 snapshots were taken at most {n} s apart.",
                w.when
            ),
        ),
        _ => (
            format!("{n} direct compaction stalls {} ({settings})", w.when),
            format!(
                "Allocations stalled {n} times in direct compaction {}; one snapshot does not \
                 say when ({settings}).",
                w.when
            ),
        ),
    };
    let mut out = finding(
        &META,
        w.severity,
        confidence,
        title,
        why,
        ev,
        rate.unwrap_or(0.0),
    );
    out.details = details;
    Check::Found(vec![out])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;
    use crate::facts::CounterChange;
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    fn change(delta: u64, seconds: Option<f64>) -> Option<Cited<CounterChange>> {
        Some(Cited::new(
            CounterChange {
                delta,
                seconds,
                between: seconds.map(|_| "`/proc/vmstat`"),
            },
            "proc/vmstat.end",
            90,
        ))
    }

    fn facts(stalls: u64, seconds: Option<f64>, defrag: &str) -> HostFacts {
        let mut f = HostFacts::default();
        f.thp.compact_stall = change(stalls, seconds);
        f.thp.compact_fail = change(stalls * 4 / 5, seconds);
        f.thp.compact_success = change(stalls / 5, seconds);
        f.thp.thp_fault_alloc = change(100, seconds);
        f.thp.thp_fault_fallback = change(300, seconds);
        f.thp.enabled = Some(Cited::new("always".into(), "mem/thp.txt", 1));
        f.thp.defrag = Some(Cited::new(defrag.into(), "mem/thp.txt", 2));
        f
    }

    #[test]
    fn fires_on_stalls_in_the_window() {
        let v = found(check(&facts(1200, Some(60.0), "always")));
        assert_eq!(v[0].severity, Severity::Warning);
        assert_eq!(v[0].confidence, Confidence::High);
        assert_eq!(
            v[0].title,
            "1200 direct compaction stalls during the 60 s window (20.0/s; THP enabled \
             [always], defrag [always])"
        );
        assert_eq!(
            v[0].details[0],
            "Compaction passes that failed: 960 of 1200 (80 %); succeeded: 240."
        );
        assert!(v[0].details[1].contains("300 fell back to small pages (75 %)"));
    }

    #[test]
    fn between_snapshots_of_unknown_interval_is_a_warning_with_the_rate_unknown() {
        let mut f = facts(900, None, "always");
        let between = |c: &mut Option<Cited<CounterChange>>| {
            if let Some(c) = c {
                c.value.between = Some("`/proc/vmstat`");
            }
        };
        between(&mut f.thp.compact_stall);
        between(&mut f.thp.compact_fail);
        between(&mut f.thp.compact_success);
        let v = found(check(&f));
        assert_eq!(
            (v[0].severity, v[0].confidence),
            (Severity::Warning, Confidence::Medium)
        );
        assert_eq!(
            v[0].title,
            "900 direct compaction stalls between the two `/proc/vmstat` snapshots (interval \
             unknown) (THP enabled [always], defrag [always])"
        );
        assert!(v[0].why.contains("at most 900 s apart"), "{}", v[0].why);
        if let Some(c) = &mut f.thp.compact_stall {
            c.value.delta = 0;
        }
        assert!(matches!(check(&f), Check::Clear(s)
            if s.starts_with("no direct compaction stall between the two `/proc/vmstat` snapshots")));
    }

    #[test]
    fn fires_as_information_since_boot() {
        let v = found(check(&facts(1038, None, "madvise")));
        assert_eq!(
            (v[0].severity, v[0].confidence),
            (Severity::Info, Confidence::Low)
        );
        assert!(v[0]
            .title
            .starts_with("1038 direct compaction stalls since boot"));
    }

    #[test]
    fn clear_with_thp_always_and_no_stall_in_the_window() {
        let c = check(&facts(0, Some(60.0), "always"));
        assert!(is_clear(&c));
        let Check::Clear(s) = c else { unreachable!() };
        assert_eq!(
            s,
            "no direct compaction stall in the 60 s window (THP enabled [always], defrag [always])"
        );
    }

    #[test]
    fn clear_below_one_stall_per_second() {
        assert!(is_clear(&check(&facts(30, Some(60.0), "madvise"))));
    }

    #[test]
    fn not_evaluated_without_proc_vmstat() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
