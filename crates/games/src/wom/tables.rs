//! The Warriors of Mars combat tables, loaded from scenario data
//! (`scenarios/wom/data/`). Nothing here hard-codes a table value: the code
//! knows the shape of each table and the mechanics that read it.

use barsoom_engine::scenario::Load;

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use barsoom_engine::scenario::{Loader, ScenarioError};

/// A score needed on 3d6 (after modifiers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Succeeds without a roll (the "(Automatic)" columns).
    Automatic,
    /// Succeeds when the modified roll is at least this.
    AtLeast(u8),
    /// Cannot succeed (a "-" in the table).
    Never,
}

impl Score {
    /// Whether a modified roll meets the score.
    #[inline]
    pub(crate) fn met_by(self, modified_roll: i32) -> bool {
        match self {
            Score::Automatic => true,
            Score::AtLeast(t) => modified_roll >= i32::from(t),
            Score::Never => false,
        }
    }

    /// The score as printed in a table.
    pub fn printed(self) -> String {
        match self {
            Score::Automatic => "auto".into(),
            Score::AtLeast(t) => t.to_string(),
            Score::Never => "-".into(),
        }
    }
}

fn parse_score(text: &str, file: &Path, field: &str) -> Result<Score, ScenarioError> {
    match text.trim() {
        "-" => Ok(Score::Never),
        "auto" => Ok(Score::Automatic),
        number => match number.parse::<u8>() {
            Ok(n) if (3..=18).contains(&n) => Ok(Score::AtLeast(n)),
            _ => Err(ScenarioError::new(
                file,
                field,
                format!("expected a 3d6 score 3-18, \"-\" or \"auto\", found {number:?}"),
            )),
        },
    }
}

/// A table entry that is either a number or a word ("auto", "-").
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawScore {
    Number(i64),
    Word(String),
}

impl RawScore {
    fn to_score(&self, file: &Path, field: &str) -> Result<Score, ScenarioError> {
        match self {
            RawScore::Number(n) => parse_score(&n.to_string(), file, field),
            RawScore::Word(w) => parse_score(w, file, field),
        }
    }
}

/// Index of level difference `difference` in the men-vs-men table's columns
/// (+12 first, -12 last), clamped to the table's edges.
#[inline]
pub fn difference_column(difference: i32) -> usize {
    (12 - difference.clamp(-12, 12)) as usize
}

/// Modifiers of the men-vs-men procedure.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MenModifiers {
    /// Where the numbers come from.
    pub provenance: String,
    /// Bonus to attack and initiative rolls for the greater weapon.
    pub greater_weapon: i8,
    /// Bonus to an Okarian's attack rolls.
    pub okarian_attack: i8,
    /// Penalty on attack rolls made against an Okarian.
    pub okarian_defense: i8,
    /// Successive attacks after which the initiative passes automatically.
    pub successive_attack_limit: u8,
}

/// The MEN VS. MEN, COMBAT AND INITIATIVE table.
#[derive(Debug, Clone, PartialEq)]
pub struct MenTable {
    /// Score to wound, and to seize the initiative, by column.
    pub wound_or_initiative: [Score; 25],
    /// Score to kill, by column.
    pub kill: [Score; 25],
    /// Wounds a man survives beyond his level before dying.
    pub wounds_above_level: u8,
    /// Weapon and Okarian modifiers.
    pub modifiers: MenModifiers,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMenTable {
    provenance: String,
    differences: Vec<i32>,
    wound_or_initiative: Vec<RawScore>,
    kill: Vec<RawScore>,
    wounds_above_level: u8,
    modifiers: MenModifiers,
}

impl MenTable {
    fn load_with(file: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let raw: RawMenTable = loader.read_toml(file)?;
        let _ = raw.provenance;
        let expected: Vec<i32> = (-12..=12).rev().collect();
        if raw.differences != expected {
            return Err(ScenarioError::new(
                file,
                "differences",
                "expected the 25 level differences 12, 11, ..., -12",
            ));
        }
        let row = |values: &[RawScore], field: &str| -> Result<[Score; 25], ScenarioError> {
            if values.len() != 25 {
                return Err(ScenarioError::new(
                    file,
                    field,
                    format!("expected 25 entries, found {}", values.len()),
                ));
            }
            let mut out = [Score::Never; 25];
            for (i, v) in values.iter().enumerate() {
                out[i] = v.to_score(file, &format!("{field}[{i}]"))?;
            }
            Ok(out)
        };
        Ok(MenTable {
            wound_or_initiative: row(&raw.wound_or_initiative, "wound_or_initiative")?,
            kill: row(&raw.kill, "kill")?,
            wounds_above_level: raw.wounds_above_level,
            modifiers: raw.modifiers,
        })
    }
}

/// One cell of the animal table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnimalCell {
    /// Score to wound.
    pub wound: Score,
    /// Score to kill.
    pub kill: Score,
    /// Score at which an attacking animal panics (animal defenders only).
    pub panic: Score,
    /// Score of the second, stinger roll that kills (the sith).
    pub stinger: Score,
}

