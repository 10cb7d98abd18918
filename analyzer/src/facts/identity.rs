//! Host identity from `uname -a`, `/etc/os-release`, the manifest and sysstat banners.

use crate::artifacts::Collected;
use parsers::host::{os_release::OsRelease, uname::Uname};
use parsers::kind::Record;
use parsers::sysstat::iostat::Iostat;
use parsers::sysstat::mpstat::Mpstat;
use serde::Serialize;

/// Who the host is. Each field comes from the most direct source available.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Identity {
    /// Host name (`uname -n`, else the manifest, else a sysstat banner).
    pub hostname: Option<String>,
    /// Kernel release (`uname -r`).
    pub kernel_release: Option<String>,
    /// Kernel version string (`uname -v`).
    pub kernel_version: Option<String>,
    /// Architecture (`x86_64`, `aarch64`).
    pub machine: Option<String>,
    /// OS name (os-release `PRETTY_NAME`).
    pub os: Option<String>,
    /// Logical CPU count as seen by sysstat.
    pub cpus: Option<u32>,
    /// Artifact paths these values were read from.
    pub sources: Vec<String>,
}

/// Combines every identity source in the bundle.
pub fn build(c: &Collected) -> Identity {
    let mut id = Identity::default();
    if let Some((a, u)) = c.records::<Uname>().next() {
        id.hostname = Some(u.nodename.clone());
        id.kernel_release = Some(u.release.clone());
        id.kernel_version = Some(u.version.clone());
        id.machine = u.machine.clone();
        id.sources.push(a.path.clone());
    }
    if let Some((a, o)) = c.records::<OsRelease>().next() {
        id.os = o.pretty_name();
        id.sources.push(a.path.clone());
    }
    if let Some(m) = &c.manifest {
        id.hostname = id.hostname.or_else(|| m.meta.hostname.clone());
        id.kernel_release = id.kernel_release.or_else(|| m.meta.kernel.clone());
        id.machine = id.machine.or_else(|| m.meta.machine.clone());
    }
    let banners = c.artifacts.iter().filter_map(|a| {
        let d = a.data.as_ref()?;
        match Iostat::of(d) {
            Some(i) => i.header.as_ref(),
            None => Mpstat::of(d)?.header.as_ref(),
        }
    });
    for h in banners {
        id.hostname = id.hostname.or_else(|| Some(h.nodename.clone()));
        id.kernel_release = id.kernel_release.or_else(|| Some(h.release.clone()));
        id.machine = id.machine.or_else(|| h.machine.clone());
        id.cpus = id.cpus.or(h.cpus);
    }
    id
}
