//! sysstat JSON as released versions really print it: decimal commas under a German or French
//! locale (`sadf -j` before 11.5.2, `iostat`/`mpstat -o JSON` 11.5.1), the stray comma of
//! `iostat -y -o JSON` (11.5.1–11.6.0, 12.0.4, 12.1.4), the comma `sadf -j` 11.1.5–11.2.x left
//! out before `"fchosts"`, and an empty `disk` array. Each fixture was printed by a build of the
//! released source on the development machine (`fixtures/PROVENANCE.md`, "captured-json").

use crate::common::{assert_close, fixture};
use parsers::sysstat::mpstat::CpuId;
use parsers::sysstat::{iostat, mpstat, sadf};
use parsers::LineIssue;

/// The lines of the issues that report a repair.
fn repaired_lines(issues: &[LineIssue]) -> Vec<usize> {
    issues
        .iter()
        .filter(|i| i.message.starts_with("invalid JSON repaired"))
        .map(|i| i.line)
        .collect()
}

#[test]
fn iostat_11_5_1_under_de_de_keeps_every_sample() {
    let p = iostat::parse(&fixture("captured-json/iostat-x-json-11.5.1-de.json")).unwrap();
    let r = &p.value.reports;
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].devices.len(), 3);
    let a = r[0].avg_cpu.as_ref().unwrap();
    assert_close(a.user_pct, 21.38);
    assert_close(a.idle_pct, 31.53);
    let vda = r[0].devices.iter().find(|d| d.device == "vda").unwrap();
    // 11.5.1 wrote `r`, `rkB` for r/s, rkB/s.
    assert_close(vda.r_per_s, 119.08);
    assert_close(vda.rkb_per_s, 2726.62);
    assert_eq!(vda.line, 16);
    assert_close(r[1].devices[2].r_per_s, 1.0);
    // Every line holding a number was repaired, and said so; nothing else was wrong.
    assert_eq!(
        repaired_lines(&p.issues),
        vec![12, 14, 15, 16, 20, 22, 23, 24]
    );
    assert_eq!(p.issues.len(), 8, "{:?}", p.issues);
    assert!(p.issues[0]
        .message
        .contains("6 numbers with a decimal comma"));
}

#[test]
fn iostat_y_stray_comma_in_11_5_1_and_12_1_4() {
    let p = iostat::parse(&fixture("captured-json/iostat-yx-json-11.5.1-de.json")).unwrap();
    assert_eq!(p.value.reports.len(), 2);
    assert_eq!(p.value.reports[0].line, 12);
    assert_close(p.value.reports[0].avg_cpu.as_ref().unwrap().nice_pct, 75.12);
    let lines = repaired_lines(&p.issues);
    assert_eq!(lines[0], 11);
    assert!(
        p.issues[0].message.contains("stray `,`"),
        "{:?}",
        p.issues[0]
    );
    assert_eq!(lines.len(), 9);

    let p = iostat::parse(&fixture("captured-json/iostat-yx-json-12.1.4.json")).unwrap();
    assert_eq!(p.value.reports.len(), 2);
    assert_eq!(repaired_lines(&p.issues), vec![11]);
    assert_eq!(p.issues.len(), 1);
    let vda = &p.value.reports[1].devices[2];
    assert_eq!(vda.device, "vda");
    assert_close(vda.r_per_s, 57.84);
    assert_close(vda.rkb_per_s, 2690.2);
}

#[test]
fn current_sysstat_under_de_de_and_an_empty_disk_list_are_clean() {
    // sysstat 12.6.1 prints JSON numbers with a point whatever the locale (only the date
    // follows it).
    let p = iostat::parse(&fixture("captured-json/iostat-x-json-12.6.1-de.json")).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    assert_eq!(p.value.reports.len(), 2);
    assert_close(p.value.reports[0].avg_cpu.as_ref().unwrap().user_pct, 21.39);
    // `iostat -d -x -o JSON sdz`: no such device, each sample an empty `disk` array.
    let p = iostat::parse(&fixture(
        "captured-json/iostat-dx-json-12.6.1-no-device.json",
    ))
    .unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    assert_eq!(p.value.reports.len(), 2);
    assert!(p.value.reports.iter().all(|r| r.devices.is_empty()));
}

