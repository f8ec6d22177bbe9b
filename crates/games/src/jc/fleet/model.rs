//! The [`JcFleet`] model: loading a scenario into a battle, the output spec
//! and the `Model` impl.

use barsoom_engine::scenario::Load;

use crate::ScenarioModel;

use barsoom_engine::scenario::Loader;
use std::path::Path;

use super::battle::{
    Battle, BattleResult, BattleSetup, DEFAULT_MAX_ROUNDS, Force, MAX_STRENGTH, NeutralForce,
    OUT_AGREED, OUT_FIRST_ELIMINATES, OUT_FIRST_REVERSES, OUT_MUTUAL, OUT_SECOND_ELIMINATES,
    OUT_SECOND_REVERSES, OUT_UNDECIDED,
};
use super::scenario::{FleetFile, check_strength, resolve_commanders, resolve_policy};
use super::tables::JcData;
use barsoom_engine::accumulate::MAX_METRICS;
use barsoom_engine::scenario::ScenarioError;
use barsoom_engine::scenario::id_list;
use barsoom_engine::{Dice, ExactSolution, MetricSpec, Model, OutputSpec, Trace, TrialResult};

/// Metric slots.
pub const METRIC_ROUNDS: usize = 0;

/// Strength left to the first side (index + side).
pub const METRIC_LEFT: usize = 1;

/// Commanders captured from the first side (index + side).
pub const METRIC_CAPTURED: usize = 3;

/// Whether the side's influenced neutral was lost (index + side).
pub const METRIC_NEUTRAL_LOST: usize = 5;

// ---------------------------------------------------------------- model

/// The `jc.fleet` model: one battle per trial.
#[derive(Debug, Clone)]
pub struct JcFleet {
    pub(super) battle: Battle,
    spec: OutputSpec,
}

impl JcFleet {
    /// The compiled battle.
    pub fn battle(&self) -> &Battle {
        &self.battle
    }

    fn build(path: &Path, file: &FleetFile, data: &JcData) -> Result<Self, ScenarioError> {
        let err = |field: String, message: String| ScenarioError::new(path, field, message);
        if file.sides.len() != 2 {
            return Err(err(
                "sides".into(),
                format!("expected exactly 2 [[sides]], found {}", file.sides.len()),
            ));
        }
        let max_rounds = match file.max_rounds {
            None => DEFAULT_MAX_ROUNDS,
            Some(n) if (1..=10_000_000).contains(&n) => n as u32,
            Some(n) => {
                return Err(err(
                    "max_rounds".into(),
                    format!("expected 1 to 10000000, found {n}"),
                ));
            }
        };
        let mut used: Vec<(usize, String)> = Vec::new();
        let mut forces = Vec::new();
        let mut policies = Vec::new();
        for (s, side) in file.sides.iter().enumerate() {
            let field = |f: &str| format!("sides[{s}].{f}");
            let nation = data.nation(&side.nation).ok_or_else(|| {
                err(
                    field("nation"),
                    format!(
                        "expected one of the nations {}, found {:?}",
                        id_list(data.nations.iter().map(|n| n.id.as_str())),
                        side.nation
                    ),
                )
            })?;
            let strength = check_strength(side.strength, &field("strength"))
                .map_err(|m| err(field("strength"), m))?;
            let neutral = match &side.neutral {
                None => None,
                Some(n) => {
                    let nf = |f: &str| format!("sides[{s}].neutral.{f}");
                    let n_nation = data.nation(&n.nation).ok_or_else(|| {
                        err(
                            nf("nation"),
                            format!(
                                "expected one of the nations {}, found {:?}",
                                id_list(data.nations.iter().map(|n| n.id.as_str())),
                                n.nation
                            ),
                        )
                    })?;
                    if n_nation == nation {
                        return Err(err(
                            nf("nation"),
                            format!(
                                "expected a neutral nation other than the side's own ({:?})",
                                side.nation
                            ),
                        ));
                    }
                    let n_strength = check_strength(n.strength, &nf("strength"))
                        .map_err(|m| err(nf("strength"), m))?;
                    let commanders = resolve_commanders(
                        path,
                        &nf("commanders"),
                        &n.commanders,
                        n_nation,
                        data,
                        &mut used,
                    )?;
                    Some(NeutralForce {
                        nation: n_nation,
                        strength: n_strength,
                        commanders,
                    })
                }
            };
            let commanders = resolve_commanders(
                path,
                &field("commanders"),
                &side.commanders,
                nation,
                data,
                &mut used,
            )?;
            let force = Force {
                label: side
                    .label
                    .clone()
                    .unwrap_or_else(|| data.nations[nation].name.clone()),
                nation,
                strength,
                commanders,
                neutral,
            };
            if force.total() > MAX_STRENGTH {
                return Err(err(
                    field("strength"),
                    format!(
                        "expected at most {MAX_STRENGTH} strength points with the neutral's, found {}",
                        force.total()
                    ),
                ));
            }
            forces.push(force);
            policies.push(resolve_policy(path, s, &side.policy, data)?);
        }
        if forces[0].label == forces[1].label {
            forces[0].label.push_str(" (A)");
            forces[1].label.push_str(" (B)");
        }
        let side_by_label = |field: &str, label: &str| {
            forces.iter().position(|f| f.label == label).ok_or_else(|| {
                err(
                    field.into(),
                    format!(
                        "expected the label of a side ({:?} or {:?}), found {label:?}",
                        forces[0].label, forces[1].label
                    ),
                )
            })
        };
        let holder = file
            .holder
            .as_deref()
            .map(|h| side_by_label("holder", h))
            .transpose()?;
        let phasing = file
            .phasing
            .as_deref()
            .map(|h| side_by_label("phasing", h))
            .transpose()?
            .unwrap_or(0);
        let capital = match &file.capital {
            None => None,
            Some(c) => Some(data.capital(c).ok_or_else(|| {
                err(
                    "capital".into(),
                    format!(
                        "expected one of the capitals {} (leave it out for any other city), found {c:?}",
                        id_list(data.capitals.iter().map(|c| c.id.as_str()))
                    ),
                )
            })?),
        };
        let [a, b] = [forces[0].clone(), forces[1].clone()];
        let setup = BattleSetup {
            sides: [a, b],
            capital,
            holder,
            phasing,
        };
        let battle = Battle::new(data, &setup, &[policies[0], policies[1]], max_rounds)
            .map_err(|m| err("policy".into(), m))?;
        let place =
            capital.map_or_else(|| "the city".to_string(), |c| data.capitals[c].name.clone());
        let spec = output_spec(&setup, &place, max_rounds);
        Ok(JcFleet { battle, spec })
    }
}

