//! `barsoom schema MODEL`: every model's JSON Schema accepts every bundled
//! scenario of that model (checked by a small validator of the keywords
//! the derived schemas use), the committed field references in
//! `docs/scenarios/` are exactly what the schemas give
//! (`BARSOOM_BLESS=1 cargo test --release --test it schema` rewrites them),
//! and the command's errors.

use serde_json::{Map, Value};

use crate::common::{barsoom, barsoom_ok, root};

/// Checks `value` against `schema` (a part of `root`), pushing one line per
/// violation, each naming the TOML path. Handles what schemars derives:
/// `$ref` to `definitions`, `allOf`/`anyOf`/`oneOf`, `type`, `enum`,
/// `properties`/`required`/`additionalProperties`, `items` and its
/// counts, `minimum`.
fn check(value: &Value, schema: &Value, root: &Value, path: &str, errors: &mut Vec<String>) {
    let Some(schema) = schema.as_object() else {
        return;
    };
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let name = reference
            .strip_prefix("#/definitions/")
            .unwrap_or_else(|| panic!("unexpected $ref {reference}"));
        check(value, &root["definitions"][name], root, path, errors);
    }
    if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
        for part in all {
            check(value, part, root, path, errors);
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(options) = schema.get(key).and_then(Value::as_array) {
            let fits = options.iter().any(|option| {
                let mut trial = Vec::new();
                check(value, option, root, path, &mut trial);
                trial.is_empty()
            });
            if !fits {
                errors.push(format!("{path}: fits none of the {key} options: {value}"));
            }
        }
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
        && !allowed.contains(value)
    {
        errors.push(format!("{path}: {value} is not one of {allowed:?}"));
    }
    if let Some(kind) = schema.get("type") {
        let kinds: Vec<&str> = match kind {
            Value::String(one) => vec![one.as_str()],
            Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !kinds.iter().any(|k| is_of_type(value, k)) {
            errors.push(format!("{path}: expected {kinds:?}, found {value}"));
            return;
        }
    }
    if let (Some(minimum), Some(number)) = (
        schema.get("minimum").and_then(Value::as_f64),
        value.as_f64(),
    ) && number < minimum
    {
        errors.push(format!("{path}: {number} is below {minimum}"));
    }
    if let Value::Object(table) = value {
        check_table(table, schema, root, path, errors);
    }
    if let Value::Array(items) = value {
        let count = items.len() as u64;
        if schema
            .get("minItems")
            .and_then(Value::as_u64)
            .is_some_and(|n| count < n)
            || schema
                .get("maxItems")
                .and_then(Value::as_u64)
                .is_some_and(|n| count > n)
        {
            errors.push(format!(
                "{path}: {count} items is outside the schema's counts"
            ));
        }
        if let Some(item_schema) = schema.get("items") {
            for (i, item) in items.iter().enumerate() {
                let each = match item_schema {
                    Value::Array(tuple) => tuple.get(i).unwrap_or(&Value::Bool(true)),
                    one => one,
                };
                check(item, each, root, &format!("{path}[{i}]"), errors);
            }
        }
    }
}

/// The object keywords of [`check`].
fn check_table(
    table: &Map<String, Value>,
    schema: &Map<String, Value>,
    root: &Value,
    path: &str,
    errors: &mut Vec<String>,
) {
    let join = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    let properties = schema.get("properties").and_then(Value::as_object);
    for required in schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if !table.contains_key(required) {
            errors.push(format!("{}: required but missing", join(required)));
        }
    }
    for (key, field) in table {
        match properties.and_then(|p| p.get(key)) {
            Some(property) => check(field, property, root, &join(key), errors),
            None => match schema.get("additionalProperties") {
                Some(Value::Bool(false)) => {
                    errors.push(format!("{}: not a field of the schema", join(key)))
                }
                Some(values @ Value::Object(_)) => check(field, values, root, &join(key), errors),
                _ => {}
            },
        }
    }
}

fn is_of_type(value: &Value, kind: &str) -> bool {
    match kind {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        other => panic!("unexpected type {other}"),
    }
}

/// The schema of model `id` as JSON.
fn schema_of(id: &str) -> Value {
    let entry = barsoom::games::MODELS
        .iter()
        .find(|m| m.id == id)
        .unwrap_or_else(|| panic!("no model {id}"));
    Value::from((entry.schema)())
}

