//! `systemctl status UNIT…` and `systemctl status --all` (systemd): each unit's load and
//! activation state, its main process's last exit, and the journal lines shown under it.
//!
//! One block per unit: a header (`● name.service - Description`; the bullet is `●`, `○`, `×`
//! or `↻` in a UTF-8 locale, `*` or `x` in the C locale, as sosreport runs it), then right-aligned
//! `Key: value` lines (`Loaded:`, `Active:`, `Main PID:`, `Process:`, `Tasks:`, `CGroup:` and
//! its tree…; systemd ≥ 246 prints `TriggeredBy:` flush left), a blank line and the unit's last
//! journal lines. Without a unit (`systemctl status`, `--all`) systemd first prints the manager's
//! own block: `● host`, `State: degraded`, `Jobs:`, `Failed: N units`, `Since:`, its cgroup tree.
//! Messages on stderr (`Unit x.service could not be found.`, `Warning: journal has been rotated
//! …`) land between blocks and are skipped.
//!
//! Seen from systemd 245 (Ubuntu 20.04, sosreport's `systemctl_status_--all`), 252 (Debian 12:
//! `preset:` instead of `vendor preset:`, `×` for a failed unit, `Duration:`) and a RHEL host's
//! `vendor preset: disabled`. The states are systemd's (systemctl(1) "Unit states",
//! systemd.service(5) `Restart=`): `Active` is `active`, `reloading`, `inactive`, `failed`,
//! `activating` or `deactivating`, followed by the sub-state (`running`, `auto-restart`,
//! `dead`…) and, after a failure, `(Result: exit-code|signal|core-dump|timeout|start-limit-hit|
//! …)`. A service between two automatic restarts is `activating (auto-restart)`; one that
//! reached its start limit is `failed` and its journal shows `Start request repeated too
//! quickly.`; each automatic restart logs `Scheduled restart job, restart counter is at N.`
//! (systemd ≥ 235).
//!
//! Sample (systemd 252, `LC_ALL=C.UTF-8 systemctl status --no-pager --full`):
//! ```text
//! × gaveup.service - Daemon that hits its start limit
//!      Loaded: loaded (/run/systemd/system/gaveup.service; static)
//!      Active: failed (Result: exit-code) since Wed 2026-12-02 16:24:14 UTC; 33s ago
//!    Duration: 6ms
//!     Process: 33 ExecStart=/bin/sh -c echo "cannot bind port" >&2; exit 1 (code=exited, status=1/FAILURE)
//!    Main PID: 33 (code=exited, status=1/FAILURE)
//!
//! Dec 02 16:24:14 vm systemd[1]: gaveup.service: Scheduled restart job, restart counter is at 3.
//! Dec 02 16:24:14 vm systemd[1]: gaveup.service: Start request repeated too quickly.
//! Dec 02 16:24:14 vm systemd[1]: gaveup.service: Failed with result 'exit-code'.
//! ```

use crate::common::{clip, excerpt, head_lines, numbered_lines, strip_bom, Issues, SNIFF_LINES};
use crate::common::{ParseError, Parsed, Sniff};
use serde::Serialize;

/// Parsed `systemctl status` output.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct SystemctlStatus {
    /// The manager's own block (`systemctl status` without a unit, `--all`).
    pub manager: Option<ManagerState>,
    /// The units, in input order.
    pub units: Vec<UnitStatus>,
}

/// The service manager's block: `● host` / `State: degraded` / `Failed: 2 units`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ManagerState {
    /// Host name as printed.
    pub host: String,
    /// `State` (`running`, `degraded`, `starting`, `maintenance`…).
    pub state: Option<String>,
    /// `Failed: N units`.
    pub failed_units: Option<u64>,
    /// 1-based line of the `State:` line (else of the header).
    pub line: usize,
}

