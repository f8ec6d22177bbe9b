//! `talisman.game` with the City: hand-worked cases with scripted dice for
//! entering from the main board [11:35], a store entered with the rest of
//! the count lost [11:41, 11:47], no store two turns running [11:43], pack
//! animals left outside [11:42], a warrant issued by each statute the
//! model breaks [13:14, 20:11] and a card that lets the character get
//! away, the Watch with a warrant [20:10] (an arrest to the Donjon, an
//! escape, a Law card that is not a Watch card), a beaten warrant holder
//! sent to the Donjon [16:9], warrants never left on a space [20:3];
//! one-line errors for bad City data; and the City game ending.

use barsoom::engine::{ScriptedDice, TraceLog};
use barsoom::games::talisman::character::Hero;
use barsoom::games::talisman::data::Rules;
use barsoom::games::talisman::game::{CITY_DESTINATIONS, Cause, CityDest, Config, Game, Source};
use barsoom::games::talisman::policy::Policy;

use crate::talisman_boards::{
    ErrorCase, at, board_config, card, check_data_errors, check_edited,
    game_ends_and_board_visited, rules, space,
};

/// The City's index among the loaded boards.
fn city(rules: &Rules) -> usize {
    rules
        .expansions
        .iter()
        .position(|x| x.id == "city")
        .expect("the City is loaded")
}

/// A game with the City played and every seat random.
fn random_config(rules: &Rules) -> Config {
    let mut config = board_config(rules, "city");
    config.policies = [Policy::Random; 6];
    config
}

/// Seat `seat`'s `character` on `at`, in play.
fn place(g: &mut Game<'_>, seat: usize, character: &str, at: &str) {
    let rules = g.rules;
    let p = &mut g.players[seat];
    p.hero = Hero::new(rules, rules.character_index(character).expect("character"));
    p.hero.space = space(rules, at) as u16;
    p.alive = true;
    p.out = false;
    p.policy = g.config.policies[seat];
}

/// Plays seat 1's turn with `dice` and `picks`, all of which must be used.
fn turn(g: &mut Game<'_>, dice: &[u32], picks: &[usize]) {
    let mut script = ScriptedDice::new(dice).with_picks(picks);
    g.turn(0, &mut script, &mut TraceLog::default());
    assert!(script.all_used(), "every scripted die is rolled");
}

/// The index of `dest` among seat 1's City destinations for a `die`.
fn pick_of(g: &Game<'_>, die: i32, dest: CityDest) -> usize {
    let rules = g.rules;
    let c = rules.expansions[city(rules)].city.as_ref().expect("city");
    let hero = &g.players[0].hero;
    let mut out = [CityDest::Street(0); CITY_DESTINATIONS];
    let n = g.city_destinations(c, usize::from(hero.space), die, hero.last_store, &mut out);
    out[..n]
        .iter()
        .position(|&d| d == dest)
        .unwrap_or_else(|| panic!("{dest:?} is not among {:?}", &out[..n]))
}

/// The City destinations of seat 1 for a `die`.
fn destinations(g: &Game<'_>, die: i32) -> Vec<CityDest> {
    let rules = g.rules;
    let c = rules.expansions[city(rules)].city.as_ref().expect("city");
    let hero = &g.players[0].hero;
    let mut out = [CityDest::Street(0); CITY_DESTINATIONS];
    let n = g.city_destinations(c, usize::from(hero.space), die, hero.last_store, &mut out);
    out[..n].to_vec()
}

fn street(rules: &Rules, name: &str) -> CityDest {
    CityDest::Street(space(rules, name) as u16)
}

fn store(rules: &Rules, name: &str) -> CityDest {
    CityDest::Store(space(rules, name) as u16)
}

