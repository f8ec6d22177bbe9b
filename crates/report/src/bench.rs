//! `barsoom bench` results as a frame (CSV and Parquet), a chart of
//! throughput against threads, and the reading of a baseline frame for
//! `--compare`.

use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::charts::{ChartError, LineChart, LineSeries, YAxis, write_line_chart};
use super::files::OutputError;
use super::frames::write_frame;
use barsoom_engine::math::regression::Comparison;

/// One measured configuration: a reference scenario at a thread count.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchRow {
    /// Scenario name.
    pub scenario: String,
    /// Model identifier.
    pub model: String,
    /// Worker threads.
    pub threads: usize,
    /// Trials per timing.
    pub trials: u64,
    /// Timings taken.
    pub repeats: usize,
    /// Median trials per second.
    pub trials_per_second: f64,
    /// Slowest and fastest timing, trials per second.
    pub range: (f64, f64),
    /// Relative standard deviation of the timings.
    pub noise: f64,
    /// Throughput relative to one thread.
    pub speedup: f64,
    /// Speed-up per thread (1 is perfect scaling).
    pub efficiency: f64,
    /// Mean dice rolled per trial.
    pub dice_per_trial: f64,
    /// Trials per second of the raw loop rolling as many dice (None when
    /// the model rolls no dice).
    pub raw_trials_per_second: Option<f64>,
    /// Decisions the search players searched per trial (None without one).
    pub decisions_per_trial: Option<f64>,
    /// The machine's ceiling at this thread count: trials per second of as
    /// many independent one-thread processes run at once (None at one
    /// thread).
    pub ceiling: Option<f64>,
    /// The baseline's median and the comparison, with `--compare`.
    pub baseline: Option<(f64, Comparison)>,
}

impl BenchRow {
    /// Nanoseconds of wall time per trial at the median.
    pub fn ns_per_trial(&self) -> f64 {
        1e9 / self.trials_per_second
    }

    /// Search decisions per second at the median throughput.
    pub fn decisions_per_second(&self) -> Option<f64> {
        self.decisions_per_trial.map(|d| d * self.trials_per_second)
    }

    /// Throughput as a share of the machine's ceiling (1: the threads lose
    /// nothing to sharing one process).
    pub fn share_of_ceiling(&self) -> Option<f64> {
        self.ceiling.map(|c| self.trials_per_second / c)
    }

    /// Model time over raw-dice time per trial (how much the rules cost on
    /// top of the dice).
    pub fn ratio_to_raw(&self) -> Option<f64> {
        self.raw_trials_per_second
            .map(|raw| raw / self.trials_per_second)
    }
}

/// The rows as a frame, one row per scenario and thread count.
pub(crate) fn bench_frame(rows: &[BenchRow]) -> PolarsResult<DataFrame> {
    let col_f = |f: &dyn Fn(&BenchRow) -> f64| rows.iter().map(f).collect::<Vec<f64>>();
    let col_o = |f: &dyn Fn(&BenchRow) -> Option<f64>| rows.iter().map(f).collect::<Vec<_>>();
    df!(
        "scenario" => rows.iter().map(|r| r.scenario.as_str()).collect::<Vec<_>>(),
        "model" => rows.iter().map(|r| r.model.as_str()).collect::<Vec<_>>(),
        "threads" => rows.iter().map(|r| r.threads as u64).collect::<Vec<_>>(),
        "trials" => rows.iter().map(|r| r.trials).collect::<Vec<_>>(),
        "repeats" => rows.iter().map(|r| r.repeats as u64).collect::<Vec<_>>(),
        "trials_per_second" => col_f(&|r| r.trials_per_second),
        "ns_per_trial" => col_f(&|r| r.ns_per_trial()),
        "slowest_trials_per_second" => col_f(&|r| r.range.0),
        "fastest_trials_per_second" => col_f(&|r| r.range.1),
        "noise" => col_f(&|r| r.noise),
        "speedup" => col_f(&|r| r.speedup),
        "parallel_efficiency" => col_f(&|r| r.efficiency),
        "ceiling_trials_per_second" => col_o(&|r| r.ceiling),
        "share_of_ceiling" => col_o(&|r| r.share_of_ceiling()),
        "dice_per_trial" => col_f(&|r| r.dice_per_trial),
        "raw_dice_trials_per_second" => col_o(&|r| r.raw_trials_per_second),
        "ratio_to_raw" => col_o(&|r| r.ratio_to_raw()),
        "decisions_per_second" => col_o(&|r| r.decisions_per_second()),
        "baseline_trials_per_second" => col_o(&|r| r.baseline.map(|b| b.0)),
        "change" => col_o(&|r| r.baseline.map(|b| b.1.change)),
        "threshold" => col_o(&|r| r.baseline.map(|b| b.1.threshold)),
        "verdict" => rows.iter().map(|r| r.baseline.map(|b| b.1.verdict.label())).collect::<Vec<_>>(),
    )
}

