//! Parameter grids for `barsoom sweep` and `barsoom tune`: each `--vary`
//! names an override path and its values (a list, or a numeric range), and
//! the grid is their cartesian product. Every setting runs the same trial
//! indices of the same seed (common random numbers), so differences between
//! settings are not blurred by different dice.

use toml::Value;

use barsoom_engine::scenario::overrides::{Override, distinct_paths, parse_path, parse_value};

/// Most settings one `--vary` may expand to.
pub(crate) const MAX_VALUES: usize = 10_000;

/// One varied parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Vary {
    /// The override path.
    pub path: String,
    /// Its values, in order.
    pub values: Vec<Value>,
}

impl Vary {
    /// Parses `PATH=V1,V2,...` or `PATH=A..B` or `PATH=A..B:STEP`
    /// (inclusive of B; whole numbers if A, B and STEP all are).
    pub fn parse(text: &str) -> Result<Vary, String> {
        let (path, values) = text
            .split_once('=')
            .ok_or_else(|| format!("expected PATH=V1,V2,... or PATH=A..B:STEP, found {text:?}"))?;
        let path = path.trim();
        parse_path(path)?;
        let values = values.trim();
        let parsed = match parse_range(values)? {
            Some(range) => range,
            None => split_top_level(values)
                .into_iter()
                .map(|v| parse_value(v.trim()))
                .collect(),
        };
        if parsed.is_empty() || values.is_empty() {
            return Err(format!("--vary {path}: expected at least one value"));
        }
        Ok(Vary {
            path: path.to_string(),
            values: parsed,
        })
    }
}

/// `A..B[:STEP]` as values, `None` if `text` is not a range.
fn parse_range(text: &str) -> Result<Option<Vec<Value>>, String> {
    let Some((a, rest)) = text.split_once("..") else {
        return Ok(None);
    };
    let (b, step) = match rest.split_once(':') {
        Some((b, step)) => (b, Some(step)),
        None => (rest, None),
    };
    let number = |s: &str| -> Result<Value, String> {
        match parse_value(s.trim()) {
            v @ (Value::Integer(_) | Value::Float(_)) => Ok(v),
            _ => Err(format!(
                "expected a number in the range {text:?}, found {s:?}"
            )),
        }
    };
    let (a, b) = (number(a)?, number(b)?);
    let step = step.map(number).transpose()?.unwrap_or(Value::Integer(1));
    if let (Value::Integer(a), Value::Integer(b), Value::Integer(step)) = (&a, &b, &step) {
        if *step <= 0 || b < a {
            return Err(format!("range {text:?}: expected A <= B and STEP > 0"));
        }
        let count = (b - a) / step + 1;
        if count as usize > MAX_VALUES {
            return Err(format!("range {text:?}: more than {MAX_VALUES} values"));
        }
        return Ok(Some(
            (0..count).map(|k| Value::Integer(a + k * step)).collect(),
        ));
    }
    let f = |v: &Value| {
        v.as_float()
            .or_else(|| v.as_integer().map(|i| i as f64))
            .unwrap_or(0.0)
    };
    let (a, b, step) = (f(&a), f(&b), f(&step));
    if step <= 0.0 || b < a || !(a.is_finite() && b.is_finite() && step.is_finite()) {
        return Err(format!("range {text:?}: expected A <= B and STEP > 0"));
    }
    let count = ((b - a) / step + 1e-9).floor() as usize + 1;
    if count > MAX_VALUES {
        return Err(format!("range {text:?}: more than {MAX_VALUES} values"));
    }
    // Rounded to 12 significant decimals so 0.1 steps print as 0.3, not
    // 0.30000000000000004.
    Ok(Some(
        (0..count)
            .map(|k| Value::Float(((a + k as f64 * step) * 1e12).round() / 1e12))
            .collect(),
    ))
}

