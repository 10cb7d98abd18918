//! Thread-dump parser against the shared corpus (jstack from JDK 8u191, HotSpot 11.0.1, a
//! JDK-8-style header dump, OpenJDK 25, `jcmd Thread.print` from JDK 26-ea) and `jstack` /
//! `jcmd Thread.print` captured from OpenJDK 17.0.15 on the development machine (see
//! `fixtures/PROVENANCE.md`).

use crate::common::{
    all_fixtures, fixture, fixture_path, head, insert_line, XorShift, SNIFF_HEAD_BYTES,
};
use parsers::jvm::{
    self,
    thread_dump::{pool_name, ThreadDump},
};
use parsers::Sniff;

const JDK8: &str = "jstack/java000__jstack-l-jdk8u191-windows-deadlock.txt";
const JDK11: &str = "jstack/jifa__jstack-jdk11-hotspot-deadlock.txt";
const JDK8_STYLE: &str = "jstack/jifa__jstack-jdk8-style-format.txt";
const JCMD26: &str = "jstack/jstall__jcmd-thread-print-jdk26.txt";
const JDK25: &str = "jstack/jthreaddump__jstack-openjdk25-deadlock.txt";
const JSTACK17: &str = "captured-zk/jstack-openjdk17-zkclient.txt";
const JCMD17: &str = "captured-zk/jcmd-thread-print-openjdk17-zkclient.txt";
const ALL: [&str; 7] = [JDK8, JDK11, JDK8_STYLE, JCMD26, JDK25, JSTACK17, JCMD17];

fn parse_clean(rel: &str) -> ThreadDump {
    let p = jvm::thread_dump::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(p.issues.is_empty(), "{rel}: {:?}", p.issues);
    p.value
}

fn by_name<'a>(d: &'a ThreadDump, name: &str) -> &'a jvm::thread_dump::JavaThread {
    d.threads
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no thread {name}"))
}

#[test]
fn jdk8_windows_deadlock() {
    let d = parse_clean(JDK8);
    assert_eq!(
        d.jvm.as_deref(),
        Some("Java HotSpot(TM) 64-Bit Server VM (25.191-b12 mixed mode)")
    );
    assert_eq!(d.timestamp.as_deref(), Some("2020-10-19 14:12:11"));
    // 27 quoted lines (CRLF line ends), 4 of them in the deadlock report.
    assert_eq!(d.threads.len(), 23);
    let t = &d.threads[0];
    assert_eq!((t.name.as_str(), t.id, t.line), ("Thread-1", Some(13), 4));
    assert_eq!((t.prio, t.os_prio, t.daemon), (Some(5), Some(0), false));
    assert_eq!((t.cpu_ms, t.elapsed_s), (None, None));
    assert_eq!(t.tid, Some(0x1f0a9800));
    assert_eq!(t.nid, Some(0x26bc));
    assert_eq!(t.activity.as_deref(), Some("waiting for monitor entry"));
    assert_eq!(t.state.as_deref(), Some("BLOCKED"));
    assert_eq!(t.state_detail.as_deref(), Some("on object monitor"));
    assert_eq!(
        t.frames[0].text,
        "com.sl.java00.week01.DeadLock$2.run(DeadLock.java:41)"
    );
    assert_eq!(t.frames[0].line, 6);
    assert_eq!(
        t.waiting_on.as_deref(),
        Some("<0x000000076b9a5268> (a java.lang.Object)")
    );
    assert_eq!(
        t.locks_held,
        vec!["<0x000000076b9a5278> (a java.lang.Object)"]
    );
    let main = by_name(&d, "main");
    assert_eq!(
        main.waiting_on.as_deref(),
        Some("<0x000000076b9aaf38> (a java.util.concurrent.CountDownLatch$Sync)")
    );
    assert_eq!(d.jni_global_refs, Some(12));
    assert_eq!(d.deadlocks, 1);
    assert_eq!(d.deadlock_line, Some(145));
    assert!(d.deadlocked_threads.contains(&"Thread-1".to_string()));
    assert!(d.count_in_state("BLOCKED") >= 2);
}

