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

use std::path::Path;

use serde::Deserialize;

use crate::scenario::{ScenarioError, read_toml};

/// The side of a counter in boxes.
pub const COUNTER: i16 = 4;
/// Boxes in one movement [5.11].
pub const STEPS_PER_MOVEMENT: i16 = 4;
/// Most movements in one phase (John Carter's once-per-duel four [5.31]).
pub const MAX_MOVEMENTS: i16 = 4;
/// Radius of the largest movement window.
pub const MAX_RADIUS: i16 = STEPS_PER_MOVEMENT * MAX_MOVEMENTS;
/// Width of the largest movement window.
const WINDOW: usize = (2 * MAX_RADIUS + 1) as usize;

/// Facings, clockwise from north (towards the top row) [5.63].
pub const NORTH: u8 = 0;
/// Facing east (towards the last column).
pub const EAST: u8 = 1;
/// Facing south (towards the last row).
pub const SOUTH: u8 = 2;
/// Facing west (towards the first column).
pub const WEST: u8 = 3;

/// A facing's letter.
pub fn facing_letter(facing: u8) -> char {
    ['N', 'E', 'S', 'W'][usize::from(facing & 3)]
}

/// Parses N, E, S or W.
pub fn parse_facing(text: &str) -> Option<u8> {
    match text {
        "N" => Some(NORTH),
        "E" => Some(EAST),
        "S" => Some(SOUTH),
        "W" => Some(WEST),
        _ => None,
    }
}

/// Position numbers in the frame of a counter facing north, indexed by
/// `(sx + 1) * 3 + (sy + 1)` for the signs of the offset [7.41].
const NORTH_FRAME: [u8; 9] = [
    3, 2, 1, // sx = -1: front-left, left, rear-left
    4, 0, 8, // sx = 0: ahead, (self), behind
    5, 6, 7, // sx = +1: front-right, right, rear-right
];

/// Bit set of positions (bit `n` for position `n`).
pub type PositionSet = u16;

/// Positions a hero may attack into: 1-7 [7.43].
pub const HERO_ARC: PositionSet = 0b0_1111_1110;
/// Positions a minor character, villain, personage or beast may attack
/// into: 2-6 [7.43].
pub const FRONT_ARC: PositionSet = 0b0_0111_1100;
/// Positions a warrior of Mars may attack into: 3-5 [7.43].
pub const WARRIOR_ARC: PositionSet = 0b0_0011_1000;
/// Behind a hero: position 8 only [7.44].
pub const HERO_BEHIND: PositionSet = 0b1_0000_0000;
/// Behind anyone else: 1, 7 and 8 [7.44].
pub const OTHER_BEHIND: PositionSet = 0b1_1000_0010;

/// Turns a world offset into the frame of a counter facing `facing`, where
/// "ahead" is (0, -1).
#[inline]
const fn to_frame(dx: i16, dy: i16, facing: u8) -> (i16, i16) {
    // Each quarter turn anticlockwise (screen rows grow downwards) maps
    // (x, y) to (y, -x): facing east, ahead (1, 0) becomes (0, -1).
    match facing & 3 {
        NORTH => (dx, dy),
        EAST => (dy, -dx),
        SOUTH => (-dx, -dy),
        _ => (-dy, dx),
    }
}

/// Turns a frame offset back into the world for a counter facing `facing`.
#[inline]
pub const fn from_frame(fx: i16, fy: i16, facing: u8) -> (i16, i16) {
    match facing & 3 {
        NORTH => (fx, fy),
        EAST => (-fy, fx),
        SOUTH => (-fx, -fy),
        _ => (fy, -fx),
    }
}

/// Whether two counters touch without overlapping [7.12]: their top-left
/// boxes `(dx, dy)` apart with the larger of |dx|, |dy| exactly 4.
#[inline]
pub fn adjacent(dx: i16, dy: i16) -> bool {
    dx.abs().max(dy.abs()) == COUNTER
}

/// The 32 top-left offsets, rows first, at which a counter touches
/// another [7.12]: the eight exact positions [7.41] and the boxes that
/// straddle two of them [7.42].
pub const TOUCHING: [(i16, i16); 32] = {
    let mut ring = [(0i16, 0i16); 32];
    let mut k = 0;
    let mut dy = -COUNTER;
    while dy <= COUNTER {
        let mut dx = -COUNTER;
        while dx <= COUNTER {
            if dx == -COUNTER || dx == COUNTER || dy == -COUNTER || dy == COUNTER {
                ring[k] = (dx, dy);
                k += 1;
            }
            dx += 1;
        }
        dy += 1;
    }
    ring
};

/// The positions [7.41] that a counter `(dx, dy)` away (top-left to
/// top-left) occupies around a counter facing `facing`: one position when
/// exact, two when it straddles them [7.42]; `None` if not adjacent.
#[inline]
pub fn positions_around(dx: i16, dy: i16, facing: u8) -> Option<PositionSet> {
    if dx.abs() > COUNTER || dy.abs() > COUNTER {
        return None;
    }
    let set = AROUND[around_index(dx, dy, facing)];
    (set != 0).then_some(set)
}

/// The slot of an offset within a counter either way and a facing in
/// [`AROUND`].
#[inline]
const fn around_index(dx: i16, dy: i16, facing: u8) -> usize {
    let side = (2 * COUNTER + 1) as usize;
    (facing & 3) as usize * side * side + (dy + COUNTER) as usize * side + (dx + COUNTER) as usize
}

/// [`positions_around`] for every offset within a counter either way and
/// every facing (0 where not adjacent).
const AROUND: [PositionSet; 4 * 81] = {
    let mut table = [0; 4 * 81];
    let mut facing = 0;
    while facing < 4 {
        let mut dy = -COUNTER;
        while dy <= COUNTER {
            let mut dx = -COUNTER;
            while dx <= COUNTER {
                table[around_index(dx, dy, facing)] = positions_of(dx, dy, facing);
                dx += 1;
            }
            dy += 1;
        }
        facing += 1;
    }
    table
};

/// The positions a counter `(dx, dy)` away occupies around a counter
/// facing `facing` (0 if not adjacent): along each axis of the facing's
/// frame, a whole counter's offset is one side, none is the middle, and
/// anything between straddles the middle and that side [7.42].
const fn positions_of(dx: i16, dy: i16, facing: u8) -> PositionSet {
    let (ax, ay) = (dx.abs(), dy.abs());
    if (if ax > ay { ax } else { ay }) != COUNTER {
        return 0;
    }
    let (fx, fy) = to_frame(dx, dy, facing);
    let (xs, ys) = (sides_of(fx), sides_of(fy));
    let mut set = 0;
    let mut i = 0;
    while i < 4 {
        let (sx, sy) = (xs[i / 2], ys[i % 2]);
        set |= 1 << NORTH_FRAME[((sx + 1) * 3 + (sy + 1)) as usize];
        i += 1;
    }
    set
}

/// The sides (-1, 0, +1) an offset along one axis of a frame touches.
const fn sides_of(v: i16) -> [i16; 2] {
    if v.abs() == COUNTER {
        [v.signum(); 2]
    } else if v == 0 {
        [0; 2]
    } else {
        [0, v.signum()]
    }
}

/// The exact position `n` (1-8) around a counter facing `facing`, as a
/// top-left offset.
#[inline]
pub fn offset_of_position(n: u8, facing: u8) -> (i16, i16) {
    POSITION_OFFSETS[usize::from(facing & 3)][usize::from(n)]
}

/// [`offset_of_position`] by facing and position (slot 0 unused).
const POSITION_OFFSETS: [[(i16, i16); 9]; 4] = {
    let mut table = [[(0, 0); 9]; 4];
    let mut facing = 0;
    while facing < 4 {
        let mut i = 0;
        while i < 9 {
            let (sx, sy) = (i as i16 / 3 - 1, i as i16 % 3 - 1);
            table[facing as usize][NORTH_FRAME[i] as usize] =
                from_frame(sx * COUNTER, sy * COUNTER, facing);
            i += 1;
        }
        facing += 1;
    }
    table
};

/// Whether an attacker with arc `arc`, at top-left offset `(dx, dy)` from
/// its target and facing `facing`, may attack it [7.43]: the target must be
/// in the arc in every position it straddles [7.42].
#[inline]
pub fn in_arc(arc: PositionSet, dx: i16, dy: i16, facing: u8) -> bool {
    // The target lies at (-dx, -dy) from the attacker.
    match positions_around(-dx, -dy, facing) {
        Some(set) => set & !arc == 0,
        None => false,
    }
}

/// Whether an attacker at top-left offset `(dx, dy)` from a target facing
/// `facing` attacks it from behind [7.32, 7.44]: in a behind position and
/// not straddling a position that is not [7.42].
#[inline]
pub fn is_behind(behind: PositionSet, dx: i16, dy: i16, facing: u8) -> bool {
    match positions_around(dx, dy, facing) {
        Some(set) => set & !behind == 0,
        None => false,
    }
}

/// What a box of a display is [5.1, 5.5].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// Open floor.
    Floor,
    /// A wall: no counter may overlap it [5.16].
    Wall,
    /// A doorway, always open [5.16]; melee through it is at −1 [7.34].
    Door,
    /// Off the decks of the flier display: no counter may stand over it
    /// [5.18]; John Carter, Carthoris and Vad Varo may jump across it [5.53].
    Sky,
    /// The shaded area between grappled fliers [5.52].
    Gap,
    /// A restricted movement box of the open display [5.57].
    Restricted,
    /// A ramp box whose arrow points in this facing; melee against the
    /// arrow (up the ramp) is at −1 [7.34].
    Ramp(u8),
    /// Floor of the declared area with this index (set-up area, exit,
    /// deck, room) [7.2].
    Area(u8),
    /// The door of the dungeon: shut, like a wall, until a hero opens it
    /// [5.16, 5.55]; then a doorway.
    Locked,
    /// A wall box with manacles: a prisoner in the dungeon is chained with
    /// his counter touching one [5.55].
    Manacles,
    /// A secret passageway box: a wall to all but a side that may use the
    /// passages [5.54].
    Secret,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDisplay {
    name: String,
    provenance: String,
    kind: String,
    rows: Vec<String>,
    #[serde(default)]
    areas: Vec<RawArea>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArea {
    mark: String,
    name: String,
    side: Option<i64>,
    #[serde(default)]
    entrance: bool,
    #[serde(default)]
    exit: bool,
    deck: Option<i64>,
    #[serde(default)]
    room: bool,
    #[serde(default)]
    holds: Vec<String>,
    capacity: Option<i64>,
    exit_sides: Option<Vec<i64>>,
    #[serde(default)]
    entrants_leave_elsewhere: bool,
    wait: Option<i64>,
    #[serde(default)]
    staging: bool,
    #[serde(default)]
    dungeon: bool,
    #[serde(default)]
    throne: bool,
    #[serde(default)]
    secret: bool,
}

/// The kind of display, which sets the set-up rules [7.21-7.25].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisplayKind {
    /// Open or arena: both sides in their shaded areas, discovered, to the
    /// death, no moving away before melee is joined [7.21].
    Open,
    /// A street: the entering side at one end, the other side at least 20
    /// boxes from both ends, discovered, no moving away before melee is
    /// joined [7.22].
    Street,
    /// Two grappled fliers: each side on its own deck, discovered, to the
    /// death [7.23]; crossing between them may end in a fall [5.52].
    Flier,
    /// A house: two entrances, defenders in and outside rooms [7.24].
    House,
    /// A palace: gates, tower, throne room, dungeon, shaded areas [7.25].
    Palace,
}

