//! Gunfire: the guns that bear, each shot's hit, location and damage,
//! criticals and the loss of crew and ships [Fire].

use crate::wom::air::damage::{
    CriticalOutcome, NONE, ShipState, apply_critical, kill_figure, ships_in, take_damage,
};
use crate::wom::air::fire::{critical, location, range_band_squared, to_hit_score};
use crate::wom::air::geometry::{arc_of, can_lay, facing_presented, isqrt};
use crate::wom::air::ships::{
    ARC_BOW, ARC_PORT, ARC_STARBOARD, ARC_STERN, Figure, Location, SMALL, TargetFacing, facing_name,
};
use barsoom_engine::{Roll, Trace};

use super::ground_war::{Shooter, Who};
use super::{Battle, MAX_SHIPS, preferred_target, roll_2d6};

impl<'m> Battle<'m> {
    pub(super) fn add_damage<T: Trace>(&mut self, j: usize, points: u32, trace: &mut T) {
        let data = &self.m.data;
        let class = &data.classes[self.m.ships[j].class];
        let before = self.s[j].damage;
        let reached = take_damage(&mut self.s[j], class, data, points);
        self.damage_to[self.side(j)] += self.s[j].damage - before;
        if T::ENABLED {
            let name = self.name(j).to_string();
            let (dmg, max) = (self.s[j].damage, class.max_damage);
            trace.event("WoM air Damage", || {
                format!("{name} takes {points} points: {dmg} of {max}")
            });
            if let Some(step) = reached {
                trace.event("WoM air Damage Effects", || {
                    let what = if step.destroyed {
                        "the ship explodes, burns and crashes".to_string()
                    } else if step.powerless {
                        "powerless, adrift at 100 feet".to_string()
                    } else {
                        "speed and ceiling reduced".to_string()
                    };
                    format!("{name} reaches {}% damage: {what}", step.at)
                });
            }
        }
    }

    fn kill<T: Trace>(&mut self, j: usize, order: &[Figure], trace: &mut T) -> bool {
        match kill_figure(&mut self.s[j], order) {
            Some(kind) => {
                self.crew_lost[self.side(j)] += 1;
                if T::ENABLED {
                    let name = self.name(j).to_string();
                    trace.event("WoM air Hit Location", || {
                        format!("{name} loses one {} figure", kind.name())
                    });
                }
                true
            }
            None => false,
        }
    }

    pub(super) fn critical_effect<T: Trace>(
        &mut self,
        j: usize,
        effect: super::super::ships::CriticalEffect,
        trace: &mut T,
    ) -> CriticalOutcome {
        let data = &self.m.data;
        let class = &data.classes[self.m.ships[j].class];
        let out = apply_critical(&mut self.s[j], class, data, effect);
        if out.killed {
            self.crew_lost[self.side(j)] += 1;
        }
        if T::ENABLED {
            let name = self.name(j).to_string();
            trace.event("WoM air Critical Hit Table", || {
                format!(
                    "{name}: {}{}",
                    effect.describe(),
                    if out.abandoned {
                        ": pitched 30 degrees, abandoned"
                    } else {
                        ""
                    }
                )
            });
        }
        out
    }

    /// For each ship, the arc bit of ship `i` it lies in if `i`'s guns can
    /// be laid on it (active enemy not grappled with `i`, within elevation
    /// and depression), else 0.
    fn arcs_to(&self, before: &[ShipState; MAX_SHIPS], i: usize) -> [u8; MAX_SHIPS] {
        let data = &self.m.data;
        let gun = &data.guns[data.classes[self.m.ships[i].class].gun];
        let a = &before[i];
        let mut arcs = [0u8; MAX_SHIPS];
        for (j, arc) in arcs.iter_mut().enumerate().take(self.n) {
            let b = &before[j];
            if self.side(j) != self.side(i)
                && b.active()
                && !a.linked(j)
                && can_lay(
                    a.alt,
                    b.alt,
                    b.pos.minus(a.pos).norm2(),
                    gun.tan_elevation,
                    gun.tan_depression,
                )
            {
                *arc = arc_of(a.pos, a.heading, b.pos);
            }
        }
        arcs
    }

