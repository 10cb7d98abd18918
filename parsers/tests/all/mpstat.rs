//! `mpstat` parser against real outputs: the shared corpus (values asserted by the source
//! projects' own tests, see `fixtures/PROVENANCE.md`) and captures from the development machine.

use crate::common;
use crate::common::{assert_close, decimal_commas, fixture, insert_line};
use parsers::common::Date;
use parsers::common::Timestamp;
use parsers::sysstat::mpstat::{self, CpuId, CpuRow, Mpstat, MpstatInterval};

fn parse_clean(rel: &str) -> Mpstat {
    let parsed = mpstat::parse(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(parsed.issues.is_empty(), "{rel}: {:?}", parsed.issues);
    parsed.value
}

#[track_caller]
fn row(rows: &[CpuRow], cpu: CpuId) -> &CpuRow {
    rows.iter()
        .find(|r| r.cpu == cpu)
        .unwrap_or_else(|| panic!("no row for {cpu:?}"))
}

fn cpus(iv: &MpstatInterval) -> Vec<CpuId> {
    iv.rows.iter().map(|r| r.cpu).collect()
}

fn hms(h: u32, m: u32, s: u32) -> u32 {
    h * 3600 + m * 60 + s
}

const SYSSTAT_TEST_DATE: Date = Date {
    year: 2020,
    month: 6,
    day: 1,
};

#[test]
fn twelve_hour_clock_centos7() {
    // sysstat 10.1.5 `mpstat -A` under en_US: `03:15:06 PM`. The intr/s, per-IRQ and
    // per-softirq tables that follow are skipped.
    let m = parse_clean("mpstat/jc__mpstat-A-centos7-12h-clock.txt");
    let h = m.header.as_ref().unwrap();
    assert_eq!(h.nodename, "localhost");
    assert_eq!(h.cpus, Some(1));
    assert_eq!(m.intervals.len(), 1);
    let iv = &m.intervals[0];
    assert_eq!(iv.line, 3);
    assert_eq!(
        iv.time,
        Some(Timestamp {
            date: Some(Date {
                year: 2022,
                month: 3,
                day: 11
            }),
            seconds_of_day: hms(15, 15, 6)
        })
    );
    assert_eq!(cpus(iv), [CpuId::All, CpuId::Cpu(0)]);
    let all = row(&iv.rows, CpuId::All);
    assert_eq!(all.line, 4);
    assert_close(all.usr_pct, 0.22);
    assert_close(all.sys_pct, 0.37);
    assert_close(all.iowait_pct, 0.01);
    assert_close(all.idle_pct, 99.40);
    assert!(m.averages.is_empty());
}

#[test]
fn node_table_is_skipped_ubuntu1804() {
    let m = parse_clean("mpstat/jc__mpstat-A-ubuntu1804-NODE.txt");
    assert_eq!(m.intervals.len(), 1);
    let iv = &m.intervals[0];
    assert_eq!(iv.time.unwrap().seconds_of_day, hms(8, 50, 55));
    // Only the CPU table's two rows, not the NODE table's.
    assert_eq!(cpus(iv), [CpuId::All, CpuId::Cpu(0)]);
    let all = row(&iv.rows, CpuId::All);
    assert_close(all.usr_pct, 26.15);
    assert_close(all.nice_pct, 8.92);
    assert_close(all.sys_pct, 32.36);
    assert_close(all.iowait_pct, 1.39);
    assert_close(all.soft_pct, 2.09);
    assert_close(all.idle_pct, 29.09);
}

#[test]
fn json_all_activities() {
    let m = parse_clean("mpstat/sysstat-tests__mpstat-A-json.txt");
    let h = m.header.as_ref().unwrap();
    assert_eq!((h.nodename.as_str(), h.cpus), ("SYSSTAT.TEST", Some(9)));
    assert_eq!(h.date, Some(SYSSTAT_TEST_DATE));
    assert_eq!(m.intervals.len(), 1);
    let iv = &m.intervals[0];
    assert_eq!(iv.line, 11);
    assert_eq!(
        iv.time,
        Some(Timestamp {
            date: Some(SYSSTAT_TEST_DATE),
            seconds_of_day: hms(12, 53, 21)
        })
    );
    assert_eq!(iv.rows.len(), 9);
    let all = row(&iv.rows, CpuId::All);
    assert_close(all.usr_pct, 2.15);
    assert_close(all.nice_pct, 12.50);
    assert_close(all.idle_pct, 82.88);
    let cpu3 = row(&iv.rows, CpuId::Cpu(3));
    assert_eq!(cpu3.line, 18);
    assert_close(cpu3.nice_pct, 99.55);
    assert_close(cpu3.soft_pct, 0.06);
}

#[test]
fn text_all_activities_with_offline_cpu() {
    // `mpstat -A 1 4` on 9 CPUs, CPU8 offline at first and CPU6 missing from the 2nd and 3rd
    // intervals; NODE, intr/s, per-IRQ and per-softirq tables are skipped.
    let m = parse_clean("mpstat/sysstat-tests__mpstat-A.txt");
    assert_eq!(m.intervals.len(), 4);
    assert_eq!(
        m.intervals.iter().map(|iv| iv.line).collect::<Vec<_>>(),
        [3, 50, 93, 140]
    );
    assert_eq!(
        m.intervals
            .iter()
            .map(|iv| iv.rows.len())
            .collect::<Vec<_>>(),
        [9, 8, 9, 10]
    );
    let secs: Vec<u32> = m
        .intervals
        .iter()
        .map(|iv| iv.time.unwrap().seconds_of_day)
        .collect();
    assert_eq!(
        secs,
        [
            hms(12, 53, 21),
            hms(12, 53, 22),
            hms(12, 53, 23),
            hms(12, 53, 24)
        ]
    );
    let first = &m.intervals[0];
    let all = row(&first.rows, CpuId::All);
    assert_close(all.usr_pct, 2.15);
    assert_close(all.nice_pct, 12.50);
    assert_close(all.sys_pct, 1.84);
    assert_close(all.idle_pct, 82.88);
    let cpu3 = row(&first.rows, CpuId::Cpu(3));
    assert_eq!(cpu3.line, 8);
    assert_close(cpu3.nice_pct, 99.55);
    assert_close(cpu3.idle_pct, 0.00);
    assert!(!cpus(&m.intervals[1]).contains(&CpuId::Cpu(6)));
    // Averages include CPU8.
    assert_eq!(m.averages.len(), 10);
    let avg8 = row(&m.averages, CpuId::Cpu(8));
    assert_eq!(avg8.line, 201);
    assert_close(avg8.sys_pct, 38.10);
    assert_close(avg8.steal_pct, 4.21);
    assert_close(row(&m.averages, CpuId::All).idle_pct, 79.29);
}

#[test]
fn interrupt_tables_only_have_no_cpu_table() {
    // `mpstat -P 0,3-5 -N all,1 -I CPU,SCPU,SUM`: NODE, intr/s, per-IRQ and per-softirq tables
    // only. Those are skipped by design (see the module doc), so there is nothing to return.
    let err = mpstat::parse(&fixture(
        "mpstat/sysstat-tests__mpstat-I-softirq-since-boot.txt",
    ))
    .unwrap_err();
    assert!(
        err.to_string().contains("no mpstat CPU utilisation table"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------
// Captured on the development machine (sysstat 12.6.1).

const CAPTURE_DATE: Date = Date {
    year: 2026,
    month: 11,
    day: 30,
};

#[test]
fn captured_text() {
    // `LC_ALL=C mpstat -P ALL 1 2`
    let m = parse_clean("captured/mpstat-P-ALL.txt");
    let h = m.header.as_ref().unwrap();
    assert_eq!((h.release.as_str(), h.cpus), ("6.18.44-fc-v657", Some(2)));
    assert_eq!(m.intervals.len(), 2);
    assert!(m
        .intervals
        .iter()
        .all(|iv| cpus(iv) == [CpuId::All, CpuId::Cpu(0), CpuId::Cpu(1)]));
    assert_eq!(
        m.intervals[1].time,
        Some(Timestamp {
            date: Some(CAPTURE_DATE),
            seconds_of_day: hms(1, 15, 51)
        })
    );
    assert_close(row(&m.intervals[1].rows, CpuId::All).sys_pct, 1.01);
    assert_close(row(&m.intervals[1].rows, CpuId::Cpu(1)).idle_pct, 98.99);
    assert_eq!(m.averages.len(), 3);
    assert_close(row(&m.averages, CpuId::Cpu(0)).sys_pct, 0.51);
}

#[test]
fn captured_json() {
    // `LC_ALL=C mpstat -o JSON -P ALL 1 2`
    let m = parse_clean("captured/mpstat-P-ALL-json.txt");
    assert_eq!(m.intervals.len(), 2);
    assert_eq!(
        m.intervals.iter().map(|iv| iv.line).collect::<Vec<_>>(),
        [11, 19]
    );
    assert_eq!(
        m.intervals[0].time,
        Some(Timestamp {
            date: Some(CAPTURE_DATE),
            seconds_of_day: hms(1, 15, 52)
        })
    );
    assert!(m.intervals.iter().all(|iv| iv.rows.len() == 3));
    assert_close(row(&m.intervals[0].rows, CpuId::Cpu(1)).idle_pct, 100.0);
    assert!(m.averages.is_empty(), "mpstat JSON prints no averages");
}

// ---------------------------------------------------------------------------------------------
// Derived variants and damaged inputs.

#[test]
fn truncated_json_keeps_complete_samples() {
    // Derived: the captured JSON cut inside the 2nd sample's cpu-load array.
    let text = fixture("captured/mpstat-P-ALL-json.txt");
    let cut_at = text.match_indices("{\"cpu\": \"0\"").nth(1).unwrap().0 + 25;
    let parsed = mpstat::parse(&text[..cut_at]).unwrap();
    assert_eq!(parsed.value.intervals.len(), 1);
    assert_eq!(parsed.issues.len(), 1);
    assert!(parsed.issues[0].message.contains("ends early"));

    // The sysstat document (one big sample with all tables) cut anywhere: no panic; the sample
    // is kept only when complete.
    let text = fixture("mpstat/sysstat-tests__mpstat-A-json.txt");
    for end in (0..text.len()).step_by(131) {
        let kept = mpstat::parse(common::head(&text, end)).map_or(0, |p| p.value.intervals.len());
        assert_eq!(kept, 0, "cut at {end}");
    }
}

#[test]
fn decimal_comma_locale() {
    // Derived from captured/mpstat-P-ALL.txt by replacing the decimal point with a comma.
    let original = mpstat::parse(&fixture("captured/mpstat-P-ALL.txt")).unwrap();
    let text = decimal_commas(&fixture("captured/mpstat-P-ALL.txt"));
    assert!(text.contains("98,99"));
    let parsed = mpstat::parse(&text).unwrap();
    assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
    assert_eq!(parsed.value, original.value);
}

#[test]
fn garbage_line_in_the_middle() {
    let clean = fixture("mpstat/sysstat-tests__mpstat-A.txt");
    // Before line 6 (CPU1 of the first interval).
    let text = insert_line(&clean, 6, "garbage without a time");
    let parsed = mpstat::parse(&text).unwrap();
    assert_eq!(parsed.issues.len(), 1, "{:?}", parsed.issues);
    assert_eq!(parsed.issues[0].line, 6);
    assert!(parsed.issues[0].message.contains("expected a time"));
    assert_eq!(parsed.value.intervals[0].rows.len(), 9);
    assert_eq!(row(&parsed.value.intervals[0].rows, CpuId::Cpu(1)).line, 7);

    // A row with the wrong number of values.
    let text = insert_line(&clean, 6, "12:53:21       9    1.00    2.00");
    let parsed = mpstat::parse(&text).unwrap();
    assert_eq!(parsed.issues.len(), 1);
    assert_eq!(parsed.issues[0].line, 6);
    assert!(parsed.issues[0].message.contains("expected 10 values"));
}

#[test]
fn unusable_inputs() {
    let err = mpstat::parse("").unwrap_err();
    assert!(err.to_string().contains("empty"));
    let err = mpstat::parse("Linux 6.1.0 (h) \t01/01/24 \t_x86_64_\t(1 CPU)\n\n").unwrap_err();
    assert!(
        err.to_string().contains("no mpstat CPU utilisation table"),
        "{err}"
    );
    let err = mpstat::parse("{\"sysstat\": {\"hosts\": []}}").unwrap_err();
    assert!(err.to_string().contains("cpu-load"), "{err}");
}

#[test]
fn cpu_numbers_beyond_the_banner_count_are_issues() {
    let text = "Linux 6.1.0 (db1) \t2024-05-01 \t_x86_64_\t(2 CPU)\n\n\
12:00:01     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n\
12:00:02     all    1.00    0.00    1.00    0.00    0.00   48.00    0.00    0.00    0.00   50.00\n\
12:00:02       0    1.00    0.00    1.00    0.00    0.00   48.00    0.00    0.00    0.00   50.00\n\
12:00:02  4294967295    1.00    0.00    1.00    0.00    0.00   99.00    0.00    0.00    0.00    0.00\n";
    let p = parsers::sysstat::mpstat::parse(text).unwrap();
    assert_eq!(p.value.intervals[0].rows.len(), 2);
    assert_eq!(p.issues.len(), 1);
    assert_eq!(p.issues[0].line, 6);
    assert!(p.issues[0]
        .message
        .contains("does not exist on a 2-CPU machine"));
}