#[test]
fn the_city_is_entered_from_its_space_in_place_of_a_move_11_35() {
    let rules = rules();
    let config = board_config(&rules, "city");
    let k = city(&rules);
    // A sensible Dwarf with 2 gold, no warrant, not barred: it goes in at
    // the City Gate without a die; the gate has no instructions and no
    // statute is broken.
    let mut g = Game::new(&rules, &config);
    place(&mut g, 0, "Dwarf", "City");
    g.players[0].hero.gold = 2;
    turn(&mut g, &[], &[]);
    assert_eq!(at(&g), "City Gate");
    assert_eq!(g.stats.board_visits[k], 1);
    // With 1 gold the sensible player stays out (a store's price, and
    // never none [13:14 no. 9]): it moves on the main board.
    let mut g = Game::new(&rules, &config);
    place(&mut g, 0, "Dwarf", "City");
    g.players[0].hero.gold = 1;
    turn(&mut g, &[3], &[]);
    assert_ne!(at(&g), "City Gate");
    // The Troll is barred [13:14 no. 8]: the sensible player keeps out.
    let mut g = Game::new(&rules, &config);
    place(&mut g, 0, "Troll", "City");
    g.players[0].hero.gold = 5;
    turn(&mut g, &[3], &[]);
    assert_ne!(at(&g), "City Gate");
}

#[test]
fn a_move_reaches_the_stores_on_its_way_and_the_gate_leads_out_11_38_11_47() {
    let rules = rules();
    let config = random_config(&rules);
    let mut g = Game::new(&rules, &config);
    place(&mut g, 0, "Dwarf", "City Gate");
    // From the gate a 3: forward past Market Street (Money Lender), Smiths'
    // Row (Armourer) to Guild Street (Outfitter); back past Watch House
    // Row (the Donjon: never entered by a move) and Wizards' Lane
    // (Alchemist) to Thieves' Alley; or out through the gate, the City
    // space first and two more round the outer ring either way [11:38].
    let city_space = space(&rules, "City");
    let out = |cw| CityDest::Out(rules.board.ring_step(city_space, 2, cw) as u16);
    let mut got = destinations(&g, 3);
    let mut want = vec![
        out(true),
        out(false),
        store(&rules, "Money Lender"),
        store(&rules, "Armourer"),
        store(&rules, "Outfitter"),
        street(&rules, "Guild Street"),
        store(&rules, "Alchemist"),
        street(&rules, "Thieves' Alley"),
    ];
    got.sort_by_key(|d| format!("{d:?}"));
    want.sort_by_key(|d| format!("{d:?}"));
    assert_eq!(got, want);
    // A 1 from the gate reaches the City space itself.
    assert!(destinations(&g, 1).contains(&CityDest::Out(city_space as u16)));
}

#[test]
fn a_store_is_entered_without_an_exact_count_and_the_rest_is_lost_11_41_11_47() {
    let rules = rules();
    let config = random_config(&rules);
    let mut g = Game::new(&rules, &config);
    place(&mut g, 0, "Dwarf", "City Gate");
    // A 6 passes Smiths' Row at its second space: the Dwarf goes into the
    // Armourer and the four spaces left are lost. It buys nothing (the
    // random player's coin says no) and breaks no statute (1 gold).
    let pick = pick_of(&g, 6, store(&rules, "Armourer"));
    turn(&mut g, &[6], &[pick]);
    assert_eq!(at(&g), "Armourer");
    assert_eq!(
        usize::from(g.players[0].hero.last_store),
        space(&rules, "Armourer")
    );
    assert!(!g.players[0].hero.warrant);
}

#[test]
fn not_the_same_store_two_turns_running_and_a_store_is_always_left_11_43() {
    let rules = rules();
    let config = random_config(&rules);
    let mut g = Game::new(&rules, &config);
    place(&mut g, 0, "Dwarf", "Armourer");
    g.players[0].hero.last_store = space(&rules, "Armourer") as u16;
    // From the Armourer every move ends elsewhere: its street is the
    // first space counted.
    for die in 1..=6 {
        assert!(
            !destinations(&g, die).contains(&store(&rules, "Armourer")),
            "a {die}"
        );
    }
    // A 1 from the Armourer ends on Smiths' Row, its street.
    assert_eq!(destinations(&g, 1), vec![street(&rules, "Smiths' Row")]);
    // Back on Smiths' Row after a move into the Armourer, the next move
    // may not enter it again; a move later it may.
    g.players[0].hero.space = space(&rules, "Smiths' Row") as u16;
    assert!(!destinations(&g, 2).contains(&store(&rules, "Armourer")));
    g.players[0].hero.last_store = u16::MAX;
    assert!(destinations(&g, 2).contains(&store(&rules, "Armourer")));
    // Played out: into the Armourer, then the next turn out of it, not
    // back in, and the turn after that the Armourer may be entered again.
    let mut g = Game::new(&rules, &config);
    place(&mut g, 0, "Dwarf", "Smiths' Row");
    let pick = pick_of(&g, 2, store(&rules, "Armourer"));
    turn(&mut g, &[2], &[pick]);
    assert_eq!(at(&g), "Armourer");
    // A 1 from the Armourer: Smiths' Row, the only end (no draw there:
    // the City's deck is not dealt without setting up).
    turn(&mut g, &[1], &[]);
    assert_eq!(at(&g), "Smiths' Row");
    assert_eq!(g.players[0].hero.last_store, u16::MAX);
    assert!(destinations(&g, 2).contains(&store(&rules, "Armourer")));
}

