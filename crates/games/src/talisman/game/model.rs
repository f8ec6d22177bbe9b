//! The `talisman.game` model: the scenario file and its validation, the
//! outcomes and metrics (the output spec) and the `Model` impl.

use barsoom_engine::scenario::Load;

use crate::ScenarioModel;

use barsoom_engine::scenario::{Loader, Scenario};
use std::path::Path;

use serde::Deserialize;

use crate::talisman::data::Rules;
use crate::talisman::policy::{POLICY_NAMES, Policy, SensibleKnobs};
use crate::talisman::tournament::Tournament;
use barsoom_engine::accumulate::{MAX_METRICS, TrialResult};
use barsoom_engine::model::{MetricSpec, Model, OutputSpec, Trace};
use barsoom_engine::rng::Dice;
use barsoom_engine::scenario::ScenarioError;

use super::{CAUSE_NAMES, Config, End, Game, MAX_HAND, MAX_PLAYERS};

/// The `talisman.game` model.
pub struct TalismanGame {
    rules: Rules,
    config: Config,
    spec: OutputSpec,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    #[serde(flatten)]
    scenario: Scenario,
    /// 2 to 6 seats: `sensible`, `random`, or `search[:N[:BASE]]`.
    players: Vec<String>,
    /// Per seat, a character name from the data folder's characters or
    /// `random`.
    #[serde(default)]
    first_characters: Vec<String>,
    /// Characters dealt to each player, 1 to 4.
    #[serde(default = "default_hand")]
    hand: usize,
    /// Rounds before the game is scored unfinished, 1 to 100,000.
    #[serde(default = "default_rounds")]
    max_rounds: u32,
    /// A subset of the endings in the data folder's `endings.toml` (default:
    /// all).
    #[serde(default)]
    endings: Vec<String>,
    /// The sensible player's knobs.
    #[serde(default)]
    sensible: SensibleKnobs,
    /// Rounds a search playout looks ahead (0: to the end).
    #[serde(default = "default_search_horizon")]
    search_horizon: u32,
    /// Tournament additions on the main board (all off by default: the
    /// plain main-board game).
    #[serde(default)]
    tournament: Tournament,
}

fn default_search_horizon() -> u32 {
    super::playouts::HORIZON_ROUNDS
}

fn default_hand() -> usize {
    3
}

fn default_rounds() -> u32 {
    400
}

/// Metric: rounds played.
pub const METRIC_ROUNDS: usize = 0;
/// Metric: the winning seat, 1-based (0: no winner).
pub const METRIC_WINNER_SEAT: usize = 1;
/// Metric: deaths of all causes; one metric per cause follows.
pub const METRIC_DEATHS: usize = 2;
/// Metric: characters brought into play.
pub const METRIC_CHARACTERS: usize = 10;
/// Metric: round the Crown was first reached (0: never).
pub const METRIC_CROWN_ROUND: usize = 11;
/// Metric: lives lost in combat with enemies.
pub const METRIC_LIVES_TO_ENEMIES: usize = 12;
/// Metric: lives lost in psychic combat with spirits.
pub const METRIC_LIVES_TO_SPIRITS: usize = 13;
/// Metric: adventure cards drawn.
pub const METRIC_CARDS_DRAWN: usize = 14;
/// Metric: the winner's total Strength (0: no winner).
pub const METRIC_WINNER_STRENGTH: usize = 15;
/// Metric: the winner's total Craft.
pub const METRIC_WINNER_CRAFT: usize = 16;
/// Metric: 1 if seat 1 (the first player) won; one per seat in play
/// follows, so a four-player game has no `seat5_won`.
pub const METRIC_SEAT_WON: usize = 17;

