//! Linux facts and rules end to end, on real outputs laid out as a collector bundle.
//!
//! The healthy bundle is made only of outputs captured on a real machine
//! (`parsers/tests/fixtures/captured-a`, `captured-b`; see PROVENANCE.md there). The S1-shaped
//! bundle starts from the same files and changes only the values the case is about, each change
//! named where it is made: one RX queue of four on a VMware guest with the e1000 driver, RX
//! drops, VMware Tools time sync next to chronyd with a 45 ms offset, swap in use on a JVM host.

use crate::common::fixture;
use rca::bundle::Limits;
use rca::report::Report;
use rca::rules::Severity;
use std::path::Path;

/// `(path in bundle, kind, text, start epoch)`: written with a manifest so snapshots have times.
type Entry = (&'static str, &'static str, String, f64);

fn healthy() -> Vec<Entry> {
    let t0 = 1_796_000_000.0;
    vec![
        (
            "system/uname.txt",
            "uname",
            fixture("captured/uname-a.txt"),
            t0,
        ),
        (
            "system/detect-virt.txt",
            "detect-virt",
            fixture("captured-b/systemd-detect-virt-vm.txt"),
            t0,
        ),
        (
            "system/ps.txt",
            "ps",
            fixture("captured-b/ps-eo-custom.txt"),
            t0,
        ),
        (
            "kernel/sysctl-a.txt",
            "sysctl",
            fixture("captured-b/sysctl-a-root.txt"),
            t0,
        ),
        (
            "kernel/tainted",
            "tainted",
            fixture("captured-b/proc-sys-kernel-tainted.txt"),
            t0,
        ),
        (
            "cpu/lscpu.txt",
            "lscpu",
            fixture("captured-b/lscpu.txt"),
            t0,
        ),
        (
            "mem/meminfo",
            "meminfo",
            fixture("captured-a/proc-meminfo-1.txt"),
            t0,
        ),
        (
            "sysstat/vmstat.txt",
            "vmstat",
            fixture("captured-a/vmstat-t.txt"),
            t0,
        ),
        (
            "net/ip-s-link.txt",
            "ip-link",
            fixture("captured-b/ip-s-link.txt"),
            t0,
        ),
        (
            "net/ethtool/eth0/ethtool-i.txt",
            "ethtool-i",
            fixture("captured-b/ethtool-i-virtio-eth0.txt"),
            t0,
        ),
        (
            "net/ethtool/eth0/ethtool-l.txt",
            "ethtool-l",
            fixture("captured-b/ethtool-l-virtio-eth0.txt"),
            t0,
        ),
        (
            "net/ethtool/eth0/ethtool-g.txt",
            "ethtool-g",
            fixture("captured-b/ethtool-g-virtio-eth0.txt"),
            t0,
        ),
        (
            "net/ethtool/eth0/ethtool-k.txt",
            "ethtool-k",
            fixture("captured-b/ethtool-k-virtio-eth0.txt"),
            t0,
        ),
        (
            "net/irq-affinity.tsv",
            "irq-affinity",
            fixture("captured-b/irq-affinity.txt"),
            t0,
        ),
        (
            "net/ss-tanp.end",
            "ss",
            fixture("captured-b/ss-tanp.txt"),
            t0 + 1.0,
        ),
        (
            "net/netstat-s.start",
            "netstat-s",
            fixture("captured-a/netstat-s.txt"),
            t0,
        ),
        (
            "net/netstat-s.end",
            "netstat-s",
            fixture("captured-a/netstat-s.txt"),
            t0 + 1.0,
        ),
        (
            "proc/net/dev.start",
            "net-dev",
            fixture("captured-a/proc-net-dev-1.txt"),
            t0,
        ),
        (
            "proc/net/dev.end",
            "net-dev",
            fixture("captured-a/proc-net-dev-2.txt"),
            t0 + 1.0,
        ),
        (
            "proc/interrupts.start",
            "interrupts",
            fixture("captured-a/proc-interrupts-1.txt"),
            t0,
        ),
        (
            "proc/interrupts.end",
            "interrupts",
            fixture("captured-a/proc-interrupts-2.txt"),
            t0 + 1.0,
        ),
        (
            "time/chronyc-tracking.txt",
            "chronyc-tracking",
            fixture("captured-b/chronyc-tracking-chrony4-synced.txt"),
            t0,
        ),
    ]
}

fn write_bundle(root: &Path, entries: &[Entry]) {
    let top = root.join("rca-host-20261130T000000Z");
    let mut manifest =
        String::from("# rca-manifest 1\nmeta\tstarted\t1796000000\nmeta\tended\t1796000001\n");
    for (path, kind, text, start) in entries {
        let p = top.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        manifest.push_str(&format!(
            "artifact\t{path}\t{kind}\t0\t0\t{start}\t{start}\t{}\t0\t\tcat {path}\n",
            text.len()
        ));
    }
    std::fs::write(top.join("manifest.tsv"), manifest).unwrap();
}

