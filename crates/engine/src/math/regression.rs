//! Benchmark regressions: is a new throughput figure worse than a baseline
//! by more than the run-to-run noise both measurements showed?

/// The smallest change (in log ratio, about a relative change) ever called a
/// regression or improvement, however quiet the repeats were (timer and
/// frequency jitter).
pub(crate) const MIN_THRESHOLD: f64 = 0.03;

/// How many combined noise standard deviations a change must exceed.
pub(crate) const NOISE_MULTIPLE: f64 = 3.0;

/// What a comparison concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Slower beyond the noise.
    Regression,
    /// Faster beyond the noise.
    Improvement,
    /// Within the noise.
    Unchanged,
}

impl Verdict {
    /// The word used in tables and frames.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Regression => "regression",
            Verdict::Improvement => "improvement",
            Verdict::Unchanged => "within noise",
        }
    }
}

/// A throughput compared with its baseline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison {
    /// `current / baseline - 1` (negative: slower).
    pub change: f64,
    /// The size of change that counts as real, in log ratio (≈ relative
    /// change): `max(3 × sqrt(nb² + nc²), 0.03)`.
    pub threshold: f64,
    /// The conclusion.
    pub verdict: Verdict,
}

/// Compares throughputs (trials/s, higher is better) given the relative
/// noise (standard deviation / mean of repeated timings) of each. The test
/// is on the log of the ratio, whose standard deviation is about the
/// relative noise, so a slowdown and a speed-up of the same factor weigh the
/// same and a large drop is never capped at −100%.
pub fn compare(baseline: f64, baseline_noise: f64, current: f64, current_noise: f64) -> Comparison {
    let change = current / baseline - 1.0;
    let log_ratio = (current / baseline).ln();
    let combined = baseline_noise.hypot(current_noise);
    let threshold = (NOISE_MULTIPLE * combined).max(MIN_THRESHOLD);
    let verdict = if !log_ratio.is_finite() {
        Verdict::Unchanged
    } else if log_ratio < -threshold {
        Verdict::Regression
    } else if log_ratio > threshold {
        Verdict::Improvement
    } else {
        Verdict::Unchanged
    };
    Comparison {
        change,
        threshold,
        verdict,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drop_beyond_three_combined_noise_is_a_regression() {
        // Noise 4% and 3%: combined 5%, threshold 0.15 in log ratio.
        let c = compare(100.0, 0.04, 80.0, 0.03);
        assert!((c.threshold - 0.15).abs() < 1e-12);
        assert!((c.change + 0.2).abs() < 1e-12);
        // ln(0.8) = -0.223 < -0.15.
        assert_eq!(c.verdict, Verdict::Regression);
        // ln(0.9) = -0.105 and ln(1.12) = 0.113: within noise.
        assert_eq!(compare(100.0, 0.04, 90.0, 0.03).verdict, Verdict::Unchanged);
        assert_eq!(
            compare(100.0, 0.04, 112.0, 0.03).verdict,
            Verdict::Unchanged
        );
        // ln(1.2) = 0.182 > 0.15.
        assert_eq!(
            compare(100.0, 0.04, 120.0, 0.03).verdict,
            Verdict::Improvement
        );
        // Noisy timings (40%: threshold 1.7) still see a hundredfold drop.
        assert_eq!(compare(100.0, 0.4, 1.0, 0.4).verdict, Verdict::Regression);
    }

    #[test]
    fn quiet_measurements_still_allow_three_percent() {
        let c = compare(100.0, 0.0, 98.0, 0.0);
        assert_eq!(c.threshold, MIN_THRESHOLD);
        assert_eq!(c.verdict, Verdict::Unchanged);
        // ln(0.96) = -0.041 < -0.03.
        assert_eq!(compare(100.0, 0.0, 96.0, 0.0).verdict, Verdict::Regression);
    }
}
