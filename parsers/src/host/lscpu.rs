//! `lscpu`: the CPU architecture, topology and hypervisor as util-linux sees them.
//!
//! util-linux 2.2x–2.39 prints `Key: value` lines, indented under vendor and cache headings in
//! newer versions:
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
use crate::net::irq_affinity::parse_cpu_list;
use serde::Serialize;

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
        Sniff::No
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
