//! `barsoom report`: one self-contained HTML page built from the output
//! folders of `run`/`merge`, `sweep`, `compare`, `tune`, `tournament`,
//! `bench` and `breakdown`. This module reads the folders into sections;
//! `breakdown` reads a breakdown's tables, `safe` checks what is inlined
//! and escapes text, `render` writes the page.
//!
//! Each folder is recognised by the JSON file its command writes (`run.json`,
//! `sweep.json`, ...). A section shows what the JSON records (scenario, model,
//! seed, trials, version and the command that reproduces it), the command's
//! frames read back from CSV as tables (a `ci95_low`/`ci95_high` pair becomes
//! one interval column; a frame with a `kind` column is split into one table
//! per kind), and the folder's SVG charts inline. The page has no scripts and
//! references nothing outside itself: CSS is inline and each chart's SVG is
//! copied in after checking it holds no scripts, links or embedded content.

use std::path::{Path, PathBuf};

use polars::prelude::*;
use serde_json::Value;

use super::summary::group_thousands;

mod breakdown;
mod render;
mod safe;

pub use render::render;
pub use safe::escape;
use safe::inline_svg;

/// A folder that cannot be reported: the file (or folder) and what was
/// expected, in one line.
#[derive(Debug, thiserror::Error)]
#[error("{}: {message}", path.display())]
pub struct ReportError {
    /// The folder or file at fault.
    pub path: PathBuf,
    /// What was expected and found.
    pub message: String,
}

