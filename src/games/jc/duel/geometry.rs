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

/// What a box of a display is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// Open floor.
    Floor,
    /// A wall: no counter may overlap it [5.16].
    Wall,
    /// An open door [5.16].
    Door,
    /// Shaded set-up area of the first or second side [7.21].
    Setup(u8),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDisplay {
    name: String,
    provenance: String,
    kind: String,
    rows: Vec<String>,
}

/// The kind of display, which sets the set-up rules [7.21-7.25].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisplayKind {
    /// Open or arena: both sides in their shaded areas, discovered, to the
    /// death, no moving away before melee is joined [7.21].
    Open,
}

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
    /// Whether a counter may stand with its top-left box here (inside the
    /// display and over no wall), row-major.
    open: Vec<bool>,
    /// Per side, the 4×4 set-up squares wholly inside its shaded area,
    /// nearest the middle of the display first.
    pub setup: [Vec<(i16, i16)>; 2],
    /// Whether the display has no wall at all (then, away from other
    /// counters, the steps to a box are the larger of the row and column
    /// distances).
    pub wall_free: bool,
}

/// Largest display side in boxes.
pub const MAX_DISPLAY: usize = 200;

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
            other => {
                return Err(err(
                    "kind",
                    format!(
                        "expected \"open\" (the only display kind modelled so far), found {other:?}"
                    ),
                ));
            }
        };
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
                cells.push(match ch {
                    '.' => Cell::Floor,
                    '#' => Cell::Wall,
                    '+' => Cell::Door,
                    'a' => Cell::Setup(0),
                    'b' => Cell::Setup(1),
                    other => {
                        return Err(err(
                            &format!("rows[{r}]"),
                            format!(
                                "expected '.', '#', '+', 'a' or 'b' for each box, found {other:?} at column {c}"
                            ),
                        ));
                    }
                });
            }
        }
        let (w, h) = (width as i16, height as i16);
        let cell = |x: i16, y: i16| cells[(y as usize) * width + x as usize];
        let mut open = vec![false; width * height];
        for y in 0..=h - COUNTER {
            for x in 0..=w - COUNTER {
                open[(y as usize) * width + x as usize] =
                    (0..COUNTER).all(|j| (0..COUNTER).all(|i| cell(x + i, y + j) != Cell::Wall));
            }
        }
        let mut setup: [Vec<(i16, i16)>; 2] = Default::default();
        for (side, squares) in setup.iter_mut().enumerate() {
            for y in (0..=h - COUNTER).step_by(COUNTER as usize) {
                for x in (0..=w - COUNTER).step_by(COUNTER as usize) {
                    if (0..COUNTER).all(|j| {
                        (0..COUNTER).all(|i| cell(x + i, y + j) == Cell::Setup(side as u8))
                    }) {
                        squares.push((x, y));
                    }
                }
            }
            let (cx, cy) = (w - COUNTER, h - COUNTER);
            // The front row (nearest the middle of the display) first, and
            // in a row the squares nearest the middle column.
            squares.sort_by_key(|&(x, y)| ((2 * y - cy).abs(), (2 * x - cx).abs(), y, x));
            if squares.is_empty() {
                return Err(err(
                    "rows",
                    format!(
                        "expected a 4x4 set-up square of side {} ('{}'), found none",
                        side + 1,
                        if side == 0 { 'a' } else { 'b' }
                    ),
                ));
            }
        }
        let wall_free = !cells.contains(&Cell::Wall);
        Ok(Display {
            wall_free,
            name: raw.name,
            kind,
            width: w,
            height: h,
            cells,
            open,
            setup,
        })
    }

    /// The box at `(x, y)`.
    pub fn cell(&self, x: i16, y: i16) -> Cell {
        self.cells[(y as usize) * self.width as usize + x as usize]
    }

    /// Whether a counter may stand with its top-left box at `(x, y)`.
    #[inline]
    pub fn open(&self, x: i16, y: i16) -> bool {
        x >= 0
            && y >= 0
            && x <= self.width - COUNTER
            && y <= self.height - COUNTER
            && self.open[(y as usize) * self.width as usize + x as usize]
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
    /// display; `jumps` whether it may pass over them.
    pub fn compute(
        display: &Display,
        origin: (i16, i16),
        steps: i16,
        others: &[(i16, i16)],
        jumps: bool,
    ) -> Self {
        let radius = steps.clamp(0, MAX_RADIUS);
        let bounds = (display.width - COUNTER, display.height - COUNTER);
        // A counter within radius + 3 boxes (either axis) of the origin can
        // overlap a box of the window.
        let near = |&(ox, oy): &(i16, i16)| {
            (ox - origin.0).abs() < radius + COUNTER && (oy - origin.1).abs() < radius + COUNTER
        };
        let plain = display.wall_free && !others.iter().any(near);
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
                passable[i] = display.open(origin.0 + dx, origin.1 + dy);
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
            bfs(&passable, start, radius, &mut reach.jump);
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