#[test]
fn hotspot11_with_cpu_elapsed_smr_and_deadlock() {
    let d = parse_clean(JDK11);
    assert_eq!(
        d.jvm.as_deref(),
        Some("Java HotSpot(TM) 64-Bit Server VM (11.0.1+13-LTS mixed mode)")
    );
    assert_eq!(d.smr_length, Some(11));
    // 22 quoted lines, 4 of them in the deadlock report.
    assert_eq!(d.threads.len(), 18);
    let main = &d.threads[0];
    assert_eq!((main.name.as_str(), main.line), ("main", 11));
    assert_eq!(main.cpu_ms, Some(108.49));
    assert_eq!(main.elapsed_s, Some(17.27));
    assert_eq!(main.nid, Some(0x2803));
    assert_eq!(main.os_prio, Some(31));
    assert_eq!(main.state.as_deref(), Some("BLOCKED"));
    assert_eq!(main.frames[0].text, "Test.main(Test.java:13)");
    assert_eq!(d.jni_global_refs, Some(6));
    assert_eq!(d.deadlocks, 1);
    assert_eq!(d.deadlocked_threads, vec!["main", "Thread-0"]);
}

#[test]
fn jdk8_style_header_dump() {
    let d = parse_clean(JDK8_STYLE);
    assert_eq!(
        d.jvm.as_deref(),
        Some("OpenJDK 64-Bit Server VM (18-internal+0-adhoc.user1.my-jdk mixed mode, sharing)")
    );
    assert_eq!(d.threads.len(), 22);
    assert_eq!(d.threads.iter().filter(|t| t.name == "main").count(), 1);
    let main = by_name(&d, "main");
    assert_eq!((main.id, main.nid, main.line), (Some(1), Some(0x1603), 43));
    assert!(!main.frames.is_empty());
    assert_eq!(d.smr_length, None);
    assert_eq!(d.deadlocks, 0);
    assert_eq!(d.jni_global_refs, Some(5));
    let attach = &d.threads[0];
    assert_eq!(
        (attach.name.as_str(), attach.daemon, attach.prio),
        ("Attach Listener", true, Some(9))
    );
}

#[test]
fn jcmd_thread_print_jdk26() {
    let d = parse_clean(JCMD26);
    assert_eq!(d.pid, Some(79411));
    assert_eq!(d.timestamp.as_deref(), Some("2026-03-06 19:31:39"));
    assert_eq!(
        d.jvm.as_deref(),
        Some("OpenJDK 64-Bit Server VM (26-ea+29-2803 mixed mode, sharing)")
    );
    assert_eq!(
        d.jdk_version.as_deref(),
        Some("OpenJDK Runtime Environment (26.0+29) (build 26-ea+29-2803)")
    );
    assert_eq!(d.smr_length, Some(13));
    assert_eq!(d.threads.len(), 21);
    let main = &d.threads[0];
    assert_eq!((main.name.as_str(), main.id), ("main", Some(3)));
    assert_eq!(main.nid, Some(5123), "decimal nid");
    assert_eq!(main.cpu_ms, Some(18.18));
    let gc = by_name(&d, "GC Thread#0");
    assert_eq!(
        (gc.id, gc.nid, gc.state.as_deref()),
        (None, Some(12291), None)
    );
    assert_eq!(d.jni_global_refs, Some(6));
}

#[test]
fn openjdk25_generated_deadlock() {
    let d = parse_clean(JDK25);
    assert_eq!(
        d.jvm.as_deref(),
        Some("OpenJDK 64-Bit Server VM (25+36-LTS mixed mode, sharing)")
    );
    assert_eq!(d.smr_length, Some(16));
    // 37 quoted lines, 4 of them in the deadlock report.
    assert_eq!(d.threads.len(), 33);
    let a = by_name(&d, "DeadlockThread-A");
    assert_eq!((a.id, a.nid, a.line), (Some(30), Some(42499), 316));
    assert_eq!(a.state.as_deref(), Some("BLOCKED"));
    assert_eq!(d.deadlocks, 1);
    assert_eq!(d.deadlocked_threads[0], "DeadlockThread-A");
    assert_eq!(d.jni_global_refs, Some(10));
}

