//! The state of one Military Game and its turn sequence [21.0]: diplomacy
//! and storms, then each player's movement [22.2], combat [23.0] and
//! reinforcement [24.1] phases, then the end of the Game-Turn (control of
//! cities, victory [25.3]). Fixed-size arrays only: a game allocates
//! nothing.
//!
//! - [`state`]: the state, its set-up and what it answers;
//! - [`phases`]: the turn sequence and every phase but combat;
//! - [`combat`]: the combat phase;
//! - [`search`]: the decisions a search player searches, and the game as
//!   a position the shared search plays on from.

pub mod combat;
pub mod phases;
pub mod search;
pub mod state;

pub use state::{
    CHECKPOINTS, Context, ESCORT, FirstMover, Game, GameConfig, GameEnd, GameStats, Group,
    MAX_GROUPS, MoveOrder, NONE, NeutralState, Target, best_leader, home_nation, owner_name,
};
