//! The air war reaching the ground [Air-to-Ground Combat; Fire at
//! Structures; Troops Landing; Bombing Ground Targets; Ground-to-Air Fire;
//! Radium Rifle Fire]: fliers' orders against ground targets, their guns
//! and bombs on troops and structures, fire from the ground at fliers,
//! and troops landed or dropped to fight the defenders in a `wom.battle`
//! melee. Nothing here runs in a battle without ground targets.

use barsoom_engine::{Dice, Roll, Trace};

use super::{Battle, MAX_SHIPS, WomAir, roll_2d6};
use crate::wom::air::damage::{NONE, ShipState, ceiling, max_speed};
use crate::wom::air::fire::range_band_squared;
use crate::wom::air::geometry::{
    Point, arc_of, can_lay, heading_of, segment_distance2, step, turned,
};
use crate::wom::air::ground::{
    GroundKind, GroundState, MAX_GROUND, ground_bomb_damage, ground_bomb_score, gun_hit_parts,
};
use crate::wom::air::ships::Figure;
use crate::wom::air::tactics::{Orders, Tactic};
use crate::wom::battle::battle::OUT_FIRST_WINS;
use crate::wom::battle::tables::PARTS;

/// Who fires a shot at a flier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Who {
    /// A flier (its index).
    Ship(usize),
    /// A ground target (its index).
    Ground(usize),
}

/// A gun (or rifle) firing at a flier, wherever it stands.
#[derive(Debug, Clone, Copy)]
pub(super) struct Shooter {
    /// Where it stands.
    pub pos: Point,
    /// Its altitude, tenths (0 on the ground).
    pub alt: i32,
    /// Gun type index.
    pub gun: usize,
    /// Who fires, for the trace.
    pub who: Who,
    /// Taken off the score needed (the Green rifle bonus).
    pub bonus: i32,
    /// Hits pick the crew where the facing shows it (an ambush's first turn).
    pub pick_crew: bool,
}

impl<'m> Battle<'m> {
    pub(super) fn ground_start(m: &WomAir) -> [GroundState; MAX_GROUND] {
        let mut g = [GroundState::default(); MAX_GROUND];
        if let Some(w) = &m.ground {
            for (k, t) in w.targets.iter().enumerate() {
                g[k] = GroundState::new(t);
            }
        }
        g
    }

    pub(super) fn shooter_name(&self, who: Who) -> String {
        match who {
            Who::Ship(i) => self.name(i).to_string(),
            Who::Ground(k) => self
                .m
                .ground
                .as_ref()
                .map_or_else(String::new, |w| w.targets[k].name.clone()),
        }
    }

    /// Whether an objective ground target of `side` still stands: a side
    /// holding ground cannot break off (our reading).
    pub(super) fn ground_holds(&self, side: usize) -> bool {
        self.m.ground.as_ref().is_some_and(|w| {
            w.targets
                .iter()
                .enumerate()
                .any(|(k, t)| t.side == side && t.objective && !self.g[k].gone)
        })
    }

    /// Whether `side` can still harm the enemy across the air-ground line:
    /// fliers with guns, bombs, or troops to land where their landing zone
    /// still holds out, while enemy ground stands; emplacement guns or rifles while enemy fliers fly; troops
    /// of its own in the air.
    pub(super) fn ground_can_harm(&self, side: usize) -> bool {
        let Some(w) = &self.m.ground else {
            return false;
        };
        let data = &self.m.data;
        let enemy_ground = w
            .targets
            .iter()
            .enumerate()
            .any(|(k, t)| t.side != side && !self.g[k].gone);
        let enemy_fliers = (0..self.n).any(|j| self.side(j) != side && self.s[j].active());
        let fliers = enemy_ground
            && (0..self.n).any(|i| {
                let me = &self.s[i];
                if self.side(i) != side || !me.active() {
                    return false;
                }
                let class = &data.classes[self.m.ships[i].class];
                let power = max_speed(me, class, data) > 0;
                (me.figures[Figure::Gunners as usize] > 0 && me.guns.iter().any(|&g| g > 0))
                    || (power && me.hands() && me.bombs > 0)
                    || (power
                        && me.figures[Figure::Troops as usize] > 0
                        && w.landing_of(i).is_some_and(|l| !self.g[l.target].gone))
            });
        let ground = enemy_fliers
            && w.targets.iter().enumerate().any(|(k, t)| {
                t.side == side
                    && !self.g[k].gone
                    && match &t.kind {
                        GroundKind::Structure { kind, guns } => {
                            *guns > 0 && w.data.structures[*kind].gun.is_some()
                        }
                        GroundKind::Troops { unit, .. } => unit.weapon == Some(w.rifle_weapon),
                    }
            });
        let in_the_air = (0..self.n).any(|i| self.side(i) == side && self.descending[i] > 0);
        fliers || ground || in_the_air
    }

