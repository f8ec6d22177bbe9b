//! The City in play [11:35, 11:38, 11:41-43, 11:47, 13:14, 16:9, 20:3,
//! 20:10-11] (its data: `talisman/city.rs`).
//!
//! - **In and out.** A character on the main-board space that leads to
//!   the City may, at the start of its move and in place of it, go to the
//!   City's gate and meet it [11:35]. In the City a move is a die either
//!   way round the loop of streets; a count that reaches the gate with
//!   some left may go out through it, the main-board space counting as the
//!   first space and the rest going on round the outer ring either way
//!   (exit by normal count, no stop at the gate [11:38]).
//! - **Stores** [11:41-43, 11:47]. A store is entered from the street
//!   space with its arrow, reached or passed within the count (no exact
//!   count; what is left is lost); pack animals wait on that street [11:42];
//!   the store entered on the last move cannot be entered on this one, and
//!   a move from a store starts on its street, which is the first space
//!   counted [11:43].
//! - **Statutes** [13:14]: combat in the streets (no. 1), casting a spell
//!   in the street (no. 5), stealing from a character (no. 6), being a
//!   character the City bars (nos. 7-8) and having no gold (no. 9). A turn
//!   that ends in the City with any broken turns over the City deck's top
//!   card: a Law card issues a Warrant and the Watch fights at once
//!   [20:11]. With a warrant, each Law card met brings a fight with the
//!   Watch [20:10]. A loss to the Watch is an arrest: the Donjon.
//! - **The Donjon** (our reading: the text names it but gives no
//!   instructions): the prisoner loses the Donjon's turns, its warrant is
//!   served and discarded (never left on a space [20:3]), and it then
//!   moves out by the Donjon's street. A victor may send a beaten warrant
//!   holder there instead of taking spoils [16:9].

use barsoom_engine::model::Trace;
use barsoom_engine::search;

use crate::talisman::city::{CityRules, Law, UNSEEN_WATCH};
use crate::talisman::combat::Result3;
use crate::talisman::curses::CurseEffect;
use crate::talisman::data::Rules;
use crate::talisman::policy::{Base, SensibleKnobs};

use super::{Game, Roll, Source};

/// Statute 1 [13:14]: combat in the City's streets.
pub const STATUTE_COMBAT: u8 = 1;
/// Statute 5: casting a spell in the street.
pub const STATUTE_SPELL: u8 = 2;
/// Statute 6: stealing from a character.
pub const STATUTE_STEAL: u8 = 4;
/// Statutes 7 and 8: a follower of Chaos or a race the City bars.
pub const STATUTE_BARRED: u8 = 8;
/// Statute 9: no money at all.
pub const STATUTE_NO_MONEY: u8 = 16;

/// Moves in the City after which the sensible player heads out (ours).
pub const CITY_STAY: u8 = 4;
/// No store.
const NONE: u16 = u16::MAX;
/// The most destinations one City move may offer.
pub const CITY_DESTINATIONS: usize = 48;

/// Where a move in the City may end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CityDest {
    /// A street space.
    Street(u16),
    /// A store, entered from its street [11:41].
    Store(u16),
    /// Out through the gate onto this main-board space [11:38].
    Out(u16),
}

impl<'a> Game<'a> {
    /// The City board played that `space` is on, with its index.
    pub(crate) fn city_at(&self, space: usize) -> Option<(usize, &'a CityRules)> {
        let k = self.expansion_at(space)?;
        let rules: &'a Rules = self.rules;
        let city = rules.expansions[k].city.as_ref()?;
        self.config.tournament.board_on(k).then_some((k, city))
    }

