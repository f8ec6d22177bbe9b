//! A flier's state in battle and what damage does to it: damage points
//! against the Damage Effects steps, figure losses, and the effects of
//! critical hits on movement [WoM Damage; Critical Hits].

use super::geometry::Point;
use super::ships::{
    AirData, CriticalEffect, DamageStep, FIGURE_KINDS, Figure, MAX_MOUNTS, ShipClass,
};

/// No ship (an index that is never used).
pub const NONE: u8 = u8::MAX;

/// Whether a flier is still in the fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Fighting.
    Active,
    /// Exploded, burned and crashed at 100% damage.
    Destroyed,
    /// Abandoned (pitched 30 degrees) or without a living figure aboard.
    Abandoned,
    /// Taken by boarders.
    Captured,
}

/// One flier's changing state. `Copy`, so a battle is a fixed array of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShipState {
    /// Position at the end of its last move.
    pub pos: Point,
    /// Position at the start of its last move.
    pub from: Point,
    /// Altitude, tenths of an inch.
    pub alt: i32,
    /// Altitude at the start of its last move.
    pub from_alt: i32,
    /// Heading, 0..24 steps of 15 degrees.
    pub heading: u8,
    /// It turned at the end of its last move.
    pub turned: bool,
    /// It moves evasively (under evasive orders and turned).
    pub evasive: bool,
    /// Damage points taken.
    pub damage: u32,
    /// Living figures by [`Figure`] kind.
    pub figures: [u16; FIGURE_KINDS],
    /// Guns left on each mount.
    pub guns: [u8; MAX_MOUNTS],
    /// Bombs left.
    pub bombs: u16,
    /// In the fight or not.
    pub status: Status,
    /// Engines destroyed.
    pub engines_out: bool,
    /// Steering destroyed.
    pub steering_out: bool,
    /// Turns until the propellers are replaced.
    pub propellers_out: u8,
    /// Pitch in degrees, bow down positive.
    pub pitch: i32,
    /// Midships ray tanks destroyed.
    pub midships_tanks: u8,
    /// The ships it is grappled with, one bit per ship index: a boarder
    /// holds the one ship it boards, the ship boarded every ship whose
    /// grapples hold it [Grappling: more than one flier may grapple the
    /// same opponent].
    pub links: u16,
    /// Grapples holding a boarder to the ship it boards.
    pub grapples: u16,
    /// Turn a boarder's grapple was made.
    pub grappled_turn: u16,
    /// Boarding melee has begun (grapples can no longer be cut).
    pub boarding: bool,
    /// It made the grapple (the attacking side of the boarding).
    pub boarder: bool,
    /// Casualties its party inflicted in boarding melee, in sixtieths
    /// (fractions kept).
    pub inflicted: u32,
    /// On a boarder: casualties the defenders inflicted on its party, in
    /// sixtieths (fractions kept).
    pub suffered: u32,
    /// Figures that have joined its boarding party (gunners leaving the
    /// guns join it later).
    pub party_start: u16,
    /// Figures its boarding party has lost in the melee.
    pub party_lost: u16,
    /// Disorganised for the next round of boarding melee.
    pub disorganized: bool,
    /// Gunner figures serving guns this turn.
    pub gunners_busy: u16,
    /// Its designated fire target (or [`NONE`]).
    pub target: u8,
}

impl ShipState {
    /// A fresh ship of `class` at `pos`.
    pub fn new(
        class: &ShipClass,
        mounts: &[u8; MAX_MOUNTS],
        figures: [u16; FIGURE_KINDS],
        pos: Point,
        alt: i32,
        heading: u8,
    ) -> Self {
        ShipState {
            pos,
            from: pos,
            alt,
            from_alt: alt,
            heading,
            turned: false,
            evasive: false,
            damage: 0,
            figures,
            guns: *mounts,
            bombs: class.bombs,
            status: Status::Active,
            engines_out: false,
            steering_out: false,
            propellers_out: 0,
            pitch: 0,
            midships_tanks: 0,
            links: 0,
            grapples: 0,
            grappled_turn: 0,
            boarding: false,
            boarder: false,
            inflicted: 0,
            suffered: 0,
            party_start: 0,
            party_lost: 0,
            disorganized: false,
            gunners_busy: 0,
            target: NONE,
        }
    }

    /// Still fighting.
    #[inline]
    pub fn active(&self) -> bool {
        self.status == Status::Active
    }

    /// Grappled with at least one other ship.
    #[inline]
    pub fn grappled(&self) -> bool {
        self.links != 0
    }

    /// Grappled with ship `j`.
    #[inline]
    pub fn linked(&self, j: usize) -> bool {
        j < 16 && self.links & (1 << j) != 0
    }

