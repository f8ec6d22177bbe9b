//! `jc.strategic`: the Strategic Game of John Carter, Warlord of Mars (SPI
//! 1979), sections 8-20, played in full: one to six players, each a hero
//! pursuing his villain across Barsoom and the villain of another, from
//! set-up [20.1-20.3] until every hero has fulfilled glory or love or is
//! out of play [20.4], scored by [20.5]; or a turn limit, after which the
//! game is scored **unfinished**.
//!
//! - [`tables`]: the die tables and what their entries say.
//! - [`data`]: every data file, checked and compiled.
//! - [`game`]: the state (fixed arrays), the set-up and the turn sequence.
//! - [`consts`]: limits and sentinels shared across the modules.
//! - [`dice`]: the [`dice::Roller`] every chance goes through.
//! - [`travel`]: overland movement [9].
//! - [`villains`]: villain placement, flight, surrogates and entourage
//!   [10].
//! - [`encounters`]: encounters [11] and acquisition [14].
//! - [`city`]: the City Sub-game [15-17].
//! - [`duels`]: fights through `jc.duel` and `jc.swordsman`, compiled duels
//!   cached by key.
//! - [`fellows`]: heroes of different Players who meet: aid and companions
//!   handed over [9.27].
//! - [`offers`]: cards offered between Players [18.17].
//! - [`players`]: the `sensible` and `random` policies of both sides.
//! - [`hooks`]: where random events [18], befriendment [12], love [13] and
//!   the special characters [19] join the game's sequence.
//! - [`story`]: their data and `Copy` state; [`events`] (the Random Event
//!   deck in play), [`friends`] (the friend tables), [`romance`] (love,
//!   treachery, remorse, unspeakable acts), [`specials`] (the special
//!   characters), [`tactics`] (both policies' choices about them);
//!   [`loading`]: what the loaders of their files share.
//! - [`script`]: a scripted roller for worked examples and tests.
//! - [`stats`]: per-hero and per-table-entry breakdowns for `barsoom
//!   breakdown`.

use barsoom_engine::scenario::Load;

use crate::ScenarioModel;

#[cfg(test)]
mod character_tests;
pub mod city;
pub mod consts;
pub mod data;
pub mod dice;
pub mod duels;
pub mod encounters;
pub mod events;
pub mod fellows;
pub mod friends;
pub mod game;
pub mod hooks;
pub mod loading;
pub mod offers;
#[cfg(test)]
mod personage_tests;
pub mod players;
pub mod romance;
pub mod script;
pub mod search;
#[cfg(test)]
mod slain_tests;
pub mod specials;
pub mod stats;
pub mod story;
#[cfg(test)]
mod story_tests;
pub mod tables;
pub mod tactics;
pub mod travel;
pub mod villains;
pub mod withdrawal;

use barsoom_engine::scenario::{Loader, Scenario};
use std::path::Path;

use serde::Deserialize;

use self::consts::{MAX_ENTRIES, MAX_PLAYERS};
use self::data::StrategicData;
use self::duels::DuelCache;
use self::game::{Context, End, Game, GameConfig};
use self::players::{BASES, HeroPolicy, POLICIES, VillainPolicy};
use crate::jetan::players::Player as JetanPlayer;
use barsoom_engine::accumulate::MAX_METRICS;
use barsoom_engine::scenario::ScenarioError;
use barsoom_engine::search::SearchSpec;
use barsoom_engine::{Dice, MetricSpec, Model, OutputSpec, Trace, TrialResult};

