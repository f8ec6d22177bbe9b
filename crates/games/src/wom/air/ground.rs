//! Ground targets under an air battle [WoM Air-to-Ground Combat;
//! Ground-to-Air Fire]: the structures table and the ground bombing table
//! (`air-ground.toml`), a ground target's set-up and state, and the table
//! arithmetic of guns against troops and structures and of bombs on the
//! ground.

use std::collections::BTreeMap;
use std::path::Path;

use barsoom_engine::scenario::{Loader, ScenarioError, check_provenance};
use serde::Deserialize;

use super::geometry::{Point, tenths};
use super::ships::{AirData, SIZES};
use crate::wom::battle::battle::{UnitSpec, WomBattle};
use crate::wom::battle::tables::{BattleTables, PARTS, Troop};

/// The ground data file, beside the other `air-*.toml` tables.
pub const GROUND_FILE: &str = "air-ground.toml";
/// Most ground targets in one battle (both sides together).
pub const MAX_GROUND: usize = 8;

/// A kind of structure [Fire at Structures].
#[derive(Debug, Clone, PartialEq)]
pub struct StructureKind {
    /// Identifier, e.g. `small-fort`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Damage points that destroy it (its defence value).
    pub defence: u32,
    /// Its modifier on the Bombing Table, Ground Targets.
    pub bombing: i32,
    /// The size it presents on the To Hit table.
    pub size: usize,
    /// The gun type sited in it (emplacements), an index of `AirData::guns`.
    pub gun: Option<usize>,
}

