//! `wom.battle`: a Warriors of Mars mass battle at 1:50 between two lines
//! of units, played turn by turn (PART I: TURN SEQUENCE, move-counter-move):
//! beginning fire, movement with charges and pass-through fire, end fire,
//! morale, melee, morale, until one side has no unit left on the field or
//! the turn limit is reached.
//!
//! The units stand on a field in inches (`field`): each has a position,
//! a facing and a footprint; contact, ranges and whether an attack falls on
//! the front, flank or rear follow from them. A scenario without positions
//! is the one-axis special case: its units stand on two facing lines
//! `distance` inches apart (see `WomBattle::new`).

use barsoom_engine::accumulate::MAX_METRICS;
use barsoom_engine::{Dice, Model, OutputSpec, Roll, Trace, TrialResult};

use super::field::{self, Footprint, V2};
use super::frontage::Wrap;
use super::tables::{BattleTables, PARTS, Troop};
use super::terrain::Area;

/// Most units a side may field (the trial state is fixed arrays).
pub(crate) const MAX_UNITS: usize = 8;
/// Most figures in one unit (a Umak is 200; an army of Umaks 2,000).
pub(crate) const MAX_FIGURES: u32 = 2000;
/// Longest distance between the battle lines, in inches (10 yards each).
pub(crate) const MAX_DISTANCE: u32 = 500;

/// From which side a unit attacks its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Approach {
    /// Face to face: both sides fight from the first round.
    Front,
    /// Flank attack: doubled, unreturned casualties in the first round(s).
    Flank,
    /// Rear attack: doubled, unreturned casualties in the first rounds.
    Rear,
}

/// One unit of a side, as the scenario gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitSpec {
    /// Name for traces.
    pub name: String,
    /// Troop type.
    pub troop: Troop,
    /// Human-type infantry with shields.
    pub shield: bool,
    /// Skirmish order at the start (green troops always).
    pub skirmish: bool,
    /// The formation it changes to at its waypoint (`true`: skirmish)
    /// [FORMATIONS].
    pub reform: Option<bool>,
    /// Morale class index into the tables.
    pub class: usize,
    /// Figures at the start.
    pub figures: u32,
    /// Figures in the first rank.
    pub front: u32,
    /// Missile weapon index, if any.
    pub weapon: Option<usize>,
    /// Carries lances (mounted only).
    pub lance: bool,
    /// Has a commander figure with it.
    pub commander: bool,
    /// A personality figure with it: name and level of ability (1..=13).
    pub personality: Option<(String, u32)>,
    /// Index of the enemy unit it attacks and shoots at.
    pub target: usize,
    /// One-axis scenarios only: where it starts, on its own line opposite
    /// its target (front), in the lane beside it (flank), or behind it (rear).
    pub approach: Approach,
    /// Percent of missile casualties it takes while still on its line.
    pub cover_keep: u64,
    /// Advances to melee (`true`) or holds its line and shoots.
    pub advance: bool,
    /// Stance `fire`: advances only until its target is in missile range,
    /// then halts there and shoots; closes once its volleys are spent.
    pub halt_in_range: bool,
    /// Normal and charge move in inches (charge 0: cannot charge).
    pub moves: (u32, u32),
}

/// One side.
#[derive(Debug, Clone, PartialEq)]
pub struct SideSpec {
    /// Name for outcome labels.
    pub name: String,
    /// Its units, at most [`MAX_UNITS`].
    pub units: Vec<UnitSpec>,
}

/// Where a unit starts on the field, and its waypoint.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Placement {
    /// Centre of its front edge, inches.
    pub at: V2,
    /// Unit vector it faces.
    pub facing: V2,
    /// A point it marches to before it turns on its target.
    pub via: Option<V2>,
}

/// A `wom.battle` scenario, loaded and checked.
#[derive(Debug, Clone)]
pub struct WomBattle {
    pub(super) tables: BattleTables,
    pub(super) sides: [SideSpec; 2],
    /// Starting places, by side and unit.
    pub(super) placements: [[Placement; MAX_UNITS]; 2],
    /// Terrain areas on the field (none on a one-axis field).
    pub(super) terrain: Vec<Area>,
    pub(super) max_turns: u32,
    pub(super) spec: OutputSpec,
}

