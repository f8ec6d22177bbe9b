//! The character roster of the Duelling Game, loaded from
//! `scenarios/jc/data/characters.toml`: class, race, code number [3.23],
//! movement kind [5.2, 5.3] and strength, alertness and agility per level
//! [3.22, 7.6]. No rating lives in code.

use barsoom_engine::scenario::Load;

use std::path::Path;

use serde::Deserialize;

use crate::jc::swordsman::Rank;
use barsoom_engine::scenario::{Loader, ScenarioError, check_provenance};

/// Highest agility rating a counter may carry.
pub(crate) const MAX_AGILITY: u8 = 20;
/// Highest strength rating a counter may carry.
pub const MAX_STRENGTH: u8 = 9;
/// Most levels a character may have.
pub(crate) const MAX_LEVELS: usize = 6;

/// The class of a character: it sets the attack arc [7.43], the behind
/// positions [7.44] and the natural-10 kill threshold [7.5].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// A hero (code 001-010): arc 1-7, behind only from 8, kills on 10/6,
    /// falls unconscious instead of dying [7.63].
    Hero,
    /// A villain (301-400).
    Villain,
    /// A minor character, noble, captain, master swordsman or assassin.
    Minor,
    /// A personage: cannot be meleed [7.16].
    Personage,
    /// A warrior of Mars (701-800): arc 3-5, kills only on 10/10.
    Warrior,
    /// A beast of Mars (801-900).
    Beast,
}

impl Class {
    /// Parses a class name as written in the roster.
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "hero" => Class::Hero,
            "villain" => Class::Villain,
            "minor" => Class::Minor,
            "personage" => Class::Personage,
            "warrior" => Class::Warrior,
            "beast" => Class::Beast,
            _ => return None,
        })
    }

    /// The class's name as written in the roster.
    pub fn name(self) -> &'static str {
        match self {
            Class::Hero => "hero",
            Class::Villain => "villain",
            Class::Minor => "minor",
            Class::Personage => "personage",
            Class::Warrior => "warrior",
            Class::Beast => "beast",
        }
    }
}

/// How far a character moves in one phase [5.1-5.3].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MovementKind {
    /// One movement a phase [5.14].
    Normal,
    /// Hero movement: two movements when not starting next to an enemy
    /// [5.2].
    Hero,
    /// John Carter: three movements, four once per duel, jumping [5.31].
    JohnCarter,
    /// Carthoris and Vad Varo: three until engaged in melee, then two, and
    /// three once more after; jumping [5.32].
    Leaper,
}

impl MovementKind {
    fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "normal" => MovementKind::Normal,
            "hero" => MovementKind::Hero,
            "john-carter" => MovementKind::JohnCarter,
            "leaper" => MovementKind::Leaper,
            _ => return None,
        })
    }

    /// Whether the character may jump over counters [5.34].
    pub fn jumps(self) -> bool {
        matches!(self, MovementKind::JohnCarter | MovementKind::Leaper)
    }
}

/// One level's counter values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ratings {
    /// Added to the melee die [7.31].
    pub strength: u8,
    /// Alertness: 0 for A, 1 for B, 2 for C [5.0 PROCEDURE].
    pub alertness: u8,
    /// What an attacker's modified roll must reach [7.61].
    pub agility: u8,
}

impl Ratings {
    /// Parses counter notation such as `3B7` (strength, alertness letter,
    /// agility).
    pub fn parse(text: &str) -> Option<Self> {
        let letter = text.find(|c: char| c.is_ascii_alphabetic())?;
        let strength: u8 = text[..letter].parse().ok()?;
        let alertness = alertness_of(text[letter..].chars().next()?)?;
        let agility: u8 = text[letter + 1..].parse().ok()?;
        if strength > MAX_STRENGTH || !(1..=MAX_AGILITY).contains(&agility) {
            return None;
        }
        Some(Ratings {
            strength,
            alertness,
            agility,
        })
    }
}

/// `A`, `B`, `C` as 0, 1, 2.
pub(crate) fn alertness_of(letter: char) -> Option<u8> {
    match letter {
        'A' => Some(0),
        'B' => Some(1),
        'C' => Some(2),
        _ => None,
    }
}

/// The letter of an alertness rating.
pub(crate) fn alertness_letter(alertness: u8) -> char {
    ['A', 'B', 'C']
        .get(usize::from(alertness))
        .copied()
        .unwrap_or('?')
}

/// A special rule a character carries [19].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Special {
    /// Woola [19.1].
    Woola,
    /// Kar Komak's phantom warriors [19.41].
    PhantomWarriors,
    /// Ghek's immobilisation [19.42].
    Immobilise,
}

