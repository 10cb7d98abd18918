//! `jvm.heap-vs-cgroup`: a JVM whose heap fits its cgroup memory limit but whose heap plus
//! native memory does not.
//!
//! Reads each JVM's maximum heap (`VM.flags` `MaxHeapSize`, else `-Xmx`), its cgroup memory
//! limit (v2 `memory.max`, v1 `memory.limit_in_bytes`, tightest over the ancestors), the
//! `VM.flags` sizes of native areas (`ReservedCodeCacheSize`, `ThreadStackSize`,
//! `MaxDirectMemorySize`, `MaxMetaspaceSize`) or `-Xss`, the thread count of its last thread
//! dump and the committed metaspace of its last `jcmd GC.heap_info`. A heap alone above 90 % of
//! the limit is `jvm.heap-vs-memory`'s finding, not this one's.

use crate::facts::jvm::{parse_size, Jvm};
use crate::facts::{Fact, HostFacts};
use crate::rules::common::heap_evidence;
use crate::rules::jvm::heap_vs_memory::HEAP_RAM_WARN_PCT;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Heap plus native areas above this share of the cgroup memory limit, %: warning.
pub const FOOTPRINT_LIMIT_PCT: f64 = 100.0;
/// `ReservedCodeCacheSize` when `VM.flags` does not say, bytes (240 MiB with tiered
/// compilation, the default).
pub const DEFAULT_CODE_CACHE_BYTES: u64 = 240 << 20;
/// Thread stack size when neither `ThreadStackSize` nor `-Xss` says, bytes (1024 KiB on Linux
/// x64 and aarch64).
pub const DEFAULT_STACK_BYTES: u64 = 1 << 20;

const JAVA_MAN: &str = "The java Command (JDK 17)";
const JAVA_MAN_URL: &str = "https://docs.oracle.com/en/java/javase/17/docs/specs/man/java.html";

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "jvm.heap-vs-cgroup",
    title: "JVM heap plus native memory above its cgroup limit",
    area: Area::Jvm,
    severity: Severity::Warning,
    needs: &[Fact::Jvms],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "maximum heap + code cache + threads × stack size + committed metaspace + \
                   `MaxDirectMemorySize`, against the cgroup memory limit",
            value: Limit::Num(FOOTPRINT_LIMIT_PCT),
            unit: "%",
            meaning: "above it (with the heap alone at most 90 %): a warning",
            sources: &[
                Source::Doc {
                    document: JAVA_MAN,
                    section: Some(
                        "-XX:MaxRAMPercentage (default 25 %: the rest of a container's memory is \
                         left to what is not heap), -XX:+UseContainerSupport",
                    ),
                    url: Some(JAVA_MAN_URL),
                },
                Source::Doc {
                    document: "Java Virtual Machine Guide (JDK 17)",
                    section: Some("Native Memory Tracking: the JVM's memory beyond the heap"),
                    url: Some(
                        "https://docs.oracle.com/en/java/javase/17/vm/native-memory-tracking.html",
                    ),
                },
                Source::Rca(
                    "the cgroup counts every page the process touches; sizes that add up to \
                     more than the limit cannot all be resident: arithmetic, not tuning",
                ),
            ],
        },
        Threshold {
            name: "code cache when `VM.flags` does not print `ReservedCodeCacheSize`",
            value: Limit::Count(DEFAULT_CODE_CACHE_BYTES >> 20),
            unit: "MiB",
            meaning: "assumed (the default with tiered compilation)",
            sources: &[Source::Doc {
                document: JAVA_MAN,
                section: Some("-XX:ReservedCodeCacheSize"),
                url: Some(JAVA_MAN_URL),
            }],
        },
        Threshold {
            name: "thread stack size when neither `ThreadStackSize` nor `-Xss` is given",
            value: Limit::Count(DEFAULT_STACK_BYTES >> 10),
            unit: "KiB",
            meaning: "assumed (the default on Linux x64 and aarch64)",
            sources: &[Source::Doc {
                document: JAVA_MAN,
                section: Some("-Xss size"),
                url: Some(JAVA_MAN_URL),
            }],
        },
    ],
    groups: &[SymptomGroup::Memory],
    explains: &[],
    fires_when: "heap ≤ 90 % of the cgroup memory limit, but heap + code cache + thread stacks \
                 + metaspace + direct memory > the limit",
    checks: "Per JVM with a cgroup memory limit: the maximum heap plus the native areas that \
             grow to a known size — the code cache (`ReservedCodeCacheSize`, default 240 MiB), \
             thread stacks (threads in the last dump × `ThreadStackSize`/`-Xss`, default 1 MiB), \
             metaspace (committed, from `GC.heap_info`, else `MaxMetaspaceSize` when set) and \
             direct buffers (`MaxDirectMemorySize` when set) — against the limit. Plenty of free \
             host memory changes nothing: the limit is the cgroup's.",
    why: "The kernel OOM-kills the JVM when its cgroup reaches the limit, whatever the heap's \
          occupancy: the garbage collector never sees that pressure. The JVM's own default \
          (`MaxRAMPercentage` 25 %) leaves three quarters of a container to what is not heap; \
          a heap sized close to the limit leaves too little.",
    false_positives: "Stack and code cache sizes are maxima: a thread touches only the stack it \
                      uses, and the code cache commits as it fills. Native memory this estimate \
                      cannot see (GC structures, malloc of native libraries, mapped files) comes \
                      on top, so a JVM under the limit here can still exceed it.",
    remedy: "Lower `-Xmx` (or use `-XX:MaxRAMPercentage`) so heap plus native fits with margin, \
             or raise the limit; measure native memory with `-XX:NativeMemoryTracking=summary` \
             and `jcmd PID VM.native_memory summary`.",
    file: file!(),
};

