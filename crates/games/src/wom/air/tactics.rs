//! Tactics: what a side's captains order each turn. A scenario picks one
//! policy per side (`tactic = "..."`):
//!
//! - `line-of-battle`: steer for the target the rules name (the most similar
//!   class, nearest first [Method of Fire]; the side's common target when it
//!   concentrates fire), close to the range at which its own guns outclass
//!   the target's (worked out once per pair of classes from the fire and
//!   hit-location tables) without overrunning it, then turn to present the
//!   broadside; match the target's altitude; cut any grapple.
//! - `boarders`: as Black Pirates do, make for the nearest enemy not itself
//!   boarding (one a friend already holds included [Grappling]), come
//!   alongside at its altitude and grapple; never cut.
//! - `bombers`: make for the point over where the target will be, one
//!   altitude block above it, and drop keel bombs; cut any grapple.
//! - `rammers`: steer for the target at its altitude and run on at full
//!   speed to run it down [Ramming and Collision]; cut any grapple.
//! - `circle`: six or more ships within a move of one another form a
//!   Barsoomian circle [Movement, Exception] and wheel round it broadside
//!   out; until they can, they close on their common centre; ships that lose
//!   steering or power drop out, and below six the circle breaks into
//!   `line-of-battle`.
//! - `random`: a floor to compare against: random speed, turn, climb or
//!   dive, grapple and cut decisions.
//!
//! Every policy moves at full speed unless it is grappled (a grappled pair is
//! stationary [Grappling]). Fire targets are chosen by the rules at fire
//! time, not here.

use barsoom_engine::Dice;

use super::battle::{WomAir, preferred_target};
use super::damage::{NONE, ShipState, ceiling, max_speed, max_turn};
use super::geometry::{Point, along, can_lay, heading_of, isqrt, step, steps_between, turned};
use super::ships::Figure;

/// A side's policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tactic {
    /// Close to the favourable range and fight broadside to broadside.
    LineOfBattle,
    /// Grapple and board.
    Boarders,
    /// Pass over the enemy dropping keel bombs.
    Bombers,
    /// Run the enemy down.
    Rammers,
    /// Form a Barsoomian circle.
    Circle,
    /// Random orders.
    Random,
}

/// Every tactic, in the order a search player's candidates are listed.
pub(crate) const TACTICS: [Tactic; 6] = [
    Tactic::LineOfBattle,
    Tactic::Boarders,
    Tactic::Bombers,
    Tactic::Rammers,
    Tactic::Circle,
    Tactic::Random,
];

/// Tactic names as written in scenarios (and as a search player's base).
pub(crate) const TACTIC_LIST: &str = "line-of-battle, boarders, bombers, rammers, circle, random";

impl Tactic {
    /// The tactic named `name`.
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "line-of-battle" => Tactic::LineOfBattle,
            "boarders" => Tactic::Boarders,
            "bombers" => Tactic::Bombers,
            "rammers" => Tactic::Rammers,
            "circle" => Tactic::Circle,
            "random" => Tactic::Random,
            _ => return None,
        })
    }
}

/// One ship's orders for a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Orders {
    /// Speed wanted, tenths (capped by what the ship has).
    pub speed: i32,
    /// Altitude blocks to climb (negative: dive).
    pub climb: i32,
    /// Point to stop nearest to along the heading (else the full move).
    pub aim: Option<Point>,
    /// Heading wanted at the end of the move (else toward `aim`).
    pub face: Option<u8>,
    /// Ship to grapple if alongside, or [`NONE`].
    pub grapple: u8,
    /// Cut grapples holding this ship.
    pub cut: bool,
    /// Steer evasively (counts when it turns).
    pub evasive: bool,
}

impl Orders {
    /// Hold course at full speed.
    fn ahead(speed: i32) -> Self {
        Orders {
            speed,
            climb: 0,
            aim: None,
            face: None,
            grapple: NONE,
            cut: true,
            evasive: false,
        }
    }
}

/// Tolerance around the wanted range before closing or opening, tenths.
const RANGE_TOLERANCE: i32 = 10;

/// Where ship `j` will be after its next move if it holds its course at
/// full speed (as every policy but `random` does while free).
fn predicted(m: &WomAir, s: &[ShipState], j: usize) -> Point {
    let ship = &s[j];
    if ship.grappled() {
        return ship.pos;
    }
    let class = &m.data.classes[m.ships[j].class];
    step(ship.pos, ship.heading, max_speed(ship, class, &m.data))
}

