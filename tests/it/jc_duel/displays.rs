//! `jc.duel` on the displays other than the arena: areas, walls and
//! doorways of each display, the policies there, and the lines of
//! discovery [6.22]. Split from `open_display`, whose helpers it shares.

use barsoom::engine::Dice;
use barsoom::games::jc::duel::geometry::{
    Area, Display, DisplayKind, EAST, NORTH, Reach, SOUTH, WEST,
};
use barsoom::games::jc::duel::melee::MeleeRules;
use barsoom::games::jc::duel::roster::Class;
use barsoom::games::jc::duel::sequence::State;

use super::open_display::{arena, duel_of, side, tally};
use super::{assert_bad_display, bundled, display, load, rules, write_display};
use crate::common;
use crate::common::write_jc_duel as write;

// ------------------------------------------------- displays other than the arena

/// The area of `d` called `name`.
fn area<'a>(d: &'a Display, name: &str) -> &'a Area {
    d.areas
        .iter()
        .find(|a| a.name == name)
        .unwrap_or_else(|| panic!("no area {name} on {}", d.name))
}

#[test]
fn every_display_loads_with_its_kind_and_set_up_areas() {
    for (name, kind) in [
        ("arena", DisplayKind::Open),
        ("street", DisplayKind::Street),
        ("flier", DisplayKind::Flier),
        ("house", DisplayKind::House),
        ("palace", DisplayKind::Palace),
    ] {
        let d = display(name);
        assert_eq!(d.kind, kind, "{name}");
        assert!(!d.setup[0].is_empty() && !d.setup[1].is_empty(), "{name}");
    }
    // The street's north end: rows 0-7 between the house fronts at columns
    // 0 and 23, so counters at x = 1, 5, 9, 13, 17 (21 would overlap the
    // wall at 23) in two rows: 10 squares, the row nearer the middle (y = 4)
    // and the column nearest the middle (x = 9, centre 10) first.
    let street = display("street");
    let north = area(&street, "north end");
    assert_eq!(north.squares.len(), 10);
    assert_eq!(north.squares[0], (9, 4));
    assert!(north.entrance && north.exit);
    assert_eq!(area(&street, "south end").squares[0], (9, 72));
    // The palace's warrior areas hold two each [7.25].
    let palace = display("palace");
    assert_eq!(area(&palace, "shaded area B").capacity, Some(2));
    assert!(area(&palace, "throne room").room);
}

#[test]
fn doorway_deck_to_deck_and_up_ramp_melee_is_obstructed() {
    // [7.34] House: the doorway of the north-west room is columns 5-8 of
    // row 13. A counter at (5, 10) stands in it (rows 10-13); one at (5, 14)
    // is in the corridor just outside.
    let house = display("house");
    assert!(house.obstructed((5, 14), (5, 10)));
    assert!(house.obstructed((5, 10), (5, 14)));
    assert!(
        !house.obstructed((12, 14), (16, 14)),
        "both in the corridor"
    );
    assert!(house.in_room(5, 1) && !house.in_room(5, 10) && !house.in_room(12, 14));
    // Flier: deck 1 is columns 8-19 (sky west of it), the shaded gap 20-23
    // (rows 10-29), deck 2 from 24. (18, 12) covers deck 1 and the gap,
    // (22, 12) the gap and deck 2: deck to deck. (20, 12) stands wholly in
    // the gap.
    let flier = display("flier");
    assert_eq!(flier.decks(18, 12), 1);
    assert_eq!(flier.decks(22, 12), 2);
    assert_eq!(flier.decks(20, 12), 0);
    assert!(flier.obstructed((18, 12), (22, 12)));
    assert!(!flier.obstructed((12, 12), (16, 12)), "same deck");
    assert!(!flier.obstructed((18, 12), (20, 12)), "the gap is no deck");
    // Palace: the ramp (columns 52-59, rows 9-19) has its arrows pointing
    // south, down towards the corridor. Striking north is up the ramp.
    let palace = display("palace");
    assert!(palace.obstructed((52, 14), (52, 10)), "up the ramp");
    assert!(!palace.obstructed((52, 10), (52, 14)), "down the ramp");
    assert!(!palace.obstructed((52, 10), (56, 10)), "across the ramp");
    // The arena has none of these.
    assert!(!arena().obstructed((16, 16), (16, 20)));
}

