//! Every chance of the Strategic Game goes through a [`Roller`]: [`Dice`]
//! rolls them, tests script them.

use crate::jc::deck::DeckState;
use crate::jc::duel::policy::Policy;
use crate::jc::duel::sequence::{Duel, DuelResult};
use crate::jc::swordsman::{Bout, BoutResult};
use barsoom_engine::Dice;

/// Every chance of the game: dice, card draws, duels and bouts. [`Dice`]
/// rolls them; tests script them.
pub trait Roller {
    /// A six-sided die, 1..=6.
    fn d6(&mut self) -> i32;
    /// A ten-sided die, 1..=10 (0 reads 10 [3.6]).
    fn d10(&mut self) -> i32;
    /// A uniform index in `0..n` (`n` > 0).
    fn pick(&mut self, n: usize) -> usize;
    /// Draws the top card of a deck (reshuffling an exhausted one).
    fn card(&mut self, deck: &mut DeckState) -> usize;
    /// Fights a compiled duel of the Duelling Game.
    fn duel(&mut self, duel: &Duel, policies: &[Policy; 2]) -> DuelResult;
    /// Fights a master swordsman bout [7.8].
    fn bout(&mut self, bout: &Bout) -> BoutResult;
}

impl Roller for Dice {
    #[inline]
    fn d6(&mut self) -> i32 {
        Dice::d6(self) as i32
    }
    #[inline]
    fn d10(&mut self) -> i32 {
        Dice::d10(self) as i32
    }
    #[inline]
    fn pick(&mut self, n: usize) -> usize {
        self.below(n as u32) as usize
    }
    #[inline]
    fn card(&mut self, deck: &mut DeckState) -> usize {
        deck.draw(self)
    }
    fn duel(&mut self, duel: &Duel, policies: &[Policy; 2]) -> DuelResult {
        duel.resolve(policies, self, &mut barsoom_engine::NoTrace)
    }
    fn bout(&mut self, bout: &Bout) -> BoutResult {
        bout.resolve(self, &mut barsoom_engine::NoTrace)
    }
}
