//! `jetan.game` end to end: the `barsoom jetan perft` and `play` tools,
//! `barsoom run` on the bundled scenarios (deterministic across thread
//! counts), tournaments with the players as entrants, and one-line errors
//! with exit code 2 for bad positions, players, flags and scenarios.

use barsoom::games::ScenarioModel;
use std::path::Path;

use barsoom::engine::{Model, RunConfig, run};
use barsoom::games::jetan::game::{JetanGame, OUT_A_WINS, OUT_B_WINS, OUT_UNFINISHED};

use crate::common;
use crate::common::{barsoom, barsoom_ok, text};

fn load(relative: &str) -> JetanGame {
    match JetanGame::load(&common::bundled(relative)) {
        Ok((model, _)) => model,
        Err(e) => panic!("{e}"),
    }
}

fn assert_one_line_error(args: &[&str], mentions: &str) {
    common::assert_bad_input(args, &common::root(), &[mentions]);
}

#[test]
fn perft_from_the_set_up_and_divide() {
    let o = barsoom_ok(&["jetan", "perft", "--depth", "2"], &common::root());
    assert!(
        text(&o.stdout).contains("perft 2: 8439"),
        "{}",
        text(&o.stdout)
    );
    let o = barsoom(
        &["jetan", "perft", "--depth", "2", "--divide"],
        &common::root(),
    );
    let out = text(&o.stdout);
    // 92 root moves, one line each, then the total.
    let root_lines = out
        .lines()
        .filter(|l| l.contains(": ") && !l.starts_with("perft"))
        .count();
    assert_eq!(root_lines, 92, "{out}");
    assert!(out.contains("e10*e5: "), "{out}");
    assert!(out.contains("perft 2: 8439"), "{out}");
}

