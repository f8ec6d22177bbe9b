//! The arena's Jetan played as a game of Jetan [17.43] (`jetan_arena =
//! "game"`): the game's result settles the arena by our reading (won, the
//! arena is won; lost, it is lost; drawn, the Jetan table's duels), the
//! game draws only from the trial's stream, and a bad Jetan player is a
//! one-line error.

use barsoom::engine::{Dice, NoTrace};
use barsoom::games::jc::strategic::dice::Roller;
use barsoom::games::jc::strategic::game::Status;
use barsoom::games::jc::strategic::script::Script;
use barsoom::games::jetan::players::Player as JetanPlayer;

use super::{chart_rolls, city, enter, entry, load, set_up};
use crate::common;

/// The Jetan table's rows, none of which a decided game rolls.
const JETAN_ROWS: [&str; 3] = ["jetan 1-2", "jetan 3-8", "jetan 9-10"];

/// Imprisoned in Zodanga by a third discovery with no cellmate (1), no
/// escape (10), the arena's 3 is Jetan [17.35]; `then` follows.
fn to_the_jetan_arena(
    name: &str,
    then: &[i32],
    jetan: &[Option<bool>],
    duels: &[bool],
) -> (
    barsoom::games::jc::strategic::JcStrategic,
    barsoom::games::jc::strategic::game::Game,
    Script,
) {
    let m = load(name);
    let ctx = m.context();
    let (mut g, _) = set_up(&m);
    enter(&m, &mut g, 0, "zodanga");
    g.heroes[0].city.discoveries = 2;
    let mut rolls = vec![1, 10, 3];
    rolls.extend(then);
    let mut s = Script::default()
        .d10s(&rolls)
        .jetan_games(jetan)
        .duels(duels);
    g.discovery(&ctx, 0, &mut s, &mut NoTrace);
    assert!(s.done(), "every scripted chance used, no more");
    (m, g, s)
}

#[test]
fn the_scenario_option_picks_the_game_and_its_players() {
    assert_eq!(load("two-heroes").config().jetan_arena, None);
    assert_eq!(
        load("jetan-arena").config().jetan_arena,
        Some([JetanPlayer::Greedy, JetanPlayer::Greedy])
    );
}

#[test]
fn a_jetan_game_won_wins_the_arena_without_a_duel_17_43() {
    // Won: no duel and no Jetan table roll; the villain, outside his final
    // destination, flees to Manator [17.33].
    let manator = {
        let m = load("jetan-arena");
        chart_rolls(&m, "manator")
    };
    let (m, g, s) = to_the_jetan_arena("jetan-arena", &manator, &[Some(true)], &[]);
    assert!(s.foes.is_empty(), "no duel: {:?}", s.foes);
    assert_eq!(g.fired[entry(&m, "arena 3-4")], 1);
    for row in JETAN_ROWS {
        assert_eq!(g.fired[entry(&m, row)], 0, "{row}");
    }
    let h = &g.heroes[0];
    assert_eq!(h.status, Status::Free);
    assert_eq!((h.stats.arena_duels, h.stats.duels), (1, 0));
    assert_eq!(g.parties[0].city, city(&m, "manator"));
}

#[test]
fn a_jetan_game_lost_loses_the_arena_17_3() {
    let (m, g, s) = to_the_jetan_arena("jetan-arena", &[], &[Some(false)], &[]);
    assert!(s.foes.is_empty(), "no duel: {:?}", s.foes);
    for row in JETAN_ROWS {
        assert_eq!(g.fired[entry(&m, row)], 0, "{row}");
    }
    assert_eq!(g.heroes[0].status, Status::OutOfPlay);
}

