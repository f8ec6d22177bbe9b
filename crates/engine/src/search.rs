//! The search player every full game shares: determinised rollouts with
//! UCB1 at the decision (flat Monte Carlo search, a one-step policy
//! improvement of the game's heuristic).
//!
//! The games make their decisions inline, deep inside a turn, so a decision
//! point is not a state a search could restart from. The search therefore
//! forks at the last turn boundary instead: the live game keeps a copy of
//! itself and of its dice from the start of the current turn. A playout
//! copies that snapshot, replays the turn with the same dice and the same
//! decisions up to the decision being searched (so it reaches exactly the
//! live position), then, at that decision:
//!
//! 1. switches to its own random stream, derived from the trial's, so the
//!    playout never sees the live game's future rolls;
//! 2. re-samples everything the deciding seat cannot see (deck order, other
//!    hands, hidden counters) from what it knows: the game's
//!    [`Searchable::determinize`]; and only then
//! 3. takes the candidate choice and plays on with every seat's base policy
//!    to the end of the game or the game's horizon, where the game's
//!    evaluation scores it ([`Searchable::reward`]).
//!
//! UCB1 spreads the playout budget over the candidates, the base policy's
//! own choice first. The search plays the best mean where it beats the base
//! choice by more than a standard error of the difference, else the base
//! choice, so a small budget does no harm. A tree below the first decision (information-set MCTS)
//! would need every game rewritten as an explicit state machine; the flat
//! search needs only the decision calls, and rollouts over a heuristic are
//! guaranteed to improve on it in expectation (rollout policy improvement).
//! Every playout draws from a stream keyed by the trial, the turn and the
//! decision, so a game with search players is identical for any
//! `--threads`. A playout copies into buffers allocated once per game.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::rng::{Dice, stream_key};
use crate::roll::Roll;

/// Decisions the live games of this process have searched, on every thread
/// (one relaxed add per search, beside its playouts).
static SEARCHED: AtomicU64 = AtomicU64::new(0);

/// How many decisions live games have searched in this process so far:
/// `barsoom bench` reads it before and after a timing for decisions/s.
pub fn decisions_searched() -> u64 {
    SEARCHED.load(Ordering::Relaxed)
}

/// Playouts per decision when a spec gives none.
pub const DEFAULT_PLAYOUTS: u32 = 100;
/// The most playouts per decision (time, not memory, grows with it).
pub const MAX_PLAYOUTS: u32 = 1_000_000;
/// Search decisions one turn can log for replay; later ones in the same
/// turn fall back to the base policy.
const MAX_LOGGED: usize = 256;
/// UCB1's exploration constant for rewards in [0, 1].
const EXPLORATION: f64 = std::f64::consts::SQRT_2;

/// A search player: its playout budget and its base policy `B` (how every
/// seat plays inside a playout, and how it plays where it does not search).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchSpec<B> {
    /// Playouts per decision.
    pub playouts: u32,
    /// The base policy.
    pub base: B,
}

/// A `search:` player spec that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "expected search, search:PLAYOUTS or search:PLAYOUTS:BASE (PLAYOUTS a whole number from 1 to {MAX_PLAYOUTS}, BASE one of {bases}), found {found:?}"
)]
pub struct SpecError {
    /// The base policies the game accepts.
    pub bases: &'static str,
    /// The spec as written.
    pub found: String,
}

impl<B: Copy> SearchSpec<B> {
    /// Reads `search`, `search:PLAYOUTS` or `search:PLAYOUTS:BASE`, with
    /// `base` reading the game's base policy names (listed in `bases`).
    /// `None` when `text` is another player's name.
    pub fn parse(
        text: &str,
        default_base: B,
        bases: &'static str,
        base: impl Fn(&str) -> Option<B>,
    ) -> Option<Result<Self, SpecError>> {
        let mut parts = text.split(':');
        if parts.next() != Some("search") {
            return None;
        }
        let error = || SpecError {
            bases,
            found: text.to_string(),
        };
        let playouts = match parts.next() {
            None => Some(DEFAULT_PLAYOUTS),
            Some(n) => n
                .replace('_', "")
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=MAX_PLAYOUTS).contains(n)),
        };
        let base = match parts.next() {
            None => Some(default_base),
            Some(name) => base(name),
        };
        Some(match (playouts, base, parts.next()) {
            (Some(playouts), Some(base), None) => Ok(SearchSpec { playouts, base }),
            _ => Err(error()),
        })
    }
}

