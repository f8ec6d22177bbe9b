//! Heatmaps: a value per cell of a grid, as drawn for a sweep over two
//! parameters or a matchup table.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::layout::{
    FixedTicks, clamp_finite, draw_err, ensure_fonts, percent_text, plot_builder, titled,
    write_png, write_svg,
};
use super::{BOX_COLOR, ChartError, DESC_SIZE, FONT, HEIGHT, LABEL_SIZE, TEXT_COLOR, WIDTH};

/// The room the colour scale takes to the right of the grid.
const SCALE_WIDTH: u32 = 130;
/// The width of the colour bar.
const SCALE_BAR: i32 = 22;

/// A grid of values over two categorical axes, drawn as coloured cells with
/// each value printed in its cell as a percentage, and a colour scale
/// beside the grid.
#[derive(Debug, Clone, PartialEq)]
pub struct Heatmap {
    /// Title at the top.
    pub title: String,
    /// The line below the title (the scenario, the trials); may be empty.
    pub subtitle: String,
    /// What the values are, for the colour scale (e.g. "win rate").
    pub value_label: String,
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
/// rows then carry the same numbers when they list the same things).
struct HeatmapLayout {
    size: (u32, u32),
    y_label_width: u32,
    x_ticks: Vec<String>,
    y_ticks: Vec<String>,
    /// Whether the cells are wide enough to print their values.
    values: bool,
}

impl HeatmapLayout {
    /// Rough width of one character of the tick font, in pixels, should
    /// the font fail to measure a label.
    const CHAR_WIDTH: u32 = 9;
    const MIN_CELL_WIDTH: u32 = 46;
    const MIN_CELL_HEIGHT: u32 = 26;

    /// The layout of `heatmap` (the fonts registered).
    fn of(heatmap: &Heatmap) -> Self {
        let font = (FONT, LABEL_SIZE).into_font();
        let widest = |ticks: &[String]| {
            ticks
                .iter()
                .map(|t| {
                    font.box_size(t)
                        .map_or(t.chars().count() as u32 * Self::CHAR_WIDTH, |(w, _)| w)
                })
                .max()
                .unwrap_or(0)
        };
        let (nx, ny) = (
            heatmap.x_ticks.len().max(1) as u32,
            heatmap.y_ticks.len().max(1) as u32,
        );
        let fixed = |y_label_width: u32| y_label_width + 80 + SCALE_WIDTH;
        let label_width = |ticks: &[String]| (widest(ticks) + 24).max(120);
        let width_for =
            |y_label_width: u32| WIDTH.max(fixed(y_label_width) + nx * Self::MIN_CELL_WIDTH);
        let plain_width = width_for(label_width(&heatmap.y_ticks));
        let cell = (plain_width - fixed(label_width(&heatmap.y_ticks))) / nx;
        let numbered = widest(&heatmap.x_ticks) + 8 > cell;
        let x_ticks: Vec<String> = if numbered {
            (1..=nx).map(|i| i.to_string()).collect()
        } else {
            heatmap.x_ticks.clone()
        };
        // Rows that list the columns (in any order) carry their numbers.
        let column_number = |t: &String| heatmap.x_ticks.iter().position(|x| x == t);
        let y_ticks: Vec<String> =
            if numbered && heatmap.y_ticks.iter().all(|t| column_number(t).is_some()) {
                heatmap
                    .y_ticks
                    .iter()
                    .map(|t| format!("{t} ({})", column_number(t).map_or(0, |j| j + 1)))
                    .collect()
            } else {
                heatmap.y_ticks.clone()
            };
        let y_label_width = label_width(&y_ticks);
        let width = width_for(y_label_width);
        let height = HEIGHT.max(220 + ny * Self::MIN_CELL_HEIGHT);
        HeatmapLayout {
            size: (width, height),
            y_label_width,
            x_ticks,
            y_ticks,
            values: (width - fixed(y_label_width)) / nx >= Self::MIN_CELL_WIDTH - 6,
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
    let area = titled(root, &heatmap.title, &heatmap.subtitle)?;
    let area_width = area.dim_in_pixel().0;
    let area = area
        .split_horizontally(area_width.saturating_sub(SCALE_WIDTH))
        .0;
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
    let (x_px, y_px) = chart.plotting_area().get_pixel_range();
    draw_scale(root, &heatmap.value_label, x_px.end + 20, y_px)?;
    if !layout.values {
        return Ok(());
    }
    let size = if nx * ny > 150 { 12.0 } else { LABEL_SIZE };
    chart
        .draw_series(cells.filter(|c| c.2.is_finite()).map(|(x, y, v)| {
            let color: &'static RGBColor = if v > 0.55 { &WHITE } else { &TEXT_COLOR };
            let style = TextStyle::from((FONT, size).into_font())
                .color(color)
                .pos(Pos::new(HPos::Center, VPos::Center));
            Text::new(percent_text(v), (x + 0.5, y + 0.5), style)
        }))
        .map_err(draw_err)?;
    Ok(())
}

/// Draws the colour scale: a bar from 0% (bottom) to 100% (top) at `x`
/// spanning the plot's pixel rows `rows`, ticked every 25%, with what the
/// values are written beside it.
fn draw_scale<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    value_label: &str,
    x: i32,
    rows: std::ops::Range<i32>,
) -> Result<(), ChartError> {
    let (top, bottom) = (rows.start, rows.end);
    let height = (bottom - top).max(1);
    let steps = height.min(200);
    for k in 0..steps {
        // Band k covers [y0, y1) from the bottom up.
        let y1 = bottom - height * k / steps;
        let y0 = bottom - height * (k + 1) / steps;
        let value = (f64::from(k) + 0.5) / f64::from(steps);
        root.draw(&Rectangle::new(
            [(x, y0), (x + SCALE_BAR, y1)],
            heat_color(value).filled(),
        ))
        .map_err(draw_err)?;
    }
    root.draw(&Rectangle::new(
        [(x, top), (x + SCALE_BAR, bottom)],
        BOX_COLOR.stroke_width(1),
    ))
    .map_err(draw_err)?;
    let style = TextStyle::from((FONT, LABEL_SIZE).into_font()).color(&TEXT_COLOR);
    for quarter in 0..=4 {
        let y = bottom - height * quarter / 4;
        let tick_x = x + SCALE_BAR;
        root.draw(&PathElement::new(
            vec![(tick_x, y), (tick_x + 5, y)],
            BLACK.stroke_width(1),
        ))
        .map_err(draw_err)?;
        root.draw_text(
            &format!("{}%", quarter * 25),
            &style.pos(Pos::new(HPos::Left, VPos::Center)),
            (tick_x + 8, y),
        )
        .map_err(draw_err)?;
    }
    let desc = TextStyle::from((FONT, DESC_SIZE).into_font())
        .color(&TEXT_COLOR)
        .transform(FontTransform::Rotate90)
        .pos(Pos::new(HPos::Center, VPos::Top));
    root.draw_text(value_label, &desc, (x + SCALE_BAR + 78, (top + bottom) / 2))
        .map_err(draw_err)
}
