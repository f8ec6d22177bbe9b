//! Merchants and the limited Purchase deck [Setting up: Purchase, 20:1-3],
//! switched on by the scenario's `[tournament] merchants` (off: the piles
//! are unlimited and every shop sells every item, drawing no extra dice).
//!
//! The data file `merchants.toml` beside the other data gives the Purchase
//! deck (how many cards of each purchase item, and its sub-type) and the
//! spaces with the merchant's gold-bag symbol, each with the sub-types it
//! deals in. At setting up, after the starting Purchase Cards, each
//! merchant is dealt 5 cards from the deck; a card of a sub-type it does
//! not deal in goes back to the deck, and the rest are its stock, sold
//! only on its space [Setting up: Purchase]. A shop (the space effect
//! `shop`) sells what is left in the deck, and a merchant's space its
//! stock as well; an item with no card left is out of stock and the chance
//! to buy it is lost [20:1]. A purchase card a character parts with goes
//! back to the deck, never to the discards or onto a space [20:2, 20:3].
//!
//! Damaged armour [16:11]: with the purchase economy played, armour
//! damaged instead of a wound leaves the character a damaged card of its
//! kind (head, body or shield), which a blacksmith (the spaces the data
//! names) repairs for its price by trading it for the basic purchase item
//! of that kind from the deck, whatever the armour was before; with none
//! left in the deck the repair must wait [20:1].

use std::path::Path;

use barsoom_engine::model::Trace;
use barsoom_engine::scenario::{Loader, ScenarioError, check_provenance};
use serde::Deserialize;

use super::board::Board;
use super::character::{PURCHASE_BASE, WORN_SLOTS, slot_index};
use super::data::{MAX_PURCHASES, Mechanic, Purchase};
use super::game::{Game, Roll};

/// Cards dealt to each merchant at setting up [Setting up: Purchase].
pub const STOCK: usize = 5;
/// The most merchants one data folder may have (per-game state is fixed-size).
pub const MAX_MERCHANTS: usize = 8;
/// The most cards of one purchase item in the deck.
const MAX_COPIES: u8 = 16;
/// The most sub-types (a merchant's are a bit mask).
const MAX_SUB_TYPES: usize = 16;

/// A merchant: its space and the sub-types it deals in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merchant {
    /// The space with the gold-bag symbol.
    pub space: u16,
    /// The sub-types it deals in, as a mask of indices into
    /// [`MarketRules::sub_types`].
    pub sells: u16,
}

/// The Purchase deck and the merchants, compiled from `merchants.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MarketRules {
    /// Per purchase item (in the order of `purchases.toml`): its cards in
    /// the deck.
    pub cards: Vec<u8>,
    /// Per purchase item: its sub-type.
    pub sub_type: Vec<u8>,
    /// The sub-types' names.
    pub sub_types: Vec<String>,
    /// The merchants, in the order they are stocked.
    pub merchants: Vec<Merchant>,
    /// The spaces with a blacksmith, who repairs damaged armour [16:11].
    pub blacksmiths: Vec<u16>,
    /// The blacksmith's price for one repair, in gold.
    pub repair_price: i32,
}

/// `merchants.toml` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MerchantsFile {
    provenance: String,
    deck: Vec<DeckEntry>,
    merchants: Vec<MerchantFile>,
    #[serde(default)]
    blacksmiths: Vec<String>,
    #[serde(default)]
    repair_price: i32,
}

/// One purchase item's cards as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeckEntry {
    item: String,
    cards: u8,
    sub_type: String,
}

/// One merchant as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MerchantFile {
    space: String,
    sells: Vec<String>,
}

