//! Orders and movement: each side's tactic, the Barsoomian circle, and
//! ships moving, climbing, diving and turning [Movement].

use crate::wom::air::damage::{NONE, ShipState, ceiling, max_speed, max_turn};
use crate::wom::air::geometry::{
    HEADING_STEP_DEGREES, Point, along, heading_of, step, turn_toward, turned,
};
use crate::wom::air::tactics::{Orders, Tactic, orders};
use barsoom_engine::{Dice, Trace};

use super::{Battle, Circle, MAX_SHIPS};

impl<'m> Battle<'m> {
    pub(super) fn give_orders<T: Trace>(
        &mut self,
        side: Option<usize>,
        dice: &mut Dice,
        trace: &mut T,
    ) {
        for s in 0..2 {
            if side.is_none_or(|x| x == s) {
                self.choose_tactic(s, dice);
            }
        }
        for i in 0..self.n {
            if side.is_some_and(|s| s != self.side(i)) || !self.s[i].active() {
                continue;
            }
            let focus = if self.m.sides[self.side(i)].concentrate {
                self.focus[self.side(i)]
            } else {
                NONE
            };
            let tactic = self.tactic[self.side(i)];
            self.orders[i] = orders(self.m, &self.s[..self.n], i, self.turn, focus, tactic, dice);
        }
        for s in 0..2 {
            if side.is_none_or(|x| x == s) {
                if self.tactic[s] == Tactic::Circle {
                    self.circle_orders(s, trace);
                } else {
                    self.break_circle(s, trace);
                }
            }
        }
        self.ground_orders(side);
    }

    /// Breaks up a side's circle: too few ships can keep station, or (a
    /// search player's choice) the side takes another tactic this turn.
    fn break_circle<T: Trace>(&mut self, side: usize, trace: &mut T) {
        for i in 0..self.n {
            if self.side(i) == side {
                self.in_circle[i] = false;
            }
        }
        if self.circle[side].take().is_some() && T::ENABLED {
            let label = &self.m.sides[side].label;
            trace.event("WoM air Barsoomian Circle", || {
                format!("{label}'s circle breaks up")
            });
        }
    }

    /// Ships of `side` that can keep station in a circle (steering and
    /// power intact, not grappled) [Steering Hits: no circular manoeuvre].
    fn circle_members(&self, side: usize) -> ([u8; MAX_SHIPS], usize) {
        let data = &self.m.data;
        let mut members = [NONE; MAX_SHIPS];
        let mut count = 0;
        for i in 0..self.n {
            let st = &self.s[i];
            let class = &data.classes[self.m.ships[i].class];
            if self.side(i) == side
                && st.active()
                && !st.grappled()
                && !st.steering_out
                && max_speed(st, class, data) > 0
            {
                members[count] = i as u8;
                count += 1;
            }
        }
        (members, count)
    }

    /// Forms, keeps or breaks a side's Barsoomian circle [Movement,
    /// Exception]: six or more ships within a normal move of their centre
    /// form it; until then they close on the centre.
    pub(super) fn circle_orders<T: Trace>(&mut self, side: usize, trace: &mut T) {
        let data = &self.m.data;
        let (members, count) = self.circle_members(side);
        if count < data.movement.circle_min_ships {
            self.break_circle(side, trace);
            return;
        }
        for i in 0..self.n {
            if self.side(i) == side {
                self.in_circle[i] = false;
            }
        }
        let (mut sx, mut sy) = (0i64, 0i64);
        for &i in &members[..count] {
            sx += i64::from(self.s[usize::from(i)].pos.x);
            sy += i64::from(self.s[usize::from(i)].pos.y);
        }
        let centroid = Point::new((sx / count as i64) as i32, (sy / count as i64) as i32);
        if self.circle[side].is_none() {
            let close = members[..count].iter().all(|&i| {
                let st = &self.s[usize::from(i)];
                let class = &data.classes[self.m.ships[usize::from(i)].class];
                st.pos.minus(centroid).length() <= max_speed(st, class, data)
            });
            if !close {
                for &i in &members[..count] {
                    let o = &mut self.orders[usize::from(i)];
                    o.aim = Some(centroid);
                    o.face = None;
                }
                return;
            }
            // Circumference = ships x spacing; radius = circumference / 2 pi.
            let radius = ((count as i64 * i64::from(data.movement.circle_spacing) * 10_000)
                / 62_832)
                .max(1) as i32;
            self.circle[side] = Some(Circle {
                center: centroid,
                radius,
                phase: 0,
            });
            if T::ENABLED {
                let label = &self.m.sides[side].label;
                trace.event("WoM air Barsoomian Circle", || {
                    format!(
                        "{label} forms a Barsoomian circle of {count} ships, radius {:.1}\"",
                        f64::from(radius) / 10.0
                    )
                });
            }
        }
        for &i in &members[..count] {
            self.in_circle[usize::from(i)] = true;
        }
    }

