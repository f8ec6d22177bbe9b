//! Table lookups of gunfire and keel bombing: range bands, the to-hit
//! score, hit location, the critical hit table and the bombing score
//! [WoM Fliers, Aerial Combat Tables; Bombing Table, Aerial Targets].

use super::ships::{AirData, CriticalEffect, GunType, Location, ShipClass, TargetFacing};

/// Range band of a gun at `range` tenths: 0 short, 1 medium, 2 long
/// (long range is unlimited) [Weapon Range Table].
#[inline]
pub(crate) fn range_band(gun: &GunType, range: i32) -> usize {
    let r = i64::from(range);
    range_band_squared(gun, r * r)
}

/// [`range_band`] from the squared range, so no root is taken.
#[inline]
pub(crate) fn range_band_squared(gun: &GunType, range2: i64) -> usize {
    if range2 <= i64::from(gun.short).pow(2) {
        0
    } else if range2 <= i64::from(gun.medium).pow(2) {
        1
    } else {
        2
    }
}

/// The score needed on 2d6 [To Hit, All Weapons]: by range band and
/// target size, -1 against a stationary target, +1 against one moving very
/// rapidly or evasively.
#[inline]
pub(crate) fn to_hit_score(
    data: &AirData,
    band: usize,
    size: usize,
    stationary: bool,
    rapid_or_evasive: bool,
) -> i32 {
    let mut score = data.to_hit[band][size];
    if stationary {
        score += data.stationary;
    } else if rapid_or_evasive {
        score += data.evasive;
    }
    score
}

/// Where a hit lands for a 2d6 `roll` on the facing presented [Hit
/// Location]; `None` where the table has no entry (hull bottom 2-10 only).
#[inline]
pub fn location(data: &AirData, facing: TargetFacing, roll: u32) -> Option<Location> {
    data.location[facing as usize][(roll.clamp(2, 12) - 2) as usize]
}

/// The critical hit table's result for a d6 on the facing presented.
#[inline]
pub fn critical(data: &AirData, facing: TargetFacing, d6: u32) -> CriticalEffect {
    data.critical[facing as usize][((d6.clamp(1, 6) - 1) / 2) as usize]
}

/// The score a keel bomb needs on 2d6 [Bombing Table, Aerial Targets]:
/// the base, +2 when the target moves relative to the bomber, +1 when it is
/// more than 500 feet below, +1 small, -1 large.
#[inline]
pub(crate) fn bomb_score(data: &AirData, target: &ShipClass, moving: bool, far_below: bool) -> i32 {
    let b = &data.bombing;
    b.base
        + if moving { b.target_moving } else { 0 }
        + if far_below { b.far_below } else { 0 }
        + target.bombing_size
}

