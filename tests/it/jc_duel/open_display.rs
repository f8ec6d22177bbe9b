//! `jc.duel`: the roster's fixed points, every melee modifier and
//! threshold worked by hand, one melee's exact odds against Monte Carlo,
//! positions, arcs and behind positions for each class and facing, movement
//! (walls, counters, jumping, hero allowances), determinism and bad input.

use barsoom::scenario::Load;
use std::path::{Path, PathBuf};

use barsoom::engine::{Dice, Model, Tally};
use barsoom::games::jc::duel::geometry::{
    Display, EAST, FRONT_ARC, HERO_ARC, HERO_BEHIND, NORTH, OTHER_BEHIND, Reach, SOUTH,
    WARRIOR_ARC, WEST, WalkScratch, Walked, in_arc, is_behind, offset_of_position,
    positions_around,
};
use barsoom::games::jc::duel::melee::{Blow, Conditions, Fate, MeleeRules, apply_blow};
use barsoom::games::jc::duel::model::{JcDuel, OUT_FIRST_WINS, OUT_SECOND_WINS, OUT_UNDECIDED};
use barsoom::games::jc::duel::policy::Policy;
use barsoom::games::jc::duel::roster::{Class, Ratings, Roster};
use barsoom::games::jc::duel::sequence::State;

use super::{bundled, display, load, roster, rules, write_display};
use crate::common;
use crate::common::jc_data;
use crate::common::write_jc_duel as write;

pub(super) fn arena() -> Display {
    display("arena")
}

pub(super) fn r(text: &str) -> Ratings {
    Ratings::parse(text).expect("ratings")
}

pub(super) fn side(policy: &str, characters: &str) -> String {
    format!("[[sides]]\npolicy = \"{policy}\"\ncharacters = [{characters}]\n")
}

pub(super) fn duel_of(sides: &str) -> JcDuel {
    let dir = tempfile::tempdir().expect("tempdir");
    load(&write(dir.path(), "d", "display = \"arena\"", sides))
}

// ---------------------------------------------------------------- roster

#[test]
fn roster_holds_the_four_surviving_counter_values() {
    let roster = roster();
    // 305 r2 Tul Axtar 3B7: a red villain whose level 2 reads 3B7.
    let tul = roster.get("tul-axtar").expect("Tul Axtar");
    assert_eq!(
        (tul.code, tul.class, tul.race.as_str()),
        (305, Class::Villain, "red")
    );
    assert_eq!(tul.at(2), r("3B7"));
    // 007 g2 Tars Tarkas 5B6: a green hero whose level 2 reads 5B6.
    let tars = roster.get("tars-tarkas").expect("Tars Tarkas");
    assert_eq!(
        (tars.code, tars.class, tars.race.as_str()),
        (7, Class::Hero, "green")
    );
    assert_eq!(tars.at(2), r("5B6"));
    // 404 Tara of Helium and 503 Phaidor: alertness A (0).
    let tara = roster.get("tara-of-helium").expect("Tara");
    assert_eq!((tara.code, tara.alertness, tara.fights()), (404, 0, false));
    let phaidor = roster.get("phaidor").expect("Phaidor");
    assert_eq!((phaidor.code, phaidor.alertness), (503, 0));
}

#[test]
fn roster_codes_follow_the_series_and_every_class_is_present() {
    let roster = roster();
    for c in &roster.characters {
        // [3.23] code series by type.
        let ok = match c.class {
            Class::Hero => (1..=10).contains(&c.code),
            Class::Villain => (301..=400).contains(&c.code),
            Class::Personage => (401..=700).contains(&c.code),
            Class::Warrior => (701..=800).contains(&c.code),
            Class::Beast => (801..=900).contains(&c.code),
            Class::Minor => {
                (20..=300).contains(&c.code) || (901..=978).contains(&c.code) || c.code == 999
            }
        };
        assert!(ok, "{} code {} class {:?}", c.id, c.code, c.class);
    }
    for id in [
        "john-carter",
        "carthoris",
        "gahan",
        "vad-varo",
        "tan-hadron",
        "vor-daj",
        "matai-shang",
        "thurid",
        "dejah-thoris",
        "llana-of-gathol",
        "tavia",
        "kar-komak",
        "ghek",
        "woola",
        "red-warrior",
        "green-warrior",
        "thern-warrior",
        "black-pirate",
        "yellow-warrior",
        "invisible-warrior",
        "hormad-warrior",
        "kaldane-warrior",
        "banth",
        "apt",
        "sith",
        "white-ape",
        "plant-man",
        "calot",
        "thoat",
        "captain-of-the-guard",
        "noble",
        "grand-master",
        "master-at-arms",
        "assassin",
    ] {
        assert!(roster.get(id).is_some(), "{id}");
    }
    // Warriors of Mars always have one level (glossary).
    for c in roster
        .characters
        .iter()
        .filter(|c| c.class == Class::Warrior)
    {
        assert_eq!(c.top_level, 1, "{}", c.id);
    }
}

