//! `barsoom jetan`: the engine tools of the Jetan model — `perft` (leaf
//! counts of the legal move tree) and `play` (one game, move by move).

use std::io::Write;
use std::time::Instant;

use anyhow::Result;
use clap::{Args, Subcommand};

use super::commands::InputError;
use crate::engine::NoTrace;
use crate::engine::rng::Dice;
use crate::games::jetan::game::{DEFAULT_MAX_PLIES, play_game};
use crate::games::jetan::players::{Player, Workspace};
use crate::games::jetan::position::{Position, Rules, Terminal};
use crate::games::jetan::rules::{Color, PieceValues, RuleFlags};
use crate::report::summary::group_thousands;

/// Arguments of `barsoom jetan`.
#[derive(Debug, Args)]
pub struct JetanArgs {
    /// The tool to run.
    #[command(subcommand)]
    pub command: JetanCommand,
}

/// The Jetan tools.
#[derive(Debug, Subcommand)]
pub enum JetanCommand {
    /// Count the leaves of the legal move tree to a depth (a finished game
    /// is one leaf, or with --terminal chess none).
    Perft(PerftArgs),
    /// Play one game between two players and print it move by move.
    Play(PlayArgs),
    /// Empirical piece values: regress decided games' results on the
    /// material balance by kind at a fixed ply.
    Values(ValuesArgs),
}

/// Rule flags and the start position, shared by the tools.
#[derive(Debug, Args)]
pub struct JetanRules {
    /// Start position in the notation (default: the set-up of the `setup`
    /// flag, Orange to move).
    #[arg(long)]
    pub position: Option<String>,
    /// A rule flag, e.g. --rule steps=up-to (repeatable; default the book).
    #[arg(long = "rule", value_name = "FLAG=VALUE")]
    pub rules: Vec<String>,
}

/// Arguments of `barsoom jetan perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Plies to search.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=8))]
    pub depth: u32,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// What a game finished before the last ply counts: `leaf` (one leaf,
    /// issue 8) or `chess` (nothing: only nodes at the full depth count).
    #[arg(long, default_value = "leaf", value_parser = ["leaf", "chess"])]
    pub terminal: String,
    /// Print the counts as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Position and rule flags.
    #[command(flatten)]
    pub setup: JetanRules,
}

/// Arguments of `barsoom jetan play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Black's player: random, greedy, alphabeta[:NODES] or mcts[:PLAYOUTS].
    #[arg(long)]
    pub black: String,
    /// Orange's player.
    #[arg(long)]
    pub orange: String,
    /// Seed of the game's dice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Who moves first from the set-up (ignored with --position).
    #[arg(long, default_value = "orange", value_parser = ["orange", "black"])]
    pub first: String,
    /// Ply limit.
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES)]
    pub max_plies: u32,
    /// Print the board after every move.
    #[arg(long)]
    pub trace: bool,
    /// Print the game (moves, result, takings) as one JSON object.
    #[arg(long, conflicts_with = "trace")]
    pub json: bool,
    /// Position and rule flags.
    #[command(flatten)]
    pub setup: JetanRules,
}

/// Arguments of `barsoom jetan values`.
#[derive(Debug, Args)]
pub struct ValuesArgs {
    /// Black's player.
    #[arg(long, default_value = "random")]
    pub black: String,
    /// Orange's player.
    #[arg(long, default_value = "random")]
    pub orange: String,
    /// Games to play (game i uses the dice of trial i of the seed).
    #[arg(short = 'n', long, default_value_t = 20_000)]
    pub games: u64,
    /// The ply at which the balance is read (games over before it are left out).
    #[arg(long, default_value_t = 20)]
    pub ply: u32,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Ply limit of each game.
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES)]
    pub max_plies: u32,
    /// Print the fit as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Position and rule flags.
    #[command(flatten)]
    pub setup: JetanRules,
}

/// Runs a `barsoom jetan` tool.
pub fn jetan(args: JetanArgs) -> Result<()> {
    match args.command {
        JetanCommand::Perft(a) => perft(a),
        JetanCommand::Play(a) => play(a),
        JetanCommand::Values(a) => values(a),
    }
}

/// Splits a `--rule FLAG=VALUE` into its flag and value.
pub(super) fn rule_flag(text: &str) -> Result<(&str, &str), InputError> {
    text.split_once('=')
        .map(|(name, value)| (name.trim(), value.trim()))
        .ok_or_else(|| InputError(format!("--rule: expected FLAG=VALUE, found {text:?}")))
}

