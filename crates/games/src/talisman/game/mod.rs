//! The game: deal, turns [10], movement [11], death and the next character
//! [4:3], the Crown and its ending [14:5, 14:6, 21], and the
//! `talisman.game` model with its outcomes and metrics. Per-game state is
//! fixed-size and lives on the stack; nothing is allocated per game.
//!
//! This file holds the game state, the deal, the decks, death and the turn;
//! `movement` holds movement, the inner region and the Crown; `boards` the
//! doorways and the expansion boards [11:30-46]; `model` holds
//! the scenario file, the output spec and the `Model` impl.

use barsoom_engine::model::Trace;

use super::character::Hero;
use super::curses::{CurseEffect, MAX_CURSES};
use super::data::{Ability, MAX_CARDS, MAX_SPELLS, Rules};
use super::expansion::{BOARD_CARDS, MAX_BOARDS};
use super::merchants::Market;
use super::policy::{Base, Policy};
use super::tournament::{Lasting, Tournament};
use barsoom_engine::search::{self, Branching, SearchSlot};

mod boards;
mod city;
mod model;
mod movement;
mod playouts;
mod vault;

pub use model::{
    METRIC_CARDS_DRAWN, METRIC_CHARACTERS, METRIC_CROWN_ROUND, METRIC_DEATHS,
    METRIC_LIVES_TO_ENEMIES, METRIC_LIVES_TO_SPIRITS, METRIC_ROUNDS, METRIC_SEAT_WON,
    METRIC_WINNER_CRAFT, METRIC_WINNER_SEAT, METRIC_WINNER_STRENGTH, TalismanGame,
    outcome_unfinished,
};

/// The most players.
pub const MAX_PLAYERS: usize = 6;
/// The most character cards dealt to one player.
pub(crate) const MAX_HAND: usize = 4;
/// The most cards left face up on one space (more are discarded).
pub(crate) const PILE: usize = 8;
/// The most spaces (see [`super::board::MAX_SPACES`]).
pub(crate) const SPACES: usize = super::board::MAX_SPACES;

/// Talisman rolls through the engine's dice trait: the trial's dice in
/// play, scripted dice in tests.
pub use barsoom_engine::Roll;
pub use city::{
    CITY_DESTINATIONS, CITY_STAY, CityDest, STATUTE_BARRED, STATUTE_COMBAT, STATUTE_NO_MONEY,
    STATUTE_SPELL, STATUTE_STEAL,
};
pub use vault::VAULT_BITES;

/// Why a character died.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// Combat with an enemy or a space's creature.
    Enemy,
    /// Psychic combat with a spirit or a space's creature.
    Spirit,
    /// Another character.
    Character,
    /// A space, event, stranger or place.
    Space,
    /// The ending card (the command spell or a guardian).
    Ending,
    /// Strength or Craft at 0 [1:3, 2:3].
    Drain,
    /// A spell's blunder.
    Blunder,
}

/// Every cause, in metric order.
pub(crate) const CAUSES: [Cause; 7] = [
    Cause::Enemy,
    Cause::Spirit,
    Cause::Character,
    Cause::Space,
    Cause::Ending,
    Cause::Drain,
    Cause::Blunder,
];

/// Short names of the causes, in the order of [`CAUSES`].
pub const CAUSE_NAMES: [&str; 7] = [
    "enemy",
    "spirit",
    "character",
    "space",
    "ending",
    "drain",
    "blunder",
];

/// What a step of an encounter lets happen next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Go on with the encounter.
    Continue,
    /// The turn ends (a lost combat, a stand-off, a lost turn, death).
    EndTurn,
}

/// One seat.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Player {
    /// The character in play (meaningful while `alive`).
    pub hero: Hero,
    /// Whether its character is on the board.
    pub alive: bool,
    /// Whether the player is out of the game.
    pub out: bool,
    /// Character cards dealt and not yet used.
    pub hand: [u8; MAX_HAND],
    /// How many remain in the hand.
    pub hand_len: u8,
    /// Characters played so far.
    pub played: u8,
    /// How it plays.
    pub policy: Policy,
    /// Whether it cast a spell this turn [9:11].
    pub cast_this_turn: bool,
}

