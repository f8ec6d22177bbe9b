//! `races.game`: full games of the six races of Mars hex wargame for 2, 3
//! or 4 players [Turn Sequence]. A trial rolls the map [Map] (or takes the
//! scenario's), deploys the forces [Scenario Setup], then plays turns of
//! initiative and recruiting [Initiative Phase], movement [Movement Phase]
//! and battle [Battle Phase] until one player holds enough key locations
//! for long enough, all but one are annihilated [Victory], or the turn
//! limit is reached.
//!
//! The whole game state is fixed-size arrays in [`Game`], built on the
//! stack per trial: nothing is allocated in the trial loop.
//!
//! This file holds the constants, the compiled scenario ([`RacesGame`]),
//! the game state's types and the `Model` impl; the rest is split by job:
//!
//! - `scenario`: the scenario file, its validation and the output spec;
//! - `state`: [`Game`]'s queries and stack bookkeeping;
//! - `setup`: the map roll and the deployment [Map], [Scenario Setup];
//! - `turn`: the turn sequence, initiative, recruiting, movement and the
//!   end of the game;
//! - `battles`: leaders in charge and the battle phase [Battle Phase];
//! - `players`: the random and greedy players' moves and stack order.

use std::cell::Cell;

use barsoom_engine::{Dice, Model, OutputSpec, Trace, TrialResult};

use super::data::{ATTRIBUTES, Profile};
use super::map::{HexMap, HexSet, MAX_HEXES, NO_HEX, NO_HEXES};

mod battles;
mod players;
mod scenario;
mod setup;
mod state;
mod turn;

pub use setup::{flat_terrain_table, roll_terrain};
pub use turn::{command_dice, command_points, initiative_order, recruits};

/// Most players [Scenario Setup].
pub const MAX_PLAYERS: usize = 4;
/// Warband slots per game (initial forces and recruits; slots of
/// destroyed warbands are reused).
pub(crate) const MAX_WARBANDS: usize = 255;
/// Most leaders per game.
pub(crate) const MAX_LEADERS: usize = 64;
/// Words of a [`SlotSet`].
const SLOT_WORDS: usize = MAX_WARBANDS.div_ceil(64);
/// A set of warband slots, a bit per slot.
type SlotSet = [u64; SLOT_WORDS];
/// Marks "no warband", "no player" or "no leader".
pub const NONE: u8 = u8::MAX;
/// A hex no unit may enter, in [`Game`]'s per-hex occupier array.
const IMPASSABLE: u8 = NONE - 1;
/// Most warbands deployed at the start (the rest of the slots are for
/// recruits).
pub(crate) const MAX_START_WARBANDS: usize = 160;
/// Longest game a scenario may ask for.
pub(crate) const MAX_TURNS: u32 = 10_000;
/// The distance the greedy player's search gives every hex at least this
/// far from its targets (distances are bytes; [`u8::MAX`] is "not
/// reached").
const FAR: u8 = u8::MAX - 1;
/// Levels of the greedy player's search kept as bitboards: the exact
/// levels below [`FAR`], the only ones a step is looked up in.
const LEVELS: usize = FAR as usize;

/// The greedy player's search levels: bitboard `d` holds the hexes `d`
/// steps from its targets.
type Levels = [HexSet; LEVELS];
/// Metric: turns played.
pub const METRIC_TURNS: usize = 0;
/// Metric: battles fought.
pub(crate) const METRIC_BATTLES: usize = 1;
/// Metric: 1 when the game was won by holding key locations.
pub(crate) const METRIC_BY_HOLDING: usize = 2;
/// Metric: 1 when the player who moved first in turn 1 won.
pub(crate) const METRIC_FIRST_MOVER_WON: usize = 3;
/// Metric: warbands left to seat 0 (seat `i` at this index + `i`).
pub const METRIC_SURVIVORS: usize = 4;

