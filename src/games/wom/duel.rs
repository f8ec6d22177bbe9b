//! `wom.duel`: Warriors of Mars individual combat (men against men, men
//! against animals, animals against animals, several opponents), with an
//! opening missile volley as an option.
//!
//! Rule references are to the Warriors of Mars booklet's sections:
//! "Melee priority N" is the first-strike list of Individual Combat: Melee;
//! "men-vs-men N" and "animals N" are the numbered procedures of the
//! Individual Combat Tables section; "multiple N" is its Multiple Opponents
//! procedure.
//!
//! Every mechanic is written once here and read by both the Monte Carlo
//! trial ([`WomDuel::run_trial`]) and the exact chain
//! ([`super::duel_exact`]): attack profiles classify a roll, initiative
//! profiles decide a seizure, and `next_holder` passes the initiative.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::tables::{AnimalTable, Score, Special, WomData, difference_column};
use crate::engine::{Dice, ExactSolution, MetricSpec, Model, OutputSpec, Trace, TrialResult};
use crate::scenario::{ScenarioError, parse_toml, read_text};

/// Most figures on one side.
pub const MAX_PER_SIDE: usize = 16;
/// Default cap on rounds; a fight still going is "undecided".
pub const DEFAULT_MAX_ROUNDS: u32 = 100_000;

