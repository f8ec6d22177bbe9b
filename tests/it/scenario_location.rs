//! A scenario saved anywhere runs: with no `data` field it reads its
//! model's bundled data, wherever the file lies and from any working
//! directory; a `data` field is relative to the scenario's own folder, and
//! a data folder that cannot be read is a one-line error naming it.

use std::path::Path;

use crate::common::{barsoom, barsoom_ok, bundled};

/// Runs `scenario` at seed 1 from the working directory `cwd` and returns
/// its `summary.csv`.
fn summary(scenario: &Path, trials: &str, cwd: &Path, out: &Path) -> String {
    barsoom_ok(
        &[
            "run",
            scenario.to_str().expect("utf8"),
            "-n",
            trials,
            "--seed",
            "1",
            "--quiet",
            "--out",
            out.to_str().expect("utf8"),
        ],
        cwd,
    );
    std::fs::read_to_string(out.join("summary.csv")).expect("summary.csv")
}

#[test]
fn a_copied_scenario_reads_the_bundled_data_and_matches_the_bundled_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mine = dir.path().join("my");
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&mine).expect("mkdir");
    std::fs::create_dir_all(&elsewhere).expect("mkdir");
    // Models whose bundled scenarios sat at different depths (wom.duel
    // beside its data, the others one folder below it) and jetan, whose
    // `data` names its piece values file.
    let cases = [
        ("wom/red-warrior-vs-banth.toml", "2000"),
        ("wom/air/six-against-six.toml", "50"),
        ("jc/fleet/even-fight.toml", "2000"),
        ("jc/duel/ambush.toml", "2000"),
        ("races/battle/blue-attacks-white.toml", "2000"),
        ("talisman/two-player-random-deal.toml", "30"),
        ("jetan/greedy-vs-random.toml", "10"),
    ];
    for (i, (relative, trials)) in cases.iter().enumerate() {
        let original = bundled(relative);
        let copy = mine.join(original.file_name().expect("a file name"));
        std::fs::copy(&original, &copy).expect("copy");
        let expected = summary(
            &original,
            trials,
            dir.path(),
            &dir.path().join(format!("a{i}")),
        );
        let found = summary(&copy, trials, &elsewhere, &dir.path().join(format!("b{i}")));
        assert_eq!(found, expected, "{relative}: the copy's summary differs");
    }
}

#[test]
fn a_data_field_is_relative_to_the_scenario_and_a_missing_folder_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let scenario = dir.path().join("lvl9-vs-banth.toml");
    let text = std::fs::read_to_string(bundled("wom/red-warrior-vs-banth.toml")).expect("read");
    std::fs::write(&scenario, format!("data = \"tables\"\n{text}")).expect("write");
    let output = barsoom(
        &["run", scenario.to_str().expect("utf8"), "-n", "10"],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let tried = dir.path().join("tables");
    for part in [
        "lvl9-vs-banth.toml: data: cannot read the data folder",
        tried.to_str().expect("utf8"),
        "set data = \"...\" in the scenario",
    ] {
        assert!(stderr.contains(part), "{part:?} missing from: {stderr}");
    }
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    // The same folder, once there, is the one read.
    crate::common::copy_tree(&crate::common::wom_data(), &tried);
    barsoom_ok(
        &[
            "run",
            scenario.to_str().expect("utf8"),
            "-n",
            "10",
            "--quiet",
        ],
        dir.path(),
    );
}
