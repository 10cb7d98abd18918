//! `cgroup.tsv` parser against a real capture (the collector on a cgroup v1 + v2 hybrid guest,
//! no limits set; see `fixtures/PROVENANCE.md`) and two derived inputs built here in the
//! collector's exact layout, with file formats from the kernel's
//! `Documentation/admin-guide/cgroup-v2.rst` and `cgroup-v1/memory.rst`: a systemd service on a
//! v2 host (memory and CPU limits, OOM kills, throttling) and a Docker container on a v1 host.

use crate::common::{
    all_fixtures, fixture, fixture_path, head, insert_line, XorShift, SNIFF_HEAD_BYTES,
};
use parsers::procs::cgroup::{self, CgroupValue};
use parsers::Sniff;

const HYBRID: &str = "captured-proc/collector-cgroup-v1-hybrid.tsv";

/// Derived: a JVM in `kafka.service` on a cgroup v2 host. `MemoryMax=4G` on the service, 3 GiB
/// on `system.slice`, `CPUQuota=150%`, `MemorySwapMax=0`.
const V2: &str = "\
cgroup\t0::/system.slice/kafka.service
limit\tmemory.max\t/sys/fs/cgroup/system.slice/kafka.service\t4294967296
limit\tmemory.high\t/sys/fs/cgroup/system.slice/kafka.service\tmax
limit\tmemory.swap.max\t/sys/fs/cgroup/system.slice/kafka.service\t0
limit\tmemory.current\t/sys/fs/cgroup/system.slice/kafka.service\t3221032960
limit\tmemory.events\t/sys/fs/cgroup/system.slice/kafka.service\tlow 0
limit\tmemory.events\t/sys/fs/cgroup/system.slice/kafka.service\thigh 0
limit\tmemory.events\t/sys/fs/cgroup/system.slice/kafka.service\tmax 1841
limit\tmemory.events\t/sys/fs/cgroup/system.slice/kafka.service\toom 3
limit\tmemory.events\t/sys/fs/cgroup/system.slice/kafka.service\toom_kill 3
limit\tmemory.events\t/sys/fs/cgroup/system.slice/kafka.service\toom_group_kill 0
limit\tcpu.max\t/sys/fs/cgroup/system.slice/kafka.service\t150000 100000
limit\tcpu.weight\t/sys/fs/cgroup/system.slice/kafka.service\t100
limit\tcpu.stat\t/sys/fs/cgroup/system.slice/kafka.service\tusage_usec 8841290312
limit\tcpu.stat\t/sys/fs/cgroup/system.slice/kafka.service\tuser_usec 7612093001
limit\tcpu.stat\t/sys/fs/cgroup/system.slice/kafka.service\tsystem_usec 1229197311
limit\tcpu.stat\t/sys/fs/cgroup/system.slice/kafka.service\tnr_periods 412300
limit\tcpu.stat\t/sys/fs/cgroup/system.slice/kafka.service\tnr_throttled 20891
limit\tcpu.stat\t/sys/fs/cgroup/system.slice/kafka.service\tthrottled_usec 1893001277
limit\tcpu.stat\t/sys/fs/cgroup/system.slice/kafka.service\tnr_bursts 0
limit\tcpu.stat\t/sys/fs/cgroup/system.slice/kafka.service\tburst_usec 0
limit\tmemory.max\t/sys/fs/cgroup/system.slice\t3221225472
limit\tmemory.high\t/sys/fs/cgroup/system.slice\tmax
limit\tmemory.swap.max\t/sys/fs/cgroup/system.slice\tmax
limit\tmemory.current\t/sys/fs/cgroup/system.slice\t3221159936
limit\tmemory.events\t/sys/fs/cgroup/system.slice\tlow 0
limit\tmemory.events\t/sys/fs/cgroup/system.slice\thigh 0
limit\tmemory.events\t/sys/fs/cgroup/system.slice\tmax 1903
limit\tmemory.events\t/sys/fs/cgroup/system.slice\toom 4
limit\tmemory.events\t/sys/fs/cgroup/system.slice\toom_kill 4
limit\tmemory.events\t/sys/fs/cgroup/system.slice\toom_group_kill 0
limit\tcpu.max\t/sys/fs/cgroup/system.slice\tmax 100000
limit\tcpu.weight\t/sys/fs/cgroup/system.slice\t100
limit\tcpu.stat\t/sys/fs/cgroup/system.slice\tusage_usec 9102938221
limit\tcpu.stat\t/sys/fs/cgroup\tusage_usec 20918237712
limit\tcpu.stat\t/sys/fs/cgroup\tuser_usec 15012883120
limit\tcpu.stat\t/sys/fs/cgroup\tsystem_usec 5905354592
";

