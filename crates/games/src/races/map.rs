//! The hex map [Map]: a `width` x `height` rectangle of pointy-top hexes
//! in "odd-r" offset layout (odd rows sit half a hex to the right), hex
//! `row * width + col`, with neighbour lists built once per scenario, and
//! the deployment zones along edges and in corners [Scenario Setup].

/// Largest map side.
pub(crate) const MAX_SIDE: usize = 24;
/// Most hexes on a map.
pub(crate) const MAX_HEXES: usize = MAX_SIDE * MAX_SIDE;
/// Marks "no hex" in a neighbour list.
pub const NO_HEX: u16 = u16::MAX;
/// 64-bit words in a [`HexSet`] of the largest map.
pub(crate) const SET_WORDS: usize = MAX_HEXES.div_ceil(64);

/// A set of hexes as a bitboard: bit `h % 64` of word `h / 64` is hex `h`.
/// Only the map's first [`HexMap::words`] words are ever set.
pub(crate) type HexSet = [u64; SET_WORDS];

/// The empty [`HexSet`].
pub const NO_HEXES: HexSet = [0; SET_WORDS];

/// Adds hex `h` to `set`.
#[inline]
pub fn set_insert(set: &mut HexSet, h: u16) {
    set[usize::from(h) / 64] |= 1 << (h % 64);
}

/// Takes hex `h` out of `set`.
#[inline]
pub(crate) fn set_remove(set: &mut HexSet, h: u16) {
    set[usize::from(h) / 64] &= !(1 << (h % 64));
}

/// The hexes of `set` in its first `words` words (a map's
/// [`HexMap::words`]), lowest first.
#[inline]
pub(crate) fn set_hexes(set: &HexSet, words: usize) -> SetHexes {
    SetHexes {
        set: *set,
        word: 0,
        words: words.min(SET_WORDS),
    }
}

/// Iterator of [`set_hexes`].
pub(crate) struct SetHexes {
    set: HexSet,
    word: usize,
    words: usize,
}

impl Iterator for SetHexes {
    type Item = u16;

    #[inline]
    fn next(&mut self) -> Option<u16> {
        while self.word < self.words {
            let bits = self.set[self.word];
            if bits != 0 {
                self.set[self.word] = bits & (bits - 1);
                return Some((self.word * 64) as u16 + bits.trailing_zeros() as u16);
            }
            self.word += 1;
        }
        None
    }
}

/// How many hexes `set` holds in its first `words` words (a map's
/// [`HexMap::words`]).
#[inline]
pub(crate) fn set_len(set: &HexSet, words: usize) -> u32 {
    set[..words.min(SET_WORDS)]
        .iter()
        .map(|w| w.count_ones())
        .sum()
}

/// The hexes in both `a` and `b`.
#[inline]
pub(crate) fn set_and(a: &HexSet, b: &HexSet) -> HexSet {
    let mut out = *a;
    for (o, w) in out.iter_mut().zip(b) {
        *o &= w;
    }
    out
}

/// Work on bitboards of a map's size: [`HexMap::with_words`] calls `run`
/// with `N` set to the map's [`HexMap::words`], so loops over the words
/// have a length known when compiling.
pub(crate) trait ForWords {
    /// What the work returns.
    type Out;
    /// Does the work on bitboards of `N` words.
    fn run<const N: usize>(self) -> Self::Out;
}

/// Whether `set` holds hex `h`.
#[inline]
pub(crate) fn set_contains(set: &HexSet, h: u16) -> bool {
    set[usize::from(h) / 64] >> (h % 64) & 1 != 0
}

/// A deployment zone: one edge (sides) or one corner [Scenario Setup].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zone {
    /// The left columns.
    West,
    /// The right columns.
    East,
    /// The top rows.
    North,
    /// The bottom rows.
    South,
    /// Top-left block.
    NorthWest,
    /// Top-right block.
    NorthEast,
    /// Bottom-left block.
    SouthWest,
    /// Bottom-right block.
    SouthEast,
}

/// Zone names as scenarios spell them.
pub(crate) const ZONE_NAMES: [(&str, Zone); 8] = [
    ("west", Zone::West),
    ("east", Zone::East),
    ("north", Zone::North),
    ("south", Zone::South),
    ("north-west", Zone::NorthWest),
    ("north-east", Zone::NorthEast),
    ("south-west", Zone::SouthWest),
    ("south-east", Zone::SouthEast),
];

