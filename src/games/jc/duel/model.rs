//! The `jc.duel` model: a scenario names a display, two sides of roster
//! characters and a policy per side; each trial fights the duel once.

use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;

use super::geometry::{Area, Display, DisplayKind, EAST, NORTH, SOUTH, WEST, parse_facing};
use super::melee::MeleeRules;
use super::policy::Policy;
use super::roster::{Character, Class, Roster};
use super::sequence::{Duel, DuelResult, Fighter, MAX_FIGHTERS};
use crate::engine::accumulate::MAX_METRICS;
use crate::engine::{Dice, MetricSpec, Model, OutputSpec, Trace, TrialResult};
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
    sides: Vec<SideFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideFile {
    label: Option<String>,
    policy: Option<String>,
    /// The entrance (an exit area's name) the side sets up at [7.22-7.25].
    entrance: Option<String>,
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
}

/// The data a duel reads from its data folder.
#[derive(Debug, Clone)]
pub struct DuelData {
    /// The roster.
    pub roster: Roster,
    /// Melee numbers.
    pub rules: MeleeRules,
}

impl DuelData {
    /// Loads `characters.toml` and `duel-rules.toml` from `dir`.
    pub fn load(dir: &Path) -> Result<Self, ScenarioError> {
        Ok(DuelData {
            roster: Roster::load(&dir.join("characters.toml"))?,
            rules: MeleeRules::load(&dir.join("duel-rules.toml"))?,
        })
    }
}

/// The `jc.duel` model.
#[derive(Debug, Clone)]
pub struct JcDuel {
    duel: Duel,
    policies: [Policy; 2],
    spec: OutputSpec,
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
            if let Some(h) = area
                .holds
                .iter()
                .find(|h| super::roster::Class::parse(h).is_none() && data.roster.get(h).is_none())
            {
                return Err(err(
                    format!("display {}: areas[{i}].holds", display.name),
                    format!(
                        "expected a class (hero, villain, minor, personage, warrior, beast) or a roster id, found {h:?}"
                    ),
                ));
            }
        }
        let mut used = vec![0usize; display.areas.len()];
        let mut facing_given: Vec<bool> = Vec::new();
        let mut fighters: Vec<Fighter> = Vec::new();
        let mut policies = [Policy::Aggressive; 2];
        let mut labels: [String; 2] = Default::default();
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
            if side.characters.is_empty() {
                return Err(err(
                    field("characters"),
                    "expected at least one character".into(),
                ));
            }
            let mut names: Vec<String> = Vec::new();
            let candidates = set_up_areas(&display, s, side.entrance.as_deref())
                .map_err(|m| err(field("entrance"), m))?;
            for (e, entry) in side.characters.iter().enumerate() {
                let efield = |f: &str| format!("sides[{s}].characters[{e}]{f}");
                let (id, count, at, facing, unarmed) = match entry {
                    EntryFile::Id(id) => (id.as_str(), 1, None, None, false),
                    EntryFile::Full(f) => (
                        f.id.as_str(),
                        f.count.unwrap_or(1),
                        f.at,
                        f.facing.as_deref(),
                        f.unarmed,
                    ),
                };
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
                let facing = match facing {
                    None => None,
                    Some(f) => Some(parse_facing(f).ok_or_else(|| {
                        err(
                            efield(".facing"),
                            format!("expected N, E, S or W, found {f:?}"),
                        )
                    })?),
                };
                for _ in 0..count {
                    if fighters.len() == MAX_SCENARIO_FIGHTERS {
                        return Err(err(
                            field("characters"),
                            format!(
                                "expected at most {MAX_SCENARIO_FIGHTERS} characters in a duel, found more"
                            ),
                        ));
                    }
                    let start = match at {
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
                            (x, y)
                        }
                        None => {
                            let class = character.class.name();
                            let found =
                                find_square(&display, &candidates, &used, &fighters, character);
                            let Some((k, square)) = found else {
                                let takes: Vec<&Area> = candidates
                                    .iter()
                                    .map(|&k| &display.areas[k])
                                    .filter(|a| a.holds(class, &character.id))
                                    .collect();
                                let room: usize = takes
                                    .iter()
                                    .map(|a| a.capacity.unwrap_or(usize::MAX).min(a.squares.len()))
                                    .sum();
                                return Err(err(
                                    field("characters"),
                                    format!(
                                        "expected at most {room} characters like {} ({class}) for the set-up areas of side {} of {} that take them ({}) [7.2], found more",
                                        character.name,
                                        s + 1,
                                        display.name,
                                        takes
                                            .iter()
                                            .map(|a| a.name.as_str())
                                            .collect::<Vec<_>>()
                                            .join(", ")
                                    ),
                                ));
                            };
                            used[k] += 1;
                            square
                        }
                    };
                    if let Some(other) = fighters.iter().find(|f| overlaps(f.start, start)) {
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
                    fighter.unarmed = unarmed;
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
        if fighters
            .iter()
            .all(|f| f.class == super::roster::Class::Personage || f.side == 1)
            || fighters
                .iter()
                .all(|f| f.class == super::roster::Class::Personage || f.side == 0)
        {
            return Err(err(
                "sides".into(),
                "expected each side to have at least one character with combat values".into(),
            ));
        }
        face_each_other(&mut fighters, &facing_given);
        if display.kind == DisplayKind::House {
            check_house_set_up(path, &display, &fighters)?;
        }
        // House and palace duels start undiscovered unless the scenario
        // states that no conditions of surprise exist [6.0].
        let surprise = !display.kind.starts_discovered() && file.discovered != Some(true);
        let duel = assemble(
            Arc::new(display),
            fighters,
            data.rules,
            max_turns,
            surprise,
            false,
        );
        let spec = output_spec(&duel, &labels);
        Ok(JcDuel {
            duel,
            policies,
            spec,
        })
    }
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
        for &square in &area.squares {
            if !fighters.iter().any(|f| overlaps(f.start, square)) {
                return Some((k, square));
            }
        }
    }
    None
}

