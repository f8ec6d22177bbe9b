//! [`Game`]'s state: construction, queries about hexes, stacks and
//! leaders, and the bookkeeping of stacks as warbands move and fall.

use crate::races::battle::scores;
use crate::races::data::{ATTRIBUTES, Profile};
use crate::races::map::{
    HexSet, NO_HEX, NO_HEXES, set_and, set_contains, set_hexes, set_insert, set_len, set_remove,
};

use super::{
    Board, Game, IMPASSABLE, MAX_LEADERS, MAX_PLAYERS, MAX_WARBANDS, NO_LEADER, NONE, RacesGame,
    SLOT_WORDS, TerrainRule, Warband,
};

impl<'m> Game<'m> {
    /// An empty board for `m`'s scenario.
    pub fn new(m: &'m RacesGame) -> Self {
        Self::with_board(m, Board::new())
    }

    /// An empty board for `m`'s scenario on `b`, a board of any earlier
    /// game.
    pub(crate) fn with_board(m: &'m RacesGame, mut b: Box<Board>) -> Self {
        b.top[..m.map.hexes()].fill(NONE);
        b.next_phase();
        Game {
            m,
            b,
            open_keys: NO_HEXES,
            near_open_keys: NO_HEXES,
            passable: NO_HEXES,
            key_set: NO_HEXES,
            key_region: NO_HEXES,
            occupied: [NO_HEXES; MAX_PLAYERS],
            single: NO_HEXES,
            live: [[0; SLOT_WORDS]; MAX_PLAYERS],
            n_warbands: 0,
            leaders: [NO_LEADER; MAX_LEADERS],
            n_leaders: 0,
            n_keys: 0,
            city_set: NO_HEXES,
            bonus_set: NO_HEXES,
            watched: NO_HEXES,
            alive: [0; MAX_PLAYERS],
            leaders_alive: [0; MAX_PLAYERS],
            bonus: [[0; ATTRIBUTES]; MAX_PLAYERS],
            held_keys: [0; MAX_PLAYERS],
            hold_streak: [0; MAX_PLAYERS],
            turn: 0,
            battles: 0,
            first_mover: NONE,
        }
    }

    // ------------------------------------------------------------ queries

    /// The player whose stack is in `h`, or [`NONE`].
    #[inline]
    pub fn owner(&self, h: u16) -> u8 {
        match self.b.cell[usize::from(h)] {
            IMPASSABLE => NONE,
            p => p,
        }
    }

    /// The top warband of `h` (a warband id), or [`NONE`].
    pub fn top(&self, h: u16) -> u8 {
        self.b.top[usize::from(h)]
    }

    /// The leader in charge of `h`'s stack in this battle phase, if one
    /// has been chosen: `Some(None)` for a stack without leaders.
    pub fn in_charge(&self, h: u16) -> Option<Option<u8>> {
        self.fixed_charge(h)
    }

    /// Warband kinds in `h`, top first (for tests and traces).
    pub fn stack(&self, h: u16) -> Vec<u8> {
        let mut out = Vec::new();
        let mut w = self.b.top[usize::from(h)];
        while w != NONE {
            out.push(self.b.warbands[usize::from(w)].kind);
            w = self.b.warbands[usize::from(w)].below;
        }
        out
    }

    /// Special attributes of the live leaders in `h`.
    pub fn leaders_at(&self, h: u16) -> Vec<u8> {
        let mut buf = [0u8; MAX_LEADERS];
        let n = self.leaders_in(h, &mut buf);
        buf[..n].to_vec()
    }

    /// Warbands player `p` has.
    pub fn warbands_of(&self, p: usize) -> u32 {
        self.alive[p]
    }

    /// Leaders player `p` has.
    pub fn leaders_of(&self, p: usize) -> u32 {
        self.leaders_alive[p]
    }

    /// The all-units settlement bonus player `p` has now.
    pub fn settlement_bonus(&self, p: usize) -> Profile {
        self.bonus[p]
    }

    #[inline]
    fn rule(&self, h: u16) -> &TerrainRule {
        &self.m.terrain[usize::from(self.b.terrain[usize::from(h)])]
    }

    #[inline]
    pub(super) fn is_key(&self, h: u16) -> bool {
        set_contains(&self.key_set, h)
    }

    #[inline]
    pub(super) fn can_enter(&self, p: u8, n: u16) -> bool {
        n != NO_HEX && {
            let c = self.b.cell[usize::from(n)];
            c == NONE || c == p
        }
    }

    pub(super) fn leaders_in(&self, h: u16, out: &mut [u8; MAX_LEADERS]) -> usize {
        let mut n = 0;
        for l in &self.leaders[..self.n_leaders] {
            if l.alive && self.b.warbands[usize::from(l.warband)].hex == h {
                out[n] = l.attribute;
                n += 1;
            }
        }
        n
    }

