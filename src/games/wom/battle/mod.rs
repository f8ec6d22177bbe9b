//! `wom.battle`: Warriors of Mars mass battles at 1:50 (PART I, land
//! warfare): units of stands, movement and charges, missile fire, melee,
//! morale and the loss of leaders.

#[allow(clippy::module_inception)]
pub mod battle;
pub mod tables;