#[test]
fn pack_animals_wait_on_the_street_outside_a_store_11_42() {
    let rules = rules();
    let config = random_config(&rules);
    let mut g = Game::new(&rules, &config);
    place(&mut g, 0, "Dwarf", "City Gate");
    let mule = card(&rules, "Mule");
    assert!(g.players[0].hero.take_object(&rules, mule));
    assert_eq!(g.players[0].hero.animals_len, 1);
    // A 3 (the Mule does not slow the move) reaches Guild Street: into
    // the Outfitter, the Mule left outside.
    let pick = pick_of(&g, 3, store(&rules, "Outfitter"));
    turn(&mut g, &[3], &[pick]);
    assert_eq!(at(&g), "Outfitter");
    assert_eq!(g.players[0].hero.animals_len, 0);
    let guild = space(&rules, "Guild Street");
    assert!(g.pile[guild][..usize::from(g.pile_len[guild])].contains(&mule));
}

/// A City move: its die, where it ends, and the picks before it (at the
/// turn's start) and after it (in the encounter).
struct Move<'m> {
    die: u32,
    to: CityDest,
    before: &'m [usize],
    after: &'m [usize],
}

/// A move of `die` to `to`, with no picks around it.
fn mv(die: u32, to: CityDest) -> Move<'static> {
    Move {
        die,
        to,
        before: &[],
        after: &[],
    }
}

/// Seat 1, set up by `setup`, plays a turn in the City with `top` on the
/// City's deck: the move `m`, then `dice`. Returns the game.
fn city_turn<'a>(
    rules: &'a Rules,
    config: &'a Config,
    setup: impl Fn(&mut Game<'a>),
    top: &str,
    m: Move<'_>,
    dice: &[u32],
) -> Game<'a> {
    let mut g = Game::new(rules, config);
    setup(&mut g);
    let pick = pick_of(&g, m.die as i32, m.to);
    g.put_on_board_deck(city(rules), card(rules, top));
    let all: Vec<u32> = std::iter::once(m.die).chain(dice.iter().copied()).collect();
    let picks: Vec<usize> = m
        .before
        .iter()
        .copied()
        .chain(std::iter::once(pick))
        .chain(m.after.iter().copied())
        .collect();
    turn(&mut g, &all, &picks);
    g
}

#[test]
fn combat_in_the_streets_earns_a_warrant_and_the_watch_fights_13_14_20_11() {
    let rules = rules();
    let config = random_config(&rules);
    // The Dwarf (Strength 3, +1 against creatures) moves 1 to Market
    // Street, where a Footpad (Strength 3) waits: 3 + 1 + 6 beats 3 + 1.
    // Combat in the street [13:14 no. 1]: the turn ends with the top City
    // card, the City Watch, a Law card: a Warrant, and the Watch
    // (Strength 6) fights at once: 3 + 1 + 6 against 6 + 1, escaped.
    let setup = |g: &mut Game<'_>| {
        place(g, 0, "Dwarf", "City Gate");
        g.place_card(space(g.rules, "Market Street"), card(g.rules, "Footpad"));
    };
    let g = city_turn(
        &rules,
        &config,
        setup,
        "City Watch",
        mv(1, street(&rules, "Market Street")),
        &[6, 1, 6, 1],
    );
    assert_eq!(at(&g), "Market Street");
    assert!(g.players[0].hero.warrant, "a warrant issued");
    assert_eq!(g.stats.city, [1, 1, 0, 0]);
}

