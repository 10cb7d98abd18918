//! Kernel: release, boot parameters, taint and loaded modules.
//!
//! In: both sides' identity (`uname`), `/proc/cmdline`, `/proc/sys/kernel/tainted` and module
//! list (`/proc/modules`, whose taint letters mark out-of-tree, unsigned and proprietary
//! modules; else `lsmod`). Out: a kernel-release difference, boot parameters that differ, a
//! taint difference and modules loaded on one side only — tainting ones weigh most (case S4).

use super::score::{
    KERNEL_CMDLINE, KERNEL_RELEASE, KERNEL_TAINT, MODULE_ONE_SIDE, MODULE_TAINTING,
};
use super::{Difference, Out, Pair, Which};
use crate::facts::profile::ProfileSource;
use crate::facts::HostFacts;
use crate::rules::SymptomGroup;
use std::collections::{BTreeMap, BTreeSet};

/// Boot parameters known to change performance: weight 40.
pub const KNOWN_PARAMS: &[&str] = &[
    "mitigations",
    "spectre_v2",
    "nospectre_v2",
    "spec_store_bypass_disable",
    "pti",
    "nopti",
    "l1tf",
    "mds",
    "tsx",
    "tsx_async_abort",
    "retbleed",
    "isolcpus",
    "nohz_full",
    "nohz",
    "rcu_nocbs",
    "irqaffinity",
    "iommu",
    "intel_iommu",
    "amd_iommu",
    "iommu.passthrough",
    "transparent_hugepage",
    "hugepages",
    "hugepagesz",
    "default_hugepagesz",
    "numa_balancing",
    "numa",
    "processor.max_cstate",
    "intel_idle.max_cstate",
    "idle",
    "intel_pstate",
    "cpufreq.default_governor",
    "nosmt",
    "maxcpus",
    "nr_cpus",
    "elevator",
    "skew_tick",
    "clocksource",
    "tsc",
    "audit",
    "selinux",
    "apparmor",
    "nmi_watchdog",
    "nowatchdog",
    "pcie_aspm",
    "preempt",
    "threadirqs",
    "cgroup_disable",
    "systemd.unified_cgroup_hierarchy",
];

/// Weight of a known boot parameter.
const KNOWN_PARAM_WEIGHT: f64 = 40.0;

/// Boot parameters that name the boot image, root device, console or splash screen: they differ
/// between any two installations and are listed as noise.
pub const NOISE_PARAMS: &[&str] = &[
    "BOOT_IMAGE",
    "root",
    "ro",
    "rw",
    "initrd",
    "resume",
    "rootflags",
    "rootfstype",
    "quiet",
    "splash",
    "rhgb",
    "console",
    "LANG",
    "crashkernel",
    "net.ifnames",
    "biosdevname",
    "plymouth.enable",
    "vga",
    "nomodeset",
];

/// Taint letters that mean code from outside the distribution kernel.
const FOREIGN_LETTERS: &[char] = &['O', 'E', 'P'];

fn taint_text(v: u64, letters: &str) -> String {
    if letters.is_empty() {
        v.to_string()
    } else {
        format!("{v} ({letters})")
    }
}

/// Symptoms a kernel-side difference on the suspect may explain.
/// Magnitude of a tainting module that the same side's stack profile never shows.
pub const COLD_IN_PROFILE: f64 = 0.7;

/// The side's `perf script` profile, when it has one.
fn side_profile(f: &HostFacts) -> Option<&crate::facts::profile::Profile> {
    f.profiles
        .iter()
        .find(|p| p.source_kind == ProfileSource::PerfScript)
}

/// The suspect's profile puts `module` in the hot path (its `profile.module-hot-path` finding).
fn hot_in_profile(p: &Pair, module: &str) -> Option<String> {
    p.suspect
        .hot_module(module)
        .map(|f| format!("hot in the suspect's CPU profile: {}", f.title))
}

fn kernel_symptom(p: &Pair) -> Option<String> {
    p.symptoms
        .any(SymptomGroup::NetworkPath)
        .or_else(|| p.symptoms.any(SymptomGroup::KernelCpu))
}

/// Compares kernel release, boot parameters, taint and modules.
pub fn compare(p: &Pair, out: &mut Out) {
    let (b, s) = (&p.baseline.facts, &p.suspect.facts);
    release(b, s, out);
    cmdline(b, s, out);
    taint(p, out);
    modules(p, out);
}

