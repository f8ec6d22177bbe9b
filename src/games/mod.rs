//! The games barsoom simulates, one folder per rulebook, and the registry
//! that turns a scenario file into a runnable model.

pub mod jc;
pub mod jetan;
pub mod races;
pub mod talisman;
pub mod wom;

use std::path::{Path, PathBuf};

use crate::engine::DynModel;
use crate::scenario::{
    Header, Override, ScenarioError, fnv1a64, parse_toml, read_text, record_inputs, scenario_name,
    with_overrides,
};

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
        id: "wom.air",
        description: "Warriors of Mars aerial warfare: fleets of fliers with gunfire, criticals, ramming, grappling, boarding and keel bombs",
    },
    ModelInfo {
        id: "wom.battle",
        description: "Warriors of Mars mass battles at 1:50: units of infantry and cavalry with missile fire, charges, melee, morale, routs and leader losses",
    },
    ModelInfo {
        id: "jc.fleet",
        description: "John Carter, Warlord of Mars fleet combat: maneuvers, leadership, intrinsic defense, Reverses and influenced neutrals",
    },
    ModelInfo {
        id: "jc.duel",
        description: "John Carter, Warlord of Mars duels: counters with facing on the open/arena display, initiative by alertness, melee with modifiers, natural 10s and levels, under aggressive, patient or random policies",
    },
    ModelInfo {
        id: "jc.swordsman",
        description: "John Carter, Warlord of Mars master swordsman duels: maneuver cards committed ahead by rank on the maneuver matrix, advantages and hits, random, exploiter or minimax play",
    },
    ModelInfo {
        id: "jc.military",
        description: "John Carter, Warlord of Mars Military Game in full: Helium against the Dusar/Jahar alliance on the map of Barsoom, with movement cards, fleet combat, reinforcements, storms, neutrals and diplomacy",
    },
    ModelInfo {
        id: "jc.strategic",
        description: "John Carter, Warlord of Mars Strategic Game in full: 1 to 6 heroes pursue their villains across Barsoom with movement cards, outdoor and city encounters fought as duels, acquisition, the city game of discovery, information, imprisonment and arena duels, to glory and love",
    },
    ModelInfo {
        id: "races.battle",
        description: "Six races of Mars: one battle between two warbands with terrain, settlement and leader bonuses, solved exactly",
    },
    ModelInfo {
        id: "races.game",
        description: "Six races of Mars hex wargame for 2 to 4 players: rolled or fixed map, initiative, recruiting, command points, stacks, leaders, battles, key locations",
    },
    ModelInfo {
        id: "jetan.game",
        description: "Jetan, the Martian chess: a match between two players (random, greedy, alphabeta, mcts) under the book rules or any rule flags",
    },
    ModelInfo {
        id: "talisman.game",
        description: "Talisman under the advanced tournament rules: complete 2-6 player games from the deal to a winner at the Crown of Command",
    },
    ModelInfo {
        id: "talisman.combat",
        description: "Talisman combat: one round of d6 + Strength against d6 + Strength (or Craft), solved exactly",
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
    load_with(path, &[])
}

/// Loads the scenario at `path` with `--set` overrides applied to it and to
/// the data files it reads. The fingerprint covers the overrides too.
pub fn load_with(path: &Path, overrides: &[Override]) -> Result<LoadedScenario, ScenarioError> {
    let (loaded, mut fingerprint) =
        record_inputs(|| with_overrides(overrides, || load_model(path)));
    let mut loaded = loaded?;
    if !overrides.is_empty() {
        let mut text = fingerprint.into_bytes();
        for o in overrides {
            text.extend_from_slice(format!("\n--set {}={}", o.path_text, o.value).as_bytes());
        }
        fingerprint = format!("{:016x}", fnv1a64(&text));
    }
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
        "wom.air" => {
            let (model, description) = wom::air::battle::WomAir::load(path)?;
            (Box::new(model), description)
        }
        "wom.battle" => {
            let (model, description) = wom::battle::battle::WomBattle::load(path)?;
            (Box::new(model), description)
        }
        "jc.fleet" => {
            let (model, description) = jc::fleet::JcFleet::load(path)?;
            (Box::new(model), description)
        }
        "jc.duel" => {
            let (model, description) = jc::duel::model::JcDuel::load(path)?;
            (Box::new(model), description)
        }
        "jc.swordsman" => {
            let (model, description) = jc::swordsman::JcSwordsman::load(path)?;
            (Box::new(model), description)
        }
        "jc.military" => {
            let (model, description) = jc::military::JcMilitary::load(path)?;
            (Box::new(model), description)
        }
        "jc.strategic" => {
            let (model, description) = jc::strategic::JcStrategic::load(path)?;
            (Box::new(model), description)
        }
        "races.battle" => {
            let (model, description) = races::battle::RacesBattle::load(path)?;
            (Box::new(model), description)
        }
        "races.game" => {
            let (model, description) = races::game::RacesGame::load(path)?;
            (Box::new(model), description)
        }
        "jetan.game" => {
            let (model, description) = jetan::game::JetanGame::load(path)?;
            (Box::new(model), description)
        }
        "talisman.game" => {
            let (model, description) = talisman::game::TalismanGame::load(path)?;
            (Box::new(model), description)
        }
        "talisman.combat" => {
            let (model, description) = talisman::combat::TalismanCombat::load(path)?;
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
    let text = read_text(&path)?;
    let list: BenchReferences = parse_toml(&path, &text)?;
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
