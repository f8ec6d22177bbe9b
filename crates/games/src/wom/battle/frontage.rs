//! Frontage and overlapping: which figures of two units in melee touch,
//! the unopposed stands of the wider unit wrapping onto the enemy's flank or
//! rear, and a unit attacked in the flank or rear turning to face its
//! attacker (PART I, MELEE: only touching stands fight; Number of Ranks
//! Fighting; Overlapping; Flank Attack; Rear Attack).
//!
//! Readings (ours, see the model doc): a unit's frontage is its first
//! rank, `front` figures or all it has left, centred where its front stood,
//! so it shrinks as the last ranks go; a stand touches when some of it lies
//! opposite the enemy; the stands wrapping round stay part of their unit
//! (its footprint does not change) and fight the side they wrapped onto.

use barsoom_engine::Trace;

use super::battle::{Approach, Attack, BattleState, Status, WomBattle};
use super::field::{self, LEFT, REAR, RIGHT};

/// Tolerance for stand edges (inches).
const EPS: f64 = 1e-9;

/// Stands of a unit that have wrapped round onto another side of the enemy
/// they fight [MELEE: Overlapping].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wrap {
    /// Enemy unit index.
    pub target: usize,
    /// Figures that wrapped.
    pub figures: u32,
    /// The enemy's sides they stand on ([`LEFT`], [`RIGHT`] or [`REAR`]
    /// bits).
    pub sides: u8,
    /// Rounds they have fought.
    pub rounds: u32,
}

impl WomBattle {
    /// Figures in the first rank of `(s, u)` now: its `front`, or all it
    /// has left.
    pub fn front_figures(&self, st: &BattleState, s: usize, u: usize) -> u32 {
        st.units[s][u].figures.min(self.spec_of(s, u).front)
    }

    /// Stands of the first rank of `(s, u)` lying wholly within `len`
    /// inches of one end of its front (stands no enemy faces).
    fn stands_within(&self, st: &BattleState, s: usize, u: usize, len: f64) -> u32 {
        let f = &self.tables.field;
        let width = f.figure_width;
        if len + EPS < width {
            return 0;
        }
        let pitch = width
            + if st.units[s][u].skirmish {
                f.skirmish_spacing
            } else {
                0.0
            };
        let n = ((len - width) / pitch + EPS).floor() as u32 + 1;
        n.min(self.front_figures(st, s, u))
    }

    /// Ranks of `(s, u)` whose end figures touch `len` inches of its flank.
    fn ranks_within(&self, st: &BattleState, s: usize, u: usize, len: f64) -> u32 {
        let spec = self.spec_of(s, u);
        let f = &self.tables.field;
        let gap = if st.units[s][u].skirmish {
            f.skirmish_spacing
        } else {
            0.0
        };
        let rank = f.figure_depth[spec.troop.index()] + gap;
        let ranks = st.units[s][u]
            .figures
            .div_ceil(self.front_figures(st, s, u).max(1));
        ((len / rank - EPS).ceil().max(0.0) as u32).min(ranks)
    }

    /// Figures of attacker `(s, u)` and of its target that touch in the
    /// melee `a` [MELEE: only touching stands fight]: on the front or rear,
    /// the first-rank stands opposite each other; on a flank, the
    /// attacker's stands along the side and one figure of each rank of the
    /// defender it touches.
    pub fn contact(&self, st: &BattleState, s: usize, u: usize, a: &Attack) -> (u32, u32) {
        let e = a.target;
        let me = self.footprint(st, s, u);
        let them = self.footprint(st, 1 - s, e);
        let mine = self.front_figures(st, s, u);
        match a.approach {
            Approach::Front | Approach::Rear => {
                let x = field::across(&me, &them);
                let free = self.stands_within(st, s, u, x.a_left)
                    + self.stands_within(st, s, u, x.a_right);
                let theirs = self.front_figures(st, 1 - s, e);
                let their_free = self.stands_within(st, 1 - s, e, x.d_left)
                    + self.stands_within(st, 1 - s, e, x.d_right);
                (
                    mine.saturating_sub(free).min(self.fit_figures(st, s, u)),
                    theirs
                        .saturating_sub(their_free)
                        .min(self.fit_figures(st, 1 - s, e)),
                )
            }
            Approach::Flank => {
                let (touching, past_rear, ahead) = field::along_flank(&me, &them);
                let free =
                    self.stands_within(st, s, u, past_rear) + self.stands_within(st, s, u, ahead);
                (
                    mine.saturating_sub(free).min(self.fit_figures(st, s, u)),
                    self.ranks_within(st, 1 - s, e, touching)
                        .min(self.fit_figures(st, 1 - s, e)),
                )
            }
        }
    }

