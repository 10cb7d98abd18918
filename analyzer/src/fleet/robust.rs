//! Robust outlier detection for one numeric fact across hosts: median, median absolute
//! deviation (MAD) and the modified z-score of Iglewicz & Hoaglin.
//!
//! `M_i = 0.6745 × (x_i − median) / MAD`; a value is an outlier when `|M_i| > 3.5`
//! (B. Iglewicz and D. C. Hoaglin, *How to Detect and Handle Outliers*, ASQC Quality Press,
//! 1993). 0.6745 is the 0.75 quantile of the standard normal, so `MAD / 0.6745` estimates the
//! standard deviation of normal data while one or two extreme hosts cannot move it.
//!
//! When more than half of the hosts share one value the MAD is 0 and `M` is undefined; the mean
//! absolute deviation is used instead, scaled by 1.253314 (`√(π/2)`, the same normal-consistency
//! role: `M_i = (x_i − median) / (1.253314 × MeanAD)`). When every value is equal there is no
//! outlier.

/// `|M| > 3.5` marks an outlier (Iglewicz & Hoaglin).
pub const Z_THRESHOLD: f64 = 3.5;

/// Fewest hosts with a value for the fact before outliers are looked for: a median of two
/// values cannot tell which one is odd.
pub const MIN_HOSTS: usize = 3;

/// 0.75 quantile of the standard normal distribution.
const NORMAL_Q3: f64 = 0.6745;

/// `√(π/2)`: mean absolute deviation to standard deviation, for normal data.
const MEAN_AD_SCALE: f64 = 1.253314;

/// Median of the values (`None` when empty).
pub fn median(v: &[f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let mut s: Vec<f64> = v.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let n = s.len();
    Some(if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    })
}

/// Centre and spread of one fact across hosts.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Spread {
    /// Median.
    pub median: f64,
    /// Median absolute deviation from the median.
    pub mad: f64,
    /// Mean absolute deviation from the median (used when `mad` is 0).
    pub mean_ad: f64,
}

impl Spread {
    /// The spread of `v`; `None` with fewer than [`MIN_HOSTS`] values.
    pub fn of(v: &[f64]) -> Option<Spread> {
        if v.len() < MIN_HOSTS {
            return None;
        }
        let m = median(v)?;
        let dev: Vec<f64> = v.iter().map(|x| (x - m).abs()).collect();
        let mad = median(&dev)?;
        let mean_ad = dev.iter().sum::<f64>() / dev.len() as f64;
        Some(Spread {
            median: m,
            mad,
            mean_ad,
        })
    }

    /// Modified z-score of `x`; 0 when every value is equal.
    pub fn z(&self, x: f64) -> f64 {
        if self.mad > 0.0 {
            NORMAL_Q3 * (x - self.median) / self.mad
        } else if self.mean_ad > 0.0 {
            (x - self.median) / (MEAN_AD_SCALE * self.mean_ad)
        } else {
            0.0
        }
    }

    /// Whether `x` is an outlier.
    pub fn is_outlier(&self, x: f64) -> bool {
        self.z(x).abs() > Z_THRESHOLD
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn one_extreme_host_is_an_outlier_and_does_not_move_the_centre() {
        // %soft of six peers: five near 10, one at 95.
        let v = [9.0, 10.0, 11.0, 10.5, 9.5, 95.0];
        let s = Spread::of(&v).unwrap();
        assert_eq!(s.median, 10.25);
        assert!(s.is_outlier(95.0), "z = {}", s.z(95.0));
        for x in &v[..5] {
            assert!(!s.is_outlier(*x), "{x}: z = {}", s.z(*x));
        }
    }

    #[test]
    fn zero_mad_falls_back_to_the_mean_absolute_deviation() {
        // Four hosts with 8 queues, one with 1: MAD is 0.
        let v = [8.0, 8.0, 8.0, 8.0, 1.0];
        let s = Spread::of(&v).unwrap();
        assert_eq!(s.mad, 0.0);
        assert!(s.is_outlier(1.0));
        assert!(!s.is_outlier(8.0));
        // All equal: nothing stands out.
        let s = Spread::of(&[4.0, 4.0, 4.0]).unwrap();
        assert_eq!(s.z(4.0), 0.0);
    }

    #[test]
    fn normal_scatter_stays_inside() {
        let v = [100.0, 102.0, 98.0, 101.0, 99.0, 103.0, 97.0];
        let s = Spread::of(&v).unwrap();
        assert!(v.iter().all(|x| !s.is_outlier(*x)));
        assert!(Spread::of(&[1.0, 2.0]).is_none());
    }
}
