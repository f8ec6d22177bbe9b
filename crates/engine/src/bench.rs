//! Throughput measurement for `barsoom bench` and the criterion benches:
//! nanoseconds per trial at one thread and at all threads, against a raw
//! loop that seeds the same per-trial streams and rolls the same number of
//! dice (each die drawn on its own, as `Dice::d6`) without any game logic.
//! The models draw a 3d6 roll in one go, so they can beat the raw loop on
//! the dice themselves; the ratio shows what the rules cost on top.

use std::hint::black_box;
use std::time::Instant;

use rayon::prelude::*;

use super::model::{DynModel, Model, NoTrace};
use super::rng::Dice;
use super::runner::{DEFAULT_CHUNK, RunConfig, RunError, block_ranges, thread_pool};

/// One measured configuration.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Throughput {
    /// Worker threads.
    pub threads: usize,
    /// Trials run.
    pub trials: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Nanoseconds of wall time per trial.
    pub ns_per_trial: f64,
    /// Trials per second.
    pub trials_per_second: f64,
}

impl Throughput {
    fn new(threads: usize, trials: u64, seconds: f64) -> Self {
        let seconds = seconds.max(1e-9);
        Throughput {
            threads,
            trials,
            seconds,
            ns_per_trial: seconds * 1e9 / trials as f64,
            trials_per_second: trials as f64 / seconds,
        }
    }
}

/// Times `trials` trials of `model` on `threads` threads (0 = all cores).
pub(crate) fn time_model(
    model: &dyn DynModel,
    seed: u64,
    trials: u64,
    threads: usize,
) -> Result<Throughput, RunError> {
    let config = RunConfig {
        threads,
        ..RunConfig::new(seed, trials)
    };
    let start = Instant::now();
    let tally = model.run(&config, None)?;
    let seconds = start.elapsed().as_secs_f64();
    black_box(tally);
    Ok(Throughput::new(resolve_threads(threads), trials, seconds))
}

/// Mean number of dice a trial of `model` rolls, over `sample` trials.
pub fn dice_per_trial<M: Model>(model: &M, seed: u64, sample: u64) -> f64 {
    let total: u64 = (0..sample)
        .map(|i| {
            let mut dice = Dice::for_trial(seed, i);
            model.run_trial(&mut dice, &mut NoTrace);
            u64::from(dice.rolled())
        })
        .sum();
    total as f64 / sample.max(1) as f64
}

/// Times a raw loop: seed each trial's stream, roll `dice` d6, add them up.
pub fn time_raw_dice(
    seed: u64,
    trials: u64,
    dice: f64,
    threads: usize,
) -> Result<Throughput, RunError> {
    let pool = thread_pool(threads)?;
    // Whole dice per trial, spread so that their mean is `dice`.
    let start = Instant::now();
    let sum: u64 = pool.install(|| {
        block_ranges(&(0..trials), DEFAULT_CHUNK)
            .par_bridge()
            .map(|block| {
                block
                    .clone()
                    .map(|i| {
                        let mut d = Dice::for_trial(seed, i);
                        let count = ((i + 1) as f64 * dice).floor() as u64
                            - (i as f64 * dice).floor() as u64;
                        (0..count).map(|_| u64::from(d.d6())).sum::<u64>()
                    })
                    .sum::<u64>()
            })
            .sum()
    });
    let seconds = start.elapsed().as_secs_f64();
    black_box(sum);
    Ok(Throughput::new(resolve_threads(threads), trials, seconds))
}

/// Repeated timings of one configuration, for a median and its noise.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Repeated {
    /// Worker threads.
    pub threads: usize,
    /// Trials per timing.
    pub trials: u64,
    /// Trials per second of each timing, in the order taken.
    pub samples: Vec<f64>,
}

impl Repeated {
    /// Median trials per second.
    pub fn median(&self) -> f64 {
        let mut sorted = self.samples.clone();
        sorted.sort_by(f64::total_cmp);
        match sorted.len() {
            0 => f64::NAN,
            n if n % 2 == 1 => sorted[n / 2],
            n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
        }
    }

    /// Run-to-run noise: the sample standard deviation of the timings
    /// relative to their mean (0 with fewer than two timings).
    pub fn noise(&self) -> f64 {
        let n = self.samples.len();
        if n < 2 {
            return 0.0;
        }
        let mean = self.samples.iter().sum::<f64>() / n as f64;
        let var = self.samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        var.sqrt() / mean
    }
}

/// Times `repeats` runs of `model` on `threads` threads, each of at least
/// `trials` trials, the count grown until one timing lasts `min_seconds`:
/// a configuration that runs faster (more threads) runs more trials instead
/// of a shorter, noisier timing. The first timing sizes the count and is
/// kept as a sample when it lasted long enough (with `min_seconds` 0,
/// always).
pub fn time_sized(
    model: &dyn DynModel,
    seed: u64,
    trials: u64,
    threads: usize,
    repeats: usize,
    min_seconds: f64,
) -> Result<Repeated, RunError> {
    let mut trials = trials.max(1);
    let mut samples = Vec::with_capacity(repeats.max(1));
    loop {
        let timed = time_model(model, seed, trials, threads)?;
        if timed.seconds >= min_seconds {
            samples.push(timed.trials_per_second);
            break;
        }
        trials = grown(trials, timed.seconds, min_seconds);
    }
    while samples.len() < repeats.max(1) {
        samples.push(time_model(model, seed, trials, threads)?.trials_per_second);
    }
    Ok(Repeated {
        threads: resolve_threads(threads),
        trials,
        samples,
    })
}

/// The trial count that should take a fifth more than `min_seconds`, from
/// a timing of `trials` that took `seconds`: at least double, at most a
/// thousandfold a step.
fn grown(trials: u64, seconds: f64, min_seconds: f64) -> u64 {
    let factor = (1.2 * min_seconds / seconds.max(1e-9)).clamp(2.0, 1000.0);
    ((trials as f64) * factor).ceil().min(u64::MAX as f64) as u64
}

fn resolve_threads(threads: usize) -> usize {
    if threads == 0 {
        rayon::current_num_threads()
    } else {
        threads
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_noise_of_repeats() {
        let r = Repeated {
            threads: 1,
            trials: 10,
            samples: vec![90.0, 110.0, 100.0],
        };
        assert_eq!(r.median(), 100.0);
        // Sample sd of 90, 100, 110 is 10; the mean is 100.
        assert!((r.noise() - 0.1).abs() < 1e-12);
        let even = Repeated {
            samples: vec![4.0, 1.0, 3.0, 2.0],
            ..r
        };
        assert_eq!(even.median(), 2.5);
    }

    #[test]
    fn a_short_timing_grows_toward_the_minimum_time() {
        // 1,000 trials in 0.01 s against 0.5 s: 60 times as many.
        assert_eq!(grown(1_000, 0.01, 0.5), 60_000);
        // Nearly long enough still doubles; far too short is capped.
        assert_eq!(grown(1_000, 0.49, 0.5), 2_000);
        assert_eq!(grown(1_000, 1e-7, 0.5), 1_000_000);
    }
}
