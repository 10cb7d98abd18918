//! What the host runs on: [`platform`] combines [`systemd-detect-virt`](super::detect_virt),
//! [`lscpu`](super::lscpu) and [`dmidecode`](super::dmidecode) into one verdict (physical,
//! virtual machine, container) with its evidence.
//!
//! This module reads no text of its own: it takes the records the three parsers produce.

use super::detect_virt::{DetectVirt, VirtKind};
use super::dmidecode::{BiosInfo, Dmidecode, SystemInfo};
use super::lscpu::Lscpu;
use serde::Serialize;

/// The verdict of [`platform`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum PlatformKind {
    /// Bare metal: DMI names a hardware vendor and nothing reports a hypervisor.
    Physical,
    /// A virtual machine guest.
    VirtualMachine,
    /// A container (its host may itself be a virtual machine; see `hypervisor`).
    Container,
    /// Not enough evidence.
    Unknown,
}

/// One piece of evidence behind a verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// Which artifact: `systemd-detect-virt`, `lscpu` or `dmidecode`.
    pub source: &'static str,
    /// 1-based line in that artifact.
    pub line: usize,
    /// The fact as a short sentence (`Hypervisor vendor: VMware`).
    pub text: String,
}

/// Virtualisation verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Platform {
    /// Physical, virtual machine, container or unknown.
    pub kind: PlatformKind,
    /// The hypervisor, when known, in one spelling across sources: `VMware`, `KVM`, `Xen`,
    /// `Hyper-V`, `VirtualBox`, `Oracle`, `QEMU`, `Amazon`, `Google`, `PowerVM`, `Parallels`,
    /// `bhyve`, or the source's own word.
    pub hypervisor: Option<String>,
    /// The facts that led to the verdict, strongest first.
    pub evidence: Vec<Evidence>,
}

/// A hypervisor name in one spelling, from a systemd id, an lscpu vendor or DMI strings.
fn canonical_hypervisor(s: &str) -> Option<&'static str> {
    let l = s.to_ascii_lowercase();
    let table: &[(&str, &str)] = &[
        ("vmware", "VMware"),
        ("microsoft", "Hyper-V"),
        ("hyper-v", "Hyper-V"),
        ("virtualbox", "VirtualBox"),
        ("innotek", "VirtualBox"),
        ("oracle", "Oracle"),
        ("xen", "Xen"),
        ("hvm domu", "Xen"),
        ("kvm", "KVM"),
        ("rhev", "KVM"),
        ("openstack", "KVM"),
        ("qemu", "QEMU"),
        ("bochs", "QEMU"),
        ("amazon", "Amazon"),
        ("google", "Google"),
        ("powervm", "PowerVM"),
        ("parallels", "Parallels"),
        ("bhyve", "bhyve"),
    ];
    table
        .iter()
        .find(|(needle, _)| l.contains(needle))
        .map(|(_, name)| *name)
}

/// DMI strings that only virtual machines report (System manufacturer or product, BIOS
/// vendor).
fn dmi_virtual(sys: &SystemInfo, bios: Option<&BiosInfo>) -> Option<(&'static str, String)> {
    let candidates = [
        sys.manufacturer.as_deref(),
        sys.product_name.as_deref(),
        sys.family.as_deref(),
    ];
    for c in candidates.into_iter().flatten() {
        if let Some(h) = canonical_hypervisor(c) {
            return Some((h, c.to_string()));
        }
        if c.eq_ignore_ascii_case("Virtual Machine") {
            // Hyper-V's product name; also OpenStack's family.
            return Some(("Hyper-V", c.to_string()));
        }
    }
    if let Some(v) = bios.and_then(|b| b.vendor.as_deref()) {
        if v == "SeaBIOS" {
            return Some(("KVM", v.to_string()));
        }
        if let Some(h) = canonical_hypervisor(v) {
            return Some((h, v.to_string()));
        }
    }
    None
}

/// Combines what is available into one virtualisation verdict.
///
/// Precedence: `systemd-detect-virt` (it inspects CPUID, DMI and container markers), then
/// lscpu's `Hypervisor vendor` (CPUID), then DMI strings. A container verdict keeps the
/// hypervisor seen by lscpu or DMI. `Physical` needs DMI naming a non-virtual system and no
/// source reporting a hypervisor; with nothing to go on the verdict is `Unknown`.
pub fn platform(
    detect: Option<&DetectVirt>,
    lscpu: Option<&Lscpu>,
    dmi: Option<&Dmidecode>,
) -> Platform {
    let mut evidence = Vec::new();
    let mut hypervisor: Option<String> = None;
    let mut kind = PlatformKind::Unknown;
    if let Some(d) = detect {
        evidence.push(Evidence {
            source: "systemd-detect-virt",
            line: d.line,
            text: format!("systemd-detect-virt: {}", d.id),
        });
        match d.kind {
            VirtKind::VirtualMachine => {
                kind = PlatformKind::VirtualMachine;
                hypervisor = Some(
                    canonical_hypervisor(&d.id)
                        .map(str::to_string)
                        .unwrap_or_else(|| d.id.clone()),
                );
            }
            VirtKind::Container => kind = PlatformKind::Container,
            VirtKind::None => {}
        }
    }
    if let Some(l) = lscpu {
        if let Some(v) = &l.hypervisor_vendor {
            evidence.push(Evidence {
                source: "lscpu",
                line: l.line_of("Hypervisor vendor").unwrap_or(0),
                text: format!("Hypervisor vendor: {v}"),
            });
            hypervisor.get_or_insert_with(|| {
                canonical_hypervisor(v)
                    .map(str::to_string)
                    .unwrap_or_else(|| v.clone())
            });
            if kind == PlatformKind::Unknown {
                kind = PlatformKind::VirtualMachine;
            }
        }
    }
    let sys = dmi.and_then(Dmidecode::system);
    let bios = dmi.and_then(Dmidecode::bios);
    if let Some(s) = &sys {
        match dmi_virtual(s, bios.as_ref()) {
            Some((h, what)) => {
                let line = if bios.as_ref().and_then(|b| b.vendor.as_deref()) == Some(what.as_str())
                {
                    bios.as_ref().map_or(s.line, |b| b.line)
                } else {
                    s.line
                };
                evidence.push(Evidence {
                    source: "dmidecode",
                    line,
                    text: format!("DMI reports `{what}`"),
                });
                hypervisor.get_or_insert_with(|| h.to_string());
                if kind == PlatformKind::Unknown {
                    kind = PlatformKind::VirtualMachine;
                }
            }
            None => {
                let name = [s.manufacturer.as_deref(), s.product_name.as_deref()]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(" ");
                if !name.is_empty() {
                    evidence.push(Evidence {
                        source: "dmidecode",
                        line: s.line,
                        text: format!("DMI system: {name}"),
                    });
                    if kind == PlatformKind::Unknown && hypervisor.is_none() {
                        let detect_says_none = detect.is_none_or(|d| d.kind == VirtKind::None);
                        if detect_says_none {
                            kind = PlatformKind::Physical;
                        }
                    }
                }
            }
        }
    }
    if kind == PlatformKind::Unknown && detect.is_some_and(|d| d.kind == VirtKind::None) {
        kind = PlatformKind::Physical;
    }
    Platform {
        kind,
        hypervisor,
        evidence,
    }
}
