//! The `races.game` scenario file: its format, its validation into a
//! [`RacesGame`], and the output spec.

use barsoom_engine::scenario::Load;

use crate::ScenarioModel;

use barsoom_engine::scenario::id_list;
use barsoom_engine::scenario::{Loader, Scenario};
use std::path::Path;

use serde::Deserialize;

use crate::races::battle::{attribute_probabilities, odds};
use crate::races::data::RacesData;
use crate::races::map::{HexMap, MAX_SIDE, ZONE_NAMES};
use barsoom_engine::accumulate::MAX_METRICS;
use barsoom_engine::scenario::ScenarioError;
use barsoom_engine::{MetricSpec, OutputSpec};

use super::{
    FixedStack, MAX_LEADERS, MAX_PLAYERS, MAX_START_WARBANDS, MAX_TURNS, METRIC_TURNS, NONE,
    Player, Policy, RacesGame, Seat, TerrainRule, flat_terrain_table,
};
use barsoom_engine::search::SearchSpec;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    #[serde(flatten)]
    scenario: Scenario,
    /// Turns before the game is scored unfinished, 1 to 10,000.
    max_turns: i64,
    /// The map.
    map: MapFile,
    /// How a game is won.
    victory: VictoryFile,
    /// 2 to 4 players.
    players: Vec<PlayerFile>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct MapFile {
    /// Hexes across, up to 24.
    width: i64,
    /// Hexes down, up to 24.
    height: i64,
    /// A fixed map, one row per string: `.` barren, `#` impassable, else
    /// terrain ids (`city:red`, `ruins:armor`); left out: a random map.
    rows: Option<Vec<String>>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct VictoryFile {
    /// Key locations to hold (0: annihilation only).
    hold: i64,
    /// Turns they must be held.
    hold_turns: i64,
    /// The holder must hold more key locations than any other player.
    most: Option<bool>,
    /// Which terrains are key locations: `"settlements"` (every settlement
    /// terrain) or terrain ids, one or a list.
    key_locations: Option<OneOrMany>,
    /// A game whose forces can no longer reach one another ends.
    end_apart: Option<bool>,
}

/// A string or a list of strings.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

/// The name in `victory.key_locations` that stands for every settlement
/// terrain (the default reading).
const SETTLEMENTS: &str = "settlements";

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct PlayerFile {
    /// The player's name in the outcomes.
    label: Option<String>,
    /// `greedy`, `random`, or `search[:N[:BASE]]`.
    player: String,
    /// Greedy: least chance to win for an attack (default 0.5).
    threshold: Option<f64>,
    /// The start zone: `east`, `west`, `north`, `south`, `north-west`, ...
    zone: Option<String>,
    /// Leaders placed at random.
    #[serde(default)]
    leaders: i64,
    /// Warbands placed at random in the zone.
    #[serde(default)]
    warbands: Vec<WarbandsFile>,
    /// Fixed map only: stacks placed by hand.
    #[serde(default)]
    stacks: Vec<StackFile>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct WarbandsFile {
    /// A race or a variant id from the data folder's warbands.
    kind: String,
    /// How many.
    count: i64,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct StackFile {
    /// The hex, `[column, row]`.
    at: [i64; 2],
    /// Race or variant ids.
    warbands: Vec<String>,
    /// Leaders' special attributes (or `random`).
    #[serde(default)]
    leaders: Vec<String>,
}

impl RacesGame {
    /// The scenario's seats.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// The map.
    pub fn map(&self) -> &HexMap {
        &self.map
    }

    /// The longest game.
    pub fn max_turns(&self) -> u32 {
        self.max_turns
    }

    fn build(path: &Path, file: &GameFile, data: &RacesData) -> Result<Self, ScenarioError> {
        let err = |field: String, message: String| ScenarioError::new(path, field, message);
        let side = |v: i64, f: &str| {
            if (1..=MAX_SIDE as i64).contains(&v) {
                Ok(v as usize)
            } else {
                Err(err(
                    format!("map.{f}"),
                    format!("expected 1 to {MAX_SIDE} hexes, found {v}"),
                ))
            }
        };
        let map = HexMap::new(
            side(file.map.width, "width")?,
            side(file.map.height, "height")?,
        );
        if !(1..=i64::from(MAX_TURNS)).contains(&file.max_turns) {
            return Err(err(
                "max_turns".into(),
                format!("expected 1 to {MAX_TURNS} turns, found {}", file.max_turns),
            ));
        }
        let fixed = match &file.map.rows {
            None => None,
            Some(rows) => Some(fixed_map(path, rows, &map, data)?),
        };
        if !(0..=i64::from(u16::MAX)).contains(&file.victory.hold) {
            return Err(err(
                "victory.hold".into(),
                format!(
                    "expected a number of key locations (0 for annihilation only), found {}",
                    file.victory.hold
                ),
            ));
        }
        if !(1..=i64::from(MAX_TURNS)).contains(&file.victory.hold_turns) {
            return Err(err(
                "victory.hold_turns".into(),
                format!(
                    "expected 1 to {MAX_TURNS} turns, found {}",
                    file.victory.hold_turns
                ),
            ));
        }
        let key_terrain = key_terrain(path, file.victory.key_locations.as_ref(), data)?;
        if !(2..=MAX_PLAYERS).contains(&file.players.len()) {
            return Err(err(
                "players".into(),
                format!(
                    "expected 2 to {MAX_PLAYERS} [[players]], found {}",
                    file.players.len()
                ),
            ));
        }
        let depth = data.rules.deployment_depth as usize;
        let mut seats: Vec<Seat> = Vec::new();
        // Every hex claimed at set-up, and by whom (for overlap errors).
        let mut claimed: Vec<(u16, String)> = Vec::new();
        let mut total = 0usize;
        let mut total_leaders = 0usize;
        for (p, pf) in file.players.iter().enumerate() {
            let field = |f: &str| format!("players[{p}].{f}");
            // A threshold beside a random player is checked and kept for
            // when the seat is switched to greedy (`barsoom tournament
            // --seat players[0].player`).
            let threshold = pf.threshold.unwrap_or(0.5);
            if !(0.0..1.0).contains(&threshold) {
                return Err(err(
                    field("threshold"),
                    format!("expected a win probability in [0, 1), found {threshold}"),
                ));
            }
            let player = parse_player(&pf.player, threshold)
                .map_err(|message| err(field("player"), message))?;
            let mut warbands = Vec::new();
            for (i, w) in pf.warbands.iter().enumerate() {
                let kind = kind_index(data, &w.kind)
                    .map_err(|m| err(field(&format!("warbands[{i}].kind")), m))?;
                if !(1..=MAX_START_WARBANDS as i64).contains(&w.count) {
                    return Err(err(
                        field(&format!("warbands[{i}].count")),
                        format!(
                            "expected 1 to {MAX_START_WARBANDS} warbands, found {}",
                            w.count
                        ),
                    ));
                }
                warbands.extend(std::iter::repeat_n(kind, w.count as usize));
            }
            let mut zone = Vec::new();
            match (&pf.zone, warbands.is_empty(), pf.stacks.is_empty()) {
                (Some(_), true, _) => {
                    return Err(err(
                        field("warbands"),
                        "expected the warbands to deploy in the zone".into(),
                    ));
                }
                (None, false, _) => {
                    return Err(err(
                        field("zone"),
                        format!(
                            "expected a deployment zone for the warbands ({})",
                            id_list(ZONE_NAMES.iter().map(|(n, _)| *n))
                        ),
                    ));
                }
                (None, true, true) => {
                    return Err(err(
                        field("warbands"),
                        "expected warbands (with a zone) or stacks".into(),
                    ));
                }
                (Some(z), false, _) => {
                    let Some((_, zone_kind)) = ZONE_NAMES.iter().find(|(n, _)| n == z) else {
                        return Err(err(
                            field("zone"),
                            format!(
                                "expected one of the zones {}, found {z:?}",
                                id_list(ZONE_NAMES.iter().map(|(n, _)| *n))
                            ),
                        ));
                    };
                    zone = map.zone(*zone_kind, depth);
                    for h in &zone {
                        if let Some((_, who)) = claimed.iter().find(|(c, _)| c == h) {
                            let (c, r) = map.coords(*h);
                            return Err(err(
                                field("zone"),
                                format!(
                                    "expected a deployment zone clear of {who}'s, found both on hex ({c}, {r}) ({z} zone {depth} hexes deep on a {}x{} map)",
                                    map.width, map.height
                                ),
                            ));
                        }
                    }
                    if let Some(fixed) = &fixed
                        && zone
                            .iter()
                            .all(|h| data.terrain[usize::from(fixed[usize::from(*h)].0)].impassable)
                    {
                        return Err(err(
                            field("zone"),
                            format!("expected a passable hex in the {z} zone of the fixed map"),
                        ));
                    }
                    claimed.extend(zone.iter().map(|h| (*h, format!("players[{p}]"))));
                }
                (None, true, false) => {}
            }
            if !(0..=MAX_LEADERS as i64).contains(&pf.leaders) {
                return Err(err(
                    field("leaders"),
                    format!("expected 0 to {MAX_LEADERS} leaders, found {}", pf.leaders),
                ));
            }
            if pf.leaders > 0 && warbands.is_empty() {
                return Err(err(
                    field("leaders"),
                    "expected leaders only with zone warbands (a stack lists its own)".into(),
                ));
            }
            let mut stacks = Vec::new();
            for (s, sf) in pf.stacks.iter().enumerate() {
                let sfield = |f: &str| field(&format!("stacks[{s}].{f}"));
                let Some(fixed) = &fixed else {
                    return Err(err(
                        sfield("at"),
                        "expected stacks only on a fixed map (map.rows)".into(),
                    ));
                };
                let [c, r] = sf.at;
                if c < 0 || r < 0 || c as usize >= map.width || r as usize >= map.height {
                    return Err(err(
                        sfield("at"),
                        format!(
                            "expected [column, row] inside the {}x{} map, found [{c}, {r}]",
                            map.width, map.height
                        ),
                    ));
                }
                let hex = map.hex(c as usize, r as usize);
                if data.terrain[usize::from(fixed[usize::from(hex)].0)].impassable {
                    return Err(err(
                        sfield("at"),
                        format!("expected a passable hex, found impassable [{c}, {r}]"),
                    ));
                }
                if let Some((_, who)) = claimed.iter().find(|(h, _)| *h == hex) {
                    return Err(err(
                        sfield("at"),
                        format!(
                            "expected a hex no other deployment uses (one stack per hex), found [{c}, {r}] already used by {who}"
                        ),
                    ));
                }
                claimed.push((hex, format!("players[{p}].stacks[{s}]")));
                if sf.warbands.is_empty() {
                    return Err(err(
                        sfield("warbands"),
                        "expected at least one warband (leaders ride with warbands)".into(),
                    ));
                }
                let mut kinds = Vec::new();
                for (i, k) in sf.warbands.iter().enumerate() {
                    kinds.push(
                        kind_index(data, k)
                            .map_err(|m| err(sfield(&format!("warbands[{i}]")), m))?,
                    );
                }
                let mut leaders = Vec::new();
                for (i, l) in sf.leaders.iter().enumerate() {
                    leaders.push(if l == "random" {
                        NONE
                    } else {
                        data.attribute(l).ok_or_else(|| {
                            err(
                                sfield(&format!("leaders[{i}]")),
                                format!(
                                    "expected \"random\" or a special attribute ({}), found {l:?}",
                                    id_list(data.attributes.iter().map(String::as_str))
                                ),
                            )
                        })? as u8
                    });
                }
                total += kinds.len();
                total_leaders += leaders.len();
                stacks.push(FixedStack {
                    hex,
                    warbands: kinds,
                    leaders,
                });
            }
            total += warbands.len();
            total_leaders += pf.leaders as usize;
            seats.push(Seat {
                label: pf
                    .label
                    .clone()
                    .unwrap_or_else(|| format!("player {}", p + 1)),
                player,
                zone,
                warbands,
                leaders: pf.leaders as u8,
                stacks,
            });
        }
        if total > MAX_START_WARBANDS {
            return Err(err(
                "players".into(),
                format!("expected at most {MAX_START_WARBANDS} warbands in all, found {total}"),
            ));
        }
        if total_leaders > MAX_LEADERS {
            return Err(err(
                "players".into(),
                format!("expected at most {MAX_LEADERS} leaders in all, found {total_leaders}"),
            ));
        }
        let weights = attribute_probabilities(&data.random_attribute);
        let strength = data
            .kinds
            .iter()
            .map(|k| {
                data.races
                    .iter()
                    .map(|r| odds(&k.values, &r.values, &weights).edge())
                    .sum::<f64>()
                    / data.races.len() as f64
            })
            .collect();
        let spec = output_spec(&seats, file.max_turns as u32);
        let terrain: Vec<TerrainRule> = data
            .terrain
            .iter()
            .zip(&key_terrain)
            .map(|(t, key)| TerrainRule {
                impassable: t.impassable,
                settlement: t.settlement,
                key: *key,
                city: t.city,
                ruins: t.ruins,
                in_hex: t.in_hex,
                all_units: t.all_units,
                bonus: t.all_units.iter().any(|b| *b != 0),
            })
            .collect();
        let hex_draw = flat_terrain_table(
            &data
                .tables
                .iter()
                .map(|t| t.faces.clone())
                .collect::<Vec<_>>(),
            data.hex_chain,
        )
        .into_iter()
        .map(|t| terrain[usize::from(t)].entry(t))
        .collect();
        Ok(RacesGame {
            map,
            terrain,
            hex_draw,
            fixed,
            kinds: data.kinds.iter().map(|k| k.values).collect(),
            kind_names: data.kinds.iter().map(|k| k.name.clone()).collect(),
            strength,
            random_attribute: data.random_attribute.clone(),
            race_table: data.race_table.clone(),
            weights,
            attribute_names: data.attribute_names.clone(),
            leader_bonus: data.rules.leader_bonus,
            max_move: data.rules.max_move,
            units_per_command_die: data.rules.units_per_command_die,
            recruit_face: data.rules.recruit_face,
            searching: seats.iter().any(|s| matches!(s.player, Player::Search(_))),
            seats,
            hold: file.victory.hold as u32,
            hold_turns: file.victory.hold_turns as u32,
            most: file.victory.most.unwrap_or(true),
            end_apart: file.victory.end_apart.unwrap_or(true),
            max_turns: file.max_turns as u32,
            spec,
        })
    }
}

impl ScenarioModel for RacesGame {
    type File = GameFile;
    const ID: &'static str = "races.game";
    const DESCRIPTION: &'static str = "Six races of Mars hex wargame for 2 to 4 players: rolled or fixed map, initiative, recruiting, command points, stacks, leaders, battles, key locations";

    /// Loads a `races.game` scenario; returns the model and description.
    fn load_with(path: &Path, loader: &mut Loader) -> Result<(Self, String), ScenarioError> {
        let file: Self::File = loader.read_scenario(path, Self::ID)?;
        let data_dir = file.scenario.data_dir(path)?;
        let data = RacesData::load_with(&data_dir, loader)?;
        let model = Self::build(path, &file, &data)?;
        Ok((model, file.scenario.description))
    }
}

/// The base policies a search player accepts, as its spec lists them.
const BASES: &str = "greedy, random";

/// Reads a seat's `player`: `random`, `greedy` (with the seat's
/// `threshold`), or a search player (`search`, `search:N`,
/// `search:N:BASE`, greedy by default).
fn parse_player(name: &str, threshold: f64) -> Result<Player, String> {
    let policy = |name: &str| match name {
        "random" => Some(Policy::Random),
        "greedy" => Some(Policy::Greedy { threshold }),
        _ => None,
    };
    match policy(name) {
        Some(Policy::Random) => Ok(Player::Random),
        Some(Policy::Greedy { threshold }) => Ok(Player::Greedy { threshold }),
        None => match SearchSpec::parse(name, Policy::Greedy { threshold }, BASES, policy) {
            Some(Ok(spec)) => Ok(Player::Search(spec)),
            Some(Err(e)) => Err(e.to_string()),
            None => Err(format!(
                "expected \"random\", \"greedy\" or a search player (search, search:PLAYOUTS or search:PLAYOUTS:BASE, BASE one of {BASES}), found {name:?}"
            )),
        },
    }
}

/// Which terrains are key locations, by terrain index: every settlement
/// terrain by default (or for `"settlements"`), else the terrains named
/// [Victory].
fn key_terrain(
    path: &Path,
    names: Option<&OneOrMany>,
    data: &RacesData,
) -> Result<Vec<bool>, ScenarioError> {
    let settlements = || data.terrain.iter().map(|t| t.settlement).collect();
    let mut key = vec![false; data.terrain.len()];
    let (names, list): (&[String], bool) = match names {
        None => return Ok(settlements()),
        Some(OneOrMany::One(name)) => (std::slice::from_ref(name), false),
        Some(OneOrMany::Many(names)) => (names, true),
    };
    if names.is_empty() {
        return Err(ScenarioError::new(
            path,
            "victory.key_locations",
            format!("expected {SETTLEMENTS:?} or at least one terrain id, found an empty list"),
        ));
    }
    for (i, name) in names.iter().enumerate() {
        let field = if list {
            format!("victory.key_locations[{i}]")
        } else {
            "victory.key_locations".into()
        };
        if name == SETTLEMENTS {
            for (k, t) in key.iter_mut().zip(&data.terrain) {
                *k |= t.settlement;
            }
            continue;
        }
        match data.terrain_index(name) {
            Some(t) if !data.terrain[t].impassable => key[t] = true,
            _ => {
                return Err(ScenarioError::new(
                    path,
                    field,
                    format!(
                        "expected {SETTLEMENTS:?} or a passable terrain id ({}), found {name:?}",
                        id_list(
                            data.terrain
                                .iter()
                                .filter(|t| !t.impassable)
                                .map(|t| t.id.as_str())
                        )
                    ),
                ));
            }
        }
    }
    Ok(key)
}

fn kind_index(data: &RacesData, id: &str) -> Result<u8, String> {
    data.kind(id).map(|k| k as u8).ok_or_else(|| {
        format!(
            "expected a race or variant warband ({}), found {id:?}",
            data.kind_list()
        )
    })
}

/// Parses the fixed map: one row per line of whitespace-separated terrain
/// ids; `city:<race>` and `ruins:<attribute>` fix what is otherwise rolled;
/// `.` is barren and `#` impassable.
fn fixed_map(
    path: &Path,
    rows: &[String],
    map: &HexMap,
    data: &RacesData,
) -> Result<Vec<(u8, u8)>, ScenarioError> {
    let err = |field: String, message: String| ScenarioError::new(path, field, message);
    if rows.len() != map.height {
        return Err(err(
            "map.rows".into(),
            format!(
                "expected {} rows (map.height), found {}",
                map.height,
                rows.len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(map.hexes());
    for (r, row) in rows.iter().enumerate() {
        let tokens: Vec<&str> = row.split_whitespace().collect();
        if tokens.len() != map.width {
            return Err(err(
                format!("map.rows[{r}]"),
                format!(
                    "expected {} hexes (map.width), found {}",
                    map.width,
                    tokens.len()
                ),
            ));
        }
        for (c, token) in tokens.iter().enumerate() {
            let (name, detail) = match token.split_once(':') {
                Some((n, d)) => (n, Some(d)),
                None => (*token, None),
            };
            let name = match name {
                "." => "barren",
                "#" => "impassable",
                n => n,
            };
            let bad = |m: String| err(format!("map.rows[{r}][{c}]"), m);
            let Some(t) = data.terrain_index(name) else {
                return Err(bad(format!(
                    "expected a terrain ({}, or . and #), found {token:?}",
                    id_list(data.terrain.iter().map(|t| t.id.as_str()))
                )));
            };
            let terrain = &data.terrain[t];
            let detail = match detail {
                None => NONE,
                Some(d) if terrain.city => data.race(d).ok_or_else(|| {
                    bad(format!(
                        "expected a city's race ({}), found {d:?}",
                        id_list(data.races.iter().map(|r| r.id.as_str()))
                    ))
                })? as u8,
                Some(d) if terrain.ruins != 0 => data.attribute(d).ok_or_else(|| {
                    bad(format!(
                        "expected the ruins' attribute ({}), found {d:?}",
                        id_list(data.attributes.iter().map(String::as_str))
                    ))
                })? as u8,
                Some(_) => {
                    return Err(bad(format!(
                        "expected a detail only on a city or ruins, found {token:?}"
                    )));
                }
            };
            out.push((t as u8, detail));
        }
    }
    Ok(out)
}

fn output_spec(seats: &[Seat], max_turns: u32) -> OutputSpec {
    let mut outcomes: Vec<String> = seats.iter().map(|s| format!("{} wins", s.label)).collect();
    outcomes.push("draw".into());
    outcomes.push(format!("unfinished after {max_turns} turns"));
    let mut metrics = vec![
        MetricSpec::new("turns", "turns played"),
        MetricSpec::new("battles", "battles fought"),
        MetricSpec::new("by_holding", "won by holding key locations (0/1)"),
        MetricSpec::new(
            "first_mover_won",
            "the player first in turn 1's initiative won (0/1)",
        ),
    ];
    for (i, s) in seats.iter().enumerate() {
        metrics.push(MetricSpec::new(
            format!("survivors_{i}"),
            format!("{}'s warbands left", s.label),
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
