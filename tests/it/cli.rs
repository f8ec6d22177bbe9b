//! The binary end to end: a bundled scenario runs and writes its files,
//! and every kind of bad input gets one line, exit code 2 and no output.

use std::path::Path;

use crate::common;
use crate::common::{barsoom, barsoom_ok, text};

#[test]
fn run_writes_summary_frames_charts_and_json() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("report");
    let scenario = common::bundled("wom/john-carter-vs-green-chieftain.toml");
    let o = barsoom_ok(
        &[
            "run",
            &scenario.display().to_string(),
            "-n",
            "20000",
            "--seed",
            "3",
            "--threads",
            "2",
            "--out",
            &out.display().to_string(),
            "--json",
            "--trials-out",
            "--quiet",
        ],
        dir.path(),
    );
    let json: serde_json::Value =
        serde_json::from_slice(&o.stdout).expect("stdout is one JSON object");
    assert_eq!(json["model"], "wom.duel");
    assert_eq!(json["seed"], 3);
    assert_eq!(json["trials"], 20000);
    let outcomes = json["outcomes"].as_array().expect("outcomes");
    assert_eq!(outcomes[0]["label"], "John Carter wins");
    let total: u64 = outcomes
        .iter()
        .map(|o| o["count"].as_u64().expect("count"))
        .sum();
    assert_eq!(total, 20000);
    for o in outcomes {
        let (rate, lo, hi) = (
            o["rate"].as_f64().unwrap_or(-1.0),
            o["ci95"][0].as_f64().unwrap_or(2.0),
            o["ci95"][1].as_f64().unwrap_or(-1.0),
        );
        assert!(lo <= rate && rate <= hi, "{o}");
    }
    assert!(json["metrics"]["rounds"]["mean"].as_f64().expect("mean") > 1.0);
    assert!(json["metrics"]["rounds"]["se"].as_f64().expect("se") > 0.0);

    for file in [
        "summary.csv",
        "summary.parquet",
        "run.json",
        "outcomes.png",
        "outcomes.svg",
        "length.png",
        "length.svg",
        "trials.parquet",
    ] {
        assert!(out.join(file).is_file(), "{file} written");
    }
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .expect("list")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("partial"))
        .collect();
    assert!(leftovers.is_empty(), "no temporary files left behind");
    // Charts are titled with the scenario's description, not its file name.
    for svg in ["outcomes.svg", "length.svg"] {
        let texts = common::svg_texts(&out.join(svg));
        // A long title wraps onto a second line.
        let title = format!("{} {}", texts[0], texts[1]);
        let description = json["description"].as_str().expect("description");
        assert!(title.starts_with(description), "{svg}: {texts:?}");
    }
    for png in ["outcomes.png", "length.png"] {
        let image = image::open(out.join(png)).expect("PNG decodes");
        assert!(
            image.width() >= 600 && image.height() >= 400,
            "{png} is a real chart"
        );
    }
    let csv = std::fs::read_to_string(out.join("summary.csv")).expect("csv");
    assert!(
        csv.starts_with("kind,name,count,rate,ci95_low,ci95_high,mean,se,min,median,max"),
        "{csv}"
    );
    assert!(csv.contains("outcome,John Carter wins,"));
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).expect("run.json"))
            .expect("json");
    for key in [
        "model",
        "scenario",
        "seed",
        "trials",
        "threads",
        "chunk",
        "version",
        "wall_seconds",
        "trials_per_second",
    ] {
        assert!(!run[key].is_null(), "run.json has {key}");
    }
    assert_eq!(run["threads"], 2);
    // The per-trial rows: one per trial, trial indices in order.
    let file = std::fs::File::open(out.join("trials.parquet")).expect("open");
    use polars::prelude::*;
    let frame = ParquetReader::new(file).finish().expect("parquet reads");
    assert_eq!(frame.height(), 20000);
    assert_eq!(
        frame
            .get_column_names()
            .iter()
            .map(|c| c.as_str())
            .collect::<Vec<_>>()[..3],
        ["trial", "outcome", "rounds"]
    );
}

