//! `wom.air` end to end: bundled scenarios run, results do not depend on
//! the thread count, replays narrate the rules applied, rule consequences
//! hold in bulk, and impossible set-ups are refused with one-line errors.

use barsoom::games::ScenarioModel;
use std::path::{Path, PathBuf};

use barsoom::engine::Tally;
use barsoom::games::wom::air::battle::WomAir;

use crate::common;
use crate::common::text;

fn air(name: &str) -> PathBuf {
    common::bundled(&format!("wom/air/{name}.toml"))
}

fn model(name: &str) -> WomAir {
    match WomAir::load(&air(name)) {
        Ok((m, _)) => m,
        Err(e) => panic!("{name}: {e}"),
    }
}

fn tally(m: &WomAir, trials: u64, threads: usize) -> Tally {
    common::tally(m, 7, 0..trials, threads, 1000)
}

fn rate(t: &Tally, outcome: usize) -> f64 {
    t.outcomes[outcome] as f64 / t.trials() as f64
}

fn mean(t: &Tally, metric: usize) -> f64 {
    t.metrics[metric].mean().expect("observations")
}

const SCENARIOS: [&str; 12] = [
    "helium-battle-cruiser-vs-two-zodangan-cruisers",
    "black-pirate-battleship-boards-helium-battle-cruiser",
    "two-first-born-cruisers-board-helium-battle-cruiser",
    "six-against-six",
    "six-against-six-black-pirate-boarders",
    "six-against-six-barsoomian-circle",
    "six-against-six-random",
    "scout-screen-vs-light-cruiser",
    "zodangan-bombers-vs-helium-battleship",
    "helium-cruisers-bomb-zodangan-fort",
    "helium-transports-land-troops-under-fire",
    "thark-ambush-over-a-dead-city",
];

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn every_bundled_scenario_validates_and_runs() {
    let dir = tempfile::tempdir().expect("tempdir");
    for name in SCENARIOS {
        let path = air(name);
        let path = path.to_str().expect("utf-8 path");
        let out = dir.path().join(name);
        let o = common::barsoom(
            &[
                "run",
                path,
                "-n",
                "2000",
                "--json",
                "--quiet",
                "--out",
                out.to_str().expect("utf-8"),
            ],
            &common::root(),
        );
        assert!(o.status.success(), "{name}: {}", text(&o.stderr));
        let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        assert_eq!(json["model"], "wom.air");
        let total: u64 = json["outcomes"]
            .as_array()
            .expect("outcomes")
            .iter()
            .map(|x| x["count"].as_u64().expect("count"))
            .sum();
        assert_eq!(total, 2000, "{name}");
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn identical_for_one_two_and_three_threads() {
    // The random tactic draws its orders from the same dice, so it is
    // included; the circle and the boarders exercise their own state.
    for name in [
        "six-against-six",
        "six-against-six-random",
        "six-against-six-black-pirate-boarders",
        "six-against-six-barsoomian-circle",
        "zodangan-bombers-vs-helium-battleship",
        "helium-cruisers-bomb-zodangan-fort",
        "helium-transports-land-troops-under-fire",
        "thark-ambush-over-a-dead-city",
    ] {
        let m = model(name);
        let one = tally(&m, 6000, 1);
        assert_eq!(one, tally(&m, 6000, 2), "{name}: 2 threads");
        assert_eq!(one, tally(&m, 6000, 3), "{name}: 3 threads");
        assert_eq!(one.trials(), 6000);
    }
}

#[test]
fn medium_guns_cannot_hurt_a_battle_cruiser() {
    // [Possibility of Weapon Type Damaging Ship Type]: medium guns cannot
    // damage a battle cruiser, so two cruisers only kill its exposed men
    // (and damage it by collision), while its heavy guns sink them.
    let m = model("helium-battle-cruiser-vs-two-zodangan-cruisers");
    let t = tally(&m, 4000, 2);
    // The battle cruiser is never lost. Zodanga wins only when she can no
    // longer harm them (her gunners and bombs gone) and breaks off.
    assert_eq!(mean(&t, 1), 0.0);
    assert!(rate(&t, 0) > 0.8, "Helium wins {}", rate(&t, 0));
    assert!(
        (t.outcomes[1] as f64) <= mean(&t, 8) * t.trials() as f64,
        "every Zodangan win is Helium breaking off"
    );
    // Damage to the battle cruiser can only come from collisions.
    assert!(mean(&t, 4) < 150.0, "damage to Helium {}", mean(&t, 4));
    assert!(mean(&t, 6) > 0.0, "Helium loses exposed crew");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "statistical check: run in release (cargo test --release)"
)]
fn stalemates_break_off_and_the_turn_limit_binds_under_one_percent() {
    // A side that can no longer harm the enemy breaks off (our reading):
    // in every bundled battle the turn limit, kept as a safety net, ends
    // fewer than 1% of 4,000 battles; the outcome before it is "drawn".
    use barsoom::engine::Model;
    for name in SCENARIOS {
        let m = model(name);
        let t = tally(&m, 4000, 2);
        let undecided = m.spec().outcomes.len() - 1;
        assert!(m.spec().outcomes[undecided - 1].starts_with("drawn"));
        assert!(
            rate(&t, undecided) < 0.01,
            "{name}: undecided {}",
            rate(&t, undecided)
        );
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "statistical check: run in release (cargo test --release)"
)]
fn boarders_capture_ships_and_the_scenario_records_it() {
    // The book's boarding: six grapples hold as the scenario opens; the
    // Heliumites cut on a 1 with 10 figures (about 1.7 cuts), then 25 First
    // Born board 16 Heliumites: they take the battle cruiser almost always.
    let m = model("black-pirate-battleship-boards-helium-battle-cruiser");
    let t = tally(&m, 3000, 2);
    assert!(mean(&t, 3) > 0.8, "captured {}", mean(&t, 3));
    assert!(rate(&t, 0) > 0.8, "First Born win {}", rate(&t, 0));
    let m = model("six-against-six-black-pirate-boarders");
    let t = tally(&m, 3000, 2);
    assert!(mean(&t, 3) > 0.005, "captured {}", mean(&t, 3));
    // Line of battle never grapples, so every capture is of a Heliumite.
    let line_only = model("six-against-six");
    assert_eq!(mean(&tally(&line_only, 2000, 2), 3), 0.0);
}

#[test]
fn keel_bombs_are_dropped_by_bombers() {
    let m = model("zodangan-bombers-vs-helium-battleship");
    let mut bombed = false;
    for trial in 0..40 {
        let (_, log) = barsoom::engine::replay(&m, 1, trial);
        if log
            .events
            .iter()
            .any(|e| e.case == "WoM air Bombing Table, Aerial Targets")
        {
            bombed = true;
            break;
        }
    }
    assert!(
        bombed,
        "bombers pass over the battleship and drop keel bombs"
    );
}

#[test]
fn replay_trace_names_the_rules() {
    let mut seen = std::collections::BTreeSet::new();
    for (name, trial) in (0..10)
        .map(|t| ("black-pirate-battleship-boards-helium-battle-cruiser", t))
        .chain((0..10).map(|t| ("six-against-six", t)))
    {
        let path = air(name);
        let o = common::barsoom_ok(
            &[
                "run",
                path.to_str().expect("utf-8"),
                "--replay",
                &trial.to_string(),
                "--trace",
            ],
            &common::root(),
        );
        for line in text(&o.stdout).lines() {
            if let Some((case, _)) = line
                .trim()
                .strip_prefix('[')
                .and_then(|r| r.split_once(']'))
            {
                seen.insert(case.to_string());
            }
        }
    }
    for case in [
        "WoM air Movement",
        "WoM air To Hit, All Weapons",
        "WoM air Hit Location",
        "WoM air Damage",
        "WoM air Damage Effects",
        "WoM air Grappling",
        "WoM air Boarding",
        "WoM air Boarding Melee Table",
    ] {
        assert!(seen.contains(case), "{case} missing from {seen:?}");
    }
}

/// Writes a scenario with the given sides TOML, pointing at `data`.
fn write(dir: &Path, name: &str, data: &Path, body: &str) -> PathBuf {
    common::write_scenario(dir, name, "wom.air", data, body)
}

const ENEMY: &str = "[[sides]]\ntactic = \"line-of-battle\"\n[[sides.ships]]\nclass = \"cruiser\"\nx = 20.0\ny = 0.0\naltitude = 1.0\nheading = 180\n";

#[test]
fn impossible_set_ups_get_one_line_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = common::wom_data();
    let ship = |fields: &str| {
        format!("[[sides]]\ntactic = \"line-of-battle\"\n[[sides.ships]]\n{fields}\n{ENEMY}")
    };

    let p = write(
        dir.path(),
        "class",
        &data,
        &ship("class = \"dreadnought\"\nx = 0.0\ny = 0.0"),
    );
    common::assert_invalid(
        &p,
        &[
            "sides[0].ships[0].class",
            "unknown ship class \"dreadnought\"",
            "battle-cruiser",
        ],
    );

    // A small scout carries no broadside guns.
    let p = write(
        dir.path(),
        "facing",
        &data,
        &ship("class = \"small-scout\"\nx = 0.0\ny = 0.0\nguns = { starboard = 1 }"),
    );
    common::assert_invalid(
        &p,
        &[
            "sides[0].ships[0].guns.starboard",
            "no guns on its starboard facing",
        ],
    );

    let p = write(
        dir.path(),
        "keel",
        &data,
        &ship("class = \"cruiser\"\nx = 0.0\ny = 0.0\nguns = { keel = 1 }"),
    );
    common::assert_invalid(&p, &["guns.keel", "bow, starboard, port or stern"]);

    let p = write(
        dir.path(),
        "many",
        &data,
        &ship("class = \"cruiser\"\nx = 0.0\ny = 0.0\nguns = { port = 5 }"),
    );
    common::assert_invalid(&p, &["guns.port", "at most 4 guns"]);

    let p = write(
        dir.path(),
        "altitude",
        &data,
        &ship("class = \"cruiser\"\nx = 0.0\ny = 0.0\naltitude = 3.5"),
    );
    common::assert_invalid(&p, &["altitude", "from 0 to 3 inches"]);

    let p = write(
        dir.path(),
        "heading",
        &data,
        &ship("class = \"cruiser\"\nx = 0.0\ny = 0.0\nheading = 50"),
    );
    common::assert_invalid(&p, &["heading", "steps of 15"]);

    let p = write(
        dir.path(),
        "tactic",
        &data,
        &format!(
            "[[sides]]\ntactic = \"kamikaze\"\n[[sides.ships]]\nclass = \"cruiser\"\nx = 0.0\ny = 0.0\n{ENEMY}"
        ),
    );
    common::assert_invalid(&p, &["sides[0].tactic", "line-of-battle"]);

    let p = write(
        dir.path(),
        "morale",
        &data,
        &ship("class = \"cruiser\"\nx = 0.0\ny = 0.0\nmorale = \"heroes\""),
    );
    common::assert_invalid(&p, &["morale", "guards-navy"]);

    let p = write(
        dir.path(),
        "grapple",
        &data,
        &ship(
            "class = \"cruiser\"\nx = 0.0\ny = 0.0\naltitude = 1.0\ngrappled_to = 0\ngrapples = 3",
        ),
    );
    common::assert_invalid(
        &p,
        &["sides[0].ships[0].grappled_to", "within grappling distance"],
    );

    let mut crowd = String::from("[[sides]]\ntactic = \"line-of-battle\"\n");
    for k in 0..16 {
        crowd.push_str(&format!(
            "[[sides.ships]]\nclass = \"cruiser\"\nx = {k}.0\ny = 0.0\n"
        ));
    }
    let p = write(dir.path(), "crowd", &data, &format!("{crowd}{ENEMY}"));
    common::assert_invalid(&p, &["sides", "at most 16 ships"]);
}

