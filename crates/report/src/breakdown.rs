//! Lays a model's [`Breakdown`] out as aligned text tables.

use std::io::{self, Write};

use barsoom_engine::breakdown::{Breakdown, Cell, Table};
use serde_json::{Value, json};

/// Writes every table of `breakdown`, a blank line between them. A ranked
/// table shows its first `rows` rows (0: all) and says how many it left out.
pub fn write_breakdown(out: &mut impl Write, breakdown: &Breakdown, rows: usize) -> io::Result<()> {
    for table in &breakdown.tables {
        writeln!(out)?;
        write_table(out, table, rows)?;
    }
    Ok(())
}

/// The tables of `breakdown` as JSON, every row: `{columns, ranked, rows,
/// notes}` each, a count or mean as a number and a rate as `{hits, of,
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
            json!({"columns": table.columns, "ranked": table.ranked, "rows": rows, "notes": table.notes})
        })
        .collect();
    Value::Array(tables)
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

    #[test]
    fn tables_align_text_left_and_numbers_right_and_ranked_ones_are_cut() {
        // 120 of 200: Wilson centre 0.5981, half-width 0.0673.
        let mut table = Table::new(&["card", "met", "rate"]);
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
