//! Bounds on what a scenario may ask for, checked once at load so that no
//! input can exhaust memory or time, or wrap silently: the size of a file,
//! the length of keys, names and prose, and the narrowing of integers.
//!
//! Every limit is far above what the bundled scenarios use (the largest
//! data file is about 20 KB, the longest name 83 characters, the longest
//! prose 1,386 characters), so only an input that could not be meant hits
//! one.

use std::io::Read;
use std::ops::RangeInclusive;
use std::path::Path;

use toml::Value;

use super::ScenarioError;

/// The largest scenario or data file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The longest key or string, in characters: identifiers, names, labels,
/// references, players. Prose fields ([`is_prose`]) may be longer.
pub const MAX_NAME_CHARS: usize = 200;

/// The longest prose string (descriptions, provenance, notes, a map row),
/// in characters.
pub const MAX_TEXT_CHARS: usize = 8_192;

/// Whether a string under `key` (in the table under `parent`) is prose
/// rather than a name: a description, a provenance or note, the readings of
/// open rules points, or a row of a map (24 hexes with their details).
fn is_prose(key: &str, parent: &str) -> bool {
    [
        "description",
        "provenance",
        "text",
        "notes",
        "examples",
        "rows",
    ]
    .contains(&key)
        || key.ends_with("_notes")
        || parent == "readings"
}

/// `value` as a `T` within `range`, or `None`: the one way a value a user
/// wrote narrows to a smaller integer type, so that no value outside the
/// type wraps into range (`i64::MIN.abs()` overflows, `as i8` truncates).
pub fn narrow<T: TryFrom<i64>>(value: i64, range: RangeInclusive<i64>) -> Option<T> {
    range
        .contains(&value)
        .then(|| T::try_from(value).ok())
        .flatten()
}

/// Reads the file at `path` as UTF-8 text, refusing anything but a regular
/// file (a FIFO, a device such as `/dev/zero`, a folder) and a file larger
/// than [`MAX_FILE_BYTES`] (also when it grows while being read).
pub(super) fn read_bounded(path: &Path) -> Result<String, ScenarioError> {
    let cannot = |e: std::io::Error| {
        ScenarioError::new(path, "(file)", format!("cannot read the file: {e}"))
    };
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if !meta.is_file() {
        return Err(ScenarioError::new(
            path,
            "(file)",
            "expected a regular file (not a folder, device or pipe)",
        ));
    }
    let too_big = || {
        ScenarioError::new(
            path,
            "(file)",
            format!(
                "expected a file of at most {} MiB, found a larger one",
                MAX_FILE_BYTES / (1024 * 1024)
            ),
        )
    };
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big());
    }
    String::from_utf8(bytes).map_err(|_| {
        ScenarioError::new(path, "(file)", "cannot read the file: expected UTF-8 text")
    })
}

/// Refuses a key, name or string of `document` (read from `file`) longer
/// than its limit, naming the field.
pub(super) fn check_lengths(file: &Path, document: &Value) -> Result<(), ScenarioError> {
    walk(file, document, "", ("", ""))
}

/// [`check_lengths`] of `value` at `path`, under `key` of the table under
/// `parent` (array elements keep the key of their array).
fn walk(
    file: &Path,
    value: &Value,
    path: &str,
    (key, parent): (&str, &str),
) -> Result<(), ScenarioError> {
    match value {
        Value::String(s) if is_prose(key, parent) => {
            check_len(file, path, "a text", s, MAX_TEXT_CHARS)
        }
        Value::String(s) => check_len(file, path, "a name", s, MAX_NAME_CHARS),
        Value::Table(table) => {
            for (k, v) in table {
                let child = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                let field = if path.is_empty() { "(document)" } else { path };
                check_len(file, field, "a key", k, MAX_NAME_CHARS)?;
                walk(file, v, &child, (k, key))?;
            }
            Ok(())
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                walk(file, v, &format!("{path}[{i}]"), (key, parent))?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Refuses `text` (`what`, at `field` of `file`) when it is longer than
/// `max` characters; the error quotes only its start.
pub fn check_len(
    file: &Path,
    field: &str,
    what: &str,
    text: &str,
    max: usize,
) -> Result<(), ScenarioError> {
    let chars = text.chars().count();
    if chars <= max {
        return Ok(());
    }
    let start: String = text.chars().take(24).collect();
    Err(ScenarioError::new(
        file,
        field,
        format!("expected {what} of at most {max} characters, found {chars} ({start:?}...)"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrowing_refuses_what_would_wrap() {
        assert_eq!(narrow::<i8>(-3, -9..=9), Some(-3));
        assert_eq!(narrow::<i8>(i64::MIN, -9..=9), None);
        assert_eq!(narrow::<i8>(256, 0..=1000), None);
        assert_eq!(narrow::<u32>(-1, -5..=5), None);
    }

    #[test]
    fn long_names_and_keys_are_refused_with_their_field() {
        let doc: Value = toml::from_str(&format!(
            "description = \"{}\"\n[[sides]]\nlabel = \"{}\"\n",
            "d".repeat(1000),
            "x".repeat(MAX_NAME_CHARS + 1)
        ))
        .expect("toml");
        let e = check_lengths(Path::new("s.toml"), &doc).unwrap_err();
        assert_eq!(e.field, "sides[0].label", "{e}");
        let key: Value = toml::from_str(&format!("{} = 1\n", "k".repeat(300))).expect("toml");
        let e = check_lengths(Path::new("s.toml"), &key).unwrap_err();
        assert!(e.to_string().len() < 200, "{e}");
    }
}
