//! Linux `perf`: `perf report --stdio` (where the CPU time went, per symbol, DSO or command)
//! and `perf script` (every sample with its call chain), which can be folded into flame-graph
//! stacks.
//!
//! In: the text perf prints; `perf script` can also be read as a stream. Out: a profile per
//! event, or the samples, with shares in % and input line numbers; [`profile`] folds either
//! into one CPU profile (top symbols, kernel modules, lock and soft-IRQ paths, folded stacks).

pub mod profile;
pub mod report;
pub mod script;
