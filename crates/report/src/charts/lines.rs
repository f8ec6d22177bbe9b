//! Line charts: series of points with optional intervals, as drawn for a
//! metric trend, a sweep over one parameter, the estimates of a tuning
//! search or the bench history; several may be stacked as panels of one
//! figure.
//!
//! The legend sits to the right of the plot, so it never hides a line or
//! stretches the y axis; at most [`PALETTE`](super::PALETTE)`.len()` series
//! are drawn (a chart with more names those left out), so no two share a
//! colour, and each has its own marker shape as well.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use crate::summary::Summary;
use barsoom_engine::TrendSpec;
use barsoom_engine::math::stats::Z95;

use super::layout::{
    FixedTicks, draw_err, ensure_fonts, nice_ceil, nice_ticks, plot_builder, step_decimals, titled,
    trials_phrase, write_png, write_svg,
};
use super::legend::{
    LEGEND_GAP, LegendEntry, Swatch, draw_legend, draw_marker, legend_width, series_color,
};
use super::{
    CHOSEN_COLOR, ChartError, DESC_SIZE, FONT, GRID_BOLD, GRID_LIGHT, HEIGHT, LABEL_SIZE,
    MARK_COLOR, PALETTE, TEXT_COLOR, WIDTH,
};

/// The line chart of a trend: each point the mean of its metric, with the
/// 95% interval (mean +/- 1.96 standard errors) as a band; metrics without
/// a mean are left out, and a trend with no point left is not drawn.
pub(super) fn trend_chart(summary: &Summary, trend: &TrendSpec) -> Option<LineChart> {
    let series: Vec<LineSeries> = trend
        .lines
        .iter()
        .map(|line| LineSeries {
            name: line.name.clone(),
            points: line
                .points
                .iter()
                .filter_map(|&(x, m)| {
                    let row = summary.metrics.get(m)?;
                    let band = row
                        .se
                        .is_finite()
                        .then_some((row.mean - Z95 * row.se, row.mean + Z95 * row.se));
                    row.mean.is_finite().then_some((x, row.mean, band))
                })
                .collect(),
        })
        .filter(|s| !s.points.is_empty())
        .collect();
    (!series.is_empty()).then(|| LineChart {
        title: trend.title.clone(),
        subtitle: format!("{} · {}", trials_phrase(summary, 0), summary.title()),
        x_label: trend.x_label.clone(),
        y_label: trend.y_label.clone(),
        band: "95% interval of the mean".into(),
        x_names: Vec::new(),
        series,
        y_axis: trend.y_max.map_or(YAxis::Fit, YAxis::UpTo),
        marks: Vec::new(),
    })
}

/// A point `(x, y)` of a line with an optional band `(low, high)` around it
/// (an interval, or the spread of repeated timings).
pub type LinePoint = (f64, f64, Option<(f64, f64)>);

/// One line of a [`LineChart`].
#[derive(Debug, Clone, PartialEq)]
pub struct LineSeries {
    /// Legend label.
    pub name: String,
    /// The points, in increasing `x`.
    pub points: Vec<LinePoint>,
}

/// How a line chart's y axis is scaled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum YAxis {
    /// From zero (or the lowest value) to a round number above the data.
    Fit,
    /// From zero to this fixed top.
    UpTo(f64),
    /// Rates: from 0 to 1, or zoomed to a round number above the data when
    /// everything lies below 0.5, the axis label then saying so.
    Rate,
}

/// A reference line drawn across the plot and named in the legend.
#[derive(Debug, Clone, PartialEq)]
pub enum Mark {
    /// A horizontal line at `y` (a target), dashed dark grey.
    Level {
        /// Where.
        y: f64,
        /// Legend label.
        label: String,
    },
    /// A vertical line at `x` (a chosen setting), dashed red.
    At {
        /// Where.
        x: f64,
        /// Legend label.
        label: String,
    },
}

