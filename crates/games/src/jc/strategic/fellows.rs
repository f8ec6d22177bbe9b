//! Heroes of different Players who meet [9.27, 9.34].
//!
//! - **Aid against a hostile encounter [9.27].** When a hero fights an
//!   outdoor or city encounter, another Player's hero at the same place
//!   (the same city, or the same point of the same journey), free and not
//!   busy in a city game, may fight beside him. He stands on the hero's
//!   side at his usual level, armed or not as he is, without his retinue
//!   (two heroes' groups never travel together [9.34]); the encounter and
//!   what follows it (capture, beasts, healing) stay the encountered
//!   hero's, and the helper, who cannot die [7.63], comes out of it as he
//!   went in.
//! - **Handing characters over [9.26, 9.27].** A hero who ends his
//!   Player-Turn free in a city (not a waypoint) where another Player's
//!   hero stands free may give him one companion, who is the receiver's
//!   for good. Only fighting minor characters and warriors of Mars with no
//!   special rule change hands: a personage's love and friendship
//!   [13], Woola, Kar Komak, Ghek and Tars Tarkas [19] belong to one
//!   hero's story.
//! - **Pooling [9.33]** joins two groups of one Player; each Player runs
//!   one hero here, so the case never arises.
//!
//! The Players' choices are in [`tactics`]: a sensible Player never aids a
//! rival nor gives one a companion, and takes what is offered; a random
//! Player tosses a coin for each.

use super::dice::Roller;
use super::game::{Context, Game, Status};
use super::tactics;
use crate::jc::duel::roster::Class;
use barsoom_engine::Trace;

impl Game {
    /// [9.27] The fellow hero who fights beside hero `p` in a hostile
    /// encounter, if one is at hand and both Players want it.
    pub(crate) fn fellow_aid<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) -> Option<usize> {
        let here = self.heroes[p].place;
        for q in 0..usize::from(self.players) {
            let h = &self.heroes[q];
            if q == p || h.status != Status::Free || h.place != here || h.city.active {
                continue;
            }
            if tactics::aid_fellow(self, q, r) && tactics::take_from_fellow(self, p, r) {
                trace.event("JC 9.27 aid", || {
                    format!(
                        "{} fights beside {} against the encounter",
                        self.name(ctx, q),
                        self.name(ctx, p)
                    )
                });
                return Some(q);
            }
        }
        None
    }

    /// Whether companion `k` may change heroes [9.27]: a fighting minor
    /// character or warrior of Mars with no special rule.
    pub(crate) fn may_change_hands(&self, ctx: &Context, k: u8) -> bool {
        let c = &ctx.data.roster.characters[usize::from(k)];
        matches!(c.class, Class::Minor | Class::Warrior)
            && c.fights()
            && c.special.is_none()
            && k != ctx.data.story.specials.tars_tarkas.character
    }

    /// [9.27] Hero `p`, ending his Player-Turn in a city, may give one
    /// companion to each fellow hero there.
    pub(crate) fn meet_fellows<R: Roller, T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        r: &mut R,
        trace: &mut T,
    ) {
        let Some(c) = self.heroes[p].city() else {
            return;
        };
        if self.heroes[p].status != Status::Free
            || self.heroes[p].city.active
            || ctx.data.places[usize::from(c)].waypoint
        {
            return;
        }
        for q in 0..usize::from(self.players) {
            let h = &self.heroes[q];
            if q == p
                || h.status != Status::Free
                || h.city() != Some(c)
                || h.city.active
                || h.retinue_len as usize >= super::consts::MAX_RETINUE
            {
                continue;
            }
            let givable = self.heroes[p]
                .retinue()
                .iter()
                .filter(|&&k| self.may_change_hands(ctx, k))
                .fold(0u128, |s, &k| s | (1u128 << k));
            let Some(k) = tactics::give_to_fellow(self, p, givable, r) else {
                continue;
            };
            if !tactics::take_from_fellow(self, q, r) {
                continue;
            }
            if self.heroes[p].leave_character(k) {
                self.heroes[q].join(k);
                trace.event("JC 9.27 handed over", || {
                    format!(
                        "{} hands {} over to {}",
                        self.name(ctx, p),
                        ctx.data.roster.characters[usize::from(k)].name,
                        self.name(ctx, q)
                    )
                });
            }
        }
    }
}
