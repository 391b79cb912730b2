//! The statistics a balance study keeps: means and proportions that are added game by game and
//! merged across threads (so memory stays one game per thread), each with its 95% confidence
//! interval (Student's t for a mean, Wilson's score interval for a proportion, from `statrs`).

use serde::{Deserialize, Serialize};
use statrs::distribution::{ChiSquared, ContinuousCDF, Normal, StudentsT};

/// The confidence the intervals are given at.
pub const CONFIDENCE: f64 = 0.95;

/// A running mean: count, mean and sum of squared deviations (Welford), mergeable (Chan et al.).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Mean {
    /// Observations.
    pub n: u64,
    mean: f64,
    m2: f64,
}

impl Mean {
    /// Add one observation.
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        let delta = x - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (x - self.mean);
    }

    /// Add another mean's observations.
    pub fn merge(&mut self, other: &Mean) {
        if other.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = *other;
            return;
        }
        let n = self.n + other.n;
        let delta = other.mean - self.mean;
        self.mean += delta * other.n as f64 / n as f64;
        self.m2 += other.m2 + delta * delta * (self.n as f64 * other.n as f64) / n as f64;
        self.n = n;
    }

    /// The mean, or `None` with no observation.
    pub fn value(&self) -> Option<f64> {
        (self.n > 0).then_some(self.mean)
    }

    /// Whether a run could have made it, with at most `most` observations (a file read back
    /// may hold anything).
    pub fn is_possible(&self, most: u64) -> bool {
        self.n <= most
            && self.mean.is_finite()
            && self.m2.is_finite()
            && self.m2 >= 0.0
            && (self.n > 0 || (self.mean == 0.0 && self.m2 == 0.0))
    }

    /// The sample standard deviation (`None` below two observations).
    pub fn sd(&self) -> Option<f64> {
        (self.n > 1).then(|| (self.m2 / (self.n - 1) as f64).max(0.0).sqrt())
    }

    /// The standard error of the mean.
    pub fn se(&self) -> Option<f64> {
        self.sd().map(|sd| sd / (self.n as f64).sqrt())
    }

    /// The 95% interval of the standard deviation (from the chi-squared distribution with n - 1
    /// degrees of freedom: exact for normal observations, a guide for others).
    pub fn sd_interval(&self) -> Option<(f64, f64)> {
        self.sd_interval_at(CONFIDENCE)
    }

    /// [`Mean::sd_interval`] at another confidence (0 to 1).
    pub fn sd_interval_at(&self, confidence: f64) -> Option<(f64, f64)> {
        let sd = self.sd()?;
        let df = (self.n - 1) as f64;
        let chi = ChiSquared::new(df).ok()?;
        let upper = chi.inverse_cdf(0.5 + confidence / 2.0);
        let lower = chi.inverse_cdf(0.5 - confidence / 2.0);
        Some((sd * (df / upper).sqrt(), sd * (df / lower).sqrt()))
    }

    /// The 95% interval of the mean (Student's t with n - 1 degrees of freedom).
    pub fn interval(&self) -> Option<(f64, f64)> {
        self.interval_at(CONFIDENCE)
    }

    /// [`Mean::interval`] at another confidence (0 to 1).
    pub fn interval_at(&self, confidence: f64) -> Option<(f64, f64)> {
        let se = self.se()?;
        let t = StudentsT::new(0.0, 1.0, (self.n - 1) as f64)
            .ok()?
            .inverse_cdf(0.5 + confidence / 2.0);
        Some((self.mean - t * se, self.mean + t * se))
    }
}

/// A proportion: successes out of trials.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Share {
    /// Successes.
    pub hits: u64,
    /// Trials.
    pub n: u64,
}

impl Share {
    /// Add one trial.
    pub fn add(&mut self, hit: bool) {
        self.n += 1;
        self.hits += u64::from(hit);
    }

    /// Add another share's trials.
    pub fn merge(&mut self, other: &Share) {
        self.hits += other.hits;
        self.n += other.n;
    }

    /// Whether a run could have made it, with at most `most` trials.
    pub fn is_possible(&self, most: u64) -> bool {
        self.hits <= self.n && self.n <= most
    }

    /// The proportion, or `None` with no trial.
    pub fn value(&self) -> Option<f64> {
        (self.n > 0).then(|| self.hits as f64 / self.n as f64)
    }

    /// Wilson's 95% score interval, which stays inside 0 to 1 and is sound near them.
    pub fn interval(&self) -> Option<(f64, f64)> {
        self.interval_at(CONFIDENCE)
    }

    /// [`Share::interval`] at another confidence (0 to 1).
    pub fn interval_at(&self, confidence: f64) -> Option<(f64, f64)> {
        if self.n == 0 {
            return None;
        }
        let z = z_at(confidence);
        let n = self.n as f64;
        let p = self.hits as f64 / n;
        let denominator = 1.0 + z * z / n;
        let centre = (p + z * z / (2.0 * n)) / denominator;
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
        Some(((centre - half).max(0.0), (centre + half).min(1.0)))
    }
}

/// The normal quantile of the intervals' confidence (1.96 for 95%).
pub fn z() -> f64 {
    z_at(CONFIDENCE)
}

/// The two-sided normal quantile of a confidence (0 to 1).
pub fn z_at(confidence: f64) -> f64 {
    Normal::standard().inverse_cdf(0.5 + confidence.clamp(0.0, 1.0 - 1e-15) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::{Mean, Share};

    #[test]
    fn a_mean_merged_from_parts_is_the_mean_of_the_whole() {
        let xs = [3.0, 7.0, 1.0, 9.0, 4.0, 4.0, 12.0];
        let mut whole = Mean::default();
        xs.iter().for_each(|&x| whole.add(x));
        let (mut a, mut b) = (Mean::default(), Mean::default());
        xs[..3].iter().for_each(|&x| a.add(x));
        xs[3..].iter().for_each(|&x| b.add(x));
        a.merge(&b);
        assert_eq!(a.n, whole.n);
        assert!((a.value().unwrap() - 40.0 / 7.0).abs() < 1e-12);
        assert!((a.sd().unwrap() - whole.sd().unwrap()).abs() < 1e-12);
        // The t interval for n = 7 (t = 2.447): mean ± 2.447 · sd / √7.
        let (lo, hi) = whole.interval().unwrap();
        let half = 2.446_911_846_9 * whole.sd().unwrap() / 7f64.sqrt();
        assert!((lo - (40.0 / 7.0 - half)).abs() < 1e-6 && (hi - (40.0 / 7.0 + half)).abs() < 1e-6);
    }

    #[test]
    fn wilson_intervals_match_their_formula_and_stay_inside_zero_and_one() {
        let mut s = Share::default();
        (0..100).for_each(|i| s.add(i < 30));
        let (lo, hi) = s.interval().unwrap();
        // Wilson for 30 of 100 at 95%: 0.2189 to 0.3958.
        assert!(
            (lo - 0.2189).abs() < 1e-3 && (hi - 0.3958).abs() < 1e-3,
            "{lo} {hi}"
        );
        let all = Share { hits: 10, n: 10 };
        let (lo, hi) = all.interval().unwrap();
        assert!(lo > 0.65 && hi == 1.0, "{lo} {hi}");
        assert_eq!(Share::default().interval(), None);
    }
}
