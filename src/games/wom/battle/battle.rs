//! `wom.battle`: a Warriors of Mars mass battle at 1:50 between two lines
//! of units, played turn by turn (PART I: TURN SEQUENCE, move-counter-move):
//! beginning fire, movement with charges and pass-through fire, end fire,
//! morale, melee, morale, until one side has no unit left on the field or
//! the turn limit is reached.
//!
//! Geometry is reduced to one axis: each unit's `advance` is how far it has
//! come from its own battle line, so the gap between a unit and its target
//! is `distance - advance - target advance`. Frontage, wheeling, arcs of fire
//! and overlaps are not modelled: a scenario says which enemy unit each unit
//! attacks and whether from the front, flank or rear.

use std::path::Path;

use serde::Deserialize;

use super::tables::{BattleTables, PARTS, TROOP_NAMES, Troop, WEAPON_NAMES};
use crate::engine::accumulate::MAX_METRICS;
use crate::engine::{Dice, MetricSpec, Model, OutputSpec, Trace, TrialResult};
use crate::scenario::{ScenarioError, parse_toml, read_text};

/// Most units a side may field (the trial state is fixed arrays).
pub const MAX_UNITS: usize = 8;
/// Most figures in one unit (a Umak is 200; an army of Umaks 2,000).
pub const MAX_FIGURES: u32 = 2000;
/// Longest distance between the battle lines, in inches (10 yards each).
pub const MAX_DISTANCE: u32 = 500;

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
    /// Skirmish order (green troops always).
    pub skirmish: bool,
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
    /// From where it attacks.
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

/// A `wom.battle` scenario, loaded and checked.
#[derive(Debug, Clone)]
pub struct WomBattle {
    tables: BattleTables,
    sides: [SideSpec; 2],
    distance: u32,
    max_turns: u32,
    spec: OutputSpec,
}

/// Outcome indices.
pub const OUT_FIRST_WINS: u16 = 0;
/// The second side holds the field.
pub const OUT_SECOND_WINS: u16 = 1;
/// Both sides left the field in the same turn.
pub const OUT_BOTH_BROKEN: u16 = 2;
/// The turn limit came first.
pub const OUT_UNDECIDED: u16 = 3;

