//! `cpu.run-queue`: more tasks runnable than there are CPUs to run them, through the window.
//!
//! Reads the run-queue samples (`vmstat` `r`, else `sar -q` `runq-sz`) and the CPU count; the
//! load averages and `vmstat` `b` / `sar -q` `blocked` only as context. A load average alone is
//! not read as CPU demand: on Linux it counts tasks blocked on I/O too.

use crate::evidence::Evidence;
use crate::facts::{time_label, Fact, HostFacts};
use crate::rules::common::{sustained_count, SUSTAINED, SUSTAINED_PCT};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
    TimeRange,
};

/// Fewest intervals to judge.
const MIN_INTERVALS: usize = 3;
/// CPU `some` pressure (avg60) that this finding accounts for, %: see `kernel.pressure`.
const CPU_PRESSURE_EXPLAINED_PCT: f64 = super::super::kernel::pressure::SOME_WARN_PCT;

const USE_METHOD: Source = Source::Doc {
    document: "Brendan Gregg, The USE Method: Linux Performance Checklist",
    section: Some("CPU, saturation: system-wide: vmstat 1, \"r\" > CPU count; sar -q, \"runq-sz\" > CPU count"),
    url: Some("https://www.brendangregg.com/USEmethod/use-linux.html"),
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "cpu.run-queue",
    title: "Run queue longer than the CPU count",
    area: Area::Cpu,
    severity: Severity::Warning,
    needs: &[Fact::Sched, Fact::Identity],
    reads: &[Fact::Cpus],
    thresholds: &[
        Threshold {
            name: "tasks runnable (vmstat r, sar -q runq-sz) per interval",
            value: Limit::Expr("> CPU count"),
            unit: "tasks",
            meaning: "above: the interval is CPU-saturated (tasks wait for a CPU)",
            sources: &[USE_METHOD],
        },
        Threshold {
            name: "share of intervals saturated",
            value: Limit::Num(SUSTAINED_PCT),
            unit: "%",
            meaning: "at or above, with a mean run queue above the CPU count: a warning",
            sources: &[SUSTAINED],
        },
    ],
    groups: &[SymptomGroup::KernelCpu],
    explains: &["kernel.pressure"],
    fires_when: "`vmstat` `r` (or `sar -q` `runq-sz`) > CPU count in ≥ 50 % of the intervals, and on average",
    checks: "Runnable tasks per interval (`vmstat` `r`, else `sar -q` `runq-sz`) against the \
             logical CPU count; tasks blocked on I/O (`b`, `blocked`) and the load average are \
             shown beside them, not counted.",
    why: "When more tasks are runnable than there are CPUs, the surplus waits in the run queue: \
          latency grows with the queue even though each CPU is \"only\" 100 % busy. This is the \
          USE method's CPU saturation signal.",
    false_positives: "vmstat's `r` counts the running tasks as well as the waiting ones, and \
                      the sampling tools themselves run: a queue of CPU count + 1 is marginal. \
                      A high load average with few runnable tasks is I/O (tasks in D state), \
                      not CPU: the rule does not read the load average for that reason.",
    remedy: "Find the threads that want the CPU (`pidstat -u`, `top -H`); reduce worker or GC \
             thread counts to the CPUs available, spread the load, or add CPUs.",
    file: file!(),
};

