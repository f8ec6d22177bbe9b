//! Exact solution of absorbing Markov chains.
//!
//! A model describes its chain through [`AbsorbingChain`]: a start
//! distribution and, for each transient state, the probability of every next
//! state or absorbing outcome. The solver enumerates the reachable states,
//! splits them into strongly connected components (Tarjan, via petgraph) and
//! solves each component's small linear system by Gaussian elimination, in
//! reverse topological order. The result is exact up to floating-point
//! rounding: no iteration, no truncation.

use std::collections::HashMap;
use std::hash::Hash;

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

/// Where a transition leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<S> {
    /// Another transient state.
    State(S),
    /// An absorbing outcome (index into the model's outcomes).
    Absorb(usize),
}

/// A chain of transient states that ends in one of `outcomes()` outcomes.
pub trait AbsorbingChain {
    /// A transient state.
    type State: Copy + Eq + Hash;
    /// Number of absorbing outcomes.
    fn outcomes(&self) -> usize;
    /// The distribution in which play starts (taking no step).
    fn start(&self, out: &mut Vec<(f64, Step<Self::State>)>);
    /// The distribution after one step from `state`.
    fn step(&self, state: &Self::State, out: &mut Vec<(f64, Step<Self::State>)>);
}

/// Absorption probabilities and the expected number of steps.
#[derive(Debug, Clone, PartialEq)]
pub struct ChainSolution {
    /// Probability of ending in each outcome.
    pub outcome_probabilities: Vec<f64>,
    /// Expected number of steps before absorption.
    pub expected_steps: f64,
    /// Number of transient states reached.
    pub states: usize,
}

/// Why a chain could not be solved.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ChainError {
    /// Some reachable states can never reach an outcome.
    #[error(
        "play can continue forever with positive probability (no outcome is reachable from some position)"
    )]
    NeverEnds,
    /// The state space is larger than the solver allows.
    #[error("more than {0} reachable states")]
    TooLarge(usize),
}

/// The most transient states the solver will enumerate.
pub(crate) const MAX_STATES: usize = 2_000_000;

/// Solves `chain` exactly.
pub fn solve<C: AbsorbingChain>(chain: &C) -> Result<ChainSolution, ChainError> {
    let outcomes = chain.outcomes();
    // Enumerate reachable states and their transitions.
    let mut index: HashMap<C::State, usize> = HashMap::new();
    let mut states: Vec<C::State> = Vec::new();
    let mut edges: Vec<Vec<(f64, Step<usize>)>> = Vec::new();
    let mut buffer = Vec::new();
    chain.start(&mut buffer);
    let start: Vec<(f64, Step<usize>)> = buffer
        .drain(..)
        .map(|(p, s)| (p, intern(s, &mut index, &mut states)))
        .collect();
    let mut next = 0;
    while next < states.len() {
        if states.len() > MAX_STATES {
            return Err(ChainError::TooLarge(MAX_STATES));
        }
        chain.step(&states[next], &mut buffer);
        let row: Vec<(f64, Step<usize>)> = buffer
            .drain(..)
            .map(|(p, s)| (p, intern(s, &mut index, &mut states)))
            .collect();
        edges.push(row);
        next += 1;
    }

    let mut graph = DiGraph::<(), ()>::with_capacity(states.len(), 0);
    let nodes: Vec<NodeIndex> = (0..states.len()).map(|_| graph.add_node(())).collect();
    for (from, row) in edges.iter().enumerate() {
        for (_, to) in row {
            if let Step::State(to) = to {
                graph.add_edge(nodes[from], nodes[*to], ());
            }
        }
    }

    // values[s] = [P(outcome 0), ..., P(outcome k-1), expected steps]
    let width = outcomes + 1;
    let mut values = vec![f64::NAN; states.len() * width];
    let mut position = vec![usize::MAX; states.len()];
    // tarjan_scc yields components in reverse topological order: every
    // component's successors outside it are already solved.
    for component in tarjan_scc(&graph) {
        let members: Vec<usize> = component.iter().map(|n| n.index()).collect();
        for (k, m) in members.iter().enumerate() {
            position[*m] = k;
        }
        let n = members.len();
        // (I - Q) x = b, augmented with one column per value.
        let mut matrix = vec![0.0; n * (n + width)];
        let cols = n + width;
        for (row, state) in members.iter().enumerate() {
            matrix[row * cols + row] += 1.0;
            matrix[row * cols + n + outcomes] += 1.0; // one step taken
            for (p, to) in &edges[*state] {
                match to {
                    Step::Absorb(o) => matrix[row * cols + n + o] += p,
                    Step::State(t)
                        if position[*t] != usize::MAX && members.get(position[*t]) == Some(t) =>
                    {
                        matrix[row * cols + position[*t]] -= p;
                    }
                    Step::State(t) => {
                        for v in 0..width {
                            matrix[row * cols + n + v] += p * values[t * width + v];
                        }
                    }
                }
            }
        }
        super::linalg::gaussian_eliminate(&mut matrix, n, cols)
            .map_err(|_| ChainError::NeverEnds)?;
        for (row, state) in members.iter().enumerate() {
            for v in 0..width {
                values[state * width + v] = matrix[row * cols + n + v];
            }
        }
    }

    let mut result = vec![0.0; width];
    for (p, to) in &start {
        match to {
            Step::Absorb(o) => result[*o] += p,
            Step::State(s) => {
                for v in 0..width {
                    result[v] += p * values[s * width + v];
                }
            }
        }
    }
    let expected_steps = result.pop().unwrap_or(0.0);
    Ok(ChainSolution {
        outcome_probabilities: result,
        expected_steps,
        states: states.len(),
    })
}

