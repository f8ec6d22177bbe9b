//! Balance analysis commands: `sweep` (a grid of settings on common random
//! numbers) and `compare` (two settings on paired trials).

use std::io::Write;
use std::path::Path;

use anyhow::{Result, anyhow};

use super::commands::{InputError, command_line, load, output_dir};
use super::{CompareArgs, SweepArgs};
use crate::analysis::paired::{mean_difference, rate_difference};
use crate::analysis::sweep::{grid, value_text};
use crate::engine::RunConfig;
use crate::engine::paired::run_paired;
use crate::report::SummaryContext;
use crate::report::files::write_atomic;
use crate::report::frames::write_frame;
use crate::report::summary::Summary;
use crate::report::sweep::{SettingResult, sweep_frame, write_sweep_charts};
use crate::scenario::Override;

/// Runs `scenario` with `overrides` on trials `0..trials` of `seed` and
/// summarises it: the unit every analysis command repeats.
fn run_setting(
    scenario: &Path,
    overrides: &[Override],
    seed: u64,
    trials: u64,
    threads: usize,
) -> Result<Summary> {
    let loaded = load(scenario, overrides)?;
    let config = RunConfig {
        threads,
        ..RunConfig::new(seed, trials)
    };
    let tally = loaded.model.run(&config, None)?;
    let path = scenario.display().to_string();
    let ctx = SummaryContext {
        model: &loaded.model_id,
        scenario: &path,
        scenario_name: &loaded.name,
    };
    Ok(Summary::from_tally(&ctx, loaded.model.spec(), &tally, seed))
}

/// `barsoom sweep`.
pub fn sweep(args: SweepArgs) -> Result<()> {
    let base = load(&args.scenario, &args.set)?;
    let settings = grid(&args.vary).map_err(InputError)?;
    let paths: Vec<String> = args.vary.iter().map(|v| v.path.clone()).collect();
    let threads = args.sampling.threads();
    let mut results = Vec::with_capacity(settings.len());
    let mut out = std::io::stdout().lock();
    if !args.json {
        writeln!(
            out,
            "{} ({}): {} settings x {} trials, seed {}",
            base.name,
            base.model_id,
            settings.len(),
            crate::report::summary::group_thousands(args.trials),
            args.sampling.seed
        )?;
        writeln!(
            out,
            "common random numbers: every setting runs trials 0..{} of seed {}, so the differences between settings are paired, not blurred by different dice\n",
            args.trials, args.sampling.seed
        )?;
    }
    for setting in &settings {
        let overrides: Vec<Override> = args.set.iter().chain(setting).cloned().collect();
        let summary = run_setting(
            &args.scenario,
            &overrides,
            args.sampling.seed,
            args.trials,
            threads,
        )?;
        if !args.json {
            let label = setting
                .iter()
                .map(|o| format!("{}={}", o.path_text, value_text(&o.value)))
                .collect::<Vec<_>>()
                .join(" ");
            let rates = summary
                .outcomes
                .iter()
                .map(|o| {
                    format!(
                        "{} {:.4} [{:.4}, {:.4}]",
                        o.label, o.rate, o.ci95[0], o.ci95[1]
                    )
                })
                .collect::<Vec<_>>()
                .join("; ");
            writeln!(out, "{label}: {rates}")?;
        }
        results.push(SettingResult {
            values: setting.iter().map(|o| o.value.clone()).collect(),
            summary,
        });
    }
    let out_dir = output_dir(args.out.as_deref(), &format!("{}-sweep", base.name))?;
    let frame =
        sweep_frame(&paths, &results).map_err(|e| anyhow!("building the sweep frame: {e}"))?;
    let mut written = write_frame(frame, &out_dir, "sweep")?;
    let title = format!(
        "{}: {} trials per setting, common random numbers",
        base.name,
        crate::report::summary::group_thousands(args.trials)
    );
    written.extend(
        write_sweep_charts(&paths, &results, &out_dir, &title)
            .map_err(|e| anyhow!("drawing sweep charts in {}: {e}", out_dir.display()))?,
    );
    let info = serde_json::json!({
        "kind": "sweep",
        "model": base.model_id,
        "scenario": args.scenario.display().to_string(),
        "seed": args.sampling.seed,
        "trials_per_setting": args.trials,
        "settings": results.len(),
        "vary": args.vary.iter().map(|v| serde_json::json!({"path": v.path, "values": v.values.iter().map(value_text).collect::<Vec<_>>()})).collect::<Vec<_>>(),
        "overrides": args.set.iter().map(|o| format!("{}={}", o.path_text, o.value_text)).collect::<Vec<_>>(),
        "common_random_numbers": true,
        "version": env!("CARGO_PKG_VERSION"),
        "command": command_line(),
        "outputs": written.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
    });
    written.push(write_atomic(
        &out_dir.join("sweep.json"),
        serde_json::to_string_pretty(&info)?.as_bytes(),
    )?);
    if args.json {
        let rows: Vec<serde_json::Value> = results
            .iter()
            .map(|r| {
                let mut row = r.summary.to_json();
                row["setting"] = paths
                    .iter()
                    .zip(&r.values)
                    .map(|(p, v)| (p.clone(), serde_json::Value::String(value_text(v))))
                    .collect::<serde_json::Map<_, _>>()
                    .into();
                row
            })
            .collect();
        writeln!(
            out,
            "{}",
            serde_json::json!({ "sweep": info, "rows": rows })
        )?;
    } else {
        writeln!(out, "\nwrote {}", out_dir.display())?;
    }
    Ok(())
}

