//! The City Sub-game [15-17], phases H to L, repeated within the
//! Player-Turn until the quest is done here, the hero is imprisoned or out
//! of play, or the villain flees [8.0 L].
//!
//! H: the hero moves to an adjacent area (the villain rolls the number on
//! the arrow's head or less to discover him [15.21], one less with secret
//! movement [15.3]), stays (found on 2 in 10 when bound to move secretly,
//! never in the deserted area [15.33]) or steps into a house box [15.41].
//! Discovery [15.22-15.25]: three warriors of Mars (four and a noble in the
//! final destination) fight him; the villain may flee (or, in his final
//! destination, play the marker of [10.41]); lost, the hero is imprisoned
//! (interned if the villain fled); won, he moves secretly from then on; a
//! third discovery in a Strategic Turn imprisons [15.32].
//! I: an information roll on one quarry [16.2] (every other phase when
//! moving secretly), the same result twice giving the next level [16.26],
//! then the hand of fate [16.28]; or a house search [16.4] with its growing
//! chance of a city encounter [16.43].
//! J: in the house of a quarry he knows, the duel on the house or palace
//! display [15.42] against the villain's group and guard [16.12-16.15] or
//! the captive's guard.
//! K: imprisonment [17]: a cellmate [17.19], one escape roll [17.21-17.27],
//! else an arena duel [17.35, 17.41-17.48]; after a win the villain may flee
//! [17.33] or be challenged [17.33, 17.34]; a lost arena duel puts the hero
//! out of play [17.3]. Imprisonment costs one Strategic Turn, two in the
//! final destination [17.18].
//! L: the villain's flight, taken where it happens [15.22, 17.33].

use super::consts::{CAPTIVE_QUARRY, NONE, VILLAIN_QUARRY};
use super::dice::Roller;
use super::duels::{Company, FightOptions};
use super::events::Defeat;
use super::game::{Context, Game, Status, stamp};
use super::hooks::FriendSource;
use super::players::{self, CityMove};
use super::tables::{ARENA, ArenaDuel, Companion, HOUSE, Outcome, PALACE, STREET, Who};
use crate::jc::duel::sequence::MAX_FIGHTERS;
use barsoom_engine::Trace;

/// What comes after a City Sub-sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Another City Sub-sequence.
    Continue,
    /// The Player-Turn ends; the city game goes on next time.
    EndTurn,
    /// The city game is over.
    Over,
}

