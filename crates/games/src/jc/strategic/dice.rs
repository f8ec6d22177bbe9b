//! Every chance of the Strategic Game goes through a [`Roller`]: [`Dice`]
//! rolls them, tests script them.

use std::cell::RefCell;

use crate::jc::deck::DeckState;
use crate::jc::duel::policy::Policy;
use crate::jc::duel::sequence::{Duel, DuelResult};
use crate::jc::swordsman::{Bout, BoutResult};
use crate::jetan::game::{DEFAULT_MAX_PLIES, play_game};
use crate::jetan::players::{Player as JetanPlayer, Workspace};
use crate::jetan::position::Rules as JetanRules;
use crate::jetan::rules::Color;
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
    /// Plays the arena's game of Jetan [17.43] between `players` (the
    /// hero's, then the villain's): whether the hero won, `None` for a
    /// drawn game or one still going at the ply limit.
    fn jetan(&mut self, players: [JetanPlayer; 2]) -> Option<bool>;
}

thread_local! {
    /// The book rules and one search workspace per thread, built once and
    /// reused by every arena game of Jetan the thread plays.
    static JETAN: RefCell<(JetanRules, Workspace)> =
        RefCell::new((JetanRules::book(), Workspace::default()));
}

/// One game of Jetan under the book rules from the set-up, drawing only
/// from `dice`: a coin from the same stream gives the hero Orange (who
/// moves first) or Black.
fn play_arena_jetan(
    dice: &mut Dice,
    players: [JetanPlayer; 2],
    rules: &JetanRules,
    work: &mut Workspace,
) -> Option<bool> {
    let hero = if dice.below(2) == 0 {
        Color::Orange
    } else {
        Color::Black
    };
    let mut by_colour = [players[1]; 2];
    by_colour[hero.index()] = players[0];
    let record = play_game(
        rules,
        &rules.start_position(),
        by_colour,
        DEFAULT_MAX_PLIES,
        dice,
        work,
        &mut barsoom_engine::NoTrace,
        |_, _, _| {},
    );
    record.end.and_then(|e| e.winner()).map(|w| w == hero)
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
    fn jetan(&mut self, players: [JetanPlayer; 2]) -> Option<bool> {
        // A game of Jetan never starts another, so the borrow is never held
        // twice.
        JETAN.with_borrow_mut(|(rules, work)| play_arena_jetan(self, players, rules, work))
    }
}
