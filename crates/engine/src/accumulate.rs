//! Streaming accumulators. Their memory does not grow with the number of
//! trials, and every one of them merges, so blocks, threads, shards and
//! sweep points all combine the same way.

use serde::{Deserialize, Serialize};

/// A histogram of non-negative integer values (fight length in rounds,
/// wounds taken, survivors). Mean, variance, minimum, median and maximum are
/// exact, and merging is exact, so results never depend on merge order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct IntHistogram {
    counts: Vec<u64>,
    total: u64,
}

impl IntHistogram {
    /// Adds one observation.
    #[inline]
    pub fn add(&mut self, value: u32) {
        let index = value as usize;
        match self.counts.get_mut(index) {
            Some(count) => *count += 1,
            None => self.add_new_maximum(index),
        }
        self.total += 1;
    }

    /// Grows the bins to hold a new maximum and counts it: amortised, not
    /// per trial.
    #[cold]
    fn add_new_maximum(&mut self, index: usize) {
        self.counts.resize(index + 1, 0);
        self.counts[index] = 1;
    }

    /// Adds every observation of `other`.
    pub fn merge(&mut self, other: &IntHistogram) {
        if other.counts.len() > self.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            *mine += theirs;
        }
        self.total += other.total;
    }

    /// Number of observations.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The sum of the bin counts, `None` if it overflows a `u64`. A
    /// histogram built by [`add`](Self::add) and [`merge`](Self::merge) has
    /// it equal to [`total`](Self::total); one read from a file may not.
    pub fn checked_count(&self) -> Option<u64> {
        self.counts
            .iter()
            .try_fold(0u64, |sum, c| sum.checked_add(*c))
    }

    /// `(value, count)` for every value seen at least once, ascending.
    pub fn bins(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(v, c)| (v as u32, *c))
    }

    /// Smallest value seen.
    pub fn min(&self) -> Option<u32> {
        self.bins().next().map(|(v, _)| v)
    }

    /// Largest value seen.
    pub fn max(&self) -> Option<u32> {
        self.bins().last().map(|(v, _)| v)
    }

    /// Arithmetic mean, computed exactly in integers before the final division.
    pub fn mean(&self) -> Option<f64> {
        (self.total > 0).then(|| self.sum() as f64 / self.total as f64)
    }

    fn sum(&self) -> u128 {
        self.bins()
            .map(|(v, c)| u128::from(v) * u128::from(c))
            .sum()
    }

    /// Unbiased sample variance.
    pub fn variance(&self) -> Option<f64> {
        if self.total < 2 {
            return None;
        }
        let n = self.total as f64;
        let mean = self.mean()?;
        let squares: f64 = self
            .bins()
            .map(|(v, c)| c as f64 * (f64::from(v) - mean).powi(2))
            .sum();
        Some(squares / (n - 1.0))
    }

    /// Standard error of the mean.
    pub fn standard_error(&self) -> Option<f64> {
        Some((self.variance()? / self.total as f64).sqrt())
    }

    /// The lower median (the value at rank ceil(n/2)).
    pub fn median(&self) -> Option<u32> {
        if self.total == 0 {
            return None;
        }
        let rank = self.total.div_ceil(2);
        let mut seen = 0;
        for (value, count) in self.bins() {
            seen += count;
            if seen >= rank {
                return Some(value);
            }
        }
        None
    }
}

/// Welford's running mean and variance for real-valued metrics, merged with
/// Chan's parallel formula. Merging is deterministic when the merge order is
/// (the runner always folds blocks in index order).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RealStats {
    count: u64,
    mean: f64,
    sum_sq_dev: f64,
    min: f64,
    max: f64,
}

impl RealStats {
    /// Adds one observation.
    #[inline]
    pub fn add(&mut self, x: f64) {
        if self.count == 0 {
            self.min = x;
            self.max = x;
        } else {
            self.min = self.min.min(x);
            self.max = self.max.max(x);
        }
        self.count += 1;
        let delta = x - self.mean;
        self.mean += delta / self.count as f64;
        self.sum_sq_dev += delta * (x - self.mean);
    }

    /// Combines two sets of observations.
    pub fn merge(&mut self, other: &RealStats) {
        if other.count == 0 {
            return;
        }
        if self.count == 0 {
            *self = other.clone();
            return;
        }
        let n1 = self.count as f64;
        let n2 = other.count as f64;
        let n = n1 + n2;
        let delta = other.mean - self.mean;
        self.mean += delta * n2 / n;
        self.sum_sq_dev += other.sum_sq_dev + delta * delta * n1 * n2 / n;
        self.count += other.count;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }

