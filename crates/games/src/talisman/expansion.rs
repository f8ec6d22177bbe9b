//! Expansion boards as data [11:30]: each is a file
//! `boards/<id>.toml` in the data folder, loaded when a Doorway card of the
//! main adventure deck names it [11:31]. A board lists its spaces in the
//! order its path runs (the Dungeon's spiral [11:39]: the first space is
//! the entrance, the last the final space), whether pack animals may come
//! in [11:34], the space chart that sends a character from the final space
//! back to the main board [11:46] and its own adventure deck. Its spaces
//! join the main board's as one more region, and its cards the adventure
//! cards as deck `k + 1`, so the game indexes them as it does the others.
//! A board with no way back to the main board, a doorway naming a board
//! with no file, and a card or space naming an unknown effect are one-line
//! load errors.

use std::path::Path;

use serde::Deserialize;

use super::board::{Board, MAX_SPACES, Region, Space, compile_space_effects};
use super::city::{self, CityInput, CityRules, DonjonFile, StoreFile};
use super::data::{
    Card, CardFile, CardKind, CharacterCard, Effect, EffectCompiler, MAX_CARDS, compile_card,
};
use super::effects::EffectFile;
use super::routes::{self, GuardianFile, LinesFile, Routes, RoutesInput};
use barsoom_engine::scenario::{Loader, ScenarioError, check_provenance};

/// The most expansion boards one data folder may have (per-game state is
/// fixed-size).
pub const MAX_BOARDS: usize = 4;
/// The most cards in one expansion board's adventure deck.
pub(crate) const BOARD_CARDS: usize = 64;
/// The most entries of a final space's chart (a die plus the tokens).
const MAX_EXIT: usize = 12;

/// One expansion board, compiled.
#[derive(Debug, Clone, PartialEq)]
pub struct Expansion {
    /// Its id: the file stem, as Doorway cards and scenarios name it.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its region in the board.
    pub region: u8,
    /// The entrance, where a character coming through a doorway stops [11:33].
    pub entrance: u16,
    /// The final space (the Dungeon's Treasure Chamber) [11:46].
    pub final_space: u16,
    /// Whether pack animals may come in (the Dungeon bars them) [11:34].
    pub pack_animals: bool,
    /// Whether each venture to the final space earns a token that adds 1
    /// to later rolls on its chart (the Dungeon tokens [20:14]).
    pub venture_tokens: bool,
    /// The space chart [11:46]: entry `n - 1` is the main-board space a
    /// total of `n` sends the character to; higher totals read the last.
    pub exit: Vec<u16>,
    /// Its lines, movement and Vault [11:39, 11:44, 11:46].
    pub routes: Routes,
    /// The City's streets, stores, Donjon and statutes (`layout =
    /// "streets"`) [11:41-47, 13:14].
    pub city: Option<CityRules>,
}

/// An expansion board file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpansionFile {
    provenance: String,
    name: String,
    /// `spiral` [11:39], `lines` [11:44] (see [`routes`]) or `streets`
    /// (the City, see [`city`]).
    layout: String,
    /// `die` (the default) or `formula` [11:44].
    movement: Option<String>,
    lines: Option<LinesFile>,
    #[serde(default)]
    vault: Vec<GuardianFile>,
    #[serde(default)]
    pack_animals: bool,
    #[serde(default)]
    venture_tokens: bool,
    spaces: Vec<ExpansionSpaceFile>,
    #[serde(default)]
    exit: Vec<String>,
    cards: Vec<CardFile>,
    /// The City's stores [11:41-47].
    #[serde(default)]
    stores: Vec<StoreFile>,
    /// The City's Donjon [20:10].
    donjon: Option<DonjonFile>,
    /// Characters the City's statutes bar [13:14].
    #[serde(default)]
    barred: Vec<String>,
}

/// A space as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpansionSpaceFile {
    name: String,
    #[serde(default)]
    effects: Vec<EffectFile>,
}

/// The board a Doorway card names, checked: a Place card [11:31] whose
/// board has a file `boards/<name>.toml` beside the other data. Returns
/// its index in `ids`, adding it if new.
pub(crate) fn doorway_board(
    dir: &Path,
    path: &Path,
    field: &str,
    name: &str,
    kind: CardKind,
    ids: &mut Vec<String>,
) -> Result<u8, ScenarioError> {
    if kind != CardKind::Place {
        return Err(ScenarioError::new(
            path,
            field,
            "a Doorway card is treated as a Place card [11:31]: expected kind = \"place\"",
        ));
    }
    board_id(dir, path, field, name, ids)
}

