//! Captures far apart in time in one bundle: loose outputs taken years apart each get their own
//! time axis (a segment of the charts), labelled with its date and time range, in the page and
//! in the JSON document; the shipped single-capture samples keep their one axis.

use crate::common::{fixture, healthy_sample, repo};
use rca::bundle::Limits;
use rca::report::{html, Report};
use serde_json::Value;

/// `rca analyze` of a folder of `(name, text)` files: the report, its JSON document and its page.
fn analyze(files: &[(&str, String)]) -> (Value, String) {
    let d = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(d.path().join(name), text).unwrap();
    }
    let r = Report::analyze(d.path(), &Limits::default()).unwrap();
    let page = html::render(&r).unwrap();
    (serde_json::to_value(&r).unwrap(), page)
}

#[test]
fn loose_outputs_years_apart_are_drawn_on_their_own_axes() {
    // `iostat -x -t` captured on 2026-11-30 (samples at 01:15:46, :47, :48; the first report,
    // since boot, is not a sample) and sysstat's own `sar -n DEV -n EDEV` test output of
    // 2019-04-18 (13:20:19 to 13:20:49, a restart, then 13:54:35): two captures, the sar one
    // whole across its 34-minute restart.
    let (doc, page) = analyze(&[
        ("iostat.txt", fixture("captured/iostat-x-t-iso.txt")),
        (
            "sar_-n_DEV.txt",
            fixture("sar/sysstat-tests__sar-n-DEV-EDEV.txt"),
        ),
    ]);
    let segs = doc["charts"]["segments"].as_array().unwrap();
    let got: Vec<(&str, &str, &str)> = segs
        .iter()
        .map(|s| {
            (
                s["start_host"].as_str().unwrap(),
                s["end_host"].as_str().unwrap(),
                s["label"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "2019-04-18T13:20:19",
                "2019-04-18T13:54:35",
                "2019-04-18 13:20:19 → 13:54:35"
            ),
            (
                "2026-11-30T01:15:47",
                "2026-11-30T01:15:48",
                "2026-11-30 01:15:47 → 01:15:48"
            ),
        ]
    );
    assert!(segs.iter().all(|s| s["start_utc"].is_null()), "no window");
    // Each capture has its heading and its own charts: the network in the first, the disk in
    // the second, with the times of day of each on its axis.
    let h1 = page
        .find("Capture 1 of 2: 2019-04-18 13:20:19 → 13:54:35</h3>")
        .expect("first heading");
    let h2 = page
        .find("Capture 2 of 2: 2026-11-30 01:15:47 → 01:15:48</h3>")
        .expect("second heading");
    let nic = page.find("id=\"chart-nic-rx\"").expect("nic chart");
    let disk = page.find("id=\"chart-disk-await-s2\"").expect("disk chart");
    assert!(h1 < nic && nic < h2 && h2 < disk, "{h1} {nic} {h2} {disk}");
    assert!(!page.contains("id=\"chart-disk-await\"") && !page.contains("chart-nic-rx-s2"));
    let nic_svg = &page[nic..h2];
    assert!(nic_svg.contains("13:2") && !nic_svg.contains("01:15:"));
    let disk_svg = &page[disk..page[disk..].find("</figure>").unwrap() + disk];
    assert!(disk_svg.contains("01:15:4") && !disk_svg.contains("13:2"));
    // The caption says which capture, for pages without the headings (`rca diff`).
    assert!(disk_svg.contains("capture 2 of 2, 2026-11-30 01:15:47 → 01:15:48 · iostat.txt"));
}

#[test]
fn one_capture_keeps_one_axis() {
    let mut bundles = vec![healthy_sample()];
    for pair in ["s2-bank-core", "s4-oceanbase-softirq"] {
        for side in ["baseline", "suspect"] {
            bundles.push(repo().join("sample-bundles").join(pair).join(side));
        }
    }
    for b in bundles {
        let r = Report::analyze(&b, &Limits::default()).unwrap();
        assert_eq!(r.charts.segments.len(), 1, "{}", b.display());
        let s = &r.charts.segments[0];
        let axis = r.charts.axis.as_ref().unwrap();
        assert!(s.start_s >= axis.start_s && s.end_s <= axis.end_s);
        assert!(s.start_utc.is_some(), "the collector records its window");
        assert!(r.charts.marks.iter().all(|m| m.segment == 0));
        let page = html::render(&r).unwrap();
        assert!(page.contains("Every chart spans the same time axis"));
        assert!(!page.contains("id=\"capture-1\"") && !page.contains("-s2\""));
    }
}
