//! sosreport's layout (sos 3.x `sosreport`, sos 4.x `sos report`): where it puts each kind, and
//! its manifest.
//!
//! In: a path relative to the report's top folder (`sos_commands/kernel/uname_-a`), or the text
//! of `sos_reports/manifest.json`. Out: the path's [`Place`] ([`place`]), consulted before the
//! common table; and the manifest in rca's [`Manifest`] shape ([`manifest`]).
//!
//! **Paths.** sos files a command's output as `sos_commands/<plugin>/<command line>`, the line
//! mangled: a leading `/usr/bin/` (or `/bin/`, `/sbin/`, `/usr/sbin/`) dropped, every run of
//! characters other than letters, digits, `_`, `-`, `.` and `/` turned into `_`, `/` into `.`
//! (`ls -lanR /dev` → `ls_-lanR_.dev`), a second file of the same name suffixed `.1`
//! (sos/report/plugins/__init__.py `_mangle_command`, `_make_command_filename`, 3.0 to 4.12).
//! Copies of the host's files keep their own paths (`proc/meminfo`, `etc/os-release`);
//! `/proc/net` is a link to `self/net`, a link to the pid sos ran as, so the network counters are
//! under `proc/<pid>/net/` when links are not followed. The table names every command output
//! of the plugins whose commands were read (kernel, memory, process, processor, networking, sar,
//! date, block, filesys, systemd, java, chrony, ntp, host, hardware, pci, numa, logs, release,
//! services, system, cgroups, boot, devices, console, i18n, ufw, and 3.x's general): a kind where
//! rca has one for it, else "not read" with the reason; outputs of other plugins are left to
//! content sniffing. Command lines as sos 3.9, 4.0, 4.2 and 4.12 write them (their plugin
//! sources) and as captured: sos 4.0 and 4.12 on Debian 12, sos 4.2 on Ubuntu 20.04
//! (`analyzer/tests/fixtures/sosreport/PROVENANCE.md`).
//!
//! **Manifest.** sos ≥ 4.0 writes `sos_reports/manifest.json`: the run's `version`, `cmdline`,
//! `policy` and `start_time`/`end_time` as local time without a zone (`2022-02-10
//! 16:19:05.924719`), and per plugin its `timeout_hit` and `commands`, each with `exec` (the
//! command line), `filepath` (`null` when the command was not found), `return_code` (124: stopped
//! by sos's command timeout; 126, 127: not runnable, not found) and, from sos 4.1, `truncated`
//! and `start_time`/`end_time` as UTC epoch seconds. [`manifest`] makes one [`ManifestRecord`] per
//! command whose output has a kind here, so that failures and timeouts reach the artifact as they
//! do from rca's own manifest, and dates the run: by the zone offset that `date` and `date --utc`
//! (the date plugin) show, else by the commands' epoch times.

use super::{Detected, Place};
use crate::manifest::{Manifest, ManifestRecord, Meta};
use parsers::common::Date;
use parsers::kind;
use parsers::{IssueKind, LineIssue};
use regex::{Regex, RegexSet};
use serde_json::Value;
use std::collections::HashSet;
use std::sync::LazyLock;

/// Where sos ≥ 4.0 writes its manifest, relative to the report's top folder.
pub const MANIFEST: &str = "sos_reports/manifest.json";

/// The outputs of `date` and `date --utc` (the date plugin), relative to the report's top
/// folder: together they show the host's offset from UTC.
pub const DATES: [&str; 2] = ["sos_commands/date/date", "sos_commands/date/date_--utc"];

const OTHER_COMMAND: &str =
    "the output of a sos command that rca has no kind for (sosreport's path table names it)";
const NAMESPACE: &str = "a network namespace's view (`ip netns exec …`), not the host's: its interfaces and counters would be taken for the host's";
const TAILED: &str = "sos kept only the end of this output (its size limit): the head, which names the columns, is gone";
const FREE_MIB: &str =
    "`free -m` prints MiB, which the free reader would take for KiB; `free` beside it is read";
const PIDSTAT_HUMAN: &str = "printed with human-readable units (`--human`: `0.0%`, `36.8M`), which the pidstat reader does not take; `pidstat -tl` beside it is read";
const PS_LSTART: &str = "its `lstart` column holds spaces (`Wed Dec  2 04:11:07 2026`), which the ps reader would split into other columns; `ps auxwww` beside it is read";
const PS_THREADS: &str = "one line per thread (`ps -elfL`, `ps auxwwwm`): read as a process list it would count every thread as a process; `ps auxwww` beside it is read";
const NETSTAT_IPV6: &str = "IPv6 counters only (`netstat -s -6`): read as `netstat -s` they would be taken for a second snapshot of the IPv4 counters";
const SADF_XML: &str =
    "sysstat data as `sadf -x` XML, which rca does not read; `sar -A` of the same file is read";
const SA_BINARY: &str =
    "sysstat's binary daily file, which rca does not read; `sar -A` text of it is read";
