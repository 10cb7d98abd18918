//! `disk.saturation`: a block device with a sustained queue *and* high latency.
//!
//! Reads the per-device series of `iostat -x` (else `sar -d`): `aqu-sz` and `await` per interval.
//! `%util` alone is not used: it only says a request was in flight, which on NVMe, RAID and
//! multi-queue devices is compatible with plenty of spare capacity.

use crate::evidence::Evidence;
use crate::facts::{Fact, HostFacts};
use crate::rules::common::{mean, sustained_count, SUSTAINED, SUSTAINED_PCT};
use crate::rules::sources::GREGG_SYSTEMS_PERFORMANCE;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
    TimeRange,
};

/// `await` at or above which an interval is "slow", ms.
const AWAIT_WARN_MS: f64 = 20.0;
/// `await` at or above which an interval is "seriously slow", ms.
const AWAIT_CRIT_MS: f64 = 50.0;
/// `aqu-sz` at or above which requests are queueing.
const AQU_SZ_QUEUED: f64 = 1.0;
/// Fewest intervals that can show a sustained condition.
const MIN_INTERVALS: usize = 3;

const MICROSOFT_LATENCY: Source = Source::section(
    "Microsoft's disk-latency guidance",
    "Avg. Disk sec/Transfer",
);

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "disk.saturation",
    title: "Block device saturated: requests queue and wait",
    area: Area::Disk,
    severity: Severity::Warning,
    needs: &[Fact::Disks],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "aqu-sz",
            value: Limit::Num(AQU_SZ_QUEUED),
            unit: "requests",
            meaning: "at or above, in an interval with a high await: requests queue (a queue \
                      longer than one request means requests wait)",
            sources: &[Source::section(GREGG_SYSTEMS_PERFORMANCE, "USE method")],
        },
        Threshold {
            name: "await",
            value: Limit::Num(AWAIT_WARN_MS),
            unit: "ms",
            meaning: "at or above, in a queued interval: slow; a warning",
            sources: &[MICROSOFT_LATENCY],
        },
        Threshold {
            name: "mean await over the saturated intervals",
            value: Limit::Num(AWAIT_CRIT_MS),
            unit: "ms",
            meaning: "at or above: critical (over 50 ms is a serious I/O bottleneck; case S1: \
                      await above 80 ms at %util near 100 %)",
            sources: &[MICROSOFT_LATENCY, Source::Case(1)],
        },
        Threshold {
            name: "saturated intervals",
            value: Limit::Num(SUSTAINED_PCT),
            unit: "% of the window",
            meaning: "at least this share, and at least 3 intervals: sustained, not a spike",
            sources: &[SUSTAINED],
        },
    ],
    groups: &[SymptomGroup::Storage],
    explains: &[],
    fires_when: "a device queues (`aqu-sz` ≥ 1) and waits (`await` ≥ 20 ms; critical ≥ 50 ms) \
                 in at least half of the intervals — not `%util` alone",
    checks: "For each device in `iostat -x`, the intervals (since-boot report excluded) where \
             the average queue `aqu-sz` (`avgqu-sz` before sysstat 11.5.7) is at least 1 and \
             `await` (or the request-weighted `r_await`/`w_await` on sysstat ≥ 11.5.7) is at least \
             20 ms. Fires when that holds in at least half of the intervals (and at least 3).",
    why: "When requests queue in front of a device every I/O waits behind the others: threads \
          block in D state, `%iowait` rises and anything that writes synchronously (HDFS \
          pipelines, databases' fsync, GC logs) slows by the same factor. `%util` near 100 % \
          alone does not prove saturation on devices that serve requests in parallel; a queue \
          together with high latency does.",
    false_positives: "Batch jobs that deliberately saturate a disk (backups, scrubs) during the \
                      window; a device-mapper device stacked on a saturated physical device shows \
                      the same symptom twice (look at the lowest device).",
    remedy: "Find who issues the I/O (`pidstat -d`, `iotop`), then reduce it or spread it: more \
             spindles or a faster tier, separate devices for logs and data, a deeper device queue \
             on the hypervisor (VMware: PVSCSI adapter, queue depth), or an I/O scheduler suited \
             to the device.",
    file: file!(),
};

