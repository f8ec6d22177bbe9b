//! `barsoom compare`: differences from paired trials, with the Newcombe
//! interval, and the precision pairing buys over independent runs.

use crate::common::{assert_bad_input, barsoom_ok, bundled};

fn compare_json(args: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut all = vec!["compare"];
    all.extend_from_slice(args);
    all.extend(["--json", "--out", "c"]);
    let o = barsoom_ok(&all, dir.path());
    assert!(dir.path().join("c/compare.csv").is_file());
    serde_json::from_slice(&o.stdout).expect("JSON")
}

#[test]
fn pairing_narrows_the_interval_on_a_real_scenario() {
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    // A level 7 padwar against a level 6 one, then at level 8: the same
    // dice decide both fights, so the outcomes are correlated.
    let json = compare_json(&[
        &scenario,
        "--set",
        "sides[0].figures[0].level=7",
        "--set-b",
        "sides[0].figures[0].level=8",
        "-n",
        "200000",
    ]);
    assert_eq!(json["paired_trials"], 200_000);
    let d = &json["outcomes"][0]["difference"];
    let change = d["difference"].as_f64().expect("difference");
    let [lo, hi] = [
        d["ci95"][0].as_f64().expect("lo"),
        d["ci95"][1].as_f64().expect("hi"),
    ];
    assert!(change > 0.03 && lo < change && change < hi);
    let paired = d["paired_se"].as_f64().expect("paired se");
    let unpaired = d["unpaired_se"].as_f64().expect("unpaired se");
    assert!(
        paired < unpaired / 1.2,
        "paired {paired} vs unpaired {unpaired}"
    );
    assert!(d["unpaired_trials_needed"].as_f64().expect("n") > 1.4 * 200_000.0);
    // The interval's half-width follows the paired standard error.
    assert!(((hi - lo) / 2.0 - 1.96 * paired).abs() < 0.1 * paired);
}

#[test]
fn identical_runs_differ_by_nothing() {
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let json = compare_json(&[&scenario, "--set-b", "description=same play", "-n", "20000"]);
    for outcome in json["outcomes"].as_array().expect("outcomes") {
        assert_eq!(outcome["difference"]["difference"], 0.0);
        assert_eq!(outcome["difference"]["paired_se"], 0.0);
    }
    for metric in json["metrics"].as_array().expect("metrics") {
        assert_eq!(metric["difference"]["difference"], 0.0);
    }
}

#[test]
fn comparisons_that_cannot_pair_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let padwars = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let animals = bundled("wom/calot-vs-white-ape.toml").display().to_string();
    let cases: [(&[&str], &str); 3] = [
        (
            &[&padwars],
            "give a second scenario or at least one --set-b",
        ),
        (
            &[&padwars, &animals],
            "only runs with the same outcomes pair up",
        ),
        (
            &[&padwars, "--set-b", "sides[0].figures[0].level=14"],
            "expected a level 1-13",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["compare"];
        all.extend_from_slice(args);
        assert_bad_input(&all, dir.path(), &[expected]);
    }
}