/// Derived: a JVM in a Docker container on a cgroup v1 host (`--memory 4g --cpus 2`, default
/// `--memory-swap` of twice the memory), as the collector reads it from the host.
const V1: &str = "\
cgroup\t12:pids:/docker/3f1c2b7d9e04
cgroup\t11:memory:/docker/3f1c2b7d9e04
limit\tmemory.limit_in_bytes\t/sys/fs/cgroup/memory/docker/3f1c2b7d9e04\t4294967296
limit\tmemory.memsw.limit_in_bytes\t/sys/fs/cgroup/memory/docker/3f1c2b7d9e04\t8589934592
limit\tmemory.usage_in_bytes\t/sys/fs/cgroup/memory/docker/3f1c2b7d9e04\t4283498496
limit\tmemory.max_usage_in_bytes\t/sys/fs/cgroup/memory/docker/3f1c2b7d9e04\t4294967296
limit\tmemory.failcnt\t/sys/fs/cgroup/memory/docker/3f1c2b7d9e04\t1523
limit\tmemory.limit_in_bytes\t/sys/fs/cgroup/memory/docker\t9223372036854771712
limit\tmemory.memsw.limit_in_bytes\t/sys/fs/cgroup/memory/docker\t9223372036854771712
limit\tmemory.usage_in_bytes\t/sys/fs/cgroup/memory/docker\t4301565952
limit\tmemory.max_usage_in_bytes\t/sys/fs/cgroup/memory/docker\t4312371200
limit\tmemory.failcnt\t/sys/fs/cgroup/memory/docker\t0
limit\tmemory.limit_in_bytes\t/sys/fs/cgroup/memory\t9223372036854771712
limit\tmemory.memsw.limit_in_bytes\t/sys/fs/cgroup/memory\t9223372036854771712
limit\tmemory.usage_in_bytes\t/sys/fs/cgroup/memory\t7340032000
limit\tmemory.max_usage_in_bytes\t/sys/fs/cgroup/memory\t9663676416
limit\tmemory.failcnt\t/sys/fs/cgroup/memory\t0
cgroup\t4:cpu,cpuacct:/docker/3f1c2b7d9e04
limit\tcpu.cfs_quota_us\t/sys/fs/cgroup/cpu,cpuacct/docker/3f1c2b7d9e04\t200000
limit\tcpu.cfs_period_us\t/sys/fs/cgroup/cpu,cpuacct/docker/3f1c2b7d9e04\t100000
limit\tcpu.shares\t/sys/fs/cgroup/cpu,cpuacct/docker/3f1c2b7d9e04\t1024
limit\tcpu.stat\t/sys/fs/cgroup/cpu,cpuacct/docker/3f1c2b7d9e04\tnr_periods 35012
limit\tcpu.stat\t/sys/fs/cgroup/cpu,cpuacct/docker/3f1c2b7d9e04\tnr_throttled 1220
limit\tcpu.stat\t/sys/fs/cgroup/cpu,cpuacct/docker/3f1c2b7d9e04\tthrottled_time 98765432100
limit\tcpu.cfs_quota_us\t/sys/fs/cgroup/cpu,cpuacct/docker\t-1
limit\tcpu.cfs_period_us\t/sys/fs/cgroup/cpu,cpuacct/docker\t100000
limit\tcpu.shares\t/sys/fs/cgroup/cpu,cpuacct/docker\t1024
limit\tcpu.cfs_quota_us\t/sys/fs/cgroup/cpu,cpuacct\t-1
limit\tcpu.cfs_period_us\t/sys/fs/cgroup/cpu,cpuacct\t100000
limit\tcpu.shares\t/sys/fs/cgroup/cpu,cpuacct\t1024
cgroup\t1:name=systemd:/docker/3f1c2b7d9e04
";

