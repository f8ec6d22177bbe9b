//! Curses [19]: a deck of curse cards, drawn at random when a card or
//! space says so (the `draw_curse` mechanic). Each hampers the character
//! for its duration, counted in the character's own turns; when it is
//! over the card goes straight back into the curse deck, which is shuffled
//! [19]. The rulebook leaves the cards themselves to a sheet it does not
//! contain, so `curses.toml` is a reconstruction, and each card names one
//! [`CurseEffect`] from the small fixed set below.
//!
//! Durations count like the toad's three turns [19:1]: the turn in
//! progress is the first when the curse comes in the character's own turn,
//! and the curse ends at the end of its last turn. The deck is kept as the
//! set of cards not in play and a draw is a uniform pick from it, which is
//! the same as drawing the top card of a freshly shuffled deck.

use std::path::Path;

use serde::Deserialize;

use super::character::Hero;
use super::data::Rules;
use super::game::{Game, Roll};
use barsoom_engine::model::Trace;
use barsoom_engine::scenario::{Loader, ScenarioError};

/// The most curse cards a deck may hold (per-game state is fixed-size).
pub(crate) const MAX_CURSES: usize = 16;
/// The most curses one character suffers at once; a draw beyond it is
/// ignored.
pub(crate) const MAX_HELD_CURSES: usize = 4;
/// The longest duration a curse may have, in turns.
pub(crate) const MAX_CURSE_TURNS: u8 = 9;

/// What a curse does while it lasts. Each is a few lines of code; data
/// picks one per card and sizes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CurseEffect {
    /// Turned into a toad for the curse's duration [19:1-8].
    Toad,
    /// Total Strength is `amount` lower (never below 1).
    StrengthPenalty,
    /// Total Craft is `amount` lower (never below 1).
    CraftPenalty,
    /// Spells can be neither cast nor gained (held ones are kept).
    NoSpells,
    /// Movement is one space a turn without a die, as a toad's [19:4].
    OneSpace,
    /// Every turn while cursed is lost.
    LoseTurns,
    /// No gold can be gained (from cards, spaces, abilities or spells).
    NoGold,
}

/// Curse effect names as data spells them.
pub(crate) const CURSE_EFFECT_NAMES: &[(&str, CurseEffect)] = &[
    ("toad", CurseEffect::Toad),
    ("strength_penalty", CurseEffect::StrengthPenalty),
    ("craft_penalty", CurseEffect::CraftPenalty),
    ("no_spells", CurseEffect::NoSpells),
    ("one_space", CurseEffect::OneSpace),
    ("lose_turns", CurseEffect::LoseTurns),
    ("no_gold", CurseEffect::NoGold),
];