    /// The first City board played.
    fn city_played(&self) -> Option<&'a CityRules> {
        let rules: &'a Rules = self.rules;
        rules
            .expansions
            .iter()
            .enumerate()
            .find(|(k, x)| x.city.is_some() && self.config.tournament.board_on(*k))
            .and_then(|(_, x)| x.city.as_ref())
    }

    /// Puts adventure card `card` on top of expansion board `k`'s deck, to
    /// be drawn next (a scripted game's set-up: the deck is otherwise
    /// dealt shuffled).
    pub fn put_on_board_deck(&mut self, k: usize, card: u16) {
        let n = usize::from(self.board_deck_len[k]);
        if n < self.board_deck[k].len() {
            self.board_deck[k][n] = card;
            self.board_deck_len[k] += 1;
        }
    }

    /// The purchase items a shop on `space` sells, as a mask (a City
    /// store's list; everywhere else every item).
    pub(crate) fn store_items(&self, space: usize) -> u64 {
        self.city_at(space)
            .and_then(|(_, c)| c.store_at(space))
            .map_or(u64::MAX, |s| s.items)
    }

    /// The City played that main-board space `space` leads to [11:35].
    pub(super) fn city_entered_from(&self, space: usize) -> Option<usize> {
        self.rules.expansions.iter().enumerate().position(|(k, x)| {
            x.city
                .as_ref()
                .is_some_and(|c| usize::from(c.entry) == space)
                && self.config.tournament.board_on(k)
        })
    }

    /// Puts the character on City `k`'s gate, in place of its move
    /// [11:35] (`doorway_move` offers it and meets the gate after).
    pub(super) fn enter_city<T: Trace>(&mut self, seat: usize, k: usize, trace: &mut T) {
        let rules = self.rules;
        self.place_on_board(seat, k);
        let hero = &mut self.players[seat].hero;
        hero.last_store = NONE;
        hero.city_moves = 0;
        trace.event("Talisman 11:35", || {
            format!(
                "seat {} enters {} by {}",
                seat + 1,
                rules.expansions[k].name,
                rules.board.spaces[usize::from(rules.expansions[k].entrance)].name
            )
        });
    }

    /// Whether the sensible player goes into the City [11:35]: it holds
    /// no warrant, the statutes do not bar it, it has gold to spend (at
    /// least 2: a store's price, and never none [13:14 no. 9]) and it is
    /// not yet ready for the Crown.
    pub(crate) fn city_worth(&self, seat: usize, k: &SensibleKnobs) -> bool {
        let rules = self.rules;
        let h = &self.players[seat].hero;
        let barred = self
            .city_played()
            .is_some_and(|c| c.barred.contains(&h.card));
        let ready = self.power(seat) >= k.inward_threshold && h.has_talisman(rules);
        !h.warrant && !barred && h.gold >= 2 && !ready
    }

    /// A move in City `k` [11:38, 11:41-43, 11:47]: a die either way round
    /// the streets, into a store on the way, or out through the gate.
    pub(super) fn city_move<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        k: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let rules = self.rules;
        let Some(city) = rules.expansions[k].city.as_ref() else {
            return;
        };
        let hero = &mut self.players[seat].hero;
        let here = usize::from(hero.space);
        let last = hero.last_store;
        // The move back after a defeat belongs to the spiral boards [11:40].
        hero.beaten = false;
        hero.last_store = NONE;
        hero.city_moves = hero.city_moves.saturating_add(1);
        let hero = *hero;
        let die = if hero.toad_turns > 0 || hero.cursed(&rules.curses, CurseEffect::OneSpace) {
            1
        } else {
            self.movement_roll(seat, r)
        };
        let mut options = [CityDest::Street(0); CITY_DESTINATIONS];
        let n = self.city_destinations(city, here, die, last, &mut options);
        let options = &options[..n];
        let pick = search::decide(
            self,
            (),
            seat,
            "city move",
            n,
            |g, r| match g.players[seat].policy.base() {
                Base::Random => r.pick(n),
                Base::Sensible(kn) => {
                    let mut best = (0, f64::NEG_INFINITY);
                    for (i, &d) in options.iter().enumerate() {
                        let v = g.city_dest_value(seat, city, d, &kn);
                        if v > best.1 {
                            best = (i, v);
                        }
                    }
                    best.0
                }
            },
            r,
        );
        let dest = options[pick.min(n - 1)];
        let name = |s: u16| &rules.board.spaces[usize::from(s)].name;
        match dest {
            CityDest::Street(s) => {
                self.players[seat].hero.space = s;
                trace.event("Talisman 11:38", || {
                    format!("seat {} rolls {die}, moves to {}", seat + 1, name(s))
                });
                self.encounter(seat, r, trace);
            }
            CityDest::Store(s) => {
                let street = city.store_at(usize::from(s)).map_or(s, |x| x.street);
                if self.players[seat].hero.animals_len > 0 {
                    self.leave_pack_animals(
                        seat,
                        usize::from(street),
                        ("Talisman 11:42", "the street outside the store"),
                        trace,
                    );
                }
                let hero = &mut self.players[seat].hero;
                hero.space = s;
                hero.last_store = s;
                trace.event("Talisman 11:41", || {
                    format!(
                        "seat {} rolls {die}, enters {} (the rest of the count is lost)",
                        seat + 1,
                        name(s)
                    )
                });
                self.encounter(seat, r, trace);
            }
            CityDest::Out(s) => {
                let hero = &mut self.players[seat].hero;
                hero.space = s;
                hero.city_moves = 0;
                trace.event("Talisman 11:38", || {
                    format!(
                        "seat {} rolls {die}, leaves the City for {}",
                        seat + 1,
                        name(s)
                    )
                });
                self.arrive(seat, usize::from(s), r, trace);
            }
        }
    }

    /// The ends of a City move of `die` from `here` (a street, or a store
    /// whose street is the first space counted), not into store `last`
    /// [11:43] nor the Donjon, into `out`; returns how many.
    pub fn city_destinations(
        &self,
        city: &CityRules,
        here: usize,
        die: i32,
        last: u16,
        out: &mut [CityDest; CITY_DESTINATIONS],
    ) -> usize {
        let board = &self.rules.board;
        let streets = &city.streets;
        let len = streets.len() as i64;
        let (start, steps) = match city.store_at(here) {
            Some(store) => (store.street, die - 1),
            None => (here as u16, die),
        };
        let start = streets.iter().position(|&s| s == start).unwrap_or(0) as i64;
        let steps = i64::from(steps.max(0));
        let mut n = 0;
        let mut push = |d: CityDest, n: &mut usize| {
            if *n < CITY_DESTINATIONS && !out[..*n].contains(&d) {
                out[*n] = d;
                *n += 1;
            }
        };
        for dir in [1i64, -1] {
            for s in 0..=steps {
                let pos = (start + dir * s).rem_euclid(len);
                let street = streets[pos as usize];
                for store in &city.stores {
                    if store.street == street
                        && store.space != city.donjon
                        && store.space != last
                        && usize::from(store.space) != here
                    {
                        push(CityDest::Store(store.space), &mut n);
                    }
                }
                // Out through the gate with count left: the main-board
                // space is the first space past it [11:38].
                if pos == 0 && s < steps {
                    let left = (steps - s - 1) as u32;
                    let entry = usize::from(city.entry);
                    for clockwise in [true, false] {
                        let to = if left == 0 {
                            entry
                        } else {
                            board.ring_step(entry, left, clockwise)
                        };
                        push(CityDest::Out(to as u16), &mut n);
                    }
                }
            }
            let end = (start + dir * steps).rem_euclid(len);
            push(CityDest::Street(streets[end as usize]), &mut n);
        }
        n
    }

    /// Whether the sensible player wants out of the City: with a warrant,
    /// no gold, barred by the statutes, or after [`CITY_STAY`] moves.
    fn wants_out_of_city(&self, seat: usize, city: &CityRules) -> bool {
        let h = &self.players[seat].hero;
        h.warrant || h.gold <= 0 || city.barred.contains(&h.card) || h.city_moves >= CITY_STAY
    }

    /// The sensible player's value of a City destination: its space
    /// scoring, a store's worth a little more (less with pack animals,
    /// which wait outside [11:42]); leaving worth much more when it wants
    /// out, and while it does, streets nearer the gate.
    fn city_dest_value(
        &self,
        seat: usize,
        city: &CityRules,
        d: CityDest,
        k: &SensibleKnobs,
    ) -> f64 {
        let me = self.snapshot(seat);
        let out = self.wants_out_of_city(seat, city);
        let animals = f64::from(self.players[seat].hero.animals_len);
        match d {
            CityDest::Street(s) => {
                let len = city.streets.len();
                let pos = city.streets.iter().position(|&x| x == s).unwrap_or(0);
                let to_gate = pos.min(len - pos) as f64;
                self.space_value(&me, usize::from(s), k) - if out { to_gate } else { 0.0 }
            }
            CityDest::Store(s) => {
                self.space_value(&me, usize::from(s), k) + if out { -5.0 } else { 1.0 }
                    - 2.0 * animals
            }
            CityDest::Out(s) => {
                self.space_value(&me, usize::from(s), k) + if out { 10.0 } else { -3.0 }
            }
        }
    }

    /// The sensible player stays out of trouble in the City [13:14]: it
    /// meets no other character anywhere in it.
    pub(crate) fn sensible_in_city(&self, seat: usize) -> bool {
        matches!(self.players[seat].policy.base(), Base::Sensible(_))
            && self
                .city_at(usize::from(self.players[seat].hero.space))
                .is_some()
    }

    /// ... and casts no spell in its streets [13:14 no. 5].
    pub(crate) fn sensible_in_city_street(&self, seat: usize) -> bool {
        let space = usize::from(self.players[seat].hero.space);
        self.sensible_in_city(seat) && self.city_at(space).is_some_and(|(_, c)| c.is_street(space))
    }

    /// Notes statute `statute` broken by the character of `seat` if it is
    /// in the City (combat and spells count in the streets only) [13:14].
    pub(crate) fn break_statute(&mut self, seat: usize, statute: u8) {
        let space = usize::from(self.players[seat].hero.space);
        let Some((_, city)) = self.city_at(space) else {
            return;
        };
        if statute & (STATUTE_COMBAT | STATUTE_SPELL) != 0 && !city.is_street(space) {
            return;
        }
        self.players[seat].hero.statutes |= statute;
    }

    /// The end of a turn in the City [20:11]: with any statute broken this
    /// turn (being barred or without gold counts at the turn's end), the
    /// top card of the City's deck is turned over; a Law card issues a
    /// Warrant and the Watch fights at once (a Watch card's Strength, or
    /// an unseen Watch of 7 for another Law card: our reading of "face
    /// Combat"); any other card and the character got away. The card is
    /// discarded either way. Nothing is checked in the Donjon.
    pub(super) fn statutes_at_end_of_turn<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let rules = self.rules;
        let hero = self.players[seat].hero;
        self.players[seat].hero.statutes = 0;
        let space = usize::from(hero.space);
        let Some((_, city)) = self.city_at(space) else {
            return;
        };
        if hero.space == city.donjon {
            return;
        }
        let mut broken = hero.statutes;
        if city.barred.contains(&hero.card) {
            broken |= STATUTE_BARRED;
        }
        if hero.gold <= 0 {
            broken |= STATUTE_NO_MONEY;
        }
        if broken == 0 {
            return;
        }
        self.stats.city[0] += 1;
        let Some(card) = self.draw_card_for(space, r) else {
            return;
        };
        self.discard_card(card);
        let c = &rules.cards[usize::from(card)];
        trace.event("Talisman 20:11", || {
            format!(
                "seat {} broke the statutes (mask {broken}): turns over {}",
                seat + 1,
                c.name
            )
        });
        let Some(law) = c.law else {
            return;
        };
        self.players[seat].hero.warrant = true;
        self.stats.city[1] += 1;
        let level = match law {
            Law::Watch => c.strength,
            Law::Officer => UNSEEN_WATCH,
        };
        self.watch_fight(seat, level, r, trace);
    }

    /// A card drawn in the City by the character of `seat`: with a warrant,
    /// a Law card brings the Watch [20:10]. Returns the Watch's Strength:
    /// a Watch card's own, else the unseen Watch's 7 (the card itself is
    /// resolved as written).
    pub(crate) fn watch_for(&self, seat: usize, card: u16) -> Option<i32> {
        if !self.players[seat].hero.warrant {
            return None;
        }
        let c = &self.rules.cards[usize::from(card)];
        match c.law? {
            Law::Watch => Some(c.strength),
            Law::Officer => Some(UNSEEN_WATCH),
        }
    }

    /// The Watch of Strength `level` fights the character of `seat` to
    /// arrest it [20:10], as a combat that cannot be evaded (a loss costs
    /// a life as any combat does [16:4]). The Watch winning takes the
    /// character to the Donjon; the character winning escapes, keeping its
    /// warrant. Fighting the Watch breaks no statute. Returns whether it
    /// was arrested.
    pub(crate) fn watch_fight<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        level: i32,
        r: &mut R,
        trace: &mut T,
    ) -> bool {
        let before = self.players[seat].hero.statutes;
        trace.event("Talisman 20:10", || {
            format!(
                "the Watch (Strength {level}) seeks to arrest seat {}",
                seat + 1
            )
        });
        let result = self.creature_fight(seat, level, 0, false, false, Source::None, r, trace);
        if !self.players[seat].alive {
            return false;
        }
        self.players[seat].hero.statutes = before;
        if result != Some(Result3::Lose) {
            return false;
        }
        self.stats.city[2] += 1;
        self.send_to_donjon(seat, trace);
        true
    }

    /// Takes the character of `seat` to the Donjon [20:10, 16:9]: it loses
    /// the Donjon's turns and its warrant is served, discarded, never left
    /// on a space [20:3]; pack animals stay where it was taken [11:42].
    pub(crate) fn send_to_donjon<T: Trace>(&mut self, seat: usize, trace: &mut T) {
        let Some(city) = self.city_played() else {
            return;
        };
        let space = usize::from(self.players[seat].hero.space);
        if self.players[seat].hero.animals_len > 0 {
            self.leave_pack_animals(seat, space, ("Talisman 11:42", "where it is taken"), trace);
        }
        let hero = &mut self.players[seat].hero;
        hero.warrant = false;
        hero.space = city.donjon;
        hero.lost_turns = hero.lost_turns.max(city.donjon_turns);
        hero.last_store = NONE;
        hero.beaten = false;
        hero.at_portal = false;
        hero.retreat = 0;
        hero.cleared = true;
        hero.city_moves = 0;
        self.stats.city[3] += 1;
        trace.event("Talisman 20:10", || {
            format!(
                "seat {} is taken to the Donjon for {} turns; the warrant is served",
                seat + 1,
                city.donjon_turns
            )
        });
    }

    /// Whether the victor sends a beaten warrant holder to the Donjon in
    /// place of spoils [16:9]: the sensible player does unless the loser
    /// is on its last life or on the Crown of Command (where it takes a
    /// life); the random player tosses a coin. Only with a City played.
    pub(crate) fn wants_donjon_as_spoils<R: Roll>(
        &mut self,
        victor: usize,
        loser: usize,
        r: &mut R,
    ) -> bool {
        if !self.players[loser].hero.warrant || self.city_played().is_none() {
            return false;
        }
        self.decide_yes(victor, "donjon as spoils", r, |g, r| {
            let l = &g.players[loser].hero;
            match g.players[victor].policy.base() {
                Base::Sensible(_) => l.lives > 1 && l.space != g.rules.board.crown,
                Base::Random => r.pick(2) == 1,
            }
        })
    }
}