impl Game {
    /// The City Sub-sequences of one Player-Turn [8.0 H-L].
    pub fn city_subsequences<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        {
            let c = &mut self.heroes[p].city;
            c.discoveries = 0;
            c.searches = 0;
        }
        let mut n = 0u16;
        loop {
            if !self.heroes[p].city.active || self.heroes[p].status != Status::Free {
                return;
            }
            if n >= ctx.data.city.max_subsequences {
                self.city_bound_hits = self.city_bound_hits.saturating_add(1);
                return;
            }
            n += 1;
            let flow = match self.city_subsequence_begins(ctx, p, r, trace) {
                Some(flow) => flow,
                None => self.city_subsequence(ctx, p, r, trace),
            };
            match flow {
                Flow::Continue => {}
                Flow::EndTurn => return,
                Flow::Over => {
                    if self.heroes[p].city.active {
                        self.end_city_game(ctx, p, trace);
                    }
                    // [15.24] on to the Acquisition Phase.
                    if self.heroes[p].status == Status::Free && self.heroes[p].skip == 0 {
                        self.acquisition_phase(ctx, p, r, trace);
                    }
                    return;
                }
            }
        }
    }

    fn city_subsequence<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) -> Flow {
        if players::quarry(self, p).is_none() {
            return Flow::Over;
        }
        if players::may_leave_city(ctx, self, p)
            && self.decide_whether(
                ctx,
                p,
                "leave city",
                |g, r| players::leave_city(ctx, g, p, r),
                r,
            )
        {
            trace.event("JC 15.26 leaves the city", || {
                format!("{} leaves the city with the captive", self.name(ctx, p))
            });
            return Flow::Over;
        }
        // H: hero movement.
        let map = &ctx.data.city_map;
        let choice = players::city_move(ctx, self, p, r);
        let cg = self.heroes[p].city;
        let secret = u8::from(cg.secret) * ctx.data.city.secret_modifier;
        let chance = |entering: u8| -> u8 {
            map.areas[usize::from(cg.area)]
                .next
                .iter()
                .find(|&&(a, _)| a == entering)
                .map_or(0, |&(_, d)| d)
        };
        // [15.33] never found staying in a deserted area: the deserted
        // quarter, or outside the city's corner towers.
        let city = self.parties[p].city;
        let stay_chance = if cg.secret && !ctx.data.deserted_area(city, cg.area) {
            ctx.data.city.stay_discovery
        } else {
            0
        };
        let (area, house, quarry, risk, moved) = match choice {
            CityMove::Stay => (cg.area, NONE, None, stay_chance, false),
            CityMove::Area(a) => (a, NONE, None, chance(a), true),
            CityMove::House {
                area,
                house,
                quarry,
            } => {
                if area == cg.area {
                    (area, house, Some(quarry), stay_chance, false)
                } else {
                    (area, house, Some(quarry), chance(area), true)
                }
            }
        };
        {
            let c = &mut self.heroes[p].city;
            c.area = area;
            c.house = house;
        }
        let discovered = if risk > 0 && !self.unseen(p) {
            let roll = r.d10() - i32::from(if moved || cg.secret { secret } else { 0 });
            roll <= i32::from(risk) + self.discovery_shift(ctx, p)
        } else {
            false
        };
        trace.event("JC 15.1 city movement", || {
            format!(
                "{} {} {}{}",
                self.name(ctx, p),
                if moved { "moves to" } else { "stays in" },
                map.areas[usize::from(area)].name,
                if discovered { ": discovered" } else { "" }
            )
        });
        if discovered {
            return self.discovery(ctx, p, r, trace);
        }
        // I: information, or a house search.
        if let Some(q) = quarry {
            let spot = self.parties[p].spots[q];
            let known = self.heroes[p].city.knows[q] >= 2;
            if !known {
                // [16.42, 16.43] ask about this house.
                let step = ctx.data.city.house_search_step;
                let c = &mut self.heroes[p].city;
                c.searches = c.searches.saturating_add(1);
                let threshold = i32::from(c.searches) * i32::from(step);
                if r.d10() <= threshold {
                    trace.event("JC 16.43 house search encounter", || {
                        format!(
                            "{} meets a city encounter while searching",
                            self.name(ctx, p)
                        )
                    });
                    let city = self.parties[p].city;
                    if self.city_encounter(ctx, p, city, r, trace)
                        == super::encounters::CityFight::Lost
                    {
                        return self.imprison(ctx, p, r, trace);
                    }
                    return Flow::Continue;
                }
                let c = &mut self.heroes[p].city;
                if spot.area == area && spot.house == house {
                    c.knows[q] = c.knows[q].max(2);
                } else {
                    c.empty[q] |= 1u128 << (u32::from(area) * 8 + u32::from(house));
                }
                return Flow::Continue;
            }
            // J: the quarry's house.
            if spot.area == area && spot.house == house {
                return self.house_duel(ctx, p, q, r, trace);
            }
            return Flow::Continue;
        }
        self.information_phase(ctx, p, r, trace)
    }

    /// Phase I [16.0]: one information roll, then the hand of fate.
    pub fn information_phase<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) -> Flow {
        let Some(q) = players::quarry(self, p) else {
            return Flow::Over;
        };
        let army = self.story.heroes[p].army;
        {
            let c = &mut self.heroes[p].city;
            if c.secret || army {
                // [15.3] every other Information Phase.
                c.skip_information = !c.skip_information;
                if !c.skip_information {
                    return Flow::Continue;
                }
            }
        }
        let area = self.heroes[p].city.area;
        let table = (r.d6() - 1).clamp(0, 5) as usize;
        let row =
            ctx.data.information[table][ctx.data.information_area(self.parties[p].city, area)];
        self.fire(row.entry);
        let roll = r.d10();
        let level = row
            .at_least
            .iter()
            .filter(|&&v| roll >= i32::from(v))
            .count() as u8;
        {
            let c = &mut self.heroes[p].city;
            if level > 0 {
                // [16.26] the same result twice gives the next level.
                let got = if c.last[q] == level {
                    (level + 1).min(3)
                } else {
                    level
                };
                c.knows[q] = c.knows[q].max(got);
                c.last[q] = level;
            }
        }
        trace.event("JC 16.2 information", || {
            format!(
                "{} asks about the {} (table {}, roll {roll}): {}",
                self.name(ctx, p),
                if q == VILLAIN_QUARRY {
                    "villain"
                } else {
                    "captive"
                },
                table + 1,
                ["nothing", "the area", "the house", "the room"][usize::from(level)]
            )
        });
        if r.d10() > i32::from(row.hand_of_fate) {
            return Flow::Continue;
        }
        // The hand of fate [16.28].
        let (outcome, entry) = ctx.data.hand_of_fate.get(r.d10());
        self.fire(entry);
        trace.event("JC 16.28 hand of fate", || {
            format!(
                "the hand of fate: {}",
                ctx.data.entries.names[usize::from(entry)]
            )
        });
        self.hand_of_fate(ctx, p, outcome, r, trace)
    }

    fn hand_of_fate<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        outcome: &Outcome,
        r: &mut R,
        trace: &mut T,
    ) -> Flow {
        match outcome {
            Outcome::Discovered => self.discovery(ctx, p, r, trace),
            Outcome::Friend => {
                self.befriend(ctx, p, FriendSource::HandOfFate, r, trace);
                Flow::Continue
            }
            Outcome::Swordsman(rank) => {
                if self.bout(ctx, p, *rank, r, trace) {
                    Flow::Continue
                } else {
                    self.imprison(ctx, p, r, trace)
                }
            }
            Outcome::CityEncounter => {
                let city = self.parties[p].city;
                if self.city_encounter(ctx, p, city, r, trace) == super::encounters::CityFight::Lost
                {
                    self.imprison(ctx, p, r, trace)
                } else {
                    Flow::Continue
                }
            }
            _ => Flow::Continue,
        }
    }

    /// The hero is discovered [15.22-15.25, 15.32].
    pub fn discovery<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) -> Flow {
        if self.discovery_averted(ctx, p, r, trace) {
            return Flow::Continue;
        }
        {
            let h = &mut self.heroes[p];
            h.stats.discoveries = h.stats.discoveries.saturating_add(1);
            h.city.discoveries += 1;
        }
        if self.heroes[p].city.discoveries >= ctx.data.city.discoveries_to_imprison {
            trace.event("JC 15.32 third discovery", || {
                format!("{} is discovered a third time this turn", self.name(ctx, p))
            });
            return self.imprison(ctx, p, r, trace);
        }
        self.surrogate_on_discovery(ctx, p, trace);
        let party = self.parties[p];
        let city = party.city;
        let at_final = party.at_final;
        let mut list = [(0u8, 0u8); MAX_FIGHTERS];
        let n = self.expand_foes(
            ctx,
            &ctx.data.city.discovery_fight[usize::from(at_final)],
            city,
            MAX_FIGHTERS,
            &mut list,
        );
        if self.heroes[p].conveyance == crate::jc::map::THOAT {
            self.heroes[p].conveyance = crate::jc::map::WALK;
        }
        let fought = self.fight(ctx, p, &list[..n], FightOptions::on(STREET), r, trace);
        // The villain's choice [15.22].
        let flees = self.villain_can_flee(p) && self.decide_flight(ctx, p, r);
        if at_final {
            self.final_destination_flight(ctx, p, r, trace);
        }
        if !fought.won {
            if flees {
                self.villain_flees(ctx, p, r, trace);
                self.intern(ctx, p, r, trace);
                return Flow::Over;
            }
            // The warriors who beat him reinforce the villain [10.52].
            let mut survivors = [0u8; MAX_FIGHTERS];
            let mut k = 0;
            for (i, &(c, _)) in list[..n].iter().enumerate() {
                if !fought.foe_dead[i] {
                    survivors[k] = c;
                    k += 1;
                }
            }
            self.add_henchmen(p, &survivors[..k]);
            return self.imprison(ctx, p, r, trace);
        }
        if flees {
            self.villain_flees(ctx, p, r, trace);
            return Flow::Over;
        }
        self.heroes[p].city.secret = true;
        Flow::Continue
    }

    /// Phase J [15.42]: the duel in a quarry's house.
    pub(crate) fn house_duel<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        q: usize,
        r: &mut R,
        trace: &mut T,
    ) -> Flow {
        let data = ctx.data;
        let mut party = self.parties[p];
        let spot = party.spots[q];
        let at_final = usize::from(party.at_final);
        let palace = spot.area == data.city_map.palace;
        let mut list = [(0u8, 0u8); MAX_FIGHTERS];
        let mut n = 0;
        let mut add = |k: u8, list: &mut [(u8, u8); MAX_FIGHTERS]| {
            if n < MAX_FIGHTERS {
                list[n] = (k, 0);
                n += 1;
            }
        };
        if q == VILLAIN_QUARRY {
            self.before_villain_duel(ctx, p, r, trace);
            // A repentant who came over [12.32], or whoever Tario or Luud
            // brought [19.32, 19.33], changed the group before it fights.
            party = self.parties[p];
            for &k in party.villains() {
                if data.roster.characters[usize::from(k)].fights() {
                    add(k, &mut list);
                }
            }
            if party.surrogate != NONE {
                add(party.surrogate, &mut list);
            }
            for &k in party.henchmen() {
                add(k, &mut list);
            }
        }
        let guard = if q == VILLAIN_QUARRY {
            data.city.villain_guard[at_final]
        } else {
            data.city.captive_guard[at_final]
        };
        let warriors = data.places[usize::from(party.city)].warriors;
        for _ in 0..guard {
            add(warriors, &mut list);
        }
        if palace {
            for &k in &data.city.palace_guard {
                add(k, &mut list);
            }
        }
        if n == 0 {
            // An unguarded captive: simply taken away.
            return self.quarry_taken(ctx, p, q, trace);
        }
        // [7.25 (2), 17.1] In the palace the captive hidden there and the
        // other personages the villain holds are chained in the dungeon;
        // in the captive's duel the hero frees her and gets out with her
        // [5.55].
        let mut chained = 0u128;
        if palace {
            chained = self.story.heroes[p].held;
            if q == CAPTIVE_QUARRY && party.captive != NONE {
                // A woman is never chained beside a man [7.25]: the
                // captive's sex decides who else is in the dungeon.
                let female = |k: u8| data.roster.characters[usize::from(k)].female;
                let captive_female = female(party.captive);
                for k in 0..128u8 {
                    if chained & (1u128 << k) != 0 && female(k) != captive_female {
                        chained &= !(1u128 << k);
                    }
                }
                chained |= 1u128 << party.captive;
            }
        }
        let options = FightOptions {
            discovered: false,
            withdraw: q == VILLAIN_QUARRY,
            chained,
            rescue: q == CAPTIVE_QUARRY,
            ..FightOptions::on(if palace { PALACE } else { HOUSE })
        };
        let fought = self.fight(ctx, p, &list[..n], options, r, trace);
        self.freed_from_dungeon(ctx, p, fought.freed & self.story.heroes[p].held, trace);
        // [5.55] out of the palace with the captive, the guard left
        // standing: the act threatened against her is forestalled as by a
        // win [13.42].
        let got_her_out = q == CAPTIVE_QUARRY
            && !fought.won
            && fought.got_away
            && party.captive != NONE
            && fought.freed & (1u128 << party.captive) != 0;
        // Late by [13.43], the villain still commits the act.
        self.house_duel_ends(
            ctx,
            p,
            (fought.won || got_her_out) && !fought.late,
            r,
            trace,
        );
        if got_her_out {
            // Seen, he moves secretly from now on.
            self.heroes[p].city.secret = true;
            return self.quarry_taken(ctx, p, q, trace);
        }
        // [10.22] a villain who got off the display.
        if q == VILLAIN_QUARRY
            && let Some(flow) = self.villain_escape(ctx, p, &party, &fought, r, trace)
        {
            return flow;
        }
        if !fought.won {
            if q == VILLAIN_QUARRY {
                // The defenders who fell stay dead though the hero lost.
                self.bury_defenders(ctx, p, &party, &fought);
                self.check_glory(ctx, p, trace);
            }
            let flow = self.imprison(ctx, p, r, trace);
            // [15.26] with the whole group dead and no captive held here,
            // nothing is left to pursue: the city game is over.
            if players::quarry(self, p).is_none() {
                return Flow::Over;
            }
            return flow;
        }
        if q == VILLAIN_QUARRY {
            // Every defender of the house fell with the hero's win.
            self.slay_villain_group(ctx, p);
            self.check_glory(ctx, p, trace);
            if self.parties[p].holds_captive() {
                self.surrogate_at_final(ctx, p, trace);
            }
        }
        self.quarry_taken(ctx, p, q, trace)
    }

    /// A quarry is dealt with: the captive joins the hero [20.32]; either
    /// way the city game ends when nothing is left here [15.26].
    fn quarry_taken<T: Trace>(&mut self, ctx: &Context, p: usize, q: usize, trace: &mut T) -> Flow {
        if q == CAPTIVE_QUARRY {
            let k = self.parties[p].captive;
            if k != NONE {
                self.parties[p].captive = NONE;
                self.heroes[p].join(k);
                self.free_held(ctx, p, trace);
                trace.event("JC 20.32 captive rescued", || {
                    format!(
                        "{} rescues {}",
                        self.name(ctx, p),
                        ctx.data.roster.characters[usize::from(k)].name
                    )
                });
            }
        }
        let c = &mut self.heroes[p].city;
        c.knows[q] = 0;
        c.last[q] = 0;
        if players::quarry(self, p).is_none() {
            return Flow::Over;
        }
        Flow::Continue
    }

    /// Phase K [17.0]: imprisonment, the cellmate, the escape roll and the
    /// arena.
    pub(crate) fn imprison<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) -> Flow {
        if self.saved_from_defeat(ctx, p, Defeat::Imprisonment, r, trace) {
            self.heroes[p].city.secret = true;
            return Flow::Continue;
        }
        let data = ctx.data;
        let rules = &data.city;
        let city = self.parties[p].city;
        let at_final = self.parties[p].at_final;
        {
            let h = &mut self.heroes[p];
            h.stats.imprisonments = h.stats.imprisonments.saturating_add(1);
        }
        trace.event("JC 17.1 imprisoned", || {
            format!("turn {}: {} is imprisoned", self.turn, self.name(ctx, p))
        });
        // [17.19] the cellmate.
        let (companion, entry) = data.companions.get(r.d10());
        self.fire(entry);
        let mut help = 0u8;
        let mut fighter = NONE;
        let mut joiner = NONE;
        // [17.17] a resident cellmate shows him the city's secret way in.
        let mut shown = false;
        match *companion {
            Companion::Nobody => {}
            Companion::Warrior { resident } => {
                if resident {
                    help += rules.escape_help[0];
                    shown = true;
                }
                fighter = data.places[usize::from(city)].warriors;
                joiner = fighter;
            }
            Companion::Minor { resident } => {
                let local = self.find_resident(ctx, city, 101..=300, false);
                let k = local.or_else(|| self.find_resident(ctx, city, 101..=300, true));
                // [17.17] an imported minor character is no resident.
                if resident && local.is_some() {
                    help += rules.escape_help[1];
                    shown = true;
                }
                if let Some(k) = k {
                    joiner = k;
                    self.in_play |= 1 << k;
                    if self.arena_companion(ctx, p, r, trace) {
                        fighter = k;
                    }
                }
            }
            Companion::MalePersonage => {
                help += rules.escape_help[2];
                shown = true;
            }
            Companion::Hero => {
                if let Some(&k) = data.prison_heroes.iter().find(|&&k| self.drawable(k)) {
                    help += rules.escape_help[3];
                    fighter = k;
                    joiner = k;
                    self.in_play |= 1 << k;
                }
            }
        }
        if shown {
            self.story.heroes[p].secret_ways |= 1u64 << city;
        }
        // [17.27] a female personage resident in this city who befriended
        // him: from the city by the City Directory, or befriended here.
        if self.heroes[p].retinue().iter().any(|&k| {
            data.roster.characters[usize::from(k)].class
                == crate::jc::duel::roster::Class::Personage
                && (data.home(k) == Some(city) || self.story.heroes[p].befriended_in(k, city))
                && !self.is_captive_of(ctx, p, k)
        }) {
            help += rules.escape_help[4];
        }
        help = help.saturating_add(self.special_escape_help(ctx, p, r, trace));
        let prison_turns = rules.prison_turns[usize::from(at_final)];
        // [17.21-17.26] one escape roll.
        let roll = r.d10() - i32::from(help);
        if roll <= i32::from(rules.escape_base) {
            self.heroes[p].stats.escapes += 1;
            trace.event("JC 17.2 escape", || {
                format!(
                    "{} escapes (roll {roll} after help {help})",
                    self.name(ctx, p)
                )
            });
            self.companion_joins(p, joiner);
            return self.back_in_city(ctx, p, prison_turns, r);
        }
        // [17.35] the arena.
        let (arena, entry) = data.arena.get(r.d10());
        self.fire(entry);
        trace.event("JC 17.35 arena", || {
            format!(
                "{} faces the arena: {}",
                self.name(ctx, p),
                data.entries.names[usize::from(entry)]
            )
        });
        // [17.13, 17.15] a cellmate killed beside him fights no later duel
        // of the arena and does not join him.
        let mut fell = false;
        let mut arena_fight =
            |g: &mut Game, foes: &[(u8, u8)], level: Option<u8>, r: &mut R, trace: &mut T| {
                let f = g.fight(
                    ctx,
                    p,
                    foes,
                    FightOptions {
                        company: Company::Alone([fighter, NONE]),
                        hero_level: level,
                        armed: true,
                        ..FightOptions::on(ARENA)
                    },
                    r,
                    trace,
                );
                if f.companions_dead[0] {
                    fighter = NONE;
                    fell = true;
                }
                f
            };
        let warriors = data.places[usize::from(city)].warriors;
        let captain = rules.captain;
        let mut level = None;
        let won = match *arena {
            ArenaDuel::Captain => {
                let f = arena_fight(self, &[(captain, 0)], None, r, trace);
                level = Some(f.hero_level);
                f.won
            }
            ArenaDuel::Swordsman(rank) => self.bout(ctx, p, rank, r, trace),
            ArenaDuel::Jetan => 'jetan: {
                // [17.43] played as a game of Jetan (our reading: won, the
                // arena is won; lost, it is lost; drawn, the table decides).
                if let Some(players) = ctx.config.jetan_arena {
                    let result = r.jetan(players);
                    trace.event("JC 17.43 game of Jetan", || {
                        let how = match result {
                            Some(true) => "wins: the arena is won",
                            Some(false) => "loses: the arena is lost",
                            None => "draws: the Jetan table decides",
                        };
                        format!(
                            "{} ({}) plays Jetan against the villain's player ({}) and {how}",
                            self.name(ctx, p),
                            players[0],
                            players[1]
                        )
                    });
                    if let Some(won) = result {
                        break 'jetan won;
                    }
                }
                let (duels, entry) = data.jetan.get(r.d10());
                self.fire(entry);
                let mut won = true;
                for who in &duels.list[..usize::from(duels.len)] {
                    let k = match *who {
                        Who::Character(k) => k,
                        Who::CityWarrior => warriors,
                    };
                    // [17.43] no healing between the duels.
                    let f = arena_fight(self, &[(k, 0)], level, r, trace);
                    level = Some(f.hero_level);
                    if !f.won {
                        won = false;
                        break;
                    }
                }
                won
            }
            ArenaDuel::Beast => {
                match players::arena_beast(ctx, self, p, city, &rules.arena_beast_exclude, r) {
                    Some(k) => {
                        let f =
                            arena_fight(self, &[(k, rules.arena_beast_strength)], None, r, trace);
                        level = Some(f.hero_level);
                        f.won
                    }
                    None => true,
                }
            }
            ArenaDuel::TheDeath => {
                // [17.45] dropped into an underground river: back outside
                // the city map, to come in again secretly.
                self.companion_joins(p, joiner);
                let turns = prison_turns;
                let h = &mut self.heroes[p];
                h.city.area = data.city_map.entry;
                h.city.house = NONE;
                h.city.secret = true;
                h.skip = h.skip.max(turns);
                return Flow::EndTurn;
            }
            ArenaDuel::SixWarriors => {
                let f = arena_fight(self, &[(warriors, 0); 6], None, r, trace);
                level = Some(f.hero_level);
                f.won
            }
            ArenaDuel::MindBattle => {
                // [17.47] won, at the cost of a level for two Strategic
                // Turns.
                self.heroes[p].penalty = (1, rules.mind_battle_turns);
                true
            }
            ArenaDuel::Chained => {
                // [17.48] chained in the throne room; free two Strategic
                // Turns later (or rescued by another hero).
                let h = &mut self.heroes[p];
                h.status = Status::Chained;
                h.skip = rules.chained_turns;
                h.city.area = data.city_map.palace;
                h.city.house = NONE;
                return Flow::EndTurn;
            }
        };
        if fell {
            joiner = NONE;
        }
        self.heroes[p].stats.arena_duels += 1;
        if !won {
            if self.saved_from_defeat(ctx, p, Defeat::Arena, r, trace) {
                return self.back_in_city(ctx, p, prison_turns, r);
            }
            self.out_of_play(ctx, p, "defeated in the arena [17.3]", trace);
            return Flow::Over;
        }
        self.companion_joins(p, joiner);
        // [17.33] outside the final destination the villain may flee.
        if !at_final && self.villain_can_flee(p) && self.decide_flight(ctx, p, r) {
            self.villain_flees(ctx, p, r, trace);
            self.heroes[p].skip = prison_turns;
            return Flow::Over;
        }
        // [17.33, 17.34] the challenge: with levels back outside the final
        // destination, without them in it.
        let top = data.roster.characters[usize::from(self.heroes[p].character)].top_level;
        let now = level.unwrap_or_else(|| self.hero_level(ctx, p));
        if self.villain_fights(ctx, p)
            && self.decide_whether(
                ctx,
                p,
                "challenge",
                |g, r| players::challenge(ctx, g, p, at_final, now, top, r),
                r,
            )
        {
            let mut list = [(0u8, 0u8); MAX_FIGHTERS];
            let mut n = 0;
            for &k in self.parties[p].villains() {
                if data.roster.characters[usize::from(k)].fights() && n < MAX_FIGHTERS {
                    list[n] = (k, 0);
                    n += 1;
                }
            }
            let f = self.fight(
                ctx,
                p,
                &list[..n],
                FightOptions {
                    hero_level: if at_final { Some(now) } else { None },
                    armed: true,
                    ..FightOptions::on(ARENA)
                },
                r,
                trace,
            );
            self.heroes[p].stats.arena_duels += 1;
            if !f.won {
                if self.saved_from_defeat(ctx, p, Defeat::Arena, r, trace) {
                    return self.back_in_city(ctx, p, prison_turns, r);
                }
                self.out_of_play(ctx, p, "defeated by his villain in the arena [17.3]", trace);
                return Flow::Over;
            }
            self.slay_villains(ctx, p);
            trace.event("JC 17.33 villain slain", || {
                format!("{} slays his villain in the arena", self.name(ctx, p))
            });
            self.check_glory(ctx, p, trace);
            self.surrogate_at_final(ctx, p, trace);
            if players::quarry(self, p).is_none() {
                self.heroes[p].skip = prison_turns;
                return Flow::Over;
            }
        }
        self.back_in_city(ctx, p, prison_turns, r)
    }

    /// A prison companion joins hero `p`'s retinue [17.13-17.15]; `NONE`
    /// when there is none, or he fell in the arena.
    fn companion_joins(&mut self, p: usize, joiner: u8) {
        if joiner != NONE {
            self.heroes[p].join(joiner);
        }
    }

    /// Out of prison (escaped [17.28] or after an arena win): next to the
    /// prison area, moving secretly, after the lost Strategic Turns
    /// [17.18].
    fn back_in_city<R: Roller>(&mut self, ctx: &Context, p: usize, turns: u8, r: &mut R) -> Flow {
        let area = players::escape_area(ctx, self, p, r);
        let h = &mut self.heroes[p];
        h.city.area = area;
        h.city.house = NONE;
        h.city.secret = true;
        h.skip = h.skip.max(turns);
        // [15.26] nothing left to pursue here (the villain's group slain and
        // the captive lost while he was inside): the city game is over.
        if players::quarry(self, p).is_none() {
            return Flow::Over;
        }
        Flow::EndTurn
    }

    /// A chained hero's wait is over [17.48]: free in the palace area,
    /// moving secretly; a quarry kept in the palace is right there.
    pub(crate) fn unchain<T: Trace>(&mut self, ctx: &Context, p: usize, trace: &mut T) {
        let palace = ctx.data.city_map.palace;
        let spots = self.parties[p].spots;
        let h = &mut self.heroes[p];
        h.status = Status::Free;
        h.city.area = palace;
        h.city.secret = true;
        for (q, spot) in spots.iter().enumerate() {
            if spot.area == palace {
                h.city.knows[q] = h.city.knows[q].max(2);
            }
        }
        trace.event("JC 17.48 unchained", || {
            format!("{} breaks his chains in the throne room", self.name(ctx, p))
        });
    }

    /// [17.48, 20.53] A hero in a city where another hero lies chained
    /// frees him, to his credit.
    pub(crate) fn rescue_fellow_heroes<T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        trace: &mut T,
    ) {
        let Some(c) = self.heroes[p].city() else {
            return;
        };
        for o in 0..usize::from(self.players) {
            if o == p
                || self.heroes[o].status != Status::Chained
                || self.parties[o].city != c
                || self.heroes[o].city() != Some(c)
            {
                continue;
            }
            self.heroes[o].skip = 0;
            self.unchain(ctx, o, trace);
            if self.heroes[p].rescue_at == 0 {
                self.heroes[p].rescue_at = stamp(self.turn, p);
            }
            trace.event("JC 20.53 rescue", || {
                format!("{} rescues {}", self.name(ctx, p), self.name(ctx, o))
            });
        }
    }
}
