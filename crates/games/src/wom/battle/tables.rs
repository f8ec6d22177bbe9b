//! Mass-battle tables of Warriors of Mars (PART I, 1:50 scale), loaded from
//! `scenarios/wom/data/battle-tables.toml` and the shared `morale.toml`
//! (see [`crate::wom::morale`]), checked
//! and compiled to fixed arrays. Casualties are counted in parts of a figure
//! ([`PARTS`] to the figure) so that every fraction the tables give is carried
//! exactly: the rules keep fractional casualties until they add up to a
//! whole figure.

use barsoom_engine::scenario::Load;

use std::path::Path;

use serde::Deserialize;

use barsoom_engine::scenario::{Loader, ScenarioError};

use crate::wom::morale::{MORALE_FILE, MoraleTable};

/// Parts of a figure in which casualties are counted: a multiple of 20
/// (missile kills per 10 fired, in halves), of the melee groups 10, 5 and 3
/// (in halves), and of the cover and skirmisher quarters.
pub const PARTS: u64 = 480;

/// The four troop types of the combat tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Troop {
    /// Human-type infantry (red men, therns, First Born ...).
    HumanInfantry,
    /// Green Martian infantry.
    GreenInfantry,
    /// Human-type cavalry (on domestic thoats).
    HumanCavalry,
    /// Green Martian cavalry (on great thoats).
    GreenCavalry,
}

/// Troop type names as written in scenario and data files, in [`Troop`] order.
pub(crate) const TROOP_NAMES: [&str; 4] = [
    "human-infantry",
    "green-infantry",
    "human-cavalry",
    "green-cavalry",
];

impl Troop {
    /// The troop type named `name`.
    pub fn parse(name: &str) -> Option<Troop> {
        const ALL: [Troop; 4] = [
            Troop::HumanInfantry,
            Troop::GreenInfantry,
            Troop::HumanCavalry,
            Troop::GreenCavalry,
        ];
        TROOP_NAMES.iter().position(|n| *n == name).map(|i| ALL[i])
    }
    /// Index into the rows of the tables.
    pub fn index(self) -> usize {
        self as usize
    }
    /// Green Martians are always skirmishers.
    pub(crate) fn is_green(self) -> bool {
        matches!(self, Troop::GreenInfantry | Troop::GreenCavalry)
    }
    /// The MELEE TABLE defender column (see [`MELEE_COLUMNS`]) of this
    /// troop type, with or without shields.
    pub(crate) fn melee_column(self, shield: bool) -> usize {
        match self {
            Troop::HumanInfantry => usize::from(shield),
            Troop::GreenInfantry => 2,
            Troop::HumanCavalry => 3,
            Troop::GreenCavalry => 4,
        }
    }
    /// The troop type whose MELEE TABLE row attacks for column `column`
    /// (shield-bearing infantry attack as infantry).
    pub(crate) fn of_melee_column(column: usize) -> Troop {
        [
            Troop::HumanInfantry,
            Troop::HumanInfantry,
            Troop::GreenInfantry,
            Troop::HumanCavalry,
            Troop::GreenCavalry,
        ][column.min(4)]
    }
    /// Mounted troops (a lance charge needs a mount).
    pub(crate) fn is_mounted(self) -> bool {
        matches!(self, Troop::HumanCavalry | Troop::GreenCavalry)
    }
}

/// The mass-battle tables' file in the data folder (`wom.air` reads its
/// MELEE TABLE for boarding too).
pub(crate) const BATTLE_TABLES_FILE: &str = "battle-tables.toml";

/// The defender columns of the MELEE TABLE, as named in data and scenario
/// files: human infantry without and with shield, green infantry, human
/// cavalry, green cavalry.
pub(crate) const MELEE_COLUMNS: [&str; 5] = [
    "human-infantry",
    "human-infantry-shield",
    "green-infantry",
    "human-cavalry",
    "green-cavalry",
];

/// Missile weapons of land battles, in the order of the data rows.
pub(crate) const WEAPON_NAMES: [&str; 4] = ["javelin", "bow", "pistol", "rifle"];

