//! `talisman.game` with the Vampire's Keep and Timescape: hand-worked cases
//! with scripted dice for a doorway into each board [11:32-33], a pack
//! animal left at the Keep's doorway [11:34], a Keep move by each band of
//! the 11:44 formula, the Vault card both ways [11:46] (the guardian beaten:
//! treasure and the chart; 3 Bite tokens: the chart only; 8 bites: out
//! [20:13]), Timescape's coloured lines [11:44] forward, back after a
//! defeat [11:40] and out by the Time Gate's chart; Poison tokens [20:16]
//! on movement and combat rolls, their cap of 5, the life lost at the end
//! of a turn with 5 and the heal that discards them; one-line errors for
//! bad Keep and Timescape data; and each board's game ending.

use barsoom::engine::TraceLog;
use barsoom::engine::breakdown::Cell;
use barsoom::games::talisman::data::Rules;
use barsoom::games::talisman::game::{Config, Source};
use barsoom::games::talisman::policy::Policy;

use crate::common::ScriptedDice;
use crate::talisman_boards::{
    ErrorCase, at, board_config, card, check_data_errors, game_ends_and_board_visited, rules,
    space, troll_on, turn,
};

/// The index of board `id` among the loaded expansions.
fn board(rules: &Rules, id: &str) -> usize {
    rules
        .expansions
        .iter()
        .position(|x| x.id == id)
        .unwrap_or_else(|| panic!("{id} is loaded"))
}

/// Seat 1's Troll on `from` (Strength `strength`) plays one turn with
/// `dice`; returns where it ends.
fn moves(rules: &Rules, config: &Config, from: &str, strength: i32, dice: &[u32]) -> String {
    let mut g = troll_on(rules, config, from, strength);
    turn(&mut g, dice);
    at(&g)
}

#[test]
fn a_doorway_leads_to_the_keep_and_to_timescape_11_32_33() {
    let rules = rules();
    for (id, doorway, entrance) in [
        ("keep", "Keep Doorway", "Keep Gate"),
        ("timescape", "Timescape Doorway", "Timescape Entrance"),
    ] {
        let config = board_config(&rules, id);
        let k = board(&rules, id);
        // Power 9 + 1 and healthy: the sensible Troll goes through as its
        // move, without a die, and stops on the entrance.
        let mut g = troll_on(&rules, &config, "Ruins", 9);
        g.place_card(space(&rules, "Ruins"), card(&rules, doorway));
        turn(&mut g, &[]);
        assert_eq!(at(&g), entrance);
        assert_eq!(g.stats.board_visits[k], 1);
        assert_eq!(g.players[0].hero.visited, 1 << k);
    }
}

#[test]
fn a_pack_animal_stays_at_the_keeps_doorway_11_34() {
    let rules = rules();
    let config = board_config(&rules, "keep");
    let mut g = troll_on(&rules, &config, "Ruins", 9);
    let ruins = space(&rules, "Ruins");
    let mule = card(&rules, "Mule");
    assert!(g.players[0].hero.take_object(&rules, mule));
    g.place_card(ruins, card(&rules, "Keep Doorway"));
    turn(&mut g, &[]);
    assert_eq!(at(&g), "Keep Gate");
    assert_eq!(g.players[0].hero.animals_len, 0);
    let pile = &g.pile[ruins][..usize::from(g.pile_len[ruins])];
    assert!(pile.contains(&mule), "the Mule waits on the Ruins");
}

#[test]
fn the_keep_is_moved_by_the_11_44_formula_one_space_per_band() {
    let rules = rules();
    let config = board_config(&rules, "keep");
    // 1-2: one space on, from the Keep Gate (0) to the Drawbridge (1);
    // 3-4: two, from the Servants' Stair (3) to the Portrait Gallery (5);
    // 5-6 (printed "4-5"): three, from the Chapel of Ash (6) to the Crypt
    // Passage (9). (Their draw-card instructions draw nothing: no deck is
    // dealt without setting up.)
    for (from, die, to) in [
        ("Keep Gate", 1, "Drawbridge"),
        ("Keep Gate", 2, "Drawbridge"),
        ("Servants' Stair", 3, "Portrait Gallery"),
        ("Servants' Stair", 4, "Portrait Gallery"),
        ("Chapel of Ash", 5, "Crypt Passage"),
        ("Chapel of Ash", 6, "Crypt Passage"),
    ] {
        assert_eq!(moves(&rules, &config, from, 9, &[die]), to, "a {die}");
    }
}