    /// Rounds in which the wrapped stands' blows are doubled and unanswered:
    /// a flank attack's, or a rear attack's when they wrapped onto the rear.
    pub fn wrap_doubled_rounds(&self, w: &Wrap) -> u32 {
        if w.sides & REAR != 0 {
            self.tables.rear_rounds
        } else {
            self.tables.flank_rounds
        }
    }

    /// Figures of `(s, u)`'s wrapped stands still fighting: no more than
    /// its first rank has beyond the figures in its frontal contact (the
    /// frontage shrinks as the last stands fall).
    pub fn wrap_figures(&self, st: &BattleState, s: usize, u: usize, w: &Wrap) -> u32 {
        let in_front = match self.front_melee(st, s, u) {
            Some((_, a)) if st.units[s][u].attack.is_some() => self.contact(st, s, u, &a).0,
            Some((e, a)) => self.contact(st, 1 - s, e, &a).1,
            None => 0,
        };
        w.figures
            .min(self.front_figures(st, s, u).saturating_sub(in_front))
            .min(self.fit_figures(st, s, u).saturating_sub(in_front))
    }

    /// Figures of `(s, u)` that strike back at enemy stands wrapped onto it
    /// once they have turned [MELEE: Flank Attack, Rear Attack]: the end
    /// figure of each rank on each flank they stand on, or its rear rank;
    /// no more than the wrapped figures.
    pub fn wrap_answer(&self, st: &BattleState, s: usize, u: usize, w: &Wrap) -> u32 {
        let facing = if w.sides & REAR != 0 {
            self.front_figures(st, s, u)
        } else {
            let depth = self.footprint(st, s, u).depth;
            self.ranks_within(st, s, u, depth) * (w.sides & (LEFT | RIGHT)).count_ones()
        };
        facing.min(w.figures)
    }

    /// The enemy unit `(s, u)` fights with its front or its own attack, and
    /// the melee between them: its own attack, or an enemy's frontal attack
    /// on it (seen from that enemy).
    fn front_melee(&self, st: &BattleState, s: usize, u: usize) -> Option<(usize, Attack)> {
        if let Some(a) = st.units[s][u].attack {
            return Some((a.target, a));
        }
        (0..st.counts[1 - s]).find_map(|e| {
            st.units[1 - s][e]
                .attack
                .filter(|a| a.target == u && a.approach == Approach::Front)
                .map(|a| (e, a))
        })
    }

