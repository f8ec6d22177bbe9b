//! `--set PATH=VALUE`: fields of a scenario and of its data files change
//! for one command, type-checked, with the nearest paths suggested for a
//! path that does not exist; the fingerprint tells overridden runs apart.

use crate::common;
use crate::common::{assert_bad_input, barsoom, barsoom_ok, bundled};

fn exact_json(args: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().expect("tempdir");
    let o = barsoom_ok(args, dir.path());
    serde_json::from_slice(&o.stdout).expect("JSON")
}

fn first_rate(json: &serde_json::Value) -> f64 {
    json["outcomes"][0]["rate"].as_f64().expect("rate")
}

#[test]
fn a_data_file_override_equals_the_same_change_in_the_scenario() {
    let scenario = bundled("wom/john-carter-vs-green-chieftain.toml")
        .display()
        .to_string();
    let plain = exact_json(&["exact", &scenario, "--json"]);
    // John Carter at level 10 instead of 13: once through the roster
    // (data file), once through the scenario's figure.
    let via_roster = exact_json(&[
        "exact",
        &scenario,
        "--json",
        "--set",
        "characters.john-carter.level=10",
    ]);
    let via_figure = exact_json(&[
        "exact",
        &scenario,
        "--json",
        "--set",
        "sides[0].figures[0].level=10",
    ]);
    assert_eq!(via_roster["outcomes"], via_figure["outcomes"]);
    assert!(first_rate(&via_roster) < first_rate(&plain) - 0.1);
}

#[test]
fn overridden_runs_record_the_overrides_and_fingerprint_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let run = |out: &str, set: Option<&str>| {
        let mut args = vec![
            "run", &scenario, "-n", "20000", "-q", "--out", out, "--json",
        ];
        if let Some(s) = set {
            args.extend(["--set", s]);
        }
        let o = barsoom_ok(&args, d);
        let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        let state: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(d.join(out).join("state.json")).expect("state"),
        )
        .expect("state JSON");
        let info: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(d.join(out).join("run.json")).expect("run.json"),
        )
        .expect("run JSON");
        (
            json,
            state["fingerprint"].clone(),
            info["overrides"].clone(),
        )
    };
    let (even, even_fp, none) = run("even", None);
    let (strong, strong_fp, listed) = run("strong", Some("sides[0].figures[0].level=9"));
    assert!((first_rate(&even) - 0.5).abs() < 0.02);
    // Level 9 against level 6 wins almost always.
    assert!(first_rate(&strong) > 0.95);
    assert_ne!(even_fp, strong_fp);
    assert_eq!(none, serde_json::json!([]));
    assert_eq!(listed, serde_json::json!(["sides[0].figures[0].level=9"]));
}

#[test]
fn bad_overrides_are_one_line_errors_with_exit_code_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let cases = [
        (
            "charactrs.padwar.level=3",
            "charactrs.padwar.level: --set: no such field in the scenario or its data files; nearest: characters.padwar.level",
        ),
        ("characters.padwar.level=high", "expected an integer"),
        (
            "sides[0].figures[0].levl=9",
            "unknown field `levl`, expected one of",
        ),
        (
            "sides[0].figures[7].level=9",
            "no such field in the scenario or its data files; nearest: sides[0].figures[0]",
        ),
        (
            "sides[0].figures[0].level=30",
            "expected a level 1-13, found 30",
        ),
        ("level", "expected PATH=VALUE"),
        ("sides[x].label=a", "expected a whole-number index"),
    ];
    for (set, expected) in cases {
        assert_bad_input(
            &["run", &scenario, "-n", "10", "--set", set],
            dir.path(),
            &[expected],
        );
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn aerial_data_overrides_change_the_battle() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = bundled("wom/air/helium-battle-cruiser-vs-two-zodangan-cruisers.toml")
        .display()
        .to_string();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            scenario.as_str(),
            "-n",
            "2000",
            "-q",
            "--json",
            "--out",
            "a",
        ];
        args.extend_from_slice(extra);
        let o = barsoom_ok(&args, dir.path());
        serde_json::from_slice::<serde_json::Value>(&o.stdout).expect("JSON")
    };
    // The battle cruiser's heavy guns (air-guns.toml) reduced to 1 damage
    // point a hit can no longer sink two cruisers within 40 turns: she wins
    // only a few battles, by killing their crews or leaving them unable to
    // harm her (they break off).
    let plain = run(&[]);
    let weak = run(&["--set", "guns.heavy.damage=1"]);
    assert!(first_rate(&plain) > 0.8);
    assert!(first_rate(&weak) < 0.05, "{}", first_rate(&weak));
    let o = barsoom(
        &["run", &scenario, "-n", "10", "--set", "guns.heavy.damag=1"],
        dir.path(),
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("guns.heavy.damag"), "{stderr}");
}

