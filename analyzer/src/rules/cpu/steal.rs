//! `cpu.steal`: a virtual machine whose vCPUs lose a large share of their time to the hypervisor.
//!
//! Reads the per-CPU series (`mpstat -P ALL`, else `sar -P ALL`, two `/proc/stat` snapshots):
//! `%steal` per CPU and interval; else the all-CPU `st` of `vmstat` or `top`; else the since-boot
//! steal share of one `/proc/stat` read (an info finding: it says nothing about the window).

use crate::evidence::Evidence;
use crate::facts::{time_label, Fact, HostFacts};
use crate::rules::common::mean;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
    TimeRange,
};

/// Mean `%steal` over the CPUs and the window for a warning, %.
const STEAL_WARN_PCT: f64 = 10.0;
/// Fewest intervals to judge a window.
const MIN_INTERVALS: usize = 3;

const KERNEL_DOC: Source = Source::Doc {
    document: "Linux kernel documentation, Documentation/filesystems/proc.rst",
    section: Some("1.7 Miscellaneous kernel statistics in /proc/stat: steal, involuntary wait"),
    url: Some("https://docs.kernel.org/filesystems/proc.html"),
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "cpu.steal",
    title: "vCPUs lose time to the hypervisor (steal)",
    area: Area::Cpu,
    severity: Severity::Warning,
    needs: &[Fact::Sched],
    reads: &[Fact::Cpus],
    thresholds: &[Threshold {
        name: "mean %steal over all CPUs and the window",
        value: Limit::Num(STEAL_WARN_PCT),
        unit: "%",
        meaning: "at or above: a warning. Steal is time a vCPU was runnable but the hypervisor \
                  ran something else; a tenth of every CPU's time lost that way is a slowdown the \
                  guest cannot fix from inside",
        sources: &[
            KERNEL_DOC,
            Source::Doc {
                document: "sysstat mpstat(1)",
                section: Some(
                    "%steal: involuntary wait by the virtual CPU while the hypervisor \
                               was servicing another virtual processor",
                ),
                url: Some("https://man7.org/linux/man-pages/man1/mpstat.1.html"),
            },
            Source::Doc {
                document: "procps top(1)",
                section: Some("2. SUMMARY Display, st: time stolen from this vm by the hypervisor"),
                url: Some("https://man7.org/linux/man-pages/man1/top.1.html"),
            },
            Source::Doc {
                document: "Brendan Gregg, Systems Performance, 2nd ed.",
                section: Some("Chapter 11, Cloud Computing: hardware virtualization observability, CPU steal time"),
                url: Some("https://www.brendangregg.com/systems-performance-2nd-edition-book.html"),
            },
            Source::Doc {
                document: "Scout APM, Understanding CPU Steal Time: when should you be worried?",
                section: Some(
                    "\"if steal time is greater than 10% for 20 minutes, the VM is likely in a \
                     state that it is running slower than it should\"",
                ),
                url: Some(
                    "https://scoutapm.com/blog/understanding-cpu-steal-time-when-should-you-be-worried",
                ),
            },
        ],
    }],
    groups: &[SymptomGroup::KernelCpu],
    explains: &["cpu.run-queue"],
    fires_when: "mean `%steal` over all CPUs and the window ≥ 10 %",
    checks: "Mean `%steal` over every CPU and interval of `mpstat -P ALL` (else `sar -P ALL`, \
             `/proc/stat` snapshots, `vmstat`/`top` `st`); names the CPUs and intervals where it \
             is highest.",
    why: "Steal is time the guest's vCPU wanted to run while the hypervisor ran another guest \
          or its own work: the host is overcommitted, or the instance has spent its CPU credits \
          or share (burstable cloud instances are throttled this way). Everything on the guest \
          slows down, and its own CPU figures look lower than the demand.",
    false_positives: "Some hypervisors (older Xen, some VMware versions) do not report steal at \
                      all: zero steal there is no proof of a quiet host. A capped instance \
                      (CPU credits, a CPU limit at the hypervisor) shows steal by design.",
    remedy: "Move the VM to a less loaded host or ask the provider to reduce overcommit; use an \
             instance type with dedicated vCPUs or more CPU credits; reduce vCPU count to what the \
             host can schedule together.",
    file: file!(),
};