    /// The movement turn of a unit in melee [MELEE: Overlapping, Flank
    /// Attack, Rear Attack]: a unit attacked in the flank or rear by one
    /// enemy and fighting nobody else turns to face it once the unanswered
    /// rounds are over; the stands of a unit that have had a round of melee
    /// and face no enemy wrap onto the enemy's flanks (from its front or
    /// rear) or rear (from its flank), unless enemy troops stand there.
    pub(super) fn melee_move<T: Trace>(
        &self,
        st: &mut BattleState,
        s: usize,
        u: usize,
        trace: &mut T,
    ) {
        if st.units[s][u].status != Status::Active {
            return;
        }
        // Its stands keep closed up on the side of the enemy it attacks
        // (ours; see `field::square_up`).
        if let Some(a) = st.units[s][u].attack {
            let (me, them) = (
                self.footprint(st, s, u),
                self.footprint(st, 1 - s, a.target),
            );
            let (pos, facing) = field::square_up(&me, &them, a.approach);
            st.units[s][u].pos = pos;
            st.units[s][u].facing = facing;
        }
        if self.turn_to_attacker(st, s, u, trace) || st.units[s][u].wrap.is_some() {
            return;
        }
        let Some((e, a)) = self.front_melee(st, s, u) else {
            return;
        };
        if a.rounds == 0 || !st.units[1 - s][e].on_field() {
            return;
        }
        let me = self.footprint(st, s, u);
        let them = self.footprint(st, 1 - s, e);
        // Its own attack on a flank wraps onto the rear; a frontal or rear
        // contact (its own or an enemy's on its front) onto the flanks.
        let offers: [(u8, f64); 2] = if st.units[s][u]
            .attack
            .is_some_and(|a| a.approach == Approach::Flank)
        {
            let (_, past_rear, _) = field::along_flank(&me, &them);
            [(REAR, past_rear), (0, 0.0)]
        } else {
            let x = field::across(&me, &them);
            [(LEFT, x.a_left), (RIGHT, x.a_right)]
        };
        let mut figures = 0;
        let mut sides = 0;
        for (side, reach) in offers {
            let n = self.stands_within(st, s, u, reach);
            if side == 0 || n == 0 {
                continue;
            }
            // It can be stopped by enemy troops in the way.
            let zone = field::wrap_zone(&them, side, reach);
            let blocked = (0..st.counts[1 - s]).any(|o| {
                o != e
                    && st.units[1 - s][o].on_field()
                    && field::overlaps(&zone, &self.footprint(st, 1 - s, o))
            });
            if !blocked {
                figures += n;
                sides |= side;
            }
        }
        if figures == 0 {
            return;
        }
        st.units[s][u].wrap = Some(Wrap {
            target: e,
            figures,
            sides,
            rounds: 0,
        });
        let enemy = &mut st.units[1 - s][e];
        if sides & REAR != 0 {
            enemy.rear_attacked = true;
        } else {
            enemy.flanked = true;
        }
        enemy.check_due = true;
        trace.event("[MELEE: Overlapping]", || {
            let onto = match sides {
                REAR => "rear",
                LEFT => "left flank",
                RIGHT => "right flank",
                _ => "both flanks",
            };
            format!(
                "{figures} unopposed figures of {} wrap onto the {onto} of {}",
                self.spec_of(s, u).name,
                self.spec_of(1 - s, e).name
            )
        });
    }

    /// A unit attacked in the flank or rear turns to face its attacker once
    /// the doubled, unanswered rounds are over [MELEE: Flank Attack, Rear
    /// Attack: "the flanked troops turn"], when that attacker is the only
    /// enemy in melee with it and it attacks nobody (ours: a unit held by
    /// an enemy elsewhere turns only the files that touch; see `contact`).
    /// It faces about where the attacker's front stands, so the two fronts
    /// meet; from then on the melee is frontal. Returns whether it turned.
    fn turn_to_attacker<T: Trace>(
        &self,
        st: &mut BattleState,
        s: usize,
        u: usize,
        trace: &mut T,
    ) -> bool {
        if st.units[s][u].attack.is_some() {
            return false;
        }
        let mut only = None;
        for e in 0..st.counts[1 - s] {
            let enemy = &st.units[1 - s][e];
            let attacks = enemy.attack.is_some_and(|a| a.target == u);
            let wraps = enemy.wrap.is_some_and(|w| w.target == u);
            if attacks || wraps {
                if only.is_some() || wraps {
                    return false;
                }
                only = Some(e);
            }
        }
        let Some(e) = only else { return false };
        let Some(a) = st.units[1 - s][e].attack else {
            return false;
        };
        if a.approach == Approach::Front || !self.returns_blows(&a) {
            return false;
        }
        let (pos, facing) = (st.units[1 - s][e].pos, st.units[1 - s][e].facing);
        let unit = &mut st.units[s][u];
        unit.pos = pos;
        unit.facing = [-facing[0], -facing[1]];
        if let Some(att) = st.units[1 - s][e].attack.as_mut() {
            att.approach = Approach::Front;
        }
        trace.event("[MELEE: Flank Attack]", || {
            format!(
                "{} turns to face {} ({:?} attack)",
                self.spec_of(s, u).name,
                self.spec_of(1 - s, e).name,
                a.approach
            )
        });
        true
    }
}
