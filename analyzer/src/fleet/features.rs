//! One host's facts flattened into named features the fleet can line up: numbers measured over
//! the window (utilisation, rates, latencies, connection and thread counts) and categorical
//! settings (kernel release, JDK, module set, sysctl values, NIC driver and queue count …).
//!
//! In: [`HostFacts`] and findings. Out: [`Features`]. Feature names are stable strings
//! (`cpu: mean %soft`, `module: resguard_linux`, `sysctl: net.core.somaxconn`). Names of the form
//! `family: member` belong to a set family ([`SET_FAMILIES`]): a host that has evidence for the
//! family but not the member has the value `absent` (a module not loaded), where any other
//! missing feature is simply unknown, and so is a member the host could not read
//! ([`Features::unknown`]: a sysctl key refused to an unprivileged `sysctl -a`).

use crate::diff::score::{self, Floor, Weight};
use crate::diff::{kernel, process, sysctl};
use crate::evidence::Cited;
use crate::facts::HostFacts;
use crate::rules::Finding;
use std::collections::{BTreeMap, BTreeSet};

/// Families whose members are compared as present/absent on every host with the family's
/// evidence.
pub const SET_FAMILIES: &[&str] = &[
    "module",
    "process",
    "sysctl",
    "ulimit",
    "boot parameter",
    "finding",
];

/// Value of a set member missing on a host that has the family's evidence.
pub const ABSENT: &str = "absent";

/// A measured number.
#[derive(Debug, Clone)]
pub struct Num {
    /// The value.
    pub value: f64,
    /// Unit for display.
    pub unit: &'static str,
    /// Kind of difference it is.
    pub weight: &'static Weight,
    /// Noise floor.
    pub floor: Floor,
    /// Where it was read: artifact and lines.
    pub cite: Option<(String, Vec<usize>)>,
}

/// A categorical value.
#[derive(Debug, Clone)]
pub struct Cat {
    /// The value as displayed.
    pub value: String,
    /// Kind of difference it is.
    pub weight: &'static Weight,
    /// Overrides the kind's weight (a tainting module, a sysctl known to matter).
    pub weight_value: Option<f64>,
    /// Where it was read.
    pub cite: Option<(String, Vec<usize>)>,
}

/// A host's features.
#[derive(Debug, Clone, Default)]
pub struct Features {
    /// Measured numbers by name.
    pub numeric: BTreeMap<String, Num>,
    /// Categorical values by name.
    pub categorical: BTreeMap<String, Cat>,
    /// Set families this host has evidence for.
    pub families: BTreeSet<&'static str>,
    /// Members of a set family whose value this host could not read (`sysctl: kernel.cad_pid`
    /// denied to an unprivileged `sysctl -a`): unknown here, never `absent`.
    pub unknown: BTreeSet<String>,
}

fn cite<T>(c: &Cited<T>) -> Option<(String, Vec<usize>)> {
    (!c.artifact.is_empty()).then(|| (c.artifact.clone(), c.lines.clone()))
}

impl Features {
    fn num(
        &mut self,
        name: String,
        value: f64,
        unit: &'static str,
        w: &'static Weight,
        floor: Floor,
        c: Option<(String, Vec<usize>)>,
    ) {
        if value.is_finite() {
            self.numeric.insert(
                name,
                Num {
                    value,
                    unit,
                    weight: w,
                    floor,
                    cite: c,
                },
            );
        }
    }

    fn cat(
        &mut self,
        name: String,
        value: String,
        w: &'static Weight,
        weight_value: Option<f64>,
        c: Option<(String, Vec<usize>)>,
    ) {
        self.categorical.insert(
            name,
            Cat {
                value,
                weight: w,
                weight_value,
                cite: c,
            },
        );
    }
}

