//! Lays a model's [`Breakdown`] out: as aligned text tables, as JSON, as
//! one CSV and Parquet file per table, and as a chart of its headline rates
//! (each hero's or character's win rate with its interval). Also decides
//! whether those rates are skewed by who plays what ([`skew`]).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use barsoom_engine::breakdown::{Breakdown, Cell, Table};
use barsoom_engine::math::stats::equal_shares_chi_square;
use polars::prelude::{Column, DataFrame, PolarsResult};
use serde_json::{Value, json};

use crate::charts::{ChartError, DifferenceChart, DifferenceRow, Scale, write_difference_chart};
use crate::files::OutputError;
use crate::frames::write_frame;
use crate::summary::group_thousands;

/// Writes every table of `breakdown`, a blank line between them. A ranked
/// table shows its first `rows` rows (0: all) and says how many it left out.
pub fn write_breakdown(out: &mut impl Write, breakdown: &Breakdown, rows: usize) -> io::Result<()> {
    for table in &breakdown.tables {
        writeln!(out)?;
        write_table(out, table, rows)?;
    }
    Ok(())
}

/// The tables of `breakdown` as JSON, every row: `{name, columns, ranked,
/// rows, notes}` each (the name the model gives it), a count or mean as a number and a rate as `{hits, of,
/// rate, low, high}`.
pub fn breakdown_tables_json(breakdown: &Breakdown) -> Value {
    let cell = |cell: &Cell| match cell {
        Cell::Text(text) => json!(text),
        Cell::Count(n) => json!(n),
        Cell::Real { value, .. } => json!(value),
        Cell::Rate { hits, of, .. } => {
            let (rate, low, high) = Cell::rate_with_interval(*hits, *of);
            json!({"hits": hits, "of": of, "rate": rate, "low": low, "high": high})
        }
    };
    let tables: Vec<Value> = breakdown
        .tables
        .iter()
        .map(|table| {
            let rows: Vec<Vec<Value>> = table.rows.iter().map(|row| row.iter().map(cell).collect()).collect();
            json!({"name": table.name, "columns": table.columns, "ranked": table.ranked, "rows": rows, "notes": table.notes})
        })
        .collect();
    Value::Array(tables)
}

/// A column heading as a frame column's name: lower case, its runs of
/// letters and digits joined by `_` (`/` read as `per`: `met/game` is
/// `met_per_game`).
fn column_name(heading: &str) -> String {
    let text = heading.to_lowercase().replace('/', " per ");
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("_")
}

/// The table of a breakdown's headline rates and the column of the rate:
/// the first table whose rows are named (a text first cell) and hold a
/// rate, and its first rate column (per hero: `champion`; per character:
/// `win rate`).
pub fn headline(breakdown: &Breakdown) -> Option<(usize, usize)> {
    breakdown.tables.iter().enumerate().find_map(|(t, table)| {
        let first = table.rows.first()?;
        if !first.first().is_some_and(Cell::is_text) {
            return None;
        }
        let column = first.iter().position(|c| matches!(c, Cell::Rate { .. }))?;
        Some((t, column))
    })
}

/// How much more one hero or character is played than another, when that
/// is too much to compare their rates as if in equal games: see [`skew`].
#[derive(Debug, Clone, PartialEq)]
pub struct Skew {
    /// What the rows are, in the plural (`characters`).
    pub rows: String,
    /// The most played: name and games in play.
    pub most: (String, u64),
    /// The least played.
    pub least: (String, u64),
    /// Pearson's chi-square statistic of the games in play against equal
    /// shares.
    pub chi_square: f64,
    /// Its degrees of freedom (rows less one).
    pub degrees_of_freedom: usize,
    /// The statistic's 95th percentile under equal shares.
    pub critical_value: f64,
}

impl Skew {
    /// The line said under the table, in the JSON and in the report.
    pub fn note(&self) -> String {
        format!(
            "note: these rates compare {rows} as these players choose them, not in equal games: {} was in play in {} games, {} in {} (chi-square {:.1} on {} degrees of freedom against equal shares; 5% critical value {:.1})",
            self.most.0,
            group_thousands(self.most.1),
            self.least.0,
            group_thousands(self.least.1),
            self.chi_square,
            self.degrees_of_freedom,
            self.critical_value,
            rows = self.rows,
        )
    }