#[test]
fn the_table_and_the_same_seed_give_the_same_numbers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = common::bundled("wom/padwar-vs-regular.toml")
        .display()
        .to_string();
    let run = |threads: &str, out: &str| {
        let o = barsoom_ok(
            &[
                "run",
                &scenario,
                "-n",
                "30000",
                "--threads",
                threads,
                "--out",
                out,
                "--json",
                "-q",
            ],
            dir.path(),
        );
        let mut json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        json["wall_seconds"] = serde_json::Value::Null;
        json
    };
    assert_eq!(run("1", "a"), run("3", "b"));
    let o = barsoom(&["run", &scenario, "-n", "5000", "--out", "c"], dir.path());
    let table = text(&o.stdout);
    assert!(
        table.contains("95% Wilson interval")
            && table.contains("Padwar wins")
            && table.contains("rounds"),
        "{table}"
    );
}

#[test]
fn exact_prints_the_same_shape_marked_exact() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = common::bundled("wom/padwar-vs-regular.toml")
        .display()
        .to_string();
    let o = barsoom_ok(&["exact", &scenario, "--json"], dir.path());
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(json["exact"], true);
    let p: f64 = json["outcomes"]
        .as_array()
        .expect("outcomes")
        .iter()
        .map(|o| o["rate"].as_f64().unwrap_or(0.0))
        .sum();
    assert!((p - 1.0).abs() < 1e-9);
    let o = barsoom(&["exact", &scenario], dir.path());
    let table = text(&o.stdout);
    assert!(table.contains("(exact)"));
    // Exact values carry no interval, spread or standard error.
    for estimate in ["Wilson", "interval", "std.err", "median"] {
        assert!(!table.contains(estimate), "{estimate} in {table}");
    }
    let rounds = table
        .lines()
        .find(|l| l.starts_with("rounds "))
        .expect("the rounds line");
    assert!(rounds.ends_with("(exact)"), "{rounds}");
}

#[test]
fn replay_traces_every_roll_with_its_rule_case() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = common::bundled("wom/three-green-warriors-vs-john-carter.toml")
        .display()
        .to_string();
    let o = barsoom_ok(&["run", &scenario, "--replay", "17", "--trace"], dir.path());
    let out = text(&o.stdout);
    assert!(
        out.contains("[WoM men-vs-men 2-3]") && out.contains("3d6 = ") && out.contains("outcome: "),
        "{out}"
    );
    assert!(
        !dir.path().join("reports").exists(),
        "a replay writes no files"
    );
}

#[test]
fn list_names_models_and_scenarios() {
    let o = barsoom(&["list"], &common::root());
    let out = text(&o.stdout);
    assert!(
        out.contains("wom.duel") && out.contains("john-carter-vs-green-chieftain.toml"),
        "{out}"
    );
}

/// Runs a bad command and checks the one-line error contract.
fn rejects(args: &[&str], cwd: &Path, must_mention: &[&str]) {
    let o = barsoom(args, cwd);
    let err = text(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{args:?}: exit code, stderr {err}"
    );
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: one line, got {err:?}"
    );
    assert!(
        !err.contains("panicked") && !err.contains("backtrace"),
        "{err}"
    );
    for needle in must_mention {
        assert!(
            err.contains(needle),
            "{args:?}: {err:?} should mention {needle:?}"
        );
    }
    assert!(
        o.stdout.is_empty() || !text(&o.stdout).contains("wrote"),
        "nothing written"
    );
}

