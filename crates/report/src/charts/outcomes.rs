//! The summary's own charts: outcome rates with their 95% intervals, and
//! the distribution of the length of play.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::FontStyle;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::summary::Summary;

use super::layout::{
    FixedTicks, clamp_finite, draw_err, fit_label, nice_ceil, percent_text, plot_builder,
    rate_text, tick_text, titled, trials_phrase,
};
use super::{
    BAR_COLOR, ChartError, DESC_SIZE, FONT, GRID_BOLD, GRID_LIGHT, LABEL_SIZE, MAX_UNBINNED,
    MEAN_COLOR, OTHER_COLOR, TARGET_BINS, TEXT_COLOR, WHISKER_COLOR,
};

/// The outcome-rate chart: one horizontal bar per outcome, first outcome on
/// top, with 95% interval whiskers and the rate printed by each bar.
pub(super) fn draw_outcomes<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    summary: &Summary,
) -> Result<(), ChartError> {
    root.fill(&WHITE).map_err(draw_err)?;
    let rows = &summary.outcomes;
    let n = rows.len();
    if n == 0 {
        return Ok(());
    }

    let subtitle = format!(
        "Outcome rates, {} · {}",
        trials_phrase(summary, 0),
        summary.scenario_name
    );
    let area = titled(root, summary.title(), &subtitle)?;

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
    let mut x_desc = if summary.exact {
        "probability (exact)".to_string()
    } else {
        "rate (95% Wilson interval)".to_string()
    };
    if x_max < 1.0 {
        x_desc.push_str(&format!(" · axis zoomed to 0–{x_max}"));
    }

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
        .light_line_style(GRID_LIGHT)
        .bold_line_style(GRID_BOLD)
        .draw()
        .map_err(draw_err)?;

    let (x_px, _) = chart.plotting_area().get_pixel_range();
    let value_style = TextStyle::from((FONT, LABEL_SIZE).into_font()).color(&TEXT_COLOR);
    for (i, o) in rows.iter().enumerate() {
        let y0 = band(i);
        // One colour: the labels name the bars; outcomes that are not an
        // ending (a game stopped at its limit) in grey.
        let color = if stopped_at_limit(&o.label) {
            OTHER_COLOR
        } else {
            BAR_COLOR
        };
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

/// Whether an outcome label names a game stopped at its limit rather than
/// an ending ("undecided after 100000 rounds", "unfinished after 400
/// turns"), by the wording every model uses.
pub(super) fn stopped_at_limit(label: &str) -> bool {
    let label = label.to_lowercase();
    label.contains("undecided") || label.contains("unfinished")
}

/// The games a run stopped at its limit: the outcome that says so, its
/// share of trials, and the limit when the label gives it ("... after N
/// rounds").
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Limit {
    pub label: String,
    pub share: f64,
    pub value: Option<u32>,
}

impl Limit {
    /// The first outcome of `summary` whose label names a limit.
    fn of(summary: &Summary) -> Option<Limit> {
        let row = summary
            .outcomes
            .iter()
            .find(|o| stopped_at_limit(&o.label))?;
        let value = row
            .label
            .split_once("after ")
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok());
        Some(Limit {
            label: row.label.clone(),
            share: if row.rate.is_finite() { row.rate } else { 0.0 },
            value,
        })
    }
}

/// The length histogram, prepared for drawing: bars as
/// `(left edge, right edge, share of trials)` in metric units.
pub(super) struct LengthChart {
    /// The games stopped at the limit, when an outcome names one.
    pub(super) limit: Option<Limit>,
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
    pub(super) fn from_summary(summary: &Summary) -> Option<Self> {
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
            limit: Limit::of(summary),
        })
    }
}

/// Integer tick positions between `min` and `max`, at most about a dozen.
pub(super) fn integer_ticks(min: u32, max: u32) -> Vec<f64> {
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
pub(super) fn draw_length<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    summary: &Summary,
    hist: &LengthChart,
) -> Result<(), ChartError> {
    root.fill(&WHITE).map_err(draw_err)?;
    // Games stopped at the limit are drawn in grey, and the subtitle says
    // how many there were (or that there were none).
    let limit_note = hist.limit.as_ref().map(|limit| {
        if limit.share > 0.0 {
            let grey = if limit.value.is_some() { "grey: " } else { "" };
            format!("{grey}{} {}", percent_text(limit.share), limit.label)
        } else {
            format!("none {}", limit.label)
        }
    });
    let subtitle = format!(
        "{}, {}{}",
        hist.description,
        trials_phrase(summary, hist.total),
        limit_note.map_or(String::new(), |n| format!(" · {n}"))
    );
    let area = titled(root, summary.title(), &subtitle)?;
    let stopped_from = hist
        .limit
        .as_ref()
        .filter(|l| l.share > 0.0)
        .and_then(|l| l.value)
        .map_or(f64::INFINITY, f64::from);

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
        .light_line_style(GRID_LIGHT)
        .bold_line_style(GRID_BOLD)
        .draw()
        .map_err(draw_err)?;

    let gap = if hist.bars.len() > 1 {
        0.08 * (hist.bars[0].1 - hist.bars[0].0)
    } else {
        0.1
    };
    chart
        .draw_series(hist.bars.iter().map(|&(l, r, share)| {
            let fill = if r > stopped_from {
                OTHER_COLOR
            } else {
                BAR_COLOR
            };
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
