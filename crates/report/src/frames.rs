//! Polars frames: the summary table (CSV and Parquet), the analysis
//! commands' tables (compare, the tune trace, the tournament's head-to-head
//! record and ratings, an exact battle matrix) and the opt-in per-trial
//! rows, streamed to Parquet one block at a time. The CLI hands these plain
//! data and never builds a frame itself.

use std::fs::File;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::analysis::paired::{MeanDifference, RateDifference};
use super::analysis::ratings::Rating;
use super::analysis::tournament::Record;
use super::analysis::tune::{Target, TraceRow};
use super::files::{AtomicFile, OutputError};
use super::summary::Summary;
use barsoom_engine::math::stats::wilson_interval;
use barsoom_engine::{BlockRows, OutputSpec};

/// The summary as a frame: one row per outcome (kind "outcome": count,
/// rate, 95% interval) then one per metric (kind "metric": mean, standard
/// error, min, median, max; and for a 0/1 metric also its count of ones,
/// rate and 95% interval).
pub(crate) fn summary_frame(summary: &Summary) -> PolarsResult<DataFrame> {
    let mut kind = Vec::new();
    let mut name = Vec::new();
    let mut count: Vec<Option<u64>> = Vec::new();
    let mut rate: Vec<Option<f64>> = Vec::new();
    let mut ci_low: Vec<Option<f64>> = Vec::new();
    let mut ci_high: Vec<Option<f64>> = Vec::new();
    let mut mean: Vec<Option<f64>> = Vec::new();
    let mut se: Vec<Option<f64>> = Vec::new();
    let mut min: Vec<Option<u32>> = Vec::new();
    let mut median: Vec<Option<u32>> = Vec::new();
    let mut max: Vec<Option<u32>> = Vec::new();
    for o in &summary.outcomes {
        kind.push("outcome");
        name.push(o.label.as_str());
        count.push((!summary.exact).then_some(o.count));
        rate.push(Some(o.rate));
        ci_low.push(Some(o.ci95[0]));
        ci_high.push(Some(o.ci95[1]));
        mean.push(None);
        se.push(None);
        min.push(None);
        median.push(None);
        max.push(None);
    }
    for m in &summary.metrics {
        kind.push("metric");
        name.push(m.name.as_str());
        // A 0/1 metric is also a rate: its count of ones and interval.
        count.push(m.rate.map(|r| r.count));
        rate.push(m.rate.map(|_| m.mean));
        ci_low.push(m.rate.map(|r| r.ci95[0]));
        ci_high.push(m.rate.map(|r| r.ci95[1]));
        mean.push(m.mean.is_finite().then_some(m.mean));
        se.push(m.se.is_finite().then_some(m.se));
        min.push(m.min);
        median.push(m.median);
        max.push(m.max);
    }
    df!(
        "kind" => kind,
        "name" => name,
        "count" => count,
        "rate" => rate,
        "ci95_low" => ci_low,
        "ci95_high" => ci_high,
        "mean" => mean,
        "se" => se,
        "min" => min,
        "median" => median,
        "max" => max,
    )
}

/// Writes the summary frame as `summary.csv` and `summary.parquet` in `dir`.
pub fn write_summary_frames(summary: &Summary, dir: &Path) -> Result<Vec<PathBuf>, OutputError> {
    let frame = summary_frame(summary).map_err(|e| OutputError::new(dir, e))?;
    write_frame(frame, dir, "summary")
}

/// `barsoom compare` as a frame: one row per outcome (both runs' rates, the
/// change, its 95% interval, paired and unpaired standard errors, and the
/// trials an unpaired comparison would need), then one per metric (the
/// change in its mean, its interval and standard error).
pub fn compare_frame(
    spec: &OutputSpec,
    rates: &[RateDifference],
    metrics: &[MeanDifference],
) -> PolarsResult<DataFrame> {
    let mut kind = Vec::new();
    let mut name = Vec::new();
    let mut first = Vec::new();
    let mut second = Vec::new();
    let mut difference = Vec::new();
    let (mut lo, mut hi, mut se, mut unpaired_se, mut needed) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (label, r) in spec.outcomes.iter().zip(rates) {
        kind.push("outcome");
        name.push(label.as_str());
        first.push(Some(r.first));
        second.push(Some(r.second));
        difference.push(r.difference);
        lo.push(r.ci95[0]);
        hi.push(r.ci95[1]);
        se.push(r.paired_se);
        unpaired_se.push(Some(r.unpaired_se));
        needed.push(
            r.unpaired_trials_needed
                .is_finite()
                .then_some(r.unpaired_trials_needed),
        );
    }
    for (m, d) in spec.metrics.iter().zip(metrics) {
        kind.push("metric");
        name.push(m.name.as_str());
        first.push(None);
        second.push(None);
        difference.push(d.difference);
        lo.push(d.ci95[0]);
        hi.push(d.ci95[1]);
        se.push(d.se);
        unpaired_se.push(None);
        needed.push(None);
    }
    df!(
        "kind" => kind,
        "name" => name,
        "first" => first,
        "second" => second,
        "difference" => difference,
        "ci95_low" => lo,
        "ci95_high" => hi,
        "paired_se" => se,
        "unpaired_se" => unpaired_se,
        "unpaired_trials_needed" => needed,
    )
}

