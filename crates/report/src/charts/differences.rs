//! Dot-and-whisker charts: one row per label, a value as a point with its
//! 95% interval, about a dashed reference line; a value whose interval is
//! clear of the line is coloured (green above, red below). A comparison's
//! changes (second run minus first) are read about zero on an axis
//! symmetric about it; a breakdown's rates (each hero's win rate) from zero,
//! about the rate of all rows pooled.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::layout::{
    FixedTicks, draw_err, ensure_fonts, fit_label, nice_ceil, nice_ticks, step_decimals, titled,
    write_png, write_svg,
};
use super::{
    ChartError, DESC_SIZE, FONT, GRID_BOLD, HEIGHT, LABEL_SIZE, MARK_COLOR, OTHER_COLOR, PALETTE,
    TEXT_COLOR, WHISKER_COLOR, WIDTH,
};

/// The room right of the plot for the column of values.
const VALUE_COLUMN: u32 = 90;

/// One row of a [`DifferenceChart`].
#[derive(Debug, Clone, PartialEq)]
pub struct DifferenceRow {
    /// What changed (an outcome label).
    pub label: String,
    /// The change.
    pub difference: f64,
    /// Its 95% interval.
    pub ci95: [f64; 2],
}

/// What a [`DifferenceChart`]'s values are, which sets its axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scale {
    /// Signed changes: the axis is symmetric about zero, the line at zero.
    Change,
    /// Rates: the axis runs from zero to a round number past the highest
    /// interval (at most 1), the line at `reference`.
    Rate {
        /// Where the dashed line is drawn (the rate of all rows pooled).
        reference: f64,
    },
}

/// Values with their intervals, first row on top.
#[derive(Debug, Clone, PartialEq)]
pub struct DifferenceChart {
    /// Title at the top.
    pub title: String,
    /// The line below the title; may be empty.
    pub subtitle: String,
    /// What the x axis measures.
    pub x_label: String,
    /// Changes or rates.
    pub scale: Scale,
    /// The rows.
    pub rows: Vec<DifferenceRow>,
}

/// Writes `chart` as `dir/<stem>.png` and `dir/<stem>.svg` (nothing when it
/// has no rows).
pub fn write_difference_chart(
    chart: &DifferenceChart,
    dir: &Path,
    stem: &str,
) -> Result<Vec<PathBuf>, ChartError> {
    if chart.rows.is_empty() {
        return Ok(Vec::new());
    }
    ensure_fonts()?;
    let rows = u32::try_from(chart.rows.len()).unwrap_or(u32::MAX);
    let height = HEIGHT
        .max(rows.saturating_mul(42).saturating_add(230))
        .min(8000);
    Ok(vec![
        write_png(dir, stem, (WIDTH, height), |root| draw(root, chart))?,
        write_svg(dir, stem, (WIDTH, height), |root| draw(root, chart))?,
    ])
}

