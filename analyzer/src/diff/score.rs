//! How a difference is scored: a documented weight per kind of difference, the size of the
//! difference, and whether it connects to a symptom on the suspect. Shared with the fleet view.
//!
//! `score = weight × magnitude × (LINK_BOOST if linked to a suspect symptom, else 1)`
//!
//! - **weight** (0–100): how likely this kind of difference is to change performance, one
//!   [`Weight`] constant per kind with its rationale (listed in [`WEIGHTS`], printed in the
//!   report's appendix);
//! - **magnitude** (0–1): how large the difference is: 1 for a categorical difference (a value,
//!   or presence on one side only); for numbers the symmetric relative change
//!   `|a − b| / max(|a|, |b|)` (2× → 0.5, 10× → 0.9), or 0 when the change is within the
//!   metric's noise [`Floor`];
//! - **link**: the difference connects to a symptom the suspect shows and the baseline does not
//!   (a finding present only on the suspect in a related area, see `symptoms`).
//!
//! A difference whose score is below [`NOISE_SCORE`] is noise: kept in the full listing and the
//! JSON, never among the top differences, and it does not change the exit status.

use serde::Serialize;

/// Scores below this are noise. With the floors below, run-to-run variation between two healthy
/// collections (a few % of utilisation or latency) scores 0; the lowest-weighted categorical
/// differences (a JVM system property, 8) stay just above it so they remain visible in the full
/// listing.
pub const NOISE_SCORE: f64 = 5.0;

/// Factor applied when a difference connects to a symptom present only on the suspect: the
/// difference is then a candidate explanation, not just a difference.
pub const LINK_BOOST: f64 = 1.5;

/// Documented weight of one kind of difference.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Weight {
    /// Stable identifier of the kind (`process-with-connections`).
    pub id: &'static str,
    /// Area it belongs to (`process`, `jvm`, `kernel`, …).
    pub area: &'static str,
    /// Weight, 0–100.
    pub value: f64,
    /// Why this weight, for the report's appendix.
    pub rationale: &'static str,
}

/// A process on one side only that owns ESTABLISHED connections: high, because a co-located
/// service changes the load path (case S2: `bootstrap` on the fast VM only, owning most
/// connections, was the cause).
pub const PROCESS_WITH_CONNECTIONS: Weight = Weight {
    id: "process-with-connections",
    area: "process",
    value: 90.0,
    rationale: "A process on one side only that owns ESTABLISHED connections changes the load path: requests are served, proxied or short-circuited by a co-located service (case S2: `bootstrap`, co-located on the fast host only, owned most connections and was the cause). Magnitude 0.5 + 0.5 × its share of that side's connections; linked when it owns more than half of them.",
};

/// A process on one side only without connections: low, agents and helpers come and go.
pub const PROCESS_ONE_SIDE: Weight = Weight {
    id: "process-one-side",
    area: "process",
    value: 15.0,
    rationale: "A process running on one side only, owning no connections: agents and helpers differ between hosts for many harmless reasons, but a security or monitoring agent can matter (case S4). Kernel threads, shells and the collector's own tools are ignored; a process started less than 10 minutes before the collection (`ps` `etimes`) is a passing command and weighs a fifth (below noise).",
};

/// The same command owns a different number of ESTABLISHED connections.
pub const CONNECTIONS: Weight = Weight {
    id: "connections",
    area: "process",
    value: 50.0,
    rationale: "The same command owns a different number of ESTABLISHED connections (or talks to a different number of peers): the load or the topology differs. Magnitude is the relative change; changes under 25 % or 5 connections are noise.",
};

/// More or fewer instances of the same command.
pub const PROCESS_COUNT: Weight = Weight {
    id: "process-count",
    area: "process",
    value: 10.0,
    rationale: "The same command runs with a different number of instances (worker processes): usually configuration sized to the host.",
};

/// JDK vendor, version or build differs: high (case S2).
pub const JVM_RUNTIME: Weight = Weight {
    id: "jvm-runtime",
    area: "jvm",
    value: 80.0,
    rationale: "The JDK differs: vendors ship different JIT, intrinsics, GC defaults and patches (case S2: OpenJDK 1.8 on the slow host vs BiSheng JDK 1.8 on the fast one; switching raised TPS 8× at 10 users). Magnitude: vendor or feature release 1, update 0.6, build only 0.4.",
};

