//! Terrain on the field: areas of the kinds `battle-tables.toml` `[terrain]`
//! defines, laid out by a field scenario's `[[terrain]]` rectangles, and
//! what they change for movement and missiles [TERRAIN EFFECTS ON MOVEMENT:
//! Rough Ground, Broken Ground, Hills, Trees, Mountains; TERRAIN EFFECTS
//! UPON MISSILES; MISSILE FIRE TABLE adjustments]. A unit is in an area when
//! the centre of its front edge is. The rules give terrain no effect on
//! melee. Retreats go through the terrain behind a unit like any move.

use barsoom_engine::{Roll, Trace};

use super::battle::{BattleState, WomBattle};
use super::field::{self, V2};

/// One terrain area: a kind (index into `BattleTables::terrain`) on a
/// rectangle of the table, sides parallel to its edges.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Area {
    /// Index of its kind.
    pub kind: usize,
    /// Corner nearest the table's origin, inches.
    pub min: V2,
    /// Opposite corner, inches.
    pub max: V2,
}

impl Area {
    /// Whether `p` lies in the area (edges included).
    pub fn contains(&self, p: V2) -> bool {
        (0..2).all(|i| p[i] >= self.min[i] && p[i] <= self.max[i])
    }

    /// The part of the path `from + t·dir`, `0 <= t <= len`, inside the
    /// area, as `(t_in, t_out)`, if any (Liang–Barsky clipping).
    pub fn clip(&self, from: V2, dir: V2, len: f64) -> Option<(f64, f64)> {
        let (mut t0, mut t1) = (0.0_f64, len);
        for i in 0..2 {
            if dir[i] == 0.0 {
                if from[i] < self.min[i] || from[i] > self.max[i] {
                    return None;
                }
                continue;
            }
            let a = (self.min[i] - from[i]) / dir[i];
            let b = (self.max[i] - from[i]) / dir[i];
            t0 = t0.max(a.min(b));
            t1 = t1.min(a.max(b));
        }
        (t0 <= t1).then_some((t0, t1))
    }
}

/// What the terrain along a move does to it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PathEffect {
    /// Inches taken off the move (uphill, through trees, rough ground).
    pub penalty: f64,
    /// No charge along this path (through trees or broken ground, in
    /// mountains, down a steep hill).
    pub no_charge: bool,
    /// A formed unit must halt this far along (the edge of trees, broken
    /// ground).
    pub halt_at: Option<f64>,
    /// The move is made at half speed (mountains).
    pub half_speed: bool,
    /// A charge along it risks stumbles: the kind whose 2d6 totals and
    /// stunned turns apply (rough ground, mounted troops only).
    pub stumble: Option<usize>,
}

impl PathEffect {
    /// How far a move of `normal` inches gets along this path: half speed,
    /// less the penalties, no further than a halt.
    pub fn reach(&self, normal: f64) -> f64 {
        let speed = if self.half_speed {
            normal / 2.0
        } else {
            normal
        };
        let reach = (speed - self.penalty).max(0.0);
        self.halt_at.map_or(reach, |h| reach.min(h))
    }
}

impl WomBattle {
    /// The terrain effects on a move of unit `(s, u)` from `from` along
    /// `dir` for `len` inches [TERRAIN EFFECTS ON MOVEMENT]: going onto a
    /// hill costs its uphill penalty, entering or crossing trees or rough
    /// ground their penalty for the unit's kind of troops (each the largest,
    /// paid once); no charge enters trees, leaves a steep hill or touches
    /// broken ground or mountains; formed units halt where trees or broken
    /// ground begin; mountains halve the move; mounted troops charging
    /// across rough ground may stumble.
    pub fn path_effect(
        &self,
        st: &BattleState,
        s: usize,
        u: usize,
        from: V2,
        dir: V2,
        len: f64,
    ) -> PathEffect {
        let spec = self.spec_of(s, u);
        let skirmish = st.units[s][u].skirmish;
        let troops = if spec.troop.is_mounted() {
            2
        } else {
            usize::from(skirmish)
        };
        let mut uphill = 0;
        let mut through = 0;
        let mut effect = PathEffect::default();
        for area in &self.terrain {
            let Some((t_in, t_out)) = area.clip(from, dir, len) else {
                continue;
            };
            let kind = &self.tables.terrain[area.kind];
            let inside = area.contains(from);
            if !inside {
                uphill = uphill.max(kind.uphill);
                if !kind.charge_into {
                    effect.no_charge = true;
                }
                if !kind.formed && !skirmish {
                    effect.halt_at = Some(effect.halt_at.map_or(t_in, |h: f64| h.min(t_in)));
                }
            } else if t_out < len && !kind.charge_off {
                effect.no_charge = true;
            }
            effect.no_charge |= !kind.charge;
            effect.half_speed |= kind.half_speed;
            if kind.stumble != 0 && troops == 2 {
                effect.stumble = Some(area.kind);
            }
            through = through.max(kind.through[troops]);
        }
        effect.penalty = f64::from(uphill + through);
        effect
    }

