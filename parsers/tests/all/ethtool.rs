//! `ethtool` parsers against the corpus and captured outputs (see `fixtures/PROVENANCE.md`).

use crate::common::{fixture, insert_line};
use parsers::net::ethtool::stats::{meaning, Direction, Meaning, Queue};
use parsers::net::ethtool::{self, EthtoolKind};

#[track_caller]
fn clean<T>(rel: &str, parsed: Result<parsers::Parsed<T>, parsers::ParseError>) -> T {
    let parsed = parsed.unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

#[test]
fn driver_info_virtio_with_empty_firmware() {
    let rel = "ethtool/insights-core__ethtool-i-virtio.txt";
    let d = clean(rel, ethtool::driver::parse_driver(&fixture(rel)));
    assert_eq!(d.driver.as_deref(), Some("virtio_net"));
    assert_eq!(d.version.as_deref(), Some("1.0.0"));
    assert_eq!(d.firmware_version, None);
    assert_eq!(d.bus_info.as_deref(), Some("0000:00:03.0"));
    assert_eq!(d.supports_statistics, Some(false));
    assert_eq!(d.supports_test, Some(false));
    assert_eq!(d.supports_eeprom_access, Some(false));
    assert_eq!(d.supports_register_dump, Some(false));
    assert_eq!(d.supports_priv_flags, Some(false));
    assert_eq!(d.line_of("driver"), Some(1));
    assert_eq!(d.fields.len(), 9);
    assert_eq!(d.interface, None);
}

#[test]
fn driver_info_e1000e_after_a_comment() {
    let rel = "ethtool/node_exporter__ethtool-i-e1000e.txt";
    let d = clean(rel, ethtool::driver::parse_driver(&fixture(rel)));
    assert_eq!(d.interface.as_deref(), Some("eth0"));
    assert_eq!(d.driver.as_deref(), Some("e1000e"));
    assert_eq!(d.version.as_deref(), Some("5.11.0-22-generic"));
    assert_eq!(d.firmware_version.as_deref(), Some("0.5-4"));
    assert_eq!(d.expansion_rom_version, None);
    assert_eq!(d.bus_info.as_deref(), Some("0000:00:1f.6"));
    assert_eq!(d.supports_priv_flags, Some(true));
    assert_eq!(d.line_of("driver"), Some(2));
    assert_eq!(d.notes.len(), 1);
}

#[test]
fn driver_info_captured_virtio() {
    let rel = "captured-b/ethtool-i-virtio-eth0.txt";
    let d = clean(rel, ethtool::driver::parse_driver(&fixture(rel)));
    assert_eq!(d.driver.as_deref(), Some("virtio_net"));
    assert_eq!(d.firmware_version, None);
    assert_eq!(d.expansion_rom_version, None);
    assert_eq!(d.supports_statistics, Some(true));
}

#[test]
fn channels_virtio_combined_one() {
    let rel = "ethtool/hotsos__ethtool-l-channels-virtio.txt";
    let c = clean(rel, ethtool::channels::parse_channels(&fixture(rel)));
    assert_eq!(c.interface.as_deref(), Some("ens3"));
    assert_eq!(c.line, 1);
    for counts in [&c.max, &c.current] {
        assert_eq!(counts.rx.unwrap().value, Some(0));
        assert_eq!(counts.tx.unwrap().value, Some(0));
        assert_eq!(counts.other.unwrap().value, Some(0));
        assert_eq!(counts.combined.unwrap().value, Some(1));
    }
    assert_eq!(c.max.combined.unwrap().line, 6);
    assert_eq!(c.current.combined.unwrap().line, 11);
}

#[test]
fn channels_captured_with_na() {
    let rel = "captured-b/ethtool-l-virtio-eth0.txt";
    let c = clean(rel, ethtool::channels::parse_channels(&fixture(rel)));
    assert_eq!(c.interface.as_deref(), Some("eth0"));
    assert_eq!(c.max.rx.unwrap().value, None);
    assert_eq!(c.max.rx.unwrap().line, 3);
    assert_eq!(c.current.combined.unwrap().value, Some(1));
    assert_eq!(c.current.other.unwrap().value, None);
}

#[test]
fn unsupported_operations_are_unusable_with_the_message() {
    for (rel, kind) in [
        ("captured-b/ethtool-l-lo-unsupported.txt", "channels"),
        ("captured-b/ethtool-g-ifb0-unsupported.txt", "rings"),
    ] {
        let text = fixture(rel);
        let err = if kind == "channels" {
            ethtool::channels::parse_channels(&text)
                .map(|_| ())
                .unwrap_err()
        } else {
            ethtool::rings::parse_rings(&text).map(|_| ()).unwrap_err()
        };
        assert!(
            err.to_string()
                .contains("netlink error: Operation not supported"),
            "{rel}: {err}"
        );
        assert_eq!(ethtool::detect(&text), None, "{rel}");
    }
}

#[test]
fn features_bond0_fixed_and_requested() {
    let rel = "ethtool/insights-core__ethtool-k-features-bond0.txt";
    let f = clean(rel, ethtool::features::parse_features(&fixture(rel)));
    assert_eq!(f.interface.as_deref(), Some("bond0"));
    assert_eq!(f.features.len(), 34);
    let rx = f.get("rx-checksumming").unwrap();
    assert!(!rx.on && rx.fixed);
    assert_eq!(rx.line, 2);
    let tx = f.get("tx-checksumming").unwrap();
    assert!(tx.on && !tx.fixed);
    let gso = f.get("generic-segmentation-offload").unwrap();
    assert!(!gso.on && !gso.fixed);
    assert_eq!(gso.requested, Some(true));
    let sub = f.get("tx-checksum-unneeded").unwrap();
    assert_eq!(sub.parent.as_deref(), Some("tx-checksumming"));
    assert!(sub.on && sub.fixed);
    assert_eq!(
        f.get("tx-tcp6-segmentation").unwrap().parent.as_deref(),
        Some("tcp-segmentation-offload")
    );
    assert_eq!(f.get("udp-fragmentation-offload").unwrap().parent, None);
    assert_eq!(f.is_on("large-receive-offload"), Some(true));
    assert_eq!(f.is_on("no-such-feature"), None);
}

#[test]
fn features_virtio_tab_indented() {
    let rel = "ethtool/hotsos__ethtool-k-features-virtio.txt";
    let f = clean(rel, ethtool::features::parse_features(&fixture(rel)));
    assert_eq!(f.interface.as_deref(), Some("ens3"));
    assert_eq!(f.features.len(), 56);
    assert_eq!(f.is_on("tcp-segmentation-offload"), Some(true));
    assert_eq!(f.is_on("large-receive-offload"), Some(false));
    assert!(f.get("large-receive-offload").unwrap().fixed);
    assert_eq!(
        f.get("tx-tcp-mangleid-segmentation")
            .unwrap()
            .parent
            .as_deref(),
        Some("tcp-segmentation-offload")
    );
    let rel = "captured-b/ethtool-k-virtio-eth0.txt";
    let f = clean(rel, ethtool::features::parse_features(&fixture(rel)));
    assert_eq!(f.interface.as_deref(), Some("eth0"));
    assert_eq!(f.is_on("generic-receive-offload"), Some(true));
    assert_eq!(f.is_on("rx-udp-gro-forwarding"), Some(false));
}

#[test]
fn rings_eth2() {
    let rel = "ethtool/insights-core__ethtool-g-ring-eth2.txt";
    let r = clean(rel, ethtool::rings::parse_rings(&fixture(rel)));
    assert_eq!(r.interface.as_deref(), Some("eth2"));
    let v = |x: Option<ethtool::Reading<u64>>| x.unwrap().value;
    assert_eq!(v(r.max.rx), Some(2047));
    assert_eq!(v(r.max.rx_mini), Some(0));
    assert_eq!(v(r.max.rx_jumbo), Some(0));
    assert_eq!(v(r.max.tx), Some(511));
    assert_eq!(v(r.current.rx), Some(200));
    assert_eq!(v(r.current.rx_mini), Some(0));
    assert_eq!(v(r.current.rx_jumbo), Some(0));
    assert_eq!(v(r.current.tx), Some(511));
    assert_eq!(r.current.rx.unwrap().line, 9);
    assert!(r.extra.is_empty());
}

#[test]
fn rings_ethtool6_extra_rows() {
    let rel = "ethtool/insights-core__ethtool-g-ring-new-fields.txt";
    let r = clean(rel, ethtool::rings::parse_rings(&fixture(rel)));
    assert_eq!(r.interface.as_deref(), Some("pri"));
    let v = |x: Option<ethtool::Reading<u64>>| x.unwrap().value;
    assert_eq!(v(r.max.rx), Some(4096));
    assert_eq!(v(r.max.rx_mini), Some(2048));
    assert_eq!(v(r.max.rx_jumbo), Some(4096));
    assert_eq!(v(r.max.tx), Some(4096));
    assert_eq!(v(r.current.rx), Some(1024));
    assert_eq!(v(r.current.rx_mini), Some(128));
    assert_eq!(v(r.current.rx_jumbo), Some(512));
    assert_eq!(v(r.current.tx), Some(512));
    let extra: Vec<(&str, Option<&str>)> = r
        .extra
        .iter()
        .map(|f| (f.key.as_str(), f.value.as_deref()))
        .collect();
    assert_eq!(
        extra,
        [
            ("RX Buf Len", None),
            ("CQE Size", None),
            ("TX Push", Some("off")),
            ("TCP data split", None)
        ]
    );
    assert_eq!(r.extra[2].line, 14);
}

#[test]
fn rings_virtio_na() {
    let rel = "ethtool/insights-core__ethtool-g-ring-virtio-na.txt";
    let r = clean(rel, ethtool::rings::parse_rings(&fixture(rel)));
    assert_eq!(r.interface.as_deref(), Some("ens3"));
    assert_eq!(r.max.rx.unwrap().value, Some(256));
    assert_eq!(r.max.rx_mini.unwrap().value, None);
    assert_eq!(r.current.rx_jumbo.unwrap().value, None);
    assert_eq!(r.current.tx.unwrap().value, Some(256));
    let rel = "captured-b/ethtool-g-virtio-eth0.txt";
    let r = clean(rel, ethtool::rings::parse_rings(&fixture(rel)));
    assert_eq!(r.current.rx.unwrap().value, Some(256));
    assert_eq!(r.extra.len(), 4);
}

#[test]
fn coalesce_eth2_and_full() {
    let rel = "ethtool/insights-core__ethtool-c-coalesce-eth2.txt";
    let c = clean(rel, ethtool::coalesce::parse_coalesce(&fixture(rel)));
    assert_eq!(c.interface.as_deref(), Some("eth2"));
    assert_eq!(c.adaptive_rx.unwrap().value, Some(false));
    assert_eq!(c.adaptive_tx.unwrap().value, Some(false));
    assert_eq!(c.adaptive_rx.unwrap().line, 2);
    assert_eq!(c.get("pkt-rate-high"), Some(10));
    assert_eq!(c.get("tx-usecs-irq"), Some(0));
    assert_eq!(c.get("tx-frame-low"), Some(25));
    assert_eq!(c.get("tx-usecs-high"), Some(0));
    // Printed as `n/a`: present but without a value.
    assert_eq!(c.get("tx-frame-high"), None);
    assert!(c
        .params
        .iter()
        .any(|p| p.name == "tx-frame-high" && p.line == 9));
    assert_eq!(c.params.len(), 5);

    let rel = "ethtool/insights-core__ethtool-c-coalesce-full.txt";
    let c = clean(rel, ethtool::coalesce::parse_coalesce(&fixture(rel)));
    assert_eq!(c.interface.as_deref(), Some("eth0"));
    assert_eq!(c.adaptive_rx.unwrap().value, Some(false));
    assert_eq!(c.adaptive_tx.unwrap().value, Some(false));
    assert_eq!(c.get("rx-usecs"), Some(20));
    assert_eq!(c.get("rx-frames"), Some(5));
    assert_eq!(c.get("tx-usecs"), Some(72));
    assert_eq!(c.get("tx-frames"), Some(53));
    assert_eq!(c.params.len(), 20);
}

#[test]
fn coalesce_captured_ethtool6() {
    let rel = "captured-b/ethtool-c-virtio-eth0.txt";
    let c = clean(rel, ethtool::coalesce::parse_coalesce(&fixture(rel)));
    assert_eq!(c.adaptive_rx.unwrap().value, Some(false));
    assert_eq!(c.adaptive_tx.unwrap().value, None);
    assert_eq!(c.cqe_mode_rx.unwrap().value, None);
    assert_eq!(c.get("rx-frames"), Some(1));
    assert_eq!(c.get("stats-block-usecs"), None);
}

#[test]
fn stats_with_queues() {
    let rel = "ethtool/insights-core__ethtool-S-stats-with-queues.txt";
    let s = clean(rel, ethtool::stats::parse_stats(&fixture(rel)));
    assert_eq!(s.get("rx_packets"), Some(912_398));
    assert_eq!(s.get("tx_packets"), Some(965_449));
    assert_eq!(s.line, 1);
    let q3: Vec<&str> = s.matching("rx_queue_3").map(|x| x.name.as_str()).collect();
    assert!(!q3.is_empty() && q3.iter().all(|n| n.starts_with("rx_queue_3_")));
    assert_eq!(
        s.per_queue(Direction::Rx, "packets"),
        [(0, 912_398), (1, 0), (2, 0), (3, 0)]
    );
    assert_eq!(
        s.per_queue(Direction::Tx, "packets"),
        [(0, 613), (1, 935_473), (2, 6), (3, 29_357)]
    );
}

#[test]
fn stats_e1000e_dotted_names_and_spaces() {
    let rel = "ethtool/node_exporter__ethtool-S-e1000e.txt";
    let s = clean(rel, ethtool::stats::parse_stats(&fixture(rel)));
    assert_eq!(s.interface.as_deref(), Some("eth0"));
    assert_eq!(s.get("rx_packets"), Some(1_260_062));
    assert_eq!(s.get("tx_packets"), Some(961_500));
    assert_eq!(s.get("port.rx_dropped"), Some(12_028));
    assert_eq!(s.get("rx_missed"), Some(401));
    assert_eq!(s.get("rx_unicast"), Some(1_230_297));
    assert_eq!(s.get("rx_multicast"), Some(23_973));
    assert_eq!(s.get("rx_broadcast"), Some(5_792));
    assert_eq!(s.get("align_errors"), Some(0));
    assert_eq!(s.get("duplicate metric"), Some(1));
    assert_eq!(s.get("duplicate_metric"), Some(2));
    assert_eq!(s.stats.len(), 16);
    assert_eq!(s.stats[0].line, 3);
}

#[test]
fn stats_captured_virtio_per_queue() {
    let rel = "captured-b/ethtool-S-virtio-eth0.txt";
    let s = clean(rel, ethtool::stats::parse_stats(&fixture(rel)));
    assert_eq!(s.per_queue(Direction::Rx, "kicks"), [(0, 1273)]);
    assert_eq!(s.get("tx_kicks"), Some(3043));
}

#[test]
fn stats_captured_virtio_queue_and_device_drops() {
    let rel = "captured-b/ethtool-S-virtio-eth0.txt";
    let s = clean(rel, ethtool::stats::parse_stats(&fixture(rel)));
    // `rx_drops` is the device's sum, `rx0_drops` queue 0's: both read, neither added twice.
    let q0 = s.stats.iter().find(|x| x.name == "rx0_drops").unwrap();
    assert_eq!(
        q0.queue,
        Some(Queue {
            index: 0,
            direction: Some(Direction::Rx)
        })
    );
    assert_eq!(q0.counter, "drops");
    assert!(s
        .stats
        .iter()
        .find(|x| x.name == "rx_drops")
        .unwrap()
        .queue
        .is_none());
    // XDP verdicts are not losses.
    assert_eq!(meaning("xdp_drops"), Meaning::Other);
    let d = s.device_totals(Direction::Rx);
    assert_eq!(d.drops, Some(0));
    assert_eq!(d.out_of_buffer, None);
}

#[test]
fn stats_captured_ifb_rx_queue_names() {
    let rel = "captured-b/ethtool-S-ifb0-rx-queue.txt";
    let s = clean(rel, ethtool::stats::parse_stats(&fixture(rel)));
    assert_eq!(s.stats.len(), 4);
    assert!(s.stats.iter().all(|x| x.queue.map(|q| q.index) == Some(0)));
    assert_eq!(s.per_queue(Direction::Tx, "bytes"), [(0, 0)]);
    // No drop counter at all: no drops derived, rather than zero.
    assert_eq!(s.device_totals(Direction::Rx).drops, None);
}

/// vmxnet3's sections: `Rx Queue#: 1` headers, indented counters, sub-counters under `drv
/// dropped … total`, and the device's `tx timeout count` after the last queue.
#[test]
fn stats_vmxnet3_sections_keep_queues_apart() {
    let rel = "ethtool/lctt__ethtool-S-vmxnet3-2tx-2rx.txt";
    let s = clean(rel, ethtool::stats::parse_stats(&fixture(rel)));
    let rx = |i| Queue {
        index: i,
        direction: Some(Direction::Rx),
    };
    assert_eq!(
        s.sections
            .iter()
            .map(|x| (x.queue, x.line))
            .collect::<Vec<_>>(),
        [
            (
                Queue {
                    index: 0,
                    direction: Some(Direction::Tx)
                },
                2
            ),
            (
                Queue {
                    index: 1,
                    direction: Some(Direction::Tx)
                },
                22
            ),
            (rx(0), 42),
            (rx(1), 57),
        ]
    );
    // The same name in two queues: two counters, each its own value.
    assert_eq!(
        s.per_queue(Direction::Rx, "ucast pkts rx"),
        [(0, 5_084_776), (1, 6_346_769)]
    );
    assert_eq!(
        s.per_queue(Direction::Tx, "ucast pkts tx"),
        [(0, 4_028_081), (1, 3_711_838)]
    );
    // `giant hdr` twice in one queue: once under `drv dropped tx total`, once on its own.
    let giant: Vec<_> = s
        .stats
        .iter()
        .filter(|x| x.name == "giant hdr" && x.queue.map(|q| q.index) == Some(0))
        .collect();
    assert_eq!(giant.len(), 2);
    assert_eq!(
        giant[0].parent.map(|p| s.stats[p].name.as_str()),
        Some("drv dropped tx total")
    );
    assert_eq!(giant[1].parent, None);
    let keys = s.keys();
    let mut unique = keys.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), keys.len(), "every counter has its own key");
    // `err` and `fcs` break down `drv dropped rx total`.
    let err = s.stats.iter().find(|x| x.line == 54).unwrap();
    assert_eq!((err.name.as_str(), err.queue), ("err", Some(rx(0))));
    assert_eq!(err.parent.map(|p| s.stats[p].line), Some(53));
    // After the last queue, back at the headers' indentation: the device's own counter.
    let last = s.stats.last().unwrap();
    assert_eq!(
        (last.name.as_str(), last.queue, last.line),
        ("tx timeout count", None, 72)
    );
    // Derived per queue: packets are ucast + mcast + bcast, drops are OOB + driver drops.
    let t = s.queue_totals();
    assert_eq!(t.len(), 4);
    let rx1 = t.iter().find(|q| q.queue == Some(rx(1))).unwrap();
    assert_eq!(rx1.packets, Some(6_346_769 + 3464));
    assert_eq!((rx1.drops, rx1.out_of_buffer, rx1.errors), (0, 0, 0));
    assert_eq!(s.device_totals(Direction::Rx).out_of_buffer, Some(0));
}

