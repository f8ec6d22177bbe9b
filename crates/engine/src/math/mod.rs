//! Maths below the games: linear algebra, absorbing Markov chains,
//! zero-sum matrix games, interval statistics and regression, used by the
//! exact solvers that cross-check the Monte Carlo and by the analyses above.

pub mod linalg;
pub mod markov;
pub mod matrix_game;
pub mod regression;
pub mod stats;
