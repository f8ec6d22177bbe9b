//! Tournament additions that live on the main board, each switched on by
//! the scenario's `[tournament]` table (all off: the plain main-board game,
//! drawing no extra dice): the starting Purchase Card [Setting up] and the
//! events with a duration, Season, Month and Day, that stay beside the
//! board with a lasting effect until they end [15:4], and the Bite and
//! Favor tokens [20:12-13, 20:15].

use barsoom_engine::model::Trace;
use serde::Deserialize;

use super::character::PURCHASE_BASE;
use super::data::Card;
use super::game::{Cause, Flow, Game, Roll, Source};
use super::policy::Base;

/// Bites at which the player is out of the game [20:13].
pub const BITES_OUT: i32 = 8;
/// Poison tokens a character may hold [20:16].
pub const MAX_POISON: i32 = 5;
/// Favors one character keeps (a bound for the counter).
pub(crate) const MAX_FAVORS: i32 = 20;

/// Deals of a pulled object in a row before the first other item is dealt.
const MAX_REDEALS: u32 = 64;

/// Which tournament additions are played (scenario `[tournament]` table).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Tournament {
    /// Each player is dealt one random Purchase Card at setting up, a
    /// pulled object re-dealt [Setting up].
    pub starting_purchase: bool,
    /// The Purchase deck is limited (the cards of `merchants.toml`) and
    /// each merchant there is stocked with 5 of them at setting up, a card
    /// of another sub-type returned [Setting up: Purchase, 20:1-3].
    pub merchants: bool,
    /// Season, Month and Day events (adventure cards with `timed`) are
    /// shuffled into the deck and last beside the board [15:4].
    pub timed_events: bool,
    /// Cards giving Bite and Favor tokens are shuffled into the deck;
    /// 8 bites put a player out, a favor adds or takes 1 from a roll
    /// [20:12-13, 20:15].
    pub tokens: bool,
    /// Expansion boards played, by the names of their files in the data
    /// folder's `boards/` (e.g. `["dungeon"]`): their Doorway cards are
    /// shuffled into the adventure deck (the City is entered from its
    /// main-board space instead [11:35]) and their own decks are dealt
    /// [11:30-31].
    pub boards: Vec<String>,
    /// The boards played as a mask of expansion indices (set at load).
    #[serde(skip)]
    #[schemars(skip)]
    pub board_mask: u8,
}

impl Tournament {
    /// Whether `card` is shuffled into the main adventure deck.
    pub fn deals(&self, card: &Card) -> bool {
        (card.timed.is_none() || self.timed_events)
            && (!card.tokens || self.tokens)
            && card.deck == 0
            && card.doorway.is_none_or(|k| self.board_on(usize::from(k)))
    }

    /// Whether expansion board `k` is played.
    pub fn board_on(&self, k: usize) -> bool {
        k < 8 && self.board_mask & (1 << k) != 0
    }

    /// Whether `card` is in play in this scenario: in the main deck, or in
    /// the deck of a board played.
    pub fn in_play(&self, card: &Card) -> bool {
        self.deals(card) || (card.deck > 0 && self.board_on(usize::from(card.deck) - 1))
    }
}

/// The sub-types of event that last beside the board [15:4].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timed {
    /// Lasts 5 full rounds.
    Season,
    /// Lasts 3 full rounds.
    Month,
    /// Lasts 3 full rounds.
    Day,
}

/// The sub-types as data spells them, in slot order.
pub(crate) const TIMED_NAMES: [(&str, Timed); 3] = [
    ("season", Timed::Season),
    ("month", Timed::Month),
    ("day", Timed::Day),
];

impl Timed {
    /// Its slot beside the board: one event of each sub-type at a time,
    /// in the order of the enum (and of [`TIMED_NAMES`]).
    pub(crate) fn slot(self) -> usize {
        self as usize
    }

    /// Full rounds it lasts after the round it is drawn in [15:4].
    pub fn rounds(self) -> u32 {
        match self {
            Timed::Season => 5,
            Timed::Month | Timed::Day => 3,
        }
    }
}

/// An event lasting beside the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lasting {
    /// The adventure card.
    pub card: u16,
    /// The last round it is in force; it is discarded when the next begins.
    pub until: u32,
}

