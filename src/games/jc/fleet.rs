//! `jc.fleet`: fleet combat of the Military Game of John Carter, Warlord of
//! Mars (SPI 1979), section 23, with influenced neutral fleets [24.4].
//!
//! A battle is set up once ([`BattleSetup`] and [`SidePolicy`] compiled
//! into a [`Battle`]); [`Battle::resolve`] fights it with the dice it is
//! given. Each mechanic is one function read by both the Monte Carlo and the
//! exact chain ([`super::fleet_exact`]): [`Battle::opening`] (break-off by
//! agreement), [`Battle::forced_reverse`], [`ManeuverMix`] (the maneuver
//! policies), [`Battle::round`] (matrix, leadership, intrinsic defense, the
//! results table, simultaneous losses, Reverses) and [`Battle::terminal`].
//!
//! Internally the two sides are held by *role*: index 0 is the attacker,
//! 1 the defender [23.0 PROCEDURE]; results are reported by *side*, in the
//! order of the scenario's `[[sides]]`.

use std::path::Path;

use serde::Deserialize;

use super::fleet_tables::{FleetTables, JcData, MANEUVERS, id_list};
use crate::analysis::matrix_game::solve_zero_sum;
use crate::engine::accumulate::MAX_METRICS;
use crate::engine::{Dice, ExactSolution, MetricSpec, Model, OutputSpec, Trace, TrialResult};
use crate::scenario::{ScenarioError, parse_toml, read_text};

/// Most strength points a side (home and neutral fleets together) may field.
pub const MAX_STRENGTH: u8 = 99;
/// Default cap on rounds; a battle still going is "undecided".
pub const DEFAULT_MAX_ROUNDS: u32 = 10_000;
/// Integer weight a mixed strategy is quantised to (the sum of its weights).
pub const MIX_RESOLUTION: u32 = 1 << 10;
/// Consecutive Reverses that break combat off [23.22].
pub const REVERSES_TO_BREAK_OFF: u8 = 2;

/// Offset of differential 0 in the widened results table: differentials
/// run from -(99 + 9) (the most a side can be behind, with intrinsic
/// defense) to +99.
const DIFF_OFFSET: i32 = MAX_STRENGTH as i32 + 9;
/// Columns of the widened results table.
const DIFFERENTIALS: i32 = DIFF_OFFSET + MAX_STRENGTH as i32 + 1;

/// State flag: the side's neutral fleets must Reverse [24.44].
pub const FORCED_REVERSE: u8 = 1;
/// State flag: the side's influenced neutral is lost to it [24.42, 24.43].
pub const NEUTRAL_REVERTED: u8 = 2;
/// State flag: the side's neutral fleets have left the battle [24.43].
pub const NEUTRAL_LEFT: u8 = 4;

/// Outcome: the first side eliminates the second and holds the city.
pub const OUT_FIRST_ELIMINATES: u16 = 0;
/// Outcome: the second side eliminates the first.
pub const OUT_SECOND_ELIMINATES: u16 = 1;
/// Outcome: both are eliminated in the same round.
pub const OUT_MUTUAL: u16 = 2;
/// Outcome: the first side breaks off by two Reverses; the second holds.
pub const OUT_FIRST_REVERSES: u16 = 3;
/// Outcome: the second side breaks off by two Reverses; the first holds.
pub const OUT_SECOND_REVERSES: u16 = 4;
/// Outcome: broken off by agreement (or both Reverse twice at once); the
/// side that held the city keeps it.
pub const OUT_AGREED: u16 = 5;
/// Outcome: still fighting at the round limit.
pub const OUT_UNDECIDED: u16 = 6;

/// Metric slots.
pub const METRIC_ROUNDS: usize = 0;
/// Strength left to the first side (index + side).
pub const METRIC_LEFT: usize = 1;
/// Commanders captured from the first side (index + side).
pub const METRIC_CAPTURED: usize = 3;
/// Whether the side's influenced neutral was lost (index + side).
pub const METRIC_NEUTRAL_LOST: usize = 5;

