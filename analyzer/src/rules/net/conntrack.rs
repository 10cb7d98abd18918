//! `net.conntrack`: the connection-tracking table near full.
//!
//! Reads the kernel log's `nf_conntrack: table full, dropping packet` messages,
//! `net.netfilter.nf_conntrack_count` and `nf_conntrack_max` from `sysctl -a`, and the per-CPU
//! `drop`, `insert_failed` and `early_drop` statistics (`conntrack -S`, else
//! `/proc/net/stat/nf_conntrack`) over the window.

use crate::evidence::Cited;
use crate::facts::{CounterChange, Fact, HostFacts};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Conntrack fill (count / max) for a warning.
const CONNTRACK_WARN: f64 = 0.80;
/// ... and for critical.
const CONNTRACK_CRIT: f64 = 0.95;

const NF_CONNTRACK_SYSCTL: Source = Source::Doc {
    document: "Linux kernel documentation, Documentation/networking/nf_conntrack-sysctl.rst",
    section: Some("nf_conntrack_max"),
    url: Some("https://docs.kernel.org/networking/nf_conntrack-sysctl.html"),
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "net.conntrack",
    title: "Connection-tracking table near full",
    area: Area::Network,
    severity: Severity::Warning,
    needs: &[Fact::Net],
    reads: &[Fact::KernelLog],
    thresholds: &[
        Threshold {
            name: "nf_conntrack_count / nf_conntrack_max",
            value: Limit::Num(CONNTRACK_WARN),
            unit: "",
            meaning: "at or above: a warning (nf_conntrack_max is the hard limit; packets of new \
                      connections are dropped beyond it)",
            sources: &[NF_CONNTRACK_SYSCTL],
        },
        Threshold {
            name: "nf_conntrack_count / nf_conntrack_max",
            value: Limit::Num(CONNTRACK_CRIT),
            unit: "",
            meaning: "at or above: critical",
            sources: &[NF_CONNTRACK_SYSCTL],
        },
        Threshold {
            name: "conntrack `drop`, `insert_failed`, `early_drop` growth",
            value: Limit::Any,
            unit: "",
            meaning: "any during the window: a warning (`drop`: packets dropped because no entry \
                      could be made; `early_drop`: entries evicted to make room); since the \
                      module was loaded only (one read): information",
            sources: &[
                Source::Doc {
                    document: "conntrack(8)",
                    section: Some("-S, --stats: the per-CPU statistics of the connection tracker"),
                    url: Some("https://man7.org/linux/man-pages/man8/conntrack.8.html"),
                },
                NF_CONNTRACK_SYSCTL,
            ],
        },
        Threshold {
            name: "`nf_conntrack: table full, dropping packet`",
            value: Limit::Any,
            unit: "messages",
            meaning: "any within an hour before the window or during it: critical (packets were \
                      dropped); older only: information",
            sources: &[NF_CONNTRACK_SYSCTL, crate::rules::klog::RECENT],
        },
    ],
    groups: &[SymptomGroup::NetworkPath],
    explains: &[],
    fires_when: "the kernel log reports `nf_conntrack: table full`, or `nf_conntrack_count` ≥ 80 % of `nf_conntrack_max`, or conntrack `drop`/`insert_failed`/`early_drop` grow",
    checks: "The kernel log's `nf_conntrack: table full, dropping packet` messages; \
             `net.netfilter.nf_conntrack_count` against `net.netfilter.nf_conntrack_max` \
             (`sysctl -a`); the `drop`, `insert_failed` and `early_drop` statistics summed over \
             CPUs (`conntrack -S`, else `/proc/net/stat/nf_conntrack`) between the window's \
             snapshots.",
    why: "When the table is full the kernel drops new connections' first packets (\"nf_conntrack: \
          table full, dropping packet\"): clients see connect timeouts and retries while the \
          server looks idle.",
    false_positives: "A momentary peak during the snapshot. Statistics read once count since \
                      the module was loaded and are shown as information.",
    remedy: "Raise `nf_conntrack_max` (and the hash size), shorten timeouts for the dominant \
             state, or exempt the busy ports with NOTRACK rules.",
    file: file!(),
};

/// The kernel log's table-full messages, the sysctl fill and the tracker's drops.
pub fn check(f: &HostFacts) -> Check {
    // The kernel log's finding cites the fill itself when there is one.
    let from_log = kernel_log(f);
    let fill_cited = from_log.is_some();
    match (from_log, from_counters(f, fill_cited)) {
        (Some(l), Check::Found(mut v)) => {
            v.insert(0, l);
            Check::Found(v)
        }
        (Some(l), _) => Check::Found(vec![l]),
        (None, c) => c,
    }
}