    /// A mounted unit charging across ground where thoats stumble: a 2d6
    /// for each figure, and each that stumbles leaves its rider stunned
    /// for the kind's turns [TERRAIN EFFECTS ON MOVEMENT: Rough Ground]
    /// (ours: one roll a figure, 50 riders, as the rule's "each thot").
    pub(super) fn stumbles<T: Trace>(
        &self,
        st: &mut BattleState,
        s: usize,
        u: usize,
        kind: usize,
        dice: &mut impl Roll,
        trace: &mut T,
    ) {
        let k = &self.tables.terrain[kind];
        let mut fell = 0;
        for _ in 0..st.units[s][u].figures {
            let total = dice.d6() + dice.d6();
            if k.stumble & (1 << total) != 0 {
                fell += 1;
            }
        }
        if fell == 0 {
            return;
        }
        let unit = &mut st.units[s][u];
        unit.stunned = (unit.stunned + fell).min(unit.figures);
        unit.stunned_until = st.turn + k.stunned_turns - 1;
        trace.event("[TERRAIN EFFECTS ON MOVEMENT: Rough Ground]", || {
            format!(
                "{fell} figures of {} stumble charging across {}: stunned {} turns",
                self.spec_of(s, u).name,
                k.name,
                k.stunned_turns
            )
        });
    }

    /// Figures of `(s, u)` fit to fight or shoot: not stunned.
    pub fn fit_figures(&self, st: &BattleState, s: usize, u: usize) -> u32 {
        let unit = &st.units[s][u];
        unit.figures.saturating_sub(unit.stunned)
    }

    /// Moves unit `(s, u)` back a full move, facing as it was, through the
    /// terrain behind it [MORALE TABLE: retreat one full move; TERRAIN
    /// EFFECTS ON MOVEMENT]: slowed by its penalties and half speed, and a
    /// formed unit halts where trees or broken ground begin. Returns the
    /// inches it fell back.
    pub(super) fn retreat(&self, st: &mut BattleState, s: usize, u: usize) -> f64 {
        let normal = f64::from(self.moves(st, s, u).0);
        let unit = &st.units[s][u];
        let back = [-unit.facing[0], -unit.facing[1]];
        let reach = self
            .path_effect(st, s, u, unit.pos, back, normal)
            .reach(normal);
        self.step_forward(st, s, u, -reach);
        reach
    }

    /// The terrain areas the point `p` lies in.
    fn areas_at(&self, p: V2) -> impl Iterator<Item = &Area> {
        self.terrain.iter().filter(move |a| a.contains(p))
    }

    /// Whether terrain lets unit `(s, u)` shoot at enemy unit `e`: neither
    /// stands in an area where fire is barred (dense woods).
    pub fn terrain_lets_fire(&self, st: &BattleState, s: usize, u: usize, e: usize) -> bool {
        let blocked = |p: V2| self.areas_at(p).any(|a| !self.tables.terrain[a.kind].fire);
        !blocked(st.units[s][u].pos) && !blocked(st.units[1 - s][e].pos)
    }

    /// Percent of missile casualties unit `(s, u)` keeps from the cover of
    /// the terrain it stands in (the best cover of its areas; 100 in the
    /// open).
    pub fn terrain_cover_keep(&self, st: &BattleState, s: usize, u: usize) -> u64 {
        self.areas_at(st.units[s][u].pos)
            .map(|a| self.tables.terrain[a.kind].cover_keep)
            .fold(100, u64::min)
    }

    /// Whether unit `(s, u)` has a rank on higher ground than the ranks
    /// ahead of it: its rear stands on higher terrain, its front does not
    /// [TERRAIN EFFECTS UPON MISSILES].
    pub fn rank_on_higher_ground(&self, st: &BattleState, s: usize, u: usize) -> bool {
        if self.terrain.is_empty() {
            return false;
        }
        let unit = &st.units[s][u];
        let depth = self.footprint(st, s, u).depth;
        let rear = field::step(unit.pos, unit.facing, -depth);
        let higher = |p: V2| self.areas_at(p).any(|a| self.tables.terrain[a.kind].higher);
        higher(rear) && !higher(unit.pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_a_path_to_an_area() {
        let a = Area {
            kind: 0,
            min: [10.0, 10.0],
            max: [20.0, 15.0],
        };
        // Straight up through it: in at 10", out at 15".
        assert_eq!(a.clip([12.0, 0.0], [0.0, 1.0], 30.0), Some((10.0, 15.0)));
        // Stopping short of it.
        assert_eq!(a.clip([12.0, 0.0], [0.0, 1.0], 9.0), None);
        // Beside it.
        assert_eq!(a.clip([21.0, 0.0], [0.0, 1.0], 30.0), None);
        // Starting inside, leaving after 5" going down the table.
        assert_eq!(a.clip([15.0, 15.0], [0.0, -1.0], 8.0), Some((0.0, 5.0)));
        assert!(a.contains([20.0, 15.0]) && !a.contains([20.1, 15.0]));
    }
}
