//! Sniffing and robustness for the network, kernel, time, platform and process parsers
//! (`ethtool`, `lspci`, `iplink`, `bonding`, `irq_affinity`, `sysctl`, `limits`, `kernel`,
//! `timesync`, `virt`, `procs`).
//!
//! - Every fixture of these kinds is claimed `Yes` by its own sniffer and `No` by the others,
//!   on the 4 KiB head the analyzer passes and on the whole file; every other fixture in
//!   `tests/fixtures/` (other engineers' kinds included) is refused by all of them.
//! - Random bytes, token soup, 100 000-column lines, huge numbers and CPU lists never panic,
//!   issues stay bounded and cite real lines.

use crate::common::{fixture, fixture_path, head, XorShift, SNIFF_HEAD_BYTES};
use parsers::kind::{self, KindSpec};
use parsers::{
    host::{self, lspci},
    kernel::{self, sysctl},
    net::{ethtool, irq_affinity},
    proc, procs, time, ParseError, Sniff,
};

/// The kinds of these modules: kinds of the table (`parsers::kind`), read by its sniffers and
/// parsers, and the formats of these modules that the table does not list yet (`ethtool -T`,
/// `ethtool` settings, `lspci -nnmmv`, `sysctl.conf`, `timedatectl timesync-status`).
#[derive(Clone, Copy)]
enum K {
    /// A kind of the table.
    Kind(&'static KindSpec),
    /// A format outside the table: its name, sniffer and parser.
    Outside(
        &'static str,
        fn(&str) -> Sniff,
        fn(&str) -> Result<Vec<parsers::LineIssue>, ParseError>,
    ),
}

#[allow(non_upper_case_globals)]
impl K {
    const EthDriver: K = K::Kind(&kind::ETHTOOL_I);
    const EthChannels: K = K::Kind(&kind::ETHTOOL_L);
    const EthFeatures: K = K::Kind(&kind::ETHTOOL_K);
    const EthRings: K = K::Kind(&kind::ETHTOOL_G);
    const EthCoalesce: K = K::Kind(&kind::ETHTOOL_C);
    const EthStats: K = K::Kind(&kind::ETHTOOL_S);
    const EthTimestamping: K = K::Outside(
        "ethtool-T",
        ethtool::timestamping::sniff_timestamping,
        |t| issues(ethtool::timestamping::parse_timestamping(t)),
    );
    const EthSettings: K = K::Outside("ethtool-settings", ethtool::settings::sniff_settings, |t| {
        issues(ethtool::settings::parse_settings(t))
    });
    const Lspci: K = K::Kind(&kind::LSPCI);
    const LspciMachine: K = K::Outside("lspci-machine", lspci::sniff_machine, |t| {
        issues(lspci::parse_machine(t))
    });
    const IpLink: K = K::Kind(&kind::IP_LINK);
    const Bonding: K = K::Kind(&kind::BONDING);
    const IrqAffinity: K = K::Kind(&kind::IRQ_AFFINITY);
    const Sysctl: K = K::Kind(&kind::SYSCTL);
    const SysctlConf: K = K::Outside("sysctl-conf", sysctl::sniff_conf, |t| {
        issues(sysctl::parse_conf(t))
    });
    const Ulimit: K = K::Kind(&kind::ULIMIT);
    const ProcLimits: K = K::Kind(&kind::PROC_LIMITS);
    const Cmdline: K = K::Kind(&kind::CMDLINE);
    const Tainted: K = K::Kind(&kind::TAINTED);
    const Modinfo: K = K::Kind(&kind::MODINFO);
    const Dmesg: K = K::Kind(&kind::DMESG);
    const Tracking: K = K::Kind(&kind::CHRONYC_TRACKING);
    const Sources: K = K::Kind(&kind::CHRONYC_SOURCES);
    const Ntpq: K = K::Kind(&kind::NTPQ);
    const Timedatectl: K = K::Kind(&kind::TIMEDATECTL);
    const TimesyncStatus: K = K::Outside(
        "timedatectl-timesync-status",
        time::timedatectl::sniff_timesync_status,
        |t| issues(time::timedatectl::parse_timesync_status(t)),
    );
    const VmwareTimesync: K = K::Kind(&kind::VMWARE_TIMESYNC);
    const Dmidecode: K = K::Kind(&kind::DMIDECODE);
    const DetectVirt: K = K::Kind(&kind::DETECT_VIRT);
    const Lscpu: K = K::Kind(&kind::LSCPU);
    const Ps: K = K::Kind(&kind::PS);
    const Top: K = K::Kind(&kind::TOP);
    const Ss: K = K::Kind(&kind::SS);
    const Netstat: K = K::Kind(&kind::NETSTAT_TANP);

