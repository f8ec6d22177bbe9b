//! `jetan.game`: a match between two players (seats A and B). Each trial is
//! one game; seat A moves first in even-numbered trials and second in odd
//! ones, so colours alternate exactly and the metrics report
//! the first-move advantage, how games end and the gambling takings.

use crate::ScenarioModel;

use barsoom_engine::scenario::{self, Loader, Scenario};
use std::cell::RefCell;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::players::{Player, Workspace};
use super::position::{End, Move, Position, Rules};
use super::rules::{Color, Kind, PieceValues, RuleFlags};
use barsoom_engine::accumulate::{MAX_METRICS, TrialResult};
use barsoom_engine::model::{MetricSpec, Model, OutputSpec, Trace};
use barsoom_engine::rng::Dice;
use barsoom_engine::scenario::ScenarioError;

/// The default ply limit: a game still running after it is "unfinished".
pub const DEFAULT_MAX_PLIES: u32 = 1_000;

/// Outcome: seat A wins.
pub const OUT_A_WINS: u16 = 0;
/// Outcome: seat B wins.
pub const OUT_B_WINS: u16 = 1;
/// Outcome: drawn because a Chief was taken by another piece.
pub(crate) const OUT_DRAW_CHIEF: u16 = 2;
/// Outcome: drawn by the ten-move endgame rule.
pub(crate) const OUT_DRAW_ENDGAME: u16 = 3;
/// Outcome: drawn because the side to move had no legal move.
pub(crate) const OUT_DRAW_NO_MOVES: u16 = 4;
/// Outcome: drawn by a threefold repetition.
pub(crate) const OUT_DRAW_REPETITION: u16 = 5;
/// Outcome: the ply limit came first.
pub const OUT_UNFINISHED: u16 = 6;

/// Metric: plies played.
pub(crate) const METRIC_PLIES: usize = 0;
/// Metric: 1 if the side that moved first won.
pub(crate) const METRIC_FIRST_WON: usize = 1;
/// Metric: 1 if the side that moved second won.
pub(crate) const METRIC_SECOND_WON: usize = 2;
/// Metric: 1 if the game was won by taking the Princess.
pub(crate) const METRIC_PRINCESS_TAKEN: usize = 3;
/// Metric: 1 if seat A moved first.
pub(crate) const METRIC_A_FIRST: usize = 4;
/// Metric: 1 if seat A won moving first.
pub(crate) const METRIC_A_WON_FIRST: usize = 5;
/// Metric: total value of the pieces seat A took (what B pays A).
pub(crate) const METRIC_A_TAKINGS: usize = 6;
/// Metric: total value of the pieces seat B took.
pub(crate) const METRIC_B_TAKINGS: usize = 7;

/// How a played game went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameRecord {
    /// How it ended; `None` when the ply limit came first.
    pub end: Option<End>,
    /// Plies played.
    pub plies: u32,
    /// Per colour: the value of the enemy pieces it took.
    pub takings: [u32; 2],
    /// The side that moved first.
    pub first: Color,
}

