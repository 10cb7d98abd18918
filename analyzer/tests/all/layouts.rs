//! Bundle layouts whose files hold more than one artifact, or one artifact over many files:
//! SUSE supportconfig (entries split out of each file, cited with the file's line numbers) and
//! OSWatcher (hourly files joined into one series).

use crate::common::repo;
use rca::analysis::{cite, Analysis};
use rca::artifacts::{Artifact, Origin, Outcome};
use rca::bundle::Limits;
use rca::evidence::Evidence;
use rca::rules::meta::Area;
use rca::rules::{Confidence, Finding, Severity};
use std::path::PathBuf;

const SCC: &str = "scc_vm_261202_0430";

fn scc_tree() -> PathBuf {
    repo().join("analyzer/tests/fixtures/supportconfig")
}

fn artifact<'a>(a: &'a Analysis, path: &str) -> &'a Artifact {
    a.collected
        .artifacts
        .iter()
        .find(|x| x.path == path)
        .unwrap_or_else(|| panic!("no artifact {path}"))
}

fn finding(evidence: Vec<Evidence>) -> Finding {
    Finding {
        rule_id: "test.cite",
        explains: Vec::new(),
        area: Area::Cpu,
        title: String::new(),
        severity: Severity::Info,
        confidence: Confidence::Low,
        why: String::new(),
        details: Vec::new(),
        score: 0.0,
        time_range: None,
        evidence,
    }
}

#[test]
fn supportconfig_host_panel_from_its_entries() {
    let a = Analysis::run(&scc_tree(), &Limits::default()).unwrap();
    assert_eq!(a.collected.layout.layout.name(), "supportconfig");
    let id = &a.facts.identity;
    assert_eq!(
        id.os.as_deref(),
        Some("SUSE Linux Enterprise Server 12 SP2")
    );
    assert_eq!(id.kernel_release.as_deref(), Some("4.4.121-92.85-default"));
    assert_eq!(id.hostname.as_deref(), Some("node"));
    let mem = a.facts.memory.mem_total_kib.as_ref().unwrap();
    assert_eq!(mem.value, 24_684_084);
    assert_eq!(mem.artifact, format!("{SCC}/memory.txt#/proc/meminfo"));
    // The cited line is the file's: line 18 of memory.txt.
    assert_eq!(mem.lines, vec![18]);
    let text = std::fs::read_to_string(scc_tree().join(SCC).join("memory.txt")).unwrap();
    assert!(text.lines().nth(17).unwrap().starts_with("MemTotal:"));
    // vm.swappiness from the `sysctl -a` entry of env.txt, at its line there.
    let sw = a.facts.memory.swappiness.as_ref().unwrap();
    assert_eq!(sw.artifact, format!("{SCC}/env.txt#sysctl -a"));
    let env = std::fs::read_to_string(scc_tree().join(SCC).join("env.txt")).unwrap();
    let at = env.lines().nth(sw.lines[0] - 1).unwrap();
    assert!(at.starts_with("vm.swappiness = "), "{at}");
    assert_eq!(a.facts.identity.cpus, Some(2));
}

#[test]
fn supportconfig_entries_are_artifacts_with_their_origin() {
    let a = Analysis::run(&scc_tree(), &Limits::default()).unwrap();
    let file = artifact(&a, &format!("{SCC}/network.txt"));
    assert!(file.kind.is_none());
    assert!(
        matches!(&file.outcome, Outcome::Unrecognised { reason } if reason.contains("4 entries")),
        "{:?}",
        file.outcome
    );
    let link = artifact(&a, &format!("{SCC}/network.txt#ip -stats link"));
    assert_eq!(link.kind_name(), Some("ip-link"));
    assert_eq!(link.outcome, Outcome::Parsed);
    match &link.origin {
        Some(Origin::Entry {
            file,
            entry,
            command,
            header_line,
            lines,
        }) => {
            assert_eq!(file, &format!("{SCC}/network.txt"));
            assert_eq!(entry, "Command");
            assert_eq!(command, "/usr/sbin/ip -stats link");
            assert_eq!((*header_line, *lines), (1, (3, 26)));
        }
        other => panic!("{other:?}"),
    }
    let json = serde_json::to_value(link).unwrap();
    assert_eq!(json["origin"]["from"], "entry");
    assert_eq!(json["origin"]["file"], format!("{SCC}/network.txt"));
    // Entries of commands rca does not read as a kind, and pipelines, are not artifacts.
    assert!(!a
        .collected
        .artifacts
        .iter()
        .any(|x| x.path.contains("#ip -stats neighbor") || x.path.contains("grep ^vm")));
    // A configuration file entry ends at its first blank line: supportconfig's own line after
    // it is not part of `/proc/sys/kernel/tainted`.
    let t = artifact(
        &a,
        &format!("{SCC}/basic-health-check.txt#/proc/sys/kernel/tainted"),
    );
    assert_eq!(t.outcome, Outcome::Parsed, "{:?}", t.issues);
    assert_eq!(
        a.facts.kernel.taint.as_ref().map(|c| c.lines.clone()),
        Some(vec![52])
    );
}

