//! `races.game`, the six races of Mars hex wargame: hand-worked cases for
//! every table and rule with scripted dice, termination, determinism across
//! threads, the players, the map's bitboards, and one-line errors for bad
//! set-ups (of `races.battle` scenarios and the shared data too). One
//! battle alone (`races.battle`) is in `races_battle`.
//!
//! The die faces map to the attributes as `faces` in
//! `scenarios/races/data/races.toml` lists them (the Random Attribute
//! Determination Table): faces 1-9 one attribute each, 10 a reroll.

use barsoom::games::ScenarioModel;
use barsoom::scenario::Load;
use std::path::{Path, PathBuf};

use barsoom::engine::{NoTrace, RunConfig, run};
use barsoom::games::races::data::{Face, RacesData};
use barsoom::games::races::game::{
    Ending, Game, RacesGame, command_dice, command_points, flat_terrain_table, initiative_order,
    recruits, roll_terrain,
};
use barsoom::games::races::map::{HexMap, NO_HEX, NO_HEXES, set_insert};

use crate::common;
use crate::common::ScriptedDice;

const SPEED: u8 = 0;
const HAND_TO_HAND: u8 = 3;
const ARMOR: u8 = 4;
const ARTILLERY: u8 = 5;
const NUMBERS: u8 = 6;
const MORALE: u8 = 8;

fn data_dir() -> PathBuf {
    common::root().join("scenarios/races/data")
}

fn data() -> RacesData {
    RacesData::load(&data_dir()).unwrap_or_else(|e| panic!("{e}"))
}

/// Writes a `races.game` scenario whose body is `body`.
fn write_game(dir: &Path, name: &str, body: &str) -> PathBuf {
    common::write_scenario(dir, name, "races.game", &data_dir(), body)
}

fn load_game(path: &Path) -> RacesGame {
    match RacesGame::load(path) {
        Ok((m, _)) => m,
        Err(e) => panic!("{e}"),
    }
}

/// A one-row fixed map with the given hexes, and two players' stacks.
fn strip(hexes: &str, first: &str, second: &str) -> RacesGame {
    let dir = tempfile::tempdir().expect("tempdir");
    let width = hexes.split_whitespace().count();
    let body = format!(
        "max_turns = 5\n[map]\nwidth = {width}\nheight = 1\nrows = [\"{hexes}\"]\n[victory]\nhold = 0\nhold_turns = 1\n\
         [[players]]\n{first}\n[[players]]\n{second}\n"
    );
    load_game(&write_game(dir.path(), "strip", &body))
}

// ---------------------------------------------------------------- tables

#[test]
fn attribute_table_race_table_and_variants_carry_the_rules_numbers() {
    let d = data();
    let values = |id: &str| d.kinds[d.kind(id).expect("kind")].values;
    // The race table's d6 order: green, red, white, blue, yellow, black.
    let order: Vec<&str> = d.races.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(order, ["green", "red", "white", "blue", "yellow", "black"]);
    assert_eq!(values("green"), [3, 5, 4, 5, 0, 0, 2, 0, 5]);
    assert_eq!(values("blue"), [5, 1, 6, 1, 2, 0, 1, 5, 3]);
    assert_eq!(values("black"), [1, 3, 4, 3, 5, 3, 3, 0, 2]);
    for r in &d.races {
        assert_eq!(r.values.iter().map(|v| i32::from(*v)).sum::<i32>(), 24);
    }
    // Red Commandos: armor 4-4, artillery 5-2, surprise 1+2, small arms
    // 3+2, hand to hand 2+2.
    assert_eq!(values("red-commandos"), [4, 5, 3, 4, 0, 3, 3, 0, 2]);
    // Green Beetle Tanks: armor 0+2, artillery 0+3, speed 3+1, hand to
    // hand 5-4, small arms 5-2.
    assert_eq!(values("green-beetle-tanks"), [4, 3, 4, 1, 2, 3, 2, 0, 5]);
    assert_eq!(values("yellow-wasp-riders"), [5, 2, 3, 4, 2, 2, 3, 1, 2]);
    assert_eq!(values("blue-mob"), [5, 1, 4, 1, 2, 0, 3, 5, 3]);
    assert_eq!(values("black-warlocks"), [1, 3, 4, 3, 3, 0, 3, 3, 4]);
    // A shift of 7 points, or one that does not cancel, is no variant.
    let mut shift = [0i8; 9];
    shift[0] = 4;
    shift[1] = 3;
    shift[4] = -4;
    shift[5] = -3;
    assert!(d.shifted(1, &shift).unwrap_err().contains("7"));
    shift = [0; 9];
    shift[0] = 1;
    assert!(d.shifted(1, &shift).unwrap_err().contains("cancel"));
    shift = [0; 9];
    shift[7] = -1; // Red has no psionics to give.
    shift[0] = 1;
    assert!(d.shifted(1, &shift).unwrap_err().contains("below 0"));
}

