//! `cpu.frequency`: CPUs held at a low clock by the `powersave` governor of a generic cpufreq
//! driver, or running far below their maximum while busy.
//!
//! Reads the cpufreq facts: per CPU `scaling_governor`, `scaling_driver`, `scaling_cur_freq` and
//! `cpuinfo_max_freq` from sysfs (the canonical source), else `cpupower frequency-info`; the
//! per-CPU busy share from the CPU series. `tuned-adm`'s profile name is shown, never taken for
//! the governor.

use crate::evidence::Evidence;
use crate::facts::{Fact, HostFacts};
use crate::rules::common::mean;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Drivers whose `powersave` is a dynamic P-state selection, not the lowest frequency.
const DYNAMIC_POWERSAVE_DRIVERS: &[&str] = &["intel_pstate", "amd-pstate-epp"];
/// Current clock below this share of the hardware maximum while busy: slowed, %.
const LOW_CLOCK_PCT: f64 = 50.0;
/// Mean busy share of the CPUs (100 − %idle − %iowait) that makes a low clock matter, %.
const BUSY_PCT: f64 = 50.0;

const CPUFREQ_DOC: Source = Source::Doc {
    document: "Linux kernel documentation, Documentation/admin-guide/pm/cpufreq.rst",
    section: Some(
        "Generic Scaling Governors: powersave (\"causes the lowest frequency, within \
                   the scaling_min_freq policy limit, to be requested\")",
    ),
    url: Some("https://docs.kernel.org/admin-guide/pm/cpufreq.html"),
};
const PSTATE_DOC: Source = Source::Doc {
    document: "Linux kernel documentation, Documentation/admin-guide/pm/intel_pstate.rst",
    section: Some(
        "Active Mode: the powersave and performance P-state selection algorithms \
                   (not the generic governors of the same names)",
    ),
    url: Some("https://docs.kernel.org/admin-guide/pm/intel_pstate.html"),
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "cpu.frequency",
    title: "CPU clock held low (governor or frequency)",
    area: Area::Cpu,
    severity: Severity::Warning,
    needs: &[Fact::Sched],
    reads: &[Fact::Cpus],
    thresholds: &[
        Threshold {
            name: "scaling_governor of a generic cpufreq driver",
            value: Limit::OneOf(&["powersave"]),
            unit: "",
            meaning: "the generic powersave governor requests the lowest frequency: a warning. \
                      Not with intel_pstate or amd-pstate-epp in active mode, whose `powersave` \
                      is a dynamic algorithm",
            sources: &[CPUFREQ_DOC, PSTATE_DOC],
        },
        Threshold {
            name: "scaling_cur_freq / cpuinfo_max_freq (else /proc/cpuinfo cpu MHz / the model \
                   name's nominal clock) while CPUs are busy",
            value: Limit::Num(LOW_CLOCK_PCT),
            unit: "%",
            meaning: "below, with the CPUs ≥ 50 % busy on average: clocks far below nominal under \
                      load (power capping, throttling or a policy limit) — a warning",
            sources: &[
                CPUFREQ_DOC,
                Source::Rca(
                    "a busy CPU under a demand-driven governor runs near its maximum; half of it \
                     is far outside the spread of turbo and idle readings and halves throughput \
                     per thread, so it is a policy or a limit, not load-following",
                ),
            ],
        },
    ],
    groups: &[SymptomGroup::KernelCpu],
    explains: &[],
    fires_when:
        "generic `powersave` governor, or busy CPUs clocked below 50 % of `cpuinfo_max_freq`",
    checks: "The cpufreq governor and driver of each CPU (sysfs, else `cpupower frequency-info`) \
             and the current clock against the hardware maximum while the CPUs are busy. \
             `tuned-adm`'s profile is shown beside them: a profile's name is not the governor \
             in force.",
    why: "With the generic `powersave` governor the CPUs run at their lowest frequency whatever \
          the load: everything CPU-bound runs slower by the ratio of the clocks. A busy CPU far \
          below its maximum clock points at a policy limit or power/thermal capping.",
    false_positives: "On intel_pstate (active mode) `powersave` is the default, dynamic \
                      algorithm: not a low clock. One `scaling_cur_freq` read is a moment; a CPU \
                      idle at that moment reads low. Virtual machines usually have no cpufreq \
                      driver: the host sets the clock.",
    remedy: "Set the `performance` (or `schedutil`) governor (`cpupower frequency-set -g \
             performance`, or a tuned profile such as `throughput-performance`) and check the \
             BIOS power profile; for throttling, read the kernel log for thermal or power-limit \
             events.",
    file: file!(),
};

