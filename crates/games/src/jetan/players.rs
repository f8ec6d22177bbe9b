//! Jetan players: `random`, `greedy`, `alphabeta` and `mcts`. Budgets are
//! counted in nodes or playouts, never time, and every random choice comes
//! from the trial's [`Dice`], so a game replays exactly. Search buffers live
//! in a [`Workspace`] that is reused from move to move and game to game.

use std::fmt;

use super::position::{End, MAX_MOVES, Move, MoveList, Position, Rules};
use super::rules::{Color, Kind};
use barsoom_engine::rng::Dice;

/// The default node budget of `alphabeta`.
pub(crate) const DEFAULT_NODES: u64 = 2_000;
/// The default playout budget of `mcts`.
pub(crate) const DEFAULT_PLAYOUTS: u32 = 200;
/// Plies of random play in one MCTS playout before material decides it.
pub(crate) const PLAYOUT_PLIES: u32 = 40;
/// The deepest search `alphabeta` tries.
const MAX_DEPTH: usize = 32;
/// A won position's score (less the plies to reach it).
const WIN: i32 = 1_000_000;
/// Centipawns per point of piece value in the evaluation.
const MATERIAL_WEIGHT: i32 = 100;
/// Centipawns per legal move of difference in the evaluation.
const MOBILITY_WEIGHT: i32 = 2;

/// A player's strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Player {
    /// A uniformly random legal move.
    Random,
    /// Wins when it can; never leaves its Princess where the enemy could
    /// take her when it can avoid it; otherwise takes the most valuable
    /// piece (a capture that only draws counts as none); ties at random.
    Greedy,
    /// Iterative-deepening negamax with alpha-beta pruning within a node
    /// budget; material and mobility evaluation; winning moves and
    /// captures of valuable pieces searched first.
    AlphaBeta {
        /// Nodes searched per move.
        nodes: u64,
    },
    /// Monte Carlo tree search (UCT) with a playout budget.
    Mcts {
        /// Playouts per move.
        playouts: u32,
    },
}

/// The most nodes `alphabeta` may search per move (its memory does not
/// grow with them: the search is depth-first, at most [`MAX_DEPTH`] deep).
pub(crate) const MAX_NODES: u64 = 1_000_000_000;
/// The most memory one MCTS tree may take, per search thread.
const MAX_TREE_BYTES: usize = 256 * 1024 * 1024;
/// The most playouts `mcts` may run per move: each expands at most one
/// node into at most [`MAX_MOVES`] children, so the tree stays within
/// [`MAX_TREE_BYTES`] (a budget of 100,000,000 grew 14 MB/s).
pub(crate) const MAX_PLAYOUTS: u32 = {
    let most = MAX_TREE_BYTES / (MAX_MOVES * std::mem::size_of::<Node>());
    assert!(most >= 1_000 && most <= u32::MAX as usize);
    most as u32
};

/// A player name that is not one of the players, or a budget out of range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// Not one of the players.
    #[error("expected a player random, greedy, alphabeta[:NODES] or mcts[:PLAYOUTS], found {0:?}")]
    Unknown(String),
    /// A budget that is not a whole number within its bounds.
    #[error("expected {player} with a budget of 1 to {max} {unit}{why}, found {found:?}")]
    Budget {
        /// The player.
        player: &'static str,
        /// What the budget counts.
        unit: &'static str,
        /// The largest budget.
        max: u64,
        /// Why the bound is there.
        why: &'static str,
        /// The budget as written.
        found: String,
    },
}

