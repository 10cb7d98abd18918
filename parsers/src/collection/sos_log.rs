//! sosreport's own logs, `sos_logs/sos.log` and `sos_logs/ui.log` (sos 3.x and 4.x): which
//! plugins and commands sos stopped at their time budget, and which commands it skipped.
//!
//! Every line of `sos.log` is `YYYY-MM-DD HH:MM:SS,mmm LEVEL: message`; a plugin's messages start
//! with `[plugin:NAME] ` (sos/report/plugins/__init__.py `_format_msg`). The lines read here
//! (sos/report/__init__.py `_collect_plugin`, plugins/__init__.py `_collect_cmd_output`,
//! `_add_cmd_output`, 3.x to 4.12):
//!
//! - `Plugin NAME timed out`: the plugin ran past `--plugin-timeout` (300 s by default); its
//!   commands after that point never ran. `sos.log` logs it at INFO, `ui.log` as ` Plugin NAME
//!   timed out` on a line of its own (after an `ERROR:` line);
//! - `[plugin:NAME] command 'CMD' timed out after Ns`: the command ran past `--cmd-timeout`;
//!   its output, if any, is cut;
//! - `[plugin:NAME] skipped command 'CMD': REASON` (a kernel module it needs is not loaded, a
//!   predicate failed).
//!
//! Sample (sos 4.12, `--plugin-timeout 6 --cmd-timeout 2`):
//! ```text
//! 2026-12-02 16:38:02,070 WARNING: [plugin:networking] skipped command 'ip -s macsec show': required kmods missing: macsec.   Use '--allow-system-changes' to enable collection.
//! 2026-12-02 16:38:04,504 WARNING: [plugin:process] command 'pstree -lp' timed out after 2s
//! 2026-12-02 16:38:08,123 INFO: Plugin networking timed out
//! ```

use crate::common::{clip, numbered_lines, strip_bom, ParseError, Parsed};
use serde::Serialize;

/// What sos's logs say about its run.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct SosLog {
    /// Plugins stopped at `--plugin-timeout`, each once, with the line of its first mention.
    pub plugins_timed_out: Vec<(String, usize)>,
    /// Commands stopped at `--cmd-timeout`.
    pub commands_timed_out: Vec<SosCommand>,
    /// Commands sos did not run, with its reason.
    pub commands_skipped: Vec<SosCommand>,
    /// Lines read as sos log lines (time stamp and level, or `ui.log`'s continuation lines).
    pub lines: usize,
}

/// One command a plugin meant to run.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct SosCommand {
    /// The plugin (`process`).
    pub plugin: String,
    /// The command line as sos logged it (`pstree -lp`).
    pub command: String,
    /// The time budget it ran out of, seconds (timed out only).
    pub seconds: Option<u64>,
    /// sos's reason (skipped only).
    pub reason: Option<String>,
    /// 1-based line.
    pub line: usize,
}

/// `2026-12-02 16:38:08,123 INFO: message` → `message`.
fn message(line: &str) -> Option<&str> {
    let b = line.as_bytes();
    let stamped = b.len() > 24
        && b.get(4) == Some(&b'-')
        && b.get(10) == Some(&b' ')
        && b.get(19) == Some(&b',')
        && b.iter().take(4).all(u8::is_ascii_digit);
    if !stamped {
        return None;
    }
    let rest = line.get(24..)?.trim_start();
    let (level, msg) = rest.split_once(':')?;
    matches!(level, "DEBUG" | "INFO" | "WARNING" | "ERROR" | "CRITICAL")
        .then(|| msg.strip_prefix(' ').unwrap_or(msg))
}

/// `Plugin NAME timed out` → NAME.
fn plugin_timed_out(msg: &str) -> Option<&str> {
    let name = msg
        .trim()
        .strip_prefix("Plugin ")?
        .strip_suffix(" timed out")?;
    (!name.is_empty() && !name.contains(' ')).then_some(name)
}

/// `[plugin:NAME] rest` → (NAME, rest).
fn plugin_msg(msg: &str) -> Option<(&str, &str)> {
    let (name, rest) = msg.strip_prefix("[plugin:")?.split_once("] ")?;
    Some((name, rest))
}

