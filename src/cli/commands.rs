//! What each command does.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, anyhow};

use super::{BenchArgs, Cli, Command, ExactArgs, RunArgs, ValidateArgs};
use crate::engine::bench::{Throughput, time_model, time_raw_dice};
use crate::engine::runner::RowSink;
use crate::engine::{BlockRows, RunConfig};
use crate::games::{self, LoadedScenario, MODELS};
use crate::report::charts::write_charts;
use crate::report::files::write_atomic;
use crate::report::frames::{TrialRowsWriter, write_summary_frames};
use crate::report::{Summary, SummaryContext};
use crate::scenario::ScenarioError;

/// Bad input from the user: reported in one line with exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);

/// The exit code for an error: 2 for bad input, 1 otherwise.
pub fn exit_code(error: &anyhow::Error) -> u8 {
    if error.downcast_ref::<ScenarioError>().is_some()
        || error.downcast_ref::<InputError>().is_some()
    {
        2
    } else {
        1
    }
}

/// Runs a parsed command line.
pub fn execute(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Run(args) => run(args),
        Command::Exact(args) => exact(args),
        Command::Validate(args) => validate(args),
        Command::List => list(),
        Command::Bench(args) => bench(args),
    }
}

fn load(path: &Path) -> Result<LoadedScenario> {
    Ok(games::load(path)?)
}

fn context<'a>(scenario: &'a LoadedScenario, path: &'a str) -> SummaryContext<'a> {
    SummaryContext {
        model: &scenario.model_id,
        scenario: path,
        scenario_name: &scenario.name,
    }
}

fn run(args: RunArgs) -> Result<()> {
    let scenario = load(&args.scenario)?;
    let model = scenario.model.as_ref();
    let spec = model.spec();
    if let Some(trial) = args.replay {
        let (result, log) = model.replay(args.seed, trial);
        let mut out = std::io::stdout().lock();
        writeln!(out, "{} trial {trial} of seed {}", scenario.name, args.seed)?;
        if args.trace {
            for event in &log.events {
                writeln!(out, "  [{}] {}", event.case, event.text)?;
            }
        }
        writeln!(
            out,
            "outcome: {}",
            spec.outcomes[usize::from(result.outcome)]
        )?;
        for (i, m) in spec.metrics.iter().enumerate() {
            writeln!(out, "{}: {}", m.name, result.metrics[i])?;
        }
        return Ok(());
    }

    let out_dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("reports").join(&scenario.name));
    std::fs::create_dir_all(&out_dir)
        .with_context(|| format!("cannot create the output folder {}", out_dir.display()))?;
    let threads = args.threads.unwrap_or(0) as usize;
    let config = RunConfig {
        seed: args.seed,
        trials: 0..args.trials,
        threads,
        chunk: args.chunk,
        progress: !args.quiet,
    };

    let mut rows_writer = if args.trials_out {
        Some(TrialRowsWriter::create(
            &out_dir.join("trials.parquet"),
            spec,
        )?)
    } else {
        None
    };
    let started = Instant::now();
    let tally = {
        let mut sink = |block: BlockRows<'_>| match rows_writer.as_mut() {
            Some(w) => w.write_block(block).map_err(|e| e.to_string()),
            None => Ok(()),
        };
        let rows: Option<RowSink<'_>> = if args.trials_out {
            Some(&mut sink)
        } else {
            None
        };
        model.run(&config, rows)?
    };
    let wall = started.elapsed().as_secs_f64();
    let mut written = Vec::new();
    if let Some(w) = rows_writer {
        written.push(w.finish()?.0);
    }

    let path_text = args.scenario.display().to_string();
    let summary = Summary::from_tally(&context(&scenario, &path_text), spec, &tally, args.seed);
    written.extend(write_summary_frames(&summary, &out_dir)?);
    written.extend(
        write_charts(&summary, &out_dir)
            .map_err(|e| anyhow!("drawing charts in {}: {e}", out_dir.display()))?,
    );
    let threads_used = if threads == 0 {
        rayon::current_num_threads()
    } else {
        threads
    };
    let run_info = serde_json::json!({
        "model": scenario.model_id,
        "scenario": path_text,
        "description": scenario.description,
        "seed": args.seed,
        "trials": args.trials,
        "threads": threads_used,
        "chunk": args.chunk,
        "version": env!("CARGO_PKG_VERSION"),
        "wall_seconds": wall,
        "trials_per_second": args.trials as f64 / wall.max(1e-9),
        "outputs": written.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
    });
    let run_json = out_dir.join("run.json");
    written.push(write_atomic(
        &run_json,
        serde_json::to_string_pretty(&run_info)?.as_bytes(),
    )?);

    let mut out = std::io::stdout().lock();
    if args.json {
        let mut json = summary.to_json();
        json["description"] = scenario.description.clone().into();
        json["wall_seconds"] = wall.into();
        writeln!(out, "{json}")?;
    } else {
        write!(out, "{}", summary.to_table())?;
        writeln!(
            out,
            "\n{:.2} s wall, {:.0} trials/s on {threads_used} threads",
            wall,
            args.trials as f64 / wall.max(1e-9)
        )?;
        writeln!(out, "wrote {}", out_dir.display())?;
    }
    Ok(())
}

