//! Numbers beyond their physical ceiling (`parsers::common::Ceiling`): a real fixture with one
//! cell edited is parsed, the value is left out, the rest of its row is kept, and one issue on
//! the cell's input line names the column and says the value was dropped.

use crate::common::fixture;
use parsers::LineIssue;

/// `text` with the cell under `col` replaced by `value` in the `nth` (0-based) row that follows
/// a header line holding `header` and contains the word `row`; the rest of the line keeps its
/// layout. Returns the text and the 1-based line of the edited row.
pub fn set_cell(
    text: &str,
    header: &str,
    row: &str,
    nth: usize,
    col: &str,
    value: &str,
) -> (String, usize) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut index = None;
    let mut seen = 0;
    for (i, line) in lines.iter().enumerate() {
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        if words.contains(&header) {
            index = words.iter().position(|w| *w == col);
            continue;
        }
        let Some(k) = index else { continue };
        if !words.contains(&row) {
            continue;
        }
        if seen < nth {
            seen += 1;
            continue;
        }
        // The k-th word of the line, by its address inside the line.
        let word = line
            .split_ascii_whitespace()
            .nth(k)
            .expect("the row has the column");
        let start = word.as_ptr() as usize - line.as_ptr() as usize;
        let (before, after) = line.split_at(start);
        let mut out: String = lines[..i].concat();
        out.push_str(before);
        out.push_str(value);
        out.push_str(after.get(word.len()..).unwrap_or(""));
        out.push_str(&lines[i + 1..].concat());
        return (out, i + 1);
    }
    panic!("no row {nth} with `{row}` under a header with `{header}` and `{col}`");
}

/// The one issue at `line`, which must say `col`'s value was dropped.
#[track_caller]
fn dropped(issues: &[LineIssue], line: usize, col: &str) {
    let at: Vec<&LineIssue> = issues.iter().filter(|i| i.line == line).collect();
    assert_eq!(at.len(), 1, "issues at line {line}: {issues:?}");
    let m = &at[0].message;
    assert!(
        m.contains(&format!("`{col}`")) && m.contains("dropped"),
        "{m}"
    );
}

const HUGE: &str = "1.7e308";

#[test]
fn iostat_aqu_sz_near_f64_max_is_dropped() {
    let (text, line) = set_cell(
        &fixture("captured/iostat-x-t-C.txt"),
        "aqu-sz",
        "vda",
        1,
        "aqu-sz",
        HUGE,
    );
    let p = parsers::sysstat::iostat::parse(&text).unwrap();
    dropped(&p.issues, line, "aqu-sz");
    assert_eq!(p.issues.len(), 1, "{:?}", p.issues);
    let dev = &p.value.reports[1].devices[0];
    assert_eq!((dev.line, dev.aqu_sz), (line, None));
    assert_eq!(dev.util_pct, Some(0.0), "the rest of the row is kept");
    let first = &p.value.reports[0].devices[0];
    assert_eq!(first.aqu_sz, Some(0.08));
}

#[test]
fn iostat_util_above_100_is_kept() {
    // The kernel's io_ticks can run ahead of the interval (sysstat issue #412): a value, not
    // an impossibility.
    let (text, _) = set_cell(
        &fixture("captured/iostat-x-t-C.txt"),
        "%util",
        "vda",
        1,
        "%util",
        "100.40",
    );
    let p = parsers::sysstat::iostat::parse(&text).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    assert_eq!(p.value.reports[1].devices[0].util_pct, Some(100.4));
}

#[test]
fn iostat_avg_cpu_share_above_100_is_dropped() {
    // The value sysstat issue #14 shows mpstat printing after a counter glitch.
    let text = fixture("captured/iostat-x-t-C.txt");
    let line = text.lines().position(|l| l.contains("60.49")).unwrap() + 1;
    let text = text.replacen("0.52    0.01   60.49", "107562416.60 0.01   60.49", 1);
    let p = parsers::sysstat::iostat::parse(&text).unwrap();
    dropped(&p.issues, line, "%iowait");
    let avg = p.value.reports[0].avg_cpu.unwrap();
    assert_eq!((avg.iowait_pct, avg.idle_pct), (None, Some(60.49)));
}

#[test]
fn iostat_json_aqu_sz_near_f64_max_is_dropped() {
    let text = fixture("captured/iostat-x-t-json.txt");
    let line = text
        .lines()
        .position(|l| l.contains("\"aqu-sz\": 0.08"))
        .unwrap()
        + 1;
    let text = text.replacen("\"aqu-sz\": 0.08", "\"aqu-sz\": 1.7e308", 1);
    let p = parsers::sysstat::iostat::parse(&text).unwrap();
    dropped(&p.issues, line, "aqu-sz");
    let dev = &p.value.reports[0].devices[0];
    assert_eq!((dev.aqu_sz, dev.util_pct), (None, Some(1.63)));
}

#[test]
fn sar_edev_drop_rate_near_f64_max_is_dropped() {
    let (text, line) = set_cell(
        &fixture("sar/sysstat-tests__sar-n-DEV-EDEV.txt"),
        "rxerr/s",
        "enp6s0",
        1,
        "rxdrop/s",
        HUGE,
    );
    let p = parsers::sysstat::sar::parse(&text).unwrap();
    dropped(&p.issues, line, "rxdrop/s");
    let row = p
        .value
        .net_edev
        .rows
        .iter()
        .find(|r| r.line == line)
        .unwrap();
    assert_eq!((row.rxdrop_per_s, row.txdrop_per_s), (None, Some(0.0)));
}

