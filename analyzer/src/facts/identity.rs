//! Host identity from `uname -a`, `/etc/os-release`, the manifest and sysstat banners.

use super::conflicts::{choose, Conflict};
use crate::artifacts::Collected;
use crate::evidence::Cited;
use parsers::host::{os_release::OsRelease, uname::Uname};
use parsers::kind::Record;
use parsers::sysstat::iostat::Iostat;
use parsers::sysstat::mpstat::Mpstat;
use parsers::sysstat::pidstat::Pidstat;
use parsers::sysstat::sar::Sar;
use serde::Serialize;

/// Who the host is. Each field comes from the most direct source available.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
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

/// Combines every identity source in the bundle. The OS comes from `etc/os-release`, else
/// `usr/lib/os-release`, else any other os-release; the host name from `uname -n`, else the
/// manifest. Sources that disagree go to `conflicts`.
pub fn build(c: &Collected, conflicts: &mut Vec<Conflict>) -> Identity {
    let mut id = Identity::default();
    let unames: Vec<_> = c.records::<Uname>().collect();
    if let Some((a, u)) = unames.first() {
        id.hostname = Some(u.nodename.clone());
        id.kernel_release = Some(u.release.clone());
        id.kernel_version = Some(u.version.clone());
        id.machine = u.machine.clone();
        id.sources.push(a.path.clone());
    }
    let rank = |path: &str| {
        if path.ends_with("etc/os-release") {
            0
        } else if path.ends_with("usr/lib/os-release") {
            1
        } else {
            2
        }
    };
    let mut releases: Vec<_> = c
        .records::<OsRelease>()
        .filter_map(|(a, o)| Some((rank(&a.path), Cited::new(o.pretty_name()?, &a.path, 1))))
        .collect();
    releases.sort_by_key(|(r, _)| *r);
    if let Some(os) = choose(
        "OS",
        releases.into_iter().map(|(_, c)| c).collect(),
        |a, b| a == b,
        conflicts,
    ) {
        id.os = Some(os.value);
        id.sources.push(os.artifact);
    }
    let mut names: Vec<Cited<String>> = unames
        .iter()
        .map(|(a, u)| Cited::new(u.nodename.clone(), &a.path, u.line.max(1)))
        .collect();
    if let Some((m, p)) = c.manifest.as_ref().zip(c.manifest_path.as_ref()) {
        if let Some(h) = &m.meta.hostname {
            names.push(Cited::new(h.clone(), p, 1));
        }
    }
    // A short name and its FQDN are the same host.
    let short = |h: &str| h.split('.').next().unwrap_or(h).to_ascii_lowercase();
    choose("host name", names, |a, b| short(a) == short(b), conflicts);
    if let Some(m) = &c.manifest {
        id.hostname = id.hostname.or_else(|| m.meta.hostname.clone());
        id.kernel_release = id.kernel_release.or_else(|| m.meta.kernel.clone());
        id.machine = id.machine.or_else(|| m.meta.machine.clone());
    }
    let banners = c.artifacts.iter().filter_map(|a| {
        let d = a.data.as_ref()?;
        // Every sysstat tool prints the same banner: `Linux 6.1.0 (db1) 05/01/24 _x86_64_ (2 CPU)`.
        if let Some(i) = Iostat::of(d) {
            return i.header.as_ref();
        }
        if let Some(m) = Mpstat::of(d) {
            return m.header.as_ref();
        }
        if let Some(p) = Pidstat::of(d) {
            return p.header.as_ref();
        }
        Sar::of(d)?.header.as_ref()
    });
    for h in banners {
        id.hostname = id.hostname.or_else(|| Some(h.nodename.clone()));
        id.kernel_release = id.kernel_release.or_else(|| Some(h.release.clone()));
        id.machine = id.machine.or_else(|| h.machine.clone());
        id.cpus = id.cpus.or(h.cpus);
    }
    id
}
