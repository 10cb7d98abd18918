//! Per-device `await`, `aqu-sz` and `%util` on the time axis, from the device series of
//! `iostat -x` (or `sar -d`).

use super::{Clock, Points};
use crate::facts::{DiskSample, DiskSeries};
use serde::Serialize;

/// The devices with a timed sample.
#[derive(Debug, Clone, Serialize)]
pub struct DiskTimeline {
    /// Artifact the samples come from.
    pub artifact: String,
    /// One entry per device, in the order of the disk facts.
    pub devices: Vec<DeviceTimeline>,
}

/// One device; only samples with a time.
#[derive(Debug, Clone, Serialize)]
pub struct DeviceTimeline {
    /// Device name (`sda`).
    pub device: String,
    /// `await`, ms.
    pub await_ms: Points,
    /// `aqu-sz`, requests.
    pub aqu_sz: Points,
    /// `%util`.
    pub util_pct: Points,
}

/// The devices' samples on the axis. Errors: no device series (`why`, from the disk facts), or
/// no sample carries a time.
pub(super) fn build(
    disks: &[DiskSeries],
    why: Option<&str>,
    clock: &Clock,
) -> Result<DiskTimeline, String> {
    let Some(first) = disks.first() else {
        return Err(why.unwrap_or("no device samples").to_string());
    };
    let mut devices = Vec::new();
    for d in disks {
        let times = clock.map_times(d.samples.iter().map(|s| s.time));
        if times.iter().all(Option::is_none) {
            continue;
        }
        let pts = |f: fn(&DiskSample) -> Option<f64>| -> Points {
            d.samples
                .iter()
                .zip(&times)
                .filter_map(|(s, t)| t.map(|t| (t, f(s))))
                .collect()
        };
        devices.push(DeviceTimeline {
            device: d.device.clone(),
            await_ms: pts(|s| s.await_ms),
            aqu_sz: pts(|s| s.aqu_sz),
            util_pct: pts(|s| s.util_pct),
        });
    }
    if devices.is_empty() {
        return Err(format!(
            "the samples of {} carry no time (iostat without -t)",
            first.artifact
        ));
    }
    Ok(DiskTimeline {
        artifact: first.artifact.clone(),
        devices,
    })
}
