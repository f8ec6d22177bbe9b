//! Balance analysis commands: `sweep` (a grid of settings on common random
//! numbers), `compare` (two settings on paired trials) and `tournament`
//! (round robins with Bradley–Terry ratings), with the helpers `tune`
//! (in `tune.rs`) shares.

use std::io::Write;
use std::path::Path;

use anyhow::{Result, anyhow};

use super::commands::{Destination, InputError, command_line, load, output_dir, scenario_folder};
use super::table::{
    default_shown, measure_cell, measure_header, render, resolve_show, run_counted,
};
use super::{CompareArgs, SweepArgs, TournamentArgs};
use crate::analysis::paired::{mean_difference, rate_difference};
use crate::analysis::sweep::{grid, value_text};
use crate::engine::RunConfig;
use crate::engine::paired::run_paired;
use crate::report::SummaryContext;
use crate::report::charts::{DifferenceChart, DifferenceRow, Scale, write_difference_chart};
use crate::report::files::{OutputFolder, WrittenBy, write_atomic};
use crate::report::frames::{compare_frame, head_to_head_frame, ratings_frame, write_frame};
use crate::report::summary::Summary;
use crate::report::sweep::{SettingResult, sweep_frame, sweep_long_frame, write_sweep_charts};
use crate::scenario::Override;
use crate::scenario::overrides::distinct_paths;

impl super::AnalysisOptions {
    /// The output folder of `command` on `scenario` (loaded as `loaded`):
    /// `--out`, or `reports/<scenario's folder>-<command>/`.
    pub(super) fn output_dir(
        &self,
        command: &str,
        scenario: &Path,
        loaded: &crate::games::LoadedScenario,
    ) -> Result<OutputFolder> {
        output_dir(
            Destination {
                out: self.out.as_deref(),
                force: self.force,
            },
            scenario_folder(scenario, &loaded.model_id, &format!("-{command}")),
            WrittenBy::new(command, &[scenario]),
        )
    }
}

/// The summary of `tally`, a run of `loaded` (from `scenario`) on `seed`.
pub(super) fn summarise(
    scenario: &Path,
    loaded: &crate::games::LoadedScenario,
    tally: &crate::engine::Tally,
    seed: u64,
) -> Summary {
    let path = scenario.display().to_string();
    let ctx = SummaryContext {
        model: &loaded.model_id,
        scenario: &path,
        scenario_name: &loaded.name,
        description: &loaded.description,
    };
    Summary::from_tally(&ctx, loaded.model.spec(), tally, seed)
}

/// Loads `scenario` once per setting (each with `fixed` then the setting's
/// changes), so that a bad `--vary` path or value is reported before any
/// trial runs.
pub(super) fn load_settings(
    scenario: &Path,
    fixed: &[Override],
    settings: &[Vec<Override>],
) -> Result<Vec<crate::games::LoadedScenario>> {
    settings
        .iter()
        .map(|setting| {
            let overrides: Vec<Override> = fixed.iter().chain(setting).cloned().collect();
            load(scenario, &overrides)
        })
        .collect()
}

/// Which of a settings table's `columns` are right-aligned: the varied
/// values that are numbers (as in `setting`), and every column after them.
pub(super) fn numeric_columns(setting: &[Override], columns: usize) -> Vec<bool> {
    setting
        .iter()
        .map(|o| crate::analysis::sweep::value_number(&o.value).is_some())
        .chain(std::iter::repeat(true))
        .take(columns)
        .collect()
}

/// The varied values of `setting` as table cells.
pub(super) fn setting_cells(setting: &[Override]) -> Vec<String> {
    setting.iter().map(|o| value_text(&o.value)).collect()
}

