//! `--set PATH=VALUE`: changing any field of a scenario, or of a data file it
//! loads, without editing the files.
//!
//! A path is dotted keys with `[i]` indices: `sides[0].figures[0].level=9`,
//! `characters.john-carter.level=12`. A key applied to an array of tables
//! picks the element whose `id` equals it. An override applies to every file
//! the scenario reads in which its path leads to an existing table (a new
//! key at the top level goes to the scenario file only); the scenario file
//! is read first. The new value must have the type of the
//! value it replaces (an integer may stand for a float); a new key is
//! checked by the file's own schema when it is deserialised. A table the
//! scenario file leaves out is created there when the file's schema has a
//! default for it: its type takes the missing tables empty and refuses an
//! unknown key in their place (so `rules.steps=up-to` works on a Jetan
//! scenario without a `[rules]` table). A path that fits no file is an
//! error naming the nearest paths that exist.

use std::path::{Path, PathBuf};

use toml::Value;

use super::ScenarioError;

/// One step of an override path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A table key (or the `id` of an element of an array of tables).
    Key(String),
    /// An array index.
    Index(usize),
}

/// One `--set PATH=VALUE`.
#[derive(Debug, Clone, PartialEq)]
pub struct Override {
    /// The path as written.
    pub path_text: String,
    /// The parsed path.
    pub path: Vec<Step>,
    /// The value as written.
    pub value_text: String,
    /// The value: a TOML literal, or else the text as a string.
    pub value: Value,
}

impl Override {
    /// Parses `PATH=VALUE`.
    pub fn parse(text: &str) -> Result<Override, String> {
        let (path_text, value_text) = text.split_once('=').ok_or_else(|| {
            format!("expected PATH=VALUE (e.g. sides[0].figures[0].level=9), found {text:?}")
        })?;
        let path_text = path_text.trim();
        let path = parse_path(path_text)?;
        let value_text = value_text.trim();
        Ok(Override {
            path_text: path_text.to_string(),
            path,
            value_text: value_text.to_string(),
            value: parse_value(value_text),
        })
    }
}

/// Parses a dotted path with `[i]` indices.
pub fn parse_path(text: &str) -> Result<Vec<Step>, String> {
    let bad = |why: &str| format!("bad path {text:?}: {why}");
    let mut steps = Vec::new();
    for part in text.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if key.is_empty() && (steps.is_empty() || rest.is_empty()) {
            return Err(bad("expected a key before each '.' and '['"));
        }
        if !key.is_empty() {
            if !key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                return Err(bad(&format!(
                    "keys are letters, digits, '_' and '-', found {key:?}"
                )));
            }
            steps.push(Step::Key(key.to_string()));
        }
        while !rest.is_empty() {
            let close = rest
                .find(']')
                .ok_or_else(|| bad("expected ']' after an index"))?;
            let index = rest[1..close].parse::<usize>().map_err(|_| {
                bad(&format!(
                    "expected a whole-number index, found {:?}",
                    &rest[1..close]
                ))
            })?;
            steps.push(Step::Index(index));
            rest = &rest[close + 1..];
            if !rest.is_empty() && !rest.starts_with('[') {
                return Err(bad("expected '.' or '[' after ']'"));
            }
        }
    }
    if steps.is_empty() {
        return Err(bad("empty path"));
    }
    Ok(steps)
}

/// Refuses a path of `paths` (given with the option `option`) that names
/// the same field as an earlier one as written (`a[0].b` and `a[0] .b`);
/// paths that differ as written but resolve to one field (an `id` and its
/// index) are refused when they are applied.
pub fn distinct_paths<'a>(
    option: &str,
    paths: impl IntoIterator<Item = &'a str>,
) -> Result<(), String> {
    let mut seen: Vec<String> = Vec::new();
    for text in paths {
        let canonical = path_text(&parse_path(text.trim())?);
        if seen.contains(&canonical) {
            return Err(format!(
                "{option} {canonical} is given twice; expected distinct fields"
            ));
        }
        seen.push(canonical);
    }
    Ok(())
}

