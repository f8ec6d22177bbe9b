//! Ships in contact: collisions and rams, keel bombs, grapples thrown and
//! cut, capture and boarding melee [Ramming and Collision], [Bombing
//! Fliers], [Grappling], [Boarding].

use crate::wom::air::boarding::{
    casualties_inflicted, grapple_attempts, grapple_cut, grapple_holds, morale_factor, odds_band,
};
use crate::wom::air::damage::{NONE, ShipState, Status, kill_figure};
use crate::wom::air::fire::{bomb_score, critical, location};
use crate::wom::air::geometry::{
    Point, facing_presented, heading_of, segment_distance2, step, turned,
};
use crate::wom::air::ships::{CASUALTY_UNITS, Location, TargetFacing};
use barsoom_engine::{Dice, Trace};

use super::{Battle, roll_2d6};

impl<'m> Battle<'m> {
    /// Ships that came together during the move of `side` (both sides when
    /// `None`; a ship of the other side stood still meanwhile): both moving
    /// in straight lines over the move, their closest approach at the same
    /// altitude was within the collision distance, at a relative speed of
    /// 1" or more [Ramming and Collision].
    pub(super) fn collisions<T: Trace>(
        &mut self,
        side: Option<usize>,
        dice: &mut Dice,
        trace: &mut T,
    ) {
        let data = &self.m.data;
        let mv = &data.movement;
        for i in 0..self.n {
            for j in i + 1..self.n {
                let Some(relative) = self.closing(i, j, side) else {
                    continue;
                };
                let (ca, cb) = (
                    &data.classes[self.m.ships[i].class],
                    &data.classes[self.m.ships[j].class],
                );
                let lighter_max = ca.max_damage.min(cb.max_damage);
                let percent = (relative as u32 / 10) * mv.collision_percent_per_inch;
                let points = (u64::from(lighter_max) * u64::from(percent) / 100) as u32;
                if T::ENABLED {
                    let (na, nb) = (self.name(i).to_string(), self.name(j).to_string());
                    trace.event("WoM air Ramming and Collision", || {
                        format!("{na} and {nb} collide at {:.1}\" relative speed: {percent}% of the lighter ship, {points} points each", f64::from(relative) / 10.0)
                    });
                }
                self.add_damage(i, points, trace);
                self.add_damage(j, points, trace);
                // The lighter ship (both if of one class) rolls on the critical
                // hit table; results that only add damage are ignored.
                for (x, y) in [(i, j), (j, i)] {
                    let (cx, cy) = (
                        &data.classes[self.m.ships[x].class],
                        &data.classes[self.m.ships[y].class],
                    );
                    if cx.max_damage > cy.max_damage || !self.s[x].active() {
                        continue;
                    }
                    let (sx, sy) = (self.s[x], self.s[y]);
                    let facing = facing_presented(sx.pos, sx.heading, sx.alt, sy.pos, sy.alt);
                    let effect = critical(data, facing, dice.d6());
                    if matches!(effect, super::super::ships::CriticalEffect::Damage(_)) {
                        if T::ENABLED {
                            let nx = self.name(x).to_string();
                            trace.event("WoM air Ramming and Collision", || {
                                format!("{nx}: critical roll calls for extra damage: ignored")
                            });
                        }
                    } else {
                        self.critical_effect(x, effect, trace);
                    }
                }
            }
        }
    }