impl DisplayKind {
    /// Whether no character may move away from the enemy until melee is
    /// first joined [7.21, 7.22].
    pub fn no_retreat_before_melee(self) -> bool {
        matches!(self, DisplayKind::Open | DisplayKind::Street)
    }

    /// Whether duels on it start discovered [7.21-7.23]; house and palace
    /// duels need discovery [7.24, 7.25, 6.0].
    pub fn starts_discovered(self) -> bool {
        matches!(
            self,
            DisplayKind::Open | DisplayKind::Street | DisplayKind::Flier
        )
    }
}

/// A named part of a display: a set-up area, an exit, a flier deck or a
/// room [7.2, 5.5].
#[derive(Debug, Clone, PartialEq)]
pub struct Area {
    /// The letter that marks its boxes in the rows.
    pub mark: char,
    /// Its name (scenarios pick an entrance by name).
    pub name: String,
    /// The side (0 or 1) that sets up here, if it is a set-up area.
    pub side: Option<u8>,
    /// Whether it is an entrance the entering side chooses among (one end
    /// of the street, a house entrance, a palace gate) [7.22-7.25].
    pub entrance: bool,
    /// Whether its boxes lead off the display [5.18].
    pub exit: bool,
    /// Flier deck 1 or 2, or 0 [5.52, 7.34].
    pub deck: u8,
    /// Whether it lies inside a room [7.24, 6.23].
    pub room: bool,
    /// Classes or character ids set up here by default; empty: any.
    pub holds: Vec<String>,
    /// Most characters set up here by default [7.25: warriors in pairs].
    pub capacity: Option<usize>,
    /// For an exit: bit `s` set when side `s` may leave by it [5.18,
    /// 7.22, 7.24].
    pub exit_sides: u8,
    /// For an exit that is also an entrance: the side that came in by it
    /// must leave by another [7.22, 7.24].
    pub entrants_leave_elsewhere: bool,
    /// For an exit: tactical turns a character must spend on it, not next to
    /// an enemy, before he is gone (the tower's moored fliers [5.56]); 0:
    /// he leaves as he reaches it.
    pub wait: u8,
    /// The flier staging area, in play only for an acquisition [5.51].
    pub staging: bool,
    /// The dungeon [5.55].
    pub dungeon: bool,
    /// The throne room: a disguised attacker entering it is unmasked
    /// [6.25].
    pub throne: bool,
    /// Its boxes belong to a secret passageway [5.54].
    pub secret: bool,
    /// Its 4×4 set-up squares (top-left boxes), nearest the middle of the
    /// display first.
    pub squares: Vec<(i16, i16)>,
}

impl Area {
    /// Whether a character of this class name and id sets up here by
    /// default.
    pub fn holds(&self, class: &str, id: &str) -> bool {
        self.holds.is_empty() || self.holds.iter().any(|h| h == class || h == id)
    }
}

/// Per top-left box: the counter there covers no wall or sky box.
const F_OPEN: u16 = 1;
/// The counter covers no wall box (sky allowed: a jump may cross it).
const F_JUMP_OPEN: u16 = 1 << 1;
/// The counter covers a restricted box [5.57].
const F_RESTRICTED: u16 = 1 << 2;
/// The counter covers or touches a restricted box [5.57].
const F_NEAR_RESTRICTED: u16 = 1 << 3;
/// The counter covers a doorway box [7.34].
const F_DOOR: u16 = 1 << 4;
/// The counter covers an exit box [5.18].
const F_EXIT: u16 = 1 << 5;
/// The counter covers deck-1 boxes; the next bit deck 2 [5.52].
const F_DECK1: u16 = 1 << 6;
/// Both deck bits.
const F_DECKS: u16 = 3 << 6;
/// The counter lies wholly inside room boxes [7.24, 6.23].
const F_ROOM: u16 = 1 << 8;
/// First of four bits: covers a ramp box whose arrow points N, E, S, W.
const RAMP_SHIFT: u16 = 9;
/// The counter covers a box of the flier staging area [5.51, 7.34].
const F_STAGING: u16 = 1 << 13;

/// A tactical display.
#[derive(Debug, Clone, PartialEq)]
pub struct Display {
    /// Display name.
    pub name: String,
    /// Its kind.
    pub kind: DisplayKind,
    /// Width in boxes.
    pub width: i16,
    /// Height in boxes.
    pub height: i16,
    cells: Vec<Cell>,
    /// Per top-left box (row-major), what a counter there covers and
    /// touches (`F_*` bits).
    features: Vec<u16>,
    /// Per top-left box, one bit each ([`PLANE_WORDS`] words a row, bit
    /// `x + 64` for column `x`): where a counter may end a step, and where
    /// a jump may pass, for a side barred from and a side free to enter
    /// the restricted boxes [5.57] (index `2 * jump + restricted_ok`).
    planes: [Vec<u64>; 4],
    /// Per top-left box of the display (row-major), the 9×9 window of one
    /// movement around it as in [`Reach`]: where a counter may end a step,
    /// for a side barred from and a side free to enter the restricted
    /// boxes.
    movement_windows: [Vec<u128>; 2],
    /// The declared areas ('a' and 'b' are the set-up areas of the two
    /// sides unless declared otherwise).
    pub areas: Vec<Area>,
    /// Per side, the set-up squares of all its areas, area by area.
    pub setup: [Vec<(i16, i16)>; 2],
    /// Whether no wall, sky or restricted box lies anywhere (then, away from
    /// other counters, the steps to a box are the larger of the row and
    /// column distances).
    pub wall_free: bool,
    /// Whether no wall or sky box lies anywhere: the plain distance is then
    /// a fair guide to closing with the enemy.
    pub open_ground: bool,
    /// Whether melee may be obstructed anywhere (doorways, decks, ramps).
    obstacles: bool,
    /// Whether there is a restricted box [5.57].
    pub has_restricted: bool,
    /// Per box, the room or corridor it lies in (boxes joined side to side
    /// without a wall, doorway or sky between them), numbered from 1; 0 for
    /// walls, doorways and sky [6.13, 6.23].
    regions: Vec<u16>,
    /// Per region, whether it is a room (its boxes lie in a room area)
    /// rather than a corridor [6.23].
    region_rooms: Vec<bool>,
    /// The boxes as drawn, before `openings` [5.51, 5.54, 5.55].
    drawn: Vec<Cell>,
    /// Which doors, passageways and staging area are open.
    openings: Openings,
}

/// What is open on a display: the dungeon door once a hero has opened it
/// [5.55], the secret passageways to the side that may use them [5.54],
/// the flier staging area in an acquisition [5.51].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Openings {
    /// The dungeon door is open.
    pub dungeon_door: bool,
    /// The secret passageways may be walked.
    pub secret_passages: bool,
    /// The staging area is ground to stand on (else sky).
    pub staging_area: bool,
}

/// Largest display side in boxes.
pub const MAX_DISPLAY: usize = 200;

/// Columns left of the display in a row of [`Display::window_row`]'s
/// planes, so that a window reaching off the left edge reads whole words.
const PLANE_MARGIN: usize = 64;
/// Words a row in those planes: the margin, the widest display and a word
/// to spare on the right.
const PLANE_WORDS: usize = (PLANE_MARGIN + MAX_DISPLAY).div_ceil(64) + 1;

/// Marks reserved for terrain.
const TERRAIN_MARKS: &str = ".#+ ~r^>v<=%:";