#[test]
fn bad_input_gets_one_line_and_exit_code_two() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let run = |path: &Path| {
        vec![
            "run".to_string(),
            path.display().to_string(),
            "-n".into(),
            "100".into(),
            "--out".into(),
            d.join("out").display().to_string(),
        ]
    };
    let check = |path: &Path, needles: &[&str]| {
        let args = run(path);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        rejects(&args, d, needles);
    };

    let syntax = d.join("syntax.toml");
    std::fs::write(
        &syntax,
        "model = \"wom.duel\"\ndescription = \"x\"\n[[sides]\n",
    )
    .expect("write");
    check(&syntax, &["syntax.toml", "line 3"]);

    let unknown_model = d.join("model.toml");
    std::fs::write(
        &unknown_model,
        "model = \"wom.joust\"\ndescription = \"x\"\n",
    )
    .expect("write");
    check(
        &unknown_model,
        &[
            "model.toml",
            "model",
            "expected one of the models",
            "wom.duel",
            "wom.joust",
        ],
    );
    let misspelt_model = d.join("misspelt.toml");
    std::fs::write(
        &misspelt_model,
        "model = \"jc.duell\"\ndescription = \"x\"\n",
    )
    .expect("write");
    check(
        &misspelt_model,
        &["misspelt.toml", "model", "did you mean \"jc.duel\"?"],
    );

    let character = common::one_on_one(d, "character", "john-carterr", "", "padwar", "");
    check(
        &character,
        &[
            "character.toml",
            "sides[0].figures[0].character",
            "expected a character",
            "john-carterr",
        ],
    );

    let level = common::one_on_one(d, "level", "padwar", "level = 14", "regular", "");
    check(
        &level,
        &["level.toml", "sides[0].figures[0].level", "1-13", "14"],
    );
    let level0 = common::one_on_one(d, "level0", "padwar", "", "regular", "level = 0");
    check(&level0, &["sides[1].figures[0].level", "1-13"]);

    let animal_weapon =
        common::one_on_one(d, "animal", "banth", "weapon = \"dagger\"", "regular", "");
    check(&animal_weapon, &["sides[0].figures[0].weapon", "animal"]);

    let unknown_field = common::one_on_one(d, "field", "padwar", "levle = 3", "regular", "");
    check(&unknown_field, &["field.toml", "levle"]);

    let one_side = common::write_duel(
        d,
        "oneside",
        "[[sides]]\nfigures = [{ character = \"padwar\" }]\n",
    );
    check(&one_side, &["oneside.toml", "sides", "exactly 2"]);

    check(&d.join("missing.toml"), &["missing.toml", "cannot read"]);

    let good = common::bundled("wom/padwar-vs-regular.toml")
        .display()
        .to_string();
    let out = d.join("out").display().to_string();
    rejects(
        &["run", &good, "-n", "0", "--out", &out],
        d,
        &["--trials", "positive"],
    );
    rejects(
        &["run", &good, "-n", "-5", "--out", &out],
        d,
        &["--trials", "positive", "-5"],
    );
    // A mistyped flag keeps clap's tip and usage line.
    let o = barsoom(&["run", &good, "--trails", "5", "--out", &out], d);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: unexpected argument '--trails' found"),
        "{err}"
    );
    assert!(
        err.contains("tip: a similar argument exists: '--trials'"),
        "{err}"
    );
    assert!(err.contains("Usage: barsoom run"), "{err}");
    assert!(!err.contains("For more information"), "{err}");
    rejects(
        &["run", &good, "--threads", "0", "--out", &out],
        d,
        &["--threads"],
    );
    rejects(
        &[
            "exact",
            &common::bundled("wom/three-green-warriors-vs-john-carter.toml")
                .display()
                .to_string(),
        ],
        d,
        &["cannot be solved exactly", "one figure against one"],
    );
    rejects(
        &["validate", &good, &syntax.display().to_string()],
        d,
        &["syntax.toml"],
    );

    assert!(
        !d.join("out").exists(),
        "bad input never touches the output folder"
    );
}

#[test]
fn validate_accepts_every_bundled_scenario() {
    let dir = common::root().join("scenarios");
    let mut args = vec!["validate".to_string()];
    for entry in std::fs::read_dir(dir.join("wom")).expect("list").flatten() {
        if entry.path().extension().is_some_and(|e| e == "toml") {
            args.push(entry.path().display().to_string());
        }
    }
    assert!(args.len() > 8, "at least eight bundled scenarios");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    barsoom_ok(&args, &common::root());
}
