//! The die tables of the Strategic Game and what their entries say, read
//! from TOML rows of the form `{ roll = 3, result = "...", ... }` or
//! `{ roll = [1, 2], ... }`. One [`DieTable`] type serves every table: its
//! rows must cover each face of the die once (a table read with a die plus
//! a modifier [11.26] must cover every total the modifiers allow), and every
//! row gets an entry number so that a run can count how often each fires.
//!
//! Entry payloads: [`Outcome`] (outdoor [11.6], city [11.7], duel results
//! [11.45] and hand of fate [16.28] tables), [`Delay`] [11.35],
//! [`Internment`] [11.46], [`Companion`] [17.19], [`ArenaDuel`] [17.35] and
//! the Jetan table's duels [17.43].

use std::path::Path;

use serde::Deserialize;

use crate::jc::duel::roster::{Class, Roster};
use crate::jc::swordsman::Rank;
use barsoom_engine::scenario::ScenarioError;

/// Most foe kinds in one fight entry.
pub(crate) const MAX_FOE_KINDS: usize = 4;
/// Most men or beasts of one kind in one fight entry.
pub(crate) const MAX_FOE_COUNT: i64 = 12;
/// Item bit: a flier [14.0].
pub(crate) const ITEM_FLIER: u8 = 1;
/// Item bit: thoats.
pub(crate) const ITEM_THOATS: u8 = 1 << 1;
/// Item bit: weapons.
pub(crate) const ITEM_WEAPONS: u8 = 1 << 2;
/// The display files a table may name, in index order (file stems).
pub(crate) const DISPLAYS: [&str; 5] = ["arena", "street", "flier", "house", "palace"];
/// Index of the arena (open) display: outdoor and arena duels [11.24, 17.32].
pub(crate) const ARENA: u8 = 0;
/// Index of the street display: city encounters [11.28].
pub(crate) const STREET: u8 = 1;
/// Index of the flier display: encounters while flying [11.24].
pub(crate) const FLIER_DISPLAY: u8 = 2;
/// Index of the house display [15.42].
pub(crate) const HOUSE: u8 = 3;
/// Index of the palace display [15.42].
pub(crate) const PALACE: u8 = 4;

/// A roll or a span of rolls: `3` or `[1, 2]`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(untagged)]
pub enum RollSpec {
    /// One face.
    One(i64),
    /// A span of faces, both ends included.
    Span([i64; 2]),
}

impl RollSpec {
    fn bounds(self) -> (i64, i64) {
        match self {
            RollSpec::One(v) => (v, v),
            RollSpec::Span([a, b]) => (a, b),
        }
    }
}

/// One row of any table as written in TOML; which fields a table reads
/// depends on the table, and a field it does not read is an error.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRow {
    /// The roll or span of rolls.
    pub roll: RollSpec,
    /// The kind of result.
    pub result: Option<String>,
    /// Foes of a fight.
    pub fight: Option<Vec<RawFoe>>,
    /// The display a fight is on (a file stem of [`DISPLAYS`]).
    pub display: Option<String>,
    /// Extra movement cards before a flier is lost [9.43].
    pub extra_cards: Option<i64>,
    /// A master swordsman's rank [7.8].
    pub rank: Option<String>,
    /// A note for readers.
    pub text: Option<String>,
    /// A ten-sided die's results [11.22].
    pub d10: Option<Vec<RawRow>>,
    /// Turns (delay, internment).
    pub turns: Option<i64>,
    /// Whether the hero is befriended.
    pub befriended: Option<bool>,
    /// Items lost.
    pub lose: Option<Vec<String>>,
    /// An item given.
    pub gift: Option<String>,
    /// Whether a prison companion is a resident [17.17].
    pub resident: Option<bool>,
    /// Jetan duels in order [17.43].
    pub duels: Option<Vec<String>>,
    /// Cities (Final Destination Chart [10.43]).
    pub cities: Option<i64>,
}

impl RawRow {
    /// A row with only its roll, for tables whose rows carry fields of
    /// their own: [`build`] checks the coverage of the die on these.
    pub(crate) fn roll_only(roll: RollSpec) -> RawRow {
        RawRow {
            roll,
            result: None,
            fight: None,
            display: None,
            extra_cards: None,
            rank: None,
            text: None,
            d10: None,
            turns: None,
            befriended: None,
            lose: None,
            gift: None,
            resident: None,
            duels: None,
            cities: None,
        }
    }

