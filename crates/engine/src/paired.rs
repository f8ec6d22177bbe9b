//! Paired runs: two models (two settings of one scenario, or two scenarios)
//! play the same trial indices with the same streams, and the tally keeps
//! their joint outcomes, so differences are measured trial by trial.

use rayon::prelude::*;
use serde::Serialize;

use super::accumulate::TrialResult;
use super::model::DynModel;
use super::runner::{RunConfig, RunError, thread_pool};

/// Sums of one metric's per-trial difference (second minus first), exact.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DifferenceSums {
    /// Sum of differences.
    pub sum: i128,
    /// Sum of squared differences.
    pub sum_squares: u128,
}

/// The joint results of a paired run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PairedTally {
    /// Outcomes of the first model.
    pub outcomes_first: usize,
    /// Outcomes of the second model.
    pub outcomes_second: usize,
    /// Trials by (first outcome, second outcome), row-major.
    pub joint: Vec<u64>,
    /// Per metric (by index, up to the shorter of the two lists).
    pub metric_differences: Vec<DifferenceSums>,
}

impl PairedTally {
    /// An empty tally.
    pub fn new(outcomes_first: usize, outcomes_second: usize, metrics: usize) -> Self {
        PairedTally {
            outcomes_first,
            outcomes_second,
            joint: vec![0; outcomes_first * outcomes_second],
            metric_differences: vec![DifferenceSums::default(); metrics],
        }
    }

    /// Trials counted.
    pub fn trials(&self) -> u64 {
        self.joint.iter().sum()
    }

    /// Trials where the first model ended in `i` and the second in `j`.
    pub fn count(&self, i: usize, j: usize) -> u64 {
        self.joint[i * self.outcomes_second + j]
    }

    fn record(&mut self, first: &TrialResult, second: &TrialResult) {
        let cell = usize::from(first.outcome) * self.outcomes_second + usize::from(second.outcome);
        self.joint[cell] += 1;
        for (k, sums) in self.metric_differences.iter_mut().enumerate() {
            let d = i64::from(second.metrics[k]) - i64::from(first.metrics[k]);
            sums.sum += i128::from(d);
            sums.sum_squares += u128::from(d.unsigned_abs()) * u128::from(d.unsigned_abs());
        }
    }

    fn merge(&mut self, other: &PairedTally) {
        for (a, b) in self.joint.iter_mut().zip(&other.joint) {
            *a += b;
        }
        for (a, b) in self
            .metric_differences
            .iter_mut()
            .zip(&other.metric_differences)
        {
            a.sum += b.sum;
            a.sum_squares += b.sum_squares;
        }
    }
}

/// Runs trials `config.trials` of both models, trial `i` of each drawing
/// from the stream of `(config.seed, i)`, and tallies them jointly.
pub fn run_paired(
    first: &dyn DynModel,
    second: &dyn DynModel,
    config: &RunConfig,
) -> Result<PairedTally, RunError> {
    let metrics = first.spec().metrics.len().min(second.spec().metrics.len());
    let empty = || {
        PairedTally::new(
            first.spec().outcomes.len(),
            second.spec().outcomes.len(),
            metrics,
        )
    };
    let pool = thread_pool(config.threads)?;
    // Everything is merged at the end, so blocks need no alignment: small
    // enough that every thread gets work even on a short comparison. Blocks
    // are numbered, made when a thread takes one and reduced as they finish
    // (the sums are exact, so the order does not matter): memory does not
    // grow with the number of trials.
    let trials = config.trials.clone();
    let len = trials.end.saturating_sub(trials.start);
    let share = len.div_ceil(pool.current_num_threads() as u64 * 4).max(1);
    let size = config.chunk.clamp(1, share);
    let total = pool.install(|| {
        (0..len.div_ceil(size))
            .into_par_iter()
            .map(|block| {
                let start = trials.start + block * size;
                let mut tally = empty();
                for i in start..start.saturating_add(size).min(trials.end) {
                    let a = first.trial(config.seed, i);
                    let b = second.trial(config.seed, i);
                    tally.record(&a, &b);
                }
                tally
            })
            .reduce(empty, |mut total, t| {
                total.merge(&t);
                total
            })
    });
    Ok(total)
}