/// One missile weapon, compiled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weapon {
    /// Range in inches; `None` is unlimited.
    pub range: Option<u32>,
    /// Ranks that fire.
    pub ranks: u32,
    /// Volleys a turn (2: may fire at the beginning of the turn, not move).
    pub per_turn: u32,
    /// Volleys a figure carries.
    pub max_volleys: u32,
    /// Parts of a figure killed per figure firing, by target [`Troop`].
    pub parts_per_firer: [u64; 4],
}

/// The compiled mass-battle tables.
#[derive(Debug, Clone, PartialEq)]
pub struct BattleTables {
    /// Normal and charge moves by troop, formed (0) or skirmishing (1);
    /// `None` where the formation does not exist.
    pub moves: [[Option<(u32, u32)>; 2]; 4],
    /// Turns of charging in a row before a rest.
    pub charge_turns: u32,
    /// The missile weapons, in [`WEAPON_NAMES`] order.
    pub weapons: [Weapon; 4],
    /// Green Martians firing rifles: parts added per figure firing.
    pub green_rifle_parts: u64,
    /// Percent of casualties kept behind soft cover, hard cover, and when
    /// firing at skirmishers.
    pub soft_cover_keep: u64,
    /// See `soft_cover_keep`.
    pub hard_cover_keep: u64,
    /// See `soft_cover_keep`.
    pub skirmisher_keep: u64,
    /// Arc of Fire in degrees either side of straight ahead, `[left,
    /// right]`: foot (0) and mounted (1) troops.
    pub arcs: [[f64; 2]; 2],
    /// Melee: figures per group, by attacking troop.
    pub melee_group: [u64; 4],
    /// Melee: casualties per group in halves, by attacker troop and defender
    /// column (0 human infantry without shield, 1 with, 2 green infantry,
    /// 3 human cavalry, 4 green cavalry).
    pub melee_halves: [[u64; 5]; 4],
    /// Troop a personality of level 12 and 13 fights as (one group).
    pub personality_troop: [Troop; 2],
    /// Casualties added per group: charging, enemy disorganised, lance
    /// charge, enemy retreating.
    pub add_charge: u64,
    /// See `add_charge`.
    pub add_disorganized: u64,
    /// See `add_charge`.
    pub add_lance: u64,
    /// See `add_charge`.
    pub add_retreating: u64,
    /// Rounds of doubled, unreturned casualties of a flank and a rear attack.
    pub flank_rounds: u32,
    /// See `flank_rounds`.
    pub rear_rounds: u32,
    /// Leader loss: a roll per this many casualties.
    pub casualties_per_leader_roll: u32,
    /// Leader loss: a d6 at or below this kills the leader.
    pub leader_killed_on: u32,
    /// Units this large (Umaks) do not lose their commander this way.
    pub umak_figures: u32,
    /// The MORALE TABLE: classes and modifiers (shared with `wom.air`).
    pub morale: MoraleTable,
    /// The field: stand sizes and skirmish spacing.
    pub field: FieldTable,
    /// The kinds of terrain a field scenario may lay out.
    pub terrain: Vec<TerrainKind>,
}

/// What one kind of terrain does [TERRAIN EFFECTS ON MOVEMENT; TERRAIN
/// EFFECTS UPON MISSILES; MISSILE FIRE TABLE adjustments]. A unit is in an
/// area when the centre of its front edge is.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainKind {
    /// Its name in scenario files.
    pub name: String,
    /// Inches lost by a move that goes onto it from outside (uphill).
    pub uphill: u32,
    /// Inches lost by a move that enters or crosses it (through trees,
    /// rough ground), by formed foot, skirmishing foot and mounted troops.
    pub through: [u32; 3],
    /// Formed units may enter it (trees: only skirmishers).
    pub formed: bool,
    /// A charge may enter or cross it.
    pub charge_into: bool,
    /// A charge may leave it (off a hill: only very gentle slopes).
    pub charge_off: bool,
    /// Charge moves are possible on it at all (broken ground, mountains:
    /// no).
    pub charge: bool,
    /// Every move that touches it is made at half speed (mountains).
    pub half_speed: bool,
    /// 2d6 totals on which a mounted figure charging across it stumbles
    /// (rough ground: 2 or 12), as bits (bit `t` for total `t`); 0: none.
    pub stumble: u16,
    /// Turns a stumbled figure's rider is stunned.
    pub stunned_turns: u32,
    /// Higher ground: a unit whose rear stands on it and front does not
    /// fires one rank more.
    pub higher: bool,
    /// Percent of missile casualties kept by a unit in it (cover).
    pub cover_keep: u64,
    /// Missiles may be fired into and out of it.
    pub fire: bool,
}