    /// The relative speed (tenths of an inch) at which ships `i` and `j`
    /// came together during the move of `side` (both sides when `None`),
    /// if they did: both active and not grappled together, one of them
    /// moving, at the same altitude, their closest approach within the
    /// collision distance at 1" or more [Ramming and Collision].
    pub(super) fn closing(&self, i: usize, j: usize, side: Option<usize>) -> Option<i32> {
        let mv = &self.m.data.movement;
        let moving = |k: usize| side.is_none_or(|x| x == self.m.ships[k].side);
        let (a, b) = (self.s[i], self.s[j]);
        if !a.active() || !b.active() || a.partner == j as u8 || !(moving(i) || moving(j)) {
            return None;
        }
        if (a.alt - b.alt).abs() >= mv.altitude_step {
            return None;
        }
        let start = |k: usize, st: &ShipState| if moving(k) { st.from } else { st.pos };
        let rel_from = start(i, &a).minus(start(j, &b));
        let rel_to = a.pos.minus(b.pos);
        if segment_distance2(rel_from, rel_to, Point::default())
            > i64::from(mv.collision_distance).pow(2)
        {
            return None;
        }
        let relative = rel_to.minus(rel_from).length();
        (relative >= mv.collision_min_speed).then_some(relative)
    }

    pub(super) fn bombing<T: Trace>(
        &mut self,
        side: Option<usize>,
        dice: &mut Dice,
        trace: &mut T,
    ) {
        let data = &self.m.data;
        let reach = i64::from(data.movement.overfly_distance).pow(2);
        for i in 0..self.n {
            let me = self.s[i];
            let class = &data.classes[self.m.ships[i].class];
            if side.is_some_and(|s| s != self.side(i))
                || !me.active()
                || me.bombs == 0
                || me.partner != NONE
                || me.pos == me.from
            {
                continue;
            }
            let mut target = usize::from(NONE);
            let mut best = i64::MAX;
            for j in 0..self.n {
                let t = &self.s[j];
                if self.side(j) == self.side(i) || !t.active() || t.alt >= me.alt {
                    continue;
                }
                let d = segment_distance2(me.from, me.pos, t.pos);
                if d <= reach && d < best {
                    best = d;
                    target = j;
                }
            }
            if target == usize::from(NONE) {
                continue;
            }
            let drops = me.bombs.min(class.bombs_per_turn);
            self.s[i].bombs -= drops;
            let t = self.s[target];
            let target_class = &data.classes[self.m.ships[target].class];
            let moving = t.pos.minus(t.from) != me.pos.minus(me.from);
            let far_below = me.alt - t.alt > data.bombing.far_below_distance;
            let need = bomb_score(data, target_class, moving, far_below);
            let mut hits = 0;
            for _ in 0..drops {
                if roll_2d6(dice) as i32 >= need {
                    hits += 1;
                }
            }
            if T::ENABLED {
                let (ni, nt) = (self.name(i).to_string(), self.name(target).to_string());
                trace.event("WoM air Bombing Table, Aerial Targets", || {
                    format!("{ni} passes over {nt} and drops {drops} keel bombs needing {need} on 2d6: {hits} hit")
                });
            }
            for _ in 0..hits {
                let mut halves = 2;
                if self.bomb_criticals_roll(dice) {
                    let effect = critical(data, TargetFacing::HullTop, dice.d6());
                    halves = self.critical_effect(target, effect, trace).damage_halves;
                }
                self.add_damage(target, data.bombing.damage * halves / 2, trace);
            }
        }
    }

    fn bomb_criticals_roll(&self, dice: &mut Dice) -> bool {
        self.m.bomb_criticals
            && location(&self.m.data, TargetFacing::HullTop, roll_2d6(dice))
                == Some(Location::Critical)
    }

    fn release(&mut self, i: usize) {
        let p = self.s[i].partner;
        for k in [i, usize::from(p)] {
            if k < self.n {
                let st = &mut self.s[k];
                st.partner = NONE;
                st.grapples = 0;
                st.boarding = false;
                st.boarder = false;
                st.disorganized = false;
                st.inflicted = 0;
                st.party_start = 0;
            }
        }
    }

