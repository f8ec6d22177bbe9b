//! `barsoom sweep`: a grid of settings on common random numbers, written as
//! one frame and charts.

use crate::common::{assert_bad_input, barsoom, barsoom_ok, bundled, read_csv, table_in};

#[test]
fn settings_share_their_random_numbers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    // The description does not change play: with common random numbers the
    // two settings must give identical columns, not merely similar ones.
    let o = barsoom_ok(
        &[
            "sweep",
            &scenario,
            "--vary",
            "description=a,b",
            "-n",
            "30000",
            "--seed",
            "9",
            "--out",
            "s",
        ],
        d,
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("common random numbers"));
    let rows = read_csv(&d.join("s/sweep.csv"));
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[1][0], "a");
    assert_eq!(rows[2][0], "b");
    assert_eq!(rows[1][1..], rows[2][1..]);
}

#[test]
fn a_sweep_row_equals_a_run_with_the_same_override() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let o = barsoom_ok(
        &[
            "sweep",
            &scenario,
            "--vary",
            "sides[0].figures[0].level=5..7",
            "-n",
            "20000",
            "--seed",
            "4",
            "--out",
            "s",
            "--json",
        ],
        d,
    );
    let sweep: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let rows = sweep["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 3);
    let o = barsoom_ok(
        &[
            "run",
            &scenario,
            "--set",
            "sides[0].figures[0].level=7",
            "-n",
            "20000",
            "--seed",
            "4",
            "--out",
            "r",
            "--json",
            "-q",
        ],
        d,
    );
    let run: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(rows[2]["outcomes"], run["outcomes"]);
    assert_eq!(rows[2]["setting"]["sides[0].figures[0].level"], "7");
    // Level 5 loses to level 6 more often than level 7 does.
    let first = |r: &serde_json::Value| r["outcomes"][0]["rate"].as_f64().expect("rate");
    assert!(first(&rows[0]) < 0.5 && first(&rows[2]) > 0.5);
    let header = &read_csv(&d.join("s/sweep.csv"))[0];
    assert_eq!(header[0], "sides[0].figures[0].level");
    assert!(header.iter().any(|h| h == "First padwar wins ci95_low"));
    assert!(header.iter().any(|h| h == "rounds mean"));
    for file in ["sweep.parquet", "sweep.png", "sweep.svg", "sweep.json"] {
        assert!(d.join("s").join(file).is_file(), "{file}");
    }
}

#[test]
fn two_varied_fields_draw_a_heatmap_per_outcome() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    barsoom_ok(
        &[
            "sweep",
            &scenario,
            "--vary",
            "sides[0].figures[0].level=5,6",
            "--vary",
            "sides[1].figures[0].level=5..7",
            "-n",
            "5000",
            "--out",
            "h",
        ],
        d,
    );
    assert_eq!(read_csv(&d.join("h/sweep.csv")).len(), 1 + 6);
    for k in 0..3 {
        assert!(d.join(format!("h/sweep-heatmap-{k}.svg")).is_file());
    }
}

#[test]
fn bad_sweep_flags_are_one_line_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let cases: [(&[&str], &str); 4] = [
        (&["--vary", "level"], "expected PATH=V1,V2"),
        (
            &["--vary", "sides[0].figures[0].level=9..3"],
            "expected A <= B and STEP > 0",
        ),
        (
            &["--vary", "sides[0].figures[0].levl=1,2"],
            "unknown field `levl`",
        ),
        (&["--vary", "sidez[0].label=a,b"], "nearest: sides[0].label"),
    ];
    for (extra, expected) in cases {
        let mut args = vec!["sweep", scenario.as_str(), "-n", "10"];
        args.extend_from_slice(extra);
        assert_bad_input(&args, dir.path(), &[expected]);
    }
    let o = barsoom(&["sweep", &scenario], dir.path());
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_sweep_prints_an_aligned_table_of_the_outcomes_shown() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    // Labels match regardless of case; a metric may be shown too.
    let o = barsoom_ok(
        &[
            "sweep",
            &scenario,
            "--vary",
            "sides[0].figures[0].level=5,6,10",
            "--show",
            "first padwar WINS,rounds",
            "-n",
            "4000",
            "--out",
            "s",
        ],
        d,
    );
    let (stdout, lines, header) = table_in(&o.stdout, "sides[0].figures[0].level");
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    assert_eq!(
        lines[header]
            .split("  ")
            .filter(|c| !c.trim().is_empty())
            .map(str::trim)
            .collect::<Vec<_>>(),
        [
            "sides[0].figures[0].level",
            "First padwar wins",
            "rounds mean"
        ]
    );
    assert!(!stdout.contains("Second padwar wins"), "{stdout}");
    // One row per setting, every row as wide as the header (right-aligned).
    let rows = &lines[header + 1..header + 4];
    for (row, level) in rows.iter().zip(["5", "6", "10"]) {
        assert_eq!(
            row.chars().count(),
            lines[header].chars().count(),
            "{stdout}"
        );
        assert_eq!(row.split_whitespace().next(), Some(level), "{stdout}");
        assert!(row.contains(" ± "), "a mean with its interval: {row}");
    }
    // The rate cell is the file's rate with its interval.
    let csv = read_csv(&d.join("s/sweep.csv"));
    let rate: f64 = csv[2][2].parse().expect("rate");
    assert!(rows[1].contains(&format!("{rate:.4} [")), "{stdout}");
    // The chart draws what --show names: the outcome, not the other one,
    // and not the metric (rounds are not a rate).
    let svg = std::fs::read_to_string(d.join("s/sweep.svg")).expect("sweep chart");
    let texts: Vec<&str> = svg.lines().map(str::trim).collect();
    assert!(
        texts.contains(&"First padwar wins"),
        "the shown outcome is drawn"
    );
    assert!(
        !texts.contains(&"Second padwar wins"),
        "an outcome not shown is not"
    );
    assert!(
        !texts.iter().any(|t| t.contains("rounds")),
        "a metric that is not a rate is not"
    );
}

