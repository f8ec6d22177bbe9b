//! `barsoom bench`: throughput of each model's reference scenarios at each
//! thread count, parallel efficiency, the ratio to a raw dice loop, a frame
//! and a chart, and `--compare` against a baseline frame.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Result, anyhow};

use super::BenchArgs;
use super::analysis::write_info;
use super::commands::{Destination, InputError, load, output_dir, scenarios_dir};
use crate::engine::bench::{time_raw_dice, time_sized};
use crate::engine::search::decisions_searched;
use crate::games::{BenchReference, MODELS, bench_references};
use crate::math::regression::{Verdict, compare};
use crate::report::bench::{BaselineRow, BenchRow, read_baseline, write_bench};
use crate::report::files::WrittenBy;
use crate::report::summary::group_thousands;
use crate::scenario::Override;

/// Trials per timing for a scenario file named on the command line.
const DEFAULT_TRIALS: u64 = 2_000_000;

/// Runs `barsoom bench`.
pub fn bench(args: BenchArgs) -> Result<()> {
    let targets = resolve_targets(&args)?;
    let baseline = match &args.compare {
        Some(path) => {
            Some(read_baseline(path).map_err(|e| InputError(format!("{}: {e}", path.display())))?)
        }
        None => None,
    };
    let all = rayon::current_num_threads();
    let mut thread_counts: Vec<usize> = if args.threads.is_empty() {
        vec![1, all]
    } else {
        args.threads
            .iter()
            .map(|&t| super::check_threads(t))
            .collect::<Result<_, _>>()?
    };
    thread_counts.push(1);
    thread_counts.sort_unstable();
    thread_counts.dedup();
    let repeats = args.repeats as usize;
    let machine = machine_name(all);

    let mut out = std::io::stdout().lock();
    if !args.json {
        writeln!(
            out,
            "machine: {machine}; {repeats} timings per row (median shown), each at least {} s",
            args.min_time
        )?;
        writeln!(
            out,
            "{:<38} {:>7} {:>12} {:>10} {:>8} {:>8} {:>10} {:>10} {:>10} {:>12}",
            "scenario",
            "threads",
            "trials/s",
            "per game",
            "noise",
            "speedup",
            "efficiency",
            "of ceiling",
            "x raw dice",
            "decisions/s"
        )?;
    }
    let mut rows = Vec::new();
    for target in &targets {
        let trials = &target.trials;
        let scenario = load(&target.path, &target.overrides)?;
        let label = target.label(&scenario.name);
        let model = scenario.model.as_ref();
        let dice = model.dice_per_trial(1, 20_000.min(*trials));
        let mut single = f64::NAN;
        let mut single_trials = *trials;
        for &threads in &thread_counts {
            let searched = decisions_searched();
            let timed = time_sized(model, 1, *trials, threads, repeats, args.min_time)?;
            let decisions_per_trial = (decisions_searched() - searched) as f64
                / (timed.trials as f64 * timed.samples.len() as f64);
            let median = timed.median();
            if threads == 1 {
                single = median;
                single_trials = timed.trials;
            }
            let ceiling = if timed.threads > 1 {
                Some(ceiling(target, single_trials, timed.threads)?)
            } else {
                None
            };
            // With a search player the live game's dice are a sliver of
            // the playouts' work: no raw-dice ratio.
            let raw = if dice > 0.0 && decisions_per_trial == 0.0 {
                Some(time_raw_dice(1, timed.trials, dice, threads)?.trials_per_second)
            } else {
                None
            };
            let slowest = timed.samples.iter().copied().fold(f64::INFINITY, f64::min);
            let fastest = timed.samples.iter().copied().fold(0.0, f64::max);
            let speedup = median / single;
            let mut row = BenchRow {
                scenario: label.clone(),
                model: scenario.model_id.clone(),
                threads: timed.threads,
                trials: timed.trials,
                repeats,
                trials_per_second: median,
                range: (slowest, fastest),
                noise: timed.noise(),
                speedup,
                efficiency: speedup / timed.threads as f64,
                dice_per_trial: dice,
                raw_trials_per_second: raw,
                decisions_per_trial: (decisions_per_trial > 0.0).then_some(decisions_per_trial),
                ceiling,
                baseline: None,
            };
            if let Some(base) = baseline.as_ref().and_then(|b| find(b, &row)) {
                let comparison = compare(base.trials_per_second, base.noise, median, row.noise);
                row.baseline = Some((base.trials_per_second, comparison));
            }
            if !args.json {
                print_row(&mut out, &row)?;
            }
            rows.push(row);
        }
    }
    let dir = output_dir(
        Destination {
            out: args.out.as_deref(),
            force: args.force,
        },
        Ok("bench".into()),
        WrittenBy::new("bench", &[]),
    )?;
    let mut written = write_bench(&rows, &dir, &machine)?;
    let info = serde_json::json!({
        "kind": "bench",
        "machine": machine,
        "threads": thread_counts,
        "repeats": repeats,
        "min_time": args.min_time,
        "scenarios": targets.iter().map(|t| serde_json::json!({"scenario": t.path.display().to_string(), "set": t.set, "trials": t.trials})).collect::<Vec<_>>(),
        "compare": args.compare.as_ref().map(|p| p.display().to_string()),
    });
    write_info(&dir, "bench.json", info, &mut written)?;
    if args.json {
        let json: Vec<serde_json::Value> = rows.iter().map(row_json).collect();
        writeln!(
            out,
            "{}",
            serde_json::json!({ "machine": machine, "rows": json })
        )?;
    } else {
        writeln!(
            out,
            "\nper game: wall time per trial at that thread count (1 / trials/s); of ceiling: trials/s over that of as many one-thread processes run at once (the machine's own limit: efficiency can be low where this is near 100%); x raw dice: the model's time over a bare loop rolling as many dice (lower is faster; 1.00x would be the dice alone); noise: relative spread of the timings; decisions/s: decisions the search players searched, per second (- without one)"
        )?;
        let noisy = rows.iter().filter(|r| r.noise > NOISY).count();
        if noisy > 0 {
            writeln!(
                out,
                "warning: {noisy} row(s) marked ! have noise above {:.0}%: too noisy to trust; rerun with a longer --min-time or more --repeats on a quieter machine",
                NOISY * 100.0
            )?;
        }
        writeln!(
            out,
            "wrote {}",
            written
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )?;
    }
    if baseline.is_some() {
        let regressions: Vec<String> = rows
            .iter()
            .filter(|r| {
                r.baseline
                    .is_some_and(|b| b.1.verdict == Verdict::Regression)
            })
            .map(|r| format!("{} at {} threads", r.scenario, r.threads))
            .collect();
        if !regressions.is_empty() {
            return Err(anyhow!(
                "{} regression(s) beyond the measured noise: {}",
                regressions.len(),
                regressions.join(", ")
            ));
        }
    }
    Ok(())
}