#[test]
fn the_minus_one_reaches_the_needed_roll() {
    // Air Battle: Kantos Kan (fighter 0, deck 1) strikes a black pirate
    // (fighter 3, deck 2, facing west towards him) across the gap. Kantos
    // Kan stands in the pirate's position 4 (straight ahead), so not behind;
    // he has not moved; the only modifier is deck to deck, -1 [7.34].
    let m = bundled("air-battle");
    let duel = m.duel();
    let mut s: State = duel.start();
    assert_eq!(s.facing[3], WEST);
    s.pos[0] = (18, 12);
    s.pos[3] = (22, 12);
    let kk = duel.fighters[0].at(s.level[0]);
    let pirate = duel.fighters[3].at(s.level[3]);
    let (behind, needed) = duel.needed(&s, 0, 3, (18, 12), false);
    assert!(!behind);
    assert_eq!(needed, MeleeRules::needed(kk.strength, -1, pirate.agility));
    // Both on deck 2's side of the gap: no modifier.
    s.pos[0] = (24, 12);
    s.pos[3] = (28, 12);
    let (_, needed) = duel.needed(&s, 0, 3, (24, 12), false);
    assert_eq!(needed, MeleeRules::needed(kk.strength, 0, pirate.agility));
}

#[test]
fn sides_set_up_on_their_own_decks_facing_each_other() {
    let m = bundled("air-battle");
    let duel = m.duel();
    let flier = &duel.display;
    for f in &duel.fighters {
        let deck = flier.decks(f.start.0, f.start.1);
        assert_eq!(deck, 1 << f.side, "{} on its own deck [7.23]", f.name);
        assert_eq!(f.facing, if f.side == 0 { EAST } else { WEST });
    }
}

#[test]
fn crossing_between_fliers_falls_on_one_to_three() {
    let dir = tempfile::tempdir().expect("tempdir");
    let m = load(&write(
        dir.path(),
        "cross",
        "display = \"flier\"",
        &format!(
            "{}{}",
            side("aggressive", "\"red-warrior\", \"john-carter\""),
            side("aggressive", "\"black-pirate\"")
        ),
    ));
    let duel = m.duel();
    let start = duel.start();
    let trace = &mut barsoom::engine::NoTrace;
    // [5.52] A red warrior steps from deck 1 (18, 12) straight onto deck 2
    // (22, 12): P(fall) = P(d10 <= 3) = 0.3.
    let n = 20_000u64;
    let mut falls = 0u64;
    for i in 0..n {
        let mut s = start;
        s.pos[0] = (22, 12);
        let mut dice = Dice::for_trial(11, i);
        if duel.after_move(&mut s, 0, (18, 12), false, &mut dice, trace) {
            assert_eq!(
                s.status[0],
                barsoom::games::jc::duel::sequence::Status::Dead
            );
            falls += 1;
        }
    }
    let p = falls as f64 / n as f64;
    let se = (0.3f64 * 0.7 / n as f64).sqrt();
    assert!((p - 0.3).abs() < 4.0 * se, "fall rate {p}");
    // Into the shaded gap, wholly: no roll. A hero, or a jump: no roll.
    for (who, from, to, jumped) in [
        (0, (18, 12), (20, 12), false),
        (0, (20, 12), (24, 12), false),
        (1, (18, 12), (22, 12), false),
        (0, (18, 12), (22, 12), true),
    ] {
        let mut s = start;
        s.pos[who] = to;
        let mut dice = Dice::for_trial(11, 0);
        assert!(!duel.after_move(&mut s, who, from, jumped, &mut dice, trace));
        assert_eq!(dice.rolled(), 0, "no roll for {who} {from:?} -> {to:?}");
    }
    // [5.53] John Carter may jump the open sky between the fliers: from
    // (12, 4) on deck 1 to (24, 4) on deck 2 is 12 boxes straight across the
    // sky; walking round by the gap (rows 10-29) takes 18 steps.
    let flier = &duel.display;
    let jump = Reach::compute_for(flier, (12, 4), 12, &[], true, false);
    assert_eq!(jump.jump_steps(24, 4), Some(12));
    assert_eq!(jump.walk_steps(24, 4), None);
}

