//! `wom.battle`: hand-worked cases of the mass-battle tables and rules,
//! termination, determinism across threads, replays, and bad input.

use barsoom::games::ScenarioModel;
use std::path::{Path, PathBuf};

use barsoom::engine::{Dice, NoTrace, RunConfig, run};
use barsoom::games::wom::battle::battle::{
    Approach, Attack, M_CASUALTIES, OUT_UNDECIDED, Status, UnitState, WomBattle,
};
use barsoom::games::wom::battle::tables::PARTS;

use crate::common;

const THARKS: &str = "wom/battle/thark-horde-against-heliumite-rifles.toml";
const ZODANGA: &str = "wom/battle/zodangan-levies-receive-green-cavalry.toml";
const THERNS: &str = "wom/battle/first-born-against-holy-therns.toml";

fn load(path: &Path) -> WomBattle {
    match WomBattle::load(path) {
        Ok((m, _)) => m,
        Err(e) => panic!("{e}"),
    }
}

/// Writes a scenario with two sides of one unit each, `first` and `second`
/// being the TOML bodies of the units, and loads it.
fn duel_of_units(dir: &Path, distance: u32, first: &str, second: &str) -> (PathBuf, WomBattle) {
    let path = common::write_scenario(
        dir,
        "units",
        "wom.battle",
        &common::wom_data(),
        &format!(
            "distance = {distance}\nmax_turns = 20\n\
             [[sides]]\nname = \"A\"\n[[sides.units]]\nname = \"a\"\n{first}\n\
             [[sides]]\nname = \"B\"\n[[sides.units]]\nname = \"b\"\n{second}\n"
        ),
    );
    let model = load(&path);
    (path, model)
}

const RIFLES: &str = "troop = \"human-infantry\"\nclass = \"regulars\"\nfigures = 10\nmissile = \"rifle\"\nstance = \"hold\"";
const SHIELDLESS: &str = "troop = \"human-infantry\"\nclass = \"regulars\"\nfigures = 10";

#[test]
fn missile_fire_with_hard_cover_is_the_rules_example() {
    // The worked example in the aerial warfare notes: ten radium rifles
    // kill five infantry in the open, half that behind hard cover (2½).
    let dir = tempfile::tempdir().unwrap();
    let hard = format!("{SHIELDLESS}\ncover = \"hard\"");
    let (_, m) = duel_of_units(dir.path(), 40, RIFLES, &hard);
    let st = m.initial_state();
    assert_eq!(m.missile_parts(&st, 0, 0, 0, 10), PARTS * 5 / 2);
    // Out of its cover (advanced), the full 5.
    let mut moved = st;
    m.step_forward(&mut moved, 1, 0, 3.0);
    assert_eq!(m.missile_parts(&moved, 0, 0, 0, 10), PARTS * 5);
    // Soft cover keeps 75%: 3-3/4.
    let soft = format!("{SHIELDLESS}\ncover = \"soft\"");
    let (_, m) = duel_of_units(dir.path(), 40, RIFLES, &soft);
    assert_eq!(
        m.missile_parts(&m.initial_state(), 0, 0, 0, 10),
        PARTS * 15 / 4
    );
}

#[test]
fn missile_fractions_are_carried_until_whole() {
    // 10 pistols at green cavalry: 2 per 10, halved for skirmishers = 1.
    // 5 firing: half a figure a volley; the second volley kills one.
    let dir = tempfile::tempdir().unwrap();
    let pistols =
        "troop = \"human-infantry\"\nclass = \"levies\"\nfigures = 10\nmissile = \"pistol\"";
    let riders = "troop = \"green-cavalry\"\nclass = \"green-men\"\nfigures = 10";
    let (_, m) = duel_of_units(dir.path(), 40, pistols, riders);
    let mut st = m.initial_state();
    let parts = m.missile_parts(&st, 0, 0, 0, 5);
    assert_eq!(parts, PARTS / 2);
    let mut dice = Dice::for_trial(1, 0);
    m.apply_casualties(&mut st, 1, 0, parts, &mut dice, &mut NoTrace);
    assert_eq!(
        (st.units[1][0].figures, st.units[1][0].parts),
        (10, PARTS / 2)
    );
    m.apply_casualties(&mut st, 1, 0, parts, &mut dice, &mut NoTrace);
    assert_eq!((st.units[1][0].figures, st.units[1][0].parts), (9, 0));
    assert_eq!(st.metrics[M_CASUALTIES + 1], 1);
    // Green Martians firing rifles add 1 kill per 10: 6 human infantry.
    let green =
        "troop = \"green-infantry\"\nclass = \"green-men\"\nfigures = 10\nmissile = \"rifle\"";
    let (_, m) = duel_of_units(dir.path(), 40, green, SHIELDLESS);
    assert_eq!(m.missile_parts(&m.initial_state(), 0, 0, 0, 10), PARTS * 6);
}