    /// Bonus of hex `h` to the units in it: its terrain, and ruins' rolled
    /// attribute [Hex Terrain Type], [Settlement Type Table].
    fn hex_bonus(&self, h: u16) -> Profile {
        let rule = self.rule(h);
        let mut b = rule.in_hex;
        if rule.ruins != 0 {
            let a = usize::from(self.b.detail[usize::from(h)]);
            b[a] += rule.ruins;
        }
        b
    }

    /// Warband `w`'s scores with `leader` in charge of its stack.
    pub fn warband_scores(&self, w: u8, leader: Option<u8>) -> Profile {
        let wb = &self.b.warbands[usize::from(w)];
        scores(
            &self.m.kinds[usize::from(wb.kind)],
            &self.hex_bonus(wb.hex),
            &self.bonus[usize::from(wb.owner)],
            leader,
            self.m.leader_bonus,
        )
    }

    /// Works out each player's all-units bonus from the settlements it
    /// occupies; unoccupied ones are neutral [Settlement Type Table]; and
    /// how many key locations it holds. Both are kept up to date from then
    /// on as key locations are taken and left.
    pub(super) fn refresh_bonuses(&mut self) {
        self.bonus = [[0; ATTRIBUTES]; MAX_PLAYERS];
        for p in 0..self.m.seats.len() {
            self.held_keys[p] =
                set_len(&set_and(&self.key_set, &self.occupied[p]), self.m.map.words);
            for k in set_hexes(
                &set_and(&self.bonus_set, &self.occupied[p]),
                self.m.map.words,
            ) {
                let add = self.rule(k).all_units;
                for (b, a) in self.bonus[p].iter_mut().zip(add) {
                    *b += a;
                }
            }
        }
    }

    /// The hexes of every other player's stacks.
    pub(super) fn enemy_hexes(&self, p: u8) -> HexSet {
        let mut enemy = NO_HEXES;
        for (q, occupied) in self.occupied[..self.m.seats.len()].iter().enumerate() {
            if q != usize::from(p) {
                for (e, o) in enemy.iter_mut().zip(occupied) {
                    *e |= o;
                }
            }
        }
        enemy
    }

    pub(super) fn players_left(&self) -> usize {
        self.alive[..self.m.seats.len()]
            .iter()
            .filter(|a| **a > 0)
            .count()
    }

    // ------------------------------------------------------------ stacks

    pub(super) fn new_warband(&mut self, kind: u8, owner: u8, hex: u16) -> Option<u8> {
        let slot = if self.n_warbands < MAX_WARBANDS {
            self.n_warbands += 1;
            self.n_warbands - 1
        } else {
            self.b.warbands.iter().position(|w| !w.alive)?
        };
        self.b.warbands[slot] = Warband {
            kind,
            owner,
            hex,
            below: NONE,
            moved: 0,
            attacked: false,
            alive: true,
        };
        self.alive[usize::from(owner)] += 1;
        self.live[usize::from(owner)][slot / 64] |= 1 << (slot % 64);
        Some(slot as u8)
    }

    /// Notes whether the stack in `h` is now one warband alone.
    #[inline]
    fn note_single(&mut self, h: u16) {
        let top = self.b.top[usize::from(h)];
        if top != NONE && self.b.warbands[usize::from(top)].below == NONE {
            set_insert(&mut self.single, h);
        } else {
            set_remove(&mut self.single, h);
        }
    }

    #[inline(always)]
    pub(super) fn push_top(&mut self, h: u16, w: u8) {
        let (hi, b) = (usize::from(h), &mut *self.b);
        let below = b.top[hi];
        let wb = &mut b.warbands[usize::from(w)];
        wb.below = below;
        wb.hex = h;
        let owner = wb.owner;
        b.top[hi] = w;
        b.cell[hi] = owner;
        set_insert(&mut self.passable, h);
        set_insert(&mut self.occupied[usize::from(owner)], h);
        // One warband alone now if the hex was empty.
        if below == NONE {
            set_insert(&mut self.single, h);
        } else {
            set_remove(&mut self.single, h);
        }
    }

    pub(super) fn push_bottom(&mut self, h: u16, w: u8) {
        set_insert(&mut self.passable, h);
        set_insert(
            &mut self.occupied[usize::from(self.b.warbands[usize::from(w)].owner)],
            h,
        );
        self.b.warbands[usize::from(w)].hex = h;
        self.b.warbands[usize::from(w)].below = NONE;
        let mut cur = self.b.top[usize::from(h)];
        if cur == NONE {
            self.b.top[usize::from(h)] = w;
            self.b.cell[usize::from(h)] = self.b.warbands[usize::from(w)].owner;
        } else {
            while self.b.warbands[usize::from(cur)].below != NONE {
                cur = self.b.warbands[usize::from(cur)].below;
            }
            self.b.warbands[usize::from(cur)].below = w;
        }
        self.note_single(h);
    }

