//! CPU profile facts: the host's profiles, each with the artifact it was read from.
//!
//! In: the `perf script` artifacts, folded while parsed ([`parsers::perf::profile`]); without one,
//! the `perf report --stdio` that lists the most symbols. Out: [`Profile`]s.

use crate::artifacts::Collected;
use serde::Serialize;

pub use parsers::perf::profile::{
    base_symbol, Category, ModuleHeat, ProfileSource, Share, LOCK_FUNCTIONS, SCHED_FUNCTIONS,
    SOFTIRQ_FUNCTIONS, TOP,
};

/// One CPU profile of the host: the folded profile and where it was read.
///
/// Dereferences to the profile itself, so its fields read as `p.modules`, `p.busy_samples`.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct Profile {
    /// Bundle path of the artifact.
    pub artifact: String,
    /// The profile.
    #[serde(flatten)]
    pub data: parsers::perf::profile::Profile,
}

impl std::ops::Deref for Profile {
    type Target = parsers::perf::profile::Profile;
    fn deref(&self) -> &Self::Target {
        &self.data
    }
}

impl std::ops::DerefMut for Profile {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.data
    }
}

/// The host's profiles: every `perf script`; without one, the `perf report` with symbols.
pub fn build(c: &Collected) -> Vec<Profile> {
    let mut out: Vec<Profile> = c
        .records::<parsers::perf::profile::Profile>()
        .map(|(a, p)| Profile {
            artifact: a.path.clone(),
            data: p.clone(),
        })
        .collect();
    if out.is_empty() {
        let mut reports: Vec<Profile> = c
            .records::<parsers::perf::report::PerfReport>()
            .filter_map(|(a, r)| {
                parsers::perf::profile::from_report(r).map(|data| Profile {
                    artifact: a.path.clone(),
                    data,
                })
            })
            .collect();
        // The report sorted by symbol says the most.
        reports.sort_by_key(|p| std::cmp::Reverse(p.top_symbols.len()));
        out.extend(reports.into_iter().take(1));
    }
    out
}
