//! barsoom: fast, headless Monte Carlo simulation and balance analysis for
//! the tabletop wargames of Barsoom.
//!
//! The workspace's crates are its layers, each seeing only those below:
//! - `barsoom-engine` ([`engine`], with [`scenario`] and [`math`]): random
//!   streams, the model interface, the parallel runner, streaming
//!   accumulators, scenario files and the maths of the exact solvers.
//! - `barsoom-games` ([`games`]): one folder per rulebook, one module per
//!   model, and the registry.
//! - `barsoom-report` ([`report`], with [`analysis`]): experiment designs,
//!   summary frames, files and charts.
//! - this crate: the command-line interface ([`cli`]), re-exporting the
//!   layers under their old paths.

pub mod cli;

pub use barsoom_engine as engine;
pub use barsoom_engine::{math, scenario};
pub use barsoom_games as games;
pub use barsoom_report as report;
pub use barsoom_report::analysis;
