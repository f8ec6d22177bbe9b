//! Where the rules this model does not play yet join the game: random
//! events [18], befriendment, treachery and remorse [12], love, romance and
//! unspeakable acts [13], and the special characters' strategic rules [19]
//! (Woola, Thuvia and the banths, Ras Thavas and brain transfer, Tario and
//! Luud, Lum Tar O, Kar Komak, Ghek, Tars Tarkas's limited stay).
//!
//! Each function below is called at the point of the sequence where those
//! rules act, and does exactly what the rules do when no card is held, no
//! friend table is read and no special character is present: nothing. The
//! README lists these rules as not yet modelled. To add one, fill in its
//! function here (and the data it reads) without touching the callers:
//!
//! - [`Game::random_events_phase`]: Phase C [8.0, 18.1] (drawing, the hand
//!   limit of three, playing hero/villain/either cards; cards 23 and 37
//!   removed after the first pass [18.15]).
//! - [`Game::befriend`]: every "befriended" result ([`FriendSource`] says
//!   which table: the Encounter Friend Table [12.16] for the outdoor, delay,
//!   city, internment and duel results tables; the City Friend Table [16.38]
//!   for the hand of fate). Love [13.1] starts from these friends.
//! - [`Game::encounter_avoided`]: Thuvia's command of banths [19.22], the
//!   cards that avoid an encounter (43-45, 52) [18.2].
//! - [`Game::saved_from_beasts`]: the miraculous escape cards 01-08 that a
//!   player must play when a hero loses to beasts [11.33, 18.2].
//! - [`Game::before_villain_duel`]: Tario's and Luud's mind control in
//!   Lothar and Bantoom [19.32, 19.33], the unspeakable act [13.4].
//! - [`Game::special_escape_help`]: Ghek [19.44] and the escape cards 38
//!   and 39 [18.2].

use super::game::{Context, Game, Roller};
use super::tables::Foes;
use crate::engine::Trace;

/// Which table offered a friend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FriendSource {
    /// An outdoor encounter result [11.6, 12.16].
    Outdoor,
    /// The Delay Table [11.35, 12.0 PROCEDURE].
    Delay,
    /// A city encounter result [11.7].
    City,
    /// The Duel Results Table [11.45].
    DuelResults,
    /// The Internment Table [11.46].
    Internment,
    /// The hand of fate in the villain's city [16.32, 16.38].
    HandOfFate,
}

impl Game {
    /// Phase C [8.0]: the Random Event deck [18] is not modelled, so no
    /// card is drawn or played.
    pub fn random_events_phase<R: Roller, T: Trace>(
        &mut self,
        _ctx: &Context,
        _p: usize,
        _r: &mut R,
        _trace: &mut T,
    ) {
    }

    /// A table says hero `p` is befriended. The friend tables [12.16,
    /// 16.38] are not modelled, so no friend joins; the offer is counted
    /// and traced.
    pub fn befriend<T: Trace>(
        &mut self,
        ctx: &Context,
        p: usize,
        source: FriendSource,
        trace: &mut T,
    ) {
        let s = &mut self.heroes[p].stats;
        s.friends_offered = s.friends_offered.saturating_add(1);
        trace.event("JC 12.1 befriended", || {
            format!(
                "turn {}: {} is befriended ({source:?}); the friend tables are not modelled",
                self.turn,
                self.name(ctx, p)
            )
        });
    }

    /// Whether hero `p` avoids an encounter with `foes` before the duel:
    /// never without the cards and special characters that allow it.
    pub fn encounter_avoided(&self, _ctx: &Context, _p: usize, _foes: &Foes) -> bool {
        false
    }

    /// Whether a card saves hero `p` from beasts that beat him [11.33]:
    /// never without the cards.
    pub fn saved_from_beasts(&self, _ctx: &Context, _p: usize) -> bool {
        false
    }

    /// Before hero `p` duels his villain: nothing without the special
    /// characters and cards that act then.
    pub fn before_villain_duel<R: Roller, T: Trace>(
        &mut self,
        _ctx: &Context,
        _p: usize,
        _r: &mut R,
        _trace: &mut T,
    ) {
    }

    /// What special characters and cards take off hero `p`'s escape roll:
    /// nothing without them.
    pub fn special_escape_help(&self, _ctx: &Context, _p: usize) -> u8 {
        0
    }
}