    /// The ship a boarder boards (its one link), or [`NONE`].
    #[inline]
    pub fn boarding_target(&self) -> u8 {
        if self.boarder && self.links != 0 {
            self.links.trailing_zeros() as u8
        } else {
            NONE
        }
    }

    /// Figures other than officers and personalities aboard: hands to drop
    /// keel bombs (our reading).
    #[inline]
    pub fn hands(&self) -> bool {
        [
            Figure::Gunners,
            Figure::Crew,
            Figure::Marines,
            Figure::Troops,
        ]
        .iter()
        .any(|&k| self.figures[k as usize] > 0)
    }

    /// Figures free for a boarding party: all aboard but the gunners
    /// serving guns this turn [Boarding: figures not otherwise engaged].
    #[inline]
    pub fn party_figures(&self) -> u32 {
        let gunners = self.figures[Figure::Gunners as usize];
        self.total_figures() - u32::from(self.gunners_busy.min(gunners))
    }

    /// Living figures of every kind.
    #[inline]
    pub(crate) fn total_figures(&self) -> u32 {
        self.figures.iter().map(|f| u32::from(*f)).sum()
    }

    /// Did not move or change altitude in its last move [To Hit: stationary].
    #[inline]
    pub(crate) fn stationary(&self) -> bool {
        self.pos == self.from && self.alt == self.from_alt
    }

    /// Length of its last move, tenths.
    #[inline]
    pub fn moved(&self) -> i32 {
        self.pos.minus(self.from).length()
    }

    /// Whether its last move was at least `distance` tenths long.
    #[inline]
    pub(crate) fn moved_at_least(&self, distance: i32) -> bool {
        self.pos.minus(self.from).norm2() >= i64::from(distance).pow(2)
    }
}

/// The highest Damage Effects step a ship has reached.
#[inline]
pub(crate) fn damage_step<'a>(
    ship: &ShipState,
    class: &ShipClass,
    data: &'a AirData,
) -> Option<&'a DamageStep> {
    let percent = u64::from(ship.damage) * 100;
    data.damage_steps
        .iter()
        .rev()
        .find(|s| percent >= u64::from(s.at) * u64::from(class.max_damage))
}

/// Powerless: engines gone, propellers gone for now, or 90% damage.
#[inline]
pub(crate) fn powerless(ship: &ShipState, class: &ShipClass, data: &AirData) -> bool {
    ship.engines_out
        || ship.propellers_out > 0
        || damage_step(ship, class, data).is_some_and(|s| s.powerless)
}

/// Speed available this turn, tenths [Damage Effects; Engine, Propeller Hits].
#[inline]
pub(crate) fn max_speed(ship: &ShipState, class: &ShipClass, data: &AirData) -> i32 {
    if powerless(ship, class, data) {
        return 0;
    }
    let mut speed = class.speed;
    if let Some(step) = damage_step(ship, class, data) {
        speed -= step.speed_down;
        if let Some(cap) = step.speed_max {
            speed = speed.min(cap);
        }
    }
    speed.max(0)
}

/// Highest altitude it can reach, tenths [Ceiling; Damage Effects; Ray Tank Hits].
#[inline]
pub(crate) fn ceiling(ship: &ShipState, class: &ShipClass, data: &AirData) -> i32 {
    let mut top = data.movement.ceiling;
    if let Some(cap) = damage_step(ship, class, data).and_then(|s| s.ceiling) {
        top = top.min(cap);
    }
    (top - i32::from(ship.midships_tanks) * data.ceiling_loss_per_tank).max(0)
}

/// Heading steps it may turn at the end of a move [Turns; Steering Hits].
#[inline]
pub(crate) fn max_turn(ship: &ShipState, class: &ShipClass, data: &AirData) -> u8 {
    if powerless(ship, class, data) {
        0
    } else if ship.steering_out {
        if class.steer_by_propellers {
            data.damaged_steering_steps
        } else {
            0
        }
    } else {
        data.movement.max_turn_steps
    }
}

/// Adds damage points; returns the Damage Effects step newly reached, if any.
/// At the destroying step the ship's status becomes [`Status::Destroyed`];
/// at a step with an altitude it drops to it (adrift at 100 feet).
pub(crate) fn take_damage(
    ship: &mut ShipState,
    class: &ShipClass,
    data: &AirData,
    points: u32,
) -> Option<DamageStep> {
    let before = damage_step(ship, class, data).map(|s| s.at);
    ship.damage = ship.damage.saturating_add(points).min(class.max_damage);
    let after = damage_step(ship, class, data).copied();
    let step = after.filter(|s| Some(s.at) != before)?;
    if step.destroyed && ship.status == Status::Active {
        ship.status = Status::Destroyed;
    }
    if let Some(alt) = step.altitude {
        ship.alt = ship.alt.min(alt);
    }
    let top = ceiling(ship, class, data);
    ship.alt = ship.alt.min(top);
    Some(step)
}

