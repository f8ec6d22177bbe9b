//! A Jetan position, its one-line notation, legal move generation, making a
//! move (copy-make), the end-of-game rules and perft.
//!
//! A position carries its Zobrist key and, for the repetition rule, a
//! fixed ring of the keys of the positions before it: copying it to make a
//! move never allocates.

use std::fmt;

use super::rules::{
    Bitboard, ChiefTakenByOther, Color, EndgameRule, Kind, NoMovesRule, PathTables, PieceValues,
    PrincessThreat, RepetitionRule, RuleFlags, SQUARES, SetupRule, ThreatRule, mover, square_name,
};

/// A move: origin, destination and whether it is the Princess's escape.
/// Different paths to one destination are one move (issue 8, "Moves").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move {
    /// Origin square.
    pub from: u8,
    /// Destination square.
    pub to: u8,
    /// Whether this is the Princess's once-a-game escape.
    pub escape: bool,
}

impl Move {
    /// Long notation: `e1-e4`, or `f1*f8` for the escape.
    pub fn text(&self) -> String {
        format!(
            "{}{}{}",
            square_name(self.from as usize),
            if self.escape { '*' } else { '-' },
            square_name(self.to as usize)
        )
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// The most moves a position can have: far above the real maximum (a Chief
/// has at most 48 destinations, a Princess 48 and 99 escapes, and no other
/// piece more than 24), so pushes never check.
pub(crate) const MAX_MOVES: usize = 640;

/// A fixed-capacity move list: generation never allocates.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [Move::default(); MAX_MOVES],
            len: 0,
        }
    }
}

impl MoveList {
    /// The moves generated.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves, mutable (for ordering).
    #[inline]
    pub(crate) fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum End {
    /// `winner` moved a piece onto the enemy Princess ("Win").
    PrincessTaken {
        /// The side that took her.
        winner: Color,
    },
    /// `winner`'s Chief took the enemy Chief ("Win").
    ChiefTakesChief {
        /// The side whose Chief took.
        winner: Color,
    },
    /// A piece other than the enemy Chief took a Chief: a draw ("Draw"),
    /// or with `chief_taken_by_other = loss` a win for the taker.
    ChiefTakenByOther {
        /// The winner under the `loss` reading; `None` for the draw.
        winner: Option<Color>,
    },
    /// Both sides reduced to three pieces or fewer (of equal value under
    /// the book reading) and no win in the ten moves after ("Draw").
    Endgame,
    /// The side to move has no legal move: a draw (issue 8), or with
    /// `no_moves = loss` a win for the other side.
    NoMoves {
        /// The winner under the `loss` reading; `None` for the draw.
        winner: Option<Color>,
    },
    /// A position occurred for the third time: a draw under
    /// `repetition = threefold-draw`.
    Repetition,
}

impl End {
    /// The winning side, if any.
    pub fn winner(&self) -> Option<Color> {
        match *self {
            End::PrincessTaken { winner } | End::ChiefTakesChief { winner } => Some(winner),
            End::ChiefTakenByOther { winner } | End::NoMoves { winner } => winner,
            End::Endgame | End::Repetition => None,
        }
    }

    /// A short description.
    pub fn describe(&self) -> String {
        match self.winner() {
            Some(w) => match self {
                End::PrincessTaken { .. } => format!("{} takes the Princess", w.name()),
                End::ChiefTakesChief { .. } => format!("{}'s Chief takes the Chief", w.name()),
                End::NoMoves { .. } => {
                    format!("{} wins: {} has no legal move", w.name(), w.other().name())
                }
                _ => format!("{} takes the Chief (a loss for the Chief's side)", w.name()),
            },
            None => match self {
                End::ChiefTakenByOther { .. } => "draw: a Chief taken by another piece".into(),
                End::Endgame => "draw: the ten-move endgame rule".into(),
                End::Repetition => "draw: a position repeated three times".into(),
                _ => "draw: the side to move has no legal move".into(),
            },
        }
    }
}

/// Moves without a win before the endgame rule draws: ten, five apiece.
pub(crate) const ENDGAME_PLIES: u8 = 10;

/// Plies of history the repetition rule looks back over (fifty moves a
/// side): an earlier occurrence is forgotten.
pub const HISTORY: usize = 100;

/// How a perft count treats a game that ended before the last ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Terminal {
    /// A finished game is one leaf, whatever the plies left (issue 8).
    #[default]
    Leaf,
    /// The chess convention: only nodes at the full depth count, so a game
    /// finished earlier contributes nothing below its ply.
    Chess,
}

