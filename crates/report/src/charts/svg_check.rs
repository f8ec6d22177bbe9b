//! Renders every kind of chart with many series and reads each SVG back:
//! nothing a chart plots lies outside its plotting area (the frame its black
//! axes draw), legends and colour scales (the boxes drawn in `BOX_COLOR`)
//! sit outside it, and every tick mark has a label.

use std::path::Path;

use toml::Value;

use super::*;
use crate::analysis::tune::Measure;
use crate::summary::{MetricRow, OutcomeRow};
use crate::sweep::{SettingResult, write_sweep_charts};
use barsoom_engine::{TrendLine, TrendSpec};

/// One element of an SVG file: its tag, attributes and text.
#[derive(Debug)]
struct Element {
    tag: String,
    attrs: Vec<(String, String)>,
    text: String,
}

impl Element {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn num(&self, name: &str) -> f64 {
        self.attr(name)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("<{}> has no number {name}: {:?}", self.tag, self.attrs))
    }

    /// The points that say where the element is drawn.
    fn points(&self) -> Vec<(f64, f64)> {
        match self.tag.as_str() {
            "polyline" | "polygon" => self
                .attr("points")
                .unwrap_or_default()
                .split_whitespace()
                .filter_map(|p| {
                    let (x, y) = p.split_once(',')?;
                    Some((x.parse().ok()?, y.parse().ok()?))
                })
                .collect(),
            "line" => vec![
                (self.num("x1"), self.num("y1")),
                (self.num("x2"), self.num("y2")),
            ],
            "rect" => {
                let (x, y) = (self.num("x"), self.num("y"));
                vec![(x, y), (x + self.num("width"), y + self.num("height"))]
            }
            "circle" => vec![(self.num("cx"), self.num("cy"))],
            _ => Vec::new(),
        }
    }

    fn stroke(&self) -> &str {
        self.attr("stroke").unwrap_or("none")
    }
}

/// The elements of `svg`, in order (a hand parser for what plotters writes).
fn parse(svg: &str) -> Vec<Element> {
    let mut elements = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        if rest.starts_with('/') || rest.starts_with('?') || rest.starts_with('!') {
            continue;
        }
        let end = rest.find('>').expect("a closed tag");
        let inside = rest[..end].trim_end_matches('/');
        let (tag, mut attrs_text) = inside.split_once(' ').unwrap_or((inside, ""));
        let mut attrs = Vec::new();
        while let Some(eq) = attrs_text.find("=\"") {
            let name = attrs_text[..eq].trim().to_string();
            let after = &attrs_text[eq + 2..];
            let close = after.find('"').expect("a closed attribute");
            attrs.push((name, after[..close].to_string()));
            attrs_text = &after[close + 1..];
        }
        rest = &rest[end + 1..];
        let text = if tag == "text" {
            let close = rest.find("</text>").expect("a closed text");
            rest[..close].trim().to_string()
        } else {
            String::new()
        };
        elements.push(Element {
            tag: tag.to_string(),
            attrs,
            text,
        });
    }
    elements
}

/// A rectangle `(left, top, right, bottom)` in pixels.
type Frame = (f64, f64, f64, f64);

fn inside(frame: Frame, (x, y): (f64, f64), tolerance: f64) -> bool {
    x >= frame.0 - tolerance
        && x <= frame.2 + tolerance
        && y >= frame.1 - tolerance
        && y <= frame.3 + tolerance
}

fn overlap(a: Frame, b: Frame) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

fn hex(color: plotters::style::RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", color.0, color.1, color.2)
}

