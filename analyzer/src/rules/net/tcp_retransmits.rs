//! `net.tcp-retransmits`: TCP retransmits a large share of the segments it sends.
//!
//! Reads `Tcp: RetransSegs` against `OutSegs` (with `TcpExt` `TCPTimeouts`,
//! `TCPLostRetransmit`, `TCPSynRetrans`) over the window from two `netstat -s`, `nstat` or
//! `/proc/net/snmp` snapshots (since boot from one), and the connections with the most
//! retransmissions from `ss -i`.

use crate::facts::{Fact, HostFacts};
use crate::rules::common::{counter_words, finding};
use crate::rules::{
    Area, Check, Confidence, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Retransmitted share of the segments sent, for a warning.
const RETRANS_WARN: f64 = 0.03;
/// Fewer segments sent than this and the share says too little.
const MIN_OUT_SEGS: u64 = 1000;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "net.tcp-retransmits",
    title: "TCP retransmits many segments",
    area: Area::Network,
    severity: Severity::Warning,
    needs: &[Fact::Net],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "RetransSegs / OutSegs",
            value: Limit::Num(RETRANS_WARN),
            unit: "",
            meaning: "at or above during the window: a warning; since boot only (one snapshot): \
                      information",
            sources: &[
                Source::Doc {
                    document: "IBM Tivoli Monitoring Linux OS Agent, situation \
                               Linux_TCP_Retrans_Pct (\"Percent Segments Retransmitted >= 3\")",
                    section: Some("Percent Segments Retransmitted: segments retransmitted as a \
                                   percentage of the segments sent during the interval"),
                    url: Some("https://public.dhe.ibm.com/software/tivoli_support/misc/PandA/tools_agent/tools/appsupt/LCD7-4912-03.tar.gz"),
                },
                Source::Doc {
                    document: "Brendan Gregg, The USE Method: Linux Performance Checklist",
                    section: Some("Network interfaces, errors: TCP retransmits (netstat -s)"),
                    url: Some("https://www.brendangregg.com/USEmethod/use-linux.html"),
                },
            ],
        },
        Threshold {
            name: "OutSegs",
            value: Limit::Count(MIN_OUT_SEGS),
            unit: "segments",
            meaning: "fewer sent: not judged (a share of a handful of segments is noise)",
            sources: &[Source::Rca(
                "below a thousand segments one lost burst moves the share by whole percents",
            )],
        },
    ],
    groups: &[SymptomGroup::NetworkPath],
    explains: &[],
    fires_when: "`RetransSegs` ≥ 3 % of `OutSegs` during the window",
    checks: "`Tcp: RetransSegs` against `Tcp: OutSegs` between the `netstat -s` (else `nstat`, \
             else `/proc/net/snmp`) snapshots of the window, with `TCPTimeouts`, \
             `TCPLostRetransmit` and `TCPSynRetrans`; the connections with the most \
             retransmissions (`ss -ti` `retrans:a/b`, with their `rto` and `cwnd`).",
    why: "Every retransmission is a segment lost or delayed on the path: the sender waits for \
          a duplicate ACK or its retransmission timer (200 ms at least on Linux, doubling on \
          each timeout) and shrinks its congestion window. Throughput drops and request \
          latency grows in steps of the RTO while the hosts look idle.",
    false_positives: "Counters are host-wide: one bad peer (a remote site, a WAN link) can \
                      carry the share while local traffic is clean — the peers from `ss -ti` \
                      say which. Since-boot shares include every past incident.",
    remedy: "Find the peers with the most retransmissions (`ss -ti`), then the path: interface \
             errors and drops on both ends (`ip -s link`, `ethtool -S`), a saturated link or \
             switch buffer, MTU mismatch, a firewall or conntrack table dropping packets.",
    file: file!(),
};

