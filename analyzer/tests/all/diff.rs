//! `rca diff` end to end, on bundles made of real captures.
//!
//! Every bundle is a directory written from real outputs (`parsers/tests/fixtures/`, see
//! PROVENANCE.md there, and the shipped healthy sample); the S2- and S4-shaped pairs change only
//! the values their case is about, each change named where it is made.

use crate::common::{fixture, healthy_sample, repo};
use rca::bundle::Limits;
use rca::diff::{self, DiffReport, Difference};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One file of the shipped healthy sample.
fn sample_file(name: &str) -> String {
    let f = std::fs::File::open(healthy_sample()).unwrap();
    let mut a = tar::Archive::new(flate2::read::GzDecoder::new(f));
    for e in a.entries().unwrap() {
        let mut e = e.unwrap();
        if e.path().unwrap().to_string_lossy().ends_with(name) {
            let mut s = String::new();
            std::io::Read::read_to_string(&mut e, &mut s).unwrap();
            return s;
        }
    }
    panic!("{name} not in the healthy sample");
}

/// `(path in bundle, kind, text, start epoch)`.
type Entry = (String, &'static str, String, f64);

const T0: f64 = 1_796_000_000.0;

fn entry(path: &str, kind: &'static str, text: String) -> Entry {
    let t = if path.ends_with(".end") {
        T0 + 30.0
    } else {
        T0
    };
    (path.to_string(), kind, text, t)
}

fn set(entries: &mut Vec<Entry>, path: &str, kind: &'static str, text: String) {
    entries.retain(|e| e.0 != path);
    entries.push(entry(path, kind, text));
}

fn edit(entries: &mut [Entry], path: &str, f: impl Fn(&str) -> String) {
    let e = entries.iter_mut().find(|e| e.0 == path).unwrap();
    e.2 = f(&e.2);
}

fn write_bundle(root: &Path, name: &str, entries: &[Entry]) -> PathBuf {
    let top = root.join(name);
    let mut manifest = format!(
        "# rca-manifest 1\nmeta\tstarted\t{T0}\nmeta\tended\t{}\nmeta\tinterval\t1\n",
        T0 + 30.0
    );
    for (path, kind, text, start) in entries {
        let p = top.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        manifest.push_str(&format!(
            "artifact\t{path}\t{kind}\t0\t0\t{start}\t{start}\t{}\t0\t\tcat {path}\n",
            text.len()
        ));
    }
    std::fs::write(top.join("manifest.tsv"), manifest).unwrap();
    top
}

/// The outputs both hosts of a pair share: real captures from one machine.
fn base(host: &str) -> Vec<Entry> {
    vec![
        entry(
            "system/uname.txt",
            "uname",
            fixture("captured/uname-a.txt").replacen(" vm ", &format!(" {host} "), 1),
        ),
        entry(
            "system/ps.txt",
            "ps",
            fixture("captured-b/ps-eo-custom.txt"),
        ),
        entry("net/ss-tanp.end", "ss", fixture("captured-b/ss-tanp.txt")),
        entry(
            "kernel/sysctl-a.txt",
            "sysctl",
            fixture("captured-b/sysctl-a-root.txt"),
        ),
        entry(
            "system/ulimit-a.txt",
            "ulimit",
            fixture("captured-b/ulimit-a-bash.txt"),
        ),
        entry("cpu/lscpu.txt", "lscpu", fixture("captured-b/lscpu.txt")),
        entry(
            "kernel/tainted",
            "tainted",
            fixture("captured-b/proc-sys-kernel-tainted.txt"),
        ),
        entry(
            "proc/modules",
            "proc-modules",
            fixture("proc-modules/jc__jc-proc-modules.txt"),
        ),
        entry(
            "net/ethtool/eth0/ethtool-i.txt",
            "ethtool-i",
            fixture("captured-b/ethtool-i-virtio-eth0.txt"),
        ),
        entry(
            "net/ethtool/eth0/ethtool-l.txt",
            "ethtool-l",
            fixture("captured-b/ethtool-l-virtio-eth0.txt"),
        ),
        entry(
            "net/ethtool/eth0/ethtool-k.txt",
            "ethtool-k",
            fixture("captured-b/ethtool-k-virtio-eth0.txt"),
        ),
        entry(
            "net/ip-s-link.txt",
            "ip-link",
            fixture("captured-b/ip-s-link.txt"),
        ),
        entry(
            "mem/meminfo",
            "meminfo",
            fixture("captured-a/proc-meminfo-1.txt"),
        ),
        entry(
            "time/chronyc-tracking.txt",
            "chronyc-tracking",
            fixture("captured-b/chronyc-tracking-chrony4-synced.txt"),
        ),
    ]
}

/// `n` ESTABLISHED sockets in `ss -tanp`'s layout, owned by `comm`, to `peers` distinct hosts.
fn ss_lines(comm: &str, pid: u32, n: usize, peers: usize, port: u16) -> String {
    (0..n)
        .map(|i| {
            format!(
                "ESTAB  0      0               10.0.1.5:{:<5}         10.0.2.{}:{port} users:((\"{comm}\",pid={pid},fd={}))\n",
                30000 + i,
                1 + i % peers,
                10 + i
            )
        })
        .collect()
}

/// A `jstack` dump (real JDK 8 layout) with Undertow's XNIO pools added: `io` I/O threads and
/// `task` worker threads, each block copied from the dump's own thread format.
fn dump_with_xnio(io: usize, task: usize) -> String {
    let real = fixture("jstack/jifa__jstack-jdk8-style-format.txt");
    let (head, rest) = real.split_once("\n\n").unwrap();
    let mut threads = String::new();
    for (name, n, state) in [
        ("XNIO-1 I/O-", io, "RUNNABLE"),
        ("XNIO-1 task-", task, "WAITING (parking)"),
    ] {
        for i in 1..=n {
            threads.push_str(&format!(
                "\"{name}{i}\" #{} prio=5 os_prio=0 tid=0x00007fc1c4{:06x} nid=0x{:x} runnable [0x0000000000000000]\n   java.lang.Thread.State: {state}\n\n",
                100 + i,
                i,
                0x4000 + i
            ));
        }
    }
    format!("{head}\n\n{threads}{rest}")
}

/// `java -version` of a JDK 8 build, in the layout of the real capture.
fn java_version(vendor_tag: &str, build: &str) -> String {
    let real = fixture("captured-jvm/java-version-jdk17.txt");
    let tag = if vendor_tag.is_empty() {
        String::new()
    } else {
        format!(" {vendor_tag}")
    };
    real.replace("\"17.0.15\" 2025-04-15", "\"1.8.0_342\"")
        .replace(
            "OpenJDK Runtime Environment (build 17.0.15+6-Debian-1deb12u1)",
            &format!("OpenJDK Runtime Environment{tag} (build 1.8.0_342-{build})"),
        )
        .replace(
            "OpenJDK 64-Bit Server VM (build 17.0.15+6-Debian-1deb12u1, mixed mode, sharing)",
            &format!("OpenJDK 64-Bit Server VM{tag} (build 25.342-{build}, mixed mode)"),
        )
}

/// Case S2: the baseline (the fast VM) runs `bootstrap` next to the application, owning most
/// ESTABLISHED connections, on a BiSheng JDK; the suspect (the slow physical host) runs OpenJDK
/// with 4× the XNIO threads, extra sysctl keys and another pending-signals limit.
fn s2_pair(root: &Path) -> (PathBuf, PathBuf) {
    let mut b = base("s2-vm");
    let mut s = base("s2-phys");
    // The application JVM (pid 27054 in the real `ps`) on both.
    for (e, tag, build, io, task) in [
        (&mut b, "BiSheng", "b11", 32, 256),
        (&mut s, "", "b07", 128, 1024),
    ] {
        set(
            e,
            "jvm/27054/java-version.txt",
            "java-version",
            java_version(tag, build),
        );
        set(
            e,
            "jvm/27054/threads.2.txt",
            "thread-dump",
            dump_with_xnio(io, task),
        );
    }
    // Baseline: `bootstrap` owns 400 ESTABLISHED connections to 8 peers; the application
    // (`java`) serves 60 client connections on both hosts.
    edit(&mut b, "net/ss-tanp.end", |t| {
        format!(
            "{t}{}{}",
            ss_lines("bootstrap", 1505, 400, 8, 20880),
            ss_lines("java", 27054, 60, 3, 8080)
        )
    });
    // Suspect: no `bootstrap` process, none of its sockets.
    edit(&mut s, "system/ps.txt", |t| {
        t.lines()
            .filter(|l| !l.contains(" bootstrap "))
            .map(|l| format!("{l}\n"))
            .collect()
    });
    edit(&mut s, "net/ss-tanp.end", |t| {
        let kept: String = t
            .lines()
            .filter(|l| !l.contains("\"bootstrap\""))
            .map(|l| format!("{l}\n"))
            .collect();
        format!("{kept}{}", ss_lines("java", 27054, 60, 3, 8080))
    });
    // The baseline has no connection tracking loaded: none of the real capture's
    // `net.netfilter.nf_conntrack_*` keys. The suspect keeps them, with tuned values, and tuned
    // net.core buffers and budget.
    edit(&mut b, "kernel/sysctl-a.txt", |t| {
        t.lines()
            .filter(|l| !l.starts_with("net.netfilter.") && !l.starts_with("net.nf_conntrack"))
            .map(|l| format!("{l}\n"))
            .collect()
    });
    edit(&mut s, "kernel/sysctl-a.txt", |t| {
        t.lines()
            .map(|l| {
                let v = match l.split_once(" = ") {
                    Some(("net.core.rmem_max", _)) => "net.core.rmem_max = 16777216",
                    Some(("net.core.wmem_max", _)) => "net.core.wmem_max = 16777216",
                    Some(("net.core.netdev_budget", _)) => "net.core.netdev_budget = 600",
                    Some(("net.netfilter.nf_conntrack_max", _)) => {
                        "net.netfilter.nf_conntrack_max = 1048576"
                    }
                    _ => l,
                };
                format!("{v}\n")
            })
            .collect()
    });
    // Pending signals: 254060 on the baseline, 2088097 on the suspect.
    edit(&mut b, "system/ulimit-a.txt", |t| {
        t.replace("(-i) 96365", "(-i) 254060")
    });
    edit(&mut s, "system/ulimit-a.txt", |t| {
        t.replace("(-i) 96365", "(-i) 2088097")
    });
    (
        write_bundle(root, "s2-baseline", &b),
        write_bundle(root, "s2-suspect", &s),
    )
}

/// The healthy sample's `mpstat -P ALL` with CPU 0 at `soft` % soft-IRQ in every interval.
fn mpstat_soft_on_cpu0(soft: f64) -> String {
    let text = sample_file("sysstat/mpstat-P-ALL.txt");
    let mut cols: Vec<String> = Vec::new();
    let mut out = String::new();
    for l in text.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        if w.contains(&"CPU") && w.contains(&"%soft") {
            cols = w.iter().map(|s| s.to_string()).collect();
        }
        let cpu = cols.iter().position(|c| c == "CPU");
        if let Some(ci) = cpu {
            if w.len() == cols.len() && w[ci] == "0" {
                let mut v: Vec<String> = w.iter().map(|s| s.to_string()).collect();
                for (i, c) in cols.iter().enumerate() {
                    v[i] = match c.as_str() {
                        "%soft" => format!("{soft:.2}"),
                        "%idle" => format!("{:.2}", 100.0 - soft - 1.0),
                        "%usr" | "%sys" => "0.50".into(),
                        c if c.starts_with('%') => "0.00".into(),
                        _ => v[i].clone(),
                    };
                }
                out.push_str(&v.join("  "));
                out.push('\n');
                continue;
            }
        }
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// `/proc/interrupts` with every interrupt of the NIC's queue lines moved to CPU 0.
fn interrupts_on_cpu0(text: &str) -> String {
    text.lines()
        .map(|l| {
            let queue = [
                "virtio2-input",
                "virtio2-output",
                "virtio3-rx",
                "virtio3-tx",
            ]
            .iter()
            .any(|q| l.contains(q));
            if !queue {
                return format!("{l}\n");
            }
            let w: Vec<&str> = l.split_whitespace().collect();
            let total: u64 = w[1].parse::<u64>().unwrap() + w[2].parse::<u64>().unwrap();
            let rest = w[3..].join("   ");
            format!("{:>4} {:>10} {:>10} {rest}\n", w[0], total, 0)
        })
        .collect()
}

/// Case S4: the suspect (slow pool) has a security agent's out-of-tree modules
/// `resguard_linux` (used by `secmodel_linux`) tainting its kernel `OE`, CPU 0 at 95 % soft-IRQ,
/// other NIC firmware and every NIC interrupt on CPU 0.
fn s4_pair(root: &Path) -> (PathBuf, PathBuf) {
    let mut b = base("s4-pool-b");
    let mut s = base("s4-pool-a");
    for e in [&mut b, &mut s] {
        set(
            e,
            "proc/interrupts.start",
            "interrupts",
            fixture("captured-a/proc-interrupts-1.txt"),
        );
        set(
            e,
            "proc/interrupts.end",
            "interrupts",
            fixture("captured-a/proc-interrupts-2.txt"),
        );
        set(
            e,
            "net/irq-affinity.tsv",
            "irq-affinity",
            fixture("captured-b/irq-affinity.txt"),
        );
        set(
            e,
            "sysstat/mpstat-P-ALL.txt",
            "mpstat",
            sample_file("sysstat/mpstat-P-ALL.txt"),
        );
    }
    edit(&mut s, "proc/modules", |t| {
        format!(
            "resguard_linux 364544 2 secmodel_linux, Live 0xffffffffc0b00000 (OE)\nsecmodel_linux 45056 1 - Live 0xffffffffc0a90000 (OE)\n{t}"
        )
    });
    edit(&mut s, "kernel/tainted", |_| "12288\n".into());
    edit(&mut b, "net/ethtool/eth0/ethtool-i.txt", |t| {
        t.replace("firmware-version: ", "firmware-version: 1.0.11")
    });
    edit(&mut s, "net/ethtool/eth0/ethtool-i.txt", |t| {
        t.replace("firmware-version: ", "firmware-version: 1.2.7")
    });
    edit(&mut s, "proc/interrupts.start", interrupts_on_cpu0);
    edit(&mut s, "proc/interrupts.end", interrupts_on_cpu0);
    edit(&mut s, "sysstat/mpstat-P-ALL.txt", |_| {
        mpstat_soft_on_cpu0(95.0)
    });
    (
        write_bundle(root, "s4-baseline", &b),
        write_bundle(root, "s4-suspect", &s),
    )
}

fn run_diff(b: &Path, s: &Path) -> DiffReport {
    let l = Limits::default();
    let b = diff::load(b, &l, true).unwrap();
    let s = diff::load(s, &l, true).unwrap();
    diff::compare(&b, &s)
}

fn top(r: &DiffReport) -> Vec<&Difference> {
    r.differences.iter().filter(|d| !d.noise).collect()
}

fn show(r: &DiffReport) -> String {
    top(r)
        .iter()
        .take(15)
        .map(|d| format!("{:6.1} [{}] {} — {}", d.score, d.kind, d.subject, d.reason))
        .collect::<Vec<_>>()
        .join("\n")
}

fn position(r: &DiffReport, pred: impl Fn(&Difference) -> bool) -> Option<usize> {
    r.differences.iter().position(pred)
}

#[test]
fn s2_the_colocated_process_owning_the_connections_ranks_first_then_the_jdk() {
    let d = tempfile::tempdir().unwrap();
    let (b, s) = s2_pair(d.path());
    let r = run_diff(&b, &s);
    println!("{}", show(&r));
    let t = top(&r);
    assert!(t.len() >= 5, "{}", show(&r));
    assert_eq!(t[0].kind, "process-with-connections", "{}", show(&r));
    assert_eq!(t[0].subject, "process `bootstrap`");
    // 400 added to the 4 the real capture already shows.
    assert!(t[0]
        .baseline
        .as_deref()
        .unwrap()
        .contains("404 ESTABLISHED"));
    assert_eq!(t[0].suspect, None);
    assert!(
        t[0].link.is_some(),
        "owns most of the baseline's connections"
    );
    assert!(
        t[0].evidence.iter().any(|e| e.side == diff::Which::Baseline
            && e.artifact.ends_with("ss-tanp.end")
            && e.excerpt.iter().any(|l| l.text.contains("bootstrap"))),
        "cites the baseline's ss lines: {:?}",
        t[0].evidence
    );
    assert_eq!(t[1].kind, "jvm-runtime", "{}", show(&r));
    assert!(t[1]
        .baseline
        .as_deref()
        .unwrap()
        .starts_with("BiSheng 1.8.0_342"));
    assert!(t[1]
        .suspect
        .as_deref()
        .unwrap()
        .starts_with("OpenJDK 1.8.0_342"));
    assert!(!t[1].evidence.is_empty());
    // Thread pools rank above every sysctl and ulimit difference, which rank below the JDK.
    let pool = position(&r, |d| {
        d.kind == "jvm-thread-pool" && d.subject.contains("XNIO-1 task-")
    })
    .expect("the XNIO task pool differs");
    let first_tuning = position(&r, |d| d.kind == "sysctl" || d.kind == "ulimit")
        .expect("sysctl and ulimit differences are listed");
    assert!(pool < first_tuning, "{}", show(&r));
    assert!(first_tuning > 1);
    let sig = r
        .differences
        .iter()
        .find(|d| d.subject.contains("RLIMIT_SIGPENDING"))
        .expect("pending signals differ");
    assert_eq!(sig.baseline.as_deref(), Some("254060"));
    assert_eq!(sig.suspect.as_deref(), Some("2088097"));
    // The connection-tracking subtree, on the suspect only, is one difference, not 54.
    let ct = r
        .differences
        .iter()
        .find(|d| d.subject == "sysctl net.netfilter.*")
        .expect("one difference for the subtree");
    assert_eq!(ct.baseline, None);
    assert!(ct.reason.contains("nf_conntrack_max"), "{}", ct.reason);
    assert!(!r
        .differences
        .iter()
        .any(|d| d.subject.contains("nf_conntrack_buckets")));
    // Counters such as fs.file-nr are never compared.
    assert!(!r.differences.iter().any(|d| d.subject.contains("file-nr")));
}

#[test]
fn s4_the_tainting_module_on_the_suspect_outranks_nic_and_irq_differences() {
    let d = tempfile::tempdir().unwrap();
    let (b, s) = s4_pair(d.path());
    let r = run_diff(&b, &s);
    println!("{}", show(&r));
    let t = top(&r);
    assert_eq!(t[0].kind, "module-tainting", "{}", show(&r));
    let module = position(&r, |d| d.subject == "module `resguard_linux`").expect("listed");
    assert!(r.differences[module]
        .suspect
        .as_deref()
        .unwrap()
        .contains("(OE)"));
    assert!(
        r.differences[module].link.is_some(),
        "linked to the suspect's soft-IRQ saturation: {}",
        r.differences[module].reason
    );
    let firmware = position(&r, |d| d.kind == "nic-firmware").expect("firmware differs");
    let irq = position(&r, |d| d.kind == "irq-spread").expect("IRQ spread differs");
    assert!(module < firmware && module < irq, "{}", show(&r));
    for (i, d) in r.differences.iter().enumerate() {
        if matches!(d.area, "nic" | "irq") {
            assert!(i > module, "{}", show(&r));
        }
    }
    assert!(r
        .differences
        .iter()
        .any(|d| d.kind == "kernel-taint" && !d.noise));
    assert!(r
        .differences
        .iter()
        .any(|d| d.subject == "busiest CPU's mean %soft" && !d.noise));
}

#[test]
fn identical_bundles_give_no_difference() {
    let d = tempfile::tempdir().unwrap();
    let (b, _) = s2_pair(d.path());
    let r = run_diff(&b, &b);
    assert!(r.differences.is_empty(), "{}", show(&r));
    assert_eq!(r.above_noise, 0);
    assert!(r.not_compared.is_empty());
}

#[test]
fn the_healthy_sample_compared_with_itself_is_quiet_through_the_command_line() {
    let out = tempfile::tempdir().unwrap();
    let (html, json) = (out.path().join("d.html"), out.path().join("d.json"));
    let b = healthy_sample();
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("diff")
        .arg(&b)
        .arg(&b)
        .arg("-o")
        .arg(&html)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["above_noise"], 0);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("Content-Security-Policy"));
    assert!(!page.contains("http://") && !page.contains("https://"));
}

