//! `/proc/interrupts` parser against the shared corpus (x86 of several ages, a KVM guest,
//! arm64 GICv3; see `fixtures/PROVENANCE.md`) and two snapshots captured one second apart.

use crate::common;
use crate::common::{all_fixtures, fixture, fixture_path, head, insert_line, XorShift};
use parsers::proc::interrupts::{self, Interrupts};
use parsers::Sniff;
use std::time::{Duration, Instant};

fn parse_clean(rel: &str) -> Interrupts {
    let parsed = interrupts::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

#[test]
fn kvm_guest() {
    let i = parse_clean("proc-interrupts/hotsos__proc-interrupts-kvm-2cpu.txt");
    assert_eq!(i.cpus, [0, 1]);
    assert_eq!(i.rows.len(), 38 + 19);
    let r = i.row("1").unwrap();
    assert_eq!(r.counts, [9, 0]);
    assert_eq!(r.chip.as_deref(), Some("IO-APIC"));
    assert_eq!(
        (r.hwirq.as_deref(), r.trigger.as_deref()),
        (Some("1"), Some("edge"))
    );
    assert_eq!(r.devices, ["i8042"]);
    assert_eq!(r.line, 2);
    assert_eq!(
        i.row("10").unwrap().devices,
        ["virtio10", "ehci_hcd:usb1", "uhci_hcd:usb2"]
    );
    let v = i.row("25").unwrap();
    assert_eq!(
        (v.chip.as_deref(), v.hwirq.as_deref()),
        (Some("PCI-MSI"), Some("49153"))
    );
    assert_eq!(v.devices, ["virtio0-input.0"]);
    assert_eq!(i.count("LOC", 1), Some(187_266_423));
    assert_eq!(i.row("ERR").unwrap().single_count, Some(0));
}

#[test]
fn one_cpu_with_old_chip_names() {
    let i = parse_clean("proc-interrupts/insights-core__proc-interrupts-1cpu-old-IO-APIC-edge.txt");
    assert_eq!(i.cpus, [0]);
    assert_eq!(i.rows.len(), 9);
    let t = &i.rows[0];
    assert_eq!(
        (t.irq.as_str(), t.counts.as_slice()),
        ("0", [45].as_slice())
    );
    assert_eq!(t.chip.as_deref(), Some("IO-APIC-edge"));
    assert_eq!(t.devices, ["timer"]);
    assert_eq!(t.description, "IO-APIC-edge      timer");
    let hyp = &i.rows[6];
    assert_eq!(hyp.irq, "HYP");
    assert_eq!(hyp.description, "Hypervisor callback interrupts");
    assert!(hyp.devices.is_empty());
    for (idx, name) in [(7, "ERR"), (8, "MIS")] {
        let r = &i.rows[idx];
        assert_eq!(r.irq, name);
        assert_eq!(r.single_count, Some(0));
        assert!(r.description.is_empty() && r.chip.is_none());
    }
}

#[test]
fn eight_cpus_with_interrupt_remapping() {
    let i = parse_clean("proc-interrupts/insights-core__proc-interrupts-x86-8cpu-IR-IO-APIC.txt");
    assert_eq!(i.cpus.len(), 8);
    assert_eq!(i.rows.len(), 37);
    let i8042: Vec<&str> = i
        .rows
        .iter()
        .filter(|r| r.devices.iter().any(|d| d == "i8042"))
        .map(|r| r.irq.as_str())
        .collect();
    assert_eq!(i8042, ["1", "12"]);
    assert_eq!(
        i.rows
            .iter()
            .filter(|r| r.chip.as_deref() == Some("IR-PCI-MSI"))
            .count(),
        9
    );
    let nmi = i.row("NMI").unwrap();
    assert_eq!(nmi.counts, [210, 92, 179, 96, 177, 0, 0, 0]);
    assert_eq!(nmi.description, "Non-maskable interrupts");
    assert_eq!(nmi.total(), 754);
    // A numbered IRQ without a device name.
    let r30 = i.row("30").unwrap();
    assert!(r30.devices.is_empty());
    assert_eq!(r30.hwirq.as_deref(), Some("524288"));
    assert_eq!(i.row("27").unwrap().devices, ["ahci[0000:00:1f.2]"]);
}

#[test]
fn two_cpus_vm() {
    let i = parse_clean("proc-interrupts/jc__jc-proc-interrupts-x86-2cpu.txt");
    let t = i.row("0").unwrap();
    assert_eq!(t.counts, [18, 0]);
    assert_eq!(
        (t.chip.as_deref(), t.hwirq.as_deref(), t.trigger.as_deref()),
        (Some("IO-APIC"), Some("2"), Some("edge"))
    );
    assert_eq!(t.devices, ["timer"]);
    let k = i.row("1").unwrap();
    assert_eq!(
        (k.counts.as_slice(), k.devices.as_slice()),
        ([0, 73].as_slice(), ["i8042".to_string()].as_slice())
    );
    assert_eq!(i.row("LOC").unwrap().counts, [366_351, 997_227]);
    assert_eq!(i.row("NMI").unwrap().counts, [0, 0]);
    for name in ["ERR", "MIS"] {
        let r = i.row(name).unwrap();
        assert_eq!((r.single_count, r.counts.len()), (Some(0), 0));
    }
    assert_eq!(i.row("24").unwrap().devices, ["PCIe PME", "pciehp"]);
    assert_eq!(i.row("16").unwrap().devices, ["vmwgfx", "snd_ens1371"]);
}

#[test]
fn arm64_gicv3_with_a_glued_label() {
    let i = parse_clean("proc-interrupts/node_exporter__proc-interrupts-arm64-gicv3-8cpu.txt");
    assert_eq!(i.cpus.len(), 8);
    let ipi0 = i.row("IPI0").expect("label IPI0 glued to its first count");
    assert_eq!(ipi0.counts[0], 2_768_808_080);
    assert_eq!(ipi0.counts.len(), 8);
    assert_eq!(ipi0.description, "Rescheduling interrupts");
    let t = i.row("10").unwrap();
    assert_eq!(i.count("10", 0), Some(3_287_008_667));
    assert_eq!(
        (t.chip.as_deref(), t.hwirq.as_deref(), t.trigger.as_deref()),
        (Some("GICv3"), Some("27"), Some("Level"))
    );
    assert_eq!(t.devices, ["arch_timer"]);
    let acpi = i.row("50").unwrap();
    assert_eq!(
        (acpi.chip.as_deref(), acpi.hwirq.as_deref()),
        (Some("ARMH0061:00"), Some("3"))
    );
    assert_eq!(acpi.devices, ["ACPI:Event"]);
    assert_eq!(i.count("58", 2), Some(1_195_697_946));
    assert_eq!(i.row("Err").unwrap().single_count, Some(0));
}

#[test]
fn laptop_with_old_ir_chip_names() {
    let i = parse_clean("proc-interrupts/node_exporter__proc-interrupts-x86-4cpu.txt");
    assert_eq!(i.count("NMI", 1), Some(5031));
    assert_eq!(i.count("NMI", 3), Some(4968));
    let r12 = i.row("12").unwrap();
    assert_eq!(r12.chip.as_deref(), Some("IR-IO-APIC-edge"));
    assert_eq!(r12.devices, ["i8042"]);
    assert_eq!(i.count("LOC", 0), Some(174_326_351));
    assert_eq!(i.count("RES", 0), Some(10_847_134));
    assert_eq!(i.count("CAL", 0), Some(148_554));
    assert_eq!(i.count("TLB", 0), Some(10_460_334));
    let w = i.row("46").unwrap();
    assert_eq!(
        (w.chip.as_deref(), w.devices.as_slice()),
        (Some("IR-PCI-MSI-edge"), ["iwlwifi".to_string()].as_slice())
    );
    assert_eq!(i.count("46", 0), Some(43_078_464));
    let r16 = i.row("16").unwrap();
    assert_eq!(r16.devices, ["ehci_hcd:usb1", "mmc0"]);
    assert_eq!(i.count("16", 0), Some(328_511));
}

#[test]
fn captured_snapshots_and_their_delta() {
    let a = parse_clean("captured-a/proc-interrupts-1.txt");
    let b = parse_clean("captured-a/proc-interrupts-2.txt");
    assert_eq!(
        a.row("28").unwrap().chip.as_deref(),
        Some("PCI-MSIX-0000:00:01.0")
    );
    assert_eq!(a.row("HYP").unwrap().counts, [33, 82]);
    let d = a.delta_to(&b);
    assert_eq!(d.len(), a.rows.len());
    let loc = d.iter().find(|x| x.irq == "LOC").unwrap();
    assert_eq!(
        loc.per_cpu,
        [(0, 362_556 - 362_267), (1, 378_680 - 378_337)]
    );
    assert_eq!(loc.total, 289 + 343);
    let tx = d.iter().find(|x| x.irq == "42").unwrap();
    assert_eq!(tx.devices, ["virtio3-tx"]);
    assert_eq!(tx.per_cpu, [(0, 0), (1, 6)]);
    assert_eq!(d.iter().find(|x| x.irq == "ERR").unwrap().total, 0);
}

#[test]
fn derived_offline_cpu_keeps_cpu_numbers() {
    // Derived: the 8-CPU snapshot with CPU1 offline (its header label and column removed), as
    // the kernel prints it; then the delta to the full snapshot matches CPUs by number.
    let full = fixture("proc-interrupts/insights-core__proc-interrupts-x86-8cpu-IR-IO-APIC.txt");
    let mut offline = String::new();
    for (i, line) in full.lines().enumerate() {
        if i == 0 {
            offline.push_str(&line.replacen("       CPU1", "", 1));
        } else if let Some((label, rest)) = line.split_once(':') {
            // Drop the second count (11 characters: a space and a 10-wide number).
            let cut = if rest.len() > 22
                && !label.trim().starts_with("ERR")
                && !label.trim().starts_with("MIS")
            {
                format!("{}{}", &rest[..11], &rest[22..])
            } else {
                rest.to_string()
            };
            offline.push_str(&format!("{label}:{cut}"));
        }
        offline.push('\n');
    }
    let before = interrupts::parse(&offline).unwrap();
    assert!(before.issues.is_empty(), "{:?}", before.issues);
    let before = before.value;
    assert_eq!(before.cpus, [0, 2, 3, 4, 5, 6, 7]);
    assert_eq!(before.count("NMI", 2), Some(179));
    assert_eq!(before.count("NMI", 1), None);
    let after = interrupts::parse(&full).unwrap().value;
    let d = before.delta_to(&after);
    let nmi = d.iter().find(|x| x.irq == "NMI").unwrap();
    assert_eq!(nmi.per_cpu.len(), 7);
    assert!(nmi.per_cpu.iter().all(|(cpu, n)| *cpu != 1 && *n == 0));
}

#[test]
fn damaged_inputs() {
    let text = fixture("proc-interrupts/jc__jc-proc-interrupts-x86-2cpu.txt");
    let text = insert_line(&text, 5, "garbage without a colon");
    let cut = &text[..text.find(" 366351").unwrap() + 4];
    let p = interrupts::parse(cut).unwrap();
    assert_eq!(p.issues.len(), 2, "{:?}", p.issues);
    assert_eq!(p.issues[0].line, 5);
    let loc = p.value.row("LOC").unwrap();
    assert_eq!(loc.counts, [366]);
    assert_eq!(p.issues[1].line, loc.line);
    assert!(p.issues[1].message.contains("expected 2 counts"));
    // A count too large for 64 bits.
    let p = interrupts::parse(
        "  CPU0\n  0: 99999999999999999999999 IO-APIC 2-edge timer\n  1: 5 IO-APIC 1-edge i8042\n",
    )
    .unwrap();
    assert_eq!(p.value.rows.len(), 1);
    assert_eq!(p.issues[0].line, 2);
    assert!(interrupts::parse("no header\n 0: 1 2\n").is_err());
}

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    let own = |rel: &str| {
        rel.starts_with("proc-interrupts/") || rel.starts_with("captured-a/proc-interrupts")
    };
    let mut owned = 0;
    let mut failures = Vec::new();
    for rel in all_fixtures() {
        let Ok(text) = std::fs::read_to_string(fixture_path(&rel)) else {
            continue;
        };
        let want = if own(&rel) {
            owned += 1;
            Sniff::Yes
        } else {
            Sniff::No
        };
        for sample in [head(&text, common::SNIFF_HEAD_BYTES), text.as_str()] {
            let got = interrupts::sniff(sample);
            if got != want {
                failures.push(format!("{rel} ({} bytes): {got:?}", sample.len()));
            }
        }
    }
    assert_eq!(owned, 6 + 2);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The existing /proc/softirqs sniffer says No to every interrupts fixture.
    for rel in all_fixtures().iter().filter(|r| own(r)) {
        assert_eq!(
            parsers::proc::softirqs::sniff(&fixture(rel)),
            Sniff::No,
            "{rel}"
        );
    }
}

