//! `/proc/PID/status` parser against real captures on Linux 6.18 (see `fixtures/PROVENANCE.md`):
//! an OpenJDK 17 process as the collector copied it, `cat /proc/self/status`, and the kernel
//! thread `kthreadd` (no `Vm*` lines).

use crate::common::{
    all_fixtures, fixture, fixture_path, head, insert_line, XorShift, SNIFF_HEAD_BYTES,
};
use parsers::proc::{self, status::Ids};
use parsers::Sniff;

const JAVA: &str = "captured-proc/collector-status-java-jdk17.txt";
const CAT: &str = "captured-proc/proc-self-status-cat.txt";
const KTHREAD: &str = "captured-proc/proc-2-status-kthreadd.txt";

#[test]
fn java_process() {
    let p = proc::status::parse(&fixture(JAVA)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let s = p.value;
    assert_eq!(s.fields.len(), 59);
    assert_eq!(s.name(), Some("java"));
    assert_eq!(s.state(), Some("S (sleeping)"));
    assert_eq!(s.state_code(), Some('S'));
    assert_eq!(
        (s.pid(), s.tgid(), s.ppid()),
        (Some(12887), Some(12887), Some(1))
    );
    let root = Ids {
        real: 0,
        effective: 0,
        saved: 0,
        fs: 0,
    };
    assert_eq!((s.uid(), s.gid()), (Some(root), Some(root)));
    assert_eq!(s.threads(), Some(24));
    assert_eq!(s.vm_peak_kib(), Some(2_701_144));
    assert_eq!(s.vm_size_kib(), Some(2_643_804));
    assert_eq!(s.vm_hwm_kib(), Some(37_652));
    assert_eq!(s.vm_rss_kib(), Some(37_652));
    assert_eq!(s.rss_anon_kib(), Some(16_212));
    assert_eq!(s.rss_file_kib(), Some(21_440));
    assert_eq!(s.vm_data_kib(), Some(153_192));
    assert_eq!(s.vm_swap_kib(), Some(0));
    assert_eq!(s.kib("VmLib"), Some(17_208));
    assert_eq!(s.voluntary_ctxt_switches(), Some(2));
    assert_eq!(s.nonvoluntary_ctxt_switches(), Some(1));
    assert_eq!(s.cpus_allowed_list(), Some("0-1"));
    assert_eq!(s.cpus_allowed_count(), Some(2));
    assert_eq!(s.count("FDSize"), Some(256));
    // Every field is kept with its line, the odd ones as printed.
    assert_eq!(s.get("VmRSS").unwrap().line, 23);
    assert_eq!(s.get("Threads").unwrap().line, 37);
    assert_eq!(s.value("Groups"), Some(""));
    assert_eq!(s.value("SigQ"), Some("13/96365"));
    assert_eq!(s.value("SpeculationIndirectBranch"), Some("always enabled"));
    assert_eq!(s.value("untag_mask"), Some("0xffffffffffffffff"));
    assert_eq!(s.get("Mems_allowed_list").unwrap().line, 57);
    assert_eq!(s.get("Name").unwrap().kib, None);
}

#[test]
fn cat_and_kernel_thread() {
    let p = proc::status::parse(&fixture(CAT)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let s = p.value;
    assert_eq!(
        (s.name(), s.pid(), s.ppid()),
        (Some("cat"), Some(15025), Some(15016))
    );
    assert_eq!((s.vm_rss_kib(), s.rss_anon_kib()), (Some(1636), Some(112)));
    assert_eq!(s.threads(), Some(1));

    let p = proc::status::parse(&fixture(KTHREAD)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let s = p.value;
    assert_eq!(
        (s.name(), s.pid(), s.ppid()),
        (Some("kthreadd"), Some(2), Some(0))
    );
    assert_eq!(s.value("Kthread"), Some("1"));
    assert_eq!(
        (s.vm_rss_kib(), s.vm_swap_kib(), s.vm_peak_kib()),
        (None, None, None)
    );
    assert_eq!(s.voluntary_ctxt_switches(), Some(109));
    assert_eq!(s.get("voluntary_ctxt_switches").unwrap().line, 39);
}

#[test]
fn bad_values_and_lines_are_issues() {
    let text = insert_line(&fixture(JAVA), 5, "this line has no colon");
    let text = text
        .replace("VmRSS:\t   37652 kB", "VmRSS:\t   lots kB")
        .replace("Threads:\t24", "Threads:\tmany")
        .replace("Uid:\t0\t0\t0\t0", "Uid:\t0\t0")
        + "Name:\tsecond\nSpaced Key:\t1\n";
    let p = proc::status::parse(&text).unwrap();
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, vec![5, 10, 24, 38, 61, 62], "{:?}", p.issues);
    let s = p.value;
    assert_eq!(s.vm_rss_kib(), None);
    assert_eq!(s.threads(), None);
    assert_eq!(s.uid(), None);
    assert_eq!(
        s.name(),
        Some("second"),
        "a repeated key keeps its last value"
    );
    assert_eq!(s.vm_hwm_kib(), Some(37_652));
    for t in [
        "",
        "\n",
        "  \n\t\n",
        "\u{feff}",
        "MemTotal:       16310748 kB\nMemFree:         1062944 kB\n",
        "hello\nworld\n",
    ] {
        assert!(proc::status::parse(t).is_err(), "{t:?}");
    }
    // Cut anywhere: no panic; a cut after the first line still names the process.
    let whole = fixture(JAVA);
    for cut in 0..whole.len() {
        let _ = proc::status::parse(&whole[..cut]);
    }
    assert_eq!(
        proc::status::parse(&whole[..12]).unwrap().value.name(),
        Some("java")
    );
}

#[test]
fn cpu_lists() {
    let with = |list: &str| {
        let text = format!("Name:\tx\nCpus_allowed_list:\t{list}\n");
        proc::status::parse(&text)
            .unwrap()
            .value
            .cpus_allowed_count()
    };
    assert_eq!(with("0-1"), Some(2));
    assert_eq!(with("0-3,8,10-11"), Some(7));
    assert_eq!(with("5"), Some(1));
    assert_eq!(with("3-1"), None);
    assert_eq!(with("a-b"), None);
    assert_eq!(with("0-4294967295"), None);
}

#[test]
fn sniffer_claims_its_own_and_refuses_the_rest() {
    for rel in [JAVA, CAT, KTHREAD] {
        let t = fixture(rel);
        assert_eq!(
            proc::status::sniff(head(&t, SNIFF_HEAD_BYTES)),
            Sniff::Yes,
            "{rel}"
        );
        assert_eq!(
            proc::status::sniff(&t[..50]),
            Sniff::Yes,
            "{rel} cut mid-line"
        );
    }
    assert_eq!(proc::status::sniff("Name:\tjava\n"), Sniff::No);
    assert_eq!(proc::status::sniff(""), Sniff::No);
    for rel in all_fixtures() {
        if [JAVA, CAT, KTHREAD].contains(&rel.as_str()) {
            continue;
        }
        let Ok(bytes) = std::fs::read(fixture_path(&rel)) else {
            continue;
        };
        let t = String::from_utf8_lossy(&bytes);
        assert_eq!(
            proc::status::sniff(head(&t, SNIFF_HEAD_BYTES)),
            Sniff::No,
            "{rel}"
        );
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = XorShift(0x57a7_0500_dead_beef);
    let texts = [fixture(JAVA), fixture(KTHREAD)];
    for round in 0..400 {
        let mut b = if round % 2 == 0 {
            let n = rng.below(2000);
            rng.bytes(n)
        } else {
            texts[round % texts.len()].as_bytes().to_vec()
        };
        for _ in 0..rng.below(20) {
            if !b.is_empty() {
                let i = rng.below(b.len());
                b[i] = b"\t :-0123456789kB\n"[rng.below(17)];
            }
        }
        let t = String::from_utf8_lossy(&b);
        let n_lines = t.lines().count();
        if let Ok(p) = proc::status::parse(&t) {
            assert!(p.issues.iter().all(|i| i.line >= 1 && i.line <= n_lines));
            let s = p.value;
            let _ = (
                s.cpus_allowed_count(),
                s.uid(),
                s.vm_rss_kib(),
                s.state_code(),
            );
        }
        let _ = proc::status::sniff(&t);
    }
}
