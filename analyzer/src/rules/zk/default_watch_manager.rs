//! `zk.default-watch-manager`: ZooKeeper's default watch manager holds a large share of the heap.
//!
//! Reads each ZooKeeper server's watches (`mntr` `zk_watch_count`, `wchs` total) joined with its
//! JVM: the `-Dzookeeper.watchManagerName` property (`VM.system_properties`, else the command
//! line), the maximum heap, the class histogram and the old generation after full GCs.

use crate::evidence::Evidence;
use crate::facts::{Fact, HostFacts, Jvm, ZkServer};
use crate::rules::jvm::old_gen_not_reclaimed::{META as OLD_GEN, OLD_AFTER_FGC_PCT};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

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

const ZOOKEEPER_1177: Source = Source::url(
    "ZOOKEEPER-1177 (1 million watches ≈ 50 MB with the default watch manager)",
    "https://issues.apache.org/jira/browse/ZOOKEEPER-1177",
);

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "zk.default-watch-manager",
    title: "ZooKeeper's default watch manager holds a large share of the heap",
    area: Area::Zookeeper,
    severity: Severity::Warning,
    needs: &[Fact::Zookeeper],
    reads: &[Fact::Jvms],
    thresholds: &[
        Threshold {
            name: "memory per watch in the default watch manager, for the estimate",
            value: Limit::Count(BYTES_PER_WATCH),
            unit: "bytes",
            meaning: "a floor: a real server held about 144 bytes per watch when every session \
                      watched every path",
            sources: &[ZOOKEEPER_1177],
        },
        Threshold {
            name: "estimated watch memory (watches × 50 bytes) against the maximum heap",
            value: Limit::Num(WATCH_HEAP_WARN_PCT),
            unit: "%",
            meaning: "at or above: a warning",
            sources: &[ZOOKEEPER_1177, Source::Case(3)],
        },
        Threshold {
            name: "estimated watch memory against the maximum heap",
            value: Limit::Num(WATCH_HEAP_CRIT_PCT),
            unit: "%",
            meaning: "at or above: critical; so is a histogram at or above 50 % hash-map \
                      entries and sets, or an old generation ≥ 90 % after full GCs",
            sources: &[ZOOKEEPER_1177, Source::Case(3)],
        },
        Threshold {
            name: "`HashMap$Node`, `HashSet`, `HashMap` share of the class histogram",
            value: Limit::Num(WATCH_CLASSES_DOMINANT_PCT),
            unit: "%",
            meaning: "at or above, with watches: critical (case S3: 28 of 32 GB in those maps)",
            sources: &[
                Source::Rca("the watch maps then hold most of the heap's bytes"),
                Source::Case(3),
            ],
        },
        Threshold {
            name: "watches, when the heap size is unknown",
            value: Limit::Count(WATCHES_WITHOUT_HEAP),
            unit: "",
            meaning: "at or above: a warning (≈ 50 MB of watch maps)",
            sources: &[ZOOKEEPER_1177],
        },
    ],
    groups: &[SymptomGroup::Memory],
    explains: &[OLD_GEN.id, crate::rules::jvm::gc_overhead::META.id],
    fires_when: "a ZooKeeper server's watches (`mntr`, `wchs`) fill ≥ 10 % of its heap (≥ 50 %, \
                 a histogram ≥ 50 % hash-map entries, or a full old generation: critical) and \
                 `-Dzookeeper.watchManagerName` is not set",
    checks: "Per ZooKeeper server: watches (`mntr` `zk_watch_count`, `wchs` total), whether the \
             JVM sets `-Dzookeeper.watchManagerName` (`VM.system_properties`, else its command \
             line), its maximum heap, the share of the class histogram in `HashMap$Node`, \
             `HashSet` and `HashMap`, and the old generation after full GCs.",
    why: "The default `WatchManager` keeps every (path, watcher) pair twice, in `watchTable` and \
          `watch2Paths` hash maps, about 50 bytes per watch; clients that watch the whole tree \
          multiply znodes by connections into hundreds of millions of entries and fill the heap \
          until `OutOfMemoryError` (case S3: 28 of 32 GB in those maps). \
          `WatchManagerOptimized` (ZOOKEEPER-1177, ZooKeeper ≥ 3.6.0) stores watchers as bitmaps.",
    false_positives: "A watch count near the threshold on a large heap is harmless; the rule stays \
                      quiet when the property names any other watch manager.",
    remedy: "Start ZooKeeper with \
             `-Dzookeeper.watchManagerName=org.apache.zookeeper.server.watch.WatchManagerOptimized` \
             (e.g. in `SERVER_JVMFLAGS`), rolling one server at a time; upgrade to ≥ 3.6.0 first \
             if older. Reported gains: 1 million watches 50 MB → 0.2 MB, adding watches 6.5× and \
             triggering 5× faster. Also ask why clients watch every znode.",
    file: file!(),
};

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

/// Every ZooKeeper server's watches against its heap, with its watch manager.
pub fn check(f: &HostFacts) -> Check {
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
                    rows.iter()
                        .fold(0u64, |a, c| a.saturating_add(c.value.bytes)),
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
            rule_id: META.id,
            explains: META.explains.to_vec(),
            area: META.area,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;
    use crate::facts::jvm::GcSeries;
    use crate::rules::testkit::zk::zk;

    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    /// A ZooKeeper JVM with a 256 MiB heap and a server holding `watches` watches.

    #[test]
    fn fires_on_a_million_watches_on_a_small_heap_with_mntr_wchs_and_histogram_evidence() {
        let v = found(check(&zk(1_000_000, None)));
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
    fn not_evaluated_rather_than_clear_on_an_unreadable_watch_count() {
        let mut f = zk(0, None);
        f.zookeeper[0].watch_count = None;
        f.zookeeper[0].wchs_total = None;
        f.jvms[0].top_classes.clear();
        assert!(is_not_evaluated(&check(&f)));
    }

    #[test]
    fn clear_with_the_optimized_manager() {
        assert!(is_clear(&check(&zk(50_000_000, Some(OPTIMIZED)))));
    }

    #[test]
    fn fires_with_the_default_class_named_explicitly() {
        let f = zk(
            3_000_000,
            Some("org.apache.zookeeper.server.watch.WatchManager"),
        );
        let v = found(check(&f));
        // 150 MB of 256 MiB ≥ 50 %: critical.
        assert_eq!(v[0].severity, Severity::Critical);
    }

    #[test]
    fn clear_on_few_watches_and_not_evaluated_without_a_server() {
        assert!(is_clear(&check(&zk(100_000, None))));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }

    #[test]
    fn fires_critical_with_a_full_old_generation() {
        let mut f = zk(1_000_000, None);
        f.jvms[0].gc = Some(GcSeries {
            artifact: "jvm/4242/jstat-gcutil.txt".into(),
            old_after_fgc: vec![
                Cited::new(99.1, "jvm/4242/jstat-gcutil.txt", 5),
                Cited::new(99.6, "jvm/4242/jstat-gcutil.txt", 9),
            ],
            ..Default::default()
        });
        let v = found(check(&f));
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
        assert!(is_clear(&check(&f)));
        let mut f = zk(1_000_000, None);
        f.jvms[0].heap_max_bytes = None;
        f.jvms[0].properties_source = None;
        let v = found(check(&f));
        assert_eq!(v[0].confidence, Confidence::Low);
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