/// 64-bit keys for hashing positions: one per piece code (1 to 16) and
/// square, one for Orange to move, one per side's unused escape. Drawn at
/// compile time from SplitMix64, so the same on every platform.
struct Zobrist {
    pieces: [[u64; SQUARES]; 16],
    orange_to_move: u64,
    escape: [u64; 2],
}

const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const ZOBRIST: Zobrist = {
    let mut state = 0x4a45_5441_4e00_0001; // "JETAN" and a counter
    let mut pieces = [[0u64; SQUARES]; 16];
    let mut code = 0;
    while code < 16 {
        let mut square = 0;
        while square < SQUARES {
            pieces[code][square] = splitmix64(&mut state);
            square += 1;
        }
        code += 1;
    }
    let orange_to_move = splitmix64(&mut state);
    let escape = [splitmix64(&mut state), splitmix64(&mut state)];
    Zobrist {
        pieces,
        orange_to_move,
        escape,
    }
};

/// The Zobrist key of piece `code` (1 to 16) on `square`.
#[inline]
fn piece_key(code: u8, square: usize) -> u64 {
    ZOBRIST.pieces[usize::from(code - 1) & 15][square]
}

/// A position: the pieces, the side to move, whether each side still has
/// its escape, the endgame counter, and for the repetition rule the keys
/// of the positions before it. Copied to make a move.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    /// Per square: 0 empty, else `1 + kind + 8 * colour`.
    board: [u8; SQUARES],
    /// Occupied squares per side.
    occupied: [Bitboard; 2],
    /// The side to move.
    side: Color,
    /// Per side: whether the escape is still available.
    escape_available: [bool; 2],
    /// Plies played since the endgame condition began to hold (`None`
    /// while it does not hold).
    endgame_plies: Option<u8>,
    /// Set once the game has ended.
    end: Option<End>,
    /// The pieces' part of the Zobrist key, kept up to date by `put` and
    /// `remove`.
    placement_key: u64,
    /// The keys of the positions before this one since the last capture or
    /// escape, as a ring; kept only under `repetition = threefold-draw`.
    history: [u64; HISTORY],
    /// The ring slot the next key goes to.
    history_next: u8,
    /// Keys in the ring (at most [`HISTORY`]).
    history_len: u8,
}

/// A position string that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad Jetan position {text:?}: {reason}")]
pub struct PositionError {
    /// The text given.
    pub text: String,
    /// What was wrong.
    pub reason: String,
}

/// The set-up (issue 8, "Board and set-up"), in the position notation.
pub(crate) const INITIAL: &str =
    "wpdfqcfdpw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WPDFCQFDPW o bo -";

/// The set-up under `setup = mirrored`: Orange's home row is Black's
/// reflected across the middle of the board (Chief facing Chief).
pub(crate) const INITIAL_MIRRORED: &str =
    "wpdfcqfdpw/tnnnnnnnnt/10/10/10/10/10/10/TNNNNNNNNT/WPDFCQFDPW o bo -";

#[inline]
fn code(kind: Kind, color: Color) -> u8 {
    1 + kind as u8 + 8 * color as u8
}

impl Position {
    /// The initial position with Orange to move (the default first mover).
    pub fn initial() -> Position {
        match Position::parse(INITIAL) {
            Ok(p) => p,
            Err(e) => unreachable!("the built-in set-up parses: {e}"),
        }
    }

