//! `jc.military` on the shared search player: the ladder random < greedy
//! by seat rotation (search above greedy is a measurement in the
//! findings), determinism across threads, bad player specs, the search in
//! the trace, and `--set`/`sweep` over the policy field.

use std::path::{Path, PathBuf};

use barsoom::engine::{Dice, NoTrace};
use barsoom::games::ScenarioModel;
use barsoom::games::jc::military::JcMilitary;
use barsoom::math::stats::wilson_interval;

use crate::common;

/// A greedy-vs-greedy scenario in `dir` with the two sides' policies.
fn scenario(dir: &Path, name: &str, helium: &str, alliance: &str) -> PathBuf {
    common::write_scenario(
        dir,
        name,
        "jc.military",
        &common::jc_data(),
        &format!(
            "turn_limit = 500\n\
             [sides.helium]\npolicy = {helium:?}\nsetup = {{ greater-helium = 4, lesser-helium = 3 }}\n\
             [sides.alliance]\npolicy = {alliance:?}\nsetup = {{ dusar = 5, jahar = 3, tjanath = 2 }}\n"
        ),
    )
}

/// Wins of `strong` over `games` games against `weak` with the seats
/// rotated: `strong` is Helium in trials 0..games/2 and the alliance in
/// the rest (trials games/2..games, so no trial is played twice).
fn rotation_wins(strong: &str, weak: &str, games: u64) -> u64 {
    let dir = tempfile::tempdir().expect("tmp");
    let half = games / 2;
    let mut wins = 0;
    for (seat, helium, alliance) in [(0, strong, weak), (1, weak, strong)] {
        let path = scenario(dir.path(), &format!("seat{seat}"), helium, alliance);
        let (m, _) = JcMilitary::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let trials = seat as u64 * half..(seat as u64 + 1) * half;
        let tally = common::tally(&m, 3, trials, 2, 4);
        wins += tally.outcomes[seat];
    }
    wins
}

/// `strong` beats `weak` by seat rotation: its win rate over `games` games
/// is above the 1/2 share of a two-player game with its 95% Wilson
/// interval clear of it.
fn assert_beats(strong: &str, weak: &str, games: u64) {
    let wins = rotation_wins(strong, weak, games);
    let (low, high) = wilson_interval(wins, games);
    assert!(
        low > 0.5,
        "{strong} against {weak}: {wins} of {games} wins, [{low:.3}, {high:.3}]"
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn the_ladder_random_below_greedy_holds_by_seat_rotation() {
    assert_beats("greedy", "random", 40);
}

// The top rung, search over greedy against greedy, needs a budget of 200
// playouts and about 80 games (some ten minutes of one core) to show with
// its interval clear of a half; it is a measurement in
// docs/findings/jc.military.md, not a test: search:200 won 63.8% [52.8,
// 73.4] of 80 games by seat rotation at seed 1.

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn a_game_with_a_search_player_is_the_same_on_any_number_of_threads() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = scenario(dir.path(), "s", "search:4", "greedy");
    let (m, _) = JcMilitary::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let one = common::tally(&m, 9, 0..6, 1, 1);
    assert_eq!(one, common::tally(&m, 9, 0..6, 2, 1));
    assert_eq!(one.trials(), 6);
    // A replayed game is the bulk game.
    let (g, end) = m.play(&mut Dice::for_trial(9, 2), &mut NoTrace);
    let (h, again) = m.play(&mut Dice::for_trial(9, 2), &mut NoTrace);
    assert_eq!((end, g.stats), (again, h.stats));
}

#[test]
fn bad_search_specs_are_one_line_errors_naming_the_field() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = scenario(dir.path(), "s", "greedy", "greedy");
    let out = dir.path().join("out");
    for bad in [
        "search:0",
        "search:x",
        "search:10:lookahead",
        "search:5:greedy:1",
    ] {
        let set = format!("sides.helium.policy={bad}");
        common::assert_bad_input(
            &[
                "run",
                path.to_str().expect("utf8"),
                "-n",
                "2",
                "--set",
                &set,
                "--out",
                out.to_str().expect("utf8"),
            ],
            dir.path(),
            &[
                "s.toml",
                "sides.helium.policy",
                "search:PLAYOUTS:BASE",
                "greedy, random",
                bad,
            ],
        );
        assert!(!out.exists(), "{bad}: nothing written");
    }
    // An unknown policy names every accepted form.
    let bad = scenario(dir.path(), "bad", "greedy", "minimax");
    common::assert_invalid(
        &bad,
        &[
            "sides.alliance.policy",
            "lookahead",
            "search:PLAYOUTS",
            "minimax",
        ],
    );
}

#[test]
fn the_trace_shows_each_search_with_its_candidates() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = scenario(dir.path(), "s", "search:3", "greedy");
    let trace = common::trace_of(&path, 0, dir.path());
    let line = trace
        .lines()
        .find(|l| l.contains("[search] seat 1 searches move (3 playouts, base plays ["))
        .unwrap_or_else(|| panic!("no search of a move in the trace:\n{trace}"));
    assert!(
        line.contains("playouts, mean ") && line.contains("; plays ["),
        "{line}"
    );
    assert!(
        !trace.contains("[search] seat 2"),
        "the greedy alliance never searches"
    );
}

#[test]
fn set_and_sweep_reach_the_policy_field() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = common::bundled("jc/military/greedy-vs-greedy.toml");
    let out = dir.path().join("run");
    common::barsoom_ok(
        &[
            "run",
            path.to_str().expect("utf8"),
            "-n",
            "2",
            "--set",
            "sides.helium.policy=search:2",
            "--out",
            out.to_str().expect("utf8"),
        ],
        dir.path(),
    );
    let sweep = dir.path().join("sweep");
    common::barsoom_ok(
        &[
            "sweep",
            path.to_str().expect("utf8"),
            "--vary",
            "sides.helium.policy=greedy,search:2",
            "-n",
            "2",
            "--out",
            sweep.to_str().expect("utf8"),
        ],
        dir.path(),
    );
    let rows = common::read_csv(&sweep.join("sweep.csv"));
    assert!(
        rows.iter().any(|r| r.iter().any(|c| c == "search:2")),
        "{rows:?}"
    );
}
