//! The games barsoom simulates, one folder per rulebook, and the registry
//! that turns a scenario file into a runnable model.

pub mod jc;
pub mod wom;

use std::path::{Path, PathBuf};

use crate::engine::DynModel;
use crate::scenario::{Header, ScenarioError, parse_toml, read_text, record_inputs, scenario_name};

/// A model and its one-line description.
pub struct ModelInfo {
    /// Identifier used in scenario files' `model` field.
    pub id: &'static str,
    /// What it simulates.
    pub description: &'static str,
}

/// Every model barsoom knows.
pub const MODELS: &[ModelInfo] = &[
    ModelInfo {
        id: "wom.duel",
        description: "Warriors of Mars individual combat: men and animals, one or several a side, with an optional missile volley",
    },
    ModelInfo {
        id: "jc.fleet",
        description: "John Carter, Warlord of Mars fleet combat: maneuvers, leadership, intrinsic defense, Reverses and influenced neutrals",
    },
];

/// A scenario file loaded and validated, ready to run.
pub struct LoadedScenario {
    /// The file it came from.
    pub path: PathBuf,
    /// Its name (the file stem).
    pub name: String,
    /// Model identifier.
    pub model_id: String,
    /// One-line description from the file.
    pub description: String,
    /// The built model.
    pub model: Box<dyn DynModel>,
    /// Fingerprint of the scenario and every data file it loaded.
    pub fingerprint: String,
}

/// Loads the scenario at `path` with the model it names.
pub fn load(path: &Path) -> Result<LoadedScenario, ScenarioError> {
    let (loaded, fingerprint) = record_inputs(|| load_model(path));
    let mut loaded = loaded?;
    loaded.fingerprint = fingerprint;
    Ok(loaded)
}

fn load_model(path: &Path) -> Result<LoadedScenario, ScenarioError> {
    let text = read_text(path)?;
    let header: Header = parse_toml(path, &text)?;
    let model_id = header
        .model
        .ok_or_else(|| ScenarioError::new(path, "model", model_expectation("a `model` field")))?;
    let (model, description): (Box<dyn DynModel>, String) = match model_id.as_str() {
        "wom.duel" => {
            let (model, description) = wom::duel::WomDuel::load(path)?;
            (Box::new(model), description)
        }
        "jc.fleet" => {
            let (model, description) = jc::fleet::JcFleet::load(path)?;
            (Box::new(model), description)
        }
        other => {
            return Err(ScenarioError::new(
                path,
                "model",
                model_expectation(&format!("{other:?}")),
            ));
        }
    };
    if let Err(message) = model.spec().check() {
        return Err(ScenarioError::new(path, "model", message));
    }
    Ok(LoadedScenario {
        fingerprint: String::new(),
        path: path.to_path_buf(),
        name: scenario_name(path),
        model_id,
        description,
        model,
    })
}

fn model_expectation(found: &str) -> String {
    let ids: Vec<&str> = MODELS.iter().map(|m| m.id).collect();
    format!(
        "expected one of the models {}, found {found}",
        ids.join(", ")
    )
}

/// Reads only the description of a scenario (for listings).
pub fn describe(path: &Path) -> Option<(String, String)> {
    let text = read_text(path).ok()?;
    let header: Header = parse_toml(path, &text).ok()?;
    Some((header.model?, header.description.unwrap_or_default()))
}