    /// An empty board with `side` to move and both escapes available.
    pub fn empty(side: Color) -> Position {
        Position {
            board: [0; SQUARES],
            occupied: [0; 2],
            side,
            escape_available: [true; 2],
            endgame_plies: None,
            end: None,
            placement_key: 0,
            history: [0; HISTORY],
            history_next: 0,
            history_len: 0,
        }
    }

    /// The Zobrist key: the pieces on their squares, the side to move and
    /// the unused escapes (not the endgame counter), as the repetition rule
    /// compares positions.
    #[inline]
    pub fn key(&self) -> u64 {
        let mut key = self.placement_key;
        if self.side == Color::Orange {
            key ^= ZOBRIST.orange_to_move;
        }
        for side in 0..2 {
            if self.escape_available[side] {
                key ^= ZOBRIST.escape[side];
            }
        }
        key
    }

    /// How many of the positions in the history, with the same side to
    /// move, have `key`.
    fn occurrences(&self, key: u64) -> usize {
        // The newest entry is the position just before (the other side to
        // move); entries two, four, ... plies back have this side to move.
        let next = usize::from(self.history_next);
        (2..=usize::from(self.history_len))
            .step_by(2)
            .filter(|back| self.history[(next + HISTORY - back) % HISTORY] == key)
            .count()
    }

    /// Records `key` (the position before this one) in the history.
    fn remember(&mut self, key: u64) {
        self.history[usize::from(self.history_next)] = key;
        self.history_next = ((usize::from(self.history_next) + 1) % HISTORY) as u8;
        self.history_len = (usize::from(self.history_len) + 1).min(HISTORY) as u8;
    }

