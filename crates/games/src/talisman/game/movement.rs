//! Movement [11]: the roll, rafts, the paths and choices of a move, the
//! Sentinel, the Portal of Power, the inner region and the Crown of Command
//! [14:5, 14:6, 21].

use crate::talisman::combat::Result3;
use crate::talisman::curses::CurseEffect;
use crate::talisman::data::{EndingKind, Mechanic};
use barsoom_engine::model::Trace;

use super::{Cause, End, Game, Roll, Source};

impl<'a> Game<'a> {
    /// Rolls the die for movement and applies the effect of pack animals
    /// and pulled objects [11:28]; what must be left behind to move at
    /// least one space stays where the move starts [11:29]. Returns the
    /// spaces to move.
    pub fn movement_roll<R: Roll>(&mut self, seat: usize, r: &mut R) -> i32 {
        let rules = self.rules;
        // Each Poison token takes 1 from the roll, a move staying at least
        // one space (our reading) [20:16].
        let roll = (r.d6() - self.poisoned(seat)).max(1);
        let mut hero = self.players[seat].hero;
        if hero.animals_len == 0 && hero.pulled_len == 0 {
            return roll;
        }
        let space = usize::from(hero.space);
        let mut left = [0u16;
            super::super::character::MAX_ANIMALS
                + super::super::character::MAX_PULLED
                + super::super::character::MAX_PACKED];
        let mut n = 0;
        let spaces = hero.movement_after_effects(rules, roll, |c| {
            if n < left.len() {
                left[n] = c;
                n += 1;
            }
        });
        self.players[seat].hero = hero;
        for &c in &left[..n] {
            self.leave_card(space, c);
        }
        spaces
    }

    /// The raft [11:16-18]: on a bank of the Storm River, with a raft held
    /// since an earlier turn or one built here (a Woods or Forest space and
    /// an Axe), the character may cross to a space directly across as its
    /// move, without a die. A used raft is discarded [11:19]. Returns
    /// whether it crossed.
    fn raft_crossing<R: Roll, T: Trace>(&mut self, seat: usize, r: &mut R, trace: &mut T) -> bool {
        let rules = self.rules;
        let board = &rules.board;
        let hero = self.players[seat].hero;
        let space = usize::from(hero.space);
        if hero.toad_turns > 0 || board.spaces[space].river_len == 0 {
            return false;
        }
        let held = hero.usable_raft(rules);
        let build = held.is_none() && board.spaces[space].woods && hero.has_axe(rules);
        if held.is_none() && !build {
            return false;
        }
        let Some(dest) = self.choose_raft_crossing(seat, space, r) else {
            return false;
        };
        if let Some(i) = held {
            let raft = self.players[seat].hero.drop_pulled(i);
            self.discard_card(raft);
        }
        trace.event(
            if build {
                "Talisman 11:16"
            } else {
                "Talisman 11:18"
            },
            || {
                format!(
                    "seat {} {} the Storm River from {} to {}",
                    seat + 1,
                    if build {
                        "builds a raft and crosses"
                    } else {
                        "rafts across"
                    },
                    board.spaces[space].name,
                    board.spaces[dest].name
                )
            },
        );
        self.players[seat].hero.space = dest as u16;
        self.arrive(seat, dest, r, trace);
        true
    }