#[test]
fn a_drawn_jetan_game_falls_back_to_the_table() {
    // Drawn: the Jetan table's 7 is a captain of the guard, then a warrior
    // of Mars, as in the table game [17.43]; both won, the villain flees.
    let m = load("jetan-arena");
    let mut then = vec![7];
    then.extend(chart_rolls(&m, "manator"));
    let (m, g, s) = to_the_jetan_arena("jetan-arena", &then, &[None], &[true, true]);
    assert_eq!(s.foes.len(), 2);
    assert_eq!(s.foes[0], vec!["captain-of-the-guard".to_string()]);
    assert_eq!(g.fired[entry(&m, "jetan 3-8")], 1);
    assert_eq!(g.heroes[0].status, Status::Free);
    assert_eq!(g.parties[0].city, city(&m, "manator"));
}

#[test]
fn the_table_game_never_plays_jetan() {
    // The same imprisonment under the default table: the Jetan table's 7
    // and its two duels, and no game of Jetan (none is scripted: one asked
    // for would fail the script).
    let m = load("two-heroes");
    let mut then = vec![7];
    then.extend(chart_rolls(&m, "manator"));
    let (m, g, s) = to_the_jetan_arena("two-heroes", &then, &[], &[true, true]);
    assert_eq!(s.foes.len(), 2);
    assert_eq!(g.fired[entry(&m, "jetan 3-8")], 1);
}

#[test]
fn the_arena_game_is_played_from_the_trials_own_stream() {
    // Greedy for the hero against a random villain: the same trial's
    // stream gives the same game, and greedy wins nearly every one.
    let players = [JetanPlayer::Greedy, JetanPlayer::Random];
    let mut hero_won = 0;
    for trial in 0..40 {
        let first = Dice::for_trial(1, trial).jetan(players);
        assert_eq!(
            first,
            Dice::for_trial(1, trial).jetan(players),
            "trial {trial}"
        );
        hero_won += u32::from(first == Some(true));
    }
    assert!(hero_won >= 32, "greedy won {hero_won} of 40");
    let mut lost = 0;
    for trial in 0..40 {
        lost += u32::from(
            Dice::for_trial(2, trial).jetan([JetanPlayer::Random, JetanPlayer::Greedy])
                == Some(false),
        );
    }
    assert!(lost >= 32, "random lost {lost} of 40");
}

#[test]
fn bad_jetan_arena_settings_are_one_line_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = common::jc_data();
    let players = "[[players]]\nhero = \"john-carter\"\n[[players]]\nhero = \"carthoris\"\n";
    let cases: [(&str, &str, &[&str]); 4] = [
        (
            "bad-player",
            "jetan_arena = \"game\"\njetan_players = [\"greedy\", \"deep-blue\"]\n",
            &[
                "jetan_players[1]",
                "expected a player random, greedy",
                "\"deep-blue\"",
            ],
        ),
        (
            "bad-budget",
            "jetan_arena = \"game\"\njetan_players = [\"mcts:0\", \"greedy\"]\n",
            &["jetan_players[0]", "expected mcts with a budget of 1 to"],
        ),
        (
            "one-player",
            "jetan_arena = \"game\"\njetan_players = [\"greedy\"]\n",
            &["jetan_players", "expected two Jetan players", "found 1"],
        ),
        (
            "bad-mode",
            "jetan_arena = \"chess\"\n",
            &[
                "jetan_arena",
                "expected \"table\" or \"game\" [17.43]",
                "\"chess\"",
            ],
        ),
    ];
    for (name, body, expected) in cases {
        let path = common::write_scenario(
            dir.path(),
            name,
            "jc.strategic",
            &data,
            &format!("{body}{players}"),
        );
        let file = path.display().to_string();
        let mut wanted = vec![file.as_str()];
        wanted.extend(expected);
        common::assert_bad_input(&["validate", &file], &common::root(), &wanted);
    }
    // Players without the game: a slip the loader names.
    let path = common::write_scenario(
        dir.path(),
        "players-only",
        "jc.strategic",
        &data,
        &format!("jetan_players = [\"greedy\", \"greedy\"]\n{players}"),
    );
    common::assert_invalid(&path, &["jetan_players", "expected jetan_arena = \"game\""]);
}
