//! Kernel state: the boot command line, the taint flags, the kernel log (`dmesg`, and the
//! syslog-format logs that hold it: `journalctl`, `/var/log/messages`, `kern.log`), the loaded
//! modules and the sysctl settings.
//!
//! In: the text of `/proc/cmdline`, `/proc/sys/kernel/tainted`, `dmesg`, `journalctl` or a syslog file, `/proc/modules`,
//! `lsmod`, `modinfo`, or `sysctl -a` and `sysctl.conf` files. Out: one record per output,
//! every entry with the input line it was read from.

pub mod cmdline;
pub mod dmesg;
pub mod lsmod;
pub mod modinfo;
pub mod modules;
pub mod sysctl;
pub mod syslog;
pub mod taint;
