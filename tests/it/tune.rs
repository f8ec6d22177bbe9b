//! `barsoom tune`: successive halving finds a planted optimum and confirms
//! it on a fresh seed.

use crate::common::{assert_bad_input, barsoom_ok, bundled, svg_texts, table_in};

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

#[test]
fn tune_prints_its_settings_as_a_table_and_stores_them_typed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let o = barsoom_ok(
        &[
            "tune",
            &scenario,
            "--vary",
            "sides[0].figures[0].level=4..8",
            "--vary",
            "sides[0].figures[0].weapon=long-sword,short-sword",
            "--target",
            "First padwar wins=0.5",
            "-n",
            "1000",
            "--confirm",
            "1000",
            "--out",
            "t",
        ],
        d,
    );
    let (stdout, lines, header) = table_in(&o.stdout, "sides[0].figures[0].level");
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    assert!(
        lines[header].ends_with("First padwar wins (target 0.5)      loss"),
        "{stdout}"
    );
    // All ten settings, the winner (which ran the most trials) first.
    let rows = &lines[header + 1..header + 11];
    let trials: Vec<u64> = rows
        .iter()
        .map(|r| {
            r.split_whitespace()
                .nth(2)
                .expect("trials")
                .replace(',', "")
                .parse()
                .expect("count")
        })
        .collect();
    assert!(trials.windows(2).all(|w| w[0] >= w[1]), "{stdout}");
    assert!(
        rows[0].starts_with("                        6  long-sword"),
        "{stdout}"
    );
    // tune.parquet stores the level as a number and the weapon as text, as
    // sweep.parquet does.
    use polars::prelude::*;
    let file = std::fs::File::open(d.join("t/tune.parquet")).expect("open");
    let frame = ParquetReader::new(file).finish().expect("parquet reads");
    assert_eq!(
        frame
            .column("sides[0].figures[0].level")
            .expect("level")
            .dtype(),
        &DataType::Int64
    );
    assert_eq!(
        frame
            .column("sides[0].figures[0].weapon")
            .expect("weapon")
            .dtype(),
        &DataType::String
    );
}

/// The exact rate of the scenario's first outcome with `overrides`.
fn exact_rate(scenario: &str, overrides: &[&str], d: &std::path::Path) -> f64 {
    let mut args = vec!["exact", scenario, "--json"];
    for o in overrides {
        args.extend(["--set", o]);
    }
    let o = barsoom_ok(&args, d);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    json["outcomes"][0]["rate"].as_f64().expect("rate")
}

#[test]
fn find_locates_the_level_where_a_warrior_has_even_odds_against_a_banth() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let scenario = bundled("wom/red-warrior-vs-banth.toml")
        .display()
        .to_string();
    let level = "sides[0].figures[0].level";
    // The exact solver puts the crossing between levels 9 and 10; the
    // answer interpolates between their exact rates.
    let p9 = exact_rate(&scenario, &[&format!("{level}=9")], d);
    let p10 = exact_rate(&scenario, &[&format!("{level}=10")], d);
    assert!(p9 < 0.5 && p10 > 0.5, "{p9} {p10}");
    let exact_crossing = 9.0 + (0.5 - p9) / (p10 - p9);
    let o = barsoom_ok(
        &[
            "tune",
            &scenario,
            "--find",
            "--vary",
            &format!("{level}=1..13"),
            "--target",
            "red warrior WINS=0.5",
            "-n",
            "20000",
            "--confirm",
            "400000",
            "--out",
            "f",
            "--json",
        ],
        d,
    );
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(json["between"], serde_json::json!(["9", "10"]));
    let crossing = json["crossing"].as_f64().expect("crossing");
    let ci: Vec<f64> = json["crossing_ci95"]
        .as_array()
        .expect("interval")
        .iter()
        .map(|v| v.as_f64().expect("bound"))
        .collect();
    assert!(ci[0] <= crossing && crossing <= ci[1], "{crossing} {ci:?}");
    assert!(
        ci[0] <= exact_crossing && exact_crossing <= ci[1],
        "exact {exact_crossing} in {ci:?}"
    );
    assert!(ci[1] - ci[0] < 0.05, "{ci:?}");
    assert_eq!(json["confirm_seed"], 2);
    // Bisection: the two ends, then about log2(13) steps, not 13 runs.
    let trace = crate::common::read_csv(&d.join("f/tune.csv"));
    assert!(trace.len() - 1 <= 6, "{}", trace.len());
    // No crossing in range is one line.
    assert_bad_input(
        &[
            "tune",
            &scenario,
            "--find",
            "--vary",
            &format!("{level}=1..5"),
            "--target",
            "Red warrior wins=0.5",
            "-n",
            "2000",
            "--out",
            "g",
        ],
        d,
        &["no crossing of 0.5", "widen --vary"],
    );
    assert_bad_input(
        &[
            "tune",
            &scenario,
            "--find",
            "--vary",
            &format!("{level}=9,5"),
            "--target",
            "Red warrior wins=0.5",
        ],
        d,
        &["increasing order"],
    );
}