struct Gov<'a> {
    cpu: u32,
    governor: &'a str,
    driver: Option<&'a str>,
    ev: Evidence,
}

/// Governors and drivers per CPU: sysfs first, else `cpupower`.
fn governors(f: &HostFacts) -> Vec<Gov<'_>> {
    let fr = &f.sched.freq;
    let from_sysfs: Vec<Gov> = fr
        .cpus
        .iter()
        .filter_map(|c| {
            let g = c.governor.as_ref()?;
            Some(Gov {
                cpu: c.cpu,
                governor: &g.value,
                driver: c.driver.as_ref().map(|d| d.value.as_str()),
                ev: g.evidence(format!("cpu{} scaling_governor", c.cpu)),
            })
        })
        .collect();
    if !from_sysfs.is_empty() {
        return from_sysfs;
    }
    let Some((art, cp)) = &fr.cpupower else {
        return Vec::new();
    };
    cp.cpus
        .iter()
        .filter_map(|c| {
            let g = c.governor.as_deref()?;
            let mut lines = vec![c.line];
            lines.extend(c.driver_line);
            lines.extend(c.governor_line);
            Some(Gov {
                cpu: c.cpu,
                governor: g,
                driver: c.driver.as_deref(),
                ev: Evidence::new(art, lines, format!("CPU {}: driver and governor", c.cpu)),
            })
        })
        .collect()
}