/// Outcome indices.
pub const OUT_FIRST_WINS: u16 = 0;
/// The second side holds the field.
pub const OUT_SECOND_WINS: u16 = 1;
/// Both sides left the field in the same turn.
pub(crate) const OUT_BOTH_BROKEN: u16 = 2;
/// The turn limit came first.
pub const OUT_UNDECIDED: u16 = 3;

/// Metric indices: turns, turns with melee, then per side (first, second)
/// casualties, morale failures, routs, surrenders, commanders and
/// personality figures lost.
pub(crate) const M_TURNS: usize = 0;
/// Turns in which at least one melee round was fought.
pub(crate) const M_MELEE_ROUNDS: usize = 1;
/// Figures lost by the first side (second side: +1).
pub const M_CASUALTIES: usize = 2;
/// Failed morale checks (retreats) of the first side (second: +1).
pub(crate) const M_MORALE_FAILURES: usize = 4;
/// Units routed, first side (second: +1).
pub(crate) const M_ROUTS: usize = 6;
/// Units surrendered, first side (second: +1).
pub(crate) const M_SURRENDERS: usize = 8;
/// Unit commanders killed, first side (second: +1).
pub(crate) const M_COMMANDERS_LOST: usize = 10;
/// Personality figures killed, first side (second: +1).
pub(crate) const M_PERSONALITIES_LOST: usize = 12;

/// Where a unit stands in the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Status {
    /// In the fight.
    #[default]
    Active,
    /// Failed morale: fell back a full move and stands until the end of the
    /// given turn; attacked meanwhile, it routs.
    Retreating(u32),
    /// Routed off the table.
    Routed,
    /// Taken prisoner.
    Surrendered,
    /// Every figure lost.
    Destroyed,
}

/// One unit's state during a trial (Copy: no allocation per trial).
#[derive(Debug, Clone, Copy, Default)]
pub struct UnitState {
    /// Figures left.
    pub figures: u32,
    /// Casualties so far.
    pub casualties: u32,
    /// Casualty parts carried (below [`PARTS`]).
    pub parts: u64,
    /// Centre of its front edge on the field (inches).
    pub pos: V2,
    /// Unit vector it faces.
    pub facing: V2,
    /// It has reached its waypoint.
    pub via_done: bool,
    /// Status.
    pub status: Status,
    /// Disorganised by a morale check (checks again next turn).
    pub disorganized: bool,
    /// A morale check is due at the next check step.
    pub check_due: bool,
    /// Casualty thresholds already checked (bit per threshold).
    pub thresholds_passed: u8,
    /// Commander alive / lost.
    pub commander_alive: bool,
    /// The commander was killed.
    pub commander_lost: bool,
    /// Personality figure alive.
    pub personality_alive: bool,
    /// The personality figure was killed.
    pub personality_lost: bool,
    /// Leader-loss rolls taken (one per six casualties).
    pub leader_rolls: u32,
    /// Volleys fired.
    pub volleys: u32,
    /// Charge moves in a row.
    pub charge_streak: u32,
    /// Normal moves in a row since charging was exhausted.
    pub normal_streak: u32,
    /// Its last move was at half its normal speed or less (Charge
    /// Movement: a half move followed by a normal move is a rest).
    pub half_moved: bool,
    /// Must rest before charging again.
    pub must_rest: bool,
    /// Moved this turn (cannot fire).
    pub moved: bool,
    /// Where it started this turn's move (pass-through fire).
    pub moved_from: V2,
    /// Fired at the beginning of this turn.
    pub fired_beginning: bool,
    /// Fired mid-turn (pass-through) this turn.
    pub fired_mid: bool,
    /// Flank or rear attack begun this turn (morale penalty).
    pub flanked: bool,
    /// See `flanked`.
    pub rear_attacked: bool,
    /// Outnumbered 3-1 by superior troops at the last check.
    pub outnumbered: bool,
    /// Surrounded in the open at the last check.
    pub surrounded: bool,
    /// Whom it attacks in melee: enemy index, approach, rounds fought,
    /// charged in this turn.
    pub attack: Option<Attack>,
    /// Its current target (enemy index).
    pub target: usize,
    /// In skirmish order now [FORMATIONS].
    pub skirmish: bool,
    /// It reached its waypoint and changes formation at its next move.
    pub reform_due: bool,
    /// Figures whose riders are stunned after a stumble (they do not
    /// fight or shoot) [TERRAIN EFFECTS ON MOVEMENT: Rough Ground].
    pub stunned: u32,
    /// The last turn they are stunned.
    pub stunned_until: u32,
    /// Its unopposed stands that wrapped onto the flank or rear of the
    /// enemy it fights [MELEE: Overlapping].
    pub wrap: Option<Wrap>,
}