fn climb_toward(m: &WomAir, ship: &ShipState, class: usize, alt: i32) -> i32 {
    let top = ceiling(ship, &m.data.classes[class], &m.data);
    (alt.clamp(0, top) - ship.alt) / m.data.movement.altitude_step
}

/// The orders of ship `i` under `tactic` (its side's this turn).
pub fn orders(
    m: &WomAir,
    s: &[ShipState],
    i: usize,
    turn: u32,
    focus: u8,
    tactic: Tactic,
    dice: &mut Dice,
) -> Orders {
    let setup = &m.ships[i];
    let side = &m.sides[setup.side];
    let me = &s[i];
    // A ship with no gun left to serve keeps up the fight with its keel
    // bombs while it has them, as a sensible captain would.
    let cannot_fire = me.figures[Figure::Gunners as usize] == 0 || me.guns.iter().all(|&g| g == 0);
    let mut o = match tactic {
        Tactic::LineOfBattle if cannot_fire && me.bombs > 0 && me.hands() => {
            bombers(m, s, i, turn, focus)
        }
        Tactic::LineOfBattle | Tactic::Circle => line_of_battle(m, s, i, turn, focus),
        Tactic::Rammers => rammers(m, s, i, turn, focus),
        Tactic::Boarders => boarders(m, s, i, turn, focus),
        Tactic::Bombers => bombers(m, s, i, turn, focus),
        Tactic::Random => random(m, s, i, dice),
    };
    if side.evasive && !s[i].grappled() {
        o.evasive = true;
        let face = o.face.unwrap_or(s[i].heading);
        if face == s[i].heading {
            o.face = Some(turned(face, if turn % 2 == 1 { 1 } else { -1 }));
        }
    }
    o
}

fn line_of_battle(m: &WomAir, s: &[ShipState], i: usize, turn: u32, focus: u8) -> Orders {
    let me = &s[i];
    let class = m.ships[i].class;
    let mut speed = max_speed(me, &m.data.classes[class], &m.data);
    if me.grappled() {
        return Orders {
            speed: 0,
            ..Orders::ahead(0)
        };
    }
    let t = if focus != NONE && s[usize::from(focus)].active() {
        usize::from(focus)
    } else {
        preferred_target(m, s, i, |_| true)
    };
    if t == usize::from(NONE) {
        return Orders::ahead(speed);
    }
    let _ = turn;
    let target = &s[t];
    let to_target = predicted(m, s, t).minus(me.pos);
    let distance = to_target.length();
    let want = m.wanted_range(class, m.ships[t].class);
    let bearing = heading_of(to_target);
    // Closing: do not overrun the wanted range (measured from where the
    // target will be), but keep moving (a stationary ship is easier to hit).
    let closing_speed = (distance - want).clamp(MIN_MOVE.min(speed), speed);
    // Headings `k` steps either side of the bearing; the nearer one.
    let oblique = |k: i32| {
        let a = turned(bearing, k);
        let b = turned(bearing, -k);
        if steps_between(me.heading, a).abs() <= steps_between(me.heading, b).abs() {
            a
        } else {
            b
        }
    };
    let gun = &m.data.guns[m.data.classes[class].gun];
    // Too close above or below the target for the guns to elevate or
    // depress onto it: open the range at full speed (while matching its
    // altitude) rather than keep station where no gun bears.
    let laid = can_lay(
        me.alt,
        target.alt,
        to_target.norm2(),
        gun.tan_elevation,
        gun.tan_depression,
    );
    if !laid {
        return Orders {
            climb: climb_toward(m, me, class, target.alt),
            face: Some(oblique(8)),
            ..Orders::ahead(speed)
        };
    }
    let face = if distance > want + RANGE_TOLERANCE {
        speed = closing_speed;
        if distance <= gun.medium + 30 {
            // Within gun range: close at 60 degrees off the bearing, so the
            // broadside bears while the range comes down.
            oblique(4)
        } else {
            bearing
        }
    } else if distance < want - RANGE_TOLERANCE {
        // Open the range with the broadside still bearing.
        oblique(8)
    } else {
        // Present the broadside.
        oblique(6)
    };
    // The move is straight ahead before any turn: never run inside the
    // wanted range of where the target will be (nor into it).
    let there = predicted(m, s, t);
    let ahead = i64::from(along(me.pos, me.heading, there));
    let lateral2 = (there.minus(me.pos).norm2() - ahead * ahead).max(0);
    let keep = i64::from((want - RANGE_TOLERANCE).max(MIN_MOVE));
    if lateral2 < keep * keep {
        let root = isqrt(keep * keep - lateral2);
        if ahead + root > 0 && ahead - root < i64::from(speed) {
            speed = (ahead - root).clamp(0, i64::from(speed)) as i32;
        }
    }
    Orders {
        climb: climb_toward(m, me, class, target.alt),
        face: Some(face),
        ..Orders::ahead(speed)
    }
}

