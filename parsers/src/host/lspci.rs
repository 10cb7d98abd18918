//! `lspci` (pciutils 3.x): the human-readable `lspci -k` / `lspci -nn -k` listing and the
//! machine-readable `lspci -vmm` / `lspci -nnmmv` records.
//!
//! (In the samples, the tabs of the real output are shown as spaces.)
//!
//! `lspci -nn -k` (pciutils 3.9, a KVM guest):
//! ```text
//! 00:03.0 Ethernet controller [0200]: Red Hat, Inc. Virtio 1.0 network device [1af4:1041] (rev 01)
//!         Subsystem: Red Hat, Inc. Virtio 1.0 network device [1af4:1041]
//!         Kernel driver in use: virtio-pci
//!         Kernel modules: virtio_pci
//! ```
//! Device line: slot (`[domain:]bus:device.function`), class (with its `[cccc]` id under
//! `-nn`), then vendor and device names run together (with `[vvvv:dddd]` under `-nn`) and the
//! revision. Indented lines follow; `-k` adds the driver and module lines, `-v` many more.
//!
//! `lspci -nnmmv` (one record per device, `Key:<TAB>value`, blank line between records):
//! ```text
//! Slot:   00:00.0
//! Class:  Host bridge [0600]
//! Vendor: Intel Corporation [8086]
//! Device: 440BX/ZX/DX - 82443BX/ZX/DX Host bridge [7190]
//! SVendor:        VMware [15ad]
//! Rev:    01
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// One PCI function.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct PciDevice {
    /// Slot as printed (`00:03.0`, `0000:3b:00.0` with a domain).
    pub slot: String,
    /// Class name (`Ethernet controller`).
    pub class: String,
    /// Class id (`0200`), with `-nn` or in `-vmm` records.
    pub class_id: Option<String>,
    /// `lspci -k`: vendor and device names as printed after the class, without ids and
    /// revision (`Red Hat, Inc. Virtio 1.0 network device`). In `-vmm` records: vendor and
    /// device names joined by a space.
    pub description: String,
    /// Vendor name, from `-vmm` records only (the `-k` line does not separate it).
    pub vendor: Option<String>,
    /// Vendor id (`1af4`), with `-nn` or `-vmm -nn`.
    pub vendor_id: Option<String>,
    /// Device name, from `-vmm` records only.
    pub device: Option<String>,
    /// Device id (`1041`), with `-nn` or `-vmm -nn`.
    pub device_id: Option<String>,
    /// Revision (`01`).
    pub revision: Option<String>,
    /// `Subsystem:` (`-k`/`-v`), or `SVendor SDevice` (`-vmm`), without ids.
    pub subsystem: Option<String>,
    /// `Kernel driver in use:` (`-k`), or `Driver:` (`-vmm -k`).
    pub kernel_driver: Option<String>,
    /// `Kernel modules:` (comma separated), or `Module:` lines (`-vmm -k`).
    pub kernel_modules: Vec<String>,
    /// Every other indented `Key: value` line (`-v` details), or other `-vmm` keys.
    pub fields: Vec<(String, String)>,
    /// 1-based input line of the device line (or of `Slot:`).
    pub line: usize,
}

/// Parsed `lspci` output.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Lspci {
    /// Devices in input order.
    pub devices: Vec<PciDevice>,
}

impl Lspci {
    /// Device at a slot (`00:03.0`; a `0000:` domain prefix on either side is ignored).
    pub fn slot(&self, slot: &str) -> Option<&PciDevice> {
        let short = |s: &str| {
            s.strip_prefix("0000:")
                .map(str::to_string)
                .unwrap_or(s.into())
        };
        let want = short(slot);
        self.devices.iter().find(|d| short(&d.slot) == want)
    }

    /// Devices of a class (`Ethernet controller`).
    pub fn by_class<'a>(&'a self, class: &'a str) -> impl Iterator<Item = &'a PciDevice> + 'a {
        self.devices.iter().filter(move |d| d.class == class)
    }
}

/// `[domain:]bus:dev.fn` in hexadecimal.
fn is_slot(s: &str) -> bool {
    let b = s.as_bytes();
    let hex = |r: &[u8]| r.iter().all(u8::is_ascii_hexdigit);
    match b.len() {
        7 => {
            hex(&b[0..2])
                && b[2] == b':'
                && hex(&b[3..5])
                && b[5] == b'.'
                && (b'0'..=b'7').contains(&b[6])
        }
        // A domain: four digits as pciutils prints it, more for Intel VMD domains (`10000:`).
        9..=16 => {
            let d = b.len() - 8;
            hex(&b[..d]) && b[d] == b':' && s.get(d + 1..).is_some_and(is_slot)
        }
        _ => false,
    }
}