/// The ground tables, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct GroundData {
    /// Structure kinds in file order.
    pub structures: Vec<StructureKind>,
    /// Bombing Table, Ground Targets: base score.
    pub bomb_base: i32,
    /// Modifier when the target is more than `far_below_distance` below.
    pub bomb_far_below: i32,
    /// Tenths of an inch.
    pub bomb_far_below_distance: i32,
    /// Modifier when the bomber is under fire from ground heavy guns.
    pub bomb_under_heavy_fire: i32,
    /// Modifier when the target is plainly identified.
    pub bomb_marked: i32,
    /// Damage points of a hit.
    pub bomb_damage: u32,
    /// Percent of a hit's damage a near miss does.
    pub near_miss_percent: u32,
    /// Size of a body of troops on the To Hit table.
    pub troop_size: usize,
    /// Figures of troops in the open a bomb hit or near miss kills.
    pub blast_figures: u32,
    /// Altitude equilibrimotor troops are dropped from, tenths.
    pub drop_altitude: i32,
    /// Longest move of a flier dropping troops, tenths.
    pub drop_speed: i32,
    /// How near the troops landed on a flier lands or drops, tenths.
    pub land_distance: i32,
    /// Inches between landed troops and defenders when their melee opens.
    pub melee_distance: u32,
    /// Turn limit of a landing's melee.
    pub melee_turns: u32,
    /// Altitude fliers bombard ground targets from, tenths.
    pub attack_altitude: i32,
    /// Ground targets stand within this many tenths of the origin.
    pub field: i32,
    /// The radium rifle's index in `AirData::guns`.
    pub rifle: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKind {
    name: String,
    defence: u32,
    bombing: i32,
    size: String,
    gun: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStructures {
    provenance: String,
    kinds: BTreeMap<String, RawKind>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBombing {
    provenance: String,
    base: i32,
    far_below: i32,
    far_below_distance: f64,
    under_heavy_fire: i32,
    marked: i32,
    damage: u32,
    near_miss_percent: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTroops {
    provenance: String,
    size: String,
    blast_figures: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLanding {
    provenance: String,
    drop_altitude: f64,
    drop_speed: f64,
    land_distance: f64,
    melee_distance: u32,
    melee_turns: u32,
    attack_altitude: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawField {
    provenance: String,
    half_width: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGround {
    structures: RawStructures,
    bombing: RawBombing,
    troops: RawTroops,
    landing: RawLanding,
    field: RawField,
}

impl GroundData {
    /// Loads and checks `air-ground.toml` in `dir` against the air tables.
    pub fn load_with(
        dir: &Path,
        loader: &mut Loader,
        air: &AirData,
    ) -> Result<Self, ScenarioError> {
        let file = dir.join(GROUND_FILE);
        let raw: RawGround = loader.read_toml(&file)?;
        for (field, text) in [
            ("structures.provenance", &raw.structures.provenance),
            ("bombing.provenance", &raw.bombing.provenance),
            ("troops.provenance", &raw.troops.provenance),
            ("landing.provenance", &raw.landing.provenance),
            ("field.provenance", &raw.field.provenance),
        ] {
            check_provenance(&file, field, text)?;
        }
        let err = |field: String, message: String| ScenarioError::new(&file, field, message);
        let size = |field: String, name: &str| {
            SIZES.iter().position(|s| *s == name).ok_or_else(|| {
                err(
                    field,
                    format!("expected small, medium or large, found {name:?}"),
                )
            })
        };
        let inches = |field: &str, value: f64| {
            tenths(value).ok_or_else(|| {
                err(
                    field.into(),
                    format!("expected inches, a multiple of 0.1 from 0 to 10000, found {value}"),
                )
            })
        };
        let mut structures = Vec::new();
        for (id, k) in &raw.structures.kinds {
            let f = |x: &str| format!("structures.kinds.{id}.{x}");
            if k.defence == 0 {
                return Err(err(f("defence"), "expected a defence value above 0".into()));
            }
            let gun = match &k.gun {
                None => None,
                Some(g) => Some(air.guns.iter().position(|t| t.id == *g).ok_or_else(|| {
                    err(
                        f("gun"),
                        format!("expected a gun type of air-guns.toml, found {g:?}"),
                    )
                })?),
            };
            structures.push(StructureKind {
                id: id.clone(),
                name: k.name.clone(),
                defence: k.defence,
                bombing: k.bombing,
                size: size(f("size"), &k.size)?,
                gun,
            });
        }
        let rifle = air
            .guns
            .iter()
            .position(|g| g.id == "radium-rifle")
            .ok_or_else(|| {
                ScenarioError::new(
                    &dir.join("air-guns.toml"),
                    "guns.radium-rifle",
                    "expected the radium rifle (ground troops fire it at fliers)",
                )
            })?;
        let b = &raw.bombing;
        if b.near_miss_percent > 100 {
            return Err(err(
                "bombing.near_miss_percent".into(),
                format!("expected 0 to 100, found {}", b.near_miss_percent),
            ));
        }
        let l = &raw.landing;
        Ok(GroundData {
            structures,
            bomb_base: b.base,
            bomb_far_below: b.far_below,
            bomb_far_below_distance: inches("bombing.far_below_distance", b.far_below_distance)?,
            bomb_under_heavy_fire: b.under_heavy_fire,
            bomb_marked: b.marked,
            bomb_damage: b.damage,
            near_miss_percent: b.near_miss_percent,
            troop_size: size("troops.size".into(), &raw.troops.size)?,
            blast_figures: raw.troops.blast_figures,
            drop_altitude: inches("landing.drop_altitude", l.drop_altitude)?,
            drop_speed: inches("landing.drop_speed", l.drop_speed)?,
            land_distance: inches("landing.land_distance", l.land_distance)?,
            melee_distance: l.melee_distance.clamp(1, 500),
            melee_turns: l.melee_turns.clamp(1, 1000),
            attack_altitude: inches("landing.attack_altitude", l.attack_altitude)?,
            field: inches("field.half_width", raw.field.half_width)?,
            rifle,
        })
    }

    /// Comma-separated structure ids, for error messages.
    pub fn structure_ids(&self) -> String {
        self.structures
            .iter()
            .map(|k| k.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// What stands on the ground.
#[derive(Debug, Clone, PartialEq)]
pub enum GroundKind {
    /// A structure of `StructureKind` index `kind`, with `guns` sited in it.
    Structure {
        /// Index in `GroundData::structures`.
        kind: usize,
        /// Guns of the kind's gun type (emplacements).
        guns: u8,
    },
    /// A unit of troops as `wom.battle` sets one up.
    Troops {
        /// The unit (its figures, troop type, cover, missile weapon, morale).
        unit: UnitSpec,
        /// Its rifles open fire in ambush [Radium Rifle Fire].
        ambush: bool,
    },
}

/// A ground target as the scenario sets it up.
#[derive(Debug, Clone, PartialEq)]
pub struct GroundSetup {
    /// Its name in traces.
    pub name: String,
    /// Side 0 or 1.
    pub side: usize,
    /// Where it stands (altitude 0).
    pub pos: Point,
    /// Its loss counts against its side's hold on the field.
    pub objective: bool,
    /// Plainly identified (ringed with fire): easier to bomb.
    pub marked: bool,
    /// Structure or troops.
    pub kind: GroundKind,
}

impl GroundSetup {
    /// The troops' unit, if it is troops.
    pub fn unit(&self) -> Option<&UnitSpec> {
        match &self.kind {
            GroundKind::Troops { unit, .. } => Some(unit),
            GroundKind::Structure { .. } => None,
        }
    }
}

/// A ground target during a battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GroundState {
    /// Troop figures standing.
    pub figures: u32,
    /// Casualties in parts of a figure not yet a whole figure.
    pub parts: u64,
    /// Damage points a structure has taken.
    pub damage: u32,
    /// Destroyed, wiped out or overrun by landed troops.
    pub gone: bool,
    /// Its rifles have fired (an ambush's first turn is over).
    pub fired: bool,
}

impl GroundState {
    /// The state at the start of a battle.
    pub fn new(setup: &GroundSetup) -> Self {
        GroundState {
            figures: setup.unit().map_or(0, |u| u.figures),
            ..GroundState::default()
        }
    }

    /// Adds `parts` of casualties, extracting whole figures [MISSILE FIRE
    /// TABLE: Fractions]; returns the figures lost.
    pub fn add_parts(&mut self, parts: u64) -> u32 {
        self.parts += parts;
        let whole = (self.parts / PARTS).min(u64::from(self.figures)) as u32;
        self.parts -= u64::from(whole) * PARTS;
        self.figures -= whole;
        if self.figures == 0 {
            self.gone = true;
        }
        whole
    }
}

/// Casualties, in parts of a figure, one hit of a gun with `damage`
/// factors inflicts on `unit` [Air-to-Ground Combat: Fire]: the gun is
/// worth `damage` radium rifles on the MISSILE FIRE TABLE against the
/// unit's troop type, less cover and skirmish order.
pub fn gun_hit_parts(
    tables: &BattleTables,
    rifle_weapon: usize,
    damage: u32,
    unit: &UnitSpec,
) -> u64 {
    let per_rifle = tables.weapons[rifle_weapon].parts_per_firer[unit.troop.index()];
    let skirmish = if unit.skirmish {
        tables.skirmisher_keep
    } else {
        100
    };
    u64::from(damage) * per_rifle * unit.cover_keep * skirmish / 10_000
}

/// The score a bomb on a ground target needs on 2d6 [Bombing Table,
/// Ground Targets]: base, the structure's own modifier, +1 far below,
/// +1 under heavy gun fire, -1 plainly identified.
pub fn ground_bomb_score(
    data: &GroundData,
    structure_modifier: i32,
    far_below: bool,
    under_heavy_fire: bool,
    marked: bool,
) -> i32 {
    data.bomb_base
        + structure_modifier
        + if far_below { data.bomb_far_below } else { 0 }
        + if under_heavy_fire {
            data.bomb_under_heavy_fire
        } else {
            0
        }
        + if marked { data.bomb_marked } else { 0 }
}

/// Damage of one bomb that rolled `roll` against a `need` score: a miss
/// under it, a near miss (a tenth) on it, a hit above it.
pub fn ground_bomb_damage(data: &GroundData, roll: i32, need: i32) -> u32 {
    match roll.cmp(&need) {
        std::cmp::Ordering::Less => 0,
        std::cmp::Ordering::Equal => data.bomb_damage * data.near_miss_percent / 100,
        std::cmp::Ordering::Greater => data.bomb_damage,
    }
}

/// A flier's orders to put its troops on the ground [Troops Landing].
#[derive(Debug, Clone)]
pub struct Landing {
    /// The flier (an index of `WomAir::ships`).
    pub ship: usize,
    /// The enemy troops it lands on (an index of `GroundWar::targets`).
    pub target: usize,
    /// Drops equilibrimotor troops instead of landing.
    pub drop: bool,
    /// The landed troops' type (rifles fire at them as they descend).
    pub troop: Troop,
    /// The melee between the landed troops (first side) and the defenders
    /// (second), played by `wom.battle`'s one-axis resolution.
    pub melee: WomBattle,
}

/// Everything a battle with ground targets adds to the air battle.
#[derive(Debug, Clone)]
pub struct GroundWar {
    /// The ground tables.
    pub data: GroundData,
    /// The mass-battle tables (missile fire table, melee, morale).
    pub tables: BattleTables,
    /// The ground targets, side A's first.
    pub targets: Vec<GroundSetup>,
    /// Fliers under landing orders.
    pub landings: Vec<Landing>,
    /// `wom.battle`'s index of the rifle.
    pub rifle_weapon: usize,
    /// First of the ground metrics' slots.
    pub metric: usize,
}

impl GroundWar {
    /// The landing orders of ship `i`, if it has any.
    pub fn landing_of(&self, i: usize) -> Option<&Landing> {
        self.landings.iter().find(|l| l.ship == i)
    }
}