    /// Wheels a side's circle round by the slowest member's move: every
    /// member keeps its slot, heading along the circle, broadside out.
    fn circle_move<T: Trace>(&mut self, side: usize, trace: &mut T) {
        let Some(mut circle) = self.circle[side] else {
            return;
        };
        let data = &self.m.data;
        let (members, count) = self.circle_members(side);
        let speed = members[..count]
            .iter()
            .map(|&i| {
                max_speed(
                    &self.s[usize::from(i)],
                    &data.classes[self.m.ships[usize::from(i)].class],
                    data,
                )
            })
            .min()
            .unwrap_or(0);
        let advance = ((i64::from(speed) * 24 * 10_000 + 31_416 * i64::from(circle.radius))
            / (62_832 * i64::from(circle.radius)))
        .max(1);
        circle.phase = ((i64::from(circle.phase) + advance) % 24) as u8;
        self.circle[side] = Some(circle);
        let alt = self.s[usize::from(members[0])].alt;
        for (k, &i) in members[..count].iter().enumerate() {
            let i = usize::from(i);
            if !self.in_circle[i] {
                continue;
            }
            let slot = ((k * 24 / count) as u8 + circle.phase) % 24;
            let st = &mut self.s[i];
            st.pos = step(circle.center, slot, circle.radius);
            st.heading = turned(slot, 6);
            st.from = step(st.pos, turned(st.heading, 12), speed);
            st.alt = alt.min(ceiling(st, &data.classes[self.m.ships[i].class], data));
            st.from_alt = st.alt;
            st.turned = true;
            st.evasive = false;
        }
        if T::ENABLED {
            let label = &self.m.sides[side].label;
            trace.event("WoM air Barsoomian Circle", || {
                format!(
                    "{label}'s circle wheels {:.1}\" round",
                    f64::from(speed) / 10.0
                )
            });
        }
    }

    pub(super) fn move_side<T: Trace>(&mut self, side: Option<usize>, trace: &mut T) {
        let before = self.s;
        for (i, start) in before.iter().enumerate().take(self.n) {
            if side.is_none_or(|s| s == self.side(i)) && !self.in_circle[i] {
                self.move_ship(i, trace);
                self.keep_station(i, side, start, trace);
            }
        }
        for s in 0..2 {
            if side.is_none_or(|x| x == s) && self.circle[s].is_some() {
                self.circle_move(s, trace);
            }
        }
    }

