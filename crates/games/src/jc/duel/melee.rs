//! Melee of the Duelling Game [7.0-7.6]: the die-roll modifiers [7.3], the
//! hit roll d10 + strength >= agility [7.61], the natural 10 and its second
//! roll [7.5], and what a blow does to the target's level [7.6, 3.26]. The
//! numbers come from `scenarios/jc/data/duel-rules.toml`.
//!
//! [`MeleeRules::strike`] is what a trial rolls; [`MeleeRules::odds`] is
//! its exact closed form (the tests hold one against the other).

use barsoom_engine::scenario::Load;

use std::path::Path;

use serde::Deserialize;

use super::roster::Class;
use barsoom_engine::Dice;
use barsoom_engine::scenario::{Loader, ScenarioError};

/// What one melee did to its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Blow {
    /// No effect.
    Miss,
    /// The target loses one level [7.61].
    Level,
    /// The natural 10's second roll reached the attacker's threshold: the
    /// target is killed, or knocked unconscious if it cannot die [7.5].
    Kill,
}

/// The circumstances of one melee [7.3].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Conditions {
    /// The attacker is in one of the target's behind positions [7.32, 7.44].
    pub behind: bool,
    /// The attacker moved this phase [7.33].
    pub moved: bool,
    /// Through a doorway, deck to deck, staging area to flier, or up a ramp
    /// [7.34].
    pub obstructed: bool,
    /// The attacker carries an unconscious character [7.35].
    pub carrying: bool,
    /// The attacker is unarmed [7.36].
    pub unarmed: bool,
}

/// The melee numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeleeRules {
    /// Attack from behind [7.32].
    pub behind: i32,
    /// Moved this phase [7.33].
    pub moved: i32,
    /// Doorway, deck to deck, up a ramp [7.34].
    pub obstructed: i32,
    /// Carrying [7.35].
    pub carrying: i32,
    /// Unarmed [7.36].
    pub unarmed: i32,
    /// Second-roll kill threshold by attacker class, indexed by
    /// [`class_index`] [7.51-7.53].
    pub kill: [u32; 6],
    /// The natural roll needed from which only a 10 followed by
    /// `ten_six_second` or more hits [7.39].
    pub ten_six_from: i32,
    /// The second roll the 10/6 rule asks for.
    pub ten_six_second: u32,
    /// The Discovery Matrices [6.4]: `[0]` In Room, `[1]` Outside Room,
    /// indexed by the discovering (defending) character's alertness and the
    /// nearest attacker's (A = 0): a d10 at most this discovers [6.24].
    pub discovery: [[[u8; 3]; 3]; 2],
}