impl Display {
    /// Loads and checks a display file.
    pub fn load(file: &Path) -> Result<Self, ScenarioError> {
        let raw: RawDisplay = read_toml(file)?;
        let err = |field: &str, message: String| ScenarioError::new(file, field, message);
        if raw.provenance.trim().is_empty() {
            return Err(err(
                "provenance",
                "expected where the layout comes from (rules [case] or reconstructed: why)".into(),
            ));
        }
        let kind = match raw.kind.as_str() {
            "open" => DisplayKind::Open,
            "street" => DisplayKind::Street,
            "flier" => DisplayKind::Flier,
            "house" => DisplayKind::House,
            "palace" => DisplayKind::Palace,
            other => {
                return Err(err(
                    "kind",
                    format!(
                        "expected \"open\", \"street\", \"flier\", \"house\" or \"palace\", found {other:?}"
                    ),
                ));
            }
        };
        let mut areas = Self::load_areas(&raw.areas, &err)?;
        let height = raw.rows.len();
        let width = raw.rows.first().map_or(0, |r| r.chars().count());
        if !(COUNTER as usize..=MAX_DISPLAY).contains(&height)
            || !(COUNTER as usize..=MAX_DISPLAY).contains(&width)
        {
            return Err(err(
                "rows",
                format!(
                    "expected 4 to {MAX_DISPLAY} rows of 4 to {MAX_DISPLAY} boxes, found {height} rows of {width}"
                ),
            ));
        }
        let mut cells = Vec::with_capacity(width * height);
        for (r, row) in raw.rows.iter().enumerate() {
            if row.chars().count() != width {
                return Err(err(
                    &format!("rows[{r}]"),
                    format!(
                        "expected {width} boxes like the first row, found {}",
                        row.chars().count()
                    ),
                ));
            }
            for (c, ch) in row.chars().enumerate() {
                let cell = match ch {
                    '.' => Cell::Floor,
                    '#' => Cell::Wall,
                    '+' => Cell::Door,
                    ' ' => Cell::Sky,
                    '~' => Cell::Gap,
                    'r' => Cell::Restricted,
                    '^' => Cell::Ramp(NORTH),
                    '>' => Cell::Ramp(EAST),
                    'v' => Cell::Ramp(SOUTH),
                    '<' => Cell::Ramp(WEST),
                    '=' => Cell::Locked,
                    '%' => Cell::Manacles,
                    ':' => Cell::Secret,
                    other => match areas.iter().position(|a| a.mark == other) {
                        Some(i) => Cell::Area(i as u8),
                        None if other == 'a' || other == 'b' => {
                            // The default set-up areas of the open display.
                            let side = u8::from(other == 'b');
                            areas.push(Area {
                                mark: other,
                                name: format!("set-up area of side {}", side + 1),
                                side: Some(side),
                                entrance: false,
                                exit: false,
                                deck: 0,
                                room: false,
                                holds: Vec::new(),
                                capacity: None,
                                exit_sides: 0,
                                entrants_leave_elsewhere: false,
                                wait: 0,
                                staging: false,
                                dungeon: false,
                                throne: false,
                                secret: false,
                                squares: Vec::new(),
                            });
                            Cell::Area((areas.len() - 1) as u8)
                        }
                        None => {
                            return Err(err(
                                &format!("rows[{r}]"),
                                format!(
                                    "expected terrain ('.', '#', '+', ' ', '~', 'r', '^', '>', 'v', '<', '=', '%', ':') or the mark of an area in `areas` for each box, found {other:?} at column {c}"
                                ),
                            ));
                        }
                    },
                };
                if matches!(cell, Cell::Sky | Cell::Gap) && kind != DisplayKind::Flier {
                    return Err(err(
                        &format!("rows[{r}]"),
                        format!(
                            "expected sky (' ') and the gap between fliers ('~') only on a flier display, found {ch:?} at column {c}"
                        ),
                    ));
                }
                cells.push(cell);
            }
        }
        let (w, h) = (width as i16, height as i16);
        let cell = |x: i16, y: i16| cells[(y as usize) * width + x as usize];
        for (i, area) in areas.iter().enumerate() {
            let mut present = false;
            let mut on_edge = false;
            for y in 0..h {
                for x in 0..w {
                    if cell(x, y) == Cell::Area(i as u8) {
                        present = true;
                        on_edge |= x == 0 || y == 0 || x == w - 1 || y == h - 1;
                    }
                }
            }
            if !present {
                return Err(err(
                    &format!("areas[{i}].mark"),
                    format!(
                        "expected the mark {:?} somewhere in the rows, found none",
                        area.mark
                    ),
                ));
            }
            if area.exit && !on_edge {
                return Err(err(
                    &format!("areas[{i}].exit"),
                    format!(
                        "expected an exit ({}) to reach the edge of the display [5.18], found it inside",
                        area.name
                    ),
                ));
            }
            if area.exit && matches!(kind, DisplayKind::Open | DisplayKind::Flier) {
                return Err(err(
                    &format!("areas[{i}].exit"),
                    format!(
                        "expected no exit on the {} display: no one escapes the open display or a flier [5.18], found {}",
                        raw.kind, area.name
                    ),
                ));
            }
            if area.staging && (kind != DisplayKind::Flier || area.side.is_none()) {
                return Err(err(
                    &format!("areas[{i}].staging"),
                    format!(
                        "expected the staging area ({}) on a flier display with the side that sets up there [5.51, 7.23]",
                        area.name
                    ),
                ));
            }
            if area.dungeon && !cells.contains(&Cell::Locked) {
                return Err(err(
                    &format!("areas[{i}].dungeon"),
                    format!(
                        "expected the dungeon ({}) to have a door ('=' boxes) that a hero must open [5.55], found none",
                        area.name
                    ),
                ));
            }
            if area.dungeon && !cells.contains(&Cell::Manacles) {
                return Err(err(
                    &format!("areas[{i}].dungeon"),
                    format!(
                        "expected manacles ('%' wall boxes) in the dungeon ({}) to chain prisoners to [5.55], found none",
                        area.name
                    ),
                ));
            }
        }
        if kind == DisplayKind::Flier {
            for deck in 1..=2u8 {
                if !areas.iter().any(|a| a.deck == deck) {
                    return Err(err(
                        "areas",
                        format!(
                            "expected an area with deck = {deck} on a flier display [7.23], found none"
                        ),
                    ));
                }
            }
        }
        if cells.contains(&Cell::Secret) && !areas.iter().any(|a| a.secret && a.exit) {
            return Err(err(
                "areas",
                "expected a secret passageway (':' boxes) to end in an exit area with secret = true [5.54], found none".into(),
            ));
        }
        for a in &mut areas {
            if a.exit && a.exit_sides == 0 {
                a.exit_sides = 0b11;
            }
        }
        let display = Self::assemble(raw.name, kind, w, h, cells, areas, Openings::default());
        for (side, squares) in display.setup.iter().enumerate() {
            if squares.is_empty() {
                return Err(err(
                    "rows",
                    format!(
                        "expected a 4x4 set-up square of side {} (an area with side = {}, or 'a'/'b'), found none",
                        side + 1,
                        side + 1
                    ),
                ));
            }
        }
        Ok(display)
    }

    /// The same display with the dungeon door, the secret passageways and
    /// the staging area open or closed as `openings` says [5.51, 5.54,
    /// 5.55].
    pub fn with_openings(&self, openings: Openings) -> Display {
        Self::assemble(
            self.name.clone(),
            self.kind,
            self.width,
            self.height,
            self.drawn.clone(),
            self.areas.clone(),
            openings,
        )
    }

    /// The same display with sky wherever `f` holds for the box as drawn
    /// (Woola's flier [19.13]).
    pub fn with_sky_where(&self, f: impl Fn(Cell) -> bool) -> Display {
        Self::assemble(
            self.name.clone(),
            self.kind,
            self.width,
            self.height,
            self.drawn
                .iter()
                .map(|&c| if f(c) { Cell::Sky } else { c })
                .collect(),
            self.areas.clone(),
            self.openings,
        )
    }

    /// What the doors, passageways and staging area are now.
    pub fn openings(&self) -> Openings {
        self.openings
    }

    /// Whether the display has a dungeon door or secret passageways, whose
    /// state changes where counters may go.
    pub fn has_openings(&self) -> bool {
        self.drawn
            .iter()
            .any(|c| matches!(c, Cell::Locked | Cell::Secret))
            || self.areas.iter().any(|a| a.secret)
    }

    /// The box as it plays under `openings`: a shut door is a wall, an
    /// open one a doorway; a secret passageway is a wall unless open; the
    /// staging area is sky unless in play.
    fn effective(cell: Cell, areas: &[Area], openings: Openings) -> Cell {
        match cell {
            Cell::Locked if openings.dungeon_door => Cell::Door,
            Cell::Secret if openings.secret_passages => Cell::Floor,
            Cell::Secret => Cell::Wall,
            Cell::Area(k) => {
                let area = &areas[usize::from(k)];
                if area.secret && !openings.secret_passages {
                    Cell::Wall
                } else if area.staging && !openings.staging_area {
                    Cell::Sky
                } else {
                    cell
                }
            }
            other => other,
        }
    }

    /// Everything derived from the boxes: features, bit planes, one-movement
    /// windows, set-up squares, regions.
    fn assemble(
        name: String,
        kind: DisplayKind,
        w: i16,
        h: i16,
        drawn: Vec<Cell>,
        mut areas: Vec<Area>,
        openings: Openings,
    ) -> Display {
        let (width, height) = (w as usize, h as usize);
        let cells: Vec<Cell> = drawn
            .iter()
            .map(|&c| Self::effective(c, &areas, openings))
            .collect();
        let cell = |x: i16, y: i16| cells[(y as usize) * width + x as usize];
        let features = Self::features_of(&cells, w, h, &areas);
        let planes = Self::planes_of(&features, width, height);
        let mut setup: [Vec<(i16, i16)>; 2] = Default::default();
        for (i, area) in areas.iter_mut().enumerate() {
            area.squares = Self::squares_of(|x, y| cell(x, y) == Cell::Area(i as u8), w, h);
            if let Some(side) = area.side {
                setup[usize::from(side)].extend_from_slice(&area.squares);
            }
        }
        let wall_free = !cells.iter().any(|c| {
            matches!(
                c,
                Cell::Wall | Cell::Sky | Cell::Restricted | Cell::Locked | Cell::Manacles
            )
        });
        let open_ground = !cells
            .iter()
            .any(|c| matches!(c, Cell::Wall | Cell::Sky | Cell::Locked | Cell::Manacles));
        let obstacles = cells.iter().any(|c| match c {
            Cell::Door | Cell::Ramp(_) => true,
            Cell::Area(i) => areas[usize::from(*i)].deck != 0 || areas[usize::from(*i)].staging,
            _ => false,
        });
        let has_restricted = cells.contains(&Cell::Restricted);
        let regions = Self::regions_of(&cells, width, height);
        let mut region_rooms =
            vec![false; usize::from(regions.iter().copied().max().unwrap_or(0)) + 1];
        for (i, c) in cells.iter().enumerate() {
            if let Cell::Area(k) = c
                && areas[usize::from(*k)].room
            {
                region_rooms[usize::from(regions[i])] = true;
            }
        }
        region_rooms[0] = false;
        let mut display = Display {
            regions,
            region_rooms,
            open_ground,
            wall_free,
            obstacles,
            has_restricted,
            name,
            kind,
            width: w,
            height: h,
            cells,
            drawn,
            openings,
            features,
            planes,
            movement_windows: Default::default(),
            areas,
            setup,
        };
        display.movement_windows = std::array::from_fn(|ok| display.movement_windows_of(ok == 1));
        display
    }

    /// The table of [`Display::movement_window`].
    fn movement_windows_of(&self, restricted_ok: bool) -> Vec<u128> {
        let half = STEPS_PER_MOVEMENT;
        let mut windows = Vec::with_capacity(self.width as usize * self.height as usize);
        for y in 0..self.height {
            for x in 0..self.width {
                let mut window = 0u128;
                for r in 0..=2 * half {
                    let row = self.window_row(
                        false,
                        restricted_ok,
                        y - half + r,
                        x - half,
                        2 * half as u32 + 1,
                    );
                    window |= u128::from(row) << (r as usize * (2 * half as usize + 1));
                }
                windows.push(window);
            }
        }
        windows
    }