#[test]
fn captured_hybrid_host_without_limits() {
    let p = cgroup::parse(&fixture(HYBRID)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let c = p.value;
    assert_eq!(c.memberships.len(), 10);
    assert_eq!(c.files.len(), 27);
    let mem = &c.memberships[5];
    assert_eq!(
        (mem.hierarchy_id, mem.controllers.as_slice(), mem.line),
        (4, &["memory".to_string()][..], 6)
    );
    assert_eq!(mem.path, "/process_api/d1e3f31d9df56ac01b2e8ef2546b3cb3");
    assert_eq!(c.memberships[0].controllers, vec!["name=systemd"]);
    let v2 = c.memberships.iter().find(|m| m.is_v2()).unwrap();
    assert_eq!((v2.path.as_str(), v2.line), ("/", 33));
    // v1's page-rounded LONG_MAX is "no limit".
    let lim = c.file("memory.limit_in_bytes").next().unwrap();
    assert_eq!(lim.value, Some(CgroupValue::Unlimited));
    assert_eq!(lim.raw, "9223372036854771712");
    assert_eq!(lim.depth(), 6);
    assert_eq!(c.memory_limit_bytes(), None);
    assert_eq!(c.swap_limit_bytes(), None);
    assert_eq!(c.cpu_quota(), None);
    assert_eq!(c.cpu_quota_cores(), None);
    assert_eq!(c.memory_usage_bytes(), Some((135_557_120, 9)));
    assert_eq!(c.memory_failcnt(), Some((0, 11)));
    assert_eq!(c.oom_kills(), None);
    assert_eq!(c.keyed("cpu.stat", "nr_throttled"), Some((0, 29)));
    assert_eq!(c.keyed("cpu.stat", "usage_usec"), Some((7_742_087_451, 34)));
    let quota = c.file("cpu.cfs_quota_us").next().unwrap();
    assert_eq!(
        (quota.value, quota.line),
        (Some(CgroupValue::Unlimited), 25)
    );
    assert_eq!(
        c.file("cpu.shares").next().unwrap().value,
        Some(CgroupValue::Number(1024))
    );
}

#[test]
fn v2_service_with_limits() {
    assert_eq!(cgroup::sniff(V2), Sniff::Yes);
    let p = cgroup::parse(V2).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let c = p.value;
    assert_eq!(c.memberships.len(), 1);
    assert!(c.memberships[0].is_v2());
    assert_eq!(c.memberships[0].path, "/system.slice/kafka.service");
    // The parent slice's 3 GiB is tighter than the service's 4 GiB.
    assert_eq!(c.memory_limit_bytes(), Some((3_221_225_472, 22)));
    assert_eq!(c.memory_high_bytes(), None);
    assert_eq!(c.swap_limit_bytes(), Some((0, 4)));
    assert_eq!(c.memory_usage_bytes(), Some((3_221_032_960, 5)));
    // memory.events of the process's own cgroup, not the parent's hierarchical count.
    assert_eq!(c.oom_kills(), Some((3, 10)));
    assert_eq!(c.keyed("memory.events", "max"), Some((1841, 8)));
    assert_eq!(c.keyed("cpu.stat", "nr_throttled"), Some((20_891, 18)));
    assert_eq!(
        c.keyed("cpu.stat", "throttled_usec"),
        Some((1_893_001_277, 19))
    );
    let q = c.cpu_quota().unwrap();
    assert_eq!((q.quota_us, q.period_us, q.line), (150_000, 100_000, 12));
    assert_eq!(q.dir, "/sys/fs/cgroup/system.slice/kafka.service");
    assert_eq!(c.cpu_quota_cores(), Some(1.5));
    let parent_max = c.file("cpu.max").nth(1).unwrap();
    assert_eq!(
        (parent_max.value, parent_max.period_us),
        (Some(CgroupValue::Unlimited), Some(100_000))
    );
    let ev = c.file("memory.events").next().unwrap();
    assert_eq!(
        (ev.key.as_deref(), ev.value),
        (Some("low"), Some(CgroupValue::Number(0)))
    );
    assert_eq!(c.file("cpu.stat").last().unwrap().dir, "/sys/fs/cgroup");
}

#[test]
fn v1_docker_container_with_limits() {
    assert_eq!(cgroup::sniff(V1), Sniff::Yes);
    let p = cgroup::parse(V1).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let c = p.value;
    assert_eq!(c.memberships.len(), 4);
    assert_eq!(c.memberships[2].controllers, vec!["cpu", "cpuacct"]);
    assert_eq!(c.memory_limit_bytes(), Some((4_294_967_296, 3)));
    // memsw (memory + swap) 8 GiB minus memory 4 GiB.
    assert_eq!(c.swap_limit_bytes(), Some((4_294_967_296, 4)));
    assert_eq!(c.memory_usage_bytes(), Some((4_283_498_496, 5)));
    assert_eq!(c.memory_failcnt(), Some((1523, 7)));
    let q = c.cpu_quota().unwrap();
    assert_eq!((q.quota_us, q.period_us, q.line), (200_000, 100_000, 19));
    assert_eq!(c.cpu_quota_cores(), Some(2.0));
    assert_eq!(
        c.keyed("cpu.stat", "throttled_time"),
        Some((98_765_432_100, 24))
    );
    assert_eq!(c.oom_kills(), None);
}

#[test]
fn v1_memsw_equal_to_memory_means_no_swap() {
    let text = "cgroup\t3:memory:/app\n\
                limit\tmemory.limit_in_bytes\t/sys/fs/cgroup/memory/app\t1073741824\n\
                limit\tmemory.memsw.limit_in_bytes\t/sys/fs/cgroup/memory/app\t1073741824\n\
                limit\tmemory.limit_in_bytes\t/sys/fs/cgroup/memory\t9223372036854710272\n";
    let c = cgroup::parse(text).unwrap().value;
    assert_eq!(c.memory_limit_bytes(), Some((1_073_741_824, 2)));
    assert_eq!(c.swap_limit_bytes(), Some((0, 3)));
    // 64 KiB pages round LONG_MAX to another value: still no limit.
    assert_eq!(c.files[2].value, Some(CgroupValue::Unlimited));
}

#[test]
fn bad_lines_are_issues_with_input_lines() {
    let text = insert_line(V2, 3, "garbage line");
    let text = insert_line(&text, 6, "limit\tmemory.max\tonly-two-fields");
    let text = text
        .replace("\t150000 100000", "\tlots 100000")
        .replace("nr_throttled 20891", "nr_throttled many")
        .replace("cgroup\t0::/", "cgroup\tx::/");
    let p = cgroup::parse(&text).unwrap();
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, vec![1, 3, 6, 14, 20], "{:?}", p.issues);
    let c = p.value;
    assert!(c.memberships.is_empty());
    assert_eq!(c.cpu_quota(), None);
    assert_eq!(c.keyed("cpu.stat", "nr_throttled"), None);
    assert_eq!(c.memory_limit_bytes(), Some((3_221_225_472, 24)));
    for t in [
        "",
        "\n",
        "  \n\t\n",
        "\u{feff}",
        "hello\nworld\n",
        "cgroup\n",
        "limit\ta\tb\n",
    ] {
        assert!(cgroup::parse(t).is_err(), "{t:?}");
    }
    // Truncated anywhere: never a panic, and a cut after the first line still parses.
    let whole = fixture(HYBRID);
    for cut in 0..whole.len() {
        if whole.is_char_boundary(cut) {
            let _ = cgroup::parse(&whole[..cut]);
        }
    }
    assert!(cgroup::parse(&whole[..40]).is_ok());
}