#[test]
fn a_beaten_vault_guardian_gives_treasure_then_the_chart_11_46() {
    let rules = rules();
    let config = board_config(&rules, "keep");
    let k = board(&rules, "keep");
    // From the Vault Door (16) a 6 moves three, stopping at the Vault (17).
    // The Vault card drawn is the first, the Vampire Count (Strength 7);
    // the Troll (Strength 9) more likely wins than loses, so it faces it:
    // 9 + 4 against 7 + 1, beaten. Treasure 1: 3 gold; the chart 3: the
    // Chapel. No bites.
    let mut g = troll_on(&rules, &config, "Vault Door", 9);
    let gold = g.players[0].hero.gold;
    turn(&mut g, &[6, 4, 1, 1, 3]);
    assert_eq!(at(&g), "Chapel");
    assert_eq!(g.players[0].hero.gold, gold + 3);
    assert_eq!(g.players[0].hero.bites, 0);
    assert_eq!(g.stats.board_ventures[k], 1);
}

#[test]
fn three_bites_instead_send_the_character_by_the_chart_without_treasure_11_46() {
    let rules = rules();
    let config = board_config(&rules, "keep");
    // The Troll at Strength 3 would more likely lose to the Vampire Count:
    // it takes 3 Bite tokens and goes at once by the chart, a 2 (Woods
    // (Graveyard)); no combat and no treasure roll.
    let mut g = troll_on(&rules, &config, "Vault Door", 3);
    let gold = g.players[0].hero.gold;
    turn(&mut g, &[5, 2]);
    assert_eq!(at(&g), "Woods (Graveyard)");
    assert_eq!(g.players[0].hero.bites, 3);
    assert_eq!(g.players[0].hero.gold, gold);
}

#[test]
fn with_five_bites_the_sensible_player_faces_the_guardian_and_a_defeat_keeps_it_in_11_40() {
    let rules = rules();
    let config = board_config(&rules, "keep");
    // 3 more bites would make 8 and put it out [20:13]: the sensible
    // Troll faces the guardian even at Strength 3. It loses (3 + 1 against
    // 7 + 6) and a life, and stays in the Keep, beaten.
    let mut g = troll_on(&rules, &config, "Vault Door", 3);
    g.players[0].hero.bites = 5;
    let lives = g.players[0].hero.lives;
    turn(&mut g, &[6, 1, 6]);
    assert_eq!(at(&g), "Vault");
    assert_eq!(g.players[0].hero.bites, 5);
    assert_eq!(g.players[0].hero.lives, lives - 1);
    assert!(g.players[0].hero.beaten);
    // Next turn it goes back toward the entrance by the formula: a 1 moves
    // one space back, to the Vault Door (16), on the next turn only.
    turn(&mut g, &[1]);
    assert_eq!(at(&g), "Vault Door");
    assert!(!g.players[0].hero.beaten);
}

#[test]
fn eight_bites_from_the_vault_put_the_player_out_20_13() {
    let rules = rules();
    let mut config = board_config(&rules, "keep");
    // A random player (scripted picks read 0: the first Vault card, and the
    // coin's "take the bites") with 5 bites takes 3 more: 8, out.
    config.policies[0] = Policy::Random;
    let mut g = troll_on(&rules, &config, "Vault Door", 9);
    g.players[0].hero.bites = 5;
    let mut script = ScriptedDice::new(&[6]);
    g.turn(0, &mut script, &mut TraceLog::default());
    assert!(script.all_used());
    assert!(g.players[0].out, "out of the game");
    assert!(!g.players[0].alive);
    assert_eq!(g.stats.bitten_out, 1);
}

