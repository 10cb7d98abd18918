//! `kernel.taint`: third-party or out-of-tree kernel modules loaded.
//!
//! Reads the kernel's taint (`/proc/sys/kernel/tainted`, else `kernel.tainted` of `sysctl -a`,
//! decoded into its letters by the same decoder) and the modules whose `/proc/modules` line
//! carries a taint marker, with their `modinfo` details.

use crate::facts::{Fact, HostFacts};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Name fragments and dependencies that put a module in the network path.
const NET_HINTS: &[&str] = &[
    "net", "nf_", "xt_", "ip_", "tcp", "sock", "packet", "firewall", "filter",
];
/// Taint letters of third-party code: out-of-tree, unsigned, proprietary.
const THIRD_PARTY_LETTERS: &[&str] = &["O", "E", "P"];

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "kernel.taint",
    title: "Third-party or out-of-tree kernel modules loaded",
    area: Area::Kernel,
    severity: Severity::Info,
    needs: &[Fact::Kernel],
    reads: &[Fact::Modules],
    thresholds: &[Threshold {
        name: "module taint letter",
        value: Limit::OneOf(THIRD_PARTY_LETTERS),
        unit: "",
        meaning: "any such module: information; one in the network path: a warning (the profile \
                  rule raises it further when the module is hot; case S4)",
        sources: &[
            Source::Doc {
                document:
                    "Linux kernel documentation, Documentation/admin-guide/tainted-kernels.rst",
                section: None,
                url: Some("https://docs.kernel.org/admin-guide/tainted-kernels.html"),
            },
            Source::Case(4),
        ],
    }],
    groups: &[SymptomGroup::KernelCpu],
    explains: &[],
    fires_when: "out-of-tree, unsigned or proprietary modules (warning when in the network path)",
    checks: "`/proc/sys/kernel/tainted` (else `kernel.tainted` of `sysctl -a`; when both disagree \
             the former is taken and the disagreement listed) decoded into the kernel's taint \
             letters, and the modules \
             whose `/proc/modules` line carries a taint marker: O (out-of-tree), E (unsigned), P \
             (proprietary), with `modinfo` details when collected. Modules whose name, description \
             or dependencies point at the network stack (netfilter, sockets, TCP) are raised to a \
             warning.",
    why: "Security agents, monitoring and storage drivers shipped outside the distribution kernel \
          hook hot paths (netfilter, LSM, the block layer) with code no distribution vendor has \
          tested at scale; spin locks and per-packet checks in such hooks cut throughput (case S4: \
          `resguard_linux` and `secmodel_linux` above `ip_local_out`). Vendors also refuse \
          support for tainted kernels.",
    false_positives: "Well-known out-of-tree drivers the platform needs (zfs, nvidia, vendor NIC \
                      drivers): still listed, as information.",
    remedy:
        "Identify the package that installed the module (`modinfo`, `rpm -qf`/`dpkg -S` on its \
             filename); test with the agent disabled on one host and compare.",
    file: file!(),
};

fn in_network_path(m: &crate::facts::ModuleInfo) -> bool {
    let hay = format!(
        "{} {} {}",
        m.name,
        m.description.as_deref().unwrap_or(""),
        m.depends.join(" ")
    )
    .to_ascii_lowercase();
    NET_HINTS.iter().any(|h| hay.contains(h))
}

/// Taint and the modules that carry a taint marker.
pub fn check(f: &HostFacts) -> Check {
    let k = &f.kernel;
    if k.taint.is_none() && f.modules.get().is_none_or(|m| m.is_empty()) {
        return Check::NotEvaluated(
            "no `/proc/sys/kernel/tainted`, `kernel.tainted` in `sysctl -a` or `/proc/modules` in \
             the bundle"
                .into(),
        );
    }
    let third_party: Vec<_> = k
        .tainting_modules
        .iter()
        .filter(|m| {
            m.value
                .taint
                .chars()
                .any(|c| THIRD_PARTY_LETTERS.iter().any(|l| l.starts_with(c)))
        })
        .collect();
    if third_party.is_empty() {
        if let Some(t) = k.taint.as_ref().filter(|t| {
            t.value
                .1
                .chars()
                .any(|c| THIRD_PARTY_LETTERS.iter().any(|l| l.starts_with(c)))
        }) {
            if f.modules.get().is_none_or(|m| m.is_empty()) {
                return Check::NotEvaluated(format!(
                    "kernel tainted {} ({}), but no module list (`/proc/modules`, `lsmod`) to \
                     name the module",
                    t.value.0, t.value.1
                ));
            }
        }
        return match &k.taint {
            Some(t) if t.value.0 != 0 => Check::Clear(format!(
                "kernel tainted {} ({}) but no O/E/P module",
                t.value.0, t.value.1
            )),
            _ => Check::Clear("no out-of-tree, unsigned or proprietary module".into()),
        };
    }
    let mut findings = Vec::new();
    let (net, other): (Vec<_>, Vec<_>) = third_party
        .into_iter()
        .partition(|m| in_network_path(&m.value));
    for (group, sev, what) in [
        (net, Severity::Warning, "in the network path"),
        (other, Severity::Info, "loaded"),
    ] {
        if group.is_empty() {
            continue;
        }
        let names: Vec<String> = group
            .iter()
            .map(|m| format!("{} ({})", m.value.name, m.value.taint))
            .collect();
        let mut ev: Vec<_> = group
            .iter()
            .take(8)
            .map(|m| m.evidence(format!("module {}", m.value.name)))
            .collect();
        if let Some(t) = &k.taint {
            ev.push(t.evidence(format!("kernel taint {} = {}", t.value.0, t.value.1)));
        }
        let vendors: Vec<String> = group
            .iter()
            .filter_map(|m| m.value.author.clone().or(m.value.description.clone()))
            .take(3)
            .collect();
        findings.push(Finding {
            rule_id: META.id,
            explains: Vec::new(),
            area: META.area,
            title: format!("Third-party kernel module(s) {what}: {}", names.join(", ")),
            severity: sev,
            confidence: Confidence::High,
            why: format!(
                "{} module(s) outside the distribution kernel{}.",
                group.len(),
                if vendors.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", vendors.join("; "))
                }
            ),
            details: Vec::new(),
            score: group.len() as f64,
            time_range: None,
            evidence: ev,
        });
    }
    Check::Found(findings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::ModuleInfo;
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};

    #[test]
    fn fires_a_warning_in_the_network_path_information_otherwise() {
        let mut f = HostFacts::default();
        f.kernel.taint = Some(c((12288, "OE".into())));
        f.kernel.tainting_modules = vec![
            c(ModuleInfo {
                name: "resguard_linux".into(),
                taint: "OE".into(),
                depends: vec!["nf_conntrack".into()],
                ..Default::default()
            }),
            c(ModuleInfo {
                name: "zfs".into(),
                taint: "PO".into(),
                ..Default::default()
            }),
        ];
        let v = found(check(&f));
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].severity, Severity::Warning);
        assert!(v[0].title.contains("resguard_linux"));
        assert_eq!(v[1].severity, Severity::Info);
    }

    #[test]
    fn clear_on_a_clean_kernel_and_not_evaluated_without_taint_or_modules() {
        let mut f = HostFacts::default();
        f.kernel.taint = Some(c((0, String::new())));
        assert!(is_clear(&check(&f)));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