const IP_ONELINE: &str =
    "`ip -o addr` (one line per address); the addresses are in `ip -d address`";
const DUMP: &str =
    "a file of a tool's own dump (`crm_report`), not a command sos ran: its path does not say what it is";
const DATE: &str = "`date` output: no kind of its own; it dates sos's manifest";

/// sosreport's path table: patterns over the path relative to the report's top folder, and the
/// place each names, in precedence order (first match wins); a path no row matches goes on to
/// the common table.
pub static PATHS: &[(&str, Place)] = &[
    (
        r"^sos_reports/manifest\.json$",
        Place::Kind(&kind::MANIFEST),
    ),
    (r"^sos_logs/(sos|ui)\.log$", Place::Kind(&kind::SOS_LOG)),
    (r"^sos_strings/", Place::NotRead(TAILED)),
    (
        r"^sos_commands/[^/]+/(namespaces/|ip_netns_exec_)",
        Place::NotRead(NAMESPACE),
    ),
    // kernel (sos 3.x general: dmesg)
    (r"^sos_commands/kernel/uname_-a$", Place::Kind(&kind::UNAME)),
    (r"^sos_commands/kernel/lsmod$", Place::Kind(&kind::LSMOD)),
    (
        r"^sos_commands/kernel/modinfo_[^/]+$",
        Place::Kind(&kind::MODINFO),
    ),
    (
        r"^sos_commands/(kernel|general)/dmesg(_-T)?$",
        Place::Kind(&kind::DMESG),
    ),
    // logs: the journal of this boot and of the one before (sos 4.x `add_journal(boot=…,
    // catalog=True)`), and of all boots (`journalctl --no-pager`, with `--all-logs` or when the
    // journal is small); the same messages read twice are counted once by the facts.
    (
        r"^sos_commands/logs/journalctl_--no-pager(_--catalog_--boot(_-1)?)?$",
        Place::Kind(&kind::SYSLOG),
    ),
    (
        r"^var/log/(messages|kern\.log|syslog)(-[0-9]{8}|\.[0-9]+)?$",
        Place::Kind(&kind::SYSLOG),
    ),
    (
        r"^sos_commands/kernel/sysctl_-a$",
        Place::Kind(&kind::SYSCTL),
    ),
    // memory
    (r"^sos_commands/memory/free$", Place::Kind(&kind::FREE)),
    (r"^sos_commands/memory/free_-m$", Place::NotRead(FREE_MIB)),
    // util-linux swapon: `--show` prints its own table, `--summary` the /proc/swaps one; the
    // swapon reader takes either, and an empty output as no swap.
    (
        r"^sos_commands/memory/swapon_(--bytes_--show|--show|--summary(_--verbose)?)$",
        Place::Kind(&kind::SWAPON),
    ),
    // process
    (
        r"^sos_commands/process/ps_axo_[^/]*lstart",
        Place::NotRead(PS_LSTART),
    ),
    (
        r"^sos_commands/process/ps_(-elfL|auxwwwm)$",
        Place::NotRead(PS_THREADS),
    ),
    (
        r"^sos_commands/process/ps_(aux|auxww|auxwww|auxfwww|auxcww|alxwww|-ef|-elf)$",
        Place::Kind(&kind::PS),
    ),
    (
        r"^sos_commands/process/ps_axo_pid_ppid_user_group_lwp_nlwp_start_time_comm_cgroup$",
        Place::Kind(&kind::PS),
    ),
    (
        r"^sos_commands/process/pidstat_-tl$",
        Place::Kind(&kind::PIDSTAT),
    ),
    (
        r"^sos_commands/process/pidstat_[^/]*--human",
        Place::NotRead(PIDSTAT_HUMAN),
    ),
    // processor, hardware, pci, numa, java
    (r"^sos_commands/processor/lscpu$", Place::Kind(&kind::LSCPU)),
    (
        r"^sos_commands/hardware/dmidecode$",
        Place::Kind(&kind::DMIDECODE),
    ),
    (
        r"^sos_commands/pci/lspci(_-nnvv|_-nvv)?$",
        Place::Kind(&kind::LSPCI),
    ),
    (
        r"^sos_commands/numa/numactl_--hardware$",
        Place::Kind(&kind::NUMACTL),
    ),
    (
        r"^sos_commands/java/java_-version$",
        Place::Kind(&kind::JAVA_VERSION),
    ),
    // sar: `sar -A -f saDD` text beside the binary file (Debian: /var/log/sysstat)
    (r"^sos_commands/sar/sar[0-9]{2}$", Place::Kind(&kind::SAR)),
    (
        r"^sos_commands/sar/sa[0-9]{2}\.xml$",
        Place::NotRead(SADF_XML),
    ),
    (
        r"^var/log/(sa|sysstat)/sar[0-9]{2}$",
        Place::Kind(&kind::SAR),
    ),
    (
        r"^var/log/(sa|sysstat)/sa[0-9]{2}$",
        Place::NotRead(SA_BINARY),
    ),
    // time
    (
        r"^sos_commands/(systemd|date|general)/timedatectl$",
        Place::Kind(&kind::TIMEDATECTL),
    ),
    (
        r"^sos_commands/chrony/chronyc_tracking$",
        Place::Kind(&kind::CHRONYC_TRACKING),
    ),
    (
        r"^sos_commands/chrony/chronyc_(-n_)?sources$",
        Place::Kind(&kind::CHRONYC_SOURCES),
    ),
    (r"^sos_commands/ntp/ntpq_-pn?$", Place::Kind(&kind::NTPQ)),
    (
        r"^sos_commands/(date|general)/date(_--utc)?$",
        Place::NotRead(DATE),
    ),
    (
        r"^sos_commands/(host|general)/uptime$",
        Place::Kind(&kind::UPTIME),
    ),
    // networking
    (
        r"^sos_commands/networking/ethtool_-i_[^/]+$",
        Place::Kind(&kind::ETHTOOL_I),
    ),
    (
        r"^sos_commands/networking/ethtool_-l_[^/]+$",
        Place::Kind(&kind::ETHTOOL_L),
    ),
    (
        r"^sos_commands/networking/ethtool_-g_[^/]+$",
        Place::Kind(&kind::ETHTOOL_G),
    ),
    (
        r"^sos_commands/networking/ethtool_-k_[^/]+$",
        Place::Kind(&kind::ETHTOOL_K),
    ),
    (
        r"^sos_commands/networking/ethtool_-c_[^/]+$",
        Place::Kind(&kind::ETHTOOL_C),
    ),
    (
        r"^sos_commands/networking/ethtool_-S_[^/]+$",
        Place::Kind(&kind::ETHTOOL_S),
    ),
    (
        r"^sos_commands/networking/ip_-s_(-d_)?link$",
        Place::Kind(&kind::IP_LINK),
    ),
    (
        r"^sos_commands/networking/ip_(-d_)?address(_show)?$",
        Place::Kind(&kind::IP_ADDR),
    ),
    (
        r"^sos_commands/networking/ip_-o_addr$",
        Place::NotRead(IP_ONELINE),
    ),
    (
        r"^sos_commands/networking/netstat_(-[WT]_)?-neopa$",
        Place::Kind(&kind::NETSTAT_TANP),
    ),
    (
        r"^sos_commands/networking/netstat_-s$",
        Place::Kind(&kind::NETSTAT_S),
    ),
    (
        r"^sos_commands/networking/netstat_-s_-6$",
        Place::NotRead(NETSTAT_IPV6),
    ),
    (
        r"^sos_commands/networking/nstat_-zas$",
        Place::Kind(&kind::NSTAT),
    ),
    (r"^sos_commands/networking/ss_-s$", Place::Kind(&kind::SS_S)),
    (
        r"^sos_commands/networking/ss_-[a-zA-Z]+$",
        Place::Kind(&kind::SS),
    ),
    // copies of the host's files the common table does not name
    (r"^proc/cpuinfo$", Place::Kind(&kind::CPUINFO)),
    (r"^proc/([0-9]+/)?net/dev$", Place::Kind(&kind::NET_DEV)),
    (
        r"^proc/([0-9]+/)?net/(snmp|netstat|snmp6)$",
        Place::Kind(&kind::NET_SNMP),
    ),
    (
        r"^proc/([0-9]+/)?net/softnet_stat$",
        Place::Kind(&kind::SOFTNET_STAT),
    ),
    (
        r"^proc/([0-9]+/)?net/bonding/[^/]+$",
        Place::Kind(&kind::BONDING),
    ),
    // filesys and block: `df` in either of sos's forms (blocks, inodes; the header says which),
    // the `mount` listing, and lsblk's default tree (its `-f`, `-t`, `-D`, `-O -P` print other
    // columns, which the lsblk reader does not read).
    (
        r"^sos_commands/filesys/df_-al?i?T?(_-x_autofs)?$",
        Place::Kind(&kind::DF),
    ),
    (
        r"^sos_commands/filesys/mount(_-l)?$",
        Place::Kind(&kind::MOUNTS),
    ),
    (r"^sos_commands/block/lsblk$", Place::Kind(&kind::LSBLK)),
    (r"^sos_commands/pacemaker/crm_report/", Place::NotRead(DUMP)),
    // `systemctl status --all` (systemd plugin) and `systemctl status <unit>`, which many
    // plugins add for their own services (snap, juju, haproxy…).
    (
        r"^sos_commands/[^/]+/systemctl_status_[^/]+$",
        Place::Kind(&kind::SYSTEMCTL_STATUS),
    ),
    // Every other output of the plugins whose commands the rows above were written from.
    (
        r"^sos_commands/(block|boot|cgroups|chrony|console|date|devices|filesys|general|hardware|host|i18n|java|kernel|logs|memory|networking|ntp|numa|pci|process|processor|release|sar|services|system|systemd|ufw)/",
        Place::NotRead(OTHER_COMMAND),
    ),
];

