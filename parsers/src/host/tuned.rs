//! `tuned-adm active` and `tuned-adm list` (TuneD, Red Hat's tuning daemon): the profile in
//! force, or the preset one when the daemon is not running.
//!
//! Format, as TuneD's `tuned-adm` prints it: `Current active profile: NAME`; `No current active
//! profile.` (after `Cannot talk to TuneD daemon via DBus. Is TuneD daemon running?` when the
//! daemon is stopped); `tuned-adm list` prints `Available profiles:` and one `- NAME` line per
//! profile (with ` - description` since TuneD 2.7) before the same closing lines, or `It seems
//! that tuned daemon is not running, preset profile is not activated.` and `Preset profile:
//! NAME`. A profile is a set of tunings, one of which may be a cpufreq governor: its name is
//! what was asked for, not what the CPUs run (read the governor from sysfs for that).
//!
//! Seen in: tuned-adm 2.20.0 (Debian 12, captured with the daemon stopped); `tuned-adm list`
//! outputs from RHEL in insights-core's test data (profiles with and without descriptions, the
//! daemon running and stopped).
//!
//! Sample input (insights-core):
//! ```text
//! Available profiles:
//! - balanced
//! - virtual-guest
//! Current active profile: virtual-guest
//! ```

use crate::common::{excerpt, head_lines, numbered_lines, strip_bom, ParseError, Parsed, Sniff};
use serde::Serialize;

/// What `tuned-adm` said about profiles.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Tuned {
    /// `Current active profile: NAME` and its 1-based line.
    pub active: Option<(String, usize)>,
    /// `Preset profile: NAME` (daemon not running) and its 1-based line.
    pub preset: Option<(String, usize)>,
    /// `No current active profile.` was printed, at this 1-based line.
    pub none_active_line: Option<usize>,
    /// The daemon could not be reached (`Cannot talk to TuneD daemon` or `tuned daemon is not
    /// running`).
    pub daemon_unreachable: bool,
    /// `Available profiles:` names, in printed order.
    pub available: Vec<String>,
}

const ACTIVE: &str = "Current active profile:";
const PRESET: &str = "Preset profile:";
const NONE: &str = "No current active profile.";

/// `tuned-adm` output? `Yes` when a line starts `Current active profile: `, `Preset profile: `,
/// is `No current active profile.` or `Available profiles:` followed by a `- NAME` line; `No`
/// otherwise.
pub fn sniff(head: &str) -> Sniff {
    let mut listing = false;
    for (line, complete) in head_lines(head) {
        let l = line.trim_end();
        if !complete {
            break;
        }
        if l.starts_with(ACTIVE) || l.starts_with(PRESET) || l == NONE {
            return Sniff::Yes;
        }
        if listing && l.starts_with("- ") {
            return Sniff::Yes;
        }
        listing = l == "Available profiles:";
    }
    Sniff::No
}

/// Parses `tuned-adm active` or `tuned-adm list`.
///
/// Errors: [`ParseError::Unusable`] when no line says which profile is active, preset or that
/// none is, and no profile is listed. Lines of another shape are skipped without an issue
/// (`tuned-adm` may print hints and warnings around them).
pub fn parse(text: &str) -> Result<Parsed<Tuned>, ParseError> {
    let mut t = Tuned::default();
    let mut listing = false;
    for (n, raw) in numbered_lines(strip_bom(text)) {
        let l = raw.trim();
        if let Some(name) = l.strip_prefix(ACTIVE) {
            t.active = Some((name.trim().to_string(), n));
        } else if let Some(name) = l.strip_prefix(PRESET) {
            t.preset = Some((name.trim().to_string(), n));
        } else if l == NONE {
            t.none_active_line = Some(n);
        } else if l.starts_with("Cannot talk to TuneD daemon")
            || l.contains("tuned daemon is not running")
        {
            t.daemon_unreachable = true;
        } else if l == "Available profiles:" {
            listing = true;
            continue;
        } else if listing {
            if let Some(rest) = l.strip_prefix("- ") {
                let name = rest.split(" - ").next().unwrap_or(rest).trim();
                if !name.is_empty() {
                    t.available.push(name.to_string());
                }
                continue;
            }
        }
        listing = false;
    }
    if t.active.is_none() && t.preset.is_none() && t.none_active_line.is_none() {
        let first = numbered_lines(text).find(|(_, l)| !l.trim().is_empty());
        return Err(ParseError::unusable(
            first.map(|(n, _)| n),
            format!(
                "no `{ACTIVE}`, `{PRESET}` or `{NONE}` line{}",
                first
                    .map(|(_, l)| format!(" (first line `{}`)", excerpt(l)))
                    .unwrap_or_default()
            ),
        ));
    }
    Ok(Parsed::clean(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    const STOPPED: &str =
        include_str!("../../tests/fixtures/tuned-adm/captured-active-daemon-stopped.txt");
    const LIST: &str =
        include_str!("../../tests/fixtures/tuned-adm/insights-core__list-active-virtual-guest.txt");
    const PRESET_LIST: &str = include_str!(
        "../../tests/fixtures/tuned-adm/insights-core__list-daemon-stopped-preset.txt"
    );
    const DESCRIBED: &str =
        include_str!("../../tests/fixtures/tuned-adm/insights-core__list-with-descriptions.txt");

    #[test]
    fn reads_the_active_profile() {
        let t = parse(LIST).unwrap().value;
        assert_eq!(t.active, Some(("virtual-guest".to_string(), 11)));
        assert_eq!(t.available.len(), 9);
        assert_eq!(t.available[5], "powersave");
        let d = parse(DESCRIBED).unwrap().value;
        assert_eq!(d.active, Some(("virtual-guest-vmware".to_string(), 14)));
        assert_eq!(d.available.len(), 12);
        assert!(d.available.iter().any(|p| p == "sap-netweaver"));
    }

    #[test]
    fn reads_a_stopped_daemon() {
        let t = parse(STOPPED).unwrap().value;
        assert!(t.daemon_unreachable);
        assert_eq!((t.active.clone(), t.none_active_line), (None, Some(2)));
        let p = parse(PRESET_LIST).unwrap().value;
        assert!(p.daemon_unreachable);
        assert_eq!(p.preset, Some(("virtual-guest".to_string(), 12)));
        assert_eq!(p.active, None);
    }

    #[test]
    fn sniffs_its_outputs_only() {
        for t in [STOPPED, LIST, PRESET_LIST, DESCRIBED] {
            assert_eq!(sniff(t), Sniff::Yes);
        }
        assert_eq!(sniff("performance\n"), Sniff::No);
        assert!(parse("performance\n").is_err());
        assert!(parse("").is_err());
    }
}
