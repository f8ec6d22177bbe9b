//! The players' movement: random moves, the greedy player's search and
//! moves, and the order of each stack before the battle phase.

use crate::races::Roll;
use crate::races::battle::odds;
use crate::races::map::{ForWords, HexSet, NO_HEX, set_contains};

use super::turn::sort_by_keys_descending;
use super::{Command, FAR, Game, LEVELS, NONE, Policy};

impl<'m> Game<'m> {
    /// Random movement: a random warband of the `k` listed in the board's
    /// `own` steps to a random hex it may enter; one that cannot is struck
    /// off the list. Each step is a decision (`move`): one of the hexes,
    /// or holding the warband (off the list; a search may choose it).
    pub(super) fn random_moves<R: Roll>(&mut self, p: u8, mut k: usize, mut cp: u32, dice: &mut R) {
        while cp > 0 && k > 0 {
            let i = (dice.die(k as u32) - 1) as usize;
            let w = self.b.own[i];
            let (legal, n) = self.steps_of(p, w);
            let c = if n == 0 {
                0
            } else {
                self.decide(
                    p,
                    "move",
                    n + 1,
                    |_, r| (r.die(n as u32) - 1) as usize,
                    dice,
                )
            };
            if c == n {
                self.b.own[i] = self.b.own[k - 1];
                k -= 1;
                continue;
            }
            self.step(w, legal[c]);
            cp -= 1;
        }
    }

    /// The hexes warband `w` of player `p` may step to now, in neighbour
    /// order, and how many [Movement Phase].
    fn steps_of(&self, p: u8, w: u8) -> ([u16; 6], usize) {
        let wb = self.b.warbands[usize::from(w)];
        let mut legal = [NO_HEX; 6];
        let mut n = 0;
        if wb.moved < self.m.max_move {
            for nb in self.m.map.neighbours[usize::from(wb.hex)] {
                if self.can_enter(p, nb) {
                    legal[n] = nb;
                    n += 1;
                }
            }
        }
        (legal, n)
    }

    /// Starts the greedy player `p`'s breadth-first search of the steps
    /// from its targets (key locations it does not hold, enemy stacks, or
    /// only one of the two as its `command` says)
    /// through hexes it may enter, on bitboards of the whole map: level 0
    /// here, the next levels as [`Game::distance`] needs them (a pick
    /// needs the distances of only some of `p`'s stacks, and the search
    /// goes only as far as the farthest of those).
    fn start_search(&mut self, p: u8) {
        struct Start<'g, 'm>(&'g mut Game<'m>, u8);
        impl ForWords for Start<'_, '_> {
            type Out = ();
            fn run<const N: usize>(self) {
                self.0.start_search_in::<N>(self.1);
            }
        }
        let map = &self.m.map;
        map.with_words(Start(self, p));
    }

    /// [`Game::start_search`] on a map of `N` bitboard words.
    fn start_search_in<const N: usize>(&mut self, p: u8) {
        let m = self.m;
        let own = self.occupied[usize::from(p)];
        let mut enemy = [0u64; N];
        for (q, occupied) in self.occupied[..m.seats.len()].iter().enumerate() {
            if q != usize::from(p) {
                for (e, o) in enemy.iter_mut().zip(occupied) {
                    *e |= o;
                }
            }
        }
        // What the command points go to (see `Command`).
        let (keys, enemies) = match self.command {
            Command::Keys => (!0, 0),
            Command::Enemies => (0, !0),
            _ => (!0u64, !0u64),
        };
        let search = &mut self.b.search;
        search.player = p;
        search.level = 0;
        let mut enemy_outside = 0;
        for i in 0..N {
            // Key locations held by `p` are exactly those under its stacks.
            search.frontier[i] = (self.key_set[i] & !own[i] & keys) | (enemy[i] & enemies);
            search.reached[i] = search.frontier[i];
            search.open[i] = self.passable[i] & !enemy[i];
            self.open_keys[i] = self.key_set[i] & !own[i] & search.open[i] & keys;
            enemy_outside |= enemy[i] & enemies & !self.key_region[i];
            // When every enemy stands in the region connected to key
            // locations, so does every target, and no hex outside it is
            // ever reached.
            search.never[i] = !self.key_region[i];
        }
        if enemy_outside != 0 {
            search.never[..N].fill(0);
        }
        self.b.levels[0][..N].copy_from_slice(&search.frontier[..N]);
        self.near_open_keys = m.map.spread::<N>(&self.open_keys);
    }