impl Mark {
    fn color(&self) -> RGBColor {
        match self {
            Mark::Level { .. } => MARK_COLOR,
            Mark::At { .. } => CHOSEN_COLOR,
        }
    }
}

/// A chart of one or more lines against a numeric x axis, with bands.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart {
    /// Title at the top (a panel's heading in a figure of panels).
    pub title: String,
    /// The line below the title (the scenario, the trials); may be empty.
    pub subtitle: String,
    /// What the x axis measures.
    pub x_label: String,
    /// What the y axis measures.
    pub y_label: String,
    /// What the bands around the lines show (e.g. "95% Wilson interval"),
    /// for the legend; empty when there are none.
    pub band: String,
    /// When not empty, the x values are the positions 1, 2, ... of these
    /// named settings, and the ticks show the names.
    pub x_names: Vec<String>,
    /// The lines.
    pub series: Vec<LineSeries>,
    /// How the y axis is scaled.
    pub y_axis: YAxis,
    /// Reference lines.
    pub marks: Vec<Mark>,
}

/// Writes `chart` as `dir/<stem>.png` and `dir/<stem>.svg`.
pub fn write_line_chart(
    chart: &LineChart,
    dir: &Path,
    stem: &str,
) -> Result<Vec<PathBuf>, ChartError> {
    ensure_fonts()?;
    Ok(vec![
        write_png(dir, stem, (WIDTH, HEIGHT), |root| draw_single(root, chart))?,
        write_svg(dir, stem, (WIDTH, HEIGHT), |root| draw_single(root, chart))?,
    ])
}

/// Writes `panels` stacked in one figure under `title` and `subtitle`, as
/// `dir/<stem>.png` and `.svg`; each panel's title is its heading.
pub fn write_line_panels(
    title: &str,
    subtitle: &str,
    panels: &[LineChart],
    dir: &Path,
    stem: &str,
) -> Result<Vec<PathBuf>, ChartError> {
    ensure_fonts()?;
    let n = u32::try_from(panels.len().max(1)).unwrap_or(1);
    let height = (130 + n * 440).min(8000);
    Ok(vec![
        write_png(dir, stem, (WIDTH, height), |root| {
            draw_panels(root, title, subtitle, panels)
        })?,
        write_svg(dir, stem, (WIDTH, height), |root| {
            draw_panels(root, title, subtitle, panels)
        })?,
    ])
}

fn draw_single<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &LineChart,
) -> Result<(), ChartError> {
    root.fill(&WHITE).map_err(draw_err)?;
    let area = titled(root, &chart.title, &chart.subtitle)?;
    draw_panel(root, &area, chart, legend_column(root, &[chart])?)
}

fn draw_panels<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    subtitle: &str,
    panels: &[LineChart],
) -> Result<(), ChartError> {
    root.fill(&WHITE).map_err(draw_err)?;
    let area = titled(root, title, subtitle)?;
    let legend_w = legend_column(root, &panels.iter().collect::<Vec<_>>())?;
    let heading =
        TextStyle::from((FONT, DESC_SIZE, FontStyle::Bold).into_font()).color(&TEXT_COLOR);
    for (panel, part) in panels
        .iter()
        .zip(area.split_evenly((panels.len().max(1), 1)))
    {
        let (_, h) = root
            .estimate_text_size(&panel.title, &heading)
            .map_err(draw_err)?;
        part.draw_text(&panel.title, &heading, (16, 0))
            .map_err(draw_err)?;
        let below = part.split_vertically(h + 8).1;
        draw_panel(root, &below, panel, legend_w)?;
    }
    Ok(())
}

/// The series a chart draws: all of them when the palette has room, else
/// the first `PALETTE.len() - 1` and the number left out.
fn shown(series: &[LineSeries]) -> (&[LineSeries], usize) {
    if series.len() <= PALETTE.len() {
        (series, 0)
    } else {
        let keep = PALETTE.len() - 1;
        (&series[..keep], series.len() - keep)
    }
}