#[test]
fn hostile_inputs_never_panic() {
    for t in ["", "\n", "  \n\t\n", "\u{feff}"] {
        assert!(interrupts::parse(t).is_err());
    }
    let mut rng = XorShift(0x3141_5926_5358_9793);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(interrupts::parse(&text).is_err());
        assert_eq!(interrupts::sniff(&text), Sniff::No);
    }
    let start = Instant::now();
    // 100 000 CPU columns; a header claiming CPU 999999 with one row.
    let header: String = (0..100_000).map(|i| format!(" CPU{i}")).collect();
    let row: String = " 1".repeat(100_000);
    let p = interrupts::parse(&format!("{header}\n  0:{row} IO-APIC 2-edge timer\n")).unwrap();
    assert_eq!(p.value.rows[0].counts.len(), 100_000);
    assert_eq!(p.value.rows[0].devices, ["timer"]);
    let p = interrupts::parse("  CPU999999\n  0: 5 IO-APIC 2-edge timer\n").unwrap();
    assert_eq!(p.value.count("0", 999_999), Some(5));
    assert!(interrupts::parse("  CPU4294967296\n  0: 5\n").is_err());
    let d = p.value.delta_to(&p.value);
    assert_eq!(d[0].per_cpu, [(999_999, 0)]);
    assert!(start.elapsed() < Duration::from_secs(20));
}
