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
fn to_frame(dx: i16, dy: i16, facing: u8) -> (i16, i16) {
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
pub fn from_frame(fx: i16, fy: i16, facing: u8) -> (i16, i16) {
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

/// The positions [7.41] that a counter `(dx, dy)` away (top-left to
/// top-left) occupies around a counter facing `facing`: one position when
/// exact, two when it straddles them [7.42]; `None` if not adjacent.
#[inline]
pub fn positions_around(dx: i16, dy: i16, facing: u8) -> Option<PositionSet> {
    if !adjacent(dx, dy) {
        return None;
    }
    let (fx, fy) = to_frame(dx, dy, facing);
    let options = |v: i16| -> [i16; 2] {
        if v.abs() == COUNTER {
            [v.signum(); 2]
        } else if v == 0 {
            [0; 2]
        } else {
            [0, v.signum()]
        }
    };
    let mut set = 0;
    for sx in options(fx) {
        for sy in options(fy) {
            set |= 1 << NORTH_FRAME[((sx + 1) * 3 + (sy + 1)) as usize];
        }
    }
    Some(set)
}

/// The exact position `n` (1-8) around a counter facing `facing`, as a
/// top-left offset.
pub fn offset_of_position(n: u8, facing: u8) -> (i16, i16) {
    let i = NORTH_FRAME
        .iter()
        .position(|p| *p == n)
        .expect("positions are 1 to 8");
    let (sx, sy) = (i as i16 / 3 - 1, i as i16 % 3 - 1);
    from_frame(sx * COUNTER, sy * COUNTER, facing)
}

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
    /// Prefix sums over top-left boxes of those a counter may not always
    /// stand on (a wall, sky or restricted box): `(width + 1) * (height + 1)`.
    blocked_sums: Vec<u32>,
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

    /// Everything derived from the boxes: features, prefix sums, set-up
    /// squares, regions.
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
        let blocked = |f: u16| f & F_OPEN == 0 || f & F_RESTRICTED != 0;
        let mut blocked_sums = vec![0u32; (width + 1) * (height + 1)];
        for y in 0..height {
            for x in 0..width {
                let here = u32::from(blocked(features[y * width + x]));
                blocked_sums[(y + 1) * (width + 1) + x + 1] = here
                    + blocked_sums[y * (width + 1) + x + 1]
                    + blocked_sums[(y + 1) * (width + 1) + x]
                    - blocked_sums[y * (width + 1) + x];
            }
        }
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
        Display {
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
            blocked_sums,
            areas,
            setup,
        }
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

    /// Whether a jump may pass a counter through `(x, y)`: no wall, and
    /// sky allowed [5.53].
    #[inline]
    fn jump_open(&self, x: i16, y: i16) -> bool {
        self.features(x, y) & F_JUMP_OPEN != 0
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
    #[inline]
    pub fn obstructed(&self, attacker: (i16, i16), target: (i16, i16)) -> bool {
        if !self.obstacles {
            return false;
        }
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

    /// Whether no top-left box in `x0..=x1`, `y0..=y1` (clamped to the
    /// display) is blocked by a wall, sky or restricted box.
    #[inline]
    fn clear(&self, x0: i16, y0: i16, x1: i16, y1: i16) -> bool {
        if self.wall_free {
            return true;
        }
        let (x0, y0) = (x0.max(0) as usize, y0.max(0) as usize);
        let x1 = x1.min(self.width - COUNTER);
        let y1 = y1.min(self.height - COUNTER);
        if x1 < 0 || y1 < 0 || x1 < x0 as i16 || y1 < y0 as i16 {
            return true;
        }
        let (x1, y1) = (x1 as usize + 1, y1 as usize + 1);
        let w = self.width as usize + 1;
        let s = &self.blocked_sums;
        s[y1 * w + x1] + s[y0 * w + x0] == s[y0 * w + x1] + s[y1 * w + x0]
    }
}

/// Steps needed to reach each box of the window around a mover, with and
/// without jumping over counters [5.11-5.16, 5.34].
pub struct Reach {
    /// Top-left box of the mover.
    pub origin: (i16, i16),
    /// Window radius in boxes (steps allowed).
    pub radius: i16,
    /// Steps on a path that passes over no counter; `u8::MAX`: unreachable.
    walk: [u8; WINDOW * WINDOW],
    /// Steps on a path that may pass over counters (a jump); the end must
    /// still be free.
    jump: [u8; WINDOW * WINDOW],
    /// Whether a counter may end at each box (open and free).
    free: [bool; WINDOW * WINDOW],
    /// No wall on the display and no other counter near: every box of the
    /// window inside the display is reached in the larger of its row and
    /// column distances (a straight king path stays inside the rectangle),
    /// and the arrays above are not filled.
    plain: bool,
    /// Largest top-left column and row on the display.
    bounds: (i16, i16),
}

impl Reach {
    /// Index of a window box.
    #[inline]
    fn index(&self, x: i16, y: i16) -> Option<usize> {
        let (dx, dy) = (x - self.origin.0, y - self.origin.1);
        if dx.abs() > self.radius || dy.abs() > self.radius {
            return None;
        }
        Some(((dy + MAX_RADIUS) as usize) * WINDOW + (dx + MAX_RADIUS) as usize)
    }

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
    pub fn compute_for(
        display: &Display,
        origin: (i16, i16),
        steps: i16,
        others: &[(i16, i16)],
        jumps: bool,
        restricted_ok: bool,
    ) -> Self {
        let radius = steps.clamp(0, MAX_RADIUS);
        let bounds = (display.width - COUNTER, display.height - COUNTER);
        // A counter within radius + 3 boxes (either axis) of the origin can
        // overlap a box of the window.
        let near = |&(ox, oy): &(i16, i16)| {
            (ox - origin.0).abs() < radius + COUNTER && (oy - origin.1).abs() < radius + COUNTER
        };
        let plain = display.clear(
            origin.0 - radius,
            origin.1 - radius,
            origin.0 + radius,
            origin.1 + radius,
        ) && !others.iter().any(near);
        let mut reach = Reach {
            origin,
            radius,
            walk: [u8::MAX; WINDOW * WINDOW],
            jump: [u8::MAX; WINDOW * WINDOW],
            free: [false; WINDOW * WINDOW],
            plain,
            bounds,
        };
        if plain {
            return reach;
        }
        let mut passable = [false; WINDOW * WINDOW];
        for dy in -radius..=radius {
            for dx in -radius..=radius {
                let i = ((dy + MAX_RADIUS) as usize) * WINDOW + (dx + MAX_RADIUS) as usize;
                passable[i] = display.open_for(origin.0 + dx, origin.1 + dy, restricted_ok);
            }
        }
        reach.free = passable;
        for &(ox, oy) in others {
            // Every top-left box from which a counter would overlap this one.
            for y in oy - COUNTER + 1..oy + COUNTER {
                for x in ox - COUNTER + 1..ox + COUNTER {
                    if let Some(i) = reach.index(x, y) {
                        reach.free[i] = false;
                    }
                }
            }
        }
        let start = reach
            .index(origin.0, origin.1)
            .expect("the origin is in its window");
        if radius <= STEPS_PER_MOVEMENT {
            small_bfs(&reach.free, radius, &mut reach.walk);
        } else {
            bfs(&reach.free, start, radius, &mut reach.walk);
        }
        if jumps {
            // A jump passes over counters and the sky [5.34, 5.53], but not
            // walls or forbidden restricted boxes.
            let mut over = passable;
            for dy in -radius..=radius {
                for dx in -radius..=radius {
                    let (x, y) = (origin.0 + dx, origin.1 + dy);
                    let i = ((dy + MAX_RADIUS) as usize) * WINDOW + (dx + MAX_RADIUS) as usize;
                    over[i] |= display.jump_open(x, y)
                        && (restricted_ok || display.features(x, y) & F_RESTRICTED == 0);
                }
            }
            bfs(&over, start, radius, &mut reach.jump);
        }
        reach.walk[start] = 0;
        reach.free[start] = true;
        reach
    }

    /// Steps to `(x, y)` on a plain field, if inside the window and the
    /// display.
    #[inline]
    fn plain_steps(&self, x: i16, y: i16) -> Option<u8> {
        let (dx, dy) = (x - self.origin.0, y - self.origin.1);
        let inside = (0..=self.bounds.0).contains(&x) && (0..=self.bounds.1).contains(&y);
        (inside && dx.abs() <= self.radius && dy.abs() <= self.radius)
            .then_some(dx.abs().max(dy.abs()) as u8)
    }

    /// Steps to reach `(x, y)` without jumping, if reachable and free.
    #[inline]
    pub fn walk_steps(&self, x: i16, y: i16) -> Option<u8> {
        if self.plain {
            return self.plain_steps(x, y);
        }
        let i = self.index(x, y)?;
        (self.walk[i] != u8::MAX && self.free[i]).then_some(self.walk[i])
    }

    /// Steps to reach `(x, y)` by a jump over counters, if it can end there.
    #[inline]
    pub fn jump_steps(&self, x: i16, y: i16) -> Option<u8> {
        if self.plain {
            return self.plain_steps(x, y);
        }
        let i = self.index(x, y)?;
        (self.jump[i] != u8::MAX && self.free[i]).then_some(self.jump[i])
    }

    /// Every box reachable within `steps` steps, walking or (if `jump_from`
    /// is set and at most the steps) jumping: `(x, y, jumped)`, in a fixed
    /// order (rows, then columns). Calls `f` for each.
    #[inline]
    pub fn for_each(&self, steps: u8, jump: bool, mut f: impl FnMut(i16, i16, bool)) {
        let r = self.radius.min(i16::from(steps));
        if self.plain {
            let (x0, x1) = (
                (self.origin.0 - r).max(0),
                (self.origin.0 + r).min(self.bounds.0),
            );
            let (y0, y1) = (
                (self.origin.1 - r).max(0),
                (self.origin.1 + r).min(self.bounds.1),
            );
            for y in y0..=y1 {
                for x in x0..=x1 {
                    f(x, y, false);
                }
            }
            return;
        }
        for dy in -r..=r {
            for dx in -r..=r {
                let (x, y) = (self.origin.0 + dx, self.origin.1 + dy);
                let i = ((dy + MAX_RADIUS) as usize) * WINDOW + (dx + MAX_RADIUS) as usize;
                if !self.free[i] {
                    continue;
                }
                if self.walk[i] <= steps {
                    f(x, y, false);
                } else if jump && self.jump[i] <= steps && self.jump[i] != u8::MAX {
                    f(x, y, true);
                }
            }
        }
    }
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

/// The same breadth-first steps as [`bfs`] for a radius of at most one
/// movement, on a 9×9 bitboard: each step spreads the reached set to its
/// eight neighbours (no wrap across columns) within the passable boxes.
fn small_bfs(passable: &[bool; WINDOW * WINDOW], radius: i16, dist: &mut [u8; WINDOW * WINDOW]) {
    let offset = (MAX_RADIUS - STEPS_PER_MOVEMENT) as usize;
    let window = |bit: usize| (bit / SMALL + offset) * WINDOW + bit % SMALL + offset;
    let mut open = 0u128;
    for bit in 0..SMALL * SMALL {
        if passable[window(bit)] {
            open |= 1 << bit;
        }
    }
    let centre = SMALL * SMALL / 2;
    let mut reached = 1u128 << centre;
    dist[window(centre)] = 0;
    for step in 1..=radius as u8 {
        let row = reached | (reached & !SMALL_COLUMNS.0) >> 1 | (reached & !SMALL_COLUMNS.1) << 1;
        let spread = (row | row >> SMALL | row << SMALL) & SMALL_ALL & open;
        let mut fresh = spread & !reached;
        if fresh == 0 {
            break;
        }
        reached |= fresh;
        while fresh != 0 {
            let bit = fresh.trailing_zeros() as usize;
            dist[window(bit)] = step;
            fresh &= fresh - 1;
        }
    }
}

/// Breadth-first steps (king moves) from `start` over `passable` boxes,
/// at most `radius` steps.
fn bfs(
    passable: &[bool; WINDOW * WINDOW],
    start: usize,
    radius: i16,
    dist: &mut [u8; WINDOW * WINDOW],
) {
    let mut queue = [0u16; WINDOW * WINDOW];
    let (mut head, mut tail) = (0usize, 0usize);
    dist[start] = 0;
    queue[tail] = start as u16;
    tail += 1;
    let lo = (MAX_RADIUS - radius) as usize;
    let hi = (MAX_RADIUS + radius) as usize;
    while head < tail {
        let i = usize::from(queue[head]);
        head += 1;
        let d = dist[i];
        if i16::from(d) >= radius {
            continue;
        }
        let (x, y) = (i % WINDOW, i / WINDOW);
        for ny in y.saturating_sub(1).max(lo)..=(y + 1).min(hi) {
            for nx in x.saturating_sub(1).max(lo)..=(x + 1).min(hi) {
                let j = ny * WINDOW + nx;
                if passable[j] && dist[j] == u8::MAX {
                    dist[j] = d + 1;
                    queue[tail] = j as u16;
                    tail += 1;
                }
            }
        }
    }
}
