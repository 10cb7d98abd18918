//! Kernel facts: taint, out-of-tree and third-party modules, virtualization platform, sysctl.
//!
//! In: `/proc/sys/kernel/tainted`, `/proc/modules`, `modinfo`, `systemd-detect-virt`,
//! `dmidecode`, `lscpu`, `sysctl -a`. Out: [`Kernel`].

use crate::evidence::Cited;
use serde::Serialize;
use std::collections::BTreeMap;

/// Kernel-level state.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Kernel {
    /// The kernel's taint, the value and its letters (`P`, `O`, `E`, ...): from
    /// `/proc/sys/kernel/tainted`, else from `kernel.tainted` of `sysctl -a`, both decoded by
    /// `parsers::kernel::taint`; when they disagree the former is taken and the conflict listed.
    pub taint: Option<Cited<(u64, String)>>,
    /// Modules carrying taint letters in `/proc/modules`, with `modinfo` details when collected.
    pub tainting_modules: Vec<Cited<ModuleInfo>>,
    /// Virtualization platform (`vmware`, `kvm`, `microsoft`, `none`, ...).
    pub virt: Option<Cited<String>>,
    /// `sysctl -a` values by key (a vector's tab-separated fields joined with one space).
    pub sysctl: BTreeMap<String, Cited<String>>,
    /// Keys `sysctl -a` printed an error for instead of a value, citing the error line: their
    /// value is unknown on this host, which is not the same as absent.
    pub sysctl_unreadable: BTreeMap<String, Cited<SysctlError>>,
}

/// Why `sysctl -a` gave no value for a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SysctlError {
    /// `permission denied on key '…'`: collected without the privilege to read it.
    Denied,
    /// `reading key "…"` and the like: the read failed.
    ReadError,
}

impl SysctlError {
    /// As shown in reports.
    pub fn label(self) -> &'static str {
        match self {
            SysctlError::Denied => "permission denied",
            SysctlError::ReadError => "read error",
        }
    }
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
    /// Whether `sysctl -a` could not read `key` (its value is unknown, not absent).
    pub fn sysctl_unknown(&self, key: &str) -> bool {
        self.sysctl_unreadable.contains_key(key)
    }

    /// How many keys `sysctl -a` could not read: (denied, read errors).
    pub fn sysctl_unreadable_counts(&self) -> (usize, usize) {
        let denied = self
            .sysctl_unreadable
            .values()
            .filter(|c| c.value == SysctlError::Denied)
            .count();
        (denied, self.sysctl_unreadable.len() - denied)
    }

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

use crate::artifacts::Collected;
use parsers::host::{detect_virt::DetectVirt, dmidecode::Dmidecode, lscpu::Lscpu};
use parsers::kernel::sysctl::Sysctl;
use parsers::kernel::{modinfo::ModInfo, taint::Taint};

