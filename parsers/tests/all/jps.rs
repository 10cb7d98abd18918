//! `jps` parser against real captures from OpenJDK 17.0.15 (see `fixtures/PROVENANCE.md`): the
//! collector's `jps -lv` (without jps's own line: it runs jps with `-XX:-UsePerfData`), plain
//! `jps`, `jps -l`, `jps -lv`, `jps -lmv`, and a `jps -lv` with an unreadable `hsperfdata`
//! file (`-- process information unavailable`).

use crate::common::{
    all_fixtures, fixture, fixture_path, head, insert_line, XorShift, SNIFF_HEAD_BYTES,
};
use parsers::jvm::jps;
use parsers::Sniff;

const COLLECTOR: &str = "captured-proc/collector-jps-lv-jdk17.txt";
const PLAIN: &str = "captured-proc/jps-jdk17.txt";
const L: &str = "captured-proc/jps-l-jdk17.txt";
const LV: &str = "captured-proc/jps-lv-jdk17.txt";
const LMV: &str = "captured-proc/jps-lmv-jdk17.txt";
const UNAVAILABLE: &str = "captured-proc/jps-lv-unavailable-jdk17.txt";
const ALL: [&str; 6] = [COLLECTOR, PLAIN, L, LV, LMV, UNAVAILABLE];

