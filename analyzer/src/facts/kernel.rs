//! Kernel facts: taint, out-of-tree and third-party modules, virtualization platform, sysctl.
//!
//! In: `/proc/sys/kernel/tainted`, `/proc/modules`, `modinfo`, `systemd-detect-virt`,
//! `dmidecode`, `lscpu`, `sysctl -a`. Out: [`Kernel`].

use super::Cited;
use serde::Serialize;
use std::collections::BTreeMap;

/// Kernel-level state.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Kernel {
    /// `/proc/sys/kernel/tainted`: the value and its letters (`P`, `O`, `E`, ...).
    pub taint: Option<Cited<(u64, String)>>,
    /// Modules carrying taint letters in `/proc/modules`, with `modinfo` details when collected.
    pub tainting_modules: Vec<Cited<ModuleInfo>>,
    /// Virtualization platform (`vmware`, `kvm`, `microsoft`, `none`, ...).
    pub virt: Option<Cited<String>>,
    /// `sysctl -a` values by key.
    pub sysctl: BTreeMap<String, Cited<String>>,
}

/// A module outside the distribution kernel.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ModuleInfo {
    /// Module name.
    pub name: String,
    /// Taint letters from `/proc/modules` (`OE`).
    pub taint: String,
    /// Modules that use it.
    pub used_by: Vec<String>,
    /// `modinfo` description, author, license, signer, when collected.
    pub description: Option<String>,
    /// `modinfo` author or vendor.
    pub author: Option<String>,
    /// `modinfo` license.
    pub license: Option<String>,
    /// `modinfo` depends.
    pub depends: Vec<String>,
}

impl Kernel {
    /// A numeric sysctl.
    pub fn sysctl_u64(&self, key: &str) -> Option<Cited<u64>> {
        let c = self.sysctl.get(key)?;
        let v = c.value.split_whitespace().next()?.parse().ok()?;
        Some(Cited {
            value: v,
            artifact: c.artifact.clone(),
            lines: c.lines.clone(),
        })
    }
}
