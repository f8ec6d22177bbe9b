//! `outdoor-encounters.toml`: the Outdoor Encounter Table [11.6], per area
//! and conveyance.

use std::path::Path;

use serde::Deserialize;

use crate::jc::duel::roster::Roster;
use crate::jc::strategic::tables::{self, DieTable, Entries, Lookup, Outcome, RawRow, TableSpec};
use barsoom_engine::scenario::check_provenance;
use barsoom_engine::scenario::{Loader, ScenarioError};

/// One area's outdoor encounter lines [11.6].
#[derive(Debug, Clone, PartialEq)]
pub struct AreaTables {
    /// Identifier, e.g. `III-A`.
    pub id: String,
    /// Name.
    pub name: String,
    /// Thoat escape span of a ten-sided die [11.32].
    pub thoat_escape: (u8, u8),
    /// The walking, thoat and flier lines, read with a six-sided die.
    pub lines: [DieTable<Outcome>; 3],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OutdoorFile {
    provenance: String,
    areas: Vec<OutdoorArea>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OutdoorArea {
    id: String,
    name: String,
    thoat_escape: [i64; 2],
    walk: Vec<RawRow>,
    thoat: Vec<RawRow>,
    flier: Vec<RawRow>,
}

/// The Outdoor Encounter Table [11.6], per area and conveyance.
pub(super) fn load_outdoor(
    dir: &Path,
    roster: &Roster,
    entries: &mut Entries,
    loader: &mut Loader,
) -> Result<Vec<AreaTables>, ScenarioError> {
    // Outdoor encounters first: the directory names their areas.
    let file = dir.join("outdoor-encounters.toml");
    let raw: OutdoorFile = loader.read_toml(&file)?;
    check_provenance(&file, "provenance", &raw.provenance)?;
    let look = Lookup {
        file: &file,
        roster,
    };
    let mut areas = Vec::new();
    for (i, a) in raw.areas.iter().enumerate() {
        if areas.iter().any(|x: &AreaTables| x.id == a.id) {
            return Err(ScenarioError::new(
                &file,
                format!("areas[{i}].id"),
                format!("expected each area once, found {:?} again", a.id),
            ));
        }
        let [lo, hi] = a.thoat_escape;
        if !(0..=10).contains(&lo) || !(lo..=10).contains(&hi) {
            return Err(ScenarioError::new(
                &file,
                format!("areas[{i}].thoat_escape"),
                format!(
                    "expected a span of a ten-sided die such as [1, 2] (or [0, 0]: never), found [{lo}, {hi}]"
                ),
            ));
        }
        let mut line = |name: &str, rows: &[RawRow]| {
            let spec = TableSpec {
                file: &file,
                field: format!("areas[{i}].{name}"),
                name: format!("outdoor {} {name}", a.id),
                faces: (1, 6),
                open_ended: false,
            };
            tables::build(&spec, rows, entries, |r, f, e| {
                tables::outcome(
                    &look,
                    r,
                    f,
                    &[
                        "none",
                        "fight",
                        "lose-flier",
                        "lose-thoats",
                        "friend",
                        "d10",
                    ],
                    &spec.name,
                    e,
                )
            })
        };
        let lines = [
            line("walk", &a.walk)?,
            line("thoat", &a.thoat)?,
            line("flier", &a.flier)?,
        ];
        areas.push(AreaTables {
            id: a.id.clone(),
            name: a.name.clone(),
            thoat_escape: (lo as u8, hi as u8),
            lines,
        });
    }
    if areas.is_empty() {
        return Err(ScenarioError::new(
            &file,
            "areas",
            "expected at least one area",
        ));
    }

    Ok(areas)
}