#[test]
fn bad_data_files_get_one_line_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let copy = dir.path().join("data");
    std::fs::create_dir(&copy).expect("mkdir");
    for entry in std::fs::read_dir(common::wom_data()).expect("data dir") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), copy.join(entry.file_name())).expect("copy");
    }
    let body = format!(
        "[[sides]]\ntactic = \"line-of-battle\"\n[[sides.ships]]\nclass = \"cruiser\"\nx = 0.0\ny = 0.0\n{ENEMY}"
    );
    let p = write(dir.path(), "s", &copy, &body);
    let ships = copy.join("air-ships.toml");
    let original = std::fs::read_to_string(&ships).expect("read");

    // An unknown gun type.
    let changed = original.replacen("gun = \"medium\"", "gun = \"lightning\"", 1);
    std::fs::write(&ships, changed).expect("write");
    common::assert_invalid(
        &p,
        &["air-ships.toml", ".gun", "unknown gun type \"lightning\""],
    );

    // A gun mounted on a facing no flier has.
    let changed = original.replacen(
        "{ facing = \"starboard\", count = 9 }",
        "{ facing = \"keel\", count = 9 }",
        1,
    );
    std::fs::write(&ships, changed).expect("write");
    common::assert_invalid(&p, &["air-ships.toml", "mounts[2].facing", "\"keel\""]);

    // An armament pattern that does not hold the ship's guns.
    let changed = original.replacen(
        "{ facing = \"port\", count = 9 }",
        "{ facing = \"port\", count = 8 }",
        1,
    );
    std::fs::write(&ships, changed).expect("write");
    common::assert_invalid(&p, &["mounts", "hold the 22 guns, found 21"]);
    std::fs::write(&ships, &original).expect("restore");

    // A hit-location table listing a total twice.
    let combat = copy.join("air-combat.toml");
    let text = std::fs::read_to_string(&combat).expect("read");
    std::fs::write(
        &combat,
        text.replacen(
            "gun = [3, 3], hull = [4, 11]",
            "gun = [3, 4], hull = [4, 11]",
            1,
        ),
    )
    .expect("write");
    common::assert_invalid(&p, &["hit_location.bow.hull", "listed twice"]);
}

