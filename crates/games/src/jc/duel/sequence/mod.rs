//! One duel on the open display, played to the end [4.0 F-H, 5.0, 7.0]: a
//! compiled [`Duel`] (fighters, display, melee numbers) and its
//! [`Duel::resolve`], the reusable entry point that the Strategic Game can
//! call with any set-up, pair of policies and dice.
//!
//! Each tactical turn: initiative by alertness A, B, C, ties between the
//! sides broken by a die roll per alertness [5.0 PROCEDURE]; then every
//! fighter acts once in that order (the joint action phase: move, then
//! perhaps melee [4.0 G, 5.17]); then the turn ends and the duel is over
//! when one side has no conscious fighter left [4.0 H, 7.21].
//!
//! - [`state`]: the fighters, the compiled duel and the state of play;
//! - [`choices`]: targets, attack numbers, movements and reach;
//! - [`play`]: the turn sequence and the entry point [`resolve`].

pub mod choices;
pub mod play;
pub mod state;

pub use play::resolve;
pub use state::{Attack, Duel, DuelResult, Fighter, MAX_FIGHTERS, State, Status};
