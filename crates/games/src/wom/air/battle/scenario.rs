//! The `wom.air` scenario file: its format, its validation into a
//! [`WomAir`], and the output spec with its per-class breakdown.

use barsoom_engine::scenario::Load;

use crate::ScenarioModel;

use barsoom_engine::scenario::{Loader, Scenario};
use std::path::Path;

use serde::Deserialize;

use crate::wom::air::boarding::Party;
use crate::wom::air::damage::ShipState;
use crate::wom::air::geometry::{HEADING_STEP_DEGREES, Point, signed_tenths, tenths};
use crate::wom::air::ground::{
    GroundData, GroundKind, GroundSetup, GroundWar, Landing, MAX_GROUND,
};
use crate::wom::air::ships::{
    ARC_BOW, ARC_PORT, ARC_STARBOARD, ARC_STERN, AirData, Figure, MAX_MOUNTS, facing_name,
};
use crate::wom::air::tactics::{TACTIC_LIST, Tactic};
use crate::wom::battle::battle::{SideSpec, WomBattle};
use crate::wom::battle::tables::{BattleTables, Troop, WEAPON_NAMES};
use crate::wom::battle::{UnitFile, unit_spec};
use barsoom_engine::accumulate::MAX_METRICS;
use barsoom_engine::scenario::ScenarioError;
use barsoom_engine::search::SearchSpec;
use barsoom_engine::{MetricSpec, OutputSpec};

