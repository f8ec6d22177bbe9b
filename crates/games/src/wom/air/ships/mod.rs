//! The aerial-warfare tables, loaded from `scenarios/wom/data/air-*.toml`
//! and checked. Nothing here holds a table value: the code knows the shape
//! of each table and turns it into compact arrays for the battle loop.
//!
//! This file holds the compiled tables the battle reads; `load` holds the
//! raw file formats, their checks and [`AirData::load`].

use std::path::Path;

use barsoom_engine::scenario::ScenarioError;

mod load;

pub use load::{facing_name, mount};

/// Most gun mounts (groups of guns on one facing) a ship class may have.
pub(crate) const MAX_MOUNTS: usize = 8;

/// Arc bits a mount can bear on.
pub(crate) const ARC_BOW: u8 = 1;
/// Starboard broadside arc.
pub(crate) const ARC_STARBOARD: u8 = 2;
/// Port broadside arc.
pub(crate) const ARC_PORT: u8 = 4;
/// Stern arc.
pub(crate) const ARC_STERN: u8 = 8;

/// The four hull facings that carry guns, as arc bits, in data order.
const FACINGS: [(&str, u8); 4] = [
    ("bow", ARC_BOW),
    ("starboard", ARC_STARBOARD),
    ("port", ARC_PORT),
    ("stern", ARC_STERN),
];

/// Target sizes of the to-hit table.
pub(crate) const SIZES: [&str; 3] = ["small", "medium", "large"];
/// Index of the small size (fire at exposed men is at a small target).
pub(crate) const SMALL: usize = 0;

/// The facings a target can present to fire, in the order of [`TargetFacing`].
pub(crate) const TARGET_FACINGS: [&str; 5] =
    ["bow", "broadside", "stern", "hull-bottom", "hull-top"];

/// The facing a target presents to the shooter [Hit Location].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetFacing {
    /// The shooter is within 45 degrees of the target's bow.
    Bow = 0,
    /// The shooter is abeam.
    Broadside = 1,
    /// The shooter is within 45 degrees of the stern.
    Stern = 2,
    /// The shooter is below, steeper than 45 degrees.
    HullBottom = 3,
    /// The shooter (or a bomber) is above, steeper than 45 degrees.
    HullTop = 4,
}

impl TargetFacing {
    /// The name used in the data files.
    pub fn name(self) -> &'static str {
        TARGET_FACINGS[self as usize]
    }
}

/// Where a hit lands [Hit Location].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    /// Exposed crew: one figure killed.
    Crew,
    /// A gun on the facing presented is destroyed.
    Gun,
    /// The gun's damage points are recorded.
    Hull,
    /// Roll on the critical hit table.
    Critical,
}

/// A result of the critical hit table [Critical Hits].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CriticalEffect {
    /// Damage multiplied by `halves / 2` (3 = 1-1/2 x, 4 = 2 x, 6 = 3 x).
    Damage(u8),
    /// One officer figure killed.
    OfficerKilled,
    /// Bow ray tank: the bow goes down 15 degrees.
    BowRayTank,
    /// Stern ray tank: the stern goes down 15 degrees.
    SternRayTank,
    /// Midships ray tank: the ceiling drops an inch.
    MidshipsRayTank,
    /// Steering destroyed for good.
    Steering,
    /// Engines destroyed: powerless for good.
    Engines,
    /// Propellers destroyed: powerless for some turns.
    Propellers,
}

impl CriticalEffect {
    fn parse(text: &str, file: &Path, field: &str) -> Result<Self, ScenarioError> {
        Ok(match text {
            "officer-killed" => CriticalEffect::OfficerKilled,
            "bow-ray-tank" => CriticalEffect::BowRayTank,
            "stern-ray-tank" => CriticalEffect::SternRayTank,
            "midships-ray-tank" => CriticalEffect::MidshipsRayTank,
            "steering" => CriticalEffect::Steering,
            "engines" => CriticalEffect::Engines,
            "propellers" => CriticalEffect::Propellers,
            "damage x1.5" => CriticalEffect::Damage(3),
            "damage x2" => CriticalEffect::Damage(4),
            "damage x3" => CriticalEffect::Damage(6),
            other => {
                return Err(ScenarioError::new(
                    file,
                    field,
                    format!(
                        "expected officer-killed, bow-ray-tank, stern-ray-tank, midships-ray-tank, steering, engines, propellers, \"damage x1.5\", \"damage x2\" or \"damage x3\", found {other:?}"
                    ),
                ));
            }
        })
    }

    /// Human-readable name for traces.
    pub fn describe(self) -> &'static str {
        match self {
            CriticalEffect::Damage(3) => "1-1/2 x damage",
            CriticalEffect::Damage(4) => "2 x damage",
            CriticalEffect::Damage(_) => "3 x damage",
            CriticalEffect::OfficerKilled => "officer figure killed",
            CriticalEffect::BowRayTank => "bow ray tank destroyed",
            CriticalEffect::SternRayTank => "stern ray tank destroyed",
            CriticalEffect::MidshipsRayTank => "midships ray tank destroyed",
            CriticalEffect::Steering => "steering destroyed",
            CriticalEffect::Engines => "engines destroyed",
            CriticalEffect::Propellers => "propellers destroyed",
        }
    }
}

