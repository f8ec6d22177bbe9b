//! The Random Events Phase (Phase C [8.0, 18.0]): drawing, immediate cards
//! and the hand; the cards played at the start of a Player-Turn, for the
//! hero and against him.

use crate::jc::duel::model::Entry;
use crate::jc::duel::roster::Class;
use crate::jc::event_deck::{Effect, Play};
use crate::jc::map::{FLIER, WALK};
use crate::jc::strategic::consts;
use crate::jc::strategic::consts::NONE;
use crate::jc::strategic::dice::Roller;
use crate::jc::strategic::friends;
use crate::jc::strategic::game;
use crate::jc::strategic::game::{Context, Game, Place, Status};
use crate::jc::strategic::romance::female;
use crate::jc::strategic::tables::{ITEM_FLIER, STREET};
use crate::jc::strategic::tactics;
use barsoom_engine::Trace;

impl Game {
    /// The player who runs hero `p`'s villain.
    pub(crate) fn villain_player(&self, p: usize) -> usize {
        usize::from(self.parties[p].controller)
    }

    /// The first card in player `q`'s hand playable for a hero (`for_hero`)
    /// or a villain whose effect `f` accepts.
    pub fn held(
        &self,
        ctx: &Context,
        q: usize,
        for_hero: bool,
        f: impl Fn(&Effect) -> bool,
    ) -> Option<(u8, Effect)> {
        let deck = &ctx.data.story.events;
        self.story.hands[q].cards().iter().find_map(|&n| {
            let c = deck.card(n);
            let side_ok = if for_hero {
                c.side.for_hero()
            } else {
                c.side.for_villain()
            };
            (side_ok && f(&c.effect)).then_some((n, c.effect))
        })
    }

