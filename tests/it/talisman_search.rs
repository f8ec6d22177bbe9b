//! `talisman.game` with the shared search player: the ladder (random <
//! sensible, and the search above its own base) by seat rotation with
//! Wilson intervals, determinism across threads, the trace of a search
//! decision, and one-line errors for bad `search:` specs.

use barsoom::engine::{RunConfig, run};
use barsoom::games::ScenarioModel;
use barsoom::games::talisman::game::{METRIC_SEAT_WON, TalismanGame};
use barsoom::games::talisman::policy::Policy;
use barsoom::math::stats::wilson_interval;
use barsoom::scenario::Loader;
use barsoom::scenario::overrides::Override;

use crate::common;

const FOUR: &str = "talisman/four-player-random-deal.toml";

fn load(scenario: &str, overrides: &[&str]) -> TalismanGame {
    let overrides: Vec<Override> = overrides
        .iter()
        .map(|s| Override::parse(s).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let mut loader = Loader::new(&overrides);
    TalismanGame::load_with(&common::bundled(scenario), &mut loader)
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}

/// Seat rotation in the four-player game: for each seat, `games` games
/// with `strong` in that seat and `weak` in the others. Returns the strong
/// seat's wins and the games played.
fn rotation(strong: &str, weak: &str, games: u64, horizon: u32) -> (u64, u64) {
    let mut wins = 0;
    for seat in 0..4 {
        let mut sets = vec![format!("search_horizon={horizon}")];
        for s in 0..4 {
            let who = if s == seat { strong } else { weak };
            sets.push(format!("players[{s}]={who}"));
        }
        let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
        let model = load(FOUR, &sets);
        let config = RunConfig {
            threads: 2,
            ..RunConfig::new(40 + seat as u64, games)
        };
        let tally = run(&model, &config, None).expect("run");
        let share = tally.metrics[METRIC_SEAT_WON + seat].mean().unwrap_or(0.0);
        wins += (share * games as f64).round() as u64;
    }
    (wins, 4 * games)
}

/// The strong rung's share is above a quarter with its Wilson interval
/// clear of it.
fn assert_above_a_quarter(strong: &str, weak: &str, (wins, games): (u64, u64)) {
    let (low, high) = wilson_interval(wins, games);
    assert!(
        low > 0.25,
        "{strong} against {weak}: {wins} of {games} won, 95% interval [{low:.3}, {high:.3}]"
    );
}

#[test]
#[cfg_attr(debug_assertions, ignore = "a few seconds in release")]
fn the_sensible_player_beats_random_ones_from_every_seat() {
    assert_above_a_quarter("sensible", "random", rotation("sensible", "random", 60, 6));
}

#[test]
#[cfg_attr(debug_assertions, ignore = "a few seconds in release")]
fn the_search_player_beats_its_own_random_base_from_every_seat() {
    // A search over random playouts against random players: the search,
    // not its base, wins.
    let result = rotation("search:16:random", "random", 40, 6);
    assert_above_a_quarter("search:16:random", "random", result);
}

#[test]
fn a_search_game_is_the_same_on_any_thread_count() {
    let model = load(FOUR, &["players[1]=search:8", "search_horizon=3"]);
    let tally = |threads| {
        let config = RunConfig {
            threads,
            chunk: 2,
            ..RunConfig::new(7, 6)
        };
        run(&model, &config, None).expect("run")
    };
    assert_eq!(tally(1), tally(2));
}

#[test]
fn search_specs_read_and_bad_ones_are_one_line_errors() {
    let model = load(FOUR, &["players[2]=search:30:random"]);
    assert!(matches!(
        model.config().policies[2],
        Policy::Search(s) if s.playouts == 30
    ));
    let root = common::root();
    let scenario = common::bundled(FOUR).display().to_string();
    for (spec, mentions) in [
        ("search:0", "search:PLAYOUTS:BASE"),
        ("search:ten", "search:PLAYOUTS:BASE"),
        ("search:10:greedy", "sensible, random"),
        ("searcher", "sensible, random, search"),
    ] {
        let set = format!("players[0]={spec}");
        common::assert_bad_input(
            &["run", &scenario, "-n", "2", "--set", &set],
            &root,
            &["players[0]", mentions],
        );
    }
}

#[test]
fn the_trace_shows_each_search_decision_with_its_candidates() {
    let dir = std::env::temp_dir().join(format!("barsoom-talisman-search-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let scenario = dir.join("search.toml");
    let text = std::fs::read_to_string(common::bundled(FOUR)).expect("read");
    let data = common::bundled("talisman/data").display().to_string();
    let text = text
        .replace("data = \"data\"", &format!("data = {data:?}"))
        .replace(
            "players = [\"sensible\",",
            "search_horizon = 2\nplayers = [\"search:6\",",
        );
    std::fs::write(&scenario, text).expect("write");
    let trace = common::trace_of(&scenario, 0, &dir);
    let line = trace
        .lines()
        .find(|l| l.contains("seat 1 searches"))
        .unwrap_or_else(|| panic!("no search in the trace:\n{trace}"));
    assert!(
        line.contains("(6 playouts, base plays [")
            && line.contains("[1] ")
            && line.contains("plays ["),
        "{line}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
