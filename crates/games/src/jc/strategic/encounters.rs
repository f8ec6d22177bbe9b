//! Adventurous encounters [11.0] (phase E) and acquisition [14.0] (phase F).
//!
//! Outdoors (in transit, or on a trip that went from one city straight to
//! another [11.13]) the hero rolls a six-sided die on the column of his
//! destination's area and the line of his conveyance [11.21, 11.22]; in a
//! city, a ten-sided die plus the city modifier [11.26] (a deserted city or
//! a waypoint gives an outdoor encounter instead). No encounter on a 1T line
//! [9.41], on the quiet trips of [11.15], or when flying over the North Pole
//! [11.52]; two at the Carrion Caves unless flying [11.51].
//!
//! Winning heals everyone [11.31] (the thoats may bolt [11.32]); losing to
//! beasts puts the hero out of the game [11.33], to men makes him a
//! prisoner for the Delay Table's turns [11.34]; a city duel costs the
//! thoats [11.43], winning one in a city of modifier -2 or more rolls on the
//! Duel Results Table [11.42], losing one interns [11.44] (or, in Tjanath,
//! the pit to Ghasta [9.56]). Acquisition draws a card of the acquisition
//! deck and reads its flier or weapons-and-thoats line [14.1].

use super::data::conveyance_index;
use super::dice::Roller;
use super::duels::FightOptions;
use super::events::Defeat;
use super::game::{Context, Game, Place, Status, Transit};
use super::hooks::FriendSource;
use super::players;
use super::tables::{
    ARENA, FLIER_DISPLAY, Foes, ITEM_FLIER, ITEM_THOATS, ITEM_WEAPONS, Outcome, STREET, Who,
};
use crate::jc::duel::roster::Class;
use crate::jc::duel::sequence::MAX_FIGHTERS;
use crate::jc::map::{FLIER, THOAT, WALK};
use barsoom_engine::Trace;

/// How a city encounter went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CityFight {
    /// No duel, or a duel won.
    Clear,
    /// A duel lost.
    Lost,
}