    /// Hero `p` plays a card with `effect` from his own hand if he holds
    /// one and his policy wants to [18.16]; whether he did.
    pub(super) fn hero_plays<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        effect: Effect,
        r: &mut R,
        trace: &mut T,
    ) -> bool {
        let Some((n, _)) = self.hero_card(ctx, p, |e| *e == effect, r) else {
            return false;
        };
        if !self.hero_chooses(ctx, p, true, r) {
            return false;
        }
        self.play_card(ctx, p, p, n, trace);
        true
    }

    /// Player `q` plays card `n` (from his hand, or just drawn) on hero
    /// `p`'s affairs: it goes to the face-up pile [18.14].
    pub(crate) fn play_card<T: Trace>(
        &mut self,
        ctx: &Context,
        q: usize,
        p: usize,
        n: u8,
        trace: &mut T,
    ) {
        if !self.story.hands[q].remove(n) {
            // A card another Player offered [18.17].
            for hand in &mut self.story.hands {
                hand.remove(n);
            }
        }
        self.story.piles.played(n);
        if let Some(&e) = ctx.data.story.card_entries.get(usize::from(n) - 1) {
            self.fire(e);
        }
        trace.event("JC 18.2 random event", || {
            format!(
                "turn {}: card {n:02} played for {}: {}",
                self.turn,
                self.name(ctx, p),
                ctx.data.story.events.texts[usize::from(n) - 1]
            )
        });
    }

    /// Phase C [8.0, 18.0]: the story's upkeep for hero `p`, the draw, and
    /// the cards whose moment is the start of the Player-Turn.
    pub(crate) fn random_events_phase<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        if self.story.halt_by == p as u8 {
            self.story.halt_by = NONE;
        }
        self.note_companions(ctx, p, trace);
        self.tars_tarkas_upkeep(ctx, p, trace);
        let s = &mut self.story.heroes[p];
        if s.slave.0 != NONE && self.heroes[p].city() != Some(s.slave.1) {
            s.slave = (NONE, consts::NO_PLACE);
        }
        self.brain_transfer(ctx, p, r, trace);
        self.draw_event(ctx, p, r, trace);
        if self.heroes[p].status != Status::Free || !self.heroes[p].in_play() {
            return;
        }
        self.hero_cards_at_turn_start(ctx, p, r, trace);
        if !self.heroes[p].city.active {
            self.villain_cards_at_turn_start(ctx, p, r, trace);
        }
    }

    /// Player `p` draws a card [18.0 PROCEDURE, 18.11, 18.13].
    fn draw_event<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let deck = &ctx.data.story.events;
        let face_down =
            self.story.piles.face_down_top().is_some() && tactics::draw_face_down(self, p, r);
        let card = if face_down {
            self.story.piles.draw_face_down()
        } else {
            self.story
                .piles
                .draw(deck.unique, |n| r.pick(n as usize) as u32)
        };
        let Some(n) = card else {
            return;
        };
        let c = deck.card(n);
        if c.play == Play::Immediate {
            self.play_card(ctx, p, p, n, trace);
            self.immediate(ctx, p, c.effect, trace);
            return;
        }
        self.story.hands[p].add(n);
        if self.story.hands[p].len() > usize::from(deck.hand_limit) {
            let i = tactics::discard(ctx, self, p, r);
            let d = self.story.hands[p].remove_at(i);
            self.story.piles.discard(d);
            trace.event("JC 18.11 discard", || {
                format!("player {} discards a card over the hand limit", p + 1)
            });
        }
    }

    /// An immediate card drawn by player `p`, on his own hero.
    fn immediate<T: Trace>(&mut self, ctx: &Context, p: usize, effect: Effect, trace: &mut T) {
        match effect {
            Effect::HaltMovement => {
                self.story.halt_by = p as u8;
                for o in 0..usize::from(self.players) {
                    let h = &mut self.heroes[o];
                    if matches!(h.place, Place::Transit(_)) && h.conveyance == FLIER {
                        h.conveyance = WALK;
                    }
                }
            }
            Effect::Transport { place, turns } => {
                if !self.heroes[p].in_play() || self.heroes[p].status != Status::Free {
                    return;
                }
                if self.heroes[p].city.active {
                    self.end_city_game(ctx, p, trace);
                }
                let h = &mut self.heroes[p];
                h.place = Place::City(place);
                self.story.heroes[p].stay_until =
                    self.turn.saturating_add(u16::from(turns.max(1)) - 1);
                trace.event("JC 18.2 transported", || {
                    format!(
                        "{} is set down at {}",
                        self.name(ctx, p),
                        ctx.data.map.cities[usize::from(place)].name
                    )
                });
            }
            Effect::GainFlier => self.gain(p, ITEM_FLIER),
            Effect::Reinforcements { series, warriors } => {
                self.reinforce(ctx, p, series, warriors, trace)
            }
            _ => {}
        }
    }

    /// A minor character of `series` and `warriors` warriors of the hero's
    /// home city join hero `p` (card 56).
    fn reinforce<T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        series: (u16, u16),
        warriors: u8,
        trace: &mut T,
    ) {
        let data = ctx.data;
        let own = self.story.heroes[p].body;
        let hero = if own != NONE {
            own
        } else {
            self.heroes[p].character
        };
        let home = data.home(hero).unwrap_or(data.start);
        let s = friends::Series {
            spans: [series, (0, 0), (0, 0), (0, 0)],
            len: 1,
        };
        if let Some(k) = self.nearest_free(ctx, home, &s) {
            self.friend_joins(ctx, p, k, trace);
        }
        let w = data.places[usize::from(home)].warriors;
        for _ in 0..warriors {
            self.heroes[p].join(w);
        }
    }

    /// Hero `p`'s cards at the start of his Player-Turn.
    fn hero_cards_at_turn_start<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        if self.heroes[p].conveyance != FLIER
            && self.hero_plays(ctx, p, Effect::GainFlier, r, trace)
        {
            self.gain(p, ITEM_FLIER);
        }
        if let Some((n, e)) =
            self.hero_card(ctx, p, |e| matches!(e, Effect::Reinforcements { .. }), r)
            && self.hero_chooses(ctx, p, true, r)
        {
            self.play_card(ctx, p, p, n, trace);
            self.immediate(ctx, p, e, trace);
        }
        if self.story.heroes[p].safe == NONE
            && let Some((n, _)) = self.hero_card(ctx, p, |e| *e == Effect::SafeCompanion, r)
        {
            let candidates = self.treachery_candidates(ctx, p);
            let sensible = tactics::hero_sensible(self, p);
            let best = |k: u8| tactics::fighting_worth(ctx, k) + if female(ctx, k) { 1 } else { 0 };
            if candidates != 0
                && self.hero_chooses(ctx, p, true, r)
                && let Some(k) = tactics::pick_character(sensible, candidates, best, r)
            {
                self.play_card(ctx, p, p, n, trace);
                self.story.heroes[p].safe = k;
            }
        }
        self.remorse(ctx, p, r, trace);
    }

    /// Hero `p` plays remorse on a traitor, if he holds it and has one
    /// [12.3].
    pub(super) fn remorse<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let targets = self.remorse_targets(p);
        if targets == 0 {
            return;
        }
        let Some((n, _)) = self.hero_card(ctx, p, |e| *e == Effect::Remorse, r) else {
            return;
        };
        if !self.hero_chooses(ctx, p, true, r) {
            return;
        }
        let sensible = tactics::hero_sensible(self, p);
        if let Some(k) =
            tactics::pick_character(sensible, targets, |k| i32::from(female(ctx, k)), r)
        {
            self.play_card(ctx, p, p, n, trace);
            self.repent(ctx, p, k, trace);
        }
    }

    /// The villain's Player plays a treachery card (cards 11-15) against
    /// hero `p` on one of `candidates` if he holds one and wants to [12.2]:
    /// the traitor chosen, the card played.
    pub(super) fn treachery_card<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        candidates: u128,
        r: &mut R,
        trace: &mut T,
    ) -> Option<u8> {
        if candidates == 0 {
            return None;
        }
        let q = self.villain_player(p);
        let (n, _) = self.villain_card(ctx, p, |e| *e == Effect::Treachery, r)?;
        if !self.villain_chooses(ctx, p, true, r) {
            return None;
        }
        let sensible = tactics::villain_sensible(self, p);
        let k =
            tactics::pick_character(sensible, candidates, |k| tactics::fighting_worth(ctx, k), r)?;
        self.play_card(ctx, q, p, n, trace);
        Some(k)
    }

    /// The villain's cards against hero `p` at the start of the hero's
    /// Player-Turn (away from the villain's city game).
    fn villain_cards_at_turn_start<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        if !game::party_present(&self.parties[p]) {
            return;
        }
        let q = self.villain_player(p);
        let sensible = tactics::villain_sensible(self, p);
        // Treachery [12.22, 13.22] or the one roll of [13.31].
        if !self.in_villain_city(p) {
            let allowed = self
                .treachery_candidates(ctx, p)
                .iter_bits()
                .filter(|&k| self.treachery_allowed(ctx, p, k))
                .fold(0u128, |s, k| s | (1u128 << k));
            if let Some(k) = self.treachery_card(ctx, p, allowed, r, trace) {
                self.betray(ctx, p, k, r, trace);
            } else {
                self.minor_character_roll(ctx, p, r, trace);
            }
        }
        // The villain's own reinforcements [10.21, 10.5].
        let party = &self.parties[p];
        if game::party_present(party)
            && party.henchmen_len < party.limit
            && let Some((n, Effect::VillainReinforcements { warriors })) = self.villain_card(
                ctx,
                p,
                |e| matches!(e, Effect::VillainReinforcements { .. }),
                r,
            )
            && self.villain_chooses(ctx, p, true, r)
        {
            self.play_card(ctx, q, p, n, trace);
            let w = ctx.data.places[usize::from(self.parties[p].city)].warriors;
            let list = [w; 8];
            self.add_henchmen(p, &list[..usize::from(warriors).min(8)]);
        }
        let in_city = self.heroes[p]
            .city()
            .filter(|&c| !ctx.data.places[usize::from(c)].waypoint);
        // The assassin (cards 25-26), in a city.
        if let Some(c) = in_city
            && let Some((n, Effect::Assassin { foe })) =
                self.villain_card(ctx, p, |e| matches!(e, Effect::Assassin { .. }), r)
        {
            let minors = self.heroes[p]
                .retinue()
                .iter()
                .filter(|&&k| {
                    let ch = &ctx.data.roster.characters[usize::from(k)];
                    ch.class == Class::Minor && ch.fights()
                })
                .fold(0u128, |s, &k| s | (1u128 << k));
            if minors != 0
                && self.villain_chooses(ctx, p, true, r)
                && let Some(k) = tactics::pick_character(
                    sensible,
                    minors,
                    |k| tactics::fighting_worth(ctx, k),
                    r,
                )
            {
                self.play_card(ctx, q, p, n, trace);
                self.assassin(ctx, p, k, foe, c, r, trace);
            }
        }
        // A flier sent off course (card 33).
        if let Some(c) = in_city
            && self.heroes[p].conveyance == FLIER
            && let Some((n, _)) = self.villain_card(ctx, p, |e| *e == Effect::DivertFlier, r)
        {
            let goal = self.parties[p].city;
            let here = ctx.data.distance(FLIER, c, goal);
            let g: &Game = self;
            let options = || {
                ctx.data
                    .map
                    .routes
                    .iter()
                    .filter(move |rt| rt.from == c && rt.to != c && g.route_open(ctx, rt, FLIER))
                    .map(|rt| rt.to)
            };
            let count = options().count();
            let choice = if sensible {
                options()
                    .max_by_key(|&t| (ctx.data.distance(FLIER, t, goal), std::cmp::Reverse(t)))
                    .filter(|&t| ctx.data.distance(FLIER, t, goal) > here)
            } else if count == 0 || r.pick(2) == 0 {
                None
            } else {
                options().nth(r.pick(count))
            };
            if let Some(t) = choice {
                self.play_card(ctx, q, p, n, trace);
                self.heroes[p].place = Place::City(t);
                trace.event("JC 18.2 flier diverted", || {
                    format!(
                        "{}'s flier is sent off to {}",
                        self.name(ctx, p),
                        ctx.data.map.cities[usize::from(t)].name
                    )
                });
            }
        }
    }

    /// [13.31] The villain's one roll per game to turn a minor character of
    /// hero `p` while a loved personage travels with him.
    fn minor_character_roll<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let q = self.villain_player(p);
        if self.story.minor_roll_used & (1 << q) != 0 {
            return;
        }
        let Some(loved) = self.love_present(p) else {
            return;
        };
        let minors = self
            .treachery_candidates(ctx, p)
            .iter_bits()
            .filter(|&k| !female(ctx, k) && k != loved)
            .fold(0u128, |s, k| s | (1u128 << k));
        let sensible = tactics::villain_sensible(self, p);
        if minors == 0 || !self.villain_chooses(ctx, p, true, r) {
            return;
        }
        let Some(k) =
            tactics::pick_character(sensible, minors, |k| tactics::fighting_worth(ctx, k), r)
        else {
            return;
        };
        self.story.minor_roll_used |= 1 << q;
        let (lo, hi) = ctx.data.story.romance.minor_betrayal;
        let roll = r.d10();
        if (i32::from(lo)..=i32::from(hi)).contains(&roll) {
            self.betray(ctx, p, k, r, trace);
        } else {
            self.story.heroes[p].staunch |= 1u128 << k;
            trace.event("JC 13.31 staunch", || {
                format!(
                    "{} stays a staunch friend of {} (roll {roll})",
                    ctx.data.roster.characters[usize::from(k)].name,
                    self.name(ctx, p)
                )
            });
        }
    }

    /// An assassin attacks minor character `k` of hero `p`'s retinue in the
    /// street (cards 25-26): a free blow from behind, then the duel.
    #[allow(clippy::too_many_arguments)]
    fn assassin<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        k: u8,
        foe: u8,
        _city: u8,
        r: &mut R,
        trace: &mut T,
    ) {
        let roster = &ctx.data.roster;
        let victim = &roster.characters[usize::from(k)];
        let killer = &roster.characters[usize::from(foe)];
        let mut level = victim.top_level;
        // The free blow [7.61], from behind [7.32].
        let hit = r.d10() + i32::from(killer.at(killer.top_level).strength) + ctx.data.melee.behind
            >= i32::from(victim.at(level).agility);
        if hit {
            level -= 1;
        }
        let survived = level > 0
            && self.side_duel(
                ctx,
                STREET,
                &[Entry {
                    character: usize::from(k),
                    level,
                    ..Entry::default()
                }],
                &[Entry {
                    character: usize::from(foe),
                    level: killer.top_level,
                    ..Entry::default()
                }],
                r,
            ) != Some(false);
        trace.event("JC 18.2 assassin", || {
            format!(
                "an assassin falls on {}: {}",
                victim.name,
                if survived {
                    "he fights him off"
                } else {
                    "he is slain"
                }
            )
        });
        if !survived {
            self.heroes[p].leave_character(k);
            self.slay(ctx, k);
        }
    }
}

/// Iterating the bits of a character set.
pub trait Bits {
    /// The set members, lowest first.
    fn iter_bits(self) -> impl Iterator<Item = u8>;
}

impl Bits for u128 {
    fn iter_bits(self) -> impl Iterator<Item = u8> {
        (0..128u8).filter(move |&k| self & (1u128 << k) != 0)
    }
}