#[test]
fn an_excerpt_of_an_entry_shows_the_files_line_numbers() {
    let a = Analysis::run(&scc_tree(), &Limits::default()).unwrap();
    let path = format!("{SCC}/network.txt#ip -stats link");
    let mut f = finding(vec![Evidence::new(&path, vec![21, 22], "eth0")]);
    cite(std::slice::from_mut(&mut f), &a.collected);
    let ev = &f.evidence[0];
    assert_eq!(ev.artifact, path);
    let text = std::fs::read_to_string(scc_tree().join(SCC).join("network.txt")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let got: Vec<(usize, &str)> = ev
        .excerpt
        .iter()
        .map(|x| (x.line, x.text.as_str()))
        .collect();
    assert_eq!(got, vec![(21, lines[20]), (22, lines[21])]);
    assert!(lines[20].starts_with("4: eth0:"));
}

#[test]
fn malformed_supportconfig_headers_are_issues_of_their_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("scc_h_260101_0000");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("basic-environment.txt"),
        "#==[ Command ]===\n# /bin/uname -a\nLinux h 6.1.0 #1 SMP x86_64 GNU/Linux\n\
         #==[ Command ]======================================#\n\
         #==[ Command ]======================================#\n# /bin/uname -a\n\
         Linux h 6.1.0 #1 SMP PREEMPT x86_64 GNU/Linux\n",
    )
    .unwrap();
    let a = Analysis::run(dir.path(), &Limits::default()).unwrap();
    let file = artifact(&a, "scc_h_260101_0000/basic-environment.txt");
    let lines: Vec<usize> = file.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, vec![1, 5]);
    let u = artifact(&a, "scc_h_260101_0000/basic-environment.txt#uname -a");
    assert_eq!(u.outcome, Outcome::Parsed);
    assert_eq!(a.facts.identity.kernel_release.as_deref(), Some("6.1.0"));
}

