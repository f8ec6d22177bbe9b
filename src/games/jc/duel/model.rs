//! The `jc.duel` model: a scenario names a display, two sides of roster
//! characters and a policy per side; each trial fights the duel once.

use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;

use super::escape::{Extras, Fields, Goal};
use super::geometry::{
    Area, Display, DisplayKind, EAST, NORTH, Openings, SOUTH, WEST, parse_facing,
};
use super::melee::MeleeRules;
use super::policy::Policy;
use super::roster::{Character, Class, Roster, Special};
use super::sequence::{Duel, DuelResult, Fighter, MAX_FIGHTERS};
use super::special::SpecialRules;
use super::swordplay::SwordPlay;
use crate::engine::accumulate::MAX_METRICS;
use crate::engine::{Dice, MetricSpec, Model, OutputSpec, Trace, TrialResult};
use crate::games::jc::swordsman::SwordsmanTables;
use crate::scenario::{ScenarioError, parse_toml, read_text};

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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DuelFile {
    model: String,
    description: String,
    data: Option<String>,
    display: String,
    max_turns: Option<i64>,
    /// States that no conditions of surprise exist [6.0 general rule], so a
    /// house or palace duel starts discovered.
    discovered: Option<bool>,
    /// A duel for a grounded flier: the first side sets up in the staging
    /// area [5.51, 7.23].
    #[serde(default)]
    acquisition: bool,
    /// How a hero meets a master swordsman: `"maneuvers"` (the default, the
    /// maneuver cards of [7.81]) or `"counters"` (the arena alternative of
    /// [7.87]: an ordinary melee against the GM or MA counter).
    master_swordsmen: Option<String>,
    sides: Vec<SideFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideFile {
    label: Option<String>,
    policy: Option<String>,
    /// The entrance (an exit area's name) the side sets up at [7.22-7.25].
    entrance: Option<String>,
    /// What the side is after: "fight" (default), "escape", "rescue".
    goal: Option<String>,
    /// The side's player holds a card that opens the secret passageways
    /// [5.54, 18.2 cards 40-42].
    #[serde(default)]
    secret_passage: bool,
    /// The attacking side is disguised [6.25, 18.2 cards 53-54].
    #[serde(default)]
    disguise: bool,
    characters: Vec<EntryFile>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum EntryFile {
    Id(String),
    Full(FullEntry),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FullEntry {
    id: String,
    count: Option<i64>,
    at: Option<[i64; 2]>,
    facing: Option<String>,
    #[serde(default)]
    unarmed: bool,
    /// Held prisoner by the other side [7.7].
    #[serde(default)]
    prisoner: bool,
    /// The area a prisoner is held in (by name); default the first that
    /// holds prisoners.
    held: Option<String>,
    /// A prisoner brought in unconscious (a hero).
    #[serde(default)]
    unconscious: bool,
    /// For Tavia or Llana of Gathol: the hero she loves [19.23].
    loves: Option<String>,
    /// For Kar Komak: materialisations of phantom warriors this duel
    /// grants [19.41].
    phantoms: Option<i64>,
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

impl DuelData {
    /// Loads `characters.toml`, `duel-rules.toml` and `duel-specials.toml`
    /// from `dir`.
    pub fn load(dir: &Path) -> Result<Self, ScenarioError> {
        let roster = Roster::load(&dir.join("characters.toml"))?;
        let specials_file = dir.join("duel-specials.toml");
        let specials = SpecialRules::load(&specials_file)?;
        specials.check_roster(&specials_file, &roster)?;
        Ok(DuelData {
            roster,
            rules: MeleeRules::load(&dir.join("duel-rules.toml"))?,
            specials,
            swordsman: {
                let file = dir.join("swordsman.toml");
                if file.is_file() {
                    Some(SwordsmanTables::load(&file)?)
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
    duel: Duel,
    policies: [Policy; 2],
    spec: OutputSpec,
    layout: Layout,
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
    /// Loads a `jc.duel` scenario and the data it names (default folder:
    /// `../data` beside the scenario's folder).
    pub fn load(path: &Path) -> Result<(Self, String), ScenarioError> {
        let text = read_text(path)?;
        let file: DuelFile = parse_toml(path, &text)?;
        crate::scenario::expect_model(path, &file.model, "jc.duel")?;
        let dir = crate::scenario::data_dir(path, file.data.as_deref());
        let data = DuelData::load(&dir)?;
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
        let display = Display::load(&display_file)?;
        let model = Self::build(path, &file, &data, display)?;
        Ok((model, file.description))
    }

    /// The compiled duel.
    pub fn duel(&self) -> &Duel {
        &self.duel
    }

    /// The sides' policies.
    pub fn policies(&self) -> [Policy; 2] {
        self.policies
    }

    fn build(
        path: &Path,
        file: &DuelFile,
        data: &DuelData,
        display: Display,
    ) -> Result<Self, ScenarioError> {
        let err = |field: String, message: String| ScenarioError::new(path, field, message);
        crate::scenario::expect_two_sides(path, file.sides.len())?;
        let max_turns = crate::scenario::limit(
            path,
            "max_turns",
            file.max_turns,
            DEFAULT_MAX_TURNS,
            100_000,
        )?;
        for (i, area) in display.areas.iter().enumerate() {
            if let Some(h) = area.holds.iter().find(|h| {
                h.as_str() != PRISONER
                    && super::roster::Class::parse(h).is_none()
                    && data.roster.get(h).is_none()
            }) {
                return Err(err(
                    format!("display {}: areas[{i}].holds", display.name),
                    format!(
                        "expected a class (hero, villain, minor, personage, warrior, beast), \"prisoner\" or a roster id, found {h:?}"
                    ),
                ));
            }
        }
        let acquisition = file.acquisition;
        if acquisition && !display.areas.iter().any(|a| a.staging) {
            return Err(err(
                "acquisition".into(),
                format!(
                    "expected a flier display with a staging area for an acquisition [5.51], found {} without one",
                    display.name
                ),
            ));
        }
        let display = if acquisition {
            display.with_openings(Openings {
                staging_area: true,
                ..Openings::default()
            })
        } else {
            display
        };
        let mut used = vec![0usize; display.areas.len()];
        let mut facing_given: Vec<bool> = Vec::new();
        let mut fighters: Vec<Fighter> = Vec::new();
        let mut policies = [Policy::Aggressive; 2];
        let mut labels: [String; 2] = Default::default();
        let mut goals = [Goal::Fight; 2];
        let mut entered = None;
        let mut entries: Vec<(usize, usize, Option<String>, Option<i64>)> = Vec::new();
        let mut dungeon_sex: Option<bool> = None;
        for (s, side) in file.sides.iter().enumerate() {
            let field = |f: &str| format!("sides[{s}].{f}");
            policies[s] = match side.policy.as_deref() {
                None => Policy::Aggressive,
                Some(p) => Policy::parse(p).ok_or_else(|| {
                    err(
                        field("policy"),
                        format!("expected \"aggressive\", \"patient\" or \"random\", found {p:?}"),
                    )
                })?,
            };
            goals[s] = match side.goal.as_deref() {
                None => Goal::Fight,
                Some(g) => Goal::parse(g).ok_or_else(|| {
                    err(
                        field("goal"),
                        format!(
                            "expected \"fight\", \"escape\", \"rescue\" or \"withdraw\", found {g:?}"
                        ),
                    )
                })?,
            };
            if side.characters.is_empty() {
                return Err(err(
                    field("characters"),
                    "expected at least one character".into(),
                ));
            }
            let mut names: Vec<String> = Vec::new();
            let (chosen, candidates) =
                set_up_areas(&display, s, side.entrance.as_deref(), acquisition)
                    .map_err(|m| err(field("entrance"), m))?;
            if s == 0 {
                entered = chosen;
            }
            // Prisoners are set up by the other side [7.25 (2)].
            // The dungeon first [7.25 (2), 7.94].
            let mut holds_prisoners: Vec<usize> = (0..display.areas.len())
                .filter(|&k| {
                    display.areas[k].side == Some(1 - s as u8)
                        && display.areas[k].holds.iter().any(|h| h == PRISONER)
                })
                .collect();
            holds_prisoners.sort_by_key(|&k| !display.areas[k].dungeon);
            for (e, entry) in side.characters.iter().enumerate() {
                let efield = |f: &str| format!("sides[{s}].characters[{e}]{f}");
                let blank = FullEntry {
                    id: String::new(),
                    count: None,
                    at: None,
                    facing: None,
                    unarmed: false,
                    prisoner: false,
                    held: None,
                    unconscious: false,
                    loves: None,
                    phantoms: None,
                };
                let (id, f) = match entry {
                    EntryFile::Id(id) => (id.as_str(), &blank),
                    EntryFile::Full(f) => (f.id.as_str(), f),
                };
                let (count, at) = (f.count.unwrap_or(1), f.at);
                let Some(character) = data.roster.get(id) else {
                    return Err(err(
                        efield(if matches!(entry, EntryFile::Id(_)) {
                            ""
                        } else {
                            ".id"
                        }),
                        format!(
                            "expected a character of the roster (characters.toml), found {id:?}; nearest: {}",
                            data.roster.suggest(id)
                        ),
                    ));
                };
                if !(1..=MAX_SCENARIO_FIGHTERS as i64).contains(&count) {
                    return Err(err(
                        efield(".count"),
                        format!("expected 1 to {MAX_SCENARIO_FIGHTERS}, found {count}"),
                    ));
                }
                if count > 1 && at.is_some() {
                    return Err(err(
                        efield(".at"),
                        "expected no `at` with a count above 1 (place them one by one)".into(),
                    ));
                }
                let facing = match f.facing.as_deref() {
                    None => None,
                    Some(text) => Some(parse_facing(text).ok_or_else(|| {
                        err(
                            efield(".facing"),
                            format!("expected N, E, S or W, found {text:?}"),
                        )
                    })?),
                };
                if f.prisoner && s != 0 {
                    return Err(err(
                        efield(".prisoner"),
                        "expected prisoners on the first side: they are friendly to the attacker [7.7]"
                            .into(),
                    ));
                }
                if !f.prisoner && (f.held.is_some() || f.unconscious) {
                    return Err(err(
                        efield(if f.held.is_some() {
                            ".held"
                        } else {
                            ".unconscious"
                        }),
                        "expected `held` and `unconscious` only on a prisoner (prisoner = true)"
                            .into(),
                    ));
                }
                if f.unconscious && !character.unconscious_at_level_1 {
                    return Err(err(
                        efield(".unconscious"),
                        format!(
                            "expected an unconscious prisoner to be one who falls unconscious rather than die (a hero), found {}",
                            character.name
                        ),
                    ));
                }
                if f.phantoms.is_some() && character.special != Some(Special::PhantomWarriors) {
                    return Err(err(
                        efield(".phantoms"),
                        format!(
                            "expected `phantoms` only on Kar Komak [19.41], found it on {}",
                            character.name
                        ),
                    ));
                }
                if f.loves.is_some() && character.reserve.is_none() {
                    return Err(err(
                        efield(".loves"),
                        format!(
                            "expected `loves` only on Tavia or Llana of Gathol (personages with parenthesised values [19.23]), found it on {}",
                            character.name
                        ),
                    ));
                }
                // Woola waits off the display beside John Carter [19.11].
                let absent =
                    character.special == Some(Special::Woola) && side_has_john_carter(side, data);
                if absent && at.is_some() {
                    return Err(err(
                        efield(".at"),
                        "expected no `at` for Woola with John Carter: he is placed when he appears [19.11]"
                            .into(),
                    ));
                }
                let prison: Vec<usize> = match &f.held {
                    None => holds_prisoners.clone(),
                    Some(name) => {
                        let k = display.areas.iter().position(|a| &a.name == name);
                        match k {
                            Some(k) if holds_prisoners.contains(&k) => vec![k],
                            _ => {
                                return Err(err(
                                    efield(".held"),
                                    format!(
                                        "expected an area of {} that holds prisoners: {}, found {name:?}",
                                        display.name,
                                        if holds_prisoners.is_empty() {
                                            "none (it has no dungeon or prison) [5.55, 7.25]"
                                                .to_string()
                                        } else {
                                            holds_prisoners
                                                .iter()
                                                .map(|&k| format!("{:?}", display.areas[k].name))
                                                .collect::<Vec<_>>()
                                                .join(", ")
                                        }
                                    ),
                                ));
                            }
                        }
                    }
                };
                if f.prisoner && prison.is_empty() {
                    return Err(err(
                        efield(".prisoner"),
                        format!(
                            "expected a display with somewhere to hold prisoners (a dungeon or an area holding \"prisoner\") [5.55, 7.25], found none on {}",
                            display.name
                        ),
                    ));
                }
                for _ in 0..count {
                    if fighters.len() == MAX_SCENARIO_FIGHTERS {
                        return Err(err(
                            field("characters"),
                            format!(
                                "expected at most {MAX_SCENARIO_FIGHTERS} characters in a duel, found more"
                            ),
                        ));
                    }
                    let mut in_dungeon = false;
                    let start = match at {
                        _ if absent => (0, 0),
                        Some([x, y]) => {
                            let (x, y) = (x.clamp(-1, 10_000) as i16, y.clamp(-1, 10_000) as i16);
                            if !display.open(x, y) {
                                return Err(err(
                                    efield(".at"),
                                    format!(
                                        "expected the top-left box of a 4x4 counter inside {} and off its walls, found [{x}, {y}]",
                                        display.name
                                    ),
                                ));
                            }
                            in_dungeon = f.prisoner
                                && prison.iter().any(|&k| {
                                    display.areas[k].dungeon
                                        && display.areas[k].squares.contains(&(x, y))
                                });
                            (x, y)
                        }
                        None if f.prisoner => {
                            let found = prison.iter().find_map(|&k| {
                                let area = &display.areas[k];
                                if area.dungeon
                                    && dungeon_sex.is_some_and(|w| w != character.female)
                                {
                                    // A woman is not chained beside a man [7.25].
                                    return None;
                                }
                                area.squares
                                    .iter()
                                    .copied()
                                    .find(|&q| {
                                        !fighters.iter().any(|o| overlaps(o.start, q))
                                            && (!area.dungeon
                                                || display.touches(q.0, q.1, |c| {
                                                    c == super::geometry::Cell::Manacles
                                                }))
                                    })
                                    .map(|q| (k, q))
                            });
                            let Some((k, square)) = found else {
                                return Err(err(
                                    efield(".prisoner"),
                                    format!(
                                        "expected room to hold {} in {} of {} [5.55, 7.25], found none free{}",
                                        character.name,
                                        prison
                                            .iter()
                                            .map(|&k| display.areas[k].name.as_str())
                                            .collect::<Vec<_>>()
                                            .join(", "),
                                        display.name,
                                        if dungeon_sex.is_some() {
                                            " (a woman and a man are not chained together)"
                                        } else {
                                            ""
                                        }
                                    ),
                                ));
                            };
                            in_dungeon = display.areas[k].dungeon;
                            square
                        }
                        None => place(&display, &candidates, &mut used, &fighters, character)
                            .map_err(|m| err(field("characters"), m(s)))?,
                    };
                    if in_dungeon {
                        if dungeon_sex.is_some_and(|w| w != character.female) {
                            return Err(err(
                                efield(".at"),
                                "expected a woman and a man not to be chained in the dungeon together [7.25]"
                                    .into(),
                            ));
                        }
                        dungeon_sex = Some(character.female);
                    }
                    if !absent
                        && let Some(other) = fighters
                            .iter()
                            .find(|o| !o.starts_absent && overlaps(o.start, start))
                    {
                        return Err(err(
                            efield(".at"),
                            format!(
                                "expected a place no other counter covers, found one overlapping {}",
                                other.name
                            ),
                        ));
                    }
                    let mut fighter =
                        Fighter::new(character, s as u8, start, facing.unwrap_or(NORTH));
                    facing_given.push(facing.is_some());
                    fighter.unarmed = f.unarmed;
                    fighter.prisoner = f.prisoner;
                    fighter.in_dungeon = in_dungeon;
                    fighter.starts_unconscious = f.unconscious;
                    fighter.starts_absent = absent;
                    entries.push((fighters.len(), e, f.loves.clone(), f.phantoms));
                    fighters.push(fighter);
                }
                names.push(if count > 1 {
                    format!("{count} x {}", character.name)
                } else {
                    character.name.clone()
                });
            }
            labels[s] = side.label.clone().unwrap_or_else(|| names.join(" + "));
        }
        for side in 0..2u8 {
            if !fighters
                .iter()
                .any(|f| f.side == side && f.class != Class::Personage && !f.prisoner)
            {
                return Err(err(
                    "sides".into(),
                    "expected each side to have at least one character with combat values who is not a prisoner".into(),
                ));
            }
        }
        face_each_other(&mut fighters, &facing_given);
        if display.kind == DisplayKind::House {
            check_house_set_up(path, &display, &fighters)?;
        }
        // House and palace duels start undiscovered unless the scenario
        // states that no conditions of surprise exist [6.0].
        let surprise = !display.kind.starts_discovered() && file.discovered != Some(true);
        let cards = [&file.sides[0], &file.sides[1]];
        let mut special = Extras::none(data.specials.clone());
        special.goals = goals;
        special.entered = entered;
        special.acquisition = acquisition;
        special.passage_card = [cards[0].secret_passage, cards[1].secret_passage];
        special.disguise = cards[0].disguise;
        special.prisoners = fighters.iter().any(|f| f.prisoner);
        for (i, f) in fighters.iter().enumerate() {
            if f.class == Class::Personage && !f.in_dungeon && !f.starts_absent {
                special.personages |= 1 << i;
            }
        }
        if cards[1].disguise {
            return Err(err(
                "sides[1].disguise".into(),
                "expected a disguise only on the first side: it hides attackers from discovery [6.25]".into(),
            ));
        }
        if cards[0].disguise && !surprise {
            return Err(err(
                "sides[0].disguise".into(),
                format!(
                    "expected a disguise only where the attackers must be discovered (house or palace, not discovered = true) [6.25], found {}",
                    display.name
                ),
            ));
        }
        for (s, card) in cards.iter().enumerate() {
            if card.secret_passage && !display.has_openings() {
                return Err(err(
                    format!("sides[{s}].secret_passage"),
                    format!(
                        "expected a display with secret passageways [5.54], found {} without",
                        display.name
                    ),
                ));
            }
        }
        compile_specials(&err, data, &mut fighters, &entries, &mut special)?;
        match file.master_swordsmen.as_deref() {
            None | Some("maneuvers") if SwordPlay::any_meet(&fighters) => {
                let Some(tables) = &data.swordsman else {
                    return Err(err(
                        "master_swordsmen".into(),
                        "expected swordsman.toml in the data folder for a hero meeting a master swordsman (7.81), or master_swordsmen = \"counters\"".into(),
                    ));
                };
                special.swordplay = SwordPlay::compile(&fighters, tables)
                    .map_err(|m| err("master_swordsmen".into(), m))?;
            }
            None | Some("maneuvers") => {}
            Some("counters") => {}
            Some(other) => {
                return Err(err(
                    "master_swordsmen".into(),
                    format!(
                        "expected \"maneuvers\" (7.81) or \"counters\" (the arena alternative, 7.87), found {other:?}"
                    ),
                ));
            }
        }
        if acquisition {
            let crew = fighters
                .iter()
                .filter(|f| f.side == 0 && !f.prisoner && !f.starts_absent)
                .count();
            if crew > 2 {
                return Err(err(
                    "sides[0].characters".into(),
                    format!(
                        "expected at most 2 characters taking the flier (the one acquiring it and one aide) [5.51], found {crew}"
                    ),
                ));
            }
        }
        check_goals(&err, &display, &fighters, &special)?;
        let lines = discovery_lines(&display, &fighters, surprise);
        let random = policies.map(|p| p == Policy::Random);
        let usable_exit = |side: u8| {
            (0..display.areas.len()).any(|k| {
                let a = &display.areas[k];
                a.exit
                    && a.exit_sides & (1 << side) != 0
                    && !(a.entrants_leave_elsewhere && side == 0 && entered == Some(k))
            })
        };
        special.may_leave = (0..2u8).any(|side| {
            usable_exit(side)
                && (goals[usize::from(side)] != Goal::Fight || random[usize::from(side)])
        });
        let faints = fighters.iter().any(|f| f.unconscious_at_level_1);
        let extras = special.may_leave
            || special.prisoners
            || acquisition
            || special.disguise
            || special.passage_card.contains(&true)
            || special.personages != 0
            || goals.iter().any(|&g| g != Goal::Fight)
            || (faints && random.contains(&true))
            || fallen_may_shut_the_way(&display, &fighters)
            || fighters
                .iter()
                .any(|f| f.special.is_some() || f.loves.is_some() || f.starts_absent);
        let mut duel = Duel {
            display: Arc::new(display),
            fighters,
            rules: data.rules,
            max_turns,
            surprise,
            lines,
            extras,
            special,
            grounded: false,
        };
        if extras {
            compile_displays(&mut duel);
        }
        let (spec, layout) = output_spec(&duel, &labels);
        Ok(JcDuel {
            duel,
            policies,
            spec,
            layout,
        })
    }
}

/// What prisoners are held as in `holds` [7.25 (2)].
const PRISONER: &str = "prisoner";

/// Whether a side lists John Carter (Woola is with him [19.11]).
fn side_has_john_carter(side: &SideFile, data: &DuelData) -> bool {
    side.characters.iter().any(|e| {
        let id = match e {
            EntryFile::Id(id) => id,
            EntryFile::Full(f) => &f.id,
        };
        data.roster
            .get(id)
            .is_some_and(|c| c.movement == super::roster::MovementKind::JohnCarter)
    })
}

/// The free set-up square for `character` in the first of `candidates`
/// that holds him [7.2]; the error (given the side) when none is left.
fn place(
    display: &Display,
    candidates: &[usize],
    used: &mut [usize],
    fighters: &[Fighter],
    character: &Character,
) -> Result<(i16, i16), impl Fn(usize) -> String> {
    if let Some((k, square)) = find_square(display, candidates, used, fighters, character) {
        used[k] += 1;
        return Ok(square);
    }
    let class = character.class.name();
    let takes: Vec<&Area> = candidates
        .iter()
        .map(|&k| &display.areas[k])
        .filter(|a| a.holds(class, &character.id))
        .collect();
    let room: usize = takes
        .iter()
        .map(|a| a.capacity.unwrap_or(usize::MAX).min(a.squares.len()))
        .sum();
    let names = takes
        .iter()
        .map(|a| a.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let (name, display_name) = (character.name.clone(), display.name.clone());
    Err(move |s: usize| {
        format!(
            "expected at most {room} characters like {name} ({class}) for the set-up areas of side {} of {display_name} that take them ({names}) [7.2], found more",
            s + 1,
        )
    })
}

/// Woola beside John Carter [19.1], Kar Komak's phantoms [19.41], Ghek's
/// power [19.42], Tavia's and Llana's loves [19.23].
fn compile_specials(
    err: &impl Fn(String, String) -> ScenarioError,
    data: &DuelData,
    fighters: &mut Vec<Fighter>,
    entries: &[(usize, usize, Option<String>, Option<i64>)],
    special: &mut Extras,
) -> Result<(), ScenarioError> {
    let rules = &data.specials;
    for &(i, e, ref loves, phantoms) in entries {
        let side = fighters[i].side;
        let efield = |f: &str| format!("sides[{side}].characters[{e}].{f}");
        match fighters[i].special {
            Some(Special::Woola) if fighters[i].starts_absent => {
                let jc = fighters.iter().position(|f| {
                    f.side == side && f.movement == super::roster::MovementKind::JohnCarter
                });
                special.woola = jc.map(|jc| (i, jc));
            }
            Some(Special::Immobilise) => special.powers[i] = rules.immobilise_uses,
            Some(Special::PhantomWarriors) => {
                let uses = phantoms.unwrap_or(i64::from(rules.phantom_uses));
                if !(0..=i64::from(rules.phantom_most_uses)).contains(&uses) {
                    return Err(err(
                        efield("phantoms"),
                        format!(
                            "expected 0 to {} materialisations [19.41], found {uses}",
                            rules.phantom_most_uses
                        ),
                    ));
                }
                special.powers[i] = uses as u8;
                let Some(phantom) = data.roster.get(&rules.phantom_character) else {
                    return Err(err(
                        "duel-specials.toml: phantoms.character".into(),
                        format!(
                            "expected a character of the roster, found {:?}",
                            rules.phantom_character
                        ),
                    ));
                };
                for _ in 0..uses * i64::from(rules.phantom_warriors) {
                    if fighters.len() == MAX_SCENARIO_FIGHTERS {
                        return Err(err(
                            efield("phantoms"),
                            format!(
                                "expected at most {MAX_SCENARIO_FIGHTERS} characters in a duel counting Kar Komak's {} phantom warriors per materialisation [19.41], found more",
                                rules.phantom_warriors
                            ),
                        ));
                    }
                    let mut p = Fighter::new(phantom, side, fighters[i].start, fighters[i].facing);
                    p.starts_absent = true;
                    special.phantom_of[fighters.len()] = Some(i as u8);
                    fighters.push(p);
                }
            }
            _ => {}
        }
        if let Some(hero) = loves {
            let h = fighters
                .iter()
                .position(|f| &f.id == hero && f.side == side && f.class == Class::Hero);
            let Some(h) = h else {
                return Err(err(
                    efield("loves"),
                    format!(
                        "expected a hero of the same side in this duel [19.23], found {hero:?}"
                    ),
                ));
            };
            fighters[i].loves = Some(h);
        }
    }
    Ok(())
}

/// A side's goal must be one it can reach: an exit to leave by, prisoners
/// to rescue, a hero to free those in the dungeon [5.18, 5.55, 7.7].
fn check_goals(
    err: &impl Fn(String, String) -> ScenarioError,
    display: &Display,
    fighters: &[Fighter],
    special: &Extras,
) -> Result<(), ScenarioError> {
    for side in 0..2u8 {
        let goal = special.goals[usize::from(side)];
        let field = || format!("sides[{side}].goal");
        if goal == Goal::Fight {
            continue;
        }
        let exits: Vec<&str> = (0..display.areas.len())
            .filter(|&k| {
                let a = &display.areas[k];
                a.exit
                    && a.exit_sides & (1 << side) != 0
                    && !(a.entrants_leave_elsewhere && side == 0 && special.entered == Some(k))
                    && (!a.secret || special.passage_card[usize::from(side)])
            })
            .map(|k| display.areas[k].name.as_str())
            .collect();
        let passages = display.areas.iter().any(|a| a.exit && a.secret);
        if exits.is_empty() {
            return Err(err(
                field(),
                format!(
                    "expected an exit side {} may leave {} by [5.18, 7.22-7.25], found none{}",
                    side + 1,
                    display.name,
                    if passages {
                        " (its secret passageway needs secret_passage = true [5.54])"
                    } else {
                        ""
                    }
                ),
            ));
        }
        if goal == Goal::Withdraw
            && !fighters
                .iter()
                .any(|f| f.side == side && f.class == Class::Villain)
        {
            return Err(err(
                field(),
                format!(
                    "expected a villain on side {} to withdraw [10.22], found none",
                    side + 1
                ),
            ));
        }
        if goal == Goal::Rescue {
            let mine: Vec<&Fighter> = fighters
                .iter()
                .filter(|f| f.side == side && f.prisoner)
                .collect();
            if mine.is_empty() {
                return Err(err(
                    field(),
                    format!(
                        "expected prisoners of side {} to rescue (prisoner = true), found none",
                        side + 1
                    ),
                ));
            }
            let heroes = fighters
                .iter()
                .any(|f| f.side == side && f.class == Class::Hero && !f.prisoner);
            if mine.iter().any(|f| f.in_dungeon) && !heroes {
                return Err(err(
                    field(),
                    "expected a hero on the side to open the dungeon [5.55], found none".into(),
                ));
            }
        }
    }
    Ok(())
}

/// The display under each state of its openings, Woola's flier, and the
/// steering fields [5.54, 5.55, 19.13].
fn compile_displays(duel: &mut Duel) {
    let variants = if duel.display.has_openings() { 4 } else { 1 };
    if variants > 1 {
        duel.special.variants = (0..variants)
            .map(|v| duel.display.with_openings(duel.variant_openings(v)))
            .collect();
    }
    if let Some((_, jc)) = duel.special.woola
        && duel.display.kind == DisplayKind::Flier
    {
        let start = duel.fighters[jc].start;
        let own = duel.display.decks(start.0, start.1);
        let areas = duel.display.areas.clone();
        duel.special.woola_display = Some(duel.display.with_sky_where(|c| match c {
            super::geometry::Cell::Gap => true,
            super::geometry::Cell::Area(k) => {
                let deck = areas[usize::from(k)].deck;
                deck != 0 && own & (1 << (deck - 1)) == 0
            }
            _ => false,
        }));
    }
    let mut fields = Vec::with_capacity(variants);
    for v in 0..variants {
        let display = duel.special.variants.get(v).unwrap_or(&*duel.display);
        let exits = [0u8, 1].map(|side| {
            display.distance_field(|x, y| {
                let under = display.areas_under(x, y);
                (0..display.areas.len().min(32))
                    .any(|k| under & (1 << k) != 0 && duel.may_leave_by(side, k))
            })
        });
        let door = display
            .distance_field(|x, y| display.touches(x, y, |c| c == super::geometry::Cell::Locked));
        let beside = duel
            .fighters
            .iter()
            .map(|f| {
                if f.in_dungeon {
                    let at = f.start;
                    display.distance_field(|x, y| {
                        (x - at.0).abs().max((y - at.1).abs()) == super::geometry::COUNTER
                    })
                } else {
                    Vec::new()
                }
            })
            .collect();
        fields.push(Fields {
            exits,
            door,
            beside,
        });
    }
    duel.special.fields = fields;
}

/// The first free set-up square for `character` among the `candidates`
/// areas of a side (in order), where the area holds his class or id and is
/// not full [7.2]: the area and the square.
fn find_square(
    display: &Display,
    candidates: &[usize],
    used: &[usize],
    fighters: &[Fighter],
    character: &Character,
) -> Option<(usize, (i16, i16))> {
    let class = character.class.name();
    for &k in candidates {
        let area = &display.areas[k];
        if !area.holds(class, &character.id) || area.capacity.is_some_and(|c| used[k] >= c) {
            continue;
        }
        let free = |&q: &(i16, i16)| {
            !fighters
                .iter()
                .any(|f| !f.starts_absent && overlaps(f.start, q))
        };
        if let Some(&square) = area.squares.iter().find(|q| free(q)) {
            return Some((k, square));
        }
    }
    None
}

/// Whether a hero may fall unconscious [3.26] where walls are: lying in a
/// doorway he can shut it, and his side then picks him up to clear the
/// way [5.41] (`policy::clear_the_way`), which needs the extras' turn end.
fn fallen_may_shut_the_way(display: &Display, fighters: &[Fighter]) -> bool {
    !display.open_ground && fighters.iter().any(|f| f.unconscious_at_level_1)
}

/// Unless a facing was given, each side faces the other along the axis on
/// which the two sides' counters lie further apart [7.21] (prisoners and
/// those not yet on the display left out).
fn face_each_other(fighters: &mut [Fighter], given: &[bool]) {
    let mean = |fighters: &[Fighter], side: u8| {
        let mine: Vec<_> = fighters
            .iter()
            .filter(|f| f.side == side && !f.prisoner && !f.starts_absent)
            .collect();
        let n = mine.len().max(1) as i64;
        (
            mine.iter().map(|f| i64::from(f.start.0)).sum::<i64>() / n,
            mine.iter().map(|f| i64::from(f.start.1)).sum::<i64>() / n,
        )
    };
    let ((x0, y0), (x1, y1)) = (mean(fighters, 0), mean(fighters, 1));
    let default_facing = if (x1 - x0).abs() > (y1 - y0).abs() {
        if x0 <= x1 { [EAST, WEST] } else { [WEST, EAST] }
    } else if y0 <= y1 {
        [SOUTH, NORTH]
    } else {
        [NORTH, SOUTH]
    };
    for (f, given) in fighters.iter_mut().zip(given) {
        if !given {
            f.facing = default_facing[usize::from(f.side)];
        }
    }
}

/// With `surprise`, each defender's lines of discovery from where he set
/// up [6.22]; otherwise none.
fn discovery_lines(display: &Display, fighters: &[Fighter], surprise: bool) -> Vec<Vec<bool>> {
    fighters
        .iter()
        .map(|f| {
            if surprise && f.side == 1 {
                display.discovery_lines(f.start)
            } else {
                Vec::new()
            }
        })
        .collect()
}

/// One character of a duel set up by a larger game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Entry {
    /// Index into the roster.
    pub character: usize,
    /// The level he starts at (his top level or lower).
    pub level: u8,
    /// Fights unarmed [7.36].
    pub unarmed: bool,
    /// Added to his strength at every level (an arena beast's size
    /// [17.44]).
    pub strength_bonus: u8,
    /// Berserk: loses a level only on every second hit [13.43].
    pub berserk: bool,
    /// Has taken the invisibility pills: agility 10 (10/6 for the
    /// characters the rules name) and a free blow [18.2 card 27].
    pub invisible: bool,
}

/// How a duel set up by a larger game is fought.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SetUpOptions {
    /// House and palace duels start with the first side undiscovered
    /// [6.0, 7.24, 7.25] unless this is set (acquisition duels [14.23]).
    pub discovered: bool,
    /// Fliers on the ground: no falls [14.25].
    pub grounded: bool,
    /// Turn limit.
    pub max_turns: u32,
    /// The first side's first character holds card 24 and leaves the
    /// melee with his side when he is losing [18.2 card 24].
    pub break_off: bool,
    /// The first side's first character must reach a villain of the other
    /// side in time [13.43].
    pub deadline: bool,
    /// The second side's villains withdraw by an exit once it is losing
    /// ([`Goal::Withdraw`], [10.22]); ignored on a display without an exit
    /// the second side may use or with no villain on that side.
    pub withdraw: bool,
}

/// Sets up a duel without a scenario file (the entry point for the
/// Strategic Game): side 0 enters by the display's first entrance, and each
/// character takes the first free square of his side's set-up areas that
/// holds his class [7.2]; a character no such area can take stands on any
/// free square of his side's set-up areas, then on any open square of the
/// display (a larger party than the printed areas hold). Personages take
/// no part. Fails only when the display has no room left at all or a side
/// has no one with combat values.
pub fn set_up(
    display: &Arc<Display>,
    sides: [&[Entry]; 2],
    roster: &Roster,
    rules: MeleeRules,
    specials: &SpecialRules,
    swordsman: &SwordsmanTables,
    options: SetUpOptions,
) -> Result<Duel, String> {
    let mut used = vec![0usize; display.areas.len()];
    let mut fighters: Vec<Fighter> = Vec::new();
    let mut cards = super::cards::Cards::default();
    for (s, side) in sides.iter().enumerate() {
        let (_, candidates) = set_up_areas(display, s, None, false)?;
        let mut first_of_side = true;
        for e in side.iter() {
            let character = roster
                .characters
                .get(e.character)
                .ok_or_else(|| format!("no character {} in the roster", e.character))?;
            if character.class == Class::Personage {
                continue;
            }
            if fighters.len() == MAX_FIGHTERS {
                return Err(format!(
                    "expected at most {MAX_FIGHTERS} characters in a duel, found more"
                ));
            }
            let free = |square: &(i16, i16)| !fighters.iter().any(|f| overlaps(f.start, *square));
            let start = match find_square(display, &candidates, &used, &fighters, character) {
                Some((k, square)) => {
                    used[k] += 1;
                    square
                }
                None => match display.setup[s].iter().copied().find(free) {
                    Some(square) => square,
                    None => open_square(display, &fighters, s).ok_or_else(|| {
                        format!("no room on {} for {}", display.name, character.name)
                    })?,
                },
            };
            let mut fighter = Fighter::new(character, s as u8, start, NORTH);
            fighter.top_level = e.level.clamp(1, character.top_level);
            fighter.unarmed = e.unarmed;
            if e.strength_bonus > 0 {
                for r in &mut fighter.levels {
                    r.strength = (r.strength + e.strength_bonus).min(super::roster::MAX_STRENGTH);
                }
            }
            if e.invisible {
                // [18.2 card 27] agility 10 for the duel, 10/6 [7.39] for
                // the characters the rules name.
                let agility = if specials.invisible_ten_six.contains(&character.id) {
                    super::cards::TEN_SIX_AGILITY
                } else {
                    specials.invisible_agility
                };
                for r in &mut fighter.levels {
                    r.agility = agility;
                }
                cards.invisible |= 1 << fighters.len();
            }
            if e.berserk {
                cards.berserk |= 1 << fighters.len();
            }
            if options.break_off && s == 0 && first_of_side {
                cards.break_off = Some(fighters.len() as u8);
            }
            if options.deadline && s == 0 && first_of_side {
                cards.deadline = Some((fighters.len() as u8, specials.deadline_turns));
            }
            first_of_side = false;
            fighters.push(fighter);
        }
    }
    for side in 0..2u8 {
        if !fighters.iter().any(|f| f.side == side) {
            return Err(format!("side {} has no one with combat values", side + 1));
        }
    }
    let given = vec![false; fighters.len()];
    face_each_other(&mut fighters, &given);
    let surprise = !display.kind.starts_discovered() && !options.discovered;
    let mut special = Extras::none(specials.clone());
    // A hero meeting a master swordsman fights him by maneuver cards [7.81].
    special.swordplay = SwordPlay::compile(&fighters, swordsman)?;
    // Ghek holds a foe once a duel [19.42] (Kar Komak's phantoms and Woola
    // are the calling game's: it counts their uses and brings them in).
    // Berserk, the deadline, invisibility and the break-off [13.43, 18.2].
    let mut extras = cards.any() || fallen_may_shut_the_way(display, &fighters);
    special.cards = cards;
    for (i, f) in fighters.iter().enumerate() {
        if f.special == Some(Special::Immobilise) {
            special.powers[i] = specials.immobilise_uses;
            extras = true;
        }
    }
    // [10.22] a villain leaves the display once his side is losing, where
    // the display lets his side out [5.18, 7.24, 5.56].
    if options.withdraw
        && fighters
            .iter()
            .any(|f| f.side == 1 && f.class == Class::Villain)
        && display
            .areas
            .iter()
            .any(|a| a.exit && !a.secret && a.exit_sides & 0b10 != 0)
    {
        special.goals[1] = Goal::Withdraw;
        special.may_leave = true;
        extras = true;
    }
    let mut duel = Duel {
        display: Arc::clone(display),
        lines: discovery_lines(display, &fighters, surprise),
        fighters,
        rules,
        max_turns: options.max_turns,
        surprise,
        extras,
        special,
        grounded: options.grounded,
    };
    if extras {
        compile_displays(&mut duel);
    }
    Ok(duel)
}

/// An open square no counter covers, scanning from side 0's end of the
/// display (the top rows) or side 1's (the bottom rows).
fn open_square(display: &Display, fighters: &[Fighter], side: usize) -> Option<(i16, i16)> {
    let rows: Vec<i16> = if side == 0 {
        (0..display.height).collect()
    } else {
        (0..display.height).rev().collect()
    };
    for y in rows {
        for x in 0..display.width {
            if display.open(x, y) && !fighters.iter().any(|f| overlaps(f.start, (x, y))) {
                return Some((x, y));
            }
        }
    }
    None
}

/// The areas where side `side` sets up by default, in order: the chosen
/// entrance (the first of the side's entrances if none is named) and every
/// set-up area of the side that is not an entrance [7.22-7.25]; in an
/// acquisition the first side sets up in the staging area only, and
/// otherwise no one does [5.51, 7.23]. Also the chosen entrance.
fn set_up_areas(
    display: &Display,
    side: usize,
    entrance: Option<&str>,
    acquisition: bool,
) -> Result<(Option<usize>, Vec<usize>), String> {
    let own = |a: &Area| {
        a.side == Some(side as u8) && (a.staging == (acquisition && side == 0) || a.entrance)
    };
    let entrances: Vec<usize> = (0..display.areas.len())
        .filter(|&k| own(&display.areas[k]) && display.areas[k].entrance)
        .collect();
    let chosen = match entrance {
        None => entrances.first().copied(),
        Some(name) => Some(
            entrances
                .iter()
                .copied()
                .find(|&k| display.areas[k].name == name)
                .ok_or_else(|| {
                    format!(
                        "expected an entrance of side {} on {}: {}, found {name:?}",
                        side + 1,
                        display.name,
                        if entrances.is_empty() {
                            "none (this display has none for the side)".to_string()
                        } else {
                            entrances
                                .iter()
                                .map(|&k| format!("{:?}", display.areas[k].name))
                                .collect::<Vec<_>>()
                                .join(", ")
                        }
                    )
                })?,
        ),
    };
    let chosen = chosen.filter(|_| !(acquisition && side == 0));
    Ok((
        chosen,
        chosen
            .into_iter()
            .chain(
                (0..display.areas.len())
                    .filter(|&k| own(&display.areas[k]) && !display.areas[k].entrance),
            )
            .collect(),
    ))
}

/// The house set-up [7.24]: the defender's villains and personages in a
/// room, and at least half (rounded down) of his other characters outside
/// the rooms.
fn check_house_set_up(
    path: &Path,
    display: &Display,
    fighters: &[Fighter],
) -> Result<(), ScenarioError> {
    let mut others = 0;
    let mut outside = 0;
    for f in fighters.iter().filter(|f| f.side == 1) {
        let in_room = display.in_room(f.start.0, f.start.1);
        if matches!(f.class, Class::Villain | Class::Personage) {
            if !in_room {
                return Err(ScenarioError::new(
                    path,
                    "sides[1].characters",
                    format!(
                        "expected {} ({}) set up in a room of {} [7.24], found him outside",
                        f.name,
                        f.class.name(),
                        display.name
                    ),
                ));
            }
        } else {
            others += 1;
            outside += usize::from(!in_room);
        }
    }
    if outside < others / 2 {
        return Err(ScenarioError::new(
            path,
            "sides[1].characters",
            format!(
                "expected at least {} of the defender's {others} other characters outside a room of {} [7.24], found {outside}",
                others / 2,
                display.name
            ),
        ));
    }
    Ok(())
}

/// Whether two counters at these top-left boxes overlap.
fn overlaps(a: (i16, i16), b: (i16, i16)) -> bool {
    (a.0 - b.0).abs() < 4 && (a.1 - b.1).abs() < 4
}

fn metric(name: &str, description: String) -> MetricSpec {
    MetricSpec {
        name: name.into(),
        description,
    }
}

fn output_spec(duel: &Duel, labels: &[String; 2]) -> (OutputSpec, Layout) {
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
    let mut metrics = vec![metric("turns", "tactical turns fought".into())];
    let keys = ["a", "b"];
    for (label, key) in labels.iter().zip(keys) {
        metrics.push(metric(
            &format!("survivors_{key}"),
            format!("{label}: characters still on their feet"),
        ));
    }
    for (label, key) in labels.iter().zip(keys) {
        metrics.push(metric(
            &format!("levels_lost_{key}"),
            format!("{label}: levels lost"),
        ));
    }
    for (label, key) in labels.iter().zip(keys) {
        metrics.push(metric(
            &format!("heroes_unconscious_{key}"),
            format!("{label}: heroes unconscious at the end"),
        ));
    }
    metrics.push(metric(
        "deciding_blow",
        "the character (1-based, scenario order) whose blow ended the duel; 0 undecided".into(),
    ));
    for (i, f) in duel.fighters.iter().enumerate() {
        metrics.push(metric(
            &format!("kills_{}", i + 1),
            format!("{} (character {}): kills and knock-outs", f.name, i + 1),
        ));
    }
    let mut layout = Layout::default();
    if duel.surprise {
        layout.discovered_in = Some(metrics.len());
        metrics.push(metric(
            "discovered_in",
            "the turn the attackers were discovered for good [6.3]; 0 never".into(),
        ));
    }
    if duel.special.may_leave {
        layout.escaped = Some(metrics.len());
        for (label, key) in labels.iter().zip(keys) {
            metrics.push(metric(
                &format!("escaped_{key}"),
                format!("{label}: characters who left the display [5.18]"),
            ));
        }
    }
    if duel.special.prisoners {
        layout.prisoners = Some(metrics.len());
        metrics.push(metric(
            "prisoners_freed",
            "prisoners freed by escape [7.7] or from the dungeon [5.55]".into(),
        ));
        metrics.push(metric(
            "rescued",
            "prisoners free at the end and off the display, or on it with their side holding the field".into(),
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
