//! `cgroup.cpu-throttled`: a target process's CPU cgroup ran out of its CFS quota in a large
//! share of its enforcement periods, so its threads waited for the next period.
//!
//! Reads `cpu.stat` (`nr_periods`, `nr_throttled`, v2 `throttled_usec`, v1 `throttled_time`) of
//! each target process's cgroup at the window's start and end, and the quota (v2 `cpu.max`, v1
//! `cpu.cfs_quota_us` / `cpu.cfs_period_us`): from the collector's `cgroup.tsv`, or from
//! `cpu.stat` files handed over loose (two reads, e.g. `cpu.stat.before` and `cpu.stat`, are a
//! window whose length is not recorded).

use crate::facts::cgroup::CgroupUsage;
use crate::facts::{Fact, HostFacts};
use crate::rules::common::finding;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Throttled periods ÷ periods at or above which throttling is reported, %.
pub const THROTTLED_PCT: f64 = 25.0;

/// Fewer enforcement periods than this in the window say too little (at the default 100 ms
/// period: one second of runnable time).
pub const MIN_PERIODS: u64 = 10;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "cgroup.cpu-throttled",
    title: "CPU cgroup throttled by its quota",
    area: Area::Cpu,
    severity: Severity::Warning,
    needs: &[Fact::Cgroups],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "throttled periods (`nr_throttled` ÷ `nr_periods`)",
            value: Limit::Num(THROTTLED_PCT),
            unit: "% of periods",
            meaning: "over the window (two snapshots): a warning at or above; counted since the \
                      cgroup was created (one snapshot): information",
            sources: &[
                Source::Doc {
                    document: "kubernetes-monitoring/kubernetes-mixin, alert CPUThrottlingHigh \
                               (throttled periods over periods above 25 % for 15 minutes), and \
                               its runbook",
                    section: Some("CPUThrottlingHigh"),
                    url: Some("https://runbooks.prometheus-operator.dev/runbooks/kubernetes/cputhrottlinghigh/"),
                },
                Source::Doc {
                    document: "Grafana Sift, resource contention analysis (pods throttled in \
                               more than 25 % of CFS periods)",
                    section: Some("Step 1: Find pods with high CPU throttling"),
                    url: Some("https://grafana.com/docs/plugins/grafana-ml-app/v1.31.0/sift/analyses/resource-contentions/"),
                },
                Source::Doc {
                    document: "Linux kernel documentation, Documentation/scheduler/sched-bwc.rst \
                               (what nr_periods, nr_throttled and throttled_time count)",
                    section: Some("Statistics"),
                    url: Some("https://docs.kernel.org/scheduler/sched-bwc.html#statistics"),
                },
            ],
        },
        Threshold {
            name: "enforcement periods in the window (`nr_periods` increase)",
            value: Limit::Count(MIN_PERIODS),
            unit: "periods",
            meaning: "fewer: the share is not judged (a cgroup that was runnable for about a \
                      second says too little)",
            sources: &[Source::Rca(
                "a share of fewer than ten periods swings by ten points with one period; at \
                 the default 100 ms period ten periods are one second of runnable time",
            )],
        },
    ],
    groups: &[SymptomGroup::KernelCpu, SymptomGroup::Threads],
    explains: &[],
    fires_when: "a target process's cgroup was throttled in at least 25 % of its CFS \
                 enforcement periods during the window",
    checks: "For each target process, `cpu.stat` of its CPU cgroup at the window's start and \
             end: the increase of `nr_throttled` over the increase of `nr_periods`, and the time \
             throttled (v2 `throttled_usec`, v1 `throttled_time` in nanoseconds), with the quota \
             in CPUs (`cpu.max`, `cpu.cfs_quota_us` / `cpu.cfs_period_us`).",
    why: "With CFS bandwidth control a cgroup may use `quota` microseconds of CPU per `period` \
          (100 ms by default); once its threads have used it they are not run again until the \
          next period, however idle the host is. A multi-threaded JVM spends a 2-CPU quota in a \
          fraction of a period and then stalls for the rest: request latency grows by up to a \
          period, GC pauses stretch, and host-wide CPU graphs show spare capacity.",
    false_positives: "Batch work that is meant to be capped is throttled by design. A total \
                      since the cgroup was created dates nothing (information only). A cgroup \
                      that was runnable in only a few periods (below the minimum) is not judged.",
    remedy: "Raise or remove the CPU limit (`cpu.max`, `cpu.cfs_quota_us`, a container's CPU \
             limit, systemd `CPUQuota=`) to the workload's peak, not its average; size thread \
             pools and GC threads (`-XX:ActiveProcessorCount`, `-XX:ParallelGCThreads`) to the \
             quota; where the kernel has it, `cpu.max.burst` lets short bursts borrow unused \
             quota.",
    file: file!(),
};

