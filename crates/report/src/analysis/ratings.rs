//! Bradley–Terry ratings from a head-to-head record: entrant `i` beats `j`
//! with probability `p_i / (p_i + p_j)`. Fitted by Hunter's MM algorithm
//! (2004); a draw counts half a win to each side; every pair also gets one
//! virtual game shared half and half, a weak prior that keeps an undefeated
//! or winless entrant's rating finite (negligible at Monte Carlo sample
//! sizes). Strengths are reported as `theta = ln p`, centred on zero, with
//! standard errors from the observed Fisher information under that
//! constraint.

use serde::Serialize;

use barsoom_engine::math::linalg::invert;
use barsoom_engine::math::stats::Z95;

/// One entrant's fitted rating.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rating {
    /// Log-strength, centred so the ratings sum to zero.
    pub theta: f64,
    /// Its standard error.
    pub se: f64,
    /// 95% interval of `theta`.
    pub ci95: [f64; 2],
    /// The same on the Elo scale (400 / ln 10 per unit of theta).
    pub elo: f64,
}

/// Fits ratings to `score[i][j]` (wins of `i` over `j`, draws counted
/// half) out of `games[i][j]` games (symmetric). Returns one rating per
/// entrant, or why the record cannot be rated.
pub fn bradley_terry(score: &[Vec<f64>], games: &[Vec<f64>]) -> Result<Vec<Rating>, String> {
    let n = score.len();
    if n < 2 {
        return Err("ratings need at least two entrants".into());
    }
    // The half-and-half virtual game per pair.
    let w = |i: usize, j: usize| score[i][j] + 0.5;
    let g = |i: usize, j: usize| games[i][j] + 1.0;
    let mut p = vec![1.0; n];
    for _ in 0..10_000 {
        let mut next = vec![0.0; n];
        for i in 0..n {
            let wins: f64 = (0..n).filter(|&j| j != i).map(|j| w(i, j)).sum();
            let denominator: f64 = (0..n)
                .filter(|&j| j != i)
                .map(|j| g(i, j) / (p[i] + p[j]))
                .sum();
            next[i] = wins / denominator;
        }
        // Fix the scale: geometric mean 1.
        let mean_log = next.iter().map(|x: &f64| x.ln()).sum::<f64>() / n as f64;
        for x in &mut next {
            *x /= mean_log.exp();
        }
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a.ln() - b.ln()).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    // Observed information in theta; with I·1 = 0, the covariance under
    // sum-to-zero is (I + J/n)^-1 - J/n.
    let mut info = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            if i != j {
                let pi = p[i] / (p[i] + p[j]);
                let v = g(i, j) * pi * (1.0 - pi);
                info[i * n + j] -= v;
                info[i * n + i] += v;
            }
        }
    }
    let ones = 1.0 / n as f64;
    let shifted: Vec<f64> = info.iter().map(|x| x + ones).collect();
    let inverse = invert(&shifted, n).map_err(|e| format!("the record cannot be rated: {e}"))?;
    Ok((0..n)
        .map(|i| {
            let theta = p[i].ln();
            let se = (inverse[i * n + i] - ones).max(0.0).sqrt();
            Rating {
                theta,
                se,
                ci95: [theta - Z95 * se, theta + Z95 * se],
                elo: theta * 400.0 / std::f64::consts::LN_10,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_known_strengths_from_a_synthetic_record() {
        // Strengths 1, 2, 4, 8 (theta centred: ln 2 * (-1.5, -0.5, 0.5, 1.5)),
        // each pair playing 1e8 games with exactly the expected results.
        let strengths = [1.0f64, 2.0, 4.0, 8.0];
        let n = strengths.len();
        let games = vec![vec![1e8; n]; n];
        let score: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| 1e8 * strengths[i] / (strengths[i] + strengths[j]))
                    .collect()
            })
            .collect();
        let ratings = bradley_terry(&score, &games).expect("rated");
        for (k, r) in ratings.iter().enumerate() {
            let want = std::f64::consts::LN_2 * (k as f64 - 1.5);
            assert!((r.theta - want).abs() < 1e-6, "{k}: {} vs {want}", r.theta);
        }
    }

    #[test]
    fn two_entrants_have_the_textbook_standard_error() {
        // 10,000 games, 6,000 to the first: theta1 - theta2 = ln 1.5 with
        // SE 1 / sqrt(n pi (1 - pi)) = 1 / sqrt(2400) = 0.020412; centred,
        // each theta is half the difference, so SE(theta1) = 0.010206.
        // (The virtual game moves these in the fifth decimal.)
        let games = vec![vec![0.0, 10_000.0], vec![10_000.0, 0.0]];
        let score = vec![vec![0.0, 6000.0], vec![4000.0, 0.0]];
        let r = bradley_terry(&score, &games).expect("rated");
        assert!((r[0].theta - 1.5f64.ln() / 2.0).abs() < 1e-4);
        assert!((r[0].theta + r[1].theta).abs() < 1e-12);
        assert!((r[0].se - 0.010_206).abs() < 1e-5, "{}", r[0].se);
    }

    #[test]
    fn an_undefeated_entrant_stays_finite() {
        let games = vec![vec![0.0, 100.0], vec![100.0, 0.0]];
        let score = vec![vec![0.0, 100.0], vec![0.0, 0.0]];
        let r = bradley_terry(&score, &games).expect("rated");
        assert!(r[0].theta.is_finite() && r[0].theta > 2.0);
    }
}
