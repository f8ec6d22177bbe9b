//! Where results go: default folders unique per scenario
//! (`reports/<path under scenarios/>/`, or `reports/<rulebook>/<name>/`
//! for a scenario kept elsewhere), and a folder holding one scenario's
//! results is not overwritten with another's unless `--force` says so.

use crate::common::{assert_bad_input, barsoom_ok, bundled, text, write_duel};

const SIDES: &str = r#"
[[sides]]
label = "First padwar"
figures = [{ character = "padwar" }]

[[sides]]
label = "Second padwar"
figures = [{ character = "padwar" }]
"#;

#[test]
fn scenarios_with_one_file_name_in_two_rulebooks_get_two_folders() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let jetan = bundled("jetan/random-vs-random.toml").display().to_string();
    let military = bundled("jc/military/random-vs-random.toml")
        .display()
        .to_string();
    barsoom_ok(&["run", &jetan, "-n", "20", "-q"], d);
    barsoom_ok(&["run", &military, "-n", "5", "-q"], d);
    let jetan_rows = std::fs::read_to_string(d.join("reports/jetan/random-vs-random/summary.csv"))
        .expect("the Jetan run's own folder");
    let military_rows =
        std::fs::read_to_string(d.join("reports/jc/military/random-vs-random/summary.csv"))
            .expect("the Military Game run's own folder");
    assert_ne!(jetan_rows, military_rows);
    // The analysis commands add their name to the scenario's folder.
    let padwar = bundled("wom/padwar-vs-padwar.toml").display().to_string();
    barsoom_ok(
        &[
            "sweep",
            &padwar,
            "--vary",
            "sides[0].figures[0].level=5,6",
            "-n",
            "200",
        ],
        d,
    );
    assert!(
        d.join("reports/wom/padwar-vs-padwar-sweep/sweep.csv")
            .is_file()
    );
    barsoom_ok(
        &[
            "compare",
            &padwar,
            "--set-b",
            "sides[0].figures[0].level=7",
            "-n",
            "200",
        ],
        d,
    );
    assert!(
        d.join("reports/wom/padwar-vs-padwar-vs-changed/compare.csv")
            .is_file()
    );
}

#[test]
fn a_scenario_outside_scenarios_goes_under_its_rulebook() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::create_dir(d.join("my")).expect("mkdir");
    let mine = write_duel(&d.join("my"), "lvl6-vs-lvl6", SIDES);
    let o = barsoom_ok(&["run", &mine.display().to_string(), "-n", "100", "-q"], d);
    assert!(d.join("reports/wom/lvl6-vs-lvl6/summary.csv").is_file());
    assert!(text(&o.stdout).contains("reports/wom/lvl6-vs-lvl6"));
}

#[test]
fn another_scenarios_results_are_not_replaced_without_force() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let first = write_duel(d, "first", SIDES).display().to_string();
    std::fs::create_dir(d.join("other")).expect("mkdir");
    // Same file name, another folder: another scenario.
    let second = write_duel(&d.join("other"), "first", SIDES)
        .display()
        .to_string();
    barsoom_ok(&["run", &first, "-n", "100", "--out", "r", "-q"], d);
    let before = std::fs::read(d.join("r/manifest.json")).expect("manifest");
    let manifest: serde_json::Value = serde_json::from_slice(&before).expect("JSON");
    assert_eq!(manifest["written_by"]["command"], "run");
    // The same scenario again, by any command: fine.
    barsoom_ok(&["run", &first, "-n", "200", "--out", "r", "-q"], d);
    let err = assert_bad_input(
        &["run", &second, "-n", "100", "--out", "r", "-q"],
        d,
        &[
            "r: holds the results of `barsoom run` on",
            "first.toml",
            "other/first.toml",
            "--force",
        ],
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(d.join("r/manifest.json").is_file(), "nothing was removed");
    // The default folder is guarded the same way.
    barsoom_ok(&["run", &first, "-n", "100", "-q"], d);
    assert_bad_input(
        &[
            "sweep",
            &second,
            "--vary",
            "sides[0].figures[0].level=5,6",
            "-n",
            "100",
            "--out",
            "reports/wom/first",
        ],
        d,
        &["holds the results of `barsoom run`", "--force"],
    );
    // Asked for, it replaces them.
    barsoom_ok(
        &["run", &second, "-n", "100", "--out", "r", "-q", "--force"],
        d,
    );
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("r/manifest.json")).expect("manifest"))
            .expect("JSON");
    let scenarios = manifest["written_by"]["scenarios"].to_string();
    assert!(scenarios.contains("other/first.toml"), "{scenarios}");
}
