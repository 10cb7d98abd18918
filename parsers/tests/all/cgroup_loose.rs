//! Loose cgroup control files (`cpu.stat`, `memory.events`, `memory.oom_control`, one-value
//! limits, `/proc/PID/cgroup`) as a customer copies them out of `/sys/fs/cgroup`, against real
//! outputs (see each fixture folder's `PROVENANCE.md`): each is recognised by its own sniffer
//! under a neutral name, by no other, and parses into the same [`Cgroup`] record the
//! collector's `cgroup.tsv` gives.

use crate::common::{fixture, head, SNIFF_HEAD_BYTES};
use parsers::kind::{self, Sniffed};
use parsers::procs::cgroup::{self, CgroupValue};
use parsers::Sniff;

const FILES: &[(&str, &str)] = &[
    ("cgroup-cpu-stat/v1-throttle-before.txt", "cgroup-cpu-stat"),
    ("cgroup-cpu-stat/v1-throttle-after.txt", "cgroup-cpu-stat"),
    ("cgroup-cpu-stat/v2-lab-1.txt", "cgroup-cpu-stat"),
    ("cgroup-cpu-stat/v2-lab-2.txt", "cgroup-cpu-stat"),
    (
        "cgroup-memory-events/v2-memorymax-512m.txt",
        "cgroup-memory-events",
    ),
    ("cgroup-oom-control/v1-oom.txt", "cgroup-oom-control"),
    ("cgroup-oom-control/v1-no-oom.txt", "cgroup-oom-control"),
];

#[test]
fn each_file_is_claimed_by_its_own_sniffer_only() {
    let mut failures = Vec::new();
    for (rel, own) in FILES {
        let text = fixture(rel);
        for sample in [head(&text, SNIFF_HEAD_BYTES), text.as_str()] {
            for k in kind::KINDS {
                let Some(sniff) = k.sniff else { continue };
                let want = if k.name == *own {
                    Sniff::Yes
                } else {
                    Sniff::No
                };
                let got = sniff(sample);
                if got != want {
                    failures.push(format!("{rel}: {} said {got:?}", k.name));
                }
            }
            match kind::sniff(sample) {
                Sniffed::Kind(k) if k.name == *own => {}
                _ => failures.push(format!("{rel}: not sniffed as {own}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn v2_cpu_stat_counters() {
    let c = cgroup::parse_file("cpu.stat", &fixture("cgroup-cpu-stat/v2-lab-2.txt")).unwrap();
    assert!(c.issues.is_empty());
    let cg = c.value;
    assert_eq!(cg.keyed("cpu.stat", "nr_periods"), Some((126, 2)));
    assert_eq!(cg.keyed("cpu.stat", "nr_throttled"), Some((99, 3)));
    assert_eq!(cg.keyed("cpu.stat", "throttled_usec"), Some((4_983_085, 4)));
    assert_eq!(cg.keyed("cpu.stat", "usage_usec"), Some((5_130_529, 1)));
}

#[test]
fn v1_cpu_stat_counters_in_nanoseconds() {
    let c = cgroup::parse_file(
        "cpu.stat",
        &fixture("cgroup-cpu-stat/v1-throttle-after.txt"),
    )
    .unwrap();
    assert!(c.issues.is_empty());
    let cg = c.value;
    assert_eq!(cg.keyed("cpu.stat", "nr_periods"), Some((44, 1)));
    assert_eq!(cg.keyed("cpu.stat", "nr_throttled"), Some((43, 2)));
    assert_eq!(
        cg.keyed("cpu.stat", "throttled_time"),
        Some((3_027_605_983, 3))
    );
    assert_eq!(cg.keyed("cpu.stat", "nr_bursts"), Some((0, 4)));
}

#[test]
fn oom_kills_of_v2_and_v1() {
    let v2 = cgroup::parse_file(
        "memory.events",
        &fixture("cgroup-memory-events/v2-memorymax-512m.txt"),
    )
    .unwrap()
    .value;
    assert_eq!(v2.oom_kills(), Some((1, 5)));
    assert_eq!(v2.keyed("memory.events", "max"), Some((35, 3)));
    let v1 = cgroup::parse_file(
        "memory.oom_control",
        &fixture("cgroup-oom-control/v1-oom.txt"),
    )
    .unwrap()
    .value;
    assert_eq!(v1.oom_kills(), Some((1, 3)));
    let v1 = cgroup::parse_file(
        "memory.oom_control",
        &fixture("cgroup-oom-control/v1-no-oom.txt"),
    )
    .unwrap()
    .value;
    assert_eq!(v1.oom_kills(), Some((0, 3)));
}

#[test]
fn one_value_files_and_memberships() {
    // `memory.max` of the same published v2 experiment (`MemoryMax=512M`); v1's "no limit".
    let m = cgroup::parse_file("memory.max", "536870912\n")
        .unwrap()
        .value;
    assert_eq!(m.memory_limit_bytes(), Some((536_870_912, 1)));
    let m = cgroup::parse_file("memory.max", "max\n").unwrap().value;
    assert_eq!(m.files[0].value, Some(CgroupValue::Unlimited));
    assert_eq!(m.memory_limit_bytes(), None);
    let q = cgroup::parse_file("cpu.max", "20000 100000\n")
        .unwrap()
        .value;
    let quota = q.cpu_quota().unwrap();
    assert_eq!((quota.quota_us, quota.period_us), (20_000, 100_000));
    assert!((quota.cores - 0.2).abs() < 1e-9);
    let p = cgroup::parse_proc_cgroup("0::/kubepods.slice/pod1\n")
        .unwrap()
        .value;
    assert_eq!(p.path_of("memory").unwrap().path, "/kubepods.slice/pod1");
    let p = cgroup::parse_proc_cgroup("4:memory:/tester-oom\n2:cpu,cpuacct:/tester-cpu\n")
        .unwrap()
        .value;
    assert_eq!(p.path_of("memory").unwrap().path, "/tester-oom");
    assert_eq!(p.path_of("cpu").unwrap().path, "/tester-cpu");
}

#[test]
fn bad_input_is_unusable_or_an_issue() {
    assert!(cgroup::parse_file("cpu.stat", "").is_err());
    assert!(cgroup::parse_file("memory.max", "no such file\n").is_err());
    let c = cgroup::parse_file(
        "cpu.stat",
        "nr_periods 5\nnr_throttled x\nthrottled_usec 7\n",
    )
    .unwrap();
    assert_eq!(c.issues.len(), 1);
    assert_eq!(c.issues[0].line, 2);
    assert!(cgroup::parse_proc_cgroup("hello\n").is_err());
}

#[test]
fn look_alikes_are_not_claimed() {
    // A `memory.events` with a key it does not have, a `cpu.stat` without throttling keys
    // (v2 without the `cpu` controller: `usage_usec`, `user_usec`, `system_usec` only), an
    // `oom_control` without `under_oom`.
    for text in [
        "low 0\nhigh 0\nmax 35\noom 1\noom_kill 1\npgfault 3\n",
        "usage_usec 98856\nuser_usec 50000\nsystem_usec 48856\n",
        "oom_kill_disable 0\noom_kill 1\n",
        "nr_periods 5\nnr_throttled 1\nthrottled_usec 3\nthis is prose\n",
    ] {
        for sniff in [
            cgroup::sniff_memory_events,
            cgroup::sniff_cpu_stat,
            cgroup::sniff_oom_control,
        ] {
            assert_eq!(sniff(text), Sniff::No, "{text:?}");
        }
    }
}