/// Default Strategic Turns before a game is scored unfinished.
pub(crate) const DEFAULT_TURN_LIMIT: u16 = 200;
/// Metric slot of the Strategic Turns played.
pub const METRIC_TURNS: usize = 0;
/// Metrics per listed hero, after the turns: glory, love, out of play,
/// duels, duels lost, imprisonments.
pub(crate) const HERO_METRICS: [&str; 6] = [
    "glory",
    "love",
    "out_of_play",
    "duels",
    "duels_lost",
    "imprisonments",
];

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    #[serde(flatten)]
    scenario: Scenario,
    /// Strategic Turns before the game is scored unfinished, 1 to 10,000
    /// (default 200).
    turn_limit: Option<i64>,
    /// Vor Daj starts as Tor-dur-bar [19.53].
    #[serde(default)]
    tor_dur_bar: bool,
    /// The agreed roll (1-10) on John Carter's villain table [20.22]; left out:
    /// rolled.
    john_carter_villain: Option<i64>,
    /// How the arena's Jetan is settled [17.43]: `table` (default, the
    /// Jetan table's duels) or `game` (a game of `jetan.game` played out).
    jetan_arena: Option<String>,
    /// With `jetan_arena = "game"`: the hero's Jetan player, then the
    /// villain player's (`random`, `greedy`, `alphabeta[:NODES]`,
    /// `mcts[:PLAYOUTS]`; default both `greedy`).
    jetan_players: Option<Vec<String>>,
    /// Whom a sensible Player offers his villain cards against [18.17]:
    /// `any-rival` (default) or `leader` (only the rival hero who leads:
    /// most conditions fulfilled, then carrying his captive, then in play).
    offers: Option<String>,
    /// One to six players, in seat order [20.14].
    players: Vec<PlayerFile>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct PlayerFile {
    /// `john-carter`, `carthoris`, `gahan`, `vad-varo`, `tan-hadron` or
    /// `vor-daj` [20.11], each once; left out: dealt at random [20.12].
    hero: Option<String>,
    /// The hero's policy: `sensible` (default), `random`, or `search:N[:BASE]`.
    policy: Option<String>,
    /// The policy of the villain this player runs [10.0]: `sensible` (default)
    /// or `random`.
    villain_policy: Option<String>,
}

/// The `jc.strategic` model.
#[derive(Debug)]
pub struct JcStrategic {
    data: StrategicData,
    config: GameConfig,
    duels: DuelCache,
    spec: OutputSpec,
    /// The heroes with an outcome and metrics, in move order (indices into
    /// the data's heroes).
    listed: Vec<u8>,
}

impl JcStrategic {
    /// The compiled data.
    pub fn data(&self) -> &StrategicData {
        &self.data
    }

    /// The scenario's choices.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The heroes with outcomes and metrics (indices into the data's
    /// heroes), in move order.
    pub fn listed(&self) -> &[u8] {
        &self.listed
    }

    /// The compiled duels and bouts.
    pub fn duels(&self) -> &DuelCache {
        &self.duels
    }

    /// The context a game reads.
    pub fn context(&self) -> Context<'_> {
        Context {
            data: &self.data,
            config: &self.config,
            duels: &self.duels,
        }
    }

    /// Plays one game with `r`'s chances.
    pub fn play<R: dice::Roller, T: Trace>(&self, r: &mut R, trace: &mut T) -> (Game, End) {
        let ctx = self.context();
        let mut g = Game::new(&ctx, r, trace);
        let end = g.play(&ctx, r, trace);
        (g, end)
    }

    /// The trial row of a played game.
    pub fn trial_result(&self, g: &Game, end: &End) -> TrialResult {
        let mut metrics = [0u32; MAX_METRICS];
        metrics[METRIC_TURNS] = u32::from(end.turns);
        for p in 0..usize::from(g.players) {
            let h = &g.heroes[p];
            let Some(slot) = self.listed.iter().position(|&x| x == h.hero) else {
                continue;
            };
            let base = 1 + slot * HERO_METRICS.len();
            let values = [
                u32::from(h.glory_at > 0),
                u32::from(h.love_at > 0),
                u32::from(!h.in_play()),
                u32::from(h.stats.duels),
                u32::from(h.stats.duels_lost),
                u32::from(h.stats.imprisonments),
            ];
            metrics[base..base + values.len()].copy_from_slice(&values);
        }
        let n = self.listed.len() as u16;
        let outcome = if !end.finished {
            n + 1
        } else {
            match end.champion {
                Some(p) => self
                    .listed
                    .iter()
                    .position(|&x| x == g.heroes[usize::from(p)].hero)
                    .map_or(n, |i| i as u16),
                None => n,
            }
        };
        TrialResult { outcome, metrics }
    }
}