/// A melee this unit started against an enemy unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attack {
    /// Enemy unit index.
    pub target: usize,
    /// From where.
    pub approach: Approach,
    /// Rounds fought so far.
    pub rounds: u32,
    /// It came in by a charge move (first round adjustment).
    pub charged: bool,
}

impl UnitState {
    /// Still on the field (active or retreating).
    pub(crate) fn on_field(&self) -> bool {
        matches!(self.status, Status::Active | Status::Retreating(_))
    }
}

/// The whole battle state of one trial.
#[derive(Debug, Clone, Copy)]
pub struct BattleState {
    /// Units by side.
    pub units: [[UnitState; MAX_UNITS]; 2],
    /// Units per side.
    pub counts: [usize; 2],
    /// The turn being played (1-based).
    pub turn: u32,
    /// Metrics so far.
    pub metrics: [u32; MAX_METRICS],
}

impl WomBattle {
    /// The state at the start of a battle.
    pub fn initial_state(&self) -> BattleState {
        let mut units = [[UnitState::default(); MAX_UNITS]; 2];
        for (s, side) in self.sides.iter().enumerate() {
            for (u, spec) in side.units.iter().enumerate() {
                let place = &self.placements[s][u];
                units[s][u] = UnitState {
                    figures: spec.figures,
                    pos: place.at,
                    facing: place.facing,
                    via_done: place.via.is_none(),
                    commander_alive: spec.commander,
                    skirmish: spec.skirmish,
                    personality_alive: spec.personality.is_some(),
                    target: spec.target,
                    ..UnitState::default()
                };
            }
        }
        BattleState {
            units,
            counts: [self.sides[0].units.len(), self.sides[1].units.len()],
            turn: 0,
            metrics: [0; MAX_METRICS],
        }
    }

    pub(super) fn spec_of(&self, s: usize, u: usize) -> &UnitSpec {
        &self.sides[s].units[u]
    }

    /// The ground unit `(s, u)` covers now: its first rank (`front`
    /// figures, or all it has left) and the ranks behind, so its frontage
    /// shrinks as the last stands fall [MELEE: Overlapping] (ours: about the
    /// centre of its front).
    pub fn footprint(&self, st: &BattleState, s: usize, u: usize) -> Footprint {
        let unit = &st.units[s][u];
        let spec = self.spec_of(s, u);
        let (width, depth) =
            self.tables
                .field
                .extent(spec.troop, unit.figures, spec.front, unit.skirmish);
        Footprint {
            front: unit.pos,
            facing: unit.facing,
            width,
            depth,
        }
    }

    /// Inches from the front of unit `(s, u)` to enemy unit `e` (missile
    /// ranges; 0 in contact).
    pub fn gap(&self, st: &BattleState, s: usize, u: usize, e: usize) -> f64 {
        field::front_gap(&self.footprint(st, s, u), &self.footprint(st, 1 - s, e))
    }

