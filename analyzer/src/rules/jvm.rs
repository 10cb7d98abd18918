//! JVM rules: old generation not reclaimed, GC overhead and long pauses, oversized thread pools,
//! heaps larger than the memory they live in.
//!
//! In: [`HostFacts::jvms`] (GC series from `jstat`, GC log summary, histogram top classes, thread
//! pools, heap settings) and the host's memory. Out: one finding per affected JVM.

use super::{Check, Confidence, Finding, RuleMeta, Severity};
use crate::evidence::Evidence;
use crate::facts::jvm::Jvm;
use crate::facts::HostFacts;

/// Old-generation occupancy after a full GC at or above this, %, means the collection freed
/// almost nothing.
pub const OLD_AFTER_FGC_PCT: f64 = 90.0;
/// Share of wall time in stop-the-world GC at or above this, %, is a warning.
pub const PAUSE_SHARE_WARN_PCT: f64 = 10.0;
/// ... and at or above this, critical.
pub const PAUSE_SHARE_CRIT_PCT: f64 = 50.0;
/// A single pause at or above this, ms, is long.
pub const LONG_PAUSE_MS: f64 = 1000.0;
/// A pool counts as oversized when its idle threads exceed this many per CPU ...
pub const POOL_IDLE_PER_CPU: usize = 4;
/// ... and it has at least this many threads.
pub const POOL_MIN_THREADS: usize = 100;
/// A pool this large reserves ≥ 1 GiB of thread stacks at the default 1 MiB `-Xss`: warning.
pub const POOL_WARN_THREADS: usize = 1000;
/// Sum of maximum heaps above this share of RAM, %, leaves too little for the rest: warning.
pub const HEAP_RAM_WARN_PCT: f64 = 90.0;

pub static OLD_GEN: RuleMeta = RuleMeta {
    id: "jvm.old-gen-not-reclaimed",
    title: "Old generation not reclaimed by full GCs",
    area: "jvm",
    checks: "Per JVM: old-generation occupancy (`jstat` `O`, or `OU/OC`) at each sample where the \
             full-GC count `FGC` rose during the window; full collections in the GC log with the \
             heap still nearly full after them. Names the classes holding the most bytes in the \
             class histogram.",
    why: "When a full GC leaves the old generation nearly full, the live set has outgrown the \
          heap: every allocation now triggers another full GC, pauses pile up and the JVM ends in \
          `OutOfMemoryError` (case S3: ZooKeeper's watch maps filled the heap).",
    threshold:
        "Old generation ≥ 90 % after every full GC of the window: critical when FGC rose at \
                least twice (a trend, not one event), warning after a single one. Source: case S3 \
                (\"old generation stays near 100 % after each FGC; FGC count keeps rising\"), \
                Oracle Java SE Troubleshooting Guide, \"Understand the OutOfMemoryError \
                Exception\" (a heap whose live data does not fit).",
    false_positives: "A heap sized just above a stable live set can sit near 90 % after full GCs \
                      without growing; look at whether the top classes are expected to be that \
                      large.",
    remedy: "Find what holds the memory (the top classes here, then a heap dump: `jcmd PID \
             GC.heap_dump`), fix the leak or the data structure; raise `-Xmx` only if the live set \
             is legitimately that large.",
};

pub static GC_OVERHEAD: RuleMeta = RuleMeta {
    id: "jvm.gc-overhead",
    title: "GC overhead: time in pauses, long pauses, evacuation failure",
    area: "jvm",
    checks: "Per JVM: share of the window spent in stop-the-world collections (Δ`YGCT` + Δ`FGCT` \
             from `jstat` over the window; JDK 11+ concurrent time `CGCT` excluded); the longest \
             pause and pauses ≥ 1 s in the GC log; G1 `to-space exhausted`.",
    why: "Time in GC pauses is time the application does not run: throughput falls and latency \
          rises for every request in flight; pauses of seconds expire ZooKeeper sessions and \
          fail heartbeats (cases S1, S3).",
    threshold:
        "Pause share ≥ 10 % is a warning (G1's default throughput goal `-XX:GCTimeRatio=12` \
                allows 7.7 %, Parallel's default 99 allows 1 %: Oracle HotSpot GC Tuning Guide), \
                ≥ 50 % critical (the application gets less than half the time; HotSpot's own \
                `GCTimeLimit` gives up at 98 %). A pause ≥ 1 s (five times G1's default \
                `MaxGCPauseMillis=200`) or a G1 `to-space exhausted` is a warning.",
    false_positives: "A short window that happens to hold one full GC overstates the share; a \
                      `System.gc()` called on purpose (the cause in `jstat -gccause` or the log).",
    remedy: "Look at what fills the heap (histogram, old-gen finding), size the heap and young \
             generation for the allocation rate, and on JDK 11+ consider G1 tuning or ZGC for \
             large heaps; for `to-space exhausted` raise `-XX:G1ReservePercent` or the heap.",
};

