//! Villains [10.0]: placement and flight by the Destination Chart (two
//! rolls of the ten-sided die [10.2]) under the restrictions of [10.31-10.35]
//! (a different city, one player's villain per city, at most three counted
//! cities, the Atmosphere Plant and Exum not counted, some cities never
//! final), the final destination and its Turns Remaining marker [10.41,
//! 15.52], the villains who join only there [20.22], surrogate villains
//! [10.12], the entourage limit [10.5, 10.52] and the hiding of the quarries
//! when a hero comes [16.11-16.16].

use super::consts::{NO_PLACE, NONE};
use super::dice::Roller;
use super::game::{CityGame, Context, Game, party_present};
use super::players;
use barsoom_engine::Trace;

/// Rolls on the Destination Chart before the acceptable cities are picked
/// from directly (a chart on which almost nothing is acceptable).
const MAX_REROLLS: usize = 200;

impl Game {
    /// Places (or moves) hero `p`'s villain by the Destination Chart
    /// [10.2]: two rolls of the ten-sided die, rolled again while the
    /// result is his present city, a city another player's villain holds
    /// [10.33], or a city that may not be his final destination when the
    /// next counted city must be it [10.31, 10.34].
    pub(crate) fn place_villain<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let data = ctx.data;
        let mut chosen = None;
        for _ in 0..MAX_REROLLS {
            let (a, b) = (r.d10(), r.d10());
            let c =
                data.charts.destination[(a - 1).clamp(0, 9) as usize][(b - 1).clamp(0, 9) as usize];
            if self.destination_ok(ctx, p, c) {
                chosen = Some(c);
                break;
            }
        }
        let c = match chosen {
            Some(c) => c,
            None => {
                let mut ok: Vec<u8> = data
                    .charts
                    .destination
                    .iter()
                    .flatten()
                    .copied()
                    .filter(|&c| self.destination_ok(ctx, p, c))
                    .collect();
                ok.dedup();
                if ok.is_empty() {
                    return;
                }
                ok[r.pick(ok.len())]
            }
        };
        let party = &mut self.parties[p];
        let from = party.city;
        party.city = c;
        party.hidden = false;
        party.marker = false;
        if data.charts.uncounted & (1 << c) == 0 {
            party.counted += 1;
        }
        if party.counted >= party.destinations {
            party.at_final = true;
        }
        trace.event("JC 10.2 villain placed", || {
            format!(
                "turn {}: {}'s villain {} {}{}",
                self.turn,
                self.name(ctx, p),
                if from == NO_PLACE {
                    "starts in"
                } else {
                    "flees to"
                },
                data.map.cities[usize::from(c)].name,
                if self.parties[p].at_final {
                    ", his final destination"
                } else {
                    ""
                }
            )
        });
        if self.parties[p].at_final {
            self.reach_final(ctx, p, trace);
        }
    }

    /// Whether hero `p`'s villain may be placed in `c` now [10.31-10.34].
    pub(crate) fn destination_ok(&self, ctx: &Context, p: usize, c: u8) -> bool {
        let party = &self.parties[p];
        let charts = &ctx.data.charts;
        if c == party.city || ctx.data.places[usize::from(c)].waypoint {
            return false;
        }
        let others = (0..usize::from(self.players))
            .any(|o| o != p && self.parties[o].city == c && party_present(&self.parties[o]));
        if others {
            return false;
        }
        let counted = charts.uncounted & (1 << c) == 0;
        !(counted && party.counted + 1 >= party.destinations && charts.not_final & (1 << c) != 0)
    }

    /// The villain reaches his final destination [10.4]: those who join
    /// only there do so while a villain of his still lives [20.22], and a
    /// villain-less entourage gets a surrogate from the directory [10.12].
    fn reach_final<T: Trace>(&mut self, ctx: &Context, p: usize, trace: &mut T) {
        let party = &mut self.parties[p];
        if party.villains_len > 0 {
            for i in 0..usize::from(party.waiting_len) {
                let k = party.waiting[i];
                if usize::from(party.villains_len) < party.villains.len() {
                    party.villains[usize::from(party.villains_len)] = k;
                    party.villains_len += 1;
                    self.in_play |= 1 << k;
                }
            }
            let waiting = party.waiting_len;
            party.waiting_len = 0;
            if waiting > 0 {
                trace.event("JC 20.22 joins at the final destination", || {
                    format!(
                        "{} joins {}'s villain",
                        super::game::names(
                            ctx.data,
                            self.parties[p]
                                .villains()
                                .iter()
                                .copied()
                                .rev()
                                .take(usize::from(waiting))
                        ),
                        self.name(ctx, p)
                    )
                });
            }
        } else {
            // No villain left for them to join: they go back to their
            // cities alive, free to be taken up again.
            for i in 0..usize::from(party.waiting_len) {
                self.in_play &= !(1u128 << party.waiting[i]);
            }
            party.waiting_len = 0;
        }
        self.surrogate_at_final(ctx, p, trace);
    }

    /// In the final destination a villain-less entourage with a captive or
    /// henchmen is led by a 300-series character of the city, or of the
    /// nearest city that has one [10.12].
    pub fn surrogate_at_final<T: Trace>(&mut self, ctx: &Context, p: usize, trace: &mut T) {
        let party = self.parties[p];
        if !party.at_final || party.surrogate != NONE || self.villain_fights(ctx, p) {
            return;
        }
        if party.captive == NONE && party.henchmen_len == 0 {
            return;
        }
        let k = self
            .find_resident(ctx, party.city, 301..=400, true)
            .unwrap_or(ctx.data.nameless_villain);
        self.set_surrogate(ctx, p, k, trace);
    }

    /// Outside the final destination, a discovered hero whose villains are
    /// all dead faces a surrogate: a 300-series character of the city, or
    /// else a nameless noble [10.12].
    pub fn surrogate_on_discovery<T: Trace>(&mut self, ctx: &Context, p: usize, trace: &mut T) {
        let party = self.parties[p];
        if party.at_final || party.surrogate != NONE || self.villain_fights(ctx, p) {
            return;
        }
        if party.captive == NONE && party.henchmen_len == 0 {
            return;
        }
        let k = self
            .find_resident(ctx, party.city, 301..=400, false)
            .unwrap_or(ctx.data.nameless_villain);
        self.set_surrogate(ctx, p, k, trace);
    }

    fn set_surrogate<T: Trace>(&mut self, ctx: &Context, p: usize, k: u8, trace: &mut T) {
        self.parties[p].surrogate = k;
        if k != ctx.data.nameless_villain {
            self.in_play |= 1 << k;
        }
        trace.event("JC 10.12 surrogate villain", || {
            format!(
                "{} takes over {}'s villain's entourage",
                ctx.data.roster.characters[usize::from(k)].name,
                self.name(ctx, p)
            )
        });
    }

    /// The first character (lowest code [3.23]) of the code series `codes`
    /// who lives in `city` and is neither in play nor dead; with `nearest`,
    /// failing one there, from the nearest city (in haads) that has one
    /// [10.12, 17.17].
    pub fn find_resident(
        &self,
        ctx: &Context,
        city: u8,
        codes: std::ops::RangeInclusive<u16>,
        nearest: bool,
    ) -> Option<u8> {
        let data = ctx.data;
        let mut best: Option<(u16, u16, u8)> = None;
        for (k, c) in data.roster.characters.iter().enumerate() {
            if !codes.contains(&c.code) || !self.drawable(k as u8) {
                continue;
            }
            let Some(home) = data.home(k as u8) else {
                continue;
            };
            let d = if home == city {
                0
            } else if nearest {
                data.map.distance(usize::from(city), usize::from(home))
            } else {
                continue;
            };
            if best.is_none_or(|(bd, bc, _)| (d, c.code) < (bd, bc)) {
                best = Some((d, c.code, k as u8));
            }
        }
        best.map(|(_, _, k)| k)
    }

    /// Hero `p` has slain every villain of his who fights (those without
    /// combat values stay with the entourage; the dead are recorded as
    /// slain, never drawn from the directory again).
    pub fn slay_villains(&mut self, ctx: &Context, p: usize) {
        let mut kept = 0usize;
        for i in 0..usize::from(self.parties[p].villains_len) {
            let k = self.parties[p].villains[i];
            if ctx.data.roster.characters[usize::from(k)].fights() {
                self.slay(ctx, k);
            } else {
                self.parties[p].villains[kept] = k;
                kept += 1;
            }
        }
        self.parties[p].villains_len = kept as u8;
    }

    /// Every defender of hero `p`'s villain's house fell with the hero's
    /// win [15.42]: the villains who fight, the surrogate and all
    /// henchmen die.
    pub(crate) fn slay_villain_group(&mut self, ctx: &Context, p: usize) {
        self.slay_villains(ctx, p);
        let party = self.parties[p];
        for &k in party.henchmen() {
            self.slay(ctx, k);
        }
        if party.surrogate != NONE {
            self.slay(ctx, party.surrogate);
        }
        let party = &mut self.parties[p];
        party.henchmen_len = 0;
        party.surrogate = NONE;
    }

    /// Whether any villain of hero `p` who fights still lives.
    pub(crate) fn villain_fights(&self, ctx: &Context, p: usize) -> bool {
        self.parties[p]
            .villains()
            .iter()
            .any(|&k| ctx.data.roster.characters[usize::from(k)].fights())
    }

    /// Whether hero `p`'s villain may flee: he is not in his final
    /// destination [10.32] and has a leader (a villain or a surrogate).
    pub fn villain_can_flee(&self, p: usize) -> bool {
        let party = &self.parties[p];
        !party.at_final
            && (party.villains_len > 0 || party.surrogate != NONE)
            && !self.villain_held_back(p)
    }

    /// The villain flees to his next city [8.0 L, 10.22]; the hero's city
    /// game is over.
    pub(crate) fn villain_flees<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        self.heroes[p].stats.flights += 1;
        self.place_villain(ctx, p, r, trace);
        self.end_city_game(ctx, p, trace);
    }

    /// [10.41, 15.52] The hero let the villain in his final destination
    /// "flee": the first time the Turns Remaining marker is placed, the
    /// second time it comes off and the quarries are hidden anew.
    pub(crate) fn final_destination_flight<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        if !self.parties[p].marker {
            self.parties[p].marker = true;
            trace.event("JC 10.41 marker", || {
                format!(
                    "{}'s villain cannot flee his final destination: marker placed",
                    self.name(ctx, p)
                )
            });
            return;
        }
        self.parties[p].marker = false;
        self.hide_anew(ctx, p, r);
        trace.event("JC 10.41 redeploy", || {
            format!("{}'s villain hides his quarries anew", self.name(ctx, p))
        });
    }

    /// [10.35] A hero reaching the Atmosphere Plant or Exum while his
    /// villain is there has no city game: the villain moves on. Otherwise a
    /// hero now in his villain's city starts the city game [8.0 D].
    pub fn arrived_at_villain<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) -> bool {
        if self.heroes[p].status != super::game::Status::Free || !self.in_villain_city(p) {
            return false;
        }
        let city = self.parties[p].city;
        if ctx.data.places[usize::from(city)].no_city_game {
            if !self.parties[p].at_final {
                self.place_villain(ctx, p, r, trace);
                self.heroes[p].stats.flights += 1;
            }
            return false;
        }
        self.enter_city(ctx, p, r, trace);
        true
    }

    /// The hero comes in by the main gate; the villain hides his quarries
    /// if he has not [16.11]; a hero of a race foreign to the city must move
    /// secretly [15.31].
    pub fn enter_city<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let city = self.parties[p].city;
        if !self.parties[p].hidden {
            self.hide_quarries(ctx, p, r);
        }
        let foreign = !ctx.data.passes(self.heroes[p].character, city);
        let area = self.city_entry(ctx, p, foreign, r, trace);
        let secret = self.must_move_secretly(ctx, p, foreign);
        let h = &mut self.heroes[p];
        h.city = CityGame {
            active: true,
            area,
            secret,
            ..CityGame::IDLE
        };
        trace.event("JC 15.0 city game", || {
            format!(
                "turn {}: {} enters {} by the main gate{}",
                self.turn,
                self.name(ctx, p),
                ctx.data.map.cities[usize::from(city)].name,
                if secret {
                    " (he must move secretly [15.31, 19.53])"
                } else {
                    ""
                }
            )
        });
    }

    /// The villain's group and the captive are hidden again in the city
    /// the hero is searching [16.11]: what the hero had learnt of their
    /// houses no longer holds.
    pub(crate) fn hide_anew<R: Roller>(&mut self, ctx: &Context, p: usize, r: &mut R) {
        self.hide_quarries(ctx, p, r);
        let c = &mut self.heroes[p].city;
        c.knows = [0; 2];
        c.last = [0; 2];
        c.empty = [0; 2];
    }

    /// The villain's player hides the villain's group and the captive
    /// [16.11-16.16].
    pub(crate) fn hide_quarries<R: Roller>(&mut self, ctx: &Context, p: usize, r: &mut R) {
        let spots = players::hide(ctx, self, p, r);
        let party = &mut self.parties[p];
        party.spots = spots;
        party.hidden = true;
    }

    /// Characters join hero `p`'s villain's henchmen, no more than his limit
    /// allows [10.5, 10.52]; returns how many joined.
    pub fn add_henchmen(&mut self, p: usize, who: &[u8]) -> usize {
        let party = &mut self.parties[p];
        let mut added = 0;
        for &k in who {
            if party.henchmen_len >= party.limit
                || usize::from(party.henchmen_len) >= party.henchmen.len()
            {
                break;
            }
            party.henchmen[usize::from(party.henchmen_len)] = k;
            party.henchmen_len += 1;
            added += 1;
        }
        added
    }

    /// Ends hero `p`'s city game: he stands on the map in the city; an
    /// escorting hero leaves after the first one [20.38].
    pub(crate) fn end_city_game<T: Trace>(&mut self, ctx: &Context, p: usize, trace: &mut T) {
        let h = &mut self.heroes[p];
        h.city = CityGame::IDLE;
        if h.escort != NONE {
            let e = h.escort;
            if let Some(i) = h.retinue().iter().position(|&k| k == e) {
                h.leave(i);
            }
            h.escort = NONE;
            // He goes his way alive [20.38].
            self.in_play &= !(1u128 << e);
            trace.event("JC 20.38 escort leaves", || {
                format!(
                    "{} leaves {} after the first city game",
                    ctx.data.roster.characters[usize::from(e)].name,
                    self.name(ctx, p)
                )
            });
        }
    }
}
