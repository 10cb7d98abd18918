//! `/proc/modules` and `lsmod` parsers against the corpus (see `fixtures/PROVENANCE.md`).

use crate::common::{fixture, insert_line};
use parsers::kernel::{self, modules::Module};

fn proc_modules(rel: &str) -> Vec<Module> {
    let parsed = kernel::modules::parse_proc_modules(&fixture(rel)).unwrap();
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

fn lsmod(rel: &str) -> Vec<Module> {
    let parsed = kernel::lsmod::parse_lsmod(&fixture(rel)).unwrap();
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

#[track_caller]
fn module<'a>(list: &'a [Module], name: &str) -> &'a Module {
    list.iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("no module {name}"))
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn proc_modules_with_taint_letters() {
    let list = proc_modules("proc-modules/hotsos__proc-modules-taint-PO-zfs.txt");
    assert_eq!(list.len(), 99);
    let zfs = module(&list, "zfs");
    assert_eq!(zfs.line, 25);
    assert_eq!(zfs.size_bytes, 4_034_560);
    assert_eq!(zfs.refcount, Some(0));
    assert!(zfs.used_by.is_empty());
    assert_eq!(zfs.state.as_deref(), Some("Live"));
    assert_eq!(zfs.address, Some(0xffff_ffff_c0a3_f000));
    assert_eq!(zfs.taint.as_deref(), Some("PO"));
    let zunicode = module(&list, "zunicode");
    assert_eq!(zunicode.size_bytes, 331_776);
    assert_eq!(zunicode.used_by, strings(&["zfs"]));
    assert_eq!(zunicode.taint.as_deref(), Some("PO"));
    let zlua = module(&list, "zlua");
    assert_eq!(zlua.size_bytes, 147_456);
    assert_eq!(zlua.taint.as_deref(), Some("PO"));
    assert_eq!(module(&list, "spl").taint.as_deref(), Some("O"));
    assert_eq!(
        module(&list, "spl").used_by,
        strings(&["zfs", "zavl", "icp", "zcommon", "znvpair"])
    );
    // Only the 8 zfs-related modules taint the kernel.
    assert_eq!(list.iter().filter(|m| m.taint.is_some()).count(), 8);
    assert_eq!(module(&list, "llc").used_by, strings(&["bridge", "stp"]));
}

#[test]
fn proc_modules_jc() {
    let list = proc_modules("proc-modules/jc__jc-proc-modules.txt");
    assert_eq!(list.len(), 92);
    let binfmt = module(&list, "binfmt_misc");
    assert_eq!(binfmt.line, 1);
    assert_eq!(binfmt.size_bytes, 24_576);
    assert_eq!(binfmt.refcount, Some(1));
    assert!(binfmt.used_by.is_empty());
    assert_eq!(binfmt.state.as_deref(), Some("Live"));
    assert_eq!(binfmt.address, Some(0xffff_ffff_c0ab_4000));
    assert_eq!(
        module(&list, "vsock").used_by,
        strings(&[
            "vsock_loopback",
            "vmw_vsock_virtio_transport_common",
            "vmw_vsock_vmci_transport"
        ])
    );
    assert!(list.iter().all(|m| m.taint.is_none()));
}

#[test]
fn lsmod_rhel7_insights() {
    let list = lsmod("lsmod/insights-core__lsmod-rhel7.txt");
    assert_eq!(list.len(), 16);
    let tun = module(&list, "tun");
    assert_eq!(tun.refcount, Some(3));
    assert!(tun.used_by.is_empty());
    assert_eq!(tun.line, 5);
    assert_eq!(module(&list, "llc").used_by, strings(&["stp", "bridge"]));
    assert_eq!(module(&list, "ip6table_nat").size_bytes, 12_864);
    assert_eq!(module(&list, "xt_CHECKSUM").size_bytes, 12_549);
    assert!(list
        .iter()
        .all(|m| m.state.is_none() && m.address.is_none() && m.taint.is_none()));
}

#[test]
fn lsmod_centos7_jc() {
    // Trailing space after the count when there are no users.
    let list = lsmod("lsmod/jc__lsmod-centos7.txt");
    assert_eq!(list.len(), 98);
    let masq = module(&list, "ipt_MASQUERADE");
    assert_eq!((masq.size_bytes, masq.refcount), (12_678, Some(1)));
    assert!(masq.used_by.is_empty());
    let nat = module(&list, "nf_nat_masquerade_ipv4");
    assert_eq!((nat.size_bytes, nat.refcount), (13_430, Some(1)));
    assert_eq!(nat.used_by, strings(&["ipt_MASQUERADE"]));
    let brnf = module(&list, "br_netfilter");
    assert_eq!((brnf.size_bytes, brnf.refcount), (22_256, Some(0)));
}

#[test]
fn garbage_line_in_the_middle() {
    let clean = fixture("proc-modules/jc__jc-proc-modules.txt");
    let text = insert_line(&clean, 3, "this is not a module line");
    let parsed = kernel::modules::parse_proc_modules(&text).unwrap();
    assert_eq!(parsed.issues.len(), 1);
    assert_eq!(parsed.issues[0].line, 3);
    assert!(parsed.issues[0]
        .message
        .contains("expected `name size refcount"));
    assert_eq!(parsed.value.len(), 92);
    assert_eq!(module(&parsed.value, "vsock").line, 6);

    let text = insert_line(&clean, 3, "bad 12x 0 - Live 0x0");
    let parsed = kernel::modules::parse_proc_modules(&text).unwrap();
    assert!(parsed.issues[0].message.contains("size `12x`"));

    let clean = fixture("lsmod/insights-core__lsmod-rhel7.txt");
    let text = insert_line(&clean, 4, "nf_nat notasize 1");
    let parsed = kernel::lsmod::parse_lsmod(&text).unwrap();
    assert_eq!(parsed.issues.len(), 1);
    assert_eq!(parsed.issues[0].line, 4);
    assert_eq!(parsed.value.len(), 16);
}

#[test]
fn unusable_inputs() {
    assert!(kernel::modules::parse_proc_modules("").is_err());
    assert!(kernel::lsmod::parse_lsmod("").is_err());
    // lsmod output is not /proc/modules and vice versa.
    let err =
        kernel::lsmod::parse_lsmod(&fixture("proc-modules/jc__jc-proc-modules.txt")).unwrap_err();
    assert!(err.to_string().contains("Module Size Used by"), "{err}");
    let err = kernel::modules::parse_proc_modules(&fixture("lsmod/insights-core__lsmod-rhel7.txt"))
        .unwrap_err();
    assert!(err.to_string().contains("/proc/modules layout"), "{err}");
}