#[test]
fn level_loss_changes_ratings_at_once() {
    // [7.6, 7.62] John Carter 4 -> 3 -> 2 -> unconscious at 1.
    let roster = roster();
    let jc = roster.get("john-carter").expect("JC");
    assert_eq!(jc.top_level, 4);
    assert_eq!(jc.at(4), r("5A11"));
    assert_eq!(jc.at(3), r("5A10"));
    assert_eq!(jc.at(2), r("4A10"));
    assert!(jc.unconscious_at_level_1);
    let fate = apply_blow(4, true, Blow::Level);
    assert_eq!(fate, Fate::Fighting(3));
    assert_eq!(
        jc.at(3).agility,
        10,
        "the lower level's agility applies at once"
    );
}

#[test]
fn bad_ratings_in_the_roster_are_one_line_errors() {
    let file = Path::new("characters.toml");
    let text = "provenance = \"reconstructed: x\"\n[[characters]]\nid = \"a\"\nname = \"A\"\ncode = 701\nclass = \"warrior\"\nrace = \"red\"\nlevels = [\"2B66\"]\nprovenance = \"reconstructed: x\"\n";
    let e = Roster::parse(file, text).expect_err("agility 66 is out of range");
    assert!(e.to_string().contains("characters[0].levels[0]"), "{e}");
    let text = text.replace("\"2B66\"", "\"2D6\"");
    let e = Roster::parse(file, &text).expect_err("alertness D");
    assert!(e.to_string().contains("alertness (A, B or C)"), "{e}");
    let text = text
        .replace("\"2D6\"", "\"2B6\"")
        .replace("class = \"warrior\"", "class = \"wizard\"");
    let e = Roster::parse(file, &text).expect_err("no such class");
    assert!(e.to_string().contains("characters[0].class"), "{e}");
}

// ---------------------------------------------------------------- melee

#[test]
fn each_modifier_and_their_combination() {
    let m = rules();
    let one = |c: Conditions| m.modifier(c);
    let none = Conditions::default();
    assert_eq!(one(none), 0);
    // [7.32] +3, [7.33] -2, [7.34] -1, [7.35] -1, [7.36] -2.
    assert_eq!(
        one(Conditions {
            behind: true,
            ..none
        }),
        3
    );
    assert_eq!(
        one(Conditions {
            moved: true,
            ..none
        }),
        -2
    );
    assert_eq!(
        one(Conditions {
            obstructed: true,
            ..none
        }),
        -1
    );
    assert_eq!(
        one(Conditions {
            carrying: true,
            ..none
        }),
        -1
    );
    assert_eq!(
        one(Conditions {
            unarmed: true,
            ..none
        }),
        -2
    );
    // [7.37] all at once: 3 - 2 - 1 - 1 - 2 = -3.
    let all = Conditions {
        behind: true,
        moved: true,
        obstructed: true,
        carrying: true,
        unarmed: true,
    };
    assert_eq!(one(all), -3);
    // A red warrior (strength 2) against agility 6: needs 6 - 2 = 4; from
    // behind 1; after moving 6; with everything 6 - 2 + 3 = 7.
    assert_eq!(MeleeRules::needed(2, 0, 6), 4);
    assert_eq!(MeleeRules::needed(2, 3, 6), 1);
    assert_eq!(MeleeRules::needed(2, -2, 6), 6);
    assert_eq!(MeleeRules::needed(2, -3, 6), 7);
    // Behind and moved together: +1 net, needs 3.
    assert_eq!(
        MeleeRules::needed(
            2,
            one(Conditions {
                behind: true,
                moved: true,
                ..none
            }),
            6
        ),
        3
    );
}

#[test]
fn the_floor_of_one_and_the_unarmed_zero_strength_rule() {
    // [7.38] an adjusted roll below 1 reads 1: against agility 1 every
    // face hits, whatever the modifiers.
    assert_eq!(MeleeRules::needed(0, -9, 1), 1);
    // Strength 9 against agility 5 needs a 1 (never less).
    assert_eq!(MeleeRules::needed(9, 0, 5), 1);
    let m = rules();
    assert!(m.odds(Class::Warrior, 1)[0].abs() < 1e-12, "never misses");
    // [7.36] strength 0 and unarmed: no melee; armed, or strength 1: melee.
    assert!(!MeleeRules::may_melee(0, true));
    assert!(MeleeRules::may_melee(0, false));
    assert!(MeleeRules::may_melee(1, true));
}

#[test]
fn kill_thresholds_and_the_ten_six_rule_by_hand() {
    let m = rules();
    // A hero needing 4: faces 4-9 hit (0.6); the 10 hits and kills on a
    // second roll of 6+ (0.1 * 0.5 = 0.05): level 0.65, kill 0.05.
    let [miss, level, kill] = m.odds(Class::Hero, 4);
    assert!(
        (miss - 0.3).abs() < 1e-12 && (level - 0.65).abs() < 1e-12 && (kill - 0.05).abs() < 1e-12
    );
    // A villain (10/8): kill 0.1 * 0.3 = 0.03.
    assert!((m.odds(Class::Villain, 4)[2] - 0.03).abs() < 1e-12);
    // A beast, minor character, personage: also 10/8.
    for c in [Class::Beast, Class::Minor, Class::Personage] {
        assert!((m.odds(c, 4)[2] - 0.03).abs() < 1e-12, "{c:?}");
    }
    // A warrior (10/10): kill 0.01.
    assert!((m.odds(Class::Warrior, 4)[2] - 0.01).abs() < 1e-12);
    // Needing 11: only the 10 hits [7.39]: level 0.1 - 0.01, kill 0.01.
    let [miss, level, kill] = m.odds(Class::Warrior, 11);
    assert!(
        (miss - 0.9).abs() < 1e-12 && (level - 0.09).abs() < 1e-12 && (kill - 0.01).abs() < 1e-12
    );
    // Needing 12 or more (our reading of the rare 10/6): a 10 then 6+
    // scores one level, no kill roll: 0.1 * 0.5 = 0.05.
    let [miss, level, kill] = m.odds(Class::Hero, 12);
    assert!((miss - 0.95).abs() < 1e-12 && (level - 0.05).abs() < 1e-12 && kill == 0.0);
}