    /// The end of a move on `dest`: the Sentinel's stair or the Portal if
    /// the character tries them, else the encounter there.
    pub(super) fn arrive<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        dest: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let board = &self.rules.board;
        if board.gate_is(dest, Mechanic::Sentinel) && self.wants_cross(seat, dest, r) {
            self.cross_sentinel(seat, dest, r, trace);
            return;
        }
        if board.gate_is(dest, Mechanic::Portal) && self.wants_cross(seat, dest, r) {
            self.attempt_portal(seat, r, trace);
            return;
        }
        self.encounter(seat, r, trace);
    }

    pub(super) fn movement<R: Roll, T: Trace>(&mut self, seat: usize, r: &mut R, trace: &mut T) {
        let rules = self.rules;
        let board = &rules.board;
        let hero = self.players[seat].hero;
        let space = usize::from(hero.space);
        let region = usize::from(board.spaces[space].region);
        if space == usize::from(board.crown) {
            self.crown_turn(seat, r, trace);
            return;
        }
        if let Some(k) = board.regions[region].expansion {
            let k = usize::from(k);
            if rules.expansions[k].city.is_some() {
                self.city_move(seat, k, r, trace);
            } else {
                self.board_move(seat, k, r, trace);
            }
            return;
        }
        if !board.regions[region].ring {
            self.inner_move(seat, r, trace);
            return;
        }
        // A failed Portal attempt must be made again [11:24].
        if hero.at_portal {
            self.attempt_portal(seat, r, trace);
            return;
        }
        // A Doorway card here leads to its board [11:32-33], the City's
        // space to the City [11:35].
        if self.doorway_move(seat, r, trace) {
            return;
        }
        if self.raft_crossing(seat, r, trace) {
            return;
        }
        // Going down the stair from the middle region is a move [11:13].
        if let Some(link) = board.spaces[space].link
            && region > 0
            && usize::from(board.spaces[usize::from(link)].region) < region
            && self.wants_descend(seat, r)
        {
            self.players[seat].hero.space = link;
            trace.event("Talisman 11:13", || "goes down the stair".into());
            self.encounter(seat, r, trace);
            return;
        }
        let roll = if hero.toad_turns > 0 || hero.cursed(&rules.curses, CurseEffect::OneSpace) {
            1
        } else {
            self.movement_roll(seat, r)
        };
        let (a, b) = (
            board.ring_step(space, roll as u32, true),
            board.ring_step(space, roll as u32, false),
        );
        let dest = self.choose_destination(seat, [a, b], r);
        trace.event("Talisman 11:1", || {
            format!(
                "seat {} rolls {roll}, moves from {} to {}",
                seat + 1,
                board.spaces[space].name,
                board.spaces[dest].name
            )
        });
        self.players[seat].hero.space = dest as u16;
        self.arrive(seat, dest, r, trace);
    }

    /// Fights the Sentinel to climb the stair [11:10-12]: a win or an
    /// evasion goes up to the space across, a stand-off ends the move, a
    /// loss costs a life.
    pub fn cross_sentinel<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        space: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let board = &self.rules.board;
        let Some(gate) = board.spaces[space].gate else {
            return;
        };
        let Some(top) = board.spaces[space].link else {
            return;
        };
        let result =
            self.creature_fight(seat, gate.strength, 0, false, true, Source::None, r, trace);
        trace.event("Talisman 11:12", || format!("the Sentinel: {result:?}"));
        match result {
            Some(Result3::Win) | None => {
                self.players[seat].hero.space = top;
                self.encounter(seat, r, trace);
            }
            Some(Result3::StandOff) => {}
            Some(Result3::Lose) => {}
        }
    }

    /// Tries to open the Portal [11:22-24]: roll the gate's dice; a total
    /// no higher than Strength (or Craft) opens it and the turn ends on the
    /// Plain of Peril; otherwise the character must try again next turn.
    pub fn attempt_portal<R: Roll, T: Trace>(&mut self, seat: usize, r: &mut R, trace: &mut T) {
        let rules = self.rules;
        let hero = self.players[seat].hero;
        let space = usize::from(hero.space);
        let Some(gate) = rules.board.spaces[space].gate else {
            return;
        };
        let Some(plain) = rules.board.spaces[space].link else {
            return;
        };
        let mut total = 0;
        for _ in 0..gate.dice.max(1) {
            total += r.d6();
        }
        let score = if gate.craft == 1 {
            hero.total_craft(rules)
        } else {
            hero.total_strength(rules)
        };
        let opened = total <= score;
        trace.event("Talisman 11:24", || {
            format!(
                "Portal: rolls {total} against {score}: {}",
                if opened { "opens" } else { "stays shut" }
            )
        });
        let hero = &mut self.players[seat].hero;
        if opened {
            hero.space = plain;
            hero.at_portal = false;
            hero.cleared = true;
            // The move ends on the Plain: what lies there may be taken [12:1].
            self.take_goods(seat, trace);
        } else {
            hero.at_portal = true;
        }
    }

    fn inner_move<R: Roll, T: Trace>(&mut self, seat: usize, r: &mut R, trace: &mut T) {
        let rules = self.rules;
        let board = &rules.board;
        let hero = self.players[seat].hero;
        let space = usize::from(hero.space);
        // Turning back [11:5]: one turn lost on the Plain, then out.
        match hero.retreat {
            2 => {
                self.players[seat].hero.retreat = 1;
                return;
            }
            1 => {
                self.players[seat].hero.retreat = 0;
                let Some(portal) =
                    board.spaces[board.region_entry(usize::from(board.spaces[space].region))].link
                else {
                    return;
                };
                let roll = self.movement_roll(seat, r) as u32;
                let portal = usize::from(portal);
                let options = [
                    board.ring_step(portal, roll, true),
                    board.ring_step(portal, roll, false),
                ];
                let dest = self.choose_destination(seat, options, r);
                self.players[seat].hero.space = dest as u16;
                trace.event("Talisman 11:5", || {
                    format!("moves out to {}", board.spaces[dest].name)
                });
                self.encounter(seat, r, trace);
                return;
            }
            _ => {}
        }
        // From the Plain of Peril the character may simply step back to the
        // Portal space as its move, without opening it or losing a turn
        // [11:25] (turning back from further in is [11:5]).
        let plain = board.region_entry(usize::from(board.spaces[space].region));
        if space == plain
            && let Some(portal) = board.spaces[space].link
            && self.wants_leave_plain(seat, r)
        {
            let hero = &mut self.players[seat].hero;
            hero.space = portal;
            hero.at_portal = false;
            hero.cleared = true;
            trace.event("Talisman 11:25", || {
                format!("seat {} leaves the Plain of Peril for the Portal", seat + 1)
            });
            self.encounter(seat, r, trace);
            return;
        }
        if self.wants_retreat(seat, r) {
            self.turn_back(seat, trace);
            return;
        }
        if !hero.cleared {
            // The space's instructions must be completed first [11:4].
            self.encounter(seat, r, trace);
            return;
        }
        let Some(next) = board.path_next(space) else {
            return;
        };
        if board.gate_is(next, Mechanic::ValleyOfFire) && !hero.has_talisman(rules) {
            // No Talisman: the Valley cannot be entered [11:6].
            trace.event("Talisman 11:6", || "no Talisman: turns back".into());
            self.turn_back(seat, trace);
            return;
        }
        let hero = &mut self.players[seat].hero;
        hero.space = next as u16;
        hero.cleared = false;
        trace.event("Talisman 11:3", || {
            format!("seat {} moves to {}", seat + 1, board.spaces[next].name)
        });
        if next == usize::from(board.crown) {
            self.reach_crown(seat, r, trace);
            return;
        }
        self.encounter(seat, r, trace);
    }

    /// Turns back to the Plain of Peril; the next turn is lost [11:5].
    pub(crate) fn turn_back<T: Trace>(&mut self, seat: usize, trace: &mut T) {
        let board = &self.rules.board;
        let hero = &mut self.players[seat].hero;
        let plain = board.region_entry(usize::from(board.spaces[usize::from(hero.space)].region));
        hero.space = plain as u16;
        hero.retreat = 2;
        hero.cleared = true;
        trace.event("Talisman 11:5", || {
            "turns back to the Plain of Peril".into()
        });
    }

    fn reach_crown<R: Roll, T: Trace>(&mut self, seat: usize, r: &mut R, trace: &mut T) {
        if !self.crown_reached {
            self.crown_reached = true;
            self.stats.crown_round = self.round;
            let name = &self.rules.endings[self.ending].name;
            trace.event("Talisman 14:6", || {
                format!("seat {} reaches the Crown: the ending is {name}", seat + 1)
            });
        }
        self.crown_turn(seat, r, trace);
    }

    /// A turn on the Crown [14:5, 21]: with others there, attack one;
    /// alone, encounter the ending card.
    pub fn crown_turn<R: Roll, T: Trace>(&mut self, seat: usize, r: &mut R, trace: &mut T) {
        let rules = self.rules;
        let crown = rules.board.crown;
        if let Some(target) = (0..self.seats())
            .find(|&s| s != seat && self.players[s].alive && self.players[s].hero.space == crown)
        {
            self.character_combat(seat, target, r, trace);
            return;
        }
        let ending = &rules.endings[self.ending];
        let win = match ending.kind {
            EndingKind::Immediate => true,
            EndingKind::CommandSpell => {
                let roll = r.d6() as u32;
                let works = roll >= ending.succeed_on;
                trace.event("Talisman 9:8", || {
                    format!(
                        "command spell: rolls {roll}, {}",
                        if works {
                            "every rival loses a life"
                        } else {
                            "fails"
                        }
                    )
                });
                if works {
                    // Characters on an expansion board are out of its
                    // reach [9:8].
                    for s in 0..self.seats() {
                        if s != seat
                            && self.players[s].alive
                            && self
                                .expansion_at(usize::from(self.players[s].hero.space))
                                .is_none()
                        {
                            self.lose_lives(s, 1, Cause::Ending, Source::None, trace);
                        }
                    }
                    // Characters waiting to come in are shut out [4:3].
                    for s in 0..self.seats() {
                        if s != seat && !self.players[s].alive {
                            self.players[s].out = true;
                        }
                    }
                    self.check_last_standing();
                }
                false
            }
            EndingKind::Guardian | EndingKind::PsychicGuardian => {
                let psychic = ending.kind == EndingKind::PsychicGuardian;
                let level = if psychic {
                    ending.craft
                } else {
                    ending.strength
                };
                let result =
                    self.creature_fight(seat, level, 0, psychic, false, Source::None, r, trace);
                if result == Some(Result3::Lose) && self.players[seat].alive {
                    // The loss is taken inside the fight; the ending stays.
                }
                result == Some(Result3::Win) && self.players[seat].alive
            }
        };
        if win && self.end.is_none() {
            let character = usize::from(self.players[seat].hero.card);
            trace.event("Talisman 21", || {
                format!(
                    "seat {} ({}) wins",
                    seat + 1,
                    rules.characters[character].name
                )
            });
            self.end = Some(End::Won { seat, character });
        }
    }
}