/// Two snapshots subtract counter by counter, never across queues; sub-counters stay under
/// their parent and out of the totals.
#[test]
fn stats_vmxnet3_growth_between_snapshots() {
    let rel = "ethtool/lctt__ethtool-S-vmxnet3-2tx-2rx.txt";
    let before = fixture(rel);
    // Queue 1 runs out of buffers 900 times and its driver drops 7 (5 errors, 2 FCS).
    let after: String = before
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let l = match i + 1 {
                66 => "       pkts rx OOB: 900".to_string(),
                68 => "       drv dropped rx total: 7".to_string(),
                69 => "          err: 5".to_string(),
                70 => "          fcs: 2".to_string(),
                60 => "       ucast pkts rx: 6356769".to_string(),
                _ => l.to_string(),
            };
            l + "\n"
        })
        .collect();
    let a = clean(rel, ethtool::stats::parse_stats(&before));
    let b = clean(rel, ethtool::stats::parse_stats(&after));
    let d = b.since(&a).unwrap();
    let t = d.queue_totals();
    let rx = |i| {
        t.iter()
            .find(|q| {
                q.queue
                    == Some(Queue {
                        index: i,
                        direction: Some(Direction::Rx),
                    })
            })
            .unwrap()
    };
    assert_eq!(
        (rx(1).out_of_buffer, rx(1).drops, rx(1).packets),
        (900, 907, Some(10_000))
    );
    assert_eq!((rx(0).drops, rx(0).packets), (0, Some(0)));
    let dev = d.device_totals(Direction::Rx);
    assert_eq!((dev.out_of_buffer, dev.drops), (Some(900), Some(907)));
    assert!(dev.lines.contains(&66) && dev.lines.contains(&68));
    assert!(!dev.lines.contains(&69), "sub-counters are not summed");
    // A counter that went down: the driver was reloaded; the growth is refused with the name.
    let err = a.since(&b).unwrap_err();
    assert!(err.contains("went down"), "{err}");
}