fn uname_source(f: &HostFacts) -> Option<&str> {
    f.identity
        .sources
        .iter()
        .find(|s| s.contains("uname"))
        .map(String::as_str)
}

fn release(b: &HostFacts, s: &HostFacts, out: &mut Out) {
    let (Some(rb), Some(rs)) = (&b.identity.kernel_release, &s.identity.kernel_release) else {
        return;
    };
    if rb == rs {
        return;
    }
    let mut d = Difference::new(&KERNEL_RELEASE, "kernel release")
        .values(Some(rb.clone()), Some(rs.clone()))
        .reason("another kernel: scheduler, network stack, drivers and mitigations differ");
    if let Some(a) = uname_source(b) {
        d = d.cite_lines(Which::Baseline, a, &[1]);
    }
    if let Some(a) = uname_source(s) {
        d = d.cite_lines(Which::Suspect, a, &[1]);
    }
    out.push(d);
}

fn params(words: &[String]) -> BTreeMap<&str, Vec<&str>> {
    let mut m: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for w in words {
        let (k, v) = w.split_once('=').unwrap_or((w.as_str(), ""));
        m.entry(k).or_default().push(v);
    }
    m
}

fn cmdline(b: &HostFacts, s: &HostFacts, out: &mut Out) {
    let (cb, cs) = (&b.platform.cmdline, &s.platform.cmdline);
    if !out.both(
        "kernel",
        "kernel command line (`/proc/cmdline`)",
        cb.is_some(),
        cs.is_some(),
    ) {
        return;
    }
    let (Some(cb), Some(cs)) = (cb, cs) else {
        return;
    };
    let (pb, ps) = (params(&cb.value), params(&cs.value));
    let keys: BTreeSet<&str> = pb.keys().chain(ps.keys()).copied().collect();
    for k in keys {
        let (x, y) = (pb.get(k), ps.get(k));
        if x == y {
            continue;
        }
        let show = |v: Option<&Vec<&str>>| {
            v.map(|v| {
                v.iter()
                    .map(|x| {
                        if x.is_empty() {
                            k.to_string()
                        } else {
                            format!("{k}={x}")
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
        };
        let noise = NOISE_PARAMS.contains(&k) || k.starts_with("rd.");
        let known = KNOWN_PARAMS.contains(&k);
        let mut d = Difference::new(&KERNEL_CMDLINE, format!("boot parameter `{k}`"))
            .values(show(x), show(y))
            .reason(if noise {
                "names the boot image, root device or console: differs between installations".to_string()
            } else if known {
                "a boot parameter known to change performance (mitigations, CPU isolation, IOMMU, huge pages, C-states)".to_string()
            } else {
                match (x, y) {
                    (Some(_), Some(_)) => "the parameter has another value".to_string(),
                    (Some(_), None) => "set on the baseline only".to_string(),
                    _ => "set on the suspect only".to_string(),
                }
            })
            .cite(Which::Baseline, Some(cb))
            .cite(Which::Suspect, Some(cs));
        if noise {
            d = d.magnitude(0.0);
        } else if known {
            d = d.weight(KNOWN_PARAM_WEIGHT);
        }
        out.push(d);
    }
}

fn taint(p: &Pair, out: &mut Out) {
    let (tb, ts) = (
        &p.baseline.facts.kernel.taint,
        &p.suspect.facts.kernel.taint,
    );
    if !out.both(
        "kernel",
        "kernel taint (`/proc/sys/kernel/tainted`)",
        tb.is_some(),
        ts.is_some(),
    ) {
        return;
    }
    let (Some(tb), Some(ts)) = (tb, ts) else {
        return;
    };
    if tb.value.0 == ts.value.0 {
        return;
    }
    let lb: BTreeSet<char> = tb.value.1.chars().collect();
    let ls: BTreeSet<char> = ts.value.1.chars().collect();
    // In the kernel's order (`OE`), as /proc/modules prints them.
    let new_on_suspect: String = ts.value.1.chars().filter(|c| !lb.contains(c)).collect();
    let gone: String = tb.value.1.chars().filter(|c| !ls.contains(c)).collect();
    let foreign_new = new_on_suspect.chars().any(|c| FOREIGN_LETTERS.contains(&c));
    let reason = match (new_on_suspect.is_empty(), gone.is_empty()) {
        (false, _) => format!(
            "the suspect's kernel carries taint `{new_on_suspect}` the baseline's does not{}",
            if foreign_new {
                ": it runs out-of-tree, unsigned or proprietary code"
            } else {
                ""
            }
        ),
        (true, false) => {
            format!("the baseline's kernel carries taint `{gone}` the suspect's does not")
        }
        (true, true) => "the taint value differs".to_string(),
    };
    let link = if foreign_new { kernel_symptom(p) } else { None };
    out.push(
        Difference::new(&KERNEL_TAINT, "kernel taint")
            .values(
                Some(taint_text(tb.value.0, &tb.value.1)),
                Some(taint_text(ts.value.0, &ts.value.1)),
            )
            .magnitude(if foreign_new || !gone.is_empty() {
                1.0
            } else {
                0.5
            })
            .reason(reason)
            .link(link)
            .cite(Which::Baseline, Some(tb))
            .cite(Which::Suspect, Some(ts)),
    );
}

fn modules(p: &Pair, out: &mut Out) {
    let (b, s) = (&p.baseline.facts, &p.suspect.facts);
    if !out.both(
        "kernel",
        "loaded modules (`/proc/modules`, `lsmod`)",
        b.modules.is_present(),
        s.modules.is_present(),
    ) {
        return;
    }
    let (Some(lb), Some(ls)) = (b.modules.get(), s.modules.get()) else {
        return;
    };
    let mb: BTreeMap<&str, &parsers::kernel::modules::Module> =
        lb.iter().map(|m| (m.name.as_str(), m)).collect();
    let ms: BTreeMap<&str, &parsers::kernel::modules::Module> =
        ls.iter().map(|m| (m.name.as_str(), m)).collect();
    let foreign = |f: &HostFacts| {
        f.kernel
            .taint
            .as_ref()
            .is_some_and(|t| t.value.1.chars().any(|c| FOREIGN_LETTERS.contains(&c)))
    };
    for (side, here, there, f, other, list) in [
        (Which::Baseline, &mb, &ms, b, s, lb),
        (Which::Suspect, &ms, &mb, s, b, ls),
    ] {
        let src = list.artifact.as_str();
        // lsmod shows no taint letters: a module on one side only whose kernel is tainted
        // (and the other's is not) may be the out-of-tree one.
        let letters_known = list.iter().any(|m| m.taint.is_some())
            || src.contains("modules") && !src.contains("lsmod");
        for (name, m) in here.iter().filter(|(n, _)| !there.contains_key(*n)) {
            let info = f
                .kernel
                .tainting_modules
                .iter()
                .find(|t| t.value.name == *name);
            let used = if m.used_by.is_empty() {
                String::new()
            } else {
                format!(", used by {}", m.used_by.join(", "))
            };
            let shown = match &m.taint {
                Some(t) => format!("loaded ({t}){used}"),
                None => format!("loaded{used}"),
            };
            let (bv, sv) = match side {
                Which::Baseline => (Some(shown), None),
                Which::Suspect => (None, Some(shown)),
            };
            let link = if side == Which::Suspect {
                hot_in_profile(p, name).or_else(|| kernel_symptom(p))
            } else {
                None
            };
            let d = if let Some(t) = &m.taint {
                let who = info
                    .and_then(|i| i.value.author.clone().or(i.value.description.clone()))
                    .map(|a| format!(" ({a})"))
                    .unwrap_or_default();
                // A stack profile of that side that does not show the module at all makes it a
                // weaker candidate than one that is hot.
                let cold = side_profile(f).is_some_and(|pr| {
                    !pr.modules
                        .iter()
                        .any(|x| x.module == *name && x.inclusive_samples > 0)
                });
                Difference::new(&MODULE_TAINTING, format!("module `{name}`"))
                    .magnitude(if cold { COLD_IN_PROFILE } else { 1.0 })
                    .reason(format!(
                        "loaded on the {} only and taints the kernel (`{t}`: out-of-tree, unsigned or proprietary){who}: third-party code in the kernel, often in the network or syscall path (case S4){}",
                        side.label(),
                        if cold { "; not on any stack of its CPU profile" } else { "" }
                    ))
                    .link(link)
            } else if !letters_known && foreign(f) && !foreign(other) {
                Difference::new(&MODULE_TAINTING, format!("module `{name}`"))
                    .magnitude(0.6)
                    .reason(format!(
                        "loaded on the {} only, whose kernel is tainted by out-of-tree or unsigned code while the other's is not; `lsmod` shows no taint letters, so this module may be the one (collect `/proc/modules` to tell)",
                        side.label()
                    ))
                    .link(link)
            } else {
                Difference::new(&MODULE_ONE_SIDE, format!("module `{name}`")).reason(format!(
                    "a distribution module loaded on the {} only",
                    side.label()
                ))
            };
            let mut d = d.values(bv, sv).cite_lines(side, src, &[m.line]);
            if let Some(i) = info {
                d = d.cite(side, Some(i));
            }
            out.push(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::{Side, Symptoms};
    use crate::evidence::Cited;
    use crate::facts::ModuleList;
    use parsers::kernel::modules::Module;

    fn host(modules: &[(&str, Option<&str>)], source: &str, taint: (u64, &str)) -> Side {
        let mut f = HostFacts {
            modules: ModuleList {
                artifact: source.to_string(),
                modules: modules
                    .iter()
                    .enumerate()
                    .map(|(i, (n, t))| Module {
                        name: n.to_string(),
                        size_bytes: 16384,
                        refcount: Some(0),
                        used_by: Vec::new(),
                        state: None,
                        address: None,
                        taint: t.map(str::to_string),
                        line: i + 1,
                    })
                    .collect(),
            }
            .into(),
            ..Default::default()
        };
        f.kernel.taint = Some(Cited::new(
            (taint.0, taint.1.to_string()),
            "kernel/tainted",
            1,
        ));
        Side::from_facts("x", f, Vec::new())
    }

    fn run(b: &Side, s: &Side) -> Vec<Difference> {
        let symptoms = Symptoms::default();
        let p = Pair {
            baseline: b,
            suspect: s,
            symptoms: &symptoms,
        };
        let mut out = Out::default();
        modules(&p, &mut out);
        taint(&p, &mut out);
        out.diffs
    }

    #[test]
    fn a_module_with_taint_letters_on_one_side_weighs_most() {
        let b = host(&[("xfs", None)], "proc/modules", (0, ""));
        let s = host(
            &[("xfs", None), ("resguard_linux", Some("OE"))],
            "proc/modules",
            (12288, "OE"),
        );
        let d = run(&b, &s);
        let m = d
            .iter()
            .find(|x| x.subject == "module `resguard_linux`")
            .unwrap();
        assert_eq!(
            (m.kind, m.score),
            ("module-tainting", MODULE_TAINTING.value)
        );
        let t = d.iter().find(|x| x.kind == "kernel-taint").unwrap();
        assert_eq!(t.suspect.as_deref(), Some("12288 (OE)"));
        assert!(t.reason.contains("`OE`"), "{}", t.reason);
    }

    #[test]
    fn with_lsmod_a_module_on_the_tainted_side_only_is_a_candidate() {
        let b = host(
            &[("xfs", None), ("nf_nat", None)],
            "kernel/lsmod.txt",
            (0, ""),
        );
        let s = host(
            &[("xfs", None), ("agent_hook", None)],
            "kernel/lsmod.txt",
            (4096, "O"),
        );
        let d = run(&b, &s);
        let m = d
            .iter()
            .find(|x| x.subject == "module `agent_hook`")
            .unwrap();
        assert_eq!(m.kind, "module-tainting");
        assert!(m.magnitude < 1.0 && m.reason.contains("/proc/modules"));
        let n = d.iter().find(|x| x.subject == "module `nf_nat`").unwrap();
        assert_eq!(n.kind, "module-one-side");
    }

    #[test]
    fn parameters_group_repeated_keys() {
        let w: Vec<String> = ["console=tty0", "console=ttyS0", "quiet", "mitigations=off"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let m = params(&w);
        assert_eq!(m["console"], vec!["tty0", "ttyS0"]);
        assert_eq!(m["quiet"], vec![""]);
        assert_eq!(m["mitigations"], vec!["off"]);
    }
}
