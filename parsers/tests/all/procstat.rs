//! `/proc/stat` parser against the shared corpus (see `fixtures/PROVENANCE.md`) and two
//! snapshots captured one second apart.

use crate::common;
use crate::common::{
    all_fixtures, assert_close, fixture, fixture_path, head, insert_line, XorShift,
};
use parsers::proc::{
    self,
    stat::{CpuTimes, ProcStat, StatSnapshot},
};
use parsers::Sniff;
use std::time::{Duration, Instant};

fn parse_clean(rel: &str) -> ProcStat {
    let parsed = proc::stat::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

fn one(rel: &str) -> StatSnapshot {
    let p = parse_clean(rel);
    assert_eq!(p.snapshots.len(), 1, "{rel}");
    p.snapshots.into_iter().next().unwrap()
}

/// Utilisation since boot: from all-zero counters to `t`.
fn since_boot(t: &CpuTimes) -> parsers::proc::stat::CpuUtil {
    let zero = CpuTimes {
        user: 0,
        nice: 0,
        system: 0,
        idle: 0,
        iowait: t.iowait.map(|_| 0),
        irq: t.irq.map(|_| 0),
        softirq: t.softirq.map(|_| 0),
        steal: t.steal.map(|_| 0),
        guest: t.guest.map(|_| 0),
        guest_nice: t.guest_nice.map(|_| 0),
        ..t.clone()
    };
    zero.utilisation_to(t).unwrap()
}

#[test]
fn ubuntu_2cpu() {
    let s = one("proc-stat/hotsos__proc-stat-ubuntu2004-2cpu.txt");
    assert_eq!(s.cpus.len(), 2);
    let t = s.total.as_ref().unwrap();
    assert_eq!((t.user, t.idle, t.steal), (69486, 200_523, Some(230)));
    assert_eq!(s.intr_total, Some(5_717_349));
    assert_eq!(s.ctxt, Some(11_955_301));
    assert_eq!(s.btime, Some(1_644_605_886));
    assert_eq!(s.procs_running, Some(5));
    assert_eq!(s.softirq_total, Some(1_914_756));
    assert_eq!(s.softirq_count("NET_RX"), Some(412_907));
}

#[test]
fn rhel_multi_cpu_with_steal() {
    let s = one("proc-stat/insights-core__proc-stat-rhel-multi-cpu.txt");
    assert_eq!(s.btime, Some(1_542_179_825));
    assert_eq!(s.softirq_total, Some(11_867_930));
    assert_eq!(s.ctxt, Some(17_852_681));
    assert_eq!(s.intr_total, Some(21_359_029));
    assert_eq!(s.processes, Some(19_212));
    assert_eq!(s.procs_running, Some(1));
    assert_eq!(s.procs_blocked, Some(0));
    let t = s.total.as_ref().unwrap();
    assert_eq!(t.steal, Some(18_738_206));
    assert_eq!(s.cpus.len(), 8);
    // insights-core's cpu_percentage '6.73%' is the busy share since boot: 100 − %idle.
    let u = since_boot(t);
    assert!(
        (100.0 - u.idle_pct - 6.73).abs() < 0.005,
        "{}",
        100.0 - u.idle_pct
    );
    let sum = u.usr_pct
        + u.nice_pct
        + u.sys_pct
        + u.iowait_pct
        + u.irq_pct
        + u.soft_pct
        + u.steal_pct
        + u.guest_pct
        + u.gnice_pct
        + u.idle_pct;
    assert!((sum - 100.0).abs() < 1e-9);
}

#[test]
fn two_cpus_with_guest_columns() {
    let s = one("proc-stat/jc__jc-proc-stat-2cpu.txt");
    let t = s.total.as_ref().unwrap();
    assert_eq!(t.line, 1);
    assert_eq!(
        (t.user, t.nice, t.system, t.idle),
        (6002, 152, 8398, 3_444_436)
    );
    assert_eq!(
        (t.iowait, t.irq, t.softirq),
        (Some(448), Some(0), Some(1174))
    );
    assert_eq!((t.guest, t.guest_nice), (Some(0), Some(0)));
    assert_eq!(s.cpu(1).unwrap().softirq, Some(953));
    assert_eq!(s.cpu(1).unwrap().line, 3);
    assert_eq!(s.ctxt, Some(4_622_716));
    assert_eq!(s.btime, Some(1_662_154_781));
    assert_eq!(s.processes, Some(9831));
    assert_eq!(s.procs_running, Some(1));
    assert_eq!(s.softirq_total, Some(3_478_985));
    assert_eq!(
        s.intr.len(),
        1448,
        "one count per IRQ number after the total"
    );
}

#[test]
fn kernel_2_6_seven_columns_two_snapshots() {
    // Two readings from 2.6-era kernels one after the other (1 CPU, then 8 CPUs): 7 cpu
    // columns, a `preempt` line.
    let p = parse_clean("proc-stat/jc__jc-proc-stat-old-kernel-7cols.txt");
    assert_eq!(p.snapshots.len(), 2);
    let s = &p.snapshots[0];
    let t = s.total.as_ref().unwrap();
    assert_eq!(
        (t.user, t.nice, t.system, t.idle),
        (259_246, 7001, 60190, 34_250_993)
    );
    assert_eq!(
        (t.iowait, t.irq, t.softirq),
        (Some(137_517), Some(772), Some(0))
    );
    assert_eq!((t.steal, t.guest, t.guest_nice), (None, None, None));
    assert_eq!(s.btime, Some(1_093_631_447));
    assert_eq!(s.other.get("preempt"), Some(&vec![5_651_840]));
    assert_eq!(s.softirq_total, None, "no softirq line on 2.6.x");
    let s2 = &p.snapshots[1];
    assert_eq!(s2.line, 10);
    assert_eq!(s2.cpus.len(), 8);
    assert_eq!(s2.btime, Some(1_078_711_415));
    assert_eq!(p.first().unwrap().btime, Some(1_093_631_447));
}

#[test]
fn eight_cpus_node_exporter() {
    // node_exporter divides by USER_HZ = 100: user=444.90 s is 44490 ticks.
    let s = one("proc-stat/node_exporter__proc-stat-8cpu.txt");
    let c0 = s.cpu(0).unwrap();
    assert_eq!(
        (c0.user, c0.nice, c0.system, c0.idle),
        (44490, 19, 21045, 1_087_069)
    );
    assert_eq!(
        (c0.iowait, c0.irq, c0.softirq, c0.steal),
        (Some(220), Some(1), Some(3410), Some(0))
    );
    assert_eq!(s.ctxt, Some(38_014_093));
    assert_eq!(s.btime, Some(1_418_183_276));
    assert_eq!(s.processes, Some(26442));
    let t = s.total.as_ref().unwrap();
    assert_eq!((t.guest, t.guest_nice), (Some(44), Some(36)));
}

#[test]
fn captured_snapshots_utilisation() {
    let a = one("captured-a/proc-stat-1.txt");
    let b = one("captured-a/proc-stat-2.txt");
    let u = a.utilisation_to(&b);
    assert_eq!(u.len(), 3, "all CPUs, then cpu0 and cpu1");
    assert_eq!(u[0].cpu, None);
    assert_eq!((u[1].cpu, u[2].cpu), (Some(0), Some(1)));
    let all = &u[0];
    // 140056-139867 user, 58724-58704 system, no idle tick: the machine was busy building.
    assert_eq!(all.ticks, 189 + 20);
    assert_close(Some(all.usr_pct), 189.0 * 100.0 / 209.0);
    assert_close(Some(all.sys_pct), 20.0 * 100.0 / 209.0);
    assert_close(Some(all.idle_pct), 0.0);
    assert_eq!(a.softirq.len(), 10);
}

#[test]
fn damaged_inputs() {
    let text = fixture("proc-stat/jc__jc-proc-stat-2cpu.txt");
    let text = insert_line(&text, 3, "cpuX garbage here");
    let cut = &text[..text.find("btime").unwrap() + 8];
    let p = proc::stat::parse(cut).unwrap();
    let s = &p.value.snapshots[0];
    assert_eq!(s.cpus.len(), 2);
    assert_eq!(s.btime, Some(16), "the cut value, as printed");
    assert_eq!(p.issues.len(), 1, "{:?}", p.issues);
    assert_eq!(p.issues[0].line, 3);
    // A cpu line with too few times, an unknown numeric key kept, a bad key line.
    let p = proc::stat::parse("cpu 1 2 3 4\ncpu0 1 2\nnewkey 5 6\nbad-key! 1\n").unwrap();
    assert_eq!(p.value.snapshots[0].cpus.len(), 0);
    assert_eq!(p.value.snapshots[0].other.get("newkey"), Some(&vec![5, 6]));
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, [2, 4]);
    assert!(proc::stat::parse("intr 1 2 3\nctxt 5\n").is_err());
}

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    let own = |rel: &str| rel.starts_with("proc-stat/") || rel.starts_with("captured-a/proc-stat");
    let mut owned = 0;
    let mut failures = Vec::new();
    for rel in all_fixtures() {
        let Ok(text) = std::fs::read_to_string(fixture_path(&rel)) else {
            continue;
        };
        let want = if own(&rel) {
            owned += 1;
            Sniff::Yes
        } else {
            Sniff::No
        };
        for sample in [head(&text, common::SNIFF_HEAD_BYTES), text.as_str()] {
            let got = proc::stat::sniff(sample);
            if got != want {
                failures.push(format!("{rel} ({} bytes): {got:?}", sample.len()));
            }
        }
    }
    assert_eq!(owned, 5 + 2);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hostile_inputs_never_panic() {
    for t in ["", "\n", "  \n\t\n", "\u{feff}"] {
        assert!(proc::stat::parse(t).is_err());
    }
    let mut rng = XorShift(0x2718_2818_2845_9045);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(proc::stat::parse(&text).is_err());
        assert_eq!(proc::stat::sniff(&text), Sniff::No);
    }
    let start = Instant::now();
    // An intr line of 100 000 IRQs; a CPU numbered 999999.
    let intr: String = " 1".repeat(100_000);
    let text = format!("cpu 1 2 3 4\ncpu999999 1 2 3 4\nintr 100000{intr}\n");
    let p = proc::stat::parse(&text).unwrap();
    let s = &p.value.snapshots[0];
    assert_eq!(s.intr.len(), 100_000);
    assert_eq!(s.cpus[0].cpu, Some(999_999));
    assert!(
        proc::stat::parse("cpu 1 2 3 4\ncpu4294967296 1 2 3 4\n")
            .unwrap()
            .issues
            .len()
            == 1
    );
    assert!(start.elapsed() < Duration::from_secs(20));
}
