//! `net.tcp-oom`: TCP ran out of its memory budget (`tcp_mem`).
//!
//! Reads the kernel log events `TCP: out of memory -- consider tuning tcp_mem`
//! (net/ipv4/tcp_timer.c `tcp_out_of_resources`).

use crate::facts::klog::{EventKind, KernelEvent};
use crate::facts::{Fact, HostFacts};
use crate::rules::klog::{count_rule, RECENT, RECENT_S};
use crate::rules::{Area, Check, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "net.tcp-oom",
    title: "TCP out of memory",
    area: Area::Network,
    severity: Severity::Warning,
    needs: &[Fact::KernelLog],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "`TCP: out of memory -- consider tuning tcp_mem`",
            value: Limit::Any,
            unit: "messages",
            meaning: "any: TCP's pages passed `net.ipv4.tcp_mem`'s pressure limit and the kernel \
                      killed sockets (orphans first) — a warning",
            sources: &[Source::Doc {
                document: "Linux kernel documentation, Documentation/networking/ip-sysctl.rst",
                section: Some("tcp_mem"),
                url: Some("https://docs.kernel.org/networking/ip-sysctl.html"),
            }],
        },
        Threshold {
            name: "time before the window",
            value: Limit::Num(RECENT_S),
            unit: "s",
            meaning: "within it (or during the window): a warning; older only: information",
            sources: &[RECENT],
        },
    ],
    groups: &[SymptomGroup::NetworkPath, SymptomGroup::Memory],
    explains: &[],
    fires_when: "the kernel log reports `TCP: out of memory`",
    checks: "The kernel log's `TCP: out of memory -- consider tuning tcp_mem` messages.",
    why: "Above `tcp_mem`'s limit TCP stops growing buffers and resets connections it cannot \
          serve: clients see resets and stalls; many orphaned sockets or large unread receive \
          queues (slow consumers) are the usual cause.",
    false_positives: "None known: the message prints only when sockets are dropped.",
    remedy: "Compare `sockstat`'s `TCP: mem` with `net.ipv4.tcp_mem`; find the sockets with full \
             queues (`ss -tm`); raise `tcp_mem` only with the memory to back it.",
    file: file!(),
};

fn keep(e: &KernelEvent) -> bool {
    matches!(e.kind, EventKind::TcpOom)
}

/// `TCP: out of memory` messages.
pub fn check(f: &HostFacts) -> Check {
    count_rule(
        &META,
        f,
        keep,
        |_| Severity::Warning,
        ("TCP out-of-memory message", "TCP out-of-memory messages"),
        |_| String::new(),
        "TCP's memory passed `tcp_mem` and the kernel dropped sockets.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::klog::testkit::{ev, facts};
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    #[test]
    fn fires_on_the_message() {
        let f = facts(vec![ev(
            EventKind::TcpOom,
            Some(0.0),
            2,
            "TCP: out of memory -- consider tuning tcp_mem",
        )]);
        assert_eq!(found(check(&f))[0].severity, Severity::Warning);
    }

    #[test]
    fn clear_without_messages() {
        assert!(is_clear(&check(&facts(vec![]))));
    }

    #[test]
    fn not_evaluated_without_a_kernel_log() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
