//! What each command does.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, anyhow};

use super::analysis::write_info;
use super::{Cli, Command, ExactArgs, ListArgs, MergeArgs, RunArgs, ValidateArgs};
use crate::engine::runner::{DEFAULT_CHUNK, RowSink};
use crate::engine::shard::{self, RunState, STATE_FORMAT, ShardSpec};
use crate::engine::{BlockRows, RunConfig, RunControl, RunError, Tally};
use crate::games::{self, LoadedScenario, MODELS};
use crate::math::stats::widest_half_width;
use crate::report::charts::write_charts;
use crate::report::files::{
    OutputFolder, WrittenBy, is_plain_name, manifest_names, remove_if_present, verify_manifest,
    write_atomic,
};
use crate::report::frames::{TrialRowsWriter, write_summary_frames};
use crate::report::summary::group_thousands;
use crate::report::{Summary, SummaryContext};
use crate::scenario::{Override, ScenarioError};

/// Bad input from the user: reported in one line with exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);

/// The exit code for an error: 2 for bad input (a thread pool that cannot
/// be started included: the remedy is a smaller `--threads`), 130 for an
/// interrupted run, 1 otherwise.
pub fn exit_code(error: &anyhow::Error) -> u8 {
    if error.downcast_ref::<Interrupted>().is_some() {
        130
    } else if error.downcast_ref::<ScenarioError>().is_some()
        || error.downcast_ref::<InputError>().is_some()
        || error
            .chain()
            .any(|e| matches!(e.downcast_ref::<RunError>(), Some(RunError::Pool { .. })))
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
        Command::List(args) => list(args),
        Command::Bench(args) => super::bench::bench(args),
        Command::Merge(args) => merge(args),
        Command::Sweep(args) => super::analysis::sweep(args),
        Command::Compare(args) => super::analysis::compare(args),
        Command::Tune(args) => super::tune::tune(args),
        Command::Tournament(args) => super::analysis::tournament(args),
        Command::Breakdown(args) => super::breakdown::breakdown(args),
        Command::Report(args) => super::report::report(args),
        Command::Jetan(args) => super::jetan::jetan(args),
        Command::Races(args) => super::races::races(args),
        Command::Completions(args) => super::manual::completions(args),
        Command::Man => super::manual::man(),
        Command::New(args) => super::new::new(args),
        Command::Schema(args) => super::schema::schema(args),
    }
}

/// Loads a scenario with `--set` overrides, keeping its one-line error.
pub(super) fn load(path: &Path, overrides: &[Override]) -> Result<LoadedScenario> {
    Ok(games::load_with(path, overrides)?)
}

fn context<'a>(scenario: &'a LoadedScenario, path: &'a str) -> SummaryContext<'a> {
    SummaryContext {
        model: &scenario.model_id,
        scenario: path,
        scenario_name: &scenario.name,
        description: &scenario.description,
    }
}