    #[inline(always)]
    fn unlink(&mut self, w: u8) {
        let b = &mut *self.b;
        let Warband {
            hex, below, owner, ..
        } = b.warbands[usize::from(w)];
        let h = usize::from(hex);
        if b.top[h] == w {
            b.top[h] = below;
            if below == NONE {
                b.cell[h] = NONE;
                set_remove(&mut self.occupied[usize::from(owner)], hex);
            }
        } else {
            let mut cur = b.top[h];
            while cur != NONE && b.warbands[usize::from(cur)].below != w {
                cur = b.warbands[usize::from(cur)].below;
            }
            if cur != NONE {
                b.warbands[usize::from(cur)].below = below;
            }
        }
        b.warbands[usize::from(w)].below = NONE;
        self.note_single(hex);
    }

    /// Moves warband `w` one hex to `to`; the leaders riding with it go too
    /// [Movement Phase]. A key location or bonus settlement it leaves
    /// empty or takes changes the count held and the all-units bonuses at
    /// once.
    #[inline]
    pub(super) fn step(&mut self, w: u8, to: u16) {
        let from = self.b.warbands[usize::from(w)].hex;
        let takes = self.b.top[usize::from(to)] == NONE && set_contains(&self.watched, to);
        self.unlink(w);
        let leaves = self.b.top[usize::from(from)] == NONE && set_contains(&self.watched, from);
        self.push_top(to, w);
        self.b.warbands[usize::from(w)].moved += 1;
        let owner = self.b.warbands[usize::from(w)].owner;
        if takes {
            self.add_settlement_bonus(owner, to, 1);
        }
        if leaves {
            self.add_settlement_bonus(owner, from, -1);
        }
    }

    /// Adds (`sign` 1) or takes away (-1) the all-units bonus of the
    /// settlement in `k` to player `p`'s, as `p` takes or loses it
    /// [Settlement Type Table], and counts a key location in or out of
    /// those `p` holds.
    fn add_settlement_bonus(&mut self, p: u8, k: u16, sign: i8) {
        if self.is_key(k) {
            let held = &mut self.held_keys[usize::from(p)];
            *held = held.wrapping_add_signed(i32::from(sign));
        }
        let add = self.rule(k).all_units;
        for (b, a) in self.bonus[usize::from(p)].iter_mut().zip(add) {
            *b += sign * a;
        }
    }

    /// Destroys warband `w`. Its leaders join the new top of the stack, or
    /// die with the stack when none is left [Leaders].
    pub(super) fn destroy(&mut self, w: u8) {
        let h = self.b.warbands[usize::from(w)].hex;
        let owner = usize::from(self.b.warbands[usize::from(w)].owner);
        self.unlink(w);
        self.b.warbands[usize::from(w)].alive = false;
        self.alive[owner] -= 1;
        self.live[owner][usize::from(w) / 64] &= !(1 << (w % 64));
        let new_top = self.b.top[usize::from(h)];
        for l in &mut self.leaders[..self.n_leaders] {
            if l.alive && l.warband == w {
                if new_top == NONE {
                    l.alive = false;
                    self.leaders_alive[owner] -= 1;
                } else {
                    l.warband = new_top;
                }
            }
        }
        if new_top == NONE && set_contains(&self.watched, h) {
            self.add_settlement_bonus(owner as u8, h, -1);
        }
    }

    /// The hexes of player `p`'s stacks in `among`, in the order of their
    /// first (lowest) warband slot, into the board's `stack_hexes`; returns
    /// how many.
    pub(super) fn stacks_of(&mut self, p: u8, among: &HexSet) -> usize {
        let b = &mut *self.b;
        let mut n = 0;
        for h in set_hexes(
            &set_and(among, &self.occupied[usize::from(p)]),
            self.m.map.words,
        ) {
            let mut slot = NONE;
            let mut w = b.top[usize::from(h)];
            while w != NONE {
                slot = slot.min(w);
                w = b.warbands[usize::from(w)].below;
            }
            let mut i = n;
            while i > 0 && b.stack_first[i - 1] > slot {
                b.stack_first[i] = b.stack_first[i - 1];
                b.stack_hexes[i] = b.stack_hexes[i - 1];
                i -= 1;
            }
            b.stack_first[i] = slot;
            b.stack_hexes[i] = h;
            n += 1;
        }
        n
    }
}
