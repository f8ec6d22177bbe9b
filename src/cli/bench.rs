//! `barsoom bench`: throughput of each model's reference scenarios at each
//! thread count, parallel efficiency, the ratio to a raw dice loop, a frame
//! and a chart, and `--compare` against a baseline frame.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Result, anyhow};

use super::BenchArgs;
use super::analysis::write_info;
use super::commands::{Destination, InputError, load, output_dir, scenarios_dir};
use crate::engine::bench::{time_raw_dice, time_repeated};
use crate::games::{MODELS, bench_references};
use crate::math::regression::{Verdict, compare};
use crate::report::bench::{BaselineRow, BenchRow, read_baseline, write_bench};
use crate::report::files::WrittenBy;
use crate::report::summary::group_thousands;

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
            "machine: {machine}; {repeats} timings per row (median shown)"
        )?;
        writeln!(
            out,
            "{:<38} {:>7} {:>12} {:>10} {:>7} {:>8} {:>10} {:>8}",
            "scenario",
            "threads",
            "trials/s",
            "ns/trial",
            "noise",
            "speedup",
            "efficiency",
            "vs raw"
        )?;
    }
    let mut rows = Vec::new();
    for (path, trials) in &targets {
        let scenario = load(path, &[])?;
        let model = scenario.model.as_ref();
        let dice = model.dice_per_trial(1, 20_000.min(*trials));
        let mut single = f64::NAN;
        for &threads in &thread_counts {
            let timed = time_repeated(model, 1, *trials, threads, repeats)?;
            let median = timed.median();
            if threads == 1 {
                single = median;
            }
            let raw = if dice > 0.0 {
                Some(time_raw_dice(1, *trials, dice, threads)?.trials_per_second)
            } else {
                None
            };
            let slowest = timed.samples.iter().copied().fold(f64::INFINITY, f64::min);
            let fastest = timed.samples.iter().copied().fold(0.0, f64::max);
            let speedup = median / single;
            let mut row = BenchRow {
                scenario: scenario.name.clone(),
                model: scenario.model_id.clone(),
                threads: timed.threads,
                trials: *trials,
                repeats,
                trials_per_second: median,
                range: (slowest, fastest),
                noise: timed.noise(),
                speedup,
                efficiency: speedup / timed.threads as f64,
                dice_per_trial: dice,
                raw_trials_per_second: raw,
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
        "scenarios": targets.iter().map(|(path, trials)| serde_json::json!({"scenario": path.display().to_string(), "trials": trials})).collect::<Vec<_>>(),
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

/// The scenarios to time and their trial counts.
fn resolve_targets(args: &BenchArgs) -> Result<Vec<(PathBuf, u64)>> {
    let references = bench_references(&scenarios_dir())?;
    let mut targets = Vec::new();
    if args.targets.is_empty() {
        targets.extend(references.iter().map(|r| (r.scenario.clone(), r.trials)));
    }
    for target in &args.targets {
        if MODELS.iter().any(|m| m.id == target) {
            let mine: Vec<_> = references.iter().filter(|r| &r.model == target).collect();
            if mine.is_empty() {
                return Err(InputError(format!(
                    "model {target} has no reference scenario in scenarios/data/bench.toml"
                ))
                .into());
            }
            targets.extend(mine.iter().map(|r| (r.scenario.clone(), r.trials)));
        } else if PathBuf::from(target).is_file() {
            targets.push((PathBuf::from(target), DEFAULT_TRIALS));
        } else {
            let ids: Vec<&str> = MODELS.iter().map(|m| m.id).collect();
            return Err(InputError(format!(
                "bench: {target:?} is neither a model ({}) nor a scenario file",
                ids.join(", ")
            ))
            .into());
        }
    }
    if let Some(n) = args.trials {
        for target in &mut targets {
            target.1 = n;
        }
    }
    Ok(targets)
}

fn find<'a>(baseline: &'a [BaselineRow], row: &BenchRow) -> Option<&'a BaselineRow> {
    baseline
        .iter()
        .find(|b| b.scenario == row.scenario && b.threads == row.threads)
}

fn print_row(out: &mut impl Write, row: &BenchRow) -> Result<()> {
    let ratio = row
        .ratio_to_raw()
        .map_or_else(|| "-".to_string(), |r| format!("{r:.2}x"));
    write!(
        out,
        "{:<38} {:>7} {:>12} {:>10.1} {:>6.1}% {:>7.2}x {:>10.2} {:>8}",
        row.scenario,
        row.threads,
        group_thousands(row.trials_per_second.round() as u64),
        row.ns_per_trial(),
        row.noise * 100.0,
        row.speedup,
        row.efficiency,
        ratio
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
        "dice_per_trial": row.dice_per_trial,
        "ratio_to_raw": row.ratio_to_raw(),
        "verdict": row.baseline.map(|b| b.1.verdict.label()),
        "change": row.baseline.map(|b| b.1.change),
    })
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
