//! Charts of a [`Summary`]: outcome rates with their 95% intervals, and the
//! distribution of the length of play. Each chart is written as PNG and SVG.
//!
//! Text is rendered with the DejaVu Sans font embedded in the binary (via
//! plotters' `ab_glyph` feature), so no system fonts are needed.

use std::fmt::Display;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::RangedCoordf64;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontStyle, register_font};

use crate::analysis::stats::Z95;
use crate::engine::TrendSpec;
use crate::report::files::{AtomicFile, OutputError, write_atomic};
use crate::report::summary::{Summary, group_thousands};

/// Errors drawing or saving a chart.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    /// The embedded font could not be loaded.
    #[error("cannot load the chart font: {0}")]
    Font(String),
    /// Plotters failed to draw or encode a chart.
    #[error("cannot draw chart: {0}")]
    Draw(String),
    /// Writing a chart file failed.
    #[error("cannot write chart file: {0}")]
    Output(#[from] OutputError),
}

/// The family name the embedded font is registered under.
const FONT: &str = "sans-serif";
/// Chart width in pixels.
const WIDTH: u32 = 1000;
/// Minimum chart height in pixels.
const HEIGHT: u32 = 600;
/// Title font size.
const TITLE_SIZE: f64 = 28.0;
/// Axis-description font size.
const DESC_SIZE: f64 = 20.0;
/// Tick-label and annotation font size.
const LABEL_SIZE: f64 = 18.0;
/// Above this many distinct values the length histogram is binned.
const MAX_UNBINNED: u64 = 60;
/// The number of bins a binned length histogram aims for.
const TARGET_BINS: u64 = 40;

const BAR_COLORS: [RGBColor; 8] = [
    RGBColor(0x4c, 0x72, 0xb0),
    RGBColor(0xdd, 0x84, 0x52),
    RGBColor(0x55, 0xa8, 0x68),
    RGBColor(0xc4, 0x4e, 0x52),
    RGBColor(0x81, 0x72, 0xb3),
    RGBColor(0x93, 0x78, 0x60),
    RGBColor(0xda, 0x8b, 0xc3),
    RGBColor(0x8c, 0x8c, 0x8c),
];
const WHISKER_COLOR: RGBColor = RGBColor(0x20, 0x20, 0x20);
const TEXT_COLOR: RGBColor = RGBColor(0x20, 0x20, 0x20);
const MEAN_COLOR: RGBColor = RGBColor(0xc4, 0x4e, 0x52);

/// Draws every chart for `summary` into `dir` (which exists), each as PNG
/// and SVG, and returns the paths written.
///
/// `outcomes.{png,svg}` is drawn when there is at least one outcome;
/// `length.{png,svg}` when the summary carries a non-empty length histogram
/// with at least one counted trial. Every file is rendered to a temporary
/// file in `dir` and renamed into place, so no chart is ever half-written.
pub fn write_charts(summary: &Summary, dir: &Path) -> Result<Vec<PathBuf>, ChartError> {
    ensure_fonts()?;
    let mut written = Vec::new();

    if !summary.outcomes.is_empty() {
        // Give each outcome at least ~46 px of plot height.
        let rows = u32::try_from(summary.outcomes.len()).unwrap_or(u32::MAX);
        let height = HEIGHT
            .max(rows.saturating_mul(46).saturating_add(200))
            .min(8000);
        written.push(write_png(dir, "outcomes", (WIDTH, height), |root| {
            draw_outcomes(root, summary)
        })?);
        written.push(write_svg(dir, "outcomes", (WIDTH, height), |root| {
            draw_outcomes(root, summary)
        })?);
    }

    if let Some(hist) = LengthChart::from_summary(summary) {
        written.push(write_png(dir, "length", (WIDTH, HEIGHT), |root| {
            draw_length(root, summary, &hist)
        })?);
        written.push(write_svg(dir, "length", (WIDTH, HEIGHT), |root| {
            draw_length(root, summary, &hist)
        })?);
    }

    for trend in &summary.trends {
        if let Some(chart) = trend_chart(summary, trend) {
            written.extend(write_line_chart(&chart, dir, &trend.stem)?);
        }
    }

    Ok(written)
}

