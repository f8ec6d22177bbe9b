//! Ships in contact: collisions and rams, keel bombs, grapples thrown and
//! cut, capture and boarding melee [Ramming and Collision], [Bombing
//! Fliers], [Grappling], [Boarding].

use crate::wom::air::boarding::{
    casualties_inflicted, grapple_attempts, grapple_cut, grapple_holds, morale_factor, odds_band,
};
use crate::wom::air::damage::{NONE, ShipState, Status, kill_party_figure, ships_in};
use crate::wom::air::fire::{bomb_score, critical, location};
use crate::wom::air::geometry::{
    Point, facing_presented, heading_of, segment_distance2, step, turned,
};
use crate::wom::air::ships::{CASUALTY_UNITS, Location, TargetFacing};
use barsoom_engine::{Roll, Trace};

use super::{Battle, MAX_SHIPS, roll_2d6};

impl<'m> Battle<'m> {
    /// Ships that came together during the move of `side` (both sides when
    /// `None`; a ship of the other side stood still meanwhile): both moving
    /// in straight lines over the move, their closest approach at the same
    /// altitude was within the collision distance, at a relative speed of
    /// 1" or more [Ramming and Collision].
    pub(super) fn collisions<R: Roll, T: Trace>(
        &mut self,
        side: Option<usize>,
        dice: &mut R,
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
                    let effect = critical(data, facing, dice.die(6));
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
    /// if they did: both active and not grappled into one unit, one of them
    /// moving, at the same altitude, their closest approach within the
    /// collision distance at 1" or more [Ramming and Collision].
    pub(super) fn closing(&self, i: usize, j: usize, side: Option<usize>) -> Option<i32> {
        let mv = &self.m.data.movement;
        let moving = |k: usize| side.is_none_or(|x| x == self.m.ships[k].side);
        let (a, b) = (self.s[i], self.s[j]);
        if !a.active()
            || !b.active()
            || a.linked(j)
            || a.links & b.links != 0
            || !(moving(i) || moving(j))
        {
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

    pub(super) fn bombing<R: Roll, T: Trace>(
        &mut self,
        side: Option<usize>,
        dice: &mut R,
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
                || !me.hands()
                || me.grappled()
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
                self.ground_bombing(i, dice, trace);
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
                    let effect = critical(data, TargetFacing::HullTop, dice.die(6));
                    halves = self.critical_effect(target, effect, trace).damage_halves;
                }
                self.add_damage(target, data.bombing.damage * halves / 2, trace);
            }
        }
    }

    fn bomb_criticals_roll<R: Roll>(&self, dice: &mut R) -> bool {
        self.m.bomb_criticals
            && location(&self.m.data, TargetFacing::HullTop, roll_2d6(dice))
                == Some(Location::Critical)
    }

    /// Parts boarder `b` from the ship it boards; that ship's boarding
    /// state goes with its last grapple.
    pub(super) fn unlink(&mut self, b: usize) {
        let d = usize::from(self.s[b].boarding_target());
        let st = &mut self.s[b];
        st.links = 0;
        st.grapples = 0;
        st.boarder = false;
        Self::end_melee(st);
        if d < self.n {
            let t = &mut self.s[d];
            t.links &= !(1 << b);
            if t.links == 0 {
                Self::end_melee(t);
            }
        }
    }

    fn end_melee(st: &mut ShipState) {
        st.boarding = false;
        st.disorganized = false;
        st.inflicted = 0;
        st.suffered = 0;
        st.party_start = 0;
        st.party_lost = 0;
    }

    /// Parts every grapple holding ship `i`.
    fn release(&mut self, i: usize) {
        if self.s[i].boarder {
            self.unlink(i);
        } else {
            for b in ships_in(self.s[i].links) {
                self.unlink(b);
            }
        }
    }

    /// Grapples ship `c` can try to cut on the link of boarder `b`: a
    /// boarder all of its own, a ship held by several boarders its share
    /// of them on each link not yet boarding.
    fn cut_attempts(&self, c: usize, b: usize) -> u32 {
        let total = grapple_attempts(&self.s[c]);
        if c == b {
            return total;
        }
        let cuttable = ships_in(self.s[c].links).filter(|&k| !self.s[k].boarding);
        let (mut count, mut rank) = (0, 0);
        for k in cuttable {
            if k < b {
                rank += 1;
            }
            count += 1;
        }
        let count = count.max(1);
        total * (rank + 1) / count - total * rank / count
    }

