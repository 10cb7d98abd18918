//! `jvm.heap-vs-memory`: JVM heaps larger than the memory available.
//!
//! Reads each JVM's maximum heap (`VM.flags`, else `-Xmx`), cgroup memory limit and `VmSwap`
//! (`/proc/PID/status`), and the host's `MemTotal` and swap.

use crate::evidence::Cited;
use crate::facts::jvm::Jvm;
use crate::facts::{Fact, HostFacts};
use crate::rules::common::heap_evidence;
use crate::rules::sources::ORACLE_TROUBLESHOOTING;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Sum of maximum heaps above this share of RAM (or a heap above this share of its cgroup
/// limit), %, leaves too little for the rest: warning.
pub const HEAP_RAM_WARN_PCT: f64 = 90.0;
/// ... above this share: critical.
const HEAP_RAM_CRIT_PCT: f64 = 100.0;
/// A JVM with more than this on swap (`VmSwap`), KiB: warning.
const VMSWAP_KIB: u64 = 0;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "jvm.heap-vs-memory",
    title: "JVM heaps larger than the memory available",
    area: Area::Jvm,
    severity: Severity::Warning,
    needs: &[Fact::Jvms],
    reads: &[Fact::Memory],
    thresholds: &[
        Threshold {
            name: "sum of heaps against `MemTotal`, or a heap against its cgroup limit",
            value: Limit::Num(HEAP_RAM_WARN_PCT),
            unit: "%",
            meaning: "above it: a warning",
            sources: &[
                Source::Case(1),
                Source::section(ORACLE_TROUBLESHOOTING, "native memory beyond the heap"),
            ],
        },
        Threshold {
            name: "sum of heaps against `MemTotal`, or a heap against its cgroup limit",
            value: Limit::Num(HEAP_RAM_CRIT_PCT),
            unit: "%",
            meaning: "above it: critical (case S1: G1 `to-space exhausted` under a cgroup \
                      `memory.max`)",
            sources: &[
                Source::Rca(
                    "heaps that sum to more than the memory there is cannot all be resident at \
                     once: the limit is arithmetic, not tuning",
                ),
                Source::Case(1),
            ],
        },
        Threshold {
            name: "`VmSwap` of a JVM",
            value: Limit::Count(VMSWAP_KIB),
            unit: "KiB",
            meaning: "above it: a warning (a major collection touches every page of the heap, so \
                      a swapped-out page stalls it)",
            sources: &[
                Source::Doc {
                    document: "Elasticsearch Reference",
                    section: Some("Disable swapping"),
                    url: Some(
                        "https://www.elastic.co/guide/en/elasticsearch/reference/current/setup-configuration-memory.html",
                    ),
                },
                Source::Case(1),
            ],
        },
    ],
    groups: &[SymptomGroup::Memory, SymptomGroup::Gc],
    explains: &[crate::rules::jvm::gc_overhead::META.id],
    fires_when: "heaps total > 90 % of RAM, a heap > 90 % of its cgroup limit, or a JVM with \
                 pages on swap",
    checks: "Sum of the maximum heaps (`MaxHeapSize` from `VM.flags`, else `-Xmx`) of the JVMs in \
             the bundle against `MemTotal`; each heap against its cgroup's memory limit \
             (`memory.max` / `memory.limit_in_bytes`, tightest over the ancestors); each JVM's \
             `VmSwap` from `/proc/PID/status`.",
    why: "A heap the host cannot hold in RAM ends on swap or in the OOM killer: the garbage \
          collector touches the whole heap, so a swapped heap turns pauses into seconds (case \
          S1). Heap is not all of a JVM's memory: metaspace, code cache, thread stacks and \
          direct buffers come on top.",
    false_positives: "Heaps that are never grown to their maximum (`-Xms` small, low load) do not \
                      use the RAM yet — they will under load.",
    remedy: "Lower `-Xmx` so all heaps plus native memory fit in RAM with room for the page \
             cache, or move JVMs to other hosts; keep swap off JVM hosts.",
    file: file!(),
};

