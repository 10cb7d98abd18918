//! `rca`: reads an evidence bundle, parses every artifact in parallel, turns facts into ranked
//! root-cause findings with the exact evidence lines, and renders them as HTML, JSON and a
//! terminal summary.
//!
//! The pipeline, one module per stage:
//! [`bundle`] (archive or directory → bounded entries) → [`artifacts`] (kind resolution and
//! parallel parsing with the `parsers` crate, one outcome per artifact) → [`facts`] (per-host
//! series and state, each value [`evidence::Cited`] with its lines) → [`rules`] (pure checks →
//! findings) → [`analysis`] (evidence excerpts) → [`report`] (HTML, JSON, terminal). Comparison
//! builds on the same stages: [`diff`] (a baseline and a suspect host → ranked differences) and
//! [`fleet`] (peer hosts → outliers).

pub mod analysis;
pub mod artifacts;
pub mod bundle;
pub mod diff;
pub mod evidence;
pub mod facts;
pub mod fleet;
pub mod layout;
pub mod manifest;
pub mod report;
pub mod rules;