impl ScenarioModel for JcStrategic {
    type File = ScenarioFile;
    const ID: &'static str = "jc.strategic";
    const DESCRIPTION: &'static str = "John Carter, Warlord of Mars Strategic Game in full: 1 to 6 heroes pursue their villains across Barsoom with movement cards, outdoor and city encounters fought as duels, acquisition, the city game of discovery, information, imprisonment and arena duels, to glory and love";

    /// Loads a `jc.strategic` scenario and the data it names (default
    /// folder: `../data` beside the scenario's folder).
    fn load_with(path: &Path, loader: &mut Loader) -> Result<(Self, String), ScenarioError> {
        let file: Self::File = loader.read_scenario(path, Self::ID)?;
        let dir = file.scenario.data_dir(path)?;
        let data = StrategicData::load_with(&dir, loader)?;
        if data.entries.names.len() > MAX_ENTRIES {
            return Err(ScenarioError::new(
                &dir,
                "tables",
                format!(
                    "expected at most {MAX_ENTRIES} table entries in all, found {}",
                    data.entries.names.len()
                ),
            ));
        }
        let config = build_config(path, &file, &data)?;
        let duels = DuelCache::new(&data).map_err(|e| {
            ScenarioError::new(
                &dir.join("swordsman.toml"),
                "matrix",
                format!("expected a maneuver matrix jc.swordsman can play: {e}"),
            )
        })?;
        let mut listed: Vec<u8> = if config.heroes[..usize::from(config.players)]
            .iter()
            .all(|h| h.is_some())
        {
            config.heroes[..usize::from(config.players)]
                .iter()
                .flatten()
                .copied()
                .collect()
        } else {
            (0..data.heroes.len() as u8).collect()
        };
        listed.sort_unstable();
        let spec = output_spec(&data, &config, &listed);
        Ok((
            JcStrategic {
                data,
                config,
                duels,
                spec,
                listed,
            },
            file.scenario.description,
        ))
    }
}

