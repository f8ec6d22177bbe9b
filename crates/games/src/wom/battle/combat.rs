//! Missile fire and melee: the parts that fight, volleys, rounds of melee
//! and the casualties they inflict (PART I: MISSILE FIRE, MELEE).

use barsoom_engine::{Roll, Trace};

use super::battle::{
    Approach, Attack, BattleState, M_CASUALTIES, M_COMMANDERS_LOST, M_PERSONALITIES_LOST,
    MAX_UNITS, Status, UnitSpec, UnitState, WomBattle,
};
use super::field;
use super::tables::{PARTS, Troop, WEAPON_NAMES};

impl WomBattle {
    /// Missile casualties, in parts of a figure, of `firers` figures of unit
    /// `(s, u)` shooting its weapon at enemy unit `e` (MISSILE FIRE TABLE
    /// with its adjustments).
    pub fn missile_parts(
        &self,
        st: &BattleState,
        s: usize,
        u: usize,
        e: usize,
        firers: u32,
    ) -> u64 {
        let shooter = self.spec_of(s, u);
        let target = self.spec_of(1 - s, e);
        let Some(w) = shooter.weapon else { return 0 };
        let t = &self.tables;
        let mut per_firer = t.weapons[w].parts_per_firer[target.troop.index()];
        if shooter.troop.is_green() && WEAPON_NAMES[w] == "rifle" {
            per_firer += t.green_rifle_parts;
        }
        // Cover counts while the target still stands on its own line.
        // Terrain cover wherever it stands: the better of the two.
        let cover = if self.advance(st, 1 - s, e) <= 0.0 {
            target.cover_keep
        } else {
            100
        }
        .min(self.terrain_cover_keep(st, 1 - s, e));
        let skirmish = if st.units[1 - s][e].skirmish {
            t.skirmisher_keep
        } else {
            100
        };
        u64::from(firers) * per_firer * cover * skirmish / 10_000
    }

    /// Melee casualties, in parts of a figure, that the whole first rank of
    /// unit `(s, u)` inflicts on enemy unit `e` this round (MELEE TABLE with
    /// its adjustments): `charged` for its first round after a charge,
    /// `doubled` for the first round(s) of a flank or rear attack.
    pub fn melee_parts(
        &self,
        st: &BattleState,
        s: usize,
        u: usize,
        e: usize,
        charged: bool,
        doubled: bool,
    ) -> u64 {
        let fighters = self.front_figures(st, s, u);
        self.melee_parts_of(st, s, u, e, fighters, charged, doubled)
    }

    /// As [`WomBattle::melee_parts`] for `fighters` figures of `(s, u)` in
    /// contact [MELEE: only touching stands fight], its personality figure
    /// (fighting with them) included.
    #[allow(clippy::too_many_arguments)]
    pub fn melee_parts_of(
        &self,
        st: &BattleState,
        s: usize,
        u: usize,
        e: usize,
        fighters: u32,
        charged: bool,
        doubled: bool,
    ) -> u64 {
        let t = &self.tables;
        let attacker = self.spec_of(s, u);
        let defender = self.spec_of(1 - s, e);
        let dstate = &st.units[1 - s][e];
        let column = defender.troop.melee_column(defender.shield);
        // MELEE TABLE adjustments: casualties added per group.
        let mut add = 0;
        if charged {
            add += if attacker.lance && attacker.troop.is_mounted() {
                t.add_lance
            } else {
                t.add_charge
            };
        }
        if dstate.disorganized {
            add += t.add_disorganized;
        }
        if matches!(dstate.status, Status::Retreating(_)) {
            add += t.add_retreating;
        }
        let group_parts = |troop: Troop, figures: u64| {
            let group = t.melee_group[troop.index()];
            let halves = t.melee_halves[troop.index()][column] + 2 * add;
            figures * PARTS / (2 * group) * halves
        };
        let mut parts = group_parts(attacker.troop, u64::from(fighters));
        if st.units[s][u].personality_alive
            && let Some((_, level)) = attacker.personality
            && level >= 12
        {
            // MELEE TABLE notes: a 12th (13th) level figure fights as one
            // group of human-type (green) cavalry.
            let troop = t.personality_troop[(level - 12) as usize];
            parts += group_parts(troop, t.melee_group[troop.index()]);
        }
        if doubled { parts * 2 } else { parts }
    }

