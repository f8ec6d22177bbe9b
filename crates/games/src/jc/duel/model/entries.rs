//! Setting up a duel from entries for other games ([`set_up`]): squares,
//! areas and the house set-up check.

use std::path::Path;
use std::sync::Arc;

use super::compile::{
    compile_displays, face_each_other, fallen_may_shut_the_way, find_square,
    woola_beside_john_carter,
};
use super::parts::DisplayParts;
use crate::jc::duel::cards;
use crate::jc::duel::escape::{Extras, Goal};
use crate::jc::duel::geometry::{self, Area, Display, NORTH};
use crate::jc::duel::melee::MeleeRules;
use crate::jc::duel::roster;
use crate::jc::duel::roster::{Character, Class, Roster, Special};
use crate::jc::duel::sequence::{Duel, Fighter, MAX_FIGHTERS};
use crate::jc::duel::special::SpecialRules;
use crate::jc::duel::swordplay::SwordPlay;
use crate::jc::swordsman::SwordsmanTables;
use barsoom_engine::scenario::ScenarioError;

/// With `surprise`, each defender's lines of discovery from where he set
/// up [6.22], as `lines_from` gives them; otherwise none.
pub(super) fn discovery_lines(
    fighters: &[Fighter],
    surprise: bool,
    lines_from: impl Fn((i16, i16)) -> Arc<[bool]>,
) -> Vec<Arc<[bool]>> {
    fighters
        .iter()
        .map(|f| {
            if surprise && f.side == 1 {
                lines_from(f.start)
            } else {
                Arc::from(Vec::new())
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
    /// Tavia or Llana of Gathol, who loves the first character of her side
    /// (its hero): her parenthesised values come into play when he falls
    /// unconscious or to level 2 [19.23]. Other personages with this set
    /// stand aside like any personage [5.73].
    pub loves: bool,
    /// Held by the other side, chained in the display's dungeon until a
    /// hero of her side frees her [5.55, 7.25 (2)]. Left out of the duel
    /// where the display has no dungeon or no free manacles for her (a
    /// woman is never chained beside a man [7.25]).
    pub prisoner: bool,
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
    /// The first side may use the display's secret passageways (its hero
    /// knows the city's secret ways or plays the card [5.54, 17.17, 18.2
    /// cards 40-42]); once one of its fighters has, anyone may.
    pub secret_passage: bool,
    /// The first side means to free its prisoners in the dungeon and get
    /// off the display with them ([`Goal::Rescue`], [5.55]); ignored when
    /// no prisoner of it is chained or it has no exit to leave by.
    pub rescue: bool,
}

/// Sets up a duel without a scenario file (the entry point for the
/// Strategic Game): side 0 enters by the display's first entrance, and each
/// character takes the first free square of his side's set-up areas that
/// holds his class [7.2]; a character no such area can take stands on any
/// free square of his side's set-up areas, then on any open square of the
/// display (a larger party than the printed areas hold). Personages take
/// part only as Tavia or Llana beside the hero they love [19.23] or as
/// prisoners chained in the dungeon [5.55]; others are left out. Fails only
/// when the display has no room left at all or a side has no one with
/// combat values. The display's variants and steering fields come from
/// `parts` (shared by the caller's duels).
#[allow(clippy::too_many_arguments)] // the rules' parts, each its own data file
pub fn set_up(
    display: &Arc<Display>,
    sides: [&[Entry]; 2],
    roster: &Roster,
    rules: MeleeRules,
    specials: &SpecialRules,
    swordsman: &SwordsmanTables,
    options: SetUpOptions,
    parts: &DisplayParts,
) -> Result<Duel, String> {
    let mut used = vec![0usize; display.areas.len()];
    let mut fighters: Vec<Fighter> = Vec::new();
    let mut cards = cards::Cards::default();
    // Who is chained in the dungeon: a woman or a man, never both [7.25].
    let mut dungeon_sex: Option<bool> = None;
    for (s, side) in sides.iter().enumerate() {
        let (_, candidates) = set_up_areas(display, s, None, false)?;
        let mut first_of_side = true;
        let side_start = fighters.len();
        for e in side.iter() {
            let character = roster
                .characters
                .get(e.character)
                .ok_or_else(|| format!("no character {} in the roster", e.character))?;
            if e.prisoner {
                if fighters.len() < MAX_FIGHTERS
                    && dungeon_sex.is_none_or(|w| w == character.female)
                    && let Some(square) = manacled_square(display, &fighters)
                {
                    dungeon_sex = Some(character.female);
                    let mut fighter = Fighter::new(character, s as u8, square, NORTH);
                    fighter.prisoner = true;
                    fighter.in_dungeon = true;
                    fighters.push(fighter);
                }
                continue;
            }
            let loving = e.loves && character.reserve.is_some();
            if character.class == Class::Personage && !loving {
                continue;
            }
            if fighters.len() == MAX_FIGHTERS {
                return Err(format!(
                    "expected at most {MAX_FIGHTERS} characters in a duel, found more"
                ));
            }
            let free = |square: &(i16, i16)| !occupied(&fighters, *square);
            // Woola waits off the display beside John Carter [19.11] and
            // is placed when he appears [19.12].
            let absent = character.special == Some(Special::Woola)
                && side.iter().any(|o| {
                    roster
                        .characters
                        .get(o.character)
                        .is_some_and(|c| c.movement == roster::MovementKind::JohnCarter)
                });
            let start = match find_square(display, &candidates, &used, &fighters, character) {
                _ if absent => (0, 0),
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
            fighter.unarmed = e.unarmed;
            fighter.starts_absent = absent;
            // [19.23] she loves her side's hero, its first character.
            if loving
                && fighters
                    .get(side_start)
                    .is_some_and(|h| h.side == s as u8 && h.class == Class::Hero)
            {
                fighter.loves = Some(side_start);
            }
            adjust_fighter(
                &mut fighter,
                character,
                specials,
                (Some(e.level), e.strength_bonus, e.invisible),
            );
            if e.invisible {
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
        if !fighters
            .iter()
            .any(|f| f.side == side && f.class != Class::Personage && !f.prisoner)
        {
            return Err(format!("side {} has no one with combat values", side + 1));
        }
    }
    let given = vec![false; fighters.len()];
    face_each_other(&mut fighters, &given);
    let surprise = !display.kind.starts_discovered() && !options.discovered;
    let mut special = Extras::none(specials.clone());
    // A hero meeting a master swordsman fights him by maneuver cards [7.81].
    special.swordplay = SwordPlay::compile(&fighters, swordsman)?;
    // Ghek holds a foe once a duel [19.42]; Woola comes in beside John
    // Carter when he falls to level 2 [19.12], on his own flier [19.13]
    // (Kar Komak's phantoms are the calling game's: it counts their uses
    // and brings them in). Berserk, the deadline, invisibility and the
    // break-off [13.43, 18.2].
    let mut extras = cards.any() || fallen_may_shut_the_way(display, &fighters);
    special.cards = cards;
    // [5.54] the passageways, where the display has them.
    if options.secret_passage && display.areas.iter().any(|a| a.secret) {
        special.passage_card = [true, false];
        extras = true;
    }
    // [5.72, 5.73] personages on the display (not chained in the dungeon)
    // stand aside and may be led away; [5.55, 7.7] prisoners.
    for (i, f) in fighters.iter().enumerate() {
        if f.class == Class::Personage && !f.in_dungeon && !f.starts_absent {
            special.personages |= 1 << i;
            extras = true;
        }
        extras |= f.loves.is_some();
    }
    special.prisoners = fighters.iter().any(|f| f.prisoner);
    extras |= special.prisoners;
    // [5.55] the first side frees its chained prisoners and leaves with
    // them, where it has an exit to leave by.
    if options.rescue
        && fighters.iter().any(|f| f.side == 0 && f.in_dungeon)
        && fighters
            .iter()
            .any(|f| f.side == 0 && f.class == Class::Hero && !f.prisoner)
        && display
            .areas
            .iter()
            .any(|a| a.exit && a.exit_sides & 1 != 0 && (!a.secret || special.passage_card[0]))
    {
        special.goals[0] = Goal::Rescue;
        special.may_leave = true;
    }
    for (i, f) in fighters.iter().enumerate() {
        if f.special == Some(Special::Immobilise) {
            special.powers[i] = specials.immobilise_uses;
            extras = true;
        }
        if let Some(pair) = woola_beside_john_carter(&fighters, i) {
            special.woola = Some(pair);
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
        lines: discovery_lines(&fighters, surprise, |from| {
            parts.discovery_lines(display, from)
        }),
        fighters,
        rules,
        max_turns: options.max_turns,
        surprise,
        extras,
        special,
        grounded: options.grounded,
    };
    if extras {
        compile_displays(&mut duel, parts);
    }
    Ok(duel)
}

/// Writes an entry's starting level (if given: his top level or lower,
/// at least 1 [7.6]), size (added to his strength at every level, an
/// arena beast's [17.44]) and pills (agility 10 for the duel, 10/6 [7.39]
/// for the characters the rules name [18.2 card 27]) into his counter
/// values.
pub(crate) fn adjust_fighter(
    fighter: &mut Fighter,
    character: &Character,
    specials: &SpecialRules,
    (level, strength_bonus, invisible): (Option<u8>, u8, bool),
) {
    if let Some(level) = level {
        fighter.top_level = level.clamp(1, character.top_level.max(1));
    }
    if strength_bonus > 0 {
        for r in &mut fighter.levels {
            r.strength = (r.strength + strength_bonus).min(roster::MAX_STRENGTH);
        }
    }
    if invisible {
        let agility = if specials.invisible_ten_six.contains(&character.id) {
            cards::TEN_SIX_AGILITY
        } else {
            specials.invisible_agility
        };
        for r in &mut fighter.levels {
            r.agility = agility;
        }
    }
}

/// The first square of the display's dungeon [5.55] no counter covers
/// whose counter touches manacles, if any.
fn manacled_square(display: &Display, fighters: &[Fighter]) -> Option<(i16, i16)> {
    display
        .areas
        .iter()
        .filter(|a| a.dungeon)
        .flat_map(|a| a.squares.iter().copied())
        .find(|&q| {
            !occupied(fighters, q) && display.touches(q.0, q.1, |c| c == geometry::Cell::Manacles)
        })
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
            if display.open(x, y) && !occupied(fighters, (x, y)) {
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
pub(super) fn set_up_areas(
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
pub(super) fn check_house_set_up(
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

/// Whether a counter on the display (not one waiting off it) covers
/// `square`.
pub(super) fn occupied(fighters: &[Fighter], square: (i16, i16)) -> bool {
    fighters
        .iter()
        .any(|f| !f.starts_absent && overlaps(f.start, square))
}

/// Whether two counters at these top-left boxes overlap.
pub(super) fn overlaps(a: (i16, i16), b: (i16, i16)) -> bool {
    (a.0 - b.0).abs() < 4 && (a.1 - b.1).abs() < 4
}