fn analyze(entries: &[Entry]) -> Report {
    let d = tempfile::tempdir().unwrap();
    write_bundle(d.path(), entries);
    rca::report::Report::analyze(d.path(), &Limits::default()).unwrap()
}

fn replace(entries: &mut [Entry], path: &str, f: impl Fn(&str) -> String) {
    let e = entries.iter_mut().find(|e| e.0 == path).unwrap();
    e.2 = f(&e.2);
}

#[test]
fn real_outputs_give_facts_and_every_artifact_parses() {
    let r = analyze(&healthy());
    for a in &r.artifacts {
        assert!(
            matches!(
                a.outcome,
                rca::artifacts::Outcome::Parsed | rca::artifacts::Outcome::Partial
            ),
            "{}: {:?} {:?}",
            a.path,
            a.outcome,
            a.issues
        );
    }
    let c = rca::artifacts::collect(&tempdir_with(&healthy()), &Limits::default()).unwrap();
    let f = rca::facts::HostFacts::from_collected(&c);
    let eth0 = f.nics.iter().find(|n| n.name == "eth0").expect("eth0");
    assert_eq!(eth0.driver.as_ref().unwrap().value, "virtio_net");
    assert_eq!(eth0.channels.as_ref().unwrap().value.combined, Some(1));
    assert!(
        eth0.rates.is_some(),
        "drop rates from the two /proc/net/dev snapshots"
    );
    assert_eq!(f.kernel.virt.as_ref().unwrap().value, "kvm");
    assert_eq!(f.memory.swappiness.as_ref().unwrap().value, 60);
    assert!(f.memory.mem_total_kib.is_some());
    assert!(f.timesync.offset_s.as_ref().unwrap().value.abs() < 0.001);
    assert_eq!(
        f.timesync.daemons.first().map(|d| d.value.as_str()),
        Some("chronyd")
    );
    assert!(f.processes.list.len() > 10);
    assert_eq!(f.net.somaxconn.as_ref().unwrap().value, 4096);
    assert!(f
        .net
        .listen_overflows
        .as_ref()
        .is_some_and(|c| c.value.delta == 0));
}

fn tempdir_with(entries: &[Entry]) -> std::path::PathBuf {
    let d = tempfile::tempdir().unwrap().keep();
    write_bundle(&d, entries);
    d
}

#[test]
fn a_healthy_machine_has_no_warning() {
    let r = analyze(&healthy());
    // Its vmstat was captured during a build: `r` 3, 3, 6 on 2 CPUs at 97–100 % busy, a run
    // queue above the CPU count that `cpu.run-queue` reports (the USE method's saturation).
    let loud: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.severity >= Severity::Warning && f.rule_id != "cpu.run-queue")
        .map(|f| format!("[{}] {}", f.rule_id, f.title))
        .collect();
    assert!(loud.is_empty(), "{loud:?}");
    let runq = r.findings.iter().find(|f| f.rule_id == "cpu.run-queue");
    assert_eq!(
        runq.map(|f| f.title.as_str()),
        Some("Run queue 4.0 on 2 CPU(s): CPU-saturated")
    );
    let evaluated = r
        .rules
        .iter()
        .filter(|s| !matches!(s.result, rca::rules::RuleResult::NotEvaluated { .. }))
        .count();
    assert!(
        evaluated >= 10,
        "most rules run on a full bundle: {evaluated}"
    );
}

