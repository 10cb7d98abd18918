//! `pidstat` parser against the shared corpus (sysstat, jc and insights-core test data, see
//! `fixtures/PROVENANCE.md`) and captures from the development machine (sysstat 12.6.1).

use crate::common;
use crate::common::{
    all_fixtures, assert_close, decimal_commas, fixture, fixture_path, head, insert_line, XorShift,
};
use parsers::common::Date;
use parsers::sysstat::pidstat::{self, Pidstat, TaskRow};
use parsers::Sniff;
use std::time::{Duration, Instant};

fn parse_clean(rel: &str) -> Pidstat {
    let parsed = pidstat::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

#[track_caller]
fn by_command<'a>(rows: &'a [TaskRow], cmd: &str) -> &'a TaskRow {
    rows.iter()
        .find(|r| r.command == cmd)
        .unwrap_or_else(|| panic!("no row for {cmd}"))
}

#[test]
fn insights_twelve_hour_report_with_wait() {
    // No banner; `01:57:54 AM` times; the %wait column of sysstat ≥ 11.5.5.
    let p = parse_clean("pidstat/insights-core__pidstat-insights-12h.txt");
    assert!(p.header.is_none());
    assert_eq!(p.rows.len(), 17);
    assert_eq!(
        p.rows
            .iter()
            .filter(|r| r.command.starts_with("systemd"))
            .count(),
        3
    );
    let systemd = &p.rows[0];
    assert_eq!(
        (systemd.line, systemd.uid, systemd.pid),
        (2, Some(0), Some(1))
    );
    assert_eq!(systemd.command, "systemd");
    assert_close(systemd.usr_pct(), 3.00);
    assert_close(systemd.system_pct(), 12.00);
    assert_close(systemd.guest_pct(), 11.00);
    assert_close(systemd.wait_pct(), 1.00);
    assert_close(systemd.cpu_pct(), 2.00);
    assert_eq!(systemd.cpu, Some(0));
    assert_eq!(
        systemd.time.unwrap().seconds_of_day,
        3600 + 57 * 60 + 54,
        "01:57:54 AM"
    );
    assert!(p.rows.iter().any(|r| r.pid == Some(663)));
    assert_eq!(
        by_command(&p.rows, "kworker/u2:1-events_unbound").pid,
        Some(70)
    );
}

#[test]
fn single_line_form_with_task_and_children_times() {
    // `pidstat -h -T ALL` (sysstat 11.7, RHEL 8): epoch seconds, `#` headers, usr-ms columns.
    let p = parse_clean("pidstat/jc__pidstat-h-T-ALL-rhel8.txt");
    assert_eq!(p.rows.len(), 2);
    let task = &p.rows[0];
    assert_eq!(task.epoch, Some(1_692_579_199));
    assert_eq!(
        task.time.unwrap().date,
        Some(Date {
            year: 2023,
            month: 8,
            day: 21
        }),
        "epoch seconds are UTC"
    );
    assert_eq!((task.pid, task.command.as_str()), (Some(1), "systemd"));
    assert_close(task.system_pct(), 0.07);
    assert_close(task.wait_pct(), 0.08);
    assert_close(task.cpu_pct(), 0.08);
    let children = &p.rows[1];
    assert_eq!(children.line, 7);
    assert_close(children.usr_ms(), 2890.0);
    assert_close(children.system_ms(), 4260.0);
    assert_close(children.guest_ms(), 0.0);
}

#[test]
fn single_line_form_with_every_report() {
    // `pidstat -h -dlrsuw` (sysstat 10.1.5, CentOS 7): -1.00 means "I/O stats unavailable".
    let p = parse_clean("pidstat/jc__pidstat-h-dlrsuw-single-line.txt");
    assert_eq!(p.rows.len(), 79);
    let k = &p.rows[0];
    assert_eq!(k.epoch, Some(1_646_857_494));
    assert_eq!((k.pid, k.command.as_str()), (Some(2), "kthreadd"));
    assert_close(k.cswch_per_s(), 0.03);
    assert_close(k.nvcswch_per_s(), 0.00);
    assert_eq!(k.kb_rd_per_s(), None, "printed -1.00: not available");
    assert_eq!(k.kb_wr_per_s(), None);
    assert_eq!(k.kb_ccwr_per_s(), None);
    assert_close(k.vsz_kb(), 0.0);
    assert_close(k.stksize_kb(), 0.0);
    assert!(p
        .rows
        .iter()
        .all(|r| r.usr_pct().is_some() && r.rss_kb().is_some()));
}