impl ReportError {
    pub(crate) fn new(path: &Path, message: impl Into<String>) -> Self {
        ReportError {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }
}

/// A frame a command writes, and the captions of its tables.
struct FrameSpec {
    /// File stem: `<stem>.csv`.
    stem: &'static str,
    /// Caption of the table (or of a `kind` group not named in `groups`).
    caption: &'static str,
    /// Captions of the tables of a frame split by its `kind` column.
    groups: &'static [(&'static str, &'static str)],
}

/// A table drawn from an array of objects in the command's JSON.
struct JsonTableSpec {
    /// JSON pointer to the array.
    pointer: &'static str,
    /// Caption.
    caption: &'static str,
    /// The objects' keys shown, and their column headers.
    columns: &'static [(&'static str, &'static str)],
}

/// What a command leaves in its folder.
struct Layout {
    /// The command, as the section's title says it.
    command: &'static str,
    /// The JSON file that identifies the folder.
    info_file: &'static str,
    /// Frames shown as tables.
    frames: &'static [FrameSpec],
    /// Tables drawn from the JSON file.
    json_tables: &'static [JsonTableSpec],
}

const OUTCOME_GROUPS: &[(&str, &str)] = &[
    ("outcome", "Outcome rates with 95% Wilson intervals"),
    (
        "metric",
        "Metrics: mean, standard error, smallest, median and largest value; for a 0/1 metric also its count of ones, rate and 95% Wilson interval",
    ),
];

/// Every kind of folder, in the order an error message lists them.
const LAYOUTS: &[Layout] = &[
    Layout {
        command: "run",
        info_file: "run.json",
        frames: &[FrameSpec {
            stem: "summary",
            caption: "Summary",
            groups: OUTCOME_GROUPS,
        }],
        json_tables: &[],
    },
    Layout {
        command: "sweep",
        info_file: "sweep.json",
        frames: &[FrameSpec {
            stem: "sweep",
            caption: "One row per setting (common random numbers): outcome rates with 95% Wilson intervals, metric means and standard errors",
            groups: &[],
        }],
        json_tables: &[],
    },
    Layout {
        command: "compare",
        info_file: "compare.json",
        frames: &[FrameSpec {
            stem: "compare",
            caption: "Comparison",
            groups: &[
                (
                    "outcome",
                    "Outcome rates, first and second, and the change (second − first) with its paired 95% interval; unpaired trials needed: per run, for the same precision without pairing",
                ),
                (
                    "metric",
                    "Change in metric means (second − first) with 95% intervals",
                ),
            ],
        }],
        json_tables: &[],
    },
    Layout {
        command: "tune",
        info_file: "tune.json",
        frames: &[FrameSpec {
            stem: "tune",
            caption: "Search trace: every setting in every round of successive halving",
            groups: &[],
        }],
        json_tables: &[
            JsonTableSpec {
                pointer: "/targets",
                caption: "Targets and the winner's values confirmed on a fresh seed",
                columns: &[
                    ("name", "target"),
                    ("target", "wanted"),
                    ("confirmed", "confirmed"),
                ],
            },
            JsonTableSpec {
                pointer: "/confirmed/outcomes",
                caption: "The winner's outcome rates on the fresh seed, with 95% Wilson intervals",
                columns: &[
                    ("label", "outcome"),
                    ("count", "count"),
                    ("rate", "rate"),
                    ("ci95", "ci95"),
                ],
            },
        ],
    },
    Layout {
        command: "tournament",
        info_file: "tournament.json",
        frames: &[
            FrameSpec {
                stem: "ratings",
                caption: "Bradley–Terry ratings (log-strength centred on zero) with 95% intervals, and the Elo scale",
                groups: &[],
            },
            FrameSpec {
                stem: "head-to-head",
                caption: "Head-to-head record over both seatings, win rates with 95% Wilson intervals",
                groups: &[],
            },
        ],
        json_tables: &[],
    },
    Layout {
        command: "bench",
        info_file: "bench.json",
        frames: &[FrameSpec {
            stem: "bench",
            caption: "Throughput: median of repeated timings, run-to-run noise, speed-up, and the ratio to a raw dice loop",
            groups: &[],
        }],
        json_tables: &[],
    },
    Layout {
        command: "breakdown",
        info_file: "breakdown.json",
        // One frame per table, named in the JSON: see `breakdown`.
        frames: &[],
        json_tables: &[],
    },
];

/// The facts a section lists when its JSON has them: pointer and label.
const FACTS: &[(&str, &str)] = &[
    ("/description", "description"),
    ("/scenario", "scenario"),
    ("/first/scenario", "first scenario"),
    ("/second/scenario", "second scenario"),
    ("/second/name", "second"),
    ("/first/overrides", "changes to both"),
    ("/second/overrides", "changes to the second"),
    ("/model", "model"),
    ("/first/model", "model"),
    ("/machine", "machine"),
    ("/seed", "seed"),
    ("/confirm_seed", "confirmation seed"),
    ("/trials", "trials"),
    ("/games", "games"),
    ("/heading", "in all"),
    ("/paired_trials", "paired trials"),
    ("/trials_per_setting", "trials per setting"),
    ("/first_round_trials", "first-round trials per setting"),
    ("/search_trials", "search trials in all"),
    (
        "/trials_per_pairing_and_seat",
        "trials per pairing and seating",
    ),
    ("/scenarios", "scenarios timed"),
    ("/repeats", "timings per row"),
    ("/threads", "threads"),
    ("/settings", "settings"),
    ("/vary", "varied"),
    ("/overrides", "changes (--set)"),
    ("/stopping_rule", "stopping rule"),
    ("/merged_from", "merged from"),
    ("/common_random_numbers", "common random numbers"),
    ("/pairing", "pairing"),
    ("/method", "method"),
    ("/best", "best setting"),
    ("/search_loss", "loss in the search"),
    ("/confirmed_loss", "loss confirmed"),
    ("/seats", "seat fields"),
    ("/entrants", "entrants"),
    ("/measures/seat_win_rates", "win rate from seat 0, seat 1"),
    ("/measures/first_seat_advantage", "first-seat advantage"),
    (
        "/measures/first_seat_advantage_ci95",
        "first-seat advantage, 95% interval",
    ),
    ("/measures/balance_gap", "balance gap"),
    ("/measures/drawishness", "drawishness"),
    ("/measures/completion", "completion"),
    ("/measures/decisiveness", "decisiveness"),
    ("/mean_length/metric", "length metric"),
    ("/mean_length/mean", "mean length"),
    ("/version", "barsoom version"),
];

/// A table ready to print: every cell already formatted.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// What the table shows.
    pub caption: String,
    /// Column headers.
    pub headers: Vec<String>,
    /// Whether each column holds numbers (right-aligned).
    pub numeric: Vec<bool>,
    /// The rows' cells.
    pub rows: Vec<Vec<String>>,
}