    /// Reads the one-line notation: ranks 10 down to 1 separated by `/`
    /// (letters `n w p d f c q t` for Panthan, Warrior, Padwar, Dwar,
    /// Flier, Chief, Princess, Thoat; upper case Black, lower case Orange;
    /// digits count empty squares), then the side to move (`b` or `o`), the
    /// sides whose escape is unused (`b`, `o`, `bo` or `-`) and the endgame
    /// counter (`-` or plies since the condition began).
    pub fn parse(text: &str) -> Result<Position, PositionError> {
        let bad = |reason: String| PositionError {
            text: text.to_string(),
            reason,
        };
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 4 {
            return Err(bad(format!(
                "expected 4 fields (placement, side, escapes, endgame counter), found {}",
                fields.len()
            )));
        }
        let mut position = Position::empty(Color::Black);
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 10 {
            return Err(bad(format!("expected 10 ranks, found {}", ranks.len())));
        }
        for (row, rank_text) in ranks.iter().enumerate() {
            let rank = 9 - row;
            let mut file = 0usize;
            let mut chars = rank_text.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    let mut run = d as usize;
                    if d == 1 && chars.peek() == Some(&'0') {
                        chars.next();
                        run = 10;
                    }
                    if run == 0 {
                        return Err(bad(format!("rank {}: an empty run of 0", rank + 1)));
                    }
                    file += run;
                } else {
                    let kind = Kind::from_letter(c)
                        .ok_or_else(|| bad(format!("rank {}: unknown piece {c:?}", rank + 1)))?;
                    let color = if c.is_ascii_uppercase() {
                        Color::Black
                    } else {
                        Color::Orange
                    };
                    if file >= 10 {
                        return Err(bad(format!("rank {} has more than 10 squares", rank + 1)));
                    }
                    position.put(rank * 10 + file, kind, color);
                    file += 1;
                }
                if file > 10 {
                    return Err(bad(format!("rank {} has more than 10 squares", rank + 1)));
                }
            }
            if file != 10 {
                return Err(bad(format!(
                    "rank {} has {file} squares, expected 10",
                    rank + 1
                )));
            }
        }
        for color in [Color::Black, Color::Orange] {
            for kind in [Kind::Chief, Kind::Princess] {
                let count = position.count(kind, color);
                if count > 1 {
                    return Err(bad(format!(
                        "{} has {count} {}s, expected at most one",
                        color.name(),
                        kind.name()
                    )));
                }
            }
            if position.count(Kind::Princess, color) == 0 {
                return Err(bad(format!("{} has no Princess", color.name())));
            }
        }
        position.side = match fields[1] {
            "b" => Color::Black,
            "o" => Color::Orange,
            other => {
                return Err(bad(format!(
                    "side to move: expected b or o, found {other:?}"
                )));
            }
        };
        position.escape_available = match fields[2] {
            "bo" => [true, true],
            "b" => [true, false],
            "o" => [false, true],
            "-" => [false, false],
            other => {
                return Err(bad(format!(
                    "escapes: expected bo, b, o or -, found {other:?}"
                )));
            }
        };
        position.endgame_plies = match fields[3] {
            "-" => None,
            n => match n.parse::<u8>() {
                Ok(v) if v < ENDGAME_PLIES => Some(v),
                _ => {
                    return Err(bad(format!(
                        "endgame counter: expected - or 0 to {}, found {n:?}",
                        ENDGAME_PLIES - 1
                    )));
                }
            },
        };
        Ok(position)
    }

    /// The position in the one-line notation ([`Position::parse`] reads it back).
    pub fn notation(&self) -> String {
        let mut out = String::new();
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..10 {
                match self.piece(rank * 10 + file) {
                    None => empty += 1,
                    Some((kind, color)) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let c = kind.letter();
                        out.push(if color == Color::Black {
                            c.to_ascii_uppercase()
                        } else {
                            c
                        });
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(match self.side {
            Color::Black => " b ",
            Color::Orange => " o ",
        });
        out.push_str(match self.escape_available {
            [true, true] => "bo",
            [true, false] => "b",
            [false, true] => "o",
            [false, false] => "-",
        });
        match self.endgame_plies {
            None => out.push_str(" -"),
            Some(n) => out.push_str(&format!(" {n}")),
        }
        out
    }

    /// Places a piece (used by parsing and composed positions).
    pub fn put(&mut self, square: usize, kind: Kind, color: Color) {
        self.remove(square);
        let code = code(kind, color);
        self.board[square] = code;
        self.placement_key ^= piece_key(code, square);
        self.occupied[color.index()] |= 1u128 << square;
    }

    fn remove(&mut self, square: usize) {
        let old = self.board[square];
        if old != 0 {
            self.placement_key ^= piece_key(old, square);
        }
        self.board[square] = 0;
        let bit = !(1u128 << square);
        self.occupied[0] &= bit;
        self.occupied[1] &= bit;
    }

    /// The piece on `square`, if any.
    #[inline]
    pub fn piece(&self, square: usize) -> Option<(Kind, Color)> {
        let c = self.board[square];
        (c != 0).then(|| {
            let k = c - 1;
            (
                Kind::from_index(usize::from(k & 7)),
                if k >= 8 { Color::Orange } else { Color::Black },
            )
        })
    }

    /// The side to move.
    #[inline]
    pub fn side(&self) -> Color {
        self.side
    }

    /// This position with `side` to move (for mobility counts).
    pub fn with_side(&self, side: Color) -> Position {
        let mut p = self.clone();
        p.side = side;
        p
    }

    /// How the game ended, if it has.
    #[inline]
    pub fn end(&self) -> Option<End> {
        self.end
    }

    #[cfg(test)]
    /// Whether `color` may still make the escape.
    pub(crate) fn escape_available(&self, color: Color) -> bool {
        self.escape_available[color.index()]
    }

    #[cfg(test)]
    /// The endgame counter: plies since the condition began, if it holds.
    pub(crate) fn endgame_plies(&self) -> Option<u8> {
        self.endgame_plies
    }

    /// Squares occupied by `color`.
    #[inline]
    pub(crate) fn occupied(&self, color: Color) -> Bitboard {
        self.occupied[color.index()]
    }

    /// Number of `kind` pieces of `color`.
    pub fn count(&self, kind: Kind, color: Color) -> usize {
        let c = code(kind, color);
        self.board.iter().filter(|&&b| b == c).count()
    }

    /// The square of `color`'s piece of `kind` (first one found).
    pub fn find(&self, kind: Kind, color: Color) -> Option<usize> {
        let c = code(kind, color);
        let mut bits = self.occupied[color.index()];
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize;
            if self.board[sq] == c {
                return Some(sq);
            }
            bits &= bits - 1;
        }
        None
    }

    /// Number of pieces of `color`.
    #[inline]
    pub fn pieces(&self, color: Color) -> u32 {
        self.occupied[color.index()].count_ones()
    }

    /// Total value of `color`'s pieces.
    pub fn material(&self, color: Color, values: &PieceValues) -> u32 {
        let mut total = 0;
        let mut bits = self.occupied[color.index()];
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize;
            if let Some((kind, _)) = self.piece(sq) {
                total += u32::from(values.of(kind));
            }
            bits &= bits - 1;
        }
        total
    }

    /// The board drawn in ten lines, rank 10 at the top.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for rank in (0..10).rev() {
            out.push_str(&format!("{:>2} ", rank + 1));
            for file in 0..10 {
                let c = match self.piece(rank * 10 + file) {
                    None => '.',
                    Some((kind, Color::Black)) => kind.letter().to_ascii_uppercase(),
                    Some((kind, Color::Orange)) => kind.letter(),
                };
                out.push(' ');
                out.push(c);
            }
            out.push('\n');
        }
        out.push_str("    a b c d e f g h i j");
        out
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

