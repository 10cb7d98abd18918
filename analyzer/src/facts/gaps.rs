//! Gaps the collection tool says it left: evidence that is missing or cut because the tool gave
//! up on it, which must not read as "nothing found".
//!
//! In: sosreport's own logs (`sos_logs/sos.log`, `ui.log`) and its manifest's `timeout_hit`
//! plugins (the manifest's `sos_plugins_timed_out`). Out: [`CollectionGap`]s, each naming the
//! artifact kinds it may have cost: a plugin stopped at `--plugin-timeout` costs every kind the
//! sosreport layout files under `sos_commands/<plugin>/`; a command stopped at `--cmd-timeout`
//! costs the kind of its output. The rules' registry answers "not evaluated" with the gap for a
//! rule whose needed facts come from such a kind and that found nothing.

use crate::artifacts::Collected;
use crate::evidence::Cited;
use crate::layout::sosreport;
use parsers::collection::sos_log::SosLog;
use serde::Serialize;

/// One gap in the evidence, as the collection tool reported it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CollectionGap {
    /// What happened, for the reader (`sos plugin \`process\` timed out`).
    pub what: String,
    /// The artifact kinds it may have left missing or cut (`ps`, `pidstat`).
    pub kinds: Vec<&'static str>,
    /// The log line that says so, when a log does.
    pub evidence: Option<Cited<()>>,
}

/// The gaps of one bundle, each plugin once.
pub fn build(c: &Collected) -> Vec<CollectionGap> {
    let mut out: Vec<CollectionGap> = Vec::new();
    let mut plugins: Vec<String> = Vec::new();
    let kinds_of = |plugin: &str| -> Vec<&'static str> {
        sosreport::plugin_kinds(plugin)
            .iter()
            .map(|k| k.name)
            .collect()
    };
    for (a, log) in c.records::<SosLog>() {
        for (plugin, line) in &log.plugins_timed_out {
            if plugins.contains(plugin) {
                continue;
            }
            plugins.push(plugin.clone());
            out.push(CollectionGap {
                what: format!("sos plugin `{plugin}` timed out"),
                kinds: kinds_of(plugin),
                evidence: Some(Cited::new((), &a.path, *line)),
            });
        }
        for cmd in &log.commands_timed_out {
            let Some(k) = sosreport::command_kind(&cmd.plugin, &cmd.command) else {
                continue;
            };
            let after = cmd
                .seconds
                .map(|s| format!(" after {s} s"))
                .unwrap_or_default();
            out.push(CollectionGap {
                what: format!(
                    "sos command `{}` (plugin `{}`) timed out{after}",
                    cmd.command, cmd.plugin
                ),
                kinds: vec![k.name],
                evidence: Some(Cited::new((), &a.path, cmd.line)),
            });
        }
    }
    let from_manifest = c
        .manifest
        .as_ref()
        .and_then(|m| m.meta.raw.get("sos_plugins_timed_out"));
    for plugin in from_manifest.into_iter().flat_map(|v| v.split_whitespace()) {
        if plugins.iter().any(|p| p == plugin) {
            continue;
        }
        plugins.push(plugin.to_string());
        out.push(CollectionGap {
            what: format!("sos plugin `{plugin}` timed out (its manifest says `timeout_hit`)"),
            kinds: kinds_of(plugin),
            evidence: None,
        });
    }
    out
}