#[test]
fn casting_a_spell_in_the_street_earns_a_warrant_13_14_20_11() {
    let rules = rules();
    let config = random_config(&rules);
    let healing = rules
        .spells
        .iter()
        .position(|s| s.name == "Healing")
        .expect("Healing") as u8;
    // On Temple Square (a street) the random Dwarf casts Healing at the
    // start of its turn (its coin 0 of 4, spell 0; Craft 9 casts without a
    // roll) [13:14 no. 5], then moves 4 to the City Gate. The top card,
    // the Town Crier, is a Law card but not a Watch card: a Warrant, and
    // the unseen Watch of Strength 7 fights: 3 + 1 + 6 against 7 + 1.
    let setup = move |g: &mut Game<'_>| {
        place(g, 0, "Dwarf", "Temple Square");
        let h = &mut g.players[0].hero;
        h.craft = 9;
        h.spells[0] = healing;
        h.spells_len = 1;
    };
    let g = city_turn(
        &rules,
        &config,
        setup,
        "Town Crier",
        Move {
            before: &[0, 0],
            ..mv(4, street(&rules, "City Gate"))
        },
        &[6, 1],
    );
    assert_eq!(at(&g), "City Gate");
    assert_eq!(g.players[0].hero.spells_len, 0, "the spell was cast");
    assert!(g.players[0].hero.warrant);
    assert_eq!(g.stats.city, [1, 1, 0, 0]);
}

#[test]
fn stealing_from_a_character_earns_a_warrant_13_14_20_11() {
    let rules = rules();
    let config = random_config(&rules);
    // The Thief moves 4 from the gate to Temple Square, where the Elf
    // stands with 2 gold; it meets her (coin 1, the first) and steals a
    // gold [13:14 no. 6]. City Watch: a Warrant; 3 + 6 against 6 + 1.
    let setup = |g: &mut Game<'_>| {
        place(g, 0, "Thief", "City Gate");
        place(g, 1, "Elf", "Temple Square");
        g.players[1].hero.gold = 2;
    };
    let g = city_turn(
        &rules,
        &config,
        setup,
        "City Watch",
        Move {
            after: &[1, 0],
            ..mv(4, street(&rules, "Temple Square"))
        },
        &[6, 1],
    );
    assert_eq!(g.players[1].hero.gold, 1, "a gold stolen");
    assert_eq!(g.players[0].hero.gold, 2);
    assert!(g.players[0].hero.warrant);
    assert_eq!(g.stats.city, [1, 1, 0, 0]);
}

#[test]
fn a_barred_character_and_one_without_money_earn_warrants_13_14_20_11() {
    let rules = rules();
    let config = random_config(&rules);
    // The Troll is of a race the City bars [13:14 no. 8]; the Dwarf with no
    // gold breaks no. 9. Each moves 4 to Temple Square (no cards); the
    // City Watch issues the Warrant, and Strength 6 + 6 or 3 + 1 + 6 beats
    // the Watch's 6 + 1.
    for (character, strength, gold) in [("Troll", 6, 1), ("Dwarf", 3, 0)] {
        let setup = move |g: &mut Game<'_>| {
            place(g, 0, character, "City Gate");
            g.players[0].hero.strength = strength;
            g.players[0].hero.gold = gold;
        };
        let g = city_turn(
            &rules,
            &config,
            setup,
            "City Watch",
            mv(4, street(&rules, "Temple Square")),
            &[6, 1],
        );
        assert!(g.players[0].hero.warrant, "{character}");
        assert_eq!(g.stats.city, [1, 1, 0, 0], "{character}");
    }
}

#[test]
fn a_card_that_is_not_a_law_card_lets_the_character_get_away_20_11() {
    let rules = rules();
    let config = random_config(&rules);
    // No gold, but the top card is the Festival: no warrant, no fight.
    let setup = |g: &mut Game<'_>| {
        place(g, 0, "Dwarf", "City Gate");
        g.players[0].hero.gold = 0;
    };
    let g = city_turn(
        &rules,
        &config,
        setup,
        "Festival",
        mv(4, street(&rules, "Temple Square")),
        &[],
    );
    assert!(!g.players[0].hero.warrant);
    assert_eq!(g.stats.city, [1, 0, 0, 0]);
}

