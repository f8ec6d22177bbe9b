//! `barsoom tournament`: a round robin in both seatings, the head-to-head
//! record, Bradley–Terry ratings and the game-level measures.

use crate::common::{assert_bad_input, barsoom_ok, bundled, read_csv, svg_texts};

fn scenario() -> String {
    bundled("wom/carthoris-vs-tars-tarkas.toml")
        .display()
        .to_string()
}

fn tournament(d: &std::path::Path, threads: &str, out: &str) -> serde_json::Value {
    let scenario = scenario();
    let o = barsoom_ok(
        &[
            "tournament",
            &scenario,
            "--seat",
            "sides[0].figures[0].character",
            "--seat",
            "sides[1].figures[0].character",
            "--entrants",
            "padwar,john-carter,kantos-kan",
            "-n",
            "20000",
            "--threads",
            threads,
            "--out",
            out,
            "--json",
        ],
        d,
    );
    serde_json::from_slice(&o.stdout).expect("JSON")
}

#[test]
fn ratings_order_the_entrants_and_the_seats_are_fair() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let json = tournament(d, "2", "t");
    let theta = |k: usize| {
        json["ratings"][k]["rating"]["theta"]
            .as_f64()
            .expect("theta")
    };
    // Entrants in the order given: padwar (6), John Carter (13), Kantos Kan (11).
    assert!(theta(1) > theta(2) && theta(2) > theta(0));
    assert!((theta(0) + theta(1) + theta(2)).abs() < 1e-9, "centred");
    // Men-vs-men duels give neither seat an edge: 120,000 games put the
    // first-seat advantage's standard error near 0.003.
    let fsa = json["measures"]["first_seat_advantage"]
        .as_f64()
        .expect("fsa");
    assert!(fsa.abs() < 0.02, "{fsa}");
    assert_eq!(json["measures"]["games"], 120_000);
    assert_eq!(json["measures"]["completion"], 1.0);
    // Every pairing's scores add up to its games.
    let h2h = read_csv(&d.join("t/head-to-head.csv"));
    let rows = &h2h[1..];
    assert_eq!(rows.len(), 6);
    for r in rows {
        let back = rows
            .iter()
            .find(|o| o[0] == r[1] && o[1] == r[0])
            .expect("reverse pairing");
        let score: f64 = r[9].parse().expect("score");
        let other: f64 = back[9].parse().expect("score");
        assert!((score + other - 1.0).abs() < 1e-12);
        assert_eq!(r[2], "40000");
    }
    for file in [
        "ratings.csv",
        "ratings.parquet",
        "head-to-head.svg",
        "tournament.json",
    ] {
        assert!(d.join("t").join(file).is_file(), "{file}");
    }
    // The chart is titled by the round robin, not by the scenario file
    // (whose own description names two other fighters).
    let texts = svg_texts(&d.join("t/head-to-head.svg"));
    assert_eq!(texts[0], "Round robin of 3 entrants: head-to-head score");
    assert!(!texts.iter().any(|t| t.starts_with("Carthoris against")));
    assert!(texts.iter().any(|t| t == "100%"), "a colour scale");
    // The same record on one thread.
    let one = tournament(d, "1", "t1");
    assert_eq!(one["ratings"], json["ratings"]);
}

#[test]
fn bad_tournaments_are_one_line_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = scenario();
    let seat0 = "sides[0].figures[0].character";
    let seat1 = "sides[1].figures[0].character";
    let cases: [(Vec<&str>, &str); 4] = [
        (
            vec!["--seat", seat0, "--entrants", "padwar,john-carter"],
            "expected --seat twice",
        ),
        (
            vec![
                "--seat",
                seat0,
                "--seat",
                seat1,
                "--entrants",
                "padwar,padwar",
            ],
            "distinct",
        ),
        (
            vec!["--seat", seat0, "--seat", seat1, "--entrants", "padwar"],
            "at least two entrants",
        ),
        (
            vec![
                "--seat",
                seat0,
                "--seat",
                seat1,
                "--entrants",
                "padwar,dejah-thoris",
            ],
            "dejah-thoris",
        ),
    ];
    for (extra, expected) in cases {
        let mut args = vec!["tournament", scenario.as_str(), "-n", "10"];
        args.extend(extra.iter().copied());
        assert_bad_input(&args, dir.path(), &[expected]);
    }
}
