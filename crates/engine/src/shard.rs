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

    /// The block size a run of `trials` split into these shards uses unless
    /// one is given: `default`, or, when that leaves fewer blocks than
    /// shards (a few thousand expensive games), `trials / count` (at least
    /// 1), so that every shard gets trials. Every shard of a run computes
    /// the same size from the same `trials` and `count`.
    pub fn block_size(&self, trials: u64, default: u64) -> u64 {
        let default = default.max(1);
        if trials.div_ceil(default) >= self.count {
            default
        } else {
            (trials / self.count).max(1)
        }
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
    /// The scenario's one-line description (for chart titles).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
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
    pub fn same_run(&self, other: &RunState) -> Result<(), MergeError> {
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
        first_difference(checks)?;
        self.same_outputs(other)
    }

    /// Checks that `other` declares the same outcome labels, metrics and
    /// charts as `self`, so that their tallies count the same things.
    fn same_outputs(&self, other: &RunState) -> Result<(), MergeError> {
        let pair =
            |field: &'static str, of: &dyn Fn(&RunState) -> String| (field, of(self), of(other));
        first_difference([
            pair("outcome labels", &|s| format!("{:?}", s.outcomes)),
            pair("metrics", &|s| format!("{:?}", s.metrics)),
            pair("length metric", &|s| format!("{:?}", s.length_metric)),
            pair("trend charts", &|s| format!("{:?}", s.trends)),
        ])
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
        if start != self.range[0] || done < start || done > self.range[1] {
            return Err(MergeError::WrongRange {
                shard: shard(checkpoint),
                start,
                end: done,
                expected_start: self.range[0],
                expected_end: self.range[1],
            });
        }
        checkpoint
            .check_consistent()
            .map_err(|why| MergeError::Inconsistent {
                shard: shard(checkpoint),
                why,
            })
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

/// The first `(field, first value, other value)` whose values differ, as a
/// [`MergeError::Mismatch`].
fn first_difference(
    checks: impl IntoIterator<Item = (&'static str, String, String)>,
) -> Result<(), MergeError> {
    match checks.into_iter().find(|(_, a, b)| a != b) {
        Some((field, first, other)) => Err(MergeError::Mismatch {
            field,
            first,
            other,
        }),
        None => Ok(()),
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
    /// A shard's state contradicts itself.
    #[error("shard {shard}: {why}")]
    Inconsistent {
        /// The shard.
        shard: String,
        /// What is wrong.
        why: StateError,
    },
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
        if s.range != [expected.start, expected.end] {
            return Err(MergeError::WrongRange {
                shard: name(s.shard.index),
                start: s.range[0],
                end: s.range[1],
                expected_start: expected.start,
                expected_end: expected.end,
            });
        }
        s.check_consistent()
            .map_err(|why| MergeError::Inconsistent {
                shard: name(s.shard.index),
                why,
            })?;
        tally.merge(&s.tally);
    }
    Ok(RunState {
        shard: ShardSpec::WHOLE,
        range: [0, first.trials],
        tally,
        ..first
    })
}

/// Why a state or checkpoint file cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StateError {
    /// The file does not end with the checksum `run` writes.
    #[error(
        "has no checksum (expected a state.json or checkpoint.json written by barsoom run, ending in \"checksum\":\"xxh3-128:...\")"
    )]
    NoChecksum,
    /// The content does not match its checksum.
    #[error(
        "its content does not match its checksum (stored {stored}, content gives {computed}): the file is corrupt or was edited"
    )]
    Checksum {
        /// The checksum in the file.
        stored: String,
        /// The checksum of its content.
        computed: String,
    },
    /// The content is not a barsoom state.
    #[error("expected a barsoom state written by `run`: {0}")]
    Parse(String),
    /// The state contradicts itself.
    #[error("{0}")]
    Inconsistent(String),
}

/// The key of the checksum that ends every state and checkpoint file.
const CHECKSUM_KEY: &str = ",\"checksum\":\"";

/// The checksum of a state's serialized content.
fn checksum(content: &str) -> String {
    format!(
        "xxh3-128:{:032x}",
        xxhash_rust::xxh3::xxh3_128(content.as_bytes())
    )
}

impl RunState {
    /// The state as one line of JSON ending in a `"checksum"` of everything
    /// before it: the exact bytes serde writes for the state, so every field
    /// (a new one too) is covered. It detects accidental corruption (a
    /// truncated, mixed or hand-edited file), not deliberate forgery.
    pub fn to_sealed_json(&self) -> Result<String, serde_json::Error> {
        let content = serde_json::to_string(self)?;
        let Some(body) = content.strip_suffix('}') else {
            return Ok(content);
        };
        Ok(format!("{body}{CHECKSUM_KEY}{}\"}}", checksum(&content)))
    }