/// The ship indices in a bit set of ships (a ship's `links`), lowest first.
#[inline]
pub(crate) fn ships_in(mut set: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let j = set.trailing_zeros() as usize;
            set &= set - 1;
            j
        })
    })
}

/// Kills one figure, taking the first kind in `order` that has one left.
pub(crate) fn kill_figure(ship: &mut ShipState, order: &[Figure]) -> Option<Figure> {
    let kind = order
        .iter()
        .copied()
        .find(|k| ship.figures[*k as usize] > 0)?;
    ship.figures[kind as usize] -= 1;
    if ship.total_figures() == 0 && ship.status == Status::Active {
        ship.status = Status::Abandoned;
    }
    Some(kind)
}

/// Kills one figure of the ship's boarding party: the first kind in
/// `order` with a figure not serving a gun.
pub(crate) fn kill_party_figure(ship: &mut ShipState, order: &[Figure]) -> Option<Figure> {
    let gunners = Figure::Gunners as usize;
    let busy = ship.gunners_busy.min(ship.figures[gunners]);
    let kind = order.iter().copied().find(|k| {
        let reserved = if *k as usize == gunners { busy } else { 0 };
        ship.figures[*k as usize] > reserved
    })?;
    kill_figure(ship, &[kind])
}

/// What a critical hit's effect did, for traces and tallies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CriticalOutcome {
    /// Damage multiplier in halves (2 = normal damage).
    pub damage_halves: u32,
    /// A figure was killed.
    pub killed: bool,
    /// The ship must be abandoned (pitch).
    pub abandoned: bool,
}