/// Packets dropped for a full table, from the kernel log.
fn kernel_log(f: &HostFacts) -> Option<Finding> {
    use crate::rules::klog::{at, evidence, relevant, verdict};
    let log = f.klog.get()?;
    let all: Vec<_> = log.of("conntrack-full").collect();
    if all.is_empty() {
        return None;
    }
    let ev = relevant(&all);
    let v = verdict(&all, Severity::Critical, log);
    let mut evs = evidence(&ev, "table full, dropping packet");
    if let (Some(c), Some(m)) = (&f.net.conntrack_count, &f.net.conntrack_max) {
        evs.push(c.evidence("nf_conntrack_count"));
        evs.push(m.evidence("nf_conntrack_max"));
    }
    let n = ev.len();
    Some(crate::rules::klog::ranged(
        crate::rules::common::finding(
            &META,
            v.severity,
            v.confidence,
            format!(
                "Connection-tracking table full: {n} `dropping packet` {} {}",
                if n == 1 { "message" } else { "messages" },
                v.when
            ),
            format!(
                "The kernel dropped packets of new connections because nf_conntrack_max was \
                 reached; the last report at {}.",
                at(ev[n - 1], log)
            ),
            evs,
            1.0 + n as f64,
        ),
        &ev,
    ))
}

/// Entries in the connection-tracking table against its maximum (unless the kernel log's
/// finding cites them: `fill_cited`), and the tracker's drops.
fn from_counters(f: &HostFacts, fill_cited: bool) -> Check {
    let n = &f.net;
    let counters: Vec<(&Cited<CounterChange>, &str)> = [
        (&n.conntrack_drop, "drop"),
        (&n.conntrack_insert_failed, "insert_failed"),
        (&n.conntrack_early_drop, "early_drop"),
    ]
    .into_iter()
    .filter_map(|(c, name)| c.as_ref().map(|c| (c, name)))
    .collect();
    let fill = match (&n.conntrack_count, &n.conntrack_max) {
        (Some(c), Some(m)) if m.value > 0 => Some((c, m, c.value as f64 / m.value as f64)),
        _ => None,
    };
    if fill.is_none() && counters.is_empty() {
        let unread: Vec<String> = [
            "net.netfilter.nf_conntrack_count",
            "net.netfilter.nf_conntrack_max",
        ]
        .into_iter()
        .filter_map(|k| {
            let e = f.kernel.sysctl_unreadable.get(k)?;
            Some(format!("`{k}` ({})", e.value.label()))
        })
        .collect();
        if !unread.is_empty() {
            return Check::NotEvaluated(format!(
                "`sysctl -a` could not read {}, and no `conntrack -S` or \
                 `/proc/net/stat/nf_conntrack`: the table's fill is unknown",
                unread.join(" and ")
            ));
        }
        return Check::NotEvaluated(
            "nf_conntrack_count/max not in `sysctl -a` and no `conntrack -S` or \
             `/proc/net/stat/nf_conntrack` (module not loaded, or not collected)"
                .into(),
        );
    }
    let mut out = Vec::new();
    let mut clear = Vec::new();
    if let Some((c, m, fill)) = fill.filter(|_| !fill_cited) {
        let sev = if fill >= CONNTRACK_CRIT {
            Some(Severity::Critical)
        } else if fill >= CONNTRACK_WARN {
            Some(Severity::Warning)
        } else {
            None
        };
        match sev {
            Some(sev) => out.push(Finding {
                rule_id: META.id,
                explains: Vec::new(),
                area: META.area,
                title: format!(
                    "Connection-tracking table {:.0} % full ({} of {})",
                    fill * 100.0,
                    c.value,
                    m.value
                ),
                severity: sev,
                confidence: Confidence::Medium,
                why: "New connections are dropped once the table is full.".into(),
                details: Vec::new(),
                score: fill,
                time_range: None,
                evidence: vec![
                    c.evidence("nf_conntrack_count"),
                    m.evidence("nf_conntrack_max"),
                ],
            }),
            None => clear.push(format!(
                "{} of {} entries ({:.0} %)",
                c.value,
                m.value,
                fill * 100.0
            )),
        }
    }
    let grew: Vec<&(&Cited<CounterChange>, &str)> =
        counters.iter().filter(|(c, _)| c.value.delta > 0).collect();
    if let Some((first, _)) = grew.first() {
        let window = first.value.seconds;
        let when = match (window, first.value.between) {
            (Some(s), _) => format!("during the {s:.0} s window"),
            (None, Some(source)) => {
                format!("between the two {source} snapshots (interval unknown)")
            }
            (None, None) => "since the conntrack module was loaded".to_string(),
        };
        let parts: Vec<String> = grew
            .iter()
            .map(|(c, name)| format!("{name} {}", c.value.delta))
            .collect();
        let (severity, confidence) = match (window, first.value.between) {
            (Some(_), _) => (Severity::Warning, Confidence::High),
            (None, Some(_)) => (Severity::Warning, Confidence::Medium),
            (None, None) => (Severity::Info, Confidence::Low),
        };
        let drops = grew
            .iter()
            .find(|(_, name)| *name == "drop")
            .map_or(0, |(c, _)| c.value.delta);
        out.push(Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: format!("Connection tracker dropping: {} {when}", parts.join(", ")),
            severity,
            confidence,
            why: format!(
                "The connection tracker counted {} {when} (summed over CPUs): packets of new \
                 connections were dropped or entries evicted because no entry could be made.",
                parts.join(", ")
            ),
            details: Vec::new(),
            score: drops as f64,
            time_range: None,
            evidence: grew
                .iter()
                .map(|(c, name)| c.evidence(format!("conntrack {name}")))
                .collect(),
        });
    } else if !counters.is_empty() {
        clear.push("no conntrack drop, insert_failed or early_drop".into());
    }
    if out.is_empty() {
        Check::Clear(clear.join("; "))
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    #[test]
    fn fires_on_table_full_messages_without_sysctl() {
        use crate::facts::klog::EventKind;
        use crate::rules::klog::testkit::{ev, facts};
        let f = facts(vec![ev(
            EventKind::ConntrackFull,
            Some(120.0),
            14,
            "nf_conntrack: nf_conntrack: table full, dropping packet",
        )]);
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Critical);
        assert_eq!(v[0].evidence[0].lines, vec![14]);
    }

    #[test]
    fn fires_at_80_and_95_percent() {
        let mut f = HostFacts::default();
        f.net.conntrack_max = Some(c(262_144));
        f.net.conntrack_count = Some(c(262_000));
        assert_eq!(found(check(&f))[0].severity, Severity::Critical);
        f.net.conntrack_count = Some(c(209_716));
        assert_eq!(found(check(&f))[0].severity, Severity::Warning);
    }

    #[test]
    fn fires_on_drops_in_the_window_and_informs_since_loading() {
        let mut f = HostFacts::default();
        f.net.conntrack_drop = Some(c(CounterChange {
            delta: 204,
            seconds: Some(12.0),
            between: None,
        }));
        f.net.conntrack_early_drop = Some(c(CounterChange {
            delta: 0,
            seconds: Some(12.0),
            between: None,
        }));
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Warning);
        assert_eq!(
            v[0].title,
            "Connection tracker dropping: drop 204 during the 12 s window"
        );
        f.net.conntrack_drop = Some(c(CounterChange {
            delta: 264,
            seconds: None,
            between: None,
        }));
        assert_eq!(found(check(&f))[0].severity, Severity::Info);
        f.net.conntrack_drop = Some(c(CounterChange {
            delta: 0,
            seconds: Some(12.0),
            between: None,
        }));
        assert!(is_clear(&check(&f)));
    }

    #[test]
    fn clear_when_mostly_free_and_not_evaluated_without_the_counters() {
        let mut f = HostFacts::default();
        f.net.conntrack_max = Some(c(262_144));
        f.net.conntrack_count = Some(c(1000));
        assert!(is_clear(&check(&f)));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }

    #[test]
    fn unknown_rather_than_absent_when_sysctl_could_not_read_the_table() {
        use crate::facts::kernel::SysctlError;
        let mut f = HostFacts::default();
        f.kernel.sysctl_unreadable.insert(
            "net.netfilter.nf_conntrack_max".into(),
            c(SysctlError::Denied),
        );
        let Check::NotEvaluated(why) = check(&f) else {
            panic!("expected not evaluated");
        };
        assert!(
            why.contains("could not read `net.netfilter.nf_conntrack_max` (permission denied)"),
            "{why}"
        );
        assert!(!why.contains("not loaded"), "{why}");
    }
}
