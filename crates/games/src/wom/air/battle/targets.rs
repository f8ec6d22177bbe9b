//! What the tactics aim for: the range each class fights another at (from
//! the expected effect of a broadside each way) and the target the rules
//! prefer [Method of Fire].

use crate::wom::air::damage::{NONE, ShipState};
use crate::wom::air::fire::{p_2d6_at_least, range_band, to_hit_score};
use crate::wom::air::ships::{ARC_STARBOARD, AirData, Location, TargetFacing};

use super::WomAir;

impl WomAir {
    /// The range (tenths) at which a ship of class `own` fights one of
    /// class `enemy` under `line-of-battle`.
    pub(crate) fn wanted_range(&self, own: usize, enemy: usize) -> i32 {
        self.wanted_range[own * self.data.classes.len() + enemy]
    }
}

/// Expected fraction of a `target`'s maximum damage one broadside of
/// `shooter` deals per turn at `range` (moving targets, broadside presented).
fn broadside_effect(data: &AirData, shooter: usize, target: usize, range: i32) -> f64 {
    let s = &data.classes[shooter];
    let t = &data.classes[target];
    let gun = &data.guns[s.gun];
    if !t.damaged_by[s.gun] {
        return 0.0;
    }
    let guns: u32 = s
        .mounts
        .iter()
        .filter(|m| m.arcs & ARC_STARBOARD != 0)
        .map(|m| u32::from(m.count))
        .sum();
    let p_hit = p_2d6_at_least(to_hit_score(
        data,
        range_band(gun, range),
        t.size,
        false,
        false,
    ));
    let row = &data.location[TargetFacing::Broadside as usize];
    let damaging = (2..=12u32)
        .filter(|r| {
            matches!(
                row[(r - 2) as usize],
                Some(Location::Hull | Location::Critical)
            )
        })
        .map(p_2d6_exact)
        .sum::<f64>();
    f64::from(guns) * p_hit * damaging * f64::from(gun.damage) / f64::from(t.max_damage)
}

fn p_2d6_exact(total: u32) -> f64 {
    f64::from(6 - (total as i32 - 7).unsigned_abs()) / 36.0
}

/// For every pair of classes, the range at which the first fights the
/// second: the candidate range (inside each side's short and medium bands
/// and beyond them) where the ratio of its broadside's expected effect to
/// the enemy's is best (out of reach of harm first); ties go to the closer
/// range.
pub(super) fn wanted_ranges(data: &AirData) -> Vec<i32> {
    let n = data.classes.len();
    let mut out = vec![0; n * n];
    for a in 0..n {
        for b in 0..n {
            let ga = &data.guns[data.classes[a].gun];
            let gb = &data.guns[data.classes[b].gun];
            let mut candidates = [
                ga.short * 2 / 3,
                (ga.short + ga.medium) / 2,
                ga.medium + 30,
                gb.short * 2 / 3,
                gb.short + 15,
                gb.medium + 15,
                gb.medium + 30,
            ];
            candidates.sort_unstable();
            let mut best = candidates[0];
            let mut best_score = f64::NEG_INFINITY;
            for r in candidates {
                let (out, back) = (
                    broadside_effect(data, a, b, r),
                    broadside_effect(data, b, a, r),
                );
                let score = if back == 0.0 { 1e6 + out } else { out / back };
                if score > best_score + 1e-12 {
                    best_score = score;
                    best = r;
                }
            }
            out[a * n + b] = best.max(data.movement.grapple_distance * 3);
        }
    }
    out
}

/// The enemy of ship `i` the rules say to fire at [Method of Fire]: the
/// most similar class, then the nearest, then the first listed; among the
/// ships `allowed` accepts. [`NONE`] when there is none.
pub fn preferred_target(
    m: &WomAir,
    s: &[ShipState],
    i: usize,
    allowed: impl Fn(usize) -> bool,
) -> usize {
    let side = m.ships[i].side;
    let rank = i32::from(m.data.classes[m.ships[i].class].rank);
    let mut best = usize::from(NONE);
    let mut best_key = (i32::MAX, i64::MAX);
    for (j, other) in s.iter().enumerate() {
        if m.ships[j].side == side || !other.active() || !allowed(j) {
            continue;
        }
        let key = (
            (i32::from(m.data.classes[m.ships[j].class].rank) - rank).abs(),
            other.pos.minus(s[i].pos).norm2(),
        );
        if key < best_key {
            best_key = key;
            best = j;
        }
    }
    best
}