/// Parses `sos_logs/sos.log` or `sos_logs/ui.log`.
///
/// Errors: [`ParseError::Unusable`] when no line has sos's time stamp and level. Lines of other
/// shapes (a message's continuation lines, the banner) are skipped without an issue: the log is
/// free text around the lines read.
pub fn parse(text: &str) -> Result<Parsed<SosLog>, ParseError> {
    let mut out = SosLog::default();
    let note_plugin = |out: &mut SosLog, name: &str, n: usize| {
        if !out.plugins_timed_out.iter().any(|(p, _)| p == name) {
            out.plugins_timed_out.push((clip(name), n));
        }
    };
    let mut stamped = 0usize;
    for (n, line) in numbered_lines(strip_bom(text)) {
        let Some(msg) = message(line) else {
            // ui.log prints ` Plugin NAME timed out` on a line of its own.
            if stamped > 0 {
                if let Some(name) = plugin_timed_out(line) {
                    note_plugin(&mut out, name, n);
                    out.lines += 1;
                }
            }
            continue;
        };
        stamped += 1;
        out.lines += 1;
        if let Some(name) = plugin_timed_out(msg) {
            note_plugin(&mut out, name, n);
            continue;
        }
        let Some((plugin, rest)) = plugin_msg(msg) else {
            continue;
        };
        if let Some(r) = rest.strip_prefix("command '") {
            if let Some((cmd, tail)) = r.rsplit_once("' timed out after ") {
                out.commands_timed_out.push(SosCommand {
                    plugin: clip(plugin),
                    command: clip(cmd),
                    seconds: tail.trim().trim_end_matches('s').parse().ok(),
                    reason: None,
                    line: n,
                });
            }
        } else if let Some(r) = rest.strip_prefix("skipped command '") {
            if let Some((cmd, why)) = r.split_once("': ") {
                out.commands_skipped.push(SosCommand {
                    plugin: clip(plugin),
                    command: clip(cmd),
                    seconds: None,
                    reason: Some(clip(why.trim())),
                    line: n,
                });
            }
        }
    }
    if stamped == 0 {
        return Err(ParseError::unusable(
            None,
            "no line of sos's log shape (`YYYY-MM-DD HH:MM:SS,mmm LEVEL: message`)",
        ));
    }
    Ok(Parsed::clean(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOS: &str =
        include_str!("../../tests/fixtures/sos-log/sos4.12-debian12-timeouts-sos.log");
    const UI: &str = include_str!("../../tests/fixtures/sos-log/sos4.12-debian12-timeouts-ui.log");
    const QUIET: &str =
        include_str!("../../tests/fixtures/sos-log/hotsos__kubernetes-sos4.2-ui.log");

    #[test]
    fn timeouts_and_skips_of_a_real_run() {
        let s = parse(SOS).unwrap().value;
        assert_eq!(
            s.plugins_timed_out,
            [
                ("networking".to_string(), 584),
                ("process".to_string(), 585)
            ]
        );
        assert_eq!(s.commands_timed_out.len(), 2);
        let c = &s.commands_timed_out[0];
        assert_eq!(
            (c.plugin.as_str(), c.command.as_str(), c.seconds, c.line),
            ("process", "pstree -lp", Some(2), 502)
        );
        assert_eq!(
            s.commands_timed_out[1].command,
            "pidstat -p ALL -rudvwsRU --human -h"
        );
        assert_eq!(s.commands_skipped.len(), 2);
        assert_eq!(s.commands_skipped[0].command, "ip -s macsec show");
        assert!(s.commands_skipped[0]
            .reason
            .as_deref()
            .unwrap()
            .starts_with("required kmods missing: macsec."));
    }

    #[test]
    fn the_ui_log_names_the_plugins_on_lines_of_their_own() {
        let u = parse(UI).unwrap().value;
        assert_eq!(
            u.plugins_timed_out,
            [("networking".to_string(), 24), ("process".to_string(), 27)]
        );
        let q = parse(QUIET).unwrap().value;
        assert!(q.plugins_timed_out.is_empty() && q.commands_timed_out.is_empty());
        assert_eq!(q.lines, 5);
        assert!(parse("Plugin x timed out\n").is_err());
    }
}
