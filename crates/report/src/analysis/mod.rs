//! Experiment designs above the games: sweeps on common random numbers,
//! paired comparisons, tuning by successive halving or NTBEA, tournaments
//! and their Bradley-Terry ratings.

pub mod ntbea;
pub mod paired;
pub mod ratings;
pub mod sweep;
pub mod tournament;
pub mod tune;
