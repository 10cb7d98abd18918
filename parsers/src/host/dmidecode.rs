//! `dmidecode` (full or `-t system`): the SMBIOS tables, read for the system and BIOS vendor.
//!
//! (In the sample, the tabs of the real output are shown as spaces.)
//!
//! `dmidecode` (2.x–3.x) prints a banner, then one block per DMI structure: a `Handle` line, the
//! structure's name, and tab-indented `Key: value` lines; list values (`Characteristics:`)
//! continue on lines indented by two tabs:
//! ```text
//! # dmidecode 3.2
//! Getting SMBIOS data from sysfs.
//! SMBIOS 2.7 present.
//!
//! Handle 0x0001, DMI type 1, 27 bytes
//! System Information
//!         Manufacturer: VMware, Inc.
//!         Product Name: VMware Virtual Platform
//!         UUID: 28fd4d56-3389-e2f8-6474-0159923b580e
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;

/// A `Key: value` line of a DMI structure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DmiField {
    /// Key as printed (`Manufacturer`, `Product Name`).
    pub key: String,
    /// Value as printed; for list keys (`Characteristics`) the items joined with `; `.
    pub value: String,
    /// 1-based input line.
    pub line: usize,
}

/// One DMI structure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DmiHandle {
    /// Handle as printed (`0x0001`).
    pub handle: String,
    /// DMI type (0 BIOS, 1 System, 2 Base Board, 3 Chassis, 4 Processor, 17 Memory Device…).
    pub dmi_type: u8,
    /// Structure name as printed (`System Information`).
    pub name: String,
    /// Fields in input order.
    pub fields: Vec<DmiField>,
    /// 1-based line of the `Handle` line.
    pub line: usize,
}

impl DmiHandle {
    /// A field by key, compared without regard to ASCII case.
    pub fn field(&self, key: &str) -> Option<&DmiField> {
        self.fields.iter().find(|f| f.key.eq_ignore_ascii_case(key))
    }

    /// A field's value by key, compared without regard to ASCII case.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.field(key).map(|f| f.value.as_str())
    }
}

/// The System Information structure (DMI type 1).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct SystemInfo {
    /// `Manufacturer` (`VMware, Inc.`, `HP`, `Xen`, `Red Hat`, `OpenStack Foundation`).
    pub manufacturer: Option<String>,
    /// `Product Name` (`VMware Virtual Platform`, `ProLiant DL380p Gen8`, `HVM domU`).
    pub product_name: Option<String>,
    /// `Version`.
    pub version: Option<String>,
    /// `Serial Number`.
    pub serial_number: Option<String>,
    /// `UUID`.
    pub uuid: Option<String>,
    /// `SKU Number`.
    pub sku_number: Option<String>,
    /// `Family`.
    pub family: Option<String>,
    /// 1-based line of the structure's `Handle` line.
    pub line: usize,
}

/// The BIOS Information structure (DMI type 0).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct BiosInfo {
    /// `Vendor` (`SeaBIOS`, `Phoenix Technologies LTD`, `Xen`, `HP`).
    pub vendor: Option<String>,
    /// `Version`.
    pub version: Option<String>,
    /// `Release Date`.
    pub release_date: Option<String>,
    /// 1-based line of the structure's `Handle` line.
    pub line: usize,
}

/// Parsed `dmidecode`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Dmidecode {
    /// Version from the `# dmidecode 3.2` banner.
    pub version: Option<String>,
    /// SMBIOS version from `SMBIOS 2.7 present.`.
    pub smbios: Option<String>,
    /// Structure count from `620 structures occupying 29060 bytes.` (what the table holds,
    /// which may be more than the handles printed by `-t`).
    pub structures: Option<u32>,
    /// Structures in input order.
    pub handles: Vec<DmiHandle>,
    /// Other unindented lines before the first handle (`Getting SMBIOS data from sysfs.`,
    /// `Scanning /dev/mem for entry point.`), with their lines.
    pub notes: Vec<(usize, String)>,
}

/// Values that mean "nothing here".
fn dmi_value(v: &str) -> Option<String> {
    let v = v.trim();
    let empty = v.is_empty()
        || [
            "Not Specified",
            "Not Present",
            "To Be Filled By O.E.M.",
            "None",
            "N/A",
        ]
        .iter()
        .any(|e| v.eq_ignore_ascii_case(e));
    (!empty).then(|| v.to_string())
}

impl Dmidecode {
    /// Structures of one DMI type.
    pub fn of_type(&self, dmi_type: u8) -> impl Iterator<Item = &DmiHandle> {
        self.handles.iter().filter(move |h| h.dmi_type == dmi_type)
    }

