//! Battle in the six-races hex wargame [Battle Phase], [Leaders]: the key
//! attribute rolled on the random attribute table, the higher score wins
//! and the loser is destroyed, equal scores destroy both. Each piece is one
//! function shared by the full game, the `races.battle` model and the exact
//! closed form ([`odds`] sums [`fight`] over the key attribute's faces).

use barsoom_engine::scenario::Load;

use crate::ScenarioModel;

use barsoom_engine::scenario::id_list;
use barsoom_engine::scenario::{Loader, Scenario};
use std::path::Path;

use serde::Deserialize;

use super::Roll;
use super::data::{ATTRIBUTES, Profile, REROLL, RacesData};
use barsoom_engine::accumulate::MAX_METRICS;
use barsoom_engine::scenario::ScenarioError;
use barsoom_engine::{Dice, ExactSolution, MetricSpec, Model, OutputSpec, Trace, TrialResult};

/// How one battle ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The attacker scores higher: the defender is destroyed.
    AttackerWins,
    /// The defender scores higher: the attacker is destroyed.
    DefenderWins,
    /// Equal scores: both are destroyed.
    BothDestroyed,
}

/// The battle decided by attribute `key` [Battle Phase]: higher wins, equal
/// destroys both.
#[inline]
pub fn fight(attacker: &Profile, defender: &Profile, key: usize) -> Verdict {
    let (a, d) = (attacker[key], defender[key]);
    if a > d {
        Verdict::AttackerWins
    } else if d > a {
        Verdict::DefenderWins
    } else {
        Verdict::BothDestroyed
    }
}

/// Rolls the random attribute table (a d10 whose reroll faces are rolled
/// again) and returns the attribute index [Random Attribute Determination
/// Table].
#[inline]
pub fn roll_attribute<R: Roll>(dice: &mut R, table: &[u8]) -> usize {
    loop {
        let face = table[(dice.die(table.len() as u32) - 1) as usize];
        if face != REROLL {
            return usize::from(face);
        }
    }
}

/// The probability of each attribute coming up on the random attribute
/// table, rerolls excluded.
pub fn attribute_probabilities(table: &[u8]) -> [f64; ATTRIBUTES] {
    let mut p = [0.0; ATTRIBUTES];
    let live = table.iter().filter(|f| **f != REROLL).count() as f64;
    for face in table.iter().filter(|f| **f != REROLL) {
        p[usize::from(*face)] += 1.0 / live;
    }
    p
}

/// Exact chances of a battle's three verdicts.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Odds {
    /// The attacker wins.
    pub attacker: f64,
    /// The defender wins.
    pub defender: f64,
    /// Both are destroyed.
    pub both: f64,
}

impl Odds {
    /// The attacker's chance to win less its chance to lose (the attacker
    /// dies on a loss or a tie).
    pub fn edge(&self) -> f64 {
        self.attacker - self.defender - self.both
    }
}

/// The exact odds of a battle: [`fight`] for every key attribute, weighted
/// by its chance on the random attribute table (`weights`, from
/// [`attribute_probabilities`]).
pub fn odds(attacker: &Profile, defender: &Profile, weights: &[f64; ATTRIBUTES]) -> Odds {
    let mut o = Odds::default();
    for (key, w) in weights.iter().enumerate() {
        match fight(attacker, defender, key) {
            Verdict::AttackerWins => o.attacker += w,
            Verdict::DefenderWins => o.defender += w,
            Verdict::BothDestroyed => o.both += w,
        }
    }
    o
}

/// What backs one side of a battle besides its warband's own values, for
/// the bonus matrix: a hex bonus, a settlement's all-units bonus, ruins, or
/// a leader in charge [Map], [Leaders].
#[derive(Debug, Clone, PartialEq)]
pub struct Situation {
    /// Short label, e.g. `open ground`, `in hills`, `holds dojo`.
    pub label: String,
    /// Bonus added to the warband's values.
    pub bonus: Profile,
    /// A leader is in charge whose special attribute was rolled on the
    /// random attribute table (the odds average over it).
    pub leader: bool,
}