#[test]
fn mpstat_11_5_1_under_de_de_and_fr_fr() {
    let p = mpstat::parse(&fixture("captured-json/mpstat-P-ALL-json-11.5.1-de.json")).unwrap();
    let iv = &p.value.intervals;
    assert_eq!(iv.len(), 2);
    assert_eq!(iv[0].rows.len(), 3);
    assert_eq!(iv[0].rows[0].cpu, CpuId::All);
    assert_close(iv[0].rows[0].nice_pct, 79.5);
    assert_close(iv[1].rows[0].usr_pct, 15.35);
    assert_eq!(repaired_lines(&p.issues), vec![14, 15, 16, 22, 23, 24]);
    assert_eq!(p.issues.len(), 6);
    let p = mpstat::parse(&fixture("captured-json/mpstat-P-ALL-json-11.5.1-fr.json")).unwrap();
    assert_eq!(p.value.intervals.len(), 1);
    assert_close(p.value.intervals[0].rows[0].usr_pct, 30.35);
    assert_eq!(repaired_lines(&p.issues).len(), 3);
}

#[test]
fn sadf_11_2_0_decimal_and_missing_commas() {
    let p = sadf::parse(&fixture("captured-json/sadf-j-11.2.0-de.json")).unwrap();
    let s = &p.value;
    assert_eq!(s.samples.len(), 3);
    assert_eq!(s.cpu.rows.len(), 3);
    assert_close(s.cpu.rows[0].user_pct, 31.5);
    assert_close(s.cpu.rows[1].user_pct, 32.34);
    assert_close(s.queue.rows[0].ldavg_1, 13.16);
    let dev = s.disk.rows.iter().find(|d| d.dev == "dev254-0").unwrap();
    assert_close(dev.tps, 102.0);
    assert_eq!(s.disk.rows.len(), 9);
    assert_eq!(s.paging.rows.len(), 3);
    // `]` then `"fchosts"` on line 25: the missing comma, one issue.
    let fch = p.issues.iter().find(|i| i.line == 25).unwrap();
    assert!(fch.message.contains("1 missing `,`"), "{fch:?}");
    assert_eq!(
        p.issues
            .iter()
            .filter(|i| i.message.contains("missing `,`"))
            .count(),
        3
    );
    assert!(p
        .issues
        .iter()
        .all(|i| i.message.starts_with("invalid JSON repaired")));
}

#[test]
fn sadf_11_5_1_under_de_de() {
    let p = sadf::parse(&fixture("captured-json/sadf-j-11.5.1-de.json")).unwrap();
    let s = &p.value;
    assert_eq!(s.samples.len(), 3);
    assert_close(s.cpu.rows[0].user_pct, 32.51);
    assert_close(s.cpu.rows[2].steal_pct, 0.5);
    assert_close(s.queue.rows[0].ldavg_15, 7.85);
    assert!(s.memory.rows[0].memused_pct.is_some());
    assert!(!p.issues.is_empty());
    assert!(p
        .issues
        .iter()
        .all(|i| i.message.starts_with("invalid JSON repaired")));
}

#[test]
fn a_repaired_document_cut_short_keeps_its_complete_samples() {
    let text = fixture("captured-json/sadf-j-11.2.0-de.json");
    // Cut inside the third sample's `queue` (line 52).
    let cut: String = text.lines().take(52).collect::<Vec<_>>().join("\n");
    let cut = cut.get(..cut.len() - 20).unwrap();
    let p = sadf::parse(cut).unwrap();
    assert_eq!(p.value.samples.len(), 2);
    let last = p.issues.last().unwrap();
    assert!(last.message.contains("ends early"), "{last:?}");
    // A comma in a string is data: a `sysstat` JSON whose host name holds `2,5` stays so.
    let text = fixture("captured-json/mpstat-P-ALL-json-11.5.1-de.json").replacen(
        "\"vm\"",
        "\"vm 2,5, \\\"x\\\": 1,0}\"",
        1,
    );
    let p = mpstat::parse(&text).unwrap();
    assert_eq!(
        p.value.header.as_ref().unwrap().nodename,
        "vm 2,5, \"x\": 1,0}"
    );
    assert_eq!(p.value.intervals.len(), 2);
}

#[test]
fn repair_is_one_pass_over_a_huge_hostile_document() {
    // Recipe: the 11.5.1 mpstat capture with one CPU object of 300 000 members, each a number
    // with a decimal comma, on one line (about 4 MB). The repair is a single pass; every member
    // is repaired and the issues stay capped.
    let members: String = (0..300_000).map(|i| format!(", \"m{i}\": {i},5")).collect();
    let text = fixture("captured-json/mpstat-P-ALL-json-11.5.1-de.json").replacen(
        "\"idle\": 0,00}",
        &format!("\"idle\": 0,00{members}}}"),
        1,
    );
    let p = mpstat::parse(&text).unwrap();
    assert_eq!(p.value.intervals.len(), 2);
    assert_eq!(p.value.intervals[0].rows.len(), 3);
    // The CPU object's own 10 numbers and the 300 000 added.
    let line = p.issues.iter().find(|i| i.line == 14).unwrap();
    assert!(line.message.contains("300010 numbers"), "{}", line.message);
    assert!(p.issues.len() <= 1001);
}
