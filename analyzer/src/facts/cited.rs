//! A value together with the artifact lines it was read from.

use crate::rules::Evidence;
use serde::Serialize;

/// `value`, read from `lines` (1-based) of `artifact`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cited<T> {
    /// The value.
    pub value: T,
    /// Bundle path of the artifact.
    pub artifact: String,
    /// 1-based lines the value rests on.
    pub lines: Vec<usize>,
}

impl<T> Cited<T> {
    /// `value` from one line of `artifact`.
    pub fn new(value: T, artifact: &str, line: usize) -> Self {
        Cited {
            value,
            artifact: artifact.to_string(),
            lines: vec![line],
        }
    }

    /// `value` from several lines of `artifact`.
    pub fn lines(value: T, artifact: &str, lines: Vec<usize>) -> Self {
        Cited {
            value,
            artifact: artifact.to_string(),
            lines,
        }
    }

    /// Evidence citing these lines.
    pub fn evidence(&self, note: impl Into<String>) -> Evidence {
        Evidence::new(&self.artifact, self.lines.clone(), note)
    }
}
