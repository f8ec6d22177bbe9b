//! `jc.military`: the Military Game of John Carter, Warlord of Mars (SPI
//! 1979), sections 21-25, played in full: Helium against the Dusar/Jahar
//! alliance, from set-up [25.1, 25.2] to victory [25.3] or a turn limit.
//!
//! - [`map`]: the reconstructed map of Barsoom (`barsoom-map.toml`), shared
//!   with the Strategic Game (re-exported from `jc::map`).
//! - [`deck`]: the movement deck, cards 066-115 (`movement-deck.toml`),
//!   shared likewise (re-exported from `jc::deck`).
//! - [`diplomacy`]: in-fighting tables and diplomacy values
//!   (`diplomacy.toml`).
//! - [`rules`]: all the data, with `military.toml` (sides, neutrals,
//!   turn-sequence numbers).
//! - [`battles`]: fleet combat through `jc.fleet`, compiled battles cached
//!   by key.
//! - [`game`]: the game state and the turn sequence [21.0].
//! - [`players`]: the `random`, `greedy` and `lookahead` policies.

use barsoom_engine::scenario::Load;

use crate::ScenarioModel;

pub mod battles;
pub mod diplomacy;
pub mod game;
pub mod players;
pub mod rules;

pub use crate::jc::{deck, map};

use barsoom_engine::scenario::{Loader, Scenario};
use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use self::battles::{BattleCache, BreakOff};
use self::game::{CHECKPOINTS, Context, FirstMover, Game, GameConfig, home_nation};
use self::players::Policy;
use self::rules::{MAX_NEUTRALS, MilitaryRules};
use barsoom_engine::accumulate::MAX_METRICS;
use barsoom_engine::scenario::ScenarioError;
use barsoom_engine::scenario::id_list;
use barsoom_engine::{
    Dice, MetricSpec, Model, OutputSpec, Trace, TrendLine, TrendSpec, TrialResult,
};

/// Default Game-Turns before a game is scored unfinished: a safety limit
/// (the rules end a game only at victory [25.3]).
pub(crate) const DEFAULT_TURN_LIMIT: u16 = 500;
/// Default rollouts per decision of the lookahead policy.
pub(crate) const DEFAULT_ROLLOUTS: u16 = 16;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    #[serde(flatten)]
    scenario: Scenario,
    /// Game-Turns before the game is scored unfinished, 1 to 1,000 (default
    /// 500).
    turn_limit: Option<i64>,
    /// Who moves first: `helium` (default [25.0]), `alliance`, or `alternate`
    /// (Helium on even trials).
    first: Option<String>,
    /// Both policies see every face-down unit [22.26].
    #[serde(default)]
    reveal: bool,
    /// Fleet-combat rollouts per decision of the lookahead policy, 1 to 1,000
    /// (default 16).
    rollouts: Option<i64>,
    /// The two players, keyed `helium` and `alliance`.
    sides: BTreeMap<String, SideFile>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct SideFile {
    /// `random`, `greedy`, `lookahead`, or `search[:N[:BASE]]` (N playouts,
    /// default 100; BASE `greedy` or `random`).
    policy: String,
    /// Strength points per own capital (capital ids from the data folder's
    /// `capitals.toml`): 7 for Helium [25.11], 10 for the alliance [25.12].
    setup: BTreeMap<String, i64>,
    /// Propose a break-off once the enemy has this ratio of its strength, 1 to
    /// 10 [23.22].
    break_off_behind: Option<f64>,
    /// Agree when the enemy proposes a break-off.
    #[serde(default)]
    accept_break_off: bool,
}

/// The ratios a break-off threshold may take (enemy strength over own).
const BREAK_OFF_RANGE: std::ops::RangeInclusive<f64> = 1.0..=10.0;

/// Metric slots.
pub const METRIC_TURNS: usize = 0;
/// Capitals each player holds at the end (index + player).
pub(crate) const METRIC_CAPITALS: usize = 1;
/// Capitals held at each checkpoint: Helium's, then the alliance's.
pub(crate) const METRIC_CAPITALS_AT: usize = 3;
/// Counts after the neutral outcomes (storms, battles, losses...).
const COUNTS: usize = 11;
/// First neutral-outcome slot (one per neutral).
pub(crate) const METRIC_NEUTRALS: usize = METRIC_CAPITALS_AT + 2 * CHECKPOINTS.len();