/// The rules in force: flags, piece values and the path tables they imply.
#[derive(Debug, Clone)]
pub struct Rules {
    /// The rule flags.
    pub flags: RuleFlags,
    /// Piece values.
    pub values: PieceValues,
    tables: PathTables,
}

impl Rules {
    /// Rules for `flags` and `values` (builds the path tables).
    pub fn new(flags: RuleFlags, values: PieceValues) -> Rules {
        Rules {
            tables: PathTables::new(&flags),
            flags,
            values,
        }
    }

    /// The book rules with the printed values.
    pub fn book() -> Rules {
        Rules::new(RuleFlags::default(), PieceValues::default())
    }

    /// The set-up under the `setup` flag, Orange to move.
    pub fn start_position(&self) -> Position {
        let text = match self.flags.setup {
            SetupRule::Rotated => INITIAL,
            SetupRule::Mirrored => INITIAL_MIRRORED,
        };
        match Position::parse(text) {
            Ok(p) => p,
            Err(e) => unreachable!("the built-in set-ups parse: {e}"),
        }
    }

    /// How the game ends when `side`, to move, has no legal move.
    pub fn no_moves_end(&self, side: Color) -> End {
        End::NoMoves {
            winner: match self.flags.no_moves {
                NoMovesRule::Draw => None,
                NoMovesRule::Loss => Some(side.other()),
            },
        }
    }

    /// The squares `color`'s pieces other than the Princess could move
    /// onto with `occupancy` on the board, whatever stands there: where an
    /// enemy Princess would be threatened.
    pub(crate) fn threats(
        &self,
        position: &Position,
        color: Color,
        occupancy: Bitboard,
    ) -> Bitboard {
        let mut set = 0;
        let mut bits = position.occupied(color);
        while bits != 0 {
            let from = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let Some((kind, _)) = position.piece(from) else {
                continue;
            };
            if kind == Kind::Princess {
                continue; // she never captures ("Princess").
            }
            let slot = mover(kind, color);
            if self.tables.jumps(slot) {
                set |= self.tables.reach(slot, from);
                continue;
            }
            let blockers = occupancy & !(1u128 << from);
            for dest in self.tables.destinations(slot, from) {
                if set & (1u128 << dest.square) == 0 && self.tables.open(dest, blockers) {
                    set |= 1u128 << dest.square;
                }
            }
        }
        set
    }

