//! `jvm.heap-growth`: the objects of a JVM's heap grew between two class histograms.
//!
//! Reads each JVM's histogram comparison ([`crate::facts::jvm::HistogramGrowth`]): the `Total`
//! bytes of its first and last class histogram and the classes that grew most.

use crate::facts::jvm::{HistogramGrowth, Jvm};
use crate::facts::{Fact, HostFacts};
use crate::rules::sources::ORACLE_TROUBLESHOOTING;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Growth of the histogram total from the first to the last histogram, %, from which the rule
/// reports ...
pub const GROWTH_PCT: f64 = 10.0;
/// ... when it is also at least this many bytes (1 MiB).
pub const GROWTH_MIN_BYTES: u64 = 1 << 20;
/// Classes named in the finding.
const NAMED: usize = 5;

const LEAKS_DOC: Source = Source::Doc {
    document: ORACLE_TROUBLESHOOTING,
    section: Some("Troubleshoot Memory Leaks: compare class histograms taken over time"),
    url: Some(
        "https://docs.oracle.com/en/java/javase/17/troubleshoot/troubleshooting-memory-leaks.html",
    ),
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "jvm.heap-growth",
    title: "Heap objects grew between two class histograms",
    area: Area::Jvm,
    severity: Severity::Info,
    needs: &[Fact::Jvms],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "growth of the histogram `Total` bytes, first to last histogram",
            value: Limit::Num(GROWTH_PCT),
            unit: "%",
            meaning: "at or above (and ≥ 1 MiB): information naming the classes that grew",
            sources: &[
                LEAKS_DOC,
                Source::Rca(
                    "a tenth more heap in objects between two snapshots is more than the noise \
                     of a steady application's churn; it stays information because two \
                     snapshots cannot tell a leak from a warm-up or a load peak",
                ),
            ],
        },
        Threshold {
            name: "growth of the histogram `Total`",
            value: Limit::Count(GROWTH_MIN_BYTES >> 20),
            unit: "MiB",
            meaning: "below it: never reported (a few buffers)",
            sources: &[Source::Rca(
                "under a mebibyte the growth is a few buffers or caches filling, whatever the \
                 percentage on a small heap",
            )],
        },
    ],
    groups: &[SymptomGroup::Memory, SymptomGroup::Gc],
    explains: &[],
    fires_when: "the class histogram total grew ≥ 10 % and ≥ 1 MiB between the first and the \
                 last histogram of a JVM (information)",
    checks: "Per JVM with two or more complete class histograms (`jmap -histo`, `jcmd \
             GC.class_histogram`, with their `Total` line), taken in path order: the `Total` \
             bytes of the first and the last, and the classes whose bytes grew most, with \
             their instances.",
    why: "A class whose instances keep growing between snapshots is what a leak looks like \
          from outside (a cache without eviction, listeners never removed); the class names \
          say where to look in a heap dump.",
    false_positives: "Histograms of all objects (`-all`, `jmap -histo` without `:live`) count \
                      garbage not yet collected: the difference can be a collection's timing. \
                      Warm-up, a load peak or a cache filling to its bound also grow the heap. \
                      Two snapshots are a hint, not proof of a leak: take more, further apart, \
                      with `:live`.",
    remedy: "Compare further histograms (`jmap -histo:live`) over a longer time; if the same \
             classes keep growing, take a heap dump (`jcmd PID GC.heap_dump`) and follow the \
             paths that keep them alive.",
    file: file!(),
};

