//! The Military Game's fleet combat data, loaded from `scenarios/jc/data/`:
//! the nine fleet maneuvers, the Fleet Maneuver Matrix [23.5], the Fleet
//! Combat Results Table [23.6], the nations with their capitals' intrinsic
//! defense [23.4] and the commanders with their leadership values [23.3].
//! No table value lives in code; this module knows the tables' shapes.

use barsoom_engine::scenario::Load;

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use barsoom_engine::scenario::{Loader, ScenarioError, check_provenance, narrow};

/// How many fleet maneuvers there are [23.0 PROCEDURE].
pub const MANEUVERS: usize = 9;

/// One fleet maneuver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Maneuver {
    /// Identifier used in scenarios, e.g. `close-assault`.
    pub id: String,
    /// Display name.
    pub name: String,
}

/// The Fleet Combat Results Table [23.6]: strength points destroyed by
/// modified roll and fleet differential, both clamped to the table's edges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultsTable {
    /// Lowest and highest modified roll with a row of their own.
    pub rolls: (i32, i32),
    /// Lowest and highest differential with a column of their own.
    pub differentials: (i32, i32),
    /// Row-major cells: `(roll - lowest) * columns + (differential - lowest)`.
    cells: Vec<u8>,
}

impl ResultsTable {
    /// Strength points of the enemy destroyed when a side whose fleet
    /// differential is `differential` rolls `modified_roll` [23.25]. Both
    /// read as the nearest edge when outside the table.
    #[inline]
    pub fn destroyed(&self, differential: i32, modified_roll: i32) -> u8 {
        let row = modified_roll.clamp(self.rolls.0, self.rolls.1) - self.rolls.0;
        let col =
            differential.clamp(self.differentials.0, self.differentials.1) - self.differentials.0;
        self.cells[(row * self.columns() + col) as usize]
    }

    fn columns(&self) -> i32 {
        self.differentials.1 - self.differentials.0 + 1
    }
}

