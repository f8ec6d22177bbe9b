//! `wom.air` with the shared search player (a side's captains choose their
//! tactic each turn): the ladder random < line of battle < search by
//! rotating the sides of two equal squadrons, determinism across threads,
//! the trace of a search decision, and one-line errors for bad specs.

use barsoom::engine::{RunConfig, Tally, run};
use barsoom::games::ScenarioModel;
use barsoom::games::wom::air::battle::WomAir;
use barsoom::math::stats::wilson_interval;
use barsoom::scenario::Loader;
use barsoom::scenario::overrides::Override;

use crate::common;

const SQUADRONS: &str = "wom/air/search-vs-line-equal-squadrons.toml";

fn load(tactics: [&str; 2]) -> WomAir {
    let sets = [
        format!("sides[0].tactic={}", tactics[0]),
        format!("sides[1].tactic={}", tactics[1]),
    ];
    let overrides: Vec<Override> = sets
        .iter()
        .map(|s| Override::parse(s).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let mut loader = Loader::new(&overrides);
    WomAir::load_with(&common::bundled(SQUADRONS), &mut loader)
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}

fn battles(tactics: [&str; 2], seed: u64, games: u64, threads: usize) -> Tally {
    let config = RunConfig {
        threads,
        chunk: 16,
        ..RunConfig::new(seed, games)
    };
    run(&load(tactics), &config, None).expect("run")
}

/// `strong` against `weak` with each on each side for `games` battles: the
/// strong tactic's share of the battles is above a half with its Wilson
/// interval clear of it.
fn assert_ladder(strong: &str, weak: &str, games: u64) {
    let as_helium = battles([strong, weak], 11, games, 2);
    let as_zodanga = battles([weak, strong], 12, games, 2);
    let wins = as_helium.outcomes[0] + as_zodanga.outcomes[1];
    let (low, high) = wilson_interval(wins, 2 * games);
    assert!(
        low > 0.5,
        "{strong} against {weak}: {wins} of {} won, 95% interval [{low:.3}, {high:.3}]",
        2 * games
    );
}

#[test]
#[cfg_attr(debug_assertions, ignore = "a few seconds in release")]
fn the_line_of_battle_beats_random_orders_from_either_side() {
    assert_ladder("line-of-battle", "random", 200);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "a few seconds in release")]
fn the_search_beats_the_line_of_battle_from_either_side() {
    // Its base is the line of battle: the search, not its base, wins
    // (62% of 2,000 battles at this budget, 52% at 20 playouts).
    assert_ladder("search:100:line-of-battle", "line-of-battle", 150);
}

#[test]
fn a_search_battle_is_the_same_on_any_thread_count() {
    let tally = |threads| battles(["search:6", "search:4:boarders"], 3, 40, threads);
    let one = tally(1);
    assert_eq!(one, tally(2));
    assert_eq!(one.trials(), 40);
}

#[test]
fn search_specs_read_and_bad_ones_are_one_line_errors() {
    let model = load(["search:30:rammers", "circle"]);
    assert_eq!(model.sides[0].search, Some(30));
    assert_eq!(
        model.sides[0].tactic,
        barsoom::games::wom::air::tactics::Tactic::Rammers
    );
    assert_eq!(model.sides[1].search, None);
    let root = common::root();
    let scenario = common::bundled(SQUADRONS).display().to_string();
    for (spec, mentions) in [
        ("search:0", "search:PLAYOUTS:BASE"),
        ("search:x", "search:PLAYOUTS:BASE"),
        ("search:10:greedy", "line-of-battle, boarders"),
        ("searching", "search:N:BASE"),
    ] {
        let set = format!("sides[0].tactic={spec}");
        common::assert_bad_input(
            &["run", &scenario, "-n", "2", "--set", &set],
            &root,
            &["sides[0].tactic", mentions],
        );
    }
}

#[test]
fn the_trace_shows_each_turns_choice_of_tactic() {
    let trace = common::trace_of(&common::bundled(SQUADRONS), 0, &common::root());
    let line = trace
        .lines()
        .find(|l| l.contains("seat 1 searches tactic"))
        .unwrap_or_else(|| panic!("no search in the trace:\n{trace}"));
    assert!(
        line.contains("(20 playouts, base plays [0])") && line.contains("[5] "),
        "{line}"
    );
}