/// A finding for one cgroup, `Err(note)` when it is below the thresholds or not judged.
fn judge(g: &CgroupUsage) -> Result<Finding, String> {
    let (Some(p), Some(t)) = (&g.cpu_periods, &g.cpu_throttled) else {
        return Err(format!("{}: no `cpu.stat` period counters", g.process));
    };
    let (periods, throttled) = (p.delta(), t.delta());
    let windowed = p.start.is_some() && t.start.is_some();
    if periods < MIN_PERIODS {
        return Err(format!(
            "{}: {periods} enforcement periods {} (fewer than {MIN_PERIODS})",
            g.process,
            if windowed {
                "in the window"
            } else {
                "since creation"
            }
        ));
    }
    let pct = throttled as f64 * 100.0 / periods as f64;
    if pct < THROTTLED_PCT {
        return Err(format!(
            "{}: throttled in {pct:.0} % of {periods} periods",
            g.process
        ));
    }
    let cg = g.cpu_path.as_deref().unwrap_or("(path not in the bundle)");
    let name = match &g.cpu_path {
        Some(c) => format!("CPU cgroup {c} of {}", g.process),
        None => format!("The CPU cgroup of {}", g.process),
    };
    let (severity, confidence, when) = if windowed {
        (
            Severity::Warning,
            Confidence::High,
            match p.seconds {
                Some(s) => format!("during the {s:.0} s window"),
                None => "between the two snapshots (their interval is not recorded)".to_string(),
            },
        )
    } else {
        (
            Severity::Info,
            Confidence::Low,
            "since the cgroup was created (one snapshot: not dated)".to_string(),
        )
    };
    let mut ev = p.evidence(&format!("cpu cgroup {cg}: nr_periods"));
    ev.extend(t.evidence(&format!("cpu cgroup {cg}: nr_throttled")));
    let mut details = Vec::new();
    let quota = g.cpu_quota.as_ref().map(|q| {
        ev.push(q.evidence(format!("cpu cgroup quota (set on {})", q.value.dir)));
        format!(
            " ({:.2} CPU: {} µs per {} µs period)",
            q.value.cores, q.value.quota_us, q.value.period_us
        )
    });
    if let Some(us) = &g.throttled_us {
        let s = us.delta() as f64 / 1e6;
        match (
            p.seconds.filter(|_| us.seconds.is_some()),
            us.start.is_some(),
        ) {
            (Some(w), _) => details.push(format!(
                "Throttled time (summed over CPUs): {s:.1} s in the {w:.0} s window."
            )),
            (None, true) => details.push(format!(
                "Throttled time (summed over CPUs): {s:.1} s between the two snapshots."
            )),
            (None, false) => details.push(format!(
                "Throttled time (summed over CPUs) since the cgroup was created: {s:.1} s."
            )),
        }
        ev.extend(us.evidence(&format!("cpu cgroup {cg}: throttled time")));
    }
    let quota = quota.unwrap_or_default();
    let mut out = finding(
        &META,
        severity,
        confidence,
        format!("{name} throttled in {throttled} of {periods} periods ({pct:.0} %) {when}"),
        format!(
            "The threads of {} used up their cgroup's CPU quota{quota} in {pct:.0} % of the \
             CFS periods {when} and waited for the next period each time ({THROTTLED_PCT:.0} % \
             or more is reported).",
            g.process
        ),
        ev,
        pct,
    );
    out.details = details;
    Ok(out)
}