/// Metric indices: turns, turns with melee, then per side (first, second)
/// casualties, morale failures, routs, surrenders, commanders and
/// personality figures lost.
pub const M_TURNS: usize = 0;
/// Turns in which at least one melee round was fought.
pub const M_MELEE_ROUNDS: usize = 1;
/// Figures lost by the first side (second side: +1).
pub const M_CASUALTIES: usize = 2;
/// Failed morale checks (retreats) of the first side (second: +1).
pub const M_MORALE_FAILURES: usize = 4;
/// Units routed, first side (second: +1).
pub const M_ROUTS: usize = 6;
/// Units surrendered, first side (second: +1).
pub const M_SURRENDERS: usize = 8;
/// Unit commanders killed, first side (second: +1).
pub const M_COMMANDERS_LOST: usize = 10;
/// Personality figures killed, first side (second: +1).
pub const M_PERSONALITIES_LOST: usize = 12;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BattleFile {
    model: String,
    description: String,
    data: Option<String>,
    distance: i64,
    max_turns: Option<i64>,
    sides: Vec<SideFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideFile {
    name: String,
    units: Vec<UnitFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitFile {
    name: String,
    troop: String,
    class: String,
    figures: i64,
    front: Option<i64>,
    formation: Option<String>,
    #[serde(default)]
    shield: bool,
    missile: Option<String>,
    #[serde(default)]
    lance: bool,
    #[serde(default)]
    commander: bool,
    personality: Option<PersonalityFile>,
    target: Option<i64>,
    attack: Option<String>,
    cover: Option<String>,
    stance: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PersonalityFile {
    name: String,
    level: i64,
}

impl WomBattle {
    /// Loads a `wom.battle` scenario and the tables it names.
    pub fn load(path: &Path) -> Result<(Self, String), ScenarioError> {
        let text = read_text(path)?;
        let file: BattleFile = parse_toml(path, &text)?;
        crate::scenario::expect_model(path, &file.model, "wom.battle")?;
        let dir = crate::scenario::data_dir(path, file.data.as_deref());
        let tables = BattleTables::load(&dir)?;
        let model = Self::build(path, &file, tables)?;
        Ok((model, file.description))
    }

    fn build(path: &Path, file: &BattleFile, tables: BattleTables) -> Result<Self, ScenarioError> {
        let err = |field: String, message: String| ScenarioError::new(path, field, message);
        if !(1..=i64::from(MAX_DISTANCE)).contains(&file.distance) {
            return Err(err(
                "distance".into(),
                format!(
                    "expected inches between the battle lines, 1 to {MAX_DISTANCE}, found {}",
                    file.distance
                ),
            ));
        }
        let max_turns = file.max_turns.unwrap_or(60);
        if !(1..=1000).contains(&max_turns) {
            return Err(err(
                "max_turns".into(),
                format!("expected 1 to 1000 turns, found {max_turns}"),
            ));
        }
        if file.sides.len() != 2 {
            return Err(err(
                "sides".into(),
                format!("expected two [[sides]], found {}", file.sides.len()),
            ));
        }
        let mut sides = Vec::new();
        for (s, side) in file.sides.iter().enumerate() {
            let enemy_units = file.sides[1 - s].units.len();
            if side.units.is_empty() || side.units.len() > MAX_UNITS {
                return Err(err(
                    format!("sides[{s}].units"),
                    format!(
                        "expected 1 to {MAX_UNITS} units, found {}",
                        side.units.len()
                    ),
                ));
            }
            let mut units = Vec::new();
            for (u, unit) in side.units.iter().enumerate() {
                let field = |f: &str| format!("sides[{s}].units[{u}].{f}");
                units.push(unit_spec(&tables, unit, u, enemy_units, &|f, m| {
                    err(field(f), m)
                })?);
            }
            sides.push(SideSpec {
                name: side.name.clone(),
                units,
            });
        }
        let second = sides.pop().expect("two sides checked");
        let first = sides.pop().expect("two sides checked");
        Ok(Self::new(
            tables,
            [first, second],
            file.distance as u32,
            max_turns as u32,
        ))
    }

    /// A battle between two checked sides `distance` inches apart.
    pub fn new(tables: BattleTables, sides: [SideSpec; 2], distance: u32, max_turns: u32) -> Self {
        let mut metrics = vec![
            metric("turns", "turns played"),
            metric("melee_turns", "turns with a round of melee"),
        ];
        let per_side = [
            ("casualties", "figures lost by"),
            ("morale_failures", "failed morale checks of"),
            ("routs", "units routed of"),
            ("surrenders", "units surrendered of"),
            ("commanders_lost", "unit commanders killed of"),
            ("personalities_lost", "personality figures killed of"),
        ];
        for (name, what) in per_side {
            for (s, side) in sides.iter().enumerate() {
                let tag = if s == 0 { "first" } else { "second" };
                metrics.push(metric(
                    &format!("{name}_{tag}"),
                    &format!("{what} {}", side.name),
                ));
            }
        }
        let spec = OutputSpec {
            outcomes: vec![
                format!("{} wins", sides[0].name),
                format!("{} wins", sides[1].name),
                "both sides broken".into(),
                "undecided (turn limit)".into(),
            ],
            metrics,
            length_metric: Some(M_TURNS),
            trends: Vec::new(),
        };
        WomBattle {
            tables,
            sides,
            distance,
            max_turns,
            spec,
        }
    }

    /// The tables in use.
    pub fn tables(&self) -> &BattleTables {
        &self.tables
    }
}

fn metric(name: &str, description: &str) -> MetricSpec {
    MetricSpec {
        name: name.into(),
        description: description.into(),
    }
}

fn unit_spec(
    tables: &BattleTables,
    unit: &UnitFile,
    index: usize,
    enemy_units: usize,
    err: &dyn Fn(&str, String) -> ScenarioError,
) -> Result<UnitSpec, ScenarioError> {
    let troop = Troop::parse(&unit.troop).ok_or_else(|| {
        err(
            "troop",
            format!(
                "expected a troop type ({}), found {:?}",
                TROOP_NAMES.join(", "),
                unit.troop
            ),
        )
    })?;
    let class = tables.class(&unit.class).ok_or_else(|| {
        err(
            "class",
            format!(
                "expected a troop class ({}), found {:?}",
                tables.class_names(),
                unit.class
            ),
        )
    })?;
    if !(1..=i64::from(MAX_FIGURES)).contains(&unit.figures) {
        return Err(err(
            "figures",
            format!(
                "expected 1 to {MAX_FIGURES} figures, found {}",
                unit.figures
            ),
        ));
    }
    let figures = unit.figures as u32;
    let front = unit.front.unwrap_or(unit.figures);
    if !(1..=unit.figures).contains(&front) {
        return Err(err(
            "front",
            format!("expected 1 to {figures} figures in the first rank, found {front}"),
        ));
    }
    let default_formation = if troop.is_green() {
        "skirmish"
    } else {
        "formed"
    };
    let skirmish = match unit.formation.as_deref().unwrap_or(default_formation) {
        "formed" => false,
        "skirmish" => true,
        other => {
            return Err(err(
                "formation",
                format!("expected \"formed\" or \"skirmish\", found {other:?}"),
            ));
        }
    };
    let moves = tables.moves[troop.index()][usize::from(skirmish)].ok_or_else(|| {
        err(
            "formation",
            format!("{} always skirmish (FORMATIONS)", unit.troop),
        )
    })?;
    if unit.shield && troop != Troop::HumanInfantry {
        return Err(err(
            "shield",
            "expected shields only on human-infantry (MELEE TABLE)".into(),
        ));
    }
    if unit.lance && !troop.is_mounted() {
        return Err(err(
            "lance",
            "expected lances only on cavalry (mounted lance charge)".into(),
        ));
    }
    let weapon = match unit.missile.as_deref() {
        None | Some("none") => None,
        Some(name) => Some(
            WEAPON_NAMES
                .iter()
                .position(|w| *w == name)
                .ok_or_else(|| {
                    err(
                        "missile",
                        format!(
                            "expected none or a missile weapon ({}), found {name:?}",
                            WEAPON_NAMES.join(", ")
                        ),
                    )
                })?,
        ),
    };
    let personality = match &unit.personality {
        None => None,
        Some(p) => {
            if !(1..=13).contains(&p.level) {
                return Err(err(
                    "personality.level",
                    format!("expected a level of ability 1 to 13, found {}", p.level),
                ));
            }
            Some((p.name.clone(), p.level as u32))
        }
    };
    let target = unit.target.unwrap_or(index.min(enemy_units - 1) as i64);
    if !(0..enemy_units as i64).contains(&target) {
        return Err(err(
            "target",
            format!(
                "expected an enemy unit index 0 to {}, found {target}",
                enemy_units - 1
            ),
        ));
    }
    let approach = match unit.attack.as_deref().unwrap_or("front") {
        "front" => Approach::Front,
        "flank" => Approach::Flank,
        "rear" => Approach::Rear,
        other => {
            return Err(err(
                "attack",
                format!("expected \"front\", \"flank\" or \"rear\", found {other:?}"),
            ));
        }
    };
    let cover_keep = match unit.cover.as_deref().unwrap_or("none") {
        "none" => 100,
        "soft" => tables.soft_cover_keep,
        "hard" => tables.hard_cover_keep,
        other => {
            return Err(err(
                "cover",
                format!("expected \"none\", \"soft\" or \"hard\", found {other:?}"),
            ));
        }
    };
    let (advance, halt_in_range) = match unit.stance.as_deref().unwrap_or("advance") {
        "advance" => (true, false),
        "hold" => (false, false),
        "fire" if unit.missile.is_some() => (true, true),
        "fire" => {
            return Err(err(
                "stance",
                "expected a missile weapon with stance \"fire\"".into(),
            ));
        }
        other => {
            return Err(err(
                "stance",
                format!("expected \"advance\", \"hold\" or \"fire\", found {other:?}"),
            ));
        }
    };
    Ok(UnitSpec {
        name: unit.name.clone(),
        troop,
        shield: unit.shield,
        skirmish,
        class,
        figures,
        front: front as u32,
        weapon,
        lance: unit.lance,
        commander: unit.commander,
        personality,
        target: target as usize,
        approach,
        cover_keep,
        advance,
        halt_in_range,
        moves,
    })
}

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
    /// Inches advanced from its own battle line.
    pub advance: i32,
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
    /// Must rest before charging again.
    pub must_rest: bool,
    /// Moved this turn (cannot fire).
    pub moved: bool,
    /// Where it started this turn's move (pass-through fire).
    pub moved_from: i32,
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
    /// Whom it attacks in melee: enemy index, approach, rounds fought,
    /// charged in this turn.
    pub attack: Option<Attack>,
    /// Its current target (enemy index).
    pub target: usize,
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
    pub fn on_field(&self) -> bool {
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
                units[s][u] = UnitState {
                    figures: spec.figures,
                    commander_alive: spec.commander,
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

    fn spec_of(&self, s: usize, u: usize) -> &UnitSpec {
        &self.sides[s].units[u]
    }

    /// Gap in inches between unit `u` of side `s` and enemy unit `e`.
    pub fn gap(&self, st: &BattleState, s: usize, u: usize, e: usize) -> i32 {
        self.distance as i32 - st.units[s][u].advance - st.units[1 - s][e].advance
    }

    /// Whether unit `u` of side `s` is in melee (attacking or attacked).
    pub fn engaged(&self, st: &BattleState, s: usize, u: usize) -> bool {
        st.units[s][u].attack.is_some()
            || (0..st.counts[1 - s])
                .any(|e| st.units[1 - s][e].attack.is_some_and(|a| a.target == u))
    }

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
        let cover = if st.units[1 - s][e].advance <= 0 {
            target.cover_keep
        } else {
            100
        };
        let skirmish = if target.skirmish {
            t.skirmisher_keep
        } else {
            100
        };
        u64::from(firers) * per_firer * cover * skirmish / 10_000
    }

    /// Melee casualties, in parts of a figure, that unit `(s, u)` inflicts
    /// on enemy unit `e` this round (MELEE TABLE with its adjustments):
    /// `charged` for its first round after a charge, `doubled` for the first
    /// round(s) of a flank or rear attack.
    pub fn melee_parts(
        &self,
        st: &BattleState,
        s: usize,
        u: usize,
        e: usize,
        charged: bool,
        doubled: bool,
    ) -> u64 {
        let t = &self.tables;
        let attacker = self.spec_of(s, u);
        let defender = self.spec_of(1 - s, e);
        let dstate = &st.units[1 - s][e];
        let column = match defender.troop {
            Troop::HumanInfantry => usize::from(defender.shield),
            Troop::GreenInfantry => 2,
            Troop::HumanCavalry => 3,
            Troop::GreenCavalry => 4,
        };
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
        let fighters = u64::from(st.units[s][u].figures.min(attacker.front));
        let mut parts = group_parts(attacker.troop, fighters);
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
        dice: &mut Dice,
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
                let roll = dice.d6();
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
                let roll = dice.d6();
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

    /// The adjusted steady score of unit `(s, u)` now (MORALE TABLE with the
    /// bonuses and penalties).
    pub fn morale_modifier(&self, st: &BattleState, s: usize, u: usize) -> i32 {
        let m = &self.tables.morale;
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
        total
    }

    /// Whether unit `(s, u)` is in melee with three times its figures or
    /// more of troops whose class is at least as good.
    fn outnumbered(&self, st: &BattleState, s: usize, u: usize) -> bool {
        let own = &self.tables.classes[self.spec_of(s, u).class];
        let mut enemies = 0;
        let mut superior = false;
        for e in 0..st.counts[1 - s] {
            let theirs = st.units[1 - s][e].attack.is_some_and(|a| a.target == u);
            let ours = st.units[s][u].attack.is_some_and(|a| a.target == e);
            if theirs || ours {
                enemies += st.units[1 - s][e].figures;
                superior |= self.tables.classes[self.spec_of(1 - s, e).class].steady >= own.steady;
            }
        }
        superior && enemies >= 3 * st.units[s][u].figures.max(1)
    }

    /// Makes every morale check that is due (MORALE CHECKS TO BE MADE).
    pub fn morale_checks<T: Trace>(&self, st: &mut BattleState, dice: &mut Dice, trace: &mut T) {
        let m = &self.tables.morale;
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
        dice: &mut Dice,
        trace: &mut T,
    ) {
        let spec = self.spec_of(s, u);
        let class = &self.tables.classes[spec.class];
        let modifier = self.morale_modifier(st, s, u);
        let steady = class.steady + modifier;
        let disorganized = class.disorganized + modifier;
        if steady <= self.tables.morale.surrender_at {
            trace.event("[MORALE TABLE: surrender]", || {
                format!("{}: steady score {steady}, surrenders", spec.name)
            });
            st.metrics[M_SURRENDERS + s] += 1;
            self.leave_field(st, s, u, Status::Surrendered);
            return;
        }
        let roll = (dice.d6() + dice.d6()) as i32;
        if roll <= steady {
            st.units[s][u].disorganized = false;
        } else if roll <= disorganized {
            st.units[s][u].disorganized = true;
            st.units[s][u].check_due = true;
        } else {
            st.metrics[M_MORALE_FAILURES + s] += 1;
            self.leave_melee(st, s, u);
            let unit = &mut st.units[s][u];
            unit.disorganized = false;
            unit.status = Status::Retreating(st.turn + 1);
            unit.advance -= spec.moves.0 as i32;
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

    /// Ends every melee unit `(s, u)` takes part in.
    fn leave_melee(&self, st: &mut BattleState, s: usize, u: usize) {
        st.units[s][u].attack = None;
        for e in 0..st.counts[1 - s] {
            if st.units[1 - s][e].attack.is_some_and(|a| a.target == u) {
                st.units[1 - s][e].attack = None;
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
            let at = st.units[s][u].advance;
            let within = self.tables.morale.routing_within as i32;
            for f in 0..st.counts[s] {
                let friend = &mut st.units[s][f];
                if f != u && friend.on_field() && (friend.advance - at).abs() <= within {
                    friend.check_due = true;
                }
            }
        }
    }

    /// A retreating unit that is attacked routs (MORALE TABLE).
    fn attacked<T: Trace>(&self, st: &mut BattleState, s: usize, u: usize, trace: &mut T) {
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

    /// The enemy unit `(s, u)` aims at: its target, or the first enemy unit
    /// still on the field once its target is gone.
    fn current_target(&self, st: &mut BattleState, s: usize, u: usize) -> Option<usize> {
        let t = st.units[s][u].target;
        if st.units[1 - s][t].on_field() {
            return Some(t);
        }
        let next = (0..st.counts[1 - s]).find(|&e| st.units[1 - s][e].on_field())?;
        st.units[s][u].target = next;
        Some(next)
    }

    /// Whether `(s, u)` may shoot `e` now: weapon, volleys left, in range,
    /// neither in melee (missiles may not be fired into a melee).
    fn can_fire(&self, st: &BattleState, s: usize, u: usize, e: usize) -> bool {
        let spec = self.spec_of(s, u);
        let Some(w) = spec.weapon else { return false };
        let weapon = &self.tables.weapons[w];
        let gap = self.gap(st, s, u, e).max(0) as u32;
        st.units[s][u].status == Status::Active
            && st.units[s][u].volleys < weapon.max_volleys
            && weapon.range.is_none_or(|r| gap <= r)
            && !self.engaged(st, s, u)
            && !self.engaged(st, 1 - s, e)
    }

    /// Figures of `(s, u)` that fire: the ranks its weapon allows.
    fn firers(&self, st: &BattleState, s: usize, u: usize) -> u32 {
        let spec = self.spec_of(s, u);
        let ranks = spec.weapon.map_or(0, |w| self.tables.weapons[w].ranks);
        st.units[s][u].figures.min(spec.front * ranks)
    }

    /// Simultaneous fire of every unit for which `eligible` holds.
    fn volley<T: Trace>(
        &self,
        st: &mut BattleState,
        beginning: bool,
        eligible: impl Fn(&UnitState, &UnitSpec) -> bool,
        dice: &mut Dice,
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

    /// Moves the units of side `s` (MOVEMENT, Charge Movement), with
    /// pass-through fire at units that come into contact.
    fn move_side<T: Trace>(&self, st: &mut BattleState, s: usize, dice: &mut Dice, trace: &mut T) {
        let charge_turns = self.tables.charge_turns;
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
                continue;
            }
            let Some(e) = self.current_target(st, s, u) else {
                continue;
            };
            if spec.halt_in_range && self.can_fire(st, s, u, e) {
                // Stance `fire`: in range with volleys left, it stands.
                continue;
            }
            let gap = self.gap(st, s, u, e).max(0);
            let (normal, charge) = spec.moves;
            // Stance `fire` with volleys left: walk only into its range.
            let range_to_keep = spec.weapon.and_then(|w| {
                let weapon = &self.tables.weapons[w];
                (spec.halt_in_range && unit.volleys < weapon.max_volleys)
                    .then_some(weapon.range)
                    .flatten()
            });
            let can_charge = charge > 0 && !unit.must_rest && range_to_keep.is_none();
            let charging = can_charge && gap <= charge as i32 && gap > 0;
            let step = if charging {
                gap
            } else {
                let wanted = range_to_keep.map_or(gap, |r| (gap - r as i32).max(0));
                wanted.min(normal as i32)
            };
            let unit = &mut st.units[s][u];
            unit.moved = step > 0;
            unit.moved_from = unit.advance;
            unit.advance += step;
            if charging {
                unit.charge_streak += 1;
                unit.normal_streak = 0;
                if unit.charge_streak >= charge_turns {
                    unit.must_rest = true;
                }
            } else if step > 0 {
                unit.normal_streak += 1;
                if unit.normal_streak >= charge_turns {
                    unit.must_rest = false;
                    unit.charge_streak = 0;
                }
            }
            if step > 0 {
                trace.event("[MOVEMENT]", || {
                    let kind = if charging { "charges" } else { "moves" };
                    format!("{} {kind} {step}\"", spec.name)
                });
            }
            if self.gap(st, s, u, e) > 0 {
                continue;
            }
            // Pass-through fire: the target, if it neither moved nor fired
            // at the beginning, shoots at the halfway point of the move.
            if st.units[1 - s][e].target == u
                && !st.units[1 - s][e].moved
                && !st.units[1 - s][e].fired_beginning
                && !self.engaged(st, 1 - s, e)
            {
                let halfway = st.units[s][u].moved_from + step / 2;
                let saved = st.units[s][u].advance;
                st.units[s][u].advance = halfway;
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
                st.units[s][u].advance = saved;
            }
            if !st.units[s][u].on_field() {
                continue;
            }
            let approach = spec.approach;
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
    fn melee_round<T: Trace>(&self, st: &mut BattleState, dice: &mut Dice, trace: &mut T) -> bool {
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
                let parts =
                    self.melee_parts(st, s, u, a.target, a.charged && a.rounds == 0, doubled);
                hits[1 - s][a.target] += parts;
                struck[1 - s][a.target] = true;
                any = true;
                trace.event("[MELEE TABLE]", || {
                    format!(
                        "{} strikes {} ({:?}, round {}{}{}): {parts}/{PARTS} figures",
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
        // Defenders that fight no melee of their own strike back at their
        // first attacker they may answer; retreating units do not fight.
        for s in 0..2 {
            for u in 0..st.counts[s] {
                if st.units[s][u].attack.is_some() || st.units[s][u].status != Status::Active {
                    continue;
                }
                let answer = (0..st.counts[1 - s]).find(|&e| {
                    st.units[1 - s][e]
                        .attack
                        .is_some_and(|a| a.target == u && self.returns_blows(&a))
                });
                let Some(e) = answer else { continue };
                let parts = self.melee_parts(st, s, u, e, false, false);
                hits[1 - s][e] += parts;
                struck[1 - s][e] = true;
                trace.event("[MELEE TABLE]", || {
                    format!(
                        "{} strikes back at {}: {parts}/{PARTS} figures",
                        self.spec_of(s, u).name,
                        self.spec_of(1 - s, e).name
                    )
                });
            }
        }
        for s in 0..2 {
            for u in 0..st.counts[s] {
                if let Some(a) = st.units[s][u].attack.as_mut() {
                    a.rounds += 1;
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

    fn side_on_field(st: &BattleState, s: usize) -> bool {
        st.units[s][..st.counts[s]].iter().any(|u| u.on_field())
    }

    /// Plays one turn (PART I: TURN SEQUENCE, move-counter-move).
    pub fn turn<T: Trace>(&self, st: &mut BattleState, dice: &mut Dice, trace: &mut T) {
        st.turn += 1;
        let turn = st.turn;
        for s in 0..2 {
            for u in 0..st.counts[s] {
                let unit = &mut st.units[s][u];
                unit.moved = false;
                unit.fired_beginning = false;
                unit.fired_mid = false;
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
    pub fn play<T: Trace>(&self, st: &mut BattleState, dice: &mut Dice, trace: &mut T) -> u16 {
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
