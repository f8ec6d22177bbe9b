//! Overland movement [9.0], phase D: the hero names a line out of his city
//! (or, in transit, goes on or turns back [9.13]) before the movement card
//! is drawn; the card's line for his conveyance comes off the haads
//! remaining [9.11]; he arrives when they reach zero, losing any excess
//! [9.24]. One-turn lines take no card [9.41]; a junction joins every pair
//! of its cities [9.42] (built into the map's routes); thoat riders stop at
//! the Carrion Caves and go on foot [9.52]; no flier flies to or from the
//! North Pole [9.51]; Lothar, Ghasta and the Sea of Omean are reached only
//! by the conveyances their lines allow [9.54-9.56]. Extra movement cards
//! [9.43] are further movements that may not turn back over a line already
//! travelled.

use super::consts::NONE;
use super::dice::Roller;
use super::game::{Context, Game, Place, Transit};
use super::players::Move;
use crate::jc::map::{FLIER, Route, THOAT, WALK};
use barsoom_engine::Trace;

/// A conveyance's name.
pub(crate) fn conveyance_name(c: u8) -> &'static str {
    match c {
        FLIER => "flier",
        THOAT => "thoat",
        _ => "foot",
    }
}

impl Game {
    /// Whether hero `p` may set out along `route` with conveyance `c`: the
    /// line allows it, and no flier flies to or from the North Pole [9.51].
    pub fn route_open(&self, ctx: &Context, route: &Route, c: u8) -> bool {
        let places = &ctx.data.places;
        route.conveyances & c != 0
            && !(c == FLIER
                && (places[usize::from(route.from)].north_pole
                    || places[usize::from(route.to)].north_pole))
    }