/// An SVG chart of a folder, or why it was left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// File name, e.g. `outcomes.svg`.
    pub name: String,
    /// The `<svg>` element to inline, or why the file was left out.
    pub svg: Result<String, String>,
}

/// One output folder, read and ready to render.
#[derive(Debug, Clone)]
pub struct Section {
    /// The folder as given.
    pub dir: PathBuf,
    /// The command that wrote it: run, merge, sweep, compare, tune,
    /// tournament or bench.
    pub command: String,
    /// A short title: the scenario (or what was compared or measured).
    pub title: String,
    /// The command's JSON file.
    pub info: Value,
    /// Label and text of each fact the JSON records.
    pub facts: Vec<(String, String)>,
    /// The frames and JSON arrays as tables.
    pub tables: Vec<Table>,
    /// The charts, in the order the command wrote them.
    pub charts: Vec<Chart>,
}

impl Section {
    /// The command line that reproduces the folder, when it was recorded.
    pub fn command_line(&self) -> Option<&str> {
        self.info.get("command").and_then(Value::as_str)
    }
}

/// The commands whose folders can be reported, for messages.
fn known_outputs() -> String {
    LAYOUTS
        .iter()
        .map(|l| format!("{} ({})", l.info_file, l.command))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The output folders `dir` stands for: itself when it is one (it holds
/// the JSON file of a command), else every output folder below it, found
/// by walking its subfolders in name order (not into an output folder,
/// a hidden folder or a link; at most [`MAX_DEPTH`] levels down), so
/// `barsoom report reports/` reports every result there. A folder holding
/// none is returned as is, for [`read_section`] to explain.
pub fn result_folders(dir: &Path) -> Vec<PathBuf> {
    fn is_output(dir: &Path) -> bool {
        LAYOUTS.iter().any(|l| dir.join(l.info_file).is_file())
    }
    fn walk(dir: &Path, depth: usize, found: &mut Vec<PathBuf>) {
        if is_output(dir) {
            found.push(dir.to_path_buf());
            return;
        }
        if depth == MAX_DEPTH {
            return;
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut subfolders: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
            .map(|e| e.path())
            .collect();
        subfolders.sort();
        for sub in subfolders {
            walk(&sub, depth + 1, found);
        }
    }
    let mut found = Vec::new();
    if dir.is_dir() {
        walk(dir, 0, &mut found);
    }
    if found.is_empty() {
        found.push(dir.to_path_buf());
    }
    found
}

/// How deep [`result_folders`] looks below the folder it is given.
pub const MAX_DEPTH: usize = 6;

/// Reads one output folder.
pub fn read_section(dir: &Path) -> Result<Section, ReportError> {
    if !dir.is_dir() {
        let found = if dir.exists() {
            "not a folder"
        } else {
            "no such folder"
        };
        return Err(ReportError::new(
            dir,
            format!(
                "{found}; expected an output folder of barsoom run, merge, sweep, compare, tune, tournament, bench or breakdown"
            ),
        ));
    }
    let Some(layout) = LAYOUTS.iter().find(|l| dir.join(l.info_file).is_file()) else {
        return Err(ReportError::new(
            dir,
            format!(
                "no barsoom outputs found in it or its subfolders; expected one of {}",
                known_outputs()
            ),
        ));
    };
    let info_path = dir.join(layout.info_file);
    let text = std::fs::read_to_string(&info_path)
        .map_err(|e| ReportError::new(&info_path, format!("cannot read it: {e}")))?;
    let info: Value = serde_json::from_str(&text).map_err(|e| {
        ReportError::new(
            &info_path,
            format!(
                "expected the JSON object barsoom {} writes: {e}",
                layout.command
            ),
        )
    })?;
    if !info.is_object() {
        return Err(ReportError::new(
            &info_path,
            format!(
                "expected the JSON object barsoom {} writes, found another JSON value",
                layout.command
            ),
        ));
    }
    let command = if layout.command == "run" && info.get("merged_from").is_some() {
        "merge"
    } else {
        layout.command
    };
    let mut tables = Vec::new();
    for spec in layout.frames {
        tables.extend(frame_tables(dir, spec)?);
    }
    for spec in layout.json_tables {
        if let Some(table) = json_table(&info, spec) {
            tables.push(table);
        }
    }
    if layout.command == "breakdown" {
        tables.extend(breakdown::tables(dir, &info)?);
    }
    let charts = charts(dir, &info)?;
    // Last, so that the errors above name the file that is wrong; every file
    // read was written by one command, which then wrote the manifest.
    crate::files::verify_manifest(dir, None).map_err(|e| ReportError::new(&e.path, e.message))?;
    Ok(Section {
        dir: dir.to_path_buf(),
        command: command.to_string(),
        title: section_title(&info),
        facts: facts(&info),
        charts,
        tables,
        info,
    })
}

/// The scenario's file stem, "first against second", or the machine.
fn section_title(info: &Value) -> String {
    let stem = |pointer: &str| {
        info.pointer(pointer).and_then(Value::as_str).map(|s| {
            Path::new(s)
                .file_stem()
                .map_or(s.to_string(), |f| f.to_string_lossy().into_owned())
        })
    };
    if let Some(first) = stem("/first/scenario") {
        let second = info
            .pointer("/second/name")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| stem("/second/scenario"))
            .unwrap_or_default();
        return format!("{first} against {second}");
    }
    stem("/scenario")
        .or_else(|| {
            info.get("machine")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .unwrap_or_else(|| "results".to_string())
}

/// The facts the JSON records, formatted, in [`FACTS`] order.
fn facts(info: &Value) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    for (pointer, label) in FACTS {
        let Some(value) = info.pointer(pointer) else {
            continue;
        };
        let mut text = fact_text(value);
        if pointer.ends_with("ci95") {
            text = format!("[{text}]");
        }
        if text.is_empty() || found.iter().any(|(l, t)| l == label && *t == text) {
            continue;
        }
        found.push(((*label).to_string(), text));
    }
    found
}

/// A JSON value as one line: numbers grouped or to four decimals, arrays
/// joined (numbers to shared decimals), `{path, values}` as `path =
/// values`, objects as `key=value`.
fn fact_text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => group_signed(i),
            (None, Some(x)) => format_number(x, decimals_for(x.abs())),
            _ => n.to_string(),
        },
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            if !items.is_empty() && items.iter().all(Value::is_f64) {
                let xs: Vec<f64> = items.iter().filter_map(Value::as_f64).collect();
                let decimals = column_decimals(xs.iter().map(|&x| Some(x)));
                return xs
                    .iter()
                    .map(|&x| format_number(x, decimals))
                    .collect::<Vec<_>>()
                    .join(", ");
            }
            items
                .iter()
                .map(|item| match (item.get("path"), item.get("values")) {
                    (Some(path), Some(values)) => {
                        format!("{} = {}", fact_text(path), fact_text(values))
                    }
                    _ => fact_text(item),
                })
                .collect::<Vec<_>>()
                .join(", ")
        }
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| format!("{k}={}", fact_text(v)))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// A column of a frame, typed.
#[derive(Debug, Clone, PartialEq)]
enum Cells {
    Integers(Vec<Option<i64>>),
    Numbers(Vec<Option<f64>>),
    Text(Vec<Option<String>>),
}