/// The line chart of a trend: each point the mean of its metric, with the
/// 95% interval (mean +/- 1.96 standard errors) as a band; metrics without
/// a mean are left out, and a trend with no point left is not drawn.
fn trend_chart(summary: &Summary, trend: &TrendSpec) -> Option<LineChart> {
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

/// Registers the embedded DejaVu Sans fonts under [`FONT`], once.
fn ensure_fonts() -> Result<(), ChartError> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            register_font(FONT, FontStyle::Normal, dejavu::sans::regular())
                .map_err(|_| "DejaVu Sans is not a valid font".to_string())?;
            register_font(FONT, FontStyle::Bold, dejavu::sans::bold())
                .map_err(|_| "DejaVu Sans Bold is not a valid font".to_string())
        })
        .clone()
        .map_err(ChartError::Font)
}

fn draw_err<E: Display>(e: E) -> ChartError {
    ChartError::Draw(e.to_string())
}

/// Renders `draw` into `dir/<stem>.png` atomically.
fn write_png<F>(dir: &Path, stem: &str, size: (u32, u32), draw: F) -> Result<PathBuf, ChartError>
where
    F: FnOnce(&DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), ChartError>,
{
    // The bitmap encoder picks the format from the temporary file's extension.
    let file = AtomicFile::create_with_suffix(&dir.join(format!("{stem}.png")), ".png")?;
    {
        let root = BitMapBackend::new(file.temp_path(), size).into_drawing_area();
        draw(&root)?;
        root.present().map_err(draw_err)?;
    }
    Ok(file.commit()?)
}

/// Renders `draw` into `dir/<stem>.svg` atomically.
fn write_svg<F>(dir: &Path, stem: &str, size: (u32, u32), draw: F) -> Result<PathBuf, ChartError>
where
    F: FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), ChartError>,
{
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root)?;
        root.present().map_err(draw_err)?;
    }
    Ok(write_atomic(
        &dir.join(format!("{stem}.svg")),
        svg.as_bytes(),
    )?)
}

/// The trial count for titles: "1,000,000 trials" or "exact".
fn trials_phrase(summary: &Summary, fallback_total: u64) -> String {
    if summary.exact {
        return "exact solution".to_string();
    }
    let n = if summary.trials > 0 {
        summary.trials
    } else {
        fallback_total
    };
    format!(
        "{} trial{}",
        group_thousands(n),
        if n == 1 { "" } else { "s" }
    )
}

/// Draws `title` centred at the top of `root` (shrinking the font until it
/// fits the width) and returns the area below it.
fn titled<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
) -> Result<DrawingArea<DB, Shift>, ChartError> {
    let avail = root.dim_in_pixel().0.saturating_sub(40);
    let mut size = TITLE_SIZE;
    let mut text = title.to_string();
    loop {
        let style = TextStyle::from((FONT, size, FontStyle::Bold).into_font()).color(&TEXT_COLOR);
        let (w, _) = root.estimate_text_size(&text, &style).map_err(draw_err)?;
        if w <= avail {
            break;
        }
        if size > 16.0 {
            size -= 2.0;
        } else if !shorten(&mut text) {
            break;
        }
    }
    let style = TextStyle::from((FONT, size, FontStyle::Bold).into_font()).color(&TEXT_COLOR);
    let (_, h) = root.estimate_text_size(&text, &style).map_err(draw_err)?;
    let top = 14;
    let style = style.pos(Pos::new(HPos::Center, VPos::Top));
    let center = i32::try_from(root.dim_in_pixel().0 / 2).unwrap_or(0);
    root.draw_text(&text, &style, (center, top))
        .map_err(draw_err)?;
    let used = u32::try_from(top).unwrap_or(0) + h + 14;
    Ok(root.split_vertically(used).1)
}

/// Drops the last character of `text` (keeping a trailing ellipsis);
/// false when nothing is left to drop.
fn shorten(text: &mut String) -> bool {
    if text.ends_with('…') {
        text.pop();
    }
    if text.pop().is_none() {
        return false;
    }
    let trimmed = text.trim_end().len();
    text.truncate(trimmed);
    text.push('…');
    true
}

/// `label` shortened with an ellipsis until it is at most `max_w` px wide.
fn fit_label<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    label: &str,
    style: &TextStyle,
    max_w: u32,
) -> Result<(String, u32), ChartError> {
    let mut text = label.to_string();
    loop {
        let (w, _) = root.estimate_text_size(&text, style).map_err(draw_err)?;
        if w <= max_w || !shorten(&mut text) {
            return Ok((text, w));
        }
    }
}

/// A rate as printed by its bar.
fn rate_text(rate: f64) -> String {
    if !rate.is_finite() {
        "n/a".to_string()
    } else if rate > 0.0 && rate < 0.000_05 {
        format!("{rate:.1e}")
    } else {
        format!("{rate:.4}")
    }
}