/// The governor and clock checks.
pub fn check(f: &HostFacts) -> Check {
    let fr = &f.sched.freq;
    let govs = governors(f);
    let tuned = fr
        .tuned_profile
        .as_ref()
        .map(|t| {
            format!(
                "; tuned profile `{}` (a profile name, not the governor in force)",
                t.value
            )
        })
        .unwrap_or_default();
    if govs.is_empty() {
        let no_driver = fr
            .cpupower
            .as_ref()
            .is_some_and(|(_, c)| c.cpus.iter().all(|c| c.no_driver));
        return Check::NotEvaluated(if no_driver {
            format!("no cpufreq driver is active (cpupower): the clock is not the guest's to set{tuned}")
        } else {
            format!("no cpufreq governor was read (sysfs scaling_governor, cpupower frequency-info){tuned}")
        });
    }
    let mut findings = Vec::new();
    let fixed_low: Vec<&Gov> = govs
        .iter()
        .filter(|g| g.governor == "powersave")
        .filter(|g| {
            !g.driver
                .is_some_and(|d| DYNAMIC_POWERSAVE_DRIVERS.contains(&d))
        })
        .collect();
    if !fixed_low.is_empty() {
        let known = fixed_low.iter().all(|g| g.driver.is_some());
        let cpus: Vec<String> = fixed_low
            .iter()
            .take(16)
            .map(|g| g.cpu.to_string())
            .collect();
        let drivers: Vec<&str> = {
            let mut d: Vec<&str> = fixed_low.iter().filter_map(|g| g.driver).collect();
            d.dedup();
            d
        };
        let mut details = vec![format!(
            "CPUs {}{} of {} read",
            cpus.join(", "),
            if fixed_low.len() > 16 { " …" } else { "" },
            govs.len()
        )];
        if let Some(t) = &fr.tuned_profile {
            details.push(format!(
                "tuned profile: `{}` (its name, not the governor)",
                t.value
            ));
        }
        if !known {
            details.push("The driver was not collected: on intel_pstate or amd-pstate-epp (active mode) `powersave` is dynamic, not the lowest clock.".into());
        }
        findings.push(Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: format!(
                "{} CPU(s) on the powersave governor: lowest clock requested",
                fixed_low.len()
            ),
            severity: Severity::Warning,
            confidence: if known {
                Confidence::High
            } else {
                Confidence::Low
            },
            why: format!(
                "scaling_governor is `powersave`{}: the generic governor requests the lowest \
                 frequency within the policy limits, whatever the load.",
                if drivers.is_empty() {
                    String::new()
                } else {
                    format!(" with the {} driver", drivers.join(", "))
                }
            ),
            details,
            score: fixed_low.len() as f64,
            time_range: None,
            evidence: fixed_low.iter().take(4).map(|g| g.ev.clone()).collect(),
        });
    }
    // Clocks far below the maximum while the CPUs are busy.
    let busy = mean(
        f.cpus
            .iter()
            // Stolen time is not the guest running: it does not make a CPU busy here.
            .flat_map(|c| {
                c.samples
                    .iter()
                    .map(|s| s.busy_pct().map(|b| b - s.steal_pct.unwrap_or(0.0)))
            }),
    );
    let sysfs_clocks = fr
        .cpus
        .iter()
        .any(|c| c.cur_khz.is_some() && c.cpuinfo_max_khz.is_some());
    let slow: Vec<(u32, f64, Evidence, Option<Evidence>)> = if sysfs_clocks {
        fr.cpus
            .iter()
            .filter_map(|c| {
                let cur = c.cur_khz.as_ref()?;
                let max = c.cpuinfo_max_khz.as_ref().filter(|m| m.value > 0)?;
                let pct = cur.value as f64 * 100.0 / max.value as f64;
                (pct < LOW_CLOCK_PCT).then(|| {
                    (
                        c.cpu,
                        pct,
                        cur.evidence(format!("cpu{} scaling_cur_freq {} kHz", c.cpu, cur.value)),
                        Some(
                            max.evidence(format!(
                                "cpu{} cpuinfo_max_freq {} kHz",
                                c.cpu, max.value
                            )),
                        ),
                    )
                })
            })
            .collect()
    } else {
        // `/proc/cpuinfo`'s `cpu MHz` against the nominal clock of an Intel model name.
        fr.cpuinfo
            .iter()
            .filter_map(|(cpu, mhz, nominal)| {
                let pct = mhz.value * 100.0 / nominal.filter(|n| *n > 0.0)?;
                (pct < LOW_CLOCK_PCT).then(|| {
                    (
                        *cpu,
                        pct,
                        mhz.evidence(format!(
                            "processor {cpu}: cpu MHz {:.0}, model name nominal {:.0} MHz",
                            mhz.value,
                            nominal.unwrap_or(0.0)
                        )),
                        None,
                    )
                })
            })
            .collect()
    };
    if let Some(b) = busy.filter(|b| *b >= BUSY_PCT && !slow.is_empty()) {
        let worst = slow
            .iter()
            .min_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal));
        let mut evidence = Vec::new();
        if let Some((_, _, e1, e2)) = worst {
            evidence.push(e1.clone());
            evidence.extend(e2.clone());
        }
        findings.push(Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: format!(
                "{} busy CPU(s) clocked below {LOW_CLOCK_PCT:.0} % of their maximum",
                slow.len()
            ),
            severity: Severity::Warning,
            confidence: Confidence::Medium,
            why: format!(
                "The CPUs are {b:.0} % busy on average, yet {} is below {LOW_CLOCK_PCT:.0} % of \
                 {} on {} CPU(s) (lowest {:.0} %).",
                if sysfs_clocks {
                    "scaling_cur_freq"
                } else {
                    "/proc/cpuinfo's cpu MHz"
                },
                if sysfs_clocks {
                    "cpuinfo_max_freq"
                } else {
                    "the model name's nominal clock"
                },
                slow.len(),
                worst.map_or(0.0, |w| w.1)
            ),
            details: vec!["Thermal or power-limit throttling shows in the kernel log.".into()],
            score: 100.0 - worst.map_or(0.0, |w| w.1),
            time_range: None,
            evidence,
        });
    }
    if findings.is_empty() {
        let mut names: Vec<&str> = govs.iter().map(|g| g.governor).collect();
        names.sort_unstable();
        names.dedup();
        return Check::Clear(format!(
            "governor {} on {} CPU(s){tuned}",
            names.join(", "),
            govs.len()
        ));
    }
    Check::Found(findings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;
    use crate::facts::sched::CpuFreqFiles;
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};
    use parsers::host::cpupower::{CpuFrequencyInfo, CpupowerFrequencyInfo};

    fn host(gov: &str, driver: Option<&str>) -> HostFacts {
        let mut f = HostFacts::default();
        f.sched.freq.cpus = (0..4)
            .map(|cpu| CpuFreqFiles {
                cpu,
                governor: Some(Cited::new(
                    gov.to_string(),
                    &format!("cpu/cpufreq/cpu{cpu}/scaling_governor"),
                    1,
                )),
                driver: driver.map(|d| {
                    Cited::new(
                        d.to_string(),
                        &format!("cpu/cpufreq/cpu{cpu}/scaling_driver"),
                        1,
                    )
                }),
                ..Default::default()
            })
            .collect();
        f
    }

    #[test]
    fn fires_on_generic_powersave() {
        let r = found(check(&host("powersave", Some("acpi-cpufreq"))));
        assert_eq!(
            r[0].title,
            "4 CPU(s) on the powersave governor: lowest clock requested"
        );
        assert_eq!(r[0].confidence, Confidence::High);
        assert_eq!(
            r[0].evidence[0].artifact,
            "cpu/cpufreq/cpu0/scaling_governor"
        );
    }

    #[test]
    fn clear_on_intel_pstate_powersave() {
        let c = check(&host("powersave", Some("intel_pstate")));
        assert!(is_clear(&c));
    }

    #[test]
    fn clear_when_tuned_says_powersave_but_the_governor_is_performance() {
        let mut f = host("performance", Some("acpi-cpufreq"));
        f.sched.freq.tuned_profile = Some(Cited::new("powersave".into(), "tuned-adm.txt", 1));
        let c = check(&f);
        assert!(
            matches!(&c, Check::Clear(w) if w.contains("governor performance on 4") && w.contains("not the governor"))
        );
    }

    #[test]
    fn reads_cpupower_when_sysfs_is_absent() {
        let mut f = HostFacts::default();
        f.sched.freq.cpupower = Some((
            "cpupower.txt".into(),
            CpupowerFrequencyInfo {
                cpus: vec![CpuFrequencyInfo {
                    cpu: 0,
                    line: 1,
                    driver: Some("acpi-cpufreq".into()),
                    driver_line: Some(2),
                    governor: Some("powersave".into()),
                    governor_line: Some(9),
                    ..Default::default()
                }],
            },
        ));
        let r = found(check(&f));
        assert_eq!(r[0].evidence[0].lines, vec![1, 2, 9]);
    }

    #[test]
    fn fires_on_busy_cpus_far_below_the_nominal_clock() {
        use crate::facts::{CpuSample, CpuSeries};
        // insights-core's Xeon E5-2670 (@ 2.60GHz) with its 1200 MHz processor, all CPUs busy.
        let mut f = host("performance", Some("acpi-cpufreq"));
        f.sched.freq.cpuinfo = vec![
            (0, Cited::new(2359.484, "proc/cpuinfo", 8), Some(2600.0)),
            (1, Cited::new(1200.058, "proc/cpuinfo", 36), Some(2600.0)),
        ];
        let busy = |line| CpuSample {
            time: None,
            line,
            header_line: 1,
            user_pct: Some(90.0),
            sys_pct: Some(5.0),
            iowait_pct: Some(0.0),
            irq_pct: Some(0.0),
            soft_pct: Some(0.0),
            steal_pct: Some(0.0),
            idle_pct: Some(5.0),
        };
        f.cpus = crate::facts::Available::Present(vec![CpuSeries {
            cpu: 0,
            artifact: "mpstat.txt".into(),
            samples: vec![busy(2), busy(3), busy(4)],
        }]);
        let r = found(check(&f));
        assert_eq!(
            r[0].title,
            "1 busy CPU(s) clocked below 50 % of their maximum"
        );
        assert!(r[0].why.contains("lowest 46 %"), "{}", r[0].why);
        assert_eq!(r[0].evidence[0].lines, vec![36]);
        // Idle CPUs at a low clock are not slowed.
        f.cpus = crate::facts::Available::Present(Vec::new());
        assert!(is_clear(&check(&f)));
    }

    #[test]
    fn not_evaluated_in_a_vm_without_a_driver() {
        let mut f = HostFacts::default();
        f.sched.freq.cpupower = Some((
            "cpupower.txt".into(),
            CpupowerFrequencyInfo {
                cpus: vec![CpuFrequencyInfo {
                    cpu: 0,
                    line: 1,
                    no_driver: true,
                    ..Default::default()
                }],
            },
        ));
        let c = check(&f);
        assert!(is_not_evaluated(&c));
        assert!(matches!(&c, Check::NotEvaluated(w) if w.contains("no cpufreq driver")));
    }
}
