//! Counters and their facing [5.63]: the four directions, the frame of a
//! facing, the eight positions around a counter and the arcs [7.41-7.42].

/// The side of a counter in boxes.
pub const COUNTER: i16 = 4;

/// Boxes in one movement [5.11].
pub const STEPS_PER_MOVEMENT: i16 = 4;

/// Most movements in one phase (John Carter's once-per-duel four [5.31]).
pub const MAX_MOVEMENTS: i16 = 4;

/// Radius of the largest movement window.
pub const MAX_RADIUS: i16 = STEPS_PER_MOVEMENT * MAX_MOVEMENTS;

/// Width of the largest movement window.
pub(super) const WINDOW: usize = (2 * MAX_RADIUS + 1) as usize;

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