/// Reads `dir/merchants.toml`, if the data folder has one: every purchase
/// item named once with its cards and sub-type, every merchant on a space
/// of the board dealing in sub-types some item has.
pub(crate) fn load(
    dir: &Path,
    loader: &mut Loader,
    board: &Board,
    purchases: &[Purchase],
) -> Result<Option<MarketRules>, ScenarioError> {
    let path = dir.join("merchants.toml");
    if !path.is_file() {
        return Ok(None);
    }
    let file: MerchantsFile = loader.read_toml(&path)?;
    check_provenance(&path, "provenance", &file.provenance)?;
    let err = |field: String, message: String| ScenarioError::new(&path, field, message);
    let mut rules = MarketRules {
        cards: vec![0; purchases.len()],
        sub_type: vec![0; purchases.len()],
        ..MarketRules::default()
    };
    let mut named = vec![false; purchases.len()];
    for (j, e) in file.deck.iter().enumerate() {
        let field = format!("deck[{j}]");
        let i = purchases
            .iter()
            .position(|p| p.name == e.item)
            .ok_or_else(|| {
                let names: Vec<&str> = purchases.iter().map(|p| p.name.as_str()).collect();
                err(
                    format!("{field}.item"),
                    format!(
                        "unknown purchase item {:?}; expected one of purchases.toml's: {}",
                        e.item,
                        names.join(", ")
                    ),
                )
            })?;
        if named[i] {
            return Err(err(
                format!("{field}.item"),
                format!("{:?} is named twice: expected each item once", e.item),
            ));
        }
        named[i] = true;
        if !(1..=MAX_COPIES).contains(&e.cards) {
            return Err(err(
                format!("{field}.cards"),
                format!("expected 1 to {MAX_COPIES} cards"),
            ));
        }
        let simple = !e.sub_type.is_empty() && e.sub_type.len() <= 32;
        if !simple {
            return Err(err(
                format!("{field}.sub_type"),
                "expected a sub-type name of 1 to 32 characters".into(),
            ));
        }
        let t = match rules.sub_types.iter().position(|t| *t == e.sub_type) {
            Some(t) => t,
            None if rules.sub_types.len() < MAX_SUB_TYPES => {
                rules.sub_types.push(e.sub_type.clone());
                rules.sub_types.len() - 1
            }
            None => {
                return Err(err(
                    format!("{field}.sub_type"),
                    format!("expected at most {MAX_SUB_TYPES} sub-types"),
                ));
            }
        };
        rules.cards[i] = e.cards;
        rules.sub_type[i] = t as u8;
    }
    if let Some(i) = named.iter().position(|n| !n) {
        return Err(err(
            "deck".into(),
            format!(
                "expected every purchase item's cards: {:?} is missing",
                purchases[i].name
            ),
        ));
    }
    if file.merchants.len() > MAX_MERCHANTS {
        return Err(err(
            "merchants".into(),
            format!("expected at most {MAX_MERCHANTS} merchants"),
        ));
    }
    for (j, m) in file.merchants.iter().enumerate() {
        let field = format!("merchants[{j}]");
        let space = board.space_index(&m.space).ok_or_else(|| {
            err(
                format!("{field}.space"),
                format!("unknown space {:?}: expected a space of the board", m.space),
            )
        })?;
        if rules
            .merchants
            .iter()
            .any(|o| usize::from(o.space) == space)
        {
            return Err(err(
                format!("{field}.space"),
                format!("{:?} already has a merchant", m.space),
            ));
        }
        let mut sells = 0u16;
        for (k, name) in m.sells.iter().enumerate() {
            let t = rules
                .sub_types
                .iter()
                .position(|t| t == name)
                .ok_or_else(|| {
                    err(
                        format!("{field}.sells[{k}]"),
                        format!(
                            "unknown sub-type {name:?}; expected one the deck's items have: {}",
                            rules.sub_types.join(", ")
                        ),
                    )
                })?;
            sells |= 1 << t;
        }
        if sells == 0 {
            return Err(err(
                format!("{field}.sells"),
                "expected the sub-types the merchant deals in".into(),
            ));
        }
        rules.merchants.push(Merchant {
            space: space as u16,
            sells,
        });
    }
    for (j, name) in file.blacksmiths.iter().enumerate() {
        let space = board.space_index(name).ok_or_else(|| {
            err(
                format!("blacksmiths[{j}]"),
                format!("unknown space {name:?}: expected a space of the board"),
            )
        })?;
        rules.blacksmiths.push(space as u16);
    }
    if !rules.blacksmiths.is_empty() && !(1..=20).contains(&file.repair_price) {
        return Err(err(
            "repair_price".into(),
            "expected the blacksmith's price, 1 to 20 gold".into(),
        ));
    }
    rules.repair_price = file.repair_price;
    Ok(Some(rules))
}

/// The Purchase deck and the merchants' stock in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Market {
    /// Per purchase item: its cards left in the deck.
    pub pile: [u8; MAX_PURCHASES],
    /// Per merchant: the purchase items in its stock.
    pub stock: [[u8; STOCK]; MAX_MERCHANTS],
    /// How many each holds.
    pub stock_len: [u8; MAX_MERCHANTS],
}