    /// Orders against the ground, over the side's tactic: a flier with
    /// landing orders and troops aboard makes for its landing zone (down
    /// to the ground, or to the drop altitude, slowing to drop); once no
    /// enemy flier is left in the air, the others attack the nearest enemy
    /// ground target: bombers pass over it, the rest stand off at their
    /// guns' short range, low and broadside on (our reading).
    pub(super) fn ground_orders(&mut self, side: Option<usize>) {
        let Some(w) = &self.m.ground else {
            return;
        };
        let data = &self.m.data;
        let gd = &w.data;
        let step_alt = data.movement.altitude_step;
        for i in 0..self.n {
            let me = self.s[i];
            if side.is_some_and(|s| s != self.side(i)) || !me.active() || me.grappled() {
                continue;
            }
            let class = &data.classes[self.m.ships[i].class];
            let full = max_speed(&me, class, data);
            let climb = |alt: i32| (alt.clamp(0, ceiling(&me, class, data)) - me.alt) / step_alt;
            let hold = |speed: i32, alt: i32, aim: Point, face: Option<u8>| Orders {
                speed,
                climb: climb(alt),
                aim: Some(aim),
                face,
                grapple: NONE,
                cut: true,
                evasive: false,
            };
            if let Some(l) = w.landing_of(i)
                && me.figures[Figure::Troops as usize] > 0
                && !self.g[l.target].gone
            {
                let zone = w.targets[l.target].pos;
                let alt = if l.drop { gd.drop_altitude } else { 0 };
                let speed = if me.alt != alt {
                    full
                } else if l.drop {
                    full.min(gd.drop_speed).min(zone.minus(me.pos).length())
                } else {
                    full.min(zone.minus(me.pos).length())
                };
                self.orders[i] = hold(speed, alt, zone, None);
                continue;
            }
            let side_i = self.side(i);
            if (0..self.n).any(|j| self.side(j) != side_i && self.s[j].active()) {
                continue;
            }
            let Some(k) = self.nearest_ground(side_i, me.pos) else {
                continue;
            };
            let at = w.targets[k].pos;
            let cannot_fire =
                me.figures[Figure::Gunners as usize] == 0 || me.guns.iter().all(|&g| g == 0);
            let bomber = me.bombs > 0
                && me.hands()
                && (self.tactic[side_i] == Tactic::Bombers || cannot_fire);
            self.orders[i] = if bomber {
                hold(full, me.alt.max(gd.attack_altitude), at, None)
            } else {
                let short = data.guns[class.gun].short;
                let wanted = (short - 10).max(10);
                let off = at.minus(me.pos).length();
                let bearing = heading_of(at.minus(me.pos));
                if off > wanted + 10 {
                    let station = step(at, heading_of(me.pos.minus(at)), wanted);
                    hold(full, gd.attack_altitude, station, None)
                } else {
                    hold(0, gd.attack_altitude, me.pos, Some(turned(bearing, 6)))
                }
            };
        }
    }

    /// The nearest standing ground target of `side`'s enemy to `from`.
    fn nearest_ground(&self, side: usize, from: Point) -> Option<usize> {
        let w = self.m.ground.as_ref()?;
        (0..w.targets.len())
            .filter(|&k| w.targets[k].side != side && !self.g[k].gone)
            .min_by_key(|&k| w.targets[k].pos.minus(from).norm2())
    }

    /// The ground target ship `i` (standing as `a`) aims guns of arcs
    /// `bearing` at, if no flier is in them: the nearest standing enemy
    /// target they can be laid on; troops only within short range.
    pub(super) fn ground_target(&self, a: &ShipState, i: usize, bearing: u8) -> Option<usize> {
        let w = self.m.ground.as_ref()?;
        let data = &self.m.data;
        let gun = &data.guns[data.classes[self.m.ships[i].class].gun];
        (0..w.targets.len())
            .filter(|&k| {
                let t = &w.targets[k];
                let h2 = t.pos.minus(a.pos).norm2();
                t.side != self.side(i)
                    && !self.g[k].gone
                    && arc_of(a.pos, a.heading, t.pos) & bearing != 0
                    && can_lay(a.alt, 0, h2, gun.tan_elevation, gun.tan_depression)
                    && (t.unit().is_none() || h2 <= i64::from(gun.short).pow(2))
            })
            .min_by_key(|&k| w.targets[k].pos.minus(a.pos).norm2())
    }