/// A TOML literal (`3`, `0.5`, `true`, `"x"`, `[1, 2]`), or else the text
/// itself as a string (so `character=tars-tarkas` needs no quotes).
pub fn parse_value(text: &str) -> Value {
    toml::from_str::<toml::Table>(&format!("v = {text}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| Value::String(text.to_string()))
}

/// Renders a path back to text.
pub fn path_text(steps: &[Step]) -> String {
    let mut text = String::new();
    for step in steps {
        match step {
            Step::Key(k) => {
                if !text.is_empty() {
                    text.push('.');
                }
                text.push_str(k);
            }
            Step::Index(i) => text.push_str(&format!("[{i}]")),
        }
    }
    text
}

/// The overrides of one load, what they have met so far, and whether each
/// has applied: the part of a [`super::Loader`] that `--set` needs.
#[derive(Debug)]
pub(super) struct Active {
    overrides: Vec<Override>,
    used: Vec<bool>,
    /// Every path that exists in the files read so far, for suggestions.
    known: Vec<String>,
    /// The first file read (the scenario), for errors that fit no file.
    first_file: Option<PathBuf>,
}

impl Active {
    /// `overrides`, none applied yet.
    pub(super) fn new(overrides: &[Override]) -> Self {
        Active {
            overrides: overrides.to_vec(),
            used: vec![false; overrides.len()],
            known: Vec::new(),
            first_file: None,
        }
    }

    /// The overrides.
    pub(super) fn overrides(&self) -> &[Override] {
        &self.overrides
    }

    /// An override that fitted no file is an error naming the nearest
    /// existing paths.
    pub(super) fn check_all_used(&self) -> Result<(), ScenarioError> {
        if let Some(i) = self.used.iter().position(|u| !u) {
            let o = &self.overrides[i];
            let file = self.first_file.clone().unwrap_or_default();
            return Err(ScenarioError::new(
                &file,
                o.path_text.clone(),
                format!(
                    "--set: no such field in the scenario or its data files{}",
                    nearest(&o.path_text, &self.known)
                ),
            ));
        }
        Ok(())
    }

    /// Applies the overrides to the parsed document of `file` and returns
    /// the paths of those that applied. `accepts` says whether the file's
    /// schema takes a document: it decides which missing tables of the
    /// scenario file may be created (see [`create_defaulted_tables`]).
    pub(super) fn apply(
        &mut self,
        file: &Path,
        document: &mut Value,
        accepts: &dyn Fn(&Value) -> bool,
    ) -> Result<Vec<String>, ScenarioError> {
        let mut applied = Vec::new();
        if self.first_file.is_none() {
            self.first_file = Some(file.to_path_buf());
        }
        let is_scenario = self.first_file.as_deref() == Some(file);
        collect_paths(document, String::new(), &mut self.known);
        // The field each applied override resolved to (array elements
        // named by `id` become indices), so that one field named two
        // different ways is refused rather than the last silently winning.
        // The same path given again is a later layer (`compare --set-b`
        // over `--set`) and wins.
        let mut resolved: Vec<(String, &str)> = Vec::new();
        for (o, used) in self.overrides.iter().zip(self.used.iter_mut()) {
            let Some((last, parent_steps)) = o.path.split_last() else {
                continue;
            };
            // A new top-level key belongs to the scenario file only; every
            // data file has a top-level table it could otherwise land in.
            let new_top_level = parent_steps.is_empty()
                && matches!(last, Step::Key(k) if document.get(k).is_none());
            if new_top_level && !is_scenario {
                continue;
            }
            if is_scenario && canonical(document, parent_steps).is_none() {
                create_defaulted_tables(document, parent_steps, accepts);
            }
            let Some(mut field) = canonical(document, parent_steps) else {
                continue;
            };
            field.push(last.clone());
            let field = path_text(&field);
            let named_otherwise = |(f, t): &&(String, &str)| *f == field && *t != o.path_text;
            if let Some((_, first)) = resolved.iter().find(named_otherwise) {
                return Err(ScenarioError::new(
                    file,
                    o.path_text.clone(),
                    format!(
                        "--set: {first} and {} both set {field}; expected each field once",
                        o.path_text
                    ),
                ));
            }
            resolved.push((field, o.path_text.as_str()));
            let Some(parent) = walk(document, parent_steps) else {
                continue;
            };
            set(parent, last, &o.value, &o.value_text).map_err(|message| {
                ScenarioError::new(file, o.path_text.clone(), format!("--set: {message}"))
            })?;
            *used = true;
            applied.push(o.path_text.clone());
        }
        Ok(applied)
    }
}

/// A key no schema has: a type that takes it in place of a created table
/// cannot tell a field of its own from any other name.
const PROBE_KEY: &str = "--set probe: no such field";

/// Creates the tables of `steps` missing from `document` (empty, nested)
/// when the schema has a default for them: the document with them is
/// accepted and the same document with [`PROBE_KEY`] in their place is
/// refused (a type that takes any key, such as a map or the untyped table
/// read for the `model` field, is left alone). Only keys are created, below
/// the longest prefix of `steps` that leads to an existing table; returns
/// whether they were.
fn create_defaulted_tables(
    document: &mut Value,
    steps: &[Step],
    accepts: &dyn Fn(&Value) -> bool,
) -> bool {
    let Some(existing) = (0..steps.len())
        .rev()
        .find(|&k| walk(&mut *document, &steps[..k]).is_some_and(|v| v.is_table()))
    else {
        return false;
    };
    let (first, rest) = (&steps[existing], &steps[existing + 1..]);
    let Step::Key(first) = first else {
        return false;
    };
    let holds_first = walk(document, &steps[..existing])
        .is_some_and(|parent| parent.get(first.as_str()).is_some());
    if holds_first {
        return false; // there, but not a table: the type check reports it
    }
    let mut missing = Value::Table(toml::Table::new());
    for step in rest.iter().rev() {
        let Step::Key(key) = step else {
            return false;
        };
        let mut table = toml::Table::new();
        table.insert(key.clone(), missing);
        missing = Value::Table(table);
    }
    let with = |key: &str| {
        let mut candidate = document.clone();
        if let Some(Value::Table(t)) = walk(&mut candidate, &steps[..existing]) {
            t.insert(key.to_string(), missing.clone());
        }
        candidate
    };
    if !accepts(&with(first)) || accepts(&with(PROBE_KEY)) {
        return false;
    }
    if let Some(Value::Table(t)) = walk(document, &steps[..existing]) {
        t.insert(first.clone(), missing);
    }
    true
}

/// Follows `steps` from `value`; `None` when a step does not exist.
fn walk<'a>(mut value: &'a mut Value, steps: &[Step]) -> Option<&'a mut Value> {
    for step in canonical(value, steps)? {
        value = match (step, value) {
            (Step::Key(k), Value::Table(t)) => t.get_mut(&k)?,
            (Step::Index(i), Value::Array(items)) => items.get_mut(i)?,
            _ => return None,
        };
    }
    Some(value)
}

