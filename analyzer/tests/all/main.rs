//! The analyzer's tests that need nothing but Rust: bundles in every form and hostile ones,
//! facts from real outputs, the sample bundles and their acceptance criteria, `rca diff` and
//! `rca fleet`, and the crate's structure (the kind table against the collector's, the modules'
//! layers). One binary: linking one test crate instead of one per file is what keeps a 2-core
//! build short.

mod common;

mod bad_input;
mod bundle_forms;
mod compression;
mod diff;
mod fleet;
mod jvm_facts;
mod kind_table;
mod layering;
mod links;
mod linux_facts;
mod profile;
mod sample_pairs;
mod samples;