/// A tick-label formatter for a linear axis running from 0 to `max`.
fn tick_text(v: f64, max: f64) -> String {
    let step = max / 10.0;
    let decimals = if step.is_finite() && step > 0.0 {
        (-step.log10()).ceil().clamp(0.0, 6.0) as usize
    } else {
        2
    };
    format!("{v:.decimals$}")
}

/// Smallest "nice" number (1, 2, 2.5 or 5 times a power of ten) at least `x`.
fn nice_ceil(x: f64) -> f64 {
    if !x.is_finite() || x <= 0.0 {
        return 1.0;
    }
    let scale = 10f64.powf(x.log10().floor());
    for m in [1.0, 2.0, 2.5, 5.0, 10.0] {
        if m * scale >= x * (1.0 - 1e-9) {
            return m * scale;
        }
    }
    10.0 * scale
}

/// A linear `f64` axis whose labelled ticks sit exactly at `ticks` (plotters'
/// own `with_key_points` wrapper cannot be used with `configure_mesh` on
/// `f64` axes, as it lacks a value formatter).
struct FixedTicks {
    inner: RangedCoordf64,
    ticks: Vec<f64>,
}

impl FixedTicks {
    fn new(range: Range<f64>, ticks: Vec<f64>) -> Self {
        FixedTicks {
            inner: range.into(),
            ticks,
        }
    }
}

impl Ranged for FixedTicks {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        // Only bold (labelled) points: no light mesh lines in between.
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.inner.range()
    }
}

/// A chart builder with the margins and axis-label room of the x-y charts.
fn plot_builder<'a, 'b, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    y_label_width: u32,
) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(area);
    builder
        .margin_left(16)
        .margin_right(30)
        .margin_bottom(10)
        .x_label_area_size(70)
        .y_label_area_size(y_label_width);
    builder
}

/// Clamps a possibly-NaN value into `[lo, hi]` (NaN becomes `lo`).
fn clamp_finite(v: f64, lo: f64, hi: f64) -> f64 {
    if v.is_nan() { lo } else { v.clamp(lo, hi) }
}