/// Garbage collector differs.
pub const JVM_COLLECTOR: Weight = Weight {
    id: "jvm-collector",
    area: "jvm",
    value: 50.0,
    rationale: "A different garbage collector changes pause behaviour and throughput fundamentally (G1 vs Parallel vs CMS vs ZGC).",
};

/// Heap settings differ.
pub const JVM_HEAP: Weight = Weight {
    id: "jvm-heap",
    area: "jvm",
    value: 40.0,
    rationale: "Maximum or initial heap differs: GC frequency and pause length follow the heap size. Changes under 5 % are noise.",
};

/// GC behaviour over the window differs.
pub const JVM_GC: Weight = Weight {
    id: "jvm-gc",
    area: "jvm",
    value: 45.0,
    rationale: "GC behaviour over the window differs (share of time in pauses, full collections): a symptom of heap pressure or a different collector/heap. Pause-share changes under 2 points are noise.",
};

/// Thread count per pool differs.
pub const JVM_THREAD_POOL: Weight = Weight {
    id: "jvm-thread-pool",
    area: "jvm",
    value: 35.0,
    rationale: "A thread pool has a different size: defaults often follow the core count (Undertow: I/O threads = cores, task threads = 8 × cores), so a bigger host gets more threads and more contention (case S2: more `XNIO-1` threads on the slow host; aligning them had no effect, hence medium). Changes under 20 % or 2 threads are noise.",
};

/// A `-XX` flag differs.
pub const JVM_FLAG: Weight = Weight {
    id: "jvm-flag",
    area: "jvm",
    value: 15.0,
    rationale: "A `-XX` flag differs. Flags known to change GC, JIT, NUMA or memory behaviour weigh 25 (see `KNOWN_FLAGS`); ergonomic flags sized from the CPU count or RAM follow the host.",
};

/// A JVM system property differs.
pub const JVM_PROPERTY: Weight = Weight {
    id: "jvm-property",
    area: "jvm",
    value: 8.0,
    rationale: "A system property differs. Properties naming the runtime itself are folded into the JDK difference; paths and user names are not compared.",
};

/// A JVM present on one side only.
pub const JVM_ONE_SIDE: Weight = Weight {
    id: "jvm-one-side",
    area: "jvm",
    value: 30.0,
    rationale: "A JVM (by role or main class) with evidence on one side only: either it does not run there or it was not examined.",
};

/// A tainting (out-of-tree, unsigned, proprietary) module on one side only: high (case S4).
pub const MODULE_TAINTING: Weight = Weight {
    id: "module-tainting",
    area: "kernel",
    value: 85.0,
    rationale: "A module that taints the kernel (out-of-tree `O`, unsigned `E`, proprietary `P`) loaded on one side only: third-party code inside the kernel, often hooking the network or syscall path (case S4: `resguard_linux` and `secmodel_linux` of a security agent, on the slow pool only, made every soft-IRQ slow). Linked when the suspect shows a network, CPU or kernel symptom.",
};

/// An in-tree module on one side only.
pub const MODULE_ONE_SIDE: Weight = Weight {
    id: "module-one-side",
    area: "kernel",
    value: 12.0,
    rationale: "A distribution module loaded on one side only: usually a different driver or feature in use (netfilter, file systems). Low on its own; NIC drivers are compared under `nic`.",
};

/// Kernel taint value differs.
pub const KERNEL_TAINT: Weight = Weight {
    id: "kernel-taint",
    area: "kernel",
    value: 70.0,
    rationale: "`/proc/sys/kernel/tainted` differs: one kernel runs code the other does not (out-of-tree or proprietary modules, forced loads) or has hit a warning or oops.",
};

/// Kernel release differs.
pub const KERNEL_RELEASE: Weight = Weight {
    id: "kernel-release",
    area: "kernel",
    value: 55.0,
    rationale:
        "A different kernel release changes the scheduler, network stack, drivers and mitigations.",
};

/// A kernel boot parameter differs.
pub const KERNEL_CMDLINE: Weight = Weight {
    id: "kernel-cmdline",
    area: "kernel",
    value: 10.0,
    rationale: "A boot parameter differs. Parameters known to change performance (`mitigations`, `isolcpus`, `nohz_full`, `iommu`, `transparent_hugepage`, C-states, …) weigh 40; boot-image, root-device and console parameters are noise.",
};

