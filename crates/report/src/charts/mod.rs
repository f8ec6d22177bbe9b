//! Charts of a [`Summary`]: outcome rates with their 95% intervals, and the
//! distribution of the length of play. Each chart is written as PNG and SVG.
//!
//! Text is rendered with the DejaVu Sans font embedded in the binary (via
//! plotters' `ab_glyph` feature), so no system fonts are needed.
//!
//! This file holds the errors, the shared sizes and colours and
//! [`write_charts`]; the rest is split by job:
//!
//! - `layout`: fonts, PNG and SVG files, titles, labels and axis ticks;
//! - `legend`: legends beside the plot, and series markers;
//! - `outcomes`: the outcome-rate and length-of-play charts;
//! - `lines`: line charts (metric trends, sweeps, tuning, bench history);
//! - `heatmap`: heatmaps with a colour scale (sweeps over two parameters,
//!   matchup tables);
//! - `differences`: values with their intervals about a reference line
//!   (`compare`'s changes, `breakdown`'s rates).
//!
//! Every chart keeps what it plots inside the plotting area and its legend
//! or colour scale outside it, and labels every tick; `svg_check` (a test)
//! reads the SVG of each kind to prove it.

use std::path::{Path, PathBuf};

use plotters::prelude::*;

use crate::files::OutputError;
use crate::summary::Summary;

use layout::{ensure_fonts, write_png, write_svg};
use lines::trend_chart;
use outcomes::{LengthChart, draw_length, draw_outcomes};

mod differences;
mod heatmap;
mod layout;
mod legend;
mod lines;
mod outcomes;
#[cfg(test)]
mod svg_check;

pub use differences::{DifferenceChart, DifferenceRow, Scale, write_difference_chart};
pub use heatmap::{Heatmap, write_heatmap};
pub use lines::{
    LineChart, LinePoint, LineSeries, Mark, YAxis, write_line_chart, write_line_panels,
};

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
/// Subtitle font size.
const SUBTITLE_SIZE: f64 = 18.0;
/// Axis-description font size.
const DESC_SIZE: f64 = 20.0;
/// Tick-label and annotation font size.
const LABEL_SIZE: f64 = 18.0;
/// Above this many distinct values the length histogram is binned.
const MAX_UNBINNED: u64 = 60;
/// The number of bins a binned length histogram aims for.
const TARGET_BINS: u64 = 40;

/// The series colours: twelve hues told apart on white (the Tableau 10
/// colours less grey, then indigo and goldenrod), grey last, kept for the
/// "other" series a chart groups the smallest into. A chart never shows
/// more series than colours, so no two shown series share one.
pub const PALETTE: [RGBColor; 12] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0xbc, 0xbd, 0x22),
    RGBColor(0x17, 0xbe, 0xcf),
    RGBColor(0x39, 0x3b, 0x79),
    RGBColor(0xb8, 0x86, 0x0b),
    OTHER_COLOR,
];
/// The colour of an "other" series and of games stopped at a limit.
const OTHER_COLOR: RGBColor = RGBColor(0x7f, 0x7f, 0x7f);
/// The colour of single-colour bars.
const BAR_COLOR: RGBColor = RGBColor(0x4c, 0x72, 0xb0);
const WHISKER_COLOR: RGBColor = RGBColor(0x20, 0x20, 0x20);
const TEXT_COLOR: RGBColor = RGBColor(0x20, 0x20, 0x20);
/// Subtitles and notes.
const NOTE_COLOR: RGBColor = RGBColor(0x55, 0x55, 0x55);
const MEAN_COLOR: RGBColor = RGBColor(0xc4, 0x4e, 0x52);
/// Reference marks: a target level, a chosen setting, zero.
const MARK_COLOR: RGBColor = RGBColor(0x30, 0x30, 0x30);
/// The chosen setting of a tuning search.
const CHOSEN_COLOR: RGBColor = RGBColor(0xd6, 0x27, 0x28);
/// The border of a legend or colour scale (drawn outside the plot).
const BOX_COLOR: RGBColor = RGBColor(0xb0, 0xb0, 0xb0);
const GRID_LIGHT: RGBColor = RGBColor(0xee, 0xee, 0xee);
const GRID_BOLD: RGBColor = RGBColor(0xd8, 0xd8, 0xd8);

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

#[cfg(test)]
mod tests {
    use super::layout::{nice_ceil, nice_ticks, step_decimals};
    use super::outcomes::integer_ticks;
    use super::*;
    use crate::summary::{MetricRow, OutcomeRow};

    fn summary(histogram: Vec<(u32, u64)>) -> Summary {
        Summary {
            model: "duel".into(),
            scenario: "scenarios/carter_vs_green.toml".into(),
            scenario_name: "carter_vs_green".into(),
            description: "John Carter against a green chieftain".into(),
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
                    text.contains("John Carter against a green chieftain"),
                    "{name} is not titled with the scenario's description"
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
        use crate::summary::MetricRow;
        use barsoom_engine::{TrendLine, TrendSpec};
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
    fn values_print_without_exponents() {
        use super::layout::{percent_text, rate_text};
        assert_eq!(rate_text(0.00002), "<0.0001");
        assert_eq!(rate_text(0.12345), "0.1235");
        assert_eq!(rate_text(0.0), "0.0000");
        assert_eq!(percent_text(0.00002), "<0.1%");
        assert_eq!(percent_text(0.486), "48.6%");
        assert_eq!(percent_text(0.99996), ">99.9%");
        assert_eq!(percent_text(1.0), "100%");
        assert_eq!(percent_text(0.0), "0%");
        assert_eq!(percent_text(f64::NAN), "");
    }

    #[test]
    fn the_games_stopped_at_the_limit_are_found_by_their_label() {
        use super::outcomes::{Limit, stopped_at_limit};
        let s = summary(vec![(1, 10)]);
        let limit = LengthChart::from_summary(&s).expect("a chart").limit;
        assert_eq!(
            limit,
            Some(Limit {
                label: "undecided after 100000 rounds".into(),
                share: 0.0,
                value: Some(100_000),
            })
        );
        assert!(stopped_at_limit("unfinished after 400 turns"));
        assert!(stopped_at_limit("undecided (turn limit)"));
        assert!(!stopped_at_limit("John Carter wins"));
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
        let (ticks, step) = nice_ticks(0.0, 0.25, 8, false);
        assert_eq!(step, 0.05);
        assert_eq!(ticks.len(), 6);
        assert!((ticks[5] - 0.25).abs() < 1e-12);
        assert_eq!(
            nice_ticks(1.0, 13.0, 10, true).0,
            vec![2.0, 4.0, 6.0, 8.0, 10.0, 12.0]
        );
        assert_eq!(step_decimals(0.05), 2);
        assert_eq!(step_decimals(2.0), 0);
    }
}
