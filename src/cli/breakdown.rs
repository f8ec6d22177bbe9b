//! `barsoom breakdown`: plays a scenario's games and prints what one
//! outcome label per trial cannot hold, for the models that have a
//! breakdown (each hero's or character's rates with Wilson intervals, means
//! per game, and how often every card or table entry comes up).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::Args;

use super::{Sampling, parse_count};
use crate::engine::runner::thread_pool;
use crate::games;
use crate::report::breakdown::{breakdown_tables_json, write_breakdown};
use crate::report::summary::group_thousands;
use crate::scenario::Override;

/// Arguments of `barsoom breakdown`.
#[derive(Debug, Args)]
pub struct BreakdownArgs {
    /// The scenario file (TOML) of a model with a breakdown.
    pub scenario: PathBuf,
    /// Change a field of the scenario or its data files (repeatable).
    #[arg(long = "set", value_name = "PATH=VALUE", value_parser = Override::parse)]
    pub set: Vec<Override>,
    /// Games to play (trial i is the same game as in `barsoom run`).
    #[arg(short = 'n', long, default_value = "10000", value_parser = parse_count)]
    pub trials: u64,
    /// Seed and threads.
    #[command(flatten)]
    pub sampling: Sampling,
    /// Rows shown of the ranked tables (cards, table entries), most first;
    /// 0 shows all.
    #[arg(long, default_value_t = 40)]
    pub rows: usize,
    /// Print the tables, every row, as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `barsoom breakdown`.
pub fn breakdown(args: BreakdownArgs) -> Result<()> {
    let pool = thread_pool(args.sampling.threads()?)?;
    let started = Instant::now();
    let (model, table) = pool
        .install(|| games::breakdown(&args.scenario, &args.set, args.sampling.seed, args.trials))?;
    let seconds = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    if args.json {
        let json = serde_json::json!({
            "scenario": args.scenario.display().to_string(),
            "model": model,
            "seed": args.sampling.seed,
            "games": table.games,
            "heading": table.heading,
            "seconds": seconds,
            "tables": breakdown_tables_json(&table),
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "{} ({model}): {} games, seed {}, {}",
        args.scenario.display(),
        group_thousands(table.games),
        args.sampling.seed,
        table.heading
    )?;
    write_breakdown(&mut out, &table, args.rows)?;
    writeln!(
        out,
        "\n{seconds:.2} s, {:.0} games/s",
        table.games as f64 / seconds.max(1e-9)
    )?;
    Ok(())
}
