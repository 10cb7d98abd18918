//! The analyzer's tests that need nothing but Rust: bundles in every form (compressed, linked)
//! and hostile ones, incomplete collections, layouts (sosreport, supportconfig, OSWatcher), facts from real outputs, the
//! sample bundles and their acceptance criteria, captures far apart in time and very large trees
//! in the page, `rca diff` and `rca fleet`, the documents against their JSON Schemas, and the crate's structure (the kind table against the
//! collector's, the modules' layers). One binary: linking one test crate instead of one per file is what keeps a 2-core
//! build short.

mod common;

mod archive;
mod bad_input;
mod bundle_forms;
mod captures;
mod ceilings;
mod completions;
mod compression;
mod diff;
mod fleet;
mod fuzz_replay;
mod hostile_archives;
mod hostile_memory;
mod incidents_cgloose;
mod incidents_cgthp;
mod incidents_cpu;
mod incidents_fsblk;
mod incidents_jvm;
mod incidents_klog;
mod incidents_loose;
mod incidents_netfd;
mod incidents_nicq;
mod incidents_snapdiff;
mod incomplete;
mod jc;
mod jvm_facts;
mod kind_table;
mod large_tree;
mod layering;
mod layouts;
mod links;
mod linux_facts;
mod one_snapshot;
mod parse_cli;
mod profile;
mod redact;
mod redact_procnet;
mod sample_pairs;
mod samples;
mod schema;
mod sosreport;
mod terminal_injection;