    pub(super) fn fire<R: Roll, T: Trace>(
        &mut self,
        side: Option<usize>,
        dice: &mut R,
        trace: &mut T,
    ) {
        let before = self.s;
        let ground_before = self.g;
        for i in 0..self.n {
            let me = &before[i];
            if side.is_some_and(|s| s != self.side(i)) || !me.active() {
                continue;
            }
            self.s[i].gunners_busy = 0;
            // A grappled ship's gunners who are not boarding keep firing
            // the unengaged guns [Boarding, the booklet's example]: not
            // at the ships grappled with her, nor from the rail they lie
            // alongside (guns there are engaged; swivels turn away).
            let engaged = ships_in(me.links).fold(0, |arcs, j| {
                arcs | arc_of(me.pos, me.heading, before[j].pos)
            });
            let m = self.m;
            let class = &m.data.classes[m.ships[i].class];
            let gunners = u32::from(me.figures[Figure::Gunners as usize]);
            let per_gunner = u32::from(class.guns);
            let gunner_base = u32::from(class.figures[Figure::Gunners as usize]).max(1);
            let mut capacity = (gunners * per_gunner).div_ceil(gunner_base);
            let focus = self.focus[self.side(i)];
            let primary = if m.sides[self.side(i)].concentrate
                && focus != NONE
                && before[usize::from(focus)].active()
                && !me.linked(usize::from(focus))
            {
                usize::from(focus)
            } else {
                preferred_target(m, &before[..self.n], i, |j| !me.linked(j))
            };
            self.s[i].target = primary as u8;
            let mut fired = 0;
            let arcs = self.arcs_to(&before, i);
            for mount in 0..class.mounts.len() {
                let guns = u32::from(me.guns[mount]);
                if guns == 0 || capacity == 0 {
                    continue;
                }
                let bearing = class.mounts[mount].arcs & !engaged;
                let target = if primary != usize::from(NONE) && arcs[primary] & bearing != 0 {
                    primary
                } else {
                    preferred_target(m, &before[..self.n], i, |j| arcs[j] & bearing != 0)
                };
                if target == usize::from(NONE) {
                    // No flier to fire at: the guns turn on the ground
                    // [Air-to-Ground Combat: Fire].
                    if let Some(k) = self.ground_target(&before[i], i, bearing) {
                        let firing = guns.min(capacity);
                        capacity -= firing;
                        fired += firing;
                        for _ in 0..firing {
                            self.ground_shot(&before[i], i, k, dice, trace);
                        }
                    }
                    continue;
                }
                let firing = guns.min(capacity);
                capacity -= firing;
                fired += firing;
                for _ in 0..firing {
                    self.shot(&before, i, target, dice, trace);
                }
            }
            self.s[i].gunners_busy = (fired * gunner_base).div_ceil(per_gunner.max(1)) as u16;
        }
        self.ground_fire(side, &before, &ground_before, dice, trace);
    }

    fn shot<R: Roll, T: Trace>(
        &mut self,
        before: &[ShipState; MAX_SHIPS],
        i: usize,
        j: usize,
        dice: &mut R,
        trace: &mut T,
    ) {
        let a = &before[i];
        let from = Shooter {
            pos: a.pos,
            alt: a.alt,
            gun: self.m.data.classes[self.m.ships[i].class].gun,
            who: Who::Ship(i),
            bonus: 0,
            pick_crew: false,
        };
        self.shot_from(from, &before[j], j, dice, trace);
    }

