//! Doorways and the expansion boards [11:30-46]: a Doorway card lying on
//! a main-board space leads a character standing there to its board's
//! entrance the next turn [11:31-33], pack animals left at the doorway
//! where the board bars them [11:34]; on the board a die a turn along the
//! spiral away from the entrance [11:39], back toward it on the turn after
//! a defeat [11:40], out by the door card on reaching the entrance so; at
//! the final space the chart sends the character back to the main board,
//! plus 1 for each earlier venture, its Dungeon tokens [11:46, 20:14].
//! Each board's own adventure deck is dealt only when the scenario plays
//! the board, so a game without boards draws no extra dice.

use barsoom_engine::model::Trace;

use crate::talisman::character::{MAX_ANIMALS, MAX_PACKED, MAX_PULLED};
use crate::talisman::curses::CurseEffect;
use crate::talisman::expansion::BOARD_CARDS;
use crate::talisman::routes::formula_spaces;

use super::{Game, Roll, shuffle};

impl Game<'_> {
    /// The expansion board `space` is on, if any.
    pub(crate) fn expansion_at(&self, space: usize) -> Option<usize> {
        let board = &self.rules.board;
        board.regions[usize::from(board.spaces[space].region)]
            .expansion
            .map(usize::from)
    }

    /// Fills and shuffles the adventure deck of each board played.
    pub(super) fn deal_board_decks<R: Roll>(&mut self, r: &mut R) {
        let rules = self.rules;
        for k in 0..rules.expansions.len() {
            self.board_deck_len[k] = 0;
            self.board_discard_len[k] = 0;
            if !self.config.tournament.board_on(k) {
                continue;
            }
            let mut n = 0;
            for (i, card) in rules.cards.iter().enumerate() {
                if usize::from(card.deck) == k + 1 && n < BOARD_CARDS {
                    self.board_deck[k][n] = i as u16;
                    n += 1;
                }
            }
            self.board_deck_len[k] = n as u8;
            shuffle(&mut self.board_deck[k][..n], r);
        }
    }

    /// Expansion board `k`'s deck, the next card to be drawn last.
    pub fn board_cards(&self, k: usize) -> &[u16] {
        &self.board_deck[k][..usize::from(self.board_deck_len[k])]
    }

    /// Draws the next card for `space`: from its expansion board's deck
    /// there (its discards reshuffled when it runs out, as 13:13 does for
    /// the main deck), else from the main adventure deck.
    pub(crate) fn draw_card_for<R: Roll>(&mut self, space: usize, r: &mut R) -> Option<u16> {
        let Some(k) = self.expansion_at(space) else {
            return self.draw_card(r);
        };
        if self.board_deck_len[k] == 0 {
            let n = usize::from(self.board_discard_len[k]);
            if n == 0 {
                return None;
            }
            let discards = self.board_discard[k];
            self.board_deck[k][..n].copy_from_slice(&discards[..n]);
            self.board_deck_len[k] = n as u8;
            self.board_discard_len[k] = 0;
            shuffle(&mut self.board_deck[k][..n], r);
        }
        self.board_deck_len[k] -= 1;
        self.stats.cards_drawn += 1;
        Some(self.board_deck[k][usize::from(self.board_deck_len[k])])
    }

    /// Puts a card of an expansion board's deck on that board's discards.
    pub(super) fn discard_board_card(&mut self, card: u16) {
        let k = usize::from(self.rules.cards[usize::from(card)].deck) - 1;
        let n = usize::from(self.board_discard_len[k]);
        if n < BOARD_CARDS {
            self.board_discard[k][n] = card;
            self.board_discard_len[k] += 1;
        }
    }

    /// The board a Doorway card on `space` leads to, among those played
    /// [11:32].
    pub(crate) fn doorway_on(&self, space: usize) -> Option<usize> {
        let rules = self.rules;
        self.pile[space][..usize::from(self.pile_len[space])]
            .iter()
            .filter_map(|&c| rules.cards[usize::from(c)].doorway)
            .map(usize::from)
            .find(|&k| self.config.tournament.board_on(k))
    }

    /// A character standing on a Doorway card at the start of its move
    /// may, as its move, go to the entrance of the card's board and stop
    /// there [11:32-33]; one on the space leading to a City, to its gate
    /// [11:35]. It meets the entrance. Returns whether it did.
    pub(super) fn doorway_move<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        r: &mut R,
        trace: &mut T,
    ) -> bool {
        if self.config.tournament.board_mask == 0 {
            return false;
        }
        let space = usize::from(self.players[seat].hero.space);
        // A Doorway card here, or the main-board space a City is entered
        // from [11:35].
        let Some(k) = self
            .doorway_on(space)
            .or_else(|| self.city_entered_from(space))
        else {
            return false;
        };
        if !self.wants_enter_board(seat, k, r) {
            return false;
        }
        if self.rules.expansions[k].city.is_some() {
            self.enter_city(seat, k, trace);
        } else {
            self.enter_board(seat, k, trace);
        }
        self.encounter(seat, r, trace);
        true
    }

    /// Takes the character through the doorway on its space to board
    /// `k`'s entrance [11:33], leaving its pack animals, and all they carry
    /// or pull, on the doorway's space where the board bars them [11:34].
    pub fn enter_board<T: Trace>(&mut self, seat: usize, k: usize, trace: &mut T) {
        let rules = self.rules;
        let expansion = &rules.expansions[k];
        let space = usize::from(self.players[seat].hero.space);
        if !expansion.pack_animals {
            self.leave_pack_animals(seat, space, ("Talisman 11:34", "the doorway"), trace);
        }
        self.place_on_board(seat, k);
        trace.event("Talisman 11:33", || {
            format!(
                "seat {} goes through the doorway to {}",
                seat + 1,
                rules.board.spaces[usize::from(expansion.entrance)].name
            )
        });
    }

    /// Leaves the character's pack animals, and all they carry or pull, on
    /// `space` (the doorway of a board that bars them [11:34], the street
    /// outside a City store [11:42]), traced under `rule` with `place`.
    pub(crate) fn leave_pack_animals<T: Trace>(
        &mut self,
        seat: usize,
        space: usize,
        (rule, place): (&'static str, &str),
        trace: &mut T,
    ) {
        let rules = self.rules;
        let mut hero = self.players[seat].hero;
        let mut left = [0u16; MAX_ANIMALS + MAX_PACKED + MAX_PULLED];
        let mut n = 0;
        let mut animals = 0;
        while hero.lose_pack_animal(rules, |c| {
            if n < left.len() {
                left[n] = c;
                n += 1;
            }
        }) {
            animals += 1;
        }
        self.players[seat].hero = hero;
        self.stats.animals_left += animals;
        for &c in &left[..n] {
            trace.event(rule, || format!("leaves {} at {place}", rules.item_name(c)));
            self.leave_card(space, c);
        }
    }

    /// Puts the character on board `k`'s entrance and counts the visit.
    pub(crate) fn place_on_board(&mut self, seat: usize, k: usize) {
        let rules = self.rules;
        let expansion = &rules.expansions[k];
        let hero = &mut self.players[seat].hero;
        hero.space = expansion.entrance;
        hero.beaten = false;
        hero.at_portal = false;
        if hero.visited & (1 << k) == 0 {
            hero.visited |= 1 << k;
            self.stats.board_characters[k] += 1;
        }
        self.stats.board_visits[k] += 1;
    }

    /// A move on expansion board `k` [11:39-40, 11:44]: a die (or its
    /// 11:44 band, which on Timescape also picks the line) away from the
    /// entrance along the line, stopping at the final space if the count
    /// would pass it; on the turn after a defeat, back toward the
    /// entrance, and out by a door card if it reaches it. At a Vault the
    /// Vault card is drawn [11:46]; at another final space its chart.
    pub(super) fn board_move<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        k: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let rules = self.rules;
        let expansion = &rules.expansions[k];
        let routes = &expansion.routes;
        let hero = self.players[seat].hero;
        let die = if hero.toad_turns > 0 || hero.cursed(&rules.curses, CurseEffect::OneSpace) {
            1
        } else {
            self.movement_roll(seat, r)
        };
        let (roll, line) = if routes.formula {
            let n = formula_spaces(die);
            let line = (n as usize - 1).min(routes.lines.len() - 1);
            (n, &routes.lines[line][..])
        } else {
            (die, &routes.lines[0][..])
        };
        if hero.beaten {
            self.players[seat].hero.beaten = false;
            let Some(dest) = self.line_step(line, hero.space, roll, false) else {
                trace.event("Talisman 11:40", || {
                    format!("seat {} is driven back out of {}", seat + 1, expansion.name)
                });
                self.leave_by_door(seat, k, r, trace);
                return;
            };
            self.spiral_step(
                seat,
                dest,
                ("Talisman 11:40", "beaten, goes back"),
                roll,
                r,
                trace,
            );
            return;
        }
        let dest = self
            .line_step(line, hero.space, roll, true)
            .unwrap_or(expansion.final_space);
        if dest == expansion.final_space && !routes.vault.is_empty() {
            self.players[seat].hero.space = dest;
            trace.event("Talisman 11:44", || {
                format!(
                    "seat {} rolls {die}, moves on to {}",
                    seat + 1,
                    rules.board.spaces[usize::from(dest)].name
                )
            });
            self.vault(seat, k, r, trace);
            return;
        }
        self.spiral_step(seat, dest, ("Talisman 11:39", "moves on"), roll, r, trace);
        let hero = &self.players[seat].hero;
        if self.players[seat].alive && usize::from(hero.space) == usize::from(expansion.final_space)
        {
            self.leave_board(seat, k, r, trace);
        }
    }

    /// The space `n` spaces along `line` from `from`, forward (away from
    /// the entrance: the final space if the count passes it) or back (none
    /// if the count reaches the entrance) [11:39-40]. A character not on
    /// the line joins it at its next space ahead (or behind).
    pub(crate) fn line_step(&self, line: &[u16], from: u16, n: i32, forward: bool) -> Option<u16> {
        let spaces = &self.rules.board.spaces;
        let here = spaces[usize::from(from)].position;
        let n = n.max(1) as usize;
        let pos = |s: &u16| spaces[usize::from(*s)].position;
        if forward {
            let mut ahead = line.iter().filter(|s| pos(s) > here);
            ahead
                .clone()
                .nth(n - 1)
                .or_else(|| ahead.next_back())
                .copied()
        } else {
            line.iter()
                .rev()
                .filter(|s| pos(s) < here)
                .nth(n - 1)
                .filter(|s| pos(s) > 0)
                .copied()
        }
    }

    /// Puts the character of `seat` on spiral space `dest` after rolling
    /// `roll` (traced under `rule` with `how`) and meets the space.
    fn spiral_step<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        dest: u16,
        (rule, how): (&'static str, &str),
        roll: i32,
        r: &mut R,
        trace: &mut T,
    ) {
        let rules = self.rules;
        self.players[seat].hero.space = dest;
        let name = &rules.board.spaces[usize::from(dest)].name;
        trace.event(rule, || {
            format!("seat {} rolls {roll}, {how} to {name}", seat + 1)
        });
        self.encounter(seat, r, trace);
    }

    /// The final space's chart [11:46]: a die plus 1 for each earlier
    /// venture there (the Dungeon tokens [20:14]) picks the main-board
    /// space the character is sent to; the venture earns a token.
    pub fn leave_board<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        k: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let rules = self.rules;
        let expansion = &rules.expansions[k];
        let die = r.d6();
        let hero = &mut self.players[seat].hero;
        let bonus = if expansion.venture_tokens {
            i32::from(hero.ventures[k])
        } else {
            0
        };
        let total = (die + bonus).max(1) as usize;
        let dest = expansion.exit[total.min(expansion.exit.len()) - 1];
        hero.ventures[k] = hero.ventures[k].saturating_add(1);
        hero.space = dest;
        hero.beaten = false;
        self.stats.board_ventures[k] += 1;
        trace.event("Talisman 11:46", || {
            format!(
                "seat {} rolls {die} + {bonus} on the chart of {}: sent to {}",
                seat + 1,
                rules.board.spaces[usize::from(expansion.final_space)].name,
                rules.board.spaces[usize::from(dest)].name
            )
        });
    }

    /// Out of board `k` by the entrance [11:40]: the character is placed
    /// on a space holding one of the board's Door cards (a pick by the
    /// dice stands for the choice of the player to its right), or, with
    /// none left, on an empty outer space (no cards and no other
    /// character; any outer space if none is empty).
    pub(crate) fn leave_by_door<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        k: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let rules = self.rules;
        let board = &rules.board;
        let outer = &board.regions[0].spaces;
        let mut doors = [0u16; super::SPACES];
        let mut n = 0;
        for s in 0..board.spaces.len() {
            if self.expansion_at(s).is_none() && self.doorway_on(s) == Some(k) {
                doors[n] = s as u16;
                n += 1;
            }
        }
        if n == 0 {
            for &s in outer {
                let occupied = (0..self.seats())
                    .any(|o| o != seat && self.players[o].alive && self.players[o].hero.space == s);
                if self.pile_len[usize::from(s)] == 0 && !occupied {
                    doors[n] = s;
                    n += 1;
                }
            }
        }
        let dest = if n == 0 {
            outer[r.pick(outer.len())]
        } else {
            doors[r.pick(n)]
        };
        let hero = &mut self.players[seat].hero;
        hero.space = dest;
        hero.beaten = false;
        trace.event("Talisman 11:40", || {
            format!("placed on {}", board.spaces[usize::from(dest)].name)
        });
    }

    /// A defeat in combat or psychic combat: on an expansion board the
    /// character's next move goes back toward the entrance [11:40].
    pub(crate) fn defeated(&mut self, seat: usize) {
        let space = usize::from(self.players[seat].hero.space);
        if self.expansion_at(space).is_some() {
            self.players[seat].hero.beaten = true;
        }
    }
}
