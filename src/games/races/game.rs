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

use std::cell::Cell;
use std::path::Path;

use serde::Deserialize;

use super::Roller;
use super::battle::{
    Odds, Verdict, attribute_probabilities, choose_leader, fight, odds, roll_attribute, scores,
};
use super::data::{ATTRIBUTES, Face, Profile, RacesData, id_list};
use super::map::{
    ForWords, HexMap, HexSet, MAX_HEXES, MAX_SIDE, NO_HEX, NO_HEXES, ZONE_NAMES, set_and,
    set_contains, set_hexes, set_insert, set_len, set_remove,
};
use crate::engine::accumulate::MAX_METRICS;
use crate::engine::{Dice, MetricSpec, Model, OutputSpec, Trace, TrialResult};
use crate::scenario::{ScenarioError, parse_toml, read_text};

/// Most players [Scenario Setup].
pub const MAX_PLAYERS: usize = 4;
/// Warband slots per game (initial forces and recruits; slots of
/// destroyed warbands are reused).
pub const MAX_WARBANDS: usize = 255;
/// Most leaders per game.
pub const MAX_LEADERS: usize = 64;
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
pub const MAX_START_WARBANDS: usize = 160;
/// Longest game a scenario may ask for.
pub const MAX_TURNS: u32 = 10_000;
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
pub const METRIC_BATTLES: usize = 1;
/// Metric: 1 when the game was won by holding key locations.
pub const METRIC_BY_HOLDING: usize = 2;
/// Metric: 1 when the player who moved first in turn 1 won.
pub const METRIC_FIRST_MOVER_WON: usize = 3;
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

