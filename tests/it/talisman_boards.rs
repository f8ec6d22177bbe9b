//! `talisman.game` with an expansion board, the Dungeon: hand-worked cases
//! with scripted dice for a doorway entered [11:32-33], pack animals left
//! at the doorway [11:34], a spiral move [11:39], the move back after a
//! defeat and out by the door card [11:40], leaving by the Treasure
//! Chamber's chart [11:46] and a Dungeon token's +1 on it [20:14]; the
//! Dungeon's deck drawn on its spaces; one-line errors for bad board data;
//! and the main board's game untouched when no board is played.

use barsoom::games::ScenarioModel;
use barsoom::scenario::Load;
use std::path::{Path, PathBuf};

use barsoom::engine::{RunConfig, TraceLog, run};
use barsoom::games::talisman::character::Hero;
use barsoom::games::talisman::data::Rules;
use barsoom::games::talisman::game::{Config, Game, TalismanGame};
use barsoom::games::talisman::tournament::Tournament;

use crate::common;
use crate::common::ScriptedDice;

pub(crate) fn rules() -> Rules {
    Rules::load(&common::bundled("talisman/data")).unwrap_or_else(|e| panic!("{e}"))
}

/// Four sensible seats with the Dungeon played.
fn dungeon_config(rules: &Rules) -> Config {
    board_config(rules, "dungeon")
}

/// Four sensible seats with the expansion board `id` played.
pub(crate) fn board_config(rules: &Rules, id: &str) -> Config {
    let k = rules
        .expansions
        .iter()
        .position(|x| x.id == id)
        .unwrap_or_else(|| panic!("{id} is loaded"));
    Config {
        tournament: Tournament {
            boards: vec![id.into()],
            board_mask: 1 << k,
            ..Tournament::default()
        },
        ..crate::talisman_game::config(4)
    }
}

pub(crate) fn space(rules: &Rules, name: &str) -> usize {
    rules
        .board
        .space_index(name)
        .unwrap_or_else(|| panic!("no space {name}"))
}

pub(crate) fn card(rules: &Rules, name: &str) -> u16 {
    rules
        .cards
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("no card {name}")) as u16
}

/// A Troll (Strength 6, Craft 1, 5 lives, no dice at the start of its
/// turn) for seat 1 on `at`, the other seats empty; `strength` counters.
pub(crate) fn troll_on<'a>(
    rules: &'a Rules,
    config: &'a Config,
    at: &str,
    strength: i32,
) -> Game<'a> {
    let mut g = Game::new(rules, config);
    let p = &mut g.players[0];
    p.hero = Hero::new(rules, rules.character_index("Troll").expect("Troll"));
    p.hero.strength = strength;
    p.hero.space = space(rules, at) as u16;
    p.alive = true;
    p.out = false;
    p.policy = config.policies[0];
    g
}

/// Plays seat 1's turn with `dice`, all of which must be rolled.
pub(crate) fn turn(g: &mut Game<'_>, dice: &[u32]) {
    let mut script = ScriptedDice::new(dice);
    g.turn(0, &mut script, &mut TraceLog::default());
    assert!(script.all_used(), "every scripted die is rolled");
}

pub(crate) fn at(g: &Game<'_>) -> String {
    g.rules.board.spaces[usize::from(g.players[0].hero.space)]
        .name
        .clone()
}

#[test]
fn a_doorway_card_leads_to_the_dungeon_entrance_the_next_turn_11_32_33() {
    let rules = rules();
    let config = dungeon_config(&rules);
    // Strong enough (power 9 + 1 = 10) and healthy: it goes through, as
    // its move, without a die, and stops on the entrance.
    let mut g = troll_on(&rules, &config, "Ruins", 9);
    let ruins = space(&rules, "Ruins");
    g.place_card(ruins, card(&rules, "Dungeon Doorway"));
    turn(&mut g, &[]);
    assert_eq!(at(&g), "Dungeon Entrance");
    assert_eq!(g.stats.board_visits[0], 1);
    assert_eq!(g.players[0].hero.visited, 1);
    // Entering is optional [11:33]: too weak (power 7), the Troll rolls and
    // moves on round the outer region instead.
    let mut g = troll_on(&rules, &config, "Ruins", 6);
    g.place_card(ruins, card(&rules, "Dungeon Doorway"));
    // (Dice to spare for whatever the space it reaches asks.)
    g.turn(
        0,
        &mut ScriptedDice::new(&[1; 12]),
        &mut TraceLog::default(),
    );
    assert_ne!(at(&g), "Dungeon Entrance");
    assert_ne!(at(&g), "Ruins");
    assert_eq!(g.stats.board_visits[0], 0);
}