#[test]
fn a_sweep_of_many_outcomes_shows_the_most_frequent_and_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = bundled("jetan/random-vs-random.toml").display().to_string();
    let o = barsoom_ok(
        &[
            "sweep",
            &scenario,
            "--vary",
            "description=a,b",
            "-n",
            "100",
            "--out",
            "s",
        ],
        dir.path(),
    );
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        stdout.contains("showing the 5 most frequent of 7 outcomes; --show LABEL,... picks others"),
        "{stdout}"
    );
    let header = stdout
        .lines()
        .find(|l| l.starts_with("description"))
        .expect("header");
    assert_eq!(header.matches(" wins").count(), 2, "{header}");
    // An unknown --show label is refused before anything runs.
    assert_bad_input(
        &[
            "sweep",
            &scenario,
            "--vary",
            "description=a",
            "--show",
            "A wins",
        ],
        dir.path(),
        &["--show \"A wins\"", "nearest"],
    );
}

#[test]
fn a_bad_vary_value_is_reported_before_any_setting_runs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    // The third setting is out of range and the second of the wrong type:
    // both are found before the first setting plays, so nothing is printed.
    for values in ["5,6,999", "5,\"six\""] {
        let vary = format!("sides[0].figures[0].level={values}");
        for command in ["sweep", "tune"] {
            let mut args = vec![command, scenario.as_str(), "--vary", vary.as_str()];
            if command == "tune" {
                args.extend(["--target", "First padwar wins=0.5"]);
            }
            args.extend(["-n", "100000", "--out", "s"]);
            let o = barsoom(&args, dir.path());
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            assert!(
                o.stdout.is_empty(),
                "{}",
                String::from_utf8_lossy(&o.stdout)
            );
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(err.contains("sides[0].figures[0].level"), "{err}");
        }
    }
}

#[test]
fn the_long_form_has_a_row_per_setting_and_outcome_or_metric() {
    use polars::prelude::*;
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    barsoom_ok(
        &[
            "sweep",
            &scenario,
            "--vary",
            "sides[0].figures[0].level=5,6",
            "--vary",
            "sides[0].figures[0].weapon=long-sword,short-sword",
            "-n",
            "3000",
            "--out",
            "s",
        ],
        d,
    );
    let file = std::fs::File::open(d.join("s/sweep_long.parquet")).expect("open");
    let long = ParquetReader::new(file).finish().expect("parquet reads");
    let names: Vec<&str> = long.get_column_names().iter().map(|c| c.as_str()).collect();
    assert_eq!(
        names,
        [
            "sides[0].figures[0].level",
            "sides[0].figures[0].weapon",
            "trials",
            "kind",
            "name",
            "count",
            "rate",
            "ci95_low",
            "ci95_high",
            "mean",
            "se"
        ]
    );
    assert_eq!(
        long.column("sides[0].figures[0].level")
            .expect("level")
            .dtype(),
        &DataType::Int64
    );
    assert_eq!(
        long.column("name").expect("name").dtype(),
        &DataType::String
    );
    // Four settings, each with 3 outcomes and the duel's metrics.
    let wide = read_csv(&d.join("s/sweep.csv"));
    let metrics = wide[0].iter().filter(|h| h.ends_with(" mean")).count();
    assert_eq!(long.height(), 4 * (3 + metrics));
    // Its CSV twin holds the same rows; each rate is the wide form's.
    let rows = read_csv(&d.join("s/sweep_long.csv"));
    assert_eq!(rows.len(), 1 + long.height());
    let header = &wide[0];
    for row in rows[1..].iter().filter(|r| r[3] == "outcome") {
        let setting = wide[1..]
            .iter()
            .find(|w| w[0] == row[0] && w[1] == row[1])
            .expect("the setting in the wide form");
        let column = header
            .iter()
            .position(|h| *h == format!("{} rate", row[4]))
            .expect("rate column");
        assert_eq!(setting[column], row[6], "{row:?}");
    }
    assert!(
        rows[1..]
            .iter()
            .any(|r| r[3] == "metric" && r[4] == "rounds" && r[6].is_empty())
    );
}
