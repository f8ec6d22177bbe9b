//! `barsoom breakdown` as a result like the other commands': its folder
//! (one CSV and Parquet file per table with typed columns, the chart of
//! the headline rates, `breakdown.json` and the manifest), the refusal to
//! write over another scenario's folder, its section in `barsoom report`,
//! the note on who plays what, and the same files on any `--threads`.

use std::path::Path;

use crate::common::{assert_bad_input, barsoom, barsoom_ok, bundled, svg_texts};

/// Talisman: four sensible players, who choose the characters they play.
const CHOOSING: &str = "talisman/four-player-random-deal.toml";
/// The Strategic Game: both heroes in every game.
const EVERY_GAME: &str = "jc/strategic/two-heroes.toml";

/// Runs `barsoom breakdown` on the bundled `scenario` into `out` (inside
/// `d`) with `extra` arguments; its JSON.
fn breakdown(d: &Path, scenario: &str, out: &str, extra: &[&str]) -> serde_json::Value {
    let scenario = bundled(scenario).display().to_string();
    let mut args = vec!["breakdown", &scenario, "-n", "200", "--out", out, "--json"];
    args.extend(extra);
    let o = barsoom_ok(&args, d);
    serde_json::from_slice(&o.stdout).expect("breakdown --json")
}

/// A frame's column names.
fn column_names(frame: &polars::prelude::DataFrame) -> Vec<String> {
    frame
        .get_column_names()
        .iter()
        .map(|c| c.to_string())
        .collect()
}

fn parquet(path: &Path) -> polars::prelude::DataFrame {
    use polars::prelude::*;
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    ParquetReader::new(file).finish().expect("parquet reads")
}

#[test]
fn every_table_is_written_as_csv_and_parquet_with_typed_columns_beside_a_chart() {
    use polars::prelude::*;
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let json = breakdown(d, CHOOSING, "b", &["--threads", "1"]);
    let b = d.join("b");
    let names: Vec<&str> = json["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .map(|t| t["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(names, ["characters", "seats", "cards"]);
    for file in [
        "characters.csv",
        "characters.parquet",
        "seats.csv",
        "seats.parquet",
        "cards.csv",
        "cards.parquet",
        "characters.png",
        "characters.svg",
        "breakdown.json",
    ] {
        assert!(b.join(file).is_file(), "{file}");
    }
    barsoom::report::files::verify_manifest(&b, None).expect("a manifest naming every file");

    let characters = parquet(&b.join("characters.parquet"));
    let columns = column_names(&characters);
    assert_eq!(
        columns[..8],
        [
            "character",
            "in_games",
            "wins",
            "win_rate",
            "win_rate_ci95_low",
            "win_rate_ci95_high",
            "rounds",
            "deaths"
        ]
    );
    let types: Vec<DataType> = characters.dtypes();
    assert_eq!(
        types[..7],
        [
            DataType::String,
            DataType::UInt64,
            DataType::UInt64,
            DataType::Float64,
            DataType::Float64,
            DataType::Float64,
            DataType::Float64,
        ]
    );
    // Every row as the JSON has it: the rate is wins over games in play,
    // inside its interval.
    let rows = json["tables"][0]["rows"].as_array().expect("rows");
    assert_eq!(characters.height(), rows.len());
    let column = |name: &str| characters.column(name).expect(name).clone();
    let (games, wins) = (column("in_games"), column("wins"));
    let (rate, low, high) = (
        column("win_rate"),
        column("win_rate_ci95_low"),
        column("win_rate_ci95_high"),
    );
    for (i, row) in rows.iter().enumerate() {
        let n = games.u64().expect("u64").get(i).expect("games");
        let k = wins.u64().expect("u64").get(i).expect("wins");
        assert_eq!((row[1].as_u64(), row[2].as_u64()), (Some(n), Some(k)));
        let r = rate.f64().expect("f64").get(i).expect("rate");
        assert!((r - k as f64 / n as f64).abs() < 1e-12, "row {i}");
        let (l, h) = (
            low.f64().expect("f64").get(i).expect("low"),
            high.f64().expect("f64").get(i).expect("high"),
        );
        assert!(l <= r && r <= h, "row {i}");
        // JSON numbers read back to within rounding.
        let near = |key: &str, x: f64| row[3][key].as_f64().is_some_and(|y| (x - y).abs() < 1e-12);
        assert!(near("low", l) && near("high", h), "row {i}: {}", row[3]);
    }
    let cards = parquet(&b.join("cards.parquet"));
    let columns = column_names(&cards);
    assert_eq!(
        columns,
        [
            "card",
            "met_per_game",
            "lives_per_met",
            "kills",
            "kills_per_met"
        ]
    );
    assert_eq!(
        cards.dtypes(),
        [
            DataType::String,
            DataType::Float64,
            DataType::Float64,
            DataType::UInt64,
            DataType::Float64
        ]
    );
    // The CSV holds the same columns.
    let csv = std::fs::read_to_string(b.join("seats.csv")).expect("seats.csv");
    assert_eq!(
        csv.lines().next(),
        Some("seat,wins,win_rate,win_rate_ci95_low,win_rate_ci95_high")
    );
    assert_eq!(csv.lines().count(), 1 + 4);

    // The chart: titled with the scenario's description, a row per
    // character.
    let texts = svg_texts(&b.join("characters.svg")).join(" ");
    for expected in [
        "4 sensible players",
        "win rate per character",
        "Troll",
        "Sorceress",
    ] {
        assert!(texts.contains(expected), "{expected}: {texts}");
    }
    for key in [
        "command",
        "version",
        "description",
        "outputs",
        "seed",
        "games",
    ] {
        assert!(!json[key].is_null(), "breakdown.json has {key}");
    }
}

#[test]
fn the_note_on_who_plays_what_appears_only_when_the_games_in_play_are_uneven() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    // The sensible players choose: some characters are in play far more
    // often than others.
    let scenario = bundled(CHOOSING).display().to_string();
    let o = barsoom_ok(&["breakdown", &scenario, "-n", "200", "--out", "chosen"], d);
    let text = String::from_utf8_lossy(&o.stdout);
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("chosen/breakdown.json")).expect("json"))
            .expect("breakdown.json");
    let skew = &json["skew"];
    let most = skew["most"]["games"].as_u64().expect("most");
    let least = skew["least"]["games"].as_u64().expect("least");
    assert!(most as f64 >= 1.2 * least as f64, "{skew}");
    let note = skew["note"].as_str().expect("note");
    assert!(
        note.contains("as these players choose them, not in equal games")
            && note.contains(skew["most"]["name"].as_str().expect("name")),
        "{note}"
    );
    // Under the table it belongs to, in the text and in the JSON.
    let characters = text.split("\n\n").nth(1).expect("the character table");
    assert!(characters.contains(note), "{text}");
    assert!(
        json["tables"][0]["notes"]
            .as_array()
            .expect("notes")
            .iter()
            .any(|n| n == note)
    );
    // Both heroes play every game: no note.
    let o = barsoom_ok(
        &[
            "breakdown",
            &bundled(EVERY_GAME).display().to_string(),
            "-n",
            "12",
            "--out",
            "heroes",
        ],
        d,
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(!text.contains("not in equal games"), "{text}");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("heroes/breakdown.json")).expect("json"))
            .expect("breakdown.json");
    assert!(json["skew"].is_null(), "{}", json["skew"]);
    assert!(d.join("heroes/heroes.svg").is_file() && d.join("heroes/heroes.csv").is_file());
}

