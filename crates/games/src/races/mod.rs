//! The six races of Mars hex wargame: data, battle and the full game.

pub mod battle;
pub mod data;
pub mod game;
pub mod map;

use barsoom_engine::Dice;

/// Where the game's dice come from: a trial's [`Dice`] in runs, scripted
/// faces in hand-worked tests.
pub trait Roller {
    /// One die with `sides` faces, read 1..=sides (a d10's 0 reads 10).
    fn die(&mut self, sides: u32) -> u32;
}

impl Roller for Dice {
    #[inline]
    fn die(&mut self, sides: u32) -> u32 {
        self.d(sides)
    }
}