#[test]
fn terrain_tables_read_face_by_face() {
    let d = data();
    let tables: Vec<_> = d.tables.iter().map(|t| t.faces.clone()).collect();
    let roll = |faces: &[u32]| {
        let mut s = ScriptedDice::new(faces);
        let t = roll_terrain(&tables, &mut s);
        assert!(s.all_used(), "{faces:?}");
        d.terrain[t].id.clone()
    };
    for (faces, expected) in [
        (&[1][..], "barren"),
        (&[3], "barren"),
        (&[4], "impassable"),
        (&[6], "impassable"),
        (&[7, 1], "flats"),
        (&[8, 4], "hills"),
        (&[9, 9], "desert"),
        (&[7, 10, 1], "fortifications"), // beneficial 10 rolls a settlement
        (&[10, 2], "dojo"),
        (&[10, 6], "farms"),
        (&[10, 7], "farms"),
        (&[10, 9], "city"),
        (&[10, 10], "ruins"),
    ] {
        assert_eq!(roll(faces), expected, "{faces:?}");
    }
    let fort = &d.terrain[d.terrain_index("fortifications").expect("fort")];
    assert_eq!((fort.in_hex[4], fort.in_hex[5]), (5, 2));
    let factory = &d.terrain[d.terrain_index("vehicle-factory").expect("factory")];
    assert_eq!((factory.all_units[0], factory.all_units[4]), (1, 1));
}

#[test]
fn one_draw_from_the_flattened_terrain_tables_has_the_chained_chances_exactly() {
    let d = data();
    let tables: Vec<_> = d.tables.iter().map(|t| t.faces.clone()).collect();
    // hex -> beneficial -> settlement: three tables, 1,000 outcomes.
    assert_eq!(d.hex_chain, 3);
    let flat = flat_terrain_table(&tables, d.hex_chain);
    assert_eq!(flat.len(), 1000);
    // Each terrain's chance walking the tables face by face (a sequence
    // of n faces has chance 10^-n), in thousandths.
    fn walk(tables: &[Vec<Face>], table: usize, weight: u32, out: &mut [u32]) {
        for face in &tables[table] {
            match face {
                Face::Terrain(t) => out[*t] += weight / 10,
                Face::Roll(next) => walk(tables, *next, weight / 10, out),
            }
        }
    }
    let mut chained = vec![0; d.terrain.len()];
    walk(&tables, 0, 1000, &mut chained);
    let mut drawn = vec![0; d.terrain.len()];
    for t in &flat {
        drawn[usize::from(*t)] += 1;
    }
    assert_eq!(drawn, chained);
    // By hand: barren and impassable 3/10 each; each beneficial terrain
    // 3/10 x 1/10; each settlement face 1/10 x 1/10 from the hex table
    // plus 3/10 x 1/10 x 1/10 from the beneficial table (farms has two).
    let count = |id: &str| drawn[d.terrain_index(id).expect("terrain")];
    assert_eq!(count("barren"), 300);
    assert_eq!(count("impassable"), 300);
    assert_eq!(count("hills"), 30);
    assert_eq!(count("city"), 13);
    assert_eq!(count("ruins"), 13);
    assert_eq!(count("farms"), 26);
    // Outcome x reads its digits, lowest first, as the faces: 9 is hex
    // face 10 then settlement face 1 (fortifications); 416 is hex face
    // 7, beneficial face 2 (forest).
    assert_eq!(
        usize::from(flat[9]),
        d.terrain_index("fortifications").expect("fort")
    );
    assert_eq!(
        usize::from(flat[416]),
        d.terrain_index("forest").expect("forest")
    );
}

// ---------------------------------------------------------------- rules

#[test]
fn command_points_round_the_dice_up_and_add_leaders() {
    assert_eq!(command_dice(1, 10), 1);
    assert_eq!(command_dice(10, 10), 1);
    assert_eq!(command_dice(11, 10), 2);
    assert_eq!(command_dice(15, 10), 2);
    assert_eq!(command_dice(20, 10), 2);
    assert_eq!(command_dice(21, 10), 3);
    // 10 warbands and 5 leaders: 15 units, two d10 (3 and 9), plus 5.
    let mut s = ScriptedDice::new(&[3, 9]);
    assert_eq!(command_points(15, 5, 10, &mut s), 17);
    assert!(s.all_used());
}

