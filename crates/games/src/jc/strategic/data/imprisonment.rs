//! `imprisonment-tables.toml`: the imprisonment tables [17.19, 17.35,
//! 17.43].

use std::path::Path;

use serde::Deserialize;

use super::common::RowsFile;
use crate::jc::duel::roster::Roster;
use crate::jc::strategic::tables::{
    self, ArenaDuel, Companion, DieTable, Entries, JetanDuels, Lookup, TableSpec,
};
use barsoom_engine::scenario::check_provenance;
use barsoom_engine::scenario::{Loader, ScenarioError};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImprisonmentFile {
    provenance: String,
    prison_companion: RowsFile,
    arena: RowsFile,
    jetan: RowsFile,
}

/// The Prison Companion, Arena Duel and Jetan tables [17.19, 17.35, 17.43].
#[allow(clippy::type_complexity)]
pub(super) fn load_imprisonment(
    dir: &Path,
    roster: &Roster,
    entries: &mut Entries,
    loader: &mut Loader,
) -> Result<
    (
        DieTable<Companion>,
        DieTable<ArenaDuel>,
        DieTable<JetanDuels>,
    ),
    ScenarioError,
> {
    // Imprisonment tables.
    let file = dir.join("imprisonment-tables.toml");
    let raw: ImprisonmentFile = loader.read_toml(&file)?;
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
    for (name, t) in [
        ("prison_companion", &raw.prison_companion),
        ("arena", &raw.arena),
        ("jetan", &raw.jetan),
    ] {
        check_provenance(&file, &format!("{name}.provenance"), &t.provenance)?;
    }
    let companions = tables::build(
        &d10("prison_companion.rolls", "prison companion"),
        &raw.prison_companion.rolls,
        entries,
        |r, f, _| tables::companion(&look, r, f),
    )?;
    let arena = tables::build(
        &d10("arena.rolls", "arena"),
        &raw.arena.rolls,
        entries,
        |r, f, _| tables::arena(&look, r, f),
    )?;
    let jetan = tables::build(
        &d10("jetan.rolls", "jetan"),
        &raw.jetan.rolls,
        entries,
        |r, f, _| tables::jetan(&look, r, f),
    )?;

    Ok((companions, arena, jetan))
}