    /// Reads a file written by [`to_sealed_json`](Self::to_sealed_json):
    /// checks the checksum, parses the state and checks that it is
    /// consistent ([`check_consistent`](Self::check_consistent)).
    pub fn from_sealed_json(text: &str) -> Result<RunState, StateError> {
        let (body, stored) = text
            .trim_end()
            .strip_suffix("\"}")
            .and_then(|t| t.rsplit_once(CHECKSUM_KEY))
            .ok_or(StateError::NoChecksum)?;
        let content = format!("{body}}}");
        let computed = checksum(&content);
        if stored != computed {
            return Err(StateError::Checksum {
                stored: stored.chars().take(48).collect(),
                computed,
            });
        }
        let state: RunState =
            serde_json::from_str(&content).map_err(|e| StateError::Parse(e.to_string()))?;
        state.check_consistent()?;
        Ok(state)
    }

    /// Checks every invariant the state carries: a valid shard and block
    /// size, a range inside the run, one count per outcome label and one
    /// histogram per metric, and outcome counts and every histogram (its
    /// total and the sum of its bins, without overflow) equal to the trials
    /// the range covers.
    pub fn check_consistent(&self) -> Result<(), StateError> {
        let bad = |why: String| Err(StateError::Inconsistent(why));
        let [start, end] = self.range;
        if self.chunk == 0 {
            return bad("chunk is 0, expected a block size of at least 1".into());
        }
        if self.shard.count == 0 || self.shard.index >= self.shard.count {
            return bad(format!(
                "shard {}/{} is not one of 0/N..N-1/N",
                self.shard.index, self.shard.count
            ));
        }
        if start > end || end > self.trials {
            return bad(format!(
                "range {start}..{end} is not inside the run's trials 0..{}",
                self.trials
            ));
        }
        if self.tally.outcomes.len() != self.outcomes.len() {
            return bad(format!(
                "the tally has {} outcome counts for {} outcome labels",
                self.tally.outcomes.len(),
                self.outcomes.len()
            ));
        }
        if self.tally.metrics.len() != self.metrics.len() {
            return bad(format!(
                "the tally has {} metric histograms for {} metrics",
                self.tally.metrics.len(),
                self.metrics.len()
            ));
        }
        if let Some(length) = self.length_metric.filter(|m| *m >= self.metrics.len()) {
            return bad(format!(
                "length_metric {length} is not one of the {} metrics",
                self.metrics.len()
            ));
        }
        let covered = end - start;
        let words =
            |n: Option<u64>| n.map_or_else(|| "more than 2^64 - 1".into(), |n| n.to_string());
        let counted = self.tally.checked_trials();
        if counted != Some(covered) {
            return bad(format!(
                "trials {start}..{end} are {covered} trials, but the outcome counts add up to {}",
                words(counted)
            ));
        }
        for ([name, _], histogram) in self.metrics.iter().zip(&self.tally.metrics) {
            let binned = histogram.checked_count();
            if histogram.total() != covered || binned != Some(covered) {
                return bad(format!(
                    "trials {start}..{end} are {covered} trials, but metric {name:?} counts {} observations (bins adding up to {})",
                    histogram.total(),
                    words(binned)
                ));
            }
        }
        Ok(())
    }
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
            description: String::new(),
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
        for bad in [state([0, 11_000], 11_000), state([1000, 3000], 2000)] {
            assert!(matches!(
                run.check_resumable(&bad),
                Err(MergeError::WrongRange { .. })
            ));
        }
        // The right range, but a tally that does not count it: said so, not
        // "covers 0..3000, expected 0..3000".
        let short = run.check_resumable(&state([0, 3000], 2999));
        assert!(
            matches!(short, Err(MergeError::Inconsistent { .. })),
            "{short:?}"
        );
        let message = short.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            message.contains("0..3000 are 3000 trials, but the outcome counts add up to 2999"),
            "{message}"
        );
        let mut other_seed = state([0, 3000], 3000);
        other_seed.seed = 2;
        assert!(matches!(
            run.check_resumable(&other_seed),
            Err(MergeError::Mismatch { field: "seed", .. })
        ));
    }

    /// A whole-run state of 10,000 trials with one metric (every trial 3).
    fn with_metric() -> RunState {
        let mut s = state([0, 10_000], 10_000);
        s.metrics = vec![["rounds".into(), "rounds fought".into()]];
        s.tally.metrics = vec![Default::default()];
        for _ in 0..10_000 {
            s.tally.metrics[0].add(3);
        }
        s
    }

    fn reason(state: &RunState) -> String {
        state
            .check_consistent()
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn a_sealed_state_reads_back_and_any_change_is_refused() {
        let s = with_metric();
        let text = s.to_sealed_json().expect("serialize");
        assert!(text.contains(",\"checksum\":\"xxh3-128:"), "{text}");
        assert_eq!(RunState::from_sealed_json(&text), Ok(s.clone()));
        assert_eq!(RunState::from_sealed_json(&format!("{text}\n")), Ok(s));
        // One digit changed anywhere, or the checksum gone: refused.
        let edited = text.replacen("\"seed\":1", "\"seed\":2", 1);
        assert!(matches!(
            RunState::from_sealed_json(&edited),
            Err(StateError::Checksum { .. })
        ));
        let bare = serde_json::to_string(&with_metric()).expect("serialize");
        assert_eq!(
            RunState::from_sealed_json(&bare),
            Err(StateError::NoChecksum)
        );
        assert_eq!(RunState::from_sealed_json(""), Err(StateError::NoChecksum));
    }

    #[test]
    fn every_invariant_of_a_state_is_checked() {
        assert_eq!(with_metric().check_consistent(), Ok(()));
        // A histogram total off by one.
        let mut s = with_metric();
        let text = serde_json::to_string(&s.tally.metrics[0]).expect("json");
        s.tally.metrics[0] =
            serde_json::from_str(&text.replace("\"total\":10000", "\"total\":10001"))
                .expect("json");
        assert!(
            reason(&s).contains("\"rounds\" counts 10001 observations"),
            "{}",
            reason(&s)
        );
        // A bin of 2^64 - 1: the sum of the bins overflows.
        s.tally.metrics[0] = serde_json::from_str(
            &text.replace("[0,0,0,10000]", "[0,0,18446744073709551615,10000]"),
        )
        .expect("json");
        assert!(reason(&s).contains("more than 2^64 - 1"), "{}", reason(&s));
        // Outcome counts that wrap.
        let mut s = with_metric();
        s.tally.outcomes = vec![u64::MAX, 10_001];
        assert!(
            reason(&s).contains("add up to more than 2^64 - 1"),
            "{}",
            reason(&s)
        );
        // Metrics dropped from the tally or the labels.
        let mut s = with_metric();
        s.tally.metrics.clear();
        assert!(reason(&s).contains("0 metric histograms for 1 metrics"));
        let mut s = with_metric();
        s.metrics.clear();
        assert!(reason(&s).contains("1 metric histograms for 0 metrics"));
        let mut s = with_metric();
        s.outcomes.pop();
        assert!(reason(&s).contains("2 outcome counts for 1 outcome labels"));
        let mut s = with_metric();
        s.range = [0, 20_000];
        assert!(reason(&s).contains("not inside the run's trials 0..10000"));
        let mut s = with_metric();
        s.chunk = 0;
        assert!(reason(&s).contains("chunk is 0"));
    }

    #[test]
    fn shards_with_other_labels_or_metrics_do_not_merge() {
        let halves = |edit: &dyn Fn(&mut RunState)| {
            let mut parts: Vec<RunState> = (0..2)
                .map(|index| {
                    let mut s = state([0, 0], 0);
                    s.shard = ShardSpec { index, count: 2 };
                    let r = s.shard.range(s.trials, s.chunk);
                    s.range = [r.start, r.end];
                    s.tally.outcomes[0] = r.end - r.start;
                    s
                })
                .collect();
            edit(&mut parts[1]);
            merge(parts)
        };
        assert!(halves(&|_| ()).is_ok());
        assert!(matches!(
            halves(&|s| s.outcomes[1] = "c".into()),
            Err(MergeError::Mismatch {
                field: "outcome labels",
                ..
            })
        ));
        assert!(matches!(
            halves(&|s| {
                s.metrics = vec![["m".into(), "d".into()]];
                s.tally.metrics = vec![Default::default()];
            }),
            Err(MergeError::Mismatch {
                field: "metrics",
                ..
            })
        ));
        assert!(matches!(
            halves(&|s| s.tally.outcomes[1] += 1),
            Err(MergeError::Inconsistent { .. })
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

    #[test]
    fn a_short_run_gets_blocks_small_enough_for_every_shard() {
        // 64 expensive games in 4 shards: 16,384-trial blocks would give the
        // whole run to one shard; blocks of 16 give each shard 16.
        let shards = |n: u64| (0..n).map(move |k| ShardSpec { index: k, count: n });
        for (trials, n) in [(64, 4), (5, 4), (50_000, 7), (10, 3), (1_000, 1_000)] {
            let mut next = 0;
            for s in shards(n) {
                let chunk = s.block_size(trials, 16_384);
                let r = s.range(trials, chunk);
                assert!(
                    !r.is_empty(),
                    "{trials} trials, shard {}/{n}: {r:?}",
                    s.index
                );
                assert_eq!(r.start, next, "contiguous");
                next = r.end;
            }
            assert_eq!(next, trials);
        }
        assert_eq!(ShardSpec { index: 0, count: 4 }.block_size(64, 16_384), 16);
        // A run with enough blocks keeps the default; so does a whole run.
        assert_eq!(
            ShardSpec { index: 0, count: 4 }.block_size(1 << 20, 16_384),
            16_384
        );
        assert_eq!(ShardSpec::WHOLE.block_size(8, 16_384), 16_384);
    }
}
