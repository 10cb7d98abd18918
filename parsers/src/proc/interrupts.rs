//! `/proc/interrupts`: per-CPU counts of hardware interrupts and IPIs since boot.
//!
//! The header names the *online* CPUs (`CPU0 CPU1 CPU3` when CPU2 is offline: column index and
//! CPU number differ, so counts are matched by the number in the header). Each row is a label
//! and a colon, one count per header column, then a description whose shape depends on the
//! architecture and kernel:
//! - x86 since 4.x: chip, `hwirq-trigger`, devices: `IO-APIC   2-edge      timer`,
//!   `PCI-MSI 49152-edge      virtio0-config`, `IR-PCI-MSI 512000-edge      ahci[0000:00:1f.2]`;
//! - x86 before 4.x: one `chip-trigger` token then devices: `IO-APIC-edge      timer`,
//!   `IR-PCI-MSI-edge      iwlwifi`;
//! - arm64 GICv3: chip, hwirq, trigger as separate words: `GICv3  27 Level     arch_timer`,
//!   `ITS-MSI 65537 Edge      nvme0q1`;
//! - named rows (`NMI`, `LOC`, `RES`, `IPI0` …) with a text description (`Local timer
//!   interrupts`); on arm64 a 10-digit first count is glued to the label (`IPI0:2768808080`);
//! - `ERR` and `MIS` (`Err` on arm64) with a single system-wide count;
//! - several devices sharing a line, separated by `, ` (`ehci_hcd:usb1, mmc0`,
//!   `PCIe PME, pciehp`).
//!
//! Sample input (x86_64, 2 CPUs):
//! ```text
//!            CPU0       CPU1
//!   0:         18          0   IO-APIC    2-edge      timer
//!  16:       3545          0   IO-APIC   16-fasteoi   vmwgfx, snd_ens1371
//! LOC:     366351     997227   Local timer interrupts
//! ERR:          0
//! ```

use crate::common::{
    excerpt, head_lines, numbered_lines, strip_bom, Issues, ParseError, Parsed, Sniff,
};
use serde::Serialize;
use std::collections::HashMap;

/// One snapshot of `/proc/interrupts`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Interrupts {
    /// CPU numbers from the header, in column order (`CPU3` → 3).
    pub cpus: Vec<u32>,
    /// One row per interrupt line, in input order.
    pub rows: Vec<IrqRow>,
}

/// Counters of one interrupt line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IrqRow {
    /// Label as printed, without the colon: an IRQ number (`"27"`) or a name (`"NMI"`,
    /// `"LOC"`, `"IPI0"`, `"ERR"`).
    pub irq: String,
    /// 1-based input line.
    pub line: usize,
    /// Count since boot per header column (same order as [`Interrupts::cpus`]); empty for
    /// single-count rows.
    pub counts: Vec<u64>,
    /// `ERR`/`MIS`: one system-wide count, not per CPU.
    pub single_count: Option<u64>,
    /// Interrupt chip (`IO-APIC`, `PCI-MSI`, `IR-PCI-MSI`, `GICv3`, `ITS-MSI`; the combined
    /// `IO-APIC-edge` of old kernels) for numbered IRQs.
    pub chip: Option<String>,
    /// Hardware IRQ number within the chip (`2` in `2-edge`, `27` in `GICv3 27 Level`).
    pub hwirq: Option<String>,
    /// Trigger/flow type (`edge`, `fasteoi`, `Level`, `Edge`), when printed apart from the chip.
    pub trigger: Option<String>,
    /// Devices (handlers) on the line, split at `, ` (`["PCIe PME", "pciehp"]`); for named
    /// rows, empty.
    pub devices: Vec<String>,
    /// Everything after the counts, trimmed (`IO-APIC   2-edge      timer`, `Local timer
    /// interrupts`).
    pub description: String,
}

impl IrqRow {
    /// Sum over CPUs (or the single count).
    pub fn total(&self) -> u64 {
        self.single_count
            .unwrap_or_else(|| self.counts.iter().fold(0u64, |a, c| a.saturating_add(*c)))
    }

    /// Whether the label is an IRQ number (a device interrupt) rather than a named
    /// architecture counter.
    pub fn is_numbered(&self) -> bool {
        self.irq.bytes().all(|b| b.is_ascii_digit())
    }
}