    /// One gun of ship `i` (standing as `a`) fires at ground target `k`
    /// [Air-to-Ground Combat: Fire; Fire at Structures]: troops are fired
    /// on at short range and a hit kills the gun's worth of radium rifles
    /// on the MISSILE FIRE TABLE; a structure is fired on by range and a
    /// hit does the gun's damage against its defence value.
    pub(super) fn ground_shot<R: Roll, T: Trace>(
        &mut self,
        a: &ShipState,
        i: usize,
        k: usize,
        dice: &mut R,
        trace: &mut T,
    ) {
        let Some(w) = &self.m.ground else {
            return;
        };
        let data = &self.m.data;
        let gun = &data.guns[data.classes[self.m.ships[i].class].gun];
        let t = &w.targets[k];
        let (band, size) = match &t.kind {
            GroundKind::Troops { .. } => (0, w.data.troop_size),
            GroundKind::Structure { kind, .. } => {
                let dz = i64::from(a.alt);
                let range2 = t.pos.minus(a.pos).norm2() + dz * dz;
                (
                    range_band_squared(gun, range2),
                    w.data.structures[*kind].size,
                )
            }
        };
        // Ground targets do not move: -1 [To Hit, All Weapons].
        let need = data.to_hit[band][size] + data.stationary;
        let roll = roll_2d6(dice);
        if T::ENABLED {
            let (shooter, target, gname) = (self.name(i).to_string(), &t.name, &gun.name);
            trace.event("WoM air Air-to-Ground Combat", || {
                format!(
                    "{shooter} {gname} at {target} ({}): needs {need} (stationary -1), rolls {roll}: {}",
                    ["short", "medium", "long"][band],
                    if roll as i32 >= need { "hit" } else { "miss" }
                )
            });
        }
        if (roll as i32) < need {
            return;
        }
        self.hurt_ground(k, gun.damage, true, trace);
    }

    /// `points` of damage to ground target `k`: a structure takes them
    /// against its defence value; troops lose a gun's worth of rifle fire
    /// (`gun`) or, from a bomb, the figures in its blast.
    fn hurt_ground<T: Trace>(&mut self, k: usize, points: u32, gun: bool, trace: &mut T) {
        let Some(w) = &self.m.ground else {
            return;
        };
        let t = &w.targets[k];
        let side = t.side;
        let was_gone = self.g[k].gone;
        let (case, what) = match &t.kind {
            GroundKind::Structure { kind, .. } => {
                let defence = w.data.structures[*kind].defence;
                let st = &mut self.g[k];
                let before = st.damage;
                st.damage = (st.damage + points).min(defence);
                self.structure_damage[side] += st.damage - before;
                st.gone = st.damage >= defence;
                let (dmg, gone) = (st.damage, st.gone);
                (
                    "WoM air Fire at Structures",
                    format!(
                        "{} takes {points} points: {dmg} of {defence}{}",
                        t.name,
                        if gone { ": destroyed" } else { "" }
                    ),
                )
            }
            GroundKind::Troops { unit, .. } => {
                let parts = if gun {
                    gun_hit_parts(&w.tables, w.rifle_weapon, points, unit)
                } else if points > 0 {
                    u64::from(w.data.blast_figures) * PARTS
                } else {
                    0
                };
                let lost = self.g[k].add_parts(parts);
                self.ground_casualties[side] += lost;
                let left = self.g[k].figures;
                (
                    "WoM air Air-to-Ground Combat",
                    format!(
                        "{} loses {lost} figures ({:.2} of a figure's casualties): {left} left",
                        t.name,
                        parts as f64 / PARTS as f64
                    ),
                )
            }
        };
        if self.g[k].gone && !was_gone {
            self.ground_lost[side] += 1;
        }
        if T::ENABLED {
            trace.event(case, || what);
        }
    }