/// Extracts the features of one host.
pub fn extract(f: &HostFacts, findings: &[Finding]) -> Features {
    let mut x = Features::default();
    host(f, &mut x);
    kernel_and_modules(f, &mut x);
    processes(f, &mut x);
    jvms(f, &mut x);
    nics(f, &mut x);
    utilisation(f, &mut x);
    memory_time(f, &mut x);
    x.families.insert("finding");
    let mut worst: BTreeMap<&str, &Finding> = BTreeMap::new();
    for r in findings {
        let e = worst.entry(r.rule_id).or_insert(r);
        if r.severity > e.severity {
            *e = r;
        }
    }
    for (id, r) in worst {
        let e = r
            .evidence
            .first()
            .map(|e| (e.artifact.clone(), e.lines.clone()));
        let m = crate::diff::findings::severity_magnitude(r.severity);
        x.cat(
            format!("finding: {id}"),
            r.severity.label().to_string(),
            &score::FINDING,
            Some(score::FINDING.value * m),
            e,
        );
    }
    x
}

fn host(f: &HostFacts, x: &mut Features) {
    if let Some(r) = &f.identity.kernel_release {
        let src = f
            .identity
            .sources
            .iter()
            .find(|s| s.contains("uname"))
            .map(|s| (s.clone(), vec![1]));
        x.cat(
            "kernel release".into(),
            r.clone(),
            &score::KERNEL_RELEASE,
            None,
            src,
        );
    }
    if let Some(o) = &f.identity.os {
        x.cat(
            "operating system".into(),
            o.clone(),
            &score::PLATFORM,
            None,
            None,
        );
    }
    if let Some(c) = f.identity.cpus {
        x.cat(
            "logical CPUs".into(),
            c.to_string(),
            &score::CPU_COUNT,
            None,
            None,
        );
    }
    if let Some(m) = &f.platform.cpu_model {
        x.cat(
            "CPU model".into(),
            m.value.clone(),
            &score::CPU_MODEL,
            None,
            cite(m),
        );
    }
    if let Some(v) = &f.kernel.virt {
        x.cat(
            "virtualization".into(),
            v.value.clone(),
            &score::PLATFORM,
            None,
            cite(v),
        );
    }
    if let Some(m) = &f.memory.mem_total_kib {
        // RAM as reported differs by a few MiB between identical machines: GiB, rounded.
        let gib = (m.value as f64 / 1_048_576.0).round();
        x.cat(
            "RAM (GiB)".into(),
            format!("{gib}"),
            &score::MEMORY_SIZE,
            None,
            cite(m),
        );
    }
}

fn kernel_and_modules(f: &HostFacts, x: &mut Features) {
    if let Some(t) = &f.kernel.taint {
        let v = if t.value.1.is_empty() {
            "not tainted".to_string()
        } else {
            t.value.1.clone()
        };
        x.cat(
            "kernel taint".into(),
            v,
            &score::KERNEL_TAINT,
            None,
            cite(t),
        );
    }
    if let Some(list) = f.modules.get() {
        let src = &list.artifact;
        x.families.insert("module");
        for m in list.iter() {
            let (v, w, wv) = match &m.taint {
                Some(t) => (format!("loaded ({t})"), &score::MODULE_TAINTING, None),
                None => ("loaded".to_string(), &score::MODULE_ONE_SIDE, None),
            };
            x.cat(
                format!("module: {}", m.name),
                v,
                w,
                wv,
                Some((src.clone(), vec![m.line])),
            );
        }
    }
    if !f.kernel.sysctl.is_empty() {
        x.families.insert("sysctl");
        x.unknown.extend(
            f.kernel
                .sysctl_unreadable
                .keys()
                .map(|k| format!("sysctl: {k}")),
        );
        for (k, c) in &f.kernel.sysctl {
            if sysctl::VOLATILE
                .iter()
                .any(|v| k == v || (v.ends_with('.') && k.starts_with(v)))
                || sysctl::entity_of(k).is_some()
                || matches!(
                    k.as_str(),
                    "kernel.tainted" | "kernel.osrelease" | "kernel.version"
                )
            {
                continue;
            }
            let known = sysctl::KNOWN.iter().any(|(key, _)| key == k);
            let v = c.value.split_whitespace().collect::<Vec<_>>().join(" ");
            x.cat(
                format!("sysctl: {k}"),
                v,
                &score::SYSCTL,
                known.then_some(20.0),
                cite(c),
            );
        }
    }
    if let Some(c) = &f.platform.cmdline {
        x.families.insert("boot parameter");
        let mut by: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for w in &c.value {
            let (k, v) = w.split_once('=').unwrap_or((w.as_str(), ""));
            by.entry(k).or_default().push(v);
        }
        for (k, v) in by {
            if kernel::NOISE_PARAMS.contains(&k) || k.starts_with("rd.") {
                continue;
            }
            let known = kernel::KNOWN_PARAMS.contains(&k);
            let shown = if v.iter().all(|s| s.is_empty()) {
                "set".to_string()
            } else {
                v.join(" ")
            };
            x.cat(
                format!("boot parameter: {k}"),
                shown,
                &score::KERNEL_CMDLINE,
                known.then_some(40.0),
                cite(c),
            );
        }
    }
    if !f.limits.shell.is_empty() {
        x.families.insert("ulimit");
        for (k, c) in &f.limits.shell {
            let known = crate::diff::limits::KNOWN.contains(&k.as_str());
            x.cat(
                format!("ulimit: {} ({k})", c.value.name),
                c.value.display(),
                &score::ULIMIT,
                known.then_some(18.0),
                cite(c),
            );
        }
    }
}

