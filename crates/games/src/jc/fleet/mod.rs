//! `jc.fleet`: fleet combat of the Military Game of John Carter, Warlord of
//! Mars (SPI 1979), section 23, with influenced neutral fleets [24.4].
//!
//! A battle is set up once ([`BattleSetup`] and [`SidePolicy`] compiled
//! into a [`Battle`]); [`Battle::resolve`] fights it with the dice it is
//! given. Each mechanic is one function read by both the Monte Carlo and the
//! exact chain ([`exact`]): [`Battle::opening`] (break-off by
//! agreement), [`Battle::forced_reverse`], [`ManeuverMix`] (the maneuver
//! policies), [`Battle::round`] (matrix, leadership, intrinsic defense, the
//! results table, simultaneous losses, Reverses) and [`Battle::terminal`].
//!
//! Internally the two sides are held by *role*: index 0 is the attacker,
//! 1 the defender [23.0 PROCEDURE]; results are reported by *side*, in the
//! order of the scenario's `[[sides]]`.
//!
//! - [`scenario`]: the scenario format and its checks;
//! - [`battle`]: the state and rules of a battle;
//! - [`players`]: the maneuver policies;
//! - [`model`]: the [`JcFleet`] model, its output spec and `Model` impl;
//! - [`exact`]: the exact solution as a Markov chain;
//! - [`tables`]: the fleet combat data files.

pub mod battle;
pub mod exact;
pub mod model;
pub mod players;
pub mod scenario;
pub mod tables;

pub use battle::{
    Battle, BattleResult, BattleSetup, BattleState, DEFAULT_MAX_ROUNDS, End, FORCED_REVERSE, Force,
    MAX_STRENGTH, MIX_RESOLUTION, NEUTRAL_LEFT, NEUTRAL_REVERTED, NeutralForce, OUT_AGREED,
    OUT_FIRST_ELIMINATES, OUT_FIRST_REVERSES, OUT_MUTUAL, OUT_SECOND_ELIMINATES,
    OUT_SECOND_REVERSES, OUT_UNDECIDED, REVERSES_TO_BREAK_OFF, RoundOutcome, RoundPlay, Terminal,
    resolve_battle,
};
pub use model::{
    JcFleet, METRIC_CAPTURED, METRIC_LEFT, METRIC_NEUTRAL_LOST, METRIC_ROUNDS, trial_result,
};
pub use players::{LossOrder, ManeuverMix, ManeuverPolicy, SidePolicy};