/// Every single-source situation the data allows, in a fixed order: open
/// ground; each terrain's in-hex bonus; ruins on each attribute; each
/// settlement's all-units bonus; one leader in charge.
pub fn situations(data: &RacesData) -> Vec<Situation> {
    let none = [0i8; ATTRIBUTES];
    let mut out = vec![Situation {
        label: "open ground".into(),
        bonus: none,
        leader: false,
    }];
    for t in data.terrain.iter().filter(|t| t.in_hex != none) {
        out.push(Situation {
            label: format!("in {}", t.id),
            bonus: t.in_hex,
            leader: false,
        });
    }
    for t in data.terrain.iter().filter(|t| t.ruins != 0) {
        for (a, attribute) in data.attributes.iter().enumerate() {
            let mut bonus = none;
            bonus[a] = t.ruins;
            out.push(Situation {
                label: format!("in {} ({attribute})", t.id),
                bonus,
                leader: false,
            });
        }
    }
    for t in data.terrain.iter().filter(|t| t.all_units != none) {
        out.push(Situation {
            label: format!("holds {}", t.id),
            bonus: t.all_units,
            leader: false,
        });
    }
    out.push(Situation {
        label: "leader".into(),
        bonus: none,
        leader: true,
    });
    out
}

/// The leader attributes a situation may put in charge, with their
/// chances: none for certain, or each attribute as the random attribute
/// table gives it.
fn leader_chances(
    situation: &Situation,
    weights: &[f64; ATTRIBUTES],
) -> ([(Option<u8>, f64); ATTRIBUTES], usize) {
    let mut out = [(None, 0.0); ATTRIBUTES];
    if !situation.leader {
        out[0] = (None, 1.0);
        return (out, 1);
    }
    for (a, w) in weights.iter().enumerate() {
        out[a] = (Some(a as u8), *w);
    }
    (out, ATTRIBUTES)
}

/// The exact odds of `attacker` backed by situation `a` against `defender`
/// backed by `d`: [`odds`] of their [`scores`], averaged over the special
/// attribute of any leader in charge.
pub(crate) fn situation_odds(
    attacker: &Profile,
    a: &Situation,
    defender: &Profile,
    d: &Situation,
    weights: &[f64; ATTRIBUTES],
    leader_bonus: i8,
) -> Odds {
    let none = [0i8; ATTRIBUTES];
    let (a_leaders, na) = leader_chances(a, weights);
    let (d_leaders, nd) = leader_chances(d, weights);
    let mut total = Odds::default();
    for (la, wa) in &a_leaders[..na] {
        let own = scores(attacker, &a.bonus, &none, *la, leader_bonus);
        for (ld, wd) in &d_leaders[..nd] {
            let theirs = scores(defender, &d.bonus, &none, *ld, leader_bonus);
            let o = odds(&own, &theirs, weights);
            total.attacker += wa * wd * o.attacker;
            total.defender += wa * wd * o.defender;
            total.both += wa * wd * o.both;
        }
    }
    total
}

/// The exact odds of every warband kind (the six races, then the
/// variants) attacking every other, for every pair of [`situations`].
#[derive(Debug, Clone, PartialEq)]
pub struct BonusMatrix {
    /// Warband kind ids, in the data's order.
    pub kinds: Vec<String>,
    /// The situations, in [`situations`] order.
    pub situations: Vec<Situation>,
    odds: Vec<Odds>,
}

impl BonusMatrix {
    /// Solves every combination exactly.
    pub fn new(data: &RacesData) -> Self {
        let weights = attribute_probabilities(&data.random_attribute);
        let situations = situations(data);
        let bonus = data.rules.leader_bonus;
        let mut odds = Vec::with_capacity(situations.len().pow(2) * data.kinds.len().pow(2));
        for a in &situations {
            for d in &situations {
                for ka in &data.kinds {
                    for kd in &data.kinds {
                        odds.push(situation_odds(
                            &ka.values, a, &kd.values, d, &weights, bonus,
                        ));
                    }
                }
            }
        }
        BonusMatrix {
            kinds: data.kinds.iter().map(|k| k.id.clone()).collect(),
            situations,
            odds,
        }
    }