/// `barsoom run`'s `--rule FLAG=VALUE`s as the overrides they stand for,
/// `rules.FLAG=VALUE`, after checking each flag and that the scenario at
/// `scenario` is a Jetan game.
pub(super) fn rule_overrides(
    scenario: &std::path::Path,
    rules: &[String],
) -> Result<Vec<crate::scenario::Override>, InputError> {
    use crate::games::ScenarioModel;
    use crate::games::jetan::game::JetanGame;
    if rules.is_empty() {
        return Ok(Vec::new());
    }
    if let Some((model, _)) = crate::games::describe(scenario)
        && model != JetanGame::ID
    {
        return Err(InputError(format!(
            "--rule: expected a {} scenario (rule flags are Jetan's), found {model} in {}",
            JetanGame::ID,
            scenario.display()
        )));
    }
    rules
        .iter()
        .map(|text| {
            let (name, value) = rule_flag(text)?;
            RuleFlags::default()
                .set(name, value)
                .map_err(|e| InputError(format!("--rule {text}: {e}")))?;
            crate::scenario::Override::parse(&format!("rules.{name}={value}"))
                .map_err(|e| InputError(format!("--rule {text}: {e}")))
        })
        .collect()
}

/// The rules and start position the flags describe.
fn setup(args: &JetanRules) -> Result<(Rules, Position), InputError> {
    let mut flags = RuleFlags::default();
    for text in &args.rules {
        let (name, value) = rule_flag(text)?;
        flags
            .set(name, value)
            .map_err(|e| InputError(format!("--rule {text}: {e}")))?;
    }
    let rules = Rules::new(flags, PieceValues::default());
    let position = match &args.position {
        None => rules.start_position(),
        Some(text) => Position::parse(text).map_err(|e| InputError(e.to_string()))?,
    };
    Ok((rules, position))
}

fn perft(args: PerftArgs) -> Result<()> {
    let (rules, position) = setup(&args.setup)?;
    let terminal = match args.terminal.as_str() {
        "chess" => Terminal::Chess,
        _ => Terminal::Leaf,
    };
    let mut out = std::io::stdout().lock();
    let started = Instant::now();
    let mut divided = Vec::new();
    let nodes = if args.divide {
        let mut total = 0;
        for (m, count) in rules.divide(&position, args.depth, terminal) {
            if !args.json {
                writeln!(out, "{m}: {count}")?;
            }
            divided.push(serde_json::json!({ "move": m.to_string(), "nodes": count }));
            total += count;
        }
        total
    } else {
        rules.perft(&position, args.depth, terminal)
    };
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let mut json = serde_json::json!({
            "position": position.notation(),
            "rules": rules.flags.to_string(),
            "depth": args.depth,
            "terminal": args.terminal,
            "nodes": nodes,
            "seconds": seconds,
            "nodes_per_second": nodes as f64 / seconds.max(1e-9),
        });
        if args.divide {
            json["divide"] = divided.into();
        }
        writeln!(out, "{json}")?;
        return Ok(());
    }
    writeln!(out, "perft {}: {}", args.depth, nodes)?;
    writeln!(
        out,
        "{} nodes/s ({seconds:.3} s)",
        group_thousands((nodes as f64 / seconds.max(1e-9)) as u64)
    )?;
    Ok(())
}

fn play(args: PlayArgs) -> Result<()> {
    let (rules, mut start) = setup(&args.setup)?;
    if args.setup.position.is_none() && args.first == "black" {
        start = start.with_side(Color::Black);
    }
    let player = |text: &str| Player::parse(text).map_err(|e| InputError(e.to_string()));
    let players = [player(&args.black)?, player(&args.orange)?];
    if args.max_plies == 0 {
        return Err(InputError("--max-plies: expected a positive number".into()).into());
    }
    let mut out = std::io::stdout().lock();
    if !args.json {
        writeln!(
            out,
            "Black: {}  Orange: {}  seed {}  rules: {}",
            players[0], players[1], args.seed, rules.flags
        )?;
        writeln!(out, "{}", start.notation())?;
    }
    if args.trace {
        writeln!(out, "{}", start.diagram())?;
    }
    let mut dice = Dice::for_trial(args.seed, 0);
    let mut work = Workspace::default();
    let mut failure: Option<std::io::Error> = None;
    let mut moves = Vec::new();
    let record = play_game(
        &rules,
        &start,
        players,
        args.max_plies,
        &mut dice,
        &mut work,
        &mut NoTrace,
        |ply, m, after| {
            let mover = after.side().other();
            if args.json {
                moves.push(serde_json::json!({
                    "ply": ply, "side": mover.name(), "move": m.to_string(),
                }));
                return;
            }
            if failure.is_some() {
                return;
            }
            let written = writeln!(out, "{ply:>4}. {:<6} {m}", mover.name()).and_then(|_| {
                if args.trace {
                    writeln!(out, "{}\n{}", after.diagram(), after.notation())
                } else {
                    Ok(())
                }
            });
            if let Err(e) = written {
                failure = Some(e);
            }
        },
    );
    if let Some(e) = failure {
        return Err(e.into());
    }
    let result = match record.end {
        Some(end) => end.describe(),
        None => format!("unfinished after {} plies", record.plies),
    };
    if args.json {
        let json = serde_json::json!({
            "black": players[0].to_string(),
            "orange": players[1].to_string(),
            "seed": args.seed,
            "rules": rules.flags.to_string(),
            "start": start.notation(),
            "moves": moves,
            "result": result,
            "winner": record.end.and_then(|e| e.winner()).map(|c| c.name()),
            "plies": record.plies,
            "takings": { "black": record.takings[0], "orange": record.takings[1] },
        });
        writeln!(out, "{json}")?;
        return Ok(());
    }
    writeln!(
        out,
        "result: {result} ({} plies; takings Black {}, Orange {})",
        record.plies, record.takings[0], record.takings[1]
    )?;
    Ok(())
}

