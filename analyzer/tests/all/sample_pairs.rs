//! The shipped S2 and S4 sample pairs (`sample-bundles/s2-bank-core/`,
//! `sample-bundles/s4-oceanbase-softirq/`), run through the `rca` binary as a user runs it:
//! `rca diff BASELINE SUSPECT -o d.html --json d.json` and `rca analyze SUSPECT --json f.json`.
//!
//! Each case's README.md states what must come first and what must not outrank it; these tests
//! hold the product to that, read the JSON a user would read, and open the cited artifact lines
//! to check that the evidence points at the text the difference is about.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn case(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("sample-bundles")
        .join(name)
}

/// Runs `rca` with `args`; returns the exit code and stdout.
fn rca(args: &[&std::ffi::OsStr]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rca"))
        .args(args)
        .output()
        .expect("rca runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked"),
        "rca {args:?} panicked:\n{stderr}"
    );
    (
        out.status.code().expect("rca exits, not killed"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn read_json(p: &Path) -> Value {
    let s = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&s).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `rca diff <case>/baseline <case>/suspect -o … --json …`: exit code, stdout, report JSON.
fn diff(name: &str) -> (i32, String, Value) {
    let dir = case(name);
    let tmp = tempfile::tempdir().unwrap();
    let html = tmp.path().join("d.html");
    let json = tmp.path().join("d.json");
    let (code, stdout) = rca(&[
        "diff".as_ref(),
        dir.join("baseline").as_os_str(),
        dir.join("suspect").as_os_str(),
        "-o".as_ref(),
        html.as_os_str(),
        "--json".as_ref(),
        json.as_os_str(),
    ]);
    assert!(html.is_file(), "{name}: no HTML report written");
    (code, stdout, read_json(&json))
}

/// `rca analyze <case>/<side> -o … --json …`: exit code, findings JSON.
fn analyze(name: &str, side: &str) -> (i32, Value) {
    let tmp = tempfile::tempdir().unwrap();
    let json = tmp.path().join("f.json");
    let (code, _) = rca(&[
        "analyze".as_ref(),
        "-q".as_ref(),
        case(name).join(side).as_os_str(),
        "-o".as_ref(),
        tmp.path().join("f.html").as_os_str(),
        "--json".as_ref(),
        json.as_os_str(),
    ]);
    (code, read_json(&json))
}

fn s(v: &Value, k: &str) -> String {
    match &v[k] {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The differences above the noise threshold, in the report's order.
fn ranked(report: &Value) -> Vec<Value> {
    let all = report["differences"].as_array().expect("differences");
    let above: Vec<Value> = all
        .iter()
        .filter(|d| d["noise"] == Value::Bool(false))
        .cloned()
        .collect();
    assert_eq!(
        above.len() as u64,
        report["above_noise"].as_u64().unwrap(),
        "above_noise counts the differences not marked noise"
    );
    let scores: Vec<f64> = above.iter().map(|d| d["score"].as_f64().unwrap()).collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "differences are ranked by score: {scores:?}"
    );
    above
}

fn summary(diffs: &[Value]) -> String {
    diffs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            format!(
                "{i:>3} {:>6} [{}] {} {}: {} → {}",
                d["score"],
                s(d, "area"),
                s(d, "kind"),
                s(d, "subject"),
                s(d, "baseline"),
                s(d, "suspect")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Index of the first difference matching `f`, with the ranking in the panic message.
fn index(diffs: &[Value], what: &str, f: impl Fn(&Value) -> bool) -> usize {
    diffs
        .iter()
        .position(f)
        .unwrap_or_else(|| panic!("no difference {what} above noise:\n{}", summary(diffs)))
}

/// The text of the lines an evidence item cites, read from the bundle directory of its side.
fn cited(case_name: &str, ev: &Value) -> Vec<String> {
    let side = s(ev, "side");
    let artifact = s(ev, "artifact");
    let path = case(case_name).join(&side).join(&artifact);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines: Vec<&str> = text.lines().collect();
    ev["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            let n = n.as_u64().unwrap() as usize;
            assert!(
                n >= 1 && n <= lines.len(),
                "{side}/{artifact}: cited line {n} of {}",
                lines.len()
            );
            lines[n - 1].to_string()
        })
        .collect()
}

/// The evidence items of `d` on `side` citing `artifact`.
fn evidence<'a>(d: &'a Value, side: &str, artifact: &str) -> Vec<&'a Value> {
    d["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| s(e, "side") == side && s(e, "artifact") == artifact)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// S2: fast VM with BiSheng JDK and a co-located `bootstrap` vs slow TaiShan with OpenJDK

const S2: &str = "s2-bank-core";

#[test]
fn s2_diff_puts_the_colocated_process_first_then_the_jdk() {
    let (code, stdout, report) = diff(S2);
    assert_eq!(code, 1, "differences above noise exit 1:\n{stdout}");
    assert_eq!(s(&report["baseline"], "hostname"), "app01.example");
    assert_eq!(s(&report["suspect"], "hostname"), "app02.example");
    let d = ranked(&report);
    let all = summary(&d);

    // 1. The process that runs on the baseline only and owns most of its connections.
    let p = &d[0];
    assert_eq!(s(p, "kind"), "process-with-connections", "{all}");
    assert_eq!(s(p, "subject"), "process `bootstrap`", "{all}");
    assert!(
        s(p, "baseline").contains("520 ESTABLISHED"),
        "{}",
        s(p, "baseline")
    );
    assert!(p["suspect"].is_null(), "absent on the suspect");
    assert!(
        s(p, "reason").contains("owns 520 of its"),
        "{}",
        s(p, "reason")
    );
    let ss = evidence(p, "baseline", "net/ss-tanp.start");
    assert!(!ss.is_empty(), "cites the baseline's `ss -tanp`");
    let lines = cited(S2, ss[0]);
    assert!(
        lines[0].starts_with("State"),
        "the header first: {:?}",
        lines[0]
    );
    assert!(lines.len() > 1);
    for l in &lines[1..] {
        assert!(
            l.starts_with("ESTAB") && l.contains("((\"bootstrap\",pid=15505,"),
            "cited `ss` line is one of bootstrap's connections: {l}"
        );
    }
    let ps = evidence(p, "baseline", "system/ps.txt");
    assert!(!ps.is_empty(), "cites the process table");
    assert!(cited(S2, ps[0]).iter().all(|l| l.contains("bootstrap")));

    // 2. The JDK vendor and build.
    let j = &d[1];
    assert_eq!(s(j, "kind"), "jvm-runtime", "{all}");
    assert!(
        s(j, "baseline").starts_with("BiSheng 1.8.0_272"),
        "{}",
        s(j, "baseline")
    );
    assert!(
        s(j, "suspect").starts_with("OpenJDK 1.8.0_242"),
        "{}",
        s(j, "suspect")
    );
    for side in ["baseline", "suspect"] {
        let ev = evidence(j, side, "jvm/27054/java-version.txt");
        assert!(!ev.is_empty(), "{side}: cites `java -version`");
        let text = cited(S2, ev[0]).join("\n");
        let vendor = if side == "baseline" {
            "Bisheng"
        } else {
            "(build 1.8.0_242-b08)"
        };
        assert!(text.contains(vendor), "{side}: {text}");
    }

    // The thread-pool sizes differ as the case says, below the JDK.
    let xnio_task = index(&d, "for `XNIO-1 task-`", |x| {
        s(x, "kind") == "jvm-thread-pool" && s(x, "subject").contains("`XNIO-1 task-`")
    });
    let xnio_io = index(&d, "for `XNIO-1 I/O-`", |x| {
        s(x, "kind") == "jvm-thread-pool" && s(x, "subject").contains("`XNIO-1 I/O-`")
    });
    assert_eq!(s(&d[xnio_task], "baseline"), "256 threads");
    assert_eq!(s(&d[xnio_task], "suspect"), "1024 threads");
    assert_eq!(s(&d[xnio_io], "baseline"), "32 threads");
    assert_eq!(s(&d[xnio_io], "suspect"), "128 threads");
    assert!(xnio_task > 1 && xnio_io > 1, "{all}");

    // Tuning and limits rank below the process and the JDK, and below the thread pools.
    let tuning: Vec<usize> = (0..d.len())
        .filter(|&i| matches!(s(&d[i], "area").as_str(), "sysctl" | "limits"))
        .collect();
    assert!(
        tuning.len() >= 10,
        "the suspect's extra tuning is reported:\n{all}"
    );
    for &i in &tuning {
        assert!(
            i > xnio_task && i > xnio_io,
            "{} ranks above the thread pools:\n{all}",
            s(&d[i], "subject")
        );
    }
    for key in [
        "sysctl net.core.rmem_max",
        "sysctl net.core.wmem_max",
        "sysctl net.core.somaxconn",
        "sysctl net.core.netdev_max_backlog",
        "sysctl net.core.netdev_budget",
        "sysctl net.nf_conntrack_max",
    ] {
        let i = index(&d, key, |x| s(x, "subject") == key);
        assert_eq!(s(&d[i], "area"), "sysctl");
        let ev = evidence(&d[i], "suspect", "kernel/sysctl-a.txt");
        assert!(!ev.is_empty(), "{key}: cites the suspect's sysctl -a");
        let name = key.trim_start_matches("sysctl ");
        assert!(
            cited(S2, ev[0])
                .iter()
                .all(|l| l.starts_with(&format!("{name} = "))),
            "{key}: {:?}",
            cited(S2, ev[0])
        );
    }
    let nf = index(&d, "for the netfilter keys", |x| {
        s(x, "subject") == "sysctl net.netfilter.*"
    });
    assert!(d[nf]["baseline"].is_null(), "no conntrack on the baseline");
    // The pending-signals limit is the kernel's default for each host's RAM (threads-max / 2):
    // listed, with both values and its lines, but as noise.
    let every = report["differences"].as_array().unwrap();
    let sig = every
        .iter()
        .find(|x| s(x, "kind") == "ulimit" && s(x, "subject").contains("RLIMIT_SIGPENDING"))
        .unwrap_or_else(|| panic!("RLIMIT_SIGPENDING listed:\n{}", summary(every)));
    assert_eq!(s(sig, "baseline"), "254060");
    assert_eq!(s(sig, "suspect"), "2088097");
    assert_eq!(sig["noise"], Value::Bool(true), "{}", s(sig, "reason"));
    assert!(
        s(sig, "reason").contains("sizes this default from the host"),
        "{}",
        s(sig, "reason")
    );
    let ul = evidence(sig, "suspect", "system/ulimit-a.txt");
    let lim = evidence(sig, "suspect", "jvm/27054/limits");
    let line = if let Some(e) = ul.first() {
        cited(S2, e).join("\n")
    } else {
        cited(
            S2,
            lim.first().expect("cites ulimit -a or the JVM's limits"),
        )
        .join("\n")
    };
    assert!(line.contains("2088097"), "{line}");
}

#[test]
fn s2_sides_analyze_as_a_healthy_vm_and_an_oversized_pool() {
    let (code, f) = analyze(S2, "baseline");
    assert_eq!(
        code, 0,
        "baseline: nothing at warning or above: {:#}",
        f["findings"]
    );
    let (code, f) = analyze(S2, "suspect");
    assert_eq!(code, 1, "suspect: findings");
    let findings = f["findings"].as_array().unwrap();
    let warn: Vec<&Value> = findings
        .iter()
        .filter(|x| matches!(s(x, "severity").as_str(), "warning" | "critical"))
        .collect();
    assert_eq!(warn.len(), 1, "{:#}", f["findings"]);
    assert_eq!(s(warn[0], "rule_id"), "jvm.thread-pool-oversized");
    assert!(
        s(warn[0], "title").contains("1024"),
        "{}",
        s(warn[0], "title")
    );
    // Low CPU, disk and NIC use: no saturation finding on either side.
    for x in findings {
        let id = s(x, "rule_id");
        assert!(
            !id.starts_with("softirq.") && !id.starts_with("disk.") && !id.starts_with("cpu."),
            "unexpected {id}: {}",
            s(x, "title")
        );
    }
}

// ---------------------------------------------------------------------------------------------
// S4: soft-IRQ saturation on the IRQ cores of a Kunpeng host running a third-party module

const S4: &str = "s4-oceanbase-softirq";

fn is_nic_or_irq(d: &Value) -> bool {
    matches!(s(d, "area").as_str(), "nic" | "irq")
        || (s(d, "kind") == "finding"
            && (s(d, "subject").contains("`nic.") || s(d, "subject").contains("`irq.")))
}

#[test]
fn s4_diff_puts_the_hot_module_above_nic_and_irq_differences() {
    let (code, stdout, report) = diff(S4);
    assert_eq!(code, 1, "differences above noise exit 1:\n{stdout}");
    assert_eq!(s(&report["baseline"], "hostname"), "ob-b01.example");
    assert_eq!(s(&report["suspect"], "hostname"), "ob-a01.example");
    let d = ranked(&report);
    let all = summary(&d);

    // 1. The module: loaded on the suspect only, tainting, and hot in its profile.
    let m = &d[0];
    assert_eq!(s(m, "kind"), "module-tainting", "{all}");
    assert_eq!(s(m, "subject"), "module `resguard_linux`", "{all}");
    assert!(m["baseline"].is_null());
    assert!(s(m, "suspect").contains("(OE)"), "{}", s(m, "suspect"));
    assert!(
        s(m, "link").contains("CPU profile"),
        "linked to the profile: {}",
        s(m, "link")
    );
    let ev = evidence(m, "suspect", "proc/modules");
    assert!(!ev.is_empty(), "cites /proc/modules");
    let lines = cited(S4, ev[0]);
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("resguard_linux ") && l.ends_with("(OE)")),
        "{lines:?}"
    );

    // The same module's share of the profile, and the kernel taint, rank next.
    let prof = index(&d, "for the module on busy stacks", |x| {
        s(x, "kind") == "profile-module" && s(x, "subject").contains("`resguard_linux`")
    });
    let ev = evidence(&d[prof], "suspect", "perf/perf-script.txt");
    assert!(!ev.is_empty(), "cites the suspect's perf script");
    let lines = cited(S4, ev[0]);
    assert!(
        lines.iter().any(|l| l.contains("[resguard_linux]")),
        "{lines:?}"
    );
    let taint = index(&d, "for the kernel taint", |x| {
        s(x, "kind") == "kernel-taint"
    });
    assert!(
        s(&d[taint], "suspect").starts_with("12288"),
        "{}",
        s(&d[taint], "suspect")
    );
    let ev = evidence(&d[taint], "suspect", "kernel/tainted");
    assert_eq!(cited(S4, ev[0]), vec!["12288".to_string()]);

    // NIC driver/firmware/queues/rings and IRQ placement differ too, all below the module.
    let nic: Vec<usize> = (0..d.len()).filter(|&i| is_nic_or_irq(&d[i])).collect();
    for kind in ["nic-driver", "nic-firmware", "nic-queues", "nic-rings"] {
        assert!(
            nic.iter().any(|&i| s(&d[i], "kind") == kind),
            "a {kind} difference above noise:\n{all}"
        );
    }
    for &i in &nic {
        assert!(
            i > prof && i > taint,
            "{} [{}] ranks above the module:\n{all}",
            s(&d[i], "subject"),
            s(&d[i], "kind")
        );
    }
    let drv = index(&d, "for the NIC driver", |x| s(x, "kind") == "nic-driver");
    assert_eq!(s(&d[drv], "baseline"), "mlx5_core");
    assert_eq!(s(&d[drv], "suspect"), "hinic3");
}

#[test]
fn s4_analyze_puts_the_module_hot_path_first() {
    let (code, f) = analyze(S4, "suspect");
    assert_eq!(code, 1, "suspect: findings");
    let findings = f["findings"].as_array().unwrap();
    let ids: Vec<String> = findings.iter().map(|x| s(x, "rule_id")).collect();
    let first = &findings[0];
    assert_eq!(ids[0], "profile.module-hot-path", "{ids:?}");
    assert_eq!(s(first, "severity"), "critical");
    assert!(
        s(first, "title").contains("`resguard_linux`"),
        "{}",
        s(first, "title")
    );

    // The same bundle's NIC, IRQ and soft-IRQ findings are there, below it.
    for id in [
        "softirq.saturation",
        "nic.queues",
        "nic.rx-ring",
        "kernel.taint",
    ] {
        let i = ids
            .iter()
            .position(|x| x == id)
            .unwrap_or_else(|| panic!("{id} in {ids:?}"));
        assert!(i > 0, "{id} above the module: {ids:?}");
    }
    let sat = &findings[ids.iter().position(|x| x == "softirq.saturation").unwrap()];
    assert!(s(sat, "title").contains("CPU 0-23"), "{}", s(sat, "title"));

    // Evidence: the samples with the module's frames, in the suspect's perf script.
    let ev = first["evidence"].as_array().unwrap();
    let perf = ev
        .iter()
        .find(|e| s(e, "artifact") == "perf/perf-script.txt")
        .expect("cites perf/perf-script.txt");
    let path = case(S4).join("suspect/perf/perf-script.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cited: Vec<&str> = perf["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| lines[n.as_u64().unwrap() as usize - 1])
        .collect();
    assert!(
        cited
            .iter()
            .filter(|l| l.ends_with("([resguard_linux])"))
            .count()
            >= 3,
        "{cited:?}"
    );
    assert!(
        cited.iter().all(|l| l.contains("[resguard_linux]")
            || l.contains("cpu-clock")
            || l.contains("[kernel.kallsyms]")),
        "{cited:?}"
    );
}

#[test]
fn s4_baseline_is_healthy() {
    let (code, f) = analyze(S4, "baseline");
    assert_eq!(code, 0, "nothing at warning or above: {:#}", f["findings"]);
    for x in f["findings"].as_array().unwrap() {
        let id = s(x, "rule_id");
        assert!(
            !id.starts_with("kernel.")
                && !id.starts_with("softirq.")
                && id != "profile.module-hot-path",
            "unexpected {id} on the baseline: {}",
            s(x, "title")
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The samples themselves: laid out as the collector writes a bundle, and consistent

fn side_files(dir: &Path, rel: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir.join(rel)).unwrap() {
        let e = e.unwrap();
        let r = rel.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            side_files(dir, &r, out);
        } else {
            out.push(r.to_string_lossy().into_owned());
        }
    }
}

#[test]
fn sample_sides_are_laid_out_as_the_collector_writes_them() {
    for name in [S2, S4] {
        for side in ["baseline", "suspect"] {
            let dir = case(name).join(side);
            let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).unwrap();
            let mut lines = manifest.lines();
            assert_eq!(lines.next(), Some("# rca-manifest 1"), "{name}/{side}");
            let mut listed = std::collections::BTreeSet::new();
            for l in lines {
                let f: Vec<&str> = l.split('\t').collect();
                match f[0] {
                    "meta" => assert_eq!(f.len(), 3, "{name}/{side}: {l}"),
                    "artifact" => {
                        assert_eq!(f.len(), 11, "{name}/{side}: {l}");
                        let (path, exit, bytes) = (f[1], f[3], f[7]);
                        listed.insert(path.to_string());
                        let p = dir.join(path);
                        if exit == "0" {
                            let len = std::fs::metadata(&p)
                                .unwrap_or_else(|e| panic!("{name}/{side}/{path}: {e}"))
                                .len();
                            assert_eq!(len.to_string(), bytes, "{name}/{side}/{path}: size");
                        } else if !p.exists() {
                            assert_eq!(bytes, "0", "{name}/{side}/{path}");
                        }
                    }
                    other => panic!("{name}/{side}: record type {other}"),
                }
            }
            let mut files = Vec::new();
            side_files(&dir, Path::new(""), &mut files);
            for f in files {
                assert!(
                    f == "manifest.tsv" || listed.contains(&f),
                    "{name}/{side}: {f} is not in the manifest"
                );
            }
        }
    }
}

fn read(name: &str, side: &str, rel: &str) -> String {
    let p = case(name).join(side).join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `CurrEstab` of a `/proc/net/snmp` text.
fn curr_estab(snmp: &str) -> usize {
    let tcp: Vec<&str> = snmp.lines().filter(|l| l.starts_with("Tcp:")).collect();
    let i = tcp[0]
        .split_whitespace()
        .position(|w| w == "CurrEstab")
        .unwrap();
    tcp[1].split_whitespace().nth(i).unwrap().parse().unwrap()
}

#[test]
fn s2_counts_agree_across_artifacts() {
    for (side, task, io, estab, boot) in [
        ("baseline", 256, 32, 811, 520),
        ("suspect", 1024, 128, 291, 0),
    ] {
        let dump = read(S2, side, "jvm/27054/thread-dump.2.txt");
        let named = |p: &str| dump.lines().filter(|l| l.starts_with(p)).count();
        assert_eq!(named("\"XNIO-1 task-"), task, "{side}");
        assert_eq!(named("\"XNIO-1 I/O-"), io, "{side}");
        let in_dump = named("\"");
        let status = read(S2, side, "jvm/27054/status");
        let threads: usize = status
            .lines()
            .find_map(|l| l.strip_prefix("Threads:"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert_eq!(
            threads,
            in_dump + 3,
            "{side}: the dump's threads and three native ones"
        );
        assert_eq!(
            read(S2, side, "jvm/27054/threads.tsv"),
            format!("{threads}\tjava\n")
        );
        for snap in ["start", "end"] {
            let ss = read(S2, side, &format!("net/ss-tanp.{snap}"));
            let est = ss.lines().filter(|l| l.starts_with("ESTAB")).count();
            assert_eq!(est, estab, "{side} {snap}");
            assert_eq!(
                curr_estab(&read(S2, side, &format!("proc/net/snmp.{snap}"))),
                estab
            );
            let b = ss
                .lines()
                .filter(|l| l.starts_with("ESTAB") && l.contains("((\"bootstrap\","))
                .count();
            assert_eq!(b, boot, "{side} {snap}");
        }
        // The pending-signals limit follows the RAM as threads-max does: half of it.
        let sysctl = read(S2, side, "kernel/sysctl-a.txt");
        let threads_max: u64 = sysctl
            .lines()
            .find_map(|l| l.strip_prefix("kernel.threads-max = "))
            .unwrap()
            .parse()
            .unwrap();
        let ulimit = read(S2, side, "system/ulimit-a.txt");
        assert!(
            ulimit.contains(&format!("(-i) {}", threads_max / 2)),
            "{side}: {ulimit}"
        );
    }
}

#[test]
fn s4_counts_agree_across_artifacts() {
    // The taint value is the letters the modules carry: O (4096) + E (8192).
    assert_eq!(read(S4, "suspect", "kernel/tainted"), "12288\n");
    assert_eq!(read(S4, "baseline", "kernel/tainted"), "0\n");
    let modules = read(S4, "suspect", "proc/modules");
    let oe: Vec<&str> = modules
        .lines()
        .filter(|l| l.ends_with("(OE)"))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(oe, ["resguard_linux", "secmodel_linux"]);
    assert!(!read(S4, "baseline", "proc/modules").contains('('));
    // The module's frames: 51 of the 300 samples, 10 of them in the spin-lock slow path.
    let script = read(S4, "suspect", "perf/perf-script.txt");
    let samples: Vec<&str> = script
        .split("\n\n")
        .filter(|s| !s.trim().is_empty())
        .collect();
    assert_eq!(samples.len(), 300);
    let with_module: Vec<&&str> = samples
        .iter()
        .filter(|s| s.contains("([resguard_linux])"))
        .collect();
    assert_eq!(with_module.len(), 51);
    assert_eq!(
        with_module
            .iter()
            .filter(|s| s
                .lines()
                .nth(1)
                .unwrap()
                .contains(" native_queued_spin_lock_slowpath+"))
            .count(),
        10
    );
    assert!(read(S4, "suspect", "perf/perf-record.log").contains("(300 samples)"));
    for side in ["baseline", "suspect"] {
        for snap in ["start", "end"] {
            let ss = read(S4, side, &format!("net/ss-tanp.{snap}"));
            let est = ss.lines().filter(|l| l.starts_with("ESTAB")).count();
            assert_eq!(
                curr_estab(&read(S4, side, &format!("proc/net/snmp.{snap}"))),
                est,
                "{side} {snap}"
            );
        }
        // 24 of 64 queues on the suspect, one IRQ per queue and port pinned to CPU = queue.
        let aff = read(S4, side, "net/irq-affinity.tsv");
        let queues: Vec<(&str, &str)> = aff
            .lines()
            .filter_map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (f[2].contains("_qp") || f[2].starts_with("mlx5_comp")).then(|| (f[1], f[2]))
            })
            .collect();
        let n = if side == "suspect" { 24 } else { 63 };
        assert_eq!(queues.len(), 2 * n, "{side}");
        for (cpus, irq) in queues {
            let q = match irq.split_once("_qp") {
                Some((_, q)) => q,
                None => irq["mlx5_comp".len()..].split('@').next().unwrap(),
            };
            assert_eq!(cpus, q, "{side}: {irq} on {cpus}");
        }
    }
}