/// Reads the chart at `path` and checks it (see the module notes); returns
/// the elements for further checks.
fn check_chart(path: &Path) -> Vec<Element> {
    let name = path.display();
    let svg = std::fs::read_to_string(path).expect("read the chart");
    let elements = parse(&svg);
    let length = |e: &Element| {
        let p = e.points();
        p.windows(2)
            .map(|w| (w[1].0 - w[0].0).abs() + (w[1].1 - w[0].1).abs())
            .sum::<f64>()
    };
    let black = |e: &Element| e.tag == "polyline" && e.stroke() == "#000000";
    // Axes: long black lines, a vertical (y) then a horizontal (x) one per
    // plot.
    let axes: Vec<&Element> = elements
        .iter()
        .filter(|e| black(e) && length(e) > 12.0)
        .collect();
    let verticals: Vec<Vec<(f64, f64)>> = axes
        .iter()
        .map(|e| e.points())
        .filter(|p| p[0].0 == p[1].0)
        .collect();
    let horizontals: Vec<Vec<(f64, f64)>> = axes
        .iter()
        .map(|e| e.points())
        .filter(|p| p[0].1 == p[1].1)
        .collect();
    assert!(
        !verticals.is_empty() && verticals.len() == horizontals.len(),
        "{name}: expected pairs of axes, found {} vertical and {} horizontal",
        verticals.len(),
        horizontals.len()
    );
    let plots: Vec<Frame> = verticals
        .iter()
        .zip(&horizontals)
        .map(|(v, h)| {
            let top = v[0].1.min(v[1].1);
            let left = v[0].0;
            let right = h[0].0.max(h[1].0);
            let bottom = h[0].1;
            (left, top, right, bottom)
        })
        .collect();
    let boxes: Vec<Frame> = elements
        .iter()
        .filter(|e| e.tag == "rect" && e.stroke() == hex(BOX_COLOR))
        .map(|e| {
            let p = e.points();
            (p[0].0, p[0].1, p[1].0, p[1].1)
        })
        .collect();
    for b in &boxes {
        for p in &plots {
            assert!(
                !overlap(*b, *p),
                "{name}: a legend or scale {b:?} lies over the plot {p:?}"
            );
        }
    }
    // Everything drawn (but the background, the axes and ticks, and the
    // boxes themselves) lies in a plot or a box; markers may reach a few
    // pixels past the point they mark.
    let (width, height) = (elements[0].num("width"), elements[0].num("height"));
    for e in &elements {
        let background = e.tag == "rect"
            && e.points() == vec![(0.0, 0.0), (width, height)]
            && e.attr("fill") == Some("#FFFFFF");
        if e.tag == "text" || e.tag == "svg" || black(e) || background {
            continue;
        }
        if e.tag == "rect" && e.stroke() == hex(BOX_COLOR) {
            continue;
        }
        let points = e.points();
        let placed = plots
            .iter()
            .chain(&boxes)
            .any(|frame| points.iter().all(|&p| inside(*frame, p, 7.0)));
        assert!(
            placed,
            "{name}: <{} {:?}> lies outside every plot {plots:?} and box {boxes:?}",
            e.tag, e.attrs
        );
    }
    // Every tick mark (a short black line) has a label beside it.
    let texts: Vec<(f64, f64, &str)> = elements
        .iter()
        .filter(|e| e.tag == "text")
        .map(|e| (e.num("x"), e.num("y"), e.text.as_str()))
        .collect();
    let ticks: Vec<Vec<(f64, f64)>> = elements
        .iter()
        .filter(|e| black(e) && length(e) <= 12.0)
        .map(Element::points)
        .collect();
    assert!(!ticks.is_empty(), "{name}: no ticks");
    for tick in &ticks {
        let (a, b) = (tick[0], tick[1]);
        let labelled = texts.iter().any(|&(x, y, text)| {
            !text.is_empty()
                && if a.1 == b.1 {
                    // A tick across a vertical axis: its label left or right.
                    (y - a.1).abs() <= 3.0
                        && (x <= a.0.min(b.0) + 1.0 || x >= a.0.max(b.0) - 1.0)
                        && (x - a.0).abs().min((x - b.0).abs()) <= 16.0
                } else {
                    // A tick below a horizontal axis: its label under it.
                    (x - a.0).abs() <= 3.0 && y >= a.1.max(b.1) && y - a.1.max(b.1) <= 16.0
                }
        });
        assert!(labelled, "{name}: the tick {tick:?} has no label");
    }
    elements
}

fn outcome(label: &str, count: u64, trials: u64) -> OutcomeRow {
    let rate = count as f64 / trials as f64;
    let (lo, hi) = barsoom_engine::math::stats::wilson_interval(count, trials);
    OutcomeRow {
        label: label.into(),
        count,
        rate,
        ci95: [lo, hi],
    }
}

/// Sixteen outcomes (fourteen characters, no survivor, stopped at the
/// limit) as in a Talisman game, `shift` moving the counts about.
fn sixteen_outcomes(trials: u64, shift: u64) -> Vec<OutcomeRow> {
    let names = [
        "Warrior",
        "Wizard",
        "Troll",
        "Priest",
        "Thief",
        "Elf",
        "Dwarf",
        "Sorceress",
        "Minstrel",
        "Monk",
        "Merchant",
        "Assassin",
        "Druid",
        "Ghoul",
    ];
    let mut rows: Vec<OutcomeRow> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let count = 30 + ((i as u64 * 7 + shift * 5) % 40);
            outcome(&format!("{n} wins"), count, trials)
        })
        .collect();
    rows.push(outcome("no survivor", 2, trials));
    let rest = trials - rows.iter().map(|o| o.count).sum::<u64>();
    rows.push(outcome("unfinished after 60 rounds", rest, trials));
    rows
}

