//! JVM and ZooKeeper facts and rules end to end, on real JVM and ZooKeeper outputs.
//!
//! Every file starts as a capture from OpenJDK 17 and ZooKeeper 3.8 (`parsers/tests/fixtures/
//! captured-jvm`, `captured-zk`; see PROVENANCE.md). The S3-shaped server changes only the values
//! the case is about, each named where it is made: millions of watches in `mntr`/`wchs`, the
//! histogram dominated by `HashMap$Node`, the old generation ≥ 98 % after each full GC.

use crate::common::fixture;
use rca::bundle::Limits;
use rca::report::Report;
use rca::rules::Severity;

/// `jstat -gcutil -t` in the JDK 17 layout of the captured file: one row per `(t, O, FGC)`.
fn gcutil(rows: &[(f64, f64, u64)]) -> String {
    let captured = fixture("captured-jvm/jstat-gcutil-t-jdk17.txt");
    let mut out = captured.lines().next().unwrap().to_string();
    out.push('\n');
    let mut ygc = 25;
    for &(t, o, fgc) in rows {
        ygc += 1;
        let fgct = fgc as f64 * 0.9;
        out.push_str(&format!(
            "{t:>15.1} {:>6.2} {:>6.2} {:>6.2} {o:>6.2} {:>6.2} {:>6.2} {ygc:>6} {:>9.3} {fgc:>7} {fgct:>9.3} {:>5} {:>9.3} {:>9.3}\n",
            0.0,
            0.0,
            12.5,
            53.35,
            5.76,
            0.062 + ygc as f64 * 0.001,
            0,
            0.0,
            0.062 + ygc as f64 * 0.001 + fgct
        ));
    }
    out
}

/// The captured JDK 17 histogram with `HashMap$Node`, `HashSet` and `HashMap` rows grown to the
/// sizes a watch table of millions of entries has.
fn watch_histogram() -> String {
    let h = fixture("captured-jvm/jcmd-GC.class_histogram-jdk17-head60.txt");
    let mut out = String::new();
    for line in h.lines() {
        let l = if line.contains(" java.util.HashMap$Node ") {
            "   2:       4000000      128000000  java.util.HashMap$Node (java.base@17.0.15)"
                .to_string()
        } else {
            line.to_string()
        };
        out.push_str(&l);
        out.push('\n');
    }
    out.push_str("Total       4200000      180000000\n");
    out
}

type Entry = (String, String);

/// A ZooKeeper server as the collector lays it out, with `watches` watches.
fn zk_bundle(watches: u64, manager: Option<&str>) -> Vec<Entry> {
    let mut props = fixture("captured-jvm/key-value/jcmd-VM.system_properties-jdk17.txt");
    if let Some(m) = manager {
        props.push_str(&format!("zookeeper.watchManagerName={m}\n"));
    }
    let cmdline = fixture("captured-jvm/jcmd-VM.command_line-jdk17.txt").replace(
        "java_command: ",
        "java_command: org.apache.zookeeper.server.quorum.QuorumPeerMain /etc/zookeeper/conf/zoo.cfg ",
    );
    let mntr = fixture("captured-zk/zk-3.8.0-mntr.txt")
        .replace(
            "zk_watch_count\t8\n",
            &format!("zk_watch_count\t{watches}\n"),
        )
        .replace("zk_znode_count\t12\n", "zk_znode_count\t200000\n")
        .replace(
            "zk_num_alive_connections\t3\n",
            "zk_num_alive_connections\t20\n",
        );
    let wchs = format!("20 connections watching 200000 paths\nTotal watches:{watches}\n");
    vec![
        ("jvm/24267/vm-system-properties.txt".into(), props),
        ("jvm/24267/vm-command-line.txt".into(), cmdline),
        (
            "jvm/24267/vm-flags.txt".into(),
            fixture("captured-jvm/jcmd-VM.flags-jdk17.txt"),
        ),
        (
            "jvm/24267/java-version.txt".into(),
            fixture("captured-jvm/java-version-jdk17.txt"),
        ),
        ("jvm/24267/class-histogram.txt".into(), watch_histogram()),
        (
            "jvm/24267/jstat-gcutil.txt".into(),
            gcutil(&[
                (100.0, 97.1, 10),
                (101.0, 98.4, 11),
                (102.0, 99.0, 11),
                (103.0, 99.5, 12),
                (104.0, 99.7, 13),
            ]),
        ),
        ("zk/127.0.0.1_2181/mntr.txt".into(), mntr),
        ("zk/127.0.0.1_2181/wchs.txt".into(), wchs),
    ]
}

