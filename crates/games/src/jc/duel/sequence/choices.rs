//! What a fighter may do in a state: whom he may attack and at what number,
//! his movements and reach, the enemies nearest him, and the closing rule.

use super::state::{Attack, Duel, MAX_FIGHTERS, State};
use crate::jc::duel::geometry;
use crate::jc::duel::geometry::{
    Boxes, COUNTER, DisplayKind, Picked, Reach, STEPS_PER_MOVEMENT, adjacent, in_arc, is_behind,
};
use crate::jc::duel::melee::{Conditions, MeleeRules};
use crate::jc::duel::roster::MovementKind;

impl Duel {
    /// Whether fighter `a` may melee `t` at all: enemies, `t` on his feet
    /// and not a personage unless she has struck first [7.13-7.16]; Woola
    /// never across fliers [19.13].
    #[inline(always)]
    pub fn may_target(&self, s: &State, a: usize, t: usize) -> bool {
        s.fighting(t) && self.may_target_among(s, a, 1 << t) != 0
    }

    /// Those of the fighters `among` (bit per fighter, all on their feet)
    /// whom `a` may melee: [`Duel::may_target`] for each at once.
    #[inline(always)]
    fn may_target_among(&self, s: &State, a: usize, among: u32) -> u32 {
        let bits = self.enemies_among(s, a, among);
        if !self.extras {
            return bits;
        }
        let mut kept = bits;
        let mut rest = bits;
        while rest != 0 {
            let t = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if !self.may_duel_across(s, a, t) {
                kept &= !(1 << t);
            }
        }
        kept
    }

    /// Woola may not duel from one flier to the other [19.13].
    fn may_duel_across(&self, s: &State, a: usize, t: usize) -> bool {
        self.may_duel_across_from(s, a, t, s.pos[a])
    }

    /// [`Duel::may_duel_across`] with `a` standing at `at`.
    fn may_duel_across_from(&self, s: &State, a: usize, t: usize, at: (i16, i16)) -> bool {
        let Some((w, _)) = self.special.woola else {
            return true;
        };
        if self.display.kind != DisplayKind::Flier || (a != w && t != w) {
            return true;
        }
        let (da, dt) = (
            self.display.decks(at.0, at.1),
            self.display.decks(s.pos[t].0, s.pos[t].1),
        );
        da == 0 || dt == 0 || da & dt != 0
    }

    /// The enemies of `a` among `among` he may melee, wherever they stand
    /// (personages only once they have struck [7.16]).
    #[inline(always)]
    fn enemies_among(&self, s: &State, a: usize, among: u32) -> u32 {
        let enemies = s.sides[usize::from(1 - self.fighters[a].side)];
        among & enemies & (!s.personages | s.x.struck)
    }

    /// The melee modifier and the natural roll needed for `a` at `at`
    /// facing anything, against `t` where it stands [7.3, 7.61].
    #[inline(always)]
    pub fn needed(
        &self,
        s: &State,
        a: usize,
        t: usize,
        at: (i16, i16),
        moved: bool,
    ) -> (bool, i32) {
        let (fa, ft) = (&self.fighters[a], &self.fighters[t]);
        let (dx, dy) = (at.0 - s.pos[t].0, at.1 - s.pos[t].1);
        let behind = is_behind(ft.behind(), dx, dy, s.facing[t]);
        let c = Conditions {
            behind,
            moved,
            obstructed: self.display.obstructed(at, s.pos[t]),
            carrying: s.carrying[a] != 0,
            unarmed: s.unarmed & (1 << a) != 0,
        };
        let ra = fa.at(s.level[a]);
        let rt = ft.at(s.level[t]);
        let strength = if s.fury & (1 << a) != 0 {
            ra.strength + self.special.rules.woola_fury_strength
        } else {
            ra.strength
        };
        (
            behind,
            MeleeRules::needed(strength, self.rules.modifier(c), rt.agility),
        )
    }

    /// Expected levels an attack with need `needed` takes off `t`.
    #[inline(always)]
    pub fn value(&self, s: &State, a: usize, t: usize, needed: i32) -> f64 {
        let [_, level, kill] = self.rules.odds(self.fighters[a].class, needed);
        let left = f64::from(s.level[t]);
        level + kill * left
    }

    /// The best facing (if any) from which `a` at `at` may attack `t` [7.43].
    #[inline(always)]
    pub(crate) fn facing_to_attack(
        &self,
        s: &State,
        a: usize,
        t: usize,
        at: (i16, i16),
    ) -> Option<u8> {
        let arc = self.fighters[a].arc();
        let (dx, dy) = (at.0 - s.pos[t].0, at.1 - s.pos[t].1);
        if !adjacent(dx, dy) {
            return None;
        }
        // Prefer keeping the present facing, then the others in order.
        let current = s.facing[a];
        (0..4)
            .map(|k| (current + k) & 3)
            .find(|&f| in_arc(arc, dx, dy, f))
    }

