//! `jvm.old-gen-not-reclaimed`: full GCs leave the old generation nearly full.
//!
//! Reads each JVM's old-generation occupancy after the window's full GCs (`jstat` `O`, or the GC
//! log's heap after each full collection), its collector, its maximum heap and its class
//! histogram.

use crate::evidence::Evidence;
use crate::facts::{Fact, HostFacts};
use crate::rules::common::heap_evidence;
use crate::rules::sources::ORACLE_TROUBLESHOOTING;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Old-generation occupancy after a full GC at or above this, %, means the collection freed
/// almost nothing.
pub const OLD_AFTER_FGC_PCT: f64 = 90.0;
/// Full GCs in the window, each leaving the old generation full, for critical.
const FULL_GCS_CRITICAL: usize = 2;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "jvm.old-gen-not-reclaimed",
    title: "Old generation not reclaimed by full GCs",
    area: Area::Jvm,
    severity: Severity::Warning,
    needs: &[Fact::Jvms],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "old generation after every full GC of the window",
            value: Limit::Num(OLD_AFTER_FGC_PCT),
            unit: "%",
            meaning: "at or above: a warning after a single full GC (case S3: \"old generation \
                      stays near 100 % after each FGC; FGC count keeps rising\"; a heap whose \
                      live data does not fit)",
            sources: &[
                Source::Case(3),
                Source::section(
                    ORACLE_TROUBLESHOOTING,
                    "Understand the OutOfMemoryError Exception",
                ),
            ],
        },
        Threshold {
            name: "full GCs that left it full",
            value: Limit::Count(FULL_GCS_CRITICAL as u64),
            unit: "",
            meaning: "at or above: critical (a trend, not one event)",
            sources: &[
                Source::Rca(
                    "one full GC that leaves the old generation full can be a peak of live \
                     data; a second in the same window shows the heap does not hold the live set",
                ),
                Source::Case(3),
            ],
        },
    ],
    groups: &[SymptomGroup::Gc],
    explains: &[],
    fires_when: "the old generation (`jstat` `O`) stays ≥ 90 % after every full GC of the window \
                 (critical from two); names the top histogram classes",
    checks: "Per JVM: old-generation occupancy (`jstat` `O`, or `OU/OC`) at each sample where the \
             full-GC count `FGC` rose during the window; full collections in the GC log with the \
             heap still nearly full after them. Names the classes holding the most bytes in the \
             class histogram.",
    why: "When a full GC leaves the old generation nearly full, the live set has outgrown the \
          heap: every allocation now triggers another full GC, pauses pile up and the JVM ends in \
          `OutOfMemoryError` (case S3: ZooKeeper's watch maps filled the heap).",
    false_positives: "A heap sized just above a stable live set can sit near 90 % after full GCs \
                      without growing; look at whether the top classes are expected to be that \
                      large.",
    remedy: "Find what holds the memory (the top classes here, then a heap dump: `jcmd PID \
             GC.heap_dump`), fix the leak or the data structure; raise `-Xmx` only if the live set \
             is legitimately that large.",
    file: file!(),
};