#[test]
fn an_s1_shaped_guest_shows_network_time_and_memory_causes() {
    let mut e = healthy();
    // VMware guest (systemd-detect-virt prints the hypervisor id).
    replace(&mut e, "system/detect-virt.txt", |_| "vmware\n".into());
    // Emulated e1000 instead of virtio_net.
    replace(&mut e, "net/ethtool/eth0/ethtool-i.txt", |t| {
        t.replace("virtio_net", "e1000")
            .replace("1.0.0", "7.3.21-k8-NAPI")
    });
    // One combined queue of a possible four.
    replace(&mut e, "net/ethtool/eth0/ethtool-l.txt", |t| {
        let (max, cur) = t.split_once("Current hardware settings:").unwrap();
        format!(
            "{}Current hardware settings:{cur}",
            max.replace("Combined:\t1", "Combined:\t4")
        )
    });
    // eth0 drops 200 received packets per second over the 1 s between snapshots.
    replace(&mut e, "proc/net/dev.end", |t| {
        t.lines()
            .map(|l| {
                if l.trim_start().starts_with("eth0:") {
                    let (name, rest) = l.split_once(':').unwrap();
                    let mut f: Vec<String> = rest.split_whitespace().map(String::from).collect();
                    f[3] = (f[3].parse::<u64>().unwrap() + 200).to_string();
                    format!("{name}: {}", f.join(" "))
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    });
    // chronyd 45 ms fast, and VMware Tools periodic sync enabled beside it.
    replace(&mut e, "time/chronyc-tracking.txt", |t| {
        t.replace("0.000001321 seconds fast", "0.045000000 seconds fast")
    });
    e.push((
        "time/vmware-timesync.txt",
        "vmware-timesync",
        "Enabled\n".into(),
        1_796_000_000.0,
    ));
    // Swap in use (SwapTotal 2 GiB, 900 MiB used) with a JVM running.
    replace(&mut e, "mem/meminfo", |t| {
        t.lines()
            .map(|l| match l.split(':').next() {
                Some("SwapTotal") => "SwapTotal:       2097152 kB".to_string(),
                Some("SwapFree") => "SwapFree:        1175552 kB".to_string(),
                _ => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    });
    replace(&mut e, "system/ps.txt", |t| {
        format!("{t} 4242     1 hdfs       212 95.0 41.0 6815744 9437184  86400 Sl   java            /usr/lib/jvm/java-8/bin/java -Dproc_datanode org.apache.hadoop.hdfs.server.datanode.DataNode\n")
    });
    let r = analyze(&e);
    let ids: Vec<&str> = r
        .findings
        .iter()
        .filter(|f| f.severity >= Severity::Warning)
        .map(|f| f.rule_id)
        .collect();
    for want in [
        "nic.queues",
        "nic.emulated",
        "net.rx-drops",
        "time.two-sources",
        "mem.swap",
    ] {
        assert!(ids.contains(&want), "{want} missing from {ids:?}");
    }
    let drops = r
        .findings
        .iter()
        .find(|f| f.rule_id == "net.rx-drops")
        .unwrap();
    assert_eq!(
        drops.severity,
        Severity::Critical,
        "200/s is above the critical threshold"
    );
    assert!(drops.evidence.iter().any(|ev| ev
        .excerpt
        .iter()
        .any(|l| l.text.trim_start().starts_with("eth0:"))));
    let queues = r
        .findings
        .iter()
        .find(|f| f.rule_id == "nic.queues")
        .unwrap();
    assert!(
        queues.title.contains("1 receive queue(s) of 4"),
        "{}",
        queues.title
    );
    assert!(queues.evidence[0]
        .excerpt
        .iter()
        .any(|l| l.text.starts_with("Combined:")));
    let offset = r
        .findings
        .iter()
        .find(|f| f.rule_id == "time.offset")
        .unwrap();
    assert_eq!(
        offset.severity,
        Severity::Info,
        "45 ms is above the LAN expectation, below the warning"
    );
}

#[test]
fn cpu_series_fall_back_to_sar_then_proc_stat() {
    let t0 = 1_796_000_000.0;
    let sar = vec![(
        "sysstat/sar-u-P-ALL.txt",
        "sar",
        fixture("captured-a/sar-u-P-ALL.txt"),
        t0,
    )];
    let c = rca::artifacts::collect(&tempdir_with(&sar), &Limits::default()).unwrap();
    let f = rca::facts::HostFacts::from_collected(&c);
    assert_eq!(f.cpus.len(), 2, "{:?}", f.cpus.reason());
    assert!(f.cpus[0].samples.len() >= 2);
    assert!(f.cpus[0].artifact.ends_with("sar-u-P-ALL.txt"));
    let stat = vec![
        (
            "proc/stat.start",
            "proc-stat",
            fixture("captured-a/proc-stat-1.txt"),
            t0,
        ),
        (
            "proc/stat.end",
            "proc-stat",
            fixture("captured-a/proc-stat-2.txt"),
            t0 + 1.0,
        ),
    ];
    let c = rca::artifacts::collect(&tempdir_with(&stat), &Limits::default()).unwrap();
    let f = rca::facts::HostFacts::from_collected(&c);
    assert_eq!(f.cpus.len(), 2, "{:?}", f.cpus.reason());
    let s = &f.cpus[0].samples[0];
    let total = s.user_pct.unwrap()
        + s.sys_pct.unwrap()
        + s.iowait_pct.unwrap()
        + s.irq_pct.unwrap()
        + s.soft_pct.unwrap()
        + s.steal_pct.unwrap()
        + s.idle_pct.unwrap();
    assert!(
        (total - 100.0).abs() < 0.5,
        "shares add up to 100 %: {total}"
    );
}

#[test]
fn disk_series_fall_back_to_sar_d() {
    let sar = vec![(
        "sysstat/sar-d.txt",
        "sar",
        fixture("captured-a/sar-d.txt"),
        1_796_000_000.0,
    )];
    let c = rca::artifacts::collect(&tempdir_with(&sar), &Limits::default()).unwrap();
    let f = rca::facts::HostFacts::from_collected(&c);
    assert!(!f.disks.is_empty(), "{:?}", f.disks.reason());
    assert!(f.disks[0]
        .samples
        .iter()
        .all(|s| s.await_ms.is_some() && s.aqu_sz.is_some()));
    assert!(f.disks[0].artifact.ends_with("sar-d.txt"));
}