    /// Keel bombs of ship `i` on the nearest enemy ground target its move
    /// passed over [Bombing Ground Targets; Bombing Table, Ground
    /// Targets]: structures, and troops out of hard cover. Returns whether
    /// it bombed.
    pub(super) fn ground_bombing<R: Roll, T: Trace>(
        &mut self,
        i: usize,
        dice: &mut R,
        trace: &mut T,
    ) -> bool {
        let Some(w) = &self.m.ground else {
            return false;
        };
        let me = self.s[i];
        let data = &self.m.data;
        let gd = &w.data;
        let reach = i64::from(data.movement.overfly_distance).pow(2);
        let exposed = |k: usize| match &w.targets[k].kind {
            GroundKind::Structure { .. } => true,
            GroundKind::Troops { unit, .. } => unit.cover_keep > w.tables.hard_cover_keep,
        };
        let Some(k) = (0..w.targets.len())
            .filter(|&k| {
                w.targets[k].side != self.side(i)
                    && !self.g[k].gone
                    && exposed(k)
                    && segment_distance2(me.from, me.pos, w.targets[k].pos) <= reach
            })
            .min_by_key(|&k| segment_distance2(me.from, me.pos, w.targets[k].pos))
        else {
            return false;
        };
        let class = &data.classes[self.m.ships[i].class];
        let drops = me.bombs.min(class.bombs_per_turn);
        self.s[i].bombs -= drops;
        let t = &w.targets[k];
        let modifier = match &t.kind {
            GroundKind::Structure { kind, .. } => gd.structures[*kind].bombing,
            GroundKind::Troops { .. } => 0,
        };
        let under_fire = self.heavy_fire_before & (1 << i) != 0;
        let need = ground_bomb_score(
            gd,
            modifier,
            me.alt > gd.bomb_far_below_distance,
            under_fire,
            t.marked,
        );
        for _ in 0..drops {
            let roll = roll_2d6(dice) as i32;
            let points = ground_bomb_damage(gd, roll, need);
            if T::ENABLED {
                let (ni, nt) = (self.name(i).to_string(), &t.name);
                trace.event("WoM air Bombing Table, Ground Targets", || {
                    format!(
                        "{ni} bombs {nt}: needs {need} on 2d6, rolls {roll}: {}",
                        match points {
                            0 => "miss".to_string(),
                            p if p < gd.bomb_damage => format!("near miss, {p} points"),
                            p => format!("hit, {p} points"),
                        }
                    )
                });
            }
            if points > 0 && !self.g[k].gone {
                self.hurt_ground(k, points, false, trace);
            }
        }
        true
    }

    /// Fire from the ground at fliers [Ground-to-Air Fire; Radium Rifle
    /// Fire]: every emplacement's guns and every rifle-armed unit of `side`
    /// (both sides when `None`), as they stood when the phase began. Guns
    /// fire at the nearest flier they can be laid on within the
    /// ground-sited limits; each rifle figure fires one shot (Green rifles
    /// +1 to hit), at troops descending onto the unit first, as a volley
    /// on the MISSILE FIRE TABLE.
    pub(super) fn ground_fire<R: Roll, T: Trace>(
        &mut self,
        side: Option<usize>,
        before: &[ShipState; MAX_SHIPS],
        ground_before: &[GroundState; MAX_GROUND],
        dice: &mut R,
        trace: &mut T,
    ) {
        let Some(w) = &self.m.ground else {
            return;
        };
        let data = &self.m.data;
        for (k, t) in w.targets.iter().enumerate() {
            if side.is_some_and(|s| s != t.side) || ground_before[k].gone {
                continue;
            }
            let (gun, shots, bonus, pick_crew) = match &t.kind {
                GroundKind::Structure { kind, guns } => match w.data.structures[*kind].gun {
                    Some(gun) => (gun, u32::from(*guns), 0, false),
                    None => continue,
                },
                GroundKind::Troops { unit, ambush } => {
                    if unit.weapon != Some(w.rifle_weapon) {
                        continue;
                    }
                    let figures = ground_before[k].figures;
                    if self.rifles_at_descent(k, figures, trace) {
                        continue;
                    }
                    let green = i32::from(unit.troop.is_green());
                    (w.data.rifle, figures, green, *ambush && !self.g[k].fired)
                }
            };
            let g = &data.guns[gun];
            let heavy = g.id == "heavy";
            let mut fired = false;
            for _ in 0..shots {
                let target = (0..self.n)
                    .filter(|&j| {
                        let b = &before[j];
                        self.side(j) != t.side
                            && b.active()
                            && can_lay(
                                0,
                                b.alt,
                                b.pos.minus(t.pos).norm2(),
                                g.tan_ground_elevation,
                                g.tan_ground_depression,
                            )
                    })
                    .min_by_key(|&j| {
                        let b = &before[j];
                        b.pos.minus(t.pos).norm2() + i64::from(b.alt).pow(2)
                    });
                let Some(j) = target else {
                    if T::ENABLED && !fired {
                        let (name, gname) = (&t.name, &g.name);
                        trace.event("WoM air Elevation and Depression of Guns", || {
                            format!("{name}: no flier within the ground-sited {gname}'s elevation")
                        });
                    }
                    break;
                };
                fired = true;
                if heavy {
                    self.heavy_fire |= 1 << j;
                }
                let from = Shooter {
                    pos: t.pos,
                    alt: 0,
                    gun,
                    who: Who::Ground(k),
                    bonus,
                    pick_crew,
                };
                self.shot_from(from, &before[j], j, dice, trace);
            }
            if fired {
                self.g[k].fired = true;
            }
        }
    }