/// The board `name` (a Doorway card's, or a main-board space's that leads
/// to it [11:35]), checked: a file `boards/<name>.toml` beside the other
/// data. Returns its index in `ids`, adding it if new.
pub(crate) fn board_id(
    dir: &Path,
    path: &Path,
    field: &str,
    name: &str,
    ids: &mut Vec<String>,
) -> Result<u8, ScenarioError> {
    let err = |message: String| ScenarioError::new(path, field, message);
    if let Some(i) = ids.iter().position(|id| id == name) {
        return Ok(i as u8);
    }
    let simple = !name.is_empty()
        && name.len() <= 32
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
    if !simple || !dir.join("boards").join(format!("{name}.toml")).is_file() {
        return Err(err(format!(
            "unknown board {name:?}: expected the name of a file boards/NAME.toml in {}",
            dir.display()
        )));
    }
    if ids.len() == MAX_BOARDS {
        return Err(err(format!(
            "expected at most {MAX_BOARDS} expansion boards"
        )));
    }
    ids.push(name.to_string());
    Ok((ids.len() - 1) as u8)
}

/// What [`load_boards`] reads besides the files: the boards' ids, the
/// main-board space leading to each (a City's [11:35]; `None` for a board
/// reached by Doorway cards) and the characters (a City's statutes bar
/// some).
pub(crate) struct BoardIds<'a> {
    pub ids: &'a [String],
    pub entries: &'a [Option<u16>],
    pub characters: &'a [CharacterCard],
}

