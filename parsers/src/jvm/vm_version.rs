//! `jcmd PID VM.version`: the VM and JDK version of a running JVM.
//!
//! jcmd prints the target PID alone first (`24267:`). Sample input (OpenJDK 17.0.15):
//! ```text
//! 24267:
//! OpenJDK 64-Bit Server VM version 17.0.15+6-Debian-1deb12u1
//! JDK 17.0.15
//! ```

use super::java_version::feature_of;
use super::pid_line;
use crate::common::{excerpt, head_lines, numbered_lines, strip_bom, Issues};
use crate::common::{ParseError, Parsed, Sniff};
use serde::Serialize;

/// `jcmd PID VM.version` output.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct VmVersion {
    /// Target PID from jcmd's first line.
    pub pid: Option<u32>,
    /// VM name, e.g. `OpenJDK 64-Bit Server VM`.
    pub vm_name: String,
    /// VM version after `version`, e.g. `17.0.15+6-Debian-1deb12u1` (JDK 8: `25.372-b07`).
    pub vm_version: String,
    /// 1-based input line of the VM line.
    pub vm_line: usize,
    /// JDK version from the `JDK …` line, e.g. `17.0.15` (JDK 8: `8.0_372`).
    pub jdk_version: Option<String>,
    /// Feature release from `jdk_version`.
    pub feature: Option<u32>,
    /// 1-based input line of the `JDK` line.
    pub jdk_line: Option<usize>,
}

/// `jcmd VM.version` output?
///
/// `Yes` on a complete `… VM version …` line; `No` otherwise.
pub fn sniff_vm_version(head: &str) -> Sniff {
    for (line, complete) in head_lines(head) {
        if complete && line.contains(" VM version ") {
            return Sniff::Yes;
        }
    }
    Sniff::No
}

/// Parses `jcmd PID VM.version`.
///
/// Errors: [`ParseError::Unusable`] without a `… VM version …` line. Other unexpected lines
/// become issues.
pub fn parse_vm_version(text: &str) -> Result<Parsed<VmVersion>, ParseError> {
    let mut out = VmVersion::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if out.pid.is_none() && out.vm_line == 0 {
            if let Some(pid) = pid_line(t) {
                out.pid = Some(pid);
                continue;
            }
        }
        if let Some((name, version)) = t.split_once(" version ") {
            if out.vm_line == 0 && name.ends_with("VM") {
                out.vm_name = name.to_string();
                out.vm_version = version.trim().to_string();
                out.vm_line = n;
                continue;
            }
        }
        if let Some(v) = t.strip_prefix("JDK ") {
            out.jdk_version = Some(v.trim().to_string());
            out.feature = feature_of(v.trim());
            out.jdk_line = Some(n);
            continue;
        }
        issues.push(n, || {
            format!(
                "expected `… VM version …` or `JDK …`, found `{}`",
                excerpt(line)
            )
        });
    }
    if out.vm_line == 0 {
        return Err(ParseError::unusable(None, "no `… VM version …` line found"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