    /// Number of observations.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Mean of the observations.
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then_some(self.mean)
    }

    /// Unbiased sample variance.
    pub fn variance(&self) -> Option<f64> {
        (self.count > 1).then(|| self.sum_sq_dev / (self.count as f64 - 1.0))
    }

    /// Standard error of the mean.
    pub fn standard_error(&self) -> Option<f64> {
        Some((self.variance()? / self.count as f64).sqrt())
    }

    /// Smallest observation.
    pub fn min(&self) -> Option<f64> {
        (self.count > 0).then_some(self.min)
    }

    /// Largest observation.
    pub fn max(&self) -> Option<f64> {
        (self.count > 0).then_some(self.max)
    }
}

/// What one trial produced: which outcome it ended in and the value of each
/// integer metric the model declares (unused slots stay 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrialResult {
    /// Index into the model's outcome labels.
    pub outcome: u16,
    /// Metric values, in the order of the model's metric list.
    pub metrics: [u32; MAX_METRICS],
}

impl Default for TrialResult {
    fn default() -> Self {
        TrialResult {
            outcome: 0,
            metrics: [0; MAX_METRICS],
        }
    }
}

/// The most integer metrics a model may declare.
pub const MAX_METRICS: usize = 40;

/// Everything a run keeps about its trials: outcome counts and one histogram
/// per metric. Independent of the trial count in size; merges exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Trials counted per outcome.
    pub outcomes: Vec<u64>,
    /// One histogram per metric.
    pub metrics: Vec<IntHistogram>,
}

impl Tally {
    /// An empty tally for `outcomes` outcome labels and `metrics` metrics.
    pub fn new(outcomes: usize, metrics: usize) -> Self {
        Tally {
            outcomes: vec![0; outcomes],
            metrics: vec![IntHistogram::default(); metrics],
        }
    }

    /// Records one trial.
    #[inline]
    pub fn record(&mut self, trial: &TrialResult) {
        self.outcomes[usize::from(trial.outcome)] += 1;
        for (histogram, value) in self.metrics.iter_mut().zip(&trial.metrics) {
            histogram.add(*value);
        }
    }

    /// Adds another tally of the same shape.
    pub fn merge(&mut self, other: &Tally) {
        for (mine, theirs) in self.outcomes.iter_mut().zip(&other.outcomes) {
            *mine += theirs;
        }
        for (mine, theirs) in self.metrics.iter_mut().zip(&other.metrics) {
            mine.merge(theirs);
        }
    }

    /// Number of trials recorded.
    pub fn trials(&self) -> u64 {
        self.outcomes.iter().sum()
    }

    /// Number of trials recorded, `None` if the outcome counts overflow a
    /// `u64` (possible only in a tally read from a file).
    pub fn checked_trials(&self) -> Option<u64> {
        self.outcomes
            .iter()
            .try_fold(0u64, |sum, c| sum.checked_add(*c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_statistics_are_exact() {
        let mut h = IntHistogram::default();
        for v in [3, 1, 4, 1, 5, 9, 2, 6] {
            h.add(v);
        }
        assert_eq!(h.total(), 8);
        assert_eq!(h.min(), Some(1));
        assert_eq!(h.max(), Some(9));
        assert_eq!(h.median(), Some(3));
        assert_eq!(h.mean(), Some(31.0 / 8.0));
        // Sample variance of the eight values, worked by hand: 7.553571...
        let variance = h.variance().unwrap_or(f64::NAN);
        assert!((variance - 52.875 / 7.0).abs() < 1e-12, "{variance}");
    }

    #[test]
    fn histogram_merge_equals_single_pass() {
        let values: Vec<u32> = (0..1000).map(|i| (i * 7919 % 113) as u32).collect();
        let mut whole = IntHistogram::default();
        values.iter().for_each(|v| whole.add(*v));
        let (left, right) = values.split_at(377);
        let mut a = IntHistogram::default();
        let mut b = IntHistogram::default();
        left.iter().for_each(|v| a.add(*v));
        right.iter().for_each(|v| b.add(*v));
        b.merge(&a);
        assert_eq!(whole, b);
    }

    #[test]
    fn welford_merge_matches_single_pass() {
        let values: Vec<f64> = (0..500).map(|i| ((i * 37) % 101) as f64 / 7.0).collect();
        let mut whole = RealStats::default();
        values.iter().for_each(|v| whole.add(*v));
        let mut a = RealStats::default();
        let mut b = RealStats::default();
        values[..200].iter().for_each(|v| a.add(*v));
        values[200..].iter().for_each(|v| b.add(*v));
        a.merge(&b);
        let close =
            |x: Option<f64>, y: Option<f64>| (x.unwrap_or(0.0) - y.unwrap_or(1.0)).abs() < 1e-9;
        assert!(close(a.mean(), whole.mean()));
        assert!(close(a.variance(), whole.variance()));
        assert_eq!(a.min(), whole.min());
        assert_eq!(a.max(), whole.max());
        assert_eq!(a.count(), 500);
    }
}