    /// The optional fields that are present.
    fn present(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let mut note = |set: bool, name: &'static str| {
            if set {
                out.push(name);
            }
        };
        note(self.result.is_some(), "result");
        note(self.fight.is_some(), "fight");
        note(self.display.is_some(), "display");
        note(self.extra_cards.is_some(), "extra_cards");
        note(self.rank.is_some(), "rank");
        note(self.d10.is_some(), "d10");
        note(self.turns.is_some(), "turns");
        note(self.befriended.is_some(), "befriended");
        note(self.lose.is_some(), "lose");
        note(self.gift.is_some(), "gift");
        note(self.resident.is_some(), "resident");
        note(self.duels.is_some(), "duels");
        note(self.cities.is_some(), "cities");
        out
    }
}

/// One kind of foe in a fight entry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFoe {
    /// A roster id, or `city-warrior` for the city's warriors of Mars.
    pub id: String,
    /// How many (default 1).
    pub count: Option<i64>,
}

/// The id that stands for the warriors of Mars of the city [11.8].
pub(crate) const CITY_WARRIOR_ID: &str = "city-warrior";

/// Who a foe is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Who {
    /// A roster character (index).
    Character(u8),
    /// A warrior of Mars of the city the fight is in (or of the destination
    /// city, outdoors).
    CityWarrior,
}

/// The foes of a fight: up to [`MAX_FOE_KINDS`] kinds with counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Foes {
    /// Kinds and counts.
    pub list: [(Who, u8); MAX_FOE_KINDS],
    /// How many kinds.
    pub len: u8,
}

impl Foes {
    /// The kinds in use.
    pub fn iter(&self) -> impl Iterator<Item = (Who, u8)> + '_ {
        self.list[..usize::from(self.len)].iter().copied()
    }

    /// The number of men and beasts.
    pub fn total(&self) -> u32 {
        self.iter().map(|(_, c)| u32::from(c)).sum()
    }
}

/// Names of the table entries, in order; an entry's number indexes a run's
/// firing counts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entries {
    /// One name per entry, e.g. `outdoor II walk 3`.
    pub names: Vec<String>,
}

impl Entries {
    /// Adds an entry and returns its number.
    pub fn add(&mut self, name: String) -> u16 {
        self.names.push(name);
        (self.names.len() - 1) as u16
    }
}

/// A table read with a die: each face leads to one row.
#[derive(Debug, Clone, PartialEq)]
pub struct DieTable<T> {
    lo: i32,
    /// Per face from `lo`, the index of its row.
    face: Vec<u16>,
    /// The rows: entry number and payload.
    pub rows: Vec<(u16, T)>,
}

impl<T> DieTable<T> {
    /// The row for `roll` (clamped into the table's faces) and its entry
    /// number.
    #[inline]
    pub fn get(&self, roll: i32) -> (&T, u16) {
        let i = (roll - self.lo).clamp(0, self.face.len() as i32 - 1) as usize;
        let (entry, payload) = &self.rows[usize::from(self.face[i])];
        (payload, *entry)
    }

    /// The lowest and highest faces it reads.
    pub fn faces(&self) -> (i32, i32) {
        (self.lo, self.lo + self.face.len() as i32 - 1)
    }
}

/// What a table may read: where it is (for errors and entry names), the
/// faces it must cover and whether rows may lie beyond them.
#[derive(Debug, Clone)]
pub struct TableSpec<'a> {
    /// The file it is in.
    pub file: &'a Path,
    /// The field of its rows, e.g. `areas[1].walk`.
    pub field: String,
    /// Its name in firing counts, e.g. `outdoor II walk`.
    pub name: String,
    /// The faces that must each be covered once.
    pub faces: (i32, i32),
    /// Whether rows may cover faces beyond `faces` (a die plus a modifier).
    pub open_ended: bool,
}

impl TableSpec<'_> {
    /// A one-line error at this table's `field` + `suffix`.
    pub fn err(&self, suffix: &str, message: String) -> ScenarioError {
        ScenarioError::new(self.file, format!("{}{suffix}", self.field), message)
    }
}

