//! Per-trial random streams and an unbiased dice sampler.
//!
//! Trial `i` of a run with master seed `s` draws from its own
//! `Xoshiro256PlusPlus`, seeded from a SplitMix64 mix of the pair `(s, i)`.
//! Neighbouring trials therefore get unrelated streams, any trial can be
//! replayed alone, and the result of a run does not depend on how the trial
//! range is split across threads or processes.

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The golden-ratio increment of SplitMix64.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function (Stafford's "Mix13" finaliser).
#[inline]
pub(crate) fn splitmix64_mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Mixes a master seed and a trial index into one 64-bit key. The seed is
/// finalised before the index is folded in, so `(s, i)` and `(s + 1, i - 1)`
/// land far apart.
#[inline]
pub(crate) fn stream_key(seed: u64, trial: u64) -> u64 {
    splitmix64_mix(
        splitmix64_mix(seed ^ GOLDEN_GAMMA).wrapping_add(trial.wrapping_mul(GOLDEN_GAMMA)) ^ trial,
    )
}

/// The generator for trial `trial` of a run seeded with `seed`: the 256-bit
/// state is four consecutive SplitMix64 outputs started at the mixed key.
#[inline]
pub(crate) fn trial_rng(seed: u64, trial: u64) -> Xoshiro256PlusPlus {
    let mut state = stream_key(seed, trial);
    let mut bytes = [0u8; 32];
    for word in bytes.chunks_exact_mut(8) {
        state = state.wrapping_add(GOLDEN_GAMMA);
        word.copy_from_slice(&splitmix64_mix(state).to_le_bytes());
    }
    Xoshiro256PlusPlus::from_seed(bytes)
}

/// Dice drawn from one trial's stream.
///
/// Bounded integers use Lemire's nearly-divisionless method, which is
/// unbiased and does not change when the `rand` crates change their own
/// samplers: a fixed seed always yields the same rolls. A copy (`clone`)
/// rolls on from the same point, which is how a search replays a turn.
#[derive(Clone)]
pub struct Dice {
    rng: Xoshiro256PlusPlus,
    rolled: u32,
    trial: u64,
}

impl Dice {
    /// Dice for trial `trial` of a run seeded with `seed`.
    #[inline]
    pub fn for_trial(seed: u64, trial: u64) -> Self {
        Dice {
            rng: trial_rng(seed, trial),
            rolled: 0,
            trial,
        }
    }

    /// The index of the trial these dice belong to, for models that
    /// alternate something by trial (e.g. which seat plays which colour).
    #[inline]
    pub fn trial(&self) -> u64 {
        self.trial
    }

    /// How many dice (and coins) this stream has rolled so far: a 3d6 roll
    /// counts as three dice, though it is drawn at once.
    #[inline]
    pub fn rolled(&self) -> u32 {
        self.rolled
    }

    /// Switches to the stream keyed by `key` (a search playout's own
    /// stream, derived from the trial's), keeping the trial index.
    #[inline]
    pub fn reseed(&mut self, key: u64) {
        self.rng = trial_rng(key, self.trial);
        self.rolled = 0;
    }

    /// The next raw 64-bit output of the stream.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// A uniform integer in `0..bound` (`bound` > 0), by Lemire's method.
    #[inline]
    pub fn below(&mut self, bound: u32) -> u32 {
        debug_assert!(bound > 0);
        let bound = u64::from(bound);
        let mut product = (self.rng.next_u64() >> 32) * bound;
        let mut low = product as u32;
        if u64::from(low) < bound {
            let threshold = ((1u64 << 32) - bound) % bound;
            while u64::from(low) < threshold {
                product = (self.rng.next_u64() >> 32) * bound;
                low = product as u32;
            }
        }
        (product >> 32) as u32
    }

    /// One die with `sides` faces, read 1..=sides.
    #[inline]
    pub fn d(&mut self, sides: u32) -> u32 {
        self.rolled = self.rolled.wrapping_add(1);
        self.below(sides) + 1
    }

    /// The sum of `count` dice with `sides` faces each.
    #[inline]
    pub fn nd(&mut self, count: u32, sides: u32) -> u32 {
        (0..count).map(|_| self.d(sides)).sum()
    }

    /// A six-sided die.
    #[inline]
    pub fn d6(&mut self) -> u32 {
        self.d(6)
    }

    /// Three six-sided dice added together (3..=18), drawn as one uniform
    /// pick among the 216 equally likely ordered throws: the same exact
    /// distribution as three separate dice, for a third of the draws.
    #[inline]
    pub fn three_d6(&mut self) -> u32 {
        self.rolled = self.rolled.wrapping_add(3);
        u32::from(THREE_D6_THROWS[self.below(216) as usize])
    }

    /// A ten-sided die whose "0" face reads as 10, so it returns 1..=10.
    #[inline]
    pub fn d10(&mut self) -> u32 {
        self.d(10)
    }

    /// A fair coin: `true` with probability one half.
    #[inline]
    pub fn coin(&mut self) -> bool {
        self.rolled = self.rolled.wrapping_add(1);
        self.rng.next_u64() >> 63 == 1
    }
}

/// The totals of all 216 ordered throws of three six-sided dice.
const THREE_D6_THROWS: [u8; 216] = {
    let mut table = [0u8; 216];
    let mut i = 0;
    while i < 216 {
        table[i] = (i / 36 + (i / 6) % 6 + i % 6 + 3) as u8;
        i += 1;
    }
    table
};

/// The exact distribution of the sum of `count` dice with `sides` faces:
/// entry `k` is the probability of rolling `k` (entries below `count` are 0).
pub fn sum_distribution(count: u32, sides: u32) -> Vec<f64> {
    let mut ways = vec![1.0f64];
    for _ in 0..count {
        let mut next = vec![0.0; ways.len() + sides as usize];
        for (total, w) in ways.iter().enumerate() {
            for face in 1..=sides as usize {
                next[total + face] += w;
            }
        }
        ways = next;
    }
    let all: f64 = ways.iter().sum();
    ways.iter().map(|w| w / all).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_pinned() {
        // Regression pins: changing the seeding or the sampler changes every
        // published result, so it must be a deliberate decision.
        let mut dice = Dice::for_trial(1, 0);
        let rolls: Vec<u32> = (0..12).map(|_| dice.d6()).collect();
        let mut other = Dice::for_trial(1, 1);
        let other_rolls: Vec<u32> = (0..12).map(|_| other.d10()).collect();
        assert_eq!(rolls, PINNED_D6_SEED1_TRIAL0);
        assert_eq!(other_rolls, PINNED_D10_SEED1_TRIAL1);
    }

    const PINNED_D6_SEED1_TRIAL0: [u32; 12] = [3, 3, 2, 2, 1, 1, 4, 4, 2, 4, 2, 3];
    const PINNED_D10_SEED1_TRIAL1: [u32; 12] = [2, 8, 3, 9, 3, 8, 4, 1, 2, 6, 5, 1];

    #[test]
    fn neighbouring_seeds_do_not_share_streams() {
        // (s, i+1) and (s+1, i) must not collide as they would with s + i.
        assert_ne!(stream_key(5, 8), stream_key(6, 7));
        assert_ne!(trial_rng(5, 8).next_u64(), trial_rng(6, 7).next_u64());
    }

    #[test]
    fn dice_stay_in_range_and_are_fair() {
        let mut dice = Dice::for_trial(42, 7);
        let mut counts = [0u64; 10];
        let n = 200_000;
        for _ in 0..n {
            let face = dice.d10();
            assert!((1..=10).contains(&face));
            counts[face as usize - 1] += 1;
        }
        // Each face within 5 standard errors of n/10.
        let expected = n as f64 / 10.0;
        let sd = (n as f64 * 0.1 * 0.9).sqrt();
        for c in counts {
            assert!((c as f64 - expected).abs() < 5.0 * sd, "{counts:?}");
        }
    }

    #[test]
    fn three_d6_throw_table_matches_the_exact_distribution() {
        let exact = sum_distribution(3, 6);
        for total in 3..=18u8 {
            let ways = THREE_D6_THROWS.iter().filter(|t| **t == total).count();
            assert!(
                (ways as f64 / 216.0 - exact[usize::from(total)]).abs() < 1e-15,
                "{total}"
            );
        }
        let mut dice = Dice::for_trial(9, 9);
        let rolls: Vec<u32> = (0..10).map(|_| dice.three_d6()).collect();
        assert_eq!(rolls, PINNED_3D6_SEED9_TRIAL9);
    }

    const PINNED_3D6_SEED9_TRIAL9: [u32; 10] = [10, 10, 13, 9, 6, 6, 6, 7, 9, 16];

    #[test]
    fn three_d6_distribution_is_exact() {
        let dist = sum_distribution(3, 6);
        assert_eq!(dist.len(), 19);
        assert!((dist[10] - 27.0 / 216.0).abs() < 1e-15);
        assert!((dist[18] - 1.0 / 216.0).abs() < 1e-15);
        assert!((dist.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
