//! The parallel runner: fixed-size blocks of trial indices run on a local
//! rayon pool, each into its own tally, merged strictly in block order.

use std::io::IsTerminal;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

pub use indicatif::ProgressBar;
use indicatif::{ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use super::accumulate::{Tally, TrialResult};
use super::model::{Model, NoTrace, TraceLog};
use super::rng::Dice;

/// Default number of trials per block.
pub const DEFAULT_CHUNK: u64 = 16_384;

/// How to run a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunConfig {
    /// Master seed.
    pub seed: u64,
    /// Trial indices to run (a whole run is `0..trials`; a shard is a sub-range).
    pub trials: Range<u64>,
    /// Worker threads (0 = all cores).
    pub threads: usize,
    /// Trials per block. Blocks are aligned to multiples of this from 0.
    pub chunk: u64,
    /// Show a progress bar on stderr when it is a terminal.
    pub progress: bool,
}

impl RunConfig {
    /// A run of `trials` trials from index 0 with default settings.
    pub fn new(seed: u64, trials: u64) -> Self {
        RunConfig {
            seed,
            trials: 0..trials,
            threads: 0,
            chunk: DEFAULT_CHUNK,
            progress: false,
        }
    }
}

/// Errors of the runner itself (the model never fails at run time).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The thread pool could not be built.
    #[error("could not start {threads} worker threads (--threads): {source}")]
    Pool {
        /// Requested thread count.
        threads: usize,
        /// Cause.
        source: rayon::ThreadPoolBuildError,
    },
    /// The per-trial row sink failed (e.g. a Parquet write).
    #[error("writing per-trial rows: {0}")]
    Rows(String),
    /// The wave hook failed (e.g. a checkpoint could not be written).
    #[error("{0}")]
    Checkpoint(String),
}

/// The per-trial rows of one block, in trial order, starting at `first`.
pub struct BlockRows<'a> {
    /// Index of the first trial in `results`.
    pub first: u64,
    /// One result per trial.
    pub results: &'a [TrialResult],
}

/// Receives each block's per-trial rows, in trial order.
pub type RowSink<'s> = &'s mut dyn FnMut(BlockRows<'_>) -> Result<(), String>;

/// Called after each wave of blocks with the tally of the trials completed
/// so far and the end of that completed prefix (`config.trials.start..end`).
pub(crate) type WaveHook<'h> = &'h mut dyn FnMut(&Tally, u64) -> Result<(), String>;

/// Lets a caller watch a run and stop it between waves of blocks, so that an
/// interrupted run leaves a tally of an exact prefix of its trial range.
#[derive(Default)]
pub struct RunControl<'a> {
    /// When set (e.g. by a signal handler), the run stops before its next
    /// trial: the outcome is the tally of the exact prefix of trials done
    /// (possibly ending inside a block).
    pub stop: Option<&'a AtomicBool>,
    /// Observes every completed wave (checkpoints are written from here).
    pub on_wave: Option<WaveHook<'a>>,
    /// A stopping rule checked after every block, in block order, on the
    /// tally so far: the run ends at the first block boundary where it
    /// holds, whatever the thread count (later blocks of the wave are
    /// discarded).
    pub stop_when: Option<&'a dyn Fn(&Tally) -> bool>,
}

/// What a run achieved: the tally of `config.trials.start..completed_to`.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    /// Merged results of the completed trials.
    pub tally: Tally,
    /// End of the completed prefix; equals `config.trials.end` unless stopped.
    pub completed_to: u64,
    /// Whether the stopping rule ended the run.
    pub rule_met: bool,
}

impl RunOutcome {
    /// Whether the run ended as planned: every trial run, or the stopping
    /// rule met (rather than interrupted).
    pub fn finished(&self, config: &RunConfig) -> bool {
        self.rule_met || self.completed_to == config.trials.end
    }
}

/// Runs the trials of `config` and returns their merged tally. When
/// `rows` is given, every block's per-trial results are handed to it in
/// trial order (blocks run in waves, so memory stays bounded).
pub fn run<M: Model>(
    model: &M,
    config: &RunConfig,
    rows: Option<RowSink<'_>>,
) -> Result<Tally, RunError> {
    Ok(run_controlled(model, config, rows, RunControl::default())?.tally)
}