/// Runnable tasks against the CPU count.
pub fn check(f: &HostFacts) -> Check {
    let Some(ncpu) = f.identity.cpus.filter(|n| *n > 0) else {
        return Check::NotEvaluated(
            "the CPU count is unknown (no lscpu, mpstat or sar banner)".into(),
        );
    };
    let Some(q) = &f.sched.run_queue else {
        let load = f
            .sched
            .load_average
            .as_ref()
            .map(|l| {
                format!(
                    " (load average {:.2} is not enough: it counts tasks blocked on I/O too)",
                    l.value[0]
                )
            })
            .unwrap_or_default();
        return Check::NotEvaluated(format!(
            "no run-queue samples (vmstat r, sar -q runq-sz){load}"
        ));
    };
    let n = q.samples.len();
    if n < MIN_INTERVALS {
        return Check::NotEvaluated(format!("only {n} {} sample(s)", q.column));
    }
    let cpus = f64::from(ncpu);
    let mean_r = q.samples.iter().map(|s| s.runnable).sum::<f64>() / n as f64;
    let over: Vec<_> = q.samples.iter().filter(|s| s.runnable > cpus).collect();
    let blocked: Vec<f64> = q.samples.iter().filter_map(|s| s.blocked).collect();
    let mean_b = (!blocked.is_empty()).then(|| blocked.iter().sum::<f64>() / blocked.len() as f64);
    let need = sustained_count(n, 1);
    if over.len() < need || mean_r <= cpus {
        let b = mean_b
            .filter(|b| *b > cpus)
            .map(|b| format!("; {b:.1} tasks blocked (D state) on average: I/O, not CPU"))
            .unwrap_or_default();
        return Check::Clear(format!(
            "{} above the {ncpu} CPU(s) in {} of {n} interval(s), mean {mean_r:.1}{b}",
            q.column,
            over.len()
        ));
    }
    let peak = over
        .iter()
        .max_by(|a, b| {
            a.runnable
                .partial_cmp(&b.runnable)
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .map_or(0.0, |s| s.runnable);
    let mut lines = vec![q.header_line];
    lines.extend(over.iter().take(6).map(|s| s.line));
    let mut evidence = vec![Evidence::new(
        &q.artifact,
        lines,
        format!("{} above {ncpu} (the CPU count)", q.column),
    )];
    let mut details = vec![format!(
        "{} of {n} interval(s) above {ncpu}; mean {mean_r:.1}, peak {peak:.0} runnable",
        over.len()
    )];
    if let Some(b) = mean_b {
        details.push(format!(
            "Blocked on I/O (D state): {b:.1} on average (not counted)"
        ));
    }
    if let Some(l) = &f.sched.load_average {
        details.push(format!(
            "Load average {:.2} {:.2} {:.2} (1, 5, 15 min) for {ncpu} CPU(s)",
            l.value[0], l.value[1], l.value[2]
        ));
        evidence.push(l.evidence("load averages"));
    }
    let mut explains = Vec::new();
    if let Some(p) = f.sched.pressure.iter().find(|p| p.resource == "cpu") {
        if let Some(s) = p.some.filter(|s| s.avg60_pct >= CPU_PRESSURE_EXPLAINED_PCT) {
            explains.push("kernel.pressure");
            details.push(format!(
                "CPU pressure: some avg60 {:.2} % (tasks waiting for a CPU)",
                s.avg60_pct
            ));
        }
    }
    let times: Vec<_> = over.iter().filter_map(|s| s.time).collect();
    let time_range = match (times.first(), times.last()) {
        (Some(a), Some(b)) => {
            details.push(format!("From {} to {}", time_label(a), time_label(b)));
            Some(TimeRange { from: *a, to: *b })
        }
        _ => None,
    };
    let ratio = mean_r / cpus;
    Check::Found(vec![Finding {
        rule_id: META.id,
        explains,
        area: META.area,
        title: format!("Run queue {mean_r:.1} on {ncpu} CPU(s): CPU-saturated"),
        severity: Severity::Warning,
        confidence: if ratio >= 1.5 {
            Confidence::High
        } else {
            Confidence::Medium
        },
        why: format!(
            "{} averages {mean_r:.1} runnable tasks for {ncpu} CPU(s) ({ratio:.1}× the CPU \
             count), above it in {} of {n} interval(s): tasks wait for a CPU.",
            q.column,
            over.len()
        ),
        details,
        score: ratio * 10.0,
        time_range,
        evidence,
    }])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;
    use crate::facts::sched::{RunQueue, RunQueueSample};
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    fn host(r: &[f64], b: &[f64], ncpu: u32) -> HostFacts {
        let mut f = HostFacts::default();
        f.identity.cpus = Some(ncpu);
        f.sched.run_queue = Some(RunQueue {
            artifact: "vmstat.txt".into(),
            column: "vmstat r",
            header_line: 2,
            samples: r
                .iter()
                .zip(b)
                .enumerate()
                .map(|(i, (r, b))| RunQueueSample {
                    line: 3 + i,
                    time: None,
                    runnable: *r,
                    blocked: Some(*b),
                })
                .collect(),
        });
        f
    }

    #[test]
    fn fires_when_runnable_exceed_the_cpus() {
        // The shape of the runq capture: 2 CPUs, r 15 5 5 6 6 6.
        let f = found(check(&host(&[15.0, 5.0, 5.0, 6.0, 6.0, 6.0], &[0.0; 6], 2)));
        assert!(
            f[0].title.contains("Run queue 7.2 on 2 CPU(s)"),
            "{}",
            f[0].title
        );
        assert_eq!(f[0].evidence[0].lines, vec![2, 3, 4, 5, 6, 7, 8]);
        assert!(f[0].details[0].starts_with("6 of 6 interval(s) above 2"));
    }

    #[test]
    fn clear_when_load_is_blocked_io() {
        // Load from D-state tasks: few runnable, many blocked.
        let mut f = host(&[1.0, 2.0, 1.0, 0.0], &[12.0, 14.0, 13.0, 12.0], 4);
        f.sched.load_average = Some(Cited::new([13.5, 12.0, 9.0], "proc/loadavg", 1));
        let c = check(&f);
        assert!(is_clear(&c));
        assert!(matches!(&c, Check::Clear(w) if w.contains("I/O, not CPU")));
    }

    #[test]
    fn clear_at_the_cpu_count() {
        assert!(is_clear(&check(&host(&[2.0, 2.0, 3.0, 2.0], &[0.0; 4], 2))));
    }

    #[test]
    fn not_evaluated_with_a_load_average_only() {
        let mut f = HostFacts::default();
        f.identity.cpus = Some(2);
        f.sched.load_average = Some(Cited::new([8.0, 6.0, 4.0], "proc/loadavg", 1));
        let c = check(&f);
        assert!(is_not_evaluated(&c));
        assert!(matches!(&c, Check::NotEvaluated(w) if w.contains("blocked on I/O")));
    }
}
