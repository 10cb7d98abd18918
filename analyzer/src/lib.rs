//! `rca`: reads an evidence bundle, parses every artifact in parallel, turns facts into ranked
//! root-cause findings with the exact evidence lines, and renders them as HTML, JSON and a
//! terminal summary.
//!
//! The pipeline, one module per stage, each importing only the stages before it (a test holds
//! them to it):
//! [`manifest`] (the collector's record of its run) and [`bundle`] (archive or directory →
//! bounded entries) → [`layout`] (where bundle layouts put each kind) → [`artifacts`] (kind
//! resolution by manifest, layout, then content, and parallel parsing with the `parsers` crate's
//! kind table, one outcome per artifact) → [`evidence`] (cited lines) → [`facts`] (per-host
//! series and state, each value [`evidence::Cited`] with its lines) → [`rules`] (pure checks →
//! findings) → [`analysis`] (the stages run in order, evidence excerpts) → [`report`] (HTML,
//! JSON, terminal). Comparison builds on the same stages: [`diff`] (a baseline and a suspect
//! host → ranked differences) and [`fleet`] (peer hosts → outliers). [`schema`] derives the
//! JSON Schemas of the three documents (`docs/schema/`).
//!
//! How to add an artifact kind or a rule: `docs/CONTRIBUTING.md`.
//!
//! Above every stage, [`cli`] holds the command line's clap definitions, which the binary parses
//! and from which the release's completion scripts and manual pages are generated.
//!
//! Below every stage, [`console`] is the only way to the terminal: it shows control and invisible
//! characters of bundle text as visible escapes, and catches parser panics quietly.

// The terminal is written through `console` only (see also `clippy.toml`).
#![deny(clippy::print_stdout, clippy::print_stderr, clippy::dbg_macro)]
// Bundle text is sliced only where a character boundary is certain: `&s[..n]` on a byte index
// panics inside a multi-byte character, so slicing goes through `get`, `split_at_checked`,
// `split_once` or `strip_prefix` (tests may slice their own text).
#![cfg_attr(not(test), deny(clippy::string_slice))]

pub mod analysis;
pub mod archive;
pub mod artifacts;
pub mod bundle;
pub mod cli;
pub mod console;
pub mod diff;
pub mod evidence;
pub mod facts;
pub mod fleet;
pub mod layout;
pub mod manifest;
pub mod memstat;
pub mod redact;
pub mod report;
pub mod rules;
pub mod schema;