impl AnimalCell {
    /// Parses "wound/kill[/panic[/stinger]]" with `fields` giving the
    /// allowed number of scores.
    fn parse(
        text: &str,
        file: &Path,
        field: &str,
        fields: std::ops::RangeInclusive<usize>,
        shape: &str,
    ) -> Result<Self, ScenarioError> {
        let parts: Vec<&str> = text.split('/').collect();
        if !fields.contains(&parts.len()) {
            return Err(ScenarioError::new(
                file,
                field,
                format!("expected scores separated by '/' ({shape}), found {text:?}"),
            ));
        }
        let score = |i: usize| {
            parts
                .get(i)
                .map_or(Ok(Score::Never), |p| parse_score(p, file, field))
        };
        Ok(AnimalCell {
            wound: score(0)?,
            kill: score(1)?,
            panic: score(2)?,
            stinger: score(3)?,
        })
    }

    /// The cell as printed in the data file.
    pub fn printed(&self, with_panic: bool) -> String {
        let mut parts = vec![self.wound.printed(), self.kill.printed()];
        if with_panic || self.stinger != Score::Never {
            parts.push(self.panic.printed());
        }
        if self.stinger != Score::Never {
            parts.push(self.stinger.printed());
        }
        parts.join("/")
    }
}

/// An animal's special ability [WoM Animals Special Abilities].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Special {
    /// No special ability.
    None,
    /// Bonus to wound/kill rolls when club-armed (white ape).
    Club(i8),
    /// Bonus to wound/kill rolls on the turn of its charge (banth).
    Charge(i8),
    /// Modifier to all attacks when it cannot leap its opponent (plant man).
    Leap(i8),
    /// A second roll each attack that kills on the cell's stinger score (sith).
    Stinger,
    /// Bonus to the kill roll on the turn of its charge (thoat, zitidar).
    ChargeKill(i8),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpecial {
    kind: String,
    bonus: Option<i8>,
}

/// One animal type of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimalType {
    /// Identifier used in data files, e.g. `banth`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Wounds that kill it.
    pub wounds_to_kill: u8,
    /// Its special ability.
    pub special: Special,
    /// Whether a poisoned lance charge kills it with any wound.
    pub poisoned_lance_kills: bool,
    /// Cells against each animal, in table order.
    pub vs_animals: Vec<AnimalCell>,
    /// Cells against each band of men, highest band first.
    pub vs_men: Vec<AnimalCell>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAnimal {
    name: String,
    wounds_to_kill: u8,
    special: RawSpecial,
    #[serde(default)]
    poisoned_lance_kills: bool,
    vs_animals: Vec<String>,
    vs_men: Vec<String>,
}

