//! The `wom.duel` scenario file: its format, its validation into a
//! [`WomDuel`] (each figure resolved against the tables), and the output
//! spec.

use barsoom_engine::scenario::Load;

use crate::ScenarioModel;

use barsoom_engine::scenario::{Loader, Scenario};
use std::path::Path;

use serde::Deserialize;

use crate::wom::tables::WomData;
use barsoom_engine::scenario::ScenarioError;
use barsoom_engine::{MetricSpec, OutputSpec};

use super::rules::{compile_shot, panic_score};
use super::{
    Body, DEFAULT_MAX_ROUNDS, Fighter, FirstStrike, MAX_PER_SIDE, METRIC_ROUNDS, MissileShot,
    WomDuel, attack_profile, initiative_profile, side_range,
};

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DuelFile {
    #[serde(flatten)]
    scenario: Scenario,
    /// Rounds before a fight still going is scored undecided, 1 to 10,000,000
    /// (default 100,000).
    max_rounds: Option<i64>,
    /// Exactly two sides.
    sides: Vec<SideFile>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct SideFile {
    /// The side's name in the outcomes (default: the first figure's name, xN
    /// for several).
    label: Option<String>,
    /// This side has broken the Barsoomian Code of Battle: every man of
    /// the other side fights one level higher for the whole fight.
    #[serde(default)]
    breaks_code: bool,
    /// The side's figures, 1 to 16.
    figures: Vec<FigureFile>,
}

#[derive(Deserialize, schemars::JsonSchema, Default)]
#[serde(deny_unknown_fields, default)]
struct FigureFile {
    /// A character id from the data folder's `roster.toml` (a man or an
    /// animal).
    character: String,
    /// Men only: level 1 to 13, instead of the roster's.
    level: Option<i64>,
    /// Men only: a weapon id from the data folder's `weapons.toml` (default:
    /// long sword).
    weapon: Option<String>,
    /// An Okarian (yellow man).
    okarian: bool,
    /// Fights with a weapon in the off hand.
    off_hand: bool,
    /// Mounted.
    mounted: bool,
    /// Charges in the first round.
    charging: bool,
    /// Carries a lance (needs `mounted` and `charging`).
    lance: bool,
    /// The lance is poisoned (needs `mounted` and `charging`).
    poisoned_lance: bool,
    /// Animals only: wields a club.
    club: bool,
    /// Animals only: cannot leap.
    cannot_leap: bool,
    /// Strikes with surprise (one side only).
    surprise: bool,
    /// Has moved this round.
    moved: bool,
    /// Men only, one side only: fires a missile weapon before the melee.
    missile: Option<MissileFile>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct MissileFile {
    /// A missile weapon id from the data folder's `weapons.toml`.
    weapon: String,
    /// `short`, `medium` or `long`.
    #[serde(default = "medium")]
    range: String,
    /// The target is moving.
    #[serde(default)]
    target_moving: bool,
    /// The target's cover: `none`, `soft` or `hard`.
    #[serde(default = "no_cover")]
    cover: String,
}

fn medium() -> String {
    "medium".into()
}
fn no_cover() -> String {
    "none".into()
}

impl WomDuel {
    fn build(path: &Path, file: &DuelFile, data: &WomData) -> Result<Self, ScenarioError> {
        if file.sides.len() != 2 {
            return Err(ScenarioError::new(
                path,
                "sides",
                format!("expected exactly 2 [[sides]], found {}", file.sides.len()),
            ));
        }
        let max_rounds = match file.max_rounds {
            None => DEFAULT_MAX_ROUNDS,
            Some(n) if (1..=10_000_000).contains(&n) => n as u32,
            Some(n) => {
                return Err(ScenarioError::new(
                    path,
                    "max_rounds",
                    format!("expected 1 to 10000000, found {n}"),
                ));
            }
        };
        let breakers: Vec<usize> = (0..2).filter(|&s| file.sides[s].breaks_code).collect();
        if breakers.len() > 1 {
            return Err(ScenarioError::new(
                path,
                "sides[1].breaks_code",
                "expected at most one side breaking the code of battle",
            ));
        }
        let mut fighters = Vec::new();
        let mut labels = [String::new(), String::new()];
        let mut side_a = 0;
        for (s, side) in file.sides.iter().enumerate() {
            // [The Barsoomian Code of Battle]: the other side's men rise
            // one class (at 1:1, one ability level) for good.
            let raised = file.sides[1 - s].breaks_code;
            if raised
                && !side.figures.iter().any(|f| {
                    data.roster
                        .get(&f.character)
                        .is_some_and(|c| c.animal.is_none())
                })
            {
                return Err(ScenarioError::new(
                    path,
                    format!("sides[{}].breaks_code", 1 - s),
                    "expected a man on the other side: the code raises men, and animals are not bound by it",
                ));
            }
            if side.figures.is_empty() || side.figures.len() > MAX_PER_SIDE {
                return Err(ScenarioError::new(
                    path,
                    format!("sides[{s}].figures"),
                    format!(
                        "expected 1 to {MAX_PER_SIDE} figures, found {}",
                        side.figures.len()
                    ),
                ));
            }
            for (f, figure) in side.figures.iter().enumerate() {
                fighters.push(resolve_figure(
                    path,
                    &format!("sides[{s}].figures[{f}]"),
                    figure,
                    raised,
                    data,
                )?);
            }
            let first = &fighters[if s == 0 { 0 } else { side_a }].name;
            labels[s] = side.label.clone().unwrap_or_else(|| {
                if side.figures.len() == 1 {
                    first.clone()
                } else {
                    format!("{} x{}", first, side.figures.len())
                }
            });
            if s == 0 {
                side_a = fighters.len();
            }
        }
        if labels[0] == labels[1] {
            labels[0].push_str(" (A)");
            labels[1].push_str(" (B)");
        }
        let sides_shooting: Vec<usize> = (0..2)
            .filter(|s| {
                side_range(*s, side_a, fighters.len()).any(|i| fighters[i].missile.is_some())
            })
            .collect();
        if sides_shooting.len() > 1 {
            return Err(ScenarioError::new(
                path,
                "sides[1].figures[].missile",
                "expected opening missile fire from one side only (the other closes to melee)",
            ));
        }
        for s in 0..2 {
            let surprised_other =
                side_range(1 - s, side_a, fighters.len()).any(|i| fighters[i].surprise);
            if surprised_other
                && side_range(s, side_a, fighters.len()).any(|i| fighters[i].surprise)
            {
                return Err(ScenarioError::new(
                    path,
                    "sides[].figures[].surprise",
                    "expected surprise on one side only",
                ));
            }
        }

        let n = fighters.len();
        let animals_involved = fighters.iter().any(|f| matches!(f.body, Body::Animal(_)));
        let has_animal = |s: usize| {
            side_range(s, side_a, n).any(|i| matches!(fighters[i].body, Body::Animal(_)))
        };
        let panic_possible = has_animal(0) && has_animal(1);
        let mut attack = Vec::with_capacity(n * n * 3);
        let mut initiative = Vec::with_capacity(n * n);
        let mut panic = Vec::with_capacity(n * n);
        let mut missile = Vec::with_capacity(n * n);
        for a in 0..n {
            for d in 0..n {
                for phase in 0..3 {
                    attack.push(attack_profile(&fighters[a], &fighters[d], phase, data));
                }
                initiative.push(initiative_profile(&fighters[a], &fighters[d], data));
                panic.push(panic_score(&fighters[a], &fighters[d], &data.animals));
                missile.push(compile_shot(&fighters[a], &fighters[d], data));
            }
        }
        let mut outcomes = vec![format!("{} wins", labels[0]), format!("{} wins", labels[1])];
        let outcome_flee = panic_possible.then(|| {
            outcomes.push(format!("{} flees", labels[0]));
            outcomes.push(format!("{} flees", labels[1]));
            [2, 3]
        });
        outcomes.push(format!("undecided after {max_rounds} rounds"));
        let outcome_undecided = (outcomes.len() - 1) as u16;
        let spec = OutputSpec {
            outcomes,
            metrics: vec![
                MetricSpec::new("rounds", "rounds of melee fought"),
                MetricSpec::new("turns", "turns (two rounds each)"),
                MetricSpec::new("wounds_a", format!("wounds taken by {}", labels[0])),
                MetricSpec::new("wounds_b", format!("wounds taken by {}", labels[1])),
                MetricSpec::new(
                    "survivors_a",
                    format!("{} figures still fighting", labels[0]),
                ),
                MetricSpec::new(
                    "survivors_b",
                    format!("{} figures still fighting", labels[1]),
                ),
            ],
            length_metric: Some(METRIC_ROUNDS),
            trends: Vec::new(),
        };
        let model = WomDuel {
            spec,
            fighters,
            side_a,
            labels,
            animals_involved,
            panic_possible,
            successive_limit: data.men.modifiers.successive_attack_limit.max(1),
            max_rounds,
            attack,
            initiative,
            panic,
            missile,
            outcome_flee,
            outcome_undecided,
            first_strike: FirstStrike::RollOff,
        };
        let mut model = model;
        model.first_strike = model.decide_first_strike();
        let hurts = |s: usize| {
            side_range(s, side_a, n)
                .any(|a| side_range(1 - s, side_a, n).any(|d| model.attack(a, d, 2).can_hurt()))
        };
        if !hurts(0) && !hurts(1) {
            return Err(ScenarioError::new(
                path,
                "sides",
                "expected at least one side able to wound the other; this fight could never end",
            ));
        }
        Ok(model)
    }
}

impl ScenarioModel for WomDuel {
    type File = DuelFile;
    const ID: &'static str = "wom.duel";
    const DESCRIPTION: &'static str = "Warriors of Mars individual combat: men and animals, one or several a side, with an optional missile volley";

    /// Loads a `wom.duel` scenario and the data it names.
    fn load_with(path: &Path, loader: &mut Loader) -> Result<(Self, String), ScenarioError> {
        let file: Self::File = loader.read_scenario(path, Self::ID)?;
        let data_dir = file.scenario.data_dir(path)?;
        let data = WomData::load_with(&data_dir, loader)?;
        let model = Self::build(path, &file, &data)?;
        Ok((model, file.scenario.description))
    }
}

/// Resolves one figure against the data; `raised`: its side's opponents
/// broke the code of battle, so a man fights one level above his own.
fn resolve_figure(
    path: &Path,
    field: &str,
    figure: &FigureFile,
    raised: bool,
    data: &WomData,
) -> Result<Fighter, ScenarioError> {
    let err = |f: &str, m: String| ScenarioError::new(path, format!("{field}.{f}"), m);
    let character = data.roster.get(&figure.character).ok_or_else(|| {
        let known: Vec<&str> = data.roster.keys().map(String::as_str).collect();
        err(
            "character",
            format!(
                "expected a character of roster.toml ({}), found {:?}",
                known.join(", "),
                figure.character
            ),
        )
    })?;
    let body = match (&character.animal, figure.level.or(character.level)) {
        (Some(animal), None) => Body::Animal(data.animals.animal_index(animal).unwrap_or(0)),
        (Some(_), Some(_)) => {
            return Err(err(
                "level",
                format!("expected no level: {} is an animal", character.name),
            ));
        }
        // Thirteen levels are all there are: a 13th-level man cannot rise.
        (None, Some(level)) if (1..=13).contains(&level) => {
            Body::Man((level as u8 + u8::from(raised)).min(13))
        }
        (None, Some(level)) => {
            return Err(err(
                "level",
                format!("expected a level 1-13, found {level}"),
            ));
        }
        (None, None) => return Err(err("level", "expected a level for a man".into())),
    };
    let wounds_to_kill = match body {
        Body::Man(level) => character
            .wounds_to_kill
            .unwrap_or(level + data.men.wounds_above_level),
        Body::Animal(a) => character
            .wounds_to_kill
            .unwrap_or(data.animals.animals[a].wounds_to_kill),
    };
    let weapon_id = figure
        .weapon
        .clone()
        .unwrap_or_else(|| data.animals.man_modifiers.reference_weapon.clone());
    let weapon = data.weapons.get(&weapon_id).ok_or_else(|| {
        err(
            "weapon",
            format!(
                "expected a weapon of weapons.toml ({}), found {weapon_id:?}",
                data.weapons.keys().cloned().collect::<Vec<_>>().join(", ")
            ),
        )
    })?;
    let is_animal = matches!(body, Body::Animal(_));
    let man_only = [
        ("weapon", figure.weapon.is_some()),
        ("okarian", figure.okarian),
        ("off_hand", figure.off_hand),
        ("mounted", figure.mounted),
        ("lance", figure.lance),
        ("poisoned_lance", figure.poisoned_lance),
        ("missile", figure.missile.is_some()),
    ];
    if is_animal && let Some((name, _)) = man_only.iter().find(|(_, set)| *set) {
        return Err(err(
            name,
            format!("expected no `{name}`: {} is an animal", character.name),
        ));
    }
    if !is_animal && (figure.club || figure.cannot_leap) {
        return Err(err(
            if figure.club { "club" } else { "cannot_leap" },
            format!("expected an animal: {} is a man", character.name),
        ));
    }
    if (figure.lance || figure.poisoned_lance) && !(figure.mounted && figure.charging) {
        return Err(err(
            "lance",
            "expected `mounted = true` and `charging = true` for a lance charge".into(),
        ));
    }
    let missile = match &figure.missile {
        None => None,
        Some(m) => {
            let rules = &data.missile.vs_men;
            let range = match m.range.as_str() {
                "short" => rules.short_range,
                "medium" => 0,
                "long" => rules.long_range,
                other => {
                    return Err(err(
                        "missile.range",
                        format!("expected short, medium or long, found {other:?}"),
                    ));
                }
            };
            let cover = match m.cover.as_str() {
                "none" => 0,
                "soft" => rules.soft_cover,
                "hard" => rules.hard_cover,
                other => {
                    return Err(err(
                        "missile.cover",
                        format!("expected none, soft or hard, found {other:?}"),
                    ));
                }
            };
            if !data.weapons.contains_key(&m.weapon) {
                return Err(err(
                    "missile.weapon",
                    format!("expected a weapon of weapons.toml, found {:?}", m.weapon),
                ));
            }
            let weapon_modifier = rules.weapon_modifiers.get(&m.weapon).copied().unwrap_or(0);
            let moving = if m.target_moving {
                rules.target_moving
            } else {
                0
            };
            Some(MissileShot {
                first_die_modifier: range
                    + cover
                    + weapon_modifier
                    + moving
                    + character.missile_modifier,
            })
        }
    };
    Ok(Fighter {
        name: character.name.clone(),
        body,
        wounds_to_kill,
        weapon_class: weapon.class,
        reach: weapon.reach,
        roll_bonus: character.roll_bonus,
        okarian: figure.okarian,
        off_hand: figure.off_hand,
        mounted: figure.mounted,
        charging: figure.charging,
        lance: figure.lance,
        poisoned_lance: figure.poisoned_lance,
        club: figure.club,
        cannot_leap: figure.cannot_leap,
        surprise: figure.surprise,
        moved: figure.moved,
        missile,
    })
}