/// Checks every device series (a missing `disks` is answered by the registry from [`META`]'s
/// needs).
pub fn check(f: &HostFacts) -> Check {
    if f.disks.is_empty() {
        return Check::NotEvaluated("no device statistics".into());
    }
    let mut findings = Vec::new();
    let mut evaluated = 0usize;
    let mut intervals = 0usize;
    for d in &f.disks {
        let n = d.samples.len();
        if n < MIN_INTERVALS
            || d.samples
                .iter()
                .all(|s| s.await_ms.is_none() || s.aqu_sz.is_none())
        {
            continue;
        }
        evaluated += 1;
        intervals = intervals.max(n);
        let hot: Vec<_> = d
            .samples
            .iter()
            .filter(|s| {
                s.aqu_sz.is_some_and(|q| q >= AQU_SZ_QUEUED)
                    && s.await_ms.is_some_and(|a| a >= AWAIT_WARN_MS)
            })
            .collect();
        if hot.len() < sustained_count(n, MIN_INTERVALS) {
            continue;
        }
        let await_mean = mean(hot.iter().map(|s| s.await_ms)).unwrap_or(0.0);
        let aqu_mean = mean(hot.iter().map(|s| s.aqu_sz)).unwrap_or(0.0);
        let util_mean = mean(hot.iter().map(|s| s.util_pct));
        let await_max = hot.iter().filter_map(|s| s.await_ms).fold(0.0, f64::max);
        let severity = if await_mean >= AWAIT_CRIT_MS {
            Severity::Critical
        } else {
            Severity::Warning
        };
        let share = hot.len() as f64 / n as f64;
        let confidence = if share >= 0.8 && hot.len() >= 5 {
            Confidence::High
        } else if share >= 0.5 {
            Confidence::Medium
        } else {
            Confidence::Low
        };
        let mut worst: Vec<_> = hot.clone();
        worst.sort_by(|a, b| {
            b.await_ms
                .partial_cmp(&a.await_ms)
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let mut lines: Vec<usize> = worst.iter().take(4).map(|s| s.line).collect();
        lines.push(hot[0].line);
        lines.push(hot[hot.len() - 1].line);
        let util_text = util_mean
            .map(|u| format!(", %util {u:.0}"))
            .unwrap_or_default();
        findings.push(Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: format!(
                "Disk {} saturated: await {await_mean:.0} ms, aqu-sz {aqu_mean:.1}{util_text}",
                d.device
            ),
            severity,
            confidence,
            why: format!(
                "In {} of {n} intervals requests queued (aqu-sz ≥ {AQU_SZ_QUEUED}) and waited ≥ {AWAIT_WARN_MS:.0} ms \
                 (mean {await_mean:.1} ms, worst {await_max:.1} ms).",
                hot.len()
            ),
            details: vec![
                format!("Mean over the saturated intervals: await {await_mean:.1} ms, aqu-sz {aqu_mean:.2}{util_text} %."),
                format!("Thresholds: aqu-sz ≥ {AQU_SZ_QUEUED}, await ≥ {AWAIT_WARN_MS:.0} ms (critical ≥ {AWAIT_CRIT_MS:.0} ms)."),
            ],
            score: share * await_mean.min(1000.0),
            time_range: hot[0].time.zip(hot[hot.len() - 1].time).map(|(from, to)| TimeRange { from, to }),
            evidence: vec![Evidence::new(
                &d.artifact,
                lines,
                format!("{} rows: first and last saturated intervals and the slowest ones", d.device),
            )
            .with_header("Device")],
        });
    }
    if !findings.is_empty() {
        Check::Found(findings)
    } else if evaluated == 0 {
        Check::NotEvaluated(format!(
            "no device has both await and aqu-sz over at least {MIN_INTERVALS} intervals"
        ))
    } else {
        Check::Clear(format!(
            "{evaluated} device(s) over {intervals} interval(s)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{DiskSample, DiskSeries};

    fn series(device: &str, samples: &[(f64, f64, f64)]) -> DiskSeries {
        DiskSeries {
            device: device.into(),
            artifact: "sysstat/iostat-x.txt".into(),
            samples: samples
                .iter()
                .enumerate()
                .map(|(i, &(aw, q, u))| DiskSample {
                    time: None,
                    line: 10 + i,
                    await_ms: Some(aw),
                    aqu_sz: Some(q),
                    util_pct: Some(u),
                    iops: Some(100.0),
                })
                .collect(),
        }
    }

    #[test]
    fn fires_critical_on_a_sustained_queue_with_high_latency() {
        let f = HostFacts {
            disks: crate::facts::Available::from(vec![series("sdb", &[(85.0, 12.0, 99.0); 6])]),
            ..Default::default()
        };
        let Check::Found(v) = check(&f) else {
            panic!("expected a finding")
        };
        assert_eq!(v[0].severity, Severity::Critical);
        assert!(v[0].title.contains("sdb"));
        assert_eq!(v[0].evidence[0].artifact, "sysstat/iostat-x.txt");
    }

    #[test]
    fn clear_at_full_util_with_low_latency() {
        // NVMe-like: %util 100 but 0.2 ms await and a shallow queue.
        let f = HostFacts {
            disks: crate::facts::Available::from(vec![series("nvme0n1", &[(0.2, 0.8, 100.0); 6])]),
            ..Default::default()
        };
        assert!(matches!(check(&f), Check::Clear(_)));
    }

    #[test]
    fn clear_on_a_brief_spike() {
        let mut s = vec![(1.0, 0.1, 5.0); 8];
        s[3] = (120.0, 30.0, 100.0);
        let f = HostFacts {
            disks: crate::facts::Available::from(vec![series("sda", &s)]),
            ..Default::default()
        };
        assert!(matches!(check(&f), Check::Clear(_)));
    }

    #[test]
    fn not_evaluated_without_iostat() {
        let f = HostFacts {
            disks: crate::facts::Available::missing("no `iostat -x` output was parsed"),
            ..Default::default()
        };
        assert!(
            matches!(crate::rules::testkit::run(&META, check, &f), Check::NotEvaluated(r) if r.contains("iostat"))
        );
    }
}
