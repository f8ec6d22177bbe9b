//! Encounters [12-15]: another character or the space; draw-card spaces
//! topped up to their number [13:4]; cards resolved in number order
//! (events, enemies, spirits, strangers, objects, followers, places)
//! [15:2-3]; enemies fighting as one and packs one at a time [16:5];
//! evading [18]; armour saves [16:11]; character-vs-character spoils
//! [16:6-9]; and every [`Mechanic`] a card or space may name.

use super::character::{MAX_PACKED, MAX_PULLED};
use super::combat::{Result3, compare, roll};
use super::data::{Ability, CardKind, Effect, Mechanic};
use super::game::{Cause, Flow, Game, PILE, Roll, Source};
use barsoom_engine::model::Trace;

/// Which region the inner region is: creatures there cannot be evaded [14:4].
fn evadable(game: &Game<'_>, seat: usize) -> bool {
    let board = &game.rules.board;
    let space = usize::from(game.players[seat].hero.space);
    let region = &board.regions[usize::from(board.spaces[space].region)];
    region.ring || region.expansion.is_some()
}

impl Game<'_> {
    /// The encounter on the space the character's move ended on [13, 14].
    pub fn encounter<R: Roll, T: Trace>(&mut self, seat: usize, r: &mut R, trace: &mut T) {
        if !self.players[seat].alive {
            return;
        }
        let board = &self.rules.board;
        let space = usize::from(self.players[seat].hero.space);
        // Characters meet in the outer and middle regions, and on the inner
        // region's first space and the Valley [13:2, 14:1].
        // On an expansion board characters there meet as outside [9:7].
        let region = &board.regions[usize::from(board.spaces[space].region)];
        let meeting = region.ring
            || region.expansion.is_some()
            || space == board.region_entry(usize::from(board.spaces[space].region))
            || board.gate_is(space, Mechanic::ValleyOfFire);
        if meeting && let Some(target) = self.choose_character_to_meet(seat, space, r) {
            self.meet_character(seat, target, r, trace);
            return;
        }
        self.encounter_space(seat, r, trace);
    }

    /// Encounters the space itself: gold left there, the cards face up
    /// (after topping up a draw-card space), then its other instructions.
    pub fn encounter_space<R: Roll, T: Trace>(&mut self, seat: usize, r: &mut R, trace: &mut T) {
        let rules = self.rules;
        let space = usize::from(self.players[seat].hero.space);
        let draw = usize::from(rules.board.spaces[space].draw);
        let have = usize::from(self.pile_len[space]);
        let mut watch = None;
        for _ in have..draw.min(PILE) {
            if let Some(card) = self.draw_card_for(space, r) {
                trace.event("Talisman 13:4", || {
                    format!("draws {}", rules.cards[usize::from(card)].name)
                });
                watch = watch.or(self.watch_for(seat, card));
                self.place_card(space, card);
            }
        }
        let flow = self.resolve_cards(seat, space, r, trace);
        // A Law card drawn by a warrant holder brings the Watch [20:10].
        if let Some(level) = watch
            && self.players[seat].alive
            && self.watch_fight(seat, level, r, trace)
        {
            return;
        }
        if flow == Flow::EndTurn {
            return;
        }
        // Gold left on the space may be taken once its creatures are dealt with [12:1].
        if self.space_gold[space] > 0 && self.players[seat].hero.can_gain_gold(rules) {
            self.players[seat].hero.gold += i32::from(self.space_gold[space]);
            self.space_gold[space] = 0;
        }
        let inner = !rules.board.regions[usize::from(rules.board.spaces[space].region)].ring;
        let mut flow = Flow::Continue;
        for &effect in rules.board.effects_of(space) {
            if self.players[seat].hero.space as usize != space || !self.players[seat].alive {
                return;
            }
            flow = self.apply(seat, effect, Source::None, r, trace);
            if flow == Flow::EndTurn {
                break;
            }
        }
        if flow == Flow::Continue {
            self.merchant_sells(seat, space, r);
        }
        // An inner-region space is completed once its instructions are (11:4).
        if inner && flow == Flow::Continue && self.players[seat].hero.space as usize == space {
            self.players[seat].hero.cleared = true;
        }
    }

    /// Resolves the cards on a space in number order [15:2]; returns
    /// whether the turn goes on.
    pub(crate) fn resolve_cards<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        space: usize,
        r: &mut R,
        trace: &mut T,
    ) -> Flow {
        let rules = self.rules;
        for i in 0..usize::from(self.pile_len[space]) {
            let c = self.pile[space][i];
            self.stats.card_met[usize::from(c)] += 1;
        }
        // Events first: each is followed, then discarded unless it stays.
        let mut i = 0;
        while i < usize::from(self.pile_len[space]) {
            let card = self.pile[space][i];
            if rules.cards[usize::from(card)].kind != CardKind::Event {
                i += 1;
                continue;
            }
            // A Season, Month or Day event goes beside the board [15:4].
            if let Some(timed) = rules.cards[usize::from(card)].timed {
                self.remove_from_pile(space, i);
                self.begin_lasting_event(card, timed, trace);
                continue;
            }
            if !rules.cards[usize::from(card)].stays {
                self.remove_from_pile(space, i);
                self.discard_card(card);
            } else {
                i += 1;
            }
            trace.event("Talisman 15:4", || {
                format!("event: {}", rules.cards[usize::from(card)].name)
            });
            if self.apply_card_effects(seat, card, r, trace) == Flow::EndTurn {
                return Flow::EndTurn;
            }
        }
        // Enemies, then spirits: single creatures fight as one, packs one at a time.
        for psychic in [false, true] {
            if self.fight_creatures(seat, space, psychic, r, trace) == Flow::EndTurn {
                return Flow::EndTurn;
            }
        }
        for kind in [
            CardKind::Stranger,
            CardKind::Object,
            CardKind::Follower,
            CardKind::Place,
        ] {
            let mut i = 0;
            while i < usize::from(self.pile_len[space]) {
                let card = self.pile[space][i];
                if rules.cards[usize::from(card)].kind != kind {
                    i += 1;
                    continue;
                }
                match kind {
                    CardKind::Object => {
                        if self.take_from_pile(seat, space, i) {
                            continue;
                        }
                    }
                    CardKind::Follower => {
                        if self.players[seat].hero.take_follower(rules, card) {
                            self.remove_from_pile(space, i);
                            continue;
                        }
                    }
                    _ => {
                        // A stranger may be visited or passed by [12:1, 13:5].
                        if kind == CardKind::Stranger && !self.wants_visit_stranger(seat, card, r) {
                            trace.event("Talisman 13:5", || {
                                format!("passes by {}", rules.cards[usize::from(card)].name)
                            });
                            i += 1;
                            continue;
                        }
                        trace.event("Talisman 15:8", || {
                            format!("visits {}", rules.cards[usize::from(card)].name)
                        });
                        if self.apply_card_effects(seat, card, r, trace) == Flow::EndTurn {
                            return Flow::EndTurn;
                        }
                    }
                }
                i += 1;
            }
        }
        Flow::Continue
    }

    /// Takes the object at `index` of the space's pile if it fits (a first
    /// Talisman displacing a carried object [5:5], which stays on the
    /// space); returns whether it was taken.
    fn take_from_pile(&mut self, seat: usize, space: usize, index: usize) -> bool {
        let rules = self.rules;
        let card = self.pile[space][index];
        let mut left = None;
        let taken = if rules.item(card).talisman {
            self.players[seat]
                .hero
                .take_talisman(rules, card, |c| left = Some(c))
        } else {
            self.players[seat].hero.take_object(rules, card)
        };
        if taken {
            self.remove_from_pile(space, index);
            if let Some(c) = left {
                self.leave_card(space, c);
            }
        }
        taken
    }

    /// Takes the gold, objects and followers lying on a space whose
    /// instructions are not met, as when the Portal opens onto the Plain of
    /// Peril and the turn ends there [11:24]: a character whose move ends
    /// on a space may take them up to the end of its turn, unless an enemy
    /// lies there too [12:1].
    pub(crate) fn take_goods<T: Trace>(&mut self, seat: usize, trace: &mut T) {
        let rules = self.rules;
        let space = usize::from(self.players[seat].hero.space);
        let pile = &self.pile[space][..usize::from(self.pile_len[space])];
        if pile.iter().any(|&c| {
            matches!(
                rules.cards[usize::from(c)].kind,
                CardKind::Enemy | CardKind::Spirit
            )
        }) {
            return;
        }
        let mut i = 0;
        while i < usize::from(self.pile_len[space]) {
            let card = self.pile[space][i];
            let taken = match rules.cards[usize::from(card)].kind {
                CardKind::Object => self.take_from_pile(seat, space, i),
                CardKind::Follower => {
                    let ok = self.players[seat].hero.take_follower(rules, card);
                    if ok {
                        self.remove_from_pile(space, i);
                    }
                    ok
                }
                _ => false,
            };
            if taken {
                trace.event("Talisman 12:1", || {
                    format!("takes {}", rules.cards[usize::from(card)].name)
                });
            } else {
                i += 1;
            }
        }
        if self.space_gold[space] > 0 && self.players[seat].hero.can_gain_gold(rules) {
            self.players[seat].hero.gold += i32::from(self.space_gold[space]);
            self.space_gold[space] = 0;
        }
    }

    /// Applies a card's effects in order; the encounters end
    /// ([`Flow::EndTurn`]) when one ends the turn, kills the character or
    /// moves it off the space it met the card on.
    fn apply_card_effects<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        card: u16,
        r: &mut R,
        trace: &mut T,
    ) -> Flow {
        let rules = self.rules;
        let space = self.players[seat].hero.space;
        for &effect in rules.effects_of(usize::from(card)) {
            if !self.players[seat].alive {
                return Flow::EndTurn;
            }
            if self.apply(seat, effect, Source::Card(card), r, trace) == Flow::EndTurn {
                return Flow::EndTurn;
            }
        }
        let player = &self.players[seat];
        if player.alive && player.hero.space == space {
            Flow::Continue
        } else {
            Flow::EndTurn
        }
    }

    /// Fights the enemies (or spirits) on a space: the single creatures
    /// together as one [16:5], then each pack, member by member.
    fn fight_creatures<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        space: usize,
        psychic: bool,
        r: &mut R,
        trace: &mut T,
    ) -> Flow {
        let rules = self.rules;
        let kind = if psychic {
            CardKind::Spirit
        } else {
            CardKind::Enemy
        };
        let level_of = |c: u16| {
            let card = &rules.cards[usize::from(c)];
            if psychic { card.craft } else { card.strength }
        };
        let mut total = 0;
        let mut first = None;
        for &c in &self.pile[space][..usize::from(self.pile_len[space])] {
            let card = &rules.cards[usize::from(c)];
            if card.kind == kind && card.pack <= 1 {
                total += level_of(c);
                first.get_or_insert(c);
            }
        }
        if let Some(lead) = first {
            let may_evade = evadable(self, seat);
            let result = self.creature_fight(
                seat,
                total,
                0,
                psychic,
                may_evade,
                Source::Card(lead),
                r,
                trace,
            );
            match result {
                None => return Flow::Continue,
                Some(Result3::Win) => {
                    let mut i = 0;
                    while i < usize::from(self.pile_len[space]) {
                        let c = self.pile[space][i];
                        let card = &rules.cards[usize::from(c)];
                        if card.kind == kind && card.pack <= 1 {
                            self.remove_from_pile(space, i);
                            self.discard_card(c);
                        } else {
                            i += 1;
                        }
                    }
                    self.gain_experience(seat, total, psychic);
                }
                Some(_) => return Flow::EndTurn,
            }
        }
        let mut i = 0;
        while i < usize::from(self.pile_len[space]) {
            let c = self.pile[space][i];
            let card = &rules.cards[usize::from(c)];
            if card.kind != kind || card.pack <= 1 {
                i += 1;
                continue;
            }
            let level = level_of(c);
            match self.fight_pack(seat, level, card.pack, psychic, Source::Card(c), r, trace) {
                None => i += 1,
                Some(Result3::Win) => {
                    self.remove_from_pile(space, i);
                    self.discard_card(c);
                }
                Some(_) => return Flow::EndTurn,
            }
        }
        Flow::Continue
    }

    /// A pack [16:5]: `count` rounds against creatures of the same
    /// Strength; all must be beaten; experience is the common Strength
    /// once. Returns `None` if evaded.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn fight_pack<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        level: i32,
        count: u8,
        psychic: bool,
        source: Source,
        r: &mut R,
        trace: &mut T,
    ) -> Option<Result3> {
        let may_evade = evadable(self, seat);
        for k in 0..count {
            // Only the first member can be evaded: evading avoids the pack.
            let result = self.creature_fight(
                seat,
                level,
                0,
                psychic,
                may_evade && k == 0,
                source,
                r,
                trace,
            );
            match result {
                None => return None,
                Some(Result3::Win) => {}
                other => return other,
            }
        }
        self.gain_experience(seat, level, psychic);
        Some(Result3::Win)
    }

    pub(crate) fn gain_experience(&mut self, seat: usize, amount: i32, psychic: bool) {
        let hero = &mut self.players[seat].hero;
        if hero.toad_turns > 0 {
            return;
        }
        if psychic {
            hero.gain_craft_experience(amount);
        } else {
            hero.gain_strength_experience(amount);
        }
        self.enforce_spell_limit(seat);
    }

    /// One combat (or psychic combat) with a creature of level `level`
    /// plus `dice` d6 [16:2-4, 17:2]. The character may evade first where
    /// allowed [18]; spells are cast before the roll [16:3]. A loss costs a
    /// life unless armour saves it [16:11]. `None` means evaded.
    #[allow(clippy::too_many_arguments)]
    pub fn creature_fight<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        level: i32,
        dice: u8,
        psychic: bool,
        may_evade: bool,
        source: Source,
        r: &mut R,
        trace: &mut T,
    ) -> Option<Result3> {
        let rules = self.rules;
        let mut level = level;
        for _ in 0..dice {
            level += r.d6();
        }
        let hero = self.players[seat].hero;
        let bonus = if psychic {
            hero.ability(rules, Ability::PsychicBonus).unwrap_or(0)
        } else {
            hero.ability(rules, Ability::CombatBonus).unwrap_or(0)
        };
        let base = if psychic {
            hero.total_craft(rules)
        } else {
            hero.total_strength(rules)
        } + bonus;
        let best_of_two = !psychic && hero.ability(rules, Ability::BestOfTwoDice).is_some();
        if may_evade {
            let can = hero.ability(rules, Ability::Evade).is_some();
            if can && self.wants_evade(seat, base - level, best_of_two, r) {
                trace.event("Talisman 18:1", || "evades".into());
                return None;
            }
        }
        let (extra, destroyed, evaded) =
            self.combat_spells(seat, base, level, psychic, may_evade, best_of_two, r, trace);
        if evaded {
            return None;
        }
        if !psychic {
            self.break_statute(seat, super::game::STATUTE_COMBAT);
        }
        if destroyed || !self.players[seat].alive {
            return if destroyed {
                Some(Result3::Win)
            } else {
                Some(Result3::Lose)
            };
        }
        let mine = base + extra + roll(r, best_of_two) - self.poisoned(seat);
        let theirs = level + r.d6();
        let mine = mine + self.use_favor(seat, mine - theirs, r, trace);
        let result = compare(mine, theirs);
        trace.event(
            if psychic {
                "Talisman 17:2"
            } else {
                "Talisman 16:4"
            },
            || format!("scores {mine} against {theirs}: {result:?}"),
        );
        if result == Result3::Lose {
            self.defeated(seat);
            let cause = if psychic { Cause::Spirit } else { Cause::Enemy };
            self.wound(seat, cause, source, !psychic, r, trace);
        }
        Some(result)
    }

    /// A lost combat: armour may save the life [16:11]; otherwise the
    /// character may damage its armour instead, or loses the life.
    pub fn wound<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        cause: Cause,
        source: Source,
        armour: bool,
        r: &mut R,
        trace: &mut T,
    ) {
        let rules = self.rules;
        if armour && let Some((slot, save)) = self.players[seat].hero.best_save(rules) {
            let roll = r.d6();
            if roll >= i32::from(save) {
                trace.event("Talisman 16:11", || format!("armour saves on {roll}"));
                return;
            }
            if self.wants_damage_armour(seat, r) {
                let damaged = self.players[seat].hero.damage_worn(slot);
                trace.event("Talisman 16:11", || {
                    format!("damages {} instead", rules.item_name(damaged))
                });
                self.discard_card(damaged);
                self.take_damaged_armour(seat, slot);
                return;
            }
        }
        self.lose_lives(seat, 1, cause, source, trace);
    }

    /// Applies one effect to the character; returns whether the turn goes on.
    pub fn apply<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        effect: Effect,
        source: Source,
        r: &mut R,
        trace: &mut T,
    ) -> Flow {
        let rules = self.rules;
        if !self.players[seat].alive {
            return Flow::EndTurn;
        }
        if let Some(only) = effect.only
            && self.players[seat].hero.alignment != only
        {
            return Flow::Continue;
        }
        let toad = self.players[seat].hero.toad_turns > 0;
        let amount = effect.amount;
        match effect.mechanic {
            Mechanic::Nothing
            | Mechanic::DrawCards
            | Mechanic::Sentinel
            | Mechanic::Portal
            | Mechanic::ValleyOfFire
            | Mechanic::Crown => {}
            Mechanic::GainGold if self.players[seat].hero.can_gain_gold(rules) => {
                self.players[seat].hero.gold += amount
            }
            Mechanic::LoseGold => {
                let hero = &mut self.players[seat].hero;
                hero.gold = (hero.gold - amount).max(0);
            }
            Mechanic::GainStrength if !toad => self.players[seat].hero.strength += amount,
            Mechanic::LoseStrength => {
                let hero = &mut self.players[seat].hero;
                hero.strength = (hero.strength - amount).max(0);
                self.enforce_limits(seat);
            }
            Mechanic::GainCraft if !toad => self.players[seat].hero.craft += amount,
            Mechanic::LoseCraft => {
                let hero = &mut self.players[seat].hero;
                hero.craft = (hero.craft - amount).max(0);
                self.enforce_limits(seat);
            }
            Mechanic::GainLives => self.players[seat].hero.lives += amount,
            Mechanic::Heal => self.players[seat].hero.heal(amount),
            Mechanic::LoseLives => {
                // A death ends the turn: see the alive check below.
                self.lose_lives(seat, amount, Cause::Space, source, trace);
            }
            Mechanic::LoseTurn => {
                self.players[seat].hero.lost_turns += 1;
                return Flow::EndTurn;
            }
            Mechanic::HealForGold => {
                let hero = self.players[seat].hero;
                let want = self.lives_to_buy(seat, amount.max(1), r);
                let price = amount.max(1);
                let hero_lives = want.min(hero.gold / price);
                let h = &mut self.players[seat].hero;
                h.gold -= hero_lives * price;
                h.heal(hero_lives);
            }
            Mechanic::Shop if !toad => self.shop(seat, true, r),
            Mechanic::GainSpells => self.draw_spells(seat, amount),
            Mechanic::Toad => self.turn_into_toad(seat, amount.max(1) as u8, trace),
            Mechanic::DrawCurse => self.draw_curse(seat, r, trace),
            Mechanic::SetAlignment => {
                if let Some(a) = effect.alignment {
                    self.players[seat].hero.alignment = a;
                    self.enforce_limits(seat);
                }
            }
            Mechanic::Fight | Mechanic::PsychicFight => {
                let psychic = effect.mechanic == Mechanic::PsychicFight;
                let level = if psychic {
                    effect.craft
                } else {
                    effect.strength
                };
                let may_evade = evadable(self, seat);
                match self.creature_fight(
                    seat,
                    level,
                    effect.dice,
                    psychic,
                    may_evade,
                    source,
                    r,
                    trace,
                ) {
                    Some(Result3::Win) => self.gain_experience(seat, level, psychic),
                    None => {}
                    Some(_) => return Flow::EndTurn,
                }
            }
            Mechanic::Pack => {
                match self.fight_pack(seat, effect.strength, effect.count, false, source, r, trace)
                {
                    Some(Result3::Win) | None => {}
                    Some(_) => return Flow::EndTurn,
                }
            }
            Mechanic::GainTalisman => {
                if !toad
                    && !self.players[seat].hero.has_talisman(rules)
                    && let Some(card) = self.search_talisman()
                {
                    trace.event("Talisman 13:13", || "gains a Talisman".into());
                    let space = usize::from(self.players[seat].hero.space);
                    let mut left = None;
                    if self.players[seat]
                        .hero
                        .take_talisman(rules, card, |c| left = Some(c))
                    {
                        if let Some(c) = left {
                            self.leave_card(space, c);
                        }
                    } else {
                        self.place_card(space, card);
                    }
                }
            }
            Mechanic::MoveTo => {
                if self.hops < 3 {
                    self.hops += 1;
                    let hero = &mut self.players[seat].hero;
                    hero.space = effect.space;
                    hero.at_portal = false;
                    trace.event("Talisman 13:1", || {
                        format!(
                            "moved to {}",
                            rules.board.spaces[usize::from(effect.space)].name
                        )
                    });
                    self.encounter(seat, r, trace);
                }
                return Flow::EndTurn;
            }
            Mechanic::RollTable => {
                let face = r.d6();
                let entry = rules.tables[usize::from(effect.table) + (face - 1) as usize];
                trace.event("Talisman roll", || {
                    format!("rolls {face}: {:?}", entry.mechanic)
                });
                return self.apply(seat, entry, source, r, trace);
            }
            Mechanic::LoseFollower => {
                let hero = &mut self.players[seat].hero;
                if hero.followers_len > 0 {
                    let f = hero.drop_follower(usize::from(hero.followers_len) - 1);
                    self.discard_card(f);
                }
            }
            Mechanic::GainBites => return self.gain_bites(seat, amount, trace),
            Mechanic::GainFavors => self.gain_favors(seat, amount),
            Mechanic::GainPoison => self.gain_poison(seat, amount, source, trace),
            Mechanic::LosePackAnimal => {
                let mut hero = self.players[seat].hero;
                let mut lost = [0u16; MAX_PACKED + MAX_PULLED + 1];
                let mut n = 0;
                hero.lose_pack_animal(rules, |c| {
                    if n < lost.len() {
                        lost[n] = c;
                        n += 1;
                    }
                });
                self.players[seat].hero = hero;
                for &c in &lost[..n] {
                    self.discard_card(c);
                }
            }
            Mechanic::LoseObject => {
                let hero = &mut self.players[seat].hero;
                if hero.carried_len > 0 {
                    let heaviest = (0..usize::from(hero.carried_len))
                        .max_by_key(|&k| (rules.item(hero.carried[k]).weight, std::cmp::Reverse(k)))
                        .unwrap_or(0);
                    let o = hero.drop_carried(heaviest);
                    self.discard_card(o);
                }
            }
            _ => {}
        }
        if self.players[seat].alive {
            Flow::Continue
        } else {
            Flow::EndTurn
        }
    }

    /// Turns the character into a toad [19:1-2]: objects, gold and
    /// followers stay on the space; Strength and Craft are 1 meanwhile.
    pub fn turn_into_toad<T: Trace>(&mut self, seat: usize, turns: u8, trace: &mut T) {
        let mut hero = self.players[seat].hero;
        if hero.toad_turns > 0 {
            return;
        }
        self.leave_belongings(&mut hero);
        // Three of its own turns, counting the one in progress [19:1].
        hero.toad_turns = turns;
        self.players[seat].hero = hero;
        trace.event("Talisman 19:1", || {
            format!("seat {} becomes a toad", seat + 1)
        });
    }

    /// Whether `seat` can steal a gold from `target` [13:3]: it has the
    /// ability, the target has gold, and it may gain gold (not a toad, not
    /// under a `no_gold` curse).
    pub fn can_steal_from(&self, seat: usize, target: usize) -> bool {
        let thief = &self.players[seat].hero;
        thief.ability(self.rules, Ability::Steal).is_some()
            && self.players[target].hero.gold > 0
            && thief.can_gain_gold(self.rules)
    }

    /// Meets another character [13:3]: steals if it can and prefers to,
    /// else attacks.
    pub fn meet_character<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        target: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        if self.can_steal_from(seat, target) {
            self.break_statute(seat, super::game::STATUTE_STEAL);
            self.players[target].hero.gold -= 1;
            self.players[seat].hero.gold += 1;
            trace.event("Talisman 13:3", || {
                format!("steals a gold from seat {}", target + 1)
            });
            return;
        }
        self.character_combat(seat, target, r, trace);
    }

    /// Combat between two characters [16:6-10]: the defender may evade
    /// with a spell; the victor takes a life or one object, follower or
    /// gold [16:9]. Psychic attackers fight by Craft [17:1].
    pub fn character_combat<R: Roll, T: Trace>(
        &mut self,
        seat: usize,
        target: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let rules = self.rules;
        let psychic = self.players[seat]
            .hero
            .ability(rules, Ability::PsychicAttack)
            .is_some();
        if self.defender_evades(target, r, trace) {
            return;
        }
        if !psychic {
            self.break_statute(seat, super::game::STATUTE_COMBAT);
            self.break_statute(target, super::game::STATUTE_COMBAT);
        }
        let score = |g: &Game<'_>, s: usize| {
            let h = &g.players[s].hero;
            if psychic {
                h.total_craft(rules)
            } else {
                h.total_strength(rules)
            }
        };
        let best = |g: &Game<'_>, s: usize| {
            !psychic
                && g.players[s]
                    .hero
                    .ability(rules, Ability::BestOfTwoDice)
                    .is_some()
        };
        let (a_best, d_best) = (best(self, seat), best(self, target));
        let a = score(self, seat) + roll(r, a_best) - self.poisoned(seat);
        let d = score(self, target) + roll(r, d_best) - self.poisoned(target);
        let a = a + self.use_favor(seat, a - d, r, trace);
        let d = d + self.use_favor(target, d - a, r, trace);
        let result = compare(a, d);
        trace.event("Talisman 16:8", || {
            format!(
                "seat {} scores {a} against seat {}'s {d}: {result:?}",
                seat + 1,
                target + 1
            )
        });
        match result {
            Result3::Win => {
                self.defeated(target);
                self.spoils(seat, target, psychic, r, trace)
            }
            Result3::Lose => {
                self.defeated(seat);
                self.spoils(target, seat, psychic, r, trace)
            }
            Result3::StandOff => {}
        }
    }

    /// The victor's spoils [16:9]: a life (armour may save it [16:11]) when
    /// the loser is down to its last lives, else its best object it can
    /// use, else a gold, else a life.
    fn spoils<R: Roll, T: Trace>(
        &mut self,
        victor: usize,
        loser: usize,
        psychic: bool,
        r: &mut R,
        trace: &mut T,
    ) {
        let rules = self.rules;
        // A warrant holder may be sent to the Donjon instead [16:9].
        if self.wants_donjon_as_spoils(victor, loser, r) {
            trace.event("Talisman 16:9", || {
                format!("sends seat {} to the Donjon", loser + 1)
            });
            self.send_to_donjon(loser, trace);
            return;
        }
        let take_life = self.wants_life_as_spoils(victor, loser, r);
        if !take_life {
            let l = self.players[loser].hero;
            if let Some(i) = (0..usize::from(l.carried_len)).max_by_key(|&k| {
                let it = rules.item(l.carried[k]);
                (it.talisman, it.strength + it.craft, std::cmp::Reverse(k))
            }) {
                let card = l.carried[i];
                let mut v = self.players[victor].hero;
                if v.take_object(rules, card) {
                    self.players[victor].hero = v;
                    self.players[loser].hero.drop_carried(i);
                    trace.event("Talisman 16:9", || {
                        format!("takes {}", rules.item_name(card))
                    });
                    return;
                }
            }
            if l.gold > 0 && self.players[victor].hero.can_gain_gold(rules) {
                self.players[loser].hero.gold -= 1;
                self.players[victor].hero.gold += 1;
                trace.event("Talisman 16:9", || "takes a gold".into());
                return;
            }
        }
        self.wound(loser, Cause::Character, Source::None, !psychic, r, trace);
    }
}