    fn name(self) -> &'static str {
        match self {
            K::Kind(k) => k.name,
            K::Outside(name, ..) => name,
        }
    }
}

impl PartialEq for K {
    fn eq(&self, other: &K) -> bool {
        self.name() == other.name()
    }
}

impl std::fmt::Debug for K {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

const KINDS: [K; 34] = [
    K::EthDriver,
    K::EthChannels,
    K::EthFeatures,
    K::EthRings,
    K::EthCoalesce,
    K::EthStats,
    K::EthTimestamping,
    K::EthSettings,
    K::Lspci,
    K::LspciMachine,
    K::IpLink,
    K::Bonding,
    K::IrqAffinity,
    K::Sysctl,
    K::SysctlConf,
    K::Ulimit,
    K::ProcLimits,
    K::Cmdline,
    K::Tainted,
    K::Modinfo,
    K::Dmesg,
    K::Tracking,
    K::Sources,
    K::Ntpq,
    K::Timedatectl,
    K::TimesyncStatus,
    K::VmwareTimesync,
    K::Dmidecode,
    K::DetectVirt,
    K::Lscpu,
    K::Ps,
    K::Top,
    K::Ss,
    K::Netstat,
];

fn issues<T>(
    r: Result<parsers::Parsed<T>, ParseError>,
) -> Result<Vec<parsers::LineIssue>, ParseError> {
    r.map(|p| p.issues)
}

impl K {
    fn sniff(self, h: &str) -> Sniff {
        match self {
            K::Kind(k) => k.sniff.map_or(Sniff::No, |f| f(h)),
            K::Outside(_, sniff, _) => sniff(h),
        }
    }

    fn parse(self, t: &str) -> Result<Vec<parsers::LineIssue>, ParseError> {
        match self {
            K::Kind(k) => {
                let parse = k
                    .parse
                    .unwrap_or_else(|| panic!("{} has no parser", k.name));
                parse(t).map(|(_, issues)| issues)
            }
            K::Outside(_, _, parse) => parse(t),
        }
    }

    /// Whether the kind has a content sniffer.
    fn sniffs(self) -> bool {
        match self {
            K::Kind(k) => k.sniff.is_some(),
            K::Outside(..) => true,
        }
    }

