//! Linux `perf`: `perf report --stdio` (where the CPU time went, per symbol, DSO or command)
//! and `perf script` (every sample with its call chain), which can be folded into flame-graph
//! stacks.
//!
//! In: the text perf prints; `perf script` can also be read as a stream. Out: a profile per
//! event, or the samples, with shares in % and input line numbers.

pub mod report;
pub mod script;