#[test]
fn optional_bomb_criticals_run_and_stay_deterministic() {
    // [Bombing Fliers] optional rule: each keel bomb hit acts as a hull-top
    // hit, rolling the hull-top critical on a 12.
    let dir = tempfile::tempdir().expect("tempdir");
    let text = std::fs::read_to_string(air("zodangan-bombers-vs-helium-battleship")).expect("read");
    let text = text.replacen(
        "sequence = \"move-counter-move\"",
        &format!(
            "sequence = \"move-counter-move\"\nbomb_criticals = true\ndata = {:?}",
            common::wom_data().display().to_string()
        ),
        1,
    );
    let path = dir.path().join("bomb-criticals.toml");
    std::fs::write(&path, text).expect("write");
    let (m, _) = WomAir::load(&path).expect("loads");
    assert!(m.bomb_criticals);
    let one = tally(&m, 3000, 1);
    assert_eq!(one, tally(&m, 3000, 3));
}

#[test]
fn move_counter_move_fires_after_each_sides_move() {
    // [Movement; Fire]: with move-counter-move, each side fires right after
    // its own move; side A moves first in odd turns, side B in even turns.
    let m = model("zodangan-bombers-vs-helium-battleship");
    let (_, log) = barsoom::engine::replay(&m, 1, 0);
    let mut turn = 0;
    let mut order = Vec::new();
    for e in &log.events {
        if e.case == "WoM air Movement" && e.text.starts_with("turn ") {
            turn += 1;
            if turn == 3 {
                break;
            }
            order.push(format!("turn {turn}"));
        } else if e.case == "WoM air Movement" || e.case == "WoM air To Hit, All Weapons" {
            let who = if e.text.starts_with("Zodangan") {
                "Z"
            } else {
                "H"
            };
            let what = if e.case == "WoM air Movement" {
                "moves"
            } else {
                "fires"
            };
            let step = format!("{who} {what}");
            if order.last() != Some(&step) {
                order.push(step);
            }
        }
    }
    assert_eq!(
        order,
        [
            "turn 1", "Z moves", "Z fires", "H moves", "H fires", "turn 2", "H moves", "H fires",
            "Z moves", "Z fires"
        ],
        "{order:?}"
    );
}