fn run(args: RunArgs) -> Result<()> {
    let mut overrides = args.set.clone();
    overrides.extend(super::jetan::rule_overrides(&args.scenario, &args.rules)?);
    let scenario = load(&args.scenario, &overrides)?;
    let model = scenario.model.as_ref();
    let spec = model.spec();
    if let Some(trial) = args.replay {
        let (result, log) = model.replay(args.sampling.seed, trial);
        let mut out = std::io::stdout().lock();
        writeln!(
            out,
            "{} trial {trial} of seed {}",
            scenario.name, args.sampling.seed
        )?;
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

    let out_dir = output_dir(
        Destination {
            out: args.out.as_deref(),
            force: args.force,
        },
        scenario_folder(&args.scenario, &scenario.model_id, ""),
        WrittenBy::new("run", &[&args.scenario]),
    )?;
    let threads = args.sampling.threads()?;
    let shard = args.shard.unwrap_or(ShardSpec::WHOLE);
    // clap's `requires` does not fire when -n is given (it conflicts with
    // --until-ci), so an ignored --max-trials is refused here.
    if args.max_trials.is_some() && args.until_ci.is_none() {
        return Err(InputError(
            "--max-trials applies only with --until-ci W (-n N runs exactly N trials); drop it or add --until-ci".into(),
        )
        .into());
    }
    let max_trials = args.max_trials.unwrap_or(super::DEFAULT_MAX_TRIALS);
    let total_trials = if args.until_ci.is_some() {
        max_trials
    } else {
        args.trials
    };
    // A short sharded run (a few thousand search games) gets blocks small
    // enough that every shard has trials; --until-ci keeps the fixed size
    // its stopping rule is stated in.
    let chunk = args.chunk.unwrap_or_else(|| {
        if args.until_ci.is_some() {
            DEFAULT_CHUNK
        } else {
            shard.block_size(total_trials, DEFAULT_CHUNK)
        }
    });
    let range = shard.range(total_trials, chunk);
    let blank = Tally::new(spec.outcomes.len(), spec.metrics.len());
    let mut state = RunState {
        format: STATE_FORMAT,
        version: env!("CARGO_PKG_VERSION").into(),
        model: scenario.model_id.clone(),
        scenario: args.scenario.display().to_string(),
        scenario_name: scenario.name.clone(),
        description: scenario.description.clone(),
        fingerprint: scenario.fingerprint.clone(),
        seed: args.sampling.seed,
        trials: total_trials,
        chunk,
        shard,
        range: [range.start, range.end],
        outcomes: spec.outcomes.clone(),
        metrics: spec
            .metrics
            .iter()
            .map(|m| [m.name.clone(), m.description.clone()])
            .collect(),
        length_metric: spec.length_metric,
        trends: spec.trends.clone(),
        tally: blank,
        stopping_rule: args.until_ci.map(|w| {
            format!(
                "stopped at the first block of {} trials after which every outcome's 95% interval half-width was at most {w} (at most {} trials)",
                group_thousands(chunk),
                group_thousands(max_trials)
            )
        }),
    };
    let checkpoint_path = out_dir.join(CHECKPOINT_FILE);
    let prior = if args.resume {
        read_checkpoint(&checkpoint_path, &state)?
    } else {
        None
    };
    let resume_from = prior.as_ref().map_or(range.start, |cp| cp.range[1]);
    let config = RunConfig {
        seed: args.sampling.seed,
        trials: resume_from..range.end,
        threads,
        chunk,
        progress: !args.quiet,
    };

    let mut rows_writer = if args.trials_out {
        Some(TrialRowsWriter::create(&out_dir.join(TRIALS_FILE), spec)?)
    } else {
        None
    };
    let stop = interrupt_flag(&checkpoint_path)?;
    let started = Instant::now();
    let outcome = {
        let mut sink = |block: BlockRows<'_>| match rows_writer.as_mut() {
            Some(w) => w.write_block(block).map_err(|e| e.to_string()),
            None => Ok(()),
        };
        let rows: Option<RowSink<'_>> = if args.trials_out {
            Some(&mut sink)
        } else {
            None
        };
        let mut last_checkpoint = Instant::now();
        let mut checkpoint = |tally: &Tally, done: u64| {
            if last_checkpoint.elapsed().as_secs_f64() < args.checkpoint_secs {
                return Ok(());
            }
            last_checkpoint = Instant::now();
            write_checkpoint(&checkpoint_path, &state, prior.as_ref(), tally, done)
                .map(|_| ())
                .map_err(|e| format!("writing the checkpoint: {e}"))
        };
        let prior_counts = prior.as_ref().map(|cp| cp.tally.outcomes.clone());
        let precise_enough = |tally: &Tally| {
            let width = args.until_ci.unwrap_or(0.0);
            let counts: Vec<u64> = match &prior_counts {
                Some(before) => before
                    .iter()
                    .zip(&tally.outcomes)
                    .map(|(a, b)| a + b)
                    .collect(),
                None => tally.outcomes.clone(),
            };
            widest_half_width(&counts) <= width
        };
        let control = RunControl {
            stop: Some(&stop),
            on_wave: Some(&mut checkpoint),
            stop_when: args
                .until_ci
                .is_some()
                .then_some(&precise_enough as &dyn Fn(&Tally) -> bool),
        };
        model.run_controlled(&config, rows, control)?
    };
    let wall = started.elapsed().as_secs_f64();
    let ran = outcome.completed_to - config.trials.start;
    if !outcome.finished(&config) {
        write_checkpoint(
            &checkpoint_path,
            &state,
            prior.as_ref(),
            &outcome.tally,
            outcome.completed_to,
        )?;
        return Err(Interrupted(format!(
            "interrupted: trials {}..{} of {}..{} done; resume with the same command and --resume (checkpoint {})",
            range.start,
            outcome.completed_to,
            range.start,
            range.end,
            checkpoint_path.display()
        ))
        .into());
    }
    let mut written = Vec::new();
    match rows_writer {
        Some(w) => written.push(w.finish()?.0),
        // Rows of an earlier --trials-out run would not match these results.
        None => remove_if_present(&out_dir.join(TRIALS_FILE), "an earlier run's trial rows")?,
    }
    if let Some(cp) = &prior {
        state.tally.merge(&cp.tally);
    }
    state.tally.merge(&outcome.tally);
    state.range[1] = outcome.completed_to;
    if !outcome.rule_met {
        state.stopping_rule = None;
    }
    if args.until_ci.is_some() && !outcome.rule_met {
        eprintln!(
            "note: the interval half-width {} was not reached within {} trials",
            args.until_ci.unwrap_or_default(),
            group_thousands(max_trials)
        );
    }
    let threads_used = if threads == 0 {
        rayon::current_num_threads()
    } else {
        threads
    };
    let timing = serde_json::json!({
        "threads": threads_used,
        "wall_seconds": wall,
        "trials_per_second": ran as f64 / wall.max(1e-9),
        "resumed_from": prior.as_ref().map(|cp| cp.range[1]),
        "description": scenario.description,
        "overrides": overrides.iter().map(|o| format!("{}={}", o.path_text, o.value_text)).collect::<Vec<_>>(),
    });
    let summary = write_report(&state, &out_dir, timing, &mut written)?;
    if checkpoint_path.exists() {
        std::fs::remove_file(&checkpoint_path).with_context(|| {
            format!(
                "cannot remove the finished run's checkpoint {}",
                checkpoint_path.display()
            )
        })?;
    }

    let mut out = std::io::stdout().lock();
    if args.json {
        let mut json = summary.to_json();
        json["description"] = scenario.description.clone().into();
        json["wall_seconds"] = wall.into();
        if shard != ShardSpec::WHOLE {
            json["shard"] = format!("{}/{}", shard.index, shard.count).into();
            json["range"] = serde_json::json!([range.start, range.end]);
        }
        writeln!(out, "{json}")?;
    } else {
        if shard != ShardSpec::WHOLE {
            writeln!(
                out,
                "shard {}/{}: trials {}..{} of {}\n",
                shard.index, shard.count, range.start, range.end, args.trials
            )?;
        }
        write!(out, "{}", summary.to_table())?;
        if let Some(cp) = &prior {
            writeln!(
                out,
                "\nresumed from the checkpoint at trial {} of {}..{}",
                cp.range[1], range.start, range.end
            )?;
        }
        writeln!(
            out,
            "\n{:.2} s wall, {:.0} trials/s on {threads_used} threads",
            wall,
            ran as f64 / wall.max(1e-9)
        )?;
        writeln!(out, "wrote {}", out_dir.display())?;
    }
    Ok(())
}

