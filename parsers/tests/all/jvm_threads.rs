//! `threads.tsv` parser against real captures (see `fixtures/PROVENANCE.md`): the collector's
//! file for an OpenJDK 17 program with a four-thread pool, and the collector's `threads.awk`
//! run on a ZooKeeper 3.8.0 server.

use crate::common::{
    all_fixtures, fixture, fixture_path, head, insert_line, XorShift, SNIFF_HEAD_BYTES,
};
use parsers::jvm;
use parsers::Sniff;

const JAVA: &str = "captured-proc/collector-threads-jdk17.tsv";
const ZK: &str = "captured-proc/threads-zookeeper-3.8.0-jdk17.tsv";

#[test]
fn collector_threads_of_a_pool_program() {
    let p = jvm::thread_counts::parse(&fixture(JAVA)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let t = p.value;
    assert_eq!(t.rows.len(), 23);
    // The same process's /proc/PID/status says `Threads: 24`.
    assert_eq!(t.total(), 24);
    assert_eq!(
        (t.rows[0].count, t.rows[0].name.as_str(), t.rows[0].line),
        (2, "java", 1)
    );
    assert_eq!(t.count_prefix("pool-1-thread-"), 4);
    assert_eq!(t.get("C2 CompilerThre").unwrap().line, 21);
    assert_eq!(t.get("GC Thread#0").unwrap().count, 1);
    assert_eq!(t.count_prefix("GC Thread#"), 1);
    assert!(t.get("Attach Listener").is_some());
    assert!(t.get("nope").is_none());
}

#[test]
fn zookeeper_server() {
    let p = jvm::thread_counts::parse(&fixture(ZK)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let t = p.value;
    assert_eq!(t.rows.len(), 32);
    assert_eq!(t.total(), 37);
    assert_eq!(t.get("NIOWorkerThread").unwrap().count, 4);
    assert_eq!(t.get("NIOServerCxnFac").unwrap().count, 2);
    assert_eq!(t.get("SyncThread:0").unwrap().count, 1);
    assert_eq!(t.count_prefix("GC Thread#"), 2);
}

#[test]
fn odd_names_and_bad_lines() {
    // Derived: names with spaces, a TAB and nothing at all (comm may hold any byte but NUL and
    // newline).
    let text = "12\tpool-7-thread-\n3\tname with\ttab\n1\t\n2\tGC Thread#0\n";
    let p = jvm::thread_counts::parse(text).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let t = p.value;
    assert_eq!(t.total(), 18);
    assert_eq!(t.rows[1].name, "name with\ttab");
    assert_eq!(t.rows[2].name, "");

    let text = insert_line(&fixture(JAVA), 3, "no tab here") + "x\tname\n0\tzero\n-1\tneg\n";
    let p = jvm::thread_counts::parse(&text).unwrap();
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, vec![3, 25, 26, 27], "{:?}", p.issues);
    assert_eq!(p.value.total(), 24);
    assert_eq!(p.value.get("pool-1-thread-3").unwrap().line, 4);
    for t in [
        "",
        "\n",
        "  \n\t\n",
        "\u{feff}",
        "hello\nworld\n",
        "abc\tdef\n",
    ] {
        assert!(jvm::thread_counts::parse(t).is_err(), "{t:?}");
    }
    let whole = fixture(ZK);
    for cut in 0..whole.len() {
        let _ = jvm::thread_counts::parse(&whole[..cut]);
    }
}

#[test]
fn sniffer_claims_its_own_and_refuses_the_rest() {
    for rel in [JAVA, ZK] {
        let t = fixture(rel);
        assert_eq!(
            jvm::thread_counts::sniff(head(&t, SNIFF_HEAD_BYTES)),
            Sniff::Yes,
            "{rel}"
        );
        assert_eq!(
            jvm::thread_counts::sniff(&t[..100]),
            Sniff::Yes,
            "{rel} cut mid-line"
        );
    }
    // Counts and names without a thread every HotSpot JVM has are not claimed.
    assert_eq!(jvm::thread_counts::sniff("3\tworker\n1\tmain\n"), Sniff::No);
    // The collector's IRQ table has three fields.
    assert_eq!(jvm::thread_counts::sniff("24\t0-1\tVM Thread\n"), Sniff::No);
    assert_eq!(jvm::thread_counts::sniff(""), Sniff::No);
    for rel in all_fixtures() {
        if rel == JAVA || rel == ZK {
            continue;
        }
        let Ok(bytes) = std::fs::read(fixture_path(&rel)) else {
            continue;
        };
        let t = String::from_utf8_lossy(&bytes);
        assert_eq!(
            jvm::thread_counts::sniff(head(&t, SNIFF_HEAD_BYTES)),
            Sniff::No,
            "{rel}"
        );
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = XorShift(0x7a12_ead5_0000_0001);
    let texts = [fixture(JAVA), fixture(ZK)];
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
                b[i] = b"\t 0123456789\n"[rng.below(13)];
            }
        }
        let t = String::from_utf8_lossy(&b);
        let n_lines = t.lines().count();
        if let Ok(p) = jvm::thread_counts::parse(&t) {
            assert!(p.issues.iter().all(|i| i.line >= 1 && i.line <= n_lines));
            let _ = p.value.total();
        }
        let _ = jvm::thread_counts::sniff(&t);
    }
    // Counts that would overflow a sum.
    let big = "18446744073709551615\tVM Thread\n18446744073709551615\tx\n";
    let p = jvm::thread_counts::parse(big).unwrap();
    assert_eq!(p.value.count_prefix(""), u64::MAX);
}
