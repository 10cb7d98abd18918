//! What the host is: its kernel and distribution (`uname -a`, `/etc/os-release`), its hardware
//! and hypervisor (`dmidecode`, `systemd-detect-virt`, `lscpu`, `lspci`), its services (`systemctl
//! status`: load and activation state, last exit, restart evidence), the VMware balloon,
//! CPU frequency scaling (`cpupower frequency-info`, cpufreq sysfs files, `tuned-adm`), the
//! transparent huge page settings ([`thp`]), and [`platform`](platform::platform), which combines
//! the virtualisation evidence into one
//! verdict.
//!
//! In: the text of one output. Out: one record per output; `platform` takes records, not text.

pub mod cpufreq;
pub mod cpupower;
pub mod detect_virt;
pub mod dmidecode;
pub mod lscpu;
pub mod lspci;
pub mod os_release;
pub mod platform;
pub mod systemctl_status;
pub mod thp;
pub mod tuned;
pub mod uname;
pub mod vmware_balloon;