/// Builds a table from `rows`, each parsed by `parse` (given the row and
/// its field path), checking that the faces are covered once each.
pub fn build<T>(
    spec: &TableSpec,
    rows: &[RawRow],
    entries: &mut Entries,
    mut parse: impl FnMut(&RawRow, &str, &mut Entries) -> Result<T, ScenarioError>,
) -> Result<DieTable<T>, ScenarioError> {
    let (need_lo, need_hi) = spec.faces;
    if rows.is_empty() {
        return Err(spec.err(
            "",
            format!("expected rows covering the rolls {need_lo} to {need_hi}"),
        ));
    }
    let mut lo = i64::from(need_lo);
    let mut hi = i64::from(need_hi);
    for (i, row) in rows.iter().enumerate() {
        let (a, b) = row.roll.bounds();
        if a > b {
            return Err(spec.err(
                &format!("[{i}].roll"),
                format!("expected a span from low to high, found [{a}, {b}]"),
            ));
        }
        let beyond = a < i64::from(need_lo) || b > i64::from(need_hi);
        if beyond && (!spec.open_ended || a < -100 || b > 100) {
            return Err(spec.err(
                &format!("[{i}].roll"),
                format!("expected rolls from {need_lo} to {need_hi}, found {a} to {b}"),
            ));
        }
        lo = lo.min(a);
        hi = hi.max(b);
    }
    let mut face = vec![u16::MAX; (hi - lo + 1) as usize];
    let mut out = Vec::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        let (a, b) = row.roll.bounds();
        for v in a..=b {
            let cell = &mut face[(v - lo) as usize];
            if *cell != u16::MAX {
                return Err(spec.err(
                    &format!("[{i}].roll"),
                    format!(
                        "expected each roll covered once, found {v} covered again (it is in row {} too)",
                        *cell
                    ),
                ));
            }
            *cell = i as u16;
        }
        let field = format!("{}[{i}]", spec.field);
        let payload = parse(row, &field, entries)?;
        let label = if a == b {
            format!("{} {a}", spec.name)
        } else {
            format!("{} {a}-{b}", spec.name)
        };
        out.push((entries.add(label), payload));
    }
    if let Some(missing) = face.iter().position(|c| *c == u16::MAX) {
        return Err(spec.err(
            "",
            format!(
                "expected the rows to cover every roll from {need_lo} to {need_hi}, found no row for {}",
                lo + missing as i64
            ),
        ));
    }
    Ok(DieTable {
        lo: lo as i32,
        face,
        rows: out,
    })
}

/// What the parsers of table rows look things up in.
pub struct Lookup<'a> {
    /// The file being read.
    pub file: &'a Path,
    /// The duel roster.
    pub roster: &'a Roster,
}

