//! Grappling and boarding arithmetic [WoM Grappling; Boarding; Boarding
//! Melee Table; Melee Table; Morale Table].

use super::damage::ShipState;
use super::ships::{AirData, CASUALTY_UNITS, Figure};

/// Grapples a ship can try (or cut) in a turn: one per crew figure above
/// the first and one per gunner figure not serving a gun [Grappling].
#[inline]
pub(crate) fn grapple_attempts(ship: &ShipState) -> u32 {
    let crew = u32::from(ship.figures[Figure::Crew as usize]);
    let gunners = u32::from(ship.figures[Figure::Gunners as usize]);
    crew.saturating_sub(1) + gunners.saturating_sub(u32::from(ship.gunners_busy))
}

/// A d6 roll that makes a grapple hold (1-3).
#[inline]
pub(crate) fn grapple_holds(data: &AirData, d6: u32) -> bool {
    d6 <= data.grapple_max_roll
}

/// A d6 roll that cuts a grapple (1).
#[inline]
pub(crate) fn grapple_cut(data: &AirData, d6: u32) -> bool {
    d6 <= data.cut_max_roll
}

/// Static facts about a ship's people for boarding melee.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Party {
    /// Steady-morale score of its morale class.
    pub steady: i32,
    /// Melee row of its figures (as attackers).
    pub row: usize,
    /// Melee column of its figures (as defenders).
    pub column: usize,
    /// Melee row of its personality figure, if it carries one.
    pub personality_row: Option<usize>,
    /// It started the battle with officers.
    pub had_officers: bool,
}

/// The morale factor of a ship's party this round: the steady-morale score
/// with the Morale Table's bonuses (attacking, commander with the unit,
/// personality with the unit) and penalties (50% casualties, disorganised,
/// commander dead, personality dead) [Boarding].
pub(crate) fn morale_factor(
    data: &AirData,
    party: &Party,
    ship: &ShipState,
    attacking: bool,
) -> i32 {
    let m = &data.morale;
    let mut total = party.steady;
    if attacking {
        total += m.attacking;
    }
    let officers = ship.figures[Figure::Officers as usize];
    if officers > 0 {
        total += m.commander_with_unit;
    } else if party.had_officers {
        total += m.commander_dead;
    }
    if party.personality_row.is_some() {
        if ship.figures[Figure::Personality as usize] > 0 {
            total += m.personality_with_unit;
        } else {
            total += m.personality_dead;
        }
    }
    if ship.party_start > 0 && 2 * ship.party_lost >= ship.party_start {
        total += m.half_casualties;
    }
    if ship.disorganized {
        total += m.disordered;
    }
    total
}

/// The band of the Boarding Melee Table for forces `stronger` >= `weaker`:
/// the highest band whose odds the ratio reaches (odds are rounded down:
/// 1.4 to 1 is 1-1). A weaker force of 0 is at the top band.
pub(crate) fn odds_band(data: &AirData, stronger: u64, weaker: u64) -> usize {
    data.odds
        .iter()
        .rposition(|b| stronger * u64::from(b.odds[1]) >= weaker * u64::from(b.odds[0]))
        .unwrap_or(0)
}