#[test]
fn restricted_boxes_open_to_the_side_that_kept_away() {
    // [5.57] The arena's restricted boxes include columns 0-3, rows 8-11.
    let d = arena();
    assert!(d.open(0, 8) && !d.open_for(0, 8, false) && d.open_for(0, 8, true));
    assert!(d.near_restricted(4, 8), "touching the block from the east");
    assert!(!d.near_restricted(5, 8));
    let m = duel_of(&format!(
        "{}{}",
        side("aggressive", "\"red-warrior\""),
        side("aggressive", "\"red-warrior\"")
    ));
    let duel = m.duel();
    let trace = &mut barsoom::engine::NoTrace;
    let mut dice = Dice::for_trial(1, 0);
    let mut s: State = duel.start();
    s.pos[0] = (4, 8);
    s.pos[1] = (4, 12);
    // In the first turn, coming next to a restricted box changes nothing.
    s.turn = 1;
    duel.after_move(&mut s, 0, (4, 4), false, &mut dice, trace);
    assert_eq!(s.restricted, 0);
    assert_eq!(duel.reach(&s, 1, 1).walk_steps(0, 9), None);
    // Later, the first side's move next to them opens them to the second
    // side only, for good.
    s.turn = 2;
    duel.after_move(&mut s, 0, (4, 4), false, &mut dice, trace);
    assert_eq!(s.restricted, 2);
    // The first side at (4, 8) may not step west into the block; were it
    // allowed, four steps along row 8 would do.
    assert_eq!(duel.reach(&s, 0, 1).walk_steps(0, 8), None);
    let mut allowed = s;
    allowed.restricted = 1;
    assert_eq!(duel.reach(&allowed, 0, 1).walk_steps(0, 8), Some(4));
    // The second side, with the first out of the way, may.
    s.pos[0] = (16, 0);
    assert_eq!(duel.reach(&s, 1, 1).walk_steps(0, 9), Some(4));
    s.pos[1] = (8, 16);
    duel.after_move(&mut s, 1, (4, 12), false, &mut dice, trace);
    assert_eq!(s.restricted, 2);
}

