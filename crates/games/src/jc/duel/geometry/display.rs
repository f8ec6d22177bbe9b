//! A tactical display's TOML format and its loading: cells, areas and
//! openings, and the features, planes and regions built from them [5.1].

use barsoom_engine::scenario::Load;

use std::path::Path;

use serde::Deserialize;

use super::facing::{COUNTER, EAST, NORTH, SOUTH, STEPS_PER_MOVEMENT, WEST};
use barsoom_engine::scenario::{Loader, ScenarioError, check_provenance};

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
    pub(crate) fn no_retreat_before_melee(self) -> bool {
        matches!(self, DisplayKind::Open | DisplayKind::Street)
    }

    /// Whether duels on it start discovered [7.21-7.23]; house and palace
    /// duels need discovery [7.24, 7.25, 6.0].
    pub(crate) fn starts_discovered(self) -> bool {
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
pub(super) const F_OPEN: u16 = 1;

/// The counter covers no wall box (sky allowed: a jump may cross it).
pub(super) const F_JUMP_OPEN: u16 = 1 << 1;

/// The counter covers a restricted box [5.57].
pub(super) const F_RESTRICTED: u16 = 1 << 2;

/// The counter covers or touches a restricted box [5.57].
pub(super) const F_NEAR_RESTRICTED: u16 = 1 << 3;

/// The counter covers a doorway box [7.34].
pub(super) const F_DOOR: u16 = 1 << 4;

/// The counter covers an exit box [5.18].
pub(super) const F_EXIT: u16 = 1 << 5;

/// The counter covers deck-1 boxes; the next bit deck 2 [5.52].
const F_DECK1: u16 = 1 << 6;

/// Both deck bits.
pub(super) const F_DECKS: u16 = 3 << 6;

/// The counter lies wholly inside room boxes [7.24, 6.23].
pub(super) const F_ROOM: u16 = 1 << 8;

/// First of four bits: covers a ramp box whose arrow points N, E, S, W.
pub(super) const RAMP_SHIFT: u16 = 9;

/// The counter covers a box of the flier staging area [5.51, 7.34].
pub(super) const F_STAGING: u16 = 1 << 13;

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
    pub(super) cells: Vec<Cell>,
    /// Per top-left box (row-major), what a counter there covers and
    /// touches (`F_*` bits).
    pub(super) features: Vec<u16>,
    /// Per top-left box, one bit each ([`PLANE_WORDS`] words a row, bit
    /// `x + 64` for column `x`): where a counter may end a step, and where
    /// a jump may pass, for a side barred from and a side free to enter
    /// the restricted boxes [5.57] (index `2 * jump + restricted_ok`).
    pub(super) planes: [Vec<u64>; 4],
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
    pub(super) obstacles: bool,
    /// Whether there is a restricted box [5.57].
    pub has_restricted: bool,
    /// Per box, the room or corridor it lies in (boxes joined side to side
    /// without a wall, doorway or sky between them), numbered from 1; 0 for
    /// walls, doorways and sky [6.13, 6.23].
    pub(super) regions: Vec<u16>,
    /// Per region, whether it is a room (its boxes lie in a room area)
    /// rather than a corridor [6.23].
    pub(super) region_rooms: Vec<bool>,
    /// The boxes as drawn, before `openings` [5.51, 5.54, 5.55].
    pub(super) drawn: Vec<Cell>,
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
pub(super) const PLANE_MARGIN: usize = 64;

/// Words a row in those planes: the margin, the widest display and a word
/// to spare on the right.
pub(super) const PLANE_WORDS: usize = (PLANE_MARGIN + MAX_DISPLAY).div_ceil(64) + 1;

/// Marks reserved for terrain.
const TERRAIN_MARKS: &str = ".#+ ~r^>v<=%:";

impl Display {
    /// The same display with the dungeon door, the secret passageways and
    /// the staging area open or closed as `openings` says [5.51, 5.54,
    /// 5.55].
    pub(crate) fn with_openings(&self, openings: Openings) -> Display {
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
    pub(crate) fn with_sky_where(&self, f: impl Fn(Cell) -> bool) -> Display {
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

    /// Whether the display has a dungeon door or secret passageways, whose
    /// state changes where counters may go.
    pub(crate) fn has_openings(&self) -> bool {
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
    pub(crate) fn movement_window(&self, origin: (i16, i16), restricted_ok: bool) -> Option<u128> {
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
}

impl Load for Display {
    /// Loads and checks a display file.
    fn load_with(file: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let raw: RawDisplay = loader.read_toml(file)?;
        let err = |field: &str, message: String| ScenarioError::new(file, field, message);
        check_provenance(file, "provenance", &raw.provenance)?;
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
}
