//! `jvm.gc-overhead`: time in GC pauses, long pauses, evacuation failure.
//!
//! Reads each JVM's GC series over the window (`jstat`: Δ`YGCT` + Δ`FGCT`) and its GC log
//! summary (longest pause, pauses ≥ 1 s, G1 `to-space exhausted`).

use crate::evidence::Evidence;
use crate::facts::{Fact, HostFacts};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Share of wall time in stop-the-world GC at or above this, %, is a warning.
pub const PAUSE_SHARE_WARN_PCT: f64 = 10.0;
/// ... and at or above this, critical.
pub const PAUSE_SHARE_CRIT_PCT: f64 = 50.0;
/// A single pause at or above this, ms, is long.
pub const LONG_PAUSE_MS: f64 = 1000.0;

const HOTSPOT_GC_TUNING: Source = Source::doc("Oracle HotSpot GC Tuning Guide");

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "jvm.gc-overhead",
    title: "GC overhead: time in pauses, long pauses, evacuation failure",
    area: Area::Jvm,
    severity: Severity::Warning,
    needs: &[Fact::Jvms],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "share of the window in stop-the-world pauses",
            value: Limit::Num(PAUSE_SHARE_WARN_PCT),
            unit: "%",
            meaning: "at or above: a warning (G1's default throughput goal \
                      `-XX:GCTimeRatio=12` allows 7.7 %, Parallel's default 99 allows 1 %)",
            sources: &[HOTSPOT_GC_TUNING],
        },
        Threshold {
            name: "share of the window in stop-the-world pauses",
            value: Limit::Num(PAUSE_SHARE_CRIT_PCT),
            unit: "%",
            meaning: "at or above: critical (the application gets less than half the time; \
                      HotSpot's own `GCTimeLimit` gives up at 98 %)",
            sources: &[HOTSPOT_GC_TUNING],
        },
        Threshold {
            name: "a single pause",
            value: Limit::Num(LONG_PAUSE_MS),
            unit: "ms",
            meaning: "at or above (five times G1's default `MaxGCPauseMillis=200`), or a G1 \
                      `to-space exhausted`: a warning",
            sources: &[HOTSPOT_GC_TUNING],
        },
    ],
    groups: &[SymptomGroup::Memory, SymptomGroup::Gc],
    explains: &[],
    fires_when: "≥ 10 % of the window in GC pauses (critical ≥ 50 %), a pause ≥ 1 s, or G1 \
                 `to-space exhausted`",
    checks: "Per JVM: share of the window spent in stop-the-world collections (Δ`YGCT` + Δ`FGCT` \
             from `jstat` over the window; JDK 11+ concurrent time `CGCT` excluded); the longest \
             pause and pauses ≥ 1 s in the GC log; G1 `to-space exhausted`.",
    why: "Time in GC pauses is time the application does not run: throughput falls and latency \
          rises for every request in flight; pauses of seconds expire ZooKeeper sessions and \
          fail heartbeats (cases S1, S3).",
    false_positives: "A short window that happens to hold one full GC overstates the share; a \
                      `System.gc()` called on purpose (the cause in `jstat -gccause` or the log).",
    remedy: "Look at what fills the heap (histogram, old-gen finding), size the heap and young \
             generation for the allocation rate, and on JDK 11+ consider G1 tuning or ZGC for \
             large heaps; for `to-space exhausted` raise `-XX:G1ReservePercent` or the heap.",
    file: file!(),
};

