//! Talisman data from `scenarios/talisman/data/`: the board, characters,
//! adventure deck, spells, purchase items, ending cards and curses, read from TOML,
//! checked, and compiled into flat tables the game indexes by number.
//!
//! Every card, space and spell effect names one [`Mechanic`] from a fixed
//! set implemented in code, so a new card or board is data; a name outside
//! the set is a load error that lists the names known.

use barsoom_engine::scenario::Load;

use std::path::Path;

use serde::Deserialize;

use super::board::{Board, BoardFile};
use super::curses::Curse;
use super::effects::MECHANIC_NAMES;
pub use super::effects::{Effect, Mechanic};
pub(crate) use super::effects::{EffectCompiler, EffectFile};
use super::expansion::Expansion;
use super::tournament::{TIMED_NAMES, Timed};
use barsoom_engine::scenario::{Loader, ScenarioError, check_provenance};

/// Alignment of a character, or the alignment a card or item asks for [7].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alignment {
    /// Good.
    Good,
    /// Neutral.
    Neutral,
    /// Evil.
    Evil,
}

impl Alignment {
    /// Parses `good`, `neutral` or `evil`.
    pub fn parse(text: &str) -> Option<Alignment> {
        match text {
            "good" => Some(Alignment::Good),
            "neutral" => Some(Alignment::Neutral),
            "evil" => Some(Alignment::Evil),
            _ => None,
        }
    }
}

/// The kinds of adventure card, in the order they are encountered [15:3].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum CardKind {
    /// Events: follow the text, then discard [15:4].
    Event,
    /// Enemies: attack by Strength [15:5].
    Enemy,
    /// Spirits: attack by Craft [15:6].
    Spirit,
    /// Strangers: visited, remain on the space [15:8].
    Stranger,
    /// Objects and magic objects: taken if allowed [15:9].
    Object,
    /// Followers: taken within leadership [15:9].
    Follower,
    /// Places: followed, remain on the space [15:10].
    Place,
}

const CARD_KIND_NAMES: &[(&str, CardKind)] = &[
    ("event", CardKind::Event),
    ("enemy", CardKind::Enemy),
    ("spirit", CardKind::Spirit),
    ("stranger", CardKind::Stranger),
    ("object", CardKind::Object),
    ("magic_object", CardKind::Object),
    ("follower", CardKind::Follower),
    ("place", CardKind::Place),
];

/// Where an object is worn [5:6-8].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// Carried in the arms (counts towards 4 objects and encumbrance).
    Carried,
    /// Worn on the head.
    Head,
    /// Worn on the body.
    Body,
    /// Held as a shield.
    Shield,
}

/// An object, magic object, purchase item or follower's bonuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    /// Strength added in combat (a weapon's only counts for the best weapon).
    pub strength: i32,
    /// Craft added.
    pub craft: i32,
    /// Weight against encumbrance [5:13].
    pub weight: i32,
    /// Where it is worn.
    pub slot: Slot,
    /// Armour save: a roll of at least this prevents a lost life (0: none) [16:11].
    pub save: u8,
    /// Only the best weapon adds its Strength.
    pub weapon: bool,
    /// A Talisman [11:6].
    pub talisman: bool,
    /// Leadership value of a follower [6:6].
    pub leadership: i32,
    /// Only characters of this alignment may keep it [5:2, 7:3].
    pub alignment: Option<Alignment>,
    /// An Axe: in a Woods or Forest space it builds a raft [11:16].
    pub axe: bool,
    /// A Raft: crosses the Storm River [11:15-19].
    pub raft: bool,
    /// A pulled object: the pack animals it needs (0: not pulled) [11:26].
    pub pulled: u8,
    /// A pack animal [5:10]; `capacity` objects ride on it.
    pub pack_animal: bool,
    /// Objects a pack animal carries when it is not pulling [5:3, 11:27].
    pub capacity: u8,
    /// Added to every movement roll while held (pack animals and pulled
    /// objects) [11:28].
    pub movement: i32,
}