#[test]
fn initiative_adds_leaders_and_rerolls_ties() {
    // Player 0 has 5 leaders: 3 + 5 = 8 ties player 1's 8; the reroll
    // 1 + 5 = 6 beats 2.
    let mut order = [0u8, 1];
    let mut s = ScriptedDice::new(&[3, 8, 1, 2]);
    initiative_order(&mut s, &[5, 0], &mut order);
    assert_eq!(order, [0, 1]);
    assert!(s.all_used());
    // Three players: 9 goes first, the tied 5s roll again among themselves.
    let mut order = [0u8, 1, 2];
    let mut s = ScriptedDice::new(&[5, 5, 9, 2, 7]);
    initiative_order(&mut s, &[0, 0, 0], &mut order);
    assert_eq!(order, [2, 1, 0]);
    assert!(s.all_used());
}

#[test]
fn the_sample_combat_and_the_next_warband_rule() {
    // Blue on top of Yellow between two White warbands. Blue attacks the
    // east White and is slain in hand to hand; Yellow, next in the stack,
    // attacks and wins on artillery; having attacked, it stops.
    let m = strip(
        ". . .",
        "player = \"greedy\"\nthreshold = 0.0\nstacks = [{ at = [1, 0], warbands = [\"blue\", \"yellow\"] }]",
        "player = \"random\"\nstacks = [{ at = [0, 0], warbands = [\"white\"] }, { at = [2, 0], warbands = [\"white\"] }]",
    );
    let d = data();
    let k = |id: &str| d.kind(id).expect("kind") as u8;
    let mut g = Game::new(&m);
    g.setup(&mut ScriptedDice::new(&[]));
    assert_eq!(g.stack(1), [k("blue"), k("yellow")]);
    let mut s = ScriptedDice::new(&[4, 6]);
    assert_eq!(g.battle_phase(0, &mut s, &mut NoTrace), None);
    assert!(s.all_used());
    assert_eq!(g.stack(1), [k("yellow")]);
    assert!(g.stack(2).is_empty());
    assert_eq!(g.stack(0), [k("white")]);
    assert_eq!(g.battles, 2);
}

#[test]
fn a_tie_destroys_both_and_the_last_warbands_end_the_game() {
    let m = strip(
        ". .",
        "player = \"greedy\"\nthreshold = 0.0\nstacks = [{ at = [0, 0], warbands = [\"green\"] }]",
        "player = \"random\"\nstacks = [{ at = [1, 0], warbands = [\"white\"] }]",
    );
    let mut g = Game::new(&m);
    g.setup(&mut ScriptedDice::new(&[]));
    let mut s = ScriptedDice::new(&[7]);
    assert_eq!(g.battle_phase(0, &mut s, &mut NoTrace), Some(Ending::Draw));
    assert!(g.stack(0).is_empty() && g.stack(1).is_empty());
    let r = g.result(Ending::Draw);
    assert_eq!(r.outcome, 2, "outcome 2 is the draw of a two-player game");
}

#[test]
fn the_leader_in_charge_is_chosen_before_the_key_attribute() {
    // White (armor 0, artillery 0) with an Armor leader and an Artillery
    // leader attacks Red (armor 4, artillery 5). Armor +5 turns armor into
    // a win (5/9 to win); Artillery +5 would only tie artillery. The greedy
    // player puts the Armor leader in charge; then the key attribute comes
    // up artillery, 0 against 5, and White falls with both leaders.
    let m = strip(
        ". .",
        "player = \"greedy\"\nthreshold = 0.0\nstacks = [{ at = [0, 0], warbands = [\"white\"], leaders = [\"artillery\", \"armor\"] }]",
        "player = \"random\"\nstacks = [{ at = [1, 0], warbands = [\"red\", \"red\"] }]",
    );
    let mut g = Game::new(&m);
    g.setup(&mut ScriptedDice::new(&[]));
    assert_eq!(g.leaders_at(0), [ARTILLERY, ARMOR]);
    let p = g.projected_odds(0, 1);
    assert!((p.attacker - 5.0 / 9.0).abs() < 1e-12, "{p:?}");
    let mut s = ScriptedDice::new(&[6]);
    assert_eq!(
        g.battle_phase(0, &mut s, &mut NoTrace),
        Some(Ending::Won {
            seat: 1,
            by_holding: false
        })
    );
    assert!(s.all_used());
    assert_eq!(g.in_charge(0), Some(Some(ARMOR)));
    assert_eq!(g.leaders_of(0), 0, "leaders die with their stack");
    assert_eq!(g.stack(1).len(), 2);
}

#[test]
fn the_owner_orders_its_stack_at_the_end_of_its_movement() {
    // Yellow over Blue next to White. Blue's edge against White is -1/9,
    // Yellow's -3/9: the greedy player puts Blue on top. No step gains
    // ground (the enemy is adjacent, there are no key locations), so the
    // 5 command points go unspent.
    let m = strip(
        ". . .",
        "player = \"greedy\"\nstacks = [{ at = [1, 0], warbands = [\"yellow\", \"blue\"] }]",
        "player = \"random\"\nstacks = [{ at = [2, 0], warbands = [\"white\"] }]",
    );
    let d = data();
    let k = |id: &str| d.kind(id).expect("kind") as u8;
    let mut g = Game::new(&m);
    g.setup(&mut ScriptedDice::new(&[]));
    let mut s = ScriptedDice::new(&[5]);
    g.movement_phase(0, &mut s, &mut NoTrace);
    assert!(s.all_used());
    assert_eq!(g.stack(1), [k("blue"), k("yellow")]);
}

