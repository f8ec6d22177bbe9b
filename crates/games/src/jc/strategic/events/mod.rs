//! Random events in play [18]: the Random Events Phase (Phase C [8.0]) and
//! every moment a card may be played.
//!
//! In his Random Events Phase a Player draws from the deck or the face-down
//! pile [18.0 PROCEDURE, 18.13]; an immediate card is played at once on his
//! own hero, any other goes to his hand, and a fourth card forces a discard
//! to the face-down pile [18.11]. A Player plays hero cards for his hero
//! and villain cards for the villain he runs, against that villain's hero
//! [18.16] (offers to other Players [18.17] are in [`super::offers`]). Cards are
//! played at the moment each one's rule names (see `random-events.toml`
//! and [`super::tactics`] for when each policy plays them):
//!
//! - at the start of a Player-Turn: a found flier, reinforcements, a safe
//!   companion, remorse; against him: treachery away from the villain's
//!   city (and the villain's roll of [13.31]), the villain's
//!   reinforcements, the assassin in a city, the diversion of a flier;
//! - at the start of each City Sub-sequence: stealth, remorse; against him:
//!   the villain's try of [13.23], treachery in the city [12.23], flight,
//!   the unspeakable act, whose count runs there [13.42];
//! - on entering the villain's city: the secret entrance and disguise;
//! - in the Movement Phase: the halt of cards 09-10, the stay of cards 23
//!   and 37, the North Pole flight, the extra card after moving, the flier
//!   crash with the movement card;
//! - before an encounter's duel: the cards that avoid it; at a discovery:
//!   the guard's slip and the villain-stays card; at a fight in a city: the
//!   abduction; before the duel with the villain's group: invisibility;
//! - after a defeat: the cards that save the hero [11.33]; in prison: the
//!   escape cards and the arena companion.
//!
//! - [`phase`]: the Random Events Phase and the cards at a Player-Turn's
//!   start;
//! - [`in_city`]: the cards of the villain's city;
//! - [`movement`]: the cards of the Movement Phase;
//! - [`fights`]: the cards before and after fights.

pub mod fights;
pub mod in_city;
pub mod movement;
pub mod phase;

pub use fights::{Defeat, FightAid};
pub use phase::Bits;