/// Probability that 2d6 reach `score`.
pub(crate) fn p_2d6_at_least(score: i32) -> f64 {
    let ways: u32 = (1..=6)
        .flat_map(|a| (1..=6).map(move |b| a + b))
        .filter(|t| *t >= score)
        .count() as u32;
    f64::from(ways) / 36.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wom::air::testdata::data;

    #[test]
    fn to_hit_by_size_range_and_motion() {
        let d = data();
        // Short/medium/long against small, medium, large: 8 10 11 / 7 9 10 / 6 8 9.
        let expect = [[8, 7, 6], [10, 9, 8], [11, 10, 9]];
        for (band, row) in expect.iter().enumerate() {
            for (size, score) in row.iter().enumerate() {
                assert_eq!(to_hit_score(&d, band, size, false, false), *score);
            }
        }
        // Stationary large target at short range: 6 - 1 = 5; evasive small at long: 11 + 1 = 12.
        assert_eq!(to_hit_score(&d, 0, 2, true, false), 5);
        assert_eq!(to_hit_score(&d, 2, 0, false, true), 12);
    }

    #[test]
    fn range_bands_per_gun() {
        let d = data();
        let heavy = d.guns.iter().find(|g| g.id == "heavy").unwrap();
        let medium = d.guns.iter().find(|g| g.id == "medium").unwrap();
        // Heavy: short to 9", medium to 18"; medium gun: 6" and 12".
        assert_eq!(
            (
                range_band(heavy, 90),
                range_band(heavy, 91),
                range_band(heavy, 180),
                range_band(heavy, 181)
            ),
            (0, 1, 1, 2)
        );
        assert_eq!(
            (
                range_band(medium, 60),
                range_band(medium, 61),
                range_band(medium, 121)
            ),
            (0, 1, 2)
        );
        assert_eq!((heavy.damage, medium.damage), (150, 30));
    }

    #[test]
    fn hit_location_by_facing() {
        use Location::*;
        let d = data();
        let row = |f| (2..=12).map(|r| location(&d, f, r)).collect::<Vec<_>>();
        let s = Some;
        assert_eq!(
            row(TargetFacing::Broadside),
            vec![
                s(Crew),
                s(Crew),
                s(Crew),
                s(Gun),
                s(Gun),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Critical)
            ]
        );
        assert_eq!(
            row(TargetFacing::Bow),
            vec![
                s(Crew),
                s(Gun),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Critical)
            ]
        );
        assert_eq!(
            row(TargetFacing::Stern),
            vec![
                s(Crew),
                s(Crew),
                s(Gun),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Critical),
                s(Critical)
            ]
        );
        assert_eq!(
            row(TargetFacing::HullBottom),
            vec![
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Critical),
                s(Critical)
            ]
        );
        assert_eq!(
            row(TargetFacing::HullTop),
            vec![
                s(Crew),
                s(Crew),
                s(Crew),
                s(Crew),
                s(Crew),
                s(Gun),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Hull),
                s(Critical)
            ]
        );
    }

    #[test]
    fn critical_table_by_facing() {
        use CriticalEffect::*;
        let d = data();
        let col = |f| [1, 3, 5].map(|r| critical(&d, f, r));
        assert_eq!(
            col(TargetFacing::Bow),
            [OfficerKilled, BowRayTank, Damage(3)]
        );
        assert_eq!(
            col(TargetFacing::Broadside),
            [Damage(4), MidshipsRayTank, Damage(6)]
        );
        assert_eq!(
            col(TargetFacing::Stern),
            [SternRayTank, Damage(4), Propellers]
        );
        assert_eq!(
            col(TargetFacing::HullBottom),
            [Damage(6), Damage(4), MidshipsRayTank]
        );
        assert_eq!(col(TargetFacing::HullTop), [Damage(4), Steering, Engines]);
        // 2, 4 and 6 read the same rows as 1, 3 and 5.
        assert_eq!(critical(&d, TargetFacing::Bow, 2), OfficerKilled);
        assert_eq!(critical(&d, TargetFacing::HullTop, 6), Engines);
    }

    #[test]
    fn bombing_modifiers() {
        let d = data();
        let class = |id: &str| d.classes[d.class_index(id).unwrap()].clone();
        // Base 9; moving +2, far below +1; small +1, large -1, medium 0.
        assert_eq!(bomb_score(&d, &class("cruiser"), false, false), 9);
        assert_eq!(bomb_score(&d, &class("cruiser"), true, true), 12);
        assert_eq!(bomb_score(&d, &class("light-cruiser"), false, true), 11);
        assert_eq!(bomb_score(&d, &class("battleship"), false, true), 9);
        assert_eq!(bomb_score(&d, &class("heavy-transport"), true, false), 10);
        assert_eq!(d.bombing.damage, 500);
    }

    #[test]
    fn two_dice_probabilities() {
        assert_eq!(p_2d6_at_least(7), 21.0 / 36.0);
        assert_eq!(p_2d6_at_least(12), 1.0 / 36.0);
        assert_eq!(p_2d6_at_least(13), 0.0);
        assert_eq!(p_2d6_at_least(2), 1.0);
    }
}