// ---------------------------------------------------------------- scenario

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FleetFile {
    model: String,
    description: String,
    data: Option<String>,
    capital: Option<String>,
    holder: Option<String>,
    phasing: Option<String>,
    max_rounds: Option<i64>,
    sides: Vec<SideFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideFile {
    label: Option<String>,
    nation: String,
    strength: i64,
    #[serde(default)]
    commanders: Vec<String>,
    neutral: Option<NeutralFile>,
    #[serde(default)]
    policy: PolicyFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NeutralFile {
    nation: String,
    strength: i64,
    #[serde(default)]
    commanders: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct PolicyFile {
    maneuver: Option<String>,
    break_off_behind: Option<f64>,
    accept_break_off: bool,
    losses: Option<String>,
}

// ---------------------------------------------------------------- set-up

/// An influenced neutral's fleets fighting on a side [24.21, 24.4].
#[derive(Debug, Clone, PartialEq)]
pub struct NeutralForce {
    /// Index of the neutral's nation.
    pub nation: usize,
    /// Its strength points.
    pub strength: u8,
    /// Its commanders (indices into the data's commanders).
    pub commanders: Vec<usize>,
}

/// One side's forces in the city.
#[derive(Debug, Clone, PartialEq)]
pub struct Force {
    /// Name used in outcome labels.
    pub label: String,
    /// Index of the side's own nation.
    pub nation: usize,
    /// Strength points of the side's own ("home") fleets.
    pub strength: u8,
    /// Commanders of the side's nation present (indices into the data).
    pub commanders: Vec<usize>,
    /// Influenced neutral fleets fighting with it, if any.
    pub neutral: Option<NeutralForce>,
}

impl Force {
    /// Home and neutral strength together.
    pub fn total(&self) -> u8 {
        self.strength + self.neutral.as_ref().map_or(0, |n| n.strength)
    }
}

/// Who fights where.
#[derive(Debug, Clone, PartialEq)]
pub struct BattleSetup {
    /// The two sides.
    pub sides: [Force; 2],
    /// The capital fought over, if the battle is in one (index into the
    /// data's capitals).
    pub capital: Option<usize>,
    /// The side that held the city when combat began, if any [23.22].
    pub holder: Option<usize>,
    /// The phasing side, attacker on equal strength [23.0 PROCEDURE].
    pub phasing: usize,
}

/// How a side picks its maneuver each round.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ManeuverPolicy {
    /// Each of the nine maneuvers with equal probability.
    Uniform,
    /// Always the same maneuver.
    Favourite(usize),
    /// The optimal mixed strategy of the one-round modifier game (the
    /// maneuver matrix as a zero-sum game, solved by linear programming).
    Minimax,
}

/// Which fleets a side loses first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LossOrder {
    /// Its own nation's fleets, sparing the neutral [24.43].
    HomeFirst,
    /// The neutral's fleets (which then leave the battle [24.43]).
    NeutralFirst,
}

/// A side's policy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SidePolicy {
    /// How it picks maneuvers.
    pub maneuver: ManeuverPolicy,
    /// It wants out once the enemy has at least this many times its
    /// strength; `None`: never.
    pub break_off_behind: Option<f64>,
    /// It agrees when the enemy proposes to break off.
    pub accept_break_off: bool,
    /// Which fleets it loses first.
    pub losses: LossOrder,
}

impl Default for SidePolicy {
    fn default() -> Self {
        SidePolicy {
            maneuver: ManeuverPolicy::Uniform,
            break_off_behind: None,
            accept_break_off: false,
            losses: LossOrder::HomeFirst,
        }
    }
}

// ---------------------------------------------------------------- mechanics

/// A maneuver policy as integer weights, sampled with one bounded draw that
/// also rolls the side's d10.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ManeuverMix {
    /// Weight of each maneuver.
    pub weights: [u32; MANEUVERS],
    /// Running sums of the weights.
    cumulative: [u32; MANEUVERS],
    /// Sum of the weights.
    pub total: u32,
}

impl ManeuverMix {
    /// A mix from integer weights (at least one positive).
    pub fn from_weights(weights: [u32; MANEUVERS]) -> Self {
        let mut cumulative = [0; MANEUVERS];
        let mut sum = 0;
        for (c, w) in cumulative.iter_mut().zip(weights) {
            sum += w;
            *c = sum;
        }
        ManeuverMix {
            weights,
            cumulative,
            total: sum,
        }
    }

    /// Probabilities quantised to [`MIX_RESOLUTION`] by largest remainders.
    pub fn from_probabilities(p: &[f64]) -> Self {
        let scaled: Vec<f64> = p.iter().map(|x| x * f64::from(MIX_RESOLUTION)).collect();
        let mut weights = [0u32; MANEUVERS];
        for (w, s) in weights.iter_mut().zip(&scaled) {
            *w = s.floor() as u32;
        }
        let mut short = MIX_RESOLUTION - weights.iter().sum::<u32>();
        let mut order: Vec<usize> = (0..MANEUVERS).collect();
        order.sort_by(|a, b| {
            let ra = scaled[*a] - scaled[*a].floor();
            let rb = scaled[*b] - scaled[*b].floor();
            rb.total_cmp(&ra).then(a.cmp(b))
        });
        for i in order {
            if short == 0 {
                break;
            }
            weights[i] += 1;
            short -= 1;
        }
        Self::from_weights(weights)
    }

    /// Probability of maneuver `i`.
    pub fn probability(&self, i: usize) -> f64 {
        f64::from(self.weights[i]) / f64::from(self.total)
    }

    /// The maneuver whose share of `0..total` holds `u`.
    #[inline]
    pub fn pick(&self, u: u32) -> usize {
        self.cumulative[..MANEUVERS - 1]
            .iter()
            .map(|c| usize::from(*c <= u))
            .sum()
    }

    /// The table one bounded draw reads: entry `x` of `0..total * 10` is
    /// the maneuver `pick(x / 10)` and the d10 face `x % 10 + 1` (the die's 0
    /// reads 10 [3.6]), packed as `maneuver << 4 | face`.
    pub fn event_table(&self) -> Vec<u8> {
        (0..self.total * 10)
            .map(|x| (self.pick(x / 10) as u8) << 4 | (x % 10 + 1) as u8)
            .collect()
    }
}

