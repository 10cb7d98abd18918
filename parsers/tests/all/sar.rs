//! `sar` text parser against the shared corpus (sysstat's own test-suite expected outputs, see
//! `fixtures/PROVENANCE.md`) and captures from the development machine (sysstat 12.6.1).

use crate::common;
use crate::common::{
    all_fixtures, assert_close, decimal_commas, fixture, fixture_path, head, insert_line, XorShift,
};
use parsers::common::Date;
use parsers::sysstat::mpstat::CpuId;
use parsers::sysstat::sar::{self, CpuRow, Sar};
use parsers::Sniff;
use std::time::{Duration, Instant};

fn parse_clean(rel: &str) -> Sar {
    let parsed = sar::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

/// Seconds since midnight of `hh:mm:ss`.
fn hms(h: u32, m: u32, s: u32) -> u32 {
    h * 3600 + m * 60 + s
}

#[track_caller]
fn cpu_at(rows: &[CpuRow], secs: u32, cpu: CpuId) -> &CpuRow {
    rows.iter()
        .find(|r| r.time.map(|t| t.seconds_of_day) == Some(secs) && r.cpu == cpu)
        .unwrap_or_else(|| panic!("no row for {cpu:?} at {secs}"))
}

const TEST_DATE: Date = Date {
    year: 2019,
    month: 4,
    day: 18,
};

#[test]
fn per_cpu_report_from_a_data_file_with_a_cpu_going_offline() {
    // `sar -C -u -P ALL -f data-new`: default report (%user/%system), CPU6 offline at 13:20:29,
    // a restart marker and a comment at the end.
    let s = parse_clean("sar/sysstat-tests__sar-u-P-ALL-from-file.txt");
    let h = s.header.as_ref().unwrap();
    assert_eq!((h.nodename.as_str(), h.cpus), ("SYSSTAT.TEST", Some(9)));
    assert_eq!(s.cpu.rows.len(), 36);
    assert_eq!(s.cpu.averages.len(), 10);
    let all = cpu_at(&s.cpu.rows, hms(13, 20, 19), CpuId::All);
    assert_eq!(all.line, 4);
    assert_eq!(all.time.unwrap().date, Some(TEST_DATE));
    assert_close(all.user_pct, 2.15);
    assert_close(all.nice_pct, 12.50);
    assert_close(all.system_pct, 2.36);
    assert_close(all.idle_pct, 82.88);
    assert_eq!(all.usr_pct, None, "the default report has no %usr");
    assert_close(
        cpu_at(&s.cpu.rows, hms(13, 20, 19), CpuId::Cpu(3)).nice_pct,
        99.55,
    );
    // Rows per interval: 9, 8 (CPU6 offline), 9 (CPU8 online, CPU6 still off), 10.
    let per_interval: Vec<usize> = [
        hms(13, 20, 19),
        hms(13, 20, 29),
        hms(13, 20, 39),
        hms(13, 20, 49),
    ]
    .iter()
    .map(|t| {
        s.cpu
            .rows
            .iter()
            .filter(|r| r.time.unwrap().seconds_of_day == *t)
            .count()
    })
    .collect();
    assert_eq!(per_interval, [9, 8, 9, 10]);
    assert!(!s
        .cpu
        .rows
        .iter()
        .any(|r| r.time.unwrap().seconds_of_day == hms(13, 20, 29) && r.cpu == CpuId::Cpu(6)));
    let avg8 = s
        .cpu
        .averages
        .iter()
        .find(|r| r.cpu == CpuId::Cpu(8))
        .unwrap();
    assert_eq!(avg8.time, None);
    assert_close(avg8.system_pct, 39.15);
    assert_eq!(s.restarts.len(), 1);
    assert_eq!(s.restarts[0].cpus, Some(9));
    assert_eq!(s.restarts[0].line, 51);
    assert_eq!(s.restarts[0].time.unwrap().seconds_of_day, hms(13, 37, 29));
    assert_eq!(s.comments.len(), 1);
    assert_eq!(s.comments[0].text, "Testing sysstat!");
    assert_eq!(s.comments[0].time.unwrap().seconds_of_day, hms(13, 39, 9));
}

#[test]
fn disk_report_with_dev_last_and_restarts() {
    // `sar --dev=sda -dp`: DEV is the last column; two restarts, the second with 10 CPUs.
    let s = parse_clean("sar/sysstat-tests__sar-d-p-dev-restart.txt");
    assert_eq!(s.disk.rows.len(), 5);
    assert_eq!(s.disk.averages.len(), 2);
    let d = s
        .disk
        .rows
        .iter()
        .find(|r| r.time.unwrap().seconds_of_day == hms(13, 20, 39))
        .unwrap();
    assert_eq!((d.dev.as_str(), d.line), ("sda", 6));
    assert_close(d.tps, 1604.70);
    assert_close(d.rkb_per_s, 41499.97);
    assert_close(d.wkb_per_s, 10663.48);
    assert_close(d.aqu_sz, 18.56);
    assert_close(d.await_ms, 12.00);
    assert_close(d.util_pct, 85.36);
    assert_close(d.areq_sz_kb, 32.51);
    let restarts: Vec<(u32, Option<u32>)> = s
        .restarts
        .iter()
        .map(|r| (r.time.unwrap().seconds_of_day, r.cpus))
        .collect();
    assert_eq!(
        restarts,
        [(hms(13, 37, 29), Some(9)), (hms(13, 54, 9), Some(10))]
    );
    assert_close(s.disk.rows[4].dkb_per_s, 0.80);
}

#[test]
fn network_traffic_and_errors() {
    let s = parse_clean("sar/sysstat-tests__sar-n-DEV-EDEV.txt");
    assert_eq!((s.net_dev.rows.len(), s.net_dev.averages.len()), (10, 4));
    assert_eq!((s.net_edev.rows.len(), s.net_edev.averages.len()), (10, 4));
    let r = s
        .net_dev
        .rows
        .iter()
        .find(|r| r.iface == "enp6s0" && r.time.unwrap().seconds_of_day == hms(13, 20, 49))
        .unwrap();
    assert_eq!(r.line, 11);
    assert_close(r.rxpck_per_s, 7397.68);
    assert_close(r.txpck_per_s, 2412.77);
    assert_close(r.rxkb_per_s, 8891.46);
    assert_close(r.txkb_per_s, 466.82);
    assert_close(r.rxmcst_per_s, 116.21);
    assert_close(r.ifutil_pct, 7.28);
    assert!(s.net_edev.rows.iter().all(|r| r.rxdrop_per_s == Some(0.0)));
    assert_eq!(s.restarts.len(), 2, "markers listed once");
}

#[test]
fn all_activities_of_a_live_run() {
    // `sar -A`-like live run: every activity, Average blocks with their own headers, and
    // Summary blocks of activities this parser skips.
    let s = parse_clean("sar/sysstat-tests__sar-A-live-all-activities.txt");
    assert_eq!((s.cpu.rows.len(), s.cpu.averages.len()), (2, 1));
    let c = &s.cpu.rows[0];
    assert_eq!((c.cpu, c.line), (CpuId::All, 4));
    assert_close(c.usr_pct, 2.15);
    assert_close(c.sys_pct, 1.84);
    assert_close(c.steal_pct, 0.00);
    assert_close(c.irq_pct, 0.34);
    assert_close(c.soft_pct, 0.19);
    assert_close(c.idle_pct, 82.88);
    assert_eq!(c.user_pct, None, "-u ALL prints %usr, not %user");
    assert_close(s.cpu.averages[0].nice_pct, 7.13);
    assert_eq!(s.tasks.rows.len(), 2);
    assert_close(s.tasks.rows[0].proc_per_s, 3.56);
    assert_close(s.tasks.rows[0].cswch_per_s, 68409.30);
    assert_eq!(s.interrupts.rows.len(), 2 * 44);
    assert_eq!(s.interrupts.rows[0].intr, "sum");
    assert_close(s.interrupts.rows[0].all_per_s, 31915.30);
    assert_eq!(
        s.interrupts.rows.iter().filter(|r| r.intr == "LOC").count(),
        2
    );
    assert_eq!(s.interrupts.averages.len(), 44);
    assert_close(s.paging.rows[0].pgsteal_per_s, 0.55);
    assert_close(s.paging.rows[0].pgprom_per_s, 179.85);
    assert_close(s.paging.rows[0].pgdem_per_s, 31.70);
    assert_eq!(s.paging.rows[0].vmeff_pct, None, "12.7 replaced %vmeff");
    let m = &s.memory.rows[0];
    assert_close(m.kbmemfree, 1437740.0);
    assert_close(m.kbavail, 4389516.0);
    assert_close(m.kbcommit, 12097852.0);
    assert_close(m.commit_pct, 48.54);
    assert_close(m.kbdirty, 396.0);
    assert_close(m.kbshmem, 87980.0);
    assert_close(m.kbvmused, 0.0);
    assert_close(s.memory.rows[1].commit_pct, 120.77);
    let q = &s.queue.rows[0];
    assert_close(q.runq_sz, 3.0);
    assert_close(q.plist_sz, 956.0);
    assert_close(q.ldavg_1, 3.16);
    assert_close(q.ldavg_15, 3.43);
    assert_close(q.blocked, 0.0);
    assert_eq!(s.disk.rows.len(), 10);
    let sdq = s.disk.rows.iter().find(|d| d.dev == "sdq").unwrap();
    assert_close(sdq.tps, 9.62);
    assert_close(sdq.dkb_per_s, 16.04);
    assert_close(sdq.await_ms, 13.00);
    assert_eq!(s.net_dev.rows.len(), 12);
    let v = s
        .net_dev
        .rows
        .iter()
        .find(|r| r.iface == "virbr0-1")
        .unwrap();
    assert_close(v.rxmcst_per_s, 320.82);
    let w = s
        .net_edev
        .rows
        .iter()
        .find(|r| r.iface == "wlp5s0")
        .unwrap();
    assert_close(w.rxdrop_per_s, 3.21);
    assert_eq!(s.swapping.rows.len(), 2);
    // Other activities: 27 header lines per interval and 24 in the Average/Summary blocks, minus
    // the 10 read here each time.
    assert_eq!(s.other_sections, 89);
}

#[test]
fn data_files_of_old_sysstat_read_back() {
    // Data files of sysstat 10.3.1 and 9.1.6 read by sar 12.7: comment and restart records.
    let s = parse_clean("sar/sysstat-tests__sar-A-from-sysstat-10.3.1-datafile.txt");
    assert_eq!(s.comments.len(), 1);
    assert_eq!(s.comments[0].text, "Test sysstat 10.3.1");
    assert_eq!(s.comments[0].line, 4);
    assert_eq!(s.restarts[0].cpus, Some(8));
    let all = cpu_at(&s.cpu.rows, hms(8, 15, 10), CpuId::All);
    assert_close(all.usr_pct, 0.25);
    assert_close(all.sys_pct, 0.38);
    assert_close(all.idle_pct, 99.25);
    assert_eq!(
        all.time.unwrap().date,
        Some(Date {
            year: 2017,
            month: 1,
            day: 21
        })
    );

    let s = parse_clean("sar/sysstat-tests__sar-A-from-sysstat-9.1.6-datafile.txt");
    let h = s.header.as_ref().unwrap();
    assert_eq!(h.release, "4.4.14-200.fc22.x86_64");
    assert_eq!(h.nodename, "host.example");
    assert_eq!(
        h.date,
        Some(Date {
            year: 2017,
            month: 1,
            day: 21
        })
    );
    assert_eq!(h.machine.as_deref(), Some("x86_64"));
    assert_eq!(h.cpus, Some(8));
    assert_eq!(s.comments[0].text, "Test sysstat 9.1.6");
    let all = cpu_at(&s.cpu.rows, hms(8, 17, 2), CpuId::All);
    assert_close(all.usr_pct, 0.13);
    assert_close(all.iowait_pct, 0.38);
    assert_close(all.idle_pct, 99.37);
    assert_eq!(s.cpu.rows.len(), 9);
    assert_eq!(s.cpu.averages.len(), 9);
    let sda = s.disk.rows.iter().find(|d| d.dev == "sda").unwrap();
    assert_eq!(sda.line, 577);
    assert_close(sda.wkb_per_s, 4.00);
    assert_close(sda.await_ms, 22.00);
}

#[test]
fn ppc_data_file_crossing_midnight() {
    // sysstat 11.7.2 data file from a big-endian ppc machine; records at 19:43:21 and 00:03:37
    // the next day.
    let s = parse_clean("sar/sysstat-tests__sar-A-from-ppc-11.7.2-datafile.txt");
    let h = s.header.as_ref().unwrap();
    assert_eq!((h.machine.as_deref(), h.cpus), (Some("ppc"), Some(16)));
    assert_eq!((s.cpu.rows.len(), s.cpu.averages.len()), (18, 9));
    let day = |r: &CpuRow| r.time.unwrap().date.unwrap().day;
    assert_eq!(day(&s.cpu.rows[0]), 27);
    assert_eq!(day(&s.cpu.rows[17]), 28);
    assert_eq!(s.cpu.rows[17].time.unwrap().seconds_of_day, hms(0, 3, 37));
    // Each activity has its own clock: the queue rows cross midnight too.
    assert_eq!(s.queue.rows[1].time.unwrap().date.unwrap().day, 28);
    assert_close(s.memory.rows[0].kbmemfree, 336064.0);
    assert_eq!(s.net_dev.rows.len(), 4);
}

// ---------------------------------------------------------------------------------------------
// Captured on the development machine (sysstat 12.6.1, 2 vCPUs, `LC_ALL=C`).

#[test]
fn captured_live_reports() {
    let s = parse_clean("captured-a/sar-u-P-ALL.txt");
    assert_eq!((s.cpu.rows.len(), s.cpu.averages.len()), (6, 3));
    let all = &s.cpu.rows[0];
    assert_eq!(
        all.time.unwrap().date,
        Some(Date {
            year: 2026,
            month: 11,
            day: 30
        })
    );
    assert_close(all.user_pct, 76.88);
    assert_close(s.cpu.averages[2].system_pct, 19.90);

    let s = parse_clean("captured-a/sar-d.txt");
    assert_eq!((s.disk.rows.len(), s.disk.averages.len()), (2, 1));
    assert_close(s.disk.rows[1].tps, 1081.00);
    assert_close(s.disk.averages[0].util_pct, 2.20);

    let s = parse_clean("captured-a/sar-n-DEV.txt");
    assert_eq!((s.net_dev.rows.len(), s.net_dev.averages.len()), (8, 4));
    let s = parse_clean("captured-a/sar-n-EDEV.txt");
    assert_eq!((s.net_edev.rows.len(), s.net_edev.averages.len()), (8, 4));

    let s = parse_clean("captured-a/sar-q.txt");
    assert_close(s.queue.rows[1].runq_sz, 4.0);
    assert_close(s.queue.averages[0].ldavg_5, 1.47);

    let s = parse_clean("captured-a/sar-r.txt");
    assert_close(s.memory.rows[0].kbmemfree, 20394416.0);
    assert_close(s.memory.rows[0].memused_pct, 2.21);
    assert_eq!(s.memory.rows[0].kbslab, None, "-r without ALL");

    let s = parse_clean("captured-a/sar-B.txt");
    assert_close(s.paging.rows[0].fault_per_s, 204824.04);
    assert_close(s.paging.rows[0].vmeff_pct, 0.0);
    assert_eq!(s.paging.rows[0].pgprom_per_s, None);

    let s = parse_clean("captured-a/sar-W.txt");
    assert_eq!((s.swapping.rows.len(), s.swapping.averages.len()), (2, 1));
    assert_close(s.swapping.rows[0].pswpout_per_s, 0.0);
}

#[test]
fn captured_data_file_read_back_with_several_activities() {
    // `sadc -S XALL 1 3 x.sa`, then `sar -f x.sa -u -P ALL -n DEV,EDEV -d -q -r -B -W`: the
    // same numbers as `sadf -j` of that file (`sadf.rs`).
    let s = parse_clean("captured-a/sar-f-datafile-multi.txt");
    assert_eq!((s.cpu.rows.len(), s.cpu.averages.len()), (6, 3));
    assert_close(s.cpu.rows[0].user_pct, 96.00);
    assert_eq!(
        (
            s.disk.rows.len(),
            s.net_dev.rows.len(),
            s.net_edev.rows.len()
        ),
        (2, 8, 8)
    );
    assert_close(s.disk.rows[0].areq_sz_kb, 5.69);
    assert_close(s.queue.rows[0].plist_sz, 139.0);
    assert_close(s.memory.rows[1].kbmemfree, 20567408.0);
    assert_close(s.paging.rows[0].pgpgin_per_s, 364.00);
    assert_eq!(s.swapping.rows.len(), 2);
}

// ---------------------------------------------------------------------------------------------
// Derived variants (built from real files) and damaged inputs.

#[test]
fn derived_twelve_hour_clock() {
    // Derived: the captured report with its times rewritten as an en_US locale prints them
    // (`01:48:11 AM`), which this machine has no locale for.
    let text = fixture("captured-a/sar-u-P-ALL.txt");
    let twelve: String = text
        .lines()
        .map(|l| match l.split_once(' ') {
            Some((t, rest)) if t.len() == 8 && t.as_bytes()[2] == b':' => {
                format!("{t} AM{rest}\n")
            }
            _ => format!("{l}\n"),
        })
        .collect();
    let p = sar::parse(&twelve).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    assert_eq!(p.value.cpu.rows.len(), 6);
    assert_eq!(
        p.value.cpu.rows[0].time.unwrap().seconds_of_day,
        hms(1, 48, 11)
    );
    // 12:xx AM is just after midnight.
    let midnight = twelve.replace("01:48:11 AM", "12:48:11 AM");
    let p = sar::parse(&midnight).unwrap();
    assert_eq!(
        p.value.cpu.rows[0].time.unwrap().seconds_of_day,
        hms(0, 48, 11)
    );
}

#[test]
fn derived_decimal_commas() {
    // Derived: sysstat under LC_NUMERIC=de_DE prints `2,15`.
    let text = decimal_commas(&fixture("sar/sysstat-tests__sar-n-DEV-EDEV.txt"));
    assert!(text.contains("7397,68"));
    let p = sar::parse(&text).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let r = p
        .value
        .net_dev
        .rows
        .iter()
        .find(|r| r.rxpck_per_s == Some(7397.68))
        .unwrap();
    assert_eq!(r.iface, "enp6s0");
}

#[test]
fn garbage_line_in_the_middle_is_an_issue_with_its_line() {
    let text = insert_line(
        &fixture("sar/sysstat-tests__sar-u-P-ALL-from-file.txt"),
        6,
        "garbage in the middle",
    );
    let p = sar::parse(&text).unwrap();
    assert_eq!(p.value.cpu.rows.len(), 36, "every real row is kept");
    assert_eq!(p.issues.len(), 1, "{:?}", p.issues);
    assert_eq!(p.issues[0].line, 6);
    assert!(p.issues[0].message.contains("expected a time"));
    // Rows after the garbage keep their own (shifted) line numbers.
    assert_eq!(p.value.cpu.rows[2].line, 7);
}

#[test]
fn truncated_mid_line_and_unknown_columns() {
    let text = fixture("sar/sysstat-tests__sar-d-p-dev-restart.txt");
    let cut = &text[..text.find("85.36").unwrap() + 2];
    let p = sar::parse(cut).unwrap();
    assert_eq!(p.value.disk.rows.len(), 2);
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 6);
    assert!(
        p.issues[0].message.contains("expected 9 columns"),
        "{}",
        p.issues[0].message
    );

    // A column this parser does not know is kept in `extra`, without an issue.
    let text = "Linux 6.1.0 (h) \t01/02/24 \t_x86_64_\t(2 CPU)\n\n\
12:00:00     runq-sz  plist-sz   ldavg-1   ldavg-5  ldavg-15   blocked  newcol/s\n\
12:00:01           1       100      0.50      0.40      0.30         0      7.50\n";
    let p = sar::parse(text).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    assert_eq!(p.value.queue.rows[0].extra.get("newcol/s"), Some(&7.5));
    assert_close(p.value.queue.rows[0].ldavg_1, 0.50);
}

