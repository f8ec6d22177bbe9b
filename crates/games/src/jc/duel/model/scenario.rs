//! The `jc.duel` scenario format and its loading, the [`JcDuel`] model, its
//! output spec and the `Model` impl.

use crate::ScenarioModel;
use barsoom_engine::scenario::Load;

use barsoom_engine::scenario::{Loader, Scenario};
use std::path::Path;

use serde::Deserialize;

use crate::jc::duel::geometry::Display;
use crate::jc::duel::melee::MeleeRules;
use crate::jc::duel::policy::Policy;
use crate::jc::duel::roster::Roster;
use crate::jc::duel::sequence::{Duel, DuelResult};
use crate::jc::duel::special::SpecialRules;
use crate::jc::swordsman::SwordsmanTables;
use barsoom_engine::accumulate::MAX_METRICS;
use barsoom_engine::scenario::ScenarioError;
use barsoom_engine::{Dice, MetricSpec, Model, OutputSpec, Trace, TrialResult};

/// Most characters a `jc.duel` scenario may field (each has a kills
/// metric).
pub const MAX_SCENARIO_FIGHTERS: usize = 16;

/// Default turn limit; a duel still going is undecided.
pub const DEFAULT_MAX_TURNS: u32 = 200;

/// Outcome: the first side wins.
pub const OUT_FIRST_WINS: u16 = 0;

/// Outcome: the second side wins.
pub const OUT_SECOND_WINS: u16 = 1;

/// Outcome: still fighting at the turn limit.
pub const OUT_UNDECIDED: u16 = 2;

/// Outcome (when a side may leave): the first side's last fighters on
/// their feet left the display [5.18]; the next outcome is the second
/// side's.
pub const OUT_FIRST_LEFT: u16 = 3;

/// Metric: tactical turns.
pub const METRIC_TURNS: usize = 0;

/// Metric: survivors of the first side (index + side).
pub const METRIC_SURVIVORS: usize = 1;

/// Metric: levels lost by the first side (index + side).
pub const METRIC_LEVELS_LOST: usize = 3;

/// Metric: heroes of the first side unconscious (index + side).
pub const METRIC_HEROES_UNCONSCIOUS: usize = 5;

/// Metric: the fighter (1-based, scenario order) who struck the deciding
/// blow, 0 if undecided.
pub const METRIC_DECIDING_BLOW: usize = 7;

