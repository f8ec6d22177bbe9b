//! The field of a mass battle: positions in inches on the table, facings,
//! and the footprint each unit's stands cover (PART I: MOVEMENT TRAYS AND
//! ORGANIZATION; MELEE: units fight when stands touch).
//!
//! A unit is a rectangle: the centre of its front edge, the direction it
//! faces, its frontage (the first rank's stands side by side) and its
//! depth (its ranks). Everything the rules decide by the placement of the
//! figures is read from these rectangles: how far a unit must go straight
//! ahead before its front touches an enemy ([`ahead`]), how far its front is
//! from an enemy ([`front_gap`], missile ranges), and whether a contact is on
//! the enemy's front, flank or rear ([`side_of`]).
//!
//! Axis-aligned facings are exact (see [`facing_vector`]), so a field whose
//! units all stand on one line across the table measures every distance as
//! the one-axis model did, to the bit.

use super::battle::Approach;

/// A point or direction on the table, in inches: `[x, y]`.
pub type V2 = [f64; 2];

/// Tolerance for touching (inches).
const EPS: f64 = 1e-9;

fn sub(a: V2, b: V2) -> V2 {
    [a[0] - b[0], a[1] - b[1]]
}

fn add_scaled(a: V2, d: V2, k: f64) -> V2 {
    [a[0] + d[0] * k, a[1] + d[1] * k]
}

fn dot(a: V2, b: V2) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

fn cross(a: V2, b: V2) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

/// Length of `a`.
pub fn norm(a: V2) -> f64 {
    dot(a, a).sqrt()
}

/// The unit vector of a facing in degrees, clockwise from "up the table"
/// (0 faces `+y`, 90 faces `+x`, 180 faces `-y`, 270 faces `-x`); exact at
/// multiples of 90 degrees.
pub fn facing_vector(degrees: f64) -> V2 {
    let d = degrees.rem_euclid(360.0);
    if d == 0.0 {
        [0.0, 1.0]
    } else if d == 90.0 {
        [1.0, 0.0]
    } else if d == 180.0 {
        [0.0, -1.0]
    } else if d == 270.0 {
        [-1.0, 0.0]
    } else {
        let r = d.to_radians();
        [r.sin(), r.cos()]
    }
}

/// `a` moved `k` inches along `d` (a unit vector).
pub fn step(a: V2, d: V2, k: f64) -> V2 {
    add_scaled(a, d, k)
}

/// The unit vector from `a` toward `b` (`None` when they coincide).
pub fn toward(a: V2, b: V2) -> Option<V2> {
    let d = sub(b, a);
    let n = norm(d);
    (n > EPS).then(|| [d[0] / n, d[1] / n])
}

/// Where a unit stands: the ground its stands cover.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Footprint {
    /// Centre of its front edge.
    pub front: V2,
    /// Unit vector it faces.
    pub facing: V2,
    /// Frontage in inches.
    pub width: f64,
    /// Depth in inches.
    pub depth: f64,
}

impl Footprint {
    /// The unit vector to its right.
    pub fn right(&self) -> V2 {
        [self.facing[1], -self.facing[0]]
    }

    /// Its front edge, left end first.
    pub fn front_edge(&self) -> (V2, V2) {
        let half = self.width / 2.0;
        let r = self.right();
        (
            add_scaled(self.front, r, -half),
            add_scaled(self.front, r, half),
        )
    }

    /// Its corners: front left, front right, rear right, rear left.
    pub fn corners(&self) -> [V2; 4] {
        let (fl, fr) = self.front_edge();
        [
            fl,
            fr,
            add_scaled(fr, self.facing, -self.depth),
            add_scaled(fl, self.facing, -self.depth),
        ]
    }

    /// Whether `p` lies inside (or on) the rectangle.
    fn contains(&self, p: V2) -> bool {
        let rel = sub(p, self.front);
        let f = dot(rel, self.facing);
        let l = dot(rel, self.right());
        f <= EPS && f >= -self.depth - EPS && l.abs() <= self.width / 2.0 + EPS
    }

    /// The point of the rectangle nearest to `p`.
    pub fn nearest(&self, p: V2) -> V2 {
        let rel = sub(p, self.front);
        let f = dot(rel, self.facing).clamp(-self.depth, 0.0);
        let l = dot(rel, self.right()).clamp(-self.width / 2.0, self.width / 2.0);
        add_scaled(add_scaled(self.front, self.facing, f), self.right(), l)
    }
}