    /// Rifle unit `k` with `figures` firing at troops descending onto it by
    /// equilibrimotor [Troops Landing: normal targets for rifle fire], as
    /// a volley on the MISSILE FIRE TABLE. Returns whether it fired.
    fn rifles_at_descent<T: Trace>(&mut self, k: usize, figures: u32, trace: &mut T) -> bool {
        let Some(w) = &self.m.ground else {
            return false;
        };
        let Some(i) = (0..self.n)
            .find(|&i| self.descending[i] > 0 && w.landing_of(i).is_some_and(|l| l.target == k))
        else {
            return false;
        };
        let Some(l) = w.landing_of(i) else {
            return false;
        };
        let Some(unit) = w.targets[k].unit() else {
            return false;
        };
        let t = &w.tables;
        let mut per_firer = t.weapons[w.rifle_weapon].parts_per_firer[l.troop.index()];
        if unit.troop.is_green() {
            per_firer += t.green_rifle_parts;
        }
        self.descent_parts[i] += u64::from(figures) * per_firer;
        let lost = (self.descent_parts[i] / PARTS).min(u64::from(self.descending[i])) as u16;
        self.descent_parts[i] -= u64::from(lost) * PARTS;
        self.descending[i] -= lost;
        self.ground_casualties[self.side(i)] += u32::from(lost);
        if T::ENABLED {
            let (name, ship, left) = (
                &w.targets[k].name,
                self.name(i).to_string(),
                self.descending[i],
            );
            trace.event("WoM air Troops Landing", || {
                format!("{name}: {figures} rifles fire at {ship}'s troops descending: {lost} fall, {left} left")
            });
        }
        true
    }

    /// Fliers of `side` (both when `None`) under landing orders over
    /// their landing zone put their troops down [Troops Landing]: landed
    /// on the ground they fight at once; dropped by equilibrimotor (at the
    /// drop altitude, moving slowly) they descend through the next turn.
    pub(super) fn landings<T: Trace>(
        &mut self,
        side: Option<usize>,
        dice: &mut Dice,
        trace: &mut T,
    ) {
        let Some(w) = &self.m.ground else {
            return;
        };
        let gd = &w.data;
        for l in &w.landings {
            let i = l.ship;
            let me = self.s[i];
            let troops = me.figures[Figure::Troops as usize];
            if side.is_some_and(|s| s != self.side(i))
                || !me.active()
                || troops == 0
                || self.g[l.target].gone
            {
                continue;
            }
            let zone = w.targets[l.target].pos;
            let near = i64::from(gd.land_distance).pow(2);
            if l.drop {
                if me.alt == gd.drop_altitude
                    && me.moved() <= gd.drop_speed
                    && segment_distance2(me.from, me.pos, zone) <= near
                {
                    self.s[i].figures[Figure::Troops as usize] = 0;
                    self.descending[i] = troops;
                    self.drop_turn[i] = self.turn;
                    if T::ENABLED {
                        let name = self.name(i).to_string();
                        trace.event("WoM air Troops Landing", || {
                            format!(
                                "{name} drops {troops} equilibrimotor troops over {}",
                                w.targets[l.target].name
                            )
                        });
                    }
                }
            } else if me.alt == 0 && zone.minus(me.pos).norm2() <= near {
                self.s[i].figures[Figure::Troops as usize] = 0;
                if T::ENABLED {
                    let name = self.name(i).to_string();
                    trace.event("WoM air Troops Landing", || {
                        format!("{name} sets down and disembarks {troops} troops")
                    });
                }
                self.melee_on_landing(i, u32::from(troops), dice, trace);
            }
        }
    }

