//! `--until-ci W`: a run stops at the first block boundary where every
//! outcome's 95% interval is at most W either side, the same for any
//! thread count, and says so.

use crate::common::{assert_bad_input, barsoom_ok, bundled};

fn run_json(d: &std::path::Path, extra: &[&str], out: &str) -> serde_json::Value {
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let mut args = vec!["run", scenario.as_str(), "-q", "--json", "--out", out];
    args.extend_from_slice(extra);
    serde_json::from_slice(&barsoom_ok(&args, d).stdout).expect("JSON")
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn the_run_stops_at_the_first_precise_enough_block_on_any_thread_count() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let one = run_json(d, &["--until-ci", "0.002", "--threads", "1"], "one");
    let two = run_json(d, &["--until-ci", "0.002", "--threads", "2"], "two");
    // Two even padwars: the widest interval is the ~50% rate's, with
    // half-width about 1.96 * 0.5 / sqrt(n). At 14 blocks of 16,384
    // (229,376 trials) that is 0.00205 > 0.002; at 15 (245,760), 0.00198.
    assert_eq!(one["trials"], 245_760);
    assert_eq!(one["outcomes"], two["outcomes"]);
    let rule = one["stopping_rule"].as_str().expect("the rule is stated");
    assert!(rule.contains("half-width was at most 0.002"), "{rule}");
    let widest = one["outcomes"]
        .as_array()
        .expect("outcomes")
        .iter()
        .map(|o| (o["ci95"][1].as_f64().expect("hi") - o["ci95"][0].as_f64().expect("lo")) / 2.0)
        .fold(0.0, f64::max);
    assert!(widest <= 0.002 && widest > 0.0019, "{widest}");
    assert_eq!(
        std::fs::read(d.join("one/summary.csv")).expect("csv"),
        std::fs::read(d.join("two/summary.csv")).expect("csv")
    );
}

#[test]
fn max_trials_caps_a_run_that_never_gets_there() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let capped = run_json(d, &["--until-ci", "0.0001", "--max-trials", "50000"], "c");
    assert_eq!(capped["trials"], 50_000);
    assert!(capped["stopping_rule"].is_null());
}

#[test]
fn bad_stopping_flags_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    for (args, expected) in [
        (vec!["--until-ci", "0.7"], "between 0 and 0.5"),
        (vec!["--until-ci", "0"], "between 0 and 0.5"),
        (vec!["--until-ci", "0.01", "-n", "5"], "cannot be used with"),
        (
            vec!["--until-ci", "0.01", "--shard", "0/2"],
            "cannot be used with",
        ),
        (vec!["--max-trials", "10"], "--until-ci"),
    ] {
        let mut all = vec!["run", scenario.as_str()];
        all.extend(args.iter().copied());
        assert_bad_input(&all, dir.path(), &[expected]);
    }
}