#[test]
fn pack_animals_and_their_loads_stay_at_the_doorway_11_34() {
    let rules = rules();
    let config = dungeon_config(&rules);
    let mut g = troll_on(&rules, &config, "Ruins", 9);
    let ruins = space(&rules, "Ruins");
    let mule = card(&rules, "Mule");
    assert!(g.players[0].hero.take_object(&rules, mule));
    assert_eq!(g.players[0].hero.animals_len, 1);
    g.place_card(ruins, card(&rules, "Dungeon Doorway"));
    turn(&mut g, &[]);
    assert_eq!(at(&g), "Dungeon Entrance");
    assert_eq!(g.players[0].hero.animals_len, 0);
    assert_eq!(g.stats.animals_left, 1);
    let pile = &g.pile[ruins][..usize::from(g.pile_len[ruins])];
    assert!(pile.contains(&mule), "the Mule waits on the Ruins");
}

#[test]
fn the_spiral_is_followed_away_from_the_entrance_11_39() {
    let rules = rules();
    let config = dungeon_config(&rules);
    // From the entrance a 6 reaches the sixth space on, the Shrine of
    // Light, which heals a life.
    let mut g = troll_on(&rules, &config, "Dungeon Entrance", 9);
    g.players[0].hero.lives = 3;
    turn(&mut g, &[6]);
    assert_eq!(at(&g), "Shrine of Light");
    assert_eq!(g.players[0].hero.lives, 4);
    // The Dungeon's own deck is drawn on its draw-card spaces: the Cells
    // (one card) hold a card of the Dungeon's deck afterwards, or the
    // creature drawn was fought.
    let mut g = Game::new(&rules, &config);
    let mut dice = barsoom::engine::rng::Dice::for_trial(3, 0);
    g.setup(&mut dice);
    g.players[0].hero.space = space(&rules, "Cells") as u16;
    let before = g.stats.cards_drawn;
    g.encounter_space(0, &mut dice, &mut TraceLog::default());
    assert_eq!(g.stats.cards_drawn, before + 1);
    let met: Vec<u16> = (0..rules.cards.len() as u16)
        .filter(|&c| g.stats.card_met[usize::from(c)] > 0)
        .collect();
    assert_eq!(met.len(), 1, "one card met on the Cells");
    assert_eq!(
        rules.cards[usize::from(met[0])].deck,
        1,
        "from the Dungeon's deck"
    );
}

#[test]
fn a_defeat_sends_the_character_back_toward_the_entrance_next_turn_11_40() {
    let rules = rules();
    let config = dungeon_config(&rules);
    // On the Guard Room (position 2) the Troll (Strength 6) meets a
    // guard of Strength 3 + a die: it rolls 1 against 3 + 6 and loses.
    let mut g = troll_on(&rules, &config, "Guard Room", 6);
    let mut script = ScriptedDice::new(&[6, 1, 6]);
    g.encounter_space(0, &mut script, &mut TraceLog::default());
    assert!(script.all_used());
    assert!(g.players[0].hero.beaten, "beaten in the Dungeon");
    assert_eq!(g.players[0].hero.lives, 4);
    // Its next move is a die back toward the entrance: from the Bone Crypt
    // (position 8) a 2 goes back to the Shrine of Light (position 6),
    // which heals it to 4 lives again.
    g.players[0].hero.space = space(&rules, "Bone Crypt") as u16;
    g.players[0].hero.lives = 3;
    turn(&mut g, &[2]);
    assert_eq!(at(&g), "Shrine of Light");
    assert_eq!(g.players[0].hero.lives, 4);
    assert!(!g.players[0].hero.beaten, "on the next turn only");
    // A turn later it goes forward again: 6 + 4, the Library of Bones.
    turn(&mut g, &[4]);
    assert_eq!(at(&g), "Library of Bones");
}