/// The y range of `chart` and the y label (saying when a rate axis is
/// zoomed).
fn y_range(chart: &LineChart, series: &[LineSeries]) -> (f64, f64, String) {
    let values = series
        .iter()
        .flat_map(|s| s.points.iter())
        .flat_map(|&(_, y, band)| {
            let (lo, hi) = band.unwrap_or((y, y));
            [y, lo, hi]
        })
        .chain(chart.marks.iter().filter_map(|m| match m {
            Mark::Level { y, .. } => Some(*y),
            Mark::At { .. } => None,
        }))
        .filter(|v| v.is_finite());
    let (lo, hi) = values.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    match chart.y_axis {
        YAxis::UpTo(top) if top > 0.0 => (0.0, top, chart.y_label.clone()),
        YAxis::Rate if hi > 0.5 => (0.0, 1.0, chart.y_label.clone()),
        YAxis::Rate => {
            let top = round_top(hi * 1.05).clamp(0.01, 1.0);
            (
                0.0,
                top,
                format!("{}, axis zoomed to 0–{top}", chart.y_label),
            )
        }
        _ => {
            let top = if hi > 0.0 { round_top(hi * 1.05) } else { 1.0 };
            let bottom = if lo < 0.0 {
                -round_top(-lo * 1.05)
            } else {
                0.0
            };
            (bottom, top, chart.y_label.clone())
        }
    }
}

/// A round number a little above `hi`: the next multiple of a round step
/// about a fifth of it (0.2585 gives 0.3, not 0.5).
fn round_top(hi: f64) -> f64 {
    if !(hi.is_finite() && hi > 0.0) {
        return 1.0;
    }
    let step = nice_ceil(hi / 5.0);
    let top = (hi / step - 1e-9).ceil() * step;
    // Round away the float noise of the multiplication.
    let decimals = step_decimals(step) as i32;
    let scale = 10f64.powi(decimals);
    (top * scale).round() / scale
}

#[cfg(test)]
#[test]
fn the_top_of_a_zoomed_axis_is_close_above_the_data() {
    assert_eq!(round_top(0.2585), 0.3);
    assert_eq!(round_top(0.041), 0.05);
    assert_eq!(round_top(17.3), 20.0);
    assert_eq!(round_top(0.0), 1.0);
}

/// How to label `names` evenly spaced along the x axis: every k-th name,
/// and the font size. Every name is shown when each pair of neighbours
/// fits the space between their ticks at some size from [`LABEL_SIZE`]
/// down to three quarters of it (an average glyph is about half the size
/// wide); otherwise every k-th name at full size.
fn name_spacing(names: &[String]) -> (usize, f64) {
    const GAP: f64 = 12.0;
    let n = names.len();
    let spacing = f64::from(WIDTH - 400) / n.max(1) as f64;
    let chars: Vec<f64> = names.iter().map(|t| t.chars().count() as f64).collect();
    let widest_pair = chars
        .windows(2)
        .map(|w| (w[0] + w[1]) / 2.0)
        .fold(0.0, f64::max);
    for size in [LABEL_SIZE, LABEL_SIZE * 7.0 / 8.0, LABEL_SIZE * 3.0 / 4.0] {
        if widest_pair * size / 2.0 + GAP <= spacing {
            return (1, size);
        }
    }
    let longest = chars.iter().copied().fold(1.0, f64::max);
    let fit = ((spacing * n as f64) / (longest * LABEL_SIZE / 2.0 + GAP)).max(2.0) as usize;
    (n.div_ceil(fit).max(1), LABEL_SIZE)
}

#[cfg(test)]
#[test]
fn names_on_the_x_axis_shrink_before_any_is_left_out() {
    let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // Short names: all, full size.
    assert_eq!(
        name_spacing(&names(&["random", "sensible", "search:20"])),
        (1, LABEL_SIZE)
    );
    // A Jetan ladder: all four, a little smaller.
    let (every, size) = name_spacing(&names(&[
        "2 × random",
        "2 × greedy",
        "2 × mcts:200",
        "2 × alphabeta:20000",
    ]));
    assert_eq!(every, 1);
    assert!((LABEL_SIZE * 0.75..LABEL_SIZE).contains(&size), "{size}");
    // Twenty long names cannot all fit: every k-th, full size.
    let many: Vec<String> = (0..20)
        .map(|i| format!("a long setting name {i}"))
        .collect();
    let (every, size) = name_spacing(&many);
    assert!(every > 1);
    assert_eq!(size, LABEL_SIZE);
}

