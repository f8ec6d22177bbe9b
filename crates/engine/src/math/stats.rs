//! Interval estimates for rates, and a chi-square test of equal shares.

/// The 97.5% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The 95% Wilson score interval for `successes` out of `trials`.
/// Returns `(0, 1)` when there are no trials.
pub fn wilson_interval(successes: u64, trials: u64) -> (f64, f64) {
    wilson_interval_z(successes, trials, Z95)
}

/// The Wilson score interval at normal quantile `z`.
pub(crate) fn wilson_interval_z(successes: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    // The bounds are exactly 0 and 1 at the extremes (rounding would leave
    // a few ulps).
    let lo = if successes == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if successes >= trials {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// The largest half-width of the 95% Wilson intervals of outcome `counts`
/// (the rates of one run): the precision an adaptive stop waits for.
pub fn widest_half_width(counts: &[u64]) -> f64 {
    let trials: u64 = counts.iter().sum();
    counts
        .iter()
        .map(|&c| {
            let (lo, hi) = wilson_interval(c, trials);
            (hi - lo) / 2.0
        })
        .fold(0.0, f64::max)
}

/// Pearson's chi-square statistic of `counts` against equal shares, and
/// its 95th percentile under them; `None` for fewer than two counts or
/// none counted.
pub fn equal_shares_chi_square(counts: &[u64]) -> Option<(f64, f64)> {
    let total: u64 = counts.iter().sum();
    if counts.len() < 2 || total == 0 {
        return None;
    }
    let expected = total as f64 / counts.len() as f64;
    let statistic = counts
        .iter()
        .map(|&n| (n as f64 - expected).powi(2) / expected)
        .sum();
    Some((statistic, chi_square_95(counts.len() - 1)))
}

/// The 95th percentile of the chi-square distribution with `k` degrees of
/// freedom, by the Wilson–Hilferty cube-root approximation.
pub fn chi_square_95(k: usize) -> f64 {
    const Z_95: f64 = 1.644_853_6;
    let k = k as f64;
    let v = 2.0 / (9.0 * k);
    k * (1.0 - v + Z_95 * v.sqrt()).powi(3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widest_half_width_is_the_least_precise_rate() {
        // 50 of 100: Wilson (0.4038, 0.5962), half-width 0.0962; 10 of 100
        // is narrower, so the widest is the 50%'s.
        let w = widest_half_width(&[50, 40, 10]);
        let (lo, hi) = wilson_interval(50, 100);
        assert!((w - (hi - lo) / 2.0).abs() < 1e-15);
        assert!((w - 0.096_2).abs() < 1e-3);
        assert_eq!(widest_half_width(&[0, 0]), 0.5);
    }

    #[test]
    fn wilson_matches_hand_worked_values() {
        // 8 of 10: centre (0.8 + 0.19207)/1.38415 = 0.71673, half-width
        // 1.95996 * sqrt(0.016 + 0.0096036)/1.38415 = 0.22657.
        let (lo, hi) = wilson_interval(8, 10);
        assert!((lo - 0.49016).abs() < 1e-4, "{lo}");
        assert!((hi - 0.94331).abs() < 1e-4, "{hi}");
        // Zero successes still gives a non-degenerate upper bound.
        let (lo, hi) = wilson_interval(0, 100);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.036994).abs() < 1e-5, "{hi}");
    }

    #[test]
    fn wilson_is_symmetric() {
        let (lo, hi) = wilson_interval(30, 100);
        let (lo2, hi2) = wilson_interval(70, 100);
        assert!((lo - (1.0 - hi2)).abs() < 1e-12);
        assert!((hi - (1.0 - lo2)).abs() < 1e-12);
    }

    #[test]
    fn the_chi_square_percentile_is_near_the_exact_one() {
        // Exact 95th percentiles for 1, 2, 5, 13 and 30 degrees of freedom.
        for (k, exact) in [
            (1, 3.841),
            (2, 5.991),
            (5, 11.070),
            (13, 22.362),
            (30, 43.773),
        ] {
            let approx = chi_square_95(k);
            assert!(
                (approx - exact).abs() < 0.1,
                "{k}: {approx} against {exact}"
            );
        }
    }
}