#[test]
fn a_kill_roll_knocks_a_hero_unconscious_and_heroes_fall_at_level_1() {
    // [7.52, 7.53] a kill against a hero: unconscious instead.
    assert_eq!(apply_blow(4, true, Blow::Kill), Fate::Unconscious);
    // [7.63] a hero at level 2 losing a level falls unconscious at 1.
    assert_eq!(apply_blow(2, true, Blow::Level), Fate::Unconscious);
    assert_eq!(apply_blow(3, true, Blow::Level), Fate::Fighting(2));
    // Others: level 0 is death; a kill is death at any level.
    assert_eq!(apply_blow(1, false, Blow::Level), Fate::Dead);
    assert_eq!(apply_blow(2, false, Blow::Level), Fate::Fighting(1));
    assert_eq!(apply_blow(3, false, Blow::Kill), Fate::Dead);
    assert_eq!(apply_blow(3, false, Blow::Miss), Fate::Fighting(3));
}

#[test]
fn one_melee_matches_its_closed_form() {
    // Exact [miss, level, kill] of one melee against Monte Carlo, over a
    // grid of needs (strength/agility/modifier combinations reduce to the
    // need) and attacker classes, within 4 standard errors.
    let m = rules();
    let n = 60_000u32;
    let cases = [
        // (strength, modifier, agility)
        (2, 0, 6),
        (2, 3, 6),
        (1, -2, 9),
        (5, 0, 11),
        (1, 0, 11),
        (1, -2, 12),
        (0, -3, 14),
        (9, 0, 1),
    ];
    for (k, &(strength, modifier, agility)) in cases.iter().enumerate() {
        let needed = MeleeRules::needed(strength, modifier, agility);
        for (c, class) in [Class::Hero, Class::Villain, Class::Warrior]
            .into_iter()
            .enumerate()
        {
            let exact = m.odds(class, needed);
            assert!((exact.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let mut dice = Dice::for_trial(77, (k * 3 + c) as u64);
            let mut counts = [0u32; 3];
            for _ in 0..n {
                let (blow, _, _) = m.strike(class, needed, &mut dice);
                counts[blow as usize] += 1;
            }
            for i in 0..3 {
                let p = exact[i];
                let observed = f64::from(counts[i]) / f64::from(n);
                let se = (p * (1.0 - p) / f64::from(n))
                    .sqrt()
                    .max(1.0 / f64::from(n));
                assert!(
                    (observed - p).abs() <= 4.0 * se,
                    "need {needed} {class:?} outcome {i}: MC {observed} exact {p}"
                );
            }
        }
    }
}

// ---------------------------------------------------------------- positions and arcs

#[test]
fn the_eight_positions_are_numbered_by_facing() {
    // Facing north (towards row 0): 4 ahead, 8 behind, 2 left, 6 right,
    // 3/5 the front diagonals, 1/7 the rear diagonals [7.41].
    let north = [
        ((0, -4), 4),
        ((0, 4), 8),
        ((-4, 0), 2),
        ((4, 0), 6),
        ((-4, -4), 3),
        ((4, -4), 5),
        ((-4, 4), 1),
        ((4, 4), 7),
    ];
    for ((dx, dy), n) in north {
        assert_eq!(positions_around(dx, dy, NORTH), Some(1 << n), "N {dx},{dy}");
    }
    // Facing east: ahead is +x, the left is north.
    assert_eq!(positions_around(4, 0, EAST), Some(1 << 4));
    assert_eq!(positions_around(-4, 0, EAST), Some(1 << 8));
    assert_eq!(positions_around(0, -4, EAST), Some(1 << 2));
    assert_eq!(positions_around(-4, -4, EAST), Some(1 << 1));
    assert_eq!(positions_around(4, 4, EAST), Some(1 << 5));
    // Facing south: ahead is +y, the left is east.
    assert_eq!(positions_around(0, 4, SOUTH), Some(1 << 4));
    assert_eq!(positions_around(4, 0, SOUTH), Some(1 << 2));
    assert_eq!(positions_around(-4, -4, SOUTH), Some(1 << 7));
    // Facing west: ahead is -x, the left is south.
    assert_eq!(positions_around(-4, 0, WEST), Some(1 << 4));
    assert_eq!(positions_around(0, 4, WEST), Some(1 << 2));
    assert_eq!(positions_around(4, -4, WEST), Some(1 << 7));
    // Round trip for every facing and position.
    for f in 0..4 {
        for n in 1..=8u8 {
            let (dx, dy) = offset_of_position(n, f);
            assert_eq!(
                positions_around(dx, dy, f),
                Some(1 << n),
                "facing {f} position {n}"
            );
        }
    }
    // Not touching, or overlapping: no position.
    assert_eq!(positions_around(5, 0, NORTH), None);
    assert_eq!(positions_around(3, 3, NORTH), None);
}

#[test]
fn a_straddling_counter_counts_as_the_least_advantageous_position() {
    // [7.42] the rules' own example: between 6 and 7 of a target facing
    // north, (4, 2), counts as 6: not from behind, for anyone.
    assert_eq!(positions_around(4, 2, NORTH), Some(1 << 6 | 1 << 7));
    assert!(!is_behind(OTHER_BEHIND, 4, 2, NORTH));
    // Between 7 and 8, (2, 4): behind a non-hero, not behind a hero.
    assert!(is_behind(OTHER_BEHIND, 2, 4, NORTH));
    assert!(!is_behind(HERO_BEHIND, 2, 4, NORTH));
    // Exactly at 8: behind a hero too.
    assert!(is_behind(HERO_BEHIND, 0, 4, NORTH));
    // Arcs: a warrior facing north with a target straddling 4 and 5 may
    // attack; straddling 5 and 6 may not (6 is outside 3-5), a minor
    // character may.
    assert!(in_arc(WARRIOR_ARC, -2, 4, NORTH)); // target at (2, -4)
    assert!(!in_arc(WARRIOR_ARC, -4, 2, NORTH)); // target at (4, -2)
    assert!(in_arc(FRONT_ARC, -4, 2, NORTH));
}

#[test]
fn arcs_and_behind_positions_for_each_class_and_facing() {
    // [7.43] hero 1-7, minor/villain/personage/beast 2-6, warrior 3-5;
    // [7.44] behind a hero: 8; behind anyone else: 1, 7, 8.
    let arcs = [
        (HERO_ARC, &[1u8, 2, 3, 4, 5, 6, 7][..]),
        (FRONT_ARC, &[2, 3, 4, 5, 6][..]),
        (WARRIOR_ARC, &[3, 4, 5][..]),
    ];
    for facing in [NORTH, EAST, SOUTH, WEST] {
        for (arc, allowed) in arcs {
            for n in 1..=8u8 {
                // The target stands at position n of the attacker.
                let (tx, ty) = offset_of_position(n, facing);
                assert_eq!(
                    in_arc(arc, -tx, -ty, facing),
                    allowed.contains(&n),
                    "facing {facing} arc {arc:b} position {n}"
                );
            }
        }
        for n in 1..=8u8 {
            // The attacker stands at position n of the target.
            let (dx, dy) = offset_of_position(n, facing);
            assert_eq!(is_behind(HERO_BEHIND, dx, dy, facing), n == 8);
            assert_eq!(
                is_behind(OTHER_BEHIND, dx, dy, facing),
                [1, 7, 8].contains(&n)
            );
        }
    }
    // [7.45] no class's arc includes a position from which the attacker
    // would be behind its own target's... own back: 8 is never in an arc.
    for arc in [HERO_ARC, FRONT_ARC, WARRIOR_ARC] {
        assert_eq!(arc & 1 << 8, 0);
    }
}

// ---------------------------------------------------------------- movement

#[test]
fn one_movement_reaches_four_boxes_in_any_combination() {
    let d = arena();
    let reach = Reach::compute(&d, (16, 16), 4, &[], false);
    for dy in -4..=4i16 {
        for dx in -4..=4i16 {
            let steps = reach.walk_steps(16 + dx, 16 + dy).expect("reachable");
            assert_eq!(i16::from(steps), dx.abs().max(dy.abs()));
        }
    }
    assert_eq!(reach.walk_steps(21, 16), None);
    // Not off the display: a counter at x = 37 would hang over the edge.
    let edge = Reach::compute(&d, (34, 16), 4, &[], false);
    assert!(edge.walk_steps(36, 16).is_some());
    assert!(edge.walk_steps(37, 16).is_none());
}

#[test]
fn counters_block_walking_and_can_be_jumped() {
    let d = arena();
    // A line of counters in column 14 from row 0 to row 31: the mover at
    // (10, 12) cannot walk past it, but can jump (8 steps, two movements).
    let line: Vec<(i16, i16)> = (0..8).map(|k| (14, 4 * k)).collect();
    let walk = Reach::compute(&d, (10, 12), 8, &line, false);
    assert_eq!(walk.walk_steps(18, 12), None);
    // Overlapping a counter is never allowed [5.15].
    assert_eq!(walk.walk_steps(11, 12), None);
    assert_eq!(walk.walk_steps(10, 8), Some(4));
    let jump = Reach::compute(&d, (10, 12), 8, &line, true);
    assert_eq!(jump.jump_steps(18, 12), Some(8));
    // A jump may not end on a counter [5.34].
    assert_eq!(jump.jump_steps(14, 12), None);
    // A lone counter at (14, 12) is walked around: no top-left box with
    // x in 11..=17 and y in 9..=15 is allowed, so (10,12) -> (11,8) in 4
    // steps, -> (17,8) in 6, -> (18,9) in 1, -> (18,12) in 3: 14 steps,
    // more than two movements but within four.
    let around = Reach::compute(&d, (10, 12), 16, &[(14, 12)], false);
    assert_eq!(around.walk_steps(18, 12), Some(14));
    let short = Reach::compute(&d, (10, 12), 8, &[(14, 12)], false);
    assert_eq!(short.walk_steps(18, 12), None);
}

/// Writes an open display with these rows as `dir/name.toml`.
fn write_open_display(dir: &Path, name: &str, rows: &[String]) -> PathBuf {
    write_display(dir, name, "open", rows, "")
}

#[test]
fn walls_block_and_doors_open() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut rows: Vec<String> = (0..12).map(|_| "a....#......".to_string()).collect();
    rows[11] = "b....#......".to_string();
    rows[6] = "a....+......".to_string();
    let file = write_open_display(dir.path(), "walled", &rows);
    // No set-up square (the shaded strips are one box wide): an error.
    let e = Display::load(&file).expect_err("no set-up square");
    assert!(e.to_string().contains("set-up square"), "{e}");
    let mut rows: Vec<String> = (0..12).map(|_| "aaaa.#......bbbb".to_string()).collect();
    rows[4] = "aaaa.+......bbbb".to_string();
    rows[5] = "aaaa.+......bbbb".to_string();
    rows[6] = "aaaa.+......bbbb".to_string();
    rows[7] = "aaaa.+......bbbb".to_string();
    let file = write_open_display(dir.path(), "walled", &rows);
    let d = Display::load(&file).expect("loads");
    // The wall in column 5 blocks every counter overlapping it except
    // where the door (rows 4-7) lets a whole counter through.
    let reach = Reach::compute(&d, (1, 4), 8, &[], false);
    assert_eq!(reach.walk_steps(6, 4), Some(5), "through the door");
    // To (6, 0) straight would be 5 steps through the wall; round by the
    // door it is 8: (1,4) -> (5,4) in 4, -> (6,3) in 1, -> (6,0) in 3.
    assert_eq!(reach.walk_steps(6, 0), Some(8), "round by the door");
    let short = Reach::compute(&d, (1, 0), 5, &[], false);
    assert_eq!(short.walk_steps(6, 0), None, "the wall blocks rows 0-3");
    assert!(!d.open(2, 0), "a counter at (2, 0) would overlap the wall");
}

#[test]
fn walking_search_finds_what_a_distance_field_finds_on_a_wide_display() {
    // 150 boxes wide, so a row spans three words of the search's bit rows;
    // walls across the word boundaries with gaps a counter fits through.
    let (w, h) = (150usize, 24usize);
    let wall = |x: usize, y: usize| match x {
        63 | 64 => y % 12 < 8,
        100 => y < 16,
        127 | 128 => y >= 4,
        _ => false,
    };
    let rows: Vec<String> = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| match (x, y) {
                    _ if x < 4 && y < 4 => 'a',
                    _ if x >= w - 4 && y >= h - 4 => 'b',
                    _ if wall(x, y) => '#',
                    _ => '.',
                })
                .collect()
        })
        .collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let d = Display::load(&write_open_display(dir.path(), "wide", &rows)).expect("loads");
    let goals = [(2, 12), (30, 20), (90, 0)];
    let field = d.distance_field(|x, y| goals.contains(&(x, y)));
    let mut scratch = WalkScratch::default();
    for origin in [(140, 10), (131, 0), (70, 2), (10, 18), (101, 19)] {
        for steps in [4u8, 8] {
            let reach = Reach::compute(&d, origin, i16::from(steps), &[], false);
            // Every box but the nearest one accepted, then every box.
            for skip in [true, false] {
                let mut expected: Option<(i16, i16)> = None;
                let mut best = field[d.index(origin.0, origin.1)];
                let mut first = None;
                reach.for_each(steps, false, |x, y, _| {
                    let here = field[d.index(x, y)];
                    if here < best && first.is_none_or(|(_, f)| here < f) {
                        first = Some(((x, y), here));
                    }
                });
                reach.for_each(steps, false, |x, y, _| {
                    let here = field[d.index(x, y)];
                    let accepted = !skip || Some((x, y)) != first.map(|(b, _)| b);
                    if here < best && accepted {
                        best = here;
                        expected = Some((x, y));
                    }
                });
                let found = reach.nearest_walking(
                    &d,
                    false,
                    &[],
                    &goals,
                    (steps, false),
                    &mut scratch,
                    |x, y| !skip || Some((x, y)) != first.map(|(b, _)| b),
                );
                assert_eq!(
                    found.to().map(|(x, y, _)| (x, y)),
                    expected,
                    "from {origin:?} in {steps} steps, skipping the nearest: {skip}"
                );
                // On a display without walls a walk always leads to him:
                // finding nothing means nothing is nearer.
                if expected.is_none() {
                    assert_eq!(found, Walked::Stay, "from {origin:?} in {steps} steps");
                }
            }
        }
    }
}

