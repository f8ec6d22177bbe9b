//! Differences between two paired runs: the change in each outcome rate
//! with Newcombe's score interval for paired proportions (his method 10,
//! built from the two Wilson intervals and the correlation of the pairs),
//! the change in each metric's mean with a normal interval, and how many
//! trials an unpaired comparison would have needed for the same precision.

use serde::Serialize;

use barsoom_engine::math::stats::{Z95, wilson_interval};
use barsoom_engine::paired::{DifferenceSums, PairedTally};

/// The change in one outcome's rate, second run minus first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RateDifference {
    /// Rate in the first run.
    pub first: f64,
    /// Rate in the second run.
    pub second: f64,
    /// `second - first`.
    pub difference: f64,
    /// 95% interval of the difference (Newcombe, paired).
    pub ci95: [f64; 2],
    /// Standard error of the difference from the paired trials.
    pub paired_se: f64,
    /// Standard error had the two runs used independent trials.
    pub unpaired_se: f64,
    /// Trials per run an unpaired comparison would need for `paired_se`.
    pub unpaired_trials_needed: f64,
}

/// Newcombe's 95% interval for `p1 - p2` from paired counts: `both`
/// (outcome in both runs), `only_first`, `only_second`, `neither`.
pub(crate) fn newcombe_paired_interval(
    both: u64,
    only_first: u64,
    only_second: u64,
    neither: u64,
) -> (f64, f64) {
    let n = both + only_first + only_second + neither;
    if n == 0 {
        return (-1.0, 1.0);
    }
    let nf = n as f64;
    let (x1, x2) = (both + only_first, both + only_second);
    let (p1, p2) = (x1 as f64 / nf, x2 as f64 / nf);
    let (l1, u1) = wilson_interval(x1, n);
    let (l2, u2) = wilson_interval(x2, n);
    let (a, b, c, d) = (
        both as f64,
        only_first as f64,
        only_second as f64,
        neither as f64,
    );
    let denominator = ((a + b) * (c + d) * (a + c) * (b + d)).sqrt();
    let phi = if denominator > 0.0 {
        (a * d - b * c) / denominator
    } else {
        0.0
    };
    let theta = p1 - p2;
    let below = ((p1 - l1).powi(2) - 2.0 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2).powi(2))
        .max(0.0)
        .sqrt();
    let above = ((u1 - p1).powi(2) - 2.0 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2).powi(2))
        .max(0.0)
        .sqrt();
    ((theta - below).max(-1.0), (theta + above).min(1.0))
}

/// The change in outcome `k` between the runs of `tally` (outcome `k` of
/// the first run against outcome `k` of the second).
pub fn rate_difference(tally: &PairedTally, k: usize) -> RateDifference {
    let n = tally.trials();
    let (mut both, mut only_first, mut only_second) = (0, 0, 0);
    for i in 0..tally.outcomes_first {
        for j in 0..tally.outcomes_second {
            let count = tally.count(i, j);
            match (i == k, j == k) {
                (true, true) => both += count,
                (true, false) => only_first += count,
                (false, true) => only_second += count,
                (false, false) => {}
            }
        }
    }
    let neither = n - both - only_first - only_second;
    let nf = (n as f64).max(1.0);
    let first = (both + only_first) as f64 / nf;
    let second = (both + only_second) as f64 / nf;
    let difference = second - first;
    let (lo, hi) = newcombe_paired_interval(both, only_second, only_first, neither);
    // Per-trial differences are +1 (only second), -1 (only first) or 0.
    let discordant = (only_first + only_second) as f64 / nf;
    let paired_var = (discordant - difference * difference).max(0.0);
    let unpaired_var = first * (1.0 - first) + second * (1.0 - second);
    RateDifference {
        first,
        second,
        difference,
        ci95: [lo, hi],
        paired_se: (paired_var / nf).sqrt(),
        unpaired_se: (unpaired_var / nf).sqrt(),
        unpaired_trials_needed: if paired_var > 0.0 {
            nf * unpaired_var / paired_var
        } else {
            f64::INFINITY
        },
    }
}

/// The change in a metric's mean, second run minus first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeanDifference {
    /// Mean per-trial difference.
    pub difference: f64,
    /// 95% normal interval.
    pub ci95: [f64; 2],
    /// Its standard error.
    pub se: f64,
}

/// Mean and interval of paired metric differences over `n` trials.
pub fn mean_difference(sums: &DifferenceSums, n: u64) -> MeanDifference {
    let nf = (n as f64).max(1.0);
    let mean = sums.sum as f64 / nf;
    let var = if n > 1 {
        ((sums.sum_squares as f64 - nf * mean * mean) / (nf - 1.0)).max(0.0)
    } else {
        0.0
    };
    let se = (var / nf).sqrt();
    MeanDifference {
        difference: mean,
        ci95: [mean - Z95 * se, mean + Z95 * se],
        se,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newcombe_interval_by_hand() {
        // a=40 both, b=10 first only, c=5 second only, d=45 neither (n=100):
        // p1 = 0.50, p2 = 0.45; Wilson (0.40383, 0.59617) and
        // (0.35615, 0.54755); phi = (40*45 - 10*5)/sqrt(50*50*45*55) = 0.70353;
        // delta = sqrt(0.09617^2 - 2*0.70353*0.09617*0.09755 + 0.09755^2)
        //       = 0.07460, epsilon = sqrt(0.09617^2 - 2*0.70353*0.09617*0.09385
        //       + 0.09385^2) = 0.07319; interval (0.05 - 0.07460, 0.05 + 0.07319).
        let (lo, hi) = newcombe_paired_interval(40, 10, 5, 45);
        assert!((lo - -0.024_597_059).abs() < 1e-8, "{lo}");
        assert!((hi - 0.123_192_952).abs() < 1e-8, "{hi}");
    }

    #[test]
    fn large_samples_agree_with_the_normal_interval() {
        let mut tally = PairedTally::new(2, 2, 0);
        // Outcome 0 in the first run 50%, in the second 52%, highly
        // correlated: 480k both, 20k first only, 40k second only.
        tally.joint = vec![480_000, 20_000, 40_000, 460_000];
        let d = rate_difference(&tally, 0);
        assert!((d.difference - 0.02).abs() < 1e-12);
        let half = Z95 * d.paired_se;
        assert!((d.ci95[0] - (0.02 - half)).abs() < 2e-4, "{:?}", d.ci95);
        assert!((d.ci95[1] - (0.02 + half)).abs() < 2e-4, "{:?}", d.ci95);
        // Pairing: var(d) = 0.06 - 0.0004 = 0.0596 against 0.25 + 0.2496,
        // so an unpaired run needs 8.38 times the trials.
        assert!((d.unpaired_trials_needed / 1e6 - 0.4996 / 0.0596).abs() < 1e-9);
    }

    #[test]
    fn mean_differences_from_exact_sums() {
        // Differences 1, 2, 3: mean 2, sample variance 1, se 1/sqrt(3).
        let sums = DifferenceSums {
            sum: 6,
            sum_squares: 14,
        };
        let m = mean_difference(&sums, 3);
        assert_eq!(m.difference, 2.0);
        assert!((m.se - 1.0 / 3f64.sqrt()).abs() < 1e-12);
    }
}
