//! Builders for rule tests: facts with citations pointing at plausible artifact lines.

use crate::evidence::Cited;
use crate::facts::{HostFacts, ProcessInfo};

pub fn c<T>(v: T) -> Cited<T> {
    Cited::new(v, "test/artifact.txt", 7)
}

pub fn with_process(mut f: HostFacts, comm: &str) -> HostFacts {
    f.processes.list.push(c(ProcessInfo {
        pid: 4242,
        comm: comm.into(),
        args: comm.into(),
        elapsed_s: None,
    }));
    f
}

pub fn found(check: super::Check) -> Vec<super::Finding> {
    match check {
        super::Check::Found(v) => v,
        super::Check::Clear(s) => panic!("expected a finding, got clear: {s}"),
        super::Check::NotEvaluated(s) => panic!("expected a finding, got not evaluated: {s}"),
    }
}

pub fn is_clear(check: &super::Check) -> bool {
    matches!(check, super::Check::Clear(_))
}

pub fn is_not_evaluated(check: &super::Check) -> bool {
    matches!(check, super::Check::NotEvaluated(_))
}

/// Runs a rule as the registry does: not evaluated when a fact it needs is missing.
pub fn run(
    meta: &'static super::RuleMeta,
    check: fn(&HostFacts) -> super::Check,
    f: &HostFacts,
) -> super::Check {
    super::Rule { meta, check }.run(f)
}