/// How a seat plays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Player {
    /// Every choice uniformly at random among the legal ones (attacking or
    /// not is a fair coin).
    Random,
    /// Moves toward key locations and enemies, holds the key locations it
    /// has, orders its stacks by exact odds, and attacks when its exact
    /// chance to win beats `threshold`.
    Greedy {
        /// Least chance to win for an attack.
        threshold: f64,
    },
}

/// A stack placed by the scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct FixedStack {
    /// Its hex.
    pub hex: u16,
    /// Warband kinds, top first.
    pub warbands: Vec<u8>,
    /// Leaders' special attributes; [`NONE`] is rolled at the start.
    pub leaders: Vec<u8>,
}

/// One seat's forces and player.
#[derive(Debug, Clone, PartialEq)]
pub struct Seat {
    /// Name in outcome labels.
    pub label: String,
    /// How it plays.
    pub player: Player,
    /// Hexes it deploys in (random deployment).
    pub zone: Vec<u16>,
    /// Warband kinds it deploys in the zone.
    pub warbands: Vec<u8>,
    /// Leaders it deploys with the zone's warbands (special attributes
    /// rolled).
    pub leaders: u8,
    /// Stacks placed by the scenario instead.
    pub stacks: Vec<FixedStack>,
}

/// A terrain as the game reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct TerrainRule {
    impassable: bool,
    settlement: bool,
    /// A key location [Victory] (every settlement, unless the scenario's
    /// `victory.key_locations` says otherwise).
    key: bool,
    city: bool,
    ruins: i8,
    in_hex: Profile,
    all_units: Profile,
    /// `all_units` is not all zero.
    bonus: bool,
}

/// Bits of a set-up entry ([`TerrainRule::entry`]) above its terrain
/// index (the low byte).
const ENTRY_IMPASSABLE_BIT: u16 = 8;
const ENTRY_KEY_BIT: u16 = 9;
/// The hex rolls a detail: a city's race or a ruins' attribute.
const ENTRY_DETAIL: u16 = 1 << 10;
const ENTRY_SETTLEMENT_BIT: u16 = 11;

impl TerrainRule {
    /// What set-up reads of terrain `t` (this rule) for each hex, in one
    /// word: `t` in the low byte, then whether it is impassable, a key
    /// location, whether it rolls a detail, and whether it is a settlement.
    fn entry(&self, t: u8) -> u16 {
        u16::from(t)
            | u16::from(self.impassable) << ENTRY_IMPASSABLE_BIT
            | u16::from(self.key) << ENTRY_KEY_BIT
            | u16::from(self.settlement) << ENTRY_SETTLEMENT_BIT
            | if self.city || self.ruins != 0 {
                ENTRY_DETAIL
            } else {
                0
            }
    }
}

/// `races.game`: a scenario compiled for play.
#[derive(Debug, Clone)]
pub struct RacesGame {
    map: HexMap,
    terrain: Vec<TerrainRule>,
    /// The terrain tables flattened ([`flat_terrain_table`]): one draw
    /// per hex, each outcome's terrain as its set-up entry
    /// ([`TerrainRule::entry`]).
    hex_draw: Vec<u16>,
    /// Fixed map: terrain and detail per hex ([`NONE`] detail is rolled).
    fixed: Option<Vec<(u8, u8)>>,
    kinds: Vec<Profile>,
    kind_names: Vec<String>,
    /// Mean edge of each kind against the six basic warbands (greedy stack
    /// order away from the enemy).
    strength: Vec<f64>,
    random_attribute: Vec<u8>,
    race_table: Vec<u8>,
    weights: [f64; ATTRIBUTES],
    attribute_names: Vec<String>,
    leader_bonus: i8,
    max_move: u8,
    units_per_command_die: u32,
    recruit_face: u32,
    seats: Vec<Seat>,
    /// Key locations to hold [Victory] (0: annihilation only).
    hold: u32,
    /// Turns in a row they must be held.
    hold_turns: u32,
    /// The holder must hold more than every other player.
    most: bool,
    max_turns: u32,
    spec: OutputSpec,
}

