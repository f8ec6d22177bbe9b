//! Fleet combat of the Military Game through `jc.fleet` [23.0]: each
//! combat's forces are reduced to a [`BattleKey`] (strengths, the leading
//! commander of each part, nations and the capital), and the compiled
//! [`Battle`] for a key is built once and shared by every later combat with
//! the same key, so the hot loop only looks battles up.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::jc::fleet::{
    Battle, BattleResult, BattleSetup, DEFAULT_MAX_ROUNDS, Force, MAX_STRENGTH, ManeuverPolicy,
    NeutralForce, SidePolicy, resolve_battle,
};
use crate::jc::fleet_tables::JcData;
use barsoom_engine::Dice;

/// "No commander" in a [`BattleKey`].
pub(crate) const NO_COMMANDER: u8 = u8::MAX;

/// A player's choices about breaking off a fleet combat [23.22].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BreakOff {
    /// It proposes to break off at the start of a round once the enemy has
    /// at least this many hundredths of its own strength (0: never). When
    /// the enemy will not agree it Reverses instead, and two Reverses in a
    /// row end the combat with the enemy holding the city.
    pub behind_pct: u16,
    /// It agrees when the enemy proposes.
    pub accepts: bool,
}

/// One side of a combat as `jc.fleet` sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SideKey {
    /// Nation of the side's own fleets.
    pub nation: u8,
    /// Strength points of its own fleets.
    pub home: u8,
    /// Its best commander with its own fleets [23.31], or [`NO_COMMANDER`].
    pub leader: u8,
    /// Nation of the influenced neutral fighting with it (if `neutral > 0`).
    pub neutral_nation: u8,
    /// Strength points of that neutral's fleets.
    pub neutral: u8,
    /// The neutral's best commander, or [`NO_COMMANDER`].
    pub neutral_leader: u8,
    /// Its player's break-off choices (an uninfluenced neutral fights on).
    pub break_off: BreakOff,
}

/// Everything that makes two combats the same battle: the phasing side is
/// side 0 [23.0 PROCEDURE], the city's capital (if any) gives intrinsic
/// defense [23.4].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BattleKey {
    /// Phasing side, then the other.
    pub sides: [SideKey; 2],
    /// The capital fought in (index into the data's capitals).
    pub capital: Option<u8>,
}

/// Compiled battles by key, shared across the threads of a run. Which
/// battles are cached never changes a result: a battle is a pure function
/// of its key.
#[derive(Debug, Default)]
pub struct BattleCache {
    battles: Mutex<HashMap<BattleKey, Arc<Battle>>>,
}

impl BattleCache {
    /// The compiled battle for `key`, built on first use.
    pub fn get(&self, data: &JcData, key: &BattleKey) -> Arc<Battle> {
        let mut map = match self.battles.lock() {
            Ok(m) => m,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(b) = map.get(key) {
            return Arc::clone(b);
        }
        let battle = Arc::new(build(data, key));
        map.insert(*key, Arc::clone(&battle));
        battle
    }

    /// Battles compiled so far.
    pub fn len(&self) -> usize {
        self.battles.lock().map_or(0, |m| m.len())
    }

    /// Whether none has been compiled yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn force(data: &JcData, side: &SideKey) -> Force {
    let leader = |c: u8| {
        if c == NO_COMMANDER {
            Vec::new()
        } else {
            vec![usize::from(c)]
        }
    };
    Force {
        label: data.nations[usize::from(side.nation)].name.clone(),
        nation: usize::from(side.nation),
        strength: side.home.min(MAX_STRENGTH),
        commanders: leader(side.leader),
        neutral: (side.neutral > 0).then(|| NeutralForce {
            nation: usize::from(side.neutral_nation),
            strength: side.neutral.min(MAX_STRENGTH - side.home.min(MAX_STRENGTH)),
            commanders: leader(side.neutral_leader),
        }),
    }
}

/// Compiles the battle of `key`.
fn try_build(data: &JcData, key: &BattleKey) -> Result<Battle, String> {
    let setup = BattleSetup {
        sides: [force(data, &key.sides[0]), force(data, &key.sides[1])],
        capital: key.capital.map(usize::from),
        holder: None,
        phasing: 0,
    };
    // Both sides play the minimax maneuver mix and break off as their
    // players choose [23.22]; losses fall on home fleets first, sparing the
    // neutral [24.43].
    let policy = |side: &SideKey| SidePolicy {
        maneuver: ManeuverPolicy::Minimax,
        break_off_behind: (side.break_off.behind_pct > 0)
            .then(|| f64::from(side.break_off.behind_pct) / 100.0),
        accept_break_off: side.break_off.accepts,
        ..SidePolicy::default()
    };
    let policies = [policy(&key.sides[0]), policy(&key.sides[1])];
    Battle::new(data, &setup, &policies, DEFAULT_MAX_ROUNDS)
}

fn build(data: &JcData, key: &BattleKey) -> Battle {
    match try_build(data, key) {
        Ok(b) => b,
        // Only the maneuver mix can fail, and it is the same for every key:
        // [`check`] compiled one battle at load, so this is unreachable.
        Err(e) => panic!("jc.fleet could not compile a battle: {e}"),
    }
}

/// Compiles one battle, so that a fleet table jc.fleet cannot use is
/// reported when the scenario loads (the minimax mix, the one part that
/// can fail, is the same for every battle).
pub fn check(data: &JcData) -> Result<(), String> {
    let side = SideKey {
        nation: 0,
        home: 1,
        leader: NO_COMMANDER,
        neutral_nation: 0,
        neutral: 0,
        neutral_leader: NO_COMMANDER,
        break_off: BreakOff::default(),
    };
    try_build(
        data,
        &BattleKey {
            sides: [side, side],
            capital: None,
        },
    )
    .map(|_| ())
}

/// Fights the battle of `key` once.
pub fn fight(cache: &BattleCache, data: &JcData, key: &BattleKey, dice: &mut Dice) -> BattleResult {
    let battle = cache.get(data, key);
    resolve_battle(&battle, dice)
}