#[test]
fn reaching_the_entrance_backward_puts_the_character_on_a_door_card_11_40() {
    let rules = rules();
    let config = dungeon_config(&rules);
    let mut g = troll_on(&rules, &config, "Guard Room", 6);
    let crags = space(&rules, "Crags");
    g.place_card(crags, card(&rules, "Dungeon Doorway"));
    g.players[0].hero.beaten = true;
    // From position 2 a 3 would pass the entrance: out by the only Door
    // card, on the Crags.
    turn(&mut g, &[3]);
    assert_eq!(at(&g), "Crags");
    assert!(!g.players[0].hero.beaten);
}

#[test]
fn the_treasure_chamber_chart_sends_the_character_back_to_the_main_board_11_46() {
    let rules = rules();
    let config = dungeon_config(&rules);
    // From the Lair (position 17) a 6 stops at the Treasure Chamber (19):
    // treasure 1 (2 gold), then the chart: 3 with no tokens, the Crags.
    let mut g = troll_on(&rules, &config, "Lair", 9);
    let gold = g.players[0].hero.gold;
    turn(&mut g, &[6, 1, 3]);
    assert_eq!(at(&g), "Crags");
    assert_eq!(g.players[0].hero.gold, gold + 2);
    assert_eq!(
        g.players[0].hero.ventures[0], 1,
        "a Dungeon token earned [20:14]"
    );
    assert_eq!(g.stats.board_ventures[0], 1);
}

#[test]
fn each_dungeon_token_adds_one_to_the_chart_roll_20_14() {
    let rules = rules();
    let config = dungeon_config(&rules);
    // Two tokens from earlier ventures: the same 3 on the chart reads 5,
    // the Chasm, and a third token is earned.
    let mut g = troll_on(&rules, &config, "Lair", 9);
    g.players[0].hero.ventures[0] = 2;
    turn(&mut g, &[6, 1, 3]);
    assert_eq!(at(&g), "Chasm");
    assert_eq!(g.players[0].hero.ventures[0], 3);
    // A total past the chart's end reads its last entry.
    let mut g = troll_on(&rules, &config, "Lair", 9);
    g.players[0].hero.ventures[0] = 7;
    turn(&mut g, &[6, 1, 6]);
    assert_eq!(at(&g), "Warlock's Cave");
}

pub(crate) fn load(path: &Path) -> Result<TalismanGame, String> {
    TalismanGame::load(path)
        .map(|(m, _)| m)
        .map_err(|e| e.to_string())
}