    /// Every legal move of the side to move (none once the game has ended).
    pub(crate) fn generate(&self, position: &Position, list: &mut MoveList) {
        list.len = 0;
        if position.end.is_some() {
            return;
        }
        let side = position.side;
        let own = position.occupied(side);
        let all = own | position.occupied(side.other());
        let mut bits = own;
        while bits != 0 {
            let from = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let Some((kind, _)) = position.piece(from) else {
                continue;
            };
            let slot = mover(kind, side);
            if kind == Kind::Princess {
                self.princess_moves(position, from, all, list);
                continue;
            }
            if self.tables.jumps(slot) {
                push_targets(list, from, self.tables.reach(slot, from) & !own, false);
                continue;
            }
            let blockers = all & !(1u128 << from);
            for dest in self.tables.destinations(slot, from) {
                if own & (1u128 << dest.square) == 0 && self.tables.open(dest, blockers) {
                    list.push(Move {
                        from: from as u8,
                        to: dest.square,
                        escape: false,
                    });
                }
            }
        }
    }

    /// The Princess's moves: ordinary moves and the escape, onto empty
    /// squares only (she never captures) that no enemy piece could then
    /// take her on ("Princess").
    fn princess_moves(&self, position: &Position, from: usize, all: Bitboard, list: &mut MoveList) {
        let side = position.side;
        let slot = mover(Kind::Princess, side);
        let empty = !all & super::rules::ALL_SQUARES;
        let ordinary = self.tables.reach(slot, from) & empty;
        let escape = if position.escape_available[side.index()] {
            self.tables.escape(from) & empty
        } else {
            0
        };
        if ordinary | escape == 0 {
            return;
        }
        // Under the book reading she leaves `from` first; her standing on
        // the destination cannot block a path to it (paths never revisit),
        // so one threat set serves all.
        let board = match self.flags.threatened {
            ThreatRule::AfterMove => all & !(1u128 << from),
            ThreatRule::BeforeMove => all,
        };
        let threatened = self.threats(position, side.other(), board);
        let safe = !threatened;
        match self.flags.princess_threat {
            PrincessThreat::Destination => {
                push_targets(list, from, ordinary & safe, false);
            }
            PrincessThreat::Path => {
                for dest in self.tables.destinations(slot, from) {
                    let bit = 1u128 << dest.square;
                    if ordinary & safe & bit != 0 && self.tables.open(dest, threatened) {
                        list.push(Move {
                            from: from as u8,
                            to: dest.square,
                            escape: false,
                        });
                    }
                }
            }
        }
        push_targets(list, from, escape & safe, true);
    }

    /// Whether `color`'s Princess stands where the enemy could take her.
    pub(crate) fn princess_exposed(&self, position: &Position, color: Color) -> bool {
        match position.find(Kind::Princess, color) {
            None => false,
            Some(sq) => {
                let all = position.occupied(Color::Black) | position.occupied(Color::Orange);
                let enemy = color.other();
                self.threats(position, enemy, all) & (1u128 << sq) != 0
            }
        }
    }

    /// The position after `m` (which must be legal), with the end of the
    /// game recorded if the move ends it ("Win", "Draw").
    pub fn play(&self, position: &Position, m: Move) -> Position {
        let mut next = position.clone();
        let from = usize::from(m.from);
        let to = usize::from(m.to);
        let side = position.side;
        let Some((kind, _)) = position.piece(from) else {
            return next;
        };
        let captured = position.piece(to).map(|(k, _)| k);
        next.remove(to);
        next.remove(from);
        next.put(to, kind, side);
        if m.escape {
            next.escape_available[side.index()] = false;
        }
        next.side = side.other();
        next.end = match captured {
            Some(Kind::Princess) => Some(End::PrincessTaken { winner: side }),
            Some(Kind::Chief) if kind == Kind::Chief => Some(End::ChiefTakesChief { winner: side }),
            Some(Kind::Chief) => Some(End::ChiefTakenByOther {
                winner: match self.flags.chief_taken_by_other {
                    ChiefTakenByOther::Draw => None,
                    ChiefTakenByOther::Loss => Some(side),
                },
            }),
            _ => None,
        };
        if next.end.is_none() {
            next.endgame_plies = if self.endgame_condition(&next) {
                Some(position.endgame_plies.map_or(0, |n| n + 1))
            } else {
                None
            };
            if next.endgame_plies == Some(ENDGAME_PLIES) {
                next.end = Some(End::Endgame);
            }
        }
        if self.flags.repetition == RepetitionRule::ThreefoldDraw {
            if captured.is_some() || m.escape {
                // Nothing before can recur: the pieces or escapes differ.
                next.history_len = 0;
            } else {
                next.remember(position.key());
            }
            if next.end.is_none() && next.occurrences(next.key()) >= 2 {
                next.end = Some(End::Repetition);
            }
        }
        next
    }

