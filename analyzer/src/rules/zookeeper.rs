//! ZooKeeper rules: the default watch manager under a large watch count, and the transaction log
//! sharing the snapshot directory.
//!
//! In: [`HostFacts::zookeeper`] (four-letter words, `zoo.cfg`) joined with the server's JVM
//! (system properties, heap, histogram, GC series). Out: one finding per affected server.

use super::jvm::{OLD_AFTER_FGC_PCT, OLD_GEN};
use super::{Check, Confidence, Finding, RuleMeta, Severity};
use crate::evidence::Evidence;
use crate::facts::{HostFacts, Jvm, ZkServer};

/// Bytes the default `WatchManager` spends per watch, at least: ZOOKEEPER-1177 measured 1 million
/// watches at about 50 MB with it (and about 0.2 MB with `WatchManagerOptimized`). A real
/// ZooKeeper 3.8.0 on OpenJDK 17 held about 144 bytes per watch when every session watched every
/// path (each session's path strings included), so estimates made with this figure are a floor.
pub const BYTES_PER_WATCH: u64 = 50;
/// Estimated watch memory at or above this share of the maximum heap, %: warning.
pub const WATCH_HEAP_WARN_PCT: f64 = 10.0;
/// ... at or above this share: critical.
pub const WATCH_HEAP_CRIT_PCT: f64 = 50.0;
/// Without a known heap size: this many watches (≈ 50 MB of watch maps) is a warning.
pub const WATCHES_WITHOUT_HEAP: u64 = 1_000_000;
/// Histogram classes the two watch maps are made of, and the share of the histogram they must
/// hold together to call the heap "dominated" by them, %.
pub const WATCH_CLASSES: &[&str] = &[
    "java.util.HashMap$Node",
    "java.util.HashSet",
    "java.util.HashMap",
    "[Ljava.util.HashMap$Node;",
];
/// See [`WATCH_CLASSES`].
pub const WATCH_CLASSES_DOMINANT_PCT: f64 = 50.0;

/// The system property that selects the watch manager, and the optimized implementation.
pub const WATCH_MANAGER_PROPERTY: &str = "zookeeper.watchManagerName";
/// Value that enables the bitmap-based watch manager (ZooKeeper ≥ 3.6.0).
pub const OPTIMIZED: &str = "org.apache.zookeeper.server.watch.WatchManagerOptimized";

pub static WATCH_MANAGER: RuleMeta = RuleMeta {
    id: "zk.default-watch-manager",
    title: "ZooKeeper's default watch manager holds a large share of the heap",
    area: "zookeeper",
    checks: "Per ZooKeeper server: watches (`mntr` `zk_watch_count`, `wchs` total), whether the \
             JVM sets `-Dzookeeper.watchManagerName` (`VM.system_properties`, else its command \
             line), its maximum heap, the share of the class histogram in `HashMap$Node`, \
             `HashSet` and `HashMap`, and the old generation after full GCs.",
    why: "The default `WatchManager` keeps every (path, watcher) pair twice, in `watchTable` and \
          `watch2Paths` hash maps, about 50 bytes per watch; clients that watch the whole tree \
          multiply znodes by connections into hundreds of millions of entries and fill the heap \
          until `OutOfMemoryError` (case S3: 28 of 32 GB in those maps). \
          `WatchManagerOptimized` (ZOOKEEPER-1177, ZooKeeper ≥ 3.6.0) stores watchers as bitmaps.",
    threshold: "Estimated watch memory (watches × 50 bytes, from ZOOKEEPER-1177's 1 million \
                watches ≈ 50 MB) ≥ 10 % of the maximum heap: warning; ≥ 50 %, or the histogram \
                ≥ 50 % hash-map entries and sets, or the old generation ≥ 90 % after full GCs: \
                critical. With no heap size known: ≥ 1 million watches. Sources: ZOOKEEPER-1177, \
                case S3.",
    false_positives: "A watch count near the threshold on a large heap is harmless; the rule stays \
                      quiet when the property names any other watch manager.",
    remedy: "Start ZooKeeper with \
             `-Dzookeeper.watchManagerName=org.apache.zookeeper.server.watch.WatchManagerOptimized` \
             (e.g. in `SERVER_JVMFLAGS`), rolling one server at a time; upgrade to ≥ 3.6.0 first \
             if older. Reported gains: 1 million watches 50 MB → 0.2 MB, adding watches 6.5× and \
             triggering 5× faster. Also ask why clients watch every znode.",
};