impl Lookup<'_> {
    fn err(&self, field: &str, message: String) -> ScenarioError {
        ScenarioError::new(self.file, field, message)
    }

    /// Only `allowed` optional fields may be present in `row`.
    pub fn only(&self, row: &RawRow, field: &str, allowed: &[&str]) -> Result<(), ScenarioError> {
        for name in row.present() {
            if !allowed.contains(&name) {
                return Err(self.err(
                    &format!("{field}.{name}"),
                    format!(
                        "expected no {name:?} in this table (it reads {})",
                        if allowed.is_empty() {
                            "only `roll`".to_string()
                        } else {
                            allowed.join(", ")
                        }
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The result name of `row`, which must be one of `allowed`.
    pub fn result<'r>(
        &self,
        row: &'r RawRow,
        field: &str,
        allowed: &[&str],
    ) -> Result<&'r str, ScenarioError> {
        match row.result.as_deref() {
            Some(r) if allowed.contains(&r) => Ok(r),
            other => Err(self.err(
                &format!("{field}.result"),
                format!("expected one of {}, found {other:?}", allowed.join(", ")),
            )),
        }
    }

    /// A roster character of one of `classes`, or `city-warrior`.
    pub fn who(&self, id: &str, field: &str, classes: &[Class]) -> Result<Who, ScenarioError> {
        if id == CITY_WARRIOR_ID {
            return Ok(Who::CityWarrior);
        }
        Ok(Who::Character(self.character_of(id, field, classes)? as u8))
    }

    /// The roster index of `id`, who must be of one of `classes`.
    pub(crate) fn character_of(
        &self,
        id: &str,
        field: &str,
        classes: &[Class],
    ) -> Result<usize, ScenarioError> {
        let k = self.character(id, field)?;
        let class = self.roster.characters[k].class;
        if !classes.contains(&class) {
            return Err(self.err(
                field,
                format!(
                    "expected a {}, found {id:?}, a {}",
                    classes
                        .iter()
                        .map(|c| c.name())
                        .collect::<Vec<_>>()
                        .join(" or "),
                    class.name()
                ),
            ));
        }
        Ok(k)
    }

    /// The roster index of `id`.
    pub fn character(&self, id: &str, field: &str) -> Result<usize, ScenarioError> {
        self.roster.find(id).ok_or_else(|| {
            self.err(
                field,
                format!(
                    "expected a character of the roster (characters.toml), found {id:?}; nearest: {}",
                    self.roster.suggest(id)
                ),
            )
        })
    }

    /// The foes of a fight entry.
    pub fn foes(&self, list: &[RawFoe], field: &str) -> Result<Foes, ScenarioError> {
        if list.is_empty() || list.len() > MAX_FOE_KINDS {
            return Err(self.err(
                field,
                format!(
                    "expected 1 to {MAX_FOE_KINDS} kinds of foe, found {}",
                    list.len()
                ),
            ));
        }
        let mut foes = Foes {
            list: [(Who::CityWarrior, 0); MAX_FOE_KINDS],
            len: 0,
        };
        for (i, f) in list.iter().enumerate() {
            let who = self.who(
                &f.id,
                &format!("{field}[{i}].id"),
                &[Class::Beast, Class::Warrior, Class::Minor, Class::Villain],
            )?;
            let count = f.count.unwrap_or(1);
            if !(1..=MAX_FOE_COUNT).contains(&count) {
                return Err(self.err(
                    &format!("{field}[{i}].count"),
                    format!("expected 1 to {MAX_FOE_COUNT}, found {count}"),
                ));
            }
            foes.list[i] = (who, count as u8);
            foes.len += 1;
        }
        Ok(foes)
    }

    /// A display named in a row (file stem of [`DISPLAYS`]).
    pub fn display(&self, name: &str, field: &str) -> Result<u8, ScenarioError> {
        DISPLAYS
            .iter()
            .position(|d| *d == name)
            .map(|i| i as u8)
            .ok_or_else(|| {
                self.err(
                    field,
                    format!("expected one of {}, found {name:?}", DISPLAYS.join(", ")),
                )
            })
    }

    /// A master swordsman's rank.
    pub fn rank(&self, row: &RawRow, field: &str) -> Result<Rank, ScenarioError> {
        let text = row.rank.as_deref().unwrap_or("");
        Rank::parse(text).ok_or_else(|| {
            self.err(
                &format!("{field}.rank"),
                format!("expected warlord, grand-master or master-at-arms, found {text:?}"),
            )
        })
    }

    /// A whole number in `range`.
    pub fn number(
        &self,
        value: Option<i64>,
        field: &str,
        range: std::ops::RangeInclusive<i64>,
    ) -> Result<u8, ScenarioError> {
        match value {
            Some(v) if range.contains(&v) => Ok(v as u8),
            other => Err(self.err(
                field,
                format!(
                    "expected a number from {} to {}, found {}",
                    range.start(),
                    range.end(),
                    other.map_or("nothing".to_string(), |v| v.to_string())
                ),
            )),
        }
    }

    /// Item bits from names (`flier`, `thoats`, `weapons`).
    pub fn items(&self, names: &[String], field: &str) -> Result<u8, ScenarioError> {
        let mut bits = 0;
        for name in names {
            bits |= item_bit(name).ok_or_else(|| {
                self.err(
                    field,
                    format!("expected flier, thoats or weapons, found {name:?}"),
                )
            })?;
        }
        Ok(bits)
    }
}

/// The item bit of a name.
pub(crate) fn item_bit(name: &str) -> Option<u8> {
    match name {
        "flier" => Some(ITEM_FLIER),
        "thoats" => Some(ITEM_THOATS),
        "weapons" => Some(ITEM_WEAPONS),
        _ => None,
    }
}

/// What an encounter-like entry does.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Nothing happens [11.23] (also the hand of fate's close call).
    None,
    /// A duel with these foes, on this display if named (else the
    /// encounter's own [11.24, 11.28]).
    Fight {
        /// The foes.
        foes: Foes,
        /// The display, if the entry names one.
        display: Option<u8>,
    },
    /// A duel with a master swordsman of this rank [7.8, 11.28].
    Swordsman(Rank),
    /// The flier is lost after this many extra movement cards [9.43].
    LoseFlier(u8),
    /// The thoats are lost.
    LoseThoats,
    /// The hero is befriended [12.0].
    Friend,
    /// An item given (duel results).
    Gift(u8),
    /// The hero is interned (duel results).
    Interned,
    /// The hero is discovered (hand of fate).
    Discovered,
    /// A city encounter (hand of fate).
    CityEncounter,
    /// Roll a ten-sided die on these results [11.22].
    Roll(Box<DieTable<Outcome>>),
}

/// Parses an outcome row of a table that allows the `allowed` results.
pub fn outcome(
    look: &Lookup,
    row: &RawRow,
    field: &str,
    allowed: &[&str],
    name: &str,
    entries: &mut Entries,
) -> Result<Outcome, ScenarioError> {
    let result = look.result(row, field, allowed)?;
    let fields: &[&str] = match result {
        "fight" => &["result", "fight", "display"],
        "swordsman" => &["result", "rank"],
        "lose-flier" => &["result", "extra_cards"],
        "gift" => &["result", "gift"],
        "d10" => &["result", "d10"],
        _ => &["result"],
    };
    look.only(row, field, fields)?;
    Ok(match result {
        "none" | "close-call" => Outcome::None,
        "fight" => Outcome::Fight {
            foes: look.foes(
                row.fight.as_deref().unwrap_or(&[]),
                &format!("{field}.fight"),
            )?,
            display: match &row.display {
                None => None,
                Some(d) => Some(look.display(d, &format!("{field}.display"))?),
            },
        },
        "swordsman" => Outcome::Swordsman(look.rank(row, field)?),
        "lose-flier" => Outcome::LoseFlier(look.number(
            row.extra_cards,
            &format!("{field}.extra_cards"),
            0..=9,
        )?),
        "lose-thoats" => Outcome::LoseThoats,
        "friend" => Outcome::Friend,
        "gift" => {
            let g = row.gift.as_deref().unwrap_or("");
            Outcome::Gift(item_bit(g).ok_or_else(|| {
                look.err(
                    &format!("{field}.gift"),
                    format!("expected flier, thoats or weapons, found {g:?}"),
                )
            })?)
        }
        "interned" => Outcome::Interned,
        "discovered" => Outcome::Discovered,
        "city-encounter" => Outcome::CityEncounter,
        _ => {
            // "d10": a ten-sided die on the listed results [11.22]; a
            // nested roll may not roll again.
            let inner: Vec<&str> = allowed.iter().copied().filter(|a| *a != "d10").collect();
            let spec = TableSpec {
                file: look.file,
                field: format!("{field}.d10"),
                name: format!("{name} d10"),
                faces: (1, 10),
                open_ended: false,
            };
            let rows = row.d10.as_deref().unwrap_or(&[]);
            Outcome::Roll(Box::new(build(&spec, rows, entries, |r, f, e| {
                outcome(look, r, f, &inner, &spec.name, e)
            })?))
        }
    })
}

/// A Delay Table row [11.35].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delay {
    /// Turns before the captive escapes.
    pub turns: u8,
    /// Befriended in captivity: keeps his weapons [11.34].
    pub befriended: bool,
}

/// An Internment Table row [11.46].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Internment {
    /// Turns interned (0: released at once).
    pub turns: u8,
    /// Items lost.
    pub lose: u8,
    /// Befriended while interned.
    pub befriended: bool,
}