/// [`run`], with a hook after every wave and a stop flag checked between
/// trials.
pub fn run_controlled<M: Model>(
    model: &M,
    config: &RunConfig,
    mut rows: Option<RowSink<'_>>,
    mut control: RunControl<'_>,
) -> Result<RunOutcome, RunError> {
    let spec = model.spec();
    let chunk = config.chunk.max(1);
    // Blocks are produced lazily, a wave at a time, so memory does not grow
    // with the number of trials.
    let mut blocks = block_ranges(&config.trials, chunk);
    let pool = thread_pool(config.threads)?;
    let threads = pool.current_num_threads();
    let progress = progress_bar(
        config.progress,
        config.trials.end.saturating_sub(config.trials.start),
    );
    let keep_rows = rows.is_some();
    let stop = control.stop;
    // A wave is a few blocks per thread: enough to balance load, small
    // enough that buffered per-trial rows stay bounded.
    let wave = threads * 4;
    let mut wave_blocks: Vec<Range<u64>> = Vec::with_capacity(wave);
    let mut total = Tally::new(spec.outcomes.len(), spec.metrics.len());
    let mut completed_to = config.trials.start;
    let mut rule_met = false;
    let mut stopped = false;
    loop {
        if stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
            break;
        }
        wave_blocks.clear();
        wave_blocks.extend(blocks.by_ref().take(wave));
        if wave_blocks.is_empty() {
            break;
        }
        // Blocks are split into parts so that a short run, or a slow model's
        // few blocks, still keeps every thread busy; parts merge back exactly,
        // in order, so the split never changes a result.
        let parts = split_for_threads(&wave_blocks, threads * 4);
        let done: Vec<BlockRun> = pool.install(|| {
            parts
                .par_iter()
                .map(|(_, part)| {
                    let result = run_block(model, config.seed, part.clone(), keep_rows, stop);
                    progress.inc(result.end - part.start);
                    result
                })
                .collect()
        });
        // Merge in trial order up to the first part a stop cut short: the
        // tally is then that of an exact prefix of the trials, whichever
        // parts other threads had finished.
        let mut done = parts.iter().zip(done).peekable();
        for (index, block) in wave_blocks.iter().enumerate() {
            while let Some(((_, part), run)) = done.next_if(|((owner, _), _)| *owner == index) {
                total.merge(&run.tally);
                if let Some(sink) = rows.as_mut() {
                    sink(BlockRows {
                        first: part.start,
                        results: &run.results,
                    })
                    .map_err(RunError::Rows)?;
                }
                completed_to = run.end;
                if run.end < part.end {
                    stopped = true;
                    break;
                }
            }
            if stopped {
                break;
            }
            completed_to = block.end;
            if control.stop_when.is_some_and(|rule| rule(&total)) {
                rule_met = true;
                break;
            }
        }
        if let Some(hook) = control.on_wave.as_mut() {
            hook(&total, completed_to).map_err(RunError::Checkpoint)?;
        }
        if rule_met || stopped {
            break;
        }
    }
    progress.finish_and_clear();
    Ok(RunOutcome {
        tally: total,
        completed_to,
        rule_met,
    })
}

/// A local pool of `threads` workers (0 = all cores).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, RunError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|source| RunError::Pool { threads, source })
}

/// Splits a wave's blocks into about `pieces` parts of similar size, each
/// tagged with the index of the block it belongs to. A block larger than
/// the wave's share is cut evenly; smaller blocks stay whole.
fn split_for_threads(blocks: &[Range<u64>], pieces: usize) -> Vec<(usize, Range<u64>)> {
    let total: u64 = blocks.iter().map(|b| b.end - b.start).sum();
    let share = total.div_ceil(pieces.max(1) as u64).max(1);
    let mut parts = Vec::with_capacity(blocks.len().max(pieces));
    for (index, block) in blocks.iter().enumerate() {
        let len = block.end - block.start;
        let count = len.div_ceil(share).max(1);
        for k in 0..count {
            let start = block.start + len * k / count;
            let end = block.start + len * (k + 1) / count;
            parts.push((index, start..end));
        }
    }
    parts
}

/// Splits `trials` at every multiple of `chunk`, so a trial always falls in
/// the same block whichever range it is run as part of. The blocks are
/// produced one at a time (a run of any length costs no memory for them),
/// and a block ending past `u64::MAX` ends at `trials.end` instead of
/// wrapping.
pub(crate) fn block_ranges(trials: &Range<u64>, chunk: u64) -> BlockRanges {
    BlockRanges {
        next: trials.start,
        end: trials.end,
        chunk: chunk.max(1),
    }
}

/// The blocks of a trial range, in order: see [`block_ranges`].
#[derive(Debug, Clone)]
pub(crate) struct BlockRanges {
    next: u64,
    end: u64,
    chunk: u64,
}

