//! The combat rules, written once for the trial and the exact chain:
//! blows, attack and initiative profiles, panic, missile shots and who
//! strikes first (Melee priority).

use crate::wom::tables::{AnimalTable, Score, Special, WomData, difference_column};

use super::{Body, Fighter, WomDuel};

/// What one blow did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blow {
    /// The defender is killed outright.
    Kill,
    /// The defender takes a wound.
    Wound,
    /// Nothing.
    Miss,
}

/// Everything needed to resolve one attacker's blow on one defender in one
/// phase of the fight [men-vs-men 2-3; animals 2-4].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttackProfile {
    /// Score to wound.
    pub wound: Score,
    /// Score to kill.
    pub kill: Score,
    /// Added to the 3d6 roll for both wound and kill.
    pub modifier: i8,
    /// Added again for the kill comparison only (thoat and zitidar charges).
    pub kill_modifier: i8,
    /// A wound kills (poisoned lance against a sith).
    pub wound_kills: bool,
    /// Score of the stinger's second roll that kills.
    pub stinger: Score,
    /// `classify` tabulated by roll, so play looks results up without branching.
    blows: [Blow; 19],
    /// `stinger` tabulated by roll.
    stings: [bool; 19],
}

impl AttackProfile {
    /// A profile with its roll tables filled in.
    fn new(
        wound: Score,
        kill: Score,
        modifier: i8,
        kill_modifier: i8,
        wound_kills: bool,
        stinger: Score,
    ) -> Self {
        let mut p = AttackProfile {
            wound,
            kill,
            modifier,
            kill_modifier,
            wound_kills,
            stinger,
            blows: [Blow::Miss; 19],
            stings: [false; 19],
        };
        p.blows = std::array::from_fn(|r| p.classify(r as u32));
        p.stings = std::array::from_fn(|r| p.stinger.met_by(r as i32));
        p
    }

    /// What a 3d6 roll of `roll` does (the tabulated [`classify`](Self::classify)).
    #[inline]
    pub fn blow(&self, roll: u32) -> Blow {
        self.blows[roll as usize]
    }

    /// Whether a stinger roll of `roll` kills.
    #[inline]
    pub(crate) fn stings(&self, roll: u32) -> bool {
        self.stings[roll as usize]
    }

    /// What a 3d6 roll of `roll` does.
    #[inline]
    pub fn classify(&self, roll: u32) -> Blow {
        let modified = roll as i32 + i32::from(self.modifier);
        if self.kill.met_by(modified + i32::from(self.kill_modifier)) {
            Blow::Kill
        } else if self.wound.met_by(modified) {
            if self.wound_kills {
                Blow::Kill
            } else {
                Blow::Wound
            }
        } else {
            Blow::Miss
        }
    }

    /// Whether this blow can ever hurt (used to reject endless fights).
    pub(super) fn can_hurt(&self) -> bool {
        (3..=18).any(|r| self.classify(r) != Blow::Miss) || (3..=18).any(|r| self.stinger.met_by(r))
    }
}

/// A defender's roll to seize the initiative [men-vs-men 4a].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InitiativeProfile {
    /// Score to seize.
    pub score: Score,
    /// Added to the roll.
    pub modifier: i8,
    /// `seized` tabulated by roll.
    seizes: [bool; 19],
}

impl InitiativeProfile {
    fn new(score: Score, modifier: i8) -> Self {
        let mut p = InitiativeProfile {
            score,
            modifier,
            seizes: [false; 19],
        };
        p.seizes = std::array::from_fn(|r| p.score.met_by(r as i32 + i32::from(p.modifier)));
        p
    }

    /// Whether a 3d6 roll of `roll` seizes the initiative.
    #[inline]
    pub fn seized(&self, roll: u32) -> bool {
        self.seizes[roll as usize]
    }
}

/// Phase of the fight for the modifiers that depend on it: 0 = first round,
/// 1 = second round (still the first turn), 2 = later.
#[inline]
pub fn phase_of_round(round: u32) -> usize {
    (round.saturating_sub(1) as usize).min(2)
}

/// Who attacks next after a round in which `holder` attacked `run` times in
/// succession [men-vs-men 4; animals 3 of the table notes]. `seized` says
/// whether the defenders won the initiative roll (ignored when the rule
/// passes it without a roll). Returns the new holder and its run so far.
#[inline]
pub fn next_holder(
    holder: usize,
    run: u8,
    animals_involved: bool,
    limit: u8,
    seized: bool,
) -> (usize, u8) {
    // Written without short-circuits so it compiles to conditional moves.
    let pass = animals_involved | (run >= limit) | seized;
    (holder ^ usize::from(pass), if pass { 0 } else { run })
}

/// Whether the initiative after this round needs a roll at all.
#[inline]
pub fn initiative_needs_roll(run: u8, animals_involved: bool, limit: u8) -> bool {
    !animals_involved && run < limit
}

/// How a missile hits one target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissileEffect {
    /// The target is killed.
    Kill,
    /// The target takes this many wounds.
    Wounds(u8),
    /// The shot misses.
    Miss,
}

