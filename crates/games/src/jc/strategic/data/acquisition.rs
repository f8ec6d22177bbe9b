//! `acquisition-deck.toml`: the acquisition deck [14].

use std::path::Path;

use serde::Deserialize;

use crate::jc::duel::roster::Roster;
use crate::jc::strategic::tables::{Entries, Foes, Lookup, RawFoe};
use barsoom_engine::scenario::check_provenance;
use barsoom_engine::scenario::{Loader, ScenarioError, narrow};

/// One line of an acquisition card [14.11].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AcquisitionLine {
    /// The hero takes the item without a fight [14.12].
    Succeed,
    /// A duel with these men on this display [14.13].
    Fight {
        /// The foes.
        foes: Foes,
        /// The display.
        display: u8,
    },
}

/// An acquisition card [14.1].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AcquisitionCard {
    /// Its number.
    pub number: u16,
    /// The weapons-and-thoats line, then the flier line.
    pub lines: [AcquisitionLine; 2],
    /// Entry numbers of the two lines (firing counts).
    pub entries: [u16; 2],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AcquisitionFile {
    provenance: String,
    first_card: i64,
    cards: Vec<AcquisitionCardFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AcquisitionCardFile {
    number: i64,
    weapons_and_thoats: AcquisitionLineFile,
    flier: AcquisitionLineFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AcquisitionLineFile {
    result: String,
    display: Option<String>,
    fight: Option<Vec<RawFoe>>,
}

/// The acquisition deck [14.1].
pub(super) fn load_acquisition(
    dir: &Path,
    roster: &Roster,
    entries: &mut Entries,
    loader: &mut Loader,
) -> Result<Vec<AcquisitionCard>, ScenarioError> {
    // The acquisition deck.
    let file = dir.join("acquisition-deck.toml");
    let raw: AcquisitionFile = loader.read_toml(&file)?;
    check_provenance(&file, "provenance", &raw.provenance)?;
    let look = Lookup {
        file: &file,
        roster,
    };
    if raw.cards.is_empty() || raw.cards.len() > crate::jc::deck::MAX_CARDS {
        return Err(ScenarioError::new(
            &file,
            "cards",
            format!(
                "expected 1 to {} cards, found {}",
                crate::jc::deck::MAX_CARDS,
                raw.cards.len()
            ),
        ));
    }
    let mut acquisition = Vec::new();
    for (i, c) in raw.cards.iter().enumerate() {
        let expected = raw
            .first_card
            .checked_add(i64::try_from(i).unwrap_or(i64::MAX));
        let field = format!("cards[{i}].number");
        let Some(number) = narrow::<u16>(c.number, 0..=999) else {
            let message = format!("expected a card number 0 to 999, found {}", c.number);
            return Err(ScenarioError::new(&file, field, message));
        };
        if expected != Some(c.number) {
            return Err(ScenarioError::new(
                &file,
                field,
                format!(
                    "expected the cards numbered in order from {}, found {}",
                    raw.first_card, c.number
                ),
            ));
        }
        let mut line = |l: &AcquisitionLineFile, name: &str| {
            let field = format!("cards[{i}].{name}");
            let parsed = match l.result.as_str() {
                "succeed" if l.fight.is_none() && l.display.is_none() => AcquisitionLine::Succeed,
                "fight" => AcquisitionLine::Fight {
                    foes: look
                        .foes(l.fight.as_deref().unwrap_or(&[]), &format!("{field}.fight"))?,
                    display: look.display(
                        l.display.as_deref().unwrap_or(""),
                        &format!("{field}.display"),
                    )?,
                },
                other => {
                    return Err(ScenarioError::new(
                        &file,
                        format!("{field}.result"),
                        format!(
                            "expected succeed (alone) or fight (with fight and display), found {other:?}"
                        ),
                    ));
                }
            };
            Ok((
                parsed,
                entries.add(format!("acquisition {} {name}", c.number)),
            ))
        };
        let (wt, e0) = line(&c.weapons_and_thoats, "weapons_and_thoats")?;
        let (fl, e1) = line(&c.flier, "flier")?;
        acquisition.push(AcquisitionCard {
            number,
            lines: [wt, fl],
            entries: [e0, e1],
        });
    }

    Ok(acquisition)
}
