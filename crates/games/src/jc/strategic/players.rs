//! The players' decisions, one policy per side of each player (a player is
//! a hero and some other hero's villain [10.0]).
//!
//! **Hero, `sensible`.** Goes after his villain's city, or, with the
//! rescued captive in his retinue, to his love city first [20.52]; as
//! Tor-dur-bar, with his villains and henchmen slain, home to the nearest
//! of Helium and Morbus, where his glory counts [19.53]. The
//! route is the first line of the quickest way in expected Strategic Turns
//! (haads over the mean card of the conveyance [9.1]), on his conveyance or
//! on foot if that is quicker (a flier cannot go to the North Pole [9.51]);
//! in transit he turns back [9.13] only when that is quicker. Without a
//! flier he reckons the way through a city with fliers too (two Strategic
//! Turns to acquire one), and takes it when it is quicker (Ghasta needs a
//! flier [9.56]). He acquires [14] weapons when unarmed, a flier when he has none
//! and the city has them (unless his goal is at the North Pole), else
//! thoats when walking. In Tjanath's pit [9.56] he takes the tunnel only when
//! his villain is where it leads. In a villain's city he pursues the
//! captive first while his love is unfulfilled, else the villain's group:
//! with its house known he goes in and fights [15.42]; with its area known
//! he walks there and asks about it [16.2], or searches house by house when
//! at most two houses are left [16.4]; knowing nothing he heads for the area
//! that tells most. He leaves the city game, captive in hand, when he does
//! not know where the villain's group is, unless his love is barred
//! [13.44]; he challenges the villain after an
//! arena win [17.33] when his side's fighting levels match the villains',
//! and in the final destination only with at most one level to make up
//! [17.34]. Out of prison he comes
//! out next to the arena nearest his quarry [17.28].
//!
//! **Villain, `sensible`.** Flees whenever he may [10.22, 15.22, 17.33];
//! hides his group in the area (not the deserted one [16.16]) where
//! information is hardest to come by, and the captive in the hardest of
//! all; sends the strongest beast of the city's area into the arena
//! [17.44].
//!
//! **`random`** (either side): a uniform choice among the legal ones at
//! every decision.

use super::consts::{CAPTIVE_QUARRY, NONE, VILLAIN_QUARRY};
use super::dice::Roller;
use super::game::{Context, Game, Place, Spot};
use super::tables::{ITEM_FLIER, ITEM_THOATS, ITEM_WEAPONS, Outcome, Who};
use crate::jc::duel::roster::Class;
use crate::jc::map::{FLIER, UNREACHABLE, WALK};

/// The policy names a scenario may use (a hero's policy may also be a
/// search player, `search:N[:BASE]`).
pub const POLICIES: &str = "\"sensible\" or \"random\"";
/// The base policies a search player names.
pub const BASES: &str = "sensible, random";

/// How a player plays his hero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeroPolicy {
    /// See the module documentation.
    Sensible,
    /// Uniform among legal choices.
    Random,
}

/// How a player plays his villain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VillainPolicy {
    /// See the module documentation.
    Sensible,
    /// Uniform among legal choices.
    Random,
}

impl HeroPolicy {
    /// Parses a policy name.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "sensible" => Some(HeroPolicy::Sensible),
            "random" => Some(HeroPolicy::Random),
            _ => None,
        }
    }
}

impl VillainPolicy {
    /// Parses a policy name.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "sensible" => Some(VillainPolicy::Sensible),
            "random" => Some(VillainPolicy::Random),
            _ => None,
        }
    }
}

/// A movement choice [9.1, 9.13].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// Stay put [11.14].
    Stay,
    /// Set out along a route (index into the map's routes), first leaving
    /// his mount or flier if `dismount`.
    Go {
        /// The route.
        route: u16,
        /// Walk from here on.
        dismount: bool,
    },
    /// Go on towards the destination.
    Onward,
    /// Turn back [9.13].
    Back,
}

/// A choice in a Hero Movement Phase [15.0].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CityMove {
    /// Stay in the area's holding box.
    Stay,
    /// Move to an adjacent area's holding box.
    Area(u8),
    /// Move into a house box of this or an adjacent area [15.41, 16.42],
    /// after `quarry`.
    House {
        /// Area.
        area: u8,
        /// House.
        house: u8,
        /// The quarry sought there.
        quarry: usize,
    },
}