/// The fighting state of a battle, by role (0 attacker, 1 defender).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct BattleState {
    /// Strength of the side's own nation's fleets.
    pub home: [u8; 2],
    /// Strength of its influenced neutral fleets.
    pub neutral: [u8; 2],
    /// Consecutive Reverses it has just performed [23.22].
    pub reverses: [u8; 2],
    /// [`FORCED_REVERSE`], [`NEUTRAL_REVERTED`], [`NEUTRAL_LEFT`].
    pub flags: [u8; 2],
}

impl BattleState {
    /// Total strength of role `r`.
    #[inline]
    pub fn total(&self, r: usize) -> u8 {
        self.home[r] + self.neutral[r]
    }

    /// Which fleets role `r` still has: bit 0 home, bit 1 neutral.
    #[inline]
    pub fn presence(&self, r: usize) -> usize {
        usize::from(self.home[r] > 0) | usize::from(self.neutral[r] > 0) << 1
    }
}

/// How a battle ended, by role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum End {
    /// This role has no fleets left.
    Eliminated(usize),
    /// Both were eliminated in the same round.
    Mutual,
    /// This role performed its second consecutive Reverse [23.22].
    Reversed(usize),
    /// Both did at once.
    BothReversed,
    /// Both agreed to break off [23.22].
    Agreed,
    /// The round limit was reached.
    RoundLimit,
}

/// The two sides' choices and dice in one round, by role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RoundPlay {
    /// Maneuver indices.
    pub maneuvers: [usize; 2],
    /// d10 rolls, 1..=10.
    pub rolls: [u32; 2],
}

/// What one round did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundOutcome {
    /// The attacker's modifier (matrix plus leadership); the defender's is
    /// its negative [23.23].
    pub modifier: i32,
    /// Leadership part of the modifier [23.33].
    pub leadership: i32,
    /// Each role's fleet differential (the attacker's counting intrinsic
    /// defense [23.42]).
    pub differentials: [i32; 2],
    /// Strength points each role destroyed.
    pub destroyed: [u8; 2],
    /// The state after the round.
    pub next: BattleState,
    /// Whether the battle is over.
    pub end: Option<End>,
}

/// How a battle ended, by side: the outcome and the metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Terminal {
    /// Outcome index (`OUT_*`).
    pub outcome: u16,
    /// Strength left per side.
    pub left: [u8; 2],
    /// Commanders captured per side [23.26].
    pub captured: [u8; 2],
    /// Whether each side's influenced neutral was lost [24.42, 24.43].
    pub neutral_lost: [u8; 2],
}

/// A fought battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BattleResult {
    /// How it ended.
    pub terminal: Terminal,
    /// Rounds fought.
    pub rounds: u32,
}

/// A battle compiled for fast resolution.
#[derive(Debug, Clone)]
pub struct Battle {
    tables: FleetTables,
    /// Side index of each role.
    side_of_role: [usize; 2],
    start: BattleState,
    mixes: [ManeuverMix; 2],
    /// Per role, the maneuver and die of each value of its one draw.
    events: [Vec<u8>; 2],
    /// The matrix flattened, `attacker << 4 | defender`, so that any pair
    /// of 4-bit maneuver codes indexes it without a bounds check.
    matrix: [i8; 256],
    /// The leadership edge of the attacker, by both presence masks
    /// (`attacker * 4 + defender`).
    lead: [i32; 16],
    /// The results table widened so that no lookup needs clamping:
    /// `(differential + DIFF_OFFSET) * rows + (modified roll + roll_offset)`.
    padded: Vec<u8>,
    /// Rows of `padded` and the offset of modified roll 0 in a row.
    padded_rows: i32,
    roll_offset: i32,
    /// Number of pairs of event-table entries (one draw decides both).
    pair_bound: u32,
    /// `floor(2^64 / defender's table length) + 1`: divides by it exactly.
    split: u64,
    /// Whether any side has a break-off rule.
    any_break_off: bool,
    /// No neutral fleets and no break-off rule: every round is fought by
    /// both home fleets freely, so [`Battle::resolve`] runs a specialised
    /// copy of the same round code with those branches compiled away.
    plain: bool,
    /// Who leads, by role and presence mask (for traces).
    leader: [[Option<String>; 4]; 2],
    /// Intrinsic defense by the defender's presence mask [23.4].
    intrinsic: [i32; 4],
    break_off: [Option<f64>; 2],
    accept: [bool; 2],
    losses: [LossOrder; 2],
    /// Commanders per role: `[home, neutral]`.
    commanders: [[u8; 2]; 2],
    holder: Option<usize>,
    labels: [String; 2],
    max_rounds: u32,
}