/// `barsoom tune`'s trace as a frame: one row per setting per round (round,
/// setting index, the setting's value of each varied path as text, its
/// trials so far, its estimate of each target, its loss, whether it was
/// kept). `paths` names the varied parameters and `values[i][k]` is trace
/// row `i`'s value of `paths[k]`.
pub fn tune_frame(
    paths: &[String],
    values: &[Vec<toml::Value>],
    targets: &[Target],
    trace: &[TraceRow],
) -> PolarsResult<DataFrame> {
    let mut columns: Vec<Column> = vec![
        Column::new(
            "round".into(),
            trace.iter().map(|t| t.round as u64).collect::<Vec<_>>(),
        ),
        Column::new(
            "setting".into(),
            trace.iter().map(|t| t.setting as u64).collect::<Vec<_>>(),
        ),
    ];
    for (k, p) in paths.iter().enumerate() {
        let column: Vec<&toml::Value> = values.iter().map(|row| &row[k]).collect();
        columns.push(super::sweep::value_column(p, &column));
    }
    columns.push(Column::new(
        "trials".into(),
        trace.iter().map(|t| t.trials).collect::<Vec<_>>(),
    ));
    for (k, target) in targets.iter().enumerate() {
        columns.push(Column::new(
            format!("{} estimate", target.name).into(),
            trace.iter().map(|t| t.estimates[k]).collect::<Vec<_>>(),
        ));
    }
    columns.push(Column::new(
        "loss".into(),
        trace.iter().map(|t| t.loss).collect::<Vec<_>>(),
    ));
    columns.push(Column::new(
        "kept".into(),
        trace.iter().map(|t| t.kept).collect::<Vec<_>>(),
    ));
    DataFrame::new_infer_height(columns)
}

/// `barsoom tournament`'s head-to-head record as a frame: one row per
/// ordered pair of entrants (games, wins, games without a winner, losses,
/// win rate with its 95% Wilson interval, and score per game, a draw
/// counting half).
pub fn head_to_head_frame(record: &Record) -> PolarsResult<DataFrame> {
    let n = record.entrants.len();
    let entrants = &record.entrants;
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
        .collect();
    let win_ci: Vec<(f64, f64)> = pairs
        .iter()
        .map(|&(i, j)| wilson_interval(record.wins[i][j], record.games[i][j]))
        .collect();
    df!(
        "entrant" => pairs.iter().map(|&(i, _)| entrants[i].as_str()).collect::<Vec<_>>(),
        "opponent" => pairs.iter().map(|&(_, j)| entrants[j].as_str()).collect::<Vec<_>>(),
        "games" => pairs.iter().map(|&(i, j)| record.games[i][j]).collect::<Vec<_>>(),
        "wins" => pairs.iter().map(|&(i, j)| record.wins[i][j]).collect::<Vec<_>>(),
        "no_winner" => pairs.iter().map(|&(i, j)| record.no_winner[i][j]).collect::<Vec<_>>(),
        "losses" => pairs.iter().map(|&(i, j)| record.wins[j][i]).collect::<Vec<_>>(),
        "win_rate" => pairs.iter().map(|&(i, j)| record.wins[i][j] as f64 / record.games[i][j].max(1) as f64).collect::<Vec<_>>(),
        "win_ci95_low" => win_ci.iter().map(|c| c.0).collect::<Vec<_>>(),
        "win_ci95_high" => win_ci.iter().map(|c| c.1).collect::<Vec<_>>(),
        "score" => pairs.iter().map(|&(i, j)| record.score(i, j) / record.games[i][j].max(1) as f64).collect::<Vec<_>>(),
    )
}

/// `barsoom tournament`'s ratings as a frame: one row per entrant (its
/// Bradley–Terry strength, standard error and 95% interval, the same on the
/// Elo scale, and its score per game over all opponents). `score[i][j]` and
/// `games[i][j]` are the matrices the ratings were fitted to.
pub fn ratings_frame(
    entrants: &[String],
    ratings: &[Rating],
    score: &[Vec<f64>],
    games: &[Vec<f64>],
) -> PolarsResult<DataFrame> {
    let n = entrants.len();
    df!(
        "entrant" => entrants.iter().map(String::as_str).collect::<Vec<_>>(),
        "theta" => ratings.iter().map(|r| r.theta).collect::<Vec<_>>(),
        "se" => ratings.iter().map(|r| r.se).collect::<Vec<_>>(),
        "ci95_low" => ratings.iter().map(|r| r.ci95[0]).collect::<Vec<_>>(),
        "ci95_high" => ratings.iter().map(|r| r.ci95[1]).collect::<Vec<_>>(),
        "elo" => ratings.iter().map(|r| r.elo).collect::<Vec<_>>(),
        "score" => (0..n).map(|i| (0..n).map(|j| score[i][j]).sum::<f64>() / (0..n).map(|j| games[i][j]).sum::<f64>().max(1.0)).collect::<Vec<_>>(),
    )
}

