//! Balance analysis commands: `sweep` (a grid of settings on common random
//! numbers).

use std::io::Write;
use std::path::Path;

use anyhow::{Result, anyhow};

use super::SweepArgs;
use super::commands::{InputError, command_line, load, output_dir};
use crate::analysis::sweep::{grid, value_text};
use crate::engine::RunConfig;
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
    let threads = args.threads.unwrap_or(0) as usize;
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
            args.seed
        )?;
        writeln!(
            out,
            "common random numbers: every setting runs trials 0..{} of seed {}, so the differences between settings are paired, not blurred by different dice\n",
            args.trials, args.seed
        )?;
    }
    for setting in &settings {
        let overrides: Vec<Override> = args.set.iter().chain(setting).cloned().collect();
        let summary = run_setting(&args.scenario, &overrides, args.seed, args.trials, threads)?;
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
        "seed": args.seed,
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
