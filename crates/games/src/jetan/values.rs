//! Empirical piece values: the result of each decided game regressed, by
//! logistic regression, on the material balance by kind at a fixed ply.
//! The coefficients, scaled so that a Panthan is worth 1, stand beside the
//! marks printed on the pieces ("Gambling").

use super::position::Position;
use super::rules::{Color, Kind};
use barsoom_engine::math::linalg::{Singular, invert};

/// The kinds whose balance is regressed: the Chief and the Princess are
/// never lost before the game ends, so they never vary at a fixed ply.
pub const REGRESSED: [Kind; 6] = [
    Kind::Panthan,
    Kind::Warrior,
    Kind::Padwar,
    Kind::Thoat,
    Kind::Dwar,
    Kind::Flier,
];

/// Black's count less Orange's for each kind of [`REGRESSED`].
pub fn balance_by_kind(position: &Position) -> [f64; 6] {
    REGRESSED.map(|kind| {
        position.count(kind, Color::Black) as f64 - position.count(kind, Color::Orange) as f64
    })
}

/// A fitted logistic regression: the intercept first, then one
/// coefficient per regressor, each with its standard error.
#[derive(Debug, Clone, PartialEq)]
pub struct LogisticFit {
    /// Intercept, then the coefficients.
    pub coefficients: Vec<f64>,
    /// Standard errors from the inverse Fisher information.
    pub standard_errors: Vec<f64>,
}

/// Fits P(y = 1) = σ(b0 + b·x) by Newton–Raphson. A tiny ridge keeps the
/// information matrix invertible when a regressor never varies (its
/// coefficient then stays near 0 with a huge standard error).
pub fn fit_logistic<const K: usize>(x: &[[f64; K]], y: &[bool]) -> Result<LogisticFit, Singular> {
    const RIDGE: f64 = 1e-6;
    let n = K + 1;
    let mut beta = vec![0.0; n];
    let row = |xi: &[f64; K]| -> Vec<f64> {
        let mut r = Vec::with_capacity(n);
        r.push(1.0);
        r.extend_from_slice(xi);
        r
    };
    let mut covariance = vec![0.0; n * n];
    for _ in 0..100 {
        let mut gradient = vec![0.0; n];
        let mut information = vec![0.0; n * n];
        for (xi, &yi) in x.iter().zip(y) {
            let r = row(xi);
            let eta: f64 = r.iter().zip(&beta).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-eta).exp());
            let w = p * (1.0 - p);
            let residual = f64::from(u8::from(yi)) - p;
            for (i, ri) in r.iter().enumerate() {
                gradient[i] += ri * residual;
                for (j, rj) in r.iter().enumerate() {
                    information[i * n + j] += w * ri * rj;
                }
            }
        }
        for (i, (g, b)) in gradient.iter_mut().zip(&beta).enumerate() {
            information[i * n + i] += RIDGE;
            *g -= RIDGE * b;
        }
        covariance = invert(&information, n)?;
        let mut largest_step: f64 = 0.0;
        for (i, b) in beta.iter_mut().enumerate() {
            let row_i = &covariance[i * n..(i + 1) * n];
            let step: f64 = row_i.iter().zip(&gradient).map(|(c, g)| c * g).sum();
            *b += step;
            largest_step = largest_step.max(step.abs());
        }
        if largest_step < 1e-10 {
            break;
        }
    }
    let standard_errors = (0..n)
        .map(|i| covariance[i * n + i].max(0.0).sqrt())
        .collect();
    Ok(LogisticFit {
        coefficients: beta,
        standard_errors,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_known_coefficients() {
        // y drawn from σ(0.3 + 1.0 x1 - 2.0 x2) with a fixed generator.
        let mut state = 12345u64;
        let mut uniform = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut x = Vec::new();
        let mut y = Vec::new();
        for _ in 0..20_000 {
            let a = (uniform() * 5.0).floor() - 2.0;
            let b = (uniform() * 3.0).floor() - 1.0;
            let p = 1.0 / (1.0 + (-(0.3 + a - 2.0 * b)).exp());
            x.push([a, b]);
            y.push(uniform() < p);
        }
        let fit = match fit_logistic(&x, &y) {
            Ok(f) => f,
            Err(e) => panic!("{e}"),
        };
        for (got, want) in fit.coefficients.iter().zip([0.3, 1.0, -2.0]) {
            assert!((got - want).abs() < 0.1, "{:?}", fit.coefficients);
        }
        assert!(fit.standard_errors.iter().all(|s| *s > 0.0 && *s < 0.1));
    }

    #[test]
    fn balance_is_black_less_orange() {
        let start = Position::initial();
        assert_eq!(balance_by_kind(&start), [0.0; 6]);
        let p = super::super::tests::position("q9/10/10/10/10/10/10/10/NN8/Q8T b - -");
        assert_eq!(balance_by_kind(&p), [2.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
    }
}