impl Default for Market {
    fn default() -> Self {
        Market {
            pile: [0; MAX_PURCHASES],
            stock: [[0; STOCK]; MAX_MERCHANTS],
            stock_len: [0; MAX_MERCHANTS],
        }
    }
}

impl Market {
    /// The stock of merchant `m`.
    pub fn stock_of(&self, m: usize) -> &[u8] {
        &self.stock[m][..usize::from(self.stock_len[m])]
    }
}

impl<'a> Game<'a> {
    /// The Purchase deck and merchants, when the scenario plays them.
    pub(crate) fn market_rules(&self) -> Option<&'a MarketRules> {
        let rules: &'a super::data::Rules = self.rules;
        if self.config.tournament.merchants {
            rules.market.as_ref()
        } else {
            None
        }
    }

    /// The merchant on `space`, if any (and merchants are played).
    pub fn merchant_at(&self, space: usize) -> Option<usize> {
        self.market_rules()?
            .merchants
            .iter()
            .position(|m| usize::from(m.space) == space)
    }

    /// Puts every card in the Purchase deck.
    pub fn fill_purchase_deck(&mut self) {
        if let Some(m) = self.market_rules() {
            let n = m.cards.len();
            self.market.pile[..n].copy_from_slice(&m.cards);
        }
    }

    /// Deals a random card of the Purchase deck (a pick among its cards):
    /// the purchase item, taken out of the deck; `None` if it is empty.
    pub(crate) fn draw_purchase<R: Roll>(&mut self, r: &mut R) -> Option<usize> {
        let pile = &mut self.market.pile[..self.rules.purchases.len()];
        let total: usize = pile.iter().map(|&c| usize::from(c)).sum();
        if total == 0 {
            return None;
        }
        let mut k = r.pick(total);
        for (i, c) in pile.iter_mut().enumerate() {
            if k < usize::from(*c) {
                *c -= 1;
                return Some(i);
            }
            k -= usize::from(*c);
        }
        None
    }

    /// A purchase card goes back to its pile in the deck [20:2]; with
    /// unlimited piles (merchants not played) there is nothing to count.
    pub(crate) fn return_purchase(&mut self, card: u16) {
        let Some(m) = self.market_rules() else {
            return;
        };
        let i = usize::from(card - PURCHASE_BASE);
        if let Some(&cards) = m.cards.get(i) {
            self.market.pile[i] = (self.market.pile[i] + 1).min(cards);
        }
    }

    /// Deals 5 Purchase Cards to each merchant, in data order; a card of a
    /// sub-type the merchant does not deal in goes back to the deck
    /// [Setting up: Purchase].
    pub fn stock_merchants<R: Roll, T: Trace>(&mut self, r: &mut R, trace: &mut T) {
        let Some(m) = self.market_rules() else {
            return;
        };
        let rules = self.rules;
        for (k, merchant) in m.merchants.iter().enumerate() {
            self.market.stock_len[k] = 0;
            // A merchant in a store of a board not played has no stock.
            if self
                .expansion_at(usize::from(merchant.space))
                .is_some_and(|b| !self.config.tournament.board_on(b))
            {
                continue;
            }
            for _ in 0..STOCK {
                let Some(i) = self.draw_purchase(r) else {
                    break;
                };
                let here = &rules.board.spaces[usize::from(merchant.space)].name;
                if merchant.sells & (1 << m.sub_type[i]) == 0 {
                    self.market.pile[i] += 1;
                    trace.event("Talisman setting up", || {
                        format!(
                            "the merchant on {here} is dealt the {}, not its sub-type: back to the deck",
                            rules.purchases[i].name
                        )
                    });
                    continue;
                }
                let n = usize::from(self.market.stock_len[k]);
                self.market.stock[k][n] = i as u8;
                self.market.stock_len[k] += 1;
                trace.event("Talisman setting up", || {
                    format!(
                        "the merchant on {here} stocks the {}",
                        rules.purchases[i].name
                    )
                });
            }
        }
    }

    /// The purchase items on sale to the character of `seat` on its space
    /// at `gold` or less, into `out`; returns how many. Merchants not
    /// played: every item (unlimited piles). Played: the items left in the
    /// deck where the space has a shop (`deck`), and the stock of the
    /// space's merchant; an item with no card left is out of stock [20:1].
    pub(crate) fn for_sale(
        &self,
        seat: usize,
        deck: bool,
        gold: i32,
        out: &mut [usize; MAX_PURCHASES],
    ) -> usize {
        let rules = self.rules;
        let space = usize::from(self.players[seat].hero.space);
        let on = self.market_rules().is_some();
        let stock = self
            .merchant_at(space)
            .map_or(&[][..], |m| self.market.stock_of(m));
        // A City store sells only its own items [11:41].
        let only = self.store_items(space);
        let mut n = 0;
        for (i, p) in rules.purchases.iter().enumerate() {
            let available =
                (!on || (deck && self.market.pile[i] > 0) || stock.contains(&(i as u8)))
                    && only & (1 << i) != 0;
            if available && p.price <= gold && n < MAX_PURCHASES {
                out[n] = i;
                n += 1;
            }
        }
        n
    }

    /// Item `i` is sold to the character of `seat`: out of the stock of
    /// the merchant on its space if it has one, else out of the deck.
    pub(crate) fn sell(&mut self, seat: usize, i: usize) {
        self.stats.purchases[0] += 1;
        if self.market_rules().is_none() {
            return;
        }
        let space = usize::from(self.players[seat].hero.space);
        if let Some(m) = self.merchant_at(space)
            && let Some(j) = self.market.stock_of(m).iter().position(|&s| s == i as u8)
        {
            let n = usize::from(self.market.stock_len[m]);
            self.market.stock[m].copy_within(j + 1..n, j);
            self.market.stock_len[m] -= 1;
            self.stats.purchases[1] += 1;
            return;
        }
        self.market.pile[i] = self.market.pile[i].saturating_sub(1);
    }

    /// After the space's own instructions, a merchant on a space with no
    /// shop of its own sells its stock there (a toad buys nothing).
    pub(crate) fn merchant_sells<R: Roll>(&mut self, seat: usize, space: usize, r: &mut R) {
        let hero = &self.players[seat].hero;
        if self.merchant_at(space).is_none()
            || hero.toad_turns > 0
            || usize::from(hero.space) != space
            || !self.players[seat].alive
            || self
                .rules
                .board
                .effects_of(space)
                .iter()
                .any(|e| e.mechanic == Mechanic::Shop)
        {
            return;
        }
        self.shop(seat, false, r);
    }
}