    /// Kind `ka` in situation `sa` attacking kind `kd` in situation `sd`.
    pub fn get(&self, sa: usize, sd: usize, ka: usize, kd: usize) -> Odds {
        let (s, k) = (self.situations.len(), self.kinds.len());
        self.odds[((sa * s + sd) * k + ka) * k + kd]
    }

    /// The attacker's chance to win in situations `sa` against `sd`,
    /// averaged over every pair of kinds.
    pub fn mean_attacker_wins(&self, sa: usize, sd: usize) -> f64 {
        let k = self.kinds.len();
        let sum: f64 = (0..k)
            .flat_map(|ka| (0..k).map(move |kd| (ka, kd)))
            .map(|(ka, kd)| self.get(sa, sd, ka, kd).attacker)
            .sum();
        sum / (k * k) as f64
    }

    /// The index of the situation labelled `label`.
    pub fn situation(&self, label: &str) -> Option<usize> {
        self.situations.iter().position(|s| s.label == label)
    }
}

/// A warband's scores: its values plus the bonuses of its hex, of its
/// owner's occupied settlements and of the leader in charge of its stack
/// (`leader`: that leader's special attribute) [Map], [Leaders].
#[inline]
pub fn scores(
    values: &Profile,
    in_hex: &Profile,
    all_units: &Profile,
    leader: Option<u8>,
    leader_bonus: i8,
) -> Profile {
    let mut out = [0i8; ATTRIBUTES];
    for i in 0..ATTRIBUTES {
        out[i] = values[i]
            .saturating_add(in_hex[i])
            .saturating_add(all_units[i]);
    }
    if let Some(a) = leader {
        let a = usize::from(a);
        out[a] = out[a].saturating_add(leader_bonus);
    }
    out
}

/// The leader a stack puts in charge for a battle, chosen before the key
/// attribute is rolled [Leaders]. `own_leaders` are the special attributes
/// of the leaders in the stack. Against a known enemy choice it takes the
/// best edge; against an enemy still to choose it takes the best worst case
/// over the enemy's leaders. `as_attacker` says which side of the battle it
/// is on.
#[allow(clippy::too_many_arguments)]
pub(crate) fn choose_leader(
    own_values: &Profile,
    own_leaders: &[u8],
    enemy_values: &Profile,
    enemy_leaders: &[u8],
    enemy_choice: Option<Option<u8>>,
    as_attacker: bool,
    leader_bonus: i8,
    weights: &[f64; ATTRIBUTES],
) -> Option<u8> {
    let mut best: Option<(f64, u8)> = None;
    for (i, &mine) in own_leaders.iter().enumerate() {
        if own_leaders[..i].contains(&mine) {
            continue;
        }
        let own = scores(
            own_values,
            &[0; ATTRIBUTES],
            &[0; ATTRIBUTES],
            Some(mine),
            leader_bonus,
        );
        let value_against = |enemy: Option<u8>| {
            let e = scores(
                enemy_values,
                &[0; ATTRIBUTES],
                &[0; ATTRIBUTES],
                enemy,
                leader_bonus,
            );
            if as_attacker {
                odds(&own, &e, weights).edge()
            } else {
                -odds(&e, &own, weights).edge()
            }
        };
        let value = match enemy_choice {
            Some(fixed) => value_against(fixed),
            None if enemy_leaders.is_empty() => value_against(None),
            None => enemy_leaders
                .iter()
                .map(|e| value_against(Some(*e)))
                .fold(f64::INFINITY, f64::min),
        };
        if best.is_none_or(|(v, _)| value > v) {
            best = Some((value, mine));
        }
    }
    best.map(|(_, a)| a)
}

// ---------------------------------------------------------------- model

