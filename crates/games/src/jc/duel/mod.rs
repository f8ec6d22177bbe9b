//! `jc.duel`: the Duelling Game of John Carter, Warlord of Mars (SPI 1979),
//! sections 4-7: characters as 4×4 counters with facing on a tactical
//! display, movement, initiative by alertness, melee with its modifiers,
//! natural 10s and levels, played by pluggable policies.
//!
//! - [`roster`]: the characters (`scenarios/jc/data/characters.toml`);
//! - [`melee`]: modifiers, the hit roll, natural 10s, level loss;
//! - [`geometry`]: displays, positions around a counter, arcs, movement;
//! - [`sequence`]: the compiled [`sequence::Duel`] and its turn sequence,
//!   with [`sequence::resolve`] the entry point for other games;
//! - [`policy`]: `aggressive`, `patient`, `random`;
//! - [`cards`]: the Strategic Game's rules inside a duel: berserk and the
//!   deadline [13.43], invisibility and the break-off [18.2 cards 24, 27];
//! - [`swordplay`]: a hero meeting a master swordsman by maneuver cards
//!   [7.81];
//! - [`model`]: the scenario format and the [`model::JcDuel`] model.

pub mod cards;
pub mod errand;
pub mod escape;
pub mod geometry;
pub mod melee;
pub mod model;
pub mod policy;
pub mod roster;
pub mod sequence;
pub mod special;
pub mod swordplay;