/// The outcome-rate chart: one horizontal bar per outcome, first outcome on
/// top, with 95% interval whiskers and the rate printed by each bar.
fn draw_outcomes<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    summary: &Summary,
) -> Result<(), ChartError> {
    root.fill(&WHITE).map_err(draw_err)?;
    let rows = &summary.outcomes;
    let n = rows.len();
    if n == 0 {
        return Ok(());
    }

    let title = format!(
        "{}: outcome rates, {}",
        summary.scenario_name,
        trials_phrase(summary, 0)
    );
    let area = titled(root, &title)?;

    // The rate axis runs to 1 unless every interval is small, in which case it
    // zooms to a round number comfortably above the largest upper bound.
    let top = rows
        .iter()
        .flat_map(|o| [o.rate, o.ci95[0], o.ci95[1]])
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max);
    let x_max = if top > 0.4 {
        1.0
    } else {
        nice_ceil(top * 1.25).min(1.0)
    };

    // Left label area sized to the longest label (at most 40% of the width).
    let label_style = TextStyle::from((FONT, LABEL_SIZE).into_font()).color(&TEXT_COLOR);
    let max_label_w = area.dim_in_pixel().0 * 2 / 5;
    let mut labels = Vec::with_capacity(n);
    let mut widest = 0u32;
    for o in rows {
        let (text, w) = fit_label(root, &o.label, &label_style, max_label_w)?;
        widest = widest.max(w);
        labels.push(text);
    }

    let n_f = n as f64;
    // Outcome i is drawn in the band [n-1-i, n-i] so the first is on top.
    let band = |i: usize| n_f - 1.0 - i as f64;
    let centers: Vec<f64> = (0..n).map(|i| band(i) + 0.5).collect();
    let label_of = |y: &f64| {
        let i = (n_f - 0.5 - y).round();
        if i >= 0.0 && (i as usize) < n {
            labels[i as usize].clone()
        } else {
            String::new()
        }
    };
    let x_fmt = |v: &f64| tick_text(*v, x_max);
    let x_desc = if summary.exact {
        "probability (exact)"
    } else {
        "rate (95% Wilson interval)"
    };

    let mut chart = ChartBuilder::on(&area)
        .margin_left(16)
        .margin_right(30)
        .margin_bottom(10)
        .x_label_area_size(70)
        .y_label_area_size(widest + 24)
        .build_cartesian_2d(0.0..x_max, FixedTicks::new(0.0..n_f, centers))
        .map_err(draw_err)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_labels(11)
        .x_max_light_lines(1)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&label_of)
        .label_style(label_style.clone())
        .axis_desc_style(TextStyle::from((FONT, DESC_SIZE).into_font()).color(&TEXT_COLOR))
        .x_desc(x_desc)
        .light_line_style(RGBColor(0xee, 0xee, 0xee))
        .bold_line_style(RGBColor(0xd8, 0xd8, 0xd8))
        .draw()
        .map_err(draw_err)?;

    let (x_px, _) = chart.plotting_area().get_pixel_range();
    let value_style = TextStyle::from((FONT, LABEL_SIZE).into_font()).color(&TEXT_COLOR);
    for (i, o) in rows.iter().enumerate() {
        let y0 = band(i);
        let color = BAR_COLORS[i % BAR_COLORS.len()];
        let rate = clamp_finite(o.rate, 0.0, x_max);
        if rate > 0.0 {
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(0.0, y0 + 0.18), (rate, y0 + 0.82)],
                    color.filled(),
                )))
                .map_err(draw_err)?;
        }

        let (lo, hi) = (o.ci95[0], o.ci95[1]);
        let mut right_end = rate;
        if lo.is_finite() && hi.is_finite() && hi > lo {
            let (lo, hi) = (clamp_finite(lo, 0.0, x_max), clamp_finite(hi, 0.0, x_max));
            right_end = right_end.max(hi);
            let whisker = ShapeStyle::from(&WHISKER_COLOR).stroke_width(2);
            let c = y0 + 0.5;
            chart
                .draw_series([
                    PathElement::new(vec![(lo, c), (hi, c)], whisker),
                    PathElement::new(vec![(lo, c - 0.16), (lo, c + 0.16)], whisker),
                    PathElement::new(vec![(hi, c - 0.16), (hi, c + 0.16)], whisker),
                ])
                .map_err(draw_err)?;
        }

        // The rate goes just right of the bar and whisker, or inside the bar
        // (in white) when it would run past the plot's right edge.
        let text = rate_text(o.rate);
        let (tw, _) = root
            .estimate_text_size(&text, &value_style)
            .map_err(draw_err)?;
        let (end_px, _) = chart.backend_coord(&(right_end, y0 + 0.5));
        let fits_outside = end_px + 8 + i32::try_from(tw).unwrap_or(i32::MAX / 2) <= x_px.end;
        let (bar_px, _) = chart.backend_coord(&(rate, y0 + 0.5));
        let (style, anchor_x, dx) = if fits_outside {
            (
                value_style.pos(Pos::new(HPos::Left, VPos::Center)),
                right_end,
                8,
            )
        } else if bar_px - x_px.start > i32::try_from(tw).unwrap_or(i32::MAX / 2) + 16 {
            (
                value_style
                    .pos(Pos::new(HPos::Right, VPos::Center))
                    .color(&WHITE),
                rate,
                -8,
            )
        } else {
            (value_style.pos(Pos::new(HPos::Left, VPos::Center)), 0.0, 4)
        };
        chart
            .draw_series(std::iter::once(
                EmptyElement::at((anchor_x, y0 + 0.5)) + Text::new(text, (dx, 2), style),
            ))
            .map_err(draw_err)?;
    }
    Ok(())
}

/// The length histogram, prepared for drawing: bars as
/// `(left edge, right edge, share of trials)` in metric units.
struct LengthChart {
    description: String,
    mean: f64,
    total: u64,
    bars: Vec<(f64, f64, f64)>,
    min: u32,
    max: u32,
    binned: bool,
}