#[test]
fn a_fighter_closes_on_a_doorway_shut_by_two_enemies() {
    // Two warriors side by side just inside the south-middle room of the
    // house fill its four-box doorway (columns 22-25, row 22) with their
    // counters. No exact position [7.41] round either is open ground on
    // the corridor side, and those inside the room are shut off by the
    // pair; the box straddling both from the corridor, (22, 19), is a
    // position to attack from [7.42].
    let dir = tempfile::tempdir().expect("tempdir");
    let m = load(&write(
        dir.path(),
        "doorway",
        "display = \"house\"\ndiscovered = true",
        &format!(
            "{}{}",
            side("aggressive", "\"red-warrior\""),
            side("aggressive", "{ id = \"red-warrior\", count = 2 }")
        ),
    ));
    let d = m.duel();
    let mut s: State = d.start();
    s.pos[0] = (12, 14);
    (s.pos[1], s.pos[2]) = ((20, 23), (24, 23));
    (s.facing[1], s.facing[2]) = (NORTH, NORTH);
    let mut scratch = WalkScratch::default();
    let reach = Reach::compute(&d.display, s.pos[0], 4, &[s.pos[1], s.pos[2]], false);
    let exact: Vec<(i16, i16)> = [1, 2]
        .iter()
        .flat_map(|&t| {
            (1..=8u8).map(move |n| {
                let (ox, oy) = offset_of_position(n, NORTH);
                (s.pos[t].0 + ox, s.pos[t].1 + oy)
            })
        })
        .collect();
    let no_way = reach.nearest_walking(
        &d.display,
        false,
        &[s.pos[1], s.pos[2]],
        &exact,
        (4, false),
        &mut scratch,
        |_, _| true,
    );
    assert_eq!(no_way, Walked::NoWay, "the exact positions are shut off");
    let mut dice = Dice::for_trial(1, 0);
    let action = Policy::Aggressive.choose(d, &s, 0, &mut dice);
    let gap = |(x, y): (i16, i16)| (x - 22).abs().max((y - 19).abs());
    assert!(
        gap(action.to) == gap(s.pos[0]) - 4,
        "a full movement towards the straddling box: {action:?}"
    );
    // Standing there, he attacks the pair from where he stands.
    s.pos[0] = (22, 19);
    let action = Policy::Aggressive.choose(d, &s, 0, &mut dice);
    assert_eq!(action.to, (22, 19));
    assert!(action.target.is_some(), "{action:?}");
}