#[test]
fn collector_jps_lv() {
    let p = jps::parse(&fixture(COLLECTOR)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let j = p.value;
    assert_eq!(j.entries.len(), 3);
    assert!(j
        .entries
        .iter()
        .all(|e| !e.is_jps() && e.unavailable.is_none()));
    let jar = &j.entries[0];
    assert_eq!((jar.pid, jar.line), (14692, 1));
    assert_eq!(jar.main.as_deref(), Some("/tmp/rcacap/sleeper.jar"));
    assert_eq!(jar.main_simple(), Some("sleeper.jar"));
    assert_eq!(jar.args, vec!["-Xms32m", "-Xmx64m"]);
    let zk = j.get(11925).unwrap();
    assert_eq!(
        zk.main.as_deref(),
        Some("org.apache.zookeeper.server.quorum.QuorumPeerMain")
    );
    assert_eq!(zk.main_simple(), Some("QuorumPeerMain"));
    assert_eq!(zk.line, 2);
    assert_eq!(zk.args.len(), 11);
    assert_eq!(zk.args[0], "-Dzookeeper.log.dir=/var/log/zookeeper");
    // jps prints the arguments joined by spaces: one with spaces comes out as several words.
    assert_eq!(&zk.args[3..6], &["-XX:OnOutOfMemoryError=kill", "-9", "%p"]);
    assert_eq!(
        zk.system_property("zookeeper.log.dir"),
        Some("/var/log/zookeeper")
    );
    assert_eq!(
        zk.system_property("com.sun.management.jmxremote.local.only"),
        Some("true")
    );
    assert_eq!(zk.system_property("com.sun.management.jmxremote"), None);
    let sleeper = j.get(12887).unwrap();
    assert_eq!(sleeper.main.as_deref(), Some("Sleeper"));
    assert_eq!(
        sleeper.args,
        vec!["-Xmx64m", "-Dapp.name=sleeper", "-XX:+UseG1GC"]
    );
    assert_eq!(j.jvms().count(), 3);
}

#[test]
fn plain_l_lv_and_lmv() {
    let j = jps::parse(&fixture(PLAIN)).unwrap().value;
    let mains: Vec<(u32, &str)> = j
        .entries
        .iter()
        .map(|e| (e.pid, e.main.as_deref().unwrap()))
        .collect();
    assert_eq!(
        mains,
        vec![
            (14692, "sleeper.jar"),
            (11925, "QuorumPeerMain"),
            (14871, "Jps"),
            (12887, "Sleeper")
        ]
    );
    assert!(j.entries.iter().all(|e| e.args.is_empty()));
    assert!(j.entries[2].is_jps());
    assert_eq!(j.jvms().count(), 3);

    let j = jps::parse(&fixture(L)).unwrap().value;
    assert_eq!(
        j.entries[0].main.as_deref(),
        Some("jdk.jcmd/sun.tools.jps.Jps")
    );
    assert!(j.entries[0].is_jps());
    assert_eq!(j.entries[0].main_simple(), Some("Jps"));

    let p = jps::parse(&fixture(LV)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let me = p.value.entries.iter().find(|e| e.is_jps()).unwrap();
    assert_eq!((me.pid, me.line), (14815, 4));
    assert_eq!(
        me.system_property("application.home"),
        Some("/usr/lib/jvm/java-17-openjdk-amd64")
    );

    // With -m the main arguments come first, then the JVM arguments.
    let j = jps::parse(&fixture(LMV)).unwrap().value;
    assert_eq!(
        j.entries[0].args,
        vec!["--mode", "demo", "-Xms32m", "-Xmx64m"]
    );
    assert_eq!(j.get(11925).unwrap().args[0], "/tmp/zkproto/conf/zoo.cfg");
    assert_eq!(j.entries[3].args[0], "-lmv");
}

#[test]
fn unavailable_entries_are_kept_and_flagged() {
    let p = jps::parse(&fixture(UNAVAILABLE)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let e = &p.value.entries[0];
    assert_eq!((e.pid, e.line), (14928, 1));
    assert_eq!(e.main, None);
    assert!(e.args.is_empty());
    assert_eq!(
        e.unavailable.as_deref(),
        Some("process information unavailable")
    );
    assert_eq!(p.value.entries.len(), 5);
    assert_eq!(p.value.jvms().count(), 4);

    // Derived: the other messages jps prints (Jps.java), after whatever it had printed.
    let text = "4828 -- main class information unavailable\n\
                4829  -- main class information unavailable\n\
                4830 org.example.Main -- jvm args information unavailable\n\
                4831 org.example.Main -Xmx1g -- detach failed\n\
                4832 org.example.Main --port 80 -- x\n\
                4833\n";
    let p = jps::parse(text).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let e = &p.value.entries;
    assert_eq!(
        e[0].unavailable.as_deref(),
        Some("main class information unavailable")
    );
    assert_eq!(
        (e[1].main.as_deref(), e[1].unavailable.is_some()),
        (None, true)
    );
    assert_eq!(e[2].main.as_deref(), Some("org.example.Main"));
    assert_eq!(
        e[2].unavailable.as_deref(),
        Some("jvm args information unavailable")
    );
    assert!(e[2].args.is_empty());
    assert_eq!(e[3].args, vec!["-Xmx1g"]);
    assert_eq!(e[3].unavailable.as_deref(), Some("detach failed"));
    // A `--` among the main arguments is not a message.
    assert_eq!(e[4].args, vec!["--port", "80", "--", "x"]);
    assert_eq!(e[4].unavailable, None);
    // `jps -q`: the process id alone.
    assert_eq!((e[5].pid, e[5].main.as_deref()), (4833, None));
}

#[test]
fn bad_lines_are_issues_with_input_lines() {
    let text =
        insert_line(&fixture(LV), 2, "Error: could not attach") + "x123 Foo\n99999999999 Big\n";
    let p = jps::parse(&text).unwrap();
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, vec![2, 6, 7], "{:?}", p.issues);
    assert_eq!(p.value.entries.len(), 4);
    assert_eq!(p.value.get(11925).unwrap().line, 3);
    for t in [
        "",
        "\n",
        "  \n\t\n",
        "\u{feff}",
        "hello world\n",
        "-- process information unavailable\n",
    ] {
        assert!(jps::parse(t).is_err(), "{t:?}");
    }
    let whole = fixture(LV);
    for cut in 0..whole.len() {
        let _ = jps::parse(&whole[..cut]);
    }
    // A huge line full of `-- ` is read in one pass.
    let long = format!("1 Main {}\n", "-- ".repeat(2_000_000));
    let start = std::time::Instant::now();
    let p = jps::parse(&long).unwrap();
    assert!(start.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(p.value.entries[0].args.len(), 2_000_000);
}

#[test]
fn sniffer_claims_its_own_and_refuses_the_rest() {
    for rel in ALL {
        let t = fixture(rel);
        assert_eq!(jps::sniff(head(&t, SNIFF_HEAD_BYTES)), Sniff::Yes, "{rel}");
        let cut = t.find('\n').unwrap() + 10;
        assert_eq!(jps::sniff(&t[..cut]), Sniff::Yes, "{rel} cut mid-line");
    }
    // A bare `PID Name` list without jps, a dotted class, a JAR or a message is too weak.
    assert_eq!(jps::sniff("123 Foo\n456 Bar\n"), Sniff::No);
    assert_eq!(
        jps::sniff("2 connections watching 5 paths\nTotal watches:7\n"),
        Sniff::No
    );
    assert_eq!(jps::sniff("2\tjava\n1\tVM Thread\n"), Sniff::No);
    assert_eq!(jps::sniff(""), Sniff::No);
    for rel in all_fixtures() {
        if ALL.contains(&rel.as_str()) {
            continue;
        }
        let Ok(bytes) = std::fs::read(fixture_path(&rel)) else {
            continue;
        };
        let t = String::from_utf8_lossy(&bytes);
        assert_eq!(jps::sniff(head(&t, SNIFF_HEAD_BYTES)), Sniff::No, "{rel}");
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = XorShift(0x0a95_1234_8765_4321);
    let texts: Vec<String> = ALL.iter().map(|r| fixture(r)).collect();
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
                b[i] = b"- .=/0123456789\n"[rng.below(16)];
            }
        }
        let t = String::from_utf8_lossy(&b);
        let n_lines = t.lines().count();
        if let Ok(p) = jps::parse(&t) {
            assert!(p.issues.iter().all(|i| i.line >= 1 && i.line <= n_lines));
            for e in &p.value.entries {
                let _ = (e.main_simple(), e.is_jps(), e.system_property("a"));
            }
        }
        let _ = jps::sniff(&t);
    }
}