#[test]
fn default_report_with_twelve_hour_clock() {
    let p = parse_clean("pidstat/jc__pidstat-u-centos7.txt");
    assert_eq!(p.rows.len(), 41);
    let s = &p.rows[0];
    assert_eq!(
        s.time.unwrap().seconds_of_day,
        12 * 3600 + 6 * 60 + 39,
        "12:06:39 PM"
    );
    assert_eq!(
        (s.uid, s.pid, s.command.as_str()),
        (Some(0), Some(1), "systemd")
    );
    assert_close(s.system_pct(), 0.05);
    assert_close(s.cpu_pct(), 0.05);
    assert_eq!(s.cpu, Some(0));
    assert_eq!(s.wait_pct(), None, "no %wait before sysstat 11.5.5");
    assert_eq!(by_command(&p.rows, "irq/16-vmwgfx").pid, Some(357));
}

#[test]
fn io_report() {
    let p = parse_clean("pidstat/sysstat-tests__pidstat-d-p-ALL.txt");
    assert_eq!(p.rows.len(), 4);
    let f = by_command(&p.rows, "firefox");
    assert_eq!((f.pid, f.uid, f.line), (Some(8741), Some(1000), 5));
    assert_close(f.kb_rd_per_s(), 28.50);
    assert_close(f.kb_wr_per_s(), 31.74);
    assert_close(f.kb_ccwr_per_s(), 4.81);
    assert_close(f.iodelay(), 1146.0);
    let g = by_command(&p.rows, "gnome-terminal-");
    assert_eq!(g.pid, Some(8407));
    assert_close(g.kb_rd_per_s(), 23.34);
}

#[test]
fn thread_view_of_every_report() {
    // `pidstat -T TASK -t -dRrsuvw 2 6`: TGID/TID columns, `|__` and `(leader)__` names with
    // spaces, seven sections per interval, Average blocks.
    let p = parse_clean("pidstat/sysstat-tests__pidstat-t-dRrsuvw-threads.txt");
    assert_eq!(p.rows.len(), 158);
    assert_eq!(p.averages.len(), 35);
    let shell = &p.rows[0];
    assert_eq!(shell.line, 4);
    assert_eq!(shell.time.unwrap().seconds_of_day, 12 * 3600 + 53 * 60 + 22);
    assert_eq!(
        (shell.tgid, shell.tid, shell.is_thread),
        (Some(7900), None, false)
    );
    assert_eq!(shell.command, "gnome-shell");
    assert_close(shell.usr_pct(), 359.42);
    assert_close(shell.system_pct(), 53.55);
    assert_close(shell.wait_pct(), 8.47);
    assert_close(shell.cpu_pct(), 412.96);
    assert_eq!(shell.cpu, Some(2));
    let thread = &p.rows[1];
    assert_eq!(thread.command, "gnome-shell", "without the |__ marker");
    assert!(thread.is_thread);
    assert_eq!((thread.tid, thread.tgid), (Some(7900), Some(7900)));
    assert_close(thread.cpu_pct(), 401.12);
    let dconf = p
        .rows
        .iter()
        .find(|r| r.command == "dconf worker" && r.rss_kb().is_some())
        .unwrap();
    assert_eq!(
        (dconf.line, dconf.tid, dconf.tgid),
        (14, Some(10334), Some(7900))
    );
    assert_close(dconf.rss_kb(), 291884.0);
    assert_close(dconf.mem_pct(), 3.58);
    let orphan = p.rows.iter().find(|r| r.leader().is_some()).unwrap();
    assert_eq!(orphan.line, 8);
    assert_eq!(
        (orphan.leader(), orphan.command.as_str()),
        (Some("firefox"), "firefox")
    );
    assert!(orphan.is_thread);
    assert!(p
        .rows
        .iter()
        .any(|r| r.command == "Link Monitor" && r.leader() == Some("firefox")));
    let stack = p.rows.iter().find(|r| r.stksize_kb().is_some()).unwrap();
    assert_close(stack.stkref_kb(), 108.0);
    let threads = p.rows.iter().find(|r| r.threads().is_some()).unwrap();
    assert_close(threads.fd_nr(), 5.0);
    let avg = &p.averages[0];
    assert_eq!(
        (avg.time, avg.cpu),
        (None, None),
        "`-` under CPU on Average rows"
    );
    assert_close(avg.cpu_pct(), 0.83);
}

