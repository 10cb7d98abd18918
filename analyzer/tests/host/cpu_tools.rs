//! The CPU kinds read from this machine: `/proc/loadavg`, `/proc/pressure/*`, `/proc/cpuinfo`,
//! `cpupower frequency-info` and `tuned-adm active`, each through the kind the bundle layouts
//! give it (or content sniffing, for the commands), then its parser.
//!
//! cpupower (Debian `linux-cpupower`) and tuned-adm (Debian `tuned`) are optional on a developer
//! machine: without one, its test is skipped with one line, unless `RCA_HOST_TESTS=1` (set by
//! CI, which installs them), where it fails.

use super::Needs;
use parsers::kind::{self, KindSpec, Record, Sniffed};
use std::process::Command;

fn parse<T: Record + Clone>(spec: &KindSpec, text: &str) -> T {
    let (data, _issues) = (spec.parse.expect("the kind has a parser"))(text)
        .unwrap_or_else(|e| panic!("{}: {e}\n{text}", spec.name));
    T::of(&data).expect("the kind's record").clone()
}

/// Output of `cmd args`: stdout and exit status.
fn run(cmd: &str, args: &[&str]) -> (String, i32) {
    let o = Command::new(cmd)
        .args(args)
        .env("LC_ALL", "C")
        .output()
        .unwrap_or_else(|e| panic!("{cmd}: {e}"));
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

#[test]
fn proc_files_parse() {
    let l: parsers::proc::loadavg::Loadavg = parse(
        &kind::LOADAVG,
        &std::fs::read_to_string("/proc/loadavg").unwrap(),
    );
    assert!(l.total >= 1 && l.load_average.iter().all(|v| *v >= 0.0));
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap();
    assert!(matches!(kind::sniff(&cpuinfo), Sniffed::Kind(k) if k.name == "cpuinfo"));
    let c: parsers::proc::cpuinfo::Cpuinfo = parse(&kind::CPUINFO, &cpuinfo);
    // Every online CPU has a block, numbered from 0.
    assert_eq!(c.processors.first().map(|p| p.processor), Some(0));
    if cfg!(target_arch = "x86_64") {
        assert!(
            c.processors.iter().all(|p| p.mhz.is_some()),
            "x86 prints cpu MHz"
        );
    }
    match std::fs::read_to_string("/proc/pressure/cpu") {
        Ok(t) => {
            let p: parsers::proc::pressure::Pressure = parse(&kind::PRESSURE, &t);
            assert!(p.some.is_some());
        }
        Err(e) => eprintln!("note: no /proc/pressure/cpu ({e}): PSI not checked"),
    }
}

#[test]
fn cpupower_frequency_info_parses() {
    if !Needs::new("cpupower")
        .commands("linux-cpupower", &["cpupower"])
        .met()
    {
        return;
    }
    let (out, code) = run("cpupower", &["frequency-info"]);
    assert_eq!(code, 0, "cpupower frequency-info exited {code}: {out}");
    assert!(
        matches!(kind::sniff(&out), Sniffed::Kind(k) if k.name == "cpupower-frequency-info"),
        "{out}"
    );
    let p: parsers::host::cpupower::CpupowerFrequencyInfo =
        parse(&kind::CPUPOWER_FREQUENCY_INFO, &out);
    let c = &p.cpus[0];
    // A driver and a governor, or the statement that there is no driver (a VM).
    assert!(c.no_driver || c.driver.is_some(), "{out}");
}

#[test]
fn tuned_adm_active_parses() {
    if !Needs::new("tuned_adm")
        .commands("tuned", &["tuned-adm"])
        .met()
    {
        return;
    }
    let (out, code) = run("tuned-adm", &["active"]);
    assert!(
        code == 0 || (kind::TUNED_ADM.answers_with_exit.unwrap())(code, &out),
        "tuned-adm active exited {code}: {out}"
    );
    let t: parsers::host::tuned::Tuned = parse(&kind::TUNED_ADM, &out);
    assert!(t.active.is_some() || t.none_active_line.is_some(), "{out}");
}