/// One unit's block.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct UnitStatus {
    /// Unit name (`crashloop.service`).
    pub name: String,
    /// Description after ` - `, when printed.
    pub description: Option<String>,
    /// 1-based line of the header.
    pub line: usize,
    /// The `Loaded:` line.
    pub loaded: Option<Loaded>,
    /// The `Active:` line.
    pub active: Option<Active>,
    /// The `Main PID:` line.
    pub main_pid: Option<MainPid>,
    /// The highest `Scheduled restart job, restart counter is at N` of the unit's journal lines,
    /// with its line.
    pub restart_counter: Option<(u64, usize)>,
    /// Line of `Start request repeated too quickly` (the start limit was hit).
    pub start_limit_line: Option<usize>,
    /// The journal lines shown under the unit, `(1-based line, text)`, text clipped.
    pub journal: Vec<(usize, String)>,
}

/// `Loaded: loaded (/lib/systemd/system/x.service; enabled; vendor preset: enabled)`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Loaded {
    /// `loaded`, `not-found`, `masked`, `error`, `bad-setting`…
    pub state: String,
    /// Unit file path, when printed.
    pub path: Option<String>,
    /// Unit file state: `enabled`, `disabled`, `static`, `generated`, `enabled-runtime`…
    pub enabled: Option<String>,
    /// `vendor preset:` (systemd < 251) or `preset:` value.
    pub preset: Option<String>,
    /// 1-based line.
    pub line: usize,
}

/// `Active: activating (auto-restart) (Result: exit-code) since Wed 2026-12-02 16:24:02 UTC; 36ms ago`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Active {
    /// `active`, `reloading`, `inactive`, `failed`, `activating`, `deactivating`.
    pub state: String,
    /// The sub-state in the first parentheses (`running`, `auto-restart`, `dead`), when printed.
    pub sub: Option<String>,
    /// `Result:` (`exit-code`, `signal`, `core-dump`, `timeout`, `start-limit-hit`…).
    pub result: Option<String>,
    /// The time after `since`, as printed (`Wed 2026-12-02 16:24:02 UTC`).
    pub since: Option<String>,
    /// 1-based line.
    pub line: usize,
}

/// `Main PID: 33 (code=exited, status=1/FAILURE)` or `Main PID: 29 (sleep)`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct MainPid {
    /// Process id.
    pub pid: Option<u32>,
    /// The running process's command name (`sleep`), when it runs.
    pub comm: Option<String>,
    /// `code=`: `exited`, `killed`, `dumped`, after the process ended.
    pub code: Option<String>,
    /// `status=N` or `status=N/NAME` (exited), `signal=NAME` (killed, dumped), as printed.
    pub status: Option<String>,
    /// 1-based line.
    pub line: usize,
}

impl UnitStatus {
    /// Whether the unit is failed or between automatic restarts (`activating (auto-restart)`).
    pub fn failing(&self) -> bool {
        self.active
            .as_ref()
            .is_some_and(|a| a.state == "failed" || a.sub.as_deref() == Some("auto-restart"))
    }
}

/// Bullets systemd prints before a unit: UTF-8 and their C-locale forms.
const BULLETS: &[&str] = &["●", "○", "×", "↻", "*", "x"];

/// Unit name suffixes (systemd.unit(5)).
const UNIT_TYPES: &[&str] = &[
    ".service",
    ".socket",
    ".target",
    ".device",
    ".mount",
    ".automount",
    ".swap",
    ".path",
    ".timer",
    ".slice",
    ".scope",
];

/// A header line: the bullet and the rest (`name - Description` or a host name).
fn header(line: &str) -> Option<&str> {
    BULLETS.iter().find_map(|b| {
        let rest = line.strip_prefix(b)?.strip_prefix(' ')?;
        (!rest.is_empty() && !rest.starts_with(' ')).then_some(rest)
    })
}

/// `name - Description` → (name, description), when `name` is a unit.
fn unit_header(rest: &str) -> Option<(&str, Option<&str>)> {
    let (name, desc) = match rest.split_once(" - ") {
        Some((n, d)) => (n, Some(d.trim())),
        None => (rest.trim(), None),
    };
    let is_unit = !name.contains(' ') && UNIT_TYPES.iter().any(|t| name.ends_with(t));
    is_unit.then_some((name, desc))
}