#[test]
fn sar_cpu_share_above_100_is_dropped_and_counters_are_not_shares() {
    let (text, line) = set_cell(
        &fixture("sar/sysstat-tests__sar-u-P-ALL-from-file.txt"),
        "%iowait",
        "all",
        0,
        "%iowait",
        "107562416.60",
    );
    let p = parsers::sysstat::sar::parse(&text).unwrap();
    dropped(&p.issues, line, "%iowait");
    let row = p.value.cpu.rows.iter().find(|r| r.line == line).unwrap();
    assert_eq!(row.iowait_pct, None);
    assert!(row.idle_pct.is_some());
}

#[test]
fn mpstat_share_above_100_is_dropped() {
    let (text, line) = set_cell(
        &fixture("captured/mpstat-P-ALL.txt"),
        "%soft",
        "0",
        0,
        "%soft",
        "100.01",
    );
    let p = parsers::sysstat::mpstat::parse(&text).unwrap();
    dropped(&p.issues, line, "%soft");
    let row = p
        .value
        .intervals
        .iter()
        .flat_map(|iv| &iv.rows)
        .find(|r| r.line == line)
        .unwrap();
    assert_eq!((row.soft_pct, row.idle_pct), (None, Some(100.0)));
}

#[test]
fn mpstat_json_share_above_100_is_dropped() {
    let text = fixture("captured/mpstat-P-ALL-json.txt");
    let line = text
        .lines()
        .position(|l| l.contains("\"cpu\": \"0\""))
        .unwrap()
        + 1;
    let text = text.replacen(
        "\"cpu\": \"0\", \"usr\": 0.00",
        "\"cpu\": \"0\", \"usr\": 1e9",
        1,
    );
    let p = parsers::sysstat::mpstat::parse(&text).unwrap();
    dropped(&p.issues, line, "usr");
    let row = &p.value.intervals[0].rows[1];
    assert_eq!((row.usr_pct, row.idle_pct), (None, Some(100.0)));
}

#[test]
fn sadf_cpu_share_above_100_is_dropped() {
    let text = fixture("sar/sysstat-tests__sadf-j-A.txt");
    let line = text
        .lines()
        .position(|l| l.contains("\"cpu\": \"all\""))
        .unwrap()
        + 1;
    let text = text.replacen("\"iowait\": 0.12", "\"iowait\": 107562416.60", 1);
    let p = parsers::sysstat::sadf::parse(&text).unwrap();
    dropped(&p.issues, line, "iowait");
    let row = p.value.cpu.rows.iter().find(|r| r.line == line).unwrap();
    assert_eq!((row.iowait_pct, row.idle_pct), (None, Some(82.88)));
}

#[test]
fn a_process_may_use_more_than_one_cpu() {
    // pidstat(1): without -I, a task's %CPU reaches 100 × the CPUs; the fixture's gnome-shell
    // runs at 412.96 % on 9 CPUs.
    let text = fixture("pidstat/sysstat-tests__pidstat-t-dRrsuvw-threads.txt");
    let p = parsers::sysstat::pidstat::parse(&text).unwrap();
    assert!(p.value.rows.iter().any(|r| r.cpu_pct() == Some(412.96)));
    let (text, line) = set_cell(&text, "%CPU", "gnome-shell", 0, "%CPU", HUGE);
    let p = parsers::sysstat::pidstat::parse(&text).unwrap();
    dropped(&p.issues, line, "%CPU");
    let row = p.value.rows.iter().find(|r| r.line == line).unwrap();
    assert_eq!((row.cpu_pct(), row.usr_pct()), (None, Some(359.42)));
}

#[test]
fn vmstat_cpu_share_above_100_is_dropped() {
    let (text, line) = set_cell(
        &fixture("vmstat/jc__vmstat-centos7.txt"),
        "wa",
        "2794468",
        0,
        "wa",
        "250",
    );
    let p = parsers::procs::vmstat::parse(&text).unwrap();
    dropped(&p.issues, line, "wa");
    let s = &p.value.samples.get(0).unwrap();
    assert_eq!((s.wa, s.id), (None, Some(99)));
}

#[test]
fn jstat_size_near_f64_max_is_dropped() {
    let (text, line) = set_cell(
        &fixture("jstat/java000__jstat-gc-jdk8-elided.txt"),
        "OU",
        "74752.0",
        0,
        "OU",
        HUGE,
    );
    let p = parsers::jvm::jstat::parse(&text).unwrap();
    dropped(&p.issues, line, "OU");
    let s = p.value.samples.iter().find(|s| s.line == line).unwrap();
    assert_eq!((s.ou_kib, s.oc_kib), (None, Some(74752.0)));
}

#[test]
fn an_uptime_beyond_u64_seconds_is_refused_not_wrapped() {
    // Days × 86 400 overflowed a u64 (a panic in a debug build, a wrapped uptime otherwise).
    let text = fixture("uptime/jc__ubuntu-18.04-uptime.out");
    let huge = text.replacen("up 2 days", "up 213503982334602 days", 1);
    assert_ne!(huge, text);
    let err = parsers::procs::uptime::parse(&huge).unwrap_err();
    assert!(err.to_string().contains("up"), "{err}");
    assert!(parsers::procs::uptime::parse(&text).is_ok());
}