fn metric(name: &str, mean: f64, se: f64) -> MetricRow {
    MetricRow {
        name: name.into(),
        description: format!("{name} per game"),
        mean,
        se,
        min: Some(1),
        median: Some(30),
        max: Some(60),
        rate: None,
    }
}

fn many_series_summary() -> Summary {
    let trials = 1000;
    let lines = 14;
    let metrics: Vec<MetricRow> = (0..lines)
        .flat_map(|l| (1..=6).map(move |t| metric(&format!("held{l}_t{t}"), (l + t) as f64, 0.3)))
        .collect();
    Summary {
        model: "talisman.game".into(),
        scenario: "scenarios/talisman/many.toml".into(),
        scenario_name: "many".into(),
        description: "Six players dealt at random: a long description that has to wrap onto a second line of the title".into(),
        seed: Some(1),
        trials,
        exact: false,
        outcomes: sixteen_outcomes(trials, 0),
        metrics,
        stopping_rule: None,
        length_histogram: Some((
            metric("rounds", 41.0, 0.5),
            (10..=60).map(|v| (v, if v == 60 { 400 } else { 12 })).collect(),
        )),
        trends: vec![TrendSpec {
            stem: "held".into(),
            title: "Held over time".into(),
            x_label: "turn".into(),
            y_label: "cities".into(),
            y_max: None,
            lines: (0..lines)
                .map(|l| TrendLine {
                    name: format!("nation number {l} with a long name"),
                    points: (1..=6).map(|t| (t as f64 * 5.0, l * 6 + t - 1)).collect(),
                })
                .collect(),
        }],
    }
}

