//! dmidecode, systemd-detect-virt, lscpu and the platform verdict (see `fixtures/PROVENANCE.md`).

use crate::common::{fixture, insert_line};
use parsers::host::{self, detect_virt::VirtKind, platform::PlatformKind};
use parsers::Sniff;

fn dmi(rel: &str) -> host::dmidecode::Dmidecode {
    let p =
        host::dmidecode::parse_dmidecode(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(p.issues.is_empty(), "{rel}: {:?}", p.issues);
    p.value
}

#[test]
fn dmidecode_openstack_kvm() {
    let d = dmi("dmidecode/hotsos__dmidecode-openstack-nova-kvm.txt");
    assert_eq!(d.version.as_deref(), Some("3.2"));
    assert_eq!(d.smbios.as_deref(), Some("2.8"));
    assert_eq!(d.structures, Some(11));
    assert_eq!(d.handles.len(), 11);
    assert_eq!(
        d.notes,
        [
            (2, "Getting SMBIOS data from sysfs.".to_string()),
            (5, "Table at 0x000F6840.".to_string())
        ]
    );
    let s = d.system().unwrap();
    assert_eq!(s.manufacturer.as_deref(), Some("OpenStack Foundation"));
    assert_eq!(s.product_name.as_deref(), Some("OpenStack Nova"));
    assert_eq!(s.version.as_deref(), Some("19.3.2"));
    assert_eq!(s.family.as_deref(), Some("Virtual Machine"));
    assert_eq!(s.sku_number, None);
    assert_eq!(s.line, 20);
    let p = host::platform::platform(None, None, Some(&d));
    assert_eq!(p.kind, PlatformKind::VirtualMachine);
    assert_eq!(p.hypervisor.as_deref(), Some("KVM"));
    assert_eq!(p.evidence[0].source, "dmidecode");
    assert_eq!(p.evidence[0].line, 20);
}

#[test]
fn dmidecode_aws_xen() {
    let d = dmi("dmidecode/insights-core__dmidecode-aws-xen.txt");
    assert_eq!(d.version.as_deref(), Some("2.12-dmifs"));
    // The banner counts 11 structures; the corpus excerpt holds 3.
    assert_eq!(d.structures, Some(11));
    assert_eq!(d.handles.len(), 3);
    let b = d.bios().unwrap();
    assert_eq!(
        (b.vendor.as_deref(), b.version.as_deref()),
        (Some("Xen"), Some("4.2.amazon"))
    );
    let s = d.system().unwrap();
    assert_eq!(s.product_name.as_deref(), Some("HVM domU"));
    assert_eq!(
        s.uuid.as_deref(),
        Some("EC2F58AF-2DAD-C57E-88C0-A81CB6084290")
    );
    assert_eq!(s.family, None);
    let p = host::platform::platform(None, None, Some(&d));
    assert_eq!(
        (p.kind, p.hypervisor.as_deref()),
        (PlatformKind::VirtualMachine, Some("Xen"))
    );
}

#[test]
fn dmidecode_hp_physical() {
    let d = dmi("dmidecode/insights-core__dmidecode-hp-proliant-physical.txt");
    assert_eq!(d.version.as_deref(), Some("2.11"));
    assert_eq!(d.handles.len(), 6);
    let b = d.bios().unwrap();
    assert_eq!(b.vendor.as_deref(), Some("HP"));
    assert_eq!(b.version.as_deref(), Some("P70"));
    assert_eq!(b.release_date.as_deref(), Some("03/01/2013"));
    let bios = d.of_type(0).next().unwrap();
    assert_eq!(bios.get("ROM Size"), Some("8192 kB"));
    assert_eq!(bios.get("Firmware Revision"), Some("1.22"));
    assert!(bios
        .get("Characteristics")
        .unwrap()
        .contains("PCI is supported; PNP is supported"));
    let s = d.system().unwrap();
    assert_eq!(s.manufacturer.as_deref(), Some("HP"));
    assert_eq!(s.product_name.as_deref(), Some("ProLiant DL380p Gen8"));
    assert_eq!(s.serial_number.as_deref(), Some("2M23360006"));
    assert_eq!(
        s.uuid.as_deref(),
        Some("34373936-3439-4D32-3233-333630303036")
    );
    assert_eq!(s.sku_number.as_deref(), Some("697494-S01"));
    assert_eq!(s.family.as_deref(), Some("ProLiant"));
    // The corpus file has the chassis block in lower case; keys are compared without case.
    let chassis = d.of_type(3).next().unwrap();
    assert_eq!(chassis.name, "chassis information");
    assert!(chassis
        .get("Type")
        .unwrap()
        .eq_ignore_ascii_case("Rack Mount Chassis"));
    assert_eq!(chassis.get("Height"), Some("2 U"));
    assert_eq!(chassis.get("Number Of Power Cords"), Some("2"));
    assert_eq!(chassis.get("Asset Tag"), Some(""));
    let cpus: Vec<&str> = d
        .of_type(4)
        .map(|h| h.get("Socket Designation").unwrap())
        .collect();
    assert_eq!(cpus, ["CPU 1", "CPU 2"]);
    assert_eq!(d.of_type(127).next().unwrap().name, "End Of Table");
    let p = host::platform::platform(None, None, Some(&d));
    assert_eq!(p.kind, PlatformKind::Physical);
    assert_eq!(p.hypervisor, None);
    assert_eq!(p.evidence[0].text, "DMI system: HP ProLiant DL380p Gen8");
}

#[test]
fn dmidecode_rhev_and_vmware() {
    let d = dmi("dmidecode/insights-core__dmidecode-rhev-kvm.txt");
    assert_eq!(d.notes[0].1, "Scanning /dev/mem for entry point.");
    let b = d.bios().unwrap();
    assert_eq!(
        (b.vendor.as_deref(), b.version.as_deref()),
        (Some("SeaBIOS"), Some("1.9.1-5.el7_3.2"))
    );
    let s = d.system().unwrap();
    assert_eq!(s.manufacturer.as_deref(), Some("Red Hat"));
    assert_eq!(s.product_name.as_deref(), Some("RHEV Hypervisor"));
    assert_eq!(s.version.as_deref(), Some("7.3-7.el7"));
    assert_eq!(s.family.as_deref(), Some("Red Hat Enterprise Linux"));
    let p = host::platform::platform(None, None, Some(&d));
    assert_eq!(
        (p.kind, p.hypervisor.as_deref()),
        (PlatformKind::VirtualMachine, Some("KVM"))
    );

    let d = dmi("dmidecode/insights-core__dmidecode-vmware-phoenix.txt");
    let b = d.bios().unwrap();
    assert_eq!(b.vendor.as_deref(), Some("Phoenix Technologies LTD"));
    assert_eq!(b.version.as_deref(), Some("6.00"));
    assert_eq!(b.release_date.as_deref(), Some("04/14/2014"));
    let s = d.system().unwrap();
    assert_eq!(s.product_name.as_deref(), Some("VMware Virtual Platform"));
    assert_eq!(s.version, None, "`None` is a placeholder");
    let p = host::platform::platform(None, None, Some(&d));
    assert_eq!(
        (p.kind, p.hypervisor.as_deref()),
        (PlatformKind::VirtualMachine, Some("VMware"))
    );
}

#[test]
fn dmidecode_full_vmware() {
    let d = dmi("dmidecode/jc__dmidecode-full-vmware-centos7.txt");
    // DMI type 10 lists several on-board devices under one handle.
    let onboard = d.of_type(10).next().unwrap();
    assert_eq!(onboard.name, "On Board Device 1 Information");
    assert!(onboard.field("On Board Device 2 Information").is_some());
    assert_eq!(d.version.as_deref(), Some("3.2"));
    assert_eq!(d.smbios.as_deref(), Some("2.7"));
    assert_eq!(d.structures, Some(620));
    assert_eq!(d.handles.len(), 620);
    let s = d.system().unwrap();
    assert_eq!(s.manufacturer.as_deref(), Some("VMware, Inc."));
    assert_eq!(s.product_name.as_deref(), Some("VMware Virtual Platform"));
    assert_eq!(
        s.uuid.as_deref(),
        Some("28fd4d56-3389-e2f8-6474-0159923b580e")
    );
}

#[test]
fn dmidecode_without_dev_mem_is_unusable_with_the_reason() {
    let err = host::dmidecode::parse_dmidecode(&fixture("captured-b/dmidecode-t-system.txt"))
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("/dev/mem: No such file or directory"),
        "{err}"
    );
    assert_eq!(
        host::dmidecode::sniff_dmidecode(&fixture("captured-b/dmidecode-t-system.txt")),
        Sniff::Yes
    );
    assert!(host::dmidecode::parse_dmidecode("").is_err());
    // A list item before any key of its structure.
    let text = insert_line(
        &fixture("dmidecode/insights-core__dmidecode-aws-xen.txt"),
        22,
        "\t\tstray item",
    );
    let p = host::dmidecode::parse_dmidecode(&text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 22);
    assert_eq!(
        p.value.system().unwrap().manufacturer.as_deref(),
        Some("Xen")
    );
    // Truncated in the middle of a structure.
    let t = fixture("dmidecode/insights-core__dmidecode-hp-proliant-physical.txt");
    let p = host::dmidecode::parse_dmidecode(&t[..t.len() / 2]).unwrap();
    assert_eq!(
        p.value.system().unwrap().product_name.as_deref(),
        Some("ProLiant DL380p Gen8")
    );
}

