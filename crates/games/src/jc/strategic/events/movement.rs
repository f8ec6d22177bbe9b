//! Cards in the Movement Phase: halts and stays, the North Pole flight,
//! the extra card after moving and a flier's crash.

use crate::jc::event_deck::Effect;
use crate::jc::map::{FLIER, WALK};
use crate::jc::strategic::consts::NONE;
use crate::jc::strategic::dice::Roller;
use crate::jc::strategic::game::{Context, Game, Place};
use crate::jc::strategic::players;
use barsoom_engine::Trace;

impl Game {
    /// At the start of hero `p`'s Movement Phase: a halt (cards 09-10), a
    /// stay (cards 23 and 37), or the North Pole flight (cards 59-61) take
    /// the place of his own choice.
    pub(crate) fn movement_begins<T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        trace: &mut T,
    ) -> Option<players::Move> {
        use crate::jc::strategic::players::Move;
        if self.story.halt_by != NONE || self.story.heroes[p].stay_until >= self.turn {
            return Some(Move::Stay);
        }
        let c = self.heroes[p].city()?;
        if self.heroes[p].conveyance != FLIER {
            return None;
        }
        let goal = players::target(ctx, self, p)?;
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
    pub(crate) fn north_pass(&self, p: usize) -> bool {
        self.story.heroes[p].north_pass
    }

    /// At the end of hero `p`'s movement: the extra movement card (card 32).
    pub(crate) fn movement_ends<R: Roller, T: Trace>(
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
            && self.hero_chooses(ctx, p, true, r)
        {
            self.play_card(ctx, p, p, n, trace);
            self.extra_movement(ctx, p, cards, r, trace);
        }
    }

    /// The haads hero `p` covers with a movement card of `haads`: half,
    /// then a crash and on foot, if his villain plays card 22.
    pub(crate) fn flight_haads<R: Roller, T: Trace>(
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
        if !self.villain_chooses(ctx, p, true, r) {
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
}
