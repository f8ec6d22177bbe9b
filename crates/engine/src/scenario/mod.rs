//! Reading scenario files: TOML parsing with one-line errors that name the
//! file, the field and what was expected.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

pub mod limits;
pub mod overrides;

pub use limits::narrow;
pub use overrides::Override;

/// A scenario or data file that cannot be used, with where and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}: {field}: {message}", file.display())]
pub struct ScenarioError {
    /// The file at fault.
    pub file: PathBuf,
    /// The field at fault (a dotted path, or the line's key for syntax errors).
    pub field: String,
    /// What was wrong and what was expected.
    pub message: String,
}

impl ScenarioError {
    /// A new error for `field` of `file`.
    pub fn new(file: &Path, field: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError {
            file: file.to_path_buf(),
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Checks that a scenario file names the model that is loading it.
fn expect_model(path: &Path, found: &str, expected: &str) -> Result<(), ScenarioError> {
    if found == expected {
        return Ok(());
    }
    Err(ScenarioError::new(
        path,
        "model",
        format!("expected {expected:?}, found {found:?}"),
    ))
}

/// Checks that a scenario has exactly two `[[sides]]`.
pub fn expect_two_sides(path: &Path, found: usize) -> Result<(), ScenarioError> {
    if found == 2 {
        return Ok(());
    }
    Err(ScenarioError::new(
        path,
        "sides",
        format!("expected exactly 2 [[sides]], found {found}"),
    ))
}

/// An optional limit (turns, rounds) of at most `max`, `default` when left
/// out.
pub fn limit(
    path: &Path,
    field: &str,
    value: Option<i64>,
    default: u32,
    max: u32,
) -> Result<u32, ScenarioError> {
    match value {
        None => Ok(default),
        Some(n) => limits::narrow(n, 1..=i64::from(max)).ok_or_else(|| {
            ScenarioError::new(path, field, format!("expected 1 to {max}, found {n}"))
        }),
    }
}

/// The three of `known` nearest to `id` (Jaro-Winkler), quoted and joined,
/// for "nearest: ..." in error messages.
pub fn nearest_ids<'a>(id: &str, known: impl Iterator<Item = &'a str>) -> String {
    let mut scored: Vec<(f64, &str)> = known.map(|k| (strsim::jaro_winkler(id, k), k)).collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored
        .iter()
        .take(3)
        .map(|(_, s)| format!("{s:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "; did you mean \"x\"?" when one of `known` is close to `id` (Jaro-Winkler
/// 0.8 or more, as clap's own tip), else nothing: for a mistyped identifier
/// in a one-line error.
pub fn did_you_mean<'a>(id: &str, known: impl Iterator<Item = &'a str>) -> String {
    known
        .map(|k| (strsim::jaro_winkler(id, k), k))
        .filter(|&(score, _)| score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(a.1)))
        .map(|(_, k)| format!("; did you mean {k:?}?"))
        .unwrap_or_default()
}

/// The context of one load: the `--set` overrides to apply to every TOML
/// file parsed through it (with what they have met so far), and every file
/// read through it, for the run's input fingerprint. Every model and data
/// loader takes one; [`Loader::finish`] ends the load.
#[derive(Debug, Default)]
pub struct Loader {
    /// The overrides, `None` when there are none (files then parse
    /// directly, not through a TOML value).
    overrides: Option<overrides::Active>,
    /// Each file read: its path, file name and content hash, in reading
    /// order, each once.
    inputs: Vec<(PathBuf, String, u64)>,
}

impl Loader {
    /// A loader that applies `overrides` to every TOML file it parses.
    pub fn new(overrides: &[Override]) -> Self {
        Loader {
            overrides: (!overrides.is_empty()).then(|| overrides::Active::new(overrides)),
            inputs: Vec::new(),
        }
    }

    /// Ends the load: an override that fitted no file is an error naming
    /// the nearest existing paths; otherwise the fingerprint of every file
    /// read (their names and contents, in reading order) and of the
    /// overrides. Shards of one run must agree on it, wherever the files
    /// lie.
    pub fn finish(self) -> Result<String, ScenarioError> {
        if let Some(active) = &self.overrides {
            active.check_all_used()?;
        }
        let mut summary = Vec::new();
        for (_, name, hash) in &self.inputs {
            summary.extend_from_slice(name.as_bytes());
            summary.extend_from_slice(&hash.to_le_bytes());
        }
        let mut fingerprint = format!("{:016x}", fnv1a64(&summary));
        if let Some(active) = &self.overrides {
            let mut text = fingerprint.into_bytes();
            for o in active.overrides() {
                text.extend_from_slice(format!("\n--set {}={}", o.path_text, o.value).as_bytes());
            }
            fingerprint = format!("{:016x}", fnv1a64(&text));
        }
        Ok(fingerprint)
    }

    /// Reads `path` as UTF-8 text and notes it as one of the inputs the
    /// load depends on.
    pub fn read_text(&mut self, path: &Path) -> Result<String, ScenarioError> {
        let text = limits::read_bounded(path)?;
        if !self.inputs.iter().any(|(p, _, _)| p == path) {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            self.inputs
                .push((path.to_path_buf(), name, fnv1a64(text.as_bytes())));
        }
        Ok(text)
    }

    /// Parses TOML `text` (read from `path`) into `T`, after applying the
    /// overrides. Syntax and type errors are reduced to one line naming the
    /// key on the offending line.
    pub fn parse_toml<T: DeserializeOwned>(
        &mut self,
        path: &Path,
        text: &str,
    ) -> Result<T, ScenarioError> {
        let mut document = toml::Value::Table(parse_plain::<toml::Table>(path, text)?);
        let Some(active) = &mut self.overrides else {
            limits::check_lengths(path, &document)?;
            return parse_plain(path, text);
        };
        let accepts = |candidate: &toml::Value| candidate.clone().try_into::<T>().is_ok();
        let applied = active.apply(path, &mut document, &accepts)?;
        limits::check_lengths(path, &document)?;
        document.try_into().map_err(|e: toml::de::Error| {
            let message = e.message().trim().replace('\n', " ");
            let field = if applied.is_empty() {
                "(document)".to_string()
            } else {
                applied.join(", ")
            };
            ScenarioError::new(path, field, format!("--set: {message}"))
        })
    }

    /// Reads and parses a TOML file.
    pub fn read_toml<T: DeserializeOwned>(&mut self, path: &Path) -> Result<T, ScenarioError> {
        let text = self.read_text(path)?;
        self.parse_toml(path, &text)
    }

    /// Reads the scenario at `path` as the file type `T` of the model
    /// `model` (which flattens [`Scenario`]), after checking that the file
    /// names that model.
    pub fn read_scenario<T: DeserializeOwned>(
        &mut self,
        path: &Path,
        model: &str,
    ) -> Result<T, ScenarioError> {
        let text = self.read_text(path)?;
        match self.model_field(path, &text)? {
            Some(found) => expect_model(path, &found, model)?,
            None => {
                let message = format!("expected {model:?}, found no `model` field");
                return Err(ScenarioError::new(path, "model", message));
            }
        }
        self.parse_toml(path, &text)
    }

    /// The `model` field of scenario `text` read from `path`, if it has one.
    pub fn model_field(
        &mut self,
        path: &Path,
        text: &str,
    ) -> Result<Option<String>, ScenarioError> {
        let table: toml::Table = self.parse_toml(path, text)?;
        match table.get("model") {
            Some(toml::Value::String(id)) => Ok(Some(id.clone())),
            Some(other) => Err(ScenarioError::new(
                path,
                "model",
                format!("expected a model identifier, found {other}"),
            )),
            None => Ok(None),
        }
    }
}

/// A data file or folder a model reads through a [`Loader`] (which applies
/// the `--set` overrides and records every file read for the fingerprint).
pub trait Load: Sized {
    /// Reads and checks it through `loader`.
    fn load_with(path: &Path, loader: &mut Loader) -> Result<Self, ScenarioError>;

    /// [`Self::load_with`] with a fresh [`Loader`], dropped after (no
    /// overrides, no fingerprint): a convenience for tests and tools.
    fn load(path: &Path) -> Result<Self, ScenarioError> {
        Self::load_with(path, &mut Loader::default())
    }
}

/// Runs `load` with a [`Loader`] applying `overrides`, then finishes it: an
/// override that fitted no file is an error (the fingerprint is dropped).
pub fn with_overrides<T>(
    overrides: &[Override],
    load: impl FnOnce(&mut Loader) -> Result<T, ScenarioError>,
) -> Result<T, ScenarioError> {
    let mut loader = Loader::new(overrides);
    let value = load(&mut loader)?;
    loader.finish()?;
    Ok(value)
}

/// The 64-bit FNV-1a hash: stable across platforms and compiler versions.
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn parse_plain<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, ScenarioError> {
    toml::from_str(text).map_err(|e| {
        let message = e.message().trim().replace('\n', " ");
        // A file type that flattens [`Scenario`] reports an unknown
        // top-level key without its place: find the key's own line.
        let span = match (e.span(), unknown_key(&message)) {
            (Some(span), Some(key)) if span.is_empty() => key_line_span(text, key).or(Some(span)),
            (span, _) => span,
        };
        match span {
            Some(span) => {
                let line_number = text[..span.start.min(text.len())].matches('\n').count() + 1;
                let line = text.lines().nth(line_number - 1).unwrap_or("");
                let key = line
                    .split('=')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .trim_matches(['[', ']'])
                    .trim();
                let field = if key.is_empty() || key.starts_with('"') && !line.contains('=') {
                    "(syntax)".to_string()
                } else {
                    // The full path of the value at fault when the document
                    // parses and the path passes through the line's key
                    // (`sides[0].figures` for `figures = 3` under [[sides]]).
                    path_at(text, span.start)
                        .filter(|p| p.split('.').any(|part| part.split('[').next() == Some(key)))
                        .unwrap_or_else(|| key.to_string())
                };
                ScenarioError::new(path, field, format!("{message} (line {line_number})"))
            }
            None => ScenarioError::new(path, "(document)", message),
        }
    })
}

/// The full path (`sides[0].figures[0].level`) of the value at byte
/// `offset` of the TOML `text`, found by walking the spans of its parsed
/// document: within a table, the entry whose key or value holds the
/// offset, else the last table or array of tables opened before it (a
/// `[[sides]]` header's body lies outside the header's span); within an
/// array, the element that holds it, else the last before it.
fn path_at(text: &str, offset: usize) -> Option<String> {
    use toml::de::{DeTable, DeValue};
    type Entry<'a, 'i> = (&'a str, &'a toml::Spanned<DeValue<'i>>);
    fn in_table(table: &DeTable<'_>, offset: usize, path: &mut String) {
        let entries: Vec<Entry<'_, '_>> = table
            .iter()
            .map(|(k, v)| (k.get_ref().as_ref(), v))
            .collect();
        let holding = entries.iter().find(|(_, v)| v.span().contains(&offset));
        let opened_before = || {
            table
                .iter()
                .filter(|(k, v)| {
                    k.span().start <= offset
                        && matches!(v.get_ref(), DeValue::Table(_) | DeValue::Array(_))
                })
                .max_by_key(|(k, _)| k.span().start)
                .map(|(k, v)| (k.get_ref().as_ref(), v))
        };
        let Some((key, value)) = holding.copied().or_else(opened_before) else {
            return;
        };
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
        in_value(value, offset, path);
    }
    fn in_value(value: &toml::Spanned<DeValue<'_>>, offset: usize, path: &mut String) {
        match value.get_ref() {
            DeValue::Table(table) => in_table(table, offset, path),
            DeValue::Array(items) => {
                let index = items
                    .iter()
                    .position(|v| v.span().contains(&offset))
                    .or_else(|| items.iter().rposition(|v| v.span().start <= offset));
                if let Some(i) = index {
                    path.push_str(&format!("[{i}]"));
                    in_value(&items[i], offset, path);
                }
            }
            _ => {}
        }
    }
    let document = DeTable::parse(text).ok()?;
    let mut path = String::new();
    in_table(document.get_ref(), offset, &mut path);
    (!path.is_empty()).then_some(path)
}

/// The key named by serde's "unknown field `key`" message.
fn unknown_key(message: &str) -> Option<&str> {
    message.strip_prefix("unknown field `")?.split('`').next()
}

/// The span of the first top-level line of `text` that sets `key` (before
/// any table header), or of its `[key]` / `[[key]]` table header.
fn key_line_span(text: &str, key: &str) -> Option<std::ops::Range<usize>> {
    let mut start = 0;
    let mut top_level = true;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        let header = trimmed.trim_start_matches('[').trim_end_matches(']').trim();
        if trimmed.starts_with('[') {
            if header == key {
                return Some(start..start + line.len());
            }
            top_level = false;
        } else if top_level && trimmed.split('=').next().map(str::trim) == Some(key) {
            return Some(start..start + line.len());
        }
        start += line.len();
    }
    None
}

/// The header every scenario file starts with, flattened into each model's
/// file type (`#[serde(flatten)] scenario: Scenario`): which model runs it,
/// what it is, and where its data files are.
#[derive(Debug, Clone, serde::Deserialize, schemars::JsonSchema)]
pub struct Scenario {
    /// Model identifier, e.g. `wom.duel`.
    pub model: String,
    /// One-line description.
    pub description: String,
    /// Folder of the data files, relative to the scenario's own folder;
    /// left out, the model's bundled data (`scenarios/<rulebook>/data`),
    /// wherever the scenario lives.
    pub data: Option<String>,
}

/// The bundled `scenarios/` folder of the checkout this program was built
/// from (found from the crate's own path, so from any working directory).
pub fn bundled_scenarios_dir() -> PathBuf {
    let engine_crate = Path::new(env!("CARGO_MANIFEST_DIR"));
    // crates/engine -> the workspace root.
    let root = engine_crate.ancestors().nth(2).unwrap_or(engine_crate);
    root.join("scenarios")
}

impl Scenario {
    /// The data folder of the scenario at `path`: its `data` field,
    /// relative to the scenario's own folder, or else the bundled data of
    /// its model's rulebook (`scenarios/<rulebook>/data`, the rulebook
    /// being the part of `model` before the dot). A folder that cannot be
    /// read is an error naming it and saying how to point elsewhere.
    pub fn data_dir(&self, path: &Path) -> Result<PathBuf, ScenarioError> {
        let dir = match &self.data {
            Some(data) => path.parent().unwrap_or(Path::new(".")).join(data),
            None => {
                let rulebook = self.model.split('.').next().unwrap_or(&self.model);
                bundled_scenarios_dir().join(rulebook).join("data")
            }
        };
        match std::fs::read_dir(&dir) {
            Ok(_) => Ok(dir),
            Err(e) => Err(ScenarioError::new(
                path,
                "data",
                format!(
                    "cannot read the data folder {} ({e}): set data = \"...\" in the scenario \
                     (a folder relative to the scenario's own) to point elsewhere",
                    dir.display()
                ),
            )),
        }
    }

    /// Refuses a `data` field in the scenario of a model that reads no data
    /// files.
    pub fn no_data(&self, path: &Path) -> Result<(), ScenarioError> {
        match &self.data {
            None => Ok(()),
            Some(_) => Err(ScenarioError::new(
                path,
                "data",
                "expected no data folder: this model reads no data files",
            )),
        }
    }
}

/// Checks a `provenance` field: it must say where the values come from,
/// `rules [case] ...` (printed in the rulebook) or `reconstructed: why`.
pub fn check_provenance(file: &Path, field: &str, text: &str) -> Result<(), ScenarioError> {
    let text = text.trim_start();
    let says_where = text.starts_with("rules") || text.starts_with("reconstructed");
    if says_where && text.len() > "reconstructed".len() {
        return Ok(());
    }
    Err(ScenarioError::new(
        file,
        field,
        "expected where the values come from: \"rules [case] ...\" or \"reconstructed: why\"",
    ))
}

/// Identifiers for an "expected one of ..." message: quoted, comma-joined.
pub fn id_list<'a>(ids: impl IntoIterator<Item = &'a str>) -> String {
    ids.into_iter()
        .map(|id| format!("{id:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The scenario's name: its file stem.
pub fn scenario_name(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "scenario".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Sample {
        level: u8,
    }

    #[test]
    fn a_close_identifier_is_suggested_and_a_far_one_is_not() {
        let known = ["wom.duel", "wom.air", "jc.duel"];
        assert_eq!(
            did_you_mean("jc.duell", known.into_iter()),
            "; did you mean \"jc.duel\"?"
        );
        assert_eq!(did_you_mean("talisman", known.into_iter()), "");
    }

    #[test]
    fn type_errors_name_the_key_and_line() {
        let e = Loader::default()
            .parse_toml::<Sample>(Path::new("x.toml"), "\nlevel = \"high\"\n")
            .unwrap_err();
        let line = e.to_string();
        assert!(line.starts_with("x.toml: level: "), "{line}");
        assert!(line.contains("line 2"), "{line}");
        assert!(!line.contains('\n'));
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Figure {
        level: u8,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Side {
        figures: Vec<Figure>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Sides {
        sides: Vec<Side>,
    }

    #[test]
    fn type_errors_name_the_full_path() {
        let field = |text: &str| {
            Loader::default()
                .parse_toml::<Sides>(Path::new("x.toml"), text)
                .unwrap_err()
                .to_string()
        };
        let ok_side = "[[sides]]\nfigures = [{ level = 3 }]\n\n";
        let line = field(&format!("{ok_side}[[sides]]\nfigures = 3\n"));
        assert!(line.starts_with("x.toml: sides[1].figures: "), "{line}");
        let line = field(&format!(
            "{ok_side}[[sides]]\nfigures = [{{ level = 2 }}, {{ level = \"x\" }}]\n"
        ));
        assert!(
            line.starts_with("x.toml: sides[1].figures[1].level: "),
            "{line}"
        );
        let line =
            field("[[sides]]\n\n[[sides.figures]]\nlevel = 1\n\n[[sides.figures]]\nlevel = -4\n");
        assert!(
            line.starts_with("x.toml: sides[0].figures[1].level: "),
            "{line}"
        );
        assert!(
            path_at("a = [", 2).is_none(),
            "a document that does not parse"
        );
    }

    #[test]
    fn syntax_errors_are_one_line() {
        let e = Loader::default()
            .parse_toml::<Sample>(Path::new("x.toml"), "level = = 3\n")
            .unwrap_err();
        assert!(!e.to_string().contains('\n'), "{e}");
        assert!(e.to_string().contains("line 1"), "{e}");
    }
}