impl TalismanGame {
    fn build(path: &Path, file: &GameFile, rules: &Rules) -> Result<Config, ScenarioError> {
        let err = |field: String, message: String| ScenarioError::new(path, field, message);
        let n = file.players.len();
        if !(2..=MAX_PLAYERS).contains(&n) {
            return Err(err(
                "players".into(),
                format!("expected 2 to {MAX_PLAYERS} players, found {n}"),
            ));
        }
        let k = file.sensible;
        if !(0.0..=1.0).contains(&k.evade_below) || !(0.0..=1.0).contains(&k.attack_above) {
            return Err(err(
                "sensible.evade_below".into(),
                "expected probabilities between 0 and 1".into(),
            ));
        }
        let mut policies = [Policy::Random; MAX_PLAYERS];
        for (i, name) in file.players.iter().enumerate() {
            policies[i] = match Policy::parse(name, k) {
                Some(Ok(policy)) => policy,
                Some(Err(e)) => return Err(err(format!("players[{i}]"), e.to_string())),
                None => {
                    return Err(err(
                        format!("players[{i}]"),
                        format!("expected {POLICY_NAMES}, found {name:?}"),
                    ));
                }
            };
        }
        let mut first = [None; MAX_PLAYERS];
        if file.first_characters.len() > n {
            return Err(err(
                "first_characters".into(),
                format!("expected at most one per player ({n})"),
            ));
        }
        for (i, name) in file.first_characters.iter().enumerate() {
            if name == "random" {
                continue;
            }
            let c = rules.character_index(name).ok_or_else(|| {
                let names: Vec<&str> = rules.characters.iter().map(|c| c.name.as_str()).collect();
                err(
                    format!("first_characters[{i}]"),
                    format!(
                        "unknown character {name:?}; expected random or one of {}",
                        names.join(", ")
                    ),
                )
            })?;
            if first.contains(&Some(c as u8)) {
                return Err(err(
                    format!("first_characters[{i}]"),
                    format!("{name:?} is already dealt to another seat"),
                ));
            }
            first[i] = Some(c as u8);
        }
        if !(1..=MAX_HAND).contains(&file.hand) {
            return Err(err(
                "hand".into(),
                format!("expected 1 to {MAX_HAND} characters"),
            ));
        }
        if file.search_horizon > file.max_rounds {
            return Err(err(
                "search_horizon".into(),
                format!(
                    "expected 0 (play to the end) to max_rounds ({}) rounds",
                    file.max_rounds
                ),
            ));
        }
        if !(1..=100_000).contains(&file.max_rounds) {
            return Err(err(
                "max_rounds".into(),
                "expected 1 to 100000 rounds".into(),
            ));
        }
        let mut endings = Vec::new();
        for (i, name) in file.endings.iter().enumerate() {
            let e = rules
                .endings
                .iter()
                .position(|e| &e.name == name)
                .ok_or_else(|| {
                    err(
                        format!("endings[{i}]"),
                        format!("no ending card named {name:?}"),
                    )
                })?;
            endings.push(e as u8);
        }
        if endings.is_empty() {
            endings = (0..rules.endings.len() as u8).collect();
        }
        let mut tournament = file.tournament.clone();
        for (i, name) in tournament.boards.iter().enumerate() {
            let k = rules
                .expansions
                .iter()
                .position(|x| &x.id == name)
                .ok_or_else(|| {
                    let ids: Vec<&str> = rules.expansions.iter().map(|x| x.id.as_str()).collect();
                    err(
                        format!("tournament.boards[{i}]"),
                        format!(
                            "unknown board {name:?}; expected one a Doorway card leads to ({})",
                            if ids.is_empty() {
                                "none in this data folder".to_string()
                            } else {
                                ids.join(", ")
                            }
                        ),
                    )
                })?;
            tournament.board_mask |= 1 << k;
        }
        if tournament.merchants && rules.market.is_none() {
            return Err(err(
                "tournament.merchants".into(),
                "expected a merchants.toml in the data folder (the Purchase deck and the merchants [20:1])".into(),
            ));
        }
        Ok(Config {
            players: n,
            policies,
            first,
            hand: file.hand,
            max_rounds: file.max_rounds,
            endings,
            search_horizon: file.search_horizon,
            tournament,
        })
    }

    /// A model from data and settings.
    pub fn new(rules: Rules, config: Config) -> Self {
        let spec = output_spec(&rules, &config);
        TalismanGame {
            rules,
            config,
            spec,
        }
    }

    /// The data.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Plays one game with `dice`, returning the finished game.
    pub fn play<'s, T: Trace>(&'s self, dice: &mut Dice, trace: &mut T) -> Game<'s> {
        let mut game = Game::new(&self.rules, &self.config);
        game.play(dice, trace);
        game
    }
}

impl ScenarioModel for TalismanGame {
    type File = GameFile;
    const ID: &'static str = "talisman.game";
    const DESCRIPTION: &'static str = "Talisman under the advanced tournament rules: complete 2-6 player games from the deal to a winner at the Crown of Command";