/// Two healthy runs differ by a few percent of utilisation and latency: nothing above noise.
#[test]
fn a_few_percent_of_run_to_run_variation_stays_below_the_noise_threshold() {
    let d = tempfile::tempdir().unwrap();
    let f = std::fs::File::open(healthy_sample()).unwrap();
    tar::Archive::new(flate2::read::GzDecoder::new(f))
        .unpack(d.path().join("b"))
        .unwrap();
    tar::Archive::new(flate2::read::GzDecoder::new(
        std::fs::File::open(healthy_sample()).unwrap(),
    ))
    .unpack(d.path().join("s"))
    .unwrap();
    let top_dir = |p: PathBuf| {
        std::fs::read_dir(p)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path()
    };
    let (b, s) = (top_dir(d.path().join("b")), top_dir(d.path().join("s")));
    // The second run: every utilisation and latency value 4 % higher (idle adjusted down).
    for name in ["sysstat/mpstat-P-ALL.txt", "sysstat/iostat-x.txt"] {
        let p = s.join(name);
        let text = std::fs::read_to_string(&p).unwrap();
        let bumped: String = text
            .lines()
            .map(|l| {
                l.split(' ')
                    .map(|w| match w.parse::<f64>() {
                        Ok(v) if w.contains('.') && v < 60.0 => format!("{:.2}", v * 1.04),
                        Ok(v) if w.contains('.') && (60.0..=100.0).contains(&v) => {
                            format!("{:.2}", v - (100.0 - v) * 0.04)
                        }
                        _ => w.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect();
        assert_ne!(text, bumped);
        std::fs::write(&p, bumped).unwrap();
    }
    let r = run_diff(&b, &s);
    assert_eq!(r.above_noise, 0, "{}", show(&r));
    assert!(
        r.differences.iter().any(|d| d.area == "cpu" && d.noise),
        "the variation is found, and listed as noise"
    );
}

#[test]
fn the_html_page_leads_with_the_top_differences_and_folds_the_rest() {
    let d = tempfile::tempdir().unwrap();
    let (b, s) = s2_pair(d.path());
    let r = run_diff(&b, &s);
    let page = diff::html::render(&r).unwrap();
    let top = page.find("id=\"top\"").unwrap();
    let all = page.find("id=\"all\"").unwrap();
    let first = page.find("process <code>bootstrap</code>").unwrap();
    assert!(top < first && first < all);
    assert!(page[all..].contains("<details"));
    assert!(page.contains("Content-Security-Policy"));
    assert!(!page.contains("http://") && !page.contains("https://"));
}

#[test]
fn the_command_line_exits_1_on_differences_and_2_on_an_unreadable_bundle() {
    let d = tempfile::tempdir().unwrap();
    let (b, s) = s4_pair(d.path());
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .args(["diff", "-q"])
        .arg(&b)
        .arg(&s)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let o = Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("diff")
        .arg(&b)
        .arg(d.path().join("missing.tar.gz"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let help = Command::new(env!("CARGO_BIN_EXE_rca"))
        .args(["diff", "--help"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("Exit status"));
}

#[test]
fn s4_the_module_hot_in_the_suspects_profile_ranks_first() {
    // The S4 pair plus real perf 6.1 profiles: the baseline's unchanged, the suspect's with the
    // resguard_linux frames (see parsers/tests/fixtures/PROVENANCE.md).
    let d = tempfile::tempdir().unwrap();
    let (b, s) = s4_pair(d.path());
    std::fs::create_dir_all(b.join("perf")).unwrap();
    std::fs::create_dir_all(s.join("perf")).unwrap();
    std::fs::write(
        b.join("perf/perf-script.txt"),
        fixture("perf/perf6.1-script-loopback-300.txt"),
    )
    .unwrap();
    std::fs::write(
        s.join("perf/perf-script.txt"),
        fixture("perf/perf6.1-script-loopback-300-resguard-derived.txt"),
    )
    .unwrap();
    let r = run_diff(&b, &s);
    println!("{}", show(&r));
    let t = top(&r);
    let module = |d: &&Difference| d.subject.contains("resguard_linux");
    assert!(module(&t[0]), "{}", show(&r));
    let hot = position(&r, |d| {
        d.kind == "profile-module" && d.subject.contains("resguard_linux")
    })
    .expect("profile difference for the module");
    assert!(r.differences[hot].link.is_some(), "{}", show(&r));
    assert!(r.differences[hot]
        .evidence
        .iter()
        .any(|e| e.side == diff::Which::Suspect
            && e.excerpt
                .iter()
                .any(|l| l.text.contains("[resguard_linux]"))));
    // The resguard module difference in the kernel comparison is linked to the hot profile.
    let k = position(&r, |d| {
        d.kind == "module-tainting" && d.subject.contains("resguard_linux")
    })
    .unwrap();
    assert!(r.differences[k]
        .link
        .as_deref()
        .unwrap_or("")
        .contains("CPU profile"));
    // NIC firmware and IRQ differences rank below both.
    for kind in ["nic-firmware", "irq-spread"] {
        if let Some(p) = position(&r, |d| d.kind == kind) {
            assert!(p > hot && p > k, "{kind} at {p}: {}", show(&r));
        }
    }
}

#[test]
fn the_diff_page_draws_a_differential_flame_graph_when_both_sides_have_stacks() {
    let d = tempfile::tempdir().unwrap();
    let (b, s) = s4_pair(d.path());
    for (dir, f) in [
        (&b, "perf/perf6.1-script-loopback-300.txt"),
        (&s, "perf/perf6.1-script-loopback-300-resguard-derived.txt"),
    ] {
        std::fs::create_dir_all(dir.join("perf")).unwrap();
        std::fs::write(dir.join("perf/perf-script.txt"), fixture(f)).unwrap();
    }
    let r = run_diff(&b, &s);
    let html = diff::html::render(&r).unwrap();
    let i = html
        .find("<div class=\"flame\"><svg")
        .expect("differential flame graph");
    let flame = &html[i..i + html[i..].find("</svg></div>").expect("flame graph ends")];
    assert!(flame.contains("secmodel_check"));
    assert!(!flame.contains("<script"), "inferno's script is left out");
    // Without stacks on one side the page says why.
    let (b2, s2) = s4_pair(&d.path().join("plain"));
    let html = diff::html::render(&run_diff(&b2, &s2)).unwrap();
    assert!(html.contains("no stack profile"));
}

#[test]
fn configuration_files_are_compared_key_by_key() {
    // Real files (a ZooKeeper conf from the corpus, the docker-yarn-cluster yarn-site.xml), with
    // snapCount raised and the YARN virtual-memory check turned off on the suspect.
    let d = tempfile::tempdir().unwrap();
    let zoo = std::fs::read_dir(repo().join("parsers/tests/fixtures/zookeeper"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.to_string_lossy().ends_with(".cfg"))
        .expect("a zoo.cfg fixture");
    let zoo = std::fs::read_to_string(zoo).unwrap();
    let yarn = fixture("hadoop-conf/docker-yarn-cluster__yarn-site.xml");
    let write = |side: &str, z: &str, y: &str| {
        let root = d.path().join(side);
        std::fs::create_dir_all(root.join("configs/etc/zookeeper/conf")).unwrap();
        std::fs::create_dir_all(root.join("configs/etc/hadoop")).unwrap();
        std::fs::write(root.join("configs/etc/zookeeper/conf/zoo.cfg"), z).unwrap();
        std::fs::write(root.join("configs/etc/hadoop/yarn-site.xml"), y).unwrap();
        root
    };
    let b = write("b", &zoo, &yarn);
    let s = write(
        "s",
        &format!("{zoo}snapCount=500000\n"),
        &yarn.replace(
            "</configuration>",
            "<property><name>yarn.nodemanager.vmem-check-enabled</name><value>false</value></property>\n</configuration>",
        ),
    );
    let r = run_diff(&b, &s);
    let snap = r
        .differences
        .iter()
        .find(|x| x.kind == "config-key" && x.subject == "zoo.cfg: snapCount")
        .unwrap_or_else(|| panic!("{}", show(&r)));
    assert_eq!(snap.suspect.as_deref(), Some("500000"));
    assert!(snap.reason.contains("known to matter"));
    assert!(snap.evidence.iter().any(|e| e.side == diff::Which::Suspect
        && e.excerpt.iter().any(|l| l.text == "snapCount=500000")));
    let vmem = r
        .differences
        .iter()
        .find(|x| x.subject == "yarn-site.xml: yarn.nodemanager.vmem-check-enabled")
        .unwrap_or_else(|| panic!("{}", show(&r)));
    assert_eq!(vmem.suspect.as_deref(), Some("false"));
    assert!(!vmem.noise);
    // Identical files: nothing.
    let r = run_diff(&b, &b);
    assert!(r.differences.iter().all(|x| x.kind != "config-key"));
}

/// A sosreport baseline against an rca-collector suspect: both sides are analyzed by their own
/// layout and compared by their facts.
#[test]
fn a_sosreport_and_a_collector_bundle_are_compared_across_layouts() {
    let repo = crate::common::repo();
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("d.json");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_rca"))
        .arg("diff")
        .arg(repo.join("analyzer/tests/fixtures/sosreport/debian12-sos4.12"))
        .arg(crate::common::healthy_sample())
        .args(["-q", "--json"])
        .arg(&json)
        .output()
        .unwrap();
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let d: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(d["baseline"]["layout"], "sosreport");
    assert_eq!(d["suspect"]["layout"], "rca-collector");
    let subjects: Vec<&str> = d["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["subject"].as_str().unwrap())
        .collect();
    // The two kernels differ, and the comparison says so from each side's own files.
    assert!(subjects.contains(&"kernel release"), "{subjects:?}");
}

#[test]
fn sysctl_keys_an_unprivileged_collection_could_not_read_are_unknown_not_unset() {
    // Both captured on one machine a moment apart: as root, and as `nobody` (16 keys denied).
    // The suspect also has a wider `tcp_rmem`, a tab-separated vector in the file.
    let d = tempfile::tempdir().unwrap();
    let b = write_bundle(d.path(), "b", &base("b"));
    let mut s_entries = base("b");
    let nobody = fixture("captured-b/sysctl-a-nobody.txt").replace(
        "net.ipv4.tcp_rmem = 4096\t131072\t33554432",
        "net.ipv4.tcp_rmem = 4096\t131072\t16777216",
    );
    set(&mut s_entries, "kernel/sysctl-a.txt", "sysctl", nobody);
    let s = write_bundle(d.path(), "s", &s_entries);
    let r = run_diff(&b, &s);
    let sysctl: Vec<&Difference> = r
        .differences
        .iter()
        .filter(|d| d.subject.starts_with("sysctl"))
        .collect();
    let subjects: Vec<&str> = sysctl.iter().map(|d| d.subject.as_str()).collect();
    assert_eq!(subjects, ["sysctl net.ipv4.tcp_rmem"], "{}", show(&r));
    assert_eq!(sysctl[0].baseline.as_deref(), Some("4096 131072 33554432"));
    assert_eq!(sysctl[0].suspect.as_deref(), Some("4096 131072 16777216"));
    let gap = r
        .not_compared
        .iter()
        .find(|g| g.what.contains("unreadable on the suspect"))
        .expect("the unreadable keys are listed as not compared");
    // The root run has 9 of the 16 denied keys (procps 4 skips `stable_secret` even as root).
    assert!(
        gap.what.starts_with(
            "sysctl: 9 keys unreadable on the suspect (9 permission denied, 0 read errors)"
        ),
        "{}",
        gap.what
    );
    assert!(gap.what.contains("`kernel.cad_pid`"), "{}", gap.what);
    assert!(r.differences.iter().all(|d| {
        !d.baseline.as_deref().unwrap_or("").contains('\t')
            && !d.suspect.as_deref().unwrap_or("").contains('\t')
    }));
}