/// Outcome: the attacker wins.
pub(crate) const OUT_ATTACKER: u16 = 0;
/// Outcome: the defender wins.
pub(crate) const OUT_DEFENDER: u16 = 1;
/// Outcome: both destroyed.
pub(crate) const OUT_BOTH: u16 = 2;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BattleFile {
    #[serde(flatten)]
    scenario: Scenario,
    /// The attacking side.
    attacker: SideFile,
    /// The defending side.
    defender: SideFile,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct SideFile {
    /// A race (`green`, `red`, `white`, `blue`, `yellow`, `black`) or a variant
    /// id from the data folder's warbands.
    warband: String,
    /// The hex's terrain, a terrain id of the data folder (not impassable).
    terrain: Option<String>,
    /// The ruins' attribute (required when `terrain = "ruins"`), e.g. `armor`.
    ruins_attribute: Option<String>,
    /// Settlements its owner occupies (all-units bonuses).
    #[serde(default)]
    settlements: Vec<String>,
    /// Each leader's special attribute, e.g. `surprise`, `armor`.
    #[serde(default)]
    leaders: Vec<String>,
}

/// One side of a single battle, resolved from the scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct BattleSide {
    /// Label, e.g. "Blue".
    pub label: String,
    /// Its scores with hex and settlement bonuses, before the leader.
    pub values: Profile,
    /// Its leaders' special attributes.
    pub leaders: Vec<u8>,
}

/// `races.battle`: one battle between two warbands, with terrain,
/// settlement and leader bonuses; solved exactly.
pub struct RacesBattle {
    sides: [BattleSide; 2],
    /// The leaders in charge (attacker, defender), chosen before the roll.
    in_charge: [Option<u8>; 2],
    leader_bonus: i8,
    table: Vec<u8>,
    weights: [f64; ATTRIBUTES],
    attribute_names: Vec<String>,
    spec: OutputSpec,
}

impl RacesBattle {
    /// A battle between two resolved sides.
    pub fn new(data: &RacesData, attacker: BattleSide, defender: BattleSide) -> Self {
        let weights = attribute_probabilities(&data.random_attribute);
        let bonus = data.rules.leader_bonus;
        let a = choose_leader(
            &attacker.values,
            &attacker.leaders,
            &defender.values,
            &defender.leaders,
            None,
            true,
            bonus,
            &weights,
        );
        let d = choose_leader(
            &defender.values,
            &defender.leaders,
            &attacker.values,
            &attacker.leaders,
            Some(a),
            false,
            bonus,
            &weights,
        );
        let label = |s: &BattleSide, role: &str| format!("{role} ({})", s.label);
        let spec = OutputSpec {
            outcomes: vec![
                format!("{} wins", label(&attacker, "attacker")),
                format!("{} wins", label(&defender, "defender")),
                "both destroyed".into(),
            ],
            metrics: vec![MetricSpec::new(
                "key",
                "key attribute (1 speed .. 9 morale)",
            )],
            length_metric: None,
            trends: Vec::new(),
        };
        RacesBattle {
            sides: [attacker, defender],
            in_charge: [a, d],
            leader_bonus: bonus,
            table: data.random_attribute.clone(),
            weights,
            attribute_names: data.attribute_names.clone(),
            spec,
        }
    }

    /// The two sides' scores with the leaders in charge.
    pub fn scores(&self) -> [Profile; 2] {
        [0, 1].map(|s| {
            scores(
                &self.sides[s].values,
                &[0; ATTRIBUTES],
                &[0; ATTRIBUTES],
                self.in_charge[s],
                self.leader_bonus,
            )
        })
    }

    /// The leaders in charge (special attributes), attacker then defender.
    pub fn in_charge(&self) -> [Option<u8>; 2] {
        self.in_charge
    }
}

impl ScenarioModel for RacesBattle {
    type File = BattleFile;
    const ID: &'static str = "races.battle";
    const DESCRIPTION: &'static str = "Six races of Mars: one battle between two warbands with terrain, settlement and leader bonuses, solved exactly";

    /// Loads a `races.battle` scenario; returns the model and description.
    fn load_with(path: &Path, loader: &mut Loader) -> Result<(Self, String), ScenarioError> {
        let file: Self::File = loader.read_scenario(path, Self::ID)?;
        let data_dir = file.scenario.data_dir(path)?;
        let data = RacesData::load_with(&data_dir, loader)?;
        let attacker = battle_side(path, "attacker", &file.attacker, &data)?;
        let defender = battle_side(path, "defender", &file.defender, &data)?;
        Ok((
            Self::new(&data, attacker, defender),
            file.scenario.description,
        ))
    }
}

