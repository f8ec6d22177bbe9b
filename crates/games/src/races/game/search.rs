//! The search player's hooks ([`engine::search`](barsoom_engine::search)):
//! copying a game cheaply, playing on from the start of a player's phases
//! to the end or the horizon, and scoring a seat.
//!
//! A search turn is one player's movement and battle phases: the live game
//! copies itself before each (`Game::play_turns`), and a playout replays
//! that player's phases to the decision. The decisions:
//!
//! - `command` (greedy base): where the phase's command points go, the
//!   greedy player's walk toward every target (the base), toward key
//!   locations only, toward enemy stacks only, or nowhere;
//! - `move` (random base): each command point's step, the hex the picked
//!   warband enters or holding it;
//! - `order`: the warband on top of each stack (the base's first);
//! - `attack`: which adjacent enemy each top warband attacks, or none (the
//!   greedy base's choice first, so that ties go its way).
//!
//! A search of every greedy step, among the hexes and holding, lost to the
//! greedy player at 100 playouts a decision in trials while this was built
//! (not kept as figures): a game has some 70 steps, and the noise of so few
//! playouts over near-equal steps cost more than the search found. Initiative, command dice and
//! recruiting are rolls with no choice in them; the leader in charge of a
//! stack is left to the base policy.
//!
//! Nothing is hidden: the map, every stack and every leader's special
//! attribute are on the table, so determinising changes nothing.

use barsoom_engine::search::{self, SearchSlot, Searchable};
use barsoom_engine::{Dice, NoTrace, Roll};

use super::{Ending, Game, Player};

/// Turns a playout plays on from its start (each turn begun counts) before
/// the evaluation scores it. Greedy two-player games last about 7 turns, so
/// most playouts reach the end; 3 and 12 turns played as well against the
/// greedy player in trials while this was built (not kept as figures), 3 a
/// little cheaper.
pub const HORIZON_TURNS: u32 = 6;
/// What a key location held is worth in the evaluation, in warbands.
pub const KEY_WEIGHT: f64 = 2.0;

impl Game<'_> {
    /// A decision of player `p` among `choices` options, `base` the seat's
    /// policy's choice ([`search::decide`]).
    #[inline]
    pub(super) fn decide<R: Roll>(
        &mut self,
        p: u8,
        kind: &'static str,
        choices: usize,
        base: impl FnOnce(&mut Self, &mut R) -> usize,
        r: &mut R,
    ) -> usize {
        #[cfg(test)]
        if self.branching.is_live() {
            tests::LIVE.set(Some(self.fingerprint()));
        }
        search::decide(self, (), usize::from(p), kind, choices, base, r)
    }
}

impl Clone for Game<'_> {
    fn clone(&self) -> Self {
        let mut copy = Game::new(self.m);
        copy.clone_from(self);
        copy
    }

    /// Copies `source` into this game's buffers, allocating nothing: the
    /// board's live parts (see `Board::copy_from`) and every field but the
    /// searcher (a copy has none).
    fn clone_from(&mut self, source: &Self) {
        self.m = source.m;
        self.b
            .copy_from(&source.b, source.m.map.hexes(), source.n_warbands);
        self.open_keys = source.open_keys;
        self.near_open_keys = source.near_open_keys;
        self.passable = source.passable;
        self.key_set = source.key_set;
        self.key_region = source.key_region;
        self.occupied = source.occupied;
        self.single = source.single;
        self.live = source.live;
        self.n_warbands = source.n_warbands;
        self.leaders = source.leaders;
        self.n_leaders = source.n_leaders;
        self.n_keys = source.n_keys;
        self.city_set = source.city_set;
        self.bonus_set = source.bonus_set;
        self.watched = source.watched;
        self.alive = source.alive;
        self.leaders_alive = source.leaders_alive;
        self.bonus = source.bonus;
        self.held_keys = source.held_keys;
        self.hold_streak = source.hold_streak;
        self.turn = source.turn;
        self.battles = source.battles;
        self.battles_at_turn_start = source.battles_at_turn_start;
        self.first_mover = source.first_mover;
        self.order = source.order;
        self.n_order = source.n_order;
        self.next_in_order = source.next_in_order;
        self.branching = source.branching;
        self.ending = source.ending;
        self.command = source.command;
        self.stalled = source.stalled;
    }
}

