//! `jc.strategic` with the shared search player: determinism across
//! threads, the trace of a search decision, and one-line errors for bad
//! specs. (The ladder is a measurement in the findings: the search beats
//! the sensible player at 100 playouts a decision, by about 4 to 6 points
//! over hundreds of games, more than CI can afford.)

use barsoom::engine::{RunConfig, Tally, run};
use barsoom::games::ScenarioModel;
use barsoom::games::jc::strategic::JcStrategic;
use barsoom::scenario::Loader;
use barsoom::scenario::overrides::Override;

use crate::common;

const SCENARIO: &str = "jc/strategic/search-vs-sensible.toml";

fn games(policies: [&str; 2], seed: u64, n: u64, threads: usize) -> Tally {
    let sets = [
        format!("players[0].policy={}", policies[0]),
        format!("players[1].policy={}", policies[1]),
    ];
    let overrides: Vec<Override> = sets
        .iter()
        .map(|s| Override::parse(s).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let mut loader = Loader::new(&overrides);
    let model = JcStrategic::load_with(&common::bundled(SCENARIO), &mut loader)
        .unwrap_or_else(|e| panic!("{e}"))
        .0;
    let config = RunConfig {
        threads,
        chunk: 2,
        ..RunConfig::new(seed, n)
    };
    run(&model, &config, None).expect("run")
}

#[test]
fn a_search_game_is_the_same_on_any_thread_count() {
    let tally = |threads| games(["search:3:random", "search:4"], 5, 6, threads);
    let one = tally(1);
    assert_eq!(one, tally(2));
    assert_eq!(one.trials(), 6);
}

#[test]
fn search_specs_read_and_bad_ones_are_one_line_errors() {
    let root = common::root();
    let scenario = common::bundled(SCENARIO).display().to_string();
    for (spec, mentions) in [
        ("search:0", "search:PLAYOUTS:BASE"),
        ("search:x", "search:PLAYOUTS:BASE"),
        ("search:10:greedy", "sensible, random"),
        ("searching", "search:PLAYOUTS:BASE"),
    ] {
        let set = format!("players[1].policy={spec}");
        common::assert_bad_input(
            &["run", &scenario, "-n", "2", "--set", &set],
            &root,
            &["players[1].policy", mentions],
        );
    }
}

#[test]
fn the_trace_shows_each_searched_decision_and_its_candidates() {
    let trace = common::trace_of(&common::bundled(SCENARIO), 0, &common::root());
    let line = trace
        .lines()
        .find(|l| l.contains("seat 2 searches move"))
        .unwrap_or_else(|| panic!("no search in the trace:\n{trace}"));
    assert!(
        line.contains("(100 playouts, base plays [") && line.contains("[1] "),
        "{line}"
    );
    // In transit he chooses onward [0] or back [1] by playouts too [9.13].
    let transit = trace
        .lines()
        .find(|l| l.contains("seat 2 searches transit"))
        .unwrap_or_else(|| panic!("no search in transit in the trace:\n{trace}"));
    assert!(
        transit.contains("[0] ") && transit.contains("[1] "),
        "{transit}"
    );
}