impl Game<'_> {
    /// Armour damaged instead of a wound leaves a damaged card of its kind
    /// when the purchase economy is played [16:11].
    pub(crate) fn take_damaged_armour(&mut self, seat: usize, slot: usize) {
        if self.market_rules().is_some() {
            self.players[seat].hero.damaged |= 1 << slot;
        }
    }

    /// The basic purchase item of worn slot `slot`: the first item of that
    /// kind with an armour save.
    fn basic_armour(&self, slot: usize) -> Option<usize> {
        self.rules
            .purchases
            .iter()
            .position(|p| slot_index(p.item.slot) == Some(slot) && p.item.save > 0)
    }

    /// On a blacksmith's space, each damaged armour card the player wants
    /// repaired and can pay for is traded for the basic item of its kind
    /// from the Purchase deck [16:11]; with none left there, not yet [20:1].
    pub(crate) fn repair_armour<R: Roll>(&mut self, seat: usize, r: &mut R) {
        let Some(m) = self.market_rules() else {
            return;
        };
        let rules = self.rules;
        let price = m.repair_price;
        if !m.blacksmiths.contains(&self.players[seat].hero.space) {
            return;
        }
        for slot in 0..WORN_SLOTS {
            let hero = &self.players[seat].hero;
            if hero.damaged & (1 << slot) == 0 || hero.gold < price {
                continue;
            }
            let Some(i) = self.basic_armour(slot) else {
                continue;
            };
            if self.market.pile[i] == 0 || !self.wants_repair(seat, slot, r) {
                continue;
            }
            let hero = &mut self.players[seat].hero;
            if !hero.take_object(rules, PURCHASE_BASE + i as u16) {
                continue;
            }
            hero.gold -= price;
            hero.damaged &= !(1 << slot);
            self.market.pile[i] -= 1;
            self.stats.purchases[2] += 1;
        }
    }
}