/// A scenario to time: its file, overrides and trials per timing.
struct Target {
    path: PathBuf,
    set: Vec<String>,
    overrides: Vec<Override>,
    trials: u64,
}

impl Target {
    fn file(path: PathBuf) -> Self {
        Target {
            path,
            set: Vec::new(),
            overrides: Vec::new(),
            trials: DEFAULT_TRIALS,
        }
    }

    fn reference(r: &BenchReference) -> Result<Self> {
        let overrides = r
            .set
            .iter()
            .map(|s| {
                Override::parse(s)
                    .map_err(|e| InputError(format!("scenarios/data/bench.toml: set: {e}")))
            })
            .collect::<Result<_, _>>()?;
        Ok(Target {
            path: r.scenario.clone(),
            set: r.set.clone(),
            overrides,
            trials: r.trials,
        })
    }

    /// The row's name: the scenario's, or for a reference with overrides
    /// its path under `scenarios/` (two rulebooks may both have a
    /// `search-vs-greedy`) with the values it sets
    /// (`talisman/search-vs-sensible search:1000`).
    fn label(&self, name: &str) -> String {
        let values: Vec<&str> = self
            .set
            .iter()
            .filter_map(|s| s.split_once('=').map(|(_, v)| v))
            .collect();
        if values.is_empty() {
            return name.to_string();
        }
        let scenarios = scenarios_dir();
        let path = self
            .path
            .strip_prefix(&scenarios)
            .unwrap_or(&self.path)
            .with_extension("");
        format!("{} {}", path.display(), values.join(" "))
    }
}

