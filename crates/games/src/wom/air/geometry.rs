//! Positions, headings, arcs and ranges on the table, in exact integers.
//!
//! Distances are tenths of an inch. Headings are 24 steps of 15 degrees
//! (0 = the +x direction, counting anticlockwise), so the rules' 45-degree
//! turn is 3 steps and the damaged-steering 15-degree turn is 1 step. The
//! direction table holds cosines rounded to 1/10000; every computation on it
//! is integer arithmetic, so a battle is exactly reproducible.

use super::ships::{ARC_BOW, ARC_PORT, ARC_STARBOARD, ARC_STERN, TargetFacing};

/// Degrees in one heading step.
pub(crate) const HEADING_STEP_DEGREES: u32 = 15;
/// Number of headings.
pub(crate) const HEADINGS: u8 = 24;
/// Fixed-point scale of the direction table.
const SCALE: i64 = 10_000;

/// cos(15 k degrees) x 10000.
const COS: [i64; 24] = [
    10000, 9659, 8660, 7071, 5000, 2588, 0, -2588, -5000, -7071, -8660, -9659, -10000, -9659,
    -8660, -7071, -5000, -2588, 0, 2588, 5000, 7071, 8660, 9659,
];

/// cos of heading `h` x 10000.
#[inline]
pub(crate) fn cos(h: u8) -> i64 {
    COS[usize::from(h % HEADINGS)]
}

/// sin of heading `h` x 10000 (sin t = cos(t - 90 degrees)).
#[inline]
pub(crate) fn sin(h: u8) -> i64 {
    COS[usize::from((h % HEADINGS + 18) % HEADINGS)]
}

/// A point on the table, tenths of an inch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Point {
    /// East-west.
    pub x: i32,
    /// North-south.
    pub y: i32,
}

impl Point {
    /// A point.
    pub const fn new(x: i32, y: i32) -> Self {
        Point { x, y }
    }

    /// `self - other`.
    #[inline]
    pub fn minus(self, other: Point) -> Point {
        Point::new(self.x - other.x, self.y - other.y)
    }

    /// `self + other`.
    #[inline]
    pub fn plus(self, other: Point) -> Point {
        Point::new(self.x + other.x, self.y + other.y)
    }

    /// Squared length.
    #[inline]
    pub(crate) fn norm2(self) -> i64 {
        i64::from(self.x).pow(2) + i64::from(self.y).pow(2)
    }

    /// Length, rounded down.
    #[inline]
    pub fn length(self) -> i32 {
        isqrt(self.norm2()) as i32
    }
}