/// One adventure card.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    /// Its name.
    pub name: String,
    /// Its kind, which fixes the encounter order.
    pub kind: CardKind,
    /// Enemy Strength.
    pub strength: i32,
    /// Spirit Craft.
    pub craft: i32,
    /// Enemies in the pack, fought one at a time (1: a single creature).
    pub pack: u8,
    /// Bonuses if an object or follower.
    pub item: Item,
    /// First effect in [`Rules::card_effects`].
    pub effects_start: u16,
    /// Number of effects.
    pub effects_len: u16,
    /// Whether an event stays on the space (strangers and places always do).
    pub stays: bool,
    /// A Season, Month or Day event: it lasts beside the board and its
    /// effects fall on every character at the start of each turn [15:4].
    pub timed: Option<Timed>,
    /// Whether it gives tokens (bites, favors) [20:12]: in the deck only
    /// when the scenario plays them.
    pub tokens: bool,
    /// The deck it belongs to: 0 the main adventure deck, `k + 1` the
    /// adventure deck of expansion board `k` [11:30].
    pub deck: u8,
    /// A Doorway card leading to expansion board `k` [11:31]: in the deck
    /// only when the scenario plays that board.
    pub doorway: Option<u8>,
    /// A Law card of the City's deck [20:10].
    pub law: Option<super::city::Law>,
}

/// The special abilities a character card may name [8]: each a hook in code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ability {
    /// Roll two dice in combat and keep the higher.
    BestOfTwoDice,
    /// Add `amount` to Strength in combat against creatures.
    CombatBonus,
    /// Add `amount` to Craft in psychic combat.
    PsychicBonus,
    /// May evade creatures in the outer and middle regions [18:1].
    Evade,
    /// Starts with `amount` spells.
    StartSpells,
    /// At the start of each turn, holds at least `amount` spells if Craft allows [9:12].
    SpellEachTurn,
    /// At the start of each turn, heals one life on a roll of `amount` or more.
    Prayer,
    /// Takes one gold from a character met, instead of attacking.
    Steal,
    /// Attacks other characters by Craft [17:1].
    PsychicAttack,
    /// Gains one gold at the start of a turn on a roll of `amount` or more.
    Trade,
    /// Starts with `amount` extra lives.
    ExtraLives,
}

const ABILITY_NAMES: &[(&str, Ability)] = &[
    ("best_of_two_dice", Ability::BestOfTwoDice),
    ("combat_bonus", Ability::CombatBonus),
    ("psychic_bonus", Ability::PsychicBonus),
    ("evade", Ability::Evade),
    ("start_spells", Ability::StartSpells),
    ("spell_each_turn", Ability::SpellEachTurn),
    ("prayer", Ability::Prayer),
    ("steal", Ability::Steal),
    ("psychic_attack", Ability::PsychicAttack),
    ("trade", Ability::Trade),
    ("extra_lives", Ability::ExtraLives),
];

/// The most abilities one character may have.
pub(crate) const MAX_ABILITIES: usize = 4;

/// One character card.
#[derive(Debug, Clone, PartialEq)]
pub struct CharacterCard {
    /// Its name.
    pub name: String,
    /// Starting Strength.
    pub strength: i32,
    /// Starting Craft.
    pub craft: i32,
    /// Starting alignment.
    pub alignment: Alignment,
    /// Starting space.
    pub start: u16,
    /// Abilities with their amounts.
    pub abilities: Vec<(Ability, i32)>,
}

impl CharacterCard {
    /// The amount of `ability`, if the character has it.
    pub fn ability(&self, ability: Ability) -> Option<i32> {
        self.abilities
            .iter()
            .find(|(a, _)| *a == ability)
            .map(|(_, n)| *n)
    }
}

/// What a spell does when cast successfully [9].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpellEffect {
    /// Adds `amount` Strength to one combat.
    CombatStrength,
    /// Adds `amount` Craft to one psychic combat.
    PsychicCraft,
    /// Evades one creature or character [18:1].
    Evade,
    /// Heals `amount` lives.
    Heal,
    /// Kills a creature of Strength or Craft up to `amount` before combat.
    Destroy,
    /// Turns the strongest rival into a toad for 3 turns [19:1].
    ToadRival,
    /// Gains `amount` gold.
    Riches,
}

const SPELL_EFFECT_NAMES: &[(&str, SpellEffect)] = &[
    ("combat_strength", SpellEffect::CombatStrength),
    ("psychic_craft", SpellEffect::PsychicCraft),
    ("evade", SpellEffect::Evade),
    ("heal", SpellEffect::Heal),
    ("destroy", SpellEffect::Destroy),
    ("toad_rival", SpellEffect::ToadRival),
    ("riches", SpellEffect::Riches),
];

