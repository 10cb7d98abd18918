//! `/proc/softirqs` parser against real snapshots (corpus, see `fixtures/PROVENANCE.md`, and two
//! captures one second apart from the development machine).

use crate::common::{fixture, insert_line};
use parsers::proc::softirqs::{self, Softirqs};

/// Softirq types of Linux ≥ 4.x, in kernel order.
const SOFTIRQ_TYPES: [&str; 10] = [
    "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
];

fn parse_clean(rel: &str) -> Softirqs {
    let parsed = softirqs::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

fn names(s: &Softirqs) -> Vec<&str> {
    s.rows.iter().map(|r| r.name.as_str()).collect()
}

#[test]
fn two_cpu_vm_hotsos() {
    let s = parse_clean("proc-softirqs/hotsos__proc-softirqs-2cpu-vm.txt");
    assert_eq!(s.cpus, [0, 1]);
    assert_eq!(names(&s), SOFTIRQ_TYPES);
    assert_eq!(s.count("TIMER", 0), Some(187_596));
    assert_eq!(s.count("TIMER", 1), Some(191_822));
    assert_eq!(s.count("HI", 0), Some(0));
    assert_eq!(s.count("HI", 1), Some(1));
    assert_eq!(s.row("TIMER").unwrap().line, 3);
}

#[test]
fn two_cpu_node_exporter() {
    let s = parse_clean("proc-softirqs/node_exporter__proc-softirqs-2cpu.txt");
    let cpu0: Vec<u64> = SOFTIRQ_TYPES
        .iter()
        .map(|t| s.count(t, 0).unwrap())
        .collect();
    assert_eq!(
        cpu0,
        [7, 424_191, 2301, 43_066, 23_776, 0, 372, 378_895, 40, 155_929]
    );
}

#[test]
fn header_of_128_possible_cpus_with_2_online() {
    let s = parse_clean("proc-softirqs/jc__jc-proc-softirqs-128cpu.txt");
    assert_eq!(s.cpus, (0..128).collect::<Vec<u32>>());
    assert_eq!(s.rows.len(), 10);
    assert!(s.rows.iter().all(|r| r.counts.len() == 128));
    assert_eq!(s.count("HI", 0), Some(1));
    assert_eq!(s.count("HI", 1), Some(34_056));
    assert_eq!(s.count("TIMER", 0), Some(322_970));
    assert_eq!(s.count("TIMER", 1), Some(888_166));
    assert_eq!(s.count("NET_RX", 0), Some(61));
    assert_eq!(s.count("NET_RX", 1), Some(128_016));
    assert_eq!(s.count("RCU", 1), Some(352_625));
    assert!(s.rows.iter().all(|r| r.counts[2..].iter().all(|&c| c == 0)));
}

#[test]
fn rows_shorter_than_the_header_keep_what_is_there() {
    // Derived: the 128-column file with the NET_RX row cut after 5 counters.
    let text = fixture("proc-softirqs/jc__jc-proc-softirqs-128cpu.txt");
    let mut out = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("NET_RX:") {
            out.extend(
                line.split_ascii_whitespace()
                    .take(6)
                    .map(|t| format!(" {t}")),
            );
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    let parsed = softirqs::parse(&out).unwrap();
    assert_eq!(parsed.issues.len(), 1);
    assert_eq!(parsed.issues[0].line, 5);
    assert!(parsed.issues[0].message.contains("expected 128 counters"));
    let s = parsed.value;
    assert_eq!(s.row("NET_RX").unwrap().counts.len(), 5);
    assert_eq!(s.count("NET_RX", 1), Some(128_016));
    assert_eq!(s.count("NET_RX", 100), None);
    assert_eq!(s.count("RCU", 100), Some(0));
}

#[test]
fn captured_snapshots_give_rates() {
    let before = parse_clean("captured/softirqs-1.txt");
    let after = parse_clean("captured/softirqs-2.txt");
    assert_eq!(before.cpus, [0, 1]);
    assert_eq!(names(&before), SOFTIRQ_TYPES);
    assert_eq!(before.count("NET_RX", 1), Some(3790));
    assert_eq!(before.count("BLOCK", 1), Some(69_926));
    // The captures are about one second apart (`sleep 1`).
    let rates = before.rates_to(&after, 1.0);
    assert_eq!(rates.len(), 10);
    let timer = rates.iter().find(|r| r.name == "TIMER").unwrap();
    assert_eq!(timer.per_cpu.len(), 2);
    for &(cpu, rate) in &timer.per_cpu {
        let delta = after.count("TIMER", cpu).unwrap() - before.count("TIMER", cpu).unwrap();
        assert_eq!(rate, delta as f64);
    }
    assert!(timer.per_cpu.iter().any(|&(_, r)| r > 0.0), "timers tick");
    // Backwards (swapped snapshots): no rate for counters that decreased.
    let backwards = after.rates_to(&before, 1.0);
    let timer_back = backwards.iter().find(|r| r.name == "TIMER").unwrap();
    for &(cpu, rate) in &timer_back.per_cpu {
        assert_eq!(rate, 0.0);
        assert_eq!(after.count("TIMER", cpu), before.count("TIMER", cpu));
    }
    assert!(timer_back.per_cpu.len() < timer.per_cpu.len());
}

#[test]
fn garbage_line_in_the_middle() {
    let clean = fixture("proc-softirqs/node_exporter__proc-softirqs-2cpu.txt");
    let text = insert_line(&clean, 4, "NET_TX:  12 not-a-number");
    let parsed = softirqs::parse(&text).unwrap();
    assert_eq!(parsed.issues.len(), 1);
    assert_eq!(parsed.issues[0].line, 4);
    assert!(parsed.issues[0].message.contains("expected a counter"));
    assert_eq!(parsed.value.rows.len(), 10);
    assert_eq!(parsed.value.row("NET_TX").unwrap().line, 5);

    let text = insert_line(&clean, 3, "no colon here");
    let parsed = softirqs::parse(&text).unwrap();
    assert_eq!(parsed.issues[0].line, 3);
    assert!(parsed.issues[0].message.contains("expected `NAME: count"));
}

#[test]
fn unusable_inputs() {
    assert!(softirqs::parse("")
        .unwrap_err()
        .to_string()
        .contains("empty"));
    let err = softirqs::parse("HI: 1 2\n").unwrap_err();
    assert!(err.to_string().contains("CPU0"), "{err}");
    let err = softirqs::parse("   CPU0   CPU1\n").unwrap_err();
    assert!(err.to_string().contains("no `NAME: count"), "{err}");
}