impl Player {
    /// Reads `random`, `greedy`, `alphabeta`, `alphabeta:NODES`, `mcts` or
    /// `mcts:PLAYOUTS`.
    pub fn parse(text: &str) -> Result<Player, PlayerError> {
        let (name, budget) = match text.split_once(':') {
            Some((n, b)) => (n, Some(b)),
            None => (text, None),
        };
        let count = |player, unit, default: u64, max: u64, why| -> Result<u64, PlayerError> {
            let Some(b) = budget else {
                return Ok(default);
            };
            b.replace('_', "")
                .parse::<u64>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| PlayerError::Budget {
                    player,
                    unit,
                    max,
                    why,
                    found: b.to_string(),
                })
        };
        match name {
            "random" if budget.is_none() => Ok(Player::Random),
            "greedy" if budget.is_none() => Ok(Player::Greedy),
            "alphabeta" => Ok(Player::AlphaBeta {
                nodes: count("alphabeta", "nodes", DEFAULT_NODES, MAX_NODES, "")?,
            }),
            "mcts" => {
                let why = " (a search tree of at most 256 MiB per thread)";
                let max = u64::from(MAX_PLAYOUTS);
                let n = count("mcts", "playouts", u64::from(DEFAULT_PLAYOUTS), max, why)?;
                Ok(Player::Mcts {
                    playouts: u32::try_from(n).unwrap_or(MAX_PLAYOUTS),
                })
            }
            _ => Err(PlayerError::Unknown(text.to_string())),
        }
    }

    /// Chooses a move in `position`, or `None` when there is none.
    pub fn choose(
        &self,
        rules: &Rules,
        position: &Position,
        dice: &mut Dice,
        work: &mut Workspace,
    ) -> Option<Move> {
        match *self {
            Player::Random => {
                let list = &mut work.lists[0];
                rules.generate(position, list);
                pick(list.as_slice(), dice)
            }
            Player::Greedy => greedy(rules, position, dice, work),
            Player::AlphaBeta { nodes } => alphabeta(rules, position, nodes, dice, work),
            Player::Mcts { playouts } => mcts(rules, position, playouts, dice, work),
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Random => f.write_str("random"),
            Player::Greedy => f.write_str("greedy"),
            Player::AlphaBeta { nodes } => write!(f, "alphabeta:{nodes}"),
            Player::Mcts { playouts } => write!(f, "mcts:{playouts}"),
        }
    }
}

/// Reusable search buffers: a move list and an ordering score list per
/// ply, and the MCTS tree. Allocated once per thread, then only reused.
pub struct Workspace {
    lists: Vec<MoveList>,
    scores: Vec<Vec<i32>>,
    tree: Vec<Node>,
}

impl Default for Workspace {
    fn default() -> Self {
        Workspace {
            lists: vec![MoveList::default(); MAX_DEPTH + 2],
            scores: (0..MAX_DEPTH + 2)
                .map(|_| Vec::with_capacity(MAX_MOVES))
                .collect(),
            tree: Vec::new(),
        }
    }
}

/// Nodes searched against the budget.
struct Budget {
    nodes: u64,
    limit: u64,
    aborted: bool,
}

/// A uniformly random element of `moves`.
fn pick(moves: &[Move], dice: &mut Dice) -> Option<Move> {
    if moves.is_empty() {
        return None;
    }
    Some(moves[dice.below(moves.len() as u32) as usize])
}

/// The value of what `m` takes, or `None` for a quiet move.
fn victim(position: &Position, m: Move) -> Option<Kind> {
    position.piece(usize::from(m.to)).map(|(k, _)| k)
}

fn greedy(
    rules: &Rules,
    position: &Position,
    dice: &mut Dice,
    work: &mut Workspace,
) -> Option<Move> {
    let side = position.side();
    let list = &mut work.lists[0];
    rules.generate(position, list);
    // Rank: (wins, Princess safe, value taken); ties by reservoir sampling.
    let mut best: Option<(bool, bool, u16)> = None;
    let mut chosen = None;
    let mut ties = 0u32;
    for &m in list.as_slice() {
        let child = rules.play(position, m);
        let end = child.end();
        let wins = end.and_then(|e| e.winner()) == Some(side);
        let safe = wins || !rules.princess_exposed(&child, side);
        let taken = match end {
            Some(_) if !wins => 0, // a capture that ends in a draw
            _ => victim(position, m).map_or(0, |k| rules.values.of(k)),
        };
        let rank = (wins, safe, taken);
        match best {
            Some(b) if rank < b => continue,
            Some(b) if rank == b => {
                ties += 1;
                if dice.below(ties) == 0 {
                    chosen = Some(m);
                }
            }
            _ => {
                best = Some(rank);
                chosen = Some(m);
                ties = 1;
            }
        }
    }
    chosen
}

