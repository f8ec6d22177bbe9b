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
//! Every mechanic is written once (in `rules`) and read by both the Monte
//! Carlo trial ([`Model::run_trial`](barsoom_engine::Model::run_trial) in
//! `model`) and the exact chain ([`exact`]): attack profiles classify a
//! roll, initiative profiles decide a seizure, and `next_holder` passes the
//! initiative.
//!
//! This file holds the fighters and the built model; the rest is split by
//! job:
//!
//! - `scenario`: the scenario file, its validation and the output spec;
//! - `rules`: blows, attack, initiative and panic profiles, missile shots
//!   and who strikes first;
//! - `model`: the Monte Carlo trial (the melee's state) and the `Model`
//!   impl;
//! - [`exact`]: the one-against-one duel as an absorbing Markov chain.

use barsoom_engine::OutputSpec;

use super::tables::Score;

pub mod exact;
mod model;
mod rules;
mod scenario;

pub use rules::{
    AttackProfile, Blow, CompiledShot, FirstStrike, InitiativeProfile, MissileEffect,
    attack_profile, initiative_needs_roll, initiative_profile, next_holder, phase_of_round,
};

/// Most figures on one side.
pub(crate) const MAX_PER_SIDE: usize = 16;
/// Default cap on rounds; a fight still going is "undecided".
pub const DEFAULT_MAX_ROUNDS: u32 = 100_000;

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

const METRIC_ROUNDS: usize = 0;
const METRIC_TURNS: usize = 1;
const METRIC_WOUNDS_A: usize = 2;
const METRIC_SURVIVORS_A: usize = 4;

impl WomDuel {
    /// The side labels (A, B).
    pub fn labels(&self) -> &[String; 2] {
        &self.labels
    }

    /// The figures, side A first.
    pub fn fighters(&self) -> &[Fighter] {
        &self.fighters
    }

    /// Whether animals take part (initiative then always alternates).
    pub(crate) fn animals_involved(&self) -> bool {
        self.animals_involved
    }

    /// Whether the first animal attack against an animal checks for panic.
    pub(crate) fn panic_possible(&self) -> bool {
        self.panic_possible
    }

    /// Successive attacks after which the initiative passes.
    pub(crate) fn successive_limit(&self) -> u8 {
        self.successive_limit
    }

    /// The outcome index of side `s` fleeing, when panic is possible.
    pub fn flee_outcome(&self, s: usize) -> Option<usize> {
        self.outcome_flee.map(|f| usize::from(f[s]))
    }

    /// Side of figure `i`.
    #[inline]
    pub(crate) fn side_of(&self, i: usize) -> usize {
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
}

fn side_range(s: usize, side_a: usize, n: usize) -> std::ops::Range<usize> {
    if s == 0 { 0..side_a } else { side_a..n }
}