/// Retransmitted share of TCP segments.
pub fn check(f: &HostFacts) -> Check {
    let Some(r) = &f.net.tcp_retrans else {
        return Check::NotEvaluated(
            "no `Tcp: OutSegs`/`RetransSegs` counters (`netstat -s`, `nstat`, `/proc/net/snmp`) \
             in the bundle"
                .into(),
        );
    };
    let x = &r.value;
    if x.out_segs < MIN_OUT_SEGS {
        return Check::NotEvaluated(format!(
            "{} segments sent: fewer than {MIN_OUT_SEGS}, too few to judge a share",
            x.out_segs
        ));
    }
    let Some(share) = x.ratio() else {
        return Check::NotEvaluated("no segments sent".into());
    };
    let w = counter_words(&x.change(), f.platform.uptime_s.as_ref(), Confidence::High);
    if share < RETRANS_WARN {
        return Check::Clear(format!(
            "{} of {} segments retransmitted ({:.2} %) {}",
            x.retrans_segs,
            x.out_segs,
            share * 100.0,
            w.when
        ));
    }
    let mut evidence = vec![r.evidence("Tcp OutSegs / RetransSegs")];
    if let Some(first) = &x.first {
        evidence.push(first.evidence("the window's first snapshot"));
    }
    evidence.extend(w.uptime);
    let mut why = format!(
        "{:.2} % of the TCP segments sent were retransmissions ({} of {}) {}",
        share * 100.0,
        x.retrans_segs,
        x.out_segs,
        w.when
    );
    let extra: Vec<String> = [
        (x.timeouts, "retransmission timeouts (TCPTimeouts)"),
        (
            x.lost_retransmit,
            "retransmissions lost again (TCPLostRetransmit)",
        ),
        (x.syn_retrans, "SYN retransmissions (TCPSynRetrans)"),
    ]
    .iter()
    .filter_map(|(v, what)| v.filter(|&n| n > 0).map(|n| format!("{n} {what}")))
    .collect();
    if !extra.is_empty() {
        why.push_str(&format!("; {}", extra.join(", ")));
    }
    why.push('.');
    let peers = &f.net.retrans_peers;
    if !peers.is_empty() {
        let names: Vec<String> = peers
            .iter()
            .map(|p| {
                let v = &p.value;
                let mut s = format!(
                    "{} → {}: {} retransmitted",
                    v.local, v.peer, v.retrans_total
                );
                if let Some(rto) = v.rto_ms {
                    s.push_str(&format!(", rto {rto} ms"));
                }
                if let Some(cwnd) = v.cwnd {
                    s.push_str(&format!(", cwnd {cwnd}"));
                }
                s
            })
            .collect();
        why.push_str(&format!(
            " Connections with the most retransmissions (`ss -ti`): {}.",
            names.join("; ")
        ));
        evidence.extend(
            peers
                .iter()
                .map(|p| p.evidence(format!("{} → {}", p.value.local, p.value.peer))),
        );
    }
    Check::Found(vec![finding(
        &META,
        w.severity,
        w.confidence,
        format!(
            "{:.1} % of TCP segments retransmitted {}",
            share * 100.0,
            w.when
        ),
        why,
        evidence,
        share * 100.0,
    )])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::tcp::{RetransPeer, TcpRetrans};
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    fn retrans(out: u64, re: u64, seconds: Option<f64>) -> TcpRetrans {
        TcpRetrans {
            seconds,
            between: seconds.map(|_| "net-tools `netstat -s`"),
            out_segs: out,
            retrans_segs: re,
            timeouts: Some(170),
            lost_retransmit: Some(427),
            syn_retrans: Some(0),
            first: None,
        }
    }

    #[test]
    fn fires_over_the_window_naming_the_peers() {
        let mut f = HostFacts::default();
        f.net.tcp_retrans = Some(c(retrans(196_476, 7570, Some(13.0))));
        f.net.retrans_peers = vec![c(RetransPeer {
            local: "127.0.0.1:56398".into(),
            peer: "127.0.0.1:5599".into(),
            retrans_total: 1488,
            data_segs_out: Some(29_306),
            rto_ms: Some(204.0),
            cwnd: Some(1),
            process: None,
        })];
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Warning);
        assert_eq!(
            v[0].title,
            "3.9 % of TCP segments retransmitted during the 13 s window"
        );
        assert!(
            v[0].why.contains("170 retransmission timeouts"),
            "{}",
            v[0].why
        );
        assert!(v[0]
            .why
            .contains("127.0.0.1:56398 → 127.0.0.1:5599: 1488 retransmitted, rto 204 ms, cwnd 1"));
        assert!(!v[0].why.contains("SYN"));
    }

    #[test]
    fn fires_as_information_since_boot() {
        let mut f = HostFacts::default();
        f.net.tcp_retrans = Some(c(retrans(100_000, 5000, None)));
        let v = found(check(&f));
        assert_eq!(
            (v[0].severity, v[0].confidence),
            (Severity::Info, Confidence::Low)
        );
    }

    #[test]
    fn clear_below_the_share() {
        let mut f = HostFacts::default();
        f.net.tcp_retrans = Some(c(retrans(683_716, 226, Some(13.0))));
        assert!(is_clear(&check(&f)));
    }

    #[test]
    fn not_evaluated_without_counters_or_traffic() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
        let mut f = HostFacts::default();
        f.net.tcp_retrans = Some(c(retrans(200, 50, Some(10.0))));
        assert!(is_not_evaluated(&check(&f)));
    }
}