/// Heaps against RAM and their cgroup limits, and JVMs with pages on swap.
pub fn check(f: &HostFacts) -> Check {
    let sized: Vec<&Jvm> = f
        .jvms
        .iter()
        .filter(|j| j.heap_max_bytes.is_some())
        .collect();
    // More of a JVM on swap than the host has swap is a corrupt value.
    let swap_total = f.memory.swap_total_kib.as_ref().map(|s| s.value);
    let swapped: Vec<&Jvm> = f
        .jvms
        .iter()
        .filter(|j| {
            j.swap_kib
                .as_ref()
                .is_some_and(|s| s.value > VMSWAP_KIB && swap_total.is_none_or(|t| s.value <= t))
        })
        .collect();
    if sized.is_empty() && swapped.is_empty() {
        return Check::NotEvaluated(
            "no JVM with a known maximum heap (`VM.flags` or `-Xmx`) or `VmSwap`".into(),
        );
    }
    let mut out = Vec::new();
    let mut checked = Vec::new();
    // The host: all heaps against RAM.
    if let Some(ram) = &f.memory.mem_total_kib {
        let sum_kib: u64 = sized
            .iter()
            .filter_map(|j| j.heap_max_bytes.as_ref())
            .fold(0, |a, h| a.saturating_add(h.value / 1024));
        let pct = sum_kib as f64 * 100.0 / ram.value.max(1) as f64;
        if !sized.is_empty() && pct > HEAP_RAM_WARN_PCT {
            out.push(host_heaps(f, &sized, ram, sum_kib, pct));
        } else if !sized.is_empty() {
            checked.push(format!(
                "{} heap(s) total {} MiB, {pct:.0} % of {} MiB RAM",
                sized.len(),
                sum_kib / 1024,
                ram.value / 1024
            ));
        }
    }
    // Each JVM: its heap against its cgroup's memory limit.
    for j in &sized {
        let (Some(h), Some(lim)) = (&j.heap_max_bytes, &j.cgroup_memory_limit_bytes) else {
            continue;
        };
        let pct = h.value as f64 * 100.0 / lim.value.max(1) as f64;
        if pct <= HEAP_RAM_WARN_PCT {
            checked.push(format!(
                "{}: heap {pct:.0} % of its cgroup limit",
                j.label()
            ));
            continue;
        }
        let mut ev = vec![lim.evidence("cgroup memory limit")];
        ev.extend(heap_evidence(j));
        if let Some(k) = &j.cgroup_oom_kills {
            if k.value > 0 {
                ev.push(k.evidence("OOM kills in the cgroup"));
            }
        }
        out.push(Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: format!(
                "{}: -Xmx {} MiB is {pct:.0} % of its cgroup memory limit ({} MiB)",
                j.label(),
                h.value >> 20,
                lim.value >> 20
            ),
            severity: if pct > HEAP_RAM_CRIT_PCT {
                Severity::Critical
            } else {
                Severity::Warning
            },
            confidence: Confidence::High,
            why: "The cgroup counts the whole process (heap, metaspace, thread stacks, direct \
                  buffers) and the page cache it uses: a heap this close to the limit gets the JVM \
                  OOM-killed, or reclaimed into swap, before the garbage collector feels pressure."
                .into(),
            details: j
                .cgroup_oom_kills
                .as_ref()
                .filter(|k| k.value > 0)
                .map(|k| vec![format!("{} OOM kill(s) recorded in the cgroup.", k.value)])
                .unwrap_or_default(),
            score: pct,
            time_range: None,
            evidence: ev,
        });
    }
    // Each JVM: pages on swap.
    for j in &swapped {
        let Some(s) = &j.swap_kib else { continue };
        let mut ev = vec![s.evidence("memory of the JVM on swap (VmSwap)")];
        if let Some(r) = &j.rss_kib {
            ev.push(r.evidence("resident memory (VmRSS)"));
        }
        out.push(Finding {
            rule_id: META.id,
            explains: META.explains.to_vec(),
            area: META.area,
            title: format!(
                "{}: {} MiB of the JVM is on swap",
                j.label(),
                s.value / 1024
            ),
            severity: Severity::Warning,
            confidence: Confidence::High,
            why: "A collection touches every live object: pages of the heap on swap must be read \
                  back during the pause, turning milliseconds into seconds (case S1)."
                .into(),
            details: Vec::new(),
            score: s.value as f64 / 1024.0,
            time_range: None,
            evidence: ev,
        });
    }
    if out.is_empty() {
        if checked.is_empty() {
            return Check::NotEvaluated(
                "neither `MemTotal` nor a cgroup memory limit to compare the heaps with".into(),
            );
        }
        Check::Clear(checked.join("; "))
    } else {
        Check::Found(out)
    }
}

