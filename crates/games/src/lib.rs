//! The games barsoom simulates, one folder per rulebook, and the registry
//! that turns a scenario file into a runnable model.

pub mod jc;
pub mod jetan;
pub mod races;
pub mod talisman;
pub mod wom;

use std::path::{Path, PathBuf};

use barsoom_engine::DynModel;
use barsoom_engine::breakdown::Breakdown;
use barsoom_engine::runner::ProgressBar;
use barsoom_engine::scenario::{Loader, Override, ScenarioError, scenario_name};

/// What a model's loader gives: the built model and the scenario's
/// one-line description.
pub(crate) type Loaded = (Box<dyn DynModel>, String);

/// A model the registry can build from a scenario file. Its `ID` is the
/// one place the model's identifier is written.
pub trait ScenarioModel: DynModel + Sized + 'static {
    /// Identifier used in scenario files' `model` field.
    const ID: &'static str;
    /// What it simulates (one line, shown by `barsoom list`).
    const DESCRIPTION: &'static str;
    /// The scenario file's type, as [`Self::load_with`] reads it: its
    /// derived JSON Schema is `barsoom schema`'s and the field reference's
    /// source (`docs/scenarios/`), so neither can drift from the parser.
    type File: schemars::JsonSchema;

    /// Reads and checks a scenario of this model through `loader` (which
    /// applies its overrides and records the files read): the built model
    /// and the scenario's one-line description.
    fn load_with(path: &Path, loader: &mut Loader) -> Result<(Self, String), ScenarioError>;

    /// [`Self::load_with`] with a fresh [`Loader`], dropped after (no
    /// overrides, no fingerprint): a convenience for tests and tools.
    fn load(path: &Path) -> Result<(Self, String), ScenarioError> {
        Self::load_with(path, &mut Loader::default())
    }
}

/// A model that can break a run of games down further than one outcome per
/// trial (per hero, per character, per card): `barsoom breakdown`.
pub trait BreakdownModel: ScenarioModel {
    /// Plays trials `0..trials` of `seed` (trial `i` is the same game as in
    /// `barsoom run`) on the current rayon pool and tabulates them,
    /// advancing `progress` by the trials played.
    fn breakdown(&self, seed: u64, trials: u64, progress: &ProgressBar) -> Breakdown;
}

/// Loads a scenario and breaks `trials` games of `seed` down.
pub type BreakdownFn =
    fn(&Path, &mut Loader, u64, u64, &ProgressBar) -> Result<Breakdown, ScenarioError>;

/// A model the registry knows: its identifier, what it simulates, and how
/// to build it from a scenario file. [`MODELS`] lists one per model, each
/// made by [`ModelEntry::of`] or [`ModelEntry::with_breakdown`].
pub struct ModelEntry {
    /// Identifier used in scenario files' `model` field.
    pub id: &'static str,
    /// What it simulates.
    pub description: &'static str,
    /// Reads and checks a scenario of this model through the loader: the
    /// built model and the scenario's one-line description.
    pub load: fn(&Path, &mut Loader) -> Result<Loaded, ScenarioError>,
    /// Its breakdown, for the models that have one.
    pub breakdown: Option<BreakdownFn>,
    /// The JSON Schema of its scenario file ([`ScenarioModel::File`]).
    pub schema: fn() -> schemars::Schema,
}

impl ModelEntry {
    /// The registry's entry for model `M`.
    pub const fn of<M: ScenarioModel>() -> Self {
        ModelEntry {
            id: M::ID,
            description: M::DESCRIPTION,
            load: load_boxed::<M>,
            breakdown: None,
            schema: schema_of::<M>,
        }
    }

    /// The registry's entry for model `M`, with its breakdown.
    pub const fn with_breakdown<M: BreakdownModel>() -> Self {
        ModelEntry {
            breakdown: Some(load_and_break_down::<M>),
            ..ModelEntry::of::<M>()
        }
    }
}

/// Loads an `M` scenario and breaks its games down.
fn load_and_break_down<M: BreakdownModel>(
    path: &Path,
    loader: &mut Loader,
    seed: u64,
    trials: u64,
    progress: &ProgressBar,
) -> Result<Breakdown, ScenarioError> {
    let (model, _) = M::load_with(path, loader)?;
    Ok(model.breakdown(seed, trials, progress))
}

