//! The summary of a run (or of an exact solution): outcome rates with 95%
//! Wilson intervals and metric statistics. This is what tables, frames,
//! JSON and charts are all drawn from.

use serde::Serialize;

use barsoom_engine::math::stats::wilson_interval;
use barsoom_engine::{ExactSolution, IntHistogram, OutputSpec, Tally, TrendSpec};

/// One outcome's line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OutcomeRow {
    /// The outcome, e.g. "John Carter wins".
    pub label: String,
    /// Trials that ended this way (0 for exact solutions).
    pub count: u64,
    /// Fraction of trials (or exact probability).
    pub rate: f64,
    /// 95% Wilson interval (the rate itself, twice, when exact).
    pub ci95: [f64; 2],
}

/// One metric's line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricRow {
    /// Machine name, e.g. "rounds".
    pub name: String,
    /// What it counts.
    pub description: String,
    /// Mean.
    pub mean: f64,
    /// Standard error of the mean (0 when exact).
    pub se: f64,
    /// Smallest value (Monte Carlo only).
    pub min: Option<u32>,
    /// Median (Monte Carlo only).
    pub median: Option<u32>,
    /// Largest value (Monte Carlo only).
    pub max: Option<u32>,
    /// For an indicator metric (every trial 0 or 1, e.g. "1 if the side
    /// moving first won"), its mean is a rate: the count of ones and the
    /// 95% Wilson interval of that rate (Monte Carlo only).
    pub rate: Option<IndicatorRate>,
}

/// The count of ones of a 0/1 metric and the Wilson interval of its rate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct IndicatorRate {
    /// Trials that recorded 1.
    pub count: u64,
    /// 95% Wilson interval of `count / trials`.
    pub ci95: [f64; 2],
}

/// The indicator rate of `h`, when it holds only zeros and ones.
fn indicator_rate(h: &IntHistogram) -> Option<IndicatorRate> {
    if h.total() == 0 || h.max()? > 1 {
        return None;
    }
    let ones = h.bins().find(|&(v, _)| v == 1).map_or(0, |(_, c)| c);
    let (lo, hi) = wilson_interval(ones, h.total());
    Some(IndicatorRate {
        count: ones,
        ci95: [lo, hi],
    })
}

/// A run's or solver's results, ready to print, save or draw.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Model identifier.
    pub model: String,
    /// Scenario path as given.
    pub scenario: String,
    /// Scenario name (file stem).
    pub scenario_name: String,
    /// The scenario's one-line description (may be empty).
    #[serde(skip)]
    pub description: String,
    /// Master seed (absent for exact solutions).
    pub seed: Option<u64>,
    /// Trials run (0 for exact solutions).
    pub trials: u64,
    /// Whether these are exact values rather than estimates.
    pub exact: bool,
    /// Outcome lines in the model's order.
    pub outcomes: Vec<OutcomeRow>,
    /// Metric lines in the model's order.
    pub metrics: Vec<MetricRow>,
    /// How an adaptive run decided to stop (`--until-ci`), in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopping_rule: Option<String>,
    /// The length-of-play histogram `(value, count)`, when the model names one.
    #[serde(skip)]
    pub length_histogram: Option<(MetricRow, Vec<(u32, u64)>)>,
    /// Charts of metric means over time, from the model's spec.
    #[serde(skip)]
    pub trends: Vec<TrendSpec>,
}

/// Names a summary belongs to.
#[derive(Debug, Clone)]
pub struct SummaryContext<'a> {
    /// Model identifier.
    pub model: &'a str,
    /// Scenario path as given.
    pub scenario: &'a str,
    /// Scenario name.
    pub scenario_name: &'a str,
    /// The scenario's one-line description (may be empty).
    pub description: &'a str,
}

impl Summary {
    /// What a chart of this summary is titled: the scenario's description,
    /// or its name when it has none.
    pub fn title(&self) -> &str {
        if self.description.trim().is_empty() {
            &self.scenario_name
        } else {
            &self.description
        }
    }