#[test]
fn every_chart_kind_keeps_its_series_in_the_plot_and_labels_its_ticks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();

    // A run's charts: sixteen outcome bars, the length with a limit, a
    // trend of fourteen lines (more than the palette).
    let summary = many_series_summary();
    write_charts(&summary, d).expect("run charts");
    for stem in ["outcomes", "length", "held"] {
        check_chart(&d.join(format!("{stem}.svg")));
    }
    let held = std::fs::read_to_string(d.join("held.svg")).expect("trend");
    assert!(
        held.contains("3 more not drawn"),
        "left-out lines are named"
    );

    // A sweep over one parameter with sixteen outcomes: the top eleven
    // and "other", each its own colour, on a rate axis no higher than 1.
    let results: Vec<SettingResult> = (0..5u64)
        .map(|k| SettingResult {
            values: vec![Value::Integer(k as i64 + 1)],
            summary: Summary {
                outcomes: sixteen_outcomes(1000, k),
                ..summary.clone()
            },
        })
        .collect();
    let paths = vec!["hand".to_string()];
    write_sweep_charts(&paths, &results, &[], d, "A sweep", "many outcomes").expect("sweep");
    let sweep = check_chart(&d.join("sweep.svg"));
    let legend = legend_frame(&sweep);
    let swatches: Vec<&str> = sweep
        .iter()
        .filter(|e| e.tag == "polyline" && e.attr("stroke-width") == Some("3"))
        .filter(|e| e.points().iter().all(|&p| inside(legend, p, 0.0)))
        .map(Element::stroke)
        .collect();
    assert_eq!(swatches.len(), PALETTE.len(), "{swatches:?}");
    let mut distinct = swatches.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        swatches.len(),
        "a colour repeats: {swatches:?}"
    );
    assert!(sweep.iter().any(|e| e.text == "other 5 outcomes (summed)"));
    let top_tick = sweep
        .iter()
        .filter(|e| e.tag == "text" && e.attr("text-anchor") == Some("end"))
        .filter_map(|e| e.text.parse::<f64>().ok())
        .fold(0.0f64, f64::max);
    assert!(top_tick <= 1.0, "the rate axis reaches {top_tick}");
    assert!(
        sweep.iter().any(|e| e.text.contains("axis zoomed to 0–")),
        "a zoomed rate axis says so"
    );

    // A sweep over two parameters: a heatmap per outcome, with its scale
    // and percentages in the cells.
    let grid: Vec<SettingResult> = (0..81u64)
        .map(|k| SettingResult {
            values: vec![
                Value::Integer((k / 9) as i64),
                Value::Integer((k % 9) as i64),
            ],
            summary: Summary {
                outcomes: sixteen_outcomes(100_000, k),
                ..summary.clone()
            },
        })
        .collect();
    let paths = vec!["a".to_string(), "b".to_string()];
    write_sweep_charts(&paths, &grid, &[], d, "A grid", "two parameters").expect("heatmaps");
    let heat = check_chart(&d.join("sweep-heatmap-0.svg"));
    assert!(
        heat.iter().any(|e| e.text == "100%"),
        "the scale is labelled"
    );
    assert!(
        heat.iter()
            .filter(|e| e.tag == "text")
            .all(|e| !e.text.contains("e-")),
        "no exponent in a cell"
    );

    // A round robin of fourteen entrants with long names.
    let names: Vec<String> = (0..14)
        .map(|i| format!("entrant with a long name {i}"))
        .collect();
    let heatmap = Heatmap {
        title: "Round robin".into(),
        subtitle: "fourteen entrants".into(),
        value_label: "score".into(),
        x_label: "opponent".into(),
        y_label: "entrant".into(),
        x_ticks: names.clone(),
        y_ticks: names,
        cells: (0..14)
            .map(|i| {
                (0..14)
                    .map(|j| {
                        if i == j {
                            f64::NAN
                        } else {
                            0.00002 * (i * j) as f64
                        }
                    })
                    .collect()
            })
            .collect(),
    };
    write_heatmap(&heatmap, d, "round-robin").expect("round robin");
    check_chart(&d.join("round-robin.svg"));

    // Tuning: panels with marks.
    let panel = |k: usize| LineChart {
        title: format!("target {k}"),
        subtitle: String::new(),
        x_label: "level".into(),
        y_label: "rate".into(),
        band: "95% Wilson interval".into(),
        x_names: Vec::new(),
        series: vec![LineSeries {
            name: "search estimate".into(),
            points: (1..=13)
                .map(|x| {
                    let y = f64::from(x) / 13.0;
                    (
                        f64::from(x),
                        y,
                        Some(((y - 0.1).max(0.0), (y + 0.1).min(1.0))),
                    )
                })
                .collect(),
        }],
        y_axis: YAxis::Rate,
        marks: vec![
            Mark::Level {
                y: 0.5,
                label: "target 0.5".into(),
            },
            Mark::At {
                x: 7.0,
                label: "chosen 7".into(),
            },
        ],
    };
    write_line_panels(
        "Tuning",
        "three targets",
        &[panel(1), panel(2), panel(3)],
        d,
        "tune",
    )
    .expect("panels");
    check_chart(&d.join("tune.svg"));

    // A comparison of sixteen outcomes.
    let chart = DifferenceChart {
        title: "A against B".into(),
        subtitle: String::new(),
        x_label: "change".into(),
        scale: Scale::Change,
        rows: (0..16)
            .map(|i| {
                let v = (i as f64 - 8.0) / 100.0;
                DifferenceRow {
                    label: format!("outcome {i}"),
                    difference: v,
                    ci95: [v - 0.01, v + 0.01],
                }
            })
            .collect(),
    };
    write_difference_chart(&chart, d, "compare").expect("compare");
    check_chart(&d.join("compare.svg"));

    // A breakdown's win rates of sixteen characters.
    let rates = DifferenceChart {
        x_label: "win rate".into(),
        scale: Scale::Rate { reference: 0.2 },
        rows: (0..16)
            .map(|i| {
                let v = 0.05 + i as f64 / 40.0;
                DifferenceRow {
                    label: format!("character {i}"),
                    difference: v,
                    ci95: [v - 0.03, v + 0.04],
                }
            })
            .collect(),
        ..chart
    };
    write_difference_chart(&rates, d, "characters").expect("characters");
    check_chart(&d.join("characters.svg"));
}

/// The frame of a line chart's legend box.
fn legend_frame(elements: &[Element]) -> Frame {
    elements
        .iter()
        .find(|e| e.tag == "rect" && e.stroke() == hex(BOX_COLOR))
        .map(|e| {
            let p = e.points();
            (p[0].0, p[0].1, p[1].0, p[1].1)
        })
        .expect("a legend box")
}

/// The legend entries of a line chart: the texts inside its legend box.
fn legend_texts(elements: &[Element]) -> Vec<String> {
    let legend = legend_frame(elements);
    elements
        .iter()
        .filter(|e| e.tag == "text" && inside(legend, (e.num("x"), e.num("y")), 0.0))
        .map(|e| e.text.clone())
        .collect()
}