/// One spell card.
#[derive(Debug, Clone, PartialEq)]
pub struct Spell {
    /// Its name.
    pub name: String,
    /// What it does.
    pub effect: SpellEffect,
    /// Its size.
    pub amount: i32,
    /// Casting cost: the roll plus Craft must exceed it [9:9].
    pub cost: i32,
    /// What a blunder does.
    pub blunder: Effect,
}

/// One purchase item.
#[derive(Debug, Clone, PartialEq)]
pub struct Purchase {
    /// Its name.
    pub name: String,
    /// Price in gold.
    pub price: i32,
    /// Its bonuses.
    pub item: Item,
}

/// How an ending card is won [21].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndingKind {
    /// The command spell: each turn on the Crown the holder rolls; on
    /// `succeed_on` or more every other character loses a life.
    CommandSpell,
    /// A guardian of Strength `strength` must be beaten in combat.
    Guardian,
    /// A guardian of Craft `craft` must be beaten in psychic combat.
    PsychicGuardian,
    /// Reaching the Crown wins at once.
    Immediate,
}

/// One ending card.
#[derive(Debug, Clone, PartialEq)]
pub struct Ending {
    /// Its name.
    pub name: String,
    /// How it is won.
    pub kind: EndingKind,
    /// Command spell success roll.
    pub succeed_on: u32,
    /// Guardian Strength.
    pub strength: i32,
    /// Guardian Craft.
    pub craft: i32,
}

/// Everything the game reads from data, compiled.
#[derive(Debug, Clone)]
pub struct Rules {
    /// The board, with the expansion boards' spaces as further regions.
    pub board: Board,
    /// The expansion boards the Doorway cards lead to [11:30].
    pub expansions: Vec<Expansion>,
    /// Character cards.
    pub characters: Vec<CharacterCard>,
    /// Adventure cards, one entry per physical card.
    pub cards: Vec<Card>,
    /// Card effects, sliced by each card's range.
    pub card_effects: Vec<Effect>,
    /// Roll-table entries (six per table) of cards and spaces.
    pub tables: Vec<Effect>,
    /// Spell cards, one entry per physical card.
    pub spells: Vec<Spell>,
    /// Spell limit by total Craft (the last entry applies above) [2:6].
    pub spell_limit: Vec<u8>,
    /// Craft at which spells always succeed [9:10].
    pub auto_cast_craft: i32,
    /// Purchase items.
    /// (At most [`MAX_PURCHASES`].)
    pub purchases: Vec<Purchase>,
    /// Ending cards.
    pub endings: Vec<Ending>,
    /// Curse cards, one entry per physical card [19].
    pub curses: Vec<Curse>,
    /// The Purchase deck and the merchants (`merchants.toml`, if any) [20:1].
    pub market: Option<super::merchants::MarketRules>,
}

impl Rules {
    /// The effects of card `card`.
    pub(crate) fn effects_of(&self, card: usize) -> &[Effect] {
        let c = &self.cards[card];
        let start = usize::from(c.effects_start);
        &self.card_effects[start..start + usize::from(c.effects_len)]
    }

    /// The spell limit for a total Craft.
    pub(crate) fn spell_limit_for(&self, craft: i32) -> usize {
        let i = craft.max(0) as usize;
        usize::from(
            *self
                .spell_limit
                .get(i)
                .or(self.spell_limit.last())
                .unwrap_or(&0),
        )
    }