#[test]
fn street_house_and_palace_set_ups_follow_their_rules() {
    // [7.22] The entering side at the end it chose, the defenders at least
    // 20 boxes from both ends, each side facing the other.
    let m = bundled("street-fight");
    for f in &m.duel().fighters {
        if f.side == 0 {
            assert!(f.start.1 <= 4, "{} at the north end", f.name);
            assert_eq!(f.facing, SOUTH);
        } else {
            assert!(f.start.1 >= 20 && f.start.1 + 3 <= 79 - 20, "{:?}", f.start);
            assert_eq!(f.facing, NORTH);
        }
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let south = load(&write(
        dir.path(),
        "south",
        "display = \"street\"",
        &format!(
            "[[sides]]\nentrance = \"south end\"\ncharacters = [\"tars-tarkas\"]\n{}",
            side("aggressive", "\"red-warrior\"")
        ),
    ));
    assert_eq!(south.duel().fighters[0].start, (9, 72));
    assert_eq!(south.duel().fighters[0].facing, NORTH);
    // [7.24] House: the villain in a room, his warriors outside.
    let house = load(&write(
        dir.path(),
        "house",
        "display = \"house\"\ndiscovered = true",
        &format!(
            "{}{}",
            side("aggressive", "\"carthoris\""),
            side(
                "aggressive",
                "\"vas-kor\", { id = \"red-warrior\", count = 3 }"
            )
        ),
    ));
    let d = &house.duel().display;
    for f in &house.duel().fighters[1..] {
        assert_eq!(
            d.in_room(f.start.0, f.start.1),
            f.class == Class::Villain,
            "{}",
            f.name
        );
    }
    // [7.25] Palace: villains in the throne room, the captain in area A,
    // warriors two by two in B, C and D.
    let palace = load(&write(
        dir.path(),
        "palace",
        "display = \"palace\"\ndiscovered = true",
        &format!(
            "{}{}",
            side("aggressive", "\"john-carter\""),
            side(
                "aggressive",
                "\"matai-shang\", { id = \"red-warrior\", count = 5 }, \"captain-of-the-guard\""
            )
        ),
    ));
    let d = &palace.duel().display;
    let starts: Vec<(i16, i16)> = palace.duel().fighters.iter().map(|f| f.start).collect();
    let within = |p: (i16, i16), name: &str| area(d, name).squares.contains(&p);
    assert!(
        within(starts[0], "main gate"),
        "the first entrance by default"
    );
    assert!(within(starts[1], "throne room"));
    assert!(within(starts[2], "shaded area B") && within(starts[3], "shaded area B"));
    assert!(within(starts[4], "shaded area C") && within(starts[5], "shaded area C"));
    assert!(within(starts[6], "shaded area D"));
    assert!(within(starts[7], "shaded area A"));
}

/// Writes a display file with its full text.
/// A bad display: file name, kind, rows, areas, what the error names.
type LayoutCase<'a> = (&'a str, &'a str, &'a [&'a str], &'a str, &'a [&'a str]);

#[test]
fn invalid_layouts_are_one_line_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let open = ["aaaa", "....", "....", "bbbb"];
    let pit = [
        "aaaa", "aaaa", "aaaa", "aaaa", "....", "bbbb", "bbbb", "bbbb", "bbbb",
    ];
    let exit = "[[areas]]\nmark = \"x\"\nname = \"door\"\nexit = true\n";
    let deck1 = "[[areas]]\nmark = \"a\"\nname = \"deck\"\nside = 1\ndeck = 1\n";
    let twice =
        "[[areas]]\nmark = \"q\"\nname = \"one\"\n[[areas]]\nmark = \"q\"\nname = \"two\"\n";
    let cases: [LayoutCase; 7] = [
        ("kind", "castle", &open, "", &["kind", "\"castle\""]),
        (
            "mark",
            "open",
            &["aaaQ", "....", "....", "bbbb"],
            "",
            &["rows[0]", "'Q'"],
        ),
        ("absent", "open", &pit, exit, &["areas[0].mark", "'x'"]),
        (
            "inner-exit",
            "open",
            &[
                "aaaaaa", "aaaaaa", "aaaaaa", "aaaaaa", "..x...", "bbbbbb", "bbbbbb", "bbbbbb",
                "bbbbbb",
            ],
            exit,
            &["areas[0].exit", "edge"],
        ),
        (
            "sky",
            "open",
            &[
                "aaaa", "aaaa", "aaaa", "aaaa", ".  .", "bbbb", "bbbb", "bbbb", "bbbb",
            ],
            "",
            &["rows[4]", "flier"],
        ),
        ("one-deck", "flier", &pit, deck1, &["areas", "deck = 2"]),
        ("twice", "open", &pit, twice, &["areas[1].mark", "twice"]),
    ];
    for (name, kind, rows, areas, expected) in cases {
        let file = write_display(dir.path(), name, kind, rows, areas);
        assert_bad_display(&file, name, expected);
    }
}