#[test]
fn rammers_run_their_target_down() {
    // [Ramming and Collision]: a cruiser steering straight for a battleship
    // coming head on at its altitude: after 7" and 6" the gap is 7"; the
    // cruiser stops where the battleship will be and the battleship runs
    // into it at 7" relative speed: 70% of the cruiser's 800 points each.
    let dir = tempfile::tempdir().expect("tempdir");
    let body = "[[sides]]\ntactic = \"rammers\"\n[[sides.ships]]\nclass = \"cruiser\"\nx = 0.0\ny = 0.0\naltitude = 1.0\n[[sides]]\ntactic = \"line-of-battle\"\n[[sides.ships]]\nclass = \"battleship\"\nx = 20.0\ny = 0.0\naltitude = 1.0\nheading = 180\n";
    let path = write(dir.path(), "rammers", &common::wom_data(), body);
    let (m, _) = WomAir::load(&path).expect("loads");
    let collisions = (0..20)
        .filter(|trial| {
            let (_, log) = barsoom::engine::replay(&m, 1, *trial);
            log.events.iter().any(|e| {
                e.case == "WoM air Ramming and Collision"
                    && e.text.contains("7.0\" relative speed: 70%")
                    && e.text.contains("560 points each")
            })
        })
        .count();
    assert!(collisions > 10, "{collisions} of 20");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "statistical check: run in release (cargo test --release)"
)]
fn line_of_battle_beats_random_orders() {
    // The same Zodangan fleet does better in line of battle (closing
    // obliquely, broadsides bearing, concentrated fire) than on random
    // orders against the same Heliumite line.
    let line = tally(&model("six-against-six"), 4000, 2);
    let random = tally(&model("six-against-six-random"), 4000, 2);
    assert!(
        rate(&line, 1) > rate(&random, 1) + 0.02,
        "line {} random {}",
        rate(&line, 1),
        rate(&random, 1)
    );
}

