//! Legends, drawn beside a plot (never over it, so they neither hide data
//! nor stretch an axis), and the point markers that tell series apart
//! together with their colours.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::layout::{draw_err, fit_label};
use super::{
    BOX_COLOR, ChartError, FONT, LABEL_SIZE, OTHER_COLOR as BAND_COLOR, PALETTE, TEXT_COLOR,
};

/// What a legend entry shows before its label.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Swatch {
    /// Series `k`: its colour's line and its marker.
    Series(usize),
    /// A dashed reference line (a target, a chosen setting) in a colour.
    Mark(RGBColor),
    /// A band around a line (an interval).
    Band,
    /// Nothing: a note.
    Note,
}

/// One line of a legend.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct LegendEntry {
    pub label: String,
    pub swatch: Swatch,
}

/// Width of the swatch column, padding included.
const SWATCH_WIDTH: u32 = 40;
/// Height of one legend row.
const ROW_HEIGHT: i32 = 26;
/// Room between a plot's right edge and its legend.
pub(super) const LEGEND_GAP: u32 = 16;

/// The colour of series `k`.
pub(super) fn series_color(k: usize) -> RGBColor {
    PALETTE[k % PALETTE.len()]
}

/// The width a legend of `entries` takes: its longest label (at most
/// `max_width` in all) and the swatch column.
pub(super) fn legend_width<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
    max_width: u32,
) -> Result<u32, ChartError> {
    let style = label_style();
    let mut widest = 0;
    for entry in entries {
        let (w, _) = root
            .estimate_text_size(&entry.label, &style)
            .map_err(draw_err)?;
        widest = widest.max(w);
    }
    Ok((widest + SWATCH_WIDTH + 12).min(max_width))
}

fn label_style() -> TextStyle<'static> {
    TextStyle::from((FONT, LABEL_SIZE).into_font()).color(&TEXT_COLOR)
}

/// Draws the legend in a box `width` wide with its top-left corner at
/// `(x, y)` (pixels of `root`), labels shortened to fit.
pub(super) fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
    (x, y): (i32, i32),
    width: u32,
) -> Result<(), ChartError> {
    if entries.is_empty() {
        return Ok(());
    }
    let w = i32::try_from(width).unwrap_or(i32::MAX / 4);
    let rows = i32::try_from(entries.len()).unwrap_or(i32::MAX / 64);
    root.draw(&Rectangle::new(
        [(x, y), (x + w, y + rows * ROW_HEIGHT + 10)],
        BOX_COLOR.stroke_width(1),
    ))
    .map_err(draw_err)?;
    let style = label_style();
    for (row, entry) in entries.iter().enumerate() {
        let centre = y + 5 + ROW_HEIGHT * i32::try_from(row).unwrap_or(0) + ROW_HEIGHT / 2;
        let (x0, x1) = (x + 8, x + 8 + 24);
        match entry.swatch {
            Swatch::Series(k) => {
                let color = series_color(k);
                root.draw(&PathElement::new(
                    vec![(x0, centre), (x1, centre)],
                    color.stroke_width(3),
                ))
                .map_err(draw_err)?;
                draw_marker(root, ((x0 + x1) / 2, centre), k, color)?;
            }
            Swatch::Mark(color) => {
                root.draw(&DashedPathElement::new(
                    vec![(x0, centre), (x1, centre)],
                    6,
                    4,
                    color.stroke_width(2),
                ))
                .map_err(draw_err)?;
            }
            Swatch::Band => {
                root.draw(&Rectangle::new(
                    [(x0, centre - 7), (x1, centre + 7)],
                    BAND_COLOR.mix(0.35).filled(),
                ))
                .map_err(draw_err)?;
            }
            Swatch::Note => {}
        }
        let room = width.saturating_sub(SWATCH_WIDTH + 6);
        let (text, _) = fit_label(root, &entry.label, &style, room)?;
        let text_x = x + i32::try_from(SWATCH_WIDTH).unwrap_or(0);
        root.draw_text(
            &text,
            &style.pos(Pos::new(HPos::Left, VPos::Center)),
            (text_x, centre),
        )
        .map_err(draw_err)?;
    }
    Ok(())
}

/// Draws the marker of series `k` at pixel `at`: a circle, triangle,
/// square or diamond in turn, so series are told apart without colour too.
pub(super) fn draw_marker<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    k: usize,
    color: RGBColor,
) -> Result<(), ChartError> {
    let fill = color.filled();
    match k % 4 {
        0 => root.draw(&Circle::new((x, y), 5, fill)),
        1 => root.draw(&Polygon::new(
            vec![(x, y - 6), (x + 6, y + 5), (x - 6, y + 5)],
            fill,
        )),
        2 => root.draw(&Rectangle::new([(x - 5, y - 5), (x + 5, y + 5)], fill)),
        _ => root.draw(&Polygon::new(
            vec![(x, y - 6), (x + 6, y), (x, y + 6), (x - 6, y)],
            fill,
        )),
    }
    .map_err(draw_err)
}