    /// Inches unit `(s, u)` has come forward from where it started, along
    /// its starting facing (negative once it fell back behind its line).
    pub fn advance(&self, st: &BattleState, s: usize, u: usize) -> f64 {
        let place = &self.placements[s][u];
        let d = [
            st.units[s][u].pos[0] - place.at[0],
            st.units[s][u].pos[1] - place.at[1],
        ];
        d[0] * place.facing[0] + d[1] * place.facing[1]
    }

    /// Moves unit `(s, u)` `inches` straight ahead (back when negative).
    pub fn step_forward(&self, st: &mut BattleState, s: usize, u: usize, inches: f64) {
        let unit = &mut st.units[s][u];
        unit.pos = field::step(unit.pos, unit.facing, inches);
    }

    /// How far unit `(s, u)` must go to touch enemy unit `e`; it first turns
    /// toward the nearest point of `e` when going straight ahead would miss.
    fn approach_gap(&self, st: &mut BattleState, s: usize, u: usize, e: usize) -> f64 {
        let target = self.footprint(st, 1 - s, e);
        if let Some(d) = field::ahead(&self.footprint(st, s, u), &target) {
            return d;
        }
        self.turn_toward(st, s, u, e);
        field::ahead(&self.footprint(st, s, u), &target).unwrap_or(0.0)
    }

    /// Turns unit `(s, u)` about the centre of its front to face the
    /// nearest point of enemy unit `e`.
    fn turn_toward(&self, st: &mut BattleState, s: usize, u: usize, e: usize) {
        let pos = st.units[s][u].pos;
        if let Some(dir) = field::toward(pos, self.footprint(st, 1 - s, e).nearest(pos)) {
            st.units[s][u].facing = dir;
        }
    }

    /// A unit standing to shoot whose target is in range but outside its
    /// arc of fire turns to face it [MISSILES: Arc of Fire]. The rules give
    /// no cost for a change of facing; ours: it is movement (orders give
    /// the direction of movement [TURN SEQUENCE], a change of formation
    /// costs a half move [FORMATIONS]), so it is the unit's move this turn
    /// and it may not fire in the same turn [MISSILES: Split Move and
    /// Fire]; it fires from the next turn. Returns whether it turned.
    fn face_target<T: Trace>(
        &self,
        st: &mut BattleState,
        s: usize,
        u: usize,
        trace: &mut T,
    ) -> bool {
        let Some(e) = self.current_target(st, s, u) else {
            return false;
        };
        if !self.could_fire_facing(st, s, u, e) || self.in_arc(st, s, u, e) {
            return false;
        }
        self.turn_toward(st, s, u, e);
        let unit = &mut st.units[s][u];
        unit.moved_from = unit.pos;
        unit.moved = true;
        trace.event("[MISSILES: Arc of Fire]", || {
            format!(
                "{} turns to face {}",
                self.spec_of(s, u).name,
                self.spec_of(1 - s, e).name
            )
        });
        true
    }

    /// Marches unit `(s, u)` toward its waypoint, if it has one left;
    /// returns the inches moved, or `None` when it has no waypoint.
    fn march_to_waypoint(&self, st: &mut BattleState, s: usize, u: usize) -> Option<f64> {
        let via = self.placements[s][u].via?;
        if st.units[s][u].via_done {
            return None;
        }
        let (normal, _) = self.moves(st, s, u);
        let unit = &mut st.units[s][u];
        let left = field::norm([via[0] - unit.pos[0], via[1] - unit.pos[1]]);
        if let Some(dir) = field::toward(unit.pos, via) {
            unit.facing = dir;
        }
        let reach = left.min(f64::from(normal));
        let (pos, facing) = (unit.pos, unit.facing);
        let path = self.path_effect(st, s, u, pos, facing, reach);
        let unit = &mut st.units[s][u];
        let step = left.min(path.reach(f64::from(normal)));
        unit.moved_from = unit.pos;
        unit.pos = field::step(unit.pos, unit.facing, step);
        unit.moved = step > 0.0;
        if step >= left {
            unit.via_done = true;
            unit.reform_due = self.spec_of(s, u).reform.is_some();
        }
        Some(step)
    }

