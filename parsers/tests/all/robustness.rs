//! Untrusted input: random bytes, token soup built from the formats' own keywords, other kinds'
//! files, and pathological sizes. Parsers must never panic or hang, must reject what holds
//! nothing usable with a reason, and must keep issues bounded.

use crate::common::{all_kinds, fixture, fixtures_in, Kind, XorShift};

#[test]
fn empty_input_is_unusable_everywhere() {
    for kind in all_kinds() {
        for text in ["", "\n", "  \n\t\n", "\u{feff}"] {
            let err = kind
                .parse(text)
                .expect_err(&format!("{kind:?} accepted {text:?}"));
            assert!(!err.to_string().is_empty());
        }
    }
}

/// Kinds whose parsers take free-form text and so may accept random bytes: os-release and
/// uname read almost any first line with enough words, a kernel command line or a `dmesg` line
/// is any text, and the key/value and word formats (jcmd's command line and properties, ZooKeeper
/// `conf`/`srvr`/`zoo.cfg`, `jps`, the `/proc` and `nstat` counter lists) read whatever looks
/// like a key and a value. They rely on the bundle layout or a sniffer to be chosen at all.
const LENIENT: &[&str] = &[
    "uname",
    "os-release",
    "cmdline",
    "dmesg",
    "jcmd-vm-command-line",
    "jcmd-vm-system-properties",
    "zk-conf",
    "zk-srvr",
    "zoo-cfg",
    "jps",
    "net-snmp",
    "nstat",
    "proc-vmstat",
];

#[test]
fn random_bytes_are_unusable_everywhere() {
    let mut rng = XorShift(0xD1B5_4A32_D192_ED03);
    for round in 0..100 {
        let bytes = rng.bytes(8192);
        let text = String::from_utf8_lossy(&bytes);
        for kind in all_kinds() {
            // Only the structured formats must refuse random bytes; none may panic.
            let result = kind.parse(&text);
            if !LENIENT.contains(&kind.0.name) {
                assert!(
                    result.is_err(),
                    "round {round}: {kind:?} accepted random bytes"
                );
            }
        }
    }
}

/// Words from every format, so that random lines get deep into the parsers' state machines.
const VOCABULARY: &[&str] = &[
    "Linux",
    "(host)",
    "06/01/20",
    "_x86_64_",
    "(2",
    "CPU)",
    "avg-cpu:",
    "%user",
    "%idle",
    "Device",
    "Device:",
    "r/s",
    "%util",
    "rkB/s",
    "rMB/s",
    "avgrq-sz",
    "tps",
    "12:53:21",
    "PM",
    "Average:",
    "CPU",
    "NODE",
    "all",
    "0",
    "1",
    "%usr",
    "%iowait",
    "%irq",
    "intr/s",
    "1.5",
    "2,5",
    "-",
    "nan",
    "CPU0",
    "CPU1",
    "NET_RX:",
    "HI:",
    "Live",
    "0xffff",
    "(PO)",
    "a,b,",
    "Module",
    "Size",
    "Used",
    "by",
    "#1",
    "GNU/Linux",
    "ID=x",
    "NAME=\"a",
    "{",
    "}",
    "[",
    "]",
    "\"sysstat\":",
    "\"hosts\":",
    "\"statistics\":",
    "\"disk\":",
    "\"cpu-load\":",
    ",",
    ":",
    "\"disk_device\":",
    "\"sda\"",
    "\"cpu\":",
    "\"timestamp\":",
    "2020-06-01T12:53:20+0000",
    "99999999999999999999",
    "4294967296",
    "\u{feff}",
    "é",
    "\r",
];

fn token_soup(rng: &mut XorShift, lines: usize) -> String {
    let mut text = String::new();
    for _ in 0..lines {
        for _ in 0..rng.below(14) {
            text.push_str(VOCABULARY[rng.below(VOCABULARY.len())]);
            text.push(if rng.below(5) == 0 { '\t' } else { ' ' });
        }
        text.push('\n');
    }
    text
}

#[test]
fn token_soup_never_panics_and_issues_point_at_real_lines() {
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    for _ in 0..400 {
        let lines = 1 + rng.below(40);
        let text = token_soup(&mut rng, lines);
        let line_count = text.lines().count();
        for kind in all_kinds() {
            let _ = kind.sniff(&text);
            let _ = kind.parse(&text);
        }
        // Issues must cite lines that exist (0 = whole input).
        if let Ok(p) = parsers::sysstat::iostat::parse(&text) {
            assert!(
                p.issues.iter().all(|i| i.line <= line_count),
                "{:?}",
                p.issues
            );
        }
        if let Ok(p) = parsers::sysstat::mpstat::parse(&text) {
            assert!(
                p.issues.iter().all(|i| i.line <= line_count),
                "{:?}",
                p.issues
            );
        }
    }
}