    /// Summarises a Monte Carlo tally.
    pub fn from_tally(
        ctx: &SummaryContext<'_>,
        spec: &OutputSpec,
        tally: &Tally,
        seed: u64,
    ) -> Self {
        let trials = tally.trials();
        let outcomes = spec
            .outcomes
            .iter()
            .zip(&tally.outcomes)
            .map(|(label, &count)| {
                let (lo, hi) = wilson_interval(count, trials);
                OutcomeRow {
                    label: label.clone(),
                    count,
                    rate: if trials > 0 {
                        count as f64 / trials as f64
                    } else {
                        0.0
                    },
                    ci95: [lo, hi],
                }
            })
            .collect();
        let metric_row = |i: usize, h: &IntHistogram| MetricRow {
            name: spec.metrics[i].name.clone(),
            description: spec.metrics[i].description.clone(),
            mean: h.mean().unwrap_or(f64::NAN),
            se: h.standard_error().unwrap_or(f64::NAN),
            min: h.min(),
            median: h.median(),
            max: h.max(),
            rate: indicator_rate(h),
        };
        let metrics = tally
            .metrics
            .iter()
            .enumerate()
            .map(|(i, h)| metric_row(i, h))
            .collect();
        let length_histogram = spec.length_metric.and_then(|i| {
            let h = tally.metrics.get(i)?;
            Some((metric_row(i, h), h.bins().collect()))
        });
        Summary {
            model: ctx.model.into(),
            scenario: ctx.scenario.into(),
            scenario_name: ctx.scenario_name.into(),
            description: ctx.description.into(),
            seed: Some(seed),
            trials,
            exact: false,
            outcomes,
            metrics,
            length_histogram,
            trends: spec.trends.clone(),
            stopping_rule: None,
        }
    }

    /// Summarises an exact solution in the same shape.
    pub fn from_exact(
        ctx: &SummaryContext<'_>,
        spec: &OutputSpec,
        solution: &ExactSolution,
    ) -> Self {
        let outcomes = spec
            .outcomes
            .iter()
            .zip(&solution.outcome_probabilities)
            .map(|(label, &p)| OutcomeRow {
                label: label.clone(),
                count: 0,
                rate: p,
                ci95: [p, p],
            })
            .collect();
        let metrics = solution
            .metric_means
            .iter()
            .filter_map(|(i, mean)| {
                let m = spec.metrics.get(*i)?;
                Some(MetricRow {
                    name: m.name.clone(),
                    description: m.description.clone(),
                    mean: *mean,
                    se: 0.0,
                    min: None,
                    median: None,
                    max: None,
                    rate: None,
                })
            })
            .collect();
        Summary {
            model: ctx.model.into(),
            scenario: ctx.scenario.into(),
            scenario_name: ctx.scenario_name.into(),
            description: ctx.description.into(),
            seed: None,
            trials: 0,
            exact: true,
            outcomes,
            metrics,
            length_histogram: None,
            trends: spec.trends.clone(),
            stopping_rule: None,
        }
    }

    /// The JSON object other tools rely on: model, scenario, seed, trials,
    /// outcomes (label, count, rate, ci95) and metrics (name -> mean, se).
    pub fn to_json(&self) -> serde_json::Value {
        let metrics: serde_json::Map<String, serde_json::Value> = self
            .metrics
            .iter()
            .map(|m| {
                (
                    m.name.clone(),
                    {
                        let mut json = serde_json::json!({
                            "mean": finite(m.mean), "se": finite(m.se), "min": m.min, "median": m.median, "max": m.max,
                            "description": m.description,
                        });
                        if let Some(r) = m.rate {
                            json["count"] = r.count.into();
                            json["ci95"] = serde_json::json!(r.ci95);
                        }
                        json
                    },
                )
            })
            .collect();
        serde_json::json!({
            "model": self.model,
            "scenario": self.scenario,
            "seed": self.seed,
            "trials": self.trials,
            "stopping_rule": self.stopping_rule,
            "exact": self.exact,
            "outcomes": self.outcomes,
            "metrics": metrics,
        })
    }