pub static POOLS: RuleMeta = RuleMeta {
    id: "jvm.thread-pool-oversized",
    title: "Thread pool far larger than the work it does",
    area: "jvm",
    checks: "Per JVM, from the thread dump: threads per pool (thread name without its trailing \
             number) and how many are `RUNNABLE`, against the host's CPU count.",
    why: "Pools sized from the CPU count grow with the host, not with the load: Undertow's XNIO \
          task pool defaults to 8 × cores, so a 128-core host starts 1024 worker threads (case \
          S2). Idle threads cost stacks and scheduler work, and a pool that size hides the real \
          concurrency limit somewhere else.",
    threshold: "Idle (not `RUNNABLE`) threads > 4 × CPUs and ≥ 100 threads in the pool: \
                information; ≥ 1000 threads (≥ 1 GiB of stack reserved at the default 1 MiB \
                `-Xss`): warning. Source: Undertow documentation (task threads = 8 × I/O threads, \
                I/O threads = cores), case S2.",
    false_positives: "Pools for blocking I/O (JDBC, remote calls) legitimately hold many waiting \
                      threads; compare with the concurrency the application really needs.",
    remedy: "Set the pool's size from the load, not the core count (the knob named in the \
             finding).",
};

pub static HEAP_MEMORY: RuleMeta = RuleMeta {
    id: "jvm.heap-vs-memory",
    title: "JVM heaps larger than the memory available",
    area: "jvm",
    checks: "Sum of the maximum heaps (`MaxHeapSize` from `VM.flags`, else `-Xmx`) of the JVMs in \
             the bundle against `MemTotal`; each heap against its cgroup's memory limit \
             (`memory.max` / `memory.limit_in_bytes`, tightest over the ancestors); each JVM's \
             `VmSwap` from `/proc/PID/status`.",
    why: "A heap the host cannot hold in RAM ends on swap or in the OOM killer: the garbage \
          collector touches the whole heap, so a swapped heap turns pauses into seconds (case \
          S1). Heap is not all of a JVM's memory: metaspace, code cache, thread stacks and \
          direct buffers come on top.",
    threshold: "Sum of heaps > `MemTotal`, or a heap > its cgroup limit: critical; > 90 % of \
                either: warning; any `VmSwap` > 0: warning. Source: case S1 (G1 `to-space \
                exhausted` under a cgroup `memory.max`); Oracle Java SE Troubleshooting Guide \
                (native memory beyond the heap).",
    false_positives: "Heaps that are never grown to their maximum (`-Xms` small, low load) do not \
                      use the RAM yet — they will under load.",
    remedy: "Lower `-Xmx` so all heaps plus native memory fit in RAM with room for the page \
             cache, or move JVMs to other hosts; keep swap off JVM hosts.",
};

fn heap_evidence(j: &Jvm) -> Option<Evidence> {
    let h = j.heap_max_bytes.as_ref()?;
    (!h.artifact.is_empty()).then(|| h.evidence(format!("{}: maximum heap", j.label())))
}