#[test]
fn timescape_is_moved_along_the_line_the_band_names_11_44() {
    let rules = rules();
    let config = board_config(&rules, "timescape");
    for (from, dice, to) in [
        // Red, one space: the Age of Ice (red only) to the Roman Road.
        ("Age of Ice", &[1][..], "Roman Road"),
        // Blue, two: off the blue line, the Age of Ice joins it at its next
        // space ahead, the Roman Road, then the Castle Siege.
        ("Age of Ice", &[4], "Castle Siege"),
        // Green, three: from the entrance to the Stone Circle, the Castle
        // Siege and the Steam Foundry.
        ("Timescape Entrance", &[5], "Steam Foundry"),
        // Green from the Age of Ice: Castle Siege, Steam Foundry, Ruined
        // City, whose table rolls a 2: nothing.
        ("Age of Ice", &[6, 2], "Ruined City"),
    ] {
        assert_eq!(moves(&rules, &config, from, 9, dice), to, "{from} {dice:?}");
    }
    // After a defeat the move goes back along the line rolled: a red 2
    // from the Ruined City (12, off the red line) to the Far Future (11).
    let mut g = troll_on(&rules, &config, "Ruined City", 9);
    g.players[0].hero.beaten = true;
    turn(&mut g, &[2]);
    assert_eq!(at(&g), "Far Future");
    assert!(!g.players[0].hero.beaten);
}

#[test]
fn the_time_gate_sends_the_character_back_to_the_main_board() {
    let rules = rules();
    let config = board_config(&rules, "timescape");
    // A green 6 from the Ruined City passes the Time Gate and stops there:
    // its table 1 (1 gold), then the chart 4: the Hills.
    let mut g = troll_on(&rules, &config, "Ruined City", 9);
    let gold = g.players[0].hero.gold;
    turn(&mut g, &[6, 1, 4]);
    assert_eq!(at(&g), "Hills");
    assert_eq!(g.players[0].hero.gold, gold + 1);
}

#[test]
fn each_poison_token_takes_one_from_the_movement_roll_20_16() {
    let rules = rules();
    let config = board_config(&rules, "keep");
    // Unpoisoned, a 6 moves three spaces by the formula, from the
    // Servants' Stair (3) to the Chapel of Ash (6); with 2 Poison tokens
    // it counts 4, two spaces, to the Portrait Gallery (5).
    assert_eq!(
        moves(&rules, &config, "Servants' Stair", 9, &[6]),
        "Chapel of Ash"
    );
    let mut g = troll_on(&rules, &config, "Servants' Stair", 9);
    g.players[0].hero.poison = 2;
    turn(&mut g, &[6]);
    assert_eq!(at(&g), "Portrait Gallery");
    assert_eq!(g.players[0].hero.poison, 2, "tokens stay");
    // With 5 a 3 still moves one space (our reading: at least one), to
    // the Blood Fountain (4, nothing for the neutral Troll), and the turn
    // ends with 5 tokens: a life lost.
    let mut g = troll_on(&rules, &config, "Servants' Stair", 9);
    g.players[0].hero.poison = 5;
    let lives = g.players[0].hero.lives;
    turn(&mut g, &[3]);
    assert_eq!(at(&g), "Blood Fountain");
    assert_eq!(g.players[0].hero.lives, lives - 1);
}

#[test]
fn each_poison_token_takes_one_from_the_combat_roll_20_16() {
    let rules = rules();
    let config = board_config(&rules, "keep");
    // The Outer Ward's guard: Strength 3 + a die of 1. The Troll (6) rolls
    // 2 against the guard's 3: 8 against 7 would win, but 2 Poison tokens
    // make it 6 against 7, lost: a life, and beaten.
    let mut g = troll_on(&rules, &config, "Outer Ward", 6);
    g.players[0].hero.poison = 2;
    let lives = g.players[0].hero.lives;
    let mut script = ScriptedDice::new(&[1, 2, 3]);
    g.encounter_space(0, &mut script, &mut TraceLog::default());
    assert!(script.all_used());
    assert_eq!(g.players[0].hero.lives, lives - 1);
    assert!(g.players[0].hero.beaten);
}

#[test]
fn poison_is_held_to_five_and_healing_discards_it_20_16() {
    let rules = rules();
    let config = board_config(&rules, "keep");
    // 4 tokens and 3 more: 5 held, a life lost for each of the 2 past 5.
    let mut g = troll_on(&rules, &config, "Keep Gate", 9);
    g.players[0].hero.poison = 4;
    let lives = g.players[0].hero.lives;
    g.gain_poison(0, 3, Source::None, &mut TraceLog::default());
    assert_eq!(g.players[0].hero.poison, 5);
    assert_eq!(g.players[0].hero.lives, lives - 2);
    // A heal of 3 lives discards the 2 tokens held first, then heals one.
    let hero = &mut g.players[0].hero;
    hero.poison = 2;
    hero.lives = 2;
    hero.heal(3);
    assert_eq!((hero.poison, hero.lives), (0, 3));
}

