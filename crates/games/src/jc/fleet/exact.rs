//! The exact solution of a `jc.fleet` battle as an absorbing Markov chain.
//!
//! With both sides' policies fixed, a battle is a chain over the state at
//! the start of a round: each role's home and neutral strength, its
//! consecutive Reverses and its neutral flags ([`BattleState`]). One step is
//! one round. Every transition comes from the same functions the Monte
//! Carlo samples from: the maneuver mixes' weights, [`Battle::round`] for
//! each pair of maneuvers and each pair of d10 faces, [`Battle::opening`]
//! for break-offs and [`Battle::terminal`] for the outcome and metrics. The
//! absorbing states are the distinct [`Terminal`]s reached, so strength
//! left, commanders captured and neutrals lost get exact means too.

use std::collections::{BTreeMap, HashMap};

use super::battle::OUT_UNDECIDED;
use super::battle::{Battle, BattleState, RoundPlay, Terminal};
use super::model::{METRIC_CAPTURED, METRIC_LEFT, METRIC_NEUTRAL_LOST, METRIC_ROUNDS};
use super::tables::MANEUVERS;
use barsoom_engine::ExactSolution;
use barsoom_engine::math::markov::{AbsorbingChain, Step, solve as solve_chain};

/// Largest `states × outcomes` product the solver is asked to hold.
pub(crate) const MAX_CELLS: usize = 40_000_000;

/// Where a round leads: another round, or the end of the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Next {
    /// The battle goes on from this state.
    State(BattleState),
    /// The battle is over.
    End(Terminal),
}

/// What follows `state` at the beginning of a round: either the battle ends
/// there (break-off by agreement) or the round is fought.
pub(crate) fn settle(battle: &Battle, state: BattleState) -> Next {
    match battle.opening(&state).0 {
        Some(end) => Next::End(battle.terminal(&state, end)),
        None => Next::State(state),
    }
}

/// The distribution of what follows one round fought from `state` (which
/// must not end by agreement), merged and in a fixed order.
pub(crate) fn round_distribution(battle: &Battle, state: &BattleState) -> Vec<(f64, Next)> {
    let (_, wants) = battle.opening(state);
    let mut mixes: [Vec<(usize, f64)>; 2] = [Vec::new(), Vec::new()];
    for (r, mix) in mixes.iter_mut().enumerate() {
        if battle.forced_reverse(state, r, wants) {
            mix.push((battle.tables().reverse, 1.0));
        } else {
            let m = battle.mix(r);
            mix.extend(
                (0..MANEUVERS)
                    .filter(|i| m.weights[*i] > 0)
                    .map(|i| (i, m.probability(i))),
            );
        }
    }
    let mut merged: HashMap<Next, f64> = HashMap::new();
    for (ma, pa) in &mixes[0] {
        for (md, pd) in &mixes[1] {
            let p = pa * pd / 100.0;
            for ra in 1..=10 {
                for rd in 1..=10 {
                    let play = RoundPlay {
                        maneuvers: [*ma, *md],
                        rolls: [ra, rd],
                    };
                    let out = battle.round(state, &play);
                    let next = match out.end {
                        Some(end) => Next::End(battle.terminal(&out.next, end)),
                        None => settle(battle, out.next),
                    };
                    *merged.entry(next).or_insert(0.0) += p;
                }
            }
        }
    }
    let mut rows: Vec<(f64, Next)> = merged.into_iter().map(|(n, p)| (p, n)).collect();
    rows.sort_by_key(|a| a.1);
    rows
}

struct FleetChain {
    start: Next,
    rows: HashMap<BattleState, Vec<(f64, Next)>>,
    terminals: BTreeMap<Terminal, usize>,
}

impl FleetChain {
    fn step_of(&self, next: &Next) -> Step<BattleState> {
        match next {
            Next::State(s) => Step::State(*s),
            Next::End(t) => Step::Absorb(self.terminals[t]),
        }
    }
}

impl AbsorbingChain for FleetChain {
    type State = BattleState;

    fn outcomes(&self) -> usize {
        self.terminals.len()
    }

    fn start(&self, out: &mut Vec<(f64, Step<BattleState>)>) {
        out.push((1.0, self.step_of(&self.start)));
    }

    fn step(&self, state: &BattleState, out: &mut Vec<(f64, Step<BattleState>)>) {
        if let Some(row) = self.rows.get(state) {
            out.extend(row.iter().map(|(p, n)| (*p, self.step_of(n))));
        }
    }
}

/// Solves a battle exactly: outcome probabilities, and exact means of the
/// rounds fought, strength left, commanders captured and neutrals lost.
pub fn solve(battle: &Battle) -> Result<ExactSolution, String> {
    if battle.max_rounds() < super::battle::DEFAULT_MAX_ROUNDS {
        return Err(format!(
            "the exact chain has no round limit, so it cannot match max_rounds = {}; leave max_rounds out (default {})",
            battle.max_rounds(),
            super::battle::DEFAULT_MAX_ROUNDS
        ));
    }
    let start = settle(battle, battle.start());
    let mut rows: HashMap<BattleState, Vec<(f64, Next)>> = HashMap::new();
    let mut terminals: BTreeMap<Terminal, usize> = BTreeMap::new();
    let mut queue: Vec<BattleState> = Vec::new();
    match start {
        Next::State(s) => queue.push(s),
        Next::End(t) => {
            terminals.insert(t, 0);
        }
    }
    let mut seen: std::collections::HashSet<BattleState> = queue.iter().copied().collect();
    while let Some(state) = queue.pop() {
        let row = round_distribution(battle, &state);
        for (_, next) in &row {
            match next {
                Next::State(s) => {
                    if seen.insert(*s) {
                        queue.push(*s);
                    }
                }
                Next::End(t) => {
                    terminals.entry(*t).or_insert(0);
                }
            }
        }
        rows.insert(state, row);
        if rows.len().saturating_mul(terminals.len() + 1) > MAX_CELLS {
            return Err(format!(
                "the battle is too large to solve exactly (more than {MAX_CELLS} state-outcome cells); use Monte Carlo"
            ));
        }
    }
    for (i, index) in terminals.values_mut().enumerate() {
        *index = i;
    }
    let chain = FleetChain {
        start,
        rows,
        terminals,
    };
    let solution = solve_chain(&chain).map_err(|e| e.to_string())?;

    let outcomes = OUT_UNDECIDED as usize + 1;
    let mut outcome_probabilities = vec![0.0; outcomes];
    let mut means = [0.0f64; 6];
    for (t, i) in &chain.terminals {
        let p = solution.outcome_probabilities[*i];
        outcome_probabilities[usize::from(t.outcome)] += p;
        for side in 0..2 {
            means[side] += p * f64::from(t.left[side]);
            means[2 + side] += p * f64::from(t.captured[side]);
            means[4 + side] += p * f64::from(t.neutral_lost[side]);
        }
    }
    let mut metric_means = vec![(METRIC_ROUNDS, solution.expected_steps)];
    for side in 0..2 {
        metric_means.push((METRIC_LEFT + side, means[side]));
        metric_means.push((METRIC_CAPTURED + side, means[2 + side]));
        metric_means.push((METRIC_NEUTRAL_LOST + side, means[4 + side]));
    }
    metric_means.sort_by_key(|(m, _)| *m);
    Ok(ExactSolution {
        outcome_probabilities,
        metric_means,
    })
}