/// Builds kernel facts from taint, modules (with `modinfo`), virtualization and sysctl.
/// The taint is read from `/proc/sys/kernel/tainted` (its canonical path first), else from
/// `sysctl -a`'s `kernel.tainted`; sources that disagree go to `conflicts`.
pub fn build(
    c: &Collected,
    modules: Option<&super::ModuleList>,
    conflicts: &mut Vec<super::conflicts::Conflict>,
) -> Kernel {
    let mut k = Kernel::default();
    if let Some((a, s)) = c.records::<Sysctl>().next() {
        for e in &s.entries {
            k.sysctl
                .insert(e.key.clone(), Cited::new(e.value.clone(), &a.path, e.line));
        }
        for (why, list) in [
            (SysctlError::Denied, &s.denied),
            (SysctlError::ReadError, &s.read_errors),
        ] {
            for u in list.iter().filter(|u| !k.sysctl.contains_key(&u.key)) {
                k.sysctl_unreadable
                    .insert(u.key.clone(), Cited::new(why, &a.path, u.line));
            }
        }
    }
    let mut taints: Vec<(bool, Cited<TaintValue>)> = c
        .records::<Taint>()
        .map(|(a, t)| {
            (
                a.path.ends_with("proc/sys/kernel/tainted"),
                Cited::new(TaintValue(t.value, t.letters()), &a.path, t.line),
            )
        })
        .collect();
    // Canonical path first; otherwise path order.
    taints.sort_by_key(|(canonical, _)| !canonical);
    let mut candidates: Vec<Cited<TaintValue>> = taints.into_iter().map(|(_, t)| t).collect();
    if let Some(v) = k.sysctl.get("kernel.tainted") {
        if let Ok(p) = parsers::kernel::taint::parse_tainted(v.value.trim()) {
            candidates.push(Cited {
                value: TaintValue(p.value.value, p.value.letters()),
                artifact: v.artifact.clone(),
                lines: v.lines.clone(),
            });
        }
    }
    k.taint = super::conflicts::choose("kernel taint", candidates, |a, b| a.0 == b.0, conflicts)
        .map(|t| Cited {
            value: (t.value.0, t.value.1),
            artifact: t.artifact,
            lines: t.lines,
        });
    let modinfo: Vec<&ModInfo> = c
        .records::<Vec<ModInfo>>()
        .flat_map(|(_, v)| v.iter())
        .collect();
    if let Some(list) = modules {
        let src = list.artifact.as_str();
        for m in list.iter().filter(|m| m.taint.is_some()) {
            let info = modinfo.iter().find(|i| {
                i.name.as_deref() == Some(m.name.as_str())
                    || i.filename
                        .as_deref()
                        .is_some_and(|f| f.ends_with(&format!("/{}.ko", m.name)))
            });
            k.tainting_modules.push(Cited::new(
                ModuleInfo {
                    name: m.name.clone(),
                    taint: m.taint.clone().unwrap_or_default(),
                    used_by: m.used_by.clone(),
                    description: info.and_then(|i| i.description.clone()),
                    author: info.and_then(|i| i.authors.first().cloned()),
                    license: info.and_then(|i| i.license.clone()),
                    depends: info.map(|i| i.depends.clone()).unwrap_or_default(),
                },
                src,
                m.line,
            ));
        }
    }
    let detect = c.records::<DetectVirt>().next();
    let lscpu = c.records::<Lscpu>().next();
    let dmi = c.records::<Dmidecode>().next();
    if detect.is_some() || lscpu.is_some() || dmi.is_some() {
        let p = parsers::host::platform::platform(
            detect.map(|x| x.1),
            lscpu.map(|x| x.1),
            dmi.map(|x| x.1),
        );
        let word = match p.kind {
            parsers::host::platform::PlatformKind::Physical => Some("none".to_string()),
            parsers::host::platform::PlatformKind::VirtualMachine
            | parsers::host::platform::PlatformKind::Container => Some(
                p.hypervisor
                    .clone()
                    .unwrap_or_else(|| "unknown".into())
                    .to_ascii_lowercase(),
            ),
            parsers::host::platform::PlatformKind::Unknown => None,
        };
        if let (Some(word), Some(ev)) = (word, p.evidence.first()) {
            let path = match ev.source {
                "systemd-detect-virt" => detect.map(|x| x.0.path.clone()),
                "lscpu" => lscpu.map(|x| x.0.path.clone()),
                _ => dmi.map(|x| x.0.path.clone()),
            };
            if let Some(path) = path {
                k.virt = Some(Cited::new(word, &path, ev.line));
            }
        }
    }
    k
}

/// A taint mask and its letters, displayed as `4096 (O)`.
#[derive(Debug, Clone)]
struct TaintValue(u64, String);

impl std::fmt::Display for TaintValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.1.is_empty() {
            write!(f, "{}", self.0)
        } else {
            write!(f, "{} ({})", self.0, self.1)
        }
    }
}