use super::targets::wanted_ranges;
use super::{DEFAULT_MAX_TURNS, MAX_SHIPS, Sequence, ShipSetup, SideSetup, WomAir};

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AirFile {
    #[serde(flatten)]
    scenario: Scenario,
    /// Turns before the battle is scored unfinished, 1 to 10,000 (default 40).
    max_turns: Option<i64>,
    /// `simultaneous` (default) or `move-counter-move`.
    sequence: Option<String>,
    /// Optional rule: keel bomb hits roll hull-top criticals.
    #[serde(default)]
    bomb_criticals: bool,
    /// Exactly two sides.
    sides: Vec<SideFile>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct SideFile {
    /// The side's name in the outcomes.
    label: Option<String>,
    /// `line-of-battle`, `boarders`, `bombers`, `rammers`, `circle`, `random`,
    /// or `search[:N[:BASE]]` (N playouts per decision, BASE one of the tactics
    /// before).
    tactic: String,
    /// All ships fire on one target.
    #[serde(default)]
    concentrate: bool,
    /// Ships steer evasively: turn every turn (+1 to be hit).
    #[serde(default)]
    evasive: bool,
    /// A morale class of the data folder's `morale.toml`, by name or alias
    /// (default `regulars`).
    morale: Option<String>,
    /// The melee table type of the crews (default `human-infantry`).
    melee: Option<String>,
    /// The side's ships.
    #[serde(default)]
    ships: Vec<ShipFile>,
    /// The side's ground targets under the battle: structures and troops
    /// (a side needs at least one ship or one ground target).
    #[serde(default)]
    ground: Vec<GroundFile>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct GroundFile {
    /// Its name in traces (default: the structure's or the unit's name).
    name: Option<String>,
    /// Position, inches (multiples of 0.1) within the ground field.
    x: f64,
    /// Position, inches (multiples of 0.1) within the ground field.
    y: f64,
    /// A structure kind of the data folder's `air-ground.toml` (e.g.
    /// `small-fort`, `heavy-gun-emplacement`); give this or `troops`.
    structure: Option<String>,
    /// Guns sited in an emplacement (default 1; only for kinds with a gun).
    guns: Option<u8>,
    /// A unit of troops, as a `wom.battle` unit (`name`, `troop`, `class`,
    /// `figures`, `missile`, `cover`, ...); give this or `structure`.
    troops: Option<UnitFile>,
    /// The troops' rifles open fire from ambush: their first turn's hits
    /// pick the crew where the facing shows it [Radium Rifle Fire].
    #[serde(default)]
    ambush: bool,
    /// Its loss counts against the side's hold on the field (default true).
    objective: Option<bool>,
    /// Plainly identified (ringed with fire): -1 to bomb it.
    #[serde(default)]
    marked: bool,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct PersonalityFile {
    /// Who he is.
    name: String,
    /// His melee table type, e.g. `personality-13`.
    melee: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct ShipFile {
    /// A ship class id from the data folder's `air-ships.toml`.
    class: String,
    /// Default: the class and a number.
    name: Option<String>,
    /// Position, inches (multiples of 0.1).
    x: f64,
    /// Position, inches (multiples of 0.1).
    y: f64,
    /// Inches, 0 to 3 in blocks of 1/2.
    #[serde(default)]
    altitude: f64,
    /// Degrees, in steps of 15.
    #[serde(default)]
    heading: i64,
    /// This ship's morale class, instead of the side's.
    morale: Option<String>,
    /// A personality aboard (a named officer).
    personality: Option<PersonalityFile>,
    /// Reduced armament: guns by facing (e.g. `starboard = 2`).
    guns: Option<std::collections::BTreeMap<String, u8>>,
    /// Crew other than the class's: gunners, crew, marines, troops, officers.
    figures: Option<std::collections::BTreeMap<String, u16>>,
    /// Starts grappled to this ship of the other side (its index there),
    /// ready to board it.
    grappled_to: Option<usize>,
    /// Grapples holding at the start (with `grappled_to`).
    #[serde(default)]
    grapples: u16,
    /// Lands its troops on this ground target of the other side (its index
    /// there; troops only) [Troops Landing].
    land_at: Option<usize>,
    /// `land` (default: sets down and disembarks) or `drop` (equilibrimotor
    /// troops dropped from 1" moving slowly), with `land_at`.
    landing: Option<String>,
}

/// Metric slots.
pub(super) const M_TURNS: usize = 0;
pub(super) const M_LOST: usize = 1;
pub(super) const M_CAPTURED: usize = 3;
pub(super) const M_DAMAGE: usize = 4;
pub(super) const M_CREW: usize = 6;
pub(super) const M_BROKEN_OFF: usize = 8;
/// First per-class slot: three metrics (destroyed, captured, crippled) per group.
const M_CLASS: usize = 9;
/// Class groups that fit beside the fixed metrics.
const MAX_CLASS_GROUPS: usize = (MAX_METRICS - M_CLASS) / 3;
/// Metrics a battle with ground targets adds after the class groups:
/// targets lost, figures lost on the ground and structure damage per side,
/// troops landed and landings won.
pub(super) const GROUND_METRICS: usize = 8;

impl WomAir {
    fn build(
        path: &Path,
        file: &AirFile,
        data: AirData,
        ground: Option<(GroundData, BattleTables)>,
    ) -> Result<Self, ScenarioError> {
        let err = |field: String, message: String| ScenarioError::new(path, field, message);
        if file.sides.len() != 2 {
            return Err(err(
                "sides".into(),
                format!("expected exactly 2 [[sides]], found {}", file.sides.len()),
            ));
        }
        let max_turns = match file.max_turns {
            None => DEFAULT_MAX_TURNS,
            Some(n) if (1..=10_000).contains(&n) => n as u32,
            Some(n) => {
                return Err(err(
                    "max_turns".into(),
                    format!("expected 1 to 10000, found {n}"),
                ));
            }
        };
        let sequence = match file.sequence.as_deref() {
            None | Some("simultaneous") => Sequence::Simultaneous,
            Some("move-counter-move") => Sequence::MoveCounterMove,
            Some(other) => {
                return Err(err(
                    "sequence".into(),
                    format!("expected \"simultaneous\" or \"move-counter-move\", found {other:?}"),
                ));
            }
        };
        let total: usize = file.sides.iter().map(|s| s.ships.len()).sum();
        if total == 0 {
            return Err(err(
                "sides".into(),
                "expected at least one ship in the battle".into(),
            ));
        }
        if total > MAX_SHIPS {
            return Err(err(
                "sides".into(),
                format!("expected at most {MAX_SHIPS} ships in all, found {total}"),
            ));
        }
        let morale_ids = || {
            data.morale_classes
                .iter()
                .map(|(id, _)| id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let melee_row = |field: String, id: &str| {
            data.melee_rows.iter().position(|r| r == id).ok_or_else(|| {
                err(
                    field,
                    format!(
                        "expected a melee type of the MELEE TABLE ({}), found {id:?}",
                        data.melee_rows.join(", ")
                    ),
                )
            })
        };
        let mut ships = Vec::new();
        let mut sides = Vec::new();
        for (si, side) in file.sides.iter().enumerate() {
            let sf = |x: &str| format!("sides[{si}].{x}");
            let (tactic, search) = match SearchSpec::parse(
                &side.tactic,
                Tactic::LineOfBattle,
                TACTIC_LIST,
                Tactic::parse,
            ) {
                Some(Ok(spec)) => (spec.base, Some(spec.playouts)),
                Some(Err(e)) => return Err(err(sf("tactic"), e.to_string())),
                None => (
                    Tactic::parse(&side.tactic).ok_or_else(|| {
                        err(
                            sf("tactic"),
                            format!(
                                "expected one of {TACTIC_LIST}, or search, search:N, search:N:BASE, found {:?}",
                                side.tactic
                            ),
                        )
                    })?,
                    None,
                ),
            };
            if side.ships.is_empty() && side.ground.is_empty() {
                return Err(err(
                    sf("ships"),
                    "expected at least one ship or ground target".into(),
                ));
            }
            let side_melee = side.melee.as_deref().unwrap_or("human-infantry");
            for (k, ship) in side.ships.iter().enumerate() {
                let f = |x: &str| format!("sides[{si}].ships[{k}].{x}");
                let class = data.class_index(&ship.class).ok_or_else(|| {
                    err(
                        f("class"),
                        format!(
                            "unknown ship class {:?}: expected one of {}",
                            ship.class,
                            data.class_ids()
                        ),
                    )
                })?;
                let c = &data.classes[class];
                let morale_id = ship
                    .morale
                    .as_deref()
                    .or(side.morale.as_deref())
                    .unwrap_or("regulars");
                let steady = data
                    .morale_classes
                    .iter()
                    .find(|(id, _)| id == morale_id)
                    .map(|(_, s)| *s)
                    .ok_or_else(|| {
                        err(
                            f("morale"),
                            format!(
                                "expected a morale class ({}), found {morale_id:?}",
                                morale_ids()
                            ),
                        )
                    })?;
                let row = melee_row(sf("melee"), side_melee)?;
                let column = data.melee_types.iter().position(|t| t == side_melee).ok_or_else(|| {
                    err(sf("melee"), format!("expected a defender type of the melee table ({}), found {side_melee:?}", data.melee_types.join(", ")))
                })?;
                let personality_row = match &ship.personality {
                    Some(p) => Some(melee_row(f("personality.melee"), &p.melee)?),
                    None => None,
                };
                let mut guns = [0u8; MAX_MOUNTS];
                for (mi, mount) in c.mounts.iter().enumerate() {
                    guns[mi] = mount.count;
                }
                if let Some(refit) = &ship.guns {
                    guns = [0; MAX_MOUNTS];
                    for (facing, count) in refit {
                        let field = f(&format!("guns.{facing}"));
                        let bit = [ARC_BOW, ARC_STARBOARD, ARC_PORT, ARC_STERN].into_iter().find(|b| facing_name(*b) == facing).ok_or_else(|| {
                            err(field.clone(), format!("expected a gun facing: bow, starboard, port or stern, found {facing:?}"))
                        })?;
                        let ports: u32 = c
                            .mounts
                            .iter()
                            .filter(|m| m.facing == bit)
                            .map(|m| u32::from(m.count))
                            .sum();
                        if ports == 0 {
                            return Err(err(
                                field,
                                format!("a {} has no guns on its {facing} facing", c.name),
                            ));
                        }
                        if u32::from(*count) > ports {
                            return Err(err(
                                field,
                                format!(
                                    "a {} carries at most {ports} guns on its {facing} facing, found {count}",
                                    c.name
                                ),
                            ));
                        }
                        let mut left = *count;
                        for (mi, mount) in c.mounts.iter().enumerate() {
                            if mount.facing == bit {
                                let here = left.min(mount.count);
                                guns[mi] = here;
                                left -= here;
                            }
                        }
                    }
                }
                let mut figures = c.figures;
                if let Some(list) = &ship.figures {
                    for (kind, count) in list {
                        let index = ["gunners", "crew", "marines", "troops", "officers"]
                            .iter()
                            .position(|n| n == kind)
                            .ok_or_else(|| {
                                err(
                                    f(&format!("figures.{kind}")),
                                    "expected gunners, crew, marines, troops or officers".into(),
                                )
                            })?;
                        figures[index] = *count;
                    }
                }
                if ship.personality.is_some() {
                    figures[Figure::Personality as usize] = 1;
                }
                if figures.iter().all(|x| *x == 0) {
                    return Err(err(
                        f("figures"),
                        "expected at least one figure aboard".into(),
                    ));
                }
                let x = signed_tenths(ship.x).ok_or_else(|| {
                    err(
                        f("x"),
                        format!("expected inches, a multiple of 0.1, found {}", ship.x),
                    )
                })?;
                let y = signed_tenths(ship.y).ok_or_else(|| {
                    err(
                        f("y"),
                        format!("expected inches, a multiple of 0.1, found {}", ship.y),
                    )
                })?;
                let step_alt = data.movement.altitude_step;
                let alt = tenths(ship.altitude)
                    .filter(|a| *a <= data.movement.ceiling && a % step_alt == 0)
                    .ok_or_else(|| {
                        err(f("altitude"), format!(
                            "expected an altitude from 0 to {} inches in blocks of {} inch, found {}",
                            f64::from(data.movement.ceiling) / 10.0,
                            f64::from(step_alt) / 10.0,
                            ship.altitude
                        ))
                    })?;
                if ship.heading.rem_euclid(i64::from(HEADING_STEP_DEGREES)) != 0 {
                    return Err(err(
                        f("heading"),
                        format!(
                            "expected degrees in steps of {HEADING_STEP_DEGREES}, found {}",
                            ship.heading
                        ),
                    ));
                }
                let heading =
                    (ship.heading.rem_euclid(360) / i64::from(HEADING_STEP_DEGREES)) as u8;
                let start = ShipState::new(c, &guns, figures, Point::new(x, y), alt, heading);
                let name = match (&ship.name, &ship.personality) {
                    (Some(n), _) => n.clone(),
                    (None, _) => format!("{} {}", c.name, k + 1),
                };
                let _ = ship.personality.as_ref().map(|p| &p.name);
                ships.push(ShipSetup {
                    name,
                    class,
                    side: si,
                    party: Party {
                        steady,
                        row,
                        column,
                        personality_row,
                        had_officers: figures[Figure::Officers as usize] > 0,
                    },
                    start,
                });
            }
            sides.push(SideSetup {
                label: side
                    .label
                    .clone()
                    .unwrap_or_else(|| format!("Side {}", ["A", "B"][si])),
                tactic,
                search,
                concentrate: side.concentrate,
                evasive: side.evasive,
            });
        }
        for (si, side) in file.sides.iter().enumerate() {
            for (k, ship) in side.ships.iter().enumerate() {
                let Some(target) = ship.grappled_to else {
                    continue;
                };
                let field = format!("sides[{si}].ships[{k}].grappled_to");
                let other_first = if si == 0 {
                    file.sides[0].ships.len()
                } else {
                    0
                };
                if si != 0 || target >= file.sides[1].ships.len() || ship.grapples == 0 {
                    return Err(err(field, "expected a ship of side A naming a ship of side B by its index there, with grapples >= 1".into()));
                }
                // Several ships of side A may name one ship of side B.
                let (a, b) = (k, other_first + target);
                let same_place = ships[a].start.alt == ships[b].start.alt
                    && ships[a].start.pos.minus(ships[b].start.pos).norm2()
                        <= i64::from(data.movement.grapple_distance).pow(2);
                if !same_place {
                    return Err(err(
                        field,
                        "expected the two ships within grappling distance at the same altitude"
                            .into(),
                    ));
                }
                ships[a].start.links = 1 << b;
                ships[b].start.links |= 1 << a;
                ships[a].start.boarder = true;
                ships[a].start.grapples = ship.grapples;
            }
        }
        let [a, b]: [SideSetup; 2] = match sides.try_into() {
            Ok(pair) => pair,
            Err(_) => return Err(err("sides".into(), "expected exactly 2 sides".into())),
        };
        let mut sides = [a, b];
        if sides[0].label == sides[1].label {
            sides[0].label.push_str(" (A)");
            sides[1].label.push_str(" (B)");
        }
        let spec = OutputSpec {
            outcomes: vec![
                format!("{} wins", sides[0].label),
                format!("{} wins", sides[1].label),
                "both sides out of action".into(),
                "drawn: neither side can harm the other".into(),
                format!("undecided after {max_turns} turns"),
            ],
            metrics: vec![
                MetricSpec::new("turns", "turns fought"),
                MetricSpec::new(
                    "lost_a",
                    format!(
                        "{} ships lost (destroyed, abandoned or captured)",
                        sides[0].label
                    ),
                ),
                MetricSpec::new(
                    "lost_b",
                    format!(
                        "{} ships lost (destroyed, abandoned or captured)",
                        sides[1].label
                    ),
                ),
                MetricSpec::new("captured", "ships of either side captured by boarding"),
                MetricSpec::new(
                    "damage_to_a",
                    format!("damage points taken by {}", sides[0].label),
                ),
                MetricSpec::new(
                    "damage_to_b",
                    format!("damage points taken by {}", sides[1].label),
                ),
                MetricSpec::new("crew_lost_a", format!("figures lost by {}", sides[0].label)),
                MetricSpec::new("crew_lost_b", format!("figures lost by {}", sides[1].label)),
                MetricSpec::new(
                    "broken_off",
                    "battles ended because a side could no longer harm the enemy (it breaks off: the side that still can holds the field and wins; neither: drawn)",
                ),
            ],
            length_metric: Some(M_TURNS),
            trends: Vec::new(),
        };
        let reserved = if ground.is_some() { GROUND_METRICS } else { 0 };
        let (groups, group_slot) = class_groups(&ships, reserved);
        let mut spec = spec;
        for group in &groups {
            let class = &data.classes[group.class];
            let (tag, whose) = match group.side {
                Some(side) => (
                    format!("{}_{}", ["a", "b"][side], class.id),
                    format!("{}'s {}", sides[side].label, class.name),
                ),
                None => (class.id.clone(), class.name.clone()),
            };
            spec.metrics.extend([
                MetricSpec::new(
                    format!("destroyed_{tag}"),
                    format!("{whose} ships destroyed or abandoned"),
                ),
                MetricSpec::new(
                    format!("captured_{tag}"),
                    format!("{whose} ships captured by boarding"),
                ),
                MetricSpec::new(
                    format!("crippled_{tag}"),
                    format!(
                        "{whose} ships afloat at the end but crippled (at a damage step that caps speed or leaves them powerless)"
                    ),
                ),
            ]);
        }
        let ground = match ground {
            None => None,
            Some((gd, tables)) => {
                let metric = M_CLASS + 3 * groups.len();
                let labels = [sides[0].label.as_str(), sides[1].label.as_str()];
                let war = ground_war(path, file, gd, tables, &ships, labels, metric)?;
                for (s, label) in labels.iter().enumerate() {
                    spec.metrics.push(MetricSpec::new(
                        format!("ground_lost_{}", ["a", "b"][s]),
                        format!("{label} ground targets destroyed, wiped out or overrun"),
                    ));
                }
                for (s, label) in labels.iter().enumerate() {
                    spec.metrics.push(MetricSpec::new(
                        format!("ground_casualties_{}", ["a", "b"][s]),
                        format!("figures {label} lost on the ground (troops under fire, in descent and in melee)"),
                    ));
                }
                for (s, label) in labels.iter().enumerate() {
                    spec.metrics.push(MetricSpec::new(
                        format!("structure_damage_{}", ["a", "b"][s]),
                        format!("damage points to {label} structures"),
                    ));
                }
                spec.metrics.push(MetricSpec::new(
                    "troops_landed",
                    "figures landed or dropped onto the ground that reached it",
                ));
                spec.metrics.push(MetricSpec::new(
                    "landings_won",
                    "landings whose troops beat the defenders they landed on",
                ));
                Some(war)
            }
        };
        let wanted_range = wanted_ranges(&data);
        Ok(WomAir {
            ground,
            spec,
            data,
            ships,
            sides,
            max_turns,
            sequence,
            bomb_criticals: file.bomb_criticals,
            wanted_range,
            group_slot,
        })
    }
}

impl ScenarioModel for WomAir {
    type File = AirFile;
    const ID: &'static str = "wom.air";
    const DESCRIPTION: &'static str = "Warriors of Mars aerial warfare: fleets of fliers with gunfire, criticals, ramming, grappling, boarding and keel bombs";

    /// Loads a `wom.air` scenario and the data it names.
    fn load_with(path: &Path, loader: &mut Loader) -> Result<(Self, String), ScenarioError> {
        let file: Self::File = loader.read_scenario(path, Self::ID)?;
        let dir = file.scenario.data_dir(path)?;
        let data = AirData::load_with(&dir, loader)?;
        let ground = if file.sides.iter().any(|s| !s.ground.is_empty()) {
            let gd = GroundData::load_with(&dir, loader, &data)?;
            Some((gd, BattleTables::load_with(&dir, loader)?))
        } else {
            None
        };
        let model = Self::build(path, &file, data, ground)?;
        Ok((model, file.scenario.description))
    }
}

/// Ships grouped for the per-class breakdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ClassGroup {
    /// The side, or `None` when both sides' ships of the class are counted
    /// together.
    side: Option<usize>,
    class: usize,
}

/// Groups the ships by side and class in order of first appearance; when
/// that makes more groups than the metric slots hold, by class alone; when
/// even that does not fit, no breakdown (the per-side totals remain).
/// Returns the groups and each ship's first metric slot (0 = none).
pub(super) fn class_groups(ships: &[ShipSetup], reserved: usize) -> (Vec<ClassGroup>, Vec<usize>) {
    let by = |with_side: bool| {
        let mut groups: Vec<ClassGroup> = Vec::new();
        let slots = ships
            .iter()
            .map(|ship| {
                let key = ClassGroup {
                    side: with_side.then_some(ship.side),
                    class: ship.class,
                };
                let index = groups.iter().position(|g| *g == key).unwrap_or_else(|| {
                    groups.push(key);
                    groups.len() - 1
                });
                M_CLASS + 3 * index
            })
            .collect::<Vec<_>>();
        (groups, slots)
    };
    for with_side in [true, false] {
        let (groups, slots) = by(with_side);
        if groups.len() <= MAX_CLASS_GROUPS - reserved.div_ceil(3) {
            return (groups, slots);
        }
    }
    (Vec::new(), vec![0; ships.len()])
}

/// The ground targets, each flier's landing orders and their melees,
/// checked against the ground and mass-battle tables.
#[allow(clippy::too_many_arguments)]
fn ground_war(
    path: &Path,
    file: &AirFile,
    gd: GroundData,
    tables: BattleTables,
    ships: &[ShipSetup],
    labels: [&str; 2],
    metric: usize,
) -> Result<GroundWar, ScenarioError> {
    let err = |field: String, message: String| ScenarioError::new(path, field, message);
    let total: usize = file.sides.iter().map(|s| s.ground.len()).sum();
    if total > MAX_GROUND {
        return Err(err(
            "sides".into(),
            format!("expected at most {MAX_GROUND} ground targets in all, found {total}"),
        ));
    }
    let mut targets = Vec::new();
    for (si, side) in file.sides.iter().enumerate() {
        for (k, g) in side.ground.iter().enumerate() {
            let f = |x: &str| format!("sides[{si}].ground[{k}].{x}");
            let coordinate = |field: &str, v: f64| {
                signed_tenths(v)
                    .filter(|t| t.abs() <= gd.field)
                    .ok_or_else(|| {
                        err(
                            f(field),
                            format!(
                                "expected inches on the ground field, -{0} to {0} in multiples of 0.1, found {v}",
                                f64::from(gd.field) / 10.0
                            ),
                        )
                    })
            };
            let pos = Point::new(coordinate("x", g.x)?, coordinate("y", g.y)?);
            let (kind, default_name) = match (&g.structure, &g.troops) {
                (Some(id), None) => {
                    let kind = gd
                        .structures
                        .iter()
                        .position(|s| s.id == *id)
                        .ok_or_else(|| {
                            err(
                                f("structure"),
                                format!(
                                    "unknown structure kind {id:?}: expected one of {}",
                                    gd.structure_ids()
                                ),
                            )
                        })?;
                    let sk = &gd.structures[kind];
                    let guns = match (g.guns, sk.gun) {
                        (None, Some(_)) => 1,
                        (None, None) => 0,
                        (Some(n), Some(_)) if (1..=20).contains(&n) => n,
                        (Some(n), Some(_)) => {
                            return Err(err(
                                f("guns"),
                                format!("expected 1 to 20 guns, found {n}"),
                            ));
                        }
                        (Some(_), None) => {
                            return Err(err(
                                f("guns"),
                                format!("a {} has no guns sited in it", sk.name),
                            ));
                        }
                    };
                    (GroundKind::Structure { kind, guns }, sk.name.clone())
                }
                (None, Some(unit)) => {
                    if g.guns.is_some() {
                        return Err(err(f("guns"), "expected guns only in a structure".into()));
                    }
                    let spec = unit_spec(&tables, unit, 0, 1, &|x, m| {
                        err(f(&format!("troops.{x}")), m)
                    })?;
                    if let Some(x) = unit.placed_fields() {
                        return Err(err(
                            f(&format!("troops.{x}")),
                            "expected no field position: ground targets stand at `pos`".into(),
                        ));
                    }
                    let name = spec.name.clone();
                    (
                        GroundKind::Troops {
                            unit: spec,
                            ambush: g.ambush,
                        },
                        name,
                    )
                }
                _ => {
                    return Err(err(
                        f("structure"),
                        "expected either a structure or troops".into(),
                    ));
                }
            };
            let rifles = WEAPON_NAMES.iter().position(|w| *w == "rifle");
            let armed = matches!(&kind, GroundKind::Troops { unit, .. } if unit.weapon.is_some() && unit.weapon == rifles);
            if g.ambush && !armed {
                return Err(err(
                    f("ambush"),
                    "expected an ambush only by troops with missile = \"rifle\"".into(),
                ));
            }
            targets.push(GroundSetup {
                name: g.name.clone().unwrap_or(default_name),
                side: si,
                pos,
                objective: g.objective.unwrap_or(true),
                marked: g.marked,
                kind,
            });
        }
    }
    let mut landings = Vec::new();
    let mut first = 0;
    for (si, side) in file.sides.iter().enumerate() {
        for (k, ship) in side.ships.iter().enumerate() {
            let i = first + k;
            let f = |x: &str| format!("sides[{si}].ships[{k}].{x}");
            let Some(at) = ship.land_at else {
                if ship.landing.is_some() {
                    return Err(err(f("landing"), "expected land_at with landing".into()));
                }
                continue;
            };
            let enemy: Vec<usize> = (0..targets.len())
                .filter(|&t| targets[t].side != si)
                .collect();
            let target = enemy.get(at).copied().ok_or_else(|| {
                err(
                    f("land_at"),
                    format!(
                        "expected the index of a ground target of the other side, 0 to {}, found {at}",
                        enemy.len().saturating_sub(1)
                    ),
                )
            })?;
            let Some(defenders) = targets[target].unit() else {
                return Err(err(
                    f("land_at"),
                    "expected troops to land on, found a structure".into(),
                ));
            };
            let drop = match ship.landing.as_deref() {
                None | Some("land") => false,
                Some("drop") => true,
                Some(other) => {
                    return Err(err(
                        f("landing"),
                        format!("expected \"land\" or \"drop\", found {other:?}"),
                    ));
                }
            };
            let figures = u32::from(ships[i].start.figures[Figure::Troops as usize]);
            if figures == 0 {
                return Err(err(
                    f("figures.troops"),
                    "expected troops aboard a flier with land_at".into(),
                ));
            }
            let melee_type = side.melee.as_deref().unwrap_or("human-infantry");
            let troop = Troop::parse(melee_type).ok_or_else(|| {
                err(
                    format!("sides[{si}].melee"),
                    format!("expected a troop type for landed troops (human-infantry, green-infantry, human-cavalry, green-cavalry), found {melee_type:?}"),
                )
            })?;
            let morale_id = ship
                .morale
                .as_deref()
                .or(side.morale.as_deref())
                .unwrap_or("regulars");
            let class = tables.morale.class(morale_id).ok_or_else(|| {
                err(
                    f("morale"),
                    format!("expected a morale class, found {morale_id:?}"),
                )
            })?;
            let skirmish = troop.is_green();
            let Some(moves) = tables.moves[troop.index()][usize::from(skirmish)] else {
                return Err(err(
                    format!("sides[{si}].melee"),
                    "expected a troop type that can fight on foot".into(),
                ));
            };
            let landed = crate::wom::battle::battle::UnitSpec {
                reform: None,
                name: format!("{} troops", ships[i].name),
                troop,
                shield: false,
                skirmish,
                class,
                figures,
                front: figures,
                weapon: None,
                lance: false,
                commander: false,
                personality: None,
                target: 0,
                approach: crate::wom::battle::battle::Approach::Front,
                cover_keep: 100,
                advance: true,
                halt_in_range: false,
                moves,
            };
            let mut held = defenders.clone();
            held.target = 0;
            let melee = WomBattle::new(
                tables.clone(),
                [
                    SideSpec {
                        name: labels[si].to_string(),
                        units: vec![landed],
                    },
                    SideSpec {
                        name: labels[1 - si].to_string(),
                        units: vec![held],
                    },
                ],
                gd.melee_distance,
                gd.melee_turns,
            );
            landings.push(Landing {
                ship: i,
                target,
                drop,
                troop,
                melee,
            });
        }
        first += side.ships.len();
    }
    let rifle_weapon = WEAPON_NAMES.iter().position(|w| *w == "rifle").unwrap_or(3);
    Ok(GroundWar {
        data: gd,
        tables,
        targets,
        landings,
        rifle_weapon,
        metric,
    })
}