/// The score of a finished game for the side to move.
fn terminal_score(end: End, side: Color, ply: usize) -> i32 {
    match end.winner() {
        Some(w) if w == side => WIN - ply as i32,
        Some(_) => -(WIN - ply as i32),
        None => 0,
    }
}

/// Material and mobility for the side to move, in centipawns.
pub(crate) fn evaluate(rules: &Rules, position: &Position, list: &mut MoveList) -> i32 {
    let side = position.side();
    let material = position.material(side, &rules.values) as i32
        - position.material(side.other(), &rules.values) as i32;
    rules.generate(position, list);
    let mine = list.len() as i32;
    rules.generate(&position.with_side(side.other()), list);
    let theirs = list.len() as i32;
    MATERIAL_WEIGHT * material + MOBILITY_WEIGHT * (mine - theirs)
}

/// Ordering score: winning captures, then captures by victim value less a
/// fraction of the attacker's, then quiet moves.
fn order_score(rules: &Rules, position: &Position, m: Move) -> i32 {
    match victim(position, m) {
        None => 0,
        Some(Kind::Princess) => 1_000_000,
        Some(v) => {
            let attacker = position
                .piece(usize::from(m.from))
                .map_or(0, |(k, _)| i32::from(rules.values.of(k)));
            if v == Kind::Chief && attacker == i32::from(rules.values.of(Kind::Chief)) {
                return 900_000;
            }
            1_000 * i32::from(rules.values.of(v)) - attacker
        }
    }
}

/// Moves the best-scored remaining move to index `i` (selection sort, one
/// step at a time, so cut-offs skip the rest of the sorting).
fn select_next(moves: &mut [Move], scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}

/// Fills `scores` with the ordering score of each move.
fn score_moves(rules: &Rules, position: &Position, moves: &[Move], scores: &mut Vec<i32>) {
    scores.clear();
    scores.extend(moves.iter().map(|&m| order_score(rules, position, m)));
}

