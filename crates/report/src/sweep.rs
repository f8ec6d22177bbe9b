//! `barsoom sweep` results: one frame with a row per setting (the varied
//! values, every outcome rate with its 95% interval, every metric's mean and
//! standard error) and its charts: rates against the one varied parameter
//! with interval bands, or a heatmap per outcome for two.

use std::path::{Path, PathBuf};

use polars::prelude::*;
use toml::Value;

use super::charts::{
    ChartError, Heatmap, LineChart, LineSeries, PALETTE, YAxis, write_heatmap, write_line_chart,
};
use super::summary::Summary;
use crate::analysis::sweep::{value_number, value_text};
use crate::analysis::tune::Measure;
use barsoom_engine::math::stats::wilson_interval;

/// Heatmaps drawn at most (one per outcome).
const MAX_HEATMAPS: usize = 8;

/// One setting of a sweep and its results.
#[derive(Debug, Clone)]
pub struct SettingResult {
    /// The varied values, one per `--vary`.
    pub values: Vec<Value>,
    /// The summary of its run.
    pub summary: Summary,
}

/// Outcome labels shared by every setting, or why a sweep cannot be framed.
fn check_shapes(results: &[SettingResult]) -> Result<(), String> {
    let Some(first) = results.first() else {
        return Err("a sweep needs at least one setting".into());
    };
    for r in results {
        if r.summary.outcomes.len() != first.summary.outcomes.len()
            || r.summary.metrics.len() != first.summary.metrics.len()
        {
            return Err(
                "settings give different numbers of outcomes or metrics; vary them in separate sweeps"
                    .into(),
            );
        }
    }
    Ok(())
}

/// A column of one varied field's values, typed: whole numbers as
/// integers, other numbers as floats, anything else as text (shared by the
/// sweep frame and the tune trace, so both store a setting alike).
pub fn value_column(name: &str, values: &[&Value]) -> Column {
    let integers: Option<Vec<i64>> = values.iter().map(|v| v.as_integer()).collect();
    let numbers: Option<Vec<f64>> = values.iter().map(|v| value_number(v)).collect();
    match (integers, numbers) {
        (Some(i), _) => Column::new(name.into(), i),
        (None, Some(n)) => Column::new(name.into(), n),
        (None, None) => Column::new(
            name.into(),
            values.iter().map(|v| value_text(v)).collect::<Vec<_>>(),
        ),
    }
}