/// A sysctl differs.
pub const SYSCTL: Weight = Weight {
    id: "sysctl",
    area: "sysctl",
    value: 10.0,
    rationale: "A sysctl differs or is set on one side only: low, because tuned values rarely explain large differences (case S2: aligning a dozen `net.core` and `nf_conntrack` keys gave +0–8 %). Keys known to matter weigh 20 (see `sysctl::KNOWN`), and are linked when the suspect has a finding in the key's area. Counters and identifiers (`fs.file-nr`, `kernel.random.uuid`) are not compared.",
};

/// A key of a service configuration file differs.
pub const CONFIG_KEY: Weight = Weight {
    id: "config-key",
    area: "config",
    value: 10.0,
    rationale: "A key of `zoo.cfg` or a Hadoop `*-site.xml` differs, or is set on one side only: low in general (case S2: configuration files were identical and not the cause); 30 for keys known to change performance (`snapCount`, `dataLogDir`, YARN memory checks and sizes, handler counts…).",
};

/// A resource limit differs.
pub const ULIMIT: Weight = Weight {
    id: "ulimit",
    area: "limits",
    value: 10.0,
    rationale: "A resource limit differs: low unless the limit is reached (case S2: pending signals 2088097 vs 254060, no effect). Open files and processes weigh 18: servers with many connections or threads hit them.",
};

/// NIC driver differs.
pub const NIC_DRIVER: Weight = Weight {
    id: "nic-driver",
    area: "nic",
    value: 45.0,
    rationale: "A different NIC driver means a different interrupt and offload model (emulated `e1000` vs `vmxnet3`, `hinic3` vs `mlx5_core`); ruled out in case S4, hence medium.",
};

/// NIC firmware differs.
pub const NIC_FIRMWARE: Weight = Weight {
    id: "nic-firmware",
    area: "nic",
    value: 35.0,
    rationale:
        "Different NIC firmware can change offloads and interrupt moderation; ruled out in case S4.",
};

/// NIC queue count differs.
pub const NIC_QUEUES: Weight = Weight {
    id: "nic-queues",
    area: "nic",
    value: 50.0,
    rationale: "A different number of NIC queues changes how many CPUs take its interrupts (case S1: `Combined: 1` on a multi-vCPU guest).",
};

/// NIC ring size differs.
pub const NIC_RINGS: Weight = Weight {
    id: "nic-rings",
    area: "nic",
    value: 25.0,
    rationale: "A smaller RX ring drops bursts sooner; rarely a throughput limit on its own.",
};

/// NIC offload on one side only.
pub const NIC_OFFLOAD: Weight = Weight {
    id: "nic-offload",
    area: "nic",
    value: 30.0,
    rationale: "An offload (TSO, GSO, GRO, LRO, checksumming) off on one side only moves per-packet work to the CPU.",
};

/// MTU differs.
pub const NIC_MTU: Weight = Weight {
    id: "nic-mtu",
    area: "nic",
    value: 35.0,
    rationale:
        "A different MTU changes packets per byte and, on a mismatched path, fragments or drops.",
};

/// A NIC on one side only.
pub const NIC_ONE_SIDE: Weight = Weight {
    id: "nic-one-side",
    area: "nic",
    value: 10.0,
    rationale: "A physical interface (with a driver) present on one side only, after pairing interfaces by name and then by order.",
};

/// NIC interrupts spread over a different number of CPUs.
pub const IRQ_SPREAD: Weight = Weight {
    id: "irq-spread",
    area: "irq",
    value: 35.0,
    rationale: "The NIC's interrupts land on a different number of CPUs (each taking at least 10 % of them): concentration makes one CPU's soft-IRQ the bottleneck. Ruled out in case S4, hence medium.",
};

/// CPU count differs.
pub const CPU_COUNT: Weight = Weight {
    id: "cpu-count",
    area: "cpu",
    value: 40.0,
    rationale: "A different CPU count changes parallelism and every default sized from it (GC threads, thread pools, NIC queues; case S2: 128 cores vs 32 vCPUs).",
};

/// CPU model or topology differs.
pub const CPU_MODEL: Weight = Weight {
    id: "cpu-model",
    area: "cpu",
    value: 40.0,
    rationale: "A different CPU model, socket or SMT layout changes per-core speed, cache and NUMA distances.",
};

/// Virtualization platform or OS differs.
pub const PLATFORM: Weight = Weight {
    id: "platform",
    area: "host",
    value: 30.0,
    rationale: "Physical vs virtual (or another hypervisor), or another OS release: context that explains many other differences.",
};