/// The host-level finding: heaps summed against RAM.
fn host_heaps(f: &HostFacts, sized: &[&Jvm], ram: &Cited<u64>, sum_kib: u64, pct: f64) -> Finding {
    let mut ev = vec![ram.evidence("physical memory")];
    let mut details = Vec::new();
    for j in sized {
        if let Some(e) = heap_evidence(j) {
            ev.push(e);
        }
        if let Some(h) = &j.heap_max_bytes {
            details.push(format!("{}: -Xmx {} MiB", j.label(), h.value >> 20));
        }
    }
    if let Some(s) = f.memory.swap_used_kib.as_ref().filter(|s| s.value > 0) {
        ev.push(s.evidence("swap in use"));
        details.push(format!("{} MiB of swap already in use.", s.value / 1024));
    }
    let unknown = f.jvms.len() - sized.len();
    if unknown > 0 {
        details.push(format!(
            "{unknown} more JVM(s) with an unknown maximum heap."
        ));
    }
    Finding {
        rule_id: META.id,
        explains: Vec::new(),
        area: META.area,
        title: format!(
            "JVM heaps total {} MiB, {pct:.0} % of {} MiB RAM",
            sum_kib / 1024,
            ram.value / 1024
        ),
        severity: if pct > HEAP_RAM_CRIT_PCT {
            Severity::Critical
        } else {
            Severity::Warning
        },
        confidence: Confidence::High,
        why: format!(
            "The maximum heaps of {} JVM(s) add up to {pct:.0} % of physical memory, before \
             metaspace, thread stacks, direct buffers and the OS.",
            sized.len()
        ),
        details,
        score: pct,
        time_range: None,
        evidence: ev,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    #[test]
    fn fires_on_a_heap_against_its_cgroup_limit_and_on_swapped_jvms() {
        let mut f = HostFacts::default();
        f.jvms.push(Jvm {
            pid: Some(3),
            heap_max_bytes: Some(Cited::new(4 << 30, "jvm/3/vm-flags.txt", 2)),
            cgroup_memory_limit_bytes: Some(Cited::new(4 << 30, "jvm/3/cgroup.tsv", 9)),
            ..Default::default()
        });
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Warning, "{}", v[0].title);
        assert_eq!(v[0].evidence[0].artifact, "jvm/3/cgroup.tsv");
        f.jvms[0].cgroup_memory_limit_bytes = Some(Cited::new(3 << 30, "jvm/3/cgroup.tsv", 9));
        assert_eq!(found(check(&f))[0].severity, Severity::Critical);
        f.jvms[0].cgroup_memory_limit_bytes = Some(Cited::new(16 << 30, "jvm/3/cgroup.tsv", 9));
        assert!(is_clear(&check(&f)));
        f.jvms[0].swap_kib = Some(Cited::new(204_800, "jvm/3/status", 30));
        let v = found(check(&f));
        assert!(
            v[0].title.contains("200 MiB of the JVM is on swap"),
            "{}",
            v[0].title
        );
        assert_eq!(v[0].explains, vec![crate::rules::jvm::gc_overhead::META.id]);
    }

    #[test]
    fn fires_on_heaps_above_ram() {
        let mut f = HostFacts::default();
        f.memory.mem_total_kib = Some(c(8 << 20));
        for pid in [1, 2] {
            f.jvms.push(Jvm {
                pid: Some(pid),
                heap_max_bytes: Some(Cited::new(5 << 30, "jvm/x/vm-flags.txt", 4)),
                ..Default::default()
            });
        }
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Critical);
        f.jvms.pop();
        assert!(is_clear(&check(&f)));
        f.jvms[0].heap_max_bytes = Some(Cited::new(15 << 29, "jvm/x/vm-flags.txt", 4));
        assert_eq!(found(check(&f))[0].severity, Severity::Warning);
    }

    #[test]
    fn clear_within_ram_and_not_evaluated_without_a_heap_size() {
        let mut f = HostFacts::default();
        f.memory.mem_total_kib = Some(c(8 << 20));
        f.jvms.push(Jvm {
            pid: Some(1),
            heap_max_bytes: Some(Cited::new(2 << 30, "jvm/x/vm-flags.txt", 4)),
            ..Default::default()
        });
        assert!(is_clear(&check(&f)));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
