//! Players: `sensible` and `random`. The sensible player builds up in the
//! outer and middle regions, looks for a Talisman, heads inward once its
//! total Strength plus Craft reaches a threshold, evades what it is unlikely
//! to beat and heals when low. Its knobs are scenario parameters.

use barsoom_engine::search::{self, SearchSpec, SpecError};
use serde::Deserialize;

/// The sensible player's knobs (scenario `[sensible]` table).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct SensibleKnobs {
    /// Total Strength + Craft at which it climbs to the middle region.
    pub middle_threshold: i32,
    /// Total Strength + Craft at which it heads for the Portal of Power
    /// (with a Talisman) [11:21].
    pub inward_threshold: i32,
    /// Lives at or below which it looks for healing.
    pub heal_below: i32,
    /// Evades a creature when its chance of winning is below this [18].
    pub evade_below: f64,
    /// Attacks another character when its chance of winning is at least this.
    pub attack_above: f64,
    /// Turns back in the inner region at or below this many lives [11:5].
    pub retreat_lives: i32,
}

impl Default for SensibleKnobs {
    fn default() -> Self {
        SensibleKnobs {
            middle_threshold: 9,
            inward_threshold: 15,
            heal_below: 2,
            evade_below: 0.45,
            attack_above: 0.65,
            retreat_lives: 1,
        }
    }
}

/// How a seat plays where it does not search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Base {
    /// The documented heuristic player.
    Sensible(SensibleKnobs),
    /// Every choice uniformly at random among the legal ones.
    Random,
}

/// How a seat plays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Policy {
    /// The documented heuristic player.
    Sensible(SensibleKnobs),
    /// Every choice uniformly at random among the legal ones.
    Random,
    /// The shared search player ([`barsoom_engine::search`]) over a base.
    Search(SearchSpec<Base>),
}

/// The player names a scenario accepts.
pub const POLICY_NAMES: &str = "sensible, random, search, search:PLAYOUTS or search:PLAYOUTS:BASE";

impl Policy {
    /// Parses a policy name with the scenario's sensible knobs: `None` for
    /// an unknown name, an error for a malformed `search:` spec.
    pub fn parse(name: &str, knobs: SensibleKnobs) -> Option<Result<Policy, SpecError>> {
        let base = |n: &str| match n {
            "sensible" => Some(Base::Sensible(knobs)),
            "random" => Some(Base::Random),
            _ => None,
        };
        if let Some(spec) = SearchSpec::parse(name, Base::Sensible(knobs), "sensible, random", base)
        {
            return Some(spec.map(Policy::Search));
        }
        base(name).map(|b| Ok(Policy::from(b)))
    }

    /// The policy's name.
    pub fn name(&self) -> &'static str {
        match self {
            Policy::Sensible(_) => "sensible",
            Policy::Random => "random",
            Policy::Search(_) => "search",
        }
    }

    /// How it plays where it does not search.
    pub fn base(&self) -> Base {
        match *self {
            Policy::Sensible(k) => Base::Sensible(k),
            Policy::Random => Base::Random,
            Policy::Search(s) => s.base,
        }
    }
}

impl From<Base> for Policy {
    fn from(base: Base) -> Policy {
        match base {
            Base::Sensible(k) => Policy::Sensible(k),
            Base::Random => Policy::Random,
        }
    }
}

use super::character::HEAL_CAP;
use super::combat::odds;
use super::data::{Ability, CardKind, Effect, MAX_PURCHASES, Mechanic, Slot};
use super::game::{Game, Roll};

