//! The City board as data [11:35, 11:38, 11:41-43, 11:47, 13:14,
//! 20:10-11]: a board file with `layout = "streets"` whose `spaces` are
//! the City's streets, a loop in file order with its entrance (the gate)
//! first, entered from the main-board space whose `board` names it
//! [11:35] and left by the same space [11:38]. Off the streets lie its
//! stores, each reached from the street space with its arrow [11:41,
//! 11:47], the Donjon [16:9, 20:10], and the statutes' list of characters
//! the City bars [13:14]. The City's own deck holds its Law cards, each a
//! Watch card (a Strength the Watch fights with) or another Law card
//! (resolved as written) [20:10].
//!
//! The game side is `game/city.rs`.

use std::path::Path;

use serde::Deserialize;

use super::data::{CharacterCard, Purchase};
use super::effects::EffectFile;
use barsoom_engine::scenario::ScenarioError;

/// The most stores (and the Donjon) on one City board.
const MAX_STORES: usize = 16;
/// The Strength of the unseen Watch a warrant holder fights after drawing a
/// Law card that is not a Watch card [20:10].
pub const UNSEEN_WATCH: i32 = 7;

/// What a Law card is [20:10].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Law {
    /// A Watch card: a character with a warrant fights the Watch of its
    /// Strength.
    Watch,
    /// Another Law card: resolved as written, then a character with a
    /// warrant fights an unseen Watch of Strength 7.
    Officer,
}

/// A card's `law` as written, checked.
pub(crate) fn parse_law(path: &Path, field: &str, name: &str) -> Result<Law, ScenarioError> {
    match name {
        "watch" => Ok(Law::Watch),
        "officer" => Ok(Law::Officer),
        other => Err(ScenarioError::new(
            path,
            format!("{field}.law"),
            format!(
                "unknown Law card effect {other:?}: expected watch (the Watch fights with the card's strength) or officer (resolved as written, then an unseen Watch of Strength {UNSEEN_WATCH}) [20:10]"
            ),
        )),
    }
}

/// A store as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StoreFile {
    pub name: String,
    /// The street space with the store's arrow [11:47].
    pub street: String,
    #[serde(default)]
    pub effects: Vec<EffectFile>,
    /// The purchase items its shop sells (empty: every item).
    #[serde(default)]
    pub sells: Vec<String>,
}

/// The Donjon as written: where it is, and the turns a prisoner loses.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DonjonFile {
    pub name: String,
    /// The street space a prisoner comes out onto.
    pub street: String,
    pub turns: u8,
}

/// A store, compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Store {
    /// Its space.
    pub space: u16,
    /// The street space with its arrow.
    pub street: u16,
    /// The purchase items its shop sells, as a mask of purchase indices
    /// (all bits: every item).
    pub items: u64,
}

/// The City's rules, compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CityRules {
    /// The main-board space it is entered from and left by [11:35, 11:38].
    pub entry: u16,
    /// The streets, a loop, the gate first.
    pub streets: Vec<u16>,
    /// The stores, and last the Donjon (never entered by a move).
    pub stores: Vec<Store>,
    /// The Donjon's space [20:10].
    pub donjon: u16,
    /// Turns a prisoner loses in the Donjon (ours).
    pub donjon_turns: u8,
    /// Character cards the statutes bar (ours: by race, 13:14 no. 8).
    pub barred: Vec<u8>,
    /// Each store's item names, checked once the purchases are read.
    pub(crate) sells: Vec<Vec<String>>,
}

impl CityRules {
    /// The store on `space`, if any (the Donjon counts).
    pub fn store_at(&self, space: usize) -> Option<&Store> {
        self.stores.iter().find(|s| usize::from(s.space) == space)
    }

    /// Whether `space` is one of the streets.
    pub fn is_street(&self, space: usize) -> bool {
        self.streets.iter().any(|&s| usize::from(s) == space)
    }
}

/// The spaces of a City file after its streets: its stores and the
/// Donjon, as (name, effects).
pub(crate) fn extra_spaces<'f>(
    stores: &'f [StoreFile],
    donjon: Option<&'f DonjonFile>,
) -> Vec<(&'f str, &'f [EffectFile])> {
    let mut out: Vec<(&str, &[EffectFile])> = stores
        .iter()
        .map(|s| (s.name.as_str(), s.effects.as_slice()))
        .collect();
    if let Some(d) = donjon {
        out.push((d.name.as_str(), &[]));
    }
    out
}