pub static TXN_LOG: RuleMeta = RuleMeta {
    id: "zk.txn-log-on-data-dir",
    title: "ZooKeeper transaction log shares the snapshot directory",
    area: "zookeeper",
    checks: "`dataLogDir` in `zoo.cfg` or the `conf` answer: unset (the transaction log then goes \
             to `dataDir`) or equal to `dataDir`.",
    why: "Every write waits for the transaction log's fsync; snapshots written to the same device \
          stall those fsyncs, and write latency and leader elections suffer (case S3: fsync \
          time −75 % after separating them).",
    threshold:
        "Any such configuration: information. Source: ZooKeeper Administrator's Guide, \
                \"Things to Consider: ZooKeeper Strengths and Limitations\" and `dataLogDir` \
                (\"a dedicated log device has a large impact on throughput and stable latencies\").",
    false_positives: "Two directories on the same device are not detected (mount points are not \
                      compared); a lightly written ensemble may not notice.",
    remedy: "Point `dataLogDir` at a directory on a dedicated device.",
};

pub static SNAPSHOTS: RuleMeta = RuleMeta {
    id: "zk.snapshot-churn",
    title: "ZooKeeper snapshots very often at the default snapCount",
    area: "zookeeper",
    checks: "`snapCount` (`conf` or `zoo.cfg`; default 100 000) and, from `mntr` (ZooKeeper ≥ \
             3.6), snapshots since start (`zk_snap_count`) over `zk_uptime`, and the longest \
             transaction-log fsync (`zk_max_fsynctime`).",
    why: "A snapshot serialises the whole data tree to disk after every 50 000–100 000 \
          transactions (snapCount, randomised by half); under heavy write churn that is a \
          snapshot every few seconds competing with the transaction log's fsyncs, which every \
          write waits for (case S3: snapCount raised to 500 000).",
    threshold: "Default snapCount and snapshots more often than once a minute on average \
                (≥ ~830 writes/s sustained): information; with a transaction-log fsync ≥ 1000 ms \
                (ZooKeeper's own `fsync.warningthresholdms` default): warning. Sources: ZooKeeper \
                Administrator's Guide (`snapCount`, `fsync.warningthresholdms`), case S3.",
    false_positives: "A burst of writes (a restore, a migration) raises the average over a short \
                      uptime.",
    remedy: "Raise `snapCount` (e.g. 500 000) and keep `dataLogDir` on its own device; check what \
             writes so much.",
};

/// Default `snapCount`.
pub const DEFAULT_SNAP_COUNT: u64 = 100_000;
/// Average time between snapshots below this, seconds, is churn.
pub const SNAPSHOT_INTERVAL_MIN_S: f64 = 60.0;
/// ZooKeeper's `fsync.warningthresholdms` default.
pub const FSYNC_WARN_MS: f64 = 1000.0;

/// `zk.snapshot-churn`.
pub fn check_snapshots(f: &HostFacts) -> Check {
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
            rule_id: SNAPSHOTS.id,
            explains: Vec::new(),
            area: SNAPSHOTS.area,
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

fn jvm_of<'a>(f: &'a HostFacts, s: &ZkServer) -> Option<&'a Jvm> {
    s.jvm.and_then(|i| f.jvms.get(i))
}

/// Whether `version` (`3.8.4-…`) is at least 3.6.
fn supports_optimized(version: &str) -> Option<bool> {
    let mut it = version.split(|c: char| !c.is_ascii_digit());
    let major: u32 = it.next()?.parse().ok()?;
    let minor: u32 = it.next()?.parse().ok()?;
    Some((major, minor) >= (3, 6))
}