/// A value with four decimals, signed if it is a change.
fn value_text(v: f64, scale: Scale) -> String {
    match (v.is_finite(), scale) {
        (false, _) => "n/a".into(),
        (true, Scale::Change) => format!("{v:+.4}"),
        (true, Scale::Rate { .. }) => format!("{v:.4}"),
    }
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &DifferenceChart,
) -> Result<(), ChartError> {
    root.fill(&WHITE).map_err(draw_err)?;
    let area = titled(root, &chart.title, &chart.subtitle)?;
    let n = chart.rows.len();
    let n_f = n as f64;
    let reach = chart
        .rows
        .iter()
        .flat_map(|r| [r.difference, r.ci95[0], r.ci95[1]])
        .filter(|v| v.is_finite())
        .fold(0.0f64, |m, v| m.max(v.abs()));
    // Changes: symmetric about zero, to a round number past the widest
    // interval. Rates: from zero to a round number past the highest.
    let (low, high, reference) = match chart.scale {
        Scale::Change => {
            let half = nice_ceil((reach * 1.3).max(1e-4));
            (-half, half, 0.0)
        }
        Scale::Rate { reference } => (0.0, nice_ceil((reach * 1.1).max(1e-4)).min(1.0), reference),
    };
    let (x_ticks, step) = nice_ticks(low, high, 8, false);
    let decimals = step_decimals(step);

    let label_style = TextStyle::from((FONT, LABEL_SIZE).into_font()).color(&TEXT_COLOR);
    let mut labels = Vec::with_capacity(n);
    let mut widest = 0;
    for r in &chart.rows {
        let (text, w) = fit_label(root, &r.label, &label_style, area.dim_in_pixel().0 * 2 / 5)?;
        widest = widest.max(w);
        labels.push(text);
    }
    // Row i is drawn in the band [n-1-i, n-i], so the first is on top.
    let centre = |i: usize| n_f - 0.5 - i as f64;
    let y_ticks: Vec<f64> = (0..n).map(centre).collect();
    let y_fmt = |y: &f64| {
        let i = (n_f - 0.5 - y).round();
        if i >= 0.0 && (i as usize) < n {
            labels[i as usize].clone()
        } else {
            String::new()
        }
    };
    let x_fmt = |v: &f64| {
        if v.abs() < step * 1e-6 {
            "0".to_string()
        } else if chart.scale == Scale::Change {
            format!("{v:+.decimals$}")
        } else {
            format!("{v:.decimals$}")
        }
    };
    let mut cc = ChartBuilder::on(&area)
        .margin_left(16)
        .margin_right(VALUE_COLUMN)
        .margin_bottom(10)
        .x_label_area_size(70)
        .y_label_area_size(widest + 24)
        .build_cartesian_2d(
            FixedTicks::new(low..high, x_ticks),
            FixedTicks::new(0.0..n_f, y_ticks),
        )
        .map_err(draw_err)?;
    cc.configure_mesh()
        .disable_y_mesh()
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style(label_style.clone())
        .axis_desc_style(TextStyle::from((FONT, DESC_SIZE).into_font()).color(&TEXT_COLOR))
        .x_desc(chart.x_label.as_str())
        .bold_line_style(GRID_BOLD)
        .draw()
        .map_err(draw_err)?;
    cc.draw_series(std::iter::once(DashedPathElement::new(
        vec![(reference, 0.0), (reference, n_f)],
        8,
        5,
        MARK_COLOR.stroke_width(2),
    )))
    .map_err(draw_err)?;
    let clamp = |v: f64| {
        if v.is_nan() { 0.0 } else { v.clamp(low, high) }
    };
    let (x_px, _) = cc.plotting_area().get_pixel_range();
    for (i, r) in chart.rows.iter().enumerate() {
        let y = centre(i);
        let (lo, hi) = (clamp(r.ci95[0]), clamp(r.ci95[1]));
        let whisker = WHISKER_COLOR.stroke_width(2);
        cc.draw_series([
            PathElement::new(vec![(lo, y), (hi, y)], whisker),
            PathElement::new(vec![(lo, y - 0.18), (lo, y + 0.18)], whisker),
            PathElement::new(vec![(hi, y - 0.18), (hi, y + 0.18)], whisker),
        ])
        .map_err(draw_err)?;
        let color = if r.ci95[0] > reference {
            PALETTE[2]
        } else if r.ci95[1] < reference {
            PALETTE[3]
        } else {
            OTHER_COLOR
        };
        let (px, py) = cc.backend_coord(&(clamp(r.difference), y));
        root.draw(&Polygon::new(
            vec![(px, py - 8), (px + 8, py), (px, py + 8), (px - 8, py)],
            color.filled(),
        ))
        .map_err(draw_err)?;
        // The value in a column right of the plot, as in a table.
        root.draw_text(
            &value_text(r.difference, chart.scale),
            &label_style.pos(Pos::new(HPos::Right, VPos::Center)),
            (x_px.end + i32::try_from(VALUE_COLUMN).unwrap_or(0) - 8, py),
        )
        .map_err(draw_err)?;
    }
    Ok(())
}