/// `steps` from `value` with every array element as an index (one named
/// by its `id` resolved to its position); `None` when a step does not
/// exist.
fn canonical(mut value: &Value, steps: &[Step]) -> Option<Vec<Step>> {
    let mut out = Vec::with_capacity(steps.len());
    for step in steps {
        let (next, resolved) = match (step, value) {
            (Step::Key(k), Value::Table(t)) => (t.get(k)?, step.clone()),
            (Step::Key(k), Value::Array(items)) => {
                let i = items.iter().position(|item| {
                    item.get("id")
                        .and_then(Value::as_str)
                        .is_some_and(|id| id == k)
                })?;
                (&items[i], Step::Index(i))
            }
            (Step::Index(i), Value::Array(items)) => (items.get(*i)?, step.clone()),
            _ => return None,
        };
        value = next;
        out.push(resolved);
    }
    Some(out)
}

/// Sets `last` of `parent` to `new`, keeping the type of an existing value.
fn set(parent: &mut Value, last: &Step, new: &Value, raw: &str) -> Result<(), String> {
    let slot = match (last, &mut *parent) {
        (Step::Key(k), Value::Table(t)) => {
            if !t.contains_key(k) {
                // A new key: the file's schema checks it on deserialisation.
                t.insert(k.clone(), new.clone());
                return Ok(());
            }
            t.get_mut(k)
        }
        (Step::Index(i), Value::Array(items)) => {
            let len = items.len();
            Some(
                items
                    .get_mut(*i)
                    .ok_or_else(|| format!("index {i} is past the end (the array has {len})"))?,
            )
        }
        (step, parent) => {
            return Err(format!(
                "cannot apply {} to {}",
                path_text(std::slice::from_ref(step)),
                type_name(parent)
            ));
        }
    };
    let Some(slot) = slot else {
        return Err("no such field".into());
    };
    *slot = converted(slot, new, raw)?;
    Ok(())
}