/// The checkpoint an interrupted run leaves in its output folder.
const CHECKPOINT_FILE: &str = "checkpoint.json";

/// The per-trial rows of `--trials-out`.
const TRIALS_FILE: &str = "trials.parquet";

/// A run stopped by SIGINT or SIGTERM; it left a checkpoint (exit code 130).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Interrupted(pub String);

/// A flag set by the first SIGINT or SIGTERM (the runner stops before its
/// next trial and the run writes its checkpoint). A second one ends the
/// process at once with exit code 130, saying so: the last checkpoint
/// written (atomically) stays as it was.
fn interrupt_flag(checkpoint: &Path) -> Result<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use std::sync::atomic::Ordering;
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])
        .context("cannot install the interrupt handler")?;
    let seen = flag.clone();
    let checkpoint = checkpoint.to_path_buf();
    std::thread::Builder::new()
        .name("interrupts".into())
        .spawn(move || {
            for _ in signals.forever() {
                if seen.swap(true, Ordering::Relaxed) {
                    let kept = if checkpoint.exists() {
                        format!("the last checkpoint {} is kept", checkpoint.display())
                    } else {
                        "no checkpoint had been written yet".into()
                    };
                    eprintln!(
                        "error: interrupted twice: exiting at once without a new checkpoint; {kept}"
                    );
                    std::process::exit(130);
                }
            }
        })
        .context("cannot start the interrupt handler")?;
    Ok(flag)
}