/// The JSON Schema (draft 07, which editors' TOML validators read) of
/// `M`'s scenario file, titled with its model id and described by what it
/// simulates.
fn schema_of<M: ScenarioModel>() -> schemars::Schema {
    let generator = schemars::generate::SchemaSettings::draft07().into_generator();
    let mut schema = generator.into_root_schema_for::<M::File>();
    schema.insert("title".into(), M::ID.into());
    schema.insert("description".into(), M::DESCRIPTION.into());
    schema
}

/// [`ScenarioModel::load_with`], boxed for [`ModelEntry::load`].
fn load_boxed<M: ScenarioModel>(path: &Path, loader: &mut Loader) -> Result<Loaded, ScenarioError> {
    let (model, description) = M::load_with(path, loader)?;
    Ok((Box::new(model), description))
}

/// Every model barsoom knows, in the order `list` shows them.
pub const MODELS: &[ModelEntry] = &[
    ModelEntry::of::<wom::duel::WomDuel>(),
    ModelEntry::of::<wom::air::battle::WomAir>(),
    ModelEntry::of::<wom::battle::battle::WomBattle>(),
    ModelEntry::of::<jc::fleet::JcFleet>(),
    ModelEntry::of::<jc::duel::model::scenario::JcDuel>(),
    ModelEntry::of::<jc::swordsman::JcSwordsman>(),
    ModelEntry::of::<jc::military::JcMilitary>(),
    ModelEntry::with_breakdown::<jc::strategic::JcStrategic>(),
    ModelEntry::of::<races::battle::RacesBattle>(),
    ModelEntry::of::<races::game::RacesGame>(),
    ModelEntry::of::<jetan::game::JetanGame>(),
    ModelEntry::with_breakdown::<talisman::game::TalismanGame>(),
    ModelEntry::of::<talisman::combat::TalismanCombat>(),
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

/// The registry entry of the model the scenario at `path` names.
fn entry_of(path: &Path, loader: &mut Loader) -> Result<&'static ModelEntry, ScenarioError> {
    let text = loader.read_text(path)?;
    let model_id = loader.model_field(path, &text)?;
    let entry = model_id
        .as_deref()
        .and_then(|id| MODELS.iter().find(|m| m.id == id));
    entry.ok_or_else(|| {
        let (found, tip) = match model_id.as_deref() {
            Some(id) => (
                format!("{id:?}"),
                barsoom_engine::scenario::did_you_mean(id, MODELS.iter().map(|m| m.id)),
            ),
            None => ("no `model` field".into(), String::new()),
        };
        ScenarioError::new(path, "model", model_expectation(&found) + &tip)
    })
}

fn model_expectation(found: &str) -> String {
    let ids: Vec<&str> = MODELS.iter().map(|m| m.id).collect();
    format!(
        "expected one of the models {}, found {found}",
        ids.join(", ")
    )
}

fn load_model(path: &Path, loader: &mut Loader) -> Result<LoadedScenario, ScenarioError> {
    let entry = entry_of(path, loader)?;
    let (model, description) = (entry.load)(path, loader)?;
    if let Err(message) = model.spec().check() {
        return Err(ScenarioError::new(path, "model", message));
    }
    Ok(LoadedScenario {
        fingerprint: String::new(),
        path: path.to_path_buf(),
        name: scenario_name(path),
        model_id: entry.id.to_string(),
        description,
        model,
    })
}

/// Loads the scenario at `path` (with `--set` overrides) and breaks
/// `trials` games of `seed` down (advancing `progress`): the model's id and
/// its breakdown. A model without one is an error naming those that have
/// one.
pub fn breakdown(
    path: &Path,
    overrides: &[Override],
    seed: u64,
    trials: u64,
    progress: &ProgressBar,
) -> Result<(&'static str, Breakdown), ScenarioError> {
    let mut loader = Loader::new(overrides);
    let entry = entry_of(path, &mut loader)?;
    let Some(break_down) = entry.breakdown else {
        let ids: Vec<&str> = MODELS
            .iter()
            .filter(|m| m.breakdown.is_some())
            .map(|m| m.id)
            .collect();
        let expected = format!(
            "expected a model with a breakdown ({}), found {:?}",
            ids.join(", "),
            entry.id
        );
        return Err(ScenarioError::new(path, "model", expected));
    };
    let table = break_down(path, &mut loader, seed, trials, progress)?;
    loader.finish()?;
    Ok((entry.id, table))
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
    /// `--set PATH=VALUE` overrides applied to the scenario (a search
    /// player's budget).
    #[serde(default)]
    pub set: Vec<String>,
    /// A search-player reference: timed by `barsoom bench search` (games
    /// that take seconds each), not in the default set.
    #[serde(default)]
    pub search: bool,
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
