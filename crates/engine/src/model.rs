//! The interface every simulation model implements. The runner, outputs,
//! charts and CLI see models only through this trait.

use serde::{Deserialize, Serialize};

use super::accumulate::{MAX_METRICS, TrialResult};
use super::rng::Dice;

/// What a model reports: its outcome labels and integer metrics.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputSpec {
    /// One label per outcome, e.g. "John Carter wins".
    pub outcomes: Vec<String>,
    /// Integer metrics recorded per trial.
    pub metrics: Vec<MetricSpec>,
    /// Index of the metric drawn as the length-of-play histogram.
    pub length_metric: Option<usize>,
    /// Metrics drawn as lines of their means over time (or any x).
    pub trends: Vec<TrendSpec>,
}

/// A chart of metric means against an x value, one line per group of
/// metrics: e.g. the capitals each side holds after turns 5, 10, 20...
/// Each point is a metric's mean with its 95% interval as a band.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrendSpec {
    /// File stem of the chart (`<stem>.png`, `<stem>.svg`).
    pub stem: String,
    /// Chart title.
    pub title: String,
    /// What the x axis measures.
    pub x_label: String,
    /// What the y axis measures.
    pub y_label: String,
    /// A fixed top of the y axis (e.g. the capitals there are to hold);
    /// `None` fits the data.
    pub y_max: Option<f64>,
    /// The lines.
    pub lines: Vec<TrendLine>,
}

/// One line of a [`TrendSpec`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrendLine {
    /// Legend label.
    pub name: String,
    /// `(x, metric index)` pairs in increasing `x`.
    pub points: Vec<(f64, usize)>,
}

/// One integer metric.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricSpec {
    /// Short machine name, e.g. "rounds".
    pub name: String,
    /// What it counts, for tables and chart axes.
    pub description: String,
}

impl MetricSpec {
    /// A metric called `name` that counts `description`.
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        MetricSpec {
            name: name.into(),
            description: description.into(),
        }
    }
}

impl OutputSpec {
    /// Checks the limits the accumulators rely on.
    pub fn check(&self) -> Result<(), String> {
        if self.metrics.len() > MAX_METRICS {
            return Err(format!("a model may declare at most {MAX_METRICS} metrics"));
        }
        if self.outcomes.is_empty() || self.outcomes.len() > usize::from(u16::MAX) {
            return Err("a model must declare between 1 and 65535 outcomes".into());
        }
        let points = self
            .trends
            .iter()
            .flat_map(|t| &t.lines)
            .flat_map(|l| &l.points);
        if let Some((_, m)) = points.clone().find(|(_, m)| *m >= self.metrics.len()) {
            return Err(format!(
                "a trend names metric {m}, beyond the {} declared",
                self.metrics.len()
            ));
        }
        Ok(())
    }
}

/// One line of a replayed trial's event log.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceEvent {
    /// The rule case applied, e.g. "WoM men-vs-men 4b".
    pub case: &'static str,
    /// What happened: the roll, the target number and the effect.
    pub text: String,
}

/// Receives a trial's events. The no-op implementation compiles away, so
/// tracing costs nothing in bulk runs.
pub trait Trace {
    /// Whether events are kept (lets a model skip work only a trace needs).
    const ENABLED: bool;
    /// Records an event; `describe` runs only when tracing is enabled.
    fn event(&mut self, case: &'static str, describe: impl FnOnce() -> String);
}

/// Discards every event.
pub struct NoTrace;

impl Trace for NoTrace {
    const ENABLED: bool = false;
    #[inline(always)]
    fn event(&mut self, _case: &'static str, _describe: impl FnOnce() -> String) {}
}

/// Keeps every event in order.
#[derive(Debug, Default)]
pub struct TraceLog {
    /// The events, in the order they happened.
    pub events: Vec<TraceEvent>,
}

impl Trace for TraceLog {
    const ENABLED: bool = true;
    fn event(&mut self, case: &'static str, describe: impl FnOnce() -> String) {
        self.events.push(TraceEvent {
            case,
            text: describe(),
        });
    }
}

/// An exact solution of a model: outcome probabilities in the order of the
/// model's outcome labels, and exact means for some metrics.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactSolution {
    /// Probability of each outcome.
    pub outcome_probabilities: Vec<f64>,
    /// `(metric index, exact mean)` for the metrics the solver can give.
    pub metric_means: Vec<(usize, f64)>,
}

/// A simulation model built from a validated scenario.
pub trait Model: Sync {
    /// The outcomes and metrics this model records.
    fn spec(&self) -> &OutputSpec;

    /// Plays one trial with the given dice. Must not allocate unless
    /// `T::ENABLED` (tracing a single replayed trial).
    fn run_trial<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> TrialResult;

    /// Solves the model exactly, or says why it cannot be.
    fn exact(&self) -> Result<ExactSolution, String> {
        Err("this model has no exact solver".into())
    }
}

/// An object-safe view of any [`Model`], so the CLI can hold whichever model
/// a scenario names.
pub trait DynModel: Send + Sync {
    /// The outcomes and metrics recorded.
    fn spec(&self) -> &OutputSpec;
    /// Runs trials; see [`super::runner::run`].
    fn run(
        &self,
        config: &super::runner::RunConfig,
        rows: Option<super::runner::RowSink<'_>>,
    ) -> Result<super::accumulate::Tally, super::runner::RunError>;
    /// Replays one trial with its event log.
    fn replay(&self, seed: u64, trial: u64) -> (TrialResult, TraceLog);
    /// Plays trial `trial` of seed `seed` alone, without a log (paired runs).
    fn trial(&self, seed: u64, trial: u64) -> TrialResult;
    /// Runs trials with a wave hook and a stop flag; see
    /// [`super::runner::run_controlled`].
    fn run_controlled(
        &self,
        config: &super::runner::RunConfig,
        rows: Option<super::runner::RowSink<'_>>,
        control: super::runner::RunControl<'_>,
    ) -> Result<super::runner::RunOutcome, super::runner::RunError>;
    /// The exact solution, if the model has one for this scenario.
    fn exact(&self) -> Result<ExactSolution, String>;
    /// Mean dice rolled per trial over the first `sample` trials.
    fn dice_per_trial(&self, seed: u64, sample: u64) -> f64;
}

impl<M: Model + Send> DynModel for M {
    fn spec(&self) -> &OutputSpec {
        Model::spec(self)
    }
    fn run(
        &self,
        config: &super::runner::RunConfig,
        rows: Option<super::runner::RowSink<'_>>,
    ) -> Result<super::accumulate::Tally, super::runner::RunError> {
        super::runner::run(self, config, rows)
    }
    fn run_controlled(
        &self,
        config: &super::runner::RunConfig,
        rows: Option<super::runner::RowSink<'_>>,
        control: super::runner::RunControl<'_>,
    ) -> Result<super::runner::RunOutcome, super::runner::RunError> {
        super::runner::run_controlled(self, config, rows, control)
    }
    fn replay(&self, seed: u64, trial: u64) -> (TrialResult, TraceLog) {
        super::runner::replay(self, seed, trial)
    }
    fn trial(&self, seed: u64, trial: u64) -> TrialResult {
        self.run_trial(&mut super::rng::Dice::for_trial(seed, trial), &mut NoTrace)
    }
    fn exact(&self) -> Result<ExactSolution, String> {
        Model::exact(self)
    }
    fn dice_per_trial(&self, seed: u64, sample: u64) -> f64 {
        super::bench::dice_per_trial(self, seed, sample)
    }
}