/// Kinds of figure aboard a flier, indexes into a ship's figure counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    /// Gunner figures (serve the guns).
    Gunners = 0,
    /// Crew figures (work the ship and the grapples).
    Crew = 1,
    /// Marine figures.
    Marines = 2,
    /// Transported troops.
    Troops = 3,
    /// Officers and NCOs.
    Officers = 4,
    /// A personality figure (John Carter, ...).
    Personality = 5,
}

/// Number of figure kinds.
pub(crate) const FIGURE_KINDS: usize = 6;
const FIGURE_NAMES: [&str; FIGURE_KINDS] = [
    "gunners",
    "crew",
    "marines",
    "troops",
    "officers",
    "personality",
];

impl Figure {
    /// Name used in the data files and traces.
    pub fn name(self) -> &'static str {
        FIGURE_NAMES[self as usize]
    }

    fn parse(text: &str, file: &Path, field: &str) -> Result<Self, ScenarioError> {
        const ALL: [Figure; FIGURE_KINDS] = [
            Figure::Gunners,
            Figure::Crew,
            Figure::Marines,
            Figure::Troops,
            Figure::Officers,
            Figure::Personality,
        ];
        ALL.iter()
            .copied()
            .find(|f| f.name() == text)
            .ok_or_else(|| {
                ScenarioError::new(
                    file,
                    field,
                    format!(
                        "expected one of {}, found {text:?}",
                        FIGURE_NAMES.join(", ")
                    ),
                )
            })
    }
}

/// A gun type [Weapon Range Table; Weapons Damage; Elevation and Depression].
#[derive(Debug, Clone, PartialEq)]
pub struct GunType {
    /// Identifier, e.g. `heavy`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Longest short range, tenths of an inch.
    pub short: i32,
    /// Longest medium range, tenths of an inch (beyond: long, unlimited).
    pub medium: i32,
    /// Damage points per hit.
    pub damage: u32,
    /// tan(maximum elevation) x 10000 (`i64::MAX` for 90 degrees).
    pub tan_elevation: i64,
    /// tan(maximum depression) x 10000.
    pub tan_depression: i64,
    /// tan(maximum elevation) x 10000 of the gun sited on the ground.
    pub tan_ground_elevation: i64,
    /// tan(maximum depression) x 10000 of the gun sited on the ground.
    pub tan_ground_depression: i64,
}

/// A group of guns on one facing, with the arcs they bear on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mount {
    /// The facing the guns are on (one arc bit).
    pub facing: u8,
    /// How many guns.
    pub count: u8,
    /// Arc bits the guns can bear on (their facing plus any swivel).
    pub arcs: u8,
}

/// A flier class [FLIERS; Armament Patterns; speed list; maximum damage].
#[derive(Debug, Clone, PartialEq)]
pub struct ShipClass {
    /// Identifier, e.g. `battle-cruiser`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Speed, tenths of an inch per turn.
    pub speed: i32,
    /// Target size index into [`SIZES`].
    pub size: usize,
    /// Class order for "most similar class".
    pub rank: u8,
    /// Index of its gun type.
    pub gun: usize,
    /// Guns carried.
    pub guns: u8,
    /// Armament pattern.
    pub mounts: Vec<Mount>,
    /// Bomb load.
    pub bombs: u16,
    /// Bombs droppable in one turn.
    pub bombs_per_turn: u16,
    /// Figures aboard by [`Figure`] kind (no personality in a class).
    pub figures: [u16; FIGURE_KINDS],
    /// Maximum damage points.
    pub max_damage: u32,
    /// Larger than a Scout Cruiser: may turn 15 degrees with steering lost.
    pub steer_by_propellers: bool,
    /// Which gun types can damage it, by gun index.
    pub damaged_by: Vec<bool>,
    /// Modifier to the bombing score when it is the target.
    pub bombing_size: i32,
}

/// One step of the damage effects table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DamageStep {
    /// Percentage of maximum damage at which it applies.
    pub at: u32,
    /// Speed lost, tenths.
    pub speed_down: i32,
    /// Speed cap, tenths.
    pub speed_max: Option<i32>,
    /// Ceiling cap, tenths.
    pub ceiling: Option<i32>,
    /// Powerless and adrift.
    pub powerless: bool,
    /// Altitude the ship is left at when the step is reached, tenths.
    pub altitude: Option<i32>,
    /// Explodes, burns and crashes.
    pub destroyed: bool,
}