/// `tune --method ntbea` on the padwar duel with `args`, in `dir/out`.
fn ntbea_json(dir: &std::path::Path, out: &str, args: &[&str]) -> serde_json::Value {
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let mut all = vec![
        "tune",
        scenario.as_str(),
        "--method",
        "ntbea",
        "--json",
        "--out",
        out,
    ];
    all.extend_from_slice(args);
    let o = barsoom_ok(&all, dir);
    serde_json::from_slice(&o.stdout).expect("JSON")
}

/// The grid of the planted case: a level-8 padwar with a long sword
/// against levels 4..=10 and four weapons (28 settings). The duel is
/// symmetric, so only the mirror (8, long sword) is an even match.
const PLANTED: [&str; 8] = [
    "--set",
    "sides[0].figures[0].level=8",
    "--vary",
    "sides[1].figures[0].level=4..10",
    "--vary",
    "sides[1].figures[0].weapon=long-sword,short-sword,hatchet,dagger",
    "--target",
    "First padwar wins=0.5",
];

#[test]
fn ntbea_finds_the_planted_mirror_match_without_running_the_whole_grid() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let mut args = PLANTED.to_vec();
    args.extend(["--evaluations", "20", "-n", "4000", "--confirm", "100000"]);
    let json = ntbea_json(d, "n", &args);
    assert_eq!(json["method"], "ntbea");
    assert_eq!(json["best"]["sides[1].figures[0].level"], "8");
    assert_eq!(json["best"]["sides[1].figures[0].weapon"], "long-sword");
    assert_eq!(json["settings"], 28);
    assert_eq!(json["ntbea"]["evaluated"], 20);
    assert_eq!(json["ntbea"]["neighbours"], 50);
    assert_eq!(json["ntbea"]["mutation"], 0.5);
    assert_eq!(json["search_trials"], 20 * 4000);
    assert_eq!(json["confirm_seed"], 2);
    let confirmed = json["targets"][0]["confirmed"].as_f64().expect("rate");
    assert!((confirmed - 0.5).abs() < 0.005, "{confirmed}");
    // One trace row per evaluation, each setting once, the chosen one kept.
    let trace = crate::common::read_csv(&d.join("n/tune.csv"));
    assert_eq!(trace.len() - 1, 20);
    let header: Vec<&str> = trace[0].iter().map(String::as_str).collect();
    let column = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (setting, kept) = (column("setting"), column("kept"));
    let mut seen: Vec<&str> = trace[1..].iter().map(|r| r[setting].as_str()).collect();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), 20, "no setting evaluated twice");
    assert_eq!(trace[1..].iter().filter(|r| r[kept] == "true").count(), 1);
}

#[test]
fn ntbea_comes_as_close_to_the_targets_as_the_whole_grid() {
    // 100 settings (both levels 4..=8, the second padwar's weapon); the
    // grid runs them all, NTBEA evaluates 40.
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let space = [
        "--vary",
        "sides[0].figures[0].level=4..8",
        "--vary",
        "sides[1].figures[0].level=4..8",
        "--vary",
        "sides[1].figures[0].weapon=long-sword,short-sword,hatchet,dagger",
        "--target",
        "First padwar wins=0.7",
        "-n",
        "3000",
        "--confirm",
        "100000",
    ];
    let grid = {
        let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
        let mut all = vec!["tune", scenario.as_str(), "--json", "--out", "g"];
        all.extend_from_slice(&space);
        let o = barsoom_ok(&all, d);
        serde_json::from_slice::<serde_json::Value>(&o.stdout).expect("JSON")
    };
    let mut args = space.to_vec();
    args.extend(["--evaluations", "40"]);
    let ntbea = ntbea_json(d, "n", &args);
    let loss = |j: &serde_json::Value| j["confirmed_loss"].as_f64().expect("loss");
    assert_eq!(ntbea["settings"], 100);
    assert!(
        loss(&ntbea) <= loss(&grid) + 0.002,
        "ntbea {} ({}) against the grid's {} ({})",
        loss(&ntbea),
        ntbea["best"],
        loss(&grid),
        grid["best"]
    );
    assert!(
        ntbea["search_trials"].as_u64() < grid["search_trials"].as_u64(),
        "{} {}",
        ntbea["search_trials"],
        grid["search_trials"]
    );
}