    pub(super) fn grappling<T: Trace>(&mut self, dice: &mut Dice, trace: &mut T) {
        let data = &self.m.data;
        let mv = &data.movement;
        for i in 0..self.n {
            let p = self.s[i].partner;
            if p != NONE && (!self.s[i].active() || !self.s[usize::from(p)].active()) {
                self.release(i);
            }
        }
        for i in 0..self.n {
            let t = usize::from(self.orders[i].grapple);
            if t >= self.n
                || !self.s[i].active()
                || self.s[i].partner != NONE
                || self.side(t) == self.side(i)
            {
                continue;
            }
            let (a, b) = (self.s[i], self.s[t]);
            if !b.active()
                || b.partner != NONE
                || (a.alt - b.alt).abs() >= mv.altitude_step
                || a.pos.minus(b.pos).norm2() > i64::from(mv.grapple_distance).pow(2)
            {
                continue;
            }
            let attempts = grapple_attempts(&a);
            let holds = (0..attempts)
                .filter(|_| grapple_holds(data, dice.d6()))
                .count() as u16;
            if T::ENABLED {
                let (na, nb) = (self.name(i).to_string(), self.name(t).to_string());
                trace.event("WoM air Grappling", || {
                    format!(
                        "{na} throws {attempts} grapples at {nb} (hold on 1-{}): {holds} hold",
                        data.grapple_max_roll
                    )
                });
            }
            if holds > 0 {
                let turn = self.turn as u16;
                self.s[i].partner = t as u8;
                self.s[t].partner = i as u8;
                for (k, boarder) in [(i, true), (t, false)] {
                    self.s[k].grapples = holds;
                    self.s[k].grappled_turn = turn;
                    self.s[k].boarder = boarder;
                }
            }
        }
        for i in 0..self.n {
            let p = usize::from(self.s[i].partner);
            if p >= self.n || i > p || self.s[i].boarding {
                continue;
            }
            let (cut_i, cut_p) = (self.orders[i].cut, self.orders[p].cut);
            let mut parted = cut_i && cut_p;
            if !parted {
                for c in [i, p] {
                    if !self.orders[c].cut {
                        continue;
                    }
                    let attempts = grapple_attempts(&self.s[c]);
                    let cuts = (0..attempts)
                        .filter(|_| grapple_cut(data, dice.d6()))
                        .count() as u16;
                    let left = self.s[i].grapples.saturating_sub(cuts);
                    self.s[i].grapples = left;
                    self.s[p].grapples = left;
                    parted = left == 0;
                    if T::ENABLED {
                        let nc = self.name(c).to_string();
                        trace.event("WoM air Grappling", || format!("{nc} tries {attempts} cuts (on a 1): {cuts} cut, {left} grapples hold"));
                    }
                }
            } else if T::ENABLED {
                let (ni, np) = (self.name(i).to_string(), self.name(p).to_string());
                trace.event("WoM air Grappling", || {
                    format!("{ni} and {np} both cut: the grapples are gone")
                });
            }
            if parted {
                let (mover, other) = if self.orders[p].cut { (p, i) } else { (i, p) };
                let away = self.s[mover].pos.minus(self.s[other].pos);
                let dir = if away == Point::default() {
                    turned(self.s[mover].heading, 6)
                } else {
                    heading_of(away)
                };
                self.s[mover].pos = step(self.s[other].pos, dir, mv.parted_distance);
                self.release(i);
                if T::ENABLED {
                    let nm = self.name(mover).to_string();
                    trace.event("WoM air Grappling", || {
                        format!("grapples parted: {nm} moves 1\" apart")
                    });
                }
            }
        }
    }

    fn capture<T: Trace>(&mut self, loser: usize, trace: &mut T) {
        self.release(loser);
        self.s[loser].status = Status::Captured;
        self.captured += 1;
        if T::ENABLED {
            let n = self.name(loser).to_string();
            trace.event("WoM air Boarding Melee Table", || {
                format!("{n} surrenders and is captured; her commander jumps off")
            });
        }
    }