/// The least move a ship under line-of-battle makes while closing, tenths.
const MIN_MOVE: i32 = 10;

fn boarders(m: &WomAir, s: &[ShipState], i: usize, turn: u32, focus: u8) -> Orders {
    let me = &s[i];
    let class = m.ships[i].class;
    if me.grappled() {
        return Orders {
            cut: false,
            ..Orders::ahead(0)
        };
    }
    let side = m.ships[i].side;
    let mut best = usize::from(NONE);
    let mut best_d = i64::MAX;
    for (j, other) in s.iter().enumerate() {
        if m.ships[j].side != side && other.active() && !other.boarder {
            let d = other.pos.minus(me.pos).norm2();
            if d < best_d {
                best_d = d;
                best = j;
            }
        }
    }
    if best == usize::from(NONE) {
        return Orders {
            cut: false,
            ..line_of_battle(m, s, i, turn, focus)
        };
    }
    let target = &s[best];
    let speed = max_speed(me, &m.data.classes[class], &m.data);
    let there = predicted(m, s, best);
    let side_on = heading_of(me.pos.minus(there));
    let aim = step(there, side_on, m.data.movement.grapple_distance * 4 / 5);
    let face = (aim.minus(me.pos).length() <= speed).then_some(target.heading);
    Orders {
        speed,
        climb: climb_toward(m, me, class, target.alt),
        aim: Some(aim),
        face,
        grapple: best as u8,
        cut: false,
        evasive: false,
    }
}

fn bombers(m: &WomAir, s: &[ShipState], i: usize, turn: u32, focus: u8) -> Orders {
    let me = &s[i];
    let class = m.ships[i].class;
    let c = &m.data.classes[class];
    let step_alt = m.data.movement.altitude_step;
    let top = ceiling(me, c, &m.data);
    if me.grappled() || me.bombs == 0 {
        return line_of_battle(m, s, i, turn, focus);
    }
    let t = preferred_target(m, s, i, |j| s[j].alt + step_alt <= top);
    if t == usize::from(NONE) {
        return line_of_battle(m, s, i, turn, focus);
    }
    let target = &s[t];
    let there = predicted(m, s, t);
    Orders {
        climb: climb_toward(m, me, class, target.alt + step_alt),
        aim: Some(there),
        face: Some(heading_of(there.minus(me.pos))),
        ..Orders::ahead(max_speed(me, c, &m.data))
    }
}

fn rammers(m: &WomAir, s: &[ShipState], i: usize, turn: u32, focus: u8) -> Orders {
    let me = &s[i];
    let class = m.ships[i].class;
    if me.grappled() {
        return line_of_battle(m, s, i, turn, focus);
    }
    let t = preferred_target(m, s, i, |_| true);
    if t == usize::from(NONE) {
        return line_of_battle(m, s, i, turn, focus);
    }
    let target = &s[t];
    let there = predicted(m, s, t);
    Orders {
        climb: climb_toward(m, me, class, target.alt),
        aim: None,
        face: Some(heading_of(there.minus(me.pos))),
        ..Orders::ahead(max_speed(me, &m.data.classes[class], &m.data))
    }
}

fn random(m: &WomAir, s: &[ShipState], i: usize, dice: &mut Dice) -> Orders {
    let me = &s[i];
    let c = &m.data.classes[m.ships[i].class];
    let top_speed = max_speed(me, c, &m.data);
    let inches = (top_speed / 10) as u32;
    let speed = ((dice.d(inches + 1) - 1) * 10) as i32;
    let turn_limit = u32::from(max_turn(me, c, &m.data));
    let turn = dice.d(2 * turn_limit + 1) as i32 - 1 - turn_limit as i32;
    let climb = dice.d(3) as i32 - 2;
    let grapple = if dice.coin() {
        let side = m.ships[i].side;
        let mut best = NONE;
        let mut best_d = i64::MAX;
        for (j, other) in s.iter().enumerate() {
            let d = other.pos.minus(me.pos).norm2();
            if m.ships[j].side != side && other.active() && d < best_d {
                best_d = d;
                best = j as u8;
            }
        }
        best
    } else {
        NONE
    };
    Orders {
        speed: speed.min(top_speed),
        climb,
        aim: None,
        face: Some(turned(me.heading, turn)),
        grapple,
        cut: dice.coin(),
        evasive: false,
    }
}