#[test]
fn json_thread_view() {
    // `pidstat -o JSON -t -dRrsuvw -p ALL`.
    let p = parse_clean("pidstat/sysstat-tests__pidstat-t-all-json.txt");
    let h = p.header.as_ref().unwrap();
    assert_eq!((h.nodename.as_str(), h.cpus), ("SYSSTAT.TEST", Some(9)));
    assert_eq!(p.rows.len(), 7 * 15);
    let ff = p
        .rows
        .iter()
        .find(|r| r.tgid == Some(8741) && r.tid.is_none() && r.usr_pct().is_some())
        .unwrap();
    assert_eq!(ff.command, "firefox");
    assert!(!ff.is_thread);
    assert_close(ff.usr_pct(), 0.97);
    assert_close(ff.system_pct(), 0.28);
    assert_close(ff.cpu_pct(), 1.25);
    assert_eq!(ff.cpu, Some(2));
    assert_eq!(ff.line, 16);
    assert_eq!(
        ff.time.unwrap(),
        parsers::common::Timestamp {
            date: Some(Date {
                year: 2020,
                month: 6,
                day: 1
            }),
            seconds_of_day: 12 * 3600 + 53 * 60 + 20
        }
    );
    let js = p.rows.iter().find(|r| r.tid == Some(8785)).unwrap();
    assert_eq!(js.command, "JS Helper");
    assert!(js.is_thread);
    assert_eq!(js.leader(), Some("firefox"));
    let rt = p.rows.iter().find(|r| r.policy().is_some()).unwrap();
    assert_eq!(rt.policy(), Some("NORMAL"));
    assert_close(rt.prio(), 0.0);
}

// ---------------------------------------------------------------------------------------------
// Captured on the development machine (sysstat 12.6.1, `LC_ALL=C`).

#[test]
fn captured_reports() {
    let p = parse_clean("captured-a/pidstat-u-d-w.txt");
    assert_eq!((p.rows.len(), p.averages.len()), (49, 30));
    let rustc = p
        .rows
        .iter()
        .find(|r| r.pid == Some(25835) && r.cpu_pct().is_some())
        .unwrap();
    assert_close(rustc.cpu_pct(), 64.36);
    let bash_io = p.rows.iter().find(|r| r.pid == Some(22002)).unwrap();
    assert_close(bash_io.kb_ccwr_per_s(), 27.72);
    let memfd = p
        .rows
        .iter()
        .find(|r| r.command == "memfd:sealed-91")
        .unwrap();
    assert_eq!(memfd.pid, Some(23673));

    let p = parse_clean("captured-a/pidstat-t-p1.txt");
    assert_eq!((p.rows.len(), p.averages.len()), (14, 14));
    assert!(p.rows[1..].iter().all(|r| r.is_thread && r.tgid == Some(1)));
    assert_eq!(p.rows[5].command, "stop-step");
    assert_eq!(p.averages[13].cpu, None);

    let p = parse_clean("captured-a/pidstat-h-u-d-w.txt");
    assert_eq!(p.rows.len(), 19);
    assert_eq!(p.rows[0].epoch, None, "12.6 prints a time of day with -h");
    assert_close(p.rows[0].system_pct(), 0.98);
    assert!(p
        .rows
        .iter()
        .all(|r| r.cswch_per_s().is_some() && r.iodelay().is_some()));
}