/// Modifiers for men fighting animals.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManVsAnimalModifiers {
    /// Where the numbers come from.
    pub provenance: String,
    /// Weapon the table assumes (a weapon id).
    pub reference_weapon: String,
    /// Modifier for a weapon lesser than the reference.
    pub lesser_weapon: i8,
    /// Modifier for a greater weapon or for being mounted (not cumulative).
    pub greater_weapon_or_mounted: i8,
    /// Modifier for a mounted charge during the first turn.
    pub mounted_charge_first_turn: i8,
    /// Modifier for a mounted lance charge in the first round.
    pub lance_charge_first_round: i8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMen {
    provenance: String,
    wounds_to_kill: BTreeMap<String, u8>,
    attacking: BTreeMap<String, Vec<String>>,
    modifiers: ManVsAnimalModifiers,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBands {
    provenance: String,
    bands: Vec<[u8; 2]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawInterpretation {
    cell: String,
    printed: String,
    reading: String,
    provenance: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAnimalTable {
    provenance: String,
    animal_order: Vec<String>,
    men_bands: RawBands,
    animals: BTreeMap<String, RawAnimal>,
    men: RawMen,
    #[serde(default)]
    interpreted: Vec<RawInterpretation>,
}

/// A cell the reconstruction had to interpret, with its reasoning.
#[derive(Debug, Clone, PartialEq)]
pub struct Interpretation {
    /// "attacker vs defender".
    pub cell: String,
    /// What the damaged source shows.
    pub printed: String,
    /// The reading used.
    pub reading: String,
    /// Why.
    pub provenance: String,
}

/// The animal table: animal attackers against animals and men, and men attacking animals.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimalTable {
    /// Animal types in column order.
    pub animals: Vec<AnimalType>,
    /// Inclusive level bands of the men columns, highest first.
    pub men_bands: Vec<(u8, u8)>,
    /// Men attacking animals: `[level - 1][animal]`.
    pub men_attacking: Vec<Vec<AnimalCell>>,
    /// Wounds to kill a man, by `level - 1`.
    pub men_wounds_to_kill: Vec<u8>,
    /// Modifiers for men against animals.
    pub man_modifiers: ManVsAnimalModifiers,
    /// Cells that were reconstructed, with reasons.
    pub interpretations: Vec<Interpretation>,
}

impl AnimalTable {
    fn load_with(file: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let raw: RawAnimalTable = loader.read_toml(file)?;
        let _ = (
            &raw.provenance,
            &raw.men_bands.provenance,
            &raw.men.provenance,
        );
        let order = &raw.animal_order;
        let mut men_bands = Vec::new();
        for (i, [lo, hi]) in raw.men_bands.bands.iter().enumerate() {
            if !(1..=13).contains(lo) || !(1..=13).contains(hi) || lo > hi {
                return Err(ScenarioError::new(
                    file,
                    format!("men_bands.bands[{i}]"),
                    "expected [lowest, highest] levels within 1-13",
                ));
            }
            men_bands.push((*lo, *hi));
        }
        for level in 1..=13u8 {
            if men_bands
                .iter()
                .filter(|(lo, hi)| (*lo..=*hi).contains(&level))
                .count()
                != 1
            {
                return Err(ScenarioError::new(
                    file,
                    "men_bands.bands",
                    format!("expected every level 1-13 in exactly one band; level {level} is not"),
                ));
            }
        }
        let mut animals = Vec::new();
        for id in order {
            let Some(a) = raw.animals.get(id) else {
                return Err(ScenarioError::new(
                    file,
                    format!("animals.{id}"),
                    "expected a row for every animal in animal_order",
                ));
            };
            let field = |f: &str| format!("animals.{id}.{f}");
            if a.vs_animals.len() != order.len() {
                return Err(ScenarioError::new(
                    file,
                    field("vs_animals"),
                    format!("expected {} cells, one per animal", order.len()),
                ));
            }
            if a.vs_men.len() != men_bands.len() {
                return Err(ScenarioError::new(
                    file,
                    field("vs_men"),
                    format!("expected {} cells, one per band of men", men_bands.len()),
                ));
            }
            let bonus = |kind: &str| {
                a.special.bonus.ok_or_else(|| {
                    ScenarioError::new(
                        file,
                        field("special.bonus"),
                        format!("expected a bonus for special kind {kind:?}"),
                    )
                })
            };
            let special = match a.special.kind.as_str() {
                "none" => Special::None,
                "club" => Special::Club(bonus("club")?),
                "charge" => Special::Charge(bonus("charge")?),
                "leap" => Special::Leap(bonus("leap")?),
                "stinger" => Special::Stinger,
                "charge-kill" => Special::ChargeKill(bonus("charge-kill")?),
                other => {
                    return Err(ScenarioError::new(
                        file,
                        field("special.kind"),
                        format!(
                            "expected one of none, club, charge, leap, stinger, charge-kill; found {other:?}"
                        ),
                    ));
                }
            };
            if a.wounds_to_kill == 0 {
                return Err(ScenarioError::new(
                    file,
                    field("wounds_to_kill"),
                    "expected at least 1",
                ));
            }
            let cells = |list: &[String],
                         f: &str,
                         range: std::ops::RangeInclusive<usize>,
                         shape: &str|
             -> Result<Vec<AnimalCell>, ScenarioError> {
                list.iter()
                    .enumerate()
                    .map(|(i, c)| {
                        AnimalCell::parse(
                            c,
                            file,
                            &format!("{}[{i}]", field(f)),
                            range.clone(),
                            shape,
                        )
                    })
                    .collect()
            };
            animals.push(AnimalType {
                id: id.clone(),
                name: a.name.clone(),
                wounds_to_kill: a.wounds_to_kill,
                special,
                poisoned_lance_kills: a.poisoned_lance_kills,
                vs_animals: cells(
                    &a.vs_animals,
                    "vs_animals",
                    3..=4,
                    "wound/kill/panic[/stinger]",
                )?,
                vs_men: cells(&a.vs_men, "vs_men", 2..=4, "wound/kill[/panic/stinger]")?,
            });
        }
        if let Some(extra) = raw.animals.keys().find(|k| !order.contains(k)) {
            return Err(ScenarioError::new(
                file,
                format!("animals.{extra}"),
                "expected every animal row to be listed in animal_order",
            ));
        }
        let mut men_attacking = Vec::new();
        let mut men_wounds_to_kill = Vec::new();
        for level in 1..=13u8 {
            let key = level.to_string();
            let row = raw.men.attacking.get(&key).ok_or_else(|| {
                ScenarioError::new(
                    file,
                    format!("men.attacking.{key}"),
                    "expected a row for every level 1-13",
                )
            })?;
            if row.len() != order.len() {
                return Err(ScenarioError::new(
                    file,
                    format!("men.attacking.{key}"),
                    format!("expected {} cells, one per animal", order.len()),
                ));
            }
            men_attacking.push(
                row.iter()
                    .enumerate()
                    .map(|(i, c)| {
                        AnimalCell::parse(
                            c,
                            file,
                            &format!("men.attacking.{key}[{i}]"),
                            2..=2,
                            "wound/kill",
                        )
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            );
            let wounds = raw.men.wounds_to_kill.get(&key).copied().filter(|w| *w > 0);
            men_wounds_to_kill.push(wounds.ok_or_else(|| {
                ScenarioError::new(
                    file,
                    format!("men.wounds_to_kill.{key}"),
                    "expected a positive wound count for every level 1-13",
                )
            })?);
        }
        let table = AnimalTable {
            animals,
            men_bands,
            men_attacking,
            men_wounds_to_kill,
            man_modifiers: raw.men.modifiers,
            interpretations: raw
                .interpreted
                .into_iter()
                .map(|i| Interpretation {
                    cell: i.cell,
                    printed: i.printed,
                    reading: i.reading,
                    provenance: i.provenance,
                })
                .collect(),
        };
        table.check_interpretations(file)?;
        Ok(table)
    }

    /// Every `[[interpreted]]` note must agree with the cell it describes,
    /// so the notes cannot drift from the data.
    fn check_interpretations(&self, file: &Path) -> Result<(), ScenarioError> {
        for (i, note) in self.interpretations.iter().enumerate() {
            let field = format!("interpreted[{i}].reading");
            let Some((attacker, defender)) = note.cell.split_once(" vs ") else {
                return Err(ScenarioError::new(
                    file,
                    format!("interpreted[{i}].cell"),
                    "expected \"attacker vs defender\"",
                ));
            };
            let attacker = self.animal_index(attacker).ok_or_else(|| {
                ScenarioError::new(
                    file,
                    format!("interpreted[{i}].cell"),
                    format!("expected an animal attacker, found {attacker:?}"),
                )
            })?;
            let animal = &self.animals[attacker];
            let (cell, with_panic) = if let Some(band) = defender.strip_prefix("men ") {
                let index = self.men_bands.iter().position(|(lo, hi)| {
                    if lo == hi {
                        band == lo.to_string()
                    } else {
                        band == format!("{lo}-{hi}")
                    }
                });
                (index.map(|b| animal.vs_men[b]), false)
            } else {
                (
                    self.animal_index(defender).map(|d| animal.vs_animals[d]),
                    true,
                )
            };
            let cell = cell.ok_or_else(|| {
                ScenarioError::new(
                    file,
                    format!("interpreted[{i}].cell"),
                    format!("expected an animal or a band like \"men 10-12\", found {defender:?}"),
                )
            })?;
            if cell.printed(with_panic) != note.reading {
                return Err(ScenarioError::new(
                    file,
                    field,
                    format!(
                        "expected the row's value {:?}, found {:?}",
                        cell.printed(with_panic),
                        note.reading
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Column of the animal with identifier `id`.
    pub fn animal_index(&self, id: &str) -> Option<usize> {
        self.animals.iter().position(|a| a.id == id)
    }

    /// Men column band holding `level`.
    pub fn band_of(&self, level: u8) -> usize {
        self.men_bands
            .iter()
            .position(|(lo, hi)| (*lo..=*hi).contains(&level))
            .unwrap_or(0)
    }
}

/// A weapon of the code of battle.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Display name.
    pub name: String,
    /// Code-of-battle class: higher is the greater weapon.
    pub class: u8,
    /// Melee reach in feet, for first strike by the longer weapon.
    pub reach: u16,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWeapons {
    provenance: String,
    weapons: BTreeMap<String, Weapon>,
}

/// Missile-fire modifiers against men.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissileVsMen {
    /// Target in soft cover.
    pub soft_cover: i8,
    /// Target behind hard cover.
    pub hard_cover: i8,
    /// Long range.
    pub long_range: i8,
    /// Short range.
    pub short_range: i8,
    /// Target moving.
    pub target_moving: i8,
    /// Modifiers by the weapon fired (the radium rifle's -1).
    pub weapon_modifiers: BTreeMap<String, i8>,
    /// Highest level a hit kills outright.
    pub kill_up_to_level: u8,
    /// Wounds a hit deals to higher levels.
    pub wounds_on_hit: u8,
}

/// Missile fire at animals.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissileVsAnimals {
    /// Wounds dealt by a roll 1, 2, 3, ... points short of the kill score.
    pub wounds_by_points_short: Vec<u8>,
}

/// Missile fire at individuals.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissileRules {
    /// Where the numbers come from.
    pub provenance: String,
    /// Against men.
    pub vs_men: MissileVsMen,
    /// Against animals.
    pub vs_animals: MissileVsAnimals,
}

/// A character or animal type that scenarios can field.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    /// Display name.
    pub name: String,
    /// Ability level 1-13 (men).
    pub level: Option<i64>,
    /// Animal type id (animals).
    pub animal: Option<String>,
    /// Wounds that kill, overriding the table.
    pub wounds_to_kill: Option<u8>,
    /// Added to the first die when firing a missile.
    #[serde(default)]
    pub missile_modifier: i8,
    /// Added to all of this character's combat rolls.
    #[serde(default)]
    pub roll_bonus: i8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRoster {
    provenance: String,
    characters: BTreeMap<String, Character>,
}

/// Everything the Warriors of Mars individual combat rules read.
#[derive(Debug, Clone, PartialEq)]
pub struct WomData {
    /// Men against men.
    pub men: MenTable,
    /// Animals against animals and men; men against animals.
    pub animals: AnimalTable,
    /// Weapons by id.
    pub weapons: BTreeMap<String, Weapon>,
    /// Missile fire at individuals.
    pub missile: MissileRules,
    /// Characters by id.
    pub roster: BTreeMap<String, Character>,
}

impl Load for WomData {
    /// Loads and checks the data files in `dir`.
    fn load_with(dir: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let men = MenTable::load_with(&dir.join("men-vs-men.toml"), loader)?;
        let animals = AnimalTable::load_with(&dir.join("animal-table.toml"), loader)?;
        let weapons_file = dir.join("weapons.toml");
        let weapons: RawWeapons = loader.read_toml(&weapons_file)?;
        let _ = weapons.provenance;
        if !weapons
            .weapons
            .contains_key(&animals.man_modifiers.reference_weapon)
        {
            return Err(ScenarioError::new(
                &dir.join("animal-table.toml"),
                "men.modifiers.reference_weapon",
                format!("expected a weapon id from {}", weapons_file.display()),
            ));
        }
        let missile_file = dir.join("missile.toml");
        let missile: MissileRules = loader.read_toml(&missile_file)?;
        if let Some(unknown) = missile
            .vs_men
            .weapon_modifiers
            .keys()
            .find(|w| !weapons.weapons.contains_key(*w))
        {
            return Err(ScenarioError::new(
                &missile_file,
                format!("vs_men.weapon_modifiers.{unknown}"),
                "expected a weapon id of weapons.toml",
            ));
        }
        let roster_file = dir.join("roster.toml");
        let roster: RawRoster = loader.read_toml(&roster_file)?;
        let _ = roster.provenance;
        for (id, c) in &roster.characters {
            if c.wounds_to_kill == Some(0) {
                return Err(ScenarioError::new(
                    &roster_file,
                    format!("characters.{id}.wounds_to_kill"),
                    "expected at least 1",
                ));
            }
            match (&c.level, &c.animal) {
                (Some(level), None) if !(1..=13).contains(level) => {
                    return Err(ScenarioError::new(
                        &roster_file,
                        format!("characters.{id}.level"),
                        format!("expected a level 1-13, found {level}"),
                    ));
                }
                (Some(_), None) => {}
                (None, Some(animal)) if animals.animal_index(animal).is_none() => {
                    return Err(ScenarioError::new(
                        &roster_file,
                        format!("characters.{id}.animal"),
                        format!(
                            "expected an animal of animal-table.toml ({}), found {animal:?}",
                            animals
                                .animals
                                .iter()
                                .map(|a| a.id.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
                (None, Some(_)) => {}
                _ => {
                    return Err(ScenarioError::new(
                        &roster_file,
                        format!("characters.{id}"),
                        "expected exactly one of `level` (a man) or `animal` (an animal)",
                    ));
                }
            }
        }
        Ok(WomData {
            men,
            animals,
            weapons: weapons.weapons,
            missile,
            roster: roster.characters,
        })
    }
}
