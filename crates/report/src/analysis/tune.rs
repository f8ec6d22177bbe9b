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

    /// What the target measures in a model with `spec` (see
    /// [`resolve_measure`]); a rate target must lie from 0 to 1.
    pub fn resolve(&self, spec: &OutputSpec) -> Result<Measure, String> {
        match resolve_measure(&self.name, spec) {
            Ok(Measure::Rate(_)) if !(0.0..=1.0).contains(&self.value) => Err(format!(
                "target {:?} is a rate: expected a value from 0 to 1, found {}",
                self.name, self.value
            )),
            Ok(measure) => Ok(measure),
            Err(e) => Err(format!("target {e}")),
        }
    }
}

/// What `name` measures in a model with `spec`: an outcome label (a rate,
/// 0..1) or a metric name (a mean), matched exactly, else regardless of
/// case and surrounding spaces when that picks one; an unknown name is an
/// error naming the nearest (used by `--target` and `--show`).
pub fn resolve_measure(name: &str, spec: &OutputSpec) -> Result<Measure, String> {
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
    let wanted = name.trim().to_lowercase();
    find(&|n| n == name)
        .or_else(|| find(&|n| n.trim().to_lowercase() == wanted))
        .ok_or_else(|| {
            format!(
                "{name:?}: expected an outcome label or metric name (case does not matter); nearest: {}; all: {}",
                nearest_ids(name, labels().chain(metrics())),
                labels()
                    .map(|o| format!("{o:?}"))
                    .chain(metrics().map(str::to_string))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

/// Trials [`successive_halving`] runs in all over `settings` settings from
/// `first_round_trials` (for a progress bar), saturating at `u64::MAX`.
pub fn search_trials(settings: usize, first_round_trials: u64) -> u64 {
    let mut alive = settings.max(1) as u64;
    let (mut done, mut fresh, mut total) = (0u64, first_round_trials.max(1), 0u64);
    loop {
        total = total.saturating_add(alive.saturating_mul(fresh));
        if alive == 1 {
            return total;
        }
        // As in the search: the next round's fresh trials are all so far.
        alive = alive.div_ceil(2);
        done = done.saturating_add(fresh);
        fresh = done;
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

/// The estimate of each of `measures` from a tally, and their loss
/// against `targets`.
pub fn score(tally: &Tally, measures: &[Measure], targets: &[Target]) -> (Vec<f64>, f64) {
    let estimates: Vec<f64> = measures.iter().map(|m| estimate(tally, *m)).collect();
    let loss = loss(targets, &estimates);
    (estimates, loss)
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
            let (estimates, l) = score(&tally, measures, targets);
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

/// Where a monotone estimate crosses a target over an ordered grid, found
/// by [`bisect`]: the crossing lies between settings `below` and
/// `above` (adjacent in the grid).
#[derive(Debug, Clone, PartialEq)]
pub struct Bracket {
    /// The grid index on the starting side of the target.
    pub below: usize,
    /// The next grid index, on the other side (or at the target).
    pub above: usize,
    /// Every `(index, estimate)` evaluated, in order.
    pub evaluated: Vec<(usize, f64)>,
}

/// Bisection over the indices `0..settings` of an ordered grid for the
/// adjacent pair whose estimates lie either side of `target`:
/// `estimate_at(i)` measures setting `i` (on common random numbers, so the
/// estimates along the grid are paired). The estimate may rise or fall
/// along the grid but must cross the target once; `Ok(Err(..))` says why
/// no crossing is bracketed (the ends on one side of it).
pub fn bisect<E>(
    settings: usize,
    target: f64,
    mut estimate_at: impl FnMut(usize) -> Result<f64, E>,
) -> Result<Result<Bracket, String>, E> {
    if settings < 2 {
        return Ok(Err(
            "--find needs at least two values to search between".into()
        ));
    }
    let (mut low, mut high) = (0, settings - 1);
    let first = estimate_at(low)?;
    let last = estimate_at(high)?;
    let mut evaluated = vec![(low, first), (high, last)];
    let side = |e: f64| (e - target).signum();
    if !(first.is_finite() && last.is_finite()) || (side(first) == side(last) && first != target) {
        return Ok(Err(format!(
            "no crossing of {target} between the ends: {first:.4} at the first value and {last:.4} at the last"
        )));
    }
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        let e = estimate_at(middle)?;
        evaluated.push((middle, e));
        if side(e) == side(first) && e != target {
            low = middle;
        } else {
            high = middle;
        }
    }
    Ok(Ok(Bracket {
        below: low,
        above: high,
        evaluated,
    }))
}

/// Where the straight line through `(x0, y0)` and `(x1, y1)` meets `target`
/// (`x0` when the two are level).
pub fn interpolate(x0: f64, y0: f64, x1: f64, y1: f64, target: f64) -> f64 {
    if y1 == y0 {
        return x0;
    }
    x0 + (target - y0) / (y1 - y0) * (x1 - x0)
}

/// An interval on the crossing between `x0` and `x1`: where the lines
/// through the two settings' lower, then upper, interval bounds meet the
/// target, in order and kept to `[x0, x1]` (a bound that does not cross
/// there is the end of the step).
pub fn crossing_interval(
    x0: f64,
    band0: [f64; 2],
    x1: f64,
    band1: [f64; 2],
    target: f64,
) -> [f64; 2] {
    let (lo, hi) = (x0.min(x1), x0.max(x1));
    let a = interpolate(x0, band0[0], x1, band1[0], target).clamp(lo, hi);
    let b = interpolate(x0, band0[1], x1, band1[1], target).clamp(lo, hi);
    [a.min(b), a.max(b)]
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
    fn the_progress_total_is_the_trials_the_search_runs() {
        let targets = [Target {
            name: "A wins".into(),
            value: 0.3,
        }];
        for (settings, first) in [(1, 50), (2, 10), (9, 5000), (13, 7), (100, 1)] {
            let mut ran = 0u64;
            successive_halving(
                settings,
                &[Measure::Rate(0)],
                &targets,
                first,
                |_, range| {
                    ran += range.end - range.start;
                    let mut tally = Tally::new(2, 0);
                    tally.outcomes[0] = (range.end - range.start) / 3;
                    tally.outcomes[1] = range.end - range.start - tally.outcomes[0];
                    Ok::<_, ()>(tally)
                },
            )
            .expect("search");
            assert_eq!(search_trials(settings, first), ran, "{settings} x {first}");
        }
    }

    #[test]
    fn bisection_brackets_the_crossing_either_way_up() {
        // A rising step function crossing 0.5 between indices 6 and 7 of
        // 0..13, and the same falling; each call counted.
        for rising in [true, false] {
            let f = |i: usize| {
                let v = (i as f64 + 0.5) / 14.0;
                if rising { v } else { 1.0 - v }
            };
            let mut calls = 0;
            let bracket = bisect(13, 0.5, |i| {
                calls += 1;
                Ok::<_, ()>(f(i))
            })
            .expect("runs")
            .expect("a crossing");
            assert_eq!((bracket.below, bracket.above), (6, 7));
            assert_eq!(calls, bracket.evaluated.len());
            assert!(calls <= 2 + 4, "log2(13) steps after the ends: {calls}");
        }
        let none = bisect(5, 0.9, |i| Ok::<_, ()>(i as f64 / 10.0)).expect("runs");
        assert!(none.unwrap_err().contains("no crossing of 0.9"));
        assert!(bisect(1, 0.5, |_| Ok::<_, ()>(0.5)).expect("runs").is_err());
    }

    #[test]
    fn the_crossing_is_interpolated_with_its_interval() {
        // 0.42 at 9 and 0.92 at 10: 0.5 is 0.08 of the 0.5 rise past 9.
        assert!((interpolate(9.0, 0.42, 10.0, 0.92, 0.5) - 9.16).abs() < 1e-12);
        let [lo, hi] = crossing_interval(9.0, [0.40, 0.44], 10.0, [0.90, 0.94], 0.5);
        assert!(
            (lo - 9.12).abs() < 1e-12 && (hi - 9.2).abs() < 1e-12,
            "{lo} {hi}"
        );
        // A band that never reaches the target stops at the step's end.
        let [lo, hi] = crossing_interval(9.0, [0.30, 0.55], 10.0, [0.45, 0.60], 0.5);
        assert_eq!(hi, 10.0);
        assert!(lo < hi);
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