    /// As JSON: `{rows, most: {name, games}, least, chi_square,
    /// degrees_of_freedom, critical_value, note}`.
    pub fn to_json(&self) -> Value {
        json!({
            "rows": self.rows,
            "most": {"name": self.most.0, "games": self.most.1},
            "least": {"name": self.least.0, "games": self.least.1},
            "chi_square": self.chi_square,
            "degrees_of_freedom": self.degrees_of_freedom,
            "critical_value": self.critical_value,
            "note": self.note(),
        })
    }
}

/// The most played row must be in at least this many times the games of
/// the least played for [`skew`] to speak.
pub const SKEW_RATIO: f64 = 1.2;

/// Whether the headline rates are skewed by who plays what: the rows'
/// games in play (the trials of each row's headline rate) are uneven
/// beyond chance and by enough to matter. Both must hold: (1) the most
/// played row is in at least [`SKEW_RATIO`] times the games of the least
/// played (a smaller gap moves little), and (2) Pearson's chi-square test
/// of the games in play against equal shares rejects them at the 5% level
/// (so the spread of a short run of randomly dealt heroes does not set it
/// off). The 95th percentile is the Wilson–Hilferty approximation, within
/// 0.1 of the exact value from 1 degree of freedom up. `None` when the
/// breakdown has no headline table, fewer than two rows, or no skew.
pub fn skew(breakdown: &Breakdown) -> Option<Skew> {
    let (t, column) = headline(breakdown)?;
    let table = &breakdown.tables[t];
    let rows: Vec<(&str, u64)> = table
        .rows
        .iter()
        .filter_map(|row| match (row.first(), row.get(column)) {
            (Some(Cell::Text(name)), Some(Cell::Rate { of, .. })) => Some((name.as_str(), *of)),
            _ => None,
        })
        .collect();
    let games: Vec<u64> = rows.iter().map(|r| r.1).collect();
    let (chi_square, critical_value) = equal_shares_chi_square(&games)?;
    // The first of the most and of the least played, in table order
    // (`max_by_key` keeps the last of equals, `min_by_key` the first).
    let most = rows.iter().rev().max_by_key(|r| r.1)?;
    let least = rows.iter().min_by_key(|r| r.1)?;
    let uneven = most.1 as f64 >= SKEW_RATIO * least.1 as f64;
    (uneven && chi_square > critical_value).then(|| Skew {
        rows: table.rows_are(),
        most: (most.0.to_string(), most.1),
        least: (least.0.to_string(), least.1),
        chi_square,
        degrees_of_freedom: games.len() - 1,
        critical_value,
    })
}

/// Adds the note of [`skew`], if any, under the headline table (so the
/// text, the JSON and the files all carry it) and returns the skew.
pub fn note_skew(breakdown: &mut Breakdown) -> Option<Skew> {
    let found = skew(breakdown)?;
    let (t, _) = headline(breakdown)?;
    breakdown.tables[t].notes.push(found.note());
    Some(found)
}

