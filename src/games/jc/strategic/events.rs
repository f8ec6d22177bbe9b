//! Random events in play [18]: the Random Events Phase (Phase C [8.0]) and
//! every moment a card may be played.
//!
//! In his Random Events Phase a Player draws from the deck or the face-down
//! pile [18.0 PROCEDURE, 18.13]; an immediate card is played at once on his
//! own hero, any other goes to his hand, and a fourth card forces a discard
//! to the face-down pile [18.11]. A Player plays hero cards for his hero
//! and villain cards for the villain he runs, against that villain's hero
//! [18.16] (offers to other Players [18.17] are not played). Cards are
//! played at the moment each one's rule names (see `random-events.toml`
//! and [`super::tactics`] for when each policy plays them):
//!
//! - at the start of a Player-Turn: a found flier, reinforcements, a safe
//!   companion, remorse; against him: treachery away from the villain's
//!   city (and the villain's roll of [13.31]), the villain's
//!   reinforcements, the assassin in a city, the diversion of a flier;
//! - at the start of each City Sub-sequence: stealth, remorse; against him:
//!   the villain's try of [13.23], treachery in the city [12.23], flight,
//!   the unspeakable act, whose count runs there [13.42];
//! - on entering the villain's city: the secret entrance and disguise;
//! - in the Movement Phase: the halt of cards 09-10, the stay of cards 23
//!   and 37, the North Pole flight, the extra card after moving, the flier
//!   crash with the movement card;
//! - before an encounter's duel: the cards that avoid it; at a discovery:
//!   the guard's slip and the villain-stays card; at a fight in a city: the
//!   abduction; before the duel with the villain's group: invisibility;
//! - after a defeat: the cards that save the hero [11.33]; in prison: the
//!   escape cards and the arena companion.

use super::city::Flow;
use super::consts::NONE;
use super::dice::Roller;
use super::game::{Context, Game, Place, Status};
use super::romance::female;
use super::tables::{Foes, HOUSE, ITEM_FLIER, PALACE, STREET, Who};
use super::tactics;
use crate::engine::Trace;
use crate::games::jc::duel::model::Entry;
use crate::games::jc::duel::roster::Class;
use crate::games::jc::event_deck::{Effect, Play};
use crate::games::jc::map::{FLIER, WALK};

/// A defeat a card may save a hero from [11.33, 18.2].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defeat {
    /// Beaten by beasts of Mars: out of the game [11.33].
    Beasts,
    /// Beaten by warriors of Mars outdoors: captured [11.34].
    Capture,
    /// Beaten in a city: interned [11.44].
    Internment,
    /// Beaten (or found a third time) in the villain's city: imprisoned
    /// [15.23, 15.32].
    Imprisonment,
    /// Beaten in the arena: out of the game [17.3].
    Arena,
}

/// What cards and special characters add to one fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FightAid {
    /// Allies for the hero's side: how many, and their counter [19.41].
    pub allies: (u8, u8),
    /// The hero has taken the invisibility pills (card 27): agility 10 and
    /// a free blow inside the duel.
    pub hero_invisible: bool,
    /// A foe who has taken them (the villain's card 27): its index in the
    /// foes.
    pub foe_invisible: Option<usize>,
    /// Another Player's hero fighting beside him [9.27].
    pub helper: Option<usize>,
}

