//! `uname -a` and `/etc/os-release`, captured on the development machine.

use crate::common;
use crate::common::fixture;
use parsers::host;

#[test]
fn captured_uname() {
    // coreutils `uname -a` on a kernel whose version string has no build date (`@0`).
    let parsed = host::uname::parse_uname(&fixture("captured/uname-a.txt")).unwrap();
    assert!(parsed.issues.is_empty());
    let u = parsed.value;
    assert_eq!(u.kernel_name, "Linux");
    assert_eq!(u.nodename, "vm");
    assert_eq!(u.release, "6.18.44-fc-v657");
    assert_eq!(u.version, "#1 SMP PREEMPT_DYNAMIC @0");
    assert_eq!(u.machine.as_deref(), Some("x86_64"));
    assert_eq!(u.os.as_deref(), Some("GNU/Linux"));
    assert_eq!(u.line, 1);
}

#[test]
fn captured_os_release() {
    let parsed = host::os_release::parse_os_release(&fixture("captured/os-release.txt")).unwrap();
    assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
    let os = parsed.value;
    assert_eq!(
        os.pretty_name().as_deref(),
        Some("Debian GNU/Linux 12 (bookworm)")
    );
    assert_eq!(os.fields["ID"], "debian");
    assert_eq!(os.fields["VERSION_ID"], "12");
    assert_eq!(os.fields["VERSION_CODENAME"], "bookworm");
    assert_eq!(os.fields["HOME_URL"], "https://www.debian.org/");
    assert_eq!(os.lines["PRETTY_NAME"], 1);
    assert_eq!(os.lines["ID"], 6);
    assert_eq!(os.fields.len(), 9);
}

#[test]
fn pretty_name_fallbacks() {
    let os = host::os_release::parse_os_release(
        "NAME=\"CentOS Linux\"\nVERSION=\"7 (Core)\"\nID=centos\n",
    )
    .unwrap()
    .value;
    assert_eq!(os.pretty_name().as_deref(), Some("CentOS Linux 7 (Core)"));
    let os = host::os_release::parse_os_release("PRETTY_NAME=\"\"\nID=alpine\n")
        .unwrap()
        .value;
    assert_eq!(os.pretty_name().as_deref(), Some("alpine"));
}

#[test]
fn garbage_lines() {
    let text = format!(
        "{}\nnot a uname line\n",
        fixture("captured/uname-a.txt").trim_end()
    );
    let parsed = host::uname::parse_uname(&text).unwrap();
    assert_eq!(parsed.issues.len(), 1);
    assert_eq!(parsed.issues[0].line, 2);

    let text = common::insert_line(&fixture("captured/os-release.txt"), 3, "garbage here");
    let parsed = host::os_release::parse_os_release(&text).unwrap();
    assert_eq!(parsed.issues.len(), 1);
    assert_eq!(parsed.issues[0].line, 3);
    assert_eq!(parsed.value.lines["VERSION_ID"], 4);
}

#[test]
fn unusable_inputs() {
    assert!(host::uname::parse_uname("").is_err());
    let err = host::uname::parse_uname("Linux host\n").unwrap_err();
    assert!(err.to_string().contains("expected `uname -a`"), "{err}");
    let err = host::os_release::parse_os_release("# only a comment\n").unwrap_err();
    assert!(err.to_string().contains("KEY=value"), "{err}");
}

#[test]
fn binary_garbage_is_not_a_uname() {
    let garbage = String::from_utf8_lossy(&[
        0x89, b'P', b'N', b'G', b' ', 0x1b, b'[', b'2', b'J', b' ', b'x', b' ', b'y', b'\n',
    ])
    .into_owned();
    assert!(parsers::host::uname::parse_uname(&garbage).is_err());
    assert!(parsers::host::uname::parse_uname("Linux host notaversion #1 SMP x86_64\n").is_err());
    assert!(parsers::host::uname::parse_uname("Linux db1 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) x86_64 GNU/Linux\n").is_ok());
}
