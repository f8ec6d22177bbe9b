//! Where random events [18], befriendment, treachery and remorse [12],
//! love, romance and unspeakable acts [13] and the special characters'
//! strategic rules [19] join the game's sequence. The spine calls these
//! functions where those rules act; each lives with its rules:
//!
//! - [`Game::random_events_phase`] ([`super::events`]): Phase C [8.0,
//!   18.1], the draw and the cards of the start of a Player-Turn.
//! - [`Game::befriend`] ([`super::friends`]): every "befriended" result
//!   ([`FriendSource`] says which table: the Encounter Friend Table
//!   [12.16], or the City Friend Table [16.38] for the hand of fate).
//! - [`Game::encounter_avoided`] ([`super::events`]): Thuvia's banths
//!   [19.22], the cards that avoid an encounter (43-45, 52).
//! - [`Game::saved_from_defeat`] ([`super::events`]): the cards that save
//!   a beaten hero (01-08 [11.33], 24, 49-52).
//! - [`Game::before_villain_duel`] ([`super::events`]): remorse's
//!   turncoats [12.32], Tario and Luud [19.32, 19.33], invisibility (27).
//! - [`Game::special_escape_help`] ([`super::events`]): Ghek [19.44],
//!   cards 38, 39 and 55.
//! - Further calls: [`Game::city_subsequence_begins`], [`Game::city_entry`],
//!   [`Game::discovery_averted`], [`Game::discovery_shift`],
//!   [`Game::movement_begins`], [`Game::movement_ends`],
//!   [`Game::flight_haads`], [`Game::fight_begins`],
//!   [`Game::house_duel_ends`], [`Game::free_held`], [`Game::lum_tar_o`],
//!   [`Game::quest_may_end`], [`Game::must_move_secretly`],
//!   [`Game::villain_held_back`].

#[cfg(doc)]
use super::game::Game;

/// Which table offered a friend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FriendSource {
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