/// `jvm.old-gen-not-reclaimed`.
pub fn check_old_gen(f: &HostFacts) -> Check {
    if f.jvms.is_empty() {
        return Check::NotEvaluated("no JVM evidence (`jstat`, GC log) in the bundle".into());
    }
    let mut out = Vec::new();
    let mut checked = 0;
    for j in &f.jvms {
        let from_jstat = j.gc.as_ref().map(|g| {
            (
                &g.old_after_fgc,
                g.artifact.as_str(),
                Some(g.header_prefix()),
            )
        });
        let from_log = j
            .gc_log
            .as_ref()
            .map(|g| (&g.full_gc_after_pct, g.artifact.as_str(), None));
        // Under G1, jstat's `O` is the occupancy of the committed old regions, which reads near
        // 100 % after a full GC that left room in the heap: the GC log's heap after the full GC
        // (against the whole heap) is the better measure when it is there.
        let g1 = j.collector.as_ref().is_some_and(|c| c.value == "G1");
        let log_first = g1 && from_log.as_ref().is_some_and(|(a, _, _)| !a.is_empty());
        let pick = if log_first {
            from_log.filter(|(a, _, _)| !a.is_empty())
        } else {
            from_jstat
                .filter(|(a, _, _)| !a.is_empty())
                .or(from_log.filter(|(a, _, _)| !a.is_empty()))
        };
        let g1_jstat_only = g1 && !log_first && pick.as_ref().is_some_and(|(_, _, h)| h.is_some());
        let Some((after, source, header)) = pick else {
            if j.gc.is_some() || j.gc_log.is_some() {
                checked += 1;
            }
            continue;
        };
        checked += 1;
        if !after.iter().all(|o| o.value >= OLD_AFTER_FGC_PCT) {
            continue;
        }
        let n = after.len();
        let min = after.iter().map(|o| o.value).fold(f64::INFINITY, f64::min);
        let last = after.last().map(|o| o.value).unwrap_or(min);
        let mut first = Evidence::new(
            source,
            after.iter().flat_map(|o| o.lines.clone()).collect(),
            format!("old generation after each of {n} full GC(s)"),
        );
        if let Some(h) = header {
            first = first.with_header(h);
        }
        let mut ev = vec![first];
        if let Some(h) = heap_evidence(j) {
            ev.push(h);
        }
        let mut details = Vec::new();
        let top: Vec<_> = j.top_classes.iter().take(5).collect();
        if let Some(src) = &j.histogram_source {
            ev.push(Evidence::new(
                src,
                top.iter().flat_map(|c| c.lines.clone()).collect(),
                "classes holding the most bytes",
            ));
            for c in &top {
                details.push(format!(
                    "{}: {} instances, {} MiB ({:.1} % of the histogram)",
                    c.value.class_name,
                    c.value.instances,
                    c.value.bytes >> 20,
                    c.value.share_pct
                ));
            }
        } else {
            details.push(
                "No class histogram in the bundle: take one (`jcmd PID GC.class_histogram`) to \
                 see what holds the memory."
                    .into(),
            );
        }
        if g1_jstat_only {
            details.push(
                "Under G1, `jstat`'s `O` is the occupancy of the committed old regions and can read \
                 near 100 % after a full GC that left room in the heap: confirm with the GC log's \
                 heap after each full GC."
                    .into(),
            );
        }
        let names: Vec<&str> = top
            .iter()
            .take(3)
            .map(|c| c.value.class_name.as_str())
            .collect();
        out.push(Finding {
            rule_id: OLD_GEN.id,
            explains: Vec::new(),
            area: OLD_GEN.area,
            title: format!(
                "{}: old generation still {last:.1} % full after {n} full GC(s)",
                j.label()
            ),
            severity: if n >= 2 {
                Severity::Critical
            } else {
                Severity::Warning
            },
            confidence: if g1_jstat_only {
                Confidence::Low
            } else if n >= 3 {
                Confidence::High
            } else {
                Confidence::Medium
            },
            why: format!(
                "Every full GC in the window left the old generation ≥ {min:.0} % full, so the \
                 live data no longer fits the heap{}.",
                if names.is_empty() {
                    String::new()
                } else {
                    format!("; most bytes are in {}", names.join(", "))
                }
            ),
            details,
            score: n as f64 * last,
            time_range: None,
            evidence: ev,
        });
    }
    if out.is_empty() {
        if checked == 0 {
            Check::NotEvaluated(
                "no JVM with a `jstat` series or GC log with full GCs in the bundle".into(),
            )
        } else {
            Check::Clear(format!(
                "{checked} JVM(s): no full GC left the old generation ≥ {OLD_AFTER_FGC_PCT:.0} % full"
            ))
        }
    } else {
        Check::Found(out)
    }
}