/// The scenarios to time and their trial counts.
fn resolve_targets(args: &BenchArgs) -> Result<Vec<Target>> {
    let references = bench_references(&scenarios_dir())?;
    let plain = || references.iter().filter(|r| !r.search);
    let mut targets = Vec::new();
    if args.targets.is_empty() {
        for r in plain() {
            targets.push(Target::reference(r)?);
        }
    }
    for target in &args.targets {
        if target == "search" {
            for r in references.iter().filter(|r| r.search) {
                targets.push(Target::reference(r)?);
            }
        } else if MODELS.iter().any(|m| m.id == target) {
            let mine: Vec<_> = plain().filter(|r| &r.model == target).collect();
            if mine.is_empty() {
                return Err(InputError(format!(
                    "model {target} has no reference scenario in scenarios/data/bench.toml"
                ))
                .into());
            }
            for r in mine {
                targets.push(Target::reference(r)?);
            }
        } else if PathBuf::from(target).is_file() {
            targets.push(Target::file(PathBuf::from(target)));
        } else {
            let ids: Vec<&str> = MODELS.iter().map(|m| m.id).collect();
            return Err(InputError(format!(
                "bench: {target:?} is neither a model ({}), `search`, nor a scenario file",
                ids.join(", ")
            ))
            .into());
        }
    }
    if let Some(n) = args.trials {
        for target in &mut targets {
            target.trials = n;
        }
    }
    Ok(targets)
}

fn find<'a>(baseline: &'a [BaselineRow], row: &BenchRow) -> Option<&'a BaselineRow> {
    baseline
        .iter()
        .find(|b| b.scenario == row.scenario && b.threads == row.threads)
}

/// Run-to-run noise (relative standard deviation of a row's timings) above
/// which the row is marked `!`: too noisy to trust.
const NOISY: f64 = 0.10;

/// Trials per second, with decimals below 100 (a search game may take
/// seconds): `1,386,046`, `58.1`, `0.31`.
fn trials_per_second_text(rate: f64) -> String {
    if rate >= 100.0 {
        group_thousands(rate.round() as u64)
    } else if rate >= 1.0 {
        format!("{rate:.1}")
    } else {
        format!("{rate:.2}")
    }
}

/// A duration in the unit that reads best: `503 ns`, `12.4 µs`,
/// `503.54 ms`, `2.10 s`.
fn duration_text(seconds: f64) -> String {
    if !seconds.is_finite() {
        "-".into()
    } else if seconds < 1e-6 {
        format!("{:.0} ns", seconds * 1e9)
    } else if seconds < 1e-3 {
        format!("{:.1} µs", seconds * 1e6)
    } else if seconds < 1.0 {
        format!("{:.2} ms", seconds * 1e3)
    } else {
        format!("{seconds:.2} s")
    }
}

fn print_row(out: &mut impl Write, row: &BenchRow) -> Result<()> {
    let ratio = row
        .ratio_to_raw()
        .map_or_else(|| "-".to_string(), |r| format!("{r:.2}x"));
    write!(
        out,
        "{:<38} {:>7} {:>12} {:>10} {:>6.1}%{} {:>7.2}x {:>10.2} {:>10} {:>10} {:>12}",
        row.scenario,
        row.threads,
        trials_per_second_text(row.trials_per_second),
        duration_text(row.ns_per_trial() * 1e-9),
        row.noise * 100.0,
        if row.noise > NOISY { "!" } else { " " },
        row.speedup,
        row.efficiency,
        row.share_of_ceiling()
            .map_or_else(|| "-".to_string(), |c| format!("{:.0}%", c * 100.0)),
        ratio,
        row.decisions_per_second()
            .map_or_else(|| "-".to_string(), |d| format!("{d:.1}"))
    )?;
    if let Some((base, c)) = row.baseline {
        write!(
            out,
            "  vs {}: {:+.1}% (noise threshold {:.1}%) {}",
            group_thousands(base.round() as u64),
            c.change * 100.0,
            c.threshold * 100.0,
            c.verdict.label()
        )?;
    }
    writeln!(out)?;
    Ok(())
}

fn row_json(row: &BenchRow) -> serde_json::Value {
    serde_json::json!({
        "scenario": row.scenario,
        "model": row.model,
        "threads": row.threads,
        "trials": row.trials,
        "trials_per_second": row.trials_per_second,
        "ns_per_trial": row.ns_per_trial(),
        "noise": row.noise,
        "speedup": row.speedup,
        "parallel_efficiency": row.efficiency,
        "ceiling_trials_per_second": row.ceiling,
        "share_of_ceiling": row.share_of_ceiling(),
        "dice_per_trial": row.dice_per_trial,
        "ratio_to_raw": row.ratio_to_raw(),
        "decisions_per_trial": row.decisions_per_trial,
        "decisions_per_second": row.decisions_per_second(),
        "verdict": row.baseline.map(|b| b.1.verdict.label()),
        "change": row.baseline.map(|b| b.1.change),
    })
}

