//! Heatmaps: a value per cell of a grid, as drawn for a sweep over two
//! parameters or a matchup table.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::layout::{
    FixedTicks, clamp_finite, draw_err, ensure_fonts, plot_builder, rate_text, titled, write_png,
    write_svg,
};
use super::{ChartError, DESC_SIZE, FONT, HEIGHT, LABEL_SIZE, TEXT_COLOR, WIDTH};

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