#[test]
fn impossible_set_ups_on_the_displays_are_one_line_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cwd = dir.path();
    let cases: [(&str, &str, &str, &str, &[&str]); 4] = [
        (
            "entrance",
            "display = \"street\"",
            "\"john-carter\"",
            "\"red-warrior\"",
            &["sides[0].entrance", "\"north end\"", "\"west end\""],
        ),
        (
            "crowd",
            "display = \"street\"",
            "{ id = \"red-warrior\", count = 11 }",
            "\"red-warrior\"",
            &["sides[0].characters", "at most 10", "north end"],
        ),
        (
            "villain-outside",
            "display = \"house\"\ndiscovered = true",
            "\"carthoris\"",
            "{ id = \"vas-kor\", at = [16, 14] }",
            &["sides[1].characters", "Vas Kor", "7.24"],
        ),
        (
            "all-inside",
            "display = \"house\"\ndiscovered = true",
            "\"carthoris\"",
            "{ id = \"red-warrior\", at = [1, 1] }, { id = \"red-warrior\", at = [5, 1] }",
            &["sides[1].characters", "at least 1", "found 0"],
        ),
    ];
    for (name, top, a, b, expected) in cases {
        let first = if name == "entrance" {
            format!("[[sides]]\nentrance = \"west end\"\ncharacters = [{a}]\n")
        } else {
            side("aggressive", a)
        };
        let path = write(cwd, name, top, &format!("{first}{}", side("aggressive", b)));
        common::assert_bad_input(
            &["run", path.to_str().expect("utf8"), "-n", "10"],
            cwd,
            expected,
        );
    }
}

#[test]
fn duels_on_the_street_and_the_fliers_are_fought_to_a_finish() {
    for name in ["street-fight", "air-battle"] {
        let m = bundled(name);
        let t = tally(&m, 400, 2);
        let decided = t.outcomes[0] + t.outcomes[1];
        assert!(decided >= 396, "{name}: {:?}", t.outcomes);
        assert!(
            t.outcomes[0] > 0 && t.outcomes[1] > 0,
            "{name}: {:?}",
            t.outcomes
        );
    }
}

// ---------------------------------------------------------------- discovery

#[test]
fn lines_of_discovery_turn_one_corner_or_cross_one_doorway() {
    // [6.22] House: the corridor is rows 14-21; the north-middle room
    // (columns 16-31, rows 1-12) opens on it by the doorway at columns
    // 22-25 of row 13.
    let house = display("house");
    let from_door = house.discovery_lines((22, 14));
    let at = |lines: &Vec<bool>, x: i16, y: i16| lines[house.index(x, y)];
    assert!(at(&from_door, 22, 5), "straight through one doorway");
    assert!(at(&from_door, 40, 14), "straight along the corridor");
    assert!(at(&from_door, 40, 18), "one corner in the corridor");
    assert!(!at(&from_door, 16, 5), "a doorway and a corner");
    let from_corridor = house.discovery_lines((16, 14));
    assert!(!at(&from_corridor, 22, 5), "a corner and a doorway");
    assert!(at(&from_corridor, 30, 18), "one corner");
    // Rooms and corridors [6.23]: the corridor and the room differ.
    assert_ne!(house.region_of(22, 14), house.region_of(22, 5));
    assert_eq!(house.region_of(22, 14), house.region_of(40, 18));
}