/// Plays `start` out between `players` (indexed by colour) for at most
/// `max_plies` plies. `on_move` sees each ply's number, the move and the
/// position after it; the trace gets one event per move and one at the end.
#[allow(clippy::too_many_arguments)]
pub fn play_game<T: Trace>(
    rules: &Rules,
    start: &Position,
    players: [Player; 2],
    max_plies: u32,
    dice: &mut Dice,
    work: &mut Workspace,
    trace: &mut T,
    mut on_move: impl FnMut(u32, Move, &Position),
) -> GameRecord {
    let mut position = start.clone();
    let mut record = GameRecord {
        end: position.end(),
        plies: 0,
        takings: [0; 2],
        first: start.side(),
    };
    while record.end.is_none() && record.plies < max_plies {
        let side = position.side();
        let Some(m) = players[side.index()].choose(rules, &position, dice, work) else {
            record.end = Some(rules.no_moves_end(side));
            break;
        };
        let taken = position.piece(usize::from(m.to)).map(|(k, _)| k);
        if let Some(kind) = taken {
            record.takings[side.index()] += u32::from(rules.values.of(kind));
        }
        position = rules.play(&position, m);
        record.plies += 1;
        record.end = position.end();
        trace.event("Jetan Pieces", || {
            let capture = taken.map_or(String::new(), |k| format!(" takes the {}", k.name()));
            format!("ply {}: {} {m}{capture}", record.plies, side.name())
        });
        on_move(record.plies, m, &position);
    }
    if record.end.is_none() {
        // At the limit: a side with no legal move still ends the game.
        let mut list = super::position::MoveList::default();
        record.end = rules.outcome(&position, &mut list);
    }
    trace.event("Jetan Win/Draw", || match record.end {
        Some(end) => end.describe(),
        None => format!("unfinished after {} plies", record.plies),
    });
    record
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    #[serde(flatten)]
    scenario: Scenario,
    /// Seat A, then seat B: `random`, `greedy`, `alphabeta[:NODES]`,
    /// `mcts[:PLAYOUTS]`.
    players: Vec<String>,
    /// `orange` (default) or `black`.
    first: Option<String>,
    /// A start position in the notation (its side to move moves first).
    position: Option<String>,
    /// Plies before the game is scored unfinished, 1 to 1,000,000.
    max_plies: Option<u64>,
    /// Piece values file, relative to the scenario (default: the bundled
    /// `scenarios/jetan/data/pieces.toml`).
    data: Option<String>,
    /// Rule flags, each defaulting to its book value (`barsoom jetan --help`
    /// and docs/models/jetan.game.md list them), e.g. `steps = "up-to"`.
    #[serde(default)]
    rules: std::collections::BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PiecesFile {
    #[allow(dead_code)]
    provenance: String,
    values: std::collections::BTreeMap<String, u16>,
}

/// Reads piece values from a data file: every kind once, by lower-case name.
pub(crate) fn load_values_with(
    path: &Path,
    loader: &mut Loader,
) -> Result<PieceValues, ScenarioError> {
    let file: PiecesFile = loader.read_toml(path)?;
    let mut values = [0u16; 8];
    for kind in Kind::ALL {
        let key = kind.name().to_lowercase();
        values[kind as usize] = *file.values.get(&key).ok_or_else(|| {
            ScenarioError::new(
                path,
                format!("values.{key}"),
                "expected a value for every piece",
            )
        })?;
    }
    for key in file.values.keys() {
        if !Kind::ALL.iter().any(|k| k.name().to_lowercase() == *key) {
            return Err(ScenarioError::new(
                path,
                format!("values.{key}"),
                "expected one of panthan, warrior, padwar, dwar, flier, chief, princess, thoat",
            ));
        }
    }
    Ok(PieceValues(values))
}

/// The `jetan.game` model.
pub struct JetanGame {
    rules: Rules,
    start: Position,
    seats: [Player; 2],
    max_plies: u32,
    spec: OutputSpec,
}

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::new(Workspace::default());
}

impl JetanGame {
    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Seat A's and seat B's players.
    pub fn seats(&self) -> [Player; 2] {
        self.seats
    }

    /// Plays one game: seat A takes the colour that moves first in
    /// even-numbered trials and the other colour in odd ones.
    pub fn play<T: Trace>(
        &self,
        dice: &mut Dice,
        trace: &mut T,
        work: &mut Workspace,
    ) -> TrialResult {
        let first = self.start.side();
        let a_plays = if dice.trial().is_multiple_of(2) {
            first
        } else {
            first.other()
        };
        let mut by_colour = [self.seats[1]; 2];
        by_colour[a_plays.index()] = self.seats[0];
        trace.event("Jetan seats", || {
            format!(
                "seat A ({}) plays {}, seat B ({}) plays {}; {} moves first",
                self.seats[0],
                a_plays.name(),
                self.seats[1],
                a_plays.other().name(),
                self.start.side().name()
            )
        });
        let record = play_game(
            &self.rules,
            &self.start,
            by_colour,
            self.max_plies,
            dice,
            work,
            trace,
            |_, _, _| {},
        );
        trial_result(&record, a_plays)
    }
}

impl ScenarioModel for JetanGame {
    type File = GameFile;
    const ID: &'static str = "jetan.game";
    const DESCRIPTION: &'static str = "Jetan, the Martian chess: a match between two players (random, greedy, alphabeta, mcts) under the book rules or any rule flags";

    /// Loads and checks a `jetan.game` scenario; returns the model and the
    /// scenario's description.
    fn load_with(path: &Path, loader: &mut Loader) -> Result<(Self, String), ScenarioError> {
        let file: Self::File = loader.read_scenario(path, Self::ID)?;
        file.scenario.no_data(path)?;
        let err = |field: &str, message: String| ScenarioError::new(path, field, message);
        if file.players.len() != 2 {
            return Err(err(
                "players",
                format!(
                    "expected two players (seat A, seat B), found {}",
                    file.players.len()
                ),
            ));
        }
        let mut seats = [Player::Random; 2];
        for (i, text) in file.players.iter().enumerate() {
            seats[i] =
                Player::parse(text).map_err(|e| err(&format!("players[{i}]"), e.to_string()))?;
        }
        let mut flags = RuleFlags::default();
        for (name, value) in &file.rules {
            flags
                .set(name, value)
                .map_err(|e| err(&format!("rules.{name}"), e.to_string()))?;
        }
        // Given, relative to the scenario's folder; left out, the bundled
        // values wherever the scenario lives.
        let data: PathBuf = match file.data.as_deref() {
            Some(given) => path.parent().unwrap_or(Path::new(".")).join(given),
            None => scenario::bundled_scenarios_dir().join("jetan/data/pieces.toml"),
        };
        let values = load_values_with(&data, loader)?;
        let rules = Rules::new(flags, values);
        let mut start = match &file.position {
            Some(p) => Position::parse(p).map_err(|e| err("position", e.to_string()))?,
            None => rules.start_position(),
        };
        match (file.first.as_deref(), &file.position) {
            (None, _) => {}
            (Some(_), Some(_)) => {
                return Err(err(
                    "first",
                    "expected either `first` or `position` (whose side to move moves first), not both".into(),
                ));
            }
            (Some("orange"), None) => {}
            (Some("black"), None) => start = start.with_side(Color::Black),
            (Some(other), None) => {
                return Err(err(
                    "first",
                    format!("expected orange or black, found {other:?}"),
                ));
            }
        }
        let max_plies = match file.max_plies {
            None => DEFAULT_MAX_PLIES,
            Some(n) if (1..=1_000_000).contains(&n) => n as u32,
            Some(n) => {
                return Err(err(
                    "max_plies",
                    format!("expected 1 to 1000000, found {n}"),
                ));
            }
        };
        let spec = output_spec(seats, start.side(), max_plies);
        Ok((
            JetanGame {
                rules,
                start,
                seats,
                max_plies,
                spec,
            },
            file.scenario.description,
        ))
    }
}

