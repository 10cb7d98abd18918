//! JVMs compared pairwise: runtime (vendor, version, build), collector, heap, `-XX` flags,
//! system properties, thread pools and GC behaviour.
//!
//! In: both sides' [`Jvm`]s, paired by role (ZooKeeper, Kafka broker …), then main class, then —
//! when one JVM is left on each side — with each other. Out: one difference per differing
//! aspect; JVMs left unpaired are differences of their own.

use super::score::{self, JVM_COLLECTOR, JVM_FLAG, JVM_GC, JVM_HEAP, JVM_ONE_SIDE, JVM_PROPERTY};
use super::score::{JVM_RUNTIME, JVM_THREAD_POOL};
use super::{numeric, Difference, Out, Pair, Which};
use crate::facts::Jvm;
use crate::rules::SymptomGroup;
use std::collections::{BTreeMap, BTreeSet};

/// `-XX` flags known to change GC, JIT, NUMA or memory behaviour: weight 25 instead of 15.
pub const KNOWN_FLAGS: &[&str] = &[
    "UseNUMA",
    "UseLargePages",
    "UseTransparentHugePages",
    "AlwaysPreTouch",
    "ParallelGCThreads",
    "ConcGCThreads",
    "MaxGCPauseMillis",
    "G1HeapRegionSize",
    "InitiatingHeapOccupancyPercent",
    "MaxDirectMemorySize",
    "MaxMetaspaceSize",
    "ReservedCodeCacheSize",
    "TieredCompilation",
    "CICompilerCount",
    "UseBiasedLocking",
    "UseCompressedOops",
    "UseContainerSupport",
    "ActiveProcessorCount",
    "MaxNewSize",
    "NewSize",
    "NewRatio",
    "SurvivorRatio",
    "MaxTenuringThreshold",
    "UseAdaptiveSizePolicy",
    "UseStringDeduplication",
    "ThreadStackSize",
];

/// Weight of a known flag.
const KNOWN_FLAG_WEIGHT: f64 = 25.0;

/// Flags compared elsewhere: heap sizes (under heap) and the collector choice.
const FLAGS_COMPARED_ELSEWHERE: &[&str] = &[
    "MaxHeapSize",
    "InitialHeapSize",
    "MinHeapSize",
    "UseG1GC",
    "UseParallelGC",
    "UseParallelOldGC",
    "UseConcMarkSweepGC",
    "UseSerialGC",
    "UseZGC",
    "UseShenandoahGC",
];

/// System properties not compared: the runtime's own identity (folded into the JDK difference),
/// paths, user names and the command line, which differ between any two hosts.
const PROPERTIES_NOT_COMPARED: &[&str] = &[
    "java.version",
    "java.version.date",
    "java.vendor",
    "java.vm.",
    "java.runtime.",
    "java.specification.",
    "java.class.version",
    "java.home",
    "java.library.path",
    "java.class.path",
    "java.io.tmpdir",
    "java.ext.dirs",
    "java.endorsed.dirs",
    "jdk.debug",
    "jdk.module.",
    "sun.boot.",
    "sun.java.command",
    "sun.java.launcher",
    "sun.management.compiler",
    "sun.cpu.isalist",
    "sun.jnu.encoding",
    "os.version",
    "user.",
    "jboss.home.dir",
    "catalina.base",
    "catalina.home",
];

fn key_of(j: &Jvm) -> String {
    j.role
        .clone()
        .or_else(|| j.main.clone())
        .unwrap_or_else(|| "JVM".into())
}

/// Pairs JVMs: same key first, then the single leftovers.
fn pairs<'a>(b: &'a [Jvm], s: &'a [Jvm]) -> (Vec<(&'a Jvm, &'a Jvm)>, Vec<&'a Jvm>, Vec<&'a Jvm>) {
    let mut left_b: Vec<&Jvm> = b.iter().collect();
    let mut left_s: Vec<&Jvm> = s.iter().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < left_b.len() {
        let k = key_of(left_b[i]);
        if let Some(pos) = left_s.iter().position(|x| key_of(x) == k) {
            out.push((left_b.remove(i), left_s.remove(pos)));
        } else {
            i += 1;
        }
    }
    if left_b.len() == 1 && left_s.len() == 1 {
        out.push((left_b.remove(0), left_s.remove(0)));
    }
    (out, left_b, left_s)
}

