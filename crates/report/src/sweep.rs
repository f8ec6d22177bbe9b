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
        let integers: Option<Vec<i64>> = values.iter().map(|v| v.as_integer()).collect();
        let numbers: Option<Vec<f64>> = values.iter().map(|v| value_number(v)).collect();
        columns.push(match (integers, numbers) {
            (Some(i), _) => Column::new(path.as_str().into(), i),
            (None, Some(n)) => Column::new(path.as_str().into(), n),
            (None, None) => Column::new(
                path.as_str().into(),
                values.iter().map(|v| value_text(v)).collect::<Vec<_>>(),
            ),
        });
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

/// Draws the sweep's charts into `dir`: `sweep.png/.svg` (rates against
/// the varied value, with interval bands) for one `--vary`, one
/// `sweep-heatmap-<k>.png/.svg` per outcome for two; none for more.
/// `title` and `subtitle` say what was swept (the scenario's description,
/// the trials).
pub fn write_sweep_charts(
    paths: &[String],
    results: &[SettingResult],
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
                    results.iter().map(|r| value_text(&r.values[0])).collect(),
                ),
            };
            let chart = LineChart {
                title: title.to_string(),
                subtitle: subtitle.to_string(),
                x_label: paths[0].clone(),
                y_label: "rate".into(),
                band: "95% Wilson interval".into(),
                x_names,
                series: outcome_series(results, &xs),
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
            for (i, outcome) in first.summary.outcomes.iter().enumerate().take(MAX_HEATMAPS) {
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
                    x_ticks: xs.iter().map(|v| value_text(v)).collect(),
                    y_ticks: ys.iter().map(|v| value_text(v)).collect(),
                    cells,
                };
                written.extend(write_heatmap(&heatmap, dir, &format!("sweep-heatmap-{i}"))?);
            }
            Ok(written)
        }
        _ => Ok(Vec::new()),
    }
}