/// `zk.default-watch-manager`.
pub fn check_watch_manager(f: &HostFacts) -> Check {
    if f.zookeeper.is_empty() {
        return Check::NotEvaluated("no ZooKeeper server in the bundle".into());
    }
    let mut out = Vec::new();
    let mut checked = Vec::new();
    let mut unknown = 0;
    for s in &f.zookeeper {
        let jvm = jvm_of(f, s);
        let manager = jvm.and_then(|j| j.property(WATCH_MANAGER_PROPERTY));
        if let Some(m) = manager {
            if !m.value.trim().is_empty() && !m.value.trim().ends_with(".WatchManager") {
                checked.push(format!("{}: watch manager `{}`", s.endpoint, m.value));
                continue;
            }
        }
        let props_known = jvm.is_some_and(|j| j.properties_source.is_some());
        let watches = s.watches();
        let heap = jvm.and_then(|j| j.heap_max_bytes.as_ref());
        // Share of the histogram in the watch maps' classes.
        let (map_bytes, map_rows, hist_total) = match jvm {
            Some(j) => {
                let rows: Vec<_> = j
                    .top_classes
                    .iter()
                    .filter(|c| WATCH_CLASSES.contains(&c.value.class_name.as_str()))
                    .collect();
                (
                    rows.iter().map(|c| c.value.bytes).sum::<u64>(),
                    rows,
                    j.histogram_total_bytes.as_ref().map(|t| t.value),
                )
            }
            None => (0, Vec::new(), None),
        };
        let map_share = hist_total
            .filter(|&t| t > 0)
            .map(|t| map_bytes as f64 * 100.0 / t as f64);
        let old_full = jvm.and_then(|j| j.gc.as_ref()).is_some_and(|g| {
            !g.old_after_fgc.is_empty()
                && g.old_after_fgc.iter().all(|o| o.value >= OLD_AFTER_FGC_PCT)
        });
        let est = watches.map(|w| w.value.saturating_mul(BYTES_PER_WATCH));
        let heap_pct = match (est, heap) {
            (Some(e), Some(h)) if h.value > 0 => Some(e as f64 * 100.0 / h.value as f64),
            _ => None,
        };
        let dominant = map_share.is_some_and(|p| p >= WATCH_CLASSES_DOMINANT_PCT)
            && watches.is_some_and(|w| w.value > 0);
        let large = match heap_pct {
            Some(p) => p >= WATCH_HEAP_WARN_PCT,
            None => watches.is_some_and(|w| w.value >= WATCHES_WITHOUT_HEAP),
        };
        if watches.is_none() && !dominant {
            unknown += 1;
            continue;
        }
        if !(large || dominant) {
            checked.push(format!(
                "{}: {} watches{}",
                s.endpoint,
                watches
                    .map(|w| w.value.to_string())
                    .unwrap_or_else(|| "unknown".into()),
                heap_pct
                    .map(|p| format!(", ≈ {p:.1} % of the heap"))
                    .unwrap_or_default()
            ));
            continue;
        }
        let critical = heap_pct.is_some_and(|p| p >= WATCH_HEAP_CRIT_PCT) || dominant || old_full;
        let w = watches.map(|w| w.value).unwrap_or(0);
        let mut ev: Vec<Evidence> = Vec::new();
        if let Some(c) = &s.watch_count {
            let mut lines = c.lines.clone();
            for extra in [&s.znode_count, &s.connections].into_iter().flatten() {
                lines.extend(extra.lines.iter().copied());
            }
            if let Some(v) = &s.version {
                lines.extend(v.lines.iter().copied());
            }
            ev.push(Evidence::new(
                &c.artifact,
                lines,
                "watches, znodes and connections (`mntr`)",
            ));
        }
        if let Some(t) = &s.wchs_total {
            let mut lines = t.lines.clone();
            if let Some(sum) = &s.wchs_summary {
                lines.extend(sum.lines.iter().copied());
            }
            ev.push(Evidence::new(&t.artifact, lines, "watch summary (`wchs`)"));
        }
        if let (Some(j), false) = (jvm, map_rows.is_empty()) {
            if let Some(src) = &j.histogram_source {
                ev.push(Evidence::new(
                    src,
                    map_rows.iter().flat_map(|c| c.lines.clone()).collect(),
                    "hash-map entries and sets of the watch maps in the class histogram",
                ));
            }
        }
        if let Some(h) = heap {
            if !h.artifact.is_empty() {
                ev.push(h.evidence("maximum heap"));
            }
        }
        if let Some(g) = jvm.and_then(|j| j.gc.as_ref()).filter(|_| old_full) {
            ev.push(
                Evidence::new(
                    &g.artifact,
                    g.old_after_fgc
                        .iter()
                        .flat_map(|o| o.lines.clone())
                        .collect(),
                    "old generation after full GCs",
                )
                .with_header(g.header_prefix()),
            );
        }
        if let Some(m) = manager {
            ev.push(m.evidence("watch manager property"));
        }
        let mut details = Vec::new();
        if let Some(sum) = &s.wchs_summary {
            details.push(format!(
                "{} connections watch {} paths: {} watches.",
                sum.value.0,
                sum.value.1,
                s.wchs_total.as_ref().map(|t| t.value).unwrap_or(w)
            ));
        }
        if let (Some(e), Some(h)) = (est, heap) {
            details.push(format!(
                "Watch maps hold at least {} MiB of a {} MiB heap (≥ {:.0} %, at {BYTES_PER_WATCH} \
                 bytes per watch; up to three times that when sessions hold their own path strings).",
                e >> 20,
                h.value >> 20,
                heap_pct.unwrap_or(0.0).floor()
            ));
        }
        if let Some(p) = map_share {
            details.push(format!(
                "`HashMap$Node`, `HashSet` and `HashMap` hold {p:.0} % of the class histogram's \
                 bytes."
            ));
        }
        if old_full {
            details.push(format!(
                "The old generation stayed ≥ {OLD_AFTER_FGC_PCT:.0} % full after every full GC."
            ));
        }
        match (manager, props_known) {
            (Some(m), _) => details.push(format!(
                "`{WATCH_MANAGER_PROPERTY}` is `{}`: the default implementation.",
                m.value
            )),
            (None, true) => details.push(format!(
                "`{WATCH_MANAGER_PROPERTY}` is not among the JVM's system properties: the default \
                 `WatchManager` is in use."
            )),
            (None, false) => details.push(format!(
                "The JVM's system properties are not in the bundle: check that \
                 `{WATCH_MANAGER_PROPERTY}` is not set."
            )),
        }
        let version = s.version.as_ref().map(|v| v.value.as_str());
        if version.and_then(supports_optimized) == Some(false) {
            details.push(format!(
                "ZooKeeper {} predates `WatchManagerOptimized` (3.6.0): upgrade first.",
                version.unwrap_or("?")
            ));
        }
        // The optimized manager needs about 0.2 bytes per watch (0.2 MB per million).
        let saved = est.map(|e| e.saturating_sub(w / 5));
        let label = s.label(&f.jvms);
        out.push(Finding {
            rule_id: WATCH_MANAGER.id,
            explains: vec![OLD_GEN.id, super::jvm::GC_OVERHEAD.id],
            area: WATCH_MANAGER.area,
            title: format!(
                "{label}: {w} watches in the default WatchManager{}",
                heap_pct
                    .map(|p| format!(" (≥ {:.0} % of the heap)", p.floor()))
                    .unwrap_or_default()
            ),
            severity: if critical {
                Severity::Critical
            } else {
                Severity::Warning
            },
            confidence: if props_known && (heap_pct.is_some() || map_share.is_some()) {
                Confidence::High
            } else if props_known || dominant {
                Confidence::Medium
            } else {
                Confidence::Low
            },
            why: format!(
                "{w} watches are stored twice in hash maps by the default watch manager{}; \
                 `-D{WATCH_MANAGER_PROPERTY}={OPTIMIZED}` would free{}.",
                map_share
                    .map(|p| format!(
                        ", and hash-map entries and sets are {p:.0} % of the heap histogram"
                    ))
                    .unwrap_or_default(),
                saved
                    .map(|b| format!(" at least {} MiB", b >> 20))
                    .unwrap_or_else(|| " most of that memory".into())
            ),
            details,
            score: heap_pct.unwrap_or(0.0).max(map_share.unwrap_or(0.0)),
            time_range: None,
            evidence: ev,
        });
    }
    if out.is_empty() {
        if checked.is_empty() && unknown > 0 {
            return Check::NotEvaluated(format!(
                "{unknown} ZooKeeper server(s) without a readable watch count (`mntr` \
                 `zk_watch_count`, `wchs` total)"
            ));
        }
        Check::Clear(checked.join("; "))
    } else {
        Check::Found(out)
    }
}

