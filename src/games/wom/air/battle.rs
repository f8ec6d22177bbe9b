//! The `wom.air` model: Warriors of Mars aerial battles between fleets of
//! fliers [WoM Part II Aerial Warfare].
//!
//! A turn: each side's captains give orders (their tactic); ships move
//! (straight ahead, climbing or diving, then turning at the end of the
//! move [Movement]); ships that come together at the same altitude collide
//! [Ramming and Collision]; bombers that passed over an enemy drop keel
//! bombs [Bombing Fliers]; guns fire [Fire]; grapples are thrown and cut
//! [Grappling]; grappled ships fight a round of boarding melee [Boarding].
//! With `sequence = "simultaneous"` both sides move and then all fire at
//! once (damage from the fire phase applies after every gun has fired);
//! with `"move-counter-move"` the sides alternate, each firing right after
//! its own move (side A first in odd turns, side B in even turns).

use std::path::Path;

use serde::Deserialize;

use crate::engine::accumulate::MAX_METRICS;
use crate::engine::{Dice, MetricSpec, Model, OutputSpec, Trace, TrialResult};
use crate::scenario::{ScenarioError, parse_toml, read_text};

use super::boarding::{
    Party, casualties_inflicted, grapple_attempts, grapple_cut, grapple_holds, morale_factor,
    odds_band,
};
use super::damage::{
    CriticalOutcome, NONE, ShipState, Status, apply_critical, ceiling, damage_step, kill_figure,
    max_speed, max_turn, take_damage,
};
use super::fire::{
    bomb_score, critical, location, p_2d6_at_least, range_band, range_band_squared, to_hit_score,
};
use super::geometry::{
    HEADING_STEP_DEGREES, Point, along, arc_of, can_lay, facing_presented, heading_of, isqrt,
    segment_distance2, signed_tenths, step, tenths, turn_toward, turned,
};
use super::ships::{
    ARC_BOW, ARC_PORT, ARC_STARBOARD, ARC_STERN, AirData, CASUALTY_UNITS, FIGURE_KINDS, Figure,
    Location, MAX_MOUNTS, SMALL, TargetFacing, facing_name,
};
use super::tactics::{Orders, TACTIC_NAMES, Tactic, orders};

/// Most ships in one battle (both sides together).
pub const MAX_SHIPS: usize = 16;
/// Turn limit when a scenario names none.
pub const DEFAULT_MAX_TURNS: u32 = 40;

/// How the sides take their turns [Movement; Fire].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sequence {
    /// Both sides move, then all guns fire.
    Simultaneous,
    /// Sides alternate, each firing after its own move.
    MoveCounterMove,
}

/// One ship as set up by the scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct ShipSetup {
    /// Its name in traces.
    pub name: String,
    /// Class index.
    pub class: usize,
    /// Side 0 or 1.
    pub side: usize,
    /// Its people in boarding melee.
    pub party: Party,
    /// State at the start of the battle.
    pub start: ShipState,
}

/// One side as set up by the scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct SideSetup {
    /// Label in outcomes.
    pub label: String,
    /// Its captains' policy.
    pub tactic: Tactic,
    /// Fire is concentrated on one target, ordered a turn ahead.
    pub concentrate: bool,
    /// Its ships steer evasively.
    pub evasive: bool,
}

