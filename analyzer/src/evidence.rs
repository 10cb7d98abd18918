//! What findings and facts cite: artifact lines, with their text once the rules have run.
//!
//! [`Cited`] is a value together with the lines it was read from; facts hold their values that
//! way, so a rule can only build a finding's [`Evidence`] from lines that exist ("every finding
//! cites its lines" holds by construction). [`ExcerptLine`] is one cited line's text, filled in
//! after the rules ran. This module sits below facts and rules: both use it, it uses neither.

use serde::{Deserialize, Serialize};

/// `value`, read from `lines` (1-based) of `artifact`.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(rename = "Cited_{T}")]
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

/// Lines of one artifact cited by a finding.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Evidence {
    /// Bundle path of the artifact.
    pub artifact: String,
    /// 1-based line numbers cited, ascending (header lines included).
    pub lines: Vec<usize>,
    /// What these lines show.
    pub note: String,
    /// When set, the nearest line above the first cited line that starts with this text (after
    /// leading blanks) is cited too: the table header that names the columns (`Device`).
    #[serde(skip)]
    pub header_prefix: Option<&'static str>,
    /// The cited lines with their text, filled in after the rules ran.
    pub excerpt: Vec<ExcerptLine>,
}

/// One line of an excerpt.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema, Deserialize)]
pub struct ExcerptLine {
    /// 1-based line number; 0 marks an elision ("…") between non-adjacent lines.
    pub line: usize,
    /// Verbatim text of the line (long lines shortened).
    pub text: String,
}

impl Evidence {
    /// Evidence over `lines` of `artifact` (sorted and deduplicated here).
    pub fn new(artifact: &str, mut lines: Vec<usize>, note: impl Into<String>) -> Self {
        lines.sort_unstable();
        lines.dedup();
        lines.retain(|&l| l > 0);
        Evidence {
            artifact: artifact.to_string(),
            lines,
            note: note.into(),
            header_prefix: None,
            excerpt: Vec::new(),
        }
    }

    /// Also cite the nearest table header above the cited lines that starts with `prefix`.
    pub fn with_header(mut self, prefix: &'static str) -> Self {
        self.header_prefix = Some(prefix);
        self
    }
}