impl BattleTables {
    /// The index of the terrain kind `name`.
    pub fn terrain_kind(&self, name: &str) -> Option<usize> {
        self.terrain.iter().position(|k| k.name == name)
    }
}

/// Stand sizes on the table (MOVEMENT TRAYS AND ORGANIZATION; Skirmish
/// Movement), in inches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FieldTable {
    /// Frontage of one figure.
    pub figure_width: f64,
    /// Depth of one figure's stand, by [`Troop`].
    pub figure_depth: [f64; 4],
    /// Gap between skirmishers' stands, all round.
    pub skirmish_spacing: f64,
}

impl FieldTable {
    /// Frontage and depth of a unit of `figures` with `front` in its first
    /// rank: the first rank's stands side by side, its ranks one behind the
    /// other; skirmishers keep the spacing between stands.
    pub fn extent(&self, troop: Troop, figures: u32, front: u32, skirmish: bool) -> (f64, f64) {
        let front = front.clamp(1, figures.max(1));
        let ranks = figures.max(1).div_ceil(front);
        let gap = if skirmish { self.skirmish_spacing } else { 0.0 };
        let width = f64::from(front) * self.figure_width + f64::from(front - 1) * gap;
        let depth =
            f64::from(ranks) * self.figure_depth[troop.index()] + f64::from(ranks - 1) * gap;
        (width, depth)
    }
}