/// Every JVM's old generation after the full GCs of the window.
pub fn check(f: &HostFacts) -> Check {
    if f.jvms.is_empty() {
        return Check::NotEvaluated("no JVM evidence (`jstat`, GC log) in the bundle".into());
    }
    let mut out = Vec::new();
    let mut checked = 0;
    for j in &f.jvms {
        let from_jstat = j.gc.as_ref().map(|g| {
            (
                &g.old_after_fgc,
                g.artifact.as_str(),
                Some(g.header_prefix()),
            )
        });
        let from_log = j
            .gc_log
            .as_ref()
            .map(|g| (&g.full_gc_after_pct, g.artifact.as_str(), None));
        // Under G1, jstat's `O` is the occupancy of the committed old regions, which reads near
        // 100 % after a full GC that left room in the heap: the GC log's heap after the full GC
        // (against the whole heap) is the better measure when it is there.
        let g1 = j.collector.as_ref().is_some_and(|c| c.value == "G1");
        let log_first = g1 && from_log.as_ref().is_some_and(|(a, _, _)| !a.is_empty());
        let pick = if log_first {
            from_log.filter(|(a, _, _)| !a.is_empty())
        } else {
            from_jstat
                .filter(|(a, _, _)| !a.is_empty())
                .or(from_log.filter(|(a, _, _)| !a.is_empty()))
        };
        let g1_jstat_only = g1 && !log_first && pick.as_ref().is_some_and(|(_, _, h)| h.is_some());
        let Some((after, source, header)) = pick else {
            if j.gc.is_some() || j.gc_log.is_some() {
                checked += 1;
            }
            continue;
        };
        checked += 1;
        if !after.iter().all(|o| o.value >= OLD_AFTER_FGC_PCT) {
            continue;
        }
        let n = after.len();
        let min = after.iter().map(|o| o.value).fold(f64::INFINITY, f64::min);
        let last = after.last().map(|o| o.value).unwrap_or(min);
        let mut first = Evidence::new(
            source,
            after.iter().flat_map(|o| o.lines.clone()).collect(),
            format!("old generation after each of {n} full GC(s)"),
        );
        if let Some(h) = header {
            first = first.with_header(h);
        }
        let mut ev = vec![first];
        if let Some(h) = heap_evidence(j) {
            ev.push(h);
        }
        let mut details = Vec::new();
        let top: Vec<_> = j.top_classes.iter().take(5).collect();
        if let Some(src) = &j.histogram_source {
            ev.push(Evidence::new(
                src,
                top.iter().flat_map(|c| c.lines.clone()).collect(),
                "classes holding the most bytes",
            ));
            for c in &top {
                details.push(format!(
                    "{}: {} instances, {} MiB ({:.1} % of the histogram)",
                    c.value.class_name,
                    c.value.instances,
                    c.value.bytes >> 20,
                    c.value.share_pct
                ));
            }
        } else {
            details.push(
                "No class histogram in the bundle: take one (`jcmd PID GC.class_histogram`) to \
                 see what holds the memory."
                    .into(),
            );
        }
        if g1_jstat_only {
            details.push(
                "Under G1, `jstat`'s `O` is the occupancy of the committed old regions and can read \
                 near 100 % after a full GC that left room in the heap: confirm with the GC log's \
                 heap after each full GC."
                    .into(),
            );
        }
        let names: Vec<&str> = top
            .iter()
            .take(3)
            .map(|c| c.value.class_name.as_str())
            .collect();
        out.push(Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: format!(
                "{}: old generation still {last:.1} % full after {n} full GC(s)",
                j.label()
            ),
            severity: if n >= FULL_GCS_CRITICAL {
                Severity::Critical
            } else {
                Severity::Warning
            },
            confidence: if g1_jstat_only {
                Confidence::Low
            } else if n >= 3 {
                Confidence::High
            } else {
                Confidence::Medium
            },
            why: format!(
                "Every full GC in the window left the old generation ≥ {min:.0} % full, so the \
                 live data no longer fits the heap{}.",
                if names.is_empty() {
                    String::new()
                } else {
                    format!("; most bytes are in {}", names.join(", "))
                }
            ),
            details,
            score: n as f64 * last,
            time_range: None,
            evidence: ev,
        });
    }
    if out.is_empty() {
        if checked == 0 {
            Check::NotEvaluated(
                "no JVM with a `jstat` series or GC log with full GCs in the bundle".into(),
            )
        } else {
            Check::Clear(format!(
                "{checked} JVM(s): no full GC left the old generation ≥ {OLD_AFTER_FGC_PCT:.0} % full"
            ))
        }
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;

    use crate::facts::jvm::GcLogSummary;
    use crate::rules::testkit::jvm::jvm_with_gc;
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    #[test]
    fn fires_critical_after_repeated_full_gcs_naming_classes() {
        let v = found(check(&jvm_with_gc(&[97.0, 98.5, 99.9], 3.0)));
        assert_eq!(v[0].severity, Severity::Critical);
        assert_eq!(v[0].confidence, Confidence::High);
        assert!(v[0].why.contains("java.util.HashMap$Node"), "{}", v[0].why);
        assert_eq!(v[0].evidence[0].lines, vec![3, 8, 13]);
        assert_eq!(v[0].evidence[0].header_prefix, Some("Timestamp"));
        // One full GC is a warning; one that freed the old generation clears it.
        let one = found(check(&jvm_with_gc(&[95.0], 3.0)));
        assert_eq!(one[0].severity, Severity::Warning);
    }

    #[test]
    fn clear_when_a_full_gc_freed_it_and_not_evaluated_without_jvms() {
        assert!(is_clear(&check(&jvm_with_gc(&[97.0, 40.0], 3.0))));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }

    #[test]
    fn under_g1_the_gc_log_heap_after_full_gcs_wins_over_jstat() {
        // jstat's O reads 99 % of the committed old regions; the log says the full GCs left the
        // heap 84 % full: not a full old generation.
        let mut f = jvm_with_gc(&[99.0, 99.5], 3.0);
        f.jvms[0].collector = Some(Cited::new("G1".to_string(), "jvm/7/vm-flags.txt", 2));
        f.jvms[0].gc_log = Some(GcLogSummary {
            artifact: "jvm/7/gc.log".into(),
            full_gc_after_pct: vec![
                Cited::new(84.0, "jvm/7/gc.log", 10),
                Cited::new(84.2, "jvm/7/gc.log", 20),
            ],
            ..Default::default()
        });
        assert!(is_clear(&check(&f)));
        // Without the log, jstat is used, with low confidence and a note.
        f.jvms[0].gc_log = None;
        let v = found(check(&f));
        assert_eq!(v[0].confidence, Confidence::Low);
        assert!(v[0]
            .details
            .iter()
            .any(|d| d.contains("committed old regions")));
    }
}