/// Writes `run` with `tally` (the trials `run.range[0]..done`, after those
/// of the checkpoint resumed from, if any) as the checkpoint, atomically.
fn write_checkpoint(
    path: &Path,
    run: &RunState,
    prior: Option<&RunState>,
    tally: &Tally,
    done: u64,
) -> Result<PathBuf> {
    let mut combined = tally.clone();
    if let Some(cp) = prior {
        combined.merge(&cp.tally);
    }
    let checkpoint = RunState {
        range: [run.range[0], done],
        tally: combined,
        ..run.clone()
    };
    Ok(write_atomic(path, checkpoint.to_sealed_json()?.as_bytes())?)
}

/// Reads the checkpoint at `path` and checks that it is a prefix of `run`;
/// `None` (with a note) when there is none.
fn read_checkpoint(path: &Path, run: &RunState) -> Result<Option<RunState>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!(
                "note: no checkpoint at {}; starting from the first trial",
                path.display()
            );
            return Ok(None);
        }
        Err(e) => {
            return Err(InputError(format!(
                "{}: cannot read the checkpoint: {e}",
                path.display()
            ))
            .into());
        }
    };
    let checkpoint = RunState::from_sealed_json(&text)
        .map_err(|e| InputError(format!("{}: {e}", path.display())))?;
    run.check_resumable(&checkpoint).map_err(|e| {
        InputError(format!(
            "{}: cannot resume this run from it: {e}",
            path.display()
        ))
    })?;
    Ok(Some(checkpoint))
}

/// Where a command writes: `--out`, or the default folder under
/// `reports/`, and whether `--force` lets it replace another scenario's
/// results there.
pub(super) struct Destination<'a> {
    pub out: Option<&'a Path>,
    pub force: bool,
}

/// The output folder (`--out`, or `reports/<default>/`), created and locked
/// for this command (`writer`) before any work, so that a folder that
/// cannot be written, that another process is writing or that holds
/// another scenario's results (without `--force`) is refused at once
/// (exit 2). `default` is a relative path of plain names, or the reason
/// there is none.
pub(super) fn output_dir(
    to: Destination<'_>,
    default: Result<PathBuf, String>,
    writer: WrittenBy,
) -> Result<OutputFolder> {
    let dir = match (to.out, default) {
        (Some(dir), _) => dir.to_path_buf(),
        (None, Ok(default)) => PathBuf::from("reports").join(default),
        (None, Err(why)) => return Err(InputError(format!("{why}; give --out")).into()),
    };
    OutputFolder::open(&dir, writer, to.force).map_err(|e| InputError(e.to_string()).into())
}