    /// Adds `parts` of casualties to unit `(s, u)`, extracting whole figures,
    /// then rolls for its leaders (one d6 per six casualties).
    pub fn apply_casualties<T: Trace>(
        &self,
        st: &mut BattleState,
        s: usize,
        u: usize,
        parts: u64,
        dice: &mut impl Roll,
        trace: &mut T,
    ) {
        let t = &self.tables;
        let spec = self.spec_of(s, u);
        let unit = &mut st.units[s][u];
        if !unit.on_field() || parts == 0 {
            return;
        }
        unit.parts += parts;
        let whole = (unit.parts / PARTS).min(u64::from(unit.figures)) as u32;
        unit.parts %= PARTS;
        unit.figures -= whole;
        unit.casualties += whole;
        st.metrics[M_CASUALTIES + s] += whole;
        if unit.figures == 0 {
            unit.status = Status::Destroyed;
            trace.event("[MELEE: extraction of casualties]", || {
                format!("{} loses its last figure", spec.name)
            });
        }
        // MELEE: Loss of Personality or Commander Figure.
        while unit.casualties / t.casualties_per_leader_roll > unit.leader_rolls {
            unit.leader_rolls += 1;
            if unit.commander_alive && spec.figures < t.umak_figures {
                let roll = dice.d6() as u32;
                if roll <= t.leader_killed_on {
                    unit.commander_alive = false;
                    unit.commander_lost = true;
                    unit.check_due = true;
                    st.metrics[M_COMMANDERS_LOST + s] += 1;
                }
                trace.event("[MELEE: Loss of Commander Figure]", || {
                    format!("{}: d6 {roll} for its commander", spec.name)
                });
            }
            if unit.personality_alive {
                let roll = dice.d6() as u32;
                if roll <= t.leader_killed_on {
                    unit.personality_alive = false;
                    unit.personality_lost = true;
                    unit.check_due = true;
                    st.metrics[M_PERSONALITIES_LOST + s] += 1;
                }
                trace.event("[MELEE: Loss of Personality Figure]", || {
                    let name = spec.personality.as_ref().map_or("", |p| p.0.as_str());
                    format!("{}: d6 {roll} for {name}", spec.name)
                });
            }
        }
    }

    /// The enemy unit `(s, u)` aims at: its target, or the first enemy unit
    /// still on the field once its target is gone.
    pub(super) fn current_target(&self, st: &mut BattleState, s: usize, u: usize) -> Option<usize> {
        let t = st.units[s][u].target;
        if st.units[1 - s][t].on_field() {
            return Some(t);
        }
        let next = (0..st.counts[1 - s]).find(|&e| st.units[1 - s][e].on_field())?;
        st.units[s][u].target = next;
        Some(next)
    }

    /// Whether `(s, u)` may shoot `e` now: it could if facing it, and `e`
    /// is in its arc of fire [MISSILES: Arc of Fire].
    pub(super) fn can_fire(&self, st: &BattleState, s: usize, u: usize, e: usize) -> bool {
        self.could_fire_facing(st, s, u, e) && self.in_arc(st, s, u, e)
    }

    /// Whether some part of enemy unit `e` lies in the arc of fire of
    /// `(s, u)`: foot or mounted [MISSILES: Arc of Fire].
    pub(super) fn in_arc(&self, st: &BattleState, s: usize, u: usize, e: usize) -> bool {
        let mounted = self.spec_of(s, u).troop.is_mounted();
        field::in_arc(
            &self.footprint(st, s, u),
            &self.footprint(st, 1 - s, e),
            self.tables.arcs[usize::from(mounted)],
        )
    }