/// Distance from `p` to the segment `a`–`b`.
fn point_segment(p: V2, a: V2, b: V2) -> f64 {
    let d = sub(b, a);
    let len2 = dot(d, d);
    let t = if len2 > 0.0 {
        (dot(sub(p, a), d) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    norm(sub(p, add_scaled(a, d, t)))
}

/// Where the ray `o + t·dir` (t ≥ 0) meets the segment `a`–`b`, if it does.
fn ray_segment(o: V2, dir: V2, a: V2, b: V2) -> Option<f64> {
    let e = sub(b, a);
    let denom = cross(dir, e);
    if denom.abs() < EPS {
        return None;
    }
    let ao = sub(a, o);
    let t = cross(ao, e) / denom;
    let s = cross(ao, dir) / denom;
    (t >= -EPS && (-EPS..=1.0 + EPS).contains(&s)).then_some(t.max(0.0))
}

/// Distance between the segments `a` and `b` (0 when they cross).
fn segment_segment(a: (V2, V2), b: (V2, V2)) -> f64 {
    let d = sub(a.1, a.0);
    if let Some(t) = ray_segment(a.0, d, b.0, b.1)
        && t <= 1.0 + EPS
    {
        return 0.0;
    }
    point_segment(a.0, b.0, b.1)
        .min(point_segment(a.1, b.0, b.1))
        .min(point_segment(b.0, a.0, a.1))
        .min(point_segment(b.1, a.0, a.1))
}

fn edges(fp: &Footprint) -> [(V2, V2); 4] {
    let c = fp.corners();
    [(c[0], c[1]), (c[1], c[2]), (c[2], c[3]), (c[3], c[0])]
}

/// Distance from unit `a`'s front edge to any part of unit `b` (missile
/// ranges, contact).
pub fn front_gap(a: &Footprint, b: &Footprint) -> f64 {
    let front = a.front_edge();
    if b.contains(front.0) || b.contains(front.1) {
        return 0.0;
    }
    edges(b)
        .iter()
        .map(|&e| segment_segment(front, e))
        .fold(f64::INFINITY, f64::min)
}

/// Distance between the front edges of two units (a friend routing
/// "within 3 inches").
pub fn front_to_front(a: &Footprint, b: &Footprint) -> f64 {
    segment_segment(a.front_edge(), b.front_edge())
}

/// How far unit `a` must move straight ahead before its front touches
/// unit `b`; `None` if going straight ahead it never does.
pub fn ahead(a: &Footprint, b: &Footprint) -> Option<f64> {
    if front_gap(a, b) <= EPS {
        return Some(0.0);
    }
    let (l, r) = a.front_edge();
    let back = [-a.facing[0], -a.facing[1]];
    let mut best: Option<f64> = None;
    let mut keep = |t: Option<f64>| {
        if let Some(t) = t {
            best = Some(best.map_or(t, |b| b.min(t)));
        }
    };
    for e in edges(b) {
        keep(ray_segment(l, a.facing, e.0, e.1));
        keep(ray_segment(r, a.facing, e.0, e.1));
    }
    for c in b.corners() {
        keep(ray_segment(c, back, l, r));
    }
    best
}

/// From which side of `d` a unit standing at `a` (its front touching `d`)
/// attacks: the front when `a` stands ahead of `d`'s front line with the
/// two fronts overlapping, the rear when it stands behind `d`'s rear line
/// overlapping it, the flank otherwise (MELEE: Flank Attack, Rear Attack).
pub fn side_of(a: &Footprint, d: &Footprint) -> Approach {
    let rel = sub(a.front, d.front);
    let f = dot(rel, d.facing);
    let l = dot(rel, d.right());
    let half_a = a.width / 2.0 * dot(a.right(), d.right()).abs();
    let opposite = l.abs() < d.width / 2.0 + half_a - EPS;
    if opposite && f >= -EPS {
        Approach::Front
    } else if opposite && f <= -d.depth + EPS {
        Approach::Rear
    } else {
        Approach::Flank
    }
}

/// Whether some part of unit `b` lies in the arc of fire of unit `a`:
/// `arc` degrees to the left and to the right of straight ahead, seen from
/// either end or the centre of `a`'s front edge [MISSILES: Arc of Fire].
pub fn in_arc(a: &Footprint, b: &Footprint, arc: [f64; 2]) -> bool {
    let (l, r) = a.front_edge();
    let right = a.right();
    let [left_limit, right_limit] = [arc[0].to_radians(), arc[1].to_radians()];
    let within = |o: V2, p: V2| {
        let rel = sub(p, o);
        let angle = dot(rel, right).atan2(dot(rel, a.facing));
        (-left_limit - EPS..=right_limit + EPS).contains(&angle)
    };
    let ray = |theta: f64| -> V2 {
        let (sin, cos) = theta.sin_cos();
        [
            a.facing[0] * cos + right[0] * sin,
            a.facing[1] * cos + right[1] * sin,
        ]
    };
    let bounds = [ray(-left_limit), ray(0.0), ray(right_limit)];
    [l, a.front, r].iter().any(|&o| {
        b.corners().iter().any(|&c| within(o, c))
            || b.contains(o)
            || bounds.iter().any(|&d| {
                edges(b)
                    .iter()
                    .any(|e| ray_segment(o, d, e.0, e.1).is_some())
            })
    })
}

/// How the front of `a` lies across the front (or rear) edge of `d`,
/// measured along `d`'s width: the lengths of `a`'s front beyond `d`'s left
/// and right ends, and of `d`'s width beyond the ends of `a`'s front on its
/// left and right [MELEE: Overlapping]. Left and right are `d`'s.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Across {
    /// `a`'s front beyond `d`'s left end.
    pub a_left: f64,
    /// `a`'s front beyond `d`'s right end.
    pub a_right: f64,
    /// `d`'s width left of `a`'s front.
    pub d_left: f64,
    /// `d`'s width right of `a`'s front.
    pub d_right: f64,
}

/// See [`Across`].
pub fn across(a: &Footprint, d: &Footprint) -> Across {
    let (l, r) = a.front_edge();
    let right = d.right();
    let (p, q) = (dot(sub(l, d.front), right), dot(sub(r, d.front), right));
    let (lo, hi) = (p.min(q), p.max(q));
    let half = d.width / 2.0;
    Across {
        a_left: (-half - lo).clamp(0.0, hi - lo),
        a_right: (hi - half).clamp(0.0, hi - lo),
        d_left: (lo + half).clamp(0.0, d.width),
        d_right: (half - hi).clamp(0.0, d.width),
    }
}

/// How the front of `a` lies along the flank of `d` (its depth): the length
/// touching the side between `d`'s front and rear lines, the length beyond
/// its rear line and the length ahead of its front line.
pub fn along_flank(a: &Footprint, d: &Footprint) -> (f64, f64, f64) {
    let (l, r) = a.front_edge();
    let (p, q) = (
        dot(sub(l, d.front), d.facing),
        dot(sub(r, d.front), d.facing),
    );
    let (lo, hi) = (p.min(q), p.max(q));
    let touching = (hi.min(0.0) - lo.max(-d.depth)).max(0.0);
    let past_rear = (-d.depth - lo).clamp(0.0, hi - lo);
    let ahead_of_front = hi.clamp(0.0, hi - lo);
    (touching, past_rear, ahead_of_front)
}

/// Where attacker `a`, in contact with `d` on `side`, stands once it has
/// squared up to that side (ours: the rules lay stands against stands, so
/// the last of the move wheels its front flat against the side it meets,
/// and the stands close on the enemy as the melee goes on): facing `d`'s
/// front, its front on `d`'s front line; behind `d`, its front on `d`'s
/// rear line, in both cases slid along the line only as far as needed for
/// the narrower front to lie wholly against the wider; on a flank, its
/// front along that side from `d`'s front corner back. Returns its front
/// centre and facing.
pub fn square_up(a: &Footprint, d: &Footprint, side: Approach) -> (V2, V2) {
    let right = d.right();
    let slack = (d.width - a.width).abs() / 2.0;
    let l = dot(sub(a.front, d.front), right).clamp(-slack, slack);
    match side {
        Approach::Front => (add_scaled(d.front, right, l), [-d.facing[0], -d.facing[1]]),
        Approach::Rear => (
            add_scaled(add_scaled(d.front, d.facing, -d.depth), right, l),
            d.facing,
        ),
        Approach::Flank => {
            let lateral = dot(sub(a.front, d.front), right);
            let sign = if lateral > 0.0 { 1.0 } else { -1.0 };
            let corner = add_scaled(d.front, right, sign * d.width / 2.0);
            (
                add_scaled(corner, d.facing, -a.width / 2.0),
                [-sign * right[0], -sign * right[1]],
            )
        }
    }
}

/// Whether two footprints share ground (touching edges do not count).
pub fn overlaps(a: &Footprint, b: &Footprint) -> bool {
    let (ca, cb) = (a.corners(), b.corners());
    let range = |c: &[V2; 4], axis: V2| {
        c.iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &p| {
                let x = dot(p, axis);
                (lo.min(x), hi.max(x))
            })
    };
    [a.facing, a.right(), b.facing, b.right()]
        .iter()
        .all(|&axis| {
            let (pa, pb) = (range(&ca, axis), range(&cb, axis));
            pa.1 > pb.0 + EPS && pb.1 > pa.0 + EPS
        })
}