    /// Troops dropped in an earlier turn reach the ground and fight: they
    /// were dropped in one turn's landing step and fired on through the
    /// next.
    pub(super) fn descents<T: Trace>(&mut self, dice: &mut Dice, trace: &mut T) {
        for i in 0..self.n {
            let figures = self.descending[i];
            if figures > 0 && self.drop_turn[i] < self.turn {
                self.descending[i] = 0;
                self.descent_parts[i] = 0;
                self.melee_on_landing(i, u32::from(figures), dice, trace);
            }
        }
    }

    /// `figures` landed from ship `i` fight the defenders of its landing
    /// zone: a `wom.battle` melee between the two units, played to its end
    /// with that model's one-axis resolution [Troops Landing].
    fn melee_on_landing<T: Trace>(
        &mut self,
        i: usize,
        figures: u32,
        dice: &mut Dice,
        trace: &mut T,
    ) {
        let Some(w) = &self.m.ground else {
            return;
        };
        let Some(l) = w.landing_of(i) else {
            return;
        };
        let k = l.target;
        self.troops_landed += figures;
        if self.g[k].gone {
            return;
        }
        let mut st = l.melee.initial_state();
        st.units[0][0].figures = figures;
        st.units[1][0].figures = self.g[k].figures;
        let outcome = l.melee.play(&mut st, dice, trace);
        let (attackers_left, defenders_left) = (st.units[0][0].figures, st.units[1][0].figures);
        let side = self.side(i);
        self.ground_casualties[side] += figures - attackers_left.min(figures);
        self.ground_casualties[1 - side] +=
            self.g[k].figures - defenders_left.min(self.g[k].figures);
        self.g[k].figures = defenders_left;
        let won = outcome == OUT_FIRST_WINS;
        if won || defenders_left == 0 {
            self.g[k].gone = true;
            self.ground_lost[1 - side] += 1;
        }
        if won {
            self.landings_won += 1;
        }
        if T::ENABLED {
            let (name, target) = (self.name(i).to_string(), &w.targets[k].name);
            trace.event("WoM air Troops Landing", || {
                format!(
                    "{name}'s {figures} troops fight {target}: {} ({attackers_left} landed and {defenders_left} defenders left)",
                    if won { "the landing wins the ground" } else { "the defenders hold" }
                )
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wom::air::battle::tests::bundled;
    use crate::wom::air::damage::Status;
    use barsoom_engine::{NoTrace, ScriptedDice};

    const FORT: &str = "helium-cruisers-bomb-zodangan-fort";
    const LANDING: &str = "helium-transports-land-troops-under-fire";
    const AMBUSH: &str = "thark-ambush-over-a-dead-city";

    fn place(b: &mut Battle, i: usize, x: i32, y: i32, alt: i32, heading: u8) {
        let st = &mut b.s[i];
        (st.pos, st.from, st.alt, st.from_alt, st.heading) =
            (Point::new(x, y), Point::new(x, y), alt, alt, heading);
    }

    #[test]
    fn a_medium_gun_converted_to_the_missile_table_kills_troops() {
        // [Air-to-Ground Combat: Fire], the booklet's example: a medium gun
        // is worth 30 radium rifles; 10 rifles kill 5 human infantry, half
        // behind hard cover: each hit kills 7-1/2 figures. The fort's
        // garrison (10 figures, hard cover) stands at (0, 0.5").
        let m = bundled(FORT);
        let mut b = Battle::new(&m);
        place(&mut b, 0, 0, -30, 5, 0);
        let me = b.s[0];
        // A medium target at short range, -1 stationary: 6. A 5 misses.
        let mut dice = ScriptedDice::new(&[2, 3, 3, 3]);
        b.ground_shot(&me, 0, 3, &mut dice, &mut NoTrace);
        assert_eq!(b.g[3].figures, 10);
        b.ground_shot(&me, 0, 3, &mut dice, &mut NoTrace);
        assert!(dice.all_used());
        // 7 whole figures fall; the half is kept.
        assert_eq!((b.g[3].figures, b.g[3].parts), (3, PARTS / 2));
        assert_eq!(b.ground_casualties, [0, 7]);
        // A second hit: 7-1/2 + 1/2 = 8 more, only 3 left: wiped out.
        b.ground_shot(&me, 0, 3, &mut ScriptedDice::new(&[6, 6]), &mut NoTrace);
        assert!(b.g[3].gone);
        assert_eq!((b.ground_casualties, b.ground_lost), ([0, 10], [0, 1]));
        // Not an objective: Zodanga still holds the fort.
        assert!(b.ground_holds(1));
        // Troops are fired on only within the gun's short range (6"): from
        // 6" off the garrison (the structures out of the way) but not 6.5".
        let mut b = Battle::new(&m);
        for k in [0, 1, 2] {
            b.g[k].gone = true;
        }
        let all = 0b1111;
        place(&mut b, 0, 0, -55, 0, 0);
        assert_eq!(b.ground_target(&b.s[0].clone(), 0, all), Some(3));
        place(&mut b, 0, 0, -60, 0, 0);
        assert_eq!(b.ground_target(&b.s[0].clone(), 0, all), None);
    }

    #[test]
    fn bombs_on_a_structure_hit_near_miss_and_miss() {
        // [Bombing Table, Ground Targets]: the small fort at the origin, a
        // cruiser passing over it 1-1/2" up: base 8, +1 small fort, +1 more
        // than 1" below: 10. An 11 hits for 1,000, a 10 near-misses for
        // 100, under 10 misses. The cruiser drops its 10 bombs a turn.
        let m = bundled(FORT);
        let mut b = Battle::new(&m);
        place(&mut b, 0, -30, 0, 15, 0);
        b.s[0].pos = Point::new(30, 0);
        b.s[1].status = Status::Destroyed;
        let mut rolls = vec![5, 6, 5, 5];
        rolls.extend([1; 16]);
        let mut dice = ScriptedDice::new(&rolls);
        b.bombing(None, &mut dice, &mut NoTrace);
        assert!(dice.all_used());
        assert_eq!((b.g[0].damage, b.structure_damage[1]), (1100, 1100));
        assert_eq!(b.s[0].bombs, 20);
        // Under heavy gun fire the turn before: +1, so an 11 is a near miss.
        b.heavy_fire_before = 1;
        let mut rolls = vec![5, 6];
        rolls.extend([1; 18]);
        b.bombing(None, &mut ScriptedDice::new(&rolls), &mut NoTrace);
        assert_eq!(b.g[0].damage, 1200);
        // Enough hits destroy it (3,000 defence): Zodanga no longer holds.
        b.bombing(None, &mut ScriptedDice::new(&[6; 20]), &mut NoTrace);
        assert!(b.g[0].gone);
        assert_eq!(b.g[0].damage, 3000);
        assert!(!b.ground_holds(1));
    }

    #[test]
    fn a_rifle_volley_at_a_flier_and_the_ambush_picks_the_crew() {
        // [Ground-to-Air Fire; Radium Rifle Fire]: 20 Tharks at (0, 1") fire
        // at the large scout 1" west of them at 1/2", bow on. A small
        // target at short range, -1 stationary, -1 Green rifles: 6.
        let m = bundled(AMBUSH);
        let mut b = Battle::new(&m);
        place(&mut b, 0, -10, 10, 5, 0);
        b.s[1].status = Status::Destroyed;
        let gunners = b.s[0].figures[Figure::Gunners as usize];
        let (before, ground) = (b.s, b.g);
        // One hit: its location roll (8, the hull) is overridden by the
        // ambush's choice of the crew; 19 misses.
        let mut rolls = vec![3, 3, 4, 4];
        rolls.extend([1; 38]);
        let mut dice = ScriptedDice::new(&rolls);
        b.ground_fire(Some(1), &before, &ground, &mut dice, &mut NoTrace);
        assert!(dice.all_used());
        assert_eq!(b.s[0].figures[Figure::Gunners as usize], gunners - 1);
        assert_eq!((b.crew_lost[0], b.s[0].damage), (1, 0));
        assert!(b.g[0].fired);
        // The next turn the ambush is over: an 8 hits the hull for 1 point.
        let (before, ground) = (b.s, b.g);
        let mut dice = ScriptedDice::new(&rolls);
        b.ground_fire(Some(1), &before, &ground, &mut dice, &mut NoTrace);
        assert!(dice.all_used());
        assert_eq!((b.crew_lost[0], b.s[0].damage), (1, 1));
    }

    #[test]
    fn a_heavy_gun_on_the_ground_cannot_elevate_past_75_degrees() {
        // [Elevation and Depression of Guns], ground-sited heavy gun: 75
        // degrees up. The emplacement at (1", 1"); a cruiser 1-1/2" up and
        // 0.3" off (79 degrees) is refused, 0.5" off (72 degrees) is fired on.
        let m = bundled(FORT);
        let mut b = Battle::new(&m);
        for k in [2, 3] {
            b.g[k].gone = true;
        }
        b.s[1].status = Status::Destroyed;
        place(&mut b, 0, 10, 13, 15, 0);
        let (before, ground) = (b.s, b.g);
        let mut dice = ScriptedDice::new(&[]);
        b.ground_fire(Some(1), &before, &ground, &mut dice, &mut NoTrace);
        assert_eq!(b.heavy_fire, 0);
        place(&mut b, 0, 10, 15, 15, 0);
        let (before, ground) = (b.s, b.g);
        let mut dice = ScriptedDice::new(&[1, 1]);
        b.ground_fire(Some(1), &before, &ground, &mut dice, &mut NoTrace);
        assert!(dice.all_used());
        assert_eq!(b.heavy_fire, 1);
    }

    #[test]
    fn troops_dropped_by_equilibrimotor_are_shot_at_then_fight() {
        // [Troops Landing]: the light transport passes over the pickets
        // (0, 6") at 1" moving 0.7" and drops its 10 troops.
        let m = bundled(LANDING);
        let mut b = Battle::new(&m);
        b.turn = 1;
        place(&mut b, 1, 0, 55, 10, 6);
        b.s[1].pos = Point::new(0, 62);
        let mut dice = Dice::for_trial(1, 0);
        b.landings(Some(0), &mut dice, &mut NoTrace);
        assert_eq!(
            (b.descending[1], b.s[1].figures[Figure::Troops as usize]),
            (10, 0)
        );
        // Next turn, in the air, they take the 6 pickets' rifles as a
        // volley: 6 x 5/10 = 3 fall. The outpost and the gun stand aside.
        b.turn = 2;
        b.g[0].gone = true;
        b.g[2].gone = true;
        let (before, ground) = (b.s, b.g);
        b.ground_fire(
            Some(1),
            &before,
            &ground,
            &mut ScriptedDice::new(&[]),
            &mut NoTrace,
        );
        assert_eq!(b.descending[1], 7);
        assert_eq!(b.ground_casualties[0], 3);
        // At the end of the turn the 7 reach the ground and fight the 6
        // pickets: one wom.battle melee decides it.
        b.descents(&mut dice, &mut NoTrace);
        assert_eq!((b.descending[1], b.troops_landed), (0, 7));
        let pickets = b.g[1];
        assert_eq!(pickets.gone, b.landings_won == 1 || pickets.figures == 0);
        assert!(pickets.figures <= 6);
    }

    #[test]
    fn a_transport_sets_down_and_its_troops_fight_the_outpost() {
        // The heavy transport at 0.3" from the outpost on the ground lands
        // its 30 troops; their melee is the wom.battle battle of the two
        // units on the same dice.
        let m = bundled(LANDING);
        let w = m.ground.as_ref().expect("ground");
        let mut b = Battle::new(&m);
        place(&mut b, 0, -3, 0, 0, 0);
        let mut dice = Dice::for_trial(4, 2);
        b.landings(Some(0), &mut dice, &mut NoTrace);
        assert_eq!(
            (b.s[0].figures[Figure::Troops as usize], b.troops_landed),
            (0, 30)
        );
        let l = w.landing_of(0).expect("landing orders");
        let mut st = l.melee.initial_state();
        let outcome = l
            .melee
            .play(&mut st, &mut Dice::for_trial(4, 2), &mut NoTrace);
        assert_eq!(b.g[0].figures, st.units[1][0].figures);
        assert_eq!(b.landings_won, u32::from(outcome == OUT_FIRST_WINS));
        assert_eq!(b.ground_casualties[0], 30 - st.units[0][0].figures);
    }

    #[test]
    fn fliers_that_can_no_longer_harm_the_ground_are_driven_off() {
        // Our reading of victory: a side holding ground never breaks off;
        // the fliers without gunners or bombs break off and Zodanga wins.
        let m = bundled(FORT);
        let mut b = Battle::new(&m);
        for i in [0, 1] {
            b.s[i].figures[Figure::Gunners as usize] = 0;
            b.s[i].bombs = 0;
        }
        assert!(!b.side_can_harm(0) && b.side_can_harm(1));
        b.play_turns(u32::MAX, &mut Dice::for_trial(1, 0), &mut NoTrace);
        assert_eq!((b.turn, b.outcome, b.broken_off), (1, 1, true));
        // With the fort (the one objective) destroyed Zodanga is out of
        // action: Helium wins though the emplacements still stand.
        let mut b = Battle::new(&m);
        b.g[0].gone = true;
        b.play_turns(1, &mut Dice::for_trial(1, 0), &mut NoTrace);
        assert_eq!(b.outcome, 0);
    }
}