/// Casualties a party inflicts in one round, in sixtieths of a figure, from
/// the Melee Table: its ordinary figures at their row's rate, its
/// personality at his, plus the bonus against a disorganised enemy. The
/// party is every figure aboard but the gunners serving guns.
pub(crate) fn casualties_inflicted(
    data: &AirData,
    party: &Party,
    ship: &ShipState,
    enemy: &Party,
    enemy_disorganized: bool,
) -> u32 {
    let personality = u32::from(ship.figures[Figure::Personality as usize]);
    let ordinary = ship.party_figures() - personality;
    let mut units = ordinary * data.melee_rate[party.row][enemy.column];
    if let Some(row) = party.personality_row {
        units += personality * data.melee_rate[row][enemy.column];
    }
    if enemy_disorganized && ship.party_figures() > 0 {
        units += data.disorganized_bonus * CASUALTY_UNITS;
    }
    units
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wom::air::damage::ShipState;
    use crate::wom::air::geometry::Point;
    use crate::wom::air::ships::MAX_MOUNTS;
    use crate::wom::air::testdata::data;

    fn party_ship(figures: [u16; 6]) -> ShipState {
        let d = data();
        let c = &d.classes[d.class_index("battleship").unwrap()];
        ShipState::new(c, &[0; MAX_MOUNTS], figures, Point::new(0, 0), 10, 0)
    }

    fn row(d: &AirData, id: &str) -> usize {
        d.melee_rows.iter().position(|r| r == id).unwrap()
    }

    #[test]
    fn the_rulebook_boarding_example() {
        let d = data();
        let infantry = row(&d, "human-infantry");
        // First Born: 5 gunners, 3 crew, 5 marines, 1 officer = 14 figures,
        // morale 10 +1 attacking +1 commander = 12; force 12 x 14 = 168.
        let pirates = Party {
            steady: 10,
            row: infantry,
            column: 0,
            personality_row: None,
            had_officers: true,
        };
        let pirate_ship = party_ship([5, 3, 5, 0, 1, 0]);
        assert_eq!(morale_factor(&d, &pirates, &pirate_ship, true), 12);
        // Heliumites: 6 gunners + 2 crew + 3 marines + 1 officer + John Carter = 13,
        // morale 10 +1 commander +2 personality = 13; force 169.
        let helium = Party {
            steady: 10,
            row: infantry,
            column: 0,
            personality_row: Some(row(&d, "personality-13")),
            had_officers: true,
        };
        let helium_ship = party_ship([6, 2, 3, 0, 1, 1]);
        assert_eq!(morale_factor(&d, &helium, &helium_ship, false), 13);
        // 169 : 168 is 1-1 (the book's "3-2" there contradicts its own table).
        assert_eq!(odds_band(&d, 169, 168), 0);
        // 14 First Born inflict 14 x 3/10 = 4.2 -> 4 (in sixtieths: 14 x 18 = 252).
        assert_eq!(
            casualties_inflicted(&d, &pirates, &pirate_ship, &helium, false),
            252
        );
        // 12 Heliumites inflict 3.6 and John Carter 3: 216 + 180 = 396 sixtieths, 6 whole.
        assert_eq!(
            casualties_inflicted(&d, &helium, &helium_ship, &pirates, false),
            396
        );
        // Round two: 15 x 12 = 180 against 9 x 13 = 117 is 1.54 : 3-2, and
        // 15 First Born inflict 4.5 casualties (270 sixtieths).
        assert_eq!(odds_band(&d, 180, 117), 1);
        let reinforced = party_ship([12, 3, 0, 0, 0, 0]);
        assert_eq!(
            casualties_inflicted(&d, &pirates, &reinforced, &helium, false),
            270
        );
        // A disorganised enemy takes one casualty more.
        assert_eq!(
            casualties_inflicted(&d, &pirates, &reinforced, &helium, true),
            330
        );
    }

    #[test]
    fn odds_bands() {
        let d = data();
        // 1-1 up to 1.49, 3-2 from 1.5, 2-1 from 2, 3-1 from 3, 4-1 from 4.
        assert_eq!(odds_band(&d, 149, 100), 0);
        assert_eq!(odds_band(&d, 150, 100), 1);
        assert_eq!(odds_band(&d, 199, 100), 1);
        assert_eq!(odds_band(&d, 200, 100), 2);
        assert_eq!(odds_band(&d, 300, 100), 3);
        assert_eq!(odds_band(&d, 399, 100), 3);
        assert_eq!(odds_band(&d, 400, 100), 4);
        assert_eq!(odds_band(&d, 10, 0), 4);
        let b = &d.odds;
        assert_eq!(
            b.iter().map(|x| x.disorganize_in_6).collect::<Vec<_>>(),
            vec![0, 1, 3, 6, 6]
        );
        assert!(b[3].aboard && !b[3].surrender && b[4].surrender);
    }

    #[test]
    fn morale_penalties() {
        let d = data();
        let p = Party {
            steady: 9,
            row: 0,
            column: 0,
            personality_row: Some(5),
            had_officers: true,
        };
        let mut s = party_ship([4, 0, 0, 0, 0, 0]);
        s.party_start = 8;
        s.party_lost = 4;
        s.disorganized = true;
        // 9 -2 commander dead -4 personality dead -1 half casualties -1 disorganised = 1.
        assert_eq!(morale_factor(&d, &p, &s, false), 1);
        assert!(morale_factor(&d, &p, &s, false) <= d.morale.surrender_at);
    }

    #[test]
    fn grapple_and_cut_odds() {
        let d = data();
        // Grapples hold on 1-3 (1/2), cuts on 1 (1/6).
        assert_eq!((1..=6).filter(|r| grapple_holds(&d, *r)).count(), 3);
        assert_eq!((1..=6).filter(|r| grapple_cut(&d, *r)).count(), 1);
        // 3 crew, 8 gunners with 5 at the guns: 2 + 3 = 5 attempts.
        let mut s = party_ship([8, 3, 3, 0, 1, 0]);
        s.gunners_busy = 5;
        assert_eq!(grapple_attempts(&s), 5);
    }
}