    /// The greedy player's steps from its targets to `h`, a hex of one of
    /// its stacks, searching on as far as needed: [`FAR`] for that far or
    /// more, [`u8::MAX`] for never. Each level searched is kept in
    /// `levels`; a hex reached already is looked up in them (a hex in none
    /// of the levels kept is [`FAR`] or more).
    #[inline]
    fn distance(&mut self, h: u16) -> u8 {
        let b = &*self.b;
        if set_contains(&b.search.reached, h) {
            let kept = &b.levels[..=b.search.level.min(LEVELS - 1)];
            return kept
                .iter()
                .position(|level| set_contains(level, h))
                .map_or(FAR, |d| d as u8);
        }
        self.search_to(h)
    }

    /// [`Game::distance`] of a hex the search has not reached yet.
    #[inline(never)]
    fn search_to(&mut self, h: u16) -> u8 {
        struct SearchTo<'g, 'm>(&'g mut Game<'m>, u16);
        impl ForWords for SearchTo<'_, '_> {
            type Out = u8;
            fn run<const N: usize>(self) -> u8 {
                self.0.distance_in::<N>(self.1)
            }
        }
        if set_contains(&self.b.search.never, h) {
            return u8::MAX;
        }
        let map = &self.m.map;
        map.with_words(SearchTo(self, h))
    }

    /// [`Game::distance`] on a map of `N` bitboard words.
    fn distance_in<const N: usize>(&mut self, h: u16) -> u8 {
        let map = &self.m.map;
        let search = &mut self.b.search;
        loop {
            let next = map.spread::<N>(&search.frontier);
            let mut any = 0;
            let words = search.frontier.iter_mut().zip(search.reached.iter_mut());
            for ((frontier, reached), (next, open)) in
                words.zip(next.iter().zip(&search.open)).take(N)
            {
                *frontier = next & open & !*reached;
                *reached |= *frontier;
                any |= *frontier;
            }
            if any == 0 {
                return u8::MAX;
            }
            search.level += 1;
            if search.level < LEVELS {
                self.b.levels[search.level][..N].copy_from_slice(&search.frontier[..N]);
            }
            if set_contains(&search.frontier, h) {
                return search.level.min(usize::from(FAR)) as u8;
            }
        }
    }

    /// Whether a stack of player `p` stands next to a key location nobody
    /// holds without holding one alone (then one of its warbands may take
    /// it, if it has not moved its most).
    fn may_take(&self, p: u8) -> bool {
        (0..self.m.map.words).any(|i| {
            self.occupied[usize::from(p)][i]
                & self.near_open_keys[i]
                & !(self.single[i] & self.key_set[i])
                != 0
        })
    }

    /// Whether the stack in `h` is one warband alone on a key location
    /// (which the greedy player never leaves empty, unless it is stalled).
    fn alone_on_key(&self, h: u16) -> bool {
        !self.stalled && set_contains(&self.single, h) && self.is_key(h)
    }

    /// The greedy player's next step among its warbands listed in the
    /// board's `own` (in slot order) from place `start` to `end`, as (place
    /// after `start`, warband, hex): the step worth most, the
    /// first such warband and its first such neighbour. A step onto a key
    /// location nobody holds (one of the player's targets) is worth most;
    /// then a step to a hex one level nearer its targets; no other step
    /// gains. A warband that has moved its most, or alone holds a key
    /// location, stays. Every hex a level nearer than the warband's is one
    /// the player may enter: it is a target only at level 0, and every
    /// other hex searched is open.
    /// Without `takes` the caller knows no warband can take a key
    /// location, and the first warband that can step is the pick.
    fn greedy_pick(&mut self, start: usize, end: usize, takes: bool) -> Option<(usize, u8, u16)> {
        let mut walk = None;
        for j in 0..end - start {
            let w = self.b.own[start + j];
            let wb = self.b.warbands[usize::from(w)];
            if wb.moved >= self.m.max_move {
                continue;
            }
            let h = wb.hex;
            let near_key = takes && set_contains(&self.near_open_keys, h);
            if !near_key && walk.is_some() || self.alone_on_key(h) {
                continue;
            }
            let m = self.m;
            let neighbours = &m.map.neighbours[usize::from(h)];
            let first_in = |set: &HexSet| {
                neighbours
                    .iter()
                    .copied()
                    .find(|nb| *nb != NO_HEX && set_contains(set, *nb))
            };
            if near_key && let Some(to) = first_in(&self.open_keys) {
                return Some((j, w, to));
            }
            if walk.is_some() {
                continue;
            }
            let d = self.distance(h);
            if (2..=FAR).contains(&d)
                && let Some(to) = first_in(&self.b.levels[usize::from(d - 1)])
            {
                walk = Some((j, w, to));
                if !takes {
                    break;
                }
            }
        }
        walk
    }

