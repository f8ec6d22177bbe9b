//! Morale: the modifiers, the checks after fire and melee, and units
//! leaving the melee or the field (PART I: MORALE).

use barsoom_engine::{Roll, Trace};

use super::battle::{BattleState, M_MORALE_FAILURES, M_ROUTS, M_SURRENDERS, Status, WomBattle};
use super::field;

impl WomBattle {
    /// The adjusted steady score of unit `(s, u)` now (MORALE TABLE with the
    /// bonuses and penalties).
    pub fn morale_modifier(&self, st: &BattleState, s: usize, u: usize) -> i32 {
        let m = &self.tables.morale.modifiers;
        let spec = self.spec_of(s, u);
        let unit = &st.units[s][u];
        let mut total = 0;
        if unit.attack.is_some() {
            total += m.attacking;
        }
        if unit.commander_alive {
            total += m.commander_with_unit;
        }
        if unit.personality_alive {
            total += m.personality_with_unit;
        }
        if unit.casualties * 2 >= spec.figures {
            total += m.half_casualties;
        }
        if unit.disorganized {
            total += m.disordered;
        }
        if unit.flanked {
            total += m.attacked_in_flank;
        }
        if unit.rear_attacked {
            total += m.attacked_in_rear;
        }
        if unit.commander_lost {
            total += m.commander_dead;
        }
        if unit.outnumbered {
            total += m.outnumbered_three_to_one;
        }
        if unit.personality_lost {
            total += m.personality_dead;
        }
        if unit.surrounded {
            total += m.surrounded_in_open;
        }
        total
    }

    /// Whether unit `(s, u)` is in melee with three times its figures or
    /// more of troops whose class is at least as good.
    fn outnumbered(&self, st: &BattleState, s: usize, u: usize) -> bool {
        let own = &self.tables.morale.classes[self.spec_of(s, u).class];
        let mut enemies = 0;
        let mut superior = false;
        for e in 0..st.counts[1 - s] {
            let theirs = st.units[1 - s][e].attack.is_some_and(|a| a.target == u);
            let ours = st.units[s][u].attack.is_some_and(|a| a.target == e);
            if theirs || ours {
                enemies += st.units[1 - s][e].figures;
                superior |=
                    self.tables.morale.classes[self.spec_of(1 - s, e).class].steady >= own.steady;
            }
        }
        superior && enemies >= 3 * st.units[s][u].figures.max(1)
    }

    /// Whether unit `(s, u)` is surrounded: the sides of it that enemies in
    /// melee with it touch (its own target stands at its front).
    pub fn surrounded(&self, st: &BattleState, s: usize, u: usize) -> bool {
        let me = self.footprint(st, s, u);
        let mut mask = 0;
        if st.units[s][u].attack.is_some() {
            mask |= field::FRONT;
        }
        for e in 0..st.counts[1 - s] {
            if st.units[1 - s][e].attack.is_some_and(|a| a.target == u) {
                mask |= field::side_bit(&self.footprint(st, 1 - s, e), &me);
            }
            // Stands wrapped onto its flanks or rear [MELEE: Overlapping].
            if let Some(w) = st.units[1 - s][e].wrap.filter(|w| w.target == u) {
                mask |= w.sides;
            }
        }
        field::surrounds(mask)
    }

    /// Makes every morale check that is due (MORALE CHECKS TO BE MADE).
    pub(crate) fn morale_checks<T: Trace>(
        &self,
        st: &mut BattleState,
        dice: &mut impl Roll,
        trace: &mut T,
    ) {
        let m = &self.tables.morale.modifiers;
        for s in 0..2 {
            for u in 0..st.counts[s] {
                if !st.units[s][u].on_field() {
                    continue;
                }
                let spec = self.spec_of(s, u);
                let mut due = st.units[s][u].check_due;
                for (i, pct) in m.casualty_checks.iter().enumerate() {
                    let unit = &mut st.units[s][u];
                    if unit.thresholds_passed & (1 << i) == 0
                        && unit.casualties * 100 >= pct * spec.figures
                    {
                        unit.thresholds_passed |= 1 << i;
                        due = true;
                    }
                }
                let outnumbered = self.outnumbered(st, s, u);
                if outnumbered && !st.units[s][u].outnumbered {
                    due = true;
                }
                st.units[s][u].outnumbered = outnumbered;
                let surrounded = self.surrounded(st, s, u);
                if surrounded && !st.units[s][u].surrounded {
                    due = true;
                }
                st.units[s][u].surrounded = surrounded;
                if !due {
                    continue;
                }
                st.units[s][u].check_due = false;
                self.morale_check(st, s, u, dice, trace);
            }
        }
    }