    /// Free-text formats: any non-empty input parses (with issues at worst).
    fn accepts_anything(self) -> bool {
        self == K::Dmesg || self == K::Cmdline
    }
}

/// Fixture directories holding only these kinds.
const OWN_DIRS: [&str; 13] = [
    "ethtool",
    "lspci",
    "sysctl",
    "ulimit",
    "tainted",
    "dmesg",
    "chronyc",
    "ntpq",
    "timedatectl",
    "dmidecode",
    "ps",
    "top",
    "ss",
];

/// Connection-list netstat files (the `netstat/` directory is shared with `netstat -s`).
const OWN_NETSTAT: [&str; 3] = [
    "netstat/insights-core__netstat-neopa-rhel7.txt",
    "netstat/jc__netstat-aeep-ubuntu1804.txt",
    "netstat/jc__netstat-lnp-centos7.txt",
];

/// The kind of one of these fixtures by its path; `None` for captures of a failed command
/// (`netlink error: Operation not supported`, timedatectl without systemd), which no sniffer
/// claims except where noted in `expected`.
fn kind_of(rel: &str) -> Option<K> {
    let (dir, name) = rel.split_once('/').unwrap();
    let has = |s: &str| name.contains(s);
    Some(match dir {
        "ethtool" | "captured-b" if name.starts_with("ethtool") || dir == "ethtool" => {
            if has("unsupported") {
                return None;
            }
            if has("-i-") {
                K::EthDriver
            } else if has("-l-") {
                K::EthChannels
            } else if has("-k-") {
                K::EthFeatures
            } else if has("-g-") {
                K::EthRings
            } else if has("-c-") {
                K::EthCoalesce
            } else if has("-S-") {
                K::EthStats
            } else if has("-T-") {
                K::EthTimestamping
            } else {
                K::EthSettings
            }
        }
        "lspci" if has("nnmmv") => K::LspciMachine,
        "lspci" => K::Lspci,
        "sysctl" => K::Sysctl,
        "ulimit" => K::ProcLimits,
        "tainted" => K::Tainted,
        "dmesg" => K::Dmesg,
        "chronyc" if has("tracking") => K::Tracking,
        "chronyc" => K::Sources,
        "ntpq" => K::Ntpq,
        "timedatectl" if has("timesync-status") => K::TimesyncStatus,
        "timedatectl" => K::Timedatectl,
        "dmidecode" => K::Dmidecode,
        "ps" => K::Ps,
        "top" => K::Top,
        "ss" => K::Ss,
        "netstat" => K::Netstat,
        "captured-b" => {
            let p = |s: &str| name.starts_with(s);
            if p("chronyc-tracking") {
                K::Tracking
            } else if p("chronyc") {
                K::Sources
            } else if p("dmesg-") || name == "dmesg.txt" {
                K::Dmesg
            } else if p("dmidecode") {
                K::Dmidecode
            } else if p("ip-") {
                K::IpLink
            } else if p("irq-") {
                K::IrqAffinity
            } else if p("lscpu") {
                K::Lscpu
            } else if p("lspci-nnmmv") {
                K::LspciMachine
            } else if p("lspci") {
                K::Lspci
            } else if p("modinfo") {
                K::Modinfo
            } else if p("netstat") {
                K::Netstat
            } else if p("proc-cmdline") {
                K::Cmdline
            } else if p("proc-self-limits") {
                K::ProcLimits
            } else if p("proc-sys-kernel-tainted") {
                K::Tainted
            } else if p("ps-") {
                K::Ps
            } else if p("ss-") {
                K::Ss
            } else if p("sysctl-a") {
                K::Sysctl
            } else if p("sysctl") {
                K::SysctlConf
            } else if p("systemd-detect-virt") {
                K::DetectVirt
            } else if p("timedatectl") {
                return None;
            } else if p("top") {
                K::Top
            } else if p("ulimit") {
                K::Ulimit
            } else {
                panic!("captured-b/{name}: no kind assigned in this test")
            }
        }
        _ => panic!("{rel}: not one of these fixtures"),
    })
}

fn files_in(dir: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(fixture_path(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_file())
        .map(|e| format!("{dir}/{}", e.file_name().to_string_lossy()))
        .collect();
    out.sort();
    out
}

fn own_fixtures() -> Vec<String> {
    let mut out: Vec<String> = OWN_DIRS.iter().flat_map(|d| files_in(d)).collect();
    out.extend(OWN_NETSTAT.iter().map(|s| s.to_string()));
    out.extend(files_in("captured-b"));
    out
}

/// Every fixture of other kinds: all directories but these, plus the `netstat -s` files.
fn other_fixtures() -> Vec<String> {
    let mut dirs: Vec<String> = std::fs::read_dir(fixture_path(""))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|d| !OWN_DIRS.contains(&d.as_str()) && d != "captured-b")
        .collect();
    dirs.sort();
    let mut out: Vec<String> = dirs
        .iter()
        .flat_map(|d| files_in(d))
        .filter(|f| !OWN_NETSTAT.contains(&f.as_str()))
        .collect();
    assert!(out.iter().any(|f| f.starts_with("iostat/")));
    out.retain(|f| !f.ends_with(".md"));
    out
}

/// What a sniffer should answer for a fixture of kind `own`.
fn expected(own: Option<K>, kind: K, rel: &str) -> Sniff {
    match own {
        // One number or one word (`tainted`, `detect-virt`, `vmware-timesync`): no sniffer, the
        // place alone says what it is.
        Some(o) if o == kind && !kind.sniffs() => Sniff::No,
        // Sixteen unstamped kernel messages and one stamped: free text by its content.
        Some(o) if o == kind && rel == "dmesg/insights-core__dmesg-no-timestamps-hpsa.txt" => {
            Sniff::No
        }
        Some(o) if o == kind => Sniff::Yes,
        // dmidecode's banner is printed even when it cannot read the table.
        None if kind == K::Dmidecode && rel.contains("dmidecode") => Sniff::Yes,
        _ => Sniff::No,
    }
}

fn read(rel: &str) -> String {
    let bytes = std::fs::read(fixture_path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn every_fixture_is_claimed_by_its_own_sniffer_only() {
    let mut failures = Vec::new();
    let own = own_fixtures();
    assert_eq!(
        own.len(),
        62 + 3 + 58,
        "fixture count changed: {}",
        own.len()
    );
    for rel in &own {
        let text = read(rel);
        let kind = kind_of(rel);
        for sample in [head(&text, SNIFF_HEAD_BYTES), text.as_str()] {
            for k in KINDS {
                let want = expected(kind, k, rel);
                let got = k.sniff(sample);
                if got != want {
                    failures.push(format!(
                        "{rel} ({} bytes): {k:?} said {got:?}, expected {want:?}",
                        sample.len()
                    ));
                }
            }
        }
        // Each fixture parses with its own parser (captures of failed commands do not).
        if let Some(k) = kind {
            let parsed = k.parse(&text);
            let failed_capture = rel.ends_with("dmidecode-t-system.txt");
            if parsed.is_err() != failed_capture {
                failures.push(format!("{rel}: own parser gave {parsed:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn other_kinds_fixtures_are_refused() {
    let mut failures = Vec::new();
    let others = other_fixtures();
    assert!(others.len() >= 31, "{}", others.len());
    for rel in &others {
        let text = read(rel);
        for sample in [head(&text, SNIFF_HEAD_BYTES), text.as_str()] {
            for k in KINDS {
                let got = k.sniff(sample);
                // An unsure answer is harmless where another kind is sure of the text: sniffing
                // takes the sure answer (a one-line `/proc/pressure/cpu` of `key=value` words
                // may be a kernel command line for all `/proc/cmdline`'s sniffer can tell).
                let outvoted = got == Sniff::Unsure
                    && matches!(kind::sniff(sample), kind::Sniffed::Kind(r) if r.name != k.name());
                if got != Sniff::No && !outvoted {
                    failures.push(format!("{rel}: {k:?} sniffer said {got:?}"));
                }
            }
        }
        for k in KINDS {
            // Structured parsers refuse other kinds' files outright; free-text ones (dmesg,
            // /proc/cmdline) may read them, with issues. Files of no kind (`not-sniffed/`) are
            // look-alikes that only sniffing must refuse: a parser reads what a bundle's layout
            // names (lslocks' `PID … COMMAND` table for `ps`, one integer for `tainted`).
            // Kinds known by their path only (one number, three numbers) are alike the same
            // way: a parser reads them only where a layout names them.
            let r = k.parse(&text);
            let no_kind = rel.starts_with("not-sniffed/");
            // A cpufreq frequency is one integer, as `tainted` is: both are read only where a
            // layout names them. `cpupower frequency-info` has a `driver:` line, which the
            // `ethtool -i` key/value reader takes; its sniffer does not.
            let by_place = (rel.starts_with("cpufreq/") && k.name() == "tainted")
                || (rel.starts_with("cpupower-frequency-info/") && k.name() == "ethtool-i");
            let path_only = rel
                .split('/')
                .next()
                .and_then(kind::by_name)
                .is_some_and(|spec| spec.sniff.is_none());
            if r.is_ok() && !k.accepts_anything() && !no_kind && !by_place && !path_only {
                failures.push(format!("{rel}: {k:?} parser accepted it"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn own_fixtures_through_every_other_parser() {
    // No panic, issues cite existing lines, and other structured parsers refuse the file.
    let mut accepted = Vec::new();
    for rel in own_fixtures() {
        let text = read(&rel);
        let lines = text.lines().count();
        let own = kind_of(&rel);
        for k in KINDS {
            let r = k.parse(&text);
            // `sysctl -a` and sysctl.conf share the `key = value` syntax; each parser reads the
            // other (the sniffers tell them apart).
            let same_syntax = (own == Some(K::Sysctl) && k == K::SysctlConf)
                || (own == Some(K::SysctlConf) && k == K::Sysctl);
            if r.is_ok() && Some(k) != own && !k.accepts_anything() && !same_syntax {
                accepted.push(format!("{rel}: {k:?}"));
            }
            if let Ok(issues) = r {
                assert!(
                    issues.iter().all(|i| i.line <= lines),
                    "{rel} through {k:?}: {issues:?}"
                );
                assert!(issues.len() <= 1001);
            }
        }
    }
    assert!(accepted.is_empty(), "{}", accepted.join("\n"));
}

#[test]
fn empty_input_is_unusable_everywhere() {
    for k in KINDS {
        for text in ["", "\n", "  \n\t\n", "\u{feff}"] {
            let err = k
                .parse(text)
                .expect_err(&format!("{k:?} accepted {text:?}"));
            assert!(!err.to_string().is_empty());
        }
        assert_eq!(k.sniff(""), Sniff::No, "{k:?}");
    }
}

#[test]
fn random_bytes() {
    let mut rng = XorShift(0x5DEE_CE66_D1CE_4E5B);
    for round in 0..100 {
        let bytes = rng.bytes(8192);
        let text = String::from_utf8_lossy(&bytes);
        for k in KINDS {
            let r = k.parse(&text);
            if !k.accepts_anything() {
                assert!(
                    r.is_err(),
                    "round {round}: {k:?} accepted random bytes: {r:?}"
                );
            }
            assert_eq!(k.sniff(&text), Sniff::No, "round {round}: {k:?}");
        }
    }
}

/// Words from every format, so that random lines get deep into the parsers' state machines.
const VOCABULARY: &[&str] = &[
    "Features",
    "for",
    "eth0:",
    "Ring",
    "parameters",
    "Pre-set",
    "maximums:",
    "Current",
    "hardware",
    "settings:",
    "RX:",
    "TX:",
    "Combined:",
    "n/a",
    "on",
    "off",
    "[fixed]",
    "[requested",
    "on]",
    "NIC",
    "statistics:",
    "rx_queue_3_packets:",
    "driver:",
    "bus-info:",
    "Settings",
    "Speed:",
    "1000Mb/s",
    "00:03.0",
    "Ethernet",
    "controller:",
    "[8086:100f]",
    "(rev",
    "01)",
    "Slot:\t",
    "1:",
    "lo:",
    "<UP,LOWER_UP>",
    "mtu",
    "link/ether",
    "RX:",
    "bytes",
    "packets",
    "Ethernet Channel Bonding Driver:",
    "Slave",
    "Interface:",
    "MII",
    "Status:",
    "0-3,8",
    "4294967295",
    "0-4294967295",
    "kernel.pid_max",
    "=",
    "sysctl:",
    "permission",
    "denied",
    "open files",
    "(-n)",
    "unlimited",
    "Limit",
    "Soft",
    "Max",
    "root=/dev/sda",
    "--",
    "filename:",
    "parm:",
    "signature:",
    "[    0.000000]",
    "<6>",
    "Reference ID",
    ":",
    "seconds",
    "fast",
    "slow",
    "ppm",
    "MS",
    "Name/IP",
    "address",
    "Stratum",
    "^*",
    "-91us[",
    "-128us]",
    "+/-",
    "remote",
    "refid",
    "st",
    "*192.0.2.10",
    ".POOL.",
    "35m",
    "Local time:",
    "NTP",
    "synchronized:",
    "yes",
    "Handle",
    "0x0001,",
    "DMI",
    "type",
    "1,",
    "System Information",
    "\tManufacturer:",
    "kvm",
    "Architecture:",
    "CPU(s):",
    "PID",
    "USER",
    "COMMAND",
    "%CPU",
    "top -",
    "up",
    "Tasks:",
    "MiB Mem :",
    "1.2g",
    "Netid",
    "State",
    "Recv-Q",
    "Send-Q",
    "Local Address:Port",
    "ESTAB",
    "users:((\"java\",pid=1,fd=2))",
    "users:((",
    "[::ffff:10.0.0.1]:8080",
    "Proto",
    "tcp",
    "ESTABLISHED",
    "1/systemd",
    "Active",
    "Internet",
    "unix",
    "[",
    "]",
    "99999999999999999999",
    "\u{feff}",
    "é",
    "\r",
    "\t",
];

fn token_soup(rng: &mut XorShift, lines: usize) -> String {
    let mut text = String::new();
    for _ in 0..lines {
        for _ in 0..rng.below(12) {
            text.push_str(VOCABULARY[rng.below(VOCABULARY.len())]);
            text.push(if rng.below(4) == 0 { '\t' } else { ' ' });
        }
        text.push('\n');
    }
    text
}

#[test]
fn token_soup_never_panics_and_issues_point_at_real_lines() {
    let mut rng = XorShift(0x1234_5678_9ABC_DEF1);
    for _ in 0..300 {
        let lines = 1 + rng.below(40);
        let text = token_soup(&mut rng, lines);
        let line_count = text.lines().count();
        for k in KINDS {
            let _ = k.sniff(&text);
            if let Ok(issues) = k.parse(&text) {
                assert!(
                    issues.iter().all(|i| i.line <= line_count),
                    "{k:?}: {issues:?}"
                );
            }
        }
    }
}

#[test]
fn cut_and_flipped_fixtures_never_panic() {
    let mut rng = XorShift(0x0F0F_1234_ABCD_9876);
    let own = own_fixtures();
    for _ in 0..300 {
        let rel = &own[rng.below(own.len())];
        let mut bytes = std::fs::read(fixture_path(rel)).unwrap();
        for _ in 0..rng.below(5) {
            if bytes.is_empty() {
                break;
            }
            let i = rng.below(bytes.len());
            bytes[i] = b"\t :[]()\"0x-,=\n"[rng.below(14)];
        }
        bytes.truncate(rng.below(bytes.len() + 1));
        let text = String::from_utf8_lossy(&bytes);
        for k in KINDS {
            let _ = k.sniff(&text);
            let _ = k.parse(&text);
        }
    }
}

#[test]
fn hundred_thousand_column_lines() {
    let wide_words = "x ".repeat(100_000);
    let wide_tabs = "1\t".repeat(100_000);
    let wide_colons = "a:".repeat(100_000);
    let nested = format!("users:({}", "(".repeat(100_000));
    for line in [&wide_words, &wide_tabs, &wide_colons, &nested] {
        let text = format!("{line}\n{line}\n");
        for k in KINDS {
            let _ = k.sniff(&text);
            let _ = k.parse(&text);
        }
    }
    // Inside otherwise valid files.
    let ss =
        fixture("captured-b/ss-tanp.txt") + &format!("ESTAB 0 0 1.2.3.4:5 6.7.8.9:10 {nested}\n");
    let p = procs::ss::parse_ss(&ss).unwrap();
    assert_eq!(p.issues.len(), 1);
    let ps = fixture("captured-b/ps-eo-custom.txt")
        + &format!("    9     1 root        1  0.0  0.0 1 1 1 S    x               {wide_words}\n");
    let p = procs::ps::parse_ps(&ps).unwrap();
    assert!(p.issues.is_empty());
    assert_eq!(
        p.value
            .processes
            .last()
            .unwrap()
            .args
            .as_deref()
            .map(str::len),
        Some(199_999)
    );
    let sysctl_text =
        fixture("captured-b/sysctl-a-root.txt") + &format!("kernel.x = {wide_tabs}\n");
    let p = sysctl::parse(&sysctl_text).unwrap();
    assert_eq!(p.value.get_i64s("kernel.x").map(|v| v.len()), Some(100_000));
}

#[test]
fn huge_cpu_lists_and_numbers() {
    let text = "45\t0-4294967295\tmlx5_comp0@pci:0000:3b:00.0\n46\t4294967295\tx\n47\t0-65535,0-65535\ty\n";
    let p = irq_affinity::parse(text).unwrap();
    assert_eq!(p.issues.len(), 2);
    assert_eq!(p.issues[0].line, 1);
    assert_eq!(p.value.irqs[1].cpus, [4_294_967_295]);
    // Duplicates count before they are merged, so the bound holds whatever the list says.
    assert_eq!(p.issues[1].line, 3);
    assert!(p.value.irqs[2].cpus.is_empty());
    let text = "Architecture: x86_64\nCPU(s): 99999999999999999999\nOn-line CPU(s) list: 0-4294967295\nNUMA node0 CPU(s): 0-4294967295\n";
    let p = host::lscpu::parse_lscpu(text).unwrap();
    assert_eq!(p.issues.len(), 3);
    assert!(p.value.online_cpus.is_empty());
    let p = kernel::taint::parse_tainted("99999999999999999999\n");
    assert!(p.is_err());
    let p = kernel::taint::parse_tainted(&format!("{}\n", u64::MAX)).unwrap();
    assert_eq!(p.value.flags.len(), 64);
    let p = proc::limits::parse_proc_limits(
        "Limit  Soft Limit  Hard Limit  Units\nMax open files  99999999999999999999999  1  files\n",
    )
    .unwrap();
    assert_eq!(p.issues.len(), 1);
}

#[test]
fn issues_are_capped_on_huge_garbage_inside_a_valid_file() {
    let mut text = fixture("sysctl/jc__sysctl-a-centos7.txt");
    for _ in 0..5000 {
        text.push_str("garbage line\n");
    }
    let p = sysctl::parse(&text).unwrap();
    assert_eq!(p.value.entries.len(), 918);
    assert_eq!(p.issues.len(), 1001);
    assert_eq!(p.issues.last().unwrap().line, 0);
}

#[test]
fn large_inputs_parse_in_one_pass() {
    // 2 000 top frames (about 10 MB), 200 000 ss sockets and 200 000 sysctl keys.
    let frame = fixture("captured-b/top-b-n2.txt");
    let top = frame.repeat(1000);
    let p = procs::top::parse_top(&top).unwrap();
    assert!(p.issues.is_empty());
    assert_eq!(p.value.frames.len(), 2000);
    let ss = fixture("captured-b/ss-tanp.txt");
    let (header, body) = ss.split_once('\n').unwrap();
    let big = format!("{header}\n{}", body.repeat(20_000));
    let p = procs::ss::parse_ss(&big).unwrap();
    assert_eq!(p.value.sockets.len(), 200_000);
    let by = procs::established_by_process(p.value.established());
    assert_eq!(by.iter().map(|b| b.established).sum::<usize>(), 160_000);
    let sysctl_big: String = (0..200_000)
        .map(|i| format!("net.x.k{i} = {i}\n"))
        .collect();
    let p = sysctl::parse(&sysctl_big).unwrap();
    assert_eq!(p.value.entries.len(), 200_000);
}