/// The first argument that makes `barsoom` one of `bench`'s worker
/// processes instead of reading a command.
pub const WORKER: &str = "bench-worker";

/// Arguments of `barsoom bench-worker`: one process of the machine-ceiling
/// timing, started by `bench` itself (not a command for people: it is not
/// in the command line's definition).
#[derive(Debug, clap::Parser)]
#[command(name = "barsoom bench-worker")]
pub struct WorkerArgs {
    /// The scenario file.
    scenario: PathBuf,
    /// The reference's overrides.
    #[arg(long = "set", value_parser = Override::parse)]
    set: Vec<Override>,
    /// Trials to time.
    #[arg(short = 'n', long, value_parser = super::parse_count)]
    trials: u64,
}

/// `barsoom bench-worker`: loads the scenario, says `ready`, waits for a
/// line on stdin (so that every worker starts timing at once), times its
/// trials on one thread and prints its trials per second.
pub fn worker(args: WorkerArgs) -> Result<()> {
    let scenario = load(&args.scenario, &args.set)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "ready")?;
    out.flush()?;
    let mut go = String::new();
    std::io::stdin().read_line(&mut go)?;
    let timed = time_sized(scenario.model.as_ref(), 1, args.trials, 1, 1, 0.0)?;
    writeln!(out, "{}", timed.median())?;
    Ok(())
}

/// The machine's ceiling for `target` at `threads`: trials per second of
/// `threads` independent one-thread `bench-worker` processes, each timing
/// `trials` trials (the one-thread row's count), started together.
fn ceiling(target: &Target, trials: u64, threads: usize) -> Result<f64> {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let exe = std::env::current_exe()?;
    let mut workers = Vec::with_capacity(threads);
    for _ in 0..threads {
        let mut command = Command::new(&exe);
        command
            .arg(WORKER)
            .arg(&target.path)
            .args(["-n", &trials.to_string()]);
        for set in &target.set {
            command.arg(format!("--set={set}"));
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let mut reader = BufReader::new(
            child
                .stdout
                .take()
                .ok_or_else(|| anyhow!("bench-worker: no stdout"))?,
        );
        let mut line = String::new();
        reader.read_line(&mut line)?;
        if line.trim() != "ready" {
            child.wait()?;
            return Err(anyhow!(
                "bench-worker for {} did not start",
                target.path.display()
            ));
        }
        workers.push((child, reader));
    }
    for (child, _) in &mut workers {
        if let Some(stdin) = child.stdin.as_mut() {
            writeln!(stdin, "go")?;
        }
    }
    let mut total = 0.0;
    for (mut child, mut reader) in workers {
        let mut line = String::new();
        reader.read_line(&mut line)?;
        child.wait()?;
        total += line
            .trim()
            .parse::<f64>()
            .map_err(|_| anyhow!("bench-worker for {}: no timing", target.path.display()))?;
    }
    Ok(total)
}

/// "2 logical cores, <CPU model>" (the model from /proc/cpuinfo when there is one).
fn machine_name(cores: usize) -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, name)| name.split_whitespace().collect::<Vec<_>>().join(" "))
        });
    match cpu {
        Some(cpu) => format!("{cores} logical cores, {cpu}"),
        None => format!("{cores} logical cores"),
    }
}

#[cfg(test)]
mod tests {
    use super::{duration_text, trials_per_second_text};

    #[test]
    fn slow_games_keep_their_decimals() {
        assert_eq!(trials_per_second_text(1_386_046.4), "1,386,046");
        assert_eq!(trials_per_second_text(58.14), "58.1");
        assert_eq!(trials_per_second_text(0.304), "0.30");
    }

    #[test]
    fn durations_read_in_the_unit_that_fits() {
        assert_eq!(duration_text(503e-9), "503 ns");
        assert_eq!(duration_text(12.43e-6), "12.4 µs");
        assert_eq!(duration_text(503_541e-9), "503.5 µs");
        assert_eq!(duration_text(0.503_541), "503.54 ms");
        assert_eq!(duration_text(2.1), "2.10 s");
        assert_eq!(duration_text(f64::INFINITY), "-");
    }
}