impl Game<'_> {
    fn knobs(&self, seat: usize) -> Option<SensibleKnobs> {
        match self.players[seat].policy.base() {
            Base::Sensible(k) => Some(k),
            Base::Random => None,
        }
    }

    /// A yes-or-no decision: the search player's, or `base`'s.
    pub(crate) fn decide_yes<R: Roll>(
        &mut self,
        seat: usize,
        kind: &'static str,
        r: &mut R,
        base: impl FnOnce(&Self, &mut R) -> bool,
    ) -> bool {
        search::decide(self, (), seat, kind, 2, |g, r| usize::from(base(g, r)), r) == 1
    }

    /// A choice of at most one of `options` (index 0: none), the search
    /// player's or `base`'s.
    fn decide_among<R: Roll, X: Copy + PartialEq>(
        &mut self,
        seat: usize,
        kind: &'static str,
        options: &[X],
        r: &mut R,
        base: impl FnOnce(&Self, &mut R) -> Option<X>,
    ) -> Option<X> {
        let pick = search::decide(
            self,
            (),
            seat,
            kind,
            options.len() + 1,
            |g, r| {
                base(g, r)
                    .and_then(|o| options.iter().position(|&x| x == o))
                    .map_or(0, |i| i + 1)
            },
            r,
        );
        pick.checked_sub(1).map(|i| options[i])
    }

    /// Total Strength plus Craft, the sensible player's measure of readiness.
    pub fn power(&self, seat: usize) -> i32 {
        let h = &self.players[seat].hero;
        h.total_strength(self.rules) + h.total_craft(self.rules)
    }

    /// Chance of winning a combat at this Strength difference.
    fn win_chance(&self, seat: usize, difference: i32, psychic: bool) -> f64 {
        let best = !psychic
            && self.players[seat]
                .hero
                .ability(self.rules, Ability::BestOfTwoDice)
                .is_some();
        odds(difference, best)[0]
    }

    /// Whether to evade a creature [18]: the sensible player evades when
    /// its chance of winning is below its knob; the random player tosses a coin.
    pub(crate) fn wants_evade<R: Roll>(
        &mut self,
        seat: usize,
        difference: i32,
        best_of_two: bool,
        r: &mut R,
    ) -> bool {
        self.decide_yes(seat, "evade", r, |g, r| match g.knobs(seat) {
            Some(k) => odds(difference, best_of_two)[0] < k.evade_below,
            None => r.pick(2) == 1,
        })
    }

    /// Whether to damage armour rather than lose a life [16:11]: the
    /// sensible player does when the life is one of its last two.
    pub(crate) fn wants_damage_armour<R: Roll>(&mut self, seat: usize, r: &mut R) -> bool {
        self.decide_yes(seat, "damage armour", r, |g, r| match g.knobs(seat) {
            Some(_) => g.players[seat].hero.lives <= 2,
            None => r.pick(2) == 1,
        })
    }

    /// Whether to have the damaged armour of `slot` repaired [16:11]: the
    /// sensible player does while it wears nothing there; the random
    /// player tosses a coin.
    pub(crate) fn wants_repair<R: Roll>(&mut self, seat: usize, slot: usize, r: &mut R) -> bool {
        self.decide_yes(seat, "repair armour", r, |g, r| match g.knobs(seat) {
            Some(_) => !g.players[seat].hero.wears(slot),
            None => r.pick(2) == 1,
        })
    }

    /// Lives to buy at `price` each: the sensible player heals in full; the
    /// random player a random number.
    pub(crate) fn lives_to_buy<R: Roll>(&mut self, seat: usize, _price: i32, r: &mut R) -> i32 {
        let missing = (HEAL_CAP - self.players[seat].hero.lives).max(0);
        let choices = missing as usize + 1;
        let buy = search::decide(
            self,
            (),
            seat,
            "lives to buy",
            choices,
            |g, r| match g.knobs(seat) {
                Some(_) => missing as usize,
                None => r.pick(choices),
            },
            r,
        );
        buy as i32
    }

    /// Buys purchase items, one decision per item: the sensible player
    /// buys the first useful item (a weapon if it has none, then armour,
    /// shield, helmet, then Craft) it can afford and carry, repeatedly; the
    /// random player buys one random affordable item half the time. Only
    /// items on sale there are offered (`deck`: the space's shop sells
    /// from the Purchase deck; see `merchants.rs`).
    pub(crate) fn shop<R: Roll>(&mut self, seat: usize, deck: bool, r: &mut R) {
        let rules = self.rules;
        let base = super::character::PURCHASE_BASE;
        self.repair_armour(seat, r);
        let mut bought = 0;
        loop {
            let gold = self.players[seat].hero.gold;
            let mut affordable = [0usize; MAX_PURCHASES];
            let n = self.for_sale(seat, deck, gold, &mut affordable);
            let affordable = &affordable[..n];
            let choice = search::decide(
                self,
                (),
                seat,
                "purchase",
                n + 1,
                |g, r| match g.knobs(seat) {
                    None if bought > 0 || n == 0 || r.pick(2) == 0 => 0,
                    None => 1 + r.pick(n),
                    Some(_) => g
                        .sensible_purchase(seat, affordable)
                        .and_then(|i| affordable.iter().position(|&a| a == i))
                        .map_or(0, |k| k + 1),
                },
                r,
            );
            let Some(&i) = choice.checked_sub(1).and_then(|k| affordable.get(k)) else {
                return;
            };
            if !self.players[seat].hero.take_object(rules, base + i as u16) {
                return;
            }
            self.players[seat].hero.gold -= rules.purchases[i].price;
            self.sell(seat, i);
            bought += 1;
        }
    }

    /// The sensible player's next purchase: the most useful of the
    /// `offered` items (first in the list on a tie), if any is useful.
    fn sensible_purchase(&self, seat: usize, offered: &[usize]) -> Option<usize> {
        let rules = self.rules;
        let hero = self.players[seat].hero;
        let held = || hero.objects().chain(hero.packed_list().iter().copied());
        let has_weapon = held().any(|o| rules.item(o).weapon);
        let worn = |slot: Slot| held().any(|o| rules.item(o).slot == slot);
        let useful = |i: usize| {
            let it = &rules.purchases[i].item;
            (it.weapon && !has_weapon) as i32 * 40
                + (it.slot != Slot::Carried && !worn(it.slot)) as i32
                    * (10 + 6 - i32::from(it.save))
                + (it.craft > 0 && !it.weapon) as i32 * 5
        };
        offered
            .iter()
            .copied()
            .filter(|&i| rules.purchases[i].price <= hero.gold && useful(i) > 0)
            .max_by_key(|&i| (useful(i), std::cmp::Reverse(i)))
    }

    /// Whether to go down the stair from the middle region: the sensible
    /// player never does; the random player one time in six.
    pub(crate) fn wants_descend<R: Roll>(&mut self, seat: usize, r: &mut R) -> bool {
        self.decide_yes(seat, "descend", r, |g, r| match g.knobs(seat) {
            Some(_) => false,
            None => r.pick(6) == 0,
        })
    }

    /// Whether to try the Sentinel or the Portal on the space a move ended
    /// on: the sensible player climbs once its power reaches the middle
    /// threshold and opens the Portal once it reaches the inward threshold
    /// and holds a Talisman; the random player tosses a coin.
    pub(crate) fn wants_cross<R: Roll>(&mut self, seat: usize, space: usize, r: &mut R) -> bool {
        self.decide_yes(seat, "cross", r, |g, r| {
            let board = &g.rules.board;
            match g.knobs(seat) {
                Some(k) => {
                    let power = g.power(seat);
                    if board.gate_is(space, Mechanic::Portal) {
                        power >= k.inward_threshold && g.talisman_in_reach(seat)
                    } else {
                        power >= k.middle_threshold
                    }
                }
                None => r.pick(2) == 1,
            }
        })
    }

    /// Whether to turn back in the inner region [11:5]: the sensible player
    /// does at its retreat lives unless the next space is the Crown; the
    /// random player one time in six.
    pub(crate) fn wants_retreat<R: Roll>(&mut self, seat: usize, r: &mut R) -> bool {
        self.decide_yes(seat, "retreat", r, |g, r| {
            let hero = &g.players[seat].hero;
            match g.knobs(seat) {
                Some(k) => {
                    let next = g.rules.board.path_next(usize::from(hero.space));
                    hero.lives <= k.retreat_lives && next != Some(usize::from(g.rules.board.crown))
                }
                None => r.pick(6) == 0,
            }
        })
    }

    /// Whether to leave the inner region from the Plain of Peril by the
    /// Portal [11:25]: the sensible player does at its retreat lives or
    /// without a Talisman in reach (the Valley of Fire would turn it back
    /// [11:6]); the random player one time in six.
    pub(crate) fn wants_leave_plain<R: Roll>(&mut self, seat: usize, r: &mut R) -> bool {
        self.decide_yes(seat, "leave the plain", r, |g, r| {
            let hero = &g.players[seat].hero;
            match g.knobs(seat) {
                Some(k) => hero.lives <= k.retreat_lives || !g.talisman_in_reach(seat),
                None => r.pick(6) == 0,
            }
        })
    }

    /// Whether the character holds a Talisman or one lies face up on the
    /// inner path ahead of it, short of the Valley of Fire, where it will
    /// meet it: on the Plain of Peril, or on a space it must encounter on
    /// the way [11:3, 12:1]. Talismans dropped where characters died
    /// [4:3] are otherwise never taken up again once the deck has none
    /// left to search [13:13].
    pub(crate) fn talisman_in_reach(&self, seat: usize) -> bool {
        let rules = self.rules;
        let board = &rules.board;
        let hero = &self.players[seat].hero;
        if hero.has_talisman(rules) {
            return true;
        }
        let here = usize::from(hero.space);
        if board.regions[usize::from(board.spaces[here].region)].ring {
            // From the Portal space the path starts on the Plain.
            self.talisman_inside()
        } else {
            self.talisman_ahead(here)
        }
    }

    /// Whether a Talisman lies face up on the inner path from its first
    /// space (the Plain of Peril) up to the Valley of Fire.
    pub(crate) fn talisman_inside(&self) -> bool {
        let board = &self.rules.board;
        board
            .regions
            .iter()
            .position(|r| !r.ring)
            .is_some_and(|inner| self.talisman_ahead(board.region_entry(inner)))
    }

    /// Whether a Talisman lies face up on `from` or a later inner space
    /// short of the Valley of Fire.
    fn talisman_ahead(&self, from: usize) -> bool {
        let rules = self.rules;
        let board = &rules.board;
        let mut at = Some(from);
        while let Some(space) = at {
            if board.gate_is(space, Mechanic::ValleyOfFire) || space == usize::from(board.crown) {
                break;
            }
            let pile = &self.pile[space][..usize::from(self.pile_len[space])];
            if pile
                .iter()
                .any(|&c| rules.cards[usize::from(c)].item.talisman)
            {
                return true;
            }
            at = board.path_next(space);
        }
        false
    }

    /// Whether to go through the doorway on its space to expansion board
    /// `k` [11:33]: the sensible player does when entering is worth it by
    /// [`enter_worth`] (strong enough, healthy, and not yet ready for the
    /// Crown); the random player tosses a coin.
    pub(crate) fn wants_enter_board<R: Roll>(&mut self, seat: usize, x: usize, r: &mut R) -> bool {
        self.decide_yes(seat, "enter board", r, |g, r| match g.knobs(seat) {
            // The City has its own rule (`game/city.rs`) [11:35].
            Some(k) if g.rules.expansions[x].city.is_some() => g.city_worth(seat, &k),
            Some(k) => enter_worth(&g.snapshot(seat), &k),
            None => r.pick(2) == 1,
        })
    }

    /// Whether to face the Vault guardian (Strength or, `psychic`, Craft
    /// `level`) rather than take 3 Bite tokens [11:46]: the sensible player
    /// faces it when the bites would put it out [20:13], else when it has
    /// a life to spare and would more likely beat it than lose; the random
    /// player tosses a coin.
    pub(crate) fn wants_face_guardian<R: Roll>(
        &mut self,
        seat: usize,
        level: i32,
        psychic: bool,
        r: &mut R,
    ) -> bool {
        let bites = i32::from(self.players[seat].hero.bites);
        self.decide_yes(seat, "face guardian", r, |g, r| match g.knobs(seat) {
            Some(_) => face_guardian(&g.snapshot(seat), bites, level, psychic),
            None => r.pick(2) == 1,
        })
    }

    /// Whether to visit a stranger or pass it by [12:1, 13:5]: the sensible
    /// player visits when the stranger's effects score at least 0 on
    /// average by its space scoring (so a stranger more likely to hurt
    /// than help is refused); the random player tosses a coin.
    pub(crate) fn wants_visit_stranger<R: Roll>(
        &mut self,
        seat: usize,
        card: u16,
        r: &mut R,
    ) -> bool {
        self.decide_yes(seat, "visit stranger", r, |g, r| match g.knobs(seat) {
            None => r.pick(2) == 1,
            Some(k) => {
                let me = g.snapshot(seat);
                let value: f64 = g
                    .rules
                    .effects_of(usize::from(card))
                    .iter()
                    .map(|e| g.effect_value(&me, e, &k))
                    .sum();
                value >= 0.0
            }
        })
    }

    /// Where to cross the Storm River by raft from `space`, if at all
    /// [11:18]: the sensible player crosses inward once its power reaches
    /// the middle threshold (the raft spares it the Sentinel), to the space
    /// across that scores best, and never outward; the random player
    /// crosses half the time, to a random space across.
    pub(crate) fn choose_raft_crossing<R: Roll>(
        &mut self,
        seat: usize,
        space: usize,
        r: &mut R,
    ) -> Option<usize> {
        let rules = self.rules;
        let board = &rules.board;
        let across = board.across_river(space);
        if across.is_empty() {
            return None;
        }
        let crossing = self.decide_among(seat, "raft crossing", across, r, |g, r| {
            match g.knobs(seat) {
                None => (r.pick(2) == 1).then(|| across[r.pick(across.len())]),
                Some(k) => {
                    let inward =
                        board.spaces[usize::from(across[0])].region > board.spaces[space].region;
                    if !inward || g.power(seat) < k.middle_threshold {
                        return None;
                    }
                    let me = g.snapshot(seat);
                    let mut best = across[0];
                    let mut best_value = g.space_value(&me, usize::from(best), &k);
                    for &a in &across[1..] {
                        let v = g.space_value(&me, usize::from(a), &k);
                        if v > best_value {
                            best = a;
                            best_value = v;
                        }
                    }
                    Some(best)
                }
            }
        });
        crossing.map(usize::from)
    }

    /// Which character on the space to meet instead of the space [13:2]:
    /// the sensible player attacks the one it most likely beats if that
    /// chance reaches its knob; the random player attacks a random one half
    /// the time.
    pub(crate) fn choose_character_to_meet<R: Roll>(
        &mut self,
        seat: usize,
        space: usize,
        r: &mut R,
    ) -> Option<usize> {
        let mut candidates = [0usize; super::game::MAX_PLAYERS];
        let mut n = 0;
        for s in 0..self.seats() {
            if s != seat
                && self.players[s].alive
                && usize::from(self.players[s].hero.space) == space
            {
                candidates[n] = s;
                n += 1;
            }
        }
        if n == 0 {
            return None;
        }
        let candidates = &candidates[..n];
        self.decide_among(seat, "character to meet", candidates, r, |g, r| {
            g.sensible_character_to_meet(seat, candidates, r)
        })
    }

    /// The base policy's character to meet among `candidates`.
    fn sensible_character_to_meet<R: Roll>(
        &self,
        seat: usize,
        candidates: &[usize],
        r: &mut R,
    ) -> Option<usize> {
        let rules = self.rules;
        let n = candidates.len();
        match self.knobs(seat) {
            None => (r.pick(2) == 1).then(|| candidates[r.pick(n)]),
            // No fighting or stealing in the City [13:14].
            Some(_) if self.sensible_in_city(seat) => None,
            Some(k) => {
                let psychic = self.players[seat]
                    .hero
                    .ability(rules, Ability::PsychicAttack)
                    .is_some();
                let score = |s: usize| {
                    let h = &self.players[s].hero;
                    if psychic {
                        h.total_craft(rules)
                    } else {
                        h.total_strength(rules)
                    }
                };
                let (best, chance) = candidates[..n]
                    .iter()
                    .map(|&s| (s, self.win_chance(seat, score(seat) - score(s), psychic)))
                    .fold((0, -1.0), |acc, x| if x.1 > acc.1 { x } else { acc });
                (self.can_steal_from(seat, best) || chance >= k.attack_above).then_some(best)
            }
        }
    }

    /// The victor takes a life rather than goods [16:9]: the sensible
    /// player does when that kills, when the loser has nothing worth
    /// taking (no object, and no gold it may gain), and on the Crown of
    /// Command, where the characters' turns are only fights with each
    /// other until one is left [14:5], so goods taken there would only
    /// pass back and forth.
    pub(crate) fn wants_life_as_spoils<R: Roll>(
        &mut self,
        victor: usize,
        loser: usize,
        r: &mut R,
    ) -> bool {
        self.decide_yes(victor, "life as spoils", r, |g, r| {
            let l = &g.players[loser].hero;
            match g.knobs(victor) {
                Some(_) => {
                    let gold_worth_taking =
                        l.gold > 0 && g.players[victor].hero.can_gain_gold(g.rules);
                    l.lives <= 1
                        || (l.carried_len == 0 && !gold_worth_taking)
                        || l.space == g.rules.board.crown
                }
                None => r.pick(2) == 1,
            }
        })
    }

    /// Picks the destination of a move among the two directions [11:1]:
    /// the sensible player scores each space (see [`Game::space_value`]);
    /// the random player picks either.
    pub(crate) fn choose_destination<R: Roll>(
        &mut self,
        seat: usize,
        options: [usize; 2],
        r: &mut R,
    ) -> usize {
        let pick = search::decide(
            self,
            (),
            seat,
            "destination",
            2,
            |g, r| match g.knobs(seat) {
                None => r.pick(2),
                Some(k) => {
                    let me = g.snapshot(seat);
                    let a = g.space_value(&me, options[0], &k);
                    let b = g.space_value(&me, options[1], &k);
                    usize::from(b > a)
                }
            },
            r,
        );
        options[pick]
    }

    /// What the sensible player's scoring reads of its character,
    /// computed once a decision.
    pub(crate) fn snapshot(&self, seat: usize) -> Snapshot {
        let rules = self.rules;
        let h = &self.players[seat].hero;
        let (strength, craft) = (h.total_strength(rules), h.total_craft(rules));
        Snapshot {
            strength: strength + h.ability(rules, Ability::CombatBonus).unwrap_or(0),
            craft: craft + h.ability(rules, Ability::PsychicBonus).unwrap_or(0),
            power: strength + craft,
            best_of_two: h.ability(rules, Ability::BestOfTwoDice).is_some(),
            talisman: h.has_talisman(rules),
            talisman_inside: self.talisman_inside(),
            lives: h.lives,
            gold: h.gold,
            alignment: h.alignment,
            region: rules.board.spaces[usize::from(h.space)].region,
        }
    }

    /// The sensible player's value of ending a move on `space`: healing
    /// when low, the gate it is ready for (Sentinel, Portal), a Talisman
    /// when it has none, cards to draw, shops with gold, minus the danger
    /// of fights and life losses (by the exact combat odds).
    pub(crate) fn space_value(&self, me: &Snapshot, space: usize, k: &SensibleKnobs) -> f64 {
        let rules = self.rules;
        let board = &rules.board;
        let mut value = 0.0;
        if board.gate_is(space, Mechanic::Sentinel) && me.power >= k.middle_threshold {
            value += 8.0;
        }
        if board.gate_is(space, Mechanic::Portal)
            && me.power >= k.inward_threshold
            && (me.talisman || me.talisman_inside)
        {
            value += 12.0;
        }
        for e in board.effects_of(space) {
            value += self.effect_value(me, e, k);
        }
        let pile = &self.pile[space][..usize::from(self.pile_len[space])];
        for &c in pile {
            let card = &rules.cards[usize::from(c)];
            value += match card.kind {
                CardKind::Enemy => fight_value(me, card.strength, false),
                CardKind::Spirit => fight_value(me, card.craft, true),
                CardKind::Object if card.item.talisman && !me.talisman => 6.0,
                CardKind::Object | CardKind::Follower => 1.0,
                // A doorway to a board it would enter [11:32].
                _ if card
                    .doorway
                    .is_some_and(|b| self.config.tournament.board_on(usize::from(b))) =>
                {
                    if enter_worth(me, k) {
                        3.0
                    } else {
                        0.0
                    }
                }
                _ => rules
                    .effects_of(usize::from(c))
                    .iter()
                    .map(|e| self.effect_value(me, e, k))
                    .sum(),
            };
        }
        value += f64::from(self.space_gold[space]) * 0.5;
        value
    }

    fn effect_value(&self, me: &Snapshot, e: &Effect, k: &SensibleKnobs) -> f64 {
        let rules = self.rules;
        if e.only.is_some_and(|a| a != me.alignment) {
            return 0.0;
        }
        let low = me.lives <= k.heal_below;
        let missing = f64::from((HEAL_CAP - me.lives).max(0));
        match e.mechanic {
            Mechanic::DrawCards => f64::from(e.amount) * if me.region > 0 { 1.2 } else { 0.8 },
            Mechanic::Heal => missing.min(f64::from(e.amount)) * if low { 4.0 } else { 0.5 },
            Mechanic::HealForGold if me.gold >= e.amount.max(1) => {
                missing.min(f64::from(me.gold / e.amount.max(1))) * if low { 4.0 } else { 0.3 }
            }
            Mechanic::Shop if me.gold >= 2 => 1.5,
            Mechanic::LoseLives => -f64::from(e.amount) * if low { 6.0 } else { 2.0 },
            Mechanic::LoseTurn => -1.0,
            Mechanic::LoseStrength | Mechanic::LoseCraft => -2.0 * f64::from(e.amount),
            Mechanic::GainLives => 3.0 * f64::from(e.amount),
            Mechanic::LoseGold => -0.5 * f64::from(e.amount),
            Mechanic::GainStrength | Mechanic::GainCraft => 2.0 * f64::from(e.amount),
            Mechanic::GainGold => 0.5 * f64::from(e.amount),
            Mechanic::GainSpells => 1.0,
            Mechanic::GainTalisman if !me.talisman => {
                if me.power >= k.middle_threshold {
                    6.0
                } else {
                    2.0
                }
            }
            Mechanic::Fight => fight_value(me, e.strength + 7 * i32::from(e.dice) / 2, false),
            Mechanic::PsychicFight => fight_value(me, e.craft + 7 * i32::from(e.dice) / 2, true),
            Mechanic::Toad => -3.0,
            Mechanic::DrawCurse => -2.0,
            Mechanic::GainBites => -1.5 * f64::from(e.amount),
            Mechanic::GainFavors => f64::from(e.amount),
            Mechanic::GainPoison => -1.5 * f64::from(e.amount),
            Mechanic::RollTable => {
                let start = usize::from(e.table);
                rules.tables[start..start + 6]
                    .iter()
                    .map(|x| self.effect_value(me, x, k))
                    .sum::<f64>()
                    / 6.0
            }
            _ => 0.0,
        }
    }
}

