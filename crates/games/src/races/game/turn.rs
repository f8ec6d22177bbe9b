//! The turn sequence: initiative, recruiting and command points, the
//! movement phase, the end of the turn and of the game [Turn Sequence].

use crate::races::Roll;
use crate::races::map::{NO_HEXES, set_and, set_contains, set_hexes};
use barsoom_engine::accumulate::MAX_METRICS;
use barsoom_engine::{Trace, TrialResult};

use super::{
    Ending, Game, MAX_PLAYERS, METRIC_BATTLES, METRIC_BY_HOLDING, METRIC_FIRST_MOVER_WON,
    METRIC_SURVIVORS, METRIC_TURNS, Player,
};

/// Command dice for `units` units: one d10 per `per_die` units, rounded
/// up [Movement Phase].
pub fn command_dice(units: u32, per_die: u32) -> u32 {
    units.div_ceil(per_die)
}

/// Command points: the command dice plus one per leader [Movement Phase].
pub fn command_points<R: Roll>(units: u32, leaders: u32, per_die: u32, dice: &mut R) -> u32 {
    (0..command_dice(units, per_die))
        .map(|_| dice.die(10))
        .sum::<u32>()
        + leaders
}

/// Orders `players` (highest first) by d10 plus their leaders
/// (`leaders[p]`), tied players rolling again among themselves until every
/// place is settled [Initiative Phase].
pub fn initiative_order<R: Roll>(dice: &mut R, leaders: &[u32], players: &mut [u8]) {
    let n = players.len();
    if n < 2 {
        return;
    }
    let mut totals = [0u32; MAX_PLAYERS];
    for (t, p) in totals.iter_mut().zip(players.iter()) {
        *t = dice.die(10) + leaders[usize::from(*p)];
    }
    sort_by_keys_descending(&mut totals[..n], players);
    let mut start = 0;
    while start < n {
        let mut end = start + 1;
        while end < n && totals[end] == totals[start] {
            end += 1;
        }
        if end - start > 1 {
            initiative_order(dice, leaders, &mut players[start..end]);
        }
        start = end;
    }
}

