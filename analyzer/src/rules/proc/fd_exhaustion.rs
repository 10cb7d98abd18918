//! `proc.fd-exhaustion`: processes at or near their open-file limit, and the host's file
//! handles near `fs.file-max`.
//!
//! Reads each examined process's open descriptors (the count of `/proc/<pid>/fd`) against the
//! `Max open files` soft limit of its `/proc/<pid>/limits`, and the host's file handles
//! (`/proc/sys/fs/file-nr`, else `fs.file-nr` in `sysctl -a`) against their maximum.

use crate::facts::limits::ProcessLimits;
use crate::facts::{Fact, HostFacts};
use crate::rules::common::finding;
use crate::rules::{
    Area, Check, Confidence, Finding, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold,
};

/// Share of the soft `RLIMIT_NOFILE` in use for a warning.
const NOFILE_WARN: f64 = 0.90;
/// Share of `fs.file-max` allocated for a warning.
const FILE_MAX_WARN: f64 = 0.90;

const GETRLIMIT: Source = Source::Doc {
    document: "getrlimit(2)",
    section: Some("RLIMIT_NOFILE: a value one greater than the maximum file descriptor number that can be opened; attempts to exceed it fail with EMFILE"),
    url: Some("https://man7.org/linux/man-pages/man2/getrlimit.2.html"),
};
const PROC_FD: Source = Source::Doc {
    document: "proc(5)",
    section: Some("/proc/pid/fd/ (one entry per open descriptor), /proc/pid/limits"),
    url: Some("https://man7.org/linux/man-pages/man5/proc.5.html"),
};
const FS_RST: Source = Source::Doc {
    document: "Linux kernel documentation, Documentation/admin-guide/sysctl/fs.rst",
    section: Some("file-max & file-nr"),
    url: Some("https://docs.kernel.org/admin-guide/sysctl/fs.html"),
};
const HEADROOM: Source = Source::Rca(
    "the last tenth of a limit is headroom a burst of connections or files uses up in seconds: \
     at 90 % the next burst fails, so it is reported before the failures start",
);

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "proc.fd-exhaustion",
    title: "Processes or the host out of file descriptors",
    area: Area::Kernel,
    severity: Severity::Critical,
    needs: &[Fact::Limits],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "open descriptors / `Max open files` soft limit",
            value: Limit::Num(1.0),
            unit: "",
            meaning: "at the limit: critical — the next open(), socket() or accept() fails with \
                      EMFILE (\"Too many open files\")",
            sources: &[GETRLIMIT, PROC_FD],
        },
        Threshold {
            name: "open descriptors / `Max open files` soft limit",
            value: Limit::Num(NOFILE_WARN),
            unit: "",
            meaning: "at or above: a warning",
            sources: &[HEADROOM, GETRLIMIT],
        },
        Threshold {
            name: "file-nr allocated / file-max",
            value: Limit::Num(FILE_MAX_WARN),
            unit: "",
            meaning: "at or above: a warning; at the maximum: critical (every process's open \
                      fails with ENFILE, \"VFS: file-max limit reached\")",
            sources: &[FS_RST, HEADROOM],
        },
    ],
    groups: &[SymptomGroup::NetworkPath, SymptomGroup::Threads],
    explains: &["net.listen-overflow"],
    fires_when: "a process's open descriptors reach 90 % of its `Max open files` soft limit, or the host's file handles 90 % of `fs.file-max`",
    checks: "For each examined process, the entries of `/proc/<pid>/fd` against the soft `Max \
             open files` of `/proc/<pid>/limits`; for the host, the allocated handles of \
             `/proc/sys/fs/file-nr` (else `fs.file-nr` in `sysctl -a`) against its maximum.",
    why: "A process at its descriptor limit cannot accept connections, open files or create \
          sockets: accept() fails with EMFILE, connections wait in the accept queue until it \
          overflows, clients time out while the process's CPU looks idle. At `fs.file-max` every \
          process fails the same way (ENFILE).",
    false_positives: "A count read at one moment: a process that opens and closes many \
                      descriptors may be near its limit only briefly. A limit raised after the \
                      process started applies only to processes started later.",
    remedy: "Find what holds the descriptors (`ls -l /proc/<pid>/fd`, `lsof -p <pid>`: leaked \
             sockets in CLOSE_WAIT, unclosed files); raise the limit (`LimitNOFILE=` in the \
             systemd unit, `nofile` in /etc/security/limits.conf) and `fs.file-max` when the \
             load is real.",
    file: file!(),
};

/// The soft `Max open files` of `p` and its open descriptors, when both are known and finite.
fn usage(p: &ProcessLimits) -> Option<(u64, u64)> {
    let soft = p.limits.get("RLIMIT_NOFILE")?.value.soft.finite()?;
    Some((p.open_fds.as_ref()?.value, soft))
}