/// The x range, its ticks, their labels and the labels' font size.
fn x_axis(chart: &LineChart, series: &[LineSeries]) -> (f64, f64, Vec<f64>, Vec<String>, f64) {
    if !chart.x_names.is_empty() {
        let (every, size) = name_spacing(&chart.x_names);
        let n = chart.x_names.len();
        let ticks: Vec<f64> = (0..n).step_by(every).map(|i| (i + 1) as f64).collect();
        let labels = ticks
            .iter()
            .map(|&t| chart.x_names[t as usize - 1].clone())
            .collect();
        return (0.5, n as f64 + 0.5, ticks, labels, size);
    }
    let xs = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .chain(chart.marks.iter().filter_map(|m| match m {
            Mark::At { x, .. } => Some(*x),
            Mark::Level { .. } => None,
        }))
        .filter(|x| x.is_finite());
    let (mut lo, mut hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    let whole = series
        .iter()
        .flat_map(|s| s.points.iter())
        .all(|p| p.0.fract() == 0.0);
    if hi - lo < 1e-9 {
        (lo, hi) = (lo - 1.0, hi + 1.0);
    }
    let (ticks, step) = nice_ticks(lo, hi, 10, whole);
    let decimals = step_decimals(step);
    let labels = ticks.iter().map(|t| format!("{t:.decimals$}")).collect();
    let pad = (hi - lo) * 0.04;
    (lo - pad, hi + pad, ticks, labels, LABEL_SIZE)
}

/// The legend of `chart`: its series (and how many were left out), what
/// the bands show, and its marks.
fn legend_entries(chart: &LineChart) -> Vec<LegendEntry> {
    let (series, left_out) = shown(&chart.series);
    let mut entries: Vec<LegendEntry> = series
        .iter()
        .enumerate()
        .map(|(k, s)| LegendEntry {
            label: s.name.clone(),
            swatch: Swatch::Series(k),
        })
        .collect();
    if left_out > 0 {
        entries.push(LegendEntry {
            label: format!("{left_out} more not drawn"),
            swatch: Swatch::Note,
        });
    }
    if !chart.band.is_empty() {
        entries.push(LegendEntry {
            label: format!("band: {}", chart.band),
            swatch: Swatch::Band,
        });
    }
    entries.extend(chart.marks.iter().map(|m| LegendEntry {
        label: match m {
            Mark::Level { label, .. } | Mark::At { label, .. } => label.clone(),
        },
        swatch: Swatch::Mark(m.color()),
    }));
    entries
}

/// The width of the legend column beside `charts` (stacked panels share
/// one, so their plots line up).
fn legend_column<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    charts: &[&LineChart],
) -> Result<u32, ChartError> {
    let entries: Vec<LegendEntry> = charts.iter().flat_map(|c| legend_entries(c)).collect();
    if entries.is_empty() {
        return Ok(0);
    }
    legend_width(root, &entries, root.dim_in_pixel().0 * 3 / 10)
}