/// One row of an exact battle matrix: who attacks whom, from which
/// situations, and the exact chances of each end.
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixRow {
    /// The attacking kind.
    pub attacker: String,
    /// The defending kind.
    pub defender: String,
    /// The attacker's situation (terrain and bonuses) label.
    pub attacker_situation: String,
    /// The defender's situation label.
    pub defender_situation: String,
    /// Chance the attacker wins.
    pub attacker_wins: f64,
    /// Chance the defender wins.
    pub defender_wins: f64,
    /// Chance both are destroyed.
    pub both_destroyed: f64,
}

/// An exact battle matrix (`barsoom races matrix`) as a frame, one row per
/// [`MatrixRow`] in order.
pub fn matrix_frame(rows: &[MatrixRow]) -> PolarsResult<DataFrame> {
    let text = |f: fn(&MatrixRow) -> &String| -> Vec<&str> {
        rows.iter().map(|r| f(r).as_str()).collect()
    };
    let number = |f: fn(&MatrixRow) -> f64| -> Vec<f64> { rows.iter().map(f).collect() };
    DataFrame::new_infer_height(vec![
        Column::new("attacker".into(), text(|r| &r.attacker)),
        Column::new("defender".into(), text(|r| &r.defender)),
        Column::new("attacker_situation".into(), text(|r| &r.attacker_situation)),
        Column::new("defender_situation".into(), text(|r| &r.defender_situation)),
        Column::new("attacker_wins".into(), number(|r| r.attacker_wins)),
        Column::new("defender_wins".into(), number(|r| r.defender_wins)),
        Column::new("both_destroyed".into(), number(|r| r.both_destroyed)),
    ])
}

/// Writes `frame` as `<stem>.csv` and `<stem>.parquet` in `dir`, atomically.
pub fn write_frame(
    mut frame: DataFrame,
    dir: &Path,
    stem: &str,
) -> Result<Vec<PathBuf>, OutputError> {
    let csv_path = dir.join(format!("{stem}.csv"));
    let mut csv = AtomicFile::create(&csv_path)?;
    CsvWriter::new(csv.file())
        .finish(&mut frame)
        .map_err(|e| OutputError::new(&csv_path, e))?;
    let parquet_path = dir.join(format!("{stem}.parquet"));
    let mut parquet = AtomicFile::create(&parquet_path)?;
    ParquetWriter::new(parquet.file())
        .finish(&mut frame)
        .map_err(|e| OutputError::new(&parquet_path, e))?;
    Ok(vec![csv.commit()?, parquet.commit()?])
}

/// Streams per-trial rows (trial index, outcome label, one column per
/// metric) to a Parquet file, one row group per block.
pub struct TrialRowsWriter {
    file: AtomicFile,
    writer: polars::io::parquet::write::BatchedWriter<File>,
    outcome_labels: Vec<String>,
    metric_names: Vec<String>,
    rows: u64,
}

impl TrialRowsWriter {
    /// Starts `path` for a model with `spec`.
    pub fn create(path: &Path, spec: &OutputSpec) -> Result<Self, OutputError> {
        let file = AtomicFile::create(path)?;
        let mut schema = Schema::default();
        schema.insert("trial".into(), DataType::UInt64);
        schema.insert("outcome".into(), DataType::String);
        for m in &spec.metrics {
            schema.insert(m.name.as_str().into(), DataType::UInt32);
        }
        let writer = ParquetWriter::new(file.handle()?)
            .batched(&schema)
            .map_err(|e| OutputError::new(path, e))?;
        Ok(TrialRowsWriter {
            file,
            writer,
            outcome_labels: spec.outcomes.clone(),
            metric_names: spec.metrics.iter().map(|m| m.name.clone()).collect(),
            rows: 0,
        })
    }

    /// Appends one block of trials.
    pub fn write_block(&mut self, block: BlockRows<'_>) -> Result<(), OutputError> {
        let n = block.results.len();
        let trial: Vec<u64> = (block.first..block.first + n as u64).collect();
        let outcome: Vec<&str> = block
            .results
            .iter()
            .map(|r| self.outcome_labels[usize::from(r.outcome)].as_str())
            .collect();
        let mut columns = vec![
            Column::new("trial".into(), trial),
            Column::new("outcome".into(), outcome),
        ];
        for (i, name) in self.metric_names.iter().enumerate() {
            let values: Vec<u32> = block.results.iter().map(|r| r.metrics[i]).collect();
            columns.push(Column::new(name.as_str().into(), values));
        }
        let frame =
            DataFrame::new(n, columns).map_err(|e| OutputError::new(self.file.temp_path(), e))?;
        self.writer
            .write_batch(&frame)
            .map_err(|e| OutputError::new(self.file.temp_path(), e))?;
        self.rows += n as u64;
        Ok(())
    }

    /// Finishes the Parquet footer and renames the file into place.
    pub fn finish(self) -> Result<(PathBuf, u64), OutputError> {
        self.writer
            .finish()
            .map_err(|e| OutputError::new(self.file.temp_path(), e))?;
        let rows = self.rows;
        Ok((self.file.commit()?, rows))
    }
}
