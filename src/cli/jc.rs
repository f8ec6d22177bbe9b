//! `barsoom jc strategic-stats`: plays a `jc.strategic` scenario's games and
//! prints what one outcome label per trial cannot hold: each hero's champion,
//! glory, love, both and out-of-play rates (Wilson intervals) with his mean
//! duels, imprisonments and the like per game; and how often every table
//! entry fires per game (outdoor and city encounters, aftermath tables,
//! acquisition cards, information rows, hand of fate, prison companions,
//! arena duels, villain and final destination charts).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::{Args, Subcommand};

use crate::games::jc::strategic::JcStrategic;
use crate::games::jc::strategic::stats::{SUM_NAMES, breakdown};
use crate::math::stats::wilson_interval;
use crate::scenario::{Override, with_overrides};

/// Arguments of `barsoom jc`.
#[derive(Debug, Args)]
pub struct JcArgs {
    /// The tool to run.
    #[command(subcommand)]
    pub command: JcCommand,
}

/// The John Carter tools.
#[derive(Debug, Subcommand)]
pub enum JcCommand {
    /// Per-hero and per-table-entry breakdown of a `jc.strategic` scenario's games.
    StrategicStats(StatsArgs),
}

/// Arguments of `barsoom jc strategic-stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// A `jc.strategic` scenario.
    pub scenario: PathBuf,
    /// Games to play.
    #[arg(short = 'n', long, default_value_t = 10_000)]
    pub trials: u64,
    /// Master seed (trial i is the same game as in `barsoom run`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Change a field of the scenario or its data files (repeatable).
    #[arg(long = "set", value_name = "PATH=VALUE", value_parser = Override::parse)]
    pub set: Vec<Override>,
    /// Rows of the table-entry listing (most fired first; 0: all).
    #[arg(long, default_value_t = 40)]
    pub entries: usize,
}

/// Runs a `barsoom jc` tool.
pub fn jc(args: JcArgs) -> Result<()> {
    match args.command {
        JcCommand::StrategicStats(a) => strategic_stats(a),
    }
}

fn strategic_stats(args: StatsArgs) -> Result<()> {
    let (model, _) = with_overrides(&args.set, |loader| {
        JcStrategic::load_with(&args.scenario, loader)
    })?;
    let started = Instant::now();
    let b = breakdown(&model, args.seed, args.trials);
    let seconds = started.elapsed().as_secs_f64();
    let data = model.data();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} (jc.strategic) - {} games, seed {}, {} finished, {:.1} Strategic Turns a game\n",
        args.scenario.display(),
        b.games,
        args.seed,
        b.finished,
        b.turns as f64 / b.games.max(1) as f64
    )?;
    writeln!(
        out,
        "{:<16} {:>7}  {:<22} {:<22} {:<22} {:<22} {:<22}",
        "hero", "games", "champion", "glory", "love", "both", "out of play"
    )?;
    let cell = |k: u64, n: u64| {
        let (lo, hi) = wilson_interval(k, n);
        format!("{:.3} [{lo:.3},{hi:.3}]", k as f64 / n.max(1) as f64)
    };
    for (i, c) in b.heroes.iter().enumerate() {
        if c.games == 0 {
            continue;
        }
        let name = &data.roster.characters[usize::from(data.heroes[i].character)].name;
        writeln!(
            out,
            "{:<16} {:>7}  {:<22} {:<22} {:<22} {:<22} {:<22}",
            name,
            c.games,
            cell(c.champion, c.games),
            cell(c.glory, c.games),
            cell(c.love, c.games),
            cell(c.both, c.games),
            cell(c.out, c.games)
        )?;
    }
    writeln!(out, "\nper game in play:")?;
    write!(out, "{:<16}", "hero")?;
    for n in SUM_NAMES {
        write!(out, " {n:>10}")?;
    }
    writeln!(out)?;
    for (i, c) in b.heroes.iter().enumerate() {
        if c.games == 0 {
            continue;
        }
        let name = &data.roster.characters[usize::from(data.heroes[i].character)].name;
        write!(out, "{name:<16}")?;
        for s in c.sums {
            write!(out, " {:>10.3}", s as f64 / c.games as f64)?;
        }
        writeln!(out)?;
    }
    let mut order: Vec<usize> = (0..b.fired.len()).collect();
    order.sort_by(|&x, &y| b.fired[y].cmp(&b.fired[x]).then(x.cmp(&y)));
    let rows = if args.entries == 0 {
        order.len()
    } else {
        args.entries.min(order.len())
    };
    writeln!(
        out,
        "\n{:<44} {:>12} {:>12}",
        "table entry", "fired", "per game"
    )?;
    for &e in &order[..rows] {
        writeln!(
            out,
            "{:<44} {:>12} {:>12.4}",
            data.entries.names[e],
            b.fired[e],
            b.fired[e] as f64 / b.games.max(1) as f64
        )?;
    }
    let never = b.fired.iter().filter(|f| **f == 0).count();
    writeln!(
        out,
        "\n{} of {} entries never fired; {} Player-Turns hit the city-game bound",
        never,
        b.fired.len(),
        b.city_bound_hits
    )?;
    writeln!(out, "{} duels compiled and cached", model.duels().len())?;
    writeln!(
        out,
        "{:.2} s, {:.0} games/s",
        seconds,
        b.games as f64 / seconds.max(1e-9)
    )?;
    Ok(())
}
