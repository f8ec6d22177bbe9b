//! `barsoom bench`: every model has a reference scenario; the frame holds
//! one row per scenario and thread count with speed-up and efficiency;
//! `--compare` flags regressions beyond the measured noise; bad input is a
//! one-line error with exit code 2.

use barsoom::games::{MODELS, bench_references, load};

use crate::common;
use crate::common::{assert_bad_input, barsoom, barsoom_ok};

#[test]
fn every_model_has_a_loadable_reference_scenario() {
    let references = bench_references(&common::root().join("scenarios")).expect("bench.toml");
    for model in MODELS {
        let mine: Vec<_> = references.iter().filter(|r| r.model == model.id).collect();
        assert!(!mine.is_empty(), "{} has no reference scenario", model.id);
        for r in mine {
            let loaded = load(&r.scenario).expect("reference scenario loads");
            assert_eq!(loaded.model_id, model.id, "{}", r.scenario.display());
        }
    }
}

#[test]
fn every_full_game_has_search_references_at_100_and_1000_playouts() {
    let references = bench_references(&common::root().join("scenarios")).expect("bench.toml");
    for model in ["talisman.game", "jc.military", "races.game", "wom.air"] {
        let mut budgets: Vec<&str> = Vec::new();
        for r in references.iter().filter(|r| r.search && r.model == model) {
            let overrides: Vec<barsoom::scenario::Override> = r
                .set
                .iter()
                .map(|s| barsoom::scenario::Override::parse(s).expect("override"))
                .collect();
            let loaded =
                barsoom::games::load_with(&r.scenario, &overrides).expect("reference loads");
            assert_eq!(loaded.model_id, model);
            budgets.extend(
                r.set
                    .iter()
                    .filter_map(|s| s.split_once('=').map(|(_, v)| v)),
            );
        }
        assert_eq!(budgets, ["search:100", "search:1000"], "{model}");
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn bench_reports_the_decisions_a_search_player_makes_per_second() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let rate = |scenario: &str| {
        let path = common::bundled(scenario).display().to_string();
        let o = barsoom_ok(
            &[
                "bench",
                &path,
                "-n",
                "4",
                "--threads",
                "1",
                "--repeats",
                "1",
                "--out",
                "b",
                "--force",
                "--json",
            ],
            d,
        );
        let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        json["rows"][0]["decisions_per_second"].clone()
    };
    let searched = rate("wom/air/search-vs-line-equal-squadrons.toml");
    assert!(searched.as_f64().is_some_and(|d| d > 0.0), "{searched}");
    assert!(rate("wom/padwar-vs-padwar.toml").is_null());
}

#[test]
fn a_short_timing_runs_again_with_more_trials() {
    // Ten duels take microseconds: asked for timings of at least 50 ms,
    // bench grows the count instead of timing ten; with --min-time 0 it
    // times exactly -n.
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let path = common::bundled("wom/padwar-vs-padwar.toml")
        .display()
        .to_string();
    let trials = |min_time: &str| {
        let o = barsoom_ok(
            &[
                "bench",
                &path,
                "-n",
                "10",
                "--threads",
                "1",
                "--repeats",
                "1",
                "--min-time",
                min_time,
                "--out",
                "s",
                "--force",
                "--json",
            ],
            d,
        );
        let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        json["rows"][0]["trials"].as_u64().expect("trials")
    };
    assert!(trials("0.05") > 1_000, "{}", trials("0.05"));
    assert_eq!(trials("0"), 10);
}

fn bench_csv(dir: &std::path::Path, out: &str) -> Vec<Vec<String>> {
    common::read_csv(&dir.join(out).join("bench.csv"))
}

#[test]
fn bench_writes_one_row_per_scenario_and_thread_count() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let o = barsoom_ok(
        &[
            "bench",
            "wom.duel",
            "-n",
            "20000",
            "--threads",
            "2",
            "--repeats",
            "2",
            "--min-time",
            "0.1",
            "--out",
            "b",
            "--json",
        ],
        d,
    );
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let rows = json["rows"].as_array().expect("rows");
    // Two wom.duel references, each at 1 thread (always) and 2.
    assert_eq!(rows.len(), 4);
    for row in rows {
        let speedup = row["speedup"].as_f64().expect("speedup");
        let threads = row["threads"].as_f64().expect("threads");
        let efficiency = row["parallel_efficiency"].as_f64().expect("efficiency");
        assert!((efficiency - speedup / threads).abs() < 1e-12);
        // The machine's ceiling: two one-thread processes at once, against
        // which the two-thread process is measured.
        let ceiling = row["ceiling_trials_per_second"].as_f64();
        let share = row["share_of_ceiling"].as_f64();
        if threads == 1.0 {
            assert_eq!(speedup, 1.0);
            assert!(ceiling.is_none() && share.is_none(), "{row}");
        } else {
            let (ceiling, share) = (ceiling.expect("ceiling"), share.expect("share"));
            assert!(ceiling > 0.0, "{row}");
            let rate = row["trials_per_second"].as_f64().expect("rate");
            assert!((share - rate / ceiling).abs() < 1e-12, "{row}");
        }
        assert!(row["ratio_to_raw"].as_f64().expect("dice-bound") > 0.0);
    }
    let csv = bench_csv(d, "b");
    assert_eq!(csv.len(), 5, "header + 4 rows");
    assert_eq!(csv[0][..3], ["scenario", "model", "threads"]);
    for file in ["bench.parquet", "bench.png", "bench.svg"] {
        assert!(d.join("b").join(file).is_file(), "{file}");
    }
}

