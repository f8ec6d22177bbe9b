//! Polars frames: the summary table (CSV and Parquet) and the opt-in
//! per-trial rows, streamed to Parquet one block at a time.

use std::fs::File;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::files::{AtomicFile, OutputError};
use super::summary::Summary;
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
