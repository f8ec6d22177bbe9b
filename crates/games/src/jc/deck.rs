//! The Movement Deck, cards 066-115 (`movement-deck.toml`), shared by the
//! Military Game (the flier line [22.21]) and the Strategic Game (the line
//! of the hero's conveyance: walking, thoat or flier [9.1]): cards drawn
//! from a shuffled deck and reshuffled when it runs out [9.0 PROCEDURE].

use barsoom_engine::scenario::Load;

use std::path::Path;

use serde::Deserialize;

use super::map::{FLIER, THOAT};
use barsoom_engine::Dice;
use barsoom_engine::scenario::{Loader, ScenarioError, check_provenance};

/// Most cards a deck may hold.
pub(crate) const MAX_CARDS: usize = 64;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeckFile {
    provenance: String,
    first_card: i64,
    flier: Vec<i64>,
    thoat: Vec<i64>,
    walk: Vec<i64>,
}

/// The cards' three lines.
#[derive(Debug, Clone, PartialEq)]
pub struct MovementDeck {
    /// Number of the first card (066).
    pub first_card: u16,
    /// Flier line of each card, in haads, in card order; 0 is a "00" card
    /// [9.12].
    pub flier: Vec<u16>,
    /// Thoat line of each card, in haads.
    pub thoat: Vec<u16>,
    /// Walking line of each card, in haads.
    pub walk: Vec<u16>,
}

impl MovementDeck {
    /// The line of one conveyance ([`super::map::WALK`], [`THOAT`] or [`FLIER`] from
    /// `map`); any other value reads the walking line.
    pub fn line(&self, conveyance: u8) -> &[u16] {
        match conveyance {
            FLIER => &self.flier,
            THOAT => &self.thoat,
            _ => &self.walk,
        }
    }

    /// The mean of a conveyance's line, in haads.
    pub fn mean(&self, conveyance: u8) -> f64 {
        let line = self.line(conveyance);
        line.iter().map(|v| f64::from(*v)).sum::<f64>() / line.len().max(1) as f64
    }
}

impl Load for MovementDeck {
    /// Loads and checks `movement-deck.toml`.
    fn load_with(file: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let raw: DeckFile = loader.read_toml(file)?;
        check_provenance(file, "provenance", &raw.provenance)?;
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
        let line = |name: &str, values: &[i64]| -> Result<Vec<u16>, ScenarioError> {
            if values.len() != raw.flier.len() {
                return Err(ScenarioError::new(
                    file,
                    name,
                    format!(
                        "expected one value per card ({}, as the flier line), found {}",
                        raw.flier.len(),
                        values.len()
                    ),
                ));
            }
            values
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    if (0..=10_000).contains(v) {
                        Ok(*v as u16)
                    } else {
                        Err(ScenarioError::new(
                            file,
                            format!("{name}[{i}]"),
                            format!("expected 0 to 10000 haads, found {v}"),
                        ))
                    }
                })
                .collect()
        };
        let flier = line("flier", &raw.flier)?;
        let thoat = line("thoat", &raw.thoat)?;
        let walk = line("walk", &raw.walk)?;
        for (name, values) in [("flier", &flier), ("thoat", &thoat), ("walk", &walk)] {
            if values.iter().all(|v| *v == 0) {
                return Err(ScenarioError::new(
                    file,
                    name,
                    "expected at least one card that moves (all read 00)",
                ));
            }
        }
        Ok(MovementDeck {
            first_card: raw.first_card as u16,
            flier,
            thoat,
            walk,
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
        Self::with_cards(deck.flier.len(), |n| dice.below(n))
    }

    /// A freshly shuffled deck of `cards` cards, shuffled with `below(n)`
    /// (a uniform number in `0..n`).
    pub(crate) fn with_cards(cards: usize, below: impl FnMut(u32) -> u32) -> Self {
        let mut s = DeckState {
            order: [0; MAX_CARDS],
            len: cards.min(MAX_CARDS) as u8,
            next: 0,
            shuffles: 0,
        };
        for (i, o) in s.order.iter_mut().enumerate().take(usize::from(s.len)) {
            *o = i as u8;
        }
        s.shuffle(below);
        s
    }

    /// Fisher-Yates over all cards: the discard pile becomes the deck.
    fn shuffle(&mut self, mut below: impl FnMut(u32) -> u32) {
        let n = usize::from(self.len);
        for i in (1..n).rev() {
            let j = below(i as u32 + 1) as usize;
            self.order.swap(i, j);
        }
        self.next = 0;
        self.shuffles += 1;
    }

    /// Draws the top card: its index in the deck (card number
    /// `first_card + index`). Reshuffles first if the deck is exhausted.
    #[inline]
    pub fn draw(&mut self, dice: &mut Dice) -> usize {
        self.draw_with(|n| dice.below(n))
    }

    /// [`DeckState::draw`] with the reshuffle's numbers from `below(n)`.
    #[inline]
    pub(crate) fn draw_with(&mut self, below: impl FnMut(u32) -> u32) -> usize {
        if self.next == self.len {
            self.shuffle(below);
        }
        let card = self.order[usize::from(self.next)];
        self.next += 1;
        usize::from(card)
    }

    /// Shuffles the cards not yet drawn among themselves, with `below(n)`
    /// (a uniform number in `0..n`): the deck as a player who has seen
    /// the drawn cards but not the rest can picture it.
    pub(crate) fn shuffle_rest(&mut self, mut below: impl FnMut(u32) -> u32) {
        let start = usize::from(self.next);
        let n = usize::from(self.len);
        for i in (start + 1..n).rev() {
            let j = start + below((i - start) as u32 + 1) as usize;
            self.order.swap(i, j);
        }
    }

    /// Cards left before the next reshuffle.
    pub fn left(&self) -> usize {
        usize::from(self.len - self.next)
    }
}
