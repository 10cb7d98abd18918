//! ZooKeeper parsers against the shared corpus (`zoo_sample.cfg` from apache/zookeeper) and
//! four-letter-word answers captured from a standalone ZooKeeper 3.8.0 (Debian package) on the
//! development machine (see `fixtures/PROVENANCE.md`).

use crate::common::{
    all_fixtures, fixture, fixture_path, head, insert_line, XorShift, SNIFF_HEAD_BYTES,
};
use parsers::zookeeper;
use parsers::Sniff;

const CFG: &str = "zookeeper/apache-zookeeper__zoo_sample.cfg";
const MNTR: &str = "captured-zk/zk-3.8.0-mntr.txt";
const WCHS: &str = "captured-zk/zk-3.8.0-wchs.txt";
const SRVR: &str = "captured-zk/zk-3.8.0-srvr.txt";
const CONF: &str = "captured-zk/zk-3.8.0-conf.txt";

#[test]
fn sample_cfg_standalone() {
    let p = zookeeper::config::parse_cfg(&fixture(CFG)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let c = p.value;
    assert_eq!(c.tick_time(), Some(2000));
    assert_eq!(c.init_limit(), Some(10));
    assert_eq!(c.sync_limit(), Some(5));
    assert_eq!(c.data_dir(), Some("/tmp/zookeeper"));
    assert_eq!(c.client_port(), Some(2181));
    assert_eq!(c.data_log_dir(), None);
    assert_eq!(c.max_client_cnxns(), None);
    assert!(c.servers.is_empty(), "standalone: no server.N lines");
    assert_eq!(c.entries.len(), 5);
    assert_eq!(c.get("tickTime").unwrap().line, 2);
    assert_eq!(c.get("clientPort").unwrap().line, 14);
}

#[test]
fn cfg_quorum_servers_and_autopurge() {
    // Derived: a 3.5+ ensemble config with every server.N form.
    let text = "tickTime=2000\ndataDir=/var/lib/zk\ndataLogDir=/zk/txlog\nsnapCount=100000\n\
                maxClientCnxns=0\nautopurge.snapRetainCount=3\nautopurge.purgeInterval=24\n\
                server.1=zk1.example.org:2888:3888\n\
                server.2=zk2:2888:3888:participant;2181\n\
                server.3=zk3:2888:3888:observer;0.0.0.0:2181\n\
                server.4=[2001:db8::4]:2888:3888\n";
    let p = zookeeper::config::parse_cfg(text).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let c = p.value;
    assert_eq!(c.data_log_dir(), Some("/zk/txlog"));
    assert_eq!(c.snap_count(), Some(100_000));
    assert_eq!(c.max_client_cnxns(), Some(0));
    assert_eq!(c.autopurge_snap_retain_count(), Some(3));
    assert_eq!(c.autopurge_purge_interval(), Some(24));
    assert_eq!(c.servers.len(), 4);
    let s = &c.servers[0];
    assert_eq!((s.id, s.host.as_str()), (1, "zk1.example.org"));
    assert_eq!((s.peer_port, s.election_port), (Some(2888), Some(3888)));
    assert_eq!((s.role.as_deref(), s.client_port, s.line), (None, None, 8));
    let s = &c.servers[1];
    assert_eq!(
        (
            s.role.as_deref(),
            s.client_address.as_deref(),
            s.client_port
        ),
        (Some("participant"), None, Some(2181))
    );
    let s = &c.servers[2];
    assert_eq!(
        (
            s.role.as_deref(),
            s.client_address.as_deref(),
            s.client_port
        ),
        (Some("observer"), Some("0.0.0.0"), Some(2181))
    );
    assert_eq!(c.servers[3].host, "2001:db8::4");
    assert_eq!(c.servers[3].election_port, Some(3888));
}

#[test]
fn cfg_bad_lines_are_issues_with_input_lines() {
    let text = insert_line(&fixture(CFG), 3, "this is not a setting");
    let text = text.replace("syncLimit=5", "syncLimit=five") + "server.x=zk1:2888:3888\n";
    let p = zookeeper::config::parse_cfg(&text).unwrap();
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, vec![3, 9, 16], "{:?}", p.issues);
    assert_eq!(p.value.sync_limit(), None);
    assert_eq!(p.value.tick_time(), Some(2000));
    assert_eq!(p.value.get("clientPort").unwrap().line, 15);
    assert!(zookeeper::config::parse_cfg("").is_err());
    assert!(zookeeper::config::parse_cfg("# only comments\n\n").is_err());
}