/// Splits at commas outside brackets and quotes.
fn split_top_level(text: &str) -> Vec<&str> {
    let (mut depth, mut quoted, mut start) = (0i32, false, 0);
    let mut parts = Vec::new();
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '[' | '{' if !quoted => depth += 1,
            ']' | '}' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// A value as a cell or axis label: strings bare, numbers as written.
pub fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The value as a number, when it is one.
pub fn value_number(value: &Value) -> Option<f64> {
    value
        .as_float()
        .or_else(|| value.as_integer().map(|i| i as f64))
}

/// Most settings a grid searched without running it whole (`tune --method
/// ntbea`) may hold: its settings are made one at a time as they are
/// evaluated, and its model keeps a few bytes per setting.
pub const MAX_SEARCHED_SETTINGS: usize = 1_000_000;

/// The combinations of the varied values, the first `--vary` changing
/// slowest, made one at a time by number.
#[derive(Debug, Clone, Copy)]
pub struct Grid<'a> {
    varies: &'a [Vary],
    len: usize,
}

impl<'a> Grid<'a> {
    /// The grid of `varies`: an error for a path given twice or more than
    /// `max` settings.
    pub fn new(varies: &'a [Vary], max: usize) -> Result<Self, String> {
        distinct_paths("--vary", varies.iter().map(|v| v.path.as_str()))?;
        let len = varies
            .iter()
            .try_fold(1usize, |n, v| n.checked_mul(v.values.len()))
            .filter(|n| *n <= max)
            .ok_or_else(|| format!("the grid has more than {max} settings"))?;
        Ok(Grid { varies, len })
    }

    /// Settings in the grid.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it has none (a `--vary` with no values).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Setting `index` (below [`Grid::len`]) as its overrides.
    pub fn setting(&self, index: usize) -> Result<Vec<Override>, String> {
        let mut rest = index;
        let mut setting = vec![None; self.varies.len()];
        for (k, vary) in self.varies.iter().enumerate().rev() {
            let value = &vary.values[rest % vary.values.len()];
            rest /= vary.values.len();
            setting[k] = Some(Override::parse(&format!(
                "{}={}",
                vary.path,
                value_literal(value)
            ))?);
        }
        Ok(setting.into_iter().flatten().collect())
    }
}

/// Every combination of the varied values, the first `--vary` changing
/// slowest, each setting as its overrides: at most [`MAX_VALUES`].
pub fn grid(varies: &[Vary]) -> Result<Vec<Vec<Override>>, String> {
    let grid = Grid::new(varies, MAX_VALUES)?;
    (0..grid.len()).map(|i| grid.setting(i)).collect()
}

/// The value written so that [`parse_value`] reads it back unchanged.
fn value_literal(value: &Value) -> String {
    match value {
        Value::String(s) if parse_value(s) == Value::String(s.clone()) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_ranges_parse() {
        let v = Vary::parse("sides[0].figures[0].level=6,8,10").expect("list");
        assert_eq!(
            v.values,
            vec![Value::Integer(6), Value::Integer(8), Value::Integer(10)]
        );
        let r = Vary::parse("x=2..8:3").expect("range");
        assert_eq!(
            r.values,
            vec![Value::Integer(2), Value::Integer(5), Value::Integer(8)]
        );
        let f = Vary::parse("x=0.1..0.5:0.2").expect("float range");
        assert_eq!(
            f.values,
            vec![Value::Float(0.1), Value::Float(0.3), Value::Float(0.5)]
        );
        let words = Vary::parse("c=tars-tarkas,john-carter").expect("words");
        assert_eq!(value_text(&words.values[1]), "john-carter");
        let arrays = Vary::parse("w=[1,2],[3,4]").expect("arrays");
        assert_eq!(arrays.values.len(), 2);
        for bad in [
            "x",
            "x=",
            "x=5..1",
            "x=1..5:0",
            "x=a..b",
            "x[=1",
            "x=1..100000",
        ] {
            assert!(Vary::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_grid_is_the_cartesian_product_first_vary_slowest() {
        let a = Vary::parse("a=1,2").expect("a");
        let b = Vary::parse("b=x,y,z").expect("b");
        let g = grid(&[a, b]).expect("grid");
        assert_eq!(g.len(), 6);
        let texts: Vec<String> = g
            .iter()
            .map(|s| {
                s.iter()
                    .map(|o| format!("{}={}", o.path_text, value_text(&o.value)))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert_eq!(texts[0], "a=1 b=x");
        assert_eq!(texts[2], "a=1 b=z");
        assert_eq!(texts[3], "a=2 b=x");
    }
}