/// The first strike [Melee priorities 1-5], decided before any die is
/// rolled, or a roll-off when nothing separates the sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstStrike {
    /// This side strikes first, by the named priority.
    Side(usize, &'static str),
    /// Nothing decides: a fair roll-off.
    RollOff,
}

/// A missile shot compiled for one shooter and target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompiledShot {
    /// No shot.
    None,
    /// Two d6 in sequence against a man: the second must reach the first
    /// plus `modifier`; a hit deals `on_hit`.
    VsMan {
        /// Modifier to the first die.
        modifier: i8,
        /// The effect of a hit.
        on_hit: MissileEffect,
    },
    /// 3d6 on the man-vs-animal table: at least `kill` kills, each point
    /// short deals the listed wounds.
    VsAnimal {
        /// The man's wound score against this animal.
        kill: u8,
        /// Wounds for 1, 2, 3, 4 points short (0 = miss).
        short: [u8; 4],
    },
}

impl CompiledShot {
    /// Resolves the shot from its dice: `(first, second)` d6 against a man,
    /// or a 3d6 `roll` against an animal.
    pub fn effect(&self, first: u32, second: u32, roll: u32) -> MissileEffect {
        match *self {
            CompiledShot::None => MissileEffect::Miss,
            CompiledShot::VsMan { modifier, on_hit } => {
                if second as i32 >= first as i32 + i32::from(modifier) {
                    on_hit
                } else {
                    MissileEffect::Miss
                }
            }
            CompiledShot::VsAnimal { kill, short } => {
                if roll >= u32::from(kill) {
                    MissileEffect::Kill
                } else {
                    match short.get((u32::from(kill) - roll - 1) as usize) {
                        Some(&w) if w > 0 => MissileEffect::Wounds(w),
                        _ => MissileEffect::Miss,
                    }
                }
            }
        }
    }
}

impl WomDuel {
    pub(super) fn decide_first_strike(&self) -> FirstStrike {
        let any =
            |s: usize, f: &dyn Fn(&Fighter) -> bool| self.side(s).any(|i| f(&self.fighters[i]));
        let all =
            |s: usize, f: &dyn Fn(&Fighter) -> bool| self.side(s).all(|i| f(&self.fighters[i]));
        let is_man = |f: &Fighter| matches!(f.body, Body::Man(_));
        for s in 0..2 {
            let fired_at_animal = self.side(s).any(|i| self.fighters[i].missile.is_some())
                && any(1 - s, &|f| !is_man(f));
            if fired_at_animal {
                return FirstStrike::Side(
                    1 - s,
                    "WoM missile vs. animals: the shooter gave up his first attack",
                );
            }
        }
        let surprise = [any(0, &|f| f.surprise), any(1, &|f| f.surprise)];
        if surprise[0] != surprise[1] {
            return FirstStrike::Side(usize::from(surprise[1]), "WoM melee priority 1: surprise");
        }
        let all_men = all(0, &is_man) && all(1, &is_man);
        let reach = |s: usize| {
            self.side(s)
                .map(|i| self.fighters[i].reach)
                .max()
                .unwrap_or(0)
        };
        if all_men && reach(0) != reach(1) {
            return FirstStrike::Side(
                usize::from(reach(1) > reach(0)),
                "WoM melee priority 2: the longer weapon",
            );
        }
        let charging = [any(0, &|f| f.charging), any(1, &|f| f.charging)];
        if charging[0] != charging[1] {
            return FirstStrike::Side(
                usize::from(charging[1]),
                "WoM melee priority 3: the charging figure",
            );
        }
        let men = [all(0, &is_man), all(1, &is_man)];
        if men[0] != men[1] {
            return FirstStrike::Side(
                usize::from(men[1]),
                "WoM melee priority 4: the man before the animal",
            );
        }
        if all_men {
            let top = |s: usize| {
                self.side(s)
                    .map(|i| {
                        if let Body::Man(l) = self.fighters[i].body {
                            l
                        } else {
                            0
                        }
                    })
                    .max()
                    .unwrap_or(0)
            };
            if top(0) != top(1) {
                return FirstStrike::Side(
                    usize::from(top(1) > top(0)),
                    "WoM melee priority 4: the higher level",
                );
            }
        }
        let moved = [all(0, &|f| f.moved), all(1, &|f| f.moved)];
        if moved[0] != moved[1] {
            return FirstStrike::Side(
                usize::from(moved[0]),
                "WoM melee priority 5: the figure that did not move",
            );
        }
        FirstStrike::RollOff
    }
}

impl From<Blow> for MissileEffect {
    fn from(blow: Blow) -> Self {
        match blow {
            Blow::Kill => MissileEffect::Kill,
            Blow::Wound => MissileEffect::Wounds(1),
            Blow::Miss => MissileEffect::Miss,
        }
    }
}