impl Load for BattleTables {
    /// Loads and checks the tables from the data folder `dir`.
    fn load_with(dir: &Path, loader: &mut Loader) -> Result<BattleTables, ScenarioError> {
        let path = dir.join(BATTLE_TABLES_FILE);
        let file: TablesFile = loader.read_toml(&path)?;
        let err = |field: &str, message: String| ScenarioError::new(&path, field, message);
        let troop = |field: &str, name: &str| {
            Troop::parse(name).ok_or_else(|| {
                err(
                    field,
                    format!(
                        "expected a troop type ({}), found {name:?}",
                        TROOP_NAMES.join(", ")
                    ),
                )
            })
        };
        let mut moves = [[None; 2]; 4];
        for (i, row) in file.movement.rows.iter().enumerate() {
            let field = format!("movement.rows[{i}]");
            let t = troop(&field, &row.troop)?;
            let f = match row.formation.as_str() {
                "formed" => 0,
                "skirmish" => 1,
                other => {
                    return Err(err(
                        &field,
                        format!("expected formation \"formed\" or \"skirmish\", found {other:?}"),
                    ));
                }
            };
            if row.normal == 0 || (row.charge != 0 && row.charge <= row.normal) {
                return Err(err(
                    &field,
                    "expected a positive normal move and a charge move above it (or 0)".into(),
                ));
            }
            moves[t.index()][f] = Some((row.normal, row.charge));
        }
        for (t, name) in TROOP_NAMES.iter().enumerate() {
            if moves[t][1].is_none() {
                return Err(err(
                    "movement.rows",
                    format!("expected a skirmish row for {name}"),
                ));
            }
        }
        let halves = |field: &str, v: f64| -> Result<u64, ScenarioError> {
            let h = v * 2.0;
            if !(0.0..=1000.0).contains(&h) || h.fract() != 0.0 {
                return Err(err(
                    field,
                    format!("expected a whole number of halves from 0 to 500, found {v}"),
                ));
            }
            Ok(h as u64)
        };
        let m = &file.missiles;
        if m.rows.len() != WEAPON_NAMES.len() {
            return Err(err(
                "missiles.rows",
                format!("expected the weapons {}", WEAPON_NAMES.join(", ")),
            ));
        }
        let mut weapons = [Weapon {
            range: None,
            ranks: 1,
            per_turn: 1,
            max_volleys: 1,
            parts_per_firer: [0; 4],
        }; 4];
        for (i, row) in m.rows.iter().enumerate() {
            let field = format!("missiles.rows[{i}]");
            if row.weapon != WEAPON_NAMES[i] {
                return Err(err(
                    &field,
                    format!(
                        "expected weapon {:?}, found {:?}",
                        WEAPON_NAMES[i], row.weapon
                    ),
                ));
            }
            if !(1..=2).contains(&row.per_turn) || row.ranks == 0 || row.max_volleys == 0 {
                return Err(err(
                    &field,
                    "expected per_turn 1 or 2, ranks and max_volleys at least 1".into(),
                ));
            }
            let mut parts = [0; 4];
            for (t, k) in row.kills.iter().enumerate() {
                // kills per 10 fired, in halves: parts per firer = h/20 figure.
                parts[t] = halves(&field, *k)? * PARTS / 20;
            }
            weapons[i] = Weapon {
                range: (row.range > 0).then_some(row.range),
                ranks: row.ranks,
                per_turn: row.per_turn,
                max_volleys: row.max_volleys,
                parts_per_firer: parts,
            };
        }
        let percent = |field: &str, p: u64| -> Result<u64, ScenarioError> {
            if p > 100 || !p.is_multiple_of(25) {
                return Err(err(
                    field,
                    format!("expected a multiple of 25 up to 100, found {p}"),
                ));
            }
            Ok(100 - p)
        };
        let arc = |field: &str, a: [u32; 2]| -> Result<[f64; 2], ScenarioError> {
            if a.iter().any(|d| *d > 180) {
                return Err(err(
                    field,
                    format!(
                        "expected [left, right] degrees from 0 to 180, found [{}, {}]",
                        a[0], a[1]
                    ),
                ));
            }
            Ok([f64::from(a[0]), f64::from(a[1])])
        };
        let melee = &file.melee;
        let mut melee_group = [0; 4];
        let mut melee_halves = [[0; 5]; 4];
        for (i, row) in melee.rows.iter().enumerate() {
            let field = format!("melee.rows[{i}]");
            let t = troop(&field, &row.troop)?;
            if row.group == 0 || !PARTS.is_multiple_of(2 * row.group) {
                return Err(err(
                    &field,
                    format!("expected a group that divides {}", PARTS / 2),
                ));
            }
            melee_group[t.index()] = row.group;
            for (c, v) in row.casualties.iter().enumerate() {
                melee_halves[t.index()][c] = halves(&field, *v)?;
            }
        }
        if melee_group.contains(&0) {
            return Err(err(
                "melee.rows",
                "expected a row for every troop type".into(),
            ));
        }
        let personality_troop = [
            troop("melee.personality_12", &melee.personality_12)?,
            troop("melee.personality_13", &melee.personality_13)?,
        ];
        let morale = MoraleTable::load_with(&dir.join(MORALE_FILE), loader)?;
        let l = &file.leaders;
        if l.casualties_per_roll == 0 || !(1..=6).contains(&l.killed_on) {
            return Err(err(
                "leaders",
                "expected casualties_per_roll >= 1 and killed_on 1 to 6".into(),
            ));
        }
        let f = &file.field;
        let inches = |field: &str, v: f64| -> Result<f64, ScenarioError> {
            if !(v.is_finite() && (0.0..=12.0).contains(&v)) {
                return Err(err(
                    field,
                    format!("expected inches from 0 to 12, found {v}"),
                ));
            }
            Ok(v)
        };
        let figure_width = inches("field.figure_width", f.figure_width)?;
        if figure_width <= 0.0 {
            return Err(err(
                "field.figure_width",
                format!("expected a positive width, found {figure_width}"),
            ));
        }
        let mut figure_depth = [0.0; 4];
        for (t, d) in f.depth_in_widths.iter().enumerate() {
            figure_depth[t] = inches("field.depth_in_widths", d * figure_width)?;
        }
        let field = FieldTable {
            figure_width,
            figure_depth,
            skirmish_spacing: inches("field.skirmish_spacing", f.skirmish_spacing)?,
        };
        barsoom_engine::scenario::check_provenance(
            &path,
            "terrain.provenance",
            &file.terrain.provenance,
        )?;
        let mut terrain = Vec::new();
        for (i, k) in file.terrain.kinds.iter().enumerate() {
            let field = format!("terrain.kinds[{i}]");
            if k.kind.is_empty() || terrain.iter().any(|t: &TerrainKind| t.name == k.kind) {
                return Err(err(&field, "expected a new, non-empty kind name".into()));
            }
            let through = [
                k.through,
                k.through_skirmish.unwrap_or(k.through),
                k.through_mounted.unwrap_or(k.through),
            ];
            if k.uphill > 12 || through.iter().any(|&t| t > 12) {
                return Err(err(
                    &field,
                    "expected move penalties of 0 to 12 inches".into(),
                ));
            }
            let cover_keep = match k.cover.as_str() {
                "none" => 100,
                "soft" => percent("missiles.soft_cover_percent", m.soft_cover_percent)?,
                "hard" => percent("missiles.hard_cover_percent", m.hard_cover_percent)?,
                other => {
                    return Err(err(
                        &format!("{field}.cover"),
                        format!("expected cover \"none\", \"soft\" or \"hard\", found {other:?}"),
                    ));
                }
            };
            if let Some(bad) = k.stumble.iter().find(|t| !(2..=12).contains(*t)) {
                return Err(err(
                    &format!("{field}.stumble"),
                    format!("expected 2d6 totals (2 to 12), found {bad}"),
                ));
            }
            if k.stunned_turns > 60 || (k.stunned_turns == 0) != k.stumble.is_empty() {
                return Err(err(
                    &format!("{field}.stunned_turns"),
                    format!(
                        "expected 1 to 60 turns with stumble totals (0 without), found {}",
                        k.stunned_turns
                    ),
                ));
            }
            terrain.push(TerrainKind {
                name: k.kind.clone(),
                uphill: k.uphill,
                through,
                formed: k.formed,
                charge_into: k.charge_into,
                charge_off: k.charge_off,
                charge: k.charge,
                half_speed: k.half_speed,
                stumble: k.stumble.iter().fold(0, |m, &t| m | 1 << t),
                stunned_turns: k.stunned_turns,
                higher: k.higher,
                cover_keep,
                fire: k.fire,
            });
        }
        Ok(BattleTables {
            terrain,
            field,
            moves,
            charge_turns: file.movement.charge_turns,
            weapons,
            green_rifle_parts: halves("missiles.green_rifle_bonus", m.green_rifle_bonus)? * PARTS
                / 20,
            soft_cover_keep: percent("missiles.soft_cover_percent", m.soft_cover_percent)?,
            hard_cover_keep: percent("missiles.hard_cover_percent", m.hard_cover_percent)?,
            skirmisher_keep: percent("missiles.skirmisher_percent", m.skirmisher_percent)?,
            arcs: [
                arc("missiles.arc_foot", m.arc_foot)?,
                arc("missiles.arc_mounted", m.arc_mounted)?,
            ],
            melee_group,
            melee_halves,
            personality_troop,
            add_charge: melee.charge,
            add_disorganized: melee.disorganized,
            add_lance: melee.lance_charge,
            add_retreating: melee.retreating,
            flank_rounds: melee.flank_double_rounds,
            rear_rounds: melee.rear_double_rounds,
            casualties_per_leader_roll: l.casualties_per_roll,
            leader_killed_on: l.killed_on,
            umak_figures: l.umak_figures,
            morale,
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TablesFile {
    movement: MovementFile,
    missiles: MissilesFile,
    melee: MeleeFile,
    leaders: LeadersFile,
    field: FieldFile,
    terrain: TerrainFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainFile {
    provenance: String,
    kinds: Vec<TerrainRow>,
}

fn yes() -> bool {
    true
}

fn no_cover() -> String {
    "none".into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainRow {
    kind: String,
    #[serde(default)]
    uphill: u32,
    #[serde(default)]
    through: u32,
    #[serde(default)]
    through_skirmish: Option<u32>,
    #[serde(default)]
    through_mounted: Option<u32>,
    #[serde(default = "yes")]
    formed: bool,
    #[serde(default = "yes")]
    charge: bool,
    #[serde(default)]
    half_speed: bool,
    #[serde(default)]
    stumble: Vec<u32>,
    #[serde(default)]
    stunned_turns: u32,
    #[serde(default = "yes")]
    charge_into: bool,
    #[serde(default = "yes")]
    charge_off: bool,
    #[serde(default)]
    higher: bool,
    #[serde(default = "no_cover")]
    cover: String,
    #[serde(default = "yes")]
    fire: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldFile {
    #[allow(dead_code)]
    provenance: String,
    figure_width: f64,
    depth_in_widths: [f64; 4],
    skirmish_spacing: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MovementFile {
    #[allow(dead_code)]
    provenance: String,
    rows: Vec<MoveRow>,
    charge_turns: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRow {
    troop: String,
    formation: String,
    normal: u32,
    charge: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MissilesFile {
    #[allow(dead_code)]
    provenance: String,
    rows: Vec<MissileRow>,
    green_rifle_bonus: f64,
    soft_cover_percent: u64,
    hard_cover_percent: u64,
    skirmisher_percent: u64,
    arc_foot: [u32; 2],
    arc_mounted: [u32; 2],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MissileRow {
    weapon: String,
    range: u32,
    ranks: u32,
    per_turn: u32,
    max_volleys: u32,
    kills: [f64; 4],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MeleeFile {
    #[allow(dead_code)]
    provenance: String,
    rows: Vec<MeleeRow>,
    personality_12: String,
    personality_13: String,
    charge: u64,
    disorganized: u64,
    lance_charge: u64,
    retreating: u64,
    flank_double_rounds: u32,
    rear_double_rounds: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MeleeRow {
    troop: String,
    group: u64,
    casualties: [f64; 5],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LeadersFile {
    #[allow(dead_code)]
    provenance: String,
    casualties_per_roll: u32,
    killed_on: u32,
    umak_figures: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables() -> BattleTables {
        let dir =
            Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("scenarios/wom/data");
        BattleTables::load(&dir).expect("bundled tables load")
    }

    #[test]
    fn missile_table_in_parts_per_firer() {
        let t = tables();
        // 10 rifles kill 5 human infantry: half a figure each.
        assert_eq!(t.weapons[3].parts_per_firer[0], PARTS / 2);
        // 10 javelins kill 1/2 green cavalry: 1/20 figure each.
        assert_eq!(t.weapons[0].parts_per_firer[3], PARTS / 20);
        // 10 arrows kill 1-1/2 green infantry.
        assert_eq!(t.weapons[1].parts_per_firer[1], PARTS * 3 / 20);
        assert_eq!(t.weapons[1].ranks, 2);
        assert_eq!(t.weapons[3].range, None);
        assert_eq!(t.weapons[0].range, Some(6));
        assert_eq!(t.green_rifle_parts, PARTS / 10);
    }

    #[test]
    fn melee_table_and_classes() {
        let t = tables();
        assert_eq!(t.melee_group, [10, 5, 5, 3]);
        // 3 green cavalry inflict 3 on shieldless human infantry, 1 on green cavalry.
        assert_eq!(t.melee_halves[3], [6, 6, 4, 4, 2]);
        assert_eq!(t.melee_halves[0], [6, 4, 2, 2, 1]);
        let morale = &t.morale;
        let guards = morale.class("first-born").expect("alias");
        assert_eq!(morale.classes[guards].steady, 10);
        assert_eq!(morale.class("holy-therns"), Some(guards));
        assert_eq!(morale.class("guards-navy"), Some(guards));
        let low = morale.class("second-rate-red-levies").expect("alias");
        assert_eq!(morale.classes[low].steady, 6);
        assert_eq!(morale.class("orcs"), None);
        assert_eq!(t.moves[3][1], Some((18, 30)));
        assert_eq!(t.moves[1][0], None);
    }
}
