//! `/proc/net/bonding/bondN` parser.
//!
//! No capture exists: this machine's kernel has no bonding driver and the shared corpus has no
//! bonding file. The inputs below are composed line by line from the `seq_printf` formats of
//! `drivers/net/bonding/bond_procfs.c` (torvalds/linux, commit
//! e98653b1be1521039c56a905ccc4860bac47118c) and the mode names of `bond_mode_name()` in
//! `bond_main.c`; the values are invented. See `fixtures/PROVENANCE.md`.

use parsers::{net::bonding, Sniff};

/// Active-backup with two slaves, one down (bond_info_show_master/slave formats).
const ACTIVE_BACKUP: &str = "Ethernet Channel Bonding Driver: v6.1.0-57-cloud-amd64

Bonding Mode: fault-tolerance (active-backup)
Primary Slave: None
Currently Active Slave: eth0
MII Status: up
MII Polling Interval (ms): 100
Up Delay (ms): 0
Down Delay (ms): 0
Peer Notification Delay (ms): 0

Slave Interface: eth0
MII Status: up
Speed: 10000 Mbps
Duplex: full
Link Failure Count: 0
Permanent HW addr: 52:54:00:00:00:01
Slave queue ID: 0

Slave Interface: eth1
MII Status: down
Speed: Unknown
Duplex: Unknown
Link Failure Count: 3
Permanent HW addr: 52:54:00:00:00:02
Slave queue ID: 0
";

/// 802.3ad with the CAP_NET_ADMIN details (the 802.3ad branches of the same formats).
const LACP: &str = "Ethernet Channel Bonding Driver: v6.1.0-57-cloud-amd64

Bonding Mode: IEEE 802.3ad Dynamic link aggregation
Transmit Hash Policy: layer3+4 (1)
MII Status: up
MII Polling Interval (ms): 100
Up Delay (ms): 0
Down Delay (ms): 0
Peer Notification Delay (ms): 0

802.3ad info
LACP active: on
LACP rate: fast
Min links: 0
Aggregator selection policy (ad_select): stable
System priority: 65535
System MAC address: 52:54:00:00:00:01
Active Aggregator Info:
\tAggregator ID: 2
\tNumber of ports: 2
\tActor Key: 15
\tPartner Key: 32
\tPartner Mac Address: 52:54:00:00:00:ff

Slave Interface: eth0
MII Status: up
Speed: 10000 Mbps
Duplex: full
Link Failure Count: 1
Permanent HW addr: 52:54:00:00:00:01
Slave queue ID: 0
Aggregator ID: 2
Actor Churn State: none
Partner Churn State: none
Actor Churned Count: 0
Partner Churned Count: 0
details actor lacp pdu:
    system priority: 65535
    system mac address: 52:54:00:00:00:01
    port key: 15
    port priority: 255
    port number: 1
    port state: 63
details partner lacp pdu:
    system priority: 32768
    system mac address: 52:54:00:00:00:ff
    oper key: 32
    port priority: 32768
    port number: 7
    port state: 61

Slave Interface: eth1
MII Status: going back
Speed: 10000 Mbps
Duplex: full
Link Failure Count: 0
Permanent HW addr: 52:54:00:00:00:02
Slave queue ID: 0
Aggregator ID: N/A
";

#[test]
fn active_backup() {
    let p = bonding::parse(ACTIVE_BACKUP).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let b = p.value;
    assert_eq!(b.version.as_deref(), Some("v6.1.0-57-cloud-amd64"));
    assert_eq!(b.mode_short(), Some("active-backup"));
    assert_eq!(b.currently_active_slave.as_deref(), Some("eth0"));
    assert_eq!(b.mii_status.as_deref(), Some("up"));
    assert_eq!(b.mii_polling_interval_ms, Some(100));
    assert_eq!(b.slaves.len(), 2);
    let eth1 = b.slave("eth1").unwrap();
    assert_eq!(eth1.line, 20);
    assert_eq!(eth1.mii_status.as_deref(), Some("down"));
    assert_eq!(eth1.speed_mbps, None);
    assert_eq!(eth1.link_failure_count, Some(3));
    assert_eq!(eth1.permanent_hw_addr.as_deref(), Some("52:54:00:00:00:02"));
    assert_eq!(b.slave("eth0").unwrap().speed_mbps, Some(10_000));
    assert_eq!(
        b.slaves_not_up()
            .map(|s| s.interface.as_str())
            .collect::<Vec<_>>(),
        ["eth1"]
    );
}

#[test]
fn lacp_details() {
    let p = bonding::parse(LACP).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let b = p.value;
    assert_eq!(b.mode_short(), Some("802.3ad"));
    assert_eq!(b.transmit_hash_policy.as_deref(), Some("layer3+4 (1)"));
    assert_eq!(b.lacp_rate.as_deref(), Some("fast"));
    assert_eq!(b.get("Active Aggregator Info/Aggregator ID"), Some("2"));
    assert_eq!(
        b.get("Active Aggregator Info/Partner Mac Address"),
        Some("52:54:00:00:00:ff")
    );
    let eth0 = b.slave("eth0").unwrap();
    assert_eq!(eth0.aggregator_id, Some(2));
    assert_eq!(eth0.get("details actor lacp pdu/port state"), Some("63"));
    assert_eq!(eth0.get("details partner lacp pdu/oper key"), Some("32"));
    let eth1 = b.slave("eth1").unwrap();
    assert_eq!(eth1.aggregator_id, None);
    assert_eq!(eth1.get("Aggregator ID"), Some("N/A"));
    assert_eq!(eth1.mii_status.as_deref(), Some("going back"));
    assert_eq!(b.slaves_not_up().count(), 1);
}

#[test]
fn malformed() {
    assert!(bonding::parse("").is_err());
    assert!(bonding::parse("hello\nworld\n").is_err());
    let text = ACTIVE_BACKUP.replace("Duplex: full\n", "Duplex full\n");
    let p = bonding::parse(&text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 15);
    // Truncated in the middle of a slave.
    let p = bonding::parse(&ACTIVE_BACKUP[..ACTIVE_BACKUP.len() - 60]).unwrap();
    assert_eq!(p.value.slaves.len(), 2);
    // Without the version line (a capture that lost its first line).
    let p = bonding::parse(ACTIVE_BACKUP.split_once('\n').unwrap().1).unwrap();
    assert_eq!(p.value.version, None);
    assert_eq!(p.value.mode_short(), Some("active-backup"));
    assert_eq!(bonding::sniff(ACTIVE_BACKUP), Sniff::Yes);
    assert_eq!(bonding::sniff("MII Status: up\n"), Sniff::No);
}