    /// Captains do not steer into their own side's ships: when ship `i`'s
    /// move (from `start`) would run it into a friendly ship that has
    /// moved already this turn, it moves again one
    /// altitude block higher, else lower, else stands, else goes half its
    /// speed or its full speed (the first of these that keeps clear; if
    /// none does, the last) [Ramming and Collision: collisions are
    /// accidents of the move, which no captain seeks with his own fleet].
    fn keep_station<T: Trace>(
        &mut self,
        i: usize,
        side: Option<usize>,
        start: &ShipState,
        trace: &mut T,
    ) {
        let friendly_collision = |b: &Self| {
            (0..i)
                .filter(|&j| b.side(j) == b.side(i) && !b.in_circle[j])
                .any(|j| b.closing(j, i, side).is_some())
        };
        if !friendly_collision(self) {
            return;
        }
        let planned = self.orders[i];
        let alternatives = [
            (1, planned.speed),
            (-1, planned.speed),
            (0, 0),
            (0, planned.speed / 2),
            (0, i32::MAX),
        ];
        for (climb, speed) in alternatives {
            self.s[i] = *start;
            self.orders[i] = Orders {
                climb,
                speed,
                ..planned
            };
            self.move_ship(i, &mut barsoom_engine::NoTrace);
            if !friendly_collision(self) {
                break;
            }
        }
        if T::ENABLED {
            let (name, st) = (&self.m.ships[i].name, self.s[i]);
            trace.event("WoM air Movement", || {
                format!(
                    "{name} keeps clear of its own side's ships: to ({:.1}, {:.1}) at altitude {:.1}\"",
                    f64::from(st.pos.x) / 10.0,
                    f64::from(st.pos.y) / 10.0,
                    f64::from(st.alt) / 10.0
                )
            });
        }
    }

    pub(super) fn move_ship<T: Trace>(&mut self, i: usize, trace: &mut T) {
        let data = &self.m.data;
        let class = &data.classes[self.m.ships[i].class];
        let o = self.orders[i];
        let st = &mut self.s[i];
        st.from = st.pos;
        st.from_alt = st.alt;
        st.turned = false;
        st.evasive = false;
        if !st.active() || st.grappled() {
            return;
        }
        let top = ceiling(st, class, data);
        let speed_max = max_speed(st, class, data);
        if speed_max == 0 {
            if T::ENABLED {
                let name = &self.m.ships[i].name;
                trace.event("WoM air Movement", || {
                    format!("{name} is powerless and does not move")
                });
            }
            return;
        }
        let mv = &data.movement;
        let speed = o.speed.clamp(0, speed_max);
        let (blocks, forward) = if o.climb > 0 {
            let k = o
                .climb
                .min((top - st.alt) / mv.altitude_step)
                .min(speed / (mv.climb_cost + mv.run_per_step))
                .max(0);
            (k, speed - k * mv.climb_cost)
        } else if o.climb < 0 {
            let k = (-o.climb)
                .min(st.alt / mv.altitude_step)
                .min(speed / (mv.run_per_step - mv.dive_gain))
                .max(0);
            (-k, speed + k * mv.dive_gain)
        } else {
            (0, speed)
        };
        let least = blocks.abs() * mv.run_per_step;
        let distance = match o.aim {
            Some(aim) => along(st.pos, st.heading, aim).clamp(least, forward),
            None => forward,
        };
        let old_heading = st.heading;
        st.pos = step(st.pos, st.heading, distance);
        st.alt += blocks * mv.altitude_step;
        let desired = match (o.face, o.aim) {
            (Some(h), _) => h,
            (None, Some(aim)) if aim != st.pos => heading_of(aim.minus(st.pos)),
            _ => st.heading,
        };
        st.heading = turn_toward(st.heading, desired, max_turn(st, class, data));
        st.turned = st.heading != old_heading;
        st.evasive = o.evasive && st.turned;
        if T::ENABLED {
            let st = *st;
            let name = &self.m.ships[i].name;
            trace.event("WoM air Movement", || {
                format!(
                    "{name} moves {:.1}\" to ({:.1}, {:.1}) at altitude {:.1}\", heading {} deg{}",
                    f64::from(distance) / 10.0,
                    f64::from(st.pos.x) / 10.0,
                    f64::from(st.pos.y) / 10.0,
                    f64::from(st.alt) / 10.0,
                    u32::from(st.heading) * HEADING_STEP_DEGREES,
                    if st.evasive { " (evasive)" } else { "" }
                )
            });
        }
    }
}
