//! barsoom: fast, headless Monte Carlo simulation and balance analysis for
//! the tabletop wargames of Barsoom.
//!
//! - [`engine`]: random streams, the model interface, the parallel runner
//!   and streaming accumulators.
//! - [`games`]: one folder per rulebook, one module per model.
//! - [`analysis`]: interval statistics and exact solvers.
//! - [`report`]: summary frames, files and charts.
//! - [`cli`]: the command-line interface.

pub mod analysis;
pub mod cli;
pub mod engine;
pub mod games;
pub mod report;
pub mod scenario;
