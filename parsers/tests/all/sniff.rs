//! Every fixture is recognised by its own sniffer (`Yes`) and rejected by every other one
//! (`No`), given what the analyzer gives a sniffer: the first 4 KiB of the file, possibly cut in
//! the middle of a line. Whole files are checked too.

use crate::common;
use crate::common::{all_kinds, fixture, fixtures_in, head, Kind, SNIFF_HEAD_BYTES};
use parsers::{
    host,
    proc::softirqs,
    sysstat::{iostat, mpstat},
    Sniff,
};

/// Fixture directories and the kind of artifact each holds.
const DIRS: [(&str, Kind); 5] = [
    ("iostat", Kind::Iostat),
    ("mpstat", Kind::Mpstat),
    ("proc-softirqs", Kind::Softirqs),
    ("proc-modules", Kind::ProcModules),
    ("lsmod", Kind::Lsmod),
];

/// Captured files and their kinds.
const CAPTURED: [(&str, Kind); 10] = [
    ("captured/iostat-x-t-iso.txt", Kind::Iostat),
    ("captured/iostat-x-t-C.txt", Kind::Iostat),
    ("captured/iostat-x-json.txt", Kind::Iostat),
    ("captured/iostat-x-t-json.txt", Kind::Iostat),
    ("captured/mpstat-P-ALL.txt", Kind::Mpstat),
    ("captured/mpstat-P-ALL-json.txt", Kind::Mpstat),
    ("captured/softirqs-1.txt", Kind::Softirqs),
    ("captured/softirqs-2.txt", Kind::Softirqs),
    ("captured/uname-a.txt", Kind::Uname),
    ("captured/os-release.txt", Kind::OsRelease),
];

fn all_fixtures() -> Vec<(String, Kind)> {
    let mut out: Vec<(String, Kind)> = DIRS
        .iter()
        .flat_map(|(dir, kind)| fixtures_in(dir).into_iter().map(move |f| (f, *kind)))
        .collect();
    out.extend(CAPTURED.iter().map(|(f, k)| (f.to_string(), *k)));
    out
}

