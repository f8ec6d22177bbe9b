//! `barsoom compare`: differences from paired trials, with the Newcombe
//! interval, and the precision pairing buys over independent runs.

use crate::common::{assert_bad_input, barsoom_ok, bundled, svg_texts};

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
fn writes_a_chart_of_the_differences_with_their_intervals() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    let o = barsoom_ok(
        &[
            "compare",
            &scenario,
            "--set-b",
            "sides[0].figures[0].level=8",
            "-n",
            "20000",
            "--out",
            "c",
            "--json",
        ],
        dir.path(),
    );
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let texts = svg_texts(&dir.path().join("c/compare.svg"));
    assert_eq!(
        texts[0],
        "padwar-vs-padwar against padwar-vs-padwar with sides[0].figures[0].level=8"
    );
    // Each outcome is a row, its change printed beside it.
    for outcome in json["outcomes"].as_array().expect("outcomes") {
        let label = outcome["label"].as_str().expect("label");
        let change = outcome["difference"]["difference"]
            .as_f64()
            .expect("change");
        assert!(texts.iter().any(|t| t == label), "{label} in {texts:?}");
        let printed = format!("{change:+.4}");
        assert!(texts.contains(&printed), "{printed} in {texts:?}");
    }
    assert!(dir.path().join("c/compare.png").is_file());
    let outputs = json["outputs"].as_array().expect("outputs");
    assert!(
        outputs
            .iter()
            .any(|f| f.as_str().is_some_and(|f| f.ends_with("compare.svg")))
    );
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
