//! Where a mover can end a phase [5.11-5.16, 5.34]: the walking and jumping
//! sets of a window around him, and the walking search toward goals.

use super::bitboards::{Board, Rows, SMALL, SMALL_PATHS};
use super::display::{Display, MAX_DISPLAY, PLANE_MARGIN, PLANE_WORDS};
use super::facing::{COUNTER, MAX_RADIUS, STEPS_PER_MOVEMENT};

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
    pub(crate) fn walks_within(&self, x: i16, y: i16, steps: u8) -> bool {
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
    pub(crate) fn walkable(&self, boxes: &[(i16, i16)], steps: u8) -> u32 {
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
    distance: u16,
}

impl WalkScratch {
    /// The walking distance, in king steps, from the goals of the last
    /// search to the box it returned ([`Walked::To`]) or to the mover's
    /// own box ([`Walked::Stay`]); meaningless after [`Walked::NoWay`].
    pub fn distance(&self) -> u16 {
        self.distance
    }
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
        sc.distance = 0;
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
            sc.distance += 1;
        }
        Walked::NoWay
    }
}

/// Clears the boxes `x0..=x1` (`x0` at least 0) of a bit row's first `W`
/// words: a mask a word, not a bit at a time (a counter's span is cleared
/// on seven rows for every blocker of every walking search).
#[inline]
fn clear_span<const W: usize>(row: &mut BitRow, x0: i16, x1: i16) {
    if x1 < x0 {
        return;
    }
    let (x0, x1) = (x0 as usize, x1 as usize);
    for (j, word) in row
        .iter_mut()
        .enumerate()
        .take(W.min(x1 / 64 + 1))
        .skip(x0 / 64)
    {
        let lo = if j == x0 / 64 { x0 % 64 } else { 0 };
        let hi = if j == x1 / 64 { x1 % 64 } else { 63 };
        *word &= !((u64::MAX >> (63 - (hi - lo))) << lo);
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
pub(super) struct Walls<'a> {
    pub(super) display: &'a Display,
    pub(super) origin: (i16, i16),
    pub(super) radius: i16,
    pub(super) restricted_ok: bool,
}

impl Walls<'_> {
    /// The boxes of a window of `B` within the radius where a counter may
    /// end a step (`jump` false) or a jump may pass (`jump` true), read row
    /// by row from the display's planes.
    pub(super) fn rows<B: Board>(&self, jump: bool) -> B {
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

#[cfg(test)]
mod tests {
    use super::{BitRow, ROW_WORDS, clear_span};

    /// [`clear_span`] clears exactly the boxes of its span within the
    /// first `W` words, across word boundaries and at the row's ends.
    #[test]
    fn clear_span_clears_exactly_the_span() {
        fn check<const W: usize>() {
            let last = (64 * ROW_WORDS) as i16 - 1;
            for x0 in (0..=last).step_by(7).chain([63, 64, 127, 128]) {
                for x1 in (x0 - 1..=last)
                    .step_by(5)
                    .chain([x0, 63, 64, 127, 128, last])
                {
                    let mut row: BitRow = [u64::MAX; ROW_WORDS];
                    clear_span::<W>(&mut row, x0, x1);
                    for x in 0..=last {
                        let cleared = row[x as usize / 64] >> (x % 64) & 1 == 0;
                        let expected = x0 <= x && x <= x1 && (x as usize) / 64 < W;
                        assert_eq!(cleared, expected, "W {W}, span {x0}..={x1}, box {x}");
                    }
                }
            }
        }
        check::<1>();
        check::<2>();
        check::<ROW_WORDS>();
    }
}
