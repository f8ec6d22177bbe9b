//! The Movement Deck, cards 066-115 (`movement-deck.toml`): the flier line
//! of each card [22.21], drawn from a shuffled deck and reshuffled when it
//! runs out [9.0 PROCEDURE].

use std::path::Path;

use serde::Deserialize;

use crate::engine::Dice;
use crate::scenario::{ScenarioError, read_toml};

/// Most cards a deck may hold.
pub const MAX_CARDS: usize = 64;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeckFile {
    provenance: String,
    first_card: i64,
    flier: Vec<i64>,
}

/// The cards' flier lines.
#[derive(Debug, Clone, PartialEq)]
pub struct MovementDeck {
    /// Number of the first card (066).
    pub first_card: u16,
    /// Flier line of each card, in haads, in card order; 0 is a "00" card
    /// [9.12].
    pub flier: Vec<u16>,
}

impl MovementDeck {
    /// Loads and checks `movement-deck.toml`.
    pub fn load(file: &Path) -> Result<Self, ScenarioError> {
        let raw: DeckFile = read_toml(file)?;
        if raw.provenance.trim().is_empty() {
            return Err(ScenarioError::new(file, "provenance", "expected a source"));
        }
        if !(0..=999).contains(&raw.first_card) {
            return Err(ScenarioError::new(
                file,
                "first_card",
                format!(
                    "expected a card number of 0 to 999, found {}",
                    raw.first_card
                ),
            ));
        }
        if raw.flier.is_empty() || raw.flier.len() > MAX_CARDS {
            return Err(ScenarioError::new(
                file,
                "flier",
                format!("expected 1 to {MAX_CARDS} cards, found {}", raw.flier.len()),
            ));
        }
        let mut flier = Vec::new();
        for (i, v) in raw.flier.iter().enumerate() {
            if !(0..=10_000).contains(v) {
                return Err(ScenarioError::new(
                    file,
                    format!("flier[{i}]"),
                    format!("expected 0 to 10000 haads, found {v}"),
                ));
            }
            flier.push(*v as u16);
        }
        if flier.iter().all(|v| *v == 0) {
            return Err(ScenarioError::new(
                file,
                "flier",
                "expected at least one card that moves a fleet (all read 00)",
            ));
        }
        Ok(MovementDeck {
            first_card: raw.first_card as u16,
            flier,
        })
    }
}

/// A deck in play: the order of the cards and how many have been drawn.
#[derive(Debug, Clone, Copy)]
pub struct DeckState {
    order: [u8; MAX_CARDS],
    len: u8,
    next: u8,
    /// How many times the deck has been shuffled (the first shuffle
    /// included).
    pub shuffles: u32,
}

impl DeckState {
    /// A freshly shuffled deck of `deck`'s cards.
    pub fn new(deck: &MovementDeck, dice: &mut Dice) -> Self {
        let mut s = DeckState {
            order: [0; MAX_CARDS],
            len: deck.flier.len() as u8,
            next: 0,
            shuffles: 0,
        };
        for (i, o) in s.order.iter_mut().enumerate().take(deck.flier.len()) {
            *o = i as u8;
        }
        s.shuffle(dice);
        s
    }

    /// Fisher-Yates over all cards: the discard pile becomes the deck.
    fn shuffle(&mut self, dice: &mut Dice) {
        let n = usize::from(self.len);
        for i in (1..n).rev() {
            let j = dice.below(i as u32 + 1) as usize;
            self.order.swap(i, j);
        }
        self.next = 0;
        self.shuffles += 1;
    }

    /// Draws the top card: its index in the deck (card number
    /// `first_card + index`). Reshuffles first if the deck is exhausted.
    #[inline]
    pub fn draw(&mut self, dice: &mut Dice) -> usize {
        if self.next == self.len {
            self.shuffle(dice);
        }
        let card = self.order[usize::from(self.next)];
        self.next += 1;
        usize::from(card)
    }

    /// Cards left before the next reshuffle.
    pub fn left(&self) -> usize {
        usize::from(self.len - self.next)
    }
}