    /// Whether `(s, u)` could shoot `e` were `e` in its arc: weapon, volleys
    /// left, in range, neither in melee (missiles may not be fired into a
    /// melee), terrain allowing it.
    pub(super) fn could_fire_facing(&self, st: &BattleState, s: usize, u: usize, e: usize) -> bool {
        let spec = self.spec_of(s, u);
        let Some(w) = spec.weapon else { return false };
        let weapon = &self.tables.weapons[w];
        st.units[s][u].status == Status::Active
            && st.units[s][u].volleys < weapon.max_volleys
            && weapon
                .range
                .is_none_or(|r| self.gap(st, s, u, e) <= f64::from(r))
            && !self.engaged(st, s, u)
            && !self.engaged(st, 1 - s, e)
            && self.terrain_lets_fire(st, s, u, e)
    }

    /// Figures of `(s, u)` that fire: the ranks its weapon allows, and one
    /// more standing on higher ground than the ranks ahead of it [TERRAIN
    /// EFFECTS UPON MISSILES].
    pub fn firers(&self, st: &BattleState, s: usize, u: usize) -> u32 {
        let spec = self.spec_of(s, u);
        let ranks = spec.weapon.map_or(0, |w| {
            self.tables.weapons[w].ranks + u32::from(self.rank_on_higher_ground(st, s, u))
        });
        self.fit_figures(st, s, u).min(spec.front * ranks)
    }

    /// Simultaneous fire of every unit for which `eligible` holds.
    pub(super) fn volley<T: Trace>(
        &self,
        st: &mut BattleState,
        beginning: bool,
        eligible: impl Fn(&UnitState, &UnitSpec) -> bool,
        dice: &mut impl Roll,
        trace: &mut T,
    ) {
        let case = if beginning {
            "[MISSILES: beginning turn fire]"
        } else {
            "[MISSILES: end turn fire]"
        };
        let mut hits = [[0u64; MAX_UNITS]; 2];
        let mut shot_at = [[false; MAX_UNITS]; 2];
        for s in 0..2 {
            for u in 0..st.counts[s] {
                if !eligible(&st.units[s][u], self.spec_of(s, u)) {
                    continue;
                }
                let Some(e) = self.current_target(st, s, u) else {
                    continue;
                };
                if !self.can_fire(st, s, u, e) {
                    continue;
                }
                let firers = self.firers(st, s, u);
                let parts = self.missile_parts(st, s, u, e, firers);
                st.units[s][u].volleys += 1;
                hits[1 - s][e] += parts;
                shot_at[1 - s][e] = true;
                st.units[s][u].fired_beginning |= beginning;
                trace.event(case, || {
                    format!(
                        "{} ({firers} firing) at {}: {parts}/{PARTS} figures",
                        self.spec_of(s, u).name,
                        self.spec_of(1 - s, e).name
                    )
                });
            }
        }
        for s in 0..2 {
            for u in 0..st.counts[s] {
                if shot_at[s][u] {
                    self.apply_casualties(st, s, u, hits[s][u], dice, trace);
                    self.attacked(st, s, u, trace);
                }
            }
        }
    }

    /// Whether the defender `(1 - s, e)` may strike back at the attack of
    /// `(s, u)`: not in the first round of a flank attack nor the first two
    /// of a rear attack.
    pub fn returns_blows(&self, attack: &Attack) -> bool {
        match attack.approach {
            Approach::Front => true,
            Approach::Flank => attack.rounds >= self.tables.flank_rounds,
            Approach::Rear => attack.rounds >= self.tables.rear_rounds,
        }
    }