fn runtime(j: &Jvm) -> String {
    let mut s = format!(
        "{} {}",
        j.vendor.as_ref().map(|v| v.value.as_str()).unwrap_or("?"),
        j.version.as_ref().map(|v| v.value.as_str()).unwrap_or("?")
    );
    if let Some(b) = &j.build {
        s.push_str(&format!(" (build {b})"));
    }
    s
}

fn label(b: &Jvm, s: &Jvm) -> String {
    let k = key_of(b);
    if k == key_of(s) {
        format!("JVM {}", crate::facts::jvm::short_main(&k))
    } else {
        "JVM".to_string()
    }
}

/// Compares the JVMs of both sides.
pub fn compare(p: &Pair, out: &mut Out) {
    let (bj, sj) = (&p.baseline.facts.jvms, &p.suspect.facts.jvms);
    let (matched, only_b, only_s) = pairs(bj, sj);
    for (side, list) in [(Which::Baseline, only_b), (Which::Suspect, only_s)] {
        for j in list {
            let shown = format!("{} · {}", j.label(), runtime(j));
            let (bv, sv) = match side {
                Which::Baseline => (Some(shown), None),
                Which::Suspect => (None, Some(shown)),
            };
            let mut d = Difference::new(&JVM_ONE_SIDE, format!("JVM {}", key_of(j)))
                .values(bv, sv)
                .reason(format!(
                    "JVM evidence on the {} only: it does not run on the other host, or was not examined there",
                    side.label()
                ))
                .cite(side, j.vendor.as_ref());
            if let Some(a) = &j.args_source {
                d = d.cite_lines(side, &a.artifact, &a.lines);
            }
            out.push(d);
        }
    }
    for (b, s) in matched {
        compare_pair(p, out, b, s);
    }
}

