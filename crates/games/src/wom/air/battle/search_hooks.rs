//! The search player's hooks ([`engine::search`](barsoom_engine::search)):
//! a side's captains choose their tactic afresh each turn.
//!
//! The decision is the side's tactic for the turn, among every tactic
//! ([`TACTICS`]); its base is the scenario's tactic (`search:N:BASE`, BASE
//! `line-of-battle` by default), which every ship of both sides follows
//! inside a playout. A playout plays on to the end of the battle (a
//! six-against-six battle costs microseconds) and scores a side 1 when the
//! enemy is out of action, 0 when it is, and 1/2 when both are or the turn
//! limit comes first. (Scored by its share of the hull afloat instead, a
//! side ahead learned to keep out of reach until the limit: 1.4% of
//! searched battles were undecided at 100 turns, against 0.8% so.)
//! Nothing is hidden in an air battle (every ship and its damage is in
//! plain view on the table), so determinising changes nothing.

use barsoom_engine::search::{self, Branching, SearchSlot, Searchable};
use barsoom_engine::{Dice, NoTrace, Roll};

use super::Battle;
use crate::wom::air::tactics::TACTICS;

impl Battle<'_> {
    /// Side `side`'s tactic for this turn: its scenario tactic, or a search
    /// player's choice among every tactic.
    pub(super) fn choose_tactic(&mut self, side: usize, dice: &mut Dice) {
        let base = self.m.sides[side].tactic;
        let usual = TACTICS.iter().position(|&t| t == base).unwrap_or(0);
        let k = search::decide(self, (), side, "tactic", TACTICS.len(), |_, _| usual, dice);
        self.tactic[side] = TACTICS[k];
    }
}

impl Searchable for Battle<'_> {
    type Env<'e> = ();

    fn branching(&mut self) -> &mut Branching {
        &mut self.branching
    }

    fn searcher(&mut self) -> &mut SearchSlot<Self> {
        &mut self.searcher
    }

    fn playouts(&self, seat: usize) -> Option<u32> {
        self.m.sides[seat].search
    }

    fn determinize<R: Roll>(&mut self, _env: (), _seat: usize, _r: &mut R) {}

    fn play_on(&mut self, _env: (), dice: &mut Dice) {
        self.play_turns(u32::MAX, dice, &mut NoTrace);
    }

    fn reward(&self, _env: (), seat: usize) -> f64 {
        match self.outcome {
            0 | 1 => f64::from(u8::from(usize::from(self.outcome) == seat)),
            _ => 0.5,
        }
    }
}