/// Per-game counts for the outputs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameStats {
    /// Deaths by cause (index of [`CAUSES`]).
    pub deaths: [u32; 7],
    /// Lives lost in combat with enemies, and with spirits.
    pub lives_to_creatures: [u32; 2],
    /// Adventure cards drawn.
    pub cards_drawn: u32,
    /// Per adventure card: times encountered.
    pub card_met: [u16; MAX_CARDS],
    /// Per adventure card: lives it took.
    pub card_lives: [u16; MAX_CARDS],
    /// Per adventure card: characters it killed.
    pub card_kills: [u16; MAX_CARDS],
    /// Per character card: times it died, by cause.
    pub character_deaths: [[u8; 7]; 32],
    /// Per character card: times it came into play.
    pub character_played: [u8; 32],
    /// Round the Crown was first reached (0: never).
    pub crown_round: u32,
    /// Starting Purchase Cards kept [Setting up].
    pub starting_purchases: u32,
    /// Season, Month and Day events that went beside the board [15:4].
    pub lasting_events: u32,
    /// Bite tokens taken [20:13].
    pub bites: u32,
    /// Players out of the game with 8 bites [20:13].
    pub bitten_out: u32,
    /// Poison tokens taken [20:16].
    pub poison: u32,
    /// Favors gained, and used on a die roll [20:15].
    pub favors: [u32; 2],
    /// Per expansion board: characters brought onto it through a doorway [11:33].
    pub board_visits: [u32; MAX_BOARDS],
    /// Per expansion board: characters that came onto it at least once.
    pub board_characters: [u32; MAX_BOARDS],
    /// Per expansion board: characters that died on its spaces.
    pub board_deaths: [u32; MAX_BOARDS],
    /// Per expansion board: ventures to its final space [11:46].
    pub board_ventures: [u32; MAX_BOARDS],
    /// Pack animals left at a doorway [11:34] or outside a City store [11:42].
    pub animals_left: u32,
    /// Purchase items bought, those from a merchant's stock, and damaged
    /// armour repaired [20:1, 16:11].
    pub purchases: [u32; 3],
    /// The City [13:14, 20:10-11]: turns ended there with a statute
    /// broken, warrants issued, arrests by the Watch, and characters taken
    /// to the Donjon (arrests and 16:9).
    pub city: [u32; 4],
}

impl Default for GameStats {
    fn default() -> Self {
        GameStats {
            deaths: [0; 7],
            lives_to_creatures: [0; 2],
            cards_drawn: 0,
            card_met: [0; MAX_CARDS],
            card_lives: [0; MAX_CARDS],
            card_kills: [0; MAX_CARDS],
            character_deaths: [[0; 7]; 32],
            character_played: [0; 32],
            crown_round: 0,
            starting_purchases: 0,
            lasting_events: 0,
            bites: 0,
            poison: 0,
            bitten_out: 0,
            favors: [0; 2],
            board_visits: [0; MAX_BOARDS],
            board_characters: [0; MAX_BOARDS],
            board_deaths: [0; MAX_BOARDS],
            board_ventures: [0; MAX_BOARDS],
            animals_left: 0,
            purchases: [0; 3],
            city: [0; 4],
        }
    }
}

/// Where a life was lost, for the card counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// No card.
    None,
    /// Adventure card `n`.
    Card(u16),
}

