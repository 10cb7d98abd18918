//! `yarn.vmem-check`: YARN kills containers for virtual memory.
//!
//! Reads `yarn.nodemanager.vmem-check-enabled` and `yarn.nodemanager.vmem-pmem-ratio` from
//! `yarn-site.xml` ([`HostFacts::hadoop`]). Out: at most one finding.

use crate::evidence::Evidence;
use crate::facts::{Fact, HostFacts};
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Hadoop's default for `yarn.nodemanager.vmem-check-enabled`.
pub const DEFAULT_VMEM_CHECK: bool = true;
/// Hadoop's default `yarn.nodemanager.vmem-pmem-ratio`; at or below it the check is a warning.
pub const DEFAULT_VMEM_PMEM_RATIO: f64 = 2.1;

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "yarn.vmem-check",
    title: "YARN kills containers for virtual memory",
    area: Area::Jvm,
    severity: Severity::Warning,
    needs: &[Fact::Hadoop],
    reads: &[],
    thresholds: &[Threshold {
        name: "`yarn.nodemanager.vmem-pmem-ratio`, with the check enabled",
        value: Limit::Num(DEFAULT_VMEM_PMEM_RATIO),
        unit: "",
        meaning: "at or below (Hadoop's default): a warning; a larger ratio: information",
        sources: &[
            Source::url(
                "YARN-4714 (\"Java 8 over usage of virtual memory\")",
                "https://issues.apache.org/jira/browse/YARN-4714",
            ),
            Source::url(
                "Hadoop yarn-default.xml",
                "https://hadoop.apache.org/docs/current/hadoop-yarn/hadoop-yarn-common/yarn-default.xml",
            ),
            Source::Case(1),
        ],
    }],
    groups: &[SymptomGroup::Memory],
    explains: &[],
    fires_when: "the NodeManager's virtual-memory check is on with `vmem-pmem-ratio` ≤ 2.1 \
                 (Hadoop's defaults)",
    checks: "`yarn.nodemanager.vmem-check-enabled` (default true) and \
             `yarn.nodemanager.vmem-pmem-ratio` (default 2.1) in `yarn-site.xml`.",
    why: "A JVM reserves far more virtual address space than it uses: glibc malloc arenas \
          (64 MiB each, up to 8 per core), thread stacks, the code cache and the compressed class \
          space. With the check on, the NodeManager kills containers whose virtual size exceeds \
          physical × ratio although their resident memory is fine (case S1: containers killed \
          for mmap and JIT reservations).",
    false_positives: "Clusters that rely on the check to catch runaway native memory and size \
                      their ratio for it.",
    remedy:
        "Set `yarn.nodemanager.vmem-check-enabled=false` (resident memory is still enforced by \
             `pmem-check`), or raise `yarn.nodemanager.vmem-pmem-ratio` (e.g. 4–5); \
             `MALLOC_ARENA_MAX=4` in the container environment also shrinks the virtual size.",
    file: file!(),
};

/// The NodeManager's virtual-memory check and its ratio.
pub fn check(f: &HostFacts) -> Check {
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
        rule_id: META.id,
        explains: Vec::new(),
        area: META.area,
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
    fn fires_a_warning_at_the_default_check_and_ratio() {
        let v = found(check(&yarn(&[])));
        assert_eq!(v[0].severity, Severity::Warning);
        assert_eq!(v[0].confidence, Confidence::Medium);
        let v = found(check(&yarn(&[(
            "yarn.nodemanager.vmem-check-enabled",
            "true",
        )])));
        assert_eq!(v[0].evidence[0].lines, vec![10]);
    }

    #[test]
    fn clear_when_disabled_and_information_with_a_raised_ratio() {
        let v = found(check(&yarn(&[("yarn.nodemanager.vmem-pmem-ratio", "5")])));
        assert_eq!(v[0].severity, Severity::Info);
        assert!(is_clear(&check(&yarn(&[(
            "yarn.nodemanager.vmem-check-enabled",
            "false"
        )]))));
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