impl Game {
    /// The player who runs hero `p`'s villain.
    pub fn villain_player(&self, p: usize) -> usize {
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
    fn hero_plays<R: Roller, T: Trace>(
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
        if !tactics::hero_wants(self, p, true, r) {
            return false;
        }
        self.play_card(ctx, p, p, n, trace);
        true
    }

    /// Player `q` plays card `n` (from his hand, or just drawn) on hero
    /// `p`'s affairs: it goes to the face-up pile [18.14].
    pub fn play_card<T: Trace>(&mut self, ctx: &Context, q: usize, p: usize, n: u8, trace: &mut T) {
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
    pub fn random_events_phase<R: Roller, T: Trace>(
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
            s.slave = (NONE, super::consts::NO_PLACE);
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
        let s = super::friends::Series {
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
            && tactics::hero_wants(self, p, true, r)
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
                && tactics::hero_wants(self, p, true, r)
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
    fn remorse<R: Roller, T: Trace>(&mut self, ctx: &Context, p: usize, r: &mut R, trace: &mut T) {
        let targets = self.remorse_targets(p);
        if targets == 0 {
            return;
        }
        let Some((n, _)) = self.hero_card(ctx, p, |e| *e == Effect::Remorse, r) else {
            return;
        };
        if !tactics::hero_wants(self, p, true, r) {
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
    fn treachery_card<R: Roller, T: Trace>(
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
        if !tactics::villain_wants(self, p, true, r) {
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
        if !super::game::party_present(&self.parties[p]) {
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
        if super::game::party_present(party)
            && party.henchmen_len < party.limit
            && let Some((n, Effect::VillainReinforcements { warriors })) = self.villain_card(
                ctx,
                p,
                |e| matches!(e, Effect::VillainReinforcements { .. }),
                r,
            )
            && tactics::villain_wants(self, p, true, r)
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
                && tactics::villain_wants(self, p, true, r)
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
        if minors == 0 || !tactics::villain_wants(self, p, true, r) {
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

    /// At the start of each City Sub-sequence of hero `p` [8.0 H]: the
    /// count of an unspeakable act, and the cards and tries whose moment is
    /// the city game. Returns the flow if the sub-sequence is cut short.
    pub fn city_subsequence_begins<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) -> Option<Flow> {
        // [13.42] the hero's time to reach the captive.
        if self.story.heroes[p].act > 0 {
            self.story.heroes[p].act -= 1;
            if self.story.heroes[p].act == 0 {
                trace.event("JC 13.44 too late", || {
                    format!("{} did not reach the villain in time", self.name(ctx, p))
                });
                self.unspeakable_act_table(ctx, p, r, trace);
            }
        }
        // Stealth (card 21): less discovery, and the area of one quarry.
        if self.story.heroes[p].stealth == 0
            && let Some((n, Effect::Stealth { discovery })) =
                self.hero_card(ctx, p, |e| matches!(e, Effect::Stealth { .. }), r)
            && tactics::hero_wants(self, p, true, r)
        {
            self.play_card(ctx, p, p, n, trace);
            self.story.heroes[p].stealth = discovery;
            // The villain tells the area of the quarry the hero is not
            // after (or the only one).
            let after = super::players::quarry(self, p);
            let other = match after {
                Some(q) if self.quarry_here(p, 1 - q) => 1 - q,
                Some(q) => q,
                None => 0,
            };
            let c = &mut self.heroes[p].city;
            c.knows[other] = c.knows[other].max(1);
        }
        self.remorse(ctx, p, r, trace);
        let q = self.villain_player(p);
        let sensible = tactics::villain_sensible(self, p);
        // [13.23] the villain's one try with a female friend.
        if !self.story.heroes[p].villain_city_try && self.story.heroes[p].engaged() {
            let eligible = self
                .treachery_candidates(ctx, p)
                .iter_bits()
                .filter(|&k| female(ctx, k))
                .fold(0u128, |s, k| s | (1u128 << k));
            if eligible != 0 && tactics::villain_wants(self, p, true, r) {
                self.story.heroes[p].villain_city_try = true;
                if let Some(k) = tactics::pick_character(sensible, eligible, |_| 0, r) {
                    let (lo, hi) = ctx.data.story.romance.villain_city_betrayal;
                    let roll = r.d10();
                    if (i32::from(lo)..=i32::from(hi)).contains(&roll) {
                        if let Some(flow) = self.betray(ctx, p, k, r, trace) {
                            return Some(flow);
                        }
                    } else {
                        // A staunch friend, who also keeps a minor
                        // character of the hero's choice loyal [13.23].
                        self.story.heroes[p].staunch |= 1u128 << k;
                        let minors = self
                            .treachery_candidates(ctx, p)
                            .iter_bits()
                            .filter(|&m| !female(ctx, m))
                            .fold(0u128, |s, m| s | (1u128 << m));
                        if let Some(m) = tactics::pick_character(
                            tactics::hero_sensible(self, p),
                            minors,
                            |m| tactics::fighting_worth(ctx, m),
                            r,
                        ) {
                            self.story.heroes[p].staunch |= 1u128 << m;
                        }
                    }
                }
            }
        }
        // Treachery in the villain's city [12.23].
        let candidates = self.treachery_candidates(ctx, p);
        if let Some(k) = self.treachery_card(ctx, p, candidates, r, trace)
            && let Some(flow) = self.betray(ctx, p, k, r, trace)
        {
            return Some(flow);
        }
        // Flight (cards 35-36).
        if self.villain_can_flee(p)
            && let Some((n, _)) = self.villain_card(ctx, p, |e| *e == Effect::VillainFlees, r)
            && tactics::villain_wants(self, p, true, r)
        {
            self.play_card(ctx, q, p, n, trace);
            self.villain_flees(ctx, p, r, trace);
            return Some(Flow::Over);
        }
        // The unspeakable act [13.41].
        if self.story.heroes[p].act == 0
            && self.parties[p].holds_captive()
            && let Some((n, _)) = self.villain_card(ctx, p, |e| *e == Effect::UnspeakableAct, r)
            && tactics::villain_wants(self, p, true, r)
        {
            self.play_card(ctx, q, p, n, trace);
            self.start_unspeakable_act(ctx, p, trace);
        }
        None
    }

    /// Whether quarry `q` of hero `p` is in this city.
    fn quarry_here(&self, p: usize, q: usize) -> bool {
        let party = &self.parties[p];
        if q == super::consts::CAPTIVE_QUARRY {
            party.holds_captive()
        } else {
            party.villains_len > 0 || party.henchmen_len > 0 || party.surrogate != NONE
        }
    }

    /// Where hero `p` comes into his villain's city, and the cards he plays
    /// then: the secret entrance (no card needed where he knows the way
    /// [17.17]), disguise [15.31]; his per-city marks are reset. Returns the
    /// area.
    pub fn city_entry<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        foreign: bool,
        r: &mut R,
        trace: &mut T,
    ) -> u8 {
        let s = &mut self.story.heroes[p];
        s.stealth = 0;
        s.army = false;
        s.disguised = false;
        s.act = 0;
        s.doomed = false;
        s.unseen = s.body != NONE;
        if foreign && self.hero_plays(ctx, p, Effect::Disguise, r, trace) {
            self.story.heroes[p].disguised = true;
        }
        let city = self.parties[p].city;
        if self.story.heroes[p].secret_ways & (1u64 << city) != 0
            && let Some(area) = ctx
                .data
                .story
                .events
                .cards
                .iter()
                .find_map(|c| match c.effect {
                    Effect::SecretEntrance { area } => Some(area),
                    _ => None,
                })
        {
            trace.event("JC 17.17 secret way", || {
                format!("{} comes in by the secret way he knows", self.name(ctx, p))
            });
            return area;
        }
        if let Some((n, Effect::SecretEntrance { area })) =
            self.hero_card(ctx, p, |e| matches!(e, Effect::SecretEntrance { .. }), r)
            && tactics::hero_wants(self, p, true, r)
        {
            self.play_card(ctx, p, p, n, trace);
            self.story.heroes[p].secret_ways |= 1u64 << self.parties[p].city;
            return area;
        }
        ctx.data.city_map.entry
    }

    /// How much easier (positive) or harder (negative) discovery is for
    /// hero `p`: treachery [12.22], stealth (card 21), the army [16.33].
    pub fn discovery_shift(&self, ctx: &Context, p: usize) -> i32 {
        let s = &self.story.heroes[p];
        let mut shift = 0;
        if s.betrayed_discovery {
            shift += i32::from(ctx.data.story.romance.betrayal_discovery);
        }
        shift -= i32::from(s.stealth);
        if s.army {
            shift -= i32::from(ctx.data.story.friends.army_discovery);
        }
        shift
    }

    /// Whether hero `p` is out of reach of discovery checks: transferred
    /// into another body and no hostile act yet [19.31].
    pub fn unseen(&self, p: usize) -> bool {
        self.story.heroes[p].unseen
    }

    /// Hero `p` is discovered [15.2]: card 43 may let him slip away; the
    /// treachery handicap ends [12.22]; card 57-58 may keep his villain
    /// from fleeing this Turn. Returns whether the discovery is undone.
    pub fn discovery_averted<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) -> bool {
        if self.hero_plays(ctx, p, Effect::AvoidCityGuard, r, trace) {
            return true;
        }
        self.story.heroes[p].betrayed_discovery = false;
        if self.villain_can_flee(p) && self.hero_plays(ctx, p, Effect::VillainStays, r, trace) {
            self.story.heroes[p].villain_stays = self.turn;
        }
        false
    }

    /// Whether a card (cards 57-58) keeps hero `p`'s villain from fleeing
    /// this Strategic Turn.
    pub fn villain_held_back(&self, p: usize) -> bool {
        self.story.heroes[p].villain_stays == self.turn && self.turn > 0
    }

    /// Whether hero `p` avoids the encounter with `foes` (outdoors or in a
    /// city) [18.2, 19.22].
    pub fn encounter_avoided<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        foes: &Foes,
        outdoor: bool,
        r: &mut R,
        trace: &mut T,
    ) -> bool {
        if self.banths_soothed(ctx, p, foes) {
            trace.event("JC 19.22 Thuvia", || {
                format!(
                    "Thuvia soothes the banths: {} has no encounter",
                    self.name(ctx, p)
                )
            });
            return true;
        }
        let roster = &ctx.data.roster;
        let beasts = foes
            .iter()
            .any(|(w, _)| matches!(w, Who::Character(k) if roster.characters[usize::from(k)].class == Class::Beast));
        let warriors = foes.iter().any(|(w, _)| match w {
            Who::CityWarrior => true,
            Who::Character(k) => roster.characters[usize::from(k)].class == Class::Warrior,
        });
        let dangerous = beasts || foes.total() >= 3;
        let card = if outdoor {
            self.hero_card(ctx, p, |e| *e == Effect::AvoidOutdoorEncounter, r)
                .filter(|_| tactics::hero_wants(self, p, dangerous, r))
        } else if warriors {
            self.hero_card(ctx, p, |e| *e == Effect::AvoidCityGuard, r)
                .filter(|_| tactics::hero_wants(self, p, false, r))
        } else {
            None
        };
        let card = card.or_else(|| {
            self.hero_card(ctx, p, |e| matches!(e, Effect::EvadeAtCost { .. }), r)
                .filter(|_| tactics::hero_wants(self, p, false, r))
        });
        let Some((n, e)) = card else {
            return false;
        };
        self.play_card(ctx, p, p, n, trace);
        if let Effect::EvadeAtCost { turns } = e {
            self.heroes[p].skip = self.heroes[p].skip.saturating_add(turns);
        }
        true
    }

    /// Whether a card saves hero `p` from `defeat` [11.33, 18.2]; the
    /// cheapest card his policy will play (a miraculous escape only after
    /// an outdoor encounter or an arena duel). Against beasts every Player
    /// holding a miraculous escape must play it, the hero's own first
    /// [11.33]. An arena defeat not saved kills a doomed captive [19.32].
    pub fn saved_from_defeat<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        defeat: Defeat,
        r: &mut R,
        trace: &mut T,
    ) -> bool {
        // Card 24 was played inside the duel: the hero's side got away.
        if std::mem::take(&mut self.story.heroes[p].broke_off) {
            trace.event("JC 18.2 card 24", || {
                format!("{} got away from the melee ({defeat:?})", self.name(ctx, p))
            });
            return true;
        }
        let men = !matches!(defeat, Defeat::Beasts | Defeat::Arena);
        let mut choices: [Option<(u8, Effect)>; 3] = [
            if men {
                self.hero_card(ctx, p, |e| *e == Effect::EvadeCapture, r)
            } else {
                None
            },
            // Cards 01-08 take the hero off the outdoor or arena display
            // [18.2]: not the city's internment or imprisonment.
            if matches!(defeat, Defeat::Beasts | Defeat::Capture | Defeat::Arena) {
                self.hero_card(ctx, p, |e| matches!(e, Effect::MiraculousEscape { .. }), r)
            } else {
                None
            },
            if men {
                self.hero_card(ctx, p, |e| matches!(e, Effect::EvadeAtCost { .. }), r)
            } else {
                None
            },
        ];
        if !tactics::hero_sensible(self, p) {
            // The random policy tries its cards in a random order.
            let start = r.pick(choices.len());
            choices.rotate_left(start);
        }
        let mut played = None;
        for c in choices.into_iter().flatten() {
            let forced = defeat == Defeat::Beasts && matches!(c.1, Effect::MiraculousEscape { .. });
            if forced || tactics::hero_wants(self, p, true, r) {
                played = Some((p, c));
                break;
            }
        }
        if played.is_none() && defeat == Defeat::Beasts {
            // [11.33] any other Player's miraculous escape.
            for o in 0..usize::from(self.players) {
                if o != p
                    && let Some(c) = self.held(ctx, o, true, |e| {
                        matches!(e, Effect::MiraculousEscape { .. })
                    })
                {
                    played = Some((o, c));
                    break;
                }
            }
        }
        let Some((q, (n, effect))) = played else {
            if defeat == Defeat::Arena && self.story.heroes[p].doomed {
                self.captive_dies(ctx, p);
                trace.event("JC 19.32 doomed", || {
                    format!("{}'s captive is lost with him", self.name(ctx, p))
                });
            }
            return false;
        };
        self.play_card(ctx, q, p, n, trace);
        match effect {
            Effect::MiraculousEscape { turns } | Effect::EvadeAtCost { turns } => {
                let h = &mut self.heroes[p];
                h.skip = h.skip.saturating_add(turns);
            }
            _ => {}
        }
        trace.event("JC 18.2 saved", || {
            format!(
                "{} escapes the consequences of defeat ({defeat:?})",
                self.name(ctx, p)
            )
        });
        true
    }

    /// Help with hero `p`'s escape roll [17.21]: Ghek [19.44], the escape
    /// cards (38-39 make it certain), the escape bonus (card 55).
    pub fn special_escape_help<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) -> u8 {
        if self.hero_plays(ctx, p, Effect::PrisonEscape, r, trace) {
            return 10;
        }
        let mut help = self.ghek_help(ctx, p);
        if let Some((n, Effect::EscapeBonus { escape })) =
            self.hero_card(ctx, p, |e| matches!(e, Effect::EscapeBonus { .. }), r)
            && tactics::hero_wants(self, p, true, r)
        {
            self.play_card(ctx, p, p, n, trace);
            help = help.saturating_add(escape);
        }
        help
    }

    /// Whether hero `p`'s minor character cellmate fights beside him in the
    /// arena (cards 46-48) [17.14].
    pub fn arena_companion<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) -> bool {
        let Some((n, _)) = self.hero_card(ctx, p, |e| *e == Effect::ArenaCompanion, r) else {
            return false;
        };
        if !tactics::hero_wants(self, p, true, r) {
            return false;
        }
        self.play_card(ctx, p, p, n, trace);
        true
    }

    /// At the start of hero `p`'s Movement Phase: a halt (cards 09-10), a
    /// stay (cards 23 and 37), or the North Pole flight (cards 59-61) take
    /// the place of his own choice.
    pub fn movement_begins<T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        trace: &mut T,
    ) -> Option<super::players::Move> {
        use super::players::Move;
        if self.story.halt_by != NONE || self.story.heroes[p].stay_until >= self.turn {
            return Some(Move::Stay);
        }
        let c = self.heroes[p].city()?;
        if self.heroes[p].conveyance != FLIER {
            return None;
        }
        let goal = super::players::target(ctx, self, p)?;
        let places = &ctx.data.places;
        if !(places[usize::from(goal)].north_pole || places[usize::from(c)].north_pole) {
            return None;
        }
        let route = ctx
            .data
            .map
            .routes
            .iter()
            .position(|rt| rt.from == c && rt.to == goal && rt.conveyances & FLIER != 0)?;
        if !self.story.heroes[p].north_pass {
            let (n, _) = self.held(ctx, p, true, |e| *e == Effect::NorthPoleFlight)?;
            self.play_card(ctx, p, p, n, trace);
            self.story.heroes[p].north_pass = true;
        }
        Some(Move::Go {
            route: route as u16,
            dismount: false,
        })
    }

    /// Whether hero `p` may fly `route` though it touches the North Pole
    /// (cards 59-61).
    pub fn north_pass(&self, p: usize) -> bool {
        self.story.heroes[p].north_pass
    }

    /// At the end of hero `p`'s movement: the extra movement card (card 32).
    pub fn movement_ends<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        if self.story.halt_by != NONE || !matches!(self.heroes[p].place, Place::Transit(_)) {
            return;
        }
        if let Some((n, Effect::ExtraMovement { cards })) =
            self.hero_card(ctx, p, |e| matches!(e, Effect::ExtraMovement { .. }), r)
            && tactics::hero_wants(self, p, true, r)
        {
            self.play_card(ctx, p, p, n, trace);
            self.extra_movement(ctx, p, cards, r, trace);
        }
    }

    /// The haads hero `p` covers with a movement card of `haads`: half,
    /// then a crash and on foot, if his villain plays card 22.
    pub fn flight_haads<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        haads: u16,
        r: &mut R,
        trace: &mut T,
    ) -> u16 {
        if self.heroes[p].conveyance != FLIER {
            return haads;
        }
        let q = self.villain_player(p);
        let Some((n, _)) = self.villain_card(ctx, p, |e| *e == Effect::FlierCrash, r) else {
            return haads;
        };
        if !tactics::villain_wants(self, p, true, r) {
            return haads;
        }
        self.play_card(ctx, q, p, n, trace);
        self.heroes[p].conveyance = WALK;
        trace.event("JC 18.2 crash", || {
            format!(
                "{}'s flier crashes halfway: he goes on foot",
                self.name(ctx, p)
            )
        });
        haads / 2
    }

