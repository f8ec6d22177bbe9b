//! Tuning to a target: which setting of a grid brings the chosen rates and
//! metric means closest to the values a designer wants?
//!
//! The method is successive halving, a best-arm bandit: every setting runs
//! a first batch of trials; the better half (by loss) goes on to twice as
//! many, and so on until one is left. Settings share their trials (common
//! random numbers: trial `i` of every setting uses the stream of
//! `(seed, i)`, and later rounds extend the same index range), so the
//! comparisons within a round are paired. The winner is then re-run on a
//! fresh seed, because the best of many noisy estimates overstates itself
//! (the winner's curse); the confirmed figures are the ones to quote.
//!
//! Loss: the sum over targets of `((estimate - target) / scale)^2`, with
//! `scale = max(|target|, 0.01)`, so a rate 0.05 off a 0.5 target weighs as
//! much as a mean 2 turns off a 20-turn target.

use std::ops::Range;

use barsoom_engine::scenario::nearest_ids;
use barsoom_engine::{OutputSpec, Tally};

/// What a target measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// The rate of outcome `k`.
    Rate(usize),
    /// The mean of metric `k`.
    Mean(usize),
}

/// One `--target NAME=VALUE`.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// The name as given: an outcome label or a metric name.
    pub name: String,
    /// The wanted value.
    pub value: f64,
}

