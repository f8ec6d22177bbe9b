//! The tables of a `barsoom breakdown` folder in the report: one per table
//! its `breakdown.json` names, read back from `<name>.csv`, captioned with
//! what the rows are and the notes printed under the table (the note on
//! who plays what among them).

use std::path::Path;

use serde_json::Value;

use super::{ReportError, Table, csv_table};
use crate::files::is_plain_name;

/// The tables of the breakdown folder `dir`, in the order its JSON `info`
/// lists them (`tables: [{name, columns, ranked, notes}]`).
pub(crate) fn tables(dir: &Path, info: &Value) -> Result<Vec<Table>, ReportError> {
    let bad = |message: String| ReportError::new(&dir.join("breakdown.json"), message);
    let listed = info
        .get("tables")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("expected `tables`, the list of the breakdown's tables".into()))?;
    listed
        .iter()
        .enumerate()
        .map(|(k, table)| {
            let name = table
                .get("name")
                .and_then(Value::as_str)
                .filter(|name| is_plain_name(name))
                .ok_or_else(|| {
                    bad(format!(
                        "tables[{k}].name: expected the file name of a table in the folder"
                    ))
                })?;
            csv_table(dir, name, &caption(name, table))
        })
        .collect()
}

/// `Per character (characters.csv), most first. <notes>`.
fn caption(name: &str, table: &Value) -> String {
    let first = table
        .pointer("/columns/0")
        .and_then(Value::as_str)
        .unwrap_or(name);
    let mut caption = if first.starts_with("per ") {
        format!("{} ({name}.csv)", capitalised(first))
    } else {
        format!("Per {first} ({name}.csv)")
    };
    if table.get("ranked").and_then(Value::as_bool) == Some(true) {
        caption.push_str(", most first");
    }
    caption.push('.');
    for note in table
        .get("notes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        caption.push(' ');
        caption.push_str(note);
    }
    caption
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