/// The `jc.military` model.
#[derive(Debug)]
pub struct JcMilitary {
    rules: MilitaryRules,
    config: GameConfig,
    cache: BattleCache,
    spec: OutputSpec,
    /// Slot of the first of the counts after the neutral outcomes.
    counts_at: usize,
}

impl JcMilitary {
    /// The compiled data.
    pub fn rules(&self) -> &MilitaryRules {
        &self.rules
    }

    /// The scenario's choices.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The shared battle cache.
    pub fn cache(&self) -> &BattleCache {
        &self.cache
    }

    /// The context a game reads.
    pub fn context(&self) -> Context<'_> {
        Context {
            rules: &self.rules,
            config: &self.config,
            cache: &self.cache,
        }
    }

    /// Plays one game and returns it with how it ended.
    pub fn play<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> (Game<'_>, game::GameEnd) {
        let mut g = Game::new(&self.context(), dice);
        let end = g.play(dice, trace);
        (g, end)
    }
}

impl ScenarioModel for JcMilitary {
    type File = ScenarioFile;
    const ID: &'static str = "jc.military";
    const DESCRIPTION: &'static str = "John Carter, Warlord of Mars Military Game in full: Helium against the Dusar/Jahar alliance on the map of Barsoom, with movement cards, fleet combat, reinforcements, storms, neutrals and diplomacy";

    /// Loads a `jc.military` scenario and the data it names (default
    /// folder: `../data` beside the scenario's folder).
    fn load_with(path: &Path, loader: &mut Loader) -> Result<(Self, String), ScenarioError> {
        let file: Self::File = loader.read_scenario(path, Self::ID)?;
        let dir = file.scenario.data_dir(path)?;
        let rules = MilitaryRules::load_with(&dir, loader)?;
        battles::check(&rules.data).map_err(|e| {
            ScenarioError::new(
                &dir.join("fleet-tables.toml"),
                "matrix",
                format!("expected a maneuver matrix jc.fleet can play: {e}"),
            )
        })?;
        let config = build_config(path, &file, &rules)?;
        let (spec, counts_at) = output_spec(&rules, &config);
        Ok((
            JcMilitary {
                rules,
                config,
                cache: BattleCache::default(),
                spec,
                counts_at,
            },
            file.scenario.description,
        ))
    }
}