#[test]
fn stats_iavf_dotted_queue_names() {
    let rel = "ethtool/dts__ethtool-S-iavf-dotted-queues.txt";
    let s = clean(rel, ethtool::stats::parse_stats(&fixture(rel)));
    assert_eq!(s.per_queue(Direction::Tx, "packets"), [(0, 2), (1, 6)]);
    assert_eq!(s.per_queue(Direction::Tx, "bytes"), [(0, 140), (1, 1044)]);
    assert_eq!(s.per_queue(Direction::Rx, "packets"), [(0, 0), (1, 0)]);
    assert_eq!(s.get("tx_bytes"), Some(70));
    let d = s.device_totals(Direction::Tx);
    assert_eq!((d.drops, d.errors), (Some(0), Some(0)));
}

#[test]
fn stats_bnxt_ring_blocks() {
    let rel = "ethtool/netdev__ethtool-S-bnxt-ring-blocks.txt";
    let s = clean(rel, ethtool::stats::parse_stats(&fixture(rel)));
    assert_eq!(s.stats.len(), 9);
    assert!(s.stats.iter().all(|x| x.queue.map(|q| q.index) == Some(0)));
    let disc = s.stats.iter().find(|x| x.counter == "rx_discards").unwrap();
    assert_eq!(disc.queue.unwrap().direction, Some(Direction::Rx));
    assert_eq!(disc.name, "[0]: rx_discards");
    let t = s.queue_totals();
    let rx0 = t
        .iter()
        .find(|q| q.queue.unwrap().direction == Some(Direction::Rx))
        .unwrap();
    assert_eq!(rx0.packets, Some(1418 + 178));
    assert_eq!((rx0.drops, rx0.errors), (0, 0));
}