impl Cells {
    fn len(&self) -> usize {
        match self {
            Cells::Integers(v) => v.len(),
            Cells::Numbers(v) => v.len(),
            Cells::Text(v) => v.len(),
        }
    }

    fn is_null(&self, row: usize) -> bool {
        match self {
            Cells::Integers(v) => v[row].is_none(),
            Cells::Numbers(v) => v[row].is_none_or(|x| x.is_nan()),
            Cells::Text(v) => v[row].is_none(),
        }
    }
}

/// Reads `<stem>.csv` of `dir` into named, typed columns.
fn read_frame(dir: &Path, stem: &str) -> Result<Vec<(String, Cells)>, ReportError> {
    let path = dir.join(format!("{stem}.csv"));
    if !path.is_file() {
        return Err(ReportError::new(
            &path,
            format!("missing; expected the frame {stem}.csv beside the folder's JSON file"),
        ));
    }
    let bad = |e: PolarsError| ReportError::new(&path, format!("expected a CSV frame: {e}"));
    let frame = CsvReadOptions::default()
        .with_has_header(true)
        .with_infer_schema_length(None)
        .try_into_reader_with_file_path(Some(path.clone()))
        .and_then(|r| r.finish())
        .map_err(bad)?;
    let mut columns = Vec::new();
    for column in frame.columns() {
        let name = column.name().to_string();
        let dtype = column.dtype();
        let cells = if dtype.is_integer() {
            let cast = column.cast(&DataType::Int64).map_err(bad)?;
            let values = cast.i64().map_err(bad)?;
            Cells::Integers((0..values.len()).map(|i| values.get(i)).collect())
        } else if dtype.is_float() {
            let cast = column.cast(&DataType::Float64).map_err(bad)?;
            let values = cast.f64().map_err(bad)?;
            Cells::Numbers((0..values.len()).map(|i| values.get(i)).collect())
        } else {
            let cast = column.cast(&DataType::String).map_err(bad)?;
            let values = cast.str().map_err(bad)?;
            Cells::Text(
                (0..values.len())
                    .map(|i| values.get(i).map(str::to_string))
                    .collect(),
            )
        };
        columns.push((name, cells));
    }
    Ok(columns)
}