// ---------------------------------------------------------------- scenario

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DuelFile {
    model: String,
    description: String,
    /// Folder of the data files, relative to the scenario (default `data`).
    data: Option<String>,
    max_rounds: Option<i64>,
    sides: Vec<SideFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideFile {
    label: Option<String>,
    figures: Vec<FigureFile>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct FigureFile {
    character: String,
    level: Option<i64>,
    weapon: Option<String>,
    okarian: bool,
    off_hand: bool,
    mounted: bool,
    charging: bool,
    lance: bool,
    poisoned_lance: bool,
    club: bool,
    cannot_leap: bool,
    surprise: bool,
    moved: bool,
    missile: Option<MissileFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MissileFile {
    weapon: String,
    #[serde(default = "medium")]
    range: String,
    #[serde(default)]
    target_moving: bool,
    #[serde(default = "no_cover")]
    cover: String,
}

fn medium() -> String {
    "medium".into()
}
fn no_cover() -> String {
    "none".into()
}

// ---------------------------------------------------------------- fighters

/// What a figure is, for table lookups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body {
    /// A man of this ability level.
    Man(u8),
    /// An animal: its column in the animal table.
    Animal(usize),
}

/// A figure resolved against the data: no names are looked up in play.
#[derive(Debug, Clone, PartialEq)]
pub struct Fighter {
    /// Display name.
    pub name: String,
    /// Man or animal.
    pub body: Body,
    /// Wounds that kill.
    pub wounds_to_kill: u8,
    /// Code-of-battle class of the melee weapon (men).
    pub weapon_class: u8,
    /// Reach of the melee weapon (men).
    pub reach: u16,
    /// Added to all combat rolls (Woola).
    pub roll_bonus: i8,
    okarian: bool,
    off_hand: bool,
    mounted: bool,
    charging: bool,
    lance: bool,
    poisoned_lance: bool,
    club: bool,
    cannot_leap: bool,
    surprise: bool,
    moved: bool,
    missile: Option<MissileShot>,
}

/// An opening missile shot, reduced to what the dice need.
#[derive(Debug, Clone, Copy, PartialEq)]
struct MissileShot {
    /// Sum of the first-die modifiers that do not depend on the target.
    first_die_modifier: i8,
}

// ------------------------------------------------------------ mechanics

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
    pub fn stings(&self, roll: u32) -> bool {
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
    fn can_hurt(&self) -> bool {
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

// ----------------------------------------------------------------- model

/// The built `wom.duel` model.
#[derive(Debug, Clone)]
pub struct WomDuel {
    spec: OutputSpec,
    /// Figures of side A then side B.
    fighters: Vec<Fighter>,
    /// Figures on side A (the rest are side B).
    side_a: usize,
    /// Side labels.
    labels: [String; 2],
    animals_involved: bool,
    panic_possible: bool,
    successive_limit: u8,
    max_rounds: u32,
    /// `attack[(a * n + d) * 3 + phase]`.
    attack: Vec<AttackProfile>,
    /// `initiative[a * n + d]`: defender `d`'s roll against attacker `a`.
    initiative: Vec<InitiativeProfile>,
    /// `panic[a * n + d]`.
    panic: Vec<Score>,
    /// `missile[s * n + t]`: shooter `s` at target `t`, as a compiled shot.
    missile: Vec<CompiledShot>,
    outcome_flee: Option<[u16; 2]>,
    outcome_undecided: u16,
    first_strike: FirstStrike,
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

const METRIC_ROUNDS: usize = 0;
const METRIC_TURNS: usize = 1;
const METRIC_WOUNDS_A: usize = 2;
const METRIC_SURVIVORS_A: usize = 4;

impl WomDuel {
    /// Loads a `wom.duel` scenario and the data it names.
    pub fn load(path: &Path) -> Result<(Self, String), ScenarioError> {
        let text = read_text(path)?;
        let file: DuelFile = parse_toml(path, &text)?;
        crate::scenario::expect_model(path, &file.model, "wom.duel")?;
        let data_dir: PathBuf = path
            .parent()
            .unwrap_or(Path::new("."))
            .join(file.data.as_deref().unwrap_or("data"));
        let data = WomData::load(&data_dir)?;
        let model = Self::build(path, &file, &data)?;
        Ok((model, file.description))
    }

    fn build(path: &Path, file: &DuelFile, data: &WomData) -> Result<Self, ScenarioError> {
        if file.sides.len() != 2 {
            return Err(ScenarioError::new(
                path,
                "sides",
                format!("expected exactly 2 [[sides]], found {}", file.sides.len()),
            ));
        }
        let max_rounds = match file.max_rounds {
            None => DEFAULT_MAX_ROUNDS,
            Some(n) if (1..=10_000_000).contains(&n) => n as u32,
            Some(n) => {
                return Err(ScenarioError::new(
                    path,
                    "max_rounds",
                    format!("expected 1 to 10000000, found {n}"),
                ));
            }
        };
        let mut fighters = Vec::new();
        let mut labels = [String::new(), String::new()];
        let mut side_a = 0;
        for (s, side) in file.sides.iter().enumerate() {
            if side.figures.is_empty() || side.figures.len() > MAX_PER_SIDE {
                return Err(ScenarioError::new(
                    path,
                    format!("sides[{s}].figures"),
                    format!(
                        "expected 1 to {MAX_PER_SIDE} figures, found {}",
                        side.figures.len()
                    ),
                ));
            }
            for (f, figure) in side.figures.iter().enumerate() {
                fighters.push(resolve_figure(
                    path,
                    &format!("sides[{s}].figures[{f}]"),
                    figure,
                    data,
                )?);
            }
            let first = &fighters[if s == 0 { 0 } else { side_a }].name;
            labels[s] = side.label.clone().unwrap_or_else(|| {
                if side.figures.len() == 1 {
                    first.clone()
                } else {
                    format!("{} x{}", first, side.figures.len())
                }
            });
            if s == 0 {
                side_a = fighters.len();
            }
        }
        if labels[0] == labels[1] {
            labels[0].push_str(" (A)");
            labels[1].push_str(" (B)");
        }
        let sides_shooting: Vec<usize> = (0..2)
            .filter(|s| {
                side_range(*s, side_a, fighters.len()).any(|i| fighters[i].missile.is_some())
            })
            .collect();
        if sides_shooting.len() > 1 {
            return Err(ScenarioError::new(
                path,
                "sides[1].figures[].missile",
                "expected opening missile fire from one side only (the other closes to melee)",
            ));
        }
        for s in 0..2 {
            let surprised_other =
                side_range(1 - s, side_a, fighters.len()).any(|i| fighters[i].surprise);
            if surprised_other
                && side_range(s, side_a, fighters.len()).any(|i| fighters[i].surprise)
            {
                return Err(ScenarioError::new(
                    path,
                    "sides[].figures[].surprise",
                    "expected surprise on one side only",
                ));
            }
        }

        let n = fighters.len();
        let animals_involved = fighters.iter().any(|f| matches!(f.body, Body::Animal(_)));
        let has_animal = |s: usize| {
            side_range(s, side_a, n).any(|i| matches!(fighters[i].body, Body::Animal(_)))
        };
        let panic_possible = has_animal(0) && has_animal(1);
        let mut attack = Vec::with_capacity(n * n * 3);
        let mut initiative = Vec::with_capacity(n * n);
        let mut panic = Vec::with_capacity(n * n);
        let mut missile = Vec::with_capacity(n * n);
        for a in 0..n {
            for d in 0..n {
                for phase in 0..3 {
                    attack.push(attack_profile(&fighters[a], &fighters[d], phase, data));
                }
                initiative.push(initiative_profile(&fighters[a], &fighters[d], data));
                panic.push(panic_score(&fighters[a], &fighters[d], &data.animals));
                missile.push(compile_shot(&fighters[a], &fighters[d], data));
            }
        }
        let mut outcomes = vec![format!("{} wins", labels[0]), format!("{} wins", labels[1])];
        let outcome_flee = panic_possible.then(|| {
            outcomes.push(format!("{} flees", labels[0]));
            outcomes.push(format!("{} flees", labels[1]));
            [2, 3]
        });
        outcomes.push(format!("undecided after {max_rounds} rounds"));
        let outcome_undecided = (outcomes.len() - 1) as u16;
        let spec = OutputSpec {
            outcomes,
            metrics: vec![
                metric("rounds", "rounds of melee fought"),
                metric("turns", "turns (two rounds each)"),
                metric("wounds_a", &format!("wounds taken by {}", labels[0])),
                metric("wounds_b", &format!("wounds taken by {}", labels[1])),
                metric(
                    "survivors_a",
                    &format!("{} figures still fighting", labels[0]),
                ),
                metric(
                    "survivors_b",
                    &format!("{} figures still fighting", labels[1]),
                ),
            ],
            length_metric: Some(METRIC_ROUNDS),
            trends: Vec::new(),
        };
        let model = WomDuel {
            spec,
            fighters,
            side_a,
            labels,
            animals_involved,
            panic_possible,
            successive_limit: data.men.modifiers.successive_attack_limit.max(1),
            max_rounds,
            attack,
            initiative,
            panic,
            missile,
            outcome_flee,
            outcome_undecided,
            first_strike: FirstStrike::RollOff,
        };
        let mut model = model;
        model.first_strike = model.decide_first_strike();
        let hurts = |s: usize| {
            side_range(s, side_a, n)
                .any(|a| side_range(1 - s, side_a, n).any(|d| model.attack(a, d, 2).can_hurt()))
        };
        if !hurts(0) && !hurts(1) {
            return Err(ScenarioError::new(
                path,
                "sides",
                "expected at least one side able to wound the other; this fight could never end",
            ));
        }
        Ok(model)
    }

    /// The side labels (A, B).
    pub fn labels(&self) -> &[String; 2] {
        &self.labels
    }

    /// The figures, side A first.
    pub fn fighters(&self) -> &[Fighter] {
        &self.fighters
    }

    /// Number of figures on side A.
    pub fn side_a_count(&self) -> usize {
        self.side_a
    }

    /// Whether animals take part (initiative then always alternates).
    pub fn animals_involved(&self) -> bool {
        self.animals_involved
    }

    /// Whether the first animal attack against an animal checks for panic.
    pub fn panic_possible(&self) -> bool {
        self.panic_possible
    }

    /// Successive attacks after which the initiative passes.
    pub fn successive_limit(&self) -> u8 {
        self.successive_limit
    }

    /// The outcome index of side `s` fleeing, when panic is possible.
    pub fn flee_outcome(&self, s: usize) -> Option<usize> {
        self.outcome_flee.map(|f| usize::from(f[s]))
    }

    /// Side of figure `i`.
    #[inline]
    pub fn side_of(&self, i: usize) -> usize {
        usize::from(i >= self.side_a)
    }

    /// Figure indices of side `s`.
    #[inline]
    pub fn side(&self, s: usize) -> std::ops::Range<usize> {
        side_range(s, self.side_a, self.fighters.len())
    }

    /// The attack profile of `a` against `d` in `phase`.
    #[inline]
    pub fn attack(&self, a: usize, d: usize, phase: usize) -> &AttackProfile {
        &self.attack[(a * self.fighters.len() + d) * 3 + phase]
    }

    /// Defender `d`'s initiative roll against attacker `a`.
    #[inline]
    pub fn initiative(&self, d: usize, a: usize) -> &InitiativeProfile {
        &self.initiative[a * self.fighters.len() + d]
    }

    /// Panic score of animal `a` attacking animal `d`.
    #[inline]
    pub fn panic(&self, a: usize, d: usize) -> Score {
        self.panic[a * self.fighters.len() + d]
    }

    /// The compiled missile shot of `s` at `t`.
    #[inline]
    pub fn shot(&self, s: usize, t: usize) -> &CompiledShot {
        &self.missile[s * self.fighters.len() + t]
    }

    /// The first strike before any die is rolled [Melee priorities 1-5].
    /// A shooter who fired at an animal gave up his first attack [Missile
    /// Fire vs. Animals], so the animals' side then strikes first.
    pub fn first_strike(&self) -> FirstStrike {
        self.first_strike
    }

    fn decide_first_strike(&self) -> FirstStrike {
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

    /// The living enemy that the `k`-th living figure of a side attacks:
    /// attackers spread over the living enemies in order [multiple 1].
    #[inline]
    fn target(&self, enemy_side: usize, k: usize, melee: &Melee) -> Option<usize> {
        let living = usize::from(melee.living[enemy_side]);
        if living == 0 {
            return None;
        }
        // Most attackers have a target of their own: skip the division.
        let pick = if k < living { k } else { k % living };
        let mut skip = pick;
        for i in self.side(enemy_side) {
            if melee.alive[i] {
                if skip == 0 {
                    return Some(i);
                }
                skip -= 1;
            }
        }
        None
    }

    fn finish(&self, outcome: u16, rounds: u32, melee: &Melee) -> TrialResult {
        let mut metrics = [0u32; crate::engine::accumulate::MAX_METRICS];
        metrics[METRIC_ROUNDS] = rounds;
        metrics[METRIC_TURNS] = rounds.div_ceil(2);
        for s in 0..2 {
            metrics[METRIC_WOUNDS_A + s] = self.side(s).map(|i| u32::from(melee.wounds[i])).sum();
            metrics[METRIC_SURVIVORS_A + s] = u32::from(melee.living[s]);
        }
        TrialResult { outcome, metrics }
    }

    /// Applies a melee blow to figure `d`: the common cases without branches.
    #[inline]
    fn strike(&self, d: usize, blow: Blow, melee: &mut Melee) {
        melee.wounds[d] += u8::from(blow == Blow::Wound);
        if (blow == Blow::Kill) | (melee.wounds[d] >= self.fighters[d].wounds_to_kill) {
            melee.remove(d, self.side_of(d), false);
        }
    }

    /// Applies a blow or missile effect to figure `d`.
    #[inline]
    fn apply(&self, d: usize, effect: MissileEffect, melee: &mut Melee) {
        let falls = match effect {
            MissileEffect::Kill => true,
            MissileEffect::Wounds(w) => {
                melee.wounds[d] = melee.wounds[d].saturating_add(w);
                melee.wounds[d] >= self.fighters[d].wounds_to_kill
            }
            MissileEffect::Miss => false,
        };
        if falls {
            melee.remove(d, self.side_of(d), false);
        }
    }

    /// The outcome once side `s` has no figure left fighting, if so.
    #[inline]
    fn eliminated(&self, s: usize, melee: &Melee) -> Option<u16> {
        if melee.living[s] > 0 {
            return None;
        }
        match self.outcome_flee {
            Some(flee) if melee.fled[s] > 0 => Some(flee[s]),
            _ => Some((1 - s) as u16),
        }
    }
}

/// One trial's state of the fight, on the stack.
struct Melee {
    wounds: [u8; 2 * MAX_PER_SIDE],
    alive: [bool; 2 * MAX_PER_SIDE],
    /// Figures still fighting, per side.
    living: [u8; 2],
    /// Figures that ran away, per side.
    fled: [u8; 2],
}

impl Melee {
    fn new(duel: &WomDuel) -> Self {
        let mut alive = [false; 2 * MAX_PER_SIDE];
        alive[..duel.fighters.len()]
            .iter_mut()
            .for_each(|a| *a = true);
        Melee {
            wounds: [0; 2 * MAX_PER_SIDE],
            alive,
            living: [duel.side(0).len() as u8, duel.side(1).len() as u8],
            fled: [0; 2],
        }
    }

    /// Takes figure `i` of side `s` out of the fight (dead, or fled).
    #[inline]
    fn remove(&mut self, i: usize, s: usize, fled: bool) {
        if self.alive[i] {
            self.alive[i] = false;
            self.living[s] -= 1;
            self.fled[s] += u8::from(fled);
        }
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

fn metric(name: &str, description: &str) -> MetricSpec {
    MetricSpec {
        name: name.into(),
        description: description.into(),
    }
}

fn side_range(s: usize, side_a: usize, n: usize) -> std::ops::Range<usize> {
    if s == 0 { 0..side_a } else { side_a..n }
}

fn resolve_figure(
    path: &Path,
    field: &str,
    figure: &FigureFile,
    data: &WomData,
) -> Result<Fighter, ScenarioError> {
    let err = |f: &str, m: String| ScenarioError::new(path, format!("{field}.{f}"), m);
    let character = data.roster.get(&figure.character).ok_or_else(|| {
        let known: Vec<&str> = data.roster.keys().map(String::as_str).collect();
        err(
            "character",
            format!(
                "expected a character of roster.toml ({}), found {:?}",
                known.join(", "),
                figure.character
            ),
        )
    })?;
    let body = match (&character.animal, figure.level.or(character.level)) {
        (Some(animal), None) => Body::Animal(data.animals.animal_index(animal).unwrap_or(0)),
        (Some(_), Some(_)) => {
            return Err(err(
                "level",
                format!("expected no level: {} is an animal", character.name),
            ));
        }
        (None, Some(level)) if (1..=13).contains(&level) => Body::Man(level as u8),
        (None, Some(level)) => {
            return Err(err(
                "level",
                format!("expected a level 1-13, found {level}"),
            ));
        }
        (None, None) => return Err(err("level", "expected a level for a man".into())),
    };
    let wounds_to_kill = match body {
        Body::Man(level) => character
            .wounds_to_kill
            .unwrap_or(level + data.men.wounds_above_level),
        Body::Animal(a) => character
            .wounds_to_kill
            .unwrap_or(data.animals.animals[a].wounds_to_kill),
    };
    let weapon_id = figure
        .weapon
        .clone()
        .unwrap_or_else(|| data.animals.man_modifiers.reference_weapon.clone());
    let weapon = data.weapons.get(&weapon_id).ok_or_else(|| {
        err(
            "weapon",
            format!(
                "expected a weapon of weapons.toml ({}), found {weapon_id:?}",
                data.weapons.keys().cloned().collect::<Vec<_>>().join(", ")
            ),
        )
    })?;
    let is_animal = matches!(body, Body::Animal(_));
    let man_only = [
        ("weapon", figure.weapon.is_some()),
        ("okarian", figure.okarian),
        ("off_hand", figure.off_hand),
        ("mounted", figure.mounted),
        ("lance", figure.lance),
        ("poisoned_lance", figure.poisoned_lance),
        ("missile", figure.missile.is_some()),
    ];
    if is_animal && let Some((name, _)) = man_only.iter().find(|(_, set)| *set) {
        return Err(err(
            name,
            format!("expected no `{name}`: {} is an animal", character.name),
        ));
    }
    if !is_animal && (figure.club || figure.cannot_leap) {
        return Err(err(
            if figure.club { "club" } else { "cannot_leap" },
            format!("expected an animal: {} is a man", character.name),
        ));
    }
    if (figure.lance || figure.poisoned_lance) && !(figure.mounted && figure.charging) {
        return Err(err(
            "lance",
            "expected `mounted = true` and `charging = true` for a lance charge".into(),
        ));
    }
    let missile = match &figure.missile {
        None => None,
        Some(m) => {
            let rules = &data.missile.vs_men;
            let range = match m.range.as_str() {
                "short" => rules.short_range,
                "medium" => 0,
                "long" => rules.long_range,
                other => {
                    return Err(err(
                        "missile.range",
                        format!("expected short, medium or long, found {other:?}"),
                    ));
                }
            };
            let cover = match m.cover.as_str() {
                "none" => 0,
                "soft" => rules.soft_cover,
                "hard" => rules.hard_cover,
                other => {
                    return Err(err(
                        "missile.cover",
                        format!("expected none, soft or hard, found {other:?}"),
                    ));
                }
            };
            if !data.weapons.contains_key(&m.weapon) {
                return Err(err(
                    "missile.weapon",
                    format!("expected a weapon of weapons.toml, found {:?}", m.weapon),
                ));
            }
            let weapon_modifier = rules.weapon_modifiers.get(&m.weapon).copied().unwrap_or(0);
            let moving = if m.target_moving {
                rules.target_moving
            } else {
                0
            };
            Some(MissileShot {
                first_die_modifier: range
                    + cover
                    + weapon_modifier
                    + moving
                    + character.missile_modifier,
            })
        }
    };
    Ok(Fighter {
        name: character.name.clone(),
        body,
        wounds_to_kill,
        weapon_class: weapon.class,
        reach: weapon.reach,
        roll_bonus: character.roll_bonus,
        okarian: figure.okarian,
        off_hand: figure.off_hand,
        mounted: figure.mounted,
        charging: figure.charging,
        lance: figure.lance,
        poisoned_lance: figure.poisoned_lance,
        club: figure.club,
        cannot_leap: figure.cannot_leap,
        surprise: figure.surprise,
        moved: figure.moved,
        missile,
    })
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

fn panic_score(att: &Fighter, def: &Fighter, table: &AnimalTable) -> Score {
    match (att.body, def.body) {
        (Body::Animal(a), Body::Animal(d)) => table.animals[a].vs_animals[d].panic,
        _ => Score::Never,
    }
}

fn compile_shot(shooter: &Fighter, target: &Fighter, data: &WomData) -> CompiledShot {
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

impl Model for WomDuel {
    fn spec(&self) -> &OutputSpec {
        &self.spec
    }

    fn run_trial<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        let mut melee = Melee::new(self);
        let name = |i: usize| &self.fighters[i].name;

        // Opening volley [Missile Fire Procedure; Missile Fire vs. Animals].
        for s in 0..2 {
            let mut k = 0;
            for shooter in self.side(s) {
                if self.fighters[shooter].missile.is_none() {
                    continue;
                }
                let Some(t) = self.target(1 - s, k, &melee) else {
                    break;
                };
                k += 1;
                let shot = self.shot(shooter, t);
                let effect = match shot {
                    CompiledShot::VsMan { .. } => {
                        let (first, second) = (dice.d6(), dice.d6());
                        let effect = shot.effect(first, second, 0);
                        trace.event("WoM missile fire procedure", || {
                            format!("{} fires at {}: first die {first}, second die {second} -> {effect:?}", name(shooter), name(t))
                        });
                        effect
                    }
                    _ => {
                        let roll = dice.three_d6();
                        let effect = shot.effect(0, 0, roll);
                        trace.event("WoM missile fire vs. animals", || {
                            format!(
                                "{} fires at {}: 3d6 = {roll} -> {effect:?}",
                                name(shooter),
                                name(t)
                            )
                        });
                        effect
                    }
                };
                self.apply(t, effect, &mut melee);
            }
            if let Some(outcome) = self.eliminated(1 - s, &melee) {
                return self.finish(outcome, 0, &melee);
            }
        }

        let mut holder = match self.first_strike() {
            FirstStrike::Side(s, case) => {
                trace.event(case, || format!("{} strikes first", self.labels[s]));
                s
            }
            FirstStrike::RollOff => {
                let s = usize::from(dice.coin());
                trace.event("WoM melee: roll-off", || {
                    format!(
                        "nothing decides the first strike; {} wins the roll-off",
                        self.labels[s]
                    )
                });
                s
            }
        };
        let mut run: u8 = 0;
        let mut round: u32 = 0;
        loop {
            round += 1;
            if round > self.max_rounds {
                return self.finish(self.outcome_undecided, round - 1, &melee);
            }
            let phase = phase_of_round(round);
            run += 1;
            let defenders = 1 - holder;
            // [multiple 1] every living attacker strikes.
            let mut k = 0;
            for a in self.side(holder) {
                if !melee.alive[a] {
                    continue;
                }
                let Some(d) = self.target(defenders, k, &melee) else {
                    break;
                };
                k += 1;
                // [animals 1] an animal attacking an animal may panic, once,
                // as the fight opens.
                if round == 1 && self.panic_possible {
                    let score = self.panic(a, d);
                    if score != Score::Never {
                        let roll = dice.three_d6();
                        let panicked = score.met_by(roll as i32);
                        trace.event("WoM animals 1: panic", || {
                            format!("round {round}: {} checks panic against {}: 3d6 = {roll} vs {} -> {}", name(a), name(d), score.printed(), if panicked { "panics and runs" } else { "holds" })
                        });
                        if panicked {
                            melee.remove(a, holder, true);
                            continue;
                        }
                    }
                }
                let profile = self.attack(a, d, phase);
                let roll = dice.three_d6();
                let blow = profile.blow(roll);
                self.strike(d, blow, &mut melee);
                trace.event(if self.animals_involved { "WoM animals 2-4" } else { "WoM men-vs-men 2-3" }, || {
                    format!(
                        "round {round}: {} attacks {}: 3d6 = {roll}{:+} vs wound {} / kill {}{} -> {blow:?} ({} of {} wounds)",
                        name(a),
                        name(d),
                        profile.modifier,
                        profile.wound.printed(),
                        profile.kill.printed(),
                        if profile.kill_modifier != 0 { format!(" ({:+} to kill)", profile.kill_modifier) } else { String::new() },
                        melee.wounds[d],
                        self.fighters[d].wounds_to_kill
                    )
                });
                if melee.alive[d] && profile.stinger != Score::Never {
                    let sting = dice.three_d6();
                    let killed = profile.stings(sting);
                    if killed {
                        melee.remove(d, defenders, false);
                    }
                    trace.event("WoM animals special: stinger", || {
                        format!(
                            "{} stings {}: 3d6 = {sting} vs {} -> {}",
                            name(a),
                            name(d),
                            profile.stinger.printed(),
                            if killed { "kills" } else { "misses" }
                        )
                    });
                }
            }
            for s in [defenders, holder] {
                if let Some(outcome) = self.eliminated(s, &melee) {
                    trace.event("WoM individual combat", || {
                        self.spec.outcomes[usize::from(outcome)].clone()
                    });
                    return self.finish(outcome, round, &melee);
                }
            }
            // [men-vs-men 4; multiple 3] each living defender may seize the
            // initiative for his side.
            let mut seized = false;
            if initiative_needs_roll(run, self.animals_involved, self.successive_limit) {
                let mut k = 0;
                for d in self.side(defenders) {
                    if !melee.alive[d] {
                        continue;
                    }
                    let Some(a) = self.target(holder, k, &melee) else {
                        break;
                    };
                    k += 1;
                    let profile = self.initiative(d, a);
                    let roll = dice.three_d6();
                    let won = profile.seized(roll);
                    trace.event("WoM men-vs-men 4a: initiative", || {
                        format!(
                            "{} rolls for the initiative: 3d6 = {roll}{:+} vs {} -> {}",
                            name(d),
                            profile.modifier,
                            profile.score.printed(),
                            if won { "seized" } else { "not seized" }
                        )
                    });
                    seized |= won;
                }
            } else if !self.animals_involved {
                trace.event("WoM men-vs-men 4b", || {
                    format!(
                        "{} attacked {} times in succession: the initiative passes",
                        self.labels[holder], run
                    )
                });
            }
            (holder, run) = next_holder(
                holder,
                run,
                self.animals_involved,
                self.successive_limit,
                seized,
            );
        }
    }

    fn exact(&self) -> Result<ExactSolution, String> {
        super::duel_exact::solve(self)
    }
}