#[test]
fn bad_keep_and_timescape_data_give_one_line_errors() {
    let keep: &[ErrorCase<'_>] = &[
        (
            "keep layout",
            "data/boards/keep.toml",
            "layout = \"spiral\"",
            "layout = \"maze\"",
            &["keep.toml", "layout", "expected spiral", "\"maze\""],
        ),
        (
            "keep movement",
            "data/boards/keep.toml",
            "movement = \"formula\"",
            "movement = \"two dice\"",
            &["keep.toml", "movement", "expected die", "formula"],
        ),
        (
            "keep card effect",
            "data/boards/keep.toml",
            "effects = [{ effect = \"lose_lives\", amount = 1 }]",
            "effects = [{ effect = \"drain\", amount = 1 }]",
            &[
                "keep.toml",
                "cards[",
                ".effects[0].effect",
                "unknown effect \"drain\"",
            ],
        ),
        (
            "keep guardian",
            "data/boards/keep.toml",
            "{ name = \"Vampire Lord\", strength = 8 }",
            "{ name = \"Vampire Lord\", strength = 8, craft = 3 }",
            &["keep.toml", "vault[1]", "a strength or a craft"],
        ),
    ];
    check_data_errors("talisman/four-player-keep.toml", keep);
    let timescape: &[ErrorCase<'_>] = &[
        (
            "timescape layout",
            "data/boards/timescape.toml",
            "layout = \"lines\"",
            "layout = \"lanes\"",
            &["timescape.toml", "layout", "\"lanes\""],
        ),
        (
            "timescape line space",
            "data/boards/timescape.toml",
            "  \"Clockwork Hall\",\n  \"Primeval Swamp\",",
            "  \"Clockwork Hall\",\n  \"Swamp\",",
            &["timescape.toml", "lines.red[2]", "\"Swamp\" is not a space"],
        ),
        (
            "timescape line backward",
            "data/boards/timescape.toml",
            "  \"Stone Circle\",\n  \"Castle Siege\",\n  \"Steam Foundry\",",
            "  \"Stone Circle\",\n  \"Steam Foundry\",\n  \"Castle Siege\",",
            &["timescape.toml", "lines.green[3]", "away from the entrance"],
        ),
        (
            "timescape die",
            "data/boards/timescape.toml",
            "movement = \"formula\"",
            "movement = \"die\"",
            &["timescape.toml", "movement", "expected formula"],
        ),
    ];
    check_data_errors("talisman/four-player-timescape.toml", timescape);
}

#[test]
fn the_keep_game_ends_and_characters_go_through_the_keep() {
    let rules = rules();
    game_ends_and_board_visited("talisman/four-player-keep.toml", board(&rules, "keep"));
    // Its bites and poison are counted in the breakdown though the
    // scenario plays no `tokens` cards: they come with the board [20:13,
    // 20:16].
    let model =
        crate::talisman_boards::load(&crate::common::bundled("talisman/four-player-keep.toml"))
            .unwrap_or_else(|e| panic!("{e}"));
    let breakdown = barsoom::games::BreakdownModel::breakdown(
        &model,
        5,
        100,
        &barsoom::engine::runner::ProgressBar::hidden(),
    );
    for name in ["bites taken", "poison tokens taken"] {
        let row = breakdown
            .tables
            .iter()
            .flat_map(|t| &t.rows)
            .find(|row| row.first() == Some(&Cell::Text(name.into())))
            .unwrap_or_else(|| panic!("a row {name:?}"));
        assert!(matches!(row[1], Cell::Count(n) if n > 0), "{row:?}");
    }
}

#[test]
fn the_timescape_game_ends_and_characters_go_through_timescape() {
    let rules = rules();
    game_ends_and_board_visited(
        "talisman/four-player-timescape.toml",
        board(&rules, "timescape"),
    );
}
