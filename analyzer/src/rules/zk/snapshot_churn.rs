//! `zk.snapshot-churn`: ZooKeeper snapshots very often at the default `snapCount`.
//!
//! Reads each server's `snapCount` (`conf` or `zoo.cfg`) and, from `mntr` (ZooKeeper ≥ 3.6), the
//! snapshots since start, the uptime and the longest transaction-log fsync.

use crate::evidence::Evidence;
use crate::facts::{Fact, HostFacts, ZkServer};
use crate::rules::sources::{ZOOKEEPER_ADMIN, ZOOKEEPER_ADMIN_URL};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Default `snapCount`.
pub const DEFAULT_SNAP_COUNT: u64 = 100_000;
/// Average time between snapshots below this, seconds, is churn.
pub const SNAPSHOT_INTERVAL_MIN_S: f64 = 60.0;
/// ZooKeeper's `fsync.warningthresholdms` default.
pub const FSYNC_WARN_MS: f64 = 1000.0;

const ADMIN_GUIDE: Source = Source::Doc {
    document: ZOOKEEPER_ADMIN,
    section: Some("`snapCount`, `fsync.warningthresholdms`"),
    url: Some(ZOOKEEPER_ADMIN_URL),
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "zk.snapshot-churn",
    title: "ZooKeeper snapshots very often at the default snapCount",
    area: Area::Zookeeper,
    severity: Severity::Info,
    needs: &[Fact::Zookeeper],
    reads: &[Fact::Jvms],
    thresholds: &[
        Threshold {
            name: "average time between snapshots, at the default snapCount of 100 000",
            value: Limit::Num(SNAPSHOT_INTERVAL_MIN_S),
            unit: "s",
            meaning: "below it (≥ ~830 writes/s sustained): information",
            sources: &[ADMIN_GUIDE, Source::Case(3)],
        },
        Threshold {
            name: "longest transaction-log fsync (`zk_max_fsynctime`)",
            value: Limit::Num(FSYNC_WARN_MS),
            unit: "ms",
            meaning: "at or above, with that churn: a warning (ZooKeeper's own \
                      `fsync.warningthresholdms` default)",
            sources: &[ADMIN_GUIDE],
        },
    ],
    groups: &[SymptomGroup::Storage],
    explains: &[],
    fires_when: "default `snapCount` and a snapshot more often than once a minute (warning with \
                 an fsync ≥ 1 s)",
    checks: "`snapCount` (`conf` or `zoo.cfg`; default 100 000) and, from `mntr` (ZooKeeper ≥ \
             3.6), snapshots since start (`zk_snap_count`) over `zk_uptime`, and the longest \
             transaction-log fsync (`zk_max_fsynctime`).",
    why: "A snapshot serialises the whole data tree to disk after every 50 000–100 000 \
          transactions (snapCount, randomised by half); under heavy write churn that is a \
          snapshot every few seconds competing with the transaction log's fsyncs, which every \
          write waits for (case S3: snapCount raised to 500 000).",
    false_positives: "A burst of writes (a restore, a migration) raises the average over a short \
                      uptime.",
    remedy: "Raise `snapCount` (e.g. 500 000) and keep `dataLogDir` on its own device; check what \
             writes so much.",
    file: file!(),
};

/// Every measured server's snapshot rate at its `snapCount`.
pub fn check(f: &HostFacts) -> Check {
    let measured: Vec<&ZkServer> = f
        .zookeeper
        .iter()
        .filter(|s| s.snapshots.is_some() && s.uptime_ms.is_some())
        .collect();
    if measured.is_empty() {
        return Check::NotEvaluated(
            "no `mntr` with `zk_snap_count` and `zk_uptime` (ZooKeeper ≥ 3.6)".into(),
        );
    }
    let mut out = Vec::new();
    let mut checked = Vec::new();
    for s in measured {
        let (Some(n), Some(up)) = (&s.snapshots, &s.uptime_ms) else {
            continue;
        };
        let snap_count = s
            .snap_count
            .as_ref()
            .map(|c| c.value)
            .unwrap_or(DEFAULT_SNAP_COUNT);
        let interval_s = (n.value > 0).then(|| up.value as f64 / 1000.0 / n.value as f64);
        let churn = interval_s.is_some_and(|i| i < SNAPSHOT_INTERVAL_MIN_S);
        if snap_count != DEFAULT_SNAP_COUNT || !churn {
            checked.push(format!(
                "{}: snapCount {snap_count}, {} snapshot(s) in {:.0} s",
                s.label(&f.jvms),
                n.value,
                up.value as f64 / 1000.0
            ));
            continue;
        }
        let interval = interval_s.unwrap_or(0.0);
        let slow_fsync = s.max_fsync_ms.as_ref().filter(|m| m.value >= FSYNC_WARN_MS);
        let mut ev = vec![Evidence::new(
            &n.artifact,
            n.lines.iter().chain(up.lines.iter()).copied().collect(),
            "snapshots since start and uptime",
        )];
        if let Some(m) = slow_fsync {
            ev.push(m.evidence("longest transaction-log fsync, ms"));
        }
        if let Some(c) = &s.snap_count {
            ev.push(c.evidence("snapCount"));
        }
        out.push(Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: format!(
                "{}: a snapshot every {interval:.0} s at the default snapCount",
                s.label(&f.jvms)
            ),
            severity: if slow_fsync.is_some() {
                Severity::Warning
            } else {
                Severity::Info
            },
            confidence: Confidence::Medium,
            why: format!(
                "{} snapshots in {:.1} h of uptime with snapCount {DEFAULT_SNAP_COUNT}{}.",
                n.value,
                up.value as f64 / 3_600_000.0,
                slow_fsync
                    .map(|m| format!("; a transaction-log fsync took {:.0} ms", m.value))
                    .unwrap_or_default()
            ),
            details: Vec::new(),
            score: SNAPSHOT_INTERVAL_MIN_S / interval.max(0.001),
            time_range: None,
            evidence: ev,
        });
    }
    if out.is_empty() {
        Check::Clear(checked.join("; "))
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rules::testkit::zk::zk;
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    /// A ZooKeeper JVM with a 256 MiB heap and a server holding `watches` watches.

    #[test]
    fn fires_on_frequent_snapshots_at_the_default_snap_count() {
        let mut f = zk(0, None);
        // 120 snapshots in one hour: one every 30 s.
        f.zookeeper[0].snapshots = Some(c(120));
        f.zookeeper[0].uptime_ms = Some(c(3_600_000));
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Info);
        assert!(v[0].title.contains("every 30 s"), "{}", v[0].title);
        f.zookeeper[0].max_fsync_ms = Some(c(1500.0));
        assert_eq!(found(check(&f))[0].severity, Severity::Warning);
    }

    #[test]
    fn clear_with_a_raised_snap_count_or_rare_snapshots() {
        let mut f = zk(0, None);
        f.zookeeper[0].snapshots = Some(c(120));
        f.zookeeper[0].uptime_ms = Some(c(3_600_000));
        f.zookeeper[0].max_fsync_ms = Some(c(1500.0));
        // Raised snapCount, or rare snapshots: clear.
        f.zookeeper[0].snap_count = Some(c(500_000));
        assert!(is_clear(&check(&f)));
        f.zookeeper[0].snap_count = None;
        f.zookeeper[0].snapshots = Some(c(10));
        assert!(is_clear(&check(&f)));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
