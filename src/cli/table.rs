//! The aligned tables `sweep` and `tune` print (one row per setting, one
//! column per varied field and per outcome or metric shown), which
//! outcomes a sweep shows (`--show`, else all when few, else the most
//! frequent), and the progress bar over all of a command's settings.

use crate::analysis::tune::{Measure, resolve_measure};
use crate::engine::{DynModel, OutputSpec, RunConfig, RunControl, RunError, Tally};
use crate::report::summary::Summary;

/// Outcomes a sweep shows by default when it does not show them all.
pub(super) const DEFAULT_SHOWN: usize = 5;

/// The outcomes and metrics named by `--show` (empty when none).
pub(super) fn resolve_show(show: &[String], spec: &OutputSpec) -> Result<Vec<Measure>, String> {
    let mut measures: Vec<Measure> = Vec::with_capacity(show.len());
    for name in show {
        let measure = resolve_measure(name, spec).map_err(|e| format!("--show {e}"))?;
        if measures.contains(&measure) {
            return Err(format!(
                "--show {name:?}: named twice; expected each outcome or metric once"
            ));
        }
        measures.push(measure);
    }
    Ok(measures)
}

/// What a sweep shows when `--show` names nothing: every outcome when
/// there are at most [`DEFAULT_SHOWN`], else the [`DEFAULT_SHOWN`] with the
/// highest mean rate over the settings (in the model's order), with a note
/// saying so.
pub(super) fn default_shown(summaries: &[&Summary]) -> (Vec<Measure>, Option<String>) {
    let count = summaries.first().map_or(0, |s| s.outcomes.len());
    if count <= DEFAULT_SHOWN {
        return ((0..count).map(Measure::Rate).collect(), None);
    }
    let mean_rate = |k: usize| -> f64 {
        summaries.iter().map(|s| s.outcomes[k].rate).sum::<f64>() / summaries.len() as f64
    };
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by(|&a, &b| mean_rate(b).total_cmp(&mean_rate(a)).then(a.cmp(&b)));
    order.truncate(DEFAULT_SHOWN);
    order.sort_unstable();
    (
        order.into_iter().map(Measure::Rate).collect(),
        Some(format!(
            "showing the {DEFAULT_SHOWN} most frequent of {count} outcomes; --show LABEL,... picks others (all are in the files)"
        )),
    )
}

/// The header of a shown outcome or metric.
pub(super) fn measure_header(spec: &OutputSpec, measure: Measure) -> String {
    match measure {
        Measure::Rate(k) => spec.outcomes[k].clone(),
        Measure::Mean(k) => format!("{} mean", spec.metrics[k].name),
    }
}

/// A shown outcome's rate with its 95% Wilson interval, or a metric's mean
/// with its 95% normal interval, from one setting's summary.
pub(super) fn measure_cell(summary: &Summary, measure: Measure) -> String {
    match measure {
        Measure::Rate(k) => {
            let o = &summary.outcomes[k];
            format!("{:.4} [{:.4}, {:.4}]", o.rate, o.ci95[0], o.ci95[1])
        }
        Measure::Mean(k) => {
            let m = &summary.metrics[k];
            format!("{:.3} ± {:.3}", m.mean, 1.96 * m.se)
        }
    }
}

/// `headers` and `rows` as an aligned table: each column as wide as its
/// widest cell, text columns (`numeric[c]` false) left-aligned, the others
/// right-aligned, two spaces between columns, no trailing spaces.
pub(super) fn render(headers: &[String], rows: &[Vec<String>], numeric: &[bool]) -> String {
    let width = |c: usize| {
        rows.iter()
            .map(|r| r[c].chars().count())
            .chain([headers[c].chars().count()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..headers.len()).map(width).collect();
    let line = |cells: &[String]| {
        let text = cells
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                if numeric[c] {
                    format!("{cell:>w$}", w = widths[c])
                } else {
                    format!("{cell:<w$}", w = widths[c])
                }
            })
            .collect::<Vec<_>>()
            .join("  ");
        text.trim_end().to_string()
    };
    let mut out = line(headers);
    out.push('\n');
    for row in rows {
        out.push_str(&line(row));
        out.push('\n');
    }
    out
}

/// Runs `config`'s trials of `model`, advancing `bar` from `offset` (the
/// trials of the command's earlier settings) as each wave of blocks ends.
pub(super) fn run_counted(
    model: &dyn DynModel,
    config: &RunConfig,
    bar: &indicatif::ProgressBar,
    offset: u64,
) -> Result<Tally, RunError> {
    let start = config.trials.start;
    let mut advance = |_: &Tally, done: u64| -> Result<(), String> {
        bar.set_position(offset.saturating_add(done - start));
        Ok(())
    };
    let control = RunControl {
        on_wave: Some(&mut advance),
        ..RunControl::default()
    };
    Ok(model.run_controlled(config, None, control)?.tally)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_line_up_whatever_the_cell_widths() {
        let table = render(
            &["level".into(), "First padwar wins".into()],
            &[
                vec!["9".into(), "0.5 [0.4, 0.6]".into()],
                vec!["10".into(), "0.75 [0.7, 0.8]".into()],
            ],
            &[true, true],
        );
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines[0], "level  First padwar wins");
        assert_eq!(lines[1], "    9     0.5 [0.4, 0.6]");
        assert_eq!(lines[2], "   10    0.75 [0.7, 0.8]");
        let texts = render(&["a".into()], &[vec!["long".into()]], &[false]);
        assert_eq!(texts, "a\nlong\n");
    }
}
