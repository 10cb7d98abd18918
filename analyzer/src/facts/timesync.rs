//! Time-synchronisation facts: which sources discipline the clock, the offset and frequency.
//!
//! In: `chronyc tracking`, `chronyc sources`, `ntpq -pn`, `timedatectl`, `vmware-toolbox-cmd
//! timesync status`, `ps` (which daemons run). Out: [`TimeSync`].

use super::Cited;
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