/// The sweep frame. Outcome columns are named after the first setting's
/// labels (`<label> rate`, `<label> ci95_low`, `<label> ci95_high`); when a
/// setting renames outcomes (e.g. a varied character), its own labels are
/// in the `outcome_labels` column.
pub fn sweep_frame(paths: &[String], results: &[SettingResult]) -> Result<DataFrame, String> {
    check_shapes(results)?;
    let first = &results[0].summary;
    let mut columns: Vec<Column> = Vec::new();
    for (k, path) in paths.iter().enumerate() {
        let values: Vec<&Value> = results.iter().map(|r| &r.values[k]).collect();
        columns.push(value_column(path, &values));
    }
    columns.push(Column::new(
        "trials".into(),
        results.iter().map(|r| r.summary.trials).collect::<Vec<_>>(),
    ));
    for (i, outcome) in first.outcomes.iter().enumerate() {
        let pick = |f: &dyn Fn(&super::OutcomeRow) -> f64| {
            results
                .iter()
                .map(|r| f(&r.summary.outcomes[i]))
                .collect::<Vec<_>>()
        };
        columns.push(Column::new(
            format!("{} rate", outcome.label).into(),
            pick(&|o| o.rate),
        ));
        columns.push(Column::new(
            format!("{} ci95_low", outcome.label).into(),
            pick(&|o| o.ci95[0]),
        ));
        columns.push(Column::new(
            format!("{} ci95_high", outcome.label).into(),
            pick(&|o| o.ci95[1]),
        ));
    }
    for (i, metric) in first.metrics.iter().enumerate() {
        let pick = |f: &dyn Fn(&super::MetricRow) -> f64| {
            results
                .iter()
                .map(|r| f(&r.summary.metrics[i]))
                .collect::<Vec<_>>()
        };
        columns.push(Column::new(
            format!("{} mean", metric.name).into(),
            pick(&|m| m.mean),
        ));
        columns.push(Column::new(
            format!("{} se", metric.name).into(),
            pick(&|m| m.se),
        ));
    }
    let labels = |s: &Summary| {
        s.outcomes
            .iter()
            .map(|o| o.label.as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    };
    if results.iter().any(|r| labels(&r.summary) != labels(first)) {
        columns.push(Column::new(
            "outcome_labels".into(),
            results
                .iter()
                .map(|r| labels(&r.summary))
                .collect::<Vec<_>>(),
        ));
    }
    DataFrame::new_infer_height(columns).map_err(|e| e.to_string())
}

/// The sweep in long ("tidy") form: one row per setting and outcome, then
/// per setting and metric. Columns: the varied values (typed as in
/// [`sweep_frame`]), `trials`, `kind` (`outcome` or `metric`), `name` (the
/// setting's own outcome label, or the metric's name), `count`, `rate`,
/// `ci95_low`, `ci95_high` (outcomes: the 95% Wilson interval; metrics:
/// mean ± 1.96 standard errors), `mean`, `se` (null where they do not
/// apply).
pub fn sweep_long_frame(paths: &[String], results: &[SettingResult]) -> Result<DataFrame, String> {
    check_shapes(results)?;
    // (setting index, outcome k or metric k) in row order.
    let mut rows: Vec<(usize, Option<usize>, Option<usize>)> = Vec::new();
    for (s, r) in results.iter().enumerate() {
        rows.extend((0..r.summary.outcomes.len()).map(|k| (s, Some(k), None)));
        rows.extend((0..r.summary.metrics.len()).map(|k| (s, None, Some(k))));
    }
    let mut columns: Vec<Column> = Vec::new();
    for (k, path) in paths.iter().enumerate() {
        let values: Vec<&Value> = rows
            .iter()
            .map(|&(s, _, _)| &results[s].values[k])
            .collect();
        columns.push(value_column(path, &values));
    }
    let summary = |s: usize| &results[s].summary;
    let outcome = |s: usize, k: Option<usize>| k.map(|k| &summary(s).outcomes[k]);
    let metric = |s: usize, k: Option<usize>| k.map(|k| &summary(s).metrics[k]);
    let floats = |f: &dyn Fn(usize, Option<usize>, Option<usize>) -> Option<f64>| {
        rows.iter().map(|&(s, o, m)| f(s, o, m)).collect::<Vec<_>>()
    };
    columns.push(Column::new(
        "trials".into(),
        rows.iter()
            .map(|&(s, _, _)| summary(s).trials)
            .collect::<Vec<_>>(),
    ));
    columns.push(Column::new(
        "kind".into(),
        rows.iter()
            .map(|&(_, o, _)| if o.is_some() { "outcome" } else { "metric" })
            .collect::<Vec<_>>(),
    ));
    columns.push(Column::new(
        "name".into(),
        rows.iter()
            .map(|&(s, o, m)| match (outcome(s, o), metric(s, m)) {
                (Some(o), _) => o.label.clone(),
                (None, Some(m)) => m.name.clone(),
                (None, None) => String::new(),
            })
            .collect::<Vec<_>>(),
    ));
    columns.push(Column::new(
        "count".into(),
        rows.iter()
            .map(|&(s, o, _)| outcome(s, o).map(|o| o.count))
            .collect::<Vec<_>>(),
    ));
    columns.push(Column::new(
        "rate".into(),
        floats(&|s, o, _| outcome(s, o).map(|o| o.rate)),
    ));
    columns.push(Column::new(
        "ci95_low".into(),
        floats(&|s, o, m| {
            outcome(s, o)
                .map(|o| o.ci95[0])
                .or_else(|| metric(s, m).map(|m| m.mean - 1.96 * m.se))
        }),
    ));
    columns.push(Column::new(
        "ci95_high".into(),
        floats(&|s, o, m| {
            outcome(s, o)
                .map(|o| o.ci95[1])
                .or_else(|| metric(s, m).map(|m| m.mean + 1.96 * m.se))
        }),
    ));
    columns.push(Column::new(
        "mean".into(),
        floats(&|s, _, m| metric(s, m).map(|m| m.mean)),
    ));
    columns.push(Column::new(
        "se".into(),
        floats(&|s, _, m| metric(s, m).map(|m| m.se)),
    ));
    DataFrame::new_infer_height(columns).map_err(|e| e.to_string())
}

/// The outcome series of a sweep over one parameter: every outcome when
/// the palette has room for them all, else the [`PALETTE`] length less one
/// with the highest peak rate (in the model's order) and an "other" series
/// for the rest, whose rate is their sum (outcomes exclude each other)
/// with its own Wilson interval.
fn outcome_series(results: &[SettingResult], xs: &[f64]) -> Vec<LineSeries> {
    let Some(first) = results.first() else {
        return Vec::new();
    };
    let labels = &first.summary.outcomes;
    let series_of = |name: String, counted: &dyn Fn(&Summary) -> u64| LineSeries {
        name,
        points: results
            .iter()
            .zip(xs)
            .map(|(r, &x)| {
                let trials = r.summary.trials;
                let count = counted(&r.summary);
                let rate = if trials > 0 {
                    count as f64 / trials as f64
                } else {
                    f64::NAN
                };
                (x, rate, Some(wilson_interval(count, trials)))
            })
            .collect(),
    };
    let mut kept: Vec<usize> = (0..labels.len()).collect();
    if labels.len() > PALETTE.len() {
        let peak = |k: usize| {
            results
                .iter()
                .map(|r| r.summary.outcomes[k].rate)
                .filter(|v| v.is_finite())
                .fold(0.0f64, f64::max)
        };
        kept.sort_by(|&a, &b| peak(b).total_cmp(&peak(a)).then(a.cmp(&b)));
        kept.truncate(PALETTE.len() - 1);
        kept.sort_unstable();
    }
    let mut series: Vec<LineSeries> = kept
        .iter()
        .map(|&k| series_of(labels[k].label.clone(), &|s: &Summary| s.outcomes[k].count))
        .collect();
    let rest: Vec<usize> = (0..labels.len()).filter(|k| !kept.contains(k)).collect();
    if !rest.is_empty() {
        series.push(series_of(
            format!("other {} outcomes (summed)", rest.len()),
            &|s: &Summary| rest.iter().map(|&k| s.outcomes[k].count).sum(),
        ));
    }
    series
}

/// The series of the measures `shown` (`--show`), in its order: each
/// outcome's rate under its label, and each indicator metric's (one that
/// is 0 or 1 in every trial, e.g. `seat1_won`) as a rate under its name
/// (as `--show` and the table name it; descriptions are too long for a
/// legend), both with their Wilson intervals. Other metrics are not rates
/// and are left off the chart.
fn shown_series(results: &[SettingResult], xs: &[f64], shown: &[Measure]) -> Vec<LineSeries> {
    let Some(first) = results.first() else {
        return Vec::new();
    };
    shown
        .iter()
        .filter_map(|&measure| {
            let name = match measure {
                Measure::Rate(k) => first.summary.outcomes.get(k)?.label.clone(),
                Measure::Mean(k) => first.summary.metrics.get(k)?.name.clone(),
            };
            let points = results
                .iter()
                .zip(xs)
                .map(|(r, &x)| {
                    let (rate, [lo, hi]) = rate_of(&r.summary, measure)?;
                    Some((x, rate, Some((lo, hi))))
                })
                .collect::<Option<Vec<_>>>()?;
            Some(LineSeries { name, points })
        })
        .collect()
}

/// The rate of `measure` in `summary` with its Wilson interval: an
/// outcome's, or an indicator metric's; `None` for any other metric.
fn rate_of(summary: &Summary, measure: Measure) -> Option<(f64, [f64; 2])> {
    match measure {
        Measure::Rate(k) => summary.outcomes.get(k).map(|o| (o.rate, o.ci95)),
        Measure::Mean(k) => {
            let m = summary.metrics.get(k)?;
            m.rate.map(|rate| (m.mean, rate.ci95))
        }
    }
}

/// A varied value as an axis name: a list whose entries are all equal
/// (e.g. every seat's player) as `4 × search:50`, anything else as
/// [`value_text`].
fn axis_name(value: &Value) -> String {
    match value {
        Value::Array(items) if items.len() > 1 && items.iter().all(|v| *v == items[0]) => {
            format!("{} × {}", items.len(), value_text(&items[0]))
        }
        other => value_text(other),
    }
}

/// Draws the sweep's charts into `dir`: `sweep.png/.svg` (rates against
/// the varied value, with interval bands) for one `--vary`, one
/// `sweep-heatmap-<k>.png/.svg` per outcome for two; none for more.
/// `shown` (`--show`) picks what they draw: its outcomes and indicator
/// metrics (for heatmaps, its outcomes); when it picks none of those, the
/// line chart draws every outcome and the heatmaps the first outcomes.
/// `title` and `subtitle` say what was swept (the scenario's description,
/// the trials).
pub fn write_sweep_charts(
    paths: &[String],
    results: &[SettingResult],
    shown: &[Measure],
    dir: &Path,
    title: &str,
    subtitle: &str,
) -> Result<Vec<PathBuf>, ChartError> {
    let Some(first) = results.first() else {
        return Ok(Vec::new());
    };
    match paths.len() {
        1 => {
            let numeric: Option<Vec<f64>> =
                results.iter().map(|r| value_number(&r.values[0])).collect();
            let (xs, x_names) = match numeric {
                Some(xs) => (xs, Vec::new()),
                None => (
                    (1..=results.len()).map(|i| i as f64).collect(),
                    results.iter().map(|r| axis_name(&r.values[0])).collect(),
                ),
            };
            let picked = shown_series(results, &xs, shown);
            let series = if picked.is_empty() {
                outcome_series(results, &xs)
            } else {
                picked
            };
            let chart = LineChart {
                title: title.to_string(),
                subtitle: subtitle.to_string(),
                x_label: paths[0].clone(),
                y_label: "rate".into(),
                band: "95% Wilson interval".into(),
                x_names,
                series,
                y_axis: YAxis::Rate,
                marks: Vec::new(),
            };
            write_line_chart(&chart, dir, "sweep")
        }
        2 => {
            let distinct = |k: usize| {
                let mut seen: Vec<&Value> = Vec::new();
                for r in results {
                    if !seen.contains(&&r.values[k]) {
                        seen.push(&r.values[k]);
                    }
                }
                seen
            };
            let (xs, ys) = (distinct(0), distinct(1));
            let mut written = Vec::new();
            let shown_outcomes: Vec<usize> = shown
                .iter()
                .filter_map(|m| match *m {
                    Measure::Rate(k) if k < first.summary.outcomes.len() => Some(k),
                    _ => None,
                })
                .collect();
            let drawn: Vec<usize> = if shown_outcomes.is_empty() {
                (0..first.summary.outcomes.len()).collect()
            } else {
                shown_outcomes
            };
            for &i in drawn.iter().take(MAX_HEATMAPS) {
                let outcome = &first.summary.outcomes[i];
                let mut cells = vec![vec![f64::NAN; xs.len()]; ys.len()];
                for r in results {
                    let x = xs.iter().position(|v| **v == r.values[0]);
                    let y = ys.iter().position(|v| **v == r.values[1]);
                    if let (Some(x), Some(y)) = (x, y) {
                        cells[y][x] = r.summary.outcomes[i].rate;
                    }
                }
                let heatmap = Heatmap {
                    title: format!("{}: rate by {} and {}", outcome.label, paths[0], paths[1]),
                    subtitle: format!("{title} · {subtitle}"),
                    value_label: format!("rate of {}", outcome.label),
                    x_label: paths[0].clone(),
                    y_label: paths[1].clone(),
                    x_ticks: xs.iter().map(|v| axis_name(v)).collect(),
                    y_ticks: ys.iter().map(|v| axis_name(v)).collect(),
                    cells,
                };
                written.extend(write_heatmap(&heatmap, dir, &format!("sweep-heatmap-{i}"))?);
            }
            Ok(written)
        }
        _ => Ok(Vec::new()),
    }
}