// ---------------------------------------------------------------------------------------------
// Derived variants and damaged inputs.

#[test]
fn derived_decimal_commas_and_garbage() {
    let text = decimal_commas(&fixture("pidstat/sysstat-tests__pidstat-d-p-ALL.txt"));
    let text = insert_line(&text, 5, "this is not a row");
    let p = pidstat::parse(&text).unwrap();
    assert_eq!(p.value.rows.len(), 4);
    assert_close(by_command(&p.value.rows, "firefox").kb_rd_per_s(), 28.50);
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 5);
    assert_eq!(by_command(&p.value.rows, "firefox").line, 6);
}

#[test]
fn truncated_and_extra_columns() {
    let text = fixture("pidstat/sysstat-tests__pidstat-d-p-ALL.txt");
    let cut = &text[..text.find("1146").unwrap()];
    let p = pidstat::parse(cut).unwrap();
    assert_eq!(p.value.rows.len(), 1);
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 5);
    assert!(p.issues[0].message.contains("at least 7 columns"));
    // An unknown numeric column goes to `extra`; a value that is not a number is an issue.
    let text = "12:00:00      UID       PID   newcol/s  Command\n\
12:00:01        0         1      2.50  init\n\
12:00:01        0         2      x.yz  kthreadd\n";
    let p = pidstat::parse(text).unwrap();
    assert_eq!(p.value.rows.len(), 1);
    assert_eq!(p.value.rows[0].extra().get("newcol/s"), Some(&2.5));
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 3);
    // JSON cut inside the first sample: unusable.
    let json = fixture("pidstat/sysstat-tests__pidstat-t-all-json.txt");
    assert!(pidstat::parse(&json[..json.len() / 2]).is_err());
    let p = pidstat::parse(&json[..json.len() - 20]).unwrap_err();
    assert!(
        p.to_string().contains("before its first complete sample"),
        "{p}"
    );
}

// ---------------------------------------------------------------------------------------------
// Sniffing and robustness.

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    let own = |rel: &str| rel.starts_with("pidstat/") || rel.starts_with("captured-a/pidstat");
    let mut owned = 0;
    let mut failures = Vec::new();
    for rel in all_fixtures() {
        let Ok(text) = std::fs::read_to_string(fixture_path(&rel)) else {
            continue;
        };
        let want = if own(&rel) {
            owned += 1;
            Sniff::Yes
        } else {
            Sniff::No
        };
        for sample in [head(&text, common::SNIFF_HEAD_BYTES), text.as_str()] {
            let got = pidstat::sniff(sample);
            if got != want {
                failures.push(format!("{rel} ({} bytes): {got:?}", sample.len()));
            }
        }
    }
    assert_eq!(owned, 7 + 3);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hostile_inputs_never_panic() {
    for t in ["", "\n", "  \n\t\n", "\u{feff}"] {
        assert!(pidstat::parse(t).is_err());
    }
    let mut rng = XorShift(0x1234_5678_9ABC_DEF1);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(pidstat::parse(&text).is_err());
        assert_eq!(pidstat::sniff(&text), Sniff::No);
    }
    let start = Instant::now();
    let cols: String = (0..100_000).map(|i| format!(" c{i}")).collect();
    let vals: String = " 1".repeat(100_000);
    let text = format!("12:00:00 UID PID{cols} Command\n12:00:01 0 1{vals} init with spaces\n");
    let p = pidstat::parse(&text).unwrap();
    assert_eq!(p.value.rows[0].extra().len(), 100_000);
    assert_eq!(p.value.rows[0].command, "init with spaces");
    let text = "12:00:00 UID PID %CPU CPU Command\n12:00:01 0 1 1.0 999999 a\n12:00:01 0 1 1.0 4294967296 b\n";
    let p = pidstat::parse(text).unwrap();
    assert_eq!(p.value.rows[0].cpu, Some(999_999));
    assert_eq!(p.issues.len(), 1);
    assert!(start.elapsed() < Duration::from_secs(20));
}