fn intern<S: Copy + Eq + Hash>(
    step: Step<S>,
    index: &mut HashMap<S, usize>,
    states: &mut Vec<S>,
) -> Step<usize> {
    match step {
        Step::Absorb(o) => Step::Absorb(o),
        Step::State(s) => Step::State(*index.entry(s).or_insert_with(|| {
            states.push(s);
            states.len() - 1
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gambler's ruin on 0..=4 from 2 with p = 0.4 of stepping up:
    /// P(reach 4) = (1 - (q/p)^2) / (1 - (q/p)^4) with q/p = 1.5.
    struct Ruin;
    impl AbsorbingChain for Ruin {
        type State = u8;
        fn outcomes(&self) -> usize {
            2
        }
        fn start(&self, out: &mut Vec<(f64, Step<u8>)>) {
            out.push((1.0, Step::State(2)));
        }
        fn step(&self, s: &u8, out: &mut Vec<(f64, Step<u8>)>) {
            let up = if *s + 1 == 4 {
                Step::Absorb(1)
            } else {
                Step::State(s + 1)
            };
            let down = if *s == 1 {
                Step::Absorb(0)
            } else {
                Step::State(s - 1)
            };
            out.push((0.4, up));
            out.push((0.6, down));
        }
    }

    #[test]
    fn gamblers_ruin_matches_closed_form() {
        let solution = solve(&Ruin).expect("solvable");
        let r: f64 = 1.5;
        let win = (1.0 - r.powi(2)) / (1.0 - r.powi(4));
        assert!((solution.outcome_probabilities[1] - win).abs() < 1e-14);
        assert!((solution.outcome_probabilities[0] - (1.0 - win)).abs() < 1e-14);
        // Expected duration from 2 on 0..=4: (k/(q-p)) - (N/(q-p)) * (1-r^k)/(1-r^N)
        let expected = 2.0 / 0.2 - 4.0 / 0.2 * (1.0 - r.powi(2)) / (1.0 - r.powi(4));
        assert!(
            (solution.expected_steps - expected).abs() < 1e-12,
            "{}",
            solution.expected_steps
        );
        assert_eq!(solution.states, 3);
    }

    struct Loop;
    impl AbsorbingChain for Loop {
        type State = u8;
        fn outcomes(&self) -> usize {
            1
        }
        fn start(&self, out: &mut Vec<(f64, Step<u8>)>) {
            out.push((1.0, Step::State(0)));
        }
        fn step(&self, s: &u8, out: &mut Vec<(f64, Step<u8>)>) {
            out.push((1.0, Step::State(1 - s)));
        }
    }

    #[test]
    fn a_chain_that_never_ends_is_reported() {
        assert_eq!(solve(&Loop), Err(ChainError::NeverEnds));
    }
}