#[test]
fn json_soup_never_panics() {
    // Random cuts and byte flips of real JSON documents.
    let docs = [
        fixture("iostat/sysstat-tests__iostat-x-p-ALL-json.txt"),
        fixture("mpstat/sysstat-tests__mpstat-A-json.txt"),
    ];
    let mut rng = XorShift(0x0123_4567_89AB_CDEF);
    for _ in 0..300 {
        let doc = &docs[rng.below(docs.len())];
        let mut bytes = doc.as_bytes().to_vec();
        for _ in 0..rng.below(4) {
            let i = rng.below(bytes.len());
            bytes[i] = b"{}[],:\"0 x\n"[rng.below(11)];
        }
        bytes.truncate(rng.below(bytes.len() + 1));
        let text = String::from_utf8_lossy(&bytes);
        let _ = parsers::sysstat::iostat::parse(&text);
        let _ = parsers::sysstat::mpstat::parse(&text);
    }
    // Deep nesting is refused, not a stack overflow.
    let deep = format!(
        "{{\"sysstat\": {{\"hosts\": [{{\"x\": {}",
        "[".repeat(100_000)
    );
    assert!(parsers::sysstat::iostat::parse(&deep).is_err());
    assert!(parsers::sysstat::mpstat::parse(&deep).is_err());
}

#[test]
fn other_kinds_files_are_refused_or_harmless() {
    // Every fixture through every parser: no panic; structured parsers refuse the other
    // structured kinds.
    let dirs = [
        ("iostat", Kind::Iostat),
        ("mpstat", Kind::Mpstat),
        ("proc-softirqs", Kind::Softirqs),
        ("proc-modules", Kind::ProcModules),
        ("lsmod", Kind::Lsmod),
    ];
    for (dir, own) in dirs {
        for rel in fixtures_in(dir) {
            let text = fixture(&rel);
            for (_, other) in dirs {
                if other != own {
                    assert!(other.parse(&text).is_err(), "{other:?} accepted {rel}");
                }
            }
            let _ = Kind::Uname.parse(&text);
            let _ = Kind::OsRelease.parse(&text);
        }
    }
}

#[test]
fn issues_are_capped_on_huge_garbage_inside_a_valid_file() {
    let mut text = fixture("iostat/sysstat-tests__iostat-x-12x-columns.txt");
    for _ in 0..5000 {
        text.push_str("garbage line\n");
    }
    let parsed = parsers::sysstat::iostat::parse(&text).unwrap();
    assert_eq!(parsed.value.reports.len(), 2);
    assert_eq!(parsed.issues.len(), 1001);
    let last = parsed.issues.last().unwrap();
    assert_eq!(last.line, 0);
    assert!(
        last.message.contains("4000 more issues"),
        "{}",
        last.message
    );
}

#[test]
fn long_lines_and_huge_numbers() {
    // A single 1 MB line, a header claiming a huge CPU number, an absurd counter.
    let long = "x".repeat(1 << 20);
    for kind in all_kinds() {
        let _ = kind.parse(&long);
    }
    let text = "    CPU0   CPU4294967295\nHI: 1 2\nTIMER: 1 99999999999999999999999\n";
    let parsed = parsers::proc::softirqs::parse(text).unwrap();
    assert_eq!(parsed.value.cpus, [0, 4_294_967_295]);
    assert_eq!(parsed.issues.len(), 1);
    assert!(parsers::proc::softirqs::parse("    CPU0   CPU4294967296\nHI: 1 2\n").is_err());
}

#[test]
fn many_reports_parse_in_one_pass() {
    // 20 000 reports of the sysstat 12 layout (about 8 MB): linear, and every report kept.
    let one = fixture("captured/iostat-x-t-C.txt");
    let body: String = one.split_inclusive('\n').skip(2).collect();
    let mut text = one.lines().next().unwrap().to_string() + "\n\n";
    for _ in 0..10_000 {
        text.push_str(&body);
    }
    let parsed = parsers::sysstat::iostat::parse(&text).unwrap();
    assert!(parsed.issues.is_empty());
    assert_eq!(parsed.value.reports.len(), 20_000);
    assert!(parsed.value.reports.iter().all(|r| r.devices.len() == 1));
}

#[test]
fn every_fixture_through_every_parser_never_panics() {
    // Whatever a bundle names a file, any parser may be handed it: no panic, and issues cite
    // lines the input has (0 = the whole input; an input that ends early is reported at the
    // line after its last). The first 64 KiB of each fixture, cut at a line
    // end, hold every structure the parsers meet; the whole files are read by their own tests.
    for rel in crate::common::all_fixtures() {
        let whole = fixture(&rel);
        let cut = crate::common::head(&whole, 64 << 10);
        let text = &cut[..cut.rfind('\n').map_or(cut.len(), |i| i + 1)];
        let lines = text.lines().count();
        for k in parsers::kind::KINDS {
            let Some(parse) = k.parse else { continue };
            if let Ok((_, issues)) = parse(text) {
                assert!(
                    issues.iter().all(|i| i.line <= lines + 1),
                    "{rel} through {}: {issues:?}",
                    k.name
                );
            }
        }
    }
}