/// `<stem>.csv` of `dir` as one table of all its rows, captioned `caption`.
pub(crate) fn csv_table(dir: &Path, stem: &str, caption: &str) -> Result<Table, ReportError> {
    let columns = read_frame(dir, stem)?;
    let height = columns.first().map_or(0, |(_, c)| c.len());
    let rows: Vec<usize> = (0..height).collect();
    Ok(build_table(caption, &columns, &rows))
}

/// The tables of one frame: one, or one per value of its `kind` column.
fn frame_tables(dir: &Path, spec: &FrameSpec) -> Result<Vec<Table>, ReportError> {
    let columns = read_frame(dir, spec.stem)?;
    let height = columns.first().map_or(0, |(_, c)| c.len());
    let kinds = columns.iter().find_map(|(name, cells)| match cells {
        Cells::Text(values) if name == "kind" => Some(values.clone()),
        _ => None,
    });
    let Some(kinds) = kinds else {
        let rows: Vec<usize> = (0..height).collect();
        return Ok(vec![build_table(spec.caption, &columns, &rows)]);
    };
    let mut groups: Vec<&str> = Vec::new();
    for kind in kinds.iter().flatten() {
        if !groups.contains(&kind.as_str()) {
            groups.push(kind);
        }
    }
    let shown: Vec<(String, Cells)> = columns.into_iter().filter(|(n, _)| n != "kind").collect();
    Ok(groups
        .iter()
        .map(|group| {
            let rows: Vec<usize> = (0..height)
                .filter(|&r| kinds[r].as_deref() == Some(*group))
                .collect();
            let caption = spec.groups.iter().find(|(g, _)| g == group).map_or_else(
                || format!("{}: {group}", spec.caption),
                |(_, c)| c.to_string(),
            );
            // The `name` column holds outcome labels, metric names, ...:
            // headed by the group it is in.
            let mut named: Vec<(String, Cells)> = shown
                .iter()
                .map(|(n, c)| {
                    let n = if n == "name" {
                        (*group).to_string()
                    } else {
                        n.clone()
                    };
                    (n, c.clone())
                })
                .collect();
            // Columns filled in only some of the group's rows (a 0/1
            // metric's rate and interval) go after those filled in all.
            named.sort_by_key(|(_, cells)| {
                let nulls = rows.iter().filter(|&&r| cells.is_null(r)).count();
                nulls > 0 && nulls < rows.len()
            });
            build_table(&caption, &named, &rows)
        })
        .collect())
}

