//! The Military Game on the shared search player
//! ([`barsoom_engine::search`]): the decisions a search player searches,
//! and the game as a position a playout plays on from.
//!
//! - **Moves** [22.2]: for each of its groups in a city, stay or take one
//!   of the open flights [22.25] (the strength that goes: all but the
//!   garrison its base would keep, or all but one point where the base
//!   keeps everything).
//! - **Attacks** [23.0, 24.27, 24.28]: for each enemy or neutral force it
//!   shares a city with, attack or not (breaches of the peace and attacks
//!   in a grace Turn included: they are legal, and their cost is in the
//!   playouts).
//! - **Diplomacy** [24.3, 24.5]: the mode of each in-fighting round. The
//!   other player's mode is chosen face down at the same time, so a
//!   playout re-samples it ([`Game::determinize`]).
//!
//! Escorts [24.41] and break-offs [23.22] follow the base policy and the
//! scenario.

use super::state::{Game, MoveOrder, Target};
use crate::jc::military::map::MAX_CITIES;
use crate::jc::military::players::{self, Policy};
use barsoom_engine::search::{self, Branching, SearchSlot, Searchable};
use barsoom_engine::{Dice, NoTrace, Roll};

/// Game-Turns a playout plays from the start of the Turn it forks at
/// before the evaluation scores it (a decision at 100 playouts then costs
/// milliseconds).
pub const HORIZON: u16 = 6;

/// The share of the evaluation that capitals carry; strength carries the
/// rest.
pub const CAPITAL_WEIGHT: f64 = 0.5;

/// Most move choices: staying, and one flight per line out of a city.
const MAX_MOVE_CHOICES: usize = 1 + MAX_CITIES;

impl Game<'_> {
    fn searches(&self, p: usize) -> bool {
        self.ctx.config.policies[p].is_search()
    }

    /// Player `p`'s orders for group `i`, in a city: its policy's, or, for
    /// a search player, the searched destination.
    pub(crate) fn move_order(&mut self, p: usize, i: usize, dice: &mut Dice) -> MoveOrder {
        let ctx = self.ctx;
        if !self.searches(p) {
            return players::move_order(&ctx, self, p, i, dice);
        }
        let mut choices = [MoveOrder::Stay; MAX_MOVE_CHOICES];
        let mut n = players::move_choices(&ctx, self, p, i, &mut choices);
        // Greedy rolls no dice to choose: its own order leads, so that a
        // small budget tries it first and the base plays it exactly.
        let greedy = (ctx.config.policies[p].base() == Policy::Greedy)
            .then(|| players::move_order(&ctx, self, p, i, dice));
        if let Some(order) = greedy {
            let at = choices[..n]
                .iter()
                .position(|c| same_flight(*c, order))
                .unwrap_or_else(|| {
                    n = (n + 1).min(MAX_MOVE_CHOICES);
                    n - 1
                });
            choices.copy_within(0..at, 1);
            choices[0] = order;
        }
        let mut base = None;
        let k = search::decide(
            self,
            (),
            p,
            "move",
            n,
            |g, r| {
                let order = greedy.unwrap_or_else(|| players::move_order(&ctx, g, p, i, r));
                base = Some(order);
                choices[..n]
                    .iter()
                    .position(|c| same_flight(*c, order))
                    .unwrap_or(0)
            },
            dice,
        );
        base.unwrap_or(choices[k])
    }

    /// Whether player `p` attacks `target` in `city`: its policy's choice,
    /// or, for a search player, the searched one (greedy's own choice is
    /// candidate 0, as for moves).
    pub(crate) fn attack(
        &mut self,
        p: usize,
        city: usize,
        target: Target,
        dice: &mut Dice,
    ) -> bool {
        let ctx = self.ctx;
        if !self.searches(p) {
            return players::attack(&ctx, self, p, city, target, dice);
        }
        // Candidates: [not attacking, attacking], or greedy's choice first.
        let lead = (ctx.config.policies[p].base() == Policy::Greedy)
            .then(|| players::attack(&ctx, self, p, city, target, dice));
        let base = |g: &mut Game, r: &mut Dice| match lead {
            Some(_) => 0,
            None => usize::from(players::attack(&ctx, g, p, city, target, r)),
        };
        let k = search::decide(self, (), p, "attack", 2, base, dice);
        match lead {
            Some(attacks) => (k == 0) == attacks,
            None => k == 1,
        }
    }

    /// Both players' diplomacy modes for one round of in-fighting [24.3],
    /// Helium's chosen first.
    pub(crate) fn diplomacy_modes(&mut self, dice: &mut Dice) -> [usize; 2] {
        let ctx = self.ctx;
        let n = ctx.rules.diplomacy.modes.len();
        self.mode_chosen = [false; 2];
        for p in 0..2 {
            let mode = if self.searches(p) {
                let base = |_: &mut Game, r: &mut Dice| players::diplomacy_mode(&ctx, p, r);
                search::decide(self, (), p, "diplomacy mode", n, base, dice)
            } else {
                players::diplomacy_mode(&ctx, p, dice)
            };
            self.modes[p] = mode as u8;
            self.mode_chosen[p] = true;
        }
        self.mode_chosen = [false; 2];
        [usize::from(self.modes[0]), usize::from(self.modes[1])]
    }

    /// Player `seat`'s evaluation of the position, in [0, 1]: half the
    /// edge in capitals held (of all capitals) [25.3] and half the edge in
    /// strength points (his and his influenced neutrals' against the
    /// enemy's), mapped from [-1, 1] to [0, 1].
    pub fn evaluation(&self, seat: usize) -> f64 {
        let rules = self.ctx.rules;
        let all = rules.capital_cities.len().max(1) as f64;
        let capitals = [0, 1].map(|p| f64::from(self.capitals_held(rules, p)));
        let mut strength = [0.0f64; 2];
        for g in self.groups() {
            if let Some(p) = self.side_of(g.owner) {
                strength[p] += f64::from(g.strength);
            }
        }
        let other = 1 - seat;
        let capital_edge = (capitals[seat] - capitals[other]) / all;
        let strength_edge =
            (strength[seat] - strength[other]) / (strength[seat] + strength[other]).max(1.0);
        let edge = CAPITAL_WEIGHT * capital_edge + (1.0 - CAPITAL_WEIGHT) * strength_edge;
        (0.5 + 0.5 * edge).clamp(0.0, 1.0)
    }
}