/// A Prison Companion Table row [17.19].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Companion {
    /// Of no consequence [17.12].
    Nobody,
    /// A warrior of Mars [17.13].
    Warrior {
        /// A resident of the city [17.24].
        resident: bool,
    },
    /// A minor character [17.14].
    Minor {
        /// A resident of the city [17.25].
        resident: bool,
    },
    /// A male personage [17.16].
    MalePersonage,
    /// A hero [17.15].
    Hero,
}

/// An Arena Duel Table row [17.35, 17.41-17.48].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArenaDuel {
    /// A captain of the guard [17.41].
    Captain,
    /// A master swordsman [17.42].
    Swordsman(Rank),
    /// A game of Jetan [17.43].
    Jetan,
    /// A ferocious beast [17.44].
    Beast,
    /// The Death [17.45].
    TheDeath,
    /// Six warriors of Mars [17.46].
    SixWarriors,
    /// A mind battle [17.47].
    MindBattle,
    /// Chained in the throne room [17.48].
    Chained,
}

/// The duels of one Jetan row [17.43], fought one after another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JetanDuels {
    /// The opponents in order.
    pub list: [Who; MAX_FOE_KINDS],
    /// How many.
    pub len: u8,
}

/// Parses a Delay Table row.
pub fn delay(look: &Lookup, row: &RawRow, field: &str) -> Result<Delay, ScenarioError> {
    look.only(row, field, &["turns", "befriended"])?;
    Ok(Delay {
        turns: look.number(row.turns, &format!("{field}.turns"), 1..=20)?,
        befriended: row.befriended.unwrap_or(false),
    })
}