    /// The summary as an aligned plain-text table.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        let how = if self.exact {
            "exact solution".to_string()
        } else {
            format!(
                "{} trials, seed {}",
                group_thousands(self.trials),
                self.seed.unwrap_or(0)
            )
        };
        out.push_str(&format!(
            "{} ({}) - {}\n\n",
            self.scenario_name, self.model, how
        ));
        if let Some(rule) = &self.stopping_rule {
            out.push_str(&format!("{rule}\n\n"));
        }
        let width = self
            .outcomes
            .iter()
            .map(|o| o.label.len())
            .max()
            .unwrap_or(7)
            .max(7);
        if self.exact {
            out.push_str(&format!("{:<width$}  {:>10}\n", "outcome", "probability"));
            for o in &self.outcomes {
                out.push_str(&format!("{:<width$}  {:>10.6}  (exact)\n", o.label, o.rate));
            }
        } else {
            out.push_str(&format!(
                "{:<width$}  {:>12}  {:>8}  {:>19}\n",
                "outcome", "count", "rate", "95% Wilson interval"
            ));
            for o in &self.outcomes {
                out.push_str(&format!(
                    "{:<width$}  {:>12}  {:>8.4}  [{:.4}, {:.4}]\n",
                    o.label,
                    group_thousands(o.count),
                    o.rate,
                    o.ci95[0],
                    o.ci95[1]
                ));
            }
        }
        if !self.metrics.is_empty() {
            let width = self
                .metrics
                .iter()
                .map(|m| m.name.len())
                .max()
                .unwrap_or(6)
                .max(6);
            out.push('\n');
            if self.exact {
                // An exact solution has means only: no spread, no interval.
                out.push_str(&format!("{:<width$}  {:>10}\n", "metric", "mean"));
                for m in &self.metrics {
                    out.push_str(&format!("{:<width$}  {:>10.4}  (exact)\n", m.name, m.mean));
                }
                return out;
            }
            out.push_str(&format!(
                "{:<width$}  {:>10}  {:>9}  {:>6}  {:>6}  {:>6}  {}\n",
                "metric",
                "mean",
                "std.err",
                "min",
                "median",
                "max",
                "95% Wilson interval (0/1 metrics)"
            ));
            let opt = |v: Option<u32>| v.map_or("-".to_string(), |v| v.to_string());
            for m in &self.metrics {
                let interval = m.rate.map_or(String::new(), |r| {
                    format!("[{:.4}, {:.4}]", r.ci95[0], r.ci95[1])
                });
                let line = format!(
                    "{:<width$}  {:>10.4}  {:>9.4}  {:>6}  {:>6}  {:>6}  {}",
                    m.name,
                    m.mean,
                    m.se,
                    opt(m.min),
                    opt(m.median),
                    opt(m.max),
                    interval
                );
                out.push_str(line.trim_end());
                out.push('\n');
            }
        }
        out
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// `1234567` as `1,234,567`.
pub fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use barsoom_engine::{MetricSpec, TrialResult};

    #[test]
    fn a_zero_one_metric_gets_its_rate_and_wilson_interval() {
        let spec = OutputSpec {
            outcomes: vec!["a".into(), "b".into()],
            metrics: vec![
                MetricSpec::new("won_first", ""),
                MetricSpec::new("rounds", ""),
            ],
            length_metric: None,
            trends: Vec::new(),
        };
        let mut tally = Tally::new(2, 2);
        // 10 trials: won_first is 1 in three of them; rounds reach 2.
        for i in 0..10u32 {
            let mut t = TrialResult::default();
            t.metrics[0] = u32::from(i < 3);
            t.metrics[1] = i % 3;
            tally.record(&t);
        }
        let ctx = SummaryContext {
            model: "m",
            scenario: "s.toml",
            scenario_name: "s",
            description: "",
        };
        let summary = Summary::from_tally(&ctx, &spec, &tally, 1);
        let rate = summary.metrics[0].rate.expect("0/1 metric");
        assert_eq!(rate.count, 3);
        // Wilson, 3 of 10: [0.1078, 0.6032].
        assert!((rate.ci95[0] - 0.107_791).abs() < 1e-5, "{:?}", rate.ci95);
        assert!((rate.ci95[1] - 0.603_222).abs() < 1e-5, "{:?}", rate.ci95);
        assert_eq!(summary.metrics[1].rate, None, "a count, not a rate");
        let json = summary.to_json();
        assert_eq!(json["metrics"]["won_first"]["count"], 3);
        assert!(json["metrics"]["rounds"].get("ci95").is_none());
        assert!(summary.to_table().contains("[0.1078, 0.6032]"));
    }
}