fn hero_policy(g: &Game, p: usize) -> HeroPolicy {
    g.policies[p].0
}

fn villain_policy(g: &Game, p: usize) -> VillainPolicy {
    // Hero p's villain is played by his controller [10.0].
    g.policies[usize::from(g.parties[p].controller)].1
}

/// Where hero `p` wants to be (sensible).
pub fn target(ctx: &Context, g: &Game, p: usize) -> Option<u8> {
    let h = &g.heroes[p];
    let party = &g.parties[p];
    let love_city = ctx.data.heroes[usize::from(h.hero)].love_city;
    let carries = g.captive_of(ctx, p).is_some_and(|k| h.has(k));
    if carries && h.love_at == 0 && !h.love_barred {
        return Some(love_city);
    }
    if super::game::party_present(party) && (h.glory_at == 0 || party.holds_captive()) {
        return Some(party.city);
    }
    if h.glory_at == 0 && g.villain_party_slain(ctx, p) && !g.quest_may_end(ctx, p) {
        return nearest_home(ctx, g, p);
    }
    None
}

/// The nearest of the cities where Tor-dur-bar's quest may end [19.53],
/// for a hero whose glory waits only on getting there.
fn nearest_home(ctx: &Context, g: &Game, p: usize) -> Option<u8> {
    let h = &g.heroes[p];
    let here = match h.place {
        Place::City(c) => c,
        Place::Transit(t) => t.to,
    };
    let homes = ctx.data.story.specials.tor_dur_bar.homes;
    (0..ctx.data.map.cities.len() as u8)
        .filter(|&c| homes & (1u64 << c) != 0)
        .map(|c| (cost_from(ctx, h.conveyance, here, c), c))
        .filter(|(cost, _)| cost.is_finite())
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// Expected Strategic Turns hero `p` needs to reach where he wants to be
/// ([`target`]), if he wants to be somewhere.
pub(crate) fn turns_to_goal(ctx: &Context, g: &Game, p: usize) -> Option<f64> {
    let goal = target(ctx, g, p)?;
    let h = &g.heroes[p];
    Some(match h.place {
        Place::City(c) => cost_from(ctx, h.conveyance, c, goal),
        Place::Transit(t) => {
            turns(ctx, h.conveyance, t.left) + cost_from(ctx, h.conveyance, t.to, goal)
        }
    })
}

/// Expected Strategic Turns to cover `haads` with conveyance `c`.
fn turns(ctx: &Context, c: u8, haads: u16) -> f64 {
    f64::from(haads) / ctx.data.mean_haads[super::data::conveyance_index(c)]
}

/// Hero `p`'s movement choice, never back to `avoid` [9.43].
pub(crate) fn choose_move_avoiding<R: Roller>(
    ctx: &Context,
    g: &Game,
    p: usize,
    avoid: u8,
    r: &mut R,
) -> Move {
    let h = &g.heroes[p];
    let map = &ctx.data.map;
    match hero_policy(g, p) {
        HeroPolicy::Random => match h.place {
            Place::Transit(t) => {
                if t.from != avoid && r.pick(4) == 0 {
                    Move::Back
                } else {
                    Move::Onward
                }
            }
            Place::City(c) => {
                let open: Vec<u16> = (map.from_range[usize::from(c)].0
                    ..map.from_range[usize::from(c)].1)
                    .filter(|&i| {
                        let rt = &map.routes[usize::from(i)];
                        rt.to != avoid && g.route_open(ctx, rt, h.conveyance)
                    })
                    .collect();
                let k = r.pick(open.len() + 1);
                if k == open.len() {
                    Move::Stay
                } else {
                    Move::Go {
                        route: open[k],
                        dismount: false,
                    }
                }
            }
        },
        HeroPolicy::Sensible => {
            let Some(goal) = target(ctx, g, p) else {
                return match h.place {
                    Place::Transit(_) => Move::Onward,
                    Place::City(_) => Move::Stay,
                };
            };
            sensible_move(ctx, g, p, goal, avoid)
        }
    }
}

/// Strategic Turns a sensible hero reckons an acquisition takes (a card
/// may call for a fight, and a lost one interns him [14.0]).
const ACQUIRE_TURNS: f64 = 2.0;

/// Expected Strategic Turns from `place` to `goal` for a hero on `cv`: the
/// direct way on `cv` or on foot, or (not yet flying) by way of a city with
/// fliers to acquire one [14.22]; infinite when none leads there.
fn cost_from(ctx: &Context, cv: u8, place: u8, goal: u8) -> f64 {
    let data = ctx.data;
    // Thoat riders go on foot from a waypoint [9.52].
    let cv = if cv == crate::jc::map::THOAT && data.places[usize::from(place)].waypoint {
        WALK
    } else {
        cv
    };
    let by = |c: u8| match data.distance(c, place, goal) {
        UNREACHABLE => f64::INFINITY,
        d => turns(ctx, c, d),
    };
    // He may leave his mount or flier and walk on (a flier cannot reach
    // the North Pole [9.51], a thoat some places [9.52]).
    let direct = by(cv).min(by(WALK));
    if cv == FLIER {
        return direct;
    }
    let mut best = direct;
    for d in 0..data.map.cities.len() as u8 {
        if data.places[usize::from(d)].items & ITEM_FLIER == 0 {
            continue;
        }
        let (there, on) = (data.distance(cv, place, d), data.distance(FLIER, d, goal));
        if there == UNREACHABLE || on == UNREACHABLE {
            continue;
        }
        best = best.min(turns(ctx, cv, there) + ACQUIRE_TURNS + turns(ctx, FLIER, on));
    }
    best
}

fn sensible_move(ctx: &Context, g: &Game, p: usize, goal: u8, avoid: u8) -> Move {
    let h = &g.heroes[p];
    let data = ctx.data;
    let map = &data.map;
    let cv = h.conveyance;
    match h.place {
        Place::Transit(t) => {
            let onward = turns(ctx, cv, t.left) + cost_from(ctx, cv, t.to, goal);
            let back = turns(ctx, cv, t.total - t.left) + cost_from(ctx, cv, t.from, goal);
            if t.from != avoid && back + 1e-9 < onward {
                Move::Back
            } else {
                Move::Onward
            }
        }
        Place::City(c) => {
            if c == goal {
                return Move::Stay;
            }
            // Staying to acquire a flier here [14.22].
            let mut best = (f64::INFINITY, Move::Stay);
            if cv != FLIER && data.places[usize::from(c)].items & ITEM_FLIER != 0 {
                let on = data.distance(FLIER, c, goal);
                if on != UNREACHABLE {
                    best.0 = ACQUIRE_TURNS + turns(ctx, FLIER, on);
                }
            }
            let mut options = [cv, WALK];
            if cv == WALK {
                options[1] = NONE;
            }
            for o in options {
                if o == NONE {
                    continue;
                }
                let (a, b) = map.from_range[usize::from(c)];
                for i in a..b {
                    let rt = &map.routes[usize::from(i)];
                    if rt.to == avoid || !g.route_open(ctx, rt, o) {
                        continue;
                    }
                    let leg = if rt.one_turn {
                        0.5
                    } else {
                        turns(ctx, o, rt.haads)
                    };
                    let cost = leg + cost_from(ctx, o, rt.to, goal);
                    if cost + 1e-9 < best.0 {
                        best = (
                            cost,
                            Move::Go {
                                route: i,
                                dismount: o != cv,
                            },
                        );
                    }
                }
            }
            best.1
        }
    }
}

/// What hero `p` tries to acquire in his city, as item bits (0: nothing)
/// [14.0, 14.22].
pub(crate) fn seek_item<R: Roller>(ctx: &Context, g: &Game, p: usize, r: &mut R) -> u8 {
    let (lacked, _) = items_lacked(ctx, g, p);
    let wanted = lacked[0];
    match hero_policy(g, p) {
        HeroPolicy::Random => {
            if wanted != 0 && r.pick(2) == 0 {
                wanted
            } else {
                0
            }
        }
        HeroPolicy::Sensible => {
            let goal = target(ctx, g, p);
            let polar = goal.is_some_and(|t| ctx.data.places[usize::from(t)].north_pole);
            if wanted == ITEM_FLIER && polar {
                return 0;
            }
            wanted
        }
    }
}

/// Whether hero `p`, beaten in a city encounter in Tjanath, takes the pit
/// to `to` rather than internment [9.56].
pub(crate) fn take_pit<R: Roller>(g: &Game, p: usize, to: u8, r: &mut R) -> bool {
    match hero_policy(g, p) {
        HeroPolicy::Random => r.pick(2) == 0,
        HeroPolicy::Sensible => g.parties[p].city == to,
    }
}

/// Whether hero `p`'s villain flees when he may [10.22].
pub fn flee<R: Roller>(g: &Game, p: usize, r: &mut R) -> bool {
    match villain_policy(g, p) {
        VillainPolicy::Sensible => true,
        VillainPolicy::Random => r.pick(2) == 0,
    }
}

/// How much information area `a` of `city` gives: the chance of at least
/// area information, averaged over the six tables [16.27] (as the deserted
/// quarter outside the city's corner towers).
pub(crate) fn information_value(ctx: &Context, city: u8, a: u8) -> f64 {
    let tables = &ctx.data.information;
    let column = ctx.data.information_area(city, a);
    tables
        .iter()
        .map(|t| f64::from(11u8.saturating_sub(t[column].at_least[0]).min(10)) / 10.0)
        .sum::<f64>()
        / tables.len().max(1) as f64
}

/// Where hero `p`'s villain hides his group and the captive [16.11-16.16].
pub fn hide<R: Roller>(ctx: &Context, g: &Game, p: usize, r: &mut R) -> [Spot; 2] {
    let map = &ctx.data.city_map;
    let areas: Vec<u8> = (0..map.areas.len() as u8)
        .filter(|&a| a != map.prison && map.areas[usize::from(a)].houses > 0)
        .collect();
    // [16.16] never in a deserted area (the city's extent decides which).
    let city = g.parties[p].city;
    let villain_areas: Vec<u8> = areas
        .iter()
        .copied()
        .filter(|&a| !ctx.data.deserted_area(city, a))
        .collect();
    let pick = |list: &[u8], r: &mut R| -> u8 {
        match villain_policy(g, p) {
            VillainPolicy::Random => list[r.pick(list.len())],
            VillainPolicy::Sensible => {
                let worst = list
                    .iter()
                    .map(|&a| information_value(ctx, city, a))
                    .fold(f64::INFINITY, f64::min);
                let ties: Vec<u8> = list
                    .iter()
                    .copied()
                    .filter(|&a| information_value(ctx, city, a) <= worst + 1e-9)
                    .collect();
                ties[r.pick(ties.len())]
            }
        }
    };
    let va = if villain_areas.is_empty() {
        areas[0]
    } else {
        pick(&villain_areas, r)
    };
    let varea = &map.areas[usize::from(va)];
    let villain = Spot {
        area: va,
        house: r.pick(usize::from(varea.houses)) as u8,
        room: r.pick(usize::from(varea.rooms)) as u8,
    };
    // The captive in another house [16.13].
    let ca_list: Vec<u8> = areas
        .iter()
        .copied()
        .filter(|&a| a != va || map.areas[usize::from(a)].houses > 1)
        .collect();
    let ca = if ca_list.is_empty() {
        va
    } else {
        pick(&ca_list, r)
    };
    let carea = &map.areas[usize::from(ca)];
    let mut house = r.pick(usize::from(carea.houses)) as u8;
    if ca == va && house == villain.house {
        house = (house + 1) % carea.houses;
    }
    let captive = Spot {
        area: ca,
        house,
        room: r.pick(usize::from(carea.rooms)) as u8,
    };
    [villain, captive]
}

/// The quarry hero `p` is after in the city: the captive while his love is
/// unfulfilled, else the villain's group; `None` if neither is here.
pub(crate) fn quarry(g: &Game, p: usize) -> Option<usize> {
    let h = &g.heroes[p];
    let party = &g.parties[p];
    let group = party.villains_len > 0 || party.henchmen_len > 0 || party.surrogate != NONE;
    let captive = party.holds_captive();
    match (captive, group) {
        (true, true) if h.love_at == 0 && !h.love_barred => Some(CAPTIVE_QUARRY),
        (_, true) if h.glory_at == 0 || !captive => Some(VILLAIN_QUARRY),
        (true, _) => Some(CAPTIVE_QUARRY),
        (false, true) => Some(VILLAIN_QUARRY),
        (false, false) => None,
    }
}

/// Hero `p`'s choice in the Hero Movement Phase [15.0].
pub(crate) fn city_move<R: Roller>(ctx: &Context, g: &Game, p: usize, r: &mut R) -> CityMove {
    let map = &ctx.data.city_map;
    let city = g.parties[p].city;
    let cg = &g.heroes[p].city;
    let here = cg.area;
    let next: Vec<u8> = map.areas[usize::from(here)]
        .next
        .iter()
        .map(|&(a, _)| a)
        .filter(|&a| a != map.prison)
        .collect();
    let Some(q) = quarry(g, p) else {
        return CityMove::Stay;
    };
    if hero_policy(g, p) == HeroPolicy::Random {
        let houses = map.areas[usize::from(here)].houses;
        let k = r.pick(next.len() + 1 + usize::from(houses > 0));
        return if k < next.len() {
            CityMove::Area(next[k])
        } else if k == next.len() {
            CityMove::Stay
        } else {
            CityMove::House {
                area: here,
                house: r.pick(usize::from(houses)) as u8,
                quarry: q,
            }
        };
    }
    let spot = g.parties[p].spots[q];
    let knows = cg.knows[q];
    let step_toward = |to: u8| -> CityMove {
        next.iter()
            .copied()
            .min_by_key(|&a| (map.steps(a, to), a))
            .map_or(CityMove::Stay, CityMove::Area)
    };
    if knows >= 2 {
        if spot.area == here || next.contains(&spot.area) {
            return CityMove::House {
                area: spot.area,
                house: spot.house,
                quarry: q,
            };
        }
        return step_toward(spot.area);
    }
    if knows == 1 {
        if spot.area != here {
            return step_toward(spot.area);
        }
        let houses = map.areas[usize::from(here)].houses;
        let left: Vec<u8> = (0..houses)
            .filter(|&h| cg.empty[q] & (1u128 << (u32::from(here) * 8 + u32::from(h))) == 0)
            .collect();
        if left.len() <= 2 && !left.is_empty() {
            return CityMove::House {
                area: here,
                house: left[0],
                quarry: q,
            };
        }
        return CityMove::Stay;
    }
    // Nothing known: the area that tells most, a step at a time.
    let best = (0..map.areas.len() as u8)
        .filter(|&a| a != map.prison)
        .max_by(|&a, &b| {
            let va = information_value(ctx, city, a) - 0.02 * f64::from(map.steps(here, a));
            let vb = information_value(ctx, city, b) - 0.02 * f64::from(map.steps(here, b));
            va.total_cmp(&vb).then(b.cmp(&a))
        })
        .unwrap_or(here);
    if best == here {
        CityMove::Stay
    } else {
        step_toward(best)
    }
}

/// Whether hero `p` ends his city game of his own accord: sensible heroes
/// do so with the captive in hand while the villain's whereabouts in the
/// city are unknown (to bring her home [20.52]).
pub(crate) fn leave_city<R: Roller>(ctx: &Context, g: &Game, p: usize, r: &mut R) -> bool {
    if !may_leave_city(ctx, g, p) {
        return false;
    }
    let h = &g.heroes[p];
    match hero_policy(g, p) {
        HeroPolicy::Random => r.pick(4) == 0,
        // With his love barred [13.44] the captive has nowhere to go: he
        // stays after the villain.
        HeroPolicy::Sensible => !h.love_barred && h.city.knows[VILLAIN_QUARRY] < 2,
    }
}

/// What hero `p` lacks that his city has, as item bits, most needed first
/// (0 where the list ends): weapons (with thoats when walking), a flier,
/// thoats when walking [14.0, 14.22]; and how many.
pub(crate) fn items_lacked(ctx: &Context, g: &Game, p: usize) -> ([u8; 3], usize) {
    let h = &g.heroes[p];
    let here = h
        .city()
        .map_or(0, |c| ctx.data.places[usize::from(c)].items);
    let mut lacked = [0u8; 3];
    let mut n = 0;
    let mut add = |items: u8| {
        lacked[n] = items;
        n += 1;
    };
    if !h.armed && here & ITEM_WEAPONS != 0 {
        add(ITEM_WEAPONS
            | (here & ITEM_THOATS & if h.conveyance == WALK { ITEM_THOATS } else { 0 }));
    }
    if h.conveyance != FLIER && here & ITEM_FLIER != 0 {
        add(ITEM_FLIER);
    }
    if h.conveyance == WALK && here & ITEM_THOATS != 0 {
        add(ITEM_THOATS);
    }
    (lacked, n)
}

/// Whether hero `p` may leave the city game with the rescued captive
/// [15.26]: he holds her and his love is still to come.
pub(crate) fn may_leave_city(ctx: &Context, g: &Game, p: usize) -> bool {
    let h = &g.heroes[p];
    let carries = g.captive_of(ctx, p).is_some_and(|k| h.has(k));
    carries && h.love_at == 0
}

/// Whether hero `p` challenges his villain after winning an arena duel
/// [17.33, 17.34], at `level` (his top is `top`). Sensible: only when his
/// side's levels (his own, then his fighting retinue's) at least match the
/// villains' (who fight together), and in the final destination only with
/// at most one level to make up.
pub fn challenge<R: Roller>(
    ctx: &Context,
    g: &Game,
    p: usize,
    at_final: bool,
    level: u8,
    top: u8,
    r: &mut R,
) -> bool {
    let roster = &ctx.data.roster;
    let levels = |k: u8| {
        let c = &roster.characters[usize::from(k)];
        u32::from(c.top_level) - u32::from(c.unconscious_at_level_1)
    };
    match hero_policy(g, p) {
        HeroPolicy::Random => r.pick(2) == 0,
        HeroPolicy::Sensible => {
            let hero = u32::from(level).saturating_sub(1)
                + g.heroes[p]
                    .retinue()
                    .iter()
                    .filter(|&&k| roster.characters[usize::from(k)].fights())
                    .map(|&k| levels(k))
                    .sum::<u32>();
            let villains: u32 = g.parties[p]
                .villains()
                .iter()
                .filter(|&&k| roster.characters[usize::from(k)].fights())
                .map(|&k| levels(k))
                .sum();
            hero >= villains && (!at_final || level + 1 >= top)
        }
    }
}

/// The area next to the prison an escaping hero comes out into [17.28].
pub(crate) fn escape_area<R: Roller>(ctx: &Context, g: &Game, p: usize, r: &mut R) -> u8 {
    let map = &ctx.data.city_map;
    let exits: Vec<u8> = map.areas[usize::from(map.prison)]
        .next
        .iter()
        .map(|&(a, _)| a)
        .collect();
    match hero_policy(g, p) {
        HeroPolicy::Random => exits[r.pick(exits.len())],
        HeroPolicy::Sensible => {
            let goal = quarry(g, p)
                .filter(|&q| g.heroes[p].city.knows[q] >= 1)
                .map(|q| g.parties[p].spots[q].area);
            match goal {
                Some(to) => exits
                    .iter()
                    .copied()
                    .min_by_key(|&a| (map.steps(a, to), a))
                    .unwrap_or(exits[0]),
                None => exits[0],
            }
        }
    }
}

/// The beast hero `p`'s villain sends into the arena of `city` [17.44]: a
/// beast of the city's area's encounter table, no siths (the rules' one
/// exception; here: any beast the data lists in `exclude`).
pub(crate) fn arena_beast<R: Roller>(
    ctx: &Context,
    g: &Game,
    p: usize,
    city: u8,
    exclude: &[u8],
    r: &mut R,
) -> Option<u8> {
    let data = ctx.data;
    let area = &data.areas[usize::from(data.places[usize::from(city)].area)];
    let mut beasts: Vec<u8> = Vec::new();
    fn collect(o: &Outcome, out: &mut Vec<u8>, ctx: &Context) {
        match o {
            Outcome::Fight { foes, .. } => {
                for (who, _) in foes.iter() {
                    if let Who::Character(k) = who
                        && ctx.data.roster.characters[usize::from(k)].class == Class::Beast
                        && !out.contains(&k)
                    {
                        out.push(k);
                    }
                }
            }
            Outcome::Roll(t) => {
                for (_, o) in &t.rows {
                    collect(o, out, ctx);
                }
            }
            _ => {}
        }
    }
    for line in &area.lines {
        for (_, o) in &line.rows {
            collect(o, &mut beasts, ctx);
        }
    }
    beasts.retain(|k| !exclude.contains(k));
    if beasts.is_empty() {
        return None;
    }
    beasts.sort_unstable();
    Some(match villain_policy(g, p) {
        VillainPolicy::Random => beasts[r.pick(beasts.len())],
        VillainPolicy::Sensible => *beasts
            .iter()
            .max_by_key(|&&k| {
                let c = &data.roster.characters[usize::from(k)];
                let top = c.at(c.top_level);
                (
                    u32::from(c.top_level) * (u32::from(top.strength) + u32::from(top.agility)),
                    std::cmp::Reverse(k),
                )
            })
            .unwrap_or(&beasts[0]),
    })
}
