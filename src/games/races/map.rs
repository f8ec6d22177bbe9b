//! The hex map [Map]: a `width` x `height` rectangle of pointy-top hexes
//! in "odd-r" offset layout (odd rows sit half a hex to the right), hex
//! `row * width + col`, with neighbour lists built once per scenario, and
//! the deployment zones along edges and in corners [Scenario Setup].

/// Largest map side.
pub const MAX_SIDE: usize = 24;
/// Most hexes on a map.
pub const MAX_HEXES: usize = MAX_SIDE * MAX_SIDE;
/// Marks "no hex" in a neighbour list.
pub const NO_HEX: u16 = u16::MAX;

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
pub const ZONE_NAMES: [(&str, Zone); 8] = [
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
        HexMap {
            width,
            height,
            neighbours,
        }
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
    pub fn coords(&self, h: u16) -> (usize, usize) {
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
