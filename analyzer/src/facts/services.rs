//! systemd services: each unit's activation state, its main process's last exit and the restart
//! evidence its journal lines show.
//!
//! In: `systemctl status` outputs (the collector's `system/systemctl-status.txt`, sosreport's
//! `systemctl_status_--all` and the per-plugin `systemctl_status_<unit>`). Out: one [`Service`]
//! per unit name, cited on its header, `Active:`, `Main PID:` and restart lines. A unit shown in
//! several outputs keeps the first block with an `Active:` line, unless another shows a higher
//! restart counter (each block is kept whole, so its citations stay its own).

use crate::artifacts::Collected;
use crate::evidence::Cited;
use parsers::host::systemctl_status::{SystemctlStatus, UnitStatus};
use parsers::kind;
use serde::Serialize;
use std::collections::BTreeMap;

/// One unit as `systemctl status` showed it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Service {
    /// Unit name (`kafka.service`).
    pub name: String,
    /// Its description.
    pub description: Option<String>,
    /// `Active` state: `active`, `failed`, `activating`…
    pub state: Option<String>,
    /// Sub-state: `running`, `auto-restart`, `dead`…
    pub sub: Option<String>,
    /// `Result:` of the last run (`exit-code`, `signal`, `core-dump`, `timeout`…).
    pub result: Option<String>,
    /// Since when it is in that state, as printed (host clock).
    pub since: Option<String>,
    /// Main process id.
    pub main_pid: Option<u32>,
    /// How the main process ended (`exited`, `killed`, `dumped`) and its `status=`/`signal=`.
    pub exit: Option<(String, Option<String>)>,
    /// `Scheduled restart job, restart counter is at N`: the highest N shown.
    pub restart_counter: Option<u64>,
    /// `Start request repeated too quickly`: systemd gave up restarting it.
    pub start_limit_hit: bool,
}

impl Service {
    /// Failed, or between two automatic restarts.
    pub fn failing(&self) -> bool {
        self.state.as_deref() == Some("failed") || self.sub.as_deref() == Some("auto-restart")
    }

    /// Restarted by systemd over and over: between two restarts now, a restart counter above
    /// zero, or its start limit hit.
    pub fn restart_looping(&self) -> bool {
        self.sub.as_deref() == Some("auto-restart")
            || self.restart_counter.is_some_and(|n| n > 0)
            || self.start_limit_hit
    }
}

fn service(u: &UnitStatus) -> Service {
    Service {
        name: u.name.clone(),
        description: u.description.clone(),
        state: u.active.as_ref().map(|a| a.state.clone()),
        sub: u.active.as_ref().and_then(|a| a.sub.clone()),
        result: u.active.as_ref().and_then(|a| a.result.clone()),
        since: u.active.as_ref().and_then(|a| a.since.clone()),
        main_pid: u.main_pid.as_ref().and_then(|m| m.pid),
        exit: u
            .main_pid
            .as_ref()
            .and_then(|m| Some((m.code.clone()?, m.status.clone()))),
        restart_counter: u.restart_counter.map(|(n, _)| n),
        start_limit_hit: u.start_limit_line.is_some(),
    }
}

fn lines(u: &UnitStatus) -> Vec<usize> {
    let mut l = vec![u.line];
    l.extend(u.active.as_ref().map(|a| a.line));
    l.extend(u.main_pid.as_ref().map(|m| m.line));
    l.extend(u.restart_counter.map(|(_, n)| n));
    l.extend(u.start_limit_line);
    l.sort_unstable();
    l.dedup();
    l
}

/// The units of every `systemctl status` output, by name; `Err` when none was parsed.
pub fn build(c: &Collected) -> Result<Vec<Cited<Service>>, String> {
    let mut by_name: BTreeMap<String, Cited<Service>> = BTreeMap::new();
    let mut any = false;
    for (a, s) in c.records::<SystemctlStatus>() {
        any = true;
        for u in &s.units {
            let new = Cited::lines(service(u), &a.path, lines(u));
            match by_name.get_mut(&u.name) {
                None => {
                    by_name.insert(u.name.clone(), new);
                }
                Some(old) => {
                    let better = (old.value.state.is_none() && new.value.state.is_some())
                        || new.value.restart_counter > old.value.restart_counter;
                    if better {
                        *old = new;
                    }
                }
            }
        }
    }
    // The collector asks for the failed and restarting services only
    // (`--state=failed,activating`): with none, systemctl prints nothing and exits 0, which is
    // an answer too.
    any |= c.artifacts.iter().any(|a| {
        a.is(&kind::SYSTEMCTL_STATUS)
            && a.text.is_blank()
            && a.record.as_ref().is_some_and(|r| r.exit == Some(0))
    });
    if !any {
        return Err("no `systemctl status` output was parsed".into());
    }
    Ok(by_name.into_values().collect())
}