/// A table as a frame, one column per heading (lower case, words joined by
/// `_`, `/` read as `per`): text as strings, counts as unsigned integers,
/// means as floats, and a rate as three float columns, the rate and its
/// 95% Wilson interval (`win_rate`, `win_rate_ci95_low`,
/// `win_rate_ci95_high`). A column mixing counts and means is all floats;
/// one mixing text with numbers is all text.
pub fn table_frame(table: &Table) -> PolarsResult<DataFrame> {
    let mut columns: Vec<Column> = Vec::new();
    let mut taken: Vec<String> = Vec::new();
    let mut unique = |name: String| {
        let mut candidate = name.clone();
        let mut k = 1;
        while taken.contains(&candidate) {
            k += 1;
            candidate = format!("{name}_{k}");
        }
        taken.push(candidate.clone());
        candidate
    };
    for (c, heading) in table.columns.iter().enumerate() {
        let cells: Vec<Option<&Cell>> = table.rows.iter().map(|row| row.get(c)).collect();
        let all = |f: fn(&Cell) -> bool| cells.iter().flatten().all(|cell| f(cell));
        let name = column_name(heading);
        let name = if name.is_empty() {
            format!("column_{}", c + 1)
        } else {
            name
        };
        if all(|cell| matches!(cell, Cell::Count(_))) {
            let values: Vec<Option<u64>> = cells
                .iter()
                .map(|cell| match cell {
                    Some(Cell::Count(n)) => Some(*n),
                    _ => None,
                })
                .collect();
            columns.push(Column::new(unique(name).into(), values));
        } else if all(|cell| matches!(cell, Cell::Rate { .. })) {
            let intervals: Vec<Option<(f64, f64, f64)>> = cells
                .iter()
                .map(|cell| match cell {
                    Some(Cell::Rate { hits, of, .. }) => Some(Cell::rate_with_interval(*hits, *of)),
                    _ => None,
                })
                .collect();
            let part = |f: fn(&(f64, f64, f64)) -> f64| -> Vec<Option<f64>> {
                intervals.iter().map(|i| i.as_ref().map(f)).collect()
            };
            let rate = unique(name);
            columns.push(Column::new(rate.as_str().into(), part(|i| i.0)));
            columns.push(Column::new(
                format!("{rate}_ci95_low").into(),
                part(|i| i.1),
            ));
            columns.push(Column::new(
                format!("{rate}_ci95_high").into(),
                part(|i| i.2),
            ));
        } else if all(|cell| matches!(cell, Cell::Count(_) | Cell::Real { .. })) {
            let values: Vec<Option<f64>> = cells
                .iter()
                .map(|cell| match cell {
                    Some(Cell::Count(n)) => Some(*n as f64),
                    Some(Cell::Real { value, .. }) => Some(*value),
                    _ => None,
                })
                .collect();
            columns.push(Column::new(unique(name).into(), values));
        } else {
            let values: Vec<Option<String>> = cells
                .iter()
                .map(|cell| {
                    cell.map(|cell| match cell {
                        Cell::Text(text) => text.clone(),
                        other => other.to_string(),
                    })
                })
                .collect();
            columns.push(Column::new(unique(name).into(), values));
        }
    }
    DataFrame::new_infer_height(columns)
}

/// Writes every table of `breakdown` as `<name>.csv` and `<name>.parquet`
/// in `dir`, named by the model ([`table_frame`]).
pub fn write_breakdown_frames(
    breakdown: &Breakdown,
    dir: &Path,
) -> Result<Vec<PathBuf>, OutputError> {
    let mut written = Vec::new();
    for table in &breakdown.tables {
        let name = &table.name;
        let frame = table_frame(table)
            .map_err(|e| OutputError::new(&dir.join(format!("{name}.csv")), e))?;
        written.extend(write_frame(frame, dir, name)?);
    }
    Ok(written)
}

/// Draws the headline rates (see [`headline`]) as `<table name>.png` and
/// `.svg` in `dir`: one row per hero or character, highest rate on top, its
/// 95% Wilson interval, and a dashed line at the rate of all rows pooled;
/// titled `title`. Nothing when there is no headline table.
pub fn write_breakdown_chart(
    breakdown: &Breakdown,
    dir: &Path,
    title: &str,
    seed: u64,
) -> Result<Vec<PathBuf>, ChartError> {
    let Some((t, column)) = headline(breakdown) else {
        return Ok(Vec::new());
    };
    let table = &breakdown.tables[t];
    let mut rows: Vec<(DifferenceRow, u64, u64)> = table
        .rows
        .iter()
        .filter_map(|row| match (row.first(), row.get(column)) {
            (Some(Cell::Text(label)), Some(Cell::Rate { hits, of, .. })) => {
                let (rate, low, high) = Cell::rate_with_interval(*hits, *of);
                let row = DifferenceRow {
                    label: label.clone(),
                    difference: rate,
                    ci95: [low, high],
                };
                Some((row, *hits, *of))
            }
            _ => None,
        })
        .collect();
    rows.sort_by(|a, b| b.0.difference.total_cmp(&a.0.difference));
    let hits: u64 = rows.iter().map(|r| r.1).sum();
    let of: u64 = rows.iter().map(|r| r.2).sum();
    let reference = hits as f64 / of.max(1) as f64;
    let heading = &table.columns[column];
    let rate_name = if heading.contains("rate") {
        heading.clone()
    } else {
        format!("{heading} rate")
    };
    let all_rows = table.rows_are();
    let chart = DifferenceChart {
        title: title.to_string(),
        subtitle: format!(
            "{} games, seed {seed} · dashed: all {all_rows} pooled ({reference:.3}) · green above, red below: interval clear of it",
            group_thousands(breakdown.games)
        ),
        x_label: format!(
            "{rate_name} per {}, with 95% Wilson interval",
            table.columns[0]
        ),
        scale: Scale::Rate { reference },
        rows: rows.into_iter().map(|r| r.0).collect(),
    };
    write_difference_chart(&chart, dir, &table.name)
}