fn compare_pair(p: &Pair, out: &mut Out, b: &Jvm, s: &Jvm) {
    let who = label(b, s);
    // The runtime and collector shape GC behaviour; other JVM symptoms (oversized pools) are
    // not theirs to explain.
    let jvm_symptom = p.symptoms.any(SymptomGroup::Gc);
    // Runtime: vendor, version, build, VM name.
    let vendor = |j: &Jvm| j.vendor.as_ref().map(|v| v.value.clone());
    let version = |j: &Jvm| j.version.as_ref().map(|v| v.value.clone());
    if out.both(
        "jvm",
        &format!("{who}: runtime (`java -version`, `VM.version`)"),
        b.vendor.is_some() || b.version.is_some(),
        s.vendor.is_some() || s.version.is_some(),
    ) {
        let (m, what) = if vendor(b) != vendor(s) {
            (1.0, "vendor")
        } else if b.feature.is_some() && s.feature.is_some() && b.feature != s.feature {
            (1.0, "feature release")
        } else if version(b) != version(s) {
            (0.6, "update")
        } else if b.build != s.build || b.vm_name != s.vm_name {
            (0.4, "build")
        } else {
            (0.0, "")
        };
        if m > 0.0 {
            let d = Difference::new(&JVM_RUNTIME, format!("{who}: JDK"))
                .values(Some(runtime(b)), Some(runtime(s)))
                .magnitude(m)
                .reason(format!(
                    "the JDK {what} differs: another JIT, intrinsics, GC defaults and patches (case S2: BiSheng vs OpenJDK 1.8 was worth 8× TPS)"
                ))
                .link(jvm_symptom.clone())
                .cite(Which::Baseline, b.vendor.as_ref())
                .cite(Which::Baseline, b.version.as_ref())
                .cite(Which::Suspect, s.vendor.as_ref())
                .cite(Which::Suspect, s.version.as_ref());
            out.push(d);
        }
    }
    // Collector.
    if let (Some(cb), Some(cs)) = (&b.collector, &s.collector) {
        if cb.value != cs.value {
            out.push(
                Difference::new(&JVM_COLLECTOR, format!("{who}: garbage collector"))
                    .values(Some(cb.value.clone()), Some(cs.value.clone()))
                    .reason("another collector: different pauses and throughput")
                    .link(jvm_symptom.clone())
                    .cite(Which::Baseline, Some(cb))
                    .cite(Which::Suspect, Some(cs)),
            );
        }
    }
    // Heap.
    for (what, fb, fs) in [
        ("maximum heap", &b.heap_max_bytes, &s.heap_max_bytes),
        ("initial heap", &b.heap_initial_bytes, &s.heap_initial_bytes),
    ] {
        if let (Some(x), Some(y)) = (fb, fs) {
            numeric(
                out,
                &JVM_HEAP,
                format!("{who}: {what}"),
                x.value as f64 / 1_048_576.0,
                y.value as f64 / 1_048_576.0,
                score::SETTING,
                "MiB",
                p.symptoms.any(SymptomGroup::Memory),
                |d| {
                    d.cite(Which::Baseline, Some(x))
                        .cite(Which::Suspect, Some(y))
                },
            );
        }
    }
    // -XX flags.
    if out.both(
        "jvm",
        &format!("{who}: `-XX` flags (`jcmd VM.flags`)"),
        !b.flags.is_empty(),
        !s.flags.is_empty(),
    ) {
        let keys: BTreeSet<&String> = b.flags.keys().chain(s.flags.keys()).collect();
        for k in keys {
            if FLAGS_COMPARED_ELSEWHERE.contains(&k.as_str()) {
                continue;
            }
            let (x, y) = (b.flags.get(k), s.flags.get(k));
            if x == y {
                continue;
            }
            let known = KNOWN_FLAGS.contains(&k.as_str());
            let mut d = Difference::new(&JVM_FLAG, format!("{who}: -XX:{k}"))
                .values(x.cloned(), y.cloned())
                .reason(match (x, y) {
                    (Some(_), Some(_)) if known => {
                        "a flag known to change GC, JIT or memory behaviour has another value"
                            .to_string()
                    }
                    (Some(_), Some(_)) => "the flag has another value".to_string(),
                    (Some(_), None) => "set on the baseline only".to_string(),
                    _ => "set on the suspect only".to_string(),
                });
            if known {
                d = d.weight(KNOWN_FLAG_WEIGHT);
            }
            out.push(d);
        }
    }
    // System properties.
    if out.both(
        "jvm",
        &format!("{who}: system properties"),
        b.properties_source.is_some(),
        s.properties_source.is_some(),
    ) {
        let keys: BTreeSet<&String> = b.properties.keys().chain(s.properties.keys()).collect();
        for k in keys {
            if PROPERTIES_NOT_COMPARED
                .iter()
                .any(|x| k == x || (x.ends_with('.') && k.starts_with(x)))
            {
                continue;
            }
            let (x, y) = (b.properties.get(k), s.properties.get(k));
            if x.map(|c| &c.value) == y.map(|c| &c.value) {
                continue;
            }
            out.push(
                Difference::new(&JVM_PROPERTY, format!("{who}: -D{k}"))
                    .values(x.map(|c| c.value.clone()), y.map(|c| c.value.clone()))
                    .reason(match (x, y) {
                        (Some(_), Some(_)) => "the property has another value",
                        (Some(_), None) => "set on the baseline only",
                        _ => "set on the suspect only",
                    })
                    .cite(Which::Baseline, x)
                    .cite(Which::Suspect, y),
            );
        }
    }
    // Thread pools.
    if out.both(
        "jvm",
        &format!("{who}: thread pools (thread dump)"),
        b.threads_source.is_some(),
        s.threads_source.is_some(),
    ) {
        let pb: BTreeMap<&str, _> = b.pools.iter().map(|c| (c.value.pool.as_str(), c)).collect();
        let ps: BTreeMap<&str, _> = s.pools.iter().map(|c| (c.value.pool.as_str(), c)).collect();
        let names: BTreeSet<&str> = pb.keys().chain(ps.keys()).copied().collect();
        let link = p.symptoms.any(SymptomGroup::Threads);
        for n in names {
            let (x, y) = (pb.get(n), ps.get(n));
            let (nb, ns) = (
                x.map(|c| c.value.threads).unwrap_or(0),
                y.map(|c| c.value.threads).unwrap_or(0),
            );
            numeric(
                out,
                &JVM_THREAD_POOL,
                format!("{who}: threads `{}`", n.trim_end()),
                nb as f64,
                ns as f64,
                score::COUNT,
                "threads",
                link.clone(),
                |d| {
                    d.cite(Which::Baseline, x.copied())
                        .cite(Which::Suspect, y.copied())
                },
            );
        }
    }
    // GC behaviour over the window.
    if let (Some(gb), Some(gs)) = (&b.gc, &s.gc) {
        let link = p
            .symptoms
            .any(SymptomGroup::Memory)
            .or_else(|| p.symptoms.any(SymptomGroup::Gc));
        if let (Some(x), Some(y)) = (gb.pause_share_pct, gs.pause_share_pct) {
            numeric(
                out,
                &JVM_GC,
                format!("{who}: time in GC pauses"),
                x,
                y,
                score::PAUSE_PCT,
                "%",
                link.clone(),
                |d| {
                    d.cite_lines(Which::Baseline, &gb.artifact, &gb.span_lines)
                        .cite_lines(Which::Suspect, &gs.artifact, &gs.span_lines)
                },
            );
        }
        if let (Some(x), Some(y)) = (gb.fgc, gs.fgc) {
            // Full collections per minute, so windows of different length compare.
            let per_min = |n: u64, w: Option<f64>| match w {
                Some(w) if w > 0.0 => n as f64 * 60.0 / w,
                _ => n as f64,
            };
            let (rx, ry) = (per_min(x, gb.window_s), per_min(y, gs.window_s));
            if (rx - ry).abs() > 0.0 {
                numeric(
                    out,
                    &JVM_GC,
                    format!("{who}: full collections per minute"),
                    (rx * 10.0).round() / 10.0,
                    (ry * 10.0).round() / 10.0,
                    score::COUNT,
                    "/min",
                    link,
                    |d| {
                        d.cite_lines(Which::Baseline, &gb.artifact, &gb.span_lines)
                            .cite_lines(Which::Suspect, &gs.artifact, &gs.span_lines)
                    },
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jvm(role: Option<&str>, main: Option<&str>) -> Jvm {
        Jvm {
            role: role.map(str::to_string),
            main: main.map(str::to_string),
            ..Default::default()
        }
    }

    #[test]
    fn jvms_pair_by_role_then_main_then_the_single_leftovers() {
        let b = vec![jvm(Some("ZooKeeper"), None), jvm(None, Some("app.jar"))];
        let s = vec![jvm(None, Some("other.jar")), jvm(Some("ZooKeeper"), None)];
        let (m, lb, ls) = pairs(&b, &s);
        assert_eq!(m.len(), 2);
        assert!(lb.is_empty() && ls.is_empty());
        assert_eq!(m[0].0.role.as_deref(), Some("ZooKeeper"));
        assert_eq!(m[0].1.role.as_deref(), Some("ZooKeeper"));
        let s2 = vec![jvm(Some("Kafka broker"), None)];
        let (m, lb, ls) = pairs(&b, &s2);
        assert!(m.is_empty());
        assert_eq!((lb.len(), ls.len()), (2, 1));
    }
}
