//! Per-interface throughput and drops on the time axis, from `sar -n DEV` and `sar -n EDEV`
//! (text or `sadf -j`).

use super::{Clock, Points};
use crate::artifacts::{Artifact, Collected};
use parsers::kind;
use parsers::sysstat::sar::Sar;
use serde::Serialize;
use std::collections::BTreeMap;

/// Every interface of the `sar` output with the most rows (for `DEV` and for `EDEV` apart).
#[derive(Debug, Clone, Serialize)]
pub struct NicTimeline {
    /// Artifacts the samples come from: the `DEV` one, then the `EDEV` one when it differs.
    pub artifacts: Vec<String>,
    /// One entry per interface, by name.
    pub interfaces: Vec<InterfaceTimeline>,
}

/// One interface; only samples with a time. A series is empty when its table lacks the
/// interface.
#[derive(Debug, Clone, Serialize)]
pub struct InterfaceTimeline {
    /// Interface name (`eth0`, `lo`).
    pub iface: String,
    /// `rxkB/s`.
    pub rx_kb_per_s: Points,
    /// `txkB/s`.
    pub tx_kb_per_s: Points,
    /// `rxdrop/s + txdrop/s + rxfifo/s` (`EDEV`); `None` where all three are missing.
    pub drops_per_s: Points,
}

/// The interfaces' rows on the axis. Errors: no `sar -n DEV` or `EDEV` output was parsed.
pub(super) fn build(c: &Collected, clock: &Clock) -> Result<NicTimeline, String> {
    let sars: Vec<(&Artifact, &Sar)> = c
        .records_of::<Sar>(&kind::SAR)
        .chain(c.records_of::<Sar>(&kind::SADF_JSON))
        .collect();
    let dev = sars
        .iter()
        .filter(|(_, s)| !s.net_dev.rows.is_empty())
        .max_by_key(|(_, s)| s.net_dev.rows.len());
    let edev = sars
        .iter()
        .filter(|(_, s)| !s.net_edev.rows.is_empty())
        .max_by_key(|(_, s)| s.net_edev.rows.len());
    if dev.is_none() && edev.is_none() {
        return Err(
            "no `sar -n DEV` output was parsed (the /proc/net/dev snapshots give averages only)"
                .into(),
        );
    }
    // Group rows by interface, mapping times per interface.
    fn by_iface<R>(rows: &[R], iface: fn(&R) -> &str) -> BTreeMap<String, Vec<&R>> {
        let mut m: BTreeMap<String, Vec<&R>> = BTreeMap::new();
        for r in rows {
            m.entry(iface(r).to_string()).or_default().push(r);
        }
        m
    }
    let mut artifacts = Vec::new();
    let mut per: BTreeMap<String, InterfaceTimeline> = BTreeMap::new();
    let empty = |iface: &str| InterfaceTimeline {
        iface: iface.into(),
        rx_kb_per_s: Vec::new(),
        tx_kb_per_s: Vec::new(),
        drops_per_s: Vec::new(),
    };
    if let Some((a, s)) = dev {
        artifacts.push(a.path.clone());
        for (name, rows) in by_iface(&s.net_dev.rows, |r| &r.iface) {
            let times = clock.map_times(rows.iter().map(|r| r.time));
            let e = per.entry(name.clone()).or_insert_with(|| empty(&name));
            e.rx_kb_per_s = rows
                .iter()
                .zip(&times)
                .filter_map(|(r, t)| t.map(|t| (t, r.rxkb_per_s)))
                .collect();
            e.tx_kb_per_s = rows
                .iter()
                .zip(&times)
                .filter_map(|(r, t)| t.map(|t| (t, r.txkb_per_s)))
                .collect();
        }
    }
    if let Some((a, s)) = edev {
        if !artifacts.contains(&a.path) {
            artifacts.push(a.path.clone());
        }
        for (name, rows) in by_iface(&s.net_edev.rows, |r| &r.iface) {
            let times = clock.map_times(rows.iter().map(|r| r.time));
            let e = per.entry(name.clone()).or_insert_with(|| empty(&name));
            e.drops_per_s = rows
                .iter()
                .zip(&times)
                .filter_map(|(r, t)| {
                    let parts = [r.rxdrop_per_s, r.txdrop_per_s, r.rxfifo_per_s];
                    let v = parts
                        .iter()
                        .any(Option::is_some)
                        .then(|| parts.iter().flatten().sum::<f64>());
                    t.map(|t| (t, v))
                })
                .collect();
        }
    }
    Ok(NicTimeline {
        artifacts,
        interfaces: per.into_values().collect(),
    })
}
