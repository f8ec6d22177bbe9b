//! The maneuver policies: fixed, uniform, minimax mixes, and the order in
//! which a side takes losses.

use super::battle::MIX_RESOLUTION;
use super::tables::MANEUVERS;

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
    pub(crate) fn from_weights(weights: [u32; MANEUVERS]) -> Self {
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
    pub(crate) fn from_probabilities(p: &[f64]) -> Self {
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
    pub(crate) fn event_table(&self) -> Vec<u8> {
        (0..self.total * 10)
            .map(|x| (self.pick(x / 10) as u8) << 4 | (x % 10 + 1) as u8)
            .collect()
    }
}
