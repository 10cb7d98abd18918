//! The JVM: which one runs and how it was started (`java -version`, `jcmd` `VM.*`), its heap
//! and GC (`jstat`, `jcmd GC.heap_info`, `jmap -heap`, class histograms, GC logs), its threads (thread dumps,
//! thread counts) and the JVMs of a host (`jps`).
//!
//! In: the text of one output (jcmd prints the target PID alone first). Out: one record per
//! output; sizes in bytes or KiB as the tool prints them, named in each field's doc.

pub mod gclog;
pub mod heap_info;
pub mod heap_summary;
pub mod histogram;
pub mod java_version;
pub mod jps;
pub mod jstat;
pub mod thread_counts;
pub mod thread_dump;
pub mod vm_command_line;
pub mod vm_flags;
pub mod vm_system_properties;
pub mod vm_version;

/// Reads jcmd's first line, `24267:`.
fn pid_line(t: &str) -> Option<u32> {
    t.strip_suffix(':')?.parse().ok()
}