/// A table of `rows` of `columns`, leaving out columns empty in those rows
/// and merging each `…ci95_low`, `…ci95_high` pair into one interval column.
fn build_table(caption: &str, columns: &[(String, Cells)], rows: &[usize]) -> Table {
    let mut table = Table {
        caption: caption.to_string(),
        headers: Vec::new(),
        numeric: Vec::new(),
        rows: vec![Vec::new(); rows.len()],
    };
    let mut k = 0;
    while k < columns.len() {
        let (name, cells) = &columns[k];
        k += 1;
        if rows.iter().all(|&r| cells.is_null(r)) {
            continue;
        }
        let interval = name.strip_suffix("ci95_low").and_then(|prefix| {
            let (next, high) = columns.get(k)?;
            match (cells, high) {
                (Cells::Numbers(lo), Cells::Numbers(hi))
                    if next.strip_suffix("ci95_high") == Some(prefix) =>
                {
                    Some((prefix, lo, hi))
                }
                _ => None,
            }
        });
        if let Some((prefix, lo, hi)) = interval {
            k += 1;
            let decimals = column_decimals(rows.iter().flat_map(|&r| [lo[r], hi[r]]));
            table.headers.push(header(&format!("{prefix}95% interval")));
            table.numeric.push(true);
            for (out, &r) in table.rows.iter_mut().zip(rows) {
                out.push(match (lo[r], hi[r]) {
                    (Some(a), Some(b)) => format!(
                        "[{}, {}]",
                        format_number(a, decimals),
                        format_number(b, decimals)
                    ),
                    _ => String::new(),
                });
            }
            continue;
        }
        table.headers.push(header(name));
        table.numeric.push(!matches!(cells, Cells::Text(_)));
        match cells {
            Cells::Integers(v) => {
                for (out, &r) in table.rows.iter_mut().zip(rows) {
                    out.push(v[r].map_or(String::new(), group_signed));
                }
            }
            Cells::Numbers(v) => {
                let decimals = column_decimals(rows.iter().map(|&r| v[r]));
                for (out, &r) in table.rows.iter_mut().zip(rows) {
                    out.push(v[r].map_or(String::new(), |x| format_number(x, decimals)));
                }
            }
            Cells::Text(v) => {
                for (out, &r) in table.rows.iter_mut().zip(rows) {
                    out.push(v[r].clone().unwrap_or_default());
                }
            }
        }
    }
    table
}

/// A column name as a header: underscores read as spaces.
fn header(name: &str) -> String {
    name.replace('_', " ").trim().to_string()
}

