//! `city-encounters.toml` and `encounter-aftermath.toml`: the City
//! Encounter Table [11.7], and the delay, duel results and internment
//! tables [11.35, 11.45, 11.46].

use std::path::Path;

use serde::Deserialize;

use super::common::RowsFile;
use super::directories::PlaceInfo;
use crate::jc::duel::roster::Roster;
use crate::jc::strategic::tables::{
    self, Delay, DieTable, Entries, Internment, Lookup, Outcome, TableSpec,
};
use barsoom_engine::scenario::check_provenance;
use barsoom_engine::scenario::{Loader, ScenarioError};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AftermathFile {
    provenance: String,
    delay: RowsFile,
    duel_results: RowsFile,
    internment: RowsFile,
}

/// The City Encounter Table [11.7], covering the die plus every modifier
/// of the directory [11.26].
pub(super) fn load_city_encounters(
    dir: &Path,
    roster: &Roster,
    places: &[PlaceInfo],
    entries: &mut Entries,
    loader: &mut Loader,
) -> Result<DieTable<Outcome>, ScenarioError> {
    // City encounters: the die plus every modifier in the directory.
    let file = dir.join("city-encounters.toml");
    let raw: RowsFile = loader.read_toml(&file)?;
    check_provenance(&file, "provenance", &raw.provenance)?;
    let look = Lookup {
        file: &file,
        roster,
    };
    let lowest = places
        .iter()
        .map(|p| i32::from(p.modifier))
        .min()
        .unwrap_or(0);
    let highest = places
        .iter()
        .map(|p| i32::from(p.modifier))
        .max()
        .unwrap_or(0);
    let spec = TableSpec {
        file: &file,
        field: "rolls".into(),
        name: "city".into(),
        faces: (1 + lowest, 10 + highest),
        open_ended: true,
    };
    let city_encounters = tables::build(&spec, &raw.rolls, entries, |r, f, e| {
        tables::outcome(
            &look,
            r,
            f,
            &["none", "fight", "swordsman", "friend", "lose-thoats", "d10"],
            "city",
            e,
        )
    })?;

    Ok(city_encounters)
}

/// The Delay, Duel Results and Internment Tables [11.35, 11.45, 11.46].
#[allow(clippy::type_complexity)]
pub(super) fn load_aftermath(
    dir: &Path,
    roster: &Roster,
    entries: &mut Entries,
    loader: &mut Loader,
) -> Result<(DieTable<Delay>, DieTable<Outcome>, DieTable<Internment>), ScenarioError> {
    // Delay, duel results, internment.
    let file = dir.join("encounter-aftermath.toml");
    let raw: AftermathFile = loader.read_toml(&file)?;
    check_provenance(&file, "provenance", &raw.provenance)?;
    let look = Lookup {
        file: &file,
        roster,
    };
    let d10 = |field: &str, name: &str| TableSpec {
        file: &file,
        field: field.into(),
        name: name.into(),
        faces: (1, 10),
        open_ended: false,
    };
    check_provenance(&file, "delay.provenance", &raw.delay.provenance)?;
    let delay = tables::build(
        &d10("delay.rolls", "delay"),
        &raw.delay.rolls,
        entries,
        |r, f, _| tables::delay(&look, r, f),
    )?;
    check_provenance(
        &file,
        "duel_results.provenance",
        &raw.duel_results.provenance,
    )?;
    let duel_results = tables::build(
        &d10("duel_results.rolls", "duel results"),
        &raw.duel_results.rolls,
        entries,
        |r, f, e| {
            tables::outcome(
                &look,
                r,
                f,
                &["none", "gift", "friend", "interned", "swordsman"],
                "duel results",
                e,
            )
        },
    )?;
    check_provenance(&file, "internment.provenance", &raw.internment.provenance)?;
    let internment = tables::build(
        &d10("internment.rolls", "internment"),
        &raw.internment.rolls,
        entries,
        |r, f, _| tables::internment(&look, r, f),
    )?;

    Ok((delay, duel_results, internment))
}