/// Metric: kills of fighter 1 (index + fighter).
pub const METRIC_KILLS: usize = 8;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DuelFile {
    #[serde(flatten)]
    scenario: Scenario,
    /// A display of the data folder's `displays/`: `arena`, `street`, `flier`,
    /// `house` or `palace`.
    display: String,
    /// Turns before a duel still going is undecided, 1 to 100,000.
    pub(super) max_turns: Option<i64>,
    /// States that no conditions of surprise exist [6.0 general rule], so a
    /// house or palace duel starts discovered.
    pub(super) discovered: Option<bool>,
    /// A duel for a grounded flier: the first side sets up in the staging
    /// area [5.51, 7.23].
    #[serde(default)]
    pub(super) acquisition: bool,
    /// How a hero meets a master swordsman: `"maneuvers"` (the default, the
    /// maneuver cards of [7.81]) or `"counters"` (the arena alternative of
    /// [7.87]: an ordinary melee against the GM or MA counter).
    pub(super) master_swordsmen: Option<String>,
    /// The fliers are on the ground: no falls [14.25] (a flier display).
    #[serde(default)]
    pub(super) grounded: bool,
    /// Exactly two sides; the first is the attacker (and owns the prisoners).
    pub(super) sides: Vec<SideFile>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct SideFile {
    /// Default: the characters' names.
    pub(super) label: Option<String>,
    /// `aggressive` (default), `patient` or `random`.
    pub(super) policy: Option<String>,
    /// The entrance (an exit area's name) the side sets up at [7.22-7.25].
    pub(super) entrance: Option<String>,
    /// What the side is after: "fight" (default), "escape", "rescue".
    pub(super) goal: Option<String>,
    /// The side's player holds a card that opens the secret passageways
    /// [5.54, 18.2 cards 40-42].
    #[serde(default)]
    pub(super) secret_passage: bool,
    /// The attacking side is disguised [6.25, 18.2 cards 53-54].
    #[serde(default)]
    pub(super) disguise: bool,
    /// Roster ids, or tables with an `id` and options.
    pub(super) characters: Vec<EntryFile>,
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub(super) enum EntryFile {
    Id(String),
    Full(FullEntry),
}

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct FullEntry {
    /// A character id from the data folder's roster.
    pub(super) id: String,
    /// That many copies, 1 to 16.
    pub(super) count: Option<i64>,
    /// The counter's top-left box, `[column, row]`.
    pub(super) at: Option<[i64; 2]>,
    /// `N`, `E`, `S` or `W` (default: towards the enemy).
    pub(super) facing: Option<String>,
    /// Fights unarmed [7.36].
    #[serde(default)]
    pub(super) unarmed: bool,
    /// Held prisoner by the other side [7.7].
    #[serde(default)]
    pub(super) prisoner: bool,
    /// The area a prisoner is held in (by name); default the first that
    /// holds prisoners.
    pub(super) held: Option<String>,
    /// A prisoner brought in unconscious (a hero).
    #[serde(default)]
    pub(super) unconscious: bool,
    /// For Tavia or Llana of Gathol: the hero she loves [19.23].
    pub(super) loves: Option<String>,
    /// For Kar Komak: materialisations of phantom warriors this duel
    /// grants [19.41].
    pub(super) phantoms: Option<i64>,
    /// The level he starts at, his top level or lower [7.6] (a hero
    /// fighting on without healing [17.34, 17.43]).
    pub(super) level: Option<i64>,
    /// Added to his strength at every level: an arena beast's size
    /// [17.44].
    pub(super) strength_bonus: Option<i64>,
    /// A hero gone berserk: only every second hit costs him a level
    /// [13.43].
    #[serde(default)]
    pub(super) berserk: bool,
    /// Has taken the invisibility pills [18.2 card 27].
    #[serde(default)]
    pub(super) invisible: bool,
    /// Holds card 24: may break off the melee with his side [18.2 card
    /// 24].
    #[serde(default)]
    pub(super) break_off: bool,
    /// A hero who must reach a villain of the other side in time [13.43].
    #[serde(default)]
    pub(super) deadline: bool,
}

/// The data a duel reads from its data folder.
#[derive(Debug, Clone)]
pub struct DuelData {
    /// The roster.
    pub roster: Roster,
    /// Melee numbers.
    pub rules: MeleeRules,
    /// Escape, dungeon, carrying and special-character numbers.
    pub specials: SpecialRules,
    /// The maneuver cards of master swordsmen [7.8] (`swordsman.toml`,
    /// needed only where a hero meets one [7.81]).
    pub swordsman: Option<SwordsmanTables>,
}

impl Load for DuelData {
    /// Loads `characters.toml`, `duel-rules.toml` and `duel-specials.toml`
    /// from `dir`.
    fn load_with(dir: &Path, loader: &mut Loader) -> Result<Self, ScenarioError> {
        let roster = Roster::load_with(&dir.join("characters.toml"), loader)?;
        let specials_file = dir.join("duel-specials.toml");
        let specials = SpecialRules::load_with(&specials_file, loader)?;
        specials.check_roster(&specials_file, &roster)?;
        Ok(DuelData {
            roster,
            rules: MeleeRules::load_with(&dir.join("duel-rules.toml"), loader)?,
            specials,
            swordsman: {
                let file = dir.join("swordsman.toml");
                if file.is_file() {
                    Some(SwordsmanTables::load_with(&file, loader)?)
                } else {
                    None
                }
            },
        })
    }
}

/// The `jc.duel` model.
#[derive(Debug, Clone)]
pub struct JcDuel {
    pub(super) duel: Duel,
    pub(super) policies: [Policy; 2],
    pub(super) spec: OutputSpec,
    pub(super) layout: Layout,
}

/// Where the optional metrics sit in a trial row, after the kills.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Layout {
    /// `discovered_in`, when the duel needs discovery.
    pub discovered_in: Option<usize>,
    /// `escaped_a` and `escaped_b`, when a side may leave the display.
    pub escaped: Option<usize>,
    /// `prisoners_freed` and `rescued`, when there are prisoners.
    pub prisoners: Option<usize>,
}

impl JcDuel {
    /// The compiled duel.
    pub fn duel(&self) -> &Duel {
        &self.duel
    }

    /// The sides' policies.
    pub fn policies(&self) -> [Policy; 2] {
        self.policies
    }
}

impl ScenarioModel for JcDuel {
    type File = DuelFile;
    const ID: &'static str = "jc.duel";
    const DESCRIPTION: &'static str = "John Carter, Warlord of Mars duels: counters with facing on the open/arena display, initiative by alertness, melee with modifiers, natural 10s and levels, under aggressive, patient or random policies";

    /// Loads a `jc.duel` scenario and the data it names (default folder:
    /// `../data` beside the scenario's folder).
    fn load_with(path: &Path, loader: &mut Loader) -> Result<(Self, String), ScenarioError> {
        let file: Self::File = loader.read_scenario(path, Self::ID)?;
        let dir = file.scenario.data_dir(path)?;
        let data = DuelData::load_with(&dir, loader)?;
        let display_dir = dir.join("displays");
        let display_file = display_dir.join(format!("{}.toml", file.display));
        if file.display.contains(['/', '\\']) || !display_file.is_file() {
            let mut known: Vec<String> = std::fs::read_dir(&display_dir)
                .map(|entries| {
                    entries
                        .filter_map(|e| e.ok())
                        .filter_map(|e| {
                            e.file_name()
                                .to_str()
                                .and_then(|n| n.strip_suffix(".toml"))
                                .map(str::to_string)
                        })
                        .collect()
                })
                .unwrap_or_default();
            known.sort();
            return Err(ScenarioError::new(
                path,
                "display",
                format!(
                    "expected one of the displays {} (files in {}), found {:?}",
                    known.join(", "),
                    display_dir.display(),
                    file.display
                ),
            ));
        }
        let display = Display::load_with(&display_file, loader)?;
        let model = Self::build(path, &file, &data, display)?;
        Ok((model, file.scenario.description))
    }
}

pub(super) fn output_spec(duel: &Duel, labels: &[String; 2]) -> (OutputSpec, Layout) {
    let mut outcomes = vec![
        format!("won by {}", labels[0]),
        format!("won by {}", labels[1]),
        format!("undecided after {} turns", duel.max_turns),
    ];
    if duel.special.may_leave {
        for label in labels {
            outcomes.push(format!("{label} left the display"));
        }
    }
    let mut metrics = vec![MetricSpec::new("turns", "tactical turns fought")];
    let keys = ["a", "b"];
    for (label, key) in labels.iter().zip(keys) {
        metrics.push(MetricSpec::new(
            format!("survivors_{key}"),
            format!("{label}: characters still on their feet"),
        ));
    }
    for (label, key) in labels.iter().zip(keys) {
        metrics.push(MetricSpec::new(
            format!("levels_lost_{key}"),
            format!("{label}: levels lost"),
        ));
    }
    for (label, key) in labels.iter().zip(keys) {
        metrics.push(MetricSpec::new(
            format!("heroes_unconscious_{key}"),
            format!("{label}: heroes unconscious at the end"),
        ));
    }
    metrics.push(MetricSpec::new(
        "deciding_blow",
        "the character (1-based, scenario order) whose blow ended the duel; 0 undecided",
    ));
    for (i, f) in duel.fighters.iter().enumerate() {
        metrics.push(MetricSpec::new(
            format!("kills_{}", i + 1),
            format!("{} (character {}): kills and knock-outs", f.name, i + 1),
        ));
    }
    let mut layout = Layout::default();
    if duel.surprise {
        layout.discovered_in = Some(metrics.len());
        metrics.push(MetricSpec::new(
            "discovered_in",
            "the turn the attackers were discovered for good [6.3]; 0 never",
        ));
    }
    if duel.special.may_leave {
        layout.escaped = Some(metrics.len());
        for (label, key) in labels.iter().zip(keys) {
            metrics.push(MetricSpec::new(
                format!("escaped_{key}"),
                format!("{label}: characters who left the display [5.18]"),
            ));
        }
    }
    if duel.special.prisoners {
        layout.prisoners = Some(metrics.len());
        metrics.push(MetricSpec::new(
            "prisoners_freed",
            "prisoners freed by escape [7.7] or from the dungeon [5.55]",
        ));
        metrics.push(MetricSpec::new(
            "rescued",
            "prisoners free at the end and off the display, or on it with their side holding the field",
        ));
    }
    debug_assert!(metrics.len() <= MAX_METRICS);
    (
        OutputSpec {
            outcomes,
            metrics,
            length_metric: Some(METRIC_TURNS),
            trends: Vec::new(),
        },
        layout,
    )
}

/// The trial row of a fought duel.
pub fn trial_result(r: &DuelResult, fighters: usize, layout: Layout) -> TrialResult {
    let mut metrics = [0u32; MAX_METRICS];
    metrics[METRIC_TURNS] = r.turns;
    for side in 0..2 {
        metrics[METRIC_SURVIVORS + side] = u32::from(r.survivors[side]);
        metrics[METRIC_LEVELS_LOST + side] = u32::from(r.levels_lost[side]);
        metrics[METRIC_HEROES_UNCONSCIOUS + side] = u32::from(r.heroes_unconscious[side]);
    }
    metrics[METRIC_DECIDING_BLOW] = r.deciding_blow.map_or(0, |i| u32::from(i) + 1);
    for i in 0..fighters {
        metrics[METRIC_KILLS + i] = u32::from(r.kills[i]);
    }
    if let Some(k) = layout.discovered_in {
        metrics[k] = r.discovered_in;
    }
    if let Some(k) = layout.escaped {
        metrics[k] = u32::from(r.escaped[0]);
        metrics[k + 1] = u32::from(r.escaped[1]);
    }
    if let Some(k) = layout.prisoners {
        metrics[k] = u32::from(r.prisoners_freed);
        metrics[k + 1] = u32::from(r.rescued);
    }
    TrialResult {
        outcome: match (r.winner, r.left) {
            (Some(_), Some(side)) if layout.escaped.is_some() => OUT_FIRST_LEFT + u16::from(side),
            (Some(0), _) => OUT_FIRST_WINS,
            (Some(_), _) => OUT_SECOND_WINS,
            (None, _) => OUT_UNDECIDED,
        },
        metrics,
    }
}

impl Model for JcDuel {
    fn spec(&self) -> &OutputSpec {
        &self.spec
    }

    #[inline]
    fn run_trial<T: Trace>(&self, dice: &mut Dice, trace: &mut T) -> TrialResult {
        let r = self.duel.resolve(&self.policies, dice, trace);
        trial_result(&r, self.duel.fighters.len(), self.layout)
    }
}
