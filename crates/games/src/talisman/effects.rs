//! The effects cards, spaces, spells and blunders may name: the fixed set
//! of [`Mechanic`]s implemented in code (`encounters.rs`), an effect as data
//! writes it, and its compilation into the flat [`Effect`] the game indexes.

use std::path::Path;

use barsoom_engine::scenario::ScenarioError;
use serde::Deserialize;

use super::data::{Alignment, index16};

/// The effects cards, spaces, spells and blunders may name. Each is one
/// small piece of code in `encounters.rs`; data picks and parameterises them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mechanic {
    /// Nothing happens.
    Nothing,
    /// Draw adventure cards until the space holds `amount` [13:4].
    DrawCards,
    /// Gain `amount` gold.
    GainGold,
    /// Lose `amount` gold (as much as there is).
    LoseGold,
    /// Gain `amount` Strength counters.
    GainStrength,
    /// Lose `amount` Strength counters (not below 0) [1:2].
    LoseStrength,
    /// Gain `amount` Craft counters.
    GainCraft,
    /// Lose `amount` Craft counters (not below 0) [2:2].
    LoseCraft,
    /// Gain `amount` lives, above 4 if so [4:6].
    GainLives,
    /// Heal `amount` lives, never above 4 [4:6].
    Heal,
    /// Lose `amount` lives.
    LoseLives,
    /// The character's next turn is lost.
    LoseTurn,
    /// Heal lives at `amount` gold each, up to 4.
    HealForGold,
    /// Buy purchase items.
    Shop,
    /// Draw `amount` spells, within the Craft limit [9:3].
    GainSpells,
    /// Turned into a toad for `amount` turns [19:1].
    Toad,
    /// Draw a random card from the curse deck [19].
    DrawCurse,
    /// Change alignment to the effect's `alignment` [7:1].
    SetAlignment,
    /// Combat with a creature of Strength `strength` + `dice` d6 [16:4].
    Fight,
    /// Psychic combat with a creature of Craft `craft` + `dice` d6 [17:2].
    PsychicFight,
    /// A pack: `count` creatures of Strength `strength`, fought one at a time [16:5].
    Pack,
    /// Gain a Talisman object, if none is held.
    GainTalisman,
    /// Move to the named `space` and encounter it.
    MoveTo,
    /// Roll a die and apply the `table` entry for the face.
    RollTable,
    /// Lose the follower of highest leadership value.
    LoseFollower,
    /// Lose the heaviest carried object.
    LoseObject,
    /// Lose the last pack animal taken, and what it carried or pulled with
    /// it [5:10-11].
    LosePackAnimal,
    /// The Sentinel: the stair up to the middle region [11:10-12].
    Sentinel,
    /// The Portal of Power: roll `dice` d6 against Strength or Craft [11:21-24].
    Portal,
    /// The Valley of Fire: only with a Talisman [11:6].
    ValleyOfFire,
    /// The Crown of Command and its ending card [11:7, 14:6].
    Crown,
    /// Take `amount` Bite tokens; at 8 the player is out [20:13].
    GainBites,
    /// Take `amount` Favors [20:15].
    GainFavors,
    /// Take `amount` Poison tokens [20:16].
    GainPoison,
}

/// Mechanic names as data spells them.
pub(crate) const MECHANIC_NAMES: &[(&str, Mechanic)] = &[
    ("nothing", Mechanic::Nothing),
    ("draw_cards", Mechanic::DrawCards),
    ("gain_gold", Mechanic::GainGold),
    ("lose_gold", Mechanic::LoseGold),
    ("gain_strength", Mechanic::GainStrength),
    ("lose_strength", Mechanic::LoseStrength),
    ("gain_craft", Mechanic::GainCraft),
    ("lose_craft", Mechanic::LoseCraft),
    ("gain_lives", Mechanic::GainLives),
    ("heal", Mechanic::Heal),
    ("lose_lives", Mechanic::LoseLives),
    ("lose_turn", Mechanic::LoseTurn),
    ("heal_for_gold", Mechanic::HealForGold),
    ("shop", Mechanic::Shop),
    ("gain_spells", Mechanic::GainSpells),
    ("toad", Mechanic::Toad),
    ("draw_curse", Mechanic::DrawCurse),
    ("set_alignment", Mechanic::SetAlignment),
    ("fight", Mechanic::Fight),
    ("psychic_fight", Mechanic::PsychicFight),
    ("pack", Mechanic::Pack),
    ("gain_talisman", Mechanic::GainTalisman),
    ("move_to", Mechanic::MoveTo),
    ("roll_table", Mechanic::RollTable),
    ("lose_follower", Mechanic::LoseFollower),
    ("lose_object", Mechanic::LoseObject),
    ("lose_pack_animal", Mechanic::LosePackAnimal),
    ("sentinel", Mechanic::Sentinel),
    ("portal", Mechanic::Portal),
    ("valley_of_fire", Mechanic::ValleyOfFire),
    ("crown", Mechanic::Crown),
    ("gain_bites", Mechanic::GainBites),
    ("gain_favors", Mechanic::GainFavors),
    ("gain_poison", Mechanic::GainPoison),
];

