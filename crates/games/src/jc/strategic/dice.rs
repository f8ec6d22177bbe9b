//! Every chance of the Strategic Game goes through a [`Roller`]: [`Dice`]
//! rolls them, tests script them.

use crate::jc::deck::DeckState;
use crate::jc::duel::policy::Policy;
use crate::jc::duel::sequence::{Duel, DuelResult};
use crate::jc::swordsman::{Bout, BoutResult};
use barsoom_engine::{Dice, Roll};

/// Every chance of the game: the engine's dice and picks ([`Roll`]), card
/// draws, duels and bouts. [`Dice`] rolls them; tests script them.
pub trait Roller: Roll {
    /// Draws the top card of a deck (reshuffling an exhausted one).
    fn card(&mut self, deck: &mut DeckState) -> usize;
    /// Fights a compiled duel of the Duelling Game.
    fn duel(&mut self, duel: &Duel, policies: &[Policy; 2]) -> DuelResult;
    /// Fights a master swordsman bout [7.8].
    fn bout(&mut self, bout: &Bout) -> BoutResult;
}

impl Roller for Dice {
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