    /// One shot by `from` at ship `j` (standing as `b` when the fire phase
    /// began) [To Hit, All Weapons; Hit Location; Critical Hits].
    pub(super) fn shot_from<R: Roll, T: Trace>(
        &mut self,
        from: Shooter,
        b: &ShipState,
        j: usize,
        dice: &mut R,
        trace: &mut T,
    ) {
        let m = self.m;
        let data = &m.data;
        let gun_index = from.gun;
        let gun = &data.guns[gun_index];
        let target_class = &data.classes[m.ships[j].class];
        let dz = i64::from(from.alt - b.alt);
        let range2 = b.pos.minus(from.pos).norm2() + dz * dz;
        let band = range_band_squared(gun, range2);
        let can_damage = target_class.damaged_by[gun_index];
        let size = if can_damage { target_class.size } else { SMALL };
        let rapid = b.evasive || b.moved_at_least(data.very_rapid_move);
        let need = to_hit_score(data, band, size, b.stationary(), rapid) - from.bonus;
        let roll = roll_2d6(dice);
        if T::ENABLED {
            let (shooter, target) = (self.shooter_name(from.who), self.name(j).to_string());
            let gname = &gun.name;
            trace.event("WoM air To Hit, All Weapons", || {
                format!(
                    "{shooter} {gname} at {target}, {:.1}\" ({}): needs {need}{}{}{}, rolls {roll}: {}",
                    isqrt(range2) as f64 / 10.0,
                    ["short", "medium", "long"][band],
                    if b.stationary() { " (stationary -1)" } else if rapid { " (rapid/evasive +1)" } else { "" },
                    if can_damage { "" } else { " (only exposed men: a small target)" },
                    if from.bonus != 0 { " (Green rifles -1)" } else { "" },
                    if roll as i32 >= need { "hit" } else { "miss" }
                )
            });
        }
        if (roll as i32) < need {
            return;
        }
        let facing = facing_presented(b.pos, b.heading, b.alt, from.pos, from.alt);
        let where_roll = roll_2d6(dice);
        let mut place = location(data, facing, where_roll);
        // [Radium Rifle Fire]: in the first turn of an ambush the riflemen
        // pick the crew, where the facing presented shows it.
        if from.pick_crew && (2..=12).any(|r| location(data, facing, r) == Some(Location::Crew)) {
            place = Some(Location::Crew);
        }
        if T::ENABLED {
            let target = self.name(j).to_string();
            trace.event("WoM air Hit Location", || {
                format!(
                    "{target} presents its {}: 2d6 {where_roll}: {}",
                    facing.name(),
                    match place {
                        Some(Location::Crew) => "crew",
                        Some(Location::Gun) => "gun",
                        Some(Location::Hull) => "hull",
                        Some(Location::Critical) => "critical hit",
                        None => "no effect",
                    }
                )
            });
        }
        match place {
            None => {}
            Some(Location::Crew) => {
                self.kill(j, &data.crew_hit_order, trace);
            }
            Some(_) if !can_damage && T::ENABLED => {
                let target = self.name(j).to_string();
                let gname = &gun.name;
                trace.event(
                    "WoM air Possibility of Weapon Type Damaging Ship Type",
                    || format!("a {gname} cannot damage {target}"),
                );
            }
            Some(_) if !can_damage => {}
            Some(Location::Gun) => {
                let wanted = match facing {
                    TargetFacing::Bow => ARC_BOW,
                    TargetFacing::Stern => ARC_STERN,
                    TargetFacing::Broadside => arc_of(b.pos, b.heading, from.pos),
                    _ => ARC_BOW | ARC_STARBOARD | ARC_PORT | ARC_STERN,
                };
                let hit = target_class
                    .mounts
                    .iter()
                    .enumerate()
                    .position(|(mi, mt)| mt.facing & wanted != 0 && self.s[j].guns[mi] > 0);
                if let Some(mi) = hit {
                    self.s[j].guns[mi] -= 1;
                }
                if T::ENABLED {
                    let target = self.name(j).to_string();
                    trace.event("WoM air Hit Location", || match hit {
                        Some(mi) => format!(
                            "{target} loses a gun on its {}",
                            facing_name(target_class.mounts[mi].facing)
                        ),
                        None => format!("{target} has no gun left on that facing: no effect"),
                    });
                }
            }
            Some(Location::Hull) => self.add_damage(j, gun.damage, trace),
            Some(Location::Critical) => {
                let d6 = dice.die(6);
                let effect = critical(data, facing, d6);
                let out = self.critical_effect(j, effect, trace);
                self.add_damage(j, gun.damage * out.damage_halves / 2, trace);
            }
        }
    }
}