#[test]
fn captured_openjdk17_jstack_and_jcmd() {
    for rel in [JSTACK17, JCMD17] {
        let d = parse_clean(rel);
        assert_eq!(
            d.jvm.as_deref(),
            Some("OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing)"),
            "{rel}"
        );
        assert_eq!(d.threads.len(), 29, "{rel}");
        assert_eq!(d.smr_length, Some(21), "{rel}");
        let waiter = by_name(&d, "lock-waiter");
        assert_eq!(waiter.state.as_deref(), Some("BLOCKED"));
        assert_eq!(waiter.nid, Some(0x61b7));
        assert_eq!(
            waiter.waiting_on.as_deref(),
            Some("<0x000000069e85ef58> (a java.lang.Object)")
        );
        let holder = by_name(&d, "lock-holder");
        assert!(holder.daemon);
        assert_eq!(holder.state_detail.as_deref(), Some("sleeping"));
        assert_eq!(
            holder.locks_held,
            vec!["<0x000000069e85ef58> (a java.lang.Object)"]
        );
        let pools = d.counts_by_pool();
        assert!(
            pools.contains(&("pool-1-thread-".to_string(), 3)),
            "{pools:?}"
        );
        assert_eq!(d.deadlocks, 0);
        assert_eq!(d.jni_global_refs, Some(14));
    }
    assert_eq!(parse_clean(JCMD17).pid, Some(24941));
    assert_eq!(parse_clean(JSTACK17).pid, None);
    assert_eq!(by_name(&parse_clean(JSTACK17), "main").line, 14);
    assert_eq!(by_name(&parse_clean(JCMD17), "main").line, 15);
}

#[test]
fn pool_names() {
    assert_eq!(pool_name("XNIO-1 task-3"), "XNIO-1 task-");
    assert_eq!(pool_name("pool-2-thread-7"), "pool-2-thread-");
    assert_eq!(pool_name("G1 Conc#0"), "G1 Conc#");
    assert_eq!(pool_name("main"), "main");
    assert_eq!(pool_name("123"), "123");
    assert_eq!(pool_name(""), "");
}

#[test]
fn virtual_thread_carrier_and_leading_id() {
    // Derived from the JDK 21 layouts: a carrier thread and a header with the id first.
    let text = "Full thread dump OpenJDK 64-Bit Server VM (21.0.2+13 mixed mode, sharing):\n\n\
        \"ForkJoinPool-1-worker-1\" #29 daemon prio=5 os_prio=0 cpu=1.50ms elapsed=2.00s tid=0x00007f1 nid=12345 waiting on condition  [0x00007f2]\n\
        \x20  java.lang.Thread.State: WAITING (parking)\n\
        \x20  Carrying virtual thread #31\n\
        \tat jdk.internal.vm.Continuation.run(java.base@21.0.2/Continuation.java:248)\n\n\
        #47 \"say \"hi\" thread\" daemon prio=5 tid=0x1 nid=0x10 runnable\n";
    let d = jvm::thread_dump::parse(text).unwrap();
    assert!(d.issues.is_empty(), "{:?}", d.issues);
    let c = &d.value.threads[0];
    assert_eq!(c.carrying_virtual_thread, Some(31));
    assert_eq!(c.nid, Some(12345));
    assert_eq!((c.cpu_ms, c.elapsed_s), (Some(1.5), Some(2.0)));
    assert_eq!(c.frames[0].line, 6);
    let q = &d.value.threads[1];
    assert_eq!(
        (q.name.as_str(), q.id, q.line),
        ("say \"hi\" thread", Some(47), 8)
    );
}

#[test]
fn malformed_inputs_are_partial_with_input_lines() {
    assert!(jvm::thread_dump::parse("").is_err());
    assert!(jvm::thread_dump::parse("hello\nworld\n").is_err());
    // Garbage line inside a thread.
    let text = insert_line(&fixture(JDK11), 14, "#### garbage ####");
    let p = jvm::thread_dump::parse(&text).unwrap();
    assert_eq!(p.issues.len(), 1, "{:?}", p.issues);
    assert_eq!(p.issues[0].line, 14);
    assert_eq!(p.value.threads.len(), 18);
    // Bad header attribute.
    let text = fixture(JDK11).replacen("nid=0x2803", "nid=0xZZ", 1);
    let p = jvm::thread_dump::parse(&text).unwrap();
    assert_eq!(p.issues[0].line, 11);
    assert_eq!(p.value.threads.len(), 17);
    // Truncated mid-thread: the last thread keeps what was read.
    let full = fixture(JSTACK17);
    let cut: String = full.lines().take(123).collect::<Vec<_>>().join("\n");
    let p = jvm::thread_dump::parse(&cut).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let last = p.value.threads.last().unwrap();
    assert_eq!((last.name.as_str(), last.line), ("pool-1-thread-1", 120));
    assert_eq!(last.frames.len(), 2);
    // Truncated inside the deadlock report: counted from the sections.
    let full = fixture(JDK11);
    let cut: String = full.lines().take(92).collect::<Vec<_>>().join("\n");
    let p = jvm::thread_dump::parse(&cut).unwrap();
    assert_eq!(p.value.deadlocks, 1);
}