/// Rows that cannot be placed are issues on their line; the rest is read.
#[test]
fn stats_unplaceable_rows() {
    let text = "NIC statistics:\n     Rx Queue#: 99999999999\n       ucast pkts rx: 5\n     rx_packets: 5\n";
    let p = ethtool::stats::parse_stats(text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 2);
    assert!(
        p.issues[0].message.contains("no queue number"),
        "{}",
        p.issues[0].message
    );
    assert_eq!(p.value.stats[0].queue, None);
    assert_eq!(p.value.get("rx_packets"), Some(5));
}

#[test]
fn timestamping() {
    let rel = "ethtool/insights-core__ethtool-T-timestamping.txt";
    let t = clean(
        rel,
        ethtool::timestamping::parse_timestamping(&fixture(rel)),
    );
    assert_eq!(t.interface.as_deref(), Some("eno1"));
    let cap = |name: &str| {
        t.capabilities
            .iter()
            .find(|m| m.name == name)
            .and_then(|m| m.flag.clone())
    };
    assert_eq!(
        cap("hardware-transmit").as_deref(),
        Some("SOF_TIMESTAMPING_TX_HARDWARE")
    );
    assert_eq!(
        cap("hardware-raw-clock").as_deref(),
        Some("SOF_TIMESTAMPING_RAW_HARDWARE")
    );
    assert_eq!(t.capabilities.len(), 6);
    assert_eq!(
        t.ptp_hardware_clock.as_ref().unwrap().value.as_deref(),
        Some("0")
    );
    assert_eq!(t.tx_modes[0].name, "off");
    assert_eq!(t.tx_modes[0].flag.as_deref(), Some("HWTSTAMP_TX_OFF"));
    let all = t.rx_filters.iter().find(|m| m.name == "all").unwrap();
    assert_eq!(all.flag.as_deref(), Some("HWTSTAMP_FILTER_ALL"));

    let rel = "captured-b/ethtool-T-virtio-eth0.txt";
    let t = clean(
        rel,
        ethtool::timestamping::parse_timestamping(&fixture(rel)),
    );
    assert_eq!(t.capabilities.len(), 3);
    assert_eq!(t.capabilities[0].flag, None);
    assert_eq!(
        t.ptp_hardware_clock.as_ref().unwrap().value.as_deref(),
        Some("none")
    );
    assert!(t.tx_modes.is_empty() && t.rx_filters.is_empty());
}