impl LengthChart {
    /// `None` when there is nothing to draw.
    fn from_summary(summary: &Summary) -> Option<Self> {
        let (metric, values) = summary.length_histogram.as_ref()?;
        let total: u64 = values
            .iter()
            .map(|&(_, c)| c)
            .fold(0u64, u64::saturating_add);
        if total == 0 {
            return None;
        }
        let min = values
            .iter()
            .filter(|&&(_, c)| c > 0)
            .map(|&(v, _)| v)
            .min()?;
        let max = values
            .iter()
            .filter(|&&(_, c)| c > 0)
            .map(|&(v, _)| v)
            .max()?;
        let span = u64::from(max - min) + 1;
        let total_f = total as f64;
        let (bars, binned) = if span <= MAX_UNBINNED {
            let mut counts = vec![0u64; span as usize];
            for &(v, c) in values {
                if let Some(slot) = v.checked_sub(min).and_then(|k| counts.get_mut(k as usize)) {
                    *slot = slot.saturating_add(c);
                }
            }
            let bars = counts
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c > 0)
                .map(|(k, &c)| {
                    let v = f64::from(min) + k as f64;
                    (v - 0.5, v + 0.5, c as f64 / total_f)
                })
                .collect();
            (bars, false)
        } else {
            let width = span.div_ceil(TARGET_BINS);
            let n_bins = span.div_ceil(width);
            let mut counts = vec![0u64; n_bins as usize];
            for &(v, c) in values {
                if let Some(slot) = v
                    .checked_sub(min)
                    .and_then(|k| counts.get_mut((u64::from(k) / width) as usize))
                {
                    *slot = slot.saturating_add(c);
                }
            }
            let bars = counts
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c > 0)
                .map(|(k, &c)| {
                    let lo = f64::from(min) + (k as u64 * width) as f64;
                    (lo - 0.5, lo + width as f64 - 0.5, c as f64 / total_f)
                })
                .collect();
            (bars, true)
        };
        let description = if metric.description.trim().is_empty() {
            metric.name.clone()
        } else {
            metric.description.clone()
        };
        Some(LengthChart {
            description,
            mean: metric.mean,
            total,
            bars,
            min,
            max,
            binned,
        })
    }
}

/// Integer tick positions between `min` and `max`, at most about a dozen.
fn integer_ticks(min: u32, max: u32) -> Vec<f64> {
    let span = u64::from(max - min).max(1);
    let mut step = 1u64;
    'search: for scale in [
        1u64,
        10,
        100,
        1_000,
        10_000,
        100_000,
        1_000_000,
        10_000_000,
        100_000_000,
        1_000_000_000,
    ] {
        for m in [1u64, 2, 5] {
            step = m * scale;
            if span / step <= 12 {
                break 'search;
            }
        }
    }
    let first = u64::from(min).div_ceil(step) * step;
    (0..)
        .map(|k| first + k * step)
        .take_while(|&v| v <= u64::from(max))
        .map(|v| v as f64)
        .collect()
}