/// `jvm.gc-overhead`.
pub fn check_gc_overhead(f: &HostFacts) -> Check {
    let mut out = Vec::new();
    let mut checked = 0;
    for j in &f.jvms {
        if j.gc.is_none() && j.gc_log.is_none() {
            continue;
        }
        checked += 1;
        let mut ev = Vec::new();
        let mut reasons = Vec::new();
        let mut sev: Option<Severity> = None;
        let mut score = 0.0;
        if let Some(g) = &j.gc {
            if let (Some(share), Some(w)) = (g.pause_share_pct, g.window_s) {
                if share >= PAUSE_SHARE_WARN_PCT {
                    sev = Some(if share >= PAUSE_SHARE_CRIT_PCT {
                        Severity::Critical
                    } else {
                        Severity::Warning
                    });
                    score += share;
                    reasons.push(format!(
                        "{share:.0} % of the {w:.0} s window in GC pauses ({} young, {} full \
                         collections)",
                        g.ygc.unwrap_or(0),
                        g.fgc.unwrap_or(0)
                    ));
                    ev.push(
                        Evidence::new(
                            &g.artifact,
                            g.span_lines.clone(),
                            "GC counts and times at the start and end of the window",
                        )
                        .with_header(g.header_prefix()),
                    );
                }
            }
        }
        if let Some(l) = &j.gc_log {
            if let Some(m) = l.max_pause_ms.as_ref().filter(|m| m.value >= LONG_PAUSE_MS) {
                sev = sev.max(Some(Severity::Warning));
                score += m.value / 1000.0;
                // The log's tail may reach back before the window: say how far.
                let over = match l.span_s {
                    Some(sp) if sp >= 120.0 => {
                        format!(" over the GC log's last {:.0} min", sp / 60.0)
                    }
                    Some(sp) => format!(" over the GC log's last {sp:.0} s"),
                    None => " in the GC log".to_string(),
                };
                reasons.push(format!(
                    "longest pause {:.1} s ({} pause(s) ≥ 1 s){over}",
                    m.value / 1000.0,
                    l.long_pauses
                ));
                ev.push(m.evidence("longest pause"));
            }
            if !l.to_space_exhausted.is_empty() {
                sev = sev.max(Some(Severity::Warning));
                score += l.to_space_exhausted.len() as f64;
                reasons.push(format!(
                    "{} evacuation failure(s) (`to-space exhausted`)",
                    l.to_space_exhausted.len()
                ));
                let mut lines = l.to_space_exhausted.clone();
                lines.truncate(5);
                ev.push(Evidence::new(&l.artifact, lines, "G1 evacuation failures"));
            }
        }
        let Some(sev) = sev else { continue };
        out.push(Finding {
            rule_id: GC_OVERHEAD.id,
            explains: Vec::new(),
            area: GC_OVERHEAD.area,
            title: format!("{}: {}", j.label(), reasons[0]),
            severity: sev,
            confidence: if ev.len() > 1 {
                Confidence::High
            } else {
                Confidence::Medium
            },
            why: format!("{}.", reasons.join("; ")),
            details: reasons[1..].to_vec(),
            score,
            time_range: None,
            evidence: ev,
        });
    }
    if checked == 0 {
        return Check::NotEvaluated("no JVM with a `jstat` series or GC log in the bundle".into());
    }
    if out.is_empty() {
        Check::Clear(format!(
            "{checked} JVM(s): GC pauses below {PAUSE_SHARE_WARN_PCT:.0} % of the window, none ≥ 1 s"
        ))
    } else {
        Check::Found(out)
    }
}

/// The setting that sizes a pool, by its thread-name prefix.
fn pool_knob(pool: &str) -> &'static str {
    let p = pool;
    if p.starts_with("XNIO-") && p.contains("task") {
        "Undertow worker (task) threads: `server.undertow.threads.worker` (Spring Boot), \
         `Undertow.Builder.setWorkerThreads`, WildFly `task-max-threads`"
    } else if p.starts_with("XNIO-") && p.contains("I/O") {
        "Undertow I/O threads: `server.undertow.threads.io`, `Undertow.Builder.setIoThreads`"
    } else if p.starts_with("http-nio-") || p.starts_with("https-jsse-nio-") {
        "Tomcat connector `maxThreads` (`server.tomcat.threads.max` in Spring Boot)"
    } else if p.starts_with("qtp") {
        "Jetty `QueuedThreadPool` `maxThreads`"
    } else if p.starts_with("ForkJoinPool.commonPool-worker-") {
        "`-Djava.util.concurrent.ForkJoinPool.common.parallelism`"
    } else if p.starts_with("nioEventLoopGroup-") || p.starts_with("epollEventLoopGroup-") {
        "Netty event-loop threads: `-Dio.netty.eventLoopThreads` or the group's constructor"
    } else if p.starts_with("grpc-default-executor-") {
        "the gRPC server's `executor(...)`"
    } else if p.starts_with("pool-") {
        "an `Executors.newFixedThreadPool`/`newCachedThreadPool` in the application"
    } else {
        "the pool's maximum size in the application's configuration"
    }
}

