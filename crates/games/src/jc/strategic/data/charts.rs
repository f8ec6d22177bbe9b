//! `villain-charts.toml`: the destination and final destination charts
//! [10.6, 10.43].

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::common::Places;
use crate::jc::strategic::tables::RawRow;
use barsoom_engine::scenario::check_provenance;
use barsoom_engine::scenario::{Loader, ScenarioError};

/// The villain charts [10.6, 10.43].
#[derive(Debug, Clone, PartialEq)]
pub struct Charts {
    /// `destination[first roll - 1][second roll - 1]`: a place.
    pub destination: [[u8; 10]; 10],
    /// Places that may not be a final destination [10.31].
    pub not_final: u64,
    /// Places that do not count against the three-city limit [10.34].
    pub uncounted: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ChartsFile {
    provenance: String,
    destination: DestinationFile,
    pub(super) final_destination: BTreeMap<String, FinalRows>,
}

#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum FinalRows {
    Text(String),
    Rows(Vec<RawRow>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DestinationFile {
    provenance: String,
    rows: Vec<Vec<String>>,
    #[serde(default)]
    not_final: Vec<String>,
    #[serde(default)]
    uncounted: Vec<String>,
}

/// The Destination and Final Destination Charts [10.6, 10.43] (the
/// latter's columns are read with the heroes).
pub(super) fn load_charts(
    dir: &Path,
    places_of: &Places,
    loader: &mut Loader,
) -> Result<(Charts, ChartsFile), ScenarioError> {
    // The villain charts.
    let file = dir.join("villain-charts.toml");
    let raw_charts: ChartsFile = loader.read_toml(&file)?;
    check_provenance(&file, "provenance", &raw_charts.provenance)?;
    match raw_charts.final_destination.get("provenance") {
        Some(FinalRows::Text(text)) => {
            check_provenance(&file, "final_destination.provenance", text)?
        }
        _ => {
            return Err(ScenarioError::new(
                &file,
                "final_destination.provenance",
                "expected where the values come from (rules [case] or reconstructed: why)",
            ));
        }
    }
    check_provenance(
        &file,
        "destination.provenance",
        &raw_charts.destination.provenance,
    )?;
    if raw_charts.destination.rows.len() != 10
        || raw_charts.destination.rows.iter().any(|r| r.len() != 10)
    {
        return Err(ScenarioError::new(
            &file,
            "destination.rows",
            "expected 10 rows of 10 cities (two rolls of a ten-sided die [10.2])",
        ));
    }
    let mut destination = [[0u8; 10]; 10];
    for (i, row) in raw_charts.destination.rows.iter().enumerate() {
        for (j, id) in row.iter().enumerate() {
            destination[i][j] = places_of.get(&file, &format!("destination.rows[{i}][{j}]"), id)?;
        }
    }
    let mask = |list: &[String], field: &str| -> Result<u64, ScenarioError> {
        let mut m = 0u64;
        for (i, id) in list.iter().enumerate() {
            m |= 1 << places_of.get(&file, &format!("{field}[{i}]"), id)?;
        }
        Ok(m)
    };
    let charts = Charts {
        destination,
        not_final: mask(&raw_charts.destination.not_final, "destination.not_final")?,
        uncounted: mask(&raw_charts.destination.uncounted, "destination.uncounted")?,
    };
    if destination
        .iter()
        .flatten()
        .all(|&c| charts.not_final & (1 << c) != 0)
    {
        return Err(ScenarioError::new(
            &file,
            "destination.not_final",
            "expected at least one city of the chart that may be a final destination",
        ));
    }

    Ok((charts, raw_charts))
}