/// Adds the version, the command line and the files written so far to a
/// command's description, writes it as `dir/file`, then the folder's
/// manifest (last), and returns it.
pub(super) fn write_info(
    dir: &OutputFolder,
    file: &str,
    mut info: serde_json::Value,
    written: &mut Vec<std::path::PathBuf>,
) -> Result<serde_json::Value> {
    info["version"] = env!("CARGO_PKG_VERSION").into();
    info["command"] = command_line().into();
    info["outputs"] = written
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .into();
    written.push(write_atomic(
        &dir.join(file),
        serde_json::to_string_pretty(&info)?.as_bytes(),
    )?);
    dir.finish(written)?;
    Ok(info)
}

/// `barsoom sweep`.
pub fn sweep(args: SweepArgs) -> Result<()> {
    let base = load(&args.scenario, &args.common.set)?;
    let settings = grid(&args.vary).map_err(InputError)?;
    let show = resolve_show(&args.show, base.model.spec()).map_err(InputError)?;
    let paths: Vec<String> = args.vary.iter().map(|v| v.path.clone()).collect();
    let threads = args.common.sampling.threads()?;
    let seed = args.common.sampling.seed;
    let out_dir = args.common.output_dir("sweep", &args.scenario, &base)?;
    let models = load_settings(&args.scenario, &args.common.set, &settings)?;
    let mut out = std::io::stdout().lock();
    if !args.common.json {
        writeln!(
            out,
            "{} ({}): {} settings x {} trials, seed {seed}",
            base.name,
            base.model_id,
            settings.len(),
            crate::report::summary::group_thousands(args.trials),
        )?;
        writeln!(
            out,
            "common random numbers: every setting runs trials 0..{} of seed {seed}, so the differences between settings are paired, not blurred by different dice\n",
            args.trials
        )?;
    }
    let bar = crate::engine::runner::progress_bar(
        !args.common.json,
        args.trials.saturating_mul(settings.len() as u64),
    );
    let mut results = Vec::with_capacity(settings.len());
    for ((setting, loaded), k) in settings.iter().zip(&models).zip(0u64..) {
        let config = RunConfig {
            threads,
            ..RunConfig::new(seed, args.trials)
        };
        let tally = run_counted(
            loaded.model.as_ref(),
            &config,
            &bar,
            k.saturating_mul(args.trials),
        )?;
        results.push(SettingResult {
            values: setting.iter().map(|o| o.value.clone()).collect(),
            summary: summarise(&args.scenario, loaded, &tally, seed),
        });
    }
    bar.finish_and_clear();
    drop(models);
    if !args.common.json {
        let summaries: Vec<&Summary> = results.iter().map(|r| &r.summary).collect();
        let (shown, note) = if show.is_empty() {
            default_shown(&summaries)
        } else {
            (show.clone(), None)
        };
        let spec = base.model.spec();
        let headers: Vec<String> = paths
            .iter()
            .cloned()
            .chain(shown.iter().map(|&m| measure_header(spec, m)))
            .collect();
        let rows: Vec<Vec<String>> = settings
            .iter()
            .zip(&summaries)
            .map(|(setting, summary)| {
                let mut cells = setting_cells(setting);
                cells.extend(shown.iter().map(|&m| measure_cell(summary, m)));
                cells
            })
            .collect();
        let numeric = numeric_columns(&settings[0], headers.len());
        write!(out, "{}", render(&headers, &rows, &numeric))?;
        writeln!(
            out,
            "(rates with 95% Wilson intervals; means with 95% intervals)"
        )?;
        if let Some(note) = note {
            writeln!(out, "{note}")?;
        }
    }
    let frame =
        sweep_frame(&paths, &results).map_err(|e| anyhow!("building the sweep frame: {e}"))?;
    let mut written = write_frame(frame, &out_dir, "sweep")?;
    let long = sweep_long_frame(&paths, &results)
        .map_err(|e| anyhow!("building the long sweep frame: {e}"))?;
    written.extend(write_frame(long, &out_dir, "sweep_long")?);
    let subtitle = format!(
        "{}: outcome rates against {}, {} trials per setting, common random numbers",
        base.name,
        paths.join(" and "),
        crate::report::summary::group_thousands(args.trials)
    );
    written.extend(
        write_sweep_charts(
            &paths,
            &results,
            &show,
            &out_dir,
            chart_title(&base),
            &subtitle,
        )
        .map_err(|e| anyhow!("drawing sweep charts in {}: {e}", out_dir.display()))?,
    );
    let info = serde_json::json!({
        "kind": "sweep",
        "model": base.model_id,
        "scenario": args.scenario.display().to_string(),
        "seed": args.common.sampling.seed,
        "trials_per_setting": args.trials,
        "settings": results.len(),
        "vary": args.vary.iter().map(|v| serde_json::json!({"path": v.path, "values": v.values.iter().map(value_text).collect::<Vec<_>>()})).collect::<Vec<_>>(),
        "overrides": args.common.set.iter().map(|o| format!("{}={}", o.path_text, o.value_text)).collect::<Vec<_>>(),
        "common_random_numbers": true,
    });
    let info = write_info(&out_dir, "sweep.json", info, &mut written)?;
    if args.common.json {
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
        threads: args.sampling.threads()?,
        ..RunConfig::new(args.sampling.seed, args.trials)
    };
    let vs = format!(
        "-vs-{}",
        if args.second.is_some() {
            second.name.as_str()
        } else {
            "changed"
        }
    );
    let mut compared: Vec<&Path> = vec![&args.first];
    compared.extend(args.second.as_deref());
    let out_dir = output_dir(
        Destination {
            out: args.out.as_deref(),
            force: args.force,
        },
        scenario_folder(&args.first, &first.model_id, &vs),
        WrittenBy::new("compare", &compared),
    )?;
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
    let mut written = write_frame(frame, &out_dir, "compare")?;
    let chart = DifferenceChart {
        title: format!("{} against {}", first.name, second_name),
        subtitle: format!(
            "{} paired trials, seed {} · green up, red down: interval clear of zero · {}",
            crate::report::summary::group_thousands(n),
            args.sampling.seed,
            chart_title(&first)
        ),
        x_label: "change in rate, second − first (95% paired interval)".into(),
        scale: Scale::Change,
        rows: spec_a
            .outcomes
            .iter()
            .zip(&rates)
            .map(|(label, r)| DifferenceRow {
                label: label.clone(),
                difference: r.difference,
                ci95: r.ci95,
            })
            .collect(),
    };
    written.extend(
        write_difference_chart(&chart, &out_dir, "compare")
            .map_err(|e| anyhow!("drawing the comparison chart in {}: {e}", out_dir.display()))?,
    );
    let info = serde_json::json!({
        "kind": "compare",
        "first": { "scenario": args.first.display().to_string(), "model": first.model_id, "overrides": override_texts(&args.set) },
        "second": { "scenario": second_path.display().to_string(), "model": second.model_id, "overrides": override_texts(&second_overrides), "name": second_name },
        "seed": args.sampling.seed,
        "paired_trials": n,
        "pairing": "trial i of both runs draws from the stream of (seed, i)",
        "outcomes": spec_a.outcomes.iter().zip(&rates).map(|(label, r)| serde_json::json!({"label": label, "difference": r})).collect::<Vec<_>>(),
        "metrics": spec_a.metrics.iter().zip(&metrics).map(|(m, d)| serde_json::json!({"name": m.name, "difference": d})).collect::<Vec<_>>(),
    });
    let info = write_info(&out_dir, "compare.json", info, &mut written)?;
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

/// What a command's charts are titled: the scenario's description, or its
/// name when it has none.
pub(super) fn chart_title(scenario: &crate::games::LoadedScenario) -> &str {
    if scenario.description.trim().is_empty() {
        &scenario.name
    } else {
        &scenario.description
    }
}

pub(super) fn override_texts(overrides: &[Override]) -> Vec<String> {
    overrides
        .iter()
        .map(|o| format!("{}={}", o.path_text, o.value_text))
        .collect()
}

pub(super) fn describe_overrides(overrides: &[Override]) -> String {
    override_texts(overrides).join(", ")
}

/// `barsoom tournament`.
pub fn tournament(args: TournamentArgs) -> Result<()> {
    use crate::analysis::ratings::bradley_terry;
    use crate::analysis::tournament::{Record, game_measures, unfinished_outcomes};
    use crate::report::charts::{Heatmap, write_heatmap};

    if args.seat.len() != 2 {
        return Err(InputError(format!(
            "tournament: expected --seat twice (the field for seat 0, then seat 1), found {}",
            args.seat.len()
        ))
        .into());
    }
    distinct_paths("tournament: --seat", args.seat.iter().map(String::as_str))
        .map_err(InputError)?;
    let mut entrants: Vec<String> = Vec::new();
    for e in &args.entrants {
        let e = e.trim().to_string();
        if e.is_empty() || entrants.contains(&e) {
            return Err(InputError(format!(
                "tournament: expected distinct, non-empty entrants, found {:?} twice or empty",
                e
            ))
            .into());
        }
        entrants.push(e);
    }
    if entrants.len() < 2 {
        return Err(InputError("tournament: expected at least two entrants".into()).into());
    }
    let base = load(&args.scenario, &args.common.set)?;
    let spec = base.model.spec().clone();
    if spec.outcomes.len() < 2 {
        return Err(InputError(format!(
            "{}: a tournament needs a model whose outcomes 0 and 1 are the two seats' wins",
            args.scenario.display()
        ))
        .into());
    }
    let unfinished = unfinished_outcomes(&spec.outcomes);
    let threads = args.common.sampling.threads()?;
    // The output folder is opened (and locked) before any work, so a bad
    // --out is found at once.
    let out_dir = args
        .common
        .output_dir("tournament", &args.scenario, &base)?;
    let seed = args.common.sampling.seed;
    let mut record = Record::new(entrants.clone());
    let mut out = std::io::stdout().lock();
    for i in 0..entrants.len() {
        for j in 0..entrants.len() {
            if i == j {
                continue;
            }
            let seats = [
                Override::parse(&format!("{}={}", args.seat[0], entrants[i]))
                    .map_err(InputError)?,
                Override::parse(&format!("{}={}", args.seat[1], entrants[j]))
                    .map_err(InputError)?,
            ];
            let overrides: Vec<Override> = args.common.set.iter().chain(&seats).cloned().collect();
            let game = load(&args.scenario, &overrides)?;
            if game.model.spec().outcomes.len() != spec.outcomes.len() {
                return Err(InputError(format!(
                    "{}: {} against {} changes the model's outcomes; entrants must be interchangeable",
                    args.scenario.display(),
                    entrants[i],
                    entrants[j]
                ))
                .into());
            }
            let tally = game.model.run(
                &RunConfig {
                    threads,
                    ..RunConfig::new(seed, args.trials)
                },
                None,
            )?;
            record.add(i, j, &tally, &unfinished);
        }
    }
    let n = entrants.len();
    let score: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| if i == j { 0.0 } else { record.score(i, j) })
                .collect()
        })
        .collect();
    let games: Vec<Vec<f64>> = record
        .games
        .iter()
        .map(|row| row.iter().map(|&g| g as f64).collect())
        .collect();
    let ratings = bradley_terry(&score, &games).map_err(|e| anyhow!("{e}"))?;
    let measures = game_measures(&record);
    let mean_length = spec.length_metric.and_then(|k| {
        let all = record.all.as_ref()?;
        all.metrics
            .get(k)?
            .mean()
            .map(|m| (spec.metrics[k].name.clone(), m))
    });

    let mut written = Vec::new();
    written.extend(write_frame(
        head_to_head_frame(&record)?,
        &out_dir,
        "head-to-head",
    )?);
    written.extend(write_frame(
        ratings_frame(&entrants, &ratings, &score, &games)?,
        &out_dir,
        "ratings",
    )?);
    let heatmap = Heatmap {
        title: format!("Round robin of {n} entrants: head-to-head score"),
        // The scenario's own description names its two fighters, not the
        // entrants: the subject is the round robin.
        subtitle: format!(
            "{} trials per pairing and seating · {} ({}), seats {} and {}",
            crate::report::summary::group_thousands(args.trials),
            base.name,
            base.model_id,
            args.seat[0],
            args.seat[1]
        ),
        value_label: "score of the row entrant (draws count half)".into(),
        x_label: "opponent (both seats)".into(),
        y_label: "entrant".into(),
        x_ticks: entrants.clone(),
        // Rows are drawn bottom to top: reverse them so the first entrant
        // is the top row, as in a table.
        y_ticks: entrants.iter().rev().cloned().collect(),
        cells: (0..n)
            .rev()
            .map(|i| {
                (0..n)
                    .map(|j| {
                        if i == j {
                            f64::NAN
                        } else {
                            record.score(i, j) / record.games[i][j].max(1) as f64
                        }
                    })
                    .collect()
            })
            .collect(),
    };
    written.extend(
        write_heatmap(&heatmap, &out_dir, "head-to-head").map_err(|e| {
            anyhow!(
                "drawing the head-to-head chart in {}: {e}",
                out_dir.display()
            )
        })?,
    );
    let info = serde_json::json!({
        "kind": "tournament",
        "model": base.model_id,
        "scenario": args.scenario.display().to_string(),
        "seats": args.seat,
        "entrants": entrants,
        "trials_per_pairing_and_seat": args.trials,
        "seed": seed,
        "common_random_numbers": true,
        "ratings": entrants.iter().zip(&ratings).map(|(e, r)| serde_json::json!({"entrant": e, "rating": r})).collect::<Vec<_>>(),
        "measures": measures,
        "mean_length": mean_length.as_ref().map(|(name, m)| serde_json::json!({"metric": name, "mean": m})),
        "overrides": override_texts(&args.common.set),
    });
    let info = write_info(&out_dir, "tournament.json", info, &mut written)?;
    if args.common.json {
        writeln!(out, "{info}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{}: round robin of {} entrants, {} trials per pairing in each seating (seed {seed}, common random numbers)\n",
        base.name,
        n,
        crate::report::summary::group_thousands(args.trials)
    )?;
    writeln!(
        out,
        "{:<24} {:>8} {:>8}  {:<20} {:>7} {:>6}",
        "entrant", "theta", "se", "95% interval", "Elo", "score"
    )?;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| ratings[b].theta.total_cmp(&ratings[a].theta));
    for &i in &order {
        let r = &ratings[i];
        let total: f64 = (0..n).map(|j| games[i][j]).sum();
        let points: f64 = (0..n).map(|j| score[i][j]).sum();
        writeln!(
            out,
            "{:<24} {:>+8.4} {:>8.4}  [{:+.4}, {:+.4}] {:>+7.0} {:>6.3}",
            entrants[i],
            r.theta,
            r.se,
            r.ci95[0],
            r.ci95[1],
            r.elo,
            points / total.max(1.0)
        )?;
    }
    writeln!(
        out,
        "\nseat 0 wins {:.4}, seat 1 wins {:.4}: first-seat advantage {:+.4} [{:+.4}, {:+.4}]",
        measures.seat_win_rates[0],
        measures.seat_win_rates[1],
        measures.first_seat_advantage,
        measures.first_seat_advantage_ci95[0],
        measures.first_seat_advantage_ci95[1]
    )?;
    writeln!(
        out,
        "drawishness {:.4}, completion {:.4}, decisiveness {:.4}{}",
        measures.drawishness,
        measures.completion,
        measures.decisiveness,
        mean_length.map_or(String::new(), |(name, m)| format!(", mean {name} {m:.2}"))
    )?;
    writeln!(out, "wrote {}", out_dir.display())?;
    Ok(())
}