impl Game<'_> {
    /// The Purchase Cards of setting up, each as the scenario plays it:
    /// the deck filled (merchants), the starting cards, then the
    /// merchants' stock [Setting up: Purchase].
    pub fn deal_purchases<R: Roll, T: Trace>(&mut self, r: &mut R, trace: &mut T) {
        self.fill_purchase_deck();
        if self.config.tournament.starting_purchase {
            self.deal_starting_purchases(r, trace);
        }
        self.stock_merchants(r, trace);
    }

    /// Deals each player one random Purchase Card for its first character,
    /// dealing again while it is a pulled object [Setting up]. With
    /// unlimited piles (merchants not played) a random card is a uniform
    /// pick among the items; with the limited deck, a pick among its cards.
    /// One the character cannot hold goes back to its pile [20:2].
    pub fn deal_starting_purchases<R: Roll, T: Trace>(&mut self, r: &mut R, trace: &mut T) {
        let rules = self.rules;
        let n = rules.purchases.len();
        if rules.purchases.iter().all(|p| p.item.pulled > 0) {
            return;
        }
        let limited = self.market_rules().is_some();
        let unpulled = |g: &Self, p: &super::data::Purchase, i: usize| {
            p.item.pulled == 0 && (!limited || g.market.pile[i] > 0)
        };
        for seat in 0..self.seats() {
            let mut tries = 0;
            let item = loop {
                let dealt = if limited {
                    self.draw_purchase(r)
                } else {
                    Some(r.pick(n))
                };
                let Some(i) = dealt else {
                    return;
                };
                if rules.purchases[i].item.pulled == 0 {
                    break i;
                }
                if limited {
                    self.market.pile[i] += 1;
                }
                // Dice that keep dealing pulled objects (only scripted ones
                // could) settle on the first other item.
                tries += 1;
                if tries == MAX_REDEALS {
                    let first = (0..n).find(|&j| unpulled(self, &rules.purchases[j], j));
                    let Some(first) = first else {
                        return;
                    };
                    if limited {
                        self.market.pile[first] -= 1;
                    }
                    break first;
                }
                trace.event("Talisman setting up", || {
                    format!(
                        "seat {} is dealt the {}, a pulled object: dealt again",
                        seat + 1,
                        rules.purchases[i].name
                    )
                });
            };
            let kept = self.players[seat]
                .hero
                .take_object(rules, PURCHASE_BASE + item as u16);
            self.stats.starting_purchases += u32::from(kept);
            if !kept {
                self.return_purchase(PURCHASE_BASE + item as u16);
            }
            trace.event("Talisman setting up", || {
                format!(
                    "seat {} is dealt the {}{}",
                    seat + 1,
                    rules.purchases[item].name,
                    if kept {
                        ""
                    } else {
                        ", cannot hold it: back to its pile"
                    }
                )
            });
        }
    }

    /// A Season, Month or Day event goes beside the board, replacing (and
    /// discarding) the one of its sub-type in force; it lasts the rest of
    /// this round and then its full rounds [15:4].
    pub fn begin_lasting_event<T: Trace>(&mut self, card: u16, timed: Timed, trace: &mut T) {
        let slot = timed.slot();
        if let Some(old) = self.lasting[slot] {
            self.discard_card(old.card);
        }
        let until = self.round + timed.rounds();
        self.lasting[slot] = Some(Lasting { card, until });
        self.stats.lasting_events += 1;
        let rules = self.rules;
        trace.event("Talisman 15:4", || {
            format!(
                "{} lasts beside the board to the end of round {until}",
                rules.cards[usize::from(card)].name
            )
        });
    }

    /// At the start of a round, discards the lasting events whose rounds
    /// are over [15:4].
    pub fn end_lasting_events<T: Trace>(&mut self, trace: &mut T) {
        for slot in 0..self.lasting.len() {
            if let Some(l) = self.lasting[slot]
                && l.until < self.round
            {
                self.lasting[slot] = None;
                self.discard_card(l.card);
                let rules = self.rules;
                trace.event("Talisman 15:4", || {
                    format!("{} ends", rules.cards[usize::from(l.card)].name)
                });
            }
        }
    }

    /// The lasting events' effects on a character at the start of each of
    /// its turns, Season first. A lost turn is taken at once.
    pub fn lasting_effects<R: Roll, T: Trace>(&mut self, seat: usize, r: &mut R, trace: &mut T) {
        let rules = self.rules;
        for slot in 0..self.lasting.len() {
            let Some(l) = self.lasting[slot] else {
                continue;
            };
            for &effect in rules.effects_of(usize::from(l.card)) {
                if !self.players[seat].alive {
                    return;
                }
                self.apply(seat, effect, Source::Card(l.card), r, trace);
            }
        }
    }
}