fn build_config(
    path: &Path,
    file: &ScenarioFile,
    data: &StrategicData,
) -> Result<GameConfig, ScenarioError> {
    let err = |field: String, message: String| ScenarioError::new(path, field, message);
    let turn_limit = barsoom_engine::scenario::limit(
        path,
        "turn_limit",
        file.turn_limit,
        u32::from(DEFAULT_TURN_LIMIT),
        10_000,
    )? as u16;
    let n = file.players.len();
    if n == 0 || n > MAX_PLAYERS.min(data.heroes.len()) {
        return Err(err(
            "players".into(),
            format!(
                "expected 1 to {} [[players]] [20.11], found {n}",
                MAX_PLAYERS.min(data.heroes.len())
            ),
        ));
    }
    let mut heroes = [None; MAX_PLAYERS];
    let mut policies = [(HeroPolicy::Sensible, VillainPolicy::Sensible); MAX_PLAYERS];
    let mut playouts = [None; MAX_PLAYERS];
    let hero_ids: Vec<&str> = data
        .heroes
        .iter()
        .map(|h| data.roster.characters[usize::from(h.character)].id.as_str())
        .collect();
    for (i, pl) in file.players.iter().enumerate() {
        if let Some(id) = &pl.hero {
            let h = hero_ids.iter().position(|x| x == id).ok_or_else(|| {
                err(
                    format!("players[{i}].hero"),
                    format!(
                        "expected one of the heroes {} [20.11], found {id:?}",
                        hero_ids.join(", ")
                    ),
                )
            })?;
            if heroes[..i].contains(&Some(h as u8)) {
                return Err(err(
                    format!("players[{i}].hero"),
                    format!("expected each hero played once, found {id:?} again"),
                ));
            }
            heroes[i] = Some(h as u8);
        }
        let hp = match pl.policy.as_deref() {
            None => HeroPolicy::Sensible,
            Some(t) => match SearchSpec::parse(t, HeroPolicy::Sensible, BASES, HeroPolicy::parse) {
                Some(spec) => {
                    let spec = spec.map_err(|e| err(format!("players[{i}].policy"), e.to_string()))?;
                    playouts[i] = Some(spec.playouts);
                    spec.base
                }
                None => HeroPolicy::parse(t).ok_or_else(|| {
                    err(
                        format!("players[{i}].policy"),
                        format!(
                            "expected {POLICIES} or a search player (search, search:PLAYOUTS or search:PLAYOUTS:BASE), found {t:?}"
                        ),
                    )
                })?,
            },
        };
        let vp = match pl.villain_policy.as_deref() {
            None => VillainPolicy::Sensible,
            Some(t) => VillainPolicy::parse(t).ok_or_else(|| {
                err(
                    format!("players[{i}].villain_policy"),
                    format!("expected {POLICIES}, found {t:?}"),
                )
            })?,
        };
        policies[i] = (hp, vp);
    }
    // [20.38] an escorted Vor Daj and his escort cannot both be played.
    if !file.tor_dur_bar {
        for (i, h) in heroes[..n].iter().enumerate() {
            let Some(h) = h else { continue };
            if let Some(e) = data.heroes[usize::from(*h)].escort
                && let Some(j) = heroes[..n]
                    .iter()
                    .position(|x| x.is_some_and(|x| data.heroes[usize::from(x)].character == e))
            {
                return Err(err(
                    format!("players[{j}].hero"),
                    format!(
                        "expected no player to take {} while {} (players[{i}]) starts escorted by him; set tor_dur_bar = true [20.38]",
                        data.roster.characters[usize::from(e)].name,
                        data.roster.characters[usize::from(data.heroes[usize::from(*h)].character)]
                            .name
                    ),
                ));
            }
        }
        if heroes[..n].iter().any(|h| h.is_none()) && n == data.heroes.len() {
            return Err(err(
                "players".into(),
                format!(
                    "expected tor_dur_bar = true when all {n} heroes are dealt: an escorted hero's escort may not be played [20.38]"
                ),
            ));
        }
    }
    let john_carter_villain = match file.john_carter_villain {
        None => None,
        Some(roll) => {
            if !(1..=10).contains(&roll) {
                return Err(err(
                    "john_carter_villain".into(),
                    format!(
                        "expected a roll of 1 to 10 on John Carter's villain table [20.22], found {roll}"
                    ),
                ));
            }
            let table = &data
                .heroes
                .iter()
                .find(|h| h.villains.rows.len() > 1)
                .map(|h| &h.villains);
            table.map(|t| {
                let (_, entry) = t.get(roll as i32);
                t.rows.iter().position(|(e, _)| *e == entry).unwrap_or(0) as u8
            })
        }
    };
    let jetan_arena = jetan_arena(path, file)?;
    Ok(GameConfig {
        players: n as u8,
        heroes,
        policies,
        playouts,
        john_carter_villain,
        tor_dur_bar: file.tor_dur_bar,
        turn_limit,
        jetan_arena,
        offer_only_to_leader: offer_only_to_leader(path, file)?,
    })
}

/// Whether a sensible Player offers his villain cards only against the
/// leading rival [18.17] (`offers`).
fn offer_only_to_leader(path: &Path, file: &ScenarioFile) -> Result<bool, ScenarioError> {
    match file.offers.as_deref() {
        None | Some("any-rival") => Ok(false),
        Some("leader") => Ok(true),
        Some(other) => Err(ScenarioError::new(
            path,
            "offers",
            format!("expected \"any-rival\" or \"leader\" [18.17], found {other:?}"),
        )),
    }
}