/// Whether two orders take the same flight (or both stay).
fn same_flight(a: MoveOrder, b: MoveOrder) -> bool {
    match (a, b) {
        (MoveOrder::Stay, MoveOrder::Stay) => true,
        (MoveOrder::Go { route: x, .. }, MoveOrder::Go { route: y, .. }) => x == y,
        _ => false,
    }
}

impl<'a> Searchable for Game<'a> {
    type Env<'e> = ();

    fn branching(&mut self) -> &mut Branching {
        &mut self.branching
    }

    fn searcher(&mut self) -> &mut SearchSlot<Self> {
        &mut self.slot
    }

    fn playouts(&self, seat: usize) -> Option<u32> {
        match self.ctx.config.policies[seat] {
            Policy::Search(spec) => Some(spec.playouts),
            _ => None,
        }
    }

    /// Re-samples what `seat` cannot see: the order of the cards not yet
    /// drawn [22.21]; unless the scenario reveals every unit, the strength
    /// of each enemy stack (face down [22.26]: the enemy's public total
    /// dealt out again, a point to each stack and the rest one at a time
    /// to stacks drawn uniformly) and which of his stacks of the right
    /// nation each enemy commander rides with [22.23]; and the enemy's
    /// diplomacy mode if he has chosen it in the in-fighting under way.
    fn determinize<R: Roll>(&mut self, _env: (), seat: usize, r: &mut R) {
        let ctx = self.ctx;
        let enemy = 1 - seat;
        if self.mode_chosen[enemy] {
            self.modes[enemy] = r.pick(ctx.rules.diplomacy.modes.len()) as u8;
        }
        self.deck.shuffle_rest(|n| r.pick(n as usize) as u32);
        if ctx.config.reveal {
            return;
        }
        let owner = enemy as u8;
        let mut stacks = 0usize;
        let mut total = 0u32;
        let mut commanders = 0u16;
        for g in self.groups[..self.len]
            .iter_mut()
            .filter(|g| g.owner == owner)
        {
            stacks += 1;
            total += u32::from(g.strength);
            commanders |= g.commanders;
            g.strength = 1;
            g.commanders = 0;
        }
        if stacks == 0 {
            return;
        }
        for _ in stacks as u32..total {
            let k = r.pick(stacks);
            if let Some(g) = self.groups[..self.len]
                .iter_mut()
                .filter(|g| g.owner == owner)
                .nth(k)
            {
                g.strength = g.strength.saturating_add(1);
            }
        }
        let mut m = commanders;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            let nation = ctx.rules.data.commanders[k].nation as u8;
            let fits = |g: &&mut super::state::Group| g.owner == owner && g.nation == nation;
            let count = self.groups[..self.len].iter_mut().filter(fits).count();
            if count == 0 {
                continue;
            }
            let pick = r.pick(count);
            if let Some(g) = self.groups[..self.len].iter_mut().filter(fits).nth(pick) {
                g.commanders |= 1 << k;
            }
        }
    }

    fn play_on(&mut self, _env: (), dice: &mut Dice) {
        let last = self.turn.saturating_add(HORIZON - 1);
        while !self.over && self.turn <= last {
            self.game_turn(dice, &mut NoTrace);
        }
    }

    /// Candidates are compared on the same storms, cards and battles.
    const COMMON_RANDOM_NUMBERS: bool = true;

    fn reward(&self, _env: (), seat: usize) -> f64 {
        match self.winner {
            Some(w) => f64::from(u8::from(w == seat)),
            None => self.evaluation(seat),
        }
    }
}