/// The map's shape and adjacency.
#[derive(Debug, Clone, PartialEq)]
pub struct HexMap {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Up to six neighbours per hex, [`NO_HEX`] where the map ends.
    pub neighbours: Vec<[u16; 6]>,
    /// Words of a [`HexSet`] this map uses.
    pub words: usize,
    /// Every hex of the map.
    all: HexSet,
    /// Hexes with a neighbour to the east (not in the last column).
    has_east: HexSet,
    /// Hexes with a neighbour to the west (not in the first column).
    has_west: HexSet,
    /// Hexes of even rows: their diagonal neighbours lean left.
    even_rows: HexSet,
    /// Hexes of odd rows: their diagonal neighbours lean right.
    odd_rows: HexSet,
}

impl HexMap {
    /// A map of the given size (each side 1..=[`MAX_SIDE`]).
    pub fn new(width: usize, height: usize) -> Self {
        let mut neighbours = Vec::with_capacity(width * height);
        for row in 0..height as i32 {
            for col in 0..width as i32 {
                let mut list = [NO_HEX; 6];
                // Odd-r: the diagonal neighbours of an odd row lean right.
                let lean = row & 1;
                let steps = [
                    (1, 0),
                    (-1, 0),
                    (lean - 1, -1),
                    (lean, -1),
                    (lean - 1, 1),
                    (lean, 1),
                ];
                for (slot, (dc, dr)) in list.iter_mut().zip(steps) {
                    let (c, r) = (col + dc, row + dr);
                    if c >= 0 && r >= 0 && (c as usize) < width && (r as usize) < height {
                        *slot = (r as usize * width + c as usize) as u16;
                    }
                }
                neighbours.push(list);
            }
        }
        let (mut all, mut has_east, mut has_west) = (NO_HEXES, NO_HEXES, NO_HEXES);
        let (mut even_rows, mut odd_rows) = (NO_HEXES, NO_HEXES);
        for row in 0..height {
            for col in 0..width {
                let h = (row * width + col) as u16;
                set_insert(&mut all, h);
                set_insert(
                    if row % 2 == 0 {
                        &mut even_rows
                    } else {
                        &mut odd_rows
                    },
                    h,
                );
                if col + 1 < width {
                    set_insert(&mut has_east, h);
                }
                if col > 0 {
                    set_insert(&mut has_west, h);
                }
            }
        }
        HexMap {
            width,
            height,
            neighbours,
            words: (width * height).div_ceil(64),
            all,
            has_east,
            has_west,
            even_rows,
            odd_rows,
        }
    }

    /// Runs `work` with the map's word count as its `N`.
    #[inline]
    pub(crate) fn with_words<F: ForWords>(&self, work: F) -> F::Out {
        match self.words {
            1 => work.run::<1>(),
            2 => work.run::<2>(),
            3 => work.run::<3>(),
            4 => work.run::<4>(),
            5 => work.run::<5>(),
            6 => work.run::<6>(),
            7 => work.run::<7>(),
            8 => work.run::<8>(),
            _ => work.run::<9>(),
        }
    }