    /// The 9×9 window of one movement around the top-left box `origin`
    /// (bit `row * 9 + column`, `origin` in the middle): where a counter may
    /// end a step; `None` off the display.
    #[inline]
    pub fn movement_window(&self, origin: (i16, i16), restricted_ok: bool) -> Option<u128> {
        let (x, y) = origin;
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return None;
        }
        Some(self.movement_windows[usize::from(restricted_ok)][self.index(x, y)])
    }

    /// Checks the declared areas.
    fn load_areas(
        raw: &[RawArea],
        err: &impl Fn(&str, String) -> ScenarioError,
    ) -> Result<Vec<Area>, ScenarioError> {
        let mut areas: Vec<Area> = Vec::new();
        for (i, a) in raw.iter().enumerate() {
            let field = |f: &str| format!("areas[{i}].{f}");
            let mut chars = a.mark.chars();
            let mark = match (chars.next(), chars.next()) {
                (Some(c), None) if !TERRAIN_MARKS.contains(c) && !c.is_whitespace() => c,
                _ => {
                    return Err(err(
                        &field("mark"),
                        format!(
                            "expected one character other than the terrain marks {TERRAIN_MARKS:?}, found {:?}",
                            a.mark
                        ),
                    ));
                }
            };
            if areas.iter().any(|b| b.mark == mark) {
                return Err(err(
                    &field("mark"),
                    format!("expected each area to have its own mark, found {mark:?} twice"),
                ));
            }
            let side = match a.side {
                None => None,
                Some(s @ 1..=2) => Some(s as u8 - 1),
                Some(s) => {
                    return Err(err(
                        &field("side"),
                        format!("expected 1 or 2 (the side that sets up here), found {s}"),
                    ));
                }
            };
            let deck = match a.deck {
                None => 0,
                Some(d @ 1..=2) => d as u8,
                Some(d) => {
                    return Err(err(
                        &field("deck"),
                        format!("expected flier deck 1 or 2, found {d}"),
                    ));
                }
            };
            let capacity = match a.capacity {
                None => None,
                Some(c @ 1..=64) => Some(c as usize),
                Some(c) => {
                    return Err(err(
                        &field("capacity"),
                        format!("expected 1 to 64 characters, found {c}"),
                    ));
                }
            };
            let mut exit_sides = 0u8;
            for &s in a.exit_sides.iter().flatten() {
                if !(1..=2).contains(&s) || !a.exit {
                    return Err(err(
                        &field("exit_sides"),
                        format!(
                            "expected sides 1 and/or 2 on an exit area (exit = true), found {s}"
                        ),
                    ));
                }
                exit_sides |= 1 << (s - 1);
            }
            let wait = match a.wait {
                None => 0,
                Some(t @ 0..=9) if a.exit => t as u8,
                Some(t) => {
                    return Err(err(
                        &field("wait"),
                        format!("expected 0 to 9 turns on an exit area (exit = true), found {t}"),
                    ));
                }
            };
            areas.push(Area {
                mark,
                name: a.name.clone(),
                side,
                entrance: a.entrance,
                exit: a.exit,
                deck,
                room: a.room,
                holds: a.holds.clone(),
                capacity,
                exit_sides,
                entrants_leave_elsewhere: a.entrants_leave_elsewhere,
                wait,
                staging: a.staging,
                dungeon: a.dungeon,
                throne: a.throne,
                secret: a.secret,
                squares: Vec::new(),
            });
        }
        Ok(areas)
    }

    /// Non-overlapping 4×4 squares wholly inside the boxes `inside`,
    /// packed row by row, nearest the middle of the display first.
    fn squares_of(inside: impl Fn(i16, i16) -> bool, w: i16, h: i16) -> Vec<(i16, i16)> {
        let mut squares: Vec<(i16, i16)> = Vec::new();
        for y in 0..=h - COUNTER {
            for x in 0..=w - COUNTER {
                let whole = (0..COUNTER).all(|j| (0..COUNTER).all(|i| inside(x + i, y + j)));
                let clear = !squares
                    .iter()
                    .any(|&(sx, sy)| (sx - x).abs() < COUNTER && (sy - y).abs() < COUNTER);
                if whole && clear {
                    squares.push((x, y));
                }
            }
        }
        let (cx, cy) = (w - COUNTER, h - COUNTER);
        // The front row (nearest the middle of the display) first, and in a
        // row the squares nearest the middle column.
        squares.sort_by_key(|&(x, y)| ((2 * y - cy).abs(), (2 * x - cx).abs(), y, x));
        squares
    }

    /// What a counter at each top-left box covers and touches.
    fn features_of(cells: &[Cell], w: i16, h: i16, areas: &[Area]) -> Vec<u16> {
        let cell = |x: i16, y: i16| cells[(y as usize) * w as usize + x as usize];
        let mut features = vec![0u16; cells.len()];
        for y in 0..=h - COUNTER {
            for x in 0..=w - COUNTER {
                let mut f = F_OPEN | F_JUMP_OPEN | F_ROOM;
                for j in 0..COUNTER {
                    for i in 0..COUNTER {
                        match cell(x + i, y + j) {
                            Cell::Wall | Cell::Manacles => f &= !(F_OPEN | F_JUMP_OPEN),
                            Cell::Locked => f = (f & !(F_OPEN | F_JUMP_OPEN)) | F_DOOR,
                            Cell::Sky => f &= !F_OPEN,
                            Cell::Restricted => f |= F_RESTRICTED,
                            Cell::Door => f |= F_DOOR,
                            Cell::Ramp(d) => f |= 1 << (RAMP_SHIFT + u16::from(d)),
                            _ => {}
                        }
                        match cell(x + i, y + j) {
                            Cell::Area(k) => {
                                let area = &areas[usize::from(k)];
                                if area.exit {
                                    f |= F_EXIT;
                                }
                                if area.deck != 0 {
                                    f |= F_DECK1 << (area.deck - 1);
                                }
                                if area.staging {
                                    f |= F_STAGING;
                                }
                                if !area.room {
                                    f &= !F_ROOM;
                                }
                            }
                            _ => f &= !F_ROOM,
                        }
                    }
                }
                // Touching: any box of the ring around the counter.
                for j in -1..=COUNTER {
                    for i in -1..=COUNTER {
                        let (bx, by) = (x + i, y + j);
                        if (0..w).contains(&bx)
                            && (0..h).contains(&by)
                            && cell(bx, by) == Cell::Restricted
                        {
                            f |= F_NEAR_RESTRICTED;
                        }
                    }
                }
                features[(y as usize) * w as usize + x as usize] = f;
            }
        }
        features
    }

    /// The bit planes of [`Display::window_row`] from the features.
    fn planes_of(features: &[u16], width: usize, height: usize) -> [Vec<u64>; 4] {
        std::array::from_fn(|k| {
            let (jump, restricted_ok) = (k >= 2, k % 2 == 1);
            let mut plane = vec![0u64; height * PLANE_WORDS];
            for y in 0..height {
                for x in 0..width {
                    let f = features[y * width + x];
                    let open = f & if jump { F_JUMP_OPEN } else { F_OPEN } != 0;
                    if open && (restricted_ok || f & F_RESTRICTED == 0) {
                        let bit = x + PLANE_MARGIN;
                        plane[y * PLANE_WORDS + bit / 64] |= 1 << (bit % 64);
                    }
                }
            }
            plane
        })
    }

    /// Numbers the rooms and corridors: flood fill over the boxes that are
    /// not walls, doorways or sky.
    fn regions_of(cells: &[Cell], width: usize, height: usize) -> Vec<u16> {
        let inside = |i: usize| {
            !matches!(
                cells[i],
                Cell::Wall | Cell::Door | Cell::Sky | Cell::Locked | Cell::Manacles | Cell::Secret
            )
        };
        let mut regions = vec![0u16; cells.len()];
        let mut next = 0u16;
        let mut stack = Vec::new();
        for seed in 0..cells.len() {
            if regions[seed] != 0 || !inside(seed) {
                continue;
            }
            next += 1;
            regions[seed] = next;
            stack.push(seed);
            while let Some(i) = stack.pop() {
                let (x, y) = (i % width, i / width);
                let mut visit = |j: usize| {
                    if regions[j] == 0 && inside(j) {
                        regions[j] = next;
                        stack.push(j);
                    }
                };
                if x > 0 {
                    visit(i - 1);
                }
                if x + 1 < width {
                    visit(i + 1);
                }
                if y > 0 {
                    visit(i - width);
                }
                if y + 1 < height {
                    visit(i + width);
                }
            }
        }
        regions
    }

    /// The room or corridor of a counter at `(x, y)`: that of its central
    /// boxes (of any of its boxes if those are all in a doorway); 0 if none.
    pub fn region_of(&self, x: i16, y: i16) -> u16 {
        let w = self.width as usize;
        let at = |i: i16, j: i16| self.regions[(y + j) as usize * w + (x + i) as usize];
        if !self.open(x, y) {
            return 0;
        }
        [(1, 1), (2, 1), (1, 2), (2, 2)]
            .into_iter()
            .chain((0..COUNTER).flat_map(|j| (0..COUNTER).map(move |i| (i, j))))
            .map(|(i, j)| at(i, j))
            .find(|&r| r != 0)
            .unwrap_or(0)
    }

    /// Where a counter at `from` has a line of discovery to [6.22]: every
    /// top-left box a counter could reach from `from` by straight moves
    /// (ignoring other counters) turning at most one corner or crossing at
    /// most one doorway, not both. A corner is a change of direction; a
    /// doorway is crossed on stepping onto a doorway box from off one. The
    /// rule reads the same both ways, so the table serves either end.
    pub fn discovery_lines(&self, from: (i16, i16)) -> Vec<bool> {
        const START: usize = 4;
        let (w, h) = (self.width as usize, self.height as usize);
        let mut line = vec![false; w * h];
        if !self.open(from.0, from.1) {
            return line;
        }
        let mut best = vec![u8::MAX; w * h * 5];
        let mut queue = std::collections::VecDeque::new();
        let start = from.1 as usize * w + from.0 as usize;
        best[start * 5 + START] = 0;
        queue.push_back((start, START, 0u8));
        while let Some((p, dir, cost)) = queue.pop_front() {
            if best[p * 5 + dir] < cost {
                continue;
            }
            line[p] = true;
            let (x, y) = ((p % w) as i16, (p / w) as i16);
            let in_door = self.features(x, y) & F_DOOR != 0;
            for d in 0..4u8 {
                let (dx, dy) = from_frame(0, -1, d);
                let (nx, ny) = (x + dx, y + dy);
                if !self.open(nx, ny) {
                    continue;
                }
                let corner = u8::from(dir != START && dir != usize::from(d));
                let door = u8::from(!in_door && self.features(nx, ny) & F_DOOR != 0);
                let c = cost + corner + door;
                let q = ny as usize * w + nx as usize;
                let k = q * 5 + usize::from(d);
                if c <= 1 && c < best[k] {
                    best[k] = c;
                    if c == cost {
                        queue.push_front((q, usize::from(d), c));
                    } else {
                        queue.push_back((q, usize::from(d), c));
                    }
                }
            }
        }
        line
    }

    /// The index of top-left box `(x, y)` in a [`Display::discovery_lines`]
    /// table.
    #[inline]
    pub fn index(&self, x: i16, y: i16) -> usize {
        y as usize * self.width as usize + x as usize
    }

    /// The box at `(x, y)`.
    pub fn cell(&self, x: i16, y: i16) -> Cell {
        self.cells[(y as usize) * self.width as usize + x as usize]
    }

    /// What a counter with its top-left box at `(x, y)` covers (0 off the
    /// display).
    #[inline]
    fn features(&self, x: i16, y: i16) -> u16 {
        if x >= 0 && y >= 0 && x <= self.width - COUNTER && y <= self.height - COUNTER {
            self.features[(y as usize) * self.width as usize + x as usize]
        } else {
            0
        }
    }

    /// Whether a counter may stand with its top-left box at `(x, y)`
    /// (inside the display, over no wall or sky box).
    #[inline]
    pub fn open(&self, x: i16, y: i16) -> bool {
        self.features(x, y) & F_OPEN != 0
    }

    /// Whether a counter of a side with (`restricted_ok`) or without access
    /// to the restricted boxes [5.57] may stand at `(x, y)`.
    #[inline]
    pub fn open_for(&self, x: i16, y: i16, restricted_ok: bool) -> bool {
        let f = self.features(x, y);
        f & F_OPEN != 0 && (restricted_ok || f & F_RESTRICTED == 0)
    }

    /// Whether a counter at `(x, y)` covers or touches a restricted box
    /// [5.57].
    #[inline]
    pub fn near_restricted(&self, x: i16, y: i16) -> bool {
        self.features(x, y) & F_NEAR_RESTRICTED != 0
    }

    /// Whether a counter at `(x, y)` covers an exit box [5.18].
    #[inline]
    pub fn on_exit(&self, x: i16, y: i16) -> bool {
        self.features(x, y) & F_EXIT != 0
    }

    /// Whether a counter at `(x, y)` lies wholly inside a room [7.24].
    #[inline]
    pub fn in_room(&self, x: i16, y: i16) -> bool {
        self.features(x, y) & F_ROOM != 0
    }

    /// The flier decks (bit 0 deck 1, bit 1 deck 2) a counter at `(x, y)`
    /// covers [5.52].
    #[inline]
    pub fn decks(&self, x: i16, y: i16) -> u8 {
        ((self.features(x, y) & F_DECKS) >> 6) as u8
    }

    /// Whether a melee from `attacker` on `target` (top-left boxes) is
    /// through a doorway, deck to deck, between the staging area and a
    /// flier, or up a ramp [7.34]: a counter
    /// standing in a doorway (our walls are a box thick, so the two touch
    /// the doorway only when one of them stands in it); counters on
    /// different decks; or either on a ramp with the blow struck against
    /// its arrow.
    #[inline(always)]
    pub fn obstructed(&self, attacker: (i16, i16), target: (i16, i16)) -> bool {
        self.obstacles && self.obstructed_by_features(attacker, target)
    }

    /// [`Display::obstructed`] on a display with doorways, decks, the
    /// staging area or ramps.
    fn obstructed_by_features(&self, attacker: (i16, i16), target: (i16, i16)) -> bool {
        let fa = self.features(attacker.0, attacker.1);
        let ft = self.features(target.0, target.1);
        if (fa | ft) & F_DOOR != 0 {
            return true;
        }
        let (da, dt) = (fa & F_DECKS, ft & F_DECKS);
        if da != 0 && dt != 0 && da & dt == 0 {
            return true;
        }
        // From the staging area into a flier or back [7.34].
        if (fa ^ ft) & F_STAGING != 0 && (da | dt) != 0 {
            return true;
        }
        let ramps = ((fa | ft) >> RAMP_SHIFT) & 0xF;
        let (dx, dy) = (target.0 - attacker.0, target.1 - attacker.1);
        (0..4u8).any(|d| {
            let (ax, ay) = from_frame(0, -1, d);
            ramps & (1 << d) != 0 && dx * ax + dy * ay < 0
        })
    }

    /// The areas whose boxes (as drawn) a counter at `(x, y)` covers, as a
    /// bit set by area index (the first 32 areas).
    pub fn areas_under(&self, x: i16, y: i16) -> u32 {
        let mut set = 0u32;
        if !(0..=self.width - COUNTER).contains(&x) || !(0..=self.height - COUNTER).contains(&y) {
            return set;
        }
        for j in 0..COUNTER {
            for i in 0..COUNTER {
                if let Cell::Area(k) = self.drawn[self.index(x + i, y + j)]
                    && k < 32
                {
                    set |= 1 << k;
                }
            }
        }
        set
    }

    /// Whether a counter at `(x, y)` touches (covers or borders) a box
    /// for which `f` holds: the door of the dungeon, manacles [5.55].
    pub fn touches(&self, x: i16, y: i16, f: impl Fn(Cell) -> bool) -> bool {
        (-1..=COUNTER).any(|j| {
            (-1..=COUNTER).any(|i| {
                let (bx, by) = (x + i, y + j);
                (0..self.width).contains(&bx)
                    && (0..self.height).contains(&by)
                    && f(self.drawn[by as usize * self.width as usize + bx as usize])
            })
        })
    }

    /// Whether a counter at `(x, y)` covers a box, as drawn, for which `f`
    /// holds (a secret passageway box [5.54]).
    pub fn covers_drawn(&self, x: i16, y: i16, f: impl Fn(Cell) -> bool) -> bool {
        (0..COUNTER).any(|j| {
            (0..COUNTER).any(|i| {
                let (bx, by) = (x + i, y + j);
                (0..self.width).contains(&bx)
                    && (0..self.height).contains(&by)
                    && f(self.drawn[by as usize * self.width as usize + bx as usize])
            })
        })
    }

    /// Whether a counter at `(x, y)` covers a box of the staging area
    /// [5.51].
    #[inline]
    pub fn in_staging(&self, x: i16, y: i16) -> bool {
        self.features(x, y) & F_STAGING != 0
    }

    /// Whether region `r` (from [`Display::region_of`]) is a room rather
    /// than a corridor [6.23].
    pub fn is_room(&self, r: u16) -> bool {
        self.region_rooms
            .get(usize::from(r))
            .copied()
            .unwrap_or(false)
    }

    /// Whether a straight line from the middle of a counter at `a` to the
    /// middle of one at `b` crosses no wall, doorway or sky box [6.23]
    /// (sampled at a quarter of a box).
    pub fn straight_line(&self, a: (i16, i16), b: (i16, i16)) -> bool {
        let (dx, dy) = (i32::from(b.0 - a.0), i32::from(b.1 - a.1));
        let n = 4 * dx.abs().max(dy.abs()).max(1);
        (0..=n).all(|k| {
            // The middle of the counter is the corner shared by its four
            // central boxes: (x + 2, y + 2) in box units; sample in quarters.
            let qx = 4 * (i32::from(a.0) + 2) + 4 * dx * k / n;
            let qy = 4 * (i32::from(a.1) + 2) + 4 * dy * k / n;
            [(qx, qy), (qx - 1, qy - 1)].into_iter().all(|(px, py)| {
                let (bx, by) = ((px / 4) as i16, (py / 4) as i16);
                (0..self.width).contains(&bx)
                    && (0..self.height).contains(&by)
                    && self.regions[self.index(bx, by)] != 0
            })
        })
    }

    /// Walking steps (one-box steps straight or diagonal, round walls,
    /// ignoring other counters) from every top-left box to the nearest one
    /// where `goal` holds; `u16::MAX` where none can be reached. Used to
    /// steer towards exits, the dungeon door and prisoners.
    pub fn distance_field(&self, goal: impl Fn(i16, i16) -> bool) -> Vec<u16> {
        let mut dist = Vec::new();
        self.distance_field_into(goal, &mut dist, &mut Vec::new());
        dist
    }

    /// [`Display::distance_field`] into reused buffers (`queue` is
    /// scratch).
    pub fn distance_field_into(
        &self,
        goal: impl Fn(i16, i16) -> bool,
        dist: &mut Vec<u16>,
        queue: &mut Vec<(i16, i16)>,
    ) {
        let (w, h) = (self.width, self.height);
        dist.clear();
        dist.resize(w as usize * h as usize, u16::MAX);
        queue.clear();
        for y in 0..h {
            for x in 0..w {
                if self.open(x, y) && goal(x, y) {
                    dist[self.index(x, y)] = 0;
                    queue.push((x, y));
                }
            }
        }
        let mut head = 0;
        while let Some(&(x, y)) = queue.get(head) {
            head += 1;
            let d = dist[self.index(x, y)] + 1;
            for (nx, ny) in (-1..=1).flat_map(|j| (-1..=1).map(move |i| (x + i, y + j))) {
                if self.open(nx, ny) && dist[self.index(nx, ny)] == u16::MAX {
                    dist[self.index(nx, ny)] = d;
                    queue.push((nx, ny));
                }
            }
        }
    }

    /// The top-left boxes `x0..x0 + span` of row `y` (`span` at most 64)
    /// where a counter may end a step (`jump` false) or a jump may pass
    /// (`jump` true), for a side barred from or free to enter the
    /// restricted boxes [5.57]: bit `i` for column `x0 + i`, none off the
    /// display.
    #[inline]
    pub fn window_row(&self, jump: bool, restricted_ok: bool, y: i16, x0: i16, span: u32) -> u64 {
        if y < 0 || y >= self.height || span == 0 {
            return 0;
        }
        let mask = u64::MAX >> (64 - span);
        let bit = i32::from(x0) + PLANE_MARGIN as i32;
        if bit < 0 || bit as usize + span as usize > (PLANE_WORDS - 1) * 64 {
            // Far off the display to the left or right: box by box.
            return (0..span).fold(0, |row, i| {
                let x = x0 + i as i16;
                let f = self.features(x, y);
                let open = f & if jump { F_JUMP_OPEN } else { F_OPEN } != 0;
                let ok = open && (restricted_ok || f & F_RESTRICTED == 0);
                row | u64::from(ok) << i
            });
        }
        let plane = &self.planes[2 * usize::from(jump) + usize::from(restricted_ok)];
        let word = y as usize * PLANE_WORDS + bit as usize / 64;
        let pair = u128::from(plane[word]) | u128::from(plane[word + 1]) << 64;
        (pair >> (bit % 64)) as u64 & mask
    }
}