impl Game {
    /// Phase E [8.0]: the encounter the hero's position calls for.
    pub(crate) fn encounter_phase<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let data = ctx.data;
        let h = self.heroes[p];
        let trip = h.trip;
        let quiet = h.moved
            && trip.from != super::consts::NO_PLACE
            && data.quiet[usize::from(trip.from)] & (1 << trip.to) != 0;
        match h.place {
            Place::Transit(t) => {
                if !quiet {
                    self.outdoor_encounters(ctx, p, t.to, Some(t), r, trace);
                }
            }
            Place::City(c) => {
                let info = &data.places[usize::from(c)];
                if h.moved && trip.total == 0 {
                    // [9.41] a 1T line: no encounter.
                } else if h.left_city {
                    // [11.13] straight from one city to another: the
                    // trip's outdoor encounter, not a city encounter.
                    if !quiet {
                        self.outdoor_encounters(ctx, p, c, Some(trip), r, trace);
                    }
                } else if quiet {
                    // [11.15] arrived by a quiet trip.
                } else if info.deserted || info.waypoint {
                    self.outdoor_encounters(ctx, p, c, None, r, trace);
                } else if self.city_encounter(ctx, p, c, r, trace) == CityFight::Lost {
                    self.beaten_in_city(ctx, p, c, r, trace);
                }
            }
        }
    }

    /// One or two outdoor encounters (two at the Carrion Caves unless
    /// flying [11.51]; none flying over the North Pole [11.52]) on the
    /// column of `at`'s area.
    fn outdoor_encounters<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        at: u8,
        trip: Option<Transit>,
        r: &mut R,
        trace: &mut T,
    ) {
        let data = ctx.data;
        let flying = self.heroes[p].conveyance == FLIER;
        let place = |k: u8| data.places.get(usize::from(k));
        if flying && place(at).is_some_and(|i| i.north_pole) {
            return;
        }
        let double = !flying
            && (place(at).is_some_and(|i| i.double_encounters)
                || trip.is_some_and(|t| {
                    place(t.from).is_some_and(|i| i.double_encounters)
                        || place(t.via).is_some_and(|i| i.double_encounters)
                }));
        for _ in 0..1 + usize::from(double) {
            if self.heroes[p].status != Status::Free {
                break;
            }
            self.outdoor_encounter(ctx, p, at, r, trace);
        }
    }

    /// One roll on the Outdoor Encounter Table [11.21].
    pub fn outdoor_encounter<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        at: u8,
        r: &mut R,
        trace: &mut T,
    ) {
        let data = ctx.data;
        let area = &data.areas[usize::from(data.places[usize::from(at)].area)];
        let line = conveyance_index(self.heroes[p].conveyance);
        let roll = r.d6();
        let (outcome, entry) = area.lines[line].get(roll);
        self.fire(entry);
        trace.event("JC 11.21 outdoor encounter", || {
            format!(
                "turn {}: {} rolls {roll} in area {}: {}",
                self.turn,
                self.name(ctx, p),
                area.id,
                data.entries.names[usize::from(entry)]
            )
        });
        self.outdoor_outcome(ctx, p, at, outcome, r, trace);
    }

    fn outdoor_outcome<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        at: u8,
        outcome: &Outcome,
        r: &mut R,
        trace: &mut T,
    ) {
        match outcome {
            Outcome::Roll(table) => {
                let (o, entry) = table.get(r.d10());
                self.fire(entry);
                self.outdoor_outcome(ctx, p, at, o, r, trace);
            }
            Outcome::Fight { foes, display } => {
                if self.encounter_avoided(ctx, p, foes, true, r, trace) {
                    return;
                }
                let conveyance = self.heroes[p].conveyance;
                let display = display.unwrap_or(if conveyance == FLIER {
                    FLIER_DISPLAY
                } else {
                    ARENA
                });
                let mut list = [(0u8, 0u8); MAX_FIGHTERS];
                let n = self.expand_foes(ctx, foes, at, MAX_FIGHTERS, &mut list);
                self.story.heroes[p].hostile = true;
                let fought = self.fight(ctx, p, &list[..n], FightOptions::on(display), r, trace);
                if fought.won {
                    // [11.31] healed; [11.32] the thoats may bolt.
                    if conveyance == THOAT {
                        let area =
                            &ctx.data.areas[usize::from(ctx.data.places[usize::from(at)].area)];
                        let roll = r.d10() as u8;
                        if (area.thoat_escape.0..=area.thoat_escape.1).contains(&roll) && roll > 0 {
                            self.heroes[p].conveyance = WALK;
                            trace.event("JC 11.32 thoat escape", || {
                                format!(
                                    "{}'s thoats bolt (roll {roll}): he walks on",
                                    self.name(ctx, p)
                                )
                            });
                        }
                    }
                } else if only_beasts(ctx, foes) {
                    if !self.saved_from_defeat(ctx, p, Defeat::Beasts, r, trace) {
                        self.out_of_play(ctx, p, "overcome by the beasts of Mars [11.33]", trace);
                    }
                } else {
                    self.capture(ctx, p, r, trace);
                }
            }
            Outcome::LoseFlier(cards) if self.heroes[p].conveyance == FLIER => {
                self.extra_movement(ctx, p, *cards, r, trace);
                self.heroes[p].conveyance = WALK;
                trace.event("JC 9.43 flier lost", || {
                    format!("{} loses his flier and walks", self.name(ctx, p))
                });
            }
            Outcome::LoseThoats if self.heroes[p].conveyance == THOAT => {
                self.heroes[p].conveyance = WALK;
            }
            Outcome::Friend => self.befriend(ctx, p, FriendSource::Outdoor, r, trace),
            _ => {}
        }
    }

    /// Captured by warriors of Mars [11.34]: a prisoner for the Delay
    /// Table's turns, then back where he was taken, on foot, unarmed unless
    /// befriended in captivity.
    fn capture<R: Roller, T: Trace>(&mut self, ctx: &Context, p: usize, r: &mut R, trace: &mut T) {
        if self.saved_from_defeat(ctx, p, Defeat::Capture, r, trace) {
            return;
        }
        let (delay, entry) = ctx.data.delay.get(r.d10());
        self.fire(entry);
        let h = &mut self.heroes[p];
        h.status = Status::Captured;
        h.wait = delay.turns;
        h.armed = delay.befriended;
        h.stats.captures = h.stats.captures.saturating_add(1);
        trace.event("JC 11.34 captured", || {
            format!(
                "turn {}: {} is taken prisoner for {} Turns",
                self.turn,
                self.name(ctx, p),
                delay.turns
            )
        });
        if delay.befriended {
            self.befriend(ctx, p, FriendSource::Delay, r, trace);
        }
    }

    /// One roll on the City Encounter Table [11.7, 11.26] in `city`.
    pub(crate) fn city_encounter<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        city: u8,
        r: &mut R,
        trace: &mut T,
    ) -> CityFight {
        let data = ctx.data;
        let die = r.d10();
        if self.lum_tar_o(ctx, p, city, die, trace) {
            return CityFight::Clear;
        }
        let roll = die + i32::from(data.places[usize::from(city)].modifier);
        let (outcome, entry) = data.city_encounters.get(roll);
        self.fire(entry);
        trace.event("JC 11.26 city encounter", || {
            format!(
                "turn {}: {} in {}: total {roll}: {}",
                self.turn,
                self.name(ctx, p),
                data.map.cities[usize::from(city)].name,
                data.entries.names[usize::from(entry)]
            )
        });
        self.city_outcome(ctx, p, city, outcome, r, trace)
    }

    fn city_outcome<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        city: u8,
        outcome: &Outcome,
        r: &mut R,
        trace: &mut T,
    ) -> CityFight {
        match outcome {
            Outcome::Roll(table) => {
                let (o, entry) = table.get(r.d10());
                self.fire(entry);
                self.city_outcome(ctx, p, city, o, r, trace)
            }
            Outcome::Fight { foes, display } => {
                if self.encounter_avoided(ctx, p, foes, false, r, trace) {
                    return CityFight::Clear;
                }
                self.lose_thoats_in_city(p);
                let mut list = [(0u8, 0u8); MAX_FIGHTERS];
                let n = self.expand_foes(ctx, foes, city, MAX_FIGHTERS, &mut list);
                self.story.heroes[p].hostile = true;
                let won = self
                    .fight(
                        ctx,
                        p,
                        &list[..n],
                        FightOptions::on(display.unwrap_or(STREET)),
                        r,
                        trace,
                    )
                    .won;
                self.after_city_duel(ctx, p, city, won, r, trace)
            }
            Outcome::Swordsman(rank) => {
                self.lose_thoats_in_city(p);
                let won = self.bout(ctx, p, *rank, r, trace);
                self.after_city_duel(ctx, p, city, won, r, trace)
            }
            Outcome::LoseThoats => {
                self.lose_thoats_in_city(p);
                CityFight::Clear
            }
            Outcome::Friend => {
                self.befriend(ctx, p, FriendSource::City, r, trace);
                CityFight::Clear
            }
            _ => CityFight::Clear,
        }
    }

    /// [11.43] A duel in a city costs the thoats (never the flier).
    fn lose_thoats_in_city(&mut self, p: usize) {
        if self.heroes[p].conveyance == THOAT {
            self.heroes[p].conveyance = WALK;
        }
    }

    /// After a city duel: a win in a city of modifier -2 or more rolls on
    /// the Duel Results Table [11.42, 11.45].
    fn after_city_duel<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        city: u8,
        won: bool,
        r: &mut R,
        trace: &mut T,
    ) -> CityFight {
        if !won {
            return CityFight::Lost;
        }
        if ctx.data.places[usize::from(city)].modifier < -2 {
            return CityFight::Clear;
        }
        let (outcome, entry) = ctx.data.duel_results.get(r.d10());
        self.fire(entry);
        match outcome {
            Outcome::Gift(item) => {
                self.gain(p, *item);
                trace.event("JC 11.45 duel results", || {
                    format!("{} is given {}", self.name(ctx, p), item_name(*item))
                });
                CityFight::Clear
            }
            Outcome::Friend => {
                self.befriend(ctx, p, FriendSource::DuelResults, r, trace);
                CityFight::Clear
            }
            Outcome::Interned => CityFight::Lost,
            Outcome::Swordsman(rank) => {
                if self.bout(ctx, p, *rank, r, trace) {
                    CityFight::Clear
                } else {
                    CityFight::Lost
                }
            }
            _ => CityFight::Clear,
        }
    }

    /// A hero beaten in a city without his villain: the pit to Ghasta if
    /// the city has one and he takes it [9.56], else internment [11.44].
    pub(crate) fn beaten_in_city<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        city: u8,
        r: &mut R,
        trace: &mut T,
    ) {
        if let Some((to, haads)) = ctx.data.places[usize::from(city)].pit
            && self.decide_whether(ctx, p, "pit", |g, r| players::take_pit(g, p, to, r), r)
        {
            let h = &mut self.heroes[p];
            h.conveyance = WALK;
            h.place = Place::Transit(Transit {
                from: city,
                to,
                left: haads,
                total: haads,
                via: super::consts::NONE,
            });
            trace.event("JC 9.56 the pit", || {
                format!(
                    "{} is thrown into the pit of {} and walks the tunnel to {}",
                    self.name(ctx, p),
                    ctx.data.map.cities[usize::from(city)].name,
                    ctx.data.map.cities[usize::from(to)].name
                )
            });
            return;
        }
        self.intern(ctx, p, r, trace);
    }

    /// Interned [11.44, 11.46]: the Internment Table's turns, items and
    /// friend.
    pub fn intern<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        if self.saved_from_defeat(ctx, p, Defeat::Internment, r, trace) {
            return;
        }
        let (row, entry) = ctx.data.internment.get(r.d10());
        self.fire(entry);
        self.lose(p, row.lose);
        let h = &mut self.heroes[p];
        h.stats.internments = h.stats.internments.saturating_add(1);
        if row.turns > 0 {
            h.status = Status::Interned;
            h.wait = row.turns;
        }
        trace.event("JC 11.46 interned", || {
            format!(
                "turn {}: {} is interned for {} Turns{}",
                self.turn,
                self.name(ctx, p),
                row.turns,
                if row.lose != 0 {
                    format!(", losing his {}", item_name(row.lose))
                } else {
                    String::new()
                }
            )
        });
        if row.befriended {
            self.befriend(ctx, p, FriendSource::Internment, r, trace);
        }
    }

    /// Phase F [14.0]: one attempt at what the hero's policy seeks, if the
    /// city has it [14.21, 14.22].
    pub(crate) fn acquisition_phase<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let Some(city) = self.heroes[p].city() else {
            return;
        };
        let info = &ctx.data.places[usize::from(city)];
        if info.waypoint || self.in_villain_city(p) && self.heroes[p].city.active {
            return;
        }
        let wanted = self.decide_item(ctx, p, r) & info.items;
        if wanted == 0 {
            return;
        }
        let line = usize::from(wanted & ITEM_FLIER != 0);
        let index = r.card(&mut self.acquisition);
        let card = ctx.data.acquisition[index];
        self.fire(card.entries[line]);
        let won = match card.lines[line] {
            super::data::AcquisitionLine::Succeed => true,
            super::data::AcquisitionLine::Fight { foes, display } => {
                self.lose_thoats_in_city(p);
                let cap = if info.invisible {
                    usize::from(ctx.data.city.invisible_cap)
                } else {
                    MAX_FIGHTERS
                };
                let mut list = [(0u8, 0u8); MAX_FIGHTERS];
                let n = self.expand_foes(ctx, &foes, city, cap, &mut list);
                let options = FightOptions {
                    grounded: true,
                    ..FightOptions::on(display)
                };
                self.fight(ctx, p, &list[..n], options, r, trace).won
            }
        };
        trace.event("JC 14.1 acquisition", || {
            format!(
                "turn {}: {} seeks {} in {} (card {}): {}",
                self.turn,
                self.name(ctx, p),
                item_name(wanted),
                ctx.data.map.cities[usize::from(city)].name,
                card.number,
                if won { "gets it" } else { "is beaten" }
            )
        });
        if won {
            self.gain(p, wanted);
        } else {
            self.intern(ctx, p, r, trace);
        }
    }
}

/// Whether every foe is a beast of Mars [11.33].
fn only_beasts(ctx: &Context, foes: &Foes) -> bool {
    foes.iter().all(|(who, _)| match who {
        Who::Character(k) => ctx.data.roster.characters[usize::from(k)].class == Class::Beast,
        Who::CityWarrior => false,
    })
}

/// Names of item bits.
pub(crate) fn item_name(items: u8) -> String {
    let mut out = Vec::new();
    if items & ITEM_FLIER != 0 {
        out.push("flier");
    }
    if items & ITEM_THOATS != 0 {
        out.push("thoats");
    }
    if items & ITEM_WEAPONS != 0 {
        out.push("weapons");
    }
    out.join(" and ")
}