/// `zk.txn-log-on-data-dir`.
pub fn check_txn_log(f: &HostFacts) -> Check {
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
            rule_id: TXN_LOG.id,
            explains: Vec::new(),
            area: TXN_LOG.area,
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
    use crate::evidence::Cited;
    use crate::facts::jvm::{ClassShare, GcSeries};
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    /// A ZooKeeper JVM with a 256 MiB heap and a server holding `watches` watches.
    fn zk(watches: u64, manager: Option<&str>) -> HostFacts {
        let mut j = Jvm {
            pid: Some(4242),
            dir: "jvm/4242".into(),
            role: Some("ZooKeeper".into()),
            heap_max_bytes: Some(Cited::new(256 << 20, "jvm/4242/vm-flags.txt", 3)),
            properties_source: Some("jvm/4242/vm-system-properties.txt".into()),
            histogram_source: Some("jvm/4242/class-histogram.txt".into()),
            histogram_total_bytes: Some(Cited::new(200 << 20, "jvm/4242/class-histogram.txt", 900)),
            ..Default::default()
        };
        j.top_classes = vec![
            Cited::new(
                ClassShare {
                    class_name: "java.util.HashMap$Node".into(),
                    instances: 2_000_000,
                    bytes: 64 << 20,
                    share_pct: 32.0,
                },
                "jvm/4242/class-histogram.txt",
                4,
            ),
            Cited::new(
                ClassShare {
                    class_name: "[B".into(),
                    instances: 10,
                    bytes: 50 << 20,
                    share_pct: 25.0,
                },
                "jvm/4242/class-histogram.txt",
                5,
            ),
        ];
        if let Some(m) = manager {
            j.properties.insert(
                WATCH_MANAGER_PROPERTY.into(),
                Cited::new(m.into(), "jvm/4242/vm-system-properties.txt", 12),
            );
        }
        let mut f = HostFacts::default();
        f.jvms.push(j);
        f.zookeeper.push(ZkServer {
            endpoint: "zk/127.0.0.1_2181".into(),
            watch_count: Some(Cited::new(watches, "zk/127.0.0.1_2181/mntr.txt", 9)),
            wchs_total: Some(Cited::new(watches, "zk/127.0.0.1_2181/wchs.txt", 2)),
            version: Some(c("3.8.4-abc, built on 2024".to_string())),
            jvm: Some(0),
            ..Default::default()
        });
        f
    }

    #[test]
    fn a_million_watches_on_a_small_heap_fire_with_mntr_wchs_and_histogram_evidence() {
        let v = found(check_watch_manager(&zk(1_000_000, None)));
        assert_eq!(v.len(), 1);
        let x = &v[0];
        assert_eq!(x.rule_id, "zk.default-watch-manager");
        // 50 MB of 256 MiB: warning, not critical (no full old gen, histogram 32 %).
        assert_eq!(x.severity, Severity::Warning);
        assert_eq!(x.confidence, Confidence::High);
        let cited: Vec<&str> = x.evidence.iter().map(|e| e.artifact.as_str()).collect();
        assert!(cited.contains(&"zk/127.0.0.1_2181/mntr.txt"), "{cited:?}");
        assert!(cited.contains(&"zk/127.0.0.1_2181/wchs.txt"), "{cited:?}");
        assert!(cited.contains(&"jvm/4242/class-histogram.txt"), "{cited:?}");
        assert!(x.why.contains(OPTIMIZED), "{}", x.why);
        assert!(x.explains.contains(&"jvm.old-gen-not-reclaimed"));
    }

    #[test]
    fn an_unreadable_watch_count_is_not_evaluated_rather_than_clear() {
        let mut f = zk(0, None);
        f.zookeeper[0].watch_count = None;
        f.zookeeper[0].wchs_total = None;
        f.jvms[0].top_classes.clear();
        assert!(is_not_evaluated(&check_watch_manager(&f)));
    }

    #[test]
    fn the_optimized_manager_clears_the_rule() {
        assert!(is_clear(&check_watch_manager(&zk(
            50_000_000,
            Some(OPTIMIZED)
        ))));
    }

    #[test]
    fn the_default_class_named_explicitly_still_fires() {
        let f = zk(
            3_000_000,
            Some("org.apache.zookeeper.server.watch.WatchManager"),
        );
        let v = found(check_watch_manager(&f));
        // 150 MB of 256 MiB ≥ 50 %: critical.
        assert_eq!(v[0].severity, Severity::Critical);
    }

    #[test]
    fn few_watches_are_clear_and_no_server_is_not_evaluated() {
        assert!(is_clear(&check_watch_manager(&zk(100_000, None))));
        assert!(is_not_evaluated(
            &check_watch_manager(&HostFacts::default())
        ));
    }

    #[test]
    fn full_old_generation_makes_it_critical() {
        let mut f = zk(1_000_000, None);
        f.jvms[0].gc = Some(GcSeries {
            artifact: "jvm/4242/jstat-gcutil.txt".into(),
            old_after_fgc: vec![
                Cited::new(99.1, "jvm/4242/jstat-gcutil.txt", 5),
                Cited::new(99.6, "jvm/4242/jstat-gcutil.txt", 9),
            ],
            ..Default::default()
        });
        let v = found(check_watch_manager(&f));
        assert_eq!(v[0].severity, Severity::Critical);
        assert!(v[0]
            .evidence
            .iter()
            .any(|e| e.artifact.ends_with("jstat-gcutil.txt")));
    }

    #[test]
    fn without_a_heap_size_a_million_watches_is_the_bar() {
        let mut f = zk(999_999, None);
        f.jvms[0].heap_max_bytes = None;
        f.jvms[0].top_classes.clear();
        assert!(is_clear(&check_watch_manager(&f)));
        let mut f = zk(1_000_000, None);
        f.jvms[0].heap_max_bytes = None;
        f.jvms[0].properties_source = None;
        let v = found(check_watch_manager(&f));
        assert_eq!(v[0].confidence, Confidence::Low);
    }

    #[test]
    fn frequent_snapshots_at_the_default_snap_count() {
        let mut f = zk(0, None);
        // 120 snapshots in one hour: one every 30 s.
        f.zookeeper[0].snapshots = Some(c(120));
        f.zookeeper[0].uptime_ms = Some(c(3_600_000));
        let v = found(check_snapshots(&f));
        assert_eq!(v[0].severity, Severity::Info);
        assert!(v[0].title.contains("every 30 s"), "{}", v[0].title);
        f.zookeeper[0].max_fsync_ms = Some(c(1500.0));
        assert_eq!(found(check_snapshots(&f))[0].severity, Severity::Warning);
        // Raised snapCount, or rare snapshots: clear.
        f.zookeeper[0].snap_count = Some(c(500_000));
        assert!(is_clear(&check_snapshots(&f)));
        f.zookeeper[0].snap_count = None;
        f.zookeeper[0].snapshots = Some(c(10));
        assert!(is_clear(&check_snapshots(&f)));
        assert!(is_not_evaluated(&check_snapshots(&HostFacts::default())));
    }

    #[test]
    fn txn_log_in_data_dir() {
        let mut f = zk(0, None);
        f.zookeeper[0].data_dir = Some(c("/var/lib/zookeeper".to_string()));
        let v = found(check_txn_log(&f));
        assert_eq!(v[0].severity, Severity::Info);
        f.zookeeper[0].data_log_dir = Some(c("/zk-txn".to_string()));
        assert!(is_clear(&check_txn_log(&f)));
    }

    #[test]
    fn optimized_manager_needs_3_6() {
        assert_eq!(
            supports_optimized("3.8.4-9316c2a7a97e1666d8f4593f34dd6fc36ecc436c, built on"),
            Some(true)
        );
        assert_eq!(
            supports_optimized("3.5.9-83df9301aa5c2a5d284a9940177808c01bc35cef"),
            Some(false)
        );
        assert_eq!(supports_optimized("3.6.0"), Some(true));
        assert_eq!(supports_optimized("x"), None);
    }
}
