//! Jetan's rules as data: the pieces, the rule flags that choose between
//! readings of the ambiguous text, piece values, and the path tables that
//! move generation reads.
//!
//! Citations name the paragraphs of the appendix to *The Chessmen of Mars*
//! (`shared/seeds/jetan-chessmen-of-mars-appendix.txt`): "Pieces" (the list
//! of pieces and their moves), "Win", "Draw", "Princess" (her restrictions
//! and the escape), "Occupancy" (two pieces on one square), "Kill",
//! "Combination" (the paragraph that explains combination moves) and
//! "Gambling".

use std::fmt;

/// Squares on the board: 10 files (a–j) by 10 ranks (1–10).
pub(crate) const SQUARES: usize = 100;

/// A set of squares, bit `rank * 10 + file`.
pub(crate) type Bitboard = u128;

/// Every square of the board.
pub(crate) const ALL_SQUARES: Bitboard = (1u128 << SQUARES) - 1;

/// The two sides. Black plays from the south (ranks 1–2), Orange from the
/// north ("Pieces", last paragraph before "Win").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    /// South, ranks 1–2 at the start.
    Black = 0,
    /// North, ranks 9–10 at the start.
    Orange = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn other(self) -> Color {
        match self {
            Color::Black => Color::Orange,
            Color::Orange => Color::Black,
        }
    }

    /// 0 for Black, 1 for Orange.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side's name.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::Orange => "Orange",
        }
    }
}

/// The eight kinds of piece ("Pieces").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// 1 step forward, sideways or diagonally forward.
    Panthan = 0,
    /// 2 orthogonal steps.
    Warrior = 1,
    /// 2 diagonal steps.
    Padwar = 2,
    /// 3 orthogonal steps.
    Dwar = 3,
    /// 3 diagonal steps, jumping.
    Flier = 4,
    /// 3 steps in any direction.
    Chief = 5,
    /// As the Chief, jumping; never captures; one escape.
    Princess = 6,
    /// One orthogonal and one diagonal step.
    Thoat = 7,
}

impl Kind {
    /// Every kind, in index order.
    pub(crate) const ALL: [Kind; 8] = [
        Kind::Panthan,
        Kind::Warrior,
        Kind::Padwar,
        Kind::Dwar,
        Kind::Flier,
        Kind::Chief,
        Kind::Princess,
        Kind::Thoat,
    ];

    /// The kind with index `i` (0..8).
    #[inline]
    pub(crate) fn from_index(i: usize) -> Kind {
        Kind::ALL[i & 7]
    }

    /// The kind's name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Panthan => "Panthan",
            Kind::Warrior => "Warrior",
            Kind::Padwar => "Padwar",
            Kind::Dwar => "Dwar",
            Kind::Flier => "Flier",
            Kind::Chief => "Chief",
            Kind::Princess => "Princess",
            Kind::Thoat => "Thoat",
        }
    }

    /// The letter used in the position notation (upper case for Black).
    pub(crate) fn letter(self) -> char {
        match self {
            Kind::Panthan => 'n',
            Kind::Warrior => 'w',
            Kind::Padwar => 'p',
            Kind::Dwar => 'd',
            Kind::Flier => 'f',
            Kind::Chief => 'c',
            Kind::Princess => 'q',
            Kind::Thoat => 't',
        }
    }

    /// The kind a notation letter names (either case).
    pub(crate) fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.letter() == c.to_ascii_lowercase())
    }
}

/// Number of steps in a move ("Pieces": "2 spaces", "3 spaces").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Steps {
    /// Book: exactly the printed number of steps.
    #[default]
    Exact,
    /// Any number from 1 to the printed number.
    UpTo,
}

/// Shape of a multi-step move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paths {
    /// Book: each step may turn ("Combination").
    #[default]
    Combination,
    /// All steps in one direction, as in chess.
    Straight,
}

/// Whether the Flier jumps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FlierRule {
    /// Book: the Flier may jump intervening pieces ("Pieces", Flier).
    #[default]
    Jumps,
    /// The Flier's path must be empty like the others'.
    Slides,
}