#[test]
fn settings_e1000_vm() {
    let rel = "ethtool/jc__ethtool-settings-e1000-vm.txt";
    let s = clean(rel, ethtool::settings::parse_settings(&fixture(rel)));
    assert_eq!(s.interface.as_deref(), Some("enp0s3"));
    assert_eq!(s.speed_mbps.unwrap().value, Some(1000));
    assert_eq!(s.speed_mbps.unwrap().line, 15);
    assert_eq!(s.duplex.as_ref().unwrap().value.as_deref(), Some("Full"));
    assert_eq!(
        s.port.as_ref().unwrap().value.as_deref(),
        Some("Twisted Pair")
    );
    assert_eq!(s.link_detected.unwrap().value, Some(true));
    assert_eq!(s.auto_negotiation.unwrap().value, Some(true));
    assert_eq!(
        s.supported_link_modes,
        [
            "10baseT/Half",
            "10baseT/Full",
            "100baseT/Half",
            "100baseT/Full",
            "1000baseT/Full"
        ]
    );
    assert_eq!(
        s.get("Current message level"),
        Some("0x00000007 (7) drv probe link")
    );
}

#[test]
fn settings_40g_fibre() {
    let rel = "ethtool/jc__ethtool-settings-40g-fibre.txt";
    let s = clean(rel, ethtool::settings::parse_settings(&fixture(rel)));
    assert_eq!(s.interface.as_deref(), Some("enp1s0"));
    assert_eq!(s.supported_ports, ["FIBRE"]);
    assert!(s
        .supported_link_modes
        .contains(&"40000baseCR4/Full".to_string()));
    assert_eq!(s.supported_link_modes.len(), 8);
    assert_eq!(s.speed_mbps.unwrap().value, Some(40_000));
    assert_eq!(s.auto_negotiation.unwrap().value, Some(false));
}

