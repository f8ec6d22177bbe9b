//! Statistics and exact solvers that cross-check the Monte Carlo.

pub mod linalg;
pub mod markov;
pub mod matrix_game;
pub mod paired;
pub mod ratings;
pub mod regression;
pub mod stats;
pub mod sweep;
pub mod tournament;
pub mod tune;
