//! `proc.service-failing`: systemd services that are failed or restart-looping when the bundle
//! was taken.
//!
//! Reads the units of `systemctl status` (the collector's failed and restarting units and the
//! services of its JVMs, sosreport's `systemctl status --all`): a `.service` whose `Active:` is
//! `failed`, or `activating (auto-restart)`, or whose journal lines show systemd restarting it
//! (`Scheduled restart job, restart counter is at N`) or giving up (`Start request repeated too
//! quickly`), with its main process's last exit.

use crate::evidence::Cited;
use crate::facts::services::Service;
use crate::facts::{Fact, HostFacts};
use crate::rules::common::finding;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Restarts, by the counter systemd logs, from which a loop is critical rather than a warning.
const RESTARTS_CRITICAL: u64 = 5;

const SYSTEMD_SERVICE: Source = Source::Doc {
    document: "systemd.service(5)",
    section: Some("Restart=, RestartSec=: a service restarted when its process exits unclean (`on-failure`) or always; StartLimitIntervalSec=/StartLimitBurst= (systemd.unit(5)) stop the restarts and leave the unit failed with Result `start-limit-hit`"),
    url: Some("https://www.freedesktop.org/software/systemd/man/latest/systemd.service.html"),
};
const SYSTEMCTL: Source = Source::Doc {
    document: "systemctl(1)",
    section: Some("status; Unit states: `Active:` is active, reloading, inactive, failed, activating or deactivating, then the sub-state (`auto-restart`: waiting for the next automatic restart) and the `Result:` of the last run"),
    url: Some("https://www.freedesktop.org/software/systemd/man/latest/systemctl.html"),
};
const LOOP: Source = Source::Rca(
    "a unit systemd has restarted five times is not recovering by itself: each restart repeats \
     the start-up work (caches, connections, leader elections) its clients wait for; fewer \
     restarts may be one bad start, reported as a warning",
);

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "proc.service-failing",
    title: "systemd service failed or restart-looping",
    area: Area::Kernel,
    severity: Severity::Critical,
    needs: &[Fact::Services],
    reads: &[Fact::Jvms],
    thresholds: &[
        Threshold {
            name: "`Active:` state of a `.service`",
            value: Limit::OneOf(&["failed", "activating (auto-restart)"]),
            unit: "",
            meaning: "failed: a warning; between automatic restarts: a restart loop",
            sources: &[SYSTEMCTL, SYSTEMD_SERVICE],
        },
        Threshold {
            name: "`restart counter is at N` in the unit's journal lines",
            value: Limit::Count(RESTARTS_CRITICAL),
            unit: "restarts",
            meaning: "at or above, or `Start request repeated too quickly` (the start limit \
                      hit): critical",
            sources: &[LOOP, SYSTEMD_SERVICE],
        },
    ],
    groups: &[SymptomGroup::Threads],
    explains: &[],
    fires_when: "a `.service` is `failed` or `activating (auto-restart)` in `systemctl status`, or its journal lines show systemd restarting it (critical from 5 restarts, or when the start limit is hit)",
    checks: "Each `.service` of the `systemctl status` outputs: its `Active:` state, sub-state \
             and `Result:`, the `code=`/`status=` of its `Main PID:` line, and its journal \
             lines' `Scheduled restart job, restart counter is at N` and `Start request \
             repeated too quickly`.",
    why: "A service that keeps failing is down while systemd restarts it and does its start-up \
          work again each time: its clients see refused connections and time-outs that look \
          like a slow network or an overloaded host. A service left failed is simply gone; \
          everything that depends on it queues or errors.",
    false_positives: "A one-shot job that failed once long ago stays `failed` until reset: \
                      read its `since` time. `systemctl status` is a snapshot: a loop that \
                      ended before the collection shows only in the journal.",
    remedy: "Read the unit's own log (`journalctl -u UNIT -b`) for why its process exits \
             (`status=` is its exit code; `signal=KILL` often the OOM killer); fix the cause \
             before raising `StartLimitBurst=` or `RestartSec=`; `systemctl reset-failed UNIT` \
             clears a stale failure.",
    file: file!(),
};

fn why_exit(s: &Service) -> String {
    match &s.exit {
        Some((code, Some(status))) => {
            let what = if code == "exited" { "status" } else { "signal" };
            format!("its main process {code} ({what} {status})")
        }
        Some((code, None)) => format!("its main process {code}"),
        None => "no exit status shown".into(),
    }
}