/// Where a game stands with respect to a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The real game: search players search.
    Live,
    /// A playout replaying the turn up to decision `at`, where it takes
    /// `choice` on the stream `key`.
    Replay { at: u32, choice: u16, key: u64 },
    /// A playout after its branch: every seat plays its base policy.
    Playout,
}

/// The decision bookkeeping a game carries (small and `Copy`, so a game
/// that holds one still copies cheaply): the mode, the decisions taken
/// this turn, and the search players' choices for a replay.
#[derive(Debug, Clone, Copy)]
pub struct Branching {
    mode: Mode,
    decided: u32,
    log: [u16; MAX_LOGGED],
    logged: u16,
    replayed: u16,
}

impl Default for Branching {
    fn default() -> Self {
        Branching {
            mode: Mode::Live,
            decided: 0,
            log: [0; MAX_LOGGED],
            logged: 0,
            replayed: 0,
        }
    }
}

/// What a decision point does.
enum Step {
    /// The seat's own (or base) policy decides.
    Policy,
    /// A replay repeats a search player's logged choice.
    Forced(usize),
    /// A playout branches here: reseed, determinise, take `choice`.
    Branch { choice: usize, key: u64 },
    /// The live game searches decision `at`.
    Search { at: u32 },
}

impl Branching {
    /// Whether this is the real game (not a playout).
    pub fn is_live(&self) -> bool {
        self.mode == Mode::Live
    }

    fn step(&mut self, searcher: bool) -> Step {
        let at = self.decided;
        self.decided += 1;
        match self.mode {
            Mode::Live if searcher && usize::from(self.logged) < MAX_LOGGED => Step::Search { at },
            Mode::Replay {
                at: branch,
                choice,
                key,
            } if at == branch => {
                self.mode = Mode::Playout;
                Step::Branch {
                    choice: usize::from(choice),
                    key,
                }
            }
            Mode::Replay { .. } if searcher && self.replayed < self.logged => {
                self.replayed += 1;
                Step::Forced(usize::from(self.log[usize::from(self.replayed) - 1]))
            }
            _ => Step::Policy,
        }
    }
}

