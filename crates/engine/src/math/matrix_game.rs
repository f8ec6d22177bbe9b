//! Optimal mixed strategies of two-player zero-sum matrix games, by linear
//! programming.
//!
//! The row player receives `matrix[i][j]` when he plays row `i` and his
//! opponent column `j`. Every entry is first shifted to be at least 1, so the
//! game's value is positive; the column player's problem then becomes the
//! standard-form LP `max Σy subject to A·y ≤ 1, y ≥ 0`, whose origin is
//! feasible (no phase one). It is solved with a dense simplex tableau and
//! Bland's rule, which cannot cycle. The row player's strategy is read from
//! the duals (the objective row under the slack columns). With `z` the
//! optimum, the shifted value is `1/z`, `y/z` is the column strategy and
//! `u/z` the row strategy.
//!
//! Written here rather than taken from an LP crate: the games are at most a
//! few dozen strategies, and this is the whole of what they need.

/// The solution of a zero-sum matrix game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameSolution {
    /// The value of the game to the row player.
    pub value: f64,
    /// The row player's optimal mixed strategy (sums to 1).
    pub row_strategy: Vec<f64>,
    /// The column player's optimal mixed strategy (sums to 1).
    pub column_strategy: Vec<f64>,
}

/// Why a game could not be solved.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GameError {
    /// No rows, no columns, or rows of different lengths.
    #[error("the payoff matrix must be a non-empty rectangle")]
    Shape,
    /// An entry is NaN or infinite.
    #[error("the payoff matrix has a value that is not a finite number")]
    NotFinite,
    /// The simplex did not finish within its pivot limit.
    #[error("the simplex did not converge")]
    NoConvergence,
}

const EPSILON: f64 = 1e-12;

/// Solves the zero-sum game with payoff `matrix` (rows: the maximising
/// player's strategies, columns: the minimising player's).
pub fn solve_zero_sum(matrix: &[Vec<f64>]) -> Result<GameSolution, GameError> {
    let rows = matrix.len();
    let cols = matrix.first().map_or(0, Vec::len);
    if rows == 0 || cols == 0 || matrix.iter().any(|r| r.len() != cols) {
        return Err(GameError::Shape);
    }
    if matrix.iter().flatten().any(|v| !v.is_finite()) {
        return Err(GameError::NotFinite);
    }
    let min = matrix
        .iter()
        .flatten()
        .copied()
        .fold(f64::INFINITY, f64::min);
    let shift = 1.0 - min;

    // Tableau: `rows` constraint rows then the objective row; columns are
    // y (cols), slacks (rows) and the right-hand side.
    let width = cols + rows + 1;
    let mut t = vec![0.0; (rows + 1) * width];
    for (i, row) in matrix.iter().enumerate() {
        for (j, v) in row.iter().enumerate() {
            t[i * width + j] = v + shift;
        }
        t[i * width + cols + i] = 1.0;
        t[i * width + width - 1] = 1.0;
    }
    let objective = rows * width;
    for j in 0..cols {
        t[objective + j] = -1.0;
    }
    let mut basis: Vec<usize> = (cols..cols + rows).collect();

    let pivot_limit = 50 * (rows + cols) * (rows + cols) + 100;
    let mut pivots = 0;
    // Bland's rule: the lowest-index improving column, and among tied
    // ratios the row whose basic variable has the lowest index.
    while let Some(enter) = (0..cols + rows).find(|&j| t[objective + j] < -EPSILON) {
        pivots += 1;
        if pivots > pivot_limit {
            return Err(GameError::NoConvergence);
        }
        let mut leave: Option<(usize, f64)> = None;
        for i in 0..rows {
            let a = t[i * width + enter];
            if a > EPSILON {
                let ratio = t[i * width + width - 1] / a;
                let better = match leave {
                    None => true,
                    Some((l, best)) => {
                        ratio < best - EPSILON || (ratio <= best + EPSILON && basis[i] < basis[l])
                    }
                };
                if better {
                    leave = Some((i, ratio));
                }
            }
        }
        // The feasible region is bounded (every entry of A is positive), so
        // an entering column always has a leaving row.
        let Some((leave, _)) = leave else {
            return Err(GameError::NoConvergence);
        };
        let inv = 1.0 / t[leave * width + enter];
        for c in 0..width {
            t[leave * width + c] *= inv;
        }
        for r in 0..=rows {
            if r != leave {
                let factor = t[r * width + enter];
                if factor != 0.0 {
                    for c in 0..width {
                        t[r * width + c] -= factor * t[leave * width + c];
                    }
                }
            }
        }
        basis[leave] = enter;
    }

    let z = t[objective + width - 1];
    let mut column_strategy = vec![0.0; cols];
    for (i, b) in basis.iter().enumerate() {
        if *b < cols {
            column_strategy[*b] = t[i * width + width - 1] / z;
        }
    }
    let row_strategy: Vec<f64> = (0..rows)
        .map(|i| (t[objective + cols + i] / z).max(0.0))
        .collect();
    Ok(GameSolution {
        value: 1.0 / z - shift,
        row_strategy: normalised(row_strategy),
        column_strategy: normalised(column_strategy),
    })
}