/// A `VM.flags` size in bytes, when printed.
fn flag(j: &Jvm, name: &str) -> Option<u64> {
    j.flags.get(name).and_then(|v| v.parse().ok())
}

/// The parts of the footprint, bytes, with how each was found.
struct Footprint {
    parts: Vec<(String, u64)>,
    assumed: Vec<&'static str>,
}

fn footprint(j: &Jvm, limit: u64) -> Footprint {
    let mut parts = Vec::new();
    let mut assumed = Vec::new();
    match flag(j, "ReservedCodeCacheSize") {
        Some(v) => parts.push(("code cache (`ReservedCodeCacheSize`)".to_string(), v)),
        None => {
            parts.push(("code cache (default)".to_string(), DEFAULT_CODE_CACHE_BYTES));
            assumed.push("code cache size");
        }
    }
    let stack = flag(j, "ThreadStackSize")
        .map(|k| k.saturating_mul(1024))
        .or_else(|| {
            j.args
                .iter()
                .rev()
                .find_map(|a| a.strip_prefix("-Xss"))
                .and_then(parse_size)
        });
    let stack = stack.unwrap_or_else(|| {
        assumed.push("stack size");
        DEFAULT_STACK_BYTES
    });
    match j.threads {
        Some(n) => parts.push((
            format!("{n} threads × {} KiB stack", stack >> 10),
            (n as u64).saturating_mul(stack),
        )),
        None => assumed.push("thread count (no thread dump: stacks not counted)"),
    }
    let meta = j
        .heap_infos
        .last()
        .and_then(|h| h.value.metaspace_committed_kib)
        .map(|k| ("metaspace (committed)".to_string(), k.saturating_mul(1024)))
        .or_else(|| {
            flag(j, "MaxMetaspaceSize")
                .filter(|&v| v < limit)
                .map(|v| ("metaspace (`MaxMetaspaceSize`)".to_string(), v))
        });
    match meta {
        Some(m) => parts.push(m),
        None => assumed.push("metaspace (no `GC.heap_info`, no `MaxMetaspaceSize`: not counted)"),
    }
    if let Some(d) = flag(j, "MaxDirectMemorySize").filter(|&d| d > 0) {
        parts.push(("direct buffers (`MaxDirectMemorySize`)".to_string(), d));
    }
    Footprint { parts, assumed }
}