#[test]
fn detect_virt_captured() {
    let d = host::detect_virt::parse_detect_virt(&fixture("captured-b/systemd-detect-virt.txt"))
        .unwrap()
        .value;
    assert_eq!(
        (d.id.as_str(), d.kind, d.line),
        ("docker", VirtKind::Container, 1)
    );
    let vm =
        host::detect_virt::parse_detect_virt(&fixture("captured-b/systemd-detect-virt-vm.txt"))
            .unwrap()
            .value;
    assert_eq!((vm.id.as_str(), vm.kind), ("kvm", VirtKind::VirtualMachine));
    for (id, kind) in [
        ("none", VirtKind::None),
        ("vmware", VirtKind::VirtualMachine),
        ("microsoft", VirtKind::VirtualMachine),
        ("oracle", VirtKind::VirtualMachine),
        ("xen", VirtKind::VirtualMachine),
        ("qemu", VirtKind::VirtualMachine),
    ] {
        assert_eq!(
            host::detect_virt::parse_detect_virt(&format!("{id}\n"))
                .unwrap()
                .value
                .kind,
            kind,
            "{id}"
        );
    }
    assert!(host::detect_virt::parse_detect_virt("banana\n").is_err());
    assert!(host::detect_virt::parse_detect_virt("").is_err());
    // One word: known by its place only.
    assert!(parsers::kind::DETECT_VIRT.sniff.is_none());
}