impl Iterator for BlockRanges {
    type Item = Range<u64>;

    fn next(&mut self) -> Option<Range<u64>> {
        if self.next >= self.end {
            return None;
        }
        let start = self.next;
        let end = (start / self.chunk)
            .checked_add(1)
            .and_then(|b| b.checked_mul(self.chunk))
            .map_or(self.end, |edge| edge.min(self.end));
        self.next = end;
        Some(start..end)
    }
}

/// What one part of a block produced: the tally of trials `start..end`
/// (`end` short of the part's end when the stop flag cut it) and, when
/// asked for, their rows.
struct BlockRun {
    tally: Tally,
    results: Vec<TrialResult>,
    end: u64,
}

fn run_block<M: Model>(
    model: &M,
    seed: u64,
    block: Range<u64>,
    keep_rows: bool,
    stop: Option<&AtomicBool>,
) -> BlockRun {
    let spec = model.spec();
    let mut tally = Tally::new(spec.outcomes.len(), spec.metrics.len());
    let mut results = Vec::with_capacity(if keep_rows {
        (block.end - block.start) as usize
    } else {
        0
    });
    let mut end = block.end;
    for trial in block {
        // One relaxed load a trial: a stop is honoured within one trial
        // whatever the model's speed.
        if stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
            end = trial;
            break;
        }
        let mut dice = Dice::for_trial(seed, trial);
        let result = model.run_trial(&mut dice, &mut NoTrace);
        tally.record(&result);
        if keep_rows {
            results.push(result);
        }
    }
    BlockRun {
        tally,
        results,
        end,
    }
}

/// Replays trial `trial` of a run seeded with `seed` alone, with its log.
pub fn replay<M: Model>(model: &M, seed: u64, trial: u64) -> (TrialResult, TraceLog) {
    let mut log = TraceLog::default();
    let mut dice = Dice::for_trial(seed, trial);
    let result = model.run_trial(&mut dice, &mut log);
    (result, log)
}

/// The progress bar of a run of `trials` trials on stderr (hidden unless
/// `wanted` and stderr is a terminal): also used by commands that run many
/// settings, over all their trials.
pub fn progress_bar(wanted: bool, trials: u64) -> ProgressBar {
    if !wanted || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(trials), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} trials ({rate}, eta {eta})",
    ) {
        bar.set_style(style.with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&rate_text(state.per_sec()));
            },
        ));
    }
    bar
}

/// A progress rate as the bar shows it: whole trials per second with
/// thousands grouped (`1,386/s`), one decimal below ten (`5.3/s`).
fn rate_text(per_second: f64) -> String {
    if !per_second.is_finite() || per_second < 0.0 {
        return "-/s".to_string();
    }
    if per_second < 10.0 {
        return format!("{per_second:.1}/s");
    }
    format!("{}/s", indicatif::HumanCount(per_second.round() as u64))
}