fn processes(f: &HostFacts, x: &mut Features) {
    let p = &f.processes;
    if p.list.is_empty() {
        return;
    }
    x.families.insert("process");
    let mut seen = BTreeSet::new();
    for c in &p.list {
        let comm = c.value.comm.as_str();
        let a = c.value.args.trim();
        if (a.starts_with('[') && a.ends_with(']'))
            || process::TRANSIENT.contains(&comm)
            || !seen.insert(comm)
        {
            continue;
        }
        let conns = p.connections.iter().find(|k| k.value.comm == comm);
        // A command without connections started minutes before the collection is passing by.
        let owns = conns.is_some_and(|k| k.value.established > 0);
        if !owns && c.value.elapsed_s.is_some_and(|e| e < process::TRANSIENT_S) {
            continue;
        }
        let w = match conns.filter(|k| k.value.established > 0) {
            Some(_) => &score::PROCESS_WITH_CONNECTIONS,
            None => &score::PROCESS_ONE_SIDE,
        };
        // Presence is the categorical value; the connection count is compared as a number.
        x.cat(
            format!("process: {comm}"),
            "running".into(),
            w,
            None,
            cite(c),
        );
        if let Some(k) = conns {
            x.num(
                format!("connections of {comm}"),
                k.value.established as f64,
                "ESTABLISHED",
                &score::CONNECTIONS,
                score::CONNECTION_COUNT,
                cite(k),
            );
        }
    }
}

fn jvms(f: &HostFacts, x: &mut Features) {
    for j in &f.jvms {
        let key = j
            .role
            .clone()
            .or_else(|| j.main.clone())
            .unwrap_or_else(|| "JVM".into());
        if let (Some(v), Some(ver)) = (&j.vendor, &j.version) {
            x.cat(
                format!("{key}: JDK"),
                format!("{} {}", v.value, ver.value),
                &score::JVM_RUNTIME,
                None,
                cite(v),
            );
        }
        if let Some(c) = &j.collector {
            x.cat(
                format!("{key}: collector"),
                c.value.clone(),
                &score::JVM_COLLECTOR,
                None,
                cite(c),
            );
        }
        if let Some(h) = &j.heap_max_bytes {
            x.cat(
                format!("{key}: maximum heap (MiB)"),
                (h.value / 1_048_576).to_string(),
                &score::JVM_HEAP,
                None,
                cite(h),
            );
        }
        if let Some(g) = &j.gc {
            if let Some(p) = g.pause_share_pct {
                x.num(
                    format!("{key}: time in GC pauses"),
                    p,
                    "%",
                    &score::JVM_GC,
                    score::PAUSE_PCT,
                    Some((g.artifact.clone(), g.span_lines.clone())),
                );
            }
        }
        for pool in &j.pools {
            x.num(
                format!("{key}: threads {}", pool.value.pool.trim_end()),
                pool.value.threads as f64,
                "threads",
                &score::JVM_THREAD_POOL,
                score::COUNT,
                cite(pool),
            );
        }
    }
}

