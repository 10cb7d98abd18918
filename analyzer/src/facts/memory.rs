//! Memory facts: RAM and swap use, swap-in/out rates, swappiness, memory ballooning.
//!
//! In: `/proc/meminfo`, `free`, `/proc/swaps`, `vmstat` (si/so), `/proc/vmstat` (two snapshots:
//! pswpin/pswpout), `sysctl -a` (`vm.swappiness`), `lsmod`/`/proc/modules` (`vmw_balloon`),
//! `vmware-toolbox-cmd stat balloon`. Out: [`Memory`].

use super::Cited;
use serde::Serialize;

/// Memory state of the host.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Memory {
    /// `MemTotal`, KiB.
    pub mem_total_kib: Option<Cited<u64>>,
    /// `MemAvailable`, KiB.
    pub mem_available_kib: Option<Cited<u64>>,
    /// `SwapTotal`, KiB.
    pub swap_total_kib: Option<Cited<u64>>,
    /// Swap in use (`SwapTotal − SwapFree`), KiB.
    pub swap_used_kib: Option<Cited<u64>>,
    /// Pages swapped in per second over the window (`vmstat si` is KiB/s; converted to KiB/s).
    pub swap_in_kib_per_s: Option<Cited<f64>>,
    /// KiB swapped out per second over the window.
    pub swap_out_kib_per_s: Option<Cited<f64>>,
    /// `vm.swappiness`.
    pub swappiness: Option<Cited<u64>>,
    /// The VMware balloon driver (`vmw_balloon`) is loaded.
    pub balloon_driver: Option<Cited<String>>,
    /// Memory currently reclaimed by the balloon, MiB (`vmware-toolbox-cmd stat balloon`).
    pub balloon_mib: Option<Cited<u64>>,
}
