//! `sadf -j` from sysstat: a sar data file as JSON, read into the same [`Sar`] record as
//! [`crate::sysstat::sar`] text.
//!
//! `{"sysstat": {"hosts": [{…, "file-date", "statistics": [sample, …], "restarts": […],
//! "comments": […]}]}}`. Each sample carries a `timestamp` object (`date`, `time`, `utc` or `tz`,
//! `interval`) and one member per activity. Members read (JSON keys are the text headers without
//! `/s`, with `-percent` for `%`): `cpu-load` (also `cpu-load-all` of older sadf), `network` →
//! `net-dev` and `net-edev`, `disk` (`disk-device`, with both sector and KiB keys: `rd_sec`
//! and `rkB`, `avgrq-sz` and `areq-sz`), `queue`, `memory` (`memfree`, `avail`, …; the swap
//! members `swpfree` … go to `extra`), `paging`, `swap-pages`, `process-and-context-switch`,
//! `interrupts` (`intr`, `all`, `CPU0` …). Each sample's `interval` is kept in
//! [`Sar::samples`], the host's `timezone` in [`Sar::timezone`]. Other activities (`io`,
//! `hugepages`, `kernel`, `serial`, `psi`, `power-management`, other `network` members, …) are counted in [`Sar::other_sections`] and skipped.
//! There are no `Average:` rows in JSON.
//!
//! A document cut short (sadf killed by a timeout) keeps every complete sample, with one issue.
//! The invalid JSON of released versions is repaired, with an issue on each repaired line (see
//! `sysstat::json`): numbers with the locale's decimal comma (sadf 10.0.3–11.5.1 under `de_DE`,
//! `fr_FR`, `ru_RU` …: `"user": 31,50`) and the comma missing before a member (10.2.1 before
//! `"file-utc-time"`; 11.1.5–11.2.x before `"fchosts"`). 11.1.5–11.2.x with a network activity
//! also leave the `network` object unclosed, which no repair can place: such a document stops at
//! the end of its first sample.
//!
//! Sample input (sysstat 12.6.1 `sadf -j sa -- -u -q`):
//! ```text
//! {"sysstat": {
//!     "hosts": [
//!         {
//!             "nodename": "vm",
//!             "file-date": "2026-11-30",
//!             "statistics": [
//!                 {
//!                     "timestamp": {"date": "2026-11-30", "time": "01:48:32", "utc": 1, "interval": 1},
//!                     "cpu-load": [
//!                         {"cpu": "all", "user": 96.00, "nice": 0.00, "system": 2.50, "iowait": 0.00, "steal": 0.00, "idle": 1.50}
//!                     ],
//!                     "queue": {"runq-sz": 2, "plist-sz": 139, "ldavg-1": 1.75, "ldavg-5": 1.55, "ldavg-15": 1.42, "blocked": 0}
//! ```

use crate::common::Timestamp;
use crate::common::{
    excerpt, first_non_blank, parse_date, parse_time_of_day, strip_bom, Issues, NumError,
    ParseError, Parsed, Sniff,
};
use crate::sysstat::json::{finish_walk, repaired, Cursor, Fields, HostFields, JsonStop, Scalar};
use crate::sysstat::sar::{Comment, Markers, Restart, Sar, SarRow, SarSample, SarTime, Table};
use std::borrow::Cow;

/// `sadf -j` JSON?
///
/// `Yes` when the head of a sysstat JSON document has the `file-date` host member that only
/// sadf writes (iostat, mpstat and pidstat JSON have `date`); `Unsure` when it is cut before the
/// host's members say; `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    if first_non_blank(head) != Some(b'{') || !head.contains("\"sysstat\"") {
        return Sniff::No;
    }
    if head.contains("\"file-date\"") {
        return Sniff::Yes;
    }
    // sadf writes `file-date` before `statistics`; any other member means another tool.
    if head.contains("\"statistics\"") || head.contains("\"date\"") {
        Sniff::No
    } else {
        Sniff::Unsure
    }
}

/// Parses `sadf -j` output.
///
/// Errors: [`ParseError::Unusable`] when the text is not a sysstat JSON document or holds no
/// complete sample.
pub fn parse(text: &str) -> Result<Parsed<Sar>, ParseError> {
    let text = strip_bom(text);
    if first_non_blank(text).is_none() {
        return Err(ParseError::unusable(None, "input is empty"));
    }
    let mut issues = Issues::default();
    let text = repaired(text, &mut issues);
    let mut cur = Cursor::new(&text);
    let mut host = HostFields::default();
    let mut out = Sar::default();
    let mut samples = 0usize;
    let walked = walk(&mut cur, &mut host, &mut out, &mut issues, &mut samples);
    finish_walk(
        walked.err(),
        samples,
        "sadf",
        "sadf",
        "sample in `statistics`",
        &mut issues,
    )?;
    out.header = host.into_header();
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}

