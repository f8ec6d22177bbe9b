//! `barsoom sweep`: a grid of settings on common random numbers, written as
//! one frame and charts.

use crate::common::{assert_bad_input, barsoom, barsoom_ok, bundled, read_csv};

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
