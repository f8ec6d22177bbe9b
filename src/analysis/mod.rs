//! Statistics and exact solvers that cross-check the Monte Carlo.

pub mod markov;
pub mod regression;
pub mod stats;
pub mod sweep;
