//! `barsoom breakdown`: plays a scenario's games and prints what one
//! outcome label per trial cannot hold, for the models that have a
//! breakdown (each hero's or character's rates with Wilson intervals, means
//! per game, and how often every card or table entry comes up). Like the
//! other commands it shows a progress bar and writes its folder: each table
//! as CSV and Parquet, the headline rates as a chart, and
//! `breakdown.json`, which `barsoom report` reads.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Result, anyhow};
use clap::Args;

use super::AnalysisOptions;
use super::analysis::{chart_title, override_texts, write_info};
use super::commands::load;
use super::parse_count;
use crate::engine::runner::{progress_bar, thread_pool};
use crate::games;
use crate::report::breakdown::{
    breakdown_tables_json, note_skew, write_breakdown, write_breakdown_chart,
    write_breakdown_frames,
};
use crate::report::summary::group_thousands;

/// Arguments of `barsoom breakdown`.
#[derive(Debug, Args)]
pub struct BreakdownArgs {
    /// The scenario file (TOML) of a model with a breakdown.
    pub scenario: PathBuf,
    /// Games to play (trial i is the same game as in `barsoom run`).
    #[arg(short = 'n', long, default_value = "10000", value_parser = parse_count)]
    pub trials: u64,
    /// Rows shown of the ranked tables (cards, table entries), most first;
    /// 0 shows all (the files hold them all).
    #[arg(long, default_value_t = 40)]
    pub rows: usize,
    /// Seed, threads, changes, output folder, JSON.
    #[command(flatten)]
    pub common: AnalysisOptions,
}

/// Runs `barsoom breakdown`.
pub fn breakdown(args: BreakdownArgs) -> Result<()> {
    let common = &args.common;
    let loaded = load(&args.scenario, &common.set)?;
    let out_dir = common.output_dir("breakdown", &args.scenario, &loaded)?;
    let pool = thread_pool(common.sampling.threads()?)?;
    let seed = common.sampling.seed;
    let bar = progress_bar(!common.json, args.trials);
    let started = Instant::now();
    let (model, mut table) =
        pool.install(|| games::breakdown(&args.scenario, &common.set, seed, args.trials, &bar))?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let skew = note_skew(&mut table);

    let mut written = write_breakdown_frames(&table, &out_dir)?;
    written.extend(
        write_breakdown_chart(&table, &out_dir, chart_title(&loaded), seed)
            .map_err(|e| anyhow!("drawing the breakdown chart in {}: {e}", out_dir.display()))?,
    );
    let info = serde_json::json!({
        "kind": "breakdown",
        "scenario": args.scenario.display().to_string(),
        "description": loaded.description,
        "model": model,
        "seed": seed,
        "games": table.games,
        "heading": table.heading,
        "threads": pool.current_num_threads(),
        "seconds": seconds,
        "overrides": override_texts(&common.set),
        "skew": skew.as_ref().map(|s| s.to_json()),
        "tables": breakdown_tables_json(&table),
    });
    let info = write_info(&out_dir, "breakdown.json", info, &mut written)?;

    let mut out = std::io::stdout().lock();
    if common.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&info)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "{} ({model}): {} games, seed {seed}, {}",
        args.scenario.display(),
        group_thousands(table.games),
        table.heading
    )?;
    write_breakdown(&mut out, &table, args.rows)?;
    writeln!(
        out,
        "\n{seconds:.2} s, {:.0} games/s\nwrote {}",
        table.games as f64 / seconds.max(1e-9),
        out_dir.display()
    )?;
    Ok(())
}