fn analyze(entries: &[Entry]) -> Report {
    let d = tempfile::tempdir().unwrap();
    for (path, text) in entries {
        let p = d.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
    }
    rca::report::Report::analyze(d.path(), &Limits::default()).unwrap()
}

#[test]
fn real_jvm_outputs_become_one_jvm_with_identity_heap_and_gc_series() {
    let r = analyze(&zk_bundle(8, None));
    for a in &r.artifacts {
        assert_eq!(a.outcome.label(), "parsed", "{}: {:?}", a.path, a.outcome);
    }
    assert_eq!(r.jvms.len(), 1, "{:#?}", r.jvms);
    let j = &r.jvms[0];
    assert_eq!(j.pid, Some(24267));
    assert_eq!(j.role.as_deref(), Some("ZooKeeper"));
    assert_eq!(j.vendor.as_ref().unwrap().value, "OpenJDK");
    assert_eq!(j.version.as_ref().unwrap().value, "17.0.15");
    assert_eq!(j.feature, Some(17));
    assert_eq!(j.heap_max_bytes.as_ref().unwrap().value, 268_435_456);
    assert_eq!(j.collector.as_ref().unwrap().value, "G1");
    let gc = j.gc.as_ref().unwrap();
    assert_eq!((gc.samples, gc.fgc, gc.window_s), (5, Some(3), Some(4.0)));
    let after: Vec<f64> = gc.old_after_fgc.iter().map(|o| o.value).collect();
    assert_eq!(after, vec![98.4, 99.5, 99.7]);
    assert_eq!(j.top_classes[0].value.class_name, "java.util.HashMap$Node");
    assert_eq!(r.zookeeper.len(), 1);
    assert_eq!(r.zookeeper[0].jvm, Some(0));
    assert_eq!(r.zookeeper[0].client_port, Some(2181));
}

#[test]
fn an_s3_shaped_zookeeper_puts_the_watch_manager_first() {
    let r = analyze(&zk_bundle(4_000_000, None));
    let top = &r.findings[0];
    assert_eq!(top.rule_id, "zk.default-watch-manager", "{:#?}", r.findings);
    assert_eq!(top.severity, Severity::Critical);
    let cited: Vec<&str> = top.evidence.iter().map(|e| e.artifact.as_str()).collect();
    for want in [
        "mntr.txt",
        "wchs.txt",
        "class-histogram.txt",
        "jstat-gcutil.txt",
    ] {
        assert!(
            cited.iter().any(|c| c.ends_with(want)),
            "{want} not in {cited:?}"
        );
    }
    // The histogram line cited is the HashMap$Node row, verbatim.
    let hist = top
        .evidence
        .iter()
        .find(|e| e.artifact.ends_with("class-histogram.txt"))
        .unwrap();
    assert!(hist.excerpt.iter().any(|l| l
        .text
        .contains("4000000      128000000  java.util.HashMap$Node")));
    // The symptom is reported too, below its cause.
    let old = r
        .findings
        .iter()
        .position(|f| f.rule_id == "jvm.old-gen-not-reclaimed")
        .expect("old-gen finding");
    assert!(old > 0);
    assert!(r.findings[old].why.contains("java.util.HashMap$Node"));
}

#[test]
fn the_optimized_watch_manager_silences_the_finding_but_not_the_full_heap() {
    let r = analyze(&zk_bundle(
        4_000_000,
        Some("org.apache.zookeeper.server.watch.WatchManagerOptimized"),
    ));
    assert!(r
        .findings
        .iter()
        .all(|f| f.rule_id != "zk.default-watch-manager"));
    assert!(r
        .findings
        .iter()
        .any(|f| f.rule_id == "jvm.old-gen-not-reclaimed"));
}

#[test]
fn loose_files_without_the_collector_layout_still_make_one_jvm() {
    // Files saved by hand in one folder, named freely: grouped by folder, kinds by content.
    let e: Vec<Entry> = zk_bundle(8, None)
        .into_iter()
        .filter(|(p, _)| p.starts_with("jvm/"))
        .map(|(p, t)| (format!("incident-42/{}", p.rsplit('/').next().unwrap()), t))
        .collect();
    let r = analyze(&e);
    assert_eq!(r.jvms.len(), 1, "{:#?}", r.jvms);
    assert_eq!(r.jvms[0].pid, Some(24267));
    assert!(r.jvms[0].gc.is_some());
    assert!(r.jvms[0].heap_max_bytes.is_some());
}