/// Descriptors in use against their limits.
pub fn check(f: &HostFacts) -> Check {
    let l = &f.limits;
    let judged: Vec<&ProcessLimits> = l
        .processes
        .iter()
        .filter(|p| usage(p).is_some_and(|(_, soft)| soft > 0))
        .collect();
    let host = l.file_nr.as_ref().filter(|x| x.value.max > 0);
    if judged.is_empty() && host.is_none() {
        return Check::NotEvaluated(
            "no process with both a descriptor count and `/proc/<pid>/limits`, and no \
             `/proc/sys/fs/file-nr`"
                .into(),
        );
    }
    let mut out: Vec<Finding> = Vec::new();
    let mut clear = Vec::new();
    for p in &judged {
        let Some((open, soft)) = usage(p) else {
            continue;
        };
        let share = open as f64 / soft as f64;
        let who = match (p.pid, p.comm.as_deref()) {
            (Some(pid), Some(c)) => format!("PID {pid} ({c})"),
            (Some(pid), None) => format!("PID {pid}"),
            _ => p.dir.clone(),
        };
        if share < NOFILE_WARN {
            clear.push(format!("{who}: {open} of {soft}"));
            continue;
        }
        let severity = if open >= soft {
            Severity::Critical
        } else {
            Severity::Warning
        };
        let mut evidence = Vec::new();
        if let Some(n) = &p.open_fds {
            evidence.push(n.evidence(format!("{who}: open descriptors")));
        }
        if let Some(lim) = p.limits.get("RLIMIT_NOFILE") {
            evidence.push(lim.evidence(format!("{who}: Max open files")));
        }
        let title = if open >= soft {
            format!("{who} at its open-file limit: {open} descriptors open, soft limit {soft}")
        } else {
            format!(
                "{who} near its open-file limit: {open} of {soft} descriptors ({:.0} %)",
                share * 100.0
            )
        };
        out.push(finding(
            &META,
            severity,
            Confidence::High,
            title,
            format!(
                "{who} holds {open} descriptors against a soft `Max open files` of {soft}: \
                 {}",
                if open >= soft {
                    "its next open(), socket() or accept() fails with EMFILE (\"Too many open files\")."
                } else {
                    "a burst of connections or files will exhaust it (EMFILE)."
                }
            ),
            evidence,
            share,
        ));
    }
    if let Some(h) = host {
        let x = &h.value;
        let share = x.in_use() as f64 / x.max as f64;
        if share >= FILE_MAX_WARN {
            let severity = if x.in_use() >= x.max {
                Severity::Critical
            } else {
                Severity::Warning
            };
            out.push(finding(
                &META,
                severity,
                Confidence::High,
                format!(
                    "Host file handles at {:.0} % of fs.file-max ({} of {})",
                    share * 100.0,
                    x.in_use(),
                    x.max
                ),
                "When the host's file handles reach fs.file-max, every process's open fails \
                 with ENFILE."
                    .into(),
                vec![h.evidence("file-nr: allocated, unused, max")],
                share,
            ));
        } else {
            clear.push(format!(
                "host: {} of {} file handles ({:.2} %)",
                x.in_use(),
                x.max,
                share * 100.0
            ));
        }
    }
    if out.is_empty() {
        Check::Clear(clear.join("; "))
    } else {
        Check::Found(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::limits::Limit as L;
    use crate::rules::testkit::{c, found, is_clear, is_not_evaluated};
    use parsers::proc::file_nr::FileNr;
    use parsers::proc::limits::LimitValue;

    fn process(open: u64, soft: u64) -> ProcessLimits {
        let mut p = ProcessLimits {
            pid: Some(11573),
            comm: Some("python3".into()),
            dir: "proc/11573".into(),
            open_fds: Some(c(open)),
            ..Default::default()
        };
        p.limits.insert(
            "RLIMIT_NOFILE".into(),
            c(L {
                name: "Max open files".into(),
                soft: LimitValue::Value(soft),
                hard: Some(LimitValue::Value(soft)),
                unit: Some("files".into()),
            }),
        );
        p
    }

    #[test]
    fn fires_critical_at_the_limit_and_warns_near_it() {
        let mut f = HostFacts::default();
        f.limits.processes.push(process(256, 256));
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Critical);
        assert_eq!(
            v[0].title,
            "PID 11573 (python3) at its open-file limit: 256 descriptors open, soft limit 256"
        );
        assert_eq!(v[0].evidence.len(), 2);
        f.limits.processes = vec![process(950, 1024)];
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Warning);
        assert!(
            v[0].title.contains("950 of 1024 descriptors (93 %)"),
            "{}",
            v[0].title
        );
    }

    #[test]
    fn fires_when_the_host_nears_file_max() {
        let mut f = HostFacts::default();
        f.limits.file_nr = Some(c(FileNr {
            allocated: 95_000,
            unused: 0,
            max: 100_000,
            line: 1,
        }));
        let v = found(check(&f));
        assert_eq!(v[0].severity, Severity::Warning);
        assert_eq!(
            v[0].title,
            "Host file handles at 95 % of fs.file-max (95000 of 100000)"
        );
    }

    #[test]
    fn clear_with_headroom() {
        let mut f = HostFacts::default();
        f.limits.processes.push(process(6, 1024));
        f.limits.file_nr = Some(c(FileNr {
            allocated: 935,
            unused: 0,
            max: 2_466_097,
            line: 1,
        }));
        assert!(is_clear(&check(&f)));
    }

    #[test]
    fn not_evaluated_without_counts_or_an_unlimited_limit() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
        let mut f = HostFacts::default();
        let mut p = process(10, 10);
        p.open_fds = None;
        f.limits.processes.push(p);
        assert!(is_not_evaluated(&check(&f)));
    }
}