/// The table drawn from an array of objects in the JSON, if it is there.
fn json_table(info: &Value, spec: &JsonTableSpec) -> Option<Table> {
    let items = info.pointer(spec.pointer)?.as_array()?;
    let mut columns: Vec<(String, Cells)> = Vec::new();
    for (key, name) in spec.columns {
        let values: Vec<Option<&Value>> = items.iter().map(|item| item.get(*key)).collect();
        let pairs: Option<Vec<[f64; 2]>> = values
            .iter()
            .map(|v| {
                let [a, b] = v.and_then(Value::as_array)?.as_slice() else {
                    return None;
                };
                Some([a.as_f64()?, b.as_f64()?])
            })
            .collect();
        if let Some(pairs) = pairs {
            columns.push((
                format!("{name}_low"),
                Cells::Numbers(pairs.iter().map(|p| Some(p[0])).collect()),
            ));
            columns.push((
                format!("{name}_high"),
                Cells::Numbers(pairs.iter().map(|p| Some(p[1])).collect()),
            ));
        } else if values.iter().flatten().all(|v| v.is_i64() || v.is_u64()) {
            columns.push((
                (*name).to_string(),
                Cells::Integers(values.iter().map(|v| v.and_then(Value::as_i64)).collect()),
            ));
        } else if values.iter().flatten().all(|v| v.is_number()) {
            columns.push((
                (*name).to_string(),
                Cells::Numbers(values.iter().map(|v| v.and_then(Value::as_f64)).collect()),
            ));
        } else {
            columns.push((
                (*name).to_string(),
                Cells::Text(values.iter().map(|v| v.map(fact_text)).collect()),
            ));
        }
    }
    let rows: Vec<usize> = (0..items.len()).collect();
    Some(build_table(spec.caption, &columns, &rows))
}

/// Decimals for a column: whole numbers above 10,000, one decimal above
/// 100, four below, six for columns of tiny values.
fn column_decimals(values: impl Iterator<Item = Option<f64>>) -> usize {
    let largest = values
        .flatten()
        .filter(|x| x.is_finite())
        .fold(0.0_f64, |m, x| m.max(x.abs()));
    decimals_for(largest)
}

fn decimals_for(largest: f64) -> usize {
    if largest >= 10_000.0 {
        0
    } else if largest >= 100.0 {
        1
    } else if largest == 0.0 || largest >= 0.01 {
        4
    } else {
        6
    }
}

/// `x` with `decimals` decimals, thousands grouped when there are none;
/// "-" for NaN and infinities.
fn format_number(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return "-".to_string();
    }
    if decimals == 0 && x.abs() < 9.0e18 {
        return group_signed(x.round() as i64);
    }
    format!("{x:.decimals$}")
}

/// A signed whole number with thousands grouped.
fn group_signed(n: i64) -> String {
    let grouped = group_thousands(n.unsigned_abs());
    if n < 0 {
        format!("-{grouped}")
    } else {
        grouped
    }
}

/// The folder's charts: the SVG files its JSON lists under `outputs`, in
/// that order (so stale charts of an earlier command are not shown), or
/// every SVG file in it when the JSON lists none.
fn charts(dir: &Path, info: &Value) -> Result<Vec<Chart>, ReportError> {
    let listed: Option<Vec<String>> = info.get("outputs").and_then(Value::as_array).map(|a| {
        a.iter()
            .filter_map(Value::as_str)
            .filter_map(|p| Path::new(p).file_name())
            .map(|f| f.to_string_lossy().into_owned())
            .filter(|f| f.ends_with(".svg"))
            .collect()
    });
    let names = match listed {
        Some(names) => names,
        None => {
            let entries = std::fs::read_dir(dir)
                .map_err(|e| ReportError::new(dir, format!("cannot list the folder: {e}")))?;
            let mut names: Vec<String> = entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|f| f.ends_with(".svg") && !f.starts_with('.'))
                .collect();
            names.sort_by_key(|n| natural_key(n));
            names
        }
    };
    Ok(names
        .into_iter()
        .map(|name| {
            let path = dir.join(&name);
            let svg = match std::fs::read_to_string(&path) {
                Ok(text) => inline_svg(&text),
                Err(e) => Err(format!("cannot read {}: {e}", path.display())),
            };
            Chart { name, svg }
        })
        .collect())
}