/// CPU utilisation profile differs.
pub const CPU_PROFILE: Weight = Weight {
    id: "cpu-profile",
    area: "cpu",
    value: 40.0,
    rationale: "Mean `%usr`, `%sys`, `%iowait`, `%soft`, `%steal`, or the busiest CPU's `%soft`, differs: where the CPU time goes (case S4: cores 0–23 at 100 % `%soft`). Changes under 5 points or 20 % are noise. Linked to the matching symptom (soft-IRQ saturation, I/O wait).",
};

/// Soft-IRQ rates differ.
pub const SOFTIRQ_RATE: Weight = Weight {
    id: "softirq-rate",
    area: "cpu",
    value: 30.0,
    rationale: "A soft-IRQ type runs at a different rate (case S4: the slow node's counters grew far more slowly at 100 % `%soft`: each soft-IRQ was slow). Changes under 25 % or 100/s are noise.",
};

/// Disk latency or utilisation differs.
pub const DISK: Weight = Weight {
    id: "disk",
    area: "disk",
    value: 40.0,
    rationale: "A device's mean `await` or `%util` differs. Latency changes under 2 ms or 25 %, utilisation changes under 5 points or 20 %, are noise.",
};

/// Memory size differs.
pub const MEMORY_SIZE: Weight = Weight {
    id: "memory-size",
    area: "memory",
    value: 30.0,
    rationale:
        "Different RAM changes page-cache room and heap headroom. Changes under 5 % are noise.",
};

/// Swap configuration or activity differs.
pub const SWAP: Weight = Weight {
    id: "swap",
    area: "memory",
    value: 45.0,
    rationale:
        "Swap configured, used or active on one side only: a swapping JVM stalls in GC (case S1).",
};

/// Memory balloon differs.
pub const BALLOON: Weight = Weight {
    id: "balloon",
    area: "memory",
    value: 45.0,
    rationale: "The VMware balloon driver or a reclaimed balloon on one side only: the guest loses memory it thinks it has (case S1).",
};

/// Time synchronisation differs.
pub const TIME_SYNC: Weight = Weight {
    id: "time-sync",
    area: "time",
    value: 30.0,
    rationale: "A different clock discipline (daemons, VMware periodic sync, synchronised or not) or offset: matters to ZooKeeper sessions and Kerberos (case S1). Offset changes under 5 ms are noise.",
};

/// A finding present on one side only.
pub const FINDING: Weight = Weight {
    id: "finding",
    area: "findings",
    value: 50.0,
    rationale: "A rule fired on one side only (or more severely): the symptom itself, which the other differences should explain. Magnitude by severity: critical 1, warning 0.6, info 0.2.",
};

/// A kernel module's share of busy stacks differs.
pub const PROFILE_MODULE: Weight = Weight {
    id: "profile-module",
    area: "profile",
    value: 85.0,
    rationale: "A kernel module's share of busy CPU stacks differs: code in the kernel that one host runs much more than the other, usually third-party (case S4: `resguard_linux` above `ip_local_out` on the slow pool only). Magnitude: the difference in points over 20 (capped at 1). Linked to the suspect's module-in-hot-path finding.",
};

/// The share of a leaf symbol or DSO differs.
pub const PROFILE_SYMBOL: Weight = Weight {
    id: "profile-symbol",
    area: "profile",
    value: 40.0,
    rationale: "A function or shared object takes a different share of busy CPU samples: where the time goes changed. Magnitude: the difference in points over 20 (capped at 1).",
};

/// The spin-lock slow-path or soft-IRQ share differs.
pub const PROFILE_PATH: Weight = Weight {
    id: "profile-path",
    area: "profile",
    value: 50.0,
    rationale: "The share of busy samples spinning in kernel lock slow paths, or running under the soft-IRQ handler, differs (case S4). Magnitude: the difference in points over 20 (capped at 1). Linked to the suspect's matching profile or soft-IRQ finding.",
};

/// Share differences below 5 points (or 25 % of the larger share) are noise: two profiles of the
/// same healthy host taken minutes apart move by a few points.
pub const SHARE_PCT: Floor = Floor {
    metric: "share of busy CPU samples, % (points)",
    abs: 5.0,
    rel: 0.25,
};

