//! The games barsoom simulates, one folder per rulebook, and the registry
//! that turns a scenario file into a runnable model.

pub mod jc;
pub mod jetan;
pub mod races;
pub mod talisman;
pub mod wom;

use std::path::{Path, PathBuf};

use barsoom_engine::DynModel;
use barsoom_engine::scenario::{Loader, Override, ScenarioError, scenario_name};

/// What a model's loader gives: the built model and the scenario's
/// one-line description.
pub(crate) type Loaded = (Box<dyn DynModel>, String);

/// A model the registry knows: its identifier, what it simulates, and how
/// to build it from a scenario file. Each model declares its own `ENTRY`;
/// [`MODELS`] lists them.
pub struct ModelEntry {
    /// Identifier used in scenario files' `model` field.
    pub id: &'static str,
    /// What it simulates.
    pub description: &'static str,
    /// Reads and checks a scenario of this model through the loader (which
    /// applies its overrides and records the files read): the built model
    /// and the scenario's one-line description.
    pub load: fn(&Path, &mut Loader) -> Result<Loaded, ScenarioError>,
}

/// Boxes a model loader's result for [`ModelEntry::load`].
pub(crate) fn boxed<M: DynModel + 'static>(
    loaded: Result<(M, String), ScenarioError>,
) -> Result<Loaded, ScenarioError> {
    loaded.map(|(model, description)| (Box::new(model) as Box<dyn DynModel>, description))
}

/// Every model barsoom knows, in the order `list` shows them.
pub const MODELS: &[ModelEntry] = &[
    wom::duel::ENTRY,
    wom::air::battle::ENTRY,
    wom::battle::ENTRY,
    jc::fleet::ENTRY,
    jc::duel::ENTRY,
    jc::swordsman::ENTRY,
    jc::military::ENTRY,
    jc::strategic::ENTRY,
    races::battle::ENTRY,
    races::game::ENTRY,
    jetan::game::ENTRY,
    talisman::game::ENTRY,
    talisman::combat::ENTRY,
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
    load_with(path, &[])
}

/// Loads the scenario at `path` with `--set` overrides applied to it and to
/// the data files it reads. The fingerprint covers the overrides too.
pub fn load_with(path: &Path, overrides: &[Override]) -> Result<LoadedScenario, ScenarioError> {
    let mut loader = Loader::new(overrides);
    let mut loaded = load_model(path, &mut loader)?;
    loaded.fingerprint = loader.finish()?;
    Ok(loaded)
}

fn load_model(path: &Path, loader: &mut Loader) -> Result<LoadedScenario, ScenarioError> {
    let text = loader.read_text(path)?;
    let model_id = loader.model_field(path, &text)?;
    let entry = model_id
        .as_deref()
        .and_then(|id| MODELS.iter().find(|m| m.id == id));
    let (Some(model_id), Some(entry)) = (model_id.clone(), entry) else {
        let found = match model_id {
            Some(id) => format!("{id:?}"),
            None => "no `model` field".into(),
        };
        return Err(ScenarioError::new(path, "model", model_expectation(&found)));
    };
    let (model, description) = (entry.load)(path, loader)?;
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

/// Reads only the model and description of a scenario (for listings).
pub fn describe(path: &Path) -> Option<(String, String)> {
    let mut loader = Loader::default();
    let text = loader.read_text(path).ok()?;
    let table: toml::Table = loader.parse_toml(path, &text).ok()?;
    let field = |key: &str| table.get(key).and_then(|v| v.as_str()).map(String::from);
    Some((field("model")?, field("description").unwrap_or_default()))
}

/// A model's reference scenario for `barsoom bench`.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BenchReference {
    /// The model it measures.
    pub model: String,
    /// Scenario path, relative to the scenarios folder.
    pub scenario: PathBuf,
    /// Trials per timing.
    pub trials: u64,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct BenchReferences {
    reference: Vec<BenchReference>,
}

/// Reads the reference scenarios (`scenarios/data/bench.toml`), resolving
/// each scenario path against `scenarios_dir`.
pub fn bench_references(scenarios_dir: &Path) -> Result<Vec<BenchReference>, ScenarioError> {
    let path = scenarios_dir.join("data").join("bench.toml");
    let list: BenchReferences = Loader::default().read_toml(&path)?;
    list.reference
        .into_iter()
        .enumerate()
        .map(|(i, mut r)| {
            if !MODELS.iter().any(|m| m.id == r.model) {
                return Err(ScenarioError::new(
                    &path,
                    format!("reference[{i}].model"),
                    model_expectation(&format!("{:?}", r.model)),
                ));
            }
            if r.trials == 0 {
                return Err(ScenarioError::new(
                    &path,
                    format!("reference[{i}].trials"),
                    "expected a positive trial count",
                ));
            }
            r.scenario = scenarios_dir.join(&r.scenario);
            Ok(r)
        })
        .collect()
}
