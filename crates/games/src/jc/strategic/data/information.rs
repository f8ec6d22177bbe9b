//! `information-chart.toml`: the information chart and the hand of fate
//! [16.27, 16.28].

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::city_map::CityMap;
use super::common::RowsFile;
use crate::jc::duel::roster::Roster;
use crate::jc::strategic::tables::{self, DieTable, Entries, Lookup, Outcome, TableSpec};
use barsoom_engine::scenario::check_provenance;
use barsoom_engine::scenario::{Loader, ScenarioError};

/// One row of an information table [16.27]: the least roll for each
/// level of information (11: never) and the hand of fate number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InfoRow {
    /// Least roll telling the area, the house, the room.
    pub at_least: [u8; 3],
    /// Hand of fate strikes on this or less [16.0 PROCEDURE].
    pub hand_of_fate: u8,
    /// Entry number (firing counts).
    pub entry: u16,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InformationFile {
    provenance: String,
    information: InformationTables,
    hand_of_fate: RowsFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InformationTables {
    provenance: String,
    tables: Vec<InformationTable>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InformationTable {
    rows: BTreeMap<String, InfoRowFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InfoRowFile {
    area: i64,
    house: i64,
    room: i64,
    hand_of_fate: i64,
}

/// The Information Chart and the Hand of Fate Table [16.27, 16.28].
pub(super) fn load_information(
    dir: &Path,
    roster: &Roster,
    city_map: &CityMap,
    entries: &mut Entries,
    loader: &mut Loader,
) -> Result<(Vec<Vec<InfoRow>>, DieTable<Outcome>), ScenarioError> {
    // Information and the hand of fate.
    let file = dir.join("information-chart.toml");
    let raw: InformationFile = loader.read_toml(&file)?;
    check_provenance(&file, "provenance", &raw.provenance)?;
    check_provenance(&file, "information.provenance", &raw.information.provenance)?;
    if raw.information.tables.len() != 6 {
        return Err(ScenarioError::new(
            &file,
            "information.tables",
            format!(
                "expected six tables, one per face of a six-sided die [16.0 PROCEDURE], found {}",
                raw.information.tables.len()
            ),
        ));
    }
    let mut information = Vec::new();
    for (t, table) in raw.information.tables.iter().enumerate() {
        let mut rows = Vec::new();
        for (a, area) in city_map.areas.iter().enumerate() {
            let field = format!("information.tables[{t}].rows.{}", area.id);
            if a == usize::from(city_map.prison) {
                rows.push(InfoRow {
                    at_least: [11; 3],
                    hand_of_fate: 0,
                    entry: 0,
                });
                continue;
            }
            let r = table.rows.get(&area.id).ok_or_else(|| {
                ScenarioError::new(
                    &file,
                    &field,
                    "expected a row for every area of the city map but the prison".to_string(),
                )
            })?;
            let thresholds = [r.area, r.house, r.room];
            if thresholds.iter().any(|v| !(1..=11).contains(v))
                || r.area > r.house
                || r.house > r.room
            {
                return Err(ScenarioError::new(
                    &file,
                    &field,
                    format!(
                        "expected least rolls 1 to 11 (11: never) with area <= house <= room, found {} {} {}",
                        r.area, r.house, r.room
                    ),
                ));
            }
            if !(0..=10).contains(&r.hand_of_fate) {
                return Err(ScenarioError::new(
                    &file,
                    format!("{field}.hand_of_fate"),
                    format!("expected 0 to 10, found {}", r.hand_of_fate),
                ));
            }
            rows.push(InfoRow {
                at_least: thresholds.map(|v| v as u8),
                hand_of_fate: r.hand_of_fate as u8,
                entry: entries.add(format!("information {} {}", t + 1, area.id)),
            });
        }
        if let Some(extra) = table
            .rows
            .keys()
            .find(|k| !city_map.areas.iter().any(|a| a.id == **k))
        {
            return Err(ScenarioError::new(
                &file,
                format!("information.tables[{t}].rows.{extra}"),
                "expected an area of the city map".to_string(),
            ));
        }
        information.push(rows);
    }
    let look = Lookup {
        file: &file,
        roster,
    };
    check_provenance(
        &file,
        "hand_of_fate.provenance",
        &raw.hand_of_fate.provenance,
    )?;
    let hand_of_fate = tables::build(
        &TableSpec {
            file: &file,
            field: "hand_of_fate.rolls".into(),
            name: "hand of fate".into(),
            faces: (1, 10),
            open_ended: false,
        },
        &raw.hand_of_fate.rolls,
        entries,
        |r, f, e| {
            tables::outcome(
                &look,
                r,
                f,
                &[
                    "close-call",
                    "discovered",
                    "friend",
                    "swordsman",
                    "city-encounter",
                ],
                "hand of fate",
                e,
            )
        },
    )?;

    Ok((information, hand_of_fate))
}