#[test]
fn cities_recruit_on_a_one_and_have_a_rolled_race() {
    assert!(recruits(1, 1));
    assert!(!recruits(2, 1));
    let m = strip(
        "city . forest",
        "player = \"greedy\"\nstacks = [{ at = [0, 0], warbands = [\"green\"] }]",
        "player = \"greedy\"\nstacks = [{ at = [2, 0], warbands = [\"white\"] }]",
    );
    let d = data();
    let k = |id: &str| d.kind(id).expect("kind") as u8;
    let mut g = Game::new(&m);
    // The city's race: d6 4 is Blue on the race determination table.
    let mut s = ScriptedDice::new(&[4]);
    g.setup(&mut s);
    assert!(s.all_used());
    let mut s = ScriptedDice::new(&[2]);
    g.recruit(0, &mut s, &mut NoTrace);
    assert_eq!(g.stack(0), [k("green")]);
    let mut s = ScriptedDice::new(&[1]);
    g.recruit(0, &mut s, &mut NoTrace);
    assert_eq!(g.stack(0), [k("green"), k("blue")]);
    assert_eq!(g.warbands_of(0), 2);
    // Player 1 occupies no city: it rolls nothing.
    let mut s = ScriptedDice::new(&[]);
    g.recruit(1, &mut s, &mut NoTrace);
    assert_eq!(g.warbands_of(1), 1);
}

#[test]
fn terrain_settlement_and_leader_bonuses_add_up() {
    let m = strip(
        "fortifications farms farms . ruins:speed dojo",
        "player = \"greedy\"\nstacks = [{ at = [0, 0], warbands = [\"green\"], leaders = [\"morale\"] }, { at = [1, 0], warbands = [\"red\"] }, { at = [2, 0], warbands = [\"red\"] }]",
        "player = \"greedy\"\nstacks = [{ at = [4, 0], warbands = [\"white\"] }, { at = [5, 0], warbands = [\"blue\"] }]",
    );
    let mut g = Game::new(&m);
    g.setup(&mut ScriptedDice::new(&[]));
    // Two farms: +2 numbers to all of player 0's warbands.
    assert_eq!(g.settlement_bonus(0)[usize::from(NUMBERS)], 2);
    // The dojo: +1 hand to hand to all of player 1's.
    assert_eq!(g.settlement_bonus(1)[usize::from(HAND_TO_HAND)], 1);
    // Green in fortifications (+5 armor, +2 artillery), two farms, and its
    // Morale leader in charge (+5).
    assert_eq!(
        g.warband_scores(g.top(0), Some(MORALE)),
        [3, 5, 4, 5, 5, 2, 4, 0, 10]
    );
    // White in ruins of speed (+1) with the dojo (+1 hand to hand).
    assert_eq!(
        g.warband_scores(g.top(4), None),
        [4, 2, 3, 7, 0, 0, 2, 2, 6]
    );
    assert_eq!(g.warband_scores(g.top(4), None)[usize::from(SPEED)], 4);
}

// ---------------------------------------------------------------- games

fn game(name: &str) -> RacesGame {
    load_game(&common::bundled(&format!("races/game/{name}.toml")))
}

const GAMES: [&str; 5] = [
    "two-player",
    "two-player-random",
    "three-player",
    "four-player",
    "variants-on-a-fixed-map",
];

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn every_game_terminates_within_its_turn_limit() {
    for name in GAMES {
        let m = game(name);
        let t = run(
            &m,
            &RunConfig {
                threads: 0,
                ..RunConfig::new(3, 4000)
            },
            None,
        )
        .expect("run");
        assert_eq!(t.trials(), 4000, "{name}");
        let turns = t.metrics[0].max().unwrap_or(0);
        assert!(turns >= 1 && turns <= m.max_turns(), "{name}: {turns}");
        // Somebody wins some games.
        let seats = m.seats().len();
        let wins: u64 = t.outcomes[..seats].iter().sum();
        assert!(wins > 0, "{name}: {:?}", t.outcomes);
    }
}