/// Applies a critical hit's non-damage effect and says how to multiply the
/// hit's damage [Critical Hits; the note that criticals always do normal
/// damage besides their effect].
pub(crate) fn apply_critical(
    ship: &mut ShipState,
    class: &ShipClass,
    data: &AirData,
    effect: CriticalEffect,
) -> CriticalOutcome {
    let mut out = CriticalOutcome {
        damage_halves: 2,
        killed: false,
        abandoned: false,
    };
    match effect {
        CriticalEffect::Damage(halves) => out.damage_halves = u32::from(halves),
        CriticalEffect::OfficerKilled => {
            out.killed = kill_figure(ship, &[Figure::Officers]).is_some()
        }
        CriticalEffect::BowRayTank | CriticalEffect::SternRayTank => {
            ship.pitch += if effect == CriticalEffect::BowRayTank {
                data.pitch_per_tank
            } else {
                -data.pitch_per_tank
            };
            if ship.pitch.abs() >= data.abandon_pitch && ship.status == Status::Active {
                ship.status = Status::Abandoned;
                out.abandoned = true;
            }
        }
        CriticalEffect::MidshipsRayTank => {
            ship.midships_tanks = ship.midships_tanks.saturating_add(1);
            ship.alt = ship.alt.min(ceiling(ship, class, data));
        }
        CriticalEffect::Steering => ship.steering_out = true,
        CriticalEffect::Engines => ship.engines_out = true,
        CriticalEffect::Propellers => ship.propellers_out = data.propeller_repair_turns,
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wom::air::testdata::data;

    fn ship(data: &AirData, class: &str) -> (ShipState, ShipClass) {
        let c = data.classes[data.class_index(class).unwrap()].clone();
        let mut guns = [0u8; MAX_MOUNTS];
        for (i, m) in c.mounts.iter().enumerate() {
            guns[i] = m.count;
        }
        (
            ShipState::new(&c, &guns, c.figures, Point::new(0, 0), 20, 0),
            c,
        )
    }

    #[test]
    fn damage_thresholds_at_25_50_75_90_100() {
        let d = data();
        let (mut s, c) = ship(&d, "cruiser"); // 800 points, speed 7"
        assert_eq!(max_speed(&s, &c, &d), 70);
        // 199 points is 24.9%: no effect.
        assert_eq!(take_damage(&mut s, &c, &d, 199), None);
        // 200 = 25%: speed down 1" -> 6".
        assert_eq!(take_damage(&mut s, &c, &d, 1).map(|x| x.at), Some(25));
        assert_eq!(max_speed(&s, &c, &d), 60);
        assert_eq!(ceiling(&s, &c, &d), 30);
        // 400 = 50%: speed down 2-1/2" -> 4-1/2", ceiling 2"; altitude 2" is kept.
        take_damage(&mut s, &c, &d, 200);
        assert_eq!((max_speed(&s, &c, &d), ceiling(&s, &c, &d)), (45, 20));
        // 600 = 75%: speed 1" max, ceiling 1": the ship at 2" drops to 1".
        take_damage(&mut s, &c, &d, 200);
        assert_eq!(
            (max_speed(&s, &c, &d), ceiling(&s, &c, &d), s.alt),
            (10, 10, 10)
        );
        // 720 = 90%: powerless, adrift at 100 feet (altitude 0).
        take_damage(&mut s, &c, &d, 120);
        assert!(powerless(&s, &c, &d));
        assert_eq!(
            (max_speed(&s, &c, &d), max_turn(&s, &c, &d), s.alt),
            (0, 0, 0)
        );
        assert_eq!(s.status, Status::Active);
        // 800 = 100%: explodes.
        take_damage(&mut s, &c, &d, 500);
        assert_eq!((s.status, s.damage), (Status::Destroyed, 800));
    }

    #[test]
    fn each_critical_effect() {
        let d = data();
        let (mut s, c) = ship(&d, "battle-cruiser");
        let o = apply_critical(&mut s, &c, &d, CriticalEffect::Damage(3));
        assert_eq!(o.damage_halves, 3); // 1-1/2 x: a heavy gun's 150 becomes 225
        let o = apply_critical(&mut s, &c, &d, CriticalEffect::OfficerKilled);
        assert!(o.killed && o.damage_halves == 2);
        assert_eq!(s.figures[Figure::Officers as usize], 0);
        // A second officer hit finds nobody.
        assert!(!apply_critical(&mut s, &c, &d, CriticalEffect::OfficerKilled).killed);
        // Bow tank: 15 degrees down by the bow; a stern tank levels it; two bow tanks: 30, abandoned.
        apply_critical(&mut s, &c, &d, CriticalEffect::BowRayTank);
        assert_eq!(s.pitch, 15);
        apply_critical(&mut s, &c, &d, CriticalEffect::SternRayTank);
        assert_eq!(s.pitch, 0);
        apply_critical(&mut s, &c, &d, CriticalEffect::SternRayTank);
        assert_eq!(s.status, Status::Active);
        assert!(apply_critical(&mut s, &c, &d, CriticalEffect::SternRayTank).abandoned);
        assert_eq!(s.status, Status::Abandoned);

        let (mut s, c) = ship(&d, "battle-cruiser");
        s.alt = 30;
        apply_critical(&mut s, &c, &d, CriticalEffect::MidshipsRayTank);
        assert_eq!((ceiling(&s, &c, &d), s.alt), (20, 20)); // 3" - 1"
        // Steering: a battle cruiser turns 15 degrees (1 step) by its propellers.
        apply_critical(&mut s, &c, &d, CriticalEffect::Steering);
        assert_eq!(max_turn(&s, &c, &d), 1);
        let (mut scout, sc) = ship(&d, "scout-cruiser");
        assert_eq!(max_turn(&scout, &sc, &d), 3);
        apply_critical(&mut scout, &sc, &d, CriticalEffect::Steering);
        assert_eq!(max_turn(&scout, &sc, &d), 0);
        // Propellers: powerless for 6 turns; engines: for good.
        let (mut s, c) = ship(&d, "cruiser");
        apply_critical(&mut s, &c, &d, CriticalEffect::Propellers);
        assert_eq!((s.propellers_out, max_speed(&s, &c, &d)), (6, 0));
        s.propellers_out = 0;
        assert_eq!(max_speed(&s, &c, &d), 70);
        apply_critical(&mut s, &c, &d, CriticalEffect::Engines);
        assert_eq!((max_speed(&s, &c, &d), max_turn(&s, &c, &d)), (0, 0));
    }

    #[test]
    fn crew_hits_take_gunners_first_and_an_empty_ship_is_abandoned() {
        let d = data();
        let (mut s, _) = ship(&d, "small-scout"); // 2 gunners, 2 crew, 1 officer
        assert_eq!(
            kill_figure(&mut s, &d.crew_hit_order),
            Some(Figure::Gunners)
        );
        kill_figure(&mut s, &d.crew_hit_order);
        assert_eq!(kill_figure(&mut s, &d.crew_hit_order), Some(Figure::Crew));
        kill_figure(&mut s, &d.crew_hit_order);
        // Only the officer is left; crew hits never reach him.
        assert_eq!(kill_figure(&mut s, &d.crew_hit_order), None);
        assert_eq!(s.status, Status::Active);
        kill_figure(&mut s, &[Figure::Officers]);
        assert_eq!(s.status, Status::Abandoned);
    }
}