    /// Whether the drawn-endgame condition holds: both sides at three
    /// pieces or fewer, of equal total value under the book reading.
    pub(crate) fn endgame_condition(&self, position: &Position) -> bool {
        let few = position.pieces(Color::Black) <= 3 && position.pieces(Color::Orange) <= 3;
        few && match self.flags.endgame {
            EndgameRule::TenMovesEqualValue => {
                position.material(Color::Black, &self.values)
                    == position.material(Color::Orange, &self.values)
            }
            EndgameRule::FiveEachAnyValue => true,
        }
    }

    /// The game's end in `position`, counting a side to move without a
    /// legal move as an end too (see [`Rules::no_moves_end`]).
    pub fn outcome(&self, position: &Position, list: &mut MoveList) -> Option<End> {
        if let Some(end) = position.end {
            return Some(end);
        }
        self.generate(position, list);
        list.is_empty().then(|| self.no_moves_end(position.side))
    }

    #[cfg(test)]
    /// Finds the legal move written `text` (`e1-e4`, or `f1*f8` for the
    /// escape).
    pub(crate) fn parse_move(&self, position: &Position, text: &str) -> Option<Move> {
        let (from, to, escape) = if let Some((a, b)) = text.split_once('-') {
            (a, b, false)
        } else {
            let (a, b) = text.split_once('*')?;
            (a, b, true)
        };
        let m = Move {
            from: super::rules::parse_square(from)? as u8,
            to: super::rules::parse_square(to)? as u8,
            escape,
        };
        let mut list = MoveList::default();
        self.generate(position, &mut list);
        list.as_slice().contains(&m).then_some(m)
    }

    /// Leaf count of the legal move tree to `depth` plies. A position where
    /// the game has ended before `depth` (a side with no legal move
    /// included) is one leaf under [`Terminal::Leaf`] and none under
    /// [`Terminal::Chess`].
    pub fn perft(&self, position: &Position, depth: u32, terminal: Terminal) -> u64 {
        let mut stack = vec![MoveList::default(); depth as usize + 1];
        let finished = u64::from(terminal == Terminal::Leaf);
        self.perft_with(position, depth, finished, &mut stack)
    }

    /// Perft below `position`; `finished` is what a game ended before the
    /// last ply counts.
    fn perft_with(
        &self,
        position: &Position,
        depth: u32,
        finished: u64,
        stack: &mut [MoveList],
    ) -> u64 {
        if depth == 0 {
            return 1;
        }
        if position.end.is_some() {
            return finished;
        }
        let Some((list, rest)) = stack.split_first_mut() else {
            return 1;
        };
        self.generate(position, list);
        if list.is_empty() {
            return finished;
        }
        if depth == 1 {
            return list.len() as u64;
        }
        let mut nodes = 0;
        for &m in list.as_slice() {
            nodes += self.perft_with(&self.play(position, m), depth - 1, finished, rest);
        }
        nodes
    }

    /// Perft per root move: `(move, leaf count)`.
    pub fn divide(&self, position: &Position, depth: u32, terminal: Terminal) -> Vec<(Move, u64)> {
        let mut list = MoveList::default();
        self.generate(position, &mut list);
        list.as_slice()
            .iter()
            .map(|&m| {
                let child = self.play(position, m);
                (m, self.perft(&child, depth.saturating_sub(1), terminal))
            })
            .collect()
    }
}

fn push_targets(list: &mut MoveList, from: usize, mut targets: Bitboard, escape: bool) {
    while targets != 0 {
        let to = targets.trailing_zeros();
        targets &= targets - 1;
        list.push(Move {
            from: from as u8,
            to: to as u8,
            escape,
        });
    }
}