#[test]
fn a_replayed_game_matches_the_bulk_run() {
    let m = game("two-player");
    common::assert_replays_match_bulk(&m, 5, 600, 128, &[0, 17, 599], "Initiative");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn the_summary_is_identical_for_one_and_two_threads() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = common::bundled("races/game/two-player.toml");
    let summary = |threads: &str| {
        let out = dir.path().join(format!("t{threads}"));
        let o = common::barsoom_ok(
            &[
                "run",
                &scenario.display().to_string(),
                "-n",
                "20000",
                "--threads",
                threads,
                "--quiet",
                "--out",
                &out.display().to_string(),
            ],
            &common::root(),
        );
        // Everything but the timing line and the output folder.
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter(|l| !l.contains(" s wall,") && !l.starts_with("wrote "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let one = summary("1");
    assert!(one.contains("Red/Green/White wins"), "{one}");
    assert!(!one.is_empty());
    assert_eq!(one, summary("2"));
}

// ---------------------------------------------------------------- errors

#[test]
fn bad_set_ups_get_one_line_and_exit_code_two() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let two = |zone_a: &str, zone_b: &str, kind: &str, width: u32| {
        format!(
            "max_turns = 10\n[map]\nwidth = {width}\nheight = 6\n[victory]\nhold = 2\nhold_turns = 1\n\
             [[players]]\nplayer = \"greedy\"\nzone = \"{zone_a}\"\nwarbands = [{{ kind = \"{kind}\", count = 3 }}]\n\
             [[players]]\nplayer = \"random\"\nzone = \"{zone_b}\"\nwarbands = [{{ kind = \"red\", count = 3 }}]\n"
        )
    };
    common::assert_invalid(
        &write_game(d, "unknown-race", &two("west", "east", "purple", 10)),
        &["players[0].warbands[0].kind", "\"purple\"", "green"],
    );
    common::assert_invalid(
        &write_game(d, "overlap", &two("west", "east", "green", 5)),
        &["players[1].zone", "players[0]"],
    );
    common::assert_invalid(
        &write_game(d, "same-zone", &two("west", "west", "green", 10)),
        &["players[1].zone"],
    );
    let stacks = "max_turns = 10\n[map]\nwidth = 3\nheight = 1\nrows = [\". . .\"]\n[victory]\nhold = 0\nhold_turns = 1\n\
        [[players]]\nplayer = \"greedy\"\nstacks = [{ at = [1, 0], warbands = [\"red\"] }]\n\
        [[players]]\nplayer = \"greedy\"\nstacks = [{ at = [1, 0], warbands = [\"blue\"] }]\n";
    common::assert_invalid(
        &write_game(d, "same-hex", stacks),
        &["players[1].stacks[0].at", "one stack per hex"],
    );
    common::assert_invalid(
        &write_game(
            d,
            "bad-player",
            &two("west", "east", "green", 10).replace("\"random\"", "\"clever\""),
        ),
        &["players[1].player", "\"clever\""],
    );
    // An illegal variant in a copy of the data: 7 points shifted.
    let data = d.join("data");
    std::fs::create_dir_all(&data).expect("mkdir");
    for f in ["races.toml", "terrain.toml", "rules.toml", "variants.toml"] {
        std::fs::copy(data_dir().join(f), data.join(f)).expect("copy");
    }
    std::fs::write(
        data.join("variants.toml"),
        "provenance = \"reconstructed: test\"\n[variants.red-giants]\nname = \"Red Giants\"\nrace = \"red\"\nshift = { numbers = 4, morale = 3, armor = -4, artillery = -3 }\n",
    )
    .expect("write");
    let battle = d.join("battle.toml");
    std::fs::write(
        &battle,
        format!(
            "model = \"races.battle\"\ndescription = \"t\"\ndata = {:?}\n[attacker]\nwarband = \"red\"\n[defender]\nwarband = \"blue\"\n",
            data.display().to_string()
        ),
    )
    .expect("write");
    common::assert_invalid(
        &battle,
        &[
            "variants.toml",
            "variants.red-giants.shift",
            "1 to 6 points",
            "found 7",
        ],
    );
    std::fs::write(
        data.join("variants.toml"),
        "provenance = \"reconstructed: test\"\n[variants.red-giants]\nname = \"Red Giants\"\nrace = \"martian\"\nshift = { numbers = 1, morale = -1 }\n",
    )
    .expect("write");
    common::assert_invalid(&battle, &["variants.red-giants.race", "\"martian\""]);
    // Terrain tables chained five deep (hex, beneficial, settlement, t4,
    // t5): a hex's draw would have 100,000 outcomes.
    std::fs::copy(data_dir().join("variants.toml"), data.join("variants.toml")).expect("copy");
    let terrain = std::fs::read_to_string(data_dir().join("terrain.toml")).expect("read");
    let barren = ["\"barren\""; 9].join(", ");
    let chained = terrain.replacen("\"city\", \"ruins\"]", "\"city\", \"roll:t4\"]", 1)
        + &format!(
            "\n[tables.t4]\ndie = 10\nfaces = [\"roll:t5\", {barren}]\n[tables.t5]\ndie = 10\nfaces = [\"barren\", {barren}]\n"
        );
    assert_ne!(chained, terrain);
    std::fs::write(data.join("terrain.toml"), chained).expect("write");
    common::assert_invalid(
        &battle,
        &["terrain.toml", "tables", "at most 4 tables", "found 5"],
    );
}

#[test]
fn a_tournament_can_swap_the_players_of_the_two_seats() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = common::bundled("races/game/two-player.toml");
    let o = common::barsoom_ok(
        &[
            "tournament",
            &scenario.display().to_string(),
            "--seat",
            "players[0].player",
            "--seat",
            "players[1].player",
            "--entrants",
            "random,greedy",
            "-n",
            "400",
            "--out",
            &dir.path().join("t").display().to_string(),
        ],
        &common::root(),
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("greedy"), "{text}");
}

#[test]
fn the_greedy_player_takes_a_key_location_and_holds_it() {
    // Green at [3, 0] walks two hexes west onto the farms (a settlement it
    // does not hold) and stays there: leaving would leave it empty.
    let m = strip(
        ". farms . . .",
        "player = \"greedy\"\nstacks = [{ at = [3, 0], warbands = [\"green\"] }]",
        "player = \"random\"\nstacks = [{ at = [0, 0], warbands = [\"white\"] }]",
    );
    let d = data();
    let green = d.kind("green").expect("green") as u8;
    let mut g = Game::new(&m);
    g.setup(&mut ScriptedDice::new(&[]));
    g.movement_phase(0, &mut ScriptedDice::new(&[5]), &mut NoTrace);
    assert_eq!(g.stack(1), [green]);
    assert!(g.stack(3).is_empty());
    assert_eq!(g.settlement_bonus(0)[usize::from(NUMBERS)], 1);
    g.movement_phase(0, &mut ScriptedDice::new(&[9]), &mut NoTrace);
    assert_eq!(g.stack(1), [green], "it holds the farms");
}

#[test]
fn the_bitboard_neighbours_are_the_neighbour_lists() {
    // Each hex alone spreads to exactly its listed neighbours, and a set
    // spreads to the union of its members' lists, on maps of every width
    // parity, one-column and one-row maps, and maps across word boundaries.
    for (width, height) in [
        (1, 1),
        (1, 5),
        (5, 1),
        (2, 2),
        (7, 3),
        (14, 10),
        (23, 17),
        (24, 24),
    ] {
        let map = HexMap::new(width, height);
        let listed = |h: u16| {
            let mut set = NO_HEXES;
            for nb in map.neighbours[usize::from(h)] {
                if nb != NO_HEX {
                    set_insert(&mut set, nb);
                }
            }
            set
        };
        let mut every_third = NO_HEXES;
        let mut union = NO_HEXES;
        for h in 0..map.hexes() as u16 {
            let mut alone = NO_HEXES;
            set_insert(&mut alone, h);
            assert_eq!(
                map.spread_any(&alone),
                listed(h),
                "{width}x{height} hex {h}"
            );
            if h % 3 == 0 {
                set_insert(&mut every_third, h);
                for (u, l) in union.iter_mut().zip(listed(h)) {
                    *u |= l;
                }
            }
        }
        assert_eq!(map.spread_any(&every_third), union, "{width}x{height}");
    }
}

#[test]
fn a_flood_stays_inside_the_passable_hexes() {
    // A 5x3 map whose middle column is a wall: from the west half the
    // flood fills the two west columns and nothing east of the wall.
    // Hexes are row * 5 + col.
    let map = HexMap::new(5, 3);
    let mut passable = NO_HEXES;
    for h in 0..15u16 {
        if h % 5 != 2 {
            set_insert(&mut passable, h);
        }
    }
    let mut from = NO_HEXES;
    set_insert(&mut from, 0);
    let mut west = NO_HEXES;
    for h in [0, 1, 5, 6, 10, 11] {
        set_insert(&mut west, h);
    }
    assert_eq!(map.flood(&from, &passable), west);
}

// ---------------------------------------------------------------- victory

#[test]
fn key_locations_are_the_scenarios_terrains_and_bonuses_stay_with_settlements() {
    // Green stands alone on the farms (a settlement with an all-units
    // Numbers bonus); the red city is two hexes east.
    let map = |key_locations: &str| {
        let dir = tempfile::tempdir().expect("tempdir");
        let body = format!(
            "max_turns = 5\n[map]\nwidth = 5\nheight = 1\nrows = [\"farms . city:red . .\"]\n\
             [victory]\nhold = 1\nhold_turns = 1\n{key_locations}\n\
             [[players]]\nplayer = \"greedy\"\nstacks = [{{ at = [0, 0], warbands = [\"green\"] }}]\n\
             [[players]]\nplayer = \"greedy\"\nstacks = [{{ at = [4, 0], warbands = [\"white\"] }}]\n"
        );
        load_game(&write_game(dir.path(), "keys", &body))
    };
    let d = data();
    let green = d.kind("green").expect("green") as u8;
    // Every settlement is a key location (the default): the farms are one
    // Green holds alone, so it stays.
    let m = map("");
    let mut g = Game::new(&m);
    g.setup(&mut ScriptedDice::new(&[]));
    assert_eq!(g.settlement_bonus(0)[usize::from(NUMBERS)], 1);
    g.movement_phase(0, &mut ScriptedDice::new(&[5]), &mut NoTrace);
    assert_eq!(g.stack(0), [green], "it holds the farms");
    // Only cities are key locations: the farms still give their bonus
    // while occupied, but Green leaves them for the city, and loses it.
    let m = map("key_locations = \"city\"");
    let mut g = Game::new(&m);
    g.setup(&mut ScriptedDice::new(&[]));
    assert_eq!(g.settlement_bonus(0)[usize::from(NUMBERS)], 1);
    g.movement_phase(0, &mut ScriptedDice::new(&[5]), &mut NoTrace);
    assert!(g.stack(0).is_empty());
    assert_eq!(g.stack(2), [green], "it takes the city");
    assert_eq!(g.settlement_bonus(0)[usize::from(NUMBERS)], 0);
    // Holding the city (1 of 1) for a turn wins: initiative 9 against 2,
    // Green's command die 5 (onto the city), White's 1 (one step west, next
    // to Green, which it beats on 3 of the 9 attributes: below the greedy
    // threshold, so it does not attack).
    let m = map("key_locations = [\"city\"]");
    let mut g = Game::new(&m);
    let ending = g.play(&mut ScriptedDice::new(&[9, 2, 5, 1]), &mut NoTrace);
    assert_eq!(
        ending,
        Ending::Won {
            seat: 0,
            by_holding: true
        }
    );
}

#[test]
fn without_most_two_holders_of_as_many_key_locations_draw() {
    // Each player holds one farms alone and stays (an impassable hex parts
    // them, and the game is played on when they are apart); a turn of
    // holding one key location wins.
    let game = |most: &str| {
        let dir = tempfile::tempdir().expect("tempdir");
        let body = format!(
            "max_turns = 1\n[map]\nwidth = 7\nheight = 1\nrows = [\"farms . . # . . farms\"]\n\
             [victory]\nhold = 1\nhold_turns = 1\nend_apart = false\n{most}\n\
             [[players]]\nplayer = \"greedy\"\nstacks = [{{ at = [0, 0], warbands = [\"green\"] }}]\n\
             [[players]]\nplayer = \"greedy\"\nstacks = [{{ at = [6, 0], warbands = [\"white\"] }}]\n"
        );
        let m = load_game(&write_game(dir.path(), "most", &body));
        let mut g = Game::new(&m);
        // Initiative 7 and 3, then each one's command die.
        g.play(&mut ScriptedDice::new(&[7, 3, 4, 4]), &mut NoTrace)
    };
    // Holding the most is required (the default): a tie wins nothing.
    assert_eq!(game(""), Ending::Unfinished);
    assert_eq!(game("most = true"), Ending::Unfinished);
    assert_eq!(game("most = false"), Ending::Draw);
}

#[test]
fn a_bad_victory_reading_gets_one_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let body = |victory: &str| {
        format!(
            "max_turns = 10\n[map]\nwidth = 10\nheight = 6\n[victory]\nhold = 2\nhold_turns = 1\n{victory}\n\
             [[players]]\nplayer = \"greedy\"\nzone = \"west\"\nwarbands = [{{ kind = \"green\", count = 3 }}]\n\
             [[players]]\nplayer = \"greedy\"\nzone = \"east\"\nwarbands = [{{ kind = \"red\", count = 3 }}]\n"
        )
    };
    common::assert_invalid(
        &write_game(dir.path(), "unknown", &body("key_locations = \"castles\"")),
        &[
            "victory.key_locations",
            "\"castles\"",
            "\"settlements\"",
            "city",
        ],
    );
    common::assert_invalid(
        &write_game(
            dir.path(),
            "impassable",
            &body("key_locations = [\"city\", \"impassable\"]"),
        ),
        &[
            "victory.key_locations[1]",
            "passable terrain",
            "\"impassable\"",
        ],
    );
    common::assert_invalid(
        &write_game(dir.path(), "empty", &body("key_locations = []")),
        &["victory.key_locations", "empty list"],
    );
    common::assert_invalid(
        &write_game(dir.path(), "most", &body("most = 2")),
        &["most"],
    );
}