fn exact(args: ExactArgs) -> Result<()> {
    let scenario = load(&args.scenario)?;
    let solution = scenario.model.exact().map_err(|why| {
        InputError(format!(
            "{}: cannot be solved exactly: {why}",
            args.scenario.display()
        ))
    })?;
    let path_text = args.scenario.display().to_string();
    let summary = Summary::from_exact(
        &context(&scenario, &path_text),
        scenario.model.spec(),
        &solution,
    );
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", summary.to_json())?;
    } else {
        write!(out, "{}", summary.to_table())?;
    }
    Ok(())
}

fn validate(args: ValidateArgs) -> Result<()> {
    let mut failures = Vec::new();
    for path in &args.scenarios {
        match games::load(path) {
            Ok(s) => println!("ok  {} ({}): {}", path.display(), s.model_id, s.description),
            Err(e) => failures.push(e),
        }
    }
    match failures.len() {
        0 => Ok(()),
        1 => Err(failures.remove(0).into()),
        n => {
            for e in &failures[1..] {
                eprintln!("error: {e}");
            }
            Err(InputError(format!(
                "{} (and {} more invalid scenarios above)",
                failures[0],
                n - 1
            ))
            .into())
        }
    }
}

/// The bundled scenario folder: `./scenarios` if present, else the one
/// beside the crate this binary was built from.
pub fn scenarios_dir() -> PathBuf {
    let local = PathBuf::from("scenarios");
    if local.is_dir() {
        local
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios")
    }
}

/// Every scenario file under `dir` (data folders excluded), sorted.
pub fn bundled_scenarios(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "data") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "toml") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn list() -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "models:")?;
    for m in MODELS {
        writeln!(out, "  {:<12} {}", m.id, m.description)?;
    }
    let dir = scenarios_dir();
    writeln!(out, "\nscenarios ({}):", dir.display())?;
    for path in bundled_scenarios(&dir) {
        if let Some((model, description)) = games::describe(&path) {
            writeln!(
                out,
                "  {:<60} {:<10} {}",
                path.display(),
                model,
                description
            )?;
        }
    }
    Ok(())
}

fn bench(args: BenchArgs) -> Result<()> {
    let scenarios = if args.scenarios.is_empty() {
        let dir = scenarios_dir().join("wom");
        vec![
            dir.join("padwar-vs-padwar.toml"),
            dir.join("three-green-warriors-vs-john-carter.toml"),
        ]
    } else {
        args.scenarios.clone()
    };
    let all = rayon::current_num_threads();
    let mut report = Vec::new();
    let mut out = std::io::stdout().lock();
    if !args.json {
        writeln!(
            out,
            "machine: {} logical cores; {} trials per measurement",
            all,
            crate::report::summary::group_thousands(args.trials)
        )?;
        writeln!(
            out,
            "{:<40} {:>7} {:>12} {:>14} {:>12} {:>10}",
            "scenario", "threads", "ns/trial", "trials/s", "raw ns/trial", "vs raw"
        )?;
    }
    for path in &scenarios {
        let scenario = load(path)?;
        let model = scenario.model.as_ref();
        let dice = model.dice_per_trial(1, 100_000);
        let thread_counts = if all > 1 { vec![1, all] } else { vec![1] };
        for threads in thread_counts {
            let measured: Throughput = time_model(model, 1, args.trials, threads)?;
            let raw = time_raw_dice(1, args.trials, dice, threads)?;
            let ratio = measured.ns_per_trial / raw.ns_per_trial;
            if !args.json {
                writeln!(
                    out,
                    "{:<40} {:>7} {:>12.1} {:>14.0} {:>12.1} {:>9.2}x",
                    scenario.name,
                    threads,
                    measured.ns_per_trial,
                    measured.trials_per_second,
                    raw.ns_per_trial,
                    ratio
                )?;
            }
            report.push(serde_json::json!({
                "scenario": path.display().to_string(), "threads": threads, "dice_per_trial": dice,
                "model": measured, "raw_dice": raw, "ratio_to_raw": ratio,
            }));
        }
    }
    if args.json {
        writeln!(out, "{}", serde_json::Value::Array(report))?;
    }
    Ok(())
}