    /// A character by name.
    pub fn character_index(&self, name: &str) -> Option<usize> {
        self.characters.iter().position(|c| c.name == name)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CharactersFile {
    provenance: String,
    characters: Vec<CharacterFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CharacterFile {
    name: String,
    strength: i32,
    craft: i32,
    alignment: String,
    start: String,
    #[serde(default)]
    abilities: Vec<AbilityFile>,
    #[serde(default)]
    #[allow(dead_code)]
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AbilityFile {
    ability: String,
    #[serde(default)]
    amount: i32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeckFile {
    provenance: String,
    cards: Vec<CardFile>,
}

/// Item fields shared by adventure objects, followers and purchases.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct CardFile {
    name: String,
    /// A Doorway card: the expansion board it leads to [11:31].
    doorway: Option<String>,
    /// A Law card of the City's deck: `watch` or `officer` [20:10].
    law: Option<String>,
    kind: String,
    #[serde(default = "one")]
    copies: u8,
    #[serde(default)]
    strength: i32,
    #[serde(default)]
    craft: i32,
    #[serde(default)]
    pack: u8,
    #[serde(default)]
    weight: i32,
    slot: Option<String>,
    #[serde(default)]
    save: u8,
    #[serde(default)]
    weapon: bool,
    #[serde(default)]
    talisman: bool,
    #[serde(default)]
    leadership: i32,
    alignment: Option<String>,
    #[serde(default)]
    stays: bool,
    timed: Option<String>,
    #[serde(default)]
    effects: Vec<EffectFile>,
    #[serde(default)]
    price: i32,
    #[serde(default)]
    axe: bool,
    #[serde(default)]
    raft: bool,
    #[serde(default)]
    pulled: u8,
    #[serde(default)]
    pack_animal: bool,
    #[serde(default)]
    capacity: u8,
    #[serde(default)]
    movement: i32,
}

impl CardFile {
    /// Whether it is a Doorway card [11:31].
    pub(crate) fn names_doorway(&self) -> bool {
        self.doorway.is_some()
    }

    /// How many copies are in the deck.
    pub(crate) fn copies(&self) -> u8 {
        self.copies
    }
}

fn one() -> u8 {
    1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpellsFile {
    provenance: String,
    limit_by_craft: Vec<u8>,
    auto_cast_craft: i32,
    spells: Vec<SpellFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpellFile {
    name: String,
    #[serde(default = "one")]
    copies: u8,
    effect: String,
    #[serde(default)]
    amount: i32,
    cost: i32,
    blunder: EffectFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PurchasesFile {
    provenance: String,
    items: Vec<CardFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EndingsFile {
    provenance: String,
    endings: Vec<EndingFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EndingFile {
    name: String,
    kind: String,
    #[serde(default)]
    succeed_on: u32,
    #[serde(default)]
    strength: i32,
    #[serde(default)]
    craft: i32,
}

fn item_of(file: &Path, field: &str, c: &CardFile) -> Result<Item, ScenarioError> {
    let err =
        |sub: &str, message: String| ScenarioError::new(file, format!("{field}.{sub}"), message);
    let slot = match c.slot.as_deref() {
        None | Some("carried") => Slot::Carried,
        Some("head") => Slot::Head,
        Some("body") => Slot::Body,
        Some("shield") => Slot::Shield,
        Some(other) => {
            return Err(err(
                "slot",
                format!("expected carried, head, body or shield, found {other:?}"),
            ));
        }
    };
    let alignment = match &c.alignment {
        None => None,
        Some(t) => Some(Alignment::parse(t).ok_or_else(|| {
            err(
                "alignment",
                format!("expected good, neutral or evil, found {t:?}"),
            )
        })?),
    };
    if !(0..=6).contains(&c.save) || !(0..=10).contains(&c.weight) {
        return Err(err(
            "save",
            "expected a save of 0 to 6 and a weight of 0 to 10".into(),
        ));
    }
    if !(0..=4).contains(&c.pulled) || !(0..=4).contains(&c.capacity) {
        return Err(err(
            "pulled",
            "expected 0 to 4 pack animals pulling and 0 to 4 objects carried".into(),
        ));
    }
    if !(-3..=0).contains(&c.movement) {
        // A positive movement is an animal ridden [11:29], which the model
        // does not play; penalties are [11:28].
        return Err(err(
            "movement",
            format!(
                "expected a movement effect of -3 to 0 (riding animals are not modelled), found {}",
                c.movement
            ),
        ));
    }
    if c.raft && c.pulled == 0 {
        return Err(err(
            "pulled",
            "a raft is a pulled object [11:19]: expected the pack animals it needs (1 to 4)".into(),
        ));
    }
    if c.pack_animal && (c.pulled > 0 || slot != Slot::Carried) {
        return Err(err(
            "pack_animal",
            "a pack animal is neither pulled nor worn".into(),
        ));
    }
    if (c.pulled > 0 || c.pack_animal) && !matches!(c.kind.as_str(), "object" | "magic_object") {
        return Err(err(
            "kind",
            "pack animals and pulled objects are objects [5:10, 11:26]".into(),
        ));
    }
    Ok(Item {
        strength: c.strength,
        craft: c.craft,
        weight: c.weight,
        slot,
        save: c.save,
        weapon: c.weapon,
        talisman: c.talisman,
        leadership: c.leadership,
        alignment,
        axe: c.axe,
        raft: c.raft,
        pulled: c.pulled,
        pack_animal: c.pack_animal,
        capacity: c.capacity,
        movement: c.movement,
    })
}

/// Whether `effects`, or their roll tables' entries, give tokens [20:12].
fn gives_tokens(effects: &[Effect], tables: &[Effect]) -> bool {
    let token = |e: &Effect| matches!(e.mechanic, Mechanic::GainBites | Mechanic::GainFavors);
    effects.iter().any(|e| {
        token(e)
            || (e.mechanic == Mechanic::RollTable
                && tables[usize::from(e.table)..usize::from(e.table) + 6]
                    .iter()
                    .any(token))
    })
}

/// Mechanics that make no sense at the start of every turn, refused in a
/// lasting event's effects.
const NOT_LASTING: [Mechanic; 9] = [
    Mechanic::DrawCards,
    Mechanic::MoveTo,
    Mechanic::Shop,
    Mechanic::HealForGold,
    Mechanic::Sentinel,
    Mechanic::Portal,
    Mechanic::ValleyOfFire,
    Mechanic::Crown,
    Mechanic::GainTalisman,
];

/// A card's `timed` sub-type [15:4], checked: only on events, whose
/// effects (and their roll tables' entries) must be ones that can fall at
/// the start of every turn.
fn timed_of(
    file: &Path,
    field: &str,
    c: &CardFile,
    kind: CardKind,
    effects: &[Effect],
    tables: &[Effect],
) -> Result<Option<Timed>, ScenarioError> {
    let Some(name) = &c.timed else {
        return Ok(None);
    };
    let err = |message: String| ScenarioError::new(file, format!("{field}.timed"), message);
    let timed = TIMED_NAMES
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, t)| *t)
        .ok_or_else(|| err(format!("expected season, month or day, found {name:?}")))?;
    if kind != CardKind::Event || c.stays {
        return Err(err(
            "only an event that does not stay on its space lasts beside the board [15:4]".into(),
        ));
    }
    let entries = effects
        .iter()
        .filter(|e| e.mechanic == Mechanic::RollTable)
        .flat_map(|e| &tables[usize::from(e.table)..usize::from(e.table) + 6]);
    if let Some(e) = effects
        .iter()
        .chain(entries)
        .find(|e| NOT_LASTING.contains(&e.mechanic))
    {
        let name = MECHANIC_NAMES
            .iter()
            .find(|(_, m)| *m == e.mechanic)
            .map_or("?", |(n, _)| *n);
        return Err(err(format!(
            "a lasting event's effects fall at the start of every turn; {name:?} cannot"
        )));
    }
    Ok(Some(timed))
}

/// Compiles one adventure card as written (its copies are the caller's),
/// its effects appended to `card_effects`; `field` names it in errors.
pub(crate) fn compile_card(
    path: &Path,
    field: &str,
    c: &CardFile,
    compiler: &mut EffectCompiler<'_>,
    card_effects: &mut Vec<Effect>,
) -> Result<Card, ScenarioError> {
    let kind = CARD_KIND_NAMES
        .iter()
        .find(|(n, _)| *n == c.kind)
        .map(|(_, k)| *k)
        .ok_or_else(|| {
            ScenarioError::new(
                path,
                format!("{field}.kind"),
                format!(
                    "expected event, enemy, spirit, stranger, object, magic_object, follower or place, found {:?}",
                    c.kind
                ),
            )
        })?;
    match kind {
        CardKind::Enemy if !(1..=20).contains(&c.strength) => {
            return Err(ScenarioError::new(
                path,
                format!("{field}.strength"),
                format!(
                    "expected an enemy Strength of 1 to 20, found {}",
                    c.strength
                ),
            ));
        }
        CardKind::Spirit if !(1..=20).contains(&c.craft) => {
            return Err(ScenarioError::new(
                path,
                format!("{field}.craft"),
                format!("expected a spirit Craft of 1 to 20, found {}", c.craft),
            ));
        }
        _ => {}
    }
    let law = match &c.law {
        Some(name) => Some(super::city::parse_law(path, field, name)?),
        None => None,
    };
    if law == Some(super::city::Law::Watch) && !(1..=20).contains(&c.strength) {
        return Err(ScenarioError::new(
            path,
            format!("{field}.strength"),
            format!(
                "expected the Watch's Strength, 1 to 20, found {} [20:10]",
                c.strength
            ),
        ));
    }
    let item = item_of(path, field, c)?;
    let start = index16(path, field, card_effects.len())?;
    for (j, e) in c.effects.iter().enumerate() {
        card_effects.push(compiler.compile(path, &format!("{field}.effects[{j}]"), e)?);
    }
    // The end fits, so the count does too.
    index16(path, field, card_effects.len())?;
    let timed = timed_of(
        path,
        field,
        c,
        kind,
        &card_effects[usize::from(start)..],
        &compiler.tables,
    )?;
    Ok(Card {
        name: c.name.clone(),
        kind,
        strength: c.strength,
        craft: c.craft,
        pack: c.pack.max(1),
        item,
        effects_start: start,
        effects_len: c.effects.len() as u16,
        stays: c.stays || matches!(kind, CardKind::Stranger | CardKind::Place),
        timed,
        tokens: gives_tokens(&card_effects[usize::from(start)..], &compiler.tables),
        deck: 0,
        doorway: None,
        law,
    })
}

/// The most adventure cards a deck may hold (per-game state is fixed-size).
pub(crate) const MAX_CARDS: usize = 250;
/// The most character cards (per-game counts are fixed-size).
pub(crate) const MAX_CHARACTERS: usize = 32;

/// At most this many endings (they are numbered with a byte).
pub(crate) const MAX_ENDINGS: usize = 64;

/// The most purchase items (a shopping decision lists them in a
/// fixed-size buffer).
pub(crate) const MAX_PURCHASES: usize = 64;

/// `len`, the size of a compiled list of effects or table rows, as the
/// 16-bit index the cards and spaces keep into it, or an error at `field`.
pub(crate) fn index16(file: &Path, field: &str, len: usize) -> Result<u16, ScenarioError> {
    u16::try_from(len).map_err(|_| {
        ScenarioError::new(
            file,
            field,
            format!(
                "expected at most {} effects and table rows in all, found more",
                u16::MAX
            ),
        )
    })
}
/// The most spell cards.
pub(crate) const MAX_SPELLS: usize = 60;

impl Load for Rules {
    /// Reads and checks every data file in `dir`.
    fn load_with(dir: &Path, loader: &mut Loader) -> Result<Rules, ScenarioError> {
        let board_path = dir.join("board.toml");
        let board_file: BoardFile = loader.read_toml(&board_path)?;
        check_provenance(&board_path, "provenance", &board_file.provenance)?;
        let space_names: Vec<String> = board_file.spaces.iter().map(|s| s.name.clone()).collect();
        let mut compiler = EffectCompiler {
            space_names: &space_names,
            tables: Vec::new(),
        };
        let board = Board::compile(&board_path, &board_file, &mut compiler)?;

        let path = dir.join("characters.toml");
        let file: CharactersFile = loader.read_toml(&path)?;
        check_provenance(&path, "provenance", &file.provenance)?;
        let mut characters = Vec::new();
        for (i, c) in file.characters.iter().enumerate() {
            let f = |sub: &str| format!("characters[{i}].{sub}");
            if !(1..=12).contains(&c.strength) || !(1..=12).contains(&c.craft) {
                return Err(ScenarioError::new(
                    &path,
                    f("strength"),
                    format!(
                        "expected Strength and Craft of 1 to 12, found {} and {}",
                        c.strength, c.craft
                    ),
                ));
            }
            let alignment = Alignment::parse(&c.alignment).ok_or_else(|| {
                ScenarioError::new(
                    &path,
                    f("alignment"),
                    format!("expected good, neutral or evil, found {:?}", c.alignment),
                )
            })?;
            let start = board.space_index(&c.start).ok_or_else(|| {
                ScenarioError::new(&path, f("start"), format!("no space named {:?}", c.start))
            })?;
            if board.spaces[start].region != 0 {
                return Err(ScenarioError::new(
                    &path,
                    f("start"),
                    "expected a space of the outer region",
                ));
            }
            if c.abilities.len() > MAX_ABILITIES {
                return Err(ScenarioError::new(
                    &path,
                    f("abilities"),
                    format!("expected at most {MAX_ABILITIES} abilities"),
                ));
            }
            let mut abilities = Vec::new();
            for (j, a) in c.abilities.iter().enumerate() {
                let ability = ABILITY_NAMES
                    .iter()
                    .find(|(n, _)| *n == a.ability)
                    .map(|(_, x)| *x)
                    .ok_or_else(|| {
                        let names: Vec<&str> = ABILITY_NAMES.iter().map(|(n, _)| *n).collect();
                        ScenarioError::new(
                            &path,
                            f(&format!("abilities[{j}].ability")),
                            format!(
                                "unknown ability {:?}; expected one of {}",
                                a.ability,
                                names.join(", ")
                            ),
                        )
                    })?;
                abilities.push((ability, a.amount));
            }
            if characters.iter().any(|x: &CharacterCard| x.name == c.name) {
                return Err(ScenarioError::new(
                    &path,
                    f("name"),
                    format!("{:?} appears twice", c.name),
                ));
            }
            characters.push(CharacterCard {
                name: c.name.clone(),
                strength: c.strength,
                craft: c.craft,
                alignment,
                start: start as u16,
                abilities,
            });
        }
        if !(7..=MAX_CHARACTERS).contains(&characters.len()) {
            return Err(ScenarioError::new(
                &path,
                "characters",
                format!(
                    "expected 7 to {MAX_CHARACTERS} characters (6 players and one left out), found {}",
                    characters.len()
                ),
            ));
        }

        let path = dir.join("adventure.toml");
        let file: DeckFile = loader.read_toml(&path)?;
        check_provenance(&path, "provenance", &file.provenance)?;
        let mut cards = Vec::new();
        let mut card_effects = Vec::new();
        let mut doorways = Vec::new();
        for (i, c) in file.cards.iter().enumerate() {
            let field = format!("cards[{i}]");
            let mut card = compile_card(&path, &field, c, &mut compiler, &mut card_effects)?;
            if card.law.is_some() {
                return Err(ScenarioError::new(
                    &path,
                    format!("{field}.law"),
                    "Law cards belong to the City's deck [20:10]",
                ));
            }
            if let Some(name) = &c.doorway {
                card.doorway = Some(super::expansion::doorway_board(
                    dir,
                    &path,
                    &format!("{field}.doorway"),
                    name,
                    card.kind,
                    &mut doorways,
                )?);
            }
            for _ in 0..c.copies {
                cards.push(card.clone());
            }
        }
        if cards.len() < 20 || cards.len() > MAX_CARDS {
            return Err(ScenarioError::new(
                &path,
                "cards",
                format!("expected 20 to {MAX_CARDS} cards, found {}", cards.len()),
            ));
        }
        // The expansion boards the Doorway cards lead to [11:30-31], then
        // those a main-board space leads to (the City [11:35]).
        let mut entries = vec![None; doorways.len()];
        for (i, s) in board_file.spaces.iter().enumerate() {
            let Some(name) = &s.board else {
                continue;
            };
            let field = format!("spaces[{i}].board");
            let k = usize::from(super::expansion::board_id(
                dir,
                &board_path,
                &field,
                name,
                &mut doorways,
            )?);
            let at = board.space_index(&s.name).unwrap_or(0);
            let r = &board.regions[usize::from(board.spaces[at].region)];
            if !r.ring {
                return Err(ScenarioError::new(
                    &board_path,
                    field,
                    format!(
                        "no way back to the main board from {name:?}: expected it on a space of the outer or middle region [11:35, 11:38]"
                    ),
                ));
            }
            entries.resize(doorways.len(), None);
            if entries[k].is_some() {
                return Err(ScenarioError::new(
                    &board_path,
                    field,
                    format!("{name:?} is already entered from another space"),
                ));
            }
            entries[k] = Some(at as u16);
        }
        let mut board = board;
        let which = super::expansion::BoardIds {
            ids: &doorways,
            entries: &entries,
            characters: &characters,
        };
        let mut expansions = super::expansion::load_boards(
            dir,
            loader,
            which,
            &mut board,
            &mut compiler.tables,
            &mut cards,
            &mut card_effects,
        )?;

        let path = dir.join("spells.toml");
        let file: SpellsFile = loader.read_toml(&path)?;
        check_provenance(&path, "provenance", &file.provenance)?;
        let mut spells = Vec::new();
        for (i, s) in file.spells.iter().enumerate() {
            let field = format!("spells[{i}]");
            let effect = SPELL_EFFECT_NAMES
                .iter()
                .find(|(n, _)| *n == s.effect)
                .map(|(_, e)| *e)
                .ok_or_else(|| {
                    let names: Vec<&str> = SPELL_EFFECT_NAMES.iter().map(|(n, _)| *n).collect();
                    ScenarioError::new(
                        &path,
                        format!("{field}.effect"),
                        format!(
                            "unknown spell effect {:?}; expected one of {}",
                            s.effect,
                            names.join(", ")
                        ),
                    )
                })?;
            let blunder = compiler.compile(&path, &format!("{field}.blunder"), &s.blunder)?;
            let spell = Spell {
                name: s.name.clone(),
                effect,
                amount: s.amount,
                cost: s.cost,
                blunder,
            };
            for _ in 0..s.copies {
                spells.push(spell.clone());
            }
        }
        let spell_limit = file.limit_by_craft.clone();
        let auto_cast_craft = file.auto_cast_craft;
        if spells.is_empty() || spells.len() > MAX_SPELLS || spell_limit.is_empty() {
            return Err(ScenarioError::new(
                &path,
                "spells",
                format!("expected 1 to {MAX_SPELLS} spells and a limit_by_craft list"),
            ));
        }

        let path = dir.join("purchases.toml");
        let file: PurchasesFile = loader.read_toml(&path)?;
        check_provenance(&path, "provenance", &file.provenance)?;
        if file.items.len() > MAX_PURCHASES {
            return Err(ScenarioError::new(
                &path,
                "items",
                format!("expected at most {MAX_PURCHASES} purchase items"),
            ));
        }
        let mut purchases = Vec::new();
        for (i, c) in file.items.iter().enumerate() {
            let field = format!("items[{i}]");
            if c.price < 1 {
                return Err(ScenarioError::new(
                    &path,
                    format!("{field}.price"),
                    "expected a price of at least 1 gold",
                ));
            }
            purchases.push(Purchase {
                name: c.name.clone(),
                price: c.price,
                item: item_of(&path, &field, c)?,
            });
        }

        let path = dir.join("endings.toml");
        let file: EndingsFile = loader.read_toml(&path)?;
        check_provenance(&path, "provenance", &file.provenance)?;
        let mut endings = Vec::new();
        for (i, e) in file.endings.iter().enumerate() {
            let kind = match e.kind.as_str() {
                "command_spell" => EndingKind::CommandSpell,
                "guardian" => EndingKind::Guardian,
                "psychic_guardian" => EndingKind::PsychicGuardian,
                "immediate" => EndingKind::Immediate,
                other => {
                    return Err(ScenarioError::new(
                        &path,
                        format!("endings[{i}].kind"),
                        format!(
                            "expected command_spell, guardian, psychic_guardian or immediate, found {other:?}"
                        ),
                    ));
                }
            };
            if kind == EndingKind::CommandSpell && !(2..=6).contains(&e.succeed_on) {
                return Err(ScenarioError::new(
                    &path,
                    format!("endings[{i}].succeed_on"),
                    "expected a success roll of 2 to 6",
                ));
            }
            endings.push(Ending {
                name: e.name.clone(),
                kind,
                succeed_on: e.succeed_on,
                strength: e.strength,
                craft: e.craft,
            });
        }
        if endings.is_empty() || endings.len() > MAX_ENDINGS {
            return Err(ScenarioError::new(
                &path,
                "endings",
                format!(
                    "expected 1 to {MAX_ENDINGS} endings, found {}",
                    endings.len()
                ),
            ));
        }
        for x in &mut expansions {
            if let Some(city) = &mut x.city {
                let path = dir.join("boards").join(format!("{}.toml", x.id));
                super::city::resolve_items(&path, city, &purchases)?;
            }
        }
        let curses = super::curses::load_with(dir, loader)?;
        let market = super::merchants::load(dir, loader, &board, &purchases)?;
        let tables = compiler.tables;
        Ok(Rules {
            board,
            expansions,
            characters,
            cards,
            card_effects,
            tables,
            spells,
            spell_limit,
            auto_cast_craft,
            purchases,
            endings,
            curses,
            market,
        })
    }
}