#[test]
fn fleet_data_overrides_reach_the_exact_solver() {
    let scenario = bundled("jc/fleet/ten-vs-seven-open-sky.toml")
        .display()
        .to_string();
    let plain = exact_json(&["exact", &scenario, "--json"]);
    // Kantos Kan (commanders.toml) promoted from leadership 2 to 3: his
    // seven strength points win far more often against Astok's ten.
    let led = exact_json(&[
        "exact",
        &scenario,
        "--json",
        "--set",
        "commanders.kantos-kan.leadership=3",
    ]);
    let helium = |json: &serde_json::Value| json["outcomes"][1]["rate"].as_f64().expect("rate");
    assert!(helium(&led) > helium(&plain) + 0.05);
    // The same change made in the scenario (a strength swap) is a scenario
    // override; both kinds fingerprint differently and load the same model.
    let swapped = exact_json(&[
        "exact",
        &scenario,
        "--json",
        "--set",
        "sides[1].strength=10",
    ]);
    assert!(helium(&swapped) > helium(&plain));
}

#[test]
fn races_data_overrides_reach_the_exact_battle() {
    // The rules' sample battle, Blue [5,1,6,1,2,0,1,5,3] against White
    // [3,2,3,6,0,0,2,2,6]: the key attribute is one of nine, equally
    // likely; Blue is higher on speed, surprise, armor and psionics (4/9),
    // White on small arms, hand to hand, numbers and morale (4/9), and
    // artillery ties (1/9, both destroyed).
    let scenario = bundled("races/battle/blue-attacks-white.toml")
        .display()
        .to_string();
    let ninths = |json: &serde_json::Value| -> Vec<f64> {
        (0..3)
            .map(|i| json["outcomes"][i]["rate"].as_f64().expect("rate") * 9.0)
            .collect()
    };
    let close = |got: Vec<f64>, want: [f64; 3]| {
        assert!(
            got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-9),
            "{got:?} vs {want:?}"
        );
    };
    close(
        ninths(&exact_json(&["exact", &scenario, "--json"])),
        [4.0, 4.0, 1.0],
    );
    // Blue's speed 5 and armor 2 become 3 and 4 (still 24 points): speed
    // now ties White's 3, armor still wins, so 3/9, 4/9, 2/9.
    let moved = exact_json(&[
        "exact",
        &scenario,
        "--json",
        "--set",
        "races.blue.values[0]=3",
        "--set",
        "races.blue.values[4]=4",
    ]);
    close(ninths(&moved), [3.0, 4.0, 2.0]);
    // A race that no longer adds up to 24 points is refused in one line.
    let dir = tempfile::tempdir().expect("tempdir");
    common::assert_bad_input(
        &["exact", &scenario, "--set", "races.blue.values[0]=9"],
        dir.path(),
        &["races.toml", "races.blue.values", "24 points"],
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn jetan_piece_value_overrides_change_the_takings() {
    // Greedy against random: doubling the Chief's mark (pieces.toml) leaves
    // greedy's order of preference alone, so the same games are played and
    // seat A's takings grow by 10 for every Chief it took.
    let scenario = bundled("jetan/greedy-vs-random.toml").display().to_string();
    let takings = |extra: &[&str]| {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("out");
        let mut args = vec!["run", &scenario, "-n", "300", "-q", "--json", "--out"];
        let out = out.display().to_string();
        args.push(&out);
        args.extend_from_slice(extra);
        let o = common::barsoom_ok(&args, dir.path());
        let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        let wins = json["outcomes"][0]["count"].as_f64().expect("count");
        (
            json["metrics"]["a_takings"]["mean"].as_f64().expect("mean"),
            wins,
        )
    };
    let (marks, wins) = takings(&[]);
    let (doubled, same_wins) = takings(&["--set", "values.chief=20"]);
    assert_eq!(wins, same_wins, "the same games");
    let chiefs_taken_per_game = (doubled - marks) / 10.0;
    assert!(
        chiefs_taken_per_game > 0.3 && chiefs_taken_per_game <= 1.0,
        "{marks} -> {doubled}"
    );
}

#[test]
fn set_creates_a_table_the_scenario_omits_where_the_schema_defaults_it() {
    // random-vs-random has no [rules] table: `rules.X` creates it. Random
    // movers often take a Chief with another piece (a draw by the book);
    // under chief_taken_by_other = loss not one such draw is left.
    let scenario = bundled("jetan/random-vs-random.toml").display().to_string();
    let dir = tempfile::tempdir().expect("tempdir");
    let chief_draws = |extra: &[&str]| {
        let mut args = vec!["run", &scenario, "-n", "200", "-q", "--json", "--out", "o"];
        args.extend_from_slice(extra);
        let o = barsoom_ok(&args, dir.path());
        let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        assert_eq!(
            json["outcomes"][2]["label"],
            "draw: a Chief taken by another piece"
        );
        json["outcomes"][2]["count"].as_u64().expect("count")
    };
    assert!(chief_draws(&[]) > 20);
    assert_eq!(
        chief_draws(&["--set", "rules.chief_taken_by_other=loss"]),
        0
    );
    // The created table is checked like a written one; a table the schema
    // does not have is still no such field.
    common::assert_bad_input(
        &["run", &scenario, "-n", "10", "--set", "rules.flier=swims"],
        dir.path(),
        &["rules.flier", "expected jumps or slides"],
    );
    common::assert_bad_input(
        &["run", &scenario, "-n", "10", "--set", "rulez.flier=slides"],
        dir.path(),
        &["rulez.flier: --set: no such field in the scenario or its data files"],
    );
    let duel = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    common::assert_bad_input(
        &["run", &duel, "-n", "10", "--set", "rules.flier=slides"],
        dir.path(),
        &["no such field in the scenario or its data files"],
    );
}
