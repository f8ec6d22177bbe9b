//! `wom.battle`: Warriors of Mars mass battles at 1:50 (PART I, land
//! warfare): units of stands, movement and charges, missile fire, melee,
//! morale and the loss of leaders.
//!
//! - [`battle`]: the model's types, the battle state, movement, the turn
//!   sequence and the `Model` impl;
//! - `scenario`: the scenario file, its validation and the output spec;
//! - [`field`]: positions, facings and footprints on the table;
//! - `combat`: missile fire and melee;
//! - [`frontage`]: the figures in contact, overlapping, turning to face;
//! - `morale`: morale checks and units leaving the fight;
//! - [`tables`]: the battle tables, loaded and checked;
//! - [`terrain`]: terrain areas and what they change for moves and missiles.

#[allow(clippy::module_inception)]
pub mod battle;
mod combat;
pub mod field;
pub mod frontage;
mod morale;
mod scenario;
pub(crate) use scenario::{UnitFile, unit_spec};
pub mod tables;
pub mod terrain;