fn battle_side(
    path: &Path,
    role: &str,
    side: &SideFile,
    data: &RacesData,
) -> Result<BattleSide, ScenarioError> {
    let err = |f: &str, message: String| ScenarioError::new(path, format!("{role}.{f}"), message);
    let Some(kind) = data.kind(&side.warband) else {
        return Err(err(
            "warband",
            format!(
                "expected a race or variant ({}), found {:?}",
                data.kind_list(),
                side.warband
            ),
        ));
    };
    let mut in_hex = [0i8; ATTRIBUTES];
    if let Some(t) = &side.terrain {
        let Some(ti) = data.terrain_index(t) else {
            return Err(err(
                "terrain",
                format!(
                    "expected a terrain ({}), found {t:?}",
                    id_list(data.terrain.iter().map(|x| x.id.as_str()))
                ),
            ));
        };
        let terrain = &data.terrain[ti];
        if terrain.impassable {
            return Err(err(
                "terrain",
                format!("expected a terrain a warband can stand in, found {t:?}"),
            ));
        }
        in_hex = terrain.in_hex;
        if terrain.ruins != 0 {
            let Some(a) = side
                .ruins_attribute
                .as_deref()
                .and_then(|a| data.attribute(a))
            else {
                return Err(err(
                    "ruins_attribute",
                    format!(
                        "expected the ruins' attribute, one of {}",
                        id_list(data.attributes.iter().map(String::as_str))
                    ),
                ));
            };
            in_hex[a] += terrain.ruins;
        }
    }
    let mut all_units = [0i8; ATTRIBUTES];
    for (i, s) in side.settlements.iter().enumerate() {
        match data.terrain_index(s).map(|t| &data.terrain[t]) {
            Some(t) if t.settlement => {
                for (b, x) in all_units.iter_mut().zip(t.all_units) {
                    *b += x;
                }
            }
            _ => {
                return Err(err(
                    &format!("settlements[{i}]"),
                    format!(
                        "expected a settlement ({}), found {s:?}",
                        id_list(
                            data.terrain
                                .iter()
                                .filter(|t| t.settlement)
                                .map(|t| t.id.as_str())
                        )
                    ),
                ));
            }
        }
    }
    let mut leaders = Vec::new();
    for (i, l) in side.leaders.iter().enumerate() {
        let Some(a) = data.attribute(l) else {
            return Err(err(
                &format!("leaders[{i}]"),
                format!(
                    "expected a leader's special attribute, one of {}, found {l:?}",
                    id_list(data.attributes.iter().map(String::as_str))
                ),
            ));
        };
        leaders.push(a as u8);
    }
    Ok(BattleSide {
        label: data.kinds[kind].name.clone(),
        values: scores(
            &data.kinds[kind].values,
            &in_hex,
            &all_units,
            None,
            data.rules.leader_bonus,
        ),
        leaders,
    })
}

/// The outcome index of a verdict.
pub(crate) fn outcome_of(verdict: Verdict) -> u16 {
    match verdict {
        Verdict::AttackerWins => OUT_ATTACKER,
        Verdict::DefenderWins => OUT_DEFENDER,
        Verdict::BothDestroyed => OUT_BOTH,
    }
}

impl Model for RacesBattle {
    fn spec(&self) -> &OutputSpec {
        &self.spec
    }

    fn run_trial<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        let [a, d] = self.scores();
        let key = roll_attribute(dice, &self.table);
        let verdict = fight(&a, &d, key);
        trace.event("six races [Battle Phase]", || {
            format!(
                "key attribute {}: attacker {} against defender {}: {verdict:?}",
                self.attribute_names[key], a[key], d[key]
            )
        });
        let mut metrics = [0u32; MAX_METRICS];
        metrics[0] = key as u32 + 1;
        TrialResult {
            outcome: outcome_of(verdict),
            metrics,
        }
    }

    fn exact(&self) -> Result<ExactSolution, String> {
        let [a, d] = self.scores();
        let o = odds(&a, &d, &self.weights);
        let mean_key: f64 = self
            .weights
            .iter()
            .enumerate()
            .map(|(k, w)| w * (k as f64 + 1.0))
            .sum();
        Ok(ExactSolution {
            outcome_probabilities: vec![o.attacker, o.defender, o.both],
            metric_means: vec![(0, mean_key)],
        })
    }
}