/// Mean `%steal` over every CPU and interval; falls back to all-CPU `st`, then since boot.
pub fn check(f: &HostFacts) -> Check {
    let n = f.cpus.iter().map(|c| c.samples.len()).max().unwrap_or(0);
    let per_cpu = mean(
        f.cpus
            .iter()
            .flat_map(|c| c.samples.iter().map(|s| s.steal_pct)),
    );
    if let Some(m) = per_cpu.filter(|_| n >= MIN_INTERVALS || n == 1 && f.sched.steal.is_none()) {
        return per_cpu_check(f, m, n);
    }
    // An all-CPU series is judged however short: fewer intervals than MIN_INTERVALS is still the
    // only window evidence there is.
    if let Some(s) = f.sched.steal.as_ref().filter(|s| !s.samples.is_empty()) {
        return all_cpu_check(s);
    }
    if let Some(b) = &f.sched.steal_since_boot_pct {
        if b.value >= STEAL_WARN_PCT {
            return Check::Found(vec![Finding {
                rule_id: META.id,
                explains: Vec::new(),
                area: META.area,
                title: format!("{:.0} % of CPU time stolen since boot", b.value),
                severity: Severity::Info,
                confidence: Confidence::Low,
                why: format!(
                    "One `/proc/stat` read: steal is {:.1} % of all CPU time since boot. A since-boot \
                     share says nothing about the collection window.",
                    b.value
                ),
                details: Vec::new(),
                score: b.value,
                time_range: None,
                evidence: vec![b.evidence("`cpu` line: steal since boot")],
            }]);
        }
        return Check::Clear(format!(
            "steal {:.1} % of CPU time since boot (one `/proc/stat` read)",
            b.value
        ));
    }
    match per_cpu {
        Some(_) => Check::NotEvaluated(format!("only {n} interval(s) of per-CPU %steal")),
        None => Check::NotEvaluated("no %steal column was read (mpstat, sar, vmstat, top)".into()),
    }
}

fn per_cpu_check(f: &HostFacts, m: f64, n: usize) -> Check {
    if m < STEAL_WARN_PCT {
        return Check::Clear(format!(
            "mean %steal {m:.1} % over {} CPU(s) and {n} interval(s)",
            f.cpus.len()
        ));
    }
    // The CPUs at or above the threshold on their own, highest first.
    let mut per: Vec<(u32, f64)> = f
        .cpus
        .iter()
        .filter_map(|c| Some((c.cpu, mean(c.samples.iter().map(|s| s.steal_pct))?)))
        .collect();
    per.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
    let hit: Vec<&(u32, f64)> = per.iter().filter(|(_, v)| *v >= STEAL_WARN_PCT).collect();
    let names: Vec<String> = hit
        .iter()
        .take(8)
        .map(|(c, v)| format!("CPU {c} {v:.1} %"))
        .collect();
    let more = hit.len().saturating_sub(8);
    // Intervals where the all-CPU mean reached the threshold.
    let mut times = Vec::new();
    let mut hot_lines = Vec::new();
    for i in 0..n {
        let row: Vec<_> = f.cpus.iter().filter_map(|c| c.samples.get(i)).collect();
        let Some(mi) = mean(row.iter().map(|s| s.steal_pct)) else {
            continue;
        };
        if mi >= STEAL_WARN_PCT {
            if let Some(t) = row.first().and_then(|s| s.time) {
                times.push(t);
            }
            hot_lines.push((mi, row.first().map_or(0, |s| s.header_line), row));
        }
    }
    hot_lines.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
    let mut evidence = Vec::new();
    if let Some((mi, header, row)) = hot_lines.first() {
        let mut lines = vec![*header];
        lines.extend(row.iter().map(|s| s.line));
        evidence.push(Evidence::new(
            &f.cpus[0].artifact,
            lines,
            format!("interval with the highest mean %steal ({mi:.1} %)"),
        ));
    }
    let time_range = match (times.first(), times.last()) {
        (Some(a), Some(b)) => Some(TimeRange { from: *a, to: *b }),
        _ => None,
    };
    let when = match (times.first(), times.last()) {
        (Some(a), Some(b)) => format!(" from {} to {}", time_label(a), time_label(b)),
        _ => String::new(),
    };
    let intervals = hot_lines.len();
    Check::Found(vec![Finding {
        rule_id: META.id,
        // Tasks stay runnable while their vCPU is descheduled: steal lengthens the run queue.
        explains: vec!["cpu.run-queue"],
        area: META.area,
        title: format!("Hypervisor steals {m:.0} % of the vCPUs' time"),
        severity: Severity::Warning,
        confidence: if n >= MIN_INTERVALS { Confidence::High } else { Confidence::Medium },
        why: format!(
            "Mean %steal over {} CPU(s) and {n} interval(s) is {m:.1} % (≥ {STEAL_WARN_PCT} %): the \
             host is overcommitted or the instance's CPU credits or share are exhausted.",
            f.cpus.len()
        ),
        details: vec![
            format!(
                "CPUs at or above {STEAL_WARN_PCT} %: {}{}",
                names.join(", "),
                if more > 0 { format!(" and {more} more") } else { String::new() }
            ),
            format!("{intervals} of {n} interval(s) at or above {STEAL_WARN_PCT} % on average{when}"),
        ],
        score: m,
        time_range,
        evidence,
    }])
}

