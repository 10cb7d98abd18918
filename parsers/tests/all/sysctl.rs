//! `sysctl -a` and `sysctl.conf` parsers (see `fixtures/PROVENANCE.md`).

use crate::common::{fixture, insert_line};
use parsers::{kernel::sysctl, Sniff};

#[track_caller]
fn clean(rel: &str) -> sysctl::Sysctl {
    let p = sysctl::parse(&fixture(rel)).unwrap();
    assert!(p.issues.is_empty(), "{rel}: {:?}", p.issues);
    p.value
}

#[test]
fn centos7() {
    let s = clean("sysctl/jc__sysctl-a-centos7.txt");
    assert_eq!(s.entries.len(), 918);
    assert_eq!(s.get("abi.vsyscall32"), Some("1"));
    assert_eq!(s.get_i64("crypto.fips_enabled"), Some(0));
    assert_eq!(s.get_i64("vm.swappiness"), Some(30));
    assert_eq!(s.entry("vm.swappiness").unwrap().line, 915);
    assert_eq!(s.get_i64("net.core.somaxconn"), Some(128));
    // Tab-separated values: split into fields, joined with one space.
    assert_eq!(s.get("net.ipv4.tcp_rmem"), Some("4096 87380 6291456"));
    assert_eq!(
        s.entry("net.ipv4.tcp_rmem").unwrap().fields,
        ["4096", "87380", "6291456"]
    );
    assert!(s.entries.iter().all(|e| !e.value.contains('\t')));
    assert_eq!(
        s.get_i64s("net.ipv4.tcp_rmem"),
        Some(vec![4096, 87380, 6291456])
    );
    assert_eq!(s.get_i64("net.ipv4.tcp_rmem"), None);
    // A key printed on several lines keeps every line.
    assert_eq!(s.all("dev.cdrom.info").count(), 24);
    assert_eq!(
        s.all("dev.cdrom.info").next().unwrap().value,
        "CD-ROM information, Id: cdrom.c 3.20 2003/12/17"
    );
}

#[test]
fn ubuntu1804_and_hotsos() {
    let s = clean("sysctl/jc__sysctl-a-ubuntu1804.txt");
    assert_eq!(s.entries.len(), 878);
    assert_eq!(s.get("abi.vsyscall32"), Some("1"));
    assert_eq!(s.get("debug.exception-trace"), Some("1"));
    assert_eq!(s.get_u64("vm.swappiness"), Some(60));
    let s = clean("sysctl/hotsos__sysctl-a-ubuntu2004-k8s.txt");
    assert_eq!(s.entries.len(), 1120);
    assert_eq!(s.get_i64("net.core.somaxconn"), Some(4096));
    assert_eq!(
        s.get_i64s("net.ipv4.tcp_rmem"),
        Some(vec![4096, 131072, 6291456])
    );
    assert_eq!(s.get_i64("vm.swappiness"), Some(60));
}

#[test]
fn captured_as_root_and_as_nobody() {
    let root = clean("captured-b/sysctl-a-root.txt");
    assert_eq!(root.entries.len(), 1304);
    assert_eq!(root.get_i64("vm.swappiness"), Some(60));
    let p = sysctl::parse(&fixture("captured-b/sysctl-a-nobody.txt")).unwrap();
    assert_eq!(p.value.entries.len(), 1295);
    assert_eq!(p.value.denied.len(), 16);
    assert!(p.value.read_errors.is_empty());
    assert_eq!(p.issues.len(), 16);
    let first = &p.value.denied[0];
    assert_eq!((first.key.as_str(), first.line), ("kernel.cad_pid", 70));
    assert_eq!(p.issues[0].line, 70);
    assert!(p.issues[0].message.contains("permission denied"));
    assert!(p.value.is_unreadable("net.ipv6.conf.all.stable_secret"));
    // What the unprivileged run could not see is unknown there, not a difference.
    let diff = root.diff(&p.value);
    assert!(diff.iter().all(|(k, _, _)| *k != "kernel.cad_pid"));
    assert!(
        diff.iter().all(|(_, a, b)| a.is_some() && b.is_some()),
        "{diff:?}"
    );
}