#[test]
fn a_discovery_check_by_hand() {
    // A red warrior of Mars (alertness B) in the corridor at (22, 14);
    // Carthoris (alertness A) steals about the house.
    let dir = tempfile::tempdir().expect("tempdir");
    let m = load(&write(
        dir.path(),
        "watch",
        "display = \"house\"",
        &format!(
            "{}{}",
            side("aggressive", "{ id = \"carthoris\", at = [22, 5] }"),
            side("aggressive", "{ id = \"red-warrior\", at = [22, 14] }")
        ),
    ));
    let duel = m.duel();
    let mut s: State = duel.start();
    assert!(!s.discovered, "a house duel starts undiscovered [7.24]");
    assert_eq!(duel.fighters[1].at(s.level[1]).alertness, 1, "B");
    assert_eq!(duel.fighters[0].at(s.level[0]).alertness, 0, "A");
    // In the room beyond the doorway: a line, but not the same four walls,
    // so Outside Room, B against A: 1 [6.23, 6.4].
    let outside = rules().discovery[1][1][0];
    assert_eq!(outside, 1);
    assert_eq!(duel.discovery_number(&s, 1), Some(outside));
    // In the corridor round one corner: In Room, B against A: 4.
    s.pos[0] = (30, 18);
    assert_eq!(duel.discovery_number(&s, 1), Some(4));
    // Round a corner and through a doorway: no check at all [6.22].
    s.pos[0] = (16, 5);
    assert_eq!(duel.discovery_number(&s, 1), None);
    // The check succeeds on a d10 at most the number [6.24]: 1 in 10 and
    // 4 in 10.
    let trace = &mut barsoom::engine::NoTrace;
    for (pos, p) in [((22, 5), 0.1), ((30, 18), 0.4)] {
        let n = 20_000u64;
        let mut found = 0u64;
        for i in 0..n {
            let mut t = duel.start();
            t.pos[0] = pos;
            let mut dice = Dice::for_trial(5, i);
            duel.discovery_check(&mut t, &mut dice, trace);
            found += u64::from(t.discoverers == 1 << 1);
        }
        let rate = found as f64 / n as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert!((rate - p).abs() < 4.0 * se, "{pos:?}: {rate}");
    }
    let mut t = duel.start();
    t.pos[0] = (16, 5);
    let mut dice = Dice::for_trial(5, 0);
    duel.discovery_check(&mut t, &mut dice, trace);
    assert_eq!(dice.rolled(), 0, "no line, no roll");
}

#[test]
fn defenders_do_nothing_until_the_attackers_are_discovered() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = common::bundled("jc/duel/unmasking-the-villain.toml");
    let defenders = ["Vas Kor ", "Astok ", "Red warrior of Mars "];
    for trial in 1..=12 {
        let text = common::trace_of(&path, trial, dir.path());
        let mut discovered = false;
        for line in text.lines() {
            // The discoverers act in phase E, before the alarm [6.31].
            if line.contains("discovers the attackers") || line.ends_with(": discovered") {
                discovered = true;
            }
            if !discovered && let Some((_, what)) = line.split_once("] ") {
                assert!(
                    !defenders.iter().any(|d| what.starts_with(d))
                        || line.contains("JC 6.1")
                        || line.contains("JC 6.24"),
                    "trial {trial}: a defender acts before discovery: {line}"
                );
            }
        }
    }
    let m = bundled("unmasking-the-villain");
    let t = tally(&m, 400, 2);
    // The last metric is the turn of discovery; every duel here is found
    // out (the intruders must cross the defended corridor), never in turn 0.
    let discovered_in = &t.metrics[t.metrics.len() - 1];
    assert!(
        discovered_in.bins().all(|(turn, _)| turn >= 1),
        "{:?}",
        discovered_in.bins().collect::<Vec<_>>()
    );
    assert!(t.outcomes[0] + t.outcomes[1] > 300, "{:?}", t.outcomes);
}

#[test]
fn the_discovery_matrices_are_their_formula_and_say_so() {
    // [6.4] reconstructed: with alertness A, B, C as 0, 1, 2, In Room is
    // 5 + attacker - defender and Outside Room three less; the provenance
    // gives the formula and the fixed points of [6.23, 6.24].
    let data = common::jc_data_toml("duel-rules.toml");
    let in_room = common::toml_grid(&data["discovery"]["in_room"]);
    let outside = common::toml_grid(&data["discovery"]["outside_room"]);
    for defender in 0..3 {
        for attacker in 0..3 {
            let cell = 5 + attacker as i64 - defender as i64;
            assert_eq!(in_room[defender][attacker], cell);
            assert_eq!(outside[defender][attacker], cell - 3);
        }
    }
    common::assert_provenance_states(
        &data,
        "discovery",
        &[
            "in_room = 5 + attacker - defender",
            "outside_room = in_room - 3",
            "[6.23]",
            "[6.24]",
            "--set discovery.in_room[i][j]=n",
            "--set discovery.outside_room[i][j]=n",
        ],
    );
}