impl Game<'_> {
    /// Takes `amount` Bite tokens; with 8 the player is out of the game at
    /// once, the character's goods staying on its space [20:13].
    pub fn gain_bites<T: Trace>(&mut self, seat: usize, amount: i32, trace: &mut T) -> Flow {
        let hero = &mut self.players[seat].hero;
        hero.bites = (i32::from(hero.bites) + amount).clamp(0, BITES_OUT) as u8;
        self.stats.bites += amount.max(0) as u32;
        if i32::from(self.players[seat].hero.bites) < BITES_OUT {
            return Flow::Continue;
        }
        trace.event("Talisman 20:13", || {
            format!("seat {} has 8 bites and is out of the game", seat + 1)
        });
        self.stats.bitten_out += 1;
        self.remove_character(seat);
        self.players[seat].out = true;
        self.check_last_standing();
        Flow::EndTurn
    }

    /// Takes `amount` Poison tokens [20:16]: at most 5 are held, a life
    /// lost for each one past 5.
    pub fn gain_poison<T: Trace>(
        &mut self,
        seat: usize,
        amount: i32,
        source: Source,
        trace: &mut T,
    ) {
        self.stats.poison += amount.max(0) as u32;
        let hero = &mut self.players[seat].hero;
        let total = i32::from(hero.poison) + amount.max(0);
        hero.poison = total.min(MAX_POISON) as u8;
        trace.event("Talisman 20:16", || {
            format!(
                "seat {} takes {amount} Poison, holds {}",
                seat + 1,
                total.min(MAX_POISON)
            )
        });
        if total > MAX_POISON {
            self.lose_lives(seat, total - MAX_POISON, Cause::Drain, source, trace);
        }
    }

    /// The 1 each Poison token takes from a movement, combat or psychic
    /// combat roll [20:16].
    pub fn poisoned(&self, seat: usize) -> i32 {
        i32::from(self.players[seat].hero.poison)
    }

    /// At the end of a turn with 5 Poison tokens the character loses a
    /// life [20:16].
    pub(crate) fn poison_at_end_of_turn<T: Trace>(&mut self, seat: usize, trace: &mut T) {
        if self.players[seat].alive && self.poisoned(seat) >= MAX_POISON {
            self.lose_lives(seat, 1, Cause::Drain, Source::None, trace);
        }
    }

    /// Takes `amount` Favors [20:15], up to the most a character may hold.
    pub fn gain_favors(&mut self, seat: usize, amount: i32) {
        let hero = &mut self.players[seat].hero;
        hero.favors = (i32::from(hero.favors) + amount).min(MAX_FAVORS) as u8;
        self.stats.favors[0] += amount as u32;
    }

    /// Whether the seat spends a Favor for +1 on a combat roll that
    /// `margin` (its score minus the other's) leaves lost by 1 or a
    /// stand-off [20:15]: one favor a roll. The sensible player always
    /// does; the random one tosses a coin. Returns the 1 added, or 0.
    pub(crate) fn use_favor<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        margin: i32,
        r: &mut R,
        trace: &mut T,
    ) -> i32 {
        if self.players[seat].hero.favors == 0 || !(-1..=0).contains(&margin) {
            return 0;
        }
        let wants = match self.players[seat].policy.base() {
            Base::Sensible(_) => true,
            Base::Random => r.pick(2) == 0,
        };
        if !wants {
            return 0;
        }
        self.players[seat].hero.favors -= 1;
        self.stats.favors[1] += 1;
        trace.event("Talisman 20:15", || {
            format!("seat {} spends a favor: +1 to its roll", seat + 1)
        });
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_sub_type_has_its_own_slot_in_the_order_data_names_them() {
        for (i, (_, timed)) in TIMED_NAMES.iter().enumerate() {
            assert_eq!(timed.slot(), i);
        }
    }
}