// ---------------------------------------------------------------- stalls

/// A strip of hexes with a greedy Green warband at [0, 0] and a greedy
/// White one at the last hex, under the victory reading `victory`.
fn duel_strip(hexes: &str, victory: &str, max_turns: u32) -> RacesGame {
    let dir = tempfile::tempdir().expect("tempdir");
    let width = hexes.split_whitespace().count();
    let body = format!(
        "max_turns = {max_turns}\n[map]\nwidth = {width}\nheight = 1\nrows = [\"{hexes}\"]\n\
         [victory]\n{victory}\n\
         [[players]]\nplayer = \"greedy\"\nstacks = [{{ at = [0, 0], warbands = [\"green\"] }}]\n\
         [[players]]\nplayer = \"greedy\"\nstacks = [{{ at = [{}, 0], warbands = [\"white\"] }}]\n",
        width - 1
    );
    load_game(&write_game(dir.path(), "duel", &body))
}

#[test]
fn a_greedy_player_that_cannot_win_by_holding_leaves_its_key_location_and_fights() {
    let d = data();
    let green = d.kind("green").expect("green") as u8;
    // Each holds one farms alone. Holding one wins, but neither holds
    // more (a tie); or holding two wins, which one warband never can.
    for victory in ["hold = 1\nhold_turns = 1", "hold = 2\nhold_turns = 1"] {
        let m = duel_strip("farms . . . farms", victory, 5);
        let mut g = Game::new(&m);
        g.setup(&mut ScriptedDice::new(&[]));
        // Command die 5: Green walks its most, 3 hexes, to White.
        g.movement_phase(0, &mut ScriptedDice::new(&[5]), &mut NoTrace);
        assert!(g.stack(0).is_empty(), "{victory}: it left the farms");
        assert_eq!(g.stack(3), [green], "{victory}");
        // Green beats White on 2 attributes of 9 (below the greedy
        // threshold) but destroys it on 6 (ties too): it attacks. Small
        // arms (face 2), 5 against 2: White is destroyed.
        let end = g.battle_phase(0, &mut ScriptedDice::new(&[2]), &mut NoTrace);
        assert_eq!(
            end,
            Some(Ending::Won {
                seat: 0,
                by_holding: false
            }),
            "{victory}"
        );
    }
    // Holding one farms wins and Green holds more than White, which holds
    // none (White stands on barren ground): Green stays.
    let m = duel_strip("farms . . . .", "hold = 1\nhold_turns = 1", 5);
    let mut g = Game::new(&m);
    g.setup(&mut ScriptedDice::new(&[]));
    g.movement_phase(0, &mut ScriptedDice::new(&[5]), &mut NoTrace);
    assert_eq!(g.stack(0), [green], "it holds the farms");
}