/// Walks `{"sysstat": {"hosts": [host, …]}}`, reading the first host's samples, restarts and
/// comments (other hosts are skipped).
fn walk(
    cur: &mut Cursor<'_>,
    host: &mut HostFields,
    out: &mut Sar,
    issues: &mut Issues,
    samples: &mut usize,
) -> Result<(), JsonStop> {
    let mut seen_sysstat = false;
    let mut markers = Markers::default();
    cur.object(|cur, key| {
        if key != "sysstat" {
            return cur.skip();
        }
        seen_sysstat = true;
        cur.object(|cur, key| {
            if key != "hosts" {
                return cur.skip();
            }
            cur.array(|cur, index| {
                if index > 0 {
                    return cur.skip();
                }
                host.line = cur.line();
                cur.object(|cur, key| match key {
                    "statistics" => cur.array(|cur, _| {
                        let mut sample = Sar::default();
                        read_sample(cur, &mut sample, issues)?;
                        out.append(sample);
                        *samples += 1;
                        Ok(())
                    }),
                    "restarts" => cur.array(|cur, _| {
                        let line = cur.line();
                        cur.object(|cur, key| {
                            if key != "boot" {
                                return cur.skip();
                            }
                            let f = cur.value::<Fields>()?.unwrap_or_default();
                            let cpus = f
                                .get("cpu_count")
                                .and_then(Scalar::as_f64)
                                .filter(|n| (0.0..=f64::from(u32::MAX)).contains(n))
                                .map(|n| n as u32);
                            markers.restart(
                                out,
                                Restart {
                                    time: json_time(&f),
                                    cpus,
                                    line,
                                },
                            );
                            Ok(())
                        })
                    }),
                    "comments" => cur.array(|cur, _| {
                        let line = cur.line();
                        cur.object(|cur, key| {
                            if key != "comment" {
                                return cur.skip();
                            }
                            let f = cur.value::<Fields>()?.unwrap_or_default();
                            let text = f
                                .get("com")
                                .and_then(Scalar::as_str)
                                .unwrap_or("")
                                .to_string();
                            markers.comment(
                                out,
                                Comment {
                                    time: json_time(&f),
                                    text,
                                    line,
                                },
                            );
                            Ok(())
                        })
                    }),
                    "timezone" => {
                        if let Some(Scalar::Str(tz)) = cur.value::<Scalar>()? {
                            if !tz.is_empty() {
                                out.timezone = Some(tz.into_owned());
                            }
                        }
                        Ok(())
                    }
                    _ => {
                        if host.read_member(cur, key)? {
                            Ok(())
                        } else {
                            cur.skip()
                        }
                    }
                })
            })
        })
    })?;
    if seen_sysstat {
        Ok(())
    } else {
        Err(JsonStop::Syntax {
            line: 1,
            message: "expected a `sysstat` member at the top level".to_string(),
        })
    }
}

/// Date and time of a `timestamp`, `boot` or `comment` object.
fn json_time(f: &Fields<'_>) -> Option<SarTime> {
    let time = f.get("time").and_then(Scalar::as_str)?;
    let toks: Vec<&str> = time.split_ascii_whitespace().take(3).collect();
    let (seconds_of_day, _) = parse_time_of_day(&toks)?;
    Some(Timestamp {
        date: f.get("date").and_then(Scalar::as_str).and_then(parse_date),
        seconds_of_day,
    })
}

/// Reads one sample object into `sample`.
fn read_sample(
    cur: &mut Cursor<'_>,
    sample: &mut Sar,
    issues: &mut Issues,
) -> Result<(), JsonStop> {
    let mut time: Option<SarTime> = None;
    let sample_line = cur.line();
    cur.object(|cur, key| match key {
        "timestamp" => {
            let line = cur.line();
            match cur.value::<Fields>()? {
                Some(f) => {
                    time = json_time(&f);
                    sample.samples.push(SarSample {
                        time,
                        interval_s: f.get("interval").and_then(Scalar::as_f64),
                        line: sample_line,
                    });
                    if time.is_none() {
                        issues.push(line, || {
                            "expected a `timestamp` object with a `time` member".to_string()
                        });
                    }
                }
                None => issues.push(line, || {
                    "expected a `timestamp` object with `date` and `time`".to_string()
                }),
            }
            Ok(())
        }
        "cpu-load" | "cpu-load-all" => rows(cur, &mut sample.cpu, "cpu", time, issues, |k| {
            Cow::Owned(format!("%{k}"))
        }),
        "disk" => rows(cur, &mut sample.disk, "disk-device", time, issues, disk_col),
        "network" => cur.object(|cur, key| match key {
            "net-dev" => rows(cur, &mut sample.net_dev, "iface", time, issues, per_second),
            "net-edev" => rows(cur, &mut sample.net_edev, "iface", time, issues, per_second),
            _ => {
                sample.other_sections += 1;
                cur.skip()
            }
        }),
        "queue" => single(cur, &mut sample.queue, time, issues, |k| Cow::Borrowed(k)),
        "memory" => single(cur, &mut sample.memory, time, issues, memory_col),
        "paging" => single(cur, &mut sample.paging, time, issues, per_second),
        "swap-pages" => single(cur, &mut sample.swapping, time, issues, per_second),
        "process-and-context-switch" => single(cur, &mut sample.tasks, time, issues, per_second),
        "interrupts" => rows(cur, &mut sample.interrupts, "intr", time, issues, |k| {
            Cow::Borrowed(k)
        }),
        _ => {
            sample.other_sections += 1;
            cur.skip()
        }
    })
}