/// The maneuvers, the matrix and the results table.
#[derive(Debug, Clone, PartialEq)]
pub struct FleetTables {
    /// The nine maneuvers, in matrix order.
    pub maneuvers: Vec<Maneuver>,
    /// Index of the Reverse [23.22].
    pub reverse: usize,
    /// The attacker's modifier: `matrix[attacker][defender]` [23.23].
    pub matrix: [[i8; MANEUVERS]; MANEUVERS],
    /// The results table.
    pub results: ResultsTable,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManeuver {
    id: String,
    name: String,
    #[serde(default)]
    reverse: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMatrix {
    provenance: String,
    rows: Vec<Vec<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawResults {
    provenance: String,
    rolls: [i64; 2],
    differentials: [i64; 2],
    destroyed: Vec<Vec<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFleetTables {
    provenance: String,
    maneuvers: Vec<RawManeuver>,
    matrix: RawMatrix,
    results: RawResults,
}

/// Largest modifier a matrix cell may hold.
pub(crate) const MAX_MATRIX_MODIFIER: i64 = 9;
/// Largest result a results-table cell may hold.
pub(crate) const MAX_DESTROYED: i64 = 99;

impl FleetTables {
    /// Parses and checks the tables from TOML text (`file` names it in errors).
    pub fn parse(file: &Path, text: &str) -> Result<Self, ScenarioError> {
        Self::from_raw(file, Loader::default().parse_toml(file, text)?)
    }

    fn from_raw(file: &Path, raw: RawFleetTables) -> Result<Self, ScenarioError> {
        let err = |field: String, message: String| ScenarioError::new(file, field, message);
        for (field, text) in [
            ("provenance", &raw.provenance),
            ("matrix.provenance", &raw.matrix.provenance),
            ("results.provenance", &raw.results.provenance),
        ] {
            if text.trim().is_empty() {
                return Err(err(
                    field.into(),
                    "expected where the table comes from (rules [case] or reconstructed: why)"
                        .into(),
                ));
            }
        }
        if raw.maneuvers.len() != MANEUVERS {
            return Err(err(
                "maneuvers".into(),
                format!(
                    "expected {MANEUVERS} fleet maneuvers [23.0], found {}",
                    raw.maneuvers.len()
                ),
            ));
        }
        let mut maneuvers = Vec::new();
        for (i, m) in raw.maneuvers.iter().enumerate() {
            if m.id.is_empty() || maneuvers.iter().any(|o: &Maneuver| o.id == m.id) {
                return Err(err(
                    format!("maneuvers[{i}].id"),
                    format!("expected a new, non-empty maneuver id, found {:?}", m.id),
                ));
            }
            maneuvers.push(Maneuver {
                id: m.id.clone(),
                name: m.name.clone(),
            });
        }
        let reverses: Vec<usize> = (0..MANEUVERS)
            .filter(|i| raw.maneuvers[*i].reverse)
            .collect();
        let [reverse] = reverses[..] else {
            return Err(err(
                "maneuvers".into(),
                format!(
                    "expected exactly one maneuver marked `reverse = true` [23.22], found {}",
                    reverses.len()
                ),
            ));
        };

        let rows = &raw.matrix.rows;
        if rows.len() != MANEUVERS || rows.iter().any(|r| r.len() != MANEUVERS) {
            let shape = rows
                .iter()
                .map(|r| r.len().to_string())
                .collect::<Vec<_>>()
                .join(", ");
            return Err(err(
                "matrix.rows".into(),
                format!(
                    "expected a 9x9 matrix (9 rows of 9 modifiers, one per maneuver), found {} rows of lengths [{shape}]",
                    rows.len()
                ),
            ));
        }
        let mut matrix = [[0i8; MANEUVERS]; MANEUVERS];
        for (i, row) in rows.iter().enumerate() {
            for (j, v) in row.iter().enumerate() {
                let Some(v) = narrow(*v, -MAX_MATRIX_MODIFIER..=MAX_MATRIX_MODIFIER) else {
                    return Err(err(
                        format!("matrix.rows[{i}][{j}]"),
                        format!(
                            "expected a modifier within -{MAX_MATRIX_MODIFIER}..{MAX_MATRIX_MODIFIER}, found {v}"
                        ),
                    ));
                };
                matrix[i][j] = v;
            }
        }

        let r = &raw.results;
        let (lo_roll, hi_roll) = (r.rolls[0], r.rolls[1]);
        let (lo_diff, hi_diff) = (r.differentials[0], r.differentials[1]);
        if lo_roll > hi_roll || lo_roll < -50 || hi_roll > 60 {
            return Err(err(
                "results.rolls".into(),
                format!(
                    "expected [lowest, highest] rolls within -50..60, found {:?}",
                    r.rolls
                ),
            ));
        }
        if lo_diff > hi_diff || lo_diff < -99 || hi_diff > 99 {
            return Err(err(
                "results.differentials".into(),
                format!(
                    "expected [lowest, highest] differentials within -99..99, found {:?}",
                    r.differentials
                ),
            ));
        }
        let columns = (hi_diff - lo_diff + 1) as usize;
        let row_count = (hi_roll - lo_roll + 1) as usize;
        if r.destroyed.len() != row_count {
            return Err(err(
                "results.destroyed".into(),
                format!(
                    "expected {row_count} rows (rolls {lo_roll} to {hi_roll}), found {}",
                    r.destroyed.len()
                ),
            ));
        }
        let mut cells = Vec::with_capacity(row_count * columns);
        for (i, row) in r.destroyed.iter().enumerate() {
            if row.len() != columns {
                return Err(err(
                    format!("results.destroyed[{i}]"),
                    format!(
                        "expected {columns} entries (differentials {lo_diff} to {hi_diff}), found {}",
                        row.len()
                    ),
                ));
            }
            for (j, v) in row.iter().enumerate() {
                if !(0..=MAX_DESTROYED).contains(v) {
                    return Err(err(
                        format!("results.destroyed[{i}][{j}]"),
                        format!(
                            "expected 0 to {MAX_DESTROYED} strength points destroyed, found {v}"
                        ),
                    ));
                }
                let left = j.checked_sub(1).map_or(0, |k| row[k]);
                let above = i.checked_sub(1).map_or(0, |k| r.destroyed[k][j]);
                if *v < left || *v < above {
                    return Err(err(
                        format!("results.destroyed[{i}][{j}]"),
                        format!(
                            "expected results that never fall as the roll or the differential grows, found {v} after {}",
                            left.max(above)
                        ),
                    ));
                }
                cells.push(*v as u8);
            }
        }
        Ok(FleetTables {
            maneuvers,
            reverse,
            matrix,
            results: ResultsTable {
                rolls: (lo_roll as i32, hi_roll as i32),
                differentials: (lo_diff as i32, hi_diff as i32),
                cells,
            },
        })
    }

    /// The index of maneuver `id`, if there is one.
    pub fn maneuver(&self, id: &str) -> Option<usize> {
        self.maneuvers.iter().position(|m| m.id == id)
    }

    /// The maneuver ids, comma-separated (for error messages).
    pub(crate) fn maneuver_list(&self) -> String {
        self.maneuvers
            .iter()
            .map(|m| m.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl Load for FleetTables {
    /// Loads and checks `fleet-tables.toml`.
    fn load_with(file: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let raw: RawFleetTables = loader.read_toml(file)?;
        Self::from_raw(file, raw)
    }
}

/// A nation that fields fleets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nation {
    /// Identifier, e.g. `helium`.
    pub id: String,
    /// Display name.
    pub name: String,
}

/// A capital and its intrinsic defense strength [23.4].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capital {
    /// Identifier, e.g. `greater-helium`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Index of its nation in [`JcData::nations`].
    pub nation: usize,
    /// Intrinsic defense strength [23.43].
    pub intrinsic_defense: u8,
}

/// A fleet commander [22.1, 23.3].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commander {
    /// Identifier, e.g. `john-carter`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Index of his nation in [`JcData::nations`].
    pub nation: usize,
    /// Leadership value.
    pub leadership: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNation {
    name: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCapital {
    name: String,
    nation: String,
    intrinsic_defense: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNations {
    provenance: String,
    nations: BTreeMap<String, RawNation>,
    capitals: BTreeMap<String, RawCapital>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCommander {
    name: String,
    nation: String,
    leadership: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCommanders {
    provenance: String,
    commanders: BTreeMap<String, RawCommander>,
}

/// Everything `jc.fleet` reads from the data folder.
#[derive(Debug, Clone, PartialEq)]
pub struct JcData {
    /// Maneuvers, matrix and results table.
    pub tables: FleetTables,
    /// Nations, sorted by id.
    pub nations: Vec<Nation>,
    /// Capitals, sorted by id.
    pub capitals: Vec<Capital>,
    /// Commanders, sorted by id.
    pub commanders: Vec<Commander>,
}

/// Largest leadership value a commander may have.
pub(crate) const MAX_LEADERSHIP: i64 = 9;

impl JcData {
    /// Index of nation `id`.
    pub fn nation(&self, id: &str) -> Option<usize> {
        self.nations.iter().position(|n| n.id == id)
    }

    /// Index of capital `id`.
    pub fn capital(&self, id: &str) -> Option<usize> {
        self.capitals.iter().position(|c| c.id == id)
    }

    /// Index of commander `id`.
    pub fn commander(&self, id: &str) -> Option<usize> {
        self.commanders.iter().position(|c| c.id == id)
    }
}

impl Load for JcData {
    /// Loads `fleet-tables.toml`, `nations.toml` and `commanders.toml` from `dir`.
    fn load_with(dir: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let tables = FleetTables::load_with(&dir.join("fleet-tables.toml"), loader)?;

        let file = dir.join("nations.toml");
        let raw: RawNations = loader.read_toml(&file)?;
        check_provenance(&file, "provenance", &raw.provenance)?;
        let nations: Vec<Nation> = raw
            .nations
            .iter()
            .map(|(id, n)| Nation {
                id: id.clone(),
                name: n.name.clone(),
            })
            .collect();
        let nation_index = |id: &str, file: &Path, field: String| {
            nations.iter().position(|n| n.id == id).ok_or_else(|| {
                ScenarioError::new(
                    file,
                    field,
                    format!(
                        "expected one of the nations {}, found {id:?}",
                        nations
                            .iter()
                            .map(|n| n.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })
        };
        let mut capitals = Vec::new();
        for (id, c) in &raw.capitals {
            let nation = nation_index(&c.nation, &file, format!("capitals.{id}.nation"))?;
            if !(0..=9).contains(&c.intrinsic_defense) {
                return Err(ScenarioError::new(
                    &file,
                    format!("capitals.{id}.intrinsic_defense"),
                    format!(
                        "expected an intrinsic defense of 0 to 9, found {}",
                        c.intrinsic_defense
                    ),
                ));
            }
            capitals.push(Capital {
                id: id.clone(),
                name: c.name.clone(),
                nation,
                intrinsic_defense: c.intrinsic_defense as u8,
            });
        }

        let file = dir.join("commanders.toml");
        let raw: RawCommanders = loader.read_toml(&file)?;
        check_provenance(&file, "provenance", &raw.provenance)?;
        let mut commanders = Vec::new();
        for (id, c) in &raw.commanders {
            let nation = nation_index(&c.nation, &file, format!("commanders.{id}.nation"))?;
            if !(0..=MAX_LEADERSHIP).contains(&c.leadership) {
                return Err(ScenarioError::new(
                    &file,
                    format!("commanders.{id}.leadership"),
                    format!(
                        "expected a leadership value of 0 to {MAX_LEADERSHIP}, found {}",
                        c.leadership
                    ),
                ));
            }
            commanders.push(Commander {
                id: id.clone(),
                name: c.name.clone(),
                nation,
                leadership: c.leadership as u8,
            });
        }
        Ok(JcData {
            tables,
            nations,
            capitals,
            commanders,
        })
    }
}