/// The ground beside `d` that stands wrapping onto its `side` ([`LEFT`],
/// [`RIGHT`] or [`REAR`]) move onto, `reach` inches out from it [MELEE:
/// Overlapping].
pub fn wrap_zone(d: &Footprint, side: u8, reach: f64) -> Footprint {
    if side == REAR {
        Footprint {
            front: add_scaled(d.front, d.facing, -d.depth),
            facing: d.facing,
            width: d.width,
            depth: reach,
        }
    } else {
        let sign = if side == RIGHT { 1.0 } else { -1.0 };
        Footprint {
            front: add_scaled(d.front, d.right(), sign * (d.width + reach) / 2.0),
            facing: d.facing,
            width: reach,
            depth: d.depth,
        }
    }
}

/// Sides of a unit an enemy can touch, as bits of a mask.
pub const FRONT: u8 = 1;
/// Its left flank.
pub const LEFT: u8 = 2;
/// Its right flank.
pub const RIGHT: u8 = 4;
/// Its rear.
pub const REAR: u8 = 8;

/// The side of `d` that a unit standing at `a` touches, as a [`FRONT`],
/// [`LEFT`], [`RIGHT`] or [`REAR`] bit.
pub fn side_bit(a: &Footprint, d: &Footprint) -> u8 {
    match side_of(a, d) {
        Approach::Front => FRONT,
        Approach::Rear => REAR,
        Approach::Flank => {
            if dot(sub(a.front, d.front), d.right()) > 0.0 {
                RIGHT
            } else {
                LEFT
            }
        }
    }
}