    /// What cards and special characters add as hero `p` starts a fight on
    /// `display` against `foes`: the abduction of cards 28-31 in a city,
    /// Kar Komak's phantoms, a fellow hero's aid in a hostile encounter
    /// [9.27], the free blows of invisibility; a fight in the villain's city
    /// game ends a transferred hero's cover [19.31].
    #[allow(clippy::too_many_arguments)]
    pub fn fight_begins<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        retinue: bool,
        foes: &[(u8, u8)],
        display: u8,
        r: &mut R,
        trace: &mut T,
    ) -> FightAid {
        let mut aid = FightAid::default();
        if self.heroes[p].city.active {
            self.story.heroes[p].unseen = false;
        }
        let q = self.villain_player(p);
        // Cards 28-31: a female personage is spirited away.
        if matches!(display, STREET | HOUSE | PALACE)
            && self.heroes[p].city().is_some()
            && super::game::party_present(&self.parties[p])
            && self.has_female_personage(ctx, p)
            && let Some((n, _)) = self.villain_card(ctx, p, |e| *e == Effect::AbductPersonage, r)
            && tactics::villain_wants(self, p, true, r)
        {
            let s = &self.story.heroes[p];
            let females = self.heroes[p]
                .retinue()
                .iter()
                .filter(|&&k| female(ctx, k))
                .fold(0u128, |set, &k| set | (1u128 << k));
            let loved = [s.love, s.princess];
            let sensible = tactics::villain_sensible(self, p);
            if let Some(k) =
                tactics::pick_character(sensible, females, |k| i32::from(loved.contains(&k)), r)
            {
                self.play_card(ctx, q, p, n, trace);
                self.abduct(ctx, p, k, trace);
            }
        }
        if retinue {
            aid.allies = self.phantom_warriors(ctx, p, foes.len(), r);
            if aid.allies.0 > 0 {
                trace.event("JC 19.41 phantom warriors", || {
                    format!(
                        "Kar Komak raises {} phantom warriors for {}",
                        aid.allies.0,
                        self.name(ctx, p)
                    )
                });
            }
        }
        if std::mem::take(&mut self.story.heroes[p].hostile) {
            aid.helper = self.fellow_aid(ctx, p, r, trace);
        }
        // Card 27 before the duel with the villain's group: the pills act
        // inside the duel (agility 10, a free blow at first contact).
        if std::mem::take(&mut self.story.heroes[p].villain_duel) && !foes.is_empty() {
            let roster = &ctx.data.roster;
            if let Some((n, _)) = self.hero_card(ctx, p, |e| *e == Effect::Invisibility, r)
                && tactics::hero_wants(self, p, true, r)
            {
                self.play_card(ctx, p, p, n, trace);
                aid.hero_invisible = true;
            }
            if let Some((n, _)) = self.villain_card(ctx, p, |e| *e == Effect::Invisibility, r)
                && tactics::villain_wants(self, p, true, r)
            {
                self.play_card(ctx, q, p, n, trace);
                aid.foe_invisible = Some(
                    foes.iter()
                        .position(|&(k, _)| {
                            roster.characters[usize::from(k)].class == Class::Villain
                        })
                        .unwrap_or(0),
                );
            }
        }
        aid
    }

    /// Before hero `p` duels his villain: repentant traitors come over
    /// [12.32], Tario or Luud may be called on [19.32], and the next fight
    /// is the villain's (invisibility, card 27).
    pub fn before_villain_duel<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        self.repentant_join(ctx, p, trace);
        self.mind_control(ctx, p, r, trace);
        self.story.heroes[p].villain_duel = true;
    }

    /// After a duel in a quarry's house: a threatened captive is saved by
    /// a win and lost to the table by a defeat [13.42, 13.44].
    pub fn house_duel_ends<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        won: bool,
        r: &mut R,
        trace: &mut T,
    ) {
        self.story.heroes[p].villain_duel = false;
        if self.story.heroes[p].act == 0 {
            return;
        }
        if won {
            self.story.heroes[p].act = 0;
            trace.event("JC 13.42 in time", || {
                format!("{} reaches the villain in time", self.name(ctx, p))
            });
        } else {
            self.unspeakable_act_table(ctx, p, r, trace);
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