/// Every weight, for the report's appendix.
pub const WEIGHTS: &[&Weight] = &[
    &PROCESS_WITH_CONNECTIONS,
    &MODULE_TAINTING,
    &PROFILE_MODULE,
    &JVM_RUNTIME,
    &KERNEL_TAINT,
    &KERNEL_RELEASE,
    &CONNECTIONS,
    &NIC_QUEUES,
    &JVM_COLLECTOR,
    &FINDING,
    &JVM_GC,
    &NIC_DRIVER,
    &SWAP,
    &BALLOON,
    &JVM_HEAP,
    &CPU_COUNT,
    &CPU_MODEL,
    &CPU_PROFILE,
    &PROFILE_PATH,
    &PROFILE_SYMBOL,
    &DISK,
    &JVM_THREAD_POOL,
    &NIC_FIRMWARE,
    &NIC_MTU,
    &IRQ_SPREAD,
    &PLATFORM,
    &JVM_ONE_SIDE,
    &NIC_OFFLOAD,
    &SOFTIRQ_RATE,
    &MEMORY_SIZE,
    &TIME_SYNC,
    &NIC_RINGS,
    &PROCESS_ONE_SIDE,
    &JVM_FLAG,
    &MODULE_ONE_SIDE,
    &KERNEL_CMDLINE,
    &SYSCTL,
    &CONFIG_KEY,
    &ULIMIT,
    &PROCESS_COUNT,
    &NIC_ONE_SIDE,
    &JVM_PROPERTY,
];

/// Noise floor of a numeric metric: a change smaller than `abs` (in the metric's unit) or than
/// `rel` (relative to the larger value) has magnitude 0.
#[derive(Debug, Clone, Copy, Serialize, schemars::JsonSchema)]
pub struct Floor {
    /// What the floor applies to.
    pub metric: &'static str,
    /// Smallest absolute change that counts, in the metric's unit.
    pub abs: f64,
    /// Smallest relative change that counts (0–1).
    pub rel: f64,
}

/// Utilisation, percentage points: two healthy runs differ by a few points.
pub const UTIL_PCT: Floor = Floor {
    metric: "utilisation, % (percentage points)",
    abs: 5.0,
    rel: 0.2,
};
/// Latency, ms.
pub const LATENCY_MS: Floor = Floor {
    metric: "latency, ms",
    abs: 2.0,
    rel: 0.25,
};
/// Event rates per second (soft-IRQs).
pub const RATE_PER_S: Floor = Floor {
    metric: "event rate, /s",
    abs: 100.0,
    rel: 0.25,
};
/// Counts of threads or processes.
pub const COUNT: Floor = Floor {
    metric: "thread or instance count",
    abs: 2.0,
    rel: 0.2,
};
/// Connection counts.
pub const CONNECTION_COUNT: Floor = Floor {
    metric: "ESTABLISHED connections",
    abs: 5.0,
    rel: 0.25,
};
/// Configured sizes and counts (memory, heap, queues, rings, CPUs, limits): any change of 5 % is
/// deliberate.
pub const SETTING: Floor = Floor {
    metric: "configured size or count",
    abs: 0.0,
    rel: 0.05,
};
/// Swap in use or memory reclaimed by a balloon, MiB.
pub const MEMORY_MIB: Floor = Floor {
    metric: "swap or balloon, MiB",
    abs: 64.0,
    rel: 0.25,
};
/// Swap-in/out rate, KiB/s.
pub const SWAP_RATE: Floor = Floor {
    metric: "swap in/out, KiB/s",
    abs: 64.0,
    rel: 0.25,
};
/// Clock offset, s.
pub const OFFSET_S: Floor = Floor {
    metric: "clock offset, s",
    abs: 0.005,
    rel: 0.5,
};
/// Share of time in GC pauses, percentage points.
pub const PAUSE_PCT: Floor = Floor {
    metric: "time in GC pauses, % (points)",
    abs: 2.0,
    rel: 0.25,
};

/// Every floor, for the report's appendix.
pub const FLOORS: &[&Floor] = &[
    &UTIL_PCT,
    &LATENCY_MS,
    &RATE_PER_S,
    &COUNT,
    &CONNECTION_COUNT,
    &SETTING,
    &MEMORY_MIB,
    &SWAP_RATE,
    &OFFSET_S,
    &PAUSE_PCT,
    &SHARE_PCT,
];

