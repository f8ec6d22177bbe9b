//! Shards: one run's trial indices split across processes or machines, and
//! the mergeable state each shard leaves behind.
//!
//! The split is fixed and documented: the run's blocks (multiples of the
//! chunk size from trial 0) are dealt out contiguously, shard `k` of `n`
//! taking blocks `k*B/n .. (k+1)*B/n` of the `B` blocks. Because a trial's
//! stream depends only on `(seed, index)` and tallies merge exactly, the
//! merged shards give the same summary, byte for byte, as one process.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::accumulate::Tally;
use super::model::{MetricSpec, OutputSpec, TrendSpec};

/// Shard `index` of `count` (0-based index).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardSpec {
    /// Which shard, from 0.
    pub index: u64,
    /// How many shards.
    pub count: u64,
}

impl ShardSpec {
    /// The whole run as a single shard.
    pub const WHOLE: ShardSpec = ShardSpec { index: 0, count: 1 };

    /// Parses `K/N` (0 ≤ K < N).
    pub fn parse(text: &str) -> Result<Self, String> {
        let expected = || format!("expected K/N with 0 <= K < N (e.g. 0/4), found {text:?}");
        let (k, n) = text.split_once('/').ok_or_else(expected)?;
        let (index, count) = (
            k.trim().parse::<u64>().map_err(|_| expected())?,
            n.trim().parse::<u64>().map_err(|_| expected())?,
        );
        if count == 0 || index >= count {
            return Err(expected());
        }
        Ok(ShardSpec { index, count })
    }

    /// The trial indices this shard runs, out of `0..trials` in blocks of `chunk`.
    pub fn range(&self, trials: u64, chunk: u64) -> Range<u64> {
        let chunk = chunk.max(1);
        let blocks = trials.div_ceil(chunk);
        // In u128: the last block's edge may lie past u64::MAX.
        let edge = |k: u64| {
            (u128::from(k) * u128::from(blocks) / u128::from(self.count) * u128::from(chunk))
                .min(u128::from(trials)) as u64
        };
        edge(self.index)..edge(self.index + 1)
    }
}

/// What a run (or one shard of it) leaves behind so that it can be merged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunState {
    /// File format version.
    pub format: u32,
    /// barsoom version that wrote it.
    pub version: String,
    /// Model identifier.
    pub model: String,
    /// Scenario path as given.
    pub scenario: String,
    /// Scenario name.
    pub scenario_name: String,
    /// Fingerprint of the scenario and its data files.
    pub fingerprint: String,
    /// Master seed.
    pub seed: u64,
    /// Trials of the whole run (all shards).
    pub trials: u64,
    /// Block size.
    pub chunk: u64,
    /// Which shard this is.
    pub shard: ShardSpec,
    /// The trial indices covered, `[start, end)`.
    pub range: [u64; 2],
    /// Outcome labels.
    pub outcomes: Vec<String>,
    /// Metric names and descriptions.
    pub metrics: Vec<[String; 2]>,
    /// Index of the length metric.
    pub length_metric: Option<usize>,
    /// Charts of metric means over time.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trends: Vec<TrendSpec>,
    /// The accumulated results.
    pub tally: Tally,
    /// The adaptive stopping rule that ended the run early, if any
    /// (`--until-ci`), in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopping_rule: Option<String>,
}

/// The current state-file format.
pub const STATE_FORMAT: u32 = 1;

impl RunState {
    /// Checks that `other` is part of the same run as `self`: same format,
    /// version, model, inputs, seed, trial count, block size and shard count.
    pub(crate) fn same_run(&self, other: &RunState) -> Result<(), MergeError> {
        let checks: [(&'static str, String, String); 8] = [
            ("format", self.format.to_string(), other.format.to_string()),
            ("version", self.version.clone(), other.version.clone()),
            ("model", self.model.clone(), other.model.clone()),
            (
                "scenario and data (fingerprint)",
                self.fingerprint.clone(),
                other.fingerprint.clone(),
            ),
            ("seed", self.seed.to_string(), other.seed.to_string()),
            ("trials", self.trials.to_string(), other.trials.to_string()),
            ("chunk", self.chunk.to_string(), other.chunk.to_string()),
            (
                "shard count",
                self.shard.count.to_string(),
                other.shard.count.to_string(),
            ),
        ];
        match checks.into_iter().find(|(_, a, b)| a != b) {
            Some((field, first, other)) => Err(MergeError::Mismatch {
                field,
                first,
                other,
            }),
            None => Ok(()),
        }
    }

    /// Checks that `checkpoint` is an interrupted prefix of the run `self`
    /// describes (the same run and shard, starting where this range starts,
    /// ending inside it: tallies merge exactly, so a prefix may end inside a
    /// block), so that resuming from it gives the uninterrupted result.
    pub fn check_resumable(&self, checkpoint: &RunState) -> Result<(), MergeError> {
        self.same_run(checkpoint)?;
        let shard = |s: &RunState| format!("{}/{}", s.shard.index, s.shard.count);
        if checkpoint.shard != self.shard {
            return Err(MergeError::Mismatch {
                field: "shard",
                first: shard(self),
                other: shard(checkpoint),
            });
        }
        let [start, done] = checkpoint.range;
        if start != self.range[0]
            || done < start
            || done > self.range[1]
            || checkpoint.tally.trials() != done - start
        {
            return Err(MergeError::WrongRange {
                shard: shard(checkpoint),
                start,
                end: done,
                expected_start: self.range[0],
                expected_end: self.range[1],
            });
        }
        Ok(())
    }

    /// The model's output description, rebuilt from the state.
    pub fn spec(&self) -> OutputSpec {
        OutputSpec {
            outcomes: self.outcomes.clone(),
            metrics: self
                .metrics
                .iter()
                .map(|[name, description]| MetricSpec::new(name, description))
                .collect(),
            length_metric: self.length_metric,
            trends: self.trends.clone(),
        }
    }
}

/// Why shards could not be merged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MergeError {
    /// Nothing to merge.
    #[error("expected at least one state file")]
    Empty,
    /// Two states disagree on something that must be the same.
    #[error("{field} differs between shards ({first} vs {other}): they are not parts of one run")]
    Mismatch {
        /// What differs.
        field: &'static str,
        /// The first state's value.
        first: String,
        /// The other value.
        other: String,
    },
    /// A shard appears twice.
    #[error("shard {0} is given twice")]
    Duplicate(String),
    /// Shards are missing.
    #[error("shards missing: {0} (every shard of the run is needed)")]
    Missing(String),
    /// A shard's range is not the one its index implies.
    #[error(
        "shard {shard} covers trials {start}..{end}, expected {expected_start}..{expected_end}"
    )]
    WrongRange {
        /// The shard.
        shard: String,
        /// Its start.
        start: u64,
        /// Its end.
        end: u64,
        /// The expected start.
        expected_start: u64,
        /// The expected end.
        expected_end: u64,
    },
}

