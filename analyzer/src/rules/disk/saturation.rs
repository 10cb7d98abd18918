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
use std::collections::BTreeMap;

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
    reads: &[Fact::Storage],
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
             20 ms. Fires when that holds in at least half of the intervals (and at least 3). \
             Devices stacked on one another (`lsblk`, `/sys/block/*/slaves`: an LV on its disk, \
             md on its members, multipath on its paths) make one finding named from the lowest, \
             with the mount points above it and whether the disk is rotational \
             (`queue/rotational`, `lsblk` `ROTA`).",
    why: "When requests queue in front of a device every I/O waits behind the others: threads \
          block in D state, `%iowait` rises and anything that writes synchronously (HDFS \
          pipelines, databases' fsync, GC logs) slows by the same factor. `%util` near 100 % \
          alone does not prove saturation on devices that serve requests in parallel; a queue \
          together with high latency does.",
    false_positives: "Batch jobs that deliberately saturate a disk (backups, scrubs) during the \
                      window. A device-mapper or md device and the disk it is built on are one \
                      finding when `lsblk` or the `/sys/block/*/slaves` listing shows the stack; \
                      without either they show the same queue twice (look at the lowest device).",
    remedy: "Find who issues the I/O (`pidstat -d`, `iotop`), then reduce it or spread it: more \
             spindles or a faster tier, separate devices for logs and data, a deeper device queue \
             on the hypervisor (VMware: PVSCSI adapter, queue depth), or an I/O scheduler suited \
             to the device.",
    file: file!(),
};

/// One device's saturated intervals and their means.
struct Hot<'a> {
    d: &'a crate::facts::DiskSeries,
    n: usize,
    hot: Vec<&'a crate::facts::DiskSample>,
    await_mean: f64,
    aqu_mean: f64,
    util_mean: Option<f64>,
    await_max: f64,
    share: f64,
}