/// A sort key that orders `sweep-heatmap-10` after `sweep-heatmap-9`.
fn natural_key(name: &str) -> Vec<(String, u64)> {
    let mut key = Vec::new();
    let mut text = String::new();
    let mut digits = String::new();
    for c in name.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            if !digits.is_empty() {
                key.push((
                    std::mem::take(&mut text),
                    digits.parse().unwrap_or(u64::MAX),
                ));
                digits.clear();
            }
            text.push(c);
        }
    }
    key.push((text, digits.parse().unwrap_or(0)));
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn numbers_are_formatted_by_column_size() {
        assert_eq!(column_decimals([Some(0.5), Some(0.25)].into_iter()), 4);
        assert_eq!(column_decimals([Some(233.2), None].into_iter()), 1);
        assert_eq!(column_decimals([Some(4_287_561.3)].into_iter()), 0);
        assert_eq!(column_decimals([Some(0.0012)].into_iter()), 6);
        assert_eq!(format_number(4_287_561.3, 0), "4,287,561");
        assert_eq!(format_number(-0.01234, 4), "-0.0123");
        assert_eq!(format_number(f64::NAN, 4), "-");
        assert_eq!(group_signed(-1234), "-1,234");
    }

    #[test]
    fn interval_columns_merge_and_empty_columns_drop() {
        let columns = vec![
            (
                "name".to_string(),
                Cells::Text(vec![Some("a".into()), Some("b".into())]),
            ),
            (
                "rate".to_string(),
                Cells::Numbers(vec![Some(0.5), Some(0.25)]),
            ),
            (
                "ci95_low".to_string(),
                Cells::Numbers(vec![Some(0.4), Some(0.2)]),
            ),
            (
                "ci95_high".to_string(),
                Cells::Numbers(vec![Some(0.6), Some(0.3)]),
            ),
            ("mean".to_string(), Cells::Numbers(vec![None, None])),
            (
                "count".to_string(),
                Cells::Integers(vec![Some(12_345), Some(7)]),
            ),
        ];
        let table = build_table("t", &columns, &[0, 1]);
        assert_eq!(table.headers, ["name", "rate", "95% interval", "count"]);
        assert_eq!(table.numeric, [false, true, true, true]);
        assert_eq!(table.rows[0], ["a", "0.5000", "[0.4000, 0.6000]", "12,345"]);
        assert_eq!(table.rows[1][2], "[0.2000, 0.3000]");
    }

    #[test]
    fn natural_order_of_chart_names() {
        let mut names = vec![
            "sweep-heatmap-10.svg",
            "sweep-heatmap-9.svg",
            "sweep-heatmap-0.svg",
        ];
        names.sort_by_key(|n| natural_key(n));
        assert_eq!(
            names,
            [
                "sweep-heatmap-0.svg",
                "sweep-heatmap-9.svg",
                "sweep-heatmap-10.svg"
            ]
        );
    }

    #[test]
    fn facts_read_nested_and_listed_values() {
        let info = serde_json::json!({
            "scenario": "scenarios/wom/padwar-vs-padwar.toml",
            "seed": 7,
            "trials": 1_000_000,
            "overrides": [],
            "vary": [{"path": "sides[0].figures[0].level", "values": ["5", "6"]}],
            "measures": {"first_seat_advantage_ci95": [-0.0025, 0.0026]},
            "common_random_numbers": true,
        });
        let facts = facts(&info);
        let get = |label: &str| {
            facts
                .iter()
                .find(|(l, _)| l == label)
                .map(|(_, t)| t.as_str())
        };
        assert_eq!(get("trials"), Some("1,000,000"));
        assert_eq!(get("seed"), Some("7"));
        assert_eq!(get("varied"), Some("sides[0].figures[0].level = 5, 6"));
        assert_eq!(
            get("first-seat advantage, 95% interval"),
            Some("[-0.002500, 0.002600]")
        );
        assert_eq!(get("common random numbers"), Some("yes"));
        assert_eq!(get("changes (--set)"), None, "empty lists are left out");
        assert_eq!(section_title(&info), "padwar-vs-padwar");
    }
}
