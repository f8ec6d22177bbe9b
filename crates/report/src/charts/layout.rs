//! What every chart shares: the embedded font, PNG and SVG files, the
//! title block, fitted labels, number formats and fixed axis ticks.

use std::fmt::Display;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontStyle, register_font};

use crate::files::{AtomicFile, write_atomic};
use crate::summary::{Summary, group_thousands};

use super::{ChartError, FONT, NOTE_COLOR, SUBTITLE_SIZE, TEXT_COLOR, TITLE_SIZE};

/// Registers the embedded DejaVu Sans fonts under [`FONT`], once.
pub(super) fn ensure_fonts() -> Result<(), ChartError> {
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

pub(super) fn draw_err<E: Display>(e: E) -> ChartError {
    ChartError::Draw(e.to_string())
}

/// Renders `draw` into `dir/<stem>.png` atomically.
pub(super) fn write_png<F>(
    dir: &Path,
    stem: &str,
    size: (u32, u32),
    draw: F,
) -> Result<PathBuf, ChartError>
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
pub(super) fn write_svg<F>(
    dir: &Path,
    stem: &str,
    size: (u32, u32),
    draw: F,
) -> Result<PathBuf, ChartError>
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
pub(super) fn trials_phrase(summary: &Summary, fallback_total: u64) -> String {
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

/// Draws `title` centred at the top of `root` (its font shrinking, then
/// wrapping onto a second line, until it fits the width) and `subtitle`
/// below it in a smaller grey font (if not empty), and returns the area
/// below them.
pub(super) fn titled<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    subtitle: &str,
) -> Result<DrawingArea<DB, Shift>, ChartError> {
    let avail = root.dim_in_pixel().0.saturating_sub(40);
    let title_style =
        |size: f64| TextStyle::from((FONT, size, FontStyle::Bold).into_font()).color(&TEXT_COLOR);
    let width = |text: &str, style: &TextStyle| -> Result<u32, ChartError> {
        Ok(root.estimate_text_size(text, style).map_err(draw_err)?.0)
    };
    let mut size = TITLE_SIZE;
    while size > 22.0 && width(title, &title_style(size))? > avail {
        size -= 2.0;
    }
    let style = title_style(size);
    let lines = wrap_two_lines(title, |t| Ok(width(t, &style)? <= avail))?;
    let center = i32::try_from(root.dim_in_pixel().0 / 2).unwrap_or(0);
    let mut top = 14i32;
    let centred = Pos::new(HPos::Center, VPos::Top);
    for line in &lines {
        let (_, h) = root.estimate_text_size(line, &style).map_err(draw_err)?;
        root.draw_text(line, &style.pos(centred), (center, top))
            .map_err(draw_err)?;
        top += i32::try_from(h).unwrap_or(0) + 4;
    }
    if !subtitle.is_empty() {
        let style = TextStyle::from((FONT, SUBTITLE_SIZE).into_font()).color(&NOTE_COLOR);
        let text = shortened(subtitle, |t| Ok(width(t, &style)? <= avail))?;
        let (_, h) = root.estimate_text_size(&text, &style).map_err(draw_err)?;
        top += 2;
        root.draw_text(&text, &style.pos(centred), (center, top))
            .map_err(draw_err)?;
        top += i32::try_from(h).unwrap_or(0) + 4;
    }
    Ok(root.split_vertically(top + 12).1)
}

/// `text` as one line if it `fits`, else as two broken at a space (the
/// first as long as fits, the second shortened with an ellipsis if need be).
fn wrap_two_lines(
    text: &str,
    mut fits: impl FnMut(&str) -> Result<bool, ChartError>,
) -> Result<Vec<String>, ChartError> {
    if fits(text)? {
        return Ok(vec![text.to_string()]);
    }
    let words: Vec<&str> = text.split(' ').collect();
    let mut split = 0;
    for k in 1..words.len() {
        if fits(&words[..k].join(" "))? {
            split = k;
        } else {
            break;
        }
    }
    if split == 0 {
        return Ok(vec![shortened(text, fits)?]);
    }
    let first = words[..split].join(" ");
    let rest = shortened(&words[split..].join(" "), fits)?;
    Ok(vec![first, rest])
}

/// The longest of `text` and its shortenings (its first characters, trailing
/// spaces dropped, then an ellipsis) that `fits`, found by bisection, so a
/// long label costs a few measurements, not one per character; the bare
/// ellipsis when none fits.
fn shortened(
    text: &str,
    mut fits: impl FnMut(&str) -> Result<bool, ChartError>,
) -> Result<String, ChartError> {
    if fits(text)? {
        return Ok(text.to_string());
    }
    let cut = |n: usize| -> String {
        let end = text.char_indices().nth(n).map_or(text.len(), |(i, _)| i);
        format!("{}…", text[..end].trim_end())
    };
    // Invariant: `cut(lo)` fits (or lo is 0); no cut longer than `hi` does.
    let (mut lo, mut hi) = (0, text.chars().count().saturating_sub(1));
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(&cut(mid))? {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Ok(cut(lo))
}

/// `label` shortened with an ellipsis until it is at most `max_w` px wide.
pub(super) fn fit_label<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    label: &str,
    style: &TextStyle,
    max_w: u32,
) -> Result<(String, u32), ChartError> {
    let width = |t: &str| root.estimate_text_size(t, style).map_err(draw_err);
    let text = shortened(label, |t| Ok(width(t)?.0 <= max_w))?;
    let (w, _) = width(&text)?;
    Ok((text, w))
}

/// A rate as printed by its bar: four fixed decimals ("<0.0001" for a
/// positive rate that would print as zero).
pub(super) fn rate_text(rate: f64) -> String {
    if !rate.is_finite() {
        "n/a".to_string()
    } else if rate > 0.0 && rate < 0.000_05 {
        "<0.0001".to_string()
    } else {
        format!("{rate:.4}")
    }
}

/// A share from 0 to 1 as a percentage with one decimal, never rounded to
/// a bound it does not reach ("<0.1%", ">99.9%").
pub(super) fn percent_text(share: f64) -> String {
    if !share.is_finite() {
        String::new()
    } else if share > 0.0 && share < 0.0005 {
        "<0.1%".to_string()
    } else if share < 1.0 && share > 0.9995 {
        ">99.9%".to_string()
    } else if share == 0.0 || share == 1.0 {
        format!("{:.0}%", share * 100.0)
    } else {
        format!("{:.1}%", share * 100.0)
    }
}

/// A tick-label formatter for a linear axis running from 0 to `max`.
pub(super) fn tick_text(v: f64, max: f64) -> String {
    let step = max / 10.0;
    let decimals = if step.is_finite() && step > 0.0 {
        (-step.log10()).ceil().clamp(0.0, 6.0) as usize
    } else {
        2
    };
    format!("{v:.decimals$}")
}

/// The decimals that print every multiple of `step` exactly (at most 6).
pub(super) fn step_decimals(step: f64) -> usize {
    (0..6)
        .find(|&d| {
            let scaled = step * 10f64.powi(d as i32);
            (scaled - scaled.round()).abs() < 1e-6 * scaled.abs().max(1.0)
        })
        .unwrap_or(6)
}

/// Round tick positions from `lo` to `hi`, in steps of 1, 2, 2.5 or 5 times
/// a power of ten (whole steps for `whole` data), at most about `max_ticks`
/// of them, with the step.
pub(super) fn nice_ticks(lo: f64, hi: f64, max_ticks: usize, whole: bool) -> (Vec<f64>, f64) {
    let span = hi - lo;
    if !(span.is_finite() && span > 0.0) {
        return (vec![lo], 1.0);
    }
    let mut step = nice_ceil(span / max_ticks.max(1) as f64);
    if whole && step < 1.0 {
        step = 1.0;
    } else if whole && step.fract() != 0.0 {
        step = (step * 2.0).round();
    }
    let first = (lo / step - 1e-9).ceil() as i64;
    let ticks = (first..)
        .map(|i| i as f64 * step)
        .take_while(|&t| t <= hi + step * 1e-9)
        .take(1000)
        .collect();
    (ticks, step)
}

/// Smallest "nice" number (1, 2, 2.5 or 5 times a power of ten) at least `x`.
pub(super) fn nice_ceil(x: f64) -> f64 {
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
pub(super) struct FixedTicks {
    inner: RangedCoordf64,
    ticks: Vec<f64>,
}

impl FixedTicks {
    pub(super) fn new(range: Range<f64>, ticks: Vec<f64>) -> Self {
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
pub(super) fn plot_builder<'a, 'b, DB: DrawingBackend>(
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
pub(super) fn clamp_finite(v: f64, lo: f64, hi: f64) -> f64 {
    if v.is_nan() { lo } else { v.clamp(lo, hi) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_label_is_fitted_with_few_measurements() {
        let label = "x".repeat(20_000);
        let mut measured = 0;
        let text = shortened(&label, |t| {
            measured += 1;
            Ok(t.chars().count() <= 41)
        })
        .expect("fits");
        assert_eq!(text, format!("{}…", "x".repeat(40)));
        assert!(measured <= 20, "{measured} measurements");
        // Trailing spaces go before the ellipsis; nothing fits: the ellipsis.
        let spaced = shortened("ab   cd", |t| Ok(t.chars().count() <= 5)).expect("fits");
        assert_eq!(spaced, "ab…");
        assert_eq!(shortened("abc", |_| Ok(false)).expect("fits"), "…");
    }
}
