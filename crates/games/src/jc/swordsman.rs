//! `jc.swordsman`: duels between master swordsmen [7.8]. Each round both
//! sides reveal a maneuver card at once and read the Master Swordsman
//! Maneuver Matrix [7.82, 7.83]: a miss, an advantage (two in a row make a
//! hit) or a hit, which takes a level [7.84]. Cards are committed ahead by
//! rank and played in the order laid down; when a side's laid-down cards are
//! spent it picks up its played cards and lays down as many again [7.85].
//! Levels by rank, heroes other than John Carter one more [7.86].
//!
//! The maneuvers, the two decks (cards 136-155) and the matrix come from
//! `scenarios/jc/data/swordsman.toml` (reconstructed: the sheet is missing).
//!
//! Policies: `random` (uniform over the cards still in hand), `exploiter`
//! (best response to what the opponent's spent cards of its current cycle
//! reveal: the cards it may still play this cycle are the ones not yet
//! shown) and `minimax` (the optimal mixed strategy of the one-round matrix
//! game, solved by linear programming, restricted to the cards still in
//! hand). The one-round payoff counts a hit as 1 and an advantage as 1/2
//! (half of the two that make a hit), the opponent's results negatively.

use crate::ScenarioModel;
use barsoom_engine::scenario::Load;

use barsoom_engine::scenario::{Loader, Scenario};
use std::path::Path;

use serde::Deserialize;

use barsoom_engine::accumulate::MAX_METRICS;
use barsoom_engine::math::matrix_game::solve_zero_sum;
use barsoom_engine::scenario::ScenarioError;
use barsoom_engine::{Dice, MetricSpec, Model, OutputSpec, Trace, TrialResult};

/// Maneuvers (and cards per deck).
pub const MANEUVERS: usize = 10;
/// Default round limit.
pub const DEFAULT_MAX_ROUNDS: u32 = 1000;

/// A cell result [7.84].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Effect {
    /// No effect.
    Miss,
    /// At an advantage; two in a row make a hit.
    Advantage,
    /// A hit: the opponent loses a level.
    Hit,
}

impl Effect {
    fn parse(c: &str) -> Option<Self> {
        match c {
            "M" => Some(Effect::Miss),
            "A" => Some(Effect::Advantage),
            "H" => Some(Effect::Hit),
            _ => None,
        }
    }

    /// Its worth in the one-round game: hit 1, advantage 1/2, miss 0.
    pub(crate) fn worth(self) -> f64 {
        match self {
            Effect::Miss => 0.0,
            Effect::Advantage => 0.5,
            Effect::Hit => 1.0,
        }
    }

    fn letter(self) -> char {
        match self {
            Effect::Miss => 'M',
            Effect::Advantage => 'A',
            Effect::Hit => 'H',
        }
    }
}

/// A master swordsman's rank [7.8].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rank {
    /// John Carter alone.
    Warlord,
    /// All other heroes, and some opponents.
    GrandMaster,
    /// Most master swordsmen heroes meet.
    MasterAtArms,
}