/// `Key: value` of a field line (indented, or `TriggeredBy:` flush left).
fn field(line: &str) -> Option<(&str, &str)> {
    let t = line.trim_start();
    let (key, value) = t.split_once(':')?;
    let value = value.strip_prefix(' ').unwrap_or(value);
    let known = matches!(
        key,
        "Loaded"
            | "Active"
            | "Main PID"
            | "TriggeredBy"
            | "Triggers"
            | "State"
            | "Jobs"
            | "Failed"
            | "Since"
    );
    let shaped = line.starts_with(' ')
        && !key.is_empty()
        && key.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '-');
    (known || shaped).then_some((key, value))
}

fn parse_loaded(v: &str, line: usize) -> Loaded {
    let (state, inner) = match v.split_once(" (") {
        Some((s, rest)) => (s, rest.strip_suffix(')').unwrap_or(rest)),
        None => (v.trim(), ""),
    };
    let mut l = Loaded {
        state: clip(state.trim()),
        line,
        ..Loaded::default()
    };
    for (i, part) in inner.split("; ").map(str::trim).enumerate() {
        if part.is_empty() {
            continue;
        }
        if let Some(p) = part
            .strip_prefix("vendor preset: ")
            .or_else(|| part.strip_prefix("preset: "))
        {
            l.preset = Some(clip(p));
        } else if i == 0 && part.starts_with('/') {
            l.path = Some(clip(part));
        } else if l.enabled.is_none() && i <= 1 && !part.contains(' ') {
            l.enabled = Some(clip(part));
        }
    }
    l
}

fn parse_active(v: &str, line: usize) -> Option<Active> {
    let (head, since) = match v.split_once(" since ") {
        Some((h, s)) => (h, Some(s.split(';').next().unwrap_or(s).trim())),
        None => (v, None),
    };
    let mut parts = head.split(" (");
    let state = parts.next()?.trim();
    if state.is_empty() || state.contains(' ') {
        return None;
    }
    let mut a = Active {
        state: clip(state),
        since: since.filter(|s| !s.is_empty()).map(clip),
        line,
        ..Active::default()
    };
    for p in parts {
        let p = p.trim().trim_end_matches(')');
        if let Some(r) = p.strip_prefix("Result: ") {
            a.result = Some(clip(r.trim()));
        } else if a.sub.is_none() && !p.is_empty() {
            a.sub = Some(clip(p));
        }
    }
    Some(a)
}

fn parse_main_pid(v: &str, line: usize) -> Option<MainPid> {
    let (pid, rest) = match v.split_once(' ') {
        Some((p, r)) => (p, r.trim()),
        None => (v.trim(), ""),
    };
    let mut m = MainPid {
        pid: pid.parse().ok(),
        line,
        ..MainPid::default()
    };
    m.pid?;
    let inner = rest
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or("");
    if inner.contains("code=") {
        for kv in inner.split(", ") {
            match kv.split_once('=') {
                Some(("code", c)) => m.code = Some(clip(c)),
                Some(("status" | "signal", s)) => m.status = Some(clip(s)),
                _ => {}
            }
        }
    } else if !inner.is_empty() {
        m.comm = Some(clip(inner));
    }
    Some(m)
}

/// A journal line: `Dec 02 16:24:14 host prog[pid]: …` or an ISO time stamp first.
fn journal_line(line: &str) -> bool {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let mut words = line.split_whitespace();
    match words.next() {
        Some(m) if MONTHS.contains(&m) => words
            .next()
            .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit())),
        Some(w) => {
            w.len() >= 10
                && w.bytes().take(4).all(|b| b.is_ascii_digit())
                && w.as_bytes().get(4) == Some(&b'-')
        }
        None => false,
    }
}

/// `… restart counter is at 19.` → 19.
fn restart_counter(line: &str) -> Option<u64> {
    let (_, rest) = line.split_once("restart counter is at ")?;
    rest.trim().trim_end_matches('.').parse().ok()
}