/// The folder under `reports/` a scenario's results go to by default: its
/// path under the last `scenarios` folder on its path, without the
/// extension (`jc/military/random-vs-random`), so two scenarios with one
/// file name in different rulebooks never share a folder; for a scenario
/// kept elsewhere, `<rulebook>/<file stem>`, the rulebook being the model
/// id's first part (`wom` of `wom.duel`). `suffix` is added to the last
/// name (`-sweep`). An error says which part is not a plain folder name.
pub(super) fn scenario_folder(
    path: &Path,
    model_id: &str,
    suffix: &str,
) -> Result<PathBuf, String> {
    let under_scenarios = |p: &Path| -> Option<Vec<String>> {
        let parts: Vec<String> = p
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let start = parts.iter().rposition(|c| c == "scenarios")? + 1;
        let mut names = parts[start..].to_vec();
        let last = names.last_mut()?;
        *last = Path::new(last.as_str())
            .file_stem()?
            .to_string_lossy()
            .into_owned();
        (names.len() >= 2 && names.iter().all(|n| is_plain_name(n))).then_some(names)
    };
    let names = under_scenarios(path)
        .or_else(|| under_scenarios(&std::fs::canonicalize(path).ok()?))
        .or_else(|| {
            let rulebook = model_id.split('.').next()?.to_string();
            let stem = path.file_stem()?.to_string_lossy().into_owned();
            Some(vec![rulebook, stem])
        })
        .ok_or_else(|| {
            format!(
                "no default output folder can be named after {} (model {model_id:?})",
                path.display()
            )
        })?;
    let mut folder = PathBuf::new();
    let n = names.len();
    for (k, name) in names.into_iter().enumerate() {
        let name = if k + 1 == n {
            format!("{name}{suffix}")
        } else {
            name
        };
        if !is_plain_name(&name) {
            return Err(format!(
                "the default output folder reports/{}/{name:?} is not made of plain folder names inside reports/ (from {} and model {model_id:?})",
                folder.display(),
                path.display()
            ));
        }
        folder.push(name);
    }
    Ok(folder)
}

/// Writes a run's (or merged run's) summary frames, charts, `run.json` and
/// `state.json` into `out_dir`, adding the paths to `written`.
fn write_report(
    state: &RunState,
    out_dir: &OutputFolder,
    extra: serde_json::Value,
    written: &mut Vec<PathBuf>,
) -> Result<Summary> {
    let spec = state.spec();
    let ctx = SummaryContext {
        model: &state.model,
        scenario: &state.scenario,
        scenario_name: &state.scenario_name,
        description: &state.description,
    };
    let mut summary = Summary::from_tally(&ctx, &spec, &state.tally, state.seed);
    summary.stopping_rule = state.stopping_rule.clone();
    written.extend(write_summary_frames(&summary, out_dir)?);
    written.extend(
        write_charts(&summary, out_dir)
            .map_err(|e| anyhow!("drawing charts in {}: {e}", out_dir.display()))?,
    );
    written.push(write_atomic(
        &out_dir.join(STATE_FILE),
        state.to_sealed_json()?.as_bytes(),
    )?);
    let mut run_info = serde_json::json!({
        "model": state.model,
        "scenario": state.scenario,
        "seed": state.seed,
        "trials": state.tally.trials(),
        "chunk": state.chunk,
        "shard": format!("{}/{}", state.shard.index, state.shard.count),
        "range": state.range,
        "fingerprint": state.fingerprint,
        "stopping_rule": state.stopping_rule,
    });
    if let (Some(info), Some(more)) = (run_info.as_object_mut(), extra.as_object()) {
        info.extend(more.clone());
    }
    write_info(out_dir, "run.json", run_info, written)?;
    Ok(summary)
}

/// The mergeable state a run leaves in its output folder.
const STATE_FILE: &str = "state.json";

/// This process's command line, quoted for a POSIX shell, so a report can
/// say exactly how to reproduce it.
pub(super) fn command_line() -> String {
    let quote = |arg: String| {
        let plain = !arg.is_empty()
            && arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-./=:,+@%".contains(c));
        if plain {
            arg
        } else {
            format!("'{}'", arg.replace('\'', "'\\''"))
        }
    };
    let mut args = std::env::args();
    let program = args.next().map(|_| "barsoom".to_string());
    program
        .into_iter()
        .chain(args.map(quote))
        .collect::<Vec<_>>()
        .join(" ")
}

fn merge(args: MergeArgs) -> Result<()> {
    let mut states: Vec<RunState> = Vec::new();
    for path in &args.states {
        let state = read_state(path)?;
        if let Some(first) = states.first() {
            first.same_run(&state).map_err(|e| {
                InputError(format!(
                    "{}: cannot merge it with {}: {e}",
                    path.display(),
                    args.states[0].display()
                ))
            })?;
        }
        states.push(state);
    }
    let merged = shard::merge(states).map_err(|e| InputError(format!("cannot merge: {e}")))?;
    let scenario = Path::new(&merged.scenario);
    let default = scenario_folder(scenario, &merged.model, "")
        .map_err(|why| format!("{}: {why}", args.states[0].display()));
    let out_dir = output_dir(
        Destination {
            out: args.out.as_deref(),
            force: args.force,
        },
        default,
        WrittenBy::new("merge", &[scenario]),
    )?;
    let mut written = Vec::new();
    let merged_from = serde_json::json!({ "merged_from": args.states.iter().map(|p| p.display().to_string()).collect::<Vec<_>>() });
    let summary = write_report(&merged, &out_dir, merged_from, &mut written)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", summary.to_json())?;
    } else {
        write!(out, "{}", summary.to_table())?;
        writeln!(
            out,
            "\nmerged {} shards; wrote {}",
            args.states.len(),
            out_dir.display()
        )?;
    }
    Ok(())
}