#[test]
fn sniffer_claims_dumps_and_refuses_the_rest() {
    for rel in all_fixtures() {
        let Ok(bytes) = std::fs::read(fixture_path(&rel)) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let want = if ALL.contains(&rel.as_str())
            || (rel.starts_with("thread-dump/") && rel.ends_with(".txt"))
        {
            Sniff::Yes
        } else {
            Sniff::No
        };
        assert_eq!(
            jvm::thread_dump::sniff(head(&text, SNIFF_HEAD_BYTES)),
            want,
            "{rel}"
        );
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = XorShift(0x7ead_d0d0_cafe_f00d);
    let texts: Vec<String> = ALL.iter().map(|r| fixture(r)).collect();
    for round in 0..300 {
        let mut b = if round % 2 == 0 {
            let n = rng.below(3000);
            rng.bytes(n)
        } else {
            texts[round % texts.len()].as_bytes().to_vec()
        };
        for _ in 0..rng.below(30) {
            if !b.is_empty() {
                let i = rng.below(b.len());
                b[i] = rng.next_u64() as u8;
            }
        }
        let t = String::from_utf8_lossy(&b);
        let n_lines = t.lines().count();
        if let Ok(p) = jvm::thread_dump::parse(&t) {
            assert!(p.issues.iter().all(|i| i.line >= 1 && i.line <= n_lines));
        }
        let _ = jvm::thread_dump::sniff(&t);
    }
}

#[test]
fn the_jdk17_smr_block_with_a_delete_list_is_not_an_issue() {
    let t = "14335:\n2026-11-30 04:28:17\nFull thread dump OpenJDK 64-Bit Server VM (17.0.15+6-Debian-1deb12u1 mixed mode, sharing):\n\nThreads class SMR info:\n_java_thread_list=0x00007f7efc000c40, length=2, elements={\n0x00007f7f74019310, 0x00007f7f740596c0\n}\n_to_delete_list=0x0000556623f88db0, length=1, elements={\n0x00007f7f74019310\n}\n\n\"main\" #1 prio=5 os_prio=0 cpu=10.00ms elapsed=5.00s tid=0x00007f7f74019310 nid=0x37f0 waiting on condition  [0x00007f7f7a1fe000]\n   java.lang.Thread.State: TIMED_WAITING (sleeping)\n\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n\n";
    let p = parsers::jvm::thread_dump::parse(t).expect("parses");
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    assert_eq!(p.value.smr_length, Some(2));
    assert_eq!(p.value.threads.len(), 1);
}

const CONTENTION17: &str = "thread-dump/jstack-l-openjdk17-contention.txt";
const DEADLOCK17: &str = "thread-dump/jcmd-thread-print-l-openjdk17-deadlock.txt";
const RDEADLOCK17: &str = "thread-dump/jstack-l-openjdk17-reentrantlock-deadlock.txt";

#[test]
fn captured_openjdk17_contended_monitor_has_owner_and_waiters() {
    use jvm::thread_dump::WaitVerb;
    let d = parse_clean(CONTENTION17);
    let holder = by_name(&d, "holder");
    assert_eq!(holder.state.as_deref(), Some("TIMED_WAITING"));
    // Locked at two frames (a synchronized method called inside a synchronized block): once.
    assert_eq!(holder.held.len(), 1);
    assert_eq!(holder.held[0].address, "0x000000069ec1bc00");
    assert_eq!(holder.held[0].class.as_deref(), Some("Locks$Inventory"));
    assert_eq!(holder.held[0].line, 132);
    assert_eq!(
        holder.frames[1].text,
        "Locks$Inventory.reserve(Locks.java:15)"
    );
    let waiters: Vec<_> = d
        .threads
        .iter()
        .filter(|t| {
            t.wait.as_ref().is_some_and(|w| {
                w.verb == WaitVerb::Enter && w.lock.address == "0x000000069ec1bc00"
            })
        })
        .collect();
    assert_eq!(waiters.len(), 120);
    assert!(waiters
        .iter()
        .all(|t| t.state.as_deref() == Some("BLOCKED")));
    let w1 = by_name(&d, "worker-1");
    assert_eq!(w1.wait.as_ref().map(|w| w.lock.line), Some(144));
    // The reference handler waits on a notify, not for a monitor.
    let rh = by_name(&d, "Reference Handler");
    assert!(rh.wait.is_none() || rh.wait.as_ref().is_some_and(|w| w.verb != WaitVerb::Enter));
    assert_eq!(d.deadlocks, 0);
    assert!(d.deadlock_reports.is_empty());
}

#[test]
fn captured_openjdk17_monitor_deadlock_report() {
    let d = parse_clean(DEADLOCK17);
    assert_eq!(d.pid, Some(21820));
    assert_eq!(d.deadlocks, 1);
    assert_eq!(d.deadlock_reports.len(), 1);
    let r = &d.deadlock_reports[0];
    assert_eq!(r.line, 146);
    let e: Vec<(&str, &str, Option<&str>)> = r
        .edges
        .iter()
        .map(|e| {
            let w = e.waits_for.as_ref().expect("lock");
            (e.thread.as_str(), w.address.as_str(), e.held_by.as_deref())
        })
        .collect();
    assert_eq!(
        e,
        vec![
            ("left", "0x000000069ec1b1c0", Some("right")),
            ("right", "0x000000069ec1b1b0", Some("left")),
        ]
    );
    assert_eq!(r.edges[0].lock_kind.as_deref(), Some("monitor"));
    assert_eq!(r.edges[0].lines, vec![148, 149, 150]);
    assert_eq!(
        r.edges[0]
            .waits_for
            .as_ref()
            .and_then(|w| w.class.as_deref()),
        Some("java.lang.Object")
    );
    // The stack of each deadlocked thread: it holds what the other waits for.
    let left = by_name(&d, "left");
    assert_eq!(left.held[0].address, "0x000000069ec1b1b0");
}

#[test]
fn captured_openjdk17_reentrantlock_deadlock_report() {
    use jvm::thread_dump::WaitVerb;
    let d = parse_clean(RDEADLOCK17);
    assert_eq!(d.deadlocks, 1);
    let r = &d.deadlock_reports[0];
    assert_eq!(r.edges.len(), 2);
    assert_eq!(r.edges[0].thread, "reader");
    assert_eq!(
        r.edges[0].lock_kind.as_deref(),
        Some("ownable synchronizer")
    );
    assert_eq!(r.edges[0].held_by.as_deref(), Some("writer"));
    let w = r.edges[0].waits_for.as_ref().expect("lock");
    assert_eq!(w.address, "0x000000069ec1b3e8");
    assert_eq!(
        w.class.as_deref(),
        Some("java.util.concurrent.locks.ReentrantLock$NonfairSync")
    );
    let reader = by_name(&d, "reader");
    let wait = reader.wait.as_ref().expect("parked");
    assert_eq!(wait.verb, WaitVerb::Park);
    assert_eq!(wait.lock.address, "0x000000069ec1b3e8");
    assert_eq!(wait.lock.line, 101);
    // `jstack -l` lists the lock the writer owns among its ownable synchronizers.
    let writer = by_name(&d, "writer");
    assert!(writer.held.is_empty(), "{:?}", writer.held);
    assert!(
        writer
            .owned_synchronizers
            .iter()
            .any(|h| h.address == "0x000000069ec1b3e8" && h.line == 130),
        "{:?}",
        writer.owned_synchronizers
    );
}

#[test]
fn public_deadlock_reports_name_threads_locks_and_owners() {
    for (rel, first, addr, owner) in [
        (JDK8, "Thread-1", "0x000000076b9a5268", "Thread-0"),
        (JDK11, "main", "0x000000070fe20f58", "Thread-0"),
        (
            JDK25,
            "DeadlockThread-A",
            "0x000000052c830070",
            "DeadlockThread-B",
        ),
    ] {
        let d = parse_clean(rel);
        let e = &d.deadlock_reports[0].edges[0];
        assert_eq!(e.thread, first, "{rel}");
        assert_eq!(
            e.waits_for.as_ref().map(|w| w.address.as_str()),
            Some(addr),
            "{rel}"
        );
        assert_eq!(e.held_by.as_deref(), Some(owner), "{rel}");
        assert_eq!(d.deadlock_reports[0].edges.len(), 2, "{rel}");
    }
}
