//! The `jc.duel` model: a scenario names a display, two sides of roster
//! characters and a policy per side; each trial fights the duel once.
//!
//! - [`scenario`]: the scenario format, loading, output spec and the
//!   `Model` impl;
//! - [`compile`]: a scenario compiled into a duel;
//! - [`entries`]: a duel set up from entries ([`set_up`]), for other games;
//! - [`parts`]: display variants and steering fields, shared by the duels
//!   set up on one display.

pub mod compile;
pub mod entries;
pub mod parts;
pub mod scenario;

pub use entries::{Entry, SetUpOptions, set_up};
pub use parts::DisplayParts;
pub use scenario::{
    DEFAULT_MAX_TURNS, DuelData, JcDuel, Layout, MAX_SCENARIO_FIGHTERS, METRIC_DECIDING_BLOW,
    METRIC_HEROES_UNCONSCIOUS, METRIC_KILLS, METRIC_LEVELS_LOST, METRIC_SURVIVORS, METRIC_TURNS,
    OUT_FIRST_LEFT, OUT_FIRST_WINS, OUT_SECOND_WINS, OUT_UNDECIDED, trial_result,
};
