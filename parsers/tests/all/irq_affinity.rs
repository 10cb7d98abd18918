//! IRQ affinity listing and CPU lists (see `fixtures/PROVENANCE.md`).

use crate::common::{fixture, insert_line};
use parsers::net::irq_affinity::{self, parse_cpu_list, MAX_CPUS};
use parsers::Sniff;

#[test]
fn captured_listing() {
    let rel = "captured-b/irq-affinity.txt";
    let p = irq_affinity::parse(&fixture(rel)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let a = p.value;
    assert_eq!(a.irqs.len(), 19);
    let first = &a.irqs[0];
    assert_eq!((first.irq, first.line), (24, 1));
    assert_eq!(first.cpu_list, "0-1");
    assert_eq!(first.cpus, [0, 1]);
    assert_eq!(first.name, "ACPI:Ged");
    let rx: Vec<u32> = a.named("virtio2-input").map(|e| e.irq).collect();
    assert_eq!(rx, [38]);
    assert_eq!(a.cpus_for("virtio2-"), [0, 1]);
    assert_eq!(irq_affinity::sniff(&fixture(rel)), Sniff::Yes);
}

#[test]
fn pinned_queues_and_missing_names() {
    // The example line of the collector's format, plus an IRQ without an action.
    let text =
        "45\t0-3,8\tmlx5_comp0@pci:0000:3b:00.0\n46\t9\tmlx5_comp1@pci:0000:3b:00.0\n0\t0\t\n";
    let p = irq_affinity::parse(text).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    assert_eq!(p.value.irqs[0].cpus, [0, 1, 2, 3, 8]);
    assert_eq!(p.value.cpus_for("mlx5_comp"), [0, 1, 2, 3, 8, 9]);
    assert_eq!(p.value.irqs[2].name, "");
    assert_eq!(irq_affinity::sniff(text), Sniff::Yes);
}

#[test]
fn bad_lists_become_issues() {
    let clean = fixture("captured-b/irq-affinity.txt");
    let text = insert_line(&clean, 3, "99\t0-4294967295\thuge");
    let p = irq_affinity::parse(&text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 3);
    assert!(
        p.issues[0]
            .message
            .contains(&format!("more than {MAX_CPUS}")),
        "{}",
        p.issues[0].message
    );
    let huge = p.value.irqs.iter().find(|e| e.irq == 99).unwrap();
    assert!(huge.cpus.is_empty());
    assert_eq!(p.value.irqs.len(), 20);
    let text = insert_line(&clean, 2, "not an irq line");
    let p = irq_affinity::parse(&text).unwrap();
    assert_eq!(p.issues[0].line, 2);
    // The collector writes `?` when it cannot read the list.
    let text = insert_line(&clean, 2, "30\t?\tvirtio0-deflate");
    let p = irq_affinity::parse(&text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert!(p.issues[0].message.contains("could not read"));
    assert_eq!(irq_affinity::sniff(&text), Sniff::Yes);
    assert!(irq_affinity::parse("30\t?\tx\n").is_err());
    assert!(irq_affinity::parse("").is_err());
    assert!(irq_affinity::parse("hello\n").is_err());
    assert_eq!(irq_affinity::sniff("hello\tworld\n"), Sniff::No);
}

#[test]
fn cpu_lists() {
    assert_eq!(
        parse_cpu_list("0-3,8,10-11").unwrap(),
        [0, 1, 2, 3, 8, 10, 11]
    );
    assert!(parse_cpu_list("0-4294967295").is_err());
    assert_eq!(parse_cpu_list("0-65535").unwrap().len(), MAX_CPUS);
}