/// A game a search player can play: a copyable state that can play on from
/// a turn boundary, re-sample what a seat cannot see, and score a seat.
pub trait Searchable: Clone {
    /// What a playout reads besides the game's own state (the scenario's
    /// compiled data, say), passed down from the decision; `()` for a game
    /// whose state holds everything it reads.
    type Env<'e>: Copy;
    /// The game's decision bookkeeping.
    fn branching(&mut self) -> &mut Branching;
    /// The live game's searcher (empty in copies).
    fn searcher(&mut self) -> &mut SearchSlot<Self>;
    /// The seat's playouts per decision, if it is a search player.
    fn playouts(&self, seat: usize) -> Option<u32>;
    /// Re-samples everything `seat` cannot see from what it knows, with `r`.
    fn determinize<R: Roll>(&mut self, env: Self::Env<'_>, seat: usize, r: &mut R);
    /// Plays on from the start of a turn to the end of the game or the
    /// game's search horizon, every seat with its base policy.
    fn play_on(&mut self, env: Self::Env<'_>, dice: &mut Dice);
    /// The seat's reward after [`Searchable::play_on`], in [0, 1]: 1 for a
    /// win, 0 for a loss, the game's evaluation at the horizon.
    fn reward(&self, env: Self::Env<'_>, seat: usize) -> f64;

    /// Whether a decision's candidates are compared on common random
    /// numbers: the k-th playout of every candidate draws from the same
    /// stream (and so the same determinisation), so a candidate that
    /// changes nothing ties with the others instead of differing by luck,
    /// and the search reads the difference pair by pair (see
    /// [`Searchable::SWITCH_Z`]). Off by default: each playout draws its own stream.
    const COMMON_RANDOM_NUMBERS: bool = false;

    /// How many standard errors of the difference a candidate's mean
    /// reward must beat the base policy's choice by before the search
    /// overrules it: with a small budget the search plays like its base,
    /// and it departs only where the playouts show a real gain. A game
    /// whose playouts are noisy and whose wrong departures cost dear (a
    /// journey turned back) asks for more.
    const SWITCH_Z: f64 = 1.0;

    /// The switch test's standard errors for decisions of kind `kind` (the
    /// name given to [`decide`]): [`Searchable::SWITCH_Z`] unless a game asks
    /// more of a decision it meets so often in a game that false switches
    /// at the usual level add up.
    fn switch_z(kind: &'static str) -> f64 {
        let _ = kind;
        Self::SWITCH_Z
    }
}

/// The live game's searcher, boxed: a copy of a game holds none (cloning a
/// slot gives an empty one), so playouts never search.
pub struct SearchSlot<G>(Option<Box<Searcher<G>>>);

impl<G> Default for SearchSlot<G> {
    fn default() -> Self {
        SearchSlot(None)
    }
}

impl<G> Clone for SearchSlot<G> {
    fn clone(&self) -> Self {
        SearchSlot(None)
    }
}

impl<G> std::fmt::Debug for SearchSlot<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "SearchSlot(live)"
        } else {
            "SearchSlot"
        })
    }
}

impl<G> SearchSlot<G> {
    /// The slot of a live game with search players; `notes` keeps a line
    /// per search for the trace.
    pub fn live(notes: bool) -> Self {
        SearchSlot(Some(Box::new(Searcher {
            snapshot: None,
            dice: None,
            key: 0,
            buffer: None,
            visits: Vec::new(),
            totals: Vec::new(),
            squares: Vec::new(),
            rewards: Vec::new(),
            notes: notes.then(Vec::new),
        })))
    }

    /// The trace lines of the searches since the last call.
    pub fn take_notes(&mut self) -> Vec<String> {
        self.0
            .as_mut()
            .and_then(|s| s.notes.as_mut())
            .map(std::mem::take)
            .unwrap_or_default()
    }
}

/// The live game's copy of itself and of its dice at the turn start, the
/// playout buffer, and the candidates' statistics.
pub struct Searcher<G> {
    snapshot: Option<G>,
    dice: Option<Dice>,
    key: u64,
    buffer: Option<G>,
    visits: Vec<u32>,
    totals: Vec<f64>,
    squares: Vec<f64>,
    /// Each playout's reward, `budget` slots a candidate in visit order:
    /// with common random numbers the k-th playouts of two candidates share
    /// a stream, so their difference is read pair by pair.
    rewards: Vec<f64>,
    notes: Option<Vec<String>>,
}

/// Marks the start of a turn: a live game with search players copies
/// itself and its dice here, the point every playout of this turn replays
/// from. Call it before anything of the turn happens.
pub fn turn_boundary<G: Searchable, R: Roll>(game: &mut G, r: &R) {
    if !game.branching().is_live() {
        return;
    }
    *game.branching() = Branching::default();
    let mut slot = std::mem::take(game.searcher());
    if let (Some(s), Some(dice)) = (slot.0.as_deref_mut(), r.snapshot()) {
        match &mut s.snapshot {
            Some(copy) => copy.clone_from(game),
            None => s.snapshot = Some(game.clone()),
        }
        // The playouts' streams are keyed by the turn's next draw, read
        // from a copy: the live stream itself is untouched.
        s.key = dice.clone().next_u64();
        s.dice = Some(dice);
    }
    *game.searcher() = slot;
}