#[test]
fn large_inputs_are_read_in_linear_time() {
    let mut text = String::from("cgroup\t4:cpu:/a\n");
    for i in 0..100_000 {
        text.push_str(&format!("limit\tcpu.cfs_quota_us\t/d{i}\t{}\n", 1000 + i));
    }
    for i in 0..100_000 {
        text.push_str(&format!("limit\tcpu.cfs_period_us\t/d{i}\t100000\n"));
    }
    let start = std::time::Instant::now();
    let c = cgroup::parse(&text).unwrap().value;
    let q = c.cpu_quota().unwrap();
    assert!(
        start.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert_eq!((q.quota_us, q.dir.as_str(), q.line), (1000, "/d0", 2));
}

#[test]
fn sniffer_claims_its_own_and_refuses_the_rest() {
    let text = fixture(HYBRID);
    assert_eq!(cgroup::sniff(head(&text, SNIFF_HEAD_BYTES)), Sniff::Yes);
    assert_eq!(cgroup::sniff(&text[..100]), Sniff::Yes, "cut mid-line");
    assert_eq!(cgroup::sniff(""), Sniff::No);
    // A bare /proc/PID/cgroup (no `cgroup<TAB>` prefix) is not this format.
    assert_eq!(cgroup::sniff("0::/user.slice\n"), Sniff::No);
    for rel in all_fixtures() {
        if rel == HYBRID || rel.starts_with("cgroup/") {
            continue;
        }
        let Ok(bytes) = std::fs::read(fixture_path(&rel)) else {
            continue;
        };
        let t = String::from_utf8_lossy(&bytes);
        assert_eq!(
            cgroup::sniff(head(&t, SNIFF_HEAD_BYTES)),
            Sniff::No,
            "{rel}"
        );
        assert!(cgroup::parse(&t).is_err(), "{rel}");
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = XorShift(0x0c60_0000_1234_5678);
    let texts = [fixture(HYBRID), V1.to_string(), V2.to_string()];
    for round in 0..400 {
        let mut b = if round % 2 == 0 {
            let n = rng.below(2000);
            rng.bytes(n)
        } else {
            texts[round % texts.len()].as_bytes().to_vec()
        };
        for _ in 0..rng.below(20) {
            if !b.is_empty() {
                let i = rng.below(b.len());
                b[i] = b"\t :-0123456789max\n"[rng.below(18)];
            }
        }
        let t = String::from_utf8_lossy(&b);
        let n_lines = t.lines().count();
        if let Ok(p) = cgroup::parse(&t) {
            assert!(p.issues.iter().all(|i| i.line >= 1 && i.line <= n_lines));
            let c = p.value;
            let _ = (
                c.memory_limit_bytes(),
                c.swap_limit_bytes(),
                c.cpu_quota_cores(),
                c.oom_kills(),
                c.memory_usage_bytes(),
            );
        }
        let _ = cgroup::sniff(&t);
    }
}

/// The collector's start and end snapshots of a JVM whose v1 memory cgroup (128 MiB) OOM-killed
/// a heap-filling JVM six times during the 30 s window (captured; `fixtures/cgroup/PROVENANCE.md`).
#[test]
fn captured_v1_memory_cgroup_oom_kills() {
    let start = cgroup::parse(&fixture("cgroup/collector-v1-hybrid-oom.start.tsv")).unwrap();
    let end = cgroup::parse(&fixture("cgroup/collector-v1-hybrid-oom.end.tsv")).unwrap();
    assert!(start.issues.is_empty(), "{:?}", start.issues);
    assert!(end.issues.is_empty(), "{:?}", end.issues);
    let (s, e) = (start.value, end.value);
    assert_eq!(s.oom_kills().map(|k| k.0), Some(1));
    assert_eq!(e.oom_kills().map(|k| k.0), Some(7));
    assert_eq!(s.memory_failcnt().map(|k| k.0), Some(132));
    assert_eq!(e.memory_failcnt().map(|k| k.0), Some(799));
    assert_eq!(e.memory_limit_bytes().map(|k| k.0), Some(128 << 20));
    let m = e.path_of("memory").unwrap();
    assert_eq!((m.hierarchy_id, m.path.as_str()), (4, "/rca-oom"));
    // memory.stat of the own cgroup only: v1 `rss`, `total_rss`, `hierarchical_memory_limit`.
    let stat: Vec<_> = e.file("memory.stat").collect();
    assert!(stat
        .iter()
        .all(|f| f.dir == "/sys/fs/cgroup/memory/rca-oom"));
    assert_eq!(
        e.keyed_entry("memory.stat", "hierarchical_memory_limit")
            .and_then(|f| f.value),
        Some(CgroupValue::Number(128 << 20))
    );
    assert!(e.keyed_entry("memory.stat", "total_rss").is_some());
    // The v2 hierarchy of this hybrid host has no memory controller: its root's cpu.stat only.
    assert_eq!(
        e.keyed_entry("cpu.stat", "usage_usec")
            .map(|f| f.dir.as_str()),
        Some("/sys/fs/cgroup/unified")
    );
}

/// A busy JVM under a v1 CFS quota of 20 ms per 100 ms period, snapshots 30 s apart.
#[test]
fn captured_v1_cpu_cgroup_throttling() {
    let start = cgroup::parse(&fixture("cgroup/collector-v1-hybrid-throttle.start.tsv")).unwrap();
    let end = cgroup::parse(&fixture("cgroup/collector-v1-hybrid-throttle.end.tsv")).unwrap();
    assert!(end.issues.is_empty(), "{:?}", end.issues);
    let (s, e) = (start.value, end.value);
    let q = e.cpu_quota().unwrap();
    assert_eq!((q.quota_us, q.period_us), (20_000, 100_000));
    assert_eq!(q.dir, "/sys/fs/cgroup/cpu/rca-throttle");
    let key = |c: &cgroup::Cgroup, k: &str| c.keyed("cpu.stat", k).map(|v| v.0);
    assert_eq!(key(&s, "nr_periods"), Some(85));
    assert_eq!(key(&e, "nr_periods"), Some(385));
    assert_eq!(key(&e, "nr_throttled"), Some(385));
    assert_eq!(key(&s, "throttled_time"), Some(6_739_335_864));
    assert_eq!(key(&e, "throttled_time"), Some(31_378_848_815));
    assert_eq!(e.path_of("cpu").unwrap().path, "/rca-throttle");
}