#[test]
fn lscpu_captured_kvm() {
    let p = host::lscpu::parse_lscpu(&fixture("captured-b/lscpu.txt")).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let l = p.value;
    assert_eq!(l.architecture.as_deref(), Some("x86_64"));
    assert_eq!(l.cpus, Some(2));
    assert_eq!(l.online_cpus, [0, 1]);
    assert_eq!(
        (l.threads_per_core, l.cores_per_socket, l.sockets),
        (Some(1), Some(2), Some(1))
    );
    assert_eq!(l.numa_nodes, Some(1));
    assert_eq!(l.vendor_id.as_deref(), Some("AuthenticAMD"));
    assert_eq!(l.model_name.as_deref(), Some("AMD EPYC"));
    assert_eq!(l.hypervisor_vendor.as_deref(), Some("KVM"));
    assert_eq!(l.virtualization_type.as_deref(), Some("full"));
    assert_eq!(l.numa_node_cpus, [(0, vec![0, 1])]);
    assert_eq!(l.line_of("Hypervisor vendor"), Some(17));
    assert_eq!(l.get("Vulnerability Meltdown"), Some("Not affected"));
}

#[test]
fn lscpu_arm64_kunpeng() {
    // Derived from the captured x86 lscpu: the keys and values util-linux prints on a Kunpeng
    // 920 host (BIOS Vendor ID, Model name Kunpeng-920, four NUMA nodes, no hypervisor).
    let text = fixture("captured-b/lscpu.txt")
        .replace("Architecture:                            x86_64", "Architecture:                            aarch64")
        .replace("CPU(s):                                  2\n", "CPU(s):                                  128\n")
        .replace("On-line CPU(s) list:                     0,1", "On-line CPU(s) list:                     0-127")
        .replace("Vendor ID:                               AuthenticAMD", "Vendor ID:                               HiSilicon\nBIOS Vendor ID:                          HiSilicon")
        .replace("Model name:                              AMD EPYC", "Model name:                              Kunpeng-920\nBIOS Model name:                         Kunpeng 920-7260")
        .replace("Core(s) per socket:                      2", "Core(s) per socket:                      64")
        .replace("Socket(s):                               1", "Socket(s):                               2")
        .replace("Hypervisor vendor:                       KVM\n", "")
        .replace("Virtualization type:                     full\n", "")
        .replace("NUMA node(s):                            1", "NUMA node(s):                            4")
        .replace(
            "NUMA node0 CPU(s):                       0,1",
            "NUMA node0 CPU(s):                       0-31\nNUMA node1 CPU(s):                       32-63\nNUMA node2 CPU(s):                       64-95\nNUMA node3 CPU(s):                       96-127",
        );
    let p = host::lscpu::parse_lscpu(&text).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let l = p.value;
    assert_eq!(l.architecture.as_deref(), Some("aarch64"));
    assert_eq!(l.online_cpus.len(), 128);
    assert_eq!(l.bios_vendor_id.as_deref(), Some("HiSilicon"));
    assert_eq!(l.model_name.as_deref(), Some("Kunpeng-920"));
    assert_eq!(l.bios_model_name.as_deref(), Some("Kunpeng 920-7260"));
    assert_eq!(l.hypervisor_vendor, None);
    assert_eq!(l.numa_node_cpus.len(), 4);
    assert_eq!(l.numa_node_cpus[3].1.first(), Some(&96));
    let p = host::platform::platform(None, Some(&l), None);
    assert_eq!(p.kind, PlatformKind::Unknown);
}