/// The parts of a board file the City reads.
pub(crate) struct CityInput<'f> {
    pub entry: Option<u16>,
    pub stores: &'f [StoreFile],
    pub donjon: Option<&'f DonjonFile>,
    pub barred: &'f [String],
    pub characters: &'f [CharacterCard],
}

/// Compiles the City of a board file at `path` whose streets are spaces
/// `first..first + streets` and whose stores and Donjon follow them.
pub(crate) fn compile(
    path: &Path,
    input: CityInput<'_>,
    names: &[String],
    first: usize,
    streets: usize,
) -> Result<CityRules, ScenarioError> {
    let err = |field: String, message: String| ScenarioError::new(path, field, message);
    let entry = input.entry.ok_or_else(|| {
        err(
            "layout".into(),
            "no way back to the main board: a City is entered from and left by a main-board space [11:35, 11:38], expected a space of board.toml with board naming this file (not a Doorway card)".into(),
        )
    })?;
    let Some(donjon) = input.donjon else {
        return Err(err(
            "donjon".into(),
            "expected the Donjon, where the Watch takes a character it arrests [20:10]".into(),
        ));
    };
    if input.stores.len() + 1 > MAX_STORES {
        return Err(err(
            "stores".into(),
            format!("expected at most {} stores", MAX_STORES - 1),
        ));
    }
    let street_of = |field: String, name: &str| {
        names[first..first + streets]
            .iter()
            .position(|n| n == name)
            .map(|i| (first + i) as u16)
            .ok_or_else(|| err(field, format!("{name:?} is not one of the City's streets")))
    };
    let mut stores = Vec::new();
    let mut sells = Vec::new();
    for (i, s) in input.stores.iter().enumerate() {
        stores.push(Store {
            space: (first + streets + i) as u16,
            street: street_of(format!("stores[{i}].street"), &s.street)?,
            items: u64::MAX,
        });
        sells.push(s.sells.clone());
    }
    let donjon_space = (first + streets + input.stores.len()) as u16;
    stores.push(Store {
        space: donjon_space,
        street: street_of("donjon.street".into(), &donjon.street)?,
        items: u64::MAX,
    });
    sells.push(Vec::new());
    if !(1..=9).contains(&donjon.turns) {
        return Err(err(
            "donjon.turns".into(),
            "expected the turns a prisoner loses, 1 to 9".into(),
        ));
    }
    let mut barred = Vec::new();
    for (i, name) in input.barred.iter().enumerate() {
        let c = input
            .characters
            .iter()
            .position(|c| c.name == *name)
            .ok_or_else(|| {
                err(
                    format!("barred[{i}]"),
                    format!("unknown character {name:?}: expected one of characters.toml"),
                )
            })?;
        barred.push(c as u8);
    }
    Ok(CityRules {
        entry,
        streets: (first..first + streets).map(|s| s as u16).collect(),
        stores,
        donjon: donjon_space,
        donjon_turns: donjon.turns,
        barred,
        sells,
    })
}

/// Checks each store's `sells` against the purchase items, now read, and
/// sets its item mask; `path` is the City's file.
pub(crate) fn resolve_items(
    path: &Path,
    city: &mut CityRules,
    purchases: &[Purchase],
) -> Result<(), ScenarioError> {
    for (i, (store, names)) in city.stores.iter_mut().zip(&city.sells).enumerate() {
        if names.is_empty() {
            continue;
        }
        let mut mask = 0u64;
        for (j, name) in names.iter().enumerate() {
            let p = purchases
                .iter()
                .position(|p| p.name == *name)
                .ok_or_else(|| {
                    let all: Vec<&str> = purchases.iter().map(|p| p.name.as_str()).collect();
                    ScenarioError::new(
                        path,
                        format!("stores[{i}].sells[{j}]"),
                        format!(
                            "unknown purchase item {name:?}; expected one of purchases.toml's: {}",
                            all.join(", ")
                        ),
                    )
                })?;
            mask |= 1 << p;
        }
        store.items = mask;
    }
    Ok(())
}