/// The violations of TOML `text` against model `id`'s schema.
fn violations(id: &str, text: &str) -> Vec<String> {
    let table: toml::Table = toml::from_str(text).expect("TOML");
    let value = serde_json::to_value(table).expect("JSON");
    let schema = schema_of(id);
    let mut errors = Vec::new();
    check(&value, &schema, &schema, "", &mut errors);
    errors
}

#[test]
fn every_bundled_scenario_fits_its_models_schema() {
    let scenarios = barsoom::cli::bundled_scenarios(&root().join("scenarios"));
    let mut checked = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    for scenario in &scenarios {
        let (model, _) = barsoom::games::describe(scenario)
            .unwrap_or_else(|| panic!("{}: no model", scenario.display()));
        let text = std::fs::read_to_string(scenario).expect("readable");
        for error in violations(&model, &text) {
            failures.push(format!("{}: {error}", scenario.display()));
        }
        checked.insert(model);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let models: Vec<&str> = barsoom::games::MODELS.iter().map(|m| m.id).collect();
    assert_eq!(
        checked.len(),
        models.len(),
        "every model has a bundled scenario checked: {checked:?}"
    );
}

#[test]
fn the_schema_refuses_an_unknown_field_a_wrong_type_and_a_missing_side_field() {
    let text = r#"
        model = "wom.duel"
        description = "typos"
        max_rounds = "many"
        [[sides]]
        figures = [{ charcter = "padwar" }]
        [[sides]]
        label = "no figures"
    "#;
    let errors = violations("wom.duel", text);
    for expected in [
        "max_rounds: expected",
        "sides[0].figures[0].charcter: not a field of the schema",
        "sides[1].figures: required but missing",
    ] {
        assert!(
            errors.iter().any(|e| e.starts_with(expected)),
            "{expected} in {errors:#?}"
        );
    }
}

#[test]
fn every_models_field_reference_is_the_committed_one() {
    let dir = root().join("docs/scenarios");
    let bless = std::env::var_os("BARSOOM_BLESS").is_some();
    let mut differing = Vec::new();
    for entry in barsoom::games::MODELS {
        let text = barsoom::cli::field_reference(entry);
        let file = dir.join(format!("{}.md", entry.id));
        if bless {
            std::fs::create_dir_all(&dir).expect("docs/scenarios");
            std::fs::write(&file, &text).expect("written");
        } else if std::fs::read_to_string(&file).ok().as_deref() != Some(text.as_str()) {
            differing.push(file.display().to_string());
        }
    }
    assert!(
        differing.is_empty(),
        "field references differ from the scenario types (regenerate with \
         BARSOOM_BLESS=1 cargo test --release --test it schema and commit them):\n{}",
        differing.join("\n")
    );
}

#[test]
fn the_reference_has_a_table_per_nested_table_with_defaults_and_meanings() {
    let entry = barsoom::games::MODELS
        .iter()
        .find(|m| m.id == "wom.duel")
        .expect("wom.duel");
    let text = barsoom::cli::field_reference(entry);
    for expected in [
        "| `model` | string | *required* |",
        "## `sides[].figures[].missile`",
        "| `range` | string | `\"medium\"` |",
        "| `level` | integer | *none* | Men only: level 1 to 13",
        "| `character` | string | `\"\"` | A character id from the data folder's `roster.toml`",
    ] {
        assert!(text.contains(expected), "{expected} in\n{text}");
    }
}

#[test]
fn schema_prints_json_schema_with_the_field_descriptions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let output = barsoom_ok(&["schema", "jc.strategic"], dir.path());
    let schema: Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
    assert_eq!(schema["title"], "jc.strategic");
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
    let hero = &schema["definitions"]["PlayerFile"]["properties"]["hero"]["description"];
    assert!(
        hero.as_str().is_some_and(|d| d.contains("`vor-daj`")),
        "{hero}"
    );
    assert_eq!(schema["additionalProperties"], false);
}

#[test]
fn schema_of_an_unknown_model_is_one_line_naming_the_models() {
    let dir = tempfile::tempdir().expect("tempdir");
    let output = barsoom(&["schema", "wom.dual"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("unknown model \"wom.dual\": expected one of \"wom.duel\""),
        "{stderr}"
    );
    assert!(
        stderr.trim_end().ends_with("; did you mean \"wom.duel\"?"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
}