/// Counters' top-left boxes as the geometry reads them: a list, or the
/// boxes a bit mask picks out of one (no copy into a list of their own).
pub trait Boxes: Copy {
    /// Calls `f(x, y)` for each box, in order.
    fn each(self, f: impl FnMut(i16, i16));
}

impl Boxes for &[(i16, i16)] {
    #[inline(always)]
    fn each(self, mut f: impl FnMut(i16, i16)) {
        for &(x, y) in self {
            f(x, y);
        }
    }
}

impl<const N: usize> Boxes for &[(i16, i16); N] {
    #[inline(always)]
    fn each(self, f: impl FnMut(i16, i16)) {
        self.as_slice().each(f);
    }
}

/// The boxes `boxes[i]` for each bit `i` of `among`, lowest first.
#[derive(Debug, Clone, Copy)]
pub struct Picked<'a> {
    /// Every counter's box.
    pub boxes: &'a [(i16, i16)],
    /// Which of them (bit per counter).
    pub among: u32,
}

impl Boxes for Picked<'_> {
    #[inline(always)]
    fn each(self, mut f: impl FnMut(i16, i16)) {
        let mut bits = self.among;
        while bits != 0 {
            let (x, y) = self.boxes[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            f(x, y);
        }
    }
}

/// Where a mover can end a phase: the boxes of the window around him that
/// he can walk to, and those only a jump over counters reaches
/// [5.11-5.16, 5.34]. The window is a bitboard: one `u128` of 9×9 boxes for
/// one movement (the hot case), one `u64` per row of 33×33 boxes for more.
#[derive(Debug, Clone, Copy)]
pub struct Reach {
    /// Top-left box of the mover.
    pub origin: (i16, i16),
    /// Window radius in boxes (steps allowed).
    pub radius: i16,
    field: Field,
}

/// The window as one bitboard type or the other. The large variant is
/// kept inline, not boxed: a reach is a stack value built once per action,
/// and boxing would allocate in the trial loop.
#[derive(Debug, Clone, Copy)]
#[allow(clippy::large_enum_variant)]
enum Field {
    Small(Sets<u128>),
    Large(Sets<Rows>),
}

/// Dispatches `$body` on the window's bitboard type, binding its sets.
macro_rules! with_sets {
    ($reach:expr, $sets:ident => $body:expr) => {
        match &$reach.field {
            Field::Small($sets) => $body,
            Field::Large($sets) => $body,
        }
    };
}