#[test]
fn settings_nonroot_warnings_are_notes() {
    let rel = "ethtool/insights-core__ethtool-settings-nonroot-warnings.txt";
    let s = clean(rel, ethtool::settings::parse_settings(&fixture(rel)));
    assert_eq!(s.interface.as_deref(), Some("eth1"));
    assert_eq!(s.link_detected.unwrap().value, Some(true));
    assert_eq!(s.speed_mbps.unwrap().value, Some(1000));
    assert_eq!(s.supported_ports, ["TP", "MII"]);
    assert_eq!(s.notes.len(), 2);
    assert_eq!(s.notes[0].line, 1);
    assert!(s.notes[0].text.starts_with("Cannot get wake-on-lan"));
    assert_eq!(s.line, 3);
}

#[test]
fn settings_e1000e_with_netlink_error_inside() {
    let rel = "ethtool/node_exporter__ethtool-settings-e1000e.txt";
    let s = clean(rel, ethtool::settings::parse_settings(&fixture(rel)));
    assert_eq!(s.interface.as_deref(), Some("eth0"));
    assert_eq!(
        s.advertised_link_modes,
        [
            "10baseT/Half",
            "10baseT/Full",
            "100baseT/Half",
            "100baseT/Full",
            "1000baseT/Full"
        ]
    );
    assert_eq!(s.get("Advertised pause frame use"), Some("Symmetric"));
    // `Supported ports: [ TP\t MII ]` contains a tab.
    assert_eq!(s.supported_ports, ["TP", "MII"]);
    assert_eq!(s.notes.len(), 2, "{:?}", s.notes);
    assert_eq!(s.notes[1].line, 23);
    assert_eq!(s.link_detected.unwrap().value, Some(true));
    assert_eq!(s.link_detected.unwrap().line, 26);
}