#[test]
fn a_fighter_walks_to_the_box_touching_his_enemy_not_round_by_another_door() {
    // A red warrior just inside the north-middle room of the house, facing
    // west, half across its doorway to the corridor (columns 22-25, row
    // 13); John Carter in the corridor. The exact positions [7.41] round
    // the warrior on the corridor side are wall or shut by his counter:
    // the nearest open one is west of him, by the north-west room and its
    // door. The box straddling the doorway beside him, (22, 13), touches
    // him [7.42], a few boxes from John Carter: he goes there, not round
    // by the other door (where the warrior, walking to him the same way,
    // would go round the other way, and so on to the turn limit).
    let dir = tempfile::tempdir().expect("tempdir");
    let m = load(&write(
        dir.path(),
        "round",
        "display = \"house\"\ndiscovered = true",
        &format!(
            "{}{}",
            side("aggressive", "\"john-carter\""),
            side("aggressive", "\"red-warrior\"")
        ),
    ));
    let d = m.duel();
    let mut s: State = d.start();
    s.pos[0] = (15, 14);
    s.pos[1] = (21, 9);
    (s.facing[0], s.facing[1]) = (EAST, WEST);
    s.melee_joined = true;
    let mut dice = Dice::for_trial(1, 0);
    let action = Policy::Aggressive.choose(d, &s, 0, &mut dice);
    let (dx, dy) = (action.to.0 - s.pos[1].0, action.to.1 - s.pos[1].1);
    assert!(
        dx.abs().max(dy.abs()) == 4 && action.to.1 >= 13,
        "to a box touching the warrior on the corridor side: {action:?}"
    );
    // The warrior, likewise, steps out to the box touching John Carter.
    s.facing[0] = NORTH;
    let action = Policy::Aggressive.choose(d, &s, 1, &mut dice);
    assert!(
        action.to.1 >= 10,
        "towards the corridor, not the west door: {action:?}"
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn no_bundled_duel_reaches_its_turn_limit() {
    // Fighters who walk round each other by different doors, stand in each
    // other's way to the one box beside a doorway, or lie across it, or a
    // villain making for an exit whose way is shut, once kept duels going
    // to the turn limit. Every bundled duel now ends: 5,000 trials of each
    // at seed 1 (random-vs-random-ambush, whose random walkers may take
    // thousands of turns to meet, runs to 10,000).
    let dir = common::bundled("jc/duel");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the bundled duels")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    names.sort();
    assert!(names.len() >= 15, "{names:?}");
    for path in names {
        let m = load(&path);
        let t = common::tally(&m, 1, 0..5_000, 2, 256);
        assert_eq!(
            t.outcomes[usize::from(OUT_UNDECIDED)],
            0,
            "{}: a duel reached its {} turns",
            path.display(),
            m.duel().max_turns
        );
    }
}

#[test]
fn hero_john_carter_and_leaper_movement_allowances() {
    let m = duel_of(&format!(
        "{}{}",
        side(
            "aggressive",
            "\"john-carter\", \"carthoris\", \"tars-tarkas\""
        ),
        side("aggressive", "\"red-warrior\"")
    ));
    let duel = m.duel();
    let mut s: State = duel.start();
    // [5.31] John Carter: three movements, four once per duel.
    assert_eq!(duel.movements(&s, 0), (3, Some(4)));
    // [5.32] Carthoris: three until engaged.
    assert_eq!(duel.movements(&s, 1), (3, None));
    // [5.2] Tars Tarkas: hero movement, two.
    assert_eq!(duel.movements(&s, 2), (2, None));
    // A warrior: one [5.14].
    assert_eq!(duel.movements(&s, 3), (1, None));
    s.used_extra[0] = true;
    assert_eq!(duel.movements(&s, 0), (3, None));
    // Carthoris engaged: two, three once more.
    s.engaged[1] = true;
    assert_eq!(duel.movements(&s, 1), (2, Some(3)));
    // [5.21] next to an enemy: one movement only.
    s.pos[3] = (s.pos[0].0, s.pos[0].1 + 4);
    assert_eq!(duel.movements(&s, 0), (1, None));
    // [7.21] before melee is joined no one moves away from the enemy.
    assert_eq!(
        s.pos[2].1, 4,
        "Tars Tarkas in the front row of the top area"
    );
    assert!(!duel.keeps_closing(&s, 2, (s.pos[2].0, 0)));
    s.melee_joined = true;
    assert!(duel.keeps_closing(&s, 2, (s.pos[2].0, 0)));
}

// ---------------------------------------------------------------- the model

pub(super) fn tally(m: &JcDuel, trials: u64, threads: usize) -> Tally {
    common::tally(m, 11, 0..trials, threads, 1024)
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn identical_for_one_two_and_three_threads() {
    for name in [
        "john-carter-vs-4-warriors-in-the-arena",
        "random-vs-random-ambush",
    ] {
        let m = bundled(name);
        let one = tally(&m, 2500, 1);
        assert_eq!(one, tally(&m, 2500, 2), "{name}");
        assert_eq!(one, tally(&m, 2500, 3), "{name}");
    }
}

#[test]
fn a_replayed_duel_matches_the_bulk_run() {
    let m = bundled("ambush");
    common::assert_replays_match_bulk(&m, 5, 1500, 256, &[0, 3, 999], "7.61");
}

#[test]
fn calibration_targets_of_the_roster() {
    // John Carter beats four warriors of Mars; a lone warrior rarely beats
    // a hero (the roster's calibration targets).
    let jc = tally(&bundled("john-carter-vs-4-warriors-in-the-arena"), 3000, 2);
    let rate = |t: &Tally, o: u16| t.outcomes[usize::from(o)] as f64 / t.trials() as f64;
    assert!(rate(&jc, OUT_FIRST_WINS) > 0.6, "{:?}", jc.outcomes);
    let lone = tally(&bundled("lone-warrior-vs-carthoris"), 3000, 2);
    assert!(rate(&lone, OUT_SECOND_WINS) < 0.1, "{:?}", lone.outcomes);
    // More warriors, worse odds for the Warlord.
    let six = tally(&bundled("john-carter-vs-6-warriors-in-the-arena"), 3000, 2);
    assert!(rate(&six, OUT_FIRST_WINS) < rate(&jc, OUT_FIRST_WINS));
}

#[test]
fn every_duel_ends_with_one_side_down_and_consistent_metrics() {
    let m = bundled("john-carter-vs-4-warriors-in-the-arena");
    for i in 0..300 {
        let mut dice = Dice::for_trial(3, i);
        let r = m.run_trial(&mut dice, &mut barsoom::engine::NoTrace);
        // survivors_a + heroes_unconscious_a = 1 (John Carter ends one way
        // or the other); the loser has no one standing.
        assert_eq!(r.metrics[1] + r.metrics[5], 1, "trial {i}");
        match r.outcome {
            OUT_FIRST_WINS => assert_eq!(r.metrics[2], 0),
            OUT_SECOND_WINS => assert_eq!(r.metrics[1], 0),
            _ => panic!("undecided"),
        }
        // Kills of the warriors equal John Carter's knock-out.
        let warrior_kills: u32 = r.metrics[9..13].iter().sum();
        assert_eq!(warrior_kills, r.metrics[5]);
        assert_eq!(
            r.metrics[8],
            4 - r.metrics[2],
            "JC killed every fallen warrior"
        );
    }
}

// ---------------------------------------------------------------- bad input

#[test]
fn bad_scenarios_are_one_line_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cwd = dir.path();
    let unknown = write(
        cwd,
        "unknown",
        "display = \"arena\"",
        &format!(
            "{}{}",
            side("aggressive", "\"john-carterr\""),
            side("aggressive", "\"red-warrior\"")
        ),
    );
    common::assert_bad_input(
        &["run", unknown.to_str().expect("utf8"), "-n", "10"],
        cwd,
        &["unknown.toml", "sides[0].characters[0]", "john-carter"],
    );
    // A data folder with a small display: two set-up squares a side.
    let small = cwd.join("small-data");
    std::fs::create_dir_all(small.join("displays")).expect("mkdir");
    for f in ["characters.toml", "duel-rules.toml", "duel-specials.toml"] {
        std::fs::copy(jc_data().join(f), small.join(f)).expect("copy");
    }
    let rows: Vec<String> = (0..16)
        .map(|y| {
            if y < 4 {
                "aaaaaaaa"
            } else if y >= 12 {
                "bbbbbbbb"
            } else {
                "........"
            }
            .to_string()
        })
        .collect();
    write_open_display(&small.join("displays"), "pit", &rows);
    let crowded = cwd.join("crowded.toml");
    std::fs::write(
        &crowded,
        format!(
            "model = \"jc.duel\"\ndescription = \"test\"\ndata = {:?}\ndisplay = \"pit\"\n{}{}",
            small.display().to_string(),
            side("aggressive", "\"john-carter\""),
            side("aggressive", "{ id = \"red-warrior\", count = 3 }")
        ),
    )
    .expect("write scenario");
    common::assert_bad_input(
        &["run", crowded.to_str().expect("utf8"), "-n", "10"],
        cwd,
        &[
            "crowded.toml",
            "sides[1].characters",
            "expected at most 2 characters",
            "pit",
        ],
    );
    let cases: [(&str, &str, &str, &str, &[&str]); 5] = [
        (
            "too-many",
            "display = \"arena\"",
            "{ id = \"red-warrior\", count = 9 }",
            "{ id = \"red-warrior\", count = 9 }",
            &["too-many.toml", "at most 16 characters"],
        ),
        (
            "policy",
            "display = \"arena\"",
            "\"john-carter\"",
            "\"red-warrior\"",
            &["sides[0].policy", "patient"],
        ),
        (
            "display",
            "display = \"moon\"",
            "\"john-carter\"",
            "\"red-warrior\"",
            &["display", "arena", "\"moon\""],
        ),
        (
            "place",
            "display = \"arena\"",
            "{ id = \"john-carter\", at = [38, 0] }",
            "\"red-warrior\"",
            &["sides[0].characters[0].at", "4x4 counter"],
        ),
        (
            "personages",
            "display = \"arena\"",
            "\"dejah-thoris\"",
            "\"red-warrior\"",
            &["sides", "combat values"],
        ),
    ];
    for (name, top, a, b, expected) in cases {
        let policy = if name == "policy" {
            "cunning"
        } else {
            "aggressive"
        };
        let path = write(
            cwd,
            name,
            top,
            &format!("{}{}", side(policy, a), side("aggressive", b)),
        );
        common::assert_bad_input(
            &["run", path.to_str().expect("utf8"), "-n", "10"],
            cwd,
            expected,
        );
    }
}

#[test]
fn bundled_scenarios_validate_and_run_from_the_cli() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = common::bundled("jc/duel/ambush.toml");
    let out = dir.path().join("out");
    let o = common::barsoom_ok(
        &[
            "run",
            path.to_str().expect("utf8"),
            "-n",
            "2000",
            "--json",
            "-q",
            "--out",
            out.to_str().expect("utf8"),
        ],
        dir.path(),
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("won by Three green warriors"), "{text}");
    let o = common::barsoom_ok(
        &[
            "run",
            path.to_str().expect("utf8"),
            "--replay",
            "2",
            "--trace",
        ],
        dir.path(),
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("JC 7.61") || text.contains("JC 7.5"),
        "{text}"
    );
    assert!(text.contains("JC 5.1 movement"), "{text}");
}

#[test]
fn the_one_movement_bitboard_search_agrees_with_the_general_one() {
    // Radius 4 runs on a 9x9 bitboard, radius 5 on the general search; a
    // path of at most 4 steps never leaves the 9x9 window, so the two agree
    // on every box within 4 steps, whatever counters stand around.
    let d = arena();
    let layouts: [&[(i16, i16)]; 4] = [
        &[(14, 12)],
        &[(14, 8), (14, 12), (6, 16)],
        &[(11, 8), (7, 13), (13, 15), (9, 5)],
        &[(10, 8), (10, 16), (6, 12), (14, 12)],
    ];
    for others in layouts {
        let small = Reach::compute(&d, (10, 12), 4, others, false);
        let large = Reach::compute(&d, (10, 12), 5, others, false);
        for y in 8..=16 {
            for x in 6..=14 {
                let expected = large.walk_steps(x, y).filter(|s| *s <= 4);
                assert_eq!(small.walk_steps(x, y), expected, "{others:?} at ({x}, {y})");
            }
        }
    }
}

#[test]
fn the_shortcut_search_from_afar_agrees_with_the_full_reach() {
    // `first_within_one_movement` reads the free boxes and proves a box
    // reachable by a free shortest path before it spreads the reach; on
    // any layout it must pick the box the full reach picks.
    let d = arena();
    let origin = (16, 16);
    let mut seed = 0x2545_f491_u64;
    let mut next = |below: i16| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((seed >> 33) % below as u64) as i16
    };
    let mut walked_round = 0;
    for _ in 0..3000 {
        let others: Vec<(i16, i16)> = (0..1 + next(6))
            .map(|_| (origin.0 - 8 + next(17), origin.1 - 8 + next(17)))
            .collect();
        let centres: Vec<(i16, i16)> = (0..1 + next(3))
            .map(|_| (origin.0 - 14 + next(29), origin.1 - 14 + next(29)))
            .collect();
        let gap = centres
            .iter()
            .map(|&(x, y)| (x - origin.0).abs().max((y - origin.1).abs()))
            .min()
            .unwrap_or(0);
        let ds = (gap - 4).max(0)..gap;
        let reach = Reach::compute(&d, origin, 4, &others, false);
        let expected = ds
            .clone()
            .find_map(|k| reach.first_within(4, false, &centres[..], k))
            .map(|(x, y, _)| (x, y));
        let got =
            Reach::first_within_one_movement(&d, origin, &others[..], false, &centres[..], ds);
        assert_eq!(got, expected, "others {others:?}, centres {centres:?}");
        if let Some((x, y)) = got {
            let straight = (x - origin.0).abs().max((y - origin.1).abs());
            walked_round += usize::from(reach.walk_steps(x, y) > Some(straight as u8));
        }
    }
    // The layouts include boxes reached only round a counter.
    assert!(walked_round > 0);
}
