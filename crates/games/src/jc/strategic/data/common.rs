//! What the data files' loaders share: the `provenance` check, place
//! look-ups by id and the rows of a die table file.

use std::path::Path;

use serde::Deserialize;

use crate::jc::map::BarsoomMap;
use crate::jc::strategic::tables::RawRow;
use barsoom_engine::scenario::ScenarioError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RowsFile {
    pub(super) provenance: String,
    pub(super) rolls: Vec<RawRow>,
}

/// Looks places up by id with one-line errors.
pub(crate) struct Places<'a> {
    /// The map.
    pub(crate) map: &'a BarsoomMap,
}

impl Places<'_> {
    /// The index of the city `id` (not a waypoint).
    pub(crate) fn get(&self, file: &Path, field: &str, id: &str) -> Result<u8, ScenarioError> {
        self.map
            .city(id)
            .filter(|&c| !self.map.cities[c].waypoint)
            .map(|c| c as u8)
            .ok_or_else(|| {
                ScenarioError::new(
                    file,
                    field,
                    format!(
                        "expected a city of the map (barsoom-map.toml, strategic-map.toml), found {id:?}; nearest: {}",
                        barsoom_engine::scenario::nearest_ids(id, self.map.cities.iter().map(|c| c.id.as_str()))
                    ),
                )
            })
    }
}