#[test]
fn forces_apart_end_the_game_when_no_holding_can_grow() {
    // An impassable hex parts Green (on one farms) from White (on the
    // other two, with a Red warband); holding three wins, which no one
    // can. White holds the most.
    let game = |end_apart: &str| {
        let dir = tempfile::tempdir().expect("tempdir");
        let body = format!(
            "max_turns = 1\n[map]\nwidth = 5\nheight = 1\nrows = [\"farms . # farms farms\"]\n\
             [victory]\nhold = 3\nhold_turns = 1\n{end_apart}\n\
             [[players]]\nplayer = \"greedy\"\nstacks = [{{ at = [0, 0], warbands = [\"green\"] }}]\n\
             [[players]]\nplayer = \"greedy\"\nstacks = [{{ at = [3, 0], warbands = [\"white\"] }}, {{ at = [4, 0], warbands = [\"red\"] }}]\n"
        );
        let m = load_game(&write_game(dir.path(), "apart", &body));
        let mut g = Game::new(&m);
        // Initiative 7 and 3, then each one's command die.
        g.play(&mut ScriptedDice::new(&[7, 3, 4, 4]), &mut NoTrace)
    };
    let white_wins = Ending::Won {
        seat: 1,
        by_holding: true,
    };
    assert_eq!(game(""), white_wins);
    assert_eq!(game("end_apart = true"), white_wins);
    // Played on, the game reaches its turn limit.
    assert_eq!(game("end_apart = false"), Ending::Unfinished);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn greedy_games_end_before_the_turn_limit() {
    // The safety limit binds in under 1% of greedy games in every bundled
    // scenario of greedy players (random players are exempt: they rarely
    // finish).
    for name in [
        "two-player",
        "three-player",
        "four-player",
        "variants-on-a-fixed-map",
    ] {
        let m = game(name);
        let t = run(
            &m,
            &RunConfig {
                threads: 0,
                ..RunConfig::new(2, 20_000)
            },
            None,
        )
        .expect("run");
        let unfinished = t.outcomes[m.seats().len() + 1];
        assert!(
            unfinished < 200,
            "{name}: {unfinished} of 20,000 unfinished"
        );
    }
}