#[test]
fn yarn_site_from_a_real_cluster_leaves_the_vmem_check_on_by_default() {
    // The corpus yarn-site.xml (docker-yarn-cluster) does not set the check: Hadoop's default
    // (true, ratio 2.1) applies. A file that sets it to false clears the rule.
    let real = vec![(
        "configs/opt/hadoop/etc/hadoop/yarn-site.xml".to_string(),
        fixture("hadoop-conf/docker-yarn-cluster__yarn-site.xml"),
    )];
    let r = analyze(&real);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule_id == "yarn.vmem-check")
        .expect("vmem finding");
    assert_eq!(f.severity, Severity::Warning);
    assert!(f.title.contains("on by default"), "{}", f.title);
    let off = vec![(
        "configs/etc/hadoop/yarn-site.xml".to_string(),
        fixture("hadoop-conf/written__yarn-site-nodemanager.xml"),
    )];
    let r = analyze(&off);
    assert!(r.findings.iter().all(|f| f.rule_id != "yarn.vmem-check"));
    let st = r.rules.iter().find(|x| x.id == "yarn.vmem-check").unwrap();
    assert!(matches!(st.result, rca::rules::RuleResult::Clear { .. }));
}

#[test]
fn a_huge_value_in_the_bundle_is_clipped_before_the_report() {
    // One `mntr` value of a megabyte must not be copied whole into the facts, JSON and page.
    let mut e = zk_bundle(8, None);
    let huge = "A".repeat(1 << 20);
    for (p, t) in e.iter_mut() {
        if p.ends_with("mntr.txt") {
            *t = t.replacen("zk_version\t", &format!("zk_version\t{huge}"), 1);
        }
    }
    let r = analyze(&e);
    let v = &r.zookeeper[0].version.as_ref().expect("version").value;
    assert!(
        v.chars().count() <= rca::facts::CLIP_CHARS + 1,
        "{}",
        v.len()
    );
    let json = serde_json::to_string(&r).unwrap();
    assert!(json.len() < 1 << 20, "{} bytes of JSON", json.len());
}

#[test]
fn a_reentrantlock_deadlock_is_one_cycle_with_parked_waiters_and_their_owners() {
    // `jstack -l` of `Locks rdeadlock`: each thread parks on the lock the other one lists among
    // its ownable synchronizers.
    let e: Vec<Entry> = vec![(
        "dumps/jstack.txt".into(),
        fixture("thread-dump/jstack-l-openjdk17-reentrantlock-deadlock.txt"),
    )];
    let r = analyze(&e);
    assert_eq!(r.jvms.len(), 1, "{:#?}", r.jvms);
    let j = &r.jvms[0];
    assert_eq!(j.deadlocks.len(), 1);
    let d = &j.deadlocks[0].value;
    assert_eq!(d.in_dumps, 1);
    let t = &d.threads[0];
    assert_eq!(t.name, "reader");
    assert_eq!(
        t.waits_for,
        "0x000000069ec1b3e8 (a java.util.concurrent.locks.ReentrantLock$NonfairSync)"
    );
    assert_eq!(t.lock_kind.as_deref(), Some("ownable synchronizer"));
    assert_eq!(t.held_by.as_deref(), Some("writer"));
    assert_eq!(
        t.top_frame.as_deref(),
        Some("jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)")
    );
    // The parked waiters count as queued for a lock with a known owner (one each).
    let l = j
        .contended_locks
        .iter()
        .find(|l| l.address == "0x000000069ec1b3e8")
        .expect("the reader's lock");
    assert_eq!(l.dumps[0].value.waiters, 1);
    assert_eq!(l.dumps[0].value.owner.as_deref(), Some("writer"));
    // An ownable synchronizer is listed after the stack: no frame took it.
    assert_eq!(l.dumps[0].value.locked_at, None);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule_id == "jvm.deadlock")
        .expect("deadlock finding");
    assert_eq!(f.severity, Severity::Critical);
    assert!(!r
        .findings
        .iter()
        .any(|f| f.rule_id == "jvm.monitor-contention"));
}