/// Every JVM's time in pauses, longest pauses and evacuation failures.
pub fn check(f: &HostFacts) -> Check {
    let mut out = Vec::new();
    let mut checked = 0;
    for j in &f.jvms {
        if j.gc.is_none() && j.gc_log.is_none() {
            continue;
        }
        checked += 1;
        let mut ev = Vec::new();
        let mut reasons = Vec::new();
        let mut sev: Option<Severity> = None;
        let mut score = 0.0;
        if let Some(g) = &j.gc {
            if let (Some(share), Some(w)) = (g.pause_share_pct, g.window_s) {
                if share >= PAUSE_SHARE_WARN_PCT {
                    sev = Some(if share >= PAUSE_SHARE_CRIT_PCT {
                        Severity::Critical
                    } else {
                        Severity::Warning
                    });
                    score += share;
                    reasons.push(format!(
                        "{share:.0} % of the {w:.0} s window in GC pauses ({} young, {} full \
                         collections)",
                        g.ygc.unwrap_or(0),
                        g.fgc.unwrap_or(0)
                    ));
                    ev.push(
                        Evidence::new(
                            &g.artifact,
                            g.span_lines.clone(),
                            "GC counts and times at the start and end of the window",
                        )
                        .with_header(g.header_prefix()),
                    );
                }
            }
        }
        if let Some(l) = &j.gc_log {
            if let Some(m) = l.max_pause_ms.as_ref().filter(|m| m.value >= LONG_PAUSE_MS) {
                sev = sev.max(Some(Severity::Warning));
                score += m.value / 1000.0;
                // The log's tail may reach back before the window: say how far.
                let over = match l.span_s {
                    Some(sp) if sp >= 120.0 => {
                        format!(" over the GC log's last {:.0} min", sp / 60.0)
                    }
                    Some(sp) => format!(" over the GC log's last {sp:.0} s"),
                    None => " in the GC log".to_string(),
                };
                reasons.push(format!(
                    "longest pause {:.1} s ({} pause(s) ≥ 1 s){over}",
                    m.value / 1000.0,
                    l.long_pauses
                ));
                ev.push(m.evidence("longest pause"));
            }
            if !l.to_space_exhausted.is_empty() {
                sev = sev.max(Some(Severity::Warning));
                score += l.to_space_exhausted.len() as f64;
                reasons.push(format!(
                    "{} evacuation failure(s) (`to-space exhausted`)",
                    l.to_space_exhausted.len()
                ));
                let mut lines = l.to_space_exhausted.clone();
                lines.truncate(5);
                ev.push(Evidence::new(&l.artifact, lines, "G1 evacuation failures"));
            }
        }
        let Some(sev) = sev else { continue };
        out.push(Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: format!("{}: {}", j.label(), reasons[0]),
            severity: sev,
            confidence: if ev.len() > 1 {
                Confidence::High
            } else {
                Confidence::Medium
            },
            why: format!("{}.", reasons.join("; ")),
            details: reasons[1..].to_vec(),
            score,
            time_range: None,
            evidence: ev,
        });
    }
    if checked == 0 {
        return Check::NotEvaluated("no JVM with a `jstat` series or GC log in the bundle".into());
    }
    if out.is_empty() {
        Check::Clear(format!(
            "{checked} JVM(s): GC pauses below {PAUSE_SHARE_WARN_PCT:.0} % of the window, none ≥ 1 s"
        ))
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
    fn fires_at_10_and_50_percent_of_the_window_in_pauses() {
        let w = found(check(&jvm_with_gc(&[], 10.0)));
        assert_eq!(w[0].severity, Severity::Warning);
        let c = found(check(&jvm_with_gc(&[], 62.0)));
        assert_eq!(c[0].severity, Severity::Critical);
        assert!(c[0].title.contains("62 %"), "{}", c[0].title);
    }

    #[test]
    fn clear_below_10_percent_and_not_evaluated_without_gc_evidence() {
        assert!(is_clear(&check(&jvm_with_gc(&[], 9.9))));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }

    #[test]
    fn fires_on_long_pauses_and_to_space_exhausted_from_the_gc_log() {
        let mut f = jvm_with_gc(&[], 1.0);
        f.jvms[0].gc_log = Some(GcLogSummary {
            artifact: "jvm/7/gc.log".into(),
            max_pause_ms: Some(Cited::new(2400.0, "jvm/7/gc.log", 88)),
            long_pauses: 2,
            to_space_exhausted: vec![80],
            ..Default::default()
        });
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Warning);
        assert!(v[0].why.contains("2.4 s"), "{}", v[0].why);
        assert!(v[0].why.contains("to-space exhausted"), "{}", v[0].why);
    }
}