impl Battle {
    /// Compiles a battle: picks the attacker [23.0], precomputes leadership,
    /// intrinsic defense and the maneuver mixes. The minimax mix is solved
    /// here, once.
    pub fn new(
        data: &JcData,
        setup: &BattleSetup,
        policies: &[SidePolicy; 2],
        max_rounds: u32,
    ) -> Result<Self, String> {
        let tables = data.tables.clone();
        let totals = [setup.sides[0].total(), setup.sides[1].total()];
        // [23.0 PROCEDURE] more strength attacks; the phasing side on a tie.
        let attacker = match totals[0].cmp(&totals[1]) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => setup.phasing,
        };
        let side_of_role = [attacker, 1 - attacker];
        let minimax = if policies
            .iter()
            .any(|p| p.maneuver == ManeuverPolicy::Minimax)
        {
            let matrix: Vec<Vec<f64>> = tables
                .matrix
                .iter()
                .map(|r| r.iter().map(|v| f64::from(*v)).collect())
                .collect();
            Some(solve_zero_sum(&matrix).map_err(|e| e.to_string())?)
        } else {
            None
        };
        let mut start = BattleState::default();
        let mut mixes = [ManeuverMix::from_weights([1; MANEUVERS]); 2];
        let mut leadership = [[0i32; 4]; 2];
        let mut leader: [[Option<String>; 4]; 2] = Default::default();
        let mut commanders = [[0u8; 2]; 2];
        for role in 0..2 {
            let force = &setup.sides[side_of_role[role]];
            let policy = &policies[side_of_role[role]];
            start.home[role] = force.strength;
            start.neutral[role] = force.neutral.as_ref().map_or(0, |n| n.strength);
            mixes[role] = match (policy.maneuver, &minimax) {
                (ManeuverPolicy::Uniform, _) => ManeuverMix::from_weights([1; MANEUVERS]),
                (ManeuverPolicy::Favourite(m), _) => {
                    let mut w = [0; MANEUVERS];
                    w[m] = 1;
                    ManeuverMix::from_weights(w)
                }
                (ManeuverPolicy::Minimax, Some(s)) => {
                    ManeuverMix::from_probabilities(if role == 0 {
                        &s.row_strategy
                    } else {
                        &s.column_strategy
                    })
                }
                (ManeuverPolicy::Minimax, None) => unreachable!("solved above"),
            };
            let neutral_commanders: &[usize] =
                force.neutral.as_ref().map_or(&[], |n| &n.commanders);
            commanders[role] = [force.commanders.len() as u8, neutral_commanders.len() as u8];
            for mask in 0..4 {
                // [23.31] the best commander present leads; [24.45, 24.46] only
                // while a fleet of his own nation is in the battle.
                let mut eligible: Vec<usize> = Vec::new();
                if mask & 1 != 0 {
                    eligible.extend(&force.commanders);
                }
                if mask & 2 != 0 {
                    eligible.extend(neutral_commanders);
                }
                let best = eligible
                    .iter()
                    .max_by_key(|c| (data.commanders[**c].leadership, std::cmp::Reverse(**c)));
                leadership[role][mask] =
                    best.map_or(0, |c| i32::from(data.commanders[*c].leadership));
                leader[role][mask] = best.map(|c| data.commanders[*c].name.clone());
            }
        }
        let mut intrinsic = [0i32; 4];
        if let Some(c) = setup.capital {
            let capital = &data.capitals[c];
            let defender = &setup.sides[side_of_role[1]];
            for (mask, value) in intrinsic.iter_mut().enumerate() {
                // [23.44] only a fleet of the capital's own nation uses it.
                let home = mask & 1 != 0 && defender.nation == capital.nation;
                let neutral = mask & 2 != 0
                    && defender
                        .neutral
                        .as_ref()
                        .is_some_and(|n| n.nation == capital.nation);
                if home || neutral {
                    *value = i32::from(capital.intrinsic_defense);
                }
            }
        }
        let by_role = |r: usize| &policies[side_of_role[r]];
        let mut matrix = [0i8; 256];
        for (i, row) in tables.matrix.iter().enumerate() {
            matrix[i << 4..(i << 4) + MANEUVERS].copy_from_slice(row);
        }
        let mut lead = [0i32; 16];
        for (i, l) in lead.iter_mut().enumerate() {
            *l = leadership[0][i / 4] - leadership[1][i % 4];
        }
        // Every modified roll a battle can see: the die, the largest matrix
        // entry and the largest leadership edge either way.
        let reach = tables
            .matrix
            .iter()
            .flatten()
            .map(|v| i32::from(v.abs()))
            .max()
            .unwrap_or(0)
            + lead.iter().map(|v| v.abs()).max().unwrap_or(0);
        let padded_rows = 10 + 2 * reach;
        let roll_offset = reach - 1;
        let mut padded = Vec::with_capacity((DIFFERENTIALS * padded_rows) as usize);
        for diff in -DIFF_OFFSET..DIFFERENTIALS - DIFF_OFFSET {
            for row in 0..padded_rows {
                padded.push(tables.results.destroyed(diff, row - roll_offset));
            }
        }
        let events = [mixes[0].event_table(), mixes[1].event_table()];
        let lengths = [events[0].len() as u32, events[1].len() as u32];
        Ok(Battle {
            pair_bound: lengths[0] * lengths[1],
            split: u64::MAX / u64::from(lengths[1]) + 1,
            events,
            matrix,
            lead,
            padded,
            padded_rows,
            roll_offset,
            any_break_off: policies.iter().any(|p| p.break_off_behind.is_some()),
            plain: start.neutral == [0, 0] && policies.iter().all(|p| p.break_off_behind.is_none()),
            tables,
            side_of_role,
            start,
            mixes,
            leader,
            intrinsic,
            break_off: [by_role(0).break_off_behind, by_role(1).break_off_behind],
            accept: [by_role(0).accept_break_off, by_role(1).accept_break_off],
            losses: [by_role(0).losses, by_role(1).losses],
            commanders,
            holder: setup.holder,
            labels: [setup.sides[0].label.clone(), setup.sides[1].label.clone()],
            max_rounds,
        })
    }

    /// The side (scenario order) that attacks.
    pub fn attacker_side(&self) -> usize {
        self.side_of_role[0]
    }

    /// The side that plays role `role` (0 attacker, 1 defender).
    pub fn side_of_role(&self, role: usize) -> usize {
        self.side_of_role[role]
    }

    /// The state the battle starts in.
    pub fn start(&self) -> BattleState {
        self.start
    }

    /// The tables the battle reads.
    pub fn tables(&self) -> &FleetTables {
        &self.tables
    }

    /// The maneuver mix role `role` plays when free to choose.
    pub fn mix(&self, role: usize) -> &ManeuverMix {
        &self.mixes[role]
    }

    /// Labels of the sides, in scenario order.
    pub fn labels(&self) -> &[String; 2] {
        &self.labels
    }

    /// The round limit.
    pub fn max_rounds(&self) -> u32 {
        self.max_rounds
    }

    /// The side holding the city after an outcome, if any.
    pub fn city_holder(&self, outcome: u16) -> Option<usize> {
        match outcome {
            OUT_FIRST_ELIMINATES | OUT_SECOND_REVERSES => Some(0),
            OUT_SECOND_ELIMINATES | OUT_FIRST_REVERSES => Some(1),
            OUT_AGREED | OUT_UNDECIDED => self.holder,
            _ => None,
        }
    }

    /// At the beginning of a round [23.22]: whether each role wants to break
    /// off, and the end of the battle if both agree.
    #[inline]
    pub fn opening(&self, s: &BattleState) -> (Option<End>, [bool; 2]) {
        let mut wants = [false; 2];
        if !self.any_break_off {
            return (None, wants);
        }
        for (r, want) in wants.iter_mut().enumerate() {
            if let Some(ratio) = self.break_off[r] {
                *want = f64::from(s.total(1 - r)) >= ratio * f64::from(s.total(r));
            }
        }
        // One side proposes; the other wants out too or accepts.
        let agreed = (wants[0] && (wants[1] || self.accept[1]))
            || (wants[1] && (wants[0] || self.accept[0]));
        (agreed.then_some(End::Agreed), wants)
    }

    /// Whether role `r` must Reverse this round: its neutral fleets were
    /// forced to [24.44], or it wants out and the enemy would not agree, so
    /// it disengages by Reverses [23.22].
    #[inline]
    pub fn forced_reverse(&self, s: &BattleState, r: usize, wants: [bool; 2]) -> bool {
        s.flags[r] & FORCED_REVERSE != 0 || wants[r]
    }

    /// The attacker's modifier for a pair of maneuvers and who leads
    /// [23.23, 23.33]: the matrix entry, plus the attacker's leadership
    /// edge or minus the defender's (the difference of the two values).
    #[inline]
    pub fn modifier(&self, s: &BattleState, maneuvers: [usize; 2]) -> (i32, i32) {
        self.modifier_for(Self::presences::<false>(s), maneuvers)
    }

    /// Both roles' presence masks; a plain battle's are home-only while it
    /// lasts (a side with no fleets has ended it).
    #[inline(always)]
    fn presences<const PLAIN: bool>(s: &BattleState) -> [usize; 2] {
        if PLAIN {
            [1, 1]
        } else {
            [s.presence(0), s.presence(1)]
        }
    }

    #[inline(always)]
    fn modifier_for(&self, presence: [usize; 2], maneuvers: [usize; 2]) -> (i32, i32) {
        let lead = self.lead[presence[0] * 4 + presence[1]];
        (
            i32::from(self.matrix[usize::from((maneuvers[0] << 4 | maneuvers[1]) as u8)]) + lead,
            lead,
        )
    }

    /// Plays one round [23.2-23.4] from state `s` with the given maneuvers
    /// and dice.
    #[inline]
    pub fn round(&self, s: &BattleState, play: &RoundPlay) -> RoundOutcome {
        self.round_in::<false>(s, play)
    }

    /// [`Battle::round`], with `PLAIN` promising no neutral fleets (see
    /// [`Battle::plain`](Battle)).
    #[inline(always)]
    fn round_in<const PLAIN: bool>(&self, s: &BattleState, play: &RoundPlay) -> RoundOutcome {
        let total = [i32::from(s.total(0)), i32::from(s.total(1))];
        let presence = Self::presences::<PLAIN>(s);
        let (modifier, leadership) = self.modifier_for(presence, play.maneuvers);
        // [23.42] intrinsic defense counts as defender strength in the
        // attacker's half only.
        let differentials = [
            total[0] - total[1] - self.intrinsic[presence[1]],
            total[1] - total[0],
        ];
        // The widened table holds `ResultsTable::destroyed` for every
        // reachable differential and roll, edges clamped [23.6].
        let cell = |diff: i32, roll: i32| {
            let i = (diff + DIFF_OFFSET) * self.padded_rows + roll + self.roll_offset;
            self.padded[i as usize]
        };
        let destroyed = [
            cell(differentials[0], play.rolls[0] as i32 + modifier),
            cell(differentials[1], play.rolls[1] as i32 - modifier),
        ];
        // [23.2] losses are simultaneous, from the strengths at the start.
        let mut next = if PLAIN {
            // Spelled out so the compiler knows the other fields stay 0.
            BattleState {
                home: s.home,
                reverses: s.reverses,
                ..BattleState::default()
            }
        } else {
            *s
        };
        let elected = if PLAIN || (s.neutral[0] | s.neutral[1]) == 0 {
            next.home[0] = s.home[0].saturating_sub(destroyed[1]);
            next.home[1] = s.home[1].saturating_sub(destroyed[0]);
            [false; 2]
        } else {
            [
                self.take_losses(&mut next, 0, destroyed[1]),
                self.take_losses(&mut next, 1, destroyed[0]),
            ]
        };
        let reverse = self.tables.reverse;
        for r in 0..2 {
            next.reverses[r] = (s.reverses[r] + 1) * u8::from(play.maneuvers[r] == reverse);
        }
        let code = u8::from(next.total(0) == 0)
            | u8::from(next.total(1) == 0) << 1
            | u8::from(next.reverses[0] >= REVERSES_TO_BREAK_OFF) << 2
            | u8::from(next.reverses[1] >= REVERSES_TO_BREAK_OFF) << 3;
        let end = if code == 0 { None } else { Some(end_of(code)) };
        if end.is_none() && (elected[0] | elected[1]) {
            // [24.43] neutrals a player chose to lose leave as the next
            // round begins.
            for (r, chose) in elected.iter().enumerate() {
                if *chose {
                    next.neutral[r] = 0;
                    next.flags[r] |= NEUTRAL_LEFT;
                }
            }
        }
        RoundOutcome {
            modifier,
            leadership,
            differentials,
            destroyed,
            next,
            end,
        }
    }

    /// Removes `n` strength points from role `r` in the order of its
    /// policy; returns whether it chose to lose neutral fleets it could
    /// have spared [24.43].
    #[inline]
    fn take_losses(&self, s: &mut BattleState, r: usize, n: u8) -> bool {
        let home_before = s.home[r];
        let from_neutral = match self.losses[r] {
            LossOrder::HomeFirst => {
                let from_home = n.min(s.home[r]);
                s.home[r] -= from_home;
                let x = (n - from_home).min(s.neutral[r]);
                s.neutral[r] -= x;
                x
            }
            LossOrder::NeutralFirst => {
                let x = n.min(s.neutral[r]);
                s.neutral[r] -= x;
                let from_home = (n - x).min(s.home[r]);
                s.home[r] -= from_home;
                x
            }
        };
        if from_neutral == 0 {
            return false;
        }
        s.flags[r] |= NEUTRAL_REVERTED;
        if home_before > 0 && self.losses[r] == LossOrder::NeutralFirst {
            true
        } else {
            // [24.42, 24.44] losses forced onto the neutral once the home
            // fleets are gone: it reverts and Reverses out of the battle.
            s.flags[r] |= FORCED_REVERSE;
            false
        }
    }

    /// The outcome and metrics of a battle that ended in state `s` [23.26].
    pub fn terminal(&self, s: &BattleState, end: End) -> Terminal {
        let side = |role: usize| self.side_of_role[role] as u16;
        let outcome = match end {
            End::Eliminated(r) => {
                if side(r) == 0 {
                    OUT_SECOND_ELIMINATES
                } else {
                    OUT_FIRST_ELIMINATES
                }
            }
            End::Mutual => OUT_MUTUAL,
            End::Reversed(r) => {
                if side(r) == 0 {
                    OUT_FIRST_REVERSES
                } else {
                    OUT_SECOND_REVERSES
                }
            }
            End::BothReversed | End::Agreed => OUT_AGREED,
            End::RoundLimit => OUT_UNDECIDED,
        };
        let mut t = Terminal {
            outcome,
            left: [0; 2],
            captured: [0; 2],
            neutral_lost: [0; 2],
        };
        for role in 0..2 {
            let sd = self.side_of_role[role];
            t.left[sd] = s.total(role);
            t.neutral_lost[sd] = u8::from(s.flags[role] & NEUTRAL_REVERTED != 0);
            if s.total(role) == 0 {
                // [23.26] every commander still with the fleets is taken;
                // a neutral's who left with it [24.43] are not.
                let [home, neutral] = self.commanders[role];
                t.captured[sd] = home
                    + if s.flags[role] & NEUTRAL_LEFT != 0 {
                        0
                    } else {
                        neutral
                    };
            }
        }
        t
    }

    /// Fights the battle with `dice` [23.0-23.4, 24.42-24.46].
    pub fn resolve<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> BattleResult {
        if self.plain {
            self.fight::<T, true>(dice, trace)
        } else {
            self.fight::<T, false>(dice, trace)
        }
    }

    /// The battle loop; `PLAIN` as in [`Battle::round_in`], and then no side
    /// ever wants to break off or is forced to Reverse.
    #[inline(always)]
    fn fight<T: Trace, const PLAIN: bool>(&self, dice: &mut Dice, trace: &mut T) -> BattleResult {
        if T::ENABLED {
            self.trace_opening(trace);
        }
        let mut s = if PLAIN {
            BattleState {
                home: self.start.home,
                ..BattleState::default()
            }
        } else {
            self.start
        };
        let mut rounds = 0u32;
        loop {
            let (agreed, wants) = if PLAIN {
                (None, [false; 2])
            } else {
                self.opening(&s)
            };
            if let Some(end) = agreed {
                trace.event("JC 23.22 break-off", || {
                    "both sides agree to break off".to_string()
                });
                return self.result(&s, end, rounds, trace);
            }
            if rounds == self.max_rounds {
                return self.result(&s, End::RoundLimit, rounds, trace);
            }
            rounds += 1;
            let forced = if PLAIN {
                [false; 2]
            } else {
                [
                    self.forced_reverse(&s, 0, wants),
                    self.forced_reverse(&s, 1, wants),
                ]
            };
            let play = self.draw_play(dice, forced);
            let out = self.round_in::<PLAIN>(&s, &play);
            if T::ENABLED {
                self.trace_round(trace, rounds, &s, &play, &out, wants);
            }
            s = out.next;
            if let Some(end) = out.end {
                return self.result(&s, end, rounds, trace);
            }
        }
    }

    /// Both sides' maneuvers and dice for a round. When both choose freely,
    /// one bounded draw over the pairs of their event tables decides all
    /// four (split exactly by a multiply-high division); a side forced to
    /// Reverse rolls only its die.
    #[inline(always)]
    fn draw_play(&self, dice: &mut Dice, forced: [bool; 2]) -> RoundPlay {
        let mut x = [0u32; 2];
        if forced == [false, false] {
            let pair = dice.d(self.pair_bound) - 1;
            let first = ((u128::from(self.split) * u128::from(pair)) >> 64) as u32;
            x = [first, pair - first * self.events[1].len() as u32];
        } else {
            for r in 0..2 {
                if !forced[r] {
                    x[r] = dice.d(self.events[r].len() as u32) - 1;
                }
            }
        }
        let mut play = RoundPlay::default();
        for r in 0..2 {
            if forced[r] {
                play.maneuvers[r] = self.tables.reverse;
                play.rolls[r] = dice.d10();
            } else {
                let e = self.events[r][x[r] as usize];
                play.maneuvers[r] = usize::from(e >> 4);
                play.rolls[r] = u32::from(e & 15);
            }
        }
        play
    }

    fn result<T: Trace>(
        &self,
        s: &BattleState,
        end: End,
        rounds: u32,
        trace: &mut T,
    ) -> BattleResult {
        let terminal = self.terminal(s, end);
        trace.event("JC 23.22 end of combat", || {
            let holder = match self.city_holder(terminal.outcome) {
                Some(h) => format!("{} holds the city", self.labels[h]),
                None => "no fleet holds the city".into(),
            };
            let name = |r: usize| &self.labels[self.side_of_role[r]];
            let how = match end {
                End::Eliminated(r) => format!("{} eliminated", name(r)),
                End::Mutual => "both fleets eliminated".into(),
                End::Reversed(r) => format!("{} breaks off with two Reverses", name(r)),
                End::BothReversed => "both break off with two Reverses".into(),
                End::Agreed => "broken off by agreement".into(),
                End::RoundLimit => "round limit reached".into(),
            };
            format!(
                "{how} after {rounds} rounds; {holder}; strength left {} {} / {} {}; commanders captured {} / {}",
                self.labels[0],
                terminal.left[0],
                self.labels[1],
                terminal.left[1],
                terminal.captured[0],
                terminal.captured[1]
            )
        });
        BattleResult { terminal, rounds }
    }

    fn trace_opening<T: Trace>(&self, trace: &mut T) {
        let s = &self.start;
        trace.event("JC 23.0 attacker", || {
            format!(
                "{} attacks with {} strength points against {} of {}; intrinsic defense {}",
                self.labels[self.side_of_role[0]],
                s.total(0),
                s.total(1),
                self.labels[self.side_of_role[1]],
                self.intrinsic[s.presence(1)]
            )
        });
    }

    fn trace_round<T: Trace>(
        &self,
        trace: &mut T,
        round: u32,
        s: &BattleState,
        play: &RoundPlay,
        out: &RoundOutcome,
        wants: [bool; 2],
    ) {
        let name = |r: usize| &self.labels[self.side_of_role[r]];
        let maneuver = |r: usize| {
            let m = &self.tables.maneuvers[play.maneuvers[r]].name;
            if s.flags[r] & FORCED_REVERSE != 0 {
                format!("{m} (neutrals forced, 24.44)")
            } else if wants[r] {
                format!("{m} (breaking off)")
            } else {
                m.clone()
            }
        };
        let leader = |r: usize| {
            self.leader[r][s.presence(r)]
                .clone()
                .unwrap_or_else(|| "no commander".into())
        };
        trace.event("JC 23.23/23.33 maneuvers and leadership", || {
            format!(
                "round {round}: {} {} vs {} {}: matrix {:+}, leadership {:+} ({} vs {}) -> attacker {:+}, defender {:+}",
                name(0),
                maneuver(0),
                name(1),
                maneuver(1),
                out.modifier - out.leadership,
                out.leadership,
                leader(0),
                leader(1),
                out.modifier,
                -out.modifier
            )
        });
        trace.event("JC 23.2/23.42 results table", || {
            format!(
                "{} rolls {}{:+} on differential {:+} -> {} destroyed; {} rolls {}{:+} on differential {:+} -> {} destroyed; strength now {} / {}",
                name(0),
                play.rolls[0],
                out.modifier,
                out.differentials[0],
                out.destroyed[0],
                name(1),
                play.rolls[1],
                -out.modifier,
                out.differentials[1],
                out.destroyed[1],
                out.next.total(0),
                out.next.total(1)
            )
        });
    }
}