impl Rank {
    /// Parses a rank as written in the data (`warlord`, `grand-master`,
    /// `master-at-arms`).
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "warlord" => Some(Rank::Warlord),
            "grand-master" => Some(Rank::GrandMaster),
            "master-at-arms" => Some(Rank::MasterAtArms),
            _ => None,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The maneuvers, decks, ranks and matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct SwordsmanTables {
    /// Maneuver identifiers and names, in matrix order.
    pub maneuvers: Vec<(String, String)>,
    /// Card numbers of the first (hero's) and second player's decks, by
    /// maneuver.
    pub cards: [[u16; MANEUVERS]; 2],
    /// `effect[x][y]`: with the first player on `x` and the second on `y`,
    /// `[result on the second player, result on the first]` [7.83].
    pub effect: [[[Effect; 2]; MANEUVERS]; MANEUVERS],
    /// Cards committed ahead and levels, by rank.
    pub ranks: [(usize, u8); 3],
    /// Extra level of heroes other than John Carter [7.86].
    pub hero_extra_level: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTables {
    provenance: String,
    decks: RawDecks,
    ranks: RawRanks,
    maneuvers: Vec<RawManeuver>,
    matrix: RawMatrix,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDecks {
    provenance: String,
    first: Vec<i64>,
    second: Vec<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRank {
    commit: i64,
    levels: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRanks {
    provenance: String,
    warlord: RawRank,
    #[serde(rename = "grand-master")]
    grand_master: RawRank,
    #[serde(rename = "master-at-arms")]
    master_at_arms: RawRank,
    hero_extra_level: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManeuver {
    id: String,
    name: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMatrix {
    provenance: String,
    rows: Vec<Vec<String>>,
}

impl SwordsmanTables {
    /// The one-round payoff to the first player: the worth of what he does
    /// minus the worth of what he suffers.
    pub fn payoff(&self) -> Vec<Vec<f64>> {
        (0..MANEUVERS)
            .map(|x| {
                (0..MANEUVERS)
                    .map(|y| self.effect[x][y][0].worth() - self.effect[x][y][1].worth())
                    .collect()
            })
            .collect()
    }

    /// Levels of a swordsman of `rank` [7.86].
    pub fn levels(&self, rank: Rank, hero: bool) -> u8 {
        let extra = if hero && rank != Rank::Warlord {
            self.hero_extra_level
        } else {
            0
        };
        self.ranks[rank.index()].1 + extra
    }

    /// Cards a swordsman of `rank` lays down at once [7.85].
    pub fn commit(&self, rank: Rank) -> usize {
        self.ranks[rank.index()].0
    }
}

impl Load for SwordsmanTables {
    /// Loads and checks `swordsman.toml`.
    fn load_with(file: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let raw: RawTables = loader.read_toml(file)?;
        let err = |field: String, message: String| ScenarioError::new(file, field, message);
        for (field, text) in [
            ("provenance", &raw.provenance),
            ("decks.provenance", &raw.decks.provenance),
            ("ranks.provenance", &raw.ranks.provenance),
            ("matrix.provenance", &raw.matrix.provenance),
        ] {
            if text.trim().is_empty() {
                return Err(err(
                    field.into(),
                    "expected where the table comes from (rules [case] or reconstructed: why)"
                        .into(),
                ));
            }
        }
        if raw.maneuvers.len() != MANEUVERS {
            return Err(err(
                "maneuvers".into(),
                format!(
                    "expected {MANEUVERS} maneuvers, found {}",
                    raw.maneuvers.len()
                ),
            ));
        }
        let mut cards = [[0u16; MANEUVERS]; 2];
        for (d, (name, list)) in [
            ("decks.first", &raw.decks.first),
            ("decks.second", &raw.decks.second),
        ]
        .into_iter()
        .enumerate()
        {
            if list.len() != MANEUVERS || list.iter().any(|c| !(136..=155).contains(c)) {
                return Err(err(
                    name.into(),
                    format!(
                        "expected {MANEUVERS} card numbers from 136 to 155 (7.81), found {list:?}"
                    ),
                ));
            }
            for (slot, c) in cards[d].iter_mut().zip(list) {
                *slot = *c as u16;
            }
        }
        let mut all: Vec<u16> = cards.iter().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        if all.len() != 2 * MANEUVERS {
            return Err(err(
                "decks".into(),
                "expected every card number once across the two decks".into(),
            ));
        }
        let rank = |field: &str, r: &RawRank| -> Result<(usize, u8), ScenarioError> {
            if !(1..=MANEUVERS as i64).contains(&r.commit) || !(1..=9).contains(&r.levels) {
                return Err(err(
                    format!("ranks.{field}"),
                    format!(
                        "expected commit 1 to {MANEUVERS} and levels 1 to 9, found commit {} levels {}",
                        r.commit, r.levels
                    ),
                ));
            }
            Ok((r.commit as usize, r.levels as u8))
        };
        let ranks = [
            rank("warlord", &raw.ranks.warlord)?,
            rank("grand-master", &raw.ranks.grand_master)?,
            rank("master-at-arms", &raw.ranks.master_at_arms)?,
        ];
        if !(0..=9).contains(&raw.ranks.hero_extra_level) {
            return Err(err(
                "ranks.hero_extra_level".into(),
                format!("expected 0 to 9, found {}", raw.ranks.hero_extra_level),
            ));
        }
        if raw.matrix.rows.len() != MANEUVERS {
            return Err(err(
                "matrix.rows".into(),
                format!("expected {MANEUVERS} rows, found {}", raw.matrix.rows.len()),
            ));
        }
        let mut effect = [[[Effect::Miss; 2]; MANEUVERS]; MANEUVERS];
        for (x, row) in raw.matrix.rows.iter().enumerate() {
            if row.len() != MANEUVERS {
                return Err(err(
                    format!("matrix.rows[{x}]"),
                    format!("expected {MANEUVERS} cells, found {}", row.len()),
                ));
            }
            for (y, cell) in row.iter().enumerate() {
                let parsed = cell
                    .split_once('/')
                    .and_then(|(a, b)| Some([Effect::parse(a)?, Effect::parse(b)?]));
                effect[x][y] = parsed.ok_or_else(|| {
                    err(
                        format!("matrix.rows[{x}][{y}]"),
                        format!("expected two results of M, A, H such as \"A/M\", found {cell:?}"),
                    )
                })?;
            }
        }
        Ok(SwordsmanTables {
            maneuvers: raw.maneuvers.into_iter().map(|m| (m.id, m.name)).collect(),
            cards,
            effect,
            ranks,
            hero_extra_level: raw.ranks.hero_extra_level as u8,
        })
    }
}

/// How a side picks its cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CardPolicy {
    /// Uniform over the cards in hand.
    Random,
    /// Best response to what the opponent has revealed.
    Exploiter,
    /// The one-round minimax mix.
    Minimax,
}

impl CardPolicy {
    fn parse(text: &str) -> Option<Self> {
        match text {
            "random" => Some(CardPolicy::Random),
            "exploiter" => Some(CardPolicy::Exploiter),
            "minimax" => Some(CardPolicy::Minimax),
            _ => None,
        }
    }
}

/// One side of a bout.
#[derive(Debug, Clone, PartialEq)]
pub struct Swordsman {
    /// Name for outcomes.
    pub label: String,
    /// Rank.
    pub rank: Rank,
    /// Whether a hero (falls unconscious rather than dying; extra level
    /// unless the Warlord).
    pub hero: bool,
    /// Card policy.
    pub policy: CardPolicy,
}

/// A side's cards during a bout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Hand {
    /// Maneuvers laid down this cycle, in order.
    pub queue: [u8; MANEUVERS],
    /// How many are laid down.
    pub laid: usize,
    /// How many of them have been played.
    pub played: usize,
    /// Consecutive advantages [7.84].
    pub streak: u8,
    /// Levels left.
    pub levels: u8,
    /// A hero gone berserk [13.43]: only every second hit he takes costs
    /// him a level (a bout inside a duel; a lone bout has none).
    pub berserk: bool,
    /// A berserk hand has shrugged off a hit: the next one costs a level.
    pub shrugged: bool,
}

impl Hand {
    /// Cards of this cycle already shown (bit per maneuver).
    pub(crate) fn revealed(&self) -> u16 {
        self.queue[..self.played].iter().fold(0, |m, c| m | 1 << c)
    }
}

/// What an advantage streak and a result make [7.84]: whether a hit lands
/// and the new streak. Two consecutive advantages are a hit.
#[inline]
pub fn apply_effect(streak: u8, effect: Effect) -> (bool, u8) {
    match effect {
        Effect::Hit => (true, 0),
        Effect::Miss => (false, 0),
        Effect::Advantage if streak >= 1 => (true, 0),
        Effect::Advantage => (false, 1),
    }
}

/// A bout compiled for resolution.
#[derive(Debug, Clone)]
pub struct Bout {
    /// The tables.
    pub tables: SwordsmanTables,
    /// The two sides; side 0 holds the first player's deck [7.81].
    pub sides: [Swordsman; 2],
    /// Per side, payoff of each own maneuver against each opponent's.
    payoff: [[[f64; MANEUVERS]; MANEUVERS]; 2],
    /// Per side, the minimax mix as integer weights.
    mix: [[u32; MANEUVERS]; 2],
    /// The value of the one-round game to side 0.
    pub value: f64,
    /// Round limit.
    pub max_rounds: u32,
}

/// How a bout ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoutResult {
    /// 0 or 1 won; 2 both fell in the same round; 3 undecided.
    pub outcome: u16,
    /// Rounds fought.
    pub rounds: u32,
    /// Levels left per side.
    pub levels: [u8; 2],
    /// Hits scored per side (advantage pairs included).
    pub hits: [u32; 2],
    /// Advantages won per side.
    pub advantages: [u32; 2],
}

impl Bout {
    /// Compiles a bout; solves the one-round game once.
    pub fn new(
        tables: SwordsmanTables,
        sides: [Swordsman; 2],
        max_rounds: u32,
    ) -> Result<Self, String> {
        let first = tables.payoff();
        let solution = solve_zero_sum(&first).map_err(|e| e.to_string())?;
        let mut payoff = [[[0.0; MANEUVERS]; MANEUVERS]; 2];
        for x in 0..MANEUVERS {
            for y in 0..MANEUVERS {
                payoff[0][x][y] = first[x][y];
                payoff[1][y][x] = -first[x][y];
            }
        }
        let weights = |p: &[f64]| {
            let mut w = [0u32; MANEUVERS];
            for (w, p) in w.iter_mut().zip(p) {
                *w = (p.max(0.0) * 1_000_000.0).round() as u32;
            }
            w
        };
        Ok(Bout {
            mix: [
                weights(&solution.row_strategy),
                weights(&solution.column_strategy),
            ],
            value: solution.value,
            payoff,
            tables,
            sides,
            max_rounds,
        })
    }

    /// The starting hands.
    pub fn start(&self) -> [Hand; 2] {
        let mut hands = [Hand::default(); 2];
        for (h, s) in hands.iter_mut().zip(&self.sides) {
            h.levels = self.tables.levels(s.rank, s.hero);
        }
        hands
    }

    /// Lays down side `s`'s next cards [7.85], by its policy, knowing the
    /// opponent's hand as far as it has been shown.
    pub fn commit(&self, hands: &mut [Hand; 2], s: usize, dice: &mut Dice) {
        let k = self.tables.commit(self.sides[s].rank);
        let opponent = hands[1 - s];
        let mut used = 0u16;
        for j in 0..k {
            let card = match self.sides[s].policy {
                CardPolicy::Random => pick_weighted(&[1; MANEUVERS], used, dice),
                CardPolicy::Minimax => pick_weighted(&self.mix[s], used, dice),
                CardPolicy::Exploiter => {
                    // The opponent's card in the round j ahead: still from its
                    // current cycle (any card not yet shown) or from a new one.
                    let left = opponent.laid - opponent.played;
                    let excluded = if j < left { opponent.revealed() } else { 0 };
                    self.best_response(s, excluded, used)
                }
            };
            used |= 1 << card;
            hands[s].queue[j] = card as u8;
        }
        hands[s].laid = k;
        hands[s].played = 0;
    }

    /// The card of side `s` not in `used` with the best expected payoff
    /// against an opponent uniform over the cards not in `excluded`.
    fn best_response(&self, s: usize, excluded: u16, used: u16) -> usize {
        let mut best = (f64::NEG_INFINITY, 0);
        for x in (0..MANEUVERS).filter(|x| used & 1 << x == 0) {
            let v: f64 = (0..MANEUVERS)
                .filter(|y| excluded & 1 << y == 0)
                .map(|y| self.payoff[s][x][y])
                .sum();
            if v > best.0 + 1e-12 {
                best = (v, x);
            }
        }
        best.1
    }

    /// Fights the bout once.
    pub fn resolve<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> BoutResult {
        self.resolve_from(self.start(), dice, trace)
    }

    /// Fights the bout once from `hands` (a bout inside a larger duel
    /// starts from the levels its two swordsmen have left [7.81]).
    pub fn resolve_from<T: Trace>(
        &self,
        mut hands: [Hand; 2],
        dice: &mut Dice,
        trace: &mut T,
    ) -> BoutResult {
        let mut result = BoutResult {
            outcome: 3,
            rounds: 0,
            levels: [hands[0].levels, hands[1].levels],
            hits: [0; 2],
            advantages: [0; 2],
        };
        while result.rounds < self.max_rounds {
            result.rounds += 1;
            if let Some(outcome) = self.round(&mut hands, &mut result, dice, trace) {
                result.outcome = outcome;
                break;
            }
        }
        result.levels = [hands[0].levels, hands[1].levels];
        result
    }

    /// Plays one round: commits where needed, reveals, applies results.
    /// Returns the outcome if the bout is over.
    pub fn round<T: Trace>(
        &self,
        hands: &mut [Hand; 2],
        result: &mut BoutResult,
        dice: &mut Dice,
        trace: &mut T,
    ) -> Option<u16> {
        for s in 0..2 {
            if hands[s].played == hands[s].laid {
                self.commit(hands, s, dice);
                trace.event("JC 7.85 commit", || {
                    format!(
                        "{} lays down {} card(s) face down",
                        self.sides[s].label, hands[s].laid
                    )
                });
            }
        }
        let cards = [
            usize::from(hands[0].queue[hands[0].played]),
            usize::from(hands[1].queue[hands[1].played]),
        ];
        hands[0].played += 1;
        hands[1].played += 1;
        let [on_second, on_first] = self.tables.effect[cards[0]][cards[1]];
        let mut hit = [false; 2];
        for (s, effect) in [(0usize, on_second), (1, on_first)] {
            let (h, streak) = apply_effect(hands[s].streak, effect);
            hands[s].streak = streak;
            result.advantages[s] += u32::from(effect == Effect::Advantage);
            hit[s] = h;
        }
        for s in 0..2 {
            if hit[s] {
                result.hits[s] += 1;
                let target = &mut hands[1 - s];
                if target.berserk {
                    // [13.43] every other hit is shrugged off.
                    target.shrugged = !target.shrugged;
                    if target.shrugged {
                        continue;
                    }
                }
                target.levels = target.levels.saturating_sub(1);
            }
        }
        trace.event("JC 7.84 matrix", || {
            format!(
                "{} plays card {} ({}), {} card {} ({}): {}/{}{}{}; levels {} / {}",
                self.sides[0].label,
                self.tables.cards[0][cards[0]],
                self.tables.maneuvers[cards[0]].1,
                self.sides[1].label,
                self.tables.cards[1][cards[1]],
                self.tables.maneuvers[cards[1]].1,
                on_second.letter(),
                on_first.letter(),
                if hit[0] {
                    format!(", {} hits", self.sides[0].label)
                } else {
                    String::new()
                },
                if hit[1] {
                    format!(", {} hits", self.sides[1].label)
                } else {
                    String::new()
                },
                hands[0].levels,
                hands[1].levels
            )
        });
        match (hands[0].levels == 0, hands[1].levels == 0) {
            (true, true) => Some(2),
            (false, true) => Some(0),
            (true, false) => Some(1),
            (false, false) => None,
        }
    }
}

/// A card among those not in `used`, with probability proportional to
/// `weights` (uniform over them if their weights are all zero).
fn pick_weighted(weights: &[u32; MANEUVERS], used: u16, dice: &mut Dice) -> usize {
    let total: u32 = (0..MANEUVERS)
        .filter(|c| used & 1 << c == 0)
        .map(|c| weights[c])
        .sum();
    if total == 0 {
        let free = (0..MANEUVERS).filter(|c| used & 1 << c == 0).count() as u32;
        let k = dice.below(free) as usize;
        return (0..MANEUVERS)
            .filter(|c| used & 1 << c == 0)
            .nth(k)
            .unwrap_or(0);
    }
    let mut u = dice.below(total);
    for c in (0..MANEUVERS).filter(|c| used & 1 << c == 0) {
        if u < weights[c] {
            return c;
        }
        u -= weights[c];
    }
    0
}

// ---------------------------------------------------------------- model

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoutFile {
    #[serde(flatten)]
    scenario: Scenario,
    /// Rounds before a bout still going is undecided, 1 to 1,000,000.
    max_rounds: Option<i64>,
    /// Exactly two sides; the first is the First Player.
    sides: Vec<SideFile>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct SideFile {
    /// The side's name in the outcomes.
    label: String,
    /// `warlord`, `grand-master` or `master-at-arms`.
    rank: String,
    /// A hero other than John Carter (one more level).
    #[serde(default)]
    hero: bool,
    /// `random` (default), `exploiter` or `minimax`.
    policy: Option<String>,
}

/// The `jc.swordsman` model.
#[derive(Debug, Clone)]
pub struct JcSwordsman {
    bout: Bout,
    spec: OutputSpec,
}

impl JcSwordsman {
    /// The compiled bout.
    pub fn bout(&self) -> &Bout {
        &self.bout
    }
}

impl ScenarioModel for JcSwordsman {
    type File = BoutFile;
    const ID: &'static str = "jc.swordsman";
    const DESCRIPTION: &'static str = "John Carter, Warlord of Mars master swordsman duels: maneuver cards committed ahead by rank on the maneuver matrix, advantages and hits, random, exploiter or minimax play";

    /// Loads a `jc.swordsman` scenario and `swordsman.toml` from its data
    /// folder.
    fn load_with(path: &Path, loader: &mut Loader) -> Result<(Self, String), ScenarioError> {
        let file: Self::File = loader.read_scenario(path, Self::ID)?;
        let dir = file.scenario.data_dir(path)?;
        let tables = SwordsmanTables::load_with(&dir.join("swordsman.toml"), loader)?;
        let err = |field: String, message: String| ScenarioError::new(path, field, message);
        barsoom_engine::scenario::expect_two_sides(path, file.sides.len())?;
        let max_rounds = barsoom_engine::scenario::limit(
            path,
            "max_rounds",
            file.max_rounds,
            DEFAULT_MAX_ROUNDS,
            1_000_000,
        )?;
        let mut sides = Vec::new();
        for (s, side) in file.sides.iter().enumerate() {
            let rank = Rank::parse(&side.rank).ok_or_else(|| {
                err(
                    format!("sides[{s}].rank"),
                    format!(
                        "expected \"warlord\", \"grand-master\" or \"master-at-arms\", found {:?}",
                        side.rank
                    ),
                )
            })?;
            let policy = match side.policy.as_deref() {
                None => CardPolicy::Random,
                Some(p) => CardPolicy::parse(p).ok_or_else(|| {
                    err(
                        format!("sides[{s}].policy"),
                        format!("expected \"random\", \"exploiter\" or \"minimax\", found {p:?}"),
                    )
                })?,
            };
            sides.push(Swordsman {
                label: side.label.clone(),
                rank,
                hero: side.hero,
                policy,
            });
        }
        let [a, b] = [sides[0].clone(), sides[1].clone()];
        let bout = Bout::new(tables, [a, b], max_rounds).map_err(|m| err("sides".into(), m))?;
        let spec = output_spec(&bout);
        Ok((JcSwordsman { bout, spec }, file.scenario.description))
    }
}

fn output_spec(bout: &Bout) -> OutputSpec {
    let [a, b] = [&bout.sides[0].label, &bout.sides[1].label];
    let mut metrics = vec![MetricSpec::new("rounds", "rounds of maneuver cards")];
    for (label, key) in [(a, "a"), (b, "b")] {
        metrics.push(MetricSpec::new(
            format!("levels_left_{key}"),
            format!("{label}: levels left"),
        ));
    }
    for (label, key) in [(a, "a"), (b, "b")] {
        metrics.push(MetricSpec::new(
            format!("hits_{key}"),
            format!("{label}: hits scored"),
        ));
    }
    for (label, key) in [(a, "a"), (b, "b")] {
        metrics.push(MetricSpec::new(
            format!("advantages_{key}"),
            format!("{label}: advantages won"),
        ));
    }
    debug_assert!(metrics.len() <= MAX_METRICS);
    OutputSpec {
        outcomes: vec![
            format!("won by {a}"),
            format!("won by {b}"),
            "both fall in the same round".into(),
            format!("undecided after {} rounds", bout.max_rounds),
        ],
        metrics,
        length_metric: Some(0),
        trends: Vec::new(),
    }
}

impl Model for JcSwordsman {
    fn spec(&self) -> &OutputSpec {
        &self.spec
    }

    fn run_trial<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        let r = self.bout.resolve(dice, trace);
        let mut metrics = [0u32; MAX_METRICS];
        metrics[0] = r.rounds;
        for s in 0..2 {
            metrics[1 + s] = u32::from(r.levels[s]);
            metrics[3 + s] = r.hits[s];
            metrics[5 + s] = r.advantages[s];
        }
        TrialResult {
            outcome: r.outcome,
            metrics,
        }
    }
}
