//! Compiling a scenario into a [`Duel`]: placing the sides, specials and
//! goals, the displays with their openings and areas.

use std::path::Path;
use std::sync::Arc;

use super::entries::{
    adjust_fighter, check_house_set_up, discovery_lines, occupied, overlaps, set_up_areas,
};
use super::parts::{DisplayParts, Target};
use super::scenario::{
    DEFAULT_MAX_TURNS, DuelData, DuelFile, EntryFile, FullEntry, JcDuel, MAX_SCENARIO_FIGHTERS,
    SideFile, output_spec,
};
use crate::jc::duel::cards::Cards;
use crate::jc::duel::escape::{Extras, Fields, Goal};
use crate::jc::duel::geometry;
use crate::jc::duel::geometry::{
    Area, Display, DisplayKind, EAST, NORTH, Openings, SOUTH, WEST, parse_facing,
};
use crate::jc::duel::policy::Policy;
use crate::jc::duel::roster;
use crate::jc::duel::roster::{Character, Class, Special};
use crate::jc::duel::sequence::{Duel, Fighter};
use crate::jc::duel::swordplay::SwordPlay;
use barsoom_engine::scenario::ScenarioError;

impl JcDuel {
    pub(super) fn build(
        path: &Path,
        file: &DuelFile,
        data: &DuelData,
        display: Display,
    ) -> Result<Self, ScenarioError> {
        let err = |field: String, message: String| ScenarioError::new(path, field, message);
        barsoom_engine::scenario::expect_two_sides(path, file.sides.len())?;
        let max_turns = barsoom_engine::scenario::limit(
            path,
            "max_turns",
            file.max_turns,
            DEFAULT_MAX_TURNS,
            100_000,
        )?;
        for (i, area) in display.areas.iter().enumerate() {
            if let Some(h) = area.holds.iter().find(|h| {
                h.as_str() != PRISONER
                    && roster::Class::parse(h).is_none()
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
        let mut duel_cards = Cards::default();
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
                    level: None,
                    strength_bonus: None,
                    berserk: false,
                    invisible: false,
                    break_off: false,
                    deadline: false,
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
                let options = entry_options(&err, &efield, character, f, count)?;
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
                                                    c == geometry::Cell::Manacles
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
                    adjust_fighter(
                        &mut fighter,
                        character,
                        &data.specials,
                        (options.level, options.strength_bonus, f.invisible),
                    );
                    let i = fighters.len();
                    let once = |held: bool, what: &str| {
                        if held {
                            Err(err(
                                efield(&format!(".{what}")),
                                format!(
                                    "expected `{what}` on one character of the duel, found it on more"
                                ),
                            ))
                        } else {
                            Ok(())
                        }
                    };
                    if f.berserk {
                        duel_cards.berserk |= 1 << i;
                    }
                    if f.invisible {
                        duel_cards.invisible |= 1 << i;
                    }
                    if f.break_off {
                        once(duel_cards.break_off.is_some(), "break_off")?;
                        duel_cards.break_off = Some(i as u8);
                    }
                    if f.deadline {
                        once(duel_cards.deadline.is_some(), "deadline")?;
                        duel_cards.deadline = Some((i as u8, data.specials.deadline_turns));
                    }
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
        check_cards(&err, &display, file.grounded, &fighters, &duel_cards)?;
        special.cards = duel_cards;
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
        let lines = discovery_lines(&fighters, surprise, |from| {
            display.discovery_lines(from).into()
        });
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
            || special.cards.any()
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
            grounded: file.grounded,
        };
        if extras {
            compile_displays(&mut duel, &DisplayParts::default());
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

/// An entry's options of the Strategic Game, checked against who he is:
/// his starting level and size.
struct EntryOptions {
    level: Option<u8>,
    strength_bonus: u8,
}

/// Checks the Strategic Game's options on one entry of the scenario:
/// `level` within his levels [7.6], `strength_bonus` within the ratings,
/// `berserk` and `deadline` on a hero [13.43], the pills on one with
/// combat values [18.2 card 27], `break_off` and `deadline` on a single
/// character (count 1).
fn entry_options(
    err: &impl Fn(String, String) -> ScenarioError,
    efield: &impl Fn(&str) -> String,
    character: &Character,
    f: &FullEntry,
    count: i64,
) -> Result<EntryOptions, ScenarioError> {
    let level = match f.level {
        None => None,
        Some(l) if (1..=i64::from(character.top_level)).contains(&l) => Some(l as u8),
        Some(l) => {
            return Err(err(
                efield(".level"),
                format!(
                    "expected 1 to {} (the levels of {}) [7.6], found {l}",
                    character.top_level, character.name
                ),
            ));
        }
    };
    let strength_bonus = match f.strength_bonus {
        None => 0,
        Some(b) if (0..=i64::from(roster::MAX_STRENGTH)).contains(&b) => b as u8,
        Some(b) => {
            return Err(err(
                efield(".strength_bonus"),
                format!("expected 0 to {} [17.44], found {b}", roster::MAX_STRENGTH),
            ));
        }
    };
    let hero = character.class == Class::Hero;
    for (on, what, case) in [
        (f.berserk, "berserk", "13.43"),
        (f.deadline, "deadline", "13.43"),
    ] {
        if on && !hero {
            return Err(err(
                efield(&format!(".{what}")),
                format!(
                    "expected `{what}` only on a hero [{case}], found it on {}",
                    character.name
                ),
            ));
        }
    }
    if (f.invisible || strength_bonus > 0) && character.top_level == 0 {
        return Err(err(
            efield(if f.invisible {
                ".invisible"
            } else {
                ".strength_bonus"
            }),
            format!(
                "expected a character with combat values [18.2 card 27, 17.44], found {}",
                character.name
            ),
        ));
    }
    for (on, what) in [(f.break_off, "break_off"), (f.deadline, "deadline")] {
        if on && count > 1 {
            return Err(err(
                efield(&format!(".{what}")),
                format!("expected `{what}` on a single character (count 1), found count {count}"),
            ));
        }
    }
    Ok(EntryOptions {
        level,
        strength_bonus,
    })
}

/// The duel-wide checks of the Strategic Game's options: grounded fliers
/// on a flier display [14.25], a villain on the other side for the hero
/// with a deadline to reach [13.43].
fn check_cards(
    err: &impl Fn(String, String) -> ScenarioError,
    display: &Display,
    grounded: bool,
    fighters: &[Fighter],
    cards: &Cards,
) -> Result<(), ScenarioError> {
    if grounded && display.kind != DisplayKind::Flier {
        return Err(err(
            "grounded".into(),
            format!(
                "expected a flier display for fliers on the ground [14.25], found {}",
                display.name
            ),
        ));
    }
    if let Some((h, _)) = cards.deadline {
        let side = fighters[usize::from(h)].side;
        if !fighters
            .iter()
            .any(|f| f.side != side && f.class == Class::Villain)
        {
            return Err(err(
                "sides".into(),
                format!(
                    "expected a villain on the other side for {} to reach in time [13.43], found none",
                    fighters[usize::from(h)].name
                ),
            ));
        }
    }
    Ok(())
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
            .is_some_and(|c| c.movement == roster::MovementKind::JohnCarter)
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

/// Fighter `i` as Woola waiting off the display, and the John Carter of his
/// side he comes in beside [19.11, 19.12]; `None` for anyone else.
pub(super) fn woola_beside_john_carter(fighters: &[Fighter], i: usize) -> Option<(usize, usize)> {
    let w = &fighters[i];
    if w.special != Some(Special::Woola) || !w.starts_absent {
        return None;
    }
    fighters
        .iter()
        .position(|f| f.side == w.side && f.movement == roster::MovementKind::JohnCarter)
        .map(|jc| (i, jc))
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
                special.woola = woola_beside_john_carter(fighters, i);
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
/// steering fields [5.54, 5.55, 19.13]; the variants and fields come from
/// `parts`, shared with every duel on the same display.
pub(super) fn compile_displays(duel: &mut Duel, parts: &DisplayParts) {
    let staging = duel.special.acquisition;
    duel.special.variants = parts.variants(&duel.display, staging);
    let variants = duel.special.variants.len().max(1);
    if let Some((_, jc)) = duel.special.woola
        && duel.display.kind == DisplayKind::Flier
    {
        let start = duel.fighters[jc].start;
        let own = duel.display.decks(start.0, start.1);
        let areas = duel.display.areas.clone();
        duel.special.woola_display = Some(duel.display.with_sky_where(|c| match c {
            geometry::Cell::Gap => true,
            geometry::Cell::Area(k) => {
                let deck = areas[usize::from(k)].deck;
                deck != 0 && own & (1 << (deck - 1)) == 0
            }
            _ => false,
        }));
    }
    // Per side, the areas it may leave by, as a set: a box is a goal where
    // the areas under a counter there meet it.
    let leave_by = [0u8, 1].map(|side| {
        (0..duel.display.areas.len().min(32))
            .filter(|&k| duel.may_leave_by(side, k))
            .fold(0u32, |set, k| set | 1 << k)
    });
    let display = &duel.display;
    duel.special.fields = (0..variants)
        .map(|v| Fields {
            exits: leave_by.map(|areas| parts.field(display, staging, v, Target::Areas(areas))),
            exit_squares: leave_by
                .map(|areas| parts.goal_squares(display, staging, v, Target::Areas(areas))),
            door: parts.field(display, staging, v, Target::Door),
            beside: duel
                .fighters
                .iter()
                .map(|f| {
                    if f.in_dungeon {
                        parts.field(display, staging, v, Target::Beside(f.start.0, f.start.1))
                    } else {
                        Arc::from(Vec::new())
                    }
                })
                .collect(),
        })
        .collect();
}

/// The first free set-up square for `character` among the `candidates`
/// areas of a side (in order), where the area holds his class or id and is
/// not full [7.2]: the area and the square.
pub(super) fn find_square(
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
        if let Some(&square) = area.squares.iter().find(|&&q| !occupied(fighters, q)) {
            return Some((k, square));
        }
    }
    None
}

/// Whether a hero may fall unconscious [3.26] where walls are: lying in a
/// doorway he can shut it, and his side then picks him up to clear the
/// way [5.41] (`policy::clear_the_way`), which needs the extras' turn end.
pub(super) fn fallen_may_shut_the_way(display: &Display, fighters: &[Fighter]) -> bool {
    !display.open_ground && fighters.iter().any(|f| f.unconscious_at_level_1)
}

/// Unless a facing was given, each side faces the other along the axis on
/// which the two sides' counters lie further apart [7.21] (prisoners and
/// those not yet on the display left out).
pub(super) fn face_each_other(fighters: &mut [Fighter], given: &[bool]) {
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
