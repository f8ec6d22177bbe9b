//! Combat [16] and psychic combat [17]: one die each added to Strength (or
//! Craft); the higher score wins, equal scores are a stand-off [16:10].
//! Also the exact single-combat table and the `talisman.combat` model, one
//! combat between two fixed scores, which `barsoom exact` solves.

use crate::ScenarioModel;

use barsoom_engine::scenario::{Loader, Scenario};
use std::path::Path;

use serde::Deserialize;

use super::game::Roll;
use barsoom_engine::accumulate::TrialResult;
use barsoom_engine::model::{ExactSolution, MetricSpec, Model, OutputSpec, Trace};
use barsoom_engine::rng::Dice;
use barsoom_engine::scenario::ScenarioError;

/// How one round of combat ended, for the character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Result3 {
    /// The character's score was higher.
    Win,
    /// Equal scores [16:10].
    StandOff,
    /// The creature's (or defender's) score was higher.
    Lose,
}

/// Compares two combat scores [16:4].
pub fn compare(character: i32, creature: i32) -> Result3 {
    match character.cmp(&creature) {
        std::cmp::Ordering::Greater => Result3::Win,
        std::cmp::Ordering::Equal => Result3::StandOff,
        std::cmp::Ordering::Less => Result3::Lose,
    }
}

/// The probabilities of win, stand-off and loss for a character whose
/// Strength exceeds the creature's by `difference`, one d6 each. When the
/// character rolls two dice and keeps the higher (`best_of_two`), its die
/// follows that distribution instead.
pub fn odds(difference: i32, best_of_two: bool) -> [f64; 3] {
    let d = difference.clamp(-6, 6) + 6;
    ODDS_WAYS[usize::from(best_of_two)][d as usize].map(|w| f64::from(w) / 216.0)
}

/// Ways out of 216 to win, stand off and lose, by mode (one die, best of
/// two) and difference -6..=6 (beyond that the result is certain). Each of
/// the character's faces m weighs 6 (one die) or 2m - 1 (the higher of two
/// dice, out of 36); each creature face weighs 1.
const ODDS_WAYS: [[[u32; 3]; 13]; 2] = {
    let mut table = [[[0u32; 3]; 13]; 2];
    let mut mode = 0;
    while mode < 2 {
        let mut d = 0;
        while d < 13 {
            let mut mine = 1;
            while mine <= 6 {
                let weight = if mode == 1 { 2 * mine - 1 } else { 6 };
                let mut theirs = 1;
                while theirs <= 6 {
                    let score = mine + d as i32 - 6;
                    let index = if score > theirs {
                        0
                    } else if score == theirs {
                        1
                    } else {
                        2
                    };
                    table[mode][d][index] += weight as u32;
                    theirs += 1;
                }
                mine += 1;
            }
            d += 1;
        }
        mode += 1;
    }
    table
};

/// The exact single-combat table for Strengths 1 to `max` on each side:
/// entry `[a - 1][b - 1]` is `[win, stand-off, loss]` for Strength `a`
/// against Strength `b`.
pub fn combat_table(max: i32) -> Vec<Vec<[f64; 3]>> {
    (1..=max)
        .map(|a| (1..=max).map(|b| odds(a - b, false)).collect())
        .collect()
}

/// One combat roll: a die, or the better of two dice.
#[inline]
pub fn roll<R: Roll>(dice: &mut R, best_of_two: bool) -> i32 {
    let first = dice.d6();
    if best_of_two {
        first.max(dice.d6())
    } else {
        first
    }
}

/// The `talisman.combat` model: one round of combat (or psychic combat)
/// between a character's total Strength and a creature's.
pub struct TalismanCombat {
    character: i32,
    creature: i32,
    best_of_two: bool,
    spec: OutputSpec,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CombatFile {
    #[serde(flatten)]
    scenario: Scenario,
    /// The character's total (Strength, or Craft for psychic combat), 0 to 40.
    character_strength: i32,
    /// The creature's, 0 to 40.
    creature_strength: i32,
    /// The character rolls two dice and keeps the higher.
    #[serde(default)]
    best_of_two: bool,
}

/// Outcome index: the character wins.
pub(crate) const OUT_CHARACTER_WINS: u16 = 0;
/// Outcome index: stand-off.
pub(crate) const OUT_STAND_OFF: u16 = 1;
/// Outcome index: the creature wins.
pub(crate) const OUT_CREATURE_WINS: u16 = 2;

impl TalismanCombat {
    /// A combat between two totals.
    pub fn new(character: i32, creature: i32, best_of_two: bool) -> Self {
        TalismanCombat {
            character,
            creature,
            best_of_two,
            spec: OutputSpec {
                outcomes: vec![
                    "character wins".into(),
                    "stand-off".into(),
                    "creature wins".into(),
                ],
                metrics: vec![MetricSpec::new(
                    "margin",
                    "winner's score minus loser's (0 in a stand-off)",
                )],
                length_metric: None,
                trends: Vec::new(),
            },
        }
    }
}

impl ScenarioModel for TalismanCombat {
    type File = CombatFile;
    const ID: &'static str = "talisman.combat";
    const DESCRIPTION: &'static str = "Talisman combat: one round of d6 + Strength against d6 + Strength (or Craft), solved exactly";

    /// Loads a `talisman.combat` scenario.
    fn load_with(path: &Path, loader: &mut Loader) -> Result<(Self, String), ScenarioError> {
        let file: Self::File = loader.read_scenario(path, Self::ID)?;
        file.scenario.no_data(path)?;
        for (field, value) in [
            ("character_strength", file.character_strength),
            ("creature_strength", file.creature_strength),
        ] {
            if !(0..=40).contains(&value) {
                return Err(ScenarioError::new(
                    path,
                    field,
                    format!("expected 0 to 40, found {value}"),
                ));
            }
        }
        Ok((
            TalismanCombat::new(
                file.character_strength,
                file.creature_strength,
                file.best_of_two,
            ),
            file.scenario.description,
        ))
    }
}

impl Model for TalismanCombat {
    fn spec(&self) -> &OutputSpec {
        &self.spec
    }

    fn run_trial<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        let mine = self.character + roll(dice, self.best_of_two);
        let theirs = self.creature + Roll::d6(dice);
        trace.event("Talisman 16:4", || {
            format!("character scores {mine}, creature scores {theirs}")
        });
        let mut result = TrialResult {
            outcome: match compare(mine, theirs) {
                Result3::Win => OUT_CHARACTER_WINS,
                Result3::StandOff => OUT_STAND_OFF,
                Result3::Lose => OUT_CREATURE_WINS,
            },
            ..TrialResult::default()
        };
        result.metrics[0] = mine.abs_diff(theirs);
        result
    }

    fn exact(&self) -> Result<ExactSolution, String> {
        let p = odds(self.character - self.creature, self.best_of_two);
        Ok(ExactSolution {
            outcome_probabilities: p.to_vec(),
            metric_means: Vec::new(),
        })
    }
}
