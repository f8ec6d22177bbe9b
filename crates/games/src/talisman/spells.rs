//! Spells [9]: casting a die plus total Craft against the spell's cost,
//! the blunder on a failure [9:9], automatic success at Craft 9 [9:10],
//! and one spell per player turn [9:11]. When the policies cast them:
//! combat spells before the roll [16:3], evasion when a fight looks bad,
//! healing and polymorph at the start of the turn.

use super::data::SpellEffect;
use super::game::{Flow, Game, Roll, Source};
use super::policy::Base;
use barsoom_engine::model::Trace;

impl Game<'_> {
    /// Index in the hero's hand of a spell with this effect.
    fn held_spell(&self, seat: usize, effect: SpellEffect) -> Option<usize> {
        let rules = self.rules;
        let h = &self.players[seat].hero;
        // The sensible player casts nothing in the City's streets [13:14].
        if !h.can_use_spells(rules)
            || self.players[seat].cast_this_turn
            || self.sensible_in_city_street(seat)
        {
            return None;
        }
        (0..usize::from(h.spells_len))
            .find(|&i| rules.spells[usize::from(h.spells[i])].effect == effect)
    }

    /// Casts the hero's spell at `index` [9:9-11]: it leaves the hand;
    /// returns whether it worked (a failure applies the blunder).
    pub fn cast<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        index: usize,
        r: &mut R,
        trace: &mut T,
    ) -> bool {
        let rules = self.rules;
        let hero = &mut self.players[seat].hero;
        let spell = hero.spells[index];
        let len = usize::from(hero.spells_len);
        hero.spells.copy_within(index + 1..len, index);
        hero.spells_len -= 1;
        self.players[seat].cast_this_turn = true;
        self.break_statute(seat, super::game::STATUTE_SPELL);
        self.discard_spell(spell);
        let card = &rules.spells[usize::from(spell)];
        let craft = self.players[seat].hero.total_craft(rules);
        let (works, roll) = if craft >= rules.auto_cast_craft {
            (true, 0)
        } else {
            let roll = r.d6();
            (roll + craft > card.cost, roll)
        };
        trace.event("Talisman 9:9", || {
            format!(
                "casts {} (roll {roll} + Craft {craft} against {}): {}",
                card.name,
                card.cost,
                if works { "works" } else { "blunders" }
            )
        });
        if !works {
            let _: Flow = self.apply(seat, card.blunder, Source::None, r, trace);
        }
        works && self.players[seat].alive
    }

    /// Spells at the start of a turn: the sensible player heals when low,
    /// conjures gold when poor, and turns the strongest rival into a toad
    /// when that rival is in the inner region; the random player casts a
    /// random spell it holds one turn in four.
    pub(crate) fn turn_start_spells<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let rules = self.rules;
        let h = self.players[seat].hero;
        if h.spells_len == 0 || !h.can_use_spells(rules) {
            return;
        }
        match self.players[seat].policy.base() {
            Base::Random => {
                if r.pick(4) != 0 {
                    return;
                }
                let i = r.pick(usize::from(h.spells_len));
                let effect = rules.spells[usize::from(h.spells[i])].effect;
                if matches!(
                    effect,
                    SpellEffect::Heal | SpellEffect::Riches | SpellEffect::ToadRival
                ) {
                    self.cast_out_of_combat(seat, i, r, trace);
                }
            }
            Base::Sensible(k) => {
                if h.lives <= k.heal_below
                    && let Some(i) = self.held_spell(seat, SpellEffect::Heal)
                {
                    self.cast_out_of_combat(seat, i, r, trace);
                } else if let Some(i) = self.held_spell(seat, SpellEffect::ToadRival)
                    && self.rival_to_toad(seat).is_some_and(|t| {
                        let s = usize::from(self.players[t].hero.space);
                        rules.board.spaces[s].region as usize + 1 == rules.board.main_regions()
                    })
                {
                    self.cast_out_of_combat(seat, i, r, trace);
                } else if h.gold < 2
                    && let Some(i) = self.held_spell(seat, SpellEffect::Riches)
                {
                    self.cast_out_of_combat(seat, i, r, trace);
                }
            }
        }
    }

    /// The rival with the highest total Strength plus Craft, not a toad.
    fn rival_to_toad(&self, seat: usize) -> Option<usize> {
        (0..self.seats())
            .filter(|&s| s != seat && self.players[s].alive && self.players[s].hero.toad_turns == 0)
            .max_by_key(|&s| (self.power(s), std::cmp::Reverse(s)))
    }

    fn cast_out_of_combat<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        index: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let rules = self.rules;
        let spell = &rules.spells[usize::from(self.players[seat].hero.spells[index])];
        let (effect, amount) = (spell.effect, spell.amount);
        if !self.cast(seat, index, r, trace) {
            return;
        }
        match effect {
            SpellEffect::Heal => self.players[seat].hero.heal(amount),
            SpellEffect::Riches if self.players[seat].hero.can_gain_gold(rules) => {
                self.players[seat].hero.gold += amount
            }
            SpellEffect::ToadRival => {
                if let Some(t) = self.rival_to_toad(seat) {
                    self.turn_into_toad(t, 3, trace);
                }
            }
            _ => {}
        }
    }

    /// Spells before a combat roll [16:3]: evasion (where evading is
    /// allowed) or destruction when the fight looks lost, else a boost.
    /// Returns (Strength or Craft added, creature destroyed, evaded).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn combat_spells<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        base: i32,
        level: i32,
        psychic: bool,
        may_evade: bool,
        best_of_two: bool,
        r: &mut R,
        trace: &mut T,
    ) -> (i32, bool, bool) {
        let rules = self.rules;
        if self.players[seat].hero.spells_len == 0 || self.players[seat].cast_this_turn {
            return (0, false, false);
        }
        let want = self.decide_yes(seat, "combat spell", r, |g, r| {
            match g.players[seat].policy.base() {
                Base::Sensible(k) => {
                    super::combat::odds(base - level, best_of_two)[0] < k.evade_below.max(0.5)
                }
                Base::Random => r.pick(2) == 1,
            }
        });
        if !want {
            return (0, false, false);
        }
        if may_evade && let Some(i) = self.held_spell(seat, SpellEffect::Evade) {
            return (0, false, self.cast(seat, i, r, trace));
        }
        if let Some(i) = self.held_spell(seat, SpellEffect::Destroy) {
            let amount = rules.spells[usize::from(self.players[seat].hero.spells[i])].amount;
            if level <= amount {
                return (0, self.cast(seat, i, r, trace), false);
            }
        }
        let boost = if psychic {
            SpellEffect::PsychicCraft
        } else {
            SpellEffect::CombatStrength
        };
        if let Some(i) = self.held_spell(seat, boost) {
            let amount = rules.spells[usize::from(self.players[seat].hero.spells[i])].amount;
            if self.cast(seat, i, r, trace) {
                return (amount, false, false);
            }
        }
        (0, false, false)
    }

    /// A defender may evade a character's attack with a spell [18:1].
    pub(crate) fn defender_evades<R: Roll, T: Trace>(
        &mut self,
        target: usize,
        r: &mut R,
        trace: &mut T,
    ) -> bool {
        let Some(i) = self.held_spell(target, SpellEffect::Evade) else {
            return false;
        };
        let wants = self.decide_yes(target, "evade by spell", r, |g, r| {
            match g.players[target].policy.base() {
                Base::Sensible(k) => g.players[target].hero.lives <= k.heal_below + 1,
                Base::Random => r.pick(2) == 1,
            }
        });
        wants && self.cast(target, i, r, trace)
    }
}