/// Interrupts of one line between two snapshots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IrqDelta {
    /// Label (`"27"`, `"LOC"`).
    pub irq: String,
    /// Devices of the line in the later snapshot.
    pub devices: Vec<String>,
    /// `(cpu, interrupts during the interval)` for every CPU present in both snapshots, in
    /// the earlier snapshot's column order.
    pub per_cpu: Vec<(u32, u64)>,
    /// Sum of `per_cpu`, or the single-count delta of `ERR`/`MIS`.
    pub total: u64,
}

impl Interrupts {
    /// Row for a label, e.g. `row("LOC")` or `row("27")`.
    pub fn row(&self, irq: &str) -> Option<&IrqRow> {
        self.rows.iter().find(|r| r.irq == irq)
    }

    /// Count of `irq` on CPU `cpu` (by CPU number, not column).
    pub fn count(&self, irq: &str, cpu: u32) -> Option<u64> {
        let col = self.cpus.iter().position(|&c| c == cpu)?;
        self.row(irq)?.counts.get(col).copied()
    }

    /// Interrupts per line and CPU from `self` (earlier) to `later`. Lines are matched by
    /// label, CPUs by number (not column: a CPU may go offline in between); a counter that went
    /// backwards (reboot, CPU hot-plug) gives no value for that CPU, and a line missing from
    /// either snapshot is left out. Lines are listed in `self`'s order.
    pub fn delta_to(&self, later: &Interrupts) -> Vec<IrqDelta> {
        let later_col: HashMap<u32, usize> = later
            .cpus
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i))
            .collect();
        let later_rows: HashMap<&str, &IrqRow> =
            later.rows.iter().map(|r| (r.irq.as_str(), r)).collect();
        let mut out = Vec::with_capacity(self.rows.len());
        for row in &self.rows {
            let Some(next) = later_rows.get(row.irq.as_str()) else {
                continue;
            };
            let per_cpu: Vec<(u32, u64)> = self
                .cpus
                .iter()
                .zip(&row.counts)
                .filter_map(|(cpu, &before)| {
                    let after = *next.counts.get(*later_col.get(cpu)?)?;
                    Some((*cpu, after.checked_sub(before)?))
                })
                .collect();
            let total = match (row.single_count, next.single_count) {
                (Some(a), Some(b)) => b.saturating_sub(a),
                _ => per_cpu.iter().fold(0u64, |a, (_, d)| a.saturating_add(*d)),
            };
            out.push(IrqDelta {
                irq: row.irq.clone(),
                devices: next.devices.clone(),
                per_cpu,
                total,
            });
        }
        out
    }
}

/// CPU number of a header token `CPU12`.
fn header_cpu(tok: &str) -> Option<u32> {
    let n = tok.strip_prefix("CPU")?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse().ok()
}