/// The scenario's settings for the game.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Number of players.
    pub players: usize,
    /// Each seat's policy.
    pub policies: [Policy; MAX_PLAYERS],
    /// A fixed first character per seat (`None`: dealt at random).
    pub first: [Option<u8>; MAX_PLAYERS],
    /// Characters dealt to each player (capped so at least one is left out).
    pub hand: usize,
    /// Rounds after which the game is unfinished.
    pub max_rounds: u32,
    /// Ending cards that may be dealt to the Crown.
    pub endings: Vec<u8>,
    /// Rounds a search player's playout looks ahead (0: to the end).
    pub search_horizon: u32,
    /// The tournament additions played on the main board.
    pub tournament: Tournament,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// Seat `seat` won with character card `character`.
    Won {
        /// Seat index (0 is the first player).
        seat: usize,
        /// The winning character card.
        character: usize,
    },
    /// Every player went out.
    NoSurvivor,
    /// The round limit came first.
    Unfinished,
}

/// One game in progress. A copy is a search playout's starting point.
#[derive(Clone)]
pub struct Game<'a> {
    /// The data.
    pub rules: &'a Rules,
    /// The settings.
    pub config: &'a Config,
    /// The seats, first player first.
    pub players: [Player; MAX_PLAYERS],
    deck: [u16; MAX_CARDS],
    deck_len: usize,
    discard: [u16; MAX_CARDS],
    discard_len: usize,
    spell_deck: [u8; MAX_SPELLS],
    spell_len: usize,
    spell_discard: [u8; MAX_SPELLS],
    spell_discard_len: usize,
    /// Curse cards not in play [19] (a draw is a uniform pick).
    pub(super) curse_deck: [u8; MAX_CURSES],
    /// How many are in the deck.
    pub(super) curse_len: usize,
    /// Each expansion board's adventure deck [11:30].
    pub(super) board_deck: [[u16; BOARD_CARDS]; MAX_BOARDS],
    /// How many cards each holds.
    pub(super) board_deck_len: [u8; MAX_BOARDS],
    /// Each expansion board's discards.
    pub(super) board_discard: [[u16; BOARD_CARDS]; MAX_BOARDS],
    /// How many cards each holds.
    pub(super) board_discard_len: [u8; MAX_BOARDS],
    /// Cards face up on each space.
    pub pile: [[u16; PILE]; SPACES],
    /// How many on each space.
    pub pile_len: [u8; SPACES],
    /// Gold left on each space.
    pub space_gold: [u16; SPACES],
    /// Season, Month and Day events beside the board [15:4].
    pub lasting: [Option<Lasting>; 3],
    /// The Purchase deck and the merchants' stock [20:1].
    pub market: Market,
    /// The ending card at the Crown.
    pub ending: usize,
    /// Whether someone has reached the Crown and drawn the ending [4:3].
    pub crown_reached: bool,
    /// Rounds begun.
    pub round: u32,
    /// How it ended, once it has.
    pub end: Option<End>,
    /// Counts for the outputs.
    pub stats: GameStats,
    /// Depth of `move_to` chains (a guard against loops in data).
    pub(super) hops: u8,
    /// The seat whose turn comes next (0 starts a round).
    next_seat: usize,
    /// Decisions for the search player.
    branching: Branching,
    /// The live game's searcher, when a seat searches.
    search: SearchSlot<Game<'a>>,
}