/// A class's slot in [`MeleeRules::kill`].
#[inline]
pub(crate) fn class_index(class: Class) -> usize {
    match class {
        Class::Hero => 0,
        Class::Villain => 1,
        Class::Minor => 2,
        Class::Personage => 3,
        Class::Warrior => 4,
        Class::Beast => 5,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRules {
    provenance: String,
    modifiers: RawModifiers,
    kill: RawKill,
    ten_six: RawTenSix,
    discovery: RawDiscovery,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDiscovery {
    provenance: String,
    in_room: Vec<Vec<i64>>,
    outside_room: Vec<Vec<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawModifiers {
    provenance: String,
    behind: i64,
    moved: i64,
    obstructed: i64,
    carrying: i64,
    unarmed: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKill {
    provenance: String,
    hero: i64,
    villain: i64,
    minor: i64,
    personage: i64,
    warrior: i64,
    beast: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTenSix {
    provenance: String,
    needed_from: i64,
    second_roll: i64,
}

impl MeleeRules {
    /// The total die-roll modifier of `c` [7.37: any combination].
    #[inline]
    pub fn modifier(&self, c: Conditions) -> i32 {
        i32::from(c.behind) * self.behind
            + i32::from(c.moved) * self.moved
            + i32::from(c.obstructed) * self.obstructed
            + i32::from(c.carrying) * self.carrying
            + i32::from(c.unarmed) * self.unarmed
    }

    /// The natural roll a hit needs: the smallest face `d` with
    /// `max(1, d + strength + modifier) >= agility` [7.38: an adjusted roll
    /// below one reads one], so 1 when the floor alone reaches the agility.
    #[inline]
    pub fn needed(strength: u8, modifier: i32, agility: u8) -> i32 {
        if agility <= 1 {
            1
        } else {
            (i32::from(agility) - i32::from(strength) - modifier).max(1)
        }
    }

    /// Whether a character may melee at all: not with strength 0 unarmed
    /// [7.36].
    #[inline]
    pub fn may_melee(strength: u8, unarmed: bool) -> bool {
        !(unarmed && strength == 0)
    }

    /// Rolls one melee: `attacker` class (its kill threshold), `needed` from
    /// [`MeleeRules::needed`].
    #[inline]
    pub fn strike(&self, attacker: Class, needed: i32, dice: &mut Dice) -> (Blow, u32, u32) {
        let first = dice.d10();
        if first == 10 {
            let second = dice.d10();
            if needed >= self.ten_six_from {
                // [7.39] the rare 10/6: the second roll decides the hit.
                let blow = if second >= self.ten_six_second {
                    Blow::Level
                } else {
                    Blow::Miss
                };
                return (blow, first, second);
            }
            // [7.5] a 10 always takes a level; the unmodified second roll
            // may kill [7.55].
            let blow = if second >= self.kill[class_index(attacker)] {
                Blow::Kill
            } else {
                Blow::Level
            };
            return (blow, first, second);
        }
        let blow = if first as i32 >= needed {
            Blow::Level
        } else {
            Blow::Miss
        };
        (blow, first, 0)
    }

    /// The exact probabilities of [miss, level, kill] of one melee.
    #[inline]
    pub fn odds(&self, attacker: Class, needed: i32) -> [f64; 3] {
        if needed >= self.ten_six_from {
            let level = after_a_ten(11 - self.ten_six_second);
            return [1.0 - level, level, 0.0];
        }
        // Faces 1-9 that reach the need, plus the 10.
        let plain = TENTHS[(10 - needed).clamp(0, 9) as usize];
        let kill = after_a_ten(11 - self.kill[class_index(attacker)]);
        let level = plain + 0.1 - kill;
        [1.0 - plain - 0.1, level, kill]
    }
}

impl Load for MeleeRules {
    /// Loads and checks `duel-rules.toml`.
    fn load_with(file: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let raw: RawRules = loader.read_toml(file)?;
        let err = |field: &str, message: String| ScenarioError::new(file, field, message);
        for (field, text) in [
            ("provenance", &raw.provenance),
            ("modifiers.provenance", &raw.modifiers.provenance),
            ("kill.provenance", &raw.kill.provenance),
            ("ten_six.provenance", &raw.ten_six.provenance),
            ("discovery.provenance", &raw.discovery.provenance),
        ] {
            if text.trim().is_empty() {
                return Err(err(
                    field,
                    "expected where the numbers come from (rules [case] or reconstructed: why)"
                        .into(),
                ));
            }
        }
        let modifier = |field: &str, v: i64| {
            if (-9..=9).contains(&v) {
                Ok(v as i32)
            } else {
                Err(err(
                    field,
                    format!("expected a modifier -9 to +9, found {v}"),
                ))
            }
        };
        let face = |field: &str, v: i64| {
            if (1..=10).contains(&v) {
                Ok(v as u32)
            } else {
                Err(err(
                    field,
                    format!("expected a die face 1 to 10, found {v}"),
                ))
            }
        };
        let m = &raw.modifiers;
        let k = &raw.kill;
        let mut kill = [0u32; 6];
        kill[class_index(Class::Hero)] = face("kill.hero", k.hero)?;
        kill[class_index(Class::Villain)] = face("kill.villain", k.villain)?;
        kill[class_index(Class::Minor)] = face("kill.minor", k.minor)?;
        kill[class_index(Class::Personage)] = face("kill.personage", k.personage)?;
        kill[class_index(Class::Warrior)] = face("kill.warrior", k.warrior)?;
        kill[class_index(Class::Beast)] = face("kill.beast", k.beast)?;
        if !(11..=30).contains(&raw.ten_six.needed_from) {
            return Err(err(
                "ten_six.needed_from",
                format!(
                    "expected a needed roll 11 to 30 (beyond the die), found {}",
                    raw.ten_six.needed_from
                ),
            ));
        }
        let mut discovery = [[[0u8; 3]; 3]; 2];
        for (m, (name, rows)) in [
            ("in_room", &raw.discovery.in_room),
            ("outside_room", &raw.discovery.outside_room),
        ]
        .into_iter()
        .enumerate()
        {
            let field = format!("discovery.{name}");
            if rows.len() != 3 || rows.iter().any(|r| r.len() != 3) {
                return Err(err(
                    &field,
                    "expected 3 rows (defender alertness A, B, C) of 3 numbers (attacker alertness A, B, C)".into(),
                ));
            }
            for (d, row) in rows.iter().enumerate() {
                for (a, &v) in row.iter().enumerate() {
                    if !(0..=10).contains(&v) {
                        return Err(err(
                            &format!("{field}[{d}][{a}]"),
                            format!("expected a d10 number 0 to 10, found {v}"),
                        ));
                    }
                    discovery[m][d][a] = v as u8;
                }
            }
        }
        Ok(MeleeRules {
            discovery,
            behind: modifier("modifiers.behind", m.behind)?,
            moved: modifier("modifiers.moved", m.moved)?,
            obstructed: modifier("modifiers.obstructed", m.obstructed)?,
            carrying: modifier("modifiers.carrying", m.carrying)?,
            unarmed: modifier("modifiers.unarmed", m.unarmed)?,
            kill,
            ten_six_from: raw.ten_six.needed_from as i32,
            ten_six_second: face("ten_six.second_roll", raw.ten_six.second_roll)?,
        })
    }
}

/// `n / 10` for `n` of 0 to 10: the chance that a d10 shows one of `n`
/// given faces. A table, because the policies ask for odds in their inner
/// loop and a division there is slow; the values are those the division
/// gives.
const TENTHS: [f64; 11] = {
    let mut tenths = [0.0; 11];
    let mut n = 0;
    while n < 11 {
        tenths[n] = n as f64 / 10.0;
        n += 1;
    }
    tenths
};

/// The chance of a 10 and then one of `faces` given faces on a second d10:
/// `0.1 * faces / 10`, from a table as [`TENTHS`].
#[inline]
fn after_a_ten(faces: u32) -> f64 {
    const AFTER_A_TEN: [f64; 11] = {
        let mut odds = [0.0; 11];
        let mut n = 0;
        while n < 11 {
            odds[n] = 0.1 * n as f64 / 10.0;
            n += 1;
        }
        odds
    };
    AFTER_A_TEN
        .get(faces as usize)
        .copied()
        .unwrap_or(0.1 * f64::from(faces) / 10.0)
}

/// A character's state after a blow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fate {
    /// Still fighting, at this level.
    Fighting(u8),
    /// Unconscious at level 1 [7.63, 19.15].
    Unconscious,
    /// Dead [3.25].
    Dead,
}

/// What `blow` does to a target at `level` [7.6]: one level off, level 0
/// is death; characters who fall unconscious at level 1 (heroes, Woola)
/// do so instead of dying, also on a kill roll [7.52, 7.53, 7.63].
#[inline]
pub fn apply_blow(level: u8, unconscious_at_level_1: bool, blow: Blow) -> Fate {
    let next = match blow {
        Blow::Miss => level,
        Blow::Level => level.saturating_sub(1),
        Blow::Kill => 0,
    };
    if unconscious_at_level_1 && next <= 1 {
        Fate::Unconscious
    } else if next == 0 {
        Fate::Dead
    } else {
        Fate::Fighting(next)
    }
}