/// A loaded `wom.air` scenario.
#[derive(Debug, Clone)]
pub struct WomAir {
    spec: OutputSpec,
    /// The rules' tables.
    pub data: AirData,
    /// Ships, side A first.
    pub ships: Vec<ShipSetup>,
    /// The two sides.
    pub sides: [SideSetup; 2],
    /// Turns before the battle is called undecided.
    pub max_turns: u32,
    /// Turn sequence.
    pub sequence: Sequence,
    /// Roll hull-top criticals for keel bomb hits (optional rule).
    pub bomb_criticals: bool,
    wanted_range: Vec<i32>,
    /// Per ship, the first of its class group's three metric slots (lost,
    /// captured, crippled); see [`class_groups`].
    group_slot: Vec<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AirFile {
    model: String,
    description: String,
    data: Option<String>,
    max_turns: Option<i64>,
    sequence: Option<String>,
    #[serde(default)]
    bomb_criticals: bool,
    sides: Vec<SideFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideFile {
    label: Option<String>,
    tactic: String,
    #[serde(default)]
    concentrate: bool,
    #[serde(default)]
    evasive: bool,
    morale: Option<String>,
    melee: Option<String>,
    ships: Vec<ShipFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PersonalityFile {
    name: String,
    melee: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShipFile {
    class: String,
    name: Option<String>,
    x: f64,
    y: f64,
    #[serde(default)]
    altitude: f64,
    #[serde(default)]
    heading: i64,
    morale: Option<String>,
    personality: Option<PersonalityFile>,
    guns: Option<std::collections::BTreeMap<String, u8>>,
    figures: Option<std::collections::BTreeMap<String, u16>>,
    /// Starts grappled to this ship of the other side (its index there),
    /// ready to board it.
    grappled_to: Option<usize>,
    /// Grapples holding at the start (with `grappled_to`).
    #[serde(default)]
    grapples: u16,
}

/// Metric slots.
const M_TURNS: usize = 0;
const M_LOST: usize = 1;
const M_CAPTURED: usize = 3;
const M_DAMAGE: usize = 4;
const M_CREW: usize = 6;
/// First per-class slot: three metrics (destroyed, captured, crippled) per group.
const M_CLASS: usize = 8;
/// Class groups that fit beside the fixed metrics.
const MAX_CLASS_GROUPS: usize = (MAX_METRICS - M_CLASS) / 3;

impl WomAir {
    /// Loads a `wom.air` scenario and the data it names.
    pub fn load(path: &Path) -> Result<(Self, String), ScenarioError> {
        let text = read_text(path)?;
        let file: AirFile = parse_toml(path, &text)?;
        crate::scenario::expect_model(path, &file.model, "wom.air")?;
        let dir = crate::scenario::data_dir(path, file.data.as_deref());
        let data = AirData::load(&dir)?;
        let model = Self::build(path, &file, data)?;
        Ok((model, file.description))
    }

    fn build(path: &Path, file: &AirFile, data: AirData) -> Result<Self, ScenarioError> {
        let err = |field: String, message: String| ScenarioError::new(path, field, message);
        if file.sides.len() != 2 {
            return Err(err(
                "sides".into(),
                format!("expected exactly 2 [[sides]], found {}", file.sides.len()),
            ));
        }
        let max_turns = match file.max_turns {
            None => DEFAULT_MAX_TURNS,
            Some(n) if (1..=10_000).contains(&n) => n as u32,
            Some(n) => {
                return Err(err(
                    "max_turns".into(),
                    format!("expected 1 to 10000, found {n}"),
                ));
            }
        };
        let sequence = match file.sequence.as_deref() {
            None | Some("simultaneous") => Sequence::Simultaneous,
            Some("move-counter-move") => Sequence::MoveCounterMove,
            Some(other) => {
                return Err(err(
                    "sequence".into(),
                    format!("expected \"simultaneous\" or \"move-counter-move\", found {other:?}"),
                ));
            }
        };
        let total: usize = file.sides.iter().map(|s| s.ships.len()).sum();
        if total > MAX_SHIPS {
            return Err(err(
                "sides".into(),
                format!("expected at most {MAX_SHIPS} ships in all, found {total}"),
            ));
        }
        let morale_ids = || {
            data.morale_classes
                .iter()
                .map(|(id, _)| id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let melee_row = |field: String, id: &str| {
            data.melee_rows.iter().position(|r| r == id).ok_or_else(|| {
                err(
                    field,
                    format!(
                        "expected a melee type of air-boarding.toml ({}), found {id:?}",
                        data.melee_rows.join(", ")
                    ),
                )
            })
        };
        let mut ships = Vec::new();
        let mut sides = Vec::new();
        for (si, side) in file.sides.iter().enumerate() {
            let sf = |x: &str| format!("sides[{si}].{x}");
            let tactic = Tactic::parse(&side.tactic).ok_or_else(|| {
                err(
                    sf("tactic"),
                    format!(
                        "expected one of {}, found {:?}",
                        TACTIC_NAMES.join(", "),
                        side.tactic
                    ),
                )
            })?;
            if side.ships.is_empty() {
                return Err(err(sf("ships"), "expected at least one ship".into()));
            }
            let side_melee = side.melee.as_deref().unwrap_or("human-infantry");
            for (k, ship) in side.ships.iter().enumerate() {
                let f = |x: &str| format!("sides[{si}].ships[{k}].{x}");
                let class = data.class_index(&ship.class).ok_or_else(|| {
                    err(
                        f("class"),
                        format!(
                            "unknown ship class {:?}: expected one of {}",
                            ship.class,
                            data.class_ids()
                        ),
                    )
                })?;
                let c = &data.classes[class];
                let morale_id = ship
                    .morale
                    .as_deref()
                    .or(side.morale.as_deref())
                    .unwrap_or("regulars");
                let steady = data
                    .morale_classes
                    .iter()
                    .find(|(id, _)| id == morale_id)
                    .map(|(_, s)| *s)
                    .ok_or_else(|| {
                        err(
                            f("morale"),
                            format!(
                                "expected a morale class ({}), found {morale_id:?}",
                                morale_ids()
                            ),
                        )
                    })?;
                let row = melee_row(sf("melee"), side_melee)?;
                let column = data.melee_types.iter().position(|t| t == side_melee).ok_or_else(|| {
                    err(sf("melee"), format!("expected a defender type of the melee table ({}), found {side_melee:?}", data.melee_types.join(", ")))
                })?;
                let personality_row = match &ship.personality {
                    Some(p) => Some(melee_row(f("personality.melee"), &p.melee)?),
                    None => None,
                };
                let mut guns = [0u8; MAX_MOUNTS];
                for (mi, mount) in c.mounts.iter().enumerate() {
                    guns[mi] = mount.count;
                }
                if let Some(refit) = &ship.guns {
                    guns = [0; MAX_MOUNTS];
                    for (facing, count) in refit {
                        let field = f(&format!("guns.{facing}"));
                        let bit = [ARC_BOW, ARC_STARBOARD, ARC_PORT, ARC_STERN].into_iter().find(|b| facing_name(*b) == facing).ok_or_else(|| {
                            err(field.clone(), format!("expected a gun facing: bow, starboard, port or stern, found {facing:?}"))
                        })?;
                        let ports: u32 = c
                            .mounts
                            .iter()
                            .filter(|m| m.facing == bit)
                            .map(|m| u32::from(m.count))
                            .sum();
                        if ports == 0 {
                            return Err(err(
                                field,
                                format!("a {} has no guns on its {facing} facing", c.name),
                            ));
                        }
                        if u32::from(*count) > ports {
                            return Err(err(
                                field,
                                format!(
                                    "a {} carries at most {ports} guns on its {facing} facing, found {count}",
                                    c.name
                                ),
                            ));
                        }
                        let mut left = *count;
                        for (mi, mount) in c.mounts.iter().enumerate() {
                            if mount.facing == bit {
                                let here = left.min(mount.count);
                                guns[mi] = here;
                                left -= here;
                            }
                        }
                    }
                }
                let mut figures = c.figures;
                if let Some(list) = &ship.figures {
                    for (kind, count) in list {
                        let index = ["gunners", "crew", "marines", "troops", "officers"]
                            .iter()
                            .position(|n| n == kind)
                            .ok_or_else(|| {
                                err(
                                    f(&format!("figures.{kind}")),
                                    "expected gunners, crew, marines, troops or officers".into(),
                                )
                            })?;
                        figures[index] = *count;
                    }
                }
                if ship.personality.is_some() {
                    figures[Figure::Personality as usize] = 1;
                }
                if figures.iter().all(|x| *x == 0) {
                    return Err(err(
                        f("figures"),
                        "expected at least one figure aboard".into(),
                    ));
                }
                let x = signed_tenths(ship.x).ok_or_else(|| {
                    err(
                        f("x"),
                        format!("expected inches, a multiple of 0.1, found {}", ship.x),
                    )
                })?;
                let y = signed_tenths(ship.y).ok_or_else(|| {
                    err(
                        f("y"),
                        format!("expected inches, a multiple of 0.1, found {}", ship.y),
                    )
                })?;
                let step_alt = data.movement.altitude_step;
                let alt = tenths(ship.altitude)
                    .filter(|a| *a <= data.movement.ceiling && a % step_alt == 0)
                    .ok_or_else(|| {
                        err(f("altitude"), format!(
                            "expected an altitude from 0 to {} inches in blocks of {} inch, found {}",
                            f64::from(data.movement.ceiling) / 10.0,
                            f64::from(step_alt) / 10.0,
                            ship.altitude
                        ))
                    })?;
                if ship.heading.rem_euclid(i64::from(HEADING_STEP_DEGREES)) != 0 {
                    return Err(err(
                        f("heading"),
                        format!(
                            "expected degrees in steps of {HEADING_STEP_DEGREES}, found {}",
                            ship.heading
                        ),
                    ));
                }
                let heading =
                    (ship.heading.rem_euclid(360) / i64::from(HEADING_STEP_DEGREES)) as u8;
                let start = ShipState::new(c, &guns, figures, Point::new(x, y), alt, heading);
                let name = match (&ship.name, &ship.personality) {
                    (Some(n), _) => n.clone(),
                    (None, _) => format!("{} {}", c.name, k + 1),
                };
                let _ = ship.personality.as_ref().map(|p| &p.name);
                ships.push(ShipSetup {
                    name,
                    class,
                    side: si,
                    party: Party {
                        steady,
                        row,
                        column,
                        personality_row,
                        had_officers: figures[Figure::Officers as usize] > 0,
                    },
                    start,
                });
            }
            sides.push(SideSetup {
                label: side
                    .label
                    .clone()
                    .unwrap_or_else(|| format!("Side {}", ["A", "B"][si])),
                tactic,
                concentrate: side.concentrate,
                evasive: side.evasive,
            });
        }
        for (si, side) in file.sides.iter().enumerate() {
            for (k, ship) in side.ships.iter().enumerate() {
                let Some(target) = ship.grappled_to else {
                    continue;
                };
                let field = format!("sides[{si}].ships[{k}].grappled_to");
                let other_first = if si == 0 {
                    file.sides[0].ships.len()
                } else {
                    0
                };
                if si != 0 || target >= file.sides[1].ships.len() || ship.grapples == 0 {
                    return Err(err(field, "expected a ship of side A naming a ship of side B by its index there, with grapples >= 1".into()));
                }
                let (a, b) = (k, other_first + target);
                if ships[a].start.partner != NONE || ships[b].start.partner != NONE {
                    return Err(err(
                        field,
                        "expected each ship grappled to one other at most".into(),
                    ));
                }
                let same_place = ships[a].start.alt == ships[b].start.alt
                    && ships[a].start.pos.minus(ships[b].start.pos).norm2()
                        <= i64::from(data.movement.grapple_distance).pow(2);
                if !same_place {
                    return Err(err(
                        field,
                        "expected the two ships within grappling distance at the same altitude"
                            .into(),
                    ));
                }
                ships[a].start.partner = b as u8;
                ships[b].start.partner = a as u8;
                ships[a].start.boarder = true;
                for x in [a, b] {
                    ships[x].start.grapples = ship.grapples;
                }
            }
        }
        let [a, b]: [SideSetup; 2] = match sides.try_into() {
            Ok(pair) => pair,
            Err(_) => return Err(err("sides".into(), "expected exactly 2 sides".into())),
        };
        let mut sides = [a, b];
        if sides[0].label == sides[1].label {
            sides[0].label.push_str(" (A)");
            sides[1].label.push_str(" (B)");
        }
        let spec = OutputSpec {
            outcomes: vec![
                format!("{} wins", sides[0].label),
                format!("{} wins", sides[1].label),
                "both sides out of action".into(),
                format!("undecided after {max_turns} turns"),
            ],
            metrics: vec![
                metric("turns", "turns fought"),
                metric(
                    "lost_a",
                    &format!(
                        "{} ships lost (destroyed, abandoned or captured)",
                        sides[0].label
                    ),
                ),
                metric(
                    "lost_b",
                    &format!(
                        "{} ships lost (destroyed, abandoned or captured)",
                        sides[1].label
                    ),
                ),
                metric("captured", "ships of either side captured by boarding"),
                metric(
                    "damage_to_a",
                    &format!("damage points taken by {}", sides[0].label),
                ),
                metric(
                    "damage_to_b",
                    &format!("damage points taken by {}", sides[1].label),
                ),
                metric(
                    "crew_lost_a",
                    &format!("figures lost by {}", sides[0].label),
                ),
                metric(
                    "crew_lost_b",
                    &format!("figures lost by {}", sides[1].label),
                ),
            ],
            length_metric: Some(M_TURNS),
            trends: Vec::new(),
        };
        let (groups, group_slot) = class_groups(&ships);
        let mut spec = spec;
        for group in &groups {
            let class = &data.classes[group.class];
            let (tag, whose) = match group.side {
                Some(side) => (
                    format!("{}_{}", ["a", "b"][side], class.id),
                    format!("{}'s {}", sides[side].label, class.name),
                ),
                None => (class.id.clone(), class.name.clone()),
            };
            spec.metrics.extend([
                metric(
                    &format!("destroyed_{tag}"),
                    &format!("{whose} ships destroyed or abandoned"),
                ),
                metric(
                    &format!("captured_{tag}"),
                    &format!("{whose} ships captured by boarding"),
                ),
                metric(
                    &format!("crippled_{tag}"),
                    &format!(
                        "{whose} ships afloat at the end but crippled (at a damage step that caps speed or leaves them powerless)"
                    ),
                ),
            ]);
        }
        let wanted_range = wanted_ranges(&data);
        Ok(WomAir {
            spec,
            data,
            ships,
            sides,
            max_turns,
            sequence,
            bomb_criticals: file.bomb_criticals,
            wanted_range,
            group_slot,
        })
    }

    /// The range (tenths) at which a ship of class `own` fights one of
    /// class `enemy` under `line-of-battle`.
    pub fn wanted_range(&self, own: usize, enemy: usize) -> i32 {
        self.wanted_range[own * self.data.classes.len() + enemy]
    }
}

fn metric(name: &str, description: &str) -> MetricSpec {
    MetricSpec {
        name: name.into(),
        description: description.into(),
    }
}

/// Ships grouped for the per-class breakdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ClassGroup {
    /// The side, or `None` when both sides' ships of the class are counted
    /// together.
    side: Option<usize>,
    class: usize,
}

/// Groups the ships by side and class in order of first appearance; when
/// that makes more groups than the metric slots hold, by class alone; when
/// even that does not fit, no breakdown (the per-side totals remain).
/// Returns the groups and each ship's first metric slot (0 = none).
fn class_groups(ships: &[ShipSetup]) -> (Vec<ClassGroup>, Vec<usize>) {
    let by = |with_side: bool| {
        let mut groups: Vec<ClassGroup> = Vec::new();
        let slots = ships
            .iter()
            .map(|ship| {
                let key = ClassGroup {
                    side: with_side.then_some(ship.side),
                    class: ship.class,
                };
                let index = groups.iter().position(|g| *g == key).unwrap_or_else(|| {
                    groups.push(key);
                    groups.len() - 1
                });
                M_CLASS + 3 * index
            })
            .collect::<Vec<_>>();
        (groups, slots)
    };
    for with_side in [true, false] {
        let (groups, slots) = by(with_side);
        if groups.len() <= MAX_CLASS_GROUPS {
            return (groups, slots);
        }
    }
    (Vec::new(), vec![0; ships.len()])
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
fn wanted_ranges(data: &AirData) -> Vec<i32> {
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

/// A Barsoomian circle a side has formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Circle {
    center: Point,
    radius: i32,
    phase: u8,
}

/// One battle in progress.
struct Battle<'m> {
    m: &'m WomAir,
    s: [ShipState; MAX_SHIPS],
    n: usize,
    turn: u32,
    orders: [Orders; MAX_SHIPS],
    focus: [u8; 2],
    damage_to: [u32; 2],
    crew_lost: [u32; 2],
    captured: u32,
    circle: [Option<Circle>; 2],
    in_circle: [bool; MAX_SHIPS],
}

fn roll_2d6(dice: &mut Dice) -> u32 {
    dice.d6() + dice.d6()
}

impl<'m> Battle<'m> {
    fn new(m: &'m WomAir) -> Self {
        let mut s = [m.ships[0].start; MAX_SHIPS];
        for (i, ship) in m.ships.iter().enumerate() {
            s[i] = ship.start;
        }
        let idle = Orders {
            speed: 0,
            climb: 0,
            aim: None,
            face: None,
            grapple: NONE,
            cut: false,
            evasive: false,
        };
        Battle {
            m,
            s,
            n: m.ships.len(),
            turn: 0,
            orders: [idle; MAX_SHIPS],
            focus: [NONE; 2],
            damage_to: [0; 2],
            crew_lost: [0; 2],
            captured: 0,
            circle: [None; 2],
            in_circle: [false; MAX_SHIPS],
        }
    }

    fn name(&self, i: usize) -> &str {
        &self.m.ships[i].name
    }

    fn side(&self, i: usize) -> usize {
        self.m.ships[i].side
    }

    fn side_alive(&self, side: usize) -> bool {
        (0..self.n).any(|i| self.side(i) == side && self.s[i].active())
    }

    fn give_orders<T: Trace>(&mut self, side: Option<usize>, dice: &mut Dice, trace: &mut T) {
        for i in 0..self.n {
            if side.is_some_and(|s| s != self.side(i)) || !self.s[i].active() {
                continue;
            }
            let focus = if self.m.sides[self.side(i)].concentrate {
                self.focus[self.side(i)]
            } else {
                NONE
            };
            self.orders[i] = orders(self.m, &self.s[..self.n], i, self.turn, focus, dice);
        }
        for s in 0..2 {
            if side.is_none_or(|x| x == s) && self.m.sides[s].tactic == Tactic::Circle {
                self.circle_orders(s, trace);
            }
        }
    }

    /// Ships of `side` that can keep station in a circle (steering and
    /// power intact, not grappled) [Steering Hits: no circular manoeuvre].
    fn circle_members(&self, side: usize) -> ([u8; MAX_SHIPS], usize) {
        let data = &self.m.data;
        let mut members = [NONE; MAX_SHIPS];
        let mut count = 0;
        for i in 0..self.n {
            let st = &self.s[i];
            let class = &data.classes[self.m.ships[i].class];
            if self.side(i) == side
                && st.active()
                && st.partner == NONE
                && !st.steering_out
                && max_speed(st, class, data) > 0
            {
                members[count] = i as u8;
                count += 1;
            }
        }
        (members, count)
    }

    /// Forms, keeps or breaks a side's Barsoomian circle [Movement,
    /// Exception]: six or more ships within a normal move of their centre
    /// form it; until then they close on the centre.
    fn circle_orders<T: Trace>(&mut self, side: usize, trace: &mut T) {
        let data = &self.m.data;
        let (members, count) = self.circle_members(side);
        for i in 0..self.n {
            if self.side(i) == side {
                self.in_circle[i] = false;
            }
        }
        if count < data.movement.circle_min_ships {
            if self.circle[side].take().is_some() && T::ENABLED {
                let label = &self.m.sides[side].label;
                trace.event("WoM air Barsoomian Circle", || {
                    format!("{label}'s circle breaks up")
                });
            }
            return;
        }
        let (mut sx, mut sy) = (0i64, 0i64);
        for &i in &members[..count] {
            sx += i64::from(self.s[usize::from(i)].pos.x);
            sy += i64::from(self.s[usize::from(i)].pos.y);
        }
        let centroid = Point::new((sx / count as i64) as i32, (sy / count as i64) as i32);
        if self.circle[side].is_none() {
            let close = members[..count].iter().all(|&i| {
                let st = &self.s[usize::from(i)];
                let class = &data.classes[self.m.ships[usize::from(i)].class];
                st.pos.minus(centroid).length() <= max_speed(st, class, data)
            });
            if !close {
                for &i in &members[..count] {
                    let o = &mut self.orders[usize::from(i)];
                    o.aim = Some(centroid);
                    o.face = None;
                }
                return;
            }
            // Circumference = ships x spacing; radius = circumference / 2 pi.
            let radius = ((count as i64 * i64::from(data.movement.circle_spacing) * 10_000)
                / 62_832)
                .max(1) as i32;
            self.circle[side] = Some(Circle {
                center: centroid,
                radius,
                phase: 0,
            });
            if T::ENABLED {
                let label = &self.m.sides[side].label;
                trace.event("WoM air Barsoomian Circle", || {
                    format!(
                        "{label} forms a Barsoomian circle of {count} ships, radius {:.1}\"",
                        f64::from(radius) / 10.0
                    )
                });
            }
        }
        for &i in &members[..count] {
            self.in_circle[usize::from(i)] = true;
        }
    }

    /// Wheels a side's circle round by the slowest member's move: every
    /// member keeps its slot, heading along the circle, broadside out.
    fn circle_move<T: Trace>(&mut self, side: usize, trace: &mut T) {
        let Some(mut circle) = self.circle[side] else {
            return;
        };
        let data = &self.m.data;
        let (members, count) = self.circle_members(side);
        let speed = members[..count]
            .iter()
            .map(|&i| {
                max_speed(
                    &self.s[usize::from(i)],
                    &data.classes[self.m.ships[usize::from(i)].class],
                    data,
                )
            })
            .min()
            .unwrap_or(0);
        let advance = ((i64::from(speed) * 24 * 10_000 + 31_416 * i64::from(circle.radius))
            / (62_832 * i64::from(circle.radius)))
        .max(1);
        circle.phase = ((i64::from(circle.phase) + advance) % 24) as u8;
        self.circle[side] = Some(circle);
        let alt = self.s[usize::from(members[0])].alt;
        for (k, &i) in members[..count].iter().enumerate() {
            let i = usize::from(i);
            if !self.in_circle[i] {
                continue;
            }
            let slot = ((k * 24 / count) as u8 + circle.phase) % 24;
            let st = &mut self.s[i];
            st.pos = step(circle.center, slot, circle.radius);
            st.heading = turned(slot, 6);
            st.from = step(st.pos, turned(st.heading, 12), speed);
            st.alt = alt.min(ceiling(st, &data.classes[self.m.ships[i].class], data));
            st.from_alt = st.alt;
            st.turned = true;
            st.evasive = false;
        }
        if T::ENABLED {
            let label = &self.m.sides[side].label;
            trace.event("WoM air Barsoomian Circle", || {
                format!(
                    "{label}'s circle wheels {:.1}\" round",
                    f64::from(speed) / 10.0
                )
            });
        }
    }

    fn move_side<T: Trace>(&mut self, side: Option<usize>, trace: &mut T) {
        for i in 0..self.n {
            if side.is_none_or(|s| s == self.side(i)) && !self.in_circle[i] {
                self.move_ship(i, trace);
            }
        }
        for s in 0..2 {
            if side.is_none_or(|x| x == s) && self.circle[s].is_some() {
                self.circle_move(s, trace);
            }
        }
    }

    fn move_ship<T: Trace>(&mut self, i: usize, trace: &mut T) {
        let data = &self.m.data;
        let class = &data.classes[self.m.ships[i].class];
        let o = self.orders[i];
        let st = &mut self.s[i];
        st.from = st.pos;
        st.from_alt = st.alt;
        st.turned = false;
        st.evasive = false;
        if !st.active() || st.partner != NONE {
            return;
        }
        let top = ceiling(st, class, data);
        let speed_max = max_speed(st, class, data);
        if speed_max == 0 {
            if T::ENABLED {
                let name = &self.m.ships[i].name;
                trace.event("WoM air Movement", || {
                    format!("{name} is powerless and does not move")
                });
            }
            return;
        }
        let mv = &data.movement;
        let speed = o.speed.clamp(0, speed_max);
        let (blocks, forward) = if o.climb > 0 {
            let k = o
                .climb
                .min((top - st.alt) / mv.altitude_step)
                .min(speed / (mv.climb_cost + mv.run_per_step))
                .max(0);
            (k, speed - k * mv.climb_cost)
        } else if o.climb < 0 {
            let k = (-o.climb)
                .min(st.alt / mv.altitude_step)
                .min(speed / (mv.run_per_step - mv.dive_gain))
                .max(0);
            (-k, speed + k * mv.dive_gain)
        } else {
            (0, speed)
        };
        let least = blocks.abs() * mv.run_per_step;
        let distance = match o.aim {
            Some(aim) => along(st.pos, st.heading, aim).clamp(least, forward),
            None => forward,
        };
        let old_heading = st.heading;
        st.pos = step(st.pos, st.heading, distance);
        st.alt += blocks * mv.altitude_step;
        let desired = match (o.face, o.aim) {
            (Some(h), _) => h,
            (None, Some(aim)) if aim != st.pos => heading_of(aim.minus(st.pos)),
            _ => st.heading,
        };
        st.heading = turn_toward(st.heading, desired, max_turn(st, class, data));
        st.turned = st.heading != old_heading;
        st.evasive = o.evasive && st.turned;
        if T::ENABLED {
            let st = *st;
            let name = &self.m.ships[i].name;
            trace.event("WoM air Movement", || {
                format!(
                    "{name} moves {:.1}\" to ({:.1}, {:.1}) at altitude {:.1}\", heading {} deg{}",
                    f64::from(distance) / 10.0,
                    f64::from(st.pos.x) / 10.0,
                    f64::from(st.pos.y) / 10.0,
                    f64::from(st.alt) / 10.0,
                    u32::from(st.heading) * HEADING_STEP_DEGREES,
                    if st.evasive { " (evasive)" } else { "" }
                )
            });
        }
    }

    fn add_damage<T: Trace>(&mut self, j: usize, points: u32, trace: &mut T) {
        let data = &self.m.data;
        let class = &data.classes[self.m.ships[j].class];
        let before = self.s[j].damage;
        let reached = take_damage(&mut self.s[j], class, data, points);
        self.damage_to[self.side(j)] += self.s[j].damage - before;
        if T::ENABLED {
            let name = self.name(j).to_string();
            let (dmg, max) = (self.s[j].damage, class.max_damage);
            trace.event("WoM air Damage", || {
                format!("{name} takes {points} points: {dmg} of {max}")
            });
            if let Some(step) = reached {
                trace.event("WoM air Damage Effects", || {
                    let what = if step.destroyed {
                        "the ship explodes, burns and crashes".to_string()
                    } else if step.powerless {
                        "powerless, adrift at 100 feet".to_string()
                    } else {
                        "speed and ceiling reduced".to_string()
                    };
                    format!("{name} reaches {}% damage: {what}", step.at)
                });
            }
        }
    }

    fn kill<T: Trace>(&mut self, j: usize, order: &[Figure], trace: &mut T) -> bool {
        match kill_figure(&mut self.s[j], order) {
            Some(kind) => {
                self.crew_lost[self.side(j)] += 1;
                if T::ENABLED {
                    let name = self.name(j).to_string();
                    trace.event("WoM air Hit Location", || {
                        format!("{name} loses one {} figure", kind.name())
                    });
                }
                true
            }
            None => false,
        }
    }

    fn critical_effect<T: Trace>(
        &mut self,
        j: usize,
        effect: super::ships::CriticalEffect,
        trace: &mut T,
    ) -> CriticalOutcome {
        let data = &self.m.data;
        let class = &data.classes[self.m.ships[j].class];
        let out = apply_critical(&mut self.s[j], class, data, effect);
        if out.killed {
            self.crew_lost[self.side(j)] += 1;
        }
        if T::ENABLED {
            let name = self.name(j).to_string();
            trace.event("WoM air Critical Hit Table", || {
                format!(
                    "{name}: {}{}",
                    effect.describe(),
                    if out.abandoned {
                        ": pitched 30 degrees, abandoned"
                    } else {
                        ""
                    }
                )
            });
        }
        out
    }

    /// For each ship, the arc bit of ship `i` it lies in if `i`'s guns can
    /// be laid on it (active enemy within elevation and depression), else 0.
    fn arcs_to(&self, before: &[ShipState; MAX_SHIPS], i: usize) -> [u8; MAX_SHIPS] {
        let data = &self.m.data;
        let gun = &data.guns[data.classes[self.m.ships[i].class].gun];
        let a = &before[i];
        let mut arcs = [0u8; MAX_SHIPS];
        for (j, arc) in arcs.iter_mut().enumerate().take(self.n) {
            let b = &before[j];
            if self.side(j) != self.side(i)
                && b.active()
                && can_lay(
                    a.alt,
                    b.alt,
                    b.pos.minus(a.pos).norm2(),
                    gun.tan_elevation,
                    gun.tan_depression,
                )
            {
                *arc = arc_of(a.pos, a.heading, b.pos);
            }
        }
        arcs
    }

    fn fire<T: Trace>(&mut self, side: Option<usize>, dice: &mut Dice, trace: &mut T) {
        let before = self.s;
        for i in 0..self.n {
            let me = &before[i];
            if side.is_some_and(|s| s != self.side(i)) || !me.active() {
                continue;
            }
            self.s[i].gunners_busy = 0;
            if me.partner != NONE {
                continue;
            }
            let m = self.m;
            let class = &m.data.classes[m.ships[i].class];
            let gunners = u32::from(me.figures[Figure::Gunners as usize]);
            let per_gunner = u32::from(class.guns);
            let gunner_base = u32::from(class.figures[Figure::Gunners as usize]).max(1);
            let mut capacity = (gunners * per_gunner).div_ceil(gunner_base);
            let focus = self.focus[self.side(i)];
            let primary = if m.sides[self.side(i)].concentrate
                && focus != NONE
                && before[usize::from(focus)].active()
            {
                usize::from(focus)
            } else {
                preferred_target(m, &before[..self.n], i, |_| true)
            };
            self.s[i].target = primary as u8;
            let mut fired = 0;
            let arcs = self.arcs_to(&before, i);
            for mount in 0..class.mounts.len() {
                let guns = u32::from(me.guns[mount]);
                if guns == 0 || capacity == 0 {
                    continue;
                }
                let bearing = class.mounts[mount].arcs;
                let target = if primary != usize::from(NONE) && arcs[primary] & bearing != 0 {
                    primary
                } else {
                    preferred_target(m, &before[..self.n], i, |j| arcs[j] & bearing != 0)
                };
                if target == usize::from(NONE) {
                    continue;
                }
                let firing = guns.min(capacity);
                capacity -= firing;
                fired += firing;
                for _ in 0..firing {
                    self.shot(&before, i, target, dice, trace);
                }
            }
            self.s[i].gunners_busy = (fired * gunner_base).div_ceil(per_gunner.max(1)) as u16;
        }
    }

    fn shot<T: Trace>(
        &mut self,
        before: &[ShipState; MAX_SHIPS],
        i: usize,
        j: usize,
        dice: &mut Dice,
        trace: &mut T,
    ) {
        let m = self.m;
        let data = &m.data;
        let class = &data.classes[m.ships[i].class];
        let gun_index = class.gun;
        let gun = &data.guns[gun_index];
        let target_class = &data.classes[m.ships[j].class];
        let (a, b) = (&before[i], &before[j]);
        let dz = i64::from(a.alt - b.alt);
        let range2 = b.pos.minus(a.pos).norm2() + dz * dz;
        let band = range_band_squared(gun, range2);
        let can_damage = target_class.damaged_by[gun_index];
        let size = if can_damage { target_class.size } else { SMALL };
        let rapid = b.evasive || b.moved_at_least(data.very_rapid_move);
        let need = to_hit_score(data, band, size, b.stationary(), rapid);
        let roll = roll_2d6(dice);
        if T::ENABLED {
            let (shooter, target) = (self.name(i).to_string(), self.name(j).to_string());
            let gname = &gun.name;
            trace.event("WoM air To Hit, All Weapons", || {
                format!(
                    "{shooter} {gname} at {target}, {:.1}\" ({}): needs {need}{}{}, rolls {roll}: {}",
                    isqrt(range2) as f64 / 10.0,
                    ["short", "medium", "long"][band],
                    if b.stationary() { " (stationary -1)" } else if rapid { " (rapid/evasive +1)" } else { "" },
                    if can_damage { "" } else { " (only exposed men: a small target)" },
                    if roll as i32 >= need { "hit" } else { "miss" }
                )
            });
        }
        if (roll as i32) < need {
            return;
        }
        let facing = facing_presented(b.pos, b.heading, b.alt, a.pos, a.alt);
        let where_roll = roll_2d6(dice);
        let place = location(data, facing, where_roll);
        if T::ENABLED {
            let target = self.name(j).to_string();
            trace.event("WoM air Hit Location", || {
                format!(
                    "{target} presents its {}: 2d6 {where_roll}: {}",
                    facing.name(),
                    match place {
                        Some(Location::Crew) => "crew",
                        Some(Location::Gun) => "gun",
                        Some(Location::Hull) => "hull",
                        Some(Location::Critical) => "critical hit",
                        None => "no effect",
                    }
                )
            });
        }
        match place {
            None => {}
            Some(Location::Crew) => {
                self.kill(j, &data.crew_hit_order, trace);
            }
            Some(_) if !can_damage && T::ENABLED => {
                let target = self.name(j).to_string();
                let gname = &gun.name;
                trace.event(
                    "WoM air Possibility of Weapon Type Damaging Ship Type",
                    || format!("a {gname} cannot damage {target}"),
                );
            }
            Some(_) if !can_damage => {}
            Some(Location::Gun) => {
                let wanted = match facing {
                    TargetFacing::Bow => ARC_BOW,
                    TargetFacing::Stern => ARC_STERN,
                    TargetFacing::Broadside => arc_of(b.pos, b.heading, a.pos),
                    _ => ARC_BOW | ARC_STARBOARD | ARC_PORT | ARC_STERN,
                };
                let hit = target_class
                    .mounts
                    .iter()
                    .enumerate()
                    .position(|(mi, mt)| mt.facing & wanted != 0 && self.s[j].guns[mi] > 0);
                if let Some(mi) = hit {
                    self.s[j].guns[mi] -= 1;
                }
                if T::ENABLED {
                    let target = self.name(j).to_string();
                    trace.event("WoM air Hit Location", || match hit {
                        Some(mi) => format!(
                            "{target} loses a gun on its {}",
                            facing_name(target_class.mounts[mi].facing)
                        ),
                        None => format!("{target} has no gun left on that facing: no effect"),
                    });
                }
            }
            Some(Location::Hull) => self.add_damage(j, gun.damage, trace),
            Some(Location::Critical) => {
                let d6 = dice.d6();
                let effect = critical(data, facing, d6);
                let out = self.critical_effect(j, effect, trace);
                self.add_damage(j, gun.damage * out.damage_halves / 2, trace);
            }
        }
    }

    /// Ships that came together during the move of `side` (both sides when
    /// `None`; a ship of the other side stood still meanwhile): both moving
    /// in straight lines over the move, their closest approach at the same
    /// altitude was within the collision distance, at a relative speed of
    /// 1" or more [Ramming and Collision].
    fn collisions<T: Trace>(&mut self, side: Option<usize>, dice: &mut Dice, trace: &mut T) {
        let data = &self.m.data;
        let mv = &data.movement;
        let m = self.m;
        let moving = |k: usize| side.is_none_or(|x| x == m.ships[k].side);
        for i in 0..self.n {
            for j in i + 1..self.n {
                let (a, b) = (self.s[i], self.s[j]);
                if !a.active() || !b.active() || a.partner == j as u8 || !(moving(i) || moving(j)) {
                    continue;
                }
                if (a.alt - b.alt).abs() >= mv.altitude_step {
                    continue;
                }
                let start = |k: usize, st: &ShipState| if moving(k) { st.from } else { st.pos };
                let (from_a, from_b) = (start(i, &a), start(j, &b));
                let rel_from = from_a.minus(from_b);
                let rel_to = a.pos.minus(b.pos);
                if segment_distance2(rel_from, rel_to, Point::default())
                    > i64::from(mv.collision_distance).pow(2)
                {
                    continue;
                }
                let relative = rel_to.minus(rel_from).length();
                if relative < mv.collision_min_speed {
                    continue;
                }
                let (ca, cb) = (
                    &data.classes[self.m.ships[i].class],
                    &data.classes[self.m.ships[j].class],
                );
                let lighter_max = ca.max_damage.min(cb.max_damage);
                let percent = (relative as u32 / 10) * mv.collision_percent_per_inch;
                let points = (u64::from(lighter_max) * u64::from(percent) / 100) as u32;
                if T::ENABLED {
                    let (na, nb) = (self.name(i).to_string(), self.name(j).to_string());
                    trace.event("WoM air Ramming and Collision", || {
                        format!("{na} and {nb} collide at {:.1}\" relative speed: {percent}% of the lighter ship, {points} points each", f64::from(relative) / 10.0)
                    });
                }
                self.add_damage(i, points, trace);
                self.add_damage(j, points, trace);
                // The lighter ship (both if of one class) rolls on the critical
                // hit table; results that only add damage are ignored.
                for (x, y) in [(i, j), (j, i)] {
                    let (cx, cy) = (
                        &data.classes[self.m.ships[x].class],
                        &data.classes[self.m.ships[y].class],
                    );
                    if cx.max_damage > cy.max_damage || !self.s[x].active() {
                        continue;
                    }
                    let (sx, sy) = (self.s[x], self.s[y]);
                    let facing = facing_presented(sx.pos, sx.heading, sx.alt, sy.pos, sy.alt);
                    let effect = critical(data, facing, dice.d6());
                    if matches!(effect, super::ships::CriticalEffect::Damage(_)) {
                        if T::ENABLED {
                            let nx = self.name(x).to_string();
                            trace.event("WoM air Ramming and Collision", || {
                                format!("{nx}: critical roll calls for extra damage: ignored")
                            });
                        }
                    } else {
                        self.critical_effect(x, effect, trace);
                    }
                }
            }
        }
    }

    fn bombing<T: Trace>(&mut self, side: Option<usize>, dice: &mut Dice, trace: &mut T) {
        let data = &self.m.data;
        let reach = i64::from(data.movement.overfly_distance).pow(2);
        for i in 0..self.n {
            let me = self.s[i];
            let class = &data.classes[self.m.ships[i].class];
            if side.is_some_and(|s| s != self.side(i))
                || !me.active()
                || me.bombs == 0
                || me.partner != NONE
                || me.pos == me.from
            {
                continue;
            }
            let mut target = usize::from(NONE);
            let mut best = i64::MAX;
            for j in 0..self.n {
                let t = &self.s[j];
                if self.side(j) == self.side(i) || !t.active() || t.alt >= me.alt {
                    continue;
                }
                let d = segment_distance2(me.from, me.pos, t.pos);
                if d <= reach && d < best {
                    best = d;
                    target = j;
                }
            }
            if target == usize::from(NONE) {
                continue;
            }
            let drops = me.bombs.min(class.bombs_per_turn);
            self.s[i].bombs -= drops;
            let t = self.s[target];
            let target_class = &data.classes[self.m.ships[target].class];
            let moving = t.pos.minus(t.from) != me.pos.minus(me.from);
            let far_below = me.alt - t.alt > data.bombing.far_below_distance;
            let need = bomb_score(data, target_class, moving, far_below);
            let mut hits = 0;
            for _ in 0..drops {
                if roll_2d6(dice) as i32 >= need {
                    hits += 1;
                }
            }
            if T::ENABLED {
                let (ni, nt) = (self.name(i).to_string(), self.name(target).to_string());
                trace.event("WoM air Bombing Table, Aerial Targets", || {
                    format!("{ni} passes over {nt} and drops {drops} keel bombs needing {need} on 2d6: {hits} hit")
                });
            }
            for _ in 0..hits {
                let mut halves = 2;
                if self.bomb_criticals_roll(dice) {
                    let effect = critical(data, TargetFacing::HullTop, dice.d6());
                    halves = self.critical_effect(target, effect, trace).damage_halves;
                }
                self.add_damage(target, data.bombing.damage * halves / 2, trace);
            }
        }
    }

    fn bomb_criticals_roll(&self, dice: &mut Dice) -> bool {
        self.m.bomb_criticals
            && location(&self.m.data, TargetFacing::HullTop, roll_2d6(dice))
                == Some(Location::Critical)
    }

    fn release(&mut self, i: usize) {
        let p = self.s[i].partner;
        for k in [i, usize::from(p)] {
            if k < self.n {
                let st = &mut self.s[k];
                st.partner = NONE;
                st.grapples = 0;
                st.boarding = false;
                st.boarder = false;
                st.disorganized = false;
                st.inflicted = 0;
                st.party_start = 0;
            }
        }
    }

    fn grappling<T: Trace>(&mut self, dice: &mut Dice, trace: &mut T) {
        let data = &self.m.data;
        let mv = &data.movement;
        for i in 0..self.n {
            let p = self.s[i].partner;
            if p != NONE && (!self.s[i].active() || !self.s[usize::from(p)].active()) {
                self.release(i);
            }
        }
        for i in 0..self.n {
            let t = usize::from(self.orders[i].grapple);
            if t >= self.n
                || !self.s[i].active()
                || self.s[i].partner != NONE
                || self.side(t) == self.side(i)
            {
                continue;
            }
            let (a, b) = (self.s[i], self.s[t]);
            if !b.active()
                || b.partner != NONE
                || (a.alt - b.alt).abs() >= mv.altitude_step
                || a.pos.minus(b.pos).norm2() > i64::from(mv.grapple_distance).pow(2)
            {
                continue;
            }
            let attempts = grapple_attempts(&a);
            let holds = (0..attempts)
                .filter(|_| grapple_holds(data, dice.d6()))
                .count() as u16;
            if T::ENABLED {
                let (na, nb) = (self.name(i).to_string(), self.name(t).to_string());
                trace.event("WoM air Grappling", || {
                    format!(
                        "{na} throws {attempts} grapples at {nb} (hold on 1-{}): {holds} hold",
                        data.grapple_max_roll
                    )
                });
            }
            if holds > 0 {
                let turn = self.turn as u16;
                self.s[i].partner = t as u8;
                self.s[t].partner = i as u8;
                for (k, boarder) in [(i, true), (t, false)] {
                    self.s[k].grapples = holds;
                    self.s[k].grappled_turn = turn;
                    self.s[k].boarder = boarder;
                }
            }
        }
        for i in 0..self.n {
            let p = usize::from(self.s[i].partner);
            if p >= self.n || i > p || self.s[i].boarding {
                continue;
            }
            let (cut_i, cut_p) = (self.orders[i].cut, self.orders[p].cut);
            let mut parted = cut_i && cut_p;
            if !parted {
                for c in [i, p] {
                    if !self.orders[c].cut {
                        continue;
                    }
                    let attempts = grapple_attempts(&self.s[c]);
                    let cuts = (0..attempts)
                        .filter(|_| grapple_cut(data, dice.d6()))
                        .count() as u16;
                    let left = self.s[i].grapples.saturating_sub(cuts);
                    self.s[i].grapples = left;
                    self.s[p].grapples = left;
                    parted = left == 0;
                    if T::ENABLED {
                        let nc = self.name(c).to_string();
                        trace.event("WoM air Grappling", || format!("{nc} tries {attempts} cuts (on a 1): {cuts} cut, {left} grapples hold"));
                    }
                }
            } else if T::ENABLED {
                let (ni, np) = (self.name(i).to_string(), self.name(p).to_string());
                trace.event("WoM air Grappling", || {
                    format!("{ni} and {np} both cut: the grapples are gone")
                });
            }
            if parted {
                let (mover, other) = if self.orders[p].cut { (p, i) } else { (i, p) };
                let away = self.s[mover].pos.minus(self.s[other].pos);
                let dir = if away == Point::default() {
                    turned(self.s[mover].heading, 6)
                } else {
                    heading_of(away)
                };
                self.s[mover].pos = step(self.s[other].pos, dir, mv.parted_distance);
                self.release(i);
                if T::ENABLED {
                    let nm = self.name(mover).to_string();
                    trace.event("WoM air Grappling", || {
                        format!("grapples parted: {nm} moves 1\" apart")
                    });
                }
            }
        }
    }

    fn capture<T: Trace>(&mut self, loser: usize, trace: &mut T) {
        self.release(loser);
        self.s[loser].status = Status::Captured;
        self.captured += 1;
        if T::ENABLED {
            let n = self.name(loser).to_string();
            trace.event("WoM air Boarding Melee Table", || {
                format!("{n} surrenders and is captured; her commander jumps off")
            });
        }
    }

    fn boarding<T: Trace>(&mut self, dice: &mut Dice, trace: &mut T) {
        let data = &self.m.data;
        for a in 0..self.n {
            let d = usize::from(self.s[a].partner);
            if d >= self.n || !self.s[a].boarder || u32::from(self.s[a].grappled_turn) >= self.turn
            {
                continue;
            }
            if !self.s[a].boarding {
                for k in [a, d] {
                    self.s[k].boarding = true;
                    self.s[k].party_start = self.s[k].total_figures() as u16;
                    self.s[k].inflicted = 0;
                }
            }
            let (pa, pd) = (self.m.ships[a].party, self.m.ships[d].party);
            let ma = morale_factor(data, &pa, &self.s[a], true);
            let md = morale_factor(data, &pd, &self.s[d], false);
            let fa = u64::from(self.s[a].total_figures()) * ma.max(0) as u64;
            let fd = u64::from(self.s[d].total_figures()) * md.max(0) as u64;
            if T::ENABLED {
                let (na, nd) = (self.name(a).to_string(), self.name(d).to_string());
                let (xa, xd) = (self.s[a].total_figures(), self.s[d].total_figures());
                trace.event("WoM air Boarding", || format!("{na} boards {nd}: {xa} figures x morale {ma} = {fa} against {xd} x {md} = {fd}"));
            }
            if ma <= data.morale.surrender_at {
                self.capture(a, trace);
                continue;
            }
            if md <= data.morale.surrender_at {
                self.capture(d, trace);
                continue;
            }
            let (strong, weak) = if fa >= fd { (a, d) } else { (d, a) };
            let band_index = odds_band(data, fa.max(fd), fa.min(fd));
            let band = data.odds[band_index];
            let ua = casualties_inflicted(data, &pa, &self.s[a], &pd, self.s[d].disorganized);
            let ud = casualties_inflicted(data, &pd, &self.s[d], &pa, self.s[a].disorganized);
            let mut kills = [0u32; 2];
            for (k, (x, units)) in [(a, ua), (d, ud)].into_iter().enumerate() {
                let total = self.s[x].inflicted + units;
                kills[k] = total / CASUALTY_UNITS;
                self.s[x].inflicted = total % CASUALTY_UNITS;
            }
            for (victim, count) in [(d, kills[0]), (a, kills[1])] {
                for _ in 0..count {
                    if kill_figure(&mut self.s[victim], &data.casualty_order).is_some() {
                        self.crew_lost[self.side(victim)] += 1;
                    }
                }
            }
            self.s[a].disorganized = false;
            self.s[d].disorganized = false;
            let chance = u32::from(band.disorganize_in_6);
            let disorganized = chance >= 6 || (chance > 0 && dice.d6() <= chance);
            self.s[weak].disorganized = disorganized;
            if T::ENABLED {
                let (na, nd, nw, ns) = (
                    self.name(a).to_string(),
                    self.name(d).to_string(),
                    self.name(weak).to_string(),
                    self.name(strong).to_string(),
                );
                let [o1, o2] = band.odds;
                trace.event("WoM air Boarding Melee Table", || {
                    format!(
                        "odds {o1}-{o2} for {ns}: {na}'s party kills {}, {nd}'s kills {}{}{}",
                        kills[0],
                        kills[1],
                        if disorganized {
                            format!("; {nw} is disorganized")
                        } else {
                            String::new()
                        },
                        if band.aboard {
                            format!("; {ns} is aboard {nw}'s flier")
                        } else {
                            String::new()
                        }
                    )
                });
            }
            let (left_a, left_d) = (self.s[a].total_figures(), self.s[d].total_figures());
            if left_a == 0 && left_d == 0 {
                self.release(a);
                self.s[a].status = Status::Abandoned;
                self.s[d].status = Status::Abandoned;
            } else if left_a == 0 {
                self.capture(a, trace);
            } else if left_d == 0 {
                self.capture(d, trace);
            } else if band.surrender {
                self.capture(weak, trace);
            }
        }
    }

    fn end_of_turn(&mut self) {
        for i in 0..self.n {
            let st = &mut self.s[i];
            st.propellers_out = st.propellers_out.saturating_sub(1);
        }
        for side in 0..2 {
            if self.m.sides[side].concentrate {
                let flagship = (0..self.n).find(|i| self.side(*i) == side && self.s[*i].active());
                self.focus[side] = flagship.map_or(NONE, |f| {
                    let t = self.focus[side];
                    if t != NONE && self.s[usize::from(t)].active() {
                        t
                    } else {
                        preferred_target(self.m, &self.s[..self.n], f, |_| true) as u8
                    }
                });
            }
        }
    }

    fn play<T: Trace>(&mut self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        let mut outcome = 3u16;
        for turn in 1..=self.m.max_turns {
            self.turn = turn;
            if T::ENABLED {
                trace.event("WoM air Movement", || format!("turn {turn}"));
            }
            match self.m.sequence {
                Sequence::Simultaneous => {
                    self.give_orders(None, dice, trace);
                    self.move_side(None, trace);
                    self.collisions(None, dice, trace);
                    self.bombing(None, dice, trace);
                    self.fire(None, dice, trace);
                }
                Sequence::MoveCounterMove => {
                    let first = if turn % 2 == 1 { 0 } else { 1 };
                    for side in [first, 1 - first] {
                        self.give_orders(Some(side), dice, trace);
                        self.move_side(Some(side), trace);
                        self.collisions(None, dice, trace);
                        self.bombing(Some(side), dice, trace);
                        self.fire(Some(side), dice, trace);
                    }
                }
            }
            self.grappling(dice, trace);
            self.boarding(dice, trace);
            self.end_of_turn();
            let (a, b) = (self.side_alive(0), self.side_alive(1));
            if !a || !b {
                outcome = match (a, b) {
                    (true, false) => 0,
                    (false, true) => 1,
                    _ => 2,
                };
                break;
            }
        }
        let mut r = TrialResult {
            outcome,
            ..TrialResult::default()
        };
        r.metrics[M_TURNS] = self.turn;
        for i in 0..self.n {
            let state = &self.s[i];
            if !state.active() {
                r.metrics[M_LOST + self.side(i)] += 1;
            }
            let slot = self.m.group_slot[i];
            if slot != 0 {
                let class = &self.m.data.classes[self.m.ships[i].class];
                let at = match state.status {
                    Status::Destroyed | Status::Abandoned => Some(0),
                    Status::Captured => Some(1),
                    Status::Active => damage_step(state, class, &self.m.data)
                        .is_some_and(|step| step.powerless || step.speed_max.is_some())
                        .then_some(2),
                };
                if let Some(k) = at {
                    r.metrics[slot + k] += 1;
                }
            }
        }
        r.metrics[M_CAPTURED] = self.captured;
        r.metrics[M_DAMAGE] = self.damage_to[0];
        r.metrics[M_DAMAGE + 1] = self.damage_to[1];
        r.metrics[M_CREW] = self.crew_lost[0];
        r.metrics[M_CREW + 1] = self.crew_lost[1];
        if T::ENABLED {
            for i in 0..self.n {
                let st = self.s[i];
                let name = self.name(i).to_string();
                let max = self.m.data.classes[self.m.ships[i].class].max_damage;
                trace.event("WoM air Damage Effects", || {
                    format!(
                        "end: {name}: {:?}, {} of {max} damage, {} figures aboard",
                        st.status,
                        st.damage,
                        st.total_figures()
                    )
                });
            }
        }
        r
    }
}

impl Model for WomAir {
    fn spec(&self) -> &OutputSpec {
        &self.spec
    }

    fn run_trial<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        Battle::new(self).play(dice, trace)
    }
}

const _: () = assert!(FIGURE_KINDS == 6);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoTrace;

    fn bundled(name: &str) -> WomAir {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("scenarios/wom/air/{name}.toml"));
        match WomAir::load(&path) {
            Ok((m, _)) => m,
            Err(e) => panic!("{e}"),
        }
    }

    fn order(speed: i32, climb: i32, face: Option<u8>) -> Orders {
        Orders {
            speed,
            climb,
            aim: None,
            face,
            grapple: NONE,
            cut: false,
            evasive: false,
        }
    }

    #[test]
    fn movement_climb_dive_and_turns() {
        let m = bundled("helium-battle-cruiser-vs-two-zodangan-cruisers");
        let mut b = Battle::new(&m);
        // Ship 1 is a cruiser (7") at (30, 3), altitude 1", heading 180 (step 12).
        // Climbing two half-inch blocks costs 1" each: 7 - 2 = 5" ahead, and
        // 5" >= 2 x 2" keeps within the steepest climb.
        b.orders[1] = order(70, 2, Some(0));
        b.move_ship(1, &mut NoTrace);
        assert_eq!((b.s[1].pos, b.s[1].alt), (Point::new(250, 30), 20));
        // The turn at the end of the move is at most 45 degrees (3 steps).
        assert_eq!(b.s[1].heading, 15);
        // Diving two blocks gains 1/2" each: 7 + 1 = 8" ahead along heading 225.
        b.orders[1] = order(70, -2, None);
        b.move_ship(1, &mut NoTrace);
        assert_eq!(b.s[1].alt, 10);
        assert_eq!(b.s[1].pos.minus(Point::new(250, 30)).length(), 80);
        // A 7" move allows at most 7 / (1 + 2) = 2 blocks of climb, and
        // never above the 3" ceiling.
        b.orders[1] = order(70, 9, None);
        b.move_ship(1, &mut NoTrace);
        assert_eq!(b.s[1].alt, 20);
        b.move_ship(1, &mut NoTrace);
        assert_eq!(b.s[1].alt, 30);
        b.move_ship(1, &mut NoTrace);
        assert_eq!(b.s[1].alt, 30);
        // On a diagonal heading each axis rounds to a tenth: 7" is 6.9-7.0".
        assert!((69..=70).contains(&b.s[1].moved()), "{}", b.s[1].moved());
        // A stationary ship did not move: -1 to hit it.
        b.orders[1] = order(0, 0, None);
        b.move_ship(1, &mut NoTrace);
        assert!(b.s[1].stationary());
    }

    #[test]
    fn the_rulebook_collision_example() {
        // A light cruiser moving 6" runs into a stationary cruiser: 60% of the
        // lighter ship's 500 points, 300 to each; only the light cruiser rolls
        // a critical, and results that add damage are ignored.
        let m = bundled("scout-screen-vs-light-cruiser");
        let cruiser_data = m.data.class_index("cruiser").expect("cruiser");
        for trial in 0..30 {
            let mut mm = m.clone();
            mm.ships[0].class = cruiser_data;
            let mut b = Battle::new(&mm);
            b.n = 5;
            let (cruiser, light) = (0, 4);
            b.s[cruiser].pos = Point::new(0, 0);
            b.s[cruiser].from = Point::new(0, 0);
            b.s[light].pos = Point::new(0, 1);
            b.s[light].from = Point::new(0, -59);
            b.s[light].alt = b.s[cruiser].alt;
            b.s[light].from_alt = b.s[cruiser].alt;
            for k in [1, 2, 3] {
                b.s[k].pos = Point::new(500 * k as i32, 500);
            }
            let mut dice = Dice::for_trial(3, trial);
            b.collisions(None, &mut dice, &mut NoTrace);
            assert_eq!(b.s[cruiser].damage, 300);
            assert_eq!(b.s[light].damage, 300);
            assert_eq!(b.damage_to, [300, 300]);
        }
    }

    #[test]
    fn the_rulebook_boarding_example_first_round() {
        // 14 First Born (5 gunners, 3 crew, 5 marines, 1 officer) board 13
        // Heliumites (6 gunners, 2 crew, 3 marines, 1 officer, John Carter):
        // 168 against 169 is 1-1 (no disorganisation roll); the First Born
        // kill 4 (4.2), the Heliumites 3 (3.6) and John Carter 3: 6.
        let m = bundled("black-pirate-battleship-boards-helium-battle-cruiser");
        let mut b = Battle::new(&m);
        b.turn = 2;
        b.s[0].figures = [5, 3, 5, 0, 1, 0];
        b.s[1].figures = [6, 2, 3, 0, 1, 1];
        b.s[0].partner = 1;
        b.s[1].partner = 0;
        b.s[0].boarder = true;
        b.s[0].grappled_turn = 1;
        b.s[1].grappled_turn = 1;
        let mut dice = Dice::for_trial(1, 1);
        let before = dice.rolled();
        b.boarding(&mut dice, &mut NoTrace);
        assert_eq!(dice.rolled(), before, "1-1 rolls no dice");
        assert_eq!(b.s[0].total_figures(), 8);
        assert_eq!(b.s[1].total_figures(), 9);
        // Fractions are kept: 0.2 and 0.6 of a casualty, in sixtieths.
        assert_eq!((b.s[0].inflicted, b.s[1].inflicted), (12, 36));
        // Casualties come off marines first, then crew: the Heliumites lose
        // their 3 marines and 1 crew; John Carter is untouched.
        assert_eq!(b.s[1].figures, [6, 1, 0, 0, 1, 1]);
        assert_eq!(b.crew_lost, [6, 4]);
    }

    #[test]
    fn odds_of_four_to_one_capture_the_ship() {
        let m = bundled("black-pirate-battleship-boards-helium-battle-cruiser");
        let mut b = Battle::new(&m);
        b.turn = 2;
        b.s[0].figures = [14, 5, 5, 0, 1, 0];
        b.s[1].figures = [3, 0, 0, 0, 1, 0];
        m.ships[1]
            .party
            .personality_row
            .expect("John Carter aboard");
        b.s[0].partner = 1;
        b.s[1].partner = 0;
        b.s[0].boarder = true;
        let mut dice = Dice::for_trial(1, 2);
        b.boarding(&mut dice, &mut NoTrace);
        // 25 x 12 = 300 against 4 x (10 + 1 - 4 personality dead) = 28: 4-1.
        assert_eq!(b.s[1].status, Status::Captured);
        assert_eq!(b.captured, 1);
        assert_eq!(b.s[0].partner, NONE);
    }

    fn shots(log: &crate::engine::TraceLog) -> Vec<String> {
        log.events
            .iter()
            .filter(|e| e.case == "WoM air To Hit, All Weapons")
            .map(|e| e.text.clone())
            .collect()
    }

    #[test]
    fn guns_that_bear_and_gunners_to_serve_them() {
        use crate::engine::TraceLog;
        let m = bundled("helium-battle-cruiser-vs-two-zodangan-cruisers");
        let mut b = Battle::new(&m);
        // Battle cruiser at (0, 0) heading 0; a stationary cruiser 5" off its
        // starboard beam (starboard is -y for heading 0); the other cruiser out.
        b.s[1].pos = Point::new(0, -50);
        b.s[1].from = b.s[1].pos;
        b.s[1].heading = 0;
        b.s[2].status = Status::Destroyed;
        let mut log = TraceLog::default();
        let mut dice = Dice::for_trial(5, 0);
        b.fire(Some(0), &mut dice, &mut log);
        // Bow swivel + 3 starboard + stern swivel = 5 guns; heavy guns at a
        // medium target at short range need 7, -1 as it is stationary: 6.
        let fired = shots(&log);
        assert_eq!(fired.len(), 5, "{fired:?}");
        assert!(
            fired.iter().all(|t| t.contains("needs 6 (stationary -1)")),
            "{fired:?}"
        );
        // Two gunner figures of eight serve 2 of the 8 guns.
        let mut b = Battle::new(&m);
        b.s[1].pos = Point::new(0, -50);
        b.s[1].from = b.s[1].pos;
        b.s[2].status = Status::Destroyed;
        b.s[0].figures[Figure::Gunners as usize] = 2;
        let mut log = TraceLog::default();
        b.fire(Some(0), &mut dice, &mut log);
        assert_eq!(shots(&log).len(), 2);
        // The cruiser, heading 0 with the battle cruiser 5" to port: bow and
        // stern swivels + 4 port guns = 6. Medium guns cannot damage a battle
        // cruiser, so they fire as at a small target (8 at short range, -1
        // stationary: 7) for crew hits only.
        let mut b = Battle::new(&m);
        b.s[1].pos = Point::new(0, -50);
        b.s[1].from = b.s[1].pos;
        b.s[1].heading = 0;
        b.s[2].status = Status::Destroyed;
        let mut log = TraceLog::default();
        b.fire(Some(1), &mut dice, &mut log);
        let fired = shots(&log);
        assert_eq!(fired.len(), 6, "{fired:?}");
        assert!(
            fired
                .iter()
                .all(|t| t.contains("needs 7 (stationary -1) (only exposed men")),
            "{fired:?}"
        );
        // A gun hit on the port battery leaves 3 there: 5 guns bear.
        b.s[1].guns[3] = 3;
        let mut log = TraceLog::default();
        b.fire(Some(1), &mut dice, &mut log);
        assert_eq!(shots(&log).len(), 5);
    }

    #[test]
    fn circle_forms_with_six_and_breaks_below() {
        let m = bundled("six-against-six-barsoomian-circle");
        let mut b = Battle::new(&m);
        b.turn = 1;
        b.circle_orders(0, &mut NoTrace);
        // All six Heliumites are within a move of their centre.
        let c = b.circle[0].expect("the circle forms");
        // Circumference 6 x 0.8" = 4.8"; radius 4.8 / 2 pi = 0.76", 7 tenths.
        assert_eq!(c.radius, 7);
        b.move_side(Some(0), &mut NoTrace);
        for i in 0..6 {
            let st = &b.s[i];
            assert!((6..=8).contains(&st.pos.minus(c.center).length()));
            assert!(!st.stationary());
        }
        // [Steering Hits]: a ship without steering cannot keep the circle;
        // with five left it breaks up.
        b.s[3].steering_out = true;
        b.circle_orders(0, &mut NoTrace);
        assert!(b.circle[0].is_none());
        assert!(!b.in_circle[0]);
    }
}