#[test]
fn a_sweep_chart_draws_what_show_picks_and_names_a_list_of_equal_players_shortly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let base = many_series_summary();
    // Two outcomes, an indicator metric (0 or 1 in every trial) and a
    // metric that is not a rate, against every seat's player.
    let results: Vec<SettingResult> = ["sensible", "search:50"]
        .iter()
        .enumerate()
        .map(|(k, player)| {
            let seat_won = 200 + 100 * k as u64;
            let (lo, hi) = barsoom_engine::math::stats::wilson_interval(seat_won, 1000);
            let indicator = MetricRow {
                description: "1 if seat 1 won".into(),
                mean: seat_won as f64 / 1000.0,
                se: 0.013,
                min: Some(0),
                median: Some(0),
                max: Some(1),
                rate: Some(crate::summary::IndicatorRate {
                    count: seat_won,
                    ci95: [lo, hi],
                }),
                ..metric("seat1_won", 0.0, 0.0)
            };
            SettingResult {
                values: vec![Value::Array(vec![Value::String((*player).into()); 4])],
                summary: Summary {
                    outcomes: sixteen_outcomes(1000, k as u64),
                    metrics: vec![metric("rounds", 80.0, 0.5), indicator],
                    ..base.clone()
                },
            }
        })
        .collect();
    let paths = vec!["players".to_string()];
    let shown = [
        Measure::Rate(5),
        Measure::Rate(13),
        Measure::Mean(1),
        Measure::Mean(0),
    ];
    write_sweep_charts(&paths, &results, &shown, d, "A sweep", "shown").expect("sweep");
    let sweep = check_chart(&d.join("sweep.svg"));
    let legend = legend_texts(&sweep);
    assert_eq!(
        legend,
        [
            "Elf wins",
            "Ghoul wins",
            "seat1_won",
            "band: 95% Wilson interval"
        ],
        "the legend names what --show picked, the indicator metric as a rate, and no other metric"
    );
    for name in ["4 × sensible", "4 × search:50"] {
        assert!(
            sweep.iter().any(|e| e.tag == "text" && e.text == name),
            "the tick {name:?} names a list of equal players"
        );
    }

    // Without --show, every outcome (here the top eleven and "other").
    write_sweep_charts(&paths, &results, &[], d, "A sweep", "all").expect("sweep");
    let all = legend_texts(&check_chart(&d.join("sweep.svg")));
    assert!(
        all.iter().any(|t| t == "other 5 outcomes (summed)"),
        "{all:?}"
    );
}

#[test]
fn the_check_finds_a_series_outside_the_plot_and_an_unlabelled_tick() {
    let dir = tempfile::tempdir().expect("tempdir");
    let chart = LineChart {
        title: "t".into(),
        subtitle: String::new(),
        x_label: "x".into(),
        y_label: "y".into(),
        band: String::new(),
        x_names: Vec::new(),
        series: vec![LineSeries {
            name: "a".into(),
            points: vec![(1.0, 1.0, None), (2.0, 2.0, None)],
        }],
        y_axis: YAxis::Fit,
        marks: Vec::new(),
    };
    write_line_chart(&chart, dir.path(), "ok").expect("chart");
    let path = dir.path().join("ok.svg");
    check_chart(&path);
    let svg = std::fs::read_to_string(&path).expect("read");
    // A line moved far right of the plot, into no box.
    let stray = svg.replacen(
        "</svg>",
        "<polyline fill=\"none\" stroke=\"#1F77B4\" stroke-width=\"3\" points=\"5,5 6,6 \"/>\n</svg>",
        1,
    );
    std::fs::write(dir.path().join("stray.svg"), stray).expect("write");
    let outside = std::panic::catch_unwind(|| check_chart(&dir.path().join("stray.svg")));
    assert!(outside.is_err(), "a line outside the plot is caught");
    // A tick label emptied.
    let first_label = svg.find("dy=\"0.5ex\"").expect("a y tick label");
    let close = first_label + svg[first_label..].find('>').expect("tag end");
    let end = close + svg[close..].find("</text>").expect("text end");
    let blank = format!("{}>\n{}", &svg[..close], &svg[end..]);
    std::fs::write(dir.path().join("blank.svg"), blank).expect("write");
    let unlabelled = std::panic::catch_unwind(|| check_chart(&dir.path().join("blank.svg")));
    assert!(unlabelled.is_err(), "a tick without a label is caught");
}