/// A character as the sensible player's scoring sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Snapshot {
    /// Total Strength with its bonus against creatures.
    pub strength: i32,
    /// Total Craft with its psychic bonus.
    pub craft: i32,
    /// Total Strength plus total Craft.
    pub power: i32,
    /// Whether it keeps the better of two combat dice.
    pub best_of_two: bool,
    /// Whether it holds a Talisman.
    pub talisman: bool,
    /// Whether a Talisman lies on the inner path short of the Valley of
    /// Fire (see [`Game::talisman_inside`]).
    pub talisman_inside: bool,
    /// Lives.
    pub lives: i32,
    /// Gold.
    pub gold: i32,
    /// Alignment.
    pub alignment: super::data::Alignment,
    /// The region it stands in.
    pub region: u8,
}

/// Whether the sensible player goes through a doorway to an expansion
/// board [11:33]: its power has reached the middle threshold (strong
/// enough for the board's creatures), it has more than `heal_below + 1`
/// lives, and it is not yet ready for the Crown (power below the inward
/// threshold, or no Talisman in reach), when the board's cards, treasure
/// and the chart back to the main board are worth the turns.
pub(crate) fn enter_worth(me: &Snapshot, k: &SensibleKnobs) -> bool {
    let ready_for_crown = me.power >= k.inward_threshold && (me.talisman || me.talisman_inside);
    me.power >= k.middle_threshold && me.lives > k.heal_below + 1 && !ready_for_crown
}

/// The sensible player's Vault choice [11:46] (see `wants_face_guardian`).
pub(crate) fn face_guardian(me: &Snapshot, bites: i32, level: i32, psychic: bool) -> bool {
    use crate::talisman::game::VAULT_BITES;
    use crate::talisman::tournament::BITES_OUT;
    if bites + VAULT_BITES >= BITES_OUT {
        return true;
    }
    let mine = if psychic { me.craft } else { me.strength };
    let [win, _, lose] = odds(mine - level, !psychic && me.best_of_two);
    me.lives > 1 && win >= lose
}

/// Value of a fight: the chance of winning (more for stronger creatures)
/// less the chance of losing a life (dearer when low).
fn fight_value(me: &Snapshot, level: i32, psychic: bool) -> f64 {
    let mine = if psychic { me.craft } else { me.strength };
    let [win, _, lose] = odds(mine - level, !psychic && me.best_of_two);
    let life = if me.lives <= 2 { 4.0 } else { 2.0 };
    win * (1.0 + f64::from(level) * 0.2) - lose * life
}