#[test]
fn perft_of_a_position_under_a_rule_flag() {
    // The lone Black Princess in the centre: 48 moves and 98 escapes, or
    // 34 straight escapes under escape = straight-up-to-ten.
    let position = "9q/10/10/10/10/4Q5/10/10/10/10 b b -";
    let o = barsoom(
        &["jetan", "perft", "--depth", "1", "--position", position],
        &common::root(),
    );
    assert!(
        text(&o.stdout).contains("perft 1: 146"),
        "{}",
        text(&o.stdout)
    );
    let o = barsoom(
        &[
            "jetan",
            "perft",
            "--depth",
            "1",
            "--position",
            position,
            "--rule",
            "escape=straight-up-to-ten",
        ],
        &common::root(),
    );
    assert!(
        text(&o.stdout).contains("perft 1: 82"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn play_prints_a_game_that_repeats_with_its_seed() {
    let args = [
        "jetan", "play", "--black", "greedy", "--orange", "random", "--seed", "7",
    ];
    let first = barsoom_ok(&args, &common::root());
    let out = text(&first.stdout);
    assert!(out.contains("   1. Orange "), "{out}");
    assert!(
        out.lines()
            .last()
            .is_some_and(|l| l.starts_with("result: ")),
        "{out}"
    );
    assert_eq!(text(&barsoom(&args, &common::root()).stdout), out);
    let traced = barsoom(
        &[
            "jetan",
            "play",
            "--black",
            "random",
            "--orange",
            "random",
            "--max-plies",
            "3",
            "--trace",
        ],
        &common::root(),
    );
    let out = text(&traced.stdout);
    // The board before the game and after each of the three plies.
    assert_eq!(out.matches("    a b c d e f g h i j").count(), 4, "{out}");
    assert!(out.contains("result: unfinished after 3 plies"), "{out}");
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    assert_one_line_error(
        &[
            "jetan",
            "perft",
            "--depth",
            "1",
            "--position",
            "10/10 b - -",
        ],
        "bad Jetan position",
    );
    assert_one_line_error(
        &[
            "jetan",
            "perft",
            "--depth",
            "1",
            "--rule",
            "steps=sometimes",
        ],
        "expected exact or up-to",
    );
    assert_one_line_error(
        &["jetan", "perft", "--depth", "1", "--rule", "castling"],
        "FLAG=VALUE",
    );
    assert_one_line_error(
        &[
            "jetan",
            "play",
            "--black",
            "stockfish",
            "--orange",
            "random",
        ],
        "stockfish",
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let data = common::bundled("jetan/data/pieces.toml");
    for (name, body, field) in [
        ("one-player", "players = [\"random\"]", "players"),
        (
            "bad-player",
            "players = [\"random\", \"deep-blue\"]",
            "players[1]",
        ),
        (
            "bad-flag",
            "players = [\"random\", \"random\"]\n[rules]\nflier = \"swims\"",
            "rules.flier",
        ),
        (
            "bad-position",
            "players = [\"random\", \"random\"]\nposition = \"x\"",
            "position",
        ),
        (
            "bad-first",
            "players = [\"random\", \"random\"]\nfirst = \"green\"",
            "first",
        ),
    ] {
        let path =
            common::write_scenario(dir.path(), name, "jetan.game", &data, &format!("{body}\n"));
        assert_one_line_error(&["run", &path.display().to_string(), "-n", "10"], field);
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn run_is_identical_on_one_and_two_threads() {
    let scenario = common::bundled("jetan/greedy-vs-random.toml");
    let dir = tempfile::tempdir().expect("tempdir");
    let summary = |threads: &str| {
        let o = barsoom_ok(
            &[
                "run",
                &scenario.display().to_string(),
                "-n",
                "300",
                "--chunk",
                "64",
                "--threads",
                threads,
                "--seed",
                "11",
                "--quiet",
                "--json",
                "--out",
                &dir.path().join(threads).display().to_string(),
            ],
            &common::root(),
        );
        let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        (json["outcomes"].clone(), json["metrics"].clone())
    };
    let one = summary("1");
    assert_eq!(one, summary("2"));
    assert_eq!(one.0[0]["label"], "A (greedy) wins");
}

#[test]
fn the_model_records_consistent_metrics() {
    let model = load("jetan/greedy-vs-random.toml");
    let config = RunConfig {
        seed: 3,
        trials: 0..400,
        threads: 1,
        chunk: 400,
        progress: false,
    };
    let tally = match run(&model, &config, None) {
        Ok(t) => t,
        Err(e) => panic!("{e}"),
    };
    let spec = model.spec();
    assert_eq!(spec.outcomes.len(), tally.outcomes.len());
    let metric = |name: &str| {
        let i = spec
            .metrics
            .iter()
            .position(|m| m.name == name)
            .unwrap_or_else(|| panic!("no metric {name}"));
        &tally.metrics[i]
    };
    let sum = |name: &str| {
        metric(name)
            .bins()
            .map(|(v, c)| u64::from(v) * c)
            .sum::<u64>()
    };
    let wins = tally.outcomes[usize::from(OUT_A_WINS)] + tally.outcomes[usize::from(OUT_B_WINS)];
    assert_eq!(sum("first_won") + sum("second_won"), wins);
    assert!(sum("princess_taken") <= wins);
    // Greedy beats a random mover in most games; colours alternate by
    // trial, so in 400 games greedy moves first exactly 200 times.
    assert!(
        tally.outcomes[usize::from(OUT_A_WINS)] > 300,
        "{:?}",
        tally.outcomes
    );
    let a_first = sum("a_first");
    assert_eq!(a_first, 200);
    assert!(sum("a_won_first") <= a_first);
    assert_eq!(tally.outcomes[usize::from(OUT_UNFINISHED)], 0);
}

#[test]
fn every_bundled_jetan_scenario_loads() {
    let dir = common::root().join("scenarios/jetan");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("scenarios/jetan") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "toml") {
            if let Err(e) = JetanGame::load(&path) {
                panic!("{e}");
            }
            count += 1;
        }
    }
    assert!(count >= 8);
    assert!(Path::new(&dir.join("data/pieces.toml")).exists());
}

#[test]
fn a_tournament_takes_the_players_as_entrants() {
    let scenario = common::bundled("jetan/random-vs-random.toml");
    let dir = tempfile::tempdir().expect("tempdir");
    let o = barsoom_ok(
        &[
            "tournament",
            &scenario.display().to_string(),
            "--seat",
            "players[0]",
            "--seat",
            "players[1]",
            "--entrants",
            "random,greedy",
            "-n",
            "60",
            "--json",
            "--out",
            &dir.path().display().to_string(),
        ],
        &common::root(),
    );
    let out = text(&o.stdout);
    assert!(out.contains("greedy"), "{out}");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run in release (cargo test --release)"
)]
fn every_flag_written_at_its_book_value_plays_the_book_game() {
    // The flag-sweep base writes every flag out; with the defaults they
    // must change nothing, game for game.
    let config = RunConfig {
        seed: 11,
        trials: 0..300,
        threads: 2,
        chunk: 64,
        progress: false,
    };
    let tally = |name: &str| match run(&load(name), &config, None) {
        Ok(t) => t,
        Err(e) => panic!("{name}: {e}"),
    };
    let book = tally("jetan/greedy-vs-greedy.toml");
    assert_eq!(book, tally("jetan/greedy-vs-greedy-flags.toml"));
    // ...while a different reading does change games.
    assert_ne!(book, tally("jetan/greedy-vs-greedy-chief-loss.toml"));
}

#[test]
fn the_jetan_tools_print_json() {
    let dir = tempfile::tempdir().expect("tempdir");
    let json = |args: &[&str]| -> serde_json::Value {
        let o = common::barsoom_ok(args, dir.path());
        serde_json::from_slice(&o.stdout).expect("one JSON object")
    };
    let perft = json(&["jetan", "perft", "--depth", "2", "--json"]);
    assert_eq!(perft["nodes"], 8439);
    let divide = json(&["jetan", "perft", "--depth", "2", "--divide", "--json"]);
    let roots = divide["divide"].as_array().expect("divide");
    assert_eq!(roots.len(), 92, "the 92 first moves");
    let sum: u64 = roots
        .iter()
        .map(|r| r["nodes"].as_u64().expect("nodes"))
        .sum();
    assert_eq!(sum, 8439);
    // The game in JSON is the game in text: same moves, same result.
    let args = [
        "jetan", "play", "--black", "greedy", "--orange", "random", "--seed", "3",
    ];
    let game = json(&[&args[..], &["--json"]].concat());
    let moves = game["moves"].as_array().expect("moves");
    assert_eq!(moves.len() as u64, game["plies"].as_u64().expect("plies"));
    let text = text(&common::barsoom_ok(&args, dir.path()).stdout);
    for m in moves {
        let line = m["move"].as_str().expect("move");
        assert!(text.contains(line), "{line} not in the text game");
    }
    let result = game["result"].as_str().expect("result");
    assert!(text.contains(&format!("result: {result}")), "{text}");
    let values = json(&["jetan", "values", "-n", "2000", "--ply", "8", "--json"]);
    assert_eq!(values["pieces"].as_array().expect("pieces").len(), 6);
    assert!(values["decided_games_at_ply"].as_u64().expect("count") >= 50);
}

#[test]
fn run_takes_rule_flags_like_the_jetan_tools() {
    // random-vs-random has no [rules] table; --rule FLAG=VALUE is
    // --set rules.FLAG=VALUE, recorded among the run's overrides.
    let scenario = common::bundled("jetan/random-vs-random.toml")
        .display()
        .to_string();
    let dir = tempfile::tempdir().expect("tempdir");
    let run = |out: &str, extra: &[&str]| {
        let mut args = vec!["run", &scenario, "-n", "200", "-q", "--json", "--out", out];
        args.extend_from_slice(extra);
        let o = barsoom_ok(&args, dir.path());
        let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        let info: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join(out).join("run.json")).expect("run.json"),
        )
        .expect("run JSON");
        (json["outcomes"].clone(), info["overrides"].clone())
    };
    let (book, _) = run("book", &[]);
    let (by_rule, listed) = run("rule", &["--rule", "chief_taken_by_other=loss"]);
    let (by_set, _) = run("set", &["--set", "rules.chief_taken_by_other=loss"]);
    assert_eq!(by_rule, by_set);
    assert_ne!(by_rule, book);
    assert_eq!(by_rule[2]["count"], 0, "no Chief-taken draws: {by_rule}");
    assert_eq!(
        listed,
        serde_json::json!(["rules.chief_taken_by_other=loss"])
    );
    // Bad flags, and flags on another model, are one-line errors.
    assert_one_line_error(
        &["run", &scenario, "-n", "10", "--rule", "flier=swims"],
        "expected jumps or slides",
    );
    assert_one_line_error(
        &["run", &scenario, "-n", "10", "--rule", "castling=yes"],
        "expected one of the rule flags",
    );
    let duel = common::bundled("wom/padwar-vs-padwar.toml")
        .display()
        .to_string();
    assert_one_line_error(
        &["run", &duel, "-n", "10", "--rule", "steps=up-to"],
        "--rule: expected a jetan.game scenario",
    );
}

#[test]
fn a_side_without_a_legal_move_draws_or_loses_by_the_flag() {
    // Black to move with only the Princess, every square she could reach
    // threatened by the Orange Chief: every game ends at once. Seat A
    // plays Black (the side to move) in even trials.
    let dir = tempfile::tempdir().expect("tempdir");
    let data = common::bundled("jetan/data/pieces.toml");
    let path = common::write_scenario(
        dir.path(),
        "stuck",
        "jetan.game",
        &data,
        "players = [\"random\", \"random\"]\nposition = \"9q/10/10/10/10/10/10/2c7/10/Q9 b - -\"\n",
    );
    let counts = |extra: &[&str]| -> Vec<u64> {
        let path = path.display().to_string();
        let mut args = vec!["run", &path, "-n", "10", "-q", "--json", "--out", "o"];
        args.extend_from_slice(extra);
        let o = barsoom_ok(&args, dir.path());
        let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        let outcomes = json["outcomes"].as_array().expect("outcomes");
        outcomes
            .iter()
            .map(|o| o["count"].as_u64().expect("count"))
            .collect()
    };
    // A wins, B wins, Chief draw, endgame draw, no legal move, repetition,
    // unfinished.
    assert_eq!(counts(&[]), [0, 0, 0, 0, 10, 0, 0]);
    assert_eq!(counts(&["--rule", "no_moves=loss"]), [5, 5, 0, 0, 0, 0, 0]);
}

#[test]
fn perft_terminal_chess_drops_games_finished_early() {
    let dir = tempfile::tempdir().expect("tempdir");
    let json = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec![
            "jetan",
            "perft",
            "--depth",
            "2",
            "--json",
            "--position",
            "10/10/10/10/10/10/10/W1q4c2/10/9Q b - -",
        ];
        args.extend_from_slice(extra);
        serde_json::from_slice(&barsoom_ok(&args, dir.path()).stdout).expect("json")
    };
    let leaf = json(&[]);
    assert_eq!(leaf["nodes"], 259);
    assert_eq!(leaf["terminal"], "leaf");
    let chess = json(&["--terminal", "chess"]);
    assert_eq!(chess["nodes"], 258);
    let divided = json(&["--terminal", "chess", "--divide"]);
    assert_eq!(divided["nodes"], 258);
    assert_one_line_error(
        &["jetan", "perft", "--depth", "1", "--terminal", "go"],
        "leaf",
    );
}