/// The length-of-play histogram with its mean marked.
fn draw_length<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    summary: &Summary,
    hist: &LengthChart,
) -> Result<(), ChartError> {
    root.fill(&WHITE).map_err(draw_err)?;
    let title = format!(
        "{}: {}, {}",
        summary.scenario_name,
        hist.description,
        trials_phrase(summary, hist.total)
    );
    let area = titled(root, &title)?;

    // A little room either side; a narrow spread still gets a few units so
    // that a lone bar does not fill the whole plot.
    let span = f64::from(hist.max - hist.min);
    let pad = (span * 0.02).max(0.5).max((8.0 - span) / 2.0);
    let x_lo = f64::from(hist.min) - 0.5 - pad;
    let x_hi = f64::from(hist.max) + 0.5 + pad;
    let top = hist.bars.iter().map(|b| b.2).fold(0.0f64, f64::max);
    // Headroom above the tallest bar keeps the mean's label clear of the bars.
    let y_max = (top * 1.15).max(1e-9);
    let y_fmt = |v: &f64| tick_text(*v, y_max);
    let x_fmt = |v: &f64| format!("{v:.0}");
    let x_desc = if hist.binned {
        let width = hist.bars.first().map_or(1.0, |b| b.1 - b.0);
        format!("{} (bins of {width:.0})", hist.description)
    } else {
        hist.description.clone()
    };
    let label_style = TextStyle::from((FONT, LABEL_SIZE).into_font()).color(&TEXT_COLOR);

    let mut chart = plot_builder(&area, 100)
        .build_cartesian_2d(
            FixedTicks::new(x_lo..x_hi, integer_ticks(hist.min, hist.max)),
            0.0..y_max,
        )
        .map_err(draw_err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_labels(8)
        .y_max_light_lines(1)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style(label_style.clone())
        .axis_desc_style(TextStyle::from((FONT, DESC_SIZE).into_font()).color(&TEXT_COLOR))
        .x_desc(x_desc)
        .y_desc("share of trials")
        .light_line_style(RGBColor(0xee, 0xee, 0xee))
        .bold_line_style(RGBColor(0xd8, 0xd8, 0xd8))
        .draw()
        .map_err(draw_err)?;

    let fill = BAR_COLORS[0];
    let gap = if hist.bars.len() > 1 {
        0.08 * (hist.bars[0].1 - hist.bars[0].0)
    } else {
        0.1
    };
    chart
        .draw_series(hist.bars.iter().map(|&(l, r, share)| {
            Rectangle::new([(l + gap, 0.0), (r - gap, share)], fill.filled())
        }))
        .map_err(draw_err)?;

    if hist.mean.is_finite() && hist.mean > x_lo && hist.mean < x_hi {
        let line = ShapeStyle::from(&MEAN_COLOR).stroke_width(2);
        chart
            .draw_series(std::iter::once(DashedPathElement::new(
                vec![(hist.mean, 0.0), (hist.mean, y_max)],
                8,
                5,
                line,
            )))
            .map_err(draw_err)?;
        let text = format!("mean {:.2}", hist.mean);
        let style =
            TextStyle::from((FONT, LABEL_SIZE, FontStyle::Bold).into_font()).color(&MEAN_COLOR);
        let (tw, _) = root.estimate_text_size(&text, &style).map_err(draw_err)?;
        let (x_px, _) = chart.plotting_area().get_pixel_range();
        let (mean_px, _) = chart.backend_coord(&(hist.mean, y_max));
        let room_right = mean_px + 8 + i32::try_from(tw).unwrap_or(i32::MAX / 2) <= x_px.end;
        let (style, dx) = if room_right {
            (style.pos(Pos::new(HPos::Left, VPos::Top)), 8)
        } else {
            (style.pos(Pos::new(HPos::Right, VPos::Top)), -8)
        };
        chart
            .draw_series(std::iter::once(
                EmptyElement::at((hist.mean, y_max)) + Text::new(text, (dx, 8), style),
            ))
            .map_err(draw_err)?;
    }
    Ok(())
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

/// A grid of values over two categorical axes, drawn as coloured cells with
/// each value printed in its cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Heatmap {
    /// Title at the top.
    pub title: String,
    /// What the x axis varies.
    pub x_label: String,
    /// What the y axis varies.
    pub y_label: String,
    /// Labels of the columns, left to right.
    pub x_ticks: Vec<String>,
    /// Labels of the rows, bottom to top.
    pub y_ticks: Vec<String>,
    /// `cells[y][x]`, values in `[0, 1]` (rates).
    pub cells: Vec<Vec<f64>>,
}

/// Writes `heatmap` as `dir/<stem>.png` and `dir/<stem>.svg`.
pub fn write_heatmap(
    heatmap: &Heatmap,
    dir: &Path,
    stem: &str,
) -> Result<Vec<PathBuf>, ChartError> {
    ensure_fonts()?;
    let layout = HeatmapLayout::of(heatmap);
    Ok(vec![
        write_png(dir, stem, layout.size, |root| {
            draw_heatmap(root, heatmap, &layout)
        })?,
        write_svg(dir, stem, layout.size, |root| {
            draw_heatmap(root, heatmap, &layout)
        })?,
    ])
}

/// How a heatmap fits its labels: the canvas grows with the number of
/// rows and columns, the row labels get the width their longest label
/// needs, and column labels too long for their cells become numbers (the
/// rows then carry the same numbers when both axes list the same things).
struct HeatmapLayout {
    size: (u32, u32),
    y_label_width: u32,
    x_ticks: Vec<String>,
    y_ticks: Vec<String>,
    /// Whether the cells are wide enough to print their values.
    values: bool,
}

impl HeatmapLayout {
    /// Rough width of one character of the tick font, in pixels.
    const CHAR_WIDTH: u32 = 9;
    const MIN_CELL_WIDTH: u32 = 46;
    const MIN_CELL_HEIGHT: u32 = 26;

    fn of(heatmap: &Heatmap) -> Self {
        let longest =
            |ticks: &[String]| ticks.iter().map(|t| t.chars().count()).max().unwrap_or(0) as u32;
        let (nx, ny) = (
            heatmap.x_ticks.len().max(1) as u32,
            heatmap.y_ticks.len().max(1) as u32,
        );
        let numbered = longest(&heatmap.x_ticks) * Self::CHAR_WIDTH > (WIDTH - 200) / nx
            && nx * Self::MIN_CELL_WIDTH > WIDTH - 200;
        let x_ticks: Vec<String> = if numbered {
            (1..=nx).map(|i| i.to_string()).collect()
        } else {
            heatmap.x_ticks.clone()
        };
        let y_ticks: Vec<String> = if numbered && heatmap.x_ticks == heatmap.y_ticks {
            heatmap
                .y_ticks
                .iter()
                .enumerate()
                .map(|(i, t)| format!("{t} {}", i + 1))
                .collect()
        } else {
            heatmap.y_ticks.clone()
        };
        let y_label_width = (longest(&y_ticks) * Self::CHAR_WIDTH + 24).max(120);
        let width = WIDTH.max(y_label_width + 80 + nx * Self::MIN_CELL_WIDTH);
        let height = HEIGHT.max(200 + ny * Self::MIN_CELL_HEIGHT);
        HeatmapLayout {
            size: (width, height),
            y_label_width,
            x_ticks,
            y_ticks,
            values: (width - y_label_width - 80) / nx >= Self::MIN_CELL_WIDTH - 6,
        }
    }
}

/// The colour of a rate: light to dark blue (grey for no value).
fn heat_color(value: f64) -> RGBColor {
    if value.is_nan() {
        return RGBColor(0xe4, 0xe4, 0xe4);
    }
    let t = clamp_finite(value, 0.0, 1.0);
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
    RGBColor(mix(0xf7, 0x08), mix(0xfb, 0x30), mix(0xff, 0x6b))
}

fn draw_heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    heatmap: &Heatmap,
    layout: &HeatmapLayout,
) -> Result<(), ChartError> {
    root.fill(&WHITE).map_err(draw_err)?;
    let area = titled(root, &heatmap.title)?;
    let nx = heatmap.x_ticks.len().max(1);
    let ny = heatmap.y_ticks.len().max(1);
    let centres = |n: usize| (0..n).map(|i| i as f64 + 0.5).collect::<Vec<_>>();
    let label_at = |ticks: &[String], v: f64| {
        let i = v.floor();
        if i >= 0.0 {
            ticks.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let x_fmt = |v: &f64| label_at(&layout.x_ticks, *v);
    let y_fmt = |v: &f64| label_at(&layout.y_ticks, *v);
    let label_style = TextStyle::from((FONT, LABEL_SIZE).into_font()).color(&TEXT_COLOR);
    let mut chart = plot_builder(&area, layout.y_label_width)
        .build_cartesian_2d(
            FixedTicks::new(0.0..nx as f64, centres(nx)),
            FixedTicks::new(0.0..ny as f64, centres(ny)),
        )
        .map_err(draw_err)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style(label_style)
        .axis_desc_style(TextStyle::from((FONT, DESC_SIZE).into_font()).color(&TEXT_COLOR))
        .x_desc(heatmap.x_label.as_str())
        .y_desc(heatmap.y_label.as_str())
        .draw()
        .map_err(draw_err)?;
    let cells = heatmap.cells.iter().enumerate().flat_map(|(y, row)| {
        row.iter()
            .enumerate()
            .map(move |(x, &v)| (x as f64, y as f64, v))
    });
    chart
        .draw_series(
            cells.clone().map(|(x, y, v)| {
                Rectangle::new([(x, y), (x + 1.0, y + 1.0)], heat_color(v).filled())
            }),
        )
        .map_err(draw_err)?;
    if !layout.values {
        return Ok(());
    }
    let size = if nx * ny > 150 { 12.0 } else { LABEL_SIZE };
    chart
        .draw_series(cells.map(|(x, y, v)| {
            let color: &'static RGBColor = if v > 0.55 { &WHITE } else { &TEXT_COLOR };
            let style = TextStyle::from((FONT, size).into_font())
                .color(color)
                .pos(Pos::new(HPos::Center, VPos::Center));
            let text = if v.is_nan() {
                String::new()
            } else {
                rate_text(v)
            };
            Text::new(text, (x + 0.5, y + 0.5), style)
        }))
        .map_err(draw_err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::summary::{MetricRow, OutcomeRow};

    fn summary(histogram: Vec<(u32, u64)>) -> Summary {
        Summary {
            model: "duel".into(),
            scenario: "scenarios/carter_vs_green.toml".into(),
            scenario_name: "carter_vs_green".into(),
            seed: Some(7),
            trials: 1000,
            exact: false,
            outcomes: vec![
                OutcomeRow {
                    label: "John Carter wins".into(),
                    count: 930,
                    rate: 0.93,
                    ci95: [0.913, 0.944],
                },
                OutcomeRow {
                    label: "Green chieftain wins".into(),
                    count: 70,
                    rate: 0.07,
                    ci95: [0.056, 0.087],
                },
                OutcomeRow {
                    label: "undecided after 100000 rounds".into(),
                    count: 0,
                    rate: 0.0,
                    ci95: [0.0, 0.0038],
                },
            ],
            metrics: vec![],
            stopping_rule: None,
            length_histogram: Some((
                MetricRow {
                    name: "rounds".into(),
                    description: "rounds of melee fought".into(),
                    mean: 4.21,
                    se: 0.1,
                    min: Some(1),
                    median: Some(3),
                    max: Some(12),
                    rate: None,
                },
                histogram,
            )),
            trends: Vec::new(),
        }
    }

    #[test]
    fn writes_png_and_svg_charts() {
        let dir = tempfile::tempdir().expect("tempdir");
        let s = summary(vec![
            (1, 300),
            (2, 250),
            (3, 150),
            (4, 100),
            (6, 100),
            (12, 100),
        ]);
        let written = write_charts(&s, dir.path()).expect("charts");
        assert_eq!(written.len(), 4);
        for name in ["outcomes.png", "outcomes.svg", "length.png", "length.svg"] {
            let path = dir.path().join(name);
            assert!(path.is_file(), "{name} missing");
            assert!(written.contains(&path));
            let bytes = std::fs::read(&path).expect("read chart");
            assert!(!bytes.is_empty());
            if name.ends_with(".png") {
                assert!(
                    bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
                    "{name} is not a PNG"
                );
            } else {
                let text = String::from_utf8(bytes).expect("utf-8 svg");
                assert!(
                    text.contains("carter_vs_green"),
                    "{name} lacks the scenario name"
                );
            }
        }
        // Only the four charts: no temporary files left behind.
        assert_eq!(std::fs::read_dir(dir.path()).expect("read dir").count(), 4);
    }

    #[test]
    fn degenerate_inputs_do_not_panic() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut s = summary(vec![]);
        s.trials = 0;
        s.outcomes.clear();
        assert!(write_charts(&s, dir.path()).expect("charts").is_empty());

        let mut s = summary(vec![(5, 0)]);
        s.outcomes[0].rate = f64::NAN;
        s.outcomes[1].ci95 = [f64::NAN, f64::INFINITY];
        assert_eq!(write_charts(&s, dir.path()).expect("charts").len(), 2);

        let mut s = summary(vec![(3, 10)]);
        s.exact = true;
        s.length_histogram.as_mut().expect("histogram").0.mean = f64::NAN;
        assert_eq!(write_charts(&s, dir.path()).expect("charts").len(), 4);

        // A wide spread is binned.
        let s = summary((1..=500).map(|v| (v, u64::from(1000 - v))).collect());
        assert_eq!(write_charts(&s, dir.path()).expect("charts").len(), 4);
    }

    #[test]
    fn a_trend_draws_metric_means_with_their_intervals() {
        use crate::engine::{TrendLine, TrendSpec};
        use crate::report::summary::MetricRow;
        let row = |name: &str, mean: f64, se: f64| MetricRow {
            name: name.into(),
            description: String::new(),
            mean,
            se,
            min: None,
            median: None,
            max: None,
            rate: None,
        };
        let mut s = summary(vec![(1, 10)]);
        s.metrics = vec![
            row("a_t5", 2.0, 0.1),
            row("a_t10", 3.0, 0.0),
            row("b_t5", f64::NAN, f64::NAN),
        ];
        s.trends = vec![TrendSpec {
            stem: "held".into(),
            title: "held over time".into(),
            x_label: "turn".into(),
            y_label: "capitals".into(),
            y_max: None,
            lines: vec![
                TrendLine {
                    name: "a".into(),
                    points: vec![(5.0, 0), (10.0, 1)],
                },
                TrendLine {
                    name: "b".into(),
                    points: vec![(5.0, 2)],
                },
            ],
        }];
        let chart = trend_chart(&s, &s.trends[0]).expect("a chart");
        // b has no mean, so only a's line is drawn.
        assert_eq!(chart.series.len(), 1);
        let p = &chart.series[0].points;
        assert_eq!((p[0].0, p[0].1), (5.0, 2.0));
        let (lo, hi) = p[0].2.expect("a band");
        // 2 +/- 1.96 x 0.1
        assert!((lo - 1.804).abs() < 1e-4 && (hi - 2.196).abs() < 1e-4);
        assert_eq!(p[1], (10.0, 3.0, Some((3.0, 3.0))));
        let dir = tempfile::tempdir().expect("tempdir");
        let written = write_charts(&s, dir.path()).expect("charts");
        assert!(written.contains(&dir.path().join("held.svg")));
        assert!(written.contains(&dir.path().join("held.png")));
    }

    #[test]
    fn nice_numbers() {
        assert_eq!(nice_ceil(0.087 * 1.25), 0.2);
        assert_eq!(nice_ceil(0.3), 0.5);
        assert_eq!(
            integer_ticks(1, 40),
            vec![5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0, 40.0]
        );
        assert_eq!(integer_ticks(3, 3), vec![3.0]);
    }
}