/// Merges the states of every shard of one run into the state of the whole
/// run, after checking that they belong together and cover every trial index
/// exactly once.
pub fn merge(mut states: Vec<RunState>) -> Result<RunState, MergeError> {
    let first = states.first().ok_or(MergeError::Empty)?.clone();
    for s in &states[1..] {
        first.same_run(s)?;
    }
    states.sort_by_key(|s| s.shard.index);
    let count = first.shard.count;
    let name = |k: u64| format!("{k}/{count}");
    for pair in states.windows(2) {
        if pair[0].shard.index == pair[1].shard.index {
            return Err(MergeError::Duplicate(name(pair[0].shard.index)));
        }
    }
    let present: Vec<u64> = states.iter().map(|s| s.shard.index).collect();
    let missing: Vec<String> = (0..count)
        .filter(|k| !present.contains(k))
        .map(name)
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing(missing.join(", ")));
    }
    let mut tally = Tally::new(first.outcomes.len(), first.metrics.len());
    for s in &states {
        let expected = s.shard.range(first.trials, first.chunk);
        if s.range != [expected.start, expected.end]
            || s.tally.trials() != expected.end - expected.start
        {
            return Err(MergeError::WrongRange {
                shard: name(s.shard.index),
                start: s.range[0],
                end: s.range[1],
                expected_start: expected.start,
                expected_end: expected.end,
            });
        }
        tally.merge(&s.tally);
    }
    Ok(RunState {
        shard: ShardSpec::WHOLE,
        range: [0, first.trials],
        tally,
        ..first
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_ranges_tile_the_run_on_block_boundaries() {
        for count in [1, 2, 3, 7, 50] {
            let mut next = 0;
            for index in 0..count {
                let r = ShardSpec { index, count }.range(1_000_003, 4096);
                assert_eq!(r.start, next, "{index}/{count}");
                assert!(r.start.is_multiple_of(4096) || r.start == 1_000_003);
                next = r.end;
            }
            assert_eq!(next, 1_000_003);
        }
    }

    fn state(range: [u64; 2], trials_done: u64) -> RunState {
        let mut tally = Tally::new(2, 0);
        tally.outcomes[0] = trials_done;
        RunState {
            format: STATE_FORMAT,
            version: "v".into(),
            model: "m".into(),
            scenario: "s.toml".into(),
            scenario_name: "s".into(),
            fingerprint: "f".into(),
            seed: 1,
            trials: 10_000,
            chunk: 1000,
            shard: ShardSpec::WHOLE,
            range,
            outcomes: vec!["a".into(), "b".into()],
            metrics: Vec::new(),
            length_metric: None,
            trends: Vec::new(),
            tally,
            stopping_rule: None,
        }
    }

    #[test]
    fn a_checkpoint_resumes_only_a_prefix() {
        let run = state([0, 10_000], 0);
        assert_eq!(run.check_resumable(&state([0, 3000], 3000)), Ok(()));
        assert_eq!(run.check_resumable(&state([0, 0], 0)), Ok(()));
        // A run stopped inside a block (tallies merge exactly).
        assert_eq!(run.check_resumable(&state([0, 3500], 3500)), Ok(()));
        // Past the end, or a tally that does not match the range: not a
        // checkpoint of this run.
        for bad in [
            state([0, 11_000], 11_000),
            state([0, 3000], 2999),
            state([1000, 3000], 2000),
        ] {
            assert!(matches!(
                run.check_resumable(&bad),
                Err(MergeError::WrongRange { .. })
            ));
        }
        let mut other_seed = state([0, 3000], 3000);
        other_seed.seed = 2;
        assert!(matches!(
            run.check_resumable(&other_seed),
            Err(MergeError::Mismatch { field: "seed", .. })
        ));
    }

    #[test]
    fn shard_ranges_reach_the_end_of_the_index_space() {
        let max = u64::MAX;
        assert_eq!(ShardSpec::WHOLE.range(max, 16_384), 0..max);
        let last = ShardSpec {
            index: (1 << 50) - 1,
            count: 1 << 50,
        };
        assert_eq!(last.range(max, 16_384), max - 16_383..max);
    }

    #[test]
    fn shard_specs_parse() {
        assert_eq!(
            ShardSpec::parse("2/7"),
            Ok(ShardSpec { index: 2, count: 7 })
        );
        assert!(ShardSpec::parse("7/7").is_err());
        assert!(ShardSpec::parse("1/0").is_err());
        assert!(ShardSpec::parse("3").is_err());
        assert!(ShardSpec::parse("-1/3").is_err());
    }
}
