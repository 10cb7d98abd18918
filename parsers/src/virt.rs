//! What the host runs on: `dmidecode` (full or `-t system`), `systemd-detect-virt`, `lscpu`,
//! and [`platform`], which combines them into one verdict with its evidence.
//!
//! (In the samples, the tabs of the real output are shown as spaces.)
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
//! `systemd-detect-virt` prints one word (`none`, `kvm`, `vmware`, `microsoft`, `docker`, …).
//!
//! `lscpu` (util-linux 2.2x–2.39) prints `Key: value` lines, indented under vendor and cache
//! headings in newer versions:
//! ```text
//! Architecture:                            x86_64
//! CPU(s):                                  2
//! On-line CPU(s) list:                     0,1
//! Hypervisor vendor:                       KVM
//! Virtualization type:                     full
//! NUMA node0 CPU(s):                       0,1
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use crate::irq_affinity::parse_cpu_list;
use serde::Serialize;

// ---------------------------------------------------------------------------------------------
// dmidecode

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

// ---------------------------------------------------------------------------------------------
// systemd-detect-virt

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

/// Is this `systemd-detect-virt` output? `Yes` for a single line holding one of systemd's
/// identifiers; `No` otherwise.
pub fn sniff_detect_virt(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    match (lines.next(), lines.next()) {
        (Some((l, true)), None) if virt_kind(l.trim()).is_some() => Sniff::Yes,
        _ => Sniff::No,
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

// ---------------------------------------------------------------------------------------------
// lscpu

/// A `Key: value` line of `lscpu`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LscpuField {
    /// Key as printed, without indentation (`Model name`, `NUMA node0 CPU(s)`).
    pub key: String,
    /// Value as printed.
    pub value: String,
    /// 1-based input line.
    pub line: usize,
}

/// Parsed `lscpu`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Lscpu {
    /// `Architecture` (`x86_64`, `aarch64`).
    pub architecture: Option<String>,
    /// `CPU(s)`.
    pub cpus: Option<u32>,
    /// `On-line CPU(s) list`, expanded.
    pub online_cpus: Vec<u32>,
    /// `Thread(s) per core`.
    pub threads_per_core: Option<u32>,
    /// `Core(s) per socket` (newer lscpu on arm64 may print `Core(s) per cluster`).
    pub cores_per_socket: Option<u32>,
    /// `Socket(s)`.
    pub sockets: Option<u32>,
    /// `NUMA node(s)`.
    pub numa_nodes: Option<u32>,
    /// `Vendor ID` (`GenuineIntel`, `AuthenticAMD`, `HiSilicon`, `ARM`).
    pub vendor_id: Option<String>,
    /// `BIOS Vendor ID` (arm64 and newer lscpu, from DMI).
    pub bios_vendor_id: Option<String>,
    /// `Model name` (`Kunpeng-920`, `AMD EPYC`).
    pub model_name: Option<String>,
    /// `BIOS Model name`.
    pub bios_model_name: Option<String>,
    /// `Hypervisor vendor` (`KVM`, `VMware`, `Microsoft`, `Xen`); present only in a guest.
    pub hypervisor_vendor: Option<String>,
    /// `Virtualization type` (`full`, `para`, `container`); present only in a guest.
    pub virtualization_type: Option<String>,
    /// `Virtualization` (`VT-x`, `AMD-V`): hardware support offered to guests.
    pub virtualization: Option<String>,
    /// `NUMA nodeN CPU(s)` lists, expanded, by node number.
    pub numa_node_cpus: Vec<(u32, Vec<u32>)>,
    /// Every line, in input order.
    pub fields: Vec<LscpuField>,
}

impl Lscpu {
    /// A field's value by key.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|f| f.key == key)
            .map(|f| f.value.as_str())
    }

    /// Line of a key, for evidence.
    pub fn line_of(&self, key: &str) -> Option<usize> {
        self.fields.iter().find(|f| f.key == key).map(|f| f.line)
    }
}

fn lscpu_kv(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(':')?;
    let k = k.trim();
    (!k.is_empty() && k.len() <= 48).then_some((k, v.trim()))
}

/// Is this `lscpu` output? `Yes` when the first non-blank line is `Architecture: …` and
/// `CPU(s):` appears in the head; `No` otherwise.
pub fn sniff_lscpu(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    match lines.next().and_then(|(l, _)| lscpu_kv(l)) {
        Some(("Architecture", _)) => {}
        _ => return Sniff::No,
    }
    if lines.any(|(l, _)| lscpu_kv(l).is_some_and(|(k, _)| k == "CPU(s)")) {
        Sniff::Yes
    } else {
        Sniff::Unsure
    }
}

/// Parses `lscpu`. Errors: [`ParseError::Unusable`] without an `Architecture` line.
pub fn parse_lscpu(text: &str) -> Result<Parsed<Lscpu>, ParseError> {
    let mut out = Lscpu::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        if line.trim().is_empty() {
            continue;
        }
        let Some((key, value)) = lscpu_kv(line) else {
            issues.push(n, || {
                format!("expected `Key: value`, found `{}`", excerpt(line))
            });
            continue;
        };
        let int = |issues: &mut Issues| {
            let v = value.parse().ok();
            if v.is_none() {
                issues.push(n, || {
                    format!("`{key}`: expected a number, found `{}`", excerpt(value))
                });
            }
            v
        };
        let s = || (!value.is_empty()).then(|| value.to_string());
        match key {
            "Architecture" => out.architecture = s(),
            "CPU(s)" => out.cpus = int(&mut issues),
            "On-line CPU(s) list" => match parse_cpu_list(value) {
                Ok(c) => out.online_cpus = c,
                Err(msg) => issues.push(n, || format!("`{key}`: {msg}")),
            },
            "Thread(s) per core" => out.threads_per_core = int(&mut issues),
            "Core(s) per socket" | "Core(s) per cluster" => out.cores_per_socket = int(&mut issues),
            "Socket(s)" => out.sockets = int(&mut issues),
            "NUMA node(s)" => out.numa_nodes = int(&mut issues),
            "Vendor ID" => out.vendor_id = s(),
            "BIOS Vendor ID" => out.bios_vendor_id = s(),
            "Model name" => out.model_name = s(),
            "BIOS Model name" => out.bios_model_name = s(),
            "Hypervisor vendor" => out.hypervisor_vendor = s(),
            "Virtualization type" => out.virtualization_type = s(),
            "Virtualization" => out.virtualization = s(),
            _ => {
                if let Some(node) = key
                    .strip_prefix("NUMA node")
                    .and_then(|r| r.strip_suffix(" CPU(s)"))
                    .and_then(|r| r.parse::<u32>().ok())
                {
                    match parse_cpu_list(value) {
                        Ok(c) => out.numa_node_cpus.push((node, c)),
                        Err(msg) => issues.push(n, || format!("`{key}`: {msg}")),
                    }
                }
            }
        }
        out.fields.push(LscpuField {
            key: key.to_string(),
            value: value.to_string(),
            line: n,
        });
    }
    if out.architecture.is_none() {
        return Err(ParseError::unusable(
            None,
            if text.trim().is_empty() {
                "input is empty"
            } else {
                "no `Architecture:` line (expected lscpu output)"
            },
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

// ---------------------------------------------------------------------------------------------
// platform()

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
