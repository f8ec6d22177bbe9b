//! The bottom layer of barsoom: random streams, the model interface, the
//! parallel runner and the streaming accumulators; reading scenario files
//! ([`scenario`]); and the maths the games' exact solvers use ([`math`]).
//! Nothing here knows any game.

pub mod accumulate;
pub mod bench;
pub mod breakdown;
pub mod math;
pub mod model;
pub mod paired;
pub mod rng;
pub mod roll;
pub mod runner;
pub mod scenario;
pub mod search;
pub mod shard;

pub use accumulate::{IntHistogram, RealStats, Tally, TrialResult};
pub use model::{
    DynModel, ExactSolution, MetricSpec, Model, NoTrace, OutputSpec, Trace, TraceEvent, TraceLog,
    TrendLine, TrendSpec,
};
pub use rng::Dice;
pub use roll::{Roll, ScriptedDice};
pub use runner::{
    BlockRows, RunConfig, RunControl, RunError, RunOutcome, replay, run, run_controlled,
};