    /// [`HexMap::spread`] for any map size.
    pub fn spread_any(&self, from: &HexSet) -> HexSet {
        struct Spread<'a>(&'a HexMap, &'a HexSet);
        impl ForWords for Spread<'_> {
            type Out = HexSet;
            fn run<const N: usize>(self) -> HexSet {
                self.0.spread::<N>(self.1)
            }
        }
        self.with_words(Spread(self, from))
    }

    /// The hexes of `passable` connected to `from` through `passable`
    /// hexes (`from` included).
    pub fn flood(&self, from: &HexSet, passable: &HexSet) -> HexSet {
        struct Flood<'a>(&'a HexMap, &'a HexSet, &'a HexSet);
        impl ForWords for Flood<'_> {
            type Out = HexSet;
            fn run<const N: usize>(self) -> HexSet {
                let (mut reached, mut frontier) = (*self.1, *self.1);
                loop {
                    let next = self.0.spread::<N>(&frontier);
                    let mut any = 0;
                    for i in 0..N {
                        frontier[i] = next[i] & self.2[i] & !reached[i];
                        reached[i] |= frontier[i];
                        any |= frontier[i];
                    }
                    if any == 0 {
                        return reached;
                    }
                }
            }
        }
        self.with_words(Flood(self, from, passable))
    }

    /// Whether a walk from `from` through `passable` hexes reaches a hex
    /// next to one of `targets` (a flood of [`HexMap::flood`] that stops
    /// as soon as it does).
    pub fn reaches(&self, from: &HexSet, passable: &HexSet, targets: &HexSet) -> bool {
        struct Reaches<'a>(&'a HexMap, &'a HexSet, &'a HexSet, &'a HexSet);
        impl ForWords for Reaches<'_> {
            type Out = bool;
            fn run<const N: usize>(self) -> bool {
                let (mut reached, mut frontier) = (*self.1, *self.1);
                loop {
                    let next = self.0.spread::<N>(&frontier);
                    let mut any = 0;
                    for i in 0..N {
                        if next[i] & self.3[i] != 0 {
                            return true;
                        }
                        frontier[i] = next[i] & self.2[i] & !reached[i];
                        reached[i] |= frontier[i];
                        any |= frontier[i];
                    }
                    if any == 0 {
                        return false;
                    }
                }
            }
        }
        self.with_words(Reaches(self, from, passable, targets))
    }

    /// The hexes next to any hex of `from` (the six directions of
    /// [`HexMap::new`]'s neighbour lists as bitboard shifts), on the map.
    /// `N` is [`HexMap::words`]; only those words are read and written.
    ///
    /// The east and west neighbours are `from` moved one bit either way
    /// (where the row goes on). The diagonal neighbours of an even row
    /// are the hex itself and its west neighbour one row up or down, those
    /// of an odd row the hex and its east neighbour; so the hexes, their
    /// even rows' west neighbours and their odd rows' east neighbours,
    /// moved a row (`width` bits) up and down, give the four diagonals and
    /// the two hexes straight above and below in one go.
    #[inline(always)]
    pub fn spread<const N: usize>(&self, from: &HexSet) -> HexSet {
        let w = self.width as u32;
        let mut east = [0u64; N];
        let mut west = [0u64; N];
        for i in 0..N {
            east[i] = from[i] & self.has_east[i];
            west[i] = from[i] & self.has_west[i];
        }
        let mut side = [0u64; N];
        let mut rows = [0u64; N];
        for i in 0..N {
            let e = shift_up(&east, i, 1);
            let wst = shift_down(&west, i, 1);
            side[i] = e | wst;
            rows[i] = from[i] | (wst & self.even_rows[i]) | (e & self.odd_rows[i]);
        }
        let mut out = NO_HEXES;
        for (i, word) in out.iter_mut().enumerate().take(N) {
            *word = (side[i] | shift_up(&rows, i, w) | shift_down(&rows, i, w)) & self.all[i];
        }
        out
    }

    /// Number of hexes.
    pub fn hexes(&self) -> usize {
        self.width * self.height
    }

    /// Hex index of `(col, row)`.
    pub fn hex(&self, col: usize, row: usize) -> u16 {
        (row * self.width + col) as u16
    }

    /// `(col, row)` of hex `h`.
    pub(crate) fn coords(&self, h: u16) -> (usize, usize) {
        (usize::from(h) % self.width, usize::from(h) / self.width)
    }

    /// Whether `a` and `b` are adjacent.
    pub fn adjacent(&self, a: u16, b: u16) -> bool {
        self.neighbours[usize::from(a)].contains(&b)
    }

    /// Hexes in steps between `a` and `b`, ignoring terrain.
    pub fn distance(&self, a: u16, b: u16) -> u32 {
        let cube = |h: u16| {
            let (c, r) = self.coords(h);
            let (c, r) = (c as i32, r as i32);
            let x = c - (r - (r & 1)) / 2;
            (x, r, -x - r)
        };
        let (p, q) = (cube(a), cube(b));
        ((p.0 - q.0).abs())
            .max((p.1 - q.1).abs())
            .max((p.2 - q.2).abs()) as u32
    }

    /// The hexes of `zone`, `depth` hexes from its edge(s), in index order.
    pub fn zone(&self, zone: Zone, depth: usize) -> Vec<u16> {
        let (w, h) = (self.width, self.height);
        let west = |c: usize| c < depth;
        let east = |c: usize| c + depth >= w;
        let north = |r: usize| r < depth;
        let south = |r: usize| r + depth >= h;
        (0..self.hexes() as u16)
            .filter(|x| {
                let (c, r) = self.coords(*x);
                match zone {
                    Zone::West => west(c),
                    Zone::East => east(c),
                    Zone::North => north(r),
                    Zone::South => south(r),
                    Zone::NorthWest => north(r) && west(c),
                    Zone::NorthEast => north(r) && east(c),
                    Zone::SouthWest => south(r) && west(c),
                    Zone::SouthEast => south(r) && east(c),
                }
            })
            .collect()
    }
}

/// Word `i` of the bitboard `x` with every bit moved `s` places up (to
/// higher hexes), `s` in 1..64.
#[inline(always)]
fn shift_up<const N: usize>(x: &[u64; N], i: usize, s: u32) -> u64 {
    let carry = if i > 0 { x[i - 1] >> (64 - s) } else { 0 };
    (x[i] << s) | carry
}

/// Word `i` of the bitboard `x` with every bit moved `s` places down (to
/// lower hexes), `s` in 1..64.
#[inline(always)]
fn shift_down<const N: usize>(x: &[u64; N], i: usize, s: u32) -> u64 {
    let carry = if i + 1 < N { x[i + 1] << (64 - s) } else { 0 };
    (x[i] >> s) | carry
}
