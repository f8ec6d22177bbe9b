//! The `wom.battle` scenario file: its format, its validation into a
//! [`WomBattle`](super::battle::WomBattle), and the output spec.

use barsoom_engine::scenario::Load;

use crate::ScenarioModel;

use barsoom_engine::scenario::{Loader, Scenario};
use std::path::Path;

use serde::Deserialize;

use barsoom_engine::scenario::ScenarioError;
use barsoom_engine::{MetricSpec, OutputSpec};

use super::battle::{
    Approach, M_TURNS, MAX_DISTANCE, MAX_FIGURES, MAX_UNITS, Placement, SideSpec, UnitSpec,
    WomBattle,
};
use super::field;
use super::tables::{BattleTables, TROOP_NAMES, Troop, WEAPON_NAMES};
use super::terrain::Area;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BattleFile {
    #[serde(flatten)]
    scenario: Scenario,
    /// One-axis scenario: inches between the battle lines, 1 to 500 (the
    /// units need no positions). Give this or `table`.
    distance: Option<i64>,
    /// Field scenario: the table's width and depth in inches, each 1 to
    /// 500; every unit then needs `at`. Give this or `distance`.
    table: Option<[f64; 2]>,
    /// Turns before the battle is scored undecided (turn limit), 1 to 1,000.
    max_turns: Option<i64>,
    /// Exactly two sides.
    sides: Vec<SideFile>,
    /// Field scenarios: terrain areas on the table.
    #[serde(default)]
    terrain: Vec<TerrainFile>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct TerrainFile {
    /// A kind of the data folder's `battle-tables.toml` `[terrain]`
    /// (`hill`, `gentle-hill`, `woods`, `dense-woods`, `soft-cover`,
    /// `hard-cover`, `rough-ground`, `broken-ground`, `mountains` in the
    /// bundled data).
    kind: String,
    /// One corner of its rectangle, `[x, y]` inches on the table.
    from: [f64; 2],
    /// The opposite corner, `[x, y]` inches on the table.
    to: [f64; 2],
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct SideFile {
    /// The side's name in the outcomes.
    name: String,
    /// 1 to 8 units.
    units: Vec<UnitFile>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct UnitFile {
    /// The unit's name.
    name: String,
    /// `human-infantry`, `green-infantry`, `human-cavalry` or `green-cavalry`.
    troop: String,
    /// A morale class: a line of the data folder's `morale.toml` or one of its
    /// names.
    class: String,
    /// 1 to 2,000 (a figure is 50 troops).
    figures: i64,
    /// Figures in the first rank (default: all).
    front: Option<i64>,
    /// `formed` (default for human troops) or `skirmish` (green troops always).
    formation: Option<String>,
    /// Human infantry only: carries shields.
    #[serde(default)]
    shield: bool,
    /// `javelin`, `bow`, `pistol`, `rifle` or `none` (default).
    missile: Option<String>,
    /// Cavalry only: carries lances.
    #[serde(default)]
    lance: bool,
    /// The side's commander is with this unit.
    #[serde(default)]
    commander: bool,
    /// A named personality leading the unit.
    personality: Option<PersonalityFile>,
    /// The enemy unit's index it engages (default: its own index, or the last
    /// enemy unit).
    target: Option<i64>,
    /// `front`, `flank` or `rear`.
    attack: Option<String>,
    /// `none`, `soft` or `hard`, while on its own line.
    cover: Option<String>,
    /// `advance`, `hold`, or `fire` (needs a missile weapon).
    stance: Option<String>,
    /// Field scenarios: the centre of its front edge, `[x, y]` inches on
    /// the table.
    at: Option<[f64; 2]>,
    /// Field scenarios: the direction it faces in degrees clockwise from
    /// up the table (0 faces +y, 90 faces +x); default 0 for the first side,
    /// 180 for the second.
    facing: Option<f64>,
    /// Field scenarios: a point `[x, y]` it marches to (normal moves) before
    /// it turns on its target.
    via: Option<[f64; 2]>,
    /// Field scenarios with `via`: the formation (`formed` or `skirmish`)
    /// it changes to once at its waypoint, at the cost of half a move
    /// [FORMATIONS].
    reform: Option<String>,
}

impl UnitFile {
    /// The field places it gives (`at`, `facing`, `via`), by name.
    pub(crate) fn placed_fields(&self) -> Option<&'static str> {
        if self.at.is_some() {
            Some("at")
        } else if self.facing.is_some() {
            Some("facing")
        } else if self.via.is_some() {
            Some("via")
        } else {
            None
        }
    }
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PersonalityFile {
    /// Who he is.
    name: String,
    /// His level.
    level: i64,
}

impl WomBattle {
    fn build(path: &Path, file: &BattleFile, tables: BattleTables) -> Result<Self, ScenarioError> {
        let err = |field: String, message: String| ScenarioError::new(path, field, message);
        let distance = match (file.distance, file.table) {
            (Some(d), None) => {
                if !(1..=i64::from(MAX_DISTANCE)).contains(&d) {
                    return Err(err(
                        "distance".into(),
                        format!(
                            "expected inches between the battle lines, 1 to {MAX_DISTANCE}, found {d}"
                        ),
                    ));
                }
                Some(d as u32)
            }
            (None, Some(table)) => {
                for (i, v) in table.iter().enumerate() {
                    if !(v.is_finite() && (1.0..=f64::from(MAX_DISTANCE)).contains(v)) {
                        return Err(err(
                            format!("table[{i}]"),
                            format!(
                                "expected the table's {} in inches, 1 to {MAX_DISTANCE}, found {v}",
                                ["width", "depth"][i]
                            ),
                        ));
                    }
                }
                None
            }
            (Some(_), Some(_)) => {
                return Err(err(
                    "table".into(),
                    "expected either distance (one axis) or table (a field), not both".into(),
                ));
            }
            (None, None) => {
                return Err(err(
                    "distance".into(),
                    "expected distance (one axis) or table (a field)".into(),
                ));
            }
        };
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
        let mut placements = [[Placement::default(); MAX_UNITS]; 2];
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
                match (file.table, unit.placed_fields()) {
                    (None, Some(f)) => {
                        return Err(err(
                            field(f),
                            "expected a field scenario (table) for positions".into(),
                        ));
                    }
                    (Some(table), _) => {
                        placements[s][u] =
                            place_on_table(table, s, unit, &|f, m| err(field(f), m))?;
                    }
                    (None, None) => {}
                }
            }
            sides.push(SideSpec {
                name: side.name.clone(),
                units,
            });
        }
        let terrain = terrain_areas(&tables, file, &err)?;
        let second = sides.pop().expect("two sides checked");
        let first = sides.pop().expect("two sides checked");
        let mut model = match distance {
            Some(d) => Self::new(tables, [first, second], d, max_turns as u32),
            None => Self::on_field(tables, [first, second], placements, max_turns as u32),
        };
        model.terrain = terrain;
        Ok(model)
    }

    /// A one-axis battle between two checked sides `distance` inches apart:
    /// the field model with every unit on one of two facing lines across
    /// the table, fronts centred on `x = 0` so that every gap is the
    /// distance between the lines less both advances, as before the field
    /// existed. A unit given `attack = "flank"` starts on its own line in
    /// the lane beside its target (it arrives level with the target's front,
    /// beside it: a flank attack); `attack = "rear"` starts `distance` behind
    /// its target's rear, facing it. Results are the one-axis model's as
    /// long as no unit ends up beyond an enemy's line (see the model doc).
    pub fn new(tables: BattleTables, sides: [SideSpec; 2], distance: u32, max_turns: u32) -> Self {
        let extents = Self::extents_of(&tables, &sides);
        let d = f64::from(distance);
        let mut placements = [[Placement::default(); MAX_UNITS]; 2];
        for (s, side) in placements.iter_mut().enumerate() {
            side.fill(Placement {
                at: [0.0, if s == 0 { 0.0 } else { d }],
                facing: field::facing_vector(if s == 0 { 0.0 } else { 180.0 }),
                via: None,
            });
        }
        let line = placements;
        for s in 0..2 {
            for (u, spec) in sides[s].units.iter().enumerate() {
                let t = spec.target;
                let target = &line[1 - s][t];
                let (tw, td) = extents[1 - s][t];
                let (w, _) = extents[s][u];
                let right = [target.facing[1], -target.facing[0]];
                let back = [-target.facing[0], -target.facing[1]];
                placements[s][u] = match spec.approach {
                    Approach::Front => placements[s][u],
                    Approach::Flank => Placement {
                        at: field::step(
                            field::step(target.at, target.facing, d),
                            right,
                            -(tw / 2.0 + w / 2.0),
                        ),
                        facing: back,
                        via: None,
                    },
                    Approach::Rear => Placement {
                        at: field::step(target.at, back, td + d),
                        facing: target.facing,
                        via: None,
                    },
                };
            }
        }
        Self::with_placements(tables, sides, placements, max_turns)
    }

    /// A battle on a field, each unit where `placements` puts it.
    pub fn on_field(
        tables: BattleTables,
        sides: [SideSpec; 2],
        placements: [[Placement; MAX_UNITS]; 2],
        max_turns: u32,
    ) -> Self {
        Self::with_placements(tables, sides, placements, max_turns)
    }

    fn extents_of(tables: &BattleTables, sides: &[SideSpec; 2]) -> [[(f64, f64); MAX_UNITS]; 2] {
        let mut extents = [[(0.0, 0.0); MAX_UNITS]; 2];
        for (s, side) in sides.iter().enumerate() {
            for (u, spec) in side.units.iter().enumerate() {
                extents[s][u] =
                    tables
                        .field
                        .extent(spec.troop, spec.figures, spec.front, spec.skirmish);
            }
        }
        extents
    }

    fn with_placements(
        tables: BattleTables,
        sides: [SideSpec; 2],
        placements: [[Placement; MAX_UNITS]; 2],
        max_turns: u32,
    ) -> Self {
        let mut metrics = vec![
            MetricSpec::new("turns", "turns played"),
            MetricSpec::new("melee_turns", "turns with a round of melee"),
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
                metrics.push(MetricSpec::new(
                    format!("{name}_{tag}"),
                    format!("{what} {}", side.name),
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
            placements,
            terrain: Vec::new(),
            max_turns,
            spec,
        }
    }

    /// The tables in use.
    pub fn tables(&self) -> &BattleTables {
        &self.tables
    }
}

impl ScenarioModel for WomBattle {
    type File = BattleFile;
    const ID: &'static str = "wom.battle";
    const DESCRIPTION: &'static str = "Warriors of Mars mass battles at 1:50: units of infantry and cavalry with missile fire, charges, melee, morale, routs and leader losses";

    /// Loads a `wom.battle` scenario and the tables it names.
    fn load_with(path: &Path, loader: &mut Loader) -> Result<(Self, String), ScenarioError> {
        let file: Self::File = loader.read_scenario(path, Self::ID)?;
        let dir = file.scenario.data_dir(path)?;
        let tables = BattleTables::load_with(&dir, loader)?;
        let model = Self::build(path, &file, tables)?;
        Ok((model, file.scenario.description))
    }
}

/// Whether the point `p` lies on a `table` (width, depth), edges included.
fn on_table(table: [f64; 2], p: [f64; 2]) -> bool {
    p.iter()
        .zip(table)
        .all(|(v, max)| v.is_finite() && (0.0..=max).contains(v))
}

/// The scenario's `[[terrain]]` areas, checked: a kind of the tables, a
/// rectangle with some extent lying on the table (field scenarios only).
fn terrain_areas(
    tables: &BattleTables,
    file: &BattleFile,
    err: &dyn Fn(String, String) -> ScenarioError,
) -> Result<Vec<Area>, ScenarioError> {
    let mut areas = Vec::new();
    for (i, t) in file.terrain.iter().enumerate() {
        let field = |f: &str| format!("terrain[{i}].{f}");
        let Some(table) = file.table else {
            return Err(err(
                field("kind"),
                "expected a field scenario (table) for terrain".into(),
            ));
        };
        let kind = tables.terrain_kind(&t.kind).ok_or_else(|| {
            err(
                field("kind"),
                format!(
                    "expected a terrain kind of battle-tables.toml [terrain] ({}), found {:?}",
                    tables
                        .terrain
                        .iter()
                        .map(|k| k.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    t.kind
                ),
            )
        })?;
        for (name, p) in [("from", t.from), ("to", t.to)] {
            if !on_table(table, p) {
                return Err(err(
                    field(name),
                    format!(
                        "expected a corner on the table, x 0 to {} and y 0 to {} inches, found [{}, {}]",
                        table[0], table[1], p[0], p[1]
                    ),
                ));
            }
        }
        let min = [t.from[0].min(t.to[0]), t.from[1].min(t.to[1])];
        let max = [t.from[0].max(t.to[0]), t.from[1].max(t.to[1])];
        if min[0] >= max[0] || min[1] >= max[1] {
            return Err(err(
                field("to"),
                format!(
                    "expected the corner opposite from = [{}, {}], with some width and depth, found [{}, {}]",
                    t.from[0], t.from[1], t.to[0], t.to[1]
                ),
            ));
        }
        areas.push(Area { kind, min, max });
    }
    Ok(areas)
}

/// Where a unit of side `side` stands on a `table` (width, depth): its
/// `at` on the table, its facing, its waypoint on the table.
fn place_on_table(
    table: [f64; 2],
    side: usize,
    unit: &UnitFile,
    err: &dyn Fn(&str, String) -> ScenarioError,
) -> Result<Placement, ScenarioError> {
    let on_table = |field: &str, p: [f64; 2]| {
        if on_table(table, p) {
            Ok(p)
        } else {
            Err(err(
                field,
                format!(
                    "expected a point on the table, x 0 to {} and y 0 to {} inches, found [{}, {}]",
                    table[0], table[1], p[0], p[1]
                ),
            ))
        }
    };
    let at = on_table(
        "at",
        unit.at
            .ok_or_else(|| err("at", "expected the unit's place [x, y] on the table".into()))?,
    )?;
    if unit.attack.is_some() {
        return Err(err(
            "attack",
            "expected no attack on a field: front, flank or rear follow from where units meet"
                .into(),
        ));
    }
    let degrees = unit.facing.unwrap_or(if side == 0 { 0.0 } else { 180.0 });
    if !(degrees.is_finite() && (0.0..360.0).contains(&degrees)) {
        return Err(err(
            "facing",
            format!("expected degrees from 0 to below 360, found {degrees}"),
        ));
    }
    let via = match unit.via {
        Some(p) => Some(on_table("via", p)?),
        None => None,
    };
    Ok(Placement {
        at,
        facing: field::facing_vector(degrees),
        via,
    })
}

/// Checks one unit of a scenario (also a `wom.air` ground unit) against the
/// tables; `err` makes an error for a field of the unit.
pub(crate) fn unit_spec(
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
    let class = tables.morale.class(&unit.class).ok_or_else(|| {
        err(
            "class",
            format!(
                "expected a troop class ({}), found {:?}",
                tables.morale.class_names().collect::<Vec<_>>().join(", "),
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
    // FORMATIONS: a change of formation, made at the waypoint.
    let reform = match unit.reform.as_deref() {
        None => None,
        Some(_) if unit.via.is_none() => {
            return Err(err(
                "reform",
                "expected a waypoint (via) to change formation at".into(),
            ));
        }
        Some(name @ ("formed" | "skirmish")) => {
            let to = name == "skirmish";
            if tables.moves[troop.index()][usize::from(to)].is_none() {
                return Err(err(
                    "reform",
                    format!("{} always skirmish (FORMATIONS)", unit.troop),
                ));
            }
            Some(to)
        }
        Some(other) => {
            return Err(err(
                "reform",
                format!("expected \"formed\" or \"skirmish\", found {other:?}"),
            ));
        }
    };
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
        reform,
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