    /// The System Information structure (type 1). Placeholder values (`Not Specified`,
    /// `None`) are `None`.
    pub fn system(&self) -> Option<SystemInfo> {
        let h = self.of_type(1).next()?;
        let g = |k: &str| h.get(k).and_then(dmi_value);
        Some(SystemInfo {
            manufacturer: g("Manufacturer"),
            product_name: g("Product Name"),
            version: g("Version"),
            serial_number: g("Serial Number"),
            uuid: g("UUID"),
            sku_number: g("SKU Number"),
            family: g("Family"),
            line: h.line,
        })
    }

    /// The BIOS Information structure (type 0).
    pub fn bios(&self) -> Option<BiosInfo> {
        let h = self.of_type(0).next()?;
        let g = |k: &str| h.get(k).and_then(dmi_value);
        Some(BiosInfo {
            vendor: g("Vendor"),
            version: g("Version"),
            release_date: g("Release Date"),
            line: h.line,
        })
    }
}

/// `Handle 0x0001, DMI type 1, 27 bytes`.
fn handle_line(line: &str) -> Option<(String, u8)> {
    let rest = line.strip_prefix("Handle ")?;
    let mut parts = rest.split(", ");
    let handle = parts.next()?.to_string();
    let t = parts.next()?.strip_prefix("DMI type ")?;
    Some((handle, t.trim().parse().ok()?))
}

/// Is this `dmidecode` output? `Yes` when the head has the `# dmidecode` banner or a
/// `Handle 0x…, DMI type N` line; `No` otherwise.
pub fn sniff_dmidecode(head: &str) -> Sniff {
    for (l, _) in head_lines(head) {
        if l.starts_with("# dmidecode") || handle_line(l).is_some() {
            return Sniff::Yes;
        }
    }
    Sniff::No
}

/// Parses `dmidecode` (all structures or a `-t` selection).
///
/// Errors: [`ParseError::Unusable`] when no `Handle` line is found; the reason quotes what
/// dmidecode printed instead (`/dev/mem: No such file or directory` when it cannot read the
/// table).
pub fn parse_dmidecode(text: &str) -> Result<Parsed<Dmidecode>, ParseError> {
    let mut out = Dmidecode::default();
    let mut issues = Issues::default();
    // Whether the next unindented line is a structure's name.
    let mut want_name = false;
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        if let Some(v) = line.strip_prefix("# dmidecode") {
            out.version = Some(v.trim().to_string());
            continue;
        }
        if let Some((handle, dmi_type)) = handle_line(line) {
            out.handles.push(DmiHandle {
                handle,
                dmi_type,
                name: String::new(),
                fields: Vec::new(),
                line: n,
            });
            want_name = true;
            continue;
        }
        let Some(h) = out.handles.last_mut() else {
            let t = line.trim();
            if let Some(v) = t
                .strip_prefix("SMBIOS ")
                .and_then(|r| r.strip_suffix(" present."))
            {
                out.smbios = Some(v.to_string());
            } else if let Some((count, _)) = t.split_once(" structures occupying") {
                out.structures = count.trim().parse().ok();
            } else {
                out.notes.push((n, t.to_string()));
            }
            continue;
        };
        if want_name && !line.starts_with('\t') {
            h.name = line.trim().to_string();
            want_name = false;
            continue;
        }
        want_name = false;
        if let Some(item) = line.strip_prefix("\t\t") {
            // A list item of the previous key.
            match h.fields.last_mut() {
                Some(f) => {
                    if !f.value.is_empty() {
                        f.value.push_str("; ");
                    }
                    f.value.push_str(item.trim());
                }
                None => issues.push(n, || {
                    format!(
                        "list item before any key in {}: `{}`",
                        h.handle,
                        excerpt(line)
                    )
                }),
            }
            continue;
        }
        if let Some(kv) = line.strip_prefix('\t') {
            match kv.split_once(':') {
                Some((k, v)) => h.fields.push(DmiField {
                    key: k.trim().to_string(),
                    value: v.trim().to_string(),
                    line: n,
                }),
                None => h.fields.push(DmiField {
                    // Raw `Header and Data:` dumps and `Strings:` entries.
                    key: kv.trim().to_string(),
                    value: String::new(),
                    line: n,
                }),
            }
            continue;
        }
        // A second name inside one structure: DMI type 10 lists `On Board Device N
        // Information` blocks under one handle. Kept as a field without a value.
        h.fields.push(DmiField {
            key: line.trim().to_string(),
            value: String::new(),
            line: n,
        });
    }
    if out.handles.is_empty() {
        let reason = match out.notes.last() {
            Some((_, msg)) => format!("no DMI structure; dmidecode said `{}`", excerpt(msg)),
            None if text.trim().is_empty() => "input is empty".to_string(),
            None => "no `Handle 0x…, DMI type N` line".to_string(),
        };
        return Err(ParseError::unusable(
            out.notes.last().map(|(n, _)| *n),
            reason,
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
