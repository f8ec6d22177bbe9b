//! Line charts: series of points with optional intervals, as drawn for a
//! metric trend, a sweep over one parameter or the bench history.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::summary::Summary;
use barsoom_engine::TrendSpec;
use barsoom_engine::math::stats::Z95;

use super::layout::{
    draw_err, ensure_fonts, nice_ceil, plot_builder, tick_text, titled, write_png, write_svg,
};
use super::{BAR_COLORS, ChartError, DESC_SIZE, FONT, HEIGHT, LABEL_SIZE, TEXT_COLOR, WIDTH};

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
        x_label: trend.x_label.clone(),
        y_label: trend.y_label.clone(),
        series,
        y_max: trend.y_max,
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

/// A chart of one or more lines against a numeric x axis, with bands.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart {
    /// Title at the top.
    pub title: String,
    /// What the x axis measures.
    pub x_label: String,
    /// What the y axis measures.
    pub y_label: String,
    /// The lines.
    pub series: Vec<LineSeries>,
    /// A fixed top of the y axis (1 for rates); `None` fits the data.
    pub y_max: Option<f64>,
}

/// Writes `chart` as `dir/<stem>.png` and `dir/<stem>.svg`.
pub fn write_line_chart(
    chart: &LineChart,
    dir: &Path,
    stem: &str,
) -> Result<Vec<PathBuf>, ChartError> {
    ensure_fonts()?;
    Ok(vec![
        write_png(dir, stem, (WIDTH, HEIGHT), |root| draw_lines(root, chart))?,
        write_svg(dir, stem, (WIDTH, HEIGHT), |root| draw_lines(root, chart))?,
    ])
}

/// The share of a line chart's plot height the legend of `series` lines
/// takes (rows of the label font plus padding), capped at half.
fn legend_share(series: usize) -> f64 {
    let plot_height = f64::from(HEIGHT) - 160.0;
    let legend_height = series as f64 * (LABEL_SIZE + 8.0) + 24.0;
    (legend_height / plot_height).min(0.5)
}

fn draw_lines<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    line_chart: &LineChart,
) -> Result<(), ChartError> {
    root.fill(&WHITE).map_err(draw_err)?;
    let area = titled(root, &line_chart.title)?;
    let points = line_chart.series.iter().flat_map(|s| s.points.iter());
    let (mut x_lo, mut x_hi, mut y_hi) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64);
    for &(x, y, band) in points {
        x_lo = x_lo.min(x);
        x_hi = x_hi.max(x);
        y_hi = y_hi.max(band.map_or(y, |(_, high)| high.max(y)));
    }
    if !x_lo.is_finite() {
        (x_lo, x_hi) = (0.0, 1.0);
    }
    if x_hi - x_lo < 1e-9 {
        (x_lo, x_hi) = (x_lo - 0.5, x_hi + 0.5);
    }
    let pad = (x_hi - x_lo) * 0.04;
    // Whole-number x data (thread counts, settings) gets whole-number ticks.
    let whole = line_chart
        .series
        .iter()
        .flat_map(|s| s.points.iter())
        .all(|p| p.0.fract() == 0.0);
    let x_labels = if whole && x_hi - x_lo <= 12.0 {
        (x_hi - x_lo) as usize + 1
    } else {
        10
    };
    let y_max = line_chart.y_max.unwrap_or_else(|| nice_ceil(y_hi * 1.08));
    // Headroom above the data for the legend, so it never hides a line (in
    // a sweep the lines cross and fill every corner); ticks stop at the data.
    let axis_top = y_max / (1.0 - legend_share(line_chart.series.len()));
    let y_fmt = |v: &f64| {
        if *v > y_max * (1.0 + 1e-9) {
            String::new()
        } else {
            tick_text(*v, y_max)
        }
    };
    let x_fmt = |v: &f64| {
        if (v - v.round()).abs() < 1e-9 {
            format!("{v:.0}")
        } else {
            format!("{v}")
        }
    };
    let label_style = TextStyle::from((FONT, LABEL_SIZE).into_font()).color(&TEXT_COLOR);
    let mut chart = plot_builder(&area, 120)
        .build_cartesian_2d((x_lo - pad)..(x_hi + pad), 0.0..axis_top)
        .map_err(draw_err)?;
    chart
        .configure_mesh()
        .x_labels(x_labels)
        .y_labels(8)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style(label_style.clone())
        .axis_desc_style(TextStyle::from((FONT, DESC_SIZE).into_font()).color(&TEXT_COLOR))
        .x_desc(line_chart.x_label.as_str())
        .y_desc(line_chart.y_label.as_str())
        .light_line_style(RGBColor(0xee, 0xee, 0xee))
        .bold_line_style(RGBColor(0xd8, 0xd8, 0xd8))
        .draw()
        .map_err(draw_err)?;
    for (i, series) in line_chart.series.iter().enumerate() {
        let color = BAR_COLORS[i % BAR_COLORS.len()];
        let band: Vec<(f64, f64, f64)> = series
            .points
            .iter()
            .filter_map(|&(x, _, band)| band.map(|(low, high)| (x, low, high)))
            .collect();
        if band.len() >= 2 {
            let mut outline: Vec<(f64, f64)> = band.iter().map(|&(x, low, _)| (x, low)).collect();
            outline.extend(band.iter().rev().map(|&(x, _, high)| (x, high)));
            chart
                .draw_series(std::iter::once(Polygon::new(
                    outline,
                    color.mix(0.18).filled(),
                )))
                .map_err(draw_err)?;
        } else {
            chart
                .draw_series(band.iter().map(|&(x, low, high)| {
                    PathElement::new(vec![(x, low), (x, high)], color.stroke_width(2))
                }))
                .map_err(draw_err)?;
        }
        let line: Vec<(f64, f64)> = series.points.iter().map(|&(x, y, _)| (x, y)).collect();
        chart
            .draw_series(plotters::series::LineSeries::new(
                line.clone(),
                color.stroke_width(3),
            ))
            .map_err(draw_err)?
            .label(series.name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(3))
            });
        chart
            .draw_series(line.iter().map(|&p| Circle::new(p, 5, color.filled())))
            .map_err(draw_err)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font(label_style)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(0xb0, 0xb0, 0xb0))
        .draw()
        .map_err(draw_err)?;
    Ok(())
}
