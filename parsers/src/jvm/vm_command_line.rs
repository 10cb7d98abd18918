//! `jcmd PID VM.command_line`: how a running JVM was started.
//!
//! jcmd prints the target PID alone first (OpenJDK 17.0.15):
//! ```text
//! 24267:
//! VM Arguments:
//! jvm_args: -Xmx256m -Xms64m -XX:+UseG1GC
//! java_command: Alloc
//! java_class_path (initial): /tmp/jvmcap
//! Launcher Type: SUN_STANDARD
//! ```
//! Not handled: quoting inside `jvm_args` (split on whitespace).

use super::pid_line;
use crate::common::{excerpt, head_lines, numbered_lines, strip_bom, Issues};
use crate::common::{ParseError, Parsed, Sniff};
use serde::Serialize;

/// `jcmd PID VM.command_line` output.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct VmCommandLine {
    /// Target PID from jcmd's first line.
    pub pid: Option<u32>,
    /// `jvm_args:` split on whitespace, e.g. `["-Xmx256m", "-XX:+UseG1GC"]`.
    pub jvm_args: Vec<String>,
    /// `jvm_flags:` (flags from a `.hotspotrc` / `-XX:Flags=` file), split on whitespace.
    pub jvm_flags: Vec<String>,
    /// `java_command:` main class or `-jar` file and its arguments.
    pub java_command: Option<String>,
    /// `java_class_path (initial):`.
    pub class_path: Option<String>,
    /// `Launcher Type:`, e.g. `SUN_STANDARD`.
    pub launcher_type: Option<String>,
    /// Every `key: value` line in input order, with its 1-based line.
    pub entries: Vec<(String, String, usize)>,
}

/// `jcmd VM.command_line` output?
///
/// `Yes` on a complete `VM Arguments:`, `jvm_args:` or `java_command:` line; `No` otherwise.
pub fn sniff_vm_command_line(head: &str) -> Sniff {
    for (line, complete) in head_lines(head) {
        let t = line.trim_start();
        if complete
            && (t == "VM Arguments:"
                || t.starts_with("jvm_args:")
                || t.starts_with("java_command:"))
        {
            return Sniff::Yes;
        }
    }
    Sniff::No
}

/// Parses `jcmd PID VM.command_line`.
///
/// Errors: [`ParseError::Unusable`] when no `key: value` line is found. Lines without `:` become
/// issues.
pub fn parse_vm_command_line(text: &str) -> Result<Parsed<VmCommandLine>, ParseError> {
    let mut out = VmCommandLine::default();
    let mut issues = Issues::default();
    for (n, line) in numbered_lines(strip_bom(text)) {
        let t = line.trim();
        if t.is_empty() || t == "VM Arguments:" {
            continue;
        }
        if out.pid.is_none() && out.entries.is_empty() {
            if let Some(pid) = pid_line(t) {
                out.pid = Some(pid);
                continue;
            }
        }
        let Some((k, v)) = t.split_once(':') else {
            issues.push(n, || {
                format!("expected `key: value`, found `{}`", excerpt(line))
            });
            continue;
        };
        let (k, v) = (k.trim(), v.trim());
        match k {
            "jvm_args" => out.jvm_args = v.split_ascii_whitespace().map(str::to_string).collect(),
            "jvm_flags" => out.jvm_flags = v.split_ascii_whitespace().map(str::to_string).collect(),
            "java_command" => out.java_command = Some(v.to_string()),
            "java_class_path (initial)" => out.class_path = Some(v.to_string()),
            "Launcher Type" => out.launcher_type = Some(v.to_string()),
            _ => {}
        }
        out.entries.push((k.to_string(), v.to_string(), n));
    }
    if out.entries.is_empty() {
        return Err(ParseError::unusable(None, "no `key: value` line found"));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
