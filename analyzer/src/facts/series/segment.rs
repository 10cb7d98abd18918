//! Segments: the runs of samples that lie close together in time. A folder of loose outputs may
//! hold captures taken months apart (an `iostat` from January beside a `sar` from June); one
//! time axis over all of them would squeeze each capture into a sliver. Each segment gets its
//! own axis instead.
//!
//! The rule: the times of every series, taken together in order, break where two consecutive
//! times are more than [`GAP_STEPS`] sampling intervals apart and also more than [`MIN_GAP_S`]
//! apart. The sampling interval is the largest of the series' median intervals, so a gap only as
//! long as the slowest sampler's step (a `sar` every 10 minutes beside an `iostat` every second)
//! is never a break, and the hour floor keeps a pause or a restart of the collection within one
//! segment: only captures hours apart are split. One capture, as the collector takes it, is
//! always one segment.

use super::median_step;
use serde::Serialize;

/// A gap longer than this many sampling intervals (and than [`MIN_GAP_S`]) starts a segment.
pub const GAP_STEPS: f64 = 10.0;
/// The shortest gap that starts a segment, seconds, whatever the sampling interval.
pub const MIN_GAP_S: f64 = 3600.0;

/// One run of samples, seconds on the [`super::Clock`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Segment {
    /// Its first time.
    pub start_s: f64,
    /// Its last time (equal to `start_s` for a lone sample).
    pub end_s: f64,
}

/// The gap, seconds, above which a new segment starts for series sampled every `step_s`.
pub fn gap_threshold(step_s: f64) -> f64 {
    (GAP_STEPS * step_s).max(MIN_GAP_S)
}

/// The segments of the times of several series (`runs`, each in time order), plus `anchors`:
/// times that belong on the axis without being a series' sample (the collection window's start
/// and end). Segments are in time order and disjoint; empty without any time.
pub fn split(runs: &[Vec<f64>], anchors: &[f64]) -> Vec<Segment> {
    let step = runs
        .iter()
        .filter(|r| r.len() > 1)
        .map(|r| median_step(r))
        .fold(0.0_f64, f64::max);
    let gap = gap_threshold(step);
    let mut all: Vec<f64> = runs
        .iter()
        .flatten()
        .chain(anchors)
        .copied()
        .filter(|t| t.is_finite())
        .collect();
    all.sort_by(f64::total_cmp);
    let mut out: Vec<Segment> = Vec::new();
    for t in all {
        match out.last_mut() {
            Some(s) if t - s.end_s <= gap => s.end_s = t,
            _ => out.push(Segment {
                start_s: t,
                end_s: t,
            }),
        }
    }
    out
}

/// Index of the segment that holds `t`, else of the nearest one; `None` without segments.
pub fn locate(segments: &[Segment], t: f64) -> Option<usize> {
    if segments.is_empty() {
        return None;
    }
    let i = segments.partition_point(|s| s.end_s < t);
    if i == segments.len() {
        return Some(i - 1);
    }
    if t >= segments[i].start_s || i == 0 {
        return Some(i);
    }
    // Between segments i-1 and i: the nearer.
    Some(if t - segments[i - 1].end_s <= segments[i].start_s - t {
        i - 1
    } else {
        i
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(a: f64, b: f64) -> Segment {
        Segment {
            start_s: a,
            end_s: b,
        }
    }

    #[test]
    fn one_capture_is_one_segment_even_with_a_pause() {
        // 1 s samples, a 20-minute pause: under the hour floor.
        let mut t: Vec<f64> = (0..60).map(f64::from).collect();
        t.extend((1260..1320).map(f64::from));
        assert_eq!(split(&[t], &[0.0, 1320.0]), vec![seg(0.0, 1320.0)]);
    }

    #[test]
    fn captures_months_apart_are_two_segments() {
        let jan: Vec<f64> = (0..10).map(|i| -176.0 * 86_400.0 + f64::from(i)).collect();
        let jun: Vec<f64> = (0..9).map(f64::from).collect();
        let s = split(&[jan, jun], &[]);
        assert_eq!(
            s,
            vec![
                seg(-176.0 * 86_400.0, -176.0 * 86_400.0 + 9.0),
                seg(0.0, 8.0)
            ]
        );
        assert_eq!(locate(&s, 3.0), Some(1));
        assert_eq!(locate(&s, -176.0 * 86_400.0 + 4.0), Some(0));
        assert_eq!(locate(&s, -1000.0), Some(1), "nearer the second");
        assert_eq!(locate(&s, 1e9), Some(1));
        assert_eq!(locate(&s, -1e9), Some(0));
    }

    #[test]
    fn the_slowest_sampler_sets_the_gap() {
        // sar every 10 minutes (gap threshold 6000 s) beside iostat every second: a 90-minute
        // hole in the sar rows is not a break; a 2-hour one is.
        let sar: Vec<f64> = [
            0.0, 600.0, 1200.0, 1800.0, 7200.0, 7800.0, 15_000.0, 15_600.0,
        ]
        .to_vec();
        let io: Vec<f64> = (0..30).map(f64::from).collect();
        let s = split(&[sar, io], &[]);
        assert_eq!(s, vec![seg(0.0, 7800.0), seg(15_000.0, 15_600.0)]);
        assert_eq!(gap_threshold(600.0), 6000.0);
        assert_eq!(gap_threshold(1.0), MIN_GAP_S);
    }

    #[test]
    fn no_time_no_segment() {
        assert!(split(&[], &[]).is_empty());
        assert_eq!(locate(&[], 0.0), None);
    }
}