/// CFS throttling of the target processes' cgroups.
pub fn check(f: &HostFacts) -> Check {
    let with: Vec<&CgroupUsage> = f
        .cgroups
        .iter()
        .filter(|g| g.cpu_periods.is_some() && g.cpu_throttled.is_some())
        .collect();
    if with.is_empty() {
        return Check::NotEvaluated(
            "no `cpu.stat` (`nr_periods`, `nr_throttled`) of a target process's cgroup in the \
             bundle (the collector's `cgroup.tsv`, or a `cpu.stat` file; the `cpu` controller \
             must be enabled for the cgroup)"
                .into(),
        );
    }
    let mut found = Vec::new();
    let mut notes = Vec::new();
    for g in with {
        match judge(g) {
            Ok(x) => found.push(x),
            Err(n) => notes.push(n),
        }
    }
    if found.is_empty() {
        return Check::Clear(notes.join("; "));
    }
    Check::Found(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;
    use crate::facts::cgroup::CgroupCounter;
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    fn counter(start: Option<u64>, end: u64, line: usize) -> CgroupCounter {
        CgroupCounter {
            start: start.map(|s| Cited::new(s, "jvm/9/cgroup.tsv.start", line)),
            end: Cited::new(end, "jvm/9/cgroup.tsv.end", line),
            seconds: start.map(|_| 30.0),
        }
    }

    fn group(p: (Option<u64>, u64), t: (Option<u64>, u64)) -> HostFacts {
        HostFacts {
            cgroups: vec![CgroupUsage {
                dir: "jvm/9".into(),
                pid: Some(9),
                process: "Spin (pid 9)".into(),
                cpu_path: Some("/rca-throttle".into()),
                cpu_periods: Some(counter(p.0, p.1, 79)),
                cpu_throttled: Some(counter(t.0, t.1, 80)),
                throttled_us: Some(counter(p.0.map(|_| 6_739_335), 31_378_848, 81)),
                ..CgroupUsage::default()
            }],
            ..HostFacts::default()
        }
    }

    #[test]
    fn fires_on_throttling_in_the_window() {
        let f = group((Some(85), 385), (Some(85), 385));
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Warning);
        assert_eq!(
            v[0].title,
            "CPU cgroup /rca-throttle of Spin (pid 9) throttled in 300 of 300 periods (100 %) \
             during the 30 s window"
        );
        assert_eq!(
            v[0].details,
            ["Throttled time (summed over CPUs): 24.6 s in the 30 s window."]
        );
    }

    #[test]
    fn two_reads_without_a_recorded_interval_are_a_window() {
        let mut f = group((Some(26), 126), (Some(0), 99));
        let g = &mut f.cgroups[0];
        for k in [
            &mut g.cpu_periods,
            &mut g.cpu_throttled,
            &mut g.throttled_us,
        ] {
            k.as_mut().unwrap().seconds = None;
        }
        g.cpu_path = None;
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Warning);
        assert_eq!(
            v[0].title,
            "The CPU cgroup of Spin (pid 9) throttled in 99 of 100 periods (99 %) between the \
             two snapshots (their interval is not recorded)"
        );
        assert_eq!(
            v[0].details,
            ["Throttled time (summed over CPUs): 24.6 s between the two snapshots."]
        );
    }

    #[test]
    fn fires_as_information_since_creation() {
        let f = group((None, 1000), (None, 400));
        let v = found(check(&f));
        assert_eq!(
            (v[0].severity, v[0].confidence),
            (Severity::Info, Confidence::Low)
        );
        assert!(v[0].title.contains("400 of 1000 periods (40 %)"));
    }

    #[test]
    fn clear_when_the_window_was_not_throttled() {
        // Since creation 505 of 535 periods were throttled; in the window none was.
        let f = group((Some(535), 751), (Some(505), 505));
        assert!(is_clear(&check(&f)));
        let f = group((Some(100), 200), (Some(10), 34));
        assert!(is_clear(&check(&f)), "24 % is below the threshold");
    }

    #[test]
    fn clear_with_too_few_periods() {
        let f = group((Some(100), 105), (Some(10), 15));
        assert!(is_clear(&check(&f)));
    }

    #[test]
    fn not_evaluated_without_cpu_stat() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