#[test]
fn melee_table_with_charge_lance_disorder_retreat_and_doubling() {
    let dir = tempfile::tempdir().unwrap();
    let shields = format!("{SHIELDLESS}\nshield = true");
    let (_, m) = duel_of_units(dir.path(), 40, SHIELDLESS, &shields);
    let st = m.initial_state();
    // 10 human infantry inflict 3 on shieldless, 2 on shielded infantry.
    assert_eq!(m.melee_parts(&st, 1, 0, 0, false, false), PARTS * 3);
    assert_eq!(m.melee_parts(&st, 0, 0, 0, false, false), PARTS * 2);
    // Charging into melee adds 1; the first round of a flank attack doubles.
    assert_eq!(m.melee_parts(&st, 0, 0, 0, true, false), PARTS * 3);
    assert_eq!(m.melee_parts(&st, 0, 0, 0, false, true), PARTS * 4);
    // Enemy disorganised adds 1, enemy retreating adds 2.
    let mut dis = st;
    dis.units[1][0].disorganized = true;
    assert_eq!(m.melee_parts(&dis, 0, 0, 0, false, false), PARTS * 3);
    dis.units[1][0].status = Status::Retreating(1);
    assert_eq!(m.melee_parts(&dis, 0, 0, 0, false, false), PARTS * 5);
    // 3 green cavalry with lances charging shieldless infantry: 3 + 2.
    let lancers = "troop = \"green-cavalry\"\nclass = \"green-men\"\nfigures = 3\nlance = true";
    let (_, m) = duel_of_units(dir.path(), 40, lancers, SHIELDLESS);
    let st = m.initial_state();
    assert_eq!(m.melee_parts(&st, 0, 0, 0, true, false), PARTS * 5);
    assert_eq!(m.melee_parts(&st, 0, 0, 0, false, false), PARTS * 3);
    // Only the first rank fights: 20 figures, 10 in front, as 10.
    let deep = "troop = \"human-infantry\"\nclass = \"regulars\"\nfigures = 20\nfront = 10";
    let (_, m) = duel_of_units(dir.path(), 40, deep, SHIELDLESS);
    assert_eq!(
        m.melee_parts(&m.initial_state(), 0, 0, 0, false, false),
        PARTS * 3
    );
}

#[test]
fn personality_figures_fight_as_a_unit_per_the_table_notes() {
    let dir = tempfile::tempdir().unwrap();
    let carter = format!("{SHIELDLESS}\npersonality = {{ name = \"John Carter\", level = 13 }}");
    let (_, m) = duel_of_units(dir.path(), 40, &carter, SHIELDLESS);
    let mut st = m.initial_state();
    // 10 infantry (3) + John Carter as 3 green cavalry (3).
    assert_eq!(m.melee_parts(&st, 0, 0, 0, false, false), PARTS * 6);
    st.units[0][0].personality_alive = false;
    assert_eq!(m.melee_parts(&st, 0, 0, 0, false, false), PARTS * 3);
    let kantos = format!("{SHIELDLESS}\npersonality = {{ name = \"Kantos Kan\", level = 12 }}");
    let (_, m) = duel_of_units(dir.path(), 40, &kantos, SHIELDLESS);
    // As 5 human cavalry: 2 on shieldless infantry.
    assert_eq!(
        m.melee_parts(&m.initial_state(), 0, 0, 0, false, false),
        PARTS * 5
    );
}

#[test]
fn flank_and_rear_attacks_go_unanswered_for_one_and_two_rounds() {
    let m = load(&common::bundled(THERNS));
    let attack = |approach, rounds| Attack {
        target: 0,
        approach,
        rounds,
        charged: false,
    };
    assert!(m.returns_blows(&attack(Approach::Front, 0)));
    assert!(!m.returns_blows(&attack(Approach::Flank, 0)));
    assert!(m.returns_blows(&attack(Approach::Flank, 1)));
    assert!(!m.returns_blows(&attack(Approach::Rear, 1)));
    assert!(m.returns_blows(&attack(Approach::Rear, 2)));
}

