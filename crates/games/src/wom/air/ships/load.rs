//! The `air-*.toml` files as written, their checks (provenance, units,
//! facings, ranges, table rows) and [`AirData::load`], which turns them into
//! the compiled tables. The morale classes and modifiers of boarding come
//! from the shared `morale.toml` ([`crate::wom::morale`]).

use barsoom_engine::scenario::Load;

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::wom::air::geometry::{HEADING_STEP_DEGREES, tenths};
use crate::wom::battle::tables::{
    BATTLE_TABLES_FILE, BattleTables, MELEE_COLUMNS, TROOP_NAMES, Troop,
};
use crate::wom::morale::{MORALE_FILE, MoraleTable};
use barsoom_engine::scenario::{Loader, ScenarioError, check_provenance};

use super::{
    ARC_PORT, ARC_STARBOARD, AirData, BombingRules, CASUALTY_UNITS, CriticalEffect, DamageStep,
    FACINGS, FIGURE_KINDS, Figure, GunType, Location, MAX_MOUNTS, Mount, MovementRules, OddsBand,
    SIZES, ShipClass,
};

// ---------------------------------------------------------------- raw files

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawShips {
    provenance: String,
    #[serde(default)]
    reconstructed_notes: Vec<String>,
    ships: BTreeMap<String, RawShip>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMount {
    facing: String,
    count: u8,
    #[serde(default)]
    swivel: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawShip {
    name: String,
    speed: f64,
    size: String,
    rank: u8,
    gun: String,
    guns: u8,
    mounts: Vec<RawMount>,
    bombs: u16,
    bombs_per_turn: u16,
    gunners: u16,
    crew: u16,
    marines: u16,
    officers: u16,
    troops: u16,
    max_damage: u32,
    steer_by_propellers: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Provenance {
    provenance: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGun {
    name: String,
    short: f64,
    medium: f64,
    damage: u32,
    elevation: u32,
    depression: u32,
    /// Limits of the gun sited on the ground (default: as mounted).
    ground_elevation: Option<u32>,
    ground_depression: Option<u32>,
    damages: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGuns {
    ranges: Provenance,
    damage: Provenance,
    elevation: Provenance,
    damages_ships: Provenance,
    guns: BTreeMap<String, RawGun>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawToHit {
    provenance: String,
    short: [i32; 3],
    medium: [i32; 3],
    long: [i32; 3],
    stationary: i32,
    evasive: i32,
    very_rapid_move: f64,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawLocation {
    crew: Option<[u32; 2]>,
    gun: Option<[u32; 2]>,
    hull: Option<[u32; 2]>,
    critical: Option<[u32; 2]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHitLocation {
    provenance: String,
    bow: RawLocation,
    broadside: RawLocation,
    stern: RawLocation,
    #[serde(rename = "hull-bottom")]
    hull_bottom: RawLocation,
    #[serde(rename = "hull-top")]
    hull_top: RawLocation,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCritical {
    provenance: String,
    bow: Vec<String>,
    broadside: Vec<String>,
    stern: Vec<String>,
    #[serde(rename = "hull-bottom")]
    hull_bottom: Vec<String>,
    #[serde(rename = "hull-top")]
    hull_top: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCriticalEffects {
    provenance: String,
    pitch_per_tank: i32,
    abandon_pitch: i32,
    ceiling_loss_per_midships_tank: f64,
    propeller_repair_turns: u8,
    damaged_steering_turn: u32,
    crew_hit_order: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDamageStep {
    at: u32,
    #[serde(default)]
    speed_down: f64,
    speed_max: Option<f64>,
    ceiling: Option<f64>,
    #[serde(default)]
    powerless: bool,
    altitude: Option<f64>,
    #[serde(default)]
    destroyed: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDamageEffects {
    provenance: String,
    steps: Vec<RawDamageStep>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMovement {
    provenance: String,
    ceiling: f64,
    altitude_step: f64,
    climb_cost: f64,
    dive_gain: f64,
    run_per_step: f64,
    max_turn: u32,
    grapple_distance: f64,
    collision_distance: f64,
    collision_min_speed: f64,
    collision_percent_per_inch: u32,
    parted_distance: f64,
    overfly_distance: f64,
    circle_min_ships: usize,
    circle_spacing: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCombat {
    to_hit: RawToHit,
    hit_location: RawHitLocation,
    critical: RawCritical,
    critical_effects: RawCriticalEffects,
    damage_effects: RawDamageEffects,
    movement: RawMovement,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGrappling {
    provenance: String,
    grapple_max_roll: u32,
    cut_max_roll: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBand {
    odds: [u32; 2],
    disorganize_in_6: u8,
    #[serde(default)]
    aboard: bool,
    #[serde(default)]
    surrender: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOdds {
    provenance: String,
    bands: Vec<RawBand>,
}

/// Boarding's readings of the MELEE TABLE; the table itself is
/// `battle-tables.toml` `[melee]`, the one copy both models read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMelee {
    provenance: String,
    casualty_order: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBombing {
    provenance: String,
    base: i32,
    target_moving: i32,
    far_below: i32,
    far_below_distance: f64,
    small_target: i32,
    large_target: i32,
    small: Vec<String>,
    large: Vec<String>,
    damage: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoarding {
    grappling: RawGrappling,
    odds: RawOdds,
    melee: RawMelee,
    bombing: RawBombing,
}

// ---------------------------------------------------------------- checks

fn inches(file: &Path, field: &str, value: f64) -> Result<i32, ScenarioError> {
    tenths(value).ok_or_else(|| {
        ScenarioError::new(
            file,
            field,
            format!(
                "expected a distance in inches, a multiple of 0.1 from 0 to 10000, found {value}"
            ),
        )
    })
}

fn tan_x10000(file: &Path, field: &str, degrees: u32) -> Result<i64, ScenarioError> {
    match degrees {
        90 => Ok(i64::MAX),
        0..90 => Ok((f64::from(degrees).to_radians().tan() * 10_000.0).round() as i64),
        _ => Err(ScenarioError::new(
            file,
            field,
            format!("expected an angle of 0 to 90 degrees, found {degrees}"),
        )),
    }
}

fn facing_bit(file: &Path, field: &str, name: &str) -> Result<u8, ScenarioError> {
    FACINGS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, bit)| *bit)
        .ok_or_else(|| {
            ScenarioError::new(
                file,
                field,
                format!("expected a gun facing: bow, starboard, port or stern, found {name:?}"),
            )
        })
}

/// The name of a facing bit.
pub fn facing_name(bit: u8) -> &'static str {
    FACINGS
        .iter()
        .find(|(_, b)| *b == bit)
        .map_or("?", |(n, _)| n)
}

/// Builds a mount from its facing and swivel arcs, checking that swivels
/// (bow and stern guns only) turn to a broadside.
pub fn mount(
    file: &Path,
    field: &str,
    facing: &str,
    count: u8,
    swivel: &[String],
) -> Result<Mount, ScenarioError> {
    let facing_bit = facing_bit(file, &format!("{field}.facing"), facing)?;
    let mut arcs = facing_bit;
    for (i, s) in swivel.iter().enumerate() {
        let bit = facing_bit_of_swivel(file, &format!("{field}.swivel[{i}]"), s)?;
        if facing_bit == ARC_STARBOARD || facing_bit == ARC_PORT {
            return Err(ScenarioError::new(
                file,
                format!("{field}.swivel"),
                "expected swivels on bow or stern guns only (broadside guns bear on their own broadside)",
            ));
        }
        arcs |= bit;
    }
    Ok(Mount {
        facing: facing_bit,
        count,
        arcs,
    })
}

fn facing_bit_of_swivel(file: &Path, field: &str, name: &str) -> Result<u8, ScenarioError> {
    match name {
        "starboard" => Ok(ARC_STARBOARD),
        "port" => Ok(ARC_PORT),
        other => Err(ScenarioError::new(
            file,
            field,
            format!("expected a broadside to swivel to: starboard or port, found {other:?}"),
        )),
    }
}

fn range_of(
    file: &Path,
    field: &str,
    range: Option<[u32; 2]>,
) -> Result<Option<(u32, u32)>, ScenarioError> {
    match range {
        None => Ok(None),
        Some([lo, hi]) if (2..=12).contains(&lo) && (lo..=12).contains(&hi) => Ok(Some((lo, hi))),
        Some([lo, hi]) => Err(ScenarioError::new(
            file,
            field,
            format!("expected [low, high] 2d6 totals within 2-12, found [{lo}, {hi}]"),
        )),
    }
}

fn location_row(
    file: &Path,
    facing: &str,
    raw: &RawLocation,
) -> Result<[Option<Location>; 11], ScenarioError> {
    let mut row = [None; 11];
    let mut seen = [false; 11];
    for (name, range, loc) in [
        ("crew", raw.crew, Location::Crew),
        ("gun", raw.gun, Location::Gun),
        ("hull", raw.hull, Location::Hull),
        ("critical", raw.critical, Location::Critical),
    ] {
        let field = format!("hit_location.{facing}.{name}");
        if let Some((lo, hi)) = range_of(file, &field, range)? {
            for total in lo..=hi {
                let i = (total - 2) as usize;
                if seen[i] {
                    return Err(ScenarioError::new(
                        file,
                        field,
                        format!(
                            "expected each 2d6 total in one location only; {total} is listed twice"
                        ),
                    ));
                }
                seen[i] = true;
                row[i] = Some(loc);
            }
        }
    }
    Ok(row)
}

/// Boarding's view of the MELEE TABLE [WoM Melee Table]: the defender
/// columns, the attacker rows (the columns, shield-bearing infantry
/// attacking as infantry, then a 12th and a 13th level personality, each one
/// figure fighting as a group of the troop the table names) and the
/// casualties each attacker figure inflicts, in sixtieths of a figure.
type BoardingMelee = (Vec<String>, Vec<String>, Vec<Vec<u32>>);

fn boarding_melee(battle: &BattleTables, file: &Path) -> Result<BoardingMelee, ScenarioError> {
    let columns: Vec<String> = MELEE_COLUMNS.iter().map(|c| c.to_string()).collect();
    let mut rows = columns.clone();
    rows.extend(["personality-12".to_string(), "personality-13".to_string()]);
    let attackers = (0..MELEE_COLUMNS.len())
        .map(|c| (Troop::of_melee_column(c), false))
        .chain(battle.personality_troop.iter().map(|&t| (t, true)));
    let mut rates = Vec::new();
    for (troop, personality) in attackers {
        let t = troop.index();
        let figures = if personality {
            1
        } else {
            battle.melee_group[t]
        };
        let mut rate = Vec::new();
        for halves in battle.melee_halves[t] {
            // casualties per group = halves / 2, per figure in sixtieths:
            let units = halves * u64::from(CASUALTY_UNITS) / 2;
            if !units.is_multiple_of(figures) {
                return Err(ScenarioError::new(
                    file,
                    "melee.rows",
                    format!(
                        "expected casualties that are whole sixtieths per figure for {}",
                        TROOP_NAMES[t]
                    ),
                ));
            }
            rate.push(u32::try_from(units / figures).unwrap_or(u32::MAX));
        }
        rates.push(rate);
    }
    Ok((columns, rows, rates))
}

impl Load for AirData {
    /// Loads and checks the `air-*.toml` files in `dir`.
    fn load_with(dir: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let guns_file = dir.join("air-guns.toml");
        let ships_file = dir.join("air-ships.toml");
        let combat_file = dir.join("air-combat.toml");
        let boarding_file = dir.join("air-boarding.toml");
        let morale_file = dir.join(MORALE_FILE);

        let raw_guns: RawGuns = loader.read_toml(&guns_file)?;
        for (field, p) in [
            ("ranges.provenance", &raw_guns.ranges),
            ("damage.provenance", &raw_guns.damage),
            ("elevation.provenance", &raw_guns.elevation),
            ("damages_ships.provenance", &raw_guns.damages_ships),
        ] {
            check_provenance(&guns_file, field, &p.provenance)?;
        }
        let mut guns = Vec::new();
        for (id, g) in &raw_guns.guns {
            let f = |x: &str| format!("guns.{id}.{x}");
            let short = inches(&guns_file, &f("short"), g.short)?;
            let medium = inches(&guns_file, &f("medium"), g.medium)?;
            if short == 0 || medium < short {
                return Err(ScenarioError::new(
                    &guns_file,
                    f("medium"),
                    "expected 0 < short <= medium",
                ));
            }
            guns.push(GunType {
                id: id.clone(),
                name: g.name.clone(),
                short,
                medium,
                damage: g.damage,
                tan_elevation: tan_x10000(&guns_file, &f("elevation"), g.elevation)?,
                tan_depression: tan_x10000(&guns_file, &f("depression"), g.depression)?,
                tan_ground_elevation: tan_x10000(
                    &guns_file,
                    &f("ground_elevation"),
                    g.ground_elevation.unwrap_or(g.elevation),
                )?,
                tan_ground_depression: tan_x10000(
                    &guns_file,
                    &f("ground_depression"),
                    g.ground_depression.unwrap_or(g.depression),
                )?,
            });
        }

        let raw_boarding: RawBoarding = loader.read_toml(&boarding_file)?;
        let morale = MoraleTable::load_with(&morale_file, loader)?;
        let raw_ships: RawShips = loader.read_toml(&ships_file)?;
        check_provenance(&ships_file, "provenance", &raw_ships.provenance)?;
        let _ = &raw_ships.reconstructed_notes;
        let bombing = &raw_boarding.bombing;
        for (field, list) in [
            ("bombing.small", &bombing.small),
            ("bombing.large", &bombing.large),
        ] {
            if let Some(bad) = list.iter().find(|c| !raw_ships.ships.contains_key(*c)) {
                return Err(ScenarioError::new(
                    &boarding_file,
                    field,
                    format!("expected ship classes of air-ships.toml, found {bad:?}"),
                ));
            }
        }
        for (id, g) in &raw_guns.guns {
            if let Some(bad) = g.damages.iter().find(|c| !raw_ships.ships.contains_key(*c)) {
                return Err(ScenarioError::new(
                    &guns_file,
                    format!("guns.{id}.damages"),
                    format!("expected ship classes of air-ships.toml, found {bad:?}"),
                ));
            }
        }
        let gun_ids: Vec<&str> = guns.iter().map(|g| g.id.as_str()).collect();
        let mut classes = Vec::new();
        for (id, s) in &raw_ships.ships {
            let f = |x: &str| format!("ships.{id}.{x}");
            let gun = gun_ids.iter().position(|g| *g == s.gun).ok_or_else(|| {
                ScenarioError::new(
                    &ships_file,
                    f("gun"),
                    format!(
                        "unknown gun type {:?}: expected one of {}",
                        s.gun,
                        gun_ids.join(", ")
                    ),
                )
            })?;
            let size = SIZES.iter().position(|z| *z == s.size).ok_or_else(|| {
                ScenarioError::new(
                    &ships_file,
                    f("size"),
                    format!("expected small, medium or large, found {:?}", s.size),
                )
            })?;
            if s.mounts.len() > MAX_MOUNTS {
                return Err(ScenarioError::new(
                    &ships_file,
                    f("mounts"),
                    format!("expected at most {MAX_MOUNTS} mounts"),
                ));
            }
            let mut mounts = Vec::new();
            for (i, m) in s.mounts.iter().enumerate() {
                mounts.push(mount(
                    &ships_file,
                    &f(&format!("mounts[{i}]")),
                    &m.facing,
                    m.count,
                    &m.swivel,
                )?);
            }
            let total: u32 = mounts.iter().map(|m| u32::from(m.count)).sum();
            if total != u32::from(s.guns) {
                return Err(ScenarioError::new(
                    &ships_file,
                    f("mounts"),
                    format!(
                        "expected the armament pattern to hold the {} guns, found {total}",
                        s.guns
                    ),
                ));
            }
            if s.max_damage == 0 || s.speed <= 0.0 {
                return Err(ScenarioError::new(
                    &ships_file,
                    f("max_damage"),
                    "expected a positive speed and maximum damage",
                ));
            }
            if s.guns > 0 && s.gunners == 0 {
                return Err(ScenarioError::new(
                    &ships_file,
                    f("gunners"),
                    "expected gunner figures to serve the guns",
                ));
            }
            let bombing_size = if bombing.small.contains(id) {
                bombing.small_target
            } else if bombing.large.contains(id) {
                bombing.large_target
            } else {
                0
            };
            classes.push(ShipClass {
                id: id.clone(),
                name: s.name.clone(),
                speed: inches(&ships_file, &f("speed"), s.speed)?,
                size,
                rank: s.rank,
                gun,
                guns: s.guns,
                mounts,
                bombs: s.bombs,
                bombs_per_turn: s.bombs_per_turn,
                figures: [s.gunners, s.crew, s.marines, s.troops, s.officers, 0],
                max_damage: s.max_damage,
                steer_by_propellers: s.steer_by_propellers,
                damaged_by: raw_guns
                    .guns
                    .values()
                    .map(|g| g.damages.contains(id))
                    .collect(),
                bombing_size,
            });
        }

        let combat: RawCombat = loader.read_toml(&combat_file)?;
        let cf = &combat_file;
        check_provenance(cf, "to_hit.provenance", &combat.to_hit.provenance)?;
        check_provenance(
            cf,
            "hit_location.provenance",
            &combat.hit_location.provenance,
        )?;
        check_provenance(cf, "critical.provenance", &combat.critical.provenance)?;
        check_provenance(
            cf,
            "critical_effects.provenance",
            &combat.critical_effects.provenance,
        )?;
        check_provenance(
            cf,
            "damage_effects.provenance",
            &combat.damage_effects.provenance,
        )?;
        check_provenance(cf, "movement.provenance", &combat.movement.provenance)?;
        let t = &combat.to_hit;
        for (band, row) in [("short", t.short), ("medium", t.medium), ("long", t.long)] {
            if row.iter().any(|s| !(2..=13).contains(s)) {
                return Err(ScenarioError::new(
                    cf,
                    format!("to_hit.{band}"),
                    "expected 2d6 scores 2-13",
                ));
            }
        }
        let h = &combat.hit_location;
        let location = [
            location_row(cf, "bow", &h.bow)?,
            location_row(cf, "broadside", &h.broadside)?,
            location_row(cf, "stern", &h.stern)?,
            location_row(cf, "hull-bottom", &h.hull_bottom)?,
            location_row(cf, "hull-top", &h.hull_top)?,
        ];
        let c = &combat.critical;
        let mut critical = [[CriticalEffect::Damage(2); 3]; 5];
        for (i, (name, list)) in [
            ("bow", &c.bow),
            ("broadside", &c.broadside),
            ("stern", &c.stern),
            ("hull-bottom", &c.hull_bottom),
            ("hull-top", &c.hull_top),
        ]
        .into_iter()
        .enumerate()
        {
            if list.len() != 3 {
                return Err(ScenarioError::new(
                    cf,
                    format!("critical.{name}"),
                    "expected 3 results (d6 1-2, 3-4, 5-6)",
                ));
            }
            for (j, text) in list.iter().enumerate() {
                critical[i][j] = CriticalEffect::parse(text, cf, &format!("critical.{name}[{j}]"))?;
            }
        }
        let ce = &combat.critical_effects;
        if ce.pitch_per_tank <= 0 || ce.abandon_pitch <= 0 {
            return Err(ScenarioError::new(
                cf,
                "critical_effects.pitch_per_tank",
                "expected positive pitch angles",
            ));
        }
        let step_degrees = HEADING_STEP_DEGREES;
        if !ce.damaged_steering_turn.is_multiple_of(step_degrees) {
            return Err(ScenarioError::new(
                cf,
                "critical_effects.damaged_steering_turn",
                format!("expected a multiple of {step_degrees} degrees"),
            ));
        }
        let crew_hit_order = ce
            .crew_hit_order
            .iter()
            .enumerate()
            .map(|(i, n)| Figure::parse(n, cf, &format!("critical_effects.crew_hit_order[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        let mut damage_steps = Vec::new();
        let mut last = 0;
        for (i, s) in combat.damage_effects.steps.iter().enumerate() {
            let f = |x: &str| format!("damage_effects.steps[{i}].{x}");
            if s.at <= last || s.at > 100 {
                return Err(ScenarioError::new(
                    cf,
                    f("at"),
                    "expected ascending percentages within 1-100",
                ));
            }
            last = s.at;
            damage_steps.push(DamageStep {
                at: s.at,
                speed_down: inches(cf, &f("speed_down"), s.speed_down)?,
                speed_max: s
                    .speed_max
                    .map(|v| inches(cf, &f("speed_max"), v))
                    .transpose()?,
                ceiling: s
                    .ceiling
                    .map(|v| inches(cf, &f("ceiling"), v))
                    .transpose()?,
                powerless: s.powerless,
                altitude: s
                    .altitude
                    .map(|v| inches(cf, &f("altitude"), v))
                    .transpose()?,
                destroyed: s.destroyed,
            });
        }
        if !damage_steps.iter().any(|s| s.destroyed) {
            return Err(ScenarioError::new(
                cf,
                "damage_effects.steps",
                "expected a step where the ship is destroyed",
            ));
        }
        let m = &combat.movement;
        let mf = |x: &str| format!("movement.{x}");
        if !m.max_turn.is_multiple_of(step_degrees) || m.max_turn == 0 {
            return Err(ScenarioError::new(
                cf,
                mf("max_turn"),
                format!("expected a positive multiple of {step_degrees} degrees"),
            ));
        }
        let movement = MovementRules {
            ceiling: inches(cf, &mf("ceiling"), m.ceiling)?,
            altitude_step: inches(cf, &mf("altitude_step"), m.altitude_step)?,
            climb_cost: inches(cf, &mf("climb_cost"), m.climb_cost)?,
            dive_gain: inches(cf, &mf("dive_gain"), m.dive_gain)?,
            run_per_step: inches(cf, &mf("run_per_step"), m.run_per_step)?,
            max_turn_steps: (m.max_turn / step_degrees) as u8,
            grapple_distance: inches(cf, &mf("grapple_distance"), m.grapple_distance)?,
            collision_distance: inches(cf, &mf("collision_distance"), m.collision_distance)?,
            collision_min_speed: inches(cf, &mf("collision_min_speed"), m.collision_min_speed)?,
            collision_percent_per_inch: m.collision_percent_per_inch,
            parted_distance: inches(cf, &mf("parted_distance"), m.parted_distance)?,
            overfly_distance: inches(cf, &mf("overfly_distance"), m.overfly_distance)?,
            circle_min_ships: m.circle_min_ships.max(2),
            circle_spacing: inches(cf, &mf("circle_spacing"), m.circle_spacing)?,
        };
        if movement.altitude_step == 0 || movement.run_per_step <= movement.dive_gain {
            return Err(ScenarioError::new(
                cf,
                mf("altitude_step"),
                "expected a positive altitude step and run_per_step > dive_gain",
            ));
        }

        let bf = &boarding_file;
        let b = &raw_boarding;
        check_provenance(bf, "grappling.provenance", &b.grappling.provenance)?;
        check_provenance(bf, "odds.provenance", &b.odds.provenance)?;
        check_provenance(bf, "melee.provenance", &b.melee.provenance)?;
        check_provenance(bf, "bombing.provenance", &b.bombing.provenance)?;
        for (field, v) in [
            ("grappling.grapple_max_roll", b.grappling.grapple_max_roll),
            ("grappling.cut_max_roll", b.grappling.cut_max_roll),
        ] {
            if v > 6 {
                return Err(ScenarioError::new(bf, field, "expected a d6 roll 0-6"));
            }
        }
        let mut odds = Vec::new();
        for (i, band) in b.odds.bands.iter().enumerate() {
            let [s, w] = band.odds;
            let ascending = odds.last().is_none_or(|p: &OddsBand| {
                u64::from(s) * u64::from(p.odds[1]) > u64::from(p.odds[0]) * u64::from(w)
            });
            if s == 0 || w == 0 || s < w || !ascending || band.disorganize_in_6 > 6 {
                return Err(ScenarioError::new(
                    bf,
                    format!("odds.bands[{i}]"),
                    "expected ascending odds [stronger, weaker] from [1, 1] and a chance 0-6 in 6",
                ));
            }
            odds.push(OddsBand {
                odds: band.odds,
                disorganize_in_6: band.disorganize_in_6,
                aboard: band.aboard,
                surrender: band.surrender,
            });
        }
        if odds.first().map(|o| o.odds) != Some([1, 1]) {
            return Err(ScenarioError::new(
                bf,
                "odds.bands",
                "expected the first band at [1, 1]",
            ));
        }
        let melee = &b.melee;
        // The MELEE TABLE is wom.battle's (one copy, `battle-tables.toml`).
        let battle = BattleTables::load_with(dir, loader)?;
        let (melee_types, melee_rows, melee_rate) =
            boarding_melee(&battle, &dir.join(BATTLE_TABLES_FILE))?;
        let casualty_order = melee
            .casualty_order
            .iter()
            .enumerate()
            .map(|(i, n)| Figure::parse(n, bf, &format!("melee.casualty_order[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        if casualty_order.len() != FIGURE_KINDS {
            return Err(ScenarioError::new(
                bf,
                "melee.casualty_order",
                "expected every figure kind once",
            ));
        }
        Ok(AirData {
            guns,
            classes,
            to_hit: [t.short, t.medium, t.long],
            stationary: t.stationary,
            evasive: t.evasive,
            very_rapid_move: inches(cf, "to_hit.very_rapid_move", t.very_rapid_move)?,
            location,
            critical,
            pitch_per_tank: ce.pitch_per_tank,
            abandon_pitch: ce.abandon_pitch,
            ceiling_loss_per_tank: inches(
                cf,
                "critical_effects.ceiling_loss_per_midships_tank",
                ce.ceiling_loss_per_midships_tank,
            )?,
            propeller_repair_turns: ce.propeller_repair_turns,
            damaged_steering_steps: (ce.damaged_steering_turn / step_degrees) as u8,
            crew_hit_order,
            damage_steps,
            movement,
            grapple_max_roll: b.grappling.grapple_max_roll,
            cut_max_roll: b.grappling.cut_max_roll,
            odds,
            melee_types,
            melee_rate,
            melee_rows,
            disorganized_bonus: u32::try_from(battle.add_disorganized).unwrap_or(u32::MAX),
            casualty_order,
            morale_classes: morale
                .classes
                .iter()
                .flat_map(|c| {
                    std::iter::once(&c.name)
                        .chain(&c.aliases)
                        .map(|name| (name.clone(), c.steady))
                })
                .collect(),
            morale: morale.modifiers,
            bombing: BombingRules {
                base: b.bombing.base,
                target_moving: b.bombing.target_moving,
                far_below: b.bombing.far_below,
                far_below_distance: inches(
                    bf,
                    "bombing.far_below_distance",
                    b.bombing.far_below_distance,
                )?,
                damage: b.bombing.damage,
            },
        })
    }
}