impl Reach {
    /// Computes the reach of a counter at `origin` allowed `steps` steps;
    /// `others` are the top-left boxes of every other counter on the
    /// display; `jumps` whether it may pass over them. Restricted boxes
    /// [5.57] are out of bounds.
    pub fn compute(
        display: &Display,
        origin: (i16, i16),
        steps: i16,
        others: &[(i16, i16)],
        jumps: bool,
    ) -> Self {
        Self::compute_for(display, origin, steps, others, jumps, false)
    }

    /// [`Reach::compute`] for a side that may (`restricted_ok`) or may not
    /// enter the restricted boxes [5.57]. A jump may also cross the sky
    /// between fliers [5.53].
    #[inline(always)]
    pub fn compute_for(
        display: &Display,
        origin: (i16, i16),
        steps: i16,
        others: impl Boxes,
        jumps: bool,
        restricted_ok: bool,
    ) -> Self {
        let radius = steps.clamp(0, MAX_RADIUS);
        let walls = Walls {
            display,
            origin,
            radius,
            restricted_ok,
        };
        // Each branch builds the whole value where it is returned: a
        // `Field` made first and moved in would copy the large window.
        if radius <= STEPS_PER_MOVEMENT {
            Self::small(&walls, others, jumps)
        } else {
            Self::large(&walls, others, jumps)
        }
    }

    /// [`Reach::compute_for`] within one movement (the hot case: built in
    /// place in the caller).
    #[inline(always)]
    fn small(walls: &Walls, others: impl Boxes, jumps: bool) -> Self {
        Reach {
            origin: walls.origin,
            radius: walls.radius,
            field: Field::Small(Sets::compute(walls, others, jumps)),
        }
    }

    /// [`Reach::compute_for`] beyond one movement.
    #[inline(never)]
    fn large(walls: &Walls, others: impl Boxes, jumps: bool) -> Self {
        Reach {
            origin: walls.origin,
            radius: walls.radius,
            field: Field::Large(Sets::compute(walls, others, jumps)),
        }
    }

    /// Steps to reach `(x, y)` without jumping, if reachable and free.
    pub fn walk_steps(&self, x: i16, y: i16) -> Option<u8> {
        with_sets!(self, sets => sets.steps(self.origin, x, y, false))
    }

    /// Steps to reach `(x, y)` by a jump over counters, if it can end there
    /// (`None` for a reach computed without jumps).
    pub fn jump_steps(&self, x: i16, y: i16) -> Option<u8> {
        with_sets!(self, sets => sets.steps(self.origin, x, y, true))
    }

    /// Whether `(x, y)` can be walked to in at most `steps` steps and is
    /// free.
    #[inline]
    pub fn walks_within(&self, x: i16, y: i16, steps: u8) -> bool {
        if i16::from(steps) >= self.radius {
            with_sets!(self, sets => {
                let (c, r) = window_box(sets.walk, self.origin, x, y);
                sets.walk.has(c, r)
            })
        } else {
            self.walk_steps(x, y).is_some_and(|k| k <= steps)
        }
    }

    /// Which of `boxes` (at most 32) [`Reach::walks_within`] accepts: bit
    /// `i` for `boxes[i]`.
    #[inline]
    pub fn walkable(&self, boxes: &[(i16, i16)], steps: u8) -> u32 {
        if i16::from(steps) < self.radius {
            return boxes.iter().enumerate().fold(0, |bits, (i, &(x, y))| {
                bits | u32::from(self.walks_within(x, y, steps)) << i
            });
        }
        with_sets!(self, sets => {
            let mut bits = 0;
            for (i, &(x, y)) in boxes.iter().enumerate() {
                let (c, r) = window_box(sets.walk, self.origin, x, y);
                bits |= u32::from(sets.walk.has(c, r)) << i;
            }
            bits
        })
    }

    /// Every box reachable within `steps` steps, walking or (if `jump` and
    /// computed with jumps) only by jumping: `(x, y, jumped)`, in a fixed
    /// order (rows, then columns). Calls `f` for each.
    #[inline]
    pub fn for_each(&self, steps: u8, jump: bool, f: impl FnMut(i16, i16, bool)) {
        with_sets!(self, sets => {
            let (walk, jumped) = sets.ends(i16::from(steps), self.radius, jump);
            for_each_box(walk, jumped, self.origin, f)
        })
    }

    /// [`Reach::first_within`] of one movement without jumps (its whole
    /// window) for the first `d` of `ds` that has a box: the first box
    /// within `d` of one of `centres` that a counter at `origin` reaches in
    /// one movement, `others` the counters on the display. Reads only the
    /// free boxes while the first free box of a `d` has a free shortest
    /// path from the mover (diagonal steps, then straight, or the other
    /// way round: the reach holds it and nothing before it); spreads the
    /// reach otherwise.
    #[inline]
    pub fn first_within_one_movement(
        display: &Display,
        origin: (i16, i16),
        others: impl Boxes,
        restricted_ok: bool,
        centres: impl Boxes,
        ds: std::ops::Range<i16>,
    ) -> Option<(i16, i16)> {
        let walls = Walls {
            display,
            origin,
            radius: STEPS_PER_MOVEMENT,
            restricted_ok,
        };
        let free = Sets::<u128>::free(&walls, others);
        for d in ds.clone() {
            let Some((x, y, _)) = first_near(free, 0, origin, centres, d) else {
                continue;
            };
            let (c, r) = window_box(free, origin, x, y);
            let [diagonal_first, straight_first] = SMALL_PATHS[(r * SMALL as i16 + c) as usize];
            if free & diagonal_first == diagonal_first || free & straight_first == straight_first {
                return Some((x, y));
            }
            return Self::first_walked_within(free, origin, centres, d..ds.end);
        }
        None
    }

    /// The rest of [`Reach::first_within_one_movement`] once a free box
    /// is not walked to straight: the same search over the boxes the
    /// mover walks to round the counters. Kept out of line so that the
    /// straight case does not pay for the spread.
    #[inline(never)]
    fn first_walked_within(
        free: u128,
        origin: (i16, i16),
        centres: impl Boxes,
        ds: std::ops::Range<i16>,
    ) -> Option<(i16, i16)> {
        let walk = spread(Sets::<u128>::centre(), free, STEPS_PER_MOVEMENT);
        ds.into_iter()
            .find_map(|d| first_near(walk, 0, origin, centres, d))
            .map(|(x, y, _)| (x, y))
    }

    /// The first box of [`Reach::for_each`] (`steps` and `jump` as there)
    /// that `accept` takes among those nearest by walking to one of `goals`,
    /// and nearer than the mover's own box: [`Walked::To`]; else whether
    /// he is as near as he can come ([`Walked::Stay`]) or no walk leads
    /// from the goals to him ([`Walked::NoWay`]). Walking is by
    /// king steps through the boxes where a counter may stand on `display`
    /// (open to a side with or without `restricted_ok` [5.57]) clear of the
    /// counters at `blockers` [5.15]; goals he could not stand on do not
    /// count. A breadth-first search over bit rows of the display, a layer
    /// of equal distance at a time, that stops at the layer reaching him.
    #[allow(clippy::too_many_arguments)]
    pub fn nearest_walking(
        &self,
        display: &Display,
        restricted_ok: bool,
        blockers: &[(i16, i16)],
        goals: &[(i16, i16)],
        (steps, jump): (u8, bool),
        scratch: &mut WalkScratch,
        accept: impl FnMut(i16, i16) -> bool,
    ) -> Walked {
        let search = Walking {
            display,
            restricted_ok,
            blockers,
            goals,
            origin: self.origin,
        };
        with_sets!(self, sets => {
            let (walk, jumped) = sets.ends(i16::from(steps), self.radius, jump);
            match (display.width as usize).div_ceil(64) {
                1 => search.run::<_, 1>(walk.or(jumped), jumped, scratch, accept),
                2 => search.run::<_, 2>(walk.or(jumped), jumped, scratch, accept),
                3 => search.run::<_, 3>(walk.or(jumped), jumped, scratch, accept),
                _ => search.run::<_, ROW_WORDS>(walk.or(jumped), jumped, scratch, accept),
            }
        })
    }

    /// The first box in [`Reach::for_each`] order (`steps` and `jump` as
    /// there) within `d` boxes, by the larger of the row and column
    /// distances, of one of the top-left boxes `centres`: `(x, y, jumped)`.
    #[inline]
    pub fn first_within(
        &self,
        steps: u8,
        jump: bool,
        centres: impl Boxes,
        d: i16,
    ) -> Option<(i16, i16, bool)> {
        with_sets!(self, sets => {
            let (walk, jumped) = sets.ends(i16::from(steps), self.radius, jump);
            first_near(walk.or(jumped), jumped, self.origin, centres, d)
        })
    }
}

/// Words of a display row as a bit set: bit `x % 64` of word `x / 64`.
const ROW_WORDS: usize = MAX_DISPLAY.div_ceil(64);

/// A display row as a bit set.
type BitRow = [u64; ROW_WORDS];

/// What [`Reach::nearest_walking`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walked {
    /// The box to move to, `(x, y, jumped)`.
    To(i16, i16, bool),
    /// None nearer than where he stands: he is as near as walking brings
    /// him.
    Stay,
    /// No walk leads from the goals to him (walls and counters shut them
    /// off).
    NoWay,
}

impl Walked {
    /// The box to move to, if any.
    pub fn to(self) -> Option<(i16, i16, bool)> {
        match self {
            Walked::To(x, y, jumped) => Some((x, y, jumped)),
            Walked::Stay | Walked::NoWay => None,
        }
    }
}

/// Reused buffers of [`Reach::nearest_walking`], one bit row per display
/// row: where a counter may walk, where the search has been, its last
/// layer and the next.
#[derive(Debug, Default)]
pub struct WalkScratch {
    passable: Vec<BitRow>,
    reached: Vec<BitRow>,
    frontier: Vec<BitRow>,
    next: Vec<BitRow>,
}

/// The walking search of [`Reach::nearest_walking`].
struct Walking<'a> {
    display: &'a Display,
    restricted_ok: bool,
    blockers: &'a [(i16, i16)],
    goals: &'a [(i16, i16)],
    origin: (i16, i16),
}

