//! How a collection tool's own run went, from its logs: the gaps it left in the evidence.
//!
//! In: the text of one log. Out: one record per log: [`sos_log`] (sosreport's `sos_logs/sos.log`
//! and `ui.log`: plugins and commands stopped at their time budget, commands skipped).

pub mod sos_log;