/// Parses an Internment Table row.
pub(crate) fn internment(
    look: &Lookup,
    row: &RawRow,
    field: &str,
) -> Result<Internment, ScenarioError> {
    look.only(row, field, &["turns", "befriended", "lose"])?;
    Ok(Internment {
        turns: look.number(row.turns, &format!("{field}.turns"), 0..=20)?,
        lose: look.items(row.lose.as_deref().unwrap_or(&[]), &format!("{field}.lose"))?,
        befriended: row.befriended.unwrap_or(false),
    })
}

/// Parses a Prison Companion Table row.
pub fn companion(look: &Lookup, row: &RawRow, field: &str) -> Result<Companion, ScenarioError> {
    let r = look.result(
        row,
        field,
        &["nobody", "warrior", "minor", "male-personage", "hero"],
    )?;
    let resident_ok = matches!(r, "warrior" | "minor");
    look.only(
        row,
        field,
        if resident_ok {
            &["result", "resident"]
        } else {
            &["result"]
        },
    )?;
    let resident = row.resident.unwrap_or(false);
    Ok(match r {
        "nobody" => Companion::Nobody,
        "warrior" => Companion::Warrior { resident },
        "minor" => Companion::Minor { resident },
        "male-personage" => Companion::MalePersonage,
        _ => Companion::Hero,
    })
}

/// Parses an Arena Duel Table row.
pub fn arena(look: &Lookup, row: &RawRow, field: &str) -> Result<ArenaDuel, ScenarioError> {
    let r = look.result(
        row,
        field,
        &[
            "captain",
            "swordsman",
            "jetan",
            "beast",
            "the-death",
            "six-warriors",
            "mind-battle",
            "chained",
        ],
    )?;
    look.only(
        row,
        field,
        if r == "swordsman" {
            &["result", "rank"]
        } else {
            &["result"]
        },
    )?;
    Ok(match r {
        "captain" => ArenaDuel::Captain,
        "swordsman" => ArenaDuel::Swordsman(look.rank(row, field)?),
        "jetan" => ArenaDuel::Jetan,
        "beast" => ArenaDuel::Beast,
        "the-death" => ArenaDuel::TheDeath,
        "six-warriors" => ArenaDuel::SixWarriors,
        "mind-battle" => ArenaDuel::MindBattle,
        _ => ArenaDuel::Chained,
    })
}

/// Parses a Jetan table row.
pub fn jetan(look: &Lookup, row: &RawRow, field: &str) -> Result<JetanDuels, ScenarioError> {
    look.only(row, field, &["duels"])?;
    let list = row.duels.as_deref().unwrap_or(&[]);
    if list.is_empty() || list.len() > MAX_FOE_KINDS {
        return Err(look.err(
            &format!("{field}.duels"),
            format!(
                "expected 1 to {MAX_FOE_KINDS} opponents, found {}",
                list.len()
            ),
        ));
    }
    let mut out = JetanDuels {
        list: [Who::CityWarrior; MAX_FOE_KINDS],
        len: 0,
    };
    for (i, id) in list.iter().enumerate() {
        out.list[i] = look.who(
            id,
            &format!("{field}.duels[{i}]"),
            &[Class::Minor, Class::Warrior],
        )?;
        out.len += 1;
    }
    Ok(out)
}