/// A decision by `seat` among `choices` options (`kind` names it in the
/// trace); `env` is what the game's playouts read besides its state. A search player in the live game searches it; a replay repeats
/// it; everywhere else `base` decides (the seat's own policy, or a search
/// player's base policy), rolling on `r` as it always has, so a game
/// without search players rolls exactly as before.
pub fn decide<G: Searchable, R: Roll>(
    game: &mut G,
    env: G::Env<'_>,
    seat: usize,
    kind: &'static str,
    choices: usize,
    base: impl FnOnce(&mut G, &mut R) -> usize,
    r: &mut R,
) -> usize {
    if choices <= 1 {
        return base(game, r);
    }
    let budget = game.playouts(seat);
    // A live game searches once it has a turn snapshot; a replay repeats
    // what the live search players chose.
    let searcher = budget.is_some() && (!game.branching().is_live() || game.searcher().ready());
    match game.branching().step(searcher) {
        Step::Policy => base(game, r),
        Step::Forced(choice) => {
            // The live search asked its base first: roll the same here.
            base(game, r);
            choice
        }
        Step::Branch { choice, key } => {
            r.reseed(key);
            game.determinize(env, seat, r);
            choice
        }
        Step::Search { at } => {
            let usual = base(game, r).min(choices - 1);
            let mut slot = std::mem::take(game.searcher());
            let branching = *game.branching();
            let budget = budget.unwrap_or(1);
            let choice = match slot.0.as_deref_mut() {
                Some(s) => {
                    SEARCHED.fetch_add(1, Ordering::Relaxed);
                    s.search(env, &branching, seat, kind, choices, usual, budget, at)
                }
                None => usual,
            };
            *game.searcher() = slot;
            let b = game.branching();
            b.log[usize::from(b.logged)] = choice as u16;
            b.logged += 1;
            choice
        }
    }
}

impl<G> SearchSlot<G> {
    fn ready(&self) -> bool {
        self.0.as_ref().is_some_and(|s| s.snapshot.is_some())
    }
}