#[test]
fn with_a_warrant_a_watch_card_brings_an_arrest_and_the_donjon_20_10() {
    let rules = rules();
    let config = random_config(&rules);
    // With a warrant the Dwarf moves 1 to Market Street and draws the City
    // Watch: the Watch (Strength 6) fights, 3 + 1 + 1 against 6 + 6. It
    // loses a life and is taken to the Donjon, its warrant served; the
    // end of the turn checks nothing there.
    let setup = |g: &mut Game<'_>| {
        place(g, 0, "Dwarf", "City Gate");
        g.players[0].hero.warrant = true;
    };
    let lives = Hero::new(&rules, rules.character_index("Dwarf").expect("Dwarf")).lives;
    let mut g = city_turn(
        &rules,
        &config,
        setup,
        "City Watch",
        mv(1, street(&rules, "Market Street")),
        &[1, 6],
    );
    assert_eq!(at(&g), "Donjon");
    let h = g.players[0].hero;
    assert!(!h.warrant, "the warrant is served");
    assert_eq!(h.lives, lives - 1);
    assert_eq!(h.lost_turns, 2);
    assert_eq!(g.stats.city, [0, 0, 1, 1]);
    // Two turns lost in the Donjon, then out by its street, Watch House
    // Row: a 2 reaches the gate (the first choice).
    turn(&mut g, &[], &[]);
    turn(&mut g, &[], &[]);
    assert_eq!(at(&g), "Donjon");
    turn(&mut g, &[2], &[0]);
    assert_eq!(at(&g), "City Gate");
}

#[test]
fn with_a_warrant_a_won_fight_escapes_and_keeps_it_20_10() {
    let rules = rules();
    let config = random_config(&rules);
    // The same draw, 3 + 1 + 6 against 6 + 1: escaped, the warrant kept,
    // and fighting the Watch broke no statute (no card at the turn's end).
    let setup = |g: &mut Game<'_>| {
        place(g, 0, "Dwarf", "City Gate");
        g.players[0].hero.warrant = true;
    };
    let g = city_turn(
        &rules,
        &config,
        setup,
        "City Watch",
        mv(1, street(&rules, "Market Street")),
        &[6, 1],
    );
    assert_eq!(at(&g), "Market Street");
    assert!(g.players[0].hero.warrant);
    assert_eq!(g.stats.city, [0, 0, 0, 0]);
    // Another Law card, the Tax Collector, is resolved as written (a gold
    // lost), then the unseen Watch of Strength 7 fights: 3 + 1 + 6
    // against 7 + 1.
    let setup = |g: &mut Game<'_>| {
        place(g, 0, "Dwarf", "City Gate");
        g.players[0].hero.warrant = true;
        g.players[0].hero.gold = 3;
    };
    let g = city_turn(
        &rules,
        &config,
        setup,
        "Tax Collector",
        mv(1, street(&rules, "Market Street")),
        &[6, 1],
    );
    assert_eq!(g.players[0].hero.gold, 2);
    assert!(g.players[0].hero.warrant);
    assert_eq!(at(&g), "Market Street");
}

#[test]
fn a_beaten_warrant_holder_is_sent_to_the_donjon_in_place_of_spoils_16_9() {
    let rules = rules();
    let config = board_config(&rules, "city");
    let mut g = Game::new(&rules, &config);
    place(&mut g, 0, "Dwarf", "Fields (City)");
    place(&mut g, 1, "Elf", "Fields (City)");
    g.players[0].hero.strength = 6;
    g.players[1].hero.warrant = true;
    let lives = g.players[1].hero.lives;
    // 6 + 6 against 3 + 1: the sensible victor sends the Elf to the
    // Donjon instead of taking a life, an object or a gold.
    let mut dice = ScriptedDice::new(&[6, 1]);
    g.character_combat(0, 1, &mut dice, &mut TraceLog::default());
    assert!(dice.all_used());
    let donjon = space(&rules, "Donjon");
    let elf = g.players[1].hero;
    assert_eq!(usize::from(elf.space), donjon);
    assert!(!elf.warrant);
    assert_eq!(elf.lives, lives);
    assert_eq!(elf.lost_turns, 2);
    assert_eq!(g.stats.city[3], 1);
    // The warrant is not left on the Donjon's space [20:3].
    assert_eq!(g.pile_len[donjon], 0);
}

