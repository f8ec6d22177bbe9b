//! `races.battle`, one battle of the six races of Mars: the key attribute
//! and who wins on it, the exact odds against Monte Carlo, terrain,
//! settlements and leaders in a fortified battle, and the race and bonus
//! matrices (`barsoom races matrix`). The whole game is in `races_game`.

use barsoom::games::ScenarioModel;
use barsoom::scenario::Load;
use std::path::PathBuf;

use barsoom::engine::{Model, RunConfig, run};
use barsoom::games::races::battle::{
    BonusMatrix, RacesBattle, Verdict, attribute_probabilities, fight, odds, roll_attribute,
};
use barsoom::games::races::data::RacesData;

use crate::common;
use crate::common::ScriptedDice;

const HAND_TO_HAND: u8 = 3;
const ARTILLERY: u8 = 5;
const NUMBERS: u8 = 6;

fn data_dir() -> PathBuf {
    common::root().join("scenarios/races/data")
}

fn data() -> RacesData {
    RacesData::load(&data_dir()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_random_attribute_table_rerolls_a_ten() {
    let d = data();
    let mut s = ScriptedDice::new(&[10, 10, 4]);
    assert_eq!(roll_attribute(&mut s, &d.random_attribute), 3);
    assert!(s.all_used());
    let p = attribute_probabilities(&d.random_attribute);
    for x in p {
        assert!((x - 1.0 / 9.0).abs() < 1e-15);
    }
}

#[test]
fn higher_score_wins_and_equal_scores_destroy_both() {
    let d = data();
    let v = |id: &str| d.kinds[d.kind(id).expect("kind")].values;
    // The rules' sample combat: Blue 1 against White 6 in hand to hand.
    assert_eq!(
        fight(&v("blue"), &v("white"), usize::from(HAND_TO_HAND)),
        Verdict::DefenderWins
    );
    // Yellow 2 against White 0 in artillery.
    assert_eq!(
        fight(&v("yellow"), &v("white"), usize::from(ARTILLERY)),
        Verdict::AttackerWins
    );
    // Green and White both have 2 numbers.
    assert_eq!(
        fight(&v("green"), &v("white"), usize::from(NUMBERS)),
        Verdict::BothDestroyed
    );
    // Blue against White: Blue is higher in speed, surprise, armor and
    // psionics, lower in small arms, hand to hand, numbers and morale,
    // equal in artillery.
    let o = odds(
        &v("blue"),
        &v("white"),
        &attribute_probabilities(&d.random_attribute),
    );
    assert!((o.attacker - 4.0 / 9.0).abs() < 1e-12);
    assert!((o.defender - 4.0 / 9.0).abs() < 1e-12);
    assert!((o.both - 1.0 / 9.0).abs() < 1e-12);
}

// ---------------------------------------------------------------- exact

fn battle(name: &str) -> RacesBattle {
    let path = common::bundled(&format!("races/battle/{name}.toml"));
    match RacesBattle::load(&path) {
        Ok((m, _)) => m,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn monte_carlo_agrees_with_the_exact_battle_odds() {
    for name in [
        "blue-attacks-white",
        "yellow-attacks-white",
        "red-storms-fortified-green",
    ] {
        let m = battle(name);
        let exact = m.exact().expect("exact");
        let sum: f64 = exact.outcome_probabilities.iter().sum();
        assert!((sum - 1.0).abs() < 1e-12, "{name}");
        let t = run(
            &m,
            &RunConfig {
                threads: 0,
                ..RunConfig::new(7, 400_000)
            },
            None,
        )
        .expect("run");
        common::assert_rates_near_exact(name, &m, &exact, &t);
    }
}

#[test]
fn the_fortified_battle_uses_terrain_settlement_and_leaders() {
    // Red Commandos [4 5 3 4 0 3 3 0 2] on hills (+1 hand to hand) against
    // Green [3 5 4 5 0 0 2 0 5] in fortifications (+5 armor, +2 artillery)
    // with a dojo (+1 hand to hand) and a Morale leader. The commandos'
    // Surprise leader makes surprise 8 > 4 (a win instead of a loss); their
    // Armor leader would make armor 5 only a tie with Green's 5. So the
    // attacker takes Surprise; Green's Morale leader changes nothing it
    // can reach, but it is the only one.
    let m = battle("red-storms-fortified-green");
    let [a, d] = m.scores();
    assert_eq!(a, [4, 5, 8, 5, 0, 3, 3, 0, 2]);
    assert_eq!(d, [3, 5, 4, 6, 5, 2, 2, 0, 10]);
    let p = m.exact().expect("exact").outcome_probabilities;
    // Attacker higher: speed, surprise, artillery, numbers (4); lower:
    // hand to hand, armor, morale (3); equal: small arms, psionics (2).
    assert!((p[0] - 4.0 / 9.0).abs() < 1e-12, "{p:?}");
    assert!((p[1] - 3.0 / 9.0).abs() < 1e-12, "{p:?}");
    assert!((p[2] - 2.0 / 9.0).abs() < 1e-12, "{p:?}");
}

#[test]
fn exact_works_from_the_command_line() {
    let scenario = common::bundled("races/battle/blue-attacks-white.toml");
    let o = common::barsoom_ok(
        &["exact", &scenario.display().to_string(), "--json"],
        &common::root(),
    );
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(json["model"], "races.battle");
    assert_eq!(json["outcomes"][0]["label"], "attacker (Blue) wins");
}

// ---------------------------------------------------------------- matrices

#[test]
fn the_race_matrix_is_the_battle_seen_from_both_sides() {
    let d = data();
    let m = BonusMatrix::new(&d);
    let open = m.situation("open ground").expect("open ground");
    assert_eq!(m.kinds.len(), d.kinds.len());
    for a in 0..m.kinds.len() {
        // A warband against its own kind ties on every attribute.
        assert!((m.get(open, open, a, a).both - 1.0).abs() < 1e-12);
        for b in 0..m.kinds.len() {
            let o = m.get(open, open, a, b);
            assert!((o.attacker - m.get(open, open, b, a).defender).abs() < 1e-12);
            assert!((o.attacker + o.defender + o.both - 1.0).abs() < 1e-12);
        }
    }
    // Blue attacking White: 4/9 (the hand-worked case above).
    let (blue, white) = (
        d.kind("blue").expect("blue"),
        d.kind("white").expect("white"),
    );
    assert!((m.get(open, open, blue, white).attacker - 4.0 / 9.0).abs() < 1e-12);
}

#[test]
fn the_bonus_matrix_adds_each_situation_to_the_scores() {
    let d = data();
    let m = BonusMatrix::new(&d);
    let at = |label: &str| m.situation(label).unwrap_or_else(|| panic!("{label}"));
    // Open ground; 9 in-hex terrains and fortifications; ruins on each of
    // the 9 attributes; 6 settlements' all-units bonuses; a leader.
    assert_eq!(m.situations.len(), 1 + 10 + 9 + 6 + 1);
    let (blue, white) = (
        d.kind("blue").expect("blue"),
        d.kind("white").expect("white"),
    );
    let close = |o: barsoom::games::races::battle::Odds, a: f64, d: f64, b: f64| {
        (o.attacker - a).abs() < 1e-12
            && (o.defender - d).abs() < 1e-12
            && (o.both - b).abs() < 1e-12
    };
    // Blue [5,1,6,1,2,0,1,5,3] vs White [3,2,3,6,0,0,2,2,6]: Blue wins
    // speed, surprise, armor, psionics; artillery ties 0-0. Fortified
    // (+5 armor, +2 artillery) Blue also wins artillery 2-0: 5/9, 4/9, 0.
    let open = at("open ground");
    let fort = at("in fortifications");
    assert!(close(
        m.get(fort, open, blue, white),
        5.0 / 9.0,
        4.0 / 9.0,
        0.0
    ));
    // Ruins on small arms lift Blue's 1 to White's 2: a tie there, so
    // 4/9, 3/9, 2/9.
    let ruins = at("in ruins (small-arms)");
    assert!(close(
        m.get(ruins, open, blue, white),
        4.0 / 9.0,
        3.0 / 9.0,
        2.0 / 9.0
    ));
    // A leader's +5 on a random attribute against the same kind: Blue wins
    // only when the key is the leader's attribute, sum of (1/9)^2 over 9
    // attributes = 1/9; otherwise a tie.
    let leader = at("leader");
    assert!(close(
        m.get(leader, open, blue, blue),
        1.0 / 9.0,
        0.0,
        8.0 / 9.0
    ));
    // Leaders on both sides: by symmetry each wins as often as the other.
    let both = m.get(leader, leader, blue, blue);
    assert!((both.attacker - both.defender).abs() < 1e-12);
    assert!((both.attacker + both.defender + both.both - 1.0).abs() < 1e-12);
    // The all-units bonus of a held dojo (+1 hand to hand) turns no key
    // between these two: White keeps hand to hand 6-2.
    assert!(close(
        m.get(at("holds dojo"), open, blue, white),
        4.0 / 9.0,
        4.0 / 9.0,
        1.0 / 9.0
    ));
}

#[test]
fn races_matrix_writes_every_combination_and_rejects_unknown_situations() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("m");
    let data = data_dir().display().to_string();
    let o = common::barsoom_ok(
        &[
            "races",
            "matrix",
            "--data",
            &data,
            "--attacker",
            "in fortifications",
            "--out",
            &out.display().to_string(),
        ],
        dir.path(),
    );
    let o = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.contains("27 situations x 11 kinds: 88209 exact battles"),
        "{o}"
    );
    let csv = std::fs::read_to_string(out.join("matrix.csv")).expect("matrix.csv");
    assert_eq!(csv.lines().count(), 1 + 27 * 27 * 11 * 11);
    assert!(
        csv.contains(
            "blue,white,in fortifications,open ground,0.5555555555555556,0.4444444444444444,0.0"
        ),
        "fortified Blue row"
    );
    for stem in [
        "matrix.parquet",
        "situations.png",
        "situations.svg",
        "kinds.png",
        "kinds.svg",
    ] {
        assert!(out.join(stem).is_file(), "{stem}");
    }
    common::assert_bad_input(
        &[
            "races",
            "matrix",
            "--data",
            &data,
            "--defender",
            "in the clouds",
            "--out",
            &out.display().to_string(),
        ],
        dir.path(),
        &["--defender", "\"in the clouds\"", "open ground"],
    );
}