    pub(super) fn boarding<T: Trace>(&mut self, dice: &mut Dice, trace: &mut T) {
        let data = &self.m.data;
        for a in 0..self.n {
            let d = usize::from(self.s[a].partner);
            if d >= self.n || !self.s[a].boarder || u32::from(self.s[a].grappled_turn) >= self.turn
            {
                continue;
            }
            if !self.s[a].boarding {
                for k in [a, d] {
                    self.s[k].boarding = true;
                    self.s[k].party_start = self.s[k].total_figures() as u16;
                    self.s[k].inflicted = 0;
                }
            }
            let (pa, pd) = (self.m.ships[a].party, self.m.ships[d].party);
            let ma = morale_factor(data, &pa, &self.s[a], true);
            let md = morale_factor(data, &pd, &self.s[d], false);
            let fa = u64::from(self.s[a].total_figures()) * ma.max(0) as u64;
            let fd = u64::from(self.s[d].total_figures()) * md.max(0) as u64;
            if T::ENABLED {
                let (na, nd) = (self.name(a).to_string(), self.name(d).to_string());
                let (xa, xd) = (self.s[a].total_figures(), self.s[d].total_figures());
                trace.event("WoM air Boarding", || format!("{na} boards {nd}: {xa} figures x morale {ma} = {fa} against {xd} x {md} = {fd}"));
            }
            if ma <= data.morale.surrender_at {
                self.capture(a, trace);
                continue;
            }
            if md <= data.morale.surrender_at {
                self.capture(d, trace);
                continue;
            }
            let (strong, weak) = if fa >= fd { (a, d) } else { (d, a) };
            let band_index = odds_band(data, fa.max(fd), fa.min(fd));
            let band = data.odds[band_index];
            let ua = casualties_inflicted(data, &pa, &self.s[a], &pd, self.s[d].disorganized);
            let ud = casualties_inflicted(data, &pd, &self.s[d], &pa, self.s[a].disorganized);
            let mut kills = [0u32; 2];
            for (k, (x, units)) in [(a, ua), (d, ud)].into_iter().enumerate() {
                let total = self.s[x].inflicted + units;
                kills[k] = total / CASUALTY_UNITS;
                self.s[x].inflicted = total % CASUALTY_UNITS;
            }
            for (victim, count) in [(d, kills[0]), (a, kills[1])] {
                for _ in 0..count {
                    if kill_figure(&mut self.s[victim], &data.casualty_order).is_some() {
                        self.crew_lost[self.side(victim)] += 1;
                    }
                }
            }
            self.s[a].disorganized = false;
            self.s[d].disorganized = false;
            let chance = u32::from(band.disorganize_in_6);
            let disorganized = chance >= 6 || (chance > 0 && dice.d6() <= chance);
            self.s[weak].disorganized = disorganized;
            if T::ENABLED {
                let (na, nd, nw, ns) = (
                    self.name(a).to_string(),
                    self.name(d).to_string(),
                    self.name(weak).to_string(),
                    self.name(strong).to_string(),
                );
                let [o1, o2] = band.odds;
                trace.event("WoM air Boarding Melee Table", || {
                    format!(
                        "odds {o1}-{o2} for {ns}: {na}'s party kills {}, {nd}'s kills {}{}{}",
                        kills[0],
                        kills[1],
                        if disorganized {
                            format!("; {nw} is disorganized")
                        } else {
                            String::new()
                        },
                        if band.aboard {
                            format!("; {ns} is aboard {nw}'s flier")
                        } else {
                            String::new()
                        }
                    )
                });
            }
            let (left_a, left_d) = (self.s[a].total_figures(), self.s[d].total_figures());
            if left_a == 0 && left_d == 0 {
                self.release(a);
                self.s[a].status = Status::Abandoned;
                self.s[d].status = Status::Abandoned;
            } else if left_a == 0 {
                self.capture(a, trace);
            } else if left_d == 0 {
                self.capture(d, trace);
            } else if band.surrender {
                self.capture(weak, trace);
            }
        }
    }
}
