//! `zk.txn-log-on-data-dir`: the ZooKeeper transaction log shares the snapshot directory.
//!
//! Reads each server's `dataDir` and `dataLogDir` (`zoo.cfg`, or the `conf` four-letter word).

use crate::facts::{Fact, HostFacts, ZkServer};
use crate::rules::sources::{ZOOKEEPER_ADMIN, ZOOKEEPER_ADMIN_URL};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "zk.txn-log-on-data-dir",
    title: "ZooKeeper transaction log shares the snapshot directory",
    area: Area::Zookeeper,
    severity: Severity::Info,
    needs: &[Fact::Zookeeper],
    reads: &[Fact::Jvms],
    thresholds: &[Threshold {
        name: "`dataLogDir` unset or equal to `dataDir`",
        value: Limit::Any,
        unit: "",
        meaning: "any such configuration: information (\"a dedicated log device has a large \
                  impact on throughput and stable latencies\")",
        sources: &[Source::Doc {
            document: ZOOKEEPER_ADMIN,
            section: Some("Things to Consider: ZooKeeper Strengths and Limitations; `dataLogDir`"),
            url: Some(ZOOKEEPER_ADMIN_URL),
        }],
    }],
    groups: &[SymptomGroup::Storage],
    explains: &[],
    fires_when: "`dataLogDir` unset or equal to `dataDir`",
    checks: "`dataLogDir` in `zoo.cfg` or the `conf` answer: unset (the transaction log then goes \
             to `dataDir`) or equal to `dataDir`.",
    why: "Every write waits for the transaction log's fsync; snapshots written to the same device \
          stall those fsyncs, and write latency and leader elections suffer (case S3: fsync \
          time −75 % after separating them).",
    false_positives: "Two directories on the same device are not detected (mount points are not \
                      compared); a lightly written ensemble may not notice.",
    remedy: "Point `dataLogDir` at a directory on a dedicated device.",
    file: file!(),
};

/// Every configured server's `dataLogDir` against its `dataDir`.
pub fn check(f: &HostFacts) -> Check {
    let configured: Vec<&ZkServer> = f
        .zookeeper
        .iter()
        .filter(|s| s.data_dir.is_some())
        .collect();
    if configured.is_empty() {
        return Check::NotEvaluated("no `zoo.cfg` or `conf` answer with `dataDir`".into());
    }
    let mut out = Vec::new();
    for s in &configured {
        let Some(data) = &s.data_dir else { continue };
        let shared = match &s.data_log_dir {
            None => true,
            Some(l) => l.value.trim_end_matches('/') == data.value.trim_end_matches('/'),
        };
        if !shared {
            continue;
        }
        let mut ev = vec![data.evidence("dataDir")];
        if let Some(l) = &s.data_log_dir {
            ev.push(l.evidence("dataLogDir"));
        }
        out.push(Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: format!(
                "{}: transaction log and snapshots both in {}",
                s.label(&f.jvms),
                data.value
            ),
            severity: Severity::Info,
            confidence: Confidence::High,
            why: if s.data_log_dir.is_none() {
                "`dataLogDir` is not set, so the transaction log is written to `dataDir` next to \
                 the snapshots."
                    .into()
            } else {
                "`dataLogDir` equals `dataDir`.".into()
            },
            details: Vec::new(),
            score: 1.0,
            time_range: None,
            evidence: ev,
        });
    }
    if out.is_empty() {
        Check::Clear(format!(
            "{} server(s): transaction log in its own directory",
            configured.len()
        ))
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
    fn fires_when_the_txn_log_is_in_the_data_dir() {
        let mut f = zk(0, None);
        f.zookeeper[0].data_dir = Some(c("/var/lib/zookeeper".to_string()));
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Info);
    }

    #[test]
    fn clear_with_its_own_directory_and_not_evaluated_without_a_config() {
        let mut f = zk(0, None);
        f.zookeeper[0].data_dir = Some(c("/var/lib/zookeeper".to_string()));
        f.zookeeper[0].data_log_dir = Some(c("/zk-txn".to_string()));
        assert!(is_clear(&check(&f)));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