    /// Phase D [8.0, 9.1]: the hero's policy names where to go, then he
    /// moves.
    pub fn movement_phase<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        {
            let h = &mut self.heroes[p];
            h.left_city = false;
            h.moved = false;
        }
        let choice = match self.movement_begins(ctx, p, trace) {
            Some(choice) => choice,
            None => self.decide_move(ctx, p, NONE, r),
        };
        self.apply_move(ctx, p, choice, NONE, r, trace);
        self.movement_ends(ctx, p, r, trace);
    }

    /// Carries out a movement choice; `no_back` is a place the hero may
    /// not turn back to (extra cards [9.43]).
    pub fn apply_move<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        choice: Move,
        no_back: u8,
        r: &mut R,
        trace: &mut T,
    ) {
        let map = &ctx.data.map;
        match (self.heroes[p].place, choice) {
            (_, Move::Stay) => {
                trace.event("JC 9.25 no movement", || {
                    format!(
                        "turn {}: {} stays where he is",
                        self.turn,
                        self.name(ctx, p)
                    )
                });
            }
            (Place::City(c), Move::Go { route, dismount }) => {
                let rt = map.routes[usize::from(route)];
                let h = &mut self.heroes[p];
                if dismount && h.conveyance != WALK {
                    h.conveyance = WALK;
                    trace.event("JC 9.31 on foot", || {
                        format!("{} leaves his mount or flier and walks", self.name(ctx, p))
                    });
                }
                let h = &self.heroes[p];
                let open = self.route_open(ctx, &rt, h.conveyance)
                    || (self.north_pass(p) && rt.conveyances & h.conveyance != 0);
                if rt.from != c || !open {
                    return;
                }
                let trip = Transit {
                    from: rt.from,
                    to: rt.to,
                    left: rt.haads,
                    total: rt.haads,
                    via: rt.via,
                };
                let h = &mut self.heroes[p];
                h.moved = true;
                h.trip = trip;
                if rt.one_turn {
                    // [9.41] across a 1T line at once, no card, no
                    // encounter.
                    h.place = Place::City(rt.to);
                    trace.event("JC 9.41 one-turn line", || {
                        format!(
                            "turn {}: {} crosses to {} (1T)",
                            self.turn,
                            self.name(ctx, p),
                            map.cities[usize::from(rt.to)].name
                        )
                    });
                    self.arrive(ctx, p, rt.to, trace);
                    return;
                }
                h.left_city = true;
                h.place = Place::Transit(trip);
                self.advance(ctx, p, r, trace);
            }
            (Place::Transit(mut t), Move::Onward | Move::Back) => {
                if choice == Move::Back && t.from != no_back {
                    // [9.13] declared before the card: the haads already
                    // covered are now the way back.
                    t = Transit {
                        from: t.to,
                        to: t.from,
                        left: t.total - t.left,
                        total: t.total,
                        via: t.via,
                    };
                    trace.event("JC 9.13 backtrack", || {
                        format!(
                            "{} turns back towards {}",
                            self.name(ctx, p),
                            map.cities[usize::from(t.to)].name
                        )
                    });
                }
                let h = &mut self.heroes[p];
                h.place = Place::Transit(t);
                h.trip = t;
                h.moved = true;
                self.advance(ctx, p, r, trace);
            }
            _ => {}
        }
    }

    /// Draws a movement card for hero `p` in transit and moves him by the
    /// line of his conveyance [9.1, 9.11, 9.12, 9.28].
    fn advance<R: Roller, T: Trace>(&mut self, ctx: &Context, p: usize, r: &mut R, trace: &mut T) {
        let Place::Transit(mut t) = self.heroes[p].place else {
            return;
        };
        let card = r.card(&mut self.movement);
        let conveyance = self.heroes[p].conveyance;
        let haads = self.flight_haads(ctx, p, ctx.data.deck.line(conveyance)[card], r, trace);
        t.left = t.left.saturating_sub(haads);
        let h = &mut self.heroes[p];
        h.stats.cards = h.stats.cards.saturating_add(1);
        h.trip = t;
        trace.event("JC 9.11 movement card", || {
            format!(
                "turn {}: card {:03}: {} on {} {} haads towards {}: {}",
                self.turn,
                usize::from(ctx.data.deck.first_card) + card,
                self.name(ctx, p),
                conveyance_name(conveyance),
                haads,
                ctx.data.map.cities[usize::from(t.to)].name,
                if t.left == 0 {
                    "arrived".to_string()
                } else {
                    format!("{} haads to go", t.left)
                }
            )
        });
        if t.left == 0 {
            self.heroes[p].place = Place::City(t.to);
            self.arrive(ctx, p, t.to, trace);
        } else {
            self.heroes[p].place = Place::Transit(t);
        }
    }

    /// Hero `p` reaches place `c`: a thoat rider at a waypoint goes on foot
    /// [9.52].
    fn arrive<T: Trace>(&mut self, ctx: &Context, p: usize, c: u8, trace: &mut T) {
        let info = &ctx.data.places[usize::from(c)];
        let h = &mut self.heroes[p];
        if info.waypoint && h.conveyance == THOAT {
            h.conveyance = WALK;
            trace.event("JC 9.52 the thoats will not go on", || {
                format!(
                    "{} leaves his thoats at {} and goes on foot",
                    self.name(ctx, p),
                    ctx.data.map.cities[usize::from(c)].name
                )
            });
        }
    }

    /// Extra movement cards [9.43]: each a movement of its own; none may
    /// turn back over the line travelled this turn.
    pub(crate) fn extra_movement<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        cards: u8,
        r: &mut R,
        trace: &mut T,
    ) {
        for _ in 0..cards {
            let came_from = self.heroes[p].trip.from;
            let choice = match self.heroes[p].place {
                Place::Transit(_) => Move::Onward,
                Place::City(_) => self.decide_move(ctx, p, came_from, r),
            };
            if choice == Move::Stay {
                break;
            }
            trace.event("JC 9.43 extra movement card", || {
                format!("{} draws an extra movement card", self.name(ctx, p))
            });
            self.apply_move(ctx, p, choice, came_from, r, trace);
            self.check_love(ctx, p, trace);
        }
    }
}