/// Sorts `items` by their `keys`, highest first, equal keys keeping their
/// order (an insertion sort: the lists are a handful long, and it needs no
/// allocation).
pub(super) fn sort_by_keys_descending<K: PartialOrd + Copy, I>(keys: &mut [K], items: &mut [I]) {
    for i in 1..keys.len() {
        let mut j = i;
        while j > 0 && keys[j - 1] < keys[j] {
            keys.swap(j - 1, j);
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Whether a city's recruiting roll `face` raises a warband [Initiative
/// Phase].
pub fn recruits(face: u32, recruit_face: u32) -> bool {
    face == recruit_face
}

impl<'m> Game<'m> {
    /// Plays a whole game from an empty board.
    pub fn play<R: Roll, T: Trace>(&mut self, dice: &mut R, trace: &mut T) -> Ending {
        self.setup(dice);
        let n = self.m.seats.len();
        for turn in 1..=self.m.max_turns {
            self.turn = turn;
            let mut order = [0u8; MAX_PLAYERS];
            let mut k = 0;
            for p in 0..n {
                if self.alive[p] > 0 {
                    order[k] = p as u8;
                    k += 1;
                }
            }
            let leaders = self.leaders_alive;
            initiative_order(dice, &leaders, &mut order[..k]);
            if turn == 1 {
                self.first_mover = order[0];
            }
            trace.event("six races [Initiative Phase]", || {
                format!("turn {turn}: order of play {:?}", &order[..k])
            });
            for p in &order[..k] {
                self.recruit(*p, dice, trace);
            }
            for p in &order[..k] {
                if self.alive[usize::from(*p)] == 0 {
                    continue;
                }
                self.movement_phase(*p, dice, trace);
                if let Some(end) = self.battle_phase(*p, dice, trace) {
                    return end;
                }
            }
            if let Some(end) = self.end_of_turn(trace) {
                return end;
            }
        }
        Ending::Unfinished
    }

    /// Each city player `p` occupies rolls a d10; the recruit face raises a
    /// fresh warband of the city's race at the bottom of its stack
    /// [Initiative Phase].
    pub fn recruit<R: Roll, T: Trace>(&mut self, p: u8, dice: &mut R, trace: &mut T) {
        // In hex order; a recruit joins a stack already there, so the set
        // of cities held does not change meanwhile.
        for k in set_hexes(
            &set_and(&self.city_set, &self.occupied[usize::from(p)]),
            self.m.map.words,
        ) {
            let face = dice.die(10);
            if recruits(face, self.m.recruit_face) {
                // Basic warbands come first among the kinds, by race.
                let kind = self.b.detail[usize::from(k)];
                if let Some(w) = self.new_warband(kind, p, k) {
                    self.push_bottom(k, w);
                    trace.event("six races [Initiative Phase]", || {
                        format!("player {p} recruits a warband in the city at hex {k}")
                    });
                }
            }
        }
    }

    /// Player `p`'s movement phase: command points, moves, then the stacks'
    /// order for the battle phase [Movement Phase], [Battle Phase].
    pub fn movement_phase<R: Roll, T: Trace>(&mut self, p: u8, dice: &mut R, trace: &mut T) {
        let pi = usize::from(p);
        // Fresh moves and attacks for `p`'s live warbands, listed (in slot
        // order) for the moves. (A dead warband's moves and attacks are
        // never read: its slot is written afresh when it is taken again.)
        // The greedy player's list leaves out the warbands alone on a key
        // location: they stay (see `greedy_pick`) until a warband joins
        // them (`greedy_moves` lists them again then).
        let greedy = matches!(self.m.seats[pi].player, Player::Greedy { .. });
        let stay = if greedy {
            set_and(&self.single, &self.key_set)
        } else {
            NO_HEXES
        };
        let b = &mut *self.b;
        let mut n_own = 0;
        for (i, word) in self.live[pi].iter().enumerate() {
            let mut bits = *word;
            while bits != 0 {
                let slot = i * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let w = &mut b.warbands[slot];
                w.moved = 0;
                w.attacked = false;
                b.own[n_own] = slot as u8;
                n_own += usize::from(!set_contains(&stay, w.hex));
            }
        }
        let units = self.alive[pi] + self.leaders_alive[pi];
        let cp = command_points(
            units,
            self.leaders_alive[pi],
            self.m.units_per_command_die,
            dice,
        );
        trace.event("six races [Movement Phase]", || {
            format!("player {p}: {units} units, {cp} command points")
        });
        match self.m.seats[pi].player {
            Player::Random => self.random_moves(p, n_own, cp, dice),
            Player::Greedy { .. } => self.greedy_moves(p, n_own, cp),
        }
        self.order_stacks(p, dice);
    }

    pub(super) fn annihilation(&self) -> Ending {
        match (0..self.m.seats.len()).find(|p| self.alive[*p] > 0) {
            Some(p) => Ending::Won {
                seat: p as u8,
                by_holding: false,
            },
            None => Ending::Draw,
        }
    }

    /// Counts key locations held at the end of the turn. A player that
    /// holds the scenario's number of them (all of them, if the map has
    /// fewer) and, unless `victory.most` is off, more than any other player
    /// extends its streak; a streak of the scenario's length wins
    /// [Victory].
    fn end_of_turn<T: Trace>(&mut self, trace: &mut T) -> Option<Ending> {
        if self.n_keys == 0 || self.m.hold == 0 {
            return None;
        }
        let need = (self.m.hold as usize).min(self.n_keys);
        let n = self.m.seats.len();
        let held = self.held_keys.map(|h| h as usize);
        // Without `most`, several may complete a streak at once: the one
        // holding more wins; a tie is a draw.
        let mut winner: Option<u8> = None;
        let mut tied = false;
        for p in 0..n {
            let most = !self.m.most || (0..n).all(|q| q == p || held[q] < held[p]);
            if held[p] >= need && most {
                self.hold_streak[p] += 1;
                if self.hold_streak[p] >= self.m.hold_turns {
                    match winner {
                        Some(w) if held[usize::from(w)] > held[p] => {}
                        Some(w) if held[usize::from(w)] == held[p] => tied = true,
                        _ => (winner, tied) = (Some(p as u8), false),
                    }
                }
            } else {
                self.hold_streak[p] = 0;
            }
        }
        let seat = winner?;
        if tied {
            trace.event("six races [Victory]", || {
                "players tie on the key locations held, each for long enough: a draw".into()
            });
            return Some(Ending::Draw);
        }
        let count = held[usize::from(seat)];
        trace.event("six races [Victory]", || {
            format!(
                "player {seat} has held {count} key locations (the most) for {} turns",
                self.m.hold_turns
            )
        });
        Some(Ending::Won {
            seat,
            by_holding: true,
        })
    }

    /// The trial row of a finished game.
    pub fn result(&self, ending: Ending) -> TrialResult {
        let n = self.m.seats.len();
        let mut metrics = [0u32; MAX_METRICS];
        metrics[METRIC_TURNS] = self.turn;
        metrics[METRIC_BATTLES] = self.battles;
        let outcome = match ending {
            Ending::Won { seat, by_holding } => {
                metrics[METRIC_BY_HOLDING] = u32::from(by_holding);
                metrics[METRIC_FIRST_MOVER_WON] = u32::from(seat == self.first_mover);
                u16::from(seat)
            }
            Ending::Draw => n as u16,
            Ending::Unfinished => n as u16 + 1,
        };
        metrics[METRIC_SURVIVORS..METRIC_SURVIVORS + n].copy_from_slice(&self.alive[..n]);
        TrialResult { outcome, metrics }
    }
}