    pub(super) fn grappling<R: Roll, T: Trace>(&mut self, dice: &mut R, trace: &mut T) {
        let data = &self.m.data;
        let mv = &data.movement;
        for i in 0..self.n {
            if self.s[i].grappled() && !self.s[i].active() {
                self.release(i);
            }
        }
        for i in 0..self.n {
            let t = usize::from(self.orders[i].grapple);
            if t >= self.n
                || !self.s[i].active()
                || self.s[i].grappled()
                || self.side(t) == self.side(i)
            {
                continue;
            }
            // A ship already held by other grapples may be grappled again
            // [Grappling: no limit to the combinations]; one that is itself
            // boarding is not (our reading: each grappled group is one ship
            // boarded by one or more).
            let (a, b) = (self.s[i], self.s[t]);
            if !b.active()
                || b.boarder
                || (a.alt - b.alt).abs() >= mv.altitude_step
                || a.pos.minus(b.pos).norm2() > i64::from(mv.grapple_distance).pow(2)
            {
                continue;
            }
            let attempts = grapple_attempts(&a);
            let holds = (0..attempts)
                .filter(|_| grapple_holds(data, dice.die(6)))
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
                let st = &mut self.s[i];
                st.links = 1 << t;
                st.boarder = true;
                st.grapples = holds;
                st.grappled_turn = self.turn as u16;
                self.s[t].links |= 1 << i;
            }
        }
        // Each link once, at its lower index.
        for i in 0..self.n {
            for j in ships_in(self.s[i].links) {
                if j > i && self.s[i].linked(j) {
                    let (b, d) = if self.s[i].boarder { (i, j) } else { (j, i) };
                    self.cut_link(b, d, dice, trace);
                }
            }
        }
    }

    /// Cutting the grapples of boarder `b` on ship `d`, unless boarding has
    /// begun: both sides cutting part them at once; else each side cutting
    /// cuts one grapple per attempt on a 1; parted ships are set 1" apart
    /// [Grappling].
    fn cut_link<R: Roll, T: Trace>(&mut self, b: usize, d: usize, dice: &mut R, trace: &mut T) {
        if self.s[b].boarding {
            return;
        }
        let data = &self.m.data;
        let mv = &data.movement;
        let (lo, hi) = (b.min(d), b.max(d));
        let mut parted = self.orders[lo].cut && self.orders[hi].cut;
        if !parted {
            for c in [lo, hi] {
                if !self.orders[c].cut {
                    continue;
                }
                let attempts = self.cut_attempts(c, b);
                let cuts = (0..attempts)
                    .filter(|_| grapple_cut(data, dice.die(6)))
                    .count() as u16;
                let left = self.s[b].grapples.saturating_sub(cuts);
                self.s[b].grapples = left;
                parted = left == 0;
                if T::ENABLED {
                    let nc = self.name(c).to_string();
                    trace.event("WoM air Grappling", || {
                        format!(
                            "{nc} tries {attempts} cuts (on a 1): {cuts} cut, {left} grapples hold"
                        )
                    });
                }
            }
        } else if T::ENABLED {
            let (nl, nh) = (self.name(lo).to_string(), self.name(hi).to_string());
            trace.event("WoM air Grappling", || {
                format!("{nl} and {nh} both cut: the grapples are gone")
            });
        }
        if !parted {
            return;
        }
        let (mut mover, mut other) = if self.orders[hi].cut {
            (hi, lo)
        } else {
            (lo, hi)
        };
        if mover == d && self.s[d].links != 1 << b {
            // Still held by other grapples: the boarder is the one set apart.
            (mover, other) = (b, d);
        }
        let away = self.s[mover].pos.minus(self.s[other].pos);
        let dir = if away == Point::default() {
            turned(self.s[mover].heading, 6)
        } else {
            heading_of(away)
        };
        self.s[mover].pos = step(self.s[other].pos, dir, mv.parted_distance);
        self.unlink(b);
        if T::ENABLED {
            let nm = self.name(mover).to_string();
            trace.event("WoM air Grappling", || {
                format!("grapples parted: {nm} moves 1\" apart")
            });
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

    /// A round of boarding melee on every grappled ship whose boarders
    /// grappled her before this turn [Boarding].
    pub(super) fn boarding<R: Roll, T: Trace>(&mut self, dice: &mut R, trace: &mut T) {
        for d in 0..self.n {
            let st = self.s[d];
            if st.boarder || !st.grappled() || !st.active() {
                continue;
            }
            let ready = ships_in(st.links)
                .filter(|&b| u32::from(self.s[b].grappled_turn) < self.turn)
                .fold(0u16, |set, b| set | 1 << b);
            if ready != 0 {
                self.melee_round(d, ready, dice, trace);
            }
        }
    }

    /// One round of boarding melee: the parties of the boarders in
    /// `attackers` (every figure aboard but the gunners serving guns)
    /// against the party of ship `d`. With several boarders their forces
    /// add up against hers, each inflicts its own casualties, and hers are
    /// shared among them by party size (our reading) [Boarding; Boarding
    /// Melee Table].
    fn melee_round<R: Roll, T: Trace>(
        &mut self,
        d: usize,
        mut attackers: u16,
        dice: &mut R,
        trace: &mut T,
    ) {
        let data = &self.m.data;
        for k in ships_in(attackers | 1 << d) {
            let st = &mut self.s[k];
            if !st.boarding {
                Self::end_melee(st);
                st.boarding = true;
            }
            // Figures who join later (gunners leaving the guns) count
            // toward the 50% casualties as much as the first party.
            let joined = st.party_figures() as u16 + st.party_lost;
            st.party_start = st.party_start.max(joined);
        }
        let pd = self.m.ships[d].party;
        let md = morale_factor(data, &pd, &self.s[d], false);
        let fd = u64::from(self.s[d].party_figures()) * md.max(0) as u64;
        let mut fa = 0u64;
        for b in ships_in(attackers) {
            let pb = self.m.ships[b].party;
            let mb = morale_factor(data, &pb, &self.s[b], true);
            let force = u64::from(self.s[b].party_figures()) * mb.max(0) as u64;
            if T::ENABLED {
                let (nb, nd) = (self.name(b).to_string(), self.name(d).to_string());
                let (xb, xd) = (self.s[b].party_figures(), self.s[d].party_figures());
                trace.event("WoM air Boarding", || format!("{nb} boards {nd}: {xb} figures x morale {mb} = {force} against {xd} x {md} = {fd}"));
            }
            if mb <= data.morale.surrender_at {
                self.capture(b, trace);
                attackers &= !(1 << b);
            } else {
                fa += force;
            }
        }
        if attackers == 0 {
            return;
        }
        if md <= data.morale.surrender_at {
            self.capture(d, trace);
            return;
        }
        let boarders_stronger = fa >= fd;
        let band = data.odds[odds_band(data, fa.max(fd), fa.min(fd))];
        // Casualties are simultaneous: all are worked out before any falls.
        let party_a: u32 = ships_in(attackers).map(|b| self.s[b].party_figures()).sum();
        let mut kills_on_d = 0;
        let mut kills_on = [0u32; MAX_SHIPS];
        for b in ships_in(attackers) {
            let pb = self.m.ships[b].party;
            let units = casualties_inflicted(data, &pb, &self.s[b], &pd, self.s[d].disorganized);
            let total = self.s[b].inflicted + units;
            kills_on_d += total / CASUALTY_UNITS;
            self.s[b].inflicted = total % CASUALTY_UNITS;
            let against = casualties_inflicted(data, &pd, &self.s[d], &pb, self.s[b].disorganized);
            let share = (u64::from(against) * u64::from(self.s[b].party_figures())
                / u64::from(party_a.max(1))) as u32;
            let total = self.s[b].suffered + share;
            kills_on[b] = total / CASUALTY_UNITS;
            self.s[b].suffered = total % CASUALTY_UNITS;
        }
        kills_on[d] = kills_on_d;
        for victim in ships_in(attackers | 1 << d) {
            for _ in 0..kills_on[victim] {
                if kill_party_figure(&mut self.s[victim], &data.casualty_order).is_some() {
                    self.crew_lost[self.side(victim)] += 1;
                    self.s[victim].party_lost += 1;
                }
            }
        }
        for k in ships_in(attackers | 1 << d) {
            self.s[k].disorganized = false;
        }
        let chance = u32::from(band.disorganize_in_6);
        let disorganized = chance >= 6 || (chance > 0 && dice.die(6) <= chance);
        let weaker = if boarders_stronger { 1 << d } else { attackers };
        for k in ships_in(weaker) {
            self.s[k].disorganized = disorganized;
        }
        if T::ENABLED {
            let names = |set: u16| {
                ships_in(set)
                    .map(|k| self.name(k).to_string())
                    .collect::<Vec<_>>()
                    .join(" and ")
            };
            let (na, nd) = (names(attackers), names(1 << d));
            let (ns, nw) = if boarders_stronger {
                (na.clone(), nd.clone())
            } else {
                (nd.clone(), na.clone())
            };
            let lost_a: u32 = ships_in(attackers).map(|b| kills_on[b]).sum();
            let [o1, o2] = band.odds;
            trace.event("WoM air Boarding Melee Table", || {
                format!(
                    "odds {o1}-{o2} for {ns}: {na} kill {kills_on_d}, {nd} kills {lost_a}{}{}",
                    if disorganized {
                        format!("; {nw} disorganized")
                    } else {
                        String::new()
                    },
                    if band.aboard {
                        format!("; {ns} aboard {nw}'s flier")
                    } else {
                        String::new()
                    }
                )
            });
        }
        let left_d = self.s[d].party_figures();
        let wiped = ships_in(attackers)
            .filter(|&b| self.s[b].party_figures() == 0)
            .fold(0u16, |set, b| set | 1 << b);
        if left_d == 0 {
            // Her party is gone: she is taken, unless every boarding party
            // fell with hers (a ship with nobody left aboard is abandoned).
            if wiped == attackers {
                self.release(d);
            } else {
                self.capture(d, trace);
            }
        } else if wiped != 0 {
            // A boarding party wiped out has lost its own ship, as at 4-1.
            for b in ships_in(wiped) {
                self.capture(b, trace);
            }
        } else if band.surrender {
            for k in ships_in(weaker) {
                self.capture(k, trace);
            }
        }
    }
}
