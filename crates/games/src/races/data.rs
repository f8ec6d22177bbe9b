//! The six-races hex wargame's data, loaded from `scenarios/races/data/`:
//! the nine attributes and six races [Martian Warband Attribute Table], the
//! random attribute and race tables, the three terrain d10 tables [Map], the
//! variant warbands [Variant Warbands] and the turn-sequence numbers. No
//! table value lives in code; this module knows the tables' shapes and
//! checks them.

use barsoom_engine::scenario::Load;

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use barsoom_engine::scenario::{Loader, ScenarioError, check_provenance, id_list, narrow};

/// Warbands have nine attributes [Attributes].
pub(crate) const ATTRIBUTES: usize = 9;

/// An attribute vector (base values, or bonuses), in table order.
pub(crate) type Profile = [i8; ATTRIBUTES];

/// A face of the random attribute table: an attribute, or roll again.
pub(crate) const REROLL: u8 = u8::MAX;

/// One race's basic warband.
#[derive(Debug, Clone, PartialEq)]
pub struct Race {
    /// Identifier, e.g. `green`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Attribute values.
    pub values: Profile,
}

/// A kind of warband: a race's basic warband or one of its variants.
#[derive(Debug, Clone, PartialEq)]
pub struct WarbandKind {
    /// Identifier: the race id or the variant id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Index of its race.
    pub race: usize,
    /// Attribute values after the variant's shift.
    pub values: Profile,
}

/// What a terrain does [Hex Terrain Type], [Beneficial Terrain Type Table],
/// [Settlement Type Table].
#[derive(Debug, Clone, PartialEq)]
pub struct Terrain {
    /// Identifier, e.g. `hills`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Units cannot enter it.
    pub impassable: bool,
    /// A settlement (a key location).
    pub settlement: bool,
    /// Bonus to units in the hex.
    pub in_hex: Profile,
    /// Bonus to all of the occupier's warbands while occupied.
    pub all_units: Profile,
    /// A city: has a race and recruits.
    pub city: bool,
    /// Ruins: this bonus to one random attribute, for units in the hex.
    pub ruins: i8,
}

/// The most terrain tables one hex's roll may read: a hex's terrain is
/// drawn in one go from the chained d10 tables flattened, `10^chain`
/// equally likely outcomes.
pub(crate) const MAX_HEX_CHAIN: usize = 4;

/// A face of a terrain table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    /// This terrain (index into [`RacesData::terrain`]).
    Terrain(usize),
    /// Roll on this table (index into [`RacesData::tables`]).
    Roll(usize),
}

/// A d10 terrain table.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainTable {
    /// Identifier, e.g. `hex`.
    pub id: String,
    /// One entry per face, face 1 first.
    pub faces: Vec<Face>,
}

/// The turn-sequence numbers of `rules.toml`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Where the numbers come from.
    pub provenance: String,
    /// A leader's bonus to its special attribute [Leaders].
    pub leader_bonus: i8,
    /// Most hexes a warband moves per turn [Movement Phase].
    pub max_move: u8,
    /// Units per command die, rounded up [Movement Phase].
    pub units_per_command_die: u32,
    /// The face of a city's d10 that recruits [Initiative Phase].
    pub recruit_face: u32,
    /// Deployment depth from the edge [Scenario Setup].
    pub deployment_depth: u32,
    /// Fewest points a variant shifts [Variant Warbands].
    pub variant_shift_min: u32,
    /// Most points a variant shifts [Variant Warbands].
    pub variant_shift_max: u32,
    /// Readings of open points, each `reconstructed: why`.
    pub readings: BTreeMap<String, String>,
}

