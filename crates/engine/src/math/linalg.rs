//! Small dense linear algebra for the exact solvers and rating fits.

/// A matrix with no usable pivot: singular, or too close to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the linear system is singular")]
pub struct Singular;

/// Reduces the row-major `n × cols` augmented matrix `m` to `[I | x]` with
/// partial pivoting (Gauss–Jordan), so the right-hand columns hold the
/// solutions.
pub(crate) fn gaussian_eliminate(m: &mut [f64], n: usize, cols: usize) -> Result<(), Singular> {
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|a, b| m[a * cols + col].abs().total_cmp(&m[b * cols + col].abs()))
            .unwrap_or(col);
        if m[pivot * cols + col].abs() < 1e-13 {
            return Err(Singular);
        }
        if pivot != col {
            for c in 0..cols {
                m.swap(pivot * cols + c, col * cols + c);
            }
        }
        let inv = 1.0 / m[col * cols + col];
        for c in col..cols {
            m[col * cols + c] *= inv;
        }
        for row in 0..n {
            if row != col {
                let factor = m[row * cols + col];
                if factor != 0.0 {
                    for c in col..cols {
                        m[row * cols + c] -= factor * m[col * cols + c];
                    }
                }
            }
        }
    }
    Ok(())
}

/// The inverse of the row-major `n × n` matrix `a`.
pub fn invert(a: &[f64], n: usize) -> Result<Vec<f64>, Singular> {
    let cols = 2 * n;
    let mut m = vec![0.0; n * cols];
    for r in 0..n {
        m[r * cols..r * cols + n].copy_from_slice(&a[r * n..r * n + n]);
        m[r * cols + n + r] = 1.0;
    }
    gaussian_eliminate(&mut m, n, cols)?;
    Ok((0..n)
        .flat_map(|r| m[r * cols + n..r * cols + cols].to_vec())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverts_a_two_by_two() {
        // [[4, 7], [2, 6]]^-1 = [[0.6, -0.7], [-0.2, 0.4]].
        let inv = invert(&[4.0, 7.0, 2.0, 6.0], 2).expect("invertible");
        for (got, want) in inv.iter().zip([0.6, -0.7, -0.2, 0.4]) {
            assert!((got - want).abs() < 1e-12);
        }
        assert_eq!(invert(&[1.0, 2.0, 2.0, 4.0], 2), Err(Singular));
    }
}