#[test]
fn a_gc_log_named_as_a_histogram_gives_both_its_pauses_and_its_classes() {
    // JDK 8 G1 with `-XX:+PrintClassHistogramBefore/AfterFullGC` (garbagecat), saved under a
    // name the path table gives to class histograms.
    let log = fixture("gc-logs-classhisto/garbagecat__dataset221-jdk8-g1-before-after-full-gc.txt");
    let r = analyze(&[("incident-7/histo.log".into(), log)]);
    let a = &r.artifacts[0];
    assert_eq!(a.kind_name(), Some("gc-log"));
    assert_eq!(a.outcome.label(), "parsed", "{:?}", a.outcome);
    assert_eq!(r.jvms.len(), 1, "{:#?}", r.jvms);
    let j = &r.jvms[0];
    let gc = j.gc_log.as_ref().unwrap();
    let max = gc.max_pause_ms.as_ref().unwrap();
    assert_eq!((max.value, max.lines.as_slice()), (24572.7654, &[1][..]));
    // The classes come from the last histogram, the live set after the full GC.
    assert_eq!(j.top_classes[0].value.class_name, "[C");
    assert_eq!(j.top_classes[0].value.bytes, 2_015_033_608);
    assert_eq!(j.top_classes[0].artifact, "incident-7/histo.log");
    assert_eq!(j.top_classes[0].lines, [15]);
    let total = j.histogram_total_bytes.as_ref().unwrap();
    assert_eq!(
        (total.value, total.lines.as_slice()),
        (7_986_275_072, &[19][..])
    );
    // Before-full-GC counts (garbage included) are not compared with the live set.
    assert!(j.histogram_growth.is_none());
    // The GC rule sees the 24.6 s pause.
    let f = r
        .findings
        .iter()
        .find(|f| f.rule_id == "jvm.gc-overhead")
        .expect("the long pause is found");
    assert!(f
        .evidence
        .iter()
        .any(|e| e.artifact == "incident-7/histo.log"));
}

#[test]
fn a_unified_log_with_classhisto_blocks_beside_a_jcmd_histogram() {
    // JDK 17 `-Xlog:gc*,gc+classhisto=trace` and, in the same folder, a jcmd histogram: the
    // histogram file the collector takes stays the newest for the top classes.
    let log = fixture("captured-gc/classhisto/jdk17-unified-g1-gc-classhisto-trace.log");
    let r = analyze(&[("jvm-a/gc.log".into(), log.clone())]);
    assert_eq!(r.jvms.len(), 1, "{:#?}", r.jvms);
    let j = &r.jvms[0];
    assert_eq!(j.top_classes[0].value.class_name, "[B");
    assert_eq!(j.top_classes[0].value.bytes, 3_532_512);
    assert_eq!(j.top_classes[0].lines, [262]);
    assert_eq!(j.gc_log.as_ref().unwrap().collector.as_deref(), Some("G1"));
    let jcmd = fixture("captured-jvm/jcmd-GC.class_histogram-jdk17-head60.txt");
    let r = analyze(&[
        ("jvm-a/gc.log".into(), log),
        ("jvm-a/class-histogram.txt".into(), jcmd),
    ]);
    assert_eq!(r.jvms.len(), 1, "{:#?}", r.jvms);
    assert_eq!(
        r.jvms[0].top_classes[0].artifact,
        "jvm-a/class-histogram.txt"
    );
}

/// Where `GC.heap_info` is missing (JDK 8), the collector takes `jmap -heap`: its summary joins
/// the JVM's heap summaries as `GC.heap_info`'s does (the real `jhsdb jmap --heap` capture,
/// whose blocks JDK 8's `jmap -heap` prints the same).
#[test]
fn a_jmap_heap_summary_joins_its_jvm() {
    let r = analyze(&[
        (
            "jvm/25607/jmap-heap.txt".into(),
            fixture("jmap-heap/jhsdb-jmap-heap-jdk17-parallel.txt"),
        ),
        (
            "jvm/25607/java-version.txt".into(),
            fixture("captured-jvm/java-version-jdk17.txt"),
        ),
    ]);
    let a = r
        .artifacts
        .iter()
        .find(|a| a.path.ends_with("jmap-heap.txt"))
        .unwrap();
    assert_eq!(a.kind.map(|k| k.name), Some("jmap-heap"), "{}", a.path);
    assert_eq!(r.jvms.len(), 1, "{:#?}", r.jvms);
    let h = &r.jvms[0].heap_infos[0];
    assert_eq!(h.value.collector.as_deref(), Some("Parallel"));
    assert_eq!(
        h.value.heap_committed_kib,
        Some((67_108_864 + 11_010_048 + 179_306_496) / 1024)
    );
    assert_eq!(r.jvms[0].collector.as_ref().unwrap().value, "Parallel");
    // The old generation: `PS Old Generation` used 52437792 of 179306496 bytes.
    assert_eq!(h.value.old_kib, Some((51_208, 175_104)));
    let page = rca::report::html::render(&r).unwrap();
    assert!(page.contains("used 65 of 2"), "heap summary not shown");
    assert!(
        page.contains("MiB committed; old gen 29 %"),
        "old generation not shown"
    );
}