/// Runs `count` over the trials `0..trials` cut into blocks of `block` on
/// the current rayon pool and adds the blocks' results up with `add` as
/// they finish (`None` for no trials): for breakdowns (`barsoom breakdown`)
/// whose integer counts add up the same in any order. Memory does not grow
/// with `trials`. Each finished block advances `progress` (a
/// [`progress_bar`], or `ProgressBar::hidden()`).
pub fn sum_blocks<B: Send>(
    trials: u64,
    block: u64,
    progress: &ProgressBar,
    count: impl Fn(Range<u64>) -> B + Sync + Send,
    add: impl Fn(B, B) -> B + Sync + Send,
) -> Option<B> {
    let block = block.max(1);
    (0..trials.div_ceil(block))
        .into_par_iter()
        .map(|b| {
            let range = b * block..(b * block).saturating_add(block).min(trials);
            let done = range.end - range.start;
            let counted = count(range);
            progress.inc(done);
            counted
        })
        .reduce_with(add)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_add_up_and_advance_their_bar() {
        let bar = ProgressBar::hidden();
        let total = sum_blocks(
            1_000,
            300,
            &bar,
            |range| range.end - range.start,
            |a, b| a + b,
        );
        assert_eq!((total, bar.position()), (Some(1_000), 1_000));
        assert_eq!(sum_blocks(0, 300, &bar, |_| 1u64, |a, b| a + b), None);
    }

    #[test]
    fn the_progress_rate_has_no_long_decimals() {
        assert_eq!(rate_text(1_386.046_5), "1,386/s");
        assert_eq!(rate_text(2_500_000.4), "2,500,000/s");
        assert_eq!(rate_text(5.333), "5.3/s");
        assert_eq!(rate_text(f64::NAN), "-/s");
    }

    #[test]
    fn a_short_wave_is_split_into_even_parts_that_cover_it_in_order() {
        // One block of 2,000 trials on two threads (eight pieces): eight
        // parts of 250, all owned by block 0.
        let parts = split_for_threads(std::slice::from_ref(&(0..2000)), 8);
        assert_eq!(parts.len(), 8);
        assert!(
            parts
                .iter()
                .all(|(owner, p)| *owner == 0 && p.end - p.start == 250)
        );
        // A full block and a short tail: the tail is not cut finer than the
        // share; parts tile the range in trial order.
        let parts = split_for_threads(&[0..16_384, 16_384..20_000], 8);
        let mut next = 0;
        for (_, p) in &parts {
            assert_eq!(p.start, next);
            next = p.end;
        }
        assert_eq!(next, 20_000);
        assert_eq!(parts.iter().filter(|(owner, _)| *owner == 1).count(), 2);
        // A full wave of full blocks is left alone.
        let blocks: Vec<_> = (0..8).map(|b| b * 100..(b + 1) * 100).collect();
        let parts = split_for_threads(&blocks, 8);
        assert_eq!(parts.len(), 8);
        // Fewer trials than pieces: one trial a part, none empty.
        assert_eq!(split_for_threads(std::slice::from_ref(&(5..8)), 8).len(), 3);
    }

    fn blocks(trials: Range<u64>, chunk: u64) -> Vec<Range<u64>> {
        block_ranges(&trials, chunk).collect()
    }

    #[test]
    fn blocks_align_to_the_global_grid() {
        assert_eq!(blocks(0..10, 4), vec![0..4, 4..8, 8..10]);
        assert_eq!(blocks(5..13, 4), vec![5..8, 8..12, 12..13]);
        assert!(blocks(3..3, 4).is_empty());
    }

    #[test]
    fn blocks_near_the_end_of_the_index_space_do_not_wrap() {
        let max = u64::MAX;
        // 2^64 - 4 is the last multiple of 4; the last block ends at the
        // range's end instead of wrapping to 0.
        assert_eq!(
            blocks(max - 10..max, 4),
            vec![max - 10..max - 7, max - 7..max - 3, max - 3..max]
        );
        assert_eq!(
            blocks(max - 20_000..max, 16_384),
            vec![max - 20_000..max - 16_383, max - 16_383..max]
        );
        // The whole index space costs nothing to describe.
        assert_eq!(block_ranges(&(0..max), 16_384).next(), Some(0..16_384));
    }

    /// A model whose trial `i` ends in outcome `i % 3` and raises `stop`
    /// once trial `stop_at` has run.
    struct Counting<'a> {
        spec: crate::model::OutputSpec,
        stop: &'a AtomicBool,
        stop_at: u64,
        played: std::sync::atomic::AtomicU64,
    }

    impl crate::model::Model for Counting<'_> {
        fn spec(&self) -> &crate::model::OutputSpec {
            &self.spec
        }
        fn run_trial<T: crate::model::Trace>(&self, _: &mut Dice, _: &mut T) -> TrialResult {
            let i = self.played.fetch_add(1, Ordering::Relaxed);
            if i + 1 >= self.stop_at {
                self.stop.store(true, Ordering::Relaxed);
            }
            TrialResult {
                outcome: (i % 3) as u16,
                ..TrialResult::default()
            }
        }
    }

    #[test]
    fn a_stop_ends_the_run_inside_a_block_with_an_exact_prefix() {
        let stop = AtomicBool::new(false);
        let model = Counting {
            spec: crate::model::OutputSpec {
                outcomes: vec!["a".into(), "b".into(), "c".into()],
                metrics: Vec::new(),
                length_metric: None,
                trends: Vec::new(),
            },
            stop: &stop,
            stop_at: 10,
            played: Default::default(),
        };
        // One thread, one block of 1,000 trials: before stops were checked
        // between trials, the whole block ran.
        let config = RunConfig {
            threads: 1,
            chunk: 1000,
            ..RunConfig::new(1, 1000)
        };
        let control = RunControl {
            stop: Some(&stop),
            ..RunControl::default()
        };
        let outcome = run_controlled(&model, &config, None, control).expect("runs");
        assert!(!outcome.finished(&config));
        assert!(
            outcome.completed_to < 1000,
            "stopped inside the block, not at its end: {}",
            outcome.completed_to
        );
        assert_eq!(outcome.tally.trials(), outcome.completed_to);
    }
}
