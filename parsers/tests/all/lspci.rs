//! `lspci` parsers against the corpus and captured outputs (see `fixtures/PROVENANCE.md`).

use crate::common::{fixture, insert_line};
use parsers::{host::lspci, Sniff};

#[test]
fn hp_server_lspci_k() {
    let rel = "lspci/insights-core__lspci-k-hp-server.txt";
    let p = lspci::parse(&fixture(rel)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let l = p.value;
    assert_eq!(l.devices.len(), 44);
    let bridge = l.slot("00:01.0").unwrap();
    assert_eq!(bridge.line, 3);
    assert_eq!(bridge.class, "PCI bridge");
    assert_eq!(bridge.kernel_driver.as_deref(), Some("pcieport"));
    assert_eq!(bridge.kernel_modules, ["shpchp"]);
    assert_eq!(bridge.revision.as_deref(), Some("13"));
    assert_eq!(bridge.subsystem, None);
    let host = l.slot("00:00.0").unwrap();
    assert_eq!(
        host.subsystem.as_deref(),
        Some("Cisco Systems Inc Device 0101")
    );
    assert_eq!(host.kernel_driver, None);
    let nics: Vec<&str> = l
        .by_class("Ethernet controller")
        .map(|d| d.kernel_driver.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(nics, ["ixgbe", "ixgbe"]);
}

#[test]
fn qlogic_without_driver_and_a_stray_line() {
    let rel = "lspci/insights-core__lspci-k-qlogic-fc-no-driver.txt";
    let p = lspci::parse(&fixture(rel)).unwrap();
    let l = &p.value;
    assert_eq!(l.devices.len(), 4);
    let hba = l.slot("04:00.0").unwrap();
    assert_eq!(hba.class, "Fibre Channel");
    assert_eq!(
        hba.description,
        "QLogic Corp. ISP2432-based 4Gb Fibre Channel to PCI Express HBA"
    );
    assert_eq!(hba.kernel_driver, None);
    assert!(hba.kernel_modules.is_empty());
    // Line 5 repeats a description without a slot: reported, not guessed.
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 5);
    assert!(p.issues[0].message.contains("starting with a slot"));
}

#[test]
fn captured_nn_k_ids() {
    let rel = "captured-b/lspci-nn-k.txt";
    let p = lspci::parse(&fixture(rel)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let nic = p.value.slot("00:03.0").unwrap();
    assert_eq!(nic.class, "Ethernet controller");
    assert_eq!(nic.class_id.as_deref(), Some("0200"));
    assert_eq!(nic.vendor_id.as_deref(), Some("1af4"));
    assert_eq!(nic.device_id.as_deref(), Some("1041"));
    assert_eq!(nic.description, "Red Hat, Inc. Virtio 1.0 network device");
    assert_eq!(
        nic.subsystem.as_deref(),
        Some("Red Hat, Inc. Virtio 1.0 network device")
    );
    assert_eq!(nic.kernel_driver.as_deref(), Some("virtio-pci"));
    assert_eq!(nic.line, 8);
    assert_eq!(p.value.devices.len(), 6);
    let host = p.value.slot("0000:00:00.0").unwrap();
    assert_eq!(host.class_id.as_deref(), Some("0600"));
    assert_eq!(host.device_id.as_deref(), Some("0d57"));

    let rel = "captured-b/lspci-k.txt";
    let p = lspci::parse(&fixture(rel)).unwrap();
    assert!(p.issues.is_empty());
    let nic = p.value.slot("00:03.0").unwrap();
    assert_eq!(nic.vendor_id, None);
    assert_eq!(nic.kernel_driver.as_deref(), Some("virtio-pci"));
}

#[test]
fn machine_readable_vmware() {
    let rel = "lspci/jc__lspci-nnmmv-vmware.txt";
    let p = lspci::parse_machine(&fixture(rel)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let l = p.value;
    assert_eq!(l.devices.len(), 47);
    let host = &l.devices[0];
    assert_eq!(host.slot, "00:00.0");
    assert_eq!(host.class, "Host bridge");
    assert_eq!(host.class_id.as_deref(), Some("0600"));
    assert_eq!(host.vendor.as_deref(), Some("Intel Corporation"));
    assert_eq!(host.vendor_id.as_deref(), Some("8086"));
    assert_eq!(
        host.device.as_deref(),
        Some("440BX/ZX/DX - 82443BX/ZX/DX Host bridge")
    );
    assert_eq!(host.device_id.as_deref(), Some("7190"));
    assert_eq!(
        host.subsystem.as_deref(),
        Some("VMware Virtual Machine Chipset")
    );
    assert_eq!(host.revision.as_deref(), Some("01"));
    let e1000 = l.slot("02:01.0").unwrap();
    assert_eq!(e1000.device_id.as_deref(), Some("100f"));
    assert_eq!(e1000.line, 270);
    // A record separated by spaces instead of tabs, with a two-digit domain.
    let sata = l.slot("ff:02:05.0").unwrap();
    assert_eq!(sata.class, "SATA controller");
    assert!(sata
        .fields
        .contains(&("ProgIf".to_string(), "01".to_string())));

    let rel = "captured-b/lspci-nnmmv.txt";
    let p = lspci::parse_machine(&fixture(rel)).unwrap();
    assert!(p.issues.is_empty());
    assert_eq!(p.value.devices.len(), 6);
    assert_eq!(
        p.value.slot("00:03.0").unwrap().device_id.as_deref(),
        Some("1041")
    );
}

#[test]
fn sniffers_tell_the_layouts_apart() {
    for rel in [
        "lspci/insights-core__lspci-k-hp-server.txt",
        "lspci/insights-core__lspci-k-qlogic-fc-no-driver.txt",
        "captured-b/lspci-k.txt",
        "captured-b/lspci-nn-k.txt",
    ] {
        let t = fixture(rel);
        assert_eq!(lspci::sniff(&t), Sniff::Yes, "{rel}");
        assert_eq!(lspci::sniff_machine(&t), Sniff::No, "{rel}");
    }
    for rel in [
        "lspci/jc__lspci-nnmmv-vmware.txt",
        "captured-b/lspci-nnmmv.txt",
    ] {
        let t = fixture(rel);
        assert_eq!(lspci::sniff(&t), Sniff::No, "{rel}");
        assert_eq!(lspci::sniff_machine(&t), Sniff::Yes, "{rel}");
    }
}

#[test]
fn malformed_inputs() {
    assert!(lspci::parse("").is_err());
    assert!(lspci::parse_machine("").is_err());
    assert!(lspci::parse("hello world\n").is_err());
    let err = lspci::parse_machine(&fixture("captured-b/lspci-k.txt")).unwrap_err();
    assert!(err.to_string().contains("Slot:"), "{err}");
    let text = insert_line(&fixture("captured-b/lspci-k.txt"), 4, "garbage");
    let p = lspci::parse(&text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 4);
    assert_eq!(p.value.devices.len(), 6);
    // Truncated in the middle of a device line.
    let text = fixture("captured-b/lspci-k.txt");
    let p = lspci::parse(&text[..text.len() - 30]).unwrap();
    assert_eq!(p.value.devices.len(), 6);
    // An indented line before any device.
    let p = lspci::parse("\tKernel driver in use: x\n00:01.0 Bridge: X\n").unwrap();
    assert_eq!(p.issues[0].line, 1);
    let p = lspci::parse_machine("Slot:\t00:01.0\nnonsense\n").unwrap();
    assert_eq!(p.issues[0].line, 2);
}