impl ScenarioModel for JcFleet {
    type File = FleetFile;
    const ID: &'static str = "jc.fleet";
    const DESCRIPTION: &'static str = "John Carter, Warlord of Mars fleet combat: maneuvers, leadership, intrinsic defense, Reverses and influenced neutrals";

    /// Loads a `jc.fleet` scenario and the data it names (default folder:
    /// `../data` beside the scenario's folder).
    fn load_with(path: &Path, loader: &mut Loader) -> Result<(Self, String), ScenarioError> {
        let file: Self::File = loader.read_scenario(path, Self::ID)?;
        let data_dir = file.scenario.data_dir(path)?;
        let data = JcData::load_with(&data_dir, loader)?;
        let model = Self::build(path, &file, &data)?;
        Ok((model, file.scenario.description))
    }
}

fn output_spec(setup: &BattleSetup, place: &str, max_rounds: u32) -> OutputSpec {
    let [a, b] = [&setup.sides[0].label, &setup.sides[1].label];
    let agreed = match setup.holder {
        Some(h) => format!(
            "broken off by agreement: {} keeps {place}",
            setup.sides[h].label
        ),
        None => "broken off by agreement".to_string(),
    };
    let mut outcomes = vec![String::new(); 7];
    outcomes[usize::from(OUT_FIRST_ELIMINATES)] = format!("{a} eliminates {b}");
    outcomes[usize::from(OUT_SECOND_ELIMINATES)] = format!("{b} eliminates {a}");
    outcomes[usize::from(OUT_MUTUAL)] = "both fleets eliminated".into();
    outcomes[usize::from(OUT_FIRST_REVERSES)] = format!("{a} breaks off (two Reverses): {b} holds");
    outcomes[usize::from(OUT_SECOND_REVERSES)] =
        format!("{b} breaks off (two Reverses): {a} holds");
    outcomes[usize::from(OUT_AGREED)] = agreed;
    outcomes[usize::from(OUT_UNDECIDED)] = format!("undecided after {max_rounds} rounds");
    let mut metrics = vec![MetricSpec::new("rounds", "rounds of fleet combat")];
    let sides = [(a, "a"), (b, "b")];
    for (side, key) in sides {
        metrics.push(MetricSpec::new(
            format!("left_{key}"),
            format!("{side} strength points left"),
        ));
    }
    for (side, key) in sides {
        metrics.push(MetricSpec::new(
            format!("captured_{key}"),
            format!("{side} commanders captured"),
        ));
    }
    for (side, key) in sides {
        metrics.push(MetricSpec::new(
            format!("neutral_lost_{key}"),
            format!("{side}'s influenced neutral lost (0/1)"),
        ));
    }
    debug_assert!(metrics.len() <= MAX_METRICS);
    OutputSpec {
        outcomes,
        metrics,
        length_metric: Some(METRIC_ROUNDS),
        trends: Vec::new(),
    }
}

/// The trial row of a fought battle.
pub fn trial_result(result: &BattleResult) -> TrialResult {
    let t = &result.terminal;
    let mut metrics = [0u32; MAX_METRICS];
    metrics[METRIC_ROUNDS] = result.rounds;
    for side in 0..2 {
        metrics[METRIC_LEFT + side] = u32::from(t.left[side]);
        metrics[METRIC_CAPTURED + side] = u32::from(t.captured[side]);
        metrics[METRIC_NEUTRAL_LOST + side] = u32::from(t.neutral_lost[side]);
    }
    TrialResult {
        outcome: t.outcome,
        metrics,
    }
}

impl Model for JcFleet {
    fn spec(&self) -> &OutputSpec {
        &self.spec
    }

    #[inline]
    fn run_trial<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        trial_result(&self.battle.resolve(dice, trace))
    }

    fn exact(&self) -> Result<ExactSolution, String> {
        super::exact::solve(&self.battle)
    }
}