fn values(args: ValuesArgs) -> Result<()> {
    use crate::games::jetan::values::{REGRESSED, balance_by_kind, fit_logistic};
    use rayon::prelude::*;

    let (rules, start) = setup(&args.setup)?;
    let player = |text: &str| Player::parse(text).map_err(|e| InputError(e.to_string()));
    let players = [player(&args.black)?, player(&args.orange)?];
    if args.games == 0 || args.ply == 0 || args.max_plies == 0 {
        return Err(InputError("-n, --ply and --max-plies must be positive".into()).into());
    }
    // One row per decided game that reached the ply: (balance, Black won).
    let rows: Vec<Option<([f64; 6], bool)>> = (0..args.games)
        .into_par_iter()
        .map_init(Workspace::default, |work, i| {
            let mut dice = Dice::for_trial(args.seed, i);
            let mut balance = None;
            let record = play_game(
                &rules,
                &start,
                players,
                args.max_plies,
                &mut dice,
                work,
                &mut NoTrace,
                |ply, _, after| {
                    if ply == args.ply {
                        balance = Some(balance_by_kind(after));
                    }
                },
            );
            let winner = record.end.and_then(|e| e.winner())?;
            Some((balance?, winner == Color::Black))
        })
        .collect();
    let (x, y): (Vec<[f64; 6]>, Vec<bool>) = rows.into_iter().flatten().unzip();
    if x.len() < 50 {
        return Err(InputError(format!(
            "only {} decided games reached ply {}: too few to fit (more games or an earlier --ply)",
            x.len(),
            args.ply
        ))
        .into());
    }
    let fit = fit_logistic(&x, &y).map_err(|e| anyhow::anyhow!("{e}"))?;
    let panthan = fit.coefficients[1];
    // (piece, log-odds, standard error, in Panthans, printed mark)
    let pieces: Vec<(&str, f64, f64, f64, u32)> = REGRESSED
        .iter()
        .enumerate()
        .map(|(k, kind)| {
            let b = fit.coefficients[k + 1];
            let mark = u32::from(rules.values.of(*kind));
            (
                kind.name(),
                b,
                fit.standard_errors[k + 1],
                b / panthan,
                mark,
            )
        })
        .collect();
    let mut out = std::io::stdout().lock();
    if args.json {
        let pieces: Vec<serde_json::Value> = pieces
            .iter()
            .map(|(piece, b, se, panthans, mark)| {
                serde_json::json!({
                    "piece": piece, "log_odds": b, "se": se, "panthans": panthans, "mark": mark,
                })
            })
            .collect();
        let json = serde_json::json!({
            "black": players[0].to_string(),
            "orange": players[1].to_string(),
            "games": args.games,
            "seed": args.seed,
            "ply": args.ply,
            "decided_games_at_ply": x.len(),
            "intercept": { "log_odds": fit.coefficients[0], "se": fit.standard_errors[0] },
            "pieces": pieces,
        });
        writeln!(out, "{json}")?;
        return Ok(());
    }
    writeln!(
        out,
        "Black {} against Orange {}, {} games, seed {}: {} decided games reached ply {}",
        players[0],
        players[1],
        args.games,
        args.seed,
        x.len(),
        args.ply
    )?;
    writeln!(
        out,
        "intercept (Black's edge at equal material): {:+.3} ± {:.3}",
        fit.coefficients[0], fit.standard_errors[0]
    )?;
    writeln!(
        out,
        "{:<8} {:>10} {:>8} {:>10} {:>6}",
        "piece", "log-odds", "se", "panthans", "mark"
    )?;
    for (piece, b, se, panthans, mark) in &pieces {
        writeln!(
            out,
            "{piece:<8} {b:>+10.3} {se:>8.3} {panthans:>10.2} {mark:>6}"
        )?;
    }
    Ok(())
}