    /// Greedy movement: each command point goes to the step
    /// [`Game::greedy_pick`] finds, so a warband walks on while it gains,
    /// never leaving a held key location empty; points with no gainful step
    /// are left unspent (they cannot be saved anyway). The distances are
    /// searched again after a key location is taken (it is no longer a
    /// target); any other step takes the warband one level nearer.
    ///
    /// A pick looks only as far as it must. After a walk (a step that
    /// takes no key location) no warband can take one, and none before the
    /// walker can step, unless the step changed that: the walker may now
    /// stand next to a key location nobody holds, and on a key location it
    /// may have joined one warband alone there (which may then move). Only
    /// the walker's hex and the stacks it left and joined change.
    ///
    /// Its targets are the player's `command` (see [`Command`]): every
    /// target for the greedy player itself, a search player's choice else.
    ///
    /// Returns the points left unspent.
    pub(super) fn greedy_moves(&mut self, p: u8, mut n: usize, mut cp: u32) -> u32 {
        if cp == 0 {
            return 0;
        }
        self.start_search(p);
        // No warband before `start` can step; `takes`: one may take a key
        // location.
        let (mut start, mut takes) = (0, self.may_take(p));
        while cp > 0 {
            let Some((j, w, to)) = self.greedy_pick(start, n, takes) else {
                break;
            };
            let joined = self.b.top[usize::from(to)];
            let takes_key = set_contains(&self.open_keys, to);
            self.step(w, to);
            cp -= 1;
            if takes_key {
                // Now alone on the key location it took: off the list.
                for i in start + j..n - 1 {
                    self.b.own[i] = self.b.own[i + 1];
                }
                n -= 1;
                if cp > 0 {
                    self.start_search(p);
                }
                (start, takes) = (0, self.may_take(p));
            } else {
                start += j;
                takes = set_contains(&self.near_open_keys, to);
                if self.is_key(to) {
                    start = 0;
                    // A warband that stood alone on it (off the list, or
                    // still on it if it was left alone in this phase) may
                    // move now.
                    let at = self.b.own[..n].partition_point(|x| *x < joined);
                    if joined != NONE && (at == n || self.b.own[at] != joined) {
                        self.b.own.copy_within(at..n, at + 1);
                        self.b.own[at] = joined;
                        n += 1;
                    }
                }
            }
        }
        cp
    }

    /// Sets the order of player `p`'s stacks for its battle phase: the
    /// greedy player by each warband's best exact edge against the enemy
    /// stacks next to it (its general strength if none), the random player
    /// by putting a random warband on top. Which warband goes on top is a
    /// decision (`order`).
    pub(super) fn order_stacks<R: Roll>(&mut self, p: u8, dice: &mut R) {
        let mut stacked = self.occupied[usize::from(p)];
        for (s, single) in stacked.iter_mut().zip(&self.single) {
            *s &= !single;
        }
        let n = self.stacks_of(p, &stacked);
        for i in 0..n {
            let h = self.b.stack_hexes[i];
            let top = self.b.top[usize::from(h)];
            let mut k = 0;
            let mut w = top;
            while w != NONE {
                self.b.members[k] = w;
                k += 1;
                w = self.b.warbands[usize::from(w)].below;
            }
            match self.m.seats[usize::from(p)].player.policy() {
                Policy::Random => {
                    let i = self.decide(p, "order", k, |_, r| (r.die(k as u32) - 1) as usize, dice);
                    self.b.members.swap(0, i);
                }
                Policy::Greedy { .. } => {
                    for i in 0..k {
                        self.b.order_keys[i] = self.order_value(self.b.members[i]);
                    }
                    let b = &mut *self.b;
                    sort_by_keys_descending(&mut b.order_keys[..k], &mut b.members[..k]);
                    // The base keeps the best on top; a search may put
                    // another there, the rest in order.
                    let top = self.decide(p, "order", k, |_, _| 0, dice);
                    self.b.members[..=top].rotate_right(1);
                }
            }
            self.b.top[usize::from(h)] = self.b.members[0];
            for i in 0..k {
                let next = if i + 1 < k {
                    self.b.members[i + 1]
                } else {
                    NONE
                };
                self.b.warbands[usize::from(self.b.members[i])].below = next;
            }
        }
    }

    fn order_value(&self, w: u8) -> f64 {
        let wb = self.b.warbands[usize::from(w)];
        let mine = self.warband_scores(w, None);
        let mut best: Option<f64> = None;
        for nb in self.m.map.neighbours[usize::from(wb.hex)] {
            if nb == NO_HEX {
                continue;
            }
            let o = self.owner(nb);
            if o != NONE && o != wb.owner {
                let theirs = self.warband_scores(self.b.top[usize::from(nb)], None);
                let edge = odds(&mine, &theirs, &self.m.weights).edge();
                best = Some(best.map_or(edge, |b: f64| b.max(edge)));
            }
        }
        best.unwrap_or(self.m.strength[usize::from(wb.kind)])
    }
}