/// Loads the boards `ids` from `dir/boards/`, appending their spaces to
/// `board` (one region each) and their decks to `cards`.
pub(crate) fn load_boards(
    dir: &Path,
    loader: &mut Loader,
    which: BoardIds<'_>,
    board: &mut Board,
    tables: &mut Vec<Effect>,
    cards: &mut Vec<Card>,
    card_effects: &mut Vec<Effect>,
) -> Result<Vec<Expansion>, ScenarioError> {
    let mut out = Vec::new();
    for (k, id) in which.ids.iter().enumerate() {
        let path = dir.join("boards").join(format!("{id}.toml"));
        let file: ExpansionFile = loader.read_toml(&path)?;
        check_provenance(&path, "provenance", &file.provenance)?;
        let err = |field: &str, message: String| ScenarioError::new(&path, field, message);
        let first = board.spaces.len();
        let streets = file.layout == "streets";
        let extra = if streets {
            city::extra_spaces(&file.stores, file.donjon.as_ref())
        } else {
            Vec::new()
        };
        if file.spaces.len() < 2 || first + file.spaces.len() + extra.len() > MAX_SPACES {
            return Err(err(
                "spaces",
                format!(
                    "expected 2 or more spaces, the entrance first and the final space last, with at most {MAX_SPACES} on all the boards"
                ),
            ));
        }
        let mut names: Vec<String> = board.spaces.iter().map(|s| s.name.clone()).collect();
        let region = board.regions.len() as u8;
        let mut region_spaces = Vec::new();
        let all: Vec<(String, &str, &[EffectFile])> = file
            .spaces
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (
                    format!("spaces[{i}]"),
                    s.name.as_str(),
                    s.effects.as_slice(),
                )
            })
            .chain(extra.iter().enumerate().map(|(i, &(n, e))| {
                let field = if i < file.stores.len() {
                    format!("stores[{i}]")
                } else {
                    "donjon".to_string()
                };
                (field, n, e)
            }))
            .collect();
        for (field, name, _) in &all {
            if names.iter().any(|n| n == name) {
                return Err(err(
                    &format!("{field}.name"),
                    format!(
                        "{name:?} is already the name of a space of the main board or this one"
                    ),
                ));
            }
            names.push(name.to_string());
        }
        let own: Vec<&str> = file.spaces.iter().map(|s| s.name.as_str()).collect();
        let (routes, city) = if streets {
            let input = CityInput {
                entry: which.entries[k],
                stores: &file.stores,
                donjon: file.donjon.as_ref(),
                barred: &file.barred,
                characters: which.characters,
            };
            let city = city::compile(&path, input, &names, first, file.spaces.len())?;
            let routes = Routes {
                formula: false,
                lines: vec![city.streets.clone()],
                vault: Vec::new(),
            };
            (routes, Some(city))
        } else {
            if which.entries[k].is_some() {
                return Err(err(
                    "layout",
                    "a board entered from a main-board space [11:35] is a City: expected layout = \"streets\"".into(),
                ));
            }
            let input = RoutesInput {
                layout: &file.layout,
                movement: file.movement.as_deref().unwrap_or("die"),
                lines: file.lines.as_ref(),
                vault: &file.vault,
            };
            (routes::compile(&path, input, &own, first)?, None)
        };
        let mut compiler = EffectCompiler {
            space_names: &names,
            tables: std::mem::take(tables),
        };
        for (i, (field, name, effects)) in all.iter().enumerate() {
            let field = field.as_str();
            let start = board.effects.len() as u16;
            let (draw, gate) =
                compile_space_effects(&path, field, effects, &mut compiler, &mut board.effects)?;
            if gate.is_some() {
                return Err(err(
                    &format!("{field}.effects"),
                    "the Sentinel, Portal, Valley of Fire and Crown belong to the main board"
                        .into(),
                ));
            }
            let index = (first + i) as u16;
            region_spaces.push(index);
            board.spaces.push(Space {
                name: name.to_string(),
                region,
                position: i as u8,
                effects_start: start,
                effects_len: effects.len() as u16,
                draw,
                link: None,
                gate: None,
                woods: false,
                river_start: 0,
                river_len: 0,
            });
        }
        board.regions.push(Region {
            name: file.name.clone(),
            ring: false,
            spaces: region_spaces,
            expansion: Some(k as u8),
        });
        // The way back: the final space's chart must name spaces of the
        // main board's rings [11:46]; a City is left by its entry space
        // [11:38], checked where board.toml names it.
        if streets && !file.exit.is_empty() {
            return Err(err(
                "exit",
                "a City is left by normal count through its gate to the space it is entered from [11:38]: expected no exit chart".into(),
            ));
        }
        if !streets && (file.exit.is_empty() || file.exit.len() > MAX_EXIT) {
            return Err(err(
                "exit",
                format!(
                    "no path back to the main board: expected the final space's chart [11:46], 1 to {MAX_EXIT} spaces of the main board"
                ),
            ));
        }
        let mut exit = Vec::new();
        for (j, name) in file.exit.iter().enumerate() {
            let to = board
                .space_index(name)
                .filter(|&s| {
                    let r = &board.regions[usize::from(board.spaces[s].region)];
                    r.expansion.is_none() && r.ring
                })
                .ok_or_else(|| {
                    err(
                        &format!("exit[{j}]"),
                        format!(
                            "no path back to the main board: {name:?} is not a space of its outer or middle region"
                        ),
                    )
                })?;
            exit.push(to as u16);
        }
        let before = cards.len();
        for (i, c) in file.cards.iter().enumerate() {
            let field = format!("cards[{i}]");
            let mut card = compile_card(&path, &field, c, &mut compiler, card_effects)?;
            if card.timed.is_some() {
                return Err(err(
                    &format!("{field}.timed"),
                    "Season, Month and Day events belong to the main adventure deck".into(),
                ));
            }
            if c.names_doorway() {
                return Err(err(
                    &format!("{field}.doorway"),
                    "Doorway cards are modelled in the main adventure deck only".into(),
                ));
            }
            if card.law.is_some() && !streets {
                return Err(err(
                    &format!("{field}.law"),
                    "Law cards belong to the City's deck [20:10]".into(),
                ));
            }
            card.deck = k as u8 + 1;
            for _ in 0..c.copies() {
                cards.push(card.clone());
            }
        }
        *tables = compiler.tables;
        let n = cards.len() - before;
        if !(1..=BOARD_CARDS).contains(&n) || cards.len() > MAX_CARDS {
            return Err(err(
                "cards",
                format!(
                    "expected 1 to {BOARD_CARDS} cards in the board's deck and at most {MAX_CARDS} adventure cards in all, found {n}"
                ),
            ));
        }
        out.push(Expansion {
            id: id.clone(),
            name: file.name.clone(),
            region,
            entrance: first as u16,
            final_space: (first + file.spaces.len() - 1) as u16,
            pack_animals: file.pack_animals,
            venture_tokens: file.venture_tokens,
            exit,
            routes,
            city,
        });
    }
    Ok(out)
}
