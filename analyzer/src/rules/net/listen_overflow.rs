//! `net.listen-overflow`: listen queues overflow.
//!
//! Reads the `TcpExt` `ListenOverflows`/`ListenDrops` counters of the `netstat -s` (or `nstat`)
//! snapshots, the listening sockets whose accept queue was full (`ss -ltn`) and
//! `net.core.somaxconn`.

use crate::facts::{Fact, HostFacts};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "net.listen-overflow",
    title: "Listen queues overflow",
    area: Area::Network,
    severity: Severity::Warning,
    needs: &[Fact::Net],
    reads: &[],
    thresholds: &[Threshold {
        name: "ListenOverflows / ListenDrops growth, or a full accept queue",
        value: Limit::Any,
        unit: "",
        meaning: "any during the window: a warning; since boot only (one snapshot): \
                  information; a full listener whose backlog equals somaxconn names somaxconn \
                  as the cap",
        sources: &[
            Source::url(
                "listen(2)",
                "https://man7.org/linux/man-pages/man2/listen.2.html",
            ),
            Source::Doc {
                document: "Linux kernel documentation, Documentation/networking/ip-sysctl.rst",
                section: Some("somaxconn"),
                url: Some("https://docs.kernel.org/networking/ip-sysctl.html"),
            },
        ],
    }],
    groups: &[SymptomGroup::NetworkPath],
    explains: &[],
    fires_when: "`ListenOverflows`/`ListenDrops` grow during the window, or an accept queue is full (capped by `somaxconn`)",
    checks: "`TcpExt: ListenOverflows` / `ListenDrops` increase between the `netstat -s` (or \
             `nstat`) snapshots of the window, and listening sockets whose accept queue was full \
             (`ss -ltn`: Recv-Q ≥ Send-Q), compared with `net.core.somaxconn`.",
    why: "A full accept queue drops SYNs or final ACKs: clients wait for a retransmission (1 s, \
          then 3 s) and tail latency jumps while the server's CPU looks idle. The backlog is \
          min(the application's listen() backlog, somaxconn).",
    false_positives: "Overflows since boot only (single snapshot) are shown as information.",
    remedy: "Find the slow acceptor (thread pool exhausted?); raise the application's backlog and \
             `net.core.somaxconn` together.",
    file: file!(),
};

/// Listen-queue overflow counters over the window, and full accept queues.
pub fn check(f: &HostFacts) -> Check {
    let n = &f.net;
    if n.listen_overflows.is_none() && n.listen_drops.is_none() && n.listeners_read == 0 {
        return Check::NotEvaluated(
            "no `netstat -s`/`nstat` counters or listening-socket queues in the bundle".into(),
        );
    }
    let mut out = Vec::new();
    let counter = n
        .listen_overflows
        .as_ref()
        .filter(|c| c.value.delta > 0)
        .or(n.listen_drops.as_ref().filter(|c| c.value.delta > 0));
    if let Some(c) = counter {
        let w = crate::rules::common::counter_words(
            &c.value,
            f.platform.uptime_s.as_ref(),
            Confidence::High,
        );
        let mut evidence = vec![c.evidence("TcpExt ListenOverflows / ListenDrops")];
        evidence.extend(w.uptime);
        out.push(Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: format!("{} listen-queue overflows {}", c.value.delta, w.when),
            severity: w.severity,
            confidence: w.confidence,
            why: format!(
                "The kernel dropped connection attempts because an accept queue was full ({} {}).",
                c.value.delta, w.when
            ),
            details: Vec::new(),
            score: c.value.delta as f64,
            time_range: None,
            evidence,
        });
    }
    for l in &n.full_listeners {
        let capped = n.somaxconn.as_ref().filter(|s| s.value == l.value.backlog);
        let mut ev = vec![l.evidence(format!("listener {}", l.value.local))];
        if let Some(s) = capped {
            ev.push(s.evidence("net.core.somaxconn"));
        }
        out.push(Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: format!(
                "Accept queue of {}{} full: {} waiting, backlog {}{}",
                l.value.local,
                l.value
                    .process
                    .as_deref()
                    .map(|p| format!(" ({p})"))
                    .unwrap_or_default(),
                l.value.queued,
                l.value.backlog,
                if capped.is_some() { " = somaxconn" } else { "" }
            ),
            severity: Severity::Warning,
            confidence: Confidence::Medium,
            why: "Connections complete the handshake faster than the application accepts them."
                .into(),
            details: Vec::new(),
            score: l.value.queued as f64,
            time_range: None,
            evidence: ev,
        });
    }
    if out.is_empty() {
        Check::Clear("no overflow and no full accept queue".into())
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{CounterChange, ListenQueue};
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    #[test]
    fn fires_on_overflows_in_the_window() {
        let mut f = HostFacts::default();
        f.net.listen_overflows = Some(c(CounterChange {
            delta: 37,
            seconds: Some(60.0),
            between: None,
        }));
        assert_eq!(found(check(&f))[0].severity, Severity::Warning);
    }

    #[test]
    fn fires_as_information_since_boot_with_the_rate_per_hour_of_uptime() {
        let mut f = HostFacts::default();
        f.net.listen_overflows = Some(c(CounterChange {
            delta: 791,
            seconds: None,
            between: None,
        }));
        f.platform.uptime_s = Some(c(2.0 * 86_400.0));
        let v = found(check(&f));
        assert_eq!(
            (v[0].severity, v[0].confidence),
            (Severity::Info, Confidence::Low)
        );
        assert_eq!(
            v[0].title,
            "791 listen-queue overflows since boot (16.5 per hour over 48.0 h of uptime)"
        );
    }

    #[test]
    fn clear_without_overflows_then_fires_on_a_full_listener() {
        let mut f = HostFacts::default();
        f.net.listen_overflows = Some(c(CounterChange {
            delta: 0,
            seconds: Some(60.0),
            between: None,
        }));
        assert!(is_clear(&check(&f)));
        f.net.somaxconn = Some(c(128));
        f.net.full_listeners = vec![c(ListenQueue {
            local: "0.0.0.0:8080".into(),
            queued: 129,
            backlog: 128,
            process: Some("java".into()),
        })];
        assert!(found(check(&f))[0].title.contains("= somaxconn"));
    }

    #[test]
    fn not_evaluated_without_counters_or_queues() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
