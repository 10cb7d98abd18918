//! `mem.alloc-failure`: kernel page allocations that failed.
//!
//! Reads the kernel log events `java: page allocation failure: order:4, mode:0x…`
//! (mm/page_alloc.c `warn_alloc`).

use crate::facts::klog::{EventKind, KernelEvent};
use crate::facts::{Fact, HostFacts};
use crate::rules::klog::{count_rule, RECENT, RECENT_S};
use crate::rules::{Area, Check, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold};

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "mem.alloc-failure",
    title: "Kernel page allocations failed",
    area: Area::Memory,
    severity: Severity::Warning,
    needs: &[Fact::KernelLog],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "`page allocation failure: order:N`",
            value: Limit::Any,
            unit: "messages",
            meaning: "any: the kernel could not find 2^N contiguous free pages for a request \
                      that may fail (atomic or `__GFP_NORETRY`) — a warning",
            sources: &[Source::Doc {
                document:
                    "Linux kernel documentation, Documentation/core-api/memory-allocation.rst",
                section: Some("Selecting memory allocator; GFP flags"),
                url: Some("https://docs.kernel.org/core-api/memory-allocation.html"),
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
    groups: &[SymptomGroup::Memory, SymptomGroup::NetworkPath],
    explains: &[],
    fires_when: "the kernel log reports a page allocation failure",
    checks: "The kernel log's `page allocation failure` warnings: which command asked, and the \
             order (size) of the request.",
    why: "A failed allocation drops what needed it: a received packet (drivers refill their \
          rings with higher-order pages), a new socket buffer, a file system's metadata. Orders \
          above 0 failing while memory is free point at fragmentation; order 0 at exhaustion.",
    false_positives: "Allocations marked `__GFP_NOWARN` do not print; those that print and \
                      fall back to smaller pages cost little when rare.",
    remedy: "Raise `vm.min_free_kbytes` so atomic allocations find reserve pages, look at \
             `/proc/buddyinfo` for fragmentation (compaction, transparent huge pages), and at \
             what consumes memory.",
    file: file!(),
};

fn keep(e: &KernelEvent) -> bool {
    matches!(e.kind, EventKind::AllocFailure { .. })
}

fn what(ev: &[&KernelEvent]) -> String {
    let mut by: Vec<String> = Vec::new();
    for e in ev {
        if let EventKind::AllocFailure { comm, order } = &e.kind {
            let s = match order {
                Some(o) => format!("{comm} order {o}"),
                None => comm.clone(),
            };
            if !by.contains(&s) {
                by.push(s);
            }
        }
    }
    format!(
        " ({})",
        by.iter().take(4).cloned().collect::<Vec<_>>().join(", ")
    )
}

/// Page allocation failures.
pub fn check(f: &HostFacts) -> Check {
    count_rule(
        &META,
        f,
        keep,
        |_| Severity::Warning,
        ("page allocation failure", "page allocation failures"),
        what,
        "The kernel could not allocate contiguous pages for a request that may fail.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::klog::testkit::{ev, facts};
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    #[test]
    fn fires_on_a_failure() {
        let f = facts(vec![ev(
            EventKind::AllocFailure {
                comm: "java".into(),
                order: Some(4),
            },
            Some(0.0),
            2,
            "java: page allocation failure: order:4, mode:0x104020",
        )]);
        assert_eq!(
            found(check(&f))[0].title,
            "1 page allocation failure (java order 4) during or within an hour before the collection window"
        );
    }

    #[test]
    fn clear_without_failures() {
        assert!(is_clear(&check(&facts(vec![]))));
    }

    #[test]
    fn not_evaluated_without_a_kernel_log() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
