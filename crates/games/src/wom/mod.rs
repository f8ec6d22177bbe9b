//! Warriors of Mars (TSR 1974).

pub mod air;
pub mod battle;
pub mod duel;
pub mod morale;
pub mod tables;