/// `util-percent` → `%util`; otherwise `None`.
fn percent(key: &str) -> Option<Cow<'_, str>> {
    key.strip_suffix("-percent")
        .map(|k| Cow::Owned(format!("%{k}")))
}

/// Text header of a network, paging or swapping key: `rxpck` → `rxpck/s`.
fn per_second(key: &str) -> Cow<'_, str> {
    percent(key).unwrap_or_else(|| Cow::Owned(format!("{key}/s")))
}

/// Text header of a disk key.
fn disk_col(key: &str) -> Cow<'_, str> {
    if let Some(p) = percent(key) {
        return p;
    }
    match key {
        "rd_sec" | "wr_sec" | "dc_sec" | "rkB" | "wkB" | "dkB" => Cow::Owned(format!("{key}/s")),
        _ => Cow::Borrowed(key),
    }
}

/// Text header of a memory key: `memfree` → `kbmemfree`.
fn memory_col(key: &str) -> Cow<'_, str> {
    if let Some(p) = percent(key) {
        return p;
    }
    Cow::Borrowed(match key {
        "memfree" => "kbmemfree",
        "avail" => "kbavail",
        "memused" => "kbmemused",
        "buffers" => "kbbuffers",
        "cached" => "kbcached",
        "commit" => "kbcommit",
        "active" => "kbactive",
        "inactive" => "kbinact",
        "dirty" => "kbdirty",
        "shared" => "kbshmem",
        "anonpg" => "kbanonpg",
        "slab" => "kbslab",
        "kstack" => "kbkstack",
        "pgtbl" => "kbpgtbl",
        "vmused" => "kbvmused",
        other => other,
    })
}

/// Fills a row from the members of a flat object (the key member excluded); a value beyond its
/// column's ceiling is left out with an issue at `line`.
fn fill<T: SarRow>(
    row: &mut T,
    f: &Fields<'_>,
    key: Option<&str>,
    col: fn(&str) -> Cow<'_, str>,
    line: usize,
    issues: &mut Issues,
) {
    for (k, v) in &f.0 {
        if Some(k.as_ref()) == key {
            continue;
        }
        let name = col(k);
        match v.read(T::ceiling(&name)) {
            Ok(v) => row.put(&name, v),
            Err(e @ NumError::Beyond(_)) => issues.push(line, || e.message(k, &v.text())),
            Err(NumError::NotANumber) => {}
        }
    }
}

/// An array of keyed objects (`cpu-load`, `disk`, `net-dev`, `net-edev`).
fn rows<T: SarRow>(
    cur: &mut Cursor<'_>,
    table: &mut Table<T>,
    key: &str,
    time: Option<SarTime>,
    issues: &mut Issues,
    col: fn(&str) -> Cow<'_, str>,
) -> Result<(), JsonStop> {
    cur.array(|cur, _| {
        let line = cur.line();
        let Some(f) = cur.value::<Fields>()? else {
            issues.push(line, || format!("expected an object with a `{key}` member"));
            return Ok(());
        };
        let name: Option<String> = match f.get(key) {
            Some(Scalar::Str(s)) => Some(s.to_string()),
            Some(Scalar::Num(n)) if n.fract() == 0.0 && *n >= -1.0 => Some(format!("{n}")),
            _ => None,
        };
        match name.as_deref().and_then(|n| T::new(n, time, line)) {
            Some(mut row) => {
                fill(&mut row, &f, Some(key), col, line, issues);
                table.rows.push(row);
            }
            None => issues.push(line, || {
                format!(
                    "expected an object with a readable `{key}` member, found `{}`",
                    excerpt(&format!("{:?}", f.get(key)))
                )
            }),
        }
        Ok(())
    })
}

/// A single object (`queue`, `memory`, `paging`, `swap-pages`).
fn single<T: SarRow>(
    cur: &mut Cursor<'_>,
    table: &mut Table<T>,
    time: Option<SarTime>,
    issues: &mut Issues,
    col: fn(&str) -> Cow<'_, str>,
) -> Result<(), JsonStop> {
    let line = cur.line();
    match cur.value::<Fields>()? {
        Some(f) => {
            if let Some(mut row) = T::new("", time, line) {
                fill(&mut row, &f, None, col, line, issues);
                table.rows.push(row);
            }
        }
        None => issues.push(line, || "expected an object of numbers".to_string()),
    }
    Ok(())
}