pub(crate) fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("barsoom-boards-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

#[test]
fn bad_board_data_gives_one_line_errors() {
    // (case, file edited ("" is the scenario), text replaced, replacement,
    // what the one-line error must mention).
    let cases: &[ErrorCase<'_>] = &[
        // No path back to the main board: the final space's chart empty,
        // or naming a space of the Dungeon itself.
        (
            "no exit",
            "data/boards/dungeon.toml",
            "exit = [\n  \"Fields (Village)\",\n  \"Ruins\",\n  \"Crags\",\n  \"Hills\",\n  \"Chasm\",\n  \"Castle\",\n  \"Runes\",\n  \"Oasis\",\n  \"Warlock's Cave\",\n]",
            "exit = []",
            &["dungeon.toml", "exit", "no path back to the main board"],
        ),
        (
            "exit inside",
            "data/boards/dungeon.toml",
            "  \"Fields (Village)\",",
            "  \"Bone Crypt\",",
            &[
                "dungeon.toml",
                "exit[0]",
                "no path back to the main board: \"Bone Crypt\"",
            ],
        ),
        // A doorway naming a board with no file.
        (
            "doorway",
            "data/adventure.toml",
            "doorway = \"dungeon\"",
            "doorway = \"catacombs\"",
            &["adventure.toml", ".doorway", "unknown board \"catacombs\""],
        ),
        // A card of the Dungeon's deck naming an unknown effect.
        (
            "card effect",
            "data/boards/dungeon.toml",
            "effects = [{ effect = \"lose_object\" }]",
            "effects = [{ effect = \"collapse\" }]",
            &[
                "dungeon.toml",
                "cards[10].effects[0].effect",
                "unknown effect \"collapse\"",
            ],
        ),
        // A scenario playing a board no doorway leads to.
        (
            "scenario board",
            "",
            "boards = [\"dungeon\"]",
            "boards = [\"catacombs\"]",
            &[
                "tournament.boards[0]",
                "unknown board \"catacombs\"",
                "dungeon",
            ],
        ),
    ];
    check_data_errors("talisman/four-player-dungeon.toml", cases);
}

/// One bad-data case: its name, the file edited ("" is the scenario), the
/// text replaced, its replacement, what the one-line error must mention.
pub(crate) type ErrorCase<'a> = (&'a str, &'a str, &'a str, &'a str, &'a [&'a str]);

/// Loads a copy of `scenario` (with the Talisman data) edited by each case
/// and checks the one-line error.
pub(crate) fn check_data_errors(scenario: &str, cases: &[ErrorCase<'_>]) {
    for (name, file, from, to, wants) in cases {
        check_edited(scenario, name, &[(file, from, to)], wants);
    }
}

/// Loads a copy of `scenario` (with the Talisman data) with every edit
/// `(file, from, to)` made (`file` empty: the scenario itself) and checks
/// the one-line error that names each of `wants`.
pub(crate) fn check_edited(
    scenario: &str,
    name: &str,
    edits: &[(&str, &str, &str)],
    wants: &[&str],
) {
    let dir = temp(&name.replace(' ', "-"));
    let scenario = common::copy_scenario_with_data(scenario, "talisman/data", &dir);
    for (file, from, to) in edits {
        let path = if file.is_empty() {
            scenario.clone()
        } else {
            dir.join(file)
        };
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.contains(from), "{name}: {from}");
        std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
    }
    let e = load(&scenario)
        .err()
        .unwrap_or_else(|| panic!("{name}: loads"));
    assert!(!e.contains('\n'), "{name}: one line: {e}");
    for w in wants {
        assert!(e.contains(w), "{name}: {e:?} should mention {w:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_dungeon_game_ends_and_characters_go_through_the_dungeon() {
    game_ends_and_board_visited("talisman/four-player-dungeon.toml", 0);
}

/// 300 games of `scenario` at seed 5: under 2% unfinished, and characters
/// went through expansion board `k`.
/// Threads and replays: `talisman_game::results_do_not_depend_on_threads_and_replays_match`.
pub(crate) fn game_ends_and_board_visited(scenario: &str, k: usize) {
    let model = load(&common::bundled(scenario)).unwrap_or_else(|e| panic!("{e}"));
    let one = run(&model, &RunConfig::new(5, 300), None).expect("run");
    let unfinished = barsoom::games::talisman::game::outcome_unfinished(model.rules());
    assert!(one.outcomes[usize::from(unfinished)] * 50 < 300, "{one:?}");
    // Characters did go through the board.
    let counts = barsoom::games::talisman::stats::count(
        &model,
        5,
        100,
        &barsoom::engine::runner::ProgressBar::hidden(),
    );
    assert!(counts.boards[k].visits > 0, "{:?}", counts.boards);
}

#[test]
fn a_search_player_does_not_see_the_order_of_an_expansion_deck_11_30() {
    // An expansion board's deck is face down like the main one: before a
    // playout the search re-deals its order, keeping its cards.
    use barsoom::engine::search::Searchable;
    let rules = rules();
    let config = dungeon_config(&rules);
    let mut g = Game::new(&rules, &config);
    let mut dice = barsoom::engine::rng::Dice::for_trial(3, 0);
    g.setup(&mut dice);
    let k = rules
        .expansions
        .iter()
        .position(|x| x.id == "dungeon")
        .expect("the Dungeon is loaded");
    let dealt = g.board_cards(k).to_vec();
    assert!(dealt.len() >= 10, "the Dungeon's deck is dealt");
    let mut seen = g.clone();
    seen.determinize((), 0, &mut dice);
    let redealt = seen.board_cards(k).to_vec();
    assert_ne!(redealt, dealt, "the order is dealt again");
    let sorted = |mut v: Vec<u16>| {
        v.sort_unstable();
        v
    };
    assert_eq!(sorted(redealt), sorted(dealt), "the same cards");
}