impl Searchable for Game<'_> {
    type Env<'e> = ();

    fn branching(&mut self) -> &mut barsoom_engine::search::Branching {
        &mut self.branching
    }

    fn searcher(&mut self) -> &mut SearchSlot<Self> {
        &mut self.slot
    }

    fn playouts(&self, seat: usize) -> Option<u32> {
        match self.m.seats[seat].player {
            Player::Search(spec) => Some(spec.playouts),
            _ => None,
        }
    }

    /// Nothing is hidden (see the module doc).
    fn determinize<R: Roll>(&mut self, _env: (), _seat: usize, _r: &mut R) {
        #[cfg(test)]
        tests::reached(self.fingerprint());
    }

    fn play_on(&mut self, _env: (), dice: &mut Dice) {
        let last = self
            .turn
            .saturating_add(HORIZON_TURNS)
            .min(self.m.max_turns);
        self.ending = self.play_turns(dice, &mut NoTrace, last);
    }

    /// 1 for a win, 0 for a loss, an equal share for a draw; otherwise
    /// (the horizon or the turn limit) the seat's share of the warbands
    /// and key locations on the map, a key location counting
    /// [`KEY_WEIGHT`] warbands.
    fn reward(&self, _env: (), seat: usize) -> f64 {
        let n = self.m.seats.len();
        match self.ending {
            Some(Ending::Won { seat: w, .. }) => f64::from(u8::from(usize::from(w) == seat)),
            Some(Ending::Draw) => 1.0 / n as f64,
            Some(Ending::Unfinished) | None => {
                let score =
                    |p: usize| f64::from(self.alive[p]) + KEY_WEIGHT * f64::from(self.held_keys[p]);
                let total: f64 = (0..n).map(score).sum();
                if total > 0.0 {
                    score(seat) / total
                } else {
                    1.0 / n as f64
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! A playout reaches the very position the live game searches from.

    use std::cell::Cell;
    use std::path::Path;

    use crate::ScenarioModel;
    use barsoom_engine::{Dice, Model, NoTrace};

    use super::super::{Game, RacesGame};

    thread_local! {
        /// The live game's fingerprint at the decision being searched.
        pub(super) static LIVE: Cell<Option<u64>> = const { Cell::new(None) };
        /// Playouts that reached it, and that did not.
        static MATCHED: Cell<u32> = const { Cell::new(0) };
        static MISSED: Cell<u32> = const { Cell::new(0) };
    }

    /// Called where a playout branches off: compares its position with the
    /// live game's.
    pub(super) fn reached(fingerprint: u64) {
        let same = LIVE.get() == Some(fingerprint);
        let counter = if same { &MATCHED } else { &MISSED };
        counter.with(|c| c.set(c.get() + 1));
    }

    impl Game<'_> {
        /// A hash of everything the rest of the game depends on.
        pub(super) fn fingerprint(&self) -> u64 {
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            let mut mix = |x: u64| h = (h ^ x).wrapping_mul(0x0000_0100_0000_01b3);
            for w in &self.b.warbands[..self.n_warbands] {
                if w.alive {
                    mix(u64::from(w.kind) | u64::from(w.owner) << 8 | u64::from(w.hex) << 16);
                    mix(u64::from(w.below) | u64::from(w.moved) << 8 | u64::from(w.attacked) << 16);
                }
            }
            for l in &self.leaders[..self.n_leaders] {
                mix(u64::from(l.attribute) | u64::from(l.warband) << 8 | u64::from(l.alive) << 16);
            }
            for h in 0..self.m.map.hexes() {
                mix(u64::from(self.b.top[h]) | u64::from(self.b.cell[h]) << 8);
            }
            for p in 0..self.m.seats.len() {
                mix(u64::from(self.held_keys[p]) | u64::from(self.hold_streak[p]) << 32);
            }
            mix(u64::from(self.turn) | u64::from(self.battles) << 32);
            mix(u64::from(self.next_in_order) | u64::from(self.b.phase) << 8);
            h
        }
    }

    #[test]
    fn every_playout_replays_to_the_live_position() {
        let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("scenarios/races/game/search-vs-greedy.toml");
        let (mut m, _) = RacesGame::load(&path).expect("scenario");
        for seat in &mut m.seats {
            if let super::Player::Search(spec) = &mut seat.player {
                spec.playouts = 6;
            }
        }
        for trial in 0..30 {
            m.run_trial(&mut Dice::for_trial(3, trial), &mut NoTrace);
        }
        let (matched, missed) = (MATCHED.get(), MISSED.get());
        assert!(matched > 1000, "only {matched} playouts checked");
        assert_eq!(
            missed,
            0,
            "{missed} of {} playouts missed",
            matched + missed
        );
    }
}