/// A morale modifier's name, how to set it on a unit, and its value.
type ModifierCase = (&'static str, fn(&mut UnitState), i32);

#[test]
fn each_morale_modifier_of_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let (_, m) = duel_of_units(dir.path(), 40, SHIELDLESS, SHIELDLESS);
    let base = m.initial_state();
    assert_eq!(m.morale_modifier(&base, 0, 0), 0);
    let cases: [ModifierCase; 11] = [
        (
            "attacking",
            |u| {
                u.attack = Some(Attack {
                    target: 0,
                    approach: Approach::Front,
                    rounds: 0,
                    charged: true,
                })
            },
            1,
        ),
        ("commander", |u| u.commander_alive = true, 1),
        ("personality", |u| u.personality_alive = true, 2),
        ("50% casualties", |u| u.casualties = 5, -1),
        ("disordered", |u| u.disorganized = true, -1),
        ("flank", |u| u.flanked = true, -1),
        ("rear", |u| u.rear_attacked = true, -2),
        ("commander dead", |u| u.commander_lost = true, -2),
        ("outnumbered", |u| u.outnumbered = true, -3),
        ("personality dead", |u| u.personality_lost = true, -4),
        ("surrounded in the open", |u| u.surrounded = true, -3),
    ];
    for (name, set, expected) in cases {
        let mut st = base;
        set(&mut st.units[0][0]);
        assert_eq!(m.morale_modifier(&st, 0, 0), expected, "{name}");
    }
    // 49% casualties is not yet 50%.
    let mut st = base;
    st.units[0][0].casualties = 4;
    assert_eq!(m.morale_modifier(&st, 0, 0), 0);
}

