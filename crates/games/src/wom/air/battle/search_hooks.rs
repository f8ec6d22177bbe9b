//! The search player's hooks ([`engine::search`](barsoom_engine::search)):
//! a side's captains choose their tactic afresh each turn.
//!
//! The decision is the side's tactic for the turn, among every tactic
//! ([`TACTICS`]); its base is the scenario's tactic (`search:N:BASE`, BASE
//! `line-of-battle` by default), which every ship of both sides follows
//! inside a playout. A playout plays on to the end of the battle (a
//! six-against-six battle costs microseconds) and scores a side by its
//! share of the hull left afloat on both sides: 1 when the enemy is out of
//! action, 0 when it is, the share when the turn limit comes first.
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
        let k = search::decide(self, side, "tactic", TACTICS.len(), |_, _| usual, dice);
        self.tactic[side] = TACTICS[k];
    }

    /// What is left of `side`'s ships in action: their maximum damage less
    /// the damage taken.
    fn hull_afloat(&self, side: usize) -> u32 {
        (0..self.n)
            .filter(|&i| self.side(i) == side && self.s[i].active())
            .map(|i| {
                let class = &self.m.data.classes[self.m.ships[i].class];
                class.max_damage.saturating_sub(self.s[i].damage)
            })
            .sum()
    }
}

impl Searchable for Battle<'_> {
    fn branching(&mut self) -> &mut Branching {
        &mut self.branching
    }

    fn searcher(&mut self) -> &mut SearchSlot<Self> {
        &mut self.searcher
    }

    fn playouts(&self, seat: usize) -> Option<u32> {
        self.m.sides[seat].search
    }

    fn determinize<R: Roll>(&mut self, _seat: usize, _r: &mut R) {}

    fn play_on(&mut self, dice: &mut Dice) {
        self.play_turns(u32::MAX, dice, &mut NoTrace);
    }

    fn reward(&self, seat: usize) -> f64 {
        let (own, enemy) = (self.hull_afloat(seat), self.hull_afloat(1 - seat));
        match (own, enemy) {
            (0, 0) => 0.5,
            _ => f64::from(own) / f64::from(own + enemy),
        }
    }
}