#[derive(Debug, Clone, Copy)]
struct Warband {
    kind: u8,
    owner: u8,
    hex: u16,
    /// The next warband down the stack.
    below: u8,
    moved: u8,
    attacked: bool,
    alive: bool,
}

const NO_WARBAND: Warband = Warband {
    kind: 0,
    owner: NONE,
    hex: NO_HEX,
    below: NONE,
    moved: 0,
    attacked: false,
    alive: false,
};

#[derive(Debug, Clone, Copy)]
struct Leader {
    attribute: u8,
    /// The warband it rides with [Movement Phase].
    warband: u8,
    alive: bool,
}

const NO_LEADER: Leader = Leader {
    attribute: 0,
    warband: NONE,
    alive: false,
};

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// A player won by annihilation or by holding key locations.
    Won {
        /// The winning seat.
        seat: u8,
        /// Won by holding key locations (not annihilation).
        by_holding: bool,
    },
    /// The last warbands fell together.
    Draw,
    /// The turn limit came first.
    Unfinished,
}

/// Where the greedy player's breadth-first search from its targets stands
/// ([`Game::start_search`], [`Game::distance`]).
struct Search {
    /// The player moving.
    player: u8,
    /// The last level searched, and its hexes.
    level: usize,
    frontier: HexSet,
    /// Every hex searched so far.
    reached: HexSet,
    /// The hexes the player may enter: passable, no enemy in them.
    open: HexSet,
    /// Hexes the search never reaches.
    never: HexSet,
}

/// A game's per-hex and per-warband arrays and buffers: boxed, and kept
/// from one trial to the next on each thread (see [`RacesGame`]'s
/// `run_trial`), so that a trial neither allocates nor clears them. Each
/// is written before it is read: set-up writes every hex of the map (and
/// [`Game::with_board`] empties the stacks), warband slots are written as
/// they are taken, a leader in charge is only read in the battle phase
/// that fixed it, and the greedy player's search levels only as
/// far as its search has written them.
pub struct Board {
    terrain: [u8; MAX_HEXES],
    /// City race or ruins attribute.
    detail: [u8; MAX_HEXES],
    /// Top warband of each hex's stack.
    top: [u8; MAX_HEXES],
    /// The player whose stack is in the hex, [`NONE`] when empty, or
    /// [`IMPASSABLE`].
    cell: [u8; MAX_HEXES],
    /// The battle phase in which `charge` was fixed.
    charge_phase: [u32; MAX_HEXES],
    /// Special attribute of the leader in charge ([`NONE`]: no leader).
    charge: [u8; MAX_HEXES],
    /// The battle phase now (phases count on from game to game; 0 marks
    /// "never fixed" in `charge_phase`).
    phase: u32,
    /// The levels of the moving greedy player's search (`levels[d]` up to
    /// the level searched so far).
    levels: Levels,
    /// Where that search stands.
    search: Search,
    warbands: [Warband; MAX_WARBANDS],
    /// One stack's warbands and their order values (`order_stacks`).
    members: [u8; MAX_WARBANDS],
    order_keys: [f64; MAX_WARBANDS],
    /// The moving player's live warbands in slot order (`movement_phase`;
    /// the random player strikes them off as they run out of moves; the
    /// greedy player's leaves out those alone on a key location).
    own: [u8; MAX_WARBANDS],
    /// Stack hexes in the order of their first warband slot, and those
    /// slots ([`Game::stacks_of`]).
    stack_hexes: [u16; MAX_WARBANDS],
    stack_first: [u8; MAX_WARBANDS],
    /// A seat's free deployment hexes and the warbands it has placed
    /// (`deploy_zone`).
    free: [u16; MAX_HEXES],
    placed: [u8; MAX_WARBANDS],
}