#[test]
fn unreadable_value_and_row_without_header() {
    let text = "Linux 6.1.0 (h) \t01/02/24 \t_x86_64_\t(2 CPU)\n\n\
12:00:00     pswpin/s pswpout/s\n\
12:00:01         x.yz      0.00\n\
\n\
12:00:02         1.00      2.00\n";
    let p = sar::parse(text).unwrap();
    assert_eq!(p.value.swapping.rows.len(), 1);
    assert_eq!(p.value.swapping.rows[0].pswpin_per_s, None);
    assert_eq!(p.issues.len(), 2, "{:?}", p.issues);
    assert_eq!(p.issues[0].line, 4);
    assert!(p.issues[0].message.contains("`pswpin/s`"));
    assert_eq!(p.issues[1].line, 6);
    assert!(p.issues[1].message.contains("header line before this row"));
}

#[test]
fn only_unread_activities_is_a_valid_empty_record() {
    // `sar -b` alone: recognised, nothing to read, no issue.
    let text = "Linux 6.1.0 (h) \t01/02/24 \t_x86_64_\t(2 CPU)\n\n\
12:00:00          tps      rtps      wtps      dtps   bread/s   bwrtn/s   bdscd/s\n\
12:00:01        20.85     12.83      4.81      3.21     57.43     38.50     32.08\n";
    let p = sar::parse(text).unwrap();
    assert!(p.issues.is_empty());
    assert!(!p.value.has_rows());
    assert_eq!(p.value.other_sections, 1);
    assert_eq!(sar::sniff(text), Sniff::Yes);
}

