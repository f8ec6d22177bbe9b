//! Tactical displays and the geometry of counters on them [5.1, 7.4].
//!
//! A display is a grid of boxes read from `scenarios/jc/data/displays/`. A
//! character is a 4×4-box counter placed by its top-left box and facing one
//! of four directions [5.63]. Around a counter lie eight positions [7.41],
//! numbered by its facing: 4 straight ahead, 8 straight behind, 2 and 6 at
//! the sides, 3 and 5 the front diagonals, 1 and 7 the rear diagonals. A
//! counter touching another but not exactly in one of the eight positions
//! straddles two of them, and counts as the less advantageous one for the
//! attacker [7.42].
//!
//! Movement [5.11-5.13] is a path of at most four one-box steps (straight
//! or diagonal) per movement: since the counter is four boxes wide, its end
//! square then overlaps or touches its start square. No step may put the
//! counter over a wall or another counter [5.15, 5.16]; a jump [5.34] may
//! pass over counters but not end on one. [`Reach`] holds the steps needed
//! to reach each box of a window around the mover.
//!
//! - [`facing`]: facings, positions around a counter and arcs;
//! - [`display`]: the display files and their loading;
//! - [`terrain`]: what a loaded display says about its boxes;
//! - [`reach`]: the walking and jumping sets of a mover, and the walking
//!   search;
//! - [`bitboards`]: the bit sets of a movement window.

pub mod bitboards;
pub mod display;
pub mod facing;
pub mod reach;
pub mod terrain;

pub use display::{Area, Cell, Display, DisplayKind, MAX_DISPLAY, Openings};
pub use facing::{
    COUNTER, EAST, FRONT_ARC, HERO_ARC, HERO_BEHIND, MAX_MOVEMENTS, MAX_RADIUS, NORTH,
    OTHER_BEHIND, PositionSet, SOUTH, STEPS_PER_MOVEMENT, TOUCHING, WARRIOR_ARC, WEST, adjacent,
    facing_letter, from_frame, in_arc, is_behind, offset_of_position, parse_facing,
    positions_around,
};
pub use reach::{Boxes, Picked, Reach, WalkScratch, Walked};