    /// One morale check of unit `(s, u)`: steady, disorganised, retreat, or
    /// surrender when the adjusted steady score is 2 or less.
    pub fn morale_check<T: Trace>(
        &self,
        st: &mut BattleState,
        s: usize,
        u: usize,
        dice: &mut impl Roll,
        trace: &mut T,
    ) {
        let spec = self.spec_of(s, u);
        let class = &self.tables.morale.classes[spec.class];
        let modifier = self.morale_modifier(st, s, u);
        let steady = class.steady + modifier;
        let disorganized = class.disorganized + modifier;
        if steady <= self.tables.morale.modifiers.surrender_at {
            trace.event("[MORALE TABLE: surrender]", || {
                format!("{}: steady score {steady}, surrenders", spec.name)
            });
            st.metrics[M_SURRENDERS + s] += 1;
            self.leave_field(st, s, u, Status::Surrendered);
            return;
        }
        let roll = dice.d6() + dice.d6();
        if roll <= steady {
            st.units[s][u].disorganized = false;
        } else if roll <= disorganized {
            st.units[s][u].disorganized = true;
            st.units[s][u].check_due = true;
        } else if st.units[s][u].surrounded {
            // MORALE TABLE: a surrounded unit that breaks has no way out
            // and is taken prisoner (ours: the rules' "surrounded units
            // surrender" read as on a failed check, so the -3 counts).
            trace.event("[MORALE TABLE: surrender]", || {
                format!(
                    "{}: 2d6 {roll} against steady {steady}, surrounded: surrenders",
                    spec.name
                )
            });
            st.metrics[M_MORALE_FAILURES + s] += 1;
            st.metrics[M_SURRENDERS + s] += 1;
            self.leave_field(st, s, u, Status::Surrendered);
            return;
        } else {
            st.metrics[M_MORALE_FAILURES + s] += 1;
            self.leave_melee(st, s, u);
            let unit = &mut st.units[s][u];
            unit.disorganized = false;
            unit.status = Status::Retreating(st.turn + 1);
            self.retreat(st, s, u);
        }
        trace.event("[MORALE TABLE]", || {
            let result = if roll <= steady {
                "steady"
            } else if roll <= disorganized {
                "disorganised, checks again next turn"
            } else {
                "fails: retreats a full move and stands a turn"
            };
            format!(
                "{} ({}): 2d6 {roll} against steady {steady} (modifier {modifier:+}): {result}",
                spec.name, class.name
            )
        });
    }

    /// Ends every melee unit `(s, u)` takes part in, and the stands wrapped
    /// round in them.
    pub(super) fn leave_melee(&self, st: &mut BattleState, s: usize, u: usize) {
        st.units[s][u].attack = None;
        st.units[s][u].wrap = None;
        for e in 0..st.counts[1 - s] {
            let enemy = &mut st.units[1 - s][e];
            if enemy.attack.is_some_and(|a| a.target == u) {
                enemy.attack = None;
            }
            if enemy.wrap.is_some_and(|w| w.target == u) {
                enemy.wrap = None;
            }
        }
    }

    /// Removes unit `(s, u)` from the battle; a rout calls a check of the
    /// friendly units within 3".
    fn leave_field(&self, st: &mut BattleState, s: usize, u: usize, status: Status) {
        self.leave_melee(st, s, u);
        st.units[s][u].status = status;
        if status == Status::Routed {
            st.metrics[M_ROUTS + s] += 1;
            let at = self.footprint(st, s, u);
            let within = f64::from(self.tables.morale.modifiers.routing_within);
            for f in 0..st.counts[s] {
                if f != u
                    && st.units[s][f].on_field()
                    && field::front_to_front(&self.footprint(st, s, f), &at) <= within
                {
                    st.units[s][f].check_due = true;
                }
            }
        }
    }

    /// A retreating unit that is attacked routs (MORALE TABLE).
    pub(super) fn attacked<T: Trace>(
        &self,
        st: &mut BattleState,
        s: usize,
        u: usize,
        trace: &mut T,
    ) {
        if matches!(st.units[s][u].status, Status::Retreating(_)) {
            trace.event("[MORALE TABLE: rout]", || {
                format!(
                    "{} is attacked while retreating and routs",
                    self.spec_of(s, u).name
                )
            });
            self.leave_field(st, s, u, Status::Routed);
        }
    }
}
