//! The state and rules of one battle: forces, the compiled [`Battle`], its
//! rounds, losses, Reverses and ends [23.0-23.6, 24.4].

use super::players::{LossOrder, ManeuverMix, ManeuverPolicy, SidePolicy};
use super::tables::{FleetTables, JcData, MANEUVERS};
use barsoom_engine::math::matrix_game::solve_zero_sum;
use barsoom_engine::{Dice, Trace};

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
    pub(crate) fn presence(&self, r: usize) -> usize {
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
    battle.resolve(dice, &mut barsoom_engine::NoTrace)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScenarioModel;
    use crate::jc::fleet::model::JcFleet;
    use barsoom_engine::NoTrace;

    /// The plain specialisation must fight exactly the battle the general
    /// code fights: same dice in, same result out, trial by trial.
    #[test]
    fn plain_specialisation_fights_the_same_battles() {
        for name in ["ten-vs-seven-open-sky", "minimax-vs-uniform", "even-fight"] {
            let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
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