#[test]
fn settings_captured_unknown_speed() {
    for rel in [
        "captured-b/ethtool-settings-virtio-eth0.txt",
        "captured-b/ethtool-settings-virtio-eth0-nobody.txt",
    ] {
        let s = clean(rel, ethtool::settings::parse_settings(&fixture(rel)));
        assert_eq!(s.speed_mbps.unwrap().value, None, "{rel}");
        assert!(s.supported_link_modes.is_empty());
        assert!(s.supported_ports.is_empty());
        assert_eq!(s.link_detected.unwrap().value, Some(true));
    }
}

#[test]
fn detect_each_kind() {
    let cases = [
        (
            "ethtool/insights-core__ethtool-i-virtio.txt",
            EthtoolKind::Driver,
        ),
        (
            "ethtool/node_exporter__ethtool-i-e1000e.txt",
            EthtoolKind::Driver,
        ),
        (
            "ethtool/hotsos__ethtool-l-channels-virtio.txt",
            EthtoolKind::Channels,
        ),
        (
            "ethtool/hotsos__ethtool-k-features-virtio.txt",
            EthtoolKind::Features,
        ),
        (
            "ethtool/insights-core__ethtool-g-ring-eth2.txt",
            EthtoolKind::Rings,
        ),
        (
            "ethtool/insights-core__ethtool-c-coalesce-full.txt",
            EthtoolKind::Coalesce,
        ),
        (
            "ethtool/node_exporter__ethtool-S-e1000e.txt",
            EthtoolKind::Stats,
        ),
        (
            "ethtool/insights-core__ethtool-T-timestamping.txt",
            EthtoolKind::Timestamping,
        ),
        (
            "ethtool/insights-core__ethtool-settings-nonroot-warnings.txt",
            EthtoolKind::Settings,
        ),
    ];
    for (rel, kind) in cases {
        assert_eq!(ethtool::detect(&fixture(rel)), Some(kind), "{rel}");
    }
}

