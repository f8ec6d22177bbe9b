//! Statistics and exact solvers that cross-check the Monte Carlo.

pub mod markov;
pub mod matrix_game;
pub mod stats;