/// One compiled effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Effect {
    /// What it does.
    pub mechanic: Mechanic,
    /// Its size (gold, lives, counters, cards, turns, price).
    pub amount: i32,
    /// Creature Strength for fights and packs.
    pub strength: i32,
    /// Creature Craft for psychic fights; for the Portal, 1 means "Craft".
    pub craft: i32,
    /// Dice added to the creature (fights) or rolled (Portal).
    pub dice: u8,
    /// Creatures in a pack.
    pub count: u8,
    /// Applies only to characters of this alignment.
    pub only: Option<Alignment>,
    /// Alignment set by `set_alignment`.
    pub alignment: Option<Alignment>,
    /// Target space of `move_to`.
    pub space: u16,
    /// First of the six entries of a roll table in [`Rules::tables`].
    pub table: u16,
}

impl Effect {
    /// An effect that does nothing.
    pub const NOTHING: Effect = Effect {
        mechanic: Mechanic::Nothing,
        amount: 0,
        strength: 0,
        craft: 0,
        dice: 0,
        count: 0,
        only: None,
        alignment: None,
        space: 0,
        table: 0,
    };
}

/// An effect as written in data.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EffectFile {
    effect: String,
    #[serde(default)]
    amount: i32,
    #[serde(default)]
    strength: i32,
    #[serde(default)]
    craft: i32,
    #[serde(default)]
    dice: u8,
    #[serde(default)]
    count: u8,
    only: Option<String>,
    alignment: Option<String>,
    space: Option<String>,
    table: Option<Vec<EffectFile>>,
    /// `psychic = true` on a portal: roll against Craft instead of Strength.
    #[serde(default)]
    psychic: bool,
}

impl EffectFile {
    /// Whether it names the Crown of Command.
    pub(crate) fn is_crown(&self) -> bool {
        self.effect == "crown"
    }
}

/// Compiles effects, resolving space names and flattening roll tables.
pub(crate) struct EffectCompiler<'a> {
    /// Space names, for `move_to`.
    pub space_names: &'a [String],
    /// Roll-table entries, six per table.
    pub tables: Vec<Effect>,
}

impl EffectCompiler<'_> {
    /// Compiles one effect; `field` names it in errors.
    pub(crate) fn compile(
        &mut self,
        file: &Path,
        field: &str,
        e: &EffectFile,
    ) -> Result<Effect, ScenarioError> {
        let err =
            |sub: &str, message: String| ScenarioError::new(file, format!("{field}{sub}"), message);
        let mechanic = MECHANIC_NAMES
            .iter()
            .find(|(name, _)| *name == e.effect)
            .map(|(_, m)| *m)
            .ok_or_else(|| {
                let names: Vec<&str> = MECHANIC_NAMES.iter().map(|(n, _)| *n).collect();
                err(
                    ".effect",
                    format!(
                        "unknown effect {:?}; expected one of {}",
                        e.effect,
                        names.join(", ")
                    ),
                )
            })?;
        let alignment_of = |text: &Option<String>, sub: &str| -> Result<_, ScenarioError> {
            match text {
                None => Ok(None),
                Some(t) => Alignment::parse(t).map(Some).ok_or_else(|| {
                    err(sub, format!("expected good, neutral or evil, found {t:?}"))
                }),
            }
        };
        if !(-20..=20).contains(&e.amount) || !(0..=30).contains(&e.strength) {
            return Err(err(
                ".amount",
                "expected an amount in -20..=20 and a strength in 0..=30".into(),
            ));
        }
        let mut effect = Effect {
            mechanic,
            amount: e.amount,
            strength: e.strength,
            craft: if mechanic == Mechanic::Portal {
                i32::from(e.psychic)
            } else {
                e.craft
            },
            dice: e.dice.min(3),
            count: e.count,
            only: alignment_of(&e.only, ".only")?,
            alignment: alignment_of(&e.alignment, ".alignment")?,
            space: 0,
            table: 0,
        };
        match mechanic {
            Mechanic::MoveTo => {
                let name = e
                    .space
                    .as_deref()
                    .ok_or_else(|| err(".space", "expected the name of a space".into()))?;
                let index = self
                    .space_names
                    .iter()
                    .position(|s| s == name)
                    .ok_or_else(|| err(".space", format!("no space named {name:?}")))?;
                effect.space = index as u16;
            }
            Mechanic::RollTable => {
                let table = e.table.as_ref().filter(|t| t.len() == 6).ok_or_else(|| {
                    err(".table", "expected six entries, one per die face".into())
                })?;
                let mut entries = [Effect::NOTHING; 6];
                for (i, entry) in table.iter().enumerate() {
                    if entry.effect == "roll_table" {
                        return Err(err(
                            &format!(".table[{i}]"),
                            "a roll-table entry cannot be another roll table".into(),
                        ));
                    }
                    entries[i] = self.compile(file, &format!("{field}.table[{i}]"), entry)?;
                }
                effect.table = index16(file, field, self.tables.len())?;
                self.tables.extend_from_slice(&entries);
                index16(file, field, self.tables.len())?;
            }
            Mechanic::SetAlignment if effect.alignment.is_none() => {
                return Err(err(".alignment", "expected good, neutral or evil".into()));
            }
            Mechanic::GainBites | Mechanic::GainFavors | Mechanic::GainPoison if e.amount < 1 => {
                return Err(err(".amount", "expected at least 1 token".into()));
            }
            Mechanic::Pack if e.count == 0 => {
                return Err(err(".count", "expected a pack of at least 1".into()));
            }
            _ => {}
        }
        Ok(effect)
    }
}