#[test]
fn mntr_captured() {
    let p = zookeeper::mntr::parse_mntr(&fixture(MNTR)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let m = p.value;
    assert_eq!(m.entries.len(), 495);
    assert_eq!(
        m.version(),
        Some("3.8.0-${mvngit.commit.id}, built on 2024-12-29 17:54 UTC")
    );
    assert_eq!(m.server_state(), Some("standalone"));
    assert_eq!(m.avg_latency(), Some(1.3529));
    assert_eq!(m.max_latency(), Some(8.0));
    assert_eq!(m.min_latency(), Some(0.0));
    assert_eq!(m.num_alive_connections(), Some(3));
    assert_eq!(m.outstanding_requests(), Some(0));
    assert_eq!(m.znode_count(), Some(12));
    assert_eq!(m.watch_count(), Some(8));
    assert_eq!(m.ephemerals_count(), Some(1));
    assert_eq!(m.approximate_data_size(), Some(103));
    assert_eq!(m.open_file_descriptor_count(), Some(42));
    assert_eq!(m.max_file_descriptor_count(), Some(20000));
    assert_eq!(m.followers(), None, "standalone: no leader metrics");
    // Unknown keys are kept, with their lines.
    let e = m.get("zk_avg_app_write_per_namespace").unwrap();
    assert_eq!((e.num, e.line), (Some(8.4286), 491));
    assert_eq!(m.get("zk_server_state").unwrap().line, 2);
}

#[test]
fn mntr_garbage_and_truncation() {
    let text = insert_line(&fixture(MNTR), 4, "garbage here");
    let p = zookeeper::mntr::parse_mntr(&text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 4);
    assert_eq!(p.value.get("zk_avg_latency").unwrap().line, 6);
    let cut = &fixture(MNTR)[..300];
    let p = zookeeper::mntr::parse_mntr(cut).unwrap();
    assert_eq!(p.value.server_state(), Some("standalone"));
    assert!(zookeeper::mntr::parse_mntr("").is_err());
    assert!(zookeeper::mntr::parse_mntr("hello\nworld\n").is_err());
}

#[test]
fn wchs_captured() {
    let p = zookeeper::wchs::parse_wchs(&fixture(WCHS)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let w = p.value;
    assert_eq!((w.connections, w.paths), (Some(2), Some(5)));
    assert_eq!(w.total_watches, Some(7));
    assert_eq!((w.summary_line, w.total_line), (Some(1), Some(2)));
    let p =
        zookeeper::wchs::parse_wchs("2 connections watching 5 paths\nTotal watches:x\n").unwrap();
    assert_eq!(p.issues[0].line, 2);
    assert!(zookeeper::wchs::parse_wchs("").is_err());
}

#[test]
fn srvr_captured() {
    let p = zookeeper::srvr::parse_srvr(&fixture(SRVR)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let s = p.value;
    assert_eq!(
        s.version.as_deref(),
        Some("3.8.0-${mvngit.commit.id}, built on 2024-12-29 17:54 UTC")
    );
    assert_eq!(
        (s.latency_min, s.latency_avg, s.latency_max),
        (Some(0.0), Some(1.2632), Some(8.0))
    );
    assert_eq!((s.received, s.sent), (Some(23), Some(24)));
    assert_eq!((s.connections, s.outstanding), (Some(3), Some(0)));
    assert_eq!(s.zxid, Some(9));
    assert_eq!(s.mode.as_deref(), Some("standalone"));
    assert_eq!(s.node_count, Some(12));
    assert_eq!(s.entries.len(), 9);
    assert_eq!(s.entries[8].line, 9);
}

#[test]
fn stat_clients_are_skipped_and_bad_values_reported() {
    let text = "Zookeeper version: 3.4.14-4c25d480e66aadd371de8bd2fd8da255ac140bcf, built on 03/06/2019 16:18 GMT\n\
                Clients:\n /127.0.0.1:53000[1](queued=0,recved=5,sent=5)\n\n\
                Latency min/avg/max: 0/x/8\nMode: follower\nNode count: 4\n";
    let p = zookeeper::srvr::parse_srvr(text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 5);
    assert_eq!(p.value.mode.as_deref(), Some("follower"));
    assert_eq!(p.value.node_count, Some(4));
    assert!(zookeeper::srvr::parse_srvr("").is_err());
}

#[test]
fn conf_captured() {
    let p = zookeeper::config::parse_conf(&fixture(CONF)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let c = p.value;
    assert_eq!(c.client_port(), Some(43303));
    assert_eq!(c.data_dir(), Some("/tmp/zkb/data/version-2"));
    assert_eq!(c.data_log_dir(), Some("/tmp/zkb/data/version-2"));
    assert_eq!(c.tick_time(), Some(2000));
    assert_eq!(c.max_client_cnxns(), Some(60));
    assert_eq!(c.get_u64("maxSessionTimeout"), Some(40000));
    assert_eq!(c.get("serverId").unwrap().value, "0");
    assert_eq!(c.get("serverId").unwrap().line, 12);
    assert!(c.membership.is_empty());
}

#[test]
fn conf_membership_block() {
    // Derived: the quorum-mode layout of `conf` (3.5+).
    let text = "clientPort=2181\nsecureClientPort=-1\ndataDir=/data/version-2\ninitLimit=10\n\
                syncLimit=5\nmembership: \nserver.1=zk1:2888:3888:participant;0.0.0.0:2181\n\
                server.2=zk2:2888:3888:participant;0.0.0.0:2181\nversion=100000000\n";
    assert_eq!(zookeeper::config::sniff_conf(text), Sniff::Yes);
    assert_eq!(zookeeper::config::sniff_cfg(text), Sniff::No);
    let p = zookeeper::config::parse_conf(text).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    assert_eq!(p.value.membership.len(), 2);
    assert_eq!(p.value.membership[1].id, 2);
    assert_eq!(p.value.membership[1].line, 8);
    assert_eq!(p.value.get("version").unwrap().value, "100000000");
}

#[test]
fn sniffers_claim_their_own_and_refuse_the_rest() {
    type Sniffer = fn(&str) -> Sniff;
    let sniffers: [(&str, Sniffer); 5] = [
        (CFG, zookeeper::config::sniff_cfg),
        (MNTR, zookeeper::mntr::sniff_mntr),
        (WCHS, zookeeper::wchs::sniff_wchs),
        (SRVR, zookeeper::srvr::sniff_srvr),
        (CONF, zookeeper::config::sniff_conf),
    ];
    for rel in all_fixtures() {
        let Ok(bytes) = std::fs::read(fixture_path(&rel)) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let h = head(&text, SNIFF_HEAD_BYTES);
        for (own, sniff) in sniffers {
            let want = if rel == own { Sniff::Yes } else { Sniff::No };
            assert_eq!(sniff(h), want, "{rel} by the sniffer of {own}");
        }
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = XorShift(0x2bad_c0de_1234_5678);
    let texts: Vec<String> = [CFG, MNTR, WCHS, SRVR, CONF]
        .iter()
        .map(|r| fixture(r))
        .collect();
    for round in 0..300 {
        let mut b = if round % 2 == 0 {
            {
                let n = rng.below(2000);
                rng.bytes(n)
            }
        } else {
            texts[round % texts.len()].as_bytes().to_vec()
        };
        for _ in 0..rng.below(20) {
            if !b.is_empty() {
                let i = rng.below(b.len());
                b[i] = rng.next_u64() as u8;
            }
        }
        let t = String::from_utf8_lossy(&b);
        let n_lines = t.lines().count();
        for issues in [
            zookeeper::config::parse_cfg(&t).map(|p| p.issues),
            zookeeper::mntr::parse_mntr(&t).map(|p| p.issues),
            zookeeper::wchs::parse_wchs(&t).map(|p| p.issues),
            zookeeper::srvr::parse_srvr(&t).map(|p| p.issues),
            zookeeper::config::parse_conf(&t).map(|p| p.issues),
        ]
        .into_iter()
        .flatten()
        {
            assert!(issues.iter().all(|i| i.line >= 1 && i.line <= n_lines));
        }
        for s in [
            zookeeper::config::sniff_cfg,
            zookeeper::mntr::sniff_mntr,
            zookeeper::wchs::sniff_wchs,
            zookeeper::srvr::sniff_srvr,
            zookeeper::config::sniff_conf,
        ] {
            let _ = s(&t);
        }
    }
}