/// One character of the roster.
#[derive(Debug, Clone, PartialEq)]
pub struct Character {
    /// Identifier used in scenarios, e.g. `john-carter`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Code number [3.23].
    pub code: u16,
    /// Class.
    pub class: Class,
    /// Race, as written in the roster.
    pub race: String,
    /// Movement kind.
    pub movement: MovementKind,
    /// Ratings by level: `levels[0]` is level 1. For a character who falls
    /// unconscious at level 1 (heroes, Woola) `levels[0]` is the top of the
    /// first fighting level repeated, never used in melee.
    pub levels: Vec<Ratings>,
    /// The level he starts at (`levels.len()`).
    pub top_level: u8,
    /// Whether level 1 is unconsciousness rather than a fighting level
    /// [7.63, 19.15].
    pub unconscious_at_level_1: bool,
    /// Alertness of a personage without combat values.
    pub alertness: u8,
    /// Tavia's and Llana's parenthesised values [19.23].
    pub reserve: Option<Ratings>,
    /// Special rule, if any.
    pub special: Option<Special>,
    /// A woman (the dungeon rule of [7.25]; female personages by code
    /// series [3.23]).
    pub female: bool,
    /// Master swordsman rank [7.8]: John Carter the Warlord, the other
    /// heroes grand masters, and the master swordsmen heroes meet.
    pub swordsman: Option<Rank>,
}

impl Character {
    /// Whether the character has combat values (personages mostly do not).
    pub fn fights(&self) -> bool {
        self.top_level > 0
    }