/// `barsoom compare`.
pub fn compare(args: CompareArgs) -> Result<()> {
    let second_path = args.second.clone().unwrap_or_else(|| args.first.clone());
    if args.second.is_none() && args.set_b.is_empty() {
        return Err(InputError(
            "compare: give a second scenario or at least one --set-b change".into(),
        )
        .into());
    }
    let first = load(&args.first, &args.set)?;
    let second_overrides: Vec<Override> = args.set.iter().chain(&args.set_b).cloned().collect();
    let second = load(&second_path, &second_overrides)?;
    let (spec_a, spec_b) = (first.model.spec(), second.model.spec());
    if spec_a.outcomes.len() != spec_b.outcomes.len() {
        return Err(InputError(format!(
            "compare: {} has {} outcomes and {} has {}; only runs with the same outcomes pair up",
            args.first.display(),
            spec_a.outcomes.len(),
            second_path.display(),
            spec_b.outcomes.len()
        ))
        .into());
    }
    let config = RunConfig {
        threads: args.sampling.threads(),
        ..RunConfig::new(args.sampling.seed, args.trials)
    };
    let tally = run_paired(first.model.as_ref(), second.model.as_ref(), &config)?;
    let n = tally.trials();
    let rates: Vec<_> = (0..spec_a.outcomes.len())
        .map(|k| rate_difference(&tally, k))
        .collect();
    let metrics: Vec<_> = tally
        .metric_differences
        .iter()
        .map(|sums| mean_difference(sums, n))
        .collect();
    let second_name = if args.second.is_some() {
        second.name.clone()
    } else {
        format!("{} with {}", first.name, describe_overrides(&args.set_b))
    };

    let frame = compare_frame(spec_a, &rates, &metrics)?;
    let out_dir = output_dir(
        args.out.as_deref(),
        &format!(
            "{}-vs-{}",
            first.name,
            if args.second.is_some() {
                second.name.as_str()
            } else {
                "changed"
            }
        ),
    )?;
    let mut written = write_frame(frame, &out_dir, "compare")?;
    let info = serde_json::json!({
        "kind": "compare",
        "first": { "scenario": args.first.display().to_string(), "model": first.model_id, "overrides": override_texts(&args.set) },
        "second": { "scenario": second_path.display().to_string(), "model": second.model_id, "overrides": override_texts(&second_overrides), "name": second_name },
        "seed": args.sampling.seed,
        "paired_trials": n,
        "pairing": "trial i of both runs draws from the stream of (seed, i)",
        "outcomes": spec_a.outcomes.iter().zip(&rates).map(|(label, r)| serde_json::json!({"label": label, "difference": r})).collect::<Vec<_>>(),
        "metrics": spec_a.metrics.iter().zip(&metrics).map(|(m, d)| serde_json::json!({"name": m.name, "difference": d})).collect::<Vec<_>>(),
        "version": env!("CARGO_PKG_VERSION"),
        "command": command_line(),
    });
    written.push(write_atomic(
        &out_dir.join("compare.json"),
        serde_json::to_string_pretty(&info)?.as_bytes(),
    )?);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{info}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{} against {}: {} paired trials, seed {} (trial i of both runs uses the same dice stream)\n",
        first.name,
        second_name,
        crate::report::summary::group_thousands(n),
        args.sampling.seed
    )?;
    writeln!(
        out,
        "{:<32} {:>8} {:>8} {:>9}  {:<20} {:>9} {:>12}",
        "outcome", "first", "second", "change", "95% interval", "paired se", "unpaired n"
    )?;
    for (label, r) in spec_a.outcomes.iter().zip(&rates) {
        writeln!(
            out,
            "{:<32} {:>8.4} {:>8.4} {:>+9.4}  [{:+.4}, {:+.4}] {:>9.5} {:>12}",
            label,
            r.first,
            r.second,
            r.difference,
            r.ci95[0],
            r.ci95[1],
            r.paired_se,
            if r.unpaired_trials_needed.is_finite() {
                crate::report::summary::group_thousands(r.unpaired_trials_needed.round() as u64)
            } else {
                "-".into()
            }
        )?;
    }
    writeln!(
        out,
        "\n{:<32} {:>9}  {:<20}",
        "metric (second - first)", "change", "95% interval"
    )?;
    for (m, d) in spec_a.metrics.iter().zip(&metrics) {
        writeln!(
            out,
            "{:<32} {:>+9.4}  [{:+.4}, {:+.4}]",
            m.name, d.difference, d.ci95[0], d.ci95[1]
        )?;
    }
    writeln!(
        out,
        "\nunpaired n: trials per run two independent runs would need for the same precision\nwrote {}",
        out_dir.display()
    )?;
    Ok(())
}