/// `systemctl status` output?
///
/// `Yes` when a header (`● x.service - …`, `* x.service`) is followed by its `Loaded:` line and
/// then `Active:` (a `Drop-In:` or `TriggeredBy:` may sit between), or when the manager's block
/// opens the text: `● host` followed by `State:`, `Jobs:` and `Failed:`. Lines of stderr before
/// the first block are passed over. `Unsure` when the head ends inside such a start.
pub fn sniff(head: &str) -> Sniff {
    let lines: Vec<(&str, bool)> = head_lines(head).collect();
    let Some(start) = lines.iter().position(|(l, _)| header(l).is_some()) else {
        return Sniff::No;
    };
    let Some((h, _)) = lines.get(start) else {
        return Sniff::No;
    };
    let is_unit = header(h).and_then(unit_header).is_some();
    let want: &[&str] = if is_unit {
        &["Loaded", "Active"]
    } else {
        &["State", "Jobs", "Failed"]
    };
    let between: &[&str] = if is_unit {
        &["Drop-In", "TriggeredBy", "Triggers"]
    } else {
        &["Units"]
    };
    let mut next = 0;
    for (l, complete) in lines.iter().skip(start + 1) {
        if !complete {
            return Sniff::Unsure;
        }
        match field(l) {
            Some((key, _)) if want.get(next) == Some(&key) => {
                next += 1;
                if next == want.len() {
                    return Sniff::Yes;
                }
            }
            Some((key, _)) if between.contains(&key) => {}
            // A `Drop-In:` folder's files, on the lines below it.
            None if l.starts_with(' ') && !l.trim().is_empty() => {}
            _ => return Sniff::No,
        }
    }
    // The head's line budget ran out inside the block: more may follow.
    if lines.len() >= SNIFF_LINES {
        Sniff::Unsure
    } else {
        Sniff::No
    }
}

enum Block {
    None,
    Manager,
    Unit,
}