fn write_table(out: &mut impl Write, table: &Table, rows: usize) -> io::Result<()> {
    let shown = if table.ranked && rows > 0 {
        rows.min(table.rows.len())
    } else {
        table.rows.len()
    };
    let cells: Vec<Vec<String>> = table.rows[..shown]
        .iter()
        .map(|row| row.iter().map(Cell::to_string).collect())
        .collect();
    let widths: Vec<usize> = (0..table.columns.len())
        .map(|c| {
            cells
                .iter()
                .filter_map(|row| row.get(c))
                .chain([&table.columns[c]])
                .map(|text| text.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    // A column of text reads from the left, a column of numbers from the
    // right (its heading too).
    let left: Vec<bool> = (0..table.columns.len())
        .map(|c| {
            table
                .rows
                .first()
                .and_then(|row| row.get(c))
                .is_none_or(Cell::is_text)
        })
        .collect();
    let line = |texts: &mut dyn Iterator<Item = &String>| {
        let mut text = String::new();
        for (c, cell) in texts.enumerate() {
            let width = widths.get(c).copied().unwrap_or(0);
            if c > 0 {
                text.push_str("  ");
            }
            if left.get(c).copied().unwrap_or(true) {
                text.push_str(&format!("{cell:<width$}"));
            } else {
                text.push_str(&format!("{cell:>width$}"));
            }
        }
        text.trim_end().to_string()
    };
    writeln!(out, "{}", line(&mut table.columns.iter()))?;
    for row in &cells {
        writeln!(out, "{}", line(&mut row.iter()))?;
    }
    if shown < table.rows.len() {
        let more = table.rows.len() - shown;
        let rows = if more == 1 { "row" } else { "rows" };
        writeln!(
            out,
            "({more} more {rows}; --rows 0 shows all {})",
            table.rows.len()
        )?;
    }
    for note in &table.notes {
        writeln!(out, "{note}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A breakdown whose one table has a row per `(name, games in play,
    /// wins)`.
    fn per_character(rows: &[(&str, u64, u64)]) -> Breakdown {
        let mut table = Table::new("characters", &["character", "in games", "win rate"]);
        for &(name, games, wins) in rows {
            table.rows.push(vec![
                Cell::Text(name.into()),
                Cell::Count(games),
                Cell::rate(wins, games, 3),
            ]);
        }
        Breakdown {
            games: 200,
            heading: String::new(),
            tables: vec![table],
        }
    }

    #[test]
    fn uneven_games_in_play_are_noted_with_the_most_and_least_played() {
        // Chosen characters: Troll in 159 games, Dwarf in 95. Expected 126
        // each: chi-square (33² + 31² + 2²) / 126 = 16.3 on 2 degrees of
        // freedom, above 5.99.
        let mut b = per_character(&[("Troll", 159, 30), ("Elf", 124, 40), ("Dwarf", 95, 9)]);
        let skew = note_skew(&mut b).expect("skewed");
        assert_eq!(skew.most, ("Troll".to_string(), 159));
        assert_eq!(skew.least, ("Dwarf".to_string(), 95));
        assert_eq!(skew.degrees_of_freedom, 2);
        assert!(
            (skew.chi_square - 2054.0 / 126.0).abs() < 1e-9,
            "{}",
            skew.chi_square
        );
        assert!(
            (skew.critical_value - 5.991).abs() < 0.1,
            "{}",
            skew.critical_value
        );
        assert_eq!(skew.rows, "characters");
        let note = skew.note();
        assert!(
            note.starts_with("note: these rates compare characters as these players choose them, not in equal games: Troll was in play in 159 games, Dwarf in 95"),
            "{note}"
        );
        assert_eq!(b.tables[0].notes, vec![note]);
    }

    #[test]
    fn chance_spread_or_a_small_gap_is_not_noted() {
        // A short run: 6 against 3 is twice as many, but chance (chi-square
        // 1.0 on 1 degree of freedom).
        assert_eq!(skew(&per_character(&[("A", 6, 1), ("B", 3, 1)])), None);
        // A long run: 10,400 against 10,000 is beyond chance (chi-square
        // 7.8 > 3.84) but under the 1.2 ratio.
        assert_eq!(
            skew(&per_character(&[("A", 10_400, 1), ("B", 10_000, 1)])),
            None
        );
        // Equal games, one row, or no rate column: nothing to say.
        assert_eq!(skew(&per_character(&[("A", 50, 1), ("B", 50, 9)])), None);
        assert_eq!(skew(&per_character(&[("A", 50, 1)])), None);
        let mut b = per_character(&[("A", 500, 1), ("B", 50, 9)]);
        b.tables[0].rows.iter_mut().for_each(|row| row.truncate(2));
        assert_eq!(skew(&b), None);
        assert_eq!(note_skew(&mut b), None);
        assert!(b.tables[0].notes.is_empty());
    }

    #[test]
    fn a_table_frame_types_its_columns_and_spreads_a_rate_over_three() {
        let mut table = Table::new(
            "cards",
            &["card", "met/game", "kills", "kill rate", "mixed"],
        );
        table.rows.push(vec![
            Cell::Text("Dragon".into()),
            Cell::ratio(3, 2, 3),
            Cell::Count(4),
            Cell::rate(5, 10, 3),
            Cell::Count(1),
        ]);
        table.rows.push(vec![
            Cell::Text("Imp".into()),
            Cell::ratio(1, 2, 3),
            Cell::Count(0),
            Cell::rate(0, 10, 3),
            Cell::real(0.5, 1),
        ]);
        let frame = table_frame(&table).expect("frame");
        let names: Vec<&str> = frame
            .get_column_names()
            .iter()
            .map(|c| c.as_str())
            .collect();
        assert_eq!(
            names,
            [
                "card",
                "met_per_game",
                "kills",
                "kill_rate",
                "kill_rate_ci95_low",
                "kill_rate_ci95_high",
                "mixed"
            ]
        );
        use polars::prelude::DataType;
        assert_eq!(
            frame.dtypes(),
            [
                DataType::String,
                DataType::Float64,
                DataType::UInt64,
                DataType::Float64,
                DataType::Float64,
                DataType::Float64,
                DataType::Float64
            ]
        );
        // 5 of 10: Wilson 95% interval [0.237, 0.763].
        let low = frame
            .column("kill_rate_ci95_low")
            .expect("low")
            .f64()
            .expect("f64")
            .get(0);
        assert!(low.is_some_and(|l| (l - 0.2366).abs() < 1e-4), "{low:?}");
    }

    #[test]
    fn tables_align_text_left_and_numbers_right_and_ranked_ones_are_cut() {
        // 120 of 200: Wilson centre 0.5981, half-width 0.0673.
        let mut table = Table::new("cards", &["card", "met", "rate"]);
        table.ranked = true;
        for (name, met) in [("Dragon", 120), ("Ogre", 7), ("Imp", 3)] {
            table.rows.push(vec![
                Cell::Text(name.into()),
                Cell::Count(met),
                Cell::rate(met, 200, 2),
            ]);
        }
        table.notes.push("a note".into());
        let breakdown = Breakdown {
            games: 200,
            heading: String::new(),
            tables: vec![table],
        };
        let mut out = Vec::new();
        write_breakdown(&mut out, &breakdown, 2).expect("write");
        let text = String::from_utf8(out).expect("utf-8");
        assert_eq!(
            text,
            "\ncard    met              rate\n\
             Dragon  120  0.60 [0.53,0.67]\n\
             Ogre      7  0.04 [0.02,0.07]\n\
             (1 more row; --rows 0 shows all 3)\n\
             a note\n"
        );
    }
}