impl<'a> Game<'a> {
    /// A new game before the deal.
    pub fn new(rules: &'a Rules, config: &'a Config) -> Game<'a> {
        let blank = Player {
            hero: Hero::new(rules, 0),
            alive: false,
            out: true,
            hand: [0; MAX_HAND],
            hand_len: 0,
            played: 0,
            policy: Policy::Random,
            cast_this_turn: false,
        };
        let mut game = Game {
            rules,
            config,
            players: [blank; MAX_PLAYERS],
            deck: [0; MAX_CARDS],
            deck_len: 0,
            discard: [0; MAX_CARDS],
            discard_len: 0,
            spell_deck: [0; MAX_SPELLS],
            spell_len: 0,
            spell_discard: [0; MAX_SPELLS],
            spell_discard_len: 0,
            curse_deck: [0; MAX_CURSES],
            curse_len: 0,
            board_deck: [[0; BOARD_CARDS]; MAX_BOARDS],
            board_deck_len: [0; MAX_BOARDS],
            board_discard: [[0; BOARD_CARDS]; MAX_BOARDS],
            board_discard_len: [0; MAX_BOARDS],
            pile: [[0; PILE]; SPACES],
            pile_len: [0; SPACES],
            space_gold: [0; SPACES],
            lasting: [None; 3],
            market: Market::default(),
            ending: 0,
            crown_reached: false,
            round: 0,
            end: None,
            stats: GameStats::default(),
            hops: 0,
            next_seat: 0,
            branching: Branching::default(),
            search: SearchSlot::default(),
        };
        game.fill_curse_deck();
        game
    }

    /// Number of players.
    pub fn seats(&self) -> usize {
        self.config.players
    }

    /// Shuffles the decks, deals characters [Setting up], places the first
    /// characters and deals the ending card.
    pub fn setup<R: Roll>(&mut self, r: &mut R) {
        let rules = self.rules;
        // Season, Month and Day events [15:4], and cards that give tokens
        // [20:12], are in the deck only when played.
        self.deck_len = 0;
        for (i, card) in rules.cards.iter().enumerate() {
            if self.config.tournament.deals(card) {
                self.deck[self.deck_len] = i as u16;
                self.deck_len += 1;
            }
        }
        shuffle(&mut self.deck[..self.deck_len], r);
        self.deal_board_decks(r);
        self.spell_len = rules.spells.len();
        for i in 0..self.spell_len {
            self.spell_deck[i] = i as u8;
        }
        shuffle(&mut self.spell_deck[..self.spell_len], r);
        // The curse deck needs no shuffle: every draw is a random pick.
        self.fill_curse_deck();
        // Character cards: fixed first choices come out of the pack first.
        let n = self.seats();
        let mut pack = [0u8; 32];
        let mut pack_len = 0;
        for c in 0..rules.characters.len().min(32) {
            if !self.config.first[..n].contains(&Some(c as u8)) {
                pack[pack_len] = c as u8;
                pack_len += 1;
            }
        }
        shuffle(&mut pack[..pack_len], r);
        let fixed = self.config.first[..n]
            .iter()
            .filter(|f| f.is_some())
            .count();
        // Deal as many rounds as leave at least one card out, up to `hand`.
        let total = pack_len + fixed;
        let hand = self.config.hand.min((total - 1) / n).clamp(1, MAX_HAND);
        let mut next = 0;
        for seat in 0..n {
            let policy = self.config.policies[seat];
            let p = &mut self.players[seat];
            p.policy = policy;
            p.out = false;
            p.hand_len = 0;
            if let Some(c) = self.config.first[seat] {
                p.hand[0] = c;
                p.hand_len = 1;
            }
            while usize::from(p.hand_len) < hand && next < pack_len {
                p.hand[usize::from(p.hand_len)] = pack[next];
                p.hand_len += 1;
                next += 1;
            }
        }
        for seat in 0..n {
            self.enter_next_character(seat, r);
        }
        let e = &self.config.endings;
        self.ending = usize::from(e[r.pick(e.len())]);
    }

    /// Brings the player's next character into play, the first in hand
    /// for a fixed seat and the strongest on paper for the sensible player
    /// [4:3]. Returns false if none is left.
    pub(crate) fn enter_next_character<R: Roll>(&mut self, seat: usize, r: &mut R) -> bool {
        let rules = self.rules;
        let p = &mut self.players[seat];
        if p.hand_len == 0 {
            p.out = true;
            p.alive = false;
            return false;
        }
        let fixed = p.played == 0 && self.config.first[seat].is_some();
        let choices = if fixed { 1 } else { usize::from(p.hand_len) };
        let choice = search::decide(
            self,
            (),
            seat,
            "character",
            choices,
            |g, _| {
                let p = &g.players[seat];
                match p.policy.base() {
                    Base::Sensible(_) if !fixed => (0..usize::from(p.hand_len))
                        .max_by_key(|&i| {
                            let c = &rules.characters[usize::from(p.hand[i])];
                            (c.strength + c.craft, std::cmp::Reverse(i))
                        })
                        .unwrap_or(0),
                    _ => 0,
                }
            },
            r,
        );
        let p = &mut self.players[seat];
        let card = p.hand[choice];
        let len = usize::from(p.hand_len);
        p.hand.copy_within(choice + 1..len, choice);
        p.hand_len -= 1;
        p.hero = Hero::new(rules, usize::from(card));
        p.alive = true;
        p.played += 1;
        self.stats.character_played[usize::from(card) % 32] += 1;
        let start = rules.characters[usize::from(card)]
            .ability(Ability::StartSpells)
            .unwrap_or(0);
        self.draw_spells(seat, start);
        true
    }

    /// Draws the next adventure card (reshuffling the discards when the
    /// deck runs out [13:13]); `None` if every card is in play.
    pub(crate) fn draw_card<R: Roll>(&mut self, r: &mut R) -> Option<u16> {
        if self.deck_len == 0 {
            if self.discard_len == 0 {
                return None;
            }
            self.deck[..self.discard_len].copy_from_slice(&self.discard[..self.discard_len]);
            self.deck_len = self.discard_len;
            self.discard_len = 0;
            shuffle(&mut self.deck[..self.deck_len], r);
        }
        self.deck_len -= 1;
        self.stats.cards_drawn += 1;
        Some(self.deck[self.deck_len])
    }

    /// Puts an adventure card on the discard pile (purchase items go back
    /// to their pile, which is unlimited [20:2]).
    pub(crate) fn discard_card(&mut self, card: u16) {
        if card >= super::character::PURCHASE_BASE {
            self.return_purchase(card);
        } else if self.rules.cards[usize::from(card)].deck > 0 {
            self.discard_board_card(card);
        } else if self.discard_len < MAX_CARDS {
            self.discard[self.discard_len] = card;
            self.discard_len += 1;
        }
    }

    /// Takes the first Talisman card still in the deck or discards [13:13].
    pub(crate) fn search_talisman(&mut self) -> Option<u16> {
        let rules = self.rules;
        let is_talisman = |c: &u16| rules.cards[usize::from(*c)].item.talisman;
        if let Some(i) = self.deck[..self.deck_len].iter().position(is_talisman) {
            let card = self.deck[i];
            self.deck.copy_within(i + 1..self.deck_len, i);
            self.deck_len -= 1;
            return Some(card);
        }
        if let Some(i) = self.discard[..self.discard_len]
            .iter()
            .position(is_talisman)
        {
            let card = self.discard[i];
            self.discard.copy_within(i + 1..self.discard_len, i);
            self.discard_len -= 1;
            return Some(card);
        }
        None
    }

    /// Leaves a card face up on a space (discarded if the space is full);
    /// a purchase card goes back to its pile instead [20:2-3].
    pub fn place_card(&mut self, space: usize, card: u16) {
        let len = usize::from(self.pile_len[space]);
        if card >= super::character::PURCHASE_BASE {
            self.return_purchase(card);
            return;
        }
        if len < PILE {
            self.pile[space][len] = card;
            self.pile_len[space] += 1;
        } else {
            self.discard_card(card);
        }
    }

    /// Leaves a card a character parts with on a space [5:4, 4:3]; a raft
    /// is never left behind but discarded [11:19].
    pub(crate) fn leave_card(&mut self, space: usize, card: u16) {
        if self.rules.item(card).raft {
            self.discard_card(card);
        } else {
            self.place_card(space, card);
        }
    }

    /// Removes the card at `index` of a space's pile.
    pub fn remove_from_pile(&mut self, space: usize, index: usize) -> u16 {
        let len = usize::from(self.pile_len[space]);
        let card = self.pile[space][index];
        self.pile[space].copy_within(index + 1..len, index);
        self.pile_len[space] -= 1;
        card
    }

    /// Draws up to `n` spells within the Craft limit [2:6, 9:3].
    pub(crate) fn draw_spells(&mut self, seat: usize, n: i32) {
        for _ in 0..n.max(0) {
            let hero = &self.players[seat].hero;
            let limit = self
                .rules
                .spell_limit_for(hero.total_craft(self.rules))
                .min(super::character::MAX_HELD_SPELLS);
            if !hero.can_use_spells(self.rules) || usize::from(hero.spells_len) >= limit {
                return;
            }
            if self.spell_len == 0 {
                if self.spell_discard_len == 0 {
                    return;
                }
                // Discards come back in the order they went (no dice here,
                // so that drawing spells never needs a roller).
                self.spell_deck[..self.spell_discard_len]
                    .copy_from_slice(&self.spell_discard[..self.spell_discard_len]);
                self.spell_len = self.spell_discard_len;
                self.spell_discard_len = 0;
            }
            self.spell_len -= 1;
            let spell = self.spell_deck[self.spell_len];
            let hero = &mut self.players[seat].hero;
            hero.spells[usize::from(hero.spells_len)] = spell;
            hero.spells_len += 1;
        }
    }

    /// Puts a spell on the discard pile.
    pub(crate) fn discard_spell(&mut self, spell: u8) {
        if self.spell_discard_len < MAX_SPELLS {
            self.spell_discard[self.spell_discard_len] = spell;
            self.spell_discard_len += 1;
        }
    }

    /// Discards spells beyond the Craft limit [2:8].
    pub(crate) fn enforce_spell_limit(&mut self, seat: usize) {
        // Toads and cursed characters keep their spells for when they
        // are themselves again [19:5].
        let limit = self
            .rules
            .spell_limit_for(self.players[seat].hero.craft_apart_from_curses(self.rules));
        while usize::from(self.players[seat].hero.spells_len) > limit {
            let hero = &mut self.players[seat].hero;
            hero.spells_len -= 1;
            let s = hero.spells[usize::from(hero.spells_len)];
            self.discard_spell(s);
        }
    }

    /// Drops what exceeds encumbrance, leadership and alignment onto the
    /// character's space [5:13, 6:6, 7:3], and surplus spells [2:8].
    pub fn enforce_limits(&mut self, seat: usize) {
        let rules = self.rules;
        let space = usize::from(self.players[seat].hero.space);
        let mut dropped = [0u16; 32];
        let mut n = 0;
        self.players[seat].hero.enforce_limits(rules, |c| {
            if n < dropped.len() {
                dropped[n] = c;
                n += 1;
            }
        });
        for &c in &dropped[..n] {
            self.leave_card(space, c);
        }
        self.enforce_spell_limit(seat);
    }

    /// Takes `amount` lives from a seat's character; at 0 it dies [4:3].
    /// Returns whether it died.
    pub fn lose_lives<T: Trace>(
        &mut self,
        seat: usize,
        amount: i32,
        cause: Cause,
        source: Source,
        trace: &mut T,
    ) -> bool {
        if amount <= 0 || !self.players[seat].alive {
            return false;
        }
        let hero = &mut self.players[seat].hero;
        let lost = amount.min(hero.lives);
        hero.lives -= amount;
        match cause {
            Cause::Enemy => self.stats.lives_to_creatures[0] += lost as u32,
            Cause::Spirit => self.stats.lives_to_creatures[1] += lost as u32,
            _ => {}
        }
        if let Source::Card(c) = source {
            self.stats.card_lives[usize::from(c)] += lost as u16;
        }
        if self.players[seat].hero.lives > 0 {
            return false;
        }
        self.kill(seat, cause, source, trace);
        true
    }

    /// A character dies [4:3]: its objects, followers and gold stay on its
    /// space, its spells are discarded; the player brings in the next dealt
    /// character next turn unless someone has reached the Crown.
    pub fn kill<T: Trace>(&mut self, seat: usize, cause: Cause, source: Source, trace: &mut T) {
        let rules = self.rules;
        let cause_index = CAUSES.iter().position(|c| *c == cause).unwrap_or(0);
        self.stats.deaths[cause_index] += 1;
        let card = usize::from(self.players[seat].hero.card);
        self.stats.character_deaths[card % 32][cause_index] += 1;
        if let Source::Card(c) = source {
            self.stats.card_kills[usize::from(c)] += 1;
        }
        trace.event("Talisman 4:3", || {
            format!(
                "seat {} ({}) dies ({})",
                seat + 1,
                rules.characters[card].name,
                CAUSE_NAMES[cause_index]
            )
        });
        if let Some(k) = self.expansion_at(usize::from(self.players[seat].hero.space)) {
            self.stats.board_deaths[k] += 1;
        }
        self.remove_character(seat);
        let p = &mut self.players[seat];
        if self.crown_reached || p.hand_len == 0 {
            p.out = true;
        }
        self.check_last_standing();
    }

    /// Takes a character off the board: its goods stay on its space, its
    /// spells are discarded and its curses go back to their deck [4:3].
    pub(crate) fn remove_character(&mut self, seat: usize) {
        let mut hero = self.players[seat].hero;
        self.leave_belongings(&mut hero);
        for &s in &hero.spells[..usize::from(hero.spells_len)] {
            self.discard_spell(s);
        }
        self.return_all_curses(seat);
        self.players[seat].alive = false;
    }

    /// Leaves everything `hero` carries on its space: objects and followers
    /// as cards there, its gold as gold there [4:3, 19:1].
    pub(super) fn leave_belongings(&mut self, hero: &mut Hero) {
        let space = usize::from(hero.space);
        let mut dropped = [0u16; 32];
        let mut n = 0;
        hero.drop_everything(|c| {
            if n < dropped.len() {
                dropped[n] = c;
                n += 1;
            }
        });
        for &c in &dropped[..n] {
            self.leave_card(space, c);
        }
        self.space_gold[space] += hero.gold.max(0) as u16;
        hero.gold = 0;
    }

    /// Once no other player can come back, the last character standing
    /// wins [21]; if none is left, nobody does.
    pub(crate) fn check_last_standing(&mut self) {
        if self.end.is_some() {
            return;
        }
        let n = self.seats();
        let mut in_game = 0;
        let mut last = 0;
        for s in 0..n {
            if !self.players[s].out {
                in_game += 1;
                last = s;
            }
        }
        if in_game == 0 {
            self.end = Some(End::NoSurvivor);
        } else if in_game == 1 && self.players[last].alive {
            self.end = Some(End::Won {
                seat: last,
                character: usize::from(self.players[last].hero.card),
            });
        }
    }

    /// Plays the whole game.
    pub fn play<R: Roll, T: Trace>(&mut self, r: &mut R, trace: &mut T) -> End {
        self.setup(r);
        self.deal_purchases(r, trace);
        if T::ENABLED {
            let names: Vec<String> = (0..self.seats())
                .map(|s| {
                    let p = &self.players[s];
                    format!(
                        "seat {}: {} ({})",
                        s + 1,
                        self.rules.characters[usize::from(p.hero.card)].name,
                        p.policy.name()
                    )
                })
                .collect();
            trace.event("Talisman setting up", || names.join(", "));
        }
        if self.config.policies[..self.seats()]
            .iter()
            .any(|p| matches!(p, Policy::Search(_)))
        {
            self.search = SearchSlot::live(T::ENABLED);
        }
        self.play_turns(r, trace, u64::MAX);
        self.end.unwrap_or(End::Unfinished)
    }

    /// Plays on from the start of the next turn, for at most `turns` turns
    /// or until the game ends (or the round limit comes).
    fn play_turns<R: Roll, T: Trace>(&mut self, r: &mut R, trace: &mut T, turns: u64) {
        let mut played = 0;
        while self.end.is_none() && played < turns {
            search::turn_boundary(self, r);
            if self.next_seat == 0 {
                if self.round >= self.config.max_rounds {
                    self.end = Some(End::Unfinished);
                    break;
                }
                self.round += 1;
                self.end_lasting_events(trace);
            }
            let seat = self.next_seat;
            self.next_seat = (seat + 1) % self.seats();
            self.turn(seat, r, trace);
            if T::ENABLED {
                for line in self.search.take_notes() {
                    trace.event("search", || line);
                }
            }
            played += 1;
        }
    }

    /// One player's turn [10:1].
    pub fn turn<R: Roll, T: Trace>(&mut self, seat: usize, r: &mut R, trace: &mut T) {
        if self.players[seat].out {
            return;
        }
        if !self.players[seat].alive && !self.enter_next_character(seat, r) {
            self.check_last_standing();
            return;
        }
        for p in self.players.iter_mut() {
            p.cast_this_turn = false;
        }
        // The City's statutes count what is broken in this turn [20:11].
        self.players[seat].hero.statutes = 0;
        // Organisation, part 1 [10:3], with turn-start abilities.
        if self.start_of_turn(seat, r, trace) == Flow::EndTurn {
            return;
        }
        let hero = self.players[seat].hero;
        if hero.lost_turns > 0 {
            self.players[seat].hero.lost_turns -= 1;
            self.end_of_turn(seat, trace);
            return;
        }
        if hero.cursed(&self.rules.curses, CurseEffect::LoseTurns) {
            trace.event("Talisman 19", || {
                format!("seat {} loses the turn to a curse", seat + 1)
            });
            self.end_of_turn(seat, trace);
            return;
        }
        self.hops = 0;
        self.movement(seat, r, trace);
        if self.players[seat].alive {
            self.statutes_at_end_of_turn(seat, r, trace);
        }
        if self.players[seat].alive {
            self.end_of_turn(seat, trace);
        }
    }

    fn start_of_turn<R: Roll, T: Trace>(&mut self, seat: usize, r: &mut R, trace: &mut T) -> Flow {
        let rules = self.rules;
        // Organisation [10:3]: objects on pack animals come to hand where they fit.
        self.players[seat].hero.unpack(rules);
        let hero = self.players[seat].hero;
        // Strength or Craft at 0 costs a life a turn [1:3, 2:3].
        if (hero.strength <= 0 || hero.craft <= 0)
            && hero.toad_turns == 0
            && self.lose_lives(seat, 1, Cause::Drain, Source::None, trace)
        {
            return Flow::EndTurn;
        }
        if let Some(n) = hero.ability(rules, Ability::Prayer)
            && hero.lives < super::character::HEAL_CAP
            && r.d6() >= n
        {
            self.players[seat].hero.heal(1);
        }
        if let Some(n) = hero.ability(rules, Ability::Trade)
            && r.d6() >= n
            && hero.can_gain_gold(rules)
        {
            self.players[seat].hero.gold += 1;
        }
        if let Some(n) = hero.ability(rules, Ability::SpellEachTurn) {
            let missing = n - i32::from(self.players[seat].hero.spells_len);
            self.draw_spells(seat, missing);
        }
        self.turn_start_spells(seat, r, trace);
        self.lasting_effects(seat, r, trace);
        if self.players[seat].alive {
            Flow::Continue
        } else {
            Flow::EndTurn
        }
    }

    fn end_of_turn<T: Trace>(&mut self, seat: usize, trace: &mut T) {
        let rules = self.rules;
        let hero = &mut self.players[seat].hero;
        if hero.toad_turns > 0 {
            hero.toad_turns -= 1;
        }
        self.tick_curses(seat);
        let hero = &mut self.players[seat].hero;
        // A raft acquired this turn crosses from the next [11:17].
        hero.raft_fresh = false;
        // Organisation [10:3].
        hero.unpack(rules);
        self.enforce_limits(seat);
        self.poison_at_end_of_turn(seat, trace);
    }
}

/// Fisher–Yates shuffle with the game's dice.
pub(crate) fn shuffle<X, R: Roll>(items: &mut [X], r: &mut R) {
    for i in (1..items.len()).rev() {
        let j = r.pick(i + 1);
        items.swap(i, j);
    }
}