    /// Whether unit `u` of side `s` is in melee (attacking or attacked).
    pub fn engaged(&self, st: &BattleState, s: usize, u: usize) -> bool {
        st.units[s][u].attack.is_some()
            || (0..st.counts[1 - s])
                .any(|e| st.units[1 - s][e].attack.is_some_and(|a| a.target == u))
    }

    /// Moves the units of side `s` (MOVEMENT, Charge Movement), with
    /// pass-through fire at units that come into contact.
    fn move_side<T: Trace>(
        &self,
        st: &mut BattleState,
        s: usize,
        dice: &mut impl Roll,
        trace: &mut T,
    ) {
        for u in 0..st.counts[s] {
            let spec = self.spec_of(s, u);
            let unit = st.units[s][u];
            let standing = !spec.advance
                || unit.status != Status::Active
                || self.engaged(st, s, u)
                || spec
                    .weapon
                    .is_some_and(|w| self.tables.weapons[w].per_turn == 2 && unit.fired_beginning);
            if standing {
                if self.engaged(st, s, u) {
                    // In melee: turning to a flank attacker, overlapping.
                    self.melee_move(st, s, u, trace);
                    continue;
                }
                // Stance `hold`: it may still turn to face its target.
                if !spec.advance && unit.status == Status::Active && !unit.fired_beginning {
                    self.face_target(st, s, u, trace);
                }
                continue;
            }
            if let Some(step) = self.march_to_waypoint(st, s, u) {
                self.count_move(st, s, u, false, step);
                trace.event("[MOVEMENT]", || {
                    format!("{} marches {step:.1}\" toward its waypoint", spec.name)
                });
                continue;
            }
            let Some(e) = self.current_target(st, s, u) else {
                continue;
            };
            if spec.halt_in_range && self.could_fire_facing(st, s, u, e) {
                // Stance `fire`: in range with volleys left, it stands,
                // turning to face a target outside its arc.
                self.face_target(st, s, u, trace);
                continue;
            }
            // FORMATIONS: a change of formation costs half a normal move
            // (of the formation taken: ours) and no charge that turn.
            let reformed = self.reform(st, s, u, trace);
            let gap = self.approach_gap(st, s, u, e).max(0.0);
            let (normal, charge) = self.moves(st, s, u);
            let normal = if reformed {
                f64::from(normal) / 2.0
            } else {
                f64::from(normal)
            };
            let (pos, facing) = (st.units[s][u].pos, st.units[s][u].facing);
            // Stance `fire` with volleys left: walk only into its range.
            let range_to_keep = spec.weapon.and_then(|w| {
                let weapon = &self.tables.weapons[w];
                (spec.halt_in_range && unit.volleys < weapon.max_volleys)
                    .then_some(weapon.range)
                    .flatten()
            });
            // TERRAIN EFFECTS ON MOVEMENT along the charge to contact and
            // along the normal move.
            let can_charge = charge > 0 && !unit.must_rest && range_to_keep.is_none() && !reformed;
            let charge_path = self.path_effect(st, s, u, pos, facing, gap);
            let charging = can_charge
                && !charge_path.no_charge
                && charge_path.halt_at.is_none()
                && gap <= f64::from(charge) - charge_path.penalty
                && gap > 0.0;
            let step = if charging {
                gap
            } else {
                let wanted = range_to_keep.map_or(gap, |r| (gap - f64::from(r)).max(0.0));
                let path = self.path_effect(st, s, u, pos, facing, wanted.min(normal));
                wanted.min(path.reach(normal))
            };
            st.units[s][u].moved_from = st.units[s][u].pos;
            self.step_forward(st, s, u, step);
            self.count_move(st, s, u, charging, step);
            if step > 0.0 {
                trace.event("[MOVEMENT]", || {
                    let kind = if charging { "charges" } else { "moves" };
                    format!("{} {kind} {step}\"", spec.name)
                });
            }
            if charging && let Some(kind) = charge_path.stumble {
                self.stumbles(st, s, u, kind, dice, trace);
            }
            if step < gap {
                continue;
            }
            // Pass-through fire: the target, if it neither moved nor fired
            // at the beginning, shoots at the halfway point of the move.
            if st.units[1 - s][e].target == u
                && !st.units[1 - s][e].moved
                && !st.units[1 - s][e].fired_beginning
                && !self.engaged(st, 1 - s, e)
            {
                let saved = st.units[s][u].pos;
                st.units[s][u].pos = st.units[s][u].moved_from;
                self.step_forward(st, s, u, step / 2.0);
                if self.can_fire(st, 1 - s, e, u) {
                    let firers = self.firers(st, 1 - s, e);
                    let parts = self.missile_parts(st, 1 - s, e, u, firers);
                    st.units[1 - s][e].volleys += 1;
                    st.units[1 - s][e].fired_mid = true;
                    trace.event("[MISSILES: Pass-Through Fire]", || {
                        format!(
                            "{} fires at {} halfway in: {parts}/{PARTS} figures",
                            self.spec_of(1 - s, e).name,
                            spec.name
                        )
                    });
                    self.apply_casualties(st, s, u, parts, dice, trace);
                }
                st.units[s][u].pos = saved;
            }
            if !st.units[s][u].on_field() {
                continue;
            }
            // MELEE: Flank Attack, Rear Attack: the side it touches; it
            // squares up against that side (ours).
            let (me, them) = (self.footprint(st, s, u), self.footprint(st, 1 - s, e));
            let approach = field::side_of(&me, &them);
            let (pos, facing) = field::square_up(&me, &them, approach);
            st.units[s][u].pos = pos;
            st.units[s][u].facing = facing;
            st.units[s][u].attack = Some(Attack {
                target: e,
                approach,
                rounds: 0,
                charged: charging,
            });
            match approach {
                Approach::Flank => st.units[1 - s][e].flanked = true,
                Approach::Rear => st.units[1 - s][e].rear_attacked = true,
                Approach::Front => {}
            }
            if approach != Approach::Front {
                st.units[1 - s][e].check_due = true;
            }
            trace.event("[MELEE]", || {
                format!(
                    "{} contacts {} ({approach:?})",
                    spec.name,
                    self.spec_of(1 - s, e).name
                )
            });
        }
    }

