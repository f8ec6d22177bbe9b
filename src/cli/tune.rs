//! `barsoom tune`: the setting closest to targets, by successive halving
//! over a grid, by NTBEA over a grid too large to run whole (`--method
//! ntbea`), or (`--find`) by bisection where one monotone setting crosses
//! a target; each confirmed on a fresh seed.

use std::io::Write;
use std::path::Path;

use anyhow::{Result, anyhow};

use super::analysis::{
    chart_title, describe_overrides, load_settings, numeric_columns, setting_cells, summarise,
    write_info,
};
use super::commands::{InputError, load};
use super::table::{render, run_counted};
use super::{TuneArgs, TuneMethod};
use crate::analysis::sweep::{Grid, MAX_SEARCHED_SETTINGS, grid, value_text};
use crate::analysis::tune::TraceRow;
use crate::engine::RunConfig;
use crate::report::files::OutputFolder;
use crate::report::frames::{tune_frame, write_frame};
use crate::report::summary::Summary;
use crate::scenario::Override;

/// `barsoom tune`.
pub fn tune(args: TuneArgs) -> Result<()> {
    use crate::analysis::tune::{Measure, last_round_trials, search_trials, successive_halving};

    let base = load(&args.scenario, &args.common.set)?;
    let spec = base.model.spec().clone();
    let measures: Vec<Measure> = args
        .target
        .iter()
        .map(|t| t.resolve(&spec))
        .collect::<Result<_, _>>()
        .map_err(|e| InputError(format!("{}: {e}", args.scenario.display())))?;
    for (k, measure) in measures.iter().enumerate() {
        if let Some(j) = measures[..k].iter().position(|m| m == measure) {
            return Err(InputError(format!(
                "tune: --target {} and --target {} measure the same outcome or metric; expected each once",
                args.target[j].name, args.target[k].name
            ))
            .into());
        }
    }
    check_method(&args).map_err(InputError)?;
    if args.method == TuneMethod::Ntbea {
        // Made one at a time: the grid may be far larger than one run whole.
        let grid = Grid::new(&args.vary, MAX_SEARCHED_SETTINGS).map_err(InputError)?;
        let out_dir = args.common.output_dir("tune", &args.scenario, &base)?;
        return tune_ntbea(&args, &base, grid, &measures, &out_dir);
    }
    let settings = grid(&args.vary).map_err(InputError)?;
    if args.find {
        check_find(&args, &settings).map_err(InputError)?;
    }
    if last_round_trials(settings.len(), args.trials).is_none() {
        return Err(InputError(format!(
            "-n {}: tune doubles the trials each round, and over {} settings the last round would pass {} trials; give a smaller -n",
            args.trials,
            settings.len(),
            u64::MAX
        ))
        .into());
    }
    let out_dir = args.common.output_dir("tune", &args.scenario, &base)?;
    let models = load_settings(&args.scenario, &args.common.set, &settings)?;
    for (setting, loaded) in settings.iter().zip(&models) {
        check_shape(&args, &spec, setting, loaded)?;
    }
    let threads = args.common.sampling.threads()?;
    let seed = args.common.sampling.seed;
    if args.find {
        return find_crossing(
            &args,
            &base,
            &settings,
            &models,
            measures[0],
            threads,
            &out_dir,
        );
    }
    let bar = crate::engine::runner::progress_bar(
        !args.common.json,
        search_trials(settings.len(), args.trials).saturating_add(args.confirm),
    );
    let mut counted = 0u64;
    let (best, trace) = successive_halving(
        settings.len(),
        &measures,
        &args.target,
        args.trials,
        |s, range| {
            let fresh = range.end - range.start;
            let config = RunConfig {
                seed,
                trials: range,
                threads,
                ..RunConfig::new(seed, 0)
            };
            let tally = run_counted(models[s].model.as_ref(), &config, &bar, counted);
            counted = counted.saturating_add(fresh);
            tally
        },
    )?;
    let confirmed = confirm(&args, &models[best], &measures, threads, &bar, counted)?;
    bar.finish_and_clear();
    let search_loss = trace.last().map_or(f64::NAN, |t| t.loss);
    let total_trials: u64 = {
        let mut per_setting = vec![0u64; settings.len()];
        for row in &trace {
            per_setting[row.setting] = row.trials;
        }
        per_setting.iter().sum()
    };

    // The trace frame: one row per setting per round.
    let mut written = write_trace(&args, &|row| &settings[row.setting], &trace, &out_dir)?;
    written.extend(
        write_tune_chart(
            &args,
            &base,
            &settings,
            &measures,
            &trace,
            best,
            total_trials,
            &out_dir,
        )
        .map_err(|e| anyhow!("drawing the tuning chart in {}: {e}", out_dir.display()))?,
    );
    let mut info = confirmed.json(&args, &base, &settings[best]);
    info["method"] =
        "successive halving on common random numbers; winner confirmed on a fresh seed".into();
    info["first_round_trials"] = args.trials.into();
    info["search_trials"] = total_trials.into();
    info["settings"] = settings.len().into();
    info["search_loss"] = search_loss.into();
    let info = write_info(&out_dir, "tune.json", info, &mut written)?;
    let mut out = std::io::stdout().lock();
    if args.common.json {
        writeln!(out, "{info}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{}: searched {} settings by successive halving ({} trials in all, common random numbers, seed {seed})",
        base.name,
        settings.len(),
        crate::report::summary::group_thousands(total_trials)
    )?;
    write!(
        out,
        "\n{}",
        tune_table(&args, &settings, &trace, TUNE_TABLE_ROWS)
    )?;
    writeln!(out, "\nbest: {}", describe_overrides(&settings[best]))?;
    confirmed.write(&mut out, &args, &measures, search_loss, &out_dir)
}

/// Default NTBEA budget, neighbourhood and exploration weight.
const NTBEA_EVALUATIONS: u64 = 100;
const NTBEA_NEIGHBOURS: u64 = 50;
const NTBEA_EXPLORATION: f64 = 1.0;

/// `barsoom tune --method ntbea`: the N-Tuple Bandit Evolutionary
/// Algorithm over `grid`, each evaluation `-n` trials on the search seed;
/// the lowest loss evaluated is re-run on a fresh seed. Settings are made
/// and loaded as they are evaluated (the grid may be large);
/// before the search, every value of every `--vary` is loaded once with
/// the others at their first value, so a bad value is reported at once.
fn tune_ntbea(
    args: &TuneArgs,
    base: &crate::games::LoadedScenario,
    grid: Grid<'_>,
    measures: &[crate::analysis::tune::Measure],
    out_dir: &OutputFolder,
) -> Result<()> {
    use crate::analysis::ntbea::{NtbeaSettings, ntbea};
    use crate::analysis::tune::score;

    let spec = base.model.spec();
    let sizes: Vec<usize> = args.vary.iter().map(|v| v.values.len()).collect();
    let load_setting = |setting: &[Override]| -> Result<crate::games::LoadedScenario> {
        let overrides: Vec<Override> = args.common.set.iter().chain(setting).cloned().collect();
        let loaded = load(&args.scenario, &overrides)?;
        check_shape(args, spec, setting, &loaded)?;
        Ok(loaded)
    };
    let setting = |s: usize| grid.setting(s).map_err(InputError);
    let mut stride = grid.len();
    for &size in &sizes {
        stride /= size;
        for value in 0..size {
            load_setting(&setting(value * stride)?)?;
        }
    }
    let params = NtbeaSettings {
        evaluations: usize::try_from(args.evaluations.unwrap_or(NTBEA_EVALUATIONS))
            .unwrap_or(usize::MAX),
        neighbours: usize::try_from(args.neighbours.unwrap_or(NTBEA_NEIGHBOURS))
            .unwrap_or(usize::MAX),
        exploration: args.exploration.unwrap_or(NTBEA_EXPLORATION),
        mutation: args.mutation.unwrap_or(1.0 / sizes.len() as f64),
    };
    let budget = params.evaluations.min(grid.len());
    let threads = args.common.sampling.threads()?;
    let seed = args.common.sampling.seed;
    let bar = crate::engine::runner::progress_bar(
        !args.common.json,
        args.trials
            .saturating_mul(budget as u64)
            .saturating_add(args.confirm),
    );
    let mut counted = 0u64;
    // The settings evaluated, in order: the trace, table and files name
    // these, never the whole grid.
    let mut evaluated: Vec<Vec<Override>> = Vec::with_capacity(budget);
    let result = ntbea(&sizes, &params, seed, |s| {
        let current = setting(s)?;
        let loaded = load_setting(&current)?;
        evaluated.push(current);
        let config = RunConfig {
            threads,
            ..RunConfig::new(seed, args.trials)
        };
        let tally = run_counted(loaded.model.as_ref(), &config, &bar, counted)?;
        counted = counted.saturating_add(args.trials);
        Ok::<_, anyhow::Error>(score(&tally, measures, &args.target))
    })
    .inspect_err(|_| bar.finish_and_clear())?;
    let chosen = &result.evaluations[result.best];
    let best = result.best;
    let confirmed = confirm(
        args,
        &load_setting(&evaluated[best])?,
        measures,
        threads,
        &bar,
        counted,
    )?;
    bar.finish_and_clear();
    let trace: Vec<TraceRow> = result
        .evaluations
        .iter()
        .enumerate()
        .map(|(i, e)| TraceRow {
            round: i,
            setting: e.setting,
            trials: args.trials,
            estimates: e.estimates.clone(),
            loss: e.loss,
            kept: i == result.best,
        })
        .collect();
    let search_trials = args.trials.saturating_mul(trace.len() as u64);

    let mut written = write_trace(args, &|row| &evaluated[row.round], &trace, out_dir)?;
    let rows: Vec<(f64, &TraceRow)> = trace.iter().map(|r| ((r.round + 1) as f64, r)).collect();
    let axis = TuneAxis {
        label: "evaluation".into(),
        names: Vec::new(),
        chosen_at: (result.best + 1) as f64,
        chosen: setting_text(&evaluated[best]),
        method: format!(
            "NTBEA, {} of {} settings, {} trials each",
            trace.len(),
            grid.len(),
            crate::report::summary::group_thousands(args.trials)
        ),
    };
    written.extend(
        draw_tune_chart(args, base, measures, &rows, &axis, out_dir)
            .map_err(|e| anyhow!("drawing the tuning chart in {}: {e}", out_dir.display()))?,
    );
    let mut info = confirmed.json(args, base, &evaluated[best]);
    info["method"] = "ntbea".into();
    info["ntbea"] = serde_json::json!({
        "about": "N-Tuple Bandit Evolutionary Algorithm (Lucas, Liu, Perez-Liebana 2018) on common random numbers: 1-tuples, 2-tuples (3 or more --vary) and the full tuple; the evaluated setting with the lowest loss is confirmed on a fresh seed",
        "evaluations": params.evaluations,
        "evaluated": trace.len(),
        "neighbours": params.neighbours,
        "exploration": params.exploration,
        "mutation": params.mutation,
    });
    info["trials_per_evaluation"] = args.trials.into();
    info["search_trials"] = search_trials.into();
    info["settings"] = grid.len().into();
    info["search_loss"] = chosen.loss.into();
    let model_pick = &evaluated[result.model_best];
    info["model_best"] = setting_json(args, model_pick);
    info["model_loss"] = result.model_loss.into();
    let info = write_info(out_dir, "tune.json", info, &mut written)?;
    let mut out = std::io::stdout().lock();
    if args.common.json {
        writeln!(out, "{info}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{}: NTBEA over {} settings: {} evaluations of {} trials ({} in all, common random numbers, seed {seed})",
        base.name,
        grid.len(),
        trace.len(),
        crate::report::summary::group_thousands(args.trials),
        crate::report::summary::group_thousands(search_trials)
    )?;
    let mut ranked: Vec<&TraceRow> = trace.iter().collect();
    ranked.sort_by(|a, b| a.loss.total_cmp(&b.loss).then(a.round.cmp(&b.round)));
    write!(
        out,
        "\n{}",
        settings_table(
            args,
            &|row| &evaluated[row.round],
            &ranked,
            TUNE_TABLE_ROWS,
            ("evaluation", &|row: &TraceRow| (row.round + 1).to_string())
        )
    )?;
    writeln!(
        out,
        "\nbest: {} (evaluation {}; the tuple model's pick, {}, has model loss {:.6})",
        describe_overrides(&evaluated[best]),
        result.best + 1,
        setting_text(model_pick),
        result.model_loss
    )?;
    confirmed.write(&mut out, args, measures, chosen.loss, out_dir)
}

/// The chosen setting re-run on a fresh seed (seed + 1, `--confirm`
/// trials): the figures to quote.
struct Confirmation {
    seed: u64,
    summary: Summary,
    estimates: Vec<f64>,
    loss: f64,
}

/// Runs the confirmation of `loaded` on the bar after `counted` trials.
fn confirm(
    args: &TuneArgs,
    loaded: &crate::games::LoadedScenario,
    measures: &[crate::analysis::tune::Measure],
    threads: usize,
    bar: &indicatif::ProgressBar,
    counted: u64,
) -> Result<Confirmation> {
    let seed = args.common.sampling.seed.wrapping_add(1);
    let tally = run_counted(
        loaded.model.as_ref(),
        &RunConfig {
            threads,
            ..RunConfig::new(seed, args.confirm)
        },
        bar,
        counted,
    )?;
    let summary = summarise(&args.scenario, loaded, &tally, seed);
    let (estimates, loss) = crate::analysis::tune::score(&tally, measures, &args.target);
    Ok(Confirmation {
        seed,
        summary,
        estimates,
        loss,
    })
}

impl Confirmation {
    /// `tune.json`'s common part: what was tuned, the best setting and the
    /// confirmed figures.
    fn json(
        &self,
        args: &TuneArgs,
        base: &crate::games::LoadedScenario,
        best: &[Override],
    ) -> serde_json::Value {
        serde_json::json!({
            "kind": "tune",
            "model": base.model_id,
            "scenario": args.scenario.display().to_string(),
            "seed": args.common.sampling.seed,
            "confirm_seed": self.seed,
            "best": setting_json(args, best),
            "confirmed_loss": self.loss,
            "targets": args.target.iter().zip(&self.estimates).map(|(t, e)| serde_json::json!({"name": t.name, "target": t.value, "confirmed": e})).collect::<Vec<_>>(),
            "confirmed": self.summary.to_json(),
        })
    }

    /// The confirmation's lines and the two losses.
    fn write(
        &self,
        out: &mut impl Write,
        args: &TuneArgs,
        measures: &[crate::analysis::tune::Measure],
        search_loss: f64,
        out_dir: &Path,
    ) -> Result<()> {
        writeln!(
            out,
            "\nconfirmed on a fresh seed ({}, {} trials):",
            self.seed,
            crate::report::summary::group_thousands(args.confirm)
        )?;
        write_confirmed(out, args, measures, &self.summary, &self.estimates)?;
        writeln!(
            out,
            "loss: {search_loss:.6} in the search, {:.6} confirmed (the search figure is optimistic: it is the best of many)\nwrote {}",
            self.loss,
            out_dir.display()
        )?;
        Ok(())
    }
}

/// A setting as JSON: each `--vary` path and its value as text.
fn setting_json(args: &TuneArgs, setting: &[Override]) -> serde_json::Value {
    args.vary
        .iter()
        .zip(setting)
        .map(|(v, o)| {
            (
                v.path.clone(),
                serde_json::Value::String(value_text(&o.value)),
            )
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// Writes the search trace as `tune.csv`/`.parquet`: one row per trace
/// row, the varied values (of the row's setting, `setting_of`) typed.
fn write_trace<'s>(
    args: &TuneArgs,
    setting_of: &dyn Fn(&TraceRow) -> &'s [Override],
    trace: &[TraceRow],
    out_dir: &OutputFolder,
) -> Result<Vec<std::path::PathBuf>> {
    let paths: Vec<String> = args.vary.iter().map(|v| v.path.clone()).collect();
    let values: Vec<Vec<toml::Value>> = trace
        .iter()
        .map(|row| setting_of(row).iter().map(|o| o.value.clone()).collect())
        .collect();
    Ok(write_frame(
        tune_frame(&paths, &values, &args.target, trace)?,
        out_dir,
        "tune",
    )?)
}

/// The confirmed estimate of each target with its 95% interval (Wilson
/// for a rate, normal for a mean), one line each.
fn write_confirmed(
    out: &mut impl Write,
    args: &TuneArgs,
    measures: &[crate::analysis::tune::Measure],
    summary: &Summary,
    estimates: &[f64],
) -> std::io::Result<()> {
    use crate::analysis::tune::Measure;
    for ((target, measure), value) in args.target.iter().zip(measures).zip(estimates) {
        let interval = match measure {
            Measure::Rate(k) => {
                let o = &summary.outcomes[*k];
                format!("[{:.4}, {:.4}]", o.ci95[0], o.ci95[1])
            }
            Measure::Mean(k) => {
                let m = &summary.metrics[*k];
                format!("[{:.4}, {:.4}]", m.mean - 1.96 * m.se, m.mean + 1.96 * m.se)
            }
        };
        writeln!(
            out,
            "  {:<32} target {:<10} confirmed {value:.4} {interval}",
            target.name, target.value
        )?;
    }
    Ok(())
}

/// Why a setting cannot join the search: it gives the model other outcomes
/// or metrics than the scenario (`spec`) has.
fn check_shape(
    args: &TuneArgs,
    spec: &crate::engine::OutputSpec,
    setting: &[Override],
    loaded: &crate::games::LoadedScenario,
) -> Result<()> {
    let shape = loaded.model.spec();
    if shape.outcomes.len() != spec.outcomes.len() || shape.metrics.len() != spec.metrics.len() {
        return Err(InputError(format!(
            "{}: setting {} changes the model's outcomes or metrics; tune over settings of one shape",
            args.scenario.display(),
            describe_overrides(setting)
        ))
        .into());
    }
    Ok(())
}

/// Why the method's options do not fit together: `--method ntbea` needs two
/// or more `--vary`, no `--find`, and positive counts; its own options are
/// refused with any other method.
fn check_method(args: &TuneArgs) -> Result<(), String> {
    let given = [
        ("--evaluations", args.evaluations.is_some()),
        ("--neighbours", args.neighbours.is_some()),
        ("--exploration", args.exploration.is_some()),
        ("--mutation", args.mutation.is_some()),
    ];
    if args.method != TuneMethod::Ntbea {
        return match given.iter().find(|(_, set)| *set) {
            Some((flag, _)) => Err(format!(
                "tune {flag}: an option of the NTBEA search; add --method ntbea"
            )),
            None => Ok(()),
        };
    }
    if args.find {
        return Err("tune --method ntbea: --find bisects one setting and ntbea searches several; give one or the other".into());
    }
    if args.vary.len() < 2 {
        return Err(format!(
            "tune --method ntbea: expected two or more --vary (it searches their combinations), found {}; over one setting's values the default method runs them all",
            args.vary.len()
        ));
    }
    for (flag, value) in [
        ("--evaluations", args.evaluations),
        ("--neighbours", args.neighbours),
    ] {
        if value == Some(0) {
            return Err(format!("tune {flag} 0: expected a positive whole number"));
        }
    }
    if let Some(k) = args.exploration.filter(|k| !(k.is_finite() && *k >= 0.0)) {
        return Err(format!(
            "tune --exploration {k}: expected a number 0 or above (e.g. 1)"
        ));
    }
    if let Some(p) = args.mutation.filter(|p| !(*p >= 0.0 && *p <= 1.0)) {
        return Err(format!(
            "tune --mutation {p}: expected a probability from 0 to 1"
        ));
    }
    Ok(())
}

/// Why `tune --find` cannot search these settings: it needs one `--vary`
/// of numbers in increasing order and one `--target`.
fn check_find(args: &TuneArgs, settings: &[Vec<Override>]) -> Result<(), String> {
    if args.vary.len() != 1 || args.target.len() != 1 {
        return Err(format!(
            "tune --find: expected one --vary and one --target, found {} and {}",
            args.vary.len(),
            args.target.len()
        ));
    }
    let xs: Option<Vec<f64>> = settings
        .iter()
        .map(|s| crate::analysis::sweep::value_number(&s[0].value))
        .collect();
    match xs {
        Some(xs) if xs.windows(2).all(|w| w[0] < w[1]) => Ok(()),
        _ => Err(format!(
            "tune --find: expected --vary {} to give numbers in increasing order (e.g. 1..13)",
            args.vary[0].path
        )),
    }
}

/// `barsoom tune --find`: bisection on common random numbers for the two
/// adjacent settings either side of the target, the crossing interpolated
/// between them, then both re-run on a fresh seed for the figure and its
/// interval to quote.
#[allow(clippy::too_many_arguments)]
fn find_crossing(
    args: &TuneArgs,
    base: &crate::games::LoadedScenario,
    settings: &[Vec<Override>],
    models: &[crate::games::LoadedScenario],
    measure: crate::analysis::tune::Measure,
    threads: usize,
    out_dir: &OutputFolder,
) -> Result<()> {
    use crate::analysis::sweep::value_number;
    use crate::analysis::tune::{
        Measure, TraceRow, bisect, crossing_interval, estimate, interpolate, loss,
    };

    let target = &args.target[0];
    let seed = args.common.sampling.seed;
    let steps = usize::BITS - settings.len().leading_zeros() + 1;
    let bar = crate::engine::runner::progress_bar(
        !args.common.json,
        args.trials
            .saturating_mul(u64::from(steps) + 1)
            .saturating_add(args.confirm.saturating_mul(2)),
    );
    let mut counted = 0u64;
    let mut trace: Vec<TraceRow> = Vec::new();
    // Trials 0..trials of setting `s` on `seed`, counted on the bar.
    let run_whole = |s: usize, seed: u64, trials: u64, counted: &mut u64| {
        let config = RunConfig {
            threads,
            ..RunConfig::new(seed, trials)
        };
        let tally = run_counted(models[s].model.as_ref(), &config, &bar, *counted);
        *counted = counted.saturating_add(trials);
        tally
    };
    let bracket = bisect(settings.len(), target.value, |s| {
        let tally = run_whole(s, seed, args.trials, &mut counted)?;
        let value = estimate(&tally, measure);
        trace.push(TraceRow {
            round: trace.len(),
            setting: s,
            trials: args.trials,
            estimates: vec![value],
            loss: loss(std::slice::from_ref(target), &[value]),
            kept: false,
        });
        Ok::<_, anyhow::Error>(value)
    })?
    .map_err(|e| {
        bar.finish_and_clear();
        InputError(format!(
            "tune --find {}: {e}; widen --vary {}",
            target.name, args.vary[0].path
        ))
    })?;
    for row in &mut trace {
        row.kept = row.setting == bracket.below || row.setting == bracket.above;
    }
    // The two settings either side, re-run on a fresh seed.
    let confirm_seed = seed.wrapping_add(1);
    let mut confirmed = Vec::with_capacity(2);
    for s in [bracket.below, bracket.above] {
        let tally = run_whole(s, confirm_seed, args.confirm, &mut counted)?;
        confirmed.push(summarise(&args.scenario, &models[s], &tally, confirm_seed));
    }
    bar.finish_and_clear();
    let band = |summary: &Summary| -> (f64, [f64; 2]) {
        match measure {
            Measure::Rate(k) => (summary.outcomes[k].rate, summary.outcomes[k].ci95),
            Measure::Mean(k) => {
                let m = &summary.metrics[k];
                (m.mean, [m.mean - 1.96 * m.se, m.mean + 1.96 * m.se])
            }
        }
    };
    let x = |s: usize| value_number(&settings[s][0].value).unwrap_or(f64::NAN);
    let (x0, x1) = (x(bracket.below), x(bracket.above));
    let ((y0, band0), (y1, band1)) = (band(&confirmed[0]), band(&confirmed[1]));
    let crossing = interpolate(x0, y0, x1, y1, target.value);
    let interval = crossing_interval(x0, band0, x1, band1, target.value);
    let search = |s: usize| {
        bracket
            .evaluated
            .iter()
            .find(|(i, _)| *i == s)
            .map_or(f64::NAN, |(_, e)| *e)
    };
    let search_crossing = interpolate(
        x0,
        search(bracket.below),
        x1,
        search(bracket.above),
        target.value,
    );
    let nearer = if (crossing - x0).abs() <= (x1 - crossing).abs() {
        bracket.below
    } else {
        bracket.above
    };
    let path = &args.vary[0].path;
    let mut written = write_trace(args, &|row| &settings[row.setting], &trace, out_dir)?;
    let search_trials = args.trials.saturating_mul(trace.len() as u64);
    written.extend(
        write_tune_chart(
            args,
            base,
            settings,
            &[measure],
            &trace,
            nearer,
            search_trials,
            out_dir,
        )
        .map_err(|e| anyhow!("drawing the tuning chart in {}: {e}", out_dir.display()))?,
    );
    let info = serde_json::json!({
        "kind": "tune",
        "model": base.model_id,
        "scenario": args.scenario.display().to_string(),
        "method": "bisection on common random numbers for the two adjacent settings either side of the target, the crossing interpolated linearly between them; both re-run on a fresh seed",
        "seed": seed,
        "confirm_seed": confirm_seed,
        "trials_per_evaluation": args.trials,
        "search_trials": search_trials,
        "settings": settings.len(),
        "target": {"name": target.name, "target": target.value},
        "between": [value_text(&settings[bracket.below][0].value), value_text(&settings[bracket.above][0].value)],
        "search_crossing": search_crossing,
        "crossing": crossing,
        "crossing_ci95": interval,
        "confirmed": [
            {"value": x0, "estimate": y0, "ci95": band0},
            {"value": x1, "estimate": y1, "ci95": band1},
        ],
        "best": {path.clone(): value_text(&settings[nearer][0].value)},
    });
    let info = write_info(out_dir, "tune.json", info, &mut written)?;
    let mut out = std::io::stdout().lock();
    if args.common.json {
        writeln!(out, "{info}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{}: bisection over {} values of {path} for {} = {} ({} evaluations of {} trials, common random numbers, seed {seed})\n",
        base.name,
        settings.len(),
        target.name,
        target.value,
        trace.len(),
        crate::report::summary::group_thousands(args.trials)
    )?;
    let rows: Vec<Vec<String>> = trace
        .iter()
        .map(|row| {
            vec![
                (row.round + 1).to_string(),
                value_text(&settings[row.setting][0].value),
                format!("{:.4}", row.estimates[0]),
            ]
        })
        .collect();
    write!(
        out,
        "{}",
        render(
            &["step".into(), path.clone(), target.name.clone()],
            &rows,
            &[true, true, true],
        )
    )?;
    writeln!(
        out,
        "\nconfirmed on a fresh seed ({confirm_seed}, {} trials each):",
        crate::report::summary::group_thousands(args.confirm)
    )?;
    for (xv, y, b) in [(x0, y0, band0), (x1, y1, band1)] {
        writeln!(out, "  {path} = {xv}: {y:.4} [{:.4}, {:.4}]", b[0], b[1])?;
    }
    writeln!(
        out,
        "\n{} = {} at {path} = {crossing:.3} [{:.3}, {:.3}] (interpolated between {x0} and {x1}; the search's own figure was {search_crossing:.3})\nwrote {}",
        target.name,
        target.value,
        interval[0],
        interval[1],
        out_dir.display()
    )?;
    Ok(())
}

/// Settings `tune` prints at most (the best ones; the trace file has all).
const TUNE_TABLE_ROWS: usize = 12;

/// `tune`'s table: every setting (at most `max_rows`, best first) with its
/// estimate of each target from the last round it reached, the trials it
/// ran and its loss; settings that lasted longer rank first, then by loss.
fn tune_table(
    args: &TuneArgs,
    settings: &[Vec<Override>],
    trace: &[crate::analysis::tune::TraceRow],
    max_rows: usize,
) -> String {
    let mut last: Vec<Option<&crate::analysis::tune::TraceRow>> = vec![None; settings.len()];
    for row in trace {
        last[row.setting] = Some(row);
    }
    let mut reached: Vec<&crate::analysis::tune::TraceRow> = last.into_iter().flatten().collect();
    reached.sort_by(|a, b| {
        b.round
            .cmp(&a.round)
            .then(a.loss.total_cmp(&b.loss))
            .then(a.setting.cmp(&b.setting))
    });
    settings_table(
        args,
        &|row| &settings[row.setting],
        &reached,
        max_rows,
        ("trials", &|row: &crate::analysis::tune::TraceRow| {
            crate::report::summary::group_thousands(row.trials)
        }),
    )
}

/// A table of `ranked` rows (at most `max_rows`): the varied values (of
/// the row's setting, `setting_of`), the `count` column, each target's
/// estimate and the loss.
fn settings_table<'s>(
    args: &TuneArgs,
    setting_of: &dyn Fn(&TraceRow) -> &'s [Override],
    ranked: &[&crate::analysis::tune::TraceRow],
    max_rows: usize,
    count: (&str, &dyn Fn(&crate::analysis::tune::TraceRow) -> String),
) -> String {
    let headers: Vec<String> = args
        .vary
        .iter()
        .map(|v| v.path.clone())
        .chain([count.0.to_string()])
        .chain(
            args.target
                .iter()
                .map(|t| format!("{} (target {})", t.name, t.value)),
        )
        .chain(["loss".to_string()])
        .collect();
    let rows: Vec<Vec<String>> = ranked
        .iter()
        .take(max_rows)
        .map(|row| {
            let mut cells = setting_cells(setting_of(row));
            cells.push(count.1(row));
            cells.extend(row.estimates.iter().map(|e| format!("{e:.4}")));
            cells.push(format!("{:.6}", row.loss));
            cells
        })
        .collect();
    let first: &[Override] = ranked.first().map_or(&[], |row| setting_of(row));
    let numeric = numeric_columns(first, headers.len());
    let mut text = render(&headers, &rows, &numeric);
    if ranked.len() > max_rows {
        text.push_str(&format!(
            "... and {} more settings in tune.csv\n",
            ranked.len() - max_rows
        ));
    }
    text
}

/// Draws `tune.png/.svg` for the grid and `--find`: one panel per target,
/// the search's estimate of it at every setting (from the most trials that
/// setting ran, with the Wilson interval of a rate) against the varied
/// value (or the settings by name when it is not one number), the target
/// as a level line and the chosen setting marked.
#[allow(clippy::too_many_arguments)]
fn write_tune_chart(
    args: &TuneArgs,
    base: &crate::games::LoadedScenario,
    settings: &[Vec<Override>],
    measures: &[crate::analysis::tune::Measure],
    trace: &[crate::analysis::tune::TraceRow],
    best: usize,
    total_trials: u64,
    out_dir: &Path,
) -> Result<Vec<std::path::PathBuf>, crate::report::charts::ChartError> {
    use crate::analysis::sweep::value_number;

    // Each setting's last (largest) estimate row.
    let mut last: Vec<Option<&crate::analysis::tune::TraceRow>> = vec![None; settings.len()];
    for row in trace {
        last[row.setting] = Some(row);
    }
    let numeric: Option<Vec<f64>> = (args.vary.len() == 1)
        .then(|| {
            settings
                .iter()
                .map(|s| s.first().and_then(|o| value_number(&o.value)))
                .collect()
        })
        .flatten();
    let (xs, x_names): (Vec<f64>, Vec<String>) = match numeric {
        Some(xs) => (xs, Vec::new()),
        None => (
            (1..=settings.len()).map(|i| i as f64).collect(),
            settings.iter().map(|s| setting_text(s)).collect(),
        ),
    };
    let x_label = if x_names.is_empty() {
        args.vary[0].path.clone()
    } else {
        varied_paths(args)
    };
    let mut rows: Vec<(f64, &crate::analysis::tune::TraceRow)> = last
        .iter()
        .zip(&xs)
        .filter_map(|(row, &x)| Some((x, (*row)?)))
        .collect();
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    let axis = TuneAxis {
        label: x_label,
        names: x_names,
        chosen_at: xs[best],
        chosen: setting_text(&settings[best]),
        method: format!(
            "successive halving, {} trials in all",
            crate::report::summary::group_thousands(total_trials)
        ),
    };
    draw_tune_chart(args, base, measures, &rows, &axis, out_dir)
}

/// The varied values of a setting, comma-separated.
fn setting_text(setting: &[Override]) -> String {
    setting
        .iter()
        .map(|o| value_text(&o.value))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `--vary` paths, comma-separated.
fn varied_paths(args: &TuneArgs) -> String {
    args.vary
        .iter()
        .map(|v| v.path.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The x axis of a tuning chart and the choice marked on it.
struct TuneAxis {
    /// What x measures.
    label: String,
    /// Names of the positions 1, 2, ... when x is not a number.
    names: Vec<String>,
    /// Where the chosen setting is.
    chosen_at: f64,
    /// The chosen setting's values.
    chosen: String,
    /// How the search ran, for the subtitle.
    method: String,
}

/// Draws `tune.png/.svg`: one panel per target, its estimate in each of
/// `rows` at the row's x (with the Wilson interval of a rate), the target
/// as a level line and the chosen setting marked.
fn draw_tune_chart(
    args: &TuneArgs,
    base: &crate::games::LoadedScenario,
    measures: &[crate::analysis::tune::Measure],
    rows: &[(f64, &crate::analysis::tune::TraceRow)],
    axis: &TuneAxis,
    out_dir: &Path,
) -> Result<Vec<std::path::PathBuf>, crate::report::charts::ChartError> {
    use crate::analysis::tune::Measure;
    use crate::math::stats::wilson_interval;
    use crate::report::charts::{LineChart, LineSeries, Mark, YAxis, write_line_panels};

    let panels: Vec<LineChart> = args
        .target
        .iter()
        .zip(measures)
        .enumerate()
        .map(|(k, (target, measure))| {
            let points: Vec<_> = rows
                .iter()
                .filter_map(|&(x, row)| {
                    let value = *row.estimates.get(k)?;
                    let band = match measure {
                        Measure::Rate(_) if row.trials > 0 && value.is_finite() => {
                            let count = (value * row.trials as f64).round() as u64;
                            Some(wilson_interval(count, row.trials))
                        }
                        _ => None,
                    };
                    Some((x, value, band))
                })
                .collect();
            LineChart {
                title: format!("{} (target {})", target.name, target.value),
                subtitle: String::new(),
                x_label: axis.label.clone(),
                y_label: match measure {
                    Measure::Rate(_) => "rate".into(),
                    Measure::Mean(_) => "mean".into(),
                },
                band: match measure {
                    Measure::Rate(_) => "95% Wilson interval".into(),
                    Measure::Mean(_) => String::new(),
                },
                x_names: axis.names.clone(),
                series: vec![LineSeries {
                    name: "search estimate".into(),
                    points,
                }],
                y_axis: match measure {
                    Measure::Rate(_) => YAxis::Rate,
                    Measure::Mean(_) => YAxis::Fit,
                },
                marks: vec![
                    Mark::Level {
                        y: target.value,
                        label: format!("target {}", target.value),
                    },
                    Mark::At {
                        x: axis.chosen_at,
                        label: format!("chosen {}", axis.chosen),
                    },
                ],
            }
        })
        .collect();
    let title = format!(
        "Tuning {} towards {}",
        varied_paths(args),
        args.target
            .iter()
            .map(|t| format!("{} = {}", t.name, t.value))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let subtitle = format!(
        "{}: {}; chosen {}",
        chart_title(base),
        axis.method,
        axis.chosen
    );
    write_line_panels(&title, &subtitle, &panels, out_dir, "tune")
}