/// Mean of the metric called `name` in `t`.
fn mean_named(m: &WomAir, t: &Tally, name: &str) -> f64 {
    use barsoom::engine::Model;
    let index = m.spec().metrics.iter().position(|s| s.name == name);
    mean(t, index.unwrap_or_else(|| panic!("no metric {name}")))
}

/// Sum of the means of every metric whose name starts with `prefix`.
fn sum_of_means(m: &WomAir, t: &Tally, prefix: &str) -> (f64, usize) {
    use barsoom::engine::Model;
    let hits: Vec<usize> = (0..m.spec().metrics.len())
        .filter(|&i| m.spec().metrics[i].name.starts_with(prefix))
        .collect();
    (hits.iter().map(|&i| mean(t, i)).sum(), hits.len())
}

#[test]
fn per_class_losses_add_up_to_each_sides_losses() {
    // Six against six: four classes a side, so four lost/captured/crippled
    // metrics per side: destroyed plus captured, by class, is each side's losses.
    let m = model("six-against-six-black-pirate-boarders");
    let t = tally(&m, 3000, 2);
    for side in ["a", "b"] {
        let (destroyed, classes) = sum_of_means(&m, &t, &format!("destroyed_{side}_"));
        let (captured, _) = sum_of_means(&m, &t, &format!("captured_{side}_"));
        assert!(classes >= 2, "side {side}: {classes} class metrics");
        let lost = mean_named(&m, &t, &format!("lost_{side}"));
        assert!(destroyed > 0.0, "side {side} loses ships");
        let sum = destroyed + captured;
        assert!((sum - lost).abs() < 1e-9, "{side}: {sum} vs {lost}");
        let (_, crippled) = sum_of_means(&m, &t, &format!("crippled_{side}_"));
        assert_eq!(crippled, classes);
    }
    let (captured, _) = sum_of_means(&m, &t, "captured_");
    let total = mean_named(&m, &t, "captured");
    assert!(captured > 0.0 && (captured - total).abs() < 1e-9);
    // Ships afloat and crippled exist in a long line-of-battle fight.
    let line = model("six-against-six");
    let t = tally(&line, 2000, 2);
    assert!(sum_of_means(&line, &t, "crippled_").0 > 0.0);
}