/// A trailing ` [xxxx]` or ` [xxxx:yyyy]` id group.
fn strip_ids(s: &str) -> (&str, Option<&str>) {
    let t = s.trim_end();
    if let Some((before, inner)) = t.rsplit_once(" [") {
        if let Some(inner) = inner.strip_suffix(']') {
            if !inner.is_empty()
                && inner.len() <= 9
                && inner.bytes().all(|b| b.is_ascii_hexdigit() || b == b':')
            {
                return (before.trim_end(), Some(inner));
            }
        }
    }
    (t, None)
}

/// `-k` device line: `SLOT CLASS[ [cccc]]: DESCRIPTION[ [vvvv:dddd]][ (rev RR)][ (prog-if …)]`.
fn device_line(line: &str, n: usize) -> Result<PciDevice, String> {
    let (slot, rest) = line
        .split_once(' ')
        .ok_or_else(|| format!("expected `SLOT CLASS: DEVICE`, found `{}`", excerpt(line)))?;
    if !is_slot(slot) {
        return Err(format!(
            "expected a device line starting with a slot such as `00:03.0`, found `{}`",
            excerpt(line)
        ));
    }
    let (class, mut desc) = rest.split_once(": ").ok_or_else(|| {
        format!(
            "expected `CLASS: DEVICE` after the slot, found `{}`",
            excerpt(rest)
        )
    })?;
    let (class, class_id) = strip_ids(class);
    let mut revision = None;
    // Trailing parenthesised groups: `(rev 01)`, `(prog-if 8a [...])`.
    loop {
        let t = desc.trim_end();
        let Some(body) = t.strip_suffix(')') else {
            break;
        };
        let Some((before, inner)) = body.rsplit_once(" (") else {
            break;
        };
        if let Some(r) = inner.strip_prefix("rev ") {
            revision = Some(r.to_string());
        } else if !inner.starts_with("prog-if ") {
            break;
        }
        desc = before;
    }
    let (desc, ids) = strip_ids(desc);
    let (vendor_id, device_id) = match ids.and_then(|i| i.split_once(':')) {
        Some((v, d)) => (Some(v.to_string()), Some(d.to_string())),
        None => (None, None),
    };
    Ok(PciDevice {
        slot: slot.to_string(),
        class: class.to_string(),
        class_id: class_id.map(str::to_string),
        description: desc.trim().to_string(),
        vendor_id,
        device_id,
        revision,
        line: n,
        ..Default::default()
    })
}

/// Is this `lspci` / `lspci -k` / `lspci -nn` text?
///
/// `Yes` when the first non-blank line is a device line (`00:00.0 Host bridge: …`) and at
/// least two thirds of the other unindented complete lines of the head are too; `No`
/// otherwise.
pub fn sniff(head: &str) -> Sniff {
    let (mut devices, mut bad) = (0usize, 0usize);
    for (line, complete) in head_lines(head) {
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with([' ', '\t']) {
            if devices == 0 {
                return Sniff::No;
            }
            continue;
        }
        match device_line(line, 0) {
            Ok(_) => devices += 1,
            Err(_) if !complete => {}
            Err(_) if devices == 0 => return Sniff::No,
            Err(_) => bad += 1,
        }
    }
    if devices > 0 && bad * 2 <= devices {
        Sniff::Yes
    } else {
        Sniff::No
    }
}

/// Parses `lspci`, `lspci -k`, `lspci -nn -k` (and `-v` details as extra fields).
///
/// Errors: [`ParseError::Unusable`] when no device line is found. A line that is neither a
/// device line nor indented under one is an issue.
pub fn parse(text: &str) -> Result<Parsed<Lspci>, ParseError> {
    let mut out = Lspci::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with([' ', '\t']) {
            let Some(dev) = out.devices.last_mut() else {
                issues.push(n, || {
                    format!("indented line before any device line: `{}`", excerpt(line))
                });
                continue;
            };
            let t = line.trim();
            match t.split_once(':') {
                Some(("Subsystem", v)) => dev.subsystem = Some(strip_ids(v.trim()).0.to_string()),
                Some(("Kernel driver in use", v)) => dev.kernel_driver = Some(v.trim().to_string()),
                Some(("Kernel modules", v)) => {
                    dev.kernel_modules = v
                        .split(',')
                        .map(str::trim)
                        .filter(|m| !m.is_empty())
                        .map(str::to_string)
                        .collect()
                }
                Some((k, v)) => dev
                    .fields
                    .push((k.trim().to_string(), v.trim().to_string())),
                None => dev.fields.push((t.to_string(), String::new())),
            }
            continue;
        }
        match device_line(line, n) {
            Ok(d) => out.devices.push(d),
            Err(msg) => issues.push(n, || msg),
        }
    }
    if out.devices.is_empty() {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty".to_string()
            } else {
                "no `SLOT CLASS: DEVICE` line (e.g. `00:03.0 Ethernet controller: …`)".to_string()
            },
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// `Key:<TAB>value` of a `-vmm` record (spaces instead of the tab are accepted).
fn machine_kv(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(':')?;
    (!k.is_empty() && !k.contains([' ', '\t']) && v.starts_with([' ', '\t']))
        .then_some((k, v.trim()))
}