/// Unless a facing was given, each side faces the other along the axis on
/// which the two sides' counters lie further apart [7.21].
fn face_each_other(fighters: &mut [Fighter], given: &[bool]) {
    let mean = |fighters: &[Fighter], side: u8| {
        let mine: Vec<_> = fighters.iter().filter(|f| f.side == side).collect();
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

/// The compiled duel: with `surprise`, each defender's lines of discovery
/// from where he set up [6.22].
fn assemble(
    display: Arc<Display>,
    fighters: Vec<Fighter>,
    rules: MeleeRules,
    max_turns: u32,
    surprise: bool,
    grounded: bool,
) -> Duel {
    let lines = fighters
        .iter()
        .map(|f| {
            if surprise && f.side == 1 {
                display.discovery_lines(f.start)
            } else {
                Vec::new()
            }
        })
        .collect();
    Duel {
        display,
        fighters,
        rules,
        max_turns,
        surprise,
        lines,
        grounded,
    }
}

/// One character of a duel set up by a larger game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    options: SetUpOptions,
) -> Result<Duel, String> {
    let mut used = vec![0usize; display.areas.len()];
    let mut fighters: Vec<Fighter> = Vec::new();
    for (s, side) in sides.iter().enumerate() {
        let candidates = set_up_areas(display, s, None)?;
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
    Ok(assemble(
        Arc::clone(display),
        fighters,
        rules,
        options.max_turns,
        surprise,
        options.grounded,
    ))
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
/// entrance (the first of the side's entrances if none is named)
/// and every set-up area of the side that is not an entrance [7.22-7.25].
fn set_up_areas(
    display: &Display,
    side: usize,
    entrance: Option<&str>,
) -> Result<Vec<usize>, String> {
    let own = |a: &Area| a.side == Some(side as u8);
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
    Ok(chosen
        .into_iter()
        .chain(
            (0..display.areas.len())
                .filter(|&k| own(&display.areas[k]) && !display.areas[k].entrance),
        )
        .collect())
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

fn output_spec(duel: &Duel, labels: &[String; 2]) -> OutputSpec {
    let outcomes = vec![
        format!("won by {}", labels[0]),
        format!("won by {}", labels[1]),
        format!("undecided after {} turns", duel.max_turns),
    ];
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
    if duel.surprise {
        metrics.push(metric(
            "discovered_in",
            "the turn the attackers were discovered for good [6.3]; 0 never".into(),
        ));
    }
    debug_assert!(metrics.len() <= MAX_METRICS);
    OutputSpec {
        outcomes,
        metrics,
        length_metric: Some(METRIC_TURNS),
        trends: Vec::new(),
    }
}

/// The trial row of a fought duel.
pub fn trial_result(r: &DuelResult, fighters: usize) -> TrialResult {
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
    // Read only when the duel needs discovery (the spec then lists it).
    metrics[METRIC_KILLS + fighters] = r.discovered_in;
    TrialResult {
        outcome: match r.winner {
            Some(0) => OUT_FIRST_WINS,
            Some(_) => OUT_SECOND_WINS,
            None => OUT_UNDECIDED,
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
        trial_result(&r, self.duel.fighters.len())
    }
}
