//! End-to-end incident bundles of NIC receive-queue drops (`analyzer/tests/fixtures/incidents/`,
//! see its README.md): two `ethtool -S` snapshots of a vmxnet3 NIC, one minute apart, derived
//! from a real output. Checks the ranking, the severities, the cited lines of both snapshots and
//! the exit status; the healthy twin must leave both rules clear, and a single snapshot must
//! leave them not evaluated with the reason.

use super::common::{
    analyze_json as analyze, cited_lines as cited, findings, incident, rule_status,
};

const LATER: &str = "ethtool/ens192/ethtool-S_20261202T101600Z.txt";
const EARLIER: &str = "ethtool/ens192/ethtool-S_20261202T101500Z.txt";

#[test]
fn one_vmxnet3_queue_out_of_buffers_ranks_the_queue_first() {
    let (code, doc) = analyze(&incident("nic-queue-drops"));
    assert_eq!(code, Some(1));
    let f = findings(&doc);
    // Where the drops fall explains the ring running out: it ranks first, at its severity.
    assert_eq!(f[0]["rule_id"], "nic.rx-queue-drops");
    assert_eq!(f[1]["rule_id"], "nic.rx-out-of-buffer");
    assert_eq!(f[1]["severity"], "critical", "300 out-of-buffer events/s");
    assert_eq!(f[0]["severity"], "critical");
    assert_eq!(
        f[0]["title"],
        "ens192: receive queue 1 holds 100 % of the queue drops (18000 of 18000)"
    );
    assert_eq!(
        f[1]["title"],
        "ens192: receive ring out of buffers 18000 times in 60 s (300.0/s)"
    );
    let details = f[0]["details"].to_string();
    assert!(details.contains("80 % of the packets"), "{details}");
    // The queue's header and counter in the later snapshot, the same counter in the earlier:
    // queue 1's `pkts rx OOB`, never queue 0's line of the same name.
    let lines = cited(&f[1]);
    let has = |p: &str, l: u64, t: &str| {
        lines
            .iter()
            .any(|(path, line, text)| path.ends_with(p) && *line == l && text.trim() == t)
    };
    assert!(has(LATER, 57, "Rx Queue#: 1"), "{lines:?}");
    assert!(has(LATER, 66, "pkts rx OOB: 18000"), "{lines:?}");
    assert!(has(EARLIER, 66, "pkts rx OOB: 0"), "{lines:?}");
    assert!(!lines.iter().any(|(_, l, _)| *l == 51), "{lines:?}");
}

#[test]
fn the_healthy_twin_leaves_both_rules_clear() {
    let (_, doc) = analyze(&incident("nic-queue-drops-healthy"));
    assert!(findings(&doc)
        .iter()
        .all(|f| !f["rule_id"].as_str().unwrap().starts_with("nic.rx-")));
    for id in ["nic.rx-queue-drops", "nic.rx-out-of-buffer"] {
        assert_eq!(rule_status(&doc, id)["status"], "clear", "{id}");
    }
}

#[test]
fn one_snapshot_is_not_evaluated_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let nic = dir.path().join("ethtool/ens192");
    std::fs::create_dir_all(&nic).unwrap();
    std::fs::copy(
        incident("nic-queue-drops").join(LATER),
        nic.join("ethtool-S_20261202T101600Z.txt"),
    )
    .unwrap();
    let (_, doc) = analyze(dir.path());
    for id in ["nic.rx-queue-drops", "nic.rx-out-of-buffer"] {
        let s = rule_status(&doc, id);
        assert_eq!(s["status"], "not-evaluated", "{id}");
        let why = s["reason"].as_str().unwrap();
        assert!(
            why.contains("one `ethtool -S` snapshot of ens192") && why.contains("needs two"),
            "{id}: {why}"
        );
    }
}

/// A real collector run: `ethtool -S` at the window's start and end, paired by the manifest's
/// times. virtio_net counts drops on its one receive queue and has no out-of-buffer counter,
/// and the rules say so rather than asking for a second snapshot.
#[test]
fn the_collectors_two_snapshots_are_paired_by_the_manifest() {
    let (_, doc) = analyze(&incident("nic-stats-collector"));
    let why = |id: &str| {
        rule_status(&doc, id)["reason"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        why("nic.rx-out-of-buffer"),
        "the `ethtool -S` of eth0 print no out-of-buffer counter"
    );
    assert_eq!(
        why("nic.rx-queue-drops"),
        "no per-queue receive drop counters on two or more queues in the `ethtool -S` of eth0"
    );
}

/// Two snapshots of a NIC with 20 000 receive queues, every one out of buffers: analyzed
/// without a hang (the work is linear in the counters; the finding cites the 8 largest).
#[test]
fn twenty_thousand_queues_finish_and_cite_a_bounded_excerpt() {
    let dir = tempfile::tempdir().unwrap();
    let nic = dir.path().join("ethtool/ens192");
    std::fs::create_dir_all(&nic).unwrap();
    let snap = |grown: u64| {
        let mut t = String::from("NIC statistics:\n");
        for q in 0..20_000u64 {
            t += &format!(
                "     Rx Queue#: {q}\n       ucast pkts rx: {}\n       pkts rx OOB: {}\n",
                1000 + grown * 10,
                grown * (q + 1)
            );
        }
        t + "     tx timeout count: 0\n"
    };
    std::fs::write(nic.join("ethtool-S_20261202T101500Z.txt"), snap(0)).unwrap();
    std::fs::write(nic.join("ethtool-S_20261202T101600Z.txt"), snap(1)).unwrap();
    let started = std::time::Instant::now();
    let (code, doc) = analyze(dir.path());
    // A hang deadline, not a timing: a quadratic walk over 20 000 sections takes hours.
    assert!(started.elapsed().as_secs() < 120);
    assert_eq!(code, Some(1));
    let f = findings(&doc)
        .iter()
        .find(|f| f["rule_id"] == "nic.rx-out-of-buffer")
        .unwrap();
    let cited = cited(f);
    // Header, 8 counters and their 8 queue headers in the later snapshot; 8 in the earlier.
    assert!(cited.iter().filter(|(_, l, _)| *l > 0).count() <= 1 + 8 + 8 + 8);
    assert!(f["details"][0]
        .as_str()
        .unwrap()
        .contains("queue 19999: 20000"));
    assert!(f["details"][0]
        .as_str()
        .unwrap()
        .ends_with("and 19992 more queue(s)."));
}