/// Negamax with alpha-beta; `lists` and `scores` hold one buffer per ply
/// from this one down.
fn negamax(
    rules: &Rules,
    position: &Position,
    depth: usize,
    (mut alpha, beta): (i32, i32),
    ply: usize,
    buffers: (&mut [MoveList], &mut [Vec<i32>]),
    budget: &mut Budget,
) -> i32 {
    budget.nodes += 1;
    if let Some(end) = position.end() {
        return terminal_score(end, position.side(), ply);
    }
    let (lists, scores) = buffers;
    let (Some((list, lists)), Some((order, scores))) =
        (lists.split_first_mut(), scores.split_first_mut())
    else {
        return 0;
    };
    if depth == 0 {
        return evaluate(rules, position, list);
    }
    if budget.nodes > budget.limit {
        budget.aborted = true;
        return 0;
    }
    rules.generate(position, list);
    if list.is_empty() {
        return terminal_score(rules.no_moves_end(position.side()), position.side(), ply);
    }
    score_moves(rules, position, list.as_slice(), order);
    let mut best = -WIN - 1;
    for i in 0..list.len() {
        select_next(list.as_mut_slice(), order, i);
        let child = rules.play(position, list.as_slice()[i]);
        let buffers = (&mut *lists, &mut *scores);
        let score = -negamax(
            rules,
            &child,
            depth - 1,
            (-beta, -alpha),
            ply + 1,
            buffers,
            budget,
        );
        if budget.aborted {
            break;
        }
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn alphabeta(
    rules: &Rules,
    position: &Position,
    limit: u64,
    dice: &mut Dice,
    work: &mut Workspace,
) -> Option<Move> {
    let (Some((root, lists)), Some((order, scores))) =
        (work.lists.split_first_mut(), work.scores.split_first_mut())
    else {
        return None;
    };
    rules.generate(position, root);
    let count = root.len();
    // Shuffle so that equal scores break at random: the selection below
    // keeps the first of equal scores.
    let moves = root.as_mut_slice();
    for i in (1..count).rev() {
        let j = dice.below(i as u32 + 1) as usize;
        moves.swap(i, j);
    }
    let mut best = moves.first().copied();
    let mut budget = Budget {
        nodes: 0,
        limit,
        aborted: false,
    };
    for depth in 1..=MAX_DEPTH {
        if count <= 1 {
            break;
        }
        score_moves(rules, position, moves, order);
        // The previous iteration's best move first.
        if let Some(i) = moves.iter().position(|&m| Some(m) == best) {
            order[i] = i32::MAX;
        }
        let mut alpha = -WIN - 1;
        let mut iteration_best = None;
        for i in 0..count {
            select_next(moves, order, i);
            let child = rules.play(position, moves[i]);
            let buffers = (&mut *lists, &mut *scores);
            let window = (-WIN - 1, -alpha);
            let score = -negamax(rules, &child, depth - 1, window, 1, buffers, &mut budget);
            // Depth 1 always completes, so there is always a choice.
            if budget.aborted && depth > 1 {
                break;
            }
            if score > alpha {
                alpha = score;
                iteration_best = Some(moves[i]);
            }
        }
        if budget.aborted && depth > 1 {
            break;
        }
        best = iteration_best.or(best);
        let decided = alpha.abs() >= WIN - MAX_DEPTH as i32 - 1;
        if decided || budget.nodes >= limit {
            break; // a forced result, or the budget is spent
        }
    }
    best
}

/// One MCTS tree node: the move into it and its statistics from the view
/// of the side that made that move.
#[derive(Debug, Clone, Copy)]
struct Node {
    mv: Move,
    first_child: u32,
    children: u32,
    expanded: bool,
    visits: u32,
    reward: f32,
}

/// The result of a playout for `side`: 1 win, 0 loss, ½ draw; a playout
/// cut off after [`PLAYOUT_PLIES`] is decided by material.
fn playout(
    rules: &Rules,
    start: &Position,
    side: Color,
    dice: &mut Dice,
    list: &mut MoveList,
) -> f32 {
    let mut position = start.clone();
    for _ in 0..PLAYOUT_PLIES {
        if position.end().is_some() {
            break;
        }
        rules.generate(&position, list);
        match pick(list.as_slice(), dice) {
            Some(m) => position = rules.play(&position, m),
            None => match rules.no_moves_end(position.side()).winner() {
                Some(w) => return f32::from(u8::from(w == side)),
                None => return 0.5,
            },
        }
    }
    match position.end().map(|e| e.winner()) {
        Some(Some(w)) => f32::from(u8::from(w == side)),
        Some(None) => 0.5,
        None => {
            let mine = position.material(side, &rules.values);
            let theirs = position.material(side.other(), &rules.values);
            match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Less => 0.0,
                std::cmp::Ordering::Equal => 0.5,
            }
        }
    }
}

fn mcts(
    rules: &Rules,
    root_position: &Position,
    playouts: u32,
    dice: &mut Dice,
    work: &mut Workspace,
) -> Option<Move> {
    const EXPLORATION: f32 = 1.4;
    let tree = &mut work.tree;
    tree.clear();
    tree.push(Node {
        mv: Move::default(),
        first_child: 0,
        children: 0,
        expanded: false,
        visits: 0,
        reward: 0.0,
    });
    let mut path: [u32; 256] = [0; 256];
    for _ in 0..playouts {
        // Selection: descend by UCT, replaying the moves.
        let mut position = root_position.clone();
        let mut node = 0usize;
        let mut depth = 0usize;
        path[0] = 0;
        while tree[node].expanded && tree[node].children > 0 && depth + 1 < path.len() {
            let parent_visits = tree[node].visits.max(1) as f32;
            let log = parent_visits.ln();
            let first = tree[node].first_child as usize;
            let mut best = first;
            let mut best_value = f32::MIN;
            let children = &tree[first..first + tree[node].children as usize];
            for (offset, child) in children.iter().enumerate() {
                let c = first + offset;
                let value = if child.visits == 0 {
                    // Unvisited children first, in a random order.
                    1.0e9 + dice.below(1024) as f32
                } else {
                    child.reward / child.visits as f32
                        + EXPLORATION * (log / child.visits as f32).sqrt()
                };
                if value > best_value {
                    best_value = value;
                    best = c;
                }
            }
            position = rules.play(&position, tree[best].mv);
            node = best;
            depth += 1;
            path[depth] = node as u32;
        }
        // Expansion.
        if !tree[node].expanded && position.end().is_none() {
            let list = &mut work.lists[0];
            rules.generate(&position, list);
            let first = tree.len() as u32;
            for &m in list.as_slice() {
                tree.push(Node {
                    mv: m,
                    first_child: 0,
                    children: 0,
                    expanded: false,
                    visits: 0,
                    reward: 0.0,
                });
            }
            tree[node].first_child = first;
            tree[node].children = list.len() as u32;
            tree[node].expanded = true;
        }
        // Simulation, from the view of the side that moved into `node`.
        let mover = position.side().other();
        let result = playout(rules, &position, mover, dice, &mut work.lists[1]);
        // Back-propagation: alternate the view at each level.
        let mut reward = result;
        for d in (0..=depth).rev() {
            let n = &mut tree[path[d] as usize];
            n.visits += 1;
            n.reward += reward;
            reward = 1.0 - reward;
        }
    }
    let root = tree[0];
    let first = root.first_child as usize;
    (first..first + root.children as usize)
        .max_by_key(|&c| tree[c].visits)
        .map(|c| tree[c].mv)
        .or_else(|| {
            let list = &mut work.lists[0];
            rules.generate(root_position, list);
            pick(list.as_slice(), dice)
        })
}

#[cfg(test)]
mod tests {
    use super::super::tests::position;
    use super::*;

    fn all_players() -> [Player; 4] {
        [
            Player::Random,
            Player::Greedy,
            Player::AlphaBeta { nodes: 3_000 },
            Player::Mcts { playouts: 200 },
        ]
    }

    #[test]
    fn names_parse_and_print() {
        for text in ["random", "greedy", "alphabeta:500", "mcts:64"] {
            let player = Player::parse(text);
            assert_eq!(player.map(|p| p.to_string()), Ok(text.to_string()));
        }
        assert_eq!(
            Player::parse("alphabeta"),
            Ok(Player::AlphaBeta {
                nodes: DEFAULT_NODES
            })
        );
        for bad in [
            "",
            "stockfish",
            "random:3",
            "alphabeta:0",
            "mcts:x",
            "mcts:99999999999",
            "mcts:100000000",
        ] {
            assert!(Player::parse(bad).is_err(), "{bad}");
        }
        let e = Player::parse("mcts:100000000").unwrap_err().to_string();
        assert!(e.contains("playouts") && e.contains("MiB"), "{e}");
        assert!(Player::parse(&format!("mcts:{MAX_PLAYOUTS}")).is_ok());
    }

    #[test]
    fn every_player_but_random_takes_a_winning_capture() {
        // Black Warrior a3 can take the Orange Princess on c3.
        let rules = Rules::book();
        let p = position("10/10/10/10/10/10/10/W1q4c2/10/9Q b - -");
        for player in all_players().into_iter().skip(1) {
            let mut work = Workspace::default();
            for trial in 0..5 {
                let mut dice = Dice::for_trial(7, trial);
                let m = player.choose(&rules, &p, &mut dice, &mut work);
                assert_eq!(m.map(|m| m.text()), Some("a3-c3".to_string()), "{player}");
            }
        }
    }

    #[test]
    fn greedy_keeps_its_princess_safe_and_takes_the_most_valuable_piece() {
        let rules = Rules::book();
        // Black Dwar d4 may take the Orange Flier on d7 (3) or the Panthan
        // on g4 (1); it takes the Flier. Black's Princess on a1 is not
        // threatened by either move.
        let p = position("9q/10/10/3f6/10/10/3D2n3/10/10/Q9 b - -");
        let mut work = Workspace::default();
        let mut dice = Dice::for_trial(1, 0);
        let m = Player::Greedy.choose(&rules, &p, &mut dice, &mut work);
        assert_eq!(m.map(|m| m.text()), Some("d4-d7".to_string()));
        // The Orange Warrior on a3 threatens her on a1 (through a2) and
        // the Dwar cannot help: greedy moves her to safety.
        let threatened = position("9q/10/10/10/10/10/10/w9/10/Q2D6 b - -");
        for trial in 0..20 {
            let mut dice = Dice::for_trial(3, trial);
            let m = Player::Greedy.choose(&rules, &threatened, &mut dice, &mut work);
            let Some(m) = m else { panic!("no move") };
            let child = rules.play(&threatened, m);
            assert!(!rules.princess_exposed(&child, Color::Black), "{m}");
        }
    }

    #[test]
    fn alphabeta_sees_a_two_ply_threat() {
        // The Orange Warrior on a3 threatens the Black Princess on a1;
        // alphabeta sees the loss one ply ahead and saves her.
        let rules = Rules::book();
        let p = position("9q/10/10/10/10/10/10/w9/10/Q2D6 b - -");
        let mut work = Workspace::default();
        for trial in 0..5 {
            let mut dice = Dice::for_trial(9, trial);
            let player = Player::AlphaBeta { nodes: 5_000 };
            let Some(m) = player.choose(&rules, &p, &mut dice, &mut work) else {
                panic!("no move");
            };
            let child = rules.play(&p, m);
            assert!(!rules.princess_exposed(&child, Color::Black), "{m}");
        }
    }

    #[test]
    fn a_side_without_a_move_scores_by_the_no_moves_flag() {
        // Black has only the Princess and every square she could reach is
        // threatened: a draw by the book, a loss under no_moves = loss, in
        // the search and in the playouts alike.
        let p = position("9q/10/10/10/10/10/10/2c7/10/Q9 b - -");
        let flags = crate::jetan::rules::RuleFlags {
            no_moves: crate::jetan::rules::NoMovesRule::Loss,
            ..Default::default()
        };
        let loss = Rules::new(flags, crate::jetan::rules::PieceValues::default());
        let mut work = Workspace::default();
        for (rules, search, playout_result) in [(Rules::book(), 0, 0.5), (loss, -WIN, 0.0)] {
            let mut budget = Budget {
                nodes: 0,
                limit: 1_000,
                aborted: false,
            };
            let buffers = (&mut work.lists[..], &mut work.scores[..]);
            let window = (-WIN - 1, WIN + 1);
            let score = negamax(&rules, &p, 2, window, 0, buffers, &mut budget);
            assert_eq!(score, search);
            let mut dice = Dice::for_trial(1, 0);
            let mut list = MoveList::default();
            let result = playout(&rules, &p, Color::Black, &mut dice, &mut list);
            assert_eq!(result, playout_result);
        }
    }

    #[test]
    fn choices_are_legal_and_repeat_with_the_same_dice() {
        let rules = Rules::book();
        let start = Position::initial();
        let mut work = Workspace::default();
        for player in all_players() {
            let mut a = Dice::for_trial(5, 1);
            let mut b = Dice::for_trial(5, 1);
            let first = player.choose(&rules, &start, &mut a, &mut work);
            let again = player.choose(&rules, &start, &mut b, &mut work);
            assert_eq!(first, again, "{player}");
            let mut list = MoveList::default();
            rules.generate(&start, &mut list);
            assert!(
                first.is_some_and(|m| list.as_slice().contains(&m)),
                "{player}"
            );
        }
    }
}