/// Movement rules, distances in tenths of an inch.
#[derive(Debug, Clone, PartialEq)]
pub struct MovementRules {
    /// Maximum altitude.
    pub ceiling: i32,
    /// Thickness of an altitude block.
    pub altitude_step: i32,
    /// Movement spent per block climbed.
    pub climb_cost: i32,
    /// Movement gained per block dived.
    pub dive_gain: i32,
    /// Distance ahead needed per block climbed or dived (the steepest angle).
    pub run_per_step: i32,
    /// Largest turn at the end of a move, in heading steps.
    pub max_turn_steps: u8,
    /// Grappling distance.
    pub grapple_distance: i32,
    /// Ships at the same altitude this close have come together.
    pub collision_distance: i32,
    /// Least relative speed that makes a collision.
    pub collision_min_speed: i32,
    /// Damage per inch of relative speed, percent of the lighter ship's maximum.
    pub collision_percent_per_inch: u32,
    /// How far apart ships are put when their grapples part.
    pub parted_distance: i32,
    /// A bomber passes over a ship when its path comes this close.
    pub overfly_distance: i32,
    /// Least number of ships that can form a Barsoomian circle.
    pub circle_min_ships: usize,
    /// Distance between neighbours in a circle.
    pub circle_spacing: i32,
}

/// One band of the boarding melee table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OddsBand {
    /// Odds `[stronger, weaker]` at which the band starts.
    pub odds: [u32; 2],
    /// Chance in six that the weaker side is disorganised.
    pub disorganize_in_6: u8,
    /// The stronger side is aboard the weaker side's flier.
    pub aboard: bool,
    /// The weaker side surrenders its flier.
    pub surrender: bool,
}

/// Keel bombing [Bombing Table, Aerial Targets].
#[derive(Debug, Clone, PartialEq)]
pub struct BombingRules {
    /// Base score on 2d6.
    pub base: i32,
    /// Target moving relative to the bomber.
    pub target_moving: i32,
    /// Target more than 500 feet below.
    pub far_below: i32,
    /// 500 feet, tenths of an inch.
    pub far_below_distance: i32,
    /// Damage points per hit.
    pub damage: u32,
}

/// Every table of the aerial rules, compiled.
#[derive(Debug, Clone, PartialEq)]
pub struct AirData {
    /// Gun types.
    pub guns: Vec<GunType>,
    /// Ship classes.
    pub classes: Vec<ShipClass>,
    /// To-hit score on 2d6 by `[range band][size]`.
    pub to_hit: [[i32; 3]; 3],
    /// Modifier when the target is stationary.
    pub stationary: i32,
    /// Modifier when the target moves very rapidly or evasively.
    pub evasive: i32,
    /// A move this long (tenths) counts as very rapid.
    pub very_rapid_move: i32,
    /// Hit location by `[facing][2d6 - 2]`; `None`: no effect.
    pub location: [[Option<Location>; 11]; 5],
    /// Critical hit table by `[facing][(d6 - 1) / 2]`.
    pub critical: [[CriticalEffect; 3]; 5],
    /// Degrees of pitch per bow or stern tank hit.
    pub pitch_per_tank: i32,
    /// Pitch at which a flier is abandoned.
    pub abandon_pitch: i32,
    /// Ceiling lost per midships tank hit, tenths.
    pub ceiling_loss_per_tank: i32,
    /// Turns a flier is powerless after a propeller hit.
    pub propeller_repair_turns: u8,
    /// Heading steps a steering-damaged large flier may turn.
    pub damaged_steering_steps: u8,
    /// Figures killed by crew hits, in order.
    pub crew_hit_order: Vec<Figure>,
    /// Damage effects, ascending.
    pub damage_steps: Vec<DamageStep>,
    /// Movement rules.
    pub movement: MovementRules,
    /// Highest d6 roll that makes a grapple hold.
    pub grapple_max_roll: u32,
    /// Highest d6 roll that cuts a grapple.
    pub cut_max_roll: u32,
    /// Boarding melee bands, ascending odds.
    pub odds: Vec<OddsBand>,
    /// Melee figure types (defender columns).
    pub melee_types: Vec<String>,
    /// Casualties inflicted per figure of row type on column type, in 1/60ths.
    pub melee_rate: Vec<Vec<u32>>,
    /// Melee row ids (attacker types; includes personality rows).
    pub melee_rows: Vec<String>,
    /// Extra casualties inflicted on a disorganised enemy, per round.
    pub disorganized_bonus: u32,
    /// Boarding casualties are taken from these figures in order.
    pub casualty_order: Vec<Figure>,
    /// Morale classes: `(id, steady score)`.
    pub morale_classes: Vec<(String, i32)>,
    /// Morale bonuses and penalties (the shared MORALE TABLE's).
    pub morale: crate::wom::morale::MoraleModifiers,
    /// Keel bombing.
    pub bombing: BombingRules,
}

/// Casualty fractions are kept in sixtieths: the melee table's rates per
/// figure (3 per 10, 2 per 5, 3 per 3, 1/2 per 10, ...) are whole there.
pub(crate) const CASUALTY_UNITS: u32 = 60;

impl AirData {
    /// Index of the ship class `id`.
    pub(crate) fn class_index(&self, id: &str) -> Option<usize> {
        self.classes.iter().position(|c| c.id == id)
    }

    /// The class ids, for error messages.
    pub(crate) fn class_ids(&self) -> String {
        self.classes
            .iter()
            .map(|c| c.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}