#[test]
fn every_fixture_is_claimed_by_its_own_sniffer_only() {
    let fixtures = all_fixtures();
    assert_eq!(fixtures.len(), 21 + CAPTURED.len());
    let mut failures = Vec::new();
    for (rel, own) in &fixtures {
        let text = fixture(rel);
        for sample in [head(&text, SNIFF_HEAD_BYTES), text.as_str()] {
            for kind in all_kinds() {
                let got = kind.sniff(sample);
                let want = if kind == *own { Sniff::Yes } else { Sniff::No };
                if got != want {
                    failures.push(format!(
                        "{rel} ({} bytes): {kind:?} sniffer said {got:?}, expected {want:?}",
                        sample.len()
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_fixture_head_of_30_lines_is_claimed() {
    // The analyzer may also cut at 30 lines.
    for (rel, own) in all_fixtures() {
        let text = fixture(&rel);
        let end = text
            .match_indices('\n')
            .nth(29)
            .map_or(text.len(), |(i, _)| i + 1);
        assert_eq!(own.sniff(&text[..end]), Sniff::Yes, "{rel}");
    }
}

#[test]
fn a_bare_sysstat_banner_is_unsure() {
    let banner = "Linux 5.15.0-91-generic (host1) \t06/01/20 \t_x86_64_\t(9 CPU)\n\n";
    assert_eq!(iostat::sniff(banner), Sniff::Unsure);
    assert_eq!(mpstat::sniff(banner), Sniff::Unsure);
    assert_eq!(host::uname::sniff_uname(banner), Sniff::No);
}

#[test]
fn look_alikes_from_other_tools_are_not_claimed() {
    // sar -u ALL: %steal follows %iowait (mpstat puts %irq there).
    let sar = "Linux 1.2.3-TEST (SYSSTAT.TEST) \t06/01/20 \t_x86_64_\t(9 CPU)\n\n\
12:53:20        CPU      %usr     %nice      %sys   %iowait    %steal      %irq     %soft    %guest    %gnice     %idle\n\
12:53:21        all      2.15     12.50      1.84      0.12      0.00      0.34      0.19      0.00      0.00     82.88\n";
    assert_eq!(mpstat::sniff(sar), Sniff::No);
    assert_eq!(iostat::sniff(sar), Sniff::No);
    // sar -d says DEV, not Device.
    let sar_d = "13:20:09          tps     rkB/s     wkB/s     dkB/s   areq-sz    aqu-sz     await     %util DEV\n\
13:20:19         0.00      0.00      0.00      0.00      0.00      0.00      0.00      0.00 sda\n";
    assert_eq!(iostat::sniff(sar_d), Sniff::No);
    // sadf -j: a `file-date` host member and `timestamp` objects.
    let sadf = "{\"sysstat\": {\n\t\"hosts\": [\n\t\t{\n\t\t\t\"nodename\": \"h\",\n\t\t\t\"file-date\": \"2019-04-18\",\n\t\t\t\"statistics\": [\n\t\t\t\t{\n\t\t\t\t\t\"timestamp\": {\"date\": \"2019-04-18\"},\n\t\t\t\t\t\"cpu-load\": [\n";
    assert_eq!(mpstat::sniff(sadf), Sniff::No);
    assert_eq!(iostat::sniff(sadf), Sniff::No);
    // /proc/interrupts shares the CPU header with /proc/softirqs.
    let interrupts = "           CPU0       CPU1       \n  0:         44          0   IO-APIC   2-edge      timer\n  1:          9          0   IO-APIC   1-edge      i8042\n";
    assert_eq!(softirqs::sniff(interrupts), Sniff::No);
    // /proc/version starts with `Linux version`.
    let version = "Linux version 5.4.0-42-generic (buildd@lgw01-amd64-038) (gcc version 9.3.0) #46-Ubuntu SMP Fri Jul 10 00:24:02 UTC 2020\n";
    assert_eq!(host::uname::sniff_uname(version), Sniff::No);
    // sysctl -a has dots and spaces around `=`.
    assert_eq!(
        host::os_release::sniff_os_release("kernel.pid_max = 4194304\n"),
        Sniff::No
    );
}

#[test]
fn random_bytes_are_never_claimed() {
    let mut rng = common::XorShift(0x9E37_79B9_7F4A_7C15);
    for round in 0..200 {
        let bytes = rng.bytes(SNIFF_HEAD_BYTES);
        let text = String::from_utf8_lossy(&bytes);
        for kind in all_kinds() {
            assert_eq!(kind.sniff(&text), Sniff::No, "round {round}, {kind:?}");
        }
    }
    for kind in all_kinds() {
        assert_eq!(kind.sniff(""), Sniff::No, "{kind:?} on empty input");
    }
}

/// Fixtures that their kind reads but content sniffing rightly does not recognise: outputs of a
/// command that failed, and other formats a kind's parser also reads when the bundle's layout
/// names the file.
const NOT_SNIFFED: &[(&str, &str)] = &[
    (
        "captured-b/ethtool-g-ifb0-unsupported.txt",
        "the command failed: `Operation not supported`",
    ),
    (
        "captured-b/ethtool-l-lo-unsupported.txt",
        "the command failed: `Operation not supported`",
    ),
    (
        "captured-b/timedatectl-no-systemd.txt",
        "the command failed: no systemd",
    ),
    (
        "captured-b/sysctl-conf-debian12.conf",
        "a `sysctl.conf` file, not `sysctl -a` output",
    ),
    (
        "captured-b/sysctl-d-50-pid-max.conf",
        "a `sysctl.d` file, not `sysctl -a` output",
    ),
    (
        "captured-b/sysctl-d-99-protect-links.conf",
        "a `sysctl.d` file, not `sysctl -a` output",
    ),
    (
        "captured-b/lspci-nnmmv.txt",
        "`lspci -nnmmv`, machine-readable, not `lspci -k`",
    ),
    (
        "lspci/jc__lspci-nnmmv-vmware.txt",
        "`lspci -nnmmv`, machine-readable, not `lspci -k`",
    ),
    (
        "dmesg/insights-core__dmesg-no-timestamps-hpsa.txt",
        "one stamped line in 17: kernel messages without timestamps are free text",
    ),
];

#[test]
fn content_sniffing_resolves_every_fixture_to_its_own_kind() {
    // What the analyzer does with a loose file: every sniffer of the kind table, in order.
    let mut files: Vec<(String, &'static str)> = common::FIXTURE_KINDS
        .iter()
        .flat_map(|k| k.files().into_iter().map(move |f| (f, k.kind)))
        .collect();
    files.extend(
        common::folders_of_kinds()
            .iter()
            .flat_map(|f| f.files().into_iter().map(move |x| (x, f.kind.name))),
    );
    let mut failures = Vec::new();
    let mut checked = 0;
    for (rel, own) in files {
        let Some(spec) = parsers::kind::by_name(own).filter(|k| k.sniff.is_some()) else {
            continue;
        };
        let got = match parsers::kind::sniff(&fixture(&rel)) {
            parsers::kind::Sniffed::Kind(k) => k.name.to_string(),
            parsers::kind::Sniffed::Nothing => "nothing".to_string(),
            parsers::kind::Sniffed::Ambiguous(v) => format!("any of {v:?}"),
        };
        checked += 1;
        let excused = NOT_SNIFFED.iter().any(|(f, _)| *f == rel);
        if (got == spec.name) == excused {
            failures.push(format!("{rel} ({own}): sniffed as {got}"));
        }
    }
    assert!(checked > 300, "{checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The fixtures of `not-sniffed/`, files of no kind (their provenance file aside).
fn not_sniffed() -> Vec<String> {
    fixtures_in("not-sniffed")
        .into_iter()
        .filter(|f| !f.ends_with("PROVENANCE.md"))
        .collect()
}

/// A fixture's text as the analyzer decodes it (invalid UTF-8 replaced).
fn lossy(rel: &str) -> String {
    let bytes = std::fs::read(common::fixture_path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    String::from_utf8_lossy(&bytes).into_owned()
}

/// What content sniffing makes of `text`, in words.
fn verdict(text: &str) -> String {
    match parsers::kind::sniff(text) {
        parsers::kind::Sniffed::Kind(k) => k.name.to_string(),
        parsers::kind::Sniffed::Nothing => "nothing".to_string(),
        parsers::kind::Sniffed::Ambiguous(v) => format!("any of {v:?}"),
    }
}

#[test]
fn files_of_no_kind_are_not_claimed() {
    // The rule: every sniffer of the table answers `No`, so content sniffing answers `Nothing`.
    // `Unsure` is not allowed either: alone it is a claim, with others an ambiguity.
    let files = not_sniffed();
    assert!(files.len() >= 45, "{}", files.len());
    let mut failures = Vec::new();
    for rel in &files {
        let text = lossy(rel);
        for sample in [head(&text, SNIFF_HEAD_BYTES), text.as_str()] {
            for k in parsers::kind::KINDS {
                let Some(sniff) = k.sniff else { continue };
                let got = sniff(sample);
                if got != Sniff::No {
                    failures.push(format!("{rel}: {} said {got:?}", k.name));
                }
            }
        }
        if verdict(&text) != "nothing" {
            failures.push(format!("{rel}: sniffed as {}", verdict(&text)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_file_of_no_kind_has_its_provenance() {
    let provenance = fixture("not-sniffed/PROVENANCE.md");
    for rel in not_sniffed() {
        let name = &rel["not-sniffed/".len()..];
        let rows = provenance
            .lines()
            .filter(|l| l.starts_with(&format!("| {name} |")))
            .count();
        assert_eq!(rows, 1, "{name}: {rows} rows in PROVENANCE.md");
    }
}

#[test]
fn one_number_or_one_word_is_never_claimed() {
    // Every fixture, of any folder, whose content is one line of at most two words (`0`,
    // `4097`, `kvm`, `Disabled`, `0 MB`, a PID file): whatever kind its place makes it, its
    // content is no evidence of one.
    let mut checked = Vec::new();
    for rel in common::all_fixtures() {
        let text = lossy(&rel);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        if lines.len() != 1 || lines[0].split_whitespace().count() > 2 {
            continue;
        }
        assert_eq!(verdict(&text), "nothing", "{rel}: {:?}", lines[0]);
        checked.push(rel);
    }
    for must in [
        "tainted/hotsos__proc-sys-kernel-tainted-4097.txt",
        "captured-b/proc-sys-kernel-tainted.txt",
        "captured-b/systemd-detect-virt.txt",
        "captured-b/systemd-detect-virt-vm.txt",
        "not-sniffed/captured-proc-1-oom_adj.txt",
        "not-sniffed/captured-start-stop-daemon.pid",
        "not-sniffed/hotsos__kubernetes_sys_devices_virtual_block_loop0_queue_zoned",
    ] {
        assert!(checked.iter().any(|c| c == must), "{must} not checked");
    }
}

#[test]
fn kinds_of_one_value_or_of_a_shared_text_have_no_sniffer() {
    // One integer, one word or one size: only the place says which file it is. PSI: every
    // cgroup v2 folder holds the same text as `/proc/pressure/*`.
    for k in [
        &parsers::kind::TAINTED,
        &parsers::kind::DETECT_VIRT,
        &parsers::kind::VMWARE_TIMESYNC,
        &parsers::kind::BALLOON,
        &parsers::kind::PRESSURE,
        &parsers::kind::CGROUP_MEMORY_MAX,
        &parsers::kind::CGROUP_MEMORY_FAILCNT,
        &parsers::kind::CGROUP_CPU_MAX,
        &parsers::kind::PROC_CGROUP,
    ] {
        assert!(k.sniff.is_none(), "{} has a sniffer", k.name);
    }
}

#[test]
fn proc_vmstat_and_the_vmstat_command_are_told_apart() {
    let of = |kind: &str| -> Vec<String> {
        common::FIXTURE_KINDS
            .iter()
            .filter(|k| k.kind == kind)
            .flat_map(|k| k.files())
            .collect()
    };
    let (proc_files, command_files) = (of("proc-vmstat"), of("vmstat"));
    assert!(proc_files.len() >= 3 && command_files.len() >= 5);
    let vmstat = parsers::kind::VMSTAT.sniff.unwrap();
    let proc_vmstat = parsers::kind::PROC_VMSTAT.sniff.unwrap();
    for rel in &proc_files {
        let text = fixture(rel);
        assert_eq!(vmstat(&text), Sniff::No, "{rel}");
        assert_eq!(verdict(&text), "proc-vmstat", "{rel}");
    }
    for rel in &command_files {
        let text = fixture(rel);
        assert_eq!(proc_vmstat(&text), Sniff::No, "{rel}");
        assert_eq!(verdict(&text), "vmstat", "{rel}");
    }
    // A cgroup's `memory.stat` has /proc/vmstat's layout but none of its `nr_` counters.
    let memory_stat =
        lossy("not-sniffed/hotsos__kubernetes_sys_fs_cgroup_memory_system.slice_memory.stat");
    assert_eq!(proc_vmstat(&memory_stat), Sniff::No);
}

/// The kind a file of the sosreport tree `sosreport-hotsos/` is, by its place in that tree (a
/// path below one host's root: `proc/meminfo`, `sos_commands/kernel/dmesg`); `None` for every
/// other file: no kind of the table.
fn sosreport_kind(path: &str) -> Option<&'static str> {
    let file = path.rsplit('/').next().unwrap_or(path);
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let pid_dir = |p: &str, rest: &str| {
        p.strip_prefix("proc/")
            .and_then(|r| r.split_once('/'))
            .is_some_and(|(pid, r)| pid.bytes().all(|b| b.is_ascii_digit()) && r == rest)
    };
    let exact = [
        ("proc/meminfo", "meminfo"),
        ("proc/vmstat", "proc-vmstat"),
        ("proc/stat", "proc-stat"),
        ("proc/interrupts", "interrupts"),
        ("proc/softirqs", "softirqs"),
        ("proc/diskstats", "diskstats"),
        ("proc/modules", "proc-modules"),
        ("proc/swaps", "swaps"),
        ("proc/cmdline", "cmdline"),
        ("etc/os-release", "os-release"),
        ("usr/lib/os-release", "os-release"),
        ("var/log/dmesg", "dmesg"),
        ("sos_commands/kernel/dmesg", "dmesg"),
        ("sos_commands/hardware/dmidecode", "dmidecode"),
        ("sos_commands/networking/ip_-s_-d_link", "ip-link"),
        ("sos_commands/networking/netstat_-s", "netstat-s"),
        ("sos_commands/networking/netstat_-W_-neopa", "netstat-tanp"),
        ("sos_commands/memory/free", "free"),
        ("sos_commands/memory/free_-m", "free"),
        ("sos_commands/memory/swapon_--bytes_--show", "swaps"),
        ("sos_commands/memory/swapon_--summary_--verbose", "swaps"),
        ("sos_commands/kernel/uname_-a", "uname"),
        ("sos_commands/systemd/timedatectl", "timedatectl"),
        ("sos_commands/kernel/sysctl_-a", "sysctl"),
        ("sos_commands/kernel/lsmod", "lsmod"),
        ("sos_commands/processor/lscpu", "lscpu"),
        ("sos_commands/kernel/modinfo_ALL_MODULES", "modinfo"),
        ("sos_commands/pci/lspci_-nnvv", "lspci"),
        ("sos_commands/lvm2/lvmdump/ps_info", "ps"),
    ];
    if let Some((_, k)) = exact.iter().find(|(p, _)| *p == path) {
        return Some(k);
    }
    if pid_dir(path, "status") {
        return Some("proc-status");
    }
    if pid_dir(path, "limits") {
        return Some("proc-limits");
    }
    if pid_dir(path, "net/dev") {
        return Some("net-dev");
    }
    if ["net/snmp", "net/snmp6", "net/netstat"]
        .iter()
        .any(|r| pid_dir(path, r))
    {
        return Some("net-snmp");
    }
    // `journalctl` outputs (but one that holds `-- No entries --` only) and pacemaker's
    // `crm_report` extract of the system log: syslog lines.
    if (file.starts_with("journalctl_--no-pager")
        && file != "journalctl_--no-pager_--unit_openvswitch-nonetwork")
        || (path.contains("/crm_report/") && file == "events.txt")
    {
        return Some("syslog");
    }
    // `systemctl status <unit>` of any plugin (snap, juju, haproxy…).
    if file.starts_with("systemctl_status_") {
        return Some("systemctl-status");
    }
    match dir {
        "sos_commands/networking" => {
            for (opt, kind) in [
                ("_-i_", "ethtool-i"),
                ("_-l_", "ethtool-l"),
                ("_-g_", "ethtool-g"),
                ("_-k_", "ethtool-k"),
                ("_-c_", "ethtool-c"),
                ("_-S_", "ethtool-S"),
            ] {
                if file.contains(&format!("ethtool{opt}")) {
                    return Some(kind);
                }
            }
            file.ends_with("nstat_-zas").then_some("nstat")
        }
        "sos_commands/process" if file.starts_with("ps_") => Some("ps"),
        "sos_commands/process" if file.starts_with("pidstat_") => Some("pidstat"),
        _ => None,
    }
}

/// Every file under a fixture folder, recursively, sorted, relative to it.
fn tree_files(dir: &std::path::Path, base: &std::path::Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            tree_files(&p, base, out);
        } else if p.is_file() {
            out.push(p.strip_prefix(base).unwrap().to_string_lossy().into_owned());
        }
    }
}

#[test]
fn a_sosreport_tree_is_sniffed_as_what_its_files_are() {
    // A sample of canonical/hotsos's fake sosreport data roots (see PROVENANCE.md there): every
    // file content sniffing claims must be the kind its place in the tree says, and every file
    // whose place names a kind must be claimed as it.
    let base = common::fixture_path("sosreport-hotsos");
    let mut files = Vec::new();
    tree_files(&base, &base, &mut files);
    files.retain(|f| f != "PROVENANCE.md");
    assert!(files.len() >= 390, "{}", files.len());
    let mut claims: std::collections::BTreeMap<String, usize> = Default::default();
    let mut failures = Vec::new();
    for rel in &files {
        // `<root>/…`, the storage root one folder deeper (`storage/ceph-mon/…`).
        let (root, path) = rel.split_once('/').unwrap();
        let path = if root == "storage" {
            path.split_once('/').map_or(path, |(_, p)| p)
        } else {
            path
        };
        let bytes = std::fs::read(base.join(rel)).unwrap();
        let text = String::from_utf8_lossy(&bytes).replace('\0', "\u{FFFD}");
        let got = verdict(&text);
        let want = sosreport_kind(path).unwrap_or("nothing");
        if got != want {
            failures.push(format!("{rel}: sniffed as {got}, is {want}"));
        }
        *claims.entry(got).or_default() += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The sample: the 216 files some sniffer claimed before sniffers asked for positive
    // structure (one per kind of place and claim; 162 of those claims were wrong), and 178
    // files no sniffer claimed. Now 59 files are claimed, each as what it is (4 of them
    // `journalctl` outputs and an event log in syslog lines, 1 a `systemctl status`).
    let claimed: usize = claims
        .iter()
        .filter(|(k, _)| *k != "nothing")
        .map(|(_, n)| n)
        .sum();
    assert_eq!((claimed, claims["nothing"]), (59, 335), "{claims:?}");
}