#[test]
fn garbage_lines_become_issues_with_line_numbers() {
    let clean_text = fixture("ethtool/insights-core__ethtool-g-ring-eth2.txt");
    let text = insert_line(&clean_text, 4, "RX Mini:    lots");
    let p = ethtool::rings::parse_rings(&text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 4);
    assert!(p.issues[0].message.contains("expected a number or `n/a`"));
    assert_eq!(p.value.current.rx.unwrap().line, 10);

    let text = insert_line(
        &fixture("ethtool/insights-core__ethtool-k-features-bond0.txt"),
        5,
        "tx-checksum-new: sideways",
    );
    let p = ethtool::features::parse_features(&text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 5);
    assert_eq!(p.value.features.len(), 34);

    let text = insert_line(
        &fixture("ethtool/node_exporter__ethtool-S-e1000e.txt"),
        4,
        "     this is not a counter",
    );
    let p = ethtool::stats::parse_stats(&text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 4);
    assert_eq!(p.value.get("rx_packets"), Some(1_260_062));

    // Unknown channel type.
    let text = insert_line(
        &fixture("ethtool/hotsos__ethtool-l-channels-virtio.txt"),
        3,
        "Misc:\t4",
    );
    let p = ethtool::channels::parse_channels(&text).unwrap();
    assert_eq!(p.issues[0].line, 3);
    assert!(p.issues[0].message.contains("unknown channel type `Misc`"));
}

#[test]
fn truncated_and_empty_inputs() {
    let text = fixture("ethtool/hotsos__ethtool-l-channels-virtio.txt");
    // Cut after the maximums: the current settings are simply absent.
    let cut: String = text.lines().take(6).map(|l| format!("{l}\n")).collect();
    let p = ethtool::channels::parse_channels(&cut).unwrap();
    assert_eq!(p.value.max.combined.unwrap().value, Some(1));
    assert_eq!(p.value.current.combined, None);
    // Only the header.
    assert!(ethtool::channels::parse_channels("Channel parameters for eth0:\n").is_err());
    for text in ["", "\n\n"] {
        assert!(ethtool::driver::parse_driver(text).is_err());
        assert!(ethtool::channels::parse_channels(text).is_err());
        assert!(ethtool::features::parse_features(text).is_err());
        assert!(ethtool::rings::parse_rings(text).is_err());
        assert!(ethtool::coalesce::parse_coalesce(text).is_err());
        assert!(ethtool::stats::parse_stats(text).is_err());
        assert!(ethtool::timestamping::parse_timestamping(text).is_err());
        assert!(ethtool::settings::parse_settings(text).is_err());
    }
    // The wrong kind names what was expected.
    let err = ethtool::rings::parse_rings(&text).unwrap_err();
    assert!(
        err.to_string().contains("Ring parameters for IFACE"),
        "{err}"
    );
}
