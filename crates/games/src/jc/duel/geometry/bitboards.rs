//! The bitboards of a movement window: one `u128` for 9×9 boxes, rows of
//! `u64` for larger windows.

use super::facing::{COUNTER, MAX_RADIUS, STEPS_PER_MOVEMENT, WINDOW};
use super::reach::Walls;

/// A set of boxes of a square movement window, `2 * HALF + 1` a side, the
/// mover's box in the middle: bit `column` of row `row`.
pub(super) trait Board: Copy + PartialEq + std::fmt::Debug {
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
pub(super) const SMALL: usize = 2 * STEPS_PER_MOVEMENT as usize + 1;

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
pub(super) const SMALL_PATHS: [[u128; 2]; SMALL * SMALL] = {
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
pub(super) struct Rows([u64; LARGE]);

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