fn nics(f: &HostFacts, x: &mut Features) {
    for n in &f.nics {
        if !n.slaves.is_empty() || (n.driver.is_none() && n.channels.is_none()) {
            continue;
        }
        let name = &n.name;
        if let Some(d) = &n.driver {
            x.cat(
                format!("{name}: driver"),
                d.value.clone(),
                &score::NIC_DRIVER,
                None,
                cite(d),
            );
        }
        if let Some(d) = &n.firmware {
            let v = if d.value.trim().is_empty() {
                "(none)".to_string()
            } else {
                d.value.trim().to_string()
            };
            x.cat(
                format!("{name}: firmware"),
                v,
                &score::NIC_FIRMWARE,
                None,
                cite(d),
            );
        }
        if let Some(c) = &n.channels {
            if let Some(q) = c.value.combined.or(c.value.rx) {
                x.cat(
                    format!("{name}: queues"),
                    q.to_string(),
                    &score::NIC_QUEUES,
                    None,
                    cite(c),
                );
            }
        }
        if let Some(r) = &n.rings {
            if let Some(v) = r.value.rx {
                x.cat(
                    format!("{name}: RX ring"),
                    v.to_string(),
                    &score::NIC_RINGS,
                    None,
                    cite(r),
                );
            }
        }
        if let Some(m) = &n.mtu {
            x.cat(
                format!("{name}: MTU"),
                m.value.to_string(),
                &score::NIC_MTU,
                None,
                cite(m),
            );
        }
        // `ethtool -k` lists some `[fixed]` features off on every NIC: an empty list means it
        // was not collected.
        if !n.offloads_off.is_empty() {
            let off: Vec<&str> = n
                .offloads_off
                .iter()
                .filter(|o| !o.value.1)
                .map(|o| o.value.0.as_str())
                .collect();
            let v = if off.is_empty() {
                "none off".to_string()
            } else {
                off.join(", ")
            };
            x.cat(
                format!("{name}: offloads off"),
                v,
                &score::NIC_OFFLOAD,
                None,
                n.offloads_off.first().and_then(cite),
            );
        }
        if !n.irqs.is_empty() {
            let busy = n.busy_irq_cpus().len();
            let c = n
                .irqs
                .first()
                .and_then(|i| i.evidence.first())
                .and_then(cite);
            x.num(
                format!("{name}: CPUs taking its interrupts"),
                busy as f64,
                "CPUs",
                &score::IRQ_SPREAD,
                score::SETTING,
                c,
            );
        }
    }
}