fn build_config(
    path: &Path,
    file: &ScenarioFile,
    rules: &MilitaryRules,
) -> Result<GameConfig, ScenarioError> {
    let err = |field: String, message: String| ScenarioError::new(path, field, message);
    let turn_limit = match file.turn_limit {
        None => DEFAULT_TURN_LIMIT,
        Some(n) if (1..=1000).contains(&n) => n as u16,
        Some(n) => {
            return Err(err(
                "turn_limit".into(),
                format!("expected 1 to 1000, found {n}"),
            ));
        }
    };
    let rollouts = match file.rollouts {
        None => DEFAULT_ROLLOUTS,
        Some(n) if (1..=1000).contains(&n) => n as u16,
        Some(n) => {
            return Err(err(
                "rollouts".into(),
                format!("expected 1 to 1000, found {n}"),
            ));
        }
    };
    let ids = [rules.sides[0].id.as_str(), rules.sides[1].id.as_str()];
    let first = match file.first.as_deref() {
        None => FirstMover::Player(0),
        Some("alternate") => FirstMover::Alternate,
        Some(s) => match ids.iter().position(|id| *id == s) {
            Some(p) => FirstMover::Player(p),
            None => {
                return Err(err(
                    "first".into(),
                    format!("expected {}, {} or alternate, found {s:?}", ids[0], ids[1]),
                ));
            }
        },
    };
    for key in file.sides.keys() {
        if !ids.contains(&key.as_str()) {
            return Err(err(
                format!("sides.{key}"),
                format!("expected the sides {} and {}", ids[0], ids[1]),
            ));
        }
    }
    let mut policies = [Policy::Greedy; 2];
    let mut break_off = [BreakOff::default(); 2];
    let mut setup: [Vec<(usize, u8)>; 2] = [Vec::new(), Vec::new()];
    for p in 0..2 {
        let side = &rules.sides[p];
        let id = &side.id;
        let f = file.sides.get(id).ok_or_else(|| {
            err(
                format!("sides.{id}"),
                format!("expected a [sides.{id}] table"),
            )
        })?;
        policies[p] = Policy::parse(&f.policy, rollouts)
            .map_err(|message| err(format!("sides.{id}.policy"), message))?;
        if let Some(ratio) = f.break_off_behind {
            if !BREAK_OFF_RANGE.contains(&ratio) {
                return Err(err(
                    format!("sides.{id}.break_off_behind"),
                    format!(
                        "expected an enemy-to-own strength ratio from {} to {} [23.22], found {ratio}",
                        BREAK_OFF_RANGE.start(),
                        BREAK_OFF_RANGE.end()
                    ),
                ));
            }
            break_off[p].behind_pct = (ratio * 100.0).round() as u16;
        }
        break_off[p].accepts = f.accept_break_off;
        let mut total = 0i64;
        for (city_id, strength) in &f.setup {
            let field = format!("sides.{id}.setup.{city_id}");
            let city = rules.map.city(city_id).ok_or_else(|| {
                err(
                    field.clone(),
                    format!(
                        "expected one of the cities {}, found {city_id:?}",
                        id_list(rules.map.cities.iter().map(|c| c.id.as_str()))
                    ),
                )
            })?;
            if !side.home_capitals.contains(&city) {
                return Err(err(
                    field,
                    format!(
                        "expected one of {}'s capitals {} [25.1]",
                        side.name,
                        id_list(
                            side.home_capitals
                                .iter()
                                .map(|c| rules.map.cities[*c].id.as_str())
                        )
                    ),
                ));
            }
            if !(1..=99).contains(strength) {
                return Err(err(
                    field,
                    format!("expected 1 to 99 strength points, found {strength}"),
                ));
            }
            total += strength;
            setup[p].push((city, *strength as u8));
        }
        if total != i64::from(side.strength) {
            return Err(err(
                format!("sides.{id}.setup"),
                format!(
                    "expected counters totalling {} strength points for {} [25.1], found {total}",
                    side.strength, side.name
                ),
            ));
        }
        for &(k, city) in &side.commanders {
            let nation = rules.data.commanders[k].nation;
            let has_fleet = setup[p]
                .iter()
                .any(|&(c, _)| c == city && usize::from(home_nation(rules, p, c)) == nation);
            if !has_fleet {
                return Err(err(
                    format!("sides.{id}.setup"),
                    format!(
                        "expected a fleet in {} for {}, who sets up there and must stay with a fleet of his nation [22.23, 25.12]",
                        rules.map.cities[city].name, rules.data.commanders[k].name
                    ),
                ));
            }
        }
    }
    Ok(GameConfig {
        policies,
        setup,
        first,
        turn_limit,
        reveal: file.reveal,
        break_off,
    })
}