static PATH_SET: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new(PATHS.iter().map(|(p, _)| *p))
        .expect("sosreport's path patterns are valid regular expressions")
});

/// The place sosreport's own table gives `inner` (a path relative to the report's top folder),
/// if a row names it.
pub fn place(inner: &str) -> Option<Place> {
    PATH_SET.matches(inner).iter().next().map(|i| PATHS[i].1)
}

/// The kinds this layout's table gives the command outputs of sos plugin `plugin`
/// (`sos_commands/<plugin>/…`): what a plugin stopped at its time budget may have left out. Rows
/// for any plugin (`sos_commands/[^/]+/…`) count for every plugin; the host's files a plugin
/// copies (`proc/meminfo`) are placed by the common table and not counted.
pub fn plugin_kinds(plugin: &str) -> Vec<&'static kind::KindSpec> {
    let mut out: Vec<&'static kind::KindSpec> = Vec::new();
    for (pattern, place) in PATHS {
        let Place::Kind(k) = place else { continue };
        let Some(rest) = pattern.strip_prefix("^sos_commands/") else {
            continue;
        };
        let segment = rest.split('/').next().unwrap_or("");
        let names_it = match segment.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
            Some(alternatives) => alternatives.split('|').any(|a| a == plugin),
            None => segment == plugin || segment == "[^",
        };
        if names_it && !out.iter().any(|o| o.name == k.name) {
            out.push(k);
        }
    }
    out
}