fn utilisation(f: &HostFacts, x: &mut Features) {
    if !f.cpus.is_empty() {
        let art = f.cpus[0].artifact.clone();
        type Get = fn(&crate::facts::CpuSample) -> Option<f64>;
        let metrics: [(&str, Get); 5] = [
            ("%usr", |s| s.user_pct),
            ("%sys", |s| s.sys_pct),
            ("%iowait", |s| s.iowait_pct),
            ("%soft", |s| s.soft_pct),
            ("%steal", |s| s.steal_pct),
        ];
        for (name, get) in metrics {
            let v: Vec<f64> = f
                .cpus
                .iter()
                .flat_map(|c| c.samples.iter().filter_map(get))
                .collect();
            if !v.is_empty() {
                let m = v.iter().sum::<f64>() / v.len() as f64;
                x.num(
                    format!("cpu: mean {name}"),
                    m,
                    "%",
                    &score::CPU_PROFILE,
                    score::UTIL_PCT,
                    Some((art.clone(), vec![])),
                );
            }
        }
        let busiest = f
            .cpus
            .iter()
            .filter_map(|c| {
                let v: Vec<f64> = c.samples.iter().filter_map(|s| s.soft_pct).collect();
                (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
            })
            .fold(None, |a: Option<f64>, b| Some(a.map_or(b, |a| a.max(b))));
        if let Some(b) = busiest {
            x.num(
                "cpu: busiest CPU's mean %soft".into(),
                b,
                "%",
                &score::CPU_PROFILE,
                score::UTIL_PCT,
                Some((art, vec![])),
            );
        }
    }
    if let Some(s) = f.softirqs.get() {
        for r in &s.rates {
            let total: f64 = r.per_cpu.iter().map(|x| x.1).sum();
            x.num(
                format!("softirq: {} per second", r.name),
                total,
                "/s",
                &score::SOFTIRQ_RATE,
                score::RATE_PER_S,
                Some((s.last.clone(), vec![1])),
            );
        }
    }
    for d in &f.disks {
        if d.samples.iter().all(|s| s.iops.unwrap_or(0.0) == 0.0) {
            continue;
        }
        let mean = |get: fn(&crate::facts::DiskSample) -> Option<f64>| {
            let v: Vec<f64> = d.samples.iter().filter_map(get).collect();
            (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
        };
        if let Some(a) = mean(|s| s.await_ms) {
            x.num(
                format!("{}: mean await", d.device),
                a,
                "ms",
                &score::DISK,
                score::LATENCY_MS,
                Some((d.artifact.clone(), vec![])),
            );
        }
        if let Some(u) = mean(|s| s.util_pct) {
            x.num(
                format!("{}: mean %util", d.device),
                u,
                "%",
                &score::DISK,
                score::UTIL_PCT,
                Some((d.artifact.clone(), vec![])),
            );
        }
    }
}

fn memory_time(f: &HostFacts, x: &mut Features) {
    let m = &f.memory;
    if let Some(s) = &m.swap_total_kib {
        x.cat(
            "swap configured".into(),
            if s.value > 0 { "yes" } else { "no" }.into(),
            &score::SWAP,
            None,
            cite(s),
        );
    }
    if let Some(s) = &m.swap_used_kib {
        x.num(
            "swap in use".into(),
            s.value as f64 / 1024.0,
            "MiB",
            &score::SWAP,
            score::MEMORY_MIB,
            cite(s),
        );
    }
    for (name, v) in [
        ("swap-in rate", &m.swap_in_kib_per_s),
        ("swap-out rate", &m.swap_out_kib_per_s),
    ] {
        if let Some(v) = v {
            x.num(
                name.into(),
                v.value,
                "KiB/s",
                &score::SWAP,
                score::SWAP_RATE,
                cite(v),
            );
        }
    }
    if m.balloon_driver.is_some() || m.balloon_mib.is_some() {
        if let Some(b) = &m.balloon_mib {
            x.num(
                "balloon size".into(),
                b.value as f64,
                "MiB",
                &score::BALLOON,
                score::MEMORY_MIB,
                cite(b),
            );
        }
    }
    let t = &f.timesync;
    if t.evidence_present {
        let mut d: Vec<&str> = t.daemons.iter().map(|d| d.value.as_str()).collect();
        d.sort_unstable();
        d.dedup();
        x.cat(
            "time-sync daemons".into(),
            if d.is_empty() {
                "none".into()
            } else {
                d.join(", ")
            },
            &score::TIME_SYNC,
            None,
            t.daemons.first().and_then(cite),
        );
        if let Some(o) = &t.offset_s {
            x.num(
                "clock offset (absolute)".into(),
                o.value.abs(),
                "s",
                &score::TIME_SYNC,
                score::OFFSET_S,
                cite(o),
            );
        }
    }
}