fn output_spec(rules: &MilitaryRules, config: &GameConfig) -> (OutputSpec, usize) {
    let names = [&rules.sides[0].name, &rules.sides[1].name];
    let base = [
        format!("{} wins", names[0]),
        format!("{} wins", names[1]),
        format!("unfinished after {} turns", config.turn_limit),
    ];
    let outcomes = match config.first {
        FirstMover::Player(_) => base.to_vec(),
        FirstMover::Alternate => (0..2)
            .flat_map(|f| {
                base.iter()
                    .map(move |b| format!("{b} ({} moved first)", names[f]))
            })
            .collect(),
    };
    let ids = [&rules.sides[0].id, &rules.sides[1].id];
    let mut metrics = vec![MetricSpec::new("turns", "Game-Turns played")];
    for p in 0..2 {
        metrics.push(MetricSpec::new(
            format!("capitals_{}", ids[p]),
            format!("capitals held by {} at the end", names[p]),
        ));
    }
    for p in 0..2 {
        for t in CHECKPOINTS {
            metrics.push(MetricSpec::new(
                format!("capitals_{}_t{t}", ids[p]),
                format!(
                    "capitals held by {} after turn {t} (the end, if sooner)",
                    names[p]
                ),
            ));
        }
    }
    for n in &rules.neutrals {
        let nation = &rules.data.nations[n.nation];
        metrics.push(MetricSpec::new(
            format!("neutral_{}", nation.id),
            format!(
                "{} at the end: 0 neutral, 1 influenced by {}, 2 by {}",
                nation.name, names[0], names[1]
            ),
        ));
    }
    let counts_at = metrics.len();
    for p in 0..2 {
        metrics.push(MetricSpec::new(
            format!("storm_losses_{}", ids[p]),
            format!("{} strength points lost to storms", names[p]),
        ));
    }
    metrics.push(MetricSpec::new("storms", "storms that struck"));
    metrics.push(MetricSpec::new("battles", "fleet combats fought"));
    for p in 0..2 {
        metrics.push(MetricSpec::new(
            format!("combat_losses_{}", ids[p]),
            format!("{} strength points lost in combat", names[p]),
        ));
    }
    for p in 0..2 {
        metrics.push(MetricSpec::new(
            format!("captured_{}", ids[p]),
            format!("{} commanders captured", names[p]),
        ));
    }
    metrics.push(MetricSpec::new(
        "breaches",
        "neutrals won by the other side's breach of the peace [24.27]",
    ));
    metrics.push(MetricSpec::new(
        "break_offs",
        "fleet combats broken off by agreement, or by both sides Reversing at once [23.22]",
    ));
    metrics.push(MetricSpec::new(
        "grace_joins",
        "neutrals whose fleets joined the side attacked in its grace Turn [24.28]",
    ));
    const { assert!(1 + 2 + 2 * CHECKPOINTS.len() + MAX_NEUTRALS + COUNTS <= MAX_METRICS) };
    let capitals = TrendSpec {
        stem: "capitals".into(),
        title: "Capitals held over time (mean, 95% interval)".into(),
        x_label: "after Game-Turn (a game that ended counts as it ended)".into(),
        y_label: format!("capitals held (of {})", rules.capital_cities.len()),
        y_max: Some(rules.capital_cities.len() as f64),
        lines: (0..2)
            .map(|p| TrendLine {
                name: names[p].clone(),
                points: CHECKPOINTS
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        (
                            f64::from(*t),
                            METRIC_CAPITALS_AT + p * CHECKPOINTS.len() + i,
                        )
                    })
                    .collect(),
            })
            .collect(),
    };
    (
        OutputSpec {
            outcomes,
            metrics,
            length_metric: Some(METRIC_TURNS),
            trends: vec![capitals],
        },
        counts_at,
    )
}

impl Model for JcMilitary {
    fn spec(&self) -> &OutputSpec {
        &self.spec
    }

    fn run_trial<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        let (g, end) = self.play(dice, trace);
        let mut metrics = [0u32; MAX_METRICS];
        metrics[METRIC_TURNS] = u32::from(end.turns);
        let s = &g.stats;
        for p in 0..2 {
            metrics[METRIC_CAPITALS + p] = u32::from(g.capitals_held(&self.rules, p));
            for (i, v) in s.capitals_at[p].iter().enumerate() {
                metrics[METRIC_CAPITALS_AT + p * CHECKPOINTS.len() + i] = u32::from(*v);
            }
        }
        for n in 0..self.rules.neutrals.len() {
            metrics[METRIC_NEUTRALS + n] = u32::from(s.neutral_end[n]);
        }
        let mut k = self.counts_at;
        let mut put = |v: u32| {
            metrics[k] = v;
            k += 1;
        };
        put(s.storm_losses[0]);
        put(s.storm_losses[1]);
        put(s.storms);
        put(s.battles);
        put(s.combat_losses[0]);
        put(s.combat_losses[1]);
        put(s.captured[0]);
        put(s.captured[1]);
        put(s.breaches);
        put(s.break_offs);
        put(s.grace_joins);
        let base = match end.winner {
            Some(p) => p as u16,
            None => 2,
        };
        let outcome = match self.config.first {
            FirstMover::Player(_) => base,
            FirstMover::Alternate => base + 3 * end.first as u16,
        };
        TrialResult { outcome, metrics }
    }
}
