//! `barsoom talisman stats`: plays a `talisman.game` scenario's games and
//! prints what one outcome label per trial cannot hold: each character's
//! win rate when in play (Wilson interval), mean rounds to win, deaths per
//! play by cause; wins by seat; and per adventure card, how often it is
//! met, the lives it takes and the characters it kills.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::{Args, Subcommand};

use crate::games::talisman::game::{CAUSE_NAMES, TalismanGame};
use crate::games::talisman::stats::breakdown;
use crate::math::stats::wilson_interval;
use crate::scenario::{Override, with_overrides};

/// Arguments of `barsoom talisman`.
#[derive(Debug, Args)]
pub struct TalismanArgs {
    /// The tool to run.
    #[command(subcommand)]
    pub command: TalismanCommand,
}

/// The Talisman tools.
#[derive(Debug, Subcommand)]
pub enum TalismanCommand {
    /// Per-character and per-card breakdown of a scenario's games.
    Stats(StatsArgs),
}

/// Arguments of `barsoom talisman stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// A `talisman.game` scenario.
    pub scenario: PathBuf,
    /// Games to play.
    #[arg(short = 'n', long, default_value_t = 100_000)]
    pub trials: u64,
    /// Master seed (trial i is the same game as in `barsoom run`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Change a field of the scenario or its data files (repeatable).
    #[arg(long = "set", value_name = "PATH=VALUE", value_parser = Override::parse)]
    pub set: Vec<Override>,
    /// Rows of the card table (most met first).
    #[arg(long, default_value_t = 25)]
    pub cards: usize,
}

/// Runs a `barsoom talisman` tool.
pub fn talisman(args: TalismanArgs) -> Result<()> {
    match args.command {
        TalismanCommand::Stats(a) => stats(a),
    }
}

fn stats(args: StatsArgs) -> Result<()> {
    let (model, _) = with_overrides(&args.set, |loader| {
        TalismanGame::load_with(&args.scenario, loader)
    })?;
    let started = Instant::now();
    let b = breakdown(&model, args.seed, args.trials);
    let seconds = started.elapsed().as_secs_f64();
    let rules = model.rules();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} (talisman.game) - {} games, seed {}, {} with a winner\n",
        args.scenario.display(),
        b.games,
        args.seed,
        b.decided
    )?;
    writeln!(
        out,
        "{:<12} {:>8} {:>8}  {:>9}  {:<17} {:>9} {:>9}  deaths by cause ({})",
        "character",
        "in games",
        "wins",
        "win rate",
        "95% Wilson",
        "rounds",
        "deaths",
        CAUSE_NAMES.join("/")
    )?;
    let mut order: Vec<usize> = (0..rules.characters.len()).collect();
    let rate = |i: usize| {
        let c = &b.characters[i];
        c.wins as f64 / c.games.max(1) as f64
    };
    order.sort_by(|&x, &y| rate(y).total_cmp(&rate(x)).then(x.cmp(&y)));
    for i in order {
        let c = &b.characters[i];
        let (lo, hi) = wilson_interval(c.wins, c.games);
        let per_play = |d: u64| d as f64 / c.plays.max(1) as f64;
        let causes: Vec<String> = c
            .deaths
            .iter()
            .map(|d| format!("{:.3}", per_play(*d)))
            .collect();
        writeln!(
            out,
            "{:<12} {:>8} {:>8}  {:>9.4}  [{lo:.4}, {hi:.4}] {:>9.1} {:>9.3}  {}",
            rules.characters[i].name,
            c.games,
            c.wins,
            rate(i),
            c.win_rounds as f64 / c.wins.max(1) as f64,
            per_play(c.deaths.iter().sum()),
            causes.join("/")
        )?;
    }
    writeln!(
        out,
        "\n(rounds: mean rounds of the games it won; deaths: per time in play)\n"
    )?;
    writeln!(out, "{:<6} {:>8} {:>9}  95% Wilson", "seat", "wins", "rate")?;
    for seat in 0..model.config().players {
        let w = b.seat_wins[seat];
        let (lo, hi) = wilson_interval(w, b.games);
        writeln!(
            out,
            "{:<6} {:>8} {:>9.4}  [{lo:.4}, {hi:.4}]",
            seat + 1,
            w,
            w as f64 / b.games.max(1) as f64
        )?;
    }
    let mut cards: Vec<&(String, _)> = b.cards.iter().collect();
    cards.sort_by(|x, y| y.1.met.cmp(&x.1.met).then(x.0.cmp(&y.0)));
    writeln!(
        out,
        "\n{:<20} {:>10} {:>10} {:>10} {:>10}",
        "card", "met/game", "lives/met", "kills", "kills/met"
    )?;
    for (name, c) in cards.iter().take(args.cards) {
        let met = c.met.max(1) as f64;
        writeln!(
            out,
            "{:<20} {:>10.3} {:>10.4} {:>10} {:>10.5}",
            name,
            c.met as f64 / b.games.max(1) as f64,
            c.lives as f64 / met,
            c.kills,
            c.kills as f64 / met
        )?;
    }
    writeln!(
        out,
        "\n{:.2} s, {:.0} games/s",
        seconds,
        b.games as f64 / seconds.max(1e-9)
    )?;
    Ok(())
}
