//! What the loaders of the story files (random events, friend tables,
//! romance, special characters) share: name look-ups, whole numbers and
//! die tables from rows of a file's own shape, each with one-line errors.

use std::path::Path;

use super::tables::{self, DieTable, Entries, RawRow, RollSpec, TableSpec};
use crate::jc::duel::roster::{Class, Roster};
use crate::jc::map::BarsoomMap;
use barsoom_engine::scenario::ScenarioError;

/// Name look-ups with one-line errors, for the story files.
pub struct Look<'a> {
    /// The map of Barsoom.
    pub map: &'a BarsoomMap,
    /// The duel roster.
    pub roster: &'a Roster,
    /// The city map's area ids.
    pub city_areas: &'a [String],
}

impl Look<'_> {
    /// The roster index of `id`.
    pub fn character(&self, file: &Path, field: &str, id: &str) -> Result<u8, ScenarioError> {
        self.lookup(file).character(id, field).map(|k| k as u8)
    }

    /// The roster index of `id`, which must be of one of `classes`.
    pub(crate) fn of_class(
        &self,
        file: &Path,
        field: &str,
        id: &str,
        classes: &[Class],
    ) -> Result<u8, ScenarioError> {
        self.lookup(file)
            .character_of(id, field, classes)
            .map(|k| k as u8)
    }

    fn lookup<'a>(&'a self, file: &'a Path) -> tables::Lookup<'a> {
        tables::Lookup {
            file,
            roster: self.roster,
        }
    }

    /// A set of roster characters (bit per index).
    pub fn set(&self, file: &Path, field: &str, ids: &[String]) -> Result<u128, ScenarioError> {
        let mut set = 0u128;
        for (i, id) in ids.iter().enumerate() {
            set |= 1u128 << self.character(file, &format!("{field}[{i}]"), id)?;
        }
        Ok(set)
    }

    /// The index of a city of the map (not a waypoint).
    pub fn place(&self, file: &Path, field: &str, id: &str) -> Result<u8, ScenarioError> {
        super::data::Places { map: self.map }.get(file, field, id)
    }

    /// A set of cities (bit per index).
    pub fn places(&self, file: &Path, field: &str, ids: &[String]) -> Result<u64, ScenarioError> {
        let mut set = 0u64;
        for (i, id) in ids.iter().enumerate() {
            set |= 1u64 << self.place(file, &format!("{field}[{i}]"), id)?;
        }
        Ok(set)
    }

    /// The index of an area of the city map.
    pub fn area(&self, file: &Path, field: &str, id: &str) -> Result<u8, ScenarioError> {
        self.city_areas
            .iter()
            .position(|a| a == id)
            .map(|a| a as u8)
            .ok_or_else(|| {
                ScenarioError::new(
                    file,
                    field,
                    format!(
                        "expected an area of the city map ({}), found {id:?}",
                        self.city_areas.join(", ")
                    ),
                )
            })
    }
}

/// Checks a `provenance` field.
pub(super) use barsoom_engine::scenario::check_provenance as provenance;

/// Builds a die table from rows of a story file's own shape: `roll` gives
/// each row's roll for the coverage checks of [`tables::build`], `parse`
/// its payload (given the row and its field path).
pub(crate) fn build_rows<Row, T>(
    spec: &TableSpec,
    rows: &[Row],
    roll: impl Fn(&Row) -> RollSpec,
    entries: &mut Entries,
    mut parse: impl FnMut(&Row, &str) -> Result<T, ScenarioError>,
) -> Result<DieTable<T>, ScenarioError> {
    let raw: Vec<RawRow> = rows.iter().map(|r| RawRow::roll_only(roll(r))).collect();
    let mut i = 0usize;
    tables::build(spec, &raw, entries, |_, field, _| {
        let row = &rows[i];
        i += 1;
        parse(row, field)
    })
}

/// A whole number of a story file in `range`, with a one-line error.
pub fn number(
    file: &Path,
    field: &str,
    value: i64,
    range: std::ops::RangeInclusive<i64>,
) -> Result<u8, ScenarioError> {
    if range.contains(&value) {
        Ok(value as u8)
    } else {
        Err(ScenarioError::new(
            file,
            field,
            format!(
                "expected {} to {}, found {value}",
                range.start(),
                range.end()
            ),
        ))
    }
}