/// Integer square root (rounded down).
#[inline]
pub(crate) fn isqrt(v: i64) -> i64 {
    if v <= 0 {
        return 0;
    }
    let mut r = (v as f64).sqrt() as i64;
    while r * r > v {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= v {
        r += 1;
    }
    r
}

/// Inches (as written in a data file) to tenths, if a non-negative
/// multiple of 0.1 up to 10,000 inches.
pub(crate) fn tenths(inches: f64) -> Option<i32> {
    let t = inches * 10.0;
    (inches.is_finite() && (0.0..=100_000.0).contains(&t) && (t - t.round()).abs() < 1e-6)
        .then(|| t.round() as i32)
}

/// Like [`tenths`] but allowing negative coordinates.
pub(crate) fn signed_tenths(inches: f64) -> Option<i32> {
    let t = inches * 10.0;
    (inches.is_finite() && (-100_000.0..=100_000.0).contains(&t) && (t - t.round()).abs() < 1e-6)
        .then(|| t.round() as i32)
}

fn round_div(n: i64, d: i64) -> i64 {
    (2 * n + d).div_euclid(2 * d)
}

/// The point `distance` tenths from `p` along heading `h`.
#[inline]
pub fn step(p: Point, h: u8, distance: i32) -> Point {
    let d = i64::from(distance);
    Point::new(
        p.x + round_div(d * cos(h), SCALE) as i32,
        p.y + round_div(d * sin(h), SCALE) as i32,
    )
}

/// The heading closest to the direction of `v` (heading 0 for a zero vector).
#[inline]
pub(crate) fn heading_of(v: Point) -> u8 {
    let (x, y) = (i64::from(v.x), i64::from(v.y));
    let mut best = 0u8;
    let mut best_dot = i64::MIN;
    for h in 0..HEADINGS {
        let dot = x * cos(h) + y * sin(h);
        if dot > best_dot {
            best_dot = dot;
            best = h;
        }
    }
    best
}

/// Signed steps from heading `from` to `to`, in -11..=12 (positive anticlockwise).
#[inline]
pub(crate) fn steps_between(from: u8, to: u8) -> i32 {
    let d = (i32::from(to) - i32::from(from)).rem_euclid(i32::from(HEADINGS));
    if d > 12 { d - 24 } else { d }
}

/// `h` turned by `steps` (positive anticlockwise).
#[inline]
pub(crate) fn turned(h: u8, steps: i32) -> u8 {
    (i32::from(h) + steps).rem_euclid(i32::from(HEADINGS)) as u8
}

/// Turns from `current` toward `desired` by at most `max_steps`.
#[inline]
pub(crate) fn turn_toward(current: u8, desired: u8, max_steps: u8) -> u8 {
    let wanted = steps_between(current, desired);
    let limit = i32::from(max_steps);
    turned(current, wanted.clamp(-limit, limit))
}

/// Components of `v` along heading `h` (forward) and to its left, x 10000.
#[inline]
fn frame(v: Point, h: u8) -> (i64, i64) {
    let (x, y) = (i64::from(v.x), i64::from(v.y));
    (x * cos(h) + y * sin(h), -x * sin(h) + y * cos(h))
}

/// The arc (an arc bit) of a ship at `from` heading `h` in which `to` lies:
/// bow and stern within 45 degrees of the keel line, else a broadside.
#[inline]
pub(crate) fn arc_of(from: Point, h: u8, to: Point) -> u8 {
    let (forward, left) = frame(to.minus(from), h);
    if forward >= left.abs() {
        ARC_BOW
    } else if -forward >= left.abs() {
        ARC_STERN
    } else if left > 0 {
        ARC_PORT
    } else {
        ARC_STARBOARD
    }
}

/// The facing a target at `target` (heading `h`, altitude `target_alt`)
/// presents to a shooter at `shooter` (altitude `shooter_alt`) [Hit
/// Location]: the hull bottom or top when the line of fire is steeper than
/// 45 degrees, else bow, broadside or stern by the shooter's bearing.
#[inline]
pub(crate) fn facing_presented(
    target: Point,
    h: u8,
    target_alt: i32,
    shooter: Point,
    shooter_alt: i32,
) -> TargetFacing {
    let dz = i64::from(shooter_alt - target_alt);
    let horizontal2 = shooter.minus(target).norm2();
    if dz * dz > horizontal2 {
        return if dz > 0 {
            TargetFacing::HullTop
        } else {
            TargetFacing::HullBottom
        };
    }
    match arc_of(target, h, shooter) {
        ARC_BOW => TargetFacing::Bow,
        ARC_STERN => TargetFacing::Stern,
        _ => TargetFacing::Broadside,
    }
}

/// Distance from `p` to the segment `a`-`b`, squared.
#[inline]
pub(crate) fn segment_distance2(a: Point, b: Point, p: Point) -> i64 {
    let ab = b.minus(a);
    let ap = p.minus(a);
    let len2 = ab.norm2();
    let dot = i64::from(ab.x) * i64::from(ap.x) + i64::from(ab.y) * i64::from(ap.y);
    if len2 == 0 || dot <= 0 {
        return ap.norm2();
    }
    if dot >= len2 {
        return p.minus(b).norm2();
    }
    let cross = i64::from(ab.x) * i64::from(ap.y) - i64::from(ab.y) * i64::from(ap.x);
    // cross^2 / len2, rounded up so a path exactly at the limit counts.
    (cross * cross + len2 - 1) / len2
}

/// How far along heading `h` from `p` the point nearest `aim` lies (may be
/// negative when `aim` is behind).
#[inline]
pub fn along(p: Point, h: u8, aim: Point) -> i32 {
    let (forward, _) = frame(aim.minus(p), h);
    (forward / SCALE) as i32
}

/// Whether a gun at altitude `from_alt` can be laid on a target at
/// `to_alt` whose squared horizontal distance is `horizontal2`, given
/// tan(elevation) and tan(depression) x 10000 [Elevation and Depression of
/// Guns]. Squares throughout, so no root is taken.
#[inline]
pub(crate) fn can_lay(
    from_alt: i32,
    to_alt: i32,
    horizontal2: i64,
    tan_elev: i64,
    tan_depr: i64,
) -> bool {
    let dz = i128::from(to_alt - from_alt);
    let limit = if dz >= 0 { tan_elev } else { tan_depr };
    limit == i64::MAX
        || dz * dz * i128::from(SCALE * SCALE)
            <= i128::from(horizontal2) * i128::from(limit) * i128::from(limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_step_exactly() {
        // Heading 0 is +x, 6 is +y (90 degrees anticlockwise), 3 is 45 degrees.
        assert_eq!(step(Point::new(0, 0), 0, 55), Point::new(55, 0));
        assert_eq!(step(Point::new(0, 0), 6, 70), Point::new(0, 70));
        // 100 x 0.7071 = 70.71, rounded to 71.
        assert_eq!(step(Point::new(0, 0), 3, 100), Point::new(71, 71));
        assert_eq!(heading_of(Point::new(-5, 0)), 12);
        assert_eq!(heading_of(Point::new(10, 10)), 3);
        assert_eq!(steps_between(22, 1), 3);
        assert_eq!(turn_toward(0, 12, 3), 3);
        assert_eq!(turn_toward(0, 13, 3), 21);
    }

    #[test]
    fn arcs_split_at_45_degrees() {
        let o = Point::new(0, 0);
        // A ship heading +x: ahead is the bow, +y is to port (its left).
        assert_eq!(arc_of(o, 0, Point::new(10, 3)), ARC_BOW);
        assert_eq!(arc_of(o, 0, Point::new(-10, 3)), ARC_STERN);
        assert_eq!(arc_of(o, 0, Point::new(2, 10)), ARC_PORT);
        assert_eq!(arc_of(o, 0, Point::new(2, -10)), ARC_STARBOARD);
    }

    #[test]
    fn hull_top_and_bottom_when_steeper_than_45() {
        let t = Point::new(0, 0);
        assert_eq!(
            facing_presented(t, 0, 10, Point::new(5, 0), 30),
            TargetFacing::HullTop
        );
        assert_eq!(
            facing_presented(t, 0, 30, Point::new(5, 0), 10),
            TargetFacing::HullBottom
        );
        assert_eq!(
            facing_presented(t, 0, 10, Point::new(50, 0), 30),
            TargetFacing::Bow
        );
        assert_eq!(
            facing_presented(t, 0, 10, Point::new(0, 50), 10),
            TargetFacing::Broadside
        );
    }

    #[test]
    fn elevation_limits() {
        // Heavy gun: 45 degrees up (tan 1.0), 15 down (tan 0.2679).
        assert!(can_lay(0, 10, 100, 10_000, 2679));
        assert!(!can_lay(0, 11, 100, 10_000, 2679));
        assert!(can_lay(10, 0, 1600, 10_000, 2679)); // 10/40 = 0.25 < 0.2679
        assert!(!can_lay(10, 0, 900, 10_000, 2679)); // 10/30 = 0.33
        assert!(can_lay(0, 30, 0, i64::MAX, 2679));
    }

    #[test]
    fn segment_distance() {
        let d = segment_distance2(Point::new(0, 0), Point::new(100, 0), Point::new(50, 4));
        assert_eq!(d, 16);
        let d = segment_distance2(Point::new(0, 0), Point::new(100, 0), Point::new(110, 0));
        assert_eq!(d, 100);
    }
}
