//! `kernel.pressure`: pressure stall information (PSI) says tasks lost a large share of time
//! waiting for the CPU, memory or I/O.
//!
//! Reads `/proc/pressure/{cpu,memory,io}`: the `some` and `full` lines' `avg60` (the share of the
//! last minute), or the `total` delta between the window's first and last snapshot when both
//! are timed. The system-level `cpu` `full` line is always zero and is not read.

use crate::evidence::Evidence;
use crate::facts::sched::Psi;
use crate::facts::{Fact, HostFacts};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// `some` share (avg60, or the window's total delta) for a warning, %.
pub const SOME_WARN_PCT: f64 = 20.0;
/// `memory` `full` share (avg60) for a critical finding, %.
const MEMORY_FULL_CRIT_PCT: f64 = 60.0;

const PSI_DOC: Source = Source::Doc {
    document: "Linux kernel documentation, Documentation/accounting/psi.rst",
    section: Some("Pressure interface: some, full, avg10/avg60/avg300, total"),
    url: Some("https://docs.kernel.org/accounting/psi.html"),
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "kernel.pressure",
    title: "Tasks stall on CPU, memory or I/O (PSI)",
    area: Area::Kernel,
    severity: Severity::Warning,
    needs: &[Fact::Sched],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "`some` stall share of a resource (avg60, or the window's total delta)",
            value: Limit::Num(SOME_WARN_PCT),
            unit: "%",
            meaning: "at or above: a warning naming the resource where time is lost",
            sources: &[
                PSI_DOC,
                Source::Rca(
                    "psi.rst defines the share but gives no limit; a fifth of the last minute \
                     with at least one task stalled on the resource is well past the noise of an \
                     idle host (below 1 %) and enough to show in request latency",
                ),
            ],
        },
        Threshold {
            name: "`memory` `full` stall share (avg60)",
            value: Limit::Num(MEMORY_FULL_CRIT_PCT),
            unit: "%",
            meaning: "at or above: critical — systemd-oomd's default limit for killing a cgroup",
            sources: &[
                PSI_DOC,
                Source::Doc {
                    document: "systemd oomd.conf(5)",
                    section: Some("DefaultMemoryPressureLimit= (defaults to 60%)"),
                    url: Some(
                        "https://www.freedesktop.org/software/systemd/man/latest/oomd.conf.html",
                    ),
                },
            ],
        },
    ],
    groups: &[
        SymptomGroup::KernelCpu,
        SymptomGroup::Memory,
        SymptomGroup::Storage,
    ],
    explains: &[],
    fires_when: "PSI `some` avg60 ≥ 20 % for cpu, memory or io (critical: memory `full` ≥ 60 %)",
    checks: "The `some` and `full` shares of `/proc/pressure/cpu`, `memory` and `io`: over the \
             collection window when two timed snapshots exist, else the kernel's 60-second \
             average at the time of the read.",
    why: "PSI measures time lost directly: the share of wall time in which at least one task \
          (`some`) or every non-idle task (`full`) waited for the resource. It is the first \
          signal of where time goes — CPU contention, reclaim and swap-in, or slow I/O — before \
          any utilisation figure is interpreted.",
    false_positives: "avg60 describes the minute before the read, which may not be the \
                      incident's; a cgroup limit stalls tasks in that cgroup only, which the \
                      system-wide file dilutes.",
    remedy: "Follow the resource named: `cpu.run-queue` and `cpu.steal` for CPU, `mem.swap` and \
             the memory facts for memory, `disk.saturation` for I/O.",
    file: file!(),
};

/// The share read for `p`'s `some` line: the window's, else avg60.
fn some_share(p: &Psi) -> Option<(f64, String)> {
    match (p.some_window_pct, p.window_s) {
        (Some(w), Some(s)) => Some((w, format!("over the {s:.0} s window"))),
        _ => p.some.map(|s| (s.avg60_pct, "avg60".to_string())),
    }
}