/// Is this `lspci -vmm` text? `Yes` when the first non-blank line is `Slot:<TAB>…` with a slot.
pub fn sniff_machine(head: &str) -> Sniff {
    match head_lines(head).find(|(l, _)| !l.trim().is_empty()) {
        Some((l, true)) => match machine_kv(l) {
            Some(("Slot", v)) if is_slot(v) => Sniff::Yes,
            _ => Sniff::No,
        },
        _ => Sniff::No,
    }
}

/// Parses `lspci -vmm` / `lspci -nnmmv` records.
///
/// Errors: [`ParseError::Unusable`] when no `Slot:` record is found. A line that is not
/// `Key:<TAB>value`, or a record without `Slot:`, is an issue.
pub fn parse_machine(text: &str) -> Result<Parsed<Lspci>, ParseError> {
    let mut out = Lspci::default();
    let mut issues = Issues::default();
    let mut current: Option<PciDevice> = None;
    let finish = |dev: Option<PciDevice>, out: &mut Lspci| {
        if let Some(mut d) = dev {
            d.description = [d.vendor.as_deref(), d.device.as_deref()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" ");
            out.devices.push(d);
        }
    };
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            finish(current.take(), &mut out);
            continue;
        }
        let Some((key, value)) = machine_kv(line) else {
            issues.push(n, || {
                format!("expected `Key:<TAB>value`, found `{}`", excerpt(line))
            });
            continue;
        };
        if key == "Slot" {
            finish(current.take(), &mut out);
            current = Some(PciDevice {
                slot: value.to_string(),
                line: n,
                ..Default::default()
            });
            continue;
        }
        let Some(dev) = current.as_mut() else {
            issues.push(n, || {
                format!("`{key}:` outside a record that starts with `Slot:`")
            });
            continue;
        };
        let (name, id) = strip_ids(value);
        let (name, id) = (name.to_string(), id.map(str::to_string));
        match key {
            "Class" => (dev.class, dev.class_id) = (name, id),
            "Vendor" => (dev.vendor, dev.vendor_id) = (Some(name), id),
            "Device" => (dev.device, dev.device_id) = (Some(name), id),
            "SVendor" => dev.subsystem = Some(name),
            "SDevice" => {
                dev.subsystem = Some(match dev.subsystem.take() {
                    Some(v) => format!("{v} {name}"),
                    None => name,
                })
            }
            "Rev" => dev.revision = Some(value.to_string()),
            "Driver" => dev.kernel_driver = Some(value.to_string()),
            "Module" => dev.kernel_modules.push(value.to_string()),
            // `ProgIf`, `PhySlot`, `NUMANode`, `IOMMUGroup` and keys newer pciutils add.
            _ => dev.fields.push((key.to_string(), value.to_string())),
        }
    }
    finish(current.take(), &mut out);
    if out.devices.is_empty() {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty".to_string()
            } else {
                "no `Slot:<TAB>…` record".to_string()
            },
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots() {
        assert!(is_slot("00:03.0"));
        assert!(is_slot("0000:3b:00.1"));
        assert!(!is_slot("00:03.8"));
        assert!(!is_slot("Slot:"));
    }

    #[test]
    fn device_lines() {
        let d = device_line(
            "00:03.0 Ethernet controller [0200]: Red Hat, Inc. Virtio 1.0 network device [1af4:1041] (rev 01)",
            3,
        )
        .unwrap();
        assert_eq!(d.class, "Ethernet controller");
        assert_eq!(d.class_id.as_deref(), Some("0200"));
        assert_eq!(d.description, "Red Hat, Inc. Virtio 1.0 network device");
        assert_eq!(d.vendor_id.as_deref(), Some("1af4"));
        assert_eq!(d.device_id.as_deref(), Some("1041"));
        assert_eq!(d.revision.as_deref(), Some("01"));
        // Brackets that are part of the name are not ids.
        let d = device_line(
            "09:00.0 VGA compatible controller: Matrox Electronics Systems Ltd. MGA G200e [Pilot] ServerEngines (SEP1) (rev 02)",
            1,
        )
        .unwrap();
        assert_eq!(
            d.description,
            "Matrox Electronics Systems Ltd. MGA G200e [Pilot] ServerEngines (SEP1)"
        );
        assert_eq!(d.vendor_id, None);
    }
}