fn finding(j: &Jvm, g: &HistogramGrowth, pct: f64) -> Finding {
    let (a, b) = (&g.total_bytes.0, &g.total_bytes.1);
    let mut ev = vec![
        a.evidence("first histogram: total"),
        b.evidence("last histogram: total"),
    ];
    let mut details = Vec::new();
    for c in g.grown.iter().take(NAMED) {
        let v = &c.value;
        details.push(format!(
            "`{}`: {} → {} bytes (+{} KiB), {} → {} instances.",
            v.class_name,
            v.bytes.0,
            v.bytes.1,
            (v.bytes.1 - v.bytes.0) >> 10,
            v.instances.0,
            v.instances.1
        ));
        ev.push(c.evidence(format!("`{}` in the last histogram", v.class_name)));
    }
    let top = g
        .grown
        .first()
        .map(|c| format!(", most in `{}`", c.value.class_name))
        .unwrap_or_default();
    Finding {
        rule_id: META.id,
        explains: Vec::new(),
        area: META.area,
        title: format!(
            "{}: heap objects grew {pct:.0} % between two class histograms ({} → {} MiB){top}",
            j.label(),
            a.value >> 20,
            b.value >> 20
        ),
        severity: Severity::Info,
        confidence: Confidence::Low,
        why: format!(
            "The histogram total went from {} to {} bytes between `{}` and `{}`. Two snapshots \
             are a hint, not proof of a leak: garbage not yet collected, warm-up or a load peak \
             grow a heap too; the same classes growing in further snapshots would confirm it.",
            a.value, b.value, g.first, g.last
        ),
        details,
        score: pct,
        time_range: None,
        evidence: ev,
    }
}

/// Every JVM with two histograms.
pub fn check(f: &HostFacts) -> Check {
    let with: Vec<(&Jvm, &HistogramGrowth)> = f
        .jvms
        .iter()
        .filter_map(|j| j.histogram_growth.as_ref().map(|g| (j, g)))
        .collect();
    if with.is_empty() {
        return Check::NotEvaluated(
            "no JVM with two complete class histograms (the collector takes one)".into(),
        );
    }
    let mut out = Vec::new();
    let mut checked = Vec::new();
    for (j, g) in with {
        let (a, b) = (g.total_bytes.0.value, g.total_bytes.1.value);
        let pct = if a > 0 {
            (b as f64 - a as f64) * 100.0 / a as f64
        } else {
            0.0
        };
        if b >= a.saturating_add(GROWTH_MIN_BYTES) && pct >= GROWTH_PCT {
            out.push(finding(j, g, pct));
        } else {
            checked.push(format!("{}: histogram total {pct:+.0} %", j.label()));
        }
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
    use crate::evidence::Cited;
    use crate::facts::jvm::ClassGrowth;
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    fn facts(before: u64, after: u64) -> HostFacts {
        HostFacts {
            jvms: vec![Jvm {
                pid: Some(951),
                histogram_growth: Some(HistogramGrowth {
                    first: "histo_1.txt".into(),
                    last: "histo_2.txt".into(),
                    total_bytes: (
                        Cited::new(before, "histo_1.txt", 247),
                        Cited::new(after, "histo_2.txt", 246),
                    ),
                    grown: vec![Cited::new(
                        ClassGrowth {
                            class_name: "Leak$Session".into(),
                            bytes: (40_800, 291_600),
                            instances: (1700, 12_150),
                            first_line: 7,
                        },
                        "histo_2.txt",
                        5,
                    )],
                }),
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    #[test]
    fn fires_as_information_naming_the_classes() {
        let v = found(check(&facts(3_039_264, 14_791_992)));
        assert_eq!(v[0].severity, Severity::Info);
        assert!(
            v[0].title.contains(
                "grew 387 % between two class histograms (2 → 14 MiB), most in `Leak$Session`"
            ),
            "{}",
            v[0].title
        );
        assert!(v[0].why.contains("not proof of a leak"));
        assert_eq!(
            v[0].details[0],
            "`Leak$Session`: 40800 → 291600 bytes (+244 KiB), 1700 → 12150 instances."
        );
        assert_eq!(v[0].evidence.len(), 3);
    }

    #[test]
    fn clear_on_small_or_no_growth_and_not_evaluated_with_one_histogram() {
        // 50 % of a tiny heap: under 1 MiB.
        assert!(is_clear(&check(&facts(1_000_000, 1_500_000))));
        // 5 % of a large one.
        assert!(is_clear(&check(&facts(1 << 30, (1 << 30) + (50 << 20)))));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