    /// Normal and charge moves of `(s, u)` in the formation it is in now
    /// [MOVEMENT: Movement Table].
    pub fn moves(&self, st: &BattleState, s: usize, u: usize) -> (u32, u32) {
        let spec = self.spec_of(s, u);
        self.tables.moves[spec.troop.index()][usize::from(st.units[s][u].skirmish)]
            .unwrap_or(spec.moves)
    }

    /// Makes the change of formation of `(s, u)` that is due, if any
    /// [FORMATIONS]; returns whether it changed (its move this turn is
    /// then half a normal move, and no charge).
    fn reform<T: Trace>(&self, st: &mut BattleState, s: usize, u: usize, trace: &mut T) -> bool {
        let spec = self.spec_of(s, u);
        let unit = &mut st.units[s][u];
        if !unit.reform_due {
            return false;
        }
        unit.reform_due = false;
        match spec.reform {
            Some(to) if to != unit.skirmish => {
                unit.skirmish = to;
                trace.event("[FORMATIONS]", || {
                    let order = if to { "skirmish" } else { "formed" };
                    format!("{} changes to {order} order: half a move", spec.name)
                });
                true
            }
            _ => false,
        }
    }

    /// Charge bookkeeping after a move of `step` inches [MOVEMENT: Charge
    /// Movement]: three charges in a row call for a rest; three normal
    /// moves in a row give it, and so does a move at half speed (or less)
    /// followed by a normal move (a turn without moving: see `turn`).
    fn count_move(&self, st: &mut BattleState, s: usize, u: usize, charging: bool, step: f64) {
        let half_move = f64::from(self.moves(st, s, u).0) / 2.0;
        let unit = &mut st.units[s][u];
        unit.moved = step > 0.0;
        let charge_turns = self.tables.charge_turns;
        if charging {
            unit.charge_streak += 1;
            unit.normal_streak = 0;
            unit.half_moved = false;
            if unit.charge_streak >= charge_turns {
                unit.must_rest = true;
            }
        } else if step > 0.0 {
            unit.normal_streak += 1;
            if unit.normal_streak >= charge_turns || unit.half_moved {
                unit.must_rest = false;
                unit.charge_streak = 0;
            }
            unit.half_moved = step <= half_move;
        }
    }

