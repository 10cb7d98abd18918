//! Hadoop and YARN rules: the NodeManager's virtual-memory check.
//!
//! In: [`HostFacts::hadoop`] (`yarn-site.xml` properties). Out: at most one finding.

use super::{Check, Confidence, Finding, RuleMeta, Severity};
use crate::evidence::Evidence;
use crate::facts::HostFacts;

/// Hadoop's default for `yarn.nodemanager.vmem-check-enabled`.
pub const DEFAULT_VMEM_CHECK: bool = true;
/// Hadoop's default `yarn.nodemanager.vmem-pmem-ratio`; at or below it the check is a warning.
pub const DEFAULT_VMEM_PMEM_RATIO: f64 = 2.1;

pub static VMEM_CHECK: RuleMeta = RuleMeta {
    id: "yarn.vmem-check",
    title: "YARN kills containers for virtual memory",
    area: "jvm",
    checks: "`yarn.nodemanager.vmem-check-enabled` (default true) and \
             `yarn.nodemanager.vmem-pmem-ratio` (default 2.1) in `yarn-site.xml`.",
    why: "A JVM reserves far more virtual address space than it uses: glibc malloc arenas \
          (64 MiB each, up to 8 per core), thread stacks, the code cache and the compressed class \
          space. With the check on, the NodeManager kills containers whose virtual size exceeds \
          physical × ratio although their resident memory is fine (case S1: containers killed \
          for mmap and JIT reservations).",
    threshold: "Check enabled with the ratio at or below Hadoop's default 2.1: warning; enabled \
                with a larger ratio: information. Source: YARN-4714 (\"Java 8 over usage of \
                virtual memory\"), Hadoop yarn-default.xml, case S1.",
    false_positives: "Clusters that rely on the check to catch runaway native memory and size \
                      their ratio for it.",
    remedy:
        "Set `yarn.nodemanager.vmem-check-enabled=false` (resident memory is still enforced by \
             `pmem-check`), or raise `yarn.nodemanager.vmem-pmem-ratio` (e.g. 4–5); \
             `MALLOC_ARENA_MAX=4` in the container environment also shrinks the virtual size.",
};

/// `yarn.vmem-check`.
pub fn check_vmem(f: &HostFacts) -> Check {
    let h = &f.hadoop;
    if !h.has_yarn_site() {
        return Check::NotEvaluated("no `yarn-site.xml` in the bundle".into());
    }
    let enabled = h.get("yarn.nodemanager.vmem-check-enabled");
    let on = enabled
        .map(|c| c.value.trim().eq_ignore_ascii_case("true"))
        .unwrap_or(DEFAULT_VMEM_CHECK);
    if !on {
        return Check::Clear("`yarn.nodemanager.vmem-check-enabled` is false".into());
    }
    let ratio_c = h.get("yarn.nodemanager.vmem-pmem-ratio");
    let ratio = ratio_c
        .and_then(|c| c.value.trim().parse::<f64>().ok())
        .unwrap_or(DEFAULT_VMEM_PMEM_RATIO);
    let mut ev: Vec<Evidence> = Vec::new();
    match enabled {
        Some(c) => ev.push(c.evidence("virtual-memory check")),
        None => {
            let site = h.files.iter().find(|f| f.ends_with("yarn-site.xml"));
            if let Some(site) = site {
                ev.push(Evidence::new(
                    site,
                    vec![1],
                    "yarn-site.xml does not set yarn.nodemanager.vmem-check-enabled: default true",
                ));
            }
        }
    }
    if let Some(c) = ratio_c {
        ev.push(c.evidence("virtual to physical memory ratio"));
    }
    let low = ratio <= DEFAULT_VMEM_PMEM_RATIO;
    Check::Found(vec![Finding {
        rule_id: VMEM_CHECK.id,
        explains: Vec::new(),
        area: VMEM_CHECK.area,
        title: format!(
            "YARN virtual-memory check {} with vmem-pmem-ratio {ratio}",
            if enabled.is_some() {
                "enabled"
            } else {
                "on by default"
            }
        ),
        severity: if low {
            Severity::Warning
        } else {
            Severity::Info
        },
        confidence: if enabled.is_some() {
            Confidence::High
        } else {
            Confidence::Medium
        },
        why: format!(
            "The NodeManager kills a container whose virtual size exceeds {ratio} × its physical \
             allocation; JVMs reserve much more address space than they touch."
        ),
        details: Vec::new(),
        score: 1.0 / ratio.max(0.1),
        time_range: None,
        evidence: ev,
    }])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Cited;
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    fn yarn(props: &[(&str, &str)]) -> HostFacts {
        let mut f = HostFacts::default();
        f.hadoop
            .files
            .push("configs/etc/hadoop/yarn-site.xml".into());
        for (i, (k, v)) in props.iter().enumerate() {
            f.hadoop.properties.insert(
                k.to_string(),
                Cited::new(
                    v.to_string(),
                    "configs/etc/hadoop/yarn-site.xml",
                    10 + i * 4,
                ),
            );
        }
        f
    }

    #[test]
    fn default_check_and_ratio_warn() {
        let v = found(check_vmem(&yarn(&[])));
        assert_eq!(v[0].severity, Severity::Warning);
        assert_eq!(v[0].confidence, Confidence::Medium);
        let v = found(check_vmem(&yarn(&[(
            "yarn.nodemanager.vmem-check-enabled",
            "true",
        )])));
        assert_eq!(v[0].evidence[0].lines, vec![10]);
    }

    #[test]
    fn raised_ratio_is_information_and_disabled_is_clear() {
        let v = found(check_vmem(&yarn(&[(
            "yarn.nodemanager.vmem-pmem-ratio",
            "5",
        )])));
        assert_eq!(v[0].severity, Severity::Info);
        assert!(is_clear(&check_vmem(&yarn(&[(
            "yarn.nodemanager.vmem-check-enabled",
            "false"
        )]))));
        assert!(is_not_evaluated(&check_vmem(&HostFacts::default())));
    }
}