#[test]
fn unprivileged_user_on_procps_4() {
    let p = sysctl::parse(&fixture("captured-b/sysctl-a-unprivileged-user.txt")).unwrap();
    let s = &p.value;
    assert_eq!(s.entries.len(), 1295);
    assert_eq!(s.denied.len(), 16);
    assert!(s.read_errors.is_empty());
    assert_eq!(p.issues.len(), 16);
    assert_eq!(s.denied[0].key, "kernel.cad_pid");
    assert_eq!(s.denied[15].key, "vm.stat_refresh");
    assert!(s.get("kernel.cad_pid").is_none() && s.is_unreadable("kernel.cad_pid"));
    // The kernel's vectors, tab-separated in the file.
    assert_eq!(s.get("kernel.printk"), Some("4 4 1 7"));
    assert_eq!(s.entry("kernel.printk").unwrap().fields.len(), 4);
    assert_eq!(s.get("net.ipv4.ip_local_port_range"), Some("32768 60999"));
    assert_eq!(
        s.get_i64s("net.ipv4.tcp_rmem"),
        Some(vec![4096, 131072, 33554432])
    );
    assert_eq!(s.get("fs.file-nr").map(|v| v.split(' ').count()), Some(3));
    assert_eq!(s.get_u64("kernel.tainted"), Some(0));
    assert!(s.entries.iter().all(|e| !e.value.contains('\t')));
    // Derived: the read errors of other procps versions, inserted into the real capture.
    let text = fixture("captured-b/sysctl-a-unprivileged-user.txt");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(3, "sysctl: reading key \"net.ipv6.conf.all.stable_secret\"");
    lines.insert(
        4,
        "error: \"Invalid argument\" reading key \"fs.binfmt_misc.register\"",
    );
    lines.insert(5, "error: permission denied on key 'net.ipv4.route.flush'");
    let p = sysctl::parse(&lines.join("\n")).unwrap();
    assert_eq!((p.value.denied.len(), p.value.read_errors.len()), (17, 2));
    let r = &p.value.read_errors;
    assert_eq!(
        (r[0].key.as_str(), r[0].line),
        ("net.ipv6.conf.all.stable_secret", 4)
    );
    assert_eq!(r[1].key, "fs.binfmt_misc.register");
    assert_eq!(r[1].error.as_deref(), Some("Invalid argument"));
    assert_eq!(p.value.denied[0].key, "net.ipv4.route.flush");
    assert_eq!(p.value.entries.len(), 1295);
}

#[test]
fn procps3_reading_key_messages() {
    // Derived: procps-ng 3.3 prints `sysctl: reading key "…"` for keys it cannot read
    // (stable_secret); inserted into a real file.
    let text = insert_line(
        &fixture("sysctl/jc__sysctl-a-ubuntu1804.txt"),
        5,
        "sysctl: reading key \"net.ipv6.conf.all.stable_secret\"",
    );
    let p = sysctl::parse(&text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 5);
    assert_eq!(
        p.value.read_errors[0].key,
        "net.ipv6.conf.all.stable_secret"
    );
    assert!(p.value.denied.is_empty());
    assert_eq!(p.value.entries.len(), 878);
}

#[test]
fn conf_files() {
    let p = sysctl::parse_conf(&fixture("captured-b/sysctl-d-50-pid-max.conf")).unwrap();
    assert!(p.issues.is_empty());
    assert_eq!(p.value.entries.len(), 1);
    assert_eq!(p.value.get_i64("kernel.pid_max"), Some(4_194_304));
    assert_eq!(p.value.entry("kernel.pid_max").unwrap().line, 16);
    let p = sysctl::parse_conf(&fixture("captured-b/sysctl-d-99-protect-links.conf")).unwrap();
    assert!(p.issues.is_empty());
    assert_eq!(p.value.get_i64("fs.protected_regular"), Some(2));
    assert_eq!(p.value.entries.len(), 4);
    // Only comments: valid, nothing set.
    let p = sysctl::parse_conf(&fixture("captured-b/sysctl-conf-debian12.conf")).unwrap();
    assert!(p.issues.is_empty());
    assert!(p.value.entries.is_empty());
    // Derived: the systemd sysctl.d(5) syntax variants on lines of a real file.
    let text = fixture("captured-b/sysctl-d-99-protect-links.conf")
        + "; a semicolon comment\n-net/ipv4/ip_forward=1\nvm.swappiness=1\nnot a setting\n";
    let p = sysctl::parse_conf(&text).unwrap();
    assert_eq!(p.value.get("net.ipv4.ip_forward"), Some("1"));
    assert!(p.value.entry("net.ipv4.ip_forward").unwrap().ignore_failure);
    assert_eq!(p.value.get_i64("vm.swappiness"), Some(1));
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 14);
    assert!(sysctl::parse_conf("").is_err());
    assert!(sysctl::parse_conf("garbage\n").is_err());
}

#[test]
fn sniffers() {
    for rel in [
        "sysctl/jc__sysctl-a-centos7.txt",
        "captured-b/sysctl-a-nobody.txt",
    ] {
        let t = fixture(rel);
        assert_eq!(sysctl::sniff(&t), Sniff::Yes, "{rel}");
        assert_eq!(sysctl::sniff_conf(&t), Sniff::No, "{rel}");
    }
    for rel in [
        "captured-b/sysctl-d-50-pid-max.conf",
        "captured-b/sysctl-conf-debian12.conf",
        "captured-b/sysctl-d-99-protect-links.conf",
    ] {
        let t = fixture(rel);
        assert_eq!(sysctl::sniff(&t), Sniff::No, "{rel}");
        assert_eq!(sysctl::sniff_conf(&t), Sniff::Yes, "{rel}");
    }
}

#[test]
fn malformed() {
    assert!(sysctl::parse("").is_err());
    assert!(sysctl::parse("hello = world\n").is_err());
    let text = insert_line(
        &fixture("sysctl/jc__sysctl-a-centos7.txt"),
        10,
        "garbage line",
    );
    let p = sysctl::parse(&text).unwrap();
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 10);
    assert_eq!(p.value.entries.len(), 918);
}