    /// Calls `f` for every melee `a` could make: from where he stands
    /// (facing changed in lieu of movement) and, if `reach` is given, from
    /// each exact position [7.41] around each target that he can walk to.
    #[inline]
    pub(crate) fn for_each_attack(
        &self,
        s: &State,
        a: usize,
        reach: Option<(&Reach, u8)>,
        mut f: impl FnMut(Attack),
    ) {
        if !MeleeRules::may_melee(
            self.fighters[a].at(s.level[a]).strength,
            s.unarmed & (1 << a) != 0,
        ) {
            return;
        }
        // Woola's rule [19.13] is checked where each blow is struck from: a
        // foe across the gap from him is reached by crossing to his flier.
        let mut targets = self.targets(s, a);
        while targets != 0 {
            let t = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            if self.may_duel_across(s, a, t)
                && let Some(facing) = self.facing_to_attack(s, a, t, s.pos[a])
            {
                let (behind, needed) = self.needed(s, a, t, s.pos[a], false);
                f(Attack {
                    target: t,
                    at: s.pos[a],
                    facing,
                    moved: false,
                    behind,
                    needed,
                    value: self.value(s, a, t, needed),
                });
            }
            let Some((reach, steps)) = reach else {
                continue;
            };
            // The positions around `t` lie a counter from him: none within
            // `steps` of `a` if he is further.
            let (dx, dy) = (s.pos[t].0 - s.pos[a].0, s.pos[t].1 - s.pos[a].1);
            if dx.abs().max(dy.abs()) > i16::from(steps) + COUNTER {
                continue;
            }
            let mut around = [(0i16, 0i16); 8];
            for (n, at) in (1..=8u8).zip(&mut around) {
                let (ox, oy) = geometry::offset_of_position(n, s.facing[t]);
                *at = (s.pos[t].0 + ox, s.pos[t].1 + oy);
            }
            // Positions 1-8 in order, those he can walk to. A moving
            // attack's need and value depend on where he stands only
            // through behind [7.32] and obstructed [7.34]: each of the four
            // cases is worked out once per target.
            let mut cases = [None::<(i32, f64)>; 4];
            let mut open = reach.walkable(&around, steps);
            while open != 0 {
                let at = around[open.trailing_zeros() as usize];
                open &= open - 1;
                if at == s.pos[a] || !self.may_duel_across_from(s, a, t, at) {
                    continue;
                }
                if let Some(facing) = self.facing_to_attack(s, a, t, at) {
                    let (dx, dy) = (at.0 - s.pos[t].0, at.1 - s.pos[t].1);
                    let behind = is_behind(self.fighters[t].behind(), dx, dy, s.facing[t]);
                    let obstructed = self.display.obstructed(at, s.pos[t]);
                    let case = usize::from(behind) | usize::from(obstructed) << 1;
                    let (needed, value) = *cases[case].get_or_insert_with(|| {
                        let (_, needed) = self.needed(s, a, t, at, true);
                        (needed, self.value(s, a, t, needed))
                    });
                    f(Attack {
                        target: t,
                        at,
                        facing,
                        moved: true,
                        behind,
                        needed,
                        value,
                    });
                }
            }
        }
    }

    /// Whether `a` stands next to a conscious enemy (engaged for hero
    /// movement [5.21, 5.31]).
    #[inline]
    pub fn next_to_enemy(&self, s: &State, a: usize) -> bool {
        (0..s.n).any(|t| {
            self.fighters[t].side != self.fighters[a].side
                && s.fighting(t)
                && adjacent(s.pos[t].0 - s.pos[a].0, s.pos[t].1 - s.pos[a].1)
        })
    }

    /// Movements of a carrier [5.42]: heroes lose one extra movement,
    /// Carthoris and Vad Varo all of theirs, and no one has the
    /// once-per-duel extra.
    fn carrier_movements(&self, a: usize) -> u8 {
        let lost = self.special.rules.carrier_movements_lost;
        match self.fighters[a].movement {
            MovementKind::Normal | MovementKind::Leaper => 1,
            MovementKind::Hero => 2u8.saturating_sub(lost).max(1),
            MovementKind::JohnCarter => 3u8.saturating_sub(lost).max(1),
        }
    }

    /// Movements `a` may make this phase, and how many with his
    /// once-per-duel extra [5.2, 5.3].
    #[inline(always)]
    pub fn movements(&self, s: &State, a: usize) -> (u8, Option<u8>) {
        // One movement, engaged or not: no need to look round.
        if self.fighters[a].movement == MovementKind::Normal {
            return (1, None);
        }
        self.movements_of_movers(s, a)
    }

    /// [`Duel::movements`] of a fighter with more than one movement.
    fn movements_of_movers(&self, s: &State, a: usize) -> (u8, Option<u8>) {
        if self.next_to_enemy(s, a) {
            return (1, None);
        }
        if s.carrying[a] != 0 {
            return (self.carrier_movements(a), None);
        }
        let extra = !s.used_extra[a];
        match self.fighters[a].movement {
            MovementKind::Normal => (1, None),
            MovementKind::Hero => (2, None),
            MovementKind::JohnCarter => (3, extra.then_some(4)),
            MovementKind::Leaper => {
                if s.engaged[a] {
                    (2, extra.then_some(3))
                } else {
                    (3, None)
                }
            }
        }
    }