#[test]
fn morale_checks_steady_disorganised_retreat_and_surrender() {
    let dir = tempfile::tempdir().unwrap();
    // Regulars: steady on 9 or less, disorganised on 10, fail on 11-12.
    let (_, m) = duel_of_units(dir.path(), 40, SHIELDLESS, SHIELDLESS);
    let mut seen = [false; 3];
    for trial in 0..200 {
        let mut st = m.initial_state();
        st.turn = 1;
        let mut dice = Dice::for_trial(7, trial);
        m.morale_check(&mut st, 0, 0, &mut dice, &mut NoTrace);
        let u = st.units[0][0];
        match u.status {
            Status::Active if u.disorganized => {
                seen[1] = true;
                assert!(u.check_due, "disorganised checks again next turn");
            }
            Status::Active => seen[0] = true,
            Status::Retreating(2) => {
                seen[2] = true;
                assert_eq!(m.advance(&st, 0, 0), -9.0, "falls back a full move (9\")");
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(seen, [true; 3]);
    // Adjusted steady score of 2 or less: surrender, no roll.
    let mut st = m.initial_state();
    st.units[0][0].personality_lost = true; // -4
    st.units[0][0].outnumbered = true; // -3: 9 - 7 = 2
    let mut dice = Dice::for_trial(7, 0);
    m.morale_check(&mut st, 0, 0, &mut dice, &mut NoTrace);
    assert_eq!(st.units[0][0].status, Status::Surrendered);
    assert_eq!(dice.rolled(), 0);
}

#[test]
fn a_leader_roll_for_every_six_casualties() {
    let dir = tempfile::tempdir().unwrap();
    let led = "troop = \"human-infantry\"\nclass = \"regulars\"\nfigures = 20\ncommander = true";
    let (_, m) = duel_of_units(dir.path(), 40, led, SHIELDLESS);
    let mut st = m.initial_state();
    let mut dice = Dice::for_trial(3, 0);
    m.apply_casualties(&mut st, 0, 0, PARTS * 5, &mut dice, &mut NoTrace);
    assert_eq!(dice.rolled(), 0, "five casualties: no roll yet");
    m.apply_casualties(&mut st, 0, 0, PARTS * 7, &mut dice, &mut NoTrace);
    assert_eq!(st.units[0][0].leader_rolls, 2);
    assert!(dice.rolled() >= 1 && dice.rolled() <= 2);
    // Over many units, the commander dies in about 1 - (5/6)^2 of them.
    let mut killed = 0;
    for trial in 0..6000 {
        let mut st = m.initial_state();
        let mut dice = Dice::for_trial(5, trial);
        m.apply_casualties(&mut st, 0, 0, PARTS * 12, &mut dice, &mut NoTrace);
        killed += u32::from(st.units[0][0].commander_lost);
    }
    let rate = f64::from(killed) / 6000.0;
    assert!((rate - 11.0 / 36.0).abs() < 0.03, "{rate}");
}

#[test]
fn every_battle_ends_and_a_standoff_is_undecided() {
    for path in [THARKS, ZODANGA, THERNS] {
        let m = load(&common::bundled(path));
        let tally = run(&m, &RunConfig::new(11, 2000), None).expect("run");
        assert_eq!(tally.trials(), 2000);
    }
    // Two lines holding out of javelin range never meet.
    let dir = tempfile::tempdir().unwrap();
    let holding = format!("{SHIELDLESS}\nmissile = \"javelin\"\nstance = \"hold\"");
    let (_, m) = duel_of_units(dir.path(), 40, &holding, &holding);
    let tally = run(&m, &RunConfig::new(1, 50), None).expect("run");
    assert_eq!(tally.outcomes[OUT_UNDECIDED as usize], 50);
}

#[test]
fn one_and_two_threads_give_identical_tallies() {
    for path in [THARKS, ZODANGA, THERNS] {
        let m = load(&common::bundled(path));
        let mut config = RunConfig::new(42, 3000);
        config.chunk = 256;
        config.threads = 1;
        let one = run(&m, &config, None).expect("run");
        config.threads = 2;
        let two = run(&m, &config, None).expect("run");
        assert_eq!(one, two, "{path}");
    }
}

#[test]
fn replays_match_bulk_rows() {
    let m = load(&common::bundled(ZODANGA));
    common::assert_replays_match_bulk(&m, 9, 600, 128, &[0, 131, 599], "MELEE TABLE");
    let m = load(&common::bundled(THARKS));
    common::assert_replays_match_bulk(&m, 9, 300, 64, &[5, 250], "MISSILES");
}

#[test]
fn bad_scenarios_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("troop = \"orc\"", "troop", "expected a troop type"),
        ("class = \"barbarians\"", "class", "expected a troop class"),
        ("figures = 0", "figures", "expected 1 to 2000 figures"),
        ("figures = 100000", "figures", "expected 1 to 2000 figures"),
        (
            "formation = \"formed\"\ntroop2 = 1",
            "troop2",
            "unknown field",
        ),
    ];
    let text = |unit: &str, distance: &str| {
        let base = "troop = \"green-infantry\"\nclass = \"green-men\"\nfigures = 10";
        let mut fields: Vec<String> = base.lines().map(String::from).collect();
        for line in unit.lines() {
            let key = line.split('=').next().unwrap_or("").trim();
            fields.retain(|f| !f.starts_with(&format!("{key} ")));
            fields.push(line.into());
        }
        format!(
            "model = \"wom.battle\"\ndescription = \"t\"\ndata = {:?}\ndistance = {distance}\n\
             [[sides]]\nname = \"A\"\n[[sides.units]]\nname = \"a\"\n{}\n\
             [[sides]]\nname = \"B\"\n[[sides.units]]\nname = \"b\"\n{SHIELDLESS}\n",
            common::wom_data().display().to_string(),
            fields.join("\n")
        )
    };
    for (i, (unit, field, message)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.toml"));
        std::fs::write(&path, text(unit, "40")).unwrap();
        let p = path.to_str().unwrap();
        common::assert_bad_input(&["run", p, "-n", "10"], dir.path(), &[p, field, message]);
    }
    for distance in ["0", "9999"] {
        let path = dir.path().join("distance.toml");
        std::fs::write(&path, text("", distance)).unwrap();
        let p = path.to_str().unwrap();
        common::assert_bad_input(
            &["run", p, "-n", "10"],
            dir.path(),
            &[p, "distance", "expected inches between the battle lines"],
        );
    }
    // Green Martians always skirmish.
    let path = dir.path().join("formed.toml");
    std::fs::write(&path, text("formation = \"formed\"", "40")).unwrap();
    let p = path.to_str().unwrap();
    common::assert_bad_input(
        &["run", p, "-n", "10"],
        dir.path(),
        &[p, "formation", "always skirmish"],
    );
}

#[test]
fn whole_turns_of_flank_and_rear_attacks() {
    // Guards with commander and a personality: steady on any roll while
    // both live, so morale cannot interrupt the melee (the leader rolls at
    // six casualties are fixed by the seed; with it both survive).
    let dir = tempfile::tempdir().unwrap();
    let steady = "troop = \"human-infantry\"\nclass = \"guards\"\nfigures = 10\ncommander = true\n\
                  personality = { name = \"Xodar\", level = 11 }\nstance = \"hold\"";
    let hold = format!("{SHIELDLESS}\nstance = \"hold\"");
    let (_, m) = duel_of_units(dir.path(), 10, &hold, steady);
    for approach in [Approach::Flank, Approach::Rear] {
        let mut st = m.initial_state();
        m.step_forward(&mut st, 0, 0, 10.0);
        st.units[0][0].attack = Some(Attack {
            target: 0,
            approach,
            rounds: 0,
            charged: false,
        });
        let mut dice = Dice::for_trial(1, 0);
        m.turn(&mut st, &mut dice, &mut NoTrace);
        assert_eq!(st.units[0][0].casualties, 0, "{approach:?}");
        if approach == Approach::Flank {
            // Squared up along the guards' 1/2" deep flank, only the end
            // stand touches [MELEE: only touching stands fight]: 1 figure,
            // 3 per 10 doubled: 0.6, none returned.
            assert_eq!(
                (st.units[1][0].casualties, st.units[1][0].parts),
                (0, PARTS * 6 / 10)
            );
        } else {
            // 10 infantry: 3 casualties doubled, none returned.
            assert_eq!(st.units[1][0].casualties, 6, "{approach:?}");
        }
        let facing = st.units[1][0].facing;
        m.turn(&mut st, &mut dice, &mut NoTrace);
        if approach == Approach::Flank {
            // Flank: the unanswered round is over; the guards turn to face
            // their only enemy [MELEE: Flank Attack] and round 2 is normal
            // both ways, 10 against 10: 3 each (the guards' 0.6 carried).
            assert_ne!(st.units[1][0].facing, facing);
            assert_eq!(st.units[0][0].casualties, 3);
            assert_eq!(
                (st.units[1][0].casualties, st.units[1][0].parts),
                (3, PARTS * 6 / 10)
            );
        } else {
            // Rear: round 2 doubled and unanswered again: the last 4 fall.
            assert_eq!(st.units[0][0].casualties, 0);
            assert_eq!(st.units[1][0].status, Status::Destroyed);
        }
    }
}

#[test]
fn stance_fire_walks_into_range_then_halts_and_shoots() {
    // Pistols reach 48". From 60" a formed infantry unit (9" a turn) walks
    // 9" then 3", halts at 48" and shoots twice a turn while the bows of a
    // holding enemy (24") cannot answer; it never charges meanwhile.
    let dir = tempfile::tempdir().unwrap();
    let pistols = "troop = \"human-infantry\"\nclass = \"regulars\"\nfigures = 10\nmissile = \"pistol\"\nstance = \"fire\"";
    let bows = format!("{SHIELDLESS}\nmissile = \"bow\"\nstance = \"hold\"");
    let (_, m) = duel_of_units(dir.path(), 60, pistols, &bows);
    let mut st = m.initial_state();
    let mut dice = Dice::for_trial(1, 0);
    m.turn(&mut st, &mut dice, &mut NoTrace);
    assert_eq!(m.advance(&st, 0, 0), 9.0);
    assert_eq!(st.units[0][0].volleys, 0, "out of range on turn 1");
    m.turn(&mut st, &mut dice, &mut NoTrace);
    assert_eq!(m.advance(&st, 0, 0), 12.0, "halts at its 48\" range");
    // Turn 2: it moved, so no end-turn fire; turn 3: beginning and end fire.
    m.turn(&mut st, &mut dice, &mut NoTrace);
    assert_eq!(m.advance(&st, 0, 0), 12.0);
    assert_eq!(st.units[0][0].volleys, 2);
    assert_eq!(st.units[0][0].casualties, 0, "the bows never reach");
    assert!(st.units[1][0].casualties > 0);
    // Stance `fire` needs a missile weapon.
    let path = dir.path().join("bad.toml");
    let text = std::fs::read_to_string(dir.path().join("units.toml"))
        .expect("scenario")
        .replace("missile = \"pistol\"\n", "");
    std::fs::write(&path, text).expect("write");
    common::assert_invalid(&path, &["stance", "missile weapon"]);
}