/// The attack profile of `att` on `def` in `phase` (0 = first round, 1 =
/// second round, 2 = later) — the one place the modifiers are decided.
pub fn attack_profile(att: &Fighter, def: &Fighter, phase: usize, data: &WomData) -> AttackProfile {
    let first_turn = phase < 2;
    let first_round = phase == 0;
    let mut p = AttackProfile::new(
        Score::Never,
        Score::Never,
        att.roll_bonus,
        0,
        false,
        Score::Never,
    );
    match (att.body, def.body) {
        (Body::Man(la), Body::Man(ld)) => {
            // [men-vs-men 2-3] at the level difference, clamped to +-12.
            let column = difference_column(i32::from(la) - i32::from(ld));
            p.wound = data.men.wound_or_initiative[column];
            p.kill = data.men.kill[column];
            let m = &data.men.modifiers;
            if att.okarian != def.okarian {
                // [men-vs-men table note 4] the Okarian's kit.
                if att.okarian && !def.off_hand {
                    p.modifier += m.okarian_attack;
                }
                if def.okarian {
                    p.modifier -= m.okarian_defense;
                }
            } else if att.weapon_class > def.weapon_class {
                p.modifier += m.greater_weapon;
            }
        }
        (Body::Man(la), Body::Animal(d)) => {
            let cell = data.animals.men_attacking[usize::from(la) - 1][d];
            p.wound = cell.wound;
            p.kill = cell.kill;
            let m = &data.animals.man_modifiers;
            let reference = data.weapons.get(&m.reference_weapon).map_or(0, |w| w.class);
            // [animal table note 4] weapons, mounts, charges and lances.
            p.modifier += if att.mounted && att.charging && att.lance && first_round {
                m.lance_charge_first_round
            } else if att.mounted && att.charging && first_turn {
                m.mounted_charge_first_turn
            } else if att.weapon_class > reference || att.mounted {
                m.greater_weapon_or_mounted
            } else if att.weapon_class < reference {
                m.lesser_weapon
            } else {
                0
            };
            if att.poisoned_lance && first_round && data.animals.animals[d].poisoned_lance_kills {
                p.wound_kills = true;
            }
        }
        (Body::Animal(a), _) => {
            let animal = &data.animals.animals[a];
            let cell = match def.body {
                Body::Animal(d) => animal.vs_animals[d],
                Body::Man(level) => animal.vs_men[data.animals.band_of(level)],
            };
            p.wound = cell.wound;
            p.kill = cell.kill;
            // [Animals Special Abilities; table notes 2]
            match animal.special {
                Special::Club(b) if att.club => p.modifier += b,
                Special::Charge(b) if att.charging && first_turn => p.modifier += b,
                Special::Leap(b) if att.cannot_leap => p.modifier += b,
                Special::Stinger => p.stinger = cell.stinger,
                Special::ChargeKill(b) if att.charging && first_turn => p.kill_modifier += b,
                _ => {}
            }
        }
    }
    AttackProfile::new(
        p.wound,
        p.kill,
        p.modifier,
        p.kill_modifier,
        p.wound_kills,
        p.stinger,
    )
}

/// Defender `def`'s initiative roll against attacker `att` [men-vs-men 4a]:
/// the wound/initiative score at the defender's level difference, with the
/// greater weapon's bonus. Animals never roll (initiative alternates).
pub fn initiative_profile(att: &Fighter, def: &Fighter, data: &WomData) -> InitiativeProfile {
    match (def.body, att.body) {
        (Body::Man(ld), Body::Man(la)) => {
            let column = difference_column(i32::from(ld) - i32::from(la));
            let greater = def.okarian == att.okarian && def.weapon_class > att.weapon_class;
            let bonus = if greater {
                data.men.modifiers.greater_weapon
            } else {
                0
            };
            InitiativeProfile::new(data.men.wound_or_initiative[column], def.roll_bonus + bonus)
        }
        _ => InitiativeProfile::new(Score::Never, 0),
    }
}

pub(super) fn panic_score(att: &Fighter, def: &Fighter, table: &AnimalTable) -> Score {
    match (att.body, def.body) {
        (Body::Animal(a), Body::Animal(d)) => table.animals[a].vs_animals[d].panic,
        _ => Score::Never,
    }
}

pub(super) fn compile_shot(shooter: &Fighter, target: &Fighter, data: &WomData) -> CompiledShot {
    let Some(shot) = shooter.missile else {
        return CompiledShot::None;
    };
    let Body::Man(shooter_level) = shooter.body else {
        return CompiledShot::None;
    };
    match target.body {
        Body::Man(level) => {
            let rules = &data.missile.vs_men;
            let on_hit = if level <= rules.kill_up_to_level {
                MissileEffect::Kill
            } else {
                MissileEffect::Wounds(rules.wounds_on_hit)
            };
            CompiledShot::VsMan {
                modifier: shot.first_die_modifier,
                on_hit,
            }
        }
        Body::Animal(a) => {
            let cell = data.animals.men_attacking[usize::from(shooter_level) - 1][a];
            let kill = match cell.wound {
                Score::AtLeast(t) => t,
                Score::Automatic => 3,
                Score::Never => 19,
            };
            let mut short = [0u8; 4];
            for (slot, w) in short
                .iter_mut()
                .zip(&data.missile.vs_animals.wounds_by_points_short)
            {
                *slot = *w;
            }
            CompiledShot::VsAnimal { kill, short }
        }
    }
}
