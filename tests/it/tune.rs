//! `barsoom tune`: successive halving finds a planted optimum and confirms
//! it on a fresh seed.

use crate::common::{assert_bad_input, barsoom_ok, bundled, svg_texts};

fn tune_json(args: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let mut all = vec!["tune", scenario.as_str(), "--json", "--out", "t"];
    all.extend_from_slice(args);
    let o = barsoom_ok(&all, dir.path());
    for file in ["tune.csv", "tune.parquet", "tune.json", "tune.svg"] {
        assert!(dir.path().join("t").join(file).is_file(), "{file}");
    }
    serde_json::from_slice(&o.stdout).expect("JSON")
}

#[test]
fn the_chart_draws_each_target_against_the_setting_with_the_choice_marked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let o = barsoom_ok(
        &[
            "tune",
            &scenario,
            "--vary",
            "sides[0].figures[0].level=4..8",
            "--target",
            "First padwar wins=0.5",
            "--target",
            "rounds=3",
            "-n",
            "2000",
            "--confirm",
            "2000",
            "--out",
            "t",
            "--json",
        ],
        dir.path(),
    );
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let chosen = format!(
        "chosen {}",
        json["best"]["sides[0].figures[0].level"]
            .as_str()
            .expect("best")
    );
    let texts = svg_texts(&dir.path().join("t/tune.svg"));
    assert!(
        texts[0].starts_with("Tuning sides[0].figures[0].level towards"),
        "{texts:?}"
    );
    // One panel per target, each with its target line and the choice.
    for wanted in [
        "First padwar wins (target 0.5)",
        "rounds (target 3)",
        "target 0.5",
        "target 3",
        &chosen,
        "search estimate",
    ] {
        assert!(texts.iter().any(|t| t == wanted), "{wanted} in {texts:?}");
    }
    // The x axis is the varied level, not the round.
    assert!(texts.iter().any(|t| t == "sides[0].figures[0].level"));
    assert!(!texts.iter().any(|t| t.contains("round (")));
}

#[test]
fn finds_the_even_match_among_thirteen_levels() {
    // Two padwars are an even match exactly when both are level 6 (the
    // duel is symmetric), so a 50% target plants the answer at level 6.
    let json = tune_json(&[
        "--vary",
        "sides[0].figures[0].level=1..13",
        "--target",
        "First padwar wins=0.5",
        "-n",
        "5000",
        "--confirm",
        "100000",
    ]);
    assert_eq!(json["best"]["sides[0].figures[0].level"], "6");
    assert_eq!(json["settings"], 13);
    // Confirmed on seed 2, not the search seed.
    assert_eq!(json["confirm_seed"], 2);
    let confirmed = json["targets"][0]["confirmed"].as_f64().expect("rate");
    assert!((confirmed - 0.5).abs() < 0.01, "{confirmed}");
}

#[test]
fn finds_the_planted_pair_in_two_dimensions() {
    // A level-8 padwar against each level 4..=8: only level 8 is even.
    let json = tune_json(&[
        "--set",
        "sides[0].figures[0].level=8",
        "--vary",
        "sides[1].figures[0].level=4..8",
        "--vary",
        "sides[1].figures[0].weapon=long-sword,short-sword",
        "--target",
        "First padwar wins=0.5",
        "-n",
        "5000",
        "--confirm",
        "50000",
    ]);
    assert_eq!(json["best"]["sides[1].figures[0].level"], "8");
    assert_eq!(json["best"]["sides[1].figures[0].weapon"], "long-sword");
}

#[test]
fn target_labels_match_regardless_of_case() {
    let json = tune_json(&[
        "--vary",
        "sides[0].figures[0].level=5,6",
        "--target",
        " first PADWAR wins =0.5",
        "--target",
        "ROUNDS=9",
        "-n",
        "1000",
        "--confirm",
        "1000",
    ]);
    assert_eq!(json["targets"].as_array().map(Vec::len), Some(2));
    assert!(
        json["targets"][0]["confirmed"]
            .as_f64()
            .is_some_and(|r| r <= 1.0)
    );
    assert!(
        json["targets"][1]["confirmed"]
            .as_f64()
            .is_some_and(|r| r > 1.0)
    );
}

#[test]
fn bad_targets_are_one_line_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    for (target, expected) in [
        (
            "Third padwar wins=0.5",
            "expected an outcome label or metric name (case does not matter); nearest: ",
        ),
        ("Third padwar wins=0.5", "\"First padwar wins\""),
        ("First padwar wins=2", "expected a value from 0 to 1"),
        ("rounds=many", "expected a number"),
    ] {
        assert_bad_input(
            &[
                "tune",
                &scenario,
                "--vary",
                "sides[0].figures[0].level=5,6",
                "--target",
                target,
            ],
            dir.path(),
            &[expected],
        );
    }
}