/// Everything the rules give as tables.
#[derive(Debug, Clone, PartialEq)]
pub struct RacesData {
    /// Attribute ids in table order.
    pub attributes: Vec<String>,
    /// Attribute display names.
    pub attribute_names: Vec<String>,
    /// The six races.
    pub races: Vec<Race>,
    /// Basic warbands (one per race, same index) then variants.
    pub kinds: Vec<WarbandKind>,
    /// Random attribute table: attribute index per face, or [`REROLL`].
    pub random_attribute: Vec<u8>,
    /// Race determination table: race index per face.
    pub race_table: Vec<u8>,
    /// Terrains.
    pub terrain: Vec<Terrain>,
    /// Terrain tables; index 0 is the hex table rolled first.
    pub tables: Vec<TerrainTable>,
    /// The most tables one hex's roll reads (the hex table and those it
    /// sends on to), at most [`MAX_HEX_CHAIN`].
    pub hex_chain: usize,
    /// Turn-sequence numbers.
    pub rules: Rules,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDieTable {
    #[serde(default)]
    provenance: Option<String>,
    die: u32,
    faces: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRace {
    name: String,
    values: Vec<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRaces {
    provenance: String,
    attributes: Vec<String>,
    attribute_names: Vec<String>,
    attribute_points: i64,
    random_attribute: RawDieTable,
    race_table: RawDieTable,
    races: BTreeMap<String, RawRace>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    name: String,
    race: String,
    shift: BTreeMap<String, i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariants {
    provenance: String,
    #[serde(default)]
    variants: BTreeMap<String, RawVariant>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTerrain {
    name: String,
    #[serde(default)]
    impassable: bool,
    #[serde(default)]
    settlement: bool,
    #[serde(default)]
    in_hex: BTreeMap<String, i64>,
    #[serde(default)]
    all_units: BTreeMap<String, i64>,
    #[serde(default)]
    city: bool,
    #[serde(default)]
    ruins: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTerrainFile {
    provenance: String,
    tables: BTreeMap<String, RawDieTable>,
    terrain: BTreeMap<String, RawTerrain>,
}

/// Largest bonus or value an attribute entry may hold.
pub(crate) const MAX_VALUE: i64 = 20;

impl RacesData {
    #[allow(clippy::type_complexity)]
    fn races(
        file: &Path,
        raw: RawRaces,
    ) -> Result<(Vec<String>, Vec<String>, Vec<Race>, Vec<u8>, Vec<u8>), ScenarioError> {
        let err = |field: &str, message: String| ScenarioError::new(file, field, message);
        check_provenance(file, "provenance", &raw.provenance)?;
        if raw.attributes.len() != ATTRIBUTES || raw.attribute_names.len() != ATTRIBUTES {
            return Err(err(
                "attributes",
                format!(
                    "expected {ATTRIBUTES} attributes and {ATTRIBUTES} names [Attributes], found {} and {}",
                    raw.attributes.len(),
                    raw.attribute_names.len()
                ),
            ));
        }
        let mut races = Vec::new();
        for (id, r) in &raw.races {
            let field = format!("races.{id}.values");
            let values = profile_from_list(&r.values).map_err(|m| err(&field, m))?;
            let total: i64 = values.iter().map(|v| i64::from(*v)).sum();
            if values.iter().any(|v| *v < 0) || total != raw.attribute_points {
                return Err(err(
                    &field,
                    format!(
                        "expected non-negative values worth {} points [Attributes], found {:?} ({total} points)",
                        raw.attribute_points, r.values
                    ),
                ));
            }
            races.push(Race {
                id: id.clone(),
                name: r.name.clone(),
                values,
            });
        }
        // The race table fixes the order: races follow its faces.
        let t = &raw.race_table;
        if let Some(p) = &t.provenance {
            check_provenance(file, "race_table.provenance", p)?;
        }
        if t.faces.len() != t.die as usize || t.die == 0 {
            return Err(err(
                "race_table.faces",
                format!(
                    "expected one race per face of the d{}, found {}",
                    t.die,
                    t.faces.len()
                ),
            ));
        }
        let mut ordered = Vec::new();
        for (i, face) in t.faces.iter().enumerate() {
            let Some(r) = races.iter().find(|r| &r.id == face) else {
                return Err(err(
                    &format!("race_table.faces[{i}]"),
                    format!(
                        "expected one of the races {}, found {face:?}",
                        id_list(races.iter().map(|r| r.id.as_str()))
                    ),
                ));
            };
            if !ordered.iter().any(|o: &Race| o.id == r.id) {
                ordered.push(r.clone());
            }
        }
        if ordered.len() != races.len() {
            return Err(err(
                "race_table.faces",
                "expected every race on the race determination table".into(),
            ));
        }
        let race_table: Vec<u8> = t
            .faces
            .iter()
            .filter_map(|f| ordered.iter().position(|r| &r.id == f).map(|i| i as u8))
            .collect();
        let a = &raw.random_attribute;
        if let Some(p) = &a.provenance {
            check_provenance(file, "random_attribute.provenance", p)?;
        }
        if a.faces.len() != a.die as usize || a.die == 0 {
            return Err(err(
                "random_attribute.faces",
                format!(
                    "expected one entry per face of the d{}, found {}",
                    a.die,
                    a.faces.len()
                ),
            ));
        }
        let mut random_attribute = Vec::new();
        for (i, face) in a.faces.iter().enumerate() {
            random_attribute.push(if face == "reroll" {
                REROLL
            } else {
                attribute_index(&raw.attributes, face).ok_or_else(|| {
                    err(
                        &format!("random_attribute.faces[{i}]"),
                        format!(
                            "expected \"reroll\" or one of the attributes {}, found {face:?}",
                            id_list(raw.attributes.iter().map(String::as_str))
                        ),
                    )
                })? as u8
            });
        }
        if random_attribute.iter().all(|f| *f == REROLL) {
            return Err(err(
                "random_attribute.faces",
                "expected at least one attribute face".into(),
            ));
        }
        Ok((
            raw.attributes,
            raw.attribute_names,
            ordered,
            random_attribute,
            race_table,
        ))
    }

    fn check_rules(file: &Path, rules: &Rules) -> Result<(), ScenarioError> {
        check_provenance(file, "provenance", &rules.provenance)?;
        let err = |field: &str, message: String| Err(ScenarioError::new(file, field, message));
        if rules.max_move == 0 {
            return err("max_move", "expected at least 1 hex".into());
        }
        if rules.units_per_command_die == 0 {
            return err("units_per_command_die", "expected at least 1 unit".into());
        }
        if !(1..=10).contains(&rules.recruit_face) {
            return err(
                "recruit_face",
                format!("expected a d10 face 1..10, found {}", rules.recruit_face),
            );
        }
        if rules.variant_shift_min > rules.variant_shift_max {
            return err(
                "variant_shift_min",
                "expected at most variant_shift_max".into(),
            );
        }
        for (key, text) in &rules.readings {
            if !text.starts_with("reconstructed:") {
                return err(
                    &format!("readings.{key}"),
                    "expected a reading that starts \"reconstructed:\" and says why".into(),
                );
            }
        }
        Ok(())
    }

    fn variant(
        &self,
        file: &Path,
        field: &str,
        id: &str,
        v: &RawVariant,
    ) -> Result<WarbandKind, ScenarioError> {
        let err =
            |f: &str, message: String| ScenarioError::new(file, format!("{field}.{f}"), message);
        let Some(race) = self.race(&v.race) else {
            return Err(err(
                "race",
                format!(
                    "expected one of the races {}, found {:?}",
                    id_list(self.races.iter().map(|r| r.id.as_str())),
                    v.race
                ),
            ));
        };
        if self.kinds.iter().any(|k| k.id == id) {
            return Err(ScenarioError::new(
                file,
                field,
                format!("expected a variant id unlike every race id, found {id:?}"),
            ));
        }
        let shift = self.bonus_from_map(&v.shift).map_err(|m| err("shift", m))?;
        let values = self.shifted(race, &shift).map_err(|m| err("shift", m))?;
        Ok(WarbandKind {
            id: id.to_string(),
            name: v.name.clone(),
            race,
            values,
        })
    }

    /// A race's basic values with `shift` applied, checked as a legal
    /// variant [Variant Warbands]: the shift adds to zero (the warband keeps
    /// its points), moves between the rules' minimum and maximum points, and
    /// leaves no attribute below zero.
    pub fn shifted(&self, race: usize, shift: &Profile) -> Result<Profile, String> {
        let (lo, hi) = (self.rules.variant_shift_min, self.rules.variant_shift_max);
        let net: i32 = shift.iter().map(|s| i32::from(*s)).sum();
        let moved: u32 = shift.iter().filter(|s| **s > 0).map(|s| *s as u32).sum();
        if net != 0 {
            return Err(format!(
                "expected a shift whose gains and losses cancel (a variant keeps its points), found a net {net:+}"
            ));
        }
        if moved < lo || moved > hi {
            return Err(format!(
                "expected {lo} to {hi} points shifted [Variant Warbands], found {moved}"
            ));
        }
        let mut values = self.races[race].values;
        for (i, (v, s)) in values.iter_mut().zip(shift).enumerate() {
            *v += s;
            if *v < 0 {
                return Err(format!(
                    "expected no attribute below 0, found {} {}",
                    self.attributes[i], v
                ));
            }
        }
        Ok(values)
    }

    /// A bonus profile from `{ attribute = value }` entries.
    pub(crate) fn bonus_from_map(&self, map: &BTreeMap<String, i64>) -> Result<Profile, String> {
        let mut out = [0i8; ATTRIBUTES];
        for (name, value) in map {
            let Some(i) = attribute_index(&self.attributes, name) else {
                return Err(format!(
                    "expected attributes among {}, found {name:?}",
                    id_list(self.attributes.iter().map(String::as_str))
                ));
            };
            let Some(v) = narrow(*value, -MAX_VALUE..=MAX_VALUE) else {
                return Err(format!(
                    "expected {name} within -{MAX_VALUE}..{MAX_VALUE}, found {value}"
                ));
            };
            out[i] = v;
        }
        Ok(out)
    }

    fn load_terrain(&mut self, file: &Path, raw: RawTerrainFile) -> Result<(), ScenarioError> {
        let err = |field: String, message: String| ScenarioError::new(file, field, message);
        check_provenance(file, "provenance", &raw.provenance)?;
        for (id, t) in &raw.terrain {
            let field = |f: &str| format!("terrain.{id}.{f}");
            let in_hex = self
                .bonus_from_map(&t.in_hex)
                .map_err(|m| err(field("in_hex"), m))?;
            let all_units = self
                .bonus_from_map(&t.all_units)
                .map_err(|m| err(field("all_units"), m))?;
            if !(0..=MAX_VALUE).contains(&t.ruins) {
                return Err(err(
                    field("ruins"),
                    format!("expected a bonus 0..{MAX_VALUE}, found {}", t.ruins),
                ));
            }
            self.terrain.push(Terrain {
                id: id.clone(),
                name: t.name.clone(),
                impassable: t.impassable,
                settlement: t.settlement,
                in_hex,
                all_units,
                city: t.city,
                ruins: t.ruins as i8,
            });
        }
        // The hex table first: it is the one rolled for every hex [Map].
        let mut names: Vec<&String> = raw.tables.keys().collect();
        names.sort_by_key(|n| n.as_str() != "hex");
        if names.first().map(|n| n.as_str()) != Some("hex") {
            return Err(err(
                "tables".into(),
                "expected a `hex` table, rolled for every hex [Hex Terrain Type]".into(),
            ));
        }
        for name in &names {
            self.tables.push(TerrainTable {
                id: (*name).clone(),
                faces: Vec::new(),
            });
        }
        for (t, name) in names.iter().enumerate() {
            let table = &raw.tables[*name];
            if table.die != 10 || table.faces.len() != 10 {
                return Err(err(
                    format!("tables.{name}.faces"),
                    format!(
                        "expected a d10 table with 10 faces [Map], found d{} with {}",
                        table.die,
                        table.faces.len()
                    ),
                ));
            }
            let mut faces = Vec::new();
            for (i, face) in table.faces.iter().enumerate() {
                let f = if let Some(target) = face.strip_prefix("roll:") {
                    match self.tables.iter().position(|x| x.id == target) {
                        // A table may only send on to a later one, so rolls end.
                        Some(j) if j > t => Face::Roll(j),
                        _ => {
                            return Err(err(
                                format!("tables.{name}.faces[{i}]"),
                                format!(
                                    "expected `roll:` to name a table after {name:?} (one of the others), found {face:?}"
                                ),
                            ));
                        }
                    }
                } else {
                    match self.terrain.iter().position(|x| &x.id == face) {
                        Some(j) => Face::Terrain(j),
                        None => {
                            return Err(err(
                                format!("tables.{name}.faces[{i}]"),
                                format!(
                                    "expected a terrain ({}) or roll:<table>, found {face:?}",
                                    id_list(self.terrain.iter().map(|x| x.id.as_str()))
                                ),
                            ));
                        }
                    }
                };
                faces.push(f);
            }
            self.tables[t].faces = faces;
        }
        // The most tables one hex's roll reads: each table's longest chain,
        // from the last (a table sends on only to later ones).
        let mut chain = vec![1; self.tables.len()];
        for t in (0..self.tables.len()).rev() {
            for face in &self.tables[t].faces {
                if let Face::Roll(j) = face {
                    chain[t] = chain[t].max(1 + chain[*j]);
                }
            }
        }
        self.hex_chain = chain[0];
        if self.hex_chain > MAX_HEX_CHAIN {
            return Err(err(
                "tables".into(),
                format!(
                    "expected `roll:` chains of at most {MAX_HEX_CHAIN} tables from the hex table (a hex's terrain is drawn in one go from the tables flattened), found {}",
                    self.hex_chain
                ),
            ));
        }
        Ok(())
    }

    /// Index of race `id`.
    pub fn race(&self, id: &str) -> Option<usize> {
        self.races.iter().position(|r| r.id == id)
    }

    /// Index of warband kind `id` (a race or a variant).
    pub fn kind(&self, id: &str) -> Option<usize> {
        self.kinds.iter().position(|k| k.id == id)
    }

    /// Index of attribute `id`.
    pub fn attribute(&self, id: &str) -> Option<usize> {
        attribute_index(&self.attributes, id)
    }

    /// Index of terrain `id`.
    pub fn terrain_index(&self, id: &str) -> Option<usize> {
        self.terrain.iter().position(|t| t.id == id)
    }

    /// The warband kinds, quoted, for error messages.
    pub(crate) fn kind_list(&self) -> String {
        id_list(self.kinds.iter().map(|k| k.id.as_str()))
    }
}

impl Load for RacesData {
    /// Loads and checks `races.toml`, `variants.toml`, `terrain.toml` and
    /// `rules.toml` from `dir`.
    fn load_with(dir: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let races_file = dir.join("races.toml");
        let raw: RawRaces = loader.read_toml(&races_file)?;
        let (attributes, attribute_names, races, random_attribute, race_table) =
            Self::races(&races_file, raw)?;
        let variants_file = dir.join("variants.toml");
        let raw_variants: RawVariants = loader.read_toml(&variants_file)?;
        let rules_file = dir.join("rules.toml");
        let rules: Rules = loader.read_toml(&rules_file)?;
        Self::check_rules(&rules_file, &rules)?;
        let mut data = RacesData {
            attributes,
            attribute_names,
            kinds: races
                .iter()
                .enumerate()
                .map(|(i, r)| WarbandKind {
                    id: r.id.clone(),
                    name: r.name.clone(),
                    race: i,
                    values: r.values,
                })
                .collect(),
            races,
            random_attribute,
            race_table,
            terrain: Vec::new(),
            tables: Vec::new(),
            hex_chain: 1,
            rules,
        };
        check_provenance(&variants_file, "provenance", &raw_variants.provenance)?;
        for (id, v) in &raw_variants.variants {
            let kind = data.variant(&variants_file, &format!("variants.{id}"), id, v)?;
            data.kinds.push(kind);
        }
        let terrain_file = dir.join("terrain.toml");
        let raw_terrain: RawTerrainFile = loader.read_toml(&terrain_file)?;
        data.load_terrain(&terrain_file, raw_terrain)?;
        Ok(data)
    }
}

fn attribute_index(attributes: &[String], id: &str) -> Option<usize> {
    attributes.iter().position(|a| a == id)
}

fn profile_from_list(values: &[i64]) -> Result<Profile, String> {
    if values.len() != ATTRIBUTES {
        return Err(format!(
            "expected {ATTRIBUTES} values, one per attribute, found {}",
            values.len()
        ));
    }
    let mut out = [0i8; ATTRIBUTES];
    for (o, v) in out.iter_mut().zip(values) {
        let Some(v) = narrow(*v, -MAX_VALUE..=MAX_VALUE) else {
            return Err(format!("expected values within 0..{MAX_VALUE}, found {v}"));
        };
        *o = v;
    }
    Ok(out)
}