    /// Ratings at `level` (1..=top). Level 0 and out-of-range levels read as
    /// the lowest level's values.
    #[inline]
    pub fn at(&self, level: u8) -> Ratings {
        let i = usize::from(level.max(1) - 1).min(self.levels.len().saturating_sub(1));
        self.levels[i]
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRoster {
    provenance: String,
    characters: Vec<RawCharacter>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCharacter {
    id: String,
    name: String,
    code: i64,
    class: String,
    race: String,
    movement: Option<String>,
    #[serde(default)]
    levels: Vec<String>,
    alertness: Option<String>,
    reserve: Option<Vec<String>>,
    special: Option<String>,
    #[serde(default)]
    unconscious_at_level_1: bool,
    #[serde(default)]
    female: bool,
    swordsman: Option<String>,
    provenance: String,
}

/// The roster.
#[derive(Debug, Clone, PartialEq)]
pub struct Roster {
    /// Every character, in file order.
    pub characters: Vec<Character>,
}

impl Roster {
    /// Parses and checks a roster from TOML text (`file` names it in errors).
    pub fn parse(file: &Path, text: &str) -> Result<Self, ScenarioError> {
        Self::from_raw(file, Loader::default().parse_toml(file, text)?)
    }

    fn from_raw(file: &Path, raw: RawRoster) -> Result<Self, ScenarioError> {
        let err = |field: String, message: String| ScenarioError::new(file, field, message);
        check_provenance(file, "provenance", &raw.provenance)?;
        let mut characters: Vec<Character> = Vec::with_capacity(raw.characters.len());
        for (i, c) in raw.characters.into_iter().enumerate() {
            let field = |f: &str| format!("characters[{i}].{f}");
            check_provenance(file, &field("provenance"), &c.provenance)?;
            if c.id.is_empty() || characters.iter().any(|o| o.id == c.id) {
                return Err(err(
                    field("id"),
                    format!("expected a new, non-empty identifier, found {:?}", c.id),
                ));
            }
            if !(1..=999).contains(&c.code) {
                return Err(err(
                    field("code"),
                    format!("expected a code number 1 to 999 (3.23), found {}", c.code),
                ));
            }
            let class = Class::parse(&c.class).ok_or_else(|| {
                err(
                    field("class"),
                    format!(
                        "expected hero, villain, minor, personage, warrior or beast, found {:?}",
                        c.class
                    ),
                )
            })?;
            let default_movement = if class == Class::Hero {
                "hero"
            } else {
                "normal"
            };
            let movement_text = c.movement.as_deref().unwrap_or(default_movement);
            let movement = MovementKind::parse(movement_text).ok_or_else(|| {
                err(
                    field("movement"),
                    format!(
                        "expected normal, hero, john-carter or leaper, found {movement_text:?}"
                    ),
                )
            })?;
            let parse_levels = |list: &[String],
                                name: &str|
             -> Result<Vec<Ratings>, ScenarioError> {
                list.iter()
                    .enumerate()
                    .map(|(l, text)| {
                        Ratings::parse(text).ok_or_else(|| {
                            err(
                                format!("characters[{i}].{name}[{l}]"),
                                format!(
                                    "expected counter values strength (0-{MAX_STRENGTH}), alertness (A, B or C), agility (1-{MAX_AGILITY}) such as \"3B7\", found {text:?}"
                                ),
                            )
                        })
                    })
                    .collect()
            };
            let mut top_down = parse_levels(&c.levels, "levels")?;
            let unconscious_at_level_1 = class == Class::Hero || c.unconscious_at_level_1;
            if class == Class::Personage {
                if !top_down.is_empty() {
                    return Err(err(
                        field("levels"),
                        "expected no levels for a personage (combat values go in `reserve`, 19.23)"
                            .into(),
                    ));
                }
            } else if top_down.is_empty() || top_down.len() >= MAX_LEVELS {
                return Err(err(
                    field("levels"),
                    format!(
                        "expected 1 to {} levels for a {}, found {}",
                        MAX_LEVELS - 1,
                        class.name(),
                        top_down.len()
                    ),
                ));
            }
            let alertness = match (&c.alertness, top_down.first()) {
                (Some(a), _) => {
                    let mut chars = a.chars();
                    match (chars.next().and_then(alertness_of), chars.next()) {
                        (Some(v), None) => v,
                        _ => {
                            return Err(err(
                                field("alertness"),
                                format!("expected A, B or C, found {a:?}"),
                            ));
                        }
                    }
                }
                (None, Some(r)) => r.alertness,
                (None, None) => {
                    return Err(err(
                        field("alertness"),
                        "expected an alertness (A, B or C) for a personage".into(),
                    ));
                }
            };
            let reserve = match &c.reserve {
                None => None,
                Some(list) => {
                    let parsed = parse_levels(list, "reserve")?;
                    if parsed.len() != 1 {
                        return Err(err(
                            field("reserve"),
                            format!("expected one set of values, found {}", parsed.len()),
                        ));
                    }
                    Some(parsed[0])
                }
            };
            let special = match c.special.as_deref() {
                None => None,
                Some("woola") => Some(Special::Woola),
                Some("phantom-warriors") => Some(Special::PhantomWarriors),
                Some("immobilise") => Some(Special::Immobilise),
                Some(other) => {
                    return Err(err(
                        field("special"),
                        format!("expected woola, phantom-warriors or immobilise, found {other:?}"),
                    ));
                }
            };
            let swordsman = match c.swordsman.as_deref() {
                None => None,
                Some(text) => Some(Rank::parse(text).ok_or_else(|| {
                    err(
                        field("swordsman"),
                        format!(
                            "expected a master swordsman rank (warlord, grand-master or master-at-arms, 7.8), found {text:?}"
                        ),
                    )
                })?),
            };
            if swordsman.is_some() && top_down.is_empty() {
                return Err(err(
                    field("swordsman"),
                    "expected a master swordsman rank only for a character with combat values"
                        .into(),
                ));
            }
            if unconscious_at_level_1 && !top_down.is_empty() {
                // Level 1 is the unconscious counter: hold its place with the
                // lowest fighting values (never used in melee).
                let lowest = *top_down.last().unwrap_or(&top_down[0]);
                top_down.push(lowest);
            }
            top_down.reverse();
            characters.push(Character {
                id: c.id,
                name: c.name,
                code: c.code as u16,
                class,
                race: c.race,
                movement,
                top_level: top_down.len() as u8,
                levels: top_down,
                unconscious_at_level_1,
                alertness,
                reserve,
                special,
                female: c.female,
                swordsman,
            });
        }
        Ok(Roster { characters })
    }

    /// The index of the character with identifier `id`.
    pub fn find(&self, id: &str) -> Option<usize> {
        self.characters.iter().position(|c| c.id == id)
    }

    /// The character with identifier `id`.
    pub fn get(&self, id: &str) -> Option<&Character> {
        self.find(id).map(|i| &self.characters[i])
    }

    /// The nearest identifiers to `id`, for error messages.
    pub(crate) fn suggest(&self, id: &str) -> String {
        barsoom_engine::scenario::nearest_ids(id, self.characters.iter().map(|c| c.id.as_str()))
    }
}

impl Load for Roster {
    /// Loads and checks `characters.toml`.
    fn load_with(file: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let raw: RawRoster = loader.read_toml(file)?;
        Self::from_raw(file, raw)
    }
}
