//! `jvm.thread-pool-oversized`: a thread pool far larger than the work it does.
//!
//! Reads each JVM's thread pools from its thread dump (threads per pool name, how many
//! `RUNNABLE`) against the host's CPU count.

use crate::facts::jvm::Jvm;
use crate::facts::{Fact, HostFacts};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// A pool counts as oversized when its idle threads exceed this many per CPU ...
pub const POOL_IDLE_PER_CPU: usize = 4;
/// ... and it has at least this many threads.
pub const POOL_MIN_THREADS: usize = 100;
/// A pool this large reserves ≥ 1 GiB of thread stacks at the default 1 MiB `-Xss`: warning.
pub const POOL_WARN_THREADS: usize = 1000;

const UNDERTOW_AND_CASE: &[Source] = &[
    Source::section(
        "Undertow documentation",
        "task threads = 8 × I/O threads, I/O threads = cores",
    ),
    Source::Case(2),
];

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "jvm.thread-pool-oversized",
    title: "Thread pool far larger than the work it does",
    area: Area::Jvm,
    severity: Severity::Info,
    needs: &[Fact::Jvms, Fact::Identity],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "idle (not `RUNNABLE`) threads in a pool, per CPU",
            value: Limit::Count(POOL_IDLE_PER_CPU as u64),
            unit: "",
            meaning: "above it, in a pool of at least 100 threads: information",
            sources: UNDERTOW_AND_CASE,
        },
        Threshold {
            name: "threads in the pool",
            value: Limit::Count(POOL_MIN_THREADS as u64),
            unit: "",
            meaning: "fewer: never oversized",
            sources: UNDERTOW_AND_CASE,
        },
        Threshold {
            name: "threads in the pool",
            value: Limit::Count(POOL_WARN_THREADS as u64),
            unit: "",
            meaning: "at or above (≥ 1 GiB of stack reserved at the default 1 MiB `-Xss`): a \
                      warning",
            sources: UNDERTOW_AND_CASE,
        },
    ],
    groups: &[SymptomGroup::Threads],
    explains: &[],
    fires_when: "a pool has more than 4 idle threads per CPU and ≥ 100 threads (warning from \
                 1000), with the knob that sizes it",
    checks: "Per JVM, from the thread dump: threads per pool (thread name without its trailing \
             number) and how many are idle (neither `RUNNABLE` nor queued for a lock: `BLOCKED`, \
             or parked on a lock another thread owns), against the host's CPU count.",
    why: "Pools sized from the CPU count grow with the host, not with the load: Undertow's XNIO \
          task pool defaults to 8 × cores, so a 128-core host starts 1024 worker threads (case \
          S2). Idle threads cost stacks and scheduler work, and a pool that size hides the real \
          concurrency limit somewhere else.",
    false_positives: "Pools for blocking I/O (JDBC, remote calls) legitimately hold many waiting \
                      threads; compare with the concurrency the application really needs.",
    remedy: "Set the pool's size from the load, not the core count (the knob named in the \
             finding).",
    file: file!(),
};

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

/// Every thread pool of every thread dump against the CPU count.
pub fn check(f: &HostFacts) -> Check {
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
            // Threads queued for a lock are not idle: the pool waits on a lock, not for work
            // (`jvm.monitor-contention` names the lock).
            let busy = p.value.runnable.saturating_add(p.value.blocked);
            let idle = p.value.threads - busy.min(p.value.threads);
            if p.value.threads < POOL_MIN_THREADS || idle <= POOL_IDLE_PER_CPU * cpus as usize {
                continue;
            }
            let sev = if p.value.threads >= POOL_WARN_THREADS {
                Severity::Warning
            } else {
                Severity::Info
            };
            out.push(Finding {
                rule_id: META.id,
                explains: Vec::new(),
                area: META.area,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::jvm::PoolCount;
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    fn pools(threads: usize, runnable: usize, cpus: u32) -> HostFacts {
        pools_blocked(threads, runnable, 0, cpus)
    }

    fn pools_blocked(threads: usize, runnable: usize, blocked: usize, cpus: u32) -> HostFacts {
        let j = Jvm {
            pid: Some(9),
            threads: Some(threads + 20),
            pools: vec![c(PoolCount {
                pool: "XNIO-1 task-".into(),
                threads,
                runnable,
                blocked,
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
    fn fires_on_undertow_default_pools_on_big_hosts() {
        // 8 × 128 cores, a handful busy (case S2's physical host).
        let v = found(check(&pools(1024, 6, 128)));
        assert_eq!(v[0].severity, Severity::Warning);
        assert!(v[0].details[0].contains("server.undertow.threads.worker"));
        // The same default on 32 vCPUs: 256 threads, information only.
        let v = found(check(&pools(256, 6, 32)));
        assert_eq!(v[0].severity, Severity::Info);
    }

    #[test]
    fn clear_on_a_busy_pool_and_not_evaluated_without_a_thread_dump() {
        // A busy pool is not oversized.
        assert!(is_clear(&check(&pools(256, 200, 32))));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }

    #[test]
    fn clear_on_a_pool_blocked_on_a_lock() {
        // 120 workers queued behind one monitor on 2 CPUs: contention, not an idle pool.
        assert!(is_clear(&check(&pools_blocked(120, 0, 120, 2))));
        // The same pool with most threads idle still fires.
        let v = found(check(&pools_blocked(120, 0, 10, 2)));
        assert!(v[0].why.contains("110 of the pool's 120"), "{}", v[0].why);
    }

    #[test]
    fn knobs_are_named_for_known_pools() {
        assert!(pool_knob("XNIO-1 task-").contains("undertow"));
        assert!(pool_knob("XNIO-1 I/O-").contains("io"));
        assert!(pool_knob("http-nio-8080-exec-").contains("maxThreads"));
        assert!(pool_knob("something-").contains("configuration"));
    }
}