/// One curse card.
#[derive(Debug, Clone, PartialEq)]
pub struct Curse {
    /// Its name.
    pub name: String,
    /// How many of the character's turns it lasts.
    pub turns: u8,
    /// What it does.
    pub effect: CurseEffect,
    /// Its size (the penalty of `strength_penalty` and `craft_penalty`).
    pub amount: i32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CursesFile {
    provenance: String,
    curses: Vec<CurseFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CurseFile {
    name: String,
    #[serde(default = "one")]
    copies: u8,
    turns: i64,
    effect: String,
    #[serde(default)]
    amount: i32,
}

fn one() -> u8 {
    1
}

/// [`load_with`] with a fresh [`Loader`], dropped after (no overrides, no
/// fingerprint): a convenience for tests and tools.
pub fn load(dir: &Path) -> Result<Vec<Curse>, ScenarioError> {
    load_with(dir, &mut Loader::default())
}

/// Reads and checks `curses.toml` in `dir`: one entry per physical card.
pub fn load_with(dir: &Path, loader: &mut Loader) -> Result<Vec<Curse>, ScenarioError> {
    let path = dir.join("curses.toml");
    let file: CursesFile = loader.read_toml(&path)?;
    barsoom_engine::scenario::check_provenance(&path, "provenance", &file.provenance)?;
    let mut curses = Vec::new();
    for (i, c) in file.curses.iter().enumerate() {
        let field = |sub: &str| format!("curses[{i}].{sub}");
        let effect = CURSE_EFFECT_NAMES
            .iter()
            .find(|(n, _)| *n == c.effect)
            .map(|(_, e)| *e)
            .ok_or_else(|| {
                let names: Vec<&str> = CURSE_EFFECT_NAMES.iter().map(|(n, _)| *n).collect();
                ScenarioError::new(
                    &path,
                    field("effect"),
                    format!(
                        "unknown curse effect {:?}; expected one of {}",
                        c.effect,
                        names.join(", ")
                    ),
                )
            })?;
        if !(1..=i64::from(MAX_CURSE_TURNS)).contains(&c.turns) {
            return Err(ScenarioError::new(
                &path,
                field("turns"),
                format!(
                    "expected a duration of 1 to {MAX_CURSE_TURNS} turns, found {}",
                    c.turns
                ),
            ));
        }
        let penalty = matches!(
            effect,
            CurseEffect::StrengthPenalty | CurseEffect::CraftPenalty
        );
        if penalty != (1..=6).contains(&c.amount) {
            return Err(ScenarioError::new(
                &path,
                field("amount"),
                format!(
                    "expected an amount of 1 to 6 for a penalty and none otherwise, found {}",
                    c.amount
                ),
            ));
        }
        let curse = Curse {
            name: c.name.clone(),
            turns: c.turns as u8,
            effect,
            amount: c.amount,
        };
        for _ in 0..c.copies {
            curses.push(curse.clone());
        }
    }
    if curses.is_empty() || curses.len() > MAX_CURSES {
        return Err(ScenarioError::new(
            &path,
            "curses",
            format!(
                "expected 1 to {MAX_CURSES} curse cards, found {}",
                curses.len()
            ),
        ));
    }
    Ok(curses)
}

impl Hero {
    /// Curses held, as (curse card, turns left).
    pub fn curse_list(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        let n = usize::from(self.curses_len);
        self.curses[..n]
            .iter()
            .copied()
            .zip(self.curse_turns[..n].iter().copied())
    }

    /// The summed amounts of the held curses with this effect (0: none).
    pub(crate) fn curse_total(&self, curses: &[Curse], effect: CurseEffect) -> i32 {
        if self.curses_len == 0 {
            return 0;
        }
        self.curses[..usize::from(self.curses_len)]
            .iter()
            .map(|&c| &curses[usize::from(c)])
            .filter(|c| c.effect == effect)
            .map(|c| c.amount.max(1))
            .sum()
    }

    /// Whether a held curse has this effect.
    pub fn cursed(&self, curses: &[Curse], effect: CurseEffect) -> bool {
        self.curse_total(curses, effect) > 0
    }

    /// Whether it may cast or gain spells: not a toad [19:5] and not
    /// under a `no_spells` curse.
    pub(crate) fn can_use_spells(&self, rules: &Rules) -> bool {
        self.toad_turns == 0 && !self.cursed(&rules.curses, CurseEffect::NoSpells)
    }

    /// Whether it may gain gold: not a toad [19:2] and not under a
    /// `no_gold` curse.
    pub(crate) fn can_gain_gold(&self, rules: &Rules) -> bool {
        self.toad_turns == 0 && !self.cursed(&rules.curses, CurseEffect::NoGold)
    }
}

/// `total` lowered by a curse's `penalty`, never below 1 (nor raised).
pub(crate) fn after_penalty(total: i32, penalty: i32) -> i32 {
    if penalty == 0 {
        total
    } else {
        (total - penalty).max(total.min(1))
    }
}

impl Game<'_> {
    /// The curse cards in the deck (not held by any character).
    pub fn curse_deck(&self) -> &[u8] {
        &self.curse_deck[..self.curse_len]
    }

    /// Fills the curse deck with every curse card (none in play).
    pub(super) fn fill_curse_deck(&mut self) {
        self.curse_len = self.rules.curses.len().min(MAX_CURSES);
        for i in 0..self.curse_len {
            self.curse_deck[i] = i as u8;
        }
    }

    /// Draws a random curse for the character [19] and lays it on it; none
    /// if the deck is empty or the character already suffers the most.
    pub(crate) fn draw_curse<R: Roll, T: Trace>(&mut self, seat: usize, r: &mut R, trace: &mut T) {
        if self.curse_len == 0 {
            return;
        }
        let card = self.curse_deck[r.pick(self.curse_len)];
        self.lay_curse(seat, card, trace);
    }

    /// Takes curse card `card` out of the deck and lays it on the character
    /// for its duration; a toad curse turns it into a toad for as long
    /// [19:1]. Returns false (and does nothing) if the card is not in the
    /// deck or the character already suffers the most curses.
    pub fn lay_curse<T: Trace>(&mut self, seat: usize, card: u8, trace: &mut T) -> bool {
        let Some(i) = self.curse_deck().iter().position(|&c| c == card) else {
            return false;
        };
        let hero = &mut self.players[seat].hero;
        let n = usize::from(hero.curses_len);
        if n >= MAX_HELD_CURSES {
            return false;
        }
        self.curse_len -= 1;
        self.curse_deck[i] = self.curse_deck[self.curse_len];
        let curse = &self.rules.curses[usize::from(card)];
        let turns = curse.turns;
        hero.curses[n] = card;
        hero.curse_turns[n] = turns;
        hero.curses_len += 1;
        trace.event("Talisman 19", || {
            format!(
                "seat {} is cursed: {} for {turns} turns",
                seat + 1,
                curse.name
            )
        });
        if curse.effect == CurseEffect::Toad {
            self.turn_into_toad(seat, turns, trace);
        }
        self.enforce_limits(seat);
        true
    }

    /// The end of one of the character's turns: every curse has a turn
    /// less to run, and those over go straight back into the deck [19].
    pub(super) fn tick_curses(&mut self, seat: usize) {
        let hero = &mut self.players[seat].hero;
        let mut i = 0;
        while i < usize::from(hero.curses_len) {
            hero.curse_turns[i] = hero.curse_turns[i].saturating_sub(1);
            if hero.curse_turns[i] == 0 {
                let card = remove_curse(hero, i);
                self.curse_deck[self.curse_len] = card;
                self.curse_len += 1;
            } else {
                i += 1;
            }
        }
    }

    /// A dead character's curses go back into the deck [19].
    pub(super) fn return_all_curses(&mut self, seat: usize) {
        let hero = &mut self.players[seat].hero;
        while hero.curses_len > 0 {
            let card = remove_curse(hero, 0);
            self.curse_deck[self.curse_len] = card;
            self.curse_len += 1;
        }
    }
}

/// Takes the held curse at `i` off the hero, closing the gap.
fn remove_curse(hero: &mut Hero, i: usize) -> u8 {
    let n = usize::from(hero.curses_len);
    let card = hero.curses[i];
    hero.curses.copy_within(i + 1..n, i);
    hero.curse_turns.copy_within(i + 1..n, i);
    hero.curses_len -= 1;
    card
}