/// Each JVM with a heap size and a cgroup memory limit.
pub fn check(f: &HostFacts) -> Check {
    let limited: Vec<&Jvm> = f
        .jvms
        .iter()
        .filter(|j| j.heap_max_bytes.is_some() && j.cgroup_memory_limit_bytes.is_some())
        .collect();
    if limited.is_empty() {
        return Check::NotEvaluated(
            "no JVM with both a known maximum heap and a cgroup memory limit".into(),
        );
    }
    let mut out = Vec::new();
    let mut checked = Vec::new();
    for j in limited {
        let (Some(h), Some(lim)) = (&j.heap_max_bytes, &j.cgroup_memory_limit_bytes) else {
            continue;
        };
        let heap_pct = h.value as f64 * 100.0 / lim.value.max(1) as f64;
        if heap_pct > HEAP_RAM_WARN_PCT {
            checked.push(format!(
                "{}: heap alone {heap_pct:.0} % of the limit (see jvm.heap-vs-memory)",
                j.label()
            ));
            continue;
        }
        let fp = footprint(j, lim.value);
        let native: u64 = fp.parts.iter().fold(0, |a, (_, v)| a.saturating_add(*v));
        let total = h.value.saturating_add(native);
        let pct = total as f64 * 100.0 / lim.value.max(1) as f64;
        if pct <= FOOTPRINT_LIMIT_PCT {
            checked.push(format!(
                "{}: heap + native {} MiB, {pct:.0} % of the {} MiB limit",
                j.label(),
                total >> 20,
                lim.value >> 20
            ));
            continue;
        }
        let mut ev = vec![lim.evidence("cgroup memory limit")];
        ev.extend(heap_evidence(j));
        if let Some(fs) = &j.flags_source {
            ev.push(fs.evidence("VM.flags: native area sizes"));
        }
        if let Some(hi) = j.heap_infos.last() {
            if let Some(l) = hi.value.metaspace_line {
                ev.push(crate::evidence::Evidence::new(
                    &hi.artifact,
                    vec![l],
                    "committed metaspace",
                ));
            }
        }
        let mut details: Vec<String> = vec![format!("Maximum heap: {} MiB.", h.value >> 20)];
        details.extend(
            fp.parts
                .iter()
                .map(|(n, v)| format!("{n}: {} MiB.", v >> 20)),
        );
        if !fp.assumed.is_empty() {
            details.push(format!("Defaults or gaps: {}.", fp.assumed.join("; ")));
        }
        if let Some(r) = &j.rss_kib {
            details.push(format!(
                "Resident now (VmRSS): {} MiB, {:.0} % of the limit.",
                r.value >> 10,
                (r.value as f64 * 1024.0 * 100.0) / lim.value.max(1) as f64
            ));
            ev.push(r.evidence("resident memory (VmRSS)"));
        }
        if let Some(k) = j.cgroup_oom_kills.as_ref().filter(|k| k.value > 0) {
            details.push(format!("{} OOM kill(s) recorded in the cgroup.", k.value));
            ev.push(k.evidence("OOM kills in the cgroup"));
        }
        out.push(Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: format!(
                "{}: heap {} MiB + native up to {} MiB is {pct:.0} % of its {} MiB cgroup limit",
                j.label(),
                h.value >> 20,
                native >> 20,
                lim.value >> 20
            ),
            severity: Severity::Warning,
            confidence: if fp.assumed.is_empty() {
                Confidence::High
            } else {
                Confidence::Medium
            },
            why: format!(
                "The heap alone is {heap_pct:.0} % of the limit, but the cgroup also counts the \
                 code cache, thread stacks, metaspace and direct buffers: at their sizes the \
                 process can reach {pct:.0} % of the limit and be OOM-killed with a heap that \
                 is not full."
            ),
            details,
            score: pct,
            time_range: None,
            evidence: ev,
        });
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
    use crate::facts::jvm::HeapSummary;
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    fn jvm(heap_mib: u64, limit_mib: u64, threads: usize) -> HostFacts {
        let mut j = Jvm {
            pid: Some(3),
            heap_max_bytes: Some(Cited::new(heap_mib << 20, "jvm/3/vm-flags.txt", 2)),
            cgroup_memory_limit_bytes: Some(Cited::new(limit_mib << 20, "jvm/3/cgroup.tsv", 9)),
            threads: Some(threads),
            flags_source: Some(Cited::lines((), "jvm/3/vm-flags.txt", vec![2])),
            heap_infos: vec![Cited::lines(
                HeapSummary {
                    metaspace_committed_kib: Some(100 << 10),
                    metaspace_line: Some(4),
                    ..Default::default()
                },
                "jvm/3/gc-heap-info.2.txt",
                vec![2, 4],
            )],
            ..Default::default()
        };
        j.flags
            .insert("ReservedCodeCacheSize".into(), "251658240".into());
        HostFacts {
            jvms: vec![j],
            ..Default::default()
        }
    }

    #[test]
    fn fires_when_heap_fits_but_heap_plus_native_does_not() {
        // 1800 MiB heap (88 %) + 240 code cache + 200 × 1 MiB stacks + 100 metaspace > 2048.
        let v = found(check(&jvm(1800, 2048, 200)));
        assert_eq!(v[0].severity, Severity::Warning);
        assert!(
            v[0].title
                .contains("heap 1800 MiB + native up to 540 MiB is 114 % of its 2048 MiB"),
            "{}",
            v[0].title
        );
        // The stack size was a default: medium confidence, said in the details.
        assert_eq!(v[0].confidence, Confidence::Medium);
        assert!(v[0].details.iter().any(|d| d.contains("stack size")));
        assert!(v[0]
            .evidence
            .iter()
            .any(|e| e.artifact == "jvm/3/gc-heap-info.2.txt" && e.lines == vec![4]));
    }

    #[test]
    fn clear_with_room_and_for_a_heap_that_is_heap_vs_memory_s_finding() {
        // 25 % of the limit (the JVM's default): plenty of room.
        assert!(is_clear(&check(&jvm(512, 2048, 200))));
        // The heap alone above 90 %: reported by jvm.heap-vs-memory, not twice.
        assert!(is_clear(&check(&jvm(1900, 2048, 200))));
    }

    #[test]
    fn not_evaluated_without_a_cgroup_limit() {
        let mut f = jvm(1800, 2048, 200);
        f.jvms[0].cgroup_memory_limit_bytes = None;
        assert!(is_not_evaluated(&check(&f)));
    }
}