/// The trial row of a game in which seat A played `a_plays`.
pub fn trial_result(record: &GameRecord, a_plays: Color) -> TrialResult {
    let mut metrics = [0u32; MAX_METRICS];
    metrics[METRIC_PLIES] = record.plies;
    let winner = record.end.and_then(|e| e.winner());
    metrics[METRIC_FIRST_WON] = u32::from(winner == Some(record.first));
    metrics[METRIC_SECOND_WON] = u32::from(winner == Some(record.first.other()));
    metrics[METRIC_PRINCESS_TAKEN] =
        u32::from(matches!(record.end, Some(End::PrincessTaken { .. })));
    metrics[METRIC_A_FIRST] = u32::from(a_plays == record.first);
    metrics[METRIC_A_WON_FIRST] = u32::from(a_plays == record.first && winner == Some(a_plays));
    metrics[METRIC_A_TAKINGS] = record.takings[a_plays.index()];
    metrics[METRIC_B_TAKINGS] = record.takings[a_plays.other().index()];
    let outcome = match (record.end, winner) {
        (_, Some(w)) if w == a_plays => OUT_A_WINS,
        (_, Some(_)) => OUT_B_WINS,
        (Some(End::ChiefTakenByOther { .. }), None) => OUT_DRAW_CHIEF,
        (Some(End::Endgame), None) => OUT_DRAW_ENDGAME,
        (Some(End::Repetition), None) => OUT_DRAW_REPETITION,
        (Some(_), None) => OUT_DRAW_NO_MOVES,
        (None, None) => OUT_UNFINISHED,
    };
    TrialResult { outcome, metrics }
}

fn output_spec(seats: [Player; 2], first: Color, max_plies: u32) -> OutputSpec {
    let [a, b] = seats;
    let outcomes = vec![
        format!("A ({a}) wins"),
        format!("B ({b}) wins"),
        "draw: a Chief taken by another piece".into(),
        "draw: ten moves at three pieces or fewer".into(),
        "draw: no legal move".into(),
        "draw: threefold repetition".into(),
        format!("unfinished after {max_plies} plies"),
    ];
    let first_name = first.name();
    let second_name = first.other().name();
    let metrics = vec![
        MetricSpec::new("plies", "plies played (moves of either side)"),
        MetricSpec::new(
            "first_won",
            format!("1 if the side moving first ({first_name}) won"),
        ),
        MetricSpec::new(
            "second_won",
            format!("1 if the side moving second ({second_name}) won"),
        ),
        MetricSpec::new(
            "princess_taken",
            "1 if the game was won by taking the Princess (else by Chief takes Chief, a draw or unfinished)",
        ),
        MetricSpec::new(
            "a_first",
            format!("1 if seat A ({a}) moved first (even-numbered trials)"),
        ),
        MetricSpec::new(
            "a_won_first",
            format!("1 if seat A ({a}) moved first and won"),
        ),
        MetricSpec::new(
            "a_takings",
            format!("value of the pieces seat A ({a}) took"),
        ),
        MetricSpec::new(
            "b_takings",
            format!("value of the pieces seat B ({b}) took"),
        ),
    ];
    OutputSpec {
        outcomes,
        metrics,
        length_metric: Some(METRIC_PLIES),
        trends: Vec::new(),
    }
}

impl Model for JetanGame {
    fn spec(&self) -> &OutputSpec {
        &self.spec
    }

    fn run_trial<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        WORKSPACE.with(|work| match work.try_borrow_mut() {
            Ok(mut work) => self.play(dice, trace, &mut work),
            // Only reached if a game were started inside another on the
            // same thread; a fresh workspace keeps it correct.
            Err(_) => self.play(dice, trace, &mut Workspace::default()),
        })
    }
}