impl Hot<'_> {
    fn numbers(&self) -> String {
        let util_text = self
            .util_mean
            .map(|u| format!(", %util {u:.0}"))
            .unwrap_or_default();
        format!(
            "await {:.0} ms, aqu-sz {:.1}{util_text}",
            self.await_mean, self.aqu_mean
        )
    }

    fn evidence(&self) -> Evidence {
        let mut worst: Vec<_> = self.hot.clone();
        worst.sort_by(|a, b| {
            b.await_ms
                .partial_cmp(&a.await_ms)
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let mut lines: Vec<usize> = worst.iter().take(4).map(|s| s.line).collect();
        lines.push(self.hot[0].line);
        lines.push(self.hot[self.hot.len() - 1].line);
        Evidence::new(
            &self.d.artifact,
            lines,
            format!(
                "{} rows: first and last saturated intervals and the slowest ones",
                self.d.device
            ),
        )
        .with_header("Device")
    }
}

/// Checks every device series (a missing `disks` is answered by the registry from [`META`]'s
/// needs). A saturated device and a saturated device it is stacked on (an LV and its disk, md
/// and a member, multipath and a path) make one finding.
pub fn check(f: &HostFacts) -> Check {
    if f.disks.is_empty() {
        return Check::NotEvaluated("no device statistics".into());
    }
    let mut evaluated = 0usize;
    let mut intervals = 0usize;
    let mut hots: Vec<Hot> = Vec::new();
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
        hots.push(Hot {
            d,
            n,
            await_mean: mean(hot.iter().map(|s| s.await_ms)).unwrap_or(0.0),
            aqu_mean: mean(hot.iter().map(|s| s.aqu_sz)).unwrap_or(0.0),
            util_mean: mean(hot.iter().map(|s| s.util_pct)),
            await_max: hot.iter().filter_map(|s| s.await_ms).fold(0.0, f64::max),
            share: hot.len() as f64 / n as f64,
            hot,
        });
    }
    // Group the saturated devices that sit on one another. Only a device built on others can
    // be stacked on one: the pairs to look at are those such a device makes, so that thousands
    // of plain disks cost nothing here.
    let st = &f.storage;
    let mut group: Vec<usize> = (0..hots.len()).collect();
    let built = (0..hots.len()).filter(|&i| {
        st.devices
            .get(&hots[i].d.device)
            .is_some_and(|n| !n.lower.is_empty())
    });
    for i in built {
        for j in 0..hots.len() {
            if i != j && st.stacked_on(&hots[i].d.device, &hots[j].d.device) {
                let (gi, gj) = (group[i], group[j]);
                for g in group.iter_mut() {
                    if *g == gi {
                        *g = gj;
                    }
                }
            }
        }
    }
    // One finding per group, in the order of its first device.
    let mut members: BTreeMap<usize, Vec<&Hot>> = BTreeMap::new();
    let mut order: Vec<usize> = Vec::new();
    for (i, &g) in group.iter().enumerate() {
        let m = members.entry(g).or_default();
        if m.is_empty() {
            order.push(g);
        }
        m.push(&hots[i]);
    }
    let findings: Vec<Finding> = order.iter().map(|g| finding(f, &members[g])).collect();
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

/// The finding of one saturated device, or of saturated devices stacked on one another (named
/// from the lowest: the physical device first).
fn finding(f: &HostFacts, members: &[&Hot]) -> Finding {
    let st = &f.storage;
    // The lowest member: stacked on no other member.
    let lowest = members
        .iter()
        .copied()
        .find(|m| {
            !members
                .iter()
                .any(|o| o.d.device != m.d.device && st.stacked_on(&m.d.device, &o.d.device))
        })
        .unwrap_or(members[0]);
    let label = |dev: &str| {
        st.devices
            .get(dev)
            .map(|n| n.label())
            .unwrap_or_else(|| dev.to_string())
    };
    let uppers: Vec<String> = members
        .iter()
        .filter(|m| m.d.device != lowest.d.device)
        .map(|m| label(&m.d.device))
        .collect();
    // Disks under the lowest member when they were not saturated themselves (an LV on sda).
    let under: Vec<String> = st
        .leaves(&lowest.d.device)
        .into_iter()
        .filter(|l| *l != lowest.d.device)
        .collect();
    let mut mounts: Vec<String> = Vec::new();
    for m in members {
        for p in st.mounts_over(&m.d.device) {
            if !mounts.contains(&p) {
                mounts.push(p);
            }
        }
    }
    let rotational = st.rotational(&lowest.d.device);
    let kind = match rotational {
        Some(true) => " (rotational)",
        Some(false) => " (non-rotational: SSD/NVMe)",
        None => "",
    };
    let mut name = format!("Disk {}{kind}", label(&lowest.d.device));
    if !under.is_empty() {
        name.push_str(&format!(" on {}", under.join(", ")));
    }
    if !uppers.is_empty() {
        name.push_str(&format!(" under {}", uppers.join(", ")));
    }
    if !mounts.is_empty() {
        name.push_str(&format!(", mounted on {}", mounts.join(", ")));
    }
    let worst = members
        .iter()
        .copied()
        .max_by(|a, b| {
            a.await_mean
                .partial_cmp(&b.await_mean)
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .unwrap_or(lowest);
    let severity = if worst.await_mean >= AWAIT_CRIT_MS {
        Severity::Critical
    } else {
        Severity::Warning
    };
    let h = lowest;
    let confidence = if h.share >= 0.8 && h.hot.len() >= 5 {
        Confidence::High
    } else if h.share >= 0.5 {
        Confidence::Medium
    } else {
        Confidence::Low
    };
    let mut details = Vec::new();
    for m in members {
        details.push(format!(
            "{}: saturated in {} of {} intervals; mean over them: await {:.1} ms (worst {:.1} ms), aqu-sz {:.2}{}.",
            label(&m.d.device),
            m.hot.len(),
            m.n,
            m.await_mean,
            m.await_max,
            m.aqu_mean,
            m.util_mean.map(|u| format!(", %util {u:.0} %")).unwrap_or_default()
        ));
    }
    if members.len() > 1 {
        details.push(format!(
            "One stack, one finding: {} {} built on {} (from {}), so its queue is the same I/O.",
            uppers.join(", "),
            if uppers.len() == 1 { "is" } else { "are" },
            label(&lowest.d.device),
            st.stack_sources.join(", ")
        ));
    }
    match rotational {
        Some(false) => details.push(
            "Non-rotational: `%util` near 100 % is not saturation on a device that serves requests in parallel; the queue together with the latency is."
                .into(),
        ),
        Some(true) => details.push(
            "Rotational: requests are served one seek at a time, so a queue turns directly into latency."
                .into(),
        ),
        None => {}
    }
    details.push(format!(
        "Thresholds: aqu-sz ≥ {AQU_SZ_QUEUED}, await ≥ {AWAIT_WARN_MS:.0} ms (critical ≥ {AWAIT_CRIT_MS:.0} ms)."
    ));
    let mut evidence: Vec<Evidence> = vec![h.evidence()];
    evidence.extend(
        members
            .iter()
            .filter(|m| m.d.device != h.d.device)
            .map(|m| m.evidence()),
    );
    if members.len() > 1 || !under.is_empty() {
        let mut lines: Vec<(String, usize)> = Vec::new();
        for m in members {
            for d in st
                .with_uppers(&m.d.device)
                .into_iter()
                .chain(st.leaves(&m.d.device))
            {
                if let Some(c) = st.devices.get(&d).and_then(|n| n.cited.as_ref()) {
                    lines.extend(c.lines.iter().map(|l| (c.artifact.clone(), *l)));
                }
            }
        }
        for src in &st.stack_sources {
            let ls: Vec<usize> = lines
                .iter()
                .filter(|(a, _)| a == src)
                .map(|(_, l)| *l)
                .collect();
            if !ls.is_empty() {
                evidence.push(Evidence::new(src, ls, "the device stack"));
            }
        }
    }
    let score = members
        .iter()
        .map(|m| m.share * m.await_mean.min(1000.0))
        .fold(0.0, f64::max);
    Finding {
        rule_id: META.id,
        explains: Vec::new(),
        area: META.area,
        title: format!("{name} saturated: {}", h.numbers()),
        severity,
        confidence,
        why: format!(
            "In {} of {} intervals requests queued (aqu-sz ≥ {AQU_SZ_QUEUED}) and waited ≥ {AWAIT_WARN_MS:.0} ms \
             (mean {:.1} ms, worst {:.1} ms){}.",
            h.hot.len(),
            h.n,
            h.await_mean,
            h.await_max,
            if uppers.is_empty() {
                String::new()
            } else {
                format!(" on {}, and on {} above it", h.d.device, uppers.join(", "))
            }
        ),
        details,
        score,
        time_range: h.hot[0]
            .time
            .zip(h.hot[h.hot.len() - 1].time)
            .map(|(from, to)| TimeRange { from, to }),
        evidence,
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

    fn lvm_on_sda() -> crate::facts::storage::Storage {
        use crate::evidence::Cited;
        use crate::facts::storage::{BlockNode, Storage};
        let mut st = Storage {
            stack_sources: vec!["block/lsblk.json".into()],
            ..Default::default()
        };
        let node =
            |k: &str, name: Option<&str>, lower: &[&str], mounts: &[&str], line: usize| BlockNode {
                kname: k.into(),
                name: name.map(str::to_string),
                dev_type: None,
                lower: lower.iter().map(|s| s.to_string()).collect(),
                mountpoints: mounts.iter().map(|s| s.to_string()).collect(),
                rotational: Some(Cited::new(true, "block/queue.txt", line)),
                scheduler: None,
                cited: Some(Cited::new((), "block/lsblk.json", line)),
            };
        st.devices
            .insert("sda".into(), node("sda", None, &[], &[], 3));
        st.devices
            .insert("sda2".into(), node("sda2", None, &["sda"], &[], 12));
        st.devices.insert(
            "dm-0".into(),
            node("dm-0", Some("vg0-data"), &["sda2"], &["/data"], 20),
        );
        st
    }

    #[test]
    fn fires_once_for_an_lv_and_the_disk_under_it() {
        let f = HostFacts {
            disks: crate::facts::Available::from(vec![
                series("sda", &[(60.0, 8.0, 99.0); 6]),
                series("dm-0", &[(90.0, 30.0, 99.0); 6]),
            ]),
            storage: lvm_on_sda(),
            ..Default::default()
        };
        let Check::Found(v) = check(&f) else {
            panic!("expected a finding")
        };
        assert_eq!(
            v.len(),
            1,
            "{:?}",
            v.iter().map(|x| &x.title).collect::<Vec<_>>()
        );
        let t = &v[0].title;
        assert!(t.starts_with("Disk sda (rotational) under dm-0 (vg0-data), mounted on /data saturated: await 60 ms"), "{t}");
        assert_eq!(v[0].severity, Severity::Critical, "the LV's 90 ms decides");
        assert!(v[0]
            .evidence
            .iter()
            .any(|e| e.artifact == "block/lsblk.json" && e.lines == [3, 12, 20]));
        assert_eq!(
            v[0].evidence
                .iter()
                .filter(|e| e.artifact == "sysstat/iostat-x.txt")
                .count(),
            2
        );
    }

    #[test]
    fn clear_for_the_disk_when_only_the_lv_is_named() {
        // Not a clear of the rule: the LV alone is saturated and named with the disk under it.
        let f = HostFacts {
            disks: crate::facts::Available::from(vec![
                series("sda", &[(2.0, 0.3, 20.0); 6]),
                series("dm-0", &[(45.0, 3.0, 99.0); 6]),
            ]),
            storage: lvm_on_sda(),
            ..Default::default()
        };
        let Check::Found(v) = check(&f) else {
            panic!("expected a finding")
        };
        assert_eq!(v.len(), 1);
        assert!(
            v[0].title.starts_with(
                "Disk dm-0 (vg0-data) (rotational) on sda, mounted on /data saturated"
            ),
            "{}",
            v[0].title
        );
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