impl Board {
    /// A new board, boxed (it is about 38 KiB).
    pub fn new() -> Box<Self> {
        Box::new(Board {
            terrain: [0; MAX_HEXES],
            detail: [NONE; MAX_HEXES],
            top: [NONE; MAX_HEXES],
            cell: [NONE; MAX_HEXES],
            charge_phase: [0; MAX_HEXES],
            charge: [NONE; MAX_HEXES],
            phase: 0,
            levels: [NO_HEXES; LEVELS],
            search: Search {
                player: 0,
                level: 0,
                frontier: NO_HEXES,
                reached: NO_HEXES,
                open: NO_HEXES,
                never: NO_HEXES,
            },
            warbands: [NO_WARBAND; MAX_WARBANDS],
            members: [0; MAX_WARBANDS],
            order_keys: [0.0; MAX_WARBANDS],
            own: [0; MAX_WARBANDS],
            stack_hexes: [0; MAX_WARBANDS],
            stack_first: [0; MAX_WARBANDS],
            free: [0; MAX_HEXES],
            placed: [0; MAX_WARBANDS],
        })
    }

    /// Starts a new battle phase (or game): leaders in charge fixed before
    /// are no longer.
    fn next_phase(&mut self) {
        if self.phase == u32::MAX {
            self.charge_phase.fill(0);
            self.phase = 0;
        }
        self.phase += 1;
    }
}

thread_local! {
    /// The board of the last game played on this thread.
    static SPARE_BOARD: Cell<Option<Box<Board>>> = const { Cell::new(None) };
}

/// One game in progress: every array has a fixed size.
pub struct Game<'m> {
    m: &'m RacesGame,
    b: Box<Board>,
    /// The key locations the moving greedy player may take: held by
    /// nobody, passable.
    open_keys: HexSet,
    /// The hexes next to one of `open_keys`.
    near_open_keys: HexSet,
    /// Hexes a unit may stand in: passable terrain, and any hex a unit has
    /// stood in (a zone with no passable hex deploys onto impassable ones).
    passable: HexSet,
    /// The key locations [Victory].
    key_set: HexSet,
    /// The hexes connected to a key location through passable hexes (set
    /// once at the end of set-up: nobody moves into impassable hexes).
    key_region: HexSet,
    /// Each player's stacks' hexes.
    occupied: [HexSet; MAX_PLAYERS],
    /// The hexes whose stack is one warband.
    single: HexSet,
    /// Each player's live warbands, a bit per slot (the moving player's
    /// are listed in slot order from it).
    live: [SlotSet; MAX_PLAYERS],
    n_warbands: usize,
    leaders: [Leader; MAX_LEADERS],
    n_leaders: usize,
    /// How many key locations the map has.
    n_keys: usize,
    /// The cities (settlements that recruit).
    city_set: HexSet,
    /// The settlements whose all-units bonus is not zero.
    bonus_set: HexSet,
    /// The hexes whose taking and leaving is counted: key locations and
    /// bonus settlements.
    watched: HexSet,
    alive: [u32; MAX_PLAYERS],
    leaders_alive: [u32; MAX_PLAYERS],
    bonus: [Profile; MAX_PLAYERS],
    /// Key locations each player holds.
    held_keys: [u32; MAX_PLAYERS],
    hold_streak: [u32; MAX_PLAYERS],
    /// Turns begun.
    pub turn: u32,
    /// Battles fought.
    pub battles: u32,
    first_mover: u8,
}

impl Model for RacesGame {
    fn spec(&self) -> &OutputSpec {
        &self.spec
    }

    fn run_trial<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        let board = SPARE_BOARD.take().unwrap_or_else(Board::new);
        let mut game = Game::with_board(self, board);
        let ending = game.play(dice, trace);
        let result = game.result(ending);
        SPARE_BOARD.set(Some(game.b));
        result
    }
}