/// `some` (and memory `full`) shares against the thresholds.
pub fn check(f: &HostFacts) -> Check {
    let ps = &f.sched.pressure;
    if ps.is_empty() {
        return Check::NotEvaluated(
            "no `/proc/pressure/*` file was read (Linux ≥ 4.20 with PSI)".into(),
        );
    }
    let mut hot: Vec<(f64, &Psi, String)> = ps
        .iter()
        .filter_map(|p| some_share(p).map(|(v, how)| (v, p, how)))
        .filter(|(v, _, _)| *v >= SOME_WARN_PCT)
        .collect();
    hot.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
    let mem_full = ps
        .iter()
        .find(|p| p.resource == "memory")
        .and_then(|p| p.full.map(|s| (p, s)))
        .filter(|(_, s)| s.avg60_pct >= MEMORY_FULL_CRIT_PCT);
    if hot.is_empty() && mem_full.is_none() {
        let all: Vec<String> = ps
            .iter()
            .filter_map(|p| {
                some_share(p).map(|(v, how)| format!("{} some {v:.2} % ({how})", p.resource))
            })
            .collect();
        return Check::Clear(all.join(", "));
    }
    let mut evidence = Vec::new();
    let mut details = Vec::new();
    for (v, p, how) in &hot {
        let mut lines: Vec<usize> = p.some.iter().map(|s| s.line).collect();
        lines.extend(
            p.full
                .iter()
                .filter(|_| p.resource != "cpu")
                .map(|s| s.line),
        );
        evidence.push(Evidence::new(
            &p.artifact,
            lines,
            format!("{} pressure: some {v:.2} % ({how})", p.resource),
        ));
        details.push(format!(
            "{}: some {v:.2} % ({how}); avg10 {:.2}, avg300 {:.2}",
            p.resource,
            p.some.map_or(0.0, |s| s.avg10_pct),
            p.some.map_or(0.0, |s| s.avg300_pct)
        ));
    }
    let mut severity = Severity::Warning;
    if let Some((p, s)) = mem_full {
        severity = Severity::Critical;
        details.push(format!(
            "memory full avg60 {:.2} % ≥ {MEMORY_FULL_CRIT_PCT} %: every non-idle task stalled on memory",
            s.avg60_pct
        ));
        if !hot.iter().any(|(_, h, _)| h.resource == "memory") {
            evidence.push(Evidence::new(&p.artifact, vec![s.line], "memory full"));
        }
    }
    let (title, why, score) = match hot.first() {
        Some((v, p, how)) => {
            (
                format!(
                    "Tasks stall on {} {v:.0} % of the time (PSI)",
                    label(&p.resource)
                ),
                format!(
                "PSI {} `some` is {v:.2} % ({how}): at least one task waited for {} that share of \
                 the time{}.",
                p.resource,
                label(&p.resource),
                if hot.len() > 1 { "; other resources follow in the details" } else { "" }
            ),
                *v,
            )
        }
        None => {
            let v = mem_full.map_or(0.0, |(_, s)| s.avg60_pct);
            (
                format!("Every task stalls on memory {v:.0} % of the time (PSI full)"),
                format!("PSI memory `full` avg60 is {v:.2} %: all non-idle tasks waited for memory at once."),
                v,
            )
        }
    };
    Check::Found(vec![Finding {
        rule_id: META.id,
        explains: Vec::new(),
        area: META.area,
        title,
        severity,
        confidence: Confidence::High,
        why,
        details,
        score,
        time_range: None,
        evidence,
    }])
}

fn label(resource: &str) -> &'static str {
    match resource {
        "cpu" => "CPU",
        "memory" => "memory",
        _ => "I/O",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};
    use parsers::proc::pressure::Stall;

    fn stall(line: usize, a60: f64) -> Stall {
        Stall {
            line,
            avg10_pct: a60,
            avg60_pct: a60,
            avg300_pct: a60 / 2.0,
            total_us: 1,
        }
    }

    fn host(cpu: f64, mem_some: f64, mem_full: f64, io: f64) -> HostFacts {
        let psi = |r: &str, s: f64, f: f64| Psi {
            resource: r.into(),
            artifact: format!("proc/pressure/{r}"),
            some: Some(stall(1, s)),
            full: Some(stall(2, f)),
            some_window_pct: None,
            window_s: None,
        };
        let mut h = HostFacts::default();
        h.sched.pressure = vec![
            psi("cpu", cpu, 0.0),
            psi("memory", mem_some, mem_full),
            psi("io", io, io / 2.0),
        ];
        h
    }

    #[test]
    fn fires_on_the_resource_with_the_largest_stall() {
        // The runq capture: cpu some avg60 75.26, memory 0.15, io 0.09.
        let f = found(check(&host(75.26, 0.15, 0.0, 0.09)));
        assert_eq!(f[0].title, "Tasks stall on CPU 75 % of the time (PSI)");
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!(f[0].evidence.len(), 1);
        assert_eq!(f[0].evidence[0].artifact, "proc/pressure/cpu");
    }

    #[test]
    fn fires_critical_on_memory_full() {
        let f = found(check(&host(1.0, 70.0, 65.0, 30.0)));
        assert_eq!(f[0].severity, Severity::Critical);
        assert!(f[0].title.contains("memory 70 %"), "{}", f[0].title);
        assert!(f[0]
            .details
            .iter()
            .any(|d| d.starts_with("io: some 30.00 %")));
    }

    #[test]
    fn prefers_the_window_share() {
        let mut h = host(75.0, 0.0, 0.0, 0.0);
        h.sched.pressure[0].some_window_pct = Some(12.0);
        h.sched.pressure[0].window_s = Some(30.0);
        assert!(is_clear(&check(&h)));
    }

    #[test]
    fn clear_on_an_idle_host() {
        // The development machine's idle capture: cpu some avg60 0.00, io 0.03.
        assert!(is_clear(&check(&host(0.0, 0.0, 0.0, 0.03))));
    }

    #[test]
    fn not_evaluated_without_psi() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
