//! One host fact stated by several artifacts: the canonical source wins, a disagreement is kept.
//!
//! In: the candidates for one fact (taint, OS, memory, host name), each a [`Cited`] value, in
//! the order of how directly their source states the fact (`/proc/sys/kernel/tainted` before
//! `sysctl -a`'s `kernel.tainted`; `/proc/meminfo` before `free`). Out: the value taken and, when
//! another source says something else, a [`Conflict`] that the report lists with both citations.

use crate::evidence::Cited;
use serde::Serialize;
use std::fmt::Display;

/// Sources that state one host fact differently.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Conflict {
    /// The fact (`kernel taint`, `OS`, `MemTotal`, `host name`).
    pub fact: &'static str,
    /// The value taken, from the canonical source, as displayed.
    pub taken: Cited<String>,
    /// The other sources' values that differ, as displayed.
    pub set_aside: Vec<Cited<String>>,
}

/// Takes the first of `candidates` (canonical first) and records the others that differ from it
/// (by `same`) in `conflicts`. `None` when there is no candidate.
pub fn choose<T: Clone + Display>(
    fact: &'static str,
    candidates: Vec<Cited<T>>,
    same: impl Fn(&T, &T) -> bool,
    conflicts: &mut Vec<Conflict>,
) -> Option<Cited<T>> {
    let mut it = candidates.into_iter();
    let taken = it.next()?;
    let shown = |c: &Cited<T>| Cited {
        value: c.value.to_string(),
        artifact: c.artifact.clone(),
        lines: c.lines.clone(),
    };
    let differ: Vec<Cited<String>> = it
        .filter(|c| !same(&c.value, &taken.value))
        .map(|c| shown(&c))
        .collect();
    if !differ.is_empty() {
        conflicts.push(Conflict {
            fact,
            taken: shown(&taken),
            set_aside: differ,
        });
    }
    Some(taken)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_candidate_wins_and_a_different_one_is_listed() {
        let mut conflicts = Vec::new();
        let got = choose(
            "kernel taint",
            vec![
                Cited::new(0u64, "proc/sys/kernel/tainted", 1),
                Cited::new(0u64, "sos_commands/kernel/sysctl_-a", 40),
                Cited::new(4096u64, "sos_commands/kernel/other", 2),
            ],
            |a, b| a == b,
            &mut conflicts,
        )
        .unwrap();
        assert_eq!(
            (got.value, got.artifact.as_str()),
            (0, "proc/sys/kernel/tainted")
        );
        assert_eq!(conflicts.len(), 1);
        assert_eq!(conflicts[0].set_aside.len(), 1);
        assert_eq!(conflicts[0].set_aside[0].value, "4096");
        assert!(choose::<u64>("x", Vec::new(), |a, b| a == b, &mut conflicts).is_none());
        assert_eq!(conflicts.len(), 1);
    }
}