    /// The fighters `a` may melee from somewhere, bit per fighter
    /// [7.13-7.16]: those he closes on. Woola's flier rule [19.13] holds
    /// where a blow is struck from ([`Duel::may_target`]), so a foe across
    /// the gap from Woola is still one to reach (by crossing to his flier).
    #[inline(always)]
    pub fn targets(&self, s: &State, a: usize) -> u32 {
        self.enemies_among(s, a, s.fighting_mask())
    }

    /// The nearest of the fighters `among` (bit per fighter) from `at`, the
    /// first in scenario order on a tie, and the distance in boxes to him
    /// (the larger of the row and column gaps of the top-left boxes).
    #[inline(always)]
    pub(crate) fn nearest_of(&self, s: &State, among: u32, at: (i16, i16)) -> Option<(usize, i16)> {
        let mut best: Option<(usize, i16)> = None;
        let mut bits = among;
        while bits != 0 {
            let t = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let d = (s.pos[t].0 - at.0).abs().max((s.pos[t].1 - at.1).abs());
            if best.is_none_or(|(_, gap)| d < gap) {
                best = Some((t, d));
            }
        }
        best
    }

    /// The distance in boxes from `at` to the nearest conscious enemy of
    /// `a` (the larger of the row and column gaps of the top-left boxes).
    #[inline(always)]
    pub(crate) fn gap_to_enemy(&self, s: &State, a: usize, at: (i16, i16)) -> i16 {
        self.gap_among(s, self.targets(s, a), at)
    }

    /// The distance in boxes from `at` to the nearest of the fighters
    /// `among` (bit per fighter; `i16::MAX` if none).
    #[inline(always)]
    pub(crate) fn gap_among(&self, s: &State, among: u32, at: (i16, i16)) -> i16 {
        self.nearest_of(s, among, at)
            .map_or(i16::MAX, |(_, gap)| gap)
    }

    /// The nearest conscious enemy of `a` from `at`.
    #[inline]
    pub(crate) fn nearest_enemy(&self, s: &State, a: usize, at: (i16, i16)) -> Option<usize> {
        self.nearest_of(s, self.targets(s, a), at).map(|(t, _)| t)
    }

    /// The top-left boxes of the counters in `a`'s way [5.15], but those
    /// of `ignored` (bit per fighter), and how many there are.
    #[inline(always)]
    pub(crate) fn obstacles(
        &self,
        s: &State,
        a: usize,
        ignored: u32,
    ) -> ([(i16, i16); MAX_FIGHTERS], usize) {
        let mut others = [(0i16, 0i16); MAX_FIGHTERS];
        let mut k = 0;
        Picked {
            boxes: &s.pos,
            among: self.obstacle_mask(s, a) & !ignored,
        }
        .each(|x, y| {
            others[k] = (x, y);
            k += 1;
        });
        (others, k)
    }

    /// The counters in `a`'s way [5.15], bit per fighter.
    #[inline(always)]
    pub(crate) fn obstacle_mask(&self, s: &State, a: usize) -> u32 {
        let mut bits = 0;
        for i in 0..s.n {
            if i != a && s.blocks(i) {
                bits |= 1 << i;
            }
        }
        bits
    }

    /// The reach of `a` with `movements` movements.
    #[inline(always)]
    pub fn reach(&self, s: &State, a: usize, movements: u8) -> Reach {
        // A carrier does not jump [5.42].
        let jumps = self.fighters[a].movement.jumps() && movements >= 2 && s.carrying[a] == 0;
        Reach::compute_for(
            self.movement_display(s, a),
            s.pos[a],
            i16::from(movements) * STEPS_PER_MOVEMENT,
            Picked {
                boxes: &s.pos,
                among: self.obstacle_mask(s, a),
            },
            jumps,
            s.restricted == self.fighters[a].side + 1,
        )
    }

    /// Whether a move of `a` to `to` keeps to [7.21, 7.22]: on the open
    /// and street displays no one moves away from the enemy until melee is
    /// first joined.
    #[inline]
    pub fn keeps_closing(&self, s: &State, a: usize, to: (i16, i16)) -> bool {
        if !self.closing_rule_holds(s) {
            return true;
        }
        let targets = self.targets(s, a);
        self.keeps_closing_from(s, (targets, self.gap_among(s, targets, s.pos[a])), to)
    }

    /// [`Duel::keeps_closing`] for a fighter whose targets are `targets`
    /// (bit per fighter), the nearest `here` boxes from where he stands.
    #[inline(always)]
    pub(crate) fn keeps_closing_from(
        &self,
        s: &State,
        (targets, here): (u32, i16),
        to: (i16, i16),
    ) -> bool {
        !self.closing_rule_holds(s) || self.gap_among(s, targets, to) <= here
    }

    /// Whether no one may yet move away from the enemy [7.21, 7.22].
    #[inline(always)]
    fn closing_rule_holds(&self, s: &State) -> bool {
        !s.melee_joined && self.display.kind.no_retreat_before_melee()
    }
}