/// `new` in the type of `old`, or why it cannot be.
fn converted(old: &Value, new: &Value, raw: &str) -> Result<Value, String> {
    match (old, new) {
        (Value::Float(_), Value::Integer(i)) => Ok(Value::Float(*i as f64)),
        (Value::String(_), Value::String(_)) => Ok(new.clone()),
        // A string field given a bare word that happens to parse as a number.
        (Value::String(_), _) => Ok(Value::String(raw.to_string())),
        (a, b) if std::mem::discriminant(a) == std::mem::discriminant(b) => Ok(new.clone()),
        _ => Err(format!(
            "expected {} (like the value it replaces), found {raw:?}",
            type_name(old)
        )),
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::String(_) => "a string",
        Value::Integer(_) => "an integer",
        Value::Float(_) => "a number",
        Value::Boolean(_) => "true or false",
        Value::Datetime(_) => "a date-time",
        Value::Array(_) => "an array",
        Value::Table(_) => "a table",
    }
}

/// Every path in `value` (tables, array elements and leaves).
fn collect_paths(value: &Value, prefix: String, out: &mut Vec<String>) {
    const LIMIT: usize = 20_000;
    if out.len() >= LIMIT {
        return;
    }
    match value {
        Value::Table(t) => {
            for (k, v) in t {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                out.push(path.clone());
                collect_paths(v, path, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let path = format!("{prefix}[{i}]");
                out.push(path.clone());
                collect_paths(v, path, out);
            }
        }
        _ => {}
    }
}

/// "; nearest: a, b, c" — the three known paths closest to `path`, each
/// scored by the nearer of itself and its last as many segments as `path`
/// has, so a path given without its leading tables
/// (`banth.wounds_to_kill`) finds the field it ends
/// (`animals.banth.wounds_to_kill`).
fn nearest(path: &str, known: &[String]) -> String {
    let segments = path.split('.').count();
    let suffix = |k: &str| -> usize {
        let parts: Vec<&str> = k.split('.').collect();
        let tail = parts[parts.len().saturating_sub(segments)..].join(".");
        strsim::levenshtein(path, &tail)
    };
    let mut ranked: Vec<(usize, usize, &String)> = known
        .iter()
        .map(|k| {
            let whole = strsim::levenshtein(path, k);
            (suffix(k).min(whole), whole, k)
        })
        .collect();
    ranked.sort();
    ranked.dedup_by(|a, b| a.2 == b.2);
    let best: Vec<&str> = ranked.iter().take(3).map(|(_, _, k)| k.as_str()).collect();
    if best.is_empty() {
        String::new()
    } else {
        format!("; nearest: {}", best.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_parse_with_keys_and_indices() {
        assert_eq!(
            parse_path("sides[0].figures[2].level"),
            Ok(vec![
                Step::Key("sides".into()),
                Step::Index(0),
                Step::Key("figures".into()),
                Step::Index(2),
                Step::Key("level".into()),
            ])
        );
        assert_eq!(
            parse_path("outdoor.area_3.d6[4][1]").map(|p| path_text(&p)),
            Ok("outdoor.area_3.d6[4][1]".to_string())
        );
        for bad in ["", "a..b", "a[x]", "a[1", "[0]", "a[0]b", "a b"] {
            assert!(parse_path(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn values_are_toml_literals_or_bare_strings() {
        assert_eq!(parse_value("3"), Value::Integer(3));
        assert_eq!(parse_value("0.5"), Value::Float(0.5));
        assert_eq!(parse_value("true"), Value::Boolean(true));
        assert_eq!(parse_value("\"x y\""), Value::String("x y".into()));
        assert_eq!(
            parse_value("tars-tarkas"),
            Value::String("tars-tarkas".into())
        );
        assert!(Override::parse("no-equals-sign").is_err());
    }

    fn doc() -> Value {
        toml::from_str(
            "level = 3\nodds = 0.5\nname = \"a\"\n[[units]]\nid = \"thoat\"\nspeed = 2\n[[units]]\nid = \"calot\"\nspeed = 3\n",
        )
        .expect("toml")
    }

    fn set_path(document: &mut Value, text: &str) -> Result<(), String> {
        let o = Override::parse(text)?;
        let (last, parent) = o.path.split_last().ok_or("empty")?;
        let parent = walk(document, parent).ok_or("no parent")?;
        set(parent, last, &o.value, &o.value_text)
    }

    #[test]
    fn overrides_keep_the_type_of_what_they_replace() {
        let mut d = doc();
        set_path(&mut d, "level=5").expect("integer");
        set_path(&mut d, "odds=1").expect("an integer stands for a float");
        set_path(&mut d, "name=13").expect("a string field takes the text");
        set_path(&mut d, "units.calot.speed=4").expect("array element by id");
        set_path(&mut d, "units[0].speed=7").expect("array element by index");
        assert_eq!(d["level"].as_integer(), Some(5));
        assert_eq!(d["odds"].as_float(), Some(1.0));
        assert_eq!(d["name"].as_str(), Some("13"));
        assert_eq!(d["units"][1]["speed"].as_integer(), Some(4));
        assert_eq!(d["units"][0]["speed"].as_integer(), Some(7));
        let wrong = set_path(&mut d, "level=high").unwrap_err();
        assert!(wrong.contains("expected an integer"), "{wrong}");
        let past = set_path(&mut d, "units[5]=1");
        assert!(past.is_err());
    }

    #[test]
    fn two_overrides_of_one_field_are_refused_however_written() {
        for pair in [
            ["units.calot.speed=4", "units[1].speed=5"],
            ["units[0].fresh=1", "units.thoat.fresh=2"],
        ] {
            let overrides: Vec<Override> = pair
                .iter()
                .map(|t| Override::parse(t).expect("override"))
                .collect();
            let mut active = Active::new(&overrides);
            let e = active
                .apply(Path::new("x.toml"), &mut doc(), &|_| true)
                .unwrap_err();
            assert!(e.message.contains("both set"), "{e}");
        }
        assert_eq!(distinct_paths("--vary", ["a[0].b", "a[0].c"]), Ok(()));
        let again: Vec<Override> = ["level=4", "level=5"]
            .iter()
            .map(|t| Override::parse(t).expect("override"))
            .collect();
        let mut d = doc();
        Active::new(&again)
            .apply(Path::new("x.toml"), &mut d, &|_| true)
            .expect("the same path again is a later layer");
        assert_eq!(d["level"].as_integer(), Some(5));
        let twice = distinct_paths("--vary", ["a[0].b", " a[0].b"]).unwrap_err();
        assert!(twice.contains("given twice"), "{twice}");
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct WithDefaults {
        level: u8,
        #[serde(default)]
        rules: std::collections::BTreeMap<String, String>,
        #[serde(default)]
        limits: Option<Limits>,
        #[serde(default)]
        required: Option<Required>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Limits {
        #[serde(default)]
        inner: Option<Inner>,
    }

    #[derive(Debug, Default, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        #[serde(default)]
        turns: u32,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Required {
        speed: u32,
    }

    fn applied(document: &mut Value, text: &str, accepts: &dyn Fn(&Value) -> bool) -> bool {
        let o = Override::parse(text).expect("override");
        let mut active = Active::new(&[o]);
        let applied = active
            .apply(Path::new("x.toml"), document, accepts)
            .expect("applies");
        active.check_all_used().is_ok() && applied.len() == 1
    }

    #[test]
    fn a_table_the_scenario_omits_is_created_where_the_schema_defaults_it() {
        let typed = |v: &Value| v.clone().try_into::<WithDefaults>().is_ok();
        let mut d: Value = toml::from_str("level = 3").expect("toml");
        // A defaulted map and a nested defaulted struct are created.
        assert!(applied(&mut d, "rules.steps=up-to", &typed));
        assert_eq!(d["rules"]["steps"].as_str(), Some("up-to"));
        assert!(applied(&mut d, "limits.inner.turns=7", &typed));
        assert_eq!(d["limits"]["inner"]["turns"].as_integer(), Some(7));
        assert!(typed(&d));
        // Not created: a name the schema does not have, a table whose
        // fields have no defaults, a type that takes any key, a data file.
        let mut d: Value = toml::from_str("level = 3").expect("toml");
        assert!(!applied(&mut d, "ruless.steps=up-to", &typed));
        assert!(!applied(&mut d, "required.speed=2", &typed));
        assert!(!applied(&mut d, "rules.steps=up-to", &|_| true));
        assert_eq!(d, toml::from_str::<Value>("level = 3").expect("toml"));
        let o = Override::parse("rules.steps=up-to").expect("override");
        let mut active = Active::new(&[o]);
        active
            .apply(Path::new("scenario.toml"), &mut doc(), &typed)
            .expect("scenario");
        let mut data: Value = toml::from_str("level = 3").expect("toml");
        active
            .apply(Path::new("data.toml"), &mut data, &typed)
            .expect("data file");
        assert!(data.get("rules").is_none());
        // A key that holds something other than a table is not replaced.
        let mut d: Value = toml::from_str("level = 3\nrules = 4").expect("toml");
        let o = Override::parse("rules.steps=up-to").expect("override");
        let e = Active::new(&[o])
            .apply(Path::new("x.toml"), &mut d, &typed)
            .unwrap_err();
        assert!(
            e.message.contains("cannot apply steps to an integer"),
            "{e}"
        );
        assert_eq!(d["rules"].as_integer(), Some(4));
    }

    #[test]
    fn unknown_paths_suggest_the_nearest() {
        let mut known = Vec::new();
        collect_paths(&doc(), String::new(), &mut known);
        let hint = nearest("units[1].sped", &known);
        assert!(hint.starts_with("; nearest: units[1].speed"), "{hint}");
        // A path without its leading tables finds the field it ends.
        let known: Vec<String> = [
            "men.wounds_to_kill",
            "men.wounds_to_kill_bonus",
            "animals.banth.wounds_to_kill",
            "animals.thoat.wounds_to_kill",
        ]
        .map(String::from)
        .to_vec();
        let hint = nearest("banth.wounds_to_kill", &known);
        assert!(
            hint.starts_with("; nearest: animals.banth.wounds_to_kill, "),
            "{hint}"
        );
        let hint = nearest("banth.wounds_to_kil", &known);
        assert!(
            hint.starts_with("; nearest: animals.banth.wounds_to_kill, "),
            "{hint}"
        );
    }
}