/// Parses `systemctl status` output (one unit, several, or `--all`).
///
/// Errors: [`ParseError::Unusable`] when no unit header and no manager block is found. A unit
/// without a readable `Loaded:` or `Active:` line is an issue at its header; an `Active:` or
/// `Main PID:` line of another shape is an issue at that line.
pub fn parse(text: &str) -> Result<Parsed<SystemctlStatus>, ParseError> {
    let mut out = SystemctlStatus::default();
    let mut issues = Issues::default();
    let mut block = Block::None;
    let mut in_journal = false;
    let close = |u: Option<&UnitStatus>, issues: &mut Issues| {
        if let Some(u) = u {
            if u.loaded.is_none() && u.active.is_none() {
                issues.push(u.line, || {
                    format!(
                        "unit `{}` has no `Loaded:` and no `Active:` line",
                        excerpt(&u.name)
                    )
                });
            }
        }
    };
    for (n, line) in numbered_lines(strip_bom(text)) {
        if let Some(rest) = header(line) {
            if let Some((name, desc)) = unit_header(rest) {
                if matches!(block, Block::Unit) {
                    close(out.units.last(), &mut issues);
                }
                out.units.push(UnitStatus {
                    name: clip(name),
                    description: desc.filter(|d| !d.is_empty()).map(clip),
                    line: n,
                    ..UnitStatus::default()
                });
                block = Block::Unit;
                in_journal = false;
                continue;
            }
            if out.manager.is_none() && out.units.is_empty() && !rest.contains(' ') {
                out.manager = Some(ManagerState {
                    host: clip(rest),
                    line: n,
                    ..ManagerState::default()
                });
                block = Block::Manager;
                in_journal = false;
                continue;
            }
        }
        if line.trim().is_empty() {
            in_journal = true;
            continue;
        }
        match block {
            Block::None => {}
            Block::Manager => {
                let Some(m) = out.manager.as_mut() else {
                    continue;
                };
                if in_journal {
                    continue;
                }
                match field(line) {
                    Some(("State", v)) => {
                        m.state = Some(clip(v.trim()));
                        m.line = n;
                    }
                    Some(("Failed", v)) => {
                        m.failed_units = v.split_whitespace().next().and_then(|w| w.parse().ok())
                    }
                    _ => {}
                }
            }
            Block::Unit => {
                let Some(u) = out.units.last_mut() else {
                    continue;
                };
                if !in_journal {
                    match field(line) {
                        Some(("Loaded", v)) => {
                            u.loaded = Some(parse_loaded(v, n));
                            continue;
                        }
                        Some(("Active", v)) => {
                            match parse_active(v, n) {
                                Some(a) => u.active = Some(a),
                                None => issues.push(n, || {
                                    format!(
                                        "`Active:` line of an unknown shape: `{}`",
                                        excerpt(line)
                                    )
                                }),
                            }
                            continue;
                        }
                        Some(("Main PID", v)) => {
                            match parse_main_pid(v, n) {
                                Some(m) => u.main_pid = Some(m),
                                None => issues.push(n, || {
                                    format!(
                                        "`Main PID:` line without a process id: `{}`",
                                        excerpt(line)
                                    )
                                }),
                            }
                            continue;
                        }
                        Some(_) => continue,
                        None if line.starts_with(' ') => continue,
                        None => {}
                    }
                }
                if !journal_line(line) {
                    // stderr between blocks, `Warning: journal has been rotated …`.
                    continue;
                }
                let about_unit = line.contains(&format!("{}: ", u.name));
                if about_unit {
                    if let Some(c) = restart_counter(line) {
                        if u.restart_counter.is_none_or(|(prev, _)| c >= prev) {
                            u.restart_counter = Some((c, n));
                        }
                    }
                }
                if line
                    .to_ascii_lowercase()
                    .contains("start request repeated too quickly")
                {
                    u.start_limit_line = Some(n);
                }
                u.journal.push((n, clip(line)));
            }
        }
    }
    if matches!(block, Block::Unit) {
        close(out.units.last(), &mut issues);
    }
    if out.units.is_empty() && out.manager.is_none() {
        return Err(ParseError::unusable(
            None,
            "no unit block (`● name.service - …` with `Loaded:` and `Active:`) and no manager block (`● host` with `State:`)",
        ));
    }
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const UNITS: &str = include_str!(
        "../../tests/fixtures/systemctl-status/systemd252-debian12-status-units-utf8.txt"
    );
    const ALL252: &str =
        include_str!("../../tests/fixtures/systemctl-status/systemd252-debian12-status-all-C.txt");
    const VAULT: &str = include_str!(
        "../../tests/fixtures/systemctl-status/hotsos__vault-systemd245-status-all-excerpt.txt"
    );
    const HAPROXY: &str = include_str!(
        "../../tests/fixtures/systemctl-status/hotsos__openstack-systemd245-status-haproxy.txt"
    );
    const RHEL: &str =
        include_str!("../../tests/fixtures/systemctl-status/insights-core__rhel-status-all.txt");

    fn clean(t: &str) -> SystemctlStatus {
        let p = parse(t).expect("parses");
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        p.value
    }

    fn unit<'a>(s: &'a SystemctlStatus, name: &str) -> &'a UnitStatus {
        s.units.iter().find(|u| u.name == name).expect(name)
    }

    #[test]
    fn restart_loops_and_start_limits_systemd_252() {
        let s = clean(UNITS);
        assert_eq!(s.units.len(), 5);
        assert!(s.manager.is_none());
        let c = unit(&s, "crashloop.service");
        assert_eq!(c.description.as_deref(), Some("Crash-looping demo daemon"));
        let a = c.active.as_ref().unwrap();
        assert_eq!(
            (a.state.as_str(), a.sub.as_deref(), a.result.as_deref()),
            ("activating", Some("auto-restart"), Some("exit-code"))
        );
        assert_eq!(a.since.as_deref(), Some("Wed 2026-12-02 16:24:46 UTC"));
        let m = c.main_pid.as_ref().unwrap();
        assert_eq!(
            (m.pid, m.code.as_deref(), m.status.as_deref(), m.line),
            (Some(63), Some("exited"), Some("3"), 5)
        );
        assert!(c.failing());
        let l = c.loaded.as_ref().unwrap();
        assert_eq!(
            (l.state.as_str(), l.path.as_deref(), l.enabled.as_deref()),
            (
                "loaded",
                Some("/run/systemd/system/crashloop.service"),
                Some("static")
            )
        );
        let g = unit(&s, "gaveup.service");
        assert_eq!(g.active.as_ref().unwrap().state, "failed");
        assert_eq!(g.restart_counter, Some((3, 28)));
        assert_eq!(g.start_limit_line, Some(30));
        assert_eq!(g.journal.len(), 7);
        assert_eq!(
            g.main_pid.as_ref().unwrap().status.as_deref(),
            Some("1/FAILURE")
        );
        let sl = unit(&s, "sleeper.service");
        assert!(!sl.failing());
        assert_eq!(sl.main_pid.as_ref().unwrap().comm.as_deref(), Some("sleep"));
        assert_eq!(
            unit(&s, "killed.service")
                .active
                .as_ref()
                .unwrap()
                .sub
                .as_deref(),
            Some("running")
        );
    }

    #[test]
    fn the_whole_manager_in_the_c_locale() {
        let s = clean(ALL252);
        let m = s.manager.as_ref().unwrap();
        assert_eq!(
            (m.host.as_str(), m.state.as_deref(), m.failed_units, m.line),
            ("vm", Some("degraded"), Some(2), 4)
        );
        let c = unit(&s, "crashloop.service");
        let a = c.active.as_ref().unwrap();
        assert_eq!(
            (a.sub.as_deref(), a.result.as_deref(), a.line),
            (Some("auto-restart"), Some("exit-code"), 168)
        );
        let failing: Vec<&str> = s
            .units
            .iter()
            .filter(|u| u.failing())
            .map(|u| u.name.as_str())
            .collect();
        assert_eq!(
            failing,
            [
                "crashloop.service",
                "gaveup.service",
                "oneshot-fail.service"
            ]
        );
        assert_eq!(
            unit(&s, "gaveup.service").restart_counter.map(|c| c.0),
            Some(3)
        );
        assert!(s.units.len() > 100, "{}", s.units.len());
    }

    #[test]
    fn systemd_245_in_a_sosreport() {
        let s = clean(VAULT);
        assert_eq!(s.manager.as_ref().unwrap().failed_units, Some(3));
        let r = unit(&s, "systemd-remount-fs.service");
        assert!(r.failing());
        assert_eq!(
            r.main_pid.as_ref().unwrap().status.as_deref(),
            Some("1/FAILURE")
        );
        let p = unit(&s, "pacemaker.service");
        let l = p.loaded.as_ref().unwrap();
        assert_eq!(
            (l.enabled.as_deref(), l.preset.as_deref()),
            (Some("enabled"), Some("enabled"))
        );
        let sock = unit(&s, "multipathd.socket");
        assert_eq!(
            sock.active.as_ref().unwrap().result.as_deref(),
            Some("trigger-limit-hit")
        );
        // stderr inside a journal line stays part of it.
        assert!(unit(&s, "openipmi.service")
            .journal
            .iter()
            .any(|(_, t)| t.contains("could not be found")));
        let h = clean(HAPROXY);
        assert_eq!(h.units[0].main_pid.as_ref().unwrap().pid, Some(1030));
        assert_eq!(h.units[0].journal.len(), 3);
        let r = clean(RHEL);
        assert_eq!(
            r.manager.as_ref().unwrap().state.as_deref(),
            Some("degraded")
        );
        assert_eq!(
            r.units[0].loaded.as_ref().unwrap().preset.as_deref(),
            Some("disabled")
        );
    }

    #[test]
    fn sniffs_its_outputs_only() {
        for t in [UNITS, ALL252, VAULT, HAPROXY, RHEL] {
            assert_eq!(sniff(t), Sniff::Yes, "{}", t.lines().next().unwrap());
        }
        assert_eq!(sniff("* item one\n* item two\n"), Sniff::No);
        assert_eq!(sniff("x foo.service - bar\nsomething else\n"), Sniff::No);
        assert_eq!(
            sniff("● a.service - A\n     Loaded: loaded (/x; static)\n     Act"),
            Sniff::Unsure
        );
        assert_eq!(sniff("Unit x.service could not be found.\n"), Sniff::No);
        assert!(parse("Unit x.service could not be found.\n").is_err());
    }

    #[test]
    fn a_unit_without_its_state_lines_is_an_issue() {
        let p = parse("● a.service - A\n\n● b.service - B\n   Active: ??? weird (x\n").unwrap();
        assert_eq!(p.issues.len(), 3, "{:?}", p.issues);
        assert_eq!(p.issues[0].line, 1);
    }
}
