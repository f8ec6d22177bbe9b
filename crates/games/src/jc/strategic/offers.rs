//! Cards offered between Players [18.17].
//!
//! In games of three Players or more, a Player may offer to play one of his
//! cards on the affairs of a hero or villain he does not run; the Player
//! for whose character the card would be played accepts or refuses. Here a
//! card is offered at the moment the rules give it, when the Player who
//! would play it holds none of his own: a villain card against hero `p` by
//! any Player who runs neither `p` nor `p`'s villain, accepted by the
//! Player who runs that villain; a hero card for hero `p` by any Player but
//! `p`'s, accepted by `p`'s. The card is played as if from the accepting
//! Player's hand (it still goes to the face-up pile [18.14]).
//!
//! The choices are in [`tactics`]: a sensible Player offers every villain
//! card against another Player's hero (a rival set back; with the scenario's
//! `offers = "leader"` only against the rival who leads) and never a hero
//! card to another Player's hero (a rival helped); he accepts what sets
//! back the hero his villain pursues and what helps his own hero, which is
//! all that can be offered to him. A random Player tosses a coin to offer
//! and another to accept.

use super::dice::Roller;
use super::game::{Context, Game};
use super::tactics;
use crate::jc::event_deck::Effect;

/// Fewest Players for offers [18.17].
pub(crate) const OFFER_PLAYERS: u8 = 3;

impl Game {
    /// A villain card whose effect `f` accepts, for hero `p`'s villain
    /// against `p`: from the hand of the Player who runs that villain, else
    /// offered by another Player and accepted [18.17]. The card is left in
    /// its holder's hand for [`Game::play_card`].
    pub(crate) fn villain_card<R: Roller>(
        &self,
        ctx: &Context,
        p: usize,
        f: impl Fn(&Effect) -> bool,
        r: &mut R,
    ) -> Option<(u8, Effect)> {
        self.card_for(ctx, p, false, &f, r)
    }

    /// A hero card whose effect `f` accepts, for hero `p`: from his
    /// Player's hand, else offered by another Player and accepted [18.17].
    pub(crate) fn hero_card<R: Roller>(
        &self,
        ctx: &Context,
        p: usize,
        f: impl Fn(&Effect) -> bool,
        r: &mut R,
    ) -> Option<(u8, Effect)> {
        self.card_for(ctx, p, true, &f, r)
    }

    /// The card for hero `p` (`for_hero`) or against him: the receiving
    /// Player's own, else the first another Player offers.
    fn card_for<R: Roller>(
        &self,
        ctx: &Context,
        p: usize,
        for_hero: bool,
        f: &impl Fn(&Effect) -> bool,
        r: &mut R,
    ) -> Option<(u8, Effect)> {
        let receiver = if for_hero { p } else { self.villain_player(p) };
        if let Some(c) = self.held(ctx, receiver, for_hero, f) {
            return Some(c);
        }
        if self.players < OFFER_PLAYERS {
            return None;
        }
        for o in 0..usize::from(self.players) {
            if o == p || o == receiver {
                continue;
            }
            if let Some(c) = self.held(ctx, o, for_hero, f)
                && tactics::offer_card(ctx, self, o, p, for_hero, r)
            {
                return Some(c);
            }
        }
        None
    }
}