    /// Loads a `talisman.game` scenario and its data.
    fn load_with(path: &Path, loader: &mut Loader) -> Result<(Self, String), ScenarioError> {
        let file: Self::File = loader.read_scenario(path, Self::ID)?;
        let rules = Rules::load_with(&file.scenario.data_dir(path)?, loader)?;
        let config = Self::build(path, &file, &rules)?;
        let model = TalismanGame::new(rules, config);
        Ok((model, file.scenario.description))
    }
}

/// Outcome index of "unfinished" (after the character outcomes and "no survivor").
pub fn outcome_unfinished(rules: &Rules) -> u16 {
    rules.characters.len() as u16 + 1
}

fn output_spec(rules: &Rules, config: &Config) -> OutputSpec {
    let mut outcomes: Vec<String> = rules
        .characters
        .iter()
        .map(|c| format!("{} wins", c.name))
        .collect();
    outcomes.push("no survivor".into());
    outcomes.push(format!("unfinished after {} rounds", config.max_rounds));
    let mut metrics = vec![
        MetricSpec::new("rounds", "rounds played"),
        MetricSpec::new(
            "winner_seat",
            "winning seat, 1 is the first player (0: no winner)",
        ),
    ];
    metrics.push(MetricSpec::new("deaths", "characters killed"));
    for name in CAUSE_NAMES {
        metrics.push(MetricSpec::new(
            format!("deaths_{name}"),
            format!("characters killed by {name}"),
        ));
    }
    metrics.push(MetricSpec::new(
        "characters_played",
        "characters brought into play",
    ));
    metrics.push(MetricSpec::new(
        "crown_round",
        "round the Crown was first reached (0: never)",
    ));
    metrics.push(MetricSpec::new(
        "lives_to_enemies",
        "lives lost in combat with enemies",
    ));
    metrics.push(MetricSpec::new(
        "lives_to_spirits",
        "lives lost in psychic combat with spirits",
    ));
    metrics.push(MetricSpec::new("cards_drawn", "adventure cards drawn"));
    metrics.push(MetricSpec::new(
        "winner_strength",
        "the winner's total Strength (0: no winner)",
    ));
    metrics.push(MetricSpec::new(
        "winner_craft",
        "the winner's total Craft (0: no winner)",
    ));
    debug_assert_eq!(metrics.len(), METRIC_SEAT_WON);
    for s in 1..=config.players {
        metrics.push(MetricSpec::new(
            format!("seat{s}_won"),
            format!("1 if seat {s} won"),
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

impl Model for TalismanGame {
    fn spec(&self) -> &OutputSpec {
        &self.spec
    }

    fn run_trial<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        let game = self.play(dice, trace);
        let mut metrics = [0u32; MAX_METRICS];
        metrics[METRIC_ROUNDS] = game.round;
        let outcome = match game.end {
            Some(End::Won { seat, character }) => {
                metrics[METRIC_WINNER_SEAT] = seat as u32 + 1;
                metrics[METRIC_SEAT_WON + seat] = 1;
                let hero = &game.players[seat].hero;
                metrics[METRIC_WINNER_STRENGTH] = hero.total_strength(&self.rules).max(0) as u32;
                metrics[METRIC_WINNER_CRAFT] = hero.total_craft(&self.rules).max(0) as u32;
                character as u16
            }
            Some(End::NoSurvivor) => self.rules.characters.len() as u16,
            _ => outcome_unfinished(&self.rules),
        };
        metrics[METRIC_DEATHS] = game.stats.deaths.iter().sum();
        for (i, d) in game.stats.deaths.iter().enumerate() {
            metrics[METRIC_DEATHS + 1 + i] = *d;
        }
        metrics[METRIC_CHARACTERS] = (0..game.seats())
            .map(|s| u32::from(game.players[s].played))
            .sum();
        metrics[METRIC_CROWN_ROUND] = game.stats.crown_round;
        metrics[METRIC_LIVES_TO_ENEMIES] = game.stats.lives_to_creatures[0];
        metrics[METRIC_LIVES_TO_SPIRITS] = game.stats.lives_to_creatures[1];
        metrics[METRIC_CARDS_DRAWN] = game.stats.cards_drawn;
        TrialResult { outcome, metrics }
    }
}