/// `jvm.thread-pool-oversized`.
pub fn check_pools(f: &HostFacts) -> Check {
    let with_dumps: Vec<&Jvm> = f.jvms.iter().filter(|j| j.threads.is_some()).collect();
    if with_dumps.is_empty() {
        return Check::NotEvaluated("no thread dump in the bundle".into());
    }
    let Some(cpus) = f.identity.cpus.filter(|&c| c > 0) else {
        return Check::NotEvaluated("CPU count unknown (no `lscpu`, `nproc` or mpstat)".into());
    };
    let mut out = Vec::new();
    for j in &with_dumps {
        for p in &j.pools {
            // Without a thread dump (only `/proc` thread names) states are unknown: all count.
            let idle = p.value.threads - p.value.runnable.min(p.value.threads);
            if p.value.threads < POOL_MIN_THREADS || idle <= POOL_IDLE_PER_CPU * cpus as usize {
                continue;
            }
            let sev = if p.value.threads >= POOL_WARN_THREADS {
                Severity::Warning
            } else {
                Severity::Info
            };
            out.push(Finding {
                rule_id: POOLS.id,
                explains: Vec::new(),
                area: POOLS.area,
                title: if j.pool_states_known {
                    format!(
                        "{}: pool `{}` has {} threads on {cpus} CPUs, {} runnable",
                        j.label(),
                        p.value.pool,
                        p.value.threads,
                        p.value.runnable
                    )
                } else {
                    format!(
                        "{}: pool `{}` has {} threads on {cpus} CPUs",
                        j.label(),
                        p.value.pool,
                        p.value.threads
                    )
                },
                severity: sev,
                confidence: Confidence::Medium,
                why: format!(
                    "{idle} of the pool's {} threads were idle at the dump, more than {} per CPU; \
                     its size follows the core count, not the load.",
                    p.value.threads, POOL_IDLE_PER_CPU
                ),
                details: vec![format!("Sized by: {}.", pool_knob(&p.value.pool))],
                score: p.value.threads as f64 / cpus as f64,
                time_range: None,
                evidence: vec![p.evidence(format!(
                    "first threads of `{}` in the thread dump",
                    p.value.pool
                ))],
            });
        }
    }
    if out.is_empty() {
        Check::Clear(format!(
            "{} JVM(s): no pool with more than {POOL_IDLE_PER_CPU} idle threads per CPU",
            with_dumps.len()
        ))
    } else {
        Check::Found(out)
    }
}

