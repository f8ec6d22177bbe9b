//! John Carter, Warlord of Mars (SPI 1979).

pub mod deck;
pub mod duel;
pub mod event_deck;
pub mod fleet;
pub mod fleet_exact;
pub mod fleet_tables;
pub mod map;
pub mod military;
pub mod strategic;
pub mod swordsman;
