//! The six races of Mars hex wargame: data, battle and the full game.

pub mod battle;
pub mod data;
pub mod game;
pub mod map;

/// The six races roll through the engine's dice trait: the trial's dice
/// in play, scripted dice in tests.
pub use barsoom_engine::Roll;