/// Symmetric relative change `|a − b| / max(|a|, |b|)`, 0–1; 0 when both are 0.
pub fn relative_change(a: f64, b: f64) -> f64 {
    let m = a.abs().max(b.abs());
    if m == 0.0 || !m.is_finite() {
        return 0.0;
    }
    ((a - b).abs() / m).min(1.0)
}

/// Magnitude of a numeric difference: the relative change, or 0 when within `floor`.
pub fn numeric_magnitude(a: f64, b: f64, floor: Floor) -> f64 {
    let rel = relative_change(a, b);
    if (a - b).abs() < floor.abs || rel < floor.rel {
        0.0
    } else {
        rel
    }
}

/// The score of a difference.
pub fn score(weight: f64, magnitude: f64, linked: bool) -> f64 {
    let s = weight * magnitude.clamp(0.0, 1.0) * if linked { LINK_BOOST } else { 1.0 };
    (s * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_change_is_symmetric_and_bounded() {
        assert_eq!(relative_change(10.0, 20.0), 0.5);
        assert_eq!(relative_change(20.0, 10.0), 0.5);
        assert_eq!(relative_change(0.0, 0.0), 0.0);
        assert_eq!(relative_change(0.0, 5.0), 1.0);
        assert!((relative_change(1.0, 10.0) - 0.9).abs() < 1e-9);
    }

    #[test]
    fn a_few_percent_of_utilisation_or_latency_is_noise() {
        // Two healthy runs: 41 % vs 43 % busy, 30 % vs 32 % soft-IRQ.
        assert_eq!(numeric_magnitude(41.0, 43.0, UTIL_PCT), 0.0);
        assert_eq!(numeric_magnitude(30.0, 32.0, UTIL_PCT), 0.0);
        // 4 % more latency, small or large.
        assert_eq!(numeric_magnitude(1.00, 1.04, LATENCY_MS), 0.0);
        assert_eq!(numeric_magnitude(80.0, 83.2, LATENCY_MS), 0.0);
        // A rate 10 % apart.
        assert_eq!(numeric_magnitude(50_000.0, 55_000.0, RATE_PER_S), 0.0);
        assert!(
            score(
                CPU_PROFILE.value,
                numeric_magnitude(41.0, 43.0, UTIL_PCT),
                true
            ) < NOISE_SCORE
        );
    }

    #[test]
    fn real_changes_pass_the_floor() {
        // S4: %soft 5 → 100 on the busiest CPU.
        let m = numeric_magnitude(5.0, 100.0, UTIL_PCT);
        assert!((m - 0.95).abs() < 1e-9);
        assert!(score(CPU_PROFILE.value, m, false) >= NOISE_SCORE);
        // Latency 3 → 12 ms.
        assert!(numeric_magnitude(3.0, 12.0, LATENCY_MS) > 0.7);
        // A small absolute change on a tiny base stays noise (0.5 → 1.5 % iowait).
        assert_eq!(numeric_magnitude(0.5, 1.5, UTIL_PCT), 0.0);
    }

    #[test]
    fn link_boosts_and_score_rounds() {
        assert_eq!(score(80.0, 1.0, false), 80.0);
        assert_eq!(score(80.0, 1.0, true), 120.0);
        assert_eq!(score(10.0, 0.0, true), 0.0);
        assert_eq!(score(35.0, 0.75, false), 26.3);
    }

    #[test]
    fn weights_are_unique_and_ordered_for_the_cases() {
        let mut ids: Vec<&str> = WEIGHTS.iter().map(|w| w.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), WEIGHTS.len());
        // S2: process with connections > JDK > thread pools > sysctl, ulimit.
        const {
            assert!(PROCESS_WITH_CONNECTIONS.value > JVM_RUNTIME.value);
            assert!(JVM_RUNTIME.value > JVM_THREAD_POOL.value);
            assert!(JVM_THREAD_POOL.value > 20.0 && SYSCTL.value < 20.0 && ULIMIT.value < 20.0);
        }
        // S4: tainting module > NIC driver, firmware, IRQ spread, even when those are linked.
        for w in [&NIC_DRIVER, &NIC_FIRMWARE, &IRQ_SPREAD, &NIC_QUEUES] {
            assert!(MODULE_TAINTING.value > w.value * LINK_BOOST, "{}", w.id);
        }
        for w in WEIGHTS {
            assert!(w.value >= NOISE_SCORE && w.value <= 100.0, "{}", w.id);
        }
    }
}