    fn side_on_field(st: &BattleState, s: usize) -> bool {
        st.units[s][..st.counts[s]].iter().any(|u| u.on_field())
    }

    /// Plays one turn (PART I: TURN SEQUENCE, move-counter-move).
    pub fn turn<T: Trace>(&self, st: &mut BattleState, dice: &mut impl Roll, trace: &mut T) {
        st.turn += 1;
        let turn = st.turn;
        for s in 0..2 {
            for u in 0..st.counts[s] {
                let unit = &mut st.units[s][u];
                unit.moved = false;
                unit.fired_beginning = false;
                unit.fired_mid = false;
                if unit.stunned_until < turn {
                    unit.stunned = 0;
                }
            }
        }
        // 1) Beginning turn fire: units that fire twice a turn and stand.
        let tables = &self.tables;
        self.volley(
            st,
            true,
            |_, spec| {
                (!spec.advance || spec.halt_in_range)
                    && spec.weapon.is_some_and(|w| tables.weapons[w].per_turn == 2)
            },
            dice,
            trace,
        );
        // 2-4) Movement, side A first on odd turns, side B on even turns.
        let first = usize::from(turn.is_multiple_of(2));
        self.move_side(st, first, dice, trace);
        self.move_side(st, 1 - first, dice, trace);
        for s in 0..2 {
            for u in 0..st.counts[s] {
                let unit = &mut st.units[s][u];
                if !unit.moved && unit.status == Status::Active && unit.must_rest {
                    // Charge Movement: a turn without moving is a rest.
                    unit.must_rest = false;
                    unit.charge_streak = 0;
                }
            }
        }
        // 5) End turn fire by units that did not move nor fire mid-turn.
        self.volley(
            st,
            false,
            |unit, _| !unit.moved && !unit.fired_mid,
            dice,
            trace,
        );
        // 6) Morale, 7) melee, 8) morale.
        self.morale_checks(st, dice, trace);
        if self.melee_round(st, dice, trace) {
            st.metrics[M_MELEE_ROUNDS] += 1;
        }
        self.morale_checks(st, dice, trace);
        for s in 0..2 {
            for u in 0..st.counts[s] {
                let unit = &mut st.units[s][u];
                unit.flanked = false;
                unit.rear_attacked = false;
                if unit.status == Status::Retreating(turn) {
                    unit.status = Status::Active;
                }
            }
        }
    }

    /// Plays a battle to its end; returns the outcome index.
    pub fn play<T: Trace>(&self, st: &mut BattleState, dice: &mut impl Roll, trace: &mut T) -> u16 {
        while st.turn < self.max_turns {
            self.turn(st, dice, trace);
            let on = [Self::side_on_field(st, 0), Self::side_on_field(st, 1)];
            let outcome = match on {
                [true, true] => continue,
                [true, false] => OUT_FIRST_WINS,
                [false, true] => OUT_SECOND_WINS,
                [false, false] => OUT_BOTH_BROKEN,
            };
            st.metrics[M_TURNS] = st.turn;
            return outcome;
        }
        st.metrics[M_TURNS] = st.turn;
        OUT_UNDECIDED
    }
}

impl Model for WomBattle {
    fn spec(&self) -> &OutputSpec {
        &self.spec
    }

    fn run_trial<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        let mut st = self.initial_state();
        let outcome = self.play(&mut st, dice, trace);
        TrialResult {
            outcome,
            metrics: st.metrics,
        }
    }
}