impl Walking<'_> {
    /// Searches a display `W` words wide for the first box of `ends`
    /// (rows first) that `accept` takes, layer by layer.
    fn run<B: Board, const W: usize>(
        &self,
        ends: B,
        jumped: B,
        sc: &mut WalkScratch,
        mut accept: impl FnMut(i16, i16) -> bool,
    ) -> Walked {
        let display = self.display;
        let (w, h) = (display.width, display.height as usize);
        for rows in [
            &mut sc.passable,
            &mut sc.reached,
            &mut sc.frontier,
            &mut sc.next,
        ] {
            rows.clear();
            rows.resize(h, [0; ROW_WORDS]);
        }
        let plane = &display.planes[usize::from(self.restricted_ok)];
        const FIRST: usize = PLANE_MARGIN / 64;
        for (y, row) in sc.passable.iter_mut().enumerate() {
            row[..W].copy_from_slice(&plane[y * PLANE_WORDS + FIRST..][..W]);
        }
        for &(ox, oy) in self.blockers {
            let (x0, x1) = ((ox - COUNTER + 1).max(0), (ox + COUNTER - 1).min(w - 1));
            let (y0, y1) = (oy - COUNTER + 1, oy + COUNTER - 1);
            for y in y0.max(0)..=y1.min(h as i16 - 1) {
                clear_span::<W>(&mut sc.passable[y as usize], x0, x1);
            }
        }
        // The first layer: the goals he may stand on.
        let (mut lo, mut hi) = (h, 0);
        for &(x, y) in self.goals {
            if x < 0 || y < 0 || x >= w || y as usize >= h {
                continue;
            }
            let (y, word, bit) = (y as usize, x as usize / 64, 1u64 << (x % 64));
            if sc.passable[y][word] & bit != 0 {
                sc.frontier[y][word] |= bit;
                sc.reached[y][word] |= bit;
                (lo, hi) = (lo.min(y), hi.max(y));
            }
        }
        let half = B::HALF;
        let span = (2 * half + 1) as u32;
        let (wx, wy) = (self.origin.0 - half, self.origin.1 - half);
        let (sx, sy) = (self.origin.0 as usize, self.origin.1 as usize);
        while lo <= hi {
            // The mover's own layer: nothing nearer is left.
            if sy < h && sc.frontier[sy][sx / 64] >> (sx % 64) & 1 != 0 {
                return Walked::Stay;
            }
            let first = (lo as i16).max(wy);
            let last = (hi as i16).min(wy + span as i16 - 1);
            for y in first..=last {
                let r = (y - wy) as usize;
                let mut hits = ends.row(r) & bits_at::<W>(&sc.frontier[y as usize], wx, span);
                while hits != 0 {
                    let c = hits.trailing_zeros() as i16;
                    hits &= hits - 1;
                    if accept(wx + c, y) {
                        return Walked::To(wx + c, y, jumped.has(c, r as i16));
                    }
                }
            }
            // The next layer: a king step from this one, not yet reached.
            let (from, to) = (lo.saturating_sub(1), (hi + 1).min(h - 1));
            let spread_of = |row: &BitRow| -> [u64; W] {
                std::array::from_fn(|j| {
                    let mut v = row[j] | row[j] << 1 | row[j] >> 1;
                    if j > 0 {
                        v |= row[j - 1] >> 63;
                    }
                    if j + 1 < W {
                        v |= row[j + 1] << 63;
                    }
                    v
                })
            };
            let (mut above, mut here) = ([0u64; W], spread_of(&sc.frontier[from]));
            let (mut next_lo, mut next_hi) = (h, 0);
            for y in from..=to {
                let below = if y + 1 < h {
                    spread_of(&sc.frontier[y + 1])
                } else {
                    [0; W]
                };
                let mut any = 0;
                for j in 0..W {
                    let v = (above[j] | here[j] | below[j]) & sc.passable[y][j] & !sc.reached[y][j];
                    sc.next[y][j] = v;
                    sc.reached[y][j] |= v;
                    any |= v;
                }
                if any != 0 {
                    (next_lo, next_hi) = (next_lo.min(y), next_hi.max(y));
                }
                (above, here) = (here, below);
            }
            // The old layer's rows are cleared for its buffer's next use.
            for row in &mut sc.frontier[lo..=hi] {
                *row = [0; ROW_WORDS];
            }
            std::mem::swap(&mut sc.frontier, &mut sc.next);
            (lo, hi) = (next_lo, next_hi);
        }
        Walked::NoWay
    }
}

/// Clears the boxes `x0..=x1` (within the row) of a bit row.
#[inline]
fn clear_span<const W: usize>(row: &mut BitRow, x0: i16, x1: i16) {
    for x in x0..=x1 {
        let x = x as usize;
        if x / 64 < W {
            row[x / 64] &= !(1u64 << (x % 64));
        }
    }
}

/// The boxes `x0..x0 + span` of a bit row (`span` at most 64): bit `i`
/// for box `x0 + i`, none off the row.
#[inline]
fn bits_at<const W: usize>(row: &BitRow, x0: i16, span: u32) -> u64 {
    let mask = u64::MAX >> (64 - span);
    // Boxes left of the row shift the rest up.
    let (start, lead) = if x0 < 0 {
        (0usize, (-x0) as u32)
    } else {
        (x0 as usize, 0)
    };
    if lead >= span {
        return 0;
    }
    let word = start / 64;
    if word >= W {
        return 0;
    }
    let next = if word + 1 < W { row[word + 1] } else { 0 };
    let pair = u128::from(row[word]) | u128::from(next) << 64;
    (((pair >> (start % 64)) as u64) << lead) & mask
}

/// What the window's walls are: the display round a mover, how far he
/// goes and whether the restricted boxes are his to enter.
struct Walls<'a> {
    display: &'a Display,
    origin: (i16, i16),
    radius: i16,
    restricted_ok: bool,
}

impl Walls<'_> {
    /// The boxes of a window of `B` within the radius where a counter may
    /// end a step (`jump` false) or a jump may pass (`jump` true), read row
    /// by row from the display's planes.
    fn rows<B: Board>(&self, jump: bool) -> B {
        let (origin, radius) = (self.origin, self.radius);
        let span = (2 * radius + 1) as u32;
        let first = (B::HALF - radius) as u32;
        let mut open = B::EMPTY;
        for r in B::HALF - radius..=B::HALF + radius {
            let y = origin.1 - B::HALF + r;
            let row = self
                .display
                .window_row(jump, self.restricted_ok, y, origin.0 - radius, span);
            open.or_row(r as usize, row << first);
        }
        open
    }
}

/// The sets of one window.
#[derive(Debug, Clone, Copy)]
struct Sets<B> {
    /// Boxes a counter may end on: open for him and covered by no counter.
    free: B,
    /// Boxes a jump may pass through (no counters in the way); empty
    /// without jumps.
    over: B,
    /// Free boxes reached walking within the radius.
    walk: B,
    /// Free boxes reached jumping within the radius; empty without jumps.
    jump: B,
}

impl<B: Board> Sets<B> {
    #[inline(always)]
    fn compute(walls: &Walls, others: impl Boxes, jumps: bool) -> Self {
        let radius = walls.radius;
        let free = Self::free(walls, others);
        let mut over = if jumps {
            B::open(walls, true)
        } else {
            B::EMPTY
        };
        let centre = Self::centre();
        let walk = spread(centre, free, radius);
        let jump = if jumps {
            over = over.or(centre);
            spread(centre, over, radius).and(free)
        } else {
            B::EMPTY
        };
        Sets {
            free,
            over,
            walk,
            jump,
        }
    }

    /// The boxes a counter may end on: open for him and covered by none of
    /// the counters at `others`, and his own box.
    #[inline]
    fn free(walls: &Walls, others: impl Boxes) -> B {
        let origin = walls.origin;
        let mut free = B::open(walls, false);
        others.each(|ox, oy| free = free.and_not(B::covering(ox - origin.0, oy - origin.1)));
        free.or(Self::centre())
    }

    /// The ends within `steps` of a window of `radius`: walked to, and
    /// reached only by a jump (if `jump`).
    #[inline]
    fn ends(&self, steps: i16, radius: i16, jump: bool) -> (B, B) {
        let full = steps >= radius;
        let walk = if full {
            self.walk
        } else {
            spread(Self::centre(), self.free, steps)
        };
        let jumped = if !jump || self.jump == B::EMPTY {
            B::EMPTY
        } else if full {
            self.jump.and_not(walk)
        } else {
            spread(Self::centre(), self.over, steps)
                .and(self.free)
                .and_not(walk)
        };
        (walk, jumped)
    }

    /// The mover's box.
    #[inline]
    fn centre() -> B {
        B::rect(B::HALF, B::HALF, B::HALF, B::HALF)
    }

    /// Exact steps to `(x, y)` walking (or jumping), counted layer by layer.
    fn steps(&self, origin: (i16, i16), x: i16, y: i16, jump: bool) -> Option<u8> {
        let (c, r) = window_box(self.walk, origin, x, y);
        let (within, reached) = if jump {
            (self.over, self.jump)
        } else {
            (self.free, self.walk)
        };
        if !reached.has(c, r) {
            return None;
        }
        let mut layer = Self::centre();
        let mut k = 0u8;
        while !layer.has(c, r) {
            layer = layer.spread(within);
            k += 1;
        }
        Some(k)
    }
}

/// The window box `(column, row)` of `(x, y)`, possibly outside it.
#[inline]
fn window_box<B: Board>(_: B, origin: (i16, i16), x: i16, y: i16) -> (i16, i16) {
    (x - origin.0 + B::HALF, y - origin.1 + B::HALF)
}

/// The boxes `steps` king steps or fewer from `start` through `within`.
#[inline]
fn spread<B: Board>(start: B, within: B, steps: i16) -> B {
    let mut reached = start;
    for _ in 0..steps {
        let next = reached.spread(within);
        if next == reached {
            break;
        }
        reached = next;
    }
    reached
}

/// Calls `f(x, y, jumped)` for each box of `walk` and `jumped`, rows first.
#[inline]
fn for_each_box<B: Board>(
    walk: B,
    jumped: B,
    origin: (i16, i16),
    mut f: impl FnMut(i16, i16, bool),
) {
    let (x0, y0) = (origin.0 - B::HALF, origin.1 - B::HALF);
    walk.or(jumped)
        .for_each_bit(|c, r| f(x0 + c, y0 + r, jumped.has(c, r)));
}

/// The first box of `ends` (rows first) within `d` of one of `centres`.
#[inline]
fn first_near<B: Board>(
    ends: B,
    jumped: B,
    origin: (i16, i16),
    centres: impl Boxes,
    d: i16,
) -> Option<(i16, i16, bool)> {
    let (x0, y0) = (origin.0 - B::HALF, origin.1 - B::HALF);
    let mut near = B::EMPTY;
    centres.each(|x, y| near = near.or(B::rect(x - d - x0, x + d - x0, y - d - y0, y + d - y0)));
    let (c, r) = ends.and(near).first()?;
    Some((x0 + c, y0 + r, jumped.has(c, r)))
}

/// A set of boxes of a square movement window, `2 * HALF + 1` a side, the
/// mover's box in the middle: bit `column` of row `row`.
trait Board: Copy + PartialEq + std::fmt::Debug {
    /// Boxes from the middle of the window to its edge.
    const HALF: i16;
    /// No box.
    const EMPTY: Self;
    /// Adds the boxes `bits` (bit `c` for column `c`) to row `r`.
    fn or_row(&mut self, r: usize, bits: u64);
    /// The boxes within the radius where a counter may end a step (`jump`
    /// false) or a jump may pass (`jump` true).
    #[inline]
    fn open(walls: &Walls, jump: bool) -> Self {
        walls.rows(jump)
    }
    /// The boxes of columns `c0..=c1`, rows `r0..=r1`, clipped to the
    /// window.
    fn rect(c0: i16, c1: i16, r0: i16, r1: i16) -> Self;
    /// Every top-left box from which a counter would overlap one at
    /// `(dx, dy)` from the middle of the window [5.15].
    #[inline]
    fn covering(dx: i16, dy: i16) -> Self {
        Self::rect(
            Self::HALF + dx - COUNTER + 1,
            Self::HALF + dx + COUNTER - 1,
            Self::HALF + dy - COUNTER + 1,
            Self::HALF + dy + COUNTER - 1,
        )
    }
    /// Whether box `(c, r)` is in the set (false outside the window).
    fn has(&self, c: i16, r: i16) -> bool;
    /// Union.
    fn or(self, other: Self) -> Self;
    /// Intersection.
    fn and(self, other: Self) -> Self;
    /// Difference.
    fn and_not(self, other: Self) -> Self;
    /// The set and every box a king step from it, within `within`.
    fn spread(self, within: Self) -> Self;
    /// The first box, rows first.
    fn first(self) -> Option<(i16, i16)>;
    /// Calls `f(c, r)` for every box, rows first.
    fn for_each_bit(self, f: impl FnMut(i16, i16));
    /// The boxes of row `r` (bit `c` for column `c`).
    fn row(&self, r: usize) -> u64;
}