/// The Jetan players of an arena Jetan played as a game [17.43], or `None`
/// for the table.
fn jetan_arena(
    path: &Path,
    file: &ScenarioFile,
) -> Result<Option<[JetanPlayer; 2]>, ScenarioError> {
    let err = |field: String, message: String| ScenarioError::new(path, field, message);
    match file.jetan_arena.as_deref() {
        None | Some("table") => {
            if file.jetan_players.is_some() {
                return Err(err(
                    "jetan_players".into(),
                    "expected jetan_arena = \"game\" alongside jetan_players [17.43]".into(),
                ));
            }
            Ok(None)
        }
        Some("game") => {
            let Some(texts) = &file.jetan_players else {
                return Ok(Some([JetanPlayer::Greedy; 2]));
            };
            if texts.len() != 2 {
                return Err(err(
                    "jetan_players".into(),
                    format!(
                        "expected two Jetan players (the hero's, the villain's), found {}",
                        texts.len()
                    ),
                ));
            }
            let mut players = [JetanPlayer::Greedy; 2];
            for (i, text) in texts.iter().enumerate() {
                players[i] = JetanPlayer::parse(text)
                    .map_err(|e| err(format!("jetan_players[{i}]"), e.to_string()))?;
            }
            Ok(Some(players))
        }
        Some(other) => Err(err(
            "jetan_arena".into(),
            format!("expected \"table\" or \"game\" [17.43], found {other:?}"),
        )),
    }
}

fn output_spec(data: &StrategicData, config: &GameConfig, listed: &[u8]) -> OutputSpec {
    let name = |h: u8| {
        data.roster.characters[usize::from(data.heroes[usize::from(h)].character)]
            .name
            .clone()
    };
    let id = |h: u8| {
        data.roster.characters[usize::from(data.heroes[usize::from(h)].character)]
            .id
            .replace('-', "_")
    };
    let mut outcomes: Vec<String> = listed
        .iter()
        .map(|&h| format!("champion: {}", name(h)))
        .collect();
    outcomes.push("no champion".into());
    outcomes.push(format!("unfinished after {} turns", config.turn_limit));
    let mut metrics = vec![MetricSpec::new("turns", "Strategic Turns played")];
    for &h in listed {
        let (n, i) = (name(h), id(h));
        metrics.push(MetricSpec::new(
            format!("glory_{i}"),
            format!("{n} slew his villain and all henchmen [20.51] (1/0)"),
        ));
        metrics.push(MetricSpec::new(
            format!("love_{i}"),
            format!("{n} brought the captive home [20.52] (1/0)"),
        ));
        metrics.push(MetricSpec::new(
            format!("out_of_play_{i}"),
            format!("{n} went out of play [11.33, 17.3] (1/0)"),
        ));
        metrics.push(MetricSpec::new(
            format!("duels_{i}"),
            format!("duels and bouts {n} fought"),
        ));
        metrics.push(MetricSpec::new(
            format!("duels_lost_{i}"),
            format!("duels and bouts {n} lost"),
        ));
        metrics.push(MetricSpec::new(
            format!("imprisonments_{i}"),
            format!("times {n} was imprisoned [17.0]"),
        ));
    }
    debug_assert!(metrics.len() <= MAX_METRICS);
    OutputSpec {
        outcomes,
        metrics,
        length_metric: Some(METRIC_TURNS),
        trends: Vec::new(),
    }
}

impl Model for JcStrategic {
    fn spec(&self) -> &OutputSpec {
        &self.spec
    }

    fn run_trial<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        let (g, end) = self.play(dice, trace);
        self.trial_result(&g, &end)
    }
}