/// `LABEL:` and the rest of a row; the label is alphanumeric (`27`, `NMI`, `IPI0`, `Err`).
fn split_row(line: &str) -> Option<(&str, &str)> {
    let (label, rest) = line.trim_start().split_once(':')?;
    let label = label.trim_end();
    (!label.is_empty()
        && label.len() <= 32
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    .then_some((label, rest))
}

/// Softirq names: a `/proc/softirqs` row has one of them and counts only.
const SOFTIRQ_NAMES: &[&str] = &[
    "HI",
    "TIMER",
    "NET_TX",
    "NET_RX",
    "BLOCK",
    "BLOCK_IOPOLL",
    "IRQ_POLL",
    "TASKLET",
    "SCHED",
    "HRTIMER",
    "RCU",
];

/// Does the text start with a `/proc/interrupts` header and rows?
///
/// `Yes` when the first line is a `CPUn …` header and a following row has a numbered label
/// (`  0:`) or a label with counts followed by a description (`LOC: 1 2 Local timer
/// interrupts`); `No` on softirq rows (counts only, `/proc/softirqs`) and anything else;
/// `Unsure` when the head stops after the header.
pub fn sniff(head: &str) -> Sniff {
    let mut lines = head_lines(head).filter(|(l, _)| !l.trim().is_empty());
    let Some((header, header_complete)) = lines.next() else {
        return Sniff::No;
    };
    let mut toks = header.split_ascii_whitespace();
    let header_ok = toks.next().and_then(header_cpu).is_some()
        && toks.all(|t| header_cpu(t).is_some() || (!header_complete && "CPU".starts_with(t)));
    if !header_ok {
        return Sniff::No;
    }
    for (line, complete) in lines {
        let Some((label, rest)) = split_row(line) else {
            return if complete { Sniff::No } else { Sniff::Unsure };
        };
        if SOFTIRQ_NAMES.contains(&label) {
            return Sniff::No;
        }
        let mut words = rest.split_ascii_whitespace();
        let Some(first) = words.next() else {
            continue;
        };
        if !first.bytes().all(|b| b.is_ascii_digit()) {
            return Sniff::No;
        }
        if label.bytes().all(|b| b.is_ascii_digit()) {
            return Sniff::Yes;
        }
        let text_after_counts = words.any(|w| !w.bytes().all(|b| b.is_ascii_digit()));
        if text_after_counts && complete {
            return Sniff::Yes;
        }
    }
    Sniff::Unsure
}

/// `hwirq-trigger` as printed by x86 since 4.x (`2-edge`, `49152-edge`, `16-fasteoi`).
fn hwirq_trigger(tok: &str) -> Option<(&str, &str)> {
    let (hw, trig) = tok.split_once('-')?;
    (!hw.is_empty()
        && hw.bytes().all(|b| b.is_ascii_digit())
        && !trig.is_empty()
        && trig.bytes().all(|b| b.is_ascii_alphabetic()))
    .then_some((hw, trig))
}

/// Reads chip, hwirq, trigger and devices from the description of a numbered IRQ.
fn describe(row: &mut IrqRow, desc: &str) {
    // Words with their byte offsets, to cut the device list out of the text as printed.
    let words: Vec<(usize, &str)> = desc
        .split_ascii_whitespace()
        .take(3)
        .map(|w| {
            (
                (w.as_ptr() as usize).saturating_sub(desc.as_ptr() as usize),
                w,
            )
        })
        .collect();
    let Some(&(_, chip)) = words.first() else {
        return;
    };
    row.chip = Some(chip.to_string());
    let devices_from = match (words.get(1), words.get(2)) {
        (Some(&(_, w1)), _) if hwirq_trigger(w1).is_some() => {
            let (hw, trig) = hwirq_trigger(w1).unwrap_or_default();
            row.hwirq = Some(hw.to_string());
            row.trigger = Some(trig.to_string());
            words.get(2).map(|w| w.0)
        }
        (Some(&(_, w1)), Some(&(o2, w2)))
            if w1.bytes().all(|b| b.is_ascii_digit())
                && matches!(w2, "Level" | "Edge" | "level" | "edge") =>
        {
            row.hwirq = Some(w1.to_string());
            row.trigger = Some(w2.to_string());
            desc.get(o2 + w2.len()..).and_then(|r| {
                r.find(|c: char| !c.is_ascii_whitespace())
                    .map(|i| o2 + w2.len() + i)
            })
        }
        (Some(&(o1, _)), _) => Some(o1),
        (None, _) => None,
    };
    if let Some(from) = devices_from {
        let list = desc.get(from..).unwrap_or("").trim();
        row.devices = list
            .split(", ")
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(str::to_string)
            .collect();
    }
}

/// Parses one `/proc/interrupts` snapshot.
///
/// Errors: [`ParseError::Unusable`] when the `CPUn …` header is missing or no row follows.
///
/// A row with fewer counts than header columns (a line cut short) is kept with the counts it
/// has, and an issue; rows without a `LABEL:` become issues.
pub fn parse(text: &str) -> Result<Parsed<Interrupts>, ParseError> {
    let mut out = Interrupts::default();
    let mut issues = Issues::default();
    let mut lines = numbered_lines(strip_bom(text)).filter(|(_, l)| !l.trim().is_empty());
    let Some((header_line, header)) = lines.next() else {
        return Err(ParseError::unusable(None, "input is empty"));
    };
    for tok in header.split_ascii_whitespace() {
        match header_cpu(tok) {
            Some(c) => out.cpus.push(c),
            None => {
                return Err(ParseError::unusable(
                    Some(header_line),
                    format!(
                        "expected a `CPU0 CPU1 …` header as the first line, found `{}`",
                        excerpt(header)
                    ),
                ))
            }
        }
    }
    let ncpus = out.cpus.len();
    for (n, line) in lines {
        let Some((label, rest)) = split_row(line) else {
            issues.push(n, || {
                format!(
                    "expected `LABEL: count count … description`, found `{}`",
                    excerpt(line)
                )
            });
            continue;
        };
        // Counts: up to one per header column, stopping at the first word that is not one.
        let mut counts = Vec::with_capacity(ncpus.min(4096));
        let mut desc = "";
        let mut overflow = None;
        let mut rest_words = rest;
        loop {
            let trimmed = rest_words.trim_start();
            if trimmed.is_empty() {
                break;
            }
            let (word, after) = trimmed
                .split_once(|c: char| c.is_ascii_whitespace())
                .unwrap_or((trimmed, ""));
            if counts.len() == ncpus || !word.bytes().all(|b| b.is_ascii_digit()) {
                desc = trimmed.trim_end();
                break;
            }
            match word.parse::<u64>() {
                Ok(v) => counts.push(v),
                Err(_) => {
                    overflow = Some(word);
                    break;
                }
            }
            rest_words = after;
        }
        if let Some(word) = overflow {
            issues.push(n, || {
                format!("`{label}`: expected a count, found `{}`", excerpt(word))
            });
            continue;
        }
        let mut row = IrqRow {
            irq: label.to_string(),
            line: n,
            counts: Vec::new(),
            single_count: None,
            chip: None,
            hwirq: None,
            trigger: None,
            devices: Vec::new(),
            description: desc.to_string(),
        };
        let single = matches!(label, "ERR" | "MIS" | "Err" | "Mis");
        if single && counts.len() == 1 && desc.is_empty() {
            row.single_count = Some(counts[0]);
        } else {
            if counts.len() < ncpus {
                let found = counts.len();
                issues.push(n, || {
                    format!(
                        "`{label}`: expected {ncpus} counts (one per header column), found \
                         {found}; kept those"
                    )
                });
            }
            row.counts = counts;
            if row.is_numbered() {
                describe(&mut row, desc);
            }
        }
        out.rows.push(row);
    }
    if out.rows.is_empty() {
        return Err(ParseError::unusable(
            Some(header_line),
            "no `LABEL: count …` row after the CPU header",
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

    fn row(desc: &str) -> IrqRow {
        let mut r = IrqRow {
            irq: "1".into(),
            line: 1,
            counts: vec![],
            single_count: None,
            chip: None,
            hwirq: None,
            trigger: None,
            devices: vec![],
            description: desc.into(),
        };
        describe(&mut r, desc);
        r
    }

    #[test]
    fn descriptions_of_every_shape() {
        let r = row("IO-APIC   2-edge      timer");
        assert_eq!(
            (r.chip.as_deref(), r.hwirq.as_deref(), r.trigger.as_deref()),
            (Some("IO-APIC"), Some("2"), Some("edge"))
        );
        assert_eq!(r.devices, ["timer"]);
        let r = row("GICv3  27 Level     arch_timer");
        assert_eq!(
            (r.chip.as_deref(), r.hwirq.as_deref(), r.trigger.as_deref()),
            (Some("GICv3"), Some("27"), Some("Level"))
        );
        assert_eq!(r.devices, ["arch_timer"]);
        let r = row("IR-IO-APIC-fasteoi   ehci_hcd:usb1, mmc0");
        assert_eq!(r.chip.as_deref(), Some("IR-IO-APIC-fasteoi"));
        assert_eq!(r.trigger, None);
        assert_eq!(r.devices, ["ehci_hcd:usb1", "mmc0"]);
        let r = row("PCI-MSI 344064-edge      PCIe PME, pciehp");
        assert_eq!(r.devices, ["PCIe PME", "pciehp"]);
        let r = row("IR-PCI-MSI 524288-edge");
        assert!(r.devices.is_empty());
        assert_eq!(r.hwirq.as_deref(), Some("524288"));
    }
}