/// A baseline with every row's throughput replaced by `trials_per_second`.
fn doctored_baseline(dir: &std::path::Path, trials_per_second: &str) -> std::path::PathBuf {
    let path = dir.join(format!("baseline-{trials_per_second}.csv"));
    let text = format!(
        "scenario,threads,trials_per_second,noise\npadwar-vs-padwar,1,{trials_per_second},0.0\n"
    );
    std::fs::write(&path, text).expect("write baseline");
    path
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn compare_flags_a_regression_and_accepts_an_improvement() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let scenario = common::bundled("wom/padwar-vs-padwar.toml")
        .display()
        .to_string();
    let run = |baseline: &std::path::Path| {
        barsoom(
            &[
                "bench",
                &scenario,
                "-n",
                "200000",
                "--threads",
                "1",
                "--repeats",
                "2",
                "--out",
                "c",
                "--compare",
                &baseline.display().to_string(),
            ],
            d,
        )
    };
    // No machine runs a trillion duels a second: a regression, exit 1.
    let o = run(&doctored_baseline(d, "1000000000000"));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("1 regression(s) beyond the measured noise: padwar-vs-padwar at 1 threads"),
        "{stderr}"
    );
    let csv = bench_csv(d, "c");
    assert_eq!(csv[1].last().map(String::as_str), Some("regression"));
    // Against one trial a second, the same run is an improvement.
    let o = run(&doctored_baseline(d, "1"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("improvement"));
    // The columns say what they mean, and a game's time has its unit.
    assert!(
        stdout.contains("per game") && stdout.contains("x raw dice"),
        "{stdout}"
    );
    assert!(stdout.contains("lower is faster"), "{stdout}");
    let row = stdout
        .lines()
        .find(|l| l.starts_with("padwar-vs-padwar"))
        .expect("a row");
    assert!(
        [" ns", " µs", " ms"].iter().any(|u| row.contains(u)),
        "{row}"
    );
}

#[test]
fn bad_bench_input_is_one_line_with_exit_code_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::write(d.join("bad.csv"), "scenario,trials_per_second\nx,1\n").expect("write");
    let cases: [(&[&str], &str); 4] = [
        (&["bench", "no.such.model"], "neither a model"),
        (&["bench", "--threads", "0"], "positive whole number"),
        (
            &["bench", "wom.duel", "--compare", "missing.csv"],
            "missing.csv",
        ),
        (
            &["bench", "wom.duel", "--compare", "bad.csv"],
            "`threads` column",
        ),
    ];
    for (args, expected) in cases {
        assert_bad_input(args, d, &[expected]);
    }
}