#[test]
fn ntbea_is_the_same_for_any_threads_and_draws_its_chart_and_table() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let run = |threads: &str, out: &str| {
        let mut all = vec![
            "tune",
            scenario.as_str(),
            "--method",
            "ntbea",
            "--threads",
            threads,
            "--out",
            out,
        ];
        all.extend_from_slice(&PLANTED);
        all.extend([
            "--evaluations",
            "12",
            "--neighbours",
            "10",
            "--exploration",
            "2",
            "-n",
            "2000",
            "--confirm",
            "2000",
        ]);
        barsoom_ok(&all, d)
    };
    let one = run("1", "a");
    run("2", "b");
    let trace = |out: &str| std::fs::read_to_string(d.join(out).join("tune.csv")).expect("csv");
    assert_eq!(trace("a"), trace("b"));
    // The table: evaluations by loss, with the evaluation number.
    let (stdout, lines, header) = table_in(&one.stdout, "sides[1].figures[0].level");
    assert!(
        lines[header].contains("sides[1].figures[0].weapon  evaluation"),
        "{stdout}"
    );
    assert!(stdout.contains("NTBEA over 28 settings: 12 evaluations of 2,000 trials"));
    assert!(stdout.contains("confirmed on a fresh seed (2, 2,000 trials)"));
    // The chart: each estimate against the evaluation, the choice marked.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("a/tune.json")).expect("json"))
            .expect("JSON");
    assert_eq!(json["ntbea"]["exploration"], 2.0);
    let chosen = format!(
        "chosen {}, {}",
        json["best"]["sides[1].figures[0].level"]
            .as_str()
            .expect("level"),
        json["best"]["sides[1].figures[0].weapon"]
            .as_str()
            .expect("weapon")
    );
    let texts = svg_texts(&d.join("a/tune.svg"));
    for wanted in [
        "First padwar wins (target 0.5)",
        "evaluation",
        "target 0.5",
        chosen.as_str(),
    ] {
        assert!(texts.iter().any(|t| t == wanted), "{wanted} in {texts:?}");
    }
}

#[test]
fn ntbea_options_that_do_not_fit_are_one_line_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let level = "sides[0].figures[0].level=4..8";
    let weapon = "sides[0].figures[0].weapon=long-sword,dagger";
    let target = "First padwar wins=0.5";
    for (args, expected) in [
        (
            vec!["--method", "ntbea", "--vary", level],
            "expected two or more --vary",
        ),
        (
            vec![
                "--method", "ntbea", "--find", "--vary", level, "--vary", weapon,
            ],
            "give one or the other",
        ),
        (
            vec![
                "--method",
                "ntbea",
                "--evaluations",
                "0",
                "--vary",
                level,
                "--vary",
                weapon,
            ],
            "--evaluations 0: expected a positive whole number",
        ),
        (
            vec!["--evaluations", "50", "--vary", level, "--vary", weapon],
            "--evaluations: an option of the NTBEA search; add --method ntbea",
        ),
        (
            vec![
                "--method",
                "ntbea",
                "--mutation",
                "1.5",
                "--vary",
                level,
                "--vary",
                weapon,
            ],
            "expected a probability from 0 to 1",
        ),
        (
            vec![
                "--method",
                "ntbea",
                "--vary",
                level,
                "--vary",
                "sides[0].figures[0].weapon=long-sword,spork",
            ],
            "spork",
        ),
    ] {
        let mut all = vec!["tune", scenario.as_str(), "--target", target];
        all.extend(args);
        assert_bad_input(&all, dir.path(), &[expected]);
    }
}

#[test]
fn ntbea_searches_a_grid_too_large_to_run_whole() {
    // 13 × 13 levels, 4 × 4 weapons, whether the first side broke the code
    // of battle and two round limits: 10,816 settings, more than the default method runs (10,000); NTBEA
    // makes only the settings it evaluates.
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let weapons = "long-sword,short-sword,hatchet,dagger";
    let varies = [
        "sides[0].figures[0].level=1..13".to_string(),
        "sides[1].figures[0].level=1..13".to_string(),
        format!("sides[0].figures[0].weapon={weapons}"),
        format!("sides[1].figures[0].weapon={weapons}"),
        "sides[0].breaks_code=false,true".to_string(),
        "max_rounds=50000,100000".to_string(),
    ];
    let mut args: Vec<&str> = vec![
        "--target",
        "First padwar wins=0.3",
        "--evaluations",
        "6",
        "-n",
        "500",
        "--confirm",
        "2000",
    ];
    for vary in &varies {
        args.extend(["--vary", vary.as_str()]);
    }
    let json = ntbea_json(d, "big", &args);
    assert_eq!(json["settings"], 10_816);
    assert_eq!(json["ntbea"]["evaluated"], 6);
    let trace = crate::common::read_csv(&d.join("big/tune.csv"));
    assert_eq!(trace.len() - 1, 6);
    // The trace names each evaluated setting by its number in the grid.
    let header: Vec<&str> = trace[0].iter().map(String::as_str).collect();
    let setting = header
        .iter()
        .position(|h| *h == "setting")
        .expect("setting");
    assert!(
        trace[1..]
            .iter()
            .all(|r| r[setting].parse::<usize>().is_ok_and(|s| s < 10_816))
    );

    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let mut grid_args = vec![
        "tune",
        scenario.as_str(),
        "--target",
        "First padwar wins=0.3",
    ];
    for vary in &varies {
        grid_args.extend(["--vary", vary.as_str()]);
    }
    assert_bad_input(&grid_args, d, &["more than 10000 settings"]);
}
