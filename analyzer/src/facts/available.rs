//! Facts the bundle may not hold: the value, or why it is missing.
//!
//! A part of [`super::HostFacts`] that is built from one kind of artifact (per-device I/O series,
//! per-CPU series, soft-IRQ rates, the module list) is an [`Available`]: present, or missing
//! with the reason a reader can act on (`no \`iostat -x\` output was parsed; no \`sar -d\`
//! either`). Rules name such parts in their `needs`; the registry answers "not evaluated" with
//! that reason before the check runs.

use parsers::kernel::modules::Module;
use serde::Serialize;
use std::ops::Deref;

/// Why a fact is not available.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Missing {
    /// For the reader, naming what was looked for (`no \`mpstat -P ALL\` output was parsed`).
    pub reason: String,
}

impl Default for Missing {
    /// A fact nothing was read for.
    fn default() -> Self {
        Missing {
            reason: "not in the bundle".into(),
        }
    }
}

/// A fact read from the bundle, or why it could not be: a `Result<T, Missing>` that defaults to
/// missing. A list of items dereferences to its items, none when missing.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Available<T> {
    /// Read from the bundle.
    Present(T),
    /// Not available, and why.
    Missing(Missing),
}

impl<T> Default for Available<T> {
    fn default() -> Self {
        Available::Missing(Missing::default())
    }
}

impl<T> From<T> for Available<T> {
    fn from(v: T) -> Self {
        Available::Present(v)
    }
}

impl<T> FromIterator<T> for Available<Vec<T>> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Available::Present(iter.into_iter().collect())
    }
}

impl<T> Available<T> {
    /// Present when `r` is `Ok`, else missing for its reason.
    pub fn from_result(r: Result<T, String>) -> Self {
        match r {
            Ok(v) => Available::Present(v),
            Err(reason) => Available::Missing(Missing { reason }),
        }
    }

    /// Missing, for `reason`.
    pub fn missing(reason: impl Into<String>) -> Self {
        Available::Missing(Missing {
            reason: reason.into(),
        })
    }

    /// The value, when present.
    pub fn get(&self) -> Option<&T> {
        match self {
            Available::Present(v) => Some(v),
            Available::Missing(_) => None,
        }
    }

    /// Why it is missing, when it is.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Available::Present(_) => None,
            Available::Missing(m) => Some(&m.reason),
        }
    }

    /// Whether it was read.
    pub fn is_present(&self) -> bool {
        matches!(self, Available::Present(_))
    }

    /// As a `Result`.
    pub fn as_result(&self) -> Result<&T, &Missing> {
        match self {
            Available::Present(v) => Ok(v),
            Available::Missing(m) => Err(m),
        }
    }
}

impl<T> Deref for Available<Vec<T>> {
    type Target = [T];

    /// The items; none when missing.
    fn deref(&self) -> &[T] {
        match self {
            Available::Present(v) => v,
            Available::Missing(_) => &[],
        }
    }
}

impl<'a, T> IntoIterator for &'a Available<Vec<T>> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.deref().iter()
    }
}

/// The loaded modules and the artifact they were read from: `/proc/modules` when present (it
/// carries taint letters), else `lsmod`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ModuleList {
    /// Bundle path of the artifact.
    pub artifact: String,
    /// The modules, in the artifact's order.
    pub modules: Vec<Module>,
}

impl Deref for ModuleList {
    type Target = [Module];

    fn deref(&self) -> &[Module] {
        &self.modules
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_reads_as_its_items_and_as_none_when_missing() {
        let present = Available::from_result(Ok(vec![1u32, 2]));
        assert_eq!(present.len(), 2);
        assert_eq!((&present).into_iter().sum::<u32>(), 3);
        assert_eq!(present.reason(), None);
        let missing: Available<Vec<u32>> =
            Available::from_result(Err("no `iostat -x` output".to_string()));
        assert!(missing.is_empty());
        assert_eq!(missing.reason(), Some("no `iostat -x` output"));
        assert!(!Available::<u8>::default().is_present());
    }
}
