//! Jetan, the Martian chess of *The Chessmen of Mars* (issue 8): the rules
//! core on a 100-square bitboard, players, and the `jetan.game` model.

pub mod game;
pub mod players;
pub mod position;
pub mod rules;
pub mod values;

#[cfg(test)]
mod tests;
