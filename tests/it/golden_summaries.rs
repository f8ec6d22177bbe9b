//! Every bundled scenario's `summary.csv` at seed 1 is pinned in
//! `tests/golden/summaries/`, so a change that should not alter behaviour
//! (a refactor, a speed-up) is proved not to, and one that should shows its
//! effect in the diff of the golden files.
//!
//! The binary runs each scenario with a per-model trial count sized to keep
//! the whole check near a minute in a release build. After an intended
//! change of results, rewrite the files with
//! `BARSOOM_BLESS=1 cargo test --release --test it golden` and commit
//! them with the change that explains them.

use std::path::Path;
use std::process::Command;

use crate::common::root;

/// Trials per scenario, by model: each model's scenarios run for about the
/// same time.
const TRIALS: &[(&str, u64)] = &[
    ("wom.duel", 20_000),
    ("wom.air", 1_000),
    ("wom.battle", 2_000),
    ("jc.fleet", 20_000),
    ("jc.duel", 20_000),
    ("jc.swordsman", 20_000),
    ("jc.military", 300),
    ("jc.strategic", 100),
    ("races.battle", 20_000),
    ("races.game", 2_000),
    ("jetan.game", 100),
    ("talisman.game", 300),
    ("talisman.combat", 20_000),
];

/// Scenarios much slower than their model's others (search players, random
/// walkers, many fighters), by path under `scenarios/`, with their trials.
const SLOW: &[(&str, u64)] = &[
    ("jetan/mcts-vs-greedy.toml", 10),
    ("jetan/alphabeta-vs-greedy.toml", 20),
    ("jc/duel/random-vs-random-ambush.toml", 2_000),
    ("jc/duel/unmasking-the-villain.toml", 5_000),
    ("jc/duel/rescuing-the-princess.toml", 5_000),
    ("jc/duel/street-fight.toml", 5_000),
    ("jc/strategic/six-heroes.toml", 30),
    ("jc/strategic/search-vs-sensible.toml", 6),
    ("races/game/search-vs-greedy.toml", 200),
    ("talisman/search-vs-sensible.toml", 8),
    ("jc/military/search-vs-greedy.toml", 8),
    ("wom/air/search-vs-line-equal-squadrons.toml", 200),
];

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build (85 scenarios): run in release (cargo test --release)"
)]
fn every_bundled_scenario_summary_matches_its_golden_file() {
    let root = root();
    let scenario_dir = root.join("scenarios");
    let golden_dir = root.join("tests/golden/summaries");
    let bless = std::env::var_os("BARSOOM_BLESS").is_some();
    let work = tempfile::tempdir().expect("temporary folder");
    let mut differing = Vec::new();
    let list = barsoom::cli::bundled_scenarios(&scenario_dir);
    assert!(list.len() > 50, "found only {} scenarios", list.len());
    for scenario in &list {
        let (model, _) = barsoom::games::describe(scenario)
            .unwrap_or_else(|| panic!("{}: no model", scenario.display()));
        let relative = scenario
            .strip_prefix(&scenario_dir)
            .expect("under scenarios/");
        let slow = SLOW.iter().find(|(path, _)| Path::new(path) == relative);
        let trials = match slow {
            Some((_, trials)) => *trials,
            None => {
                TRIALS
                    .iter()
                    .find(|(id, _)| *id == model)
                    .unwrap_or_else(|| panic!("{}: no trial count for {model}", scenario.display()))
                    .1
            }
        };
        let out = work.path().join(relative.with_extension(""));
        let status = Command::new(env!("CARGO_BIN_EXE_barsoom"))
            .arg("run")
            .arg(scenario)
            .args(["-n", &trials.to_string(), "--seed", "1", "--quiet", "--out"])
            .arg(&out)
            .current_dir(&root)
            .stdout(std::process::Stdio::null())
            .status()
            .expect("barsoom runs");
        assert!(status.success(), "{}: exit {status}", scenario.display());
        let summary = std::fs::read_to_string(out.join("summary.csv")).expect("summary.csv");
        let golden = golden_dir.join(relative.with_extension("csv"));
        if bless {
            std::fs::create_dir_all(golden.parent().expect("a folder")).expect("golden folder");
            std::fs::write(&golden, &summary).expect("golden file written");
            continue;
        }
        match std::fs::read_to_string(&golden) {
            Ok(expected) if expected == summary => {}
            Ok(_) => differing.push(format!("{} (-n {trials}) differs", relative.display())),
            Err(_) => differing.push(format!("{} has no golden file", relative.display())),
        }
    }
    assert!(
        differing.is_empty(),
        "summaries at seed 1 differ from tests/golden/summaries/ (if intended, rerun with \
         BARSOOM_BLESS=1 and commit the files):\n{}",
        differing.join("\n")
    );
}

/// A golden file whose scenario was removed or renamed would pin nothing.
#[test]
fn every_golden_file_has_its_scenario() {
    let root = root();
    let golden_dir = root.join("tests/golden/summaries");
    let mut stack = vec![golden_dir.clone()];
    let mut orphans = Vec::new();
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let relative = path.strip_prefix(&golden_dir).expect("under golden/");
            if !root
                .join("scenarios")
                .join(relative.with_extension("toml"))
                .is_file()
            {
                orphans.push(relative.display().to_string());
            }
        }
    }
    assert!(
        orphans.is_empty(),
        "golden files without a scenario: {orphans:?}"
    );
}