/// Side of the window of one movement (radius 4).
const SMALL: usize = 2 * STEPS_PER_MOVEMENT as usize + 1;
/// Bits of a 9×9 window as a `u128`, bit `row * 9 + column`.
const SMALL_ALL: u128 = (1u128 << (SMALL * SMALL)) - 1;
/// The first and last column of the 9×9 window.
const SMALL_COLUMNS: (u128, u128) = {
    let (mut first, mut last) = (0u128, 0u128);
    let mut row = 0;
    while row < SMALL {
        first |= 1 << (row * SMALL);
        last |= 1 << (row * SMALL + SMALL - 1);
        row += 1;
    }
    (first, last)
};

/// Columns `c0..=c1` of every row (`[c0][c1]`), then rows `r0..=r1` of
/// every column (`[9 + r0][r1]`), of the 9×9 window.
const SMALL_SPANS: [[u128; SMALL]; 2 * SMALL] = {
    let mut spans = [[0u128; SMALL]; 2 * SMALL];
    let mut lo = 0;
    while lo < SMALL {
        let (mut columns, mut rows) = (0u128, 0u128);
        let mut hi = lo;
        while hi < SMALL {
            let mut k = 0;
            while k < SMALL {
                columns |= 1 << (k * SMALL + hi);
                rows |= 1 << (hi * SMALL + k);
                k += 1;
            }
            spans[lo][hi] = columns;
            spans[SMALL + lo][hi] = rows;
            hi += 1;
        }
        lo += 1;
    }
    spans
};

/// The boxes of the 9×9 window in columns `c0..=c1` and rows `r0..=r1`
/// (clipped to the window).
const fn small_rect(c0: i16, c1: i16, r0: i16, r1: i16) -> u128 {
    let last = SMALL as i16 - 1;
    let c0 = if c0 < 0 { 0 } else { c0 };
    let r0 = if r0 < 0 { 0 } else { r0 };
    let c1 = if c1 > last { last } else { c1 };
    let r1 = if r1 > last { last } else { r1 };
    if c0 > c1 || r0 > r1 {
        return 0;
    }
    SMALL_SPANS[c0 as usize][c1 as usize] & SMALL_SPANS[SMALL + r0 as usize][r1 as usize]
}

/// The boxes of two king-step paths from the middle of the 9×9 window to
/// each of its boxes (`[row * 9 + column]`), ends included: diagonal steps
/// first and then straight ones, or straight first. Either is as short as
/// any path there, so a mover whose free boxes hold one of them walks
/// there within one movement.
const SMALL_PATHS: [[u128; 2]; SMALL * SMALL] = {
    let mut paths = [[0u128; 2]; SMALL * SMALL];
    let half = STEPS_PER_MOVEMENT;
    let mut r = 0;
    while r < SMALL as i16 {
        let mut c = 0;
        while c < SMALL as i16 {
            let (dc, dr) = (c - half, r - half);
            let (sc, sr) = (dc.signum(), dr.signum());
            let (ac, ar) = (dc.abs(), dr.abs());
            let diagonal = if ac < ar { ac } else { ar };
            let straight = if ac < ar { ar - ac } else { ac - ar };
            // The straight part runs along the longer axis.
            let (tc, tr) = if ac >= ar { (sc, 0) } else { (0, sr) };
            let mut which = 0;
            while which < 2 {
                let (mut x, mut y) = (half, half);
                let mut set = 1u128 << (y * SMALL as i16 + x);
                let mut k = 0;
                while k < diagonal + straight {
                    let diagonal_now = if which == 0 {
                        k < diagonal
                    } else {
                        k >= straight
                    };
                    if diagonal_now {
                        x += sc;
                        y += sr;
                    } else {
                        x += tc;
                        y += tr;
                    }
                    set |= 1u128 << (y * SMALL as i16 + x);
                    k += 1;
                }
                paths[(r * SMALL as i16 + c) as usize][which] = set;
                which += 1;
            }
            c += 1;
        }
        r += 1;
    }
    paths
};

/// How far a counter may stand from the middle of the 9×9 window, either
/// way, and still cover a box of it.
const COVERING_REACH: i16 = STEPS_PER_MOVEMENT + COUNTER - 1;

/// [`Board::covering`] for the 9×9 window, by offset from the middle
/// (`dx`, `dy` within [`COVERING_REACH`] either way; further, none).
const SMALL_COVERING: [u128; 15 * 15] = {
    let reach = COVERING_REACH;
    let mut table = [0u128; 15 * 15];
    let mut dy = -reach;
    while dy <= reach {
        let mut dx = -reach;
        while dx <= reach {
            let (c, r) = (STEPS_PER_MOVEMENT + dx, STEPS_PER_MOVEMENT + dy);
            table[((dy + reach) * (2 * reach + 1) + dx + reach) as usize] = small_rect(
                c - COUNTER + 1,
                c + COUNTER - 1,
                r - COUNTER + 1,
                r + COUNTER - 1,
            );
            dx += 1;
        }
        dy += 1;
    }
    table
};

/// The one-movement window: 9×9 boxes in a `u128`, bit `row * 9 + column`.
impl Board for u128 {
    const HALF: i16 = STEPS_PER_MOVEMENT;
    const EMPTY: Self = 0;

    #[inline]
    fn or_row(&mut self, r: usize, bits: u64) {
        *self |= u128::from(bits) << (r * SMALL);
    }

    #[inline]
    fn covering(dx: i16, dy: i16) -> Self {
        let reach = COVERING_REACH;
        if dx.abs() > reach || dy.abs() > reach {
            return 0;
        }
        SMALL_COVERING[((dy + reach) * (2 * reach + 1) + dx + reach) as usize]
    }

    /// A whole movement's window of a counter on the display, walking:
    /// from the display's table.
    #[inline]
    fn open(walls: &Walls, jump: bool) -> Self {
        if !jump
            && walls.radius == Self::HALF
            && let Some(window) = walls
                .display
                .movement_window(walls.origin, walls.restricted_ok)
        {
            return window;
        }
        walls.rows(jump)
    }

    #[inline]
    fn rect(c0: i16, c1: i16, r0: i16, r1: i16) -> Self {
        small_rect(c0, c1, r0, r1)
    }

    #[inline]
    fn has(&self, c: i16, r: i16) -> bool {
        (0..SMALL as i16).contains(&c)
            && (0..SMALL as i16).contains(&r)
            && self >> (r as usize * SMALL + c as usize) & 1 != 0
    }

    #[inline]
    fn or(self, other: Self) -> Self {
        self | other
    }

    #[inline]
    fn and(self, other: Self) -> Self {
        self & other
    }

    #[inline]
    fn and_not(self, other: Self) -> Self {
        self & !other
    }

    #[inline]
    fn spread(self, within: Self) -> Self {
        let row = self | (self & !SMALL_COLUMNS.0) >> 1 | (self & !SMALL_COLUMNS.1) << 1;
        (row | row >> SMALL | row << SMALL) & SMALL_ALL & within
    }

    #[inline]
    fn first(self) -> Option<(i16, i16)> {
        (self != 0).then(|| {
            let bit = self.trailing_zeros() as i16;
            (bit % SMALL as i16, bit / SMALL as i16)
        })
    }

    #[inline]
    fn for_each_bit(self, mut f: impl FnMut(i16, i16)) {
        let mut bits = self;
        while bits != 0 {
            let bit = bits.trailing_zeros() as i16;
            f(bit % SMALL as i16, bit / SMALL as i16);
            bits &= bits - 1;
        }
    }

    #[inline]
    fn row(&self, r: usize) -> u64 {
        (self >> (r * SMALL)) as u64 & ((1 << SMALL) - 1)
    }
}

/// Side of the largest movement window (radius 16).
const LARGE: usize = WINDOW;
/// The columns of a row of the largest window.
const LARGE_ROW: u64 = (1u64 << LARGE) - 1;

/// The window of several movements: one `u64` per row of 33 boxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rows([u64; LARGE]);

impl Board for Rows {
    const HALF: i16 = MAX_RADIUS;
    const EMPTY: Self = Rows([0; LARGE]);

    #[inline]
    fn or_row(&mut self, r: usize, bits: u64) {
        self.0[r] |= bits;
    }

    fn rect(c0: i16, c1: i16, r0: i16, r1: i16) -> Self {
        let last = LARGE as i16 - 1;
        let (c0, c1, r0, r1) = (c0.max(0), c1.min(last), r0.max(0), r1.min(last));
        let mut rect = Self::EMPTY;
        if c0 <= c1 {
            let row = (LARGE_ROW >> (last - c1)) & !((1u64 << c0) - 1);
            for r in r0..=r1 {
                rect.0[r as usize] = row;
            }
        }
        rect
    }

    #[inline]
    fn has(&self, c: i16, r: i16) -> bool {
        (0..LARGE as i16).contains(&c)
            && (0..LARGE as i16).contains(&r)
            && self.0[r as usize] >> c & 1 != 0
    }

    fn or(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        self
    }

    fn and(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= b;
        }
        self
    }

    fn and_not(mut self, other: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
        self
    }

    fn spread(self, within: Self) -> Self {
        let wide = self.0.map(|row| (row | row << 1 | row >> 1) & LARGE_ROW);
        let mut next = Self::EMPTY;
        for r in 0..LARGE {
            let above = if r > 0 { wide[r - 1] } else { 0 };
            let below = if r + 1 < LARGE { wide[r + 1] } else { 0 };
            next.0[r] = (above | wide[r] | below) & within.0[r];
        }
        next
    }

    fn first(self) -> Option<(i16, i16)> {
        let r = self.0.iter().position(|&row| row != 0)?;
        Some((self.0[r].trailing_zeros() as i16, r as i16))
    }

    fn for_each_bit(self, mut f: impl FnMut(i16, i16)) {
        for (r, &row) in self.0.iter().enumerate() {
            let mut bits = row;
            while bits != 0 {
                f(bits.trailing_zeros() as i16, r as i16);
                bits &= bits - 1;
            }
        }
    }

    #[inline]
    fn row(&self, r: usize) -> u64 {
        self.0[r]
    }
}