// ---------------------------------------------------------------------------------------------
// Sniffing and robustness.

#[test]
fn sniffs_its_own_fixtures_and_no_other() {
    let own = |rel: &str| {
        (rel.starts_with("sar/sysstat-tests__sar-")) || rel.starts_with("captured-a/sar-")
    };
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
            let got = sar::sniff(sample);
            if got != want {
                failures.push(format!("{rel} ({} bytes): {got:?}", sample.len()));
            }
        }
    }
    assert_eq!(owned, 7 + 9);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(
        sar::sniff("Linux 6.1.0 (h) \t01/02/24 \t_x86_64_\t(2 CPU)\n\n"),
        Sniff::Unsure
    );
}

#[test]
fn hostile_inputs_never_panic_and_stay_linear() {
    for t in ["", "\n", "  \n\t\n", "\u{feff}"] {
        assert!(sar::parse(t).is_err());
    }
    let mut rng = XorShift(0x5A5A_1234_9876_0001);
    for _ in 0..50 {
        let bytes = rng.bytes(4096);
        let text = String::from_utf8_lossy(&bytes);
        assert!(sar::parse(&text).is_err());
        assert_eq!(sar::sniff(&text), Sniff::No);
    }
    let start = Instant::now();
    // A header of 100 000 columns and a row of as many values.
    let cols: String = (0..100_000).map(|i| format!(" c{i}/s")).collect();
    let vals: String = " 1.0".repeat(100_000);
    let text =
        format!("12:00:00 CPU %user %iowait %steal %idle{cols}\n12:00:01 all 1 2 3 4{vals}\n");
    let p = sar::parse(&text).unwrap();
    assert_eq!(p.value.cpu.rows[0].extra.len(), 100_000);
    // A banner claiming 10^6 CPUs and a CPU number just as large: no allocation follows.
    let text = "Linux 6.1.0 (h) \t01/02/24 \t_x86_64_\t(1000000 CPU)\n\n\
12:00:00        CPU     %user     %nice   %system   %iowait    %steal     %idle\n\
12:00:01     999999      1.00      0.00      1.00      0.00      0.00     98.00\n\
12:00:02   4294967296      1.00      0.00      1.00      0.00      0.00     98.00\n";
    let p = sar::parse(text).unwrap();
    assert_eq!(p.value.header.unwrap().cpus, Some(1_000_000));
    assert_eq!(p.value.cpu.rows[0].cpu, CpuId::Cpu(999_999));
    assert_eq!(p.issues.len(), 1, "CPU number beyond u32: {:?}", p.issues);
    // 100 000 restart markers (over more than a day) stay linear.
    let mut markers = String::from("Linux 6.1.0 (h) \t01/02/24 \t_x86_64_\t(2 CPU)\n\n");
    for i in 0..100_000u32 {
        let (h, m, s) = (i / 3600 % 24, i / 60 % 60, i % 60);
        markers.push_str(&format!(
            "{h:02}:{m:02}:{s:02}     LINUX RESTART\t(2 CPU)\n"
        ));
    }
    let p = sar::parse(&markers).unwrap();
    assert_eq!(p.value.restarts.len(), 100_000);
    assert_eq!(p.value.restarts[99_999].time.unwrap().date.unwrap().day, 3);
    // 20 000 intervals of the captured report: one pass.
    let one = fixture("captured-a/sar-u-P-ALL.txt");
    let body: String = one.split_inclusive('\n').skip(1).take(10).collect();
    let mut big = one.lines().next().unwrap().to_string() + "\n";
    for _ in 0..10_000 {
        big.push_str(&body);
    }
    let p = sar::parse(&big).unwrap();
    assert_eq!(p.value.cpu.rows.len(), 60_000);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}