/// Writes `bench.csv`, `bench.parquet` and the `bench.png`/`.svg` chart.
pub fn write_bench(
    rows: &[BenchRow],
    dir: &Path,
    machine: &str,
) -> Result<Vec<PathBuf>, BenchOutputError> {
    let frame = bench_frame(rows).map_err(|e| OutputError::new(dir, e))?;
    let mut written = write_frame(frame, dir, "bench")?;
    written.extend(write_line_chart(&bench_chart(rows, machine), dir, "bench")?);
    Ok(written)
}

/// Errors writing bench outputs.
#[derive(Debug, thiserror::Error)]
pub enum BenchOutputError {
    /// A frame file.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The chart.
    #[error(transparent)]
    Chart(#[from] ChartError),
}

/// Throughput against threads, one line per scenario, with the spread of
/// the repeated timings as a band.
pub(crate) fn bench_chart(rows: &[BenchRow], machine: &str) -> LineChart {
    let mut series: Vec<LineSeries> = Vec::new();
    for row in rows {
        let point = (
            row.threads as f64,
            row.trials_per_second / 1e6,
            Some((row.range.0 / 1e6, row.range.1 / 1e6)),
        );
        match series.iter_mut().find(|s| s.name == row.scenario) {
            Some(s) => s.points.push(point),
            None => series.push(LineSeries {
                name: row.scenario.clone(),
                points: vec![point],
            }),
        }
    }
    for s in &mut series {
        s.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    LineChart {
        title: "barsoom bench: throughput by threads".into(),
        subtitle: machine.to_string(),
        x_label: "threads".into(),
        y_label: "million trials per second (median)".into(),
        band: "slowest to fastest timing".into(),
        x_names: Vec::new(),
        series,
        y_axis: YAxis::Fit,
        marks: Vec::new(),
    }
}

/// One baseline measurement read back from a `bench.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct BaselineRow {
    /// Scenario name.
    pub scenario: String,
    /// Worker threads.
    pub threads: usize,
    /// Median trials per second.
    pub trials_per_second: f64,
    /// Relative noise of its timings.
    pub noise: f64,
}

/// Reads the rows of a `bench.csv` written by an earlier `barsoom bench`.
pub fn read_baseline(path: &Path) -> Result<Vec<BaselineRow>, String> {
    let frame = CsvReadOptions::default()
        .with_has_header(true)
        .try_into_reader_with_file_path(Some(path.to_path_buf()))
        .and_then(|r| r.finish())
        .map_err(|e| format!("cannot read it as CSV: {e}"))?;
    let column = |name: &str| {
        frame
            .column(name)
            .map_err(|_| format!("expected a bench.csv with a `{name}` column"))
    };
    let as_f64 = |name: &str| -> Result<Vec<Option<f64>>, String> {
        let cast = column(name)?
            .cast(&DataType::Float64)
            .map_err(|e| format!("column `{name}`: {e}"))?;
        let values = cast.f64().map_err(|e| format!("column `{name}`: {e}"))?;
        Ok((0..values.len()).map(|i| values.get(i)).collect())
    };
    let names = column("scenario")?
        .str()
        .map_err(|_| "column `scenario`: expected text".to_string())?;
    let scenarios: Vec<Option<String>> = (0..names.len())
        .map(|i| names.get(i).map(str::to_string))
        .collect();
    let threads = as_f64("threads")?;
    let tps = as_f64("trials_per_second")?;
    let noise = as_f64("noise")?;
    let mut rows = Vec::new();
    for (i, scenario) in scenarios.into_iter().enumerate() {
        let line = i + 2;
        let (Some(scenario), Some(threads), Some(tps)) = (scenario, threads[i], tps[i]) else {
            return Err(format!(
                "line {line}: expected scenario, threads and trials_per_second"
            ));
        };
        if !(threads >= 1.0 && threads.fract() == 0.0 && tps > 0.0) {
            return Err(format!(
                "line {line}: expected threads >= 1 and trials_per_second > 0"
            ));
        }
        rows.push(BaselineRow {
            scenario,
            threads: threads as usize,
            trials_per_second: tps,
            noise: noise[i].unwrap_or(0.0).max(0.0),
        });
    }
    Ok(rows)
}
