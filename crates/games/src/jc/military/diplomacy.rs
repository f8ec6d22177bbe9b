//! Diplomatic in-fighting tables (`diplomacy.toml`): the Diplomacy
//! Maneuver Table [24.5], the Diplomacy Results Table [24.6] and the
//! commanders' diplomacy values, all reconstructed (see the file's
//! provenance fields).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::jc::fleet_tables::JcData;
use barsoom_engine::scenario::id_list;
use barsoom_engine::scenario::{Loader, ScenarioError};

/// Most diplomacy modes.
pub(crate) const MAX_MODES: usize = 9;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DiplomacyFile {
    maneuvers: ManeuversFile,
    results: ResultsFile,
    commanders: CommandersFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ManeuversFile {
    provenance: String,
    modes: Vec<String>,
    matrix: Vec<Vec<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultsFile {
    provenance: String,
    lowest: i64,
    points: Vec<i64>,
    #[serde(default)]
    other: Vec<i64>,
}

#[derive(Deserialize)]
struct CommandersFile {
    provenance: String,
    #[serde(flatten)]
    values: BTreeMap<String, i64>,
}

/// The in-fighting tables.
#[derive(Debug, Clone, PartialEq)]
pub struct DiplomacyTables {
    /// Mode ids.
    pub modes: Vec<String>,
    /// The first player's modifier for each pair of modes.
    pub matrix: Vec<Vec<i8>>,
    /// Lowest modified roll of the results table.
    pub lowest: i32,
    /// Influence Points by modified roll from `lowest`.
    pub points: Vec<u8>,
    /// Influence Points the roll costs the other player, by modified roll
    /// from `lowest` (all 0 when the file gives none) [24.33].
    pub other_loses: Vec<u8>,
    /// Diplomacy value of each commander (indexed like the data's).
    pub values: Vec<u8>,
}

impl DiplomacyTables {
    /// Loads and checks `diplomacy.toml`.
    pub fn load_with(
        file: &Path,
        data: &JcData,
        loader: &mut Loader,
    ) -> Result<Self, ScenarioError> {
        let raw: DiplomacyFile = loader.read_toml(file)?;
        let err = |field: &str, message: String| ScenarioError::new(file, field, message);
        for (field, p) in [
            ("maneuvers.provenance", &raw.maneuvers.provenance),
            ("results.provenance", &raw.results.provenance),
            ("commanders.provenance", &raw.commanders.provenance),
        ] {
            if p.trim().is_empty() {
                return Err(err(field, "expected a source".into()));
            }
        }
        let n = raw.maneuvers.modes.len();
        if !(1..=MAX_MODES).contains(&n) {
            return Err(err(
                "maneuvers.modes",
                format!("expected 1 to {MAX_MODES} modes, found {n}"),
            ));
        }
        if raw.maneuvers.matrix.len() != n || raw.maneuvers.matrix.iter().any(|r| r.len() != n) {
            return Err(err(
                "maneuvers.matrix",
                format!("expected {n} rows of {n} modifiers (one per mode)"),
            ));
        }
        let mut matrix = Vec::new();
        for row in &raw.maneuvers.matrix {
            let mut out = Vec::new();
            for v in row {
                if !(-9..=9).contains(v) {
                    return Err(err(
                        "maneuvers.matrix",
                        format!("expected modifiers of -9 to 9, found {v}"),
                    ));
                }
                out.push(*v as i8);
            }
            matrix.push(out);
        }
        if raw.results.points.is_empty() || raw.results.points.iter().any(|p| !(0..=3).contains(p))
        {
            return Err(err(
                "results.points",
                "expected a non-empty list of 0 to 3 Influence Points [24.26]".into(),
            ));
        }
        let other_loses = if raw.results.other.is_empty() {
            vec![0; raw.results.points.len()]
        } else if raw.results.other.len() != raw.results.points.len()
            || raw.results.other.iter().any(|p| !(-3..=0).contains(p))
        {
            return Err(err(
                "results.other",
                format!(
                    "expected {} entries (one per entry of results.points) of 0 to -3 Influence Points, the other player's change [24.33]",
                    raw.results.points.len()
                ),
            ));
        } else {
            raw.results.other.iter().map(|p| (-p) as u8).collect()
        };
        if !(-20..=20).contains(&raw.results.lowest) {
            return Err(err(
                "results.lowest",
                format!("expected -20 to 20, found {}", raw.results.lowest),
            ));
        }
        let mut values = Vec::new();
        for c in &data.commanders {
            let v = raw.commanders.values.get(&c.id).ok_or_else(|| {
                err(
                    "commanders",
                    format!("expected a diplomacy value for {:?}", c.id),
                )
            })?;
            if !(0..=9).contains(v) {
                return Err(err(
                    &format!("commanders.{}", c.id),
                    format!("expected a diplomacy value of 0 to 9, found {v}"),
                ));
            }
            values.push(*v as u8);
        }
        for id in raw.commanders.values.keys() {
            if data.commander(id).is_none() {
                return Err(err(
                    &format!("commanders.{id}"),
                    format!(
                        "expected one of the commanders {}",
                        id_list(data.commanders.iter().map(|c| c.id.as_str()))
                    ),
                ));
            }
        }
        Ok(DiplomacyTables {
            modes: raw.maneuvers.modes,
            matrix,
            lowest: raw.results.lowest as i32,
            points: raw.results.points.iter().map(|p| *p as u8).collect(),
            other_loses,
            values,
        })
    }

    /// Influence Points for a modified roll (clamped to the table's ends).
    #[inline]
    pub fn points(&self, modified_roll: i32) -> u8 {
        self.points[self.row(modified_roll)]
    }

    /// Influence Points a modified roll costs the other player [24.33].
    #[inline]
    pub fn other_loses(&self, modified_roll: i32) -> u8 {
        self.other_loses[self.row(modified_roll)]
    }

    fn row(&self, modified_roll: i32) -> usize {
        (modified_roll - self.lowest).clamp(0, self.points.len() as i32 - 1) as usize
    }
}