/// Rescales non-negative weights to sum to exactly one (removing rounding).
fn normalised(mut v: Vec<f64>) -> Vec<f64> {
    v.iter_mut().for_each(|p| {
        if *p < 1e-12 {
            *p = 0.0;
        }
    });
    let total: f64 = v.iter().sum();
    v.iter_mut().for_each(|p| *p /= total);
    v
}

/// The row player's expected payoff when both play the given mixes.
pub fn expected_payoff(matrix: &[Vec<f64>], rows: &[f64], cols: &[f64]) -> f64 {
    matrix
        .iter()
        .zip(rows)
        .map(|(row, x)| x * row.iter().zip(cols).map(|(v, y)| v * y).sum::<f64>())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    fn game(rows: &[&[f64]]) -> Vec<Vec<f64>> {
        rows.iter().map(|r| r.to_vec()).collect()
    }

    /// Checks the defining property: neither player gains by deviating.
    fn assert_equilibrium(m: &[Vec<f64>], s: &GameSolution) {
        for j in 0..m[0].len() {
            let mut pure = vec![0.0; m[0].len()];
            pure[j] = 1.0;
            assert!(expected_payoff(m, &s.row_strategy, &pure) >= s.value - 1e-9);
        }
        for i in 0..m.len() {
            let mut pure = vec![0.0; m.len()];
            pure[i] = 1.0;
            assert!(expected_payoff(m, &pure, &s.column_strategy) <= s.value + 1e-9);
        }
    }

    #[test]
    fn matching_pennies_is_a_fair_coin() {
        let m = game(&[&[1.0, -1.0], &[-1.0, 1.0]]);
        let s = solve_zero_sum(&m).expect("solvable");
        assert!(close(s.value, 0.0), "{s:?}");
        assert!(close(s.row_strategy[0], 0.5) && close(s.column_strategy[1], 0.5));
        assert_equilibrium(&m, &s);
    }

    #[test]
    fn rock_paper_scissors_is_uniform() {
        let m = game(&[&[0.0, -1.0, 1.0], &[1.0, 0.0, -1.0], &[-1.0, 1.0, 0.0]]);
        let s = solve_zero_sum(&m).expect("solvable");
        assert!(close(s.value, 0.0));
        for p in s.row_strategy.iter().chain(&s.column_strategy) {
            assert!(close(*p, 1.0 / 3.0), "{s:?}");
        }
        assert_equilibrium(&m, &s);
    }

    #[test]
    fn a_two_by_two_game_worked_by_hand() {
        // [[3, -1], [-2, 1]]: the row player mixes p on row 0 so that both
        // columns pay the same: 3p - 2(1-p) = -p + (1-p) gives p = 3/7; the
        // column player's q on column 0: 3q - (1-q) = -2q + (1-q) gives
        // q = 2/7; the value is 3(2/7) - 5/7 = 1/7.
        let m = game(&[&[3.0, -1.0], &[-2.0, 1.0]]);
        let s = solve_zero_sum(&m).expect("solvable");
        assert!(close(s.value, 1.0 / 7.0), "{s:?}");
        assert!(close(s.row_strategy[0], 3.0 / 7.0));
        assert!(close(s.column_strategy[0], 2.0 / 7.0));
    }

    #[test]
    fn a_saddle_point_gives_pure_strategies() {
        // Row 1 dominates row 0; column 1 is then the column player's best.
        let m = game(&[&[1.0, 2.0, 4.0], &[3.0, 2.5, 5.0]]);
        let s = solve_zero_sum(&m).expect("solvable");
        assert!(close(s.value, 2.5), "{s:?}");
        assert_eq!(s.row_strategy, vec![0.0, 1.0]);
        assert_eq!(s.column_strategy, vec![0.0, 1.0, 0.0]);
        assert_equilibrium(&m, &s);
    }

    #[test]
    fn ragged_or_empty_matrices_are_refused() {
        assert_eq!(solve_zero_sum(&[]), Err(GameError::Shape));
        assert_eq!(
            solve_zero_sum(&game(&[&[1.0, 2.0], &[3.0]])),
            Err(GameError::Shape)
        );
        assert_eq!(
            solve_zero_sum(&game(&[&[f64::NAN]])),
            Err(GameError::NotFinite)
        );
    }
}
