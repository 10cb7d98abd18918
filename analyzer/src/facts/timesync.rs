//! Time-synchronisation facts: which sources discipline the clock, the offset and frequency.
//!
//! In: `chronyc tracking`, `chronyc sources`, `ntpq -pn`, `timedatectl`, `vmware-toolbox-cmd
//! timesync status`, `ps` (which daemons run). Out: [`TimeSync`].

use crate::evidence::Cited;
use serde::Serialize;

/// Clock discipline state.
#[derive(Debug, Clone, Default, Serialize)]
pub struct TimeSync {
    /// Offset of the system clock from true time, seconds (positive = fast), from
    /// `chronyc tracking` "System time", or the selected `ntpq` peer's offset.
    pub offset_s: Option<Cited<f64>>,
    /// Frequency error, ppm (positive = fast).
    pub frequency_ppm: Option<Cited<f64>>,
    /// Whether the sync daemon reports synchronised (chrony leap status, timedatectl).
    pub synchronised: Option<Cited<bool>>,
    /// Daemons disciplining the clock: `chronyd`, `ntpd`, `systemd-timesyncd`, with evidence.
    pub daemons: Vec<Cited<String>>,
    /// VMware Tools periodic time synchronisation enabled (`vmware-toolbox-cmd timesync status`).
    pub vmware_periodic_sync: Option<Cited<bool>>,
    /// Whether any time-sync evidence was collected at all.
    pub evidence_present: bool,
}

use crate::artifacts::Collected;
use crate::facts::Processes;
use parsers::time::{
    chrony_tracking::Tracking, ntpq::Peers, timedatectl::Timedatectl,
    vmware_timesync::VmwareTimesync,
};

/// Daemons that discipline the clock, by process name.
const DAEMONS: &[&str] = &[
    "chronyd",
    "ntpd",
    "systemd-timesyncd",
    "ntpsec",
    "timesyncd",
];

/// Builds time-sync facts; `procs` tells which daemons run.
pub fn build(c: &Collected, procs: &Processes) -> TimeSync {
    let mut t = TimeSync::default();
    if let Some((a, x)) = c.records::<Tracking>().next() {
        t.evidence_present = true;
        if let Some(v) = x.system_time_s {
            t.offset_s = Some(Cited::new(
                v,
                &a.path,
                x.line_of("System time").unwrap_or(1),
            ));
        }
        if let Some(v) = x.frequency_ppm {
            t.frequency_ppm = Some(Cited::new(v, &a.path, x.line_of("Frequency").unwrap_or(1)));
        }
        if let Some(v) = x.synchronised() {
            t.synchronised = Some(Cited::new(
                v,
                &a.path,
                x.line_of("Leap status").unwrap_or(1),
            ));
        }
    }
    if let Some((a, x)) = c.records::<Peers>().next() {
        t.evidence_present = true;
        if t.offset_s.is_none() {
            if let Some(p) = x.system_peer() {
                if let Some(ms) = p.offset_ms {
                    t.offset_s = Some(Cited::lines(ms / 1000.0, &a.path, vec![1, p.line]));
                }
            }
        }
        if !x.peers.is_empty() && !procs.list.iter().any(|p| p.value.comm.starts_with("ntpd")) {
            t.daemons.push(Cited::new("ntpd".into(), &a.path, 1));
        }
    }
    if let Some((a, x)) = c.records::<Timedatectl>().next() {
        t.evidence_present = true;
        if t.synchronised.is_none() {
            if let Some(v) = x.synchronized {
                let line = x
                    .line_of("System clock synchronized")
                    .or_else(|| x.line_of("NTP synchronized"))
                    .unwrap_or(1);
                t.synchronised = Some(Cited::new(v, &a.path, line));
            }
        }
    }
    if let Some((a, x)) = c.records::<VmwareTimesync>().next() {
        t.evidence_present = true;
        t.vmware_periodic_sync = Some(Cited::new(x.enabled, &a.path, x.line));
    }
    for p in &procs.list {
        if DAEMONS.contains(&p.value.comm.as_str())
            && !t.daemons.iter().any(|d| d.value == p.value.comm)
        {
            t.daemons
                .retain(|d| !(d.value == "ntpd" && p.value.comm == "ntpd"));
            t.daemons.push(Cited {
                value: p.value.comm.clone(),
                artifact: p.artifact.clone(),
                lines: p.lines.clone(),
            });
        }
    }
    if t.daemons.is_empty() {
        if let Some((a, _)) = c.records::<Tracking>().next() {
            // chronyc answered, so chronyd runs.
            t.daemons.push(Cited::new("chronyd".into(), &a.path, 1));
        }
    }
    t
}