/// Whether enemies touching the sides in `mask` surround a unit (MORALE:
/// surrounded in the open): on three sides or more, or front and rear
/// both (ours: the rules do not define it; either leaves no way out).
pub fn surrounds(mask: u8) -> bool {
    mask.count_ones() >= 3 || mask & (FRONT | REAR) == FRONT | REAR
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(front: V2, degrees: f64, width: f64, depth: f64) -> Footprint {
        Footprint {
            front,
            facing: facing_vector(degrees),
            width,
            depth,
        }
    }

    #[test]
    fn facing_lines_measure_the_one_axis_gap_exactly() {
        // Two units 48" apart face to face, fronts overlapping.
        let a = unit([0.0, 0.0], 0.0, 5.0, 1.0);
        let b = unit([1.5, 48.0], 180.0, 5.0, 1.5);
        assert_eq!(ahead(&a, &b), Some(48.0));
        assert_eq!(front_gap(&a, &b), 48.0);
        assert_eq!(front_gap(&b, &a), 48.0);
        assert_eq!(side_of(&a, &b), Approach::Front);
        // In the lane beside b: the fronts only touch at the corner, and the
        // unit coming level with b's front is on its flank.
        let c = unit([-5.0 + 1.5, 0.0], 0.0, 5.0, 1.0);
        assert_eq!(ahead(&c, &b), Some(48.0));
        assert_eq!(front_gap(&c, &b), 48.0);
        let there = unit([-3.5, 48.0], 0.0, 5.0, 1.0);
        assert_eq!(side_of(&there, &b), Approach::Flank);
        // One lane further out it never meets b going straight ahead.
        let d = unit([-6.0, 0.0], 0.0, 5.0, 1.0);
        assert_eq!(ahead(&d, &b), None);
    }

    #[test]
    fn front_flank_and_rear_follow_from_where_the_attacker_stands() {
        // b faces up the table, 10" wide, 2" deep, front at y = 0.
        let b = unit([0.0, 0.0], 0.0, 10.0, 2.0);
        // Facing it from ahead.
        let front = unit([2.0, 0.0], 180.0, 4.0, 1.0);
        assert_eq!(side_of(&front, &b), Approach::Front);
        // Against its left side, facing right.
        let flank = unit([-5.0, -1.0], 90.0, 4.0, 1.0);
        assert_eq!(front_gap(&flank, &b), 0.0);
        assert_eq!(side_of(&flank, &b), Approach::Flank);
        // Behind it, facing up the table too.
        let rear = unit([0.0, -2.0], 0.0, 4.0, 1.0);
        assert_eq!(front_gap(&rear, &b), 0.0);
        assert_eq!(side_of(&rear, &b), Approach::Rear);
        // A unit 6" to the left facing right reaches the flank after 6".
        let out = unit([-11.0, -1.0], 90.0, 1.0, 1.0);
        assert_eq!(ahead(&out, &b), Some(6.0));
    }

    #[test]
    fn arcs_of_fire_for_foot_and_mounted() {
        // [MISSILES: Arc of Fire] foot 45 degrees either way; mounted 135
        // left, 45 right. A 2" shooter at the origin facing up the table.
        let a = unit([0.0, 0.0], 0.0, 2.0, 1.0);
        let target = |x: f64, y: f64| unit([x, y], 180.0, 1.0, 1.0);
        let foot = [45.0, 45.0];
        let mounted = [135.0, 45.0];
        // Straight ahead, 30 degrees right, 60 degrees right of every
        // point of the front.
        assert!(in_arc(&a, &target(0.0, 20.0), foot));
        assert!(in_arc(&a, &target(11.0, 20.0), foot));
        assert!(!in_arc(&a, &target(40.0, 20.0), foot));
        assert!(!in_arc(&a, &target(40.0, 20.0), mounted));
        // Level with it on the left: only mounted troops may shoot.
        assert!(!in_arc(&a, &target(-20.0, 0.5), foot));
        assert!(in_arc(&a, &target(-20.0, 0.5), mounted));
        // Behind it: nobody.
        assert!(!in_arc(&a, &target(0.0, -20.0), mounted));
        // A long target crossing the arc with every corner outside it.
        let wall = unit([0.0, 10.0], 180.0, 100.0, 0.5);
        assert!(in_arc(&a, &wall, foot));
    }

    #[test]
    fn fronts_across_each_other_and_along_a_flank() {
        // [MELEE: Overlapping] a 10" unit facing a 5" one, its centre 1"
        // to d's right: it overhangs d's left end by 1.5" and its right end
        // by 3.5", and covers all of d's front.
        let d = unit([0.0, 0.0], 0.0, 5.0, 1.0);
        let a = unit([1.0, 0.0], 180.0, 10.0, 1.0);
        let x = across(&a, &d);
        assert_eq!(
            (x.a_left, x.a_right, x.d_left, x.d_right),
            (1.5, 3.5, 0.0, 0.0)
        );
        let y = across(&d, &a);
        assert_eq!((y.a_left, y.a_right), (0.0, 0.0));
        assert_eq!(y.d_left + y.d_right, 5.0);
        // Squared up on d's left flank, a 4" front along a 1" deep side:
        // 1" touching, 3" past the rear, nothing ahead of its front.
        let b = unit([-9.0, -0.5], 90.0, 4.0, 1.0);
        let (pos, facing) = square_up(&b, &d, Approach::Flank);
        let wheeled = Footprint {
            front: pos,
            facing,
            width: 4.0,
            depth: 1.0,
        };
        assert_eq!(facing, [1.0, 0.0]);
        assert_eq!(along_flank(&wheeled, &d), (1.0, 3.0, 0.0));
        assert_eq!(side_bit(&wheeled, &d), LEFT);
        // A 2" front meeting d's 5" front at its end slides in until it
        // lies wholly against it; a 10" front covers all of d.
        let end = unit([3.0, 0.0], 180.0, 2.0, 1.0);
        assert_eq!(square_up(&end, &d, Approach::Front).0, [1.5, 0.0]);
        assert_eq!(square_up(&a, &d, Approach::Front).0, [1.0, 0.0]);
        // The ground beside d's right flank, 2" out, and who stands on it.
        let zone = wrap_zone(&d, RIGHT, 2.0);
        assert!(overlaps(&zone, &unit([3.5, 0.0], 0.0, 1.0, 1.0)));
        assert!(!overlaps(&zone, &unit([5.0, 0.0], 0.0, 1.0, 1.0)));
        assert!(!overlaps(&zone, &d));
        let rear = wrap_zone(&d, REAR, 2.0);
        assert!(overlaps(&rear, &unit([0.0, -2.0], 0.0, 1.0, 0.5)));
    }

    #[test]
    fn nearest_point_and_turning_toward_it() {
        let b = unit([0.0, 10.0], 180.0, 4.0, 2.0);
        // From far off to the left, the nearest point is b's left end.
        let p = b.nearest([-20.0, 0.0]);
        assert_eq!(p, [-2.0, 10.0]);
        let dir = toward([-20.0, 0.0], p).expect("apart");
        let a = Footprint {
            front: [-20.0, 0.0],
            facing: dir,
            width: 2.0,
            depth: 1.0,
        };
        let d = ahead(&a, &b).expect("turned toward it");
        assert!(d > 0.0 && d <= norm([18.0, 10.0]) + 1e-9);
    }
}