/// The Thoat's move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ThoatRule {
    /// Book: one orthogonal and one diagonal step in either order, the
    /// square between empty (this reaches the knight squares and the four
    /// orthogonally adjacent squares).
    #[default]
    Path,
    /// The chess knight: the eight knight squares, jumping.
    Knight,
}

/// Which squares of the Princess's move must be unthreatened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PrincessThreat {
    /// Book: only the square she moves onto.
    #[default]
    Destination,
    /// Every square she steps on in an ordinary move (some path must avoid
    /// threatened squares); the escape still checks only its destination.
    Path,
}

/// The Princess's escape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EscapeRule {
    /// Book: a jumping path of exactly ten steps, each in any direction.
    #[default]
    PathOfTen,
    /// A jump in one straight line (orthogonal or diagonal) of 1 to 10 steps.
    StraightUpToTen,
}

/// What a Chief taken by a piece other than the enemy Chief means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChiefTakenByOther {
    /// Book: the game is drawn ("Draw").
    #[default]
    Draw,
    /// The side that lost its Chief loses.
    Loss,
}

/// The drawn-endgame rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EndgameRule {
    /// Book: both sides have three pieces or fewer *and* equal total value;
    /// drawn if no win follows in the next ten moves.
    #[default]
    TenMovesEqualValue,
    /// Both sides have three pieces or fewer, whatever their value.
    FiveEachAnyValue,
}

/// Which diagonals a Panthan may step on ("Pieces", Panthan).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PanthanRule {
    /// Book: forward, sideways or diagonally forward; "not backward" rules
    /// out every backward step, diagonal ones included.
    #[default]
    ForwardDiagonals,
    /// "diagonal" read as any diagonal: the four diagonals, forward,
    /// sideways, never straight back.
    AllDiagonals,
}

/// How the home rows face each other ("Pieces": the first row "from left
/// to right of each player").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SetupRule {
    /// Book: each player's row runs from his own left, so Orange's is
    /// Black's turned half round (each Chief faces the enemy Princess).
    #[default]
    Rotated,
    /// Orange's row mirrors Black's across the middle of the board, the
    /// files read a to j for both as in chess (Chief faces Chief).
    Mirrored,
}

/// Where the enemy's reach is measured when the Princess may not move onto
/// a threatened square ("Princess").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ThreatRule {
    /// Book (issue 8): on the board after her move, so the square she
    /// leaves no longer blocks an enemy path ("could then take her").
    #[default]
    AfterMove,
    /// On the board as it stands before she moves: her own square still
    /// blocks the enemy's paths through it.
    BeforeMove,
}

/// What a side to move without a legal move means (the text is silent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NoMovesRule {
    /// Book (issue 8): the game is drawn.
    #[default]
    Draw,
    /// The side that cannot move loses.
    Loss,
}

/// Whether a repeated position ends the game (the text is silent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RepetitionRule {
    /// Book: no repetition rule.
    #[default]
    None,
    /// The third occurrence of a position (same pieces on the same
    /// squares, side to move and escapes) since the last capture or escape
    /// draws the game, looked up over the last [`super::position::HISTORY`]
    /// plies.
    ThreefoldDraw,
}

