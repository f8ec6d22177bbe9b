//! The `jc.fleet` scenario format and its checks: sides, neutral fleets,
//! commanders' strength and the policies named in the file.

use barsoom_engine::scenario::Scenario;
use std::path::Path;

use serde::Deserialize;

use super::battle::MAX_STRENGTH;
use super::players::{LossOrder, ManeuverPolicy, SidePolicy};
use super::tables::JcData;
use barsoom_engine::scenario::ScenarioError;
use barsoom_engine::scenario::id_list;

// ---------------------------------------------------------------- scenario

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FleetFile {
    #[serde(flatten)]
    pub(super) scenario: Scenario,
    /// A capital id from the data folder's map (intrinsic defense [23.4]).
    pub(super) capital: Option<String>,
    /// The label of the side that held the city.
    pub(super) holder: Option<String>,
    /// The label of the attacker on a tie (default: the first side).
    pub(super) phasing: Option<String>,
    /// Rounds before a battle still going is undecided.
    pub(super) max_rounds: Option<i64>,
    /// Exactly two sides.
    pub(super) sides: Vec<SideFile>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct SideFile {
    /// Default: the nation's name (two equal labels get " (A)" and " (B)").
    pub(super) label: Option<String>,
    /// A nation id from the data folder's `nations.toml`.
    pub(super) nation: String,
    /// Home strength points, 1 to 99 (with the neutral's).
    pub(super) strength: i64,
    /// Commander ids of the side's own nation [22.23], each once.
    #[serde(default)]
    pub(super) commanders: Vec<String>,
    /// A neutral fleet fighting with this side.
    pub(super) neutral: Option<NeutralFile>,
    /// How the side fights.
    #[serde(default)]
    pub(super) policy: PolicyFile,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct NeutralFile {
    /// A nation id from the data folder's `nations.toml`.
    pub(super) nation: String,
    /// Strength points.
    pub(super) strength: i64,
    /// Commander ids of that nation.
    #[serde(default)]
    pub(super) commanders: Vec<String>,
}

#[derive(Deserialize, schemars::JsonSchema, Default)]
#[serde(deny_unknown_fields, default)]
pub(super) struct PolicyFile {
    /// `uniform` (default), `minimax`, or a maneuver id of the data folder's
    /// fleet tables (always that one).
    maneuver: Option<String>,
    /// Propose a break-off once the enemy has this ratio of its strength, 1 to
    /// 10 [23.22].
    break_off_behind: Option<f64>,
    /// Agree when the enemy proposes a break-off.
    accept_break_off: bool,
    /// Which fleet takes losses first: `home-first` (default) or
    /// `neutral-first`.
    losses: Option<String>,
}

pub(super) fn check_strength(value: i64, _field: &str) -> Result<u8, String> {
    if (1..=i64::from(MAX_STRENGTH)).contains(&value) {
        Ok(value as u8)
    } else {
        Err(format!(
            "expected 1 to {MAX_STRENGTH} fleet strength points, found {value}"
        ))
    }
}

pub(super) fn resolve_commanders(
    path: &Path,
    field: &str,
    ids: &[String],
    nation: usize,
    data: &JcData,
    used: &mut Vec<(usize, String)>,
) -> Result<Vec<usize>, ScenarioError> {
    let mut out = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let field = format!("{field}[{i}]");
        let Some(c) = data.commander(id) else {
            return Err(ScenarioError::new(
                path,
                field,
                format!(
                    "expected one of the commanders {}, found {id:?}",
                    id_list(data.commanders.iter().map(|c| c.id.as_str()))
                ),
            ));
        };
        let commander = &data.commanders[c];
        if commander.nation != nation {
            return Err(ScenarioError::new(
                path,
                field,
                format!(
                    "expected a commander of {} (commanders go with fleets of their own nation, 22.23), found {} of {}",
                    data.nations[nation].name, commander.name, data.nations[commander.nation].name
                ),
            ));
        }
        if let Some((_, first)) = used.iter().find(|(u, _)| *u == c) {
            return Err(ScenarioError::new(
                path,
                field,
                format!("expected each commander once, found {id:?} again (first at {first})"),
            ));
        }
        used.push((c, field));
        out.push(c);
    }
    Ok(out)
}

pub(super) fn resolve_policy(
    path: &Path,
    s: usize,
    policy: &PolicyFile,
    data: &JcData,
) -> Result<SidePolicy, ScenarioError> {
    let field = |f: &str| format!("sides[{s}].policy.{f}");
    let maneuver = match policy.maneuver.as_deref() {
        None | Some("uniform") => ManeuverPolicy::Uniform,
        Some("minimax") => ManeuverPolicy::Minimax,
        Some(id) => match data.tables.maneuver(id) {
            Some(m) => ManeuverPolicy::Favourite(m),
            None => {
                return Err(ScenarioError::new(
                    path,
                    field("maneuver"),
                    format!(
                        "expected \"uniform\", \"minimax\" or one of the maneuvers {}, found {id:?}",
                        data.tables.maneuver_list()
                    ),
                ));
            }
        },
    };
    let break_off_behind = match policy.break_off_behind {
        None => None,
        Some(r) if r.is_finite() && r >= 1.0 => Some(r),
        Some(r) => {
            return Err(ScenarioError::new(
                path,
                field("break_off_behind"),
                format!("expected a strength ratio of at least 1 (e.g. 2.0), found {r}"),
            ));
        }
    };
    let losses = match policy.losses.as_deref() {
        None | Some("home-first") => LossOrder::HomeFirst,
        Some("neutral-first") => LossOrder::NeutralFirst,
        Some(other) => {
            return Err(ScenarioError::new(
                path,
                field("losses"),
                format!("expected \"home-first\" or \"neutral-first\", found {other:?}"),
            ));
        }
    };
    Ok(SidePolicy {
        maneuver,
        break_off_behind,
        accept_break_off: policy.accept_break_off,
        losses,
    })
}