const FLIER: &str = "[[sides]]\ntactic = \"bombers\"\n[[sides.ships]]\nclass = \"cruiser\"\nx = -20.0\ny = 0.0\naltitude = 1.0\n";

#[test]
fn bad_ground_targets_get_one_line_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = common::wom_data();
    let ground = |fields: &str| {
        format!("{FLIER}[[sides]]\ntactic = \"line-of-battle\"\n[[sides.ground]]\n{fields}\n")
    };
    let unit = |figures: i64| {
        format!(
            "x = 0.0\ny = 0.0\ntroops = {{ name = \"outpost\", troop = \"human-infantry\", class = \"levies\", figures = {figures} }}"
        )
    };

    let p = write(dir.path(), "no-figures", &data, &ground(&unit(0)));
    common::assert_invalid(
        &p,
        &[
            "sides[1].ground[0].troops.figures",
            "expected 1 to 2000 figures, found 0",
        ],
    );

    let p = write(
        dir.path(),
        "kind",
        &data,
        &ground("x = 0.0\ny = 0.0\nstructure = \"castle\""),
    );
    common::assert_invalid(
        &p,
        &[
            "sides[1].ground[0].structure",
            "unknown structure kind \"castle\"",
            "small-fort",
        ],
    );

    let p = write(
        dir.path(),
        "off-field",
        &data,
        &ground("x = 150.0\ny = 0.0\nstructure = \"small-fort\""),
    );
    common::assert_invalid(
        &p,
        &[
            "sides[1].ground[0].x",
            "expected inches on the ground field, -100 to 100",
        ],
    );

    let p = write(dir.path(), "neither", &data, &ground("x = 0.0\ny = 0.0"));
    common::assert_invalid(
        &p,
        &[
            "sides[1].ground[0].structure",
            "either a structure or troops",
        ],
    );

    let p = write(
        dir.path(),
        "guns",
        &data,
        &ground("x = 0.0\ny = 0.0\nstructure = \"small-fort\"\nguns = 2"),
    );
    common::assert_invalid(&p, &["sides[1].ground[0].guns", "no guns sited in it"]);

    let p = write(
        dir.path(),
        "ambush",
        &data,
        &ground(&format!("{}\nambush = true", unit(5))),
    );
    common::assert_invalid(&p, &["sides[1].ground[0].ambush", "missile = \"rifle\""]);

    // A landing on a structure, and from a flier with no troops aboard.
    let lander = |fields: &str| {
        format!(
            "[[sides]]\ntactic = \"line-of-battle\"\n[[sides.ships]]\nclass = \"heavy-transport\"\nx = -20.0\ny = 0.0\n{fields}\n[[sides]]\ntactic = \"line-of-battle\"\n[[sides.ground]]\nx = 0.0\ny = 0.0\nstructure = \"small-fort\"\n[[sides.ground]]\n{}\n",
            unit(5)
        )
    };
    let p = write(dir.path(), "on-fort", &data, &lander("land_at = 0"));
    common::assert_invalid(
        &p,
        &["sides[0].ships[0].land_at", "expected troops to land on"],
    );
    let p = write(
        dir.path(),
        "no-troops",
        &data,
        &lander("land_at = 1\nfigures = { troops = 0 }"),
    );
    common::assert_invalid(
        &p,
        &["sides[0].ships[0].figures.troops", "expected troops aboard"],
    );
    let p = write(dir.path(), "far", &data, &lander("land_at = 3"));
    common::assert_invalid(
        &p,
        &[
            "sides[0].ships[0].land_at",
            "expected the index of a ground target",
        ],
    );
}
