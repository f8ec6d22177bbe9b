//! The turn sequence: initiative, recruiting and command points, the
//! movement phase, the end of the turn and of the game [Turn Sequence].

use crate::races::Roll;
use crate::races::map::{HexSet, NO_HEXES, set_and, set_contains, set_hexes};
use barsoom_engine::accumulate::MAX_METRICS;
use barsoom_engine::search;
use barsoom_engine::{Trace, TrialResult};

use super::{
    Command, Ending, Game, MAX_PLAYERS, METRIC_BATTLES, METRIC_BY_HOLDING, METRIC_FIRST_MOVER_WON,
    METRIC_SURVIVORS, METRIC_TURNS, Policy,
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
        self.play_turns(dice, trace, self.m.max_turns)
            .unwrap_or(Ending::Unfinished)
    }

    /// Plays on from the start of a player's phases (or of a turn) until
    /// the game ends, or until turn `last` is over (`None`). Each player's
    /// movement and battle phases are a turn for the search
    /// ([`search::turn_boundary`] marks their start); the initiative and
    /// recruiting of a turn come before its first player's.
    pub(super) fn play_turns<R: Roll, T: Trace>(
        &mut self,
        dice: &mut R,
        trace: &mut T,
        last: u32,
    ) -> Option<Ending> {
        loop {
            if self.next_in_order >= self.n_order {
                if self.turn >= last {
                    return None;
                }
                self.begin_turn(dice, trace);
                continue;
            }
            if self.m.searching {
                search::turn_boundary(self, dice);
            }
            let p = self.order[usize::from(self.next_in_order)];
            self.next_in_order += 1;
            if self.alive[usize::from(p)] > 0 {
                self.movement_phase(p, dice, trace);
                let end = self.battle_phase(p, dice, trace);
                if T::ENABLED {
                    for note in self.slot.take_notes() {
                        trace.event("search", || note);
                    }
                }
                if end.is_some() {
                    return end;
                }
            }
            if self.next_in_order == self.n_order
                && let Some(end) = self.end_of_turn(trace)
            {
                return Some(end);
            }
        }
    }

    /// Begins the next turn: the order of play among the players left, and
    /// each one's recruiting in that order [Initiative Phase].
    fn begin_turn<R: Roll, T: Trace>(&mut self, dice: &mut R, trace: &mut T) {
        self.turn += 1;
        self.battles_at_turn_start = self.battles;
        let turn = self.turn;
        let mut k = 0;
        for p in 0..self.m.seats.len() {
            if self.alive[p] > 0 {
                self.order[k] = p as u8;
                k += 1;
            }
        }
        let leaders = self.leaders_alive;
        initiative_order(dice, &leaders, &mut self.order[..k]);
        if turn == 1 {
            self.first_mover = self.order[0];
        }
        trace.event("six races [Initiative Phase]", || {
            format!("turn {turn}: order of play {:?}", &self.order[..k])
        });
        for i in 0..k {
            self.recruit(self.order[i], dice, trace);
        }
        (self.n_order, self.next_in_order) = (k as u8, 0);
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
        let policy = self.m.seats[pi].player.policy();
        let greedy = matches!(policy, Policy::Greedy { .. });
        let stay = if greedy {
            set_and(&self.single, &self.key_set)
        } else {
            NO_HEXES
        };
        let b = &mut *self.b;
        for (i, word) in self.live[pi].iter().enumerate() {
            let mut bits = *word;
            while bits != 0 {
                let slot = i * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let w = &mut b.warbands[slot];
                w.moved = 0;
                w.attacked = false;
            }
        }
        let n_own = self.list_warbands(pi, &stay);
        self.stalled = false;
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
        match policy {
            Policy::Random => self.random_moves(p, n_own, cp, dice),
            Policy::Greedy { .. } => {
                // Where the command points go (a decision): the base sends
                // them toward every target.
                let c = self.decide(p, "command", Command::ALL.len(), |_, _| 0, dice);
                self.command = Command::ALL[c];
                // Stalled: too few warbands left to hold enough key
                // locations, or no step gains without leaving a held one
                // while holding is not winning. Then, if an enemy is
                // within reach, every warband goes for the enemy (a
                // warband alone on a key location gains nothing by walking
                // to another), and the battle phase fights at any odds: a
                // tie of key locations held, a line of warbands no one
                // attacks, or forces too few to hold enough would
                // otherwise stand for good.
                if self.command != Command::Hold {
                    let weak = !self.can_hold_enough(pi);
                    let stuck =
                        weak || self.greedy_moves(p, n_own, cp) == cp && !self.on_course(pi);
                    self.stalled = stuck && self.enemy_in_reach(p);
                    if self.stalled {
                        self.command = Command::Enemies;
                        let n = self.list_warbands(pi, &NO_HEXES);
                        self.greedy_moves(p, n, cp);
                    } else if weak {
                        // No enemy within reach: it holds what it can.
                        self.greedy_moves(p, n_own, cp);
                    }
                }
                self.command = Command::All;
            }
        }
        self.order_stacks(p, dice);
    }

    /// Lists player `p`'s live warbands outside `skip`, in slot order, in
    /// the board's `own`; returns how many.
    fn list_warbands(&mut self, p: usize, skip: &HexSet) -> usize {
        let b = &mut *self.b;
        let mut n = 0;
        for (i, word) in self.live[p].iter().enumerate() {
            let mut bits = *word;
            while bits != 0 {
                let slot = i * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                b.own[n] = slot as u8;
                n += usize::from(!set_contains(skip, b.warbands[slot].hex));
            }
        }
        n
    }

    /// Whether player `p` meets the holding condition of [Victory] now:
    /// the scenario's number of key locations (all of them, if the map
    /// has fewer) and, unless `victory.most` is off, more than any other
    /// player.
    pub(super) fn on_course(&self, p: usize) -> bool {
        if self.n_keys == 0 || self.m.hold == 0 {
            return false;
        }
        let need = self.need();
        let held = &self.held_keys[..self.m.seats.len()];
        held[p] as usize >= need
            && (!self.m.most || held.iter().enumerate().all(|(q, h)| q == p || *h < held[p]))
    }

    /// Whether a warband of player `p` can reach an enemy stack (through
    /// hexes units may stand in; enemy stacks in the way aside).
    fn enemy_in_reach(&self, p: u8) -> bool {
        self.m.map.reaches(
            &self.occupied[usize::from(p)],
            &self.passable,
            &self.enemy_hexes(p),
        )
    }

    /// The key locations a holding victory needs: the scenario's number,
    /// or all of them if the map has fewer.
    fn need(&self) -> usize {
        (self.m.hold as usize).min(self.n_keys)
    }

    /// Whether player `p` has warbands enough to hold what a holding
    /// victory needs (each holds one key location at most).
    fn can_hold_enough(&self, p: usize) -> bool {
        self.n_keys > 0 && self.m.hold > 0 && self.alive[p] as usize >= self.need()
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
            return self.apart(trace);
        }
        let n = self.m.seats.len();
        let held = self.held_keys.map(|h| h as usize);
        // Without `most`, several may complete a streak at once: the one
        // holding more wins; a tie is a draw.
        let mut winner: Option<u8> = None;
        let mut tied = false;
        for p in 0..n {
            if self.on_course(p) {
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
        let Some(seat) = winner else {
            return self.apart(trace);
        };
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

    /// With `victory.end_apart`, ends a game whose forces can no longer
    /// reach one another (the map's impassable hexes part them) once no
    /// one can take another key location: the player holding the
    /// most key locations wins, and equal holders (or a game won by
    /// annihilation only) draw [Victory]. Checked after a turn without
    /// battles (forces apart never fight).
    fn apart<T: Trace>(&mut self, trace: &mut T) -> Option<Ending> {
        if !self.m.end_apart || self.battles != self.battles_at_turn_start {
            return None;
        }
        let n = self.m.seats.len();
        for p in 0..n {
            if self.alive[p] == 0 {
                continue;
            }
            let mut others = NO_HEXES;
            for q in (0..n).filter(|q| *q != p) {
                for (o, h) in others.iter_mut().zip(&self.occupied[q]) {
                    *o |= h;
                }
            }
            if self
                .m
                .map
                .reaches(&self.occupied[p], &self.passable, &others)
            {
                return None;
            }
        }
        // Apart, and no warband that is not alone on a key location can
        // reach one nobody holds: no holding can grow, so holding the most
        // decides.
        let words = self.m.map.words;
        let mut held_any = NO_HEXES;
        for occupied in &self.occupied[..n] {
            for (h, o) in held_any.iter_mut().zip(occupied) {
                *h |= o;
            }
        }
        for p in (0..n).filter(|p| self.alive[*p] > 0) {
            let mut free = self.occupied[p];
            for ((f, single), key) in free.iter_mut().zip(&self.single).zip(&self.key_set) {
                *f &= !(single & key);
            }
            let region = self.m.map.flood(&free, &self.passable);
            if (0..words).any(|i| region[i] & self.key_set[i] & !held_any[i] != 0) {
                return None;
            }
        }
        let held = &self.held_keys[..n];
        let most = held.iter().copied().max().unwrap_or(0);
        let holders = held.iter().filter(|h| **h == most).count();
        let ending = match held.iter().position(|h| *h == most) {
            Some(seat) if holders == 1 && self.m.hold > 0 => Ending::Won {
                seat: seat as u8,
                by_holding: true,
            },
            _ => Ending::Draw,
        };
        trace.event("six races [Victory]", || {
            format!("the forces left can no longer reach one another; key locations held {held:?}: {ending:?}")
        });
        Some(ending)
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