impl Target {
    /// Parses `NAME=VALUE` (the last `=` splits, so labels may hold one).
    pub fn parse(text: &str) -> Result<Target, String> {
        let (name, value) = text.rsplit_once('=').ok_or_else(|| {
            format!("expected NAME=VALUE with an outcome label or metric name, found {text:?}")
        })?;
        let value: f64 = value
            .trim()
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| format!("target {name:?}: expected a number, found {value:?}"))?;
        Ok(Target {
            name: name.trim().to_string(),
            value,
        })
    }

    /// What the target measures in a model with `spec`: an outcome label
    /// (a rate, 0..1) or a metric name (a mean), matched exactly, else
    /// regardless of case and surrounding spaces when that picks one; an
    /// unknown name is an error naming the nearest.
    pub fn resolve(&self, spec: &OutputSpec) -> Result<Measure, String> {
        let labels = || spec.outcomes.iter().map(String::as_str);
        let metrics = || spec.metrics.iter().map(|m| m.name.as_str());
        let find = |same: &dyn Fn(&str) -> bool| -> Option<Measure> {
            let matched: Vec<Measure> = labels()
                .enumerate()
                .filter(|(_, l)| same(l))
                .map(|(k, _)| Measure::Rate(k))
                .chain(
                    metrics()
                        .enumerate()
                        .filter(|(_, m)| same(m))
                        .map(|(k, _)| Measure::Mean(k)),
                )
                .collect();
            (matched.len() == 1).then(|| matched[0])
        };
        let wanted = self.name.trim().to_lowercase();
        let measure =
            find(&|n| n == self.name).or_else(|| find(&|n| n.trim().to_lowercase() == wanted));
        match measure {
            Some(Measure::Rate(_)) if !(0.0..=1.0).contains(&self.value) => Err(format!(
                "target {:?} is a rate: expected a value from 0 to 1, found {}",
                self.name, self.value
            )),
            Some(measure) => Ok(measure),
            None => Err(format!(
                "target {:?}: expected an outcome label or metric name (case does not matter); nearest: {}; all: {}",
                self.name,
                nearest_ids(&self.name, labels().chain(metrics())),
                labels()
                    .map(|o| format!("{o:?}"))
                    .chain(metrics().map(str::to_string))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
}

/// The estimate of `measure` from a tally.
pub fn estimate(tally: &Tally, measure: Measure) -> f64 {
    match measure {
        Measure::Rate(k) => {
            let n = tally.trials();
            if n == 0 {
                f64::NAN
            } else {
                tally.outcomes[k] as f64 / n as f64
            }
        }
        Measure::Mean(k) => tally.metrics[k].mean().unwrap_or(f64::NAN),
    }
}

/// The loss of `estimates` against `targets` (see the module notes).
pub fn loss(targets: &[Target], estimates: &[f64]) -> f64 {
    targets
        .iter()
        .zip(estimates)
        .map(|(t, e)| ((e - t.value) / t.value.abs().max(0.01)).powi(2))
        .sum()
}

/// One setting's standing after one round.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceRow {
    /// Round number from 0.
    pub round: usize,
    /// Index of the setting in the grid.
    pub setting: usize,
    /// Trials it has run in total.
    pub trials: u64,
    /// One estimate per target.
    pub estimates: Vec<f64>,
    /// Its loss.
    pub loss: f64,
    /// Whether it goes on to the next round (or won the last).
    pub kept: bool,
}

/// The trials the last round of [`successive_halving`] reaches over
/// `settings` settings from `first_round_trials` (each round doubles the
/// total), or `None` when that passes `u64::MAX`.
pub fn last_round_trials(settings: usize, first_round_trials: u64) -> Option<u64> {
    let mut alive = settings.max(1);
    let mut trials = first_round_trials.max(1);
    while alive > 1 {
        alive = alive.div_ceil(2);
        trials = trials.checked_mul(2)?;
    }
    Some(trials)
}

/// Successive halving over `settings` settings: `run(setting, range)`
/// plays trials `range` of one setting and returns their tally. Returns the
/// winning setting and the trace.
pub fn successive_halving<E>(
    settings: usize,
    measures: &[Measure],
    targets: &[Target],
    first_round_trials: u64,
    mut run: impl FnMut(usize, Range<u64>) -> Result<Tally, E>,
) -> Result<(usize, Vec<TraceRow>), E> {
    let mut alive: Vec<usize> = (0..settings).collect();
    let mut tallies: Vec<Option<Tally>> = vec![None; settings];
    let mut done = 0u64;
    let mut round_trials = first_round_trials.max(1);
    let mut trace = Vec::new();
    for round in 0.. {
        let target_trials = done + round_trials;
        let mut scored = Vec::with_capacity(alive.len());
        for &s in &alive {
            let fresh = run(s, done..target_trials)?;
            let tally = match tallies[s].take() {
                Some(mut t) => {
                    t.merge(&fresh);
                    t
                }
                None => fresh,
            };
            let estimates: Vec<f64> = measures.iter().map(|m| estimate(&tally, *m)).collect();
            let l = loss(targets, &estimates);
            tallies[s] = Some(tally);
            scored.push((s, estimates, if l.is_nan() { f64::INFINITY } else { l }));
        }
        // Ties go to the earlier setting in the grid, so the search is
        // deterministic.
        scored.sort_by(|a, b| a.2.total_cmp(&b.2).then(a.0.cmp(&b.0)));
        let keep = scored.len().div_ceil(2).max(1);
        let last = scored.len() == 1;
        for (rank, (s, estimates, l)) in scored.iter().enumerate() {
            trace.push(TraceRow {
                round,
                setting: *s,
                trials: target_trials,
                estimates: estimates.clone(),
                loss: *l,
                kept: if last { true } else { rank < keep },
            });
        }
        if last {
            return Ok((scored[0].0, trace));
        }
        alive = scored.iter().take(keep).map(|s| s.0).collect();
        done = target_trials;
        round_trials = target_trials;
    }
    unreachable!("the loop returns once one setting is left")
}

#[cfg(test)]
mod tests {
    use super::*;
    use barsoom_engine::MetricSpec;

    fn spec() -> OutputSpec {
        OutputSpec {
            outcomes: vec!["A wins".into(), "B wins".into()],
            metrics: vec![MetricSpec::new("rounds", "rounds")],
            length_metric: Some(0),
            trends: Vec::new(),
        }
    }

    #[test]
    fn targets_resolve_to_rates_or_means() {
        let s = spec();
        assert_eq!(
            Target::parse("A wins=0.35").and_then(|t| t.resolve(&s)),
            Ok(Measure::Rate(0))
        );
        assert_eq!(
            Target::parse("rounds=20").and_then(|t| t.resolve(&s)),
            Ok(Measure::Mean(0))
        );
        let e = Target::parse("C wins=0.5")
            .and_then(|t| t.resolve(&s))
            .unwrap_err();
        assert!(e.contains("\"A wins\", \"B wins\", rounds"), "{e}");
        assert!(
            Target::parse("A wins=1.5")
                .and_then(|t| t.resolve(&s))
                .is_err()
        );
        assert!(Target::parse("A wins").is_err());
        assert!(Target::parse("A wins=x").is_err());
    }

    #[test]
    fn loss_scales_by_the_target() {
        let targets = [
            Target {
                name: "r".into(),
                value: 0.5,
            },
            Target {
                name: "m".into(),
                value: 20.0,
            },
        ];
        // (0.05/0.5)^2 + (2/20)^2 = 0.01 + 0.01.
        assert!((loss(&targets, &[0.55, 18.0]) - 0.02).abs() < 1e-12);
    }

    #[test]
    fn halving_finds_the_planted_setting() {
        // Setting s wins with probability s/10 (fixed counts, no noise);
        // the target 0.3 is met exactly by setting 3 of 0..=9.
        let targets = [Target {
            name: "A wins".into(),
            value: 0.3,
        }];
        let (best, trace) =
            successive_halving(10, &[Measure::Rate(0)], &targets, 100, |s, range| {
                let n = range.end - range.start;
                let mut t = Tally::new(2, 1);
                t.outcomes[0] = n * s as u64 / 10;
                t.outcomes[1] = n - t.outcomes[0];
                Ok::<_, ()>(t)
            })
            .expect("runs");
        assert_eq!(best, 3);
        // Rounds of 10, 5, 3, 2, 1 settings at 100, 200, 400, 800, 1600 trials.
        let rounds: Vec<usize> = (0..5)
            .map(|r| trace.iter().filter(|t| t.round == r).count())
            .collect();
        assert_eq!(rounds, vec![10, 5, 3, 2, 1]);
        assert_eq!(trace.last().map(|t| t.trials), Some(1600));
    }
}