/// `jvm.heap-vs-memory`.
pub fn check_heap_memory(f: &HostFacts) -> Check {
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
                .is_some_and(|s| s.value > 0 && swap_total.is_none_or(|t| s.value <= t))
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
            .map(|h| h.value / 1024)
            .sum();
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
            rule_id: HEAP_MEMORY.id,
            explains: Vec::new(),
            area: HEAP_MEMORY.area,
            title: format!(
                "{}: -Xmx {} MiB is {pct:.0} % of its cgroup memory limit ({} MiB)",
                j.label(),
                h.value >> 20,
                lim.value >> 20
            ),
            severity: if pct > 100.0 {
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
            rule_id: HEAP_MEMORY.id,
            explains: vec![GC_OVERHEAD.id],
            area: HEAP_MEMORY.area,
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
fn host_heaps(
    f: &HostFacts,
    sized: &[&Jvm],
    ram: &crate::evidence::Cited<u64>,
    sum_kib: u64,
    pct: f64,
) -> Finding {
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
        rule_id: HEAP_MEMORY.id,
        explains: Vec::new(),
        area: HEAP_MEMORY.area,
        title: format!(
            "JVM heaps total {} MiB, {pct:.0} % of {} MiB RAM",
            sum_kib / 1024,
            ram.value / 1024
        ),
        severity: if pct > 100.0 {
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
    use crate::facts::jvm::{ClassShare, GcLogSummary, GcSeries, PoolCount};
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    fn jvm_with_gc(after: &[f64], share: f64) -> HostFacts {
        let j = Jvm {
            pid: Some(7),
            dir: "jvm/7".into(),
            main: Some("com.example.Main".into()),
            gc: Some(GcSeries {
                artifact: "jvm/7/jstat-gcutil.txt".into(),
                samples: 31,
                window_s: Some(30.0),
                ygc: Some(4),
                fgc: Some(after.len() as u64),
                pause_s: Some(share * 0.3),
                pause_share_pct: Some(share),
                old_after_fgc: after
                    .iter()
                    .enumerate()
                    .map(|(i, &o)| Cited::new(o, "jvm/7/jstat-gcutil.txt", 3 + i * 5))
                    .collect(),
                span_lines: vec![2, 32],
                timestamped: true,
                ..Default::default()
            }),
            histogram_source: Some("jvm/7/class-histogram.txt".into()),
            top_classes: vec![Cited::new(
                ClassShare {
                    class_name: "java.util.HashMap$Node".into(),
                    instances: 9,
                    bytes: 900 << 20,
                    share_pct: 81.0,
                },
                "jvm/7/class-histogram.txt",
                4,
            )],
            ..Default::default()
        };
        HostFacts {
            jvms: vec![j],
            ..Default::default()
        }
    }

    #[test]
    fn old_gen_full_after_repeated_full_gcs_is_critical_and_names_classes() {
        let v = found(check_old_gen(&jvm_with_gc(&[97.0, 98.5, 99.9], 3.0)));
        assert_eq!(v[0].severity, Severity::Critical);
        assert_eq!(v[0].confidence, Confidence::High);
        assert!(v[0].why.contains("java.util.HashMap$Node"), "{}", v[0].why);
        assert_eq!(v[0].evidence[0].lines, vec![3, 8, 13]);
        assert_eq!(v[0].evidence[0].header_prefix, Some("Timestamp"));
        // One full GC is a warning; one that freed the old generation clears it.
        let one = found(check_old_gen(&jvm_with_gc(&[95.0], 3.0)));
        assert_eq!(one[0].severity, Severity::Warning);
        assert!(is_clear(&check_old_gen(&jvm_with_gc(&[97.0, 40.0], 3.0))));
        assert!(is_not_evaluated(&check_old_gen(&HostFacts::default())));
    }

    #[test]
    fn under_g1_the_gc_log_heap_after_full_gcs_wins_over_jstat() {
        // jstat's O reads 99 % of the committed old regions; the log says the full GCs left the
        // heap 84 % full: not a full old generation.
        let mut f = jvm_with_gc(&[99.0, 99.5], 3.0);
        f.jvms[0].collector = Some(Cited::new("G1".to_string(), "jvm/7/vm-flags.txt", 2));
        f.jvms[0].gc_log = Some(GcLogSummary {
            artifact: "jvm/7/gc.log".into(),
            full_gc_after_pct: vec![
                Cited::new(84.0, "jvm/7/gc.log", 10),
                Cited::new(84.2, "jvm/7/gc.log", 20),
            ],
            ..Default::default()
        });
        assert!(is_clear(&check_old_gen(&f)));
        // Without the log, jstat is used, with low confidence and a note.
        f.jvms[0].gc_log = None;
        let v = found(check_old_gen(&f));
        assert_eq!(v[0].confidence, Confidence::Low);
        assert!(v[0]
            .details
            .iter()
            .any(|d| d.contains("committed old regions")));
    }

    #[test]
    fn gc_pause_share_thresholds() {
        assert!(is_clear(&check_gc_overhead(&jvm_with_gc(&[], 9.9))));
        let w = found(check_gc_overhead(&jvm_with_gc(&[], 10.0)));
        assert_eq!(w[0].severity, Severity::Warning);
        let c = found(check_gc_overhead(&jvm_with_gc(&[], 62.0)));
        assert_eq!(c[0].severity, Severity::Critical);
        assert!(c[0].title.contains("62 %"), "{}", c[0].title);
    }

    #[test]
    fn long_pauses_and_to_space_exhausted_come_from_the_gc_log() {
        let mut f = jvm_with_gc(&[], 1.0);
        f.jvms[0].gc_log = Some(GcLogSummary {
            artifact: "jvm/7/gc.log".into(),
            max_pause_ms: Some(Cited::new(2400.0, "jvm/7/gc.log", 88)),
            long_pauses: 2,
            to_space_exhausted: vec![80],
            ..Default::default()
        });
        let v = found(check_gc_overhead(&f));
        assert_eq!(v[0].severity, Severity::Warning);
        assert!(v[0].why.contains("2.4 s"), "{}", v[0].why);
        assert!(v[0].why.contains("to-space exhausted"), "{}", v[0].why);
    }

    fn pools(threads: usize, runnable: usize, cpus: u32) -> HostFacts {
        let j = Jvm {
            pid: Some(9),
            threads: Some(threads + 20),
            pools: vec![c(PoolCount {
                pool: "XNIO-1 task-".into(),
                threads,
                runnable,
            })],
            ..Default::default()
        };
        let mut f = HostFacts {
            jvms: vec![j],
            ..Default::default()
        };
        f.identity.cpus = Some(cpus);
        f
    }

    #[test]
    fn undertow_default_pool_on_a_big_host_is_oversized() {
        // 8 × 128 cores, a handful busy (case S2's physical host).
        let v = found(check_pools(&pools(1024, 6, 128)));
        assert_eq!(v[0].severity, Severity::Warning);
        assert!(v[0].details[0].contains("server.undertow.threads.worker"));
        // The same default on 32 vCPUs: 256 threads, information only.
        let v = found(check_pools(&pools(256, 6, 32)));
        assert_eq!(v[0].severity, Severity::Info);
        // A busy pool is not oversized.
        assert!(is_clear(&check_pools(&pools(256, 200, 32))));
    }

    #[test]
    fn heap_against_its_cgroup_limit_and_swapped_jvms() {
        let mut f = HostFacts::default();
        f.jvms.push(Jvm {
            pid: Some(3),
            heap_max_bytes: Some(Cited::new(4 << 30, "jvm/3/vm-flags.txt", 2)),
            cgroup_memory_limit_bytes: Some(Cited::new(4 << 30, "jvm/3/cgroup.tsv", 9)),
            ..Default::default()
        });
        let v = found(check_heap_memory(&f));
        assert_eq!(v[0].severity, Severity::Warning, "{}", v[0].title);
        assert_eq!(v[0].evidence[0].artifact, "jvm/3/cgroup.tsv");
        f.jvms[0].cgroup_memory_limit_bytes = Some(Cited::new(3 << 30, "jvm/3/cgroup.tsv", 9));
        assert_eq!(found(check_heap_memory(&f))[0].severity, Severity::Critical);
        f.jvms[0].cgroup_memory_limit_bytes = Some(Cited::new(16 << 30, "jvm/3/cgroup.tsv", 9));
        assert!(is_clear(&check_heap_memory(&f)));
        f.jvms[0].swap_kib = Some(Cited::new(204_800, "jvm/3/status", 30));
        let v = found(check_heap_memory(&f));
        assert!(
            v[0].title.contains("200 MiB of the JVM is on swap"),
            "{}",
            v[0].title
        );
        assert_eq!(v[0].explains, vec![GC_OVERHEAD.id]);
    }

    #[test]
    fn heaps_above_ram() {
        let mut f = HostFacts::default();
        f.memory.mem_total_kib = Some(c(8 << 20));
        for pid in [1, 2] {
            f.jvms.push(Jvm {
                pid: Some(pid),
                heap_max_bytes: Some(Cited::new(5 << 30, "jvm/x/vm-flags.txt", 4)),
                ..Default::default()
            });
        }
        let v = found(check_heap_memory(&f));
        assert_eq!(v[0].severity, Severity::Critical);
        f.jvms.pop();
        assert!(is_clear(&check_heap_memory(&f)));
        f.jvms[0].heap_max_bytes = Some(Cited::new(15 << 29, "jvm/x/vm-flags.txt", 4));
        assert_eq!(found(check_heap_memory(&f))[0].severity, Severity::Warning);
    }

    #[test]
    fn knobs_are_named_for_known_pools() {
        assert!(pool_knob("XNIO-1 task-").contains("undertow"));
        assert!(pool_knob("XNIO-1 I/O-").contains("io"));
        assert!(pool_knob("http-nio-8080-exec-").contains("maxThreads"));
        assert!(pool_knob("something-").contains("configuration"));
    }
}