/// The kind this layout's table gives the output of `command` run by sos plugin `plugin`, if
/// it names one.
pub fn command_kind(plugin: &str, command: &str) -> Option<&'static kind::KindSpec> {
    match place(&format!("sos_commands/{plugin}/{}", mangle(command)))? {
        Place::Kind(k) => Some(k),
        _ => None,
    }
}

/// sos's manifest, read.
#[derive(Debug, Clone)]
pub struct SosManifest {
    /// In rca's shape: the run in `meta` (`started`, `ended` as UTC epoch seconds when they can
    /// be dated; `sos_version`, `sos_cmdline`, `sos_policy`, `sos_plugins_timed_out` as written),
    /// one record per command whose output has a kind (paths as in the bundle, with the root
    /// folder), and the problems met.
    pub manifest: Manifest,
    /// The plugins sos stopped at their time budget (`timeout_hit`): their commands after that
    /// point did not run and have no record.
    pub timed_out_plugins: Vec<String>,
}

/// Reads sos's `manifest.json` (`text`) of the bundle `d`; `dates` are the texts of
/// [`DATES`] (`date`, `date --utc`), when present. At most `max_records` records are kept.
/// Errors: the text is not JSON, or not a sos manifest (no `components.report.plugins`).
pub fn manifest(
    text: &str,
    d: &Detected,
    max_records: usize,
    dates: [Option<&str>; 2],
) -> Result<SosManifest, String> {
    let doc: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let plugins = doc
        .pointer("/components/report/plugins")
        .and_then(Value::as_object)
        .ok_or("no `components.report.plugins`: not a sos report's manifest")?;
    let mut m = Manifest::default();
    let mut meta = Meta::default();
    for (key, field) in [
        ("sos_version", "version"),
        ("sos_cmdline", "cmdline"),
        ("sos_policy", "policy"),
    ] {
        if let Some(v) = doc.get(field).and_then(Value::as_str) {
            meta.raw.insert(key.to_string(), v.to_string());
        }
    }
    let mut timed_out_plugins = Vec::new();
    let mut seen = HashSet::new();
    let (mut dropped, mut first_cmd, mut last_cmd) = (0usize, f64::INFINITY, f64::NEG_INFINITY);
    for (plugin, p) in plugins {
        if p.get("timeout_hit").and_then(Value::as_bool) == Some(true) {
            timed_out_plugins.push(plugin.clone());
        }
        let commands = p.get("commands").and_then(Value::as_array);
        for c in commands.into_iter().flatten() {
            let exec = c.get("exec").and_then(Value::as_str).unwrap_or("");
            let start = c.get("start_time").and_then(Value::as_f64);
            let end = c.get("end_time").and_then(Value::as_f64);
            if let (Some(s), Some(e)) = (start, end) {
                first_cmd = first_cmd.min(s);
                last_cmd = last_cmd.max(e);
            }
            let rel = match c.get("filepath").and_then(Value::as_str) {
                Some(f) => f.trim_start_matches('/').to_string(),
                None if !exec.is_empty() => format!("sos_commands/{plugin}/{}", mangle(exec)),
                None => continue,
            };
            let Place::Kind(k) = super::place(d, &d.join(&rel)) else {
                continue;
            };
            if !seen.insert(rel.clone()) {
                m.issues.push(LineIssue::of(
                    IssueKind::Manifest,
                    0,
                    format!("a second record for `{rel}` (plugin {plugin}): ignored"),
                ));
                continue;
            }
            if m.artifacts.len() >= max_records {
                dropped += 1;
                continue;
            }
            let exit = c
                .get("return_code")
                .and_then(Value::as_i64)
                .and_then(|v| i32::try_from(v).ok());
            let note = match exit {
                Some(124) => "stopped by sos's command timeout",
                Some(126) => "not runnable (sos exit status 126)",
                Some(127) => "not found (sos exit status 127)",
                _ => "",
            };
            m.artifacts.push(ManifestRecord {
                path: d.join(&rel),
                kind: k.name.to_string(),
                exit,
                timed_out: exit == Some(124),
                start: start.filter(|v| v.is_finite()),
                end: end.filter(|v| v.is_finite()),
                bytes: None,
                truncated: c.get("truncated").and_then(Value::as_bool) == Some(true),
                note: note.to_string(),
                argv: exec.split(' ').map(str::to_string).collect(),
            });
        }
    }
    if dropped > 0 {
        m.issues.push(LineIssue::of(
            IssueKind::Capped,
            0,
            format!("{dropped} command records beyond the first {max_records} were ignored (raise with --max-entries)"),
        ));
    }
    if !timed_out_plugins.is_empty() {
        meta.raw.insert(
            "sos_plugins_timed_out".to_string(),
            timed_out_plugins.join(" "),
        );
    }
    let local = |field: &str| {
        doc.get(field)
            .and_then(Value::as_str)
            .and_then(local_seconds)
    };
    let offset = match dates {
        [Some(local_date), Some(utc_date)] => utc_offset(local_date, utc_date),
        _ => None,
    };
    let window = match (local("start_time"), local("end_time"), offset) {
        (Some(s), Some(e), Some(off)) if e >= s => Some((s - off, e - off)),
        _ if first_cmd.is_finite() && last_cmd >= first_cmd => Some((first_cmd, last_cmd)),
        _ => None,
    };
    match window {
        Some((s, e)) => {
            meta.started = Some(s);
            meta.ended = Some(e);
            meta.raw.insert("started".to_string(), format!("{s:.3}"));
            meta.raw.insert("ended".to_string(), format!("{e:.3}"));
        }
        None => m.issues.push(LineIssue::of(
            IssueKind::Manifest,
            0,
            "the run's times are local times without a zone, and neither `date` beside `date --utc` nor the commands' own times date them: the collection window is not known",
        )),
    }
    m.meta = meta;
    Ok(SosManifest {
        manifest: m,
        timed_out_plugins,
    })
}

