//! John Carter, Warlord of Mars (SPI 1979).

pub mod deck;
pub mod duel;
pub mod event_deck;
pub mod fleet;
pub mod map;
pub mod military;
pub mod strategic;
pub mod swordsman;

pub use fleet::{exact as fleet_exact, tables as fleet_tables};