#[test]
fn warrants_are_never_left_on_a_space_20_3() {
    let rules = rules();
    let config = board_config(&rules, "city");
    let mut g = Game::new(&rules, &config);
    place(&mut g, 0, "Dwarf", "Market Street");
    g.players[0].hero.warrant = true;
    let blade = card(&rules, "Fine Blade");
    assert!(g.players[0].hero.take_object(&rules, blade));
    // The character dies: its object stays on the space, its warrant does
    // not (it is no card), and it dies with the character.
    g.kill(0, Cause::Enemy, Source::None, &mut TraceLog::default());
    let market = space(&rules, "Market Street");
    assert_eq!(&g.pile[market][..usize::from(g.pile_len[market])], &[blade]);
    assert!(!g.players[0].alive);
    // The next character comes in without one.
    assert!(!Hero::new(&rules, 0).warrant);
}

#[test]
fn bad_city_data_is_a_one_line_error() {
    let cases: &[ErrorCase<'_>] = &[
        (
            "a store naming an unknown item",
            "data/boards/city.toml",
            "sells = [\"Lantern\", \"Mule\", \"Raft\"]",
            "sells = [\"Lantern\", \"Camel\", \"Raft\"]",
            &["city.toml", "stores[1].sells[1]", "Camel"],
        ),
        (
            "a Law card with an unknown effect",
            "data/boards/city.toml",
            "law = \"officer\"",
            "law = \"bribe\"",
            &["city.toml", "cards[2].law", "bribe"],
        ),
        (
            "a store on a street the City has not",
            "data/boards/city.toml",
            "street = \"Guild Street\"",
            "street = \"Guild Road\"",
            &["city.toml", "stores[1].street", "Guild Road"],
        ),
        (
            "a Watch card without a Strength",
            "data/boards/city.toml",
            "strength = 8",
            "strength = 0",
            &["city.toml", "cards[1].strength", "Watch"],
        ),
        (
            "a Law card outside the City's deck",
            "data/boards/dungeon.toml",
            "name = \"Skeleton\"\n",
            "name = \"Skeleton\"\nlaw = \"watch\"\n",
            &["dungeon.toml", "cards[0].law", "City"],
        ),
        (
            "a barred character not in the data",
            "data/boards/city.toml",
            "barred = [\"Troll\", \"Ghoul\"]",
            "barred = [\"Troll\", \"Giant\"]",
            &["city.toml", "barred[1]", "Giant"],
        ),
    ];
    check_data_errors("talisman/four-player-city.toml", cases);
}

/// Loads a copy of the City scenario with `edits` made and checks the
/// one-line error.
fn check_edits(name: &str, edits: &[(&str, &str, &str)], wants: &[&str]) {
    check_edited("talisman/four-player-city.toml", name, edits, wants);
}

#[test]
fn a_city_with_no_way_back_to_the_main_board_is_a_one_line_error_11_38() {
    // Entered from a space of the inner region.
    check_edits(
        "city entered from the inner region",
        &[
            ("data/board.toml", "board = \"city\"\n", ""),
            (
                "data/board.toml",
                "name = \"Mines\"\nregion = \"inner\"\n",
                "name = \"Mines\"\nregion = \"inner\"\nboard = \"city\"\n",
            ),
        ],
        &["board.toml", ".board", "no way back to the main board"],
    );
    // Reached only by a Doorway card: no main-board space to leave by.
    check_edits(
        "city reached by a doorway",
        &[
            ("data/board.toml", "board = \"city\"\n", ""),
            (
                "data/adventure.toml",
                "doorway = \"keep\"",
                "doorway = \"city\"",
            ),
        ],
        &["city.toml", "no way back to the main board"],
    );
}

#[test]
fn the_city_game_ends_and_characters_go_through_the_city() {
    let rules = rules();
    game_ends_and_board_visited("talisman/four-player-city.toml", city(&rules));
}