/// One rule flag's type: its two readings by name, the book's first.
trait Reading: Copy + Default + PartialEq {
    /// The values' names: the book reading (the default), then the other.
    const VALUES: [&'static str; 2];
    /// The other reading.
    const OTHER: Self;
}

macro_rules! readings {
    ($($ty:ident: $book:literal, $other:ident = $name:literal;)*) => {$(
        impl Reading for $ty {
            const VALUES: [&'static str; 2] = [$book, $name];
            const OTHER: Self = $ty::$other;
        }
    )*};
}

readings! {
    Steps: "exact", UpTo = "up-to";
    Paths: "combination", Straight = "straight";
    FlierRule: "jumps", Slides = "slides";
    ThoatRule: "path", Knight = "knight";
    PrincessThreat: "destination", Path = "path";
    EscapeRule: "path-of-ten", StraightUpToTen = "straight-up-to-ten";
    ChiefTakenByOther: "draw", Loss = "loss";
    EndgameRule: "ten-moves-equal-value", FiveEachAnyValue = "five-each-any-value";
    PanthanRule: "forward-diagonals", AllDiagonals = "all-diagonals";
    SetupRule: "rotated", Mirrored = "mirrored";
    ThreatRule: "after-move", BeforeMove = "before-move";
    NoMovesRule: "draw", Loss = "loss";
    RepetitionRule: "none", ThreefoldDraw = "threefold-draw";
}

/// A flag name or value that is not one of the readings.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct FlagError(pub String);

macro_rules! rule_flags {
    ($($(#[$doc:meta])* $name:ident: $ty:ty,)*) => {
        /// The rule flags: the defaults are the book interpretation.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        pub struct RuleFlags {
            $($(#[$doc])* pub $name: $ty,)*
        }

        impl RuleFlags {
            /// The flag names, in documentation order.
            pub(crate) const NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            /// The accepted values of flag `name` (the book reading first).
            pub fn values(name: &str) -> Option<[&'static str; 2]> {
                match name {
                    $(stringify!($name) => Some(<$ty as Reading>::VALUES),)*
                    _ => None,
                }
            }

            /// Sets flag `name` to its book reading, or the other one.
            fn choose(&mut self, name: &str, other: bool) {
                match name {
                    $(stringify!($name) => {
                        self.$name = if other { <$ty as Reading>::OTHER } else { <$ty>::default() };
                    })*
                    _ => {}
                }
            }

            /// Per flag in [`Self::NAMES`] order: whether the other
            /// reading is chosen.
            fn chosen(&self) -> Vec<bool> {
                vec![$(self.$name == <$ty as Reading>::OTHER),*]
            }
        }
    };
}

rule_flags! {
    /// `steps`.
    steps: Steps,
    /// `paths`.
    paths: Paths,
    /// `flier`.
    flier: FlierRule,
    /// `thoat`.
    thoat: ThoatRule,
    /// `princess_threat`.
    princess_threat: PrincessThreat,
    /// `escape`.
    escape: EscapeRule,
    /// `chief_taken_by_other`.
    chief_taken_by_other: ChiefTakenByOther,
    /// `endgame`.
    endgame: EndgameRule,
    /// `panthan`.
    panthan: PanthanRule,
    /// `setup`.
    setup: SetupRule,
    /// `threatened`.
    threatened: ThreatRule,
    /// `no_moves`.
    no_moves: NoMovesRule,
    /// `repetition`.
    repetition: RepetitionRule,
}

impl RuleFlags {
    /// Sets flag `name` to `value`, or says what was expected.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), FlagError> {
        let values = Self::values(name).ok_or_else(|| {
            FlagError(format!(
                "expected one of the rule flags {}, found {name:?}",
                Self::NAMES.join(", ")
            ))
        })?;
        match values.iter().position(|v| *v == value) {
            Some(i) => {
                self.choose(name, i == 1);
                Ok(())
            }
            None => Err(FlagError(format!(
                "expected {} or {}, found {value:?}",
                values[0], values[1]
            ))),
        }
    }

    /// Every flag as `name=value`, for summaries and the CLI.
    pub fn describe(&self) -> String {
        Self::NAMES
            .iter()
            .zip(self.chosen())
            .map(|(name, other)| {
                let values = Self::values(name).unwrap_or(["?", "?"]);
                format!("{name}={}", values[usize::from(other)])
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Piece values by kind ("Gambling"; the default marks are those on the
/// pieces). Used by the equal-value endgame rule and reported as material.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceValues(pub [u16; 8]);

impl Default for PieceValues {
    fn default() -> Self {
        // Panthan, Warrior, Padwar, Dwar, Flier, Chief, Princess, Thoat.
        PieceValues([1, 2, 2, 3, 3, 10, 1, 2])
    }
}

impl PieceValues {
    /// The value of `kind`.
    #[inline]
    pub fn of(&self, kind: Kind) -> u16 {
        self.0[kind as usize]
    }
}

/// The eight king directions as (file, rank) steps: four orthogonal, then
/// four diagonal.
pub(crate) const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, -1),
    (-1, 1),
];

/// The square `steps` (file, rank) away from `square`, if on the board.
#[inline]
pub(crate) fn offset(square: usize, (df, dr): (i8, i8)) -> Option<usize> {
    let file = (square % 10) as i8 + df;
    let rank = (square / 10) as i8 + dr;
    ((0..10).contains(&file) && (0..10).contains(&rank)).then(|| (rank * 10 + file) as usize)
}

/// A square's name, e.g. `e1`.
pub(crate) fn square_name(square: usize) -> String {
    format!(
        "{}{}",
        (b'a' + (square % 10) as u8) as char,
        square / 10 + 1
    )
}

#[cfg(test)]
/// Parses a square name (`a1` … `j10`).
pub(crate) fn parse_square(text: &str) -> Option<usize> {
    let mut chars = text.chars();
    let file = chars.next()?;
    if !('a'..='j').contains(&file) {
        return None;
    }
    let rank: usize = chars.as_str().parse().ok()?;
    (1..=10)
        .contains(&rank)
        .then(|| (rank - 1) * 10 + (file as usize - 'a' as usize))
}

/// How a mover's table was built: which step directions, how many steps,
/// whether it turns and whether it jumps.
#[derive(Debug, Clone, Copy)]
struct Pattern {
    /// Allowed step directions as indices into [`DIRECTIONS`].
    directions: &'static [usize],
    /// The most steps.
    steps: usize,
    /// Whether fewer steps are also moves.
    up_to: bool,
    /// Whether every step must repeat the first one.
    straight: bool,
}

const ORTHOGONAL: &[usize] = &[0, 1, 2, 3];
const DIAGONAL: &[usize] = &[4, 5, 6, 7];
const ANY: &[usize] = &[0, 1, 2, 3, 4, 5, 6, 7];
/// Black's Panthan: north, east, west, north-east, north-west.
const FORWARD_BLACK: &[usize] = &[0, 1, 3, 4, 7];
/// Orange's Panthan: south, east, west, south-east, south-west.
const FORWARD_ORANGE: &[usize] = &[2, 1, 3, 5, 6];
/// Black's Panthan under `panthan = all-diagonals`: every step but south.
const ALL_DIAGONALS_BLACK: &[usize] = &[0, 1, 3, 4, 5, 6, 7];
/// Orange's Panthan under `panthan = all-diagonals`: every step but north.
const ALL_DIAGONALS_ORANGE: &[usize] = &[2, 1, 3, 4, 5, 6, 7];

/// The tables' movers: the kinds, with the Panthan split by colour (its
/// "forward" depends on the side).
pub(crate) const MOVERS: usize = 9;

/// The table slot of `kind` for `color`.
#[inline]
pub fn mover(kind: Kind, color: Color) -> usize {
    match kind {
        Kind::Panthan => 7 + color.index(),
        k => k as usize - 1,
    }
}

/// One destination of a mover from one square: the minimal sets of
/// intermediate squares over every path that reaches it (a path is open
/// when its set holds no piece; a jumping mover needs none open).
#[derive(Debug, Clone, Copy)]
pub struct Destination {
    /// The square reached.
    pub square: u8,
    /// Index of its first path mask in [`PathTables::masks`].
    pub first_mask: u32,
    /// Number of path masks.
    pub mask_count: u32,
}

/// Precomputed paths for every mover from every square under one set of
/// rule flags: the destinations with their intermediate-square masks, and
/// a destination set per square for the jumping movers and the escape.
#[derive(Debug, Clone)]
pub(crate) struct PathTables {
    /// Per `mover * 100 + square`: range into `destinations`.
    ranges: Vec<(u32, u32)>,
    /// All destinations.
    destinations: Vec<Destination>,
    /// All intermediate-square masks.
    pub masks: Vec<Bitboard>,
    /// Per `mover * 100 + square`: every destination, paths ignored.
    reach: Vec<Bitboard>,
    /// Per square: the escape's destinations.
    escape: Vec<Bitboard>,
    /// Per mover: whether it jumps (intermediate squares may hold pieces).
    jumps: [bool; MOVERS],
}

impl PathTables {
    /// Builds the tables for `flags`.
    pub fn new(flags: &RuleFlags) -> PathTables {
        let mut tables = PathTables {
            ranges: Vec::with_capacity(MOVERS * SQUARES),
            destinations: Vec::new(),
            masks: Vec::new(),
            reach: Vec::with_capacity(MOVERS * SQUARES),
            escape: Vec::with_capacity(SQUARES),
            jumps: [false; MOVERS],
        };
        let up_to = flags.steps == Steps::UpTo;
        let straight = flags.paths == Paths::Straight;
        let pattern = |directions: &'static [usize], steps: usize| Pattern {
            directions,
            steps,
            up_to: up_to && steps > 1,
            straight,
        };
        for slot in 0..MOVERS {
            let kind = if slot >= 7 {
                Kind::Panthan
            } else {
                Kind::from_index(slot + 1)
            };
            tables.jumps[slot] = match kind {
                Kind::Flier => flags.flier == FlierRule::Jumps,
                Kind::Princess => true,
                Kind::Thoat => flags.thoat == ThoatRule::Knight,
                _ => false,
            };
            for square in 0..SQUARES {
                let paths = match kind {
                    Kind::Warrior => pattern(ORTHOGONAL, 2).paths(square),
                    Kind::Padwar => pattern(DIAGONAL, 2).paths(square),
                    Kind::Dwar => pattern(ORTHOGONAL, 3).paths(square),
                    Kind::Flier => pattern(DIAGONAL, 3).paths(square),
                    Kind::Chief | Kind::Princess => pattern(ANY, 3).paths(square),
                    Kind::Thoat => thoat_paths(square, flags.thoat),
                    Kind::Panthan => {
                        let forward = match (slot == 7, flags.panthan) {
                            (true, PanthanRule::ForwardDiagonals) => FORWARD_BLACK,
                            (false, PanthanRule::ForwardDiagonals) => FORWARD_ORANGE,
                            (true, PanthanRule::AllDiagonals) => ALL_DIAGONALS_BLACK,
                            (false, PanthanRule::AllDiagonals) => ALL_DIAGONALS_ORANGE,
                        };
                        pattern(forward, 1).paths(square)
                    }
                };
                tables.push(paths);
            }
        }
        for square in 0..SQUARES {
            let reach = match flags.escape {
                EscapeRule::PathOfTen => escape_of_ten(square),
                EscapeRule::StraightUpToTen => {
                    let mut set = 0;
                    for step in DIRECTIONS {
                        let mut at = square;
                        for _ in 0..10 {
                            match offset(at, step) {
                                Some(next) => {
                                    set |= 1u128 << next;
                                    at = next;
                                }
                                None => break,
                            }
                        }
                    }
                    set
                }
            };
            tables.escape.push(reach);
        }
        tables
    }

    /// Groups `paths` (destination, intermediate squares) by destination,
    /// keeping only minimal masks, and appends them for the next slot.
    fn push(&mut self, mut paths: Vec<(usize, Bitboard)>) {
        paths.sort_by_key(|(dest, mask)| (*dest, mask.count_ones(), *mask));
        let start = self.destinations.len() as u32;
        let mut reach = 0;
        let mut i = 0;
        while i < paths.len() {
            let dest = paths[i].0;
            let first_mask = self.masks.len() as u32;
            let mut kept: Vec<Bitboard> = Vec::new();
            while i < paths.len() && paths[i].0 == dest {
                let mask = paths[i].1;
                // Sorted by size, so any subset of `mask` is already kept.
                if !kept.iter().any(|k| k & mask == *k) {
                    kept.push(mask);
                }
                i += 1;
            }
            reach |= 1u128 << dest;
            self.masks.extend_from_slice(&kept);
            self.destinations.push(Destination {
                square: dest as u8,
                first_mask,
                mask_count: kept.len() as u32,
            });
        }
        self.ranges.push((start, self.destinations.len() as u32));
        self.reach.push(reach);
    }

    /// The destinations of `mover` from `square`.
    #[inline]
    pub fn destinations(&self, mover: usize, square: usize) -> &[Destination] {
        let (start, end) = self.ranges[mover * SQUARES + square];
        &self.destinations[start as usize..end as usize]
    }

    /// Every destination of `mover` from `square`, paths ignored.
    #[inline]
    pub fn reach(&self, mover: usize, square: usize) -> Bitboard {
        self.reach[mover * SQUARES + square]
    }

    /// The escape's destinations from `square`, before the empty and
    /// unthreatened tests.
    #[inline]
    pub fn escape(&self, square: usize) -> Bitboard {
        self.escape[square]
    }

    /// Whether `mover` jumps.
    #[inline]
    pub fn jumps(&self, mover: usize) -> bool {
        self.jumps[mover]
    }

    /// Whether some path of `dest` avoids every square of `blocked`.
    #[inline]
    pub fn open(&self, dest: &Destination, blocked: Bitboard) -> bool {
        let start = dest.first_mask as usize;
        self.masks[start..start + dest.mask_count as usize]
            .iter()
            .any(|m| m & blocked == 0)
    }
}

impl Pattern {
    /// Every path from `square`: (destination, intermediate squares). No
    /// path visits a square twice, the start included ("Combination").
    fn paths(&self, square: usize) -> Vec<(usize, Bitboard)> {
        let mut out = Vec::new();
        self.extend(square, 1u128 << square, 0, 0, None, &mut out);
        out
    }

    fn extend(
        &self,
        at: usize,
        visited: Bitboard,
        between: Bitboard,
        taken: usize,
        first: Option<usize>,
        out: &mut Vec<(usize, Bitboard)>,
    ) {
        for &d in self.directions {
            if self.straight && first.is_some_and(|f| f != d) {
                continue;
            }
            let Some(next) = offset(at, DIRECTIONS[d]) else {
                continue;
            };
            if visited & (1u128 << next) != 0 {
                continue;
            }
            let taken = taken + 1;
            if taken == self.steps || self.up_to {
                out.push((next, between));
            }
            if taken < self.steps {
                self.extend(
                    next,
                    visited | (1u128 << next),
                    between | (1u128 << next),
                    taken,
                    Some(d),
                    out,
                );
            }
        }
    }
}

/// The Thoat's paths: one orthogonal and one diagonal step, in either
/// order, through the square between ("Pieces", Thoat). As a knight, only
/// the paths that end two squares away in one direction count.
fn thoat_paths(square: usize, rule: ThoatRule) -> Vec<(usize, Bitboard)> {
    let mut out = Vec::new();
    for (a, b) in [(ORTHOGONAL, DIAGONAL), (DIAGONAL, ORTHOGONAL)] {
        for &first in a {
            let Some(mid) = offset(square, DIRECTIONS[first]) else {
                continue;
            };
            for &second in b {
                if let Some(dest) = offset(mid, DIRECTIONS[second])
                    && dest != square
                    && (rule == ThoatRule::Path || chebyshev(square, dest) == 2)
                {
                    out.push((dest, 1u128 << mid));
                }
            }
        }
    }
    out
}

/// The squares a ten-step self-avoiding king walk from `square` can end on
/// (the escape jumps, so only the walk's existence matters). Found by a
/// depth-first search per destination that prunes walks which can no longer
/// reach it in the steps left.
fn escape_of_ten(square: usize) -> Bitboard {
    let mut set = 0;
    for dest in 0..SQUARES {
        if dest != square && walk_exists(square, dest, 10, 1u128 << square) {
            set |= 1u128 << dest;
        }
    }
    set
}

fn chebyshev(a: usize, b: usize) -> usize {
    let df = (a % 10).abs_diff(b % 10);
    let dr = (a / 10).abs_diff(b / 10);
    df.max(dr)
}

fn walk_exists(at: usize, dest: usize, left: usize, visited: Bitboard) -> bool {
    if left == 0 {
        return at == dest;
    }
    if chebyshev(at, dest) > left {
        return false;
    }
    for step in DIRECTIONS {
        if let Some(next) = offset(at, step)
            && visited & (1u128 << next) == 0
            && (next != dest || left == 1)
            && walk_exists(next, dest, left - 1, visited | (1u128 << next))
        {
            return true;
        }
    }
    false
}

impl fmt::Display for RuleFlags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}