#[test]
fn another_scenarios_breakdown_folder_is_replaced_only_with_force() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    // The default folder: the scenario's path under scenarios/, -breakdown.
    let scenario = bundled(EVERY_GAME).display().to_string();
    barsoom_ok(&["breakdown", &scenario, "-n", "4"], d);
    let default = d.join("reports/jc/strategic/two-heroes-breakdown");
    assert!(default.join("breakdown.json").is_file());
    let other = bundled("jc/strategic/six-heroes.toml")
        .display()
        .to_string();
    let out = default.display().to_string();
    let before = std::fs::read(default.join("manifest.json")).expect("manifest");
    assert_bad_input(
        &["breakdown", &other, "-n", "4", "--out", &out],
        d,
        &[
            "two-heroes-breakdown",
            "holds the results of `barsoom breakdown` on",
            "two-heroes.toml",
            "--force",
        ],
    );
    assert_eq!(
        std::fs::read(default.join("manifest.json")).expect("manifest"),
        before,
        "the refusal changed nothing"
    );
    barsoom_ok(
        &["breakdown", &other, "-n", "4", "--out", &out, "--force"],
        d,
    );
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(default.join("breakdown.json")).expect("json"))
            .expect("breakdown.json");
    assert!(
        json["scenario"]
            .as_str()
            .is_some_and(|s| s.ends_with("six-heroes.toml"))
    );
    // A model without a breakdown leaves no folder behind.
    let padwar = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    assert_bad_input(
        &["breakdown", &padwar, "-n", "4"],
        d,
        &["expected a model with a breakdown"],
    );
    assert!(!d.join("reports/wom/padwar-vs-padwar-breakdown").exists());
}

#[test]
fn the_report_shows_a_breakdown_folder_with_its_tables_chart_and_command() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let json = breakdown(d, CHOOSING, "b", &[]);
    let o = barsoom_ok(&["report", "b", "--out", "page.html", "--json"], d);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("report --json");
    let section = &report["sections"][0];
    assert_eq!(section["command"], "breakdown");
    assert_eq!(section["tables"], 3);
    assert_eq!(section["charts"], 1);
    let html = std::fs::read_to_string(d.join("page.html")).expect("page");
    let note = json["skew"]["note"].as_str().expect("a note");
    for expected in [
        "Per character (characters.csv).",
        "Per card (cards.csv), most first.",
        "win rate 95% interval",
        "barsoom breakdown",
        note,
        "<svg",
    ] {
        assert!(html.contains(expected), "{expected}");
    }
    // A parent folder finds it too.
    let o = barsoom_ok(&["report", ".", "--out", "all.html", "--json"], d);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("report --json");
    assert_eq!(report["sections"][0]["command"], "breakdown");
}

#[test]
fn the_files_are_the_same_on_one_thread_and_two() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let one = breakdown(d, CHOOSING, "one", &["--threads", "1"]);
    let two = breakdown(d, CHOOSING, "two", &["--threads", "2"]);
    assert_eq!(one["tables"], two["tables"]);
    assert_eq!(one["skew"], two["skew"]);
    let mut compared = 0;
    for entry in std::fs::read_dir(d.join("one")).expect("list").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if [".csv", ".parquet", ".svg", ".png"]
            .iter()
            .any(|ext| name.ends_with(ext))
        {
            let a = std::fs::read(entry.path()).expect("read");
            let b = std::fs::read(d.join("two").join(&name)).expect("the same file");
            assert!(a == b, "{name} differs between --threads 1 and 2");
            compared += 1;
        }
    }
    assert_eq!(compared, 8);
    // A scenario that is not there: bad input, no folder.
    let o = barsoom(&["breakdown", "missing.toml", "-n", "4"], d);
    assert_eq!(o.status.code(), Some(2));
}