    /// One round of every melee, casualties simultaneous (MELEE TABLE).
    pub(super) fn melee_round<T: Trace>(
        &self,
        st: &mut BattleState,
        dice: &mut impl Roll,
        trace: &mut T,
    ) -> bool {
        let mut hits = [[0u64; MAX_UNITS]; 2];
        let mut struck = [[false; MAX_UNITS]; 2];
        let mut any = false;
        // Attackers strike their targets.
        for s in 0..2 {
            for u in 0..st.counts[s] {
                let Some(a) = st.units[s][u].attack else {
                    continue;
                };
                let doubled = !self.returns_blows(&a);
                let (fighters, _) = self.contact(st, s, u, &a);
                let parts = self.melee_parts_of(
                    st,
                    s,
                    u,
                    a.target,
                    fighters,
                    a.charged && a.rounds == 0,
                    doubled,
                );
                hits[1 - s][a.target] += parts;
                struck[1 - s][a.target] = true;
                any = true;
                trace.event("[MELEE TABLE]", || {
                    format!(
                        "{} ({fighters} in contact) strikes {} ({:?}, round {}{}{}): {parts}/{PARTS} figures",
                        self.spec_of(s, u).name,
                        self.spec_of(1 - s, a.target).name,
                        a.approach,
                        a.rounds + 1,
                        if a.charged && a.rounds == 0 {
                            ", charge"
                        } else {
                            ""
                        },
                        if doubled { ", doubled" } else { "" },
                    )
                });
            }
        }
        // Stands wrapped round onto a flank or the rear [MELEE:
        // Overlapping] strike that side, doubled and unanswered for the
        // rounds of a flank (rear) attack; then the files they touch turn
        // and strike back (one figure a rank on a flank, the rear rank's).
        for s in 0..2 {
            for u in 0..st.counts[s] {
                let Some(w) = st.units[s][u].wrap else {
                    continue;
                };
                let e = w.target;
                let doubled = w.rounds < self.wrap_doubled_rounds(&w);
                let fighters = self.wrap_figures(st, s, u, &w);
                let parts = self.melee_parts_of(st, s, u, e, fighters, false, doubled);
                hits[1 - s][e] += parts;
                struck[1 - s][e] = true;
                any = true;
                let back = if doubled || st.units[1 - s][e].status != Status::Active {
                    0
                } else {
                    self.wrap_answer(st, 1 - s, e, &w).min(fighters)
                };
                let returned = self.melee_parts_of(st, 1 - s, e, u, back, false, false);
                if back > 0 {
                    hits[s][u] += returned;
                    struck[s][u] = true;
                }
                trace.event("[MELEE: Overlapping]", || {
                    format!(
                        "{fighters} figures of {} on the flank or rear of {} strike{}: {parts}/{PARTS} figures; {back} strike back: {returned}/{PARTS}",
                        self.spec_of(s, u).name,
                        self.spec_of(1 - s, e).name,
                        if doubled { ", doubled" } else { "" },
                    )
                });
            }
        }
        // Defenders that fight no melee of their own strike back at their
        // first attacker they may answer, with the figures in contact;
        // retreating units do not fight.
        for s in 0..2 {
            for u in 0..st.counts[s] {
                if st.units[s][u].attack.is_some() || st.units[s][u].status != Status::Active {
                    continue;
                }
                let answer = (0..st.counts[1 - s]).find_map(|e| {
                    st.units[1 - s][e]
                        .attack
                        .filter(|a| a.target == u && self.returns_blows(a))
                        .map(|a| (e, a))
                });
                let Some((e, a)) = answer else { continue };
                let (_, fighters) = self.contact(st, 1 - s, e, &a);
                let parts = self.melee_parts_of(st, s, u, e, fighters, false, false);
                hits[1 - s][e] += parts;
                struck[1 - s][e] = true;
                trace.event("[MELEE TABLE]", || {
                    format!(
                        "{} ({fighters} in contact) strikes back at {}: {parts}/{PARTS} figures",
                        self.spec_of(s, u).name,
                        self.spec_of(1 - s, e).name
                    )
                });
            }
        }
        for s in 0..2 {
            for u in 0..st.counts[s] {
                let unit = &mut st.units[s][u];
                if let Some(a) = unit.attack.as_mut() {
                    a.rounds += 1;
                }
                if let Some(w) = unit.wrap.as_mut() {
                    w.rounds += 1;
                }
            }
        }
        for s in 0..2 {
            for u in 0..st.counts[s] {
                if struck[s][u] {
                    self.apply_casualties(st, s, u, hits[s][u], dice, trace);
                    self.attacked(st, s, u, trace);
                    if !st.units[s][u].on_field() {
                        self.leave_melee(st, s, u);
                    }
                }
            }
        }
        any
    }
}
