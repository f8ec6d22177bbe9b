//! What a loaded display says about its boxes: cells and features, rooms,
//! obstruction, straight lines, distance fields and window rows.

use super::display::{
    Cell, Display, F_DECKS, F_DOOR, F_JUMP_OPEN, F_NEAR_RESTRICTED, F_OPEN, F_RESTRICTED, F_ROOM,
    F_STAGING, PLANE_MARGIN, PLANE_WORDS, RAMP_SHIFT,
};
use super::facing::{COUNTER, from_frame};

impl Display {
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
    pub(crate) fn areas_under(&self, x: i16, y: i16) -> u32 {
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

    /// Whether any box of the display is drawn as `cell`.
    pub(crate) fn draws(&self, cell: Cell) -> bool {
        self.drawn.contains(&cell)
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
    pub(crate) fn covers_drawn(&self, x: i16, y: i16, f: impl Fn(Cell) -> bool) -> bool {
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
    pub(crate) fn distance_field_into(
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
    pub(crate) fn window_row(
        &self,
        jump: bool,
        restricted_ok: bool,
        y: i16,
        x0: i16,
        span: u32,
    ) -> u64 {
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