/// The file name sos gives a command's output (see the module doc).
fn mangle(exec: &str) -> String {
    static BIN: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^/(usr/)?(bin|sbin)/").expect("valid regular expression"));
    static OTHER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"[^\w\-./]+").expect("valid regular expression"));
    let name = BIN.replace(exec, "");
    let name = OTHER.replace_all(&name, "_").replace('/', ".");
    let name = name.trim_matches(|c| matches!(c, ' ' | '.' | '_' | '-'));
    name.chars().take(255).collect()
}

/// Seconds since 1970-01-01 of a naive local time as sos writes it: `2022-02-10 16:19:05.924719`.
fn local_seconds(text: &str) -> Option<f64> {
    let (date, time) = text.trim().split_once(' ')?;
    let mut d = date.split('-').map(|p| p.parse::<i64>().ok());
    let (y, mo, da) = (d.next()??, d.next()??, d.next()??);
    let mut t = time.split(':');
    let (h, mi) = (
        t.next()?.parse::<i64>().ok()?,
        t.next()?.parse::<i64>().ok()?,
    );
    let s: f64 = t.next()?.parse().ok()?;
    day_seconds(y, mo, da, h, mi, s)
}

/// Seconds since 1970-01-01 of the calendar time `y-mo-da h:mi:s`, when every part is in range.
fn day_seconds(y: i64, mo: i64, da: i64, h: i64, mi: i64, s: f64) -> Option<f64> {
    let ok = (1..=12).contains(&mo)
        && (1..=31).contains(&da)
        && (0..24).contains(&h)
        && (0..60).contains(&mi)
        && (0.0..61.0).contains(&s)
        && (1970..=9999).contains(&y);
    if !ok {
        return None;
    }
    let date = Date {
        year: y as i32,
        month: mo as u32,
        day: da as u32,
    };
    Some(date.days_since_epoch() as f64 * 86_400.0 + (h * 3600 + mi * 60) as f64 + s)
}