fn judge(s: &Cited<Service>, jvm_pids: &[u32]) -> Option<Finding> {
    let v = &s.value;
    if !v.name.ends_with(".service") || !(v.failing() || v.restart_looping()) {
        return None;
    }
    let looping = v.restart_looping();
    let severity = if v.start_limit_hit || v.restart_counter.is_some_and(|n| n >= RESTARTS_CRITICAL)
    {
        Severity::Critical
    } else {
        Severity::Warning
    };
    let state = match (&v.state, &v.sub, &v.result) {
        (Some(st), Some(sub), Some(r)) => format!("{st} ({sub}, result {r})"),
        (Some(st), None, Some(r)) => format!("{st} (result {r})"),
        (Some(st), Some(sub), None) => format!("{st} ({sub})"),
        (Some(st), None, None) => st.clone(),
        _ => "state not shown".into(),
    };
    let mut title = if looping {
        match v.restart_counter {
            Some(n) => format!("Service {} restart-looping: restarted {n} times", v.name),
            None => format!("Service {} restart-looping", v.name),
        }
    } else {
        format!("Service {} failed", v.name)
    };
    if v.start_limit_hit {
        title.push_str(", start limit hit");
    }
    let mut why = format!("systemd shows {} {state}", v.name);
    if let Some(since) = &v.since {
        why.push_str(&format!(" since {since}"));
    }
    why.push_str(&format!("; {}.", why_exit(v)));
    if v.start_limit_hit {
        why.push_str(" systemd stopped restarting it (`Start request repeated too quickly`).");
    }
    let mut f = finding(
        &META,
        severity,
        if looping {
            Confidence::High
        } else {
            Confidence::Medium
        },
        title,
        why,
        vec![s.evidence(format!("{}: state, main process, restarts", v.name))],
        v.restart_counter.unwrap_or(0) as f64 + if v.start_limit_hit { 1000.0 } else { 0.0 },
    );
    if let Some(d) = &v.description {
        f.details.push(format!("Description: {d}."));
    }
    if let Some(pid) = v.main_pid.filter(|p| jvm_pids.contains(p)) {
        f.details.push(format!(
            "Its main process, PID {pid}, is a JVM examined in this bundle."
        ));
    }
    Some(f)
}

/// Failed and restart-looping services.
pub fn check(f: &HostFacts) -> Check {
    let units = &f.services;
    let jvm_pids: Vec<u32> = f.jvms.iter().filter_map(|j| j.pid).collect();
    let services = units
        .iter()
        .filter(|s| s.value.name.ends_with(".service"))
        .count();
    let out: Vec<Finding> = units.iter().filter_map(|s| judge(s, &jvm_pids)).collect();
    if out.is_empty() {
        Check::Clear(format!(
            "{services} services in `systemctl status`, none failed or restarting"
        ))
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::Available;
    use crate::rules::testkit::{found, is_clear, is_not_evaluated, run};

    fn facts(list: Vec<Service>) -> HostFacts {
        HostFacts {
            services: Available::Present(
                list.into_iter()
                    .map(|s| Cited::lines(s, "system/systemctl-status.txt", vec![1, 3, 5]))
                    .collect(),
            ),
            ..HostFacts::default()
        }
    }

    fn svc(name: &str, state: &str, sub: Option<&str>) -> Service {
        Service {
            name: name.into(),
            state: Some(state.into()),
            sub: sub.map(Into::into),
            ..Service::default()
        }
    }

    #[test]
    fn fires_on_a_restart_loop_and_a_start_limit() {
        let mut looping = svc("crashloop.service", "activating", Some("auto-restart"));
        looping.result = Some("exit-code".into());
        looping.exit = Some(("exited".into(), Some("3".into())));
        let mut gaveup = svc("gaveup.service", "failed", None);
        gaveup.restart_counter = Some(3);
        gaveup.start_limit_hit = true;
        let v = found(check(&facts(vec![looping, gaveup])));
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].title, "Service crashloop.service restart-looping");
        assert_eq!(v[0].severity, Severity::Warning);
        assert!(v[0].why.contains("exited (status 3)"), "{}", v[0].why);
        assert_eq!(
            v[1].title,
            "Service gaveup.service restart-looping: restarted 3 times, start limit hit"
        );
        assert_eq!(v[1].severity, Severity::Critical);
        assert_eq!(v[1].evidence[0].lines, [1, 3, 5]);
    }

    #[test]
    fn fires_on_a_failed_service_only() {
        let mut s = svc("oneshot-fail.service", "failed", None);
        s.result = Some("exit-code".into());
        let socket = svc("multipathd.socket", "failed", None);
        let v = found(check(&facts(vec![s, socket])));
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].title, "Service oneshot-fail.service failed");
        assert_eq!(v[0].confidence, Confidence::Medium);
    }

    #[test]
    fn clear_when_every_service_runs() {
        let c = check(&facts(vec![svc(
            "sleeper.service",
            "active",
            Some("running"),
        )]));
        assert!(is_clear(&c));
    }

    #[test]
    fn not_evaluated_without_systemctl_status() {
        let f = HostFacts {
            services: Available::missing("no `systemctl status` output was parsed"),
            ..HostFacts::default()
        };
        assert!(is_not_evaluated(&run(&META, check, &f)));
    }
}