impl TerrainRule {
    /// What set-up reads of terrain `t` (this rule) for each hex, in one
    /// word: `t` in the low byte, then whether it is impassable, a key
    /// location (settlement), and whether it rolls a detail.
    fn entry(&self, t: u8) -> u16 {
        u16::from(t)
            | u16::from(self.impassable) << ENTRY_IMPASSABLE_BIT
            | u16::from(self.settlement) << ENTRY_KEY_BIT
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
    terrain_names: Vec<String>,
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
    hold: u32,
    hold_turns: u32,
    max_turns: u32,
    spec: OutputSpec,
}

// ---------------------------------------------------------------- rules

/// Command dice for `units` units: one d10 per `per_die` units, rounded
/// up [Movement Phase].
pub fn command_dice(units: u32, per_die: u32) -> u32 {
    units.div_ceil(per_die)
}

/// Command points: the command dice plus one per leader [Movement Phase].
pub fn command_points<R: Roller>(units: u32, leaders: u32, per_die: u32, dice: &mut R) -> u32 {
    (0..command_dice(units, per_die))
        .map(|_| dice.die(10))
        .sum::<u32>()
        + leaders
}

/// Orders `players` (highest first) by d10 plus their leaders
/// (`leaders[p]`), tied players rolling again among themselves until every
/// place is settled [Initiative Phase].
pub fn initiative_order<R: Roller>(dice: &mut R, leaders: &[u32], players: &mut [u8]) {
    let n = players.len();
    if n < 2 {
        return;
    }
    let mut totals = [0u32; MAX_PLAYERS];
    for (t, p) in totals.iter_mut().zip(players.iter()) {
        *t = dice.die(10) + leaders[usize::from(*p)];
    }
    sort_by_keys_descending(&mut totals[..n], players);
    let mut start = 0;
    while start < n {
        let mut end = start + 1;
        while end < n && totals[end] == totals[start] {
            end += 1;
        }
        if end - start > 1 {
            initiative_order(dice, leaders, &mut players[start..end]);
        }
        start = end;
    }
}

/// Sorts `items` by their `keys`, highest first, equal keys keeping their
/// order (an insertion sort: the lists are a handful long, and it needs no
/// allocation).
fn sort_by_keys_descending<K: PartialOrd + Copy, I>(keys: &mut [K], items: &mut [I]) {
    for i in 1..keys.len() {
        let mut j = i;
        while j > 0 && keys[j - 1] < keys[j] {
            keys.swap(j - 1, j);
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Rolls one hex's terrain: the hex table, then any table its face sends
/// on to [Hex Terrain Type], [Beneficial Terrain Type Table], [Settlement
/// Type Table]. Returns the terrain index.
pub fn roll_terrain<R: Roller>(tables: &[Vec<Face>], dice: &mut R) -> usize {
    let mut table = 0;
    loop {
        let faces = &tables[table];
        match faces[(dice.die(faces.len() as u32) - 1) as usize] {
            Face::Roll(next) => table = next,
            Face::Terrain(t) => return t,
        }
    }
}

/// Faces read off the decimal digits of one number, lowest first: the
/// number drawn once per hex, read as its chained d10 rolls.
struct Digits(u32);

impl Roller for Digits {
    fn die(&mut self, sides: u32) -> u32 {
        let face = self.0 % sides + 1;
        self.0 /= sides;
        face
    }
}

/// The chained d10 terrain tables flattened: the terrain for each of the
/// `10^chain` equally likely outcomes of one draw, the outcome's digits
/// (lowest first) read as the faces [`roll_terrain`] rolls. Each face
/// sequence of length `n` takes `10^(chain - n)` outcomes, its chance.
pub fn flat_terrain_table(tables: &[Vec<Face>], chain: usize) -> Vec<u8> {
    (0..10u32.pow(chain as u32))
        .map(|x| roll_terrain(tables, &mut Digits(x)) as u8)
        .collect()
}

/// Whether a city's recruiting roll `face` raises a warband [Initiative
/// Phase].
pub fn recruits(face: u32, recruit_face: u32) -> bool {
    face == recruit_face
}

// ---------------------------------------------------------------- state

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
    /// The key locations (settlements).
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
    /// The cities (key locations that recruit).
    city_set: HexSet,
    /// The key locations whose all-units bonus is not zero.
    bonus_key_set: HexSet,
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

impl<'m> Game<'m> {
    /// An empty board for `m`'s scenario.
    pub fn new(m: &'m RacesGame) -> Self {
        Self::with_board(m, Board::new())
    }

    /// An empty board for `m`'s scenario on `b`, a board of any earlier
    /// game.
    pub fn with_board(m: &'m RacesGame, mut b: Box<Board>) -> Self {
        b.top[..m.map.hexes()].fill(NONE);
        b.next_phase();
        Game {
            m,
            b,
            open_keys: NO_HEXES,
            near_open_keys: NO_HEXES,
            passable: NO_HEXES,
            key_set: NO_HEXES,
            key_region: NO_HEXES,
            occupied: [NO_HEXES; MAX_PLAYERS],
            single: NO_HEXES,
            live: [[0; SLOT_WORDS]; MAX_PLAYERS],
            n_warbands: 0,
            leaders: [NO_LEADER; MAX_LEADERS],
            n_leaders: 0,
            n_keys: 0,
            city_set: NO_HEXES,
            bonus_key_set: NO_HEXES,
            alive: [0; MAX_PLAYERS],
            leaders_alive: [0; MAX_PLAYERS],
            bonus: [[0; ATTRIBUTES]; MAX_PLAYERS],
            held_keys: [0; MAX_PLAYERS],
            hold_streak: [0; MAX_PLAYERS],
            turn: 0,
            battles: 0,
            first_mover: NONE,
        }
    }

    // ------------------------------------------------------------ queries

    /// The terrain index of hex `h`.
    pub fn terrain_at(&self, h: u16) -> usize {
        usize::from(self.b.terrain[usize::from(h)])
    }

    /// The player whose stack is in `h`, or [`NONE`].
    #[inline]
    pub fn owner(&self, h: u16) -> u8 {
        match self.b.cell[usize::from(h)] {
            IMPASSABLE => NONE,
            p => p,
        }
    }

    /// The top warband of `h` (a warband id), or [`NONE`].
    pub fn top(&self, h: u16) -> u8 {
        self.b.top[usize::from(h)]
    }

    /// The leader in charge of `h`'s stack in this battle phase, if one
    /// has been chosen: `Some(None)` for a stack without leaders.
    pub fn in_charge(&self, h: u16) -> Option<Option<u8>> {
        self.fixed_charge(h)
    }

    /// Warband kinds in `h`, top first (for tests and traces).
    pub fn stack(&self, h: u16) -> Vec<u8> {
        let mut out = Vec::new();
        let mut w = self.b.top[usize::from(h)];
        while w != NONE {
            out.push(self.b.warbands[usize::from(w)].kind);
            w = self.b.warbands[usize::from(w)].below;
        }
        out
    }

    /// Special attributes of the live leaders in `h`.
    pub fn leaders_at(&self, h: u16) -> Vec<u8> {
        let mut buf = [0u8; MAX_LEADERS];
        let n = self.leaders_in(h, &mut buf);
        buf[..n].to_vec()
    }

    /// Warbands player `p` has.
    pub fn warbands_of(&self, p: usize) -> u32 {
        self.alive[p]
    }

    /// Leaders player `p` has.
    pub fn leaders_of(&self, p: usize) -> u32 {
        self.leaders_alive[p]
    }

    /// The all-units settlement bonus player `p` has now.
    pub fn settlement_bonus(&self, p: usize) -> Profile {
        self.bonus[p]
    }

    #[inline]
    fn rule(&self, h: u16) -> &TerrainRule {
        &self.m.terrain[usize::from(self.b.terrain[usize::from(h)])]
    }

    #[inline]
    fn is_key(&self, h: u16) -> bool {
        set_contains(&self.key_set, h)
    }

    #[inline]
    fn can_enter(&self, p: u8, n: u16) -> bool {
        n != NO_HEX && {
            let c = self.b.cell[usize::from(n)];
            c == NONE || c == p
        }
    }

    fn leaders_in(&self, h: u16, out: &mut [u8; MAX_LEADERS]) -> usize {
        let mut n = 0;
        for l in &self.leaders[..self.n_leaders] {
            if l.alive && self.b.warbands[usize::from(l.warband)].hex == h {
                out[n] = l.attribute;
                n += 1;
            }
        }
        n
    }

    /// Bonus of hex `h` to the units in it: its terrain, and ruins' rolled
    /// attribute [Hex Terrain Type], [Settlement Type Table].
    fn hex_bonus(&self, h: u16) -> Profile {
        let rule = self.rule(h);
        let mut b = rule.in_hex;
        if rule.ruins != 0 {
            let a = usize::from(self.b.detail[usize::from(h)]);
            b[a] += rule.ruins;
        }
        b
    }

    /// Warband `w`'s scores with `leader` in charge of its stack.
    pub fn warband_scores(&self, w: u8, leader: Option<u8>) -> Profile {
        let wb = &self.b.warbands[usize::from(w)];
        scores(
            &self.m.kinds[usize::from(wb.kind)],
            &self.hex_bonus(wb.hex),
            &self.bonus[usize::from(wb.owner)],
            leader,
            self.m.leader_bonus,
        )
    }

    /// Works out each player's all-units bonus from the settlements it
    /// occupies; unoccupied ones are neutral [Settlement Type Table]; and
    /// how many key locations it holds. Both are kept up to date from then
    /// on as key locations are taken and left.
    fn refresh_bonuses(&mut self) {
        self.bonus = [[0; ATTRIBUTES]; MAX_PLAYERS];
        for p in 0..self.m.seats.len() {
            self.held_keys[p] =
                set_len(&set_and(&self.key_set, &self.occupied[p]), self.m.map.words);
            for k in set_hexes(
                &set_and(&self.bonus_key_set, &self.occupied[p]),
                self.m.map.words,
            ) {
                let add = self.rule(k).all_units;
                for (b, a) in self.bonus[p].iter_mut().zip(add) {
                    *b += a;
                }
            }
        }
    }

    /// The hexes of every other player's stacks.
    fn enemy_hexes(&self, p: u8) -> HexSet {
        let mut enemy = NO_HEXES;
        for (q, occupied) in self.occupied[..self.m.seats.len()].iter().enumerate() {
            if q != usize::from(p) {
                for (e, o) in enemy.iter_mut().zip(occupied) {
                    *e |= o;
                }
            }
        }
        enemy
    }

    fn players_left(&self) -> usize {
        self.alive[..self.m.seats.len()]
            .iter()
            .filter(|a| **a > 0)
            .count()
    }

    // ------------------------------------------------------------ stacks

    fn new_warband(&mut self, kind: u8, owner: u8, hex: u16) -> Option<u8> {
        let slot = if self.n_warbands < MAX_WARBANDS {
            self.n_warbands += 1;
            self.n_warbands - 1
        } else {
            self.b.warbands.iter().position(|w| !w.alive)?
        };
        self.b.warbands[slot] = Warband {
            kind,
            owner,
            hex,
            below: NONE,
            moved: 0,
            attacked: false,
            alive: true,
        };
        self.alive[usize::from(owner)] += 1;
        self.live[usize::from(owner)][slot / 64] |= 1 << (slot % 64);
        Some(slot as u8)
    }

    /// Notes whether the stack in `h` is now one warband alone.
    #[inline]
    fn note_single(&mut self, h: u16) {
        let top = self.b.top[usize::from(h)];
        if top != NONE && self.b.warbands[usize::from(top)].below == NONE {
            set_insert(&mut self.single, h);
        } else {
            set_remove(&mut self.single, h);
        }
    }

    #[inline(always)]
    fn push_top(&mut self, h: u16, w: u8) {
        let (hi, b) = (usize::from(h), &mut *self.b);
        let below = b.top[hi];
        let wb = &mut b.warbands[usize::from(w)];
        wb.below = below;
        wb.hex = h;
        let owner = wb.owner;
        b.top[hi] = w;
        b.cell[hi] = owner;
        set_insert(&mut self.passable, h);
        set_insert(&mut self.occupied[usize::from(owner)], h);
        // One warband alone now if the hex was empty.
        if below == NONE {
            set_insert(&mut self.single, h);
        } else {
            set_remove(&mut self.single, h);
        }
    }

    fn push_bottom(&mut self, h: u16, w: u8) {
        set_insert(&mut self.passable, h);
        set_insert(
            &mut self.occupied[usize::from(self.b.warbands[usize::from(w)].owner)],
            h,
        );
        self.b.warbands[usize::from(w)].hex = h;
        self.b.warbands[usize::from(w)].below = NONE;
        let mut cur = self.b.top[usize::from(h)];
        if cur == NONE {
            self.b.top[usize::from(h)] = w;
            self.b.cell[usize::from(h)] = self.b.warbands[usize::from(w)].owner;
        } else {
            while self.b.warbands[usize::from(cur)].below != NONE {
                cur = self.b.warbands[usize::from(cur)].below;
            }
            self.b.warbands[usize::from(cur)].below = w;
        }
        self.note_single(h);
    }

    #[inline(always)]
    fn unlink(&mut self, w: u8) {
        let b = &mut *self.b;
        let Warband {
            hex, below, owner, ..
        } = b.warbands[usize::from(w)];
        let h = usize::from(hex);
        if b.top[h] == w {
            b.top[h] = below;
            if below == NONE {
                b.cell[h] = NONE;
                set_remove(&mut self.occupied[usize::from(owner)], hex);
            }
        } else {
            let mut cur = b.top[h];
            while cur != NONE && b.warbands[usize::from(cur)].below != w {
                cur = b.warbands[usize::from(cur)].below;
            }
            if cur != NONE {
                b.warbands[usize::from(cur)].below = below;
            }
        }
        b.warbands[usize::from(w)].below = NONE;
        self.note_single(hex);
    }

    /// Moves warband `w` one hex to `to`; the leaders riding with it go too
    /// [Movement Phase]. A key location it leaves empty or takes changes
    /// the all-units bonuses at once.
    #[inline]
    fn step(&mut self, w: u8, to: u16) {
        let from = self.b.warbands[usize::from(w)].hex;
        let takes = self.b.top[usize::from(to)] == NONE && self.is_key(to);
        self.unlink(w);
        let leaves = self.b.top[usize::from(from)] == NONE && self.is_key(from);
        self.push_top(to, w);
        self.b.warbands[usize::from(w)].moved += 1;
        let owner = self.b.warbands[usize::from(w)].owner;
        if takes {
            self.add_settlement_bonus(owner, to, 1);
        }
        if leaves {
            self.add_settlement_bonus(owner, from, -1);
        }
    }

    /// Adds (`sign` 1) or takes away (-1) the all-units bonus of key
    /// location `k` to player `p`'s, as `p` takes or loses it [Settlement
    /// Type Table], and counts it in or out of those `p` holds.
    fn add_settlement_bonus(&mut self, p: u8, k: u16, sign: i8) {
        let held = &mut self.held_keys[usize::from(p)];
        *held = held.wrapping_add_signed(i32::from(sign));
        let add = self.rule(k).all_units;
        for (b, a) in self.bonus[usize::from(p)].iter_mut().zip(add) {
            *b += sign * a;
        }
    }

    /// Destroys warband `w`. Its leaders join the new top of the stack, or
    /// die with the stack when none is left [Leaders].
    fn destroy(&mut self, w: u8) {
        let h = self.b.warbands[usize::from(w)].hex;
        let owner = usize::from(self.b.warbands[usize::from(w)].owner);
        self.unlink(w);
        self.b.warbands[usize::from(w)].alive = false;
        self.alive[owner] -= 1;
        self.live[owner][usize::from(w) / 64] &= !(1 << (w % 64));
        let new_top = self.b.top[usize::from(h)];
        for l in &mut self.leaders[..self.n_leaders] {
            if l.alive && l.warband == w {
                if new_top == NONE {
                    l.alive = false;
                    self.leaders_alive[owner] -= 1;
                } else {
                    l.warband = new_top;
                }
            }
        }
        if new_top == NONE && self.is_key(h) {
            self.add_settlement_bonus(owner as u8, h, -1);
        }
    }

    /// The hexes of player `p`'s stacks in `among`, in the order of their
    /// first (lowest) warband slot, into the board's `stack_hexes`; returns
    /// how many.
    fn stacks_of(&mut self, p: u8, among: &HexSet) -> usize {
        let b = &mut *self.b;
        let mut n = 0;
        for h in set_hexes(
            &set_and(among, &self.occupied[usize::from(p)]),
            self.m.map.words,
        ) {
            let mut slot = NONE;
            let mut w = b.top[usize::from(h)];
            while w != NONE {
                slot = slot.min(w);
                w = b.warbands[usize::from(w)].below;
            }
            let mut i = n;
            while i > 0 && b.stack_first[i - 1] > slot {
                b.stack_first[i] = b.stack_first[i - 1];
                b.stack_hexes[i] = b.stack_hexes[i - 1];
                i -= 1;
            }
            b.stack_first[i] = slot;
            b.stack_hexes[i] = h;
            n += 1;
        }
        n
    }

    // ------------------------------------------------------------ set-up

    /// Rolls or copies the map and deploys every seat [Map], [Scenario
    /// Setup]. Leaders' special attributes are rolled here [Leaders].
    pub fn setup<R: Roller>(&mut self, dice: &mut R) {
        let m = self.m;
        let (hexes, fixed) = (m.map.hexes(), m.fixed.as_deref());
        let (draws, terrain) = (m.hex_draw.len() as u32, &m.terrain[..]);
        let b = &mut *self.b;
        // A bitboard word at a time, in hex order.
        for word in 0..m.map.words {
            let (mut passable, mut keys) = (0u64, 0u64);
            for h in word * 64..hexes.min(word * 64 + 64) {
                let (entry, detail) = match fixed {
                    Some(fixed) => {
                        let (t, detail) = fixed[h];
                        (terrain[usize::from(t)].entry(t), detail)
                    }
                    None => (m.hex_draw[(dice.die(draws) - 1) as usize], NONE),
                };
                let t = entry as u8;
                let detail = if detail != NONE || entry & ENTRY_DETAIL == 0 {
                    detail
                } else if terrain[usize::from(t)].city {
                    m.race_table[(dice.die(m.race_table.len() as u32) - 1) as usize]
                } else {
                    roll_attribute(dice, &m.random_attribute) as u8
                };
                b.terrain[h] = t;
                b.detail[h] = detail;
                let impassable = entry >> ENTRY_IMPASSABLE_BIT & 1;
                // IMPASSABLE is NONE - 1.
                b.cell[h] = NONE - impassable as u8;
                let bit = h % 64;
                passable |= u64::from(impassable ^ 1) << bit;
                keys |= u64::from(entry >> ENTRY_KEY_BIT & 1) << bit;
            }
            // The few key locations: which are cities, which give a bonus.
            let (mut cities, mut bonus_keys, mut k) = (0u64, 0u64, keys);
            while k != 0 {
                let bit = k.trailing_zeros();
                k &= k - 1;
                let rule = &terrain[usize::from(b.terrain[word * 64 + bit as usize])];
                cities |= u64::from(rule.city) << bit;
                bonus_keys |= u64::from(rule.bonus) << bit;
                self.n_keys += 1;
            }
            self.passable[word] = passable;
            self.key_set[word] = keys;
            self.city_set[word] = cities;
            self.bonus_key_set[word] = bonus_keys;
        }
        for (p, seat) in m.seats.iter().enumerate() {
            let p = p as u8;
            for stack in &seat.stacks {
                let first = self.n_warbands;
                for kind in &stack.warbands {
                    if let Some(w) = self.new_warband(*kind, p, stack.hex) {
                        self.push_bottom(stack.hex, w);
                    }
                }
                for a in &stack.leaders {
                    let attribute = if *a == NONE {
                        roll_attribute(dice, &m.random_attribute) as u8
                    } else {
                        *a
                    };
                    self.add_leader(p, attribute, first as u8);
                }
            }
            self.deploy_zone(p, seat, dice);
        }
        self.key_region = m.map.flood(&self.key_set, &self.passable);
        self.refresh_bonuses();
    }

    fn add_leader(&mut self, owner: u8, attribute: u8, warband: u8) {
        if self.n_leaders < MAX_LEADERS {
            self.leaders[self.n_leaders] = Leader {
                attribute,
                warband,
                alive: true,
            };
            self.n_leaders += 1;
            self.leaders_alive[usize::from(owner)] += 1;
        }
    }

    /// Random deployment in the seat's zone: one warband per passable hex
    /// while there are free ones, then onto its own stacks; leaders ride
    /// with random warbands of the seat.
    fn deploy_zone<R: Roller>(&mut self, p: u8, seat: &Seat, dice: &mut R) {
        if seat.warbands.is_empty() {
            return;
        }
        let mut n_free = 0;
        for h in &seat.zone {
            // Passable and empty.
            if self.b.cell[usize::from(*h)] == NONE {
                self.b.free[n_free] = *h;
                n_free += 1;
            }
        }
        if n_free == 0 {
            // A rolled zone with no passable hex (chance 0.3^zone size):
            // the forces stand in it regardless.
            for h in &seat.zone {
                self.b.free[n_free] = *h;
                n_free += 1;
            }
        }
        let mut n_placed = 0;
        for kind in &seat.warbands {
            let h = if n_free > 0 {
                let i = (dice.die(n_free as u32) - 1) as usize;
                let h = self.b.free[i];
                self.b.free[i] = self.b.free[n_free - 1];
                n_free -= 1;
                h
            } else {
                let i = (dice.die(n_placed as u32) - 1) as usize;
                self.b.warbands[usize::from(self.b.placed[i])].hex
            };
            if let Some(w) = self.new_warband(*kind, p, h) {
                self.push_top(h, w);
                self.b.placed[n_placed] = w;
                n_placed += 1;
            }
        }
        for _ in 0..seat.leaders {
            let attribute = roll_attribute(dice, &self.m.random_attribute) as u8;
            let i = (dice.die(n_placed as u32) - 1) as usize;
            self.add_leader(p, attribute, self.b.placed[i]);
        }
    }

    // ------------------------------------------------------------ play

    /// Plays a whole game from an empty board.
    pub fn play<R: Roller, T: Trace>(&mut self, dice: &mut R, trace: &mut T) -> Ending {
        self.setup(dice);
        let n = self.m.seats.len();
        for turn in 1..=self.m.max_turns {
            self.turn = turn;
            let mut order = [0u8; MAX_PLAYERS];
            let mut k = 0;
            for p in 0..n {
                if self.alive[p] > 0 {
                    order[k] = p as u8;
                    k += 1;
                }
            }
            let leaders = self.leaders_alive;
            initiative_order(dice, &leaders, &mut order[..k]);
            if turn == 1 {
                self.first_mover = order[0];
            }
            trace.event("six races [Initiative Phase]", || {
                format!("turn {turn}: order of play {:?}", &order[..k])
            });
            for p in &order[..k] {
                self.recruit(*p, dice, trace);
            }
            for p in &order[..k] {
                if self.alive[usize::from(*p)] == 0 {
                    continue;
                }
                self.movement_phase(*p, dice, trace);
                if let Some(end) = self.battle_phase(*p, dice, trace) {
                    return end;
                }
            }
            if let Some(end) = self.end_of_turn(trace) {
                return end;
            }
        }
        Ending::Unfinished
    }

    /// Each city player `p` occupies rolls a d10; the recruit face raises a
    /// fresh warband of the city's race at the bottom of its stack
    /// [Initiative Phase].
    pub fn recruit<R: Roller, T: Trace>(&mut self, p: u8, dice: &mut R, trace: &mut T) {
        // In hex order; a recruit joins a stack already there, so the set
        // of cities held does not change meanwhile.
        for k in set_hexes(
            &set_and(&self.city_set, &self.occupied[usize::from(p)]),
            self.m.map.words,
        ) {
            let face = dice.die(10);
            if recruits(face, self.m.recruit_face) {
                // Basic warbands come first among the kinds, by race.
                let kind = self.b.detail[usize::from(k)];
                if let Some(w) = self.new_warband(kind, p, k) {
                    self.push_bottom(k, w);
                    trace.event("six races [Initiative Phase]", || {
                        format!("player {p} recruits a warband in the city at hex {k}")
                    });
                }
            }
        }
    }

    /// Player `p`'s movement phase: command points, moves, then the stacks'
    /// order for the battle phase [Movement Phase], [Battle Phase].
    pub fn movement_phase<R: Roller, T: Trace>(&mut self, p: u8, dice: &mut R, trace: &mut T) {
        let pi = usize::from(p);
        // Fresh moves and attacks for `p`'s live warbands, listed (in slot
        // order) for the moves. (A dead warband's moves and attacks are
        // never read: its slot is written afresh when it is taken again.)
        // The greedy player's list leaves out the warbands alone on a key
        // location: they stay (see `greedy_pick`) until a warband joins
        // them (`greedy_moves` lists them again then).
        let greedy = matches!(self.m.seats[pi].player, Player::Greedy { .. });
        let stay = if greedy {
            set_and(&self.single, &self.key_set)
        } else {
            NO_HEXES
        };
        let b = &mut *self.b;
        let mut n_own = 0;
        for (i, word) in self.live[pi].iter().enumerate() {
            let mut bits = *word;
            while bits != 0 {
                let slot = i * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let w = &mut b.warbands[slot];
                w.moved = 0;
                w.attacked = false;
                b.own[n_own] = slot as u8;
                n_own += usize::from(!set_contains(&stay, w.hex));
            }
        }
        let units = self.alive[pi] + self.leaders_alive[pi];
        let cp = command_points(
            units,
            self.leaders_alive[pi],
            self.m.units_per_command_die,
            dice,
        );
        trace.event("six races [Movement Phase]", || {
            format!("player {p}: {units} units, {cp} command points")
        });
        match self.m.seats[pi].player {
            Player::Random => self.random_moves(p, n_own, cp, dice),
            Player::Greedy { .. } => self.greedy_moves(p, n_own, cp),
        }
        self.order_stacks(p, dice);
    }

    /// Random movement: a random warband of the `k` listed in the board's
    /// `own` steps to a random hex it may enter; one that cannot is struck
    /// off the list.
    fn random_moves<R: Roller>(&mut self, p: u8, mut k: usize, mut cp: u32, dice: &mut R) {
        while cp > 0 && k > 0 {
            let i = (dice.die(k as u32) - 1) as usize;
            let w = self.b.own[i];
            let wb = self.b.warbands[usize::from(w)];
            let mut legal = [NO_HEX; 6];
            let mut n = 0;
            if wb.moved < self.m.max_move {
                for nb in self.m.map.neighbours[usize::from(wb.hex)] {
                    if self.can_enter(p, nb) {
                        legal[n] = nb;
                        n += 1;
                    }
                }
            }
            if n == 0 {
                self.b.own[i] = self.b.own[k - 1];
                k -= 1;
                continue;
            }
            let to = legal[(dice.die(n as u32) - 1) as usize];
            self.step(w, to);
            cp -= 1;
        }
    }

    /// Starts the greedy player `p`'s breadth-first search of the steps
    /// from its targets (key locations it does not hold, enemy stacks)
    /// through hexes it may enter, on bitboards of the whole map: level 0
    /// here, the next levels as [`Game::distance`] needs them (a pick
    /// needs the distances of only some of `p`'s stacks, and the search
    /// goes only as far as the farthest of those).
    fn start_search(&mut self, p: u8) {
        struct Start<'g, 'm>(&'g mut Game<'m>, u8);
        impl ForWords for Start<'_, '_> {
            type Out = ();
            fn run<const N: usize>(self) {
                self.0.start_search_in::<N>(self.1);
            }
        }
        let map = &self.m.map;
        map.with_words(Start(self, p));
    }

    /// [`Game::start_search`] on a map of `N` bitboard words.
    fn start_search_in<const N: usize>(&mut self, p: u8) {
        let m = self.m;
        let own = self.occupied[usize::from(p)];
        let mut enemy = [0u64; N];
        for (q, occupied) in self.occupied[..m.seats.len()].iter().enumerate() {
            if q != usize::from(p) {
                for (e, o) in enemy.iter_mut().zip(occupied) {
                    *e |= o;
                }
            }
        }
        let search = &mut self.b.search;
        search.player = p;
        search.level = 0;
        let mut enemy_outside = 0;
        for i in 0..N {
            // Key locations held by `p` are exactly those under its stacks.
            search.frontier[i] = (self.key_set[i] & !own[i]) | enemy[i];
            search.reached[i] = search.frontier[i];
            search.open[i] = self.passable[i] & !enemy[i];
            self.open_keys[i] = self.key_set[i] & !own[i] & search.open[i];
            enemy_outside |= enemy[i] & !self.key_region[i];
            // When every enemy stands in the region connected to key
            // locations, so does every target, and no hex outside it is
            // ever reached.
            search.never[i] = !self.key_region[i];
        }
        if enemy_outside != 0 {
            search.never[..N].fill(0);
        }
        self.b.levels[0][..N].copy_from_slice(&search.frontier[..N]);
        self.near_open_keys = m.map.spread::<N>(&self.open_keys);
    }

    /// The greedy player's steps from its targets to `h`, a hex of one of
    /// its stacks, searching on as far as needed: [`FAR`] for that far or
    /// more, [`u8::MAX`] for never. Each level searched is kept in
    /// `levels`; a hex reached already is looked up in them (a hex in none
    /// of the levels kept is [`FAR`] or more).
    #[inline]
    fn distance(&mut self, h: u16) -> u8 {
        let b = &*self.b;
        if set_contains(&b.search.reached, h) {
            let kept = &b.levels[..=b.search.level.min(LEVELS - 1)];
            return kept
                .iter()
                .position(|level| set_contains(level, h))
                .map_or(FAR, |d| d as u8);
        }
        self.search_to(h)
    }

    /// [`Game::distance`] of a hex the search has not reached yet.
    #[inline(never)]
    fn search_to(&mut self, h: u16) -> u8 {
        struct SearchTo<'g, 'm>(&'g mut Game<'m>, u16);
        impl ForWords for SearchTo<'_, '_> {
            type Out = u8;
            fn run<const N: usize>(self) -> u8 {
                self.0.distance_in::<N>(self.1)
            }
        }
        if set_contains(&self.b.search.never, h) {
            return u8::MAX;
        }
        let map = &self.m.map;
        map.with_words(SearchTo(self, h))
    }

    /// [`Game::distance`] on a map of `N` bitboard words.
    fn distance_in<const N: usize>(&mut self, h: u16) -> u8 {
        let map = &self.m.map;
        let search = &mut self.b.search;
        loop {
            let next = map.spread::<N>(&search.frontier);
            let mut any = 0;
            let words = search.frontier.iter_mut().zip(search.reached.iter_mut());
            for ((frontier, reached), (next, open)) in
                words.zip(next.iter().zip(&search.open)).take(N)
            {
                *frontier = next & open & !*reached;
                *reached |= *frontier;
                any |= *frontier;
            }
            if any == 0 {
                return u8::MAX;
            }
            search.level += 1;
            if search.level < LEVELS {
                self.b.levels[search.level][..N].copy_from_slice(&search.frontier[..N]);
            }
            if set_contains(&search.frontier, h) {
                return search.level.min(usize::from(FAR)) as u8;
            }
        }
    }

    /// Whether a stack of player `p` stands next to a key location nobody
    /// holds without holding one alone (then one of its warbands may take
    /// it, if it has not moved its most).
    fn may_take(&self, p: u8) -> bool {
        (0..self.m.map.words).any(|i| {
            self.occupied[usize::from(p)][i]
                & self.near_open_keys[i]
                & !(self.single[i] & self.key_set[i])
                != 0
        })
    }

    /// Whether the stack in `h` is one warband alone on a key location
    /// (which the greedy player never leaves empty).
    fn alone_on_key(&self, h: u16) -> bool {
        set_contains(&self.single, h) && self.is_key(h)
    }

    /// The greedy player's next step among its warbands listed in the
    /// board's `own` (in slot order) from place `start` to `end`, as (place
    /// after `start`, warband, hex): the step worth most, the
    /// first such warband and its first such neighbour. A step onto a key
    /// location nobody holds (one of the player's targets) is worth most;
    /// then a step to a hex one level nearer its targets; no other step
    /// gains. A warband that has moved its most, or alone holds a key
    /// location, stays. Every hex a level nearer than the warband's is one
    /// the player may enter: it is a target only at level 0, and every
    /// other hex searched is open.
    /// Without `takes` the caller knows no warband can take a key
    /// location, and the first warband that can step is the pick.
    fn greedy_pick(&mut self, start: usize, end: usize, takes: bool) -> Option<(usize, u8, u16)> {
        let mut walk = None;
        for j in 0..end - start {
            let w = self.b.own[start + j];
            let wb = self.b.warbands[usize::from(w)];
            if wb.moved >= self.m.max_move {
                continue;
            }
            let h = wb.hex;
            let near_key = takes && set_contains(&self.near_open_keys, h);
            if !near_key && walk.is_some() || self.alone_on_key(h) {
                continue;
            }
            let m = self.m;
            let neighbours = &m.map.neighbours[usize::from(h)];
            let first_in = |set: &HexSet| {
                neighbours
                    .iter()
                    .copied()
                    .find(|nb| *nb != NO_HEX && set_contains(set, *nb))
            };
            if near_key && let Some(to) = first_in(&self.open_keys) {
                return Some((j, w, to));
            }
            if walk.is_some() {
                continue;
            }
            let d = self.distance(h);
            if (2..=FAR).contains(&d)
                && let Some(to) = first_in(&self.b.levels[usize::from(d - 1)])
            {
                walk = Some((j, w, to));
                if !takes {
                    break;
                }
            }
        }
        walk
    }

    /// Greedy movement: each command point goes to the step
    /// [`Game::greedy_pick`] finds, so a warband walks on while it gains,
    /// never leaving a held key location empty; points with no gainful step
    /// are left unspent (they cannot be saved anyway). The distances are
    /// searched again after a key location is taken (it is no longer a
    /// target); any other step takes the warband one level nearer.
    ///
    /// A pick looks only as far as it must. After a walk (a step that
    /// takes no key location) no warband can take one, and none before the
    /// walker can step, unless the step changed that: the walker may now
    /// stand next to a key location nobody holds, and on a key location it
    /// may have joined one warband alone there (which may then move). Only
    /// the walker's hex and the stacks it left and joined change.
    fn greedy_moves(&mut self, p: u8, mut n: usize, mut cp: u32) {
        if cp == 0 {
            return;
        }
        self.start_search(p);
        // No warband before `start` can step; `takes`: one may take a key
        // location.
        let (mut start, mut takes) = (0, self.may_take(p));
        while cp > 0 {
            let Some((j, w, to)) = self.greedy_pick(start, n, takes) else {
                break;
            };
            let joined = self.b.top[usize::from(to)];
            let takes_key = set_contains(&self.open_keys, to);
            self.step(w, to);
            cp -= 1;
            if takes_key {
                // Now alone on the key location it took: off the list.
                for i in start + j..n - 1 {
                    self.b.own[i] = self.b.own[i + 1];
                }
                n -= 1;
                if cp > 0 {
                    self.start_search(p);
                }
                (start, takes) = (0, self.may_take(p));
            } else {
                start += j;
                takes = set_contains(&self.near_open_keys, to);
                if self.is_key(to) {
                    start = 0;
                    // A warband that stood alone on it (off the list, or
                    // still on it if it was left alone in this phase) may
                    // move now.
                    let at = self.b.own[..n].partition_point(|x| *x < joined);
                    if joined != NONE && (at == n || self.b.own[at] != joined) {
                        self.b.own.copy_within(at..n, at + 1);
                        self.b.own[at] = joined;
                        n += 1;
                    }
                }
            }
        }
    }

    /// Sets the order of player `p`'s stacks for its battle phase: the
    /// greedy player by each warband's best exact edge against the enemy
    /// stacks next to it (its general strength if none), the random player
    /// by putting a random warband on top.
    fn order_stacks<R: Roller>(&mut self, p: u8, dice: &mut R) {
        let mut stacked = self.occupied[usize::from(p)];
        for (s, single) in stacked.iter_mut().zip(&self.single) {
            *s &= !single;
        }
        let n = self.stacks_of(p, &stacked);
        for i in 0..n {
            let h = self.b.stack_hexes[i];
            let top = self.b.top[usize::from(h)];
            let mut k = 0;
            let mut w = top;
            while w != NONE {
                self.b.members[k] = w;
                k += 1;
                w = self.b.warbands[usize::from(w)].below;
            }
            match self.m.seats[usize::from(p)].player {
                Player::Random => {
                    let i = (dice.die(k as u32) - 1) as usize;
                    self.b.members.swap(0, i);
                }
                Player::Greedy { .. } => {
                    for i in 0..k {
                        self.b.order_keys[i] = self.order_value(self.b.members[i]);
                    }
                    let b = &mut *self.b;
                    sort_by_keys_descending(&mut b.order_keys[..k], &mut b.members[..k]);
                }
            }
            self.b.top[usize::from(h)] = self.b.members[0];
            for i in 0..k {
                let next = if i + 1 < k {
                    self.b.members[i + 1]
                } else {
                    NONE
                };
                self.b.warbands[usize::from(self.b.members[i])].below = next;
            }
        }
    }

    fn order_value(&self, w: u8) -> f64 {
        let wb = self.b.warbands[usize::from(w)];
        let mine = self.warband_scores(w, None);
        let mut best: Option<f64> = None;
        for nb in self.m.map.neighbours[usize::from(wb.hex)] {
            if nb == NO_HEX {
                continue;
            }
            let o = self.owner(nb);
            if o != NONE && o != wb.owner {
                let theirs = self.warband_scores(self.b.top[usize::from(nb)], None);
                let edge = odds(&mine, &theirs, &self.m.weights).edge();
                best = Some(best.map_or(edge, |b: f64| b.max(edge)));
            }
        }
        best.unwrap_or(self.m.strength[usize::from(wb.kind)])
    }

    // ------------------------------------------------------------ battle

    fn fixed_charge(&self, h: u16) -> Option<Option<u8>> {
        (self.b.charge_phase[usize::from(h)] == self.b.phase).then(|| {
            match self.b.charge[usize::from(h)] {
                NONE => None,
                a => Some(a),
            }
        })
    }

    /// The greedy choice of leader in charge of the stack in `h` against the
    /// stack in `enemy` [Leaders].
    fn greedy_charge(
        &self,
        h: u16,
        enemy: u16,
        as_attacker: bool,
        enemy_fixed: Option<Option<u8>>,
    ) -> Option<u8> {
        let mut own = [0u8; MAX_LEADERS];
        let mut theirs = [0u8; MAX_LEADERS];
        let n_own = self.leaders_in(h, &mut own);
        if n_own == 0 {
            return None;
        }
        let n_theirs = self.leaders_in(enemy, &mut theirs);
        choose_leader(
            &self.warband_scores(self.b.top[usize::from(h)], None),
            &own[..n_own],
            &self.warband_scores(self.b.top[usize::from(enemy)], None),
            &theirs[..n_theirs],
            enemy_fixed,
            as_attacker,
            self.m.leader_bonus,
            &self.m.weights,
        )
    }

    /// Fixes (once per battle phase) and returns the leader in charge of the
    /// stack in `h`, before the key attribute is rolled [Leaders].
    fn decide_charge<R: Roller>(
        &mut self,
        h: u16,
        enemy: u16,
        as_attacker: bool,
        dice: &mut R,
    ) -> Option<u8> {
        if let Some(c) = self.fixed_charge(h) {
            return c;
        }
        let choice = match self.m.seats[usize::from(self.owner(h))].player {
            Player::Greedy { .. } => {
                self.greedy_charge(h, enemy, as_attacker, self.fixed_charge(enemy))
            }
            Player::Random => {
                let mut own = [0u8; MAX_LEADERS];
                let n = self.leaders_in(h, &mut own);
                (n > 0).then(|| own[(dice.die(n as u32) - 1) as usize])
            }
        };
        self.fix_charge(h, choice);
        choice
    }

    /// The exact odds the greedy attacker expects from the stack in `h`
    /// attacking the one in `target`, with the leaders it and a greedy
    /// defender would put in charge.
    pub fn projected_odds(&self, h: u16, target: u16) -> Odds {
        self.projection(h, target).0
    }

    /// [`Game::projected_odds`] with the leaders it projects in charge of
    /// the attacker and the defender.
    fn projection(&self, h: u16, target: u16) -> (Odds, Option<u8>, Option<u8>) {
        let a = self
            .fixed_charge(h)
            .unwrap_or_else(|| self.greedy_charge(h, target, true, self.fixed_charge(target)));
        let d = self
            .fixed_charge(target)
            .unwrap_or_else(|| self.greedy_charge(target, h, false, Some(a)));
        let odds = odds(
            &self.warband_scores(self.b.top[usize::from(h)], a),
            &self.warband_scores(self.b.top[usize::from(target)], d),
            &self.m.weights,
        );
        (odds, a, d)
    }

    /// Fixes `choice` as the leader in charge of the stack in `h` for this
    /// battle phase.
    fn fix_charge(&mut self, h: u16, choice: Option<u8>) {
        self.b.charge_phase[usize::from(h)] = self.b.phase;
        self.b.charge[usize::from(h)] = choice.unwrap_or(NONE);
    }

    /// The top warband of `h` attacks the top warband of `target` [Battle
    /// Phase]: leaders in charge first, then the key attribute.
    pub fn battle<R: Roller, T: Trace>(
        &mut self,
        h: u16,
        target: u16,
        dice: &mut R,
        trace: &mut T,
    ) -> Verdict {
        self.battle_projected(h, target, None, dice, trace)
    }

    /// [`Game::battle`]; `projected`: the leaders a greedy attacker's
    /// [`Game::projection`] put in charge of both sides, the choices
    /// `decide_charge` would make again for it and a greedy defender.
    fn battle_projected<R: Roller, T: Trace>(
        &mut self,
        h: u16,
        target: u16,
        projected: Option<(Option<u8>, Option<u8>)>,
        dice: &mut R,
        trace: &mut T,
    ) -> Verdict {
        let (a, d) = (self.b.top[usize::from(h)], self.b.top[usize::from(target)]);
        let (la, ld) = match projected {
            Some((la, ld)) => {
                self.fix_charge(h, la);
                let defender = self.m.seats[usize::from(self.owner(target))].player;
                let ld = match defender {
                    Player::Greedy { .. } => {
                        self.fix_charge(target, ld);
                        ld
                    }
                    Player::Random => self.decide_charge(target, h, false, dice),
                };
                (la, ld)
            }
            None => {
                let la = self.decide_charge(h, target, true, dice);
                (la, self.decide_charge(target, h, false, dice))
            }
        };
        let sa = self.warband_scores(a, la);
        let sd = self.warband_scores(d, ld);
        let key = roll_attribute(dice, &self.m.random_attribute);
        let verdict = fight(&sa, &sd, key);
        self.battles += 1;
        self.b.warbands[usize::from(a)].attacked = true;
        trace.event("six races [Battle Phase]", || {
            let m = self.m;
            format!(
                "{} (hex {h}) attacks {} (hex {target}): {} {} against {}: {verdict:?}",
                m.kind_names[usize::from(self.b.warbands[usize::from(a)].kind)],
                m.kind_names[usize::from(self.b.warbands[usize::from(d)].kind)],
                m.attribute_names[key],
                sa[key],
                sd[key]
            )
        });
        match verdict {
            Verdict::AttackerWins => self.destroy(d),
            Verdict::DefenderWins => self.destroy(a),
            Verdict::BothDestroyed => {
                self.destroy(a);
                self.destroy(d);
            }
        }
        verdict
    }

    /// Player `p`'s battle phase. Each stack's top warband may attack an
    /// adjacent enemy top warband once; when an attacker is destroyed the
    /// next warband of its stack may attack [Battle Phase]. Returns the end
    /// of the game if it came.
    pub fn battle_phase<R: Roller, T: Trace>(
        &mut self,
        p: u8,
        dice: &mut R,
        trace: &mut T,
    ) -> Option<Ending> {
        self.b.next_phase();
        // Only stacks next to an enemy now can attack in this phase
        // (enemy stacks only disappear in it).
        let near_enemy = self.m.map.spread_any(&self.enemy_hexes(p));
        let n = self.stacks_of(p, &near_enemy);
        for i in 0..n {
            let h = self.b.stack_hexes[i];
            loop {
                let w = self.b.top[usize::from(h)];
                if w == NONE || self.b.warbands[usize::from(w)].attacked {
                    break;
                }
                let mut targets = [NO_HEX; 6];
                let mut k = 0;
                for nb in self.m.map.neighbours[usize::from(h)] {
                    if nb != NO_HEX {
                        let o = self.owner(nb);
                        if o != NONE && o != p {
                            targets[k] = nb;
                            k += 1;
                        }
                    }
                }
                if k == 0 {
                    break;
                }
                let target = match self.m.seats[usize::from(p)].player {
                    Player::Random => (dice.die(2) == 1)
                        .then(|| (targets[(dice.die(k as u32) - 1) as usize], None)),
                    Player::Greedy { threshold } => {
                        let mut best: Option<(f64, u16, Option<u8>, Option<u8>)> = None;
                        for t in &targets[..k] {
                            let (odds, a, d) = self.projection(h, *t);
                            let win = odds.attacker;
                            if best.is_none_or(|(b, ..)| win > b) {
                                best = Some((win, *t, a, d));
                            }
                        }
                        best.filter(|(win, ..)| *win > threshold)
                            .map(|(_, t, a, d)| (t, Some((a, d))))
                    }
                };
                let Some((target, projected)) = target else {
                    break;
                };
                let verdict = self.battle_projected(h, target, projected, dice, trace);
                if self.players_left() <= 1 {
                    return Some(self.annihilation());
                }
                if verdict == Verdict::AttackerWins {
                    break;
                }
            }
        }
        None
    }

    fn annihilation(&self) -> Ending {
        match (0..self.m.seats.len()).find(|p| self.alive[*p] > 0) {
            Some(p) => Ending::Won {
                seat: p as u8,
                by_holding: false,
            },
            None => Ending::Draw,
        }
    }

    /// Counts key locations held at the end of the turn. A player that
    /// holds the scenario's number of them (all of them, if the map has
    /// fewer) and more than any other player extends its streak; a streak
    /// of the scenario's length wins [Victory].
    fn end_of_turn<T: Trace>(&mut self, trace: &mut T) -> Option<Ending> {
        if self.n_keys == 0 || self.m.hold == 0 {
            return None;
        }
        let need = (self.m.hold as usize).min(self.n_keys);
        let n = self.m.seats.len();
        let held = self.held_keys.map(|h| h as usize);
        let mut winner = None;
        for p in 0..n {
            let most = (0..n).all(|q| q == p || held[q] < held[p]);
            if held[p] >= need && most {
                self.hold_streak[p] += 1;
                if self.hold_streak[p] >= self.m.hold_turns {
                    winner = Some(p as u8);
                }
            } else {
                self.hold_streak[p] = 0;
            }
        }
        let seat = winner?;
        let count = held[usize::from(seat)];
        trace.event("six races [Victory]", || {
            format!(
                "player {seat} has held {count} key locations (the most) for {} turns",
                self.m.hold_turns
            )
        });
        Some(Ending::Won {
            seat,
            by_holding: true,
        })
    }

    /// The trial row of a finished game.
    pub fn result(&self, ending: Ending) -> TrialResult {
        let n = self.m.seats.len();
        let mut metrics = [0u32; MAX_METRICS];
        metrics[METRIC_TURNS] = self.turn;
        metrics[METRIC_BATTLES] = self.battles;
        let outcome = match ending {
            Ending::Won { seat, by_holding } => {
                metrics[METRIC_BY_HOLDING] = u32::from(by_holding);
                metrics[METRIC_FIRST_MOVER_WON] = u32::from(seat == self.first_mover);
                u16::from(seat)
            }
            Ending::Draw => n as u16,
            Ending::Unfinished => n as u16 + 1,
        };
        metrics[METRIC_SURVIVORS..METRIC_SURVIVORS + n].copy_from_slice(&self.alive[..n]);
        TrialResult { outcome, metrics }
    }
}

// ---------------------------------------------------------------- scenario

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameFile {
    model: String,
    description: String,
    data: Option<String>,
    max_turns: i64,
    map: MapFile,
    victory: VictoryFile,
    players: Vec<PlayerFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    width: i64,
    height: i64,
    rows: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VictoryFile {
    hold: i64,
    hold_turns: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerFile {
    label: Option<String>,
    player: String,
    threshold: Option<f64>,
    zone: Option<String>,
    #[serde(default)]
    leaders: i64,
    #[serde(default)]
    warbands: Vec<WarbandsFile>,
    #[serde(default)]
    stacks: Vec<StackFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WarbandsFile {
    kind: String,
    count: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StackFile {
    at: [i64; 2],
    warbands: Vec<String>,
    #[serde(default)]
    leaders: Vec<String>,
}

impl RacesGame {
    /// Loads a `races.game` scenario; returns the model and description.
    pub fn load(path: &Path) -> Result<(Self, String), ScenarioError> {
        let text = read_text(path)?;
        let file: GameFile = parse_toml(path, &text)?;
        crate::scenario::expect_model(path, &file.model, "races.game")?;
        let data_dir = crate::scenario::data_dir(path, file.data.as_deref());
        let data = RacesData::load(&data_dir)?;
        let model = Self::build(path, &file, &data)?;
        Ok((model, file.description))
    }

    /// The scenario's seats.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// The map.
    pub fn map(&self) -> &HexMap {
        &self.map
    }

    /// The longest game.
    pub fn max_turns(&self) -> u32 {
        self.max_turns
    }

    fn build(path: &Path, file: &GameFile, data: &RacesData) -> Result<Self, ScenarioError> {
        let err = |field: String, message: String| ScenarioError::new(path, field, message);
        let side = |v: i64, f: &str| {
            if (1..=MAX_SIDE as i64).contains(&v) {
                Ok(v as usize)
            } else {
                Err(err(
                    format!("map.{f}"),
                    format!("expected 1 to {MAX_SIDE} hexes, found {v}"),
                ))
            }
        };
        let map = HexMap::new(
            side(file.map.width, "width")?,
            side(file.map.height, "height")?,
        );
        if !(1..=i64::from(MAX_TURNS)).contains(&file.max_turns) {
            return Err(err(
                "max_turns".into(),
                format!("expected 1 to {MAX_TURNS} turns, found {}", file.max_turns),
            ));
        }
        let fixed = match &file.map.rows {
            None => None,
            Some(rows) => Some(fixed_map(path, rows, &map, data)?),
        };
        if !(0..=i64::from(u16::MAX)).contains(&file.victory.hold) {
            return Err(err(
                "victory.hold".into(),
                format!(
                    "expected a number of key locations (0 for annihilation only), found {}",
                    file.victory.hold
                ),
            ));
        }
        if !(1..=i64::from(MAX_TURNS)).contains(&file.victory.hold_turns) {
            return Err(err(
                "victory.hold_turns".into(),
                format!(
                    "expected 1 to {MAX_TURNS} turns, found {}",
                    file.victory.hold_turns
                ),
            ));
        }
        if !(2..=MAX_PLAYERS).contains(&file.players.len()) {
            return Err(err(
                "players".into(),
                format!(
                    "expected 2 to {MAX_PLAYERS} [[players]], found {}",
                    file.players.len()
                ),
            ));
        }
        let depth = data.rules.deployment_depth as usize;
        let mut seats: Vec<Seat> = Vec::new();
        // Every hex claimed at set-up, and by whom (for overlap errors).
        let mut claimed: Vec<(u16, String)> = Vec::new();
        let mut total = 0usize;
        let mut total_leaders = 0usize;
        for (p, pf) in file.players.iter().enumerate() {
            let field = |f: &str| format!("players[{p}].{f}");
            // A threshold beside a random player is checked and kept for
            // when the seat is switched to greedy (`barsoom tournament
            // --seat players[0].player`).
            let threshold = pf.threshold.unwrap_or(0.5);
            if !(0.0..1.0).contains(&threshold) {
                return Err(err(
                    field("threshold"),
                    format!("expected a win probability in [0, 1), found {threshold}"),
                ));
            }
            let player = match pf.player.as_str() {
                "random" => Player::Random,
                "greedy" => Player::Greedy { threshold },
                other => {
                    return Err(err(
                        field("player"),
                        format!("expected \"random\" or \"greedy\", found {other:?}"),
                    ));
                }
            };
            let mut warbands = Vec::new();
            for (i, w) in pf.warbands.iter().enumerate() {
                let kind = kind_index(data, &w.kind)
                    .map_err(|m| err(field(&format!("warbands[{i}].kind")), m))?;
                if !(1..=MAX_START_WARBANDS as i64).contains(&w.count) {
                    return Err(err(
                        field(&format!("warbands[{i}].count")),
                        format!(
                            "expected 1 to {MAX_START_WARBANDS} warbands, found {}",
                            w.count
                        ),
                    ));
                }
                warbands.extend(std::iter::repeat_n(kind, w.count as usize));
            }
            let mut zone = Vec::new();
            match (&pf.zone, warbands.is_empty(), pf.stacks.is_empty()) {
                (Some(_), true, _) => {
                    return Err(err(
                        field("warbands"),
                        "expected the warbands to deploy in the zone".into(),
                    ));
                }
                (None, false, _) => {
                    return Err(err(
                        field("zone"),
                        format!(
                            "expected a deployment zone for the warbands ({})",
                            id_list(ZONE_NAMES.iter().map(|(n, _)| *n))
                        ),
                    ));
                }
                (None, true, true) => {
                    return Err(err(
                        field("warbands"),
                        "expected warbands (with a zone) or stacks".into(),
                    ));
                }
                (Some(z), false, _) => {
                    let Some((_, zone_kind)) = ZONE_NAMES.iter().find(|(n, _)| n == z) else {
                        return Err(err(
                            field("zone"),
                            format!(
                                "expected one of the zones {}, found {z:?}",
                                id_list(ZONE_NAMES.iter().map(|(n, _)| *n))
                            ),
                        ));
                    };
                    zone = map.zone(*zone_kind, depth);
                    for h in &zone {
                        if let Some((_, who)) = claimed.iter().find(|(c, _)| c == h) {
                            let (c, r) = map.coords(*h);
                            return Err(err(
                                field("zone"),
                                format!(
                                    "expected a deployment zone clear of {who}'s, found both on hex ({c}, {r}) ({z} zone {depth} hexes deep on a {}x{} map)",
                                    map.width, map.height
                                ),
                            ));
                        }
                    }
                    if let Some(fixed) = &fixed
                        && zone
                            .iter()
                            .all(|h| data.terrain[usize::from(fixed[usize::from(*h)].0)].impassable)
                    {
                        return Err(err(
                            field("zone"),
                            format!("expected a passable hex in the {z} zone of the fixed map"),
                        ));
                    }
                    claimed.extend(zone.iter().map(|h| (*h, format!("players[{p}]"))));
                }
                (None, true, false) => {}
            }
            if !(0..=MAX_LEADERS as i64).contains(&pf.leaders) {
                return Err(err(
                    field("leaders"),
                    format!("expected 0 to {MAX_LEADERS} leaders, found {}", pf.leaders),
                ));
            }
            if pf.leaders > 0 && warbands.is_empty() {
                return Err(err(
                    field("leaders"),
                    "expected leaders only with zone warbands (a stack lists its own)".into(),
                ));
            }
            let mut stacks = Vec::new();
            for (s, sf) in pf.stacks.iter().enumerate() {
                let sfield = |f: &str| field(&format!("stacks[{s}].{f}"));
                let Some(fixed) = &fixed else {
                    return Err(err(
                        sfield("at"),
                        "expected stacks only on a fixed map (map.rows)".into(),
                    ));
                };
                let [c, r] = sf.at;
                if c < 0 || r < 0 || c as usize >= map.width || r as usize >= map.height {
                    return Err(err(
                        sfield("at"),
                        format!(
                            "expected [column, row] inside the {}x{} map, found [{c}, {r}]",
                            map.width, map.height
                        ),
                    ));
                }
                let hex = map.hex(c as usize, r as usize);
                if data.terrain[usize::from(fixed[usize::from(hex)].0)].impassable {
                    return Err(err(
                        sfield("at"),
                        format!("expected a passable hex, found impassable [{c}, {r}]"),
                    ));
                }
                if let Some((_, who)) = claimed.iter().find(|(h, _)| *h == hex) {
                    return Err(err(
                        sfield("at"),
                        format!(
                            "expected a hex no other deployment uses (one stack per hex), found [{c}, {r}] already used by {who}"
                        ),
                    ));
                }
                claimed.push((hex, format!("players[{p}].stacks[{s}]")));
                if sf.warbands.is_empty() {
                    return Err(err(
                        sfield("warbands"),
                        "expected at least one warband (leaders ride with warbands)".into(),
                    ));
                }
                let mut kinds = Vec::new();
                for (i, k) in sf.warbands.iter().enumerate() {
                    kinds.push(
                        kind_index(data, k)
                            .map_err(|m| err(sfield(&format!("warbands[{i}]")), m))?,
                    );
                }
                let mut leaders = Vec::new();
                for (i, l) in sf.leaders.iter().enumerate() {
                    leaders.push(if l == "random" {
                        NONE
                    } else {
                        data.attribute(l).ok_or_else(|| {
                            err(
                                sfield(&format!("leaders[{i}]")),
                                format!(
                                    "expected \"random\" or a special attribute ({}), found {l:?}",
                                    id_list(data.attributes.iter().map(String::as_str))
                                ),
                            )
                        })? as u8
                    });
                }
                total += kinds.len();
                total_leaders += leaders.len();
                stacks.push(FixedStack {
                    hex,
                    warbands: kinds,
                    leaders,
                });
            }
            total += warbands.len();
            total_leaders += pf.leaders as usize;
            seats.push(Seat {
                label: pf
                    .label
                    .clone()
                    .unwrap_or_else(|| format!("player {}", p + 1)),
                player,
                zone,
                warbands,
                leaders: pf.leaders as u8,
                stacks,
            });
        }
        if total > MAX_START_WARBANDS {
            return Err(err(
                "players".into(),
                format!("expected at most {MAX_START_WARBANDS} warbands in all, found {total}"),
            ));
        }
        if total_leaders > MAX_LEADERS {
            return Err(err(
                "players".into(),
                format!("expected at most {MAX_LEADERS} leaders in all, found {total_leaders}"),
            ));
        }
        let weights = attribute_probabilities(&data.random_attribute);
        let strength = data
            .kinds
            .iter()
            .map(|k| {
                data.races
                    .iter()
                    .map(|r| odds(&k.values, &r.values, &weights).edge())
                    .sum::<f64>()
                    / data.races.len() as f64
            })
            .collect();
        let spec = output_spec(&seats, file.max_turns as u32);
        let terrain: Vec<TerrainRule> = data
            .terrain
            .iter()
            .map(|t| TerrainRule {
                impassable: t.impassable,
                settlement: t.settlement,
                city: t.city,
                ruins: t.ruins,
                in_hex: t.in_hex,
                all_units: t.all_units,
                bonus: t.all_units.iter().any(|b| *b != 0),
            })
            .collect();
        let hex_draw = flat_terrain_table(
            &data
                .tables
                .iter()
                .map(|t| t.faces.clone())
                .collect::<Vec<_>>(),
            data.hex_chain,
        )
        .into_iter()
        .map(|t| terrain[usize::from(t)].entry(t))
        .collect();
        Ok(RacesGame {
            map,
            terrain,
            terrain_names: data.terrain.iter().map(|t| t.id.clone()).collect(),
            hex_draw,
            fixed,
            kinds: data.kinds.iter().map(|k| k.values).collect(),
            kind_names: data.kinds.iter().map(|k| k.name.clone()).collect(),
            strength,
            random_attribute: data.random_attribute.clone(),
            race_table: data.race_table.clone(),
            weights,
            attribute_names: data.attribute_names.clone(),
            leader_bonus: data.rules.leader_bonus,
            max_move: data.rules.max_move,
            units_per_command_die: data.rules.units_per_command_die,
            recruit_face: data.rules.recruit_face,
            seats,
            hold: file.victory.hold as u32,
            hold_turns: file.victory.hold_turns as u32,
            max_turns: file.max_turns as u32,
            spec,
        })
    }

    /// Terrain id of terrain index `t`.
    pub fn terrain_name(&self, t: usize) -> &str {
        &self.terrain_names[t]
    }
}

fn kind_index(data: &RacesData, id: &str) -> Result<u8, String> {
    data.kind(id).map(|k| k as u8).ok_or_else(|| {
        format!(
            "expected a race or variant warband ({}), found {id:?}",
            data.kind_list()
        )
    })
}

/// Parses the fixed map: one row per line of whitespace-separated terrain
/// ids; `city:<race>` and `ruins:<attribute>` fix what is otherwise rolled;
/// `.` is barren and `#` impassable.
fn fixed_map(
    path: &Path,
    rows: &[String],
    map: &HexMap,
    data: &RacesData,
) -> Result<Vec<(u8, u8)>, ScenarioError> {
    let err = |field: String, message: String| ScenarioError::new(path, field, message);
    if rows.len() != map.height {
        return Err(err(
            "map.rows".into(),
            format!(
                "expected {} rows (map.height), found {}",
                map.height,
                rows.len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(map.hexes());
    for (r, row) in rows.iter().enumerate() {
        let tokens: Vec<&str> = row.split_whitespace().collect();
        if tokens.len() != map.width {
            return Err(err(
                format!("map.rows[{r}]"),
                format!(
                    "expected {} hexes (map.width), found {}",
                    map.width,
                    tokens.len()
                ),
            ));
        }
        for (c, token) in tokens.iter().enumerate() {
            let (name, detail) = match token.split_once(':') {
                Some((n, d)) => (n, Some(d)),
                None => (*token, None),
            };
            let name = match name {
                "." => "barren",
                "#" => "impassable",
                n => n,
            };
            let bad = |m: String| err(format!("map.rows[{r}][{c}]"), m);
            let Some(t) = data.terrain_index(name) else {
                return Err(bad(format!(
                    "expected a terrain ({}, or . and #), found {token:?}",
                    id_list(data.terrain.iter().map(|t| t.id.as_str()))
                )));
            };
            let terrain = &data.terrain[t];
            let detail = match detail {
                None => NONE,
                Some(d) if terrain.city => data.race(d).ok_or_else(|| {
                    bad(format!(
                        "expected a city's race ({}), found {d:?}",
                        id_list(data.races.iter().map(|r| r.id.as_str()))
                    ))
                })? as u8,
                Some(d) if terrain.ruins != 0 => data.attribute(d).ok_or_else(|| {
                    bad(format!(
                        "expected the ruins' attribute ({}), found {d:?}",
                        id_list(data.attributes.iter().map(String::as_str))
                    ))
                })? as u8,
                Some(_) => {
                    return Err(bad(format!(
                        "expected a detail only on a city or ruins, found {token:?}"
                    )));
                }
            };
            out.push((t as u8, detail));
        }
    }
    Ok(out)
}

fn output_spec(seats: &[Seat], max_turns: u32) -> OutputSpec {
    let metric = |name: &str, description: String| MetricSpec {
        name: name.into(),
        description,
    };
    let mut outcomes: Vec<String> = seats.iter().map(|s| format!("{} wins", s.label)).collect();
    outcomes.push("draw".into());
    outcomes.push(format!("unfinished after {max_turns} turns"));
    let mut metrics = vec![
        metric("turns", "turns played".into()),
        metric("battles", "battles fought".into()),
        metric("by_holding", "won by holding key locations (0/1)".into()),
        metric(
            "first_mover_won",
            "the player first in turn 1's initiative won (0/1)".into(),
        ),
    ];
    for (i, s) in seats.iter().enumerate() {
        metrics.push(metric(
            &format!("survivors_{i}"),
            format!("{}'s warbands left", s.label),
        ));
    }
    debug_assert!(metrics.len() <= MAX_METRICS);
    OutputSpec {
        outcomes,
        metrics,
        length_metric: Some(METRIC_TURNS),
        trends: Vec::new(),
    }
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
