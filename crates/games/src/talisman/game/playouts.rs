//! `talisman.game` on the shared search player: what a seat cannot see
//! (re-sampled before each playout), how far a playout looks, and how a
//! position is scored where it stops.

use barsoom_engine::model::NoTrace;
use barsoom_engine::rng::Dice;
use barsoom_engine::search::{Branching, SearchSlot, Searchable};

use super::{End, Game, shuffle};
use crate::talisman::data::{MAX_CHARACTERS, MAX_SPELLS};
use crate::talisman::policy::Policy;
use barsoom_engine::Roll;

/// Rounds a playout plays before the evaluation scores it, unless the
/// scenario's `search_horizon` says otherwise.
pub const HORIZON_ROUNDS: u32 = 12;
/// Points of standing that multiply a seat's share by e (the evaluation's
/// softmax temperature).
const TEMPERATURE: f64 = 4.0;
/// Standing of a seat between characters (a fresh character's typical
/// Strength plus Craft).
const BETWEEN_CHARACTERS: f64 = 7.0;

impl Searchable for Game<'_> {
    type Env<'e> = ();

    fn branching(&mut self) -> &mut Branching {
        &mut self.branching
    }

    fn searcher(&mut self) -> &mut SearchSlot<Self> {
        &mut self.search
    }

    fn playouts(&self, seat: usize) -> Option<u32> {
        match self.players[seat].policy {
            Policy::Search(spec) => Some(spec.playouts),
            _ => None,
        }
    }

    /// Hidden from `seat`: the order of the adventure deck and of each
    /// expansion board's deck, the spells the
    /// others hold and the spell deck's order (pooled and dealt again in
    /// the same numbers), the characters in the others' hands (dealt again
    /// from every character not yet seen), and the ending card at the Crown
    /// until someone has reached it. Discards, cards on the board,
    /// objects, gold and the curse deck (every draw a uniform pick) are
    /// open.
    fn determinize<R: Roll>(&mut self, _env: (), seat: usize, r: &mut R) {
        shuffle(&mut self.deck[..self.deck_len], r);
        // Each expansion board's deck is as face down as the main one
        // [11:30] (none is dealt when no board is played: no draw).
        for k in 0..self.board_deck.len() {
            let n = usize::from(self.board_deck_len[k]);
            shuffle(&mut self.board_deck[k][..n], r);
        }
        let n = self.seats();
        let mut pool = [0u8; MAX_SPELLS];
        let mut len = self.spell_len;
        pool[..len].copy_from_slice(&self.spell_deck[..len]);
        let others = |s: &usize| *s != seat && self.players[*s].alive;
        for s in (0..n).filter(others) {
            let h = &self.players[s].hero;
            let held = usize::from(h.spells_len);
            if len + held <= MAX_SPELLS {
                pool[len..len + held].copy_from_slice(&h.spells[..held]);
                len += held;
            }
        }
        shuffle(&mut pool[..len], r);
        let mut next = self.spell_len;
        self.spell_deck[..next].copy_from_slice(&pool[..next]);
        let others: [bool; super::MAX_PLAYERS] =
            std::array::from_fn(|s| s < n && s != seat && self.players[s].alive);
        for s in (0..n).filter(|&s| others[s]) {
            let h = &mut self.players[s].hero;
            let held = usize::from(h.spells_len);
            if next + held <= len {
                h.spells[..held].copy_from_slice(&pool[next..next + held]);
                next += held;
            }
        }
        self.deal_unseen_characters(seat, r);
        if !self.crown_reached {
            let e = &self.config.endings;
            self.ending = usize::from(e[r.pick(e.len())]);
        }
    }

    fn play_on(&mut self, _env: (), dice: &mut Dice) {
        let turns = match self.config.search_horizon {
            0 => u64::MAX,
            rounds => u64::from(rounds) * self.seats() as u64,
        };
        self.play_turns(dice, &mut NoTrace, turns);
    }

    /// 1 for a win, 0 for a loss; at the horizon the seat's share of a
    /// softmax over the seats still in the game of their standing:
    /// Strength plus Craft, two per life, six for a Talisman, four per
    /// region inward, and twelve on the Crown.
    fn reward(&self, _env: (), seat: usize) -> f64 {
        match self.end {
            Some(End::Won { seat: winner, .. }) => f64::from(u8::from(winner == seat)),
            Some(End::NoSurvivor) => 0.0,
            _ => {
                let weight = |s: usize| {
                    let p = &self.players[s];
                    if p.out {
                        return 0.0;
                    }
                    (self.standing(s) / TEMPERATURE).exp()
                };
                let total: f64 = (0..self.seats()).map(weight).sum();
                if total > 0.0 {
                    weight(seat) / total
                } else {
                    0.0
                }
            }
        }
    }
}

impl Game<'_> {
    /// The evaluation's standing of a seat still in the game.
    fn standing(&self, s: usize) -> f64 {
        let p = &self.players[s];
        if !p.alive {
            return BETWEEN_CHARACTERS;
        }
        let rules = self.rules;
        let h = &p.hero;
        let space = usize::from(h.space);
        let region = rules.board.spaces[space].region;
        f64::from(self.power(s))
            + 2.0 * f64::from(h.lives)
            + if h.has_talisman(rules) { 6.0 } else { 0.0 }
            + 4.0 * f64::from(region)
            + if h.space == rules.board.crown {
                12.0
            } else {
                0.0
            }
    }

    /// Deals the characters in the others' hands again from every
    /// character `seat` has not seen (not in its own hand, never played).
    fn deal_unseen_characters<R: Roll>(&mut self, seat: usize, r: &mut R) {
        let n = self.seats();
        let total = self.rules.characters.len().min(MAX_CHARACTERS);
        let own = &self.players[seat];
        let mut unseen = [0u8; MAX_CHARACTERS];
        let mut len = 0;
        for c in 0..total as u8 {
            let in_hand = own.hand[..usize::from(own.hand_len)].contains(&c);
            if !in_hand && self.stats.character_played[usize::from(c)] == 0 {
                unseen[len] = c;
                len += 1;
            }
        }
        shuffle(&mut unseen[..len], r);
        let mut next = 0;
        for s in (0..n).filter(|&s| s != seat) {
            let p = &mut self.players[s];
            let held = usize::from(p.hand_len);
            if next + held <= len {
                p.hand[..held].copy_from_slice(&unseen[next..next + held]);
                next += held;
            }
        }
    }
}
