//! `--json` for scripting on the commands that print lists rather than
//! results (`list`, `validate`); the result commands are covered by their
//! own tests.

use crate::common::{barsoom, barsoom_ok, bundled, root};

#[test]
fn list_prints_models_and_scenarios_as_json() {
    let o = barsoom_ok(&["list", "--json"], &root());
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    let models: Vec<&str> = json["models"]
        .as_array()
        .expect("models")
        .iter()
        .map(|m| m["id"].as_str().expect("id"))
        .collect();
    assert!(models.contains(&"wom.duel") && models.contains(&"jc.fleet"));
    let scenarios = json["scenarios"].as_array().expect("scenarios");
    let padwar = scenarios
        .iter()
        .find(|s| {
            s["scenario"]
                .as_str()
                .is_some_and(|p| p.ends_with("padwar-vs-padwar.toml"))
        })
        .expect("the padwar scenario is listed");
    assert_eq!(padwar["model"], "wom.duel");
}

#[test]
fn validate_reports_valid_and_invalid_scenarios_as_json() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "model = \"no.such.model\"\n").expect("write");
    let good = bundled("wom/padwar-vs-padwar.toml");
    let o = barsoom_ok(
        &["validate", good.to_str().expect("utf-8 path"), "--json"],
        dir.path(),
    );
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(json["valid"][0]["model"], "wom.duel");
    assert_eq!(json["invalid"].as_array().map(Vec::len), Some(0));

    let o = barsoom(
        &[
            "validate",
            good.to_str().expect("utf-8 path"),
            "bad.toml",
            "--json",
        ],
        dir.path(),
    );
    assert_eq!(
        o.status.code(),
        Some(2),
        "an invalid scenario is still exit 2"
    );
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(json["valid"].as_array().map(Vec::len), Some(1));
    let error = json["invalid"][0]["error"].as_str().expect("error text");
    assert!(error.contains("bad.toml"), "{error}");
}
