//! Breakdown tables: what a model can say about many games beyond one
//! outcome per trial (per hero, per character, per card or table entry).
//! The games build them; the report layer lays them out.

use crate::math::stats::wilson_interval;

/// One cell of a [`Table`].
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// A name or label.
    Text(String),
    /// A count.
    Count(u64),
    /// A real number shown with `decimals` places.
    Real {
        /// The value.
        value: f64,
        /// Places after the point.
        decimals: usize,
    },
    /// `hits` of `of`, shown as a rate with its 95% Wilson interval.
    Rate {
        /// Successes.
        hits: u64,
        /// Trials.
        of: u64,
        /// Places after the point.
        decimals: usize,
    },
}

impl Cell {
    /// `value` shown with `decimals` places.
    pub fn real(value: f64, decimals: usize) -> Cell {
        Cell::Real { value, decimals }
    }

    /// `numerator / denominator` (0 when the denominator is 0) with
    /// `decimals` places: a mean per game, per play or per meeting.
    pub fn ratio(numerator: u64, denominator: u64, decimals: usize) -> Cell {
        Cell::real(numerator as f64 / denominator.max(1) as f64, decimals)
    }

    /// `hits` of `of` as a rate with its Wilson interval.
    pub fn rate(hits: u64, of: u64, decimals: usize) -> Cell {
        Cell::Rate { hits, of, decimals }
    }

    /// `hits` of `of` as `(rate, low, high)`: the rate (0 with no trials)
    /// and its 95% Wilson interval.
    pub fn rate_with_interval(hits: u64, of: u64) -> (f64, f64, f64) {
        let (low, high) = wilson_interval(hits, of);
        (hits as f64 / of.max(1) as f64, low, high)
    }

    /// Whether the cell reads left to right (text) rather than as a number.
    pub fn is_text(&self) -> bool {
        matches!(self, Cell::Text(_))
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cell::Text(text) => f.write_str(text),
            Cell::Count(n) => write!(f, "{n}"),
            Cell::Real { value, decimals } => write!(f, "{value:.decimals$}"),
            Cell::Rate { hits, of, decimals } => {
                let (rate, lo, hi) = Cell::rate_with_interval(*hits, *of);
                write!(f, "{rate:.decimals$} [{lo:.decimals$},{hi:.decimals$}]")
            }
        }
    }
}

/// A table of a [`Breakdown`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    /// The table's name, which names its files (`heroes.csv`): lower case,
    /// words joined by `-`, one per table of a breakdown.
    pub name: String,
    /// Column headings.
    pub columns: Vec<String>,
    /// Rows, each with one cell per column.
    pub rows: Vec<Vec<Cell>>,
    /// The rows are ranked, most first: a reader may show only the first
    /// few (the rest are summarised by the notes).
    pub ranked: bool,
    /// Lines shown under the table.
    pub notes: Vec<String>,
}

impl Table {
    /// An empty table named `name` with these column headings.
    pub fn new(name: &str, columns: &[&str]) -> Table {
        assert!(
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "a table name is lower case words joined by '-': {name:?}"
        );
        Table {
            name: name.to_string(),
            columns: columns.iter().map(|c| (*c).to_string()).collect(),
            ..Table::default()
        }
    }

    /// What its rows are, in words: its name with spaces (`table entries`).
    pub fn rows_are(&self) -> String {
        self.name.replace('-', " ")
    }
}

/// A model's breakdown of a run of games.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Breakdown {
    /// Games played.
    pub games: u64,
    /// One line on the run as a whole (how many finished and the like).
    pub heading: String,
    /// The tables, in reading order.
    pub tables: Vec<Table>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_keeps_the_name_the_model_gives_it() {
        let table = Table::new("hero-means", &["hero", "kills"]);
        assert_eq!(table.name, "hero-means");
        assert_eq!(table.columns, ["hero", "kills"]);
        assert_eq!(
            Table::new("table-entries", &["x"]).rows_are(),
            "table entries"
        );
    }

    #[test]
    #[should_panic(expected = "lower case words joined by '-'")]
    fn a_table_name_is_lower_case_words_joined_by_hyphens() {
        let _ = Table::new("Hero means", &["hero"]);
    }

    #[test]
    fn cells_show_counts_reals_and_rates_with_their_intervals() {
        assert_eq!(Cell::Count(12).to_string(), "12");
        assert_eq!(Cell::real(0.12345, 3).to_string(), "0.123");
        assert_eq!(Cell::ratio(1, 0, 2).to_string(), "1.00");
        // 5 of 10: Wilson 95% interval [0.237, 0.763].
        assert_eq!(Cell::rate(5, 10, 3).to_string(), "0.500 [0.237,0.763]");
        assert_eq!(Cell::rate(0, 0, 2).to_string(), "0.00 [0.00,1.00]");
        assert!(Cell::Text("x".into()).is_text() && !Cell::Count(1).is_text());
    }
}