/// Reads a shard's state file: its checksum and invariants checked, and,
/// where its folder's manifest names it, the manifest's hash too.
fn read_state(path: &Path) -> Result<RunState> {
    let bad = |e: &dyn std::fmt::Display| InputError(format!("{}: {e}", path.display()));
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    if manifest_names(dir, name).map_err(|e| InputError(e.to_string()))? {
        verify_manifest(dir, Some(name)).map_err(|e| InputError(e.to_string()))?;
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| bad(&format!("cannot read the state file: {e}")))?;
    RunState::from_sealed_json(&text).map_err(|e| bad(&e).into())
}

fn exact(args: ExactArgs) -> Result<()> {
    let scenario = load(&args.scenario, &args.set)?;
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
    let mut valid = Vec::new();
    for path in &args.scenarios {
        match games::load_with(path, &args.set) {
            Ok(s) => {
                if !args.json {
                    writeln!(
                        std::io::stdout(),
                        "ok  {} ({}): {}",
                        path.display(),
                        s.model_id,
                        s.description
                    )?;
                }
                valid.push(serde_json::json!({
                    "scenario": path.display().to_string(),
                    "model": s.model_id,
                    "description": s.description,
                }));
            }
            Err(e) => failures.push(e),
        }
    }
    if args.json {
        let invalid: Vec<serde_json::Value> = failures
            .iter()
            .map(|e| serde_json::json!({ "error": e.to_string() }))
            .collect();
        writeln!(
            std::io::stdout(),
            "{}",
            serde_json::json!({ "valid": valid, "invalid": invalid })
        )?;
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
        barsoom_engine::scenario::bundled_scenarios_dir()
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

fn list(args: ListArgs) -> Result<()> {
    let dir = scenarios_dir();
    let scenarios: Vec<(PathBuf, String, String)> = bundled_scenarios(&dir)
        .into_iter()
        .filter_map(|path| {
            let (model, description) = games::describe(&path)?;
            Some((path, model, description))
        })
        .collect();
    let mut out = std::io::stdout().lock();
    if args.json {
        let json = serde_json::json!({
            "models": MODELS.iter().map(|m| serde_json::json!({"id": m.id, "description": m.description})).collect::<Vec<_>>(),
            "scenarios": scenarios.iter().map(|(path, model, description)| serde_json::json!({"scenario": path.display().to_string(), "model": model, "description": description})).collect::<Vec<_>>(),
        });
        writeln!(out, "{json}")?;
        return Ok(());
    }
    writeln!(out, "models:")?;
    for m in MODELS {
        writeln!(out, "  {:<12} {}", m.id, m.description)?;
    }
    writeln!(out, "\nscenarios ({}):", dir.display())?;
    for (path, model, description) in &scenarios {
        writeln!(
            out,
            "  {:<60} {:<10} {}",
            path.display(),
            model,
            description
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_pool_that_cannot_start_is_bad_input() {
        // A pool whose threads cannot be spawned (as when the system is out
        // of threads or memory for their stacks).
        let refused = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .spawn_handler(|_| Err(std::io::Error::other("no more threads")))
            .build();
        let Err(source) = refused else {
            panic!("the pool should not start");
        };
        let error = anyhow::Error::from(RunError::Pool { threads: 2, source });
        assert_eq!(exit_code(&error), 2);
        assert!(error.to_string().contains("--threads"), "{error}");
        assert_eq!(exit_code(&error.context("running the scenario")), 2);
    }
}