#[test]
fn lscpu_malformed() {
    assert!(host::lscpu::parse_lscpu("").is_err());
    assert!(host::lscpu::parse_lscpu("CPU(s): 2\n").is_err());
    let text = fixture("captured-b/lscpu.txt").replace(
        "On-line CPU(s) list:                     0,1",
        "On-line CPU(s) list:                     0-4294967295",
    );
    let p = host::lscpu::parse_lscpu(&text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 6);
    assert!(p.value.online_cpus.is_empty());
}

#[test]
fn platform_combines_sources() {
    let detect =
        host::detect_virt::parse_detect_virt(&fixture("captured-b/systemd-detect-virt.txt"))
            .unwrap()
            .value;
    let detect_vm =
        host::detect_virt::parse_detect_virt(&fixture("captured-b/systemd-detect-virt-vm.txt"))
            .unwrap()
            .value;
    let lscpu = host::lscpu::parse_lscpu(&fixture("captured-b/lscpu.txt"))
        .unwrap()
        .value;
    // This machine: a container (detect-virt) inside a KVM guest (lscpu).
    let p = host::platform::platform(Some(&detect), Some(&lscpu), None);
    assert_eq!(p.kind, PlatformKind::Container);
    assert_eq!(p.hypervisor.as_deref(), Some("KVM"));
    assert_eq!(p.evidence.len(), 2);
    assert_eq!((p.evidence[1].source, p.evidence[1].line), ("lscpu", 17));
    let p = host::platform::platform(Some(&detect_vm), Some(&lscpu), None);
    assert_eq!(
        (p.kind, p.hypervisor.as_deref()),
        (PlatformKind::VirtualMachine, Some("KVM"))
    );
    assert_eq!(p.evidence[0].text, "systemd-detect-virt: kvm");
    // detect-virt `none` with physical DMI.
    let none = host::detect_virt::parse_detect_virt("none\n")
        .unwrap()
        .value;
    let hp = dmi("dmidecode/insights-core__dmidecode-hp-proliant-physical.txt");
    let p = host::platform::platform(Some(&none), None, Some(&hp));
    assert_eq!(p.kind, PlatformKind::Physical);
    // VMware DMI with lscpu reporting VMware: one spelling.
    let vmware = dmi("dmidecode/jc__dmidecode-full-vmware-centos7.txt");
    let lscpu_vmw = host::lscpu::parse_lscpu(&fixture("captured-b/lscpu.txt").replace(
        "Hypervisor vendor:                       KVM",
        "Hypervisor vendor:                       VMware",
    ))
    .unwrap()
    .value;
    let p = host::platform::platform(None, Some(&lscpu_vmw), Some(&vmware));
    assert_eq!(
        (p.kind, p.hypervisor.as_deref()),
        (PlatformKind::VirtualMachine, Some("VMware"))
    );
    assert_eq!(p.evidence.len(), 2);
    assert_eq!(
        host::platform::platform(None, None, None).kind,
        PlatformKind::Unknown
    );
}