/// An OSWatcher tree of the captured hours (`parsers/tests/fixtures/osw*`), as
/// `oswbb/archive/osw<tool>/…`, plus `extra` files.
fn osw_tree(extra: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for tool in ["vmstat", "iostat", "mpstat"] {
        let to = dir.path().join(format!("oswbb/archive/osw{tool}"));
        std::fs::create_dir_all(&to).unwrap();
        for hour in ["0900", "1000"] {
            let name = format!("vm_{tool}_26.12.02.{hour}.dat");
            let from = repo().join(format!("parsers/tests/fixtures/osw{tool}/{name}"));
            std::fs::copy(from, to.join(name)).unwrap();
        }
    }
    for (rel, text) in extra {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn seconds(t: parsers::common::Timestamp) -> u32 {
    t.seconds_of_day
}

#[test]
fn oswatcher_hours_join_into_one_cpu_and_disk_series() {
    let dir = osw_tree(&[]);
    let a = Analysis::run(dir.path(), &Limits::default()).unwrap();
    assert_eq!(a.collected.layout.layout.name(), "oswatcher");
    let joined = "oswbb/archive/oswmpstat/vm_mpstat_26.12.02.0900..26.12.02.1000.dat#joined";
    let cpus = a.facts.cpus.get().unwrap();
    assert_eq!(cpus.len(), 2);
    for c in cpus {
        assert_eq!(c.artifact, joined);
        // 10 markers in the first hour, 8 in the second, two intervals each.
        assert_eq!(c.samples.len(), (10 + 8) * 2);
        let first = c.samples.first().unwrap().time.unwrap();
        let last = c.samples.last().unwrap().time.unwrap();
        assert_eq!(seconds(first), 9 * 3600 + 55 * 60 + 21);
        assert_eq!(seconds(last), 10 * 3600 + 3 * 60 + 53);
        let times: Vec<u32> = c.samples.iter().map(|s| seconds(s.time.unwrap())).collect();
        assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
    }
    let disks = a.facts.disks.get().unwrap();
    let vda = disks.iter().find(|d| d.device == "vda").unwrap();
    assert!(vda
        .artifact
        .ends_with("vm_iostat_26.12.02.0900..26.12.02.1000.dat#joined"));
    // One interval report per marker, none dropped as a since-boot report.
    assert_eq!(vda.samples.len(), 10 + 8);
    assert_eq!(vda.samples[1].util_pct, Some(2.0));
    assert_eq!(vda.samples.last().unwrap().util_pct, Some(12.28));
    // The time axis covers both hours.
    let s = a.facts.series.as_ref().unwrap();
    let cpu = s.cpu.as_ref().unwrap();
    assert_eq!(cpu.times.len(), 36);
    let span = cpu.times.last().unwrap() - cpu.times.first().unwrap();
    assert_eq!(span, (8 * 60 + 32) as f64);
    assert_eq!(s.swap.as_ref().unwrap().si.len(), 10 * 2 + 8 * 2);
    // The hours stay listed with their own outcomes.
    for h in ["0900", "1000"] {
        let f = artifact(
            &a,
            &format!("oswbb/archive/oswmpstat/vm_mpstat_26.12.02.{h}.dat"),
        );
        assert_eq!(f.outcome, Outcome::Parsed);
    }
}

#[test]
fn evidence_on_joined_hours_cites_each_file_with_its_own_lines() {
    let dir = osw_tree(&[]);
    let a = Analysis::run(dir.path(), &Limits::default()).unwrap();
    let joined = "oswbb/archive/oswiostat/vm_iostat_26.12.02.0900..26.12.02.1000.dat#joined";
    let j = artifact(&a, joined);
    let Some(Origin::Joined { parts }) = &j.origin else {
        panic!("{:?}", j.origin);
    };
    assert_eq!(parts.len(), 2);
    let second = parts[1].first_line;
    // Line 15 of the first hour, and line 63 of the second.
    let mut f = finding(vec![Evidence::new(joined, vec![15, second + 62], "vda")]);
    cite(std::slice::from_mut(&mut f), &a.collected);
    assert_eq!(f.evidence.len(), 2);
    let h09 = std::fs::read_to_string(
        repo().join("parsers/tests/fixtures/oswiostat/vm_iostat_26.12.02.0900.dat"),
    )
    .unwrap();
    let h10 = std::fs::read_to_string(
        repo().join("parsers/tests/fixtures/oswiostat/vm_iostat_26.12.02.1000.dat"),
    )
    .unwrap();
    for (ev, (file, line, text)) in f.evidence.iter().zip([
        ("vm_iostat_26.12.02.0900.dat", 15, &h09),
        ("vm_iostat_26.12.02.1000.dat", 63, &h10),
    ]) {
        assert!(ev.artifact.ends_with(file), "{}", ev.artifact);
        assert_eq!(ev.lines, vec![line]);
        assert_eq!(ev.excerpt.len(), 1);
        assert_eq!(ev.excerpt[0].line, line);
        assert_eq!(ev.excerpt[0].text, text.lines().nth(line - 1).unwrap());
    }
}

#[test]
fn malformed_oswatcher_markers_are_issues_never_panics() {
    let h = std::fs::read_to_string(
        repo().join("parsers/tests/fixtures/oswvmstat/vm_vmstat_26.12.02.1000.dat"),
    )
    .unwrap();
    let bad = h.replacen(
        "zzz ***Wed Dec 2 10:00:51 IST 2026",
        "zzz ***Mi. 2. Dez 10:00:51",
        1,
    );
    let dir = osw_tree(&[
        (
            "oswbb/archive/oswvmstat/vm_vmstat_26.12.02.1100.dat",
            bad.as_str(),
        ),
        (
            "oswbb/archive/oswiostat/vm_iostat_26.12.02.1100.dat",
            "zzz ***\n\u{0}\u{1}garbage\n",
        ),
        (
            "oswbb/archive/oswmpstat/vm_mpstat_26.12.02.1100.dat",
            "no marker at all\n",
        ),
    ]);
    let a = Analysis::run(dir.path(), &Limits::default()).unwrap();
    let v = artifact(&a, "oswbb/archive/oswvmstat/vm_vmstat_26.12.02.1100.dat");
    assert_eq!(v.outcome, Outcome::Partial);
    let bad_line = h
        .lines()
        .position(|l| l == "zzz ***Wed Dec 2 10:00:51 IST 2026")
        .unwrap()
        + 1;
    assert_eq!(
        v.issues.iter().map(|i| i.line).collect::<Vec<_>>(),
        vec![bad_line]
    );
    let i = artifact(&a, "oswbb/archive/oswiostat/vm_iostat_26.12.02.1100.dat");
    assert!(
        matches!(i.outcome, Outcome::Unusable { .. }),
        "{:?}",
        i.outcome
    );
    let m = artifact(&a, "oswbb/archive/oswmpstat/vm_mpstat_26.12.02.1100.dat");
    assert!(
        matches!(m.outcome, Outcome::Unusable { .. }),
        "{:?}",
        m.outcome
    );
    // The readable hours still join: three for vmstat (the third partly), two for the others.
    let cpus = a.facts.cpus.get().unwrap();
    assert_eq!(cpus[0].samples.len(), 36);
    let vm = a
        .collected
        .artifacts
        .iter()
        .find(|x| {
            x.path
                .ends_with("vm_vmstat_26.12.02.0900..26.12.02.1100.dat#joined")
        })
        .unwrap();
    assert!(matches!(&vm.origin, Some(Origin::Joined { parts }) if parts.len() == 3));
}

/// A supportconfig entry is parsed after blank lines standing for the file's lines above it:
/// every kind of the command→kind table reads its output the same there, its issues moved by
/// that many lines.
#[test]
fn every_entry_kind_parses_the_same_below_blank_lines() {
    use rca::layout::supportconfig::COMMANDS;
    let sample = |kind: &str| match kind {
        "uname" => "captured/uname-a.txt",
        "os-release" => "captured/os-release.txt",
        "vmstat" => "captured-a/vmstat.txt",
        "mpstat" => "captured/mpstat-P-ALL.txt",
        "free" => "captured-a/free.txt",
        "tainted" => "captured-b/proc-sys-kernel-tainted.txt",
        "meminfo" => "captured-a/proc-meminfo-1.txt",
        "proc-vmstat" => "captured-a/proc-vmstat-1.txt",
        "sysctl" => "captured-b/sysctl-a-root.txt",
        "iostat" => "iostat/jc__iostat-x-sysstat12-ubuntu2010.txt",
        "lscpu" => "captured-b/lscpu.txt",
        "dmidecode" => "dmidecode/insights-core__dmidecode-rhev-kvm.txt",
        "cmdline" => "captured-b/proc-cmdline.txt",
        "proc-modules" => "proc-modules/jc__jc-proc-modules.txt",
        "ip-link" => "captured-b/ip-s-link.txt",
        "nstat" => "captured-a/nstat-az.txt",
        "chronyc-tracking" => "captured-b/chronyc-tracking-chrony4-synced.txt",
        "chronyc-sources" => "captured-b/chronyc-sources-v-chrony4.txt",
        "ntpq" => "ntpq/insights-core__ntpq-p-named.txt",
        "timedatectl" => "timedatectl/insights-core__timedatectl-dst-change.txt",
        "softirqs" => "proc-softirqs/hotsos__proc-softirqs-2cpu-vm.txt",
        "net-dev" => "proc-net-dev/jc__jc-proc-net-dev.txt",
        "net-snmp" => "proc-net-snmp/insights-core__proc-net-snmp.txt",
        other => panic!("no sample for kind {other}"),
    };
    for (_, _, spec) in COMMANDS {
        let text = crate::common::fixture(sample(spec.name));
        let parse = spec.parse.unwrap();
        let plain = parse(&text);
        let padded = parse(&format!("{}{text}", "\n".repeat(100)));
        match (plain, padded) {
            (Ok((_, a)), Ok((_, b))) => {
                let moved: Vec<usize> = a
                    .iter()
                    .map(|i| if i.line == 0 { 0 } else { i.line + 100 })
                    .collect();
                let got: Vec<usize> = b.iter().map(|i| i.line).collect();
                assert_eq!(moved, got, "{}", spec.name);
            }
            (a, b) => panic!("{}: {:?} / {:?}", spec.name, a.err(), b.err()),
        }
    }
}
