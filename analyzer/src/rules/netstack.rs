//! TCP stack rules: connection-tracking table and listen-queue overflows.

use super::{Check, Confidence, Finding, RuleMeta, Severity};
use crate::facts::HostFacts;

/// Conntrack fill (count / max) for a warning and critical.
const CONNTRACK_WARN: f64 = 0.80;
const CONNTRACK_CRIT: f64 = 0.95;

pub static CONNTRACK: RuleMeta = RuleMeta {
    id: "net.conntrack",
    title: "Connection-tracking table near full",
    area: "network",
    checks: "`net.netfilter.nf_conntrack_count` against `net.netfilter.nf_conntrack_max` \
             (`sysctl -a`).",
    why: "When the table is full the kernel drops new connections' first packets (\"nf_conntrack: \
          table full, dropping packet\"): clients see connect timeouts and retries while the \
          server looks idle.",
    threshold: "≥ 80 % full is a warning, ≥ 95 % critical. Source: kernel \
                Documentation/networking/nf_conntrack-sysctl.rst (nf_conntrack_max is the hard \
                limit; packets of new connections are dropped beyond it).",
    false_positives: "A momentary peak during the snapshot.",
    remedy: "Raise `nf_conntrack_max` (and the hash size), shorten timeouts for the dominant \
             state, or exempt the busy ports with NOTRACK rules.",
};

pub static LISTEN: RuleMeta = RuleMeta {
    id: "net.listen-overflow",
    title: "Listen queues overflow",
    area: "network",
    checks: "`TcpExt: ListenOverflows` / `ListenDrops` increase between the `netstat -s` (or \
             `nstat`) snapshots of the window, and listening sockets whose accept queue was full \
             (`ss -ltn`: Recv-Q ≥ Send-Q), compared with `net.core.somaxconn`.",
    why: "A full accept queue drops SYNs or final ACKs: clients wait for a retransmission (1 s, \
          then 3 s) and tail latency jumps while the server's CPU looks idle. The backlog is \
          min(the application's listen() backlog, somaxconn).",
    threshold: "Any overflow during the window is a warning; a full listener whose backlog equals \
                somaxconn names somaxconn as the cap. Source: listen(2) and kernel \
                Documentation/networking/ip-sysctl.rst (somaxconn).",
    false_positives: "Overflows since boot only (single snapshot) are shown as information.",
    remedy: "Find the slow acceptor (thread pool exhausted?); raise the application's backlog and \
             `net.core.somaxconn` together.",
};

/// `net.conntrack`.
pub fn check_conntrack(f: &HostFacts) -> Check {
    let (Some(c), Some(m)) = (&f.net.conntrack_count, &f.net.conntrack_max) else {
        return Check::NotEvaluated(
            "nf_conntrack_count/max not in `sysctl -a` (module not loaded, or not collected)"
                .into(),
        );
    };
    if m.value == 0 {
        return Check::NotEvaluated("nf_conntrack_max is 0".into());
    }
    let fill = c.value as f64 / m.value as f64;
    let sev = if fill >= CONNTRACK_CRIT {
        Severity::Critical
    } else if fill >= CONNTRACK_WARN {
        Severity::Warning
    } else {
        return Check::Clear(format!(
            "{} of {} entries ({:.0} %)",
            c.value,
            m.value,
            fill * 100.0
        ));
    };
    Check::Found(vec![Finding {
        rule_id: CONNTRACK.id,
        explains: Vec::new(),
        area: CONNTRACK.area,
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
    }])
}

/// `net.listen-overflow`.
pub fn check_listen(f: &HostFacts) -> Check {
    let n = &f.net;
    if n.listen_overflows.is_none() && n.listen_drops.is_none() && n.full_listeners.is_empty() {
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
        let (sev, when) = match c.value.seconds {
            Some(s) => (Severity::Warning, format!("during the {s:.0} s window")),
            None => (Severity::Info, "since boot".to_string()),
        };
        out.push(Finding {
            rule_id: LISTEN.id,
            explains: Vec::new(),
            area: LISTEN.area,
            title: format!("{} listen-queue overflows {when}", c.value.delta),
            severity: sev,
            confidence: Confidence::High,
            why: format!("The kernel dropped connection attempts because an accept queue was full ({} {when}).", c.value.delta),
            details: Vec::new(),
            score: c.value.delta as f64,
            time_range: None,
            evidence: vec![c.evidence("TcpExt ListenOverflows / ListenDrops")],
        });
    }
    for l in &n.full_listeners {
        let capped = n.somaxconn.as_ref().filter(|s| s.value == l.value.backlog);
        let mut ev = vec![l.evidence(format!("listener {}", l.value.local))];
        if let Some(s) = capped {
            ev.push(s.evidence("net.core.somaxconn"));
        }
        out.push(Finding {
            rule_id: LISTEN.id,
            explains: Vec::new(),
            area: LISTEN.area,
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
    fn conntrack_fill() {
        let mut f = HostFacts::default();
        f.net.conntrack_max = Some(c(262_144));
        f.net.conntrack_count = Some(c(262_000));
        assert_eq!(found(check_conntrack(&f))[0].severity, Severity::Critical);
        f.net.conntrack_count = Some(c(209_716));
        assert_eq!(found(check_conntrack(&f))[0].severity, Severity::Warning);
        f.net.conntrack_count = Some(c(1000));
        assert!(is_clear(&check_conntrack(&f)));
        assert!(is_not_evaluated(&check_conntrack(&HostFacts::default())));
    }

    #[test]
    fn overflows_in_the_window_and_full_listeners() {
        let mut f = HostFacts::default();
        f.net.listen_overflows = Some(c(CounterChange {
            delta: 37,
            seconds: Some(60.0),
        }));
        assert_eq!(found(check_listen(&f))[0].severity, Severity::Warning);
        f.net.listen_overflows = Some(c(CounterChange {
            delta: 0,
            seconds: Some(60.0),
        }));
        assert!(is_clear(&check_listen(&f)));
        f.net.somaxconn = Some(c(128));
        f.net.full_listeners = vec![c(ListenQueue {
            local: "0.0.0.0:8080".into(),
            queued: 129,
            backlog: 128,
            process: Some("java".into()),
        })];
        assert!(found(check_listen(&f))[0].title.contains("= somaxconn"));
    }
}
