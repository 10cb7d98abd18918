//! `systemd-detect-virt`: the virtualisation or container technology systemd detects.
//!
//! One word (systemd 2xx; `none` on bare metal, `kvm`, `vmware`, `microsoft`, `docker`, …):
//! ```text
//! kvm
//! ```

use crate::common::{excerpt, numbered_lines, strip_bom, Issues, ParseError, Parsed};
use serde::Serialize;

/// What `systemd-detect-virt` found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum VirtKind {
    /// `none`.
    None,
    /// A virtual machine technology.
    VirtualMachine,
    /// A container technology.
    Container,
}

/// Parsed `systemd-detect-virt`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DetectVirt {
    /// The word printed (`kvm`, `vmware`, `none`, `docker`).
    pub id: String,
    /// Its kind, from systemd's list of identifiers.
    pub kind: VirtKind,
    /// 1-based input line.
    pub line: usize,
}

/// Identifiers systemd-detect-virt prints for virtual machines (systemd 252, `man
/// systemd-detect-virt`).
const VM_IDS: &[&str] = &[
    "qemu",
    "kvm",
    "amazon",
    "zvm",
    "vmware",
    "microsoft",
    "oracle",
    "powervm",
    "xen",
    "bochs",
    "uml",
    "parallels",
    "bhyve",
    "qnx",
    "acrn",
    "apple",
    "sre",
    "google",
    "vm-other",
];

/// Identifiers systemd-detect-virt prints for containers.
const CONTAINER_IDS: &[&str] = &[
    "openvz",
    "lxc",
    "lxc-libvirt",
    "systemd-nspawn",
    "docker",
    "podman",
    "rkt",
    "wsl",
    "proot",
    "pouch",
    "container-other",
];

fn virt_kind(id: &str) -> Option<VirtKind> {
    if id == "none" {
        Some(VirtKind::None)
    } else if VM_IDS.contains(&id) {
        Some(VirtKind::VirtualMachine)
    } else if CONTAINER_IDS.contains(&id) {
        Some(VirtKind::Container)
    } else {
        None
    }
}

/// Parses `systemd-detect-virt`. Errors: [`ParseError::Unusable`] unless the first non-blank
/// line is one of systemd's identifiers.
pub fn parse_detect_virt(text: &str) -> Result<Parsed<DetectVirt>, ParseError> {
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    let Some((n, line)) = lines.next() else {
        return Err(ParseError::unusable(None, "input is empty"));
    };
    let id = line.trim();
    let kind = virt_kind(id).ok_or_else(|| {
        ParseError::unusable(
            Some(n),
            format!(
                "expected one systemd-detect-virt identifier (`none`, `kvm`, `vmware`, …), found `{}`",
                excerpt(id)
            ),
        )
    })?;
    let mut issues = Issues::default();
    for (m, extra) in lines {
        issues.push(m, || {
            format!("expected one line; ignored `{}`", excerpt(extra))
        });
    }
    Ok(Parsed {
        value: DetectVirt {
            id: id.to_string(),
            kind,
            line: n,
        },
        issues: issues.into_vec(),
    })
}