/// How a round ended, from its bits: 1 attacker gone, 2 defender gone,
/// 4 attacker's second Reverse, 8 defender's [23.22]. Elimination comes
/// first: a fleet destroyed in the round of its second Reverse is lost.
fn end_of(code: u8) -> End {
    match (code & 3, code >> 2) {
        (3, _) => End::Mutual,
        (1, _) => End::Eliminated(0),
        (2, _) => End::Eliminated(1),
        (_, 3) => End::BothReversed,
        (_, 1) => End::Reversed(0),
        _ => End::Reversed(1),
    }
}

/// Fights `battle` once with `dice`: the entry point for callers that
/// embed fleet combat in a larger game.
pub fn resolve_battle(battle: &Battle, dice: &mut Dice) -> BattleResult {
    battle.resolve(dice, &mut crate::engine::NoTrace)
}

// ---------------------------------------------------------------- model

/// The `jc.fleet` model: one battle per trial.
#[derive(Debug, Clone)]
pub struct JcFleet {
    battle: Battle,
    spec: OutputSpec,
}

impl JcFleet {
    /// Loads a `jc.fleet` scenario and the data it names (default folder:
    /// `../data` beside the scenario's folder).
    pub fn load(path: &Path) -> Result<(Self, String), ScenarioError> {
        let text = read_text(path)?;
        let file: FleetFile = parse_toml(path, &text)?;
        crate::scenario::expect_model(path, &file.model, "jc.fleet")?;
        let data_dir = crate::scenario::data_dir(path, file.data.as_deref());
        let data = JcData::load(&data_dir)?;
        let model = Self::build(path, &file, &data)?;
        Ok((model, file.description))
    }

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

fn check_strength(value: i64, _field: &str) -> Result<u8, String> {
    if (1..=i64::from(MAX_STRENGTH)).contains(&value) {
        Ok(value as u8)
    } else {
        Err(format!(
            "expected 1 to {MAX_STRENGTH} fleet strength points, found {value}"
        ))
    }
}

fn resolve_commanders(
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

fn resolve_policy(
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

fn metric(name: &str, description: String) -> MetricSpec {
    MetricSpec {
        name: name.into(),
        description,
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
    let mut metrics = vec![metric("rounds", "rounds of fleet combat".into())];
    let sides = [(a, "a"), (b, "b")];
    for (side, key) in sides {
        metrics.push(metric(
            &format!("left_{key}"),
            format!("{side} strength points left"),
        ));
    }
    for (side, key) in sides {
        metrics.push(metric(
            &format!("captured_{key}"),
            format!("{side} commanders captured"),
        ));
    }
    for (side, key) in sides {
        metrics.push(metric(
            &format!("neutral_lost_{key}"),
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
        super::fleet_exact::solve(&self.battle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoTrace;

    /// The plain specialisation must fight exactly the battle the general
    /// code fights: same dice in, same result out, trial by trial.
    #[test]
    fn plain_specialisation_fights_the_same_battles() {
        for name in ["ten-vs-seven-open-sky", "minimax-vs-uniform", "even-fight"] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(format!("scenarios/jc/fleet/{name}.toml"));
            let battle = match JcFleet::load(&path) {
                Ok((model, _)) => model.battle,
                Err(e) => panic!("{e}"),
            };
            assert!(battle.plain, "{name} has neither neutrals nor break-off");
            for trial in 0..20_000 {
                let mut plain_dice = Dice::for_trial(7, trial);
                let mut general_dice = Dice::for_trial(7, trial);
                let plain = battle.fight::<NoTrace, true>(&mut plain_dice, &mut NoTrace);
                let general = battle.fight::<NoTrace, false>(&mut general_dice, &mut NoTrace);
                assert_eq!(plain, general, "{name}, trial {trial}");
                assert_eq!(plain_dice.next_u64(), general_dice.next_u64());
            }
        }
    }
}