impl<G: Searchable> Searcher<G> {
    /// Spreads `budget` playouts over the `choices` by UCB1 (the base
    /// policy's choice `usual` first) and returns the best mean if it beats
    /// `usual`'s by more than [`Searchable::switch_z`] standard errors of the
    /// difference, else `usual`.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        env: G::Env<'_>,
        live: &Branching,
        seat: usize,
        kind: &'static str,
        choices: usize,
        usual: usize,
        budget: u32,
        at: u32,
    ) -> usize {
        let (Some(snapshot), Some(dice)) = (self.snapshot.as_ref(), self.dice.as_ref()) else {
            return usual;
        };
        self.visits.clear();
        self.visits.resize(choices, 0);
        self.totals.clear();
        self.totals.resize(choices, 0.0);
        self.squares.clear();
        self.squares.resize(choices, 0.0);
        let stride = budget as usize;
        self.rewards.clear();
        self.rewards.resize(choices * stride, 0.0);
        let choices16 = u16::try_from(choices).unwrap_or(u16::MAX);
        for j in 0..budget {
            let arm = if j == 0 {
                usual
            } else {
                select(&self.visits, &self.totals, j).min(usize::from(choices16) - 1)
            };
            let draw = if G::COMMON_RANDOM_NUMBERS {
                self.visits[arm]
            } else {
                j
            };
            let key = stream_key(self.key, (u64::from(at) << 32) | u64::from(draw));
            let game = match &mut self.buffer {
                Some(g) => {
                    g.clone_from(snapshot);
                    g
                }
                None => self.buffer.insert(snapshot.clone()),
            };
            *game.branching() = Branching {
                mode: Mode::Replay {
                    at,
                    choice: arm as u16,
                    key,
                },
                decided: 0,
                log: live.log,
                logged: live.logged,
                replayed: 0,
            };
            let mut playout_dice = dice.clone();
            game.play_on(env, &mut playout_dice);
            debug_assert!(
                !matches!(game.branching().mode, Mode::Replay { .. }),
                "a replay of the turn did not reach decision {at}"
            );
            let reward = game.reward(env, seat).clamp(0.0, 1.0);
            self.rewards[arm * stride + self.visits[arm] as usize] = reward;
            self.visits[arm] += 1;
            self.totals[arm] += reward;
            self.squares[arm] += reward * reward;
        }
        let best = self.choose(usual, stride, G::switch_z(kind));
        if let Some(notes) = &mut self.notes {
            let arms: Vec<String> = (0..choices)
                .map(|i| {
                    let mean = self.totals[i] / f64::from(self.visits[i].max(1));
                    format!("[{i}] {} playouts, mean {mean:.3}", self.visits[i])
                })
                .collect();
            notes.push(format!(
                "seat {} searches {kind} ({budget} playouts, base plays [{usual}]): {}; plays [{best}]",
                seat + 1,
                arms.join(", ")
            ));
        }
        best
    }

    /// The candidate that beats `usual` by the most, where it does so by
    /// more than `switch_z` standard errors of the difference;
    /// else `usual`. With common random numbers each candidate is read
    /// against `usual` over the pairs of playouts that shared a stream
    /// (`stride` reward slots a candidate), so the luck both met cancels;
    /// otherwise the best mean is taken against `usual`'s as independent.
    fn choose(&self, usual: usize, stride: usize, switch_z: f64) -> usize {
        if self.visits[usual] == 0 {
            return usual;
        }
        if G::COMMON_RANDOM_NUMBERS {
            let paired = |i: usize| {
                let pairs = self.visits[i].min(self.visits[usual]) as usize;
                (i != usual && pairs >= 2).then(|| {
                    paired_difference(
                        &self.rewards[i * stride..i * stride + pairs],
                        &self.rewards[usual * stride..usual * stride + pairs],
                    )
                })
            };
            return (0..self.visits.len())
                .filter_map(|i| paired(i).map(|(difference, error)| (i, difference, error)))
                .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
                .filter(|&(_, difference, error)| difference > switch_z * error)
                .map_or(usual, |(i, _, _)| i);
        }
        let mean = |i: usize| self.totals[i] / f64::from(self.visits[i].max(1));
        let variance = |i: usize| {
            let n = f64::from(self.visits[i]);
            if n < 2.0 {
                return 0.25;
            }
            ((self.squares[i] - self.totals[i] * self.totals[i] / n) / (n - 1.0)).max(0.0)
        };
        let best = (0..self.visits.len())
            .filter(|&i| self.visits[i] > 0)
            .max_by(|&a, &b| mean(a).total_cmp(&mean(b)).then(b.cmp(&a)))
            .unwrap_or(usual);
        if best == usual {
            return best;
        }
        let standard_error = (variance(best) / f64::from(self.visits[best])
            + variance(usual) / f64::from(self.visits[usual]))
        .sqrt();
        if mean(best) - mean(usual) > switch_z * standard_error {
            best
        } else {
            usual
        }
    }
}

/// The mean of `ours[k] - theirs[k]` over the pairs and its standard error
/// (at least two pairs).
fn paired_difference(ours: &[f64], theirs: &[f64]) -> (f64, f64) {
    let n = ours.len() as f64;
    let mean = ours.iter().zip(theirs).map(|(a, b)| a - b).sum::<f64>() / n;
    let variance = ours
        .iter()
        .zip(theirs)
        .map(|(a, b)| (a - b - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0);
    (mean, (variance / n).sqrt())
}

/// UCB1's pick for playout `j`: each candidate once in order, then the
/// best upper confidence bound (ties: the first).
fn select(visits: &[u32], totals: &[f64], j: u32) -> usize {
    if let Some(unvisited) = visits.iter().position(|&v| v == 0) {
        return unvisited;
    }
    let log_total = f64::from(j.max(1)).ln();
    let mut best = 0;
    let mut best_bound = f64::NEG_INFINITY;
    for (i, (&v, &t)) in visits.iter().zip(totals).enumerate() {
        let v = f64::from(v);
        let bound = t / v + EXPLORATION * (log_total / v).sqrt();
        if bound > best_bound {
            best = i;
            best_bound = bound;
        }
    }
    best
}

#[cfg(test)]
mod tests;