/// Draws `chart` into `area` (below its title), its legend in a column
/// `legend_w` wide to the right of the plot; `root` is the whole canvas,
/// for absolute pixel positions.
fn draw_panel<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    area: &DrawingArea<DB, Shift>,
    chart: &LineChart,
    legend_w: u32,
) -> Result<(), ChartError> {
    let (series, _) = shown(&chart.series);
    let entries = legend_entries(chart);
    let area_width = area.dim_in_pixel().0;
    let plot_part = area
        .split_horizontally(area_width.saturating_sub(legend_w + LEGEND_GAP))
        .0;

    let (y_lo, y_hi, y_label) = y_range(chart, series);
    let (y_ticks, y_step) = nice_ticks(y_lo, y_hi, 8, false);
    let y_decimals = step_decimals(y_step);
    let (x_lo, x_hi, x_ticks, x_labels, x_label_size) = x_axis(chart, series);
    let x_fmt = |v: &f64| {
        x_ticks
            .iter()
            .position(|t| (t - v).abs() < 1e-9)
            .map(|i| x_labels[i].clone())
            .unwrap_or_default()
    };
    let y_fmt = |v: &f64| format!("{v:.y_decimals$}");
    let label_style = TextStyle::from((FONT, LABEL_SIZE).into_font()).color(&TEXT_COLOR);
    let mut cc = plot_builder(&plot_part, 90)
        .build_cartesian_2d(
            FixedTicks::new(x_lo..x_hi, x_ticks.clone()),
            FixedTicks::new(y_lo..y_hi, y_ticks),
        )
        .map_err(draw_err)?;
    cc.configure_mesh()
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style(label_style)
        .x_label_style(TextStyle::from((FONT, x_label_size).into_font()).color(&TEXT_COLOR))
        .axis_desc_style(TextStyle::from((FONT, DESC_SIZE).into_font()).color(&TEXT_COLOR))
        .x_desc(chart.x_label.as_str())
        .y_desc(y_label.as_str())
        .light_line_style(GRID_LIGHT)
        .bold_line_style(GRID_BOLD)
        .draw()
        .map_err(draw_err)?;
    let clamp = |y: f64| {
        if y.is_nan() {
            y_lo
        } else {
            y.clamp(y_lo, y_hi)
        }
    };
    // Bands fainter the more lines there are, so they do not bury them.
    let band_alpha = (0.45 / series.len().max(1) as f64).clamp(0.05, 0.15);
    for (k, line) in series.iter().enumerate() {
        let color = series_color(k);
        let band: Vec<(f64, f64, f64)> = line
            .points
            .iter()
            .filter_map(|&(x, _, band)| band.map(|(low, high)| (x, clamp(low), clamp(high))))
            .collect();
        if band.len() >= 2 {
            let mut outline: Vec<(f64, f64)> = band.iter().map(|&(x, low, _)| (x, low)).collect();
            outline.extend(band.iter().rev().map(|&(x, _, high)| (x, high)));
            cc.draw_series(std::iter::once(Polygon::new(
                outline,
                color.mix(band_alpha).filled(),
            )))
            .map_err(draw_err)?;
        } else {
            cc.draw_series(band.iter().map(|&(x, low, high)| {
                PathElement::new(vec![(x, low), (x, high)], color.stroke_width(2))
            }))
            .map_err(draw_err)?;
        }
        let points: Vec<(f64, f64)> = line
            .points
            .iter()
            .filter(|p| p.1.is_finite())
            .map(|&(x, y, _)| (x, clamp(y)))
            .collect();
        cc.draw_series(std::iter::once(PathElement::new(
            points.clone(),
            color.stroke_width(3),
        )))
        .map_err(draw_err)?;
        for p in points {
            draw_marker(root, cc.backend_coord(&p), k, color)?;
        }
    }
    for mark in &chart.marks {
        let path = match mark {
            Mark::Level { y, .. } => vec![(x_lo, clamp(*y)), (x_hi, clamp(*y))],
            Mark::At { x, .. } => vec![(*x, y_lo), (*x, y_hi)],
        };
        cc.draw_series(std::iter::once(DashedPathElement::new(
            path,
            8,
            5,
            mark.color().stroke_width(2),
        )))
        .map_err(draw_err)?;
    }
    let (x_px, y_px) = cc.plotting_area().get_pixel_range();
    let legend_x = x_px.end + i32::try_from(LEGEND_GAP).unwrap_or(0);
    draw_legend(root, &entries, (legend_x, y_px.start), legend_w)
}