fn all_cpu_check(s: &crate::facts::sched::StealSeries) -> Check {
    let n = s.samples.len();
    let m = s.samples.iter().map(|(_, v)| v).sum::<f64>() / n as f64;
    if m < STEAL_WARN_PCT {
        return Check::Clear(format!("mean {} {m:.1} % over {n} interval(s)", s.column));
    }
    let mut lines: Vec<usize> = s
        .samples
        .iter()
        .filter(|(_, v)| *v >= STEAL_WARN_PCT)
        .map(|(l, _)| *l)
        .take(5)
        .collect();
    if s.header_line > 0 {
        lines.insert(0, s.header_line);
    }
    Check::Found(vec![Finding {
        rule_id: META.id,
        // Tasks stay runnable while their vCPU is descheduled: steal lengthens the run queue.
        explains: vec!["cpu.run-queue"],
        area: META.area,
        title: format!("Hypervisor steals {m:.0} % of the vCPUs' time"),
        severity: Severity::Warning,
        confidence: Confidence::Medium,
        why: format!(
            "Mean {} over {n} interval(s) is {m:.1} % (≥ {STEAL_WARN_PCT} %), all CPUs together: the \
             host is overcommitted or the instance's CPU credits or share are exhausted.",
            s.column
        ),
        details: vec!["No per-CPU %steal was collected (mpstat -P ALL): which vCPUs lose most is not known.".into()],
        score: m,
        time_range: None,
        evidence: vec![Evidence::new(&s.artifact, lines, format!("{} per interval", s.column))],
    }])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;
    use crate::facts::sched::StealSeries;
    use crate::facts::{CpuSample, CpuSeries};
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    fn host(steal: &[f64], usr: &[f64]) -> HostFacts {
        let s = |cpu: usize, i: usize| CpuSample {
            time: None,
            line: 4 + i * 5 + cpu,
            header_line: 3 + i * 5,
            user_pct: Some(usr[cpu]),
            sys_pct: Some(2.0),
            iowait_pct: Some(0.0),
            irq_pct: Some(0.0),
            soft_pct: Some(0.5),
            steal_pct: Some(steal[cpu]),
            idle_pct: Some((100.0 - usr[cpu] - 2.5 - steal[cpu]).max(0.0)),
        };
        HostFacts {
            cpus: (0..steal.len())
                .map(|c| CpuSeries {
                    cpu: c as u32,
                    artifact: "mpstat.txt".into(),
                    samples: (0..4).map(|i| s(c, i)).collect(),
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn fires_on_steal_across_the_cpus() {
        let f = found(check(&host(&[24.0, 18.5], &[60.0, 60.0])));
        assert_eq!(f[0].rule_id, "cpu.steal");
        assert!(f[0].title.contains("21 %"), "{}", f[0].title);
        assert!(
            f[0].details[0].contains("CPU 0 24.0 %, CPU 1 18.5 %"),
            "{:?}",
            f[0].details
        );
        assert!(f[0].details[1].starts_with("4 of 4"));
        assert!(!found(check(&host(
            &[STEAL_WARN_PCT, STEAL_WARN_PCT],
            &[50.0, 50.0]
        )))
        .is_empty());
    }

    #[test]
    fn clear_on_one_hot_cpu_without_steal() {
        // One single-threaded job at 100 % %usr on CPU 0: busy, not stolen.
        let c = check(&host(&[0.0, 0.0, 0.0, 0.0], &[97.5, 1.0, 0.5, 0.0]));
        assert!(is_clear(&c));
    }

    #[test]
    fn falls_back_to_vmstat_st() {
        let mut f = HostFacts {
            cpus: crate::facts::Available::missing("no `mpstat -P ALL` output was parsed"),
            ..Default::default()
        };
        f.sched.steal = Some(StealSeries {
            artifact: "vmstat.txt".into(),
            column: "vmstat st",
            header_line: 2,
            samples: vec![(4, 31.0), (5, 29.0), (6, 30.0)],
        });
        let r = found(check(&f));
        assert!(r[0].title.contains("30 %"));
        assert_eq!(r[0].evidence[0].lines, vec![2, 4, 5, 6]);
        f.sched.steal.as_mut().unwrap().samples = vec![(4, 1.0), (5, 0.0), (6, 2.0)];
        assert!(is_clear(&check(&f)));
    }

    #[test]
    fn since_boot_share_is_info_only() {
        let mut f = HostFacts::default();
        f.sched.steal_since_boot_pct = Some(Cited::new(12.0, "proc/stat", 1));
        let r = found(check(&f));
        assert_eq!(
            (r[0].severity, r[0].confidence),
            (Severity::Info, Confidence::Low)
        );
        f.sched.steal_since_boot_pct = Some(Cited::new(1.6, "proc/stat", 1));
        assert!(is_clear(&check(&f)));
    }

    #[test]
    fn not_evaluated_without_steal_columns() {
        let f = HostFacts {
            cpus: crate::facts::Available::missing("no `mpstat -P ALL` output was parsed"),
            ..Default::default()
        };
        let r = crate::rules::testkit::run(&META, check, &f);
        assert!(is_not_evaluated(&r));
    }
}