/// Seconds since 1970-01-01 of the calendar time `date` prints in the C locale, its zone name
/// ignored: `Thu Feb 10 16:19:17 UTC 2022`.
fn date_seconds(text: &str) -> Option<f64> {
    let line = text.lines().find(|l| !l.trim().is_empty())?;
    let f: Vec<&str> = line.split_whitespace().collect();
    let [_, month, day, time, _, year] = f.as_slice() else {
        return None;
    };
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let mo = MONTHS.iter().position(|m| m == month)? as i64 + 1;
    let mut t = time.split(':').map(|p| p.parse::<i64>().ok());
    let (h, mi, s) = (t.next()??, t.next()??, t.next()??);
    day_seconds(year.parse().ok()?, mo, day.parse().ok()?, h, mi, s as f64)
}

/// The host's offset from UTC in seconds (local − UTC), from `date` and `date --utc` run one
/// after the other: their difference rounded to the quarter hour, when it is within two minutes
/// of one and within ±14 h.
fn utc_offset(local: &str, utc: &str) -> Option<f64> {
    let diff = date_seconds(local)? - date_seconds(utc)?;
    let rounded = (diff / 900.0).round() * 900.0;
    ((diff - rounded).abs() <= 120.0 && rounded.abs() <= 14.0 * 3600.0).then_some(rounded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{detect, Layout};

    fn sos() -> Detected {
        detect(["sosreport-h/sos_commands/kernel/uname_-a"])
    }

    #[test]
    fn command_outputs_are_placed_by_their_sos_names() {
        let kind_of = |p: &str| match place(p) {
            Some(Place::Kind(k)) => k.name,
            Some(Place::NotRead(_)) => "-",
            Some(Place::Sniff) => "sniff",
            None => "common",
        };
        for (path, kind) in [
            ("sos_commands/kernel/uname_-a", "uname"),
            ("sos_commands/kernel/modinfo_ALL_MODULES", "modinfo"),
            ("sos_commands/kernel/dmesg_-T", "dmesg"),
            ("sos_commands/general/dmesg", "dmesg"),
            ("sos_commands/memory/free", "free"),
            ("sos_commands/memory/free_-m", "-"),
            ("sos_commands/memory/swapon_--bytes_--show", "swapon"),
            ("sos_commands/memory/swapon_--summary_--verbose", "swapon"),
            ("sos_commands/process/ps_auxwwwm", "-"),
            ("sos_commands/process/ps_-elfL", "-"),
            (
                "sos_commands/process/ps_axo_flags_state_uid_pid_ppid_pgid_sid_cls_pri_psr_addr_sz_wchan_20_lstart_tty_time_cmd",
                "-",
            ),
            ("sos_commands/process/pidstat_-tl", "pidstat"),
            ("sos_commands/process/pidstat_-p_ALL_-rudvwsRU_--human_-h", "-"),
            ("sos_commands/process/lsof_M_-n_-l", "-"),
            ("sos_commands/processor/lscpu", "lscpu"),
            ("sos_commands/processor/lscpu_-ae", "-"),
            ("sos_commands/sar/sar02", "sar"),
            ("sos_commands/sar/sa02.xml", "-"),
            ("var/log/sa/sar31", "sar"),
            ("var/log/sysstat/sa02", "-"),
            ("sos_commands/systemd/timedatectl", "timedatectl"),
            ("sos_commands/systemd/systemctl_status_--all", "systemctl-status"),
            ("sos_commands/snap/systemctl_status_snapd", "systemctl-status"),
            ("sos_commands/systemd/systemd-inhibit_--list", "-"),
            ("sos_commands/chrony/chronyc_-n_sources", "chronyc-sources"),
            ("sos_commands/chrony/chronyc_tracking", "chronyc-tracking"),
            ("sos_commands/ntp/ntpq_-pn", "ntpq"),
            ("sos_commands/networking/ethtool_-S_eth0", "ethtool-S"),
            ("sos_commands/networking/ethtool_-T_eth0", "-"),
            ("sos_commands/networking/ip_-s_-d_link", "ip-link"),
            ("sos_commands/networking/ip_-d_address", "ip-addr"),
            ("sos_commands/networking/netstat_-W_-neopa", "netstat-tanp"),
            ("sos_commands/networking/netstat_-T_-neopa", "netstat-tanp"),
            ("sos_commands/networking/netstat_-s", "netstat-s"),
            ("sos_commands/networking/netstat_-s_-6", "-"),
            ("sos_commands/networking/nstat_-zas", "nstat"),
            ("sos_commands/networking/ss_-peaonmi", "ss"),
            ("sos_commands/networking/ss_-s", "ss-s"),
            (
                "sos_commands/networking/ip_netns_exec_qrouter-1_nstat_-zas",
                "-",
            ),
            (
                "sos_commands/networking/namespaces/ns1/ip_netns_exec_ns1_netstat_-s",
                "-",
            ),
            (
                "sos_commands/conntrack/ip_netns_exec_qrouter-1_conntrack_-S",
                "-",
            ),
            ("sos_commands/numa/numactl_--hardware", "numactl"),
            ("sos_commands/java/java_-version", "java-version"),
            ("sos_commands/console/fgconsole", "-"),
            ("sos_commands/date/date_--utc", "-"),
            ("sos_commands/host/uptime", "uptime"),
            ("sos_commands/host/hostname", "-"),
            ("sos_commands/openvswitch/ovs-vsctl_-t_5_show", "common"),
            ("sos_commands/filesys/df_-al_-x_autofs", "df"),
            ("sos_commands/filesys/df_-ali_-x_autofs", "df"),
            ("sos_commands/filesys/df_-aliT_-x_autofs", "df"),
            ("sos_commands/filesys/mount_-l", "mounts"),
            ("sos_commands/filesys/lslocks", "-"),
            ("sos_commands/block/lsblk", "lsblk"),
            ("sos_commands/block/lsblk_-f_-a_-l", "-"),
            ("proc/mounts", "common"),
            ("proc/4242/net/snmp", "net-snmp"),
            ("proc/4242/net/dev", "net-dev"),
            ("proc/net/softnet_stat", "softnet-stat"),
            ("proc/cpuinfo", "cpuinfo"),
            ("proc/meminfo", "common"),
            ("sos_reports/manifest.json", "manifest"),
            ("sos_logs/sos.log", "sos-log"),
            ("sos_logs/ui.log", "sos-log"),
            ("sos_strings/logs/journalctl_--no-pager.tailed", "-"),
            ("sos_commands/logs/journalctl_--no-pager_--catalog_--boot", "syslog"),
            ("sos_commands/logs/journalctl_--no-pager_--catalog_--boot_-1", "syslog"),
            ("sos_commands/logs/journalctl_--disk-usage", "-"),
            ("var/log/messages", "syslog"),
            ("var/log/kern.log", "syslog"),
        ] {
            assert_eq!(kind_of(path), kind, "{path}");
        }
    }

    #[test]
    fn the_layout_table_comes_before_the_common_one() {
        let d = sos();
        assert_eq!(d.layout, Layout::Sosreport);
        let name = |p: &str| match super::super::place(&d, p) {
            Place::Kind(k) => k.name,
            Place::NotRead(_) => "-",
            Place::Sniff => "sniff",
        };
        // The common table takes `free_-m` for KiB `free` and `pidstat_*` for pidstat.
        assert_eq!(name("sosreport-h/sos_commands/memory/free_-m"), "-");
        assert_eq!(
            name("sosreport-h/sos_commands/process/pidstat_-p_ALL_-rudvwsRU_--human_-h"),
            "-"
        );
        assert_eq!(name("sosreport-h/proc/vmstat"), "proc-vmstat");
        assert_eq!(name("sosreport-h/proc/meminfo"), "meminfo");
        assert_eq!(name("sosreport-h/var/log/apt/history.log"), "-");
        assert_eq!(name("sosreport-h/sos_commands/foo/bar"), "sniff");
        // Outside a sosreport the table is not consulted.
        assert!(matches!(
            super::super::place(&Detected::loose(), "sos_commands/memory/free_-m"),
            Place::Sniff
        ));
    }

    #[test]
    fn plugins_are_mapped_to_the_kinds_of_their_outputs() {
        let names = |p: &str| plugin_kinds(p).iter().map(|k| k.name).collect::<Vec<_>>();
        let process = names("process");
        assert!(
            process.contains(&"ps") && process.contains(&"pidstat"),
            "{process:?}"
        );
        assert!(names("networking").contains(&"ethtool-S"));
        assert!(names("date").contains(&"timedatectl"));
        // `systemctl status <unit>` is filed under any plugin.
        assert!(names("juju").contains(&"systemctl-status"));
        assert_eq!(
            command_kind("process", "ps auxwww").map(|k| k.name),
            Some("ps")
        );
        assert_eq!(command_kind("process", "pstree -lp").map(|k| k.name), None);
    }

    #[test]
    fn command_lines_are_mangled_as_sos_names_their_files() {
        assert_eq!(mangle("ls -lanR /dev"), "ls_-lanR_.dev");
        assert_eq!(mangle("/usr/bin/lsmod"), "lsmod");
        assert_eq!(mangle("lsof +M -n -l -c ''"), "lsof_M_-n_-l_-c");
        assert_eq!(
            mangle("lsmem -a -o RANGE,SIZE,STATE,REMOVABLE,ZONES,NODE,BLOCK"),
            "lsmem_-a_-o_RANGE_SIZE_STATE_REMOVABLE_ZONES_NODE_BLOCK"
        );
        assert_eq!(
            mangle("systemctl show *service --all"),
            "systemctl_show_service_--all"
        );
    }

    #[test]
    fn the_utc_offset_is_read_from_date_and_date_utc() {
        assert_eq!(
            utc_offset(
                "Thu Feb 10 16:19:17 UTC 2022\n",
                "Thu Feb 10 16:19:17 UTC 2022\n"
            ),
            Some(0.0)
        );
        // One second apart, across midnight and a month end, 5 h 30 min east of UTC.
        assert_eq!(
            utc_offset(
                "Tue Mar  1 05:29:59 IST 2022",
                "Mon Feb 28 23:59:58 UTC 2022"
            ),
            Some(19_800.0)
        );
        assert_eq!(
            utc_offset(
                "Tue Mar  1 05:20:00 IST 2022",
                "Mon Feb 28 23:59:58 UTC 2022"
            ),
            None
        );
        assert_eq!(
            utc_offset("hwclock: Cannot access", "Thu Feb 10 16:19:17 UTC 2022"),
            None
        );
        assert_eq!(
            local_seconds("2022-02-10 16:19:05.5"),
            Some(1_644_509_945.5)
        );
        assert_eq!(local_seconds("2022-13-10 16:19:05"), None);
    }

    fn fixture_manifest(tree: &str) -> String {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/sosreport")
            .join(tree)
            .join(MANIFEST);
        std::fs::read_to_string(p).unwrap()
    }

    #[test]
    fn without_dates_the_run_is_dated_by_its_commands_or_not_at_all() {
        let d = Detected {
            layout: Layout::Sosreport,
            ..Detected::loose()
        };
        // sos 4.12: the commands' epoch times (first start, last end).
        let m = manifest(
            &fixture_manifest("debian12-sos4.12"),
            &d,
            10_000,
            [None, None],
        )
        .unwrap()
        .manifest;
        assert_eq!(m.meta.started, Some(1_796_187_471.389_902));
        assert_eq!(m.meta.ended, Some(1_796_187_479.095_75));
        assert!(m.issues.is_empty(), "{:?}", m.issues);
        // sos 4.0 has no command times: the window is unknown, and the manifest says why.
        let m = manifest(
            &fixture_manifest("debian12-sos4.0"),
            &d,
            10_000,
            [None, None],
        )
        .unwrap()
        .manifest;
        assert_eq!((m.meta.started, m.meta.ended), (None, None));
        assert!(m.issues[0].message.contains("window is not known"));
        // A zone offset shifts the local times: `date` 5 h 30 min ahead of `date --utc`.
        let m = manifest(
            &fixture_manifest("debian12-sos4.0"),
            &d,
            10_000,
            [
                Some("Wed Dec  2 10:27:35 IST 2026"),
                Some("Wed Dec  2 04:57:35 UTC 2026"),
            ],
        )
        .unwrap()
        .manifest;
        assert_eq!(m.meta.started, Some(1_796_187_453.906_813 - 19_800.0));
    }

    #[test]
    fn records_carry_exit_status_timeouts_and_the_cap() {
        let d = Detected {
            layout: Layout::Sosreport,
            ..Detected::loose()
        };
        // sos marks a command its timeout stopped with return code 124
        // (sos/report/plugins/__init__.py): the real 4.12 manifest, one command so marked.
        let mut doc: Value = serde_json::from_str(&fixture_manifest("debian12-sos4.12")).unwrap();
        let cmds = doc
            .pointer_mut("/components/report/plugins/kernel/commands")
            .and_then(Value::as_array_mut)
            .unwrap();
        let sysctl = cmds.iter_mut().find(|c| c["exec"] == "sysctl -a").unwrap();
        sysctl["return_code"] = 124.into();
        let m = manifest(&doc.to_string(), &d, 10_000, [None, None])
            .unwrap()
            .manifest;
        let r = m.record("sos_commands/kernel/sysctl_-a").unwrap();
        assert_eq!(
            (r.exit, r.timed_out, r.kind.as_str()),
            (Some(124), true, "sysctl")
        );
        assert_eq!(r.note, "stopped by sos's command timeout");
        let lsmod = m.record("sos_commands/kernel/lsmod").unwrap();
        assert_eq!(
            (lsmod.exit, lsmod.note.as_str()),
            (Some(127), "not found (sos exit status 127)")
        );
        // Only commands whose outputs have a kind are recorded.
        assert!(m.record("sos_commands/process/pstree_-lp").is_none());
        assert!(m
            .artifacts
            .iter()
            .all(|r| r.path.starts_with("sos_commands/")));
        let capped = manifest(&doc.to_string(), &d, 3, [None, None])
            .unwrap()
            .manifest;
        assert_eq!(capped.artifacts.len(), 3);
        assert!(capped
            .issues
            .iter()
            .any(|i| i.kind == IssueKind::Capped && i.message.contains("first 3")));
    }

    #[test]
    fn bad_manifests_are_refused_with_the_reason() {
        let d = sos();
        let e = manifest("{", &d, 10, [None, None]).unwrap_err();
        assert!(e.starts_with("not JSON"), "{e}");
        let e = manifest(r#"{"version": "4.2"}"#, &d, 10, [None, None]).unwrap_err();
        assert!(e.contains("components.report.plugins"), "{e}");
        // Deep nesting is refused by the JSON reader, not by a stack overflow.
        let deep = "[".repeat(100_000);
        assert!(manifest(&deep, &d, 10, [None, None]).is_err());
    }
}