fn override_texts(overrides: &[Override]) -> Vec<String> {
    overrides
        .iter()
        .map(|o| format!("{}={}", o.path_text, o.value_text))
        .collect()
}

fn describe_overrides(overrides: &[Override]) -> String {
    override_texts(overrides).join(", ")
}

/// The comparison as a frame: one row per outcome, then one per metric.
fn compare_frame(
    spec: &crate::engine::OutputSpec,
    rates: &[crate::analysis::paired::RateDifference],
    metrics: &[crate::analysis::paired::MeanDifference],
) -> Result<polars::prelude::DataFrame> {
    use polars::prelude::*;
    let mut kind = Vec::new();
    let mut name = Vec::new();
    let mut first = Vec::new();
    let mut second = Vec::new();
    let mut difference = Vec::new();
    let (mut lo, mut hi, mut se, mut unpaired_se, mut needed) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (label, r) in spec.outcomes.iter().zip(rates) {
        kind.push("outcome");
        name.push(label.as_str());
        first.push(Some(r.first));
        second.push(Some(r.second));
        difference.push(r.difference);
        lo.push(r.ci95[0]);
        hi.push(r.ci95[1]);
        se.push(r.paired_se);
        unpaired_se.push(Some(r.unpaired_se));
        needed.push(
            r.unpaired_trials_needed
                .is_finite()
                .then_some(r.unpaired_trials_needed),
        );
    }
    for (m, d) in spec.metrics.iter().zip(metrics) {
        kind.push("metric");
        name.push(m.name.as_str());
        first.push(None);
        second.push(None);
        difference.push(d.difference);
        lo.push(d.ci95[0]);
        hi.push(d.ci95[1]);
        se.push(d.se);
        unpaired_se.push(None);
        needed.push(None);
    }
    Ok(df!(
        "kind" => kind,
        "name" => name,
        "first" => first,
        "second" => second,
        "difference" => difference,
        "ci95_low" => lo,
        "ci95_high" => hi,
        "paired_se" => se,
        "unpaired_se" => unpaired_se,
        "unpaired_trials_needed" => needed,
    )?)
}
